//! genba against strace, line by line.
//!
//! Each family program in `tests/programs/` does a fixed sequence of system
//! calls between two `getppid()` markers. We trace it with
//! `strace -f -o A` and with `genba trace -f -o B`, cut both traces from the
//! first marker to the end (second marker, exit_group, `+++ exited`),
//! normalize them (see `common::window`: pids, addresses, temporary paths,
//! values that differ between any two runs) and require equality, task by
//! task. strace's column alignment is checked on genba's raw lines.
//!
//! `-c` tables are compared on their calls and errors columns.
//!
//! Normalized traces of the last run are kept in
//! `target/test-output/strace_diff/` for inspection.

#[macro_use]
mod common;

use common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir() -> PathBuf {
    let d = target_dir().join("test-output/strace_diff");
    fs::create_dir_all(&d).unwrap();
    d
}

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&fs::read(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display())))
        .into_owned()
}

fn save(name: &str, w: &Window) {
    let mut s = String::new();
    for (task, lines) in &w.streams {
        for l in lines {
            s.push_str(task);
            s.push(' ');
            s.push_str(l);
            s.push('\n');
        }
    }
    let _ = fs::write(out_dir().join(name), s);
}

/// Arguments for a family program; `work` is an empty scratch directory.
fn prog_args(prog: &str, work: &Path) -> Vec<String> {
    match prog {
        "file" | "sysmisc" | "offsets" | "locks" | "unix" | "fdnames" => {
            vec![work.display().to_string()]
        }
        _ => vec![],
    }
}

fn assert_dir_empty(d: &Path) {
    let left: Vec<_> = fs::read_dir(d)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.is_empty(),
        "program left files behind in {}: {left:?}",
        d.display()
    );
}

/// Traces `prog` with strace (`-f -o`), returning the trace text.
fn strace_run(prog: &str, extra: &[&str], dir: &TempDir, work: &TempDir, tag: &str) -> String {
    strace_run_args(prog, extra, &[], dir, work, tag)
}

fn strace_run_args(
    prog: &str,
    extra: &[&str],
    extra_args: &[String],
    dir: &TempDir,
    work: &TempDir,
    tag: &str,
) -> String {
    let out = dir.join(&format!("strace{tag}.txt"));
    let r = run(Command::new("strace")
        .arg("-f")
        .args(extra)
        .arg("-o")
        .arg(&out)
        .arg("--")
        .arg(program(prog))
        .args(prog_args(prog, work.path()))
        .args(extra_args));
    assert_eq!(
        r.code(),
        Some(0),
        "strace run of {prog} failed:\n{}",
        r.describe()
    );
    assert_dir_empty(work.path());
    read(&out)
}

/// Traces `prog` with genba (`trace -f -o`), returning the trace text and
/// genba's stderr.
fn genba_run(prog: &str, extra: &[&str], dir: &TempDir, work: &TempDir) -> (String, Output) {
    genba_run_args(prog, extra, &[], dir, work)
}

fn genba_run_args(
    prog: &str,
    extra: &[&str],
    extra_args: &[String],
    dir: &TempDir,
    work: &TempDir,
) -> (String, Output) {
    let out = dir.join("genba.txt");
    let r = run(genba_cmd(["trace", "-f"])
        .args(extra)
        .arg("-o")
        .arg(&out)
        .arg("--")
        .arg(program(prog))
        .args(prog_args(prog, work.path()))
        .args(extra_args));
    assert_eq!(
        r.code(),
        Some(0),
        "genba run of {prog} failed:\n{}",
        r.describe()
    );
    assert_dir_empty(work.path());
    let text = if out.exists() {
        read(&out)
    } else {
        String::new()
    };
    (text, r)
}

fn no_skip(_: &str, _: &str) -> bool {
    false
}

/// pthread_join waits on a futex only when the thread is still running.
fn skip_join_futex(task: &str, body: &str) -> bool {
    task == "PID" && body.starts_with("futex(")
}

fn diff_test(prog: &str, skip: &dyn Fn(&str, &str) -> bool) {
    diff_test_flags(prog, &[], skip)
}

/// The family comparison with the same extra flags given to both tracers.
fn diff_test_flags(prog: &str, flags: &[&str], skip: &dyn Fn(&str, &str) -> bool) {
    diff_test_args(prog, flags, &[], skip)
}

