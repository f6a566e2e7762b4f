//! The DRM core's and mode setting's ioctl requests (type 'd', a child
//! module of `ioctl`: see [`super::decode`]) with their structures, in
//! strace's style: what the kernel reads at entry, then ` => ` what it
//! wrote back when the call succeeded. strace 6.1 has no DRM decoder (it
//! names the requests only); the field names are those of the uapi drm.h
//! and drm_mode.h, the constants copied from libdrm-dev 2.4.114's (the
//! test program, tests/programs/drm.c, checks them against the header when
//! it is installed). The drivers' own requests are named only.
//!
//! The strings and arrays the structures point to (DRM_IOCTL_VERSION's
//! name, date and description, sync object handles, mode setting ids,
//! modes, formats, properties) are not in the copy BPF takes of the
//! argument (the ioctl's capture slots are all taken by other families):
//! they are read from the live process when the line is printed, and shown
//! as their address when that fails (the process gone). What the kernel
//! copies into the caller's arrays is shown as far as the caller's count at
//! entry left room for it.

use super::super::ArgWriter;
use super::{i32at, input, ioc_size, output, u32at, u64at, Out};
use crate::fmt;
use std::fmt::Write;

const VERSION: u32 = 0xc0406400;
const GET_CLIENT: u32 = 0xc0286405;
const WAIT_VBLANK: u32 = 0xc018643a;
const MODE_GETRESOURCES: u32 = 0xc04064a0;
const MODE_GETCRTC: u32 = 0xc06864a1;
const MODE_SETCRTC: u32 = 0xc06864a2;
const MODE_CURSOR: u32 = 0xc01c64a3;
const MODE_GETCONNECTOR: u32 = 0xc05064a7;
const MODE_GETPROPERTY: u32 = 0xc04064aa;
const MODE_GETPROPBLOB: u32 = 0xc01064ac;
const MODE_GETPLANE: u32 = 0xc02064b6;
const MODE_SETPLANE: u32 = 0xc03064b7;
const MODE_OBJ_GETPROPERTIES: u32 = 0xc02064b9;
const MODE_OBJ_SETPROPERTY: u32 = 0xc01864ba;
const MODE_ATOMIC: u32 = 0xc03864bc;
const MODE_GETENCODER: u32 = 0xc01464a6;
const MODE_GETFB: u32 = 0xc01c64ad;
const MODE_ADDFB: u32 = 0xc01c64ae;
const MODE_PAGE_FLIP: u32 = 0xc01864b0;
const MODE_GETPLANERESOURCES: u32 = 0xc01064b5;
const MODE_ADDFB2: u32 = 0xc06864b8;
const MODE_CREATEPROPBLOB: u32 = 0xc01064bd;
const MODE_DESTROYPROPBLOB: u32 = 0xc00464be;
const MODE_GETFB2: u32 = 0xc06864ce;
const GET_UNIQUE: u32 = 0xc0106401;
const GET_MAGIC: u32 = 0x80046402;
const IRQ_BUSID: u32 = 0xc0106403;
const SET_VERSION: u32 = 0xc0106407;
const GEM_CLOSE: u32 = 0x40086409;
const GEM_FLINK: u32 = 0xc008640a;
const GEM_OPEN: u32 = 0xc010640b;
const GET_CAP: u32 = 0xc010640c;
const SET_CLIENT_CAP: u32 = 0x4010640d;
const SET_UNIQUE: u32 = 0x40106410;
const AUTH_MAGIC: u32 = 0x40046411;
const PRIME_HANDLE_TO_FD: u32 = 0xc00c642d;
const PRIME_FD_TO_HANDLE: u32 = 0xc00c642e;
const CRTC_GET_SEQUENCE: u32 = 0xc018643b;
const CRTC_QUEUE_SEQUENCE: u32 = 0xc018643c;
const MODE_RMFB: u32 = 0xc00464af;
const MODE_CREATE_DUMB: u32 = 0xc02064b2;
const MODE_MAP_DUMB: u32 = 0xc01064b3;
const MODE_DESTROY_DUMB: u32 = 0xc00464b4;
const SYNCOBJ_CREATE: u32 = 0xc00864bf;
const SYNCOBJ_DESTROY: u32 = 0xc00864c0;
const SYNCOBJ_HANDLE_TO_FD: u32 = 0xc01064c1;
const SYNCOBJ_FD_TO_HANDLE: u32 = 0xc01064c2;
const SYNCOBJ_WAIT: u32 = 0xc02064c3;
const SYNCOBJ_RESET: u32 = 0xc01064c4;
const SYNCOBJ_SIGNAL: u32 = 0xc01064c5;
const SYNCOBJ_TIMELINE_WAIT: u32 = 0xc02864ca;
const SYNCOBJ_QUERY: u32 = 0xc01864cb;
const SYNCOBJ_TRANSFER: u32 = 0xc02064cc;
const SYNCOBJ_TIMELINE_SIGNAL: u32 = 0xc01864cd;

/// `DRM_CAP_*`: what DRM_IOCTL_GET_CAP asks.
static CAPS: &[(u64, &str)] = &[
    (0x1, "DRM_CAP_DUMB_BUFFER"),
    (0x2, "DRM_CAP_VBLANK_HIGH_CRTC"),
    (0x3, "DRM_CAP_DUMB_PREFERRED_DEPTH"),
    (0x4, "DRM_CAP_DUMB_PREFER_SHADOW"),
    (0x5, "DRM_CAP_PRIME"),
    (0x6, "DRM_CAP_TIMESTAMP_MONOTONIC"),
    (0x7, "DRM_CAP_ASYNC_PAGE_FLIP"),
    (0x8, "DRM_CAP_CURSOR_WIDTH"),
    (0x9, "DRM_CAP_CURSOR_HEIGHT"),
    (0x10, "DRM_CAP_ADDFB2_MODIFIERS"),
    (0x11, "DRM_CAP_PAGE_FLIP_TARGET"),
    (0x12, "DRM_CAP_CRTC_IN_VBLANK_EVENT"),
    (0x13, "DRM_CAP_SYNCOBJ"),
    (0x14, "DRM_CAP_SYNCOBJ_TIMELINE"),
];

/// DRM_CAP_PRIME's value.
static PRIME_CAPS: &[(u64, &str)] = &[(0x1, "DRM_PRIME_CAP_IMPORT"), (0x2, "DRM_PRIME_CAP_EXPORT")];

/// `DRM_CLIENT_CAP_*`: what DRM_IOCTL_SET_CLIENT_CAP sets.
static CLIENT_CAPS: &[(u64, &str)] = &[
    (1, "DRM_CLIENT_CAP_STEREO_3D"),
    (2, "DRM_CLIENT_CAP_UNIVERSAL_PLANES"),
    (3, "DRM_CLIENT_CAP_ATOMIC"),
    (4, "DRM_CLIENT_CAP_ASPECT_RATIO"),
    (5, "DRM_CLIENT_CAP_WRITEBACK_CONNECTORS"),
];

/// struct drm_prime_handle's flags (DRM_CLOEXEC is O_CLOEXEC, DRM_RDWR O_RDWR).
static PRIME_FLAGS: &[(u64, &str)] = &[(0x80000, "DRM_CLOEXEC"), (0x2, "DRM_RDWR")];

static SYNCOBJ_CREATE_FLAGS: &[(u64, &str)] = &[(0x1, "DRM_SYNCOBJ_CREATE_SIGNALED")];

static SYNCOBJ_TO_FD_FLAGS: &[(u64, &str)] =
    &[(0x1, "DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE")];

static SYNCOBJ_TO_HANDLE_FLAGS: &[(u64, &str)] =
    &[(0x1, "DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE")];

