//! io_submit's and io_cancel's arguments as strace 6.1 prints them (a
//! family decoded in its own module: see [`super::family_decoder`]).
//!
//! io_submit's `struct iocb *` array would need each element's struct (and
//! its buffers) copied: the capture framework follows one pointer per slot,
//! so a non-empty array is shown by its address.

use std::fmt::Write;

use super::{
    arg, custom, fd, ioprio_text, le_u32, le_u64, ArgWriter, CaptureItem, Decoder, Ret, Ty, Ty::*,
    RWF_FLAGS,
};
use crate::fmt::{self, Xlat};

/// `sizeof(struct iocb)`.
const IOCB: usize = 64;
/// `sizeof(struct io_event)`.
const IO_EVENT: usize = 32;

/// strace's aio_cmds.
const AIO_CMDS: &[(u64, &str)] = &[
    (0, "IOCB_CMD_PREAD"),
    (1, "IOCB_CMD_PWRITE"),
    (2, "IOCB_CMD_FSYNC"),
    (3, "IOCB_CMD_FDSYNC"),
    (4, "IOCB_CMD_PREADX"),
    (5, "IOCB_CMD_POLL"),
    (6, "IOCB_CMD_NOOP"),
    (7, "IOCB_CMD_PREADV"),
    (8, "IOCB_CMD_PWRITEV"),
];

/// IOCB_FLAG_IOPRIO.
const IOCB_FLAG_IOPRIO: u32 = 2;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "io_submit" => Some(custom(dec_io_submit, Ret::Dec)),
        "io_cancel" => Some(custom(dec_io_cancel, Ret::Dec)),
        _ => None,
    }
}

/// The memory each custom decoder reads.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "io_cancel" => Some(&[Skip, FixedIn(IOCB as u16), FixedOut(IO_EVENT as u16)]),
        _ => None,
    }
}

/// io_submit(ctx_id, nr, iocbpp).
fn dec_io_submit(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Ptr);
    let nr = a[1] as i64;
    arg(w, 1, Long);
    w.sep();
    match (nr, a[2]) {
        (n, v) if n < 0 => fmt::ptr(&mut w.s, v),
        (_, 0) => w.s.push_str("NULL"),
        (0, _) => w.s.push_str("[]"),
        (_, v) => fmt::ptr(&mut w.s, v),
    }
}

/// io_cancel(ctx_id, iocb, result): the iocb's header at entry, the event
/// at exit.
fn dec_io_cancel(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let x = w.opts.xlat;
    arg(w, 0, Ptr);
    w.sep();
    let v = call.args[1];
    match call.data(1).filter(|d| d.len() >= IOCB && v != 0) {
        Some(d) => {
            w.s.push('{');
            iocb_header(&mut w.s, d, x, w.env.fd_path);
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, v),
    }
    if !w.exiting() {
        return;
    }
    w.sep();
    let r = call.args[2];
    let ev = call.exit.and_then(|(ret, caps)| {
        caps.iter()
            .find(|c| c.arg == 2 && c.item == CaptureItem::Data && !c.fault)
            .filter(|c| ret >= 0 && r != 0 && c.data.len() >= IO_EVENT)
    });
    match ev {
        Some(c) => {
            let d = &c.data;
            w.s.push_str("{data=");
            hex(&mut w.s, le_u64(d, 0));
            w.s.push_str(", obj=");
            hex(&mut w.s, le_u64(d, 8));
            let _ = write!(
                w.s,
                ", res={}, res2={}}}",
                le_u64(d, 16) as i64,
                le_u64(d, 24) as i64
            );
        }
        None => fmt::ptr(&mut w.s, r),
    }
}

/// `%#llx`: `0` for zero.
fn hex(s: &mut String, v: u64) {
    if v == 0 {
        s.push('0');
    } else {
        let _ = write!(s, "{v:#x}");
    }
}

/// The fields of a `struct iocb` every command has.
fn iocb_header(s: &mut String, d: &[u8], x: Xlat, namer: Option<&dyn Fn(i32) -> Option<String>>) {
    s.push_str("aio_data=");
    hex(s, le_u64(d, 0));
    let key = le_u32(d, 8);
    if key != 0 {
        let _ = write!(s, ", aio_key={key}");
    }
    let rw = le_u32(d, 12);
    if rw != 0 {
        s.push_str(", aio_rw_flags=");
        fmt::flags(s, rw as u64, RWF_FLAGS, None, x);
    }
    s.push_str(", aio_lio_opcode=");
    let op = u16::from_le_bytes([d[16], d[17]]) as u64;
    fmt::enumv(s, op, AIO_CMDS, "IOCB_CMD_???", x, false);
    let prio = u16::from_le_bytes([d[18], d[19]]);
    let flags = le_u32(d, 56);
    if flags & IOCB_FLAG_IOPRIO != 0 {
        s.push_str(", aio_reqprio=");
        s.push_str(&ioprio_text(prio as u32, x));
    } else if prio != 0 {
        let _ = write!(s, ", aio_reqprio={}", prio as i16);
    }
    s.push_str(", aio_fildes=");
    fd(s, le_u32(d, 20) as i32, namer);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iocb_header_fields() {
        let mut d = [0u8; IOCB];
        d[0..8].copy_from_slice(&0xdead_beef_badc_0dedu64.to_le_bytes());
        d[18..20].copy_from_slice(&99u16.to_le_bytes());
        d[20..24].copy_from_slice(&(-42i32).to_le_bytes());
        let mut s = String::new();
        iocb_header(&mut s, &d, Xlat::Abbrev, None);
        assert_eq!(
            s,
            "aio_data=0xdeadbeefbadc0ded, aio_lio_opcode=IOCB_CMD_PREAD, aio_reqprio=99, \
             aio_fildes=-42"
        );
        d[16..18].copy_from_slice(&0xf00du16.to_le_bytes());
        d[8..12].copy_from_slice(&7u32.to_le_bytes());
        let mut s = String::new();
        iocb_header(&mut s, &d, Xlat::Abbrev, None);
        assert!(
            s.contains("aio_key=7, aio_lio_opcode=61453 /* IOCB_CMD_??? */"),
            "{s}"
        );
    }
}
