//! The System V IPC calls (a family decoded in its own module: see
//! [`super::family_decoder`]): message queues, semaphore sets and shared
//! memory, as x86_64's direct system calls, printed as strace 6.1 prints
//! them.
//!
//! The structures are the kernel's 64-bit ones (`struct msqid64_ds`,
//! `semid64_ds`, `shmid64_ds`, `shminfo64`), whatever `IPC_64` the command
//! carries: strace reads those on x86_64.

use std::fmt::Write;

use super::{
    arg, custom, le_u32, le_u64, ArgWriter, CallView, CapCond, CapKind, CapPlan, CapWhen, Decoder,
    Options, Ret, Ty,
};
use crate::fmt::{self, Xlat};

/// The bit of a `*ctl` command asking for the 64-bit structures.
const IPC_64: u64 = 0x100;

/// `IPC_SET`, the one command whose structure is read at entry.
const IPC_SET: u32 = 1;

static IPC_PRIVATE: &[(u64, &str)] = &[(0, "IPC_PRIVATE")];

/// `msgget`'s and `semget`'s flags (strace's `resource_flags`).
static RESOURCE_FLAGS: &[(u64, &str)] = &[
    (0o1000, "IPC_CREAT"),
    (0o2000, "IPC_EXCL"),
    (0o4000, "IPC_NOWAIT"),
];

/// `shmget`'s flags, beside the huge page size.
static SHM_RESOURCE_FLAGS: &[(u64, &str)] = &[
    (0o1000, "IPC_CREAT"),
    (0o2000, "IPC_EXCL"),
    (0o4000, "SHM_HUGETLB"),
    (0o10000, "SHM_NORESERVE"),
];

/// `shmat`'s flags.
static SHM_FLAGS: &[(u64, &str)] = &[
    (0o10000, "SHM_RDONLY"),
    (0o20000, "SHM_RND"),
    (0o40000, "SHM_REMAP"),
    (0o100000, "SHM_EXEC"),
];

/// `msgsnd`'s and `msgrcv`'s flags.
static MSG_FLAGS: &[(u64, &str)] = &[
    (0o10000, "MSG_NOERROR"),
    (0o20000, "MSG_EXCEPT"),
    (0o40000, "MSG_COPY"),
    (0o4000, "IPC_NOWAIT"),
];

/// `struct sembuf`'s `sem_flg`.
static SEMOP_FLAGS: &[(u64, &str)] = &[(0x1000, "SEM_UNDO"), (0o4000, "IPC_NOWAIT")];

static MSGCTL_CMDS: &[(u64, &str)] = &[
    (0, "IPC_RMID"),
    (1, "IPC_SET"),
    (2, "IPC_STAT"),
    (3, "IPC_INFO"),
    (11, "MSG_STAT"),
    (12, "MSG_INFO"),
    (13, "MSG_STAT_ANY"),
];

static SEMCTL_CMDS: &[(u64, &str)] = &[
    (0, "IPC_RMID"),
    (1, "IPC_SET"),
    (2, "IPC_STAT"),
    (3, "IPC_INFO"),
    (11, "GETPID"),
    (12, "GETVAL"),
    (13, "GETALL"),
    (14, "GETNCNT"),
    (15, "GETZCNT"),
    (16, "SETVAL"),
    (17, "SETALL"),
    (18, "SEM_STAT"),
    (19, "SEM_INFO"),
    (20, "SEM_STAT_ANY"),
];

static SHMCTL_CMDS: &[(u64, &str)] = &[
    (0, "IPC_RMID"),
    (1, "IPC_SET"),
    (2, "IPC_STAT"),
    (3, "IPC_INFO"),
    (11, "SHM_LOCK"),
    (12, "SHM_UNLOCK"),
    (13, "SHM_STAT"),
    (14, "SHM_INFO"),
    (15, "SHM_STAT_ANY"),
];

/// The commands that fill a `*id_ds` and those that fill an info struct.
const MSG_STAT_CMDS: &[u8] = &[2, 11, 13];
const MSG_INFO_CMDS: &[u8] = &[3, 12];
const SEM_STAT_CMDS: &[u8] = &[2, 18, 20];
const SEM_INFO_CMDS: &[u8] = &[3, 19];
const SHM_STAT_CMDS: &[u8] = &[2, 13, 15];
const SHM_IPC_INFO_CMDS: &[u8] = &[3];
const SHM_INFO_CMDS: &[u8] = &[14];

/// Sizes of the structures (x86_64).
const MSQID_DS: u32 = 120;
const MSGINFO: u32 = 32;
const SEMID_DS: u32 = 104;
const SEMINFO: u32 = 40;
const SHMID_DS: u32 = 112;
const SHMINFO: u32 = 72;
const SHM_INFO: u32 = 48;
/// `struct msgbuf` as strace reads it: `long mtype` and `char mtext[1]`,
/// padded.
const MSGBUF_HEAD: u32 = 16;
/// `struct sembuf`.
const SEMBUF: u64 = 6;
/// The most `struct sembuf`s copied with `-v` (strace then prints them all).
const SEMBUF_VERBOSE_MAX: u64 = 2048;

