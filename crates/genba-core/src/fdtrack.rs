//! What each descriptor of a traced process refers to, for `-y`.
//!
//! strace asks /proc while the tracee is stopped. genba prints later, when a
//! descriptor may already be closed or its process gone, so it follows the
//! descriptors through the calls themselves: open/openat/creat record the
//! path (resolved as the process would, against its cwd or directory fd),
//! dup/dup2/dup3/fcntl copy, close forgets, fork copies the table, exec drops
//! close-on-exec descriptors. What the calls cannot say (a pipe's inode, a
//! socket, descriptors inherited before tracing) comes from /proc while the
//! process is alive.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use genba_syscalls::CallView;

#[derive(Debug, Clone, Default)]
struct Table {
    fds: HashMap<i32, (String, bool)>,
    cwd: Option<PathBuf>,
    /// pidfds: the process each refers to (pidfd_open's pid)
    pidfds: HashMap<i32, u32>,
    /// netlink sockets made by a traced socket(): inode, protocol, binding
    netlink: HashMap<i32, (u32, u32, NlBind)>,
}

/// What the calls say of a netlink socket's binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NlBind {
    /// Not bound yet: the kernel's sock_diag does not list it.
    Unbound,
    /// Bound by bind() to this port id.
    Bound(u32),
    /// Bound by the kernel (bind to port 0, or a send or connect before
    /// any bind): the port is the kernel's to say.
    Unknown,
}

/// Descriptor tables of all traced processes, by tgid.
#[derive(Debug, Default, Clone)]
pub struct FdTracker {
    procs: HashMap<u32, Table>,
    /// Resolve symlinks in paths as /proc shows them (-y). Without it paths
    /// are only folded lexically: resolving costs a readlink per component,
    /// and stacks only need the files that get mapped.
    pub canonical: bool,
}

const O_CLOEXEC: u64 = 0o2000000;
/// `AT_FDCWD`: its "path" is the working directory.
pub const AT_FDCWD: i32 = -100;

fn readlink(tgid: u32, what: &str) -> Option<String> {
    let link = format!("/proc/{tgid}/{what}");
    let p = os_path(std::fs::read_link(&link).ok()?.as_os_str());
    // ` (deleted)` is the kernel's mark unless the file of that very name
    // is the one open (as strace tells them)
    if what.starts_with("fd/") && p.ends_with(" (deleted)") {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::fs::MetadataExt;
        let bytes = genba_syscalls::decode::path_to_bytes(&p);
        let named = std::fs::symlink_metadata(std::ffi::OsStr::from_bytes(&bytes));
        let same = std::fs::metadata(&link).ok().zip(named.ok());
        if same.is_some_and(|(a, b)| a.ino() == b.ino() && a.dev() == b.dev()) {
            return Some(genba_syscalls::decode::path_not_deleted(p));
        }
    }
    Some(p)
}

/// A path from the system, its bytes kept (see `genba_syscalls::decode::path_from_bytes`).
fn os_path(p: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    genba_syscalls::decode::path_from_bytes(p.as_bytes())
}

/// `base` joined with `rel`: the directory resolved as [`resolve`] does, the
/// last component kept (for a file that no longer exists).
fn resolve_lexical(base: Option<&Path>, rel: &str) -> Option<String> {
    let p = if rel.starts_with('/') {
        PathBuf::from(rel)
    } else {
        base?.join(rel)
    };
    let name = p.file_name()?.to_string_lossy().into_owned();
    let dir = resolve(None, &p.parent()?.to_string_lossy())?;
    Some(if dir == "/" {
        format!("/{name}")
    } else {
        format!("{dir}/{name}")
    })
}

/// `base` joined with `rel`, with symlinks resolved when the file exists
/// (as /proc shows it), else `.` and `..` folded lexically.
fn resolve(base: Option<&Path>, rel: &str) -> Option<String> {
    let p = if rel.starts_with('/') {
        PathBuf::from(rel)
    } else {
        base?.join(rel)
    };
    if let Ok(c) = std::fs::canonicalize(&p) {
        return Some(os_path(c.as_os_str()));
    }
    lexical(None, &p.to_string_lossy())
}

