//! perf_event_open(attr, pid, cpu, group_fd, flags) (a family decoded in
//! its own module: see [`super::family_decoder`]), printed as strace 6.1
//! prints it: `struct perf_event_attr` as far as its size goes (its first
//! 48 bytes without `-v`), the config as its type reads it, the bit flags
//! by name (without `-v` only those set), and when the kernel answers
//! E2BIG, the size it wrote back.
//!
//! The structure is copied at entry (128 bytes, the largest strace 6.1
//! knows; what lies before an unmapped page is kept), and its first 8
//! bytes again at exit for the size E2BIG writes.

use std::fmt::Write;

use genba_events::{Capture, CaptureItem};

use super::{
    arg, custom, le_u32, le_u64, ArgWriter, CallView, CapKind, CapPlan, CapWhen, Decoder, Options,
    Ret, Ty,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// The slot of the structure's type and size after the call.
const SLOT_SIZE_OUT: usize = 5;
/// The largest structure strace 6.1 knows (PERF_ATTR_SIZE_VER7).
pub(super) const ATTR_MAX: usize = 128;
/// The first published size.
const ATTR_VER0: usize = 64;
/// What is read without `-v`: up to `wakeup_events`.
const ATTR_ABBREV: usize = 48;
/// E2BIG, the one error the kernel writes the size back with.
const E2BIG: i64 = 7;

static ATTR_SIZES: &[(u64, &str)] = &[
    (64, "PERF_ATTR_SIZE_VER0"),
    (72, "PERF_ATTR_SIZE_VER1"),
    (80, "PERF_ATTR_SIZE_VER2"),
    (96, "PERF_ATTR_SIZE_VER3"),
    (104, "PERF_ATTR_SIZE_VER4"),
    (112, "PERF_ATTR_SIZE_VER5"),
    (120, "PERF_ATTR_SIZE_VER6"),
    (128, "PERF_ATTR_SIZE_VER7"),
];

static TYPES: &[(u64, &str)] = &[
    (0, "PERF_TYPE_HARDWARE"),
    (1, "PERF_TYPE_SOFTWARE"),
    (2, "PERF_TYPE_TRACEPOINT"),
    (3, "PERF_TYPE_HW_CACHE"),
    (4, "PERF_TYPE_RAW"),
    (5, "PERF_TYPE_BREAKPOINT"),
];

static HW_IDS: &[(u64, &str)] = &[
    (0, "PERF_COUNT_HW_CPU_CYCLES"),
    (1, "PERF_COUNT_HW_INSTRUCTIONS"),
    (2, "PERF_COUNT_HW_CACHE_REFERENCES"),
    (3, "PERF_COUNT_HW_CACHE_MISSES"),
    (4, "PERF_COUNT_HW_BRANCH_INSTRUCTIONS"),
    (5, "PERF_COUNT_HW_BRANCH_MISSES"),
    (6, "PERF_COUNT_HW_BUS_CYCLES"),
    (7, "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND"),
    (8, "PERF_COUNT_HW_STALLED_CYCLES_BACKEND"),
    (9, "PERF_COUNT_HW_REF_CPU_CYCLES"),
];

static SW_IDS: &[(u64, &str)] = &[
    (0, "PERF_COUNT_SW_CPU_CLOCK"),
    (1, "PERF_COUNT_SW_TASK_CLOCK"),
    (2, "PERF_COUNT_SW_PAGE_FAULTS"),
    (3, "PERF_COUNT_SW_CONTEXT_SWITCHES"),
    (4, "PERF_COUNT_SW_CPU_MIGRATIONS"),
    (5, "PERF_COUNT_SW_PAGE_FAULTS_MIN"),
    (6, "PERF_COUNT_SW_PAGE_FAULTS_MAJ"),
    (7, "PERF_COUNT_SW_ALIGNMENT_FAULTS"),
    (8, "PERF_COUNT_SW_EMULATION_FAULTS"),
    (9, "PERF_COUNT_SW_DUMMY"),
    (10, "PERF_COUNT_SW_BPF_OUTPUT"),
    (11, "PERF_COUNT_SW_CGROUP_SWITCHES"),
];

static HW_CACHE_IDS: &[(u64, &str)] = &[
    (0, "PERF_COUNT_HW_CACHE_L1D"),
    (1, "PERF_COUNT_HW_CACHE_L1I"),
    (2, "PERF_COUNT_HW_CACHE_LL"),
    (3, "PERF_COUNT_HW_CACHE_DTLB"),
    (4, "PERF_COUNT_HW_CACHE_ITLB"),
    (5, "PERF_COUNT_HW_CACHE_BPU"),
    (6, "PERF_COUNT_HW_CACHE_NODE"),
];

static HW_CACHE_OPS: &[(u64, &str)] = &[
    (0, "PERF_COUNT_HW_CACHE_OP_READ"),
    (1, "PERF_COUNT_HW_CACHE_OP_WRITE"),
    (2, "PERF_COUNT_HW_CACHE_OP_PREFETCH"),
];

static HW_CACHE_RESULTS: &[(u64, &str)] = &[
    (0, "PERF_COUNT_HW_CACHE_RESULT_ACCESS"),
    (1, "PERF_COUNT_HW_CACHE_RESULT_MISS"),
];

static SAMPLE_FORMAT: &[(u64, &str)] = &[
    (1 << 0, "PERF_SAMPLE_IP"),
    (1 << 1, "PERF_SAMPLE_TID"),
    (1 << 2, "PERF_SAMPLE_TIME"),
    (1 << 3, "PERF_SAMPLE_ADDR"),
    (1 << 4, "PERF_SAMPLE_READ"),
    (1 << 5, "PERF_SAMPLE_CALLCHAIN"),
    (1 << 6, "PERF_SAMPLE_ID"),
    (1 << 7, "PERF_SAMPLE_CPU"),
    (1 << 8, "PERF_SAMPLE_PERIOD"),
    (1 << 9, "PERF_SAMPLE_STREAM_ID"),
    (1 << 10, "PERF_SAMPLE_RAW"),
    (1 << 11, "PERF_SAMPLE_BRANCH_STACK"),
    (1 << 12, "PERF_SAMPLE_REGS_USER"),
    (1 << 13, "PERF_SAMPLE_STACK_USER"),
    (1 << 14, "PERF_SAMPLE_WEIGHT"),
    (1 << 15, "PERF_SAMPLE_DATA_SRC"),
    (1 << 16, "PERF_SAMPLE_IDENTIFIER"),
    (1 << 17, "PERF_SAMPLE_TRANSACTION"),
    (1 << 18, "PERF_SAMPLE_REGS_INTR"),
    (1 << 19, "PERF_SAMPLE_PHYS_ADDR"),
    (1 << 20, "PERF_SAMPLE_AUX"),
    (1 << 21, "PERF_SAMPLE_CGROUP"),
    (1 << 22, "PERF_SAMPLE_DATA_PAGE_SIZE"),
    (1 << 23, "PERF_SAMPLE_CODE_PAGE_SIZE"),
    (1 << 24, "PERF_SAMPLE_WEIGHT_STRUCT"),
];

static READ_FORMAT: &[(u64, &str)] = &[
    (1 << 0, "PERF_FORMAT_TOTAL_TIME_ENABLED"),
    (1 << 1, "PERF_FORMAT_TOTAL_TIME_RUNNING"),
    (1 << 2, "PERF_FORMAT_ID"),
    (1 << 3, "PERF_FORMAT_GROUP"),
    (1 << 4, "PERF_FORMAT_LOST"),
];

static BRANCH_SAMPLE: &[(u64, &str)] = &[
    (1 << 0, "PERF_SAMPLE_BRANCH_USER"),
    (1 << 1, "PERF_SAMPLE_BRANCH_KERNEL"),
    (1 << 2, "PERF_SAMPLE_BRANCH_HV"),
    (1 << 3, "PERF_SAMPLE_BRANCH_ANY"),
    (1 << 4, "PERF_SAMPLE_BRANCH_ANY_CALL"),
    (1 << 5, "PERF_SAMPLE_BRANCH_ANY_RETURN"),
    (1 << 6, "PERF_SAMPLE_BRANCH_IND_CALL"),
    (1 << 7, "PERF_SAMPLE_BRANCH_ABORT_TX"),
    (1 << 8, "PERF_SAMPLE_BRANCH_IN_TX"),
    (1 << 9, "PERF_SAMPLE_BRANCH_NO_TX"),
    (1 << 10, "PERF_SAMPLE_BRANCH_COND"),
    (1 << 11, "PERF_SAMPLE_BRANCH_CALL_STACK"),
    (1 << 12, "PERF_SAMPLE_BRANCH_IND_JUMP"),
    (1 << 13, "PERF_SAMPLE_BRANCH_CALL"),
    (1 << 14, "PERF_SAMPLE_BRANCH_NO_FLAGS"),
    (1 << 15, "PERF_SAMPLE_BRANCH_NO_CYCLES"),
    (1 << 16, "PERF_SAMPLE_BRANCH_TYPE_SAVE"),
    (1 << 17, "PERF_SAMPLE_BRANCH_HW_INDEX"),
    (1 << 18, "PERF_SAMPLE_BRANCH_PRIV_SAVE"),
];

static BP_TYPES: &[(u64, &str)] = &[
    (0, "HW_BREAKPOINT_EMPTY"),
    (1, "HW_BREAKPOINT_R"),
    (2, "HW_BREAKPOINT_W"),
    (3, "HW_BREAKPOINT_RW"),
    (4, "HW_BREAKPOINT_X"),
];

/// The one-bit flags of the flags word, from bit 0; precise_ip (bits 15
/// and 16) comes between watermark and mmap_data.
static FLAGS_LOW: &[&str] = &[
    "disabled",
    "inherit",
    "pinned",
    "exclusive",
    "exclude_user",
    "exclude_kernel",
    "exclude_hv",
    "exclude_idle",
    "mmap",
    "comm",
    "freq",
    "inherit_stat",
    "enable_on_exec",
    "task",
    "watermark",
];

/// The one-bit flags from bit 17 on.
static FLAGS_HIGH: &[&str] = &[
    "mmap_data",
    "sample_id_all",
    "exclude_host",
    "exclude_guest",
    "exclude_callchain_kernel",
    "exclude_callchain_user",
    "mmap2",
    "comm_exec",
    "use_clockid",
    "context_switch",
    "write_backward",
    "namespaces",
    "ksymbol",
    "bpf_event",
    "aux_output",
    "cgroup",
    "text_poke",
    "build_id",
    "inherit_thread",
    "remove_on_exec",
    "sigtrap",
];

static PRECISE_IP: &[&str] = &[
    "arbitrary skid",
    "constant skid",
    "requested to have 0 skid",
    "must have 0 skid",
];

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "perf_event_open" => Some(custom(dec_perf_event_open, Ret::Fd)),
        _ => None,
    }
}

