//! `genba record`: the recording is a Perfetto trace that Perfetto's own
//! bindings read (scripts/check_perfetto.py), and what it holds agrees with
//! what the programs measured of themselves.

#[macro_use]
mod common;

use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The checker's summary of a recording, or its complaint.
fn check(path: &Path, truncated: bool) -> Result<Value, String> {
    perfetto_check(path, truncated)
}

fn bindings() -> bool {
    perfetto_bindings()
}

fn slices_of(s: &Value, tid: u64, pred: impl Fn(&str) -> bool) -> Vec<&Value> {
    s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["tid"].as_u64() == Some(tid) && pred(x["name"].as_str().unwrap()))
        .collect()
}

/// Thread `tid`'s off-CPU slices of `class` blocked in `call` (None: in
/// any call, or none), as the checker lists them: named by their class
/// alone (one colour a class in the Perfetto UI), the call an argument.
fn offcpu_of<'a>(s: &'a Value, tid: u64, class: &str, call: Option<&str>) -> Vec<&'a Value> {
    s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| {
            x["tid"].as_u64() == Some(tid)
                && x["args"]["class"] == class
                && call.is_none_or(|c| x["args"]["syscall"] == c)
        })
        .inspect(|x| assert!(x["name"].as_str().unwrap().starts_with(class), "{x}"))
        .collect()
}

