//! `-e` qualifying expressions: which syscalls to trace (applied in the
//! kernel through the capture plans) and which results to show.

use anyhow::{bail, Result};
use genba_syscalls::table;

/// Which call results are printed (`-e status=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusSet {
    pub successful: bool,
    pub failed: bool,
    pub unfinished: bool,
}

impl StatusSet {
    pub const ALL: StatusSet = StatusSet {
        successful: true,
        failed: true,
        unfinished: true,
    };

    pub fn is_all(&self) -> bool {
        *self == Self::ALL
    }

    /// Whether a completed call that succeeded (`ok`) or failed is printed.
    pub fn shows(&self, ok: bool) -> bool {
        if ok {
            self.successful
        } else {
            self.failed
        }
    }
}

/// Which messages are left out (strace's `-q`, `-e quiet=`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quiet {
    /// `Process N attached` / `detached` (and genba's `events lost` line
    /// when nothing was lost).
    pub attach: bool,
    /// `+++ exited with N +++` and `Exit of unknown pid N ignored`.
    pub exit: bool,
    /// `-P`'s `Requested path "a" resolved into "/b/a"`.
    pub path_resolution: bool,
    /// `+++ superseded by execve in pid N +++`.
    pub thread_execve: bool,
}

impl Quiet {
    /// strace's `-q`, `-qq`, `-qqq` (attach,personality; + exit; all).
    pub fn from_count(q: u8) -> Quiet {
        Quiet {
            attach: q >= 1,
            exit: q >= 2,
            path_resolution: q >= 3,
            thread_execve: q >= 3,
        }
    }
}

/// Signals `-e signal=` selects, indexed by number (0..=255).
pub const NSIG_SET: usize = 256;

#[derive(Debug, Clone)]
pub struct Filter {
    /// Indexed by syscall number.
    pub traced: Vec<bool>,
    pub status: StatusSet,
    /// Signals whose `--- SIG ---` and `+++ killed by SIG +++` lines are shown.
    pub signals: Vec<bool>,
    /// `-e quiet=`, when given.
    pub quiet: Option<Quiet>,
    /// `-e decode-fds=`, when given.
    pub decode_fds: Option<FdDecode>,
    /// `-e verbose=`: the calls whose structures are decoded (by number;
    /// None: all).
    pub verbose: Option<Vec<bool>>,
    /// `-e decode-pids=`: the sets given, in order (checked by the caller).
    pub decode_pids: Vec<String>,
    /// `-e inject=` and `-e fault=`, in order.
    pub inject: crate::inject::Injections,
    /// `-e read=`: descriptors whose data read is dumped in hex.
    pub dump_read: Option<FdSet>,
    /// `-e write=`: descriptors whose data written is dumped in hex.
    pub dump_write: Option<FdSet>,
    /// `-e kvm=vcpu`: KVM_RUN's exit reason read at its return and shown.
    pub kvm_vcpu: bool,
}

/// A set of descriptors (`-e read=`, `-e write=`): numbers, `all` or
/// `none`, `!` inverting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FdSet {
    inverted: bool,
    fds: Vec<usize>,
}

impl FdSet {
    fn parse(val: &str) -> Result<FdSet> {
        let (inverted, nums) = parse_tokens(val, "descriptor", &|t| t.parse::<usize>().ok())?;
        Ok(FdSet {
            inverted,
            fds: nums.unwrap_or_default(),
        })
    }

    pub fn contains(&self, fd: i64) -> bool {
        fd >= 0 && self.fds.contains(&(fd as usize)) != self.inverted
    }
}

/// What to print beside a descriptor (`-y`, `--decode-fds=SET`): its path;
/// a device's type and numbers (`</dev/null<char 1:3>>`, also without
/// `path`); the process a pidfd refers to (`<pid:1234>`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FdDecode {
    pub path: bool,
    pub dev: bool,
    pub pidfd: bool,
    pub socket: bool,
}

impl FdDecode {
    pub const PATH: FdDecode = FdDecode {
        path: true,
        dev: false,
        pidfd: false,
        socket: false,
    };

    /// `-yy`, `--decode-fds=all`.
    pub const ALL: FdDecode = FdDecode {
        path: true,
        dev: true,
        pidfd: true,
        socket: true,
    };

    pub fn any(&self) -> bool {
        self.path || self.dev || self.pidfd || self.socket
    }