/// The slots of the `struct msgbuf` copies (msgsnd, msgrcv): the head in
/// the pointer's own slot, then `msgsz` bytes from its start (at most what
/// strace reads), then as many as strace reads at most whatever `msgsz`.
const MSGBUF_SLOT: usize = 1;
const MSGBUF_SLOT_SIZED: usize = 4;
const MSGBUF_SLOT_WHOLE: usize = 5;

/// The slot of the first `struct sembuf` alone (semop, semtimedop), for an
/// array whose end cannot be read.
const SEMBUF_SLOT_FIRST: usize = 5;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    Some(match name {
        "msgget" => custom(dec_msgget, Ret::Dec),
        "semget" => custom(dec_semget, Ret::Dec),
        "shmget" => custom(dec_shmget, Ret::Dec),
        "msgsnd" => custom(dec_msgsnd, Ret::Dec),
        "msgrcv" => custom(dec_msgrcv, Ret::Dec),
        "msgctl" => custom(dec_msgctl, Ret::Dec),
        "semop" => custom(dec_semop, Ret::Dec),
        "semtimedop" => custom(dec_semtimedop, Ret::Dec),
        "semctl" => custom(dec_semctl, Ret::Dec),
        "shmat" => custom(dec_shmat, Ret::Hex),
        "shmdt" => custom(dec_shmdt, Ret::Dec),
        "shmctl" => custom(dec_shmctl, Ret::Dec),
        _ => return None,
    })
}

/// The argument types a custom decoder of this family reads (their captures):
/// none, [`plan`] says what each call copies.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    decoder(name).map(|_| &[] as &'static [Ty])
}

/// A copy of `max` bytes at `when`, of the slot's own argument or of `src`'s.
fn fixed(when: CapWhen, max: u32, src: Option<u8>, cond: Option<CapCond>) -> CapPlan {
    CapPlan {
        kind: CapKind::Fixed,
        when,
        max,
        src_arg: src,
        cond,
        ..Default::default()
    }
}

