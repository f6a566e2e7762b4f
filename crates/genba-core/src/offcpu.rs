//! Off-CPU intervals, as `profile` and `record` both take them: the
//! class each one's code names, the kernel frames that are genba's own,
//! the threads already waiting when a session attaches (read from /proc),
//! and what is still pending when a session stops.

use anyhow::{anyhow, Result};
use genba_analyze::profile::{Class, Phase};
use genba_analyze::report;
use genba_bpf::WaitingThread;
use genba_events::Event;

use crate::session::{Session, Sink};

/// Kernel frames that are the profiler's own (BPF, tracepoints) or the
/// sampling interrupt's, not the program's.
pub(crate) fn own_kernel_frame(name: &str) -> bool {
    const OURS: &[&str] = &[
        "bpf_prog_",
        "bpf_trace_run",
        "__bpf_trace",
        "__traceiter",
        "__probestub",
        "bpf_get_stack",
        "bpf_overflow_handler",
        "__perf_event_overflow",
        "perf_swevent",
        "perf_event_",
        "__hrtimer_run_queues",
        "hrtimer_interrupt",
        "__sysvec_apic_timer_interrupt",
        "sysvec_apic_timer_interrupt",
        "asm_sysvec_apic_timer_interrupt",
        "task_clock_event",
    ];
    // an address kallsyms does not name, in the modules' and BPF's area:
    // BPF code (modules' functions are named)
    OURS.iter().any(|p| name.starts_with(p)) || name.starts_with("0xffffffffc")
}

pub(crate) fn class_of(c: u32) -> Class {
    match c {
        0 => Class::User,
        1 => Class::Kernel,
        2 => Class::Io,
        3 => Class::Lock,
        4 => Class::Sched,
        _ => Class::Blocked,
    }
}

/// -p, -a: stops the profiling programs, so that the slots stop changing,
/// then closes what is still pending at that moment into `sink`: intervals
/// of threads still waiting (weighted with the phase their slot carried)
/// and CPU time not yet sampled.
pub(crate) fn close_pending(
    session: &mut Session,
    all: bool,
    period_ns: u64,
    sink: &mut dyn Sink,
) -> Result<()> {
    session.tracer.stop_profile();
    let end = monotonic_ns();
    session.drain(sink)?;
    let live = session.live().clone();
    let mut rng = end | 1;
    for slot in session.tracer.prof_slots().map_err(|e| anyhow!(e))? {
        let mut p = slot.sample;
        if !all && !live.contains(&p.task.tid) {
            continue;
        }
        p.ts = end;
        if slot.open {
            let out = slot.out_ts.min(end);
            let wake = if slot.wake_ts == 0 {
                end
            } else {
                slot.wake_ts.clamp(out, end)
            };
            let mut phase = Phase::new(period_ns, slot.acc);
            let (wb, wr) = phase.interval(wake - out, end - wake);
            let mut off = p.clone();
            off.off_cpu = true;
            off.flush = false;
            off.out_ts = out;
            off.wake_ts = wake;
            off.waking_ts = wake;
            off.w_block = wb as u32;
            off.w_runq = wr as u32;
            sink.event(&Event::Profile(Box::new(off)));
        }
        let mut on_ns = slot.on_acc;
        if slot.in_ts != 0 {
            on_ns += end.saturating_sub(slot.on_last);
        }
        let w = round_at_random(on_ns, period_ns, &mut rng);
        if w > 0 {
            p.flush = true;
            p.off_cpu = false;
            p.w_block = w as u32;
            p.w_runq = 0;
            sink.event(&Event::Profile(Box::new(p)));
        }
    }
    Ok(())
}

fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn tgid_of(tid: u32) -> Option<u32> {
    let s = std::fs::read_to_string(format!("/proc/{tid}/status")).ok()?;
    s.lines()
        .find_map(|l| l.strip_prefix("Tgid:"))
        .and_then(|v| v.trim().parse().ok())
}