static SYNCOBJ_WAIT_FLAGS: &[(u64, &str)] = &[
    (0x1, "DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL"),
    (0x2, "DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT"),
    (0x4, "DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE"),
];

static SYNCOBJ_QUERY_FLAGS: &[(u64, &str)] = &[(0x1, "DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED")];

static CRTC_SEQUENCE_FLAGS: &[(u64, &str)] = &[
    (0x1, "DRM_CRTC_SEQUENCE_RELATIVE"),
    (0x2, "DRM_CRTC_SEQUENCE_NEXT_ON_MISS"),
];

/// `_DRM_VBLANK_*`: the flags of a vblank wait's type (its lowest bit is
/// absolute or relative, bits 1-5 the CRTC's index).
static VBLANK_FLAGS: &[(u64, &str)] = &[
    (0x4000000, "_DRM_VBLANK_EVENT"),
    (0x8000000, "_DRM_VBLANK_FLIP"),
    (0x10000000, "_DRM_VBLANK_NEXTONMISS"),
    (0x20000000, "_DRM_VBLANK_SECONDARY"),
    (0x40000000, "_DRM_VBLANK_SIGNAL"),
];

/// `DRM_MODE_ENCODER_*`.
static ENCODER_TYPES: &[(u64, &str)] = &[
    (0, "DRM_MODE_ENCODER_NONE"),
    (1, "DRM_MODE_ENCODER_DAC"),
    (2, "DRM_MODE_ENCODER_TMDS"),
    (3, "DRM_MODE_ENCODER_LVDS"),
    (4, "DRM_MODE_ENCODER_TVDAC"),
    (5, "DRM_MODE_ENCODER_VIRTUAL"),
    (6, "DRM_MODE_ENCODER_DSI"),
    (7, "DRM_MODE_ENCODER_DPMST"),
    (8, "DRM_MODE_ENCODER_DPI"),
];

static FB_FLAGS: &[(u64, &str)] = &[
    (0x1, "DRM_MODE_FB_INTERLACED"),
    (0x2, "DRM_MODE_FB_MODIFIERS"),
];

static PAGE_FLIP_FLAGS: &[(u64, &str)] = &[
    (0x1, "DRM_MODE_PAGE_FLIP_EVENT"),
    (0x2, "DRM_MODE_PAGE_FLIP_ASYNC"),
    (0x4, "DRM_MODE_PAGE_FLIP_TARGET_ABSOLUTE"),
    (0x8, "DRM_MODE_PAGE_FLIP_TARGET_RELATIVE"),
];

/// `DRM_MODE_FLAG_*` of struct drm_mode_modeinfo (the 3D and aspect ratio
/// fields stay a number).
static MODE_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "DRM_MODE_FLAG_PHSYNC"),
    (1 << 1, "DRM_MODE_FLAG_NHSYNC"),
    (1 << 2, "DRM_MODE_FLAG_PVSYNC"),
    (1 << 3, "DRM_MODE_FLAG_NVSYNC"),
    (1 << 4, "DRM_MODE_FLAG_INTERLACE"),
    (1 << 5, "DRM_MODE_FLAG_DBLSCAN"),
    (1 << 6, "DRM_MODE_FLAG_CSYNC"),
    (1 << 7, "DRM_MODE_FLAG_PCSYNC"),
    (1 << 8, "DRM_MODE_FLAG_NCSYNC"),
    (1 << 9, "DRM_MODE_FLAG_HSKEW"),
    (1 << 10, "DRM_MODE_FLAG_BCAST"),
    (1 << 11, "DRM_MODE_FLAG_PIXMUX"),
    (1 << 12, "DRM_MODE_FLAG_DBLCLK"),
    (1 << 13, "DRM_MODE_FLAG_CLKDIV2"),
];

/// `DRM_MODE_TYPE_*` (CLOCK_C and CRTC_C include BUILTIN's bit: first).
static MODE_TYPES: &[(u64, &str)] = &[
    (0x3, "DRM_MODE_TYPE_CLOCK_C"),
    (0x5, "DRM_MODE_TYPE_CRTC_C"),
    (0x1, "DRM_MODE_TYPE_BUILTIN"),
    (0x8, "DRM_MODE_TYPE_PREFERRED"),
    (0x10, "DRM_MODE_TYPE_DEFAULT"),
    (0x20, "DRM_MODE_TYPE_USERDEF"),
    (0x40, "DRM_MODE_TYPE_DRIVER"),
];

static CONNECTOR_TYPES: &[(u64, &str)] = &[
    (0, "DRM_MODE_CONNECTOR_Unknown"),
    (1, "DRM_MODE_CONNECTOR_VGA"),
    (2, "DRM_MODE_CONNECTOR_DVII"),
    (3, "DRM_MODE_CONNECTOR_DVID"),
    (4, "DRM_MODE_CONNECTOR_DVIA"),
    (5, "DRM_MODE_CONNECTOR_Composite"),
    (6, "DRM_MODE_CONNECTOR_SVIDEO"),
    (7, "DRM_MODE_CONNECTOR_LVDS"),
    (8, "DRM_MODE_CONNECTOR_Component"),
    (9, "DRM_MODE_CONNECTOR_9PinDIN"),
    (10, "DRM_MODE_CONNECTOR_DisplayPort"),
    (11, "DRM_MODE_CONNECTOR_HDMIA"),
    (12, "DRM_MODE_CONNECTOR_HDMIB"),
    (13, "DRM_MODE_CONNECTOR_TV"),
    (14, "DRM_MODE_CONNECTOR_eDP"),
    (15, "DRM_MODE_CONNECTOR_VIRTUAL"),
    (16, "DRM_MODE_CONNECTOR_DSI"),
    (17, "DRM_MODE_CONNECTOR_DPI"),
    (18, "DRM_MODE_CONNECTOR_WRITEBACK"),
    (19, "DRM_MODE_CONNECTOR_SPI"),
    (20, "DRM_MODE_CONNECTOR_USB"),
];

static OBJECT_TYPES: &[(u64, &str)] = &[
    (0, "DRM_MODE_OBJECT_ANY"),
    (0xcccccccc, "DRM_MODE_OBJECT_CRTC"),
    (0xc0c0c0c0, "DRM_MODE_OBJECT_CONNECTOR"),
    (0xe0e0e0e0, "DRM_MODE_OBJECT_ENCODER"),
    (0xdededede, "DRM_MODE_OBJECT_MODE"),
    (0xb0b0b0b0, "DRM_MODE_OBJECT_PROPERTY"),
    (0xfbfbfbfb, "DRM_MODE_OBJECT_FB"),
    (0xbbbbbbbb, "DRM_MODE_OBJECT_BLOB"),
    (0xeeeeeeee, "DRM_MODE_OBJECT_PLANE"),
];

static CURSOR_FLAGS: &[(u64, &str)] = &[(0x1, "DRM_MODE_CURSOR_BO"), (0x2, "DRM_MODE_CURSOR_MOVE")];

/// An atomic commit's flags: the page flip's and its own.
static ATOMIC_FLAGS: &[(u64, &str)] = &[
    (0x1, "DRM_MODE_PAGE_FLIP_EVENT"),
    (0x2, "DRM_MODE_PAGE_FLIP_ASYNC"),
    (0x100, "DRM_MODE_ATOMIC_TEST_ONLY"),
    (0x200, "DRM_MODE_ATOMIC_NONBLOCK"),
    (0x400, "DRM_MODE_ATOMIC_ALLOW_MODESET"),
];

