//! Shared harness for genba's integration tests (std only).
//!
//! * builds `tests/programs/*.c` with gcc into `target/test-programs/` once
//!   per test binary (and only when a source is newer than its binary);
//! * runs commands with a timeout, output captured through files;
//! * decides whether BPF tests can run (`require_bpf!`): unavailable means
//!   SKIP locally, but a failure when the `CI` environment variable is set;
//! * parses and normalizes strace-format traces so that two runs of the same
//!   deterministic program by two tracers can be compared line by line;
//! * parses `-c` summary tables and JSON lines.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant, SystemTime};

// ---------------------------------------------------------------------------
// Paths and test programs
// ---------------------------------------------------------------------------

/// Whether a test's prerequisite is here: in CI, where scripts/deps.sh
/// installs everything, its absence fails the test (`missing` says what);
/// elsewhere the test is skipped.
pub fn prerequisite(ok: bool, missing: &str) -> bool {
    assert!(ok || std::env::var_os("CI").is_none(), "CI: {missing}");
    ok
}

/// Chromium and websocket-client, for the HTML checks (scripts/check_html.py).
pub fn browser() -> bool {
    let ok = Command::new("sh")
        .args([
            "-c",
            "command -v chromium >/dev/null && python3 -c 'import websocket'",
        ])
        .status()
        .is_ok_and(|s| s.success());
    prerequisite(
        ok,
        "chromium or websocket-client is missing (scripts/deps.sh installs them)",
    )
}

/// scripts/check_html.py on `page` in headless Chromium (a screenshot in
/// `shot`): what it found on the page, as JSON; a failure (a script error,
/// a request for anything outside the page) fails the test.
pub fn check_html(page: &Path, shot: &Path) -> serde_json::Value {
    check_html_as(page, shot, "report")
}

/// [`check_html`] for a page of another kind (`causal`).
pub fn check_html_as(page: &Path, shot: &Path, kind: &str) -> serde_json::Value {
    let out = Command::new("python3")
        .arg(repo_root().join("scripts/check_html.py"))
        .arg(page)
        .arg(shot)
        .arg(kind)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).expect("check_html's JSON")
}

/// The genba binary cargo built for this test run.
pub fn genba() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_genba"))
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    p.canonicalize().unwrap_or(p)
}

/// cargo's target directory (the one holding `debug/genba`).
pub fn target_dir() -> PathBuf {
    let bin = genba();
    bin.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// Where the test programs are built.
pub fn programs_dir() -> PathBuf {
    target_dir().join("test-programs")
}

fn mtime(p: &Path) -> Option<SystemTime> {
    fs::metadata(p).and_then(|m| m.modified()).ok()
}

fn build_programs() -> Result<(), String> {
    let src_dir = repo_root().join("tests/programs");
    let out_dir = programs_dir();
    fs::create_dir_all(&out_dir).map_err(|e| format!("mkdir {}: {e}", out_dir.display()))?;
    let entries = fs::read_dir(&src_dir).map_err(|e| format!("{}: {e}", src_dir.display()))?;
    let mut sources: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    if sources.is_empty() {
        return Err(format!("no C sources in {}", src_dir.display()));
    }
    for src in sources {
        let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
        let out = out_dir.join(&stem);
        if let (Some(s), Some(o)) = (mtime(&src), mtime(&out)) {
            if o >= s {
                continue;
            }
        }
        let tmp = out_dir.join(format!(".{stem}.{}.tmp", std::process::id()));
        let result = Command::new("gcc")
            .args(["-O1", "-Wall", "-o"])
            .arg(&tmp)
            .arg(&src)
            .arg("-lpthread")
            .output()
            .map_err(|e| format!("cannot run gcc: {e}"))?;
        if !result.status.success() {
            let _ = fs::remove_file(&tmp);
            return Err(format!(
                "gcc failed on {}:\n{}",
                src.display(),
                String::from_utf8_lossy(&result.stderr)
            ));
        }
        if !result.stderr.is_empty() {
            eprintln!(
                "warning: gcc warnings for {}:\n{}",
                src.display(),
                String::from_utf8_lossy(&result.stderr)
            );
        }
        fs::rename(&tmp, &out).map_err(|e| format!("rename to {}: {e}", out.display()))?;
    }
    Ok(())
}

/// Path of the built test program `name` (builds them all on first use).
pub fn program(name: &str) -> PathBuf {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    if let Err(e) = BUILT.get_or_init(build_programs) {
        panic!("building test programs: {e}");
    }
    let p = programs_dir().join(name);
    assert!(p.exists(), "no test program {}", p.display());
    p
}

// ---------------------------------------------------------------------------
// Temporary directories
// ---------------------------------------------------------------------------

/// Every temporary directory the tests create has this prefix in its name;
/// [`normalize`] replaces such paths by `TMPDIR`.
pub const TMP_PREFIX: &str = "genba-test-";

/// A temporary directory, removed on drop unless the test is failing.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let p =
            std::env::temp_dir().join(format!("{TMP_PREFIX}{}-{n}-{label}", std::process::id()));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).unwrap_or_else(|e| panic!("mkdir {}: {e}", p.display()));
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("(keeping {} for inspection)", self.0.display());
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

// ---------------------------------------------------------------------------
// Running commands
// ---------------------------------------------------------------------------

/// What a finished command produced.
#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }
    /// The non-empty stderr lines other than genba's `genba: N events lost`.
    pub fn stderr_messages(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| !l.trim().is_empty() && events_lost(l).is_none())
            .collect()
    }
    /// Everything, for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "status: {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status,
            tail(&self.stdout, 40),
            tail(&self.stderr, 40)
        )
    }
}

/// The last `n` lines of `s`.
pub fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let start = lines.len().saturating_sub(n);
    let mut out = String::new();
    if start > 0 {
        let _ = writeln!(out, "[... {start} lines ...]");
    }
    out.push_str(&lines[start..].join("\n"));
    out
}

