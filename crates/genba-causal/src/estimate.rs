//! From experiments to predictions.
//!
//! An experiment ran one candidate at one virtual speedup for a window;
//! every thread took (about) `delay` ns of inserted delay in it. Its
//! virtual time is the window less that delay, and each progress point's
//! period is the virtual time per visit. A candidate's predicted program
//! speedup at s% is how much shorter that period is than the baselines'
//! (experiments at 0%, where nothing is delayed):
//!   1 - period(candidate, s) / period(baseline).
//!
//! A latency point's visits are calls that returned, and its period is
//! their mean latency in virtual time. By Little's law the calls in flight
//! on average, L = (their time in the window) / window, are the virtual
//! throughput times the virtual latency, so the virtual latency is
//!   (time in calls / window) * (virtual time / visits),
//! the real mean latency scaled by virtual time over real time.

use serde::Serialize;

/// One experiment's window.
#[derive(Debug, Clone, Serialize)]
pub struct Experiment {
    /// Index of the candidate (ignored at speedup 0).
    pub candidate: usize,
    /// Virtual speedup, percent.
    pub speedup: u32,
    /// Window length (ns).
    pub duration_ns: u64,
    /// Delay inserted in it (ns): G's growth.
    pub delay_ns: u64,
    /// Visits of each progress point.
    pub visits: Vec<u64>,
    /// A latency point's time in the calls that returned in the window
    /// (ns; None for a throughput point).
    pub latency_ns: Vec<Option<u64>>,
    /// Candidate samples and intervals that ended in it.
    pub hits: u64,
    /// At its end, the most a thread that was paying delays in it still
    /// owed (ns): how far behind its payments were.
    pub lag_ns: u64,
}

/// A candidate's prediction at one speedup.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Point {
    /// Virtual speedup of the candidate, percent.
    pub speedup: u32,
    /// Experiments behind it.
    pub experiments: usize,
    /// Predicted change of the progress point's period, as a fraction of
    /// the baseline's (0.25: the program does each visit 25% faster).
    pub program_speedup: f64,
    /// Half-width of the 95% confidence interval of `program_speedup`.
    pub ci95: f64,
}

/// An experiment's virtual time must be this many times the lag of the
/// payments at its end. A candidate that a thread spends (nearly) all its
/// time in, at 100%, owes every other thread (nearly) the whole window: the
/// visits they still make then come from the lag of their payments, not
/// from the program. (A thread that pays nothing, because it ran the
/// candidate itself, has no lag: its short virtual time is exact.)
pub const LAG_FACTOR: u64 = 4;

/// Whether an experiment's virtual time says something.
pub fn usable(e: &Experiment) -> bool {
    let virt = e.duration_ns.saturating_sub(e.delay_ns);
    virt > 0 && virt >= LAG_FACTOR * e.lag_ns
}

/// The time a window's visits of `point` stand for: its virtual time (a
/// throughput point), or its calls' time scaled to virtual time (a latency
/// point).
fn span(e: &Experiment, point: usize) -> f64 {
    let virt = e.duration_ns.saturating_sub(e.delay_ns) as f64;
    match e.latency_ns.get(point).copied().flatten() {
        Some(l) => l as f64 * virt / e.duration_ns.max(1) as f64,
        None => virt,
    }
}

fn period(e: &Experiment, point: usize) -> Option<f64> {
    let v = *e.visits.get(point)?;
    (v > 0 && usable(e)).then(|| span(e, point) / v as f64)
}

/// Pooled period (ns per visit) and its relative standard error, over
/// experiments with visits.
fn pooled(exps: &[&Experiment], point: usize) -> Option<(f64, f64)> {
    let (mut t, mut v) = (0.0, 0.0);
    let mut each = Vec::new();
    for e in exps {
        let Some(p) = period(e, point) else {
            continue;
        };
        t += span(e, point);
        v += e.visits[point] as f64;
        each.push(p);
    }
    if v == 0.0 {
        return None;
    }
    let mean = t / v;
    let rel_se = if each.len() >= 2 {
        let m = each.iter().sum::<f64>() / each.len() as f64;
        let var = each.iter().map(|p| (p - m).powi(2)).sum::<f64>() / (each.len() - 1) as f64;
        var.sqrt() / (each.len() as f64).sqrt() / m
    } else {
        // one window: its own spread is unknown; say so with a wide bound
        0.5
    };
    Some((mean, rel_se))
}

/// The baselines' period (ns per visit) of progress point `point`.
pub fn baseline(exps: &[Experiment], point: usize) -> Option<f64> {
    let base: Vec<&Experiment> = exps.iter().filter(|e| e.speedup == 0).collect();
    pooled(&base, point).map(|(p, _)| p)
}