/// The bytes of a `*ctl` command (the command in `cmd_arg`, `IPC_64` aside)
/// among `cmds`.
fn cmd_is(cmd_arg: u8, cmds: &[u8]) -> Option<CapCond> {
    Some(CapCond::one_of(cmd_arg, !(IPC_64 as u32), cmds))
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    // what strace reads of a message: the head, and msgsz bytes of text
    // from offset 8, at most one more than -s
    let text = o.strsize.min(8192) as u32 + 1;
    let msgbuf = |out: &mut [CapPlan; 6], when| {
        out[MSGBUF_SLOT] = fixed(when, MSGBUF_HEAD, None, None);
        out[MSGBUF_SLOT_SIZED] = CapPlan {
            kind: CapKind::ArgLen,
            when,
            len_arg: 2,
            max: text + 8,
            src_arg: Some(1),
            ..Default::default()
        };
        out[MSGBUF_SLOT_WHOLE] = fixed(when, text + 8, Some(1), None);
    };
    // the sembuf array: as many as strace prints, and the one past them
    // that it reads before its `...`
    let sembufs = |out: &mut [CapPlan; 6]| {
        let n = if o.verbose {
            SEMBUF_VERBOSE_MAX
        } else {
            (o.strsize as u64).min(SEMBUF_VERBOSE_MAX) + 1
        };
        out[1] = CapPlan {
            kind: CapKind::ArgLen,
            when: CapWhen::Enter,
            len_arg: 2,
            mult: SEMBUF as u8,
            max: (n * SEMBUF) as u32,
            ..Default::default()
        };
        out[SEMBUF_SLOT_FIRST] = fixed(CapWhen::Enter, SEMBUF as u32, Some(1), None);
    };
    let exit_ok = CapWhen::ExitOk;
    match name {
        "msgsnd" => msgbuf(out, CapWhen::Enter),
        "msgrcv" => msgbuf(out, exit_ok),
        "semop" => sembufs(out),
        "semtimedop" => {
            sembufs(out);
            out[3] = fixed(CapWhen::Enter, 16, None, None);
        }
        "msgctl" => {
            out[2] = fixed(CapWhen::Enter, MSQID_DS, None, cmd_is(1, &[1]));
            out[3] = fixed(exit_ok, MSQID_DS, Some(2), cmd_is(1, MSG_STAT_CMDS));
            out[4] = fixed(exit_ok, MSGINFO, Some(2), cmd_is(1, MSG_INFO_CMDS));
        }
        "semctl" => {
            out[3] = fixed(CapWhen::Enter, SEMID_DS, None, cmd_is(2, &[1]));
            out[4] = fixed(exit_ok, SEMID_DS, Some(3), cmd_is(2, SEM_STAT_CMDS));
            out[5] = fixed(exit_ok, SEMINFO, Some(3), cmd_is(2, SEM_INFO_CMDS));
        }
        "shmctl" => {
            out[2] = fixed(CapWhen::Enter, SHMID_DS, None, cmd_is(1, &[1]));
            out[3] = fixed(exit_ok, SHMID_DS, Some(2), cmd_is(1, SHM_STAT_CMDS));
            out[4] = fixed(exit_ok, SHMINFO, Some(2), cmd_is(1, SHM_IPC_INFO_CMDS));
            out[5] = fixed(exit_ok, SHM_INFO, Some(2), cmd_is(1, SHM_INFO_CMDS));
        }
        _ => {}
    }
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

/// A set of flags as strace's `printflags` prints it: nothing at all for
/// none without a default (`0` with one); with `-X verbose` the number,
/// then the names in a comment (the default instead when no bit has a
/// name). True when it printed a name or a number (strace's nonzero return,
/// which puts a `|` before a mode).
fn flags(s: &mut String, v: u64, table: &[(u64, &str)], dflt: Option<&str>, x: Xlat) -> bool {
    if x == Xlat::Raw {
        if v != 0 || dflt.is_some() {
            fmt::hex(s, v);
            return true;
        }
        return false;
    }
    let verbose = x == Xlat::Verbose;
    if verbose && v != 0 {
        fmt::hex(s, v);
    }
    let mut n = 0;
    let mut rest = v;
    for &(bit, name) in table {
        if rest == 0 {
            break;
        }
        if bit != 0 && rest & bit == bit {
            if n > 0 {
                s.push('|');
            } else if verbose {
                s.push_str(" /* ");
            }
            s.push_str(name);
            n += 1;
            rest &= !bit;
        }
    }
    if n > 0 {
        if rest != 0 {
            s.push('|');
            fmt::hex(s, rest);
        }
        if verbose {
            s.push_str(" */");
        }
        return true;
    }
    if rest != 0 {
        if !verbose {
            fmt::hex(s, rest);
        }
        if let Some(d) = dflt {
            let _ = write!(s, " /* {d} */");
        }
    } else if dflt.is_some() {
        s.push('0');
    }
    false
}

/// An IPC key: `IPC_PRIVATE` or its number.
fn key(s: &mut String, v: u64, x: Xlat) {
    fmt::enumv(s, v as u32 as u64, IPC_PRIVATE, "", x, true);
}

/// `msgget`'s and `semget`'s flags: the named ones, then the permissions.
fn resource_flags(s: &mut String, v: u64, x: Xlat) {
    let v = v as u32 as u64;
    if flags(s, v & !0o777, RESOURCE_FLAGS, None, x) {
        s.push('|');
    }
    s.push_str(&fmt::octal(v & 0o777));
}

/// msgget(key, msgflg).
fn dec_msgget(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    w.sep();
    key(&mut w.s, a[0], x);
    w.sep();
    resource_flags(&mut w.s, a[1], x);
}

/// semget(key, nsems, semflg).
fn dec_semget(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    w.sep();
    key(&mut w.s, a[0], x);
    arg(w, 1, Ty::Int);
    w.sep();
    resource_flags(&mut w.s, a[2], x);
}

/// The huge page size bits of `shmget`'s flags.
const SHM_HUGE_SHIFT: u32 = 26;
const SHM_HUGE_MASK: u32 = 0x3f << SHM_HUGE_SHIFT;

/// shmget(key, size, shmflg): the flags, the huge page size as
/// `N<<SHM_HUGE_SHIFT`, the permissions.
fn dec_shmget(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    w.sep();
    key(&mut w.s, a[0], x);
    arg(w, 1, Ty::Ulong);
    w.sep();
    let s = &mut w.s;
    let v = a[2] as u32;
    let huge = v & !0o777 & SHM_HUGE_MASK;
    let rest = v & !0o777 & !SHM_HUGE_MASK;
    if rest != 0 || huge == 0 {
        flags(s, rest as u64, SHM_RESOURCE_FLAGS, None, x);
    }
    if huge != 0 {
        if rest != 0 {
            s.push('|');
        }
        let _ = write!(s, "{}<<", huge >> SHM_HUGE_SHIFT);
        let _ = match x {
            Xlat::Abbrev => write!(s, "SHM_HUGE_SHIFT"),
            Xlat::Raw => write!(s, "{SHM_HUGE_SHIFT}"),
            Xlat::Verbose => write!(s, "{SHM_HUGE_SHIFT} /* SHM_HUGE_SHIFT */"),
        };
    }
    if rest != 0 || huge != 0 {
        s.push('|');
    }
    s.push_str(&fmt::octal(v as u64 & 0o777));
}

/// Counts an address printed for memory that could not be read, where
/// strace would have read it: not a null pointer, nor a failed call's.
fn unreadable(w: &ArgWriter<'_>, addr: u64) {
    if addr != 0 && w.call.ret().is_none_or(|r| r >= 0) {
        w.env.unreadable.set(w.env.unreadable.get() + 1);
    }
}

/// The bytes of slot `i`, if they were read and hold at least `n`.
fn bytes<'b>(call: &'b CallView<'_>, i: usize, n: usize) -> Option<&'b [u8]> {
    call.cap(i)
        .filter(|c| !c.fault && c.data.len() >= n)
        .map(|c| c.data.as_slice())
}

/// `struct msgbuf` at `addr` with `count` bytes of text, as strace prints
/// it: `{mtype=1, mtext="..."}`; the address when its head cannot be read,
/// the text's when the text cannot.
fn msgbuf(w: &mut ArgWriter<'_>, addr: u64, count: u64) {
    let call = w.call;
    let opts = w.opts;
    let Some(head) = bytes(&call, MSGBUF_SLOT, MSGBUF_HEAD as usize) else {
        unreadable(w, addr);
        fmt::ptr(&mut w.s, addr);
        return;
    };
    let _ = write!(w.s, "{{mtype={}, mtext=", le_u64(head, 0) as i64);
    // strace reads one byte more than -s shows, when there are that many
    let n = count.min(opts.strsize as u64 + 1) as usize;
    let from_caps = [MSGBUF_SLOT_SIZED, MSGBUF_SLOT_WHOLE, MSGBUF_SLOT]
        .iter()
        .find_map(|&i| bytes(&call, i, n + 8))
        .map(|d| d[8..8 + n].to_vec());
    let text = from_caps.or_else(|| {
        let read = w.env.read_mem?;
        read(addr.wrapping_add(8), n).filter(|d| d.len() == n)
    });
    match text {
        Some(t) => {
            let shown = &t[..n.min(opts.strsize)];
            fmt::quoted(&mut w.s, shown, count > opts.strsize as u64, opts.hex);
        }
        None => {
            unreadable(w, addr);
            fmt::ptr(&mut w.s, addr.wrapping_add(8));
        }
    }
    w.s.push('}');
}

/// msgsnd(msqid, msgp, msgsz, msgflg).
fn dec_msgsnd(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    arg(w, 0, Ty::Int);
    w.sep();
    msgbuf(w, a[1], a[2]);
    arg(w, 2, Ty::Ulong);
    w.sep();
    flags(&mut w.s, a[3] as u32 as u64, MSG_FLAGS, Some("MSG_???"), x);
}

/// msgrcv(msqid, msgp, msgsz, msgtyp, msgflg): all but the queue at exit.
fn dec_msgrcv(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    arg(w, 0, Ty::Int);
    if !w.exiting() {
        return;
    }
    w.sep();
    msgbuf(w, a[1], a[2]);
    arg(w, 2, Ty::Ulong);
    arg(w, 3, Ty::Long);
    w.sep();
    flags(&mut w.s, a[4] as u32 as u64, MSG_FLAGS, Some("MSG_???"), x);
}

/// One `struct sembuf`.
fn sembuf(s: &mut String, d: &[u8], x: Xlat) {
    let num = u16::from_le_bytes([d[0], d[1]]);
    let op = i16::from_le_bytes([d[2], d[3]]);
    let flg = u16::from_le_bytes([d[4], d[5]]);
    let _ = write!(s, "{{sem_num={num}, sem_op={op}, sem_flg=");
    flags(s, flg as u64, SEMOP_FLAGS, Some("SEM_???"), x);
    s.push('}');
}

/// semop's and semtimedop's array of `nsops` `struct sembuf`s, as strace
/// prints arrays: no more than -s elements without -v, then `...`; where
/// an element cannot be read, `... /* its address */`.
fn sembufs(w: &mut ArgWriter<'_>, addr: u64, nsops: u32) {
    let call = w.call;
    let x = w.opts.xlat;
    let s = &mut w.s;
    if addr == 0 {
        s.push_str("NULL");
        return;
    }
    if nsops == 0 {
        s.push_str("[]");
        return;
    }
    let nsops = nsops as u64;
    let size = nsops * SEMBUF;
    if addr.wrapping_add(size) <= addr {
        fmt::ptr(s, addr);
        return;
    }
    let shown = if !w.opts.verbose && (w.opts.strsize as u64) < nsops {
        w.opts.strsize as u64
    } else {
        nsops
    };
    // strace reads the element after the last one it shows before
    // printing its `...`
    let wanted = (shown + 1).min(nsops);
    let elem = |k: u64| -> Option<Vec<u8>> {
        if let Some(c) = call.cap(1).filter(|c| !c.fault) {
            let at = (k * SEMBUF) as usize;
            if let Some(e) = c.data.get(at..at + SEMBUF as usize) {
                return Some(e.to_vec());
            }
        }
        if k == 0 {
            return bytes(&call, SEMBUF_SLOT_FIRST, SEMBUF as usize).map(|d| d[..6].to_vec());
        }
        // a verbose array longer than the copy: what strace reads on
        let read = w.env.read_mem?;
        read(addr + k * SEMBUF, SEMBUF as usize).filter(|d| d.len() == SEMBUF as usize)
    };
    let whole = call.cap(1).filter(|c| !c.fault).is_some();
    for k in 0..wanted {
        match elem(k) {
            Some(e) => {
                s.push_str(if k == 0 { "[" } else { ", " });
                if k >= shown {
                    s.push_str("...");
                    break;
                }
                sembuf(s, &e, x);
            }
            None if k == 0 => {
                w.env.unreadable.set(w.env.unreadable.get() + 1);
                fmt::ptr(s, addr);
                return;
            }
            // read, but more than genba copies (-v), and nothing to read on
            None if whole => {
                s.push_str(", ...");
                break;
            }
            // the copy of the whole array failed and nothing can read on:
            // the element after the first is taken for the unreadable one
            None => {
                let _ = write!(s, ", ... /* {:#x} */", addr + k * SEMBUF);
                break;
            }
        }
    }
    s.push(']');
}

/// semop(semid, sops, nsops).
fn dec_semop(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Ty::Int);
    w.sep();
    sembufs(w, a[1], a[2] as u32);
    arg(w, 2, Ty::Uint);
}

