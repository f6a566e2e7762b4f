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
            Some(n) => fmt::quoted(self.s, &b[..n], false, false),
            // as strace: the last byte is the NUL's place
            None => fmt::quoted(self.s, &b[..b.len().saturating_sub(1)], true, false),
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
/// request of the wrong direction (the kernel still accepts it).
pub(super) fn special_name(req: u64) -> Option<&'static str> {
    (req == 0x80082102).then_some("SECCOMP_IOCTL_NOTIF_ID_VALID_WRONG_DIR")
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
        0x21 => seccomp(req), // '!'
        0x3d => ptp(req),     // '='
        _ => return false,
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
    // PTP_SYS_OFFSET_EXTENDED{,2}: more than BPF copies (1024); its head,
    // or as much as fits when all of it is readable
    (0xc4c03d09, 16 | 1216 << 16),
    (0xc4c03d12, 16 | 1216 << 16),
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
    fmt::quoted(o.s, &d[..n], len > n, false);
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
            Some(b) if b.len() >= n => fmt::quoted(&mut w.s, &b[..n], len > n, true),
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
        _ => How::Hex,
    })
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

static AUDIT_ARCHES: &[(u64, &str)] = &[
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

/// Days since 1970-01-01 as a civil (proleptic Gregorian) date.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// ` /* 2124-11-08T05:45:45.123456789+0000 */`, as strace comments a
/// realtime clock's time (in UTC; none for an invalid nsec or for zero).
fn time_comment(o: &mut Out<'_>, sec: i64, nsec: u64) {
    if o.x == Xlat::Raw || nsec >= 1_000_000_000 || (sec == 0 && nsec == 0) {
        return;
    }
    let (y, m, d) = civil(sec.div_euclid(86_400));
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
    // BPF copies at most 1024 bytes: a copy that short of the struct
    // means the rest was not readable
    let whole = |d: &Vec<u8>| d.len() >= size.min(1024);
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
    let mut d = output(w, req).filter(whole);
    // the rest of a struct larger than a copy, from the live process
    if d.as_ref().is_some_and(|d| d.len() < size) {
        if let Some(all) = w.env.read_mem.and_then(|read| read(v, size)) {
            d = Some(all);
        }
    }
    let Some(d) = d else {
        w.s.push_str(", ???}");
        return;
    };
    let n = (u32at(&d, 0) as usize).min(25);
    // the samples BPF copied (the extended struct is larger than a copy)
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
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(591751049 / 86400), (1988, 10, 1));
        assert_eq!(civil(-1), (1969, 12, 31));
    }
}
