//! ioctl requests of the KD family (a child module of `ioctl`: see
//! [`super::decode`] and [`super::How`]): the console's sound, LEDs, modes,
//! keyboard maps, fonts and colour maps, as strace 6.1 prints them.

use std::fmt::Write;

use super::super::{ArgWriter, CapCond, CapKind, CapPlan, CapWhen, Capture, CaptureItem, Options};
use super::{u16at, u32at, u64at, How, Out};
use crate::fmt::{self, HexStr, Xlat};

/// The PIT's input clock (Hz), which the tone requests divide.
const PIT_TICK_RATE: u64 = 1_193_182;
/// Bytes of a screen map, entries of a Unicode one, key sequences of a
/// diacritics table.
const E_TABSZ: usize = 256;
const MAX_DIACR: u64 = 256;
/// GIO_FONT's and PIO_FONT's font: 256 characters of 32 rows of 8 bits.
const FONT_BYTES: usize = 8192;

const KIOCSOUND: u32 = 0x4b2f;
const KDMKTONE: u32 = 0x4b30;
const KDGETLED: u32 = 0x4b31;
const KDSETLED: u32 = 0x4b32;
const KDGKBTYPE: u32 = 0x4b33;
const KDADDIO: u32 = 0x4b34;
const KDDELIO: u32 = 0x4b35;
const KDENABIO: u32 = 0x4b36;
const KDDISABIO: u32 = 0x4b37;
const KDSETMODE: u32 = 0x4b3a;
const KDGETMODE: u32 = 0x4b3b;
const KDMAPDISP: u32 = 0x4b3c;
const KDUNMAPDISP: u32 = 0x4b3d;
const GIO_SCRNMAP: u32 = 0x4b40;
const PIO_SCRNMAP: u32 = 0x4b41;
const KDGKBMODE: u32 = 0x4b44;
const KDSKBMODE: u32 = 0x4b45;
const KDGKBENT: u32 = 0x4b46;
const KDSKBENT: u32 = 0x4b47;
const KDGKBSENT: u32 = 0x4b48;
const KDSKBSENT: u32 = 0x4b49;
const KDGKBDIACR: u32 = 0x4b4a;
const KDSKBDIACR: u32 = 0x4b4b;
const KDGETKEYCODE: u32 = 0x4b4c;
const KDSETKEYCODE: u32 = 0x4b4d;
const KDSIGACCEPT: u32 = 0x4b4e;
const KDKBDREP: u32 = 0x4b52;
const GIO_FONT: u32 = 0x4b60;
const PIO_FONT: u32 = 0x4b61;
const KDGKBMETA: u32 = 0x4b62;
const KDSKBMETA: u32 = 0x4b63;
const KDGKBLED: u32 = 0x4b64;
const KDSKBLED: u32 = 0x4b65;
const GIO_UNIMAP: u32 = 0x4b66;
const PIO_UNIMAP: u32 = 0x4b67;
const PIO_UNIMAPCLR: u32 = 0x4b68;
const GIO_UNISCRNMAP: u32 = 0x4b69;
const PIO_UNISCRNMAP: u32 = 0x4b6a;
const GIO_FONTX: u32 = 0x4b6b;
const PIO_FONTX: u32 = 0x4b6c;
const PIO_FONTRESET: u32 = 0x4b6d;
const GIO_CMAP: u32 = 0x4b70;
const PIO_CMAP: u32 = 0x4b71;
const KDFONTOP: u32 = 0x4b72;
const KDGKBDIACRUC: u32 = 0x4bfa;
const KDSKBDIACRUC: u32 = 0x4bfb;

/// How the request's argument is printed; None leaves it to the default.
pub(super) fn how(req: u32) -> Option<How> {
    Some(match req {
        KIOCSOUND => How::Val(kiocsound),
        KDMKTONE => How::Val(mktone),
        KDGETLED => How::Out(|o, d| bracketed_leds(o, d, LED_FLAGS)),
        KDGKBLED => How::Out(|o, d| bracketed_leds(o, d, DEFAULT_LED_FLAGS)),
        KDSETLED => How::Val(|o, v| o.flags(v & 0xff, LED_FLAGS, "LED_???")),
        KDSKBLED => How::Val(|o, v| o.flags(v & 0xff, DEFAULT_LED_FLAGS, "LED_???")),
        KDGKBTYPE => How::Out(|o, d| {
            let Some(&t) = d.first() else {
                return false;
            };
            o.put("[");
            o.xval(t as u64, KB_TYPES, "KB_???");
            o.put("]");
            true
        }),
        KDADDIO | KDDELIO => How::Val(io_port),
        KDENABIO | KDDISABIO | KDMAPDISP | KDUNMAPDISP | PIO_FONTRESET => How::Nothing,
        KDSETMODE => How::Val(|o, v| o.xval(v & 0xffff_ffff, KD_MODES, "KD_???")),
        KDGETMODE => How::Out(|o, d| bracketed_u32(o, d, |o, v| o.xval(v, KD_MODES, "KD_???"))),
        GIO_SCRNMAP | PIO_SCRNMAP => How::Custom(|w| {
            let get = req_of(w) == GIO_SCRNMAP;
            bytes_in_hex(w, get, E_TABSZ)
        }),
        GIO_FONT | PIO_FONT => How::Custom(|w| {
            let get = req_of(w) == GIO_FONT;
            bytes_in_hex(w, get, FONT_BYTES)
        }),
        GIO_CMAP | PIO_CMAP => How::Custom(|w| {
            let get = req_of(w) == GIO_CMAP;
            bytes_in_hex(w, get, 3 * 16)
        }),
        GIO_UNISCRNMAP | PIO_UNISCRNMAP => How::Custom(uni_screen_map),
        KDGKBMODE => How::Out(|o, d| bracketed_u32(o, d, kbd_mode)),
        KDSKBMODE => How::Val(kbd_mode),
        KDGKBENT | KDSKBENT => How::Custom(kbd_entry),
        KDGKBSENT | KDSKBSENT => How::Custom(kbd_str_entry),
        KDGKBDIACR | KDSKBDIACR | KDGKBDIACRUC | KDSKBDIACRUC => How::Custom(diacritics),
        KDGETKEYCODE | KDSETKEYCODE => How::Custom(keycode),
        KDSIGACCEPT => How::Custom(|w| {
            let v = w.call.args[2];
            let x = w.opts.xlat;
            w.sep();
            if v < i32::MAX as u64 {
                super::super::signal(&mut w.s, v as i32, x);
            } else {
                let _ = write!(w.s, "{v}");
            }
        }),
        KDKBDREP => How::InOut(kbd_repeat, kbd_repeat),
        KDGKBMETA => How::Out(|o, d| bracketed_u32(o, d, |o, v| o.xval(v, META_VALS, "K_???"))),
        KDSKBMETA => How::Val(|o, v| o.xval(v & 0xffff_ffff, META_VALS, "K_???")),
        GIO_UNIMAP | PIO_UNIMAP => How::Custom(unimap),
        PIO_UNIMAPCLR => How::In(|o, d| {
            if d.len() < 6 {
                return false;
            }
            let _ = write!(
                o.s,
                "{{advised_hashsize={}, advised_hashstep={}, advised_hashlevel={}}}",
                u16at(d, 0),
                u16at(d, 2),
                u16at(d, 4)
            );
            true
        }),
        GIO_FONTX | PIO_FONTX => How::Custom(fontx),
        KDFONTOP => How::Custom(font_op),
        _ => return None,
    })
}

