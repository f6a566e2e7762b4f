//! What every command's session needs before it starts: the program to
//! run or the processes to attach to, the GPU layer's directory, the BPF
//! capture plans, and every failure turned into one line with its exit code.

use anyhow::{anyhow, bail, Result};
use genba_bpf::{ArgCapture, CaptureKind, CaptureWhen};
use genba_syscalls::{CapKind, CapWhen};

use crate::launch;
use crate::session;

/// An error that already carries its exit code.
#[derive(Debug)]
pub struct Exit(pub i32, pub String);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.1)
    }
}

impl std::error::Error for Exit {}

/// Effective capabilities of this process (bits of /proc/self/status CapEff).
pub(crate) fn effective_caps() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("CapEff:"))
                .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
        })
        .unwrap_or(0)
}

pub(crate) fn bpf_error(e: genba_bpf::Error) -> anyhow::Error {
    let msg = e.to_string();
    if msg.contains("Operation not permitted")
        || msg.contains("EPERM")
        || msg.contains("Permission denied")
    {
        const CAP_SYS_ADMIN: u32 = 21;
        const CAP_PERFMON: u32 = 38;
        const CAP_BPF: u32 = 39;
        let caps = effective_caps();
        let has = |c: u32| caps & (1u64 << c) != 0;
        let missing: Vec<&str> = if has(CAP_SYS_ADMIN) {
            vec![]
        } else {
            [(CAP_BPF, "CAP_BPF"), (CAP_PERFMON, "CAP_PERFMON")]
                .iter()
                .filter(|(c, _)| !has(*c))
                .map(|(_, n)| *n)
                .collect()
        };
        let why = if missing.is_empty() {
            "the kernel refused although the capabilities are there (kernel.unprivileged_bpf_disabled, a security module or a container policy?)".to_string()
        } else {
            format!(
                "missing {} (run as root, or grant CAP_BPF and CAP_PERFMON)",
                missing.join(" and ")
            )
        };
        anyhow!(Exit(
            1,
            format!("not permitted to load BPF programs: {why}")
        ))
    } else {
        anyhow!("{msg} (GENBA_DEBUG=1 shows libbpf's log)")
    }
}

// the decoders' capture slots are the collector's, one for one (a call's
// plans are zipped into its spec)
const _: () = assert!(genba_syscalls::decode::SLOTS == genba_bpf::CAPTURE_SLOTS);

pub(crate) fn to_bpf_plan(p: genba_syscalls::CapPlan) -> ArgCapture {
    ArgCapture {
        kind: match p.kind {
            CapKind::None => CaptureKind::None,
            CapKind::Str => CaptureKind::Str,
            CapKind::Fixed => CaptureKind::Fixed,
            CapKind::ArgLen => CaptureKind::ArgLen,
            CapKind::RetLen => CaptureKind::RetLen,
            CapKind::PtrLen => CaptureKind::PtrLen,
            CapKind::StrArray => CaptureKind::StrArray,
            CapKind::Count => CaptureKind::Count,
            CapKind::Iov => CaptureKind::Iov,
            CapKind::Msghdr => CaptureKind::Msghdr,
            CapKind::IovRet => CaptureKind::IovRet,
            CapKind::MsghdrRet => CaptureKind::MsghdrRet,
            CapKind::SpRel => CaptureKind::SpRel,
            CapKind::FdIno => CaptureKind::FdIno,
            CapKind::Dirents => CaptureKind::Dirents,
            CapKind::Ioc => CaptureKind::Ioc,
            CapKind::Mmsg => CaptureKind::Mmsg,
            CapKind::MmsgRet => CaptureKind::MmsgRet,
            CapKind::Ptrs => CaptureKind::Ptrs,
        },
        when: match p.when {
            CapWhen::Enter => CaptureWhen::Enter,
            CapWhen::Exit => CaptureWhen::Exit,
            CapWhen::ExitOk => CaptureWhen::ExitOk,
            CapWhen::Both => CaptureWhen::Both,
        },
        len_arg: p.len_arg,
        mult: p.mult,
        cond: p.cond.map(|c| genba_bpf::CaptureCond {
            arg: c.arg,
            mask: c.mask,
            val: c.val,
            val2: c.val2,
            bitmap: c.bitmap,
        }),
        max: p.max,
        src_arg: p.src_arg,
        deref: p.deref,
        len_u32: p.len_u32,
        ptrs: genba_bpf::PtrsLayout {
            stride: p.ptrs.stride,
            ptr_off: p.ptrs.ptr_off,
            elen_off: p.ptrs.elen_off,
        },
    }
}

pub(crate) fn realtime_offset() -> i64 {
    let mut mono: libc::timespec = unsafe { std::mem::zeroed() };
    let mut real: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: valid timespec pointers.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut mono);
        libc::clock_gettime(libc::CLOCK_REALTIME, &mut real);
    }
    (real.tv_sec - mono.tv_sec) * 1_000_000_000 + (real.tv_nsec - mono.tv_nsec)
}

/// The calls that say what a process maps and where it is: traced (not
/// shown) whenever stacks are unwound, so they are unwound against the
/// right files.
pub(crate) const BOOKKEEPING: &[&str] = &[
    "execve",
    "execveat",
    "mmap",
    "munmap",
    "open",
    "openat",
    "openat2",
    "creat",
    "close",
    "close_range",
    "dup",
    "dup2",
    "dup3",
    "fcntl",
    "chdir",
    "fchdir",
];

/// `--gpu`: the OpenCL layer written out and its directory made, in the
/// environment the program inherits (it must start under genba: the layer
/// is loaded when it starts).
pub(crate) fn gpu_setup(gpu: bool, command: &[String]) -> Result<Option<genba_gpu::GpuDir>> {
    if !gpu {
        return Ok(None);
    }
    if command.is_empty() {
        bail!(Exit(
            1,
            "--gpu needs a COMMAND to run (its GPU layer is loaded when the program starts)".into()
        ));
    }
    let dir = genba_gpu::GpuDir::create().map_err(|e| anyhow!(Exit(1, format!("--gpu: {e}"))))?;
    for (k, v) in dir.env() {
        // genba is one thread here; the program inherits it
        std::env::set_var(k, v);
    }
    Ok(Some(dir))
}

/// A session that could not start, as one line.
pub(crate) fn start_error(e: session::StartError) -> anyhow::Error {
    match e {
        session::StartError::Bpf(e) => bpf_error(e),
        session::StartError::Other(e) => e,
    }
}

/// `-p` arguments: live process ids.
pub(crate) fn parse_pids(args: &[String]) -> Result<Vec<i32>> {
    let mut pids = Vec::new();
    for p in args {
        let pid: i32 = p
            .trim()
            .parse()
            .map_err(|_| anyhow!("invalid process id: '{p}'"))?;
        if pid <= 0 || !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            bail!("attach: pid {pid}: No such process");
        }
        pids.push(pid);
    }
    Ok(pids)
}

/// The program a COMMAND names, found as execvp would (None: no command).
pub(crate) fn resolve_command(command: &[String]) -> Result<Option<std::path::PathBuf>> {
    let Some(cmd) = command.first() else {
        return Ok(None);
    };
    let path = launch::resolve(cmd).ok_or_else(|| {
        Exit(
            127,
            format!("Can't stat '{cmd}': No such file or directory"),
        )
    })?;
    Ok(Some(path))
}