/// Two threads ping-pong a token over pipes, bracketing each blocking read
/// with their own clock: the recording has a track per thread, every call
/// they made, each blocked interval inside one of the thread's brackets,
/// woken by the other thread, every time.
#[test]
fn pingpong_against_the_programs_own_clock() {
    require_bpf!();
    if !bindings() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("record");
    let file = dir.join("pp.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr.contains("genba: 0 events lost"),
        "{}",
        out.describe()
    );
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let pid = truth["pid"].as_u64().unwrap();
    let sides = truth["threads"].as_array().unwrap();
    let threads = s["threads"].as_array().unwrap();
    let mut all_blocked = 0;
    for (k, side) in sides.iter().enumerate() {
        let tid = side["tid"].as_u64().unwrap();
        let other = sides[1 - k]["tid"].as_u64().unwrap();
        assert!(
            threads
                .iter()
                .any(|t| t[0].as_u64() == Some(pid) && t[1].as_u64() == Some(tid)),
            "no track for thread {tid} of {pid}: {threads:?}"
        );
        let brackets: Vec<(u64, u64)> = side["reads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap()))
            .collect();
        let inside = |x: &Value| {
            let ts = x["ts"].as_u64().unwrap();
            let end = ts + x["dur"].as_u64().unwrap();
            brackets.iter().any(|&(a, b)| a <= ts && end <= b)
        };
        // every call it made: its writes, and its reads inside its brackets
        let writes = slices_of(&s, tid, |n| n == "write");
        assert_eq!(writes.len() as u64, side["writes"].as_u64().unwrap());
        let reads = slices_of(&s, tid, |n| n == "read");
        assert_eq!(reads.len(), brackets.len(), "thread {tid}'s reads");
        for r in &reads {
            assert!(inside(r), "read outside the program's brackets: {r}");
            assert!(
                r["args"]["call"].as_str().unwrap().ends_with(", 1) = 1"),
                "{r}"
            );
        }
        // blocked in read: inside a bracket, at depth 1 (in the read), and
        // woken by the other thread, every time (a read the token reached
        // before the thread was off the CPU did not block: the kernel saw it
        // runnable at the switch, and that wait is [S] alone)
        let blocked = offcpu_of(&s, tid, "[B]", Some("read"));
        let mut unnamed = 0;
        for b in &blocked {
            assert!(inside(b), "blocked outside the program's brackets: {b}");
            assert_eq!(b["depth"], 1, "{b}");
            // a waker genba names is the other thread, always; a rare
            // wakeup it did not see (a race of the scheduler's tracepoints,
            // seen once in CI) leaves it unnamed, never wrong
            match b["args"]["waker_tid"].as_u64() {
                Some(w) => assert_eq!(w, other, "{b}"),
                None => unnamed += 1,
            }
        }
        assert!(
            unnamed * 20 <= blocked.len(),
            "{unnamed} of {} blocked reads without their waker",
            blocked.len()
        );
        // the wait for a CPU that follows each named wakeup names the same
        // waker (the flow's end): as many as the blocked reads named one (a
        // side may never block on a busy machine: then none)
        let woken = offcpu_of(&s, tid, "[S]", None);
        let mut checked = 0;
        for w in woken.iter().filter(|w| inside(w)) {
            if let Some(waker) = w["args"]["waker_tid"].as_u64() {
                assert_eq!(waker, other, "{w}");
                checked += 1;
            }
        }
        assert!(
            checked >= blocked.len() - unnamed,
            "{checked} [S] with their waker, {} blocked reads named one",
            blocked.len() - unnamed
        );
        all_blocked += blocked.len();
    }
    assert!(
        all_blocked > 0,
        "no read blocked in 400 rounds of ping-pong"
    );
    assert!(s["flows"].as_u64().unwrap() > 0, "no wakeup flows");
    // and each flow goes from the waker's track to the woken thread's
    assert_eq!(s["wakeups_checked"], s["flows"], "{}", s["wakeups_checked"]);
    // main waits in pthread_join: a futex wait for an event, [B], not a
    // lock (other waits of main's may be locks: pthread_create's mprotect
    // waits for the address space's lock, mmap_lock, while the new thread
    // faults its stack in, an [L] the kernel's stack names, seen in CI)
    assert!(
        offcpu_of(&s, pid, "[L]", Some("futex")).is_empty(),
        "{:?}",
        slices_of(&s, pid, |n| n.starts_with('['))
    );
    assert!(!offcpu_of(&s, pid, "[B]", Some("futex")).is_empty());
    // one name a class: the checker holds a recording to it, and every
    // class seen here is named in words after its tag
    for (class, names) in s["offcpu_names"].as_object().unwrap() {
        assert_eq!(names.as_array().unwrap().len(), 1, "{class}: {names}");
        assert!(
            names[0].as_str().unwrap().len() > class.len() + 1,
            "{names}"
        );
    }

    // cut short anywhere, it still reads up to its last whole packet, and
    // what it holds there is well formed: slices nested, every wakeup flow
    // that ends from the waker to the wakee (those under way at the cut
    // stay open), and more of it the further the cut
    let data = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.pftrace");
    let mut last = (0, 0);
    for k in 1..12 {
        let len = data.len() * k / 12;
        std::fs::write(&cut, &data[..len]).unwrap();
        let c = check(&cut, true).unwrap_or_else(|e| panic!("cut at {len}: {e}"));
        let now = (
            c["slices"].as_array().unwrap().len(),
            c["wakeups_checked"].as_u64().unwrap(),
        );
        assert!(
            now.0 >= last.0 && now.1 >= last.1,
            "cut at {len}: {now:?} after {last:?}"
        );
        last = now;
    }
    assert!(last.1 > 0, "no wakeup in the first 11/12 of the recording");
}

/// Bad input is one line and a non-zero exit; a recording that cannot be
/// written fails the run and says so.
#[test]
fn record_errors() {
    require_bpf!();
    let _s = serial();
    let out = run(&mut genba_cmd([
        "record",
        "--buffer-size",
        "3",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
    let out = run(&mut genba_cmd(["record"]));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    let out = run(&mut genba_cmd([
        "record",
        "-o",
        "/nonexistent/dir/r.pftrace",
        "--",
        "/bin/true",
    ]));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert!(out.stderr.contains("Can't create"), "{}", out.describe());
    // the recording's start is written out before the program runs: a
    // file that takes nothing fails the run then, and the program never
    // runs
    let dir = TempDir::new("record-full");
    let marker = dir.join("ran");
    let out = run(genba_cmd(["record", "-o", "/dev/full", "--", "touch"]).arg(&marker));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(
        out.stderr_messages(),
        ["genba: writing '/dev/full': No space left on device (os error 28)"],
        "{}",
        out.describe()
    );
    assert!(!marker.exists(), "the program ran");
}

/// -p records a running process until it ends; --no-syscalls leaves the
/// calls out and keeps the intervals; -s limits the strings in the calls.
#[test]
fn record_options() {
    require_bpf!();
    if !bindings() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("record-opts");
    // -p: a sleeper's nanosleep, from the attach to its end
    let mut sleeper = Command::new("sleep").arg("1").spawn().unwrap();
    let file = dir.join("p.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .args(["-p", &sleeper.id().to_string()]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    sleeper.wait().unwrap();
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let tid = u64::from(sleeper.id());
    assert!(
        !offcpu_of(&s, tid, "[B]", Some("clock_nanosleep")).is_empty()
            || !slices_of(&s, tid, |n| n == "clock_nanosleep").is_empty(),
        "{s}"
    );
    // --no-syscalls: intervals only
    let file = dir.join("n.pftrace");
    let out = run(genba_cmd(["record", "--no-syscalls", "-o"])
        .arg(&file)
        .args(["--", "sleep", "0.05"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert!(names.iter().all(|n| n.starts_with('[')), "{names:?}");
    // the mappings are still followed: the blocked interval has its site
    let sleep = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["args"]["class"] == "[B]" && x["args"]["syscall"] == "clock_nanosleep")
        .unwrap();
    assert!(
        sleep["args"]["site"]
            .as_str()
            .is_some_and(|site| site.contains("sleep")),
        "{sleep}"
    );
    assert!(names.contains(&"[B] other blocking"), "{names:?}");
    // -s 4: the decoded lines cut strings at 4 bytes, as strace -s does
    let file = dir.join("s.pftrace");
    let out =
        run(genba_cmd(["record", "-s", "4", "-o"])
            .arg(&file)
            .args(["--", "cat", "/etc/passwd"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let open = s["slices"].as_array().unwrap().iter().find(|x| {
        x["name"] == "execve"
            && x["args"]["call"]
                .as_str()
                .is_some_and(|c| c.contains("[\"cat\", \"/etc\"...]"))
    });
    assert!(open.is_some(), "no execve of [\"cat\", \"/etc\"...] in {s}");
    // on-CPU samples at -F's rate, none with --no-profile; --source: each
    // call's site
    let spin = [
        "sh",
        "-c",
        "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done",
    ];
    let mut counts = Vec::new();
    for (label, extra) in [
        ("lo", &["-F", "200"][..]),
        ("hi", &["-F", "4000"][..]),
        ("none", &["--no-profile"][..]),
    ] {
        let file = dir.join(&format!("{label}.pftrace"));
        let out = run(genba_cmd(["record", "--no-syscalls", "-o"])
            .arg(&file)
            .args(extra)
            .arg("--")
            .args(spin));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
        let samples = s["samples"].as_array().unwrap();
        // each sample's stack reaches the shell's own code
        if let Some(x) = samples.first() {
            assert!(!x["functions"].as_array().unwrap().is_empty(), "{x}");
        }
        counts.push(samples.len() as f64);
    }
    assert!(counts[0] > 0.0 && counts[2] == 0.0, "{counts:?}");
    // 20 times the rate: far more samples (the loop's CPU time varies a
    // little between runs on a busy machine)
    assert!(counts[1] > 5.0 * counts[0], "{counts:?}");
    // --stack-bytes: how much of each stack is copied, so how deep a
    // sample's stack reaches (Python's interpreter frames are deep)
    let mut depth = Vec::new();
    for bytes in ["512", "8192"] {
        let file = dir.join(&format!("sb{bytes}.pftrace"));
        let out = run(
            genba_cmd(["record", "--no-syscalls", "--stack-bytes", bytes, "-o"])
                .arg(&file)
                .args([
                    "--",
                    "python3",
                    "-c",
                    "def f(n): return f(n-1) if n else sum(range(3*10**6))\nf(40)",
                ]),
        );
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
        let deepest = s["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["functions"].as_array().unwrap().len())
            .max()
            .unwrap_or(0);
        depth.push(deepest);
    }
    assert!(
        depth[1] > depth[0] + 20,
        "deepest stacks (512, 8192 bytes): {depth:?}"
    );
    let file = dir.join("src.pftrace");
    let out = run(genba_cmd(["record", "--source", "--no-profile", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("file"))
        .arg(dir.path()));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let sited = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["args"]["call"].is_string())
        .filter(|x| {
            x["args"]["site"]
                .as_str()
                .is_some_and(|t| t.contains("main"))
        })
        .count();
    // (the test programs have no line information: `file(main+0x362)`)
    assert!(
        sited > 3,
        "calls with a site in the program's main: {sited}"
    );
}

// ---------------------------------------------------------------------------
// genba report
// ---------------------------------------------------------------------------

/// `genba report --format json` of a recording.
fn report_json(file: &Path) -> Value {
    let out = run(genba_cmd(["report", "--format", "json"]).arg(file));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", out.describe()))
}

/// Records `prog` and reports it: the -c table of the recording counts the
/// same calls and errors, syscall by syscall, as a live `trace -c -f`.
fn report_matches_live_summary(prog: &str) {
    let dir = TempDir::new(&format!("report-{prog}"));
    // the programs work in the directory they are given, and leave it empty
    let work = TempDir::new(&format!("report-{prog}-work"));
    let file = dir.join("r.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program(prog))
        .arg(work.path())
        .current_dir(work.path()));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    assert!(
        out.stderr.contains("genba: 0 events lost"),
        "{}",
        out.describe()
    );
    let rep = run(genba_cmd(["report"]).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    assert!(rep.stderr.trim().is_empty(), "{}", rep.describe());
    assert!(
        rep.stdout.contains("\n0 events lost\n"),
        "{}",
        rep.describe()
    );
    let recorded = parse_summary(&rep.stdout).unwrap_or_else(|e| panic!("report: {e}"));
    let live = run(genba_cmd(["trace", "-c", "-f"])
        .arg(program(prog))
        .arg(work.path())
        .current_dir(work.path()));
    assert_eq!(live.code(), Some(0), "{}", live.describe());
    let live_t = parse_summary(&live.stderr).unwrap_or_else(|e| panic!("trace -c: {e}"));
    assert!(recorded["total"].calls > 10, "{}", rep.stdout);
    assert_eq!(
        recorded, live_t,
        "report of a recording vs live trace -c -f of {prog}\n--- report ---\n{}\n--- trace -c ---\n{}",
        rep.stdout, live.stderr
    );
    // the JSON says the same, with percentiles inside each call's range
    let j = report_json(&file);
    for row in j["syscalls"].as_array().unwrap() {
        let name = row["syscall"].as_str().unwrap();
        assert_eq!(row["calls"].as_u64(), Some(recorded[name].calls), "{row}");
        assert_eq!(row["errors"].as_u64(), Some(recorded[name].errors), "{row}");
        let (min, max) = (
            row["min_ns"].as_u64().unwrap(),
            row["max_ns"].as_u64().unwrap(),
        );
        for p in ["p50_ns", "p99_ns"] {
            let v = row[p].as_u64().unwrap();
            assert!(min <= v && v <= max, "{p} out of range: {row}");
        }
    }
    assert_eq!(j["syscalls"].as_array().unwrap().len() + 1, recorded.len());
    assert_eq!(j["lost_events"].as_u64(), Some(0));
    assert!(j["truncated"].is_null(), "{j}");
    // export --format jsonl lists the calls genba trace prints, line for
    // line (addresses aside: each run maps its memory elsewhere)
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let hex = |s: &str| {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find("0x") {
            out.push_str(&rest[..i + 2]);
            rest = rest[i + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
        }
        out + rest
    };
    let pids = ["getppid", "getpid", "gettid", "set_tid_address"];
    let mut exported = Vec::new();
    let mut raw_checked = 0;
    for l in x.stdout.lines() {
        let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
        assert!(
            v["type"].is_string()
                && (v["type"] == "header" || v["ts"].is_u64() || v["pid"].is_u64()),
            "{l}"
        );
        // (the calls whose results are pids differ between the two runs)
        if v["type"] == "syscall"
            && v["unfinished"] == false
            && !pids.contains(&v["name"].as_str().unwrap())
        {
            let call = v["call"].as_str().unwrap();
            assert!(call.starts_with(v["name"].as_str().unwrap()), "{l}");
            // the raw arguments beside the decoded ones: a first argument
            // printed as a plain number (a descriptor) is the first register
            let raw = v["args"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            let first = call
                .split_once('(')
                .map(|(_, r)| r.split([',', ')']).next().unwrap_or(""));
            if let Some(n) = first.and_then(|f| f.parse::<u64>().ok()) {
                assert_eq!(raw.first().and_then(Value::as_u64), Some(n), "{l}");
                raw_checked += 1;
            }
            if v["ret"].as_i64().is_some_and(|r| r < 0) {
                assert!(v["errno"].is_string(), "{l}");
            }
            exported.push((v["ts"].as_u64().unwrap(), hex(call)));
        }
    }
    exported.sort();
    assert!(
        raw_checked > 5,
        "{raw_checked} calls with a descriptor first"
    );
    let text = run(genba_cmd(["trace", "-f", "-qq", "-e", "signal=none"])
        .arg(program(prog))
        .arg(work.path())
        .current_dir(work.path()));
    assert_eq!(text.code(), Some(0), "{}", text.describe());
    // strace's "call(args) = ret", the column padding folded, halves merged
    let traced: Vec<String> = parse_trace(&text.stderr)
        .iter()
        .map(|e| hex(&e.body))
        .filter(|b| !b.starts_with("+++") && !b.starts_with("---") && !b.ends_with("= ?"))
        .filter(|b| !pids.iter().any(|p| b.starts_with(&format!("{p}("))))
        .collect();
    let exported: Vec<String> = exported.into_iter().map(|(_, c)| c).collect();
    assert_eq!(exported, traced, "export --format jsonl vs trace of {prog}");
}

#[test]
fn report_summary_round_trip_file() {
    require_bpf!();
    let _s = serial();
    report_matches_live_summary("file");
}

#[test]
fn report_summary_round_trip_desc() {
    require_bpf!();
    let _s = serial();
    report_matches_live_summary("desc");
}

/// The ping-pong's threads: lifetimes split into running and the off-CPU
/// classes add up to the whole, its reads blocked ([B]), and the waiting of
/// each side was released by the other side.
#[test]
fn report_pingpong_threads_and_wakers() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("report-pp");
    let file = dir.join("pp.pftrace");
    let out = run(genba_cmd(["record", "--source", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let j = report_json(&file);
    let sides: Vec<u64> = truth["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tid"].as_u64().unwrap())
        .collect();
    let threads = j["threads"].as_array().unwrap();
    let mut blocked = 0.0;
    for (k, &tid) in sides.iter().enumerate() {
        let t = threads
            .iter()
            .find(|t| t["tid"].as_u64() == Some(tid))
            .unwrap_or_else(|| panic!("no thread {tid} in {j}"));
        assert!(t["lifetime_ns"].as_u64().unwrap() > 0, "{t}");
        let shares = t["shares_percent"].as_object().unwrap();
        let sum: f64 = shares.values().map(|v| v.as_f64().unwrap()).sum();
        assert!(
            (sum - 100.0).abs() <= 1.0,
            "shares of {tid} add to {sum}: {t}"
        );
        let off: u64 = t["off_cpu_ns"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert!(off <= t["lifetime_ns"].as_u64().unwrap(), "{t}");
        let b = shares["[B]"].as_f64().unwrap();
        blocked += b;
        // a side whose reads blocked was woken by the other side
        if b > 0.0 {
            assert_eq!(t["top_waker"].as_u64(), Some(sides[1 - k]), "{t}");
        }
    }
    assert!(
        blocked > 0.0,
        "no [B] share in 400 rounds of ping-pong: {j}"
    );
    // the wakers table: each side's released time is the other side's
    // blocked reads, and the [B] read row sums them
    let wakers = j["wakers"].as_array().unwrap();
    for w in wakers
        .iter()
        // (an interrupt's row has no tid: a timer may wake the main
        // thread's join)
        .filter(|w| w["tid"].as_u64().is_some_and(|t| sides.contains(&t)))
    {
        for x in w["wakees"].as_array().unwrap() {
            let wakee = x["tid"].as_u64().unwrap();
            assert!(
                wakee != w["tid"].as_u64().unwrap(),
                "a thread woke itself: {w}"
            );
        }
        // what it woke the other side from: its write to the pipe, in
        // play() (its exit, ending the thread main joins, is the exit call)
        let k = sides
            .iter()
            .position(|&t| Some(t) == w["tid"].as_u64())
            .unwrap();
        let other: u64 = w["wakees"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["tid"].as_u64() == Some(sides[1 - k]))
            .map(|x| x["released_ns"].as_u64().unwrap())
            .sum();
        let by_write: u64 = w["from"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| {
                x["call"]
                    .as_str()
                    .unwrap()
                    .starts_with("write at record_pingpong")
            })
            .map(|x| x["released_ns"].as_u64().unwrap())
            .sum();
        assert!(
            by_write * 10 >= other * 9,
            "writes released {by_write} of the {other} ns released: {w}"
        );
    }
    // blocked reads by call site: the read in play()
    let reads: Vec<&Value> = j["blocking"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["class"] == "[B]" && b["syscall"] == "read")
        .collect();
    assert!(!reads.is_empty(), "no [B] read row: {j}");
    for r in &reads {
        assert!(
            r["site"]
                .as_str()
                .unwrap_or("")
                .starts_with("record_pingpong"),
            "{r}"
        );
    }
    // recorded with --source: the calls by syscall and call site, as
    // trace -c --source prints them
    let sites = j["sites"].as_array().unwrap();
    // (the dynamic loader reads the program's libraries too)
    let site_reads: u64 = sites
        .iter()
        .filter(|x| {
            x["syscall"] == "read" && x["site"].as_str().unwrap().starts_with("record_pingpong")
        })
        .map(|x| x["calls"].as_u64().unwrap())
        .sum();
    let all_reads = j["syscalls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["syscall"] == "read")
        .map(|x| x["calls"].as_u64().unwrap())
        .unwrap_or(0);
    assert!(
        site_reads * 10 >= all_reads * 9 && site_reads <= all_reads,
        "{site_reads} of {all_reads}"
    );
    // the text report shows the same tables
    let rep = run(genba_cmd(["report"]).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    for head in [
        "threads (",
        "top blocking calls",
        "top wakers",
        "calls by site",
        REPORT_SUMMARY_HEADER,
    ] {
        assert!(rep.stdout.contains(head), "{head}: {}", rep.describe());
    }
    // a waker's "from" line names its write (the side that wakes main at
    // its exit lists its exit call first; the other side may never have
    // blocked on a busy machine)
    assert!(
        rep.stdout
            .lines()
            .any(|l| l.trim_start().starts_with("from ") && l.contains("write at record_pingpong")),
        "no waker from write: {}",
        rep.describe()
    );
}

/// `genba trace --record FILE`: the trace prints as ever, and the file
/// holds the calls it shows (here -e trace=read,write: no others, though
/// the mappings are followed for the intervals' stacks) with the blocked
/// intervals and their wakers.
#[test]
fn trace_also_records() {
    require_bpf!();
    if !bindings() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("trace-record");
    let file = dir.join("t.pftrace");
    let text = dir.join("t.txt");
    let out = run(genba_cmd(["trace", "-f", "-e", "trace=read,write", "-o"])
        .arg(&text)
        .arg("--record")
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr.contains("genba: 0 events lost"),
        "{}",
        out.describe()
    );
    let traced = std::fs::read_to_string(&text).unwrap();
    let lines = parse_trace(&traced);
    let count = |name: &str| {
        lines
            .iter()
            .filter(|e| e.syscall() == Some(name) && !e.body.ends_with("= ?"))
            .count()
    };
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let slices = s["slices"].as_array().unwrap();
    let calls: Vec<&str> = slices
        .iter()
        .filter(|x| x["args"]["call"].is_string())
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert!(
        calls.iter().all(|n| *n == "read" || *n == "write"),
        "calls the trace does not show were recorded: {calls:?}"
    );
    for name in ["read", "write"] {
        let n = calls.iter().filter(|c| **c == name).count();
        assert_eq!(n, count(name), "{name}: recorded vs traced");
        assert!(n >= 400, "{name}: {n}");
    }
    let woken = slices
        .iter()
        .filter(|x| {
            x["args"]["class"] == "[B]"
                && x["args"]["syscall"] == "read"
                && x["args"]["waker_tid"].is_u64()
        })
        .count();
    assert!(woken > 100, "blocked reads with their waker: {woken}");
    // the program's output is still the program's
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert!(truth["threads"].is_array());
    // a file that cannot be created: one line, and the program never runs
    for cmd in ["trace", "profile"] {
        let marker = dir.join(&format!("{cmd}-ran"));
        let out =
            run(genba_cmd([cmd, "--record", "/nonexistent/r.pftrace", "--", "touch"]).arg(&marker));
        assert_eq!(out.code(), Some(1), "{}", out.describe());
        assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
        assert!(!marker.exists(), "{cmd}: the program ran");
    }
}

/// `genba report --html`: one page that works in a real browser (headless
/// Chromium over its DevTools protocol, scripts/check_html.py): no console
/// error, no network request, a row for every thread of the program in the
/// timeline, a click on the flame graph zooms into the frame clicked, the
/// wheel zooms the timeline; the screenshot is kept for a look.
#[test]
fn report_html_in_a_browser() {
    require_bpf!();
    if !browser() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("report-html");
    let file = dir.join("pp.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let page = dir.join("r.html");
    let rep = run(genba_cmd(["report", "--html"]).arg(&page).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    assert!(rep.stdout.is_empty(), "{}", rep.describe());
    let html = std::fs::read_to_string(&page).unwrap();
    // self-contained: nothing loaded from elsewhere
    for needle in ["src=\"http", "href=\"http", "<link", "@import"] {
        assert!(!html.contains(needle), "the page refers to {needle}");
    }
    // the screenshot stays beside the target directory for a look
    let shot = target_dir().join("report-html.png");
    let v = check_html(&page, &shot);
    let rows: Vec<&str> = v["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    for t in truth["threads"].as_array().unwrap() {
        let tid = t["tid"].as_u64().unwrap().to_string();
        assert!(
            rows.iter().any(|r| r.ends_with(&format!(" {tid}"))),
            "thread {tid} not in the timeline: {rows:?}"
        );
    }
    assert!(v["syscall_rows"].as_u64().unwrap() > 5, "{v}");
    assert!(v["flame_nodes"].as_u64().unwrap() > 3, "{v}");
    assert!(v["clicked"].is_string(), "{v}");
    assert_eq!(v["flame_root_after_click"], v["clicked"], "{v}");
    let (before, after) = (
        v["window_before"].as_f64().unwrap(),
        v["window_after_wheel"].as_f64().unwrap(),
    );
    assert!(after < before, "the wheel did not zoom: {v}");
    assert!(std::fs::metadata(&shot).unwrap().len() > 10_000);
    // --html with a path that cannot be created: one line, exit 1
    let out = run(genba_cmd(["report", "--html", "/nonexistent/r.html"]).arg(&file));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
}

/// A recording cut short reports what is there and says where it ends; a
/// file that is not a recording, or is not there, is a one-line error.
#[test]
fn report_truncated_and_bad_files() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("report-cut");
    let file = dir.join("pp.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let data = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.pftrace");
    let mut last_calls = 0;
    let mut truncated = 0;
    for k in 1..16 {
        // odd offsets: almost always inside a packet
        let len = data.len() * k / 16 + 1;
        std::fs::write(&cut, &data[..len]).unwrap();
        let rep = run(genba_cmd(["report", "--format", "json"]).arg(&cut));
        assert_eq!(rep.code(), Some(0), "cut at {len}: {}", rep.describe());
        let j: Value = serde_json::from_str(rep.stdout.trim()).unwrap();
        let calls: u64 = j["syscalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["calls"].as_u64().unwrap())
            .sum();
        assert!(calls >= last_calls, "cut at {len}: fewer calls than before");
        last_calls = calls;
        // every cut is said: inside a packet as ever, else (a cut on a
        // packet's end) as a recording without its closing marker
        let t = j["truncated"]
            .as_object()
            .unwrap_or_else(|| panic!("cut at {len}, not said: {j}"));
        let at = t["at_byte"].as_u64().unwrap();
        let n = t["whole_packets"].as_u64().unwrap();
        let line = if t["reason"] == "cut inside a packet" {
            truncated += 1;
            assert!(at < len as u64, "{t:?}");
            format!(
                "genba: the recording is truncated at byte {at}, after {n} whole packets; read up to there"
            )
        } else {
            assert_eq!(t["reason"], "no closing marker", "{t:?}");
            assert_eq!(at, len as u64, "{t:?}");
            format!(
                "genba: the recording is cut short (it ends without its closing marker: genba was stopped before the end) at byte {at}, after {n} whole packets, its last event at {} ns; read up to there",
                t["last_ts"]
            )
        };
        assert!(t["last_ts"].is_u64(), "{t:?}");
        assert_eq!(rep.stderr_messages(), [line.as_str()], "{}", rep.describe());
        assert!(j["lost_events"].is_null(), "{j}");
        // the text report too
        let t = run(genba_cmd(["report"]).arg(&cut));
        assert_eq!(t.code(), Some(0), "{}", t.describe());
        assert!(t.stderr.contains(&line), "{}", t.describe());
        assert!(t.stdout.contains(REPORT_SUMMARY_HEADER), "{}", t.describe());
        // and every export: what is there, the cut said
        for format in ["jsonl", "chrome", "folded", "speedscope"] {
            let x = run(genba_cmd(["export", "--format", format]).arg(&cut));
            assert_eq!(x.code(), Some(0), "{format}: {}", x.describe());
            assert!(x.stderr.contains(&line), "{format}: {}", x.describe());
            if format == "chrome" {
                let v: Value = serde_json::from_str(&x.stdout)
                    .unwrap_or_else(|e| panic!("chrome JSON cut at {len}: {e}"));
                assert!(v["traceEvents"].is_array());
            }
            if format == "jsonl" {
                let last = x.stdout.lines().last().unwrap();
                let v: Value = serde_json::from_str(last).unwrap();
                assert_eq!(v["type"], "truncated", "{last}");
                assert_eq!(v["at_byte"], at, "{last}");
            }
        }
    }
    assert!(
        truncated >= 10,
        "only {truncated} of 15 cuts fell inside a packet"
    );
    // not a recording
    for cmd in [
        &["export", "--format", "jsonl"][..],
        &["export", "--format", "folded"][..],
    ] {
        let out = run(genba_cmd(cmd).arg("/etc/passwd"));
        assert_eq!(out.code(), Some(1), "{}", out.describe());
        assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
    }
    // -o: each profile format to its file
    for (format, magic) in [("pprof", &b"\x1f\x8b"[..]), ("flamegraph", &b"<?xml"[..])] {
        let o = dir.join(&format!("x.{format}"));
        let out = run(genba_cmd(["export", "--format", format, "-o"])
            .arg(&o)
            .arg(&file));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let bytes = std::fs::read(&o).unwrap();
        assert!(bytes.starts_with(magic), "{format}");
    }
    // folded: a line per stack, `frame;frame;... count`, the program's
    // threads among them
    let o = dir.join("x.folded");
    let out = run(genba_cmd(["export", "--format", "folded", "-o"])
        .arg(&o)
        .arg(&file));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let folded = std::fs::read_to_string(&o).unwrap();
    assert!(!folded.is_empty());
    for l in folded.lines() {
        let (stack, n) = l.rsplit_once(' ').unwrap_or_else(|| panic!("{l}"));
        assert!(
            !stack.is_empty() && n.parse::<u64>().is_ok_and(|n| n > 0),
            "{l}"
        );
    }
    assert!(folded.contains("record_pingpong"), "{folded}");
    // --rows bounds the profile's rows; bad -F and --stack-bytes are refused
    let t = run(genba_cmd(["report", "--rows", "1"]).arg(&file));
    assert_eq!(t.code(), Some(0), "{}", t.describe());
    assert!(t.stdout.contains("more rows)"), "{}", t.describe());
    for bad in [&["-F", "0"][..], &["--stack-bytes", "100"][..]] {
        let out = run(genba_cmd(["record"]).args(bad).args(["--", "true"]));
        assert_eq!(out.code(), Some(1), "{}", out.describe());
        assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
    }
    let out = run(genba_cmd(["export", "--format", "svg"]).arg(&file));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert!(
        out.stderr.contains("invalid --format 'svg'"),
        "{}",
        out.describe()
    );
    let out = run(&mut genba_cmd(["report", "/etc/passwd"]));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
    assert!(
        out.stderr.contains("/etc/passwd: not a Perfetto trace"),
        "{}",
        out.describe()
    );
    assert!(out.stdout.is_empty(), "{}", out.describe());
    // not there (and the default name, in a directory without one)
    let missing = dir.join("missing.pftrace");
    let out = run(genba_cmd(["report"]).arg(&missing));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
    assert!(out.stderr.contains("Can't open"), "{}", out.describe());
    let out = run(genba_cmd(["report"]).current_dir(dir.path()));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert!(out.stderr.contains("genba.pftrace"), "{}", out.describe());
}

/// `genba record -a -- CMD`: every process of the system, for as long as
/// the command runs: a shell that was running before genba started (its
/// calls, and the short processes it starts, named as they are), the
/// command itself, and nothing of genba's own process (but the wakeups it
/// made).
#[test]
fn record_whole_system() {
    require_bpf!();
    if !bindings() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("record-all");
    let file = dir.join("a.pftrace");
    let mut bg = Command::new("sh")
        .args(["-c", "while :; do sleep 0.01; done"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let child = genba_cmd(["record", "-a", "--no-profile", "-o"])
        .arg(&file)
        .args(["--", "sleep", "0.6"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let genba_pid = child.id() as u64;
    let out = child.wait_with_output().unwrap();
    let _ = bg.kill();
    let _ = bg.wait();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
    let threads = s["threads"].as_array().unwrap();
    let pid_of = |t: &Value| t[0].as_u64().unwrap();
    let bg_pid = bg.id() as u64;
    let slices = s["slices"].as_array().unwrap();
    // genba is there only as the waker it was (of a kernel thread, say)
    let own: Vec<&Value> = slices
        .iter()
        .filter(|x| {
            threads
                .iter()
                .any(|t| pid_of(t) == genba_pid && t[1] == x["tid"])
        })
        .collect();
    assert!(
        own.is_empty(),
        "genba's own calls or waits were recorded: {own:?}"
    );
    let calls_of = |pid: u64| -> Vec<&str> {
        let tids: Vec<u64> = threads
            .iter()
            .filter(|t| pid_of(t) == pid)
            .map(|t| t[1].as_u64().unwrap())
            .collect();
        slices
            .iter()
            .filter(|x| x["args"]["call"].is_string() && tids.contains(&x["tid"].as_u64().unwrap()))
            .map(|x| x["name"].as_str().unwrap())
            .collect()
    };
    // the shell, running before genba: it waits for its children
    let sh = calls_of(bg_pid);
    assert!(
        sh.contains(&"wait4"),
        "the background shell's calls: {sh:?}"
    );
    let named = |n: &str| threads.iter().filter(|t| t[2] == n).count();
    // the shell's threads and its children's have their names, those met
    // only as they ended too (their exit says it). (Not every process of
    // the machine: one may name itself "" with prctl(PR_SET_NAME), as
    // strace's own prctl-name test does, seen in a run beside it.)
    let children: Vec<u64> = slices
        .iter()
        .filter(|x| {
            threads
                .iter()
                .any(|t| pid_of(t) == bg_pid && t[1] == x["tid"])
                && ["clone", "clone3", "fork", "vfork"].contains(&x["name"].as_str().unwrap())
        })
        .filter_map(|x| x["args"]["ret"].as_i64())
        .filter(|&r| r > 0)
        .map(|r| r as u64)
        .collect();
    assert!(!children.is_empty(), "the shell started no process: {sh:?}");
    let ours: Vec<&Value> = threads
        .iter()
        .filter(|t| pid_of(t) == bg_pid || children.contains(&pid_of(t)))
        .collect();
    assert!(
        ours.iter()
            .all(|t| t[2].as_str().is_some_and(|n| !n.is_empty())),
        "{ours:?}"
    );
    assert!(named("sh") >= 1, "{threads:?}");
    // the sleeps it started while genba recorded, from their exec on
    assert!(named("sleep") >= 5, "{threads:?}");
    let sleeps: Vec<&str> = slices
        .iter()
        .filter(|x| {
            x["args"]["call"]
                .as_str()
                .is_some_and(|c| c.starts_with("execve(\"/usr/bin/sleep\""))
        })
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert!(sleeps.len() >= 5, "{} execs of sleep", sleeps.len());
    // the shell (in wait4) or its sleep (in clock_nanosleep) was in a call
    // as the recording stopped: the call is there, unfinished, to the end
    let open: Vec<&str> = slices
        .iter()
        .filter_map(|x| x["args"]["call"].as_str())
        .filter(|c| c.ends_with("<unfinished>") && !c.starts_with("exit"))
        .collect();
    assert!(
        open.iter()
            .any(|c| c.starts_with("wait4(") || c.starts_with("clock_nanosleep(")),
        "calls in progress at the stop: {open:?}"
    );
    // the report reads it: the system-call summary has them all
    let r = report_json(&file);
    let rows = r["syscalls"].as_array().unwrap_or_else(|| panic!("{r}"));
    for call in ["wait4", "execve", "clock_nanosleep"] {
        assert!(
            rows.iter().any(|x| x["syscall"] == call),
            "{call}: {}",
            r["syscalls"]
        );
    }
}

/// `genba record -p PID` stopped by Ctrl-C while the process sleeps: its
/// wait is in the recording from the attach to the stop (opened from /proc
/// at the attach, closed at the stop), as `genba profile -p` counts it.
#[test]
fn record_attached_until_stopped() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-p");
    let file = dir.join("p.pftrace");
    let mut sleeper = Command::new("sleep").arg("30").spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let mut g = genba_cmd(["record", "-o"])
        .arg(&file)
        .args(["-p", &sleeper.id().to_string()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // wait for the attach, then let it record a while
    let mut err = g.stderr.take().unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 256];
    while !seen.contains("attached") {
        use std::io::Read;
        let n = err.read(&mut buf).unwrap();
        assert!(n > 0, "genba ended before attaching: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let attached = std::time::Instant::now();
    std::thread::sleep(std::time::Duration::from_millis(700));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(g.id() as i32, libc::SIGINT) };
    let status = g.wait().unwrap();
    let recorded_ms = attached.elapsed().as_millis() as u64;
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert!(status.success(), "{status:?}: {seen}");
    perfetto_checked(&file);
    let out = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let pid = sleeper.id() as u64;
    let waits: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "offcpu" && v["tid"].as_u64() == Some(pid))
        .collect();
    let total: u64 = waits.iter().map(|v| v["dur"].as_u64().unwrap_or(0)).sum();
    // at least the 0.7 s between the attach and the stop, at most the run
    assert!(
        total >= 650_000_000 && total <= (recorded_ms + 1000) * 1_000_000,
        "{total} ns of waiting recorded in {recorded_ms} ms: {waits:?}"
    );
}

/// A write+fsync loop, recorded: the thread's exact run-queue time ([S],
/// from the wakeup's reaching a run queue to the switch-in) against the
/// run_delay the kernel counted for it (its schedstat), within 5 points of
/// its wall time. A wait ended at the waker's moment instead (sched_waking)
/// counted each I/O completion's IPI to an idle CPU as [S]: 59 ms against
/// 13 ms in 300 ms.
#[test]
fn recorded_run_queue_time_is_the_kernels() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-fsync");
    let work = TempDir::new("record-fsync-work");
    let file = dir.join("f.pftrace");
    // built here (the profile tests build the same program into
    // programs_dir()/profile; this one stays in its own directory)
    let prog = dir.join("profile_fsync");
    let st = Command::new("gcc")
        .args(["-O2", "-g", "-Wall", "-o"])
        .arg(&prog)
        .arg(repo_root().join("tests/programs/profile/profile_fsync.c"))
        .status()
        .unwrap();
    assert!(st.success());
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&prog)
        .arg(work.path())
        .arg("300"));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let j = report_json(&file);
    let t = j["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tid"] == truth["tid"])
        .unwrap_or_else(|| panic!("{j}"));
    let wall = truth["wall_ns"].as_f64().unwrap();
    let genba = t["off_cpu_ns"]["[S]"].as_f64().unwrap() * 100.0 / wall;
    let kernel = truth["runq_ns"].as_f64().unwrap() * 100.0 / wall;
    assert!(
        (genba - kernel).abs() <= 5.0,
        "[S] {genba:.1}% of the wall time, the kernel's run_delay {kernel:.1}%: {t}"
    );
}

/// A process that spins until dropped (killed and reaped then, even when
/// the test fails).
struct Spinner(std::process::Child);

impl Spinner {
    fn start() -> Spinner {
        Spinner(
            Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .expect("sh"),
        )
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A program's nanosleeps, recorded while two busy loops keep both CPUs
/// running: the timer that ends each sleep fires in an interrupt on
/// whichever task runs there (a busy loop, mostly), which did not wake
/// anyone. No wakeup of the sleeper names a busy loop (or any thread) as
/// its waker; the sleeps are woken by a timer, as the jsonl export and the
/// report's wakers say.
#[test]
fn timer_wakeups_are_not_the_interrupted_tasks() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-timer");
    let file = dir.join("t.pftrace");
    let spinners = [Spinner::start(), Spinner::start()];
    let spin_tids: Vec<u64> = spinners.iter().map(|s| u64::from(s.0.id())).collect();
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_timer_sleeps")));
    // the busy loops still ran all along: they were there to be interrupted
    let alive: Vec<bool> = spinners
        .iter()
        .map(|s| Path::new(&format!("/proc/{}/stat", s.0.id())).exists())
        .collect();
    drop(spinners);
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(alive, [true, true]);
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let tid = truth["tid"].as_u64().unwrap();
    assert_eq!(truth["sleeps"], 50, "{truth}");
    // the file as Perfetto reads it: a busy loop has no track (a waker's
    // wakeup instant would have made it one)
    if bindings() {
        let s = check(&file, false).unwrap_or_else(|e| panic!("{e}"));
        let threads = s["threads"].as_array().unwrap();
        for t in threads {
            assert!(!spin_tids.contains(&t[1].as_u64().unwrap()), "{t}");
        }
    }

    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let events: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let sleeps: Vec<&Value> = events
        .iter()
        .filter(|e| {
            e["type"] == "offcpu"
                && e["tid"].as_u64() == Some(tid)
                && e["class"] == "[B]"
                && e["syscall"]
                    .as_str()
                    .is_some_and(|s| s.contains("nanosleep"))
        })
        .collect();
    // a sleep whose timer fired before the thread was off the CPU did not
    // block; most do
    assert!(sleeps.len() >= 40, "{} blocked sleeps", sleeps.len());
    let mut timer = 0;
    for e in &sleeps {
        assert!(e["waker_tid"].is_null(), "a thread woke a sleep: {e}");
        match e["waker"].as_str() {
            Some("timer") => timer += 1,
            None => {}
            Some(other) => panic!("woken by {other}: {e}"),
        }
    }
    // a rare wakeup genba did not see leaves it unnamed, never wrong
    assert!(
        timer * 20 >= sleeps.len() * 19,
        "{timer} of {} sleeps woken by a timer",
        sleeps.len()
    );
    // no wakeup edge from a busy loop (nor the sleeper's own wakeups)
    for e in events.iter().filter(|e| e["type"] == "wakeup") {
        let waker = e["waker_tid"].as_u64().unwrap();
        assert!(!spin_tids.contains(&waker), "{e}");
        assert_eq!(e["waker"], "thread", "{e}");
    }

    // the report: the sleeper's top waker is the timer, a row of its own
    let j = report_json(&file);
    let t = j["threads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tid"].as_u64() == Some(tid))
        .unwrap_or_else(|| panic!("{j}"));
    assert_eq!(t["top_waker_kind"], "timer", "{t}");
    assert_eq!(t["top_waker_name"], "(timer)", "{t}");
    assert!(t["top_waker"].is_null(), "{t}");
    let wakers = j["wakers"].as_array().unwrap();
    for w in wakers {
        if let Some(w) = w["tid"].as_u64() {
            assert!(!spin_tids.contains(&w), "{j}");
        }
    }
    let row = wakers
        .iter()
        .find(|w| w["waker"] == "timer")
        .unwrap_or_else(|| panic!("no timer waker: {}", j["wakers"]));
    assert_eq!(row["name"], "(timer)");
    assert!(row["tid"].is_null(), "{row}");
    assert!(row["wakeups"].as_u64().unwrap() >= timer as u64, "{row}");
    let text = run(genba_cmd(["report"]).arg(&file));
    assert_eq!(text.code(), Some(0), "{}", text.describe());
    assert!(
        text.stdout
            .lines()
            .any(|l| l.split_whitespace().take(2).eq(["-", "(timer)"])),
        "{}",
        text.stdout
    );
}

/// Two threads ping-pong a byte over TCP on the loopback interface: each
/// send wakes the other thread from a softirq that the sender raised and
/// runs itself, on its way out of its call. That softirq is the sender's
/// doing, not an interrupt's: every blocked recvfrom is woken by the other
/// thread (or, rarely, by no one genba saw), never by "(softirq)".
#[test]
fn loopback_wakeups_are_the_senders() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-tcp");
    let file = dir.join("t.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_tcp_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let client = truth["client"].as_u64().unwrap();
    let server = truth["server"].as_u64().unwrap();
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let mut blocked = 0;
    let mut by_other = 0;
    for l in x.stdout.lines() {
        let e: Value = serde_json::from_str(l).unwrap();
        let Some(tid) = e["tid"].as_u64().filter(|t| [client, server].contains(t)) else {
            continue;
        };
        if e["type"] != "offcpu" || e["class"] == "[S]" || e["syscall"] != "recvfrom" {
            continue;
        }
        blocked += 1;
        let other = if tid == client { server } else { client };
        match (e["waker"].as_str(), e["waker_tid"].as_u64()) {
            (Some("thread"), Some(w)) => {
                assert_eq!(w, other, "{e}");
                by_other += 1;
            }
            (None, None) => {}
            _ => panic!("a loopback wakeup not the sender's: {e}"),
        }
    }
    assert!(blocked >= 100, "{blocked} blocked receives in 300 rounds");
    assert!(
        by_other * 20 >= blocked * 19,
        "{by_other} of {blocked} blocked receives woken by the other thread"
    );
}

// ---------------------------------------------------------------------------
// A recording cut short, losses in time, the progress line, the schema
// ---------------------------------------------------------------------------

/// `genba record` killed with SIGKILL while its program runs: the file
/// holds what was written out before (every half second), and report and
/// export read it and say it was cut short, and where.
#[test]
fn killed_recording_is_read_and_said_cut_short() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-kill");
    let file = dir.join("k.pftrace");
    // the program says its pid once it runs, then sleeps (killed before)
    let mut g = genba_cmd(["record", "-o"])
        .arg(&file)
        .args(["--", "sh", "-c", "echo $$; exec sleep 30"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    {
        use std::io::BufRead;
        let mut out = std::io::BufReader::new(g.stdout.take().unwrap());
        out.read_line(&mut line).unwrap();
    }
    let pid: i32 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no pid from the program: {line:?}"));
    // until the shell's exec of sleep (the second execve) is written out
    // (every half second; later on a busy machine), then the kill
    let start = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(200));
        let r = run(genba_cmd(["report", "--format", "json"]).arg(&file));
        let seen = serde_json::from_str::<Value>(r.stdout.trim())
            .ok()
            .and_then(|j| {
                j["syscalls"].as_array().map(|a| {
                    a.iter()
                        .any(|r| r["syscall"] == "execve" && r["calls"].as_u64() >= Some(2))
                })
            })
            .unwrap_or(false);
        if seen {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "the shell's execve never reached the file"
        );
    }
    // SAFETY: signalling our own child, then the program it left behind.
    unsafe {
        libc::kill(g.id() as i32, libc::SIGKILL);
    }
    let _ = g.wait();
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    let len = std::fs::metadata(&file).unwrap().len();
    assert!(len > 0, "the killed recording is empty");
    // well formed up to where it ends, with the shell's exec of sleep (a
    // call is written when it returns: the sleep's own is not there)
    if bindings() {
        let c = check(&file, true).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !slices_of(&c, pid as u64, |n| n == "execve").is_empty(),
            "{c}"
        );
    }
    let rep = run(genba_cmd(["report", "--format", "json"]).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    let j: Value = serde_json::from_str(rep.stdout.trim()).unwrap();
    let t = &j["truncated"];
    assert_eq!(t["reason"], "no closing marker", "{j}");
    assert_eq!(t["at_byte"].as_u64(), Some(len), "{t}");
    assert!(t["whole_packets"].as_u64().unwrap() > 5, "{t}");
    let last = t["last_ts"].as_u64().unwrap_or_else(|| panic!("{t}"));
    assert_eq!(t["lost_so_far"].as_u64(), Some(0), "{t}");
    assert!(j["lost_events"].is_null(), "{j}");
    let line = format!(
        "genba: the recording is cut short (it ends without its closing marker: genba was stopped before the end) at byte {len}, after {} whole packets, its last event at {last} ns; read up to there",
        t["whole_packets"]
    );
    assert_eq!(rep.stderr_messages(), [line.as_str()], "{}", rep.describe());
    // what the program did before the kill is there: the shell's exec of
    // sleep, on its own pid
    let calls: Vec<&str> = j["syscalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["syscall"].as_str().unwrap())
        .collect();
    assert!(calls.contains(&"execve"), "{calls:?}");
    let text = run(genba_cmd(["report"]).arg(&file));
    assert_eq!(text.code(), Some(0), "{}", text.describe());
    assert_eq!(
        text.stderr_messages(),
        [line.as_str()],
        "{}",
        text.describe()
    );
    assert!(
        text.stdout
            .contains("events lost: 0 up to where the recording ends"),
        "{}",
        text.describe()
    );
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    assert_eq!(x.stderr_messages(), [line.as_str()], "{}", x.describe());
    let lines: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cut = lines.last().unwrap();
    assert_eq!(cut["type"], "truncated", "{cut}");
    assert_eq!(cut["reason"], "no closing marker", "{cut}");
    assert_eq!(cut["at_byte"].as_u64(), Some(len), "{cut}");
    assert_eq!(cut["last_ts"].as_u64(), Some(last), "{cut}");
    assert!(
        lines
            .iter()
            .any(|v| v["type"] == "exec" && v["pid"] == pid && v["path"] == "/usr/bin/sleep"),
        "{}",
        x.stdout
    );
    assert!(!lines.iter().any(|v| v["type"] == "end"), "{}", x.stdout);
    for format in ["chrome", "folded", "pprof"] {
        let x = run(genba_cmd(["export", "--format", format]).arg(&file));
        assert_eq!(x.code(), Some(0), "{format}: {}", x.describe());
        assert_eq!(
            x.stderr_messages(),
            [line.as_str()],
            "{format}: {}",
            x.describe()
        );
    }
}

/// On a terminal the progress line is redrawn in place and ended before
/// genba's next line: `genba: N events lost` starts a line of its own, and
/// no blank line follows.
#[test]
fn progress_line_ends_before_the_next_line() {
    require_bpf!();
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !prerequisite(has_script, "script (util-linux) is missing") {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("record-progress");
    let file = dir.join("p.pftrace");
    let cmd = format!(
        "{} record -o {} -- sleep 1.5",
        genba().display(),
        file.display()
    );
    let out = run(Command::new("script").args(["-qec", &cmd, "/dev/null"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    // the terminal's lines (its \r\n), each redrawn part of the progress
    // line apart
    let lines: Vec<&str> = out
        .stdout
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let progress = lines
        .iter()
        .position(|l| l.contains("genba: recording "))
        .unwrap_or_else(|| panic!("no progress line: {:?}", out.stdout));
    for part in lines[progress].split('\r').filter(|p| !p.is_empty()) {
        assert!(
            part.starts_with("genba: recording ") && part.ends_with(" lost "),
            "{part:?} in {:?}",
            lines[progress]
        );
    }
    assert_eq!(lines[progress + 1], "genba: 0 events lost", "{lines:?}");
    assert!(
        lines[progress + 2].starts_with("genba: recorded "),
        "{lines:?}"
    );
    // nothing after but the end of the last line
    assert!(
        lines[progress + 3..].iter().all(|l| l.is_empty()),
        "{lines:?}"
    );
    assert_eq!(lines.len(), progress + 4, "{lines:?}");
    perfetto_checked(&file);
}

/// Lost events are counted through the run: the counter starts at 0, has a
/// sample where the losses were seen (before the program's end), and its
/// last sample is the total genba said. Losses are forced with the smallest
/// ring buffer and a program making a million calls as fast as it can.
#[test]
fn losses_are_placed_in_time() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-lost");
    let file = dir.join("l.pftrace");
    let out = run(
        genba_cmd(["record", "--buffer-size", "1", "--no-profile", "-o"])
            .arg(&file)
            .args([
                "--",
                "dd",
                "if=/dev/zero",
                "of=/dev/null",
                "bs=1",
                "count=400000",
            ]),
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let said = out
        .stderr
        .lines()
        .find_map(events_lost)
        .unwrap_or_else(|| panic!("{}", out.describe()));
    perfetto_checked(&file);
    if said == 0 {
        // the consumer kept up with a 1 MiB ring on this run: the series
        // then says 0 throughout, which is checked; nothing to place
        let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
        assert_eq!(x.code(), Some(0), "{}", x.describe());
        let lost: Vec<Value> = x
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["type"] == "lost")
            .collect();
        assert!(!lost.is_empty(), "{}", x.stdout);
        assert!(lost.iter().all(|v| v["events"] == 0), "{lost:?}");
        eprintln!("losses_are_placed_in_time: no event lost on this run");
        return;
    }
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let lines: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lost: Vec<&Value> = lines.iter().filter(|v| v["type"] == "lost").collect();
    let exit = lines
        .iter()
        .filter(|v| v["type"] == "exit")
        .map(|v| v["ts"].as_u64().unwrap())
        .max()
        .unwrap_or_else(|| panic!("no exit: {}", tail(&x.stdout, 5)));
    let first_call = lines
        .iter()
        .filter(|v| v["type"] == "syscall")
        .map(|v| v["ts"].as_u64().unwrap())
        .min()
        .unwrap();
    // 0 at the start, before the program's first call
    assert_eq!(lost[0]["events"], 0, "{lost:?}");
    assert!(lost[0]["ts"].as_u64().unwrap() < first_call, "{lost:?}");
    // counted while the program ran
    assert!(
        lost.iter()
            .any(|v| v["events"].as_u64().unwrap() > 0 && v["ts"].as_u64().unwrap() < exit),
        "no loss counted before the program's end at {exit}: {lost:?}"
    );
    // a running total: never down, `new` the difference, the last one the
    // total said
    let mut prev = 0;
    for v in &lost {
        let n = v["events"].as_u64().unwrap();
        assert!(n >= prev, "{lost:?}");
        assert_eq!(v["new"].as_u64(), Some(n - prev), "{v}");
        prev = n;
    }
    assert_eq!(prev, said, "{lost:?}");
    let end = lines.iter().find(|v| v["type"] == "end").unwrap();
    assert_eq!(end["lost_events"].as_u64(), Some(said), "{end}");
    // the report's count is the whole run's
    let j = report_json(&file);
    assert_eq!(
        j["lost_events"].as_u64(),
        Some(said),
        "{}",
        j["lost_events"]
    );
    assert!(j["truncated"].is_null(), "{}", j["truncated"]);
}

/// A documented field: its name, its JSON type, whether it may be null.
type Field = (String, String, bool);

/// The jsonl line types and their fields as docs/RECORDING.md lists them.
fn documented_schema() -> Vec<(String, Vec<Field>)> {
    let doc = std::fs::read_to_string(repo_root().join("docs/RECORDING.md")).unwrap();
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("jsonl"))
        .expect("a jsonl section");
    let mut out = Vec::new();
    for row in section
        .lines()
        .filter(|l| l.starts_with("| `") && !l.starts_with("| `type`"))
    {
        let cells: Vec<&str> = row.split(" | ").collect();
        let ty = cells[0]
            .trim_start_matches("| ")
            .trim_matches('`')
            .to_string();
        let mut fields = Vec::new();
        for f in cells[1].split(", ") {
            let (name, kind) = f
                .split_once(' ')
                .unwrap_or_else(|| panic!("field {f:?} of {ty} has no type"));
            let (kind, null) = match kind.strip_suffix("/null") {
                Some(k) => (k, true),
                None => (kind, false),
            };
            assert!(
                ["int", "string", "bool", "array", "object"].contains(&kind),
                "{ty}: {f:?}"
            );
            fields.push((name.trim_matches('`').to_string(), kind.to_string(), null));
        }
        out.push((ty, fields));
    }
    out
}

/// Pins the jsonl schema: for every line type docs/RECORDING.md lists, a
/// recording of a real program that has it, and every line of it has the
/// documented fields, no others, each of the documented JSON type; the
/// header's version is the documented one.
#[test]
fn jsonl_schema_is_what_the_doc_says() {
    require_bpf!();
    let _s = serial();
    let schema = documented_schema();
    assert!(schema.len() >= 15, "{schema:?}");
    let dir = TempDir::new("record-schema");
    let mut lines: Vec<Value> = Vec::new();
    let mut export = |file: &Path| {
        let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(file));
        assert_eq!(x.code(), Some(0), "{}", x.describe());
        for l in x.stdout.lines() {
            lines.push(serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")));
        }
    };
    // a shell that takes a signal, spins (on-CPU samples), forks, execs
    // the ping-pong (threads, blocked reads, wakeups) and waits for it
    let file = dir.join("s.pftrace");
    let out = run(genba_cmd(["record", "--source", "-o"]).arg(&file).args([
        "--",
        "sh",
        "-c",
        "trap : USR1; kill -USR1 $$; i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; \"$0\" >/dev/null",
    ]).arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    export(&file);
    // cut in the middle: the truncated line
    let data = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.pftrace");
    std::fs::write(&cut, &data[..data.len() / 2 + 1]).unwrap();
    export(&cut);
    // the GPU lines: an OpenCL program with --gpu
    let gpu_bin = dir.join("opencl_vadd");
    let opencl = Command::new("gcc")
        .args(["-O1", "-o"])
        .arg(&gpu_bin)
        .arg(repo_root().join("tests/programs/gpu/opencl_vadd.c"))
        .arg("-lOpenCL")
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(&gpu_bin)
            .args(["plain", "64", "1"])
            .output()
            .is_ok_and(|o| o.status.success());
    let gpu = prerequisite(
        opencl,
        "no working OpenCL (scripts/deps.sh installs pocl and the headers): the gpu_* lines are not checked",
    );
    if gpu {
        let file = dir.join("g.pftrace");
        let out = run(genba_cmd(["record", "--gpu", "-o"])
            .arg(&file)
            .arg("--")
            .arg(&gpu_bin)
            .args(["plain", "64", "1"]));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        perfetto_checked(&file);
        export(&file);
    }
    let header = &lines[0];
    assert_eq!(header["type"], "header");
    assert_eq!(header["schema"], "genba-jsonl");
    let doc = std::fs::read_to_string(repo_root().join("docs/RECORDING.md")).unwrap();
    let title = format!(
        "## jsonl, version {} (minor {})",
        header["version"], header["minor"]
    );
    assert!(doc.contains(&title), "the doc has no {title:?}");
    let is = |v: &Value, kind: &str| match kind {
        "int" => v.is_i64() || v.is_u64(),
        "string" => v.is_string(),
        "bool" => v.is_boolean(),
        "array" => v.is_array(),
        _ => v.is_object(),
    };
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for v in &lines {
        let ty = v["type"].as_str().unwrap_or_else(|| panic!("no type: {v}"));
        let (_, fields) = schema
            .iter()
            .find(|(t, _)| t == ty)
            .unwrap_or_else(|| panic!("line type {ty} is not in docs/RECORDING.md: {v}"));
        for (name, kind, null) in fields {
            let x = v
                .get(name)
                .unwrap_or_else(|| panic!("{ty} without its field {name}: {v}"));
            assert!(
                is(x, kind) || (*null && x.is_null()),
                "{ty}.{name} is not {kind}{}: {v}",
                if *null { " or null" } else { "" }
            );
        }
        for k in v.as_object().unwrap().keys() {
            assert!(
                k == "type" || fields.iter().any(|(n, _, _)| n == k),
                "{ty}.{k} is not in docs/RECORDING.md: {v}"
            );
        }
        *seen.entry(ty.to_string()).or_default() += 1;
    }
    for (ty, _) in &schema {
        if ty.starts_with("gpu_") && !gpu {
            continue;
        }
        assert!(
            seen.contains_key(ty),
            "no {ty} line in the recordings: {seen:?}"
        );
    }
}

/// A small xorshift: the cut offsets, the same on every run.
fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A recording cut at 100 offsets (seeded, the same each run): no output
/// of report or export crashes on it; each ends 0 (what is there, and the
/// cut said) or 1 (one line: not a recording, for a cut before the first
/// whole packet).
#[test]
fn cut_anywhere_never_crashes() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("record-fuzz");
    let file = dir.join("pp.pftrace");
    let out = run(genba_cmd(["record", "--source", "-o"])
        .arg(&file)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let data = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.pftrace");
    let page = dir.join("cut.html");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut read = 0;
    for k in 0..100 {
        // a few cuts in the first packets, the rest anywhere
        let len = if k < 10 {
            (xorshift(&mut seed) % 200) as usize
        } else {
            (xorshift(&mut seed) % data.len() as u64) as usize
        };
        std::fs::write(&cut, &data[..len]).unwrap();
        let runs: Vec<(String, Output)> = [
            &["report"][..],
            &["report", "--format", "json"][..],
            &["export", "--format", "jsonl"][..],
            &["export", "--format", "chrome"][..],
            &["export", "--format", "folded"][..],
            &["export", "--format", "flamegraph"][..],
            &["export", "--format", "pprof"][..],
            &["export", "--format", "speedscope"][..],
        ]
        .iter()
        .map(|a| (a.join(" "), run(genba_cmd(*a).arg(&cut))))
        .chain(std::iter::once((
            "report --html".to_string(),
            run(genba_cmd(["report", "--html"]).arg(&page).arg(&cut)),
        )))
        .collect();
        for (what, o) in &runs {
            match o.code() {
                Some(0) => {
                    assert!(
                        o.stderr.contains("genba: the recording is"),
                        "{what}, cut at {len}: the cut not said: {}",
                        o.describe()
                    );
                    read += 1;
                }
                Some(1) => assert_eq!(
                    o.stderr_messages().len(),
                    1,
                    "{what}, cut at {len}: {}",
                    o.describe()
                ),
                _ => panic!("{what}, cut at {len}: {}", o.describe()),
            }
            assert!(
                !o.stderr.contains("panicked"),
                "{what}, cut at {len}: {}",
                o.describe()
            );
        }
        // the JSON outputs are whole JSON, cut or not
        if runs[1].1.code() == Some(0) {
            let _: Value = serde_json::from_str(runs[1].1.stdout.trim())
                .unwrap_or_else(|e| panic!("report json cut at {len}: {e}"));
            let _: Value = serde_json::from_str(&runs[3].1.stdout)
                .unwrap_or_else(|e| panic!("chrome cut at {len}: {e}"));
        }
    }
    assert!(read > 700, "only {read} of 900 outputs read the cut file");
}

/// A recording of format 2 named its off-CPU slices by class and call
/// (`[B] read`, `[S] runnable`); format 3 names them by class alone, the
/// call an argument. A recording rewritten as format 2 wrote it
/// (scripts/recording_as_format2.py) reports and exports as the recording
/// itself does: the same report, the same jsonl (its format aside), the
/// same chrome trace and timeline page.
#[test]
fn format_2_recordings_read_as_before() {
    require_bpf!();
    if !bindings() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("record-format2");
    let new = dir.join("new.pftrace");
    let out = run(genba_cmd(["record", "--source", "-o"])
        .arg(&new)
        .arg("--")
        .arg(program("record_pingpong")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let s = check(&new, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s["format"], 3, "{}", s["format"]);
    let old = dir.join("old.pftrace");
    let conv = Command::new("python3")
        .arg(repo_root().join("scripts/recording_as_format2.py"))
        .arg(&new)
        .arg(&old)
        .output()
        .expect("python3");
    assert!(conv.status.success(), "{conv:?}");
    let renamed: u64 = String::from_utf8_lossy(&conv.stdout)
        .trim()
        .parse()
        .unwrap();
    assert!(renamed > 100, "{renamed} off-CPU slices rewritten");
    let o = check(&old, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o["format"], 2);
    // the old names: the call in them
    assert!(
        o["offcpu_names"]["[B]"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n == "[B] read"),
        "{}",
        o["offcpu_names"]
    );
    let output = |args: &[&str], file: &Path| {
        let x = run(genba_cmd(args).arg(file));
        assert_eq!(x.code(), Some(0), "{}", x.describe());
        assert!(x.stderr.is_empty(), "{}", x.describe());
        x.stdout
    };
    // the report, but for the file's own name and size
    let report = |file: &Path| {
        let mut v: Value =
            serde_json::from_str(&output(&["report", "--format", "json"], file)).unwrap();
        let m = v.as_object_mut().unwrap();
        m.remove("file");
        m.remove("bytes");
        v
    };
    let (rn, ro) = (report(&new), report(&old));
    assert!(
        rn["blocking"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["class"] == "[B]" && b["syscall"] == "read"),
        "{rn}"
    );
    assert_eq!(rn, ro);
    assert_eq!(
        output(&["report"], &new),
        output(&["report"], &old),
        "the text report"
    );
    // jsonl: the same lines, but for the recording's format
    let jsonl = |file: &Path| -> Vec<Value> {
        output(&["export", "--format", "jsonl"], file)
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                if v["type"] == "recording" {
                    v["format"] = Value::Null;
                }
                v
            })
            .collect()
    };
    let (jn, jo) = (jsonl(&new), jsonl(&old));
    let reads = jo
        .iter()
        .filter(|v| v["type"] == "offcpu" && v["class"] == "[B]" && v["syscall"] == "read")
        .count();
    assert!(reads > 100, "{reads} blocked reads in the old file's jsonl");
    assert_eq!(jn.len(), jo.len());
    for (a, b) in jn.iter().zip(&jo) {
        assert_eq!(a, b);
    }
    // chrome: named by class, the call an argument, either way
    let (cn, co) = (
        output(&["export", "--format", "chrome"], &new),
        output(&["export", "--format", "chrome"], &old),
    );
    assert!(cn == co, "the chrome exports differ");
    let c: Value = serde_json::from_str(&cn).unwrap();
    let off: Vec<&Value> = c["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["cat"] == "offcpu")
        .collect();
    assert!(
        off.iter()
            .any(|e| e["name"] == "[B] other blocking" && e["args"]["syscall"] == "read"),
        "no blocked read in the chrome export"
    );
    // the page's timeline labels the blocked reads with their call
    let page = |file: &Path, html: &Path| {
        let x = run(genba_cmd(["report", "--html"]).arg(html).arg(file));
        assert_eq!(x.code(), Some(0), "{}", x.describe());
        let size = std::fs::metadata(file).unwrap().len();
        std::fs::read_to_string(html)
            .unwrap()
            .replace(&file.display().to_string(), "FILE")
            .replace(&format!("\"bytes\":{size},"), "")
    };
    let (hn, ho) = (
        page(&new, &dir.join("new.html")),
        page(&old, &dir.join("old.html")),
    );
    assert!(hn.contains("[B] read"), "no [B] read label in the page");
    assert!(hn == ho, "the pages differ");
}
