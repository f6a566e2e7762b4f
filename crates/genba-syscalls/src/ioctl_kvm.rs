//! KVM's requests (type 0xae), as strace 6.1's kvm.c prints them: the
//! capability asked, the vcpu id, the guest memory region, the vcpu's
//! registers and CPUID entries; with `-e kvm=vcpu`, the reason KVM_RUN
//! returned (` = 0 (KVM_EXIT_HLT)`). A child module of `ioctl`.
//!
//! The constants' tables (ioctl_kvm_xlat.rs) are generated:
//!   python3 scripts/gen-xlat.py KVM "$(cat scripts/kvm-xlat.headers)" \
//!       $(cat scripts/kvm-xlat.tables) > crates/genba-syscalls/src/ioctl_kvm_xlat.rs

use std::fmt::Write;

use super::{u16at, u32at, u64at, ArgWriter, How, Out};
use crate::fmt;

#[path = "ioctl_kvm_xlat.rs"]
mod xlat;
use xlat::*;

const KVM_GET_API_VERSION: u32 = 0xae00;
const KVM_CREATE_VM: u32 = 0xae01;
const KVM_CHECK_EXTENSION: u32 = 0xae03;
const KVM_GET_SUPPORTED_CPUID: u32 = 0xc008ae05;
const KVM_GET_EMULATED_CPUID: u32 = 0xc008ae09;
const KVM_CREATE_VCPU: u32 = 0xae41;
const KVM_SET_USER_MEMORY_REGION: u32 = 0x4020ae46;
/// `_IO(KVMIO, 0x80)`: runs the vcpu until it exits to user space.
pub const KVM_RUN: u32 = 0xae80;
const KVM_GET_REGS: u32 = 0x8090ae81;
const KVM_SET_REGS: u32 = 0x4090ae82;
const KVM_GET_SREGS: u32 = 0x8138ae83;
const KVM_SET_SREGS: u32 = 0x4138ae84;
const KVM_SET_CPUID2: u32 = 0x4008ae90;
const KVM_CREATE_DEVICE: u32 = 0xc00caee0;
const KVM_GET_STATS_FD: u32 = 0xaece;

/// struct kvm_cpuid2's header (nent, padding) and each kvm_cpuid_entry2.
const CPUID2_HEAD: usize = 8;
const CPUID_ENTRY: usize = 40;

/// The copies BPF makes of the arguments: struct kvm_cpuid2 with as many
/// entries as its count says (see [`super::super::IOC_COUNTED`]).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    let counted = super::super::IOC_COUNTED | (CPUID_ENTRY as u32) << 16 | CPUID2_HEAD as u32;
    [
        KVM_GET_SUPPORTED_CPUID,
        KVM_GET_EMULATED_CPUID,
        KVM_SET_CPUID2,
    ]
    .iter()
    .map(|&r| (r, counted))
    .collect()
}

pub(super) fn how(req: u32) -> Option<How> {
    Some(match req {
        KVM_CHECK_EXTENSION => How::Val(|o, v| o.xval(v, KVM_CAP, "KVM_CAP_???")),
        // the vcpu id, an unsigned int
        KVM_CREATE_VCPU => How::Val(|o, v| {
            let _ = write!(o.s, "{}", v as u32);
        }),
        KVM_SET_USER_MEMORY_REGION => How::In(memory_region),
        KVM_GET_REGS => How::Out(regs),
        KVM_SET_REGS => How::In(regs),
        KVM_GET_SREGS => How::Out(sregs),
        KVM_SET_SREGS => How::In(sregs),
        KVM_GET_SUPPORTED_CPUID | KVM_GET_EMULATED_CPUID => How::Custom(|w| cpuid2(w, true)),
        KVM_SET_CPUID2 => How::Custom(|w| cpuid2(w, false)),
        // the requests whose argument is a number, and those strace does
        // not decode (their argument as a number too)
        KVM_GET_API_VERSION | KVM_CREATE_VM | KVM_RUN => How::Hex,
        _ => How::Hex,
    })
}

/// Whether request `req` returns a new descriptor (strace names it with -y).
pub(super) fn returns_fd(req: u32) -> bool {
    matches!(req, KVM_CREATE_VM | KVM_CREATE_VCPU)
}