/// `DRM_MODE_PROP_*` (the extended types, bits 6-15, are a number:
/// OBJECT and SIGNED_RANGE first).
static PROP_FLAGS: &[(u64, &str)] = &[
    (0x40, "DRM_MODE_PROP_OBJECT"),
    (0x80, "DRM_MODE_PROP_SIGNED_RANGE"),
    (0x1, "DRM_MODE_PROP_PENDING"),
    (0x2, "DRM_MODE_PROP_RANGE"),
    (0x4, "DRM_MODE_PROP_IMMUTABLE"),
    (0x8, "DRM_MODE_PROP_ENUM"),
    (0x10, "DRM_MODE_PROP_BLOB"),
    (0x20, "DRM_MODE_PROP_BITMASK"),
    (0x80000000, "DRM_MODE_PROP_ATOMIC"),
];

/// Bytes of struct drm_mode_property_enum.
const PROP_ENUM: usize = 40;

/// Bytes of struct drm_mode_modeinfo.
const MODEINFO: usize = 68;

/// The traced process's memory, read when the line is printed, and the
/// structure as it was at entry (for the exit's half).
#[derive(Clone, Copy)]
struct Mem<'a> {
    read: Option<&'a dyn Fn(u64, usize) -> Option<Vec<u8>>>,
    entry: &'a [u8],
}

impl Mem<'_> {
    /// `n` bytes at `addr`, all of them or nothing.
    fn bytes(&self, addr: u64, n: usize) -> Option<Vec<u8>> {
        let read = self.read.filter(|_| addr != 0)?;
        if n == 0 {
            return Some(Vec::new());
        }
        read(addr, n).filter(|b| b.len() == n)
    }
}

/// One half of a structure: false when the bytes are too few.
type Half = fn(&mut Out<'_>, &[u8], Mem<'_>) -> bool;

/// How the argument of `req` is printed; None: not a request of this module.
pub(super) fn how(req: u32) -> Option<super::How> {
    use super::How::Custom;
    Some(match req {
        VERSION => Custom(|w| halves(w, version_in, Some(version_out))),
        GET_CLIENT => Custom(|w| halves(w, client_idx, Some(client))),
        WAIT_VBLANK => Custom(|w| halves(w, vblank_request, Some(vblank_reply))),
        MODE_GETRESOURCES => Custom(|w| halves(w, card_res_counts, Some(card_res))),
        MODE_GETCRTC => Custom(|w| halves(w, crtc_id_at12, Some(crtc))),
        MODE_SETCRTC => Custom(|w| halves(w, set_crtc, None)),
        MODE_CURSOR => Custom(|w| halves(w, cursor, None)),
        MODE_GETCONNECTOR => Custom(|w| halves(w, connector_in, Some(connector))),
        MODE_GETPROPERTY => Custom(|w| halves(w, property_in, Some(property))),
        MODE_GETPROPBLOB => Custom(|w| halves(w, get_blob_in, Some(get_blob))),
        MODE_GETPLANE => Custom(|w| halves(w, plane_in, Some(plane))),
        MODE_SETPLANE => Custom(|w| halves(w, set_plane, None)),
        MODE_OBJ_GETPROPERTIES => Custom(|w| halves(w, obj_props_in, Some(obj_props))),
        MODE_OBJ_SETPROPERTY => Custom(|w| halves(w, obj_set_property, None)),
        MODE_ATOMIC => Custom(|w| halves(w, atomic, None)),
        MODE_GETPLANERESOURCES => Custom(|w| halves(w, plane_res_count, Some(plane_res))),
        MODE_GETENCODER => Custom(|w| halves(w, encoder_id, Some(encoder))),
        MODE_ADDFB => Custom(|w| halves(w, fb_cmd, Some(fb_id_of))),
        MODE_GETFB => Custom(|w| halves(w, fb_id_of, Some(fb_cmd))),
        MODE_ADDFB2 => Custom(|w| halves(w, fb_cmd2, Some(fb_id_of))),
        MODE_GETFB2 => Custom(|w| halves(w, fb_id_of, Some(fb_cmd2))),
        MODE_PAGE_FLIP => Custom(|w| halves(w, page_flip, None)),
        MODE_CREATEPROPBLOB => Custom(|w| halves(w, blob_data, Some(blob_id_at12))),
        MODE_DESTROYPROPBLOB => Custom(|w| halves(w, blob_id, None)),
        GET_UNIQUE => Custom(|w| halves(w, unique_len, Some(unique))),
        SET_UNIQUE => Custom(|w| halves(w, unique, None)),
        GET_MAGIC => Custom(|w| exit_only(w, magic)),
        AUTH_MAGIC => Custom(|w| halves(w, magic, None)),
        IRQ_BUSID => Custom(|w| halves(w, busid, Some(irq))),
        SET_VERSION => Custom(|w| halves(w, set_version, Some(set_version))),
        GEM_CLOSE | MODE_DESTROY_DUMB | SYNCOBJ_DESTROY => Custom(|w| halves(w, handle, None)),
        GEM_FLINK => Custom(|w| halves(w, handle, Some(flink_name))),
        GEM_OPEN => Custom(|w| halves(w, open_name, Some(gem_opened))),
        GET_CAP => Custom(|w| halves(w, cap, Some(cap_value))),
        SET_CLIENT_CAP => Custom(|w| halves(w, client_cap, None)),
        PRIME_HANDLE_TO_FD => Custom(|w| halves(w, prime_handle, Some(prime_fd))),
        PRIME_FD_TO_HANDLE => Custom(|w| halves(w, prime_fd, Some(handle))),
        CRTC_GET_SEQUENCE => Custom(|w| halves(w, crtc_id, Some(crtc_sequence))),
        CRTC_QUEUE_SEQUENCE => Custom(|w| halves(w, crtc_queue, Some(queued_sequence))),
        MODE_RMFB => Custom(|w| halves(w, fb_id, None)),
        MODE_CREATE_DUMB => Custom(|w| halves(w, dumb_in, Some(dumb_out))),
        MODE_MAP_DUMB => Custom(|w| halves(w, handle, Some(map_offset))),
        SYNCOBJ_CREATE => Custom(|w| halves(w, syncobj_create, Some(handle))),
        SYNCOBJ_HANDLE_TO_FD => Custom(|w| halves(w, syncobj_to_fd, Some(prime_fd))),
        SYNCOBJ_FD_TO_HANDLE => Custom(|w| halves(w, syncobj_to_handle, Some(handle))),
        SYNCOBJ_WAIT => Custom(|w| halves(w, syncobj_wait, Some(first_signaled_at20))),
        SYNCOBJ_TIMELINE_WAIT => Custom(|w| halves(w, timeline_wait, Some(first_signaled_at28))),
        SYNCOBJ_RESET | SYNCOBJ_SIGNAL => Custom(|w| halves(w, syncobj_array, None)),
        SYNCOBJ_QUERY => Custom(|w| halves(w, query, Some(queried_points))),
        SYNCOBJ_TIMELINE_SIGNAL => Custom(|w| halves(w, timeline_signal, None)),
        SYNCOBJ_TRANSFER => Custom(|w| halves(w, transfer, None)),
        _ => return None,
    })
}

/// The writer's view of values, and the memory reader.
fn out<'a>(w: &'a mut ArgWriter<'_>, entry: &'a [u8]) -> (Out<'a>, Mem<'a>) {
    let mem = Mem {
        read: w.env.read_mem,
        entry,
    };
    (super::ptp_writer(w), mem)
}

