//! keyctl(cmd, arg2, arg3, arg4, arg5) (a family decoded in its own module:
//! see [`super::family_decoder`]), printed as strace 6.1 prints it: what
//! the four arguments are depends on the command (key serial numbers,
//! strings, buffers the kernel fills, permissions, iovecs, the structures
//! of the Diffie-Hellman and public key commands, the capabilities).
//!
//! The memory the arguments point to is copied, at entry and at exit, a
//! fixed amount (as much as `-s` shows, or the structure): what lies
//! before an unmapped page is kept, so a string running into one prints as
//! its address, as in strace. KEYCTL_INSTANTIATE_IOV's iovecs are copied
//! with their buffers. KEYCTL_DH_COMPUTE's KDF parameters point to a hash
//! name (copied through the pointer) and to other info, which there is no
//! slot left to copy (it would take a seventh): it is read from the process
//! when decoding, which works only while the process is there.

use std::fmt::Write;

use genba_events::{Capture, CaptureItem};

use super::{
    custom, iovec_raw, le_u32, le_u64, print_array_data, uid, ArgWriter, CallView, CapCond,
    CapKind, CapPlan, CapWhen, Decoder, Options, Ret, Ty,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// The slot of KEYCTL_DH_COMPUTE's hash name (through the KDF parameters).
const SLOT_HASH: usize = 0;
/// The slot of KEYCTL_INSTANTIATE_IOV's iovecs and their buffers.
const SLOT_IOV: usize = 5;

/// The commands (`keyctl_commands`), numbered in order.
static COMMANDS: &[&str] = &[
    "KEYCTL_GET_KEYRING_ID",
    "KEYCTL_JOIN_SESSION_KEYRING",
    "KEYCTL_UPDATE",
    "KEYCTL_REVOKE",
    "KEYCTL_CHOWN",
    "KEYCTL_SETPERM",
    "KEYCTL_DESCRIBE",
    "KEYCTL_CLEAR",
    "KEYCTL_LINK",
    "KEYCTL_UNLINK",
    "KEYCTL_SEARCH",
    "KEYCTL_READ",
    "KEYCTL_INSTANTIATE",
    "KEYCTL_NEGATE",
    "KEYCTL_SET_REQKEY_KEYRING",
    "KEYCTL_SET_TIMEOUT",
    "KEYCTL_ASSUME_AUTHORITY",
    "KEYCTL_GET_SECURITY",
    "KEYCTL_SESSION_TO_PARENT",
    "KEYCTL_REJECT",
    "KEYCTL_INSTANTIATE_IOV",
    "KEYCTL_INVALIDATE",
    "KEYCTL_GET_PERSISTENT",
    "KEYCTL_DH_COMPUTE",
    "KEYCTL_PKEY_QUERY",
    "KEYCTL_PKEY_ENCRYPT",
    "KEYCTL_PKEY_DECRYPT",
    "KEYCTL_PKEY_SIGN",
    "KEYCTL_PKEY_VERIFY",
    "KEYCTL_RESTRICT_KEYRING",
    "KEYCTL_MOVE",
    "KEYCTL_CAPABILITIES",
    "KEYCTL_WATCH_KEY",
];

/// KEYCTL_SET_REQKEY_KEYRING's keyrings.
static REQKEYS: &[(u64, &str)] = &[
    (-1i64 as u64, "KEY_REQKEY_DEFL_NO_CHANGE"),
    (0, "KEY_REQKEY_DEFL_DEFAULT"),
    (1, "KEY_REQKEY_DEFL_THREAD_KEYRING"),
    (2, "KEY_REQKEY_DEFL_PROCESS_KEYRING"),
    (3, "KEY_REQKEY_DEFL_SESSION_KEYRING"),
    (4, "KEY_REQKEY_DEFL_USER_KEYRING"),
    (5, "KEY_REQKEY_DEFL_USER_SESSION_KEYRING"),
    (6, "KEY_REQKEY_DEFL_GROUP_KEYRING"),
    (7, "KEY_REQKEY_DEFL_REQUESTOR_KEYRING"),
];

/// A key's permissions (the single bits come before their `_ALL`).
static KEY_PERMS: &[(u64, &str)] = &[
    (0x0100_0000, "KEY_POS_VIEW"),
    (0x0200_0000, "KEY_POS_READ"),
    (0x0400_0000, "KEY_POS_WRITE"),
    (0x0800_0000, "KEY_POS_SEARCH"),
    (0x1000_0000, "KEY_POS_LINK"),
    (0x2000_0000, "KEY_POS_SETATTR"),
    (0x3f00_0000, "KEY_POS_ALL"),
    (0x0001_0000, "KEY_USR_VIEW"),
    (0x0002_0000, "KEY_USR_READ"),
    (0x0004_0000, "KEY_USR_WRITE"),
    (0x0008_0000, "KEY_USR_SEARCH"),
    (0x0010_0000, "KEY_USR_LINK"),
    (0x0020_0000, "KEY_USR_SETATTR"),
    (0x003f_0000, "KEY_USR_ALL"),
    (0x0000_0100, "KEY_GRP_VIEW"),
    (0x0000_0200, "KEY_GRP_READ"),
    (0x0000_0400, "KEY_GRP_WRITE"),
    (0x0000_0800, "KEY_GRP_SEARCH"),
    (0x0000_1000, "KEY_GRP_LINK"),
    (0x0000_2000, "KEY_GRP_SETATTR"),
    (0x0000_3f00, "KEY_GRP_ALL"),
    (0x0000_0001, "KEY_OTH_VIEW"),
    (0x0000_0002, "KEY_OTH_READ"),
    (0x0000_0004, "KEY_OTH_WRITE"),
    (0x0000_0008, "KEY_OTH_SEARCH"),
    (0x0000_0010, "KEY_OTH_LINK"),
    (0x0000_0020, "KEY_OTH_SETATTR"),
    (0x0000_003f, "KEY_OTH_ALL"),
];

/// KEYCTL_MOVE's flags.
static MOVE_FLAGS: &[(u64, &str)] = &[(1, "KEYCTL_MOVE_EXCL")];

/// KEYCTL_PKEY_QUERY's supported operations.
static PKEY_OPS: &[(u64, &str)] = &[
    (1, "KEYCTL_SUPPORTS_ENCRYPT"),
    (2, "KEYCTL_SUPPORTS_DECRYPT"),
    (4, "KEYCTL_SUPPORTS_SIGN"),
    (8, "KEYCTL_SUPPORTS_VERIFY"),
];

/// KEYCTL_CAPABILITIES' first byte.
static CAPS0: &[(u64, &str)] = &[
    (0x01, "KEYCTL_CAPS0_CAPABILITIES"),
    (0x02, "KEYCTL_CAPS0_PERSISTENT_KEYRINGS"),
    (0x04, "KEYCTL_CAPS0_DIFFIE_HELLMAN"),
    (0x08, "KEYCTL_CAPS0_PUBLIC_KEY"),
    (0x10, "KEYCTL_CAPS0_BIG_KEY"),
    (0x20, "KEYCTL_CAPS0_INVALIDATE"),
    (0x40, "KEYCTL_CAPS0_RESTRICT_KEYRING"),
    (0x80, "KEYCTL_CAPS0_MOVE"),
];

/// KEYCTL_CAPABILITIES' second byte.
static CAPS1: &[(u64, &str)] = &[
    (0x01, "KEYCTL_CAPS1_NS_KEYRING_NAME"),
    (0x02, "KEYCTL_CAPS1_NS_KEY_TAG"),
    (0x04, "KEYCTL_CAPS1_NOTIFICATIONS"),
];

// The commands by number.
const JOIN_SESSION_KEYRING: u32 = 1;
const UPDATE: u32 = 2;
const DESCRIBE: u32 = 6;
const SEARCH: u32 = 10;
const READ: u32 = 11;
const INSTANTIATE: u32 = 12;
const GET_SECURITY: u32 = 17;
const INSTANTIATE_IOV: u32 = 20;
const DH_COMPUTE: u32 = 23;
const PKEY_QUERY: u32 = 24;
const PKEY_VERIFY: u32 = 28;
const RESTRICT_KEYRING: u32 = 29;
const CAPABILITIES: u32 = 31;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "keyctl" => Some(custom(dec_keyctl, Ret::Dec)),
        _ => None,
    }
}