/// `Some(N)` if `line` is genba's `genba: N events lost`.
pub fn events_lost(line: &str) -> Option<u64> {
    line.trim()
        .strip_prefix("genba: ")?
        .strip_suffix(" events lost")?
        .parse()
        .ok()
}

/// Runs `cmd` to completion (killing it after `timeout`), stdout and stderr
/// captured through files (so a chatty command cannot block on a pipe).
pub fn run_timeout(cmd: &mut Command, timeout: Duration) -> Output {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let base = std::env::temp_dir().join(format!("{TMP_PREFIX}{}-out{n}", std::process::id()));
    let (out_p, err_p) = (base.with_extension("stdout"), base.with_extension("stderr"));
    let out_f = File::create(&out_p).expect("create stdout file");
    let err_f = File::create(&err_p).expect("create stderr file");
    let desc = format!("{cmd:?}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out_f)
        .stderr(err_f)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot spawn {desc}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            let err = fs::read_to_string(&err_p).unwrap_or_default();
            let _ = fs::remove_file(&out_p);
            let _ = fs::remove_file(&err_p);
            panic!(
                "timed out after {timeout:?}: {desc}\nstderr:\n{}",
                tail(&err, 30)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let read = |p: &Path| String::from_utf8_lossy(&fs::read(p).unwrap_or_default()).into_owned();
    let out = Output {
        status,
        stdout: read(&out_p),
        stderr: read(&err_p),
    };
    let _ = fs::remove_file(&out_p);
    let _ = fs::remove_file(&err_p);
    out
}

/// [`run_timeout`] with a generous default.
pub fn run(cmd: &mut Command) -> Output {
    run_timeout(cmd, Duration::from_secs(120))
}

/// `genba ARGS...` as a Command.
pub fn genba_cmd<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut c = Command::new(genba());
    c.args(args);
    c
}

/// Tests that trace take this lock, so that they do not compete for the CPU
/// (two tracers at once make event loss and timing flakier than they are).
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------
// Capability checks
// ---------------------------------------------------------------------------

pub fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|e| e == "0"))
        })
        .unwrap_or(false)
}

fn check_bpf() -> Result<(), String> {
    if !is_root() {
        return Err("not running as root".into());
    }
    if !Path::new("/sys/kernel/btf/vmlinux").exists() {
        return Err("/sys/kernel/btf/vmlinux does not exist (kernel without BTF)".into());
    }
    let out = run_timeout(
        &mut genba_cmd(["trace", "-o", "/dev/null", "--", "/bin/true"]),
        Duration::from_secs(60),
    );
    if out.code() != Some(0) {
        return Err(format!(
            "trial `genba trace -o /dev/null -- /bin/true` failed:\n{}",
            out.describe()
        ));
    }
    Ok(())
}

/// Whether genba can trace here (root, BTF, and a trial run works).
pub fn bpf_available() -> bool {
    bpf_status().is_ok()
}

fn bpf_status() -> &'static Result<(), String> {
    static S: OnceLock<Result<(), String>> = OnceLock::new();
    S.get_or_init(check_bpf)
}

fn skip_or_fail(what: &str, why: &str) -> bool {
    if std::env::var_os("CI").is_some() {
        panic!("{what} unavailable and CI is set, so this is a failure: {why}");
    }
    eprintln!("SKIP: {what} unavailable: {why}");
    false
}

/// True when BPF tracing works; otherwise prints SKIP and returns false, or
/// panics when `CI` is set.
pub fn require_bpf() -> bool {
    match bpf_status() {
        Ok(()) => true,
        Err(e) => skip_or_fail("BPF tracing", e),
    }
}

/// True when strace runs; otherwise SKIP (or a failure under CI).
pub fn require_strace() -> bool {
    static S: OnceLock<Result<(), String>> = OnceLock::new();
    let r = S.get_or_init(|| match Command::new("strace").arg("-V").output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("strace -V: {:?}", o.status)),
        Err(e) => Err(format!("strace: {e}")),
    });
    match r {
        Ok(()) => true,
        Err(e) => skip_or_fail("strace", e),
    }
}

/// True when perf runs; otherwise SKIP (or a failure under CI).
#[allow(dead_code)]
pub fn require_perf() -> bool {
    static S: OnceLock<Result<(), String>> = OnceLock::new();
    let r = S.get_or_init(|| match Command::new("perf").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("perf --version: {:?}", o.status)),
        Err(e) => Err(format!("perf: {e}")),
    });
    match r {
        Ok(()) => true,
        Err(e) => skip_or_fail("perf", e),
    }
}

/// Returns from the calling test (after printing SKIP) when BPF tracing is
/// not available; panics instead when `CI` is set.
macro_rules! require_bpf {
    () => {
        if !$crate::common::require_bpf() {
            return;
        }
    };
}

/// Like `require_bpf!` for strace.
#[allow(unused_macros)]
macro_rules! require_strace {
    () => {
        if !$crate::common::require_strace() {
            return;
        }
    };
}

// ---------------------------------------------------------------------------
// Trace parsing and normalization
// ---------------------------------------------------------------------------

/// How a line's pid was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PidStyle {
    /// No pid.
    None,
    /// `N ` (strace -f with -o FILE; `%-5d `).
    Bare,
    /// `[pid N] ` (strace -f to stderr).
    Bracket,
}