/// The family comparison with extra flags, and extra program arguments
/// after the ones [`prog_args`] gives.
fn diff_test_args(
    prog: &str,
    flags: &[&str],
    extra_args: &[String],
    skip: &dyn Fn(&str, &str) -> bool,
) {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let dir = TempDir::new(prog);
    // one scratch directory for both runs, so paths and their lengths match
    let work = TempDir::new(&format!("{prog}-work"));

    let st = strace_run_args(prog, flags, extra_args, &dir, &work, "");
    let ws = window(&st, skip)
        .unwrap_or_else(|e| panic!("strace trace of {prog}: {e}\n{}", tail(&st, 30)));
    assert!(
        ws.bad_padding.is_empty(),
        "harness bug: strace's own lines fail the alignment check: {:?}",
        ws.bad_padding
    );
    let tag = if flags.is_empty() {
        String::new()
    } else {
        flags.join("")
    };
    save(&format!("{prog}{tag}.strace.txt"), &ws);

    let (gt, gout) = genba_run_args(prog, flags, extra_args, &dir, &work);
    let wg = window(&gt, skip).unwrap_or_else(|e| {
        panic!(
            "genba trace of {prog}: {e}\n--- genba output (tail) ---\n{}\n--- genba stderr ---\n{}",
            tail(&gt, 30),
            gout.stderr
        )
    });
    save(&format!("{prog}{tag}.genba.txt"), &wg);

    let mut ws = ws;
    let accepted = accept_unreadable(&mut ws, &wg);
    let reported = unreadable_reported(&gout.stderr);
    assert!(
        accepted <= reported,
        "genba printed {accepted} arguments as addresses where strace read them, but reported only {reported}\n{}",
        gout.stderr
    );
    if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
        panic!(
            "genba's trace of {prog} differs from strace's\n{diff}\n(normalized traces in {}; genba stderr: {})",
            out_dir().display(),
            gout.stderr.trim()
        );
    }
}

/// The same comparison with the trace on stderr (no -o): strace then writes
/// `[pid N] ` prefixes only while more than one task is traced. (`-q`: strace
/// would otherwise print `Process N attached` in the middle of a line.)
fn diff_test_stderr(prog: &str, skip: &dyn Fn(&str, &str) -> bool) {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let work = TempDir::new(&format!("{prog}-stderr-work"));
    let args = prog_args(prog, work.path());
    let s = run(Command::new("strace")
        .args(["-f", "-q", "--"])
        .arg(program(prog))
        .args(&args));
    assert_eq!(
        s.code(),
        Some(0),
        "strace run of {prog} failed:\n{}",
        s.describe()
    );
    let ws = window(&s.stderr, skip).unwrap_or_else(|e| panic!("strace trace of {prog}: {e}"));
    assert!(
        ws.bad_padding.is_empty(),
        "harness bug: {:?}",
        ws.bad_padding
    );
    save(&format!("{prog}.stderr.strace.txt"), &ws);

    let g = run(genba_cmd(["trace", "-f", "-q", "--"])
        .arg(program(prog))
        .args(&args));
    assert_eq!(
        g.code(),
        Some(0),
        "genba run of {prog} failed:\n{}",
        g.describe()
    );
    let lines: Vec<&str> = g
        .stderr
        .lines()
        .filter(|l| events_lost(l).is_none())
        .collect();
    let gt = lines.join("\n");
    let wg = window(&gt, skip)
        .unwrap_or_else(|e| panic!("genba trace of {prog}: {e}\n{}", tail(&gt, 30)));
    save(&format!("{prog}.stderr.genba.txt"), &wg);
    if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
        panic!("genba's stderr trace of {prog} differs from strace's\n{diff}");
    }
    // the prefixes themselves: none before the fork, `[pid N] ` after it
    let prefixed = |t: &str| {
        t.lines()
            .filter(|l| split_pid(l).1 == PidStyle::Bracket)
            .count()
            > 0
    };
    assert_eq!(
        prefixed(&s.stderr),
        prefixed(&gt),
        "[pid N] prefixes: strace {} genba {}",
        prefixed(&s.stderr),
        prefixed(&gt)
    );
    let bare = |t: &str| {
        t.lines()
            .filter(|l| split_pid(l).1 == PidStyle::Bare)
            .count()
    };
    assert_eq!(bare(&gt), 0, "genba used `N ` prefixes on stderr");
}

