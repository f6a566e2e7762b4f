//! ioctl's third argument for the request families strace decodes by type
//! byte (its `ioctl_decode`): what the kernel reads or writes, as strace 6.1
//! prints it. A child module of `decode`: it writes through [`ArgWriter`].

use std::fmt::Write;

use super::ArgWriter;
use crate::fmt::{self, Xlat};

/// Prints a struct from the bytes copied; false when too few were.
type Shape = fn(&mut Out<'_>, &[u8]) -> bool;

/// The text being written and how values look.
pub(super) struct Out<'a> {
    s: &'a mut String,
    x: Xlat,
    /// `-v`: arrays and structs unabridged.
    verbose: bool,
}

impl Out<'_> {
    fn put(&mut self, t: &str) {
        self.s.push_str(t);
    }

    /// One value of an enumeration (hex when unknown, with the hint).
    fn xval(&mut self, v: u64, table: &[(u64, &str)], hint: &str) {
        fmt::enumv(self.s, v, table, hint, self.x, true);
    }

    /// Flags: names, or the number with the hint when none has a name.
    fn flags(&mut self, v: u64, table: &[(u64, &str)], hint: &str) {
        let named = table.iter().any(|&(b, _)| b != 0 && v & b == b);
        if v != 0 && !named && self.x != Xlat::Raw {
            fmt::hex(self.s, v);
            let _ = write!(self.s, " /* {hint} */");
        } else {
            fmt::flags(self.s, v, table, None, self.x);
        }
    }
}

fn u16at(d: &[u8], o: usize) -> u64 {
    u16::from_le_bytes([d[o], d[o + 1]]) as u64
}

fn u32at(d: &[u8], o: usize) -> u64 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap()) as u64
}

fn i32at(d: &[u8], o: usize) -> i64 {
    i32::from_le_bytes(d[o..o + 4].try_into().unwrap()) as i64
}

fn u64at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap())
}

/// What strace prints of the third argument.
enum How {
    /// Nothing at all (`ioctl(-1, FIFREEZE)`).
    Nothing,
    /// The argument as a number (strace's generic `, 0x...`).
    Hex,
    /// What the kernel reads, decoded at entry.
    In(Shape),
    /// What the kernel writes, decoded at exit (the address if it failed).
    Out(Shape),
}

/// Decodes the argument of `req` if its family is one this module knows;
/// false leaves it to the caller.
pub(super) fn decode(w: &mut ArgWriter<'_>, req: u32) -> bool {
    let how = match (req >> 8) & 0xff {
        0x58 => fs_x(req), // 'X'
        0x3e => counter(req),
        _ => return false,
    };
    let Some(how) = how else {
        return false;
    };
    let v = w.call.args[2];
    let x = w.opts.xlat;
    let verbose = w.opts.verbose;
    match how {
        How::Nothing => {}
        How::Hex => {
            w.sep();
            fmt::hex(&mut w.s, v);
        }
        How::In(shape) => {
            w.sep();
            let data = w.call.enter_cap(2).map(|c| c.data.clone());
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
            };
            match data {
                Some(d) if shape(&mut o, &d) => {}
                _ => fmt::ptr(&mut w.s, v),
            }
        }
        How::Out(shape) => {
            if !w.exiting() {
                return true;
            }
            w.sep();
            let failed = w.call.ret().is_some_and(|r| r < 0);
            let data = w.call.exit_cap(2).map(|c| c.data.clone());
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
            };
            match data {
                Some(d) if !failed && shape(&mut o, &d) => {}
                _ => fmt::ptr(&mut w.s, v),
            }
        }
    }
    true
}

// ---- 'X': fs_x_ioctl ----

static FS_XFLAGS: &[(u64, &str)] = &[
    (0x1, "FS_XFLAG_REALTIME"),
    (0x2, "FS_XFLAG_PREALLOC"),
    (0x8, "FS_XFLAG_IMMUTABLE"),
    (0x10, "FS_XFLAG_APPEND"),
    (0x20, "FS_XFLAG_SYNC"),
    (0x40, "FS_XFLAG_NOATIME"),
    (0x80, "FS_XFLAG_NODUMP"),
    (0x100, "FS_XFLAG_RTINHERIT"),
    (0x200, "FS_XFLAG_PROJINHERIT"),
    (0x400, "FS_XFLAG_NOSYMLINKS"),
    (0x800, "FS_XFLAG_EXTSIZE"),
    (0x1000, "FS_XFLAG_EXTSZINHERIT"),
    (0x2000, "FS_XFLAG_NODEFRAG"),
    (0x4000, "FS_XFLAG_FILESTREAM"),
    (0x8000, "FS_XFLAG_DAX"),
    (0x10000, "FS_XFLAG_COWEXTSIZE"),
    (0x80000000, "FS_XFLAG_HASATTR"),
];

fn fs_x(req: u32) -> Option<How> {
    Some(match req {
        0xc0045877 | 0xc0045878 => How::Nothing, // FIFREEZE, FITHAW
        0xc0185879 => How::In(fstrim_range),     // FITRIM
        0x801c581f => How::Out(fsxattr_get),     // FS_IOC_FSGETXATTR
        0x401c5820 => How::In(fsxattr_set),      // FS_IOC_FSSETXATTR
        _ => How::Hex,
    })
}