/// The sizes of the structures the requests read or write, for the requests
/// whose number does not encode it (BPF copies that many bytes, at most
/// 1024: the rest, when shown, comes from the live process).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    vec![
        (KDGETLED, 1),
        (KDGKBLED, 1),
        (KDGKBTYPE, 1),
        (KDGETMODE, 4),
        (KDGKBMODE, 4),
        (KDGKBMETA, 4),
        (GIO_SCRNMAP, E_TABSZ as u32),
        (PIO_SCRNMAP, E_TABSZ as u32),
        (GIO_UNISCRNMAP, 2 * E_TABSZ as u32),
        (PIO_UNISCRNMAP, 2 * E_TABSZ as u32),
        (KDGKBENT, 4), // struct kbentry
        (KDSKBENT, 4),
        (KDGKBSENT, 1 + 512), // struct kbsentry
        (KDSKBSENT, 1 + 512),
        (KDGKBDIACR, 4 + 3 * 256), // struct kbdiacrs
        (KDSKBDIACR, 4 + 3 * 256),
        (KDGKBDIACRUC, 4 + 12 * 256), // struct kbdiacrsuc
        (KDSKBDIACRUC, 4 + 12 * 256),
        (KDGETKEYCODE, 8), // struct kbkeycode
        (KDSETKEYCODE, 8),
        (KDKBDREP, 8), // struct kbd_repeat
        (GIO_FONT, FONT_BYTES as u32),
        (PIO_FONT, FONT_BYTES as u32),
        (GIO_UNIMAP, 16), // struct unimapdesc
        (PIO_UNIMAP, 16),
        (PIO_UNIMAPCLR, 6), // struct unimapinit
        (GIO_FONTX, 16),    // struct consolefontdesc
        (PIO_FONTX, 16),
        (GIO_CMAP, 48),
        (PIO_CMAP, 48),
        (KDFONTOP, 32), // struct console_font_op
    ]
}

/// The most a copy holds (GENBA_CAP_MAX).
const CAP_MAX: u32 = 1 << 14;
/// What the Ioc copy of the argument holds at most (decode's IOC_MAX).
const IOC_MAX: u32 = 1024;

/// Slots of the copies made beyond the argument's own.
const SLOT_ENTRIES: u8 = 3;
const SLOT_FONT_DATA: u8 = 4;
const SLOT_LONG: u8 = 1;

/// Copies of what the structures point to (GIO_UNIMAP's and PIO_UNIMAP's
/// pairs, GIO_FONTX's and PIO_FONTX's bitmaps, KDFONTOP's data) as far as
/// strace shows them, and (with a large -s) of the arguments longer than
/// the Ioc copy.
pub(super) fn plan(o: &Options, out: &mut [CapPlan; 6]) {
    let shown = (o.strsize as u32).saturating_add(1);
    let deref = |mask: u32, val: u32, val2: u32, word: u8, max: u32| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Both,
        len_arg: 0xff,
        max: max.min(CAP_MAX),
        cond: Some(CapCond {
            arg: 1,
            mask,
            val,
            val2,
            bitmap: false,
        }),
        src_arg: Some(2),
        deref: Some(word),
        ..Default::default()
    };
    // struct unimapdesc's entries and struct consolefontdesc's chardata,
    // both the second word: for the requests 0x4b60 to 0x4b6f (the others
    // among them hold no pointer there, and their copy fails or is not
    // looked at)
    let pairs = if o.verbose { CAP_MAX } else { 4 * shown };
    out[SLOT_ENTRIES as usize] = deref(0xffff_fff0, 0x4b60, 0x4b60, 1, pairs.max(shown));
    // struct console_font_op's data (its fourth word): a font name of 32
    // bytes, or bitmaps
    out[SLOT_FONT_DATA as usize] = deref(0xffff_ffff, KDFONTOP, KDFONTOP, 3, shown.max(32));
    // GIO_FONT's and PIO_FONT's 8192 bytes, KDGKBDIACRUC's and
    // KDSKBDIACRUC's 3076, as far as shown: more than the Ioc copy holds
    // only with a large -s
    let items = if o.verbose { 256 } else { shown.min(256) };
    let long = shown.min(FONT_BYTES as u32).max(4 + 12 * items);
    if long > IOC_MAX {
        out[SLOT_LONG as usize] = CapPlan {
            kind: CapKind::Fixed,
            when: CapWhen::Both,
            max: long.min(CAP_MAX),
            cond: Some(CapCond {
                arg: 1,
                mask: 0xffff_ff00,
                val: 0x4b00,
                val2: 0x4b00,
                bitmap: false,
            }),
            src_arg: Some(2),
            ..Default::default()
        };
    }
}

