//! perf_event's ioctls whose argument is a structure or a string:
//! PERF_EVENT_IOC_SET_FILTER (the filter string, copied in capture slot 7:
//! second_level.rs), PERF_EVENT_IOC_QUERY_BPF (`struct
//! perf_event_query_bpf` and its ids) and PERF_EVENT_IOC_MODIFY_ATTRIBUTES
//! (`struct perf_event_attr`, as perf_event_open shows it), as strace 6.1
//! prints them. A child module of `ioctl`.

use std::fmt::Write;

use super::super::{perf, second_level, ArgWriter, Capture, CaptureItem};
use super::u32at;
use crate::fmt;

pub(super) const SET_FILTER: u32 = 0x4008_2406;
pub(super) const QUERY_BPF: u32 = 0xc008_240a;
pub(super) const MODIFY_ATTRIBUTES: u32 = 0x4008_240b;
/// QUERY_BPF's copy: the header and the ids strace shows by default.
const QUERY_BPF_COPY: u32 = 8 + 4 * 33;

/// The argument copies' sizes (a copy that runs into unmapped memory keeps
/// what lies before it).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    vec![
        (QUERY_BPF, QUERY_BPF_COPY),
        (MODIFY_ATTRIBUTES, perf::ATTR_MAX as u32),
    ]
}

/// The copy of the argument made at entry, or at exit.
fn copy<'a>(w: &ArgWriter<'a>, at_exit: bool) -> Option<&'a Capture> {
    let caps = if at_exit {
        w.call.exit?.1
    } else {
        w.call.enter
    };
    caps.iter()
        .find(|c| c.arg == 2 && c.item == CaptureItem::Data)
}

/// PERF_EVENT_IOC_SET_FILTER: the filter, a string.
pub(super) fn set_filter(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let v = call.args[2];
    w.sep();
    let c = second_level::copied(&call, second_level::SLOT_B, false, v);
    super::super::string(&mut w.s, c, v, w.opts, false);
}

/// PERF_EVENT_IOC_QUERY_BPF: ids_len at entry; prog_cnt and the ids at
/// exit, as far as they could be read (`...` when the call failed).
pub(super) fn query_bpf(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    w.sep();
    let Some(d) = copy(w, false)
        .or_else(|| copy(w, true))
        .map(|c| c.data.clone())
        .filter(|d| v != 0 && d.len() >= 4)
    else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let ids_len = u32at(&d, 0);
    let _ = write!(w.s, "{{ids_len={ids_len}");
    if !w.exiting_inside() {
        return;
    }
    let failed = w.call.ret().is_none_or(|r| r < 0);
    let out = copy(w, true).filter(|c| c.data.len() >= 8);
    let Some(out) = out.filter(|_| !failed) else {
        w.s.push_str(", ...}");
        return;
    };
    let e = &out.data;
    let cnt = u32at(e, 4);
    let _ = write!(w.s, ", prog_cnt={cnt}, ids=");
    let n = cnt.min(ids_len) as usize;
    let at = v + 8;
    // the ids read (the copy holds those before unreadable memory)
    let have = (e.len() - 8) / 4;
    if n == 0 {
        w.s.push_str("[]");
    } else if have == 0 {
        fmt::ptr(&mut w.s, at);
    } else {
        w.s.push('[');
        for k in 0..n {
            if k > 0 {
                w.s.push_str(", ");
            }
            if !w.opts.verbose && k >= w.opts.strsize {
                w.s.push_str("...");
                break;
            }
            if k >= have {
                w.s.push_str("... /* ");
                fmt::ptr(&mut w.s, at + 4 * k as u64);
                w.s.push_str(" */");
                break;
            }
            let _ = write!(w.s, "{}", u32at(e, 8 + 4 * k));
        }
        w.s.push(']');
    }
    w.s.push('}');
}

/// PERF_EVENT_IOC_MODIFY_ATTRIBUTES: the new attributes.
pub(super) fn modify_attributes(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    w.sep();
    let d = copy(w, false)
        .or_else(|| copy(w, true))
        .map(|c| c.data.clone());
    match perf::fetch(d.as_deref(), v, w.opts.verbose) {
        Some((attr, size)) => perf::attr_text(&mut w.s, &attr, size, None, w.opts),
        None => fmt::ptr(&mut w.s, v),
    }
}