/// Candidate `candidate`'s predictions for progress point `point`, one per
/// speedup tried (0% first, which is 0 by definition), or nothing before
/// there is a baseline.
pub fn predict(exps: &[Experiment], candidate: usize, point: usize) -> Vec<Point> {
    let base: Vec<&Experiment> = exps.iter().filter(|e| e.speedup == 0).collect();
    let Some((pb, se_b)) = pooled(&base, point) else {
        return Vec::new();
    };
    let mut speeds: Vec<u32> = exps
        .iter()
        .filter(|e| e.candidate == candidate && e.speedup > 0)
        .map(|e| e.speedup)
        .collect();
    speeds.sort_unstable();
    speeds.dedup();
    let mut out = vec![Point {
        speedup: 0,
        experiments: base.len(),
        program_speedup: 0.0,
        ci95: 1.96 * se_b,
    }];
    for s in speeds {
        let these: Vec<&Experiment> = exps
            .iter()
            .filter(|e| e.candidate == candidate && e.speedup == s)
            .collect();
        let Some((p, se)) = pooled(&these, point) else {
            continue;
        };
        let ratio = p / pb;
        out.push(Point {
            speedup: s,
            experiments: these.iter().filter(|e| usable(e)).count(),
            program_speedup: 1.0 - ratio,
            // the ratio's relative error from both periods' errors
            ci95: 1.96 * ratio * (se * se + se_b * se_b).sqrt(),
        });
    }
    out
}

/// How much a candidate would help: the least-squares slope of program
/// speedup against candidate speedup (both as fractions), through 0.
pub fn slope(points: &[Point]) -> f64 {
    let (mut xy, mut xx) = (0.0, 0.0);
    for p in points {
        let x = f64::from(p.speedup) / 100.0;
        xy += x * p.program_speedup;
        xx += x * x;
    }
    if xx == 0.0 {
        0.0
    } else {
        xy / xx
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(candidate: usize, speedup: u32, dur: u64, delay: u64, visits: u64) -> Experiment {
        Experiment {
            candidate,
            speedup,
            duration_ns: dur,
            delay_ns: delay,
            visits: vec![visits],
            latency_ns: vec![None],
            hits: 1,
            lag_ns: 0,
        }
    }

    #[test]
    fn a_latency_point_in_virtual_time() {
        // the same program, its rounds' latency measured instead: 10 calls
        // of 100 ms in a second either way (the thread running the
        // candidate pays nothing); a third of the window's virtual time
        // was inserted delay, so each call stands for 30% less
        let lat = |mut e: Experiment| {
            e.latency_ns = vec![Some(1_000_000_000)];
            e
        };
        let exps = vec![
            lat(exp(0, 0, 1_000_000_000, 0, 10)),
            lat(exp(0, 50, 1_000_000_000, 300_000_000, 10)),
        ];
        assert_eq!(baseline(&exps, 0), Some(100_000_000.0));
        let p = predict(&exps, 0, 0);
        assert!((p[1].program_speedup - 0.3).abs() < 1e-9, "{p:?}");
        // calls that took half as long in a baseline: half the latency
        let mut faster = exps.clone();
        faster[0].latency_ns = vec![Some(500_000_000)];
        assert_eq!(baseline(&faster, 0), Some(50_000_000.0));
    }

    #[test]
    fn a_serial_program_half_faster() {
        // one thread: 60 ms compute + 40 ms I/O a visit; compute at 50%
        // saves 30 ms a visit, which the delay count says
        let exps = vec![
            exp(0, 0, 1_000_000_000, 0, 10),
            exp(0, 50, 1_000_000_000, 300_000_000, 10),
            exp(0, 0, 1_000_000_000, 0, 10),
            exp(0, 50, 1_000_000_000, 300_000_000, 10),
        ];
        let p = predict(&exps, 0, 0);
        assert_eq!(p.len(), 2);
        assert!((p[1].program_speedup - 0.3).abs() < 1e-9, "{p:?}");
        assert!(p[1].ci95 < 1e-9);
        assert!((slope(&p) - 0.6).abs() < 1e-9);
    }

    #[test]
    fn windows_almost_all_delay_are_left_out() {
        let mut behind = exp(0, 100, 1000, 950, 3);
        behind.lag_ns = 20;
        let exps = vec![exp(0, 0, 1000, 0, 10), behind, exp(0, 50, 1000, 500, 5)];
        let p = predict(&exps, 0, 0);
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[1].speedup, 50);
    }

    #[test]
    fn no_baseline_no_prediction() {
        let exps = vec![exp(0, 50, 1_000_000_000, 1, 10)];
        assert!(predict(&exps, 0, 0).is_empty());
        assert!(baseline(&exps, 0).is_none());
    }

    #[test]
    fn windows_without_visits_are_left_out() {
        let exps = vec![
            exp(0, 0, 100, 0, 10),
            exp(1, 25, 100, 0, 0),
            exp(1, 25, 100, 50, 10),
        ];
        let p = predict(&exps, 1, 0);
        assert_eq!(p[1].experiments, 2);
        assert!((p[1].program_speedup - 0.5).abs() < 1e-9);
    }
}
