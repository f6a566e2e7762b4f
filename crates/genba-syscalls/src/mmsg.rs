//! sendmmsg's and recvmmsg's `struct mmsghdr` vectors, as strace 6.1
//! prints them (a family decoded in its own module: see
//! [`super::family_decoder`]).
//!
//! BPF copies the vector at exit (sendmmsg: all `vlen` entries; recvmmsg:
//! the entries received), each entry with its name and its iovec's
//! buffers, the first 33 entries: as many as strace shows by default (-s
//! 32), and one more to know there are more.

use std::fmt::Write;

use super::{
    arg, custom, le_u32, le_u64, msghdr, ArgWriter, CallView, CapKind, CapPlan, CapWhen, Capture,
    CaptureItem, Decoder, Options, Ret, Ty, Ty::*,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// The entries at entry (`struct mmsghdr`, 64 bytes each): the namelens
/// the caller gave (recvmmsg).
const SLOT_ENTRY: usize = 2;
/// The first entry's control buffer (msg_control, msg_controllen bytes).
const SLOT_CONTROL: usize = 3;
/// `sizeof(struct mmsghdr)`.
const MMSGHDR: usize = 64;
/// Entries BPF copies at most (GENBA_MMSG_MAX): the count item's tag.
const MMSG_MAX: u8 = 33;
/// strace shows at most IOV_MAX entries.
const IOV_MAX: u64 = 1024;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "recvmmsg" => Some(custom(dec_recvmmsg, Ret::Dec)),
        "sendmmsg" => Some(custom(dec_sendmmsg, Ret::Dec)),
        _ => None,
    }
}

/// The memory each custom decoder reads through its types.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "recvmmsg" => Some(&[Skip, Skip, Skip, Skip, TimespecBoth]),
        "sendmmsg" => Some(&[Skip, Skip, Skip, Skip]),
        _ => None,
    }
}

/// The vector at exit (its entries with their buffers); recvmmsg's
/// entries at entry (the namelens given) and its first entry's control
/// buffer.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    let max = (o.strsize + 1).min(u32::MAX as usize) as u32;
    match name {
        "sendmmsg" => {
            out[1] = CapPlan {
                kind: CapKind::Mmsg,
                when: CapWhen::Exit,
                len_arg: 2,
                max,
                ..Default::default()
            };
        }
        "recvmmsg" => {
            out[1] = CapPlan {
                kind: CapKind::MmsgRet,
                when: CapWhen::ExitOk,
                len_arg: 2,
                max,
                ..Default::default()
            };
            out[SLOT_ENTRY] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 2,
                mult: MMSGHDR as u8,
                max: (MMSGHDR * MMSG_MAX as usize) as u32,
                src_arg: Some(1),
                ..Default::default()
            };
            out[SLOT_CONTROL] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::ExitOk,
                len_arg: 5,
                max: 16384,
                src_arg: Some(1),
                deref: Some(4),
                ..Default::default()
            };
        }
        _ => {}
    }
}

/// `= 0 (Timeout)`, else the time left after messages came.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = x;
    if name != "recvmmsg" {
        return false;
    }
    let Some(r) = call.ret() else { return false };
    if r == 0 {
        s.push_str("= 0 (Timeout)");
        return true;
    }
    if r < 0 || call.args[4] == 0 {
        return false;
    }
    let _ = write!(s, "= {r} (left ");
    match call.exit.and_then(|(_, caps)| {
        caps.iter()
            .find(|c| c.arg == 4 && c.item == CaptureItem::Data && !c.fault && c.data.len() >= 16)
    }) {
        Some(t) => {
            let _ = write!(
                s,
                "{{tv_sec={}, tv_nsec={}}}",
                le_u64(&t.data, 0) as i64,
                le_u64(&t.data, 8)
            );
        }
        None => fmt::ptr(s, call.args[4]),
    }
    s.push(')');
    true
}

