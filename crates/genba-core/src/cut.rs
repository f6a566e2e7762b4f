//! A recording cut short, as `genba report` and `genba export` say it: the
//! file ends inside a packet (a disk full, a copy cut), or it ends on a
//! whole packet but without the marker a recording that ended as it should
//! closes with (genba killed, or the machine down). Either way what is there is
//! read, and where it ends is said.

use serde_json::json;

/// The recording's format, in its settings: 2 closes a whole recording
/// with the end marker (a file of format 1, or none, has no marker: only a
/// packet cut says it was cut short).
pub const FORMAT: u64 = 2;

/// Whether the recording's settings (`format`) promise the end marker.
pub fn has_end_marker(format: Option<u64>) -> bool {
    format.is_some_and(|f| f >= 2)
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
