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
use rustc_hash::FxHashMap;

/// `BUILTIN_CLOCK_MONOTONIC`: genba's clock.
pub const CLOCK_MONOTONIC: u32 = 3;
const CLOCK_REALTIME: u32 = 1;
const CLOCK_BOOTTIME: u32 = 6;
/// The sequence's own incremental clock (ids 64-127 are a sequence's):
/// CLOCK_MONOTONIC in ns, each packet's timestamp a delta from the last
/// packet's on it, as the Perfetto SDK writes track events. A packet
/// earlier than the last one (events of threads do not reach genba in
/// time order) says CLOCK_MONOTONIC and its absolute time instead.
const CLOCK_INCREMENTAL: u32 = 64;
const SEQ_INCREMENTAL_STATE_CLEARED: u32 = 1;
const SEQ_NEEDS_INCREMENTAL_STATE: u32 = 2;
/// The one sequence genba writes.
const SEQUENCE_ID: u32 = 1;

const TYPE_SLICE_BEGIN: i32 = 1;
const TYPE_SLICE_END: i32 = 2;
const TYPE_INSTANT: i32 = 3;
const TYPE_COUNTER: i32 = 4;

/// The uuid spaces of genba's tracks: the low two bits say which, the
/// rest is the pid, the tid or a number (small uuids are short varints,
/// and every event carries one).
const PROCESS_TRACK: u64 = 1;
const THREAD_TRACK: u64 = 2;
const COUNTER_TRACK: u64 = 3;

fn track_uuid(space: u64, n: u64) -> u64 {
    n << 2 | space
}

/// Text argument values are interned up to this many bytes of them in a
/// recording (then new ones are written inline): the writer's memory and
/// any reader's stay bounded.
const MAX_VALUE_BYTES: usize = 32 << 20;
/// Text values shorter than this are written inline: an iid is not
/// shorter.
const MIN_INTERNED_VALUE: usize = 4;
/// Packets are collected and written out in pieces of about this size.
const OUT_CHUNK: usize = 64 << 10;

#[derive(Clone, PartialEq, Message)]
struct TracePacket {
    #[prost(uint64, optional, tag = "8")]
    timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "10")]
    trusted_packet_sequence_id: Option<u32>,
    #[prost(uint32, optional, tag = "58")]
    timestamp_clock_id: Option<u32>,
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
    #[prost(message, optional, tag = "66")]
    perf_sample: Option<PerfSample>,
}

/// A sample of a thread's stack (the Perfetto UI draws these as the CPU
/// profile of a process, with a flame graph).
#[derive(Clone, PartialEq, Message)]
struct PerfSample {
    #[prost(uint32, optional, tag = "1")]
    cpu: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pid: Option<u32>,
    #[prost(uint32, optional, tag = "3")]
    tid: Option<u32>,
    #[prost(uint64, optional, tag = "4")]
    callstack_iid: Option<u64>,
    /// Profiling.CpuMode: 1 kernel, 2 user.
    #[prost(int32, optional, tag = "5")]
    cpu_mode: Option<i32>,
}

#[derive(Clone, PartialEq, Message)]
struct Mapping {
    #[prost(uint64, optional, tag = "1")]
    iid: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    build_id: Option<u64>,
    #[prost(uint64, repeated, packed = "true", tag = "7")]
    path_string_ids: Vec<u64>,
}

#[derive(Clone, PartialEq, Message)]
struct ProtoFrame {
    #[prost(uint64, optional, tag = "1")]
    iid: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    function_name_id: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    mapping_id: Option<u64>,
    #[prost(uint64, optional, tag = "4")]
    rel_pc: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    source_path_iid: Option<u64>,
    #[prost(uint32, optional, tag = "6")]
    line_number: Option<u32>,
}

#[derive(Clone, PartialEq, Message)]
struct Callstack {
    #[prost(uint64, optional, tag = "1")]
    iid: Option<u64>,
    #[prost(uint64, repeated, packed = "true", tag = "2")]
    frame_ids: Vec<u64>,
}

/// Perfetto's InternedString: bytes (a name, a path, a raw build-id).
#[derive(Clone, PartialEq, Message)]
struct InternedBytes {
    #[prost(uint64, optional, tag = "1")]
    iid: Option<u64>,
    #[prost(bytes = "vec", optional, tag = "2")]
    str: Option<Vec<u8>>,
}

#[derive(Clone, PartialEq, Message)]
struct TracePacketDefaults {
    #[prost(uint32, optional, tag = "58")]
    timestamp_clock_id: Option<u32>,
    #[prost(message, optional, tag = "11")]
    track_event_defaults: Option<TrackEventDefaults>,
}

/// The track a track event is on when it names none.
#[derive(Clone, PartialEq, Message)]
struct TrackEventDefaults {
    #[prost(uint64, optional, tag = "11")]
    track_uuid: Option<u64>,
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
    #[prost(bool, optional, tag = "3")]
    is_incremental: Option<bool>,
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
    #[prost(uint64, optional, tag = "56")]
    callstack_iid: Option<u64>,
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
    #[prost(uint64, optional, tag = "17")]
    string_value_iid: Option<u64>,
    #[prost(message, repeated, tag = "12")]
    array_values: Vec<DebugAnnotation>,
}

