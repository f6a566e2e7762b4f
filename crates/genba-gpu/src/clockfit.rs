//! The offset of a device's own clock, narrowed by the host's facts.
//!
//! A device that stamps its commands with a clock of its own is mapped by
//! the shim with one offset, measured around a marker when its queue was
//! made. Every command then says more: its QUEUED lies between its enqueue
//! call's entry and return, and its END before the wait that covered it
//! returned (or the shim saw it complete). Each is a bound on the offset
//! still to add to the shim's mapping (`δ`), at a host time. [`ClockFit`]
//! keeps the bounds that matter and estimates `δ(t) = a + b·(t - t0)`:
//! while one constant satisfies every bound, `b = 0` and `a` is the middle
//! of their intersection; once none does (the clocks drift apart), the
//! slope that leaves the widest band of offsets, and `a` its middle. The
//! band's half width is the mapping's uncertainty. When no line satisfies
//! them either (the drift changed), the bounds so far are dropped and the
//! fit starts again from the newest command.

use genba_events::{GpuApi, GpuCommand, Nanos};

/// The steepest drift looked for: 1% (10,000 ppm; real clocks drift well
/// under 100 ppm).
const MAX_SLOPE: f64 = 0.01;

/// A bound on `δ` at a host time (ns since the fit's origin).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bound {
    t: f64,
    v: f64,
}

/// The current estimate of a device's offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// `δ` at the fit's origin (ns).
    pub offset: f64,
    /// Its change per ns of host time (0 while no drift was seen).
    pub slope: f64,
    /// Half the width of the band the facts leave (ns); negative when the
    /// facts agree with no line (the fit then restarts).
    pub uncertainty: f64,
}

/// Narrows a device's offset from its commands' facts, and follows its drift.
#[derive(Debug, Clone, Default)]
pub struct ClockFit {
    origin: Option<Nanos>,
    /// Lower bounds on δ: the upper convex hull of them is all that matters.
    lower: Vec<Bound>,
    /// Upper bounds: their lower convex hull.
    upper: Vec<Bound>,
    drift: bool,
    estimate: Option<Estimate>,
    /// Commands whose facts it rests on.
    pub commands: u64,
    /// Times the facts agreed with no line and the fit restarted.
    pub restarts: u64,
    /// Commands left out: no one offset satisfies their own facts.
    pub contradictory: u64,
}

impl ClockFit {
    /// An empty fit.
    pub fn new() -> ClockFit {
        ClockFit::default()
    }

    /// Whether a drift was seen (no constant offset satisfies the facts).
    pub fn drifting(&self) -> bool {
        self.drift
    }

    /// The estimate so far (None before any command with facts).
    pub fn estimate(&self) -> Option<Estimate> {
        self.estimate
    }

    /// The offset to add, at host time `t`, to a time the shim mapped.
    pub fn offset_at(&self, t: Nanos) -> i64 {
        match (self.estimate, self.origin) {
            (Some(e), Some(o)) => (e.offset + e.slope * (t as f64 - o as f64)).round() as i64,
            _ => 0,
        }
    }

