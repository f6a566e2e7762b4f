//! End to end (no progress point), each run is one experiment: the runs a
//! time budget allows, and what is dropped to stay within it.
//!
//! The full plan is two runs of each (candidate, speedup) and as many
//! baselines: 4 x candidates x speedups runs. When that does not fit, the
//! plan gives up, in this order: the second run of each point, then
//! speedups (the one nearest 50% is kept longest, then the larger ones),
//! then candidates (from the last of the list). At least one baseline and
//! one experiment always run.

/// What fits in the budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Runs after the warm-up.
    pub runs: usize,
    /// The runs the full plan would take.
    pub full: usize,
    /// Runs of each (candidate, speedup): 2, or 1.
    pub reps: usize,
    /// The speedups kept, ascending.
    pub speedups: Vec<u32>,
    /// How many of the candidates are kept (the first ones).
    pub candidates: usize,
    /// The speedups dropped.
    pub dropped_speedups: Vec<u32>,
    /// The runs the budget allows after the warm-up.
    pub allowed: usize,
}

/// The plan for `candidates` candidates at `speedups` when `allowed` runs
/// fit in the budget.
pub fn fit(allowed: usize, candidates: usize, speedups: &[u32]) -> Plan {
    let c = candidates.max(1);
    let full = 4 * c * speedups.len();
    // the speedups, most wanted first: nearest 50%, then the larger
    let mut order: Vec<u32> = speedups.to_vec();
    order.sort_by_key(|s| (s.abs_diff(50), std::cmp::Reverse(*s)));
    let (reps, k, c) = if full <= allowed {
        (2, order.len(), c)
    } else if 2 * c * order.len() <= allowed {
        (1, order.len(), c)
    } else {
        let k = (allowed / (2 * c)).clamp(1, order.len());
        if 2 * c * k <= allowed {
            (1, k, c)
        } else {
            (1, 1, (allowed / 2).clamp(1, c))
        }
    };
    let mut kept: Vec<u32> = order[..k].to_vec();
    kept.sort_unstable();
    let mut dropped: Vec<u32> = order[k..].to_vec();
    dropped.sort_unstable();
    Plan {
        runs: 2 * reps * c * k,
        full,
        reps,
        speedups: kept,
        candidates: c,
        dropped_speedups: dropped,
        allowed,
    }
}

/// The runs that fit in `budget_s` seconds when the warm-up took
/// `warmup_s` and a run is expected to take as long.
pub fn allowed(budget_s: f64, warmup_s: f64) -> usize {
    let per = warmup_s.max(1e-3);
    ((budget_s - warmup_s).max(0.0) / per).floor() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_plan_when_it_fits() {
        let p = fit(100, 2, &[25, 50, 100]);
        assert_eq!((p.runs, p.full, p.reps), (24, 24, 2));
        assert!(p.dropped_speedups.is_empty());
    }

    #[test]
    fn repetitions_then_speedups_then_candidates_go() {
        let p = fit(12, 2, &[25, 50, 100]);
        assert_eq!((p.runs, p.reps, p.candidates), (12, 1, 2));
        let p = fit(9, 2, &[25, 50, 75, 100]);
        assert_eq!((p.runs, p.candidates), (8, 2));
        assert_eq!(p.speedups, vec![50, 75]);
        assert_eq!(p.dropped_speedups, vec![25, 100]);
        let p = fit(5, 6, &[25, 50, 100]);
        assert_eq!((p.runs, p.candidates), (4, 2));
        assert_eq!(p.speedups, vec![50]);
        // a budget too small for anything: one baseline, one experiment
        let p = fit(0, 3, &[25, 50]);
        assert_eq!((p.runs, p.candidates), (2, 1));
    }

    #[test]
    fn runs_in_a_budget() {
        assert_eq!(allowed(600.0, 45.0), 12);
        assert_eq!(allowed(10.0, 20.0), 0);
    }
}