/// The argument types a custom decoder of this family reads: none beyond
/// what [`plan`] asks for.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "keyctl" => Some(&[]),
        _ => None,
    }
}

/// The bytes copied of what an argument points to: what `-s` shows of a
/// string or buffer (one more to see the string go on), a structure, or
/// `-s` iovecs.
fn copy_max(o: &Options) -> u32 {
    let s = o.strsize.saturating_add(1).min(1 << 10) as u32;
    (16 * s).clamp(256, 1 << 14)
}

/// The memory behind arguments 2 to 5 (slot = argument), at entry and at
/// exit, for the commands that read it; the hash name behind the KDF
/// parameters; the iovecs.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "keyctl" {
        return;
    }
    let max = copy_max(o);
    let fixed = |src: u8, cmds: &[u8]| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Both,
        max,
        cond: Some(CapCond::one_of(0, u32::MAX, cmds)),
        src_arg: Some(src),
        ..Default::default()
    };
    out[1] = fixed(1, &[1, 23, 25, 26, 27, 28, 31]);
    out[2] = fixed(2, &[2, 6, 10, 11, 12, 17, 20, 23, 24, 25, 26, 27, 28, 29]);
    out[3] = fixed(3, &[10, 24, 25, 26, 27, 28, 29]);
    out[4] = fixed(4, &[23, 24, 25, 26, 27, 28]);
    out[SLOT_HASH] = CapPlan {
        when: CapWhen::Exit,
        len_arg: 0xff,
        deref: Some(0),
        ..fixed(4, &[23])
    };
    out[SLOT_IOV] = CapPlan {
        kind: CapKind::Iov,
        when: CapWhen::Enter,
        len_arg: 3,
        max: o.strsize.saturating_add(1).min(1 << 12) as u32,
        cond: Some(CapCond::one_of(0, u32::MAX, &[20])),
        src_arg: Some(2),
        ..Default::default()
    };
}