/// What the kernel reads (`enter`, at entry), then, when `exit` is given and
/// the call succeeded, ` => ` what it wrote back; the address when the
/// structure could not be read.
fn halves(w: &mut ArgWriter<'_>, enter: Half, exit: Option<Half>) {
    let (req, v) = (w.call.args[1] as u32, w.call.args[2]);
    let size = ioc_size(req);
    w.sep();
    let Some(entry) = input(w, req).filter(|d| d.len() >= size) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let (mut o, mem) = out(w, &entry);
    if !enter(&mut o, &entry, mem) {
        fmt::ptr(&mut w.s, v);
        return;
    }
    let Some(exit) = exit else {
        return;
    };
    if !w.exiting_inside() || w.call.ret().is_some_and(|r| r < 0) {
        return;
    }
    let data = output(w, req).filter(|d| d.len() >= size);
    w.s.push_str(" => ");
    let (mut o, mem) = out(w, &entry);
    match data {
        Some(d) if exit(&mut o, &d, mem) => {}
        _ => fmt::ptr(&mut w.s, v),
    }
}

/// A structure only the kernel fills (_IOR): at exit, the address if the
/// call failed.
fn exit_only(w: &mut ArgWriter<'_>, shape: Half) {
    if !w.exiting() {
        return;
    }
    let (req, v) = (w.call.args[1] as u32, w.call.args[2]);
    w.sep();
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let data = output(w, req).filter(|d| d.len() >= ioc_size(req));
    let (mut o, mem) = out(w, &[]);
    match data {
        Some(d) if !failed && shape(&mut o, &d, mem) => {}
        _ => fmt::ptr(&mut w.s, v),
    }
}

/// A buffer the kernel filled with `len` bytes of a string (no NUL) of
/// `whole` bytes: quoted, `...` after it when it was cut (by the buffer's
/// size or by -s); its address when it cannot be read.
fn string(o: &mut Out<'_>, mem: Mem<'_>, addr: u64, len: u64, whole: u64) {
    if addr == 0 {
        o.put("NULL");
        return;
    }
    let shown = len.min(o.strsize as u64) as usize;
    let cut = whole > shown as u64;
    match mem.bytes(addr, shown) {
        Some(b) => fmt::quoted(o.s, &b, cut, fmt::HexStr::None),
        None if shown == 0 => fmt::quoted(o.s, &[], cut, fmt::HexStr::None),
        None => fmt::ptr(o.s, addr),
    }
}

/// `count` u32 (or u64 when `wide`) at `addr`: `[1, 2, ...]` as far as -s
/// goes (unless -v), its address when unreadable.
fn array(o: &mut Out<'_>, mem: Mem<'_>, addr: u64, count: u64, wide: bool) {
    if addr == 0 {
        o.put("NULL");
        return;
    }
    let elem = if wide { 8 } else { 4 };
    // -s items and the `...` after them (Out::array's), or with -v as
    // many as a sane count holds
    let limit = if o.verbose {
        1024
    } else {
        o.strsize as u64 + 1
    };
    let n = count.min(limit) as usize;
    let Some(b) = mem.bytes(addr, n * elem) else {
        fmt::ptr(o.s, addr);
        return;
    };
    o.array(n, |o, k| {
        let v = if wide {
            u64at(&b, k * elem)
        } else {
            u32at(&b, k * elem)
        };
        let _ = write!(o.s, "{v}");
    });
    if o.verbose && count > n as u64 {
        o.s.pop();
        o.put(", ...]");
    }
}

fn version_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{name_len={}, date_len={}, desc_len={}}}",
        u64at(d, 16),
        u64at(d, 32),
        u64at(d, 48)
    );
    true
}

/// The version and the three strings; the entry's lengths (the buffers'
/// sizes) bound what the kernel copied, the exit's are the strings' own.
fn version_out(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let given = |at: usize| match mem.entry.len() >= at + 8 {
        true => u64at(mem.entry, at),
        false => u64::MAX,
    };
    let _ = write!(
        o.s,
        "{{version_major={}, version_minor={}, version_patchlevel={}",
        i32at(d, 0),
        i32at(d, 4),
        i32at(d, 8)
    );
    for (name, at) in [("name", 16), ("date", 32), ("desc", 48)] {
        let len = u64at(d, at);
        let _ = write!(o.s, ", {name}_len={len}, {name}=");
        string(o, mem, u64at(d, at + 8), len.min(given(at)), len);
    }
    o.put("}");
    true
}

fn unique_len(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{unique_len={}}}", u64at(d, 0));
    true
}

/// DRM_IOCTL_SET_UNIQUE's name, or what DRM_IOCTL_GET_UNIQUE copied of it
/// (as far as the entry's length, the buffer's size, allows).
fn unique(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let len = u64at(d, 0);
    let given = match mem.entry.len() >= 8 {
        true => u64at(mem.entry, 0),
        false => len,
    };
    let _ = write!(o.s, "{{unique_len={len}, unique=");
    string(o, mem, u64at(d, 8), len.min(given), len);
    o.put("}");
    true
}

fn magic(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{magic={}}}", u32at(d, 0));
    true
}

fn busid(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{busnum={}, devnum={}, funcnum={}}}",
        i32at(d, 4),
        i32at(d, 8),
        i32at(d, 12)
    );
    true
}

fn irq(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{irq={}}}", i32at(d, 0));
    true
}

fn set_version(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{drm_di_major={}, drm_di_minor={}, drm_dd_major={}, drm_dd_minor={}}}",
        i32at(d, 0),
        i32at(d, 4),
        i32at(d, 8),
        i32at(d, 12)
    );
    true
}

fn handle(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{handle={}}}", u32at(d, 0));
    true
}

fn fb_id(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "[{}]", u32at(d, 0));
    true
}

fn flink_name(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{name={}}}", u32at(d, 4));
    true
}

fn open_name(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{name={}}}", u32at(d, 0));
    true
}

fn gem_opened(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{handle={}, size={}}}", u32at(d, 4), u64at(d, 8));
    true
}

fn cap(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{capability=");
    o.xval(u64at(d, 0), CAPS, "DRM_CAP_???");
    o.put("}");
    true
}

fn cap_value(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let v = u64at(d, 8);
    o.put("{value=");
    if u64at(d, 0) == 0x5 {
        o.flags(v, PRIME_CAPS, "DRM_PRIME_CAP_???");
    } else {
        let _ = write!(o.s, "{v}");
    }
    o.put("}");
    true
}

fn client_cap(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{capability=");
    o.xval(u64at(d, 0), CLIENT_CAPS, "DRM_CLIENT_CAP_???");
    let _ = write!(o.s, ", value={}}}", u64at(d, 8));
    true
}

fn prime_handle(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{handle={}, flags=", u32at(d, 0));
    o.flags(u32at(d, 4), PRIME_FLAGS, "DRM_???");
    o.put("}");
    true
}

fn prime_fd(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{fd={}}}", i32at(d, 8));
    true
}

fn crtc_id(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{crtc_id={}}}", u32at(d, 0));
    true
}

fn crtc_sequence(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{active={}, sequence={}, sequence_ns={}}}",
        u32at(d, 4),
        u64at(d, 8),
        u64at(d, 16) as i64
    );
    true
}

fn crtc_queue(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{crtc_id={}, flags=", u32at(d, 0));
    o.flags(u32at(d, 4), CRTC_SEQUENCE_FLAGS, "DRM_CRTC_SEQUENCE_???");
    let _ = write!(o.s, ", sequence={}, user_data=", u64at(d, 8));
    fmt::hex(o.s, u64at(d, 16));
    o.put("}");
    true
}

fn queued_sequence(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{sequence={}}}", u64at(d, 8));
    true
}

fn dumb_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{height={}, width={}, bpp={}, flags=",
        u32at(d, 0),
        u32at(d, 4),
        u32at(d, 8)
    );
    fmt::hex(o.s, u32at(d, 12));
    o.put("}");
    true
}

