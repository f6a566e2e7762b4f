//! Output primitives in strace's conventions: quoted strings, flag sets,
//! symbolic enums, pointers. Everything here is pure and unit-tested.

use std::fmt::Write;

/// How symbolic constants are printed (`-X`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Xlat {
    /// Names (strace's default).
    #[default]
    Abbrev,
    /// Numbers only.
    Raw,
    /// Numbers followed by names in a comment.
    Verbose,
}

/// How strings are quoted, as strace's `--strings-in-hex=` levels (`-x`:
/// `NonAscii`, `-xx`: `All`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum HexStr {
    /// C escapes, octal for the rest.
    #[default]
    None,
    /// The bytes that do not print as `\xNN`, the others as they are.
    NonAsciiChars,
    /// The whole string in hex when any byte is neither printable nor
    /// whitespace.
    NonAscii,
    /// Every string in hex.
    All,
}

/// Escapes `bytes` the way strace quotes strings (without the quotes).
///
/// Printable ASCII stays; `\t \n \v \f \r \" \\` get their C escapes; anything
/// else is octal, in the shortest form unless the next byte is an octal digit
/// (`\xNN` with `HexStr::NonAsciiChars`); with `NonAscii` or `All`, the
/// whole string may be hex.
pub fn escape_into(out: &mut String, bytes: &[u8], hex: HexStr) {
    escape_with(out, bytes, hex, b"");
}

/// [`escape_into`], with the bytes of `extra` escaped too, as the bytes
/// that do not print are (strace escapes `<` and `>` in a descriptor's
/// path between `<>`).
pub fn escape_with(out: &mut String, bytes: &[u8], hex: HexStr, extra: &[u8]) {
    let whole = match hex {
        HexStr::All => true,
        HexStr::NonAscii => bytes
            .iter()
            .any(|&b| b > 0x7e || (b < 0x20 && !(9..=13).contains(&b))),
        _ => false,
    };
    for (i, &b) in bytes.iter().enumerate() {
        if whole {
            let _ = write!(out, "\\x{b:02x}");
            continue;
        }
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            0x20..=0x7e if !extra.contains(&b) => out.push(b as char),
            _ if hex == HexStr::NonAsciiChars => {
                let _ = write!(out, "\\x{b:02x}");
            }
            _ => {
                let next_is_digit = bytes.get(i + 1).is_some_and(|n| (b'0'..=b'7').contains(n));
                if next_is_digit {
                    let _ = write!(out, "\\{b:03o}");
                } else {
                    let _ = write!(out, "\\{b:o}");
                }
            }
        }
    }
}

/// A quoted string, `...` appended when `truncated`.
pub fn quoted(out: &mut String, bytes: &[u8], truncated: bool, hex: HexStr) {
    out.push('"');
    escape_into(out, bytes, hex);
    out.push('"');
    if truncated {
        out.push_str("...");
    }
}

/// A pointer: `NULL` or hex.
pub fn ptr(out: &mut String, v: u64) {
    if v == 0 {
        out.push_str("NULL");
    } else {
        let _ = write!(out, "{v:#x}");
    }
}

/// Hex as strace's `%#lx`: `0` for zero, `0x..` otherwise.
pub fn hex(out: &mut String, v: u64) {
    if v == 0 {
        out.push('0');
    } else {
        let _ = write!(out, "{v:#x}");
    }
}

/// A set of flag bits: `A|B|0x40`, `0` when empty (or `zero_name`).
pub fn flags(out: &mut String, v: u64, table: &[(u64, &str)], zero_name: Option<&str>, x: Xlat) {
    if x == Xlat::Raw {
        hex(out, v);
        return;
    }
    if v == 0 {
        match zero_name {
            Some(z) if x == Xlat::Verbose => {
                let _ = write!(out, "0 /* {z} */");
            }
            Some(z) => out.push_str(z),
            None => out.push('0'),
        }
        return;
    }
    let (mut names, rest) = flag_names(v, table);
    if rest != 0 {
        if !names.is_empty() {
            names.push('|');
        }
        let _ = write!(names, "{rest:#x}");
    }
    if x == Xlat::Verbose {
        let _ = write!(out, "{v:#x} /* {names} */");
    } else {
        out.push_str(&names);
    }
}

/// The names of `v`'s bits joined with `|`, in the table's order (a name
/// of several bits takes them all), and the bits no name covers.
pub(crate) fn flag_names(v: u64, table: &[(u64, &str)]) -> (String, u64) {
    let mut names = String::new();
    let mut rest = v;
    for &(bit, name) in table {
        if bit != 0 && rest & bit == bit {
            if !names.is_empty() {
                names.push('|');
            }
            names.push_str(name);
            rest &= !bit;
        }
    }
    (names, rest)
}

/// Flags as [`flags`] prints them, and when no bit has a name, the number
/// with strace's hint of what it should have been (`0x1 /* O_??? */`): the
/// names' common prefix up to its last `_`.
pub fn flags_hinted(out: &mut String, v: u64, table: &[(u64, &str)], x: Xlat) {
    let named = table.iter().any(|&(bit, _)| bit != 0 && v & bit == bit);
    if v == 0 || named || x == Xlat::Raw {
        flags(out, v, table, None, x);
        return;
    }
    hex(out, v);
    // the prefix the table's names share (those of the first one's family:
    // open's table also holds __O_SYNC and FASYNC)
    let Some(&(_, first)) = table.first() else {
        return;
    };
    let family = match first.find('_') {
        Some(k) => &first[..=k],
        None => return,
    };
    let common = table
        .iter()
        .map(|(_, n)| *n)
        .filter(|n| n.starts_with(family))
        .fold(first, |p, n| {
            let k = p.bytes().zip(n.bytes()).take_while(|(a, b)| a == b).count();
            &p[..k]
        });
    if let Some(cut) = common.rfind('_') {
        let _ = write!(out, " /* {}???", &common[..=cut]);
        out.push_str(" */");
    }
}

