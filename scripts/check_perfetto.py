#!/usr/bin/env python3
"""Checks a Perfetto trace written by genba with Perfetto's official protobuf
bindings (the `perfetto` PyPI package): it must parse, and be used as the
format intends.

Checked: the sequence's first packet clears the incremental state and
later packets that need it say so; every interned id is defined on the
sequence before it is used; each thread track names its pid and tid under
its process's track; slices on a track are balanced and properly nested
once sorted by time; every flow starts once and ends once; timestamps are on
CLOCK_MONOTONIC; each wakeup flow goes from a `wakeup` instant on the
waker's thread track (its `wakee_tid` the woken thread) to a slice on the
woken thread's track (its `waker_tid` the waker); from the recording's
format 3 (its `settings`), every off-CPU slice (one with a `class`) is named
by its class alone, one name a class (the UI colours a slice by its name),
its call a `syscall` argument. Prints a JSON summary on
success (tracks, slices by name, flows) for the caller to check against
what it expects; exits 1 with the first problem otherwise.

usage: check_perfetto.py TRACE [--truncated]
  --truncated: the file may end inside a packet (a recording cut short),
    and what was under way where it ends may stay open: slices that never
    end (listed as "open"), flows that begin and do not end
"""
import json
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb


def fail(msg):
    print(f"check_perfetto: {msg}", file=sys.stderr)
    sys.exit(1)


def read_packets(data, truncated):
    """Trace.packet fields one by one; a cut last packet is allowed only
    with --truncated (and then dropped, as a reader must)."""
    packets, at = [], 0
    from google.protobuf.internal.decoder import _DecodeVarint
    while at < len(data):
        try:
            key, p = _DecodeVarint(data, at)
            if key != (1 << 3) | 2:
                fail(f"offset {at}: not a Trace.packet field (key {key})")
            size, p = _DecodeVarint(data, p)
        except IndexError:
            if truncated:
                break
            fail(f"offset {at}: cut inside a packet header")
        if p + size > len(data):
            if truncated:
                break
            fail(f"offset {at}: packet of {size} bytes cut short")
        packet = pb.TracePacket()
        packet.ParseFromString(data[p:p + size])
        packets.append(packet)
        at = p + size
    return packets


