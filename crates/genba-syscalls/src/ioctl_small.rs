//! The ioctl families strace 6.1 decodes by type byte whose arguments are
//! numbers, descriptors, flags, an int in brackets or small structures:
//! inotify ('I'), random ('R'), watchdog ('W'), LIRC ('i'), perf ('$'),
//! NBD (0xab), nsfs (0xb7), loop ('L'), SCSI generic ('"'), block (0x12),
//! userfaultfd (0xaa), MTD ('M'), UBI ('o', 'O') and the terminal's modem
//! lines (TIOCM*). A child module of `ioctl`: each family says
//! [`How`] its argument looks; a request of the family it does not know is
//! printed as a number, as strace's generic fallback does.
//!
//! The constants' tables (ioctl_small_xlat.rs) are generated:
//!   python3 scripts/gen-xlat.py ioctl_small "$(cat scripts/ioctl-small-xlat.headers)" \
//!       $(cat scripts/ioctl-small-xlat.tables) > crates/genba-syscalls/src/ioctl_small_xlat.rs
//!   python3 scripts/ioctl-small-xlat.fixup.py
//! (the fixup: what gen-xlat.py cannot take from strace's lists)

use std::fmt::Write;

use super::{u32at, u64at, ArgWriter, How, Out};
use crate::fmt;

#[path = "ioctl_small_xlat.rs"]
mod xlat;
use xlat::*;

/// The requests decoded here whose number does not encode the size of
/// what they point to, with the bytes to copy.
pub(super) fn sizes() -> Vec<(u32, u32)> {
    vec![
        (NS_GET_OWNER_UID, 4),
        // RNDADDENTROPY: struct rand_pool_info's head, and when readable the
        // buffer after it as far as strace shows it by default (-s 32)
        (RNDADDENTROPY, 8 | (8 + 32) << 16),
        (0x4c02, 168), // LOOP_SET_STATUS, LOOP_GET_STATUS: struct loop_info
        (0x4c03, 168),
        (0x4c04, 232), // LOOP_SET_STATUS64, LOOP_GET_STATUS64: loop_info64
        (0x4c05, 232),
        (0x4c0a, 304), // LOOP_CONFIGURE: struct loop_config
        // the SCSI generic driver's ints, its sg_scsi_id, SG_IO's interface id
        (0x2201, 4),
        (0x2203, 4),
        (0x2205, 4),
        (0x2270, 4),
        (0x2271, 4),
        (0x2272, 4),
        (0x2275, 4),
        (0x2276, 32),
        (0x2279, 4),
        (0x227a, 4),
        (0x227b, 4),
        (0x227c, 4),
        (0x227d, 4),
        (0x227e, 4),
        (0x227f, 4),
        (0x2282, 4),
        (0x2283, 4),
        (0x2284, 4),
        (0x2285, 4),
        (0x2287, 4),
        (0x2288, 4),
        (0x2289, 4),
        // the block layer's old requests: what their argument points to
        (0x1267, 2), // BLKSECTGET, BLKROTATIONAL: unsigned short
        (0x127e, 2),
        (0x125e, 4), // BLKROGET, BLKSSZGET, BLKALIGNOFF, BLKROSET: int
        (0x1268, 4),
        (0x127a, 4),
        (0x125d, 4),
        (0x127b, 4), // BLKPBSZGET, BLKIOMIN, BLKIOOPT, BLKDISCARDZEROES
        (0x1278, 4),
        (0x1279, 4),
        (0x127c, 4),
        (0x1263, 8), // BLKRAGET, BLKFRAGET, BLKGETSIZE: long
        (0x1265, 8),
        (0x1260, 8),
        (0x1277, 16), // BLKDISCARD, BLKSECDISCARD, BLKZEROOUT: u64[2]
        (0x127d, 16),
        (0x127f, 16),
        (BLKPG, 24),
        // TIOCMGET, TIOCMBIS, TIOCMBIC, TIOCMSET: an int of modem lines
        (0x5415, 4),
        (0x5416, 4),
        (0x5417, 4),
        (0x5418, 4),
        // the socket requests' struct ifreq, int and interface name
        (0x8910, 40),
        (0x8913, 40),
        (0x8914, 40),
        (0x8915, 40),
        (0x8916, 40),
        (0x8917, 40),
        (0x8918, 40),
        (0x8919, 40),
        (0x891a, 40),
        (0x891b, 40),
        (0x891c, 40),
        (0x891d, 40),
        (0x891e, 40),
        (0x8921, 40),
        (0x8922, 40),
        (0x8923, 40),
        (0x8924, 40),
        (0x8927, 40),
        (0x8929, 40),
        (0x8930, 40),
        (0x8931, 40),
        (0x8932, 40),
        (0x8933, 40),
        (0x8937, 40),
        (0x8942, 40),
        (0x8943, 40),
        (0x8970, 40),
        (0x8971, 40),
        (0x89a2, 40),
        (0x89a3, 40),
        (0x8901, 4),
        (0x8902, 4),
        (0x8903, 4),
        (0x8904, 4),
        (0x8905, 4),
        (0x8925, 4),
        (0x8926, 4),
        (0x894b, 4),
        (0x89a0, 16),
        (SIOCGIFCONF, 16),
        (0x89a1, 16),
        // UBI_IOCEBCH: struct ubi_leb_change_req, not the int its number says
        (0x4004_4f02, 16),
        // BLKBSZGET, BLKBSZSET: an int, despite the size their number has
        (0x8008_1270, 4),
        (0x4008_1271, 4),
    ]
}

const BLKPG: u32 = 0x1269;
const BLKTRACESETUP: u32 = 0xc048_1273;
const NS_GET_OWNER_UID: u32 = 0xb704;
const NS_GET_NSTYPE: u32 = 0xb703;
const RNDADDENTROPY: u32 = 0x4008_5203;

/// The sound mixer's requests ('M'), which strace names by their number
/// before any name the request's code also has (`MIXER_READ(17) or
/// ECCGETLAYOUT`).
pub(in super::super) fn mixer_name(req: u64) -> Option<String> {
    if (req >> 8) & 0xff != 0x4d {
        return None;
    }
    match req >> 30 {
        1 => Some(format!("MIXER_WRITE({})", req & 0xff)),
        2 => Some(format!("MIXER_READ({})", req & 0xff)),
        _ => None,
    }
}

/// How the argument of `req` looks, for the families of this module.
pub(super) fn how(req: u32) -> Option<How> {
    Some(match (req >> 8) & 0xff {
        0x49 => inotify(req),
        0x52 => random(req),
        0x57 => watchdog(req),
        0x69 => lirc(req),
        0x24 => perf(req),
        0xab => nbd(req),
        0xb7 => nsfs(req),
        0x4c => loop_dev(req),
        0x22 => scsi(req),
        0x12 => block(req),
        0xaa => uffdio(req),
        0x4d => mtd(req),
        0x4f | 0x6f => ubi(req),
        0x89 => sock(req),
        // the terminal's modem lines (its other requests are decode.rs's)
        0x54 => return tiocm(req),
        _ => return None,
    })
}

/// The return value NS_GET_NSTYPE annotates: the namespace's CLONE_ flag.
pub(super) fn return_text(s: &mut String, call: &super::super::CallView<'_>) -> bool {
    if call.args[1] as u32 != NS_GET_NSTYPE {
        return false;
    }
    let Some((ret, _)) = call.exit else {
        return false;
    };
    let Some(&(_, n)) = SETNS_TYPES
        .iter()
        .find(|(v, _)| ret >= 0 && *v == ret as u64)
    else {
        return false;
    };
    let _ = write!(s, "= {ret} ({n})");
    true
}