    /// strace's `--decode-fds=` set: path, dev, pidfd, socket, all, none.
    pub fn parse(val: &str) -> Result<FdDecode> {
        let mut d = FdDecode::default();
        for item in val.split(',') {
            match item {
                "path" => d.path = true,
                "dev" => d.dev = true,
                "pidfd" => d.pidfd = true,
                "socket" => d.socket = true,
                "all" => d = FdDecode::ALL,
                "none" => {}
                other => bail!(
                    "invalid --decode-fds '{other}' (expected path, socket, dev, pidfd, all or none)"
                ),
            }
        }
        Ok(d)
    }
}

const MAX_NR: usize = 512;

impl Filter {
    pub fn parse(exprs: &[String], successful_only: bool, failed_only: bool) -> Result<Filter> {
        let mut f = Filter {
            traced: vec![true; MAX_NR],
            status: StatusSet::ALL,
            signals: vec![true; NSIG_SET],
            quiet: None,
            decode_fds: None,
            decode_pids: Vec::new(),
            verbose: None,
            inject: Default::default(),
            dump_read: None,
            dump_write: None,
            kvm_vcpu: false,
        };
        for e in exprs {
            let (q, val) = match e.split_once('=') {
                Some((q, v)) => (q, v),
                None => ("trace", e.as_str()),
            };
            match q {
                "trace" | "t" => f.traced = parse_set(val)?,
                "status" => f.status = parse_status(val)?,
                "signal" | "signals" | "s" => f.signals = parse_signals(val)?,
                "quiet" | "silent" | "silence" | "q" => f.quiet = Some(parse_quiet(val)?),
                "decode-fds" | "decode-fd" => f.decode_fds = Some(FdDecode::parse(val)?),
                "decode-pids" | "decode-pid" => f.decode_pids.push(val.to_string()),
                "inject" => f.inject.add(val, false)?,
                "fault" => f.inject.add(val, true)?,
                "read" | "reads" | "r" => f.dump_read = Some(FdSet::parse(val)?),
                "write" | "writes" | "w" => f.dump_write = Some(FdSet::parse(val)?),
                "verbose" | "v" => f.verbose = Some(parse_set(val)?),
                "kvm" => match val {
                    "vcpu" => f.kvm_vcpu = true,
                    _ => bail!("invalid -e kvm= argument '{val}' (expected vcpu)"),
                },
                "abbrev" | "a" | "raw" => {
                    bail!("-e {q}= is not supported yet by genba")
                }
                _ => bail!(
                    "invalid qualifier '{q}' in -e {e} (expected trace=, status=, signal=, quiet=, inject=, fault=, verbose=, read=, write=, decode-fds=, decode-pids= or kvm=)"
                ),
            }
        }
        // strace tampers with the calls it traces only
        f.inject.only_traced(&f.traced);
        if successful_only {
            f.status = StatusSet {
                successful: true,
                failed: false,
                unfinished: false,
            };
        }
        if failed_only {
            f.status = StatusSet {
                successful: false,
                failed: true,
                unfinished: false,
            };
        }
        Ok(f)
    }
}

/// strace's token sets (`-e signal=`, `-e quiet=`): each leading `!`
/// inverts; the whole rest `none` or `all`, or comma-separated tokens, each
/// one that `token` must know. Returns (inverted, None for all/none or the
/// tokens' numbers).
fn parse_tokens(
    val: &str,
    what: &str,
    token: &dyn Fn(&str) -> Option<usize>,
) -> Result<(bool, Option<Vec<usize>>)> {
    let body = val.trim_start_matches('!');
    let mut inverted = (val.len() - body.len()) % 2 == 1;
    match body {
        "none" => return Ok((inverted, None)),
        "all" => {
            inverted = !inverted;
            return Ok((inverted, None));
        }
        _ => {}
    }
    let mut nums = Vec::new();
    for t in body.split(',').filter(|t| !t.is_empty()) {
        match token(t) {
            Some(n) => nums.push(n),
            None => bail!("invalid {what} '{t}'"),
        }
    }
    if nums.is_empty() {
        bail!("invalid {what} '{body}'");
    }
    Ok((inverted, Some(nums)))
}

/// A signal by number (up to 255) or name, with or without `SIG`, any case.
pub(crate) fn signal_number(s: &str) -> Option<usize> {
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        return s.parse::<usize>().ok().filter(|&n| n < NSIG_SET);
    }
    let bare = if s.len() >= 3 && s[..3].eq_ignore_ascii_case("SIG") {
        &s[3..]
    } else {
        s
    };
    (1..=64).find(|&n| {
        let name = genba_syscalls::consts::signal_name(n as i32);
        name.strip_prefix("SIG")
            .is_some_and(|b| b.eq_ignore_ascii_case(bare))
    })
}

