//! prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog): the `struct
//! sock_fprog` and, with -v, its filter program, as strace 6.1 prints them.
//!
//! prctl's slots are all taken by other options: one slot holds this one's
//! copy. Without -v it is the struct (its length and the program's
//! address); with -v the program itself, copied through the struct's
//! pointer with the struct's first word as its length.

use std::fmt::Write;

use super::misc::{bpf_insn, BpfK, BPF_MAXINSNS};
use super::{
    print_array_data, ArgWriter, CapCond, CapKind, CapPlan, CapWhen, CaptureItem, Options,
};
use crate::fmt;

/// PR_SET_SECCOMP.
const PR_SET_SECCOMP: u32 = 22;
/// The most bytes of a program copied (a capture's limit).
const PROG_MAX: u32 = 16384;

/// The copy of PR_SET_SECCOMP's third argument (in a slot of prctl's).
pub(super) fn plan(o: &Options) -> CapPlan {
    let cond = Some(CapCond {
        arg: 0,
        mask: u32::MAX,
        val: PR_SET_SECCOMP,
        val2: PR_SET_SECCOMP,
        bitmap: false,
    });
    if o.verbose {
        CapPlan {
            kind: CapKind::ArgLen,
            when: CapWhen::Enter,
            // the length in the struct's word 0, the program at word 1
            len_arg: 0,
            mult: 8,
            max: PROG_MAX,
            src_arg: Some(2),
            deref: Some(1),
            cond,
            ..Default::default()
        }
    } else {
        CapPlan {
            kind: CapKind::Fixed,
            when: CapWhen::Enter,
            max: 16,
            src_arg: Some(2),
            cond,
            ..Default::default()
        }
    }
}

/// `{len=12, filter=[...]}` (with -v) or `{len=12, filter=0x...}`, from the
/// copy in `slot`; the address when it could not be read.
pub(super) fn fprog(w: &mut ArgWriter<'_>, slot: usize) {
    w.sep();
    let call = w.call;
    let v = call.args[2];
    let x = w.opts.xlat;
    let cap = call
        .enter
        .iter()
        .find(|c| c.arg as usize == slot && c.item == CaptureItem::Data);
    let Some(c) = cap.filter(|_| v != 0) else {
        return fmt::ptr(&mut w.s, v);
    };
    if !w.opts.verbose {
        if c.fault || c.data.len() < 16 {
            return fmt::ptr(&mut w.s, v);
        }
        let len = u16::from_le_bytes([c.data[0], c.data[1]]);
        let filter = u64::from_le_bytes(c.data[8..16].try_into().unwrap_or([0; 8]));
        let _ = write!(w.s, "{{len={len}, filter=");
        fmt::ptr(&mut w.s, filter);
        w.s.push('}');
        return;
    }
    // (the program's address is not known: a program that could not be
    // read whole is shown by the struct's address)
    let len = c.aux & 0xffff;
    if c.fault && (c.data.len() as u64) < len * 8 {
        return fmt::ptr(&mut w.s, v);
    }
    let o = Options {
        verbose: false,
        strsize: BPF_MAXINSNS,
        ..w.opts.clone()
    };
    let _ = write!(w.s, "{{len={len}, filter=");
    print_array_data(
        &mut w.s,
        Some((c.data.as_slice(), false)),
        // any address but NULL: the program is there
        1,
        len,
        8,
        &o,
        |s, e| bpf_insn(s, e, x, BpfK::Seccomp),
    );
    w.s.push('}');
}

#[cfg(test)]
mod tests {
    use super::super::{write_args, CallView, Env};
    use super::*;
    use genba_events::Capture;

    fn show(data: Vec<u8>, aux: u64, o: &Options) -> String {
        let enter = [Capture {
            arg: 3,
            item: CaptureItem::Data,
            elem: 0,
            fault: false,
            truncated: false,
            more: false,
            aux,
            data,
        }];
        let call = CallView {
            nr: crate::table::by_name("prctl").unwrap().nr,
            args: [22, 2, 0x1000, 0, 0, 0],
            enter: &enter,
            exit: None,
        };
        let env = Env::default();
        write_args(call, o, &env).s
    }

    #[test]
    fn fprog_with_and_without_v() {
        let mut head = vec![1, 0, 0, 0, 0, 0, 0, 0];
        head.extend_from_slice(&0x2000u64.to_le_bytes());
        assert_eq!(
            show(head, 16, &Options::default()),
            "PR_SET_SECCOMP, SECCOMP_MODE_FILTER, {len=1, filter=0x2000}"
        );
        // BPF_RET|BPF_K, SECCOMP_RET_ALLOW
        let insn = vec![6, 0, 0, 0, 0, 0, 0xff, 0x7f];
        let v = Options {
            verbose: true,
            ..Options::default()
        };
        assert_eq!(
            show(insn, 1, &v),
            "PR_SET_SECCOMP, SECCOMP_MODE_FILTER, \
             {len=1, filter=[BPF_STMT(BPF_RET|BPF_K, SECCOMP_RET_ALLOW)]}"
        );
    }
}
