//! The bpf(2) call (a family decoded in its own module: see
//! [`super::family_decoder`]): the command, `union bpf_attr` as each command
//! uses it (as far as the size given covers it, the fields of each released
//! version of the structure), and the size.

use std::fmt::Write;

use super::{
    custom, le_u32, le_u64, sockopt, ArgWriter, CallView, CapCond, CapKind, CapPlan, CapWhen,
    Decoder, Options, Ret, Ty,
};
use crate::fmt::{self, HexStr, Xlat};

/// `enum bpf_cmd`.
static COMMANDS: &[(u64, &str)] = &[
    (0, "BPF_MAP_CREATE"),
    (1, "BPF_MAP_LOOKUP_ELEM"),
    (2, "BPF_MAP_UPDATE_ELEM"),
    (3, "BPF_MAP_DELETE_ELEM"),
    (4, "BPF_MAP_GET_NEXT_KEY"),
    (5, "BPF_PROG_LOAD"),
    (6, "BPF_OBJ_PIN"),
    (7, "BPF_OBJ_GET"),
    (8, "BPF_PROG_ATTACH"),
    (9, "BPF_PROG_DETACH"),
    (10, "BPF_PROG_TEST_RUN"),
    (11, "BPF_PROG_GET_NEXT_ID"),
    (12, "BPF_MAP_GET_NEXT_ID"),
    (13, "BPF_PROG_GET_FD_BY_ID"),
    (14, "BPF_MAP_GET_FD_BY_ID"),
    (15, "BPF_OBJ_GET_INFO_BY_FD"),
    (16, "BPF_PROG_QUERY"),
    (17, "BPF_RAW_TRACEPOINT_OPEN"),
    (18, "BPF_BTF_LOAD"),
    (19, "BPF_BTF_GET_FD_BY_ID"),
    (20, "BPF_TASK_FD_QUERY"),
    (21, "BPF_MAP_LOOKUP_AND_DELETE_ELEM"),
    (22, "BPF_MAP_FREEZE"),
    (23, "BPF_BTF_GET_NEXT_ID"),
    (24, "BPF_MAP_LOOKUP_BATCH"),
    (25, "BPF_MAP_LOOKUP_AND_DELETE_BATCH"),
    (26, "BPF_MAP_UPDATE_BATCH"),
    (27, "BPF_MAP_DELETE_BATCH"),
    (28, "BPF_LINK_CREATE"),
    (29, "BPF_LINK_UPDATE"),
    (30, "BPF_LINK_GET_FD_BY_ID"),
    (31, "BPF_LINK_GET_NEXT_ID"),
    (32, "BPF_ENABLE_STATS"),
    (33, "BPF_ITER_CREATE"),
    (34, "BPF_LINK_DETACH"),
    (35, "BPF_PROG_BIND_MAP"),
];

/// `enum bpf_map_type`, in order from 0.
static MAP_TYPES: &[&str] = &[
    "UNSPEC",
    "HASH",
    "ARRAY",
    "PROG_ARRAY",
    "PERF_EVENT_ARRAY",
    "PERCPU_HASH",
    "PERCPU_ARRAY",
    "STACK_TRACE",
    "CGROUP_ARRAY",
    "LRU_HASH",
    "LRU_PERCPU_HASH",
    "LPM_TRIE",
    "ARRAY_OF_MAPS",
    "HASH_OF_MAPS",
    "DEVMAP",
    "SOCKMAP",
    "CPUMAP",
    "XSKMAP",
    "SOCKHASH",
    "CGROUP_STORAGE",
    "REUSEPORT_SOCKARRAY",
    "PERCPU_CGROUP_STORAGE",
    "QUEUE",
    "STACK",
    "SK_STORAGE",
    "DEVMAP_HASH",
    "STRUCT_OPS",
    "RINGBUF",
    "INODE_STORAGE",
    "TASK_STORAGE",
    "BLOOM_FILTER",
    "USER_RINGBUF",
];

/// `enum bpf_prog_type`, in order from 0.
static PROG_TYPES: &[&str] = &[
    "UNSPEC",
    "SOCKET_FILTER",
    "KPROBE",
    "SCHED_CLS",
    "SCHED_ACT",
    "TRACEPOINT",
    "XDP",
    "PERF_EVENT",
    "CGROUP_SKB",
    "CGROUP_SOCK",
    "LWT_IN",
    "LWT_OUT",
    "LWT_XMIT",
    "SOCK_OPS",
    "SK_SKB",
    "CGROUP_DEVICE",
    "SK_MSG",
    "RAW_TRACEPOINT",
    "CGROUP_SOCK_ADDR",
    "LWT_SEG6LOCAL",
    "LIRC_MODE2",
    "SK_REUSEPORT",
    "FLOW_DISSECTOR",
    "CGROUP_SYSCTL",
    "RAW_TRACEPOINT_WRITABLE",
    "CGROUP_SOCKOPT",
    "TRACING",
    "STRUCT_OPS",
    "EXT",
    "LSM",
    "SK_LOOKUP",
    "SYSCALL",
];

/// `enum bpf_attach_type`, in order from 0.
static ATTACH_TYPES: &[&str] = &[
    "CGROUP_INET_INGRESS",
    "CGROUP_INET_EGRESS",
    "CGROUP_INET_SOCK_CREATE",
    "CGROUP_SOCK_OPS",
    "SK_SKB_STREAM_PARSER",
    "SK_SKB_STREAM_VERDICT",
    "CGROUP_DEVICE",
    "SK_MSG_VERDICT",
    "CGROUP_INET4_BIND",
    "CGROUP_INET6_BIND",
    "CGROUP_INET4_CONNECT",
    "CGROUP_INET6_CONNECT",
    "CGROUP_INET4_POST_BIND",
    "CGROUP_INET6_POST_BIND",
    "CGROUP_UDP4_SENDMSG",
    "CGROUP_UDP6_SENDMSG",
    "LIRC_MODE2",
    "FLOW_DISSECTOR",
    "CGROUP_SYSCTL",
    "CGROUP_UDP4_RECVMSG",
    "CGROUP_UDP6_RECVMSG",
    "CGROUP_GETSOCKOPT",
    "CGROUP_SETSOCKOPT",
    "TRACE_RAW_TP",
    "TRACE_FENTRY",
    "TRACE_FEXIT",
    "MODIFY_RETURN",
    "LSM_MAC",
    "TRACE_ITER",
    "CGROUP_INET4_GETPEERNAME",
    "CGROUP_INET6_GETPEERNAME",
    "CGROUP_INET4_GETSOCKNAME",
    "CGROUP_INET6_GETSOCKNAME",
    "XDP_DEVMAP",
    "CGROUP_INET_SOCK_RELEASE",
    "XDP_CPUMAP",
    "SK_LOOKUP",
    "XDP",
    "SK_SKB_VERDICT",
    "SK_REUSEPORT_SELECT",
    "SK_REUSEPORT_SELECT_OR_MIGRATE",
    "PERF_EVENT",
    "TRACE_KPROBE_MULTI",
    "LSM_CGROUP",
];

