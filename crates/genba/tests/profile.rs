//! `genba profile` against programs that measure their own truth
//! (tests/programs/profile/: wall clock, thread CPU clock, time inside the
//! blocking calls, the kernel's run-queue wait from schedstat). Each class's
//! share of a thread's time must be within 5 percentage points of the truth.
//! Expected lines come from `SITE:` markers in the sources, never from genba.

#[macro_use]
mod common;

use common::*;
use serde_json::Value;
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

const TOLERANCE: f64 = 5.0;

fn profile_src() -> PathBuf {
    repo_root().join("tests/programs/profile")
}

/// Builds tests/programs/profile/NAME.c (once) and returns the binary.
fn prog(name: &str) -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = BUILT
        .get_or_init(|| {
            let out = programs_dir().join("profile");
            fs::create_dir_all(&out).map_err(|e| e.to_string())?;
            for e in fs::read_dir(profile_src()).map_err(|e| e.to_string())? {
                let src = e.map_err(|e| e.to_string())?.path();
                if src.extension().is_none_or(|x| x != "c") {
                    continue;
                }
                let bin = out.join(src.file_stem().unwrap());
                let st = Command::new("gcc")
                    .args(["-O2", "-g", "-Wall", "-Wextra", "-pthread", "-o"])
                    .arg(&bin)
                    .arg(&src)
                    .status()
                    .map_err(|e| format!("gcc: {e}"))?;
                if !st.success() {
                    return Err(format!("gcc failed on {}", src.display()));
                }
            }
            Ok(out)
        })
        .as_ref()
        .unwrap_or_else(|e| panic!("building the profile programs: {e}"));
    dir.join(name)
}

/// `SITE:name` marker -> line, in tests/programs/profile/FILE.
fn site_line(file: &str, name: &str) -> u32 {
    let text = fs::read_to_string(profile_src().join(file)).expect("read source");
    text.lines()
        .position(|l| l.contains(&format!("SITE:{name} ")))
        .map(|i| i as u32 + 1)
        .unwrap_or_else(|| panic!("no SITE:{name} in {file}"))
}

struct Run {
    truth: Value,
    report: Value,
}

impl Run {
    /// genba's thread row for `tid`.
    fn thread(&self, tid: u64) -> &Value {
        self.report["threads"]
            .as_array()
            .expect("threads")
            .iter()
            .find(|t| t["tid"].as_u64() == Some(tid))
            .unwrap_or_else(|| panic!("no thread {tid} in {}", self.report))
    }

    /// A class's share (%) of thread `tid`'s samples.
    fn share(&self, tid: u64, tags: &[&str]) -> f64 {
        let t = self.thread(tid);
        let total = t["samples"].as_f64().unwrap();
        let n: f64 = tags
            .iter()
            .map(|tag| t["classes"][*tag].as_f64().unwrap())
            .sum();
        100.0 * n / total
    }

    fn rows(&self) -> &Vec<Value> {
        self.report["rows"].as_array().expect("rows")
    }
}

/// Runs `genba profile --format json [extra] -- PROG ARGS` and parses both
/// the program's truth (its stdout) and genba's report.
fn profile(extra: &[&str], name: &str, args: &[&str]) -> Run {
    let dir = TempDir::new("profile");
    let json = dir.join("report.json");
    let mut c = genba_cmd(["profile", "--format", "json", "-o"]);
    c.arg(&json)
        .args(extra)
        .arg("--")
        .arg(prog(name))
        .args(args);
    let out = run(&mut c);
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let stdout = out.stdout.clone();
    let truth: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("truth of {name}: {e}: {stdout}"));
    let text = fs::read_to_string(&json).expect("report");
    let report: Value = serde_json::from_str(&text).expect("report JSON");
    let stderr = out.stderr.clone();
    // `genba: N events lost, M off-CPU intervals lost to slot collisions`
    let lost: Vec<u64> = stderr
        .lines()
        .filter_map(|l| {
            let n = l.strip_prefix("genba: ")?.split_once(" events lost")?.0;
            n.parse().ok()
        })
        .collect();
    assert_eq!(lost.len(), 1, "losses must be reported: {stderr}");
    // -a takes in every thread of a machine that may be busy: a loss there
    // is genba's promise kept (counted, reported); the program alone loses none
    if !extra.contains(&"-a") {
        assert_eq!(lost[0], 0, "events lost: {stderr}");
    }
    Run { truth, report }
}

/// `genba profile --format json -o FILE ARGS...`, run to its end: the report.
fn json_report(args: &[&str]) -> Value {
    let dir = TempDir::new("report");
    let json = dir.join("r.json");
    let out = run(genba_cmd(["profile", "--format", "json", "-o"])
        .arg(&json)
        .args(args));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap()
}

fn pct(num: &Value, wall: &Value) -> f64 {
    100.0 * num.as_f64().unwrap() / wall.as_f64().unwrap()
}

/// Thread `t` (a truth object with tid and wall_ns): the share of `tags`
/// against `field`'s share of its wall time.
#[track_caller]
fn check(r: &Run, t: &Value, tags: &[&str], field: &str) {
    let tid = t["tid"].as_u64().unwrap();
    close(
        &format!("thread {tid} {} vs {field}", tags.join("+")),
        r.share(tid, tags),
        pct(&t[field], &t["wall_ns"]),
    );
}

/// [`check`] with another tolerance (points).
#[track_caller]
fn check_within(r: &Run, t: &Value, tags: &[&str], field: &str, points: f64) {
    let tid = t["tid"].as_u64().unwrap();
    let (genba, truth) = (r.share(tid, tags), pct(&t[field], &t["wall_ns"]));
    assert!(
        (genba - truth).abs() <= points,
        "thread {tid} {} vs {field}: genba {genba:.1}% vs truth {truth:.1}% (more than {points} points apart)",
        tags.join("+")
    );
}

