//! Paths as strace prints them (its `printpath`): at most PATH_MAX - 1
//! bytes, `...` when no NUL lies in the first PATH_MAX bytes, and the
//! address when those cannot all be read before a NUL.
//!
//! The path's own capture is a string read of PATH_MAX + 2 bytes, which
//! fails when unreadable memory lies within them even where strace, reading
//! PATH_MAX bytes, succeeds: that happens only when the path starts at a
//! page's first or last byte (the unreadable page then starts PATH_MAX or
//! PATH_MAX + 1 bytes on). For those pointers a free slot copies the first
//! PATH_MAX - 1 bytes too ([`plan`]), which is what strace then shows.

use super::*;

/// PATH_MAX.
const PATH_MAX: usize = 4096;

/// The fallback capture of the path in argument `i`.
fn fallback(i: usize) -> CapPlan {
    CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: (PATH_MAX - 1) as u32,
        src_arg: Some(i as u8),
        cond: Some(CapCond {
            arg: i as u8,
            mask: 0xfff,
            val: 0,
            val2: 0xfff,
            bitmap: false,
        }),
        ..Default::default()
    }
}

/// Adds, for each path argument in `args`, its fallback capture in a free
/// slot (the last free ones), when there is one.
pub(super) fn plan(args: &[Ty], out: &mut [CapPlan; 6]) {
    for (i, t) in args.iter().enumerate().take(6) {
        if !matches!(t, Ty::Path) || out[i].kind != CapKind::Str {
            continue;
        }
        // a slot whose argument is printed without looking at captures
        let taken = |j: usize| {
            j < args.len()
                && !matches!(
                    args[j],
                    Ty::Skip
                        | Ty::Int
                        | Ty::Uint
                        | Ty::Fd
                        | Ty::DirFd
                        | Ty::Flags(_)
                        | Ty::Flags64(_)
                )
        };
        if let Some(j) = (0..6)
            .rev()
            .find(|&j| out[j].kind == CapKind::None && !taken(j))
        {
            out[j] = fallback(i);
        }
    }
}

/// The slot holding argument `i`'s fallback copy, for this call.
fn fallback_slot(call: CallView<'_>, i: usize, o: &Options) -> Option<usize> {
    let name = table::by_nr(call.nr)?.name;
    let want = fallback(i);
    super::plan(name, o).iter().position(|p| *p == want)
}

/// What strace shows of the bytes read of a path (`d`, up to PATH_MAX of
/// them, or PATH_MAX - 1 from the fallback copy): the bytes and whether
/// `...` follows.
fn shown(d: &[u8]) -> (&[u8], bool) {
    let n = d.iter().position(|&b| b == 0).unwrap_or(d.len());
    if n >= PATH_MAX {
        (&d[..PATH_MAX - 1], true)
    } else if n == d.len() && n == PATH_MAX - 1 {
        // no NUL seen in PATH_MAX - 1 bytes: shown cut (a copy of those alone)
        (d, true)
    } else {
        (&d[..n], false)
    }
}

/// Prints path argument `i` (value `v`).
pub(super) fn print(
    s: &mut String,
    call: CallView<'_>,
    i: usize,
    v: u64,
    o: &Options,
    env: &Env<'_>,
) {
    if v == 0 {
        s.push_str("NULL");
        return;
    }
    match call.cap(i) {
        Some(c) if !c.fault => {
            let (d, more) = if c.data.len() >= PATH_MAX {
                (&c.data[..PATH_MAX - 1], true)
            } else {
                (&c.data[..], false)
            };
            fmt::quoted(s, d, more, o.hex);
            return;
        }
        Some(_) => {
            let fb = fallback_slot(call, i, o)
                .and_then(|j| call.cap(j))
                .filter(|c| !c.fault && c.data.len() == PATH_MAX - 1);
            if let Some(c) = fb {
                let (d, more) = shown(&c.data);
                fmt::quoted(s, d, more, o.hex);
                return;
            }
        }
        None => {}
    }
    // what the process has there now, if it can still be read
    let got = env
        .read_mem
        .and_then(|read| read(v, PATH_MAX))
        .filter(|d| d.len() == PATH_MAX || d.contains(&0));
    match got {
        Some(d) => {
            let (d, more) = shown(&d);
            fmt::quoted(s, d, more, o.hex);
        }
        None => {
            if call.cap(i).is_some() {
                env.unreadable.set(env.unreadable.get() + 1);
            }
            fmt::ptr(s, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_limits() {
        let long = vec![b'/'; PATH_MAX];
        assert_eq!(shown(&long), (&long[..PATH_MAX - 1], true));
        let mut exact = vec![b'a'; PATH_MAX - 1];
        exact.push(0);
        assert_eq!(shown(&exact), (&exact[..PATH_MAX - 1], false));
        assert_eq!(shown(b"ab\0cd"), (&b"ab"[..], false));
        let p = plan_of("chdir");
        assert_eq!(p[5], fallback(0));
        let p = plan_of("move_mount");
        assert_eq!(p[5], fallback(1));
        assert_eq!(p[4], fallback(3));
    }

    #[test]
    fn fd_path_bytes() {
        let raw = b"/d/a\x80\xffb (deleted)";
        let p = path_from_bytes(raw);
        assert_eq!(&*path_to_bytes(&p), raw);
        assert_eq!(fd_path_text(&p), "</d/a\\200\\377b>(deleted)");
        let kept = path_not_deleted(p);
        assert_eq!(fd_path_text(&kept), "</d/a\\200\\377b (deleted)>");
    }

    #[test]
    fn iov_buffer_all_or_nothing() {
        let elem = |data: &[u8], fault: bool| Capture {
            arg: 1,
            item: CaptureItem::Elem,
            elem: 0,
            fault,
            truncated: false,
            more: false,
            aux: u64::MAX,
            data: data.to_vec(),
        };
        let count = Capture {
            arg: 1,
            item: CaptureItem::Count,
            elem: 0,
            fault: false,
            truncated: false,
            more: false,
            aux: 1,
            data: Vec::new(),
        };
        let raw = [
            0x10u8, 0x20, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ];
        let o = Options::default();
        // 32 bytes read, the 33rd strace reads is not there: the address
        let short = elem(&[b'X'; 32], true);
        let mut s = String::new();
        super::super::iovec_raw(&mut s, &[&short, &count], 0x1000, &o, Some(&raw));
        assert_eq!(s, "[{iov_base=0x2010, iov_len=18446744073709551615}]");
        let whole = elem(&[b'X'; 33], false);
        let mut s = String::new();
        super::super::iovec_raw(&mut s, &[&whole, &count], 0x1000, &o, Some(&raw));
        // -s 32 of them shown, and the 33rd read says there are more
        assert_eq!(
            s,
            format!(
                "[{{iov_base=\"{}\"..., iov_len=18446744073709551615}}]",
                "X".repeat(32)
            )
        );
    }

    fn plan_of(name: &str) -> [CapPlan; super::super::SLOTS] {
        super::super::plan(name, &Options::default())
    }
}