def main():
    path = sys.argv[1]
    truncated = "--truncated" in sys.argv[2:]
    data = open(path, "rb").read()
    if not truncated:
        # the whole file must also parse as one Trace message
        trace = pb.Trace()
        trace.ParseFromString(data)
    packets = read_packets(data, truncated)
    if not packets:
        fail("no packets")
    first = packets[0]
    if not first.sequence_flags & pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
        fail("the first packet does not clear the incremental state")
    clocks = {c.clock_id: c for c in first.clock_snapshot.clocks}
    if pb.BUILTIN_CLOCK_MONOTONIC not in clocks or pb.BUILTIN_CLOCK_BOOTTIME not in clocks:
        fail(f"clock snapshot lacks MONOTONIC or BOOTTIME: {set(clocks)}")
    # timestamps are on CLOCK_MONOTONIC: by default as deltas on a sequence
    # clock (64..127) that is incremental and starts at MONOTONIC's value,
    # or absolute on MONOTONIC where a packet says so
    default_clock = first.trace_packet_defaults.timestamp_clock_id
    incremental = {}
    if default_clock != pb.BUILTIN_CLOCK_MONOTONIC:
        c = clocks.get(default_clock)
        if c is None or not c.is_incremental or not 64 <= default_clock <= 127:
            fail(f"the default clock {default_clock} is neither MONOTONIC nor a snapshot's incremental clock")
        if c.timestamp != clocks[pb.BUILTIN_CLOCK_MONOTONIC].timestamp:
            fail("the incremental clock does not start at CLOCK_MONOTONIC's value")
        incremental[default_clock] = c.timestamp
    # the track of events that name none
    default_track = None
    if first.trace_packet_defaults.HasField("track_event_defaults"):
        default_track = first.trace_packet_defaults.track_event_defaults.track_uuid

    def time_of(i, p):
        """packet p's time on CLOCK_MONOTONIC (None: it has none)"""
        if not p.HasField("timestamp"):
            return None
        cid = p.timestamp_clock_id if p.HasField("timestamp_clock_id") else default_clock
        if cid == pb.BUILTIN_CLOCK_MONOTONIC:
            return p.timestamp
        if cid not in incremental:
            fail(f"packet {i}: a timestamp on clock {cid}")
        incremental[cid] += p.timestamp
        return incremental[cid]

    seq = first.trusted_packet_sequence_id
    names, arg_names = {}, {}
    # stacks: strings by kind, mappings, frames, callstacks
    strings = {"function_names": {}, "mapping_paths": {}, "source_paths": {}, "build_ids": {},
               "debug_annotation_string_values": {}}
    mappings, frames, callstacks = {}, {}, {}
    samples = []
    tracks = {}
    events = []
    for i, p in enumerate(packets):
        if p.trusted_packet_sequence_id != seq:
            fail(f"packet {i}: another sequence")
        ts = time_of(i, p) if i > 0 else p.timestamp
        if i == 0 and p.timestamp_clock_id not in (0, pb.BUILTIN_CLOCK_MONOTONIC):
            fail("the first packet's time is not on CLOCK_MONOTONIC")
        for n in p.interned_data.event_names:
            if n.iid in names:
                fail(f"packet {i}: event name iid {n.iid} defined twice")
            names[n.iid] = n.name
        for n in p.interned_data.debug_annotation_names:
            if n.iid in arg_names:
                fail(f"packet {i}: annotation name iid {n.iid} defined twice")
            arg_names[n.iid] = n.name
        d = p.interned_data
        for kind, table in strings.items():
            for n in getattr(d, kind):
                if n.iid in table:
                    fail(f"packet {i}: {kind} iid {n.iid} defined twice")
                table[n.iid] = n.str
        for m in d.mappings:
            if m.iid in mappings:
                fail(f"packet {i}: mapping {m.iid} defined twice")
            if m.build_id and m.build_id not in strings["build_ids"]:
                fail(f"packet {i}: mapping {m.iid} uses build id {m.build_id} before it is defined")
            for s in m.path_string_ids:
                if s not in strings["mapping_paths"]:
                    fail(f"packet {i}: mapping {m.iid} uses path {s} before it is defined")
            mappings[m.iid] = m
        for f in d.frames:
            if f.iid in frames:
                fail(f"packet {i}: frame {f.iid} defined twice")
            if f.mapping_id not in mappings:
                fail(f"packet {i}: frame {f.iid} uses mapping {f.mapping_id} before it is defined")
            if f.function_name_id and f.function_name_id not in strings["function_names"]:
                fail(f"packet {i}: frame {f.iid} uses an undefined function name")
            if f.source_path_iid and f.source_path_iid not in strings["source_paths"]:
                fail(f"packet {i}: frame {f.iid} uses an undefined source path")
            frames[f.iid] = f
        for c in d.callstacks:
            if c.iid in callstacks:
                fail(f"packet {i}: callstack {c.iid} defined twice")
            for f in c.frame_ids:
                if f not in frames:
                    fail(f"packet {i}: callstack {c.iid} uses frame {f} before it is defined")
            callstacks[c.iid] = list(c.frame_ids)
        if p.HasField("perf_sample"):
            s = p.perf_sample
            if not p.sequence_flags & pb.TracePacket.SEQ_NEEDS_INCREMENTAL_STATE:
                fail(f"packet {i}: a sample without SEQ_NEEDS_INCREMENTAL_STATE")
            if s.callstack_iid not in callstacks:
                fail(f"packet {i}: sample uses callstack {s.callstack_iid} before it is defined")
            fr = [frames[f] for f in callstacks[s.callstack_iid]]
            samples.append({"ts": ts, "pid": s.pid, "tid": s.tid,
                            "kernel": s.cpu_mode == pb.Profiling.MODE_KERNEL,
                            "functions": [strings["function_names"].get(f.function_name_id, b"").decode()
                                          for f in fr]})
        if p.HasField("track_descriptor"):
            d = p.track_descriptor
            tracks[d.uuid] = d
        if p.HasField("track_event"):
            e = p.track_event
            if not e.HasField("track_uuid"):
                if default_track is None:
                    fail(f"packet {i}: an event on no track")
                e.track_uuid = default_track
            if not p.sequence_flags & pb.TracePacket.SEQ_NEEDS_INCREMENTAL_STATE:
                fail(f"packet {i}: an event without SEQ_NEEDS_INCREMENTAL_STATE")
            if e.track_uuid not in tracks:
                fail(f"packet {i}: event on undescribed track {e.track_uuid}")
            name = None
            if e.HasField("name_iid"):
                if e.name_iid not in names:
                    fail(f"packet {i}: name iid {e.name_iid} used before it is defined")
                name = names[e.name_iid]
            elif e.HasField("name"):
                name = e.name
            args = {}
            for a in e.debug_annotations:
                if a.name_iid not in arg_names:
                    fail(f"packet {i}: annotation iid {a.name_iid} used before it is defined")
                which = a.WhichOneof("value")
                if which == "string_value_iid":
                    values = strings["debug_annotation_string_values"]
                    if a.string_value_iid not in values:
                        fail(f"packet {i}: string value {a.string_value_iid} used before it is defined")
                    args[arg_names[a.name_iid]] = values[a.string_value_iid].decode()
                elif a.array_values:
                    args[arg_names[a.name_iid]] = [x.uint_value for x in a.array_values]
                else:
                    args[arg_names[a.name_iid]] = getattr(a, which) if which else None
            if e.callstack_iid and e.callstack_iid not in callstacks:
                fail(f"packet {i}: event uses callstack {e.callstack_iid} before it is defined")
            if e.callstack_iid:
                args["callstack"] = [strings["function_names"].get(frames[f].function_name_id, b"").decode()
                                     for f in callstacks[e.callstack_iid]]
            events.append((ts, i, e, name, args))

    for uuid, d in tracks.items():
        if d.HasField("thread"):
            parent = tracks.get(d.parent_uuid)
            if parent is None or parent.process.pid != d.thread.pid:
                fail(f"thread track {d.thread.tid}: not under its process {d.thread.pid}")

    # slices per track, sorted as the trace processor sorts a sequence: by
    # time, and in file order at equal times
    def order(ev):
        ts, i, _, _, _ = ev
        return (ts, i)

    def tid_of(uuid):
        d = tracks[uuid]
        return d.thread.tid if d.HasField("thread") else None

    stacks, slices, flows_out, flows_in = {}, [], {}, {}
    # each flow's ends: (the track's tid, the event's name, its args)
    flow_src, flow_dst = {}, {}
    for ts, i, e, name, args in sorted(events, key=order):
        st = stacks.setdefault(e.track_uuid, [])
        for f in e.flow_ids:
            flow_src[f] = (tid_of(e.track_uuid), name, args)
        for f in e.terminating_flow_ids:
            flow_dst[f] = (tid_of(e.track_uuid), name, args)
        if e.type == pb.TrackEvent.TYPE_SLICE_BEGIN:
            st.append((ts, name, args, list(e.flow_ids), list(e.terminating_flow_ids)))
        elif e.type == pb.TrackEvent.TYPE_SLICE_END:
            if not st:
                fail(f"packet {i}: a slice end without a begin on track {e.track_uuid}")
            begin, bname, bargs, fout, fin = st.pop()
            d = tracks[e.track_uuid]
            slices.append({"name": bname, "ts": begin, "dur": ts - begin,
                           "tid": d.thread.tid if d.HasField("thread") else None,
                           "track": None if d.HasField("thread") else d.name,
                           "depth": len(st), "args": bargs, "flows_out": fout, "flows_in": fin})
        for f in e.flow_ids:
            flows_out[f] = flows_out.get(f, 0) + 1
        for f in e.terminating_flow_ids:
            flows_in[f] = flows_in.get(f, 0) + 1
    open_slices = []
    for uuid, st in stacks.items():
        if st and not truncated:
            fail(f"track {uuid}: {len(st)} slices never end")
        d = tracks[uuid]
        for begin, bname, bargs, _, _ in st:
            open_slices.append({"name": bname, "ts": begin, "tid": tid_of(uuid), "args": bargs,
                                "track": None if d.HasField("thread") else d.name})
    wakeups = 0
    for f in set(flows_out) | set(flows_in):
        # a GPU call's flow (the top bit) to a command that never completed
        # is left open, and so is any flow where a cut recording ends;
        # every other flow has one start and one end
        if (f >= 1 << 63 or truncated) and flows_out.get(f) == 1 and f not in flows_in:
            continue
        if flows_out.get(f) != 1 or flows_in.get(f) != 1:
            fail(f"flow {f}: begins {flows_out.get(f, 0)} times, ends {flows_in.get(f, 0)} times")
        if f >= 1 << 63:
            continue
        # a wakeup: from the waker's track to the woken thread's
        (src_tid, src_name, src_args), (dst_tid, dst_name, dst_args) = flow_src[f], flow_dst[f]
        if src_name != "wakeup":
            fail(f"flow {f}: begins at {src_name!r}, not a wakeup instant")
        if src_tid is None or dst_tid is None:
            fail(f"flow {f}: an end not on a thread's track")
        if src_args.get("wakee_tid") != dst_tid:
            fail(f"flow {f}: the wakeup on thread {src_tid} names wakee {src_args.get('wakee_tid')}, "
                 f"its flow ends on thread {dst_tid} ({dst_name})")
        if dst_args.get("waker_tid") != src_tid:
            fail(f"flow {f}: {dst_name!r} on thread {dst_tid} names waker {dst_args.get('waker_tid')}, "
                 f"its flow begins on thread {src_tid}")
        wakeups += 1

    # off-CPU slices: named by their class, one name (one colour) a class
    fmt = next((a.get("format") for _, _, _, n, a in events if n == "settings"), None)
    offcpu_names = {}
    for s in slices + open_slices:
        args = s.get("args", {})
        if "class" not in args:
            continue
        offcpu_names.setdefault(args["class"], set()).add(s["name"])
        if fmt is not None and fmt >= 3:
            if not s["name"].startswith(args["class"] + " "):
                fail(f"off-CPU slice {s['name']!r} not named by its class {args['class']}")
            call = args.get("syscall")
            if call is not None and (not isinstance(call, str) or s["name"] == f"{args['class']} {call}"):
                fail(f"off-CPU slice {s['name']!r}: its call {call!r} is not an argument alone")
    if fmt is not None and fmt >= 3:
        for c, n in offcpu_names.items():
            if len(n) > 1:
                fail(f"class {c}: off-CPU slices named {sorted(n)}, not one name")
    threads = sorted([d.thread.pid, d.thread.tid, d.thread.thread_name]
                     for d in tracks.values() if d.HasField("thread"))
    described = {(t[0], t[1]) for t in threads}
    for s in samples:
        if (s["pid"], s["tid"]) not in described:
            fail(f"a sample of thread {s['tid']} (process {s['pid']}) that has no track")
    print(json.dumps({"packets": len(packets), "threads": threads,
                      "slices": slices, "flows": len(flows_out), "samples": samples,
                      "open": open_slices, "wakeups_checked": wakeups, "format": fmt,
                      "offcpu_names": {c: sorted(n) for c, n in offcpu_names.items()}}))


if __name__ == "__main__":
    main()