#[test]
fn diff_process_stderr() {
    diff_test_stderr("process", &no_skip);
}

macro_rules! diff_tests {
    ($($name:ident => $prog:literal, $skip:expr;)*) => {
        $(
            #[test]
            fn $name() {
                diff_test($prog, &$skip);
            }
        )*
    };
}

diff_tests! {
    diff_file => "file", no_skip;
    diff_desc => "desc", no_skip;
    diff_memory => "memory", no_skip;
    diff_process => "process", no_skip;
    diff_signal => "signal", no_skip;
    diff_network => "network", no_skip;
    diff_sysmisc => "sysmisc", no_skip;
    diff_misc => "misc", no_skip;
    diff_time => "time", no_skip;
    diff_poll => "poll", no_skip;
    diff_futex => "futex", no_skip;
    diff_threads => "threads", skip_join_futex;
    diff_offsets => "offsets", no_skip;
    diff_locks => "locks", no_skip;
    diff_unix => "unix", no_skip;
    diff_ioctls => "ioctls", no_skip;
    diff_netlink => "netlink", no_skip;
}

/// The programs are deterministic and the normalization is sound: two strace
/// runs of each program compare equal. (If this fails, the harness or a
/// program is at fault, not genba.)
#[test]
fn strace_twice_is_identical() {
    require_strace!();
    let _serial = serial();
    let mut failures = String::new();
    for (prog, skip) in FAMILIES {
        let dir = TempDir::new(prog);
        let work = TempDir::new(&format!("{prog}-work"));
        let a = window(&strace_run(prog, &[], &dir, &work, "1"), skip).unwrap();
        let b = window(&strace_run(prog, &[], &dir, &work, "2"), skip).unwrap();
        assert!(
            a.bad_padding.is_empty() && b.bad_padding.is_empty(),
            "{:?}",
            a.bad_padding
        );
        if let Err(d) = compare_windows(&a, &b, "strace run 1", "strace run 2") {
            failures.push_str(&format!("{prog}:\n{d}\n"));
        }
    }
    assert!(
        failures.is_empty(),
        "strace is not reproducible on:\n{failures}"
    );
}

type Skip = fn(&str, &str) -> bool;

const FAMILIES: &[(&str, Skip)] = &[
    ("file", no_skip),
    ("desc", no_skip),
    ("memory", no_skip),
    ("process", no_skip),
    ("signal", no_skip),
    ("network", no_skip),
    ("time", no_skip),
    ("poll", no_skip),
    ("futex", no_skip),
    ("threads", skip_join_futex),
    ("offsets", no_skip),
    ("locks", no_skip),
    ("unix", no_skip),
    ("netlink", no_skip),
];

#[test]
fn harness_self_test() {
    common::self_test();
}

// ---------------------------------------------------------------------------
// -c
// ---------------------------------------------------------------------------

fn summary_test(prog: &str) {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let dir = TempDir::new(&format!("{prog}-c"));
    let work = TempDir::new(&format!("{prog}-c-work"));
    let st = strace_run(prog, &["-c"], &dir, &work, "");
    let expected = parse_summary(&st).unwrap_or_else(|e| panic!("strace -c of {prog}: {e}"));
    let (gt, gout) = genba_run(prog, &["-c"], &dir, &work);
    let actual = parse_summary(&gt).unwrap_or_else(|e| {
        panic!(
            "genba -c of {prog}: {e}\n--- genba stderr ---\n{}",
            gout.stderr
        )
    });
    if expected != actual {
        let mut report =
            String::from("syscall             strace calls/errors   genba calls/errors\n");
        let names: std::collections::BTreeSet<&String> =
            expected.keys().chain(actual.keys()).collect();
        for n in names {
            let e = expected.get(n);
            let a = actual.get(n);
            if e != a {
                let f = |c: Option<&Counts>| {
                    c.map_or("-".to_string(), |c| format!("{}/{}", c.calls, c.errors))
                };
                report.push_str(&format!("{n:<20}{:>20}   {:>18}\n", f(e), f(a)));
            }
        }
        panic!("genba -c table of {prog} differs from strace -c (only differing rows):\n{report}\n--- genba table ---\n{gt}");
    }
}

