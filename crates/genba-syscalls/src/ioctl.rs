//! ioctl's third argument for the request families strace decodes by type
//! byte (its `ioctl_decode`): what the kernel reads or writes, as strace 6.1
//! prints it. A child module of `decode`: it writes through [`ArgWriter`].

use std::fmt::Write;

use super::ArgWriter;
use crate::fmt::{self, Xlat};

#[path = "ioctl_dm.rs"]
mod dm;
#[path = "ioctl_drm.rs"]
mod drm;
#[path = "ioctl_kd.rs"]
mod kd;
#[path = "ioctl_kvm.rs"]
mod kvm;
pub(super) use kvm::{
    created_fd as kvm_created_fd, creates_fd as kvm_creates_fd, made_fd as kvm_made_fd, KVM_RUN,
};
#[path = "ioctl_perf.rs"]
mod perf_ioctl;
#[path = "ioctl_small.rs"]
mod small;
pub(super) use small::mixer_name;
#[path = "ioctl_termios.rs"]
mod termios;
#[path = "ioctl_v4l2.rs"]
mod v4l2;

/// The return value of the requests whose decoders annotate it
/// (VIDIOC_CREATE_BUFS).
pub(super) fn return_text(s: &mut String, call: &super::CallView<'_>) -> bool {
    ((call.args[1] >> 8) & 0xff == 0x56 && v4l2::return_text(s, call))
        || ((call.args[1] >> 8) & 0xff == 0xae && kvm::return_text(s, call))
        || small::return_text(s, call)
}

/// Whether request `req` returns a new descriptor.
pub(super) fn returns_fd(req: u32) -> bool {
    kvm::returns_fd(req)
}

/// The structure sizes of the request families in their own modules.
pub(super) fn family_sizes() -> Vec<(u32, u32)> {
    let mut v = kd::sizes();
    v.extend(v4l2::sizes());
    v.extend(termios::sizes());
    v.extend(dm::sizes());
    v.extend(small::sizes());
    v.extend(kvm::sizes());
    v.extend(perf_ioctl::sizes());
    v
}

/// The families' copies beyond the argument's own: what pointers in their
/// structures point to. Slot 0 holds V4L2's format clips; 1 evdev's reads
/// (decode.rs) and, when -s asks for more than the argument's copy holds,
/// KD's long copy of the argument (one copy taken for either); 3 the KD
/// unimap/font entries; 4 what word 3 points to for both KDFONTOP (its
/// data) and V4L2's ext_controls (the controls); 5 V4L2's CREATE_BUFS clips.
pub(super) fn plan(o: &super::Options, out: &mut [super::CapPlan; 6]) {
    let evdev = out[1];
    v4l2::plan(out);
    let controls = out[4];
    kd::plan(o, out);
    let long = out[1];
    if let (true, Some(ec), Some(lc)) = (long != evdev, evdev.cond, long.cond) {
        out[1] = super::CapPlan {
            when: super::CapWhen::Both,
            max: evdev.max.max(long.max),
            cond: Some(super::CapCond {
                val2: lc.val & ec.mask,
                ..ec
            }),
            ..evdev
        };
    }
    let font = out[4];
    if let (Some(fc), Some(cc)) = (font.cond, controls.cond) {
        out[4].max = font.max.max(controls.max);
        out[4].cond = Some(super::CapCond {
            mask: cc.mask,
            val: cc.val,
            val2: fc.val & cc.mask,
            ..cc
        });
    }
}

/// Prints a struct from the bytes copied; false when too few were.
type Shape = fn(&mut Out<'_>, &[u8]) -> bool;

/// The text being written and how values look.
pub(super) struct Out<'a> {
    s: &'a mut String,
    x: Xlat,
    /// `-v`: arrays and structs unabridged.
    verbose: bool,
    /// `-s`: how much of a string to show.
    strsize: usize,
}

