//! A long tail of calls, each small (a family decoded in its own module: see
//! [`super::family_decoder`]): credentials, kernel modules, protection keys,
//! device numbers and the like, printed as strace 6.1 prints them.

use std::fmt::Write;

use super::{arg, custom, ArgWriter, CapKind, CapPlan, CapWhen, Decoder, Options, Ret, Ty, Ty::*};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// `PKEY_*` access rights (pkey_alloc).
static PKEY_ACCESS: &[(u64, &str)] = &[
    (1, "PKEY_DISABLE_ACCESS"),
    (2, "PKEY_DISABLE_WRITE"),
    (4, "PKEY_DISABLE_EXECUTE"),
];

/// delete_module's flags.
static DELETE_MODULE_FLAGS: &[(u64, &str)] = &[(0o4000, "O_NONBLOCK"), (0o1000, "O_TRUNC")];

/// finit_module's flags.
static MODULE_INIT_FLAGS: &[(u64, &str)] = &[
    (1, "MODULE_INIT_IGNORE_MODVERSIONS"),
    (2, "MODULE_INIT_IGNORE_VERMAGIC"),
    (4, "MODULE_INIT_COMPRESSED_FILE"),
];

/// inotify's event mask.
static IN_MASK: &[(u64, &str)] = &[
    (0x1, "IN_ACCESS"),
    (0x2, "IN_MODIFY"),
    (0x4, "IN_ATTRIB"),
    (0x8, "IN_CLOSE_WRITE"),
    (0x10, "IN_CLOSE_NOWRITE"),
    (0x20, "IN_OPEN"),
    (0x40, "IN_MOVED_FROM"),
    (0x80, "IN_MOVED_TO"),
    (0x100, "IN_CREATE"),
    (0x200, "IN_DELETE"),
    (0x400, "IN_DELETE_SELF"),
    (0x800, "IN_MOVE_SELF"),
    (0x2000, "IN_UNMOUNT"),
    (0x4000, "IN_Q_OVERFLOW"),
    (0x8000, "IN_IGNORED"),
    (0x1000000, "IN_ONLYDIR"),
    (0x2000000, "IN_DONT_FOLLOW"),
    (0x4000000, "IN_EXCL_UNLINK"),
    (0x10000000, "IN_MASK_CREATE"),
    (0x20000000, "IN_MASK_ADD"),
    (0x40000000, "IN_ISDIR"),
    (0x80000000, "IN_ONESHOT"),
];

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    macro_rules! sig {
        ($ret:ident; $($t:expr),* $(,)?) => {
            Decoder { args: const { &[$($t),*] }, custom: None, ret: Ret::$ret }
        };
    }
    Some(match name {
        "alarm" => sig!(Dec; Uint),
        "iopl" => sig!(Dec; Int),
        "getcpu" => sig!(Dec; UintPtrOut, UintPtrOut, Ptr),
        "lookup_dcookie" => sig!(Dec; Ulong, BufOut, Ulong),
        "inotify_add_watch" => sig!(Dec; Fd, Path, FlagsH(IN_MASK, "IN_???")),
        "inotify_rm_watch" => sig!(Dec; Fd, Int),
        "getresuid" | "getresgid" => sig!(Dec; UidPtrOut, UidPtrOut, UidPtrOut),
        "setresuid" | "setresgid" => sig!(Dec; Uid, Uid, Uid),
        "setreuid" | "setregid" => sig!(Dec; Uid, Uid),
        "setfsuid" | "setfsgid" => sig!(Dec; Uid),
        "pkey_alloc" => sig!(Dec; Hex, Flags64H(PKEY_ACCESS, "PKEY_???")),
        "pkey_free" => sig!(Dec; Int),
        "pkey_mprotect" => sig!(Dec; Ptr, Ulong, Flags64H(c::PROT, "PROT_???"), Int),
        "mlock2" => sig!(Dec; Ptr, Ulong, FlagsH(c::MLOCK_FLAGS, "MLOCK_???")),
        "delete_module" => custom(dec_delete_module, Ret::Dec),
        "init_module" => custom(dec_init_module, Ret::Dec),
        "finit_module" => custom(dec_finit_module, Ret::Dec),
        "mknod" => custom(dec_mknod, Ret::Dec),
        "mknodat" => custom(dec_mknodat, Ret::Dec),
        _ => return None,
    })
}