static MAP_FLAGS: &[(u64, &str)] = &[
    (1, "BPF_F_NO_PREALLOC"),
    (1 << 1, "BPF_F_NO_COMMON_LRU"),
    (1 << 2, "BPF_F_NUMA_NODE"),
    (1 << 3, "BPF_F_RDONLY"),
    (1 << 4, "BPF_F_WRONLY"),
    (1 << 5, "BPF_F_STACK_BUILD_ID"),
    (1 << 6, "BPF_F_ZERO_SEED"),
    (1 << 7, "BPF_F_RDONLY_PROG"),
    (1 << 8, "BPF_F_WRONLY_PROG"),
    (1 << 9, "BPF_F_CLONE"),
    (1 << 10, "BPF_F_MMAPABLE"),
    (1 << 11, "BPF_F_PRESERVE_ELEMS"),
    (1 << 12, "BPF_F_INNER_MAP"),
];
static FILE_MODE_FLAGS: &[(u64, &str)] = &[(1 << 3, "BPF_F_RDONLY"), (1 << 4, "BPF_F_WRONLY")];
static PROG_FLAGS: &[(u64, &str)] = &[
    (1, "BPF_F_STRICT_ALIGNMENT"),
    (1 << 1, "BPF_F_ANY_ALIGNMENT"),
    (1 << 2, "BPF_F_TEST_RND_HI32"),
    (1 << 3, "BPF_F_TEST_STATE_FREQ"),
    (1 << 4, "BPF_F_SLEEPABLE"),
];
static LOOKUP_FLAGS: &[(u64, &str)] = &[(0, "BPF_ANY"), (4, "BPF_F_LOCK")];
static UPDATE_FLAGS: &[(u64, &str)] = &[
    (0, "BPF_ANY"),
    (1, "BPF_NOEXIST"),
    (2, "BPF_EXIST"),
    (4, "BPF_F_LOCK"),
];
static ATTACH_FLAGS: &[(u64, &str)] = &[
    (1, "BPF_F_ALLOW_OVERRIDE"),
    (1 << 1, "BPF_F_ALLOW_MULTI"),
    (1 << 2, "BPF_F_REPLACE"),
];
static QUERY_FLAGS: &[(u64, &str)] = &[(1, "BPF_F_QUERY_EFFECTIVE")];
static TEST_RUN_FLAGS: &[(u64, &str)] = &[
    (1, "BPF_F_TEST_RUN_ON_CPU"),
    (1 << 1, "BPF_F_TEST_XDP_LIVE_FRAMES"),
];
static KPROBE_MULTI_FLAGS: &[(u64, &str)] = &[(1, "BPF_F_KPROBE_MULTI_RETURN")];
static TASK_FD_TYPES: &[(u64, &str)] = &[
    (0, "BPF_FD_TYPE_RAW_TRACEPOINT"),
    (1, "BPF_FD_TYPE_TRACEPOINT"),
    (2, "BPF_FD_TYPE_KPROBE"),
    (3, "BPF_FD_TYPE_KRETPROBE"),
    (4, "BPF_FD_TYPE_UPROBE"),
    (5, "BPF_FD_TYPE_URETPROBE"),
];

/// The most of `union bpf_attr` read: a page, as strace does.
const PAGE: usize = 4096;

/// Slots of the copies of what the attr points to.
/// Word 0 (OBJ_PIN/OBJ_GET's pathname, RAW_TRACEPOINT_OPEN's name,
/// BTF_LOAD's btf).
const SLOT_W0: u8 = 3;
/// Word 2 (PROG_LOAD's license, PROG_QUERY's prog_ids, TASK_FD_QUERY's buf,
/// LINK_CREATE's iter_info).
const SLOT_W2: u8 = 4;
/// Word 1 (PROG_LOAD's insns, OBJ_GET_INFO_BY_FD's info).
const SLOT_W1: u8 = 5;
/// Word 4 (PROG_LOAD's log_buf, LINK_CREATE's kprobe_multi addrs): the
/// size argument's slot, free since the size is a number.
const SLOT_W4: u8 = 2;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    (name == "bpf").then(|| custom(dec_bpf, Ret::Dec))
}

/// The argument types a custom decoder of this family reads (their captures).
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    (name == "bpf").then_some(&[Ty::Skip][..])
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "bpf" {
        return;
    }
    let _ = o;
    // the attr as far as the size goes (at most a page), at entry and again
    // at exit for the commands the kernel writes into
    out[1] = CapPlan {
        kind: CapKind::ArgLen,
        when: CapWhen::Both,
        len_arg: 2,
        max: PAGE as u32,
        ..Default::default()
    };
    let deref = |word: u8, when: CapWhen, cmds: &[u8]| CapPlan {
        kind: CapKind::Fixed,
        when,
        len_arg: 0xff,
        max: PAGE as u32,
        cond: Some(CapCond::one_of(0, u32::MAX, cmds)),
        src_arg: Some(1),
        deref: Some(word),
        ..Default::default()
    };
    out[SLOT_W0 as usize] = deref(0, CapWhen::Enter, &[6, 7, 17, 18]);
    out[SLOT_W2 as usize] = deref(2, CapWhen::Both, &[5, 16, 20, 28]);
    out[SLOT_W1 as usize] = deref(1, CapWhen::Both, &[5, 15]);
    out[SLOT_W4 as usize] = deref(4, CapWhen::Enter, &[5, 28]);
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

/// Whether the command returns a new descriptor.
pub(super) fn returns_fd(args: &[u64; 6]) -> bool {
    matches!(args[0] as u32, 0 | 5 | 6 | 7 | 13 | 14 | 18 | 19 | 28 | 30)
}

/// The known size of each command's part of `union bpf_attr`.
fn attr_size(cmd: u32) -> Option<usize> {
    Some(match cmd {
        0 => 72,
        1 | 2 | 21 => 32,
        3 => 16,
        4 => 24,
        5 => 128,
        6 | 7 => 16,
        8 => 20,
        9 => 12,
        10 => 76,
        11 | 12 | 23 | 31 => 12,
        13 | 14 => 12,
        15 => 16,
        16 => 28,
        17 => 12,
        18 => 28,
        19 | 30 => 4,
        20 => 48,
        22 => 4,
        24..=27 => 56,
        28 => 48,
        29 => 16,
        _ => return None,
    })
}

/// Memory of the traced process at an address the attr holds: the copy in
/// a slot if BPF made one, else the live process's.
struct Mem<'w, 'a> {
    w: &'w ArgWriter<'a>,
    slot: Option<(u8, bool)>,
}