/// semtimedop(semid, sops, nsops, timeout).
fn dec_semtimedop(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Ty::Int);
    w.sep();
    sembufs(w, a[1], a[2] as u32);
    arg(w, 2, Ty::Uint);
    w.sep();
    match bytes(&w.call, 3, 16) {
        Some(d) if a[3] != 0 => {
            let _ = write!(
                w.s,
                "{{tv_sec={}, tv_nsec={}}}",
                le_u64(d, 0) as i64,
                le_u64(d, 8)
            );
        }
        _ => fmt::ptr(&mut w.s, a[3]),
    }
}

/// A `*ctl` command: `IPC_64|` when it has the bit, then the command; the
/// command without the bit returned.
fn ctl_cmd(w: &mut ArgWriter<'_>, i: usize, table: &[(u64, &str)], dflt: &str) -> u32 {
    let v = w.call.args[i] as u32 as u64;
    let x = w.opts.xlat;
    w.sep();
    if v & IPC_64 != 0 {
        fmt::enumv(&mut w.s, IPC_64, &[(IPC_64, "IPC_64")], "", x, true);
        w.s.push('|');
    }
    fmt::enumv(&mut w.s, v & !IPC_64, table, dflt, x, true);
    (v & !IPC_64) as u32
}

/// `struct ipc64_perm` (its first 48 bytes of `d`): all of it, or with
/// IPC_SET what the call sets.
fn ipc_perm(s: &mut String, d: &[u8], set: bool) {
    let id = |s: &mut String, v: u32| {
        if v == u32::MAX {
            s.push_str("-1");
        } else {
            let _ = write!(s, "{v}");
        }
    };
    s.push_str("{uid=");
    id(s, le_u32(d, 4));
    s.push_str(", gid=");
    id(s, le_u32(d, 8));
    let _ = write!(s, ", mode={}", fmt::octal(le_u32(d, 20) as u64));
    if !set {
        let _ = write!(s, ", key={}, cuid=", le_u32(d, 0));
        id(s, le_u32(d, 12));
        s.push_str(", cgid=");
        id(s, le_u32(d, 16));
    }
    s.push('}');
}

