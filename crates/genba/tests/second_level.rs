//! Second-level memory (genba-syscalls' second_level.rs, the BPF capture
//! slots past the six arguments' and the Ptrs kind): what pointers inside
//! an argument's structure point to, copied as the call enters (or, for
//! what the kernel writes, SIOCGIFCONF's interfaces, as it returns); and
//! perf_event's ioctls, whose string and structures are copied likewise.
//! tests/programs/second_level.c overwrites and unmaps that memory right
//! after each call, so only a copy made by BPF at entry shows it; the lines
//! wanted are strace 6.1's for the same program (addresses aside).

#[macro_use]
mod common;

use common::*;
use std::fs;

/// The lines of the calls `genba trace ARGS -- second_level` prints, the
/// return's column padding dropped.
fn lines(label: &str, args: &[&str]) -> Vec<String> {
    let dir = TempDir::new(label);
    let out = dir.join("trace");
    let prog = program("second_level");
    let mut cmd_args = vec![
        "trace",
        "-e",
        "trace=ioctl,keyctl,bpf",
        "-o",
        out.to_str().unwrap(),
    ];
    cmd_args.extend_from_slice(args);
    cmd_args.push("--");
    cmd_args.push(prog.to_str().unwrap());
    let g = run(&mut genba_cmd(&cmd_args));
    assert_eq!(g.status.code(), Some(0), "{}", g.describe());
    let text = fs::read_to_string(&out).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("+++"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// `got` without its addresses (`0x7f...` after `base=3}, `) equals `want`.
fn same(got: &str, want: &str) {
    let got = match got.split_once("base=3}, 0x") {
        Some((head, tail)) => {
            let rest = tail.trim_start_matches(|c: char| c.is_ascii_hexdigit());
            format!("{head}base=3}}, ADDR{rest}")
        }
        None => got.to_string(),
    };
    assert_eq!(got, want);
}

const V4L2: &str = "ioctl(-1, VIDIOC_S_EXT_CTRLS, {ctrl_class=V4L2_CTRL_CLASS_USER, count=2, \
    controls=[{id=V4L2_CID_BRIGHTNESS, size=0, value=42, value64=42}, {id=V4L2_CID_CONTRAST, \
    size=5, string=\"genba\"}]} => {controls=[{id=V4L2_CID_BRIGHTNESS, size=0, value=42, \
    value64=42}, {id=V4L2_CID_CONTRAST, size=5, string=\"genba\"}], error_idx=0}) = -1 EBADF \
    (Bad file descriptor)";
const KEYCTL: &str = "keyctl(KEYCTL_DH_COMPUTE, {private=1, prime=2, base=3}, ADDR, 16, \
    {hashname=\"hmac(sha256)\", otherinfo=\"\\1\\2 other\", otherinfolen=8}) = -1 EOPNOTSUPP \
    (Operation not supported)";
const BPF: &str = "bpf(BPF_LINK_CREATE, {link_create={prog_fd=-1, target_fd=0, \
    attach_type=BPF_TRACE_KPROBE_MULTI, flags=0, kprobe_multi={flags=0, cnt=3, \
    syms=[\"vfs_read\", NULL, \"vfs_write\"], addrs=NULL, cookies=[0x7, 0, 0xdeadbeef]}}}, 48) \
    = -1 EBADF (Bad file descriptor)";

const BLKPG: &str = "ioctl(-1, BLKPG, {op=BLKPG_ADD_PARTITION, flags=0, datalen=152, \
    data={start=4096, length=8192, pno=3, devname=\"sda3\", volname=\"data\"}}) = -1 EBADF \
    (Bad file descriptor)";
const IFCONF: &str = "ioctl(3, SIOCGIFCONF, {ifc_len=40 /* 1 * sizeof(struct ifreq) */, \
    ifc_buf=[{ifr_name=\"lo\", ifr_addr={sa_family=AF_INET, sin_port=htons(0), \
    sin_addr=inet_addr(\"127.0.0.1\")}}]}) = 0";

const PERF: [&str; 3] = [
    "ioctl(-1, PERF_EVENT_IOC_SET_FILTER, \"common_pid != 0\") = -1 EBADF (Bad file descriptor)",
    "ioctl(-1, PERF_EVENT_IOC_QUERY_BPF, {ids_len=4, ...}) = -1 EBADF (Bad file descriptor)",
    "ioctl(-1, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, {type=PERF_TYPE_SOFTWARE, \
     size=PERF_ATTR_SIZE_VER7, config=PERF_COUNT_SW_CPU_CLOCK, sample_period=1000, \
     sample_type=0, read_format=0, precise_ip=0 /* arbitrary skid */, ...}) = -1 EBADF \
     (Bad file descriptor)",
];

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn pointers_inside_structures_are_followed_at_entry() {
    require_bpf!();
    let got = lines("second-level", &[]);
    assert_eq!(got.len(), 12, "{got:#?}");
    same(&got[0], &squeeze(V4L2));
    same(&got[1], &squeeze(KEYCTL));
    same(&got[2], &squeeze(BPF));
    same(&got[3], &squeeze(BLKPG));
    same(&got[4], &squeeze(IFCONF));
    for (g, w) in got[5..8].iter().zip(PERF) {
        same(g, &squeeze(w));
    }
}

/// `-s 3`: the strings cut as strace cuts them, the arrays too.
#[test]
fn second_level_strings_follow_s() {
    require_bpf!();
    let got = lines("second-level-s3", &["-s", "3"]);
    assert_eq!(got.len(), 12, "{got:#?}");
    assert!(got[0].contains("size=5, string=\"gen\"...}"), "{}", got[0]);
    assert!(
        got[1].contains("otherinfo=\"\\1\\2 \"..., otherinfolen=8"),
        "{}",
        got[1]
    );
    assert!(
        got[2].contains(
            "syms=[\"vfs\"..., NULL, \"vfs\"...], addrs=NULL, cookies=[0x7, 0, 0xdeadbeef]"
        ),
        "{}",
        got[2]
    );
}

/// BPF_OBJ_GET_INFO_BY_FD on a program that uses two maps, room for three
/// ids given: the ids the kernel wrote at map_ids (a pointer inside the
/// bpf_prog_info the attr points to), copied at exit; the program spoils
/// them right after. (`-y`: genba knows the descriptor is a program from
/// its path.)
#[test]
fn bpf_prog_info_map_ids_copied_at_exit() {
    require_bpf!();
    let got = lines("second-level-map-ids", &["-y", "-v"]);
    let line = got
        .iter()
        .find(|l| l.starts_with("bpf(BPF_OBJ_GET_INFO_BY_FD"))
        .unwrap_or_else(|| panic!("no BPF_OBJ_GET_INFO_BY_FD line: {got:#?}"));
    let ids = line
        .split_once("nr_map_ids=3 => 2, map_ids=[")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(ids, _)| ids)
        .unwrap_or_else(|| panic!("no map ids: {line}"));
    let ids: Vec<u64> = ids
        .split(", ")
        .map(|n| {
            n.parse()
                .unwrap_or_else(|_| panic!("not an id: {n} in {line}"))
        })
        .collect();
    assert_eq!(ids.len(), 2, "{line}");
    assert!(ids[0] > 0 && ids[0] != ids[1], "{line}");
}
