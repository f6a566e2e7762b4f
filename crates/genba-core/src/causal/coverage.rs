//! Which candidates the experiments could not test, and why.
//!
//! A candidate is tested when at least one of its experiments (at a
//! speedup above 0) saw it run and was usable, and a usable baseline
//! exists. Otherwise the report lists it with the reason, rather than a
//! prediction of 0 that nothing backs.

use genba_causal::estimate::{self, Experiment};

/// Why experimenting stopped, for a candidate that got no experiment.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Stopped {
    /// `--duration` ran out.
    Duration,
    /// The program ended (or a run failed) first.
    Ended,
}

/// Why candidate `c` was not tested, or None when it was.
pub fn why_untested(exps: &[Experiment], c: usize, stopped: Stopped) -> Option<String> {
    let mine: Vec<&Experiment> = exps
        .iter()
        .filter(|e| e.candidate == c && e.speedup > 0)
        .collect();
    if mine.is_empty() {
        return Some(
            match stopped {
                Stopped::Duration => "no experiment before --duration ran out",
                Stopped::Ended => "no experiment before the program ended",
            }
            .to_string(),
        );
    }
    let n = mine.len();
    // G grows only by the candidate: an interval open across a whole
    // window adds delay without ending in it
    if mine.iter().all(|e| e.hits == 0 && e.delay_ns == 0) {
        return Some(format!(
            "it never ran in its {n} experiment{}: no sample landed in it and no wait of it was seen",
            if n == 1 { "" } else { "s" }
        ));
    }
    if !mine.iter().any(|e| estimate::usable(e)) {
        return Some(format!(
            "{} set aside (virtual time under {} times the delay still owed at the end)",
            if n == 1 {
                "its one experiment was".to_string()
            } else {
                format!("all its {n} experiments were")
            },
            estimate::LAG_FACTOR
        ));
    }
    if !exps.iter().any(|e| e.speedup == 0 && estimate::usable(e)) {
        return Some("no usable baseline experiment".to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(candidate: usize, speedup: u32, hits: u64, delay: u64, lag: u64) -> Experiment {
        Experiment {
            candidate,
            speedup,
            duration_ns: 1_000_000,
            delay_ns: delay,
            visits: vec![10],
            latency_ns: vec![None],
            hits,
            lag_ns: lag,
        }
    }

    #[test]
    fn each_reason() {
        let exps = vec![
            exp(0, 0, 0, 0, 0),
            exp(0, 50, 3, 1000, 0),
            exp(1, 50, 0, 0, 0),
            exp(2, 100, 5, 900_000, 50_000),
            // open across its window: no hit, but delay
            exp(3, 50, 0, 2000, 0),
        ];
        assert_eq!(why_untested(&exps, 0, Stopped::Ended), None);
        assert!(why_untested(&exps, 1, Stopped::Ended)
            .unwrap()
            .starts_with("it never ran in its 1 experiment:"));
        assert!(why_untested(&exps, 2, Stopped::Ended)
            .unwrap()
            .starts_with("its one experiment was set aside"));
        assert_eq!(why_untested(&exps, 3, Stopped::Ended), None);
        assert_eq!(
            why_untested(&exps, 4, Stopped::Duration).unwrap(),
            "no experiment before --duration ran out"
        );
        assert_eq!(
            why_untested(&exps[1..], 0, Stopped::Ended).unwrap(),
            "no usable baseline experiment"
        );
    }
}