impl Mem<'_, '_> {
    /// Up to `len` bytes at `addr`, fewer where the memory stops being
    /// readable.
    fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        if addr == 0 || len == 0 {
            return Vec::new();
        }
        let mut have = Vec::new();
        if let Some(d) = self.second_level(addr, len) {
            return d;
        }
        if let Some((slot, exit)) = self.slot {
            let caps = if exit {
                self.w.call.exit.map(|(_, c)| c).unwrap_or(&[])
            } else {
                self.w.call.enter
            };
            if let Some(c) = caps
                .iter()
                .find(|c| c.arg == slot && c.item == genba_events::CaptureItem::Data)
            {
                if c.data.len() >= len || c.fault {
                    return c.data[..c.data.len().min(len)].to_vec();
                }
                have = c.data.clone();
            }
        }
        let Some(read) = self.w.env.read_mem else {
            return have;
        };
        // page by page, from where the copy stopped
        while have.len() < len {
            let at = addr.wrapping_add(have.len() as u64);
            let page_left = PAGE - (at & (PAGE as u64 - 1)) as usize;
            let n = page_left.min(len - have.len());
            match read(at, n) {
                Some(d) if d.len() == n => have.extend_from_slice(&d),
                _ => break,
            }
        }
        have
    }
}

impl Mem<'_, '_> {
    /// A [`super::CapKind::Ptrs`] copy's memory: with [`PTR_WORDS`] in the
    /// slot, the array of pointers (rebuilt from the elements' pointers);
    /// else the element whose pointer is `addr` (a string gets its NUL
    /// back when it was copied whole).
    fn second_level(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        let (slot, exit) = self.slot?;
        if slot & PTR_WORDS != 0 {
            let mut d = super::second_level::pointers(&self.w.call, slot & !PTR_WORDS, exit)?;
            d.truncate(len);
            return Some(d);
        }
        if slot < super::second_level::SLOT_A {
            return None;
        }
        let c = super::second_level::copied(&self.w.call, slot, exit, addr)?;
        let mut d = c.data.clone();
        if !c.fault && !c.truncated {
            d.push(0);
        }
        d.truncate(len);
        Some(d)
    }
}

/// With a second-level slot in [`Mem::slot`]: the array of the pointers.
const PTR_WORDS: u8 = 0x80;

/// strace's printstr_ex: `len` bytes at most (`None`: a C string), up to
/// `-s` of them, stopping at a NUL when `zero`; the address when they
/// cannot be read.
fn string(s: &mut String, m: &Mem<'_, '_>, addr: u64, len: Option<u64>, zero: bool, o: &Options) {
    string_lim(s, m, addr, len, zero, o, o.strsize)
}

fn string_lim(
    s: &mut String,
    m: &Mem<'_, '_>,
    addr: u64,
    len: Option<u64>,
    zero: bool,
    o: &Options,
    strsize: usize,
) {
    if addr == 0 {
        s.push_str("NULL");
        return;
    }
    let want = len.map_or(u64::MAX, |l| l).min(strsize as u64 + 1) as usize;
    let d = m.read(addr, want);
    let nul = if zero {
        d.iter().position(|&b| b == 0)
    } else {
        None
    };
    if nul.is_none() && d.len() < want {
        fmt::ptr(s, addr);
        return;
    }
    let (shown, unterminated) = match nul {
        Some(p) => (&d[..p], false),
        None => (&d[..want.min(strsize)], true),
    };
    let l = len.unwrap_or(u64::MAX);
    let ellipsis = unterminated && l != 0 && (zero || l > strsize as u64);
    fmt::quoted(s, shown, ellipsis, o.hex);
}

/// A `char[sz]` field: up to its NUL, else `sz - 1` bytes and `...`.
fn cstring(s: &mut String, d: &[u8], o: &Options) {
    match d.iter().position(|&b| b == 0) {
        Some(p) => fmt::quoted(s, &d[..p], false, o.hex),
        None => fmt::quoted(s, &d[..d.len().saturating_sub(1)], true, o.hex),
    }
}

/// An enumeration value from a table of names in order from 0.
fn xval(s: &mut String, v: u32, names: &[&str], prefix: &str, x: Xlat) {
    let name = names.get(v as usize).map(|n| format!("{prefix}{n}"));
    let table: Vec<(u64, &str)> = name.iter().map(|n| (v as u64, n.as_str())).collect();
    fmt::enumv(s, v as u64, &table, &format!("{prefix}???"), x, true);
}

/// The fields printed one after the other.
struct F<'s> {
    s: &'s mut String,
    first: bool,
}

impl F<'_> {
    fn name(&mut self, n: &str) -> &mut String {
        if !self.first {
            self.s.push_str(", ");
        }
        self.first = false;
        self.s.push_str(n);
        self.s.push('=');
        self.s
    }
    fn u(&mut self, n: &str, v: u64) {
        let _ = write!(self.name(n), "{v}");
    }
    fn x(&mut self, n: &str, v: u64) {
        let s = self.name(n);
        fmt::hex(s, v);
    }
    fn addr(&mut self, n: &str, v: u64) {
        let s = self.name(n);
        fmt::ptr(s, v);
    }
}

/// Prints a descriptor as `-y` asks.
fn fd_text(w: &ArgWriter<'_>, v: u32) -> String {
    let mut s = String::new();
    super::fd(&mut s, v as i32, w.env.fd_path);
    s
}

/// `KERNEL_VERSION(a, b, c)` as -X asks.
fn kernel_version(s: &mut String, v: u32, x: Xlat) {
    if x != Xlat::Abbrev {
        let _ = write!(s, "{v:#x}");
    }
    if x == Xlat::Raw {
        return;
    }
    let kv = format!(
        "KERNEL_VERSION({}, {}, {})",
        v >> 16,
        (v >> 8) & 0xff,
        v & 0xff
    );
    if x == Xlat::Verbose {
        let _ = write!(s, " /* {kv} */");
    } else {
        s.push_str(&kv);
    }
}

/// The bytes past the known struct: `, ...` (or with -v the bytes) when
/// some are not zero.
fn extra(s: &mut String, d: &[u8], known: usize, o: &Options) {
    if d.len() <= known || d[known..].iter().all(|&b| b == 0) {
        return;
    }
    if o.verbose {
        s.push_str(", extra_data=");
        fmt::quoted(s, &d[known..], false, HexStr::All);
        let _ = write!(s, " /* bytes {}..{} */", known, d.len() - 1);
    } else {
        s.push_str(", ...");
    }
}

/// bpf(cmd, attr, size).
fn dec_bpf(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    let cmd = a[0] as u32;
    let size = a[2] as u32 as usize;
    w.sep();
    fmt::enumv(&mut w.s, cmd as u64, COMMANDS, "BPF_???", x, true);
    w.sep();
    let known = attr_size(cmd);
    let decoded = match known {
        Some(k) if size > 0 && size <= PAGE => attr(w, cmd, size, k),
        _ => {
            fmt::ptr(&mut w.s, a[1]);
            true
        }
    };
    if !decoded {
        if !w.exiting_inside() {
            return;
        }
        exit_part(w, cmd, size, known.unwrap_or(0));
    }
    w.first = false;
    w.sep();
    let _ = write!(w.s, "{size}");
}

