//! The command line: exit statuses, error messages, output options.

#[macro_use]
mod common;

use common::*;
use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn read(p: &Path) -> String {
    String::from_utf8_lossy(&fs::read(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display())))
        .into_owned()
}

/// An error run: non-zero status, exactly one message line on stderr (the
/// `events lost` line aside), and no panic or backtrace.
fn assert_one_line_error(out: &Output, what: &str) {
    assert!(
        out.code().is_some_and(|c| c != 0),
        "{what}: expected a non-zero exit status\n{}",
        out.describe()
    );
    let msgs = out.stderr_messages();
    assert_eq!(
        msgs.len(),
        1,
        "{what}: expected a one-line error message\n{}",
        out.describe()
    );
    for bad in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(
            !out.stderr.contains(bad),
            "{what}: stderr mentions {bad:?}\n{}",
            out.describe()
        );
    }
}

/// The syscall lines of a text trace: (pid, body).
fn calls(text: &str) -> Vec<(Option<u32>, String)> {
    parse_trace(text)
        .into_iter()
        .filter(|e| e.syscall().is_some())
        .map(|e| (e.pid, e.body))
        .collect()
}

fn names(text: &str) -> Vec<String> {
    calls(text)
        .iter()
        .filter_map(|(_, b)| syscall_name(b).map(str::to_string))
        .collect()
}

fn is_failure(body: &str) -> bool {
    split_return(body).is_some_and(|(_, eq)| body[eq..].starts_with("= -1 E"))
}

#[test]
fn harness_self_test() {
    common::self_test();
}

// ---------------------------------------------------------------------------
// Exit statuses and errors
// ---------------------------------------------------------------------------

#[test]
fn exit_status_is_propagated() {
    require_bpf!();
    let _s = serial();
    for code in ["0", "7", "255"] {
        let out = run(genba_cmd(["trace", "-o", "/dev/null", "--"])
            .arg(program("exitcode"))
            .arg(code));
        assert_eq!(
            out.code(),
            Some(code.parse().unwrap()),
            "exitcode {code}\n{}",
            out.describe()
        );
    }
}

#[test]
fn killed_by_signal_gives_128_plus_signal() {
    require_bpf!();
    let _s = serial();
    let out = run(genba_cmd(["trace", "-o", "/dev/null", "--"]).arg(program("killself")));
    // 143 as a shell sees it: an exit status of 143, or genba killing
    // itself with the same signal as strace does
    use std::os::unix::process::ExitStatusExt;
    assert!(
        out.code() == Some(143) || out.status.signal() == Some(15),
        "expected status 143 (SIGTERM)\n{}",
        out.describe()
    );
}

#[test]
fn no_such_command_exits_127_with_one_line() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd([
        "trace",
        "-o",
        "/dev/null",
        "--",
        "/no/such/command-genba",
    ]));
    assert_eq!(out.code(), Some(127), "{}", out.describe());
    assert_one_line_error(&out, "no such command");
    assert!(
        out.stderr.contains("/no/such/command-genba"),
        "the message should name the command\n{}",
        out.describe()
    );
}

