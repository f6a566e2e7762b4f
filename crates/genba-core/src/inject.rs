//! `-e inject=` and `-e fault=`: strace's fault injection, without ptrace.
//!
//! The program genba launches installs, just before its exec, a seccomp
//! filter that hands the calls to inject into to a listener in genba
//! (`SECCOMP_RET_USER_NOTIF`); genba takes the listener (pidfd_getfd)
//! before it lets the program exec. A thread of genba answers each call.
//! Counted per thread and call as strace counts (`when=`), the call either
//! runs (`SECCOMP_USER_NOTIF_FLAG_CONTINUE`) or is answered with an error
//! or a return value without running; the thread can hold it first
//! (`delay_enter=`) and send the thread a signal (`signal=`). What it did
//! goes to the collector before the answer, so that the trace says
//! `(INJECTED)` and `(DELAYED)` where strace does.
//!
//! The kernel's `bpf_override_return` would do this for any process, but
//! this kernel is built without it; ptrace would stop every call. The
//! seccomp filter stops only the calls named, and only in the program
//! genba starts: with `-p` injection is refused.

use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use genba_bpf::{InjectMarks, Pokes};
use genba_events::{INJ_DELAYED, INJ_POKED, INJ_SKIPPED};
use genba_syscalls::table;

use crate::filter;

/// strace's `when=` counter: the first call acted on, the last one
/// counted (`LAST_INF`: no end), and the step between them (0: only the
/// first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct When {
    first: u16,
    last: u16,
    step: u16,
}

const LAST_INF: u16 = u16::MAX;

impl When {
    /// `when=` of strace: `F`, `F+`, `F+S`, `F..L`, `F..L+S` (F >= 1).
    fn parse(v: &str) -> Option<When> {
        let num = |s: &str| s.parse::<u32>().ok().filter(|&n| n <= 0xffff);
        let (range, step) = match v.find('+') {
            Some(i) => (&v[..i], Some(&v[i + 1..])),
            None => (v, None),
        };
        let (first, last) = match range.split_once("..") {
            Some((f, l)) => (num(f)?, Some(num(l)?)),
            None => (num(range)?, None),
        };
        if first < 1 {
            return None;
        }
        if let Some(l) = last {
            if l < first || l == LAST_INF as u32 {
                return None;
            }
        }
        let step = match step {
            Some("") => 1,
            Some(s) => num(s).filter(|&n| n >= 1)?,
            None if last.is_some() => 1,
            None => 0,
        };
        Some(When {
            first: first as u16,
            last: last.map_or(LAST_INF, |l| l as u16),
            step: step as u16,
        })
    }

    /// Counts one call: whether to act on it (strace's countdown).
    fn count(&mut self) -> bool {
        if self.first == 0 || self.last == 0 {
            return false;
        }
        if self.last != LAST_INF {
            self.last -= 1;
        }
        self.first -= 1;
        if self.first != 0 {
            return false;
        }
        self.first = self.step;
        true
    }
}

/// What to do with a call when it is its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    when: When,
    /// Answer without running it: `Err(errno)` or `Ok(return value)`.
    answer: Option<std::result::Result<u64, i32>>,
    signal: Option<i32>,
    delay: Option<Duration>,
    /// `poke_enter=`/`poke_exit=`: an index in [`Injections::pokes`].
    pokes: Option<usize>,
}

/// What `poke_enter=` and `poke_exit=` write: (argument index from 0, the
/// bytes) pieces, over the memory the argument points to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PokeSet {
    enter: Vec<(usize, Vec<u8>)>,
    exit: Vec<(usize, Vec<u8>)>,
}

/// The rules by syscall number, from every `inject=` and `fault=` given
/// (a later one wins for the calls it names, as in strace).
#[derive(Debug, Clone, Default)]
pub struct Injections {
    rules: HashMap<u32, Rule>,
    pokes: Vec<PokeSet>,
}

