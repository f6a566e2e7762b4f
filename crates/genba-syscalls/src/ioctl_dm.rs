//! The device mapper's requests (a child module of `ioctl`: see
//! [`super::decode`] and [`super::How`]): struct dm_ioctl and the payload
//! after it (target specs, a target message, a string; at exit the
//! dependencies, the device list, the target versions), as strace 6.1
//! prints them (its dm.c).
//!
//! BPF copies the argument as far as [`DM_COPY`] bytes, or when memory ends
//! before, up to the end of its page: the header and the payload that
//! `data_start` and `data_size` place after it.

use std::fmt::Write;

use super::super::{ArgWriter, Capture, CaptureItem};
use super::{u32at, u64at, How};
use crate::fmt::{self, HexStr, Xlat};

/// `_IOWR(0xfd, nr, struct dm_ioctl)`: the requests differ in nr only.
const DM_BASE: u32 = 0xc138_fd00;
const VERSION: u32 = 0;
const REMOVE_ALL: u32 = 1;
const LIST_DEVICES: u32 = 2;
const DEV_CREATE: u32 = 3;
const DEV_REMOVE: u32 = 4;
const DEV_RENAME: u32 = 5;
const DEV_SUSPEND: u32 = 6;
const DEV_STATUS: u32 = 7;
const DEV_WAIT: u32 = 8;
const TABLE_LOAD: u32 = 9;
const TABLE_CLEAR: u32 = 10;
const TABLE_DEPS: u32 = 11;
const TABLE_STATUS: u32 = 12;
const LIST_VERSIONS: u32 = 13;
const TARGET_MSG: u32 = 14;
const DEV_SET_GEOMETRY: u32 = 15;
const DEV_ARM_POLL: u32 = 16;

/// offsetof(struct dm_ioctl, data): what must be readable.
const HEAD: usize = 305;
/// How much of the argument BPF copies: the header and its payload (as
/// far as the ioctl copy goes: decode's IOC_MAX).
const DM_COPY: u32 = 1216;
/// struct dm_target_spec.
const TARGET_SPEC: u32 = 40;
const DM_VERSION_MAJOR: u64 = 4;
const DM_SUSPEND_FLAG: u64 = 1 << 1;
const DM_DATA_OUT_FLAG: u64 = 1 << 16;

static DM_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "DM_READONLY_FLAG"),
    (1 << 1, "DM_SUSPEND_FLAG"),
    (1 << 2, "DM_EXISTS_FLAG"),
    (1 << 3, "DM_PERSISTENT_DEV_FLAG"),
    (1 << 4, "DM_STATUS_TABLE_FLAG"),
    (1 << 5, "DM_ACTIVE_PRESENT_FLAG"),
    (1 << 6, "DM_INACTIVE_PRESENT_FLAG"),
    (1 << 8, "DM_BUFFER_FULL_FLAG"),
    (1 << 9, "DM_SKIP_BDGET_FLAG"),
    (1 << 10, "DM_SKIP_LOCKFS_FLAG"),
    (1 << 11, "DM_NOFLUSH_FLAG"),
    (1 << 12, "DM_QUERY_INACTIVE_TABLE_FLAG"),
    (1 << 13, "DM_UEVENT_GENERATED_FLAG"),
    (1 << 14, "DM_UUID_FLAG"),
    (1 << 15, "DM_SECURE_DATA_FLAG"),
    (1 << 16, "DM_DATA_OUT_FLAG"),
    (1 << 17, "DM_DEFERRED_REMOVE"),
    (1 << 18, "DM_INTERNAL_SUSPEND_FLAG"),
    (1 << 19, "DM_IMA_MEASUREMENT_FLAG"),
];

/// The requests strace decodes (DM_GET_TARGET_VERSION it only names).
pub(super) fn how(req: u32) -> Option<How> {
    (req & !0xff == DM_BASE && req & 0xff <= DEV_ARM_POLL).then_some(How::Custom(dm))
}

/// The copy of each request's argument (see the module's doc).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    (0..=DEV_ARM_POLL)
        .map(|nr| (DM_BASE | nr, DM_COPY))
        .collect()
}