/// The descriptor a successful KVM request made and its name as /proc
/// shows it (`anon_inode:kvm-vcpu:0`; all of KVM's are closed on exec):
/// `fd_name` is the name of the descriptor the request was made on (a
/// statistics descriptor is named after its VM or vcpu). None for the other
/// requests, and for the descriptors whose name only the kernel knows.
/// Whether KVM request `req` makes a descriptor (VM, vcpu, statistics,
/// device).
pub fn creates_fd(req: u32) -> bool {
    matches!(
        req,
        KVM_CREATE_VM | KVM_CREATE_VCPU | KVM_GET_STATS_FD | KVM_CREATE_DEVICE
    )
}

/// The descriptor a successful request of [`creates_fd`] made, named or
/// not (KVM_CREATE_DEVICE's is in its struct; KVM_CREATE_DEVICE_TEST makes
/// none).
pub fn made_fd(call: &super::super::CallView<'_>) -> Option<i32> {
    let ret = call.ret().filter(|&r| r >= 0)?;
    if call.args[1] as u32 != KVM_CREATE_DEVICE {
        return Some(ret as i32);
    }
    let d = call.exit_cap(2).filter(|c| c.data.len() >= 12)?;
    (u32at(&d.data, 8) & 1 == 0).then(|| u32at(&d.data, 4) as i32)
}

pub fn created_fd(
    call: &super::super::CallView<'_>,
    fd_name: Option<&str>,
) -> Option<(i32, String)> {
    let req = call.args[1] as u32;
    if (req >> 8) & 0xff != 0xae {
        return None;
    }
    let ret = call.ret().filter(|&r| r >= 0)?;
    let name = match req {
        KVM_CREATE_VM => "kvm-vm".to_string(),
        // the kernel names it with the id as an int
        KVM_CREATE_VCPU => format!("kvm-vcpu:{}", call.args[2] as u32 as i32),
        KVM_GET_STATS_FD => match fd_name?.strip_prefix("anon_inode:kvm-")? {
            "vm" => "kvm-vm-stats".to_string(),
            vcpu => format!("kvm-vcpu-stats:{}", vcpu.strip_prefix("vcpu:")?),
        },
        // struct kvm_create_device {type, fd, flags}: the device's
        // descriptor is in the struct; KVM_CREATE_DEVICE_TEST makes none.
        // Named here: x86's one device type, KVM_DEV_TYPE_VFIO
        KVM_CREATE_DEVICE => {
            let d = call.exit_cap(2).filter(|c| c.data.len() >= 12)?;
            if u32at(&d.data, 0) != 4 || u32at(&d.data, 8) & 1 != 0 {
                return None;
            }
            return Some((u32at(&d.data, 4) as i32, "anon_inode:kvm-vfio".into()));
        }
        _ => return None,
    };
    Some((ret as i32, format!("anon_inode:{name}")))
}

/// `= 0 (KVM_EXIT_HLT)`: the exit reason BPF read when KVM_RUN returned
/// (only under `-e kvm=vcpu`: without it nothing is copied).
pub(super) fn return_text(s: &mut String, call: &super::super::CallView<'_>) -> bool {
    if call.args[1] as u32 != KVM_RUN || call.ret() != Some(0) {
        return false;
    }
    let Some(reason) = call
        .exit_cap(2)
        .filter(|c| c.data.len() == 4)
        .map(|c| u32at(&c.data, 0))
    else {
        return false;
    };
    let name = KVM_EXIT_REASON
        .iter()
        .find(|(k, _)| *k == reason)
        .map_or("KVM_EXIT_???", |(_, n)| n);
    let _ = write!(s, "= 0 ({name})");
    true
}

/// `0` as `0`, others as `0x...` (strace's PRINT_FIELD_X).
fn x(o: &mut Out<'_>, name: &str, v: u64) {
    let _ = write!(o.s, "{name}=");
    fmt::hex(o.s, v);
}

fn memory_region(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 32 {
        return false;
    }
    let _ = write!(o.s, "{{slot={}, flags=", u32at(d, 0));
    o.flags(u32at(d, 4), KVM_MEM_FLAGS, "KVM_MEM_???");
    o.put(", ");
    x(o, "guest_phys_addr", u64at(d, 8));
    let _ = write!(o.s, ", memory_size={}, ", u64at(d, 16));
    x(o, "userspace_addr", u64at(d, 24));
    o.put("}");
    true
}

