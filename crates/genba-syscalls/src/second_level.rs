//! Second-level memory: what pointers inside the memory an argument points
//! to point to (V4L2's control strings, KEYCTL_DH_COMPUTE's otherinfo,
//! bpf's kprobe_multi symbols and cookies and a program's map ids, BLKPG's
//! partition, SIOCGIFCONF's interfaces; perf_event's filter string, a
//! second view of an argument). The four capture slots past the six
//! arguments' hold them; a decoder asks for the bytes at a pointer it read
//! in the first-level copy, and gets them when BPF copied them at the side
//! of the call it prints.

use genba_events::{Capture, CaptureItem};

use super::{CallView, CapCond, CapKind, CapPlan, CapWhen, Options, PtrsLayout};

/// Slot 6: the first extra slot.
pub(super) const SLOT_A: u8 = 6;
/// Slot 7: the second.
pub(super) const SLOT_B: u8 = 7;
/// Slot 8: the third.
pub(super) const SLOT_C: u8 = 8;
/// Slot 9: the fourth.
pub(super) const SLOT_D: u8 = 9;

/// BLKPG, and `sizeof(struct blkpg_partition)`.
const BLKPG: u32 = 0x1269;
const BLKPG_PARTITION: u32 = 152;
const PERF_EVENT_IOC_SET_FILTER: u32 = 0x4008_2406;
/// SIOCGIFCONF, and `sizeof(struct ifreq)`.
const SIOCGIFCONF: u32 = 0x8912;
const IFREQ: u32 = 40;

/// VIDIOC_G/S/TRY_EXT_CTRLS (their numbers masked as ioctl_v4l2's controls
/// slot tests them).
const V4L2_EXT_CTRLS_MASK: u32 = 0xffff_ff40;
const V4L2_EXT_CTRLS_VAL: u32 = 0xc020_5647 & 0xffff_ff40;
const KEYCTL_DH_COMPUTE: u8 = 23;
const BPF_LINK_CREATE: u8 = 28;
const BPF_OBJ_GET_INFO_BY_FD: u8 = 15;
/// `len_arg` `LEN_CONST + n`: the constant length n (genba.h's
/// GENBA_LEN_CONST).
const LEN_CONST: u8 = 0x80;

/// The bytes a string printed with `-s` needs (`-v` does not lift strace's
/// string limit).
fn str_max(o: &Options) -> u32 {
    o.strsize.saturating_add(1).min(1 << 12) as u32
}

/// The plans of slots 6 to 9 (`extra`).
pub(super) fn plan(name: &str, o: &Options, extra: &mut [CapPlan]) {
    let [a, b, c, d] = extra else { return };
    let request = |val: u32| {
        Some(CapCond {
            arg: 1,
            mask: u32::MAX,
            val,
            val2: val,
            bitmap: false,
        })
    };
    match name {
        "ioctl" => {
            // each v4l2_ext_control (20 bytes, packed) of the array word 3
            // of v4l2_ext_controls points to (count: the u32 at byte 4):
            // its string (size: the u32 at byte 4, pointer at byte 12)
            *a = CapPlan {
                kind: CapKind::Ptrs,
                when: CapWhen::Both,
                len_arg: 1,
                len_u32: true,
                max: if o.verbose { 1 << 12 } else { o.strsize as u32 },
                cond: Some(CapCond {
                    arg: 1,
                    mask: V4L2_EXT_CTRLS_MASK,
                    val: V4L2_EXT_CTRLS_VAL,
                    val2: V4L2_EXT_CTRLS_VAL,
                    bitmap: false,
                }),
                src_arg: Some(2),
                deref: Some(3),
                ptrs: PtrsLayout {
                    stride: 20,
                    ptr_off: 12,
                    elen_off: 4,
                },
                ..Default::default()
            };
            // PERF_EVENT_IOC_SET_FILTER: the filter string (a second view
            // of the argument: its own slot copies as the request encodes)
            *b = CapPlan {
                kind: CapKind::Str,
                when: CapWhen::Enter,
                max: o.strsize.min(1 << 12) as u32,
                cond: request(PERF_EVENT_IOC_SET_FILTER),
                src_arg: Some(2),
                ..Default::default()
            };
            // BLKPG: the partition word 2 of blkpg_ioctl_arg points to
            *c = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                len_arg: 0xff,
                max: BLKPG_PARTITION,
                cond: request(BLKPG),
                src_arg: Some(2),
                deref: Some(2),
                ..Default::default()
            };
            // SIOCGIFCONF: the ifreqs the kernel wrote at ifc_buf (word 1),
            // ifc_len (the u32 at byte 0) bytes, at exit
            let shown = if o.verbose {
                1 << 14
            } else {
                IFREQ * (o.strsize as u32 + 1)
            };
            *d = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::ExitOk,
                len_arg: 0,
                len_u32: true,
                max: shown.min(1 << 14),
                cond: request(SIOCGIFCONF),
                src_arg: Some(2),
                deref: Some(1),
                ..Default::default()
            };
        }
        "keyctl" => {
            // struct keyctl_kdf_params: otherinfo (word 1), otherinfolen
            // (the u32 at byte 16)
            *a = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 4,
                len_u32: true,
                max: str_max(o),
                cond: Some(CapCond::one_of(0, u32::MAX, &[KEYCTL_DH_COMPUTE])),
                src_arg: Some(4),
                deref: Some(1),
                ..Default::default()
            };
        }
        "bpf" => {
            // BPF_LINK_CREATE's kprobe_multi: cnt (the u32 at byte 20),
            // syms (word 3: char *[cnt]), cookies (word 5: u64[cnt])
            let cond = Some(CapCond::one_of(0, u32::MAX, &[BPF_LINK_CREATE]));
            *a = CapPlan {
                kind: CapKind::Ptrs,
                when: CapWhen::Enter,
                len_arg: 5,
                len_u32: true,
                max: str_max(o),
                cond,
                src_arg: Some(1),
                deref: Some(3),
                ptrs: PtrsLayout {
                    stride: 8,
                    ptr_off: 0,
                    elen_off: PtrsLayout::STR,
                },
                ..Default::default()
            };
            // BPF_OBJ_GET_INFO_BY_FD's bpf_prog_info (word 1 of the
            // attr), as the kernel filled it: one record whose map_ids
            // (byte 56) points to nr_map_ids (the u32 at byte 52) ids
            *c = CapPlan {
                kind: CapKind::Ptrs,
                when: CapWhen::ExitOk,
                len_arg: LEN_CONST + 1,
                mult: 4,
                max: 4 * (o.strsize.min(1 << 10) as u32 + 1),
                cond: Some(CapCond::one_of(0, u32::MAX, &[BPF_OBJ_GET_INFO_BY_FD])),
                src_arg: Some(1),
                deref: Some(1),
                ptrs: PtrsLayout {
                    stride: 0,
                    ptr_off: 56,
                    elen_off: 52,
                },
                ..Default::default()
            };
            *b = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 5,
                len_u32: true,
                mult: 8,
                max: 8 * (o.strsize.min(1 << 10) as u32 + 1),
                cond,
                src_arg: Some(1),
                deref: Some(5),
                ..Default::default()
            };
        }
        _ => {}
    }
}

