//! ioctl requests of the V4L2 family (a child module of `ioctl`: see
//! [`super::decode`] and [`super::How`]), decoded as strace 6.1 prints
//! them: what the caller gives at entry, what the kernel gave back at exit
//! (nothing more when the call failed), the structures strace knows.

use std::fmt::Write;

use super::super::{
    second_level, ArgWriter, CallView, CapCond, CapKind, CapPlan, CapWhen, CaptureItem,
};
use super::{i32at, input, ioc_size, output, u16at, u32at, u64at, How, Out};
use crate::fmt::{self, Xlat};

#[path = "ioctl_v4l2_xlat.rs"]
mod xlat;
use xlat::*;

/// The capture slot holding `v4l2_format`'s clips (G/S/TRY_FMT): the
/// descriptor's slot, a number never copied (see `ioctl::plan`).
pub(super) const CLIPS_SLOT: u8 = 0;
/// The capture slot holding VIDIOC_CREATE_BUFS's format's clips.
pub(super) const CREATE_CLIPS_SLOT: u8 = 5;
/// The capture slot holding `v4l2_ext_controls`' controls (shared with
/// KDFONTOP's data: both at word 3).
pub(super) const CONTROLS_SLOT: u8 = 4;
/// Bytes of one `v4l2_clip` and of one `v4l2_ext_control`.
const CLIP: usize = 24;
const EXT_CONTROL: usize = 20;
/// As many elements as strace shows by default (-s 32), and one more to
/// know whether it could be read.
pub(super) const CLIPS_MAX: u32 = (CLIP * 33) as u32;
pub(super) const CONTROLS_MAX: u32 = (EXT_CONTROL * 33) as u32;

/// The names strace 6.1 gives the 'V' requests where the kernel headers'
/// table says otherwise: its table has none of the v4l2-subdev aliases of
/// the VIDIOC_ requests, and has requests the headers generator misses.
static NAMES: &[(u32, &str)] = &[
    (0x000056c0, "ADV7842_CMD_RAM_TEST"),
    (0x400456c1, "IVTV_IOC_PASSTHROUGH_MODE"),
    (0x40085618, "VIDIOC_S_STD"),
    (0x400856c1, "VIDIOC_AM437X_CCDC_CFG"),
    (0x401856c0, "IVTVFB_IOC_DMA_FRAME"),
    (0x4020565a, "VIDIOC_SUBSCRIBE_EVENT"),
    (0x4020565b, "VIDIOC_UNSUBSCRIBE_EVENT"),
    (0x4038564f, "VIDIOC_DBG_S_REGISTER"),
    (0x404056c0, "IVTV_IOC_DMA_FRAME"),
    (0x80085617, "VIDIOC_G_STD"),
    (0x8008563f, "VIDIOC_QUERYSTD"),
    (0x80805659, "VIDIOC_DQEVENT_TIME32"),
    (0x80845663, "VIDIOC_QUERY_DV_TIMINGS"),
    (0x80885659, "VIDIOC_DQEVENT"),
    (0xc00856c7, "VIDIOC_OMAP3ISP_STAT_EN"),
    (0xc018560b, "VBG_IOCTL_INTERRUPT_ALL_WAIT_FOR_EVENTS"),
    (0xc01856c6, "VIDIOC_OMAP3ISP_STAT_REQ_TIME32"),
    (0xc01c5605, "VBG_IOCTL_HGCM_DISCONNECT"),
    (0xc01c5613, "VBG_IOCTL_WRITE_CORE_DUMP"),
    (0xc01c56c0, "SI4713_IOC_MEASURE_RNL"),
    (0xc020560a, "VBG_IOCTL_WAIT_FOR_EVENTS"),
    (0xc020560c, "VBG_IOCTL_CHANGE_FILTER_MASK"),
    (0xc020560e, "VBG_IOCTL_CHANGE_GUEST_CAPABILITIES"),
    (0xc0205611, "VBG_IOCTL_CHECK_BALLOON"),
    (0xc02056c3, "VIDIOC_OMAP3ISP_AEWB_CFG"),
    (0xc024560d, "VBG_IOCTL_ACQUIRE_GUEST_CAPABILITIES"),
    (0xc0285628, "VIDIOC_G_EDID"),
    (0xc0285629, "VIDIOC_S_EDID"),
    (0xc02856c6, "VIDIOC_OMAP3ISP_STAT_REQ"),
    (0xc02c5600, "VBG_IOCTL_DRIVER_VERSION_INFO"),
    (0xc03056c4, "VIDIOC_OMAP3ISP_HIST_CFG"),
    (0xc0385650, "VIDIOC_DBG_G_REGISTER"),
    (0xc03856c1, "VIDIOC_OMAP3ISP_CCDC_CFG"),
    (0xc0485619, "VIDIOC_ENUMSTD"),
    (0xc04c56c5, "VIDIOC_OMAP3ISP_AF_CFG"),
    (0xc0505609, "VIDIOC_QUERYBUF_TIME32"),
    (0xc050560f, "VIDIOC_QBUF_TIME32"),
    (0xc0505611, "VIDIOC_DQBUF_TIME32"),
    (0xc050565d, "VIDIOC_PREPARE_BUF_TIME32"),
    (0xc07056c2, "VIDIOC_OMAP3ISP_PRV_CFG"),
    (0xc0845657, "VIDIOC_S_DV_TIMINGS"),
    (0xc0845658, "VIDIOC_G_DV_TIMINGS"),
    (0xc0905664, "VIDIOC_DV_TIMINGS_CAP"),
    (0xc0945662, "VIDIOC_ENUM_DV_TIMINGS"),
    (0xc09c5604, "VBG_IOCTL_HGCM_CONNECT"),
];

/// The request's name when strace's differs from the kernel headers'.
pub(super) fn name(req: u64) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|(k, _)| *k as u64 == req)
        .map(|(_, n)| *n)
}