/// struct kvm_regs (x86_64): without -v, rax, rsp, rbp, rip and rflags
/// with `...` for the others, as strace abbreviates it.
fn regs(o: &mut Out<'_>, d: &[u8]) -> bool {
    const NAMES: [&str; 18] = [
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rsp", "rbp", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15", "rip", "rflags",
    ];
    if d.len() < 8 * NAMES.len() {
        return false;
    }
    o.put("{");
    for (i, name) in NAMES.iter().enumerate() {
        // rbx..rdi and r8..r15: `...` in the place of the first of each
        let hidden = matches!(i, 1..=5 | 8..=15) && !o.verbose;
        if hidden && !matches!(i, 1 | 8) {
            continue;
        }
        if i > 0 {
            o.put(", ");
        }
        if hidden {
            o.put("...");
        } else {
            x(o, name, u64at(d, 8 * i));
        }
    }
    o.put("}");
    true
}

/// struct kvm_segment: base, limit, selector, then the attribute bytes.
fn segment(o: &mut Out<'_>, d: &[u8]) {
    o.put("{");
    x(o, "base", u64at(d, 0));
    let _ = write!(o.s, ", limit={}, selector={}", u32at(d, 8), u16at(d, 12));
    for (k, name) in ["type", "present", "dpl", "db", "s", "l", "g", "avl"]
        .iter()
        .enumerate()
    {
        let _ = write!(o.s, ", {name}={}", d[14 + k]);
    }
    o.put("}");
}

/// struct kvm_dtable: base, limit.
fn dtable(o: &mut Out<'_>, d: &[u8]) {
    o.put("{");
    x(o, "base", u64at(d, 0));
    let _ = write!(o.s, ", limit={}}}", u16at(d, 8));
}

/// struct kvm_sregs (x86_64): only cs without -v.
fn sregs(o: &mut Out<'_>, d: &[u8]) -> bool {
    const SEGS: [&str; 8] = ["cs", "ds", "es", "fs", "gs", "ss", "tr", "ldt"];
    const SEG: usize = 24;
    if d.len() < 312 {
        return false;
    }
    o.put("{cs=");
    segment(o, &d[..SEG]);
    if !o.verbose {
        o.put(", ...}");
        return true;
    }
    for (k, name) in SEGS.iter().enumerate().skip(1) {
        let _ = write!(o.s, ", {name}=");
        segment(o, &d[k * SEG..]);
    }
    let at = SEGS.len() * SEG;
    o.put(", gdt=");
    dtable(o, &d[at..]);
    o.put(", idt=");
    dtable(o, &d[at + 16..]);
    let at = at + 32;
    for (k, name) in ["cr0", "cr2", "cr3", "cr4", "cr8", "efer"]
        .iter()
        .enumerate()
    {
        let _ = write!(o.s, ", {name}={}", u64at(d, at + 8 * k));
    }
    o.put(", ");
    x(o, "apic_base", u64at(d, at + 48));
    o.put(", interrupt_bitmap=[");
    for k in 0..4 {
        if k > 0 {
            o.put(", ");
        }
        fmt::hex(o.s, u64at(d, at + 56 + 8 * k));
    }
    o.put("]}");
    true
}

/// One struct kvm_cpuid_entry2.
fn cpuid_entry(s: &mut String, e: &[u8], x: fmt::Xlat) {
    s.push_str("{function=");
    fmt::hex(s, u32at(e, 0));
    s.push_str(", index=");
    fmt::hex(s, u32at(e, 4));
    s.push_str(", flags=");
    let mut o = Out {
        s,
        x,
        verbose: false,
        strsize: 0,
    };
    o.flags(u32at(e, 8), KVM_CPUID_FLAGS, "KVM_CPUID_FLAG_???");
    for (k, name) in ["eax", "ebx", "ecx", "edx"].iter().enumerate() {
        let _ = write!(s, ", {name}=");
        fmt::hex(s, u32at(e, 12 + 4 * k));
    }
    s.push('}');
}

/// The copy of the argument in `caps`, also one that ran into unreadable
/// memory after the header (its entries then end where the memory did).
fn cpuid2_copy(caps: &[genba_events::Capture]) -> Option<Option<(Vec<u8>, bool)>> {
    caps.iter()
        .find(|c| c.arg == 2 && c.item == genba_events::CaptureItem::Data)
        .map(|c| (c.data.len() >= CPUID2_HEAD).then(|| (c.data.clone(), c.fault)))
}

