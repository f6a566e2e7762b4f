//! A recording cut short, as `genba report` and `genba export` say it: the
//! file ends inside a packet (a disk full, a copy cut), or it ends on a
//! whole packet but without the marker a recording that ended as it should
//! closes with (genba killed, or the machine down). Either way what is there is
//! read, and where it ends is said.

use std::io::Read;

use anyhow::{bail, Result};
use genba_export::perfetto::{Packet, PerfettoReader, ReadError, ReadEvent, Value};
use serde_json::json;

use crate::Exit;

/// The recording's format, in its settings: 2 closes a whole recording
/// with the end marker (a file of format 1, or none, has no marker: only a
/// packet cut says it was cut short); 3 names off-CPU slices by their class
/// alone, the call in their `syscall` argument (crate::slicename).
pub const FORMAT: u64 = 3;

/// Whether the recording's settings (`format`) promise the end marker.
pub fn has_end_marker(format: Option<u64>) -> bool {
    format.is_some_and(|f| f >= 2)
}

/// Reads a recording's packets to its end, or to where it is cut, each to
/// `each`. Returns where a packet is cut (its offset, the whole packets
/// before it), if one is; a file without a packet is an error.
pub fn read_packets<R: Read>(
    path: &str,
    reader: &mut PerfettoReader<R>,
    mut each: impl FnMut(Packet, &PerfettoReader<R>) -> Result<()>,
) -> Result<Option<(u64, u64)>> {
    let mut inside = None;
    let mut packets = 0u64;
    loop {
        match reader.next_packet() {
            Ok(Some(p)) => {
                packets += 1;
                each(p, reader)?;
            }
            Ok(None) => break,
            Err(ReadError::Truncated { at, packets }) => {
                inside = Some((at, packets));
                break;
            }
            Err(e) => bail!(Exit(1, format!("{path}: {e}"))),
        }
    }
    if packets == 0 && inside.is_none() {
        bail!(Exit(1, format!("{path}: empty, not a recording")));
    }
    Ok(inside)
}

/// What a reader keeps of a recording as it goes, to say whether it was
/// cut short, and where: its format, its end marker, its latest time, its
/// loss count.
#[derive(Debug, Default)]
pub struct Watch {
    /// The settings' `format` (None: a recording older than it, or none
    /// read yet).
    pub format: Option<u64>,
    /// The closing marker was read: the recording ended as it should.
    ended: bool,
    /// The latest timestamp read.
    last_ts: Option<u64>,
    /// Events lost, as last counted.
    pub lost: Option<i64>,
}

impl Watch {
    /// A packet's time.
    pub fn time(&mut self, ts: u64) {
        self.last_ts = self.last_ts.max(Some(ts));
    }

    /// The latest time read.
    pub fn last_ts(&self) -> Option<u64> {
        self.last_ts
    }

    /// An event on the recording's own track: its settings (their format),
    /// its end marker.
    pub fn own_event(&mut self, e: &ReadEvent) {
        match e.name.as_deref() {
            Some(crate::record::END_MARKER) => self.ended = true,
            Some("settings") => {
                self.format = match e.arg("format") {
                    Some(Value::Uint(u)) => Some(*u),
                    _ => None,
                }
            }
            _ => {}
        }
    }

    /// The loss counter read (None: a counter without a value).
    pub fn lost_count(&mut self, n: Option<i64>) {
        self.lost = n.or(self.lost);
    }

    /// Whether the recording was cut short: `inside` as [`read_packets`]
    /// returns it, `position` the reader's (bytes, whole packets).
    pub fn decide(&self, inside: Option<(u64, u64)>, position: (u64, u64)) -> Option<Cut> {
        // a recording made before the end marker existed never has one
        let ended = self.ended || !has_end_marker(self.format);
        decide(inside, ended, position, self.last_ts, self.lost)
    }
}

/// Why a recording is taken to be cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The file ends inside a packet.
    InsidePacket,
    /// The file ends on a whole packet, without the closing marker.
    NoEndMarker,
}

impl Reason {
    /// The reason as the JSON outputs name it.
    pub fn name(self) -> &'static str {
        match self {
            Reason::InsidePacket => "cut inside a packet",
            Reason::NoEndMarker => "no closing marker",
        }
    }
}

/// Where a recording was cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub reason: Reason,
    /// The byte offset where what could be read ends (the start of the cut
    /// packet, or the file's size).
    pub at_byte: u64,
    /// Whole packets read before it.
    pub packets: u64,
    /// The latest timestamp read (None: no timed event in it).
    pub last_ts: Option<u64>,
    /// Events lost as counted up to there (None: no count in it).
    pub lost_so_far: Option<i64>,
}

/// How a reader that went through a recording decides whether it was cut
/// short: `inside`, the reader's error at a packet cut (its offset, whole
/// packets before it); `ended`, the closing marker was read; `bytes` and
/// `packets`, how far the reader got.
pub fn decide(
    inside: Option<(u64, u64)>,
    ended: bool,
    (bytes, packets): (u64, u64),
    last_ts: Option<u64>,
    lost_so_far: Option<i64>,
) -> Option<Cut> {
    let (reason, at_byte, packets) = match inside {
        Some((at, n)) => (Reason::InsidePacket, at, n),
        None if !ended => (Reason::NoEndMarker, bytes, packets),
        None => return None,
    };
    Some(Cut {
        reason,
        at_byte,
        packets,
        last_ts,
        lost_so_far,
    })
}

impl Cut {
    /// The line said on stderr.
    pub fn sentence(&self) -> String {
        let (at, n) = (self.at_byte, self.packets);
        match self.reason {
            Reason::InsidePacket => format!(
                "genba: the recording is truncated at byte {at}, after {n} whole packets; read up to there"
            ),
            Reason::NoEndMarker => {
                let last = match self.last_ts {
                    Some(ts) => format!("its last event at {ts} ns"),
                    None => "no event in it".to_string(),
                };
                format!(
                    "genba: the recording is cut short (it ends without its closing marker: genba was stopped before the end) at byte {at}, after {n} whole packets, {last}; read up to there"
                )
            }
        }
    }

    /// The JSON outputs' `truncated` object (the jsonl export's
    /// `truncated` line adds its type).
    pub fn json(&self) -> serde_json::Value {
        json!({"reason": self.reason.name(), "at_byte": self.at_byte,
            "whole_packets": self.packets, "last_ts": self.last_ts,
            "lost_so_far": self.lost_so_far})
    }
}

/// Says on stderr that a recording was cut short, and where.
pub fn say(cut: Option<&Cut>) {
    if let Some(c) = cut {
        eprintln!("{}", c.sentence());
    }
}