static LED_FLAGS: &[(u64, &str)] = &[(0x1, "LED_SCR"), (0x2, "LED_NUM"), (0x4, "LED_CAP")];

static DEFAULT_LED_FLAGS: &[(u64, &str)] = &[
    (0x1, "LED_SCR"),
    (0x2, "LED_NUM"),
    (0x4, "LED_CAP"),
    (0x10, "LED_SCR<<4"),
    (0x20, "LED_NUM<<4"),
    (0x40, "LED_CAP<<4"),
];

static KB_TYPES: &[(u64, &str)] = &[(1, "KB_84"), (2, "KB_101"), (3, "KB_OTHER")];

static KD_MODES: &[(u64, &str)] = &[
    (0, "KD_TEXT"),
    (1, "KD_GRAPHICS"),
    (2, "KD_TEXT0"),
    (3, "KD_TEXT1"),
];

static KBD_MODES: &[(u64, &str)] = &[
    (0, "K_RAW"),
    (1, "K_XLATE"),
    (2, "K_MEDIUMRAW"),
    (3, "K_UNICODE"),
    (4, "K_OFF"),
];

static META_VALS: &[(u64, &str)] = &[(3, "K_METABIT"), (4, "K_ESCPREFIX")];

static KEY_TABLES: &[(u64, &str)] = &[
    (0, "K_NORMTAB"),
    (1, "K_SHIFTTAB"),
    (2, "K_ALTTAB"),
    (3, "K_ALTSHIFTTAB"),
];

static KEYMAP_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "1<<KG_SHIFT"),
    (1 << 1, "1<<KG_ALTGR"),
    (1 << 2, "1<<KG_CTRL"),
    (1 << 3, "1<<KG_ALT"),
    (1 << 4, "1<<KG_SHIFTL"),
    (1 << 5, "1<<KG_SHIFTR"),
    (1 << 6, "1<<KG_CTRLL"),
    (1 << 7, "1<<KG_CTRLR"),
];

static KEY_TYPES: &[&str] = &[
    "KT_LATIN",
    "KT_FN",
    "KT_SPEC",
    "KT_PAD",
    "KT_DEAD",
    "KT_CONS",
    "KT_CUR",
    "KT_SHIFT",
    "KT_META",
    "KT_ASCII",
    "KT_LOCK",
    "KT_LETTER",
    "KT_SLOCK",
    "KT_DEAD2",
    "KT_BRL",
];

static FONT_OPS: &[(u64, &str)] = &[
    (0, "KD_FONT_OP_SET"),
    (1, "KD_FONT_OP_GET"),
    (2, "KD_FONT_OP_SET_DEFAULT"),
    (3, "KD_FONT_OP_COPY"),
];

static FONT_FLAGS: &[(u64, &str)] = &[
    (0x1, "KD_FONT_FLAG_DONT_RECALC"),
    (0x8000_0000, "KD_FONT_FLAG_OLD"),
];

/// The modifiers of the shift, lock and sticky-lock keys, by bit number.
static MODIFIERS: &[&str] = &[
    "SHIFT",
    "ALTGR",
    "CTRL",
    "ALT",
    "SHIFTL",
    "SHIFTR",
    "CTRLL",
    "CTRLR",
    "CAPSSHIFT",
];

/// The name of function key `n` (KT_FN's values, all named).
fn fn_key(n: u8) -> String {
    const EDIT: [&str; 10] = [
        "K_FIND", "K_INSERT", "K_REMOVE", "K_SELECT", "K_PGUP", "K_PGDN", "K_MACRO", "K_HELP",
        "K_DO", "K_PAUSE",
    ];
    match n {
        0..=19 => format!("K_F{}", n + 1),
        20..=29 => EDIT[(n - 20) as usize].to_string(),
        255 => "K_UNDO".to_string(),
        _ => format!("K_F{}", n - 9),
    }
}