/// The argument types a custom decoder of this family reads: none beyond
/// what [`plan`] asks for.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "perf_event_open" => Some(&[]),
        _ => None,
    }
}

/// The structure at entry, its type and size at exit.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "perf_event_open" {
        return;
    }
    let _ = o;
    out[0] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: ATTR_MAX as u32,
        ..Default::default()
    };
    out[SLOT_SIZE_OUT] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Exit,
        max: 8,
        src_arg: Some(0),
        ..Default::default()
    };
}

/// Nothing beyond the number.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

fn find(caps: &[Capture], slot: usize) -> Option<&[u8]> {
    caps.iter()
        .find(|c| c.arg as usize == slot && c.item == CaptureItem::Data)
        .map(|c| c.data.as_slice())
}

fn dec_perf_event_open(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let a = call.args;
    w.sep();
    match fetch(find(call.enter, 0), a[0], w.opts.verbose) {
        Some((attr, size)) => {
            if !w.exiting_inside() {
                return;
            }
            let new_size = match call.ret() {
                Some(r) if r == -E2BIG => Some(
                    call.exit
                        .and_then(|(_, caps)| find(caps, SLOT_SIZE_OUT))
                        .filter(|d| d.len() >= 8)
                        .map(|d| le_u32(d, 4)),
                ),
                _ => None,
            };
            attr_text(&mut w.s, &attr, size, new_size, w.opts);
        }
        None => fmt::ptr(&mut w.s, a[0]),
    }
    w.sep();
    let _ = write!(w.s, "{}", a[1] as u32 as i32);
    w.sep();
    let _ = write!(w.s, "{}", a[2] as u32 as i32);
    arg(w, 3, Ty::Fd);
    w.sep();
    fmt::flags_default(&mut w.s, a[4], c::PERF_FLAGS, "PERF_FLAG_???", w.opts.xlat);
}