/// The argument's copy in `caps`, even when memory ended before its end.
fn copy(caps: &[Capture]) -> Option<Vec<u8>> {
    caps.iter()
        .find(|c| c.arg == 2 && c.item == CaptureItem::Data)
        .map(|c| c.data.clone())
}

/// The argument's memory, as far as it was readable.
struct Mem {
    d: Vec<u8>,
    addr: u64,
}

impl Mem {
    fn u32(&self, off: usize) -> u64 {
        u32at(&self.d, off)
    }

    fn get(&self, off: u64, len: u64) -> Option<&[u8]> {
        let end = off.checked_add(len)?;
        self.d.get(off as usize..usize::try_from(end).ok()?)
    }

    fn usable(&self) -> bool {
        self.d.len() >= HEAD && self.u32(12) >= 12
    }
}

/// The text at `off`, as strace's `printstr_ex(addr + off, len,
/// QUOTE_0_TERMINATED)` with -s `max`: None when unreadable (the address
/// printed), else the string's length + 1 when a NUL ended it, or 0.
fn string(s: &mut String, m: &Mem, off: u64, len: u64, max: usize) -> Option<usize> {
    let size = (max as u64 + 1).min(len);
    if size == 0 {
        s.push_str("\"\"");
        return Some(0);
    }
    let avail = m.d.len() as u64;
    let start = off.min(avail) as usize;
    let end = off.saturating_add(size).min(avail) as usize;
    let have = m.d.get(start..end).unwrap_or(&[]);
    let nul = have.iter().position(|&b| b == 0);
    if nul.is_none() && (off.saturating_add(size) > avail) {
        fmt::ptr(s, m.addr.wrapping_add(off));
        return None;
    }
    match nul {
        Some(n) => {
            fmt::quoted(s, &have[..n.min(max)], n > max, HexStr::None);
            Some(n + 1)
        }
        None => {
            let shown = &have[..have.len().min(max)];
            fmt::quoted(s, shown, len > 0, HexStr::None);
            Some(0)
        }
    }
}

/// A char array holding a C string, as strace's PRINT_FIELD_CSTRING.
fn cstring(s: &mut String, b: &[u8]) {
    match b.iter().position(|&c| c == 0) {
        Some(n) => fmt::quoted(s, &b[..n], false, HexStr::None),
        None => fmt::quoted(s, &b[..b.len() - 1], true, HexStr::None),
    }
}

struct Ctx {
    nr: u32,
    x: Xlat,
    verbose: bool,
    max: usize,
    exiting: bool,
}

fn dm(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    let cx = Ctx {
        nr: w.call.args[1] as u32 & 0xff,
        x: w.opts.xlat,
        verbose: w.opts.verbose,
        max: w.opts.strsize,
        exiting: false,
    };
    let read = w.env.read_mem;
    let live = |d: Option<Vec<u8>>| -> Option<Vec<u8>> {
        // a copy that the page's end cut inside the header: the live
        // process, as far as readable
        match d {
            Some(d) if d.len() >= HEAD => Some(d),
            _ => read
                .filter(|_| v != 0)
                .and_then(|r| r(v, DM_COPY as usize))
                .filter(|d| d.len() >= HEAD),
        }
    };
    let entry = copy(w.call.enter).or_else(|| w.call.exit.and_then(|(_, c)| copy(c)));
    let entry = live(entry).map(|d| Mem { d, addr: v });
    w.sep();
    let Some(m) = entry.filter(Mem::usable) else {
        fmt::hex(&mut w.s, v);
        return;
    };
    w.s.push('[');
    if header(&mut w.s, &cx, &m, false) {
        payload(&mut w.s, &cx, &m);
    }
    w.s.push(']');
    if !w.exiting_inside() {
        return;
    }
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let Some(x) = w.call.exit.and_then(|(_, c)| copy(c)) else {
        return;
    };
    let x = Mem { d: x, addr: v };
    if !x.usable() {
        return;
    }
    // what the header said that the kernel changed
    let changed = [0, 4, 8, 12, 16, 28].iter().any(|&o| x.u32(o) != m.u32(o));
    if failed && !changed {
        return;
    }
    let cx = Ctx {
        exiting: true,
        ..cx
    };
    w.s.push_str(" => [");
    if header(&mut w.s, &cx, &x, failed) && !failed {
        payload(&mut w.s, &cx, &x);
    }
    w.s.push(']');
}

