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

#[derive(Debug, Clone)]
pub struct Filter {
    /// Indexed by syscall number.
    pub traced: Vec<bool>,
    pub status: StatusSet,
}

const MAX_NR: usize = 512;

impl Filter {
    pub fn parse(exprs: &[String], successful_only: bool, failed_only: bool) -> Result<Filter> {
        let mut f = Filter {
            traced: vec![true; MAX_NR],
            status: StatusSet::ALL,
        };
        for e in exprs {
            let (q, val) = match e.split_once('=') {
                Some((q, v)) => (q, v),
                None => ("trace", e.as_str()),
            };
            match q {
                "trace" | "t" => f.traced = parse_set(val)?,
                "status" => f.status = parse_status(val)?,
                "abbrev" | "a" | "verbose" | "raw" | "signal" | "signals" | "s" | "read"
                | "write" => {
                    bail!("-e {q}= is not supported yet by genba")
                }
                _ => bail!("invalid qualifier '{q}' in -e {e} (expected trace= or status=)"),
            }
        }
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

fn parse_set(val: &str) -> Result<Vec<bool>> {
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
}
