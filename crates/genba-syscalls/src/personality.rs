//! personality(persona) (a family decoded in its own module: see
//! [`super::family_decoder`]), printed as strace 6.1 prints it: the
//! execution domain (the low byte) from its table, `|` and the flag bits
//! above it; the query value `0xffffffff` as a number. A successful return
//! is the previous persona, in hex, followed by the same text in
//! parentheses. Every part follows `-X`.

use std::fmt::Write;

use super::{custom, ArgWriter, CallView, CapPlan, Decoder, Options, Ret, Ty};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// The value that asks for the persona without changing it.
const QUERY: u32 = 0xffff_ffff;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "personality" => Some(custom(dec_personality, Ret::Hex)),
        _ => None,
    }
}

/// The argument types a custom decoder of this family reads: none.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "personality" => Some(&[]),
        _ => None,
    }
}

/// Nothing to capture: the persona is passed by value.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    let _ = (name, o, out);
}

/// The previous persona: `0x400006 (PER_BSD|ADDR_NO_RANDOMIZE)`.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    if name != "personality" {
        return false;
    }
    let r = call.ret().unwrap_or(0) as u32;
    s.push_str("= ");
    fmt::hex(s, r as u64);
    s.push_str(" (");
    persona(s, r, x);
    s.push(')');
    true
}

fn dec_personality(w: &mut ArgWriter<'_>) {
    w.sep();
    let p = w.call.args[0] as u32;
    if p == QUERY {
        let _ = write!(w.s, "{p:#x}");
    } else {
        persona(&mut w.s, p, w.opts.xlat);
    }
}

/// The domain, then `|` and the flags when some are set.
fn persona(s: &mut String, p: u32, x: Xlat) {
    let domain = (p as u64) & c::PER_MASK;
    fmt::enumv(s, domain, c::PERSONALITY_TYPES, "PER_???", x, true);
    let rest = (p as u64) & !c::PER_MASK;
    if rest == 0 {
        return;
    }
    s.push('|');
    let (names, left) = fmt::flag_names(rest, c::PERSONALITY_FLAGS);
    if x == Xlat::Raw || names.is_empty() {
        fmt::hex(s, rest);
        return;
    }
    if x == Xlat::Verbose {
        let _ = write!(s, "{rest:#x} /* ");
    }
    s.push_str(&names);
    if left != 0 {
        let _ = write!(s, "|{left:#x}");
    }
    if x == Xlat::Verbose {
        s.push_str(" */");
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::render;
    use super::super::{push_return_text, table, CallView, Options, Ret};
    use crate::fmt::Xlat;

    fn args(p: u64) -> [u64; 6] {
        [p, 0, 0, 0, 0, 0]
    }

    fn o(xlat: Xlat) -> Options {
        Options {
            xlat,
            ..Options::default()
        }
    }

    fn ret(r: i64, x: Xlat) -> String {
        let mut s = String::new();
        let call = CallView {
            nr: table::by_name("personality").unwrap().nr,
            args: args(0),
            enter: &[],
            exit: Some((r, &[])),
        };
        push_return_text(&mut s, "personality", call, Ret::Hex, x);
        s
    }

    #[test]
    fn arguments_follow_xlat() {
        let p = 0x0701_0006;
        let a = Xlat::Abbrev;
        assert_eq!(
            render("personality", args(0xffff_ffff), &[], None, &o(a)),
            "0xffffffff"
        );
        assert_eq!(
            render("personality", args(p), &[], None, &o(a)),
            "PER_BSD|SHORT_INODE|WHOLE_SECONDS|STICKY_TIMEOUTS|0x10000"
        );
        assert_eq!(
            render("personality", args(p), &[], None, &o(Xlat::Raw)),
            "0x6|0x7010000"
        );
        assert_eq!(
            render("personality", args(p), &[], None, &o(Xlat::Verbose)),
            "0x6 /* PER_BSD */|0x7010000 /* SHORT_INODE|WHOLE_SECONDS|STICKY_TIMEOUTS|0x10000 */"
        );
        assert_eq!(
            render("personality", args(0x1_001f), &[], None, &o(Xlat::Verbose)),
            "0x1f /* PER_??? */|0x10000"
        );
        assert_eq!(
            render("personality", args(0), &[], None, &o(Xlat::Raw)),
            "0"
        );
    }

    #[test]
    fn the_previous_persona_is_named_after_it() {
        assert_eq!(ret(0, Xlat::Abbrev), "= 0 (PER_LINUX)");
        assert_eq!(ret(0, Xlat::Verbose), "= 0 (0 /* PER_LINUX */)");
        assert_eq!(ret(0x7000000, Xlat::Raw), "= 0x7000000 (0|0x7000000)");
        assert_eq!(ret(0x1f, Xlat::Abbrev), "= 0x1f (0x1f /* PER_??? */)");
    }
}
