//! The x86_64 system-call table, with strace's classification of each call.
//!
//! Numbers and names follow the Linux 6.18 kernel's
//! `arch/x86/entry/syscalls/syscall_64.tbl`: its "common" and "64" rows,
//! 0..=336 and 424..=469. The x32 rows (512 and up) are left out, and
//! unused numbers are not filled with made-up entries. `listns` (470) and
//! later calls came after 6.18, so they are not listed.
//!
//! Argument counts and classes are strace's for x86_64
//! (`src/linux/x86_64/syscallent.h` and
//! `src/linux/generic/syscallent-common.h`). They were read from those sources
//! and checked against the tables compiled into the strace 6.1 and 7.2 binaries.
//! Names are the ones strace prints; they are the same as the kernel's.
//! Numbers the kernel doesn't implement on x86_64 (uselib, create_module,
//! get_kernel_syms, query_module, nfsservctl, getpmsg, putpmsg, afs_syscall,
//! tuxcall, security, set_thread_area, get_thread_area, epoll_ctl_old,
//! epoll_wait_old, vserver, _sysctl) keep their table names, as strace does.
//!
//! One row is not from strace: `uprobe` (336, new in Linux 6.18). strace 7.2
//! has no entry for it and prints it as `syscall_0x150`. This table uses
//! the kernel's name, 0 arguments (the kernel defines it with
//! `SYSCALL_DEFINE0`) and no class.

/// strace's syscall classes, as bits.
///
/// Each bit is one strace `TRACE_*` flag. strace's `%%stat` class has no bit
/// of its own: on x86_64, a call is in `%%stat` exactly when it has
/// [`STAT`](class::STAT), [`LSTAT`](class::LSTAT) or [`FSTAT`](class::FSTAT).
/// `%%statfs` does get its own bit, [`STATFS_LIKE`](class::STATFS_LIKE),
/// because `ustat` is in `%%statfs` but not in `%statfs` or `%fstatfs`.
pub mod class {
    /// `%file` (strace `TF`): takes a file name.
    pub const FILE: u16 = 1 << 0;
    /// `%ipc` (strace `TI`): System V IPC.
    pub const IPC: u16 = 1 << 1;
    /// `%network` / `%net` (strace `TN`).
    pub const NETWORK: u16 = 1 << 2;
    /// `%process` (strace `TP`): process lifecycle.
    pub const PROCESS: u16 = 1 << 3;
    /// `%signal` (strace `TS`).
    pub const SIGNAL: u16 = 1 << 4;
    /// `%desc` (strace `TD`): takes or returns a file descriptor.
    pub const DESC: u16 = 1 << 5;
    /// `%memory` (strace `TM`): memory mapping.
    pub const MEMORY: u16 = 1 << 6;
    /// `%statfs` (strace `TSF`): statfs on a path.
    pub const STATFS: u16 = 1 << 7;
    /// `%fstatfs` (strace `TFSF`): statfs on a descriptor.
    pub const FSTATFS: u16 = 1 << 8;
    /// `%stat` (strace `TST`).
    pub const STAT: u16 = 1 << 9;
    /// `%lstat` (strace `TLST`).
    pub const LSTAT: u16 = 1 << 10;
    /// `%fstat` (strace `TFST`): also newfstatat and statx.
    pub const FSTAT: u16 = 1 << 11;
    /// `%creds` (strace `TC`): user/group ids and capabilities.
    pub const CREDS: u16 = 1 << 12;
    /// `%clock` (strace `TCL`): reads or sets system clocks.
    pub const CLOCK: u16 = 1 << 13;
    /// `%pure` (strace `PU`): getters that take no arguments and never fail.
    pub const PURE: u16 = 1 << 14;
    /// `%%statfs` (strace `TSFA`): statfs, fstatfs and ustat.
    pub const STATFS_LIKE: u16 = 1 << 15;
}

/// One system call: number, name as strace prints it, strace's argument
/// count, and its strace classes (a set of [`class`] bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyscallInfo {
    pub nr: u32,
    pub name: &'static str,
    pub nargs: u8,
    pub class: u16,
}