const QUERYCAP: u32 = 0x8068_5600;
const ENUM_FMT: u32 = 0xc040_5602;
const G_FMT: u32 = 0xc0d0_5604;
const S_FMT: u32 = 0xc0d0_5605;
const REQBUFS: u32 = 0xc014_5608;
const QUERYBUF: u32 = 0xc058_5609;
const G_FBUF: u32 = 0x8030_560a;
const S_FBUF: u32 = 0x4030_560b;
const QBUF: u32 = 0xc058_560f;
const DQBUF: u32 = 0xc058_5611;
const STREAMON: u32 = 0x4004_5612;
const STREAMOFF: u32 = 0x4004_5613;
const G_PARM: u32 = 0xc0cc_5615;
const S_PARM: u32 = 0xc0cc_5616;
const G_STD: u32 = 0x8008_5617;
const S_STD: u32 = 0x4008_5618;
const ENUMSTD: u32 = 0xc048_5619;
const ENUMINPUT: u32 = 0xc050_561a;
const G_CTRL: u32 = 0xc008_561b;
const S_CTRL: u32 = 0xc008_561c;
const G_TUNER: u32 = 0xc054_561d;
const S_TUNER: u32 = 0x4054_561e;
const QUERYCTRL: u32 = 0xc044_5624;
const G_INPUT: u32 = 0x8004_5626;
const S_INPUT: u32 = 0xc004_5627;
const CROPCAP: u32 = 0xc02c_563a;
const G_CROP: u32 = 0xc014_563b;
const S_CROP: u32 = 0x4014_563c;
const TRY_FMT: u32 = 0xc0d0_5640;
const G_EXT_CTRLS: u32 = 0xc020_5647;
const S_EXT_CTRLS: u32 = 0xc020_5648;
const TRY_EXT_CTRLS: u32 = 0xc020_5649;
const ENUM_FRAMESIZES: u32 = 0xc02c_564a;
const ENUM_FRAMEINTERVALS: u32 = 0xc034_564b;
const CREATE_BUFS: u32 = 0xc100_565c;
const QUERY_EXT_CTRL: u32 = 0xc0e8_5667;

/// How the request's argument is printed; None leaves it to the default.
pub(super) fn how(req: u32) -> Option<How> {
    Some(match req {
        QUERYCAP => How::Out(capability),
        ENUM_FMT => How::Custom(fmtdesc),
        G_FMT | S_FMT | TRY_FMT => How::Custom(format),
        REQBUFS => How::Custom(requestbuffers),
        QUERYBUF | QBUF | DQBUF => How::Custom(buffer),
        G_FBUF => How::Out(framebuffer),
        S_FBUF => How::In(framebuffer),
        STREAMON | STREAMOFF => How::In(buf_type),
        G_PARM | S_PARM => How::Custom(streamparm),
        G_STD => How::Out(std_id),
        S_STD => How::In(std_id),
        ENUMSTD => How::Custom(standard),
        ENUMINPUT => How::Custom(input_),
        G_CTRL | S_CTRL => How::Custom(control),
        G_TUNER | S_TUNER => How::Custom(tuner),
        QUERYCTRL | QUERY_EXT_CTRL => How::Custom(queryctrl),
        G_INPUT => How::Out(uint),
        S_INPUT => How::In(uint),
        CROPCAP => How::Custom(cropcap),
        G_CROP | S_CROP => How::Custom(crop),
        G_EXT_CTRLS | S_EXT_CTRLS | TRY_EXT_CTRLS => How::Custom(ext_controls),
        ENUM_FRAMESIZES => How::Custom(frmsizeenum),
        ENUM_FRAMEINTERVALS => How::Custom(frmivalenum),
        CREATE_BUFS => How::Custom(create_buffers),
        _ => return None,
    })
}

/// The sizes of the structures the requests read or write, for the requests
/// whose number does not encode it (BPF copies that many bytes).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    Vec::new()
}

/// The capture slots for the arrays the structures point to: G/S/TRY_FMT's
/// clips (the 64-bit word 4 of v4l2_format), G/S/TRY_EXT_CTRLS' controls
/// (word 3 of v4l2_ext_controls), each request's number masked to one
/// value; VIDIOC_CREATE_BUFS's clips.
pub(super) fn plan(out: &mut [CapPlan; 6]) {
    let slot = |word: u8, max: u32, mask: u32, val: u32| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Both,
        len_arg: 0xff,
        max,
        src_arg: Some(2),
        deref: Some(word),
        cond: Some(CapCond {
            arg: 1,
            mask,
            val,
            val2: val,
            bitmap: false,
        }),
        ..Default::default()
    };
    // 0x04, 0x05, 0x40 (and no other request of this size) have no bit of 0xba
    out[CLIPS_SLOT as usize] = slot(4, CLIPS_MAX, 0xffff_ffba, G_FMT & 0xffff_ffba);
    // 0x47, 0x48, 0x49 share bit 0x40 (and so does only an omap3isp request)
    out[CONTROLS_SLOT as usize] = slot(3, CONTROLS_MAX, 0xffff_ff40, G_EXT_CTRLS & 0xffff_ff40);
    // VIDIOC_CREATE_BUFS: its format 16 bytes on, the clips in word 6
    out[CREATE_CLIPS_SLOT as usize] = slot(6, CLIPS_MAX, u32::MAX, CREATE_BUFS);
}

/// VIDIOC_CREATE_BUFS's return value: `42 ({index=..., count=...})`.
pub(super) fn return_text(s: &mut String, call: &CallView<'_>) -> bool {
    if call.args[1] as u32 != CREATE_BUFS {
        return false;
    }
    let Some((ret, caps)) = call.exit else {
        return false;
    };
    let Some(d) = super::tried(caps).flatten().filter(|d| d.len() >= 8) else {
        return false;
    };
    let _ = write!(
        s,
        "= {ret} ({{index={}, count={}}})",
        u32at(&d, 0),
        u32at(&d, 4)
    );
    true
}