fn int_bracket(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 4 {
        return false;
    }
    let _ = write!(o.s, "[{}]", u32at(d, 0) as u32 as i32);
    true
}

fn u64_bracket(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 8 {
        return false;
    }
    let _ = write!(o.s, "[{}]", u64at(d, 0));
    true
}

fn val_int(o: &mut Out<'_>, v: u64) {
    let _ = write!(o.s, "{}", v as u32 as i32);
}

fn val_unsigned(o: &mut Out<'_>, v: u64) {
    let _ = write!(o.s, "{v}");
}

fn val_fd(w: &mut ArgWriter<'_>) {
    super::super::arg(w, 2, super::super::Ty::Fd);
}

// ---- 'I': inotify ----

fn inotify(req: u32) -> How {
    match req {
        0x4004_4900 => How::Val(val_int), // INOTIFY_IOC_SETNEXTWD
        _ => How::Hex,
    }
}

// ---- 'R': random ----

fn random(req: u32) -> How {
    match req {
        0x8004_5200 => How::Out(int_bracket), // RNDGETENTCNT
        0x4004_5201 => How::In(int_bracket),  // RNDADDTOENTCNT
        RNDADDENTROPY => How::Custom(rand_pool_info),
        // RNDZAPENTCNT, RNDCLEARPOOL, RNDRESEEDCRNG
        0x5204 | 0x5206 | 0x5207 => How::Nothing,
        _ => How::Hex,
    }
}

/// struct rand_pool_info: the counts, then `buf_size` bytes of its buffer.
fn rand_pool_info(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[2];
    let data = super::input(w, RNDADDENTROPY);
    let strsize = w.opts.strsize;
    let Some(d) = data.filter(|d| d.len() >= 8) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let count = u32at(&d, 0) as u32 as i32;
    let size = u32at(&d, 4) as u32 as i32;
    let _ = write!(w.s, "{{entropy_count={count}, buf_size={size}, buf=");
    let want = (size.max(0) as usize).min(strsize);
    let buf = &d[8..];
    if buf.len() >= want {
        fmt::quoted(
            &mut w.s,
            &buf[..want],
            (size.max(0) as usize) > want,
            fmt::HexStr::None,
        );
    } else {
        fmt::ptr(&mut w.s, v + 8);
    }
    w.s.push('}');
}

// ---- 'W': watchdog ----

fn watchdog(req: u32) -> How {
    match req {
        // WDIOC_GETSTATUS, GETBOOTSTATUS, GETTEMP, GETTIMEOUT,
        // GETPRETIMEOUT, GETTIMELEFT
        0x8004_5701 | 0x8004_5702 | 0x8004_5703 | 0x8004_5707 | 0x8004_5709 | 0x8004_570a => {
            How::Out(int_bracket)
        }
        // WDIOC_SETTIMEOUT, WDIOC_SETPRETIMEOUT: what the caller gives
        0xc004_5706 | 0xc004_5708 => How::In(int_bracket),
        // WDIOC_KEEPALIVE: its int is ignored
        0x8004_5705 => How::Nothing,
        _ => How::Hex,
    }
}

// ---- 'i': LIRC ----

fn lirc(req: u32) -> How {
    let shape: super::Shape = match req {
        0x8004_6900 => |o, d| lirc_value(o, d, 0), // LIRC_GET_FEATURES
        0x8004_6901 | 0x8004_6902 | 0x4004_6911 | 0x4004_6912 => |o, d| lirc_value(o, d, 1), // modes
        0x4004_6917 => |o, d| lirc_value(o, d, 2), // LIRC_SET_TRANSMITTER_MASK
        0x8004_6907 | 0x8004_6908 | 0x8004_6909 | 0x8004_690f | 0x8004_6924 | 0x4004_6913
        | 0x4004_6914 | 0x4004_6915 | 0x4004_6918 | 0x4004_6919 | 0x4004_691d | 0x4004_691f
        | 0x4004_6923 => |o, d| lirc_value(o, d, 3),
        _ => return How::Hex,
    };
    if req >> 30 == 2 {
        How::Out(shape)
    } else {
        How::In(shape)
    }
}

fn lirc_value(o: &mut Out<'_>, d: &[u8], kind: u8) -> bool {
    if d.len() < 4 {
        return false;
    }
    let v = u32at(d, 0);
    o.put("[");
    match kind {
        0 => fmt::flags_default(o.s, v, LIRC_FEATURES, "LIRC_CAN_???", o.x),
        1 => o.xval(v, LIRC_MODES, "LIRC_MODE_???"),
        2 => fmt::hex(o.s, v),
        _ => {
            let _ = write!(o.s, "{v}");
        }
    }
    o.put("]");
    true
}

// ---- '$': perf ----

fn perf(req: u32) -> How {
    match req {
        // PERF_EVENT_IOC_ENABLE, DISABLE, RESET
        0x2400 | 0x2401 | 0x2403 => How::Val(|o, v| {
            fmt::flags_default(
                o.s,
                v as u32 as u64,
                PERF_IOCTL_FLAGS,
                "PERF_IOC_FLAG_???",
                o.x,
            )
        }),
        0x2402 => How::Val(val_int),         // PERF_EVENT_IOC_REFRESH
        0x4008_2404 => How::In(u64_bracket), // PERF_EVENT_IOC_PERIOD
        0x2405 | 0x4004_2408 => How::Custom(val_fd), // SET_OUTPUT, SET_BPF
        0x4004_2409 => How::Val(val_unsigned), // PERF_EVENT_IOC_PAUSE_OUTPUT
        0x8008_2407 => How::Out(u64_bracket), // PERF_EVENT_IOC_ID
        super::perf_ioctl::SET_FILTER => How::Custom(super::perf_ioctl::set_filter),
        super::perf_ioctl::QUERY_BPF => How::Custom(super::perf_ioctl::query_bpf),
        super::perf_ioctl::MODIFY_ATTRIBUTES => How::Custom(super::perf_ioctl::modify_attributes),
        _ => How::Hex,
    }
}

// ---- 0xab: NBD ----

fn nbd(req: u32) -> How {
    match req {
        // NBD_DO_IT, CLEAR_SOCK, CLEAR_QUE, PRINT_DEBUG, DISCONNECT
        0xab03..=0xab06 | 0xab08 => How::Nothing,
        0xab00 => How::Custom(val_fd), // NBD_SET_SOCK
        // NBD_SET_BLKSIZE, SET_SIZE, SET_SIZE_BLOCKS, SET_TIMEOUT
        0xab01 | 0xab02 | 0xab07 | 0xab09 => How::Val(val_unsigned),
        0xab0a => How::Val(|o, v| fmt::flags(o.s, v, NBD_IOCTL_FLAGS, None, o.x)), // NBD_SET_FLAGS
        _ => How::Hex,
    }
}

// ---- 0xb7: nsfs ----

fn nsfs(req: u32) -> How {
    match req {
        // NS_GET_USERNS, NS_GET_PARENT, NS_GET_NSTYPE: no argument
        0xb701..=0xb703 => How::Nothing,
        NS_GET_OWNER_UID => How::Out(|o, d| {
            if d.len() < 4 {
                return false;
            }
            match u32at(d, 0) as u32 {
                u32::MAX => o.put("[-1]"),
                uid => {
                    let _ = write!(o.s, "[{uid}]");
                }
            }
            true
        }),
        _ => How::Hex,
    }
}

// ---- 0x12: the block layer ----