/// struct dm_ioctl's fields; false when the version or the size leave the
/// rest undecodable.
fn header(s: &mut String, cx: &Ctx, m: &Mem, failed: bool) -> bool {
    let _ = write!(s, "{{version=[{}, {}, {}]", m.u32(0), m.u32(4), m.u32(8));
    if m.u32(0) != DM_VERSION_MAJOR {
        s.push_str(" /* unsupported device mapper ABI version */}");
        return false;
    }
    let data_size = m.u32(12);
    let _ = write!(s, ", data_size={data_size}");
    if data_size < HEAD as u64 {
        s.push_str(" /* data_size too small */}");
        return false;
    }
    let nr = cx.nr;
    let params = !matches!(
        nr,
        VERSION
            | REMOVE_ALL
            | DEV_CREATE
            | DEV_REMOVE
            | DEV_SUSPEND
            | DEV_STATUS
            | TABLE_CLEAR
            | DEV_ARM_POLL
    );
    if params {
        let _ = write!(s, ", data_start={}", m.u32(16));
    }
    if !matches!(nr, REMOVE_ALL | LIST_DEVICES | LIST_VERSIONS) {
        let dev = u64at(&m.d, 40);
        if dev != 0 {
            s.push_str(", dev=");
            super::super::xdev(s, dev, cx.x);
        }
        if m.d[48] != 0 {
            s.push_str(", name=");
            cstring(s, &m.d[48..176]);
        }
        if m.d[176] != 0 {
            s.push_str(", uuid=");
            cstring(s, &m.d[176..305]);
        }
    }
    let flags = m.u32(28);
    if !cx.exiting {
        match nr {
            TABLE_LOAD => {
                let _ = write!(s, ", target_count={}", m.u32(20));
            }
            DEV_SUSPEND if flags & DM_SUSPEND_FLAG != 0 => {}
            DEV_SUSPEND | DEV_RENAME | DEV_REMOVE | DEV_WAIT => {
                let _ = write!(s, ", event_nr={}", m.u32(32));
            }
            _ => {}
        }
    } else if !failed
        && matches!(
            nr,
            DEV_CREATE
                | DEV_RENAME
                | DEV_SUSPEND
                | DEV_STATUS
                | DEV_WAIT
                | TABLE_LOAD
                | TABLE_CLEAR
                | TABLE_DEPS
                | TABLE_STATUS
                | TARGET_MSG
        )
    {
        let _ = write!(
            s,
            ", target_count={}, open_count={}, event_nr={}",
            m.u32(20),
            m.u32(24) as u32 as i32,
            m.u32(32)
        );
    }
    s.push_str(", flags=");
    fmt::flags_default(s, flags, DM_FLAGS, "DM_???", cx.x);
    s.push('}');
    true
}

fn payload(s: &mut String, cx: &Ctx, m: &Mem) {
    match (cx.nr, cx.exiting) {
        (DEV_WAIT | TABLE_STATUS, true) | (TABLE_LOAD, false) => target_specs(s, cx, m),
        (TABLE_DEPS, true) => target_deps(s, cx, m),
        (LIST_DEVICES, true) => name_list(s, cx, m),
        (LIST_VERSIONS, true) => target_versions(s, cx, m),
        (TARGET_MSG, false) => target_msg(s, cx, m),
        (TARGET_MSG, true) if m.u32(28) & DM_DATA_OUT_FLAG != 0 => dm_string(s, cx, m),
        (DEV_RENAME | DEV_SET_GEOMETRY, false) => dm_string(s, cx, m),
        _ => {}
    }
}

fn misplaced(s: &mut String, what: &str) {
    let _ = write!(s, "??? /* misplaced {what} */");
}

