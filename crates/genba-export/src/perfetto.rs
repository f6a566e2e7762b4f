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
//! [`PerfettoReader`] reads such a trace back, packet by packet, with the
//! interned names resolved; a cut or malformed file is an error that says
//! where, never a panic.
//!
//! The messages are the few of Perfetto's protos that are needed, written
//! out with prost's derive (no protoc at build time); the tests check the
//! files with Perfetto's official Python bindings.

use std::collections::HashMap;
use std::io::{self, Read, Write};

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
    /// A name not interned (genba interns; other writers may not).
    #[prost(string, optional, tag = "23")]
    name: Option<String>,
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
    /// A name not interned.
    #[prost(string, optional, tag = "10")]
    name: Option<String>,
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

// ---------------------------------------------------------------------------
// Reading a trace back
// ---------------------------------------------------------------------------

/// The largest packet the reader accepts: genba's are a few hundred bytes;
/// a length beyond this is a file that is not a trace.
const MAX_PACKET: u64 = 64 << 20;

/// What a track is, as its descriptor says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrackKind {
    /// A process.
    Process {
        /// Its pid.
        pid: i32,
        /// Its name.
        name: String,
    },
    /// A thread of a process.
    Thread {
        /// Its process.
        pid: i32,
        /// Its tid.
        tid: i32,
        /// Its name.
        name: String,
    },
    /// A counter.
    Counter {
        /// What it counts.
        name: String,
        /// Its unit.
        unit: String,
    },
    /// Any other track (a name alone).
    Other {
        /// Its name, if any.
        name: String,
    },
}

/// A track's descriptor, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackInfo {
    /// The track's id.
    pub uuid: u64,
    /// The track it sits under.
    pub parent: Option<u64>,
    /// What it is.
    pub kind: TrackKind,
}

/// The kind of a track event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A slice begins.
    SliceBegin,
    /// The innermost open slice of the track ends.
    SliceEnd,
    /// A point in time.
    Instant,
    /// A counter's value.
    Counter,
    /// A type this reader does not know.
    Other(i32),
}

/// An argument's value, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Text.
    Str(String),
    /// A signed number.
    Int(i64),
    /// An unsigned number.
    Uint(u64),
    /// A value of a kind this reader does not keep.
    Unknown,
}

/// A track event with its interned names resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadEvent {
    /// When, in ns on the recording's clock.
    pub ts: u64,
    /// The track's uuid.
    pub track: u64,
    /// Begin, end, instant or counter.
    pub kind: EventKind,
    /// The event's name (none on a slice's end).
    pub name: Option<String>,
    /// The arguments, by name.
    pub args: Vec<(String, Value)>,
    /// A counter's value.
    pub counter: Option<i64>,
    /// Flows that start here.
    pub flows_out: Vec<u64>,
    /// Flows that end here.
    pub flows_in: Vec<u64>,
}

impl ReadEvent {
    /// The argument named `name`.
    pub fn arg(&self, name: &str) -> Option<&Value> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// One packet, read back: what genba's writer puts in packets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Packet {
    /// A track described.
    Track(TrackInfo),
    /// A track event.
    Event(ReadEvent),
    /// Anything else (the sequence's defaults, a clock snapshot).
    Other,
}

