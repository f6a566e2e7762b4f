//! The terminal's struct requests (a child module of `ioctl`: see
//! [`super::decode`] and [`super::How`]): struct termio, termios and
//! termios2 as strace 6.1 prints them (its term.c), the flags with their
//! delay and speed fields first, and under -v the line discipline, the
//! control characters and (termios2) the speeds.
//!
//! The tables: `python3 scripts/gen-xlat.py termios "linux/termios.h"
//! $(cat scripts/termios-xlat.tables)`, from xlat lists stripped of their
//! comments, of the names x86_64 does not define and of term_oflags' XTABS
//! (alpha's).

use std::fmt::Write;

use super::{u16at, u32at, How, Out};
use crate::fmt::{self, Xlat};

#[path = "ioctl_termios_xlat.rs"]
mod xlat;
use xlat::*;

const TCGETS: u32 = 0x5401;
const TCSETS: u32 = 0x5402;
const TCSETSW: u32 = 0x5403;
const TCSETSF: u32 = 0x5404;
const TCGETA: u32 = 0x5405;
const TCSETA: u32 = 0x5406;
const TCSETAW: u32 = 0x5407;
const TCSETAF: u32 = 0x5408;
const TIOCGLCKTRMIOS: u32 = 0x5456;
const TIOCSLCKTRMIOS: u32 = 0x5457;
const TCGETS2: u32 = 0x802c_542a;
const TCSETS2: u32 = 0x402c_542b;
const TCSETSW2: u32 = 0x402c_542c;
const TCSETSF2: u32 = 0x402c_542d;

/// struct termio: four 16-bit flag words, c_line, c_cc[NCC = 8] (and a
/// byte of padding).
const TERMIO_SIZE: u32 = 18;
/// struct termios: four 32-bit flag words, c_line, c_cc[NCCS = 19].
const TERMIOS_SIZE: u32 = 36;
/// struct termios2: struct termios, c_ispeed, c_ospeed.
const TERMIOS2_SIZE: usize = 44;

// the fields of c_oflag and c_cflag that hold a value, not a bit
const NLDLY: u64 = 0o400;
const CRDLY: u64 = 0o3000;
const TABDLY: u64 = 0o14000;
const BSDLY: u64 = 0o20000;
const VTDLY: u64 = 0o40000;
const FFDLY: u64 = 0o100000;
const CBAUD: u64 = 0o10017;
const CIBAUD: u64 = 0o2003600000;
const IBSHIFT: u64 = 16;
const CSIZE: u64 = 0o60;

/// How each request's argument is printed; None for the other 'T'
/// requests (decode.rs's generic ones).
pub(super) fn how(req: u32) -> Option<How> {
    Some(match req {
        TCGETS | TIOCGLCKTRMIOS => How::Out(termios),
        TCSETS | TCSETSW | TCSETSF | TIOCSLCKTRMIOS => How::In(termios),
        TCGETA => How::Out(termio),
        TCSETA | TCSETAW | TCSETAF => How::In(termio),
        TCGETS2 => How::Out(termios2),
        TCSETS2 | TCSETSW2 | TCSETSF2 => How::In(termios2),
        _ => return None,
    })
}

/// The sizes of the structs of the requests that do not encode them
/// (TCGETS's and TCSETS's are decode.rs's).
pub(super) fn sizes() -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = [TCGETA, TCSETA, TCSETAW, TCSETAF]
        .iter()
        .map(|&r| (r, TERMIO_SIZE))
        .collect();
    v.push((TIOCGLCKTRMIOS, TERMIOS_SIZE));
    v.push((TIOCSLCKTRMIOS, TERMIOS_SIZE));
    v
}

/// Named values.
type Table = &'static [(u64, &'static str)];

/// One field holding a value among the flags, then `|`.
fn field(o: &mut Out<'_>, v: u64, table: &[(u64, &str)], hint: &str) {
    fmt::enumv(o.s, v, table, hint, o.x, true);
    o.put("|");
}

/// A flag word as strace's printflags64 without a default: nothing at all
/// for 0 (`c_iflag=`), unless the table names 0.
fn bits(o: &mut Out<'_>, v: u64, table: &[(u64, &str)]) {
    if v == 0 {
        match (table.iter().find(|(k, _)| *k == 0), o.x) {
            (Some(_), Xlat::Raw) | (None, _) => {}
            (Some((_, name)), Xlat::Abbrev) => o.put(name),
            (Some((_, name)), Xlat::Verbose) => {
                let _ = write!(o.s, "0 /* {name} */");
            }
        }
        return;
    }
    fmt::flags(o.s, v, table, None, o.x);
}