/// The attr at entry (or its address): false when the command goes on at exit.
fn attr(w: &mut ArgWriter<'_>, cmd: u32, size: usize, known: usize) -> bool {
    let addr = w.call.args[1];
    let data = w
        .call
        .enter_cap(1)
        .or_else(|| w.call.exit_cap(1))
        .map(|c| c.data.clone())
        .filter(|d| d.len() >= size);
    let Some(mut d) = data else {
        fmt::ptr(&mut w.s, addr);
        // strace goes on with the size at exit when the entry printed an
        // address (its decoder did not run)
        return true;
    };
    d.truncate(size);
    let len = size.min(known);
    let mut st = d[..len].to_vec();
    st.resize(known, 0);
    let o = w.opts;
    let x = o.xlat;
    let u32at = |off: usize| le_u32(&st, off);
    let u64at = |off: usize| le_u64(&st, off);
    let mut s = std::mem::take(&mut w.s);
    s.push('{');
    let mut done = true;
    {
        let mut f = F {
            s: &mut s,
            first: true,
        };
        match cmd {
            0 => map_create(w, &mut f, &st, len),
            1 | 21 => {
                f.name("map_fd").push_str(&fd_text(w, u32at(0)));
                f.addr("key", u64at(8));
                f.addr("value", u64at(16));
                if len > 24 {
                    flags_hint(f.name("flags"), u64at(24), LOOKUP_FLAGS, "BPF_???", x);
                }
            }
            2 => {
                f.name("map_fd").push_str(&fd_text(w, u32at(0)));
                f.addr("key", u64at(8));
                f.addr("value", u64at(16));
                fmt::enumv(f.name("flags"), u64at(24), UPDATE_FLAGS, "BPF_???", x, true);
            }
            3 => {
                f.name("map_fd").push_str(&fd_text(w, u32at(0)));
                f.addr("key", u64at(8));
            }
            4 => {
                f.name("map_fd").push_str(&fd_text(w, u32at(0)));
                f.addr("key", u64at(8));
                f.addr("next_key", u64at(16));
            }
            22 => {
                f.name("map_fd").push_str(&fd_text(w, u32at(0)));
            }
            5 => prog_load(w, &mut f, &st, len),
            6 | 7 => {
                let m = Mem {
                    w,
                    slot: Some((SLOT_W0, false)),
                };
                string_lim(f.name("pathname"), &m, u64at(0), None, true, o, PAGE - 1);
                f.name("bpf_fd").push_str(&fd_text(w, u32at(8)));
                if len > 12 {
                    flags(f.name("file_flags"), u32at(12), FILE_MODE_FLAGS, x);
                }
            }
            8 => {
                f.name("target_fd").push_str(&fd_text(w, u32at(0)));
                f.name("attach_bpf_fd").push_str(&fd_text(w, u32at(4)));
                xval(f.name("attach_type"), u32at(8), ATTACH_TYPES, "BPF_", x);
                flags(f.name("attach_flags"), u32at(12), ATTACH_FLAGS, x);
                if len > 16 {
                    f.name("replace_bpf_fd").push_str(&fd_text(w, u32at(16)));
                }
            }
            9 => {
                f.name("target_fd").push_str(&fd_text(w, u32at(0)));
                xval(f.name("attach_type"), u32at(8), ATTACH_TYPES, "BPF_", x);
            }
            10 => {
                f.name("test").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                g.name("prog_fd").push_str(&fd_text(w, u32at(0)));
                g.u("retval", u32at(4) as u64);
                g.u("data_size_in", u32at(8) as u64);
                g.u("data_size_out", u32at(12) as u64);
                g.addr("data_in", u64at(16));
                g.addr("data_out", u64at(24));
                g.u("repeat", u32at(32) as u64);
                g.u("duration", u32at(36) as u64);
                if len > 40 {
                    g.u("ctx_size_in", u32at(40) as u64);
                    g.u("ctx_size_out", u32at(44) as u64);
                    g.addr("ctx_in", u64at(48));
                    g.addr("ctx_out", u64at(56));
                }
                if len > 64 {
                    flags(g.name("flags"), u32at(64), TEST_RUN_FLAGS, x);
                    g.u("cpu", u32at(68) as u64);
                }
                if len > 72 {
                    g.u("batch_size", u32at(72) as u64);
                }
                g.s.push('}');
            }
            11 | 12 | 23 | 31 => {
                f.u("start_id", u32at(0) as u64);
                f.u("next_id", u32at(4) as u64);
                done = false;
            }
            13 | 14 => {
                f.u(
                    if cmd == 13 { "prog_id" } else { "map_id" },
                    u32at(0) as u64,
                );
                f.u("next_id", u32at(4) as u64);
                if len > 8 {
                    flags(f.name("open_flags"), u32at(8), FILE_MODE_FLAGS, x);
                }
            }
            15 => {
                f.name("info").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                g.name("bpf_fd").push_str(&fd_text(w, u32at(0)));
                g.u("info_len", u32at(4) as u64);
                done = false;
            }
            16 => {
                f.name("query").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                g.name("target_fd").push_str(&fd_text(w, u32at(0)));
                xval(g.name("attach_type"), u32at(4), ATTACH_TYPES, "BPF_", x);
                flags_hint(
                    g.name("query_flags"),
                    u32at(8) as u64,
                    QUERY_FLAGS,
                    "BPF_F_QUERY_???",
                    x,
                );
                flags(g.name("attach_flags"), u32at(12), ATTACH_FLAGS, x);
                g.name("prog_ids");
                done = false;
            }
            17 => {
                f.name("raw_tracepoint").push('{');
                let m = Mem {
                    w,
                    slot: Some((SLOT_W0, false)),
                };
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                string(g.name("name"), &m, u64at(0), Some(128), true, o);
                g.name("prog_fd").push_str(&fd_text(w, u32at(8)));
                g.s.push('}');
            }
            18 => {
                let m = Mem {
                    w,
                    slot: Some((SLOT_W0, false)),
                };
                string(
                    f.name("btf"),
                    &m,
                    u64at(0),
                    Some(u32at(16) as u64),
                    false,
                    o,
                );
                f.addr("btf_log_buf", u64at(8));
                f.u("btf_size", u32at(16) as u64);
                f.u("btf_log_size", u32at(20) as u64);
                f.u("btf_log_level", u32at(24) as u64);
            }
            19 => f.u("btf_id", u32at(0) as u64),
            30 => f.u("link_id", u32at(0) as u64),
            20 => {
                f.name("task_fd_query").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                let _ = write!(g.name("pid"), "{}", u32at(0) as i32);
                g.name("fd").push_str(&fd_text(w, u32at(4)));
                g.u("flags", u32at(8) as u64);
                g.u("buf_len", u32at(12) as u64);
                done = false;
            }
            24..=27 => {
                f.name("batch").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                if cmd < 26 {
                    g.addr("in_batch", u64at(0));
                    g.addr("out_batch", u64at(8));
                }
                g.addr("keys", u64at(16));
                if cmd != 27 {
                    g.addr("values", u64at(24));
                }
                g.u("count", u32at(32) as u64);
                g.name("map_fd").push_str(&fd_text(w, u32at(36)));
                let ef = u64at(40);
                flags_hint(g.name("elem_flags"), ef, LOOKUP_FLAGS, "BPF_???", x);
                g.x("flags", u64at(48));
                g.s.push('}');
                done = false;
            }
            28 => {
                let k = link_create(w, &mut f, &st, len);
                f.s.push('}');
                extra(f.s, &d, k, o);
                f.s.push('}');
                w.s = s;
                return true;
            }
            29 => {
                f.name("link_update").push('{');
                let mut g = F {
                    s: f.s,
                    first: true,
                };
                g.name("link_fd").push_str(&fd_text(w, u32at(0)));
                g.name("new_prog_fd").push_str(&fd_text(w, u32at(4)));
                flags(g.name("flags"), u32at(8), ATTACH_FLAGS, x);
                if u32at(8) & 4 != 0 {
                    g.name("old_prog_fd").push_str(&fd_text(w, u32at(12)));
                }
                g.s.push('}');
            }
            _ => {}
        }
    }
    if done || (24..=27).contains(&cmd) {
        extra(&mut s, &d, known, o);
        s.push('}');
    }
    w.s = s;
    done
}