/// A structure the call reads or fills: printed by `f` from its `n` bytes
/// in slot `i`, else the address.
fn ctl_struct(
    w: &mut ArgWriter<'_>,
    i: usize,
    n: u32,
    addr: u64,
    f: impl FnOnce(&mut String, &[u8]),
) {
    w.sep();
    match bytes(&w.call, i, n as usize) {
        Some(d) => f(&mut w.s, d),
        None => {
            unreadable(w, addr);
            fmt::ptr(&mut w.s, addr)
        }
    }
}

/// `struct msqid64_ds`.
fn msqid_ds(s: &mut String, d: &[u8], set: bool) {
    s.push_str("{msg_perm=");
    ipc_perm(s, d, set);
    if !set {
        let _ = write!(
            s,
            ", msg_stime={}, msg_rtime={}, msg_ctime={}, msg_qnum={}",
            le_u64(d, 48),
            le_u64(d, 56),
            le_u64(d, 64),
            le_u64(d, 80)
        );
    }
    let _ = write!(s, ", msg_qbytes={}", le_u64(d, 88));
    if !set {
        let _ = write!(
            s,
            ", msg_lspid={}, msg_lrpid={}",
            le_u32(d, 96) as i32,
            le_u32(d, 100) as i32
        );
    }
    s.push('}');
}

/// `struct msginfo`.
fn msginfo(s: &mut String, d: &[u8]) {
    let i = |k: usize| le_u32(d, 4 * k) as i32;
    let _ = write!(
        s,
        "{{msgpool={}, msgmap={}, msgmax={}, msgmnb={}, msgmni={}, msgssz={}, msgtql={}, msgseg={}}}",
        i(0),
        i(1),
        i(2),
        i(3),
        i(4),
        i(5),
        i(6),
        u16::from_le_bytes([d[28], d[29]])
    );
}

