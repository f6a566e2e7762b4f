//! Wakers that are not threads: a wakeup made from an interrupt (a timer
//! expiring, a device's completion) is recorded with the interrupt's kind
//! (the off-CPU slice's `waker` argument) instead of a `waker_tid`. The
//! report keys wakers by tid; these give each interrupt kind an id above
//! any tid (the kernel's pid_max is at most 2^22) and a name for its row.

use genba_events::WakerKind;
use genba_export::perfetto::Value;

/// The interrupt kinds, in the order of their ids from `u32::MAX` down.
const KINDS: [WakerKind; 3] = [WakerKind::Timer, WakerKind::SoftIrq, WakerKind::HardIrq];

/// The waker id of an interrupt kind (None: a thread, which its tid names).
pub(crate) fn id(kind: WakerKind) -> Option<u32> {
    KINDS
        .iter()
        .position(|k| *k == kind)
        .map(|i| u32::MAX - i as u32)
}

/// The interrupt kind a waker id stands for (None: a thread's tid).
pub(crate) fn kind(id: u32) -> Option<WakerKind> {
    let i = u32::MAX.checked_sub(id)? as usize;
    KINDS.get(i).copied()
}

/// A waker row's name for an interrupt kind: `(interrupt)` for a hardirq
/// handler, `(softirq)`, `(timer)`.
pub(crate) fn label(kind: WakerKind) -> &'static str {
    match kind {
        WakerKind::HardIrq => "(interrupt)",
        WakerKind::SoftIrq => "(softirq)",
        WakerKind::Timer => "(timer)",
        WakerKind::Thread => "(thread)",
    }
}

/// A waker id as the report shows it: a thread, or an interrupt's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Waker {
    Thread(u32),
    Irq(WakerKind),
}

impl Waker {
    pub(crate) fn of(id: u32) -> Waker {
        match kind(id) {
            Some(k) => Waker::Irq(k),
            None => Waker::Thread(id),
        }
    }

    /// Its name in a row: a thread's tid, an interrupt's label (`(timer)`).
    pub(crate) fn short(self) -> String {
        match self {
            Waker::Thread(tid) => tid.to_string(),
            Waker::Irq(k) => label(k).to_string(),
        }
    }

    /// A tid column: the thread's tid, `-` for an interrupt (a name column
    /// says which).
    pub(crate) fn tid_cell(self) -> String {
        match self {
            Waker::Thread(tid) => tid.to_string(),
            Waker::Irq(_) => "-".to_string(),
        }
    }

    /// In JSON: its tid (null for an interrupt) and its kind (`thread`,
    /// `hardirq`, `softirq`, `timer`).
    pub(crate) fn json(self) -> (Option<u32>, &'static str) {
        match self {
            Waker::Thread(tid) => (Some(tid), WakerKind::Thread.name()),
            Waker::Irq(k) => (None, k.name()),
        }
    }
}

/// The waker of an off-CPU slice from its arguments: its interrupt kind's
/// id (`waker`), else its thread (`waker_tid`).
pub(crate) fn from_args(waker: Option<&Value>, waker_tid: Option<&Value>) -> Option<u32> {
    if let Some(Value::Str(k)) = waker {
        if let Some(id) = WakerKind::from_name(k).and_then(id) {
            return Some(id);
        }
    }
    match waker_tid {
        Some(Value::Uint(u)) => u32::try_from(*u).ok(),
        Some(Value::Int(i)) => u32::try_from(*i).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_stay_clear_of_tids() {
        for k in KINDS {
            let i = id(k).unwrap();
            assert!(i > 1 << 22);
            assert_eq!(kind(i), Some(k));
        }
        assert_eq!(id(WakerKind::Thread), None);
        assert_eq!(kind(4_194_304), None);
        assert_eq!(kind(1), None);
    }

    #[test]
    fn wakers_as_shown() {
        let timer = Waker::of(id(WakerKind::Timer).unwrap());
        assert_eq!(timer, Waker::Irq(WakerKind::Timer));
        assert_eq!(
            (timer.short(), timer.tid_cell(), timer.json()),
            ("(timer)".to_string(), "-".to_string(), (None, "timer"))
        );
        let t = Waker::of(42);
        assert_eq!(
            (t.short(), t.tid_cell(), t.json()),
            ("42".to_string(), "42".to_string(), (Some(42), "thread"))
        );
    }

    #[test]
    fn args_name_the_interrupt_before_the_tid() {
        let timer = Value::Str("timer".into());
        assert_eq!(
            from_args(Some(&timer), Some(&Value::Uint(7))),
            id(WakerKind::Timer)
        );
        assert_eq!(from_args(None, Some(&Value::Uint(7))), Some(7));
        let odd = Value::Str("nmi".into());
        assert_eq!(from_args(Some(&odd), None), None);
        assert_eq!(from_args(None, None), None);
    }
}