fn dumb_out(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{handle={}, pitch={}, size={}}}",
        u32at(d, 16),
        u32at(d, 20),
        u64at(d, 24)
    );
    true
}

fn map_offset(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{offset=");
    fmt::hex(o.s, u64at(d, 8));
    o.put("}");
    true
}

fn syncobj_create(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{flags=");
    o.flags(u32at(d, 4), SYNCOBJ_CREATE_FLAGS, "DRM_SYNCOBJ_CREATE_???");
    o.put("}");
    true
}

fn syncobj_to_fd(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{handle={}, flags=", u32at(d, 0));
    o.flags(
        u32at(d, 4),
        SYNCOBJ_TO_FD_FLAGS,
        "DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_???",
    );
    o.put("}");
    true
}

fn syncobj_to_handle(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let flags = u32at(d, 4);
    o.put("{");
    // importing a sync file replaces the fence of a sync object the caller names
    if flags & 1 != 0 {
        let _ = write!(o.s, "handle={}, ", u32at(d, 0));
    }
    let _ = write!(o.s, "fd={}, flags=", i32at(d, 8));
    o.flags(
        flags,
        SYNCOBJ_TO_HANDLE_FLAGS,
        "DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_???",
    );
    o.put("}");
    true
}

fn wait_flags(o: &mut Out<'_>, v: u64) {
    o.flags(v, SYNCOBJ_WAIT_FLAGS, "DRM_SYNCOBJ_WAIT_FLAGS_???");
}

fn syncobj_wait(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 16);
    o.put("{handles=");
    array(o, mem, u64at(d, 0), count, false);
    let _ = write!(
        o.s,
        ", timeout_nsec={}, count_handles={count}, flags=",
        u64at(d, 8) as i64
    );
    wait_flags(o, u32at(d, 20));
    o.put("}");
    true
}

fn first_signaled_at20(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{first_signaled={}}}", u32at(d, 24));
    true
}

fn timeline_wait(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 24);
    o.put("{handles=");
    array(o, mem, u64at(d, 0), count, false);
    o.put(", points=");
    array(o, mem, u64at(d, 8), count, true);
    let _ = write!(
        o.s,
        ", timeout_nsec={}, count_handles={count}, flags=",
        u64at(d, 16) as i64
    );
    wait_flags(o, u32at(d, 28));
    o.put("}");
    true
}

fn first_signaled_at28(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{first_signaled={}}}", u32at(d, 32));
    true
}

fn syncobj_array(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 8);
    o.put("{handles=");
    array(o, mem, u64at(d, 0), count, false);
    let _ = write!(o.s, ", count_handles={count}}}");
    true
}

/// DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL: the points to signal (no flags
/// defined: the kernel refuses any).
fn timeline_signal(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 16);
    o.put("{handles=");
    array(o, mem, u64at(d, 0), count, false);
    o.put(", points=");
    array(o, mem, u64at(d, 8), count, true);
    let _ = write!(o.s, ", count_handles={count}, flags=");
    fmt::hex(o.s, u32at(d, 20));
    o.put("}");
    true
}

/// DRM_IOCTL_SYNCOBJ_QUERY at entry: the handles whose points it asks.
fn query(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 16);
    o.put("{handles=");
    array(o, mem, u64at(d, 0), count, false);
    let _ = write!(o.s, ", count_handles={count}, flags=");
    o.flags(
        u32at(d, 20),
        SYNCOBJ_QUERY_FLAGS,
        "DRM_SYNCOBJ_QUERY_FLAGS_???",
    );
    o.put("}");
    true
}

/// DRM_IOCTL_SYNCOBJ_QUERY fills the points.
fn queried_points(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    o.put("{points=");
    array(o, mem, u64at(d, 8), u32at(d, 16), true);
    o.put("}");
    true
}

fn transfer(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{src_handle={}, dst_handle={}, src_point={}, dst_point={}, flags=",
        u32at(d, 0),
        u32at(d, 4),
        u64at(d, 8),
        u64at(d, 16)
    );
    wait_flags(o, u32at(d, 24));
    o.put("}");
    true
}

fn client_idx(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{idx={}}}", i32at(d, 0));
    true
}

fn client(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{auth={}, pid={}, uid={}, magic={}, iocs={}}}",
        i32at(d, 4),
        u64at(d, 8),
        u64at(d, 16),
        u64at(d, 24),
        u64at(d, 32)
    );
    true
}

/// A vblank wait's type: absolute or relative, the flags, the CRTC index.
fn vblank_type(o: &mut Out<'_>, v: u64) {
    if o.x == crate::fmt::Xlat::Raw {
        fmt::hex(o.s, v);
        return;
    }
    let verbose = o.x == crate::fmt::Xlat::Verbose;
    if verbose {
        fmt::hex(o.s, v);
        o.put(" /* ");
    }
    o.put(if v & 1 == 0 {
        "_DRM_VBLANK_ABSOLUTE"
    } else {
        "_DRM_VBLANK_RELATIVE"
    });
    let (names, rest) = fmt::flag_names(v & !0x3f, VBLANK_FLAGS);
    if !names.is_empty() {
        o.put("|");
        o.put(&names);
    }
    if rest != 0 {
        let _ = write!(o.s, "|{rest:#x}");
    }
    let crtc = (v & 0x3e) >> 1;
    if crtc != 0 {
        let _ = write!(o.s, "|{crtc}<<_DRM_VBLANK_HIGH_CRTC_SHIFT");
    }
    if verbose {
        o.put(" */");
    }
}