impl Out<'_> {
    fn put(&mut self, t: &str) {
        self.s.push_str(t);
    }

    /// An array of `n` items, `...` after `-s` of them unless `-v`.
    fn array(&mut self, n: usize, mut item: impl FnMut(&mut Self, usize)) {
        self.put("[");
        for i in 0..n {
            if i > 0 {
                self.put(", ");
            }
            if !self.verbose && i >= self.strsize {
                self.put("...");
                break;
            }
            item(self, i);
        }
        self.put("]");
    }

    /// A char array holding a C string (`...` when it has no NUL).
    fn cstring(&mut self, b: &[u8]) {
        match b.iter().position(|&c| c == 0) {
            Some(n) => fmt::quoted(self.s, &b[..n], false, fmt::HexStr::None),
            // as strace: the last byte is the NUL's place
            None => fmt::quoted(
                self.s,
                &b[..b.len().saturating_sub(1)],
                true,
                fmt::HexStr::None,
            ),
        }
    }

    /// `, name=[...]` of u32 in hex, when any is not zero.
    fn nonzero_u32s(&mut self, name: &str, d: &[u8], at: usize, n: usize) {
        if (0..n).any(|k| u32at(d, at + 4 * k) != 0) {
            let _ = write!(self.s, ", {name}=");
            self.array(n, |o, k| fmt::hex(o.s, u32at(d, at + 4 * k)));
        }
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

/// The requests linux/hdreg.h and linux/kd.h define as plain numbers (not
/// with _IO macros, so scripts/gen-ioctls.sh misses them); strace names them.
pub(super) static OLD_STYLE: &[(u64, &str)] = &[
    (0x0301, "HDIO_GETGEO"),
    (0x0302, "HDIO_GET_UNMASKINTR"),
    (0x0304, "HDIO_GET_MULTCOUNT"),
    (0x0305, "HDIO_GET_QDMA"),
    (0x0306, "HDIO_SET_XFER"),
    (0x0307, "HDIO_OBSOLETE_IDENTITY"),
    (0x0308, "HDIO_GET_KEEPSETTINGS"),
    (0x0309, "HDIO_GET_32BIT"),
    (0x030a, "HDIO_GET_NOWERR"),
    (0x030b, "HDIO_GET_DMA"),
    (0x030c, "HDIO_GET_NICE"),
    (0x030d, "HDIO_GET_IDENTITY"),
    (0x030e, "HDIO_GET_WCACHE"),
    (0x030f, "HDIO_GET_ACOUSTIC"),
    (0x0310, "HDIO_GET_ADDRESS"),
    (0x031a, "HDIO_GET_BUSSTATE"),
    (0x031b, "HDIO_TRISTATE_HWIF"),
    (0x031c, "HDIO_DRIVE_RESET"),
    (0x031d, "HDIO_DRIVE_TASKFILE"),
    (0x031e, "HDIO_DRIVE_TASK"),
    (0x031f, "HDIO_DRIVE_CMD"),
    (0x0321, "HDIO_SET_MULTCOUNT"),
    (0x0322, "HDIO_SET_UNMASKINTR"),
    (0x0323, "HDIO_SET_KEEPSETTINGS"),
    (0x0324, "HDIO_SET_32BIT"),
    (0x0325, "HDIO_SET_NOWERR"),
    (0x0326, "HDIO_SET_DMA"),
    (0x0327, "HDIO_SET_PIO_MODE"),
    (0x0328, "HDIO_SCAN_HWIF"),
    (0x0329, "HDIO_SET_NICE"),
    (0x032a, "HDIO_UNREGISTER_HWIF"),
    (0x032b, "HDIO_SET_WCACHE"),
    (0x032c, "HDIO_SET_ACOUSTIC"),
    (0x032d, "HDIO_SET_BUSSTATE"),
    (0x032e, "HDIO_SET_QDMA"),
    (0x032f, "HDIO_SET_ADDRESS"),
    (0x4b2f, "KIOCSOUND"),
    (0x4b30, "KDMKTONE"),
    (0x4b31, "KDGETLED"),
    (0x4b32, "KDSETLED"),
    (0x4b33, "KDGKBTYPE"),
    (0x4b34, "KDADDIO"),
    (0x4b35, "KDDELIO"),
    (0x4b36, "KDENABIO"),
    (0x4b37, "KDDISABIO"),
    (0x4b3a, "KDSETMODE"),
    (0x4b3b, "KDGETMODE"),
    (0x4b3c, "KDMAPDISP"),
    (0x4b3d, "KDUNMAPDISP"),
    (0x4b40, "GIO_SCRNMAP"),
    (0x4b41, "PIO_SCRNMAP"),
    (0x4b44, "KDGKBMODE"),
    (0x4b45, "KDSKBMODE"),
    (0x4b46, "KDGKBENT"),
    (0x4b47, "KDSKBENT"),
    (0x4b48, "KDGKBSENT"),
    (0x4b49, "KDSKBSENT"),
    (0x4b4a, "KDGKBDIACR"),
    (0x4b4b, "KDSKBDIACR"),
    (0x4b4c, "KDGETKEYCODE"),
    (0x4b4d, "KDSETKEYCODE"),
    (0x4b4e, "KDSIGACCEPT"),
    (0x4b52, "KDKBDREP"),
    (0x4b60, "GIO_FONT"),
    (0x4b61, "PIO_FONT"),
    (0x4b62, "KDGKBMETA"),
    (0x4b63, "KDSKBMETA"),
    (0x4b64, "KDGKBLED"),
    (0x4b65, "KDSKBLED"),
    (0x4b66, "GIO_UNIMAP"),
    (0x4b67, "PIO_UNIMAP"),
    (0x4b68, "PIO_UNIMAPCLR"),
    (0x4b69, "GIO_UNISCRNMAP"),
    (0x4b6a, "PIO_UNISCRNMAP"),
    (0x4b6b, "GIO_FONTX"),
    (0x4b6c, "PIO_FONTX"),
    (0x4b6d, "PIO_FONTRESET"),
    (0x4b70, "GIO_CMAP"),
    (0x4b71, "PIO_CMAP"),
    (0x4b72, "KDFONTOP"),
    (0x4bfa, "KDGKBDIACRUC"),
    (0x4bfb, "KDSKBDIACRUC"),
];

/// Requests linux/seccomp.h defines through macros of its own
/// (SECCOMP_IOR/SECCOMP_IOW/SECCOMP_IOWR), so scripts/gen-ioctls.sh misses
/// them.
pub(super) static INDIRECT: &[(u64, &str)] = &[
    (0xc0502100, "SECCOMP_IOCTL_NOTIF_RECV"),
    (0xc0182101, "SECCOMP_IOCTL_NOTIF_SEND"),
    (0x40082102, "SECCOMP_IOCTL_NOTIF_ID_VALID"),
    (0x40182103, "SECCOMP_IOCTL_NOTIF_ADDFD"),
    // linux/ptp_clock.h's, whose structs the generator's compile misses
    (0xc0403d08, "PTP_SYS_OFFSET_PRECISE"),
    (0xc0403d11, "PTP_SYS_OFFSET_PRECISE2"),
    (0xc4c03d09, "PTP_SYS_OFFSET_EXTENDED"),
    (0xc4c03d12, "PTP_SYS_OFFSET_EXTENDED2"),
];

/// A request strace names by itself, before its tables: the seccomp
/// request of the wrong direction (the kernel still accepts it), and the
/// input requests that carry a length or an axis (`EVIOCGNAME(64)`).
pub(super) fn special_name(req: u64, x: Xlat) -> Option<String> {
    if req == 0x80082102 {
        return Some("SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR".into());
    }
    if let Some(n) = v4l2::name(req) {
        return Some(n.into());
    }
    if (req >> 8) & 0xff != 0x45 {
        return None;
    }
    let (dir, nr, size) = (req >> 30, req & 0xff, (req >> 16) & 0x3fff);
    // inside a comment (-X verbose) the names go without hints
    let name = |v: u64, table: &[(u64, &str)], hint: &str| {
        let mut t = String::new();
        match table.iter().find(|(k, _)| *k == v) {
            Some((_, n)) => t.push_str(n),
            None if x == Xlat::Verbose => fmt::hex(&mut t, v),
            None => {
                fmt::hex(&mut t, v);
                let _ = write!(t, " /* {hint} */");
            }
        }
        t
    };
    if dir == 1 && (0xc0..=0xff).contains(&nr) {
        return Some(format!(
            "EVIOCSABS({})",
            name(nr - 0xc0, EVDEV_ABS, "ABS_???")
        ));
    }
    if dir != 2 {
        return None;
    }
    Some(match nr {
        0x20 => format!("EVIOCGBIT(0, {size})"),
        0x21..=0x3f => format!("EVIOCGBIT({}, {size})", name(nr - 0x20, EVDEV_EV, "EV_???")),
        0x40..=0x7f => format!("EVIOCGABS({})", name(nr - 0x40, EVDEV_ABS, "ABS_???")),
        0x06 => format!("EVIOCGNAME({size})"),
        0x07 => format!("EVIOCGPHYS({size})"),
        0x08 => format!("EVIOCGUNIQ({size})"),
        0x09 => format!("EVIOCGPROP({size})"),
        0x0a => format!("EVIOCGMTSLOTS({size})"),
        0x18 => format!("EVIOCGKEY({size})"),
        0x19 => format!("EVIOCGLED({size})"),
        0x1a => format!("EVIOCGSND({size})"),
        0x1b => format!("EVIOCGSW({size})"),
        _ => return None,
    })
}

/// What strace prints of the third argument.
pub(super) enum How {
    /// Nothing at all (`ioctl(-1, FIFREEZE)`).
    Nothing,
    /// The argument as a number (strace's generic `, 0x...`).
    Hex,
    /// What the kernel reads, decoded at entry.
    In(Shape),
    /// What the kernel writes, decoded at exit (the address if it failed).
    Out(Shape),
    /// What the caller gives at entry, then (when the call succeeded)
    /// ` => ` what the kernel gave back.
    InOut(Shape, Shape),
    /// The argument itself, a value.
    Val(fn(&mut Out<'_>, u64)),
    /// A decoder of its own.
    Custom(fn(&mut ArgWriter<'_>)),
}

/// Decodes the argument of `req` if its family is one this module knows;
/// false leaves it to the caller.
pub(super) fn decode(w: &mut ArgWriter<'_>, req: u32) -> bool {
    let how = match (req >> 8) & 0xff {
        0x58 => fs_x(req), // 'X'
        0x3e => counter(req),
        0x03 => hdio(req),
        0x70 => rtc(req),  // 'p'
        0x66 => fs_f(req), // 'f'
        0xb4 => gpio(req),
        0x21 => seccomp(req),   // '!'
        0x3d => ptp(req),       // '='
        0x45 => evdev(req),     // 'E'
        0x4b => kd::how(req),   // 'K'
        0x56 => v4l2::how(req), // 'V'
        // the terminal's structures, then its modem lines (ioctl_small.rs)
        0x54 => termios::how(req).or_else(|| small::how(req)),
        0xfd => dm::how(req),
        // the DRM core's (None: a driver's, or COMEDI's, named only)
        0x64 => match drm::how(req) {
            None => return false,
            how => how,
        },
        0xae => kvm::how(req),
        // the families of ioctl_small.rs (None: not one of them)
        _ => match small::how(req) {
            None => return false,
            how => how,
        },
    };
    let Some(how) = how else {
        return false;
    };
    let v = w.call.args[2];
    let x = w.opts.xlat;
    let verbose = w.opts.verbose;
    let strsize = w.opts.strsize;
    match how {
        How::Nothing => {}
        How::Custom(f) => f(w),
        How::Val(f) => {
            w.sep();
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            f(&mut o, v);
        }
        // (a pointer strace's decoder prints as such: NULL for zero)
        How::Hex if super::ioctl_ptr_args::takes_pointer(req) => {
            w.sep();
            fmt::ptr(&mut w.s, v);
        }
        How::Hex => {
            w.sep();
            fmt::hex(&mut w.s, v);
        }
        How::In(shape) => {
            w.sep();
            let data = input(w, req);
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            match data {
                Some(d) if shape(&mut o, &d) => {}
                _ => fmt::ptr(&mut w.s, v),
            }
        }
        How::InOut(enter, exit) => {
            w.sep();
            let data = input(w, req);
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            match data {
                Some(d) if enter(&mut o, &d) => {}
                _ => {
                    fmt::ptr(&mut w.s, v);
                    return true;
                }
            }
            if !w.exiting_inside() || w.call.ret().is_some_and(|r| r < 0) {
                return true;
            }
            let data = output(w, req);
            w.s.push_str(" => ");
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            match data {
                Some(d) if exit(&mut o, &d) => {}
                _ => fmt::ptr(&mut w.s, v),
            }
        }
        How::Out(shape) => {
            if !w.exiting() {
                return true;
            }
            w.sep();
            let failed = w.call.ret().is_some_and(|r| r < 0);
            let data = output(w, req);
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            match data {
                Some(d) if !failed && shape(&mut o, &d) => {}
                _ => fmt::ptr(&mut w.s, v),
            }
        }
    }
    true
}

/// The bytes the request's size encodes (`_IOC_SIZE`).
fn ioc_size(req: u32) -> usize {
    match SIZES.iter().find(|(r, _)| *r == req) {
        Some(&(_, n)) => (n & 0xffff).max(n >> 16) as usize,
        None => ((req >> 16) & 0x3fff) as usize,
    }
}

/// How many bytes the argument of an old-style request (one that does not
/// encode its size) has, for those decoded here: what BPF copies (the high
/// 16 bits, when set: as many to copy instead when all are readable).
pub(super) static SIZES: &[(u32, u32)] = &[
    (0x0301, 16), // HDIO_GETGEO: struct hd_geometry
    // HDIO_DRIVE_CMD: struct hd_drive_cmd_hdr, and when readable the
    // sectors after it as far as strace shows them by default (-s 32)
    (0x031f, 4 | (4 + 32) << 16),
    (0x031c, 12),  // HDIO_DRIVE_RESET: int[3]
    (0x0328, 12),  // HDIO_SCAN_HWIF: int[3]
    (0x0307, 142), // HDIO_OBSOLETE_IDENTITY
    (0x030d, 512), // HDIO_GET_IDENTITY
    (0x0309, 8),   // HDIO_GET_32BIT and the other getters: unsigned long
    (0x030f, 8),
    (0x0310, 8),
    (0x030b, 8),
    (0x0308, 8),
    (0x0304, 8),
    (0x030a, 8),
    (0x0302, 8),
    (0x030e, 8),
    (0x030c, 8),
    (0x031a, 8),
    // FS_IOC_FIEMAP: struct fiemap and the extents after it (20 of them),
    // as far as the page goes when they are not all readable
    (0xc020660b, FIEMAP_COPY),
    (0x80086601, 4), // FS_IOC_GETFLAGS, FS_IOC_SETFLAGS: an int, despite their size
    (0x40086602, 4),
];

/// Whether BPF tried to copy the argument in `caps` (and if so, what it got).
fn tried(caps: &[super::Capture]) -> Option<Option<Vec<u8>>> {
    caps.iter()
        .find(|c| c.arg == 2 && c.item == super::CaptureItem::Data)
        .map(|c| (!c.fault).then(|| c.data.clone()))
}

/// What the kernel reads: the entry's copy; when the call was not seen
/// entering (an injected return skips the tracepoint), the exit's, or the
/// memory as it is now.
fn input(w: &ArgWriter<'_>, req: u32) -> Option<Vec<u8>> {
    if let Some(d) = tried(w.call.enter) {
        return d;
    }
    if let Some(d) = w.call.exit.and_then(|(_, caps)| tried(caps)) {
        return d;
    }
    let v = w.call.args[2];
    let len = ioc_size(req).max(1);
    w.env
        .read_mem
        .filter(|_| v != 0)
        .and_then(|read| read(v, len))
}

/// What the kernel wrote: the exit's copy.
fn output(w: &ArgWriter<'_>, req: u32) -> Option<Vec<u8>> {
    if let Some(d) = w.call.exit.and_then(|(_, caps)| tried(caps)) {
        return d;
    }
    let v = w.call.args[2];
    let len = ioc_size(req).max(1);
    w.env
        .read_mem
        .filter(|_| v != 0)
        .and_then(|read| read(v, len))
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
    o.xval(
        d[0] as u64,
        COUNTER_COMPONENT_TYPES,
        "COUNTER_COMPONENT_???",
    );
    o.put(", scope=");
    o.xval(d[1] as u64, COUNTER_SCOPES, "COUNTER_SCOPE_???");
    let _ = write!(o.s, ", parent={}, id={}}}, event=", d[2], d[3]);
    o.xval(d[4] as u64, COUNTER_EVENTS, "COUNTER_EVENT_???");
    let _ = write!(o.s, ", channel={}}}", d[5]);
    true
}

// ---- 0x03: hdio ----

static ATA_CMDS: &[(u64, &str)] = &[
    (0x00, "ATA_CMD_NOP"),
    (0x03, "ATA_CMD_CFA_REQ_EXT_ERR"),
    (0x06, "ATA_CMD_DSM"),
    (0x08, "ATA_CMD_DEV_RESET"),
    (0x0b, "ATA_CMD_REQ_SENSE_DATA"),
    (0x10, "ATA_CMD_RESTORE"),
    (0x20, "ATA_CMD_PIO_READ"),
    (0x22, "ATA_CMD_READ_LONG"),
    (0x23, "ATA_CMD_READ_LONG_ONCE"),
    (0x24, "ATA_CMD_PIO_READ_EXT"),
    (0x25, "ATA_CMD_READ_EXT"),
    (0x26, "ATA_CMD_READ_QUEUED"),
    (0x27, "ATA_CMD_READ_NATIVE_MAX_EXT"),
    (0x29, "ATA_CMD_READ_MULTI_EXT"),
    (0x2a, "ATA_CMD_READ_STREAM_DMA_EXT"),
    (0x2b, "ATA_CMD_READ_STREAM_EXT"),
    (0x2f, "ATA_CMD_READ_LOG_EXT"),
    (0x30, "ATA_CMD_PIO_WRITE"),
    (0x32, "ATA_CMD_WRITE_LONG"),
    (0x33, "ATA_CMD_WRITE_LONG_ONCE"),
    (0x34, "ATA_CMD_PIO_WRITE_EXT"),
    (0x35, "ATA_CMD_WRITE_EXT"),
    (0x36, "ATA_CMD_WRITE_QUEUED"),
    (0x37, "ATA_CMD_SET_MAX_EXT"),
    (0x38, "ATA_CMD_CFA_WRITE_NE"),
    (0x39, "ATA_CMD_WRITE_MULTI_EXT"),
    (0x3a, "ATA_CMD_WRITE_STREAM_DMA_EXT"),
    (0x3b, "ATA_CMD_WRITE_STREAM_EXT"),
    (0x3d, "ATA_CMD_WRITE_FUA_EXT"),
    (0x3e, "ATA_CMD_WRITE_QUEUED_FUA_EXT"),
    (0x3f, "ATA_CMD_WRITE_LOG_EXT"),
    (0x40, "ATA_CMD_VERIFY"),
    (0x42, "ATA_CMD_VERIFY_EXT"),
    (0x45, "ATA_CMD_WRITE_UNCORR_EXT"),
    (0x47, "ATA_CMD_READ_LOG_DMA_EXT"),
    (0x4a, "ATA_CMD_ZAC_MGMT_IN"),
    (0x51, "ATA_CMD_CONFIG_STREAM"),
    (0x57, "ATA_CMD_WRITE_LOG_DMA_EXT"),
    (0x5b, "ATA_CMD_TRUSTED_NONDATA"),
    (0x5c, "ATA_CMD_TRUSTED_RCV"),
    (0x5d, "ATA_CMD_TRUSTED_RCV_DMA"),
    (0x5e, "ATA_CMD_TRUSTED_SND"),
    (0x5f, "ATA_CMD_TRUSTED_SND_DMA"),
    (0x60, "ATA_CMD_FPDMA_READ"),
    (0x61, "ATA_CMD_FPDMA_WRITE"),
    (0x63, "ATA_CMD_NCQ_NON_DATA"),
    (0x64, "ATA_CMD_FPDMA_SEND"),
    (0x65, "ATA_CMD_FPDMA_RECV"),
    (0x87, "ATA_CMD_CFA_TRANS_SECT"),
    (0x90, "ATA_CMD_EDD"),
    (0x91, "ATA_CMD_INIT_DEV_PARAMS"),
    (0x92, "ATA_CMD_DOWNLOAD_MICRO"),
    (0x93, "ATA_CMD_DOWNLOAD_MICRO_DMA"),
    (0x9f, "ATA_CMD_ZAC_MGMT_OUT"),
    (0xa0, "ATA_CMD_PACKET"),
    (0xa1, "ATA_CMD_ID_ATAPI"),
    (0xa2, "ATA_CMD_SERVICE"),
    (0xb0, "ATA_CMD_SMART"),
    (0xb1, "ATA_CMD_CONF_OVERLAY"),
    (0xb4, "ATA_CMD_SANITIZE_DEVICE"),
    (0xc0, "ATA_CMD_CFA_ERASE"),
    (0xc4, "ATA_CMD_READ_MULTI"),
    (0xc5, "ATA_CMD_WRITE_MULTI"),
    (0xc6, "ATA_CMD_SET_MULTI"),
    (0xc8, "ATA_CMD_READ"),
    (0xca, "ATA_CMD_WRITE"),
    (0xcd, "ATA_CMD_CFA_WRITE_MULT_NE"),
    (0xce, "ATA_CMD_WRITE_MULTI_FUA_EXT"),
    (0xd1, "ATA_CMD_CHK_MED_CRD_TYP"),
    (0xde, "ATA_CMD_MEDIA_LOCK"),
    (0xdf, "ATA_CMD_MEDIA_UNLOCK"),
    (0xe0, "ATA_CMD_STANDBYNOW1"),
    (0xe1, "ATA_CMD_IDLEIMMEDIATE"),
    (0xe2, "ATA_CMD_STANDBY"),
    (0xe3, "ATA_CMD_IDLE"),
    (0xe4, "ATA_CMD_PMP_READ"),
    (0xe5, "ATA_CMD_CHK_POWER"),
    (0xe6, "ATA_CMD_SLEEP"),
    (0xe7, "ATA_CMD_FLUSH"),
    (0xe8, "ATA_CMD_PMP_WRITE"),
    (0xe9, "ATA_CMD_PMP_READ_DMA"),
    (0xea, "ATA_CMD_FLUSH_EXT"),
    (0xeb, "ATA_CMD_PMP_WRITE_DMA"),
    (0xec, "ATA_CMD_ID_ATA"),
    (0xef, "ATA_CMD_SET_FEATURES"),
    (0xf1, "ATA_CMD_SEC_SET_PASS"),
    (0xf2, "ATA_CMD_SEC_UNLOCK"),
    (0xf3, "ATA_CMD_SEC_ERASE_PREP"),
    (0xf4, "ATA_CMD_SEC_ERASE_UNIT"),
    (0xf5, "ATA_CMD_SEC_FREEZE_LOCK"),
    (0xf6, "ATA_CMD_SEC_DISABLE_PASS"),
    (0xf8, "ATA_CMD_READ_NATIVE_MAX"),
    (0xf9, "ATA_CMD_SET_MAX"),
];

static IDE_NICE: &[(u64, &str)] = &[
    (1 << 0, "1 << IDE_NICE_DSC_OVERLAP"),
    (1 << 1, "1 << IDE_NICE_ATAPI_OVERLAP"),
    (1 << 3, "1 << IDE_NICE_1"),
    (1 << 2, "1 << IDE_NICE_0"),
    (1 << 4, "1 << IDE_NICE_2"),
];

static BUSSTATES: &[(u64, &str)] = &[
    (0, "BUSSTATE_OFF"),
    (1, "BUSSTATE_ON"),
    (2, "BUSSTATE_TRISTATE"),
];

fn hdio(req: u32) -> Option<How> {
    Some(match req {
        0x0301 => How::Out(hd_geometry),
        0x031f => How::Custom(hdio_drive_cmd),
        0x031c | 0x0328 => How::In(three_hex_ints), // HDIO_DRIVE_RESET, HDIO_SCAN_HWIF
        0x0307 => How::Out(|o, d| identity(o, d, 142)), // HDIO_OBSOLETE_IDENTITY
        0x030d => How::Out(|o, d| identity(o, d, 512)), // HDIO_GET_IDENTITY
        0x030c => How::Out(|o, d| {
            // HDIO_GET_NICE
            if d.len() < 8 {
                return false;
            }
            o.put("[");
            fmt::flags(o.s, u64at(d, 0), IDE_NICE, None, o.x);
            o.put("]");
            true
        }),
        0x031a => How::Out(|o, d| {
            // HDIO_GET_BUSSTATE
            if d.len() < 8 {
                return false;
            }
            o.put("[");
            o.xval(u64at(d, 0), BUSSTATES, "BUSSTATE_???");
            o.put("]");
            true
        }),
        // the other getters: an unsigned long
        0x0309 | 0x030f | 0x0310 | 0x030b | 0x0308 | 0x0304 | 0x030a | 0x0302 | 0x030e => {
            How::Out(|o, d| {
                if d.len() < 8 {
                    return false;
                }
                let _ = write!(o.s, "[{}]", u64at(d, 0));
                true
            })
        }
        0x0329 => How::Val(|o, v| fmt::flags(o.s, v, IDE_NICE, None, o.x)), // HDIO_SET_NICE
        0x032d => How::Val(|o, v| o.xval(v, BUSSTATES, "BUSSTATE_???")),    // HDIO_SET_BUSSTATE
        // the other setters: an unsigned long
        0x0324 | 0x032c | 0x032f | 0x0326 | 0x0323 | 0x0321 | 0x0325 | 0x0327 | 0x0322 | 0x032b
        | 0x032a => How::Val(|o, v| {
            let _ = write!(o.s, "{v}");
        }),
        _ => How::Hex,
    })
}

fn hd_geometry(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 16 {
        return false;
    }
    let _ = write!(
        o.s,
        "{{heads={}, sectors={}, cylinders={}, start={}}}",
        d[0],
        d[1],
        u16at(d, 2),
        u64at(d, 8)
    );
    true
}

fn three_hex_ints(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 12 {
        return false;
    }
    let _ = write!(
        o.s,
        "[{:#x}, {:#x}, {:#x}]",
        u32at(d, 0),
        u32at(d, 4),
        u32at(d, 8)
    );
    true
}

/// A drive's identity: `len` bytes, shown as a string up to `-s`.
fn identity(o: &mut Out<'_>, d: &[u8], len: usize) -> bool {
    if d.len() < len {
        return false;
    }
    let n = len.min(o.strsize);
    fmt::quoted(o.s, &d[..n], len > n, fmt::HexStr::None);
    true
}

/// HDIO_DRIVE_CMD: the command in, then the status and the sectors read.
fn hdio_drive_cmd(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    let x = w.opts.xlat;
    let Some(h) = input(w, 0x031f).filter(|d| d.len() >= 4) else {
        w.sep();
        fmt::ptr(&mut w.s, v);
        return;
    };
    w.sep();
    let _ = write!(w.s, "{{command=");
    fmt::enumv(&mut w.s, h[0] as u64, ATA_CMDS, "ATA_CMD_???", x, true);
    let _ = write!(
        w.s,
        ", sector_number={}, feature={}, sector_count={}}}",
        h[1], h[2], h[3]
    );
    if !w.exiting_inside() {
        return;
    }
    let ret = w.call.ret().unwrap_or(0);
    if ret < 0 && ret != -5 {
        return; // failed, but for EIO
    }
    let Some(d) = output(w, 0x031f).filter(|d| d.len() >= 4) else {
        return;
    };
    let _ = write!(
        w.s,
        " => {{status={:#x}, error={}, nsector={}",
        d[0], d[1], d[2]
    );
    if d[3] != 0 {
        w.s.push_str(", buf=");
        let len = d[3] as usize * 512;
        let n = len.min(w.opts.strsize);
        let at = v + 4;
        // BPF copied the sectors' first bytes when they were readable; more
        // (a larger -s) only from the live process
        let copied = ioc_size(0x031f);
        let b = if d.len() >= 4 + n {
            Some(d[4..4 + n].to_vec())
        } else if d.len() >= copied {
            w.env.read_mem.and_then(|read| read(at, n))
        } else {
            None
        };
        match b {
            Some(b) if b.len() >= n => fmt::quoted(&mut w.s, &b[..n], len > n, fmt::HexStr::All),
            _ => fmt::ptr(&mut w.s, at),
        }
    }
    w.s.push('}');
}

// ---- 'p': rtc ----

static RTC_VL_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "RTC_VL_DATA_INVALID"),
    (1 << 1, "RTC_VL_BACKUP_LOW"),
    (1 << 2, "RTC_VL_BACKUP_EMPTY"),
    (1 << 3, "RTC_VL_ACCURACY_LOW"),
    (1 << 4, "RTC_VL_BACKUP_SWITCH"),
];

static RTC_PARAMS: &[(u64, &str)] = &[
    (0, "RTC_PARAM_FEATURES"),
    (1, "RTC_PARAM_CORRECTION"),
    (2, "RTC_PARAM_BACKUP_SWITCH_MODE"),
];

static RTC_FEATURES: &[(u64, &str)] = &[
    (1 << 0, "1<<RTC_FEATURE_ALARM"),
    (1 << 1, "1<<RTC_FEATURE_ALARM_RES_MINUTE"),
    (1 << 2, "1<<RTC_FEATURE_NEED_WEEK_DAY"),
    (1 << 3, "1<<RTC_FEATURE_ALARM_RES_2S"),
    (1 << 4, "1<<RTC_FEATURE_UPDATE_INTERRUPT"),
    (1 << 5, "1<<RTC_FEATURE_CORRECTION"),
    (1 << 6, "1<<RTC_FEATURE_BACKUP_SWITCH_MODE"),
    (1 << 7, "1<<RTC_FEATURE_ALARM_WAKEUP_ONLY"),
];

static RTC_BSMS: &[(u64, &str)] = &[
    (0, "RTC_BSM_DISABLED"),
    (1, "RTC_BSM_DIRECT"),
    (2, "RTC_BSM_LEVEL"),
    (3, "RTC_BSM_STANDBY"),
];

fn rtc(req: u32) -> Option<How> {
    Some(match req {
        0x80247008 | 0x80247009 => How::Out(rtc_time), // RTC_ALM_READ, RTC_RD_TIME
        0x40247007 | 0x4024700a => How::In(rtc_time),  // RTC_ALM_SET, RTC_SET_TIME
        0x4008700c | 0x4008700e => How::Val(|o, v| {
            // RTC_IRQP_SET, RTC_EPOCH_SET
            let _ = write!(o.s, "{v}");
        }),
        0x8008700b | 0x8008700d => How::Out(|o, d| {
            // RTC_IRQP_READ, RTC_EPOCH_READ
            if d.len() < 8 {
                return false;
            }
            let _ = write!(o.s, "[{}]", u64at(d, 0));
            true
        }),
        0x80287010 => How::Out(rtc_wkalrm), // RTC_WKALM_RD
        0x4028700f => How::In(rtc_wkalrm),  // RTC_WKALM_SET
        0x80207011 => How::Out(rtc_pll),    // RTC_PLL_GET
        0x40207012 => How::In(rtc_pll),     // RTC_PLL_SET
        0x80047013 => How::Out(|o, d| {
            // RTC_VL_READ
            if d.len() < 4 {
                return false;
            }
            o.put("[");
            o.flags(u32at(d, 0), RTC_VL_FLAGS, "RTC_VL_???");
            o.put("]");
            true
        }),
        0x40187013 => How::Custom(rtc_param_get),
        0x40187014 => How::In(|o, d| rtc_param(o, d, true, true)), // RTC_PARAM_SET
        // RTC_{AIE,UIE,PIE,WIE}_{ON,OFF}, RTC_VL_CLR: no argument
        0x7001..=0x7006 | 0x700f | 0x7010 | 0x7014 => How::Nothing,
        _ => How::Hex,
    })
}

fn rtc_time_fields(o: &mut Out<'_>, d: &[u8]) {
    let f = |k: usize| i32at(d, 4 * k);
    let _ = write!(
        o.s,
        "{{tm_sec={}, tm_min={}, tm_hour={}, tm_mday={}, tm_mon={}, tm_year={}",
        f(0),
        f(1),
        f(2),
        f(3),
        f(4),
        f(5)
    );
    if o.verbose {
        let _ = write!(
            o.s,
            ", tm_wday={}, tm_yday={}, tm_isdst={}}}",
            f(6),
            f(7),
            f(8)
        );
    } else {
        o.put(", ...}");
    }
}

fn rtc_time(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 36 {
        return false;
    }
    rtc_time_fields(o, d);
    true
}

fn rtc_wkalrm(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 40 {
        return false;
    }
    let _ = write!(o.s, "{{enabled={}, pending={}, time=", d[0], d[1]);
    rtc_time_fields(o, &d[4..]);
    o.put("}");
    true
}

fn rtc_pll(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 32 {
        return false;
    }
    let f = |k: usize| i32at(d, 4 * k);
    let _ = write!(
        o.s,
        "{{pll_ctrl={}, pll_value={}, pll_max={}, pll_min={}, pll_posmult={}, \
         pll_negmult={}, pll_clock={}}}",
        f(0),
        f(1),
        f(2),
        f(3),
        f(4),
        f(5),
        u64at(d, 24) as i64
    );
    true
}

/// struct rtc_param: what the caller gives at entry (`head`: the parameter
/// and its index), its value when `value`.
fn rtc_param(o: &mut Out<'_>, d: &[u8], head: bool, value: bool) -> bool {
    if d.len() < 24 {
        return false;
    }
    let param = u64at(d, 0);
    let v = u64at(d, 8);
    o.put("{");
    if head {
        o.put("param=");
        o.xval(param, RTC_PARAMS, "RTC_PARAM_???");
    }
    if value {
        if head {
            o.put(", ");
        }
        match param {
            0 => {
                o.put("uvalue=");
                o.flags(v, RTC_FEATURES, "1<<RTC_FEATURE_???");
            }
            1 => {
                let _ = write!(o.s, "svalue={}", v as i64);
            }
            2 => {
                o.put("uvalue=");
                o.xval(v, RTC_BSMS, "RTC_BSM_???");
            }
            _ => {
                o.put("uvalue=");
                fmt::hex(o.s, v);
            }
        }
    }
    if head {
        let _ = write!(o.s, ", index={}", u32at(d, 16));
    }
    let pad = u32at(d, 20);
    if pad != 0 {
        let _ = write!(o.s, ", __pad={pad:#x}");
    }
    o.put("}");
    true
}

/// RTC_PARAM_GET: the parameter asked for, ` => ` its value.
fn rtc_param_get(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    w.sep();
    let d = input(w, 0x40187013);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    match d {
        Some(d) if rtc_param(&mut o, &d, true, false) => {}
        _ => {
            fmt::ptr(&mut w.s, v);
            return;
        }
    }
    if !w.exiting_inside() {
        return;
    }
    w.s.push_str(" => ");
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let d = output(w, 0x40187013);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    match d {
        Some(d) if !failed && rtc_param(&mut o, &d, false, true) => {}
        _ => fmt::ptr(&mut w.s, v),
    }
}

// ---- 'f': fs_f_ioctl ----

static FS_IOC_FLAGS: &[(u64, &str)] = &[
    (0x00000001, "FS_SECRM_FL"),
    (0x00000002, "FS_UNRM_FL"),
    (0x00000004, "FS_COMPR_FL"),
    (0x00000008, "FS_SYNC_FL"),
    (0x00000010, "FS_IMMUTABLE_FL"),
    (0x00000020, "FS_APPEND_FL"),
    (0x00000040, "FS_NODUMP_FL"),
    (0x00000080, "FS_NOATIME_FL"),
    (0x00000100, "FS_DIRTY_FL"),
    (0x00000200, "FS_COMPRBLK_FL"),
    (0x00000400, "FS_NOCOMP_FL"),
    (0x00000800, "FS_ENCRYPT_FL"),
    (0x00001000, "FS_INDEX_FL"),
    (0x00002000, "FS_IMAGIC_FL"),
    (0x00004000, "FS_JOURNAL_DATA_FL"),
    (0x00008000, "FS_NOTAIL_FL"),
    (0x00010000, "FS_DIRSYNC_FL"),
    (0x00020000, "FS_TOPDIR_FL"),
    (0x00040000, "FS_HUGE_FILE_FL"),
    (0x00080000, "FS_EXTENT_FL"),
    (0x00100000, "FS_VERITY_FL"),
    (0x00200000, "FS_EA_INODE_FL"),
    (0x00400000, "FS_EOFBLOCKS_FL"),
    (0x00800000, "FS_NOCOW_FL"),
    (0x02000000, "FS_DAX_FL"),
    (0x10000000, "FS_INLINE_DATA_FL"),
    (0x20000000, "FS_PROJINHERIT_FL"),
    (0x40000000, "FS_CASEFOLD_FL"),
    (0x80000000, "FS_RESERVED_FL"),
];

fn fs_f(req: u32) -> Option<How> {
    Some(match req {
        // FS_IOC_GETFLAGS, FS_IOC32_GETFLAGS
        0x80086601 | 0x80046601 => How::Out(fs_ioc_flags),
        // FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS
        0x40086602 | 0x40046602 => How::In(fs_ioc_flags),
        0xc020660b => How::Custom(fiemap), // FS_IOC_FIEMAP
        _ => How::Hex,
    })
}

static FIEMAP_FLAGS: &[(u64, &str)] = &[
    (1, "FIEMAP_FLAG_SYNC"),
    (2, "FIEMAP_FLAG_XATTR"),
    (4, "FIEMAP_FLAG_CACHE"),
];

static FIEMAP_EXTENT_FLAGS: &[(u64, &str)] = &[
    (0x1, "FIEMAP_EXTENT_LAST"),
    (0x2, "FIEMAP_EXTENT_UNKNOWN"),
    (0x4, "FIEMAP_EXTENT_DELALLOC"),
    (0x8, "FIEMAP_EXTENT_ENCODED"),
    (0x80, "FIEMAP_EXTENT_DATA_ENCRYPTED"),
    (0x100, "FIEMAP_EXTENT_NOT_ALIGNED"),
    (0x200, "FIEMAP_EXTENT_DATA_INLINE"),
    (0x400, "FIEMAP_EXTENT_DATA_TAIL"),
    (0x800, "FIEMAP_EXTENT_UNWRITTEN"),
    (0x1000, "FIEMAP_EXTENT_MERGED"),
    (0x2000, "FIEMAP_EXTENT_SHARED"),
];

/// FS_IOC_FIEMAP: the range asked, then (on success) what was mapped; the
/// extents themselves under -v.
fn fiemap(w: &mut ArgWriter<'_>) {
    let req = 0xc020660b;
    let v = w.call.args[2];
    let x = w.opts.xlat;
    w.sep();
    let Some(d) = fiemap_input(w) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let _ = write!(
        w.s,
        "{{fm_start={}, fm_length={}, fm_flags=",
        u64at(&d, 0),
        u64at(&d, 8)
    );
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose: false,
        strsize: 0,
    };
    o.flags(u32at(&d, 16), FIEMAP_FLAGS, "FIEMAP_FLAG_???");
    let _ = write!(w.s, ", fm_extent_count={}}}", u32at(&d, 24));
    if !w.exiting_inside() || w.call.ret().is_some_and(|r| r < 0) {
        return;
    }
    w.s.push_str(" => ");
    let d = match w.call.exit.and_then(|(_, caps)| fiemap_copy(caps)) {
        Some(Some(d)) => Some(d),
        Some(None) => None,
        None => output(w, req),
    };
    let Some(d) = d.filter(|d| d.len() >= FIEMAP_HEAD) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let mapped = u32at(&d, 20);
    w.s.push_str("{fm_flags=");
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose: false,
        strsize: 0,
    };
    o.flags(u32at(&d, 16), FIEMAP_FLAGS, "FIEMAP_FLAG_???");
    let _ = write!(w.s, ", fm_mapped_extents={mapped}, ");
    if !w.opts.verbose {
        w.s.push_str("...}");
        return;
    }
    // the extents after the header: from the exit's copy, else (beyond
    // it) from the live process, each as far as readable
    const EXTENT: usize = 56;
    let at = v + FIEMAP_HEAD as u64;
    let read = |k: usize| {
        let off = FIEMAP_HEAD + k * EXTENT;
        if let Some(e) = d.get(off..off + EXTENT) {
            return Some(e.to_vec());
        }
        w.env
            .read_mem
            .and_then(|r| r(at + (k * EXTENT) as u64, EXTENT))
            .filter(|e| e.len() >= EXTENT)
    };
    // up to the first unreadable one
    let extents: Vec<Option<Vec<u8>>> = (0..mapped as usize)
        .map(read)
        .scan(true, |ok, e| {
            if !*ok {
                return None;
            }
            *ok = e.is_some();
            Some(e)
        })
        .collect();
    w.s.push_str("fm_extents=");
    if mapped == 0 {
        w.s.push_str("[]}");
        return;
    }
    if extents.first().is_none_or(|e| e.is_none()) {
        fmt::ptr(&mut w.s, at);
        w.s.push('}');
        return;
    }
    w.s.push('[');
    for (k, e) in extents.iter().enumerate() {
        if k > 0 {
            w.s.push_str(", ");
        }
        let Some(e) = e else {
            let _ = write!(w.s, "... /* {:#x} */", at + (k * EXTENT) as u64);
            break;
        };
        let _ = write!(
            w.s,
            "{{fe_logical={}, fe_physical={}, fe_length={}, fe_flags=",
            u64at(e, 0),
            u64at(e, 8),
            u64at(e, 16)
        );
        let mut o = Out {
            s: &mut w.s,
            x,
            verbose: false,
            strsize: 0,
        };
        o.flags(u32at(e, 40), FIEMAP_EXTENT_FLAGS, "FIEMAP_EXTENT_???");
        w.s.push('}');
    }
    w.s.push_str("]}");
}

/// struct fiemap's header.
const FIEMAP_HEAD: usize = 32;
/// What BPF copies of FS_IOC_FIEMAP's argument: the header and 20 extents.
const FIEMAP_COPY: u32 = (FIEMAP_HEAD + 20 * 56) as u32;

/// FS_IOC_FIEMAP's copy in `caps`: None when BPF did not try; Some(None)
/// when not even the header was readable. The copy is of the header and
/// the extents after it, so a copy that faulted past the header (the
/// extents' memory ending before the copy's) still holds the header.
fn fiemap_copy(caps: &[super::Capture]) -> Option<Option<Vec<u8>>> {
    caps.iter()
        .find(|c| c.arg == 2 && c.item == super::CaptureItem::Data)
        .map(|c| (c.data.len() >= FIEMAP_HEAD).then(|| c.data.clone()))
}

/// What the kernel reads of FS_IOC_FIEMAP's argument (see [`input`]).
fn fiemap_input(w: &ArgWriter<'_>) -> Option<Vec<u8>> {
    if let Some(d) = fiemap_copy(w.call.enter) {
        return d;
    }
    if let Some(d) = w.call.exit.and_then(|(_, caps)| fiemap_copy(caps)) {
        return d;
    }
    let v = w.call.args[2];
    w.env
        .read_mem
        .filter(|_| v != 0)
        .and_then(|read| read(v, FIEMAP_HEAD))
        .filter(|d| d.len() >= FIEMAP_HEAD)
}

fn fs_ioc_flags(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 4 {
        return false;
    }
    o.put("[");
    o.flags(u32at(d, 0), FS_IOC_FLAGS, "FS_???_FL");
    o.put("]");
    true
}

// ---- 0xb4: gpio ----

static GPIO_EVENT_FLAGS: &[(u64, &str)] = &[
    (3, "GPIOEVENT_REQUEST_BOTH_EDGES"),
    (1, "GPIOEVENT_REQUEST_RISING_EDGE"),
    (2, "GPIOEVENT_REQUEST_FALLING_EDGE"),
];

static GPIO_HANDLE_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "GPIOHANDLE_REQUEST_INPUT"),
    (1 << 1, "GPIOHANDLE_REQUEST_OUTPUT"),
    (1 << 2, "GPIOHANDLE_REQUEST_ACTIVE_LOW"),
    (1 << 3, "GPIOHANDLE_REQUEST_OPEN_DRAIN"),
    (1 << 4, "GPIOHANDLE_REQUEST_OPEN_SOURCE"),
    (1 << 5, "GPIOHANDLE_REQUEST_BIAS_PULL_UP"),
    (1 << 6, "GPIOHANDLE_REQUEST_BIAS_PULL_DOWN"),
    (1 << 7, "GPIOHANDLE_REQUEST_BIAS_DISABLE"),
];

