//! A Perfetto trace writer: the file format of genba's recordings.
//!
//! A Perfetto trace is a stream of `TracePacket`s, each written as field 1
//! of the `Trace` message (a tag byte, a length, the packet). Every packet is
//! complete on its own, so a recording cut short (genba killed, a full disk)
//! reads up to its last whole packet. The Perfetto UI and trace processor
//! open it as it is.
//!
//! What is written, and how the format means it to be used:
//! - one packet sequence (`trusted_packet_sequence_id`), whose first packet
//!   clears the incremental state and sets the sequence's defaults
//!   (timestamps on `CLOCK_MONOTONIC`, the clock every genba event carries);
//! - a clock snapshot (MONOTONIC, REALTIME, BOOTTIME read together), so the
//!   trace maps onto wall-clock time and onto other traces;
//! - a track per process and per thread (`TrackDescriptor` with the pid and
//!   tid), and counter tracks (lost events);
//! - slices (`TrackEvent` begin/end) and instants with their arguments as
//!   debug annotations, connected by flows (a wakeup: waker to woken);
//! - event names and argument names interned: each string is written once,
//!   in the packet that first uses it, then referred to by number.
//!
//! The messages are the few of Perfetto's protos that are needed, written
//! out with prost's derive (no protoc at build time); the tests check the
//! files with Perfetto's official Python bindings.

use std::collections::HashMap;
use std::io::{self, Write};

use prost::Message;

/// `BUILTIN_CLOCK_MONOTONIC`: genba's clock.
pub const CLOCK_MONOTONIC: u32 = 3;
const CLOCK_REALTIME: u32 = 1;
const CLOCK_BOOTTIME: u32 = 6;
const SEQ_INCREMENTAL_STATE_CLEARED: u32 = 1;
const SEQ_NEEDS_INCREMENTAL_STATE: u32 = 2;
/// The one sequence genba writes.
const SEQUENCE_ID: u32 = 1;

const TYPE_SLICE_BEGIN: i32 = 1;
const TYPE_SLICE_END: i32 = 2;
const TYPE_INSTANT: i32 = 3;
const TYPE_COUNTER: i32 = 4;

/// The uuid spaces of genba's tracks (pids and tids are below 2^32).
const PROCESS_TRACK: u64 = 1 << 32;
const THREAD_TRACK: u64 = 2 << 32;
const COUNTER_TRACK: u64 = 3 << 32;

#[derive(Clone, PartialEq, Message)]
struct TracePacket {
    #[prost(uint64, optional, tag = "8")]
    timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "10")]
    trusted_packet_sequence_id: Option<u32>,
    #[prost(message, optional, tag = "6")]
    clock_snapshot: Option<ClockSnapshot>,
    #[prost(message, optional, tag = "11")]
    track_event: Option<TrackEvent>,
    #[prost(message, optional, tag = "12")]
    interned_data: Option<InternedData>,
    #[prost(uint32, optional, tag = "13")]
    sequence_flags: Option<u32>,
    #[prost(message, optional, tag = "59")]
    trace_packet_defaults: Option<TracePacketDefaults>,
    #[prost(message, optional, tag = "60")]
    track_descriptor: Option<TrackDescriptor>,
    #[prost(bool, optional, tag = "87")]
    first_packet_on_sequence: Option<bool>,
}

#[derive(Clone, PartialEq, Message)]
struct TracePacketDefaults {
    #[prost(uint32, optional, tag = "58")]
    timestamp_clock_id: Option<u32>,
}

#[derive(Clone, PartialEq, Message)]
struct ClockSnapshot {
    #[prost(message, repeated, tag = "1")]
    clocks: Vec<Clock>,
    #[prost(int32, optional, tag = "2")]
    primary_trace_clock: Option<i32>,
}

#[derive(Clone, PartialEq, Message)]
struct Clock {
    #[prost(uint32, optional, tag = "1")]
    clock_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    timestamp: Option<u64>,
}

#[derive(Clone, PartialEq, Message)]
struct TrackDescriptor {
    #[prost(uint64, optional, tag = "1")]
    uuid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    name: Option<String>,
    #[prost(message, optional, tag = "3")]
    process: Option<ProcessDescriptor>,
    #[prost(message, optional, tag = "4")]
    thread: Option<ThreadDescriptor>,
    #[prost(uint64, optional, tag = "5")]
    parent_uuid: Option<u64>,
    #[prost(message, optional, tag = "8")]
    counter: Option<CounterDescriptor>,
}