/// Nothing beyond the number.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

/// A copy's bytes and whether it stopped at memory that could not be read.
type Copy<'a> = Option<(&'a [u8], bool)>;

fn find<'a>(caps: &'a [Capture], slot: usize) -> Copy<'a> {
    caps.iter()
        .find(|c| c.arg as usize == slot && c.item == CaptureItem::Data)
        .map(|c| (c.data.as_slice(), c.fault))
}

/// The copy made at entry.
fn at_entry<'a>(call: &CallView<'a>, slot: usize) -> Copy<'a> {
    find(call.enter, slot)
}

/// The copy made at exit.
fn at_exit<'a>(call: &CallView<'a>, slot: usize) -> Copy<'a> {
    call.exit.and_then(|(_, caps)| find(caps, slot))
}

/// A key serial number: the special ones named.
fn key(s: &mut String, v: u64, x: Xlat) {
    fmt::enumv(s, v as u32 as i32 as i64 as u64, c::KEY_SPEC, "", x, false);
}

/// A NUL-terminated string as strace's printstr shows it: up to `-s`
/// bytes, `...` when it goes on; the address when it could not be read up
/// to its end or to that.
fn cstr(s: &mut String, d: Copy<'_>, addr: u64, o: &Options) {
    if addr == 0 {
        return s.push_str("NULL");
    }
    let n = o.strsize;
    let Some((d, _)) = d else {
        return fmt::ptr(s, addr);
    };
    let window = &d[..d.len().min(n + 1)];
    match window.iter().position(|&b| b == 0) {
        Some(p) if p <= n => fmt::quoted(s, &d[..p], false, o.hex),
        _ if d.len() > n => fmt::quoted(s, &d[..n], true, o.hex),
        _ => fmt::ptr(s, addr),
    }
}

/// `len` bytes as strace's printstrn shows them (`omit0`: a NUL ending
/// what is shown is left out).
fn strn(s: &mut String, d: Copy<'_>, addr: u64, len: u64, o: &Options, omit0: bool) {
    if addr == 0 {
        return s.push_str("NULL");
    }
    let n = o.strsize as u64;
    let size = len.min(n + 1) as usize;
    match d {
        Some((d, _)) if d.len() >= size => {
            let mut shown = size.min(n as usize);
            if omit0 && shown > 0 && d[shown - 1] == 0 {
                shown -= 1;
            }
            fmt::quoted(s, &d[..shown], len > n, o.hex);
        }
        _ => fmt::ptr(s, addr),
    }
}

/// `[0, 0x1, 0x2]`.
fn hex_words(s: &mut String, d: &[u8]) {
    s.push('[');
    for k in 0..d.len() / 4 {
        if k > 0 {
            s.push_str(", ");
        }
        fmt::hex(s, le_u32(d, 4 * k) as u64);
    }
    s.push(']');
}