// ---- the writer and the call's halves ----

fn out<'a>(w: &'a mut ArgWriter<'_>) -> Out<'a> {
    super::ptp_writer(w)
}

/// The struct at entry: its bytes, or (printed) the address when it could
/// not be read.
fn begin(w: &mut ArgWriter<'_>) -> Option<Vec<u8>> {
    let (req, v) = (w.call.args[1] as u32, w.call.args[2]);
    w.sep();
    match input(w, req).filter(|d| d.len() >= ioc_size(req)) {
        Some(d) => Some(d),
        None => {
            fmt::ptr(&mut w.s, v);
            None
        }
    }
}

/// What the exit has to show.
enum End {
    /// The call has not returned (yet).
    Pending,
    /// It failed, or the struct could not be read back.
    Nothing,
    /// The struct the kernel gave back.
    Data(Vec<u8>),
}

fn end(w: &mut ArgWriter<'_>) -> End {
    if !w.exiting_inside() {
        return End::Pending;
    }
    if w.call.ret().is_some_and(|r| r < 0) {
        return End::Nothing;
    }
    let req = w.call.args[1] as u32;
    match output(w, req).filter(|d| d.len() >= ioc_size(req)) {
        Some(d) => End::Data(d),
        None => End::Nothing,
    }
}

/// The memory a pointer inside the struct points to, as the capture `slot`
/// copied it (entry's, else exit's for `at_exit` or an injected call), else
/// from the live process element by element: the bytes and whether they
/// stop at memory that could not be read.
fn pointed(
    w: &ArgWriter<'_>,
    slot: u8,
    at_exit: bool,
    addr: u64,
    elem: usize,
    n: usize,
) -> Option<(Vec<u8>, bool)> {
    let find = |caps: &[super::super::Capture]| {
        caps.iter()
            .find(|c| c.arg == slot && c.item == CaptureItem::Data)
            .map(|c| (c.data.clone(), c.fault))
    };
    let exit = w.call.exit.and_then(|(_, caps)| find(caps));
    let got = if at_exit {
        exit
    } else {
        find(w.call.enter).or(exit)
    };
    if got.is_some() {
        return got;
    }
    let read = w.env.read_mem?;
    let mut data = Vec::new();
    for k in 0..n {
        match read(addr.wrapping_add((k * elem) as u64), elem) {
            Some(b) if b.len() == elem => data.extend_from_slice(&b),
            _ => return Some((data, true)),
        }
    }
    Some((data, false))
}