fn block(req: u32) -> How {
    match req {
        0x1262 | 0x1264 => How::Val(val_unsigned), // BLKRASET, BLKFRASET
        // BLKSECTGET, BLKROTATIONAL: an unsigned short back
        0x1267 | 0x127e => How::Out(|o, d| {
            if d.len() < 2 {
                return false;
            }
            let _ = write!(o.s, "[{}]", super::u16at(d, 0));
            true
        }),
        // BLKROGET, BLKBSZGET, BLKSSZGET, BLKALIGNOFF: an int back
        0x125e | 0x8008_1270 | 0x1268 | 0x127a => How::Out(int_bracket),
        0x125d | 0x4008_1271 => How::In(int_bracket), // BLKROSET, BLKBSZSET
        // BLKPBSZGET, BLKIOMIN, BLKIOOPT, BLKDISCARDZEROES, BLKGETZONESZ,
        // BLKGETNRZONES: an unsigned int back
        0x127b | 0x1278 | 0x1279 | 0x127c | 0x8004_1284 | 0x8004_1285 => How::Out(|o, d| {
            if d.len() < 4 {
                return false;
            }
            let _ = write!(o.s, "[{}]", u32at(d, 0));
            true
        }),
        // BLKRAGET, BLKFRAGET: a long back
        0x1263 | 0x1265 => How::Out(|o, d| {
            if d.len() < 8 {
                return false;
            }
            let _ = write!(o.s, "[{}]", u64at(d, 0) as i64);
            true
        }),
        // BLKGETSIZE (unsigned long), BLKGETSIZE64, BLKGETDISKSEQ (u64)
        0x1260 | 0x8008_1272 | 0x8008_1280 => How::Out(u64_bracket),
        // BLKDISCARD, BLKSECDISCARD, BLKZEROOUT: a pair of u64
        0x1277 | 0x127d | 0x127f => How::In(|o, d| {
            if d.len() < 16 {
                return false;
            }
            let _ = write!(o.s, "[{}, {}]", u64at(d, 0), u64at(d, 8));
            true
        }),
        BLKPG => How::Custom(blkpg),
        BLKTRACESETUP => How::Custom(blk_trace_setup),
        // BLKRRPART, BLKFLSBUF, BLKTRACESTART, BLKTRACESTOP, BLKTRACETEARDOWN
        0x125f | 0x1261 | 0x1274..=0x1276 => How::Nothing,
        _ => How::Hex,
    }
}

/// struct blkpg_ioctl_arg, and the partition its data points to.
fn blkpg(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[2];
    let Some(d) = super::input(w, BLKPG).filter(|d| d.len() >= 24) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let data = u64at(&d, 16);
    // copied at entry (slot 8), else read from the live process
    let second = super::super::second_level::bytes(
        &w.call,
        super::super::second_level::SLOT_C,
        false,
        data,
        152,
    );
    let part = second
        .map(<[u8]>::to_vec)
        .or_else(|| w.env.read_mem.and_then(|read| read(data, 152)))
        .filter(|p| data != 0 && p.len() >= 152);
    let x = w.opts.xlat;
    let (verbose, strsize) = (w.opts.verbose, w.opts.strsize);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    o.put("{op=");
    o.xval(u32at(&d, 0), BLKPG_OPS, "BLKPG_???");
    let _ = write!(
        o.s,
        ", flags={}, datalen={}, data=",
        u32at(&d, 4) as u32 as i32,
        u32at(&d, 8) as u32 as i32
    );
    match part {
        Some(p) => {
            let _ = write!(
                o.s,
                "{{start={}, length={}, pno={}, devname=",
                u64at(&p, 0) as i64,
                u64at(&p, 8) as i64,
                u32at(&p, 16) as u32 as i32
            );
            o.cstring(&p[20..84]);
            o.put(", volname=");
            o.cstring(&p[84..148]);
            o.put("}");
        }
        None => fmt::ptr(o.s, data),
    }
    w.s.push('}');
}

/// struct blk_user_trace_setup: the caller's fields at entry, the name
/// the kernel gives back at exit.
fn blk_trace_setup(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[2];
    let Some(d) = super::input(w, BLKTRACESETUP).filter(|d| d.len() >= 72) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let _ = write!(
        w.s,
        "{{act_mask={}, buf_size={}, buf_nr={}, start_lba={}, end_lba={}, pid={}",
        super::u16at(&d, 32),
        u32at(&d, 36),
        u32at(&d, 40),
        u64at(&d, 48),
        u64at(&d, 56),
        u32at(&d, 64) as u32 as i32
    );
    // at entry the struct stays open: the exit goes on from there
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r >= 0) {
        if let Some(out) = super::output(w, BLKTRACESETUP).filter(|d| d.len() >= 32) {
            let x = w.opts.xlat;
            let (verbose, strsize) = (w.opts.verbose, w.opts.strsize);
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            o.put(", name=");
            o.cstring(&out[..32]);
        }
    }
    w.s.push('}');
}

// ---- 0xaa: userfaultfd ----

const UFFDIO_API: u32 = 0xc018_aa3f;
const UFFDIO_REGISTER: u32 = 0xc020_aa00;
const UFFDIO_COPY: u32 = 0xc028_aa03;
const UFFDIO_ZEROPAGE: u32 = 0xc020_aa04;

fn uffdio(req: u32) -> How {
    match req {
        UFFDIO_API => How::Custom(|w| uffdio_two(w, UFFDIO_API, 24)),
        UFFDIO_REGISTER => How::Custom(|w| uffdio_two(w, UFFDIO_REGISTER, 32)),
        UFFDIO_COPY => How::Custom(|w| uffdio_two(w, UFFDIO_COPY, 40)),
        UFFDIO_ZEROPAGE => How::Custom(|w| uffdio_two(w, UFFDIO_ZEROPAGE, 32)),
        // UFFDIO_UNREGISTER, UFFDIO_WAKE: a range, read at entry
        0x8010_aa01 | 0x8010_aa02 => How::In(|o, d| {
            if d.len() < 16 {
                return false;
            }
            uffdio_range(o, d);
            true
        }),
        _ => How::Hex,
    }
}

fn uffdio_range(o: &mut Out<'_>, d: &[u8]) {
    o.put("{start=");
    fmt::hex(o.s, u64at(d, 0));
    o.put(", len=");
    fmt::hex(o.s, u64at(d, 8));
    o.put("}");
}