/// `-e signal=SET`: the signals whose delivery and deaths are printed.
fn parse_signals(val: &str) -> Result<Vec<bool>> {
    let (inverted, nums) = parse_tokens(val, "signal", &signal_number)?;
    let mut set = vec![false; NSIG_SET];
    for n in nums.unwrap_or_default() {
        set[n] = true;
    }
    if inverted {
        set.iter_mut().for_each(|b| *b = !*b);
    }
    Ok(set)
}

/// `-e quiet=SET`. `personality` (genba traces 64-bit programs only and so
/// never prints a personality change) names a message genba never writes:
/// accepted, nothing to hide.
fn parse_quiet(val: &str) -> Result<Quiet> {
    const ATTACH: usize = 0;
    const EXIT: usize = 1;
    const NEVER_PRINTED: usize = 2;
    const PATH_RESOLUTION: usize = 3;
    const THREAD_EXECVE: usize = 4;
    let token = |t: &str| match t {
        "attach" => Some(ATTACH),
        "exit" | "exits" => Some(EXIT),
        "path-resolution" => Some(PATH_RESOLUTION),
        "thread-execve" | "superseded" => Some(THREAD_EXECVE),
        "personality" => Some(NEVER_PRINTED),
        _ => None,
    };
    let (inverted, nums) = parse_tokens(val, "quiet", &token)?;
    let nums = nums.unwrap_or_default();
    Ok(Quiet {
        attach: nums.contains(&ATTACH) != inverted,
        exit: nums.contains(&EXIT) != inverted,
        path_resolution: nums.contains(&PATH_RESOLUTION) != inverted,
        thread_execve: nums.contains(&THREAD_EXECVE) != inverted,
    })
}

fn parse_status(val: &str) -> Result<StatusSet> {
    let (neg, body) = match val.strip_prefix('!') {
        Some(b) => (true, b),
        None => (false, val),
    };
    let mut s = StatusSet {
        successful: false,
        failed: false,
        unfinished: false,
    };
    for item in body.split(',') {
        match item {
            "successful" => s.successful = true,
            "failed" => s.failed = true,
            "unfinished" => s.unfinished = true,
            "unavailable" | "detached" => {}
            "all" => s = StatusSet::ALL,
            "none" => {}
            other => bail!("invalid status '{other}' in -e status= (expected successful, failed, unfinished, unavailable, detached)"),
        }
    }
    if neg {
        s = StatusSet {
            successful: !s.successful,
            failed: !s.failed,
            unfinished: !s.unfinished,
        };
    }
    Ok(s)
}

pub(crate) fn parse_set(val: &str) -> Result<Vec<bool>> {
    let (neg, body) = match val.strip_prefix('!') {
        Some(b) => (true, b),
        None => (false, val),
    };
    let mut set = vec![false; MAX_NR];
    for raw in body.split(',').filter(|s| !s.is_empty()) {
        let (optional, item) = match raw.strip_prefix('?') {
            Some(i) => (true, i),
            None => (false, raw),
        };
        if item == "all" {
            set.iter_mut().for_each(|b| *b = true);
        } else if item == "none" {
        } else if let Some(class) = item
            .strip_prefix('%')
            .or_else(|| table::OLD_CLASS_NAMES.contains(&item).then_some(item))
        {
            let bits = table::CLASS_NAMES
                .iter()
                .find(|(n, _)| {
                    n.eq_ignore_ascii_case(class)
                        || n.trim_start_matches('%').eq_ignore_ascii_case(class)
                })
                .map(|(_, b)| *b);
            let Some(bits) = bits else {
                if optional {
                    continue;
                }
                let names: Vec<&str> = table::CLASS_NAMES.iter().map(|(n, _)| *n).collect();
                bail!(
                    "invalid syscall class '%{class}'{}",
                    suggest(class, &names, "%")
                );
            };
            for s in table::SYSCALLS {
                if s.class & bits != 0 && (s.nr as usize) < MAX_NR {
                    set[s.nr as usize] = true;
                }
            }
        } else if let Some(re) = item.strip_prefix('/') {
            let re = regex::Regex::new(re)
                .map_err(|e| anyhow::anyhow!("invalid regular expression '/{re}': {e}"))?;
            let mut any = false;
            for s in table::SYSCALLS {
                if re.is_match(s.name) && (s.nr as usize) < MAX_NR {
                    set[s.nr as usize] = true;
                    any = true;
                }
            }
            if !any && !optional {
                bail!(
                    "regular expression '/{}' matches no system call",
                    re.as_str()
                );
            }
        } else if let Some(s) = table::by_name(item) {
            set[s.nr as usize] = true;
        } else if let Ok(nr) = item.parse::<usize>() {
            if nr < MAX_NR {
                set[nr] = true;
            }
        } else if table::OTHER_PERSONALITY_NAMES.contains(&item) {
            // a 32-bit call: nothing of a 64-bit program, as with strace
        } else if !optional {
            let names: Vec<&str> = table::SYSCALLS.iter().map(|s| s.name).collect();
            bail!("invalid system call '{item}'{}", suggest(item, &names, ""));
        }
    }
    if neg {
        set.iter_mut().for_each(|b| *b = !*b);
    }
    Ok(set)
}