#[derive(Clone, PartialEq, Message)]
struct InternedData {
    #[prost(message, repeated, tag = "2")]
    event_names: Vec<InternedString>,
    #[prost(message, repeated, tag = "3")]
    debug_annotation_names: Vec<InternedString>,
    #[prost(message, repeated, tag = "5")]
    function_names: Vec<InternedBytes>,
    #[prost(message, repeated, tag = "6")]
    frames: Vec<ProtoFrame>,
    #[prost(message, repeated, tag = "7")]
    callstacks: Vec<Callstack>,
    #[prost(message, repeated, tag = "16")]
    build_ids: Vec<InternedBytes>,
    #[prost(message, repeated, tag = "17")]
    mapping_paths: Vec<InternedBytes>,
    #[prost(message, repeated, tag = "18")]
    source_paths: Vec<InternedBytes>,
    #[prost(message, repeated, tag = "19")]
    mappings: Vec<Mapping>,
    #[prost(message, repeated, tag = "29")]
    debug_annotation_string_values: Vec<InternedBytes>,
}

impl InternedData {
    fn is_empty(&self) -> bool {
        self.event_names.is_empty()
            && self.debug_annotation_names.is_empty()
            && self.function_names.is_empty()
            && self.frames.is_empty()
            && self.callstacks.is_empty()
            && self.build_ids.is_empty()
            && self.mapping_paths.is_empty()
            && self.source_paths.is_empty()
            && self.mappings.is_empty()
            && self.debug_annotation_string_values.is_empty()
    }

    fn append(&mut self, mut o: InternedData) {
        self.event_names.append(&mut o.event_names);
        self.debug_annotation_names
            .append(&mut o.debug_annotation_names);
        self.function_names.append(&mut o.function_names);
        self.frames.append(&mut o.frames);
        self.callstacks.append(&mut o.callstacks);
        self.build_ids.append(&mut o.build_ids);
        self.mapping_paths.append(&mut o.mapping_paths);
        self.source_paths.append(&mut o.source_paths);
        self.mappings.append(&mut o.mappings);
        self.debug_annotation_string_values
            .append(&mut o.debug_annotation_string_values);
    }
}

/// One frame of a stack, as the recording keeps it: where the code is
/// (the mapped file, its build-id, the offset in the file) and what the
/// symbolizer said of it then (function, source line), so the recording
/// reports the same lines after the binary is rebuilt.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StackFrame {
    /// The mapped file (`/usr/lib/x86_64-linux-gnu/libc.so.6`, `[kernel]`).
    pub module: String,
    /// The file's GNU build-id, raw bytes.
    pub build_id: Vec<u8>,
    /// The offset of the address in the file (kernel: the address).
    pub rel_pc: u64,
    /// The function, when a symbol covers the address.
    pub function: Option<String>,
    /// The source file, when debug information says.
    pub file: Option<String>,
    /// The line in `file`.
    pub line: Option<u32>,
}

/// Interning tables of stacks: each string, mapping, frame and stack is
/// written once and referred to by number after.
#[derive(Default)]
struct StackTables {
    function_names: FxHashMap<String, u64>,
    paths: FxHashMap<String, u64>,
    source_paths: FxHashMap<String, u64>,
    build_ids: FxHashMap<Vec<u8>, u64>,
    mappings: FxHashMap<(u64, u64), u64>,
    frames: FxHashMap<(u64, u64, u64, u64, u32), u64>,
    callstacks: FxHashMap<Vec<u64>, u64>,
}

fn intern_bytes(table: &mut FxHashMap<String, u64>, s: &str, new: &mut Vec<InternedBytes>) -> u64 {
    intern_as(table, s, new, |iid, s| InternedBytes {
        iid: Some(iid),
        str: Some(s.as_bytes().to_vec()),
    })
}