/// Flags as strace's printflags with its default string: the names joined
/// with `|` and what is left in hex; `0` (or the table's name for 0) when
/// none is set; the number with `/* hint */` when no bit has a name.
pub fn flags_default(out: &mut String, v: u64, table: &[(u64, &str)], hint: &str, x: Xlat) {
    if x == Xlat::Raw {
        hex(out, v);
        return;
    }
    if v == 0 {
        match table.iter().find(|(b, _)| *b == 0) {
            Some((_, n)) if x == Xlat::Verbose => {
                let _ = write!(out, "0 /* {n} */");
            }
            Some((_, n)) => out.push_str(n),
            None => out.push('0'),
        }
        return;
    }
    let (mut names, rest) = flag_names(v, table);
    if names.is_empty() {
        let _ = write!(out, "{v:#x} /* {hint} */");
        return;
    }
    if rest != 0 {
        let _ = write!(names, "|{rest:#x}");
    }
    if x == Xlat::Verbose {
        let _ = write!(out, "{v:#x} /* {names} */");
    } else {
        out.push_str(&names);
    }
}

/// One value from an enumeration, or the number with a `/* NAME_??? */` hint.
pub fn enumv(
    out: &mut String,
    v: u64,
    table: &[(u64, &str)],
    unknown_hint: &str,
    x: Xlat,
    as_hex: bool,
) {
    let name = table.iter().find(|(k, _)| *k == v).map(|(_, n)| *n);
    let num = |out: &mut String| {
        if as_hex {
            hex(out, v)
        } else {
            let _ = write!(out, "{}", v as i64);
        }
    };
    match (name, x) {
        (Some(n), Xlat::Abbrev) => out.push_str(n),
        (Some(n), Xlat::Verbose) => {
            num(out);
            let _ = write!(out, " /* {n} */");
        }
        (Some(_), Xlat::Raw) => num(out),
        (None, Xlat::Raw) => num(out),
        (None, _) => {
            num(out);
            if !unknown_hint.is_empty() {
                let _ = write!(out, " /* {unknown_hint} */");
            }
        }
    }
}

/// File mode bits as strace prints them: `0644`, `S_IFREG|0644`, `S_ISUID|0755`.
pub fn mode(out: &mut String, m: u64, with_type: bool) {
    let mut parts = String::new();
    if with_type {
        let t = match m & 0o170000 {
            0o140000 => Some("S_IFSOCK"),
            0o120000 => Some("S_IFLNK"),
            0o100000 => Some("S_IFREG"),
            0o060000 => Some("S_IFBLK"),
            0o040000 => Some("S_IFDIR"),
            0o020000 => Some("S_IFCHR"),
            0o010000 => Some("S_IFIFO"),
            _ => None,
        };
        if let Some(t) = t {
            parts.push_str(t);
            parts.push('|');
        }
    }
    for (bit, name) in [
        (0o4000, "S_ISUID"),
        (0o2000, "S_ISGID"),
        (0o1000, "S_ISVTX"),
    ] {
        if m & bit != 0 {
            parts.push_str(name);
            parts.push('|');
        }
    }
    parts.push_str(&octal(m & 0o777));
    out.push_str(&parts);
}

/// C's `%#03o`: a leading 0, at least three digits (`0644`, `000`, `007`).
pub fn octal(v: u64) -> String {
    let o = if v == 0 {
        "0".to_string()
    } else {
        format!("0{v:o}")
    };
    format!("{o:0>3}")
}

/// Days since 1970-01-01 as a civil (proleptic Gregorian) date: (year,
/// month, day), by Howard Hinnant's days-to-civil arithmetic.
pub(crate) fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(b: &[u8]) -> String {
        let mut s = String::new();
        quoted(&mut s, b, false, HexStr::None);
        s
    }

    #[test]
    fn escapes_like_strace() {
        assert_eq!(
            q(b"\x7fELF\x02\x01\x01\x03\0\0"),
            r#""\177ELF\2\1\1\3\0\0""#
        );
        assert_eq!(q(b"a\x00001"), r#""a\000001""#);
        assert_eq!(q(b"tab\there\n"), r#""tab\there\n""#);
        assert_eq!(q(b"q\"b\\"), r#""q\"b\\""#);
        assert_eq!(q(b"\x003"), r#""\0003""#);
        assert_eq!(q(b"P\x9f\x02"), r#""P\237\2""#);
    }

    #[test]
    fn flags_and_modes() {
        let t = [(1u64, "A"), (2, "B"), (8, "D")];
        let mut s = String::new();
        flags(&mut s, 3 | 0x40, &t, None, Xlat::Abbrev);
        assert_eq!(s, "A|B|0x40");
        s.clear();
        flags(&mut s, 0, &t, None, Xlat::Abbrev);
        assert_eq!(s, "0");
        s.clear();
        flags(&mut s, 3, &t, None, Xlat::Raw);
        assert_eq!(s, "0x3");
        s.clear();
        mode(&mut s, 0o100644, true);
        assert_eq!(s, "S_IFREG|0644");
        s.clear();
        mode(&mut s, 0, false);
        assert_eq!(s, "000");
        s.clear();
        mode(&mut s, 0o4755, false);
        assert_eq!(s, "S_ISUID|0755");
    }
}