#[test]
fn unknown_syscall_is_a_one_line_error() {
    let out = run(&mut genba_cmd([
        "trace",
        "-e",
        "trace=nosuchcall",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "-e trace=nosuchcall");
    assert!(
        out.stderr.contains("nosuchcall"),
        "the message should name the bad syscall\n{}",
        out.describe()
    );
}

#[test]
fn misspelled_syscall_gets_a_suggestion() {
    let out = run(&mut genba_cmd([
        "trace",
        "-e",
        "trace=opnat",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "-e trace=opnat");
    assert!(
        out.stderr.contains("openat"),
        "expected a suggestion of `openat`\n{}",
        out.describe()
    );
}

/// `-e inject=` expressions strace refuses, and what genba cannot do
/// (delay_exit=, injecting into a process it did not start), are one-line
/// errors before anything runs.
#[test]
fn bad_inject_is_a_one_line_error() {
    for (args, says) in [
        (
            &["-e", "inject=chdir"][..],
            "invalid inject argument 'chdir'",
        ),
        (
            &["-e", "inject=chdir:error=NOPE"],
            "invalid inject argument",
        ),
        (
            &["-e", "inject=chdir:when=0:error=EIO"],
            "invalid inject argument",
        ),
        (
            &["--inject=chdir:retval=1:error=EIO"],
            "invalid inject argument",
        ),
        (&["-e", "fault=chdir:retval=1"], "invalid fault argument"),
        (
            &["-e", "inject=chdir:delay_exit=10"],
            "delay_exit= is not supported",
        ),
        (
            &["-e", "inject=chdir:error=EIO", "-p", "1"],
            "needs a COMMAND",
        ),
    ] {
        let mut cmd = genba_cmd(["trace", "-o", "/dev/null"]);
        cmd.args(args);
        if !args.contains(&"-p") {
            cmd.args(["--", "/bin/true"]);
        }
        let out = run(&mut cmd);
        assert_one_line_error(&out, &args.join(" "));
        assert!(
            out.stderr.contains(says),
            "{args:?}: expected `{says}`\n{}",
            out.describe()
        );
    }
}

/// `-e inject=...:poke_enter=`: genba writes the program's memory before
/// the call runs (the trace shows the bytes the call got, and the program
/// sees them after); `poke_exit=` as the call returns, where the kernel lets
/// a BPF program write user memory, and a one-line error where it does not
/// (a kernel in lockdown refuses bpf_probe_write_user).
#[test]
fn poke_writes_the_programs_memory() {
    require_bpf!();
    let _s = serial();
    let prog = program("poke");
    let out = run(genba_cmd(["trace", "-e", "trace=write"])
        .arg("-e")
        .arg("inject=write:poke_enter=@arg2=776f726c64:when=1")
        .arg("--")
        .arg(&prog));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr
            .lines()
            .any(|l| l.starts_with("write(3, \"world\", 5)") && l.ends_with("= 5 (INJECTED: args)")),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.starts_with("out=world cwd="),
        "{}",
        out.describe()
    );

    let out = run(genba_cmd(["trace", "-e", "trace=getcwd"])
        .arg("-e")
        .arg("inject=getcwd:poke_exit=@arg1=41424344")
        .arg("--")
        .arg(&prog));
    if out.code() == Some(0) {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.starts_with("getcwd(\"ABCD") && l.ends_with("(INJECTED: args)")),
            "{}",
            out.describe()
        );
        assert!(out.stdout.contains("cwd=ABCD"), "{}", out.describe());
    } else {
        assert_one_line_error(&out, "poke_exit on a kernel that refuses it");
        assert!(
            out.stderr.contains("bpf_probe_write_user"),
            "{}",
            out.describe()
        );
        assert!(out.stdout.is_empty(), "the program ran: {}", out.describe());
    }
}

/// strace tampers only with the calls it traces: `-e trace=getpid -e
/// inject=all:error=ENOSYS` leaves every other call alone (the program runs
/// as usual).
#[test]
fn inject_acts_on_traced_calls_only() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd([
        "trace",
        "-e",
        "trace=getpid",
        "-e",
        "inject=all:error=ENOSYS",
        "--",
        "/bin/echo",
        "still",
        "here",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(out.stdout, "still here\n", "{}", out.describe());
}

/// `-e inject=`: a process that carries the seccomp filter and outlives
/// genba (a background job of the program) still gets its named calls run
/// after genba has ended: genba leaves a process answering them, not the
/// kernel's ENOSYS.
#[test]
fn injected_calls_run_after_genba_ends() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("inject-outlive");
    let out = dir.join("copy");
    let script = format!(
        "(sleep 1; cat /etc/hostname > {}) & echo started",
        out.display()
    );
    let g = run_timeout(
        genba_cmd([
            "trace",
            "-o",
            "/dev/null",
            "-e",
            "inject=openat:error=EIO:when=60000",
            "--",
            "sh",
            "-c",
            &script,
        ])
        .stdout(Stdio::null()),
        Duration::from_secs(60),
    );
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    let want = fs::read_to_string("/etc/hostname").unwrap();
    let start = Instant::now();
    while fs::read_to_string(&out).unwrap_or_default() != want {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the background job's cat did not copy /etc/hostname after genba ended: {:?}",
            fs::read_to_string(&out)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn attach_to_missing_pid_is_a_one_line_error() {
    require_bpf!();
    let _s = serial();
    let out = run_timeout(
        &mut genba_cmd(["trace", "-o", "/dev/null", "-p", "999999999"]),
        Duration::from_secs(30),
    );
    assert_one_line_error(&out, "-p 999999999");
}

#[test]
fn unwritable_output_is_a_one_line_error() {
    let out = run(&mut genba_cmd([
        "trace",
        "-o",
        "/nonexistent/dir/x",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "-o /nonexistent/dir/x");
    assert!(!Path::new("/nonexistent/dir/x").exists());
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

#[test]
fn trace_goes_to_stderr_by_default() {
    require_bpf!();
    let _s = serial();
    let out = run(genba_cmd(["trace", "--"]).arg(program("exitcode")).arg("3"));
    assert_eq!(out.code(), Some(3), "{}", out.describe());
    assert!(
        out.stdout.is_empty(),
        "nothing should go to stdout\n{}",
        out.describe()
    );
    assert!(
        out.stderr.contains("exit_group(3)"),
        "the trace should be on stderr\n{}",
        out.describe()
    );
    let last = out.stderr.lines().last().unwrap_or("");
    assert!(
        events_lost(last).is_some(),
        "stderr should end with `genba: N events lost`\n{}",
        out.describe()
    );
}

#[test]
fn events_lost_line_on_stderr() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("lost");
    let f = dir.join("t.txt");
    let out = run(genba_cmd(["trace", "-f", "-o"])
        .arg(&f)
        .arg("--")
        .arg(program("desc")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let lost: Vec<u64> = out.stderr.lines().filter_map(events_lost).collect();
    assert_eq!(
        lost.len(),
        1,
        "expected one `genba: N events lost` line\n{}",
        out.describe()
    );
    assert_eq!(
        out.stderr_messages(),
        Vec::<&str>::new(),
        "nothing else on stderr with -o\n{}",
        out.describe()
    );
    assert!(
        !read(&f).contains("events lost"),
        "the events-lost line belongs on stderr, not in the trace"
    );
}

#[test]
fn burst_loses_no_events() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("burst");
    let f = dir.join("t.txt");
    let out = run_timeout(
        genba_cmd(["trace", "-f", "-o"])
            .arg(&f)
            .arg("--")
            .arg(program("burst")),
        Duration::from_secs(300),
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr
            .lines()
            .any(|l| l.trim() == "genba: 0 events lost"),
        "expected `genba: 0 events lost`\n{}",
        out.describe()
    );
    let text = read(&f);
    let n = text
        .lines()
        .filter(|l| {
            let (_, _, body) = split_pid(l);
            body.starts_with("getppid()")
        })
        .count();
    assert_eq!(n, 1_000_000, "burst makes exactly 1000000 getppid calls");
}

#[test]
fn jsonl_lines_are_objects_with_the_documented_fields() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("jsonl");
    let f = dir.join("t.jsonl");
    let out = run(genba_cmd(["trace", "-f", "--format", "jsonl", "-o"])
        .arg(&f)
        .arg("--")
        .arg(program("getppid_loop"))
        .arg("10"));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = read(&f);
    assert!(!text.trim().is_empty(), "empty jsonl output");
    let mut getppid = Vec::new();
    let mut syscalls = 0;
    let mut saw_end = false;
    for (i, line) in text.lines().enumerate() {
        let v =
            parse_json(line).unwrap_or_else(|e| panic!("line {}: not JSON ({e}): {line}", i + 1));
        assert!(
            matches!(v, Json::Obj(_)),
            "line {}: not an object: {line}",
            i + 1
        );
        // records of other kinds (process exit, signal) are allowed when
        // they say so with a "type" other than "syscall"
        let kind = v.get("type").and_then(Json::as_str);
        if kind == Some("end") {
            assert_eq!(i + 1, text.lines().count(), "the end record must be last");
            assert_eq!(
                v.get("events_lost").and_then(Json::as_i64),
                Some(0),
                "{line}"
            );
            saw_end = true;
            continue;
        }
        if kind.is_some_and(|k| k != "syscall") {
            for field in ["pid", "tid"] {
                assert!(
                    v.get(field).is_some(),
                    "line {}: no {field:?} field: {line}",
                    i + 1
                );
            }
            continue;
        }
        syscalls += 1;
        for field in ["name", "pid", "tid", "ret", "args"] {
            assert!(
                v.get(field).is_some(),
                "line {}: no {field:?} field: {line}",
                i + 1
            );
        }
        assert!(
            v.get("name").unwrap().as_str().is_some(),
            "line {}: name is not a string",
            i + 1
        );
        for field in ["pid", "tid"] {
            assert!(
                v.get(field).unwrap().as_i64().is_some(),
                "line {}: {field} is not an integer",
                i + 1
            );
        }
        match v.get("args").unwrap() {
            Json::Arr(args) => {
                for a in args {
                    assert!(
                        a.get("raw").is_some() && a.get("text").is_some(),
                        "line {}: argument without raw and text: {line}",
                        i + 1
                    );
                }
            }
            _ => panic!("line {}: args is not an array: {line}", i + 1),
        }
        if v.get("name").unwrap().as_str() == Some("getppid") {
            getppid.push(v);
        }
    }
    assert!(syscalls > 10, "too few syscall records:\n{text}");
    assert!(saw_end, "no end record with the lost-event count");
    assert_eq!(getppid.len(), 10, "getppid_loop 10 makes 10 getppid calls");
    for v in &getppid {
        assert_eq!(v.get("pid"), v.get("tid"), "single-threaded: pid == tid");
        assert!(
            v.get("ret").unwrap().as_i64().is_some_and(|r| r > 0),
            "getppid returns a pid: {v:?}"
        );
        assert_eq!(
            v.get("args"),
            Some(&Json::Arr(vec![])),
            "getppid has no arguments"
        );
    }
}

#[test]
fn summary_has_strace_header() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("summary");
    let f = dir.join("c.txt");
    let out = run(genba_cmd(["trace", "-c", "-f", "-o"])
        .arg(&f)
        .arg("--")
        .arg(program("desc")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = read(&f);
    assert!(
        text.lines().any(|l| l.trim_end() == SUMMARY_HEADER),
        "no `{SUMMARY_HEADER}` line in:\n{text}"
    );
    let table = parse_summary(&text).unwrap();
    assert_eq!(
        table.get("dup3").map(|c| (c.calls, c.errors)),
        Some((2, 1)),
        "{text}"
    );
    assert!(calls(&text).is_empty(), "-c prints no trace lines:\n{text}");
}

#[test]
fn trace_class_file_matches_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let dir = TempDir::new("class");
    let work = TempDir::new("class-work");
    let g = dir.join("g.txt");
    let s = dir.join("s.txt");
    let out = run(genba_cmd(["trace", "-f", "-e", "trace=%file", "-o"])
        .arg(&g)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let st = run(Command::new("strace")
        .args(["-f", "-e", "trace=%file", "-o"])
        .arg(&s)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(st.code(), Some(0), "{}", st.describe());
    let gn: BTreeSet<String> = names(&read(&g)).into_iter().collect();
    let sn: BTreeSet<String> = names(&read(&s)).into_iter().collect();
    for must in ["openat", "access", "unlink", "rename", "newfstatat"] {
        assert!(
            gn.contains(must),
            "-e trace=%file should show {must}: {gn:?}"
        );
    }
    for never in ["write", "close", "lseek", "getppid", "exit_group"] {
        assert!(
            !gn.contains(never),
            "-e trace=%file should not show {never}: {gn:?}"
        );
    }
    assert_eq!(
        gn, sn,
        "syscall names under -e trace=%file: genba (left) vs strace (right)"
    );
}

/// `-a COLUMN` / `--columns=COLUMN`: `=` at COLUMN, or one space after a
/// longer call, counted from the line's start (pid prefix included), on
/// whole and resumed lines alike; checked on strace's own lines too.
#[test]
fn columns_align_return_values_as_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let dir = TempDir::new("columns");
    let work = TempDir::new("columns-work");
    // given twice (the suite's run.sh does): the last one, as strace
    for (flag, column) in [("-a0", 0), ("-a22", 22), ("--columns=60", 60)] {
        let g = dir.join(&format!("g{column}.txt"));
        let s = dir.join(&format!("s{column}.txt"));
        let out = run(genba_cmd(["trace", "-f", "-a", "33", flag, "-o"])
            .arg(&g)
            .arg("--")
            .arg(program("file"))
            .arg(work.path()));
        assert_eq!(out.code(), Some(0), "{flag}: {}", out.describe());
        let st = run(Command::new("strace")
            .args(["-f", "-a", "33", flag, "-o"])
            .arg(&s)
            .arg("--")
            .arg(program("file"))
            .arg(work.path()));
        assert_eq!(st.code(), Some(0), "{}", st.describe());
        let (g, s) = (read(&g), read(&s));
        for (who, text) in [("genba", &g), ("strace", &s)] {
            let bad: Vec<&str> = text.lines().filter(|l| !padding_ok_at(l, column)).collect();
            assert!(bad.is_empty(), "{who} {flag}: misaligned lines: {bad:#?}");
        }
        // the padding genba wrote
        let strip = |t: &str| -> Vec<usize> {
            t.lines()
                .filter_map(split_return)
                .map(|(end, eq)| eq - end)
                .collect()
        };
        let gp = strip(&g);
        if column == 60 {
            assert!(gp.iter().any(|&n| n > 1), "{flag}: no padded line: {g}");
        }
        if column == 0 {
            assert!(gp.iter().all(|&n| n == 1), "{flag}: padding at -a0: {g}");
        }
        assert_eq!(names(&g), names(&s), "{flag}: calls, genba vs strace");
    }
    // resumed lines are padded by their own length
    let g = dir.join("threads.txt");
    let out = run(genba_cmd(["trace", "-f", "-a", "60", "-o"])
        .arg(&g)
        .arg("--")
        .arg(program("threads")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let g = read(&g);
    let bad: Vec<&str> = g.lines().filter(|l| !padding_ok_at(l, 60)).collect();
    assert!(bad.is_empty(), "-a 60 threads: misaligned lines: {bad:#?}");
}

fn failed_only(flags: &[&str]) {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let dir = TempDir::new("failed");
    let work = TempDir::new("failed-work");
    let g = dir.join("g.txt");
    let s = dir.join("s.txt");
    let out = run(genba_cmd(["trace", "-f"])
        .args(flags)
        .arg("-o")
        .arg(&g)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let gt = read(&g);
    let gc = calls(&gt);
    assert!(!gc.is_empty(), "{flags:?}: no calls shown");
    for (_, body) in &gc {
        assert!(
            is_failure(body),
            "{flags:?} shows a call that did not fail: {body}"
        );
    }
    let st = run(Command::new("strace")
        .args(["-f", "-Z", "-o"])
        .arg(&s)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(st.code(), Some(0), "{}", st.describe());
    let mut gn = names(&gt);
    let mut sn = names(&read(&s));
    gn.sort();
    sn.sort();
    assert_eq!(
        gn, sn,
        "{flags:?}: failing calls, genba (left) vs strace -Z (right)"
    );
}

#[test]
fn status_failed_shows_only_failing_calls() {
    failed_only(&["-e", "status=failed"]);
}

#[test]
fn dash_capital_z_shows_only_failing_calls() {
    failed_only(&["-Z"]);
}

#[test]
fn dash_z_shows_only_successful_calls() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("ok");
    let f = dir.join("t.txt");
    let out = run(genba_cmd(["trace", "-f", "-z", "-o"])
        .arg(&f)
        .arg("--")
        .arg(program("desc")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let c = calls(&read(&f));
    assert!(
        c.iter().any(|(_, b)| b.starts_with("dup3(")),
        "successful dup3 missing"
    );
    for (_, body) in &c {
        assert!(!is_failure(body), "-z shows a failed call: {body}");
    }
}

#[test]
fn dash_capital_t_appends_durations() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("dur");
    let f = dir.join("t.txt");
    let out = run(genba_cmd(["trace", "-f", "-T", "-o"])
        .arg(&f)
        .arg("--")
        .arg(program("time")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = read(&f);
    let mut checked = 0;
    for line in text.lines() {
        let (_, _, body) = split_pid(line);
        if syscall_name(body).is_none()
            || body.ends_with("= ?")
            || body.ends_with(" <unfinished ...>")
        {
            continue;
        }
        let dur = body
            .rsplit_once(" <")
            .and_then(|(_, d)| d.strip_suffix('>'))
            .unwrap_or_else(|| panic!("-T: no <duration> on {line:?}"));
        let ok = dur.split_once('.').is_some_and(|(s, us)| {
            !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && us.len() == 6
                && us.bytes().all(|b| b.is_ascii_digit())
        });
        assert!(ok, "-T: duration not in N.NNNNNN form on {line:?}");
        checked += 1;
        if body.starts_with("clock_nanosleep(CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000000}") {
            let secs: f64 = dur.parse().unwrap();
            assert!(
                (0.0009..0.5).contains(&secs),
                "a 1 ms sleep took {secs}s? {line:?}"
            );
        }
    }
    assert!(checked > 10, "too few lines checked:\n{text}");
}

// ---------------------------------------------------------------------------
// Attaching
// ---------------------------------------------------------------------------

fn proc_state(pid: u32) -> Option<char> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(") ")
        .and_then(|(_, rest)| rest.chars().next())
}

#[test]
fn attach_then_sigint_detaches_and_leaves_the_process_running() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("attach");
    let f = dir.join("t.txt");
    let err_f = dir.join("stderr.txt");

    let mut sleeper = Command::new(program("sleeper"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn sleeper");
    let mut line = String::new();
    BufReader::new(sleeper.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let pid: u32 = line.trim().parse().expect("sleeper prints its pid");
    assert_eq!(pid, sleeper.id());

    let mut genba = genba_cmd(["trace", "-o"])
        .arg(&f)
        .arg("-p")
        .arg(pid.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(fs::File::create(&err_f).unwrap())
        .spawn()
        .expect("spawn genba");

    // let it attach and see a few 100 ms sleeps
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if start.elapsed() > Duration::from_millis(800)
            && fs::metadata(&f).map(|m| m.len() > 0).unwrap_or(false)
        {
            break;
        }
        if let Some(st) = genba.try_wait().unwrap() {
            let _ = sleeper.kill();
            let _ = sleeper.wait();
            panic!(
                "genba exited early with {st:?}: {}",
                fs::read_to_string(&err_f).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }

    let kill = Command::new("kill")
        .args(["-INT", &genba.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let start = Instant::now();
    let status = loop {
        if let Some(st) = genba.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = genba.kill();
            let _ = genba.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stderr = fs::read_to_string(&err_f).unwrap_or_default();

    // the sleeper must be alive and not stopped, and still work
    std::thread::sleep(Duration::from_millis(300));
    let alive = sleeper.try_wait().unwrap().is_none();
    let state = proc_state(pid);
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let start = Instant::now();
    let sleeper_status = loop {
        if let Some(st) = sleeper.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > Duration::from_secs(5) {
            let _ = sleeper.kill();
            let _ = sleeper.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };

    let status = status
        .unwrap_or_else(|| panic!("genba did not exit within 10 s of SIGINT; stderr:\n{stderr}"));
    assert_eq!(
        status.code(),
        Some(0),
        "genba after SIGINT: {status:?}; stderr:\n{stderr}"
    );
    assert!(alive, "the attached process died when genba detached");
    assert!(
        matches!(state, Some('S' | 'R' | 'D')),
        "sleeper state after detach: {state:?}"
    );
    assert_eq!(
        sleeper_status.and_then(|s| s.code()),
        Some(0),
        "the sleeper should still handle SIGTERM normally after detach"
    );
    assert!(
        stderr.lines().any(|l| events_lost(l).is_some()),
        "no events-lost line:\n{stderr}"
    );
    let text = read(&f);
    assert!(
        names(&text).iter().any(|n| n.contains("nanosleep")),
        "the trace of the attached sleeper shows no nanosleep:\n{}",
        tail(&text, 20)
    );
}

/// Without the capabilities BPF needs, genba says which are missing in one
/// line, prints none of libbpf's own log, and does not leave the program it
/// forked behind.
#[test]
fn unprivileged_user_gets_one_line_naming_the_missing_capabilities() {
    if !is_root() || Command::new("runuser").arg("--help").output().is_err() {
        eprintln!("SKIP: needs root and runuser to run genba as nobody");
        return;
    }
    let dir = TempDir::new("nopriv");
    let bin = dir.join("genba");
    fs::copy(genba(), &bin).expect("copy genba");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let out = run(Command::new("runuser")
        .args(["-u", "nobody", "--"])
        .arg(&bin)
        .args(["trace", "--", "/bin/sleep", "30"]));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_one_line_error(&out, "unprivileged");
    assert!(out.stderr.contains("CAP_BPF"), "{}", out.describe());
    assert!(!out.stderr.contains("libbpf"), "{}", out.describe());
    let left = Command::new("pgrep")
        .args(["-u", "nobody", "-f", "sleep 30"])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "the forked program was left running"
    );
}

/// The program starts as it would without genba: no signal ignored or
/// blocked because genba's own runtime ignores SIGPIPE.
#[test]
fn launched_program_has_the_signal_dispositions_it_would_have_alone() {
    require_bpf!();
    let _s = serial();
    let script = "grep -E '^Sig(Ign|Blk):' /proc/self/status";
    let alone = run(Command::new("sh").args(["-c", script]));
    let traced = run(&mut genba_cmd([
        "trace",
        "-o",
        "/dev/null",
        "--",
        "sh",
        "-c",
        script,
    ]));
    assert_eq!(alone.code(), Some(0), "{}", alone.describe());
    assert_eq!(traced.code(), Some(0), "{}", traced.describe());
    assert_eq!(
        traced.stdout, alone.stdout,
        "signal dispositions differ under genba (left) and alone (right)"
    );
}

/// Seconds in the `-c` row of `name`.
fn summary_seconds(table: &str, name: &str) -> Option<f64> {
    table.lines().find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        (f.last() == Some(&name) && f.len() >= 5).then(|| f[1].parse().ok())?
    })
}

/// `-c` counts the time a call spends on the CPU, as strace does; `-w` the
/// wall-clock time from entry to exit. A 300 ms sleep tells them apart.
#[test]
fn summary_counts_cpu_time_and_dash_w_wall_time() {
    require_bpf!();
    let _s = serial();
    let cpu = run(&mut genba_cmd(["trace", "-c", "--", "sleep", "0.3"]));
    assert_eq!(cpu.code(), Some(0), "{}", cpu.describe());
    let wall = run(&mut genba_cmd(["trace", "-c", "-w", "--", "sleep", "0.3"]));
    assert_eq!(wall.code(), Some(0), "{}", wall.describe());
    let c = summary_seconds(&cpu.stderr, "clock_nanosleep").expect("clock_nanosleep row with -c");
    let w =
        summary_seconds(&wall.stderr, "clock_nanosleep").expect("clock_nanosleep row with -c -w");
    assert!(
        (0.29..1.0).contains(&w),
        "-w: wall time of a 300 ms sleep, got {w}\n{}",
        wall.stderr
    );
    assert!(
        c < 0.01,
        "-c: CPU time of a sleep is tiny, got {c}\n{}",
        cpu.stderr
    );
}

/// A SIGINT sent to genba alone (not from the terminal) is passed on to the
/// program it launched; the program's death becomes genba's exit status.
#[test]
fn sigint_to_genba_reaches_the_launched_program() {
    require_bpf!();
    let _s = serial();
    let mut g = genba_cmd(["trace", "-o", "/dev/null", "--", "sleep", "30"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn genba");
    std::thread::sleep(Duration::from_millis(500));
    let pid = g.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let start = Instant::now();
    let status = loop {
        if let Some(st) = g.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = g.kill();
            panic!("genba did not end after SIGINT: the program did not get it");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130), "sleep killed by SIGINT: 128 + 2");
}

/// A Ctrl-C that comes while genba is still starting (parsing, forking,
/// loading BPF) is not lost: the program ends by it, and nothing is left
/// running.
#[test]
fn sigint_while_genba_starts_ends_the_program() {
    require_bpf!();
    let _s = serial();
    for delay_ms in [2u64, 10, 30, 60, 120] {
        let marker = format!("{}", 3000 + delay_ms);
        let mut g = genba_cmd(["trace", "-o", "/dev/null", "--", "sleep", &marker])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn genba");
        std::thread::sleep(Duration::from_millis(delay_ms));
        let pid = g.id().to_string();
        assert!(Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success());
        let start = Instant::now();
        let status = loop {
            if let Some(st) = g.try_wait().unwrap() {
                break st;
            }
            if start.elapsed() > Duration::from_secs(10) {
                let _ = g.kill();
                let _ = Command::new("pkill")
                    .args(["-f", &format!("sleep {marker}")])
                    .status();
                panic!("SIGINT {delay_ms} ms after the start was lost: genba still runs");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let left = Command::new("pgrep")
            .args(["-f", &format!("^sleep {marker}$")])
            .output()
            .unwrap();
        let _ = Command::new("pkill")
            .args(["-f", &format!("^sleep {marker}$")])
            .status();
        assert!(
            left.stdout.is_empty(),
            "SIGINT {delay_ms} ms after the start: the program runs on untraced"
        );
        // genba ends as the program did (128 + 2), or, when the signal came
        // before genba could catch it (a loaded machine starts it slowly),
        // by the signal itself, before any program was started
        use std::os::unix::process::ExitStatusExt;
        assert!(
            status.code() == Some(130) || status.signal() == Some(2 /* SIGINT */),
            "SIGINT {delay_ms} ms after the start: genba ended with {status:?}"
        );
    }
}

/// `--summary-by process`: one table per process, whose rows add up to the
/// overall table, all counted in the kernel.
#[test]
fn summary_by_process_splits_the_table() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd([
        "trace",
        "-c",
        "-f",
        "--summary-by",
        "process",
        "--",
        "sh",
        "-c",
        "/bin/true; /bin/true",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let err = &out.stderr;
    let heads: Vec<&str> = err.lines().filter(|l| l.starts_with("process ")).collect();
    assert_eq!(heads.len(), 3, "sh and its two children:\n{err}");
    let all = err.split("all processes:").nth(1).expect("overall table");
    let totals: Vec<u64> = err
        .lines()
        .filter(|l| l.ends_with(" total"))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        totals.len(),
        4,
        "three process tables and the overall one:\n{err}"
    );
    assert_eq!(
        totals[..3].iter().sum::<u64>(),
        totals[3],
        "per-process calls add up\n{all}"
    );
    let bad = run(&mut genba_cmd([
        "trace",
        "--summary-by",
        "process",
        "--",
        "true",
    ]));
    assert_one_line_error(&bad, "--summary-by without -c");
}

/// A signal handler's rt_sigreturn, when rt_sigreturn is filtered out, is
/// filtered out too (its exit has no call number: it must not show up as
/// a call numbered -1).
#[test]
fn filtered_rt_sigreturn_stays_hidden() {
    require_bpf!();
    let _s = serial();
    // sh catches SIGCHLD, so each child's exit runs a handler
    let r = run(
        genba_cmd(["trace", "-f", "-e", "trace=openat", "--"]).args([
            "sh",
            "-c",
            "/bin/true; /bin/true; /bin/true",
        ]),
    );
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let names = names(&r.stderr);
    assert!(
        names.iter().all(|n| n == "openat"),
        "only openat: {names:?}\n{}",
        r.stderr
    );
}

/// `-e trace=none` still shows signals, as strace does: a signal the
/// program ignores (SIGCHLD by default) is reported at its next system
/// call even when no call is shown.
#[test]
fn signals_shown_with_trace_none() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let dir = TempDir::new("trace-none");
    let args = [
        program("sysmisc").display().to_string(),
        dir.path().display().to_string(),
    ];
    let g = run(genba_cmd(["trace", "-e", "trace=none", "--"]).args(&args));
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    let s = run(Command::new("strace")
        .args(["-e", "trace=none", "--"])
        .args(&args));
    let sig = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("--- SIG") || l.starts_with("+++"))
            .map(|l| l.split(", si_pid").next().unwrap_or(l).to_string())
            .collect()
    };
    assert_eq!(sig(&g.stderr), sig(&s.stderr), "{}", g.stderr);
    assert!(sig(&g.stderr).iter().any(|l| l.starts_with("--- SIGCHLD")));
}

/// `-o '|command'` and `-o '!command'` pipe the trace into a shell command,
/// as strace does; no file of that name is made.
#[test]
fn output_into_a_command() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("pipe");
    for form in ['|', '!'] {
        let f = dir.join(&format!("piped{}.txt", form as u32));
        let spec = format!("{form}cat > '{}'", f.display());
        let out = run(genba_cmd(["trace", "-C", "-o", &spec, "--"]).arg(program("exitcode")));
        assert!(out.code().is_some(), "{}", out.describe());
        let text = read(&f);
        assert!(
            text.contains("exit_group(") && text.contains("% time"),
            "the trace and the summary go through the command\n{text}"
        );
        assert!(!Path::new(&spec).exists(), "a file named {spec:?} was made");
    }
}

/// Output that cannot be written (a full device) is said once, counted, and
/// makes the run fail; genba still ends and reports its losses.
#[test]
fn output_write_failure_is_reported() {
    require_bpf!();
    let _s = serial();
    for format in ["text", "jsonl"] {
        let out = run(&mut genba_cmd([
            "trace",
            "--format",
            format,
            "-o",
            "/dev/full",
            "--",
            "/bin/true",
        ]));
        assert_eq!(out.code(), Some(1), "{format}\n{}", out.describe());
        let said: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| l.contains("No space left on device"))
            .collect();
        assert_eq!(
            said.len(),
            2,
            "said at once, then counted at the end\n{}",
            out.describe()
        );
        let last = said[1];
        let n: u64 = last
            .strip_prefix("genba: ")
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count in {last:?}"));
        assert!(
            n >= 10,
            "/bin/true makes dozens of calls, {n} lines counted\n{}",
            out.describe()
        );
        assert!(
            last.contains("lines of output not written to /dev/full"),
            "{last}"
        );
    }
}

/// `-k` has no effect with `-c` (strace says so, and prints only the table).
#[test]
fn stack_trace_with_summary_only_warns() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd(["trace", "-c", "-k", "--", "/bin/true"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr
            .contains("genba: -k/--stack-trace has no effect with -c/--summary-only"),
        "{}",
        out.describe()
    );
    assert!(
        !out.stderr.contains("execve(") && out.stderr.contains("% time"),
        "only the table\n{}",
        out.describe()
    );
}

/// Under -q/-qq a clean run leaves stderr as strace would (no losses line);
/// losses, when there are any, are always said.
#[test]
fn quiet_runs_keep_stderr_clean() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("quiet");
    for q in ["-q", "-qq", "--quiet=exit", "-equiet=attach"] {
        let f = dir.join("t.txt");
        let out = run(genba_cmd(["trace", q, "-o"])
            .arg(&f)
            .arg("--")
            .arg("/bin/true"));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        assert_eq!(
            out.stderr,
            "",
            "{q}: stderr should be empty\n{}",
            out.describe()
        );
    }
}

/// `-e trace=` takes what strace takes: old class names without `%`, and
/// the calls of strace's other personalities (they select nothing here); an
/// unknown name gets a suggestion only when it is a typo away.
#[test]
fn trace_sets_as_strace_takes_them() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd([
        "trace",
        "-qq",
        "-e",
        "trace=ipc,network,mmap2,desc",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr.contains("close(3)"),
        "desc is %desc\n{}",
        out.describe()
    );
    let out = run(&mut genba_cmd([
        "trace",
        "-e",
        "trace=nosuchcall",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "unknown call");
    assert!(
        !out.stderr.contains("did you mean"),
        "no guess for an unrelated word\n{}",
        out.describe()
    );
    let out = run(&mut genba_cmd([
        "trace",
        "-e",
        "trace=opnat",
        "--",
        "/bin/true",
    ]));
    assert!(
        out.stderr.contains("did you mean 'openat'"),
        "{}",
        out.describe()
    );
}

/// `-U` with the name not last: every row lines up under the header, as
/// strace lays it out (names padded, blank error cells kept), and min/max
/// are strace's `shortest`/`longest` in seconds.
#[test]
fn summary_columns_align_in_any_order() {
    require_bpf!();
    let _s = serial();
    for cols in [
        "name,calls,max-time,min-time,errors",
        "calls,name,errors,p99",
    ] {
        let out = run(&mut genba_cmd([
            "trace",
            "-c",
            "-U",
            cols,
            "--",
            "ls",
            "/nonexistent",
        ]));
        let table: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| !l.starts_with("genba:") && !l.starts_with("ls:"))
            .collect();
        assert!(table.len() > 4, "{}", out.describe());
        let width = table[0].len();
        for l in &table {
            assert_eq!(
                l.len(),
                width,
                "{cols}: misaligned row {l:?}\n{}",
                table.join("\n")
            );
        }
        if cols.contains("max-time") {
            assert!(table[0].contains(" longest shortest "), "{}", table[0]);
            let row = table[2];
            assert!(
                row.split_whitespace()
                    .nth(2)
                    .is_some_and(|v| v.len() == 8 && v.contains('.')),
                "seconds with six decimals: {row}"
            );
        }
    }
}

/// A program that makes a sibling with CLONE_PARENT (genba's child, not the
/// program's) and waits for it to vanish must not hang: genba reaps every
/// child of its own, and says so as strace does ("Exit of unknown pid").
#[test]
fn clone_parent_sibling_is_reaped() {
    require_bpf!();
    let _s = serial();
    for flags in [&[][..], &["-qq"][..], &["-f"][..]] {
        let mut cmd = genba_cmd(["trace", "-e", "trace=none"]);
        cmd.args(flags).arg("--").arg(program("clone_parent"));
        let out = run_timeout(&mut cmd, Duration::from_secs(30));
        assert_eq!(out.code(), Some(0), "{flags:?}\n{}", out.describe());
        assert!(out.stdout.contains("reaped"), "{}", out.describe());
        let said = out.stderr.contains("Exit of unknown pid");
        assert_eq!(
            said,
            flags.is_empty(),
            "{flags:?}: the message only without -q and -f\n{}",
            out.describe()
        );
    }
}

/// The arguments of a strace line (`openat(AT_FDCWD, "x", O_RDONLY) = 3`),
/// split at its top-level commas.
fn strace_args(body: &str) -> Option<Vec<String>> {
    let open = body.find('(')?;
    let (text_end, _) = split_return(body)?;
    let inner = body[open + 1..text_end].strip_suffix(')')?;
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut escaped, mut start) = (0i32, false, false, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' | '{' | '(' if !quoted => depth += 1,
            ']' | '}' | ')' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        out.push(inner[start..].trim().to_string());
    }
    Some(out)
}

/// JSON lines list the arguments strace shows, no more: open and openat
/// without O_CREAT/O_TMPFILE have no mode, fcntl(fd, F_GETFD) has two.
/// Checked call by call against strace on the file family.
#[test]
fn jsonl_args_are_the_ones_strace_shows() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let dir = TempDir::new("jsonl-args");
    let work = TempDir::new("jsonl-args-work");
    let s_out = dir.join("strace.txt");
    let j_out = dir.join("t.jsonl");
    let st = run(Command::new("strace")
        .arg("-o")
        .arg(&s_out)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(st.code(), Some(0), "{}", st.describe());
    let out = run(genba_cmd(["trace", "--format", "jsonl", "-o"])
        .arg(&j_out)
        .arg("--")
        .arg(program("file"))
        .arg(work.path()));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let names = ["open", "openat", "creat", "fcntl"];
    let expected: Vec<(String, Vec<String>)> = parse_trace(&read(&s_out))
        .iter()
        .filter_map(|e| {
            let name = e.syscall()?;
            if !names.contains(&name) {
                return None;
            }
            Some((name.to_string(), strace_args(&e.body)?))
        })
        .collect();
    let actual: Vec<(String, Vec<String>)> = read(&j_out)
        .lines()
        .filter_map(|l| {
            let v = parse_json(l).ok()?;
            let name = v.get("name")?.as_str()?.to_string();
            if !names.contains(&name.as_str()) {
                return None;
            }
            let Json::Arr(args) = v.get("args")? else {
                return None;
            };
            let texts = args
                .iter()
                .map(|a| {
                    a.get("text")
                        .and_then(Json::as_str)
                        .unwrap_or("?")
                        .to_string()
                })
                .collect();
            Some((name, texts))
        })
        .collect();
    assert!(
        expected.iter().any(|(n, a)| n == "open" && a.len() == 2)
            && expected.iter().any(|(n, a)| n == "openat" && a.len() == 3)
            && expected.iter().any(|(n, a)| n == "openat" && a.len() == 4),
        "the file family should open with and without a mode: {expected:?}"
    );
    assert_eq!(
        expected.len(),
        actual.len(),
        "strace: {expected:#?}\njsonl: {actual:#?}"
    );
    for (e, a) in expected.iter().zip(&actual) {
        assert_eq!(e, a, "strace's arguments vs the JSON's");
    }
}

// ---------------------------------------------------------------------------
// strace's long options and qualifiers
// ---------------------------------------------------------------------------

/// Runs genba and strace with the same flags (`-o FILE` added) on `argv`;
/// returns (genba's trace, strace's trace, genba's output).
fn both(flags: &[&str], argv: &[&str], tag: &str) -> (String, String, Output) {
    let dir = TempDir::new(tag);
    let g = dir.join("g.txt");
    let s = dir.join("s.txt");
    let out = run(genba_cmd(["trace"])
        .args(flags)
        .arg("-o")
        .arg(&g)
        .arg("--")
        .args(argv));
    let st = run(Command::new("strace")
        .args(flags)
        .arg("-o")
        .arg(&s)
        .arg("--")
        .args(argv));
    assert_eq!(
        out.code(),
        st.code(),
        "{flags:?}: genba\n{}\nstrace\n{}",
        out.describe(),
        st.describe()
    );
    let read_or_empty = |p: &Path| if p.exists() { read(p) } else { String::new() };
    (read_or_empty(&g), read_or_empty(&s), out)
}

/// The `---` and `+++` lines, pid prefix and siginfo left out, sorted.
fn signal_lines(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let i = l.find("--- SIG").or_else(|| l.find("+++ "))?;
            let rest = &l[i..];
            Some(match rest.find(" {") {
                Some(j) => rest[..j].to_string(),
                None => rest.to_string(),
            })
        })
        .collect();
    v.sort();
    v
}

/// `-e signal=SET`, `--signal=SET`, `-e signals=`: which `--- SIG ---` and
/// `+++ killed by +++` lines are shown, as strace shows them.
#[test]
fn signal_sets_as_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let script = "trap '' USR1; kill -USR1 $$; (exit 0); sh -c 'kill -TERM $$'; exit 0";
    let argv = ["/bin/sh", "-c", script];
    let mut seen = BTreeSet::new();
    for set in [
        &["-e", "signal=all"][..],
        &["-e", "signal=none"][..],
        &["--signal=!chld"][..],
        &["-e", "signals=SIGUSR1,15"][..],
        &["--signals=!SIGCHLD,usr1"][..],
        &["-esignal=none", "-e", "signal=!term"][..],
    ] {
        let mut flags = vec!["-f", "-e", "trace=none"];
        flags.extend_from_slice(set);
        let (g, s, _) = both(&flags, &argv, "signals");
        let (gl, sl) = (signal_lines(&g), signal_lines(&s));
        assert_eq!(gl, sl, "{set:?}: genba (left) vs strace (right)\n{g}");
        seen.insert(gl);
    }
    // the sets really differ from each other
    assert!(seen.len() >= 5, "{seen:#?}");
}

/// The leader and `-T` forms: `--timestamps=`, `--absolute-timestamps=`
/// (repeated: each applies over the last), `-r` with `-t`,
/// `--relative-timestamps=`, `--syscall-times=`, `-n`: the same lines as
/// strace's with every digit masked, spacing kept (so the widths match).
#[test]
fn timestamp_forms_as_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let mask = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                l.chars()
                    .map(|c| if c.is_ascii_digit() { 'N' } else { c })
                    .collect()
            })
            .collect()
    };
    for flags in [
        &["--timestamps"][..],
        &["--timestamps=unix,ns"][..],
        &["--timestamps=time,ms"][..],
        &["--timestamps=unix,s"][..],
        &[
            "--absolute-timestamps=format:time",
            "--absolute-timestamps=precision:ns",
        ][..],
        &[
            "--absolute-timestamps=precision:ms",
            "--absolute-timestamps=format:unix",
        ][..],
        &["-tt", "-r"][..],
        &["-t", "--relative-timestamps=ns"][..],
        &["--relative-timestamps=s"][..],
        &["--relative-timestamps"][..],
        &["--syscall-times=ms"][..],
        &["--syscall-times=s", "-a", "20"][..],
        &["--syscall-times"][..],
        &["-n", "-ttt"][..],
        &["--syscall-number", "-r"][..],
    ] {
        let mut all = vec!["-qq", "-e", "trace=close,exit_group"];
        all.extend_from_slice(flags);
        let (g, s, _) = both(&all, &["/bin/true"], "ts");
        assert!(!g.is_empty(), "{flags:?}: no trace");
        assert_eq!(
            mask(&g),
            mask(&s),
            "{flags:?}: genba (left) vs strace (right)"
        );
    }
    // what strace refuses, genba refuses
    for bad in [
        &["-t", "--timestamps=unix"][..],
        &["--timestamps=hours"][..],
        &["--syscall-times=ps"][..],
        &["--relative-timestamps=minutes"][..],
    ] {
        let out = run(genba_cmd(["trace"])
            .args(bad)
            .args(["-o", "/dev/null", "--", "/bin/true"]));
        assert_one_line_error(&out, &format!("{bad:?}"));
    }
}

/// `--quiet=SET` / `-e quiet=SET`: `exit` hides `+++ exited`, `attach`
/// the attach messages; together with -q it is an error, as in strace.
#[test]
fn quiet_sets_as_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    for flags in [
        &["--quiet=exit,personality"][..],
        &["-e", "quiet=attach"][..],
        &["--quiet=none"][..],
        &["--silent=all"][..],
        &["-e", "quiet=!exit"][..],
    ] {
        let mut all = vec!["-f", "-e", "trace=none"];
        all.extend_from_slice(flags);
        let (g, s, _) = both(&all, &["/bin/sh", "-c", "(exit 3); exit 4"], "quiet");
        assert_eq!(
            signal_lines(&g),
            signal_lines(&s),
            "{flags:?}: genba (left) vs strace (right)"
        );
    }
    let out = run(&mut genba_cmd([
        "trace",
        "-q",
        "--quiet=attach",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "-q with --quiet");
    let out = run(&mut genba_cmd([
        "trace",
        "--quiet=chatter",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "--quiet=chatter");
}

/// `--trace=`/`--status=` are `-e trace=`/`-e status=`, and a later one
/// replaces an earlier one whichever form each is; `-o` given twice: the
/// last one, as strace.
#[test]
fn long_qualifiers_and_repeated_output_as_strace() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    for flags in [
        &["--trace=close"][..],
        &["-e", "trace=close", "--trace=exit_group"][..],
        &["--trace=close", "-e", "trace=exit_group"][..],
        &["--trace=openat,close", "--status=failed"][..],
        &[
            "--status=failed",
            "-e",
            "status=successful",
            "--trace=openat,close",
        ][..],
    ] {
        let (g, s, _) = both(
            flags,
            &["/bin/cat", "/nonexistent", "/etc/hostname"],
            "long",
        );
        assert!(
            !g.is_empty() || s.is_empty(),
            "{flags:?}: genba wrote nothing"
        );
        assert_eq!(
            names(&g),
            names(&s),
            "{flags:?}: genba (left) vs strace (right)"
        );
        assert_eq!(
            calls(&g).iter().filter(|(_, b)| is_failure(b)).count(),
            calls(&s).iter().filter(|(_, b)| is_failure(b)).count(),
            "{flags:?}: failed calls"
        );
    }
    let dir = TempDir::new("two-o");
    let (first, second) = (dir.join("first.txt"), dir.join("second.txt"));
    let out = run(genba_cmd(["trace", "-q", "-o"])
        .arg(&first)
        .arg("-o")
        .arg(&second)
        .args(["--", "/bin/true"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(!first.exists(), "the first -o was written");
    assert!(names(&read(&second)).contains(&"exit_group".to_string()));
}

/// `--decode-pids=pidns` asks for pids translated between pid namespaces,
/// which genba cannot do: refused in one line, not ignored.
#[test]
fn decode_pids_pidns_is_refused() {
    for arg in ["--decode-pids=pidns", "--decode-pids=all"] {
        let out = run(&mut genba_cmd([
            "trace",
            arg,
            "-o",
            "/dev/null",
            "--",
            "/bin/true",
        ]));
        assert_one_line_error(&out, arg);
        assert!(out.stderr.contains("not supported"), "{}", out.describe());
    }
}

/// `-Y` names processes as strace does: each line's own (`PID<comm> `
/// with -f -o), pid arguments and results, each as it was at that call (a
/// forked child has its parent's name until it execs, even though genba
/// prints after both have ended).
#[test]
fn dash_capital_y_names_pids() {
    require_bpf!();
    let dir = TempDir::new("ycomm");
    let trace = dir.join("trace");
    for flags in [
        &["-Y"][..],
        &["--decode-pids=comm"][..],
        &["-e", "decode-pids=comm"][..],
    ] {
        let out = run(genba_cmd(["trace", "-f"])
            .args(flags)
            .args(["-e", "trace=kill,getpid,clone,execve,wait4", "-o"])
            .arg(&trace)
            .args(["--", "/bin/sh", "-c", "kill -0 $$; /bin/true & wait"]));
        assert_eq!(out.code(), Some(0), "{flags:?}: {}", out.describe());
        let text = read(&trace);
        let kill = text
            .lines()
            .find(|l| l.contains(" kill("))
            .unwrap_or_else(|| panic!("{flags:?}: no kill line:\n{text}"));
        let pid = kill.split('<').next().unwrap();
        assert!(
            kill.starts_with(&format!("{pid}<sh> kill({pid}<sh>, 0) ")),
            "{text}"
        );
        let clone = text
            .lines()
            .find(|l| l.starts_with(&format!("{pid}<sh> clone(")))
            .unwrap_or_else(|| panic!("no clone line:\n{text}"));
        let child = clone.rsplit("= ").next().unwrap();
        let cpid = child
            .strip_suffix("<sh>")
            .unwrap_or_else(|| panic!("{clone}"));
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{cpid}<true> +++ exited with 0 +++"))),
            "{text}"
        );
        // the signal of its end names it (a zombie); reaped, nothing does
        assert!(text.contains(&format!("si_pid={cpid}<true>,")), "{text}");
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{pid}<sh> "))
                && l.contains("wait4(")
                && l.ends_with(&format!("= {cpid}"))),
            "{text}"
        );
    }
    // without it, no names
    let out = run(genba_cmd(["trace", "-f", "-e", "trace=kill", "-o"])
        .arg(&trace)
        .args(["--", "/bin/sh", "-c", "kill -0 $$"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(!read(&trace).contains("<sh>"), "{}", read(&trace));
}

/// `-e verbose=SET`: a call outside the set shows its strings but its
/// structures and arrays as addresses (execve's argv; uname's struct), as
/// strace; the calls in the set are decoded as usual.
#[test]
fn verbose_set_abbreviates_the_other_calls() {
    require_bpf!();
    let dir = TempDir::new("verbose");
    let trace = dir.join("trace");
    let lines = |set: &str| {
        let out = run(
            genba_cmd(["trace", "-e", set, "-e", "trace=execve,uname", "-o"])
                .arg(&trace)
                .args(["--", "/bin/uname"]),
        );
        assert_eq!(out.code(), Some(0), "{set}: {}", out.describe());
        let text = read(&trace);
        let find = |name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .unwrap_or_else(|| panic!("{set}: no {name}:\n{text}"))
                .to_string()
        };
        (find("execve("), find("uname("))
    };
    let is_addr = |s: &str| s.starts_with("0x");
    let arg = |line: &str, i: usize| line.split(", ").nth(i).unwrap_or("").to_string();
    let (execve, uname) = lines("verbose=none");
    assert!(execve.starts_with("execve(\"/bin/uname\", 0x"), "{execve}");
    assert!(is_addr(&arg(&execve, 2)), "{execve}");
    assert!(is_addr(uname.trim_start_matches("uname(")), "{uname}");
    let (execve, uname) = lines("verbose=!uname");
    assert!(
        execve.starts_with("execve(\"/bin/uname\", [\"/bin/uname\"]"),
        "{execve}"
    );
    assert!(uname.starts_with("uname(0x"), "{uname}");
    let (_, uname) = lines("verbose=all");
    assert!(uname.starts_with("uname({sysname="), "{uname}");
}

/// `-ff` and `--follow-forks --output-separately` write each task's
/// lines to FILE.TID, without the id in front and without FILE itself.
#[test]
fn output_separately_writes_a_file_per_task() {
    require_bpf!();
    for flags in [&["-ff"][..], &["--follow-forks", "--output-separately"][..]] {
        let dir = TempDir::new("ff");
        let base = dir.join("log");
        let out = run(genba_cmd(["trace"])
            .args(flags)
            .args(["-e", "trace=execve,exit_group", "-o"])
            .arg(&base)
            .args(["--", "/bin/sh", "-c", "/bin/true & wait"]));
        assert_eq!(out.code(), Some(0), "{flags:?}: {}", out.describe());
        assert!(!base.exists(), "{flags:?}: FILE written");
        let mut files: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert_eq!(files.len(), 2, "{flags:?}: {files:?}");
        for f in &files {
            let text = read(f);
            assert!(text.starts_with("execve(\""), "{f:?}: {text}");
            assert!(text.ends_with("+++ exited with 0 +++\n"), "{f:?}: {text}");
        }
    }
    // a summary has no per-task file
    let out = run(&mut genba_cmd([
        "trace",
        "-ff",
        "-c",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "-ff -c");
}

/// `--seccomp-bpf` is accepted (genba only ever records the calls
/// selected); without -f it says, as strace, that it is not used.
#[test]
fn seccomp_bpf_is_accepted_with_follow_forks() {
    require_bpf!();
    let out = run(&mut genba_cmd([
        "trace",
        "--seccomp-bpf",
        "-f",
        "-e",
        "trace=exit_group",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(out.stderr.contains("exit_group(0)"), "{}", out.describe());
    assert!(!out.stderr.contains("seccomp"), "{}", out.describe());
    let out = run(&mut genba_cmd([
        "trace",
        "--seccomp-bpf",
        "-o",
        "/dev/null",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr
            .contains("--seccomp-bpf cannot be used without -f/--follow-forks, disabling"),
        "{}",
        out.describe()
    );
}

/// `-yy` describes a socket as strace does: a connected UNIX stream pair
/// by its inode and its peer's (the program keeps the pair open until the
/// line is in the trace file, so that it is there to be described).
#[test]
fn yy_describes_a_connected_unix_socket() {
    require_bpf!();
    let dir = TempDir::new("sockyy");
    let trace = dir.join("trace");
    for flags in [
        &["-yy"][..],
        &["--decode-fds=socket"][..],
        &["-e", "decode-fds=all"][..],
    ] {
        let out = run(genba_cmd(["trace"])
            .args(flags)
            .args(["-e", "trace=write", "-o"])
            .arg(&trace)
            .arg("--")
            .arg(program("sockyy"))
            .arg(&trace));
        assert_eq!(out.code(), Some(0), "{flags:?}: {}", out.describe());
        let text = std::fs::read_to_string(&trace).unwrap();
        let line = text.lines().next().unwrap_or("");
        let inner = line
            .strip_prefix("write(3<UNIX-STREAM:[")
            .and_then(|r| r.split_once("]>, \"x\", 1)"))
            .map(|(ids, _)| ids)
            .unwrap_or_else(|| panic!("{flags:?}: {line}"));
        let (me, peer) = inner.split_once("->").unwrap_or_else(|| panic!("{line}"));
        let (me, peer): (u64, u64) = (me.parse().unwrap(), peer.parse().unwrap());
        assert_ne!(me, peer, "{line}");
    }
}

/// A set genba does not know is an error; repeated `--decode-fds` and
/// `-P` with a summary or JSON are refused the same way.
#[test]
fn decode_fds_and_trace_path_refusals() {
    for args in [
        &["--decode-fds=paths"][..],
        &["-c", "-P", "/dev/null"][..],
        &["--format", "jsonl", "-P", "/dev/null"][..],
    ] {
        let out = run(genba_cmd(["trace"])
            .args(args)
            .args(["-o", "/dev/null", "--", "/bin/true"]));
        assert_one_line_error(&out, &args.join(" "));
    }
    // the last --decode-fds counts
    let out = run(&mut genba_cmd([
        "trace",
        "--decode-fds=socket",
        "--decode-fds=none",
        "-e",
        "trace=none",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
}

/// `-P` with a path that resolves elsewhere says so as strace does, unless
/// `-e quiet=path-resolution` (or -qqq) asks for silence.
#[test]
fn trace_path_resolution_message_and_quiet() {
    let said = |extra: &[&str]| {
        let out = run(genba_cmd(["trace", "-P", "../dev/full"])
            .args(extra)
            .args(["-o", "/dev/null", "--", "/bin/true"])
            .current_dir("/tmp"));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        out.stderr
            .contains("Requested path \"../dev/full\" resolved into \"/dev/full\"")
    };
    assert!(said(&[]));
    assert!(!said(&["-e", "quiet=path-resolution"]));
    assert!(!said(&["-qqq"]));
}

/// `genba bench-floor --pieces` (bench/trace-pieces.sh): each piece loads,
/// attaches and runs on every call of the program (the kernel's run counts,
/// GENBA_DEBUG); an unknown piece is a one-line error.
#[test]
fn bench_floor_runs_each_piece() {
    require_bpf!();
    let _serial = serial();
    let lp = program("getppid_loop");
    for pieces in [
        "",
        "id",
        "clock",
        "query",
        "copy",
        "loads",
        "id,clock,query,copy",
    ] {
        let mut cmd = genba_cmd(["bench-floor"]);
        if !pieces.is_empty() {
            cmd.args(["--pieces", pieces]);
        }
        cmd.arg("--").arg(&lp).arg("5000").env("GENBA_DEBUG", "1");
        let out = run(&mut cmd);
        assert_eq!(
            out.code(),
            Some(0),
            "--pieces {pieces:?}\n{}",
            out.describe()
        );
        for prog in ["floor_enter", "floor_exit"] {
            let runs = out
                .stderr
                .lines()
                .find_map(|l| l.strip_prefix(&format!("genba: BPF {prog}: ")))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|n| n.parse::<u64>().ok());
            assert!(
                runs.is_some_and(|n| n >= 5000),
                "--pieces {pieces:?}: {prog} did not run on each of the 5000 calls\n{}",
                out.describe()
            );
        }
    }
    let out = run(&mut genba_cmd([
        "bench-floor",
        "--pieces",
        "id,bogus",
        "--",
        "/bin/true",
    ]));
    assert_one_line_error(&out, "--pieces id,bogus");
    assert!(
        out.stderr.contains("unknown piece 'bogus'"),
        "{}",
        out.describe()
    );
}

/// A trace with its task ids renamed by first appearance (`T1`, `T2`...)
/// and its addresses masked: two tracers' runs of one program compare.
fn by_task_order(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut name = |id: &str| {
        let i = ids.iter().position(|x| x == id).unwrap_or_else(|| {
            ids.push(id.to_string());
            ids.len() - 1
        });
        format!("T{}", i + 1)
    };
    text.lines()
        .filter(|l| !l.is_empty() && events_lost(l).is_none())
        .map(|l| {
            let (id, rest) = l.split_once(' ').unwrap_or((l, ""));
            let mut rest = rest.trim_start().to_string();
            // the other tasks' ids the line names
            for word in ["in pid ", "pid changed to ", "si_pid="] {
                if let Some(at) = rest.find(word) {
                    let start = at + word.len();
                    let end = rest[start..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(rest.len(), |e| start + e);
                    let other = name(&rest[start..end]);
                    rest.replace_range(start..end, &other);
                }
            }
            let words: Vec<String> = rest
                .split(' ')
                .map(|w| match w.find("0x") {
                    Some(i) => format!("{}0x", &w[..i]),
                    None => w.to_string(),
                })
                .collect();
            format!("{} {}", name(id), words.join(" "))
        })
        .collect()
}

/// Each task's lines in order, a call cut by another task's line joined
/// with its resumption and spaces collapsed (how two tasks' lines
/// interleave is up to the scheduler).
fn per_task(lines: &[String]) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut open: std::collections::HashMap<String, String> = Default::default();
    for l in lines {
        let (t, rest) = l.split_once(' ').unwrap();
        let rest = match (open.remove(t), rest.find("resumed>")) {
            (Some(head), Some(at)) if rest.starts_with("<... ") => {
                format!("{head}{}", &rest[at + "resumed>".len()..])
            }
            (_, _) => rest.to_string(),
        };
        if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            open.insert(t.to_string(), head.to_string());
            continue;
        }
        let rest = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        out.entry(t.to_string()).or_default().push(rest);
    }
    out
}

/// How threads end when another thread ends their process, as strace
/// shows it: a thread that exec's takes the leader's id (`<pid changed
/// to N ...>`, `+++ superseded by execve in pid N +++`, the execve
/// returning as the leader, and the new program traced on); a call that
/// exit_group cut short never returns (`<unfinished ...>) = ?`, no
/// ERESTART code); a leader that exits alone is reported when its process
/// ends.
#[test]
fn thread_ends_as_strace_shows_them() {
    require_bpf!();
    require_strace!();
    let prog = program("thread_end");
    let opts = [
        "-f",
        "-e",
        "signal=none",
        "-e",
        "trace=execve,exit,exit_group,nanosleep,clock_nanosleep",
    ];
    for mode in ["exec", "kill", "leader"] {
        let dir = TempDir::new("thread_end");
        let s_log = dir.join("strace");
        let g_log = dir.join("genba");
        let s = run(Command::new("strace")
            .args(opts)
            .arg("-o")
            .arg(&s_log)
            .arg(&prog)
            .arg(mode));
        assert!(s.code().is_some(), "strace {mode}: {}", s.describe());
        let g = run(genba_cmd(["trace"])
            .args(opts)
            .arg("-o")
            .arg(&g_log)
            .arg(&prog)
            .arg(mode));
        assert_eq!(g.code(), s.code(), "{mode}: {}", g.describe());
        let (st, gt) = (read(&s_log), read(&g_log));
        assert_eq!(
            per_task(&by_task_order(&gt)),
            per_task(&by_task_order(&st)),
            "{mode}: genba\n{gt}\nstrace\n{st}"
        );
    }
    // the new program is traced on: its exit_group is the leader's
    let dir = TempDir::new("thread_end");
    let g_log = dir.join("genba");
    let g = run(genba_cmd(["trace", "-f", "-o"])
        .arg(&g_log)
        .arg(&prog)
        .arg("exec"));
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    let text = by_task_order(&read(&g_log));
    assert!(
        text.iter()
            .any(|l| l == "T1 +++ superseded by execve in pid T2 +++"),
        "{text:#?}"
    );
    let after: Vec<_> = text
        .iter()
        .skip_while(|l| !l.contains("<... execve resumed>"))
        .collect();
    assert!(after.len() > 3, "the new program was not traced: {text:#?}");
    assert!(after.iter().all(|l| l.starts_with("T1 ")), "{after:#?}");
}

/// A stop signal with no handler stops the task, and the trace says so
/// after the signal, as strace does: `--- stopped by SIGSTOP ---`; a sleep
/// a stop cut short goes on in restart_syscall, which names it.
#[test]
fn group_stops_are_shown_as_strace_shows_them() {
    require_bpf!();
    require_strace!();
    let prog = program("stopped");
    let opts = [
        "-f",
        "-e",
        "trace=clock_nanosleep,restart_syscall",
        "-e",
        "signal=!chld",
    ];
    let dir = TempDir::new("stopped");
    let (s_log, g_log) = (dir.join("strace"), dir.join("genba"));
    let s = run(Command::new("strace")
        .args(opts)
        .arg("-o")
        .arg(&s_log)
        .arg(&prog));
    assert_eq!(s.code(), Some(0), "{}", s.describe());
    let g = run(genba_cmd(["trace"])
        .args(opts)
        .arg("-o")
        .arg(&g_log)
        .arg(&prog));
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    let (st, gt) = (read(&s_log), read(&g_log));
    assert!(gt.contains("--- stopped by SIGTSTP ---"), "{gt}");
    assert!(
        gt.contains("restart_syscall(<... resuming interrupted clock_nanosleep ...>"),
        "{gt}"
    );
    assert_eq!(
        per_task(&by_task_order(&gt)),
        per_task(&by_task_order(&st)),
        "genba\n{gt}\nstrace\n{st}"
    );
}

/// tests/programs/kvm.c's report of what it did (see the program).
struct KvmRun {
    vm: i32,
    vcpu: i32,
    /// KVM_GET_SUPPORTED_CPUID's count and first entry's eax, when it fit.
    cpuid: Option<(usize, String)>,
    /// The descriptors it made and their names, as /proc showed them.
    fds: Vec<(i32, String)>,
    /// KVM_RUN's exit reasons, in order.
    exits: Vec<u32>,
}

fn kvm_report(stdout: &str) -> KvmRun {
    let mut r = KvmRun {
        vm: -1,
        vcpu: -1,
        cpuid: None,
        fds: Vec::new(),
        exits: Vec::new(),
    };
    for line in stdout.lines() {
        let field = |key: &str| {
            line.split(' ')
                .find_map(|w| w.strip_prefix(key))
                .map(str::to_string)
        };
        if let (Some(vm), Some(vcpu)) = (field("kvm="), field("vcpu=")) {
            r.vm = vm.parse().unwrap();
            r.vcpu = vcpu.parse().unwrap();
        } else if let (Some(n), Some(eax)) = (field("cpuid="), field("eax0=")) {
            r.cpuid = Some((n.parse().unwrap(), eax));
        } else if let Some((fd, name)) = line.strip_prefix("fd=").and_then(|l| l.split_once(' ')) {
            let name = name.trim_start_matches('<').trim_end_matches('>');
            r.fds.push((fd.parse().unwrap(), name.to_string()));
        } else if let Some(e) = field("exit=") {
            r.exits.push(e.parse().unwrap());
        }
    }
    r
}

/// KVM: the descriptors KVM_CREATE_VM, KVM_CREATE_VCPU, KVM_GET_STATS_FD
/// and KVM_CREATE_DEVICE make are named from the calls themselves (the
/// program closes them and exits before genba prints), -e kvm=vcpu shows each KVM_RUN's exit
/// reason as the program saw it, and the structures are decoded as strace
/// does (CPUID entries in full with -v, as many as the kernel gave).
#[test]
fn kvm_descriptors_exit_reasons_and_structures() {
    require_bpf!();
    if !Path::new("/dev/kvm").exists() {
        eprintln!("SKIP: no /dev/kvm (KVM is not available on this machine)");
        return;
    }
    let _s = serial();
    let dir = TempDir::new("kvm");
    let trace = |extra: &[&str], out_file: &Path| {
        let out = run(genba_cmd(["trace", "-y", "-e", "trace=ioctl,close", "-o"])
            .arg(out_file)
            .args(extra)
            .arg("--")
            .arg(program("kvm")));
        (out, read(out_file))
    };
    let (out, text) = trace(&["-v", "-e", "kvm=vcpu"], &dir.join("vcpu.txt"));
    if out.code() == Some(77) {
        // /dev/kvm is there but cannot be used (no virtualization here)
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: /dev/kvm exists but cannot be used\n{}",
            out.describe()
        );
        eprintln!("SKIP: /dev/kvm unusable: {}", out.stderr.trim());
        return;
    }
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let r = kvm_report(&out.stdout);
    let (vm, vcpu) = (
        format!("{}<anon_inode:kvm-vm>", r.vm),
        format!("{}<anon_inode:kvm-vcpu:0>", r.vcpu),
    );
    // the lines with the return column's padding folded
    let fold = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    };
    let lines = fold(&text);
    let has = |want: &str| {
        assert!(
            lines.iter().any(|l| l.contains(want)),
            "no line with {want:?} in\n{text}"
        )
    };
    let ends = |want: &str| {
        assert!(
            lines.iter().any(|l| l.ends_with(want)),
            "no line ending with {want:?} in\n{text}"
        )
    };
    ends(&format!("KVM_CREATE_VM, 0) = {vm}"));
    has(&format!("ioctl({vm}, KVM_CREATE_VCPU, 0) = {vcpu}"));
    has(&format!(
        "ioctl({vm}, KVM_SET_USER_MEMORY_REGION, {{slot=0, flags=0, guest_phys_addr=0x1000, memory_size="
    ));
    has(&format!(
        "ioctl({vcpu}, KVM_SET_REGS, {{rax=0x78, rbx=0, rcx=0, rdx=0, rsi=0, rdi=0, rsp=0, rbp=0, r8=0"
    ));
    has(&format!(
        "ioctl({vcpu}, KVM_GET_SREGS, {{cs={{base=0xffff0000, "
    ));
    // the VM, the vcpu, their statistics (Linux 5.14), a VFIO device
    assert!(
        r.fds.len() >= 2 && r.fds[0].0 == r.vm && r.fds[1].0 == r.vcpu,
        "{}",
        out.stdout
    );
    for (fd, name) in &r.fds {
        has(&format!("close({fd}<{name}>) = 0"));
        if name.contains("stats") {
            ends(&format!("KVM_GET_STATS_FD, 0) = {fd}"));
        }
    }
    // every CPUID entry the kernel gave, at exit; the same given back
    if let Some((n, eax)) = &r.cpuid {
        for call in ["KVM_GET_SUPPORTED_CPUID", "KVM_SET_CPUID2"] {
            let line = lines
                .iter()
                .find(|l| l.contains(call))
                .unwrap_or_else(|| panic!("no {call} in\n{text}"));
            let head =
                format!("{call}, {{nent={n}, entries=[{{function=0, index=0, flags=0, eax={eax}, ");
            assert!(line.contains(&head), "{head:?} not in\n{line}");
            assert_eq!(line.matches("{function=").count(), *n, "{line}");
            assert!(line.ends_with("}]}) = 0"), "{line}");
        }
    }
    // the exit reasons, in the program's order
    let name = |e: u32| match e {
        2 => "KVM_EXIT_IO",
        5 => "KVM_EXIT_HLT",
        _ => panic!("the program saw exit reason {e}"),
    };
    let want: Vec<String> = r
        .exits
        .iter()
        .map(|&e| format!("ioctl({vcpu}, KVM_RUN, 0) = 0 ({})", name(e)))
        .collect();
    let got: Vec<String> = lines
        .iter()
        .filter(|l| l.contains("KVM_RUN"))
        .cloned()
        .collect();
    assert_eq!(got, want, "\n{text}");
    assert_eq!(r.exits.len(), 4, "three `out`, then `hlt`: {:?}", r.exits);

    // without -e kvm=vcpu: no exit reason, and the structures abbreviated
    let (out, text) = trace(&[], &dir.join("plain.txt"));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let plain = fold(&text);
    let runs: Vec<&String> = plain.iter().filter(|l| l.contains("KVM_RUN")).collect();
    assert_eq!(runs.len(), 4, "{text}");
    assert!(runs.iter().all(|l| l.ends_with("= 0")), "{text}");
    if r.cpuid.is_some() {
        assert!(text.contains("entries=[...]}) = 0"), "{text}");
    }
    assert!(
        text.contains(
            "KVM_SET_REGS, {rax=0x78, ..., rsp=0, rbp=0, ..., rip=0x1000, rflags=0x2}) = 0"
        ),
        "{text}"
    );

    // anything else than vcpu: a one-line error
    let out = run(&mut genba_cmd(["trace", "-e", "kvm=all", "--", "true"]));
    assert_one_line_error(&out, "-e kvm=all");
    assert!(out.stderr.contains("kvm="), "{}", out.describe());
    let out = run(&mut genba_cmd(["trace", "--kvm=vcpus", "--", "true"]));
    assert_one_line_error(&out, "--kvm=vcpus");
}