/// `, __spare=[...]` when some word is not zero.
fn spare(s: &mut String, d: &[u8]) {
    if d.iter().any(|&b| b != 0) {
        s.push_str(", __spare=");
        hex_words(s, d);
    }
}

fn dec_keyctl(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    let o = w.opts;
    let call = w.call;
    let cmd = a[0] as u32;
    w.sep();
    match COMMANDS.get(cmd as usize) {
        Some(n) if x == Xlat::Abbrev => w.s.push_str(n),
        Some(n) if x == Xlat::Verbose => {
            fmt::hex(&mut w.s, cmd as u64);
            let _ = write!(w.s, " /* {n} */");
        }
        Some(_) => fmt::hex(&mut w.s, cmd as u64),
        None if x == Xlat::Raw => fmt::hex(&mut w.s, cmd as u64),
        None => {
            let _ = write!(w.s, "{cmd:#x} /* KEYCTL_??? */");
        }
    }
    let keyarg = |w: &mut ArgWriter<'_>, i: usize| {
        w.sep();
        key(&mut w.s, a[i], x);
    };
    let uint = |w: &mut ArgWriter<'_>, i: usize| {
        w.sep();
        let _ = write!(w.s, "{}", a[i] as u32);
    };
    let ulong = |w: &mut ArgWriter<'_>, i: usize| {
        w.sep();
        let _ = write!(w.s, "{}", a[i]);
    };
    let string = |w: &mut ArgWriter<'_>, i: usize| {
        w.sep();
        cstr(&mut w.s, at_entry(&call, i), a[i], o);
    };
    match cmd {
        // GET_KEYRING_ID
        0 => {
            keyarg(w, 1);
            w.sep();
            let _ = write!(w.s, "{}", a[2] as u32 as i32);
        }
        JOIN_SESSION_KEYRING => string(w, 1),
        UPDATE | INSTANTIATE => {
            keyarg(w, 1);
            w.sep();
            strn(&mut w.s, at_entry(&call, 2), a[2], a[3], o, false);
            ulong(w, 3);
            if cmd == INSTANTIATE {
                keyarg(w, 4);
            }
        }
        // REVOKE, CLEAR, ASSUME_AUTHORITY, INVALIDATE
        3 | 7 | 16 | 21 => keyarg(w, 1),
        // CHOWN
        4 => {
            keyarg(w, 1);
            for i in [2, 3] {
                w.sep();
                uid(&mut w.s, a[i] as u32);
            }
        }
        // SETPERM
        5 => {
            keyarg(w, 1);
            w.sep();
            fmt::flags_default(&mut w.s, a[2] as u32 as u64, KEY_PERMS, "KEY_???", x);
        }
        DESCRIBE | READ | GET_SECURITY => {
            keyarg(w, 1);
            if !w.exiting() {
                return;
            }
            w.sep();
            out_buf(w, 2, a[3], cmd != READ);
            ulong(w, 3);
        }
        // LINK, UNLINK
        8 | 9 => {
            keyarg(w, 1);
            keyarg(w, 2);
        }
        SEARCH => {
            keyarg(w, 1);
            string(w, 2);
            string(w, 3);
            keyarg(w, 4);
        }
        // NEGATE
        13 => {
            keyarg(w, 1);
            uint(w, 2);
            keyarg(w, 3);
        }
        // SET_REQKEY_KEYRING
        14 => {
            w.sep();
            let v = a[1] as u32 as i32 as i64 as u64;
            fmt::enumv(&mut w.s, v, REQKEYS, "KEY_REQKEY_DEFL_???", x, false);
        }
        // SET_TIMEOUT
        15 => {
            keyarg(w, 1);
            uint(w, 2);
        }
        // SESSION_TO_PARENT: no arguments
        18 => {}
        // REJECT
        19 => {
            keyarg(w, 1);
            uint(w, 2);
            w.sep();
            error(&mut w.s, a[3] as u32, x);
            keyarg(w, 4);
        }
        INSTANTIATE_IOV => {
            keyarg(w, 1);
            w.sep();
            iovs(w, a[2], a[3]);
            ulong(w, 3);
            keyarg(w, 4);
        }
        // GET_PERSISTENT
        22 => {
            w.sep();
            uid(&mut w.s, a[1] as u32);
            keyarg(w, 2);
        }
        DH_COMPUTE => dh_compute(w),
        PKEY_QUERY => {
            keyarg(w, 1);
            w.sep();
            fmt::hex(&mut w.s, a[2]);
            string(w, 3);
            if !w.exiting() {
                return;
            }
            w.sep();
            pkey_query(w);
        }
        25..=PKEY_VERIFY => pkey_op(w, cmd != PKEY_VERIFY),
        RESTRICT_KEYRING => {
            keyarg(w, 1);
            string(w, 2);
            string(w, 3);
        }
        // MOVE
        30 => {
            keyarg(w, 1);
            keyarg(w, 2);
            keyarg(w, 3);
            w.sep();
            fmt::flags_default(
                &mut w.s,
                a[4] as u32 as u64,
                MOVE_FLAGS,
                "KEYCTL_MOVE_???",
                x,
            );
        }
        CAPABILITIES => {
            if !w.exiting() {
                return;
            }
            w.sep();
            capabilities(w);
            ulong(w, 2);
        }
        _ => {
            for &v in &a[1..5] {
                w.sep();
                fmt::hex(&mut w.s, v);
            }
        }
    }
}