/// strace's `@argN=HEX,@argM=HEX...` (N from 1 to 7, at most 1024 bytes a
/// piece).
fn parse_pokes(v: &str) -> Option<Vec<(usize, Vec<u8>)>> {
    if v.is_empty() {
        return None;
    }
    v.split(',')
        .map(|p| {
            let rest = p.strip_prefix("@arg")?;
            let (n, hex) = rest.split_once('=')?;
            let n: usize = n.parse().ok().filter(|n| (1..=7).contains(n))?;
            if hex.is_empty()
                || hex.len() % 2 != 0
                || hex.len() > 2048
                || !hex.bytes().all(|b| b.is_ascii_hexdigit())
            {
                return None;
            }
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
                .collect::<Option<Vec<u8>>>()?;
            Some((n - 1, bytes))
        })
        .collect()
}

impl Injections {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Adds `-e inject=EXPR` (`fault`: `-e fault=EXPR`, whose only action
    /// is an error, ENOSYS unless given).
    pub fn add(&mut self, expr: &str, fault: bool) -> Result<()> {
        let what = if fault {
            "fault argument"
        } else {
            "inject argument"
        };
        let bad = || anyhow!("invalid {what} '{expr}'");
        let mut tokens = expr.split(':');
        let set = tokens.next().unwrap_or("");
        let mut rule = Rule {
            when: When {
                first: 1,
                last: LAST_INF,
                step: 1,
            },
            answer: None,
            signal: None,
            delay: None,
            pokes: None,
        };
        let mut pokes = PokeSet::default();
        for t in tokens {
            let (k, v) = t.split_once('=').ok_or_else(bad)?;
            match (k, fault) {
                ("when", _) => rule.when = When::parse(v).ok_or_else(bad)?,
                ("error", _) => {
                    if rule.answer.is_some() {
                        return Err(bad());
                    }
                    let e = match v.parse::<i32>() {
                        Ok(n) => Some(n),
                        Err(_) => errno_by_name(v),
                    }
                    .filter(|n| (1..=4095).contains(n))
                    .ok_or_else(bad)?;
                    rule.answer = Some(Err(e));
                }
                ("retval", false) => {
                    if rule.answer.is_some() {
                        return Err(bad());
                    }
                    rule.answer = Some(Ok(parse_u64(v).ok_or_else(bad)?));
                }
                ("signal", false) => {
                    if rule.signal.is_some() {
                        return Err(bad());
                    }
                    let s = filter::signal_number(v)
                        .filter(|n| (1..=64).contains(n))
                        .ok_or_else(bad)?;
                    rule.signal = Some(s as i32);
                }
                ("delay_enter", false) => {
                    if rule.delay.is_some() {
                        return Err(bad());
                    }
                    rule.delay = Some(parse_delay(v).ok_or_else(bad)?);
                }
                ("delay_exit", false) => bail!(
                    "{what} '{expr}': delay_exit= is not supported by genba: it needs a stop \
                     after the call, which a seccomp listener does not get (delay_enter= is)"
                ),
                ("poke_enter", false) => {
                    if !pokes.enter.is_empty() {
                        return Err(bad());
                    }
                    pokes.enter = parse_pokes(v).ok_or_else(bad)?;
                }
                ("poke_exit", false) => {
                    if !pokes.exit.is_empty() {
                        return Err(bad());
                    }
                    pokes.exit = parse_pokes(v).ok_or_else(bad)?;
                    if pokes.exit.len() > genba_bpf::POKES
                        || pokes
                            .exit
                            .iter()
                            .any(|(_, d)| d.len() > genba_bpf::POKE_BYTES)
                    {
                        bail!(
                            "{what} '{expr}': genba's poke_exit= writes at most {} pieces \
                             of at most {} bytes",
                            genba_bpf::POKES,
                            genba_bpf::POKE_BYTES
                        );
                    }
                }
                ("syscall", false) => bail!(
                    "{what} '{expr}': syscall= is not supported by genba (an injected call is \
                     answered without running any)"
                ),
                _ => return Err(bad()),
            }
        }
        if pokes != PokeSet::default() {
            rule.pokes = Some(self.pokes.len());
            self.pokes.push(pokes);
        }
        if rule.answer.is_none()
            && rule.signal.is_none()
            && rule.delay.is_none()
            && rule.pokes.is_none()
        {
            if !fault {
                return Err(bad());
            }
            rule.answer = Some(Err(libc::ENOSYS));
        }
        if set.is_empty() {
            return Err(bad());
        }
        let nrs = filter::parse_set(set)?;
        for (nr, on) in nrs.iter().enumerate() {
            if *on && table::by_nr(nr as u32).is_some() {
                self.rules.insert(nr as u32, rule);
            }
        }
        Ok(())
    }

    /// Keeps the rules of traced calls only (strace tampers with a call
    /// only when it traces it: `-e trace=open -e inject=all:...` acts on
    /// open alone).
    pub fn only_traced(&mut self, traced: &[bool]) {
        self.rules
            .retain(|nr, _| traced.get(*nr as usize).copied().unwrap_or(false));
    }

    /// Whether a rule writes memory as calls return (the collector then
    /// loads the program that does).
    pub fn pokes_at_exit(&self) -> bool {
        self.pokes.iter().any(|p| !p.exit.is_empty())
    }

    /// The seccomp filter the program installs before its exec: the calls
    /// with a rule go to genba's listener, the others never stop.
    pub fn filter(&self) -> Vec<libc::sock_filter> {
        let mut nrs: Vec<u32> = self.rules.keys().copied().collect();
        nrs.sort_unstable();
        seccomp_program(&nrs)
    }
}

/// A number as strtoull reads it (decimal, 0x hex, 0 octal; a leading
/// `-` negates, wrapping, as strace's retval= takes it).
fn parse_u64(v: &str) -> Option<u64> {
    if let Some(n) = v.strip_prefix('-') {
        return parse_u64(n).map(u64::wrapping_neg);
    }
    if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if v.len() > 1 && v.starts_with('0') {
        u64::from_str_radix(&v[1..], 8).ok()
    } else {
        v.parse().ok()
    }
}

/// A delay as strace takes it: a number, microseconds unless it ends in
/// s, ms, us or ns.
fn parse_delay(v: &str) -> Option<Duration> {
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    let (num, unit) = v.split_at(split);
    let n: f64 = num
        .parse()
        .ok()
        .filter(|n: &f64| n.is_finite() && *n >= 0.0)?;
    let ns_per = match unit {
        "" | "us" => 1e3,
        "s" => 1e9,
        "ms" => 1e6,
        "ns" => 1.0,
        _ => return None,
    };
    Some(Duration::from_nanos((n * ns_per) as u64))
}

fn errno_by_name(name: &str) -> Option<i32> {
    (1..4096).find(|&e| genba_syscalls::consts::errno_name(e).is_some_and(|(n, _)| n == name))
}

/// A classic BPF program: x86_64 calls in `nrs` go to the listener,
/// everything else (and other architectures' calls) is allowed.
fn seccomp_program(nrs: &[u32]) -> Vec<libc::sock_filter> {
    const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;
    // offsets in struct seccomp_data
    const NR: u32 = 0;
    const ARCH: u32 = 4;
    let stmt = |code: u32, k: u32| libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jeq = |k: u32, jt: u8, jf: u8| libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    };
    let ld = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let ret = libc::BPF_RET | libc::BPF_K;
    let mut p = vec![
        stmt(ld, ARCH),
        // x86_64: go on; else allow
        jeq(AUDIT_ARCH_X86_64, 1, 0),
        stmt(ret, libc::SECCOMP_RET_ALLOW),
        stmt(ld, NR),
    ];
    // each call: a compare and its notify (short jumps, whatever the count)
    for &nr in nrs {
        p.push(jeq(nr, 0, 1));
        p.push(stmt(ret, libc::SECCOMP_RET_USER_NOTIF));
    }
    p.push(stmt(ret, libc::SECCOMP_RET_ALLOW));
    p
}