macro_rules! summary_tests {
    ($($name:ident => $prog:literal;)*) => {
        $(
            #[test]
            fn $name() {
                summary_test($prog);
            }
        )*
    };
}

// threads is left out: its futex counts depend on timing.
summary_tests! {
    summary_file => "file";
    summary_desc => "desc";
    summary_memory => "memory";
    summary_process => "process";
    summary_signal => "signal";
    summary_network => "network";
    summary_time => "time";
    summary_poll => "poll";
    summary_futex => "futex";
    summary_exitcode => "exitcode";
}

/// Everyday single-process commands, traced whole (start-up included), line
/// for line against strace.
fn common_command(name: &str, argv: &[&str]) {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let dir = TempDir::new(name);
    let s_out = dir.join("strace.txt");
    let g_out = dir.join("genba.txt");
    // Python's string hashing is seeded at random: dict sizes, and with
    // them its allocations (an extra 1 MiB mmap in some runs), would differ
    // between the two runs
    let st = run(Command::new("strace")
        .env("PYTHONHASHSEED", "0")
        .arg("-o")
        .arg(&s_out)
        .arg("--")
        .args(argv));
    assert_eq!(st.code(), Some(0), "{}", st.describe());
    let gout = run(genba_cmd(["trace", "-o"])
        .env("PYTHONHASHSEED", "0")
        .arg(&g_out)
        .arg("--")
        .args(argv));
    assert_eq!(gout.code(), Some(0), "{}", gout.describe());
    let mut ws = whole_trace(&read(&s_out), &no_skip).expect("strace trace");
    let mut wg = whole_trace(&read(&g_out), &no_skip).expect("genba trace");
    // whole programs put heaps at short (7-8 digit) addresses that move
    // with ASLR; the family tests keep those digits to check flag values
    for w in [&mut ws, &mut wg] {
        for lines in w.streams.values_mut() {
            for l in lines.iter_mut() {
                *l = short_addrs(l);
            }
        }
    }
    save(&format!("cmd-{name}.strace.txt"), &ws);
    save(&format!("cmd-{name}.genba.txt"), &wg);
    let accepted = accept_unreadable(&mut ws, &wg);
    assert!(
        accepted <= unreadable_reported(&gout.stderr),
        "{}",
        gout.stderr
    );
    if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
        panic!("genba's trace of {argv:?} differs from strace's\n{diff}");
    }
}

#[test]
fn command_cat() {
    common_command("cat", &["cat", "/etc/hostname"]);
}

#[test]
fn command_ls() {
    common_command("ls", &["ls", "-la", "/usr/include/linux/netfilter"]);
}

#[test]
fn command_python() {
    common_command("python", &["/usr/bin/python3", "-S", "-c", "print(1)"]);
}

#[test]
fn command_tar() {
    common_command(
        "tar",
        &["tar", "cf", "/dev/null", "/usr/include/linux/netfilter"],
    );
}

/// Replaces hex numbers of 7 or more digits by ADDR.
fn short_addrs(l: &str) -> String {
    let mut out = String::new();
    let mut rest = l;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i]);
        let n = rest[i + 2..]
            .bytes()
            .take_while(u8::is_ascii_hexdigit)
            .count();
        if n >= 7 {
            out.push_str("ADDR");
        } else {
            out.push_str(&rest[i..i + 2 + n]);
        }
        rest = &rest[i + 2 + n..];
    }
    out.push_str(rest);
    out
}

/// `-y`: descriptor paths, followed through open, dup, fork and close.
#[test]
fn diff_file_decode_fds() {
    diff_test_flags("file", &["-y"], &no_skip);
}

#[test]
fn diff_desc_decode_fds() {
    diff_test_flags("desc", &["-y"], &no_skip);
}

#[test]
fn diff_process_decode_fds() {
    diff_test_flags("process", &["-y"], &no_skip);
}

/// `-y` inside poll's array (`{fd=3</dev/null>, events=POLLIN}`).
#[test]
fn diff_poll_decode_fds() {
    diff_test_flags("poll", &["-y"], &no_skip);
}