static GPIO_LINE_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "GPIOLINE_FLAG_KERNEL"),
    (1 << 1, "GPIOLINE_FLAG_IS_OUT"),
    (1 << 2, "GPIOLINE_FLAG_ACTIVE_LOW"),
    (1 << 3, "GPIOLINE_FLAG_OPEN_DRAIN"),
    (1 << 4, "GPIOLINE_FLAG_OPEN_SOURCE"),
    (1 << 5, "GPIOLINE_FLAG_BIAS_PULL_UP"),
    (1 << 6, "GPIOLINE_FLAG_BIAS_PULL_DOWN"),
    (1 << 7, "GPIOLINE_FLAG_BIAS_DISABLE"),
];

static GPIO_V2_LINE_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "GPIO_V2_LINE_FLAG_USED"),
    (1 << 1, "GPIO_V2_LINE_FLAG_ACTIVE_LOW"),
    (1 << 2, "GPIO_V2_LINE_FLAG_INPUT"),
    (1 << 3, "GPIO_V2_LINE_FLAG_OUTPUT"),
    (1 << 4, "GPIO_V2_LINE_FLAG_EDGE_RISING"),
    (1 << 5, "GPIO_V2_LINE_FLAG_EDGE_FALLING"),
    (1 << 6, "GPIO_V2_LINE_FLAG_OPEN_DRAIN"),
    (1 << 7, "GPIO_V2_LINE_FLAG_OPEN_SOURCE"),
    (1 << 8, "GPIO_V2_LINE_FLAG_BIAS_PULL_UP"),
    (1 << 9, "GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN"),
    (1 << 10, "GPIO_V2_LINE_FLAG_BIAS_DISABLED"),
    (1 << 11, "GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME"),
    (1 << 12, "GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE"),
];