/// The structure as strace reads it: the size it says (at most what is
/// known, 0 meaning the first size), nothing below the first size, only up
/// to `wakeup_events` without `-v`; the bytes past it zero.
pub(super) fn fetch(d: Option<&[u8]>, addr: u64, verbose: bool) -> Option<([u8; ATTR_MAX], usize)> {
    let d = d.filter(|d| addr != 0 && d.len() >= 8)?;
    let mut size = (le_u32(d, 4) as usize).min(ATTR_MAX);
    if size == 0 {
        size = ATTR_VER0;
    }
    if size < ATTR_VER0 {
        return None;
    }
    if !verbose {
        size = ATTR_ABBREV;
    }
    if d.len() < size {
        return None;
    }
    let mut attr = [0u8; ATTR_MAX];
    attr[..size].copy_from_slice(&d[..size]);
    Some((attr, size))
}

/// `struct perf_event_attr` (`size` bytes of it read).
pub(super) fn attr_text(
    s: &mut String,
    d: &[u8],
    size: usize,
    new_size: Option<Option<u32>>,
    o: &Options,
) {
    let x = o.xlat;
    let abbrev = !o.verbose;
    let ty = le_u32(d, 0);
    let config = le_u64(d, 8);
    let flags = le_u64(d, 40);
    let flag = |bit: u32| (flags >> bit) & 1;
    s.push_str("{type=");
    fmt::enumv(s, ty as u64, TYPES, "PERF_TYPE_???", x, true);
    s.push_str(", size=");
    let attr_size = le_u32(d, 4);
    fmt::enumv(
        s,
        attr_size as u64,
        ATTR_SIZES,
        "PERF_ATTR_SIZE_???",
        x,
        true,
    );
    match new_size {
        Some(Some(n)) => {
            s.push_str(" => ");
            fmt::enumv(s, n as u64, ATTR_SIZES, "PERF_ATTR_SIZE_???", x, true);
        }
        Some(None) => s.push_str(" => ???"),
        None => {}
    }
    s.push_str(", config=");
    let high = |s: &mut String| {
        if config >> 32 != 0 {
            fmt::hex(s, config >> 32);
            s.push_str("<<32|");
        }
    };
    match ty {
        0 => {
            high(s);
            fmt::enumv(
                s,
                config & 0xffff_ffff,
                HW_IDS,
                "PERF_COUNT_HW_???",
                x,
                true,
            );
        }
        1 => fmt::enumv(s, config, SW_IDS, "PERF_COUNT_SW_???", x, true),
        2 => {
            let _ = write!(s, "{config}");
        }
        3 => {
            high(s);
            let top = (config & 0xffff_ffff) >> 24;
            if top != 0 {
                fmt::hex(s, top);
                s.push_str("<<24|");
            }
            let part = |k: u32| (config >> k) & 0xff;
            let res = "PERF_COUNT_HW_CACHE_RESULT_???";
            fmt::enumv(s, part(16), HW_CACHE_RESULTS, res, x, true);
            s.push_str("<<16|");
            fmt::enumv(
                s,
                part(8),
                HW_CACHE_OPS,
                "PERF_COUNT_HW_CACHE_OP_???",
                x,
                true,
            );
            s.push_str("<<8|");
            fmt::enumv(s, part(0), HW_CACHE_IDS, "PERF_COUNT_HW_CACHE_???", x, true);
        }
        _ => fmt::hex(s, config),
    }
    let period = le_u64(d, 16);
    if flag(10) != 0 {
        let _ = write!(s, ", sample_freq={period}");
    } else {
        let _ = write!(s, ", sample_period={period}");
    }
    let sample_type = le_u64(d, 24);
    s.push_str(", sample_type=");
    fmt::flags_default(s, sample_type, SAMPLE_FORMAT, "PERF_SAMPLE_???", x);
    s.push_str(", read_format=");
    fmt::flags_default(s, le_u64(d, 32), READ_FORMAT, "PERF_FORMAT_???", x);
    let one = |s: &mut String, name: &str, bit: u32| {
        if !abbrev || flag(bit) != 0 {
            let _ = write!(s, ", {name}={}", flag(bit));
        }
    };
    for (k, name) in FLAGS_LOW.iter().enumerate() {
        one(s, name, k as u32);
    }
    let precise = (flags >> 15) & 3;
    let _ = write!(
        s,
        ", precise_ip={precise} /* {} */",
        PRECISE_IP[precise as usize]
    );
    for (k, name) in FLAGS_HIGH.iter().enumerate() {
        one(s, name, 17 + k as u32);
    }
    let reserved = flags >> 38;
    if reserved != 0 {
        let _ = write!(s, ", __reserved_1={reserved:#x} /* Bits 63..38 */");
    }
    if !abbrev {
        rest(s, d, size, ty, sample_type, flag(14) != 0, flag(25) != 0, x);
    }
    if (attr_size != 0 && attr_size as usize > size) || (attr_size == 0 && size < ATTR_VER0) {
        s.push_str(", ...");
    }
    s.push('}');
}