/// Sorted by nr, no gaps filled with fakes.
#[rustfmt::skip]
pub static SYSCALLS: &[SyscallInfo] = &[
    SyscallInfo { nr: 0, name: "read", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 1, name: "write", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 2, name: "open", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 3, name: "close", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 4, name: "stat", nargs: 2, class: class::FILE | class::STAT },
    SyscallInfo { nr: 5, name: "fstat", nargs: 2, class: class::DESC | class::FSTAT },
    SyscallInfo { nr: 6, name: "lstat", nargs: 2, class: class::FILE | class::LSTAT },
    SyscallInfo { nr: 7, name: "poll", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 8, name: "lseek", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 9, name: "mmap", nargs: 6, class: class::DESC | class::MEMORY },
    SyscallInfo { nr: 10, name: "mprotect", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 11, name: "munmap", nargs: 2, class: class::MEMORY },
    SyscallInfo { nr: 12, name: "brk", nargs: 1, class: class::MEMORY },
    SyscallInfo { nr: 13, name: "rt_sigaction", nargs: 4, class: class::SIGNAL },
    SyscallInfo { nr: 14, name: "rt_sigprocmask", nargs: 4, class: class::SIGNAL },
    SyscallInfo { nr: 15, name: "rt_sigreturn", nargs: 0, class: class::SIGNAL },
    SyscallInfo { nr: 16, name: "ioctl", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 17, name: "pread64", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 18, name: "pwrite64", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 19, name: "readv", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 20, name: "writev", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 21, name: "access", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 22, name: "pipe", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 23, name: "select", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 24, name: "sched_yield", nargs: 0, class: 0 },
    SyscallInfo { nr: 25, name: "mremap", nargs: 5, class: class::MEMORY },
    SyscallInfo { nr: 26, name: "msync", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 27, name: "mincore", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 28, name: "madvise", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 29, name: "shmget", nargs: 3, class: class::IPC },
    SyscallInfo { nr: 30, name: "shmat", nargs: 3, class: class::IPC | class::MEMORY },
    SyscallInfo { nr: 31, name: "shmctl", nargs: 3, class: class::IPC },
    SyscallInfo { nr: 32, name: "dup", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 33, name: "dup2", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 34, name: "pause", nargs: 0, class: class::SIGNAL },
    SyscallInfo { nr: 35, name: "nanosleep", nargs: 2, class: 0 },
    SyscallInfo { nr: 36, name: "getitimer", nargs: 2, class: 0 },
    SyscallInfo { nr: 37, name: "alarm", nargs: 1, class: 0 },
    SyscallInfo { nr: 38, name: "setitimer", nargs: 3, class: 0 },
    SyscallInfo { nr: 39, name: "getpid", nargs: 0, class: class::PURE },
    SyscallInfo { nr: 40, name: "sendfile", nargs: 4, class: class::NETWORK | class::DESC },
    SyscallInfo { nr: 41, name: "socket", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 42, name: "connect", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 43, name: "accept", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 44, name: "sendto", nargs: 6, class: class::NETWORK },
    SyscallInfo { nr: 45, name: "recvfrom", nargs: 6, class: class::NETWORK },
    SyscallInfo { nr: 46, name: "sendmsg", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 47, name: "recvmsg", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 48, name: "shutdown", nargs: 2, class: class::NETWORK },
    SyscallInfo { nr: 49, name: "bind", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 50, name: "listen", nargs: 2, class: class::NETWORK },
    SyscallInfo { nr: 51, name: "getsockname", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 52, name: "getpeername", nargs: 3, class: class::NETWORK },
    SyscallInfo { nr: 53, name: "socketpair", nargs: 4, class: class::NETWORK },
    SyscallInfo { nr: 54, name: "setsockopt", nargs: 5, class: class::NETWORK },
    SyscallInfo { nr: 55, name: "getsockopt", nargs: 5, class: class::NETWORK },
    SyscallInfo { nr: 56, name: "clone", nargs: 5, class: class::PROCESS },
    SyscallInfo { nr: 57, name: "fork", nargs: 0, class: class::PROCESS },
    SyscallInfo { nr: 58, name: "vfork", nargs: 0, class: class::PROCESS },
    SyscallInfo { nr: 59, name: "execve", nargs: 3, class: class::FILE | class::PROCESS },
    SyscallInfo { nr: 60, name: "exit", nargs: 1, class: class::PROCESS },
    SyscallInfo { nr: 61, name: "wait4", nargs: 4, class: class::PROCESS },
    SyscallInfo { nr: 62, name: "kill", nargs: 2, class: class::PROCESS | class::SIGNAL },
    SyscallInfo { nr: 63, name: "uname", nargs: 1, class: 0 },
    SyscallInfo { nr: 64, name: "semget", nargs: 3, class: class::IPC },
    SyscallInfo { nr: 65, name: "semop", nargs: 3, class: class::IPC },
    SyscallInfo { nr: 66, name: "semctl", nargs: 4, class: class::IPC },
    SyscallInfo { nr: 67, name: "shmdt", nargs: 1, class: class::IPC | class::MEMORY },
    SyscallInfo { nr: 68, name: "msgget", nargs: 2, class: class::IPC },
    SyscallInfo { nr: 69, name: "msgsnd", nargs: 4, class: class::IPC },
    SyscallInfo { nr: 70, name: "msgrcv", nargs: 5, class: class::IPC },
    SyscallInfo { nr: 71, name: "msgctl", nargs: 3, class: class::IPC },
    SyscallInfo { nr: 72, name: "fcntl", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 73, name: "flock", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 74, name: "fsync", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 75, name: "fdatasync", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 76, name: "truncate", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 77, name: "ftruncate", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 78, name: "getdents", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 79, name: "getcwd", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 80, name: "chdir", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 81, name: "fchdir", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 82, name: "rename", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 83, name: "mkdir", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 84, name: "rmdir", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 85, name: "creat", nargs: 2, class: class::FILE | class::DESC },
    SyscallInfo { nr: 86, name: "link", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 87, name: "unlink", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 88, name: "symlink", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 89, name: "readlink", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 90, name: "chmod", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 91, name: "fchmod", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 92, name: "chown", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 93, name: "fchown", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 94, name: "lchown", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 95, name: "umask", nargs: 1, class: 0 },
    SyscallInfo { nr: 96, name: "gettimeofday", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 97, name: "getrlimit", nargs: 2, class: 0 },
    SyscallInfo { nr: 98, name: "getrusage", nargs: 2, class: 0 },
    SyscallInfo { nr: 99, name: "sysinfo", nargs: 1, class: 0 },
    SyscallInfo { nr: 100, name: "times", nargs: 1, class: 0 },
    SyscallInfo { nr: 101, name: "ptrace", nargs: 4, class: 0 },
    SyscallInfo { nr: 102, name: "getuid", nargs: 0, class: class::CREDS | class::PURE },
    SyscallInfo { nr: 103, name: "syslog", nargs: 3, class: 0 },
    SyscallInfo { nr: 104, name: "getgid", nargs: 0, class: class::CREDS | class::PURE },
    SyscallInfo { nr: 105, name: "setuid", nargs: 1, class: class::CREDS },
    SyscallInfo { nr: 106, name: "setgid", nargs: 1, class: class::CREDS },
    SyscallInfo { nr: 107, name: "geteuid", nargs: 0, class: class::CREDS | class::PURE },
    SyscallInfo { nr: 108, name: "getegid", nargs: 0, class: class::CREDS | class::PURE },
    SyscallInfo { nr: 109, name: "setpgid", nargs: 2, class: 0 },
    SyscallInfo { nr: 110, name: "getppid", nargs: 0, class: class::PURE },
    SyscallInfo { nr: 111, name: "getpgrp", nargs: 0, class: class::PURE },
    SyscallInfo { nr: 112, name: "setsid", nargs: 0, class: 0 },
    SyscallInfo { nr: 113, name: "setreuid", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 114, name: "setregid", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 115, name: "getgroups", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 116, name: "setgroups", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 117, name: "setresuid", nargs: 3, class: class::CREDS },
    SyscallInfo { nr: 118, name: "getresuid", nargs: 3, class: class::CREDS },
    SyscallInfo { nr: 119, name: "setresgid", nargs: 3, class: class::CREDS },
    SyscallInfo { nr: 120, name: "getresgid", nargs: 3, class: class::CREDS },
    SyscallInfo { nr: 121, name: "getpgid", nargs: 1, class: 0 },
    SyscallInfo { nr: 122, name: "setfsuid", nargs: 1, class: class::CREDS },
    SyscallInfo { nr: 123, name: "setfsgid", nargs: 1, class: class::CREDS },
    SyscallInfo { nr: 124, name: "getsid", nargs: 1, class: 0 },
    SyscallInfo { nr: 125, name: "capget", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 126, name: "capset", nargs: 2, class: class::CREDS },
    SyscallInfo { nr: 127, name: "rt_sigpending", nargs: 2, class: class::SIGNAL },
    SyscallInfo { nr: 128, name: "rt_sigtimedwait", nargs: 4, class: class::SIGNAL },
    SyscallInfo { nr: 129, name: "rt_sigqueueinfo", nargs: 3, class: class::PROCESS | class::SIGNAL },
    SyscallInfo { nr: 130, name: "rt_sigsuspend", nargs: 2, class: class::SIGNAL },
    SyscallInfo { nr: 131, name: "sigaltstack", nargs: 2, class: class::SIGNAL },
    SyscallInfo { nr: 132, name: "utime", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 133, name: "mknod", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 134, name: "uselib", nargs: 1, class: class::FILE }, // not implemented on x86_64 (kernel: no entry point)
    SyscallInfo { nr: 135, name: "personality", nargs: 1, class: 0 },
    SyscallInfo { nr: 136, name: "ustat", nargs: 2, class: class::STATFS_LIKE },
    SyscallInfo { nr: 137, name: "statfs", nargs: 2, class: class::FILE | class::STATFS | class::STATFS_LIKE },
    SyscallInfo { nr: 138, name: "fstatfs", nargs: 2, class: class::DESC | class::FSTATFS | class::STATFS_LIKE },
    SyscallInfo { nr: 139, name: "sysfs", nargs: 3, class: 0 },
    SyscallInfo { nr: 140, name: "getpriority", nargs: 2, class: 0 },
    SyscallInfo { nr: 141, name: "setpriority", nargs: 3, class: 0 },
    SyscallInfo { nr: 142, name: "sched_setparam", nargs: 2, class: 0 },
    SyscallInfo { nr: 143, name: "sched_getparam", nargs: 2, class: 0 },
    SyscallInfo { nr: 144, name: "sched_setscheduler", nargs: 3, class: 0 },
    SyscallInfo { nr: 145, name: "sched_getscheduler", nargs: 1, class: 0 },
    SyscallInfo { nr: 146, name: "sched_get_priority_max", nargs: 1, class: 0 },
    SyscallInfo { nr: 147, name: "sched_get_priority_min", nargs: 1, class: 0 },
    SyscallInfo { nr: 148, name: "sched_rr_get_interval", nargs: 2, class: 0 },
    SyscallInfo { nr: 149, name: "mlock", nargs: 2, class: class::MEMORY },
    SyscallInfo { nr: 150, name: "munlock", nargs: 2, class: class::MEMORY },
    SyscallInfo { nr: 151, name: "mlockall", nargs: 1, class: class::MEMORY },
    SyscallInfo { nr: 152, name: "munlockall", nargs: 0, class: class::MEMORY },
    SyscallInfo { nr: 153, name: "vhangup", nargs: 0, class: 0 },
    SyscallInfo { nr: 154, name: "modify_ldt", nargs: 3, class: 0 },
    SyscallInfo { nr: 155, name: "pivot_root", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 156, name: "_sysctl", nargs: 1, class: 0 }, // removed from the kernel (sys_ni_syscall)
    SyscallInfo { nr: 157, name: "prctl", nargs: 5, class: class::CREDS },
    SyscallInfo { nr: 158, name: "arch_prctl", nargs: 2, class: 0 },
    SyscallInfo { nr: 159, name: "adjtimex", nargs: 1, class: class::CLOCK },
    SyscallInfo { nr: 160, name: "setrlimit", nargs: 2, class: 0 },
    SyscallInfo { nr: 161, name: "chroot", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 162, name: "sync", nargs: 0, class: 0 },
    SyscallInfo { nr: 163, name: "acct", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 164, name: "settimeofday", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 165, name: "mount", nargs: 5, class: class::FILE },
    SyscallInfo { nr: 166, name: "umount2", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 167, name: "swapon", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 168, name: "swapoff", nargs: 1, class: class::FILE },
    SyscallInfo { nr: 169, name: "reboot", nargs: 4, class: 0 },
    SyscallInfo { nr: 170, name: "sethostname", nargs: 2, class: 0 },
    SyscallInfo { nr: 171, name: "setdomainname", nargs: 2, class: 0 },
    SyscallInfo { nr: 172, name: "iopl", nargs: 1, class: 0 },
    SyscallInfo { nr: 173, name: "ioperm", nargs: 3, class: 0 },
    SyscallInfo { nr: 174, name: "create_module", nargs: 2, class: 0 }, // not implemented
    SyscallInfo { nr: 175, name: "init_module", nargs: 3, class: 0 },
    SyscallInfo { nr: 176, name: "delete_module", nargs: 2, class: 0 },
    SyscallInfo { nr: 177, name: "get_kernel_syms", nargs: 1, class: 0 }, // not implemented
    SyscallInfo { nr: 178, name: "query_module", nargs: 5, class: 0 }, // not implemented
    SyscallInfo { nr: 179, name: "quotactl", nargs: 4, class: class::FILE },
    SyscallInfo { nr: 180, name: "nfsservctl", nargs: 3, class: 0 }, // not implemented
    SyscallInfo { nr: 181, name: "getpmsg", nargs: 5, class: class::NETWORK }, // not implemented
    SyscallInfo { nr: 182, name: "putpmsg", nargs: 5, class: class::NETWORK }, // not implemented
    SyscallInfo { nr: 183, name: "afs_syscall", nargs: 5, class: 0 }, // not implemented
    SyscallInfo { nr: 184, name: "tuxcall", nargs: 3, class: 0 }, // not implemented
    SyscallInfo { nr: 185, name: "security", nargs: 3, class: 0 }, // not implemented
    SyscallInfo { nr: 186, name: "gettid", nargs: 0, class: class::PURE },
    SyscallInfo { nr: 187, name: "readahead", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 188, name: "setxattr", nargs: 5, class: class::FILE },
    SyscallInfo { nr: 189, name: "lsetxattr", nargs: 5, class: class::FILE },
    SyscallInfo { nr: 190, name: "fsetxattr", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 191, name: "getxattr", nargs: 4, class: class::FILE },
    SyscallInfo { nr: 192, name: "lgetxattr", nargs: 4, class: class::FILE },
    SyscallInfo { nr: 193, name: "fgetxattr", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 194, name: "listxattr", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 195, name: "llistxattr", nargs: 3, class: class::FILE },
    SyscallInfo { nr: 196, name: "flistxattr", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 197, name: "removexattr", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 198, name: "lremovexattr", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 199, name: "fremovexattr", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 200, name: "tkill", nargs: 2, class: class::PROCESS | class::SIGNAL },
    SyscallInfo { nr: 201, name: "time", nargs: 1, class: class::CLOCK },
    SyscallInfo { nr: 202, name: "futex", nargs: 6, class: 0 },
    SyscallInfo { nr: 203, name: "sched_setaffinity", nargs: 3, class: 0 },
    SyscallInfo { nr: 204, name: "sched_getaffinity", nargs: 3, class: 0 },
    SyscallInfo { nr: 205, name: "set_thread_area", nargs: 1, class: 0 }, // no 64-bit entry point (arch_prctl is used instead)
    SyscallInfo { nr: 206, name: "io_setup", nargs: 2, class: class::MEMORY },
    SyscallInfo { nr: 207, name: "io_destroy", nargs: 1, class: class::MEMORY },
    SyscallInfo { nr: 208, name: "io_getevents", nargs: 5, class: 0 },
    SyscallInfo { nr: 209, name: "io_submit", nargs: 3, class: 0 },
    SyscallInfo { nr: 210, name: "io_cancel", nargs: 3, class: 0 },
    SyscallInfo { nr: 211, name: "get_thread_area", nargs: 1, class: 0 }, // no 64-bit entry point (arch_prctl is used instead)
    SyscallInfo { nr: 212, name: "lookup_dcookie", nargs: 3, class: 0 },
    SyscallInfo { nr: 213, name: "epoll_create", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 214, name: "epoll_ctl_old", nargs: 4, class: 0 }, // not implemented
    SyscallInfo { nr: 215, name: "epoll_wait_old", nargs: 4, class: 0 }, // not implemented
    SyscallInfo { nr: 216, name: "remap_file_pages", nargs: 5, class: class::MEMORY },
    SyscallInfo { nr: 217, name: "getdents64", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 218, name: "set_tid_address", nargs: 1, class: 0 },
    SyscallInfo { nr: 219, name: "restart_syscall", nargs: 0, class: 0 },
    SyscallInfo { nr: 220, name: "semtimedop", nargs: 4, class: class::IPC },
    SyscallInfo { nr: 221, name: "fadvise64", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 222, name: "timer_create", nargs: 3, class: 0 },
    SyscallInfo { nr: 223, name: "timer_settime", nargs: 4, class: 0 },
    SyscallInfo { nr: 224, name: "timer_gettime", nargs: 2, class: 0 },
    SyscallInfo { nr: 225, name: "timer_getoverrun", nargs: 1, class: 0 },
    SyscallInfo { nr: 226, name: "timer_delete", nargs: 1, class: 0 },
    SyscallInfo { nr: 227, name: "clock_settime", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 228, name: "clock_gettime", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 229, name: "clock_getres", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 230, name: "clock_nanosleep", nargs: 4, class: 0 },
    SyscallInfo { nr: 231, name: "exit_group", nargs: 1, class: class::PROCESS },
    SyscallInfo { nr: 232, name: "epoll_wait", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 233, name: "epoll_ctl", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 234, name: "tgkill", nargs: 3, class: class::PROCESS | class::SIGNAL },
    SyscallInfo { nr: 235, name: "utimes", nargs: 2, class: class::FILE },
    SyscallInfo { nr: 236, name: "vserver", nargs: 5, class: 0 }, // not implemented
    SyscallInfo { nr: 237, name: "mbind", nargs: 6, class: class::MEMORY },
    SyscallInfo { nr: 238, name: "set_mempolicy", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 239, name: "get_mempolicy", nargs: 5, class: class::MEMORY },
    SyscallInfo { nr: 240, name: "mq_open", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 241, name: "mq_unlink", nargs: 1, class: 0 },
    SyscallInfo { nr: 242, name: "mq_timedsend", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 243, name: "mq_timedreceive", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 244, name: "mq_notify", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 245, name: "mq_getsetattr", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 246, name: "kexec_load", nargs: 4, class: 0 },
    SyscallInfo { nr: 247, name: "waitid", nargs: 5, class: class::PROCESS },
    SyscallInfo { nr: 248, name: "add_key", nargs: 5, class: 0 },
    SyscallInfo { nr: 249, name: "request_key", nargs: 4, class: 0 },
    SyscallInfo { nr: 250, name: "keyctl", nargs: 5, class: 0 },
    SyscallInfo { nr: 251, name: "ioprio_set", nargs: 3, class: 0 },
    SyscallInfo { nr: 252, name: "ioprio_get", nargs: 2, class: 0 },
    SyscallInfo { nr: 253, name: "inotify_init", nargs: 0, class: class::DESC },
    SyscallInfo { nr: 254, name: "inotify_add_watch", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 255, name: "inotify_rm_watch", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 256, name: "migrate_pages", nargs: 4, class: class::MEMORY },
    SyscallInfo { nr: 257, name: "openat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 258, name: "mkdirat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 259, name: "mknodat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 260, name: "fchownat", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 261, name: "futimesat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 262, name: "newfstatat", nargs: 4, class: class::FILE | class::DESC | class::FSTAT },
    SyscallInfo { nr: 263, name: "unlinkat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 264, name: "renameat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 265, name: "linkat", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 266, name: "symlinkat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 267, name: "readlinkat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 268, name: "fchmodat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 269, name: "faccessat", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 270, name: "pselect6", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 271, name: "ppoll", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 272, name: "unshare", nargs: 1, class: 0 },
    SyscallInfo { nr: 273, name: "set_robust_list", nargs: 2, class: 0 },
    SyscallInfo { nr: 274, name: "get_robust_list", nargs: 3, class: 0 },
    SyscallInfo { nr: 275, name: "splice", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 276, name: "tee", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 277, name: "sync_file_range", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 278, name: "vmsplice", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 279, name: "move_pages", nargs: 6, class: class::MEMORY },
    SyscallInfo { nr: 280, name: "utimensat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 281, name: "epoll_pwait", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 282, name: "signalfd", nargs: 3, class: class::SIGNAL | class::DESC },
    SyscallInfo { nr: 283, name: "timerfd_create", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 284, name: "eventfd", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 285, name: "fallocate", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 286, name: "timerfd_settime", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 287, name: "timerfd_gettime", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 288, name: "accept4", nargs: 4, class: class::NETWORK },
    SyscallInfo { nr: 289, name: "signalfd4", nargs: 4, class: class::SIGNAL | class::DESC },
    SyscallInfo { nr: 290, name: "eventfd2", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 291, name: "epoll_create1", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 292, name: "dup3", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 293, name: "pipe2", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 294, name: "inotify_init1", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 295, name: "preadv", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 296, name: "pwritev", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 297, name: "rt_tgsigqueueinfo", nargs: 4, class: class::PROCESS | class::SIGNAL },
    SyscallInfo { nr: 298, name: "perf_event_open", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 299, name: "recvmmsg", nargs: 5, class: class::NETWORK },
    SyscallInfo { nr: 300, name: "fanotify_init", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 301, name: "fanotify_mark", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 302, name: "prlimit64", nargs: 4, class: 0 },
    SyscallInfo { nr: 303, name: "name_to_handle_at", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 304, name: "open_by_handle_at", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 305, name: "clock_adjtime", nargs: 2, class: class::CLOCK },
    SyscallInfo { nr: 306, name: "syncfs", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 307, name: "sendmmsg", nargs: 4, class: class::NETWORK },
    SyscallInfo { nr: 308, name: "setns", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 309, name: "getcpu", nargs: 3, class: 0 },
    SyscallInfo { nr: 310, name: "process_vm_readv", nargs: 6, class: 0 },
    SyscallInfo { nr: 311, name: "process_vm_writev", nargs: 6, class: 0 },
    SyscallInfo { nr: 312, name: "kcmp", nargs: 5, class: 0 },
    SyscallInfo { nr: 313, name: "finit_module", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 314, name: "sched_setattr", nargs: 3, class: 0 },
    SyscallInfo { nr: 315, name: "sched_getattr", nargs: 4, class: 0 },
    SyscallInfo { nr: 316, name: "renameat2", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 317, name: "seccomp", nargs: 3, class: 0 },
    SyscallInfo { nr: 318, name: "getrandom", nargs: 3, class: 0 },
    SyscallInfo { nr: 319, name: "memfd_create", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 320, name: "kexec_file_load", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 321, name: "bpf", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 322, name: "execveat", nargs: 5, class: class::FILE | class::PROCESS | class::DESC },
    SyscallInfo { nr: 323, name: "userfaultfd", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 324, name: "membarrier", nargs: 3, class: 0 },
    SyscallInfo { nr: 325, name: "mlock2", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 326, name: "copy_file_range", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 327, name: "preadv2", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 328, name: "pwritev2", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 329, name: "pkey_mprotect", nargs: 4, class: class::MEMORY },
    SyscallInfo { nr: 330, name: "pkey_alloc", nargs: 2, class: 0 },
    SyscallInfo { nr: 331, name: "pkey_free", nargs: 1, class: 0 },
    SyscallInfo { nr: 332, name: "statx", nargs: 5, class: class::FILE | class::DESC | class::FSTAT },
    SyscallInfo { nr: 333, name: "io_pgetevents", nargs: 6, class: 0 },
    SyscallInfo { nr: 334, name: "rseq", nargs: 4, class: 0 },
    SyscallInfo { nr: 335, name: "uretprobe", nargs: 0, class: 0 }, // Linux 6.11; only callable from the kernel's uretprobe trampoline
    SyscallInfo { nr: 336, name: "uprobe", nargs: 0, class: 0 }, // Linux 6.18; only callable from the kernel's uprobe trampoline. strace 7.2 has no entry for it (prints syscall_0x150); name taken from the kernel table
    SyscallInfo { nr: 424, name: "pidfd_send_signal", nargs: 4, class: class::PROCESS | class::SIGNAL | class::DESC },
    SyscallInfo { nr: 425, name: "io_uring_setup", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 426, name: "io_uring_enter", nargs: 6, class: class::SIGNAL | class::DESC },
    SyscallInfo { nr: 427, name: "io_uring_register", nargs: 4, class: class::DESC | class::MEMORY },
    SyscallInfo { nr: 428, name: "open_tree", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 429, name: "move_mount", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 430, name: "fsopen", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 431, name: "fsconfig", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 432, name: "fsmount", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 433, name: "fspick", nargs: 3, class: class::FILE | class::DESC },
    SyscallInfo { nr: 434, name: "pidfd_open", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 435, name: "clone3", nargs: 2, class: class::PROCESS },
    SyscallInfo { nr: 436, name: "close_range", nargs: 3, class: 0 },
    SyscallInfo { nr: 437, name: "openat2", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 438, name: "pidfd_getfd", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 439, name: "faccessat2", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 440, name: "process_madvise", nargs: 5, class: class::DESC },
    SyscallInfo { nr: 441, name: "epoll_pwait2", nargs: 6, class: class::DESC },
    SyscallInfo { nr: 442, name: "mount_setattr", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 443, name: "quotactl_fd", nargs: 4, class: class::DESC }, // an early tree named this slot quotactl_path; released kernels (5.14+) call it quotactl_fd
    SyscallInfo { nr: 444, name: "landlock_create_ruleset", nargs: 3, class: class::DESC },
    SyscallInfo { nr: 445, name: "landlock_add_rule", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 446, name: "landlock_restrict_self", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 447, name: "memfd_secret", nargs: 1, class: class::DESC },
    SyscallInfo { nr: 448, name: "process_mrelease", nargs: 2, class: class::DESC },
    SyscallInfo { nr: 449, name: "futex_waitv", nargs: 5, class: 0 },
    SyscallInfo { nr: 450, name: "set_mempolicy_home_node", nargs: 4, class: class::MEMORY },
    SyscallInfo { nr: 451, name: "cachestat", nargs: 4, class: class::DESC },
    SyscallInfo { nr: 452, name: "fchmodat2", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 453, name: "map_shadow_stack", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 454, name: "futex_wake", nargs: 4, class: 0 },
    SyscallInfo { nr: 455, name: "futex_wait", nargs: 6, class: 0 },
    SyscallInfo { nr: 456, name: "futex_requeue", nargs: 4, class: 0 },
    SyscallInfo { nr: 457, name: "statmount", nargs: 4, class: 0 },
    SyscallInfo { nr: 458, name: "listmount", nargs: 4, class: 0 },
    SyscallInfo { nr: 459, name: "lsm_get_self_attr", nargs: 4, class: 0 },
    SyscallInfo { nr: 460, name: "lsm_set_self_attr", nargs: 4, class: 0 },
    SyscallInfo { nr: 461, name: "lsm_list_modules", nargs: 3, class: 0 },
    SyscallInfo { nr: 462, name: "mseal", nargs: 3, class: class::MEMORY },
    SyscallInfo { nr: 463, name: "setxattrat", nargs: 6, class: class::FILE | class::DESC },
    SyscallInfo { nr: 464, name: "getxattrat", nargs: 6, class: class::FILE | class::DESC },
    SyscallInfo { nr: 465, name: "listxattrat", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 466, name: "removexattrat", nargs: 4, class: class::FILE | class::DESC },
    SyscallInfo { nr: 467, name: "open_tree_attr", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 468, name: "file_getattr", nargs: 5, class: class::FILE | class::DESC },
    SyscallInfo { nr: 469, name: "file_setattr", nargs: 5, class: class::FILE | class::DESC },
];

/// Class names accepted by `-e trace=%NAME`, mapped to bits. Each name is
/// listed without its leading `%`, so strace's `%%stat` is here as `"%stat"`.
/// Both of strace's spellings of the network class are here ("net" and
/// "network").
///
/// A call is in a class when `info.class & mask != 0`. Every mask is one bit,
/// except `%stat`, which is `STAT | LSTAT | FSTAT`.
///
/// strace matches these names case-insensitively. It also accepts some names
/// without the `%` (desc, file, memory, process, signal, ipc, network), and
/// `all`; handling those is up to the caller.
pub static CLASS_NAMES: &[(&str, u16)] = &[
    ("desc", class::DESC),
    ("file", class::FILE),
    ("memory", class::MEMORY),
    ("process", class::PROCESS),
    ("creds", class::CREDS),
    ("signal", class::SIGNAL),
    ("ipc", class::IPC),
    ("net", class::NETWORK),
    ("network", class::NETWORK),
    ("stat", class::STAT),
    ("lstat", class::LSTAT),
    ("fstat", class::FSTAT),
    ("%stat", class::STAT | class::LSTAT | class::FSTAT),
    ("statfs", class::STATFS),
    ("fstatfs", class::FSTATFS),
    ("%statfs", class::STATFS_LIKE),
    ("pure", class::PURE),
    ("clock", class::CLOCK),
];

/// Looks up a system call by number (binary search over [`SYSCALLS`]).
pub fn by_nr(nr: u32) -> Option<&'static SyscallInfo> {
    // a direct index, built once: this runs for every event
    static INDEX: std::sync::OnceLock<Vec<Option<u16>>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let max = SYSCALLS.iter().map(|s| s.nr).max().unwrap_or(0) as usize;
        let mut v = vec![None; max + 1];
        for (i, s) in SYSCALLS.iter().enumerate() {
            v[s.nr as usize] = Some(i as u16);
        }
        v
    });
    index
        .get(nr as usize)
        .copied()
        .flatten()
        .map(|i| &SYSCALLS[i as usize])
}

