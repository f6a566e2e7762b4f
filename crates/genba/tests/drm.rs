//! The DRM core's ioctls decoded with their structures (genba-syscalls'
//! ioctl_drm.rs): tests/programs/drm.c makes each call on /dev/null with
//! known values. Traced plainly every call fails (ENOTTY) and the line
//! shows what the kernel would read; with `-e inject=ioctl:retval=0` every
//! call succeeds untouched, so the decoder also prints, after ` => `, the
//! output fields the program filled itself (strace's ioctl_*-success
//! trick). strace 6.1 has no DRM decoder to compare with: the lines are
//! written out here.

#[macro_use]
mod common;

use common::*;
use std::fs;

/// The ioctl lines `genba trace ARGS -- drm` prints, normalized (addresses
/// of 9 or more hex digits as ADDR, the return's column padding dropped).
fn ioctl_lines(label: &str, args: &[&str]) -> Vec<String> {
    let dir = TempDir::new(label);
    let out = dir.join("trace");
    let prog = program("drm");
    let mut cmd_args = vec!["trace", "-e", "trace=ioctl", "-o", out.to_str().unwrap()];
    cmd_args.extend_from_slice(args);
    cmd_args.push("--");
    cmd_args.push(prog.to_str().unwrap());
    let g = run(&mut genba_cmd(&cmd_args));
    assert_eq!(g.status.code(), Some(0), "{}", g.describe());
    let text = fs::read_to_string(&out).unwrap();
    text.lines()
        .filter(|l| l.starts_with("ioctl("))
        .map(|l| {
            normalize_body(l)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn assert_lines(got: &[String], want: &[String]) {
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "line {} of the ioctls differs", k + 1);
    }
    assert_eq!(got.len(), want.len(), "ioctl lines: {got:#?}");
}

/// Each call as `(request, what the kernel reads, what it writes back)`:
/// the last empty for the requests that write nothing.
const CALLS: &[(&str, &str, &str)] = &[
    (
        "DRM_IOCTL_VERSION",
        "{name_len=5, date_len=8, desc_len=42}",
        "{version_major=1, version_minor=6, version_patchlevel=2, name_len=5, name=\"genba\", \
         date_len=8, date=\"20261125\", desc_len=42, desc=\"a description longer than thirty\"...}",
    ),
    (
        "DRM_IOCTL_VERSION",
        "{name_len=0, date_len=0, desc_len=0}",
        "{version_major=0, version_minor=0, version_patchlevel=0, name_len=0, name=NULL, \
         date_len=0, date=NULL, desc_len=0, desc=NULL}",
    ),
    (
        "DRM_IOCTL_GET_UNIQUE",
        "{unique_len=16}",
        "{unique_len=16, unique=\"pci:0000:00:02.0\"}",
    ),
    (
        "DRM_IOCTL_SET_UNIQUE",
        "{unique_len=16, unique=\"pci:0000:00:02.0\"}",
        "",
    ),
    // _IOR: nothing at entry (its line is checked apart)
    ("DRM_IOCTL_GET_MAGIC", "", "{magic=4660}"),
    ("DRM_IOCTL_AUTH_MAGIC", "{magic=4660}", ""),
    (
        "DRM_IOCTL_IRQ_BUSID",
        "{busnum=1, devnum=2, funcnum=3}",
        "{irq=11}",
    ),
    (
        "DRM_IOCTL_SET_VERSION",
        "{drm_di_major=1, drm_di_minor=4, drm_dd_major=-1, drm_dd_minor=-1}",
        "{drm_di_major=1, drm_di_minor=4, drm_dd_major=-1, drm_dd_minor=-1}",
    ),
    ("DRM_IOCTL_GEM_CLOSE", "{handle=42}", ""),
    ("DRM_IOCTL_GEM_FLINK", "{handle=42}", "{name=17}"),
    ("DRM_IOCTL_GEM_OPEN", "{name=17}", "{handle=43, size=65536}"),
    (
        "DRM_IOCTL_GET_CAP",
        "{capability=DRM_CAP_PRIME}",
        "{value=DRM_PRIME_CAP_IMPORT|DRM_PRIME_CAP_EXPORT}",
    ),
    (
        "DRM_IOCTL_GET_CAP",
        "{capability=DRM_CAP_SYNCOBJ}",
        "{value=1}",
    ),
    (
        "DRM_IOCTL_GET_CAP",
        "{capability=0x99 /* DRM_CAP_??? */}",
        "{value=0}",
    ),
    (
        "DRM_IOCTL_SET_CLIENT_CAP",
        "{capability=DRM_CLIENT_CAP_ATOMIC, value=1}",
        "",
    ),
    (
        "DRM_IOCTL_PRIME_HANDLE_TO_FD",
        "{handle=42, flags=DRM_CLOEXEC|DRM_RDWR}",
        "{fd=5}",
    ),
    ("DRM_IOCTL_PRIME_FD_TO_HANDLE", "{fd=5}", "{handle=44}"),
    (
        "DRM_IOCTL_CRTC_GET_SEQUENCE",
        "{crtc_id=31}",
        "{active=1, sequence=1000, sequence_ns=123456789}",
    ),
    (
        "DRM_IOCTL_CRTC_QUEUE_SEQUENCE",
        "{crtc_id=31, flags=DRM_CRTC_SEQUENCE_RELATIVE|DRM_CRTC_SEQUENCE_NEXT_ON_MISS, \
         sequence=5, user_data=0xfeed}",
        "{sequence=5}",
    ),
    ("DRM_IOCTL_MODE_RMFB", "[55]", ""),
    (
        "DRM_IOCTL_MODE_CREATE_DUMB",
        "{height=480, width=640, bpp=32, flags=0}",
        "{handle=3, pitch=2560, size=1228800}",
    ),
    (
        "DRM_IOCTL_MODE_MAP_DUMB",
        "{handle=3}",
        "{offset=0x20000000}",
    ),
    ("DRM_IOCTL_MODE_DESTROY_DUMB", "{handle=3}", ""),
    (
        "DRM_IOCTL_SYNCOBJ_CREATE",
        "{flags=DRM_SYNCOBJ_CREATE_SIGNALED}",
        "{handle=6}",
    ),
    ("DRM_IOCTL_SYNCOBJ_DESTROY", "{handle=6}", ""),
    (
        "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD",
        "{handle=6, flags=DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE}",
        "{fd=9}",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE",
        "{fd=9, flags=0}",
        "{handle=6}",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_WAIT",
        "{handles=[7, 8, 9], timeout_nsec=5000000000, count_handles=3, \
         flags=DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL|DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT}",
        "{first_signaled=1}",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT",
        "{handles=[7, 8], points=[100, 200], timeout_nsec=-1, count_handles=2, \
         flags=DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE}",
        "{first_signaled=0}",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_RESET",
        "{handles=[7, 8, 9], count_handles=3}",
        "",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_SIGNAL",
        "{handles=[7, 8, 9], count_handles=3}",
        "",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_QUERY",
        "{handles=[7, 8, 9], count_handles=3, flags=DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED}",
        "{points=[100, 200, 300]}",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL",
        "{handles=[7], points=[100], count_handles=1, flags=0}",
        "",
    ),
    (
        "DRM_IOCTL_SYNCOBJ_TRANSFER",
        "{src_handle=6, dst_handle=7, src_point=1, dst_point=2, \
         flags=DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT}",
        "",
    ),
];

/// Failed calls: what the kernel would have read, then the error; an _IOR
/// request's structure as its address.
#[test]
fn drm_core_ioctls_entry_side() {
    require_bpf!();
    let _s = serial();
    let got = ioctl_lines("drm-plain", &[]);
    let want: Vec<String> = CALLS
        .iter()
        .map(|(req, enter, _)| {
            let arg = if enter.is_empty() { "ADDR" } else { enter };
            format!("ioctl(3, {req}, {arg}) = -1 ENOTTY (Inappropriate ioctl for device)")
        })
        .collect();
    assert_lines(&got, &want);
}

/// Injected successes: the entry's fields, then ` => ` the exit's.
#[test]
fn drm_core_ioctls_exit_side() {
    require_bpf!();
    let _s = serial();
    let got = ioctl_lines("drm-inject", &["-e", "inject=ioctl:retval=0"]);
    let want: Vec<String> = CALLS
        .iter()
        .map(|(req, enter, exit)| {
            let arg = match (enter.is_empty(), exit.is_empty()) {
                (true, _) => exit.to_string(),
                (false, true) => enter.to_string(),
                (false, false) => format!("{enter} => {exit}"),
            };
            format!("ioctl(3, {req}, {arg}) = 0 (INJECTED)")
        })
        .collect();
    assert_lines(&got, &want);
}

/// `-s`: strings and handle arrays cut as strace cuts them.
#[test]
fn drm_core_ioctls_abbreviated() {
    require_bpf!();
    let _s = serial();
    let got = ioctl_lines("drm-s2", &["-s", "2", "-e", "inject=ioctl:retval=0"]);
    let find = |prefix: &str| {
        got.iter()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix}...: {got:#?}"))
            .clone()
    };
    assert_eq!(
        find("ioctl(3, DRM_IOCTL_VERSION, {name_len=5"),
        "ioctl(3, DRM_IOCTL_VERSION, {name_len=5, date_len=8, desc_len=42} => \
         {version_major=1, version_minor=6, version_patchlevel=2, name_len=5, name=\"ge\"..., \
         date_len=8, date=\"20\"..., desc_len=42, desc=\"a \"...}) = 0 (INJECTED)"
    );
    assert_eq!(
        find("ioctl(3, DRM_IOCTL_SYNCOBJ_WAIT,"),
        "ioctl(3, DRM_IOCTL_SYNCOBJ_WAIT, {handles=[7, 8, ...], timeout_nsec=5000000000, \
         count_handles=3, flags=DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL|DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT} \
         => {first_signaled=1}) = 0 (INJECTED)"
    );
}
