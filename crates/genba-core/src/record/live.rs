//! What a recording writes while it runs rather than at its end, so that a
//! recording cut short (genba killed with SIGKILL) holds what came before
//! (written to the file, not synced: a machine that goes down keeps what
//! the kernel had put on disk): the packets collected are written out every half
//! second, the events lost so far are counted as they change (so losses sit
//! where they happened on the timeline), and a marker closes a recording
//! that ended as it should (its absence says it was cut short).

use std::io;
use std::time::{Duration, Instant};

use genba_bpf::Tracer;
use genba_events::CollectorStats;
use genba_export::perfetto::{ArgValue, Track};

use super::{clock_readings, RecordSink};

/// How often what is collected goes to the file.
const FLUSH_EVERY: Duration = Duration::from_millis(500);
/// How often the collector's loss counters are read.
const LOSSES_EVERY: Duration = Duration::from_millis(100);

/// The name of the instant that closes a whole recording, on the track
/// `genba record`.
pub(crate) const END_MARKER: &str = "end";

pub(crate) struct LiveState {
    /// The counter track `lost events`, once described.
    lost_track: Option<Track>,
    /// The events lost, as last counted.
    lost: u64,
    flushed: Instant,
    checked: Instant,
}

impl LiveState {
    pub(crate) fn new() -> LiveState {
        let now = Instant::now();
        LiveState {
            lost_track: None,
            lost: 0,
            flushed: now,
            checked: now,
        }
    }

    /// The events lost so far, as last counted.
    pub(crate) fn lost(&self) -> u64 {
        self.lost
    }
}

impl RecordSink {
    /// At the start: the losses counted from 0, and what is there so far
    /// written out (a recording killed at once is not an empty file).
    pub(super) fn start_live(&mut self) -> io::Result<()> {
        self.count_lost(clock_readings().monotonic, 0)?;
        self.live.flushed = Instant::now();
        self.w.flush()
    }

    /// After each poll: the losses when they changed, and what is collected
    /// written out when it has waited long enough.
    pub(super) fn tick_live(&mut self, tracer: &Tracer) {
        if self.error.is_some() {
            return;
        }
        let now = Instant::now();
        let mut r = Ok(());
        if now.duration_since(self.live.checked) >= LOSSES_EVERY {
            self.live.checked = now;
            if let Ok(s) = tracer.stats() {
                let total = s.total_lost();
                if total != self.live.lost {
                    r = self.count_lost(clock_readings().monotonic, total);
                }
            }
        }
        if r.is_ok() && now.duration_since(self.live.flushed) >= FLUSH_EVERY {
            self.live.flushed = now;
            r = self.w.flush();
        }
        if let Err(e) = r {
            self.end_progress();
            eprintln!(
                "genba: {}: {e} (the rest of the recording is counted, not written)",
                self.file
            );
            self.error = Some(e);
        }
    }

    /// A sample of the counter `lost events`: `total` lost from `ts` on.
    fn count_lost(&mut self, ts: u64, total: u64) -> io::Result<()> {
        let t = match self.live.lost_track {
            Some(t) => t,
            None => {
                let t = self.w.counter_track("lost events", "events", None)?;
                self.live.lost_track = Some(t);
                t
            }
        };
        self.live.lost = total;
        self.w.counter(t, ts, total as i64)
    }

    /// The losses' count at the end (written even when unchanged: the
    /// total of the whole run).
    pub(super) fn close_lost(&mut self, ts: u64, total: u64) -> io::Result<()> {
        self.count_lost(ts, total)
    }

    /// The last packet of a whole recording: the instant `end` on the
    /// recording's own track, with what the collector counted of itself.
    pub(super) fn end_marker(&mut self, ts: u64, stats: &CollectorStats) -> io::Result<()> {
        let Some(t) = self.settings_track else {
            return Ok(());
        };
        self.w.instant(
            t,
            ts,
            END_MARKER,
            &[
                ("events", ArgValue::Uint(self.events)),
                ("lost_events", ArgValue::Uint(stats.total_lost())),
                ("ring_full", ArgValue::Uint(stats.lost)),
                ("missed", ArgValue::Uint(stats.missed)),
                ("interval_collisions", ArgValue::Uint(stats.prof_collisions)),
            ],
            &[],
        )
    }

    /// Ends the progress line on the terminal, if one is shown, so that
    /// what genba says next starts a line of its own.
    pub(crate) fn end_progress(&mut self) {
        if self.progress_shown {
            eprintln!();
            self.progress_shown = false;
        }
        self.progress = None;
    }
}