/// Installs `prog` in the calling process with a new listener: for the
/// child genba forks, between fork and exec (no allocation). Returns the
/// listener's descriptor, or -errno.
///
/// # Safety
/// `prog` must be a valid filter; only async-signal-safe calls are made.
pub unsafe fn install(prog: &[libc::sock_filter]) -> i32 {
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr() as *mut libc::sock_filter,
    };
    let seccomp = |flags: libc::c_ulong| {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            flags,
            &fprog as *const libc::sock_fprog,
        ) as i32
    };
    let base = libc::SECCOMP_FILTER_FLAG_NEW_LISTENER;
    // once genba has read a call, only a fatal signal ends the wait (a
    // signal genba sends with signal= must not restart the call)
    let mut flags = base | libc::SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
    let mut r = seccomp(flags);
    if r < 0 && *libc::__errno_location() == libc::EINVAL {
        flags = base;
        r = seccomp(flags);
    }
    if r < 0 && *libc::__errno_location() == libc::EACCES {
        // without CAP_SYS_ADMIN a filter needs no_new_privs (set-user-ID
        // programs then run without their privileges): said on stderr
        let msg = b"genba: -e inject: without CAP_SYS_ADMIN, the program runs with no_new_privs\n";
        libc::write(2, msg.as_ptr().cast(), msg.len());
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        r = seccomp(flags);
    }
    if r < 0 {
        -*libc::__errno_location()
    } else {
        r
    }
}

