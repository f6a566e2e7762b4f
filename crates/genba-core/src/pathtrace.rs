//! `-P PATH` / `--trace-path=PATH`: only the system calls that access one of
//! the paths, by the rules strace follows: a call that takes a file name,
//! a descriptor or both is shown when one of them names a traced path (a
//! descriptor by the path it refers to); a call that takes neither is never
//! shown. The calls whose arguments are not in the usual place (the second
//! and fourth of `renameat`, the descriptor of `mmap`, the sets of
//! `select` and `poll`) are looked up where they are.

use genba_syscalls::table::{self, class};
use genba_syscalls::CallView;

/// The traced paths: as given, and each one's canonical form when that
/// differs (a relative path, a symlink), as strace adds it.
#[derive(Debug, Clone, Default)]
pub struct PathSet {
    paths: Vec<String>,
}

impl PathSet {
    /// The set of `given`, and strace's messages for each path that
    /// resolved to another ("Requested path "a" resolved into "/b/a"").
    pub fn new(given: &[String]) -> (PathSet, Vec<String>) {
        let mut set = PathSet::default();
        let mut said = Vec::new();
        for p in given {
            set.add(p.clone());
            if let Ok(real) = std::fs::canonicalize(p) {
                let real = real.to_string_lossy().into_owned();
                if real != *p {
                    said.push(format!(
                        "Requested path {} resolved into {}",
                        quoted(p),
                        quoted(&real)
                    ));
                    set.add(real);
                }
            }
        }
        (set, said)
    }

    fn add(&mut self, p: String) {
        if !self.paths.contains(&p) {
            self.paths.push(p);
        }
    }

    fn has(&self, p: &[u8]) -> bool {
        self.paths.iter().any(|x| x.as_bytes() == p)
    }

    /// Whether `call` accesses a traced path. `fd_path` names a descriptor
    /// of the calling process; `mem` reads its memory (for a path BPF did
    /// not copy, and the descriptor sets of select and poll).
    pub fn matches(
        &self,
        call: CallView<'_>,
        fd_path: &dyn Fn(i32) -> Option<String>,
        mem: &dyn Fn(u64, usize) -> Option<Vec<u8>>,
    ) -> bool {
        let Some(info) = table::by_nr(call.nr) else {
            return false;
        };
        if info.class & (class::FILE | class::DESC | class::NETWORK) == 0 {
            return false;
        }
        let a = call.args;
        let named = |n: i32| fd_path(n).is_some_and(|p| self.has(p.as_bytes()));
        // the kernel takes a descriptor as an int
        let fd = |i: usize| named(a[i] as u32 as i32);
        // argument i's bytes (at most len): as BPF copied them at entry
        // (as many as the call uses), else read now (the process may be
        // gone by then)
        let arg_bytes = |i: usize, len: usize| -> Option<Vec<u8>> {
            match call.data(i) {
                Some(d) => Some(d[..d.len().min(len)].to_vec()),
                // (a copy that faulted past the bytes used serves)
                None => call
                    .data_prefix(i, len)
                    .map(|d| d.to_vec())
                    .or_else(|| mem(a[i], len)),
            }
        };
        let path = |i: usize| match call.data(i) {
            Some(d) => self.has(cstr(d)),
            // not copied at entry (its page was not in yet): read it now
            None => a[i] != 0 && read_cstr(a[i], mem).is_some_and(|d| self.has(&d)),
        };
        match info.name {
            "dup2" | "dup3" | "kexec_file_load" | "sendfile" | "tee" => fd(0) || fd(1),
            "execveat" | "faccessat" | "faccessat2" | "fchmodat" | "fchmodat2" | "fchownat"
            | "fspick" | "newfstatat" | "futimesat" | "inotify_add_watch" | "mkdirat"
            | "mknodat" | "mount_setattr" | "name_to_handle_at" | "open_tree" | "openat"
            | "openat2" | "readlinkat" | "statx" | "unlinkat" | "utimensat" => fd(0) || path(1),
            "link" | "mount" | "pivot_root" => path(0) || path(1),
            "quotactl" | "symlink" => path(1),
            "linkat" | "move_mount" | "renameat" | "renameat2" => {
                fd(0) || fd(2) || path(1) || path(3)
            }
            "mmap" => fd(4),
            "symlinkat" => fd(1) || path(2),
            "copy_file_range" | "splice" => fd(0) || fd(2),
            "epoll_ctl" => fd(2),
            // x86-64: the mask is one register
            "fanotify_mark" => fd(3) || path(4),
            "select" | "pselect6" => select_names(a, &named, &arg_bytes),
            "poll" | "ppoll" => poll_names(a, &named, &arg_bytes),
            // the command is an int
            "fsconfig" => match a[1] as u32 {
                // FSCONFIG_SET_PATH, FSCONFIG_SET_PATH_EMPTY
                3 | 4 => fd(4) || path(3),
                // FSCONFIG_SET_FD
                5 => fd(4),
                _ => false,
            },
            // descriptors or paths, but none in their arguments
            "accept4"
            | "accept"
            | "bpf"
            | "epoll_create"
            | "epoll_create1"
            | "eventfd2"
            | "eventfd"
            | "fanotify_init"
            | "fsmount"
            | "fsopen"
            | "inotify_init"
            | "inotify_init1"
            | "io_uring_enter"
            | "io_uring_register"
            | "io_uring_setup"
            | "landlock_add_rule"
            | "landlock_create_ruleset"
            | "landlock_restrict_self"
            | "memfd_create"
            | "memfd_secret"
            | "mq_getsetattr"
            | "mq_notify"
            | "mq_open"
            | "mq_timedreceive"
            | "mq_timedsend"
            | "perf_event_open"
            | "pidfd_open"
            | "pipe"
            | "pipe2"
            | "signalfd4"
            | "signalfd"
            | "socket"
            | "socketpair"
            | "timerfd_create"
            | "timerfd_gettime"
            | "timerfd_settime"
            | "userfaultfd" => false,
            _ if info.class & class::FILE != 0 => path(0),
            _ => fd(0),
        }
    }
}