/// struct kvm_cpuid2: `{nent=N, entries=[...]}`, the entries themselves
/// with -v. KVM_GET_*_CPUID at exit (what the kernel wrote), KVM_SET_CPUID2
/// at entry.
fn cpuid2(w: &mut ArgWriter<'_>, get: bool) {
    let v = w.call.args[2];
    let copy = if get {
        if !w.exiting() {
            return;
        }
        if w.call.ret().is_some_and(|r| r < 0) {
            w.sep();
            fmt::ptr(&mut w.s, v);
            return;
        }
        w.call.exit.and_then(|(_, caps)| cpuid2_copy(caps))
    } else {
        cpuid2_copy(w.call.enter).or_else(|| w.call.exit.and_then(|(_, caps)| cpuid2_copy(caps)))
    };
    w.sep();
    // not copied by BPF (a call not seen entering): the memory as it is now
    let copy = copy.unwrap_or_else(|| {
        let read = w.env.read_mem.filter(|_| v != 0)?;
        let head = read(v, CPUID2_HEAD)?;
        let n = u32at(&head, 0) as usize;
        read(v, CPUID2_HEAD + n * CPUID_ENTRY)
            .or(Some(head))
            .map(|d| (d, false))
    });
    let Some((d, fault)) = copy else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let nent = u32at(&d, 0);
    let _ = write!(w.s, "{{nent={nent}, entries=");
    if !w.opts.verbose {
        w.s.push_str(if nent > 0 { "[...]" } else { "[]" });
    } else {
        let x = w.opts.xlat;
        let entries = Some((&d[CPUID2_HEAD..], fault));
        super::super::print_array_data(
            &mut w.s,
            entries,
            v + CPUID2_HEAD as u64,
            nent,
            CPUID_ENTRY,
            w.opts,
            |s, e| cpuid_entry(s, e, x),
        );
    }
    w.s.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::testutil::{cap, render};
    use crate::Options;

    fn ioctl(
        req: u32,
        arg: u64,
        enter: &[genba_events::Capture],
        exit: Option<(i64, &[genba_events::Capture])>,
        o: &Options,
    ) -> String {
        render("ioctl", [5, req as u64, arg, 0, 0, 0], enter, exit, o)
    }

    #[test]
    fn numbers_and_capabilities() {
        let o = Options::default();
        assert_eq!(
            ioctl(KVM_GET_API_VERSION, 0, &[], Some((12, &[])), &o),
            "5, KVM_GET_API_VERSION, 0"
        );
        assert_eq!(
            ioctl(KVM_CHECK_EXTENSION, 3, &[], Some((1, &[])), &o),
            "5, KVM_CHECK_EXTENSION, KVM_CAP_USER_MEMORY"
        );
        assert_eq!(
            ioctl(KVM_CHECK_EXTENSION, 0xbeef, &[], Some((0, &[])), &o),
            "5, KVM_CHECK_EXTENSION, 0xbeef /* KVM_CAP_??? */"
        );
        assert_eq!(
            ioctl(KVM_CREATE_VCPU, 3, &[], Some((6, &[])), &o),
            "5, KVM_CREATE_VCPU, 3"
        );
        assert_eq!(ioctl(KVM_RUN, 0, &[], Some((0, &[])), &o), "5, KVM_RUN, 0");
    }

    #[test]
    fn memory_region_and_regs() {
        let o = Options::default();
        let mut m = Vec::new();
        m.extend(0u32.to_le_bytes());
        m.extend(2u32.to_le_bytes());
        m.extend(0x1000u64.to_le_bytes());
        m.extend(4096u64.to_le_bytes());
        m.extend(0x7f00_0000_0000u64.to_le_bytes());
        let caps = [cap(2, &m)];
        assert_eq!(
            ioctl(KVM_SET_USER_MEMORY_REGION, 0x7ffd0000, &caps, Some((0, &[])), &o),
            "5, KVM_SET_USER_MEMORY_REGION, {slot=0, flags=KVM_MEM_READONLY, guest_phys_addr=0x1000, memory_size=4096, userspace_addr=0x7f0000000000}"
        );
        let r: Vec<u8> = (0..18u64).flat_map(|i| (i * 0x10).to_le_bytes()).collect();
        let caps = [cap(2, &r)];
        assert_eq!(
            ioctl(KVM_SET_REGS, 0x7ffd0000, &caps, Some((0, &[])), &o),
            "5, KVM_SET_REGS, {rax=0, ..., rsp=0x60, rbp=0x70, ..., rip=0x100, rflags=0x110}"
        );
        let v = Options {
            verbose: true,
            ..Default::default()
        };
        assert_eq!(
            ioctl(KVM_GET_REGS, 0x7ffd0000, &[], Some((0, &caps)), &v),
            "5, KVM_GET_REGS, {rax=0, rbx=0x10, rcx=0x20, rdx=0x30, rsi=0x40, rdi=0x50, rsp=0x60, rbp=0x70, r8=0x80, r9=0x90, r10=0xa0, r11=0xb0, r12=0xc0, r13=0xd0, r14=0xe0, r15=0xf0, rip=0x100, rflags=0x110}"
        );
        // failed: the address
        assert_eq!(
            ioctl(KVM_GET_REGS, 0x7ffd0000, &[], Some((-14, &caps)), &v),
            "5, KVM_GET_REGS, 0x7ffd0000"
        );
    }

    fn cpuid(nent: u32, entries: u32) -> Vec<u8> {
        let mut d = Vec::new();
        d.extend(nent.to_le_bytes());
        d.extend(0u32.to_le_bytes());
        for i in 0..entries {
            for w in [i, 0, u32::from(i == 1), 0x24, 0, 0, 0, 0, 0, 0] {
                d.extend(w.to_le_bytes());
            }
        }
        d
    }

    #[test]
    fn cpuid_entries() {
        let o = Options::default();
        let v = Options {
            verbose: true,
            ..Default::default()
        };
        let full = [cap(2, &cpuid(2, 2))];
        assert_eq!(
            ioctl(KVM_SET_CPUID2, 0x1000, &full, Some((0, &[])), &o),
            "5, KVM_SET_CPUID2, {nent=2, entries=[...]}"
        );
        assert_eq!(
            ioctl(KVM_SET_CPUID2, 0x1000, &full, Some((0, &[])), &v),
            "5, KVM_SET_CPUID2, {nent=2, entries=[{function=0, index=0, flags=0, eax=0x24, ebx=0, ecx=0, edx=0}, {function=0x1, index=0, flags=KVM_CPUID_FLAG_SIGNIFCANT_INDEX, eax=0x24, ebx=0, ecx=0, edx=0}]}"
        );
        let none = [cap(2, &cpuid(0, 0))];
        assert_eq!(
            ioctl(KVM_SET_CPUID2, 0x1000, &none, Some((0, &[])), &o),
            "5, KVM_SET_CPUID2, {nent=0, entries=[]}"
        );
        // the kernel's count at exit; E2BIG: the address
        assert_eq!(
            ioctl(KVM_GET_SUPPORTED_CPUID, 0x1000, &[], Some((0, &full)), &o),
            "5, KVM_GET_SUPPORTED_CPUID, {nent=2, entries=[...]}"
        );
        assert_eq!(
            ioctl(KVM_GET_SUPPORTED_CPUID, 0x1000, &[], Some((-7, &full)), &o),
            "5, KVM_GET_SUPPORTED_CPUID, 0x1000"
        );
        // entries cut by unreadable memory, and by the copy's bound
        let mut cut = cap(2, &cpuid(3, 1));
        cut.fault = true;
        assert_eq!(
            ioctl(KVM_SET_CPUID2, 0x1000, &[cut.clone()], Some((0, &[])), &v),
            "5, KVM_SET_CPUID2, {nent=3, entries=[{function=0, index=0, flags=0, eax=0x24, ebx=0, ecx=0, edx=0}, ... /* 0x1030 */]}"
        );
        cut.fault = false;
        cut.truncated = true;
        assert_eq!(
            ioctl(KVM_SET_CPUID2, 0x1000, &[cut], Some((0, &[])), &v),
            "5, KVM_SET_CPUID2, {nent=3, entries=[{function=0, index=0, flags=0, eax=0x24, ebx=0, ecx=0, edx=0}, ...]}"
        );
        assert_eq!(
            ioctl(
                KVM_SET_CPUID2,
                0,
                &[crate::decode::testutil::faulted(2)],
                Some((-14, &[])),
                &o
            ),
            "5, KVM_SET_CPUID2, NULL"
        );
    }

    #[test]
    fn exit_reason_only_when_copied() {
        let call = |caps: &'static [genba_events::Capture], ret| crate::CallView {
            nr: 16,
            args: [5, KVM_RUN as u64, 0, 0, 0, 0],
            enter: &[],
            exit: Some((ret, caps)),
        };
        let mut s = String::new();
        assert!(!return_text(&mut s, &call(&[], 0)));
        let caps: &'static [genba_events::Capture] =
            Box::leak(Box::new([cap(2, &5u32.to_le_bytes())]));
        assert!(return_text(&mut s, &call(caps, 0)));
        assert_eq!(s, "= 0 (KVM_EXIT_HLT)");
        let caps: &'static [genba_events::Capture] =
            Box::leak(Box::new([cap(2, &999u32.to_le_bytes())]));
        s.clear();
        assert!(return_text(&mut s, &call(caps, 0)));
        assert_eq!(s, "= 0 (KVM_EXIT_???)");
    }
}