/// The name linux/keyboard.h gives the key of type `t` and value `v`.
fn key_name(t: u8, v: u8) -> Option<String> {
    const SPEC: [&str; 20] = [
        "K_HOLE",
        "K_ENTER",
        "K_SH_REGS",
        "K_SH_MEM",
        "K_SH_STAT",
        "K_BREAK",
        "K_CONS",
        "K_CAPS",
        "K_NUM",
        "K_HOLD",
        "K_SCROLLFORW",
        "K_SCROLLBACK",
        "K_BOOT",
        "K_CAPSON",
        "K_COMPOSE",
        "K_SAK",
        "K_DECRCONSOLE",
        "K_INCRCONSOLE",
        "K_SPAWNCONSOLE",
        "K_BARENUMLOCK",
    ];
    const PAD: [&str; 20] = [
        "K_P0",
        "K_P1",
        "K_P2",
        "K_P3",
        "K_P4",
        "K_P5",
        "K_P6",
        "K_P7",
        "K_P8",
        "K_P9",
        "K_PPLUS",
        "K_PMINUS",
        "K_PSTAR",
        "K_PSLASH",
        "K_PENTER",
        "K_PCOMMA",
        "K_PDOT",
        "K_PPLUSMINUS",
        "K_PPARENL",
        "K_PPARENR",
    ];
    const DEAD: [&str; 27] = [
        "K_DGRAVE",
        "K_DACUTE",
        "K_DCIRCM",
        "K_DTILDE",
        "K_DDIERE",
        "K_DCEDIL",
        "K_DMACRON",
        "K_DBREVE",
        "K_DABDOT",
        "K_DABRING",
        "K_DDBACUTE",
        "K_DCARON",
        "K_DOGONEK",
        "K_DIOTA",
        "K_DVOICED",
        "K_DSEMVOICED",
        "K_DBEDOT",
        "K_DHOOK",
        "K_DHORN",
        "K_DSTROKE",
        "K_DABCOMMA",
        "K_DABREVCOMMA",
        "K_DDBGRAVE",
        "K_DINVBREVE",
        "K_DBECOMMA",
        "K_DCURRENCY",
        "K_DGREEK",
    ];
    const CUR: [&str; 4] = ["K_DOWN", "K_LEFT", "K_RIGHT", "K_UP"];
    let i = v as usize;
    let modifier = MODIFIERS.get(i);
    Some(match t {
        1 => fn_key(v),
        2 => match v {
            126 => "K_ALLOCATED".to_string(),
            127 => "K_NOSUCHMAP".to_string(),
            _ => SPEC.get(i)?.to_string(),
        },
        3 => PAD.get(i)?.to_string(),
        4 => DEAD.get(i)?.to_string(),
        6 => CUR.get(i)?.to_string(),
        7 => format!("K_{}", modifier?),
        9 => match v {
            0..=9 => format!("K_ASC{v}"),
            10..=25 => format!("K_HEX{:x}", v - 10),
            _ => return None,
        },
        10 => format!("K_{}LOCK", modifier?),
        12 => format!("K_{}_SLOCK", modifier?),
        14 => match v {
            0 => "K_BRL_BLANK".to_string(),
            1..=10 => format!("K_BRL_DOT{v}"),
            _ => return None,
        },
        _ => return None,
    })
}

/// A character in single quotes, as strace's print_char with the
/// whitespace escaped.
fn quoted_char(s: &mut String, c: u8) {
    s.push('\'');
    match c {
        b'\'' | b'\\' => {
            s.push('\\');
            s.push(c as char);
        }
        0x20..=0x7e => s.push(c as char),
        b'\t'..=b'\r' => {
            s.push('\\');
            s.push(b"tnvfr"[(c - b'\t') as usize] as char);
        }
        _ => {
            let _ = write!(s, "\\x{c:02x}");
        }
    }
    s.push('\'');
}

fn req_of(w: &ArgWriter<'_>) -> u32 {
    w.call.args[1] as u32
}

fn writer<'a>(w: &'a mut ArgWriter<'_>) -> Out<'a> {
    let (x, verbose, strsize) = (w.opts.xlat, w.opts.verbose, w.opts.strsize);
    Out {
        s: &mut w.s,
        x,
        verbose,
        strsize,
    }
}

fn failed(w: &ArgWriter<'_>) -> bool {
    w.call.ret().is_some_and(|r| r < 0)
}

// ---- memory ----

/// What is known of the memory at `addr`: the bytes BPF copied from there,
/// and whether it stopped at memory it could not read (then nothing past
/// them is readable either); past the copy, the live process.
struct Mem {
    addr: u64,
    data: Vec<u8>,
    fault: bool,
}

impl Mem {
    /// The argument's memory as the call found it (`exit`: as the call
    /// left it). A call not seen entering (an injected return) has only
    /// its exit's copy.
    fn arg(w: &ArgWriter<'_>, exit: bool) -> Mem {
        let addr = w.call.args[2];
        // the Ioc copy, or the longer one when there is one
        let (data, fault) = [2, SLOT_LONG]
            .into_iter()
            .filter_map(|slot| copy(w, slot, exit))
            .max_by_key(|(d, _)| d.len())
            .unwrap_or_default();
        Mem { addr, data, fault }
    }

    /// What a pointer in the argument's structure points to: the copy in
    /// `slot`, else the live process.
    fn deref(w: &ArgWriter<'_>, slot: u8, exit: bool, addr: u64) -> Mem {
        match copy(w, slot, exit) {
            Some((data, fault)) => Mem { addr, data, fault },
            None => Mem::live(addr),
        }
    }

    /// Memory BPF did not copy: only the live process's.
    fn live(addr: u64) -> Mem {
        Mem {
            addr,
            data: Vec::new(),
            fault: false,
        }
    }

    /// Up to `len` bytes from `off` on: fewer when the memory is not all
    /// readable.
    fn get(&self, w: &ArgWriter<'_>, off: usize, len: usize) -> Vec<u8> {
        let mut have: Vec<u8> = self
            .data
            .get(off..)
            .map(|d| d[..d.len().min(len)].to_vec())
            .unwrap_or_default();
        if have.len() == len || self.fault || self.addr == 0 {
            return have;
        }
        let Some(read) = w.env.read_mem else {
            return have;
        };
        // page by page, up to the first unreadable one
        let mut at = self.addr + (off + have.len()) as u64;
        while have.len() < len {
            let chunk = ((4096 - (at & 4095)) as usize).min(len - have.len());
            match read(at, chunk) {
                Some(b) if !b.is_empty() => {
                    let n = b.len();
                    have.extend_from_slice(&b);
                    if n < chunk {
                        break;
                    }
                    at += n as u64;
                }
                _ => break,
            }
        }
        have
    }