    /// How far the offset [`offset_at`](Self::offset_at) `t` gives may be
    /// from the offset of any line the facts allow (ns): the honest
    /// uncertainty of a time mapped there, the slope's own uncertainty
    /// included (the band at the slope chosen alone says less: a line of
    /// another slope the facts allow puts `t` elsewhere). None before any
    /// facts, infinite when one side is unbounded.
    pub fn uncertainty_at(&self, t: Nanos) -> Option<f64> {
        let (e, origin) = (self.estimate?, self.origin?);
        if self.lower.is_empty() || self.upper.is_empty() {
            return Some(f64::INFINITY);
        }
        let t = t as f64 - origin as f64;
        // the slopes some line of the facts has: an interval around the
        // widest band's (the band's width is concave in the slope)
        let best = e.slope;
        if self.width(best) < 0.0 {
            return None;
        }
        let edge = |mut inside: f64, mut outside: f64| {
            // 40 halvings of at most 1%: the slope to 1e-14, a picosecond
            // over a second
            for _ in 0..40 {
                let m = (inside + outside) / 2.0;
                if self.width(m) >= 0.0 {
                    inside = m;
                } else {
                    outside = m;
                }
            }
            inside
        };
        let (s_lo, s_hi) = (edge(best, -MAX_SLOPE), edge(best, MAX_SLOPE));
        // over those slopes the lowest offset at t is the minimum of a
        // convex piecewise-linear function of the slope, the highest the
        // maximum of a concave one: each at an end of the interval or
        // where two neighbouring points of a hull tie (its breakpoints),
        // so those are all that is evaluated (a command's cost: a few
        // dozen sums, not a search)
        let breaks = |h: &[Bound]| -> Vec<f64> {
            let mut v = vec![s_lo, s_hi];
            v.extend(
                h.windows(2)
                    .filter(|w| w[1].t != w[0].t)
                    .map(|w| (w[1].v - w[0].v) / (w[1].t - w[0].t))
                    .filter(|s| (s_lo..=s_hi).contains(s)),
            );
            v
        };
        let least = breaks(&self.lower)
            .into_iter()
            .map(|s| self.band(s).0 + s * t)
            .fold(f64::INFINITY, f64::min);
        let most = breaks(&self.upper)
            .into_iter()
            .map(|s| self.band(s).1 + s * t)
            .fold(f64::NEG_INFINITY, f64::max);
        let mapped = e.offset + e.slope * t;
        Some((mapped - least).max(most - mapped).max(0.0))
    }

    /// Adds the facts of one command, as the shim mapped it (before any
    /// correction), and updates the estimate. All four of a command's
    /// times are moved by one offset (its durations are the device's), so
    /// its bounds are all taken at its START: [`offset_at`](Self::offset_at)
    /// its START is the offset that satisfies them.
    pub fn add(&mut self, c: &GpuCommand) {
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        let at = if c.start != 0 { c.start } else { c.queued };
        if c.api != GpuApi::OpenCl {
            // Vulkan's QUEUED is the host's submission, not a device time:
            // the device started after it and after the recording call
            let host = c.enqueued.max(c.queued);
            if host != 0 && c.start != 0 {
                lo.push((at, host as f64 - c.start as f64));
            }
        } else if c.queued != 0 {
            if c.enqueued != 0 {
                lo.push((at, c.enqueued as f64 - c.queued as f64));
            }
            if c.enqueue_returned != 0 {
                hi.push((at, c.enqueue_returned as f64 - c.queued as f64));
            }
        }
        if c.end != 0 {
            let by = [c.waited, c.observed].into_iter().filter(|&t| t != 0).min();
            if let Some(by) = by {
                hi.push((at, by as f64 - c.end as f64));
            }
        }
        if at == 0 || (lo.is_empty() && hi.is_empty()) {
            return;
        }
        // a command no one offset can satisfy (its device durations longer
        // than the host's brackets allow) says nothing of the offset
        let least = lo.iter().map(|b| b.1).fold(f64::NEG_INFINITY, f64::max);
        let most = hi.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
        if least > most {
            self.contradictory += 1;
            return;
        }
        self.commands += 1;
        self.add_bounds(&lo, &hi);
        if self.estimate.is_some_and(|e| e.uncertainty < 0.0) {
            // no line agrees with all of them: start again from this one
            self.restarts += 1;
            self.lower.clear();
            self.upper.clear();
            self.add_bounds(&lo, &hi);
        }
    }

    /// Bounds on δ at host times: `lo` lower, `hi` upper.
    fn add_bounds(&mut self, lo: &[(Nanos, f64)], hi: &[(Nanos, f64)]) {
        let origin = *self
            .origin
            .get_or_insert(lo.iter().chain(hi).map(|b| b.0).min().unwrap_or(0));
        let at = |(t, v): &(Nanos, f64)| Bound {
            t: *t as f64 - origin as f64,
            v: *v,
        };
        self.lower.extend(lo.iter().map(at));
        self.upper.extend(hi.iter().map(at));
        self.lower = hull(std::mem::take(&mut self.lower), true);
        self.upper = hull(std::mem::take(&mut self.upper), false);
        let constant = self.band(0.0);
        if !self.drift && constant.0 <= constant.1 {
            self.estimate = Some(self.estimate_at(0.0));
            return;
        }
        self.drift = self.drift || !(self.lower.is_empty() || self.upper.is_empty());
        // the band's width is concave in the slope: its widest by thirds
        let (mut a, mut b) = (-MAX_SLOPE, MAX_SLOPE);
        for _ in 0..200 {
            let m1 = a + (b - a) / 3.0;
            let m2 = b - (b - a) / 3.0;
            if self.width(m1) < self.width(m2) {
                a = m1;
            } else {
                b = m2;
            }
        }
        self.estimate = Some(self.estimate_at((a + b) / 2.0));
    }