/// Checks a struct's size; false (the address printed) when short.
fn need(d: &[u8], n: usize) -> bool {
    d.len() >= n
}

fn gpio(req: u32) -> Option<How> {
    Some(match req {
        // GPIO_GET_CHIPINFO_IOCTL
        0x8044b401 => How::Out(|o, d| {
            if !need(d, 68) {
                return false;
            }
            o.put("{name=");
            o.cstring(&d[..32]);
            o.put(", label=");
            o.cstring(&d[32..64]);
            let _ = write!(o.s, ", lines={}}}", u32at(d, 64));
            true
        }),
        // GPIO_GET_LINEINFO_UNWATCH_IOCTL
        0xc004b40c => How::In(|o, d| {
            if !need(d, 4) {
                return false;
            }
            let _ = write!(o.s, "{{offset={}}}", u32at(d, 0));
            true
        }),
        // GPIO_V2_GET_LINEINFO_IOCTL, GPIO_V2_GET_LINEINFO_WATCH_IOCTL
        0xc100b405 | 0xc100b406 => How::InOut(
            |o, d| {
                if !need(d, 256) {
                    return false;
                }
                let _ = write!(o.s, "{{offset={}}}", u32at(d, 64));
                true
            },
            gpio_v2_line_info,
        ),
        0xc250b407 => How::InOut(gpio_v2_line_request, fd_field(588)), // GPIO_V2_GET_LINE_IOCTL
        // GPIO_V2_LINE_SET_CONFIG_IOCTL
        0xc110b40d => How::In(|o, d| {
            if !need(d, 272) {
                return false;
            }
            gpio_v2_line_config(o, d);
            true
        }),
        // GPIO_V2_LINE_GET_VALUES_IOCTL
        0xc010b40e => How::InOut(
            |o, d| {
                if !need(d, 16) {
                    return false;
                }
                let _ = write!(o.s, "{{mask={:#x}}}", u64at(d, 8));
                true
            },
            |o, d| {
                if !need(d, 16) {
                    return false;
                }
                o.put("{bits=");
                fmt::hex(o.s, u64at(d, 0));
                o.put("}");
                true
            },
        ),
        // GPIO_V2_LINE_SET_VALUES_IOCTL
        0xc010b40f => How::In(|o, d| {
            if !need(d, 16) {
                return false;
            }
            o.put("{bits=");
            fmt::hex(o.s, u64at(d, 0));
            o.put(", mask=");
            fmt::hex(o.s, u64at(d, 8));
            o.put("}");
            true
        }),
        // GPIO_GET_LINEINFO_IOCTL, GPIO_GET_LINEINFO_WATCH_IOCTL
        0xc048b402 | 0xc048b40b => How::InOut(
            |o, d| {
                if !need(d, 72) {
                    return false;
                }
                let _ = write!(o.s, "{{line_offset={}}}", u32at(d, 0));
                true
            },
            |o, d| {
                if !need(d, 72) {
                    return false;
                }
                o.put("{flags=");
                o.flags(u32at(d, 4), GPIO_LINE_FLAGS, "GPIOLINE_FLAG_???");
                o.put(", name=");
                o.cstring(&d[8..40]);
                o.put(", consumer=");
                o.cstring(&d[40..72]);
                o.put("}");
                true
            },
        ),
        0xc16cb403 => How::InOut(gpiohandle_request, fd_field(360)), // GPIO_GET_LINEHANDLE_IOCTL
        0xc030b404 => How::InOut(gpioevent_request, fd_field(44)),   // GPIO_GET_LINEEVENT_IOCTL
        0xc040b408 => How::Out(gpiohandle_data), // GPIOHANDLE_GET_LINE_VALUES_IOCTL
        0xc040b409 => How::In(gpiohandle_data),  // GPIOHANDLE_SET_LINE_VALUES_IOCTL
        // GPIOHANDLE_SET_CONFIG_IOCTL
        0xc054b40a => How::In(|o, d| {
            if !need(d, 84) {
                return false;
            }
            o.put("{flags=");
            o.flags(u32at(d, 0), GPIO_HANDLE_FLAGS, "GPIOHANDLE_REQUEST_???");
            o.put(", default_values=");
            o.array(64, |o, k| {
                let _ = write!(o.s, "{}", d[4 + k]);
            });
            o.put("}");
            true
        }),
        _ => How::Hex,
    })
}

/// `{fd=N}` of the int at `at`.
fn fd_field(at: usize) -> Shape {
    match at {
        588 => |o, d| fd_at(o, d, 588),
        360 => |o, d| fd_at(o, d, 360),
        _ => |o, d| fd_at(o, d, 44),
    }
}

fn fd_at(o: &mut Out<'_>, d: &[u8], at: usize) -> bool {
    if !need(d, at + 4) {
        return false;
    }
    let _ = write!(o.s, "{{fd={}}}", i32at(d, at));
    true
}

fn gpiohandle_data(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 64) {
        return false;
    }
    o.put("{values=");
    o.array(64, |o, k| {
        let _ = write!(o.s, "{}", d[k]);
    });
    o.put("}");
    true
}

fn gpiohandle_request(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 364) {
        return false;
    }
    let lines = u32at(d, 356);
    let n = (lines as usize).min(64);
    let _ = write!(o.s, "{{lines={lines}, lineoffsets=");
    o.array(n, |o, k| {
        let _ = write!(o.s, "{}", u32at(d, 4 * k));
    });
    o.put(", flags=");
    o.flags(u32at(d, 256), GPIO_HANDLE_FLAGS, "GPIOHANDLE_REQUEST_???");
    o.put(", default_values=");
    o.array(n, |o, k| {
        let _ = write!(o.s, "{}", d[260 + k]);
    });
    o.put(", consumer_label=");
    o.cstring(&d[324..356]);
    o.put("}");
    true
}

fn gpioevent_request(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 48) {
        return false;
    }
    let _ = write!(o.s, "{{lineoffset={}, handleflags=", u32at(d, 0));
    o.flags(u32at(d, 4), GPIO_HANDLE_FLAGS, "GPIOHANDLE_REQUEST_???");
    o.put(", eventflags=");
    o.flags(u32at(d, 8), GPIO_EVENT_FLAGS, "GPIOEVENT_REQUEST_???");
    o.put(", consumer_label=");
    o.cstring(&d[12..44]);
    o.put("}");
    true
}

/// struct gpio_v2_line_attribute (16 bytes at `d`); `field`: inside a
/// config attribute, where the raw form is wrapped in `attr={...}`.
fn gpio_v2_attr(o: &mut Out<'_>, d: &[u8], field: bool) {
    let id = u32at(d, 0);
    let pad = u32at(d, 4);
    let val = u64at(d, 8);
    match id {
        1 if pad == 0 => {
            o.put("flags=");
            o.flags(val, GPIO_V2_LINE_FLAGS, "GPIO_V2_LINE_FLAG_???");
        }
        2 if pad == 0 => {
            o.put("values=");
            fmt::hex(o.s, val);
        }
        3 if pad == 0 => {
            let _ = write!(o.s, "debounce_period_us={}", u32at(d, 8));
        }
        _ => {
            if field {
                o.put("attr={");
            }
            let _ = write!(o.s, "id={id}");
            if pad != 0 {
                let _ = write!(o.s, ", padding={pad:#x}");
            }
            o.put(", data=");
            fmt::hex(o.s, val);
            if field {
                o.put("}");
            }
        }
    }
}

/// struct gpio_v2_line_config (272 bytes at `d`).
fn gpio_v2_line_config(o: &mut Out<'_>, d: &[u8]) {
    o.put("{flags=");
    o.flags(u64at(d, 0), GPIO_V2_LINE_FLAGS, "GPIO_V2_LINE_FLAG_???");
    let num = u32at(d, 8);
    let _ = write!(o.s, ", num_attrs={num}");
    o.nonzero_u32s("padding", d, 12, 5);
    if num != 0 {
        o.put(", attrs=");
        o.array((num as usize).min(10), |o, k| {
            let a = &d[32 + 24 * k..];
            o.put("{");
            gpio_v2_attr(o, a, true);
            o.put(", mask=");
            fmt::hex(o.s, u64at(a, 16));
            o.put("}");
        });
    }
    o.put("}");
}

fn gpio_v2_line_info(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 256) {
        return false;
    }
    o.put("{name=");
    o.cstring(&d[..32]);
    o.put(", consumer=");
    o.cstring(&d[32..64]);
    o.put(", flags=");
    o.flags(u64at(d, 72), GPIO_V2_LINE_FLAGS, "GPIO_V2_LINE_FLAG_???");
    let num = u32at(d, 68);
    let _ = write!(o.s, ", num_attrs={num}");
    if num != 0 {
        o.put(", attrs=");
        o.array((num as usize).min(10), |o, k| {
            o.put("{");
            gpio_v2_attr(o, &d[80 + 16 * k..], false);
            o.put("}");
        });
    }
    o.nonzero_u32s("padding", d, 240, 4);
    o.put("}");
    true
}

fn gpio_v2_line_request(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 592) {
        return false;
    }
    let num = u32at(d, 560);
    let _ = write!(o.s, "{{num_lines={num}, offsets=");
    o.array((num as usize).min(64), |o, k| {
        let _ = write!(o.s, "{}", u32at(d, 4 * k));
    });
    o.put(", consumer=");
    o.cstring(&d[256..288]);
    o.put(", config=");
    gpio_v2_line_config(o, &d[288..560]);
    let ebs = u32at(d, 564);
    if ebs != 0 {
        let _ = write!(o.s, ", event_buffer_size={ebs}");
    }
    o.nonzero_u32s("padding", d, 568, 5);
    o.put("}");
    true
}

// ---- '!': seccomp ----

pub(super) static AUDIT_ARCHES: &[(u64, &str)] = &[
    (0xc00000b7, "AUDIT_ARCH_AARCH64"),
    (0xc0009026, "AUDIT_ARCH_ALPHA"),
    (0x4000005d, "AUDIT_ARCH_ARCOMPACT"),
    (0x5d, "AUDIT_ARCH_ARCOMPACTBE"),
    (0x400000c3, "AUDIT_ARCH_ARCV2"),
    (0xc3, "AUDIT_ARCH_ARCV2BE"),
    (0x40000028, "AUDIT_ARCH_ARM"),
    (0x28, "AUDIT_ARCH_ARMEB"),
    (0x4000008c, "AUDIT_ARCH_C6X"),
    (0x8c, "AUDIT_ARCH_C6XBE"),
    (0x4000004c, "AUDIT_ARCH_CRIS"),
    (0x400000fc, "AUDIT_ARCH_CSKY"),
    (0x5441, "AUDIT_ARCH_FRV"),
    (0x2e, "AUDIT_ARCH_H8300"),
    (0xa4, "AUDIT_ARCH_HEXAGON"),
    (0x40000003, "AUDIT_ARCH_I386"),
    (0xc0000032, "AUDIT_ARCH_IA64"),
    (0x40000102, "AUDIT_ARCH_LOONGARCH32"),
    (0xc0000102, "AUDIT_ARCH_LOONGARCH64"),
    (0x58, "AUDIT_ARCH_M32R"),
    (0x4, "AUDIT_ARCH_M68K"),
    (0xbd, "AUDIT_ARCH_MICROBLAZE"),
    (0x8, "AUDIT_ARCH_MIPS"),
    (0x80000008, "AUDIT_ARCH_MIPS64"),
    (0xa0000008, "AUDIT_ARCH_MIPS64N32"),
    (0x40000008, "AUDIT_ARCH_MIPSEL"),
    (0xc0000008, "AUDIT_ARCH_MIPSEL64"),
    (0xe0000008, "AUDIT_ARCH_MIPSEL64N32"),
    (0x400000a7, "AUDIT_ARCH_NDS32"),
    (0xa7, "AUDIT_ARCH_NDS32BE"),
    (0x40000071, "AUDIT_ARCH_NIOS2"),
    (0x5c, "AUDIT_ARCH_OPENRISC"),
    (0xf, "AUDIT_ARCH_PARISC"),
    (0x8000000f, "AUDIT_ARCH_PARISC64"),
    (0x14, "AUDIT_ARCH_PPC"),
    (0x80000015, "AUDIT_ARCH_PPC64"),
    (0xc0000015, "AUDIT_ARCH_PPC64LE"),
    (0x400000f3, "AUDIT_ARCH_RISCV32"),
    (0xc00000f3, "AUDIT_ARCH_RISCV64"),
    (0x16, "AUDIT_ARCH_S390"),
    (0x80000016, "AUDIT_ARCH_S390X"),
    (0x2a, "AUDIT_ARCH_SH"),
    (0x8000002a, "AUDIT_ARCH_SH64"),
    (0x4000002a, "AUDIT_ARCH_SHEL"),
    (0xc000002a, "AUDIT_ARCH_SHEL64"),
    (0x2, "AUDIT_ARCH_SPARC"),
    (0x8000002b, "AUDIT_ARCH_SPARC64"),
    (0xc00000bf, "AUDIT_ARCH_TILEGX"),
    (0x400000bf, "AUDIT_ARCH_TILEGX32"),
    (0x400000bc, "AUDIT_ARCH_TILEPRO"),
    (0x4000006e, "AUDIT_ARCH_UNICORE"),
    (0xc000003e, "AUDIT_ARCH_X86_64"),
    (0x5e, "AUDIT_ARCH_XTENSA"),
];

static SECCOMP_RESP_FLAGS: &[(u64, &str)] = &[(1, "SECCOMP_USER_NOTIF_FLAG_CONTINUE")];

static SECCOMP_ADDFD_FLAGS: &[(u64, &str)] = &[
    (1, "SECCOMP_ADDFD_FLAG_SETFD"),
    (2, "SECCOMP_ADDFD_FLAG_SEND"),
];

fn seccomp(req: u32) -> Option<How> {
    Some(match req {
        0xc0502100 => How::Custom(seccomp_notif_recv), // SECCOMP_IOCTL_NOTIF_RECV
        // SECCOMP_IOCTL_NOTIF_SEND
        0xc0182101 => How::In(|o, d| {
            if !need(d, 24) {
                return false;
            }
            o.put("{id=");
            fmt::hex(o.s, u64at(d, 0));
            let _ = write!(o.s, ", val={}, error=", u64at(d, 8) as i64);
            let e = i32at(d, 16);
            match crate::consts::errno_name(-e as i32).filter(|_| e < 0) {
                Some((name, _)) => match o.x {
                    Xlat::Abbrev => {
                        let _ = write!(o.s, "-{name}");
                    }
                    Xlat::Raw => {
                        let _ = write!(o.s, "{e}");
                    }
                    Xlat::Verbose => {
                        let _ = write!(o.s, "{e} /* -{name} */");
                    }
                },
                None => {
                    let _ = write!(o.s, "{e}");
                }
            }
            o.put(", flags=");
            o.flags(
                u32at(d, 20),
                SECCOMP_RESP_FLAGS,
                "SECCOMP_USER_NOTIF_FLAG_???",
            );
            o.put("}");
            true
        }),
        // SECCOMP_IOCTL_NOTIF_ID_VALID, and with the wrong direction
        0x40082102 | 0x80082102 => How::In(|o, d| {
            if !need(d, 8) {
                return false;
            }
            o.put("[");
            fmt::hex(o.s, u64at(d, 0));
            o.put("]");
            true
        }),
        0x40182103 => How::Custom(seccomp_notif_addfd), // SECCOMP_IOCTL_NOTIF_ADDFD
        _ => How::Hex,
    })
}