    /// Exactly `len` bytes from `off`, if readable.
    fn exact(&self, w: &ArgWriter<'_>, off: usize, len: usize) -> Option<Vec<u8>> {
        Some(self.get(w, off, len)).filter(|b| b.len() == len)
    }
}

/// The bytes copied in `slot`, and whether the copy stopped at memory it
/// could not read: at entry, or (`exit`) at exit. A call not seen entering
/// (an injected return) has only its exit's copies.
fn copy(w: &ArgWriter<'_>, slot: u8, exit: bool) -> Option<(Vec<u8>, bool)> {
    let find = |caps: &[Capture]| {
        caps.iter()
            .find(|c| c.arg == slot && c.item == CaptureItem::Data)
            .map(|c| (c.data.clone(), c.fault))
    };
    let exit_caps = w.call.exit.map(|(_, caps)| caps);
    if exit {
        exit_caps.and_then(find)
    } else {
        find(w.call.enter).or_else(|| exit_caps.and_then(find))
    }
}

/// strace's printstr_ex in hex: `len` bytes at `m`'s address, as many as
/// -s shows (the address when they are not all readable).
fn hex_string(w: &mut ArgWriter<'_>, m: &Mem, len: usize) {
    if m.addr == 0 {
        w.s.push_str("NULL");
        return;
    }
    let strsize = w.opts.strsize;
    let n = len.min(strsize + 1);
    match m.exact(w, 0, n) {
        Some(b) => fmt::quoted(&mut w.s, &b[..n.min(strsize)], len > strsize, HexStr::All),
        None => fmt::ptr(&mut w.s, m.addr),
    }
}

/// strace's print_array: `n` items of `size` bytes at `m`'s address, up to
/// -s of them unless -v, then `...`; `... /* address */` where the memory
/// stops being readable; `more`: a trailing `...` for items left out.
fn array(
    w: &mut ArgWriter<'_>,
    m: &Mem,
    n: usize,
    size: usize,
    more: bool,
    mut item: impl FnMut(&mut Out<'_>, &[u8]),
) {
    if m.addr == 0 {
        w.s.push_str("NULL");
        return;
    }
    if n == 0 {
        w.s.push_str(if more { "[...]" } else { "[]" });
        return;
    }
    let limit = if !w.opts.verbose && w.opts.strsize < n {
        w.opts.strsize
    } else {
        n
    };
    // strace reads the item after the last it shows, to see it is there
    let fetch = (limit + 1).min(n);
    let d = m.get(w, 0, fetch * size);
    let have = d.len() / size;
    if have == 0 {
        fmt::ptr(&mut w.s, m.addr);
        return;
    }
    let mut o = writer(w);
    o.put("[");
    let mut cut = false;
    for i in 0..fetch {
        if i > 0 {
            o.put(", ");
        }
        if i >= have {
            let _ = write!(o.s, "... /* {:#x} */", m.addr + (i * size) as u64);
            cut = true;
            break;
        }
        if i >= limit {
            o.put("...");
            cut = true;
            break;
        }
        item(&mut o, &d[i * size..(i + 1) * size]);
    }
    if more && !cut {
        o.put(", ...");
    }
    o.put("]");
}

// ---- the values ----

fn kiocsound(o: &mut Out<'_>, v: u64) {
    let _ = write!(o.s, "{v}");
    if o.x != Xlat::Raw {
        let freq = PIT_TICK_RATE.checked_div(v).unwrap_or(0) as u32;
        if freq != 0 {
            let _ = write!(o.s, " /* {freq} Hz */");
        } else {
            o.put(" /* off */");
        }
    }
}

fn mktone(o: &mut Out<'_>, v: u64) {
    let v = v as u32;
    let (ticks, count) = (v >> 16, v & 0xffff);
    if ticks != 0 {
        let _ = write!(o.s, "{ticks}<<16|");
    }
    let _ = write!(o.s, "{count}");
    if o.x != Xlat::Raw {
        if ticks != 0 && count != 0 {
            let freq = PIT_TICK_RATE as u32 / count;
            let _ = write!(o.s, " /* {freq} Hz, {ticks} ms */");
        } else {
            o.put(" /* off */");
        }
    }
}

fn io_port(o: &mut Out<'_>, v: u64) {
    const GPFIRST: u64 = 0x3b4;
    const GPLAST: u64 = 0x3df;
    fmt::hex(o.s, v);
    if (GPFIRST..=GPLAST).contains(&v) && o.x != Xlat::Raw {
        let _ = write!(o.s, " /* GPFIRST + {} */", v - GPFIRST);
    }
}

fn kbd_mode(o: &mut Out<'_>, v: u64) {
    let v = v as u32 as i32 as i64 as u64;
    fmt::enumv(o.s, v, KBD_MODES, "K_???", o.x, false);
}

fn bracketed_leds(o: &mut Out<'_>, d: &[u8], table: &[(u64, &str)]) -> bool {
    let Some(&v) = d.first() else {
        return false;
    };
    o.put("[");
    o.flags(v as u64, table, "LED_???");
    o.put("]");
    true
}

fn bracketed_u32(o: &mut Out<'_>, d: &[u8], f: fn(&mut Out<'_>, u64)) -> bool {
    if d.len() < 4 {
        return false;
    }
    o.put("[");
    f(o, u32at(d, 0));
    o.put("]");
    true
}

fn kbd_repeat(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < 8 {
        return false;
    }
    let _ = write!(
        o.s,
        "{{delay={}, period={}}}",
        u32at(d, 0) as i32,
        u32at(d, 4) as i32
    );
    true
}

// ---- the structures ----

