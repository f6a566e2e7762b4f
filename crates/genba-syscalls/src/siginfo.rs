//! strace's rendering of a siginfo: `{si_signo=SIGCHLD, ...}` (a delivered
//! signal's, and the ones calls such as rt_sigqueueinfo pass).

use crate::consts;

fn i32_at(d: &[u8; 48], off: usize) -> i32 {
    i32::from_le_bytes(d[off..off + 4].try_into().unwrap_or([0; 4]))
}

fn u64_at(d: &[u8; 48], off: usize) -> u64 {
    u64::from_le_bytes(d[off..off + 8].try_into().unwrap_or([0; 8]))
}

fn si_code_name(sig: i32, code: i32) -> String {
    let generic = match code {
        0 => Some("SI_USER"),
        0x80 => Some("SI_KERNEL"),
        -1 => Some("SI_QUEUE"),
        -2 => Some("SI_TIMER"),
        -3 => Some("SI_MESGQ"),
        -4 => Some("SI_ASYNCIO"),
        -5 => Some("SI_SIGIO"),
        -6 => Some("SI_TKILL"),
        _ => None,
    };
    if let Some(g) = generic {
        return g.to_string();
    }
    let specific: &[&str] = match sig {
        libc::SIGCHLD => &[
            "CLD_EXITED",
            "CLD_KILLED",
            "CLD_DUMPED",
            "CLD_TRAPPED",
            "CLD_STOPPED",
            "CLD_CONTINUED",
        ],
        libc::SIGSEGV => &["SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR"],
        libc::SIGBUS => &[
            "BUS_ADRALN",
            "BUS_ADRERR",
            "BUS_OBJERR",
            "BUS_MCEERR_AR",
            "BUS_MCEERR_AO",
        ],
        libc::SIGILL => &[
            "ILL_ILLOPC",
            "ILL_ILLOPN",
            "ILL_ILLADR",
            "ILL_ILLTRP",
            "ILL_PRVOPC",
            "ILL_PRVREG",
            "ILL_COPROC",
            "ILL_BADSTK",
        ],
        libc::SIGFPE => &[
            "FPE_INTDIV",
            "FPE_INTOVF",
            "FPE_FLTDIV",
            "FPE_FLTOVF",
            "FPE_FLTUND",
            "FPE_FLTRES",
            "FPE_FLTINV",
            "FPE_FLTSUB",
        ],
        libc::SIGTRAP => &["TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT"],
        libc::SIGIO => &[
            "POLL_IN", "POLL_OUT", "POLL_MSG", "POLL_ERR", "POLL_PRI", "POLL_HUP",
        ],
        _ => &[],
    };
    match usize::try_from(code)
        .ok()
        .and_then(|c| c.checked_sub(1))
        .and_then(|i| specific.get(i))
    {
        Some(n) => n.to_string(),
        None => format!("{code:#x}"),
    }
}

/// Formats the siginfo bytes of signal `sig` as strace does.
/// The siginfo `d` of signal `sig` (its own si_signo when that is not 0).
pub fn format(sig: i32, d: &[u8; 48]) -> String {
    format_with(sig, d, None)
}

/// [`format`], with `-Y`'s command name after si_pid.
pub fn format_with(sig: i32, d: &[u8; 48], comm: Option<&dyn Fn(i32) -> Option<String>>) -> String {
    let signo = i32_at(d, 0);
    let errno = i32_at(d, 4);
    let code = i32_at(d, 8);
    let mut s = format!(
        "{{si_signo={}, si_code={}",
        consts::signal_name(if signo != 0 { signo } else { sig }),
        si_code_name(sig, code)
    );
    if errno != 0 {
        match consts::errno_name(errno) {
            Some((name, _)) => s.push_str(&format!(", si_errno={name}")),
            None => s.push_str(&format!(", si_errno={}", errno as u32)),
        }
    }
    // an id as strace's PRINT_VAL_ID: (uid_t) -1 as -1
    let uid = match i32_at(d, 20) as u32 {
        u32::MAX => "-1".to_string(),
        u => u.to_string(),
    };
    let pid_n = i32_at(d, 16);
    let mut pid = String::new();
    crate::decode::pid(&mut pid, pid_n, comm);
    if code <= 0 || code == 0x80 {
        match code {
            0 | -6 => s.push_str(&format!(", si_pid={pid}, si_uid={uid}")),
            -1 => {
                s.push_str(&format!(
                    ", si_pid={pid}, si_uid={uid}, si_int={}, si_ptr=",
                    i32_at(d, 24)
                ));
                crate::fmt::ptr(&mut s, u64_at(d, 24));
            }
            -2 => {
                // strace's %#x: 0 has no 0x; the pointer NULL when 0
                let timerid = if pid_n == 0 {
                    "0".to_string()
                } else {
                    format!("{pid_n:#x}")
                };
                s.push_str(&format!(
                    ", si_timerid={timerid}, si_overrun={}, si_int={}, si_ptr=",
                    i32_at(d, 20),
                    i32_at(d, 24)
                ));
                crate::fmt::ptr(&mut s, u64_at(d, 24));
            }
            _ => {}
        }
    } else {
        match sig {
            libc::SIGCHLD => {
                let status = i32_at(d, 24);
                let st = if code == 1 {
                    status.to_string()
                } else {
                    consts::signal_name(status)
                };
                s.push_str(&format!(
                    ", si_pid={pid}, si_uid={uid}, si_status={st}, si_utime={}, si_stime={}",
                    clock_t(u64_at(d, 32)),
                    clock_t(u64_at(d, 40))
                ));
            }
            libc::SIGSEGV | libc::SIGBUS | libc::SIGILL | libc::SIGFPE | libc::SIGTRAP => {
                let addr = u64_at(d, 16);
                if addr == 0 {
                    s.push_str(", si_addr=NULL");
                } else {
                    s.push_str(&format!(", si_addr={addr:#x}"));
                }
            }
            _ => {}
        }
    }
    s.push('}');
    s
}

/// A clock_t in clock ticks as strace prints it: the value, and when it is
/// not 0 the seconds in a comment (`1 /* 0.01 s */`).
pub(crate) fn clock_t(v: u64) -> String {
    if v == 0 {
        return "0".into();
    }
    // SAFETY: sysconf has no preconditions.
    let tck = match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        t if t > 0 => t as u64,
        _ => 100,
    };
    let width = tck.saturating_sub(1).to_string().len();
    format!("{v} /* {}.{:0width$} s */", v / tck, v % tck)
}

#[cfg(test)]
mod clock_tests {
    #[test]
    fn clock_t_as_strace_prints_it() {
        // USER_HZ is 100 on x86_64
        assert_eq!(super::clock_t(0), "0");
        assert_eq!(super::clock_t(1), "1 /* 0.01 s */");
        assert_eq!(super::clock_t(150), "150 /* 1.50 s */");
    }
}
