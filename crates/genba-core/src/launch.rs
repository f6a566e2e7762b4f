//! Starting the traced program and handling signals, so that the program is
//! never left worse off: it runs unmodified, signals meant for it reach it, and
//! its exit status becomes genba's.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

use anyhow::{anyhow, Result};

/// A program forked and held before exec until tracing is ready.
pub struct Child {
    pub pid: i32,
    go: i32,
    /// Other children of genba reaped while waiting for the program.
    pub unknown_exits: Vec<i32>,
}

/// Finds `cmd` as execvp would: as is with a slash, else along PATH.
pub fn resolve(cmd: &str) -> Option<PathBuf> {
    if cmd.contains('/') {
        let p = PathBuf::from(cmd);
        return p.exists().then_some(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .map(|d| d.join(cmd))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

impl Child {
    /// Forks; the child waits on a pipe, then execs `path` with `args`.
    /// With `seccomp` (`-e inject=`), the child installs that filter with a
    /// listener between the wait and its exec; see [`crate::inject`].
    pub fn spawn(
        path: &Path,
        args: &[String],
        seccomp: Option<&[libc::sock_filter]>,
    ) -> Result<Child> {
        let cpath = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| anyhow!("command contains a NUL byte"))?;
        let cargs: Vec<CString> = args
            .iter()
            .map(|a| {
                CString::new(a.as_bytes()).map_err(|_| anyhow!("argument contains a NUL byte"))
            })
            .collect::<Result<_>>()?;
        let mut argv: Vec<*const libc::c_char> = cargs.iter().map(|a| a.as_ptr()).collect();
        argv.push(std::ptr::null());
        let mut fds = [0i32; 2];
        // SAFETY: fds is a valid array of two ints.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(anyhow!("pipe: {}", std::io::Error::last_os_error()));
        }
        let msg = format!("genba: exec {}: ", path.display());
        let seccomp_msg = "genba: -e inject: installing the seccomp filter: ";
        let gone_msg = "genba: -e inject: genba ended before the program could start\n";
        // The signals genba forwards are blocked across the fork, so one that
        // arrives now is neither handled by the child's copy of genba's
        // handler (and lost) nor missed by the parent: it stays pending until
        // the child has its default dispositions back, or until the parent
        // knows whom to forward it to. A Ctrl-C while genba is still loading
        // BPF thus ends the program (before its exec), as the user asked.
        let mut forwarded: libc::sigset_t = unsafe { std::mem::zeroed() };
        let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: valid sigset pointers.
        unsafe {
            libc::sigemptyset(&mut forwarded);
            for sig in FORWARDED {
                libc::sigaddset(&mut forwarded, sig);
            }
            libc::sigprocmask(libc::SIG_BLOCK, &forwarded, &mut old);
        }
        // SAFETY: after fork the child only calls async-signal-safe functions.
        let pid = unsafe { libc::fork() };
        if pid != 0 {
            if pid > 0 {
                FORWARD_TO.store(pid, Ordering::SeqCst);
                // a signal that came before the fork is the program's too
                let sig = SIGNALLED.load(Ordering::SeqCst);
                if sig != 0 {
                    // SAFETY: signalling our own child.
                    unsafe { libc::kill(pid, sig) };
                }
            }
            // SAFETY: restoring the mask saved above.
            unsafe { libc::sigprocmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
        }
        if pid < 0 {
            return Err(anyhow!("fork: {}", std::io::Error::last_os_error()));
        }
        if pid == 0 {
            // SAFETY: raw syscalls on valid buffers; no allocation in the child.
            unsafe {
                // The program must start as it would without genba: Rust's
                // runtime ignores SIGPIPE, and an ignored disposition would
                // survive exec (`yes | head` would never end by SIGPIPE).
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                for sig in FORWARDED {
                    libc::signal(sig, libc::SIG_DFL);
                }
                let mut none: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut none);
                libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
                libc::close(fds[1]);
                // -e inject=: the filter first, so that genba takes its
                // listener while the child waits below
                let mut listener = -1;
                if let Some(prog) = seccomp {
                    let r = crate::inject::install(prog);
                    if r < 0 {
                        libc::write(2, seccomp_msg.as_ptr().cast(), seccomp_msg.len());
                        let s = libc::strerror(-r);
                        libc::write(2, s.cast(), libc::strlen(s));
                        libc::write(2, b"\n".as_ptr().cast(), 1);
                        libc::_exit(126);
                    }
                    listener = r;
                }
                let mut b = 0u8;
                let n = libc::read(fds[0], (&mut b as *mut u8).cast(), 1);
                // genba went away before it took the listener: the named
                // calls would wait for an answer forever
                if listener >= 0 && (n != 1 || b != b'g') {
                    libc::write(2, gone_msg.as_ptr().cast(), gone_msg.len());
                    libc::_exit(126);
                }
                libc::close(fds[0]);
                // genba holds the listener now; the program must not
                if listener >= 0 {
                    libc::close(listener);
                }
                libc::execv(cpath.as_ptr(), argv.as_ptr());
                let err = *libc::__errno_location();
                libc::write(2, msg.as_ptr().cast(), msg.len());
                let s = libc::strerror(err);
                libc::write(2, s.cast(), libc::strlen(s));
                libc::write(2, b"\n".as_ptr().cast(), 1);
                libc::_exit(if err == libc::ENOENT { 127 } else { 126 });
            }
        }
        // SAFETY: closing our copy of the read end.
        unsafe { libc::close(fds[0]) };
        Ok(Child {
            pid,
            go: fds[1],
            unknown_exits: Vec::new(),
        })
    }

    /// Lets the child exec.
    pub fn release(&mut self) {
        if self.go >= 0 {
            // SAFETY: writing one byte to our pipe, then closing it.
            unsafe {
                libc::write(self.go, b"g".as_ptr().cast(), 1);
                libc::close(self.go);
            }
            self.go = -1;
        }
    }

    /// Non-blocking wait: the wait status once the child ended.
    ///
    /// Every child of genba is reaped here, not only the program: a process
    /// the program made with CLONE_PARENT is genba's child, and a program
    /// that waits for it to vanish (kill(pid, 0) until ESRCH) would wait
    /// forever for a zombie. Their pids are kept in `unknown_exits`, as
    /// strace reports them ("Exit of unknown pid N ignored").
    pub fn try_wait(&mut self) -> Option<i32> {
        loop {
            let mut st = 0;
            // SAFETY: valid pointer to an int.
            let r = unsafe { libc::waitpid(-1, &mut st, libc::WNOHANG | libc::__WALL) };
            if r <= 0 {
                return None;
            }
            if r == self.pid {
                return Some(st);
            }
            self.unknown_exits.push(r);
        }
    }

    /// Kills a child that never got to exec (tracing could not start).
    pub fn abort(mut self) {
        // SAFETY: signalling and reaping our own child.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
        }
        self.release();
        let mut st = 0;
        // SAFETY: valid pointer.
        unsafe { libc::waitpid(self.pid, &mut st, 0) };
    }
}

