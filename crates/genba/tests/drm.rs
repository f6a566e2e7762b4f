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

/// The ioctl lines `genba trace ARGS -- drm` prints, the return's column
/// padding dropped.
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
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The lines one by one; `ADDR` in a wanted line stands for an address.
fn assert_lines(got: &[String], want: &[String]) {
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        if let Some((head, tail)) = w.split_once("ADDR") {
            let addr = g
                .strip_prefix(head)
                .and_then(|r| r.strip_suffix(tail))
                .and_then(|a| a.strip_prefix("0x"));
            assert!(
                addr.is_some_and(|a| !a.is_empty() && a.bytes().all(|c| c.is_ascii_hexdigit())),
                "line {} of the ioctls differs:\n got: {g}\nwant: {w}",
                k + 1
            );
            continue;
        }
        assert_eq!(g, w, "line {} of the ioctls differs", k + 1);
    }
    assert_eq!(got.len(), want.len(), "ioctl lines: {got:#?}");
}

/// drm.c's two struct drm_mode_modeinfo.
macro_rules! mode_1080 {
    () => {
        "{clock=148500, hdisplay=1920, hsync_start=2008, hsync_end=2052, htotal=2200, hskew=0, \
         vdisplay=1080, vsync_start=1084, vsync_end=1089, vtotal=1125, vscan=0, vrefresh=60, \
         flags=DRM_MODE_FLAG_PHSYNC|DRM_MODE_FLAG_PVSYNC, \
         type=DRM_MODE_TYPE_PREFERRED|DRM_MODE_TYPE_DRIVER, name=\"1920x1080\"}"
    };
}
macro_rules! mode_720 {
    () => {
        "{clock=74250, hdisplay=1280, hsync_start=1390, hsync_end=1430, htotal=1650, hskew=0, \
         vdisplay=720, vsync_start=725, vsync_end=730, vtotal=750, vscan=0, vrefresh=60, \
         flags=DRM_MODE_FLAG_PHSYNC|DRM_MODE_FLAG_PVSYNC, type=DRM_MODE_TYPE_DRIVER, \
         name=\"1280x720\"}"
    };
}