/// struct seccomp_notif (80 bytes).
fn seccomp_notif(o: &mut Out<'_>, d: &[u8]) {
    o.put("{id=");
    fmt::hex(o.s, u64at(d, 0));
    let _ = write!(o.s, ", pid={}, flags=", i32at(d, 8));
    fmt::hex(o.s, u32at(d, 12));
    o.put(", data={nr=");
    // the call's name when the architecture is this one's
    let nr = u32at(d, 16);
    let arch = u32at(d, 20);
    let name = (arch == 0xc000003e)
        .then(|| crate::table::by_nr(nr as u32).map(|c| c.name))
        .flatten();
    match (name, o.x) {
        (Some(n), Xlat::Abbrev) => {
            let _ = write!(o.s, "__NR_{n}");
        }
        (Some(n), Xlat::Verbose) => {
            let _ = write!(o.s, "{nr} /* __NR_{n} */");
        }
        _ => {
            let _ = write!(o.s, "{nr}");
        }
    }
    o.put(", arch=");
    o.xval(arch, AUDIT_ARCHES, "AUDIT_ARCH_???");
    o.put(", instruction_pointer=");
    fmt::ptr(o.s, u64at(d, 24));
    o.put(", args=");
    o.array(6, |o, k| fmt::hex(o.s, u64at(d, 32 + 8 * k)));
    o.put("}}");
}

/// SECCOMP_IOCTL_NOTIF_RECV: what the caller left there when not all zero,
/// ` => ` what the kernel put.
fn seccomp_notif_recv(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    w.sep();
    let d = input(w, 0xc0502100);
    let Some(d) = d.filter(|d| d.len() >= 80) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    if d.iter().any(|&b| b != 0) {
        let mut o = Out {
            s: &mut w.s,
            x,
            verbose,
            strsize,
        };
        seccomp_notif(&mut o, &d);
        w.s.push_str(" => ");
    }
    if !w.exiting_inside() {
        return;
    }
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let d = output(w, 0xc0502100);
    match d {
        Some(d) if !failed && d.len() >= 80 => {
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            seccomp_notif(&mut o, &d);
        }
        _ => fmt::ptr(&mut w.s, v),
    }
}

/// SECCOMP_IOCTL_NOTIF_ADDFD: the descriptor with its path under -y.
fn seccomp_notif_addfd(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    let x = w.opts.xlat;
    w.sep();
    let Some(d) = input(w, 0x40182103).filter(|d| d.len() >= 24) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    w.s.push_str("{id=");
    fmt::hex(&mut w.s, u64at(&d, 0));
    w.s.push_str(", flags=");
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose: false,
        strsize: 0,
    };
    o.flags(u32at(&d, 8), SECCOMP_ADDFD_FLAGS, "SECCOMP_ADDFD_FLAG_???");
    w.s.push_str(", srcfd=");
    super::fd(&mut w.s, i32at(&d, 12) as i32, w.env.fd_path);
    let _ = write!(w.s, ", newfd={}, newfd_flags=", i32at(&d, 16));
    fmt::flags(&mut w.s, u32at(&d, 20), crate::consts::OPEN_FLAGS, None, x);
    w.s.push('}');
}

// ---- '=': ptp ----

static PTP_EXTTS_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "PTP_ENABLE_FEATURE"),
    (1 << 1, "PTP_RISING_EDGE"),
    (1 << 2, "PTP_FALLING_EDGE"),
    (1 << 3, "PTP_STRICT_FLAGS"),
];

static PTP_PEROUT_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "PTP_PEROUT_ONE_SHOT"),
    (1 << 1, "PTP_PEROUT_DUTY_CYCLE"),
    (1 << 2, "PTP_PEROUT_PHASE"),
];

static PTP_PIN_FUNCS: &[(u64, &str)] = &[
    (0, "PTP_PF_NONE"),
    (1, "PTP_PF_EXTTS"),
    (2, "PTP_PF_PEROUT"),
    (3, "PTP_PF_PHYSYNC"),
];

/// ` /* 2124-11-08T05:45:45.123456789+0000 */`, as strace comments a
/// realtime clock's time (in UTC; none for an invalid nsec or for zero).
fn time_comment(o: &mut Out<'_>, sec: i64, nsec: u64) {
    if o.x == Xlat::Raw || nsec >= 1_000_000_000 || (sec == 0 && nsec == 0) {
        return;
    }
    let (y, m, d) = fmt::civil(sec.div_euclid(86_400));
    let t = sec.rem_euclid(86_400);
    let _ = write!(
        o.s,
        " /* {y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        t / 3600,
        t / 60 % 60,
        t % 60
    );
    if nsec != 0 {
        let _ = write!(o.s, ".{nsec:09}");
    }
    o.put("+0000 */");
}

/// struct ptp_clock_time (16 bytes at `d`), with the time in a comment for
/// a realtime one.
fn ptp_time(o: &mut Out<'_>, d: &[u8], rtc: bool) {
    let sec = u64at(d, 0) as i64;
    let nsec = u32at(d, 8);
    let _ = write!(o.s, "{{sec={sec}, nsec={nsec}");
    let rsv = u32at(d, 12);
    if rsv != 0 {
        let _ = write!(o.s, ", reserved={rsv:#x}");
    }
    o.put("}");
    if rtc {
        time_comment(o, sec, nsec);
    }
}

fn ptp(req: u32) -> Option<How> {
    Some(match req {
        0x80503d01 | 0x80503d0a => How::Out(ptp_caps), // PTP_CLOCK_GETCAPS{,2}
        0x40103d02 => How::In(|o, d| ptp_extts(o, d, false)), // PTP_EXTTS_REQUEST
        0x40103d0b => How::In(|o, d| ptp_extts(o, d, true)), // PTP_EXTTS_REQUEST2
        0x40383d03 => How::In(|o, d| ptp_perout(o, d, false)), // PTP_PEROUT_REQUEST
        0x40383d0c => How::In(|o, d| ptp_perout(o, d, true)), // PTP_PEROUT_REQUEST2
        0x43403d05 | 0x43403d0e => How::Custom(|w| ptp_sys_offset(w, false)), // PTP_SYS_OFFSET{,2}
        0xc4c03d09 | 0xc4c03d12 => How::Custom(|w| ptp_sys_offset(w, true)), // _EXTENDED{,2}
        0xc0603d06 | 0xc0603d0f => How::Custom(ptp_pin_getfunc), // PTP_PIN_GETFUNC{,2}
        0x40603d07 => How::In(|o, d| ptp_pin(o, d, true, false, false)), // PTP_PIN_SETFUNC
        0x40603d10 => How::In(|o, d| ptp_pin(o, d, true, false, true)), // PTP_PIN_SETFUNC2
        0xc0403d08 | 0xc0403d11 => How::Out(ptp_precise), // PTP_SYS_OFFSET_PRECISE{,2}
        _ => How::Hex,
    })
}

fn ptp_caps(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 80) {
        return false;
    }
    let f = |k: usize| i32at(d, 4 * k);
    let _ = write!(
        o.s,
        "{{max_adj={}, n_alarm={}, n_ext_ts={}, n_per_out={}, pps={}, n_pins={}, \
         cross_timestamping={}, adjust_phase={}",
        f(0),
        f(1),
        f(2),
        f(3),
        f(4),
        f(5),
        f(6),
        f(7)
    );
    o.nonzero_u32s("rsv", d, 32, 12);
    o.put("}");
    true
}

fn ptp_extts(o: &mut Out<'_>, d: &[u8], two: bool) -> bool {
    if !need(d, 16) {
        return false;
    }
    let _ = write!(o.s, "{{index={}, flags=", u32at(d, 0));
    o.flags(u32at(d, 4), PTP_EXTTS_FLAGS, "PTP_???");
    if two {
        o.nonzero_u32s("rsv", d, 8, 2);
    }
    o.put("}");
    true
}

fn ptp_perout(o: &mut Out<'_>, d: &[u8], two: bool) -> bool {
    if !need(d, 56) {
        return false;
    }
    let flags = u32at(d, 36);
    if flags & 4 != 0 {
        o.put("{phase=");
        ptp_time(o, d, false);
    } else {
        o.put("{start=");
        ptp_time(o, d, true);
    }
    o.put(", period=");
    ptp_time(o, &d[16..], false);
    let _ = write!(o.s, ", index={}, flags=", u32at(d, 32));
    o.flags(flags, PTP_PEROUT_FLAGS, "PTP_PEROUT_???");
    if flags & 2 != 0 {
        o.put(", on=");
        ptp_time(o, &d[40..], false);
    } else if two {
        o.nonzero_u32s("rsv", d, 40, 4);
    }
    o.put("}");
    true
}

/// struct ptp_pin_desc: `set` the fields a setter gives, `name` the one a
/// getter gets, `rsv` the reserved words when not zero.
fn ptp_pin(o: &mut Out<'_>, d: &[u8], head: bool, name: bool, rsv: bool) -> bool {
    if !need(d, 96) {
        return false;
    }
    if head {
        let _ = write!(o.s, "{{index={}", u32at(d, 64));
    }
    if name {
        o.put(", name=");
        o.cstring(&d[..64]);
    }
    o.put(", func=");
    o.xval(u32at(d, 68), PTP_PIN_FUNCS, "PTP_PF_???");
    let _ = write!(o.s, ", chan={}", u32at(d, 72));
    if rsv {
        o.nonzero_u32s("rsv", d, 76, 5);
    }
    o.put("}");
    true
}

fn ptp_writer<'a>(w: &'a mut ArgWriter<'_>) -> Out<'a> {
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    }
}

/// PTP_PIN_GETFUNC{,2}: the index asked, then what the kernel tells of it.
fn ptp_pin_getfunc(w: &mut ArgWriter<'_>) {
    let req = w.call.args[1] as u32;
    let v = w.call.args[2];
    w.sep();
    let Some(d) = input(w, req).filter(|d| d.len() >= 96) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let _ = write!(w.s, "{{index={}", u32at(&d, 64));
    if req == 0xc0603d0f {
        ptp_writer(w).nonzero_u32s("rsv", &d, 76, 5);
    }
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r < 0) {
        w.s.push('}');
        return;
    }
    match output(w, req).filter(|d| d.len() >= 96) {
        Some(d) => {
            ptp_pin(&mut ptp_writer(w), &d, false, true, false);
        }
        None => w.s.push_str(", ???}"),
    }
}

/// PTP_SYS_OFFSET{,2} and _EXTENDED{,2}: the samples asked, then the times.
fn ptp_sys_offset(w: &mut ArgWriter<'_>, extended: bool) {
    let req = w.call.args[1] as u32;
    let v = w.call.args[2];
    let size = if extended { 1216 } else { 832 };
    w.sep();
    // BPF copies the whole struct: a shorter copy means the rest was not
    // readable
    let whole = |d: &Vec<u8>| d.len() >= size;
    let Some(d) = input(w, req).filter(whole) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let _ = write!(w.s, "{{n_samples={}", u32at(&d, 0));
    ptp_writer(w).nonzero_u32s("rsv", &d, 4, 3);
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r < 0) {
        w.s.push('}');
        return;
    }
    let Some(d) = output(w, req).filter(whole) else {
        w.s.push_str(", ???}");
        return;
    };
    let n = (u32at(&d, 0) as usize).min(25);
    let have = (d.len() - 16) / 16;
    w.s.push_str(", ts=");
    let mut o = ptp_writer(w);
    if extended {
        o.array(n, |o, k| {
            if 3 * k + 3 > have {
                o.put("???");
                return;
            }
            o.put("[");
            for j in 0..3 {
                if j > 0 {
                    o.put(", ");
                }
                ptp_time(o, &d[16 + 48 * k + 16 * j..], true);
            }
            o.put("]");
        });
    } else {
        o.array(2 * n + 1, |o, k| ptp_time(o, &d[16 + 16 * k..], true));
    }
    o.put("}");
}

fn ptp_precise(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 64) {
        return false;
    }
    o.put("{device=");
    ptp_time(o, d, true);
    o.put(", sys_realtime=");
    ptp_time(o, &d[16..], true);
    o.put(", sys_monoraw=");
    ptp_time(o, &d[32..], false);
    o.nonzero_u32s("rsv", d, 48, 4);
    o.put("}");
    true
}

// ---- 'E': evdev ----