/// An error number as strace's print_err shows it (unsigned).
fn error(s: &mut String, e: u32, x: Xlat) {
    let name = i32::try_from(e)
        .ok()
        .and_then(c::errno_name)
        .map(|(n, _)| n);
    match (name, x) {
        (Some(n), Xlat::Abbrev) => s.push_str(n),
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{e} /* {n} */");
        }
        _ => {
            let _ = write!(s, "{e}");
        }
    }
}

/// A buffer the kernel filled (DESCRIBE, READ, GET_SECURITY): as many
/// bytes as it returned, at most `len`.
fn out_buf(w: &mut ArgWriter<'_>, i: usize, len: u64, omit0: bool) {
    let call = w.call;
    let addr = call.args[i];
    match call.ret() {
        Some(r) if r >= 0 => {
            let n = (r as u64).min(len);
            strn(&mut w.s, at_exit(&call, i), addr, n, w.opts, omit0);
        }
        _ => fmt::ptr(&mut w.s, addr),
    }
}

/// KEYCTL_INSTANTIATE_IOV's iovecs, their buffers as strings.
fn iovs(w: &mut ArgWriter<'_>, addr: u64, n: u64) {
    let call = w.call;
    if addr == 0 {
        return w.s.push_str("NULL");
    }
    if n == 0 {
        return w.s.push_str("[]");
    }
    let raw = at_entry(&call, 2).map(|(d, _)| d);
    // the copy reads at most 2^64-1 bytes in all: past iovecs whose lengths
    // add up to that, an element holds nothing; its buffer is read from the
    // process then, and is unreadable when that fails too
    let strsize = w.opts.strsize;
    let items: Vec<Capture> = call
        .enter
        .iter()
        .filter(|c| c.arg as usize == SLOT_IOV)
        .map(|c| {
            let mut c = c.clone();
            if c.item == CaptureItem::Elem && !c.fault && c.data.is_empty() && c.aux != 0 {
                let k = c.elem as usize;
                let base = raw
                    .and_then(|r| r.get(16 * k..16 * k + 8))
                    .map(|b| le_u64(b, 0));
                let want = c.aux.min(strsize as u64) as usize;
                let got = base.and_then(|b| w.env.read_mem.and_then(|read| read(b, want)));
                match got.filter(|g| g.len() == want) {
                    Some(g) => {
                        c.truncated = c.aux > want as u64;
                        c.data = g;
                    }
                    None => c.fault = true,
                }
            }
            c
        })
        .collect();
    let refs: Vec<&Capture> = items.iter().collect();
    iovec_raw(&mut w.s, &refs, addr, w.opts, raw);
}