/// struct drm_mode_fb_cmd2 as drm.c fills it.
const FB2: &str = "{width=640, height=480, pixel_format=fourcc_code('X', 'R', '2', '4'), \
                   flags=DRM_MODE_FB_MODIFIERS, handles=[3, 0, 0, 0], pitches=[2560, 0, 0, 0], \
                   offsets=[0, 0, 0, 0], modifier=[0x100000000000001, 0, 0, 0]}";

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
    ("DRM_IOCTL_GET_CLIENT", "{idx=0}", "{auth=1, pid=1234, uid=1000, magic=0, iocs=77}"),
    (
        "DRM_IOCTL_WAIT_VBLANK",
        "{request={type=_DRM_VBLANK_RELATIVE|_DRM_VBLANK_EVENT|2<<_DRM_VBLANK_HIGH_CRTC_SHIFT, \
         sequence=1, signal=0}}",
        "{reply={type=_DRM_VBLANK_RELATIVE|_DRM_VBLANK_EVENT|2<<_DRM_VBLANK_HIGH_CRTC_SHIFT, \
         sequence=1, tval_sec=0, tval_usec=0}}",
    ),
    (
        "DRM_IOCTL_MODE_GETRESOURCES",
        "{count_fbs=0, count_crtcs=2, count_connectors=1, count_encoders=2}",
        "{count_fbs=0, fb_id_ptr=NULL, count_crtcs=2, crtc_id_ptr=[31, 32], count_connectors=1, \
         connector_id_ptr=[41], count_encoders=2, encoder_id_ptr=[51, 52], min_width=0, \
         max_width=8192, min_height=0, max_height=8192}",
    ),
    (
        "DRM_IOCTL_MODE_GETPLANERESOURCES",
        "{count_planes=3}",
        "{count_planes=3, plane_id_ptr=[61, 62, 63]}",
    ),
    (
        "DRM_IOCTL_MODE_GETENCODER",
        "{encoder_id=51}",
        "{encoder_type=DRM_MODE_ENCODER_TMDS, crtc_id=31, possible_crtcs=0x3, possible_clones=0}",
    ),
    (
        "DRM_IOCTL_MODE_ADDFB",
        "{width=640, height=480, pitch=2560, bpp=32, depth=24, handle=3}",
        "{fb_id=71}",
    ),
    (
        "DRM_IOCTL_MODE_GETFB",
        "{fb_id=71}",
        "{width=640, height=480, pitch=2560, bpp=32, depth=24, handle=3}",
    ),
    ("DRM_IOCTL_MODE_ADDFB2", FB2, "{fb_id=72}"),
    ("DRM_IOCTL_MODE_GETFB2", "{fb_id=72}", FB2),
    (
        "DRM_IOCTL_MODE_PAGE_FLIP",
        "{crtc_id=31, fb_id=72, flags=DRM_MODE_PAGE_FLIP_EVENT|DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE, \
         sequence=9, user_data=0xabc}",
        "",
    ),
    (
        "DRM_IOCTL_MODE_CREATEPROPBLOB",
        "{data=\"\\1\\2mode\", length=6}",
        "{blob_id=81}",
    ),
    ("DRM_IOCTL_MODE_DESTROYPROPBLOB", "{blob_id=81}", ""),
    (
        "DRM_IOCTL_MODE_GETCRTC",
        "{crtc_id=31}",
        concat!(
            "{fb_id=72, x=0, y=0, gamma_size=256, mode_valid=1, mode=",
            mode_1080!(),
            "}"
        ),
    ),
    (
        "DRM_IOCTL_MODE_SETCRTC",
        concat!(
            "{set_connectors_ptr=[41], count_connectors=1, crtc_id=31, fb_id=72, x=0, y=0, \
             mode_valid=1, mode=",
            mode_720!(),
            "}"
        ),
        "",
    ),
    (
        "DRM_IOCTL_MODE_CURSOR",
        "{flags=DRM_MODE_CURSOR_BO|DRM_MODE_CURSOR_MOVE, crtc_id=31, x=-10, y=20, width=64, \
         height=64, handle=5}",
        "",
    ),
    (
        "DRM_IOCTL_MODE_GETCONNECTOR",
        "{connector_id=41, count_modes=2, count_props=3, count_encoders=1}",
        concat!(
            "{count_encoders=1, encoders_ptr=[51], count_modes=2, modes_ptr=[",
            mode_1080!(),
            ", ",
            mode_720!(),
            "], count_props=3, props_ptr=[21, 22, 23], prop_values_ptr=[1, 2, 3], encoder_id=51, \
             connector_type=DRM_MODE_CONNECTOR_HDMIA, connector_type_id=1, connection=1, \
             mm_width=600, mm_height=340, subpixel=1}"
        ),
    ),
    (
        "DRM_IOCTL_MODE_GETPROPERTY",
        "{prop_id=21, count_values=2, count_enum_blobs=2}",
        "{flags=DRM_MODE_PROP_ENUM|DRM_MODE_PROP_ATOMIC, name=\"DPMS\", count_values=2, \
         values_ptr=[1, 2], count_enum_blobs=2, enum_blob_ptr=[{value=0, name=\"On\"}, \
         {value=3, name=\"Off\"}]}",
    ),
    (
        "DRM_IOCTL_MODE_GETPROPBLOB",
        "{blob_id=81, length=6}",
        "{length=6, data=\"\\1\\2mode\"}",
    ),
    (
        "DRM_IOCTL_MODE_GETPLANE",
        "{plane_id=61, count_format_types=2}",
        "{crtc_id=31, fb_id=72, possible_crtcs=0x1, gamma_size=0, count_format_types=2, \
         format_type_ptr=[fourcc_code('X', 'R', '2', '4'), fourcc_code('A', 'R', '2', '4')]}",
    ),
    (
        "DRM_IOCTL_MODE_SETPLANE",
        "{plane_id=61, crtc_id=31, fb_id=72, flags=0, crtc_x=-5, crtc_y=0, crtc_w=640, \
         crtc_h=480, src_x=0, src_y=0, src_h=31457280, src_w=41943040}",
        "",
    ),
    (
        "DRM_IOCTL_MODE_OBJ_GETPROPERTIES",
        "{count_props=2, obj_id=31, obj_type=DRM_MODE_OBJECT_CRTC}",
        "{props_ptr=[21, 22], prop_values_ptr=[1, 2], count_props=2}",
    ),
    (
        "DRM_IOCTL_MODE_OBJ_SETPROPERTY",
        "{value=1, prop_id=21, obj_id=41, obj_type=DRM_MODE_OBJECT_CONNECTOR}",
        "",
    ),
    (
        "DRM_IOCTL_MODE_ATOMIC",
        "{flags=DRM_MODE_PAGE_FLIP_EVENT|DRM_MODE_ATOMIC_NONBLOCK|DRM_MODE_ATOMIC_ALLOW_MODESET, \
         count_objs=2, objs_ptr=[31, 41], count_props_ptr=[2, 3], props_ptr=[21, 22, 23, 24, 25], \
         prop_values_ptr=[1, 2, 3, 4, 5], user_data=0x1234}",
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
