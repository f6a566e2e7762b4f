//! The GPU tables of a report, of `trace -c --gpu` and of `profile --gpu`:
//! the commands a device ran by kind and name (the device's own time with
//! its p50 and p99, the wait in the queue, the bytes moved), each queue's
//! busy time, the API calls by function, and (from a recording's exact
//! intervals) the time threads were blocked inside GPU calls, by call site.

use std::collections::HashMap;
use std::fmt::Write as _;

use genba_events::{GpuEvent, GpuKind};
use hdrhistogram::Histogram;
use serde_json::json;

/// A row: how many, errors, time (the device's, for a command), the
/// longest, the time waited in the queue, the bytes moved, and for a
/// command the distribution of its times.
#[derive(Default)]
struct Row {
    count: u64,
    errors: u64,
    ns: u64,
    max_ns: u64,
    queued_ns: u64,
    bytes: u64,
    hist: Option<Histogram<u64>>,
}

impl Row {
    fn percentile(&self, q: f64) -> u64 {
        self.hist
            .as_ref()
            .map_or(0, |h| h.value_at_quantile(q).min(self.max_ns))
    }
}

/// A queue's commands' executions, whose union is its busy time (they
/// arrive in no set order: a queue may run commands out of order, and a
/// recording's lanes are read one after the other).
#[derive(Default)]
struct Busy {
    runs: Vec<(u64, u64)>,
}

impl Busy {
    /// The union's length, and the first start and last end.
    fn union(&self) -> (u64, u64, u64) {
        let mut runs = self.runs.clone();
        runs.sort_unstable();
        let (mut ns, mut reach) = (0, 0);
        for &(s, e) in &runs {
            ns += e.saturating_sub(s.max(reach));
            reach = reach.max(e);
        }
        (ns, runs.first().map_or(0, |r| r.0), reach)
    }
}

#[derive(Default)]
pub struct GpuTables {
    calls: HashMap<String, Row>,
    commands: HashMap<(String, String), Row>,
    queues: HashMap<String, Busy>,
    /// Each device's commands' executions, and its queues.
    devices: HashMap<String, (Busy, std::collections::HashSet<String>)>,
    /// The devices' names (live events), by process and handle.
    device_names: HashMap<(u32, u64), String>,
    /// blocked inside a GPU call: (function, class, call site)
    blocked: HashMap<(String, String, String), Row>,
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

    /// A command that ran `ns` on the device from `start` after `queued` ns
    /// in queue `queue` of device `device`.
    #[allow(clippy::too_many_arguments)]
    pub fn command(
        &mut self,
        queue: &str,
        device: &str,
        kind: &str,
        name: &str,
        start: u64,
        ns: u64,
        queued: u64,
        bytes: u64,
    ) {
        let r = self
            .commands
            .entry((kind.to_string(), name.to_string()))
            .or_default();
        r.count += 1;
        r.ns += ns;
        r.max_ns = r.max_ns.max(ns);
        r.queued_ns += queued;
        r.bytes += bytes;
        // 2 significant digits, growing as the times do
        if r.hist.is_none() {
            r.hist = Histogram::new(2).ok();
        }
        if let Some(h) = r.hist.as_mut() {
            let _ = h.record(ns.max(1));
        }
        let q = match self.queues.get_mut(queue) {
            Some(q) => q,
            None => self.queues.entry(queue.to_string()).or_default(),
        };
        q.runs.push((start, start + ns));
        let d = match self.devices.get_mut(device) {
            Some(d) => d,
            None => self.devices.entry(device.to_string()).or_default(),
        };
        d.0.runs.push((start, start + ns));
        if !d.1.contains(queue) {
            d.1.insert(queue.to_string());
        }
    }