/// Whether a descriptor of select's three sets (each `nfds` bits, read from
/// the process) is `named`.
fn select_names(
    a: [u64; 6],
    named: &dyn Fn(i32) -> bool,
    arg_bytes: &dyn Fn(usize, usize) -> Option<Vec<u8>>,
) -> bool {
    // the kernel takes nfds as an int and refuses a negative one
    let nfds = a[0] as u32 as i32;
    if nfds <= 0 {
        return false;
    }
    let nfds = nfds.min(1024 * 1024) as usize;
    let bytes = nfds.div_ceil(64) * 8;
    (1..4).filter(|&i| a[i] != 0).any(|i| {
        arg_bytes(i, bytes).is_some_and(|bits| {
            (0..nfds.min(bits.len() * 8))
                .any(|n| bits[n / 8] & (1 << (n % 8)) != 0 && named(n as i32))
        })
    })
}

/// Whether a descriptor of poll's array (read from the process) is `named`.
fn poll_names(
    a: [u64; 6],
    named: &dyn Fn(i32) -> bool,
    arg_bytes: &dyn Fn(usize, usize) -> Option<Vec<u8>>,
) -> bool {
    let n = (a[1] as u32).min(1024 * 1024) as usize;
    if n == 0 || a[0] == 0 {
        return false;
    }
    // struct pollfd: int fd; short events, revents
    arg_bytes(0, n * 8).is_some_and(|fds| {
        fds.chunks_exact(8)
            .any(|p| named(i32::from_le_bytes([p[0], p[1], p[2], p[3]])))
    })
}

/// The NUL-terminated string at `addr` of the process (at most PATH_MAX),
/// read a page at a time: a string near the end of its mapping is read
/// without reading past it.
fn read_cstr(addr: u64, mem: &dyn Fn(u64, usize) -> Option<Vec<u8>>) -> Option<Vec<u8>> {
    const PAGE: u64 = 4096;
    let mut s = Vec::new();
    let mut at = addr;
    while s.len() < 4096 {
        let chunk = (PAGE - at % PAGE) as usize;
        let d = mem(at, chunk)?;
        if let Some(n) = d.iter().position(|&b| b == 0) {
            s.extend_from_slice(&d[..n]);
            return Some(s);
        }
        s.extend_from_slice(&d);
        at += chunk as u64;
    }
    None
}

/// Bytes up to the first NUL.
fn cstr(d: &[u8]) -> &[u8] {
    d.iter().position(|&b| b == 0).map_or(d, |n| &d[..n])
}

/// A path in double quotes, escaped as strace's messages quote it.
fn quoted(p: &str) -> String {
    let mut s = String::from("\"");
    for c in p.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if c.is_control() => s.push_str(&format!("\\{:o}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
