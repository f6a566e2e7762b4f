//! The GPU tables of a report, of `trace -c --gpu` and of `profile --gpu`:
//! the commands a device ran by kind and name (the device's own time, the
//! wait in the queue, the bytes moved), and the API calls by function.

use std::collections::HashMap;
use std::fmt::Write as _;

use genba_events::{GpuEvent, GpuKind};
use serde_json::json;

/// A row: how many, errors, time (the device's, for a command), the
/// longest, the time waited in the queue, the bytes moved.
#[derive(Default)]
struct Row {
    count: u64,
    errors: u64,
    ns: u64,
    max_ns: u64,
    queued_ns: u64,
    bytes: u64,
}

#[derive(Default)]
pub struct GpuTables {
    calls: HashMap<String, Row>,
    commands: HashMap<(String, String), Row>,
}

/// A command kind's name, as the recording writes it.
pub fn kind_name(k: GpuKind) -> &'static str {
    match k {
        GpuKind::Kernel => "kernel",
        GpuKind::Read => "read",
        GpuKind::Write => "write",
        GpuKind::Copy => "copy",
        GpuKind::Fill => "fill",
        GpuKind::Map => "map",
        GpuKind::Unmap => "unmap",
        GpuKind::Marker => "marker",
        GpuKind::Other => "other",
    }
}

fn secs(ns: u64) -> String {
    format!("{:.6}", ns as f64 / 1e9)
}

impl GpuTables {
    /// An API call of `ns`.
    pub fn call(&mut self, name: &str, failed: bool, ns: u64) {
        let r = match self.calls.get_mut(name) {
            Some(r) => r,
            None => self.calls.entry(name.to_string()).or_default(),
        };
        r.count += 1;
        r.errors += u64::from(failed);
        r.ns += ns;
        r.max_ns = r.max_ns.max(ns);
    }

    /// A command that ran `ns` on the device after `queued` ns in its queue.
    pub fn command(&mut self, kind: &str, name: &str, ns: u64, queued: u64, bytes: u64) {
        let r = self
            .commands
            .entry((kind.to_string(), name.to_string()))
            .or_default();
        r.count += 1;
        r.ns += ns;
        r.max_ns = r.max_ns.max(ns);
        r.queued_ns += queued;
        r.bytes += bytes;
    }

    /// Counts a live GPU event.
    pub fn event(&mut self, g: &GpuEvent) {
        match g {
            GpuEvent::Call(c) => self.call(&c.name, c.error != 0, c.end.saturating_sub(c.ts)),
            GpuEvent::Command(c) if c.start != 0 && c.end >= c.start => {
                let queued = if c.queued != 0 {
                    c.start.saturating_sub(c.queued)
                } else {
                    0
                };
                self.command(kind_name(c.kind), &c.name, c.end - c.start, queued, c.bytes)
            }
            _ => {}
        }
    }

    fn command_rows(&self) -> Vec<(&(String, String), &Row)> {
        let mut rows: Vec<_> = self.commands.iter().collect();
        rows.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(a.0.cmp(b.0)));
        rows
    }

    fn call_rows(&self) -> Vec<(&String, &Row)> {
        let mut rows: Vec<_> = self.calls.iter().collect();
        rows.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(a.0.cmp(b.0)));
        rows
    }

    /// The two tables as text (nothing without GPU events).
    pub fn render_text(&self) -> String {
        let mut s = String::new();
        if !self.commands.is_empty() {
            let _ = writeln!(s, "\nGPU commands (the device's own times):");
            let _ = writeln!(
                s,
                "{:<7} {:<24} {:>7} {:>11} {:>10} {:>10} {:>12} {:>10}",
                "kind", "command", "count", "seconds", "avg us", "queued us", "bytes", "GB/s"
            );
            for ((kind, name), g) in self.command_rows() {
                let bw = if g.bytes > 0 && g.ns > 0 {
                    format!("{:.2}", g.bytes as f64 / g.ns as f64)
                } else {
                    "-".into()
                };
                let _ = writeln!(
                    s,
                    "{:<7} {:<24} {:>7} {:>11} {:>10.1} {:>10.1} {:>12} {:>10}",
                    kind,
                    name,
                    g.count,
                    secs(g.ns),
                    g.ns as f64 / g.count.max(1) as f64 / 1e3,
                    g.queued_ns as f64 / g.count.max(1) as f64 / 1e3,
                    g.bytes,
                    bw
                );
            }
        }
        if !self.calls.is_empty() {
            let _ = writeln!(s, "\nGPU API calls (on the calling threads):");
            let _ = writeln!(
                s,
                "{:>7} {:>7} {:>11} {:>11}  function",
                "calls", "errors", "seconds", "longest"
            );
            for (name, g) in self.call_rows() {
                let errors = if g.errors > 0 {
                    g.errors.to_string()
                } else {
                    String::new()
                };
                let _ = writeln!(
                    s,
                    "{:>7} {:>7} {:>11} {:>11}  {}",
                    g.count,
                    errors,
                    secs(g.ns),
                    secs(g.max_ns),
                    name
                );
            }
        }
        s
    }

    /// The two tables as JSON: `commands` and `calls`.
    pub fn render_json(&self) -> serde_json::Value {
        json!({
            "commands": self.command_rows().into_iter().map(|((kind, name), g)| json!({
                "kind": kind, "name": name, "count": g.count, "device_ns": g.ns,
                "max_ns": g.max_ns, "queued_ns": g.queued_ns, "bytes": g.bytes})).collect::<Vec<_>>(),
            "calls": self.call_rows().into_iter().map(|(name, g)| json!({
                "name": name, "calls": g.count, "errors": g.errors, "total_ns": g.ns,
                "max_ns": g.max_ns})).collect::<Vec<_>>(),
        })
    }
}