/// Splits a raw line into (pid, style, rest).
pub fn split_pid(line: &str) -> (Option<u32>, PidStyle, &str) {
    if let Some(rest) = line.strip_prefix("[pid ") {
        let rest = rest.trim_start();
        let end = rest.find(']').unwrap_or(0);
        if let Ok(pid) = rest[..end].parse() {
            let body = &rest[end + 1..];
            return (
                Some(pid),
                PidStyle::Bracket,
                body.strip_prefix(' ').unwrap_or(body),
            );
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(' ') {
        if let Ok(pid) = line[..digits].parse() {
            return (
                Some(pid),
                PidStyle::Bare,
                line[digits..].trim_start_matches(' '),
            );
        }
    }
    (None, PidStyle::None, line)
}

/// Where the return value starts: `(text_end, eq)`, where `line[..text_end]`
/// is the call without padding and `line[eq..]` starts with `= `.
pub fn split_return(line: &str) -> Option<(usize, usize)> {
    let i = line.rfind(" = ")? + 1;
    let text_end = line[..i].trim_end_matches(' ').len();
    Some((text_end, i))
}

/// strace's alignment rule: the `=` of the return value is at column 40, or
/// one space after the call when the call is longer (columns count from the
/// start of the line, pid prefix included).
pub fn padding_ok(raw: &str) -> bool {
    padding_ok_at(raw, 40)
}

/// [`padding_ok`] for another `-a COLUMN`.
pub fn padding_ok_at(raw: &str, column: usize) -> bool {
    match split_return(raw) {
        Some((text_end, eq)) => eq == std::cmp::max(column, text_end + 1),
        None => true,
    }
}

const UNFINISHED: &str = " <unfinished ...>";

/// One logical trace line: an unfinished/resumed pair is merged into one.
#[derive(Debug, Clone)]
pub struct Entry {
    pub pid: Option<u32>,
    /// The line without pid prefix or alignment padding (one space before
    /// `= `), unfinished/resumed halves merged.
    pub body: String,
    /// Raw lines whose alignment padding is not strace's.
    pub bad_padding: Vec<String>,
}

impl Entry {
    /// The system call's name, if the line is a call.
    pub fn syscall(&self) -> Option<&str> {
        syscall_name(&self.body)
    }
}

/// The system call name at the start of a body (`name(`), skipping a
/// timestamp prefix.
pub fn syscall_name(body: &str) -> Option<&str> {
    let body = strip_timestamp(body);
    let end = body.find('(')?;
    let name = &body[..end];
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
        .then_some(name)
}

fn collapse_padding(s: &str) -> String {
    match split_return(s) {
        Some((text_end, eq)) if text_end < eq => format!("{} {}", &s[..text_end], &s[eq..]),
        _ => s.to_string(),
    }
}

/// Parses a whole trace: pid prefixes, unfinished/resumed merging (the
/// merged line takes the place of the unfinished half), padding checks.
pub fn parse_trace(text: &str) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    // unfinished entries waiting for their resumption: (pid, index)
    let mut pending: Vec<(Option<u32>, usize)> = Vec::new();
    for raw in text.lines() {
        if raw.trim().is_empty() {
            continue;
        }
        let (pid, _, rest) = split_pid(raw);
        let mut bad = Vec::new();
        if !padding_ok(raw) {
            bad.push(raw.to_string());
        }
        if let Some(head) = rest.strip_suffix(UNFINISHED) {
            pending.push((pid, entries.len()));
            entries.push(Entry {
                pid,
                body: format!("{head}{UNFINISHED}"),
                bad_padding: bad,
            });
            continue;
        }
        if let Some(after) = rest.strip_prefix("<... ") {
            if let Some(close) = after.find(" resumed>") {
                let name = &after[..close];
                let tail = &after[close + " resumed>".len()..];
                // the same task and call; a task without prefix (strace on
                // stderr drops `[pid N]` while only one task is traced)
                // matches any
                let found = pending.iter().rposition(|&(p, idx)| {
                    (p == pid || p.is_none() || pid.is_none())
                        && entries[idx].syscall() == Some(name)
                });
                if let Some(k) = found {
                    let (p, idx) = pending.remove(k);
                    let e = &mut entries[idx];
                    let head = e
                        .body
                        .strip_suffix(UNFINISHED)
                        .unwrap_or(&e.body)
                        .to_string();
                    e.body = collapse_padding(&format!("{head}{tail}"));
                    e.pid = p.or(pid);
                    e.bad_padding.extend(bad);
                    continue;
                }
            }
        }
        entries.push(Entry {
            pid,
            body: collapse_padding(rest),
            bad_padding: bad,
        });
    }
    entries
}

/// Removes a leading `-t`/`-tt`/`-ttt`/`-r` timestamp from a body.
pub fn strip_timestamp(body: &str) -> &str {
    let t = body.trim_start_matches(' ');
    let n = t
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b':' || *b == b'.')
        .count();
    if n > 0 && t[n..].starts_with(' ') && t[..n].bytes().any(|b| b == b':' || b == b'.') {
        t[n..].trim_start_matches(' ')
    } else {
        body
    }
}

/// Removes a trailing `-T` duration ` <0.000123>`.
pub fn strip_duration(body: &str) -> &str {
    if let Some(start) = body.rfind(" <") {
        let inner = &body[start + 2..];
        if let Some(num) = inner.strip_suffix('>') {
            if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                return &body[..start];
            }
        }
    }
    body
}

/// Replaces temporary-directory paths (`.../genba-test-...`) by `TMPDIR`.
fn replace_tmpdirs(s: &str) -> String {
    let tmp = std::env::temp_dir();
    let root = format!(
        "{}/{TMP_PREFIX}",
        tmp.display().to_string().trim_end_matches('/')
    );
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(&root) {
        out.push_str(&rest[..i]);
        out.push_str("TMPDIR");
        let after = &rest[i + root.len()..];
        let n = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_' || *b == b'.')
            .count();
        rest = &after[n..];
    }
    out.push_str(rest);
    out
}