#[derive(Clone, PartialEq, Message)]
struct ProcessDescriptor {
    #[prost(int32, optional, tag = "1")]
    pid: Option<i32>,
    #[prost(string, optional, tag = "6")]
    process_name: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct ThreadDescriptor {
    #[prost(int32, optional, tag = "1")]
    pid: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    tid: Option<i32>,
    #[prost(string, optional, tag = "5")]
    thread_name: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct CounterDescriptor {
    #[prost(string, optional, tag = "6")]
    unit_name: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct TrackEvent {
    #[prost(int32, optional, tag = "9")]
    r#type: Option<i32>,
    #[prost(uint64, optional, tag = "10")]
    name_iid: Option<u64>,
    #[prost(uint64, optional, tag = "11")]
    track_uuid: Option<u64>,
    #[prost(message, repeated, tag = "4")]
    debug_annotations: Vec<DebugAnnotation>,
    #[prost(int64, optional, tag = "30")]
    counter_value: Option<i64>,
    #[prost(fixed64, repeated, packed = "false", tag = "47")]
    flow_ids: Vec<u64>,
    #[prost(fixed64, repeated, packed = "false", tag = "48")]
    terminating_flow_ids: Vec<u64>,
}

#[derive(Clone, PartialEq, Message)]
struct DebugAnnotation {
    #[prost(uint64, optional, tag = "1")]
    name_iid: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    uint_value: Option<u64>,
    #[prost(int64, optional, tag = "4")]
    int_value: Option<i64>,
    #[prost(string, optional, tag = "6")]
    string_value: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct InternedData {
    #[prost(message, repeated, tag = "2")]
    event_names: Vec<InternedString>,
    #[prost(message, repeated, tag = "3")]
    debug_annotation_names: Vec<InternedString>,
}

/// EventName and DebugAnnotationName have the same shape.
#[derive(Clone, PartialEq, Message)]
struct InternedString {
    #[prost(uint64, optional, tag = "1")]
    iid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    name: Option<String>,
}

/// An argument of a slice or instant, shown beside it in the UI.
#[derive(Debug, Clone, Copy)]
pub enum ArgValue<'a> {
    /// Text (a decoded call, a call site).
    Str(&'a str),
    /// A signed number (a return value).
    Int(i64),
    /// An unsigned number (a tid, a count).
    Uint(u64),
}

/// A named argument.
pub type Arg<'a> = (&'a str, ArgValue<'a>);

/// A track: a process, a thread or a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Track(u64);

/// The track of thread `tid`, once [`PerfettoWriter::thread`] described it.
pub fn thread_track(tid: u32) -> Track {
    Track(THREAD_TRACK | u64::from(tid))
}

/// Writes a Perfetto trace, packet by packet.
pub struct PerfettoWriter<W: Write> {
    out: W,
    event_names: HashMap<String, u64>,
    arg_names: HashMap<String, u64>,
    counters: u64,
    packets: u64,
    bytes: u64,
    buf: Vec<u8>,
}

/// The clocks read together at the start of a recording.
#[derive(Debug, Clone, Copy)]
pub struct ClockReadings {
    /// CLOCK_MONOTONIC, ns (the recording's clock).
    pub monotonic: u64,
    /// CLOCK_REALTIME, ns.
    pub realtime: u64,
    /// CLOCK_BOOTTIME, ns.
    pub boottime: u64,
}

impl<W: Write> PerfettoWriter<W> {
    /// Starts a trace: the sequence's first packet (incremental state
    /// cleared, timestamps on CLOCK_MONOTONIC) and the clock snapshot.
    pub fn new(out: W, clocks: ClockReadings) -> io::Result<Self> {
        let mut w = PerfettoWriter {
            out,
            event_names: HashMap::new(),
            arg_names: HashMap::new(),
            counters: 0,
            packets: 0,
            bytes: 0,
            buf: Vec::with_capacity(256),
        };
        w.packet(TracePacket {
            timestamp: Some(clocks.monotonic),
            sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
            first_packet_on_sequence: Some(true),
            trace_packet_defaults: Some(TracePacketDefaults {
                timestamp_clock_id: Some(CLOCK_MONOTONIC),
            }),
            clock_snapshot: Some(ClockSnapshot {
                clocks: vec![
                    clock(CLOCK_MONOTONIC, clocks.monotonic),
                    clock(CLOCK_BOOTTIME, clocks.boottime),
                    clock(CLOCK_REALTIME, clocks.realtime),
                ],
                primary_trace_clock: Some(CLOCK_BOOTTIME as i32),
            }),
            ..Default::default()
        })?;
        Ok(w)
    }

    /// Packets and bytes written so far.
    pub fn written(&self) -> (u64, u64) {
        (self.packets, self.bytes)
    }

    /// The track of process `pid`, described now.
    pub fn process(&mut self, pid: u32, name: &str) -> io::Result<Track> {
        let uuid = PROCESS_TRACK | u64::from(pid);
        self.packet(TracePacket {
            track_descriptor: Some(TrackDescriptor {
                uuid: Some(uuid),
                process: Some(ProcessDescriptor {
                    pid: Some(pid as i32),
                    process_name: Some(name.to_string()),
                }),
                ..Default::default()
            }),
            ..Default::default()
        })?;
        Ok(Track(uuid))
    }

    /// The track of thread `tid` of process `pid`, described now (again
    /// when it is renamed: the last description wins).
    pub fn thread(&mut self, pid: u32, tid: u32, name: &str) -> io::Result<Track> {
        let uuid = THREAD_TRACK | u64::from(tid);
        self.packet(TracePacket {
            track_descriptor: Some(TrackDescriptor {
                uuid: Some(uuid),
                parent_uuid: Some(PROCESS_TRACK | u64::from(pid)),
                thread: Some(ThreadDescriptor {
                    pid: Some(pid as i32),
                    tid: Some(tid as i32),
                    thread_name: Some(name.to_string()),
                }),
                ..Default::default()
            }),
            ..Default::default()
        })?;
        Ok(Track(uuid))
    }

    /// A counter track named `name` (under process `pid`, or global).
    pub fn counter_track(&mut self, name: &str, unit: &str, pid: Option<u32>) -> io::Result<Track> {
        self.counters += 1;
        let uuid = COUNTER_TRACK | self.counters;
        self.packet(TracePacket {
            track_descriptor: Some(TrackDescriptor {
                uuid: Some(uuid),
                name: Some(name.to_string()),
                parent_uuid: pid.map(|p| PROCESS_TRACK | u64::from(p)),
                counter: Some(CounterDescriptor {
                    unit_name: Some(unit.to_string()),
                }),
                ..Default::default()
            }),
            ..Default::default()
        })?;
        Ok(Track(uuid))
    }

    /// A slice from `ts` to `ts + dur` on `track`. `flow_out`: flows that
    /// start here (a wakeup this slice made); `flow_in`: flows that end here.
    #[allow(clippy::too_many_arguments)]
    pub fn slice(
        &mut self,
        track: Track,
        ts: u64,
        dur: u64,
        name: &str,
        args: &[Arg<'_>],
        flow_out: &[u64],
        flow_in: &[u64],
    ) -> io::Result<()> {
        let mut interned = InternedData::default();
        let mut begin = self.event(track, TYPE_SLICE_BEGIN, name, args, &mut interned);
        begin.flow_ids = flow_out.to_vec();
        begin.terminating_flow_ids = flow_in.to_vec();
        self.event_packet(ts, begin, interned)?;
        let end = TrackEvent {
            r#type: Some(TYPE_SLICE_END),
            track_uuid: Some(track.0),
            ..Default::default()
        };
        self.event_packet(ts + dur, end, InternedData::default())
    }

    /// A point in time on `track`; `flow_out`: flows that start here (the
    /// thread woke another).
    pub fn instant(
        &mut self,
        track: Track,
        ts: u64,
        name: &str,
        args: &[Arg<'_>],
        flow_out: &[u64],
    ) -> io::Result<()> {
        let mut interned = InternedData::default();
        let mut ev = self.event(track, TYPE_INSTANT, name, args, &mut interned);
        ev.flow_ids = flow_out.to_vec();
        self.event_packet(ts, ev, interned)
    }

    /// A counter's value from `ts` on.
    pub fn counter(&mut self, track: Track, ts: u64, value: i64) -> io::Result<()> {
        let ev = TrackEvent {
            r#type: Some(TYPE_COUNTER),
            track_uuid: Some(track.0),
            counter_value: Some(value),
            ..Default::default()
        };
        self.event_packet(ts, ev, InternedData::default())
    }

    /// Writes out what the underlying writer buffers.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Flushes the writer and hands it back.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// A track event with its name and arguments interned (new strings go
    /// into `interned`, written in the same packet).
    fn event(
        &mut self,
        track: Track,
        kind: i32,
        name: &str,
        args: &[Arg<'_>],
        interned: &mut InternedData,
    ) -> TrackEvent {
        let name_iid = intern(&mut self.event_names, name, &mut interned.event_names);
        let debug_annotations = args
            .iter()
            .map(|(n, v)| {
                let iid = intern(&mut self.arg_names, n, &mut interned.debug_annotation_names);
                let mut a = DebugAnnotation {
                    name_iid: Some(iid),
                    ..Default::default()
                };
                match *v {
                    ArgValue::Str(s) => a.string_value = Some(s.to_string()),
                    ArgValue::Int(i) => a.int_value = Some(i),
                    ArgValue::Uint(u) => a.uint_value = Some(u),
                }
                a
            })
            .collect();
        TrackEvent {
            r#type: Some(kind),
            track_uuid: Some(track.0),
            name_iid: Some(name_iid),
            debug_annotations,
            ..Default::default()
        }
    }

    fn event_packet(&mut self, ts: u64, ev: TrackEvent, interned: InternedData) -> io::Result<()> {
        let has_interned =
            !interned.event_names.is_empty() || !interned.debug_annotation_names.is_empty();
        self.packet(TracePacket {
            timestamp: Some(ts),
            track_event: Some(ev),
            interned_data: has_interned.then_some(interned),
            sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
            ..Default::default()
        })
    }

    /// Writes one packet as field 1 of `Trace`, whole.
    fn packet(&mut self, mut p: TracePacket) -> io::Result<()> {
        p.trusted_packet_sequence_id = Some(SEQUENCE_ID);
        self.buf.clear();
        // Trace.packet (field 1, length-delimited): the key, then the length
        prost::encoding::encode_key(1, prost::encoding::WireType::LengthDelimited, &mut self.buf);
        p.encode_length_delimited(&mut self.buf)
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.out.write_all(&self.buf)?;
        self.packets += 1;
        self.bytes += self.buf.len() as u64;
        Ok(())
    }
}

fn clock(id: u32, ts: u64) -> Clock {
    Clock {
        clock_id: Some(id),
        timestamp: Some(ts),
    }
}

/// The interned id of `s` (from 1), adding it to `new` the first time.
fn intern(table: &mut HashMap<String, u64>, s: &str, new: &mut Vec<InternedString>) -> u64 {
    if let Some(&iid) = table.get(s) {
        return iid;
    }
    let iid = table.len() as u64 + 1;
    table.insert(s.to_string(), iid);
    new.push(InternedString {
        iid: Some(iid),
        name: Some(s.to_string()),
    });
    iid
}

/// Reads a trace back packet by packet: the number of whole packets, and
/// where the last whole one ended when the file was cut in the middle of
/// one (None: it ends on a packet boundary).
pub fn count_packets(data: &[u8]) -> (u64, Option<usize>) {
    let mut at = 0;
    let mut n = 0;
    while at < data.len() {
        let mut rest = &data[at..];
        let before = rest.len();
        let whole = prost::encoding::decode_key(&mut rest)
            .ok()
            .filter(|&(tag, wt)| tag == 1 && wt == prost::encoding::WireType::LengthDelimited)
            .and_then(|_| prost::encoding::decode_varint(&mut rest).ok())
            .and_then(|len| {
                let head = before - rest.len();
                let len = usize::try_from(len).ok()?;
                (rest.len() >= len).then_some(head + len)
            });
        match whole {
            Some(size) => {
                at += size;
                n += 1;
            }
            None => return (n, Some(at)),
        }
    }
    (n, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_trace() -> Vec<u8> {
        let clocks = ClockReadings {
            monotonic: 1_000,
            realtime: 1_700_000_000_000_000_000,
            boottime: 2_000,
        };
        let mut w = PerfettoWriter::new(Vec::new(), clocks).unwrap();
        w.process(100, "app").unwrap();
        let t1 = w.thread(100, 100, "app").unwrap();
        let t2 = w.thread(100, 101, "worker").unwrap();
        let lost = w.counter_track("lost events", "events", None).unwrap();
        w.slice(
            t1,
            2_000,
            500,
            "read",
            &[
                ("call", ArgValue::Str("read(3, \"x\", 1) = 1")),
                ("ret", ArgValue::Int(1)),
            ],
            &[],
            &[],
        )
        .unwrap();
        w.slice(
            t1,
            3_000,
            500,
            "read",
            &[("ret", ArgValue::Int(-11))],
            &[7],
            &[],
        )
        .unwrap();
        w.slice(
            t2,
            3_600,
            100,
            "running",
            &[("waker_tid", ArgValue::Uint(100))],
            &[],
            &[7],
        )
        .unwrap();
        w.instant(t2, 3_700, "exit", &[], &[]).unwrap();
        w.counter(lost, 4_000, 0).unwrap();
        w.finish().unwrap()
    }

    #[test]
    fn names_are_interned_once() {
        let data = sample_trace();
        // "read" and "ret" are written once each, however often used
        let text = String::from_utf8_lossy(&data);
        assert_eq!(
            text.matches("read").count(),
            2,
            "the name, and inside the call's text"
        );
        assert_eq!(text.matches("ret").count(), 1);
    }

    #[test]
    fn cut_anywhere_reads_to_the_last_whole_packet() {
        let data = sample_trace();
        let (whole, cut) = count_packets(&data);
        assert_eq!(cut, None);
        assert_eq!(whole, 13);
        let mut last = 0;
        for len in 0..data.len() {
            let (n, cut) = count_packets(&data[..len]);
            assert!(n <= whole && n >= last, "{len}: {n}");
            last = n;
            if let Some(at) = cut {
                assert!(at <= len);
            }
        }
    }
}
