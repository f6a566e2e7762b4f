//! The `-c` table, in strace's layout: from the in-kernel summary, or from
//! rows built elsewhere (a recording's system-call slices).

use std::fmt::Write;

use anyhow::{bail, Result};
use genba_analyze::{sort_rows, SortBy, SyscallTotals};
use genba_bpf::SummaryRow;
use genba_syscalls::table;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    TimePercent,
    TotalTime,
    AvgTime,
    MinTime,
    MaxTime,
    P50,
    P99,
    Calls,
    Errors,
    Name,
}

pub fn parse_sort(s: Option<&str>) -> Result<SortBy> {
    Ok(match s.unwrap_or("time") {
        "time" | "time-percent" | "time_percent" | "total-time" | "total_time" => SortBy::Time,
        "calls" | "count" => SortBy::Calls,
        "errors" | "error" => SortBy::Errors,
        "name" | "syscall" => SortBy::Name,
        "avg-time" | "avg_time" => SortBy::AvgTime,
        "nothing" | "none" => SortBy::Nothing,
        other => bail!(
            "invalid sortby: '{other}' (expected time, calls, errors, name, avg-time or nothing)"
        ),
    })
}

pub fn parse_columns(s: Option<&str>) -> Result<Vec<Column>> {
    parse_columns_or(s, false)
}

/// [`parse_columns`], whose default with `percentiles` also has the
/// median and the 99th percentile of each call's time (`genba report`).
pub fn parse_columns_or(s: Option<&str>, percentiles: bool) -> Result<Vec<Column>> {
    let Some(s) = s else {
        if percentiles {
            return Ok(vec![
                Column::TimePercent,
                Column::TotalTime,
                Column::AvgTime,
                Column::P50,
                Column::P99,
                Column::Calls,
                Column::Errors,
                Column::Name,
            ]);
        }
        return Ok(vec![
            Column::TimePercent,
            Column::TotalTime,
            Column::AvgTime,
            Column::Calls,
            Column::Errors,
            Column::Name,
        ]);
    };
    s.split(',')
        .map(|c| {
            Ok(match c {
                "time-percent" | "time_percent" | "percent" => Column::TimePercent,
                "total-time" | "total_time" | "time" => Column::TotalTime,
                "avg-time" | "avg_time" => Column::AvgTime,
                "min-time" | "min_time" => Column::MinTime,
                "max-time" | "max_time" => Column::MaxTime,
                "p50" => Column::P50,
                "p99" => Column::P99,
                "calls" | "count" => Column::Calls,
                "errors" | "error" => Column::Errors,
                "name" | "syscall" => Column::Name,
                other => bail!("invalid summary column '{other}' (expected time-percent, total-time, avg-time, min-time, max-time, p50, p99, calls, errors, name)"),
            })
        })
        .collect()
}

fn header(c: Column) -> (&'static str, usize) {
    match c {
        Column::TimePercent => ("% time", 6),
        Column::TotalTime => ("seconds", 11),
        Column::AvgTime => ("usecs/call", 11),
        // strace's names and units: seconds, six decimals
        Column::MinTime => ("shortest", 8),
        Column::MaxTime => ("longest", 8),
        Column::P50 => ("usecs/p50", 11),
        Column::P99 => ("usecs/p99", 11),
        Column::Calls => ("calls", 9),
        Column::Errors => ("errors", 9),
        Column::Name => ("syscall", 16),
    }
}

fn cell(c: Column, r: &SyscallTotals, total_ns: u64) -> String {
    match c {
        Column::TimePercent => {
            let p = if total_ns == 0 {
                0.0
            } else {
                100.0 * r.total_ns as f64 / total_ns as f64
            };
            format!("{p:6.2}")
        }
        Column::TotalTime => format!("{:11.6}", r.total_ns as f64 / 1e9),
        Column::AvgTime => format!("{:11}", r.avg_ns() / 1000),
        Column::MinTime => format!("{:8.6}", r.min_ns as f64 / 1e9),
        Column::MaxTime => format!("{:8.6}", r.max_ns as f64 / 1e9),
        Column::P50 => format!("{:11}", r.percentile(0.5) / 1000),
        Column::P99 => format!("{:11}", r.percentile(0.99) / 1000),
        Column::Calls => format!("{:9}", r.calls),
        Column::Errors => {
            if r.errors == 0 {
                " ".repeat(9)
            } else {
                format!("{:9}", r.errors)
            }
        }
        Column::Name => format!("{:<16}", r.name),
    }
}