/// msgctl(msqid, cmd, buf).
fn dec_msgctl(w: &mut ArgWriter<'_>) {
    let addr = w.call.args[2];
    arg(w, 0, Ty::Int);
    let cmd = ctl_cmd(w, 1, MSGCTL_CMDS, "MSG_???");
    match cmd {
        IPC_SET => ctl_struct(w, 2, MSQID_DS, addr, |s, d| msqid_ds(s, d, true)),
        2 | 11 | 13 => {
            if w.exiting() {
                ctl_struct(w, 3, MSQID_DS, addr, |s, d| msqid_ds(s, d, false));
            }
        }
        3 | 12 => {
            if w.exiting() {
                ctl_struct(w, 4, MSGINFO, addr, msginfo);
            }
        }
        _ => {
            w.sep();
            fmt::ptr(&mut w.s, addr);
        }
    }
}

/// `struct semid64_ds`.
fn semid_ds(s: &mut String, d: &[u8], set: bool) {
    s.push_str("{sem_perm=");
    ipc_perm(s, d, set);
    if !set {
        let _ = write!(
            s,
            ", sem_otime={}, sem_ctime={}, sem_nsems={}",
            le_u64(d, 48),
            le_u64(d, 64),
            le_u64(d, 80)
        );
    }
    s.push('}');
}

/// `struct seminfo`.
fn seminfo(s: &mut String, d: &[u8]) {
    let names = [
        "semmap", "semmni", "semmns", "semmnu", "semmsl", "semopm", "semume", "semusz", "semvmx",
        "semaem",
    ];
    s.push('{');
    for (k, n) in names.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{n}={}", le_u32(d, 4 * k) as i32);
    }
    s.push('}');
}

/// semctl(semid, semnum, cmd, arg): the union's pointer for the commands
/// with a structure, as an address for the others.
fn dec_semctl(w: &mut ArgWriter<'_>) {
    let addr = w.call.args[3];
    arg(w, 0, Ty::Int);
    arg(w, 1, Ty::Int);
    let cmd = ctl_cmd(w, 2, SEMCTL_CMDS, "SEM_???");
    match cmd {
        IPC_SET => ctl_struct(w, 3, SEMID_DS, addr, |s, d| semid_ds(s, d, true)),
        2 | 18 | 20 => {
            if w.exiting() {
                ctl_struct(w, 4, SEMID_DS, addr, |s, d| semid_ds(s, d, false));
            }
        }
        3 | 19 => {
            if w.exiting() {
                ctl_struct(w, 5, SEMINFO, addr, seminfo);
            }
        }
        _ => {
            w.sep();
            fmt::ptr(&mut w.s, addr);
        }
    }
}

/// `struct shmid64_ds`.
fn shmid_ds(s: &mut String, d: &[u8], set: bool) {
    s.push_str("{shm_perm=");
    ipc_perm(s, d, set);
    if !set {
        let _ = write!(
            s,
            ", shm_segsz={}, shm_cpid={}, shm_lpid={}, shm_nattch={}, shm_atime={}, shm_dtime={}, shm_ctime={}",
            le_u64(d, 48),
            le_u32(d, 80) as i32,
            le_u32(d, 84) as i32,
            le_u64(d, 88),
            le_u64(d, 56),
            le_u64(d, 64),
            le_u64(d, 72)
        );
    }
    s.push('}');
}

/// `struct shminfo64` (IPC_INFO).
fn shminfo(s: &mut String, d: &[u8]) {
    let _ = write!(
        s,
        "{{shmmax={}, shmmin={}, shmmni={}, shmseg={}, shmall={}}}",
        le_u64(d, 0),
        le_u64(d, 8),
        le_u64(d, 16),
        le_u64(d, 24),
        le_u64(d, 32)
    );
}

/// `struct shm_info` (SHM_INFO).
fn shm_info(s: &mut String, d: &[u8]) {
    let _ = write!(
        s,
        "{{used_ids={}, shm_tot={}, shm_rss={}, shm_swp={}, swap_attempts={}, swap_successes={}}}",
        le_u32(d, 0) as i32,
        le_u64(d, 8),
        le_u64(d, 16),
        le_u64(d, 24),
        le_u64(d, 32),
        le_u64(d, 40)
    );
}

/// shmctl(shmid, cmd, buf).
fn dec_shmctl(w: &mut ArgWriter<'_>) {
    let addr = w.call.args[2];
    arg(w, 0, Ty::Int);
    let cmd = ctl_cmd(w, 1, SHMCTL_CMDS, "SHM_???");
    match cmd {
        IPC_SET => ctl_struct(w, 2, SHMID_DS, addr, |s, d| shmid_ds(s, d, true)),
        2 | 13 | 15 => {
            if w.exiting() {
                ctl_struct(w, 3, SHMID_DS, addr, |s, d| shmid_ds(s, d, false));
            }
        }
        3 => {
            if w.exiting() {
                ctl_struct(w, 4, SHMINFO, addr, shminfo);
            }
        }
        14 => {
            if w.exiting() {
                ctl_struct(w, 5, SHM_INFO, addr, shm_info);
            }
        }
        _ => {
            w.sep();
            fmt::ptr(&mut w.s, addr);
        }
    }
}