/// The fields past the flags (with `-v`), as far as `size` goes.
#[allow(clippy::too_many_arguments)]
fn rest(
    s: &mut String,
    d: &[u8],
    size: usize,
    ty: u32,
    sample_type: u64,
    watermark: bool,
    use_clockid: bool,
    x: Xlat,
) {
    let bp = ty == 5;
    let wake = le_u32(d, 48);
    if watermark {
        let _ = write!(s, ", wakeup_watermark={wake}");
    } else {
        let _ = write!(s, ", wakeup_events={wake}");
    }
    if bp {
        let bp_type = le_u32(d, 52) as u64;
        let hint = if bp_type <= 7 {
            "HW_BREAKPOINT_INVALID"
        } else {
            "HW_BREAKPOINT_???"
        };
        s.push_str(", bp_type=");
        fmt::enumv(s, bp_type, BP_TYPES, hint, x, true);
        s.push_str(", bp_addr=");
    } else {
        s.push_str(", config1=");
    }
    fmt::hex(s, le_u64(d, 56));
    // the fields from here on are there only if the size reaches them
    let has = |off: usize| off < size;
    if !has(64) {
        return;
    }
    if bp {
        let _ = write!(s, ", bp_len={}", le_u64(d, 64));
    } else {
        s.push_str(", config2=");
        fmt::hex(s, le_u64(d, 64));
    }
    if !has(72) {
        return;
    }
    if sample_type & (1 << 11) != 0 {
        s.push_str(", branch_sample_type=");
        let v = le_u64(d, 72);
        fmt::flags_default(s, v, BRANCH_SAMPLE, "PERF_SAMPLE_BRANCH_???", x);
    }
    if !has(80) {
        return;
    }
    s.push_str(", sample_regs_user=");
    fmt::hex(s, le_u64(d, 80));
    if !has(88) {
        return;
    }
    if sample_type & (1 << 13) != 0 {
        s.push_str(", sample_stack_user=");
        fmt::hex(s, le_u32(d, 88) as u64);
    }
    if use_clockid {
        if !has(92) {
            return;
        }
        s.push_str(", clockid=");
        fmt::enumv(s, le_u32(d, 92) as u64, c::CLOCK_IDS, "CLOCK_???", x, true);
    }
    if !has(96) {
        return;
    }
    s.push_str(", sample_regs_intr=");
    fmt::hex(s, le_u64(d, 96));
    if !has(104) {
        return;
    }
    let _ = write!(s, ", aux_watermark={}", le_u32(d, 104));
    if !has(108) {
        return;
    }
    let _ = write!(
        s,
        ", sample_max_stack={}",
        u16::from_le_bytes([d[108], d[109]])
    );
    if !has(110) {
        return;
    }
    let r2 = u16::from_le_bytes([d[110], d[111]]);
    if r2 != 0 {
        let _ = write!(s, " /* bytes 110..111: {r2:#x} */");
    }
    if !has(112) {
        return;
    }
    let _ = write!(s, ", aux_sample_size={}", le_u32(d, 112));
    if !has(116) {
        return;
    }
    let r3 = le_u32(d, 116);
    if r3 != 0 {
        let _ = write!(s, " /* bytes 116..119: {r3:#x} */");
    }
    if !has(120) {
        return;
    }
    s.push_str(", sig_data=");
    fmt::hex(s, le_u64(d, 120));
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{cap, render};
    use super::super::Options;

    const ADDR: u64 = 0x7f00_0000_1000;

    /// A VER0 structure of a software event with these flags.
    fn attr(config: u64, flags: u64) -> Vec<u8> {
        let mut d = vec![0u8; 64];
        d[0..4].copy_from_slice(&1u32.to_le_bytes());
        d[4..8].copy_from_slice(&64u32.to_le_bytes());
        d[8..16].copy_from_slice(&config.to_le_bytes());
        d[40..48].copy_from_slice(&flags.to_le_bytes());
        d
    }

    #[test]
    fn abbreviated_shows_the_set_flags_and_stops_at_wakeup_events() {
        let enter = [cap(0, &attr(9, 1 | 1 << 15))];
        let args = [ADDR, 0, -1i64 as u64, -1i64 as u64, 8, 0];
        assert_eq!(
            render(
                "perf_event_open",
                args,
                &enter,
                Some((-22, &[])),
                &Options::default()
            ),
            "{type=PERF_TYPE_SOFTWARE, size=PERF_ATTR_SIZE_VER0, config=PERF_COUNT_SW_DUMMY, \
             sample_period=0, sample_type=0, read_format=0, disabled=1, \
             precise_ip=1 /* constant skid */, ...}, 0, -1, -1, PERF_FLAG_FD_CLOEXEC"
        );
    }

    #[test]
    fn a_size_below_the_first_one_is_an_address() {
        let mut d = attr(0, 0);
        d[4..8].copy_from_slice(&8u32.to_le_bytes());
        let enter = [cap(0, &d)];
        let args = [ADDR, 0, 0, 0, 0, 0];
        assert_eq!(
            render(
                "perf_event_open",
                args,
                &enter,
                Some((-22, &[])),
                &Options::default()
            ),
            format!("{ADDR:#x}, 0, 0, 0, 0")
        );
    }

    #[test]
    fn verbose_shows_every_flag_and_what_the_size_reaches() {
        let enter = [cap(0, &attr(3, 0))];
        let exit = [cap(5, &[1, 0, 0, 0, 72, 0, 0, 0])];
        let o = Options {
            verbose: true,
            ..Options::default()
        };
        let args = [ADDR, 0, 0, 0, 0, 0];
        let s = render("perf_event_open", args, &enter, Some((-7, &exit)), &o);
        assert!(s.starts_with(
            "{type=PERF_TYPE_SOFTWARE, size=PERF_ATTR_SIZE_VER0 => PERF_ATTR_SIZE_VER1, \
             config=PERF_COUNT_SW_CONTEXT_SWITCHES, sample_period=0, sample_type=0, \
             read_format=0, disabled=0, inherit=0,"
        ));
        assert!(
            s.ends_with("sigtrap=0, wakeup_events=0, config1=0}, 0, 0, 0, 0"),
            "{s}"
        );
    }
}