#[track_caller]
fn close(what: &str, genba: f64, truth: f64) {
    assert!(
        (genba - truth).abs() <= TOLERANCE,
        "{what}: genba {genba:.1}% vs truth {truth:.1}% (more than {TOLERANCE} points apart)"
    );
}

/// The paper's example: a write+fsync loop is [I], in fsync, at the line
/// that calls it.
#[test]
fn fsync_loop_is_io_in_fsync() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("fsync");
    let r = profile(
        &["--sort", "sym,syscall,site"],
        "profile_fsync",
        &[dir.path().to_str().unwrap(), "1500"],
    );
    let t = &r.truth;
    let tid = t["tid"].as_u64().unwrap();
    let io_ns = t["fsync_blocked_ns"].as_f64().unwrap() + t["write_blocked_ns"].as_f64().unwrap();
    close(
        "[I]",
        r.share(tid, &["[I]"]),
        100.0 * io_ns / t["wall_ns"].as_f64().unwrap(),
    );
    check(&r, t, &["[.]", "[k]"], "cpu_ns");
    // [S] ends at the switch-in (sched_switch) and run_delay at the rq
    // clock read when __schedule starts: each switch's own pick counts as
    // [S] to genba, not to the kernel. Measured here at 1.3-1.5 us a switch
    // on a quiet machine, more on a busy one; this loop switches ~12,000
    // times a second (four waits an fsync), so 3 points more are its switches
    check_within(&r, t, &["[S]"], "runq_ns", TOLERANCE + 3.0);
    // the biggest [I] row is the blocked fsync, called from the marked line
    // ([S] rows can outweigh it on a loaded machine: that is measured above)
    let top = first_row_of(&r, "[I] ");
    assert!(top["sym"].as_str().unwrap().contains("fsync"), "{top}");
    assert_eq!(top["syscall"], "fsync", "{top}");
    let line = format!(
        "profile_fsync.c:{} main",
        site_line("profile_fsync.c", "fsync")
    );
    assert!(top["site"].as_str().unwrap().ends_with(&line), "{top}");
    assert!(r.report["summary"]
        .as_str()
        .unwrap()
        .contains("is [I] waiting for I/O"));
}

/// The biggest row whose class tag is `tag` ("[I] ", "[.] ").
#[track_caller]
fn first_row_of<'a>(r: &'a Run, tag: &str) -> &'a Value {
    r.rows()
        .iter()
        .find(|row| row["sym"].as_str().is_some_and(|s| s.starts_with(tag)))
        .unwrap_or_else(|| panic!("no {tag}row in {:?}", r.rows()))
}

/// A pure compute loop: on the CPU only, in the function and line that
/// compute.
#[test]
fn compute_loop_is_on_cpu_in_its_function() {
    require_bpf!();
    let _g = serial();
    let r = profile(&["--sort", "sym,site"], "profile_compute", &["300"]);
    let t = &r.truth;
    check(&r, t, &["[.]"], "cpu_ns");
    check(&r, t, &["[S]"], "runq_ns");
    // of the time on the CPU, most is in crunch at its line (the run-queue
    // wait of a loaded machine is [S], checked against schedstat above)
    let top = first_row_of(&r, "[.] ");
    assert_eq!(top["sym"], "[.] crunch", "{top}");
    let line = format!(
        "profile_compute.c:{} crunch",
        site_line("profile_compute.c", "crunch")
    );
    assert!(top["site"].as_str().unwrap().ends_with(&line), "{top}");
    let on_cpu = r.share(t["tid"].as_u64().unwrap(), &["[.]"]);
    assert!(
        top["percent"].as_f64().unwrap() > on_cpu / 2.0,
        "{top} of {on_cpu:.1}% on the CPU"
    );
}