/// Hex numbers of 9 digits or more (user-space addresses) become `ADDR`;
/// short ones (flags, sizes, unknown constants) stay.
fn replace_addrs(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i + 2 < b.len() {
        if b[i] == b'0'
            && b[i + 1] == b'x'
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b[i + 2].is_ascii_hexdigit()
        {
            let n = b[i + 2..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            if n >= 9 {
                out.push_str(&s[last..i]);
                out.push_str("ADDR");
                last = i + 2 + n;
            }
            i += 2 + n;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// Replaces whole decimal numbers found in `map` by their names.
fn replace_numbers(s: &str, map: &HashMap<u64, String>) -> String {
    if map.is_empty() {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i].is_ascii_digit()
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let n = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let end = i + n;
            let bounded = end == b.len() || !(b[end].is_ascii_alphanumeric() || b[end] == b'_');
            if bounded {
                if let Some(name) = s[i..end].parse::<u64>().ok().and_then(|v| map.get(&v)) {
                    out.push_str(&s[last..i]);
                    out.push_str(name);
                    last = end;
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// Replaces the value of every `key=N` (N decimal) by `key=repl`.
fn replace_field(s: &str, key: &str, repl: &str) -> String {
    let pat = format!("{key}=");
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(&pat) {
        let start = i + pat.len();
        out.push_str(&rest[..start]);
        let n = rest[start..].bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(if n > 0 { repl } else { "" });
        rest = &rest[start + n..];
    }
    out.push_str(rest);
    out
}

/// Drops ` /* 2026-11-22T02:11:17.056517350+0000 */` date comments.
fn strip_date_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(" /* ") {
        let after = &rest[i + 4..];
        let is_date = after.len() > 10
            && after.as_bytes()[4] == b'-'
            && after[..4].bytes().all(|b| b.is_ascii_digit());
        match (is_date, after.find(" */")) {
            (true, Some(j)) => {
                out.push_str(&rest[..i]);
                rest = &after[j + 3..];
            }
            _ => {
                out.push_str(&rest[..i + 4]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `pipe:[N]` and `socket:[N]` (-y) become `pipe:[INO]`: inodes differ per run.
fn replace_inodes(s: &str) -> String {
    let mut out = s.to_string();
    for kind in ["pipe:[", "socket:["] {
        let mut res = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(i) = rest.find(kind) {
            let start = i + kind.len();
            res.push_str(&rest[..start]);
            let n = rest[start..].bytes().take_while(u8::is_ascii_digit).count();
            res.push_str(if n > 0 { "INO" } else { "" });
            rest = &rest[start + n..];
        }
        res.push_str(rest);
        out = res;
    }
    out
}

/// Replaces non-zero ports `htons(N)` by `htons(PORT)` (kernel-chosen).
fn replace_ports(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("htons(") {
        let start = i + "htons(".len();
        out.push_str(&rest[..start]);
        let n = rest[start..].bytes().take_while(u8::is_ascii_digit).count();
        if n > 0 && rest[start..start + n] != *"0" {
            out.push_str("PORT");
        } else {
            out.push_str(&rest[start..start + n]);
        }
        rest = &rest[start + n..];
    }
    out.push_str(rest);
    out
}

/// Normalizes the body of a line (no pid prefix, see [`split_pid`]):
/// timestamps, `-T` durations, temporary paths, addresses, plus the values
/// that differ between two runs by nature: the tracer's own pid returned by
/// getppid, getrandom's bytes, clock readings, kernel-chosen ports and child
/// CPU times in SIGCHLD.
pub fn normalize_body(body: &str) -> String {
    let body = strip_duration(strip_timestamp(body));
    let mut s = replace_addrs(&replace_tmpdirs(body));
    let name = syscall_name(&s).unwrap_or("").to_string();
    match name.as_str() {
        "getppid" => {
            if let Some((_, eq)) = split_return(&s) {
                let ret = &s[eq + 2..];
                if !ret.is_empty() && ret.bytes().all(|b| b.is_ascii_digit()) {
                    s = format!("{}= PPID", &s[..eq]);
                }
            }
        }
        // the time a select had left depends on scheduling
        "select" | "pselect6" => {
            if let Some(i) = s.find("left {") {
                if let Some(j) = s[i..].find('}') {
                    s = format!("{}left {{T}}{}", &s[..i], &s[i + j + 1..]);
                }
            }
        }
        // the heap moves with ASLR, and low heaps have short addresses
        "brk" => {
            let mut out = String::new();
            let mut rest = s.as_str();
            while let Some(i) = rest.find("0x") {
                out.push_str(&rest[..i]);
                let n = rest[i + 2..]
                    .bytes()
                    .take_while(u8::is_ascii_hexdigit)
                    .count();
                out.push_str("ADDR");
                rest = &rest[i + 2 + n..];
            }
            out.push_str(rest);
            s = out;
        }
        // the task's own id, in traces whose tasks have no pid prefix
        "set_tid_address" | "getpid" | "gettid" => {
            if let Some((_, eq)) = split_return(&s) {
                let ret = &s[eq + 2..];
                if !ret.is_empty() && ret.bytes().all(|b| b.is_ascii_digit()) {
                    s = format!("{}= TID", &s[..eq]);
                }
            }
        }
        "getrandom" => {
            if let Some(rest) = s.strip_prefix("getrandom(\"") {
                // the quoted bytes end at the first unescaped quote
                let b = rest.as_bytes();
                let mut i = 0;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if i < b.len() {
                    s = format!("getrandom(RANDOM{}", &rest[i + 1..]);
                }
            }
        }
        "clock_gettime" | "gettimeofday" | "clock_gettime64" => {
            s = replace_field(&replace_field(&s, "tv_sec", "S"), "tv_nsec", "NS");
            s = replace_field(&s, "tv_usec", "US");
        }
        // figures of a live system: they change between any two runs
        "sysinfo" => {
            for k in ["uptime", "freeram", "sharedram", "bufferram", "procs"] {
                s = replace_field(&s, k, "N");
            }
            if let (Some(a), Some(b)) = (s.find("loads=["), s.find("], totalram")) {
                s = format!("{}loads=[L{}", &s[..a], &s[b..]);
            }
        }
        // glibc gives a new thread one word for both parent_tid and
        // child_tid: when the thread has already exited by the time the
        // tracer reads it at the call's exit, CLONE_CHILD_CLEARTID has made it
        // 0. Either reading is true; count the 0 as the id the call returned.
        "clone" | "clone3" => {
            if let Some((_, eq)) = split_return(&s) {
                let ret = s[eq + 2..].split_whitespace().next().unwrap_or("");
                if !ret.is_empty() && ret.bytes().all(|b| b.is_ascii_digit()) {
                    s = s.replace("parent_tid=[0]", &format!("parent_tid=[{ret}]"));
                }
            }
        }
        "getrusage" | "wait4" => {
            s = replace_field(&replace_field(&s, "tv_sec", "S"), "tv_usec", "US");
        }
        "statfs" | "fstatfs" => {
            for k in ["f_bfree", "f_bavail", "f_ffree"] {
                s = replace_field(&s, k, "N");
            }
        }
        _ => {}
    }
    s = replace_ports(&s);
    s = replace_inodes(&s);
    // -v stat structures: a file made anew each run has a new inode and times
    if s.contains("d_ino=") {
        s = replace_field(&s, "d_ino", "N");
    }
    if s.contains("st_ino=") || s.contains("stx_ino=") {
        for k in [
            "st_ino",
            "st_atime",
            "st_atime_nsec",
            "st_mtime",
            "st_mtime_nsec",
            "st_ctime",
            "st_ctime_nsec",
            "stx_ino",
            "tv_sec",
            "tv_nsec",
        ] {
            s = replace_field(&s, k, "N");
        }
        s = strip_date_comments(&s);
    }
    s = replace_field(&replace_field(&s, "si_utime", "T"), "si_stime", "T");
    // the CPU times differ between runs, and with them whether strace adds
    // its seconds comment (only for non-zero times)
    for key in ["si_utime=T", "si_stime=T"] {
        let pat = format!("{key} /* ");
        while let Some(i) = s.find(&pat) {
            match s[i + pat.len()..].find(" */") {
                Some(j) => s.replace_range(i + key.len()..i + pat.len() + j + 3, ""),
                None => break,
            }
        }
    }
    s
}

/// Normalizes one raw line on its own: pid prefixes become `PID `/`[pid
/// PID] `, then [`normalize_body`] (padding collapsed to one space).
pub fn normalize(line: &str) -> String {
    let (pid, style, rest) = split_pid(line);
    let body = normalize_body(&collapse_padding(rest));
    match (pid, style) {
        (Some(_), PidStyle::Bracket) => format!("[pid PID] {body}"),
        (Some(_), _) => format!("PID {body}"),
        _ => body,
    }
}

/// A trace cut to the program's own work and normalized: one stream of
/// lines per task, tasks named `PID` (the first task of the window), then
/// `PID2`, `PID3`, ... in the order clone/fork/vfork returned them.
#[derive(Debug, Default)]
pub struct Window {
    pub streams: BTreeMap<String, Vec<String>>,
    pub bad_padding: Vec<String>,
}

fn is_marker(e: &Entry) -> bool {
    e.syscall() == Some("getppid")
}

/// Cuts `text` from its first `getppid` call (the start marker every family
/// program makes) to the end (the end marker, then exit), and normalizes.
/// `skip(task, body)` drops lines known to depend on timing.
pub fn window(text: &str, skip: &dyn Fn(&str, &str) -> bool) -> Result<Window, String> {
    let entries = parse_trace(text);
    let first = entries
        .iter()
        .position(is_marker)
        .ok_or_else(|| "no getppid() start marker in the trace".to_string())?;
    let last = entries.iter().rposition(is_marker).unwrap();
    if last == first {
        return Err("only one getppid() marker in the trace".into());
    }
    streams(&entries[first..], skip)
}

/// The whole trace as one window: for commands that have no markers.
pub fn whole_trace(text: &str, skip: &dyn Fn(&str, &str) -> bool) -> Result<Window, String> {
    let entries = parse_trace(text);
    if entries.is_empty() {
        return Err("empty trace".into());
    }
    streams(&entries, skip)
}

/// Splits entries into normalized per-task streams (see [`Window`]).
fn streams(entries: &[Entry], skip: &dyn Fn(&str, &str) -> bool) -> Result<Window, String> {
    // name the tasks: the first task of the window is PID (written without
    // a prefix when strace writes to stderr and it is the only task), the
    // tasks it creates PID2, PID3, ... in the order of their creation
    let mut names: HashMap<u64, String> = HashMap::new();
    let mut order = 1;
    for e in entries {
        if matches!(e.syscall(), Some("clone" | "clone3" | "fork" | "vfork")) {
            if let Some((_, eq)) = split_return(&e.body) {
                let ret = e.body[eq + 2..].split_whitespace().next().unwrap_or("");
                if let Ok(child) = ret.parse::<u64>() {
                    names.entry(child).or_insert_with(|| {
                        order += 1;
                        format!("PID{order}")
                    });
                }
            }
        }
    }
    let children: Vec<u64> = names.keys().copied().collect();
    let main = entries
        .iter()
        .filter_map(|e| e.pid.map(u64::from))
        .find(|p| !children.contains(p))
        .or_else(|| {
            // never prefixed (strace on stderr, the child came and went
            // while the parent was off CPU): what getpid told the task
            entries
                .iter()
                .filter(|e| e.pid.is_none() && matches!(e.syscall(), Some("getpid" | "gettid")))
                .find_map(|e| {
                    let (_, eq) = split_return(&e.body)?;
                    e.body[eq + 2..].trim().parse::<u64>().ok()
                })
        });
    if let Some(main) = main {
        names.insert(main, "PID".into());
    }
    let mut w = Window::default();
    let mut unknown = 0;
    for e in entries {
        let task = match e.pid {
            Some(p) => match names.get(&(p as u64)) {
                Some(n) => n.clone(),
                None => {
                    unknown += 1;
                    let n = format!("UNKNOWN_TASK{unknown}");
                    names.insert(p as u64, n.clone());
                    n
                }
            },
            None => "PID".into(),
        };
        let body = normalize_body(&replace_numbers(&e.body, &names));
        if skip(&task, &body) {
            continue;
        }
        w.bad_padding.extend(e.bad_padding.iter().cloned());
        w.streams.entry(task).or_default().push(body);
    }
    Ok(w)
}

/// Compares two windows stream by stream; `Err` holds a readable diff.
/// How many arguments genba said it showed as addresses because their memory
/// could not be read (`genba: N arguments shown as addresses ...`).
pub fn unreadable_reported(stderr: &str) -> usize {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("genba: "))
        .filter(|l| l.contains("arguments shown as addresses"))
        .filter_map(|l| l.split_whitespace().next()?.parse::<usize>().ok())
        .sum()
}

/// The one difference from strace that genba may have by design: an argument
/// whose user memory BPF could not read (a page neither the call's entry nor
/// its exit had faulted in) is printed as its address, as strace prints an
/// unreadable pointer, and counted. Lines of `actual` that equal `expected`
/// with quoted strings replaced by ADDR are accepted; returns how many
/// arguments were accepted that way, which the caller checks against the
/// count genba reported.
pub fn accept_unreadable(expected: &mut Window, actual: &Window) -> usize {
    let quoted = regex_lite_quoted();
    let mut n = 0;
    for (task, e) in expected.streams.iter_mut() {
        let Some(a) = actual.streams.get(task) else {
            continue;
        };
        for (x, y) in e.iter_mut().zip(a.iter()) {
            if x == y || !y.contains("ADDR") {
                continue;
            }
            let (replaced, count) = quoted(x);
            if count > 0 && replaced == *y {
                n += count;
                *x = y.clone();
            } else if count > 1 {
                // some of the strings were read, some not: try each alone
                let mut cur = x.clone();
                let mut k = 0;
                while let Some(next) = replace_one_differing(&cur, y) {
                    cur = next;
                    k += 1;
                    if cur == *y {
                        n += k;
                        *x = y.clone();
                        break;
                    }
                }
            }
        }
    }
    n
}

/// Replaces every `"..."` (with an optional `...` after it) by ADDR.
fn regex_lite_quoted() -> impl Fn(&str) -> (String, usize) {
    |line: &str| {
        let mut out = String::new();
        let mut count = 0;
        let mut rest = line;
        while let Some(start) = rest.find('"') {
            out.push_str(&rest[..start]);
            let Some(len) = quoted_len(&rest[start..]) else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let mut end = start + len;
            if rest[end..].starts_with("...") {
                end += 3;
            }
            out.push_str("ADDR");
            count += 1;
            rest = &rest[end..];
        }
        out.push_str(rest);
        (out, count)
    }
}

/// Length of the quoted string at the start of `s`, quotes included.
fn quoted_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Replaces the first quoted string of `line` that is ADDR at the same place
/// in `target`, if any.
fn replace_one_differing(line: &str, target: &str) -> Option<String> {
    let mut from = 0;
    while let Some(off) = line[from..].find('"') {
        let start = from + off;
        let len = quoted_len(&line[start..])?;
        let mut end = start + len;
        if line[end..].starts_with("...") {
            end += 3;
        }
        if target.get(start..start + 4) == Some("ADDR") && line[..start] == target[..start] {
            return Some(format!("{}ADDR{}", &line[..start], &line[end..]));
        }
        from = end;
    }
    None
}

pub fn compare_windows(
    expected: &Window,
    actual: &Window,
    exp_name: &str,
    act_name: &str,
) -> Result<(), String> {
    let mut report = String::new();
    let tasks: std::collections::BTreeSet<&String> = expected
        .streams
        .keys()
        .chain(actual.streams.keys())
        .collect();
    for task in tasks {
        let empty = Vec::new();
        let e = expected.streams.get(task).unwrap_or(&empty);
        let a = actual.streams.get(task).unwrap_or(&empty);
        if e == a {
            continue;
        }
        let first = e
            .iter()
            .zip(a.iter())
            .position(|(x, y)| x != y)
            .unwrap_or(e.len().min(a.len()));
        let _ = writeln!(
            report,
            "task {task}: {} lines from {exp_name}, {} from {act_name}; first difference at line {}:",
            e.len(),
            a.len(),
            first + 1
        );
        let from = first.saturating_sub(2);
        let to = (first + 6).max(from);
        for i in from..to {
            match (e.get(i), a.get(i)) {
                (Some(x), Some(y)) if x == y => {
                    let _ = writeln!(report, "    {x}");
                }
                (x, y) => {
                    if let Some(x) = x {
                        let _ = writeln!(report, "  - {x}");
                    }
                    if let Some(y) = y {
                        let _ = writeln!(report, "  + {y}");
                    }
                }
            }
        }
        let mismatches = e.iter().zip(a.iter()).filter(|(x, y)| x != y).count();
        let _ = writeln!(report, "  ({mismatches} differing line pairs in this task)");
    }
    if !actual.bad_padding.is_empty() {
        let _ = writeln!(
            report,
            "{act_name} lines not aligned like strace (`=` at column 40):"
        );
        for l in actual.bad_padding.iter().take(5) {
            let _ = writeln!(report, "    {l}");
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(format!("(- {exp_name}, + {act_name})\n{report}"))
    }
}

// ---------------------------------------------------------------------------
// -c summary tables
// ---------------------------------------------------------------------------

/// strace's `-c` header line.
pub const SUMMARY_HEADER: &str = "% time     seconds  usecs/call     calls    errors syscall";
/// `genba report`'s: strace's, with each call's median and 99th percentile.
pub const REPORT_SUMMARY_HEADER: &str =
    "% time     seconds  usecs/call   usecs/p50   usecs/p99     calls    errors syscall";

/// One `-c` row: calls and errors (the time columns are ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub calls: u64,
    pub errors: u64,
}

/// Parses a `-c` table into syscall -> counts (including `total`).
pub fn parse_summary(text: &str) -> Result<BTreeMap<String, Counts>, String> {
    let lines: Vec<&str> = text.lines().collect();
    // strace's header, or one with more columns before `calls` (genba
    // report's percentiles)
    let h = lines
        .iter()
        .position(|l| l.trim_end() == SUMMARY_HEADER)
        .or_else(|| {
            lines.iter().position(|l| {
                l.starts_with("% time") && l.trim_end().ends_with("calls    errors syscall")
            })
        })
        .ok_or_else(|| format!("no summary header in:\n{}", tail(text, 20)))?;
    // "% time" is one column in two words
    let ncols = lines[h].split_whitespace().count() - 1;
    let mut map = BTreeMap::new();
    let mut rules = 0;
    for l in &lines[h + 1..] {
        if l.starts_with("------") {
            rules += 1;
            if rules == 3 {
                break;
            }
            continue;
        }
        if rules == 0 {
            return Err(format!("no rule under the summary header: {l:?}"));
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.is_empty() {
            break;
        }
        // the errors column is empty where there are none
        let n = t.len();
        let (calls, errors) = if n == ncols {
            (t[n - 3], t[n - 2])
        } else if n + 1 == ncols {
            (t[n - 2], "0")
        } else {
            return Err(format!("cannot parse summary row {l:?}"));
        };
        let c = Counts {
            calls: calls.parse().map_err(|_| format!("bad calls in {l:?}"))?,
            errors: errors.parse().map_err(|_| format!("bad errors in {l:?}"))?,
        };
        map.insert(t[t.len() - 1].to_string(), c);
        if rules == 2 {
            break; // the total row
        }
    }
    if !map.contains_key("total") {
        return Err(format!("summary without a total row:\n{}", tail(text, 30)));
    }
    Ok(map)
}

// ---------------------------------------------------------------------------
// Minimal JSON
// ---------------------------------------------------------------------------

/// A JSON value; numbers keep their text.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
}

/// Parses one JSON document (the whole string).
pub fn parse_json(s: &str) -> Result<Json, String> {
    let mut p = JsonParser {
        b: s.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(format!("trailing characters at {}", p.i));
    }
    Ok(v)
}

struct JsonParser<'a> {
    b: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.i))
    }
    fn lit(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err("bad literal")
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.b.get(self.i) {
            None => self.err("unexpected end"),
            Some(b'n') => self.lit("null", Json::Null),
            Some(b't') => self.lit("true", Json::Bool(true)),
            Some(b'f') => self.lit("false", Json::Bool(false)),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(v));
                }
                loop {
                    v.push(self.value()?);
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(v));
                        }
                        _ => return self.err("expected , or ]"),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut m = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return self.err("expected a key");
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return self.err("expected :");
                    }
                    self.i += 1;
                    let v = self.value()?;
                    m.push((k, v));
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => return self.err("expected , or }"),
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                self.i += 1;
                while self.i < self.b.len()
                    && (self.b[self.i].is_ascii_digit()
                        || matches!(self.b[self.i], b'.' | b'e' | b'E' | b'+' | b'-'))
                {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.b[start..self.i])
                    .unwrap()
                    .to_string();
                if t.parse::<f64>().is_err() {
                    return self.err("bad number");
                }
                Ok(Json::Num(t))
            }
            Some(_) => self.err("unexpected character"),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            match self.b.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return String::from_utf8(out).map_err(|e| e.to_string());
                }
                Some(b'\\') => {
                    let c = *self.b.get(self.i + 1).ok_or("unterminated escape")?;
                    self.i += 2;
                    match c {
                        b'"' | b'\\' | b'/' => out.push(c),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => {
                            let hex = self.b.get(self.i..self.i + 4).ok_or("short \\u")?;
                            let code = u32::from_str_radix(
                                std::str::from_utf8(hex).map_err(|e| e.to_string())?,
                                16,
                            )
                            .map_err(|e| e.to_string())?;
                            self.i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            let mut buf = [0; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return self.err("bad escape"),
                    }
                }
                Some(&c) if c < 0x20 => return self.err("control character in string"),
                Some(&c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Self-tests of the harness (no privileges needed)
// ---------------------------------------------------------------------------

/// Runs the harness's own checks; each test binary calls it from one test.
pub fn self_test() {
    // pid prefixes
    assert_eq!(
        split_pid("12345 getppid() = 1"),
        (Some(12345), PidStyle::Bare, "getppid() = 1")
    );
    assert_eq!(
        split_pid("123   getppid() = 1"),
        (Some(123), PidStyle::Bare, "getppid() = 1")
    );
    assert_eq!(
        split_pid("[pid  4242] read(3"),
        (Some(4242), PidStyle::Bracket, "read(3")
    );
    assert_eq!(split_pid("12:00:01 read(3").0, None);
    // padding rule
    let short = format!("11681 {:<34}= 5", "dup(4)");
    assert!(padding_ok(&short), "{short}");
    assert!(!padding_ok("11681 dup(4) = 5"));
    assert!(padding_ok(
        "11681 access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory)"
    ));
    // normalization
    assert_eq!(
        normalize("11588 getppid()                         = 11585"),
        "PID getppid() = PPID"
    );
    assert_eq!(
        normalize("[pid 7] read(3, 0x7fff7637c120, 64) = -1 EINVAL (Invalid argument) <0.000012>"),
        "[pid PID] read(3, ADDR, 64) = -1 EINVAL (Invalid argument)"
    );
    assert_eq!(
        normalize("fcntl(3, F_GETFL) = 0x800 (flags O_RDONLY|O_NONBLOCK)"),
        "fcntl(3, F_GETFL) = 0x800 (flags O_RDONLY|O_NONBLOCK)"
    );
    assert_eq!(normalize("1700000000.123456 close(3) = 0"), "close(3) = 0");
    assert_eq!(normalize("12:00:01.000001 close(3) = 0"), "close(3) = 0");
    let tmp = std::env::temp_dir().join(format!("{TMP_PREFIX}1-2-file"));
    assert_eq!(
        normalize(&format!("getcwd(\"{}\", 4096) = 30", tmp.display())),
        "getcwd(\"TMPDIR\", 4096) = 30"
    );
    assert_eq!(
        normalize("getrandom(\"\\xe4\\\"\\xdb\", 3, GRND_NONBLOCK) = 3"),
        "getrandom(RANDOM, 3, GRND_NONBLOCK) = 3"
    );
    assert_eq!(
        normalize("clock_gettime(CLOCK_MONOTONIC, {tv_sec=788, tv_nsec=277575512}) = 0"),
        "clock_gettime(CLOCK_MONOTONIC, {tv_sec=S, tv_nsec=NS}) = 0"
    );
    assert_eq!(
        normalize("connect(4, {sa_family=AF_INET, sin_port=htons(39571), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0"),
        "connect(4, {sa_family=AF_INET, sin_port=htons(PORT), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0"
    );
    assert_eq!(
        normalize("bind(3, {sin_port=htons(0)}, 16) = 0"),
        "bind(3, {sin_port=htons(0)}, 16) = 0"
    );
    // unfinished/resumed merging and task naming
    let t = "\
100   getppid()                         = 99
100   clone(child_stack=NULL, flags=SIGCHLD, child_tidptr=0x7fcc07653a10) = 101
101   getppid( <unfinished ...>
100   wait4(101,  <unfinished ...>
101   <... getppid resumed>)            = 100
101   exit_group(3)                     = ?
101   +++ exited with 3 +++
100   <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 101
100   getppid()                         = 99
";
    let w = window(t, &|_, _| false).unwrap();
    assert!(w.bad_padding.is_empty(), "{:?}", w.bad_padding);
    assert_eq!(
        w.streams["PID"],
        vec![
            "getppid() = PPID",
            "clone(child_stack=NULL, flags=SIGCHLD, child_tidptr=ADDR) = PID2",
            "wait4(PID2, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = PID2",
            "getppid() = PPID",
        ]
    );
    assert_eq!(
        w.streams["PID2"],
        vec![
            "getppid() = PID",
            "exit_group(3) = ?",
            "+++ exited with 3 +++"
        ]
    );
    // stderr style: no prefix while one task is traced
    let t = "\
getppid()                               = 99
clone(child_stack=NULL, flags=SIGCHLD <unfinished ...>
[pid   101] getppid()                   = 100
[pid   100] <... clone resumed>, child_tidptr=0x7fcc07653a10) = 101
[pid   100] wait4(101,  <unfinished ...>
[pid   101] exit_group(3)               = ?
[pid   101] +++ exited with 3 +++
<... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 101
getppid()                               = 99
";
    let w = window(t, &|_, _| false).unwrap();
    assert!(w.bad_padding.is_empty(), "{:?}", w.bad_padding);
    assert_eq!(
        w.streams["PID"],
        vec![
            "getppid() = PPID",
            "clone(child_stack=NULL, flags=SIGCHLD, child_tidptr=ADDR) = PID2",
            "wait4(PID2, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = PID2",
            "getppid() = PPID",
        ]
    );
    assert_eq!(
        w.streams["PID2"],
        vec![
            "getppid() = PID",
            "exit_group(3) = ?",
            "+++ exited with 3 +++"
        ]
    );
    // summaries
    let s = "\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 25.00    0.000010          10         1           read
 20.00    0.000008           4         2         1 access
------ ----------- ----------- --------- --------- ----------------
100.00    0.000018           6         3         1 total
";
    let m = parse_summary(s).unwrap();
    assert_eq!(
        m["read"],
        Counts {
            calls: 1,
            errors: 0
        }
    );
    assert_eq!(
        m["access"],
        Counts {
            calls: 2,
            errors: 1
        }
    );
    assert_eq!(
        m["total"],
        Counts {
            calls: 3,
            errors: 1
        }
    );
    // json
    let j = parse_json(r#"{"name":"read","pid":1,"args":[{"raw":3,"text":"3"}],"s":"a\"\u0041","n":null,"f":-1.5e3}"#).unwrap();
    assert_eq!(j.get("name").and_then(Json::as_str), Some("read"));
    assert_eq!(j.get("s").and_then(Json::as_str), Some("a\"A"));
    assert!(parse_json("{\"a\":1,}").is_err());
    assert!(parse_json("[1] x").is_err());
}

// ---------------------------------------------------------------------------
// Perfetto recordings
// ---------------------------------------------------------------------------

/// Whether Perfetto's Python bindings are here (scripts/check_perfetto.py
/// reads recordings with them); in CI their absence fails the test.
pub fn perfetto_bindings() -> bool {
    let ok = Command::new("python3")
        .args([
            "-c",
            "import perfetto.protos.perfetto.trace.perfetto_trace_pb2",
        ])
        .status()
        .is_ok_and(|s| s.success());
    prerequisite(
        ok,
        "Perfetto's Python bindings are missing (scripts/deps.sh installs them)",
    )
}

/// scripts/check_perfetto.py's summary of a recording, or its complaint
/// (`truncated`: the file may end inside a packet, or without its end).
pub fn perfetto_check(path: &Path, truncated: bool) -> Result<serde_json::Value, String> {
    let mut c = Command::new("python3");
    c.arg(repo_root().join("scripts/check_perfetto.py"))
        .arg(path);
    if truncated {
        c.arg("--truncated");
    }
    let out = c.output().expect("python3");
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).expect("summary JSON"))
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Checks a recording with scripts/check_perfetto.py when the bindings are
/// here (a test whose point is elsewhere runs without them), panicking
/// with the checker's complaint.
pub fn perfetto_checked(path: &Path) -> Option<serde_json::Value> {
    if !perfetto_bindings() {
        return None;
    }
    Some(perfetto_check(path, false).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}
