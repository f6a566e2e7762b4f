#!/usr/bin/env python3
"""Rewrites a genba recording of format 3 as format 2 wrote it, for the
tests that hold genba's readers to reading both: each off-CPU slice (a
slice with a `class` argument) named by its class tag and its call
(`[B] read`), or `[S] runnable`, or its tag alone when it blocked in no call,
without the `syscall` argument; the settings' `format` 2. Everything else is
kept as it is. Uses Perfetto's official protobuf bindings (the `perfetto`
PyPI package).

usage: recording_as_format2.py IN OUT
"""
import sys

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb


def fail(msg):
    print(f"recording_as_format2: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: recording_as_format2.py IN OUT")
    trace = pb.Trace()
    trace.ParseFromString(open(sys.argv[1], "rb").read())
    arg_names, values = {}, {}
    settings, renamed = False, 0
    for p in trace.packet:
        d = p.interned_data
        if p.sequence_flags & pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED:
            arg_names.clear()
            values.clear()
        for n in d.debug_annotation_names:
            arg_names[n.iid] = n.name
        for n in d.debug_annotation_string_values:
            values[n.iid] = n.str.decode()
        if not p.HasField("track_event"):
            continue
        e = p.track_event

        def args():
            for a in e.debug_annotations:
                name = arg_names[a.name_iid] if a.HasField("name_iid") else a.name
                which = a.WhichOneof("value")
                if which == "string_value_iid":
                    yield name, a, values[a.string_value_iid]
                else:
                    yield name, a, getattr(a, which) if which else None

        got = {n: v for n, _, v in args()}
        if e.type == pb.TrackEvent.TYPE_INSTANT and "format" in got and "command" in got:
            for n, a, _ in args():
                if n == "format":
                    a.uint_value = 2
            settings = True
            continue
        if e.type != pb.TrackEvent.TYPE_SLICE_BEGIN or "class" not in got:
            continue
        cls, call = got["class"], got.get("syscall")
        if cls == "[S]":
            name = "[S] runnable"
        elif call is not None:
            name = f"{cls} {call}"
        else:
            name = cls
        keep = []
        for n, a, _ in args():
            if n != "syscall":
                keep.append(pb.DebugAnnotation())
                keep[-1].CopyFrom(a)
        del e.debug_annotations[:]
        e.debug_annotations.extend(keep)
        e.ClearField("name_iid")
        e.name = name
        renamed += 1
    if not settings:
        fail("no settings with a format in the recording")
    open(sys.argv[2], "wb").write(trace.SerializeToString())
    print(renamed)


if __name__ == "__main__":
    main()