/// Flags with the `/* BPF_F_??? */` hint when none has a name.
fn flags(s: &mut String, v: u32, table: &[(u64, &str)], x: Xlat) {
    flags_hint(s, v as u64, table, "BPF_F_???", x)
}

/// strace's printflags: names joined with `|` and what is left in hex,
/// `0x20 /* HINT */` when no bit has a name.
fn flags_hint(s: &mut String, v: u64, table: &[(u64, &str)], hint: &str, x: Xlat) {
    fmt::flags_default(s, v, table, hint, x)
}

fn map_create(w: &ArgWriter<'_>, f: &mut F<'_>, st: &[u8], len: usize) {
    let o = w.opts;
    let x = o.xlat;
    let u32at = |off: usize| le_u32(st, off);
    xval(f.name("map_type"), u32at(0), MAP_TYPES, "BPF_MAP_TYPE_", x);
    f.u("key_size", u32at(4) as u64);
    f.u("value_size", u32at(8) as u64);
    f.u("max_entries", u32at(12) as u64);
    if len <= 16 {
        return;
    }
    flags(f.name("map_flags"), u32at(16), MAP_FLAGS, x);
    if len <= 20 {
        return;
    }
    f.name("inner_map_fd").push_str(&fd_text(w, u32at(20)));
    if len <= 24 {
        return;
    }
    if u32at(16) & 4 != 0 {
        let n = u32at(24);
        let s = f.name("numa_node");
        let _ = write!(s, "{n}");
        if n == u32::MAX {
            s.push_str(" /* NUMA_NO_NODE */");
        }
    }
    if len <= 28 {
        return;
    }
    cstring(f.name("map_name"), &st[28..28 + 16.min(len - 28)], o);
    if len <= 44 {
        return;
    }
    sockopt::ifindex(f.name("map_ifindex"), u32at(44), x);
    if len <= 48 {
        return;
    }
    f.name("btf_fd").push_str(&fd_text(w, u32at(48)));
    f.u("btf_key_type_id", u32at(52) as u64);
    f.u("btf_value_type_id", u32at(56) as u64);
    if len <= 60 {
        return;
    }
    f.u("btf_vmlinux_value_type_id", u32at(60) as u64);
    if len <= 64 {
        return;
    }
    f.u("map_extra", le_u64(st, 64));
}

fn prog_load(w: &ArgWriter<'_>, f: &mut F<'_>, st: &[u8], len: usize) {
    let o = w.opts;
    let x = o.xlat;
    let u32at = |off: usize| le_u32(st, off);
    let u64at = |off: usize| le_u64(st, off);
    xval(
        f.name("prog_type"),
        u32at(0),
        PROG_TYPES,
        "BPF_PROG_TYPE_",
        x,
    );
    let cnt = u32at(4);
    f.u("insn_cnt", cnt as u64);
    let insns = u64at(8);
    {
        let s = f.name("insns");
        if o.verbose && insns != 0 {
            let m = Mem {
                w,
                slot: Some((SLOT_W1, false)),
            };
            let want = (cnt as u64).min(4096) as usize * 8;
            let d = m.read(insns, want);
            let fault = d.len() < want;
            super::print_array_data(s, Some((&d, fault)), insns, cnt as u64, 8, o, |s, e| {
                ebpf_insn(s, e, x)
            });
        } else {
            fmt::ptr(s, insns);
        }
    }
    let m = Mem {
        w,
        slot: Some((SLOT_W2, false)),
    };
    string(f.name("license"), &m, u64at(16), None, true, o);
    if len <= 24 {
        return;
    }
    f.u("log_level", u32at(24) as u64);
    f.u("log_size", u32at(28) as u64);
    let m = Mem {
        w,
        slot: Some((SLOT_W4, false)),
    };
    string(
        f.name("log_buf"),
        &m,
        u64at(32),
        Some(u32at(28) as u64),
        true,
        o,
    );
    if len <= 40 {
        return;
    }
    kernel_version(f.name("kern_version"), u32at(40), x);
    if len <= 44 {
        return;
    }
    flags(f.name("prog_flags"), u32at(44), PROG_FLAGS, x);
    if len <= 48 {
        return;
    }
    cstring(f.name("prog_name"), &st[48..48 + 16.min(len - 48)], o);
    if len <= 64 {
        return;
    }
    sockopt::ifindex(f.name("prog_ifindex"), u32at(64), x);
    if len <= 68 {
        return;
    }
    xval(
        f.name("expected_attach_type"),
        u32at(68),
        ATTACH_TYPES,
        "BPF_",
        x,
    );
    if len <= 72 {
        return;
    }
    f.name("prog_btf_fd").push_str(&fd_text(w, u32at(72)));
    f.u("func_info_rec_size", u32at(76) as u64);
    f.addr("func_info", u64at(80));
    f.u("func_info_cnt", u32at(88) as u64);
    f.u("line_info_rec_size", u32at(92) as u64);
    f.addr("line_info", u64at(96));
    f.u("line_info_cnt", u32at(104) as u64);
    if len <= 108 {
        return;
    }
    f.u("attach_btf_id", u32at(108) as u64);
    if len <= 112 {
        return;
    }
    f.name("attach_prog_fd").push_str(&fd_text(w, u32at(112)));
    if len <= 120 {
        return;
    }
    f.addr("fd_array", u64at(120));
}

/// `struct bpf_insn` (strace's print_ebpf_insn).
fn ebpf_insn(s: &mut String, e: &[u8], x: Xlat) {
    let regs = |s: &mut String, r: u8| {
        let names = [
            "BPF_REG_0",
            "BPF_REG_1",
            "BPF_REG_2",
            "BPF_REG_3",
            "BPF_REG_4",
            "BPF_REG_5",
            "BPF_REG_6",
            "BPF_REG_7",
            "BPF_REG_8",
            "BPF_REG_9",
            "BPF_REG_10",
        ];
        let table: Vec<(u64, &str)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (i as u64, *n))
            .collect();
        fmt::enumv(s, r as u64, &table, "BPF_REG_???", x, true);
    };
    s.push_str("{code=");
    filter_code(s, e[0], x);
    s.push_str(", dst_reg=");
    regs(s, e[1] & 0xf);
    s.push_str(", src_reg=");
    regs(s, e[1] >> 4);
    let off = i16::from_le_bytes([e[2], e[3]]);
    let imm = le_u32(e, 4);
    let _ = write!(s, ", off={off}, imm=");
    fmt::hex(s, imm as u64);
    s.push('}');
}