#[test]
fn diff_unix_decode_fds() {
    diff_test_flags("unix", &["-y"], &no_skip);
}

/// -y names descriptors whose making calls are traced but not shown (as
/// strace reads /proc while the call is stopped, genba follows them): a
/// path escaped as strace escapes it, a deleted file, anonymous inodes.
#[test]
fn diff_fd_names_of_calls_not_shown() {
    diff_test_flags(
        "fdnames",
        &["-y", "-e", "trace=getppid,fsync,close"],
        &no_skip,
    );
}

/// A directory of `n` files with long names (about 96-byte entries), so that
/// getdents64 fills glibc's 32 KiB buffer several times over. The number in
/// a name follows a letter: the window's normalizer renames a task's id
/// wherever it stands as a word, and a fresh CI container's small pids met
/// names ending in `-612` (the two tracers' runs have different pids).
fn big_directory(n: usize) -> TempDir {
    let d = TempDir::new("dents-dir");
    for i in 0..n {
        let name = format!("file-with-a-rather-long-name-to-fill-the-getdents-buffer-quickly-n{i}");
        fs::write(d.join(&name), b"").unwrap();
    }
    d
}

/// getdents64 on a directory of 2000 entries: the count of each 32 KiB
/// buffer, and of a 512 KiB one (more than a record holds: counted in BPF).
#[test]
fn diff_dents() {
    let d = big_directory(2000);
    diff_test_args("dents", &[], &[d.path().display().to_string()], &no_skip);
}

/// With -v every entry of every 32 KiB buffer, as strace prints them.
#[test]
fn diff_dents_verbose() {
    let d = big_directory(2000);
    let args = [d.path().display().to_string(), "small".to_string()];
    diff_test_args("dents", &["-v"], &args, &no_skip);
}

/// Options that change how arguments are printed, against strace's output.
#[test]
fn diff_file_verbose() {
    diff_test_flags("file", &["-v"], &no_skip);
}

#[test]
fn diff_locks_xlat_verbose() {
    diff_test_flags("locks", &["-X", "verbose"], &no_skip);
}

#[test]
fn diff_locks_xlat_raw() {
    diff_test_flags("locks", &["-X", "raw"], &no_skip);
}

#[test]
fn diff_memory_xlat_raw() {
    diff_test_flags("memory", &["-X", "raw"], &no_skip);
}

#[test]
fn diff_memory_xlat_verbose() {
    diff_test_flags("memory", &["-X", "verbose"], &no_skip);
}

#[test]
fn diff_desc_strsize() {
    diff_test_flags("desc", &["-s", "4"], &no_skip);
}

/// `-s` applies to readlink's result (a counted buffer, not a path).
#[test]
fn diff_file_strsize() {
    diff_test_flags("file", &["-s", "4"], &no_skip);
}

#[test]
fn diff_network_hex() {
    diff_test_flags("network", &["-xx"], &no_skip);
}

/// execve of string literals from forked children, 20 rounds (the failure
/// was intermittent), then posix_spawn of literals and an execve of a
/// literal path that fails: the path and argv as strace prints them. Not
/// relaxed by `accept_unreadable`: a child's literals are exactly what a
/// reader of the trace wants to see, and the exec itself says what they were.
#[test]
fn diff_exec_literals() {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let dir = TempDir::new("exec");
    let work = TempDir::new("exec-work");
    let flags = ["-e", "trace=execve,getppid"];
    let st = strace_run("exec", &flags, &dir, &work, "");
    let ws = window(&st, &no_skip).unwrap_or_else(|e| panic!("strace trace of exec: {e}"));
    save("exec.strace.txt", &ws);
    let (gt, gout) = genba_run("exec", &flags, &dir, &work);
    let wg = window(&gt, &no_skip).unwrap_or_else(|e| {
        panic!(
            "genba trace of exec: {e}\n{}\n{}",
            tail(&gt, 30),
            gout.stderr
        )
    });
    save("exec.genba.txt", &wg);
    let execs: Vec<&str> = gt.lines().filter(|l| l.contains("execve(")).collect();
    // the program itself, 20 forks, posix_spawn, the failed one
    assert_eq!(execs.len(), 23, "{gt}");
    let as_addr: Vec<&&str> = execs
        .iter()
        .filter(|l| l.contains("execve(0x") || l.contains("[0x"))
        .collect();
    assert!(
        as_addr.is_empty(),
        "execve shown with addresses for its strings:\n{}",
        as_addr.iter().map(|l| format!("{l}\n")).collect::<String>()
    );
    if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
        panic!("genba's trace of exec differs from strace's\n{diff}");
    }
}