/// strace's print_array: `[a, b, ... /* addr */]`, the address alone when
/// the first element could not be read; true when all were.
fn array(
    o: &mut Out<'_>,
    data: Option<&(Vec<u8>, bool)>,
    addr: u64,
    n: u64,
    elem: usize,
    mut each: impl FnMut(&mut Out<'_>, &[u8]),
) -> bool {
    if addr == 0 {
        o.put("NULL");
        return false;
    }
    if n == 0 {
        o.put("[]");
        return false;
    }
    if n.checked_mul(elem as u64)
        .and_then(|size| addr.checked_add(size))
        .is_none()
    {
        fmt::ptr(o.s, addr);
        return false;
    }
    let (bytes, fault): (&[u8], bool) = match data {
        Some((b, f)) => (b, *f),
        None => (&[], true),
    };
    let have = (bytes.len() / elem) as u64;
    for k in 0..n {
        let at = addr.wrapping_add(k * elem as u64);
        if k >= have {
            if k == 0 {
                fmt::ptr(o.s, at);
                return false;
            }
            o.put(", ");
            if fault {
                let _ = write!(o.s, "... /* {at:#x} */]");
                return false;
            }
            // copied no further: as far as strace shows without -v
            o.put("...]");
            return true;
        }
        o.put(if k == 0 { "[" } else { ", " });
        if !o.verbose && k >= o.strsize as u64 {
            o.put("...]");
            return true;
        }
        let at = k as usize * elem;
        each(o, &bytes[at..at + elem]);
    }
    o.put("]");
    true
}

// ---- the pieces ----

fn rect(o: &mut Out<'_>, d: &[u8], at: usize) {
    let _ = write!(
        o.s,
        "{{left={}, top={}, width={}, height={}}}",
        i32at(d, at),
        i32at(d, at + 4),
        u32at(d, at + 8),
        u32at(d, at + 12)
    );
}

fn fract(o: &mut Out<'_>, d: &[u8], at: usize) {
    let _ = write!(o.s, "{}/{}", u32at(d, at), u32at(d, at + 4));
}

/// A four-character code: `v4l2_fourcc('a', 'b', 'c', 'd')` and the
/// format's name in a comment; with -X raw the number.
fn fourcc(o: &mut Out<'_>, v: u64, table: Option<&[(u64, &str)]>) {
    if o.x == Xlat::Raw {
        fmt::hex(o.s, v);
        return;
    }
    o.put("v4l2_fourcc(");
    for k in 0..4 {
        if k > 0 {
            o.put(", ");
        }
        let c = (v >> (8 * k)) as u8;
        match c {
            b'\'' | b'\\' => {
                let _ = write!(o.s, "'\\{}'", c as char);
            }
            0x20..=0x7e => {
                let _ = write!(o.s, "'{}'", c as char);
            }
            _ => {
                let _ = write!(o.s, "'\\x{c:02x}'");
            }
        }
    }
    o.put(")");
    if let Some((_, n)) = table.and_then(|t| t.iter().find(|(k, _)| *k == v)) {
        let _ = write!(o.s, " /* {n} */");
    }
}

/// A name strace prints as a constant's (`-X verbose`: the number first).
fn named(o: &mut Out<'_>, v: u64, name: &str) {
    match o.x {
        Xlat::Abbrev => o.put(name),
        Xlat::Verbose => {
            fmt::hex(o.s, v);
            let _ = write!(o.s, " /* {name} */");
        }
        Xlat::Raw => fmt::hex(o.s, v),
    }
}

/// A control id: its name, or its class and the offset in it; the
/// V4L2_CTRL_FLAG_NEXT_ flags first where they may be there.
fn cid(o: &mut Out<'_>, mut v: u64, next: bool) {
    if o.x == Xlat::Raw {
        fmt::hex(o.s, v);
        return;
    }
    if next {
        let f = v & 0xc000_0000;
        if f != 0 {
            o.flags(f, CONTROL_QUERY_FLAGS, "V4L2_CTRL_FLAG_NEXT_???");
            o.put("|");
            v &= !f;
        }
    }
    if let Some((_, n)) = CONTROL_IDS.iter().find(|(k, _)| *k == v) {
        named(o, v, n);
        return;
    }
    let class = CONTROL_CLASSES.iter().rev().find(|(k, _)| *k <= v);
    match class {
        Some(&(base, n)) if v - base < 0x10000 => {
            let mut t = format!("{n}+");
            fmt::hex(&mut t, v - base);
            named(o, v, &t);
        }
        _ => {
            fmt::hex(o.s, v);
            o.put(" /* V4L2_CID_??? */");
        }
    }
}

fn kernel_version(o: &mut Out<'_>, v: u64) {
    if o.x != Xlat::Abbrev {
        fmt::hex(o.s, v);
    }
    if o.x == Xlat::Raw {
        return;
    }
    if o.x == Xlat::Verbose {
        o.put(" /* ");
    }
    let _ = write!(
        o.s,
        "KERNEL_VERSION({}, {}, {})",
        v >> 16,
        (v >> 8) & 0xff,
        v & 0xff
    );
    if o.x == Xlat::Verbose {
        o.put(" */");
    }
}

fn buf_type(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 4 {
        return false;
    }
    o.put("[");
    o.xval(u32at(d, 0), BUF_TYPES, "V4L2_BUF_TYPE_???");
    o.put("]");
    true
}

fn type_field(o: &mut Out<'_>, d: &[u8], at: usize) {
    o.put("type=");
    o.xval(u32at(d, at), BUF_TYPES, "V4L2_BUF_TYPE_???");
}

fn uint(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 4 {
        return false;
    }
    let _ = write!(o.s, "[{}]", u32at(d, 0));
    true
}

fn std_id(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 8 {
        return false;
    }
    o.put("[");
    fmt::hex(o.s, u64at(d, 0));
    o.put("]");
    true
}

// ---- the structures ----

fn capability(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 104 {
        return false;
    }
    o.put("{driver=");
    o.cstring(&d[0..16]);
    o.put(", card=");
    o.cstring(&d[16..48]);
    o.put(", bus_info=");
    o.cstring(&d[48..80]);
    o.put(", version=");
    kernel_version(o, u32at(d, 80));
    o.put(", capabilities=");
    o.flags(u32at(d, 84), DEVICE_CAPABILITIES_FLAGS, "V4L2_CAP_???");
    if u32at(d, 88) != 0 {
        o.put(", device_caps=");
        o.flags(u32at(d, 88), DEVICE_CAPABILITIES_FLAGS, "V4L2_CAP_???");
    }
    o.put("}");
    true
}

fn fmtdesc(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    let _ = write!(o.s, "{{index={}, ", u32at(&d, 0));
    type_field(&mut o, &d, 4);
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(", flags=");
        o.flags(u32at(&d, 8), FORMAT_DESCRIPTION_FLAGS, "V4L2_FMT_FLAG_???");
        o.put(", description=");
        o.cstring(&d[12..44]);
        o.put(", pixelformat=");
        fourcc(&mut o, u32at(&d, 44), Some(PIX_FMTS));
    }
    o.put("}");
}