fn vblank_request(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{request={type=");
    vblank_type(o, u32at(d, 0));
    let _ = write!(o.s, ", sequence={}, signal=", u32at(d, 4));
    fmt::hex(o.s, u64at(d, 8));
    o.put("}}");
    true
}

fn vblank_reply(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{reply={type=");
    vblank_type(o, u32at(d, 0));
    let _ = write!(
        o.s,
        ", sequence={}, tval_sec={}, tval_usec={}}}}}",
        u32at(d, 4),
        u64at(d, 8) as i64,
        u64at(d, 16) as i64
    );
    true
}

/// The id lists of DRM_IOCTL_MODE_GETRESOURCES: (count's offset, pointer's).
const CARD_RES: [(&str, usize, &str, usize); 4] = [
    ("count_fbs", 32, "fb_id_ptr", 0),
    ("count_crtcs", 36, "crtc_id_ptr", 8),
    ("count_connectors", 40, "connector_id_ptr", 16),
    ("count_encoders", 44, "encoder_id_ptr", 24),
];

fn card_res_counts(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    for (k, (count, at, _, _)) in CARD_RES.iter().enumerate() {
        o.put(if k == 0 { "{" } else { ", " });
        let _ = write!(o.s, "{count}={}", u32at(d, *at));
    }
    o.put("}");
    true
}

/// The ids an array of `count` (at exit) holds: as many as the caller's
/// array (its count at entry) had room for.
fn ids(o: &mut Out<'_>, mem: Mem<'_>, d: &[u8], count_at: usize, ptr_at: usize) {
    let count = u32at(d, count_at);
    let room = match mem.entry.len() >= count_at + 4 {
        true => u32at(mem.entry, count_at),
        false => count,
    };
    array(o, mem, u64at(d, ptr_at), count.min(room), false);
}

fn card_res(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    for (k, (count, count_at, ptr, ptr_at)) in CARD_RES.iter().enumerate() {
        o.put(if k == 0 { "{" } else { ", " });
        let _ = write!(o.s, "{count}={}, {ptr}=", u32at(d, *count_at));
        ids(o, mem, d, *count_at, *ptr_at);
    }
    let _ = write!(
        o.s,
        ", min_width={}, max_width={}, min_height={}, max_height={}}}",
        u32at(d, 48),
        u32at(d, 52),
        u32at(d, 56),
        u32at(d, 60)
    );
    true
}

fn plane_res_count(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{count_planes={}}}", u32at(d, 8));
    true
}

fn plane_res(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{count_planes={}, plane_id_ptr=", u32at(d, 8));
    ids(o, mem, d, 8, 0);
    o.put("}");
    true
}

fn encoder_id(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{encoder_id={}}}", u32at(d, 0));
    true
}

fn encoder(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{encoder_type=");
    o.xval(u32at(d, 4), ENCODER_TYPES, "DRM_MODE_ENCODER_???");
    let _ = write!(o.s, ", crtc_id={}, possible_crtcs=", u32at(d, 8));
    fmt::hex(o.s, u32at(d, 12));
    o.put(", possible_clones=");
    fmt::hex(o.s, u32at(d, 16));
    o.put("}");
    true
}

/// The framebuffer id, first field of struct drm_mode_fb_cmd{,2}.
fn fb_id_of(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{fb_id={}}}", u32at(d, 0));
    true
}

fn fb_cmd(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{width={}, height={}, pitch={}, bpp={}, depth={}, handle={}}}",
        u32at(d, 4),
        u32at(d, 8),
        u32at(d, 12),
        u32at(d, 16),
        u32at(d, 20),
        u32at(d, 24)
    );
    true
}

/// A DRM format: `fourcc_code('X', 'R', '2', '4')`; with -X raw the number.
fn fourcc(o: &mut Out<'_>, v: u64) {
    if o.x == crate::fmt::Xlat::Raw {
        fmt::hex(o.s, v);
        return;
    }
    o.put("fourcc_code(");
    for k in 0..4 {
        if k > 0 {
            o.put(", ");
        }
        match (v >> (8 * k)) as u8 {
            c @ (b'\'' | b'\\') => {
                let _ = write!(o.s, "'\\{}'", c as char);
            }
            c @ 0x20..=0x7e => {
                let _ = write!(o.s, "'{}'", c as char);
            }
            c => {
                let _ = write!(o.s, "'\\x{c:02x}'");
            }
        }
    }
    o.put(")");
}

fn fb_cmd2(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{width={}, height={}, pixel_format=",
        u32at(d, 4),
        u32at(d, 8)
    );
    fourcc(o, u32at(d, 12));
    o.put(", flags=");
    o.flags(u32at(d, 16), FB_FLAGS, "DRM_MODE_FB_???");
    for (name, at) in [("handles", 20), ("pitches", 36), ("offsets", 52)] {
        let _ = write!(o.s, ", {name}=");
        o.array(4, |o, k| {
            let _ = write!(o.s, "{}", u32at(d, at + 4 * k));
        });
    }
    o.put(", modifier=");
    o.array(4, |o, k| fmt::hex(o.s, u64at(d, 72 + 8 * k)));
    o.put("}");
    true
}

fn page_flip(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let flags = u32at(d, 8);
    let _ = write!(
        o.s,
        "{{crtc_id={}, fb_id={}, flags=",
        u32at(d, 0),
        u32at(d, 4)
    );
    o.flags(flags, PAGE_FLIP_FLAGS, "DRM_MODE_PAGE_FLIP_???");
    // with a target flag the reserved word is the target's sequence
    // (struct drm_mode_crtc_page_flip_target)
    let name = if flags & 0xc != 0 {
        "sequence"
    } else {
        "reserved"
    };
    let _ = write!(o.s, ", {name}={}, user_data=", u32at(d, 12));
    fmt::hex(o.s, u64at(d, 16));
    o.put("}");
    true
}

/// DRM_IOCTL_MODE_CREATEPROPBLOB's bytes, as a string.
fn blob_data(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let len = u32at(d, 8);
    o.put("{data=");
    string(o, mem, u64at(d, 0), len, len);
    let _ = write!(o.s, ", length={len}}}");
    true
}

fn blob_id_at12(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{blob_id={}}}", u32at(d, 12));
    true
}

fn blob_id(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{blob_id={}}}", u32at(d, 0));
    true
}

/// struct drm_mode_modeinfo at `at`.
fn modeinfo(o: &mut Out<'_>, d: &[u8], at: usize) {
    let _ = write!(o.s, "{{clock={}", u32at(d, at));
    let names = [
        "hdisplay",
        "hsync_start",
        "hsync_end",
        "htotal",
        "hskew",
        "vdisplay",
        "vsync_start",
        "vsync_end",
        "vtotal",
        "vscan",
    ];
    for (k, name) in names.iter().enumerate() {
        let _ = write!(o.s, ", {name}={}", super::u16at(d, at + 4 + 2 * k));
    }
    let _ = write!(o.s, ", vrefresh={}, flags=", u32at(d, at + 24));
    o.flags(u32at(d, at + 28), MODE_FLAGS, "DRM_MODE_FLAG_???");
    o.put(", type=");
    o.flags(u32at(d, at + 32), MODE_TYPES, "DRM_MODE_TYPE_???");
    o.put(", name=");
    o.cstring(&d[at + 36..at + MODEINFO]);
    o.put("}");
}

fn crtc_id_at12(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{crtc_id={}}}", u32at(d, 12));
    true
}

fn crtc(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{fb_id={}, x={}, y={}, gamma_size={}, mode_valid={}, mode=",
        u32at(d, 16),
        u32at(d, 20),
        u32at(d, 24),
        u32at(d, 28),
        u32at(d, 32)
    );
    modeinfo(o, d, 36);
    o.put("}");
    true
}

fn set_crtc(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 8);
    o.put("{set_connectors_ptr=");
    array(o, mem, u64at(d, 0), count, false);
    let _ = write!(
        o.s,
        ", count_connectors={count}, crtc_id={}, fb_id={}, x={}, y={}, mode_valid={}",
        u32at(d, 12),
        u32at(d, 16),
        u32at(d, 20),
        u32at(d, 24),
        u32at(d, 32)
    );
    if u32at(d, 32) != 0 {
        o.put(", mode=");
        modeinfo(o, d, 36);
    }
    o.put("}");
    true
}

fn cursor(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    o.put("{flags=");
    o.flags(u32at(d, 0), CURSOR_FLAGS, "DRM_MODE_CURSOR_???");
    let _ = write!(
        o.s,
        ", crtc_id={}, x={}, y={}, width={}, height={}, handle={}}}",
        u32at(d, 4),
        i32at(d, 8),
        i32at(d, 12),
        u32at(d, 16),
        u32at(d, 20),
        u32at(d, 24)
    );
    true
}

fn connector_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{connector_id={}, count_modes={}, count_props={}, count_encoders={}}}",
        u32at(d, 48),
        u32at(d, 32),
        u32at(d, 36),
        u32at(d, 40)
    );
    true
}