/// shmat(shmid, shmaddr, shmflg): the address it attached at, in hex.
fn dec_shmat(w: &mut ArgWriter<'_>) {
    let (a, x) = (w.call.args, w.opts.xlat);
    arg(w, 0, Ty::Int);
    arg(w, 1, Ty::Ptr);
    w.sep();
    flags(&mut w.s, a[2] as u32 as u64, SHM_FLAGS, Some("SHM_???"), x);
}

/// shmdt(shmaddr).
fn dec_shmdt(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ty::Ptr);
}

#[cfg(test)]
mod tests {
    use super::super::Options;
    use crate::fmt::Xlat;

    use super::super::testutil::{cap, faulted, render};

    fn xlat(x: Xlat) -> Options {
        Options {
            xlat: x,
            ..Options::default()
        }
    }

    /// A `struct msqid64_ds` with recognizable fields.
    fn msqid_ds() -> Vec<u8> {
        let mut d = vec![0u8; 120];
        let mut put32 = |off: usize, v: u32| d[off..off + 4].copy_from_slice(&v.to_le_bytes());
        put32(0, 0x1234); // key
        put32(4, 1000); // uid
        put32(8, u32::MAX); // gid -1
        put32(12, 0); // cuid
        put32(16, 5); // cgid
        put32(20, 0o1600); // mode
        put32(96, 77); // msg_lspid
        put32(100, u32::MAX); // msg_lrpid
        for (off, v) in [
            (48, 11u64),
            (56, 12),
            (64, 13),
            (72, 99),
            (80, 2),
            (88, 16384),
        ] {
            d[off..off + 8].copy_from_slice(&v.to_le_bytes());
        }
        d
    }

    #[test]
    fn msgctl_stat_with_ipc_64_at_exit() {
        let d = msqid_ds();
        let args = [7, 0x100 | 2, 0x7ff0_0000, 0, 0, 0];
        let exit = [cap(3, &d)];
        let want = "7, IPC_64|IPC_STAT, {msg_perm={uid=1000, gid=-1, mode=01600, key=4660, \
                    cuid=0, cgid=5}, msg_stime=11, msg_rtime=12, msg_ctime=13, msg_qnum=2, \
                    msg_qbytes=16384, msg_lspid=77, msg_lrpid=-1}";
        let o = Options::default();
        assert_eq!(render("msgctl", args, &[], Some((0, &exit)), &o), want);
        // at entry: up to the structure the call fills
        assert_eq!(
            render("msgctl", args, &[], None, &o),
            "7, IPC_64|IPC_STAT, "
        );
        // a failed call's buffer is an address
        assert_eq!(
            render("msgctl", args, &[], Some((-22, &[])), &o),
            "7, IPC_64|IPC_STAT, 0x7ff00000"
        );
        let raw = render("msgctl", args, &[], Some((0, &exit)), &xlat(Xlat::Raw));
        assert!(raw.starts_with("7, 0x100|0x2, {msg_perm="), "{raw}");
        let verbose = render("msgctl", args, &[], Some((0, &exit)), &xlat(Xlat::Verbose));
        assert!(
            verbose.starts_with("7, 0x100 /* IPC_64 */|0x2 /* IPC_STAT */, {"),
            "{verbose}"
        );
        // IPC_SET: read at entry, only what the call sets
        let set = [7, 1, 0x7ff0_0000, 0, 0, 0];
        assert_eq!(
            render("msgctl", set, &[cap(2, &d)], None, &o),
            "7, IPC_SET, {msg_perm={uid=1000, gid=-1, mode=01600}, msg_qbytes=16384}"
        );
        // an unknown command, its argument an address
        let bogus = |cmd: u64| render("msgctl", [7, cmd, 0, 0, 0, 0], &[], Some((-22, &[])), &o);
        assert_eq!(bogus(0xdeadbeef), "7, 0xdeadbeef /* MSG_??? */, NULL");
        assert_eq!(bogus(0x1ff), "7, IPC_64|0xff /* MSG_??? */, NULL");
    }

    #[test]
    fn get_flags_per_xlat_style() {
        let shmget = |flags: u64, x| render("shmget", [0, 1, flags, 0, 0, 0], &[], None, &xlat(x));
        let bogus = 0x2ce1e00 | 0o600 | 21 << 26;
        assert_eq!(
            shmget(bogus, Xlat::Abbrev),
            "IPC_PRIVATE, 1, IPC_CREAT|IPC_EXCL|SHM_HUGETLB|SHM_NORESERVE|0x2ce0000\
             |21<<SHM_HUGE_SHIFT|0600"
        );
        assert_eq!(shmget(bogus, Xlat::Raw), "0, 1, 0x2ce1e00|21<<26|0600");
        assert_eq!(
            shmget(bogus, Xlat::Verbose),
            "0 /* IPC_PRIVATE */, 1, 0x2ce1e00 /* IPC_CREAT|IPC_EXCL|SHM_HUGETLB\
             |SHM_NORESERVE|0x2ce0000 */|21<<26 /* SHM_HUGE_SHIFT */|0600"
        );
        assert_eq!(shmget(0, Xlat::Abbrev), "IPC_PRIVATE, 1, 000");
        assert_eq!(shmget(0, Xlat::Raw), "0, 1, 000");
        let msgget = |flags: u64, x| {
            render(
                "msgget",
                [0xfdb97531, flags, 0, 0, 0, 0],
                &[],
                None,
                &xlat(x),
            )
        };
        assert_eq!(msgget(0o600, Xlat::Raw), "0xfdb97531, 0600");
        assert_eq!(
            msgget(0xface1e55 & !0o1000, Xlat::Abbrev),
            "0xfdb97531, IPC_EXCL|IPC_NOWAIT|0xface1000|0125"
        );
    }