fn target_specs(s: &mut String, cx: &Ctx, m: &Mem) {
    let (data_size, data_start, count) = (m.u32(12) as u32, m.u32(16) as u32, m.u32(20));
    if !cx.verbose {
        if count != 0 {
            s.push_str(", ...");
        }
        return;
    }
    let mut offset = data_start;
    let mut offset_end = 0u32;
    for i in 0..count {
        s.push_str(", ");
        if i > 0 && offset <= offset_end {
            return misplaced(s, "struct dm_target_spec");
        }
        offset_end = offset.wrapping_add(TARGET_SPEC);
        if offset_end <= offset || offset_end > data_size {
            return misplaced(s, "struct dm_target_spec");
        }
        if i >= cx.max as u64 {
            s.push_str("...");
            break;
        }
        let Some(t) = m.get(offset as u64, TARGET_SPEC as u64) else {
            fmt::ptr(s, m.addr.wrapping_add(offset as u64));
            break;
        };
        let _ = write!(s, "{{sector_start={}, length={}", u64at(t, 0), u64at(t, 8));
        if cx.exiting {
            let _ = write!(s, ", status={}", u32at(t, 16) as u32 as i32);
        }
        s.push_str(", target_type=");
        cstring(s, &t[24..40]);
        s.push_str(", string=");
        let next = u32at(t, 20) as u32;
        string(
            s,
            m,
            offset_end as u64,
            (data_size - offset_end) as u64,
            cx.max,
        );
        s.push('}');
        offset = if cx.exiting {
            data_start.wrapping_add(next)
        } else {
            offset.wrapping_add(next)
        };
    }
}

fn target_deps(s: &mut String, cx: &Ctx, m: &Mem) {
    let (data_size, data_start) = (m.u32(12) as u32, m.u32(16) as u32);
    if data_start == data_size {
        return;
    }
    s.push_str(", ");
    if !cx.verbose {
        s.push_str("...");
        return;
    }
    let offset_end = data_start.wrapping_add(8);
    if offset_end <= data_start || offset_end > data_size {
        return misplaced(s, "struct dm_target_deps");
    }
    let Some(h) = m.get(data_start as u64, 8) else {
        fmt::ptr(s, m.addr.wrapping_add(data_start as u64));
        return;
    };
    let count = u32at(h, 0);
    if count > ((data_size - offset_end) / 8) as u64 {
        return misplaced(s, "struct dm_target_deps");
    }
    let _ = write!(s, "{{count={count}, deps=");
    let at = offset_end as u64;
    if count == 0 {
        s.push_str("[]");
    } else if m.get(at, 8).is_none() {
        fmt::ptr(s, m.addr.wrapping_add(at));
    } else {
        s.push('[');
        for k in 0..count {
            if k > 0 {
                s.push_str(", ");
            }
            if k >= cx.max as u64 {
                s.push_str("...");
                break;
            }
            let Some(d) = m.get(at + 8 * k, 8) else {
                let _ = write!(s, "... /* {:#x} */", m.addr.wrapping_add(at + 8 * k));
                break;
            };
            super::super::xdev(s, u64at(d, 0), cx.x);
        }
        s.push(']');
    }
    s.push('}');
}

fn name_list(s: &mut String, cx: &Ctx, m: &Mem) {
    let (data_size, data_start) = (m.u32(12) as u32, m.u32(16) as u32);
    if data_start == data_size {
        return;
    }
    if !cx.verbose {
        s.push_str(", ...");
        return;
    }
    let mut offset = data_start;
    let mut offset_end = 0u32;
    let mut count = 0u64;
    loop {
        s.push_str(", ");
        if count > 0 && offset <= offset_end {
            return misplaced(s, "struct dm_name_list");
        }
        offset_end = offset.wrapping_add(12);
        if offset_end <= offset || offset_end > data_size {
            return misplaced(s, "struct dm_name_list");
        }
        if count >= cx.max as u64 {
            s.push_str("...");
            break;
        }
        // sizeof(struct dm_name_list): 16
        let Some(e) = m.get(offset as u64, 16) else {
            fmt::ptr(s, m.addr.wrapping_add(offset as u64));
            break;
        };
        let next = u32at(e, 8) as u32;
        s.push_str("{dev=");
        super::super::xdev(s, u64at(e, 0), cx.x);
        s.push_str(", name=");
        let rc = string(
            s,
            m,
            offset_end as u64,
            (data_size - offset_end) as u64,
            cx.max,
        );
        if let Some(rc) = rc.filter(|&rc| rc > 0 && m.u32(4) >= 37) {
            let ev = (m.addr + offset_end as u64 + rc as u64 + 7) & !7;
            let ev_off = ev.wrapping_sub(m.addr);
            if ev + 4 <= m.addr + offset as u64 + next as u64 {
                if let Some(n) = m.get(ev_off, 4) {
                    let _ = write!(s, ", event_nr={}", u32at(n, 0));
                }
            }
        }
        s.push('}');
        if next == 0 {
            break;
        }
        offset = offset.wrapping_add(next);
        count += 1;
    }
}