/// KEYCTL_DH_COMPUTE(params, buf, buflen, kdf): the parameters at entry,
/// the result and the KDF parameters at exit.
fn dh_compute(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let a = call.args;
    let x = w.opts.xlat;
    w.sep();
    match at_entry(&call, 1).filter(|(d, _)| a[1] != 0 && d.len() >= 12) {
        Some((d, _)) => {
            w.s.push_str("{private=");
            key(&mut w.s, le_u32(d, 0) as u64, x);
            w.s.push_str(", prime=");
            key(&mut w.s, le_u32(d, 4) as u64, x);
            w.s.push_str(", base=");
            key(&mut w.s, le_u32(d, 8) as u64, x);
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, a[1]),
    }
    if !w.exiting() {
        return;
    }
    w.sep();
    match call.ret() {
        Some(r) if r >= 0 => {
            let n = (r as u64).min(a[3]);
            strn(&mut w.s, at_exit(&call, 2), a[2], n, w.opts, false);
        }
        _ => fmt::ptr(&mut w.s, a[2]),
    }
    let _ = write!(w.s, ", {}", a[3]);
    w.sep();
    kdf(w);
}

/// `struct keyctl_kdf_params` (read at exit).
fn kdf(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let o = w.opts;
    let addr = call.args[4];
    let Some((d, _)) = at_exit(&call, 4).filter(|(d, _)| addr != 0 && d.len() >= 56) else {
        return fmt::ptr(&mut w.s, addr);
    };
    let s = &mut w.s;
    s.push_str("{hashname=");
    cstr(s, at_exit(&call, SLOT_HASH), le_u64(d, 0), o);
    s.push_str(", otherinfo=");
    let other = le_u64(d, 8);
    let len = le_u32(d, 16);
    if len != 0 {
        let want = (len as usize).min(o.strsize + 1);
        // copied at entry (slot 6), else read from the live process
        let got = if other == 0 {
            None
        } else {
            super::second_level::bytes(&call, super::second_level::SLOT_A, false, other, want)
                .map(<[u8]>::to_vec)
                .or_else(|| w.env.read_mem.and_then(|read| read(other, want)))
        };
        strn(
            s,
            got.as_deref().map(|g| (g, false)),
            other,
            len as u64,
            o,
            false,
        );
    } else {
        fmt::ptr(s, other);
    }
    let _ = write!(s, ", otherinfolen={len}");
    spare(s, &d[20..52]);
    s.push('}');
}

/// `struct keyctl_pkey_query` (the kernel's answer).
fn pkey_query(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let addr = call.args[4];
    let x = w.opts.xlat;
    let d = match (call.ret(), at_exit(&call, 4)) {
        (Some(r), Some((d, _))) if r >= 0 && addr != 0 && d.len() >= 56 => d,
        _ => return fmt::ptr(&mut w.s, addr),
    };
    let s = &mut w.s;
    s.push_str("{supported_ops=");
    fmt::flags_default(s, le_u32(d, 0) as u64, PKEY_OPS, "KEYCTL_SUPPORTS_???", x);
    let h = |k: usize| u16::from_le_bytes([d[k], d[k + 1]]);
    let _ = write!(
        s,
        ", key_size={}, max_data_size={}, max_sig_size={}, max_enc_size={}, max_dec_size={}",
        le_u32(d, 4),
        h(8),
        h(10),
        h(12),
        h(14)
    );
    spare(s, &d[16..56]);
    s.push('}');
}

/// KEYCTL_PKEY_ENCRYPT, _DECRYPT, _SIGN (`out`: the kernel writes the
/// fourth argument) and _VERIFY.
fn pkey_op(w: &mut ArgWriter<'_>, out: bool) {
    let call = w.call;
    let a = call.args;
    let o = w.opts;
    let x = o.xlat;
    w.sep();
    let params = at_entry(&call, 1)
        .filter(|(d, _)| a[1] != 0 && d.len() >= 40)
        .map(|(d, _)| d);
    match params {
        Some(d) => {
            w.s.push_str("{key_id=");
            key(&mut w.s, le_u32(d, 0) as u64, x);
            let name = if out { "out_len" } else { "in2_len" };
            let _ = write!(w.s, ", in_len={}, {name}={}", le_u32(d, 4), le_u32(d, 8));
            spare(&mut w.s, &d[12..40]);
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, a[1]),
    }
    w.sep();
    cstr(&mut w.s, at_entry(&call, 2), a[2], o);
    w.sep();
    match params {
        Some(d) => strn(
            &mut w.s,
            at_entry(&call, 3),
            a[3],
            le_u32(d, 4) as u64,
            o,
            false,
        ),
        None => fmt::ptr(&mut w.s, a[3]),
    }
    match params {
        Some(d) if out => {
            if !w.exiting() {
                return;
            }
            w.sep();
            match call.ret() {
                Some(r) if r >= 0 => strn(
                    &mut w.s,
                    at_exit(&call, 4),
                    a[4],
                    le_u32(d, 8) as u64,
                    o,
                    false,
                ),
                _ => fmt::ptr(&mut w.s, a[4]),
            }
        }
        Some(d) => {
            w.sep();
            strn(
                &mut w.s,
                at_entry(&call, 4),
                a[4],
                le_u32(d, 8) as u64,
                o,
                false,
            );
        }
        None => {
            w.sep();
            fmt::ptr(&mut w.s, a[4]);
        }
    }
}