/// An eBPF instruction's opcode (strace's print_bpf_filter_code, extended).
fn filter_code(s: &mut String, code: u8, x: Xlat) {
    let class = code & 7;
    const CLASSES: [&str; 8] = [
        "BPF_LD",
        "BPF_LDX",
        "BPF_ST",
        "BPF_STX",
        "BPF_ALU",
        "BPF_JMP",
        "BPF_JMP32",
        "BPF_ALU64",
    ];
    let mut parts: Vec<String> = vec![CLASSES[class as usize].to_string()];
    let mut rest = 0u8;
    match class {
        0..=3 => {
            let size = ["BPF_W", "BPF_H", "BPF_B", "BPF_DW"][((code >> 3) & 3) as usize];
            parts.push(size.to_string());
            let mode = code & 0xe0;
            let m = match mode {
                0x00 => Some("BPF_IMM"),
                0x20 => Some("BPF_ABS"),
                0x40 => Some("BPF_IND"),
                0x60 => Some("BPF_MEM"),
                0x80 => Some("BPF_LEN"),
                0xa0 => Some("BPF_MSH"),
                0xc0 => Some("BPF_ATOMIC"),
                _ => None,
            };
            match m {
                Some(n) => parts.push(n.to_string()),
                None => rest = mode,
            }
        }
        _ => {
            parts.push(if code & 8 != 0 { "BPF_X" } else { "BPF_K" }.to_string());
            let op = code & 0xf0;
            let name = if class == 4 || class == 7 {
                [
                    "BPF_ADD", "BPF_SUB", "BPF_MUL", "BPF_DIV", "BPF_OR", "BPF_AND", "BPF_LSH",
                    "BPF_RSH", "BPF_NEG", "BPF_MOD", "BPF_XOR", "BPF_MOV", "BPF_ARSH", "BPF_END",
                ]
                .get((op >> 4) as usize)
                .copied()
            } else {
                [
                    "BPF_JA", "BPF_JEQ", "BPF_JGT", "BPF_JGE", "BPF_JSET", "BPF_JNE", "BPF_JSGT",
                    "BPF_JSGE", "BPF_CALL", "BPF_EXIT", "BPF_JLT", "BPF_JLE", "BPF_JSLT",
                    "BPF_JSLE",
                ]
                .get((op >> 4) as usize)
                .copied()
            };
            match name {
                Some(n) => parts.push(n.to_string()),
                None => rest = op,
            }
        }
    }
    if rest != 0 {
        parts.push(format!("{rest:#x}"));
    }
    let names = parts.join("|");
    match x {
        Xlat::Raw => {
            let _ = write!(s, "{code:#x}");
        }
        Xlat::Verbose => {
            let _ = write!(s, "{code:#x} /* {names} */");
        }
        Xlat::Abbrev => s.push_str(&names),
    }
}

/// LINK_CREATE's fields; the size of the part known for its attach type.
fn link_create(w: &ArgWriter<'_>, f: &mut F<'_>, st: &[u8], len: usize) -> usize {
    let o = w.opts;
    let x = o.xlat;
    let u32at = |off: usize| le_u32(st, off);
    let u64at = |off: usize| le_u64(st, off);
    f.name("link_create").push('{');
    let mut g = F {
        s: f.s,
        first: true,
    };
    g.name("prog_fd").push_str(&fd_text(w, u32at(0)));
    g.name("target_fd").push_str(&fd_text(w, u32at(4)));
    let at = u32at(8);
    xval(g.name("attach_type"), at, ATTACH_TYPES, "BPF_", x);
    g.x("flags", u32at(12) as u64);
    if len <= 16 {
        return 48;
    }
    match at {
        0 => {
            if u32at(16) != 0 {
                g.u("target_btf_id", u32at(16) as u64);
            }
            20
        }
        28 => {
            let addr = u64at(16);
            let n = u32at(24) as u64;
            let m = Mem {
                w,
                slot: Some((SLOT_W2, false)),
            };
            let s = g.name("iter_info");
            array(s, &m, addr, n, 4, o, |s, e| {
                let _ = write!(s, "{{map={{map_fd={}}}}}", fd_text(w, le_u32(e, 0)));
            });
            g.u("iter_info_len", n);
            28
        }
        41 => {
            g.name("perf_event").push('{');
            let mut h = F {
                s: g.s,
                first: true,
            };
            h.x("bpf_cookie", u64at(16));
            h.s.push('}');
            24
        }
        42 => {
            g.name("kprobe_multi").push('{');
            let mut h = F {
                s: g.s,
                first: true,
            };
            flags(h.name("flags"), u32at(16), KPROBE_MULTI_FLAGS, x);
            let n = u32at(20) as u64;
            h.u("cnt", n);
            // syms and cookies: slots 6 and 7 (second_level.rs)
            let (a, b) = (super::second_level::SLOT_A, super::second_level::SLOT_B);
            let m = |slot: u8| Mem {
                w,
                slot: Some((slot, false)),
            };
            let (ptrs, strs, cookies) = (m(a | PTR_WORDS), m(a), m(b));
            {
                let s = h.name("syms");
                array(s, &ptrs, u64at(24), n, 8, o, |s, e| {
                    string(s, &strs, le_u64(e, 0), None, true, o)
                });
            }
            let addrs = m(SLOT_W4);
            for (name, off, m) in [("addrs", 32, &addrs), ("cookies", 40, &cookies)] {
                let s = h.name(name);
                array(s, m, u64at(off), n, 8, o, |s, e| fmt::hex(s, le_u64(e, 0)));
            }
            h.s.push('}');
            48
        }
        _ => 16,
    }
}

/// An array of `n` elements of `elem` bytes at `addr`, as print_array does.
fn array(
    s: &mut String,
    m: &Mem<'_, '_>,
    addr: u64,
    n: u64,
    elem: usize,
    o: &Options,
    each: impl FnMut(&mut String, &[u8]),
) {
    let shown = if o.verbose {
        n
    } else {
        n.min(o.strsize as u64 + 1)
    };
    let want = (shown.min(1 << 16) as usize) * elem;
    let d = m.read(addr, want);
    let fault = d.len() < want;
    super::print_array_data(s, Some((&d, fault)), addr, n, elem, o, each);
}