/// The userfaultfd structures the caller fills and the kernel completes:
/// the caller's fields at entry, then (when the call succeeded) what the
/// kernel wrote.
fn uffdio_two(w: &mut ArgWriter<'_>, req: u32, size: usize) {
    w.sep();
    let v = w.call.args[2];
    let Some(d) = super::input(w, req).filter(|d| d.len() >= size) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let x = w.opts.xlat;
    let (verbose, strsize) = (w.opts.verbose, w.opts.strsize);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    match req {
        UFFDIO_API => {
            o.put("{api=");
            fmt::hex(o.s, u64at(&d, 0));
            o.put(", features=");
            fmt::flags_default(o.s, u64at(&d, 8), UFFD_API_FEATURES, "UFFD_FEATURE_???", x);
        }
        UFFDIO_COPY => {
            o.put("{dst=");
            fmt::hex(o.s, u64at(&d, 0));
            o.put(", src=");
            fmt::hex(o.s, u64at(&d, 8));
            o.put(", len=");
            fmt::hex(o.s, u64at(&d, 16));
            o.put(", mode=");
            fmt::flags_default(o.s, u64at(&d, 24), UFFD_COPY_FLAGS, "UFFDIO_COPY_???", x);
        }
        _ => {
            o.put("{range=");
            uffdio_range(&mut o, &d);
            o.put(", mode=");
            if req == UFFDIO_REGISTER {
                let m = u64at(&d, 16);
                fmt::flags_default(
                    o.s,
                    m,
                    UFFD_REGISTER_MODE_FLAGS,
                    "UFFDIO_REGISTER_MODE_???",
                    x,
                );
            } else {
                let m = u64at(&d, 16);
                fmt::flags_default(o.s, m, UFFD_ZEROPAGE_FLAGS, "UFFDIO_ZEROPAGE_???", x);
            }
        }
    }
    // at entry the struct stays open: the exit goes on from there
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r >= 0) {
        if let Some(e) = super::output(w, req).filter(|e| e.len() >= size) {
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            match req {
                UFFDIO_API => {
                    let f = u64at(&e, 8);
                    if f != u64at(&d, 8) {
                        o.put(" => features=");
                        fmt::flags_default(o.s, f, UFFD_API_FEATURES, "UFFD_FEATURE_???", x);
                    }
                    o.put(", ioctls=");
                    fmt::flags_default(o.s, u64at(&e, 16), UFFD_API_FLAGS, "_UFFDIO_???", x);
                }
                UFFDIO_REGISTER => {
                    o.put(", ioctls=");
                    let f = u64at(&e, 24);
                    fmt::flags_default(o.s, f, UFFD_REGISTER_IOCTL_FLAGS, "UFFDIO_???", x);
                }
                UFFDIO_COPY => {
                    o.put(", copy=");
                    fmt::hex(o.s, u64at(&e, 32));
                }
                _ => {
                    o.put(", zeropage=");
                    fmt::hex(o.s, u64at(&e, 24));
                }
            }
        }
    }
    w.s.push('}');
}

// ---- 'M': memory technology devices ----

fn x32(o: &mut Out<'_>, name: &str, d: &[u8], at: usize) {
    let _ = write!(o.s, "{name}=");
    fmt::hex(o.s, u32at(d, at));
}

fn x64(o: &mut Out<'_>, name: &str, d: &[u8], at: usize) {
    let _ = write!(o.s, "{name}=");
    fmt::hex(o.s, u64at(d, at));
}

fn p64(o: &mut Out<'_>, name: &str, d: &[u8], at: usize) {
    let _ = write!(o.s, "{name}=");
    fmt::ptr(o.s, u64at(d, at));
}

fn mtd(req: u32) -> How {
    match req {
        // MEMERASE, MEMLOCK, MEMUNLOCK, MEMISLOCKED: struct erase_info_user
        0x4008_4d02 | 0x4008_4d05 | 0x4008_4d06 | 0x8008_4d17 => How::In(|o, d| {
            if d.len() < 8 {
                return false;
            }
            x32(o, "{start", d, 0);
            x32(o, ", length", d, 4);
            o.put("}");
            true
        }),
        0x4010_4d14 => How::In(|o, d| {
            // MEMERASE64
            if d.len() < 16 {
                return false;
            }
            x64(o, "{start", d, 0);
            x64(o, ", length", d, 8);
            o.put("}");
            true
        }),
        // MEMWRITEOOB, MEMREADOOB: struct mtd_oob_buf
        0xc010_4d03 | 0xc010_4d04 => How::In(|o, d| {
            if d.len() < 16 {
                return false;
            }
            x32(o, "{start", d, 0);
            x32(o, ", length", d, 4);
            p64(o, ", ptr", d, 8);
            o.put("}");
            true
        }),
        // MEMWRITEOOB64, MEMREADOOB64: struct mtd_oob_buf64
        0xc018_4d15 | 0xc018_4d16 => How::In(|o, d| {
            if d.len() < 24 {
                return false;
            }
            x64(o, "{start", d, 0);
            x32(o, ", length", d, 12);
            p64(o, ", usr_ptr", d, 16);
            o.put("}");
            true
        }),
        0xc030_4d18 => How::In(|o, d| {
            // MEMWRITE: struct mtd_write_req
            if d.len() < 41 {
                return false;
            }
            x64(o, "{start", d, 0);
            x64(o, ", len", d, 8);
            x64(o, ", ooblen", d, 16);
            p64(o, ", usr_data", d, 24);
            p64(o, ", usr_oob", d, 32);
            o.put(", mode=");
            o.xval(d[40] as u64, MTD_MODE_OPTIONS, "MTD_OPS_???");
            o.put("}");
            true
        }),
        0x400c_4d0f => How::Out(otp_info), // OTPGETREGIONINFO
        0x800c_4d10 => How::In(otp_info),  // OTPLOCK
        0x8004_4d0d => How::In(|o, d| {
            // OTPSELECT
            if d.len() < 4 {
                return false;
            }
            o.put("[");
            o.xval(u32at(d, 0), MTD_OTP_OPTIONS, "MTD_OTP_???");
            o.put("]");
            true
        }),
        0x4d13 => How::Val(|o, v| o.xval(v, MTD_FILE_MODE_OPTIONS, "MTD_FILE_MODE_???")), // MTDFILEMODE
        // MEMGETBADBLOCK, MEMSETBADBLOCK: a loff_t
        0x4008_4d0b | 0x4008_4d0c => How::In(u64_bracket),
        0x8020_4d01 => How::Out(|o, d| {
            // MEMGETINFO: struct mtd_info_user
            if d.len() < 32 {
                return false;
            }
            o.put("{type=");
            o.xval(d[0] as u64, MTD_TYPE_OPTIONS, "MTD_???");
            o.put(", flags=");
            fmt::flags_default(o.s, u32at(d, 4), MTD_FLAGS_OPTIONS, "MTD_???", o.x);
            x32(o, ", size", d, 8);
            x32(o, ", erasesize", d, 12);
            x32(o, ", writesize", d, 16);
            x32(o, ", oobsize", d, 20);
            x64(o, ", padding", d, 24);
            o.put("}");
            true
        }),
        0x80c8_4d0a => How::Out(|o, d| {
            // MEMGETOOBSEL: struct nand_oobinfo
            if d.len() < 200 {
                return false;
            }
            o.put("{useecc=");
            o.xval(u32at(d, 0), MTD_NANDECC_OPTIONS, "MTD_NANDECC_???");
            x32(o, ", eccbytes", d, 4);
            o.put(", oobfree=");
            o.array(8, |o, k| {
                let (a, b) = (u32at(d, 8 + 8 * k), u32at(d, 12 + 8 * k));
                o.array(2, |o, j| fmt::hex(o.s, if j == 0 { a } else { b }));
            });
            o.put(", eccpos=");
            o.array(32, |o, k| fmt::hex(o.s, u32at(d, 72 + 4 * k)));
            o.put("}");
            true
        }),
        0x8148_4d11 => How::Out(|o, d| {
            // ECCGETLAYOUT: struct nand_ecclayout_user
            if d.len() < 328 {
                return false;
            }
            x32(o, "{eccbytes", d, 0);
            o.put(", eccpos=");
            o.array(64, |o, k| fmt::hex(o.s, u32at(d, 4 + 4 * k)));
            x32(o, ", oobavail", d, 260);
            o.put(", oobfree=");
            o.array(8, |o, k| {
                x32(o, "{offset", d, 264 + 8 * k);
                x32(o, ", length", d, 268 + 8 * k);
                o.put("}");
            });
            o.put("}");
            true
        }),
        0x8010_4d12 => How::Out(|o, d| {
            // ECCGETSTATS: struct mtd_ecc_stats
            if d.len() < 16 {
                return false;
            }
            x32(o, "{corrected", d, 0);
            x32(o, ", failed", d, 4);
            x32(o, ", badblocks", d, 8);
            x32(o, ", bbtblocks", d, 12);
            o.put("}");
            true
        }),
        0x4004_4d0e => How::Out(|o, d| {
            // OTPGETREGIONCOUNT: an unsigned int back
            if d.len() < 4 {
                return false;
            }
            let _ = write!(o.s, "[{}]", u32at(d, 0));
            true
        }),
        0x8004_4d07 => How::Out(int_bracket), // MEMGETREGIONCOUNT
        MEMGETREGIONINFO => How::Custom(region_info),
        _ => How::Hex,
    }
}