/// genba's exit code for a child's wait status: its code, or 128 + signal.
pub fn exit_code(status: i32) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        1
    }
}

/// The last terminating signal received (0: none).
pub static SIGNALLED: AtomicI32 = AtomicI32::new(0);
/// The program to forward signals to (0: none).
pub static FORWARD_TO: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    SIGNALLED.store(sig, Ordering::SeqCst);
    let child = FORWARD_TO.load(Ordering::SeqCst);
    // A signal sent to genba alone (kill, not the terminal) is meant for the
    // program: pass it on. Terminal signals reach the whole process group.
    // SAFETY: info is valid in a SA_SIGINFO handler; kill is async-signal-safe.
    unsafe {
        let code = if info.is_null() { 0 } else { (*info).si_code };
        if child > 0 && code != libc::SI_KERNEL {
            libc::kill(child, sig);
        }
    }
}

extern "C" fn on_child(_: libc::c_int) {}

/// The signals genba catches and passes on to a program it launched.
const FORWARDED: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// Catches INT, TERM, HUP, QUIT so genba can finish its output. Called
/// first thing, before the program is forked and BPF is loaded: a signal
/// that arrives while genba starts is passed on, never lost.
pub fn install_handlers() {
    for sig in FORWARDED {
        // SAFETY: installing a handler that only touches atomics and calls kill.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    // SIGCHLD interrupts the ring-buffer wait (no SA_RESTART), so the end
    // of the program is noticed at once rather than at the next poll timeout.
    // SAFETY: an empty handler.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_child as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGCHLD, &sa, std::ptr::null_mut());
    }
    // A closed output pipe must not kill genba before it reports.
    // SAFETY: ignoring SIGPIPE.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}