static EVDEV_KEYS: &[(u64, &str)] = &[
    (0, "KEY_RESERVED"),
    (0x1, "KEY_ESC"),
    (0x2, "KEY_1"),
    (0x3, "KEY_2"),
    (0x4, "KEY_3"),
    (0x5, "KEY_4"),
    (0x6, "KEY_5"),
    (0x7, "KEY_6"),
    (0x8, "KEY_7"),
    (0x9, "KEY_8"),
    (0xa, "KEY_9"),
    (0xb, "KEY_0"),
    (0xc, "KEY_MINUS"),
    (0xd, "KEY_EQUAL"),
    (0xe, "KEY_BACKSPACE"),
    (0xf, "KEY_TAB"),
    (0x10, "KEY_Q"),
    (0x11, "KEY_W"),
    (0x12, "KEY_E"),
    (0x13, "KEY_R"),
    (0x14, "KEY_T"),
    (0x15, "KEY_Y"),
    (0x16, "KEY_U"),
    (0x17, "KEY_I"),
    (0x18, "KEY_O"),
    (0x19, "KEY_P"),
    (0x1a, "KEY_LEFTBRACE"),
    (0x1b, "KEY_RIGHTBRACE"),
    (0x1c, "KEY_ENTER"),
    (0x1d, "KEY_LEFTCTRL"),
    (0x1e, "KEY_A"),
    (0x1f, "KEY_S"),
    (0x20, "KEY_D"),
    (0x21, "KEY_F"),
    (0x22, "KEY_G"),
    (0x23, "KEY_H"),
    (0x24, "KEY_J"),
    (0x25, "KEY_K"),
    (0x26, "KEY_L"),
    (0x27, "KEY_SEMICOLON"),
    (0x28, "KEY_APOSTROPHE"),
    (0x29, "KEY_GRAVE"),
    (0x2a, "KEY_LEFTSHIFT"),
    (0x2b, "KEY_BACKSLASH"),
    (0x2c, "KEY_Z"),
    (0x2d, "KEY_X"),
    (0x2e, "KEY_C"),
    (0x2f, "KEY_V"),
    (0x30, "KEY_B"),
    (0x31, "KEY_N"),
    (0x32, "KEY_M"),
    (0x33, "KEY_COMMA"),
    (0x34, "KEY_DOT"),
    (0x35, "KEY_SLASH"),
    (0x36, "KEY_RIGHTSHIFT"),
    (0x37, "KEY_KPASTERISK"),
    (0x38, "KEY_LEFTALT"),
    (0x39, "KEY_SPACE"),
    (0x3a, "KEY_CAPSLOCK"),
    (0x3b, "KEY_F1"),
    (0x3c, "KEY_F2"),
    (0x3d, "KEY_F3"),
    (0x3e, "KEY_F4"),
    (0x3f, "KEY_F5"),
    (0x40, "KEY_F6"),
    (0x41, "KEY_F7"),
    (0x42, "KEY_F8"),
    (0x43, "KEY_F9"),
    (0x44, "KEY_F10"),
    (0x45, "KEY_NUMLOCK"),
    (0x46, "KEY_SCROLLLOCK"),
    (0x47, "KEY_KP7"),
    (0x48, "KEY_KP8"),
    (0x49, "KEY_KP9"),
    (0x4a, "KEY_KPMINUS"),
    (0x4b, "KEY_KP4"),
    (0x4c, "KEY_KP5"),
    (0x4d, "KEY_KP6"),
    (0x4e, "KEY_KPPLUS"),
    (0x4f, "KEY_KP1"),
    (0x50, "KEY_KP2"),
    (0x51, "KEY_KP3"),
    (0x52, "KEY_KP0"),
    (0x53, "KEY_KPDOT"),
    (0x55, "KEY_ZENKAKUHANKAKU"),
    (0x56, "KEY_102ND"),
    (0x57, "KEY_F11"),
    (0x58, "KEY_F12"),
    (0x59, "KEY_RO"),
    (0x5a, "KEY_KATAKANA"),
    (0x5b, "KEY_HIRAGANA"),
    (0x5c, "KEY_HENKAN"),
    (0x5d, "KEY_KATAKANAHIRAGANA"),
    (0x5e, "KEY_MUHENKAN"),
    (0x5f, "KEY_KPJPCOMMA"),
    (0x60, "KEY_KPENTER"),
    (0x61, "KEY_RIGHTCTRL"),
    (0x62, "KEY_KPSLASH"),
    (0x63, "KEY_SYSRQ"),
    (0x64, "KEY_RIGHTALT"),
    (0x65, "KEY_LINEFEED"),
    (0x66, "KEY_HOME"),
    (0x67, "KEY_UP"),
    (0x68, "KEY_PAGEUP"),
    (0x69, "KEY_LEFT"),
    (0x6a, "KEY_RIGHT"),
    (0x6b, "KEY_END"),
    (0x6c, "KEY_DOWN"),
    (0x6d, "KEY_PAGEDOWN"),
    (0x6e, "KEY_INSERT"),
    (0x6f, "KEY_DELETE"),
    (0x70, "KEY_MACRO"),
    (0x71, "KEY_MUTE"),
    (0x72, "KEY_VOLUMEDOWN"),
    (0x73, "KEY_VOLUMEUP"),
    (0x74, "KEY_POWER"),
    (0x75, "KEY_KPEQUAL"),
    (0x76, "KEY_KPPLUSMINUS"),
    (0x77, "KEY_PAUSE"),
    (0x78, "KEY_SCALE"),
    (0x79, "KEY_KPCOMMA"),
    (0x7a, "KEY_HANGEUL"),
    (0x7b, "KEY_HANJA"),
    (0x7c, "KEY_YEN"),
    (0x7d, "KEY_LEFTMETA"),
    (0x7e, "KEY_RIGHTMETA"),
    (0x7f, "KEY_COMPOSE"),
    (0x80, "KEY_STOP"),
    (0x81, "KEY_AGAIN"),
    (0x82, "KEY_PROPS"),
    (0x83, "KEY_UNDO"),
    (0x84, "KEY_FRONT"),
    (0x85, "KEY_COPY"),
    (0x86, "KEY_OPEN"),
    (0x87, "KEY_PASTE"),
    (0x88, "KEY_FIND"),
    (0x89, "KEY_CUT"),
    (0x8a, "KEY_HELP"),
    (0x8b, "KEY_MENU"),
    (0x8c, "KEY_CALC"),
    (0x8d, "KEY_SETUP"),
    (0x8e, "KEY_SLEEP"),
    (0x8f, "KEY_WAKEUP"),
    (0x90, "KEY_FILE"),
    (0x91, "KEY_SENDFILE"),
    (0x92, "KEY_DELETEFILE"),
    (0x93, "KEY_XFER"),
    (0x94, "KEY_PROG1"),
    (0x95, "KEY_PROG2"),
    (0x96, "KEY_WWW"),
    (0x97, "KEY_MSDOS"),
    (0x98, "KEY_COFFEE"),
    (0x99, "KEY_ROTATE_DISPLAY"),
    (0x9a, "KEY_CYCLEWINDOWS"),
    (0x9b, "KEY_MAIL"),
    (0x9c, "KEY_BOOKMARKS"),
    (0x9d, "KEY_COMPUTER"),
    (0x9e, "KEY_BACK"),
    (0x9f, "KEY_FORWARD"),
    (0xa0, "KEY_CLOSECD"),
    (0xa1, "KEY_EJECTCD"),
    (0xa2, "KEY_EJECTCLOSECD"),
    (0xa3, "KEY_NEXTSONG"),
    (0xa4, "KEY_PLAYPAUSE"),
    (0xa5, "KEY_PREVIOUSSONG"),
    (0xa6, "KEY_STOPCD"),
    (0xa7, "KEY_RECORD"),
    (0xa8, "KEY_REWIND"),
    (0xa9, "KEY_PHONE"),
    (0xaa, "KEY_ISO"),
    (0xab, "KEY_CONFIG"),
    (0xac, "KEY_HOMEPAGE"),
    (0xad, "KEY_REFRESH"),
    (0xae, "KEY_EXIT"),
    (0xaf, "KEY_MOVE"),
    (0xb0, "KEY_EDIT"),
    (0xb1, "KEY_SCROLLUP"),
    (0xb2, "KEY_SCROLLDOWN"),
    (0xb3, "KEY_KPLEFTPAREN"),
    (0xb4, "KEY_KPRIGHTPAREN"),
    (0xb5, "KEY_NEW"),
    (0xb6, "KEY_REDO"),
    (0xb7, "KEY_F13"),
    (0xb8, "KEY_F14"),
    (0xb9, "KEY_F15"),
    (0xba, "KEY_F16"),
    (0xbb, "KEY_F17"),
    (0xbc, "KEY_F18"),
    (0xbd, "KEY_F19"),
    (0xbe, "KEY_F20"),
    (0xbf, "KEY_F21"),
    (0xc0, "KEY_F22"),
    (0xc1, "KEY_F23"),
    (0xc2, "KEY_F24"),
    (0xc8, "KEY_PLAYCD"),
    (0xc9, "KEY_PAUSECD"),
    (0xca, "KEY_PROG3"),
    (0xcb, "KEY_PROG4"),
    (0xcc, "KEY_ALL_APPLICATIONS"),
    (0xcd, "KEY_SUSPEND"),
    (0xce, "KEY_CLOSE"),
    (0xcf, "KEY_PLAY"),
    (0xd0, "KEY_FASTFORWARD"),
    (0xd1, "KEY_BASSBOOST"),
    (0xd2, "KEY_PRINT"),
    (0xd3, "KEY_HP"),
    (0xd4, "KEY_CAMERA"),
    (0xd5, "KEY_SOUND"),
    (0xd6, "KEY_QUESTION"),
    (0xd7, "KEY_EMAIL"),
    (0xd8, "KEY_CHAT"),
    (0xd9, "KEY_SEARCH"),
    (0xda, "KEY_CONNECT"),
    (0xdb, "KEY_FINANCE"),
    (0xdc, "KEY_SPORT"),
    (0xdd, "KEY_SHOP"),
    (0xde, "KEY_ALTERASE"),
    (0xdf, "KEY_CANCEL"),
    (0xe0, "KEY_BRIGHTNESSDOWN"),
    (0xe1, "KEY_BRIGHTNESSUP"),
    (0xe2, "KEY_MEDIA"),
    (0xe3, "KEY_SWITCHVIDEOMODE"),
    (0xe4, "KEY_KBDILLUMTOGGLE"),
    (0xe5, "KEY_KBDILLUMDOWN"),
    (0xe6, "KEY_KBDILLUMUP"),
    (0xe7, "KEY_SEND"),
    (0xe8, "KEY_REPLY"),
    (0xe9, "KEY_FORWARDMAIL"),
    (0xea, "KEY_SAVE"),
    (0xeb, "KEY_DOCUMENTS"),
    (0xec, "KEY_BATTERY"),
    (0xed, "KEY_BLUETOOTH"),
    (0xee, "KEY_WLAN"),
    (0xef, "KEY_UWB"),
    (0xf0, "KEY_UNKNOWN"),
    (0xf1, "KEY_VIDEO_NEXT"),
    (0xf2, "KEY_VIDEO_PREV"),
    (0xf3, "KEY_BRIGHTNESS_CYCLE"),
    (0xf4, "KEY_BRIGHTNESS_AUTO"),
    (0xf5, "KEY_DISPLAY_OFF"),
    (0xf6, "KEY_WWAN"),
    (0xf7, "KEY_RFKILL"),
    (0xf8, "KEY_MICMUTE"),
    (0x100, "BTN_0"),
    (0x101, "BTN_1"),
    (0x102, "BTN_2"),
    (0x103, "BTN_3"),
    (0x104, "BTN_4"),
    (0x105, "BTN_5"),
    (0x106, "BTN_6"),
    (0x107, "BTN_7"),
    (0x108, "BTN_8"),
    (0x109, "BTN_9"),
    (0x110, "BTN_LEFT"),
    (0x111, "BTN_RIGHT"),
    (0x112, "BTN_MIDDLE"),
    (0x113, "BTN_SIDE"),
    (0x114, "BTN_EXTRA"),
    (0x115, "BTN_FORWARD"),
    (0x116, "BTN_BACK"),
    (0x117, "BTN_TASK"),
    (0x120, "BTN_TRIGGER"),
    (0x121, "BTN_THUMB"),
    (0x122, "BTN_THUMB2"),
    (0x123, "BTN_TOP"),
    (0x124, "BTN_TOP2"),
    (0x125, "BTN_PINKIE"),
    (0x126, "BTN_BASE"),
    (0x127, "BTN_BASE2"),
    (0x128, "BTN_BASE3"),
    (0x129, "BTN_BASE4"),
    (0x12a, "BTN_BASE5"),
    (0x12b, "BTN_BASE6"),
    (0x12f, "BTN_DEAD"),
    (0x130, "BTN_SOUTH"),
    (0x131, "BTN_EAST"),
    (0x132, "BTN_C"),
    (0x133, "BTN_NORTH"),
    (0x134, "BTN_WEST"),
    (0x135, "BTN_Z"),
    (0x136, "BTN_TL"),
    (0x137, "BTN_TR"),
    (0x138, "BTN_TL2"),
    (0x139, "BTN_TR2"),
    (0x13a, "BTN_SELECT"),
    (0x13b, "BTN_START"),
    (0x13c, "BTN_MODE"),
    (0x13d, "BTN_THUMBL"),
    (0x13e, "BTN_THUMBR"),
    (0x140, "BTN_TOOL_PEN"),
    (0x141, "BTN_TOOL_RUBBER"),
    (0x142, "BTN_TOOL_BRUSH"),
    (0x143, "BTN_TOOL_PENCIL"),
    (0x144, "BTN_TOOL_AIRBRUSH"),
    (0x145, "BTN_TOOL_FINGER"),
    (0x146, "BTN_TOOL_MOUSE"),
    (0x147, "BTN_TOOL_LENS"),
    (0x148, "BTN_TOOL_QUINTTAP"),
    (0x149, "BTN_STYLUS3"),
    (0x14a, "BTN_TOUCH"),
    (0x14b, "BTN_STYLUS"),
    (0x14c, "BTN_STYLUS2"),
    (0x14d, "BTN_TOOL_DOUBLETAP"),
    (0x14e, "BTN_TOOL_TRIPLETAP"),
    (0x14f, "BTN_TOOL_QUADTAP"),
    (0x150, "BTN_GEAR_DOWN"),
    (0x151, "BTN_GEAR_UP"),
    (0x160, "KEY_OK"),
    (0x161, "KEY_SELECT"),
    (0x162, "KEY_GOTO"),
    (0x163, "KEY_CLEAR"),
    (0x164, "KEY_POWER2"),
    (0x165, "KEY_OPTION"),
    (0x166, "KEY_INFO"),
    (0x167, "KEY_TIME"),
    (0x168, "KEY_VENDOR"),
    (0x169, "KEY_ARCHIVE"),
    (0x16a, "KEY_PROGRAM"),
    (0x16b, "KEY_CHANNEL"),
    (0x16c, "KEY_FAVORITES"),
    (0x16d, "KEY_EPG"),
    (0x16e, "KEY_PVR"),
    (0x16f, "KEY_MHP"),
    (0x170, "KEY_LANGUAGE"),
    (0x171, "KEY_TITLE"),
    (0x172, "KEY_SUBTITLE"),
    (0x173, "KEY_ANGLE"),
    (0x174, "KEY_ZOOM"),
    (0x175, "KEY_MODE"),
    (0x176, "KEY_KEYBOARD"),
    (0x177, "KEY_SCREEN"),
    (0x178, "KEY_PC"),
    (0x179, "KEY_TV"),
    (0x17a, "KEY_TV2"),
    (0x17b, "KEY_VCR"),
    (0x17c, "KEY_VCR2"),
    (0x17d, "KEY_SAT"),
    (0x17e, "KEY_SAT2"),
    (0x17f, "KEY_CD"),
    (0x180, "KEY_TAPE"),
    (0x181, "KEY_RADIO"),
    (0x182, "KEY_TUNER"),
    (0x183, "KEY_PLAYER"),
    (0x184, "KEY_TEXT"),
    (0x185, "KEY_DVD"),
    (0x186, "KEY_AUX"),
    (0x187, "KEY_MP3"),
    (0x188, "KEY_AUDIO"),
    (0x189, "KEY_VIDEO"),
    (0x18a, "KEY_DIRECTORY"),
    (0x18b, "KEY_LIST"),
    (0x18c, "KEY_MEMO"),
    (0x18d, "KEY_CALENDAR"),
    (0x18e, "KEY_RED"),
    (0x18f, "KEY_GREEN"),
    (0x190, "KEY_YELLOW"),
    (0x191, "KEY_BLUE"),
    (0x192, "KEY_CHANNELUP"),
    (0x193, "KEY_CHANNELDOWN"),
    (0x194, "KEY_FIRST"),
    (0x195, "KEY_LAST"),
    (0x196, "KEY_AB"),
    (0x197, "KEY_NEXT"),
    (0x198, "KEY_RESTART"),
    (0x199, "KEY_SLOW"),
    (0x19a, "KEY_SHUFFLE"),
    (0x19b, "KEY_BREAK"),
    (0x19c, "KEY_PREVIOUS"),
    (0x19d, "KEY_DIGITS"),
    (0x19e, "KEY_TEEN"),
    (0x19f, "KEY_TWEN"),
    (0x1a0, "KEY_VIDEOPHONE"),
    (0x1a1, "KEY_GAMES"),
    (0x1a2, "KEY_ZOOMIN"),
    (0x1a3, "KEY_ZOOMOUT"),
    (0x1a4, "KEY_ZOOMRESET"),
    (0x1a5, "KEY_WORDPROCESSOR"),
    (0x1a6, "KEY_EDITOR"),
    (0x1a7, "KEY_SPREADSHEET"),
    (0x1a8, "KEY_GRAPHICSEDITOR"),
    (0x1a9, "KEY_PRESENTATION"),
    (0x1aa, "KEY_DATABASE"),
    (0x1ab, "KEY_NEWS"),
    (0x1ac, "KEY_VOICEMAIL"),
    (0x1ad, "KEY_ADDRESSBOOK"),
    (0x1ae, "KEY_MESSENGER"),
    (0x1af, "KEY_DISPLAYTOGGLE"),
    (0x1b0, "KEY_SPELLCHECK"),
    (0x1b1, "KEY_LOGOFF"),
    (0x1b2, "KEY_DOLLAR"),
    (0x1b3, "KEY_EURO"),
    (0x1b4, "KEY_FRAMEBACK"),
    (0x1b5, "KEY_FRAMEFORWARD"),
    (0x1b6, "KEY_CONTEXT_MENU"),
    (0x1b7, "KEY_MEDIA_REPEAT"),
    (0x1b8, "KEY_10CHANNELSUP"),
    (0x1b9, "KEY_10CHANNELSDOWN"),
    (0x1ba, "KEY_IMAGES"),
    (0x1bc, "KEY_NOTIFICATION_CENTER"),
    (0x1bd, "KEY_PICKUP_PHONE"),
    (0x1be, "KEY_HANGUP_PHONE"),
    (0x1c0, "KEY_DEL_EOL"),
    (0x1c1, "KEY_DEL_EOS"),
    (0x1c2, "KEY_INS_LINE"),
    (0x1c3, "KEY_DEL_LINE"),
    (0x1d0, "KEY_FN"),
    (0x1d1, "KEY_FN_ESC"),
    (0x1d2, "KEY_FN_F1"),
    (0x1d3, "KEY_FN_F2"),
    (0x1d4, "KEY_FN_F3"),
    (0x1d5, "KEY_FN_F4"),
    (0x1d6, "KEY_FN_F5"),
    (0x1d7, "KEY_FN_F6"),
    (0x1d8, "KEY_FN_F7"),
    (0x1d9, "KEY_FN_F8"),
    (0x1da, "KEY_FN_F9"),
    (0x1db, "KEY_FN_F10"),
    (0x1dc, "KEY_FN_F11"),
    (0x1dd, "KEY_FN_F12"),
    (0x1de, "KEY_FN_1"),
    (0x1df, "KEY_FN_2"),
    (0x1e0, "KEY_FN_D"),
    (0x1e1, "KEY_FN_E"),
    (0x1e2, "KEY_FN_F"),
    (0x1e3, "KEY_FN_S"),
    (0x1e4, "KEY_FN_B"),
    (0x1e5, "KEY_FN_RIGHT_SHIFT"),
    (0x1f1, "KEY_BRL_DOT1"),
    (0x1f2, "KEY_BRL_DOT2"),
    (0x1f3, "KEY_BRL_DOT3"),
    (0x1f4, "KEY_BRL_DOT4"),
    (0x1f5, "KEY_BRL_DOT5"),
    (0x1f6, "KEY_BRL_DOT6"),
    (0x1f7, "KEY_BRL_DOT7"),
    (0x1f8, "KEY_BRL_DOT8"),
    (0x1f9, "KEY_BRL_DOT9"),
    (0x1fa, "KEY_BRL_DOT10"),
    (0x200, "KEY_NUMERIC_0"),
    (0x201, "KEY_NUMERIC_1"),
    (0x202, "KEY_NUMERIC_2"),
    (0x203, "KEY_NUMERIC_3"),
    (0x204, "KEY_NUMERIC_4"),
    (0x205, "KEY_NUMERIC_5"),
    (0x206, "KEY_NUMERIC_6"),
    (0x207, "KEY_NUMERIC_7"),
    (0x208, "KEY_NUMERIC_8"),
    (0x209, "KEY_NUMERIC_9"),
    (0x20a, "KEY_NUMERIC_STAR"),
    (0x20b, "KEY_NUMERIC_POUND"),
    (0x20c, "KEY_NUMERIC_A"),
    (0x20d, "KEY_NUMERIC_B"),
    (0x20e, "KEY_NUMERIC_C"),
    (0x20f, "KEY_NUMERIC_D"),
    (0x210, "KEY_CAMERA_FOCUS"),
    (0x211, "KEY_WPS_BUTTON"),
    (0x212, "KEY_TOUCHPAD_TOGGLE"),
    (0x213, "KEY_TOUCHPAD_ON"),
    (0x214, "KEY_TOUCHPAD_OFF"),
    (0x215, "KEY_CAMERA_ZOOMIN"),
    (0x216, "KEY_CAMERA_ZOOMOUT"),
    (0x217, "KEY_CAMERA_UP"),
    (0x218, "KEY_CAMERA_DOWN"),
    (0x219, "KEY_CAMERA_LEFT"),
    (0x21a, "KEY_CAMERA_RIGHT"),
    (0x21b, "KEY_ATTENDANT_ON"),
    (0x21c, "KEY_ATTENDANT_OFF"),
    (0x21d, "KEY_ATTENDANT_TOGGLE"),
    (0x21e, "KEY_LIGHTS_TOGGLE"),
    (0x220, "BTN_DPAD_UP"),
    (0x221, "BTN_DPAD_DOWN"),
    (0x222, "BTN_DPAD_LEFT"),
    (0x223, "BTN_DPAD_RIGHT"),
    (0x230, "KEY_ALS_TOGGLE"),
    (0x231, "KEY_ROTATE_LOCK_TOGGLE"),
    (0x240, "KEY_BUTTONCONFIG"),
    (0x241, "KEY_TASKMANAGER"),
    (0x242, "KEY_JOURNAL"),
    (0x243, "KEY_CONTROLPANEL"),
    (0x244, "KEY_APPSELECT"),
    (0x245, "KEY_SCREENSAVER"),
    (0x246, "KEY_VOICECOMMAND"),
    (0x247, "KEY_ASSISTANT"),
    (0x248, "KEY_KBD_LAYOUT_NEXT"),
    (0x249, "KEY_EMOJI_PICKER"),
    (0x24a, "KEY_DICTATE"),
    (0x250, "KEY_BRIGHTNESS_MIN"),
    (0x251, "KEY_BRIGHTNESS_MAX"),
    (0x260, "KEY_KBDINPUTASSIST_PREV"),
    (0x261, "KEY_KBDINPUTASSIST_NEXT"),
    (0x262, "KEY_KBDINPUTASSIST_PREVGROUP"),
    (0x263, "KEY_KBDINPUTASSIST_NEXTGROUP"),
    (0x264, "KEY_KBDINPUTASSIST_ACCEPT"),
    (0x265, "KEY_KBDINPUTASSIST_CANCEL"),
    (0x266, "KEY_RIGHT_UP"),
    (0x267, "KEY_RIGHT_DOWN"),
    (0x268, "KEY_LEFT_UP"),
    (0x269, "KEY_LEFT_DOWN"),
    (0x26a, "KEY_ROOT_MENU"),
    (0x26b, "KEY_MEDIA_TOP_MENU"),
    (0x26c, "KEY_NUMERIC_11"),
    (0x26d, "KEY_NUMERIC_12"),
    (0x26e, "KEY_AUDIO_DESC"),
    (0x26f, "KEY_3D_MODE"),
    (0x270, "KEY_NEXT_FAVORITE"),
    (0x271, "KEY_STOP_RECORD"),
    (0x272, "KEY_PAUSE_RECORD"),
    (0x273, "KEY_VOD"),
    (0x274, "KEY_UNMUTE"),
    (0x275, "KEY_FASTREVERSE"),
    (0x276, "KEY_SLOWREVERSE"),
    (0x277, "KEY_DATA"),
    (0x278, "KEY_ONSCREEN_KEYBOARD"),
    (0x279, "KEY_PRIVACY_SCREEN_TOGGLE"),
    (0x27a, "KEY_SELECTIVE_SCREENSHOT"),
    (0x27b, "KEY_NEXT_ELEMENT"),
    (0x27c, "KEY_PREVIOUS_ELEMENT"),
    (0x27d, "KEY_AUTOPILOT_ENGAGE_TOGGLE"),
    (0x27e, "KEY_MARK_WAYPOINT"),
    (0x27f, "KEY_SOS"),
    (0x280, "KEY_NAV_CHART"),
    (0x281, "KEY_FISHING_CHART"),
    (0x282, "KEY_SINGLE_RANGE_RADAR"),
    (0x283, "KEY_DUAL_RANGE_RADAR"),
    (0x284, "KEY_RADAR_OVERLAY"),
    (0x285, "KEY_TRADITIONAL_SONAR"),
    (0x286, "KEY_CLEARVU_SONAR"),
    (0x287, "KEY_SIDEVU_SONAR"),
    (0x288, "KEY_NAV_INFO"),
    (0x289, "KEY_BRIGHTNESS_MENU"),
    (0x290, "KEY_MACRO1"),
    (0x291, "KEY_MACRO2"),
    (0x292, "KEY_MACRO3"),
    (0x293, "KEY_MACRO4"),
    (0x294, "KEY_MACRO5"),
    (0x295, "KEY_MACRO6"),
    (0x296, "KEY_MACRO7"),
    (0x297, "KEY_MACRO8"),
    (0x298, "KEY_MACRO9"),
    (0x299, "KEY_MACRO10"),
    (0x29a, "KEY_MACRO11"),
    (0x29b, "KEY_MACRO12"),
    (0x29c, "KEY_MACRO13"),
    (0x29d, "KEY_MACRO14"),
    (0x29e, "KEY_MACRO15"),
    (0x29f, "KEY_MACRO16"),
    (0x2a0, "KEY_MACRO17"),
    (0x2a1, "KEY_MACRO18"),
    (0x2a2, "KEY_MACRO19"),
    (0x2a3, "KEY_MACRO20"),
    (0x2a4, "KEY_MACRO21"),
    (0x2a5, "KEY_MACRO22"),
    (0x2a6, "KEY_MACRO23"),
    (0x2a7, "KEY_MACRO24"),
    (0x2a8, "KEY_MACRO25"),
    (0x2a9, "KEY_MACRO26"),
    (0x2aa, "KEY_MACRO27"),
    (0x2ab, "KEY_MACRO28"),
    (0x2ac, "KEY_MACRO29"),
    (0x2ad, "KEY_MACRO30"),
    (0x2b0, "KEY_MACRO_RECORD_START"),
    (0x2b1, "KEY_MACRO_RECORD_STOP"),
    (0x2b2, "KEY_MACRO_PRESET_CYCLE"),
    (0x2b3, "KEY_MACRO_PRESET1"),
    (0x2b4, "KEY_MACRO_PRESET2"),
    (0x2b5, "KEY_MACRO_PRESET3"),
    (0x2b8, "KEY_KBD_LCD_MENU1"),
    (0x2b9, "KEY_KBD_LCD_MENU2"),
    (0x2ba, "KEY_KBD_LCD_MENU3"),
    (0x2bb, "KEY_KBD_LCD_MENU4"),
    (0x2bc, "KEY_KBD_LCD_MENU5"),
    (0x2c0, "BTN_TRIGGER_HAPPY1"),
    (0x2c1, "BTN_TRIGGER_HAPPY2"),
    (0x2c2, "BTN_TRIGGER_HAPPY3"),
    (0x2c3, "BTN_TRIGGER_HAPPY4"),
    (0x2c4, "BTN_TRIGGER_HAPPY5"),
    (0x2c5, "BTN_TRIGGER_HAPPY6"),
    (0x2c6, "BTN_TRIGGER_HAPPY7"),
    (0x2c7, "BTN_TRIGGER_HAPPY8"),
    (0x2c8, "BTN_TRIGGER_HAPPY9"),
    (0x2c9, "BTN_TRIGGER_HAPPY10"),
    (0x2ca, "BTN_TRIGGER_HAPPY11"),
    (0x2cb, "BTN_TRIGGER_HAPPY12"),
    (0x2cc, "BTN_TRIGGER_HAPPY13"),
    (0x2cd, "BTN_TRIGGER_HAPPY14"),
    (0x2ce, "BTN_TRIGGER_HAPPY15"),
    (0x2cf, "BTN_TRIGGER_HAPPY16"),
    (0x2d0, "BTN_TRIGGER_HAPPY17"),
    (0x2d1, "BTN_TRIGGER_HAPPY18"),
    (0x2d2, "BTN_TRIGGER_HAPPY19"),
    (0x2d3, "BTN_TRIGGER_HAPPY20"),
    (0x2d4, "BTN_TRIGGER_HAPPY21"),
    (0x2d5, "BTN_TRIGGER_HAPPY22"),
    (0x2d6, "BTN_TRIGGER_HAPPY23"),
    (0x2d7, "BTN_TRIGGER_HAPPY24"),
    (0x2d8, "BTN_TRIGGER_HAPPY25"),
    (0x2d9, "BTN_TRIGGER_HAPPY26"),
    (0x2da, "BTN_TRIGGER_HAPPY27"),
    (0x2db, "BTN_TRIGGER_HAPPY28"),
    (0x2dc, "BTN_TRIGGER_HAPPY29"),
    (0x2dd, "BTN_TRIGGER_HAPPY30"),
    (0x2de, "BTN_TRIGGER_HAPPY31"),
    (0x2df, "BTN_TRIGGER_HAPPY32"),
    (0x2e0, "BTN_TRIGGER_HAPPY33"),
    (0x2e1, "BTN_TRIGGER_HAPPY34"),
    (0x2e2, "BTN_TRIGGER_HAPPY35"),
    (0x2e3, "BTN_TRIGGER_HAPPY36"),
    (0x2e4, "BTN_TRIGGER_HAPPY37"),
    (0x2e5, "BTN_TRIGGER_HAPPY38"),
    (0x2e6, "BTN_TRIGGER_HAPPY39"),
    (0x2e7, "BTN_TRIGGER_HAPPY40"),
];