/// The argument types a custom decoder of this family reads (their captures).
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    Some(match name {
        "mknod" => &[Path],
        "mknodat" => &[Skip, Path],
        "delete_module" => &[Str],
        "init_module" => &[Skip, Skip, Str],
        "finit_module" => &[Skip, Str],
        _ => return decoder(name).map(|_| &[] as &'static [Ty]),
    })
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    // a string's first -s + 1 bytes again, for when it runs into unmapped
    // memory before a NUL (see str_arg)
    let spare = |src: u8| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: o.strsize.min(4000) as u32 + 1,
        src_arg: Some(src),
        ..Default::default()
    };
    match name {
        "delete_module" => out[STR_SPARE] = spare(0),
        "init_module" => out[STR_SPARE] = spare(2),
        "finit_module" => out[STR_SPARE] = spare(1),
        _ => {}
    }
}

/// The free slot holding a string's first bytes read as a block.
const STR_SPARE: usize = 5;

/// A NUL-terminated string as strace prints it: when the copy ran into
/// unmapped memory before a NUL, its first -s characters and `...` if
/// -s + 1 bytes could be read (strace reads no more), else the address.
fn str_arg(w: &mut ArgWriter<'_>, i: usize) {
    let v = w.call.args[i];
    let faulted = v != 0 && w.call.cap(i).is_some_and(|c| c.fault);
    let n = w.opts.strsize;
    let call = w.call;
    match call.data(STR_SPARE).filter(|d| d.len() > n) {
        Some(d) if faulted && !d[..=n].contains(&0) => {
            w.sep();
            fmt::quoted(&mut w.s, &d[..n], true, w.opts.hex);
        }
        _ => arg(w, i, Str),
    }
}

fn dec_delete_module(w: &mut ArgWriter<'_>) {
    str_arg(w, 0);
    arg(w, 1, FlagsH(DELETE_MODULE_FLAGS, "O_???"));
}

fn dec_init_module(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    str_arg(w, 2);
}

fn dec_finit_module(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    str_arg(w, 1);
    arg(w, 2, FlagsH(MODULE_INIT_FLAGS, "MODULE_INIT_???"));
}

/// A file mode with its type, as strace's `print_symbolic_mode_t`: the
/// number alone when the type bits name no type.
pub(super) fn symbolic_mode(s: &mut String, m: u32, x: Xlat) {
    let m = m as u64;
    let known = m & 0o170000 == 0 || c::S_IFMT.iter().any(|(k, _)| *k == m & 0o170000);
    if !known || x == Xlat::Raw {
        s.push_str(&fmt::octal(m));
        return;
    }
    if x == Xlat::Verbose {
        let _ = write!(s, "{} /* ", fmt::octal(m));
        fmt::mode(s, m, true);
        s.push_str(" */");
    } else {
        fmt::mode(s, m, true);
    }
}

/// A `dev_t` as strace prints it: `makedev(MAJOR, MINOR)`.
pub(super) fn dev(s: &mut String, d: u64) {
    let major = ((d >> 8) & 0xfff) | ((d >> 32) & !0xfff);
    let minor = (d & 0xff) | ((d >> 12) & !0xff);
    let _ = write!(s, "makedev({major:#x}, {minor:#x})");
}

fn mknod_rest(w: &mut ArgWriter<'_>, off: usize) {
    arg(w, off, Path);
    w.sep();
    let m = w.call.args[off + 1] as u16 as u32;
    symbolic_mode(&mut w.s, m, w.opts.xlat);
    if matches!(m & 0o170000, 0o020000 | 0o060000) {
        w.sep();
        dev(&mut w.s, w.call.args[off + 2] as u32 as u64);
    }
}

fn dec_mknod(w: &mut ArgWriter<'_>) {
    mknod_rest(w, 0);
}

fn dec_mknodat(w: &mut ArgWriter<'_>) {
    arg(w, 0, DirFd);
    mknod_rest(w, 1);
}