const MEMGETREGIONINFO: u32 = 0xc010_4d08;

fn otp_info(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 12 {
        return false;
    }
    x32(o, "{start", d, 0);
    x32(o, ", length", d, 4);
    let _ = write!(o.s, ", locked={}}}", u32at(d, 8));
    true
}

/// struct region_info_user: the index asked for, then what the driver
/// fills.
fn region_info(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[2];
    let Some(d) = super::input(w, MEMGETREGIONINFO).filter(|d| d.len() >= 16) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    w.s.push_str("{regionindex=");
    fmt::hex(&mut w.s, u32at(&d, 12));
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r >= 0) {
        if let Some(e) = super::output(w, MEMGETREGIONINFO).filter(|e| e.len() >= 16) {
            for (name, at) in [("offset", 0), ("erasesize", 4), ("numblocks", 8)] {
                let _ = write!(w.s, ", {name}=");
                fmt::hex(&mut w.s, u32at(&e, at));
            }
        }
    }
    w.s.push('}');
}

// ---- 'T': the modem lines ----

fn tiocm(req: u32) -> Option<How> {
    let lines: super::Shape = |o, d| {
        if d.len() < 4 {
            return false;
        }
        o.put("[");
        fmt::flags_default(o.s, u32at(d, 0), MODEM_FLAGS, "TIOCM_???", o.x);
        o.put("]");
        true
    };
    match req {
        0x5415 => Some(How::Out(lines)),         // TIOCMGET
        0x5416..=0x5418 => Some(How::In(lines)), // TIOCMBIS, TIOCMBIC, TIOCMSET
        _ => None,
    }
}

// ---- 0x89: sockets ----

const SIOCGIFCONF: u32 = 0x8912;

fn sock(req: u32) -> How {
    match req {
        SIOCGIFCONF => How::Custom(ifconf),
        // SIOCBRADDBR, SIOCBRDELBR: a bridge's name
        0x89a0 | 0x89a1 => How::In(|o, d| {
            match d.iter().position(|&c| c == 0) {
                Some(n) => fmt::quoted(o.s, &d[..n], false, fmt::HexStr::None),
                None => fmt::quoted(o.s, d, true, fmt::HexStr::None),
            }
            true
        }),
        // FIOGETOWN, SIOCATMARK, SIOCGIFENCAP, SIOCGPGRP, SIOCOUTQNSD
        0x8903 | 0x8905 | 0x8925 | 0x8904 | 0x894b => How::Out(int_bracket),
        // FIOSETOWN, SIOCSIFENCAP, SIOCSPGRP
        0x8901 | 0x8926 | 0x8902 => How::In(int_bracket),
        // SIOCBRADDIF, SIOCBRDELIF: the interface's index
        0x89a2 | 0x89a3 => How::In(|o, d| {
            if d.len() < 40 {
                return false;
            }
            o.put("{ifr_ifindex=");
            super::super::sockopt::ifindex(o.s, u32at(d, 16) as u32, o.x);
            o.put("}");
            true
        }),
        // the setters: the name, then the field the request sets
        0x8931 | 0x8932 | 0x8916 | 0x891a | 0x8918 | 0x8914 | 0x8924 | 0x8937 | 0x8971 | 0x891e
        | 0x8922 | 0x8923 | 0x891c | 0x8930 | 0x8943 => How::Custom(ifreq_set),
        // the getters: the name (SIOCGIFNAME: the index) at entry, the field
        // at exit
        0x8915 | 0x8919 | 0x8917 | 0x8913 | 0x8927 | 0x8933 | 0x8970 | 0x891d | 0x8921 | 0x8910
        | 0x891b | 0x8929 | 0x8942 => How::Custom(ifreq_get),
        // requests strace shows the address of
        0x8980 | 0x890b | 0x8995 | 0x8990 | 0x8994 | 0x8991 | 0x8992 | 0x8993 | 0x8953 | 0x8981
        | 0x890c | 0x8936 | 0x8960 | 0x8946 | 0x8954 | 0x89b1 | 0x8940 | 0x8938 | 0x891f
        | 0x8935 | 0x8982 | 0x8947 | 0x8948 | 0x8961 | 0x894c | 0x8906 | 0x8006_8906
        | 0x8010_8906 | 0x8907 | 0x8010_8907 | 0x890d | 0x8955 | 0x89b0 | 0x8941 | 0x8911
        | 0x8920 | 0x8934 | 0x8983 | 0x8949 | 0x8962 | 0x894a => How::Val(|o, v| fmt::ptr(o.s, v)),
        _ => How::Hex,
    }
}

/// The bytes of a hardware address a type has (strace's table; all of
/// sa_data for the others).
fn hw_size(ty: u64) -> usize {
    let name = crate::decode::sockaddr::ARP_HW_TYPES
        .iter()
        .find(|(v, _)| *v == ty)
        .map_or("", |(_, n)| *n);
    match name.strip_prefix("ARPHRD_").unwrap_or("") {
        "NETROM" | "AX25" => 7,
        "ETHER" | "IEEE802" | "LOOPBACK" | "FDDI" | "HIPPI" | "IEEE80211" | "IEEE80211_PRISM"
        | "IEEE80211_RADIOTAP" => 6,
        "ARCNET" | "MCTP" | "LOCALTLK" | "PHONET" | "PHONET_PIPE" => 1,
        "DLCI" => 2,
        "IEEE1394" | "TUNNEL6" | "IP6GRE" => 16,
        "EUI64" | "6LOWPAN" | "IEEE802154" | "IEEE802154_MONITOR" => 8,
        "INFINIBAND" => 20,
        "ROSE" => 5,
        "TUNNEL" | "SIT" | "IPGRE" | "IRDA" => 4,
        "SLIP" | "X25" | "CAN" | "PPP" | "RAWHDLC" | "RAWIP" | "IPDDP" | "PIMREG" | "CAIF"
        | "NETLINK" | "VSOCKMON" => 0,
        _ => 14,
    }
}