impl StackTables {
    /// The callstack's iid (frames outermost first), new entries added to
    /// `new`.
    fn callstack(&mut self, frames: &[StackFrame], new: &mut InternedData) -> u64 {
        let mut ids = Vec::with_capacity(frames.len());
        for f in frames {
            let path = intern_bytes(&mut self.paths, &f.module, &mut new.mapping_paths);
            let build = if f.build_id.is_empty() {
                0
            } else if let Some(&b) = self.build_ids.get(&f.build_id) {
                b
            } else {
                let b = self.build_ids.len() as u64 + 1;
                self.build_ids.insert(f.build_id.clone(), b);
                new.build_ids.push(InternedBytes {
                    iid: Some(b),
                    str: Some(f.build_id.clone()),
                });
                b
            };
            let n = self.mappings.len() as u64 + 1;
            let mapping = *self.mappings.entry((path, build)).or_insert_with(|| {
                new.mappings.push(Mapping {
                    iid: Some(n),
                    build_id: (build != 0).then_some(build),
                    path_string_ids: vec![path],
                });
                n
            });
            let func = f.function.as_deref().map_or(0, |n| {
                intern_bytes(&mut self.function_names, n, &mut new.function_names)
            });
            let src = f.file.as_deref().map_or(0, |n| {
                intern_bytes(&mut self.source_paths, n, &mut new.source_paths)
            });
            let line = f.line.unwrap_or(0);
            let n = self.frames.len() as u64 + 1;
            let id = *self
                .frames
                .entry((mapping, f.rel_pc, func, src, line))
                .or_insert_with(|| {
                    new.frames.push(ProtoFrame {
                        iid: Some(n),
                        function_name_id: (func != 0).then_some(func),
                        mapping_id: Some(mapping),
                        rel_pc: Some(f.rel_pc),
                        source_path_iid: (src != 0).then_some(src),
                        line_number: (line != 0).then_some(line),
                    });
                    n
                });
            ids.push(id);
        }
        if let Some(&c) = self.callstacks.get(&ids) {
            return c;
        }
        let c = self.callstacks.len() as u64 + 1;
        new.callstacks.push(Callstack {
            iid: Some(c),
            frame_ids: ids.clone(),
        });
        self.callstacks.insert(ids, c);
        c
    }
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
    /// Unsigned numbers (a call's raw arguments), as an array.
    Uints(&'a [u64]),
}

/// A named argument.
pub type Arg<'a> = (&'a str, ArgValue<'a>);

/// A track: a process, a thread or a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Track(u64);

/// The track of thread `tid`, once [`PerfettoWriter::thread`] described it.
pub fn thread_track(tid: u32) -> Track {
    Track(track_uuid(THREAD_TRACK, tid.into()))
}

/// Text argument values interned (a repeated call's line, a call site),
/// in a table bounded by [`MAX_VALUE_BYTES`].
#[derive(Default)]
struct Values {
    /// The value's hash: its iid.
    ids: FxHashMap<u64, u64>,
    /// The interned values, by iid - 1 (to tell a hash collision).
    texts: Vec<Box<str>>,
    bytes: usize,
}

impl Values {
    /// The iid of `s` (None: write it inline), new entries added to `new`.
    fn get(&mut self, s: &str, new: &mut Vec<InternedBytes>) -> Option<u64> {
        use std::hash::{BuildHasher, BuildHasherDefault};
        if s.len() < MIN_INTERNED_VALUE {
            return None;
        }
        let h = BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(s);
        if let Some(&iid) = self.ids.get(&h) {
            return (&*self.texts[iid as usize - 1] == s).then_some(iid);
        }
        if self.bytes + s.len() > MAX_VALUE_BYTES {
            return None;
        }
        self.bytes += s.len();
        self.texts.push(s.into());
        let iid = self.texts.len() as u64;
        self.ids.insert(h, iid);
        new.push(InternedBytes {
            iid: Some(iid),
            str: Some(s.as_bytes().to_vec()),
        });
        Some(iid)
    }
}

/// Appends `v` as a protobuf varint.
#[inline]
fn put_varint(buf: &mut Vec<u8>, mut v: u64) {
    // byte by byte: most are one byte, and a copy of a few bytes of
    // unknown length would be a call to memcpy
    while v >= 0x80 {
        buf.push(v as u8 | 0x80);
        v >>= 7;
    }
    buf.push(v as u8);
}

/// The length of `v` as a varint.
#[inline]
fn varint_len(v: u64) -> usize {
    (64 - (v | 1).leading_zeros()).div_ceil(7) as usize
}

/// A field key: field number and wire type (0 varint, 1 fixed64, 2 length
/// delimited).
#[inline]
fn put_key(buf: &mut Vec<u8>, field: u64, wire: u64) {
    put_varint(buf, field << 3 | wire);
}

/// Writes a Perfetto trace, packet by packet.
pub struct PerfettoWriter<W: Write> {
    out: W,
    event_names: FxHashMap<String, u64>,
    arg_names: FxHashMap<String, u64>,
    stacks: StackTables,
    values: Values,
    /// Interned entries not written yet: they go with the next packet.
    pending: InternedData,
    counters: u64,
    packets: u64,
    bytes: u64,
    buf: Vec<u8>,
    /// Scratch space of [`PerfettoWriter::event`]: the event, its interned
    /// data.
    ev_buf: Vec<u8>,
    pk_buf: Vec<u8>,
    /// The incremental clock's value: the last timestamp written on it.
    clock_at: u64,
    /// The sequence's first packet, until it is written: it goes first in
    /// the file, once the track its events are on by default is known.
    header: Option<ClockReadings>,
    /// The track of events that name none: the first process's main
    /// thread (most events of most recordings are on it).
    default_track: Option<u64>,
}

/// An event name interned once by [`PerfettoWriter::name_id`], for a
/// writer of many events of few names (a system call's slice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameId(u64);

/// An argument name interned once by [`PerfettoWriter::arg_id`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgId(u64);

/// A track event to write, its names interned.
struct Event<'a> {
    ts: u64,
    track: Track,
    kind: i32,
    name: Option<u64>,
    args: &'a [(u64, ArgValue<'a>)],
    flow_out: &'a [u64],
    flow_in: &'a [u64],
    callstack: Option<u64>,
    counter: Option<i64>,
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
    /// Starts a trace on the clocks read together at its start (its first
    /// packet is written with the first process or thread described, or
    /// the first flush: see `write_header`).
    pub fn new(out: W, clocks: ClockReadings) -> io::Result<Self> {
        let w = PerfettoWriter {
            out,
            event_names: FxHashMap::default(),
            arg_names: FxHashMap::default(),
            stacks: StackTables::default(),
            values: Values::default(),
            pending: InternedData::default(),
            counters: 0,
            packets: 0,
            bytes: 0,
            buf: Vec::with_capacity(OUT_CHUNK + 4096),
            ev_buf: Vec::with_capacity(256),
            pk_buf: Vec::with_capacity(256),
            clock_at: clocks.monotonic,
            header: Some(clocks),
            default_track: None,
        };
        Ok(w)
    }

    /// Puts the sequence's first packet at the front of the file, if it
    /// is not there yet: incremental state cleared, the clock snapshot,
    /// the defaults (timestamps as deltas on the sequence's incremental
    /// clock, `track` the track of events that name none). Packets made
    /// before it are still in the buffer, behind it.
    fn write_header(&mut self, track: Option<u64>) -> io::Result<()> {
        let Some(clocks) = self.header.take() else {
            return Ok(());
        };
        self.default_track = track;
        // its own time is absolute: the incremental clock starts from the
        // snapshot's value
        let p = TracePacket {
            timestamp: Some(clocks.monotonic),
            timestamp_clock_id: Some(CLOCK_MONOTONIC),
            trusted_packet_sequence_id: Some(SEQUENCE_ID),
            sequence_flags: Some(SEQ_INCREMENTAL_STATE_CLEARED),
            first_packet_on_sequence: Some(true),
            trace_packet_defaults: Some(TracePacketDefaults {
                timestamp_clock_id: Some(CLOCK_INCREMENTAL),
                track_event_defaults: track.map(|t| TrackEventDefaults {
                    track_uuid: Some(t),
                }),
            }),
            clock_snapshot: Some(ClockSnapshot {
                clocks: vec![
                    clock(CLOCK_MONOTONIC, clocks.monotonic),
                    clock(CLOCK_BOOTTIME, clocks.boottime),
                    clock(CLOCK_REALTIME, clocks.realtime),
                    Clock {
                        clock_id: Some(CLOCK_INCREMENTAL),
                        timestamp: Some(clocks.monotonic),
                        is_incremental: Some(true),
                    },
                ],
                primary_trace_clock: Some(CLOCK_BOOTTIME as i32),
            }),
            ..Default::default()
        };
        let mut h = Vec::with_capacity(128);
        put_key(&mut h, 1, 2);
        p.encode_length_delimited(&mut h)
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.packets += 1;
        self.bytes += h.len() as u64;
        self.buf.splice(0..0, h);
        Ok(())
    }

    /// Makes thread `tid`'s track the default of track events (unless the
    /// sequence's first packet is written already: then nothing changes).
    pub fn default_thread(&mut self, tid: u32) -> io::Result<()> {
        self.write_header(Some(track_uuid(THREAD_TRACK, tid.into())))
    }

    /// Packets and bytes written so far.
    pub fn written(&self) -> (u64, u64) {
        (self.packets, self.bytes)
    }

    /// The track of process `pid`, described now.
    pub fn process(&mut self, pid: u32, name: &str) -> io::Result<Track> {
        self.write_header(Some(track_uuid(THREAD_TRACK, pid.into())))?;
        let uuid = track_uuid(PROCESS_TRACK, pid.into());
        self.describe(TrackDescriptor {
            uuid: Some(uuid),
            process: Some(ProcessDescriptor {
                pid: Some(pid as i32),
                process_name: Some(name.to_string()),
            }),
            ..Default::default()
        })
    }

    /// The track of thread `tid` of process `pid`, described now (again
    /// when it is renamed: the last description wins).
    pub fn thread(&mut self, pid: u32, tid: u32, name: &str) -> io::Result<Track> {
        self.write_header(Some(track_uuid(THREAD_TRACK, tid.into())))?;
        let uuid = track_uuid(THREAD_TRACK, tid.into());
        self.describe(TrackDescriptor {
            uuid: Some(uuid),
            parent_uuid: Some(track_uuid(PROCESS_TRACK, pid.into())),
            thread: Some(ThreadDescriptor {
                pid: Some(pid as i32),
                tid: Some(tid as i32),
                thread_name: Some(name.to_string()),
            }),
            ..Default::default()
        })
    }

    /// A global track named `name` (what the recording is: its settings).
    pub fn named_track(&mut self, name: &str) -> io::Result<Track> {
        self.counters += 1;
        let uuid = track_uuid(COUNTER_TRACK, self.counters);
        self.describe(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name.to_string()),
            ..Default::default()
        })
    }

    /// A track of slices named `name` under process `pid` (a GPU queue).
    pub fn process_track(&mut self, name: &str, pid: u32) -> io::Result<Track> {
        self.counters += 1;
        let uuid = track_uuid(COUNTER_TRACK, self.counters);
        self.describe(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name.to_string()),
            parent_uuid: Some(track_uuid(PROCESS_TRACK, pid.into())),
            ..Default::default()
        })
    }

    /// A counter track named `name` (under process `pid`, or global).
    pub fn counter_track(&mut self, name: &str, unit: &str, pid: Option<u32>) -> io::Result<Track> {
        self.counters += 1;
        let uuid = track_uuid(COUNTER_TRACK, self.counters);
        self.describe(TrackDescriptor {
            uuid: Some(uuid),
            name: Some(name.to_string()),
            parent_uuid: pid.map(|p| track_uuid(PROCESS_TRACK, p.into())),
            counter: Some(CounterDescriptor {
                unit_name: Some(unit.to_string()),
            }),
            ..Default::default()
        })
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
        self.slice_with_stack(track, ts, dur, name, args, flow_out, flow_in, None)
    }

    /// A stack interned for the slices and samples that follow
    /// ([`PerfettoWriter::slice_with_stack`], [`PerfettoWriter::sample`]):
    /// frames outermost first. Its new entries go with the next packet.
    pub fn callstack(&mut self, frames: &[StackFrame]) -> u64 {
        let mut new = InternedData::default();
        let iid = self.stacks.callstack(frames, &mut new);
        self.pending.append(new);
        iid
    }

    /// A slice with the stack it happened at (an off-CPU interval's).
    #[allow(clippy::too_many_arguments)]
    pub fn slice_with_stack(
        &mut self,
        track: Track,
        ts: u64,
        dur: u64,
        name: &str,
        args: &[Arg<'_>],
        flow_out: &[u64],
        flow_in: &[u64],
        callstack: Option<u64>,
    ) -> io::Result<()> {
        let name = self.name_id(name);
        self.with_arg_ids(args, |w, args| {
            w.event(Event {
                ts,
                track,
                kind: TYPE_SLICE_BEGIN,
                name: Some(name.0),
                args,
                flow_out,
                flow_in,
                callstack,
                counter: None,
            })
        })?;
        self.end_slice(track, ts + dur)
    }

    /// A slice of a name and argument names interned once (the fast path
    /// of a writer of many slices of few names: a system call's).
    pub fn slice_by_ids(
        &mut self,
        track: Track,
        ts: u64,
        dur: u64,
        name: NameId,
        args: &[(ArgId, ArgValue<'_>)],
    ) -> io::Result<()> {
        let mut ids = [(0, ArgValue::Uint(0)); 8];
        debug_assert!(
            args.len() <= ids.len(),
            "slice_by_ids takes at most 8 arguments"
        );
        let n = args.len().min(ids.len());
        for (d, (a, v)) in ids.iter_mut().zip(args) {
            *d = (a.0, *v);
        }
        self.event(Event {
            ts,
            track,
            kind: TYPE_SLICE_BEGIN,
            name: Some(name.0),
            args: &ids[..n],
            flow_out: &[],
            flow_in: &[],
            callstack: None,
            counter: None,
        })?;
        self.end_slice(track, ts + dur)
    }

    /// The end of the slice open on `track`, at `ts`.
    fn end_slice(&mut self, track: Track, ts: u64) -> io::Result<()> {
        self.event(Event {
            ts,
            track,
            kind: TYPE_SLICE_END,
            name: None,
            args: &[],
            flow_out: &[],
            flow_in: &[],
            callstack: None,
            counter: None,
        })
    }

    /// The interned id of event name `name` (its entry goes with the next
    /// packet).
    pub fn name_id(&mut self, name: &str) -> NameId {
        NameId(intern(
            &mut self.event_names,
            name,
            &mut self.pending.event_names,
        ))
    }

    /// The interned id of argument name `name`.
    pub fn arg_id(&mut self, name: &str) -> ArgId {
        ArgId(intern(
            &mut self.arg_names,
            name,
            &mut self.pending.debug_annotation_names,
        ))
    }

    /// Calls `f` with `args` as (interned name, value) pairs.
    fn with_arg_ids(
        &mut self,
        args: &[Arg<'_>],
        f: impl FnOnce(&mut Self, &[(u64, ArgValue<'_>)]) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut ids = [(0, ArgValue::Uint(0)); 8];
        if args.len() <= ids.len() {
            for (d, (n, v)) in ids.iter_mut().zip(args) {
                *d = (self.arg_id(n).0, *v);
            }
            f(self, &ids[..args.len()])
        } else {
            let ids: Vec<_> = args.iter().map(|(n, v)| (self.arg_id(n).0, *v)).collect();
            f(self, &ids)
        }
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
        let name = self.name_id(name);
        self.with_arg_ids(args, |w, args| {
            w.event(Event {
                ts,
                track,
                kind: TYPE_INSTANT,
                name: Some(name.0),
                args,
                flow_out,
                flow_in: &[],
                callstack: None,
                counter: None,
            })
        })
    }

    /// A sample of thread `tid` running (on `cpu`) at `ts` (`kernel`: in the
    /// kernel), its stack interned by [`PerfettoWriter::callstack`].
    pub fn sample(
        &mut self,
        ts: u64,
        cpu: Option<u32>,
        pid: u32,
        tid: u32,
        kernel: bool,
        callstack: u64,
    ) -> io::Result<()> {
        let interned = std::mem::take(&mut self.pending);
        self.packet(TracePacket {
            timestamp: Some(ts),
            perf_sample: Some(PerfSample {
                cpu,
                pid: Some(pid),
                tid: Some(tid),
                callstack_iid: Some(callstack),
                cpu_mode: Some(if kernel { 1 } else { 2 }),
            }),
            interned_data: (!interned.is_empty()).then_some(interned),
            sequence_flags: Some(SEQ_NEEDS_INCREMENTAL_STATE),
            ..Default::default()
        })
    }

    /// A counter's value from `ts` on.
    pub fn counter(&mut self, track: Track, ts: u64, value: i64) -> io::Result<()> {
        self.event(Event {
            ts,
            track,
            kind: TYPE_COUNTER,
            name: None,
            args: &[],
            flow_out: &[],
            flow_in: &[],
            callstack: None,
            counter: Some(value),
        })
    }

    /// Writes a track's descriptor: the track.
    fn describe(&mut self, d: TrackDescriptor) -> io::Result<Track> {
        let uuid = d.uuid.unwrap_or(0);
        self.packet(TracePacket {
            track_descriptor: Some(d),
            ..Default::default()
        })?;
        Ok(Track(uuid))
    }

    /// Writes out the packets collected and what the underlying writer
    /// buffers.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_header(None)?;
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }

    /// Flushes the writer and hands it back.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        Ok(self.out)
    }

    /// A packet was appended to `buf` from `start`: counts it, and writes
    /// the collected packets out once there are enough of them (whole
    /// packets only).
    fn appended(&mut self, start: usize) -> io::Result<()> {
        self.packets += 1;
        self.bytes += (self.buf.len() - start) as u64;
        if self.buf.len() >= OUT_CHUNK {
            self.write_header(None)?;
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes a track event's packet, encoded straight into the buffer
    /// (this runs twice per system call: no message is built): its name,
    /// argument names and repeated text values interned, new strings (and
    /// interned entries pending, as a new stack's) in the same packet.
    fn event(&mut self, e: Event<'_>) -> io::Result<()> {
        let ev = &mut self.ev_buf;
        ev.clear();
        put_key(ev, 9, 0);
        put_varint(ev, e.kind as u64);
        if self.default_track != Some(e.track.0) {
            put_key(ev, 11, 0);
            put_varint(ev, e.track.0);
        }
        if let Some(iid) = e.name {
            put_key(ev, 10, 0);
            put_varint(ev, iid);
        }
        for &(name, ref v) in e.args {
            // DebugAnnotation: name_iid, then the value
            let value_len = match *v {
                ArgValue::Str(s) => {
                    match self
                        .values
                        .get(s, &mut self.pending.debug_annotation_string_values)
                    {
                        Some(iid) => {
                            let len = 1 + varint_len(name) + 2 + varint_len(iid);
                            put_key(ev, 4, 2);
                            put_varint(ev, len as u64);
                            put_key(ev, 1, 0);
                            put_varint(ev, name);
                            put_key(ev, 17, 0);
                            put_varint(ev, iid);
                            continue;
                        }
                        None => 1 + varint_len(s.len() as u64) + s.len(),
                    }
                }
                ArgValue::Int(i) => 1 + varint_len(i as u64),
                ArgValue::Uint(u) => 1 + varint_len(u),
                // array_values: each a DebugAnnotation of one uint_value
                ArgValue::Uints(us) => us.iter().map(|&u| 3 + varint_len(u)).sum(),
            };
            put_key(ev, 4, 2);
            put_varint(ev, (1 + varint_len(name) + value_len) as u64);
            put_key(ev, 1, 0);
            put_varint(ev, name);
            match *v {
                ArgValue::Str(s) => {
                    put_key(ev, 6, 2);
                    put_varint(ev, s.len() as u64);
                    ev.extend_from_slice(s.as_bytes());
                }
                ArgValue::Int(i) => {
                    put_key(ev, 4, 0);
                    put_varint(ev, i as u64);
                }
                ArgValue::Uint(u) => {
                    put_key(ev, 3, 0);
                    put_varint(ev, u);
                }
                ArgValue::Uints(us) => {
                    for &u in us {
                        put_key(ev, 12, 2);
                        put_varint(ev, 1 + varint_len(u) as u64);
                        put_key(ev, 3, 0);
                        put_varint(ev, u);
                    }
                }
            }
        }
        if let Some(v) = e.counter {
            put_key(ev, 30, 0);
            put_varint(ev, v as u64);
        }
        for (tag, ids) in [(47, e.flow_out), (48, e.flow_in)] {
            for id in ids {
                put_key(ev, tag, 1);
                ev.extend_from_slice(&id.to_le_bytes());
            }
        }
        if let Some(c) = e.callstack {
            put_key(ev, 56, 0);
            put_varint(ev, c);
        }
        let (ts, absolute) = self.stamp(e.ts);
        let ib = &mut self.pk_buf;
        ib.clear();
        if !self.pending.is_empty() {
            self.pending
                .encode(ib)
                .map_err(|e| io::Error::other(e.to_string()))?;
            self.pending = InternedData::default();
        }
        // the packet's length, then its fields in the order written
        let ev_len = self.ev_buf.len() as u64;
        let mut len = 1 + varint_len(ts) + 1 + varint_len(ev_len) + ev_len as usize;
        if absolute {
            len += 2 + 1;
        }
        if !ib.is_empty() {
            len += 1 + varint_len(ib.len() as u64) + ib.len();
        }
        len += 2 + 2;
        let start = self.buf.len();
        let b = &mut self.buf;
        put_key(b, 1, 2);
        put_varint(b, len as u64);
        put_key(b, 8, 0);
        put_varint(b, ts);
        if absolute {
            put_key(b, 58, 0);
            put_varint(b, u64::from(CLOCK_MONOTONIC));
        }
        put_key(b, 11, 2);
        put_varint(b, ev_len);
        b.extend_from_slice(&self.ev_buf);
        if !ib.is_empty() {
            put_key(b, 12, 2);
            put_varint(b, ib.len() as u64);
            b.extend_from_slice(ib);
        }
        put_key(b, 13, 0);
        put_varint(b, u64::from(SEQ_NEEDS_INCREMENTAL_STATE));
        put_key(b, 10, 0);
        put_varint(b, u64::from(SEQUENCE_ID));
        debug_assert_eq!(b.len() - start, len + 1 + varint_len(len as u64));
        self.appended(start)
    }

    /// Time `ts` as the next packet writes it: a delta on the incremental
    /// clock, or (true) absolute on CLOCK_MONOTONIC when it is earlier
    /// than the last one written.
    #[inline]
    fn stamp(&mut self, ts: u64) -> (u64, bool) {
        match ts.checked_sub(self.clock_at) {
            Some(d) => {
                self.clock_at = ts;
                (d, false)
            }
            None => (ts, true),
        }
    }

    /// Writes one packet as field 1 of `Trace`, whole.
    fn packet(&mut self, mut p: TracePacket) -> io::Result<()> {
        p.trusted_packet_sequence_id = Some(SEQUENCE_ID);
        if p.timestamp_clock_id.is_none() {
            if let Some(ts) = p.timestamp {
                let (t, absolute) = self.stamp(ts);
                p.timestamp = Some(t);
                p.timestamp_clock_id = absolute.then_some(CLOCK_MONOTONIC);
            }
        }
        let start = self.buf.len();
        // Trace.packet (field 1, length-delimited): the key, then the length
        put_key(&mut self.buf, 1, 2);
        p.encode_length_delimited(&mut self.buf)
            .map_err(|e| io::Error::other(e.to_string()))?;
        self.appended(start)
    }
}

fn clock(id: u32, ts: u64) -> Clock {
    Clock {
        clock_id: Some(id),
        timestamp: Some(ts),
        is_incremental: None,
    }
}

/// The interned id of `s` (from 1), adding it to `new` the first time.
fn intern(table: &mut FxHashMap<String, u64>, s: &str, new: &mut Vec<InternedString>) -> u64 {
    intern_as(table, s, new, |iid, s| InternedString {
        iid: Some(iid),
        name: Some(s.to_string()),
    })
}

/// [`intern`] for any of Perfetto's interned-string messages (`make`
/// builds the entry written the first time).
fn intern_as<T>(
    table: &mut FxHashMap<String, u64>,
    s: &str,
    new: &mut Vec<T>,
    make: impl Fn(u64, &str) -> T,
) -> u64 {
    if let Some(&iid) = table.get(s) {
        return iid;
    }
    let iid = table.len() as u64 + 1;
    table.insert(s.to_string(), iid);
    new.push(make(iid, s));
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
    /// Unsigned numbers (an array of them).
    Uints(Vec<u64>),
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
    /// The stack it happened at (see [`PerfettoReader::frames`]).
    pub callstack: Option<u64>,
}

/// A stack sample, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadSample {
    /// When.
    pub ts: u64,
    /// The CPU it ran on.
    pub cpu: u32,
    /// Its process.
    pub pid: u32,
    /// Its thread.
    pub tid: u32,
    /// It was in the kernel.
    pub kernel: bool,
    /// Its stack (see [`PerfettoReader::frames`]).
    pub callstack: u64,
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
    /// A stack sample.
    Sample(ReadSample),
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
    strings: HashMap<(u8, u64), Vec<u8>>,
    mappings: HashMap<u64, (u64, u64)>,
    frames: HashMap<u64, ProtoFrame>,
    callstacks: HashMap<u64, Vec<u64>>,
    buf: Vec<u8>,
    /// The sequence's default clock and track (TracePacketDefaults).
    default_clock: Option<u32>,
    default_track: Option<u64>,
    /// The sequence's incremental clocks and their values.
    incremental: Vec<(u32, u64)>,
}

/// The kinds of interned strings a stack refers to.
const FUNCTION: u8 = 0;
const PATH: u8 = 1;
const SOURCE: u8 = 2;
const BUILD_ID: u8 = 3;
const VALUE: u8 = 4;

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
            strings: HashMap::new(),
            mappings: HashMap::new(),
            frames: HashMap::new(),
            callstacks: HashMap::new(),
            buf: Vec::new(),
            default_clock: None,
            default_track: None,
            incremental: Vec::new(),
        }
    }

    /// Packet `p`'s time on CLOCK_MONOTONIC (genba writes its events on
    /// it, as deltas on an incremental clock when they come in order).
    fn time_of(&mut self, p: &TracePacket) -> Result<Option<u64>, String> {
        let Some(t) = p.timestamp else {
            return Ok(None);
        };
        let clock = p
            .timestamp_clock_id
            .or(self.default_clock)
            .unwrap_or(CLOCK_MONOTONIC);
        if clock == CLOCK_MONOTONIC {
            return Ok(Some(t));
        }
        match self.incremental.iter_mut().find(|(id, _)| *id == clock) {
            Some((_, at)) => {
                *at = at
                    .checked_add(t)
                    .ok_or("a timestamp past the clock's end")?;
                Ok(Some(*at))
            }
            None => Err(format!(
                "a timestamp on clock {clock}, which no snapshot defines"
            )),
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

    /// The frames of interned stack `callstack`, outermost first (None: a
    /// stack the trace never interned).
    pub fn frames(&self, callstack: u64) -> Option<Vec<StackFrame>> {
        let text = |kind, iid: Option<u64>| {
            iid.and_then(|i| self.strings.get(&(kind, i)))
                .map(|b| String::from_utf8_lossy(b).into_owned())
        };
        let ids = self.callstacks.get(&callstack)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let f = self.frames.get(id)?;
            let (path, build) = f
                .mapping_id
                .and_then(|m| self.mappings.get(&m))
                .copied()
                .unwrap_or((0, 0));
            out.push(StackFrame {
                module: text(PATH, Some(path)).unwrap_or_default(),
                build_id: self
                    .strings
                    .get(&(BUILD_ID, build))
                    .cloned()
                    .unwrap_or_default(),
                rel_pc: f.rel_pc.unwrap_or(0),
                function: text(FUNCTION, f.function_name_id),
                file: text(SOURCE, f.source_path_iid),
                line: f.line_number,
            });
        }
        Some(out)
    }

    fn interpret(&mut self, p: TracePacket) -> Result<Packet, String> {
        if let Some(d) = &p.trace_packet_defaults {
            self.default_clock = d.timestamp_clock_id;
            self.default_track = d.track_event_defaults.as_ref().and_then(|t| t.track_uuid);
        }
        if let Some(c) = &p.clock_snapshot {
            for k in &c.clocks {
                if let (Some(id), Some(at), Some(true)) =
                    (k.clock_id, k.timestamp, k.is_incremental)
                {
                    self.incremental.retain(|(i, _)| *i != id);
                    self.incremental.push((id, at));
                }
            }
        }
        let time = self.time_of(&p)?;
        if p.sequence_flags.unwrap_or(0) & SEQ_INCREMENTAL_STATE_CLEARED != 0 {
            self.event_names.clear();
            self.arg_names.clear();
            self.strings.clear();
            self.mappings.clear();
            self.frames.clear();
            self.callstacks.clear();
        }
        if let Some(d) = p.interned_data {
            for (kind, list) in [
                (FUNCTION, d.function_names),
                (PATH, d.mapping_paths),
                (SOURCE, d.source_paths),
                (BUILD_ID, d.build_ids),
                (VALUE, d.debug_annotation_string_values),
            ] {
                for s in list {
                    let iid = s.iid.ok_or("an interned string without an iid")?;
                    self.strings.insert((kind, iid), s.str.unwrap_or_default());
                }
            }
            for m in d.mappings {
                let iid = m.iid.ok_or("an interned mapping without an iid")?;
                let path = m.path_string_ids.first().copied().unwrap_or(0);
                self.mappings.insert(iid, (path, m.build_id.unwrap_or(0)));
            }
            for f in d.frames {
                let iid = f.iid.ok_or("an interned frame without an iid")?;
                self.frames.insert(iid, f);
            }
            for c in d.callstacks {
                let iid = c.iid.ok_or("an interned callstack without an iid")?;
                if let Some(bad) = c.frame_ids.iter().find(|f| !self.frames.contains_key(f)) {
                    return Err(format!(
                        "callstack {iid} uses frame {bad} before it is interned"
                    ));
                }
                self.callstacks.insert(iid, c.frame_ids);
            }
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
        if let Some(s) = p.perf_sample {
            let callstack = s.callstack_iid.ok_or("a sample without a stack")?;
            if !self.callstacks.contains_key(&callstack) {
                return Err(format!(
                    "sample uses stack {callstack} before it is interned"
                ));
            }
            return Ok(Packet::Sample(ReadSample {
                ts: time.ok_or("a sample without a timestamp")?,
                cpu: s.cpu.unwrap_or(0),
                pid: s.pid.unwrap_or(0),
                tid: s.tid.unwrap_or(0),
                kernel: s.cpu_mode == Some(1),
                callstack,
            }));
        }
        let Some(ev) = p.track_event else {
            return Ok(Packet::Other);
        };
        let ts = time.ok_or("a track event without a timestamp")?;
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
            } else if let Some(iid) = a.string_value_iid {
                let s = self
                    .strings
                    .get(&(VALUE, iid))
                    .ok_or_else(|| format!("string value {iid} used before it is interned"))?;
                Value::Str(String::from_utf8_lossy(s).into_owned())
            } else if let Some(i) = a.int_value {
                Value::Int(i)
            } else if let Some(u) = a.uint_value {
                Value::Uint(u)
            } else if !a.array_values.is_empty() {
                Value::Uints(
                    a.array_values
                        .iter()
                        .map(|x| x.uint_value.unwrap_or(0))
                        .collect(),
                )
            } else {
                Value::Unknown
            };
            args.push((n, v));
        }
        Ok(Packet::Event(ReadEvent {
            ts,
            track: ev
                .track_uuid
                .or(self.default_track)
                .ok_or("a track event without a track")?,
            kind,
            name,
            args,
            counter: ev.counter_value,
            flows_out: ev.flow_ids,
            flows_in: ev.terminating_flow_ids,
            callstack: ev.callstack_iid,
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
    fn repeated_values_are_written_once_and_read_back_each_time() {
        let clocks = ClockReadings {
            monotonic: 1_000,
            realtime: 2_000,
            boottime: 3_000,
        };
        let mut w = PerfettoWriter::new(Vec::new(), clocks).unwrap();
        let t = w.thread(7, 7, "t").unwrap();
        let name = w.name_id("getppid");
        let call = w.arg_id("call");
        let texts = ["getppid() = 42", "getppid() = 43", "ab"];
        for i in 0..30u64 {
            let text = texts[i as usize % 3];
            w.slice_by_ids(t, 2_000 + i * 10, 5, name, &[(call, ArgValue::Str(text))])
                .unwrap();
        }
        let data = w.finish().unwrap();
        let raw = String::from_utf8_lossy(&data);
        assert_eq!(raw.matches("getppid() = 42").count(), 1);
        assert_eq!(raw.matches("getppid() = 43").count(), 1);
        // too short to be worth an iid: inline every time
        assert_eq!(raw.matches("ab").count(), 10);
        let (packets, err) = read_all(&data);
        assert!(err.is_none());
        let got: Vec<String> = packets
            .iter()
            .filter_map(|p| match p {
                Packet::Event(e) => match e.arg("call") {
                    Some(Value::Str(s)) => Some(s.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let want: Vec<String> = (0..30).map(|i| texts[i % 3].to_string()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn number_arrays_read_back() {
        let clocks = ClockReadings {
            monotonic: 1,
            realtime: 2,
            boottime: 3,
        };
        let mut w = PerfettoWriter::new(Vec::new(), clocks).unwrap();
        let t = w.thread(7, 7, "t").unwrap();
        let raw = [3, 0x7ffd_1234_5678, 0, u64::MAX];
        w.slice(
            t,
            10,
            5,
            "read",
            &[("args", ArgValue::Uints(&raw))],
            &[],
            &[],
        )
        .unwrap();
        let data = w.finish().unwrap();
        let (packets, err) = read_all(&data);
        assert!(err.is_none());
        let got = packets.iter().find_map(|p| match p {
            Packet::Event(e) => e.arg("args").cloned(),
            _ => None,
        });
        assert_eq!(got, Some(Value::Uints(raw.to_vec())));
    }

    #[test]
    fn varints_are_as_long_as_they_say() {
        for v in [0, 1, 127, 128, 16_383, 16_384, u32::MAX as u64, u64::MAX] {
            let mut b = Vec::new();
            put_varint(&mut b, v);
            assert_eq!(b.len(), varint_len(v), "{v}");
            let mut mine = Vec::new();
            prost::encoding::encode_varint(v, &mut mine);
            assert_eq!(b, mine, "{v}");
        }
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