fn fstrim_range(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 24 {
        return false;
    }
    let _ = write!(
        o.s,
        "{{start={:#x}, len={}, minlen={}}}",
        u64at(d, 0),
        u64at(d, 8),
        u64at(d, 16)
    );
    true
}

fn fsxattr(o: &mut Out<'_>, d: &[u8], get: bool) -> bool {
    if d.len() < 28 {
        return false;
    }
    o.put("{fsx_xflags=");
    o.flags(u32at(d, 0), FS_XFLAGS, "FS_XFLAG_???");
    let _ = write!(o.s, ", fsx_extsize={}", u32at(d, 4));
    if get {
        let _ = write!(o.s, ", fsx_nextents={}", u32at(d, 8));
    }
    let _ = write!(o.s, ", fsx_projid=");
    fmt::hex(o.s, u32at(d, 12));
    let _ = write!(o.s, ", fsx_cowextsize={}}}", u32at(d, 16));
    true
}

fn fsxattr_get(o: &mut Out<'_>, d: &[u8]) -> bool {
    fsxattr(o, d, true)
}

fn fsxattr_set(o: &mut Out<'_>, d: &[u8]) -> bool {
    fsxattr(o, d, false)
}

// ---- '>': counter_ioctl ----

static COUNTER_COMPONENT_TYPES: &[(u64, &str)] = &[
    (0, "COUNTER_COMPONENT_NONE"),
    (1, "COUNTER_COMPONENT_SIGNAL"),
    (2, "COUNTER_COMPONENT_COUNT"),
    (3, "COUNTER_COMPONENT_FUNCTION"),
    (4, "COUNTER_COMPONENT_SYNAPSE_ACTION"),
    (5, "COUNTER_COMPONENT_EXTENSION"),
];

static COUNTER_SCOPES: &[(u64, &str)] = &[
    (0, "COUNTER_SCOPE_DEVICE"),
    (1, "COUNTER_SCOPE_SIGNAL"),
    (2, "COUNTER_SCOPE_COUNT"),
];

static COUNTER_EVENTS: &[(u64, &str)] = &[
    (0, "COUNTER_EVENT_OVERFLOW"),
    (1, "COUNTER_EVENT_UNDERFLOW"),
    (2, "COUNTER_EVENT_OVERFLOW_UNDERFLOW"),
    (3, "COUNTER_EVENT_THRESHOLD"),
    (4, "COUNTER_EVENT_INDEX"),
    (5, "COUNTER_EVENT_CHANGE_OF_STATE"),
    (6, "COUNTER_EVENT_CAPTURE"),
];

fn counter(req: u32) -> Option<How> {
    Some(match req {
        0x40063e00 => How::In(counter_watch), // COUNTER_ADD_WATCH_IOCTL
        0x3e01 | 0x3e02 => How::Nothing,      // COUNTER_{EN,DIS}ABLE_EVENTS_IOCTL
        _ => How::Hex,
    })
}

fn counter_watch(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 6 {
        return false;
    }
    o.put("{component={type=");
    o.xval(d[0] as u64, COUNTER_COMPONENT_TYPES, "COUNTER_COMPONENT_???");
    o.put(", scope=");
    o.xval(d[1] as u64, COUNTER_SCOPES, "COUNTER_SCOPE_???");
    let _ = write!(o.s, ", parent={}, id={}}}, event=", d[2], d[3]);
    o.xval(d[4] as u64, COUNTER_EVENTS, "COUNTER_EVENT_???");
    let _ = write!(o.s, ", channel={}}}", d[5]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(shape: Shape, d: &[u8], x: Xlat) -> String {
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x,
            verbose: false,
        };
        assert!(shape(&mut o, d));
        s
    }

    #[test]
    fn fsxattr_flags() {
        let mut d = vec![0u8; 28];
        d[0..4].copy_from_slice(&0x7ffe0004u32.to_le_bytes());
        assert_eq!(
            show(fsxattr_set, &d, Xlat::Abbrev),
            "{fsx_xflags=0x7ffe0004 /* FS_XFLAG_??? */, fsx_extsize=0, fsx_projid=0, fsx_cowextsize=0}"
        );
        d[0..4].copy_from_slice(&0x80000009u32.to_le_bytes());
        assert_eq!(
            show(fsxattr_get, &d, Xlat::Verbose),
            "{fsx_xflags=0x80000009 /* FS_XFLAG_REALTIME|FS_XFLAG_IMMUTABLE|FS_XFLAG_HASATTR */, \
             fsx_extsize=0, fsx_nextents=0, fsx_projid=0, fsx_cowextsize=0}"
        );
    }

    #[test]
    fn counter_watch_shape() {
        assert_eq!(
            show(counter_watch, &[5, 2, 23, 42, 7, 69], Xlat::Abbrev),
            "{component={type=COUNTER_COMPONENT_EXTENSION, scope=COUNTER_SCOPE_COUNT, \
             parent=23, id=42}, event=0x7 /* COUNTER_EVENT_??? */, channel=69}"
        );
        assert_eq!(
            show(counter_watch, &[0, 0, 0, 0, 0, 0], Xlat::Verbose),
            "{component={type=0 /* COUNTER_COMPONENT_NONE */, scope=0 /* COUNTER_SCOPE_DEVICE */, \
             parent=0, id=0}, event=0 /* COUNTER_EVENT_OVERFLOW */, channel=0}"
        );
    }
}