/// The field of struct ifreq a request reads or writes.
fn ifreq_field(o: &mut Out<'_>, req: u32, d: &[u8], st: super::super::sockaddr::Style<'_>) {
    let name = |o: &mut Out<'_>, field: &str| {
        let _ = write!(o.s, "{field}=");
        o.cstring(&d[16..32]);
    };
    let addr = |o: &mut Out<'_>, field: &str| {
        let _ = write!(o.s, "{field}=");
        super::super::sockaddr::print(o.s, &d[16..32], st);
    };
    match req {
        0x8915 | 0x8916 => addr(o, "ifr_addr"),
        0x8917 | 0x8918 => addr(o, "ifr_dstaddr"),
        0x8919 | 0x891a => addr(o, "ifr_broadaddr"),
        0x891b | 0x891c => addr(o, "ifr_netmask"),
        0x8931 | 0x8932 | 0x8927 | 0x8924 | 0x8937 => {
            let ty = super::u16at(d, 16);
            o.put("ifr_hwaddr={sa_family=");
            o.xval(ty, crate::decode::sockaddr::ARP_HW_TYPES, "ARPHRD_???");
            o.put(", sa_data=");
            let n = hw_size(ty).min(14);
            super::super::sockopt::mac(o.s, &d[18..18 + n], o.x);
            o.put("}");
        }
        0x8913 | 0x8914 => {
            o.put("ifr_flags=");
            let f = super::u16at(d, 16);
            fmt::flags_default(o.s, f, IFFFLAGS, "IFF_???", o.x);
        }
        0x8933 => {
            let _ = write!(o.s, "ifr_ifindex={}", u32at(d, 16) as u32 as i32);
        }
        0x891d | 0x891e => {
            let _ = write!(o.s, "ifr_metric={}", u32at(d, 16) as u32 as i32);
        }
        0x8921 | 0x8922 => {
            let _ = write!(o.s, "ifr_mtu={}", u32at(d, 16) as u32 as i32);
        }
        0x8929 | 0x8930 => name(o, "ifr_slave"),
        0x8923 => name(o, "ifr_newname"),
        0x8910 => {
            o.put("ifr_name=");
            o.cstring(&d[..16]);
        }
        0x8942 | 0x8943 => {
            let _ = write!(o.s, "ifr_qlen={}", u32at(d, 16) as u32 as i32);
        }
        0x8970 | 0x8971 => {
            x64(o, "ifr_map={mem_start", d, 16);
            x64(o, ", mem_end", d, 24);
            let _ = write!(o.s, ", base_addr=");
            fmt::hex(o.s, super::u16at(d, 32));
            let _ = write!(o.s, ", irq=");
            fmt::hex(o.s, d[34] as u64);
            let _ = write!(o.s, ", dma=");
            fmt::hex(o.s, d[35] as u64);
            let _ = write!(o.s, ", port=");
            fmt::hex(o.s, d[36] as u64);
            o.put("}");
        }
        _ => {}
    }
}

/// struct ifconf's length: `80 /* 2 * sizeof(struct ifreq) */`.
fn ifc_len(s: &mut String, len: i32) {
    let _ = write!(s, "{len}");
    let n = len as u32 / 40;
    if len > 0 && n * 40 == len as u32 {
        let _ = write!(s, " /* {n} * sizeof(struct ifreq) */");
    }
}

/// struct ifconf: the room the caller gives (or, with no buffer, asks the
/// size of), then the interfaces the kernel wrote in the buffer.
fn ifconf(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[2];
    let Some(d) = super::input(w, SIOCGIFCONF).filter(|d| d.len() >= 16) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let (len, buf) = (u32at(&d, 0) as u32 as i32, u64at(&d, 8));
    w.s.push_str("{ifc_len=");
    if buf != 0 {
        ifc_len(&mut w.s, len);
    }
    if !w.exiting_inside() {
        return;
    }
    let failed = w.call.ret().is_none_or(|r| r < 0);
    let Some(e) = super::output(w, SIOCGIFCONF).filter(|e| e.len() >= 16) else {
        if buf == 0 {
            ifc_len(&mut w.s, len);
        }
        w.s.push_str(", ifc_buf=");
        fmt::ptr(&mut w.s, buf);
        w.s.push('}');
        return;
    };
    let (elen, ebuf) = (u32at(&e, 0) as u32 as i32, u64at(&e, 8));
    if buf != 0 && len != elen {
        w.s.push_str(" => ");
    }
    if buf == 0 || len != elen {
        ifc_len(&mut w.s, elen);
    }
    w.s.push_str(", ifc_buf=");
    if buf == 0 || failed {
        fmt::ptr(&mut w.s, buf);
        if buf != ebuf {
            w.s.push_str(" => ");
            fmt::ptr(&mut w.s, ebuf);
        }
        w.s.push('}');
        return;
    }
    let n = (elen as u32 / 40) as usize;
    let shown = if w.opts.verbose {
        n
    } else {
        n.min(w.opts.strsize)
    };
    // copied at exit (slot 9), else read from the live process
    let copied =
        super::super::second_level::copied(&w.call, super::super::second_level::SLOT_D, true, ebuf)
            .filter(|c| !c.fault || c.data.len() >= 40 * shown)
            .map(|c| c.data[..c.data.len().min(40 * shown)].to_vec());
    let got = copied
        .or_else(|| {
            w.env
                .read_mem
                .filter(|_| shown > 0)
                .and_then(|read| read(ebuf, 40 * shown))
        })
        .unwrap_or_default();
    if shown > 0 && got.len() < 40 {
        fmt::ptr(&mut w.s, ebuf);
        w.s.push('}');
        return;
    }
    let st = super::super::sockaddr::Style::new(w.opts, None);
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    o.put("[");
    for k in 0..n {
        if k > 0 {
            o.put(", ");
        }
        if k >= shown || got.len() < 40 * (k + 1) {
            o.put("...");
            break;
        }
        let r = &got[40 * k..40 * (k + 1)];
        o.put("{ifr_name=");
        o.cstring(&r[..16]);
        o.put(", ifr_addr=");
        super::super::sockaddr::print(o.s, &r[16..32], st);
        o.put("}");
    }
    o.put("]}");
}

fn ifreq_set(w: &mut ArgWriter<'_>) {
    w.sep();
    let req = w.call.args[1] as u32;
    let v = w.call.args[2];
    let st = super::super::sockaddr::Style::new(w.opts, None);
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    let Some(d) = super::input(w, req).filter(|d| d.len() >= 40) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    o.put("{ifr_name=");
    o.cstring(&d[..16]);
    o.put(", ");
    ifreq_field(&mut o, req, &d, st);
    o.put("}");
}

fn ifreq_get(w: &mut ArgWriter<'_>) {
    w.sep();
    let req = w.call.args[1] as u32;
    let v = w.call.args[2];
    let st = super::super::sockaddr::Style::new(w.opts, None);
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    let Some(d) = super::input(w, req).filter(|d| d.len() >= 40) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    if req == 0x8910 {
        let _ = write!(w.s, "{{ifr_ifindex={}", u32at(&d, 16) as u32 as i32);
    } else {
        w.s.push_str("{ifr_name=");
        let mut o = Out {
            s: &mut w.s,
            x,
            verbose,
            strsize,
        };
        o.cstring(&d[..16]);
    }
    if !w.exiting_inside() {
        return;
    }
    if w.call.ret().is_some_and(|r| r >= 0) {
        if let Some(e) = super::output(w, req).filter(|e| e.len() >= 40) {
            let mut o = Out {
                s: &mut w.s,
                x,
                verbose,
                strsize,
            };
            o.put(", ");
            ifreq_field(&mut o, req, &e, st);
        }
    }
    w.s.push('}');
}

// ---- 'o', 'O': UBI ----

const UBI_IOCATT: u32 = 0x4018_6f40;
const UBI_IOCMKVOL: u32 = 0x4098_6f00;