fn target_versions(s: &mut String, cx: &Ctx, m: &Mem) {
    let (data_size, data_start) = (m.u32(12) as u32, m.u32(16) as u32);
    if data_start == data_size {
        return;
    }
    if !cx.verbose {
        s.push_str(", ...");
        return;
    }
    let mut offset = data_start;
    let mut offset_end = 0u32;
    let mut count = 0u64;
    loop {
        s.push_str(", ");
        if count > 0 && offset <= offset_end {
            return misplaced(s, "struct dm_target_versions");
        }
        offset_end = offset.wrapping_add(16);
        if offset_end <= offset || offset_end > data_size {
            return misplaced(s, "struct dm_target_versions");
        }
        if count >= cx.max as u64 {
            s.push_str("...");
            break;
        }
        let Some(e) = m.get(offset as u64, 16) else {
            fmt::ptr(s, m.addr.wrapping_add(offset as u64));
            break;
        };
        let next = u32at(e, 0) as u32;
        s.push_str("{name=");
        string(
            s,
            m,
            offset_end as u64,
            (data_size - offset_end) as u64,
            cx.max,
        );
        let _ = write!(
            s,
            ", version=[{}, {}, {}]}}",
            u32at(e, 4),
            u32at(e, 8),
            u32at(e, 12)
        );
        if next == 0 {
            break;
        }
        offset = offset.wrapping_add(next);
        count += 1;
    }
}

fn target_msg(s: &mut String, cx: &Ctx, m: &Mem) {
    let (data_size, data_start) = (m.u32(12) as u32, m.u32(16) as u32);
    if data_start == data_size {
        return;
    }
    s.push_str(", ");
    if !cx.verbose {
        s.push_str("...");
        return;
    }
    let offset_end = data_start.wrapping_add(8);
    if offset_end > data_start && offset_end <= data_size {
        let Some(h) = m.get(data_start as u64, 8) else {
            fmt::ptr(s, m.addr.wrapping_add(data_start as u64));
            return;
        };
        let _ = write!(s, "{{sector={}, message=", u64at(h, 0));
        string(
            s,
            m,
            offset_end as u64,
            (data_size - offset_end) as u64,
            cx.max,
        );
        s.push('}');
    } else {
        misplaced(s, "struct dm_target_msg");
    }
}

fn dm_string(s: &mut String, cx: &Ctx, m: &Mem) {
    s.push_str(", ");
    if !cx.verbose {
        s.push_str("...");
        return;
    }
    let (data_size, offset) = (m.u32(12), m.u32(16));
    if offset <= data_size {
        s.push_str("{string=");
        string(s, m, offset, data_size - offset, cx.max);
        s.push('}');
    } else {
        misplaced(s, "string");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dm_header_and_string() {
        let mut d = vec![0u8; 320];
        d[0] = 4;
        d[4] = 1;
        d[8] = 2;
        d[12..16].copy_from_slice(&316u32.to_le_bytes());
        d[16..20].copy_from_slice(&312u32.to_le_bytes());
        d[48..51].copy_from_slice(b"nnn");
        d[312..315].copy_from_slice(b"abc");
        let m = Mem { d, addr: 0x1000 };
        let cx = Ctx {
            nr: DEV_RENAME,
            x: Xlat::Abbrev,
            verbose: true,
            max: 2,
            exiting: false,
        };
        let mut s = String::new();
        assert!(header(&mut s, &cx, &m, false));
        payload(&mut s, &cx, &m);
        assert_eq!(
            s,
            "{version=[4, 1, 2], data_size=316, data_start=312, name=\"nnn\", event_nr=0, \
             flags=0}, {string=\"ab\"...}"
        );
    }
}