/// System calls of strace's other x86_64 personalities (i386 and x32) that
/// the 64-bit table lacks. strace accepts them in `-e trace=` (they select
/// nothing for a 64-bit program), so scripts written for it run unchanged.
/// Listed from the kernel's asm/unistd_32.h and unistd_x32.h.
pub static OTHER_PERSONALITY_NAMES: &[&str] = &[
    "_llseek",
    "_newselect",
    "bdflush",
    "break",
    "chown32",
    "clock_adjtime64",
    "clock_getres_time64",
    "clock_gettime64",
    "clock_nanosleep_time64",
    "clock_settime64",
    "fadvise64_64",
    "fchown32",
    "fcntl64",
    "fstat64",
    "fstatat64",
    "fstatfs64",
    "ftime",
    "ftruncate64",
    "futex_time64",
    "getegid32",
    "geteuid32",
    "getgid32",
    "getgroups32",
    "getresgid32",
    "getresuid32",
    "getuid32",
    "gtty",
    "idle",
    "io_pgetevents_time64",
    "ipc",
    "lchown32",
    "lock",
    "lstat64",
    "mmap2",
    "mpx",
    "mq_timedreceive_time64",
    "mq_timedsend_time64",
    "nice",
    "oldfstat",
    "oldlstat",
    "oldolduname",
    "oldstat",
    "olduname",
    "ppoll_time64",
    "prof",
    "profil",
    "pselect6_time64",
    "readdir",
    "recvmmsg_time64",
    "rt_sigtimedwait_time64",
    "sched_rr_get_interval_time64",
    "semtimedop_time64",
    "sendfile64",
    "setfsgid32",
    "setfsuid32",
    "setgid32",
    "setgroups32",
    "setregid32",
    "setresgid32",
    "setresuid32",
    "setreuid32",
    "setuid32",
    "sgetmask",
    "sigaction",
    "signal",
    "sigpending",
    "sigprocmask",
    "sigreturn",
    "sigsuspend",
    "socketcall",
    "ssetmask",
    "stat64",
    "statfs64",
    "stime",
    "stty",
    "timer_gettime64",
    "timer_settime64",
    "timerfd_gettime64",
    "timerfd_settime64",
    "truncate64",
    "ugetrlimit",
    "ulimit",
    "umount",
    "utimensat_time64",
    "vm86",
    "vm86old",
    "waitpid",
];