/// What a command that goes on at exit prints then.
fn exit_part(w: &mut ArgWriter<'_>, cmd: u32, size: usize, known: usize) {
    let o = w.opts;
    let x = o.xlat;
    let entry = w
        .call
        .enter_cap(1)
        .map(|c| c.data.clone())
        .unwrap_or_default();
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let Some(mut d) = w.call.exit_cap(1).map(|c| c.data.clone()) else {
        // strace reads the attr again, and prints its address when it cannot
        fmt::ptr(&mut w.s, w.call.args[1]);
        return;
    };
    d.truncate(size);
    let len = size.min(known);
    let pad = |v: &[u8]| {
        let mut st = v[..v.len().min(len)].to_vec();
        st.resize(known.max(8), 0);
        st
    };
    let st = pad(&d);
    let en = pad(&entry);
    let mut s = std::mem::take(&mut w.s);
    match cmd {
        11 | 12 | 23 | 31 => {
            if le_u32(&en, 4) != le_u32(&st, 4) {
                let _ = write!(s, " => {}", le_u32(&st, 4));
            }
            if len > 8 {
                s.push_str(", open_flags=");
                flags(&mut s, le_u32(&st, 8), FILE_MODE_FLAGS, x);
            }
            extra(&mut s, &d, known, o);
            s.push('}');
        }
        15 => {
            let before = le_u32(&en, 4);
            let after = le_u32(&st, 4);
            if before != after {
                let _ = write!(s, " => {after}");
            }
            s.push_str(", info=");
            obj_info(
                w,
                &mut s,
                le_u32(&st, 0),
                le_u64(&st, 8),
                before,
                after,
                failed,
            );
            s.push('}');
            extra(&mut s, &d, known, o);
            s.push('}');
        }
        16 => {
            let cnt = le_u32(&st, 24);
            let m = Mem {
                w,
                slot: Some((SLOT_W2, true)),
            };
            let ids = le_u64(&st, 16);
            if failed {
                // strace fetches arrays at exit only from calls that succeeded
                super::print_array_data(&mut s, None, ids, cnt as u64, 4, o, |_, _| {});
            } else {
                array(&mut s, &m, ids, cnt as u64, 4, o, |s, e| {
                    let _ = write!(s, "{}", le_u32(e, 0));
                });
            }
            s.push_str(", prog_cnt=");
            let before = le_u32(&en, 24);
            if before != cnt {
                let _ = write!(s, "{before} => ");
            }
            let _ = write!(s, "{cnt}}}");
            extra(&mut s, &d, known, o);
            s.push('}');
        }
        20 => {
            let before = le_u32(&en, 12);
            let after = le_u32(&st, 12);
            if before != after {
                let _ = write!(s, " => {after}");
            }
            let m = Mem {
                w,
                slot: Some((SLOT_W2, true)),
            };
            s.push_str(", buf=");
            string(
                &mut s,
                &m,
                le_u64(&st, 16),
                Some(before.min(after) as u64),
                true,
                o,
            );
            let _ = write!(s, ", prog_id={}, fd_type=", le_u32(&st, 24));
            fmt::enumv(
                &mut s,
                le_u32(&st, 28) as u64,
                TASK_FD_TYPES,
                "BPF_FD_TYPE_???",
                x,
                true,
            );
            s.push_str(", probe_offset=");
            fmt::hex(&mut s, le_u64(&st, 32));
            s.push_str(", probe_addr=");
            fmt::hex(&mut s, le_u64(&st, 40));
            s.push('}');
            extra(&mut s, &d, known, o);
            s.push('}');
        }
        24..=27 => {
            let before = le_u32(&en, 32);
            let after = le_u32(&st, 32);
            if before != after {
                let _ = write!(s, " => {{batch={{count={after}}}}}");
            }
        }
        _ => {}
    }
    w.s = s;
}

/// OBJ_GET_INFO_BY_FD's info at exit: with -v, `struct bpf_map_info` or
/// `struct bpf_prog_info` as the descriptor is a map or a program; else
/// its address.
fn obj_info(
    w: &ArgWriter<'_>,
    s: &mut String,
    fd: u32,
    addr: u64,
    before: u32,
    after: u32,
    failed: bool,
) {
    let o = w.opts;
    let path = w.env.fd_path.and_then(|f| f(fd as i32));
    let kind = match path.as_deref() {
        Some("anon_inode:bpf-map") => 0,
        Some("anon_inode:bpf-prog") => 1,
        _ => 2,
    };
    let copy = |exit: bool, size: u32| -> Option<Vec<u8>> {
        let size = size as usize;
        if size == 0 || size > PAGE {
            return None;
        }
        let m = Mem {
            w,
            slot: Some((SLOT_W1, exit)),
        };
        let d = m.read(addr, size);
        (d.len() == size).then_some(d)
    };
    if !o.verbose || kind == 2 {
        fmt::ptr(s, addr);
        return;
    }
    let Some(d) = copy(true, after) else {
        fmt::ptr(s, addr);
        return;
    };
    if kind == 0 {
        map_info(w, s, &d);
    } else {
        let saved = copy(false, before).unwrap_or_default();
        prog_info(w, s, &saved, &d, failed);
    }
}

/// A struct copied as far as `d` goes (at most `known` bytes), the rest zero.
fn padded(d: &[u8], known: usize) -> Vec<u8> {
    let mut v = d[..d.len().min(known)].to_vec();
    v.resize(known, 0);
    v
}

fn map_info(w: &ArgWriter<'_>, s: &mut String, d: &[u8]) {
    const KNOWN: usize = 88;
    let o = w.opts;
    let x = o.xlat;
    let len = d.len().min(KNOWN);
    let st = padded(d, KNOWN);
    let u32at = |off: usize| le_u32(&st, off) as u64;
    s.push('{');
    let mut f = F { s, first: true };
    xval(
        f.name("type"),
        u32at(0) as u32,
        MAP_TYPES,
        "BPF_MAP_TYPE_",
        x,
    );
    f.u("id", u32at(4));
    f.u("key_size", u32at(8));
    f.u("value_size", u32at(12));
    f.u("max_entries", u32at(16));
    flags(f.name("map_flags"), u32at(20) as u32, MAP_FLAGS, x);
    if len > 24 {
        cstring(f.name("name"), &st[24..40], o);
    }
    if len > 40 {
        sockopt::ifindex(f.name("ifindex"), u32at(40) as u32, x);
        f.u("btf_vmlinux_value_type_id", u32at(44));
        super::makedev(f.name("netns_dev"), le_u64(&st, 48));
        f.u("netns_ino", le_u64(&st, 56));
    }
    if len > 64 {
        f.u("btf_id", u32at(64));
        f.u("btf_key_type_id", u32at(68));
        f.u("btf_value_type_id", u32at(72));
        extra(f.s, d, KNOWN, o);
    }
    s.push('}');
}

/// A boot-time timestamp as the wall-clock date it approximately was.
fn boottime_comment(s: &mut String, ns: u64) {
    let now = |clock| {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid timespec pointer.
        unsafe { libc::clock_gettime(clock, &mut t) };
        t.tv_sec * 1_000_000_000 + t.tv_nsec
    };
    let offset = now(libc::CLOCK_REALTIME) - now(libc::CLOCK_BOOTTIME);
    let real = (ns as i64).wrapping_add(offset);
    let _ = write!(
        s,
        " /* {} */",
        super::utc_date(real.div_euclid(1_000_000_000), 0)
    );
}