fn syscall_name(nr: u32) -> String {
    table::by_nr(nr)
        .map(|s| s.name.to_string())
        .unwrap_or_else(|| format!("syscall_{nr:#x}"))
}

/// One kernel summary row with its syscall's name.
fn totals_of(r: &SummaryRow) -> SyscallTotals {
    SyscallTotals {
        name: syscall_name(r.nr),
        calls: r.calls,
        errors: r.errors,
        total_ns: r.total_ns,
        min_ns: r.min_ns,
        max_ns: r.max_ns,
        hist: r.hist.to_vec(),
    }
}

/// Renders the table as strace -c does.
pub fn render(rows: &[SummaryRow], sort: SortBy, cols: &[Column]) -> String {
    render_totals(rows.iter().map(totals_of).collect(), sort, cols)
}

/// Renders named totals (however counted) as strace -c does.
pub fn render_totals(mut totals: Vec<SyscallTotals>, sort: SortBy, cols: &[Column]) -> String {
    sort_rows(&mut totals, sort);
    let total_ns: u64 = totals.iter().map(|r| r.total_ns).sum();
    let mut all = SyscallTotals {
        name: "total".into(),
        ..Default::default()
    };
    all.hist = vec![0; genba_bpf::wire::HIST_BUCKETS];
    for r in &totals {
        all.calls += r.calls;
        all.errors += r.errors;
        all.total_ns += r.total_ns;
        if r.min_ns != 0 && (all.min_ns == 0 || r.min_ns < all.min_ns) {
            all.min_ns = r.min_ns;
        }
        all.max_ns = all.max_ns.max(r.max_ns);
        for (a, b) in all.hist.iter_mut().zip(&r.hist) {
            *a += b;
        }
    }
    let mut s = String::new();
    // as strace: a name that is not the last column is padded to its width
    // (blank cells keep their spaces, even at the end of the line)
    let name_last = cols.last() == Some(&Column::Name);
    let line = |cells: Vec<String>| {
        let mut l = cells.join(" ");
        if name_last {
            l.truncate(l.trim_end().len());
        }
        l
    };
    let head: Vec<String> = cols
        .iter()
        .map(|&c| {
            let (h, w) = header(c);
            if c == Column::Name || c == Column::TimePercent {
                format!("{h:<w$}")
            } else {
                format!("{h:>w$}")
            }
        })
        .collect();
    let sep: Vec<String> = cols.iter().map(|&c| "-".repeat(header(c).1)).collect();
    let _ = writeln!(s, "{}", line(head));
    let _ = writeln!(s, "{}", line(sep.clone()));
    for r in &totals {
        let _ = writeln!(
            s,
            "{}",
            line(cols.iter().map(|&c| cell(c, r, total_ns)).collect())
        );
    }
    let _ = writeln!(s, "{}", line(sep));
    let _ = writeln!(
        s,
        "{}",
        line(
            cols.iter()
                .map(|&c| if c == Column::TimePercent {
                    "100.00".to_string()
                } else {
                    cell(c, &all, total_ns)
                })
                .collect()
        )
    );
    s
}

/// The summary as JSON lines (`-c --format jsonl`): one object per syscall,
/// per task and syscall with `--summary-by`, per syscall and call site with
/// `--source`; times in nanoseconds, percentiles from the kernel's histograms.
pub fn render_json(
    rows: &[SummaryRow],
    tasks: &[(&str, u32, Vec<SummaryRow>)],
    sites: &[(u32, String, u64, u64, u64)],
) -> String {
    let mut s = String::new();
    let row = |s: &mut String, r: &SummaryRow, extra: &str| {
        let t = totals_of(r);
        let _ = writeln!(
            s,
            "{{\"type\":\"summary\"{extra},\"syscall\":\"{}\",\"calls\":{},\"errors\":{},\"total_ns\":{},\"avg_ns\":{},\"min_ns\":{},\"max_ns\":{},\"p50_ns\":{},\"p99_ns\":{}}}",
            t.name,
            t.calls,
            t.errors,
            t.total_ns,
            t.avg_ns(),
            t.min_ns,
            t.max_ns,
            t.percentile(0.5),
            t.percentile(0.99)
        );
    };
    for r in rows {
        row(&mut s, r, "");
    }
    for (what, task, task_rows) in tasks {
        for r in task_rows {
            row(&mut s, r, &format!(",\"{what}\":{task}"));
        }
    }
    for (nr, site, calls, errors, ns) in sites {
        let v = serde_json::json!({"type": "summary_site", "syscall": syscall_name(*nr),
            "site": site, "calls": calls, "errors": errors, "total_ns": ns});
        let _ = writeln!(s, "{v}");
    }
    s
}
