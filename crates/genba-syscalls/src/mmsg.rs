//! recvmmsg's `struct mmsghdr` vector, as strace 6.1 prints it (a family
//! decoded in its own module: see [`super::family_decoder`]).
//!
//! strace shows the vector at exit, as many entries as the call returned.
//! The capture framework copies one msghdr (with its iovec's buffers) per
//! argument: the first entry only. A call that received one message is
//! shown whole; one that received more, by the vector's address.

use std::fmt::Write;

use super::{
    arg, custom, le_u32, le_u64, msghdr, ArgWriter, CallView, CapKind, CapPlan, CapWhen, Capture,
    CaptureItem, Decoder, Options, Ret, Ty, Ty::*,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// The first entry (`struct mmsghdr`, 64 bytes) at entry: the namelen the
/// caller gave.
const SLOT_ENTRY: usize = 2;
/// The first entry's control buffer (msg_control, msg_controllen bytes).
const SLOT_CONTROL: usize = 3;
/// The first entry at exit: its msg_len.
const SLOT_LEN: usize = 5;
/// `sizeof(struct mmsghdr)`.
const MMSGHDR: usize = 64;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "recvmmsg" => Some(custom(dec_recvmmsg, Ret::Dec)),
        _ => None,
    }
}

/// The memory each custom decoder reads through its types.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "recvmmsg" => Some(&[Skip, Skip, Skip, Skip, TimespecBoth]),
        _ => None,
    }
}

/// The first entry's msghdr with its buffers, its control buffer and the
/// entry itself, at exit; the entry at entry.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "recvmmsg" {
        return;
    }
    out[1] = CapPlan {
        kind: CapKind::Msghdr,
        when: CapWhen::ExitOk,
        max: o.strsize.min(u32::MAX as usize) as u32,
        ..Default::default()
    };
    out[SLOT_ENTRY] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: MMSGHDR as u32,
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
    out[SLOT_LEN] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::ExitOk,
        max: MMSGHDR as u32,
        src_arg: Some(1),
        ..Default::default()
    };
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
    vector(w);
    arg(w, 2, Uint);
    arg(w, 3, Flags(c::MSG_FLAGS));
    arg(w, 4, TimespecBoth);
}

/// The entries received: none (`[]`), the first one, or (more than the
/// framework copies) the address.
fn vector(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let v = call.args[1];
    match call.ret() {
        Some(0) => return w.s.push_str("[]"),
        Some(1) => {}
        _ => return fmt::ptr(&mut w.s, v),
    }
    let items = call.items(1);
    let m = items
        .iter()
        .find(|c| c.item == CaptureItem::Msghdr && !c.fault && c.data.len() >= 56);
    let len = call.exit.and_then(|(_, caps)| {
        caps.iter().find(|c| {
            c.arg as usize == SLOT_LEN && c.item == CaptureItem::Data && c.data.len() >= MMSGHDR
        })
    });
    let (Some(m), Some(len)) = (m, len) else {
        return fmt::ptr(&mut w.s, v);
    };
    let msg_len = le_u32(&len.data, 56);
    let user_namelen = call
        .enter
        .iter()
        .find(|c| c.arg as usize == SLOT_ENTRY && c.item == CaptureItem::Data && c.data.len() >= 12)
        .map(|c| le_u32(&c.data, 8) as i32);
    // the buffers as far as the message filled them
    let mut left = msg_len as usize;
    let cut: Vec<Capture> = items
        .iter()
        .map(|&c| {
            let mut c = c.clone();
            if c.item == CaptureItem::Elem && !c.fault {
                let n = (c.aux as usize).min(left);
                left -= n;
                if c.data.len() > n {
                    c.data.truncate(n);
                    c.truncated = false;
                }
            }
            c
        })
        .collect();
    let refs: Vec<&Capture> = cut.iter().collect();
    let control = call.cap(SLOT_CONTROL);
    w.s.push_str("[{msg_hdr=");
    msghdr::print(
        &mut w.s,
        &m.data,
        &refs,
        control,
        user_namelen,
        w.opts,
        w.env.fd_path,
    );
    let _ = write!(w.s, ", msg_len={msg_len}}}]");
}