/// The connector: the kernel copies the modes only when the caller's array
/// holds them all (else the address), the ids as far as there is room.
fn connector(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let count = u32at(d, 40);
    let _ = write!(o.s, "{{count_encoders={count}, encoders_ptr=");
    ids(o, mem, d, 40, 0);
    let modes = u32at(d, 32);
    let room = match mem.entry.len() >= 36 {
        true => u32at(mem.entry, 32),
        false => modes,
    };
    let _ = write!(o.s, ", count_modes={modes}, modes_ptr=");
    let addr = u64at(d, 8);
    let shown = if o.verbose {
        modes
    } else {
        modes.min(o.strsize as u64 + 1)
    };
    match (modes <= room && modes > 0, addr) {
        (_, 0) => o.put("NULL"),
        (false, _) if modes == 0 => o.put("[]"),
        (false, _) => fmt::ptr(o.s, addr),
        (true, _) => match mem.bytes(addr, shown as usize * MODEINFO) {
            Some(b) => o.array(shown as usize, |o, k| modeinfo(o, &b, k * MODEINFO)),
            None => fmt::ptr(o.s, addr),
        },
    }
    let _ = write!(o.s, ", count_props={}, props_ptr=", u32at(d, 36));
    ids(o, mem, d, 36, 16);
    o.put(", prop_values_ptr=");
    let props = u32at(d, 36);
    let room = match mem.entry.len() >= 40 {
        true => u32at(mem.entry, 36),
        false => props,
    };
    array(o, mem, u64at(d, 24), props.min(room), true);
    let _ = write!(o.s, ", encoder_id={}, connector_type=", u32at(d, 44));
    o.xval(u32at(d, 52), CONNECTOR_TYPES, "DRM_MODE_CONNECTOR_???");
    let _ = write!(
        o.s,
        ", connector_type_id={}, connection={}, mm_width={}, mm_height={}, subpixel={}}}",
        u32at(d, 56),
        u32at(d, 60),
        u32at(d, 64),
        u32at(d, 68),
        u32at(d, 72)
    );
    true
}

fn property_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{prop_id={}, count_values={}, count_enum_blobs={}}}",
        u32at(d, 16),
        u32at(d, 56),
        u32at(d, 60)
    );
    true
}

/// A property: its flags, name, values (ranges' bounds, enum values), and
/// for enums and bitmasks the named values, as far as the caller's arrays
/// (their counts at entry) had room.
fn property(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let room = |at: usize, count: u64| match mem.entry.len() >= at + 4 {
        true => u32at(mem.entry, at).min(count),
        false => count,
    };
    let flags = u32at(d, 20);
    o.put("{flags=");
    o.flags(flags, PROP_FLAGS, "DRM_MODE_PROP_???");
    o.put(", name=");
    o.cstring(&d[24..56]);
    let values = u32at(d, 56);
    let _ = write!(o.s, ", count_values={values}, values_ptr=");
    array(o, mem, u64at(d, 0), room(56, values), true);
    let enums = u32at(d, 60);
    let _ = write!(o.s, ", count_enum_blobs={enums}, enum_blob_ptr=");
    let addr = u64at(d, 8);
    // only enums and bitmasks have them (blob properties name none now)
    let n = room(60, enums);
    let limit = if o.verbose {
        1024
    } else {
        o.strsize as u64 + 1
    };
    let shown = n.min(limit) as usize;
    match (flags & 0x28 != 0, addr) {
        (_, 0) => o.put("NULL"),
        (false, _) => fmt::ptr(o.s, addr),
        (true, _) => match mem.bytes(addr, shown * PROP_ENUM) {
            Some(b) => o.array(shown, |o, k| {
                let at = k * PROP_ENUM;
                let _ = write!(o.s, "{{value={}, name=", u64at(&b, at));
                o.cstring(&b[at + 8..at + PROP_ENUM]);
                o.put("}");
            }),
            None => fmt::ptr(o.s, addr),
        },
    }
    o.put("}");
    true
}

fn get_blob_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(o.s, "{{blob_id={}, length={}}}", u32at(d, 0), u32at(d, 4));
    true
}

/// The blob's bytes: copied only when the caller's length held them all.
fn get_blob(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let len = u32at(d, 4);
    let room = match mem.entry.len() >= 8 {
        true => u32at(mem.entry, 4),
        false => len,
    };
    let _ = write!(o.s, "{{length={len}, data=");
    if len <= room {
        string(o, mem, u64at(d, 8), len, len);
    } else {
        fmt::ptr(o.s, u64at(d, 8));
    }
    o.put("}");
    true
}

fn plane_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{plane_id={}, count_format_types={}}}",
        u32at(d, 0),
        u32at(d, 20)
    );
    true
}

fn plane(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{crtc_id={}, fb_id={}, possible_crtcs=",
        u32at(d, 4),
        u32at(d, 8)
    );
    fmt::hex(o.s, u32at(d, 12));
    let count = u32at(d, 20);
    let room = match mem.entry.len() >= 24 {
        true => u32at(mem.entry, 20),
        false => count,
    };
    let _ = write!(
        o.s,
        ", gamma_size={}, count_format_types={count}, format_type_ptr=",
        u32at(d, 16)
    );
    // all of them or none, as the kernel copies them
    let addr = u64at(d, 24);
    let shown = if o.verbose {
        count
    } else {
        count.min(o.strsize as u64 + 1)
    };
    match (count <= room, addr) {
        (_, 0) => o.put("NULL"),
        (false, _) => fmt::ptr(o.s, addr),
        (true, _) => match mem.bytes(addr, 4 * shown as usize) {
            Some(b) => o.array(shown as usize, |o, k| fourcc(o, u32at(&b, 4 * k))),
            None => fmt::ptr(o.s, addr),
        },
    }
    o.put("}");
    true
}

fn set_plane(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{plane_id={}, crtc_id={}, fb_id={}, flags=",
        u32at(d, 0),
        u32at(d, 4),
        u32at(d, 8)
    );
    fmt::hex(o.s, u32at(d, 12));
    let _ = write!(
        o.s,
        ", crtc_x={}, crtc_y={}, crtc_w={}, crtc_h={}, src_x={}, src_y={}, src_h={}, src_w={}}}",
        i32at(d, 16),
        i32at(d, 20),
        u32at(d, 24),
        u32at(d, 28),
        u32at(d, 32),
        u32at(d, 36),
        u32at(d, 40),
        u32at(d, 44)
    );
    true
}

fn obj_type(o: &mut Out<'_>, v: u64) {
    o.xval(v, OBJECT_TYPES, "DRM_MODE_OBJECT_???");
}

fn obj_props_in(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{count_props={}, obj_id={}, obj_type=",
        u32at(d, 16),
        u32at(d, 20)
    );
    obj_type(o, u32at(d, 24));
    o.put("}");
    true
}

fn obj_props(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    o.put("{props_ptr=");
    ids(o, mem, d, 16, 0);
    let count = u32at(d, 16);
    let room = match mem.entry.len() >= 20 {
        true => u32at(mem.entry, 16),
        false => count,
    };
    o.put(", prop_values_ptr=");
    array(o, mem, u64at(d, 8), count.min(room), true);
    let _ = write!(o.s, ", count_props={count}}}");
    true
}

fn obj_set_property(o: &mut Out<'_>, d: &[u8], _: Mem<'_>) -> bool {
    let _ = write!(
        o.s,
        "{{value={}, prop_id={}, obj_id={}, obj_type=",
        u64at(d, 0),
        u32at(d, 8),
        u32at(d, 12)
    );
    obj_type(o, u32at(d, 16));
    o.put("}");
    true
}