/// The four flag words, as strace's decode_flags.
fn flags(o: &mut Out<'_>, i: u64, out: u64, c: u64, l: u64) {
    o.put("{c_iflag=");
    bits(o, i, TERM_IFLAGS);
    o.put(", c_oflag=");
    let delays: [(Table, u64, &str); 6] = [
        (TERM_OFLAGS_NLDLY, NLDLY, "NL?"),
        (TERM_OFLAGS_CRDLY, CRDLY, "CR?"),
        (TERM_OFLAGS_TABDLY, TABDLY, "TAB?"),
        (TERM_OFLAGS_BSDLY, BSDLY, "BS?"),
        (TERM_OFLAGS_VTDLY, VTDLY, "VT?"),
        (TERM_OFLAGS_FFDLY, FFDLY, "FF?"),
    ];
    let mut rest = out;
    for (table, mask, hint) in delays {
        field(o, rest & mask, table, hint);
        rest &= !mask;
    }
    bits(o, rest, TERM_OFLAGS);
    o.put(", c_cflag=");
    field(o, c & CBAUD, BAUD_OPTIONS, "B???");
    if c & CIBAUD != 0 {
        fmt::enumv(
            o.s,
            (c & CIBAUD) >> IBSHIFT,
            BAUD_OPTIONS,
            "B???",
            o.x,
            true,
        );
        o.put("<<");
        match o.x {
            Xlat::Raw => fmt::hex(o.s, IBSHIFT),
            Xlat::Verbose => {
                let _ = write!(o.s, "{IBSHIFT:#x} /* IBSHIFT */");
            }
            Xlat::Abbrev => o.put("IBSHIFT"),
        }
        o.put("|");
    }
    field(o, c & CSIZE, TERM_CFLAGS_CSIZE, "CS?");
    bits(o, c & !(CBAUD | CIBAUD | CSIZE), TERM_CFLAGS);
    o.put(", c_lflag=");
    bits(o, l, TERM_LFLAGS);
}

/// `, c_line=..., c_cc=[...]` (under -v), or `, ...`.
fn line_and_cc(o: &mut Out<'_>, line: u8, cc: &[u8]) -> bool {
    if !o.verbose {
        o.put(", ...");
        return false;
    }
    o.put(", c_line=");
    o.xval(line as u64, TERM_LINE_DISCS, "N_???");
    o.put(", c_cc=[");
    for (k, &c) in cc.iter().enumerate() {
        if k > 0 {
            o.put(", ");
        }
        match TERMIOS_CC.iter().find(|(i, _)| *i == k as u64) {
            Some((_, name)) => {
                let _ = write!(o.s, "[{name}]=");
            }
            None => {
                let _ = write!(o.s, "[{k}]=");
            }
        }
        fmt::hex(o.s, c as u64);
    }
    o.put("]");
    true
}

fn termio(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < TERMIO_SIZE as usize {
        return false;
    }
    flags(o, u16at(d, 0), u16at(d, 2), u16at(d, 4), u16at(d, 6));
    line_and_cc(o, d[8], &d[9..17]);
    o.put("}");
    true
}

fn termios(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < TERMIOS_SIZE as usize {
        return false;
    }
    flags(o, u32at(d, 0), u32at(d, 4), u32at(d, 8), u32at(d, 12));
    line_and_cc(o, d[16], &d[17..36]);
    o.put("}");
    true
}

fn termios2(o: &mut Out<'_>, d: &[u8]) -> bool {
    if d.len() < TERMIOS2_SIZE {
        return false;
    }
    flags(o, u32at(d, 0), u32at(d, 4), u32at(d, 8), u32at(d, 12));
    if line_and_cc(o, d[16], &d[17..36]) {
        let _ = write!(
            o.s,
            ", c_ispeed={}, c_ospeed={}",
            u32at(d, 36),
            u32at(d, 40)
        );
    }
    o.put("}");
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termios_flags_and_speeds() {
        let mut d = vec![0u8; TERMIOS2_SIZE];
        d[0..4].copy_from_slice(&0x4001u32.to_le_bytes()); // IGNBRK|IUTF8
        d[4..8].copy_from_slice(&0x1805u32.to_le_bytes()); // XTABS|OPOST|ONLCR
        d[8..12].copy_from_slice(&(0o10001u32 << 16 | 0o2 | 0o60 | 0o200).to_le_bytes());
        d[36..40].copy_from_slice(&57600u32.to_le_bytes());
        let mut s = String::new();
        let mut o = Out {
            s: &mut s,
            x: Xlat::Abbrev,
            verbose: false,
            strsize: 32,
        };
        assert!(termios2(&mut o, &d));
        assert_eq!(
            s,
            "{c_iflag=IGNBRK|IUTF8, c_oflag=NL0|CR0|XTABS|BS0|VT0|FF0|OPOST|ONLCR, \
             c_cflag=B75|B57600<<IBSHIFT|CS8|CREAD, c_lflag=, ...}"
        );
    }
}