/// A process killed by a signal it neither handles nor blocks (the kernel
/// kills it without delivering the signal): strace shows the signal, then
/// `+++ killed by SIG... +++`, with no -q, -q and -qq alike.
#[test]
fn diff_fatal_signals() {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let trace_lines = |stderr: &str| -> String {
        stderr
            .lines()
            .filter(|l| !l.starts_with("genba: ") && !l.starts_with("strace: "))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let mut failures = String::new();
    for how in ["pipe", "term", "abort"] {
        for quiet in [&[][..], &["-q"][..], &["-qq"][..]] {
            let s = run(Command::new("strace")
                .args(quiet)
                .arg("--")
                .arg(program("fatal"))
                .arg(how));
            let g = run(genba_cmd(["trace"])
                .args(quiet)
                .arg("--")
                .arg(program("fatal"))
                .arg(how));
            let st = trace_lines(&s.stderr);
            let gt = trace_lines(&g.stderr);
            let ws = window(&st, &no_skip)
                .unwrap_or_else(|e| panic!("strace trace of fatal {how}: {e}\n{st}"));
            let wg = window(&gt, &no_skip)
                .unwrap_or_else(|e| panic!("genba trace of fatal {how}: {e}\n{gt}"));
            assert!(
                st.contains("+++ killed by SIG"),
                "harness: strace {quiet:?} shows no kill of fatal {how}:\n{st}"
            );
            if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
                failures.push_str(&format!("fatal {how} {quiet:?}:\n{diff}\n"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// `-P`: only the calls that reach /dev/full (by name; by a descriptor,
/// also one inherited, one in poll's or select's sets, mmap's; by a symlink
/// that resolves into it), line for line against strace, with two paths
/// given, one of them a symlink (strace's "resolved into" message too).
#[test]
fn diff_trace_path() {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let dir = TempDir::new("pathtrace");
    let work = TempDir::new("pathtrace-work");
    let link = work.join("full-link");
    let prog = program("pathtrace");
    // the descriptor 9 the program inherits, opened by the shell that
    // execs the tracer
    let traced = |tracer: &str, out: &Path| {
        run(Command::new("sh")
            .arg("-c")
            .arg(format!(
                "exec {tracer} -P /dev/full -P \"$1\" -o \"$2\" -- \"$3\" \"$4\" 9>>/dev/full"
            ))
            .arg("sh")
            .arg(&link)
            .arg(out)
            .arg(&prog)
            .arg(work.path()))
    };
    let s_out = dir.join("strace.txt");
    let st = traced("strace", &s_out);
    assert_eq!(st.code(), Some(0), "{}", st.describe());
    let _ = std::fs::remove_file(&link);
    let g_out = dir.join("genba.txt");
    let genba = format!("{} trace", genba().display());
    let gt = traced(&genba, &g_out);
    assert_eq!(gt.code(), Some(0), "{}", gt.describe());
    let ws = whole_trace(&read(&s_out), &no_skip).expect("strace trace");
    let wg = whole_trace(&read(&g_out), &no_skip).expect("genba trace");
    save("pathtrace.strace.txt", &ws);
    save("pathtrace.genba.txt", &wg);
    if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
        panic!(
            "genba -P differs from strace -P\n{diff}\ngenba stderr: {}",
            gt.stderr
        );
    }
    // the symlink given did not exist yet: nothing to resolve; /dev/full
    // is its own real path. Neither says anything.
    assert!(!gt.stderr.contains("resolved into"), "{}", gt.stderr);
    // a path that resolves elsewhere is said, as strace says it
    let rel = run(genba_cmd(["trace", "-P", "../dev/full", "--", "true"]).current_dir("/tmp"));
    assert_eq!(rel.code(), Some(0), "{}", rel.describe());
    assert!(
        rel.stderr
            .contains("genba: Requested path \"../dev/full\" resolved into \"/dev/full\""),
        "{}",
        rel.stderr
    );
}

/// `--decode-fds=path,dev,pidfd` and `-e decode-fds=dev`: a device's type
/// and numbers beside its path (`3</dev/full<char 1:7>>`, and only for
/// devices with `dev` alone), a pidfd's process, line for line against
/// strace, the whole run.
#[test]
fn diff_decode_fds_sets() {
    require_bpf!();
    require_strace!();
    let _serial = serial();
    let prog = program("pathtrace");
    for flags in [
        &["--decode-fds=path,dev,pidfd"][..],
        &["-e", "decode-fds=dev"][..],
        &["--decode-fds=pidfd"][..],
    ] {
        let dir = TempDir::new("decode-fds");
        let work = TempDir::new("decode-fds-work");
        let s_out = dir.join("strace.txt");
        let g_out = dir.join("genba.txt");
        let set = [
            "-e",
            "trace=openat,close,dup2,dup3,write,newfstatat,pidfd_open",
        ];
        let st = run(Command::new("strace")
            .args(flags)
            .args(set)
            .arg("-o")
            .arg(&s_out)
            .arg("--")
            .arg(&prog)
            .arg(work.path()));
        assert_eq!(st.code(), Some(0), "{}", st.describe());
        let _ = std::fs::remove_file(work.join("full-link"));
        let gt = run(genba_cmd(["trace"])
            .args(flags)
            .args(set)
            .arg("-o")
            .arg(&g_out)
            .arg("--")
            .arg(&prog)
            .arg(work.path()));
        assert_eq!(gt.code(), Some(0), "{}", gt.describe());
        let mut ws = whole_trace(&read(&s_out), &no_skip).expect("strace trace");
        let mut wg = whole_trace(&read(&g_out), &no_skip).expect("genba trace");
        // the program's own pid (pidfd_open's argument) differs by run
        for w in [&mut ws, &mut wg] {
            let pid = w
                .streams
                .values()
                .flatten()
                .find_map(|l| l.strip_prefix("pidfd_open(")?.split(',').next())
                .map(str::to_string);
            if let Some(pid) = pid {
                for lines in w.streams.values_mut() {
                    for l in lines.iter_mut() {
                        *l = l.replace(&pid, "PID");
                    }
                }
            }
        }
        if let Err(diff) = compare_windows(&ws, &wg, "strace", "genba") {
            panic!("{flags:?}: genba differs from strace\n{diff}");
        }
    }
}

/// `-e inject=` and `-e fault=` (a seccomp listener in genba, ptrace in
/// strace): errors counted with when=, return values of calls that do not
/// run (uname's buffer left as the program gave it), a signal the kernel
/// sends as a call enters (SI_KERNEL, as strace's), a delayed call, and
/// fault='s ENOSYS and --fault='s given error: both tracers print the same lines, and the program
/// (which checks every injected result) exits 0 under both.
#[test]
fn diff_inject() {
    diff_test_flags(
        "inject",
        &[
            "-e",
            "inject=chdir:error=ENOENT:when=2+2",
            "-e",
            "inject=getpid:retval=42",
            "-e",
            "inject=uname:retval=0",
            "--inject=getuid:signal=SIGUSR1",
            "-e",
            "inject=sched_yield:delay_enter=20ms",
            "-e",
            "fault=umask",
            "--fault=getgid:error=EPERM",
        ],
        &no_skip,
    );
}

/// `-e read=` and `-e write=` (`--read=`, `--write=`): strace's hex dumps of
/// the data read and written, for buffers and iovecs, after each line.
#[test]
fn diff_desc_dumps() {
    diff_test_flags("desc", &["-e", "read=all", "--write=all"], &no_skip);
}

/// `-x`, `-xx` and `--strings-in-hex=non-ascii-chars`: strings with
/// control, high and escaped bytes quoted as strace quotes them.
#[test]
fn diff_strings_hex() {
    for flags in [
        &["-x"][..],
        &["-xx"],
        &["--strings-in-hex=non-ascii-chars"],
        &["--strings-in-hex=none"],
    ] {
        diff_test_flags("strings", flags, &no_skip);
    }
}