/// Finds the listener the held child `pid` installed, and takes a copy of
/// it (pidfd_getfd). The child cannot exec until genba answers its execve,
/// so the listener is there until then; waits while the child is alive.
pub fn take_listener(pid: i32) -> Result<OwnedFd> {
    // SAFETY: pidfd_open on our own child.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as i32;
    if pidfd < 0 {
        bail!("inject: pidfd_open: {}", std::io::Error::last_os_error());
    }
    // SAFETY: a new descriptor we own.
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd) };
    let start = Instant::now();
    loop {
        if let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
            for e in dir.flatten() {
                let is_listener = std::fs::read_link(e.path())
                    .is_ok_and(|l| l.as_os_str() == "anon_inode:seccomp notify");
                let Some(fd) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
                    continue;
                };
                if is_listener {
                    // SAFETY: copying a descriptor of our own child.
                    let r =
                        unsafe { libc::syscall(libc::SYS_pidfd_getfd, pidfd.as_raw_fd(), fd, 0) }
                            as i32;
                    if r < 0 {
                        bail!("inject: pidfd_getfd: {}", std::io::Error::last_os_error());
                    }
                    // SAFETY: a new descriptor we own.
                    return Ok(unsafe { OwnedFd::from_raw_fd(r) });
                }
            }
        }
        // the child ended (its filter could not be installed: it said why)
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid without reaping (WNOWAIT) on our own child.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: si_pid is valid after waitid.
        if r != 0 || unsafe { info.si_pid() } != 0 {
            bail!("inject: the program ended before its seccomp filter was in place");
        }
        if start.elapsed() > Duration::from_secs(30) {
            bail!("inject: the program's seccomp listener did not appear within 30 s");
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Counts of what the listener did, for the closing lines.
#[derive(Debug, Default, Clone, Copy)]
pub struct Counts {
    /// Calls answered with an error or a return value.
    pub injected: u64,
    /// Marks the collector could not take (its map full): those calls are
    /// printed without `(INJECTED)`.
    pub unmarked: u64,
}

/// Answers the listener's calls until every process using the filter is
/// gone. `only`: act on this thread's calls alone (strace without -f
/// injects into the process it started, not its children). `child`: the
/// launched program, whose calls before its exec (genba's own, waiting to
/// be let go) run untouched and uncounted.
pub fn serve(
    listener: OwnedFd,
    inj: Injections,
    marks: InjectMarks,
    pokes: Option<Pokes>,
    only: Option<u32>,
    child: u32,
) -> Result<std::thread::JoinHandle<Counts>> {
    std::thread::Builder::new()
        .name("genba-inject".into())
        .spawn(move || Listener::new(listener, inj, marks, pokes, only, child).run())
        .map_err(|e| anyhow!("-e inject: starting the listener's thread: {e}"))
}

/// Forks a process that lets every call the listener gets run until no
/// process uses the filter any more, then ends (see
/// [`crate::session::Session::hand_off_listener`]).
pub fn keep_answering(fd: OwnedFd) {
    // SAFETY: the child only makes async-signal-safe calls (setsid, poll,
    // ioctl, _exit) on stack memory.
    unsafe {
        let pid = libc::fork();
        if pid != 0 {
            return;
        }
        libc::setsid();
        let raw = fd.as_raw_fd();
        loop {
            let mut pfd = libc::pollfd {
                fd: raw,
                events: libc::POLLIN,
                revents: 0,
            };
            if libc::poll(&mut pfd, 1, -1) < 0 {
                if *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                break;
            }
            if pfd.revents & libc::POLLIN == 0 {
                break;
            }
            let mut n: libc::seccomp_notif = std::mem::zeroed();
            if libc::ioctl(raw, libc::SECCOMP_IOCTL_NOTIF_RECV, &mut n as *mut _) < 0 {
                continue;
            }
            let mut resp = libc::seccomp_notif_resp {
                id: n.id,
                val: 0,
                error: 0,
                flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
            };
            libc::ioctl(raw, libc::SECCOMP_IOCTL_NOTIF_SEND, &mut resp as *mut _);
        }
        libc::_exit(0);
    }
}

struct Listener {
    fd: OwnedFd,
    inj: Injections,
    marks: InjectMarks,
    /// Where `poke_exit=`'s data goes for the collector to write.
    pokes: Option<Pokes>,
    only: Option<u32>,
    /// strace's counters, per thread and call.
    counters: HashMap<(u32, u32), When>,
    /// Answers held by delay_enter=, due at their instant.
    held: Vec<(Instant, libc::seccomp_notif_resp)>,
    counts: Counts,
    /// The launched program while it may still be genba's own code before
    /// its exec (this program's executable, /proc/self/exe).
    pre_exec: Option<(u32, Option<std::path::PathBuf>)>,
}

fn monotonic_ns() -> u64 {
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Listener {
    fn new(
        fd: OwnedFd,
        inj: Injections,
        marks: InjectMarks,
        pokes: Option<Pokes>,
        only: Option<u32>,
        child: u32,
    ) -> Listener {
        // the kernel wakes the program on the CPU genba answers from (6.6+)
        const SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: u64 = 1;
        // SAFETY: an ioctl on the listener; failure (an older kernel) is harmless.
        unsafe {
            libc::ioctl(
                fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_SET_FLAGS,
                SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP,
            )
        };
        Listener {
            fd,
            inj,
            marks,
            pokes,
            only,
            counters: HashMap::new(),
            held: Vec::new(),
            counts: Counts::default(),
            pre_exec: Some((child, std::fs::read_link("/proc/self/exe").ok())),
        }
    }

    /// Whether `tid` is the launched program still before its exec.
    fn before_exec(&mut self, tid: u32) -> bool {
        let Some((child, ours)) = &self.pre_exec else {
            return false;
        };
        if tid != *child {
            return false;
        }
        let exe = std::fs::read_link(format!("/proc/{tid}/exe")).ok();
        if exe.is_some() && exe == *ours {
            return true;
        }
        self.pre_exec = None;
        false
    }

    fn run(mut self) -> Counts {
        loop {
            let now = Instant::now();
            let timeout = self
                .held
                .iter()
                .map(|(t, _)| t.saturating_duration_since(now))
                .min()
                // rounded up: a held answer is never polled for in a spin
                .map_or(-1, |d| {
                    d.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32
                });
            let mut pfd = libc::pollfd {
                fd: self.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(&mut pfd, 1, timeout) };
            self.answer_due();
            if r < 0 {
                if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                break;
            }
            if pfd.revents & libc::POLLIN != 0 {
                self.receive();
            } else if pfd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                // no process uses the filter any more
                break;
            }
        }
        // (a held call whose process is gone needs no answer)
        self.counts
    }

    fn answer_due(&mut self) {
        let now = Instant::now();
        let mut i = 0;
        while i < self.held.len() {
            if self.held[i].0 <= now {
                let (_, mut resp) = self.held.swap_remove(i);
                self.send(&mut resp);
            } else {
                i += 1;
            }
        }
    }

    fn send(&self, resp: &mut libc::seccomp_notif_resp) {
        // SAFETY: a valid response; ENOENT (the call's thread is gone, or
        // was killed) needs nothing done.
        unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_SEND,
                resp as *mut libc::seccomp_notif_resp,
            )
        };
    }

    fn receive(&mut self) {
        // SAFETY: the kernel wants the struct zeroed.
        let mut n: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: a valid seccomp_notif for the kernel to fill.
        let r = unsafe {
            libc::ioctl(
                self.fd.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_RECV,
                &mut n as *mut libc::seccomp_notif,
            )
        };
        if r < 0 {
            // ENOENT: the thread went away before it was read
            return;
        }
        let stopped = monotonic_ns();
        let tid = n.pid;
        let nr = n.data.nr as u32;
        let mut resp = libc::seccomp_notif_resp {
            id: n.id,
            val: 0,
            error: 0,
            flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
        };
        let rule = self
            .inj
            .rules
            .get(&nr)
            .copied()
            .filter(|_| !self.before_exec(tid));
        let act = match rule {
            Some(rule) if self.only.is_none_or(|t| t == tid) => {
                self.counters.entry((tid, nr)).or_insert(rule.when).count()
            }
            _ => false,
        };
        let Some(rule) = rule.filter(|_| act) else {
            self.send(&mut resp);
            return;
        };
        let mut flags = 0;
        if let Some(a) = rule.answer {
            flags |= INJ_SKIPPED;
            resp.flags = 0;
            match a {
                Ok(v) => resp.val = v as i64,
                Err(e) => resp.error = -e,
            }
            self.counts.injected += 1;
        }
        if rule.delay.is_some() {
            flags |= INJ_DELAYED;
        }
        if let Some(set) = rule.pokes.and_then(|i| self.inj.pokes.get(i)) {
            // the entry's pieces now, before the call (and the collector's
            // copies of its arguments: seccomp stops a call before its
            // sys_enter) runs; the exit's as it returns, by the collector
            // a piece for an argument the call does not take is left out
            let nargs = table::by_nr(nr).map_or(6, |i| i.nargs as usize);
            let args = &n.data.args[..nargs.min(6)];
            let mut poked = false;
            // the thread is still the one stopped (its id not reused)
            // before its memory is written
            let valid = {
                let mut id = n.id;
                // SAFETY: an ioctl on the listener with a u64 it reads.
                unsafe {
                    libc::ioctl(
                        self.fd.as_raw_fd(),
                        libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
                        &mut id as *mut u64,
                    ) == 0
                }
            };
            for (a, data) in set.enter.iter().filter(|_| valid) {
                poked |= args
                    .get(*a)
                    .is_some_and(|&addr| write_memory(tid, addr, data));
            }
            if !set.exit.is_empty() {
                let pieces: Vec<(u64, &[u8])> = set
                    .exit
                    .iter()
                    .filter_map(|(a, d)| Some((*args.get(*a)?, d.as_slice())))
                    .collect();
                poked |= self
                    .pokes
                    .as_ref()
                    .is_some_and(|p| p.set(tid, nr, &pieces).is_ok());
            }
            if poked {
                flags |= INJ_POKED;
            }
        }
        let sig = rule.signal.unwrap_or(0) as u8;
        if self.marks.mark(tid, nr, flags, sig, stopped).is_err() {
            self.counts.unmarked += 1;
            if let Some(sig) = rule.signal {
                // the collector cannot send it: genba does (SI_TKILL, not
                // the kernel's SI_KERNEL). Pending now, it is delivered as
                // the call returns, or interrupts it if it blocks: genba has
                // read the call, so it does not restart the wait
                let tgid = tgid_of(tid).unwrap_or(tid);
                // SAFETY: sending a signal to a traced thread.
                unsafe { libc::syscall(libc::SYS_tgkill, tgid, tid, sig) };
            }
        }
        match rule.delay {
            Some(d) if !d.is_zero() => self.held.push((Instant::now() + d, resp)),
            _ => self.send(&mut resp),
        }
    }
}