/// A byte string the kernel reads (`get`: writes; then the address when
/// the call failed).
fn bytes_in_hex(w: &mut ArgWriter<'_>, get: bool, len: usize) {
    let v = w.call.args[2];
    if get {
        if !w.exiting() {
            return;
        }
        w.sep();
        if failed(w) {
            fmt::ptr(&mut w.s, v);
            return;
        }
    } else {
        w.sep();
    }
    let m = Mem::arg(w, get);
    hex_string(w, &m, len);
}

/// GIO_UNISCRNMAP, PIO_UNISCRNMAP: 256 characters, those of the direct
/// range relative to its base.
fn uni_screen_map(w: &mut ArgWriter<'_>) {
    const UNI_DIRECT_BASE: u64 = 0xf000;
    const UNI_DIRECT_MASK: u64 = 0x1ff;
    let get = req_of(w) == GIO_UNISCRNMAP;
    let v = w.call.args[2];
    if get {
        if !w.exiting() {
            return;
        }
        w.sep();
        if failed(w) {
            fmt::ptr(&mut w.s, v);
            return;
        }
    } else {
        w.sep();
    }
    let m = Mem::arg(w, get);
    array(w, &m, E_TABSZ, 2, false, |o, d| {
        let c = u16at(d, 0);
        let direct = c & !UNI_DIRECT_MASK == UNI_DIRECT_BASE;
        if o.x != Xlat::Abbrev || !direct {
            fmt::hex(o.s, c);
        }
        if o.x == Xlat::Raw || !direct {
            return;
        }
        let mut rel = String::new();
        fmt::hex(&mut rel, c & UNI_DIRECT_MASK);
        if o.x == Xlat::Verbose {
            let _ = write!(o.s, " /* UNI_DIRECT_BASE+{rel} */");
        } else {
            let _ = write!(o.s, "UNI_DIRECT_BASE+{rel}");
        }
    });
}

/// KDGKBENT, KDSKBENT: the table and index at entry, the value the kernel
/// reads or (on success) gave.
fn kbd_entry(w: &mut ArgWriter<'_>) {
    let get = req_of(w) == KDGKBENT;
    let v = w.call.args[2];
    w.sep();
    let m = Mem::arg(w, false);
    let Some(head) = m.exact(w, 0, 2) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let mut o = writer(w);
    o.put("{kb_table=");
    let table = head[0] as u64;
    if KEY_TABLES.iter().any(|&(k, _)| k == table) {
        o.xval(table, KEY_TABLES, "");
    } else {
        o.flags(table, KEYMAP_FLAGS, "K_???");
    }
    let _ = write!(o.s, ", kb_index={}", head[1]);
    let m = if get {
        if !w.exiting_inside() {
            return;
        }
        if failed(w) {
            w.s.push('}');
            return;
        }
        Mem::arg(w, true)
    } else {
        m
    };
    let value = m.exact(w, 2, 2);
    let mut o = writer(w);
    o.put(", kb_value=");
    let Some(value) = value else {
        o.put("???}");
        return;
    };
    let value = u16at(&value, 0);
    fmt::hex(o.s, value);
    if o.x != Xlat::Raw {
        let (t, k) = ((value >> 8) as u8, value as u8);
        match key_name(t, k) {
            Some(name) => {
                let _ = write!(o.s, " /* {name} */");
            }
            None => {
                o.put(" /* K(");
                match KEY_TYPES.get(t as usize) {
                    Some(n) => o.put(n),
                    None => fmt::hex(o.s, t as u64),
                }
                o.put(", ");
                match t {
                    0 | 8 | 11 | 13 => quoted_char(o.s, k), // LATIN, META, LETTER, DEAD2
                    _ => fmt::hex(o.s, k as u64),
                }
                o.put(") */");
            }
        }
    }
    o.put("}");
}

/// KDGKBSENT, KDSKBSENT: the function key, and the string it sends.
fn kbd_str_entry(w: &mut ArgWriter<'_>) {
    const STRING: usize = 512;
    let get = req_of(w) == KDGKBSENT;
    let v = w.call.args[2];
    w.sep();
    let m = Mem::arg(w, false);
    let Some(func) = m.exact(w, 0, 1) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let mut o = writer(w);
    o.put("{kb_func=");
    let func = func[0];
    let name = format!("KVAL({})", fn_key(func));
    o.xval(func as u64, &[(func as u64, name.as_str())], "");
    let m = if get {
        if !w.exiting_inside() {
            return;
        }
        if failed(w) {
            w.s.push('}');
            return;
        }
        Mem::arg(w, true)
    } else {
        m
    };
    // as far as its NUL, which must be readable
    let d = m.get(w, 1, STRING);
    let nul = d.iter().position(|&c| c == 0);
    w.s.push_str(", kb_string=");
    if nul.is_none() && d.len() < STRING {
        w.s.push_str("???}");
        return;
    }
    let n = w.opts.strsize.min(nul.map_or(STRING, |k| k + 1));
    let b = &d[..n];
    let hex = w.opts.hex;
    // a NUL that ends what is shown is not shown, nor followed by `...`
    if b.last() == Some(&0) {
        fmt::quoted(&mut w.s, &b[..n - 1], false, hex);
    } else {
        fmt::quoted(&mut w.s, b, true, hex);
    }
    w.s.push('}');
}