/// An atomic commit: its objects, how many properties each sets, and the
/// properties with their values (as many as the counts add up to).
fn atomic(o: &mut Out<'_>, d: &[u8], mem: Mem<'_>) -> bool {
    let objs = u32at(d, 4);
    o.put("{flags=");
    o.flags(u32at(d, 0), ATOMIC_FLAGS, "DRM_MODE_ATOMIC_???");
    let _ = write!(o.s, ", count_objs={objs}, objs_ptr=");
    array(o, mem, u64at(d, 8), objs, false);
    o.put(", count_props_ptr=");
    array(o, mem, u64at(d, 16), objs, false);
    // the properties' total, from the counts when they are all readable
    let limit = if o.verbose {
        1024
    } else {
        o.strsize as u64 + 1
    };
    let total = (objs <= limit)
        .then(|| mem.bytes(u64at(d, 16), 4 * objs as usize))
        .flatten()
        .map(|b| (0..objs as usize).map(|k| u32at(&b, 4 * k)).sum::<u64>());
    for (name, at, wide) in [("props_ptr", 24, false), ("prop_values_ptr", 32, true)] {
        let _ = write!(o.s, ", {name}=");
        match total {
            Some(n) => array(o, mem, u64at(d, at), n, wide),
            None => fmt::ptr(o.s, u64at(d, at)),
        }
    }
    if u64at(d, 40) != 0 {
        let _ = write!(o.s, ", reserved={}", u64at(d, 40));
    }
    o.put(", user_data=");
    fmt::hex(o.s, u64at(d, 48));
    o.put("}");
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fmt::Xlat;

    /// A half printed with `mem` as the process's memory (at address
    /// 0x1000) and `entry` as the structure at entry.
    fn show(half: Half, d: &[u8], entry: &[u8], mem: &[u8], x: Xlat, strsize: usize) -> String {
        let read = |addr: u64, n: usize| {
            let at = addr.checked_sub(0x1000)? as usize;
            mem.get(at..at.checked_add(n)?).map(<[u8]>::to_vec)
        };
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x,
            verbose: false,
            strsize,
        };
        assert!(half(
            &mut o,
            d,
            Mem {
                read: Some(&read),
                entry
            }
        ));
        s
    }

    fn version(lens: [u64; 3], ptrs: [u64; 3]) -> Vec<u8> {
        let mut d = vec![0u8; 64];
        d[0..4].copy_from_slice(&1i32.to_le_bytes());
        for k in 0..3 {
            d[16 + 16 * k..24 + 16 * k].copy_from_slice(&lens[k].to_le_bytes());
            d[24 + 16 * k..32 + 16 * k].copy_from_slice(&ptrs[k].to_le_bytes());
        }
        d
    }

    /// The kernel copies what the caller's buffer holds and gives back the
    /// string's whole length: the string is shown as far as the buffer went,
    /// with `...`; a pointer nothing is readable at stays an address.
    #[test]
    fn version_strings_cut_by_the_buffer() {
        let mem = b"i915xxxxIntel Graphics";
        let entry = version([2, 0, 64], [0x1000, 0, 0x1008]);
        let exit = version([4, 8, 14], [0x1000, 0x9000, 0x1008]);
        assert_eq!(
            show(version_out, &exit, &entry, mem, Xlat::Abbrev, 32),
            "{version_major=1, version_minor=0, version_patchlevel=0, name_len=4, name=\"i9\"..., \
             date_len=8, date=\"\"..., desc_len=14, desc=\"Intel Graphics\"}"
        );
        // an unreadable buffer the kernel wrote to: its address
        let entry = version([4, 8, 64], [0x1000, 0x9000, 0x1008]);
        assert_eq!(
            show(version_out, &exit, &entry, mem, Xlat::Abbrev, 3),
            "{version_major=1, version_minor=0, version_patchlevel=0, name_len=4, name=\"i91\"..., \
             date_len=8, date=0x9000, desc_len=14, desc=\"Int\"...}"
        );
    }

    #[test]
    fn handle_arrays_follow_strsize_and_unreadable_is_an_address() {
        let mut mem = Vec::new();
        for h in 1u32..=5 {
            mem.extend_from_slice(&h.to_le_bytes());
        }
        let mut d = vec![0u8; 16];
        d[0..8].copy_from_slice(&0x1000u64.to_le_bytes());
        d[8..12].copy_from_slice(&5u32.to_le_bytes());
        assert_eq!(
            show(syncobj_array, &d, &d, &mem, Xlat::Abbrev, 3),
            "{handles=[1, 2, 3, ...], count_handles=5}"
        );
        assert_eq!(
            show(syncobj_array, &d, &d, &mem, Xlat::Abbrev, 32),
            "{handles=[1, 2, 3, 4, 5], count_handles=5}"
        );
        // six handles where five are mapped
        d[8..12].copy_from_slice(&6u32.to_le_bytes());
        assert_eq!(
            show(syncobj_array, &d, &d, &mem, Xlat::Abbrev, 32),
            "{handles=0x1000, count_handles=6}"
        );
    }

    #[test]
    fn names_in_raw_and_verbose() {
        let mut d = vec![0u8; 16];
        d[0] = 5;
        d[8] = 3;
        assert_eq!(
            show(cap, &d, &d, &[], Xlat::Verbose, 32),
            "{capability=0x5 /* DRM_CAP_PRIME */}"
        );
        assert_eq!(show(cap_value, &d, &d, &[], Xlat::Raw, 32), "{value=0x3}");
        let mut p = vec![0u8; 12];
        p[4..8].copy_from_slice(&0x80006u32.to_le_bytes());
        assert_eq!(
            show(prime_handle, &p, &p, &[], Xlat::Abbrev, 32),
            "{handle=0, flags=DRM_CLOEXEC|DRM_RDWR|0x4}"
        );
        assert_eq!(
            show(prime_handle, &p, &p, &[], Xlat::Verbose, 32),
            "{handle=0, flags=0x80006 /* DRM_CLOEXEC|DRM_RDWR|0x4 */}"
        );
    }

    /// What the kernel copies only when the caller's array holds it all
    /// (a blob, a plane's formats) is an address when it did not; what it
    /// copies as far as there is room (resource ids) is cut there.
    #[test]
    fn copies_bounded_by_the_callers_room() {
        let mem = b"XR24AR24";
        let mut entry = vec![0u8; 16];
        entry[0] = 81;
        entry[4] = 4;
        entry[8..16].copy_from_slice(&0x1000u64.to_le_bytes());
        let mut exit = entry.clone();
        exit[4] = 8;
        assert_eq!(
            show(get_blob, &exit, &entry, mem, Xlat::Abbrev, 32),
            "{length=8, data=0x1000}"
        );
        entry[4] = 8;
        assert_eq!(
            show(get_blob, &exit, &entry, mem, Xlat::Abbrev, 32),
            "{length=8, data=\"XR24AR24\"}"
        );
        let mut plane_in = vec![0u8; 32];
        plane_in[20] = 1;
        plane_in[24..32].copy_from_slice(&0x1000u64.to_le_bytes());
        let mut plane_out = plane_in.clone();
        plane_out[20] = 2;
        assert_eq!(
            show(plane, &plane_out, &plane_in, mem, Xlat::Abbrev, 32),
            "{crtc_id=0, fb_id=0, possible_crtcs=0, gamma_size=0, count_format_types=2, \
             format_type_ptr=0x1000}"
        );
        plane_in[20] = 2;
        assert_eq!(
            show(plane, &plane_out, &plane_in, mem, Xlat::Raw, 32),
            "{crtc_id=0, fb_id=0, possible_crtcs=0, gamma_size=0, count_format_types=2, \
             format_type_ptr=[0x34325258, 0x34325241]}"
        );
        // GETRESOURCES: room for one crtc of two
        let ids_mem = [31u8, 0, 0, 0, 32, 0, 0, 0];
        let mut res_in = vec![0u8; 64];
        res_in[8..16].copy_from_slice(&0x1000u64.to_le_bytes());
        res_in[36] = 1;
        let mut res_out = res_in.clone();
        res_out[36] = 2;
        let text = show(card_res, &res_out, &res_in, &ids_mem, Xlat::Abbrev, 32);
        assert!(text.contains("count_crtcs=2, crtc_id_ptr=[31], "), "{text}");
    }
}