/// Threads contending one mutex: [L] in the lock call, [S] as schedstat says.
#[test]
fn contended_mutex_is_lock_wait() {
    require_bpf!();
    let _g = serial();
    let r = profile(&["--sort", "tid,sym,site"], "profile_mutex", &["4", "1500"]);
    let threads = r.truth["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 4);
    for t in threads {
        check(&r, t, &["[L]"], "lock_blocked_ns");
        check(&r, t, &["[S]"], "runq_ns");
        check(&r, t, &["[.]", "[k]"], "cpu_ns");
    }
    // main waits in pthread_join: a futex wait, but for an event, not a lock
    let main = r.truth["pid"].as_u64().unwrap();
    let share = r.share(main, &["[B]"]);
    assert!(share > 90.0, "main thread in pthread_join: [B] {share:.1}%");
    // the lock wait is attributed to the pthread_mutex_lock line
    let line = format!("profile_mutex.c:{}", site_line("profile_mutex.c", "lock"));
    let worker = threads[0]["tid"].as_u64().unwrap().to_string();
    let lock_row = r
        .rows()
        .iter()
        .filter(|row| row["tid"] == worker.as_str())
        .find(|row| row["sym"].as_str().unwrap().starts_with("[L]"))
        .expect("an [L] row of a worker");
    assert!(
        lock_row["site"].as_str().unwrap().contains(&line),
        "{lock_row}"
    );
}

/// More CPU-bound threads than CPUs: each waits for a CPU ([S]) as long as
/// the kernel's run-queue wait says, and runs in spin_work.
#[test]
fn oversubscribed_threads_wait_for_a_cpu() {
    require_bpf!();
    let _g = serial();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = (2 * cpus).to_string();
    let r = profile(&["--sort", "sym"], "profile_spin", &[&n, "1500"]);
    let threads = r.truth["threads"].as_array().unwrap();
    assert!(threads.len() >= 2);
    for t in threads {
        check(&r, t, &["[S]"], "runq_ns");
        check(&r, t, &["[.]", "[k]"], "cpu_ns");
    }
    let user = r
        .rows()
        .iter()
        .find(|row| row["sym"].as_str().unwrap().starts_with("[.]"))
        .expect("a [.] row");
    assert_eq!(user["sym"], "[.] spin_work", "{user}");
}

/// Sleeps and polls are [B].
#[test]
fn sleep_and_poll_are_other_blocking() {
    require_bpf!();
    let _g = serial();
    let r = profile(&["--sort", "sym,syscall,site"], "profile_sleep", &["1500"]);
    let t = &r.truth;
    check(&r, t, &["[B]"], "sleep_blocked_ns");
    check(&r, t, &["[S]"], "runq_ns");
    let syscalls: Vec<&str> = r
        .rows()
        .iter()
        .filter(|row| row["sym"].as_str().unwrap().starts_with("[B]"))
        .filter_map(|row| row["syscall"].as_str())
        .collect();
    assert!(syscalls.contains(&"clock_nanosleep") || syscalls.contains(&"nanosleep"));
    assert!(syscalls.contains(&"poll") || syscalls.contains(&"ppoll"));
}

/// One thread: 40% compute, 30% fsync, 20% mutex, 10% sleep.
#[test]
fn mixed_thread_splits_into_its_four_parts() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("mixed");
    let r = profile(
        &["--sort", "tid,sym,site"],
        "profile_mixed",
        &["2000", dir.path().to_str().unwrap()],
    );
    let t = &r.truth;
    let tid = t["tid"].as_u64().unwrap();
    let wall = &t["wall_ns"];
    check(&r, t, &["[.]", "[k]"], "cpu_ns");
    check(&r, t, &["[I]"], "fsync_blocked_ns");
    check(&r, t, &["[L]"], "lock_blocked_ns");
    check(&r, t, &["[B]"], "sleep_blocked_ns");
    check(&r, t, &["[S]"], "runq_ns");
    // on and off the CPU add up to the thread's time: one sample a period
    // (the thread lives a little longer than the window it measures)
    let want = wall.as_f64().unwrap() / r.report["period_ns"].as_f64().unwrap();
    let got = r.thread(tid)["samples"].as_f64().unwrap();
    assert!(
        got >= 0.97 * want && got <= 1.03 * want + 20.0,
        "{got} samples for {want:.0} periods of wall time"
    );
    // each part at its own line
    let find = |class: &str, marker: &str| {
        let line = format!("profile_mixed.c:{}", site_line("profile_mixed.c", marker));
        let tid_s = tid.to_string();
        let rows: Vec<&Value> = r
            .rows()
            .iter()
            .filter(|row| row["tid"] == tid_s.as_str())
            .filter(|row| row["sym"].as_str().unwrap().starts_with(class))
            .collect();
        assert!(
            rows.first()
                .is_some_and(|row| row["site"].as_str().unwrap().contains(&line)),
            "the biggest {class} row of the main thread is not at {line}: {rows:?}"
        );
    };
    find("[.]", "compute");
    find("[I]", "fsync");
    find("[L]", "lock");
    find("[B]", "sleep");
}