/// The format union of the struct at `at` (its type, then the union 8
/// bytes on) after `prefix`, as its type says; None when strace does not
/// know the type (nothing printed), else whether the clips could be read.
fn format_fmt(
    o: &mut Out<'_>,
    d: &[u8],
    at: usize,
    prefix: &str,
    clips: Option<&(Vec<u8>, bool)>,
) -> Option<bool> {
    let ty = u32at(d, at);
    let f = at + 8;
    let mut ok = true;
    match ty {
        1 | 2 => {
            o.put(prefix);
            let _ = write!(
                o.s,
                "fmt.pix={{width={}, height={}, pixelformat=",
                u32at(d, f),
                u32at(d, f + 4)
            );
            fourcc(o, u32at(d, f + 8), Some(PIX_FMTS));
            o.put(", field=");
            o.xval(u32at(d, f + 12), FIELDS, "V4L2_FIELD_???");
            let _ = write!(
                o.s,
                ", bytesperline={}, sizeimage={}, colorspace=",
                u32at(d, f + 16),
                u32at(d, f + 20)
            );
            o.xval(u32at(d, f + 24), COLORSPACES, "V4L2_COLORSPACE_???");
            o.put("}");
        }
        9 | 10 => {
            o.put(prefix);
            let _ = write!(
                o.s,
                "fmt.pix_mp={{width={}, height={}, pixelformat=",
                u32at(d, f),
                u32at(d, f + 4)
            );
            fourcc(o, u32at(d, f + 8), Some(PIX_FMTS));
            o.put(", field=");
            o.xval(u32at(d, f + 12), FIELDS, "V4L2_FIELD_???");
            o.put(", colorspace=");
            o.xval(u32at(d, f + 16), COLORSPACES, "V4L2_COLORSPACE_???");
            o.put(", plane_fmt=");
            let planes = d[f + 180] as usize;
            o.array(planes.min(8), |o, k| {
                let p = f + 20 + 20 * k;
                let _ = write!(
                    o.s,
                    "{{sizeimage={}, bytesperline={}}}",
                    u32at(d, p),
                    u32at(d, p + 4)
                );
            });
            let _ = write!(o.s, ", num_planes={planes}}}");
        }
        3 | 8 => {
            o.put(prefix);
            o.put("fmt.win={w=");
            rect(o, d, f);
            o.put(", field=");
            o.xval(u32at(d, f + 16), FIELDS, "V4L2_FIELD_???");
            o.put(", chromakey=");
            fmt::hex(o.s, u32at(d, f + 20));
            o.put(", clips=");
            let (addr, n) = (u64at(d, f + 24), u32at(d, f + 32));
            ok = array(o, clips, addr, n, CLIP, |o, c| {
                o.put("{c=");
                rect(o, c, 0);
                o.put("}");
            });
            let _ = write!(o.s, ", clipcount={n}, bitmap=");
            fmt::ptr(o.s, u64at(d, f + 40));
            if d[f + 48] != 0 {
                o.put(", global_alpha=");
                fmt::hex(o.s, d[f + 48] as u64);
            }
            o.put("}");
        }
        4 | 5 => {
            o.put(prefix);
            let _ = write!(
                o.s,
                "fmt.vbi={{sampling_rate={}, offset={}, samples_per_line={}, sample_format=",
                u32at(d, f),
                u32at(d, f + 4),
                u32at(d, f + 8)
            );
            fourcc(o, u32at(d, f + 12), Some(PIX_FMTS));
            let _ = write!(
                o.s,
                ", start=[{}, {}], count=[{}, {}], flags=",
                i32at(d, f + 16),
                i32at(d, f + 20),
                u32at(d, f + 24),
                u32at(d, f + 28)
            );
            o.flags(u32at(d, f + 32), VBI_FLAGS, "V4L2_VBI_???");
            o.put("}");
        }
        6 | 7 => {
            o.put(prefix);
            o.put("fmt.sliced={service_set=");
            o.flags(u16at(d, f), SLICED_FLAGS, "V4L2_SLICED_???");
            o.put(", service_lines=[");
            for i in 0..2 {
                if i > 0 {
                    o.put(", ");
                }
                o.put("[");
                for j in 0..24 {
                    if j > 0 {
                        o.put(", ");
                    }
                    fmt::hex(o.s, u16at(d, f + 2 + 48 * i + 2 * j));
                }
                o.put("]");
            }
            let _ = write!(o.s, "], io_size={}}}", u32at(d, f + 100));
        }
        11 | 12 => {
            o.put(prefix);
            o.put("fmt.sdr={pixelformat=");
            fourcc(o, u32at(d, f), Some(SDR_FMTS));
            if u32at(d, f + 4) != 0 {
                let _ = write!(o.s, ", buffersize={}", u32at(d, f + 4));
            }
            o.put("}");
        }
        13 | 14 => {
            o.put(prefix);
            o.put("fmt.meta={dataformat=");
            fourcc(o, u32at(d, f), Some(META_FMTS));
            let _ = write!(o.s, ", buffersize={}}}", u32at(d, f + 4));
        }
        _ => return None,
    }
    Some(ok)
}

/// The clips of the format at `at` (a `v4l2_window`'s), as copied.
fn clips(w: &ArgWriter<'_>, d: &[u8], at: usize, at_exit: bool) -> Option<(Vec<u8>, bool)> {
    if !matches!(u32at(d, at), 3 | 8) {
        return None;
    }
    let (addr, n) = (u64at(d, at + 32), u32at(d, at + 40) as usize);
    let n = if w.opts.verbose {
        n
    } else {
        n.min(w.opts.strsize + 1)
    };
    let slot = if at == 0 {
        CLIPS_SLOT
    } else {
        CREATE_CLIPS_SLOT
    };
    pointed(w, slot, at_exit, addr, CLIP, n)
}

fn format(w: &mut ArgWriter<'_>) {
    let req = w.call.args[1] as u32;
    let get = req == G_FMT;
    let Some(d) = begin(w) else { return };
    let c = if get { None } else { clips(w, &d, 0, false) };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 0);
    if !get && format_fmt(&mut o, &d, 0, ", ", c.as_ref()) != Some(true) {
        o.put("}");
        return;
    }
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    if let Some(d) = d {
        let c = clips(w, &d, 0, true);
        let mut o = out(w);
        let prefix = if get { ", " } else { "} => {" };
        format_fmt(&mut o, &d, 0, prefix, c.as_ref());
    }
    w.s.push('}');
}

fn requestbuffers(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 4);
    o.put(", memory=");
    o.xval(u32at(&d, 8), MEMORIES, "V4L2_MEMORY_???");
    let _ = write!(o.s, ", count={}", u32at(&d, 0));
    match end(w) {
        End::Pending => return,
        End::Nothing => {}
        End::Data(d) => {
            let _ = write!(w.s, " => {}", u32at(&d, 0));
        }
    }
    w.s.push('}');
}

fn buf_flags(o: &mut Out<'_>, v: u64) {
    if o.x == Xlat::Raw {
        fmt::hex(o.s, v);
        return;
    }
    let (ts_type, ts_src) = (v & 0xe000, v & 0x7_0000);
    let rest = v & !0xe000 & !0x7_0000;
    if rest != 0 {
        o.flags(rest, BUF_FLAGS, "V4L2_BUF_FLAG_???");
        o.put("|");
    }
    o.xval(ts_type, BUF_FLAGS_TS_TYPE, "V4L2_BUF_FLAG_TIMESTAMP_???");
    o.put("|");
    o.xval(ts_src, BUF_FLAGS_TS_SRC, "V4L2_BUF_FLAG_TSTAMP_SRC_???");
}