/// Why a trace could not be read further.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(io::Error),
    /// The file ends inside a packet: `at` is where that packet began,
    /// after `packets` whole ones.
    Truncated {
        /// Byte offset of the cut packet.
        at: u64,
        /// Whole packets before it.
        packets: u64,
    },
    /// A packet that is not what a trace holds.
    Malformed {
        /// Byte offset of the packet.
        at: u64,
        /// Whole packets before it.
        packets: u64,
        /// What is wrong.
        what: String,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Truncated { at, packets } => {
                write!(f, "truncated at byte {at}, after {packets} whole packets")
            }
            ReadError::Malformed { at, packets, what } => {
                if *packets == 0 {
                    write!(f, "not a Perfetto trace ({what} at byte {at})")
                } else {
                    write!(
                        f,
                        "malformed packet at byte {at} (packet {}): {what}",
                        packets + 1
                    )
                }
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a Perfetto trace packet by packet, keeping only the sequence's
/// interned names (memory does not grow with the file).
pub struct PerfettoReader<R: Read> {
    r: R,
    offset: u64,
    packets: u64,
    event_names: HashMap<u64, String>,
    arg_names: HashMap<u64, String>,
    buf: Vec<u8>,
}

/// The end of a varint read from a stream.
enum Varint {
    Value(u64),
    /// The stream ended before its first byte.
    Eof,
    /// The stream ended inside it.
    Cut,
    /// More than ten bytes.
    TooLong,
}

impl<R: Read> PerfettoReader<R> {
    /// A reader at the start of a trace.
    pub fn new(r: R) -> Self {
        PerfettoReader {
            r,
            offset: 0,
            packets: 0,
            event_names: HashMap::new(),
            arg_names: HashMap::new(),
            buf: Vec::new(),
        }
    }

    /// Bytes and whole packets read so far.
    pub fn position(&self) -> (u64, u64) {
        (self.offset, self.packets)
    }

    fn varint(&mut self, consumed: &mut u64) -> io::Result<Varint> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let mut b = [0u8];
            loop {
                match self.r.read(&mut b) {
                    Ok(0) => return Ok(if i == 0 { Varint::Eof } else { Varint::Cut }),
                    Ok(_) => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            }
            *consumed += 1;
            v |= u64::from(b[0] & 0x7f) << (7 * i);
            if b[0] & 0x80 == 0 {
                return Ok(Varint::Value(v));
            }
        }
        Ok(Varint::TooLong)
    }

    /// The next packet; `Ok(None)` at the end of a file that ends on a
    /// packet boundary.
    pub fn next_packet(&mut self) -> Result<Option<Packet>, ReadError> {
        let at = self.offset;
        let packets = self.packets;
        let malformed = |what: String| ReadError::Malformed { at, packets, what };
        let truncated = ReadError::Truncated { at, packets };
        let mut head = 0;
        let key = match self.varint(&mut head).map_err(ReadError::Io)? {
            Varint::Value(k) => k,
            Varint::Eof => return Ok(None),
            Varint::Cut => return Err(truncated),
            Varint::TooLong => return Err(malformed("a key longer than 10 bytes".into())),
        };
        // Trace.packet: field 1, length-delimited
        if key != (1 << 3) | 2 {
            return Err(malformed(format!(
                "field {} (wire type {}) where a packet (field 1) should be",
                key >> 3,
                key & 7
            )));
        }
        let len = match self.varint(&mut head).map_err(ReadError::Io)? {
            Varint::Value(l) => l,
            Varint::Eof | Varint::Cut => return Err(truncated),
            Varint::TooLong => return Err(malformed("a length longer than 10 bytes".into())),
        };
        if len > MAX_PACKET {
            return Err(malformed(format!("a packet of {len} bytes")));
        }
        self.buf.clear();
        let got = (&mut self.r)
            .take(len)
            .read_to_end(&mut self.buf)
            .map_err(ReadError::Io)?;
        if (got as u64) < len {
            return Err(truncated);
        }
        let p = TracePacket::decode(self.buf.as_slice()).map_err(|e| malformed(e.to_string()))?;
        let packet = self.interpret(p).map_err(malformed)?;
        self.offset += head + len;
        self.packets += 1;
        Ok(Some(packet))
    }

    fn interpret(&mut self, p: TracePacket) -> Result<Packet, String> {
        if p.sequence_flags.unwrap_or(0) & SEQ_INCREMENTAL_STATE_CLEARED != 0 {
            self.event_names.clear();
            self.arg_names.clear();
        }
        if let Some(d) = p.interned_data {
            for s in d.event_names {
                let iid = s.iid.ok_or("an interned event name without an iid")?;
                self.event_names.insert(iid, s.name.unwrap_or_default());
            }
            for s in d.debug_annotation_names {
                let iid = s.iid.ok_or("an interned argument name without an iid")?;
                self.arg_names.insert(iid, s.name.unwrap_or_default());
            }
        }
        if let Some(t) = p.track_descriptor {
            let uuid = t.uuid.ok_or("a track without a uuid")?;
            let kind = if let Some(th) = t.thread {
                TrackKind::Thread {
                    pid: th.pid.unwrap_or(0),
                    tid: th.tid.unwrap_or(0),
                    name: th.thread_name.unwrap_or_default(),
                }
            } else if let Some(pr) = t.process {
                TrackKind::Process {
                    pid: pr.pid.unwrap_or(0),
                    name: pr.process_name.unwrap_or_default(),
                }
            } else if let Some(c) = t.counter {
                TrackKind::Counter {
                    name: t.name.unwrap_or_default(),
                    unit: c.unit_name.unwrap_or_default(),
                }
            } else {
                TrackKind::Other {
                    name: t.name.unwrap_or_default(),
                }
            };
            return Ok(Packet::Track(TrackInfo {
                uuid,
                parent: t.parent_uuid,
                kind,
            }));
        }
        let Some(ev) = p.track_event else {
            return Ok(Packet::Other);
        };
        let ts = p.timestamp.ok_or("a track event without a timestamp")?;
        let kind = match ev.r#type.unwrap_or(0) {
            TYPE_SLICE_BEGIN => EventKind::SliceBegin,
            TYPE_SLICE_END => EventKind::SliceEnd,
            TYPE_INSTANT => EventKind::Instant,
            TYPE_COUNTER => EventKind::Counter,
            other => EventKind::Other(other),
        };
        let name = match (ev.name_iid, ev.name) {
            (Some(iid), _) => Some(
                self.event_names
                    .get(&iid)
                    .cloned()
                    .ok_or_else(|| format!("event name {iid} used before it is interned"))?,
            ),
            (None, n) => n,
        };
        let mut args = Vec::with_capacity(ev.debug_annotations.len());
        for a in ev.debug_annotations {
            let n = match (a.name_iid, a.name) {
                (Some(iid), _) => self
                    .arg_names
                    .get(&iid)
                    .cloned()
                    .ok_or_else(|| format!("argument name {iid} used before it is interned"))?,
                (None, Some(n)) => n,
                (None, None) => return Err("an argument without a name".into()),
            };
            let v = if let Some(s) = a.string_value {
                Value::Str(s)
            } else if let Some(i) = a.int_value {
                Value::Int(i)
            } else if let Some(u) = a.uint_value {
                Value::Uint(u)
            } else {
                Value::Unknown
            };
            args.push((n, v));
        }
        Ok(Packet::Event(ReadEvent {
            ts,
            track: ev.track_uuid.ok_or("a track event without a track")?,
            kind,
            name,
            args,
            counter: ev.counter_value,
            flows_out: ev.flow_ids,
            flows_in: ev.terminating_flow_ids,
        }))
    }
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

    fn read_all(data: &[u8]) -> (Vec<Packet>, Option<ReadError>) {
        let mut r = PerfettoReader::new(data);
        let mut out = Vec::new();
        loop {
            match r.next_packet() {
                Ok(Some(p)) => out.push(p),
                Ok(None) => return (out, None),
                Err(e) => return (out, Some(e)),
            }
        }
    }

    #[test]
    fn reads_back_what_was_written() {
        let data = sample_trace();
        let (packets, err) = read_all(&data);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(packets.len(), 13);
        let threads: Vec<_> = packets
            .iter()
            .filter_map(|p| match p {
                Packet::Track(TrackInfo {
                    kind: TrackKind::Thread { tid, name, .. },
                    ..
                }) => Some((*tid, name.as_str())),
                _ => None,
            })
            .collect();
        assert_eq!(threads, [(100, "app"), (101, "worker")]);
        let events: Vec<&ReadEvent> = packets
            .iter()
            .filter_map(|p| match p {
                Packet::Event(e) => Some(e),
                _ => None,
            })
            .collect();
        // the second "read" is interned: its name is resolved all the same
        let begins: Vec<_> = events
            .iter()
            .filter(|e| e.kind == EventKind::SliceBegin)
            .map(|e| (e.ts, e.name.as_deref().unwrap()))
            .collect();
        assert_eq!(
            begins,
            [(2_000, "read"), (3_000, "read"), (3_600, "running")]
        );
        assert_eq!(events[2].arg("ret"), Some(&Value::Int(-11)));
        assert_eq!(events[2].flows_out, [7]);
        assert_eq!(events[4].arg("waker_tid"), Some(&Value::Uint(100)));
        assert_eq!(events[4].flows_in, [7]);
        let last = events.last().unwrap();
        assert_eq!((last.kind, last.counter), (EventKind::Counter, Some(0)));
    }

    #[test]
    fn a_cut_trace_says_where() {
        let data = sample_trace();
        let (whole, _) = count_packets(&data);
        for len in 0..data.len() {
            let (packets, err) = read_all(&data[..len]);
            let (n, cut) = count_packets(&data[..len]);
            assert_eq!(packets.len() as u64, n, "{len}");
            match (err, cut) {
                (None, None) => {}
                (Some(ReadError::Truncated { at, packets }), Some(c)) => {
                    assert_eq!((at, packets), (c as u64, n), "{len}");
                }
                (e, c) => panic!("cut at {len}: {e:?} {c:?}"),
            }
            assert!(n <= whole);
        }
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let (p, e) = read_all(b"root:x:0:0:root:/root:/bin/bash\n");
        assert!(p.is_empty());
        let e = e.unwrap();
        assert!(e.to_string().starts_with("not a Perfetto trace"), "{e}");
        // every byte flipped in turn: an error or a packet, never a panic
        let data = sample_trace();
        for i in 0..data.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut d = data.clone();
                d[i] ^= x;
                let _ = read_all(&d);
            }
        }
    }
}