/// `base` joined with `rel`, `.` and `..` folded, symlinks left alone.
fn lexical(base: Option<&Path>, rel: &str) -> Option<String> {
    let p = if rel.starts_with('/') {
        PathBuf::from(rel)
    } else {
        base?.join(rel)
    };
    let mut out = PathBuf::from("/");
    for comp in p.components() {
        match comp {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    Some(out.to_string_lossy().into_owned())
}

impl FdTracker {
    /// Learns the descriptors and cwd a process has now, from /proc.
    pub fn seed(&mut self, tgid: u32) {
        let t = self.procs.entry(tgid).or_default();
        t.cwd = readlink(tgid, "cwd").map(PathBuf::from);
        if let Ok(dir) = std::fs::read_dir(format!("/proc/{tgid}/fd")) {
            for e in dir.flatten() {
                if let Some(fd) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) {
                    if let Some(p) = readlink(tgid, &format!("fd/{fd}")) {
                        // a descriptor closed on exec goes at the program's
                        // exec (a launched program is seeded before it)
                        t.fds.insert(fd, (p, fd_cloexec(tgid, fd)));
                    }
                }
            }
        }
    }

    /// The path behind `fd` of process `tgid`.
    pub fn path(&mut self, tgid: u32, fd: i32) -> Option<String> {
        if fd == AT_FDCWD {
            return self
                .procs
                .get(&tgid)?
                .cwd
                .as_ref()
                .map(|p| p.to_string_lossy().into_owned());
        }
        if fd < 0 {
            return None;
        }
        if let Some((p, _)) = self.procs.get(&tgid).and_then(|t| t.fds.get(&fd)) {
            return Some(p.clone());
        }
        let p = readlink(tgid, &format!("fd/{fd}"))?;
        self.procs
            .entry(tgid)
            .or_default()
            .fds
            .insert(fd, (p.clone(), false));
        Some(p)
    }

    /// The protocol and binding of netlink socket `fd` (inode `ino`) of
    /// process `tgid`, when its socket() was followed.
    pub fn netlink(&self, tgid: u32, fd: i32, ino: u32) -> Option<(u32, NlBind)> {
        let &(i, proto, b) = self.procs.get(&tgid)?.netlink.get(&fd)?;
        (i == ino).then_some((proto, b))
    }

    /// The process pidfd `fd` of process `tgid` refers to, when its
    /// pidfd_open was seen.
    pub fn pidfd_pid(&self, tgid: u32, fd: i32) -> Option<u32> {
        self.procs.get(&tgid)?.pidfds.get(&fd).copied()
    }

    /// A new process (not a thread) starts with a copy of its parent's table.
    pub fn fork(&mut self, parent: u32, child: u32) {
        let t = self.procs.get(&parent).cloned().unwrap_or_default();
        self.procs.insert(child, t);
    }

    /// exec closes the close-on-exec descriptors.
    pub fn exec(&mut self, tgid: u32) {
        if let Some(t) = self.procs.get_mut(&tgid) {
            t.fds.retain(|_, (_, cloexec)| !*cloexec);
        }
    }

    /// The process is gone.
    pub fn exit(&mut self, tgid: u32) {
        self.procs.remove(&tgid);
    }

    /// Updates the table for a completed call `name` of process `tgid`.
    /// Calls that create descriptors are applied before the call is printed
    /// (`pipe2([3<pipe:[N]>, 4<pipe:[N]>], ...)`), the others after it
    /// (`close(3</path>)` names what was closed).
    pub fn observe(&mut self, tgid: u32, name: &str, call: CallView<'_>, before_print: bool) {
        let creates = matches!(
            name,
            "open"
                | "creat"
                | "openat"
                | "openat2"
                | "pipe"
                | "pipe2"
                | "socketpair"
                | "socket"
                | "accept"
                | "accept4"
                | "eventfd"
                | "eventfd2"
                | "epoll_create"
                | "epoll_create1"
                | "timerfd_create"
                | "memfd_create"
                | "signalfd4"
                | "inotify_init1"
                | "pidfd_open"
                | "pidfd_getfd"
                | "open_tree"
                | "io_uring_setup"
                | "perf_event_open"
                | "userfaultfd"
                | "fanotify_init"
                | "bpf"
        ) || (name == "ioctl" && kvm_creates(&call));
        if creates != before_print {
            return;
        }
        let Some((ret, _)) = call.exit else { return };
        if ret < 0 {
            return;
        }
        let a = call.args;
        let fd_arg = |i: usize| a[i] as u32 as i32;
        let str_arg = |i: usize| call.data(i).map(genba_syscalls::decode::path_from_bytes);
        // pidfd_getfd: a copy of another process's descriptor (always
        // close-on-exec), named as that process names it
        if name == "pidfd_getfd" {
            let other = self.pidfd_pid(tgid, fd_arg(0));
            let path = other
                .and_then(|pid| {
                    self.procs
                        .get(&pid)
                        .and_then(|t| t.fds.get(&fd_arg(1)))
                        .map(|(p, _)| p.clone())
                        .or_else(|| readlink(pid, &format!("fd/{}", fd_arg(1))))
                })
                .or_else(|| readlink(tgid, &format!("fd/{ret}")));
            let t = self.procs.entry(tgid).or_default();
            match path {
                Some(p) => t.fds.insert(ret as i32, (p, true)),
                None => t.fds.remove(&(ret as i32)),
            };
            return;
        }
        // a new process (not followed itself without -f) starts with a
        // copy of the caller's descriptors: pidfd_getfd may name them
        if matches!(name, "clone" | "clone3" | "fork" | "vfork") && ret > 0 {
            const CLONE_THREAD: u64 = 0x10000;
            let flags = match name {
                "clone" => a[0],
                "clone3" => call.data(0).filter(|d| d.len() >= 8).map_or(0, |d| {
                    u64::from_le_bytes(d[..8].try_into().unwrap_or([0; 8]))
                }),
                _ => 0,
            };
            if flags & CLONE_THREAD == 0 && !self.procs.contains_key(&(ret as u32)) {
                self.fork(tgid, ret as u32);
            }
            return;
        }
        let t = self.procs.entry(tgid).or_default();
        let dir_base = |t: &Table, dirfd: i32| -> Option<PathBuf> {
            if dirfd == -100 {
                t.cwd.clone()
            } else {
                t.fds.get(&dirfd).map(|(p, _)| PathBuf::from(p))
            }
        };
        match name {
            "pidfd_open" => {
                t.fds
                    .insert(ret as i32, ("anon_inode:[pidfd]".into(), true));
                t.pidfds.insert(ret as i32, a[0] as u32);
            }
            "open" | "creat" | "openat" | "openat2" => {
                let (dirfd, path_arg, flags) = match name {
                    "open" => (-100, 0, a[1]),
                    "creat" => (-100, 0, 0),
                    "openat" => (fd_arg(0), 1, a[2]),
                    _ => (fd_arg(0), 1, 0),
                };
                let base = dir_base(t, dirfd);
                let path = str_arg(path_arg)
                    .and_then(|p| {
                        if self.canonical {
                            resolve(base.as_deref(), &p)
                        } else {
                            lexical(base.as_deref(), &p)
                        }
                    })
                    .map(genba_syscalls::decode::path_not_deleted);
                match path.or_else(|| readlink(tgid, &format!("fd/{ret}"))) {
                    Some(p) => {
                        t.fds.insert(ret as i32, (p, flags & O_CLOEXEC != 0));
                    }
                    None => {
                        t.fds.remove(&(ret as i32));
                    }
                }
            }
            // a mount's tree (or a clone of it): named as the path it was
            // given, the directory descriptor's with AT_EMPTY_PATH and ""
            "open_tree" => {
                const AT_EMPTY_PATH: u64 = 0x1000;
                let dirfd = fd_arg(0);
                let path = match str_arg(1) {
                    Some(p) if p.is_empty() && a[2] & AT_EMPTY_PATH != 0 => {
                        dir_base(t, dirfd).map(|p| p.to_string_lossy().into_owned())
                    }
                    Some(p) if !p.is_empty() => lexical(dir_base(t, dirfd).as_deref(), &p),
                    _ => None,
                };
                match path.or_else(|| readlink(tgid, &format!("fd/{ret}"))) {
                    Some(p) => {
                        t.fds.insert(ret as i32, (p, a[2] & O_CLOEXEC != 0));
                    }
                    None => {
                        t.fds.remove(&(ret as i32));
                    }
                }
            }
            "dup" | "dup2" | "dup3" => {
                let new = if name == "dup" { ret as i32 } else { fd_arg(1) };
                let cloexec = name == "dup3" && a[2] & O_CLOEXEC != 0;
                if let Some((p, _)) = t.fds.get(&fd_arg(0)).cloned() {
                    t.fds.insert(new, (p, cloexec));
                }
                match t.pidfds.get(&fd_arg(0)).copied() {
                    Some(pid) => t.pidfds.insert(new, pid),
                    None => t.pidfds.remove(&new),
                };
            }
            "fcntl" => match a[1] as u32 {
                0 | 1030 => {
                    if let Some((p, _)) = t.fds.get(&fd_arg(0)).cloned() {
                        t.fds.insert(ret as i32, (p, a[1] as u32 == 1030));
                    }
                }
                2 => {
                    if let Some(e) = t.fds.get_mut(&fd_arg(0)) {
                        e.1 = a[2] & 1 != 0;
                    }
                }
                _ => {}
            },
            "close" => {
                t.fds.remove(&fd_arg(0));
                t.pidfds.remove(&fd_arg(0));
            }
            "close_range" => {
                let (lo, hi) = (a[0] as u32, a[1] as u32);
                let cloexec_only = a[2] & 4 != 0;
                for (fd, e) in t.fds.iter_mut() {
                    if (lo..=hi).contains(&(*fd as u32)) && cloexec_only {
                        e.1 = true;
                    }
                }
                if !cloexec_only {
                    t.fds.retain(|fd, _| !(lo..=hi).contains(&(*fd as u32)));
                }
            }
            "unlink" | "unlinkat" => {
                let (dirfd, k) = if name == "unlink" {
                    (AT_FDCWD, 0)
                } else {
                    (fd_arg(0), 1)
                };
                let removed_dir = name == "unlinkat" && a[2] & 0x200 != 0;
                if let (Some(p), false) = (str_arg(k), removed_dir) {
                    let base = dir_base(t, dirfd);
                    if let Some(full) = resolve_lexical(base.as_deref(), &p)
                        .map(genba_syscalls::decode::path_not_deleted)
                    {
                        for (path, _) in t.fds.values_mut() {
                            if *path == full {
                                path.push_str(" (deleted)");
                            }
                        }
                    }
                }
            }
            "chdir" => {
                if let Some(p) = str_arg(0) {
                    let base = t.cwd.clone();
                    t.cwd = resolve(base.as_deref(), &p).map(PathBuf::from);
                }
            }
            "fchdir" => {
                t.cwd = t.fds.get(&fd_arg(0)).map(|(p, _)| PathBuf::from(p));
            }
            // pipes and sockets: named by the inode BPF read when they were made
            "pipe" | "pipe2" | "socketpair" | "socket" | "accept" | "accept4" => {
                let kind = if name.starts_with("pipe") {
                    "pipe"
                } else {
                    "socket"
                };
                let flags = match name {
                    "pipe2" => a[1],
                    "socketpair" | "socket" => a[1],
                    "accept4" => a[3],
                    _ => 0,
                };
                let cloexec = flags & O_CLOEXEC != 0;
                if let Some((_, caps)) = call.exit {
                    for c in caps
                        .iter()
                        .filter(|c| c.item == genba_events::CaptureItem::FdIno && c.data.len() >= 4)
                    {
                        let fd = i32::from_le_bytes(c.data[..4].try_into().unwrap_or([0; 4]));
                        if c.aux != 0 {
                            t.fds.insert(fd, (format!("{kind}:[{}]", c.aux), cloexec));
                            // AF_NETLINK
                            if name == "socket" && a[0] as u32 == 16 {
                                let e = (c.aux as u32, a[2] as u32, NlBind::Unbound);
                                t.netlink.insert(fd, e);
                            }
                        }
                    }
                }
            }
            // a netlink socket bound by bind() (nl_pid 0: by the kernel), or
            // by the kernel at its first send or connect
            "bind" | "connect" | "sendto" | "sendmsg" | "sendmmsg" => {
                if let Some(e) = t.netlink.get_mut(&fd_arg(0)) {
                    let pid = call
                        .data(1)
                        .filter(|d| name == "bind" && d.len() >= 8)
                        .map(|d| u32::from_le_bytes([d[4], d[5], d[6], d[7]]));
                    e.2 = match (pid, e.2) {
                        (Some(p), NlBind::Unbound) if p != 0 => NlBind::Bound(p),
                        (_, NlBind::Unbound) => NlBind::Unknown,
                        (_, b) => b,
                    };
                }
            }
            // anonymous inodes whose name never varies: known without asking
            // /proc, where the descriptor may be closed (or the process gone)
            // by the time its call is printed
            // LANDLOCK_CREATE_RULESET_VERSION: the ABI version, no descriptor
            "landlock_create_ruleset" if a[2] & 1 != 0 => {}
            "eventfd"
            | "eventfd2"
            | "epoll_create"
            | "epoll_create1"
            | "timerfd_create"
            | "signalfd4"
            | "inotify_init"
            | "inotify_init1"
            | "landlock_create_ruleset"
            | "userfaultfd"
            | "fanotify_init"
            | "perf_event_open"
            | "io_uring_setup" => {
                let (what, cloexec) = match name {
                    "eventfd2" => ("[eventfd]", a[1] & O_CLOEXEC != 0),
                    "eventfd" => ("[eventfd]", false),
                    "epoll_create1" => ("[eventpoll]", a[0] & O_CLOEXEC != 0),
                    "epoll_create" => ("[eventpoll]", false),
                    "timerfd_create" => ("[timerfd]", a[1] & O_CLOEXEC != 0),
                    "signalfd4" => ("[signalfd]", a[3] & O_CLOEXEC != 0),
                    // the one the kernel names without brackets
                    "inotify_init" => ("inotify", false),
                    "inotify_init1" => ("inotify", a[0] & O_CLOEXEC != 0),
                    "landlock_create_ruleset" => ("[landlock-ruleset]", true),
                    "userfaultfd" => ("[userfaultfd]", a[0] & O_CLOEXEC != 0),
                    // FAN_CLOEXEC
                    "fanotify_init" => ("[fanotify]", a[0] & 1 != 0),
                    // PERF_FLAG_FD_CLOEXEC
                    "perf_event_open" => ("[perf_event]", a[4] & 8 != 0),
                    _ => ("[io_uring]", true),
                };
                t.fds
                    .insert(ret as i32, (format!("anon_inode:{what}"), cloexec));
            }
            // bpf's objects, always close-on-exec; what OBJ_GET opens is
            // asked of /proc (OBJ_PIN returns no descriptor)
            "bpf" => {
                let what = match a[0] as u32 {
                    0 | 14 => Some("bpf-map"),
                    5 | 13 => Some("bpf-prog"),
                    18 | 19 => Some("btf"),
                    28 | 30 => Some("bpf_link"),
                    _ => None,
                };
                let path = match what {
                    Some(w) => Some(format!("anon_inode:{w}")),
                    None if a[0] as u32 == 7 => readlink(tgid, &format!("fd/{ret}")),
                    None => None,
                };
                if let Some(p) = path {
                    t.fds.insert(ret as i32, (p, true));
                }
            }
            // KVM's VMs, vcpus, statistics and devices (all close-on-exec)
            "ioctl" if kvm_creates(&call) => {
                let Some(fd) = genba_syscalls::decode::kvm_made_fd(&call) else {
                    return;
                };
                let on = t.fds.get(&fd_arg(0)).map(|(p, _)| p.clone());
                // the names the call says; the others are the kernel's to say
                let path = genba_syscalls::decode::kvm_created_fd(&call, on.as_deref())
                    .map(|(_, p)| p)
                    .or_else(|| readlink(tgid, &format!("fd/{fd}")));
                match path {
                    Some(p) => t.fds.insert(fd, (p, true)),
                    None => t.fds.remove(&fd),
                };
            }
            // a memfd is a deleted file named after the call's argument
            "memfd_create" => {
                let path = match str_arg(0) {
                    Some(n) => Some(format!("/memfd:{n} (deleted)")),
                    None => readlink(tgid, &format!("fd/{ret}")),
                };
                // MFD_CLOEXEC
                let cloexec = a[1] & 1 != 0;
                match path {
                    Some(p) => t.fds.insert(ret as i32, (p, cloexec)),
                    None => t.fds.remove(&(ret as i32)),
                };
            }
            _ => {}
        }
    }
}

/// Whether `call` (an ioctl) is a KVM request that makes a descriptor:
/// named before the call is printed (`= 5<anon_inode:kvm-vcpu:0>`).
fn kvm_creates(call: &CallView<'_>) -> bool {
    genba_syscalls::decode::kvm_creates_fd(call.args[1] as u32)
}

/// The value of `key` (`flags:`, `Pid:`) in /proc/PID/fdinfo/FD, trimmed.
pub fn fdinfo_field(tgid: u32, fd: i32, key: &str) -> Option<String> {
    let info = std::fs::read_to_string(format!("/proc/{tgid}/fdinfo/{fd}")).ok()?;
    info.lines()
        .find_map(|l| l.strip_prefix(key))
        .map(|v| v.trim().to_string())
}

/// Whether descriptor `fd` of process `tgid` is closed on exec (its
/// fdinfo's `flags:`, octal, hold O_CLOEXEC).
fn fd_cloexec(tgid: u32, fd: i32) -> bool {
    fdinfo_field(tgid, fd, "flags:")
        .and_then(|v| u64::from_str_radix(&v, 8).ok())
        .is_some_and(|f| f & O_CLOEXEC != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use genba_events::{Capture, CaptureItem};

    fn path_cap(arg: u8, p: &str) -> Capture {
        Capture {
            arg,
            item: CaptureItem::Data,
            elem: 0,
            fault: false,
            truncated: false,
            more: false,
            aux: 0,
            data: p.as_bytes().to_vec(),
        }
    }

    #[test]
    fn follows_open_dup_close_and_fork() {
        let mut t = FdTracker::default();
        let caps = [path_cap(1, "/etc/hostname")];
        let call = CallView {
            nr: 257,
            args: [(-100i64) as u64, 0, O_CLOEXEC, 0, 0, 0],
            enter: &caps,
            exit: Some((7, &[])),
        };
        t.observe(1, "openat", call, true);
        assert_eq!(t.path(1, 7).as_deref(), Some("/etc/hostname"));
        let dup = CallView {
            nr: 33,
            args: [7, 9, 0, 0, 0, 0],
            enter: &[],
            exit: Some((9, &[])),
        };
        t.observe(1, "dup2", dup, false);
        assert_eq!(t.path(1, 9).as_deref(), Some("/etc/hostname"));
        t.fork(1, 2);
        t.exec(2);
        assert!(
            !t.procs[&2].fds.contains_key(&7),
            "O_CLOEXEC descriptor survived exec"
        );
        assert!(
            t.procs[&2].fds.contains_key(&9),
            "dup2 clears close-on-exec"
        );
        let close = CallView {
            nr: 3,
            args: [9, 0, 0, 0, 0, 0],
            enter: &[],
            exit: Some((0, &[])),
        };
        t.observe(1, "close", close, false);
        assert!(!t.procs[&1].fds.contains_key(&9));
    }

    #[test]
    fn relative_paths_resolve_against_cwd() {
        let mut t = FdTracker::default();
        t.procs.entry(5).or_default().cwd = Some(PathBuf::from("/nonexistent-genba/dir"));
        let caps = [path_cap(1, "../x.txt")];
        let call = CallView {
            nr: 257,
            args: [(-100i64) as u64, 0, 0, 0, 0, 0],
            enter: &caps,
            exit: Some((3, &[])),
        };
        t.observe(5, "openat", call, true);
        assert_eq!(t.path(5, 3).as_deref(), Some("/nonexistent-genba/x.txt"));
    }
}