/// ` (did you mean 'open'?)` for the closest known names: only those a typo
/// away (one edit in four characters), so an unrelated word gets no guess.
fn suggest(word: &str, names: &[&str], prefix: &str) -> String {
    let mut scored: Vec<(usize, &str)> =
        names.iter().map(|n| (edit_distance(word, n), *n)).collect();
    scored.sort();
    let limit = (word.chars().count() / 4).max(1);
    let best: Vec<String> = scored
        .iter()
        .take_while(|(d, _)| *d <= scored[0].0 && *d <= limit)
        .take(3)
        .map(|(_, n)| format!("'{prefix}{n}'"))
        .collect();
    if best.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", best.join(" or "))
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets() {
        let f = Filter::parse(&["trace=openat,close".into()], false, false).unwrap();
        assert!(f.traced[257] && f.traced[3] && !f.traced[0]);
        let f = Filter::parse(&["trace=!read".into()], false, false).unwrap();
        assert!(!f.traced[0] && f.traced[1]);
        let f = Filter::parse(&["trace=%file".into()], false, false).unwrap();
        assert!(f.traced[257] && !f.traced[0]);
        let f = Filter::parse(&["trace=/^get.*pid$".into()], false, false).unwrap();
        assert!(f.traced[110] && f.traced[39] && !f.traced[0]);
        let e = Filter::parse(&["trace=opnat".into()], false, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'openat'"), "{e}");
        // an unrelated word gets no guess
        let e = Filter::parse(&["trace=nosuchcall".into()], false, false)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "invalid system call 'nosuchcall'");
        // strace's old class names and other personalities' calls are accepted
        let f = Filter::parse(&["trace=file".into()], false, false).unwrap();
        assert!(f.traced[257] && !f.traced[0]);
        let f = Filter::parse(&["trace=ipc,network,mmap2,signal".into()], false, false).unwrap();
        assert!(f.traced[41] && f.traced[13] && f.traced[29] && !f.traced[9]);
    }

    #[test]
    fn signal_sets() {
        let sig = |v: &str| Filter::parse(&[format!("signal={v}")], false, false);
        let f = sig("none").unwrap();
        assert!(f.signals.iter().all(|b| !b));
        let f = sig("!chld").unwrap();
        assert!(!f.signals[17] && f.signals[10] && f.signals[9]);
        let f = sig("!SIGCHLD,SIGCONT").unwrap();
        assert!(!f.signals[17] && !f.signals[18] && f.signals[10]);
        let f = sig("USR1,2,sigrtmin,RT_1").unwrap();
        assert!(f.signals[10] && f.signals[2] && f.signals[32] && f.signals[33]);
        assert!(!f.signals[17]);
        let f = sig("!!all").unwrap();
        assert!(f.signals.iter().all(|&b| b));
        assert_eq!(
            sig("SIGNOPE").unwrap_err().to_string(),
            "invalid signal 'SIGNOPE'"
        );
        assert!(sig("256").is_err());
    }

    #[test]
    fn quiet_sets() {
        let q = |v: &str| {
            Filter::parse(&[format!("quiet={v}")], false, false).map(|f| f.quiet.unwrap())
        };
        assert_eq!(q("attach,personality").unwrap(), Quiet::from_count(1));
        assert_eq!(q("exit,attach,personality").unwrap(), Quiet::from_count(2));
        assert_eq!(q("all").unwrap(), Quiet::from_count(3));
        assert_eq!(q("none").unwrap(), Quiet::from_count(0));
        assert_eq!(
            q("!exit").unwrap(),
            Quiet {
                attach: true,
                exit: false,
                path_resolution: true,
                thread_execve: true
            }
        );
        assert!(q("path-resolution").unwrap().path_resolution);
        assert!(!q("attach").unwrap().path_resolution);
        assert!(q("chatter").is_err());
    }
}