/// A thread that is off the CPU at attach time, as /proc shows it.
pub(crate) fn waiting(tid: u32, stack_bytes: u32, period_ns: u64) -> Option<WaitingThread> {
    let stat = std::fs::read_to_string(format!("/proc/{tid}/stat")).ok()?;
    // the state follows the parenthesised name, which may hold anything
    let state = stat.rsplit_once(") ")?.1.chars().next()?;
    if state != 'S' && state != 'D' {
        return None;
    }
    // "nr arg1 .. arg6 sp pc" while in a system call
    let sys = std::fs::read_to_string(format!("/proc/{tid}/syscall")).ok()?;
    let f: Vec<&str> = sys.split_whitespace().collect();
    let num = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    let (sysnr, sp, pc) = if f.len() >= 9 {
        (f[0].parse::<i32>().ok()?, num(f[7])?, num(f[8])?)
    } else {
        (-1, 0, 0)
    };
    let class = match (state, sysnr) {
        ('D', _) => {
            // uninterruptible: I/O unless the kernel stack says a lock
            let stack = std::fs::read_to_string(format!("/proc/{tid}/stack")).unwrap_or_default();
            let names: Vec<&str> = stack
                .lines()
                .filter_map(|l| l.split_whitespace().nth(1))
                .collect();
            match report::refine_class(Class::Blocked, &names) {
                Class::Lock => 3,
                _ => 2,
            }
        }
        (_, 202 | 449 | 455) => 3, // futex waits: [L]
        _ => 5,                    // [B]
    };
    let mut ustack = vec![0u8; stack_bytes as usize];
    let mut got = 0usize;
    if sp != 0 {
        // in chunks: a read past the top of the stack fails whole
        for chunk in ustack.chunks_mut(512) {
            let local = libc::iovec {
                iov_base: chunk.as_mut_ptr().cast(),
                iov_len: chunk.len(),
            };
            let remote = libc::iovec {
                iov_base: (sp as usize + got) as *mut libc::c_void,
                iov_len: chunk.len(),
            };
            // SAFETY: one local buffer of the given length; the remote
            // side is only read by the kernel.
            let n = unsafe { libc::process_vm_readv(tid as i32, &local, 1, &remote, 1, 0) };
            if n != chunk.len() as isize {
                break;
            }
            got += chunk.len();
        }
    }
    ustack.truncate(got);
    let since = monotonic_ns();
    Some(WaitingThread {
        tid,
        tgid: tgid_of(tid).unwrap_or(tid),
        since,
        class,
        sysnr,
        regs: [pc, sp, 0],
        ustack,
        phase_ns: since % period_ns,
    })
}

/// `ns` in whole periods, the remainder rounded up with probability
/// remainder/period: right in expectation however short `ns` is.
fn round_at_random(ns: u64, period: u64, state: &mut u64) -> u64 {
    // xorshift64: enough to spread the rounding, no crate needed
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let w = ns / period;
    w + u64::from(*state % period < ns % period)
}

/// Slots for -a: twice the threads the system has now (tids equal modulo
/// the slot count share one; every collision is counted and reported).
pub(crate) fn system_slots() -> u32 {
    let threads = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| {
            l.split_whitespace()
                .nth(3)?
                .split('/')
                .nth(1)?
                .parse::<u32>()
                .ok()
        })
        .unwrap_or(4096);
    // a slot holds a stack copy (~8.8 KiB): 16384 slots are ~140 MiB
    (2 * threads).next_power_of_two().clamp(4096, 1 << 14)
}

/// -p: threads already waiting when genba attaches get their interval from
/// the attach, as /proc shows them (else their first wait would be lost).
pub(crate) fn seed_waiting(
    tracer: &mut genba_bpf::Tracer,
    live: &std::collections::HashSet<u32>,
    stack_bytes: u32,
    period_ns: u64,
) -> Result<(), genba_bpf::Error> {
    for &tid in live {
        if let Some(w) = waiting(tid, stack_bytes, period_ns) {
            tracer.prof_open_waiting(&w)?;
        }
    }
    Ok(())
}