fn items(caps: &[Capture], slot: u8) -> impl Iterator<Item = &Capture> {
    caps.iter().filter(move |c| c.arg == slot)
}

/// What BPF copied at `addr` for slot `slot`, at exit (`at_exit`) or at
/// entry: the element of a [`CapKind::Ptrs`] copy whose pointer is `addr`,
/// or a deref'd copy (its `aux` the length asked for, so matched by slot
/// only). None when nothing was copied there (unreadable: the decoder
/// prints the address).
pub(super) fn copied<'a>(
    call: &CallView<'a>,
    slot: u8,
    at_exit: bool,
    addr: u64,
) -> Option<&'a Capture> {
    let side = |exit: bool| -> Option<&'a Capture> {
        let caps = if exit { call.exit?.1 } else { call.enter };
        let mut found = None;
        for c in items(caps, slot) {
            match c.item {
                CaptureItem::Elem if c.aux == addr => found = Some(c),
                CaptureItem::Data => found = Some(c),
                _ => {}
            }
        }
        found
    };
    let found = side(at_exit);
    // an entry copy that faulted (a page not in yet) is copied again at
    // exit: that copy, whole, is the better one (as `CallView::cap` takes
    // a first-level slot's)
    if !at_exit && found.is_none_or(|c| c.fault) {
        if let Some(x) = side(true).filter(|c| !c.fault) {
            return Some(x);
        }
    }
    found
}

/// The `n` bytes at `addr`, as copied for slot `slot` (entry's copy, or
/// the exit's when `at_exit`), when BPF read at least that many.
pub(super) fn bytes<'a>(
    call: &CallView<'a>,
    slot: u8,
    at_exit: bool,
    addr: u64,
    n: usize,
) -> Option<&'a [u8]> {
    copied(call, slot, at_exit, addr)
        .filter(|c| c.data.len() >= n)
        .map(|c| &c.data[..n])
}

/// The pointers of a [`CapKind::Ptrs`] copy's records as the array of
/// 64-bit words they are read from (records of 8 bytes: `char *[]`), as far
/// as the elements run without a gap.
pub(super) fn pointers(call: &CallView<'_>, slot: u8, at_exit: bool) -> Option<Vec<u8>> {
    let d = pointers_at(call, slot, at_exit);
    // none at entry (the array's page not in yet): the copy made again at exit
    if !at_exit && d.is_none() {
        return pointers_at(call, slot, true);
    }
    d
}

fn pointers_at(call: &CallView<'_>, slot: u8, at_exit: bool) -> Option<Vec<u8>> {
    let caps = if at_exit { call.exit?.1 } else { call.enter };
    let mut d = Vec::new();
    for c in items(caps, slot).filter(|c| c.item == CaptureItem::Elem) {
        if c.elem as usize != d.len() / 8 {
            break;
        }
        d.extend_from_slice(&c.aux.to_le_bytes());
    }
    (!d.is_empty()).then_some(d)
}
