//! Blocked samples: turning off-CPU intervals into samples on the same
//! scale as the on-CPU ones (issue 4; see docs/dev/profile-plan.md).
//!
//! A profiler that samples every `period` ns of running time weighs an
//! off-CPU interval by how many periods it spans. Rounding each interval on
//! its own would alias: a thread blocking 0.9 ms a million times at 1 kHz
//! would weigh nothing. Each thread therefore carries the remainder from one
//! interval to the next (its phase), as the kernel patch behind blocked
//! samples does, so over any run a thread's weight is within one sample of
//! its off-CPU time / period. The BPF side keeps the same arithmetic per
//! thread; this is the reference the tests hold it to.

use std::fmt;

/// Why a sample's thread was where it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// On the CPU in user code: `[.]`.
    User,
    /// On the CPU in the kernel: `[k]`.
    Kernel,
    /// Blocked on I/O (in_iowait, block layer, fsync): `[I]`.
    Io,
    /// Waiting for a lock (futex waits, contended kernel locks): `[L]`.
    Lock,
    /// Runnable, waiting for a CPU (preempted, or woken and not yet running): `[S]`.
    Sched,
    /// Blocked for another reason (sleep, poll, pipes, sockets): `[B]`.
    Blocked,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 6] = [
        Class::User,
        Class::Kernel,
        Class::Io,
        Class::Lock,
        Class::Sched,
        Class::Blocked,
    ];

    /// The tag shown in reports, as bperf shows it.
    pub fn tag(self) -> &'static str {
        match self {
            Class::User => "[.]",
            Class::Kernel => "[k]",
            Class::Io => "[I]",
            Class::Lock => "[L]",
            Class::Sched => "[S]",
            Class::Blocked => "[B]",
        }
    }

    /// Whether the thread was off the CPU.
    pub fn off_cpu(self) -> bool {
        !matches!(self, Class::User | Class::Kernel)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// One thread's sampling phase for off-CPU time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    period_ns: u64,
    /// Off-CPU ns not yet turned into a sample (< period_ns).
    acc: u64,
}

impl Phase {
    /// A phase for sampling every `period_ns` (> 0), starting `start_ns`
    /// into a period (random in `[0, period)` for real threads, so threads
    /// started together do not cross period boundaries together).
    pub fn new(period_ns: u64, start_ns: u64) -> Phase {
        let period_ns = period_ns.max(1);
        Phase {
            period_ns,
            acc: start_ns % period_ns,
        }
    }

    /// Adds `ns` of off-CPU time; returns the samples it completes.
    pub fn add(&mut self, ns: u64) -> u64 {
        // acc < period, so this cannot overflow for any interval shorter
        // than ~584 years
        let total = self.acc.saturating_add(ns);
        self.acc = total % self.period_ns;
        total / self.period_ns
    }

    /// One off-CPU interval, in time order: blocked for `blocked_ns`, then
    /// runnable and waiting for a CPU for `runq_ns`. Returns the weights of
    /// the two parts (the run-queue part is `[S]` whatever the block was).
    pub fn interval(&mut self, blocked_ns: u64, runq_ns: u64) -> (u64, u64) {
        (self.add(blocked_ns), self.add(runq_ns))
    }

    /// Off-CPU ns carried towards the next sample.
    pub fn carried_ns(&self) -> u64 {
        self.acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;
    const US: u64 = 1_000;

    #[test]
    fn worked_example_from_the_plan() {
        // 1 kHz, 0.6 ms carried; out at 3.7 ms, woken at 52.9, on at 53.2
        let mut p = Phase::new(MS, 600 * US);
        let (block, runq) = p.interval(52_900 * US - 3_700 * US, 53_200 * US - 52_900 * US);
        assert_eq!((block, runq), (49, 1));
        assert_eq!(p.carried_ns(), 100 * US);
    }

    #[test]
    fn short_blocks_are_not_lost() {
        // a million 0.9 ms blocks at 1 kHz: 900,000 samples, not 0
        let mut p = Phase::new(MS, 0);
        let w: u64 = (0..1_000_000).map(|_| p.add(900 * US)).sum();
        assert_eq!(w, 900_000);
        // a million 1 us blocks: one sample per thousand
        let mut p = Phase::new(MS, 0);
        let w: u64 = (0..1_000_000).map(|_| p.add(US)).sum();
        assert_eq!(w, 1_000);
    }

    #[test]
    fn long_blocks_weigh_their_periods() {
        let mut p = Phase::new(MS, 999_999);
        assert_eq!(p.add(10_000 * MS), 10_000);
        let mut p = Phase::new(MS, 0);
        assert_eq!(p.add(10_000 * MS), 10_000);
    }

    #[test]
    fn weight_stays_within_one_sample_of_time_over_period() {
        // uneven intervals, any start phase: |samples - total/period| < 1
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for start in [0, 1, 499_999, 999_999] {
            let mut p = Phase::new(MS, start);
            let (mut total, mut w) = (start, 0u64);
            for _ in 0..100_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let ns = seed % (3 * MS);
                total += ns;
                w += p.add(ns);
                assert_eq!(w, total / MS);
            }
        }
    }

    #[test]
    fn tags() {
        let tags: Vec<String> = Class::ALL.iter().map(|c| c.to_string()).collect();
        assert_eq!(tags, ["[.]", "[k]", "[I]", "[L]", "[S]", "[B]"]);
        assert_eq!(Class::ALL.iter().filter(|c| c.off_cpu()).count(), 4);
    }
}