/// recvmmsg(fd, msgvec, vlen, flags, timeout): all at exit, the vector as
/// far as it was filled.
fn dec_recvmmsg(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    if !w.exiting() {
        return;
    }
    w.sep();
    let n = w.call.ret().filter(|&r| r >= 0).unwrap_or(0) as u64;
    match w.call.ret() {
        Some(r) if r >= 0 => vector(w, n, n, true),
        _ => fmt::ptr(&mut w.s, w.call.args[1]),
    }
    arg(w, 2, Uint);
    arg(w, 3, Flags(c::MSG_FLAGS));
    arg(w, 4, TimespecBoth);
}

/// sendmmsg(fd, msgvec, vlen, flags): the vector at exit, each entry sent
/// with its msg_len.
fn dec_sendmmsg(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    if !w.exiting() {
        return;
    }
    w.sep();
    let vlen = w.call.args[2] as u32 as u64;
    let sent = w.call.ret().filter(|&r| r >= 0).unwrap_or(0) as u64;
    vector(w, vlen, sent, false);
    arg(w, 2, Uint);
    arg(w, 3, Flags(c::MSG_FLAGS));
}

/// One entry as BPF copied it: the `struct mmsghdr` and the name and
/// iovec items that follow it.
struct Entry<'a> {
    hdr: &'a [u8],
    items: Vec<&'a Capture>,
}

/// The entries of argument 1's copy and the vector's count item.
fn entries<'a>(caps: &[&'a Capture]) -> Option<(Vec<Entry<'a>>, &'a Capture)> {
    let mut out: Vec<Entry<'a>> = Vec::new();
    for &c in caps {
        match c.item {
            CaptureItem::Msghdr if c.data.len() >= MMSGHDR => out.push(Entry {
                hdr: &c.data,
                items: Vec::new(),
            }),
            CaptureItem::Count if c.elem == MMSG_MAX => return Some((out, c)),
            _ => out.last_mut()?.items.push(c),
        }
    }
    None
}

/// `n` entries of the vector as strace's print_array shows them (at most
/// -s of them unless -v, at most IOV_MAX), the first `with_len` with their
/// msg_len; `received`: the kernel's answer (the namelen given shown as
/// `given => got`). The address when BPF's copy does not hold them.
fn vector(w: &mut ArgWriter<'_>, n: u64, with_len: u64, received: bool) {
    let call = w.call;
    let v = call.args[1];
    if n == 0 {
        return w.s.push_str("[]");
    }
    let caps = call
        .exit
        .map(|(_, caps)| caps.iter().filter(|c| c.arg == 1).collect::<Vec<_>>());
    let Some((list, count)) = caps.as_deref().and_then(entries) else {
        return fmt::ptr(&mut w.s, v);
    };
    let shown = if w.opts.verbose {
        n
    } else {
        n.min(w.opts.strsize as u64)
    }
    .min(IOV_MAX);
    let fault_at = count.fault.then_some(list.len() as u64);
    if fault_at.is_none() && (list.len() as u64) < shown || fault_at == Some(0) {
        // more than BPF copies, or the first entry unreadable
        return fmt::ptr(&mut w.s, v);
    }
    let given: Vec<i32> = if received {
        call.enter
            .iter()
            .find(|c| c.arg as usize == SLOT_ENTRY && c.item == CaptureItem::Data)
            .map(|c| {
                c.data
                    .chunks_exact(MMSGHDR)
                    .map(|e| le_u32(e, 8) as i32)
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let control = call.cap(SLOT_CONTROL);
    w.s.push('[');
    for i in 0..shown {
        if i > 0 {
            w.s.push_str(", ");
        }
        if fault_at == Some(i) {
            let _ = write!(w.s, "... /* {:#x} */", v + i * MMSGHDR as u64);
            w.s.push(']');
            return;
        }
        let e = &list[i as usize];
        w.s.push_str("{msg_hdr=");
        msghdr::print(
            &mut w.s,
            &e.hdr[..56],
            &e.items,
            if i == 0 && received { control } else { None },
            given.get(i as usize).copied(),
            w.opts,
            w.env.fd_path,
        );
        if i < with_len {
            let _ = write!(w.s, ", msg_len={}", le_u32(e.hdr, 56));
        }
        w.s.push('}');
    }
    if n > shown {
        w.s.push_str(", ...");
    }
    w.s.push(']');
}