/// KDGKBDIACR, KDSKBDIACR (`{diacr, base, result}` of characters) and
/// their Unicode versions (of numbers).
fn diacritics(w: &mut ArgWriter<'_>) {
    let req = req_of(w);
    let get = req == KDGKBDIACR || req == KDGKBDIACRUC;
    let uc = req == KDGKBDIACRUC || req == KDSKBDIACRUC;
    let v = w.call.args[2];
    if get {
        if !w.exiting() {
            return;
        }
        w.sep();
        if failed(w) {
            fmt::ptr(&mut w.s, v);
            return;
        }
    } else {
        w.sep();
    }
    let m = Mem::arg(w, get);
    let Some(cnt) = m.exact(w, 0, 4) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let cnt = u32at(&cnt, 0);
    let _ = write!(w.s, "{{kb_cnt={cnt}, ");
    let items = Mem {
        addr: v + 4,
        data: m.data.get(4..).unwrap_or_default().to_vec(),
        fault: m.fault,
    };
    let n = cnt.min(MAX_DIACR) as usize;
    if uc {
        w.s.push_str("kbdiacruc=");
        array(w, &items, n, 12, cnt > MAX_DIACR, |o, d| {
            let _ = write!(o.s, "{{diacr=");
            fmt::hex(o.s, u32at(d, 0));
            o.put(", base=");
            fmt::hex(o.s, u32at(d, 4));
            o.put(", result=");
            fmt::hex(o.s, u32at(d, 8));
            o.put("}");
        });
    } else {
        w.s.push_str("kbdiacr=");
        array(w, &items, n, 3, cnt > MAX_DIACR, |o, d| {
            o.put("{diacr=");
            quoted_char(o.s, d[0]);
            o.put(", base=");
            quoted_char(o.s, d[1]);
            o.put(", result=");
            quoted_char(o.s, d[2]);
            o.put("}");
        });
    }
    w.s.push('}');
}

/// KDGETKEYCODE, KDSETKEYCODE: the scan code and key code, and (getting)
/// ` => ` the key code the kernel gave.
fn keycode(w: &mut ArgWriter<'_>) {
    let get = req_of(w) == KDGETKEYCODE;
    let v = w.call.args[2];
    w.sep();
    let m = Mem::arg(w, false);
    let Some(d) = m.exact(w, 0, 8) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    w.s.push_str("{scancode=");
    fmt::hex(&mut w.s, u32at(&d, 0));
    w.s.push_str(", keycode=");
    fmt::hex(&mut w.s, u32at(&d, 4));
    if get && w.exiting_inside() && !failed(w) {
        if let Some(k) = Mem::arg(w, true).exact(w, 4, 4) {
            w.s.push_str(" => ");
            fmt::hex(&mut w.s, u32at(&k, 0));
        }
    }
    w.s.push('}');
}

/// GIO_UNIMAP, PIO_UNIMAP: struct unimapdesc, the count and the pairs;
/// getting, ` => ` the count the kernel gave and the pairs it wrote (as
/// many as the count given).
fn unimap(w: &mut ArgWriter<'_>) {
    const ENOMEM: i64 = -12;
    let get = req_of(w) == GIO_UNIMAP;
    let v = w.call.args[2];
    w.sep();
    let m = Mem::arg(w, false);
    let Some(d) = m.exact(w, 0, 16) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    let count = u16at(&d, 0) as usize;
    let _ = write!(w.s, "{{entry_ct={count}");
    let exit = get && w.exiting_inside();
    if get && !exit {
        return;
    }
    let d = if get {
        let Some(d) = Mem::arg(w, true).exact(w, 0, 16) else {
            w.s.push('}');
            return;
        };
        let _ = write!(w.s, " => {}", u16at(&d, 0));
        let ret = w.call.ret().unwrap_or(0);
        if ret < 0 && ret != ENOMEM {
            w.s.push_str(", entries=");
            fmt::ptr(&mut w.s, u64at(&d, 8));
            w.s.push('}');
            return;
        }
        d
    } else {
        d
    };
    w.s.push_str(", entries=");
    let entries = Mem::deref(w, SLOT_ENTRIES, exit, u64at(&d, 8));
    array(w, &entries, count, 4, false, |o, d| {
        o.put("{unicode=");
        fmt::hex(o.s, u16at(d, 0));
        o.put(", fontpos=");
        fmt::hex(o.s, u16at(d, 2));
        o.put("}");
    });
    w.s.push('}');
}

/// struct consolefontdesc: the characters' bitmaps as a string, but for
/// what the caller of GIO_FONTX gives (the buffer's address).
fn fontdesc(w: &mut ArgWriter<'_>, d: &[u8], data: bool, exit: bool) {
    let count = u16at(d, 0);
    let _ = write!(
        w.s,
        "{{charcount={count}, charheight={}, chardata=",
        u16at(d, 2)
    );
    let at = u64at(d, 8);
    if data {
        let m = Mem::deref(w, SLOT_ENTRIES, exit, at);
        hex_string(w, &m, count.min(512) as usize * 32);
    } else {
        fmt::ptr(&mut w.s, at);
    }
    w.s.push('}');
}

/// GIO_FONTX, PIO_FONTX.
fn fontx(w: &mut ArgWriter<'_>) {
    let get = req_of(w) == GIO_FONTX;
    let v = w.call.args[2];
    w.sep();
    let Some(d) = Mem::arg(w, false).exact(w, 0, 16) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    fontdesc(w, &d, !get, false);
    if !get || !w.exiting_inside() || failed(w) {
        return;
    }
    if let Some(d) = Mem::arg(w, true).exact(w, 0, 16) {
        w.s.push_str(" => ");
        fontdesc(w, &d, true, true);
    }
}