fn ubi(req: u32) -> How {
    match req {
        UBI_IOCATT => How::Custom(|w| ubi_changed(w, UBI_IOCATT, ubi_attach_req)),
        UBI_IOCMKVOL => How::Custom(|w| ubi_changed(w, UBI_IOCMKVOL, ubi_mkvol_req)),
        0x4004_4f02 => How::In(|o, d| {
            // UBI_IOCEBCH: struct ubi_leb_change_req
            if d.len() < 9 {
                return false;
            }
            let _ = write!(
                o.s,
                "{{lnum={}, bytes={}, dtype=",
                u32at(d, 0) as u32 as i32,
                u32at(d, 4) as u32 as i32
            );
            o.xval(d[8] as i8 as i64 as u64, UBI_DATA_TYPES, "UBI_???");
            o.put("}");
            true
        }),
        0x4008_4f03 => How::In(|o, d| {
            // UBI_IOCEBMAP: struct ubi_map_req
            if d.len() < 5 {
                return false;
            }
            let _ = write!(o.s, "{{lnum={}, dtype=", u32at(d, 0) as u32 as i32);
            o.xval(d[4] as i8 as i64 as u64, UBI_DATA_TYPES, "UBI_???");
            o.put("}");
            true
        }),
        0x5110_6f03 => How::In(ubi_rnvol_req), // UBI_IOCRNVOL
        0x400c_6f02 => How::In(|o, d| {
            // UBI_IOCRSVOL: struct ubi_rsvol_req
            if d.len() < 12 {
                return false;
            }
            let _ = write!(
                o.s,
                "{{bytes={}, vol_id={}}}",
                u64at(d, 0) as i64,
                u32at(d, 8) as u32 as i32
            );
            true
        }),
        0x4010_4f06 => How::In(|o, d| {
            // UBI_IOCSETVOLPROP: struct ubi_set_vol_prop_req
            if d.len() < 16 {
                return false;
            }
            o.put("{property=");
            o.xval(d[0] as u64, UBI_VOLUME_PROPS, "UBI_VOL_PROP_???");
            x64(o, ", value", d, 8);
            o.put("}");
            true
        }),
        0x4008_4f00 => How::In(|o, d| {
            // UBI_IOCVOLUP: an int64
            if d.len() < 8 {
                return false;
            }
            let _ = write!(o.s, "[{}]", u64at(d, 0) as i64);
            true
        }),
        // UBI_IOCDET, UBI_IOCEBER, UBI_IOCEBISMAP, UBI_IOCEBUNMAP,
        // UBI_IOCRMVOL, UBI_IOCRPEB, UBI_IOCSPEB: an int
        0x4004_6f41 | 0x4004_4f01 | 0x8004_4f05 | 0x4004_4f04 | 0x4004_6f01 | 0x4004_6f04
        | 0x4004_6f05 => How::In(int_bracket),
        0x4080_4f07 | 0x4f08 => How::Nothing, // UBI_IOCVOLCRBLK, UBI_IOCVOLRMBLK
        _ => How::Hex,
    }
}

/// A name of `name_len` characters (strace's bound: its NUL's place).
fn ubi_name(o: &mut Out<'_>, name: &[u8], len: i64) {
    let n = 1 + len.clamp(0, name.len() as i64 - 1) as usize;
    o.cstring(&name[..n]);
}

fn ubi_attach_req(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 14 {
        return false;
    }
    let i = |k: usize| u32at(d, k) as u32 as i32;
    let _ = write!(
        o.s,
        "{{ubi_num={}, mtd_num={}, vid_hdr_offset={}, max_beb_per1024={}}}",
        i(0),
        i(4),
        i(8),
        super::u16at(d, 12) as u16 as i16
    );
    true
}

fn ubi_mkvol_req(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 152 {
        return false;
    }
    let len = super::u16at(d, 18) as u16 as i16;
    let _ = write!(
        o.s,
        "{{vol_id={}, alignment={}, bytes={}, vol_type=",
        u32at(d, 0) as u32 as i32,
        u32at(d, 4) as u32 as i32,
        u64at(d, 8) as i64
    );
    o.xval(
        d[16] as i8 as i64 as u64,
        UBI_VOLUME_TYPES,
        "UBI_???_VOLUME",
    );
    o.put(", flags=");
    fmt::flags_default(o.s, d[17] as u64, UBI_VOLUME_FLAGS, "UBI_VOL_???", o.x);
    let _ = write!(o.s, ", name_len={len}, name=");
    ubi_name(o, &d[24..152], len as i64);
    o.put("}");
    true
}

/// struct ubi_rnvol_req: as many of its entries as `count` says (at most
/// its 32); the address when the copy holds fewer.
fn ubi_rnvol_req(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 16 {
        return false;
    }
    let count = u32at(d, 0) as u32 as i32;
    let n = count.clamp(0, 32) as usize;
    let shown = if o.verbose { n } else { n.min(o.strsize) };
    if d.len() < 16 + 136 * shown {
        return false;
    }
    let _ = write!(o.s, "{{count={count}, ents=");
    o.array(n, |o, k| {
        let e = &d[16 + 136 * k..16 + 136 * (k + 1)];
        let len = super::u16at(e, 4) as u16 as i16;
        let _ = write!(
            o.s,
            "{{vol_id={}, name_len={len}, name=",
            u32at(e, 0) as u32 as i32
        );
        ubi_name(o, &e[8..136], len as i64);
        o.put("}");
    });
    o.put("}");
    true
}

/// A request whose struct the kernel answers with an int in its place
/// (the new UBI device's or volume's number): ` => [n]` when it succeeded.
fn ubi_changed(w: &mut ArgWriter<'_>, req: u32, shape: super::Shape) {
    w.sep();
    let v = w.call.args[2];
    let x = w.opts.xlat;
    let (verbose, strsize) = (w.opts.verbose, w.opts.strsize);
    let data = super::input(w, req);
    let mut o = Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    };
    match data {
        Some(d) if shape(&mut o, &d) => {}
        _ => {
            fmt::ptr(&mut w.s, v);
            return;
        }
    }
    if !w.exiting_inside() || w.call.ret().is_none_or(|r| r < 0) {
        return;
    }
    w.s.push_str(" => ");
    match super::output(w, req).filter(|d| d.len() >= 4) {
        Some(d) => {
            let _ = write!(w.s, "[{}]", u32at(&d, 0) as u32 as i32);
        }
        None => fmt::ptr(&mut w.s, v),
    }
}

// ---- 'L': loop devices ----

fn loop_dev(req: u32) -> How {
    match req {
        0x4c00 | 0x4c06 => How::Custom(val_fd), // LOOP_SET_FD, LOOP_CHANGE_FD
        // LOOP_CLR_FD, LOOP_SET_CAPACITY, LOOP_CTL_GET_FREE
        0x4c01 | 0x4c07 | 0x4c82 => How::Nothing,
        0x4c02 => How::In(loop_info),
        0x4c03 => How::Out(loop_info),
        0x4c04 => How::In(loop_info64),
        0x4c05 => How::Out(loop_info64),
        0x4c0a => How::In(loop_config),
        0x4c80 | 0x4c81 => How::Val(val_int), // LOOP_CTL_ADD, LOOP_CTL_REMOVE
        0x4c08 | 0x4c09 => How::Val(val_unsigned), // SET_DIRECT_IO, SET_BLOCK_SIZE
        _ => How::Hex,
    }
}

/// A device number (glibc's major and minor of a 64-bit dev_t).
fn dev(o: &mut Out<'_>, d: u64) {
    let major = ((d >> 8) & 0xfff) as u32 | ((d >> 32) as u32 & !0xfff);
    let minor = (d & 0xff) as u32 | ((d >> 12) as u32 & !0xff);
    o.put("makedev(");
    fmt::hex(o.s, major as u64);
    o.put(", ");
    fmt::hex(o.s, minor as u64);
    o.put(")");
}

/// The encryption key: as many bytes as its size says (at most 32).
fn loop_key(o: &mut Out<'_>, key: &[u8], size: u64) {
    let n = (size as u32).min(32) as usize;
    let shown = n.min(o.strsize);
    fmt::quoted(o.s, &key[..shown], n > shown, fmt::HexStr::None);
}