    #[test]
    fn msgbuf_text_and_unreadable_parts() {
        let mut m = 5i64.to_le_bytes().to_vec();
        m.extend_from_slice(b"hello, world\0\0\0\0");
        let o = Options {
            strsize: 5,
            ..Options::default()
        };
        // the head, and msgsz bytes from the start (one more than -s shows)
        let enter = [cap(1, &m[..16]), cap(4, &m[..12]), cap(5, &m[..14])];
        assert_eq!(
            render("msgsnd", [3, 0x1000, 12, 0o4000, 0, 0], &enter, None, &o),
            "3, {mtype=5, mtext=\"hello\"...}, 12, IPC_NOWAIT"
        );
        // the text past the head unreadable: its address
        let enter = [cap(1, &m[..16]), cap(4, &m[..12]), faulted(5)];
        let o = Options::default();
        assert_eq!(
            render("msgsnd", [3, 0x1000, 12, 0, 0, 0], &enter, None, &o),
            "3, {mtype=5, mtext=0x1008}, 12, 0"
        );
        // the head unreadable: the address
        assert_eq!(
            render(
                "msgsnd",
                [3, 0x1000, 2, 0x40, 0, 0],
                &[faulted(1)],
                None,
                &o
            ),
            "3, 0x1000, 2, 0x40 /* MSG_??? */"
        );
        // msgrcv: all at exit, the buffer only when the call succeeded
        let exit = [cap(1, &m[..16]), cap(4, &m[..12]), cap(5, &m[..])];
        let args = [3, 0x1000, 4, (-2i64) as u64, 0o10000, 0];
        assert_eq!(render("msgrcv", args, &[], None, &o), "3, ");
        assert_eq!(
            render("msgrcv", args, &[], Some((4, &exit)), &o),
            "3, {mtype=5, mtext=\"hell\"}, 4, -2, MSG_NOERROR"
        );
        assert_eq!(
            render("msgrcv", args, &[], Some((-42, &[])), &o),
            "3, 0x1000, 4, -2, MSG_NOERROR"
        );
    }

    #[test]
    fn sembuf_arrays() {
        let e = |num: u16, op: i16, flg: u16| {
            let mut v = num.to_le_bytes().to_vec();
            v.extend_from_slice(&op.to_le_bytes());
            v.extend_from_slice(&flg.to_le_bytes());
            v
        };
        let o = Options::default();
        let one = e(0, -1, 0x1000);
        assert_eq!(
            render(
                "semop",
                [4, 0x2000, 1, 0, 0, 0],
                &[cap(1, &one), cap(5, &one)],
                None,
                &o
            ),
            "4, [{sem_num=0, sem_op=-1, sem_flg=SEM_UNDO}], 1"
        );
        // the array runs into unreadable memory after its first element
        let first = e(0xface, 0xf00du16 as i16, 0xbeef);
        assert_eq!(
            render(
                "semop",
                [4, 0x2000, 2, 0, 0, 0],
                &[faulted(1), cap(5, &first)],
                None,
                &o
            ),
            "4, [{sem_num=64206, sem_op=-4083, sem_flg=SEM_UNDO|IPC_NOWAIT|0xa6ef}, \
             ... /* 0x2006 */], 2"
        );
        assert_eq!(
            render("semop", [4, 0, 0xdeadbeef, 0, 0, 0], &[], None, &o),
            "4, NULL, 3735928559"
        );
        // more than -s elements: -s of them, then `...`
        let o2 = Options {
            strsize: 2,
            ..Options::default()
        };
        let three = [e(1, 1, 0), e(2, 2, 0), e(3, 3, 0)].concat();
        assert_eq!(
            render(
                "semop",
                [4, 0x2000, 3, 0, 0, 0],
                &[cap(1, &three)],
                None,
                &o2
            ),
            "4, [{sem_num=1, sem_op=1, sem_flg=0}, {sem_num=2, sem_op=2, sem_flg=0}, ...], 3"
        );
        let ts = [1u64.to_le_bytes(), 0xbadc0dedfacefeedu64.to_le_bytes()].concat();
        assert_eq!(
            render(
                "semtimedop",
                [4, 0x2000, 1, 0x3000, 0, 0],
                &[cap(1, &one), cap(3, &ts)],
                None,
                &o
            ),
            "4, [{sem_num=0, sem_op=-1, sem_flg=SEM_UNDO}], 1, \
             {tv_sec=1, tv_nsec=13464652301697220333}"
        );
    }
}
