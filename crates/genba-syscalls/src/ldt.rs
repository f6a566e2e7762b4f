//! modify_ldt and its `struct user_desc`, printed as strace 6.1 prints them
//! (a family decoded in its own module: see [`super::family_decoder`]).

use std::fmt::Write;

use super::{arg, custom, le_u32, ArgWriter, CallView, Decoder, Options, Ret, Ty, Ty::*};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// `sizeof(struct user_desc)`.
const USER_DESC: usize = 16;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "modify_ldt" => Some(custom(dec_modify_ldt, Ret::Dec)),
        _ => None,
    }
}

/// The memory each custom decoder reads.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "modify_ldt" => Some(&[Skip, FixedIn(USER_DESC as u16)]),
        _ => None,
    }
}

/// Nothing beyond the argument types' plans.
pub(super) fn plan(name: &str, o: &Options, out: &mut [super::CapPlan; 6]) {
    let _ = (name, o, out);
}

/// modify_ldt's result: the kernel returns an int, so an error comes back
/// as a large positive number, which strace shows with the error's name.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = x;
    if name != "modify_ldt" {
        return false;
    }
    let Some(r) = call.ret() else { return false };
    if !(0xffff_f000..=0xffff_ffff).contains(&r) {
        return false;
    }
    let e = (r as u64 as u32).wrapping_neg() as i32;
    match c::errno_name(e) {
        Some((n, msg)) => {
            let _ = write!(s, "= {r} {n} ({msg})");
        }
        None => {
            let _ = write!(s, "= {r} E??? ({e})");
        }
    }
    true
}

/// modify_ldt(func, ptr, bytecount): the descriptor when bytecount is its
/// size, else the address.
fn dec_modify_ldt(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Int);
    w.sep();
    if a[2] == USER_DESC as u64 {
        user_desc(w, 1);
    } else {
        fmt::ptr(&mut w.s, a[1]);
    }
    arg(w, 2, Ulong);
}

/// `struct user_desc` (all of it), or the address when it cannot be read.
fn user_desc(w: &mut ArgWriter<'_>, i: usize) {
    let v = w.call.args[i];
    let Some(d) = w.call.data(i).filter(|d| d.len() >= USER_DESC) else {
        return fmt::ptr(&mut w.s, v);
    };
    w.s.push_str(&user_desc_text(d));
}

/// The fields of a `struct user_desc` (16 bytes at least).
fn user_desc_text(d: &[u8]) -> String {
    let mut s = String::new();
    let entry = le_u32(d, 0);
    s.push_str("{entry_number=");
    if entry == u32::MAX {
        s.push_str("-1");
    } else {
        let _ = write!(s, "{entry}");
    }
    // %#08x: no 0x for zero
    let hex = |v: u32| {
        if v == 0 {
            "00000000".to_string()
        } else {
            format!("{v:#08x}")
        }
    };
    let bits = le_u32(d, 12);
    let _ = write!(
        s,
        ", base_addr={}, limit={}, seg_32bit={}, contents={}, read_exec_only={}, \
         limit_in_pages={}, seg_not_present={}, useable={}, lm={}}}",
        hex(le_u32(d, 4)),
        hex(le_u32(d, 8)),
        bits & 1,
        (bits >> 1) & 3,
        (bits >> 3) & 1,
        (bits >> 4) & 1,
        (bits >> 5) & 1,
        (bits >> 6) & 1,
        (bits >> 7) & 1,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_desc_fields() {
        let mut d = [0u8; 16];
        d[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        d[12..16].copy_from_slice(&0x61u32.to_le_bytes());
        assert_eq!(
            user_desc_text(&d),
            "{entry_number=-1, base_addr=00000000, limit=00000000, seg_32bit=1, contents=0, \
             read_exec_only=0, limit_in_pages=0, seg_not_present=1, useable=1, lm=0}"
        );
        d[4..8].copy_from_slice(&0x10u32.to_le_bytes());
        assert!(user_desc_text(&d).contains("base_addr=0x000010,"));
    }
}