fn buffer(w: &mut ArgWriter<'_>) {
    let dq = w.call.args[1] as u32 == DQBUF;
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 4);
    if !dq {
        let _ = write!(o.s, ", index={}", u32at(&d, 0));
    }
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        if dq {
            let _ = write!(o.s, ", index={}", u32at(&d, 0));
        }
        o.put(", memory=");
        let memory = u32at(&d, 60);
        o.xval(memory, MEMORIES, "V4L2_MEMORY_???");
        match memory {
            1 => {
                o.put(", m.offset=");
                fmt::hex(o.s, u32at(&d, 64));
            }
            2 => {
                o.put(", m.userptr=");
                fmt::ptr(o.s, u64at(&d, 64));
            }
            _ => {}
        }
        let _ = write!(
            o.s,
            ", length={}, bytesused={}, flags=",
            u32at(&d, 72),
            u32at(&d, 8)
        );
        buf_flags(&mut o, u32at(&d, 12));
        if dq {
            let _ = write!(
                o.s,
                ", timestamp={{tv_sec={}, tv_usec={}}}",
                u64at(&d, 24) as i64,
                u64at(&d, 32)
            );
        }
        o.put(", ...");
    }
    o.put("}");
}

fn framebuffer(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 16 {
        return false;
    }
    o.put("{capability=");
    fmt::hex(o.s, u32at(d, 0));
    o.put(", flags=");
    fmt::hex(o.s, u32at(d, 4));
    o.put(", base=");
    fmt::ptr(o.s, u64at(d, 8));
    o.put("}");
    true
}

fn streamparm_parm(o: &mut Out<'_>, d: &[u8]) {
    let capture = u32at(d, 0) == 1;
    o.put(if capture {
        "parm.capture={capability="
    } else {
        "parm.output={capability="
    });
    o.flags(u32at(d, 4), STREAMING_CAPABILITIES, "V4L2_CAP_???");
    o.put(if capture {
        ", capturemode="
    } else {
        ", outputmode="
    });
    o.flags(u32at(d, 8), CAPTURE_MODES, "V4L2_MODE_???");
    o.put(", timeperframe=");
    fract(o, d, 12);
    o.put(", extendedmode=");
    fmt::hex(o.s, u32at(d, 20));
    let _ = write!(
        o.s,
        ", {}={}}}",
        if capture {
            "readbuffers"
        } else {
            "writebuffers"
        },
        u32at(d, 24)
    );
}

fn streamparm(w: &mut ArgWriter<'_>) {
    let get = w.call.args[1] as u32 == G_PARM;
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 0);
    if !matches!(u32at(&d, 0), 1 | 2) {
        o.put("}");
        return;
    }
    if !get {
        o.put(", ");
        streamparm_parm(&mut o, &d);
    }
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(if get { ", " } else { "} => {" });
        streamparm_parm(&mut o, &d);
    }
    o.put("}");
}

/// The struct's index at entry, then after a successful return `tail`.
fn indexed(w: &mut ArgWriter<'_>, tail: fn(&mut Out<'_>, &[u8])) {
    let Some(d) = begin(w) else { return };
    let _ = write!(w.s, "{{index={}", u32at(&d, 0));
    match end(w) {
        End::Pending => return,
        End::Nothing => {}
        End::Data(d) => tail(&mut out(w), &d),
    }
    w.s.push('}');
}

fn standard(w: &mut ArgWriter<'_>) {
    indexed(w, |o, d| {
        o.put(", name=");
        o.cstring(&d[16..40]);
        o.put(", frameperiod=");
        fract(o, d, 40);
        let _ = write!(o.s, ", framelines={}", u32at(d, 48));
    });
}

fn input_(w: &mut ArgWriter<'_>) {
    indexed(w, |o, d| {
        o.put(", name=");
        o.cstring(&d[4..36]);
        o.put(", type=");
        o.xval(u32at(d, 36), INPUT_TYPES, "V4L2_INPUT_TYPE_???");
    });
}

fn control(w: &mut ArgWriter<'_>) {
    let get = w.call.args[1] as u32 == G_CTRL;
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{id=");
    cid(&mut o, u32at(&d, 0), false);
    if !get {
        let _ = write!(o.s, ", value={}", i32at(&d, 4));
    }
    match end(w) {
        End::Pending => return,
        End::Nothing => {}
        End::Data(d) if get => {
            let _ = write!(w.s, ", value={}", i32at(&d, 4));
        }
        End::Data(d) => {
            let _ = write!(w.s, " => {}", i32at(&d, 4));
        }
    }
    w.s.push('}');
}

fn tuner_body(o: &mut Out<'_>, d: &[u8]) {
    o.put("name=");
    o.cstring(&d[4..36]);
    o.put(", type=");
    o.xval(u32at(d, 36), TUNER_TYPES, "V4L2_TUNER_???");
    o.put(", capability=");
    o.flags(u32at(d, 40), TUNER_CAPABILITIES, "V4L2_TUNER_CAP_???");
    let _ = write!(
        o.s,
        ", rangelow={}, rangehigh={}, rxsubchans=",
        u32at(d, 44),
        u32at(d, 48)
    );
    o.flags(u32at(d, 52), TUNER_RXSUBCHANSES, "V4L2_TUNER_SUB_???");
    o.put(", audmode=");
    o.xval(u32at(d, 56), TUNER_AUDMODES, "V4L2_TUNER_MODE_???");
    let _ = write!(o.s, ", signal={}, afc={}", i32at(d, 60), i32at(d, 64));
}

fn tuner(w: &mut ArgWriter<'_>) {
    let get = w.call.args[1] as u32 == G_TUNER;
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    let _ = write!(o.s, "{{index={}", u32at(&d, 0));
    if !get {
        o.put(", ");
        tuner_body(&mut o, &d);
    }
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(if get { ", " } else { "} => {" });
        tuner_body(&mut o, &d);
    }
    o.put("}");
}