/// The same program recorded (`genba record`) and reported from the file
/// (`genba report`): the profile the report reads out of the recording's
/// samples and intervals agrees with the program's own clocks as the live
/// profile does, each part at its own line, with kernel frames named.
#[test]
fn recorded_profile_agrees_with_the_programs_truth() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("recorded");
    let file = dir.join("mixed.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(prog("profile_mixed"))
        .args(["2000", dir.path().to_str().unwrap()]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let truth: Value = serde_json::from_str(out.stdout.trim()).expect("truth");
    assert!(
        out.stderr.contains("genba: 0 events lost"),
        "{}",
        out.describe()
    );
    let rep = run(genba_cmd([
        "report",
        "--format",
        "json",
        "--sort",
        "tid,sym,site,kernel",
    ])
    .arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    let whole: Value = serde_json::from_str(rep.stdout.trim()).expect("report JSON");
    let r = Run {
        truth,
        report: whole["profile"].clone(),
    };
    let t = &r.truth;
    let tid = t["tid"].as_u64().unwrap();
    check(&r, t, &["[.]", "[k]"], "cpu_ns");
    check(&r, t, &["[I]"], "fsync_blocked_ns");
    check(&r, t, &["[L]"], "lock_blocked_ns");
    check(&r, t, &["[B]"], "sleep_blocked_ns");
    check(&r, t, &["[S]"], "runq_ns");
    let want = t["wall_ns"].as_f64().unwrap() / r.report["period_ns"].as_f64().unwrap();
    let got = r.thread(tid)["samples"].as_f64().unwrap();
    assert!(
        got >= 0.97 * want && got <= 1.03 * want + 20.0,
        "{got} samples for {want:.0} periods of wall time"
    );
    let tid_s = tid.to_string();
    for (class, marker) in [
        ("[.]", "compute"),
        ("[I]", "fsync"),
        ("[L]", "lock"),
        ("[B]", "sleep"),
    ] {
        let line = format!("profile_mixed.c:{}", site_line("profile_mixed.c", marker));
        let rows: Vec<&Value> = r
            .rows()
            .iter()
            .filter(|row| row["tid"] == tid_s.as_str())
            .filter(|row| row["sym"].as_str().unwrap().starts_with(class))
            .collect();
        assert!(
            rows.first()
                .is_some_and(|row| row["site"].as_str().unwrap().contains(&line)),
            "the biggest recorded {class} row of the main thread is not at {line}: {rows:?}"
        );
        if class != "[.]" {
            // blocked rows name where the thread slept in the kernel
            let k = rows[0]["kernel"].as_str().unwrap_or("");
            assert!(
                !k.is_empty() && k != "-" && !k.starts_with("0x") && !k.starts_with("__stop"),
                "kernel frame of the recorded {class} row: {:?}",
                rows[0]
            );
        }
    }
}

/// `genba profile --record FILE`: the report of the recording is the
/// profile the run printed (the same samples, read back from the file).
#[test]
fn profile_also_records() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("profile-record");
    let file = dir.join("p.pftrace");
    let json = dir.join("p.json");
    let out = run(genba_cmd(["profile", "--format", "json", "-o"])
        .arg(&json)
        .arg("--record")
        .arg(&file)
        .arg("--")
        .arg(prog("profile_mixed"))
        .args(["1000", dir.path().to_str().unwrap()]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    perfetto_checked(&file);
    let live: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let rep = run(genba_cmd(["report", "--format", "json"]).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    let recorded: Value = serde_json::from_str(rep.stdout.trim()).unwrap();
    let recorded = &recorded["profile"];
    let classes = |v: &Value| -> Vec<(String, u64)> {
        let mut c: Vec<(String, u64)> = v["classes"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
            .collect();
        c.sort();
        c
    };
    assert_eq!(
        classes(&live),
        classes(recorded),
        "samples by class: live profile vs its recording"
    );
}

/// Blocks far shorter than a period (10 us, 100k times) and one block of
/// seconds both weigh their time: the per-thread phase carries remainders.
#[test]
fn short_and_long_blocks_weigh_their_time() {
    require_bpf!();
    let _g = serial();
    let r = profile(&[], "profile_alias", &["100000", "2000"]);
    let period = r.report["period_ns"].as_f64().unwrap();
    for t in r.truth["threads"].as_array().unwrap() {
        let tid = t["tid"].as_u64().unwrap();
        let blocked = t["blocked_ns"].as_f64().unwrap();
        let want = blocked / period;
        let classes = &r.thread(tid)["classes"];
        let got = classes["[B]"].as_f64().unwrap();
        let got_runq = classes["[S]"].as_f64().unwrap();
        let calls = t["calls"].as_f64().unwrap();
        // 5% of the blocked time, plus 2% of the thread's wall time: genba
        // stamps a block at the scheduler tracepoints, the kernel's CPU and
        // run-queue accounting a few hundred ns apart from them, which adds
        // up over 100k blocks of a few us each (docs/PERFORMANCE.md)
        let slack = 0.02 * t["wall_ns"].as_f64().unwrap() / period;
        // the time off the CPU, blocked and waiting for it, adds up...
        let off = (blocked + t["runq_ns"].as_f64().unwrap()) / period;
        assert!(
            (got + got_runq - off).abs() <= 0.05 * off + slack + 2.0,
            "{}: {} off-CPU samples for {off:.0} periods off the CPU",
            t["name"],
            got + got_runq
        );
        // ...and its split at the wakeup stamp follows schedstat's to a few
        // us a block (on a loaded machine the two stamps drift further apart
        // than on an idle one)
        let per_block = 3000.0 * calls / period;
        assert!(
            (got - want).abs() <= 0.05 * want + slack + per_block + 2.0,
            "{}: {got} [B] samples for {:.0} ms blocked in {calls} blocks ({want:.0} expected)",
            t["name"],
            blocked / 1e6
        );
        if t["name"] != "long" {
            // each block is far below one period: rounding per interval
            // would have given nothing
            assert!(blocked / calls < period / 10.0, "{t}");
        }
    }
}

/// The text report: summary first, per class and thread, rows, chains.
#[test]
fn text_report_with_call_chains() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("text");
    let report = dir.join("report.txt");
    let out = run(genba_cmd(["profile", "-g", "-o"])
        .arg(&report)
        .arg("--")
        .arg(prog("profile_mixed"))
        .args(["1000", dir.path().to_str().unwrap()]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = fs::read_to_string(&report).unwrap();
    assert!(
        text.contains("# Of the wall time of its 2 threads, "),
        "{text}"
    );
    // columns are as wide as their widest cell (a loaded machine shows
    // other objects): compared with the spaces squeezed
    let squeezed: String = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    for want in [
        "Time by class:",
        "[I] waiting for I/O",
        "By thread (share of each thread's time):",
        "Overhead Samples Command Shared Object Symbol",
        "profile_mixed profile_mixed [.] compute",
        "| compute (profile_mixed)",
    ] {
        assert!(squeezed.contains(want), "no '{want}' in:\n{text}");
    }
    // callee order: compute's chain lists compute before main
    let chain = &text[text.find("[.] compute").unwrap()..];
    assert!(
        chain.find("|     compute ").unwrap() < chain.find("|     main ").unwrap(),
        "{chain}"
    );
}

/// Minimal protobuf reading, independent of the writer: every field of
/// one message as (number, varint or bytes).
fn pb_fields(mut b: &[u8]) -> Vec<(u64, Result<u64, Vec<u8>>)> {
    fn varint(b: &mut &[u8]) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let x = b[0];
            *b = &b[1..];
            v |= u64::from(x & 0x7f) << shift;
            if x & 0x80 == 0 {
                break;
            }
        }
        v
    }
    let mut out = Vec::new();
    while !b.is_empty() {
        let key = varint(&mut b);
        match key & 7 {
            0 => out.push((key >> 3, Ok(varint(&mut b)))),
            2 => {
                let n = varint(&mut b) as usize;
                out.push((key >> 3, Err(b[..n].to_vec())));
                b = &b[n..];
            }
            1 => b = &b[8..],
            5 => b = &b[4..],
            t => panic!("wire type {t}"),
        }
    }
    out
}

/// Flame graph, folded stacks, pprof and speedscope from one run.
#[test]
fn exports_open_in_their_tools() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("export");
    let (folded, svg, pprof, speedscope) = (
        dir.join("p.folded"),
        dir.join("p.svg"),
        dir.join("p.pb.gz"),
        dir.join("p.speedscope.json"),
    );
    let out = run(genba_cmd(["profile", "-o", "/dev/null", "--folded"])
        .arg(&folded)
        .arg("--flamegraph")
        .arg(&svg)
        .arg("--pprof")
        .arg(&pprof)
        .arg("--speedscope")
        .arg(&speedscope)
        .arg("--")
        .arg(prog("profile_mixed"))
        .args(["1000", dir.path().to_str().unwrap()]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());

    // folded: root first, the class as the leaf; weights add up
    let text = fs::read_to_string(&folded).unwrap();
    let mut by_leaf: HashMap<String, u64> = HashMap::new();
    for l in text.lines() {
        let (stack, n) = l.rsplit_once(' ').expect("folded line");
        let leaf = stack.rsplit(';').next().unwrap().to_string();
        *by_leaf.entry(leaf).or_default() += n.parse::<u64>().unwrap();
        assert!(stack.starts_with("profile_mixed;"), "{l}");
    }
    for class in ["[.]", "[I]", "[L]", "[B]"] {
        assert!(by_leaf.get(class).copied().unwrap_or(0) > 0, "{by_leaf:?}");
    }
    assert!(
        text.lines().any(|l| l.contains(";main;compute;[.] ")),
        "{text}"
    );

    // SVG: a flame graph with the class frames coloured
    let svg = fs::read_to_string(&svg).unwrap();
    assert!(
        svg.starts_with("<?xml") && svg.contains("<svg"),
        "not an SVG"
    );
    assert!(svg.contains("compute") && svg.contains("[I]"));
    assert!(
        svg.contains("rgb(50,110,210)"),
        "[I] frames not in their colour"
    );

    // pprof: gzip, then a Profile whose string table names the sample types
    let gz = fs::read(&pprof).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b], "not gzip");
    let d = Command::new("gzip")
        .arg("-dc")
        .arg(&pprof)
        .output()
        .expect("gzip");
    assert!(d.status.success());
    let fields = pb_fields(&d.stdout);
    let strings: Vec<String> = fields
        .iter()
        .filter(|(n, _)| *n == 6)
        .map(|(_, v)| String::from_utf8(v.clone().unwrap_err()).unwrap())
        .collect();
    for s in [
        "samples",
        "count",
        "wall",
        "nanoseconds",
        "compute",
        "[I]",
        "class",
    ] {
        assert!(strings.iter().any(|x| x == s), "{s} not in {strings:?}");
    }
    let samples = fields.iter().filter(|(n, _)| *n == 2).count();
    assert!(samples > 0);
    // and `go tool pprof` reads it, where Go is installed
    let go = ["go", "/usr/local/go/bin/go"]
        .into_iter()
        .find(|g| Command::new(g).arg("version").output().is_ok());
    if let Some(go) = go {
        let top = Command::new(go)
            .args(["tool", "pprof", "-top", "-sample_index=wall"])
            .arg(&pprof)
            .env("HOME", dir.path())
            .output()
            .expect("go tool pprof");
        let s = String::from_utf8_lossy(&top.stdout);
        assert!(
            top.status.success(),
            "{}",
            String::from_utf8_lossy(&top.stderr)
        );
        assert!(s.contains("compute") && s.contains("[I]"), "{s}");
    } else {
        eprintln!("note: go not installed; pprof checked by its wire format only");
    }

    // speedscope: one sampled profile per thread, weights in ns
    let v: Value = serde_json::from_str(&fs::read_to_string(&speedscope).unwrap()).unwrap();
    assert_eq!(
        v["$schema"],
        "https://www.speedscope.app/file-format-schema.json"
    );
    let frames = v["shared"]["frames"].as_array().unwrap();
    assert!(frames.iter().any(|f| f["name"] == "compute"));
    let profiles = v["profiles"].as_array().unwrap();
    assert_eq!(profiles.len(), 2, "two threads");
    for p in profiles {
        assert_eq!(p["type"], "sampled");
        assert_eq!(
            p["samples"].as_array().unwrap().len(),
            p["weights"].as_array().unwrap().len()
        );
    }
}

/// -p: a running process, all its threads, until it ends.
#[test]
fn attach_to_a_running_process() {
    require_bpf!();
    let _g = serial();
    let child = Command::new(prog("profile_sleep"))
        .arg("1500")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let spawned = Instant::now();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let dir = TempDir::new("attach");
    let json = dir.join("r.json");
    let (mut g, started, attached, rest) = profile_attached(child.id(), &json);
    let st = g.wait().unwrap();
    let stderr = rest.join().unwrap();
    assert!(st.success(), "{st:?}: {stderr}");
    let r: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let truth = child.wait_with_output().unwrap();
    assert!(truth.status.success());
    let truth: Value = serde_json::from_slice(&truth.stdout).unwrap();
    let t = &r["threads"][0];
    let of =
        |c: &str| 100.0 * t["classes"][c].as_f64().unwrap_or(0.0) / t["samples"].as_f64().unwrap();
    // the thread sleeps, or waits for a CPU to run on after each sleep (a
    // loaded machine makes that wait long): as the program measured it
    // (the truth spans the whole run, genba the attach: on a loaded machine
    // the start, before the attach, waits longer for a CPU)
    let sleeping = pct(&truth["sleep_blocked_ns"], &truth["wall_ns"]);
    assert!(
        of("[B]") >= sleeping - TOLERANCE,
        "[B] {:.1}% vs {sleeping:.1}% blocked in sleep",
        of("[B]")
    );
    assert!(of("[B]") + of("[S]") > 90.0, "[B]+[S] of {r}");
    // a 1.5 s run, attached between genba's start and its word: samples
    // for that much of the run, one a millisecond
    let wall_ms = truth["wall_ns"].as_f64().unwrap() / 1e6;
    let least = wall_ms - (attached - spawned).as_millis() as f64;
    let most = wall_ms - (started - spawned).as_millis() as f64;
    let samples = t["samples"].as_f64().unwrap();
    assert!(
        samples >= 0.9 * least && samples <= most + 50.0,
        "{samples} samples, attached for {least:.0}-{most:.0} ms"
    );
}

/// The peer: `perf sched record` around the same run, read back with
/// `perf sched timehist` (run time, and "sch delay" from wakeup to run).
/// genba must be within 5 points of the program's truth, and at least as
/// close to it as perf is (perf counts a preempted thread's wait as plain
/// "wait time", not as a run-queue delay).
#[test]
fn as_close_to_the_truth_as_perf_sched() {
    require_bpf!();
    if !require_perf() {
        return;
    }
    let _g = serial();
    let dir = TempDir::new("perfsched");
    let (data, json) = (dir.join("perf.data"), dir.join("r.json"));
    let out = run(Command::new("perf")
        .args(["sched", "record", "-q", "-o"])
        .arg(&data)
        .arg("--")
        .arg(genba())
        .args(["profile", "--format", "json", "-o"])
        .arg(&json)
        .arg("--")
        .arg(prog("profile_mutex"))
        .args(["4", "1000"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let r = Run {
        truth: truth.clone(),
        report: serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap(),
    };
    let th = Command::new("perf")
        .args(["sched", "timehist", "-i"])
        .arg(&data)
        .output()
        .expect("perf sched timehist");
    let text = String::from_utf8_lossy(&th.stdout);
    // tid -> (run ms, sch delay ms)
    let mut perf: HashMap<u64, (f64, f64)> = HashMap::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() < 6 || !f[2].starts_with("profile_mutex[") {
            continue;
        }
        let ids = f[2]
            .trim_start_matches("profile_mutex[")
            .trim_end_matches(']');
        let Some(tid) = ids.split('/').next().and_then(|t| t.parse().ok()) else {
            continue;
        };
        let (Ok(sch), Ok(run)) = (f[4].parse::<f64>(), f[5].parse::<f64>()) else {
            continue;
        };
        let e = perf.entry(tid).or_default();
        e.0 += run;
        e.1 += sch;
    }
    for t in truth["threads"].as_array().unwrap() {
        let tid = t["tid"].as_u64().unwrap();
        let wall_ms = t["wall_ns"].as_f64().unwrap() / 1e6;
        let (run_ms, sch_ms) = perf[&tid];
        let cpu_truth = pct(&t["cpu_ns"], &t["wall_ns"]);
        let runq_truth = pct(&t["runq_ns"], &t["wall_ns"]);
        let genba_cpu = r.share(tid, &["[.]", "[k]"]);
        let genba_runq = r.share(tid, &["[S]"]);
        close(&format!("thread {tid} on-CPU"), genba_cpu, cpu_truth);
        close(&format!("thread {tid} [S]"), genba_runq, runq_truth);
        let perf_cpu = 100.0 * run_ms / wall_ms;
        let perf_runq = 100.0 * sch_ms / wall_ms;
        eprintln!(
            "thread {tid}: on-CPU truth {cpu_truth:.1}% genba {genba_cpu:.1}% perf {perf_cpu:.1}%; \
             run queue truth {runq_truth:.1}% genba {genba_runq:.1}% perf {perf_runq:.1}%"
        );
        assert!(
            (genba_cpu - cpu_truth).abs() <= (perf_cpu - cpu_truth).abs() + 1.0,
            "thread {tid}: perf's run time is closer to the truth"
        );
        assert!(
            (genba_runq - runq_truth).abs() <= (perf_runq - runq_truth).abs() + 1.0,
            "thread {tid}: perf's sch delay is closer to the truth"
        );
    }
}

/// -a: every thread of the system while the command runs, the command's
/// among them.
#[test]
fn whole_system() {
    require_bpf!();
    let _g = serial();
    let r = profile(&["-a"], "profile_sleep", &["1000"]);
    let tid = r.truth["tid"].as_u64().unwrap();
    close(
        "[B]",
        r.share(tid, &["[B]"]),
        pct(&r.truth["sleep_blocked_ns"], &r.truth["wall_ns"]),
    );
    let pids: std::collections::HashSet<u64> = r.report["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["pid"].as_u64().unwrap())
        .collect();
    assert!(
        pids.len() > 1,
        "only one process seen system-wide: {pids:?}"
    );
    // kernel threads have no system call of their own
    let r = json_report(&["-a", "--sort", "comm,syscall", "--", "sleep", "0.5"]);
    let kthreads: Vec<&Value> = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| {
            let c = row["comm"].as_str().unwrap();
            ["kworker/", "ksoftirqd/", "rcu_", "migration/", "kcompactd"]
                .iter()
                .any(|k| c.starts_with(k))
        })
        .collect();
    assert!(!kthreads.is_empty(), "no kernel thread seen: {}", r["rows"]);
    for row in kthreads {
        assert_eq!(row["syscall"], "-", "{row}");
    }
}

/// --syscalls: strace -c's table under the profile; blocked time is named
/// by the call it sits in.
#[test]
fn syscalls_table_and_blocked_calls() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("syscalls");
    let report = dir.join("r.txt");
    let out = run(genba_cmd(["profile", "--syscalls", "-o"])
        .arg(&report)
        .arg("--")
        .arg(prog("profile_fsync"))
        .args([dir.path().to_str().unwrap(), "500"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = fs::read_to_string(&report).unwrap();
    let calls: u64 = serde_json::from_str::<Value>(out.stdout.trim()).unwrap()["calls"]
        .as_u64()
        .unwrap();
    let table = &text[text.find("System calls").expect("table")..];
    let fsync_row = table
        .lines()
        .find(|l| l.ends_with(" fsync"))
        .unwrap_or_else(|| panic!("no fsync row: {table}"));
    // % time, seconds, usecs/call, calls: every fsync the program made
    let n: u64 = fsync_row
        .split_whitespace()
        .nth(3)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(n, calls, "{fsync_row}");
    assert!(text.contains("Off-CPU time by system call"), "{text}");
    let line = text
        .lines()
        .find(|l| l.ends_with("[I] fsync"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.trim_start().starts_with(|c: char| c.is_ascii_digit()));
}

/// `genba profile --format json -o JSON -p PID`, returned once genba says it
/// is attached (a loaded machine can take long to load the programs, and
/// waits are counted from the attach, so a test's clock starts there too):
/// genba, when it was started, when it said it was attached, and a thread
/// collecting the rest of its stderr (so it never blocks on a full pipe).
fn profile_attached(
    pid: u32,
    json: &std::path::Path,
) -> (
    std::process::Child,
    Instant,
    Instant,
    std::thread::JoinHandle<String>,
) {
    let started = Instant::now();
    let mut g = genba_cmd(["profile", "--format", "json", "-o"])
        .arg(json)
        .args(["-p", &pid.to_string()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(g.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        let n = std::io::BufRead::read_line(&mut err, &mut line).unwrap();
        assert!(n > 0, "genba ended before attaching");
        if line.contains(&format!("Process {pid} attached")) {
            break;
        }
    }
    let rest = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    (g, started, Instant::now(), rest)
}

/// -p on a thread that waits the whole time: the wait is counted from the
/// attach (not lost because its switch-out came before), and a wait still
/// going on when genba is stopped is counted up to the stop.
#[test]
fn attach_counts_waits_begun_before_and_still_going() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("attach-wait");
    let samples = |json: &std::path::Path| -> (f64, String) {
        let r: Value = serde_json::from_str(&fs::read_to_string(json).unwrap()).unwrap();
        let t = &r["threads"][0];
        let sym = r["rows"][0]["sym"].as_str().unwrap_or("").to_string();
        (t["classes"]["[B]"].as_f64().unwrap(), sym)
    };
    // ends by itself: a 2 s sleep, attached some time in
    let spawned = std::time::Instant::now();
    let mut sleeper = Command::new("sleep").arg("2").spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let json = dir.join("a.json");
    let (mut g, started, attached, rest) = profile_attached(sleeper.id(), &json);
    let st = g.wait().unwrap();
    let stderr = rest.join().unwrap();
    assert!(st.success(), "{st:?}\n{stderr}");
    sleeper.wait().unwrap();
    // attached at the latest when it said so, at the earliest when started
    let window_ms = 2000.0 - (attached - spawned).as_millis() as f64;
    let most_ms = 2000.0 - (started - spawned).as_millis() as f64;
    let (b, sym) = samples(&json);
    assert!(
        window_ms > 0.0 && b > 0.8 * window_ms && b <= most_ms + 50.0,
        "{b} [B] samples over a {window_ms}-{most_ms} ms attach"
    );
    assert!(sym.contains("nanosleep"), "{sym}");

    // stopped by Ctrl-C while the sleep goes on
    let mut sleeper = Command::new("sleep").arg("20").spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let json = dir.join("b.json");
    let (mut g, started, _, rest) = profile_attached(sleeper.id(), &json);
    std::thread::sleep(std::time::Duration::from_millis(1000));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(g.id() as i32, libc::SIGINT) };
    let window_ms = started.elapsed().as_millis() as f64;
    let st = g.wait().unwrap();
    let _ = rest.join();
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    assert!(st.success(), "{st:?}");
    let (b, _) = samples(&json);
    assert!(
        b >= 0.8 * 1000.0 && b <= window_ms + 50.0,
        "{b} [B] samples for {window_ms} ms attached"
    );
}

/// Children that are gone before their samples are read keep their names
/// and their time (-f is implied: every thread and child is profiled).
#[test]
fn short_lived_children_keep_their_names() {
    require_bpf!();
    let _g = serial();
    let r = json_report(&["--", "sh", "-c", "sleep 0.3; sleep 0.2"]);
    let sleeps: Vec<&Value> = r["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["comm"] == "sleep")
        .collect();
    assert_eq!(sleeps.len(), 2, "{}", r["threads"]);
    let blocked: Vec<f64> = sleeps
        .iter()
        .map(|t| t["classes"]["[B]"].as_f64().unwrap())
        .collect();
    assert!(
        (270.0..=330.0).contains(&blocked[0]) && (180.0..=220.0).contains(&blocked[1]),
        "{blocked:?}"
    );
}

/// Processes that live about one sampling period each: their CPU time is
/// there (what a thread ran after its last sample is sent when it ends),
/// against the kernel's own account of the children (getrusage).
#[test]
fn short_lived_processes_get_their_cpu_time() {
    require_bpf!();
    let _g = serial();
    let r = profile(&[], "profile_children", &["200", "1500"]);
    let parent = r.truth["pid"].as_u64().unwrap();
    let on: f64 = r.report["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["pid"].as_u64() != Some(parent))
        .map(|t| t["classes"]["[.]"].as_f64().unwrap() + t["classes"]["[k]"].as_f64().unwrap())
        .sum();
    let want = r.truth["cpu_ns"].as_f64().unwrap() / r.report["period_ns"].as_f64().unwrap();
    assert!(
        (on - want).abs() <= 0.08 * want + 5.0,
        "{on} on-CPU samples in 200 children that ran {want:.0} periods"
    );
}

/// -p on more busy threads than CPUs, stopped with Ctrl-C while they run
/// and wait for CPUs: a clean stop, and each thread's samples cover the
/// time profiled.
#[test]
fn attach_to_busy_threads_and_stop() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("busy");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = (2 * cpus).to_string();
    let mut busy = Command::new(prog("profile_spin"))
        .args([n.as_str(), "4000"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let json = dir.join("r.json");
    let (g, _, attached, rest) = profile_attached(busy.id(), &json);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(g.id() as i32, libc::SIGINT) };
    let status = {
        let mut g = g;
        g.wait().unwrap()
    };
    let profiled_ms = attached.elapsed().as_millis() as f64;
    let _ = busy.kill();
    let _ = busy.wait();
    let err = rest.join().unwrap();
    assert!(status.success(), "{status:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let r: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let spinners: Vec<&Value> = r["threads"]
        .as_array()
        .unwrap()
        .iter()
        // the spinning threads, not main (waiting in pthread_join: [B])
        .filter(|t| t["comm"] == "profile_spin" && t["tid"] != t["pid"])
        .collect();
    assert_eq!(spinners.len(), 2 * cpus, "{}", r["threads"]);
    for t in spinners {
        let got = t["samples"].as_f64().unwrap();
        // from the attach to the stop: at least the 1.5 s slept after genba
        // said it was attached, at most its whole run
        assert!(
            got >= 0.6 * 1500.0 && got <= profiled_ms + 50.0,
            "{got} samples for a thread profiled ~{profiled_ms} ms: {t}"
        );
        assert!(t["classes"]["[S]"].as_f64().unwrap() > 0.2 * got, "{t}");
    }
}

/// -p on a process that computes, then blocks until genba stops: its
/// samples carry its pid and are symbolized.
#[test]
fn attach_then_block_keeps_pid_and_symbols() {
    require_bpf!();
    let _g = serial();
    let mut p = Command::new("sh")
        .args([
            "-c",
            "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; sleep 1",
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let r = json_report(&["--sort", "pid,dso,sym", "-p", &p.id().to_string()]);
    let _ = p.wait();
    for row in r["rows"].as_array().unwrap() {
        assert_ne!(row["pid"], "0", "{row}");
    }
    let sh = p.id().to_string();
    let wait = r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["pid"] == sh.as_str() && row["sym"].as_str().unwrap().starts_with("[B]"))
        .unwrap_or_else(|| panic!("no [B] row for sh: {}", r["rows"]));
    assert!(wait["dso"].as_str().unwrap().starts_with("libc"), "{wait}");
    assert!(wait["sym"].as_str().unwrap().contains("wait"), "{wait}");
}

/// -a while hundreds of short processes come and go: each is counted as
/// running for the time it ran, not until the profile stops (a thread keeps
/// running a little after its exit is reported).
#[test]
fn whole_system_short_processes() {
    require_bpf!();
    let _g = serial();
    let r = json_report(&[
        "-a",
        "--",
        "sh",
        "-c",
        "i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done",
    ]);
    // the on-CPU time of each: /bin/true runs about a millisecond (waits
    // for a CPU can be long on a loaded machine, and are real)
    let trues: Vec<&Value> = r["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["comm"] == "true")
        .collect();
    assert!(trues.len() > 50, "{} true processes seen", trues.len());
    for t in trues {
        // single-threaded: a row of another tid under its name is a thread
        // given a stale identity (one whose profiling slot it took over)
        assert_eq!(t["tid"], t["pid"], "{t}");
        let on = t["classes"]["[.]"].as_f64().unwrap() + t["classes"]["[k]"].as_f64().unwrap();
        assert!(on <= 20.0, "a true process ran {on} periods: {t}");
    }
}

/// -F sets the period on and off the CPU; --rows limits the rows;
/// --call-graph caller prints chains from main down.
#[test]
fn frequency_rows_and_caller_chains() {
    require_bpf!();
    let _g = serial();
    let dir = TempDir::new("freq");
    // 200 Hz: a 5 ms period, so about a fifth of the samples of 1000 Hz
    let r = profile(&["-F", "200"], "profile_sleep", &["1000"]);
    assert_eq!(r.report["period_ns"], 5_000_000);
    let tid = r.truth["tid"].as_u64().unwrap();
    let got = r.thread(tid)["samples"].as_f64().unwrap();
    let want = r.truth["wall_ns"].as_f64().unwrap() / 5e6;
    assert!(
        (got - want).abs() <= 0.05 * want + 3.0,
        "{got} samples, {want:.0} periods"
    );

    let report = dir.join("r.txt");
    let out = run(
        genba_cmd(["profile", "--rows", "3", "--call-graph", "caller", "-o"])
            .arg(&report)
            .arg("--")
            .arg(prog("profile_mixed"))
            .args(["500", dir.path().to_str().unwrap()]),
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = fs::read_to_string(&report).unwrap();
    let samples = &text[text.find("\nSamples:").expect("rows")..];
    let rows: Vec<&str> = samples
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 4, "3 rows and the rest: {samples}");
    assert!(rows[3].contains("more rows"), "{samples}");
    // caller order: main comes before compute in compute's chain
    let chain = &text[text.find("[.] compute").expect("compute row")..];
    assert!(
        chain.find("|     main ").unwrap() < chain.find("|     compute ").unwrap(),
        "{chain}"
    );
}

/// Bad input: one line, a non-zero exit, no panic, nothing started.
#[test]
fn bad_input_is_one_clear_line() {
    for (args, want) in [
        (
            vec!["profile", "-F", "0", "--", "true"],
            "-F must be between",
        ),
        (
            vec!["profile", "--sort", "comm,bogus", "--", "true"],
            "invalid --sort key 'bogus'",
        ),
        (
            vec!["profile", "--call-graph", "sideways", "--", "true"],
            "invalid --call-graph 'sideways'",
        ),
        (vec!["profile"], "must have COMMAND to run or -p PID"),
        (
            vec!["profile", "--stack-bytes", "100", "--", "true"],
            "--stack-bytes must be between 512 and 8192",
        ),
        (
            vec!["profile", "--buffer-size", "3", "--", "true"],
            "--buffer-size must be a power of two",
        ),
        (
            vec!["profile", "-a", "-p", "1"],
            "-a and -p are mutually exclusive",
        ),
        (
            vec!["profile", "--format", "xml", "--", "true"],
            "invalid --format 'xml'",
        ),
        (
            vec![
                "profile",
                "--pprof",
                "/nonexistent/dir/p.pb.gz",
                "--",
                "true",
            ],
            "Can't create '/nonexistent/dir/p.pb.gz'",
        ),
        (
            vec!["profile", "--", "/nonexistent/program"],
            "Can't stat '/nonexistent/program'",
        ),
    ] {
        let out = run(&mut genba_cmd(&args));
        let err = &out.stderr;
        assert_ne!(out.code(), Some(0), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