fn hex_array(o: &mut Out<'_>, vals: &[u64]) {
    o.array(vals.len(), |o, k| fmt::hex(o.s, vals[k]));
}

/// struct loop_info (the old one: int and long fields).
fn loop_info(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 168 {
        return false;
    }
    let full = o.verbose;
    let crypt = u32at(d, 36);
    let _ = write!(o.s, "{{lo_number={}", u32at(d, 0) as u32 as i32);
    if full {
        o.put(", lo_device=");
        dev(o, u64at(d, 8));
        let _ = write!(o.s, ", lo_inode={}, lo_rdevice=", u64at(d, 16));
        dev(o, u64at(d, 24));
    }
    o.put(", lo_offset=");
    fmt::hex(o.s, u32at(d, 32));
    if full || crypt != 0 {
        o.put(", lo_encrypt_type=");
        o.xval(crypt, LOOP_CRYPT_TYPE_OPTIONS, "LO_CRYPT_???");
        let _ = write!(o.s, ", lo_encrypt_key_size={}", u32at(d, 40));
    }
    o.put(", lo_flags=");
    fmt::flags_default(o.s, u32at(d, 44), LOOP_FLAGS_OPTIONS, "LO_FLAGS_???", o.x);
    o.put(", lo_name=");
    o.cstring(&d[48..112]);
    if full || crypt != 0 {
        o.put(", lo_encrypt_key=");
        loop_key(o, &d[112..144], u32at(d, 40));
    }
    if full {
        o.put(", lo_init=");
        hex_array(o, &[u64at(d, 144), u64at(d, 152)]);
        o.put(", reserved=");
        let r: Vec<u64> = d[160..164].iter().map(|&b| b as u64).collect();
        hex_array(o, &r);
    } else {
        o.put(", ...");
    }
    o.put("}");
    true
}

/// struct loop_info64.
fn loop_info64(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 232 {
        return false;
    }
    let full = o.verbose;
    let crypt = u32at(d, 44);
    if full {
        o.put("{lo_device=");
        dev(o, u64at(d, 0));
        let _ = write!(o.s, ", lo_inode={}, lo_rdevice=", u64at(d, 8));
        dev(o, u64at(d, 16));
        o.put(", lo_offset=");
        fmt::hex(o.s, u64at(d, 24));
        let _ = write!(
            o.s,
            ", lo_sizelimit={}, lo_number={}",
            u64at(d, 32),
            u32at(d, 40)
        );
    } else {
        o.put("{lo_offset=");
        fmt::hex(o.s, u64at(d, 24));
        let _ = write!(o.s, ", lo_number={}", u32at(d, 40));
    }
    if full || crypt != 0 {
        o.put(", lo_encrypt_type=");
        o.xval(crypt, LOOP_CRYPT_TYPE_OPTIONS, "LO_CRYPT_???");
        let _ = write!(o.s, ", lo_encrypt_key_size={}", u32at(d, 48));
    }
    o.put(", lo_flags=");
    fmt::flags_default(o.s, u32at(d, 52), LOOP_FLAGS_OPTIONS, "LO_FLAGS_???", o.x);
    o.put(", lo_file_name=");
    o.cstring(&d[56..120]);
    if full || crypt != 0 {
        o.put(", lo_crypt_name=");
        o.cstring(&d[120..184]);
        o.put(", lo_encrypt_key=");
        loop_key(o, &d[184..216], u32at(d, 48));
    }
    if full {
        o.put(", lo_init=");
        hex_array(o, &[u64at(d, 216), u64at(d, 224)]);
    } else {
        o.put(", ...");
    }
    o.put("}");
    true
}

/// struct loop_config: the descriptor, the block size, a loop_info64.
fn loop_config(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 304 {
        return false;
    }
    let _ = write!(
        o.s,
        "{{fd={}, block_size={}, info=",
        u32at(d, 0) as u32 as i32,
        u32at(d, 4)
    );
    loop_info64(o, &d[8..240]);
    let reserved: Vec<u64> = (0..8).map(|k| u64at(d, 240 + 8 * k)).collect();
    if reserved.iter().any(|&r| r != 0) {
        o.put(", __reserved=");
        hex_array(o, &reserved);
    }
    o.put("}");
    true
}

// ---- '"': the SCSI generic driver ----

fn scsi(req: u32) -> How {
    match req {
        // SG_IO: the interface id; the v3 and v4 structures are not decoded
        // here (their address)
        0x2285 => How::In(|o, d| {
            if d.len() < 4 {
                return false;
            }
            match u32at(d, 0) as u8 {
                b'S' | b'Q' => false,
                _ => {
                    let _ = write!(o.s, "[{}]", u32at(d, 0));
                    true
                }
            }
        }),
        0x2276 => How::Out(sg_scsi_id), // SG_GET_SCSI_ID
        // SG_GET_REQUEST_TABLE: its table is not decoded (the address)
        0x2286 => How::Out(|_, _| false),
        0x2284 => How::In(|o, d| {
            // SG_SCSI_RESET
            if d.len() < 4 {
                return false;
            }
            let v = u32at(d, 0);
            o.put("[");
            if v & 0x100 != 0 {
                o.xval(0x100, SG_SCSI_RESET, "");
                o.put("|");
            }
            o.xval(v & !0x100, SG_SCSI_RESET, "SG_SCSI_RESET_???");
            o.put("]");
            true
        }),
        // a signed int the caller gives
        0x2283 | 0x2271 | 0x227e | 0x2279 | 0x227b | 0x2287 | 0x2275 | 0x2201 => {
            How::In(int_bracket)
        }
        // a signed int the driver gives back
        0x2203 | 0x2289 | 0x2270 | 0x2288 | 0x227a | 0x227d | 0x227c | 0x2272 | 0x227f | 0x2205
        | 0x2282 => How::Out(int_bracket),
        0x2204 => How::Val(|o, v| fmt::hex(o.s, v as u32 as u64)), // SG_SET_TRANSFORM
        0x2202 => How::Nothing,                                    // SG_GET_TIMEOUT
        _ => How::Hex,
    }
}

/// struct sg_scsi_id.
fn sg_scsi_id(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 24 {
        return false;
    }
    let i = |k: usize| u32at(d, k) as u32 as i32;
    let hex = |v: u64| {
        let mut t = String::new();
        fmt::hex(&mut t, v);
        t
    };
    let _ = write!(
        o.s,
        "{{host_no={}, channel={}, scsi_id={}, lun={}, scsi_type={}, h_cmd_per_lun={}, d_queue_depth={}}}",
        i(0),
        i(4),
        hex(u32at(d, 8)),
        i(12),
        hex(u32at(d, 16)),
        super::u16at(d, 20) as u16 as i16,
        super::u16at(d, 22) as u16 as i16
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmt::Xlat;

    fn show(shape: super::super::Shape, d: &[u8]) -> String {
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x: Xlat::Abbrev,
            verbose: false,
            strsize: 32,
        };
        assert!(shape(&mut o, d));
        s
    }

    #[test]
    fn small_ioctl_shapes() {
        let How::Out(f) = lirc(0x8004_6900) else {
            panic!()
        };
        assert_eq!(show(f, &0x2u32.to_le_bytes()), "[LIRC_CAN_SEND_PULSE]");
        let How::In(f) = lirc(0x4004_6912) else {
            panic!()
        };
        assert_eq!(show(f, &3u32.to_le_bytes()), "[0x3 /* LIRC_MODE_??? */]");
        assert_eq!(show(int_bracket, &(-5i32).to_le_bytes()), "[-5]");
        assert!(matches!(nbd(0xab08), How::Nothing));
    }
}