/// struct console_font_op as strace shows it for its operation: at entry
/// (`enter`) with the operation and flags.
fn font_op_fields(w: &mut ArgWriter<'_>, d: &[u8], enter: bool) {
    const SET: u64 = 0;
    const GET: u64 = 1;
    const SET_DEFAULT: u64 = 2;
    const COPY: u64 = 3;
    let op = u32at(d, 0);
    let (width, height, count) = (u32at(d, 8), u32at(d, 12), u32at(d, 16));
    let data = u64at(d, 24);
    let mut o = writer(w);
    o.put("{");
    if enter {
        o.put("op=");
        o.xval(op, FONT_OPS, "KD_FONT_OP_???");
        if op != SET_DEFAULT && op != COPY {
            o.put(", flags=");
            o.flags(u32at(d, 4), FONT_FLAGS, "KD_FONT_FLAG_???");
        }
        o.put(", ");
    }
    if op == COPY {
        let _ = write!(o.s, "height={height}");
    } else {
        let _ = write!(o.s, "width={width}, height={height}");
    }
    if op != SET_DEFAULT && op != COPY {
        let _ = write!(o.s, ", charcount={count}");
    }
    match op {
        GET if enter => {
            o.put(", data=");
            fmt::ptr(o.s, data);
        }
        SET | GET => {
            o.put(", data=");
            let len = width.min(32).div_ceil(8) * 32 * count.min(512);
            let m = Mem::deref(w, SLOT_FONT_DATA, !enter, data);
            hex_string(w, &m, len as usize);
        }
        SET_DEFAULT if enter => {
            o.put(", data=");
            let m = Mem::deref(w, SLOT_FONT_DATA, false, data);
            font_name(w, &m);
        }
        SET_DEFAULT | COPY => {}
        _ => {
            o.put(", data=");
            fmt::ptr(o.s, data);
        }
    }
    w.s.push('}');
}

/// KD_FONT_OP_SET_DEFAULT's font name: a C string of at most 32 bytes
/// with its NUL (strace's printstr_ex expecting the trailing NUL).
fn font_name(w: &mut ArgWriter<'_>, m: &Mem) {
    let at = m.addr;
    const MAX_NAME: usize = 32;
    if at == 0 {
        w.s.push_str("NULL");
        return;
    }
    let strsize = w.opts.strsize;
    let mut size = (strsize + 1).min(MAX_NAME);
    let b = m.get(w, 0, size);
    let nul = b.iter().position(|&c| c == 0);
    if nul.is_none() && b.len() < size {
        fmt::ptr(&mut w.s, at);
        return;
    }
    if size > strsize {
        size = strsize;
    } else if size == MAX_NAME {
        size -= 1;
    }
    let shown = &b[..nul.unwrap_or(size).min(size)];
    // more follows unless the NUL is within or just after what is shown
    let ended = nul.is_some_and(|k| k <= size);
    fmt::quoted(&mut w.s, shown, !ended, w.opts.hex);
}

/// KDFONTOP: struct console_font_op, and (but for setting and copying)
/// ` => ` what the kernel gave back.
fn font_op(w: &mut ArgWriter<'_>) {
    let v = w.call.args[2];
    w.sep();
    let Some(d) = Mem::arg(w, false).exact(w, 0, 32) else {
        fmt::ptr(&mut w.s, v);
        return;
    };
    font_op_fields(w, &d, true);
    let op = u32at(&d, 0);
    if op == 0 || op == 3 || !w.exiting_inside() || failed(w) {
        return;
    }
    if let Some(d) = Mem::arg(w, true).exact(w, 0, 32) {
        w.s.push_str(" => ");
        font_op_fields(w, &d, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names() {
        assert_eq!(fn_key(0), "K_F1");
        assert_eq!(fn_key(25), "K_PGDN");
        assert_eq!(fn_key(30), "K_F21");
        assert_eq!(fn_key(254), "K_F245");
        assert_eq!(fn_key(255), "K_UNDO");
        assert_eq!(key_name(2, 0x13).as_deref(), Some("K_BARENUMLOCK"));
        assert_eq!(key_name(2, 0x14), None);
        assert_eq!(key_name(7, 8).as_deref(), Some("K_CAPSSHIFT"));
        assert_eq!(key_name(10, 8).as_deref(), Some("K_CAPSSHIFTLOCK"));
        assert_eq!(key_name(12, 0).as_deref(), Some("K_SHIFT_SLOCK"));
        assert_eq!(key_name(9, 25).as_deref(), Some("K_HEXf"));
        assert_eq!(key_name(14, 10).as_deref(), Some("K_BRL_DOT10"));
    }

    #[test]
    fn long_copies_only_for_a_large_strsize() {
        let mut out = [CapPlan::default(); 6];
        plan(&Options::default(), &mut out);
        assert_eq!(out[SLOT_ENTRIES as usize].max, 4 * 33);
        assert_eq!(out[SLOT_FONT_DATA as usize].max, 33);
        assert_eq!(out[SLOT_LONG as usize].kind, CapKind::None);
        let o = Options {
            strsize: 1024,
            ..Default::default()
        };
        plan(&o, &mut out);
        // KDGKBDIACRUC's 256 entries
        assert_eq!(out[SLOT_LONG as usize].max, 4 + 12 * 256);
    }

    #[test]
    fn chars_and_tones() {
        let mut s = String::new();
        for c in [0u8, b'\n', b'\'', b'\\', b'"', 0x7f, 0xff] {
            quoted_char(&mut s, c);
        }
        assert_eq!(s, r#"'\x00''\n''\'''\\''"''\x7f''\xff'"#);
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x: Xlat::Abbrev,
            verbose: false,
            strsize: 32,
        };
        mktone(&mut o, 0xbadc0deddeadface);
        o.put(", ");
        mktone(&mut o, 0x10000);
        o.put(", ");
        kiocsound(&mut o, 440);
        assert_eq!(
            s,
            "57005<<16|64206 /* 18 Hz, 57005 ms */, 1<<16|0 /* off */, 440 /* 2711 Hz */"
        );
    }
}