    /// The lowest and highest δ at the origin the bounds allow with `slope`.
    fn band(&self, slope: f64) -> (f64, f64) {
        let lo = self
            .lower
            .iter()
            .map(|b| b.v - slope * b.t)
            .fold(f64::NEG_INFINITY, f64::max);
        let hi = self
            .upper
            .iter()
            .map(|b| b.v - slope * b.t)
            .fold(f64::INFINITY, f64::min);
        (lo, hi)
    }

    fn width(&self, slope: f64) -> f64 {
        let (lo, hi) = self.band(slope);
        hi - lo
    }

    fn estimate_at(&self, slope: f64) -> Estimate {
        let (lo, hi) = self.band(slope);
        let (offset, uncertainty) = match (lo.is_finite(), hi.is_finite()) {
            (true, true) => ((lo + hi) / 2.0, (hi - lo) / 2.0),
            // one side only: the nearest the facts allow to no correction
            (true, false) => (lo.max(0.0), f64::INFINITY),
            (false, true) => (hi.min(0.0), f64::INFINITY),
            (false, false) => (0.0, f64::INFINITY),
        };
        Estimate {
            offset,
            slope,
            uncertainty,
        }
    }
}

/// The points of `p` on its upper (`upper`) or lower convex hull: the only
/// bounds that can be the tightest for some slope.
fn hull(mut p: Vec<Bound>, upper: bool) -> Vec<Bound> {
    p.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.v.total_cmp(&b.v)));
    // of points at one time, only the tightest
    p.dedup_by(|b, a| {
        if a.t == b.t {
            if upper {
                a.v = a.v.max(b.v);
            } else {
                a.v = a.v.min(b.v);
            }
            true
        } else {
            false
        }
    });
    let mut h: Vec<Bound> = Vec::with_capacity(p.len());
    for q in p {
        while h.len() >= 2 {
            let (a, b) = (h[h.len() - 2], h[h.len() - 1]);
            let cross = (b.t - a.t) * (q.v - a.v) - (b.v - a.v) * (q.t - a.t);
            // upper hull: drop b when it is not above the line a-q
            if (upper && cross >= 0.0) || (!upper && cross <= 0.0) {
                h.pop();
            } else {
                break;
            }
        }
        h.push(q);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use genba_events::{GpuKind, Task};

    /// A small deterministic generator (the tests' jitter).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The host's view of one command, on CLOCK_MONOTONIC: the enqueue
    /// call, the device's four times, the wait's return, the callback's
    /// write; and the same command as a shim that mapped a device clock
    /// off by `err(t)` would report it.
    struct Truth {
        enqueued: Nanos,
        enqueue_returned: Nanos,
        queued: Nanos,
        start: Nanos,
        end: Nanos,
        waited: Nanos,
    }

    /// A program's run: `n` commands, each enqueued (a call of 2-20 µs),
    /// queued inside it, run 50-500 µs after a wait of up to 100 µs, its
    /// clFinish returning 5-60 µs after it ended (the callback later still).
    fn run(n: usize, seed: u64) -> Vec<Truth> {
        let mut r = Rng(seed);
        let mut t: Nanos = 1_000_000_000;
        (0..n)
            .map(|_| {
                let enqueued = t;
                let enqueue_returned = enqueued + 2_000 + r.below(18_000);
                let queued = enqueued + 500 + r.below(enqueue_returned - enqueued - 500);
                let start = enqueue_returned + r.below(100_000);
                let end = start + 50_000 + r.below(450_000);
                let waited = end + 5_000 + r.below(55_000);
                t = waited + 10_000 + r.below(200_000);
                Truth {
                    enqueued,
                    enqueue_returned,
                    queued,
                    start,
                    end,
                    waited,
                }
            })
            .collect()
    }

    /// As the shim reports `t`: the device's times off by `err` (ns, a
    /// function of the host time), the callback writing up to 1 ms after
    /// the wait returned.
    fn reported(t: &Truth, err: &dyn Fn(Nanos) -> i64, late: u64) -> GpuCommand {
        let e = err(t.start);
        let m = |x: Nanos| (x as i64 + e) as Nanos;
        GpuCommand {
            task: Task { tid: 1, tgid: 1 },
            enqueued: t.enqueued,
            api: GpuApi::OpenCl,
            queue: 1,
            device: 1,
            kind: GpuKind::Kernel,
            name: "k".into(),
            queued: m(t.queued),
            submit: m(t.queued),
            start: m(t.start),
            end: m(t.end),
            bytes: 0,
            error: 0,
            observed: t.waited + late,
            enqueue_returned: t.enqueue_returned,
            waited: t.waited,
            clock_uncertainty: None,
        }
    }

    /// Feeds the run to a fit, corrects each command as it comes (the
    /// Session's way) and checks every corrected command against its
    /// facts; returns the fit and the largest error left (ns).
    fn fit(run: &[Truth], err: &dyn Fn(Nanos) -> i64, seed: u64) -> (ClockFit, i64, Vec<i64>) {
        let mut f = ClockFit::new();
        let mut r = Rng(seed);
        let mut worst = 0i64;
        let mut errors = Vec::new();
        for t in run {
            let c = reported(t, err, r.below(1_000_000));
            f.add(&c);
            let d = f.offset_at(c.start);
            let (q, s, e) = (c.queued as i64 + d, c.start as i64 + d, c.end as i64 + d);
            // never before its enqueue, never queued after the call
            // returned, never ended after its wait: the facts hold
            // (to the nanosecond of rounding)
            assert!(q + 1 >= t.enqueued as i64, "queued {q} < {}", t.enqueued);
            assert!(
                q <= t.enqueue_returned as i64 + 1,
                "queued {q} after the call"
            );
            assert!(
                e <= t.waited as i64 + 1,
                "ended {e} after the wait {}",
                t.waited
            );
            let left = s - t.start as i64;
            errors.push(left);
            worst = worst.max(left.abs());
        }
        (f, worst, errors)
    }

    #[test]
    fn a_constant_offset_is_narrowed_to_the_facts() {
        let run = run(2000, 7);
        // the marker's mapping 3.7 ms off
        let (f, worst, errors) = fit(&run, &|_| 3_700_000, 11);
        assert!(!f.drifting());
        let e = f.estimate().unwrap();
        assert_eq!(e.slope, 0.0);
        // the band narrows to a few µs: each command's QUEUED lies in a
        // call of 2-20 µs, and the tightest of 2000 of them is narrow
        assert!(e.uncertainty < 3_000.0, "{e:?}");
        assert!(
            (e.offset + 3_700_000.0).abs() <= e.uncertainty + 1.0,
            "{e:?}"
        );
        // after the first hundred, every command within 20 µs
        let late = errors[100..].iter().map(|x| x.abs()).max().unwrap();
        assert!(late < 20_000, "{late}");
        assert!(worst < 3_700_000, "{worst}");
        assert_eq!(f.restarts, 0);
    }

    #[test]
    fn a_drift_is_found_and_followed() {
        let run = run(3000, 3);
        let first = run[0].start;
        let span = run.last().unwrap().end - first;
        // off by 2 ms at the start, drifting 150 ppm (about 75 µs over a
        // 0.5 s run, far wider than one call's bracket)
        let err = |t: Nanos| -2_000_000 + ((t - first) as f64 * 150e-6) as i64;
        let (f, _, errors) = fit(&run, &err, 5);
        assert!(f.drifting(), "the drift was not seen");
        let e = f.estimate().unwrap();
        // the slope found is the drift, undone: -150 ppm within 10 ppm
        assert!((e.slope + 150e-6).abs() < 10e-6, "{e:?} over {span} ns");
        assert!(e.uncertainty >= 0.0 && e.uncertainty < 5_000.0, "{e:?}");
        // the last thousand commands each within 10 µs of the truth
        let late = errors[2000..].iter().map(|x| x.abs()).max().unwrap();
        assert!(late < 10_000, "{late}");
        assert_eq!(f.restarts, 0);
    }

    /// The uncertainty said of each command's mapped START holds it: the
    /// truth is within it of where the estimate put it, for a constant
    /// offset and for a drift (a truth that is a line: one the facts
    /// allow), however early in the run, the slope still loose.
    #[test]
    fn each_command_is_within_its_uncertainty() {
        let run = run(1500, 21);
        let first = run[0].start;
        for drift in [0.0, 150e-6, -1000e-6] {
            let err = |t: Nanos| -7_000_000 + ((t - first) as f64 * drift) as i64;
            let mut f = ClockFit::new();
            let mut r = Rng(5);
            let mut widths = Vec::new();
            for t in &run {
                let c = reported(t, &err, r.below(1_000_000));
                f.add(&c);
                let left = (c.start as i64 + f.offset_at(c.start)) - t.start as i64;
                let u = f.uncertainty_at(c.start).unwrap();
                assert!(
                    left.abs() as f64 <= u + 1.0,
                    "drift {drift}: off by {left} ns, said {u}"
                );
                widths.push(u);
            }
            // and it narrows as the facts add up: the last hundred far
            // tighter than the first ten
            let early = widths[..10].iter().cloned().fold(0.0, f64::max);
            let late = widths[widths.len() - 100..]
                .iter()
                .cloned()
                .fold(0.0, f64::max);
            assert!(late < 20_000.0 && late < early, "{early} then {late}");
        }
    }

    #[test]
    fn a_change_of_drift_restarts_the_fit() {
        let run = run(3000, 9);
        let mid = run[1500].start;
        // fast, then slow: a line fits neither half with the other
        let err = |t: Nanos| {
            if t < mid {
                (t - run[0].start) as i64 / 2_000
            } else {
                (mid - run[0].start) as i64 / 2_000 - (t - mid) as i64 / 2_000
            }
        };
        let (f, _, errors) = fit(&run, &err, 13);
        assert!(f.restarts >= 1, "{f:?}");
        let late = errors[2800..].iter().map(|x| x.abs()).max().unwrap();
        assert!(late < 20_000, "{late}");
    }

    #[test]
    fn a_command_that_contradicts_itself_is_left_out() {
        let run = run(50, 21);
        let mut f = ClockFit::new();
        for t in &run[..40] {
            f.add(&reported(t, &|_| 1_000, 0));
        }
        let before = f.estimate().unwrap();
        // its device time from QUEUED to END longer than from its enqueue
        // call's entry to its wait's return
        let mut c = reported(&run[40], &|_| 1_000, 0);
        c.end = c.queued + (run[40].waited - run[40].enqueued) + 1_000;
        f.add(&c);
        assert_eq!((f.contradictory, f.commands), (1, 40));
        assert_eq!(f.estimate().unwrap(), before);
    }

    #[test]
    fn vulkan_bounds_its_start_by_the_submission() {
        // QUEUED is the host's submission (not moved by the device's
        // clock): the device's START after it, its END before the wait
        let mut f = ClockFit::new();
        let mut c = reported(&run(1, 2)[0], &|_| 0, 0);
        c.api = GpuApi::Vulkan;
        c.enqueue_returned = 0;
        c.enqueued = 990_000;
        c.queued = 1_000_000;
        c.start = 1_000_000 - 3_000;
        c.end = c.start + 10_000;
        c.waited = c.end + 20_000;
        c.observed = c.waited;
        f.add(&c);
        let e = f.estimate().unwrap();
        // δ in [3000, 20000]: the middle
        assert_eq!((e.offset, e.uncertainty), (11_500.0, 8_500.0));
    }

    #[test]
    fn no_facts_no_correction() {
        let mut f = ClockFit::new();
        let mut c = reported(&run(1, 1)[0], &|_| 0, 0);
        c.enqueued = 0;
        c.enqueue_returned = 0;
        c.waited = 0;
        c.observed = 0;
        f.add(&c);
        assert_eq!(f.estimate(), None);
        assert_eq!(f.offset_at(c.start), 0);
    }
}