static EVDEV_ABS: &[(u64, &str)] = &[
    (0, "ABS_X"),
    (0x1, "ABS_Y"),
    (0x2, "ABS_Z"),
    (0x3, "ABS_RX"),
    (0x4, "ABS_RY"),
    (0x5, "ABS_RZ"),
    (0x6, "ABS_THROTTLE"),
    (0x7, "ABS_RUDDER"),
    (0x8, "ABS_WHEEL"),
    (0x9, "ABS_GAS"),
    (0xa, "ABS_BRAKE"),
    (0x10, "ABS_HAT0X"),
    (0x11, "ABS_HAT0Y"),
    (0x12, "ABS_HAT1X"),
    (0x13, "ABS_HAT1Y"),
    (0x14, "ABS_HAT2X"),
    (0x15, "ABS_HAT2Y"),
    (0x16, "ABS_HAT3X"),
    (0x17, "ABS_HAT3Y"),
    (0x18, "ABS_PRESSURE"),
    (0x19, "ABS_DISTANCE"),
    (0x1a, "ABS_TILT_X"),
    (0x1b, "ABS_TILT_Y"),
    (0x1c, "ABS_TOOL_WIDTH"),
    (0x20, "ABS_VOLUME"),
    (0x21, "ABS_PROFILE"),
    (0x28, "ABS_MISC"),
    (0x2e, "ABS_RESERVED"),
    (0x2f, "ABS_MT_SLOT"),
    (0x30, "ABS_MT_TOUCH_MAJOR"),
    (0x31, "ABS_MT_TOUCH_MINOR"),
    (0x32, "ABS_MT_WIDTH_MAJOR"),
    (0x33, "ABS_MT_WIDTH_MINOR"),
    (0x34, "ABS_MT_ORIENTATION"),
    (0x35, "ABS_MT_POSITION_X"),
    (0x36, "ABS_MT_POSITION_Y"),
    (0x37, "ABS_MT_TOOL_TYPE"),
    (0x38, "ABS_MT_BLOB_ID"),
    (0x39, "ABS_MT_TRACKING_ID"),
    (0x3a, "ABS_MT_PRESSURE"),
    (0x3b, "ABS_MT_DISTANCE"),
    (0x3c, "ABS_MT_TOOL_X"),
    (0x3d, "ABS_MT_TOOL_Y"),
];

static EVDEV_EV: &[(u64, &str)] = &[
    (0, "EV_SYN"),
    (0x1, "EV_KEY"),
    (0x2, "EV_REL"),
    (0x3, "EV_ABS"),
    (0x4, "EV_MSC"),
    (0x5, "EV_SW"),
    (0x11, "EV_LED"),
    (0x12, "EV_SND"),
    (0x14, "EV_REP"),
    (0x15, "EV_FF"),
    (0x16, "EV_PWR"),
    (0x17, "EV_FF_STATUS"),
];

static EVDEV_FF_TYPES: &[(u64, &str)] = &[
    (0x50, "FF_RUMBLE"),
    (0x51, "FF_PERIODIC"),
    (0x52, "FF_CONSTANT"),
    (0x53, "FF_SPRING"),
    (0x54, "FF_FRICTION"),
    (0x55, "FF_DAMPER"),
    (0x56, "FF_INERTIA"),
    (0x57, "FF_RAMP"),
    (0x58, "FF_SQUARE"),
    (0x59, "FF_TRIANGLE"),
    (0x5a, "FF_SINE"),
    (0x5b, "FF_SAW_UP"),
    (0x5c, "FF_SAW_DOWN"),
    (0x5d, "FF_CUSTOM"),
    (0x60, "FF_GAIN"),
    (0x61, "FF_AUTOCENTER"),
];