/// strace's old class names, still accepted without the `%`.
pub static OLD_CLASS_NAMES: &[&str] = &[
    "desc", "file", "memory", "process", "signal", "ipc", "network",
];

/// Looks up a system call by its exact (case-sensitive) name.
pub fn by_name(name: &str) -> Option<&'static SyscallInfo> {
    SYSCALLS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(mask: u16) -> Vec<&'static str> {
        SYSCALLS
            .iter()
            .filter(|s| s.class & mask != 0)
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn sorted_and_unique_numbers() {
        for w in SYSCALLS.windows(2) {
            assert!(
                w[0].nr < w[1].nr,
                "{} ({}) before {} ({})",
                w[0].name,
                w[0].nr,
                w[1].name,
                w[1].nr
            );
        }
    }

    #[test]
    fn unique_names() {
        let mut names: Vec<&str> = SYSCALLS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "duplicate syscall names");
    }

    #[test]
    fn size_and_ranges() {
        assert!(SYSCALLS.len() >= 370, "only {} entries", SYSCALLS.len());
        assert_eq!(SYSCALLS.len(), 383);
        // 0..=336 and 424..=469, each present exactly once.
        for nr in (0..=336).chain(424..=469) {
            assert!(by_nr(nr).is_some(), "missing {nr}");
        }
        for nr in (337..424).chain(470..1024) {
            assert!(by_nr(nr).is_none(), "unexpected {nr}");
        }
        for s in SYSCALLS {
            assert!(s.nargs <= 6, "{} has {} args", s.name, s.nargs);
            assert!(!s.name.is_empty());
            assert!(s
                .name
                .bytes()
                .all(|b| b == b'_' || b.is_ascii_lowercase() || b.is_ascii_digit()));
        }
    }

    #[test]
    fn spot_values() {
        let cases: &[(u32, &str)] = &[
            (0, "read"),
            (1, "write"),
            (2, "open"),
            (9, "mmap"),
            (13, "rt_sigaction"),
            (17, "pread64"),
            (56, "clone"),
            (59, "execve"),
            (156, "_sysctl"),
            (166, "umount2"),
            (231, "exit_group"),
            (257, "openat"),
            (262, "newfstatat"),
            (332, "statx"),
            (334, "rseq"),
            (335, "uretprobe"),
            (336, "uprobe"),
            (424, "pidfd_send_signal"),
            (435, "clone3"),
            (436, "close_range"),
            (437, "openat2"),
            (439, "faccessat2"),
            (443, "quotactl_fd"),
            (447, "memfd_secret"),
            (449, "futex_waitv"),
            (451, "cachestat"),
            (452, "fchmodat2"),
            (453, "map_shadow_stack"),
            (457, "statmount"),
            (458, "listmount"),
            (462, "mseal"),
            (466, "removexattrat"),
            (467, "open_tree_attr"),
            (468, "file_getattr"),
            (469, "file_setattr"),
        ];
        for &(nr, name) in cases {
            assert_eq!(by_nr(nr).map(|s| s.name), Some(name), "nr {nr}");
            assert_eq!(by_name(name).map(|s| s.nr), Some(nr), "name {name}");
        }
        assert!(by_name("listns").is_none());
        assert!(by_name("READ").is_none());
    }

    #[test]
    fn spot_nargs_and_classes() {
        use class::*;
        let cases: &[(&str, u8, u16)] = &[
            ("read", 3, DESC),
            ("open", 3, DESC | FILE),
            ("stat", 2, FILE | STAT),
            ("fstat", 2, DESC | FSTAT),
            ("lstat", 2, FILE | LSTAT),
            ("mmap", 6, DESC | MEMORY),
            ("rt_sigaction", 4, SIGNAL),
            ("sendfile", 4, DESC | NETWORK),
            ("clone", 5, PROCESS),
            ("clone3", 2, PROCESS),
            ("execve", 3, FILE | PROCESS),
            ("execveat", 5, DESC | FILE | PROCESS),
            ("kill", 2, SIGNAL | PROCESS),
            ("getpid", 0, PURE),
            ("getuid", 0, CREDS | PURE),
            ("setresuid", 3, CREDS),
            ("prctl", 5, CREDS),
            ("gettimeofday", 2, CLOCK),
            ("clock_gettime", 2, CLOCK),
            ("ustat", 2, STATFS_LIKE),
            ("statfs", 2, FILE | STATFS | STATFS_LIKE),
            ("fstatfs", 2, DESC | FSTATFS | STATFS_LIKE),
            ("newfstatat", 4, DESC | FILE | FSTAT),
            ("statx", 5, DESC | FILE | FSTAT),
            ("shmat", 3, IPC | MEMORY),
            ("futex", 6, 0),
            ("pidfd_send_signal", 4, DESC | SIGNAL | PROCESS),
            ("io_uring_enter", 6, DESC | SIGNAL),
            ("openat2", 4, DESC | FILE),
            ("close_range", 3, 0),
            ("futex_waitv", 5, 0),
            ("cachestat", 4, DESC),
            ("fchmodat2", 4, DESC | FILE),
            ("mseal", 3, MEMORY),
            ("setxattrat", 6, DESC | FILE),
            ("listxattrat", 5, DESC | FILE),
            ("removexattrat", 4, DESC | FILE),
            ("open_tree_attr", 5, DESC | FILE),
            ("file_getattr", 5, DESC | FILE),
            ("uretprobe", 0, 0),
            ("sched_yield", 0, 0),
        ];
        for &(name, nargs, cls) in cases {
            let s = by_name(name).unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(s.nargs, nargs, "{name} nargs");
            assert_eq!(s.class, cls, "{name} class");
        }
    }

    #[test]
    fn class_membership() {
        assert_eq!(
            members(class::PURE),
            ["getpid", "getuid", "getgid", "geteuid", "getegid", "getppid", "getpgrp", "gettid"]
        );
        assert_eq!(members(class::STATFS_LIKE), ["ustat", "statfs", "fstatfs"]);
        assert_eq!(
            members(class::STAT | class::LSTAT | class::FSTAT),
            ["stat", "fstat", "lstat", "newfstatat", "statx"]
        );
        assert_eq!(members(class::IPC).len(), 12);
        assert!(members(class::NETWORK).contains(&"recvmmsg"));
        // Every statfs/fstatfs call is also statfs-like.
        for s in SYSCALLS {
            if s.class & (class::STATFS | class::FSTATFS) != 0 {
                assert!(s.class & class::STATFS_LIKE != 0, "{}", s.name);
            }
        }
    }

    #[test]
    fn class_names() {
        let lookup = |n: &str| CLASS_NAMES.iter().find(|(k, _)| *k == n).map(|&(_, v)| v);
        assert_eq!(lookup("net"), Some(class::NETWORK));
        assert_eq!(lookup("network"), Some(class::NETWORK));
        assert_eq!(lookup("%statfs"), Some(class::STATFS_LIKE));
        assert_eq!(
            lookup("%stat"),
            Some(class::STAT | class::LSTAT | class::FSTAT)
        );
        let mut names: Vec<&str> = CLASS_NAMES.iter().map(|&(n, _)| n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CLASS_NAMES.len());
        // Every class bit is reachable from some name, and every name matches something.
        let all = CLASS_NAMES.iter().fold(0u16, |a, &(_, m)| a | m);
        assert_eq!(all, u16::MAX);
        for &(n, m) in CLASS_NAMES {
            assert!(!members(m).is_empty(), "class {n} is empty");
        }
    }
}