/// Writes `data` at `addr` in the memory of thread `tid`'s process
/// (strace's poke: the program sees it as it had it written itself).
fn write_memory(tid: u32, addr: u64, data: &[u8]) -> bool {
    let local = libc::iovec {
        iov_base: data.as_ptr() as *mut libc::c_void,
        iov_len: data.len(),
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: data.len(),
    };
    // SAFETY: one iovec each side, of the same length; the kernel checks
    // the remote range.
    let n = unsafe { libc::process_vm_writev(tid as i32, &local, 1, &remote, 1, 0) };
    n == data.len() as isize
}

fn tgid_of(tid: u32) -> Option<u32> {
    let s = std::fs::read_to_string(format!("/proc/{tid}/status")).ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix("Tgid:"))
        .and_then(|v| v.trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn when_counts_as_strace() {
        let idx = |w: &str, n: usize| -> Vec<usize> {
            let mut c = When::parse(w).unwrap();
            (1..=n).filter(|_| c.count()).collect::<Vec<_>>()
        };
        assert_eq!(idx("3", 10), vec![3]);
        assert_eq!(idx("3+", 6), vec![3, 4, 5, 6]);
        assert_eq!(idx("2+3", 10), vec![2, 5, 8]);
        assert_eq!(idx("2..5", 10), vec![2, 3, 4, 5]);
        assert_eq!(idx("2..7+2", 10), vec![2, 4, 6]);
        assert!(When::parse("0").is_none());
        assert!(When::parse("5..3").is_none());
        assert!(When::parse("1+0").is_none());
    }

    #[test]
    fn expressions_parse_as_strace_takes_them() {
        let mut i = Injections::default();
        i.add("openat:error=ENOENT:when=2", false).unwrap();
        i.add("read,write:retval=42", false).unwrap();
        i.add("getpid:signal=SIGUSR1:delay_enter=1ms", false)
            .unwrap();
        let nr = |n: &str| table::by_name(n).unwrap().nr;
        assert_eq!(i.rules[&nr("openat")].answer, Some(Err(libc::ENOENT)));
        assert_eq!(i.rules[&nr("write")].answer, Some(Ok(42)));
        let g = i.rules[&nr("getpid")];
        assert_eq!(g.signal, Some(libc::SIGUSR1));
        assert_eq!(g.delay, Some(Duration::from_millis(1)));
        // fault= defaults to ENOSYS and takes no retval
        i.add("close", true).unwrap();
        assert_eq!(i.rules[&nr("close")].answer, Some(Err(libc::ENOSYS)));
        assert!(i.add("close:retval=1", true).is_err());
        for bad in [
            "openat",
            "openat:error=ENOENT:retval=1",
            "openat:error=NOPE",
            "openat:when=0:error=EIO",
            "openat:frob=1",
            "openat:delay_exit=10",
            "nosuchcall:error=EIO",
        ] {
            assert!(i.add(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_filter_notifies_only_the_calls_named() {
        let mut i = Injections::default();
        i.add("getpid:retval=7", false).unwrap();
        let p = i.filter();
        // arch check and its allow, nr load, the call (compare, notify), allow
        assert_eq!(p.len(), 4 + 2 + 1);
        assert_eq!(p[5].k, libc::SECCOMP_RET_USER_NOTIF);
        assert_eq!(p.last().unwrap().k, libc::SECCOMP_RET_ALLOW);
    }
}