fn evdev(req: u32) -> Option<How> {
    let nr = req & 0xff;
    Some(match req >> 30 {
        // reads: at exit
        2 => How::Out(match req {
            0x80044501 => |o, d| bracket_u32(o, d, true), // EVIOCGVERSION
            0x80044584 => |o, d| bracket_u32(o, d, false), // EVIOCGEFFECTS
            // EVIOCGID
            0x80084502 => |o, d| {
                if !need(d, 8) {
                    return false;
                }
                let _ = write!(
                    o.s,
                    "{{bustype={}, vendor={}, product={}, version={}}}",
                    u16at(d, 0),
                    u16at(d, 2),
                    u16at(d, 4),
                    u16at(d, 6)
                );
                true
            },
            0x80084503 => evdev_pair,       // EVIOCGREP
            0x80084504 => evdev_keycode,    // EVIOCGKEYCODE
            0x80284504 => evdev_keycode_v2, // EVIOCGKEYCODE_V2
            _ if (0x40..=0x7f).contains(&nr) => evdev_absinfo,
            // EVIOCGMTSLOTS(len)
            _ if nr == 0x0a => return Some(How::Custom(evdev_mtslots)),
            // EVIOCGNAME, EVIOCGPHYS, EVIOCGUNIQ: a string of the length returned
            _ if matches!(nr, 0x06..=0x08) => return Some(How::Custom(evdev_string)),
            // EVIOCGBIT(ev, len): the bit set of the event codes
            _ if (0x20..0x40).contains(&nr) => return Some(How::Custom(evdev_bits)),
            _ => |_, _| false,
        }),
        1 => match req {
            0x40084503 => How::In(evdev_pair),       // EVIOCSREP
            0x40084504 => How::In(evdev_keycode),    // EVIOCSKEYCODE
            0x40284504 => How::In(evdev_keycode_v2), // EVIOCSKEYCODE_V2
            0x40044581 => How::Val(|o, v| {
                // EVIOCRMFF
                let _ = write!(o.s, "{}", v as i32);
            }),
            // EVIOCGRAB, EVIOCREVOKE
            0x40044590 | 0x40044591 => How::Val(|o, v| {
                let _ = write!(o.s, "{v}");
            }),
            0x400445a0 => How::In(|o, d| bracket_u32(o, d, false)), // EVIOCSCLOCKID
            0x40304580 => How::In(evdev_ff_effect),                 // EVIOCSFF
            _ if (0xc0..=0xff).contains(&nr) => How::In(evdev_absinfo),
            _ => How::In(|_, _| false),
        },
        _ => How::Hex,
    })
}

/// The bytes an evdev read returned (copied as long as the return value
/// says), None when the call failed.
fn evdev_returned<'a>(w: &'a ArgWriter<'_>) -> Option<&'a [u8]> {
    w.call.ret().filter(|&r| r >= 0)?;
    let (_, caps) = w.call.exit?;
    caps.iter()
        .find(|c| c.arg == 1 && c.item == super::CaptureItem::Data)
        .map(|c| c.data.as_slice())
}

/// EVIOCGMTSLOTS(len): `{code=ABS_MT_..., values=[...]}`, the values as
/// many as the length holds after the code.
fn evdev_mtslots(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    w.sep();
    let (req, v) = (w.call.args[1] as u32, w.call.args[2]);
    let n = ((req >> 16) & 0x3fff) as u64 / 4;
    let d = w
        .call
        .exit_cap(2)
        .filter(|_| w.call.ret().is_some_and(|r| r >= 0))
        .map(|c| c.data.clone());
    match d.filter(|d| n > 0 && d.len() >= 4) {
        Some(d) => {
            let mt: Vec<(u64, &str)> = EVDEV_ABS
                .iter()
                .filter(|(_, name)| name.starts_with("ABS_MT_"))
                .copied()
                .collect();
            w.s.push_str("{code=");
            fmt::enumv(&mut w.s, u32at(&d, 0), &mt, "ABS_MT_???", w.opts.xlat, true);
            w.s.push_str(", values=");
            let values = Some((&d[4..], false));
            super::print_array_data(&mut w.s, values, v + 4, n - 1, 4, w.opts, |s, e| {
                let _ = write!(s, "{}", i32at(e, 0));
            });
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, v),
    }
}

/// EVIOCGNAME, EVIOCGPHYS, EVIOCGUNIQ: the string the call returned.
fn evdev_string(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    w.sep();
    let v = w.call.args[2];
    let ret = w.call.ret().unwrap_or(-1);
    match evdev_returned(w).map(<[u8]>::to_vec) {
        Some(d) if d.len() >= (ret as usize).min(w.opts.strsize) => {
            let n = (ret as usize).min(w.opts.strsize);
            fmt::quoted(&mut w.s, &d[..n], (ret as usize) > n, w.opts.hex);
        }
        Some(_) => fmt::ptr(&mut w.s, v),
        None => fmt::ptr(&mut w.s, v),
    }
}

/// EVIOCGBIT(ev, len): the codes of event type `ev` the device has, as
/// many bits as the call returned bytes (at most the type's codes): their
/// names, with -X raw the words, with -X verbose both.
fn evdev_bits(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    w.sep();
    let (req, v) = (w.call.args[1] as u32, w.call.args[2]);
    let ev = (req & 0xff) - 0x20;
    let x = w.opts.xlat;
    // the type's codes (its _MAX), the names, strace's default
    let (max, table, dflt): (u64, &[(u64, &str)], &str) = match ev {
        0 => (0x1f, EVDEV_EV, "EV_???"),
        1 => (0x2ff, EVDEV_KEYS, "KEY_???"),
        3 => (0x3f, EVDEV_ABS, "ABS_???"),
        0x15 => (0x7f, EVDEV_FF_TYPES, "FF_???"),
        _ => {
            fmt::ptr(&mut w.s, v);
            return;
        }
    };
    let ret = w.call.ret().unwrap_or(-1);
    let bits = if ret as u64 > max / 8 {
        max
    } else {
        ret as u64 * 8
    };
    let size = (bits.div_ceil(8)).div_ceil(8) * 8;
    let Some(d) = evdev_returned(w)
        .map(<[u8]>::to_vec)
        .filter(|d| size > 0 && d.len() as u64 >= size)
    else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let mut words = vec![0u8; size as usize];
    let k = d.len().min(size as usize);
    words[..k].copy_from_slice(&d[..k]);
    if x != Xlat::Raw {
        w.s.push('[');
        let mut shown = 0;
        for i in 0..bits {
            if words[(i / 8) as usize] & (1 << (i % 8)) == 0 {
                continue;
            }
            if shown > 0 {
                w.s.push(' ');
                if !w.opts.verbose && shown > 3 {
                    w.s.push_str("...");
                    break;
                }
            }
            fmt::enumv(&mut w.s, i, table, dflt, x, true);
            shown += 1;
        }
        w.s.push(']');
    }
    if x == Xlat::Verbose {
        w.s.push_str(" /* ");
    }
    if x != Xlat::Abbrev {
        w.s.push('[');
        for (j, c) in words.chunks_exact(8).enumerate() {
            if j > 0 {
                w.s.push_str(", ");
            }
            fmt::hex(&mut w.s, u64at(c, 0));
        }
        w.s.push(']');
    }
    if x == Xlat::Verbose {
        w.s.push_str(" */");
    }
}

fn bracket_u32(o: &mut Out<'_>, d: &[u8], hex: bool) -> bool {
    if !need(d, 4) {
        return false;
    }
    o.put("[");
    if hex {
        fmt::hex(o.s, u32at(d, 0));
    } else {
        let _ = write!(o.s, "{}", u32at(d, 0));
    }
    o.put("]");
    true
}

fn evdev_pair(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 8) {
        return false;
    }
    let _ = write!(o.s, "[{}, {}]", u32at(d, 0), u32at(d, 4));
    true
}

fn evdev_keycode(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 8) {
        return false;
    }
    let _ = write!(o.s, "[{}, ", u32at(d, 0));
    o.xval(u32at(d, 4), EVDEV_KEYS, "KEY_???");
    o.put("]");
    true
}

/// struct input_keymap_entry.
fn evdev_keycode_v2(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 40) {
        return false;
    }
    let _ = write!(o.s, "{{flags={}, len={}, ", d[0], d[1]);
    if o.verbose {
        let _ = write!(o.s, "index={}, keycode=", u16at(d, 2));
        o.xval(u32at(d, 4), EVDEV_KEYS, "KEY_???");
        o.put(", scancode=");
        o.array(32, |o, k| fmt::hex(o.s, d[8 + k] as u64));
        o.put("}");
    } else {
        o.put("...}");
    }
    true
}

/// struct input_absinfo (the fields the request's size holds).
fn evdev_absinfo(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 20 {
        return false;
    }
    let f = |k: usize| u32at(d, 4 * k);
    let _ = write!(o.s, "{{value={}, minimum={}, ", f(0), f(1));
    if o.verbose {
        let _ = write!(o.s, "maximum={}, fuzz={}, flat={}", f(2), f(3), f(4));
        if d.len() > 20 {
            if d.len() >= 24 {
                let _ = write!(o.s, ", resolution={}", f(5));
            }
            if d.len() != 24 {
                o.put(", ...");
            }
        }
        o.put("}");
    } else {
        o.put("...}");
    }
    true
}

/// struct ff_envelope (8 bytes at `d`).
fn ff_envelope(o: &mut Out<'_>, d: &[u8]) {
    let _ = write!(
        o.s,
        "envelope={{attack_length={}, attack_level={}, fade_length={}, fade_level={:#x}}}",
        u16at(d, 0),
        u16at(d, 2),
        u16at(d, 4),
        u16at(d, 6)
    );
}

/// struct ff_effect: abridged, or under -v with its trigger, replay and
/// the effect of its type.
fn evdev_ff_effect(o: &mut Out<'_>, d: &[u8]) -> bool {
    if !need(d, 48) {
        return false;
    }
    let ty = u16at(d, 0);
    o.put("{type=");
    o.xval(ty, EVDEV_FF_TYPES, "FF_???");
    let _ = write!(
        o.s,
        ", id={}, direction={}, ",
        u16at(d, 2) as i16,
        u16at(d, 4)
    );
    if !o.verbose {
        o.put("...}");
        return true;
    }
    let _ = write!(
        o.s,
        "trigger={{button={}, interval={}}}, replay={{length={}, delay={}}}",
        u16at(d, 6),
        u16at(d, 8),
        u16at(d, 10),
        u16at(d, 12)
    );
    let u = &d[16..];
    let sh = |k: usize| u16at(u, k) as i16;
    match ty {
        0x52 => {
            // FF_CONSTANT
            let _ = write!(o.s, ", constant={{level={}, ", sh(0));
            ff_envelope(o, &u[2..]);
            o.put("}");
        }
        0x57 => {
            // FF_RAMP
            let _ = write!(o.s, ", ramp={{start_level={}, end_level={}, ", sh(0), sh(2));
            ff_envelope(o, &u[4..]);
            o.put("}");
        }
        0x51 => {
            // FF_PERIODIC
            let _ = write!(
                o.s,
                ", periodic={{waveform={}, period={}, magnitude={}, offset={}, phase={}, ",
                u16at(u, 0),
                u16at(u, 2),
                sh(4),
                sh(6),
                u16at(u, 8)
            );
            ff_envelope(o, &u[10..]);
            let _ = write!(o.s, ", custom_len={}, custom_data=", u32at(u, 20));
            fmt::ptr(o.s, u64at(u, 24));
            o.put("}");
        }
        0x50 => {
            // FF_RUMBLE
            let _ = write!(
                o.s,
                ", rumble={{strong_magnitude={}, weak_magnitude={}}}",
                u16at(u, 0),
                u16at(u, 2)
            );
        }
        _ => {}
    }
    o.put("}");
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
            strsize: 32,
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

    #[test]
    fn hdio_shapes() {
        let mut g = vec![0xca, 0xfe, 0xbe, 0xba, 0, 0, 0, 0];
        g.extend_from_slice(&0xbadc0deddeadfaceu64.to_le_bytes());
        assert_eq!(
            show(hd_geometry, &g, Xlat::Abbrev),
            format!(
                "{{heads=202, sectors=254, cylinders=47806, start={}}}",
                0xbadc0deddeadfaceu64
            )
        );
        let mut d = Vec::new();
        for v in [0xdeadbeefu32, 0xaaaaaaaa, 0xbeefbeef] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        assert_eq!(
            show(three_hex_ints, &d, Xlat::Abbrev),
            "[0xdeadbeef, 0xaaaaaaaa, 0xbeefbeef]"
        );
        let id = vec![b'a'; 142];
        assert_eq!(
            show(|o, d| identity(o, d, 142), &id, Xlat::Abbrev),
            format!("\"{}\"...", "a".repeat(32))
        );
    }

    #[test]
    fn old_style_requests_are_named() {
        let mut s = String::new();
        super::super::ioctl_request(&mut s, 0x0305, Xlat::Abbrev);
        assert_eq!(s, "HDIO_GET_QDMA");
        s.clear();
        super::super::ioctl_request(&mut s, 0x4b2f, Xlat::Verbose);
        assert_eq!(s, "0x4b2f /* KIOCSOUND */");
    }

    #[test]
    fn rtc_param_halves() {
        let mut d = vec![0u8; 24];
        d[8..16].copy_from_slice(&0x101u64.to_le_bytes());
        d[16..20].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            show(|o, d| rtc_param(o, d, true, false), &d, Xlat::Abbrev),
            "{param=RTC_PARAM_FEATURES, index=7}"
        );
        assert_eq!(
            show(|o, d| rtc_param(o, d, false, true), &d, Xlat::Abbrev),
            "{uvalue=1<<RTC_FEATURE_ALARM|0x100}"
        );
        d[0] = 1;
        d[8..16].copy_from_slice(&(-5i64).to_le_bytes());
        d[20] = 1;
        assert_eq!(
            show(|o, d| rtc_param(o, d, true, true), &d, Xlat::Abbrev),
            "{param=RTC_PARAM_CORRECTION, svalue=-5, index=7, __pad=0x1}"
        );
    }

    #[test]
    fn gpio_arrays_abbreviate() {
        let d: Vec<u8> = (1..=64).collect();
        let text = show(gpiohandle_data, &d, Xlat::Abbrev);
        assert!(text.starts_with("{values=[1, 2, 3,"));
        assert!(text.ends_with(", 31, 32, ...]}"));
        let mut a = vec![0u8; 16];
        a[0] = 2;
        a[4..8].copy_from_slice(&0xfeedfaceu32.to_le_bytes());
        a[8..16].copy_from_slice(&0xdeadbeefba11c0dau64.to_le_bytes());
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x: Xlat::Abbrev,
            verbose: false,
            strsize: 32,
        };
        gpio_v2_attr(&mut o, &a, true);
        assert_eq!(
            s,
            "attr={id=2, padding=0xfeedface, data=0xdeadbeefba11c0da}"
        );
    }

    #[test]
    fn seccomp_notif_names_the_call() {
        let mut d = vec![0u8; 80];
        d[8] = 7; // pid
        d[16] = 186; // gettid on x86_64
        d[20..24].copy_from_slice(&0xc000003eu32.to_le_bytes());
        let text = |x| {
            let mut s = String::new();
            let mut o = Out {
                s: &mut s,
                x,
                verbose: false,
                strsize: 32,
            };
            seccomp_notif(&mut o, &d);
            s
        };
        assert_eq!(
            text(Xlat::Abbrev),
            "{id=0, pid=7, flags=0, data={nr=__NR_gettid, arch=AUDIT_ARCH_X86_64, \
             instruction_pointer=NULL, args=[0, 0, 0, 0, 0, 0]}}"
        );
        assert!(text(Xlat::Verbose)
            .contains("nr=186 /* __NR_gettid */, arch=0xc000003e /* AUDIT_ARCH_X86_64 */"));
        let mut s = String::new();
        super::super::ioctl_request(&mut s, 0x80082102, Xlat::Abbrev);
        assert_eq!(s, "SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR");
    }

    #[test]
    fn ptp_times_in_utc() {
        let mut d = vec![0u8; 16];
        d[0..8].copy_from_slice(&4886718345i64.to_le_bytes());
        d[8..12].copy_from_slice(&123456789u32.to_le_bytes());
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x: Xlat::Abbrev,
            verbose: false,
            strsize: 32,
        };
        ptp_time(&mut o, &d, true);
        assert_eq!(
            s,
            "{sec=4886718345, nsec=123456789} /* 2124-11-08T05:45:45.123456789+0000 */"
        );
        assert_eq!(fmt::civil(0), (1970, 1, 1));
        assert_eq!(fmt::civil(591751049 / 86400), (1988, 10, 1));
        assert_eq!(fmt::civil(-1), (1969, 12, 31));
    }
}