fn prog_info(w: &ArgWriter<'_>, s: &mut String, saved: &[u8], d: &[u8], failed: bool) {
    const KNOWN: usize = 220;
    let o = w.opts;
    let x = o.xlat;
    let len = d.len().min(KNOWN);
    let st = padded(d, KNOWN);
    let sv = padded(saved, KNOWN);
    let u32at = |off: usize| le_u32(&st, off) as u64;
    let u64at = |off: usize| le_u64(&st, off);
    s.push('{');
    let mut f = F { s, first: true };
    // a length the kernel may have changed: `before => after`
    let changed = |f: &mut F<'_>, name: &str, off: usize, wide: bool| {
        let (b, a) = if wide {
            (le_u64(&sv, off), le_u64(&st, off))
        } else {
            (le_u32(&sv, off) as u64, le_u32(&st, off) as u64)
        };
        let s = f.name(name);
        let one = |s: &mut String, v: u64| {
            if wide {
                fmt::ptr(s, v)
            } else {
                let _ = write!(s, "{v}");
            }
        };
        if b != a {
            one(s, b);
            s.push_str(" => ");
        }
        one(s, a);
    };
    xval(
        f.name("type"),
        u32at(0) as u32,
        PROG_TYPES,
        "BPF_PROG_TYPE_",
        x,
    );
    f.u("id", u32at(4));
    fmt::quoted(f.name("tag"), &st[8..16], false, HexStr::All);
    changed(&mut f, "jited_prog_len", 16, false);
    let live = Mem { w, slot: None };
    string(
        f.name("jited_prog_insns"),
        &live,
        u64at(24),
        Some(u32at(16)),
        false,
        &Options {
            hex: HexStr::All,
            ..o.clone()
        },
    );
    changed(&mut f, "xlated_prog_len", 20, false);
    {
        let n = (le_u32(&sv, 20).min(le_u32(&st, 20)) / 8) as u64;
        let s = f.name("xlated_prog_insns");
        array(s, &live, u64at(32), n, 8, o, |s, e| ebpf_insn(s, e, x));
    }
    if len > 40 {
        let lt = u64at(40);
        f.u("load_time", lt);
        if x != Xlat::Raw {
            boottime_comment(f.s, lt);
        }
        let _ = write!(f.name("created_by_uid"), "{}", u32at(48) as u32 as i32);
        changed(&mut f, "nr_map_ids", 52, false);
        let n = le_u32(&sv, 52).min(le_u32(&st, 52)) as u64;
        let s = f.name("map_ids");
        if failed {
            super::print_array_data(s, None, u64at(56), n, 4, o, |_, _| {});
        } else {
            // copied at exit (slot 8, second_level.rs), else read live
            let ids = Mem {
                w,
                slot: Some((super::second_level::SLOT_C, true)),
            };
            array(s, &ids, u64at(56), n, 4, o, |s, e| {
                let _ = write!(s, "{}", le_u32(e, 0));
            });
        }
        cstring(f.name("name"), &st[64..80], o);
    }
    if len > 80 {
        sockopt::ifindex(f.name("ifindex"), u32at(80) as u32, x);
        f.u("gpl_compatible", u32at(84) & 1);
        super::makedev(f.name("netns_dev"), u64at(88));
        f.u("netns_ino", u64at(96));
    }
    if len > 104 {
        changed(&mut f, "nr_jited_ksyms", 104, false);
        changed(&mut f, "nr_jited_func_lens", 108, false);
        changed(&mut f, "jited_ksyms", 112, true);
        changed(&mut f, "jited_func_lens", 120, true);
    }
    if len > 128 {
        f.u("btf_id", u32at(128));
        changed(&mut f, "func_info_rec_size", 132, false);
        f.addr("func_info", u64at(136));
        changed(&mut f, "nr_func_info", 144, false);
        changed(&mut f, "nr_line_info", 148, false);
        f.addr("line_info", u64at(152));
        changed(&mut f, "jited_line_info", 160, true);
        changed(&mut f, "nr_jited_line_info", 168, false);
        changed(&mut f, "line_info_rec_size", 172, false);
        changed(&mut f, "jited_line_info_rec_size", 176, false);
        changed(&mut f, "nr_prog_tags", 180, false);
        f.addr("prog_tags", u64at(184));
    }
    if len > 192 {
        f.u("run_time_ns", u64at(192));
        f.u("run_cnt", u64at(200));
    }
    if len > 208 {
        f.u("recursion_misses", u64at(208));
    }
    if len > 216 {
        f.u("verified_insns", u32at(216));
        extra(f.s, d, KNOWN, o);
    }
    s.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_versions() {
        let mut s = String::new();
        kernel_version(&mut s, 0xcafef00d, Xlat::Abbrev);
        assert_eq!(s, "KERNEL_VERSION(51966, 240, 13)");
        s.clear();
        kernel_version(&mut s, 0xcafef00d, Xlat::Verbose);
        assert_eq!(s, "0xcafef00d /* KERNEL_VERSION(51966, 240, 13) */");
    }

    fn render(args: [u64; 6], enter: &[genba_events::Capture], ret: i64) -> String {
        let o = Options::default();
        let env = super::super::Env::default();
        let call = CallView {
            nr: 321,
            args,
            enter,
            exit: Some((ret, enter)),
        };
        super::super::write_args(call, &o, &env).s
    }

    use super::super::testutil::cap;

    #[test]
    fn map_create_as_far_as_the_size_goes() {
        let mut attr = [0u8; 40];
        attr[0] = 2; // BPF_MAP_TYPE_ARRAY
        attr[4] = 4;
        attr[16] = 4; // BPF_F_NUMA_NODE
        attr[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
        attr[28..36].copy_from_slice(b"01234567");
        let s = render([0, 0x1000, 36, 0, 0, 0], &[cap(1, &attr[..36])], -22);
        assert_eq!(
            s,
            "BPF_MAP_CREATE, {map_type=BPF_MAP_TYPE_ARRAY, key_size=4, value_size=0, \
             max_entries=0, map_flags=BPF_F_NUMA_NODE, inner_map_fd=0, \
             numa_node=4294967295 /* NUMA_NO_NODE */, map_name=\"0123456\"...}, 36"
        );
        // unreadable, or a size strace does not read: the address
        let s = render([0, 0x1000, 36, 0, 0, 0], &[], -14);
        assert_eq!(s, "BPF_MAP_CREATE, 0x1000, 36");
        let s = render([0x2a, 0, 0xfacefeed00000100, 0, 0, 0], &[], -22);
        assert_eq!(s, "0x2a /* BPF_??? */, NULL, 256");
    }

    #[test]
    fn get_next_id_goes_on_at_exit() {
        let enter = [cap(1, &[1, 0, 0, 0, 0, 0, 0, 0])];
        let exit = [cap(1, &[1, 0, 0, 0, 7, 0, 0, 0])];
        let o = Options::default();
        let env = super::super::Env::default();
        let call = CallView {
            nr: 321,
            args: [11, 0x1000, 8, 0, 0, 0],
            enter: &enter,
            exit: Some((0, &exit)),
        };
        let w = super::super::write_args(call, &o, &env);
        assert_eq!(w.s, "BPF_PROG_GET_NEXT_ID, {start_id=1, next_id=0 => 7}, 8");
    }

    #[test]
    fn name_arrays() {
        let o = Options::default();
        let mut s = String::new();
        cstring(&mut s, b"0123456789abcdef", &o);
        assert_eq!(s, "\"0123456789abcde\"...");
        s.clear();
        cstring(&mut s, b"ab\0cd", &o);
        assert_eq!(s, "\"ab\"");
    }
}