    /// A thread blocked `ns` (an exact off-CPU interval of class `class`)
    /// inside GPU call `function`, called from `site`.
    pub fn blocked_in(&mut self, function: &str, class: &str, site: &str, ns: u64) {
        let r = self
            .blocked
            .entry((function.to_string(), class.to_string(), site.to_string()))
            .or_default();
        r.count += 1;
        r.ns += ns;
        r.max_ns = r.max_ns.max(ns);
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
                let device = match self.device_names.get(&(c.task.tgid, c.device)) {
                    Some(n) => format!("{} {n}", c.api.name()),
                    None => format!("{} device {:#x}", c.api.name(), c.device),
                };
                self.command(
                    &format!("queue {:#x}", c.queue),
                    &device,
                    kind_name(c.kind),
                    &c.name,
                    c.start,
                    c.end - c.start,
                    queued,
                    c.bytes,
                )
            }
            GpuEvent::Clock(c) => {
                self.device_names.insert((c.pid, c.device), c.name.clone());
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

    /// Each queue: its commands, its busy time, its first start, last end.
    fn queue_rows(&self) -> Vec<(&String, usize, u64, u64, u64)> {
        let mut rows: Vec<_> = self
            .queues
            .iter()
            .map(|(q, b)| {
                let (ns, first, last) = b.union();
                (q, b.runs.len(), ns, first, last)
            })
            .collect();
        rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
        rows
    }

    /// Each device: its queues, its commands, its busy time (the union of
    /// its queues' executions: two queues running at once count once), its
    /// first start, last end.
    fn device_rows(&self) -> Vec<(&String, usize, usize, u64, u64, u64)> {
        let mut rows: Vec<_> = self
            .devices
            .iter()
            .map(|(d, (b, q))| {
                let (ns, first, last) = b.union();
                (d, q.len(), b.runs.len(), ns, first, last)
            })
            .collect();
        rows.sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(b.0)));
        rows
    }

    fn blocked_rows(&self) -> Vec<(&(String, String, String), &Row)> {
        let mut rows: Vec<_> = self.blocked.iter().collect();
        rows.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(a.0.cmp(b.0)));
        rows
    }

    /// Bytes moved and the device's time moving them, by direction (the
    /// kinds of command that move bytes).
    fn transfer_rows(&self) -> Vec<(&str, u64, u64, u64)> {
        let mut by: HashMap<&str, (u64, u64, u64)> = HashMap::new();
        for ((kind, _), g) in &self.commands {
            if g.bytes > 0 && moves_bytes(kind) {
                let x = by.entry(kind.as_str()).or_default();
                x.0 += g.count;
                x.1 += g.bytes;
                x.2 += g.ns;
            }
        }
        let mut rows: Vec<_> = by.into_iter().map(|(k, (n, b, t))| (k, n, b, t)).collect();
        rows.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
        rows
    }

    /// The tables as text (nothing without GPU events); `wall_ns`, the
    /// run's wall time when known, for each queue's busy share.
    pub fn render_text(&self, wall_ns: Option<u64>) -> String {
        let mut s = String::new();
        if !self.commands.is_empty() {
            let _ = writeln!(s, "\nGPU commands (the device's own times):");
            let _ = writeln!(
                s,
                "{:<7} {:<24} {:>7} {:>11} {:>10} {:>10} {:>10} {:>10} {:>12} {:>10}",
                "kind",
                "command",
                "count",
                "seconds",
                "avg us",
                "p50 us",
                "p99 us",
                "queued us",
                "bytes",
                "GB/s"
            );
            for ((kind, name), g) in self.command_rows() {
                let _ = writeln!(
                    s,
                    "{:<7} {:<24} {:>7} {:>11} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>12} {:>10}",
                    kind,
                    name,
                    g.count,
                    secs(g.ns),
                    g.ns as f64 / g.count.max(1) as f64 / 1e3,
                    g.percentile(0.5) as f64 / 1e3,
                    g.percentile(0.99) as f64 / 1e3,
                    g.queued_ns as f64 / g.count.max(1) as f64 / 1e3,
                    g.bytes,
                    if moves_bytes(kind) {
                        bandwidth(g.bytes, g.ns)
                    } else {
                        "-".into()
                    }
                );
            }
            let transfers = self.transfer_rows();
            if !transfers.is_empty() {
                let _ = writeln!(s, "\nGPU transfers by direction:");
                let _ = writeln!(
                    s,
                    "{:<7} {:>9} {:>14} {:>11} {:>10}",
                    "kind", "commands", "bytes", "seconds", "GB/s"
                );
                for (kind, n, bytes, ns) in transfers {
                    let _ = writeln!(
                        s,
                        "{:<7} {:>9} {:>14} {:>11} {:>10}",
                        kind,
                        n,
                        bytes,
                        secs(ns),
                        bandwidth(bytes, ns)
                    );
                }
            }
            let _ = match wall_ns {
                Some(w) => writeln!(
                    s,
                    "\nGPU queues (busy: their commands' executions, against the run's {} s):",
                    secs(w)
                ),
                None => writeln!(s, "\nGPU queues (busy: their commands' executions):"),
            };
            let _ = writeln!(s, "{:>9} {:>11} {:>7}  queue", "commands", "busy s", "busy");
            for (queue, n, ns, _, _) in self.queue_rows() {
                let share = match wall_ns {
                    Some(w) if w > 0 => format!("{:.1}%", ns as f64 * 100.0 / w as f64),
                    _ => "-".into(),
                };
                let _ = writeln!(s, "{:>9} {:>11} {:>7}  {}", n, secs(ns), share, queue);
            }
            let _ = writeln!(
                s,
                "\nGPU devices (busy: the union of their queues' busy times):"
            );
            let _ = writeln!(
                s,
                "{:>7} {:>9} {:>11} {:>7}  device",
                "queues", "commands", "busy s", "busy"
            );
            for (device, queues, n, ns, _, _) in self.device_rows() {
                let share = match wall_ns {
                    Some(w) if w > 0 => format!("{:.1}%", ns as f64 * 100.0 / w as f64),
                    _ => "-".into(),
                };
                let _ = writeln!(
                    s,
                    "{:>7} {:>9} {:>11} {:>7}  {}",
                    queues,
                    n,
                    secs(ns),
                    share,
                    device
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
        if !self.blocked.is_empty() {
            let _ = writeln!(
                s,
                "\nThreads off the CPU inside GPU calls (by call and call site; [B] mostly waits for the device):"
            );
            let _ = writeln!(
                s,
                "{:<5} {:<28} {:>9} {:>11} {:>11}  call site",
                "class", "function", "intervals", "seconds", "longest"
            );
            for ((function, class, site), g) in self.blocked_rows() {
                let _ = writeln!(
                    s,
                    "{:<5} {:<28} {:>9} {:>11} {:>11}  {}",
                    class,
                    function,
                    g.count,
                    secs(g.ns),
                    secs(g.max_ns),
                    site
                );
            }
        }
        s
    }

    /// The tables as JSON: `commands`, `transfers`, `queues`, `devices`, `calls`,
    /// `blocked`.
    pub fn render_json(&self, wall_ns: Option<u64>) -> serde_json::Value {
        json!({
            "commands": self.command_rows().into_iter().map(|((kind, name), g)| json!({
                "kind": kind, "name": name, "count": g.count, "device_ns": g.ns,
                "max_ns": g.max_ns, "p50_ns": g.percentile(0.5), "p99_ns": g.percentile(0.99),
                "queued_ns": g.queued_ns, "bytes": g.bytes})).collect::<Vec<_>>(),
            "transfers": self.transfer_rows().into_iter().map(|(kind, n, bytes, ns)| json!({
                "kind": kind, "commands": n, "bytes": bytes, "device_ns": ns})).collect::<Vec<_>>(),
            "queues": self.queue_rows().into_iter().map(|(queue, n, ns, first, last)| json!({
                "queue": queue, "commands": n, "busy_ns": ns,
                "busy_percent": wall_ns.filter(|w| *w > 0).map(|w| ns as f64 * 100.0 / w as f64),
                "first_ns": first, "last_end_ns": last})).collect::<Vec<_>>(),
            "devices": self.device_rows().into_iter().map(|(device, queues, n, ns, first, last)| json!({
                "device": device, "queues": queues, "commands": n, "busy_ns": ns,
                "busy_percent": wall_ns.filter(|w| *w > 0).map(|w| ns as f64 * 100.0 / w as f64),
                "first_ns": first, "last_end_ns": last})).collect::<Vec<_>>(),
            "calls": self.call_rows().into_iter().map(|(name, g)| json!({
                "name": name, "calls": g.count, "errors": g.errors, "total_ns": g.ns,
                "max_ns": g.max_ns})).collect::<Vec<_>>(),
            "blocked": self.blocked_rows().into_iter().map(|((function, class, site), g)| json!({
                "function": function, "class": class, "site": site, "intervals": g.count,
                "total_ns": g.ns, "max_ns": g.max_ns})).collect::<Vec<_>>(),
        })
    }
}

/// The device of a queue's track ("OpenCL queue 0x… (pthread-…)"): its API
/// and the name in parentheses ("OpenCL pthread-…"), or the queue's name
/// when it has none.
pub fn device_of(queue: &str) -> String {
    let api = queue.split(' ').next().unwrap_or("");
    match queue.split_once(" (") {
        Some((_, d)) if d.ends_with(')') => format!("{api} {}", &d[..d.len() - 1]),
        _ => queue.to_string(),
    }
}

/// A kind of command whose bytes the device moves (a map or an unmap may
/// move none: its bandwidth would mean nothing).
fn moves_bytes(kind: &str) -> bool {
    matches!(kind, "read" | "write" | "copy" | "fill")
}

/// GB/s (bytes a nanosecond), or "-".
fn bandwidth(bytes: u64, ns: u64) -> String {
    if bytes > 0 && ns > 0 {
        format!("{:.2}", bytes as f64 / ns as f64)
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_named_by_its_queues_track() {
        assert_eq!(
            device_of("OpenCL queue 0x55 (pthread-skylake-Intel(R) Xeon(R) Processor)"),
            "OpenCL pthread-skylake-Intel(R) Xeon(R) Processor"
        );
        assert_eq!(device_of("OpenCL queue 0x55"), "OpenCL queue 0x55");
    }

    #[test]
    fn a_device_is_busy_for_the_union_of_its_queues() {
        let mut t = GpuTables::default();
        // two queues of one device overlapping by 50, a third queue on
        // another device
        t.command("q1", "d", "kernel", "k", 100, 100, 0, 0);
        t.command("q2", "d", "kernel", "k", 150, 100, 0, 0);
        t.command("q3", "e", "kernel", "k", 0, 10, 0, 0);
        let j = t.render_json(Some(1000));
        let d = &j["devices"][0];
        assert_eq!(
            (d["device"].as_str(), d["queues"].as_u64()),
            (Some("d"), Some(2))
        );
        assert_eq!(d["busy_ns"].as_u64(), Some(150));
        assert_eq!(d["busy_percent"].as_f64(), Some(15.0));
        assert_eq!(j["devices"][1]["busy_ns"].as_u64(), Some(10));
    }
}
