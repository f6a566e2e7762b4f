//! Analyses over collected data: per-syscall summaries (strace -c) and
//! latency percentiles from log2 histograms kept in the kernel; the
//! weighting of blocked samples for profiles (`profile`).
#![deny(missing_docs)]

pub mod profile;
pub mod report;

/// One syscall's totals, wherever they were counted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SyscallTotals {
    /// Name as printed.
    pub name: String,
    /// Completed calls.
    pub calls: u64,
    /// Failed calls.
    pub errors: u64,
    /// Time in the calls, summed, in ns.
    pub total_ns: u64,
    /// Shortest call in ns.
    pub min_ns: u64,
    /// Longest call in ns.
    pub max_ns: u64,
    /// log2 histogram: bucket i counts calls of [2^i, 2^(i+1)) ns.
    pub hist: Vec<u64>,
}

impl SyscallTotals {
    /// The latency below which a fraction `q` (0..=1) of the calls fall,
    /// interpolated inside the log2 bucket and clamped to the observed min/max.
    pub fn percentile(&self, q: f64) -> u64 {
        let n: u64 = self.hist.iter().sum();
        if n == 0 {
            return 0;
        }
        let rank = (q * n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, &c) in self.hist.iter().enumerate() {
            if c == 0 {
                continue;
            }
            if seen + c >= rank {
                let lo = if i == 0 { 0.0 } else { (1u64 << i) as f64 };
                let hi = (1u64 << (i + 1)) as f64;
                let frac = (rank - seen) as f64 / c as f64;
                let v = (lo + (hi - lo) * frac) as u64;
                return v.clamp(self.min_ns, self.max_ns.max(self.min_ns));
            }
            seen += c;
        }
        self.max_ns
    }

    /// Mean call time in ns.
    pub fn avg_ns(&self) -> u64 {
        self.total_ns.checked_div(self.calls).unwrap_or(0)
    }
}

/// strace's `-S` orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    /// Total time, longest first (the default).
    Time,
    /// Number of calls, most first.
    Calls,
    /// Number of errors, most first.
    Errors,
    /// Name, alphabetical.
    Name,
    /// Mean time per call, longest first.
    AvgTime,
    /// Keep the order given (syscall number).
    Nothing,
}

/// Sorts rows as strace does (ties broken by name).
pub fn sort_rows(rows: &mut [SyscallTotals], by: SortBy) {
    match by {
        SortBy::Time => rows.sort_by(|a, b| b.total_ns.cmp(&a.total_ns).then(a.name.cmp(&b.name))),
        SortBy::Calls => rows.sort_by(|a, b| b.calls.cmp(&a.calls).then(a.name.cmp(&b.name))),
        SortBy::Errors => rows.sort_by(|a, b| b.errors.cmp(&a.errors).then(a.name.cmp(&b.name))),
        SortBy::Name => rows.sort_by(|a, b| a.name.cmp(&b.name)),
        SortBy::AvgTime => {
            rows.sort_by(|a, b| b.avg_ns().cmp(&a.avg_ns()).then(a.name.cmp(&b.name)))
        }
        SortBy::Nothing => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_stay_in_range() {
        let mut hist = vec![0; 40];
        hist[10] = 90; // ~1-2 us
        hist[20] = 10; // ~1-2 ms
        let t = SyscallTotals {
            name: "x".into(),
            calls: 100,
            min_ns: 1100,
            max_ns: 1_900_000,
            hist,
            ..Default::default()
        };
        let p50 = t.percentile(0.5);
        assert!((1024..2048).contains(&p50), "{p50}");
        let p99 = t.percentile(0.99);
        assert!((1 << 20..1 << 21).contains(&p99), "{p99}");
        assert_eq!(t.percentile(1.0), 1_900_000);
    }

    #[test]
    fn sorting() {
        let mut r = vec![
            SyscallTotals {
                name: "b".into(),
                calls: 1,
                total_ns: 5,
                ..Default::default()
            },
            SyscallTotals {
                name: "a".into(),
                calls: 3,
                total_ns: 5,
                ..Default::default()
            },
        ];
        sort_rows(&mut r, SortBy::Time);
        assert_eq!(r[0].name, "a");
        sort_rows(&mut r, SortBy::Calls);
        assert_eq!(r[0].name, "a");
    }
}