/// VIDIOC_QUERYCTRL and VIDIOC_QUERY_EXT_CTRL: the id asked (with the
/// NEXT flags), then the control found (its id when another).
fn queryctrl(w: &mut ArgWriter<'_>) {
    let ext = w.call.args[1] as u32 == QUERY_EXT_CTRL;
    let Some(d) = begin(w) else { return };
    let asked = u32at(&d, 0);
    let mut o = out(w);
    o.put("{id=");
    cid(&mut o, asked, true);
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    let Some(d) = d else {
        o.put("}");
        return;
    };
    if u32at(&d, 0) != asked {
        o.put(" => ");
        cid(&mut o, u32at(&d, 0), false);
    }
    o.put(", type=");
    o.xval(u32at(&d, 4), CONTROL_TYPES, "V4L2_CTRL_TYPE_???");
    o.put(", name=");
    o.cstring(&d[8..40]);
    if !o.verbose {
        o.put(", ...}");
        return;
    }
    let reserved = |o: &mut Out<'_>, at: usize, n: usize| {
        if (0..n).any(|k| u32at(&d, at + 4 * k) != 0) {
            o.put(", reserved=[");
            for k in 0..n {
                if k > 0 {
                    o.put(", ");
                }
                fmt::hex(o.s, u32at(&d, at + 4 * k));
            }
            o.put("]");
        }
    };
    if ext {
        let _ = write!(
            o.s,
            ", minimum={}, maximum={}, step={}, default_value={}, flags=",
            u64at(&d, 40) as i64,
            u64at(&d, 48) as i64,
            u64at(&d, 56),
            u64at(&d, 64) as i64
        );
        o.flags(u32at(&d, 72), CONTROL_FLAGS, "V4L2_CTRL_FLAG_???");
        let dims = u32at(&d, 84);
        let _ = write!(
            o.s,
            ", elem_size={}, elems={}, nr_of_dims={dims}, dims=",
            u32at(&d, 76),
            u32at(&d, 80)
        );
        o.array((dims as usize).min(4), |o, k| {
            let _ = write!(o.s, "{}", u32at(&d, 88 + 4 * k));
        });
        reserved(&mut o, 104, 32);
    } else {
        let _ = write!(
            o.s,
            ", minimum={}, maximum={}, step={}, default_value={}, flags=",
            i32at(&d, 40),
            i32at(&d, 44),
            i32at(&d, 48),
            i32at(&d, 52)
        );
        o.flags(u32at(&d, 56), CONTROL_FLAGS, "V4L2_CTRL_FLAG_???");
        reserved(&mut o, 60, 2);
    }
    o.put("}");
}

fn cropcap(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 0);
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(", bounds=");
        rect(&mut o, &d, 4);
        o.put(", defrect=");
        rect(&mut o, &d, 20);
        o.put(", pixelaspect=");
        fract(&mut o, &d, 36);
    }
    o.put("}");
}

fn crop(w: &mut ArgWriter<'_>) {
    let get = w.call.args[1] as u32 == G_CROP;
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    o.put("{");
    type_field(&mut o, &d, 0);
    if !get {
        o.put(", c=");
        rect(&mut o, &d, 4);
        o.put("}");
        return;
    }
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(", c=");
        rect(&mut o, &d, 4);
    }
    o.put("}");
}

/// One `v4l2_ext_control`: the string it points to when it has a size.
fn ext_control(o: &mut Out<'_>, c: &[u8], read: Option<&dyn Fn(u64, usize) -> Option<Vec<u8>>>) {
    o.put("{id=");
    o.xval(u32at(c, 0), CONTROL_IDS, "V4L2_CID_???");
    let size = u32at(c, 4);
    let _ = write!(o.s, ", size={size}");
    if size > 0 {
        o.put(", string=");
        let addr = u64at(c, 12);
        let n = if o.verbose {
            size as usize
        } else {
            (size as usize).min(o.strsize)
        };
        match read.filter(|_| addr != 0).and_then(|r| r(addr, n)) {
            Some(b) if b.len() == n => fmt::quoted(o.s, &b, n < size as usize, fmt::HexStr::None),
            _ => fmt::ptr(o.s, addr),
        }
    } else {
        let _ = write!(
            o.s,
            ", value={}, value64={}",
            i32at(c, 12),
            u64at(c, 12) as i64
        );
    }
    o.put("}");
}

fn ext_controls(w: &mut ArgWriter<'_>) {
    let get = w.call.args[1] as u32 == G_EXT_CTRLS;
    let (call, live) = (w.call, w.env.read_mem);
    // the strings as BPF copied them (slot 6) at this side of the call
    // (never the other side's: memory before the call is not the kernel's
    // answer, nor its answer the program's input); else read from the
    // live process
    let strings = |at_exit: bool| {
        move |addr: u64, n: usize| -> Option<Vec<u8>> {
            second_level::bytes(&call, second_level::SLOT_A, at_exit, addr, n)
                .map(<[u8]>::to_vec)
                .or_else(|| live.and_then(|r| r(addr, n)))
        }
    };
    let (at_entry, at_exit) = (strings(false), strings(true));
    let Some(d) = begin(w) else { return };
    let count = u32at(&d, 4);
    let mut o = out(w);
    o.put("{ctrl_class=");
    o.xval(u32at(&d, 0), CONTROL_CLASSES, "V4L2_CTRL_CLASS_???");
    let _ = write!(o.s, ", count={count}");
    if count == 0 {
        o.put("}");
        return;
    }
    let controls = |w: &ArgWriter<'_>, d: &[u8], at_exit: bool| {
        let n = u32at(d, 4) as usize;
        let n = if w.opts.verbose {
            n
        } else {
            n.min(w.opts.strsize + 1)
        };
        pointed(w, CONTROLS_SLOT, at_exit, u64at(d, 24), EXT_CONTROL, n)
    };
    if !get {
        let c = controls(w, &d, false);
        let mut o = out(w);
        o.put(", controls=");
        let n = u32at(&d, 4);
        let ok = array(&mut o, c.as_ref(), u64at(&d, 24), n, EXT_CONTROL, |o, e| {
            ext_control(o, e, Some(&at_entry))
        });
        if !ok {
            o.put("}");
            return;
        }
    }
    if !w.exiting_inside() {
        return;
    }
    // the controls are shown even when the call failed
    let req = w.call.args[1] as u32;
    let Some(d) = output(w, req).filter(|d| d.len() >= 32) else {
        w.s.push('}');
        return;
    };
    let failed = w.call.ret().is_some_and(|r| r < 0);
    let c = controls(w, &d, true);
    let mut o = out(w);
    o.put(if get { ", " } else { "} => {" });
    o.put("controls=");
    array(
        &mut o,
        c.as_ref(),
        u64at(&d, 24),
        u32at(&d, 4),
        EXT_CONTROL,
        |o, e| ext_control(o, e, Some(&at_exit)),
    );
    if failed {
        let _ = write!(o.s, ", error_idx={}", u32at(&d, 8));
    }
    o.put("}");
}