/// KEYCTL_CAPABILITIES' bytes: the first two as flags, the others in hex.
fn capabilities(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let a = call.args;
    let x = w.opts.xlat;
    let n = match call.ret() {
        Some(r) if r >= 0 => (r as u64).min(a[2]),
        _ => return fmt::ptr(&mut w.s, a[1]),
    };
    let mut pos = 0;
    print_array_data(&mut w.s, at_exit(&call, 1), a[1], n, 1, w.opts, |s, e| {
        let v = e[0] as u64;
        match pos {
            0 => fmt::flags_default(s, v, CAPS0, "KEYCTL_CAPS0_???", x),
            1 => fmt::flags_default(s, v, CAPS1, "KEYCTL_CAPS1_???", x),
            _ => fmt::hex(s, v),
        }
        pos += 1;
    });
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{cap, render};
    use super::super::Options;
    use crate::fmt::Xlat;

    fn o(xlat: Xlat) -> Options {
        Options {
            xlat,
            strsize: 10,
            ..Options::default()
        }
    }

    const ADDR: u64 = 0x7f00_0000_1000;

    #[test]
    fn commands_and_keys_follow_xlat() {
        let args = [8, -6i64 as u64, 519036589, 0, 0, 0];
        assert_eq!(
            render("keyctl", args, &[], Some((-1, &[])), &o(Xlat::Abbrev)),
            "KEYCTL_LINK, KEY_SPEC_GROUP_KEYRING, 519036589"
        );
        assert_eq!(
            render("keyctl", args, &[], Some((-1, &[])), &o(Xlat::Verbose)),
            "0x8 /* KEYCTL_LINK */, -6 /* KEY_SPEC_GROUP_KEYRING */, 519036589"
        );
        let args = [0xbadc_0ded_face_feed, 1, 2, 3, 4, 0];
        assert_eq!(
            render("keyctl", args, &[], None, &o(Xlat::Abbrev)),
            "0xfacefeed /* KEYCTL_??? */, 0x1, 0x2, 0x3, 0x4"
        );
    }

    #[test]
    fn strings_stop_at_s_or_their_end() {
        let enter = [cap(2, b"shrt type\0"), cap(3, b"overly long key type\0")];
        let args = [10, 0, ADDR, ADDR + 0x100, 0, 0];
        assert_eq!(
            render("keyctl", args, &enter, None, &o(Xlat::Abbrev)),
            "KEYCTL_SEARCH, 0, \"shrt type\", \"overly lon\"..., 0"
        );
    }

    #[test]
    fn described_buffers_drop_their_trailing_nul() {
        let exit = [cap(2, b"\0\0\0\0")];
        let args = [17, -1i64 as u64, ADDR, 256, 0, 0];
        assert_eq!(
            render("keyctl", args, &[], Some((1, &exit)), &o(Xlat::Abbrev)),
            "KEYCTL_GET_SECURITY, KEY_SPEC_THREAD_KEYRING, \"\", 256"
        );
    }

    #[test]
    fn capabilities_are_flags_then_hex() {
        let exit = [cap(1, &[0xeb, 0x03, 0x07])];
        let args = [31, ADDR, 4, 0, 0, 0];
        assert_eq!(
            render("keyctl", args, &[], Some((3, &exit)), &o(Xlat::Abbrev)),
            "KEYCTL_CAPABILITIES, [KEYCTL_CAPS0_CAPABILITIES|KEYCTL_CAPS0_PERSISTENT_KEYRINGS|\
             KEYCTL_CAPS0_PUBLIC_KEY|KEYCTL_CAPS0_INVALIDATE|KEYCTL_CAPS0_RESTRICT_KEYRING|\
             KEYCTL_CAPS0_MOVE, KEYCTL_CAPS1_NS_KEYRING_NAME|KEYCTL_CAPS1_NS_KEY_TAG, 0x7], 4"
        );
    }
}