fn frmsizeenum(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    let _ = write!(o.s, "{{index={}, pixel_format=", u32at(&d, 0));
    fourcc(&mut o, u32at(&d, 4), Some(PIX_FMTS));
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(", type=");
        let ty = u32at(&d, 8);
        o.xval(ty, FRAMESIZE_TYPES, "V4L2_FRMSIZE_TYPE_???");
        match ty {
            1 => {
                let _ = write!(
                    o.s,
                    ", discrete={{width={}, height={}}}",
                    u32at(&d, 12),
                    u32at(&d, 16)
                );
            }
            3 => {
                let v: Vec<u64> = (0..6).map(|k| u32at(&d, 12 + 4 * k)).collect();
                let _ = write!(
                    o.s,
                    ", stepwise={{min_width={}, max_width={}, step_width={}, \
                     min_height={}, max_height={}, step_height={}}}",
                    v[0], v[1], v[2], v[3], v[4], v[5]
                );
            }
            _ => {}
        }
    }
    o.put("}");
}

fn frmivalenum(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let mut o = out(w);
    let _ = write!(o.s, "{{index={}, pixel_format=", u32at(&d, 0));
    fourcc(&mut o, u32at(&d, 4), Some(PIX_FMTS));
    let _ = write!(o.s, ", width={}, height={}", u32at(&d, 8), u32at(&d, 12));
    let d = match end(w) {
        End::Pending => return,
        End::Nothing => None,
        End::Data(d) => Some(d),
    };
    let mut o = out(w);
    if let Some(d) = d {
        o.put(", type=");
        let ty = u32at(&d, 16);
        o.xval(ty, FRAMEINTERVAL_TYPES, "V4L2_FRMIVAL_TYPE_???");
        match ty {
            1 => {
                o.put(", discrete=");
                fract(&mut o, &d, 20);
            }
            2 | 3 => {
                o.put(", stepwise={min=");
                fract(&mut o, &d, 20);
                o.put(", max=");
                fract(&mut o, &d, 28);
                o.put(", step=");
                fract(&mut o, &d, 36);
                o.put("}");
            }
            _ => {}
        }
    }
    o.put("}");
}

fn create_buffers(w: &mut ArgWriter<'_>) {
    let Some(d) = begin(w) else { return };
    let c = clips(w, &d, 16, false);
    let mut o = out(w);
    let _ = write!(o.s, "{{count={}, memory=", u32at(&d, 4));
    o.xval(u32at(&d, 8), MEMORIES, "V4L2_MEMORY_???");
    o.put(", format={");
    type_field(&mut o, &d, 16);
    format_fmt(&mut o, &d, 16, ", ", c.as_ref());
    o.put("}}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(x: Xlat, f: impl FnOnce(&mut Out<'_>)) -> String {
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x,
            verbose: false,
            strsize: 32,
        };
        f(&mut o);
        s
    }

    #[test]
    fn control_ids() {
        let id = |v: u64, next: bool, x: Xlat| with(x, |o| cid(o, v, next));
        assert_eq!(id(0, false, Xlat::Abbrev), "0 /* V4L2_CID_??? */");
        assert_eq!(id(0x980000, false, Xlat::Abbrev), "V4L2_CTRL_CLASS_USER+0");
        assert_eq!(
            id(0xa31234, false, Xlat::Verbose),
            "0xa31234 /* V4L2_CTRL_CLASS_DETECT+0x1234 */"
        );
        assert_eq!(
            id(0xa60000, false, Xlat::Abbrev),
            "0xa60000 /* V4L2_CID_??? */"
        );
        assert_eq!(
            id(0x990a64, false, Xlat::Abbrev),
            "V4L2_CID_MPEG_VIDEO_H264_CPB_SIZE"
        );
        assert_eq!(
            id(0x9b9a9998, true, Xlat::Verbose),
            "0x80000000 /* V4L2_CTRL_FLAG_NEXT_CTRL */|0x1b9a9998 /* V4L2_CID_??? */"
        );
        assert_eq!(id(0x9b9a9998, true, Xlat::Raw), "0x9b9a9998");
    }

    #[test]
    fn fourcc_and_flags() {
        let f = with(Xlat::Abbrev, |o| fourcc(o, 0x5c22270d, Some(PIX_FMTS)));
        assert_eq!(f, r#"v4l2_fourcc('\x0d', '\'', '"', '\\')"#);
        let f = with(Xlat::Abbrev, |o| fourcc(o, 0x38303553, Some(PIX_FMTS)));
        assert_eq!(
            f,
            "v4l2_fourcc('S', '5', '0', '8') /* V4L2_PIX_FMT_SPCA508 */"
        );
        let b = with(Xlat::Abbrev, |o| buf_flags(o, 0x268040));
        assert_eq!(
            b,
            "V4L2_BUF_FLAG_ERROR|0x200000|0x8000 /* V4L2_BUF_FLAG_TIMESTAMP_??? */\
             |0x60000 /* V4L2_BUF_FLAG_TSTAMP_SRC_??? */"
        );
        let k = with(Xlat::Verbose, |o| kernel_version(o, 0xd3d2d1d0));
        assert_eq!(k, "0xd3d2d1d0 /* KERNEL_VERSION(54226, 209, 208) */");
    }
}
