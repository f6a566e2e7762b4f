//! `--gpu`: OpenCL calls and the device's own times of each command, on the
//! recording's clock, checked against what an OpenCL program measured of
//! itself (its own profiling events, its own CLOCK_MONOTONIC brackets) on
//! pocl, the OpenCL implementation that runs on the CPU.

#[macro_use]
mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The OpenCL test program, built once (None: no OpenCL here; in CI a
/// failure, since scripts/deps.sh installs it).
fn vadd() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let src = repo_root().join("tests/programs/gpu/opencl_vadd.c");
            let dir = programs_dir().join("gpu");
            std::fs::create_dir_all(&dir).unwrap();
            let bin = dir.join("opencl_vadd");
            let ok = Command::new("gcc")
                .args(["-O1", "-Wall", "-o"])
                .arg(&bin)
                .arg(&src)
                .arg("-lOpenCL")
                .status()
                .is_ok_and(|s| s.success())
                && Command::new(&bin)
                    .args(["plain", "64", "1"])
                    .output()
                    .is_ok_and(|o| o.status.success());
            prerequisite(
                ok,
                "no working OpenCL (scripts/deps.sh installs pocl and the headers)",
            )
            .then_some(bin)
        })
        .clone()
}

fn check(path: &Path) -> Value {
    let out = Command::new("python3")
        .arg(repo_root().join("scripts/check_perfetto.py"))
        .arg(path)
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Records `args` of the program with --gpu: its own JSON and the checked
/// recording.
fn record(dir: &TempDir, name: &str, args: &[&str]) -> Option<(Value, Value)> {
    let prog = vadd()?;
    let file = dir.join(name);
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&prog)
        .args(args));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["sums_ok"], true, "{truth}");
    Some((truth, check(&file)))
}

fn gpu_slices<'a>(s: &'a Value, name: &str) -> Vec<&'a Value> {
    s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| {
            x["name"] == name
                && x["track"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("OpenCL queue"))
        })
        .collect()
}

/// A command's slice `k` lies inside the program's own bracket `m`
/// (CLOCK_MONOTONIC before the call that enqueued it, after the wait that
/// saw it end), and a flow from that call ends at it.
fn assert_in_bracket(k: &Value, m: &Value) {
    let start = k["ts"].as_u64().unwrap();
    let end = start + k["dur"].as_u64().unwrap();
    assert!(
        m["before"].as_u64().unwrap() <= start && end <= m["after"].as_u64().unwrap(),
        "{k} vs {m}"
    );
    assert_eq!(k["flows_in"].as_array().unwrap().len(), 1, "{k}");
}

/// A report's command row: 0 < p50 <= p99 <= the longest.
fn assert_percentiles(row: &Value) {
    let at = |k: &str| row[k].as_u64().unwrap();
    assert!(
        at("p50_ns") > 0 && at("p50_ns") <= at("p99_ns") && at("p99_ns") <= at("max_ns"),
        "{row}"
    );
}

/// Compiles `src` (relative to the repository) into `bin`, with `extra`
/// after the source (libraries, -rdynamic).
fn gcc(bin: &Path, src: &str, extra: &[&str]) {
    let st = Command::new("gcc")
        .args(["-O1", "-Wall", "-o"])
        .arg(bin)
        .arg(repo_root().join(src))
        .args(extra)
        .status()
        .expect("gcc");
    assert!(st.success(), "gcc {src}");
}

fn calls<'a>(s: &'a Value, name: &str) -> Vec<&'a Value> {
    s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["name"] == name && x["tid"].is_u64())
        .collect()
}

/// A program that profiles its own kernels: the recording has each kernel
/// with the device's very times (the same duration to the nanosecond),
/// mapped onto CLOCK_MONOTONIC inside the program's own brackets; each
/// kernel has a flow from the call that enqueued it; the API calls are on
/// the program's thread with their decoded arguments, a failing call with
/// its error's name.
#[test]
fn opencl_kernels_on_the_programs_own_clock() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-profiled");
    let Some((truth, s)) = record(&dir, "p.pftrace", &["profiled", "262144", "5"]) else {
        return;
    };
    let mine = truth["kernels"].as_array().unwrap();
    let mut kernels = gpu_slices(&s, "vadd");
    kernels.sort_by_key(|k| k["ts"].as_u64());
    assert_eq!(kernels.len(), mine.len(), "{kernels:?}");
    for (k, m) in kernels.iter().zip(mine) {
        let dur = k["dur"].as_u64().unwrap();
        let own = m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap();
        assert_eq!(dur, own, "the device's duration: {k} vs {m}");
        let (start, end) = (k["ts"].as_u64().unwrap(), k["ts"].as_u64().unwrap() + dur);
        let (before, after) = (m["before"].as_u64().unwrap(), m["after"].as_u64().unwrap());
        assert!(
            before <= start && end <= after,
            "kernel at {start}..{end} outside the program's bracket {before}..{after}: {k}"
        );
        // queued before it started, by the program's own numbers
        let queued = m["start"].as_u64().unwrap() - m["queued"].as_u64().unwrap();
        assert_eq!(k["args"]["queued_ns"].as_u64(), Some(queued), "{k}");
        assert_eq!(k["args"]["kind"], "kernel");
        assert_eq!(k["flows_in"].as_array().unwrap().len(), 1, "{k}");
        // its wait in the queue, apart: QUEUED to START on the queue's
        // waiting track
        if queued > 0 {
            let waits: Vec<&Value> = s["slices"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|w| {
                    w["name"] == "vadd"
                        && w["args"]["state"] == "queued"
                        && w["ts"].as_u64() == Some(start - queued)
                })
                .collect();
            assert_eq!(waits.len(), 1, "the wait of {k}: {waits:?}");
            assert_eq!(waits[0]["dur"].as_u64(), Some(queued), "{:?}", waits[0]);
            assert!(
                waits[0]["track"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("waiting in OpenCL queue 0x")),
                "{:?}",
                waits[0]
            );
        }
    }
    // each enqueue call: on the program's thread, decoded, with the flow
    // its kernel ends
    let enq = calls(&s, "clEnqueueNDRangeKernel");
    assert_eq!(enq.len(), mine.len());
    for e in &enq {
        let call = e["args"]["call"].as_str().unwrap();
        assert!(
            call.starts_with("clEnqueueNDRangeKernel(0x")
                && call.contains("\"vadd\", 1, NULL, [262144], NULL")
                && call.ends_with("= CL_SUCCESS"),
            "{call}"
        );
        let out = e["flows_out"].as_array().unwrap();
        assert_eq!(out.len(), 1, "{e}");
        assert!(
            kernels.iter().any(|k| k["flows_in"][0] == out[0]),
            "no kernel ends the flow of {e}"
        );
    }
    // the transfers: bytes and a bandwidth
    let writes = gpu_slices(&s, "write buffer");
    assert_eq!(writes.len(), 2, "{writes:?}");
    for w in &writes {
        assert_eq!(w["args"]["bytes"].as_u64(), Some(262144 * 4), "{w}");
        assert!(
            w["args"]["bandwidth"].as_str().unwrap().ends_with(" GB/s"),
            "{w}"
        );
    }
    assert_eq!(gpu_slices(&s, "read buffer").len(), 1);
    // the other kinds: a copy, a fill, a map and its unmap, a rectangle
    // read, a marker, each timed on the device (and the program saw its
    // own results)
    assert_eq!(truth["others_ok"], true, "{truth}");
    for (name, kind, bytes) in [
        ("copy buffer", "copy", Some(262144 * 4)),
        ("fill buffer", "fill", Some(262144 * 4)),
        ("map buffer", "map", Some(262144 * 4)),
        ("unmap", "unmap", None),
        ("read buffer rect", "read", Some(64 * 4 * 4)),
        ("marker", "marker", None),
    ] {
        let c = gpu_slices(&s, name);
        assert_eq!(c.len(), 1, "{name}: {c:?}");
        assert_eq!(c[0]["args"]["kind"], kind, "{name}");
        assert_eq!(c[0]["args"]["bytes"].as_u64(), bytes, "{name}: {}", c[0]);
    }
    // the failing call, as it failed
    let bad = calls(&s, "clCreateKernel")
        .into_iter()
        .find(|c| {
            c["args"]["call"]
                .as_str()
                .unwrap()
                .contains("no_such_kernel")
        })
        .expect("the failing clCreateKernel");
    assert!(
        bad["args"]["call"]
            .as_str()
            .unwrap()
            .ends_with("= CL_INVALID_KERNEL_NAME"),
        "{bad}"
    );
    assert_eq!(bad["args"]["error"].as_i64(), Some(-46));

    // the report: the device time of each kind of command, the API calls;
    // none of them in the system-call table
    let file = dir.join("p.pftrace");
    let out = run(genba_cmd(["report", "--format", "json"]).arg(&file));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let j: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let own: u64 = mine
        .iter()
        .map(|m| m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap())
        .sum();
    let vadd = j["gpu"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vadd")
        .unwrap_or_else(|| panic!("{}", j["gpu"]));
    assert_eq!(vadd["count"].as_u64(), Some(mine.len() as u64));
    assert_eq!(vadd["device_ns"].as_u64(), Some(own), "{vadd}");
    let ck = j["gpu"]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "clCreateKernel")
        .unwrap();
    assert_eq!(
        (ck["calls"].as_u64(), ck["errors"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(
        j["syscalls"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| !r["syscall"].as_str().unwrap().starts_with("clEnqueue")),
        "{}",
        j["syscalls"]
    );
    // percentiles within the kernels' own times
    assert_percentiles(vadd);
    // bytes by direction: the two buffers written, n floats each
    let write = j["gpu"]["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "write")
        .unwrap_or_else(|| panic!("{}", j["gpu"]));
    assert_eq!(write["bytes"].as_u64(), Some(2 * 262144 * 4), "{write}");
    // the queue busy for at least its kernels, within the run
    let queues = j["gpu"]["queues"].as_array().unwrap();
    assert_eq!(queues.len(), 1, "{queues:?}");
    let busy = queues[0]["busy_ns"].as_u64().unwrap();
    assert!(busy >= own, "{busy} busy, {own} in kernels");
    assert!(queues[0]["busy_percent"].as_f64().unwrap() <= 100.0);
    // time off the CPU inside GPU calls: within those calls
    for b in j["gpu"]["blocked"].as_array().unwrap() {
        let call = j["gpu"]["calls"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == b["function"])
            .unwrap_or_else(|| panic!("{b}"));
        assert!(
            b["total_ns"].as_u64() <= call["total_ns"].as_u64(),
            "{b} {call}"
        );
    }
    let text = run(genba_cmd(["report"]).arg(&file));
    assert!(
        text.stdout
            .contains("GPU commands (the device's own times):"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("GPU API calls"), "{}", text.stdout);
    // jsonl: a line per call and per command
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let lines: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cmds: Vec<&Value> = lines
        .iter()
        .filter(|v| v["type"] == "gpu_exec" && v["name"] == "vadd")
        .collect();
    assert_eq!(cmds.len(), mine.len());
    for c in &cmds {
        assert_eq!(c["kind"], "kernel");
        assert!(
            c["queue"].as_str().unwrap().starts_with("OpenCL queue 0x"),
            "{c}"
        );
        assert!(c["enqueued_by"].is_u64(), "{c}");
    }
    assert_eq!(
        lines
            .iter()
            .filter(|v| v["type"] == "gpu_api" && v["name"] == "clEnqueueNDRangeKernel")
            .count(),
        mine.len()
    );
    assert!(lines.iter().any(|v| v["type"] == "gpu_clock"));
    assert!(lines
        .iter()
        .all(|v| v["type"] != "syscall" || !v["name"].as_str().unwrap().starts_with("clEnqueue")));
    // chrome: every GPU flow starts at a call and ends at its command
    let c = run(genba_cmd(["export", "--format", "chrome"]).arg(&file));
    assert_eq!(c.code(), Some(0), "{}", c.describe());
    let chrome: Value = serde_json::from_str(&c.stdout).unwrap();
    let evs = chrome["traceEvents"].as_array().unwrap();
    let gpu_flows = |ph: &str| {
        let mut ids: Vec<u64> = evs
            .iter()
            .filter(|e| e["ph"] == ph && e["cat"] == "gpu")
            .map(|e| e["id"].as_u64().unwrap())
            .collect();
        ids.sort();
        ids
    };
    let starts = gpu_flows("s");
    assert!(starts.len() >= mine.len() + 3, "{starts:?}");
    assert_eq!(starts, gpu_flows("f"));
}

/// A program that asked for no profiling and no events: the recording
/// still has every command's device times (the layer turned profiling on,
/// made the events and released them), and the program saw none of it.
#[test]
fn opencl_profiling_is_forced_and_hidden() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-plain");
    let Some((truth, s)) = record(&dir, "q.pftrace", &["plain", "65536", "4"]) else {
        return;
    };
    assert_eq!(truth["queue_profiling"], false, "{truth}");
    assert_eq!(
        truth["event_profiling_error"], -7,
        "CL_PROFILING_INFO_NOT_AVAILABLE: {truth}"
    );
    let kernels = gpu_slices(&s, "vadd");
    assert_eq!(kernels.len(), 4, "{kernels:?}");
    let mine = truth["kernels"].as_array().unwrap();
    for (k, m) in kernels.iter().zip(mine) {
        let start = k["ts"].as_u64().unwrap();
        let end = start + k["dur"].as_u64().unwrap();
        assert!(
            m["before"].as_u64().unwrap() <= start && end <= m["after"].as_u64().unwrap(),
            "{k} vs {m}"
        );
    }
    // the device's clock, as the layer found it
    let out = run(genba_cmd(["export", "--format", "jsonl"]).arg(dir.join("q.pftrace")));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stdout.contains("CLOCK_MONOTONIC_RAW") || out.stdout.contains("CLOCK_MONOTONIC"),
        "no gpu clock in {}",
        out.stdout.lines().take(3).collect::<Vec<_>>().join("\n")
    );
}

/// Without --gpu nothing of the layer is there: no GPU slices, and the
/// program's own profiling answers as without genba.
#[test]
fn without_gpu_no_layer() {
    require_bpf!();
    let _s = serial();
    let Some(prog) = vadd() else { return };
    let dir = TempDir::new("gpu-none");
    let file = dir.join("n.pftrace");
    let out = run(genba_cmd(["record", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&prog)
        .args(["plain", "4096", "1"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let s = check(&file);
    assert!(gpu_slices(&s, "vadd").is_empty());
    assert!(calls(&s, "clEnqueueNDRangeKernel").is_empty());
    // --gpu with -p: refused in one line
    let out = run(genba_cmd(["record", "--gpu", "-p", "1", "-o"]).arg(&file));
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    assert_eq!(out.stderr_messages().len(), 1, "{}", out.describe());
}

/// `trace --gpu`: each OpenCL call a line of its thread, each command a
/// `--- GPU ... ---` line, before the process's exit; with -c, the GPU
/// tables after the system-call table. `profile --gpu`: the tables after
/// the profile.
#[test]
fn trace_and_profile_show_the_gpu() {
    require_bpf!();
    let _s = serial();
    let Some(prog) = vadd() else { return };
    let out = run(
        genba_cmd(["trace", "--gpu", "-f", "-e", "trace=none", "-T", "--"])
            .arg(&prog)
            .args(["plain", "65536", "3"]),
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let lines: Vec<&str> = out.stderr.lines().collect();
    let enq = lines
        .iter()
        .filter(|l| l.contains("clEnqueueNDRangeKernel(0x") && l.contains("= CL_SUCCESS <"))
        .count();
    assert_eq!(enq, 3, "{}", out.stderr);
    let ran: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("--- GPU kernel vadd on queue 0x") && l.ends_with(" ---"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ran.len(), 3, "{}", out.stderr);
    let exit = lines
        .iter()
        .rposition(|l| l.ends_with("+++ exited with 0 +++"))
        .unwrap();
    assert!(ran.iter().all(|&i| i < exit), "{}", out.stderr);
    assert!(lines
        .iter()
        .any(|l| l.contains("clCreateKernel(0x") && l.contains("= CL_INVALID_KERNEL_NAME")));

    let out = run(genba_cmd(["trace", "--gpu", "-c", "-f", "--"])
        .arg(&prog)
        .args(["plain", "65536", "3"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert!(
        out.stderr
            .contains("GPU commands (the device's own times):"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .lines()
            .any(|l| l.starts_with("kernel  vadd") && l.split_whitespace().nth(2) == Some("3")),
        "{}",
        out.stderr
    );
    // the device's busy time: its one queue, named as the layer named it
    let err: Vec<&str> = out.stderr.lines().collect();
    let h = err
        .iter()
        .position(|l| *l == "GPU devices (busy: the union of their queues' busy times):")
        .unwrap_or_else(|| panic!("{}", out.stderr));
    let row: Vec<&str> = err[h + 2].split_whitespace().collect();
    assert_eq!(row[0], "1", "{}", err[h + 2]);
    assert!(row[1].parse::<u64>().unwrap() >= 3, "{}", err[h + 2]);
    assert!(
        row[4] == "OpenCL" && !err[h + 2].contains("device 0x"),
        "{}",
        err[h + 2]
    );

    let dir = TempDir::new("gpu-profile");
    let report = dir.join("p.txt");
    let out = run(genba_cmd(["profile", "--gpu", "-o"])
        .arg(&report)
        .arg("--")
        .arg(&prog)
        .args(["plain", "65536", "3"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(
        text.contains("GPU commands (the device's own times):"),
        "{text}"
    );
    assert!(text.contains("GPU API calls"), "{text}");
}

/// A program that loads libOpenCL at run time (dlopen) is recorded too:
/// the ICD loader loads the layer, whatever way it was itself loaded.
#[test]
fn a_program_that_dlopens_opencl() {
    require_bpf!();
    let _s = serial();
    if vadd().is_none() {
        return;
    }
    let dir = TempDir::new("gpu-dlopen");
    let bin = dir.join("opencl_dlopen");
    gcc(&bin, "tests/programs/gpu/opencl_dlopen.c", &["-ldl"]);
    let file = dir.join("d.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(out.stdout.trim(), "{\"ok\": true}");
    let s = check(&file);
    for name in ["clCreateContext", "clReleaseContext"] {
        let c = calls(&s, name);
        assert_eq!(c.len(), 1, "{name}: {c:?}");
        assert!(c[0]["args"]["call"]
            .as_str()
            .unwrap()
            .ends_with("= CL_SUCCESS"));
    }
}

/// The Vulkan test program and its shader, built into `dir` (None: no
/// working Vulkan here; in CI a failure, since scripts/deps.sh installs
/// lavapipe, the headers and glslang).
fn vulkan_compute(dir: &TempDir) -> Option<(PathBuf, PathBuf)> {
    let spv = dir.join("double.spv");
    let shader = Command::new("glslangValidator")
        .args(["-V", "-o"])
        .arg(&spv)
        .arg(repo_root().join("tests/programs/gpu/vulkan_compute.comp"))
        .output();
    let bin = dir.join("vulkan_compute");
    let built = shader.is_ok_and(|o| o.status.success())
        && Command::new("gcc")
            .args(["-O1", "-Wall", "-o"])
            .arg(&bin)
            .arg(repo_root().join("tests/programs/gpu/vulkan_compute.c"))
            .arg("-lvulkan")
            .status()
            .is_ok_and(|s| s.success())
        && Command::new(&bin)
            .arg(&spv)
            .args(["64", "1"])
            .output()
            .is_ok_and(|o| o.status.success());
    assert!(
        built || std::env::var_os("CI").is_none(),
        "CI: no working Vulkan (scripts/deps.sh installs lavapipe, the headers and glslang)"
    );
    built.then_some((bin, spv))
}

/// The `gpu_clock` lines of a recording's jsonl export.
fn gpu_clocks(file: &Path) -> Vec<Value> {
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    x.stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "gpu_clock")
        .collect()
}

/// A Vulkan compute program (on lavapipe): its instance, device, pipeline
/// and buffer creation, each command buffer's begin, dispatch and end, each
/// submission and fence wait, recorded on its thread with their decoded
/// arguments and results; each dispatch's device times (the layer's own
/// timestamp queries, mapped with VK_EXT_calibrated_timestamps) inside the
/// program's own queries around it and its own CLOCK_MONOTONIC brackets,
/// with a flow from its vkCmdDispatch; the program's results unchanged.
#[test]
fn vulkan_calls_are_recorded() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-vulkan");
    let Some((bin, spv)) = vulkan_compute(&dir) else {
        return;
    };
    let file = dir.join("v.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin)
        .arg(&spv)
        .args(["65536", "3"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["ok"], true, "{truth}");
    let s = check(&file);
    for (name, n) in [
        ("vkCreateInstance", 1),
        ("vkCreateDevice", 1),
        ("vkCreateComputePipelines", 1),
        ("vkBeginCommandBuffer", 3),
        ("vkCmdDispatch", 3),
        ("vkEndCommandBuffer", 3),
        ("vkQueueSubmit", 3),
        ("vkWaitForFences", 3),
    ] {
        let c = calls(&s, name);
        assert_eq!(c.len(), n, "{name}: {c:?}");
        for x in &c {
            assert_eq!(x["args"]["api"], "Vulkan", "{x}");
        }
    }
    for d in calls(&s, "vkCmdDispatch") {
        // 65536 elements in groups of 64
        assert!(
            d["args"]["call"]
                .as_str()
                .unwrap()
                .ends_with(", 1024, 1, 1)"),
            "{d}"
        );
    }
    for q in calls(&s, "vkQueueSubmit") {
        assert!(
            q["args"]["call"]
                .as_str()
                .unwrap()
                .ends_with("= VK_SUCCESS"),
            "{q}"
        );
    }
    // the dispatches on the device: inside the program's own timestamps
    // (its queries are written around the layer's), on the program's clock
    let period = truth["period"].as_f64().unwrap();
    let mine = truth["dispatches"].as_array().unwrap();
    let mut ran: Vec<&Value> = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        // named by the pipeline's entry point
        .filter(|x| x["name"] == "main" && x["args"]["kind"] == "kernel")
        .collect();
    ran.sort_by_key(|x| x["ts"].as_u64());
    assert_eq!(ran.len(), mine.len(), "{ran:?}");
    for (k, m) in ran.iter().zip(mine) {
        assert!(
            k["track"].as_str().unwrap().starts_with("Vulkan queue 0x"),
            "{k}"
        );
        let dur = k["dur"].as_u64().unwrap() as f64;
        let own = (m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap()) as f64 * period;
        assert!(
            dur <= own + 1000.0,
            "{dur} ns on the device, the program's own {own}: {k}"
        );
        assert_in_bracket(k, m);
    }
    let timed = calls(&s, "vkCmdDispatch")
        .iter()
        .filter(|d| d["flows_out"].as_array().is_some_and(|f| f.len() == 1))
        .count();
    assert_eq!(timed, mine.len());
    // lavapipe's device clock is CLOCK_MONOTONIC itself: its calibration
    // says so, and its times need no offset
    let clocks = gpu_clocks(&file);
    assert_eq!(clocks.len(), 1, "{clocks:?}");
    assert_eq!(clocks[0]["device_clock"], "CLOCK_MONOTONIC", "{clocks:?}");
}

/// Nothing lost silently: a program whose calls overflow its shim's ring
/// (made 4 KiB here) has every call either recorded or counted lost, and
/// genba says how many were lost, on stderr and in the recording.
#[test]
fn gpu_records_lost_are_counted() {
    require_bpf!();
    let _s = serial();
    if vadd().is_none() {
        return;
    }
    let dir = TempDir::new("gpu-lost");
    let bin = dir.join("opencl_calls");
    gcc(&bin, "bench/programs/opencl_calls.c", &["-lOpenCL"]);
    let file = dir.join("l.pftrace");
    let n = 20000;
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin)
        .arg(n.to_string())
        .env("GENBA_GPU_RING_KIB", "4"));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let said: u64 = out
        .stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix("genba: ")?
                .strip_suffix(" GPU records lost (a shim's ring was full)")
        })
        .unwrap_or_else(|| panic!("no GPU loss said: {}", out.describe()))
        .parse()
        .unwrap();
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let lines: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let recorded = lines
        .iter()
        .filter(|v| v["type"] == "gpu_api" && v["name"] == "clSetKernelArg")
        .count() as u64;
    assert!(said > 0 && recorded < n, "{said} lost, {recorded} recorded");
    assert!(
        recorded + said >= n,
        "{recorded} recorded + {said} lost < {n} calls"
    );
    // the recording's own counter says the same, apart from genba's
    let counted: Vec<u64> = lines
        .iter()
        .filter(|v| v["type"] == "gpu_lost")
        .map(|v| v["records"].as_u64().unwrap())
        .collect();
    assert_eq!(
        counted,
        [said],
        "{}",
        x.stdout
            .lines()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(lines
        .iter()
        .any(|v| v["type"] == "lost" && v["events"] == 0));
    check(&file);
}

/// The wgpu program (tests/programs/gpu/wgpu_sum, its own crate), built
/// once into target/wgpu-sum (None: no Vulkan or no crates here; in CI a
/// failure, since scripts/deps.sh installs lavapipe and the build fetches
/// the crates as genba's own build does).
fn wgpu_sum() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = target_dir().join("wgpu-sum");
            let built = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["build", "--locked", "--quiet", "--manifest-path"])
                .arg(repo_root().join("tests/programs/gpu/wgpu_sum/Cargo.toml"))
                .env("CARGO_TARGET_DIR", &dir)
                .status()
                .is_ok_and(|s| s.success());
            let bin = dir.join("debug/wgpu_sum");
            let ok = built
                && Command::new(&bin)
                    .args(["4096", "1"])
                    .output()
                    .is_ok_and(|o| o.status.success());
            prerequisite(
                ok,
                "the wgpu program did not build or run (scripts/deps.sh installs lavapipe)",
            )
            .then_some(bin)
        })
        .clone()
}

/// A real wgpu program (a sum reduction over 4M numbers, three compute
/// passes a round, on Vulkan through lavapipe) recorded with no change to
/// it: wgpu's own Vulkan calls on its thread, each of its dispatches on the
/// device named by its entry point, each inside the program's own pass
/// timestamps (the same duration within 1% for the long ones) and inside
/// its CLOCK_MONOTONIC brackets of the submission and the wait, with a flow
/// from the vkCmdDispatch that recorded it; wgpu's copies timed with their
/// bytes; nothing overlapping on the in-order queue; the sum unchanged.
/// wgpu waits with timeline semaphores, so the times are read at those
/// waits, round by round.
#[test]
fn wgpu_program_is_recorded() {
    require_bpf!();
    let Some(bin) = wgpu_sum() else { return };
    let _s = serial();
    let dir = TempDir::new("gpu-wgpu");
    let file = dir.join("w.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin)
        .args(["4194304", "3"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["ok"], true, "{truth}");
    let s = check(&file);
    let mut on_queue: Vec<&Value> = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| {
            x["track"]
                .as_str()
                .is_some_and(|t| t.starts_with("Vulkan queue 0x"))
        })
        .collect();
    on_queue.sort_by_key(|x| x["ts"].as_u64());
    // no two commands at once on the queue
    for w in on_queue.windows(2) {
        let end = w[0]["ts"].as_u64().unwrap() + w[0]["dur"].as_u64().unwrap();
        assert!(
            end <= w[1]["ts"].as_u64().unwrap(),
            "{} then {}",
            w[0],
            w[1]
        );
    }
    let ran: Vec<&&Value> = on_queue.iter().filter(|x| x["name"] == "reduce").collect();
    let mine = truth["dispatches"].as_array().unwrap();
    assert_eq!(ran.len(), mine.len(), "{ran:?}");
    let period = truth["period"].as_f64().unwrap();
    for (k, m) in ran.iter().zip(mine) {
        assert_eq!(k["args"]["kind"], "kernel", "{k}");
        let dur = k["dur"].as_u64().unwrap() as f64;
        let own = (m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap()) as f64 * period;
        assert!(
            dur <= own + 1000.0,
            "{dur} ns on the device, the program's own {own}: {k}"
        );
        // the first pass over 4M numbers runs for milliseconds: the
        // pass's own times and the layer's around its one dispatch agree
        if own > 10e6 {
            assert!(dur >= own * 0.99, "{dur} ns, the program's own {own}: {k}");
        }
        assert_in_bracket(k, m);
    }
    // the vkCmdDispatch calls that recorded them, on the program's thread
    let dispatches = calls(&s, "vkCmdDispatch");
    assert_eq!(dispatches.len(), mine.len());
    for (d, m) in dispatches.iter().zip(mine) {
        let groups = m["groups"][0].as_u64().unwrap();
        assert!(
            d["args"]["call"]
                .as_str()
                .unwrap()
                .ends_with(&format!(", {groups}, 1, 1)")),
            "{d} vs {m}"
        );
        assert_eq!(d["flows_out"].as_array().map(Vec::len), Some(1), "{d}");
    }
    // each round copies its 4-byte result for the host: timed, with bytes
    let results = on_queue
        .iter()
        .filter(|x| x["name"] == "copy buffer" && x["args"]["bytes"] == 4)
        .count();
    assert_eq!(results, 3, "{on_queue:?}");
    // wgpu's own calls: its submissions and its timeline-semaphore waits
    assert_eq!(calls(&s, "vkCreateDevice").len(), 1);
    assert!(calls(&s, "vkQueueSubmit").len() >= 3);
    assert!(!calls(&s, "vkWaitSemaphores").is_empty());

    // the report: the kernel's executions with percentiles, the queue busy
    // at least for them, and the program blocked in its waits for them,
    // at wgpu's wait
    let out = run(genba_cmd(["report", "--format", "json"]).arg(&file));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let j: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let gpu = &j["gpu"];
    let reduce = gpu["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "reduce")
        .unwrap_or_else(|| panic!("{gpu}"));
    assert_eq!(reduce["count"].as_u64(), Some(mine.len() as u64));
    assert_percentiles(reduce);
    let busy = gpu["queues"][0]["busy_ns"].as_u64().unwrap();
    assert!(busy >= reduce["device_ns"].as_u64().unwrap(), "{gpu}");
    let waited: u64 = gpu["blocked"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["function"] == "vkWaitSemaphores" && b["class"] == "[B]")
        .map(|b| {
            assert!(
                b["site"].as_str().unwrap().contains("wait_for_fence"),
                "{b}"
            );
            b["total_ns"].as_u64().unwrap()
        })
        .sum();
    let in_waits = gpu["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "vkWaitSemaphores")
        .unwrap()["total_ns"]
        .as_u64()
        .unwrap();
    // the first pass alone runs for milliseconds, waited for in a block
    assert!(
        waited > 0 && waited <= in_waits,
        "{waited} of {in_waits}: {gpu}"
    );

    // the same tables in the HTML report, in a real browser
    if !browser() {
        return;
    }
    let page = dir.join("w.html");
    let rep = run(genba_cmd(["report", "--html"]).arg(&page).arg(&file));
    assert_eq!(rep.code(), Some(0), "{}", rep.describe());
    let v = check_html(&page, &dir.join("w.png"));
    assert_eq!(v["gpu_shown"], true, "{v}");
    for (table, rows) in v["gpu_rows"].as_object().unwrap() {
        assert!(rows.as_u64() > Some(0), "{table} empty: {v}");
    }
    let names: Vec<&str> = v["threads"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("Vulkan queue")),
        "{names:?}"
    );
}

/// The CUDA runtime (libcudart from PyPI's nvidia-cuda-runtime-cu12; this
/// machine has no device and no driver, so every call that needs one
/// fails): a program calling it from two threads has each call recorded on
/// its thread by genba's preloaded shim, in order, with its arguments (the
/// kernel by its host stub's name, a copy's direction, an answer written
/// back on success) and the runtime's own name for what it returned; the
/// program's results are the same as without genba.
#[test]
fn cuda_runtime_calls_are_recorded() {
    require_bpf!();
    let lib = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_runtime as m; print(list(m.__path__)[0])",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("lib"));
    assert!(
        lib.is_some() || std::env::var_os("CI").is_none(),
        "CI: no CUDA runtime (scripts/deps.sh installs nvidia-cuda-runtime-cu12)"
    );
    let Some(lib) = lib else { return };
    let _s = serial();
    let dir = TempDir::new("gpu-cuda");
    let bin = dir.join("cuda_calls");
    gcc(
        &bin,
        "tests/programs/gpu/cuda_calls.c",
        &[
            "-rdynamic",
            &format!("-L{}", lib.display()),
            "-l:libcudart.so.12",
            &format!("-Wl,-rpath,{}", lib.display()),
            "-lpthread",
        ],
    );
    let plain = Command::new(&bin).output().unwrap();
    assert!(plain.status.success());
    let file = dir.join("c.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let mine = truth["calls"].as_array().unwrap();
    // the same answers as without genba (the tids aside)
    let plain: Value = serde_json::from_slice(&plain.stdout).unwrap();
    let strip = |v: &Value| -> Vec<(String, i64, i64)> {
        v["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["code"].as_i64().unwrap(),
                    c["value"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&plain), strip(&truth));
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let mut api: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "gpu_api" && v["api"] == "CUDA")
        .collect();
    api.sort_by_key(|v| v["ts"].as_u64());
    assert_eq!(api.len(), mine.len(), "{api:?}");
    for tid in mine
        .iter()
        .map(|m| m["tid"].as_u64())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let theirs: Vec<&Value> = mine.iter().filter(|m| m["tid"].as_u64() == tid).collect();
        let ours: Vec<&Value> = api.iter().filter(|v| v["tid"].as_u64() == tid).collect();
        assert_eq!(theirs.len(), ours.len(), "thread {tid:?}: {ours:?}");
        for (m, v) in theirs.iter().zip(&ours) {
            assert_eq!(v["name"], m["name"], "{v} vs {m}");
            let call = v["call"].as_str().unwrap();
            assert!(
                call.ends_with(&format!(") = {}", m["error"].as_str().unwrap())),
                "{call} vs {m}"
            );
            assert_eq!(v["error"].as_i64(), m["code"].as_i64(), "{v}");
            match m["name"].as_str().unwrap() {
                "cudaLaunchKernel" => assert!(
                    call.starts_with("cudaLaunchKernel(vadd, {4, 1, 1}, {64, 1, 1}, 0x"),
                    "{call}"
                ),
                "cudaMemcpy" => assert!(call.contains(", 1024, cudaMemcpyHostToDevice)"), "{call}"),
                "cudaMemcpyAsync" => {
                    assert!(call.contains(", 1024, cudaMemcpyDeviceToHost, "), "{call}")
                }
                "cudaRuntimeGetVersion" => {
                    assert_eq!(m["code"], 0);
                    assert!(
                        call.starts_with(&format!("cudaRuntimeGetVersion([{}])", m["value"])),
                        "{call} vs {m}"
                    );
                }
                _ => {}
            }
        }
    }
    // the report's GPU calls table counts them, errors apart
    let rep = run(genba_cmd(["report", "--format", "json"]).arg(&file));
    let j: Value = serde_json::from_str(rep.stdout.trim()).unwrap();
    let launch = j["gpu"]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "cudaLaunchKernel")
        .unwrap_or_else(|| panic!("{}", j["gpu"]));
    let launches: Vec<&Value> = mine
        .iter()
        .filter(|m| m["name"] == "cudaLaunchKernel")
        .collect();
    assert_eq!(launch["calls"].as_u64(), Some(launches.len() as u64));
    assert_eq!(
        launch["errors"].as_u64(),
        Some(launches.iter().filter(|m| m["code"] != 0).count() as u64)
    );
}

/// Several threads, each with its own queue, enqueueing at the same time:
/// each kernel on its own queue's track (no lanes: an in-order queue never
/// overlaps itself), with its device times exactly the program's own,
/// inside its thread's brackets, and a flow from its thread's own
/// clEnqueueNDRangeKernel; through the layer and through the fallback.
#[test]
fn opencl_threads_and_queues() {
    require_bpf!();
    if vadd().is_none() {
        return;
    }
    let _s = serial();
    let dir = TempDir::new("gpu-threads");
    let bin = dir.join("opencl_threads");
    gcc(
        &bin,
        "tests/programs/gpu/opencl_threads.c",
        &["-lOpenCL", "-lpthread"],
    );
    // through the layer, then through the fallback alone
    for fallback in [false, true] {
        let file = dir.join(&format!("t{fallback}.pftrace"));
        let mut cmd = genba_cmd(["record", "--gpu", "-o"]);
        cmd.arg(&file).arg("--").arg(&bin).args(["3", "4", "65536"]);
        if fallback {
            cmd.env("GENBA_GPU_NO_OPENCL_LAYER", "1");
        }
        let out = run(&mut cmd);
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
        assert_eq!(truth["ok"], true, "{truth}");
        let s = check(&file);
        let slices = s["slices"].as_array().unwrap();
        // flow id -> the thread of the call it leaves
        let mut from = std::collections::HashMap::new();
        for c in calls(&s, "clEnqueueNDRangeKernel") {
            for f in c["flows_out"].as_array().unwrap() {
                from.insert(f.as_u64().unwrap(), c["tid"].as_u64().unwrap());
            }
        }
        for t in truth["threads"].as_array().unwrap() {
            let tid = t["tid"].as_u64().unwrap();
            let queue = format!("OpenCL queue {} (", t["queue"].as_str().unwrap());
            let mut ran: Vec<&Value> = slices
                .iter()
                .filter(|x| {
                    x["name"] == "twice"
                        && x["track"].as_str().is_some_and(|q| q.starts_with(&queue))
                })
                .collect();
            ran.sort_by_key(|x| x["ts"].as_u64());
            let mine = t["kernels"].as_array().unwrap();
            assert_eq!(ran.len(), mine.len(), "thread {tid}, {queue}: {ran:?}");
            for (k, m) in ran.iter().zip(mine) {
                assert!(!k["track"].as_str().unwrap().contains(" #"), "a lane: {k}");
                let dur = k["dur"].as_u64().unwrap();
                assert_eq!(
                    dur,
                    m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap(),
                    "{k} vs {m}"
                );
                let start = k["ts"].as_u64().unwrap();
                assert!(
                    m["before"].as_u64().unwrap() <= start
                        && start + dur <= m["after"].as_u64().unwrap(),
                    "{k} vs {m}"
                );
                let flows = k["flows_in"].as_array().unwrap();
                assert_eq!(flows.len(), 1, "{k}");
                assert_eq!(from.get(&flows[0].as_u64().unwrap()), Some(&tid), "{k}");
            }
        }
        // the device busy for the union of its three queues' commands
        // (they overlap: one device, three threads)
        let mut runs: Vec<(u64, u64)> = slices
            .iter()
            .filter(|x| {
                x["track"]
                    .as_str()
                    .is_some_and(|q| q.starts_with("OpenCL queue"))
            })
            .map(|x| {
                let ts = x["ts"].as_u64().unwrap();
                (ts, ts + x["dur"].as_u64().unwrap())
            })
            .collect();
        runs.sort_unstable();
        let (mut union, mut reach) = (0, 0);
        for &(a, b) in &runs {
            union += b.saturating_sub(a.max(reach));
            reach = reach.max(b);
        }
        let out = run(genba_cmd(["report", "--format", "json"]).arg(&file));
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let j: Value = serde_json::from_str(out.stdout.trim()).unwrap();
        let devices = j["gpu"]["devices"].as_array().unwrap();
        assert_eq!(devices.len(), 1, "{devices:?}");
        let d = &devices[0];
        assert_eq!(d["queues"].as_u64(), Some(3), "{d}");
        assert_eq!(d["commands"].as_u64(), Some(runs.len() as u64), "{d}");
        assert_eq!(d["busy_ns"].as_u64(), Some(union), "{d}");
        assert!(d["device"].as_str().unwrap().starts_with("OpenCL "), "{d}");
        let queues = j["gpu"]["queues"].as_array().unwrap();
        let most = queues.iter().map(|q| q["busy_ns"].as_u64().unwrap()).max();
        let sum: u64 = queues.iter().map(|q| q["busy_ns"].as_u64().unwrap()).sum();
        assert!(most <= Some(union) && union <= sum, "{d} {queues:?}");
        let share = d["busy_percent"].as_f64().unwrap();
        assert!(share > 0.0 && share <= 100.0, "{d}");
        let text = run(genba_cmd(["report"]).arg(&file));
        assert!(
            text.stdout
                .contains("GPU devices (busy: the union of their queues' busy times):"),
            "{}",
            text.stdout
        );
    }
}

/// The API calls of a checked recording: (name, call text without its
/// handles), sorted, and the kernels' (name, duration) in time order.
type Seen = (Vec<String>, Vec<(String, u64)>);

/// `text` with each 0x... number as H (handles differ between runs).
fn without_handles(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i]);
        out.push('H');
        rest = rest[i + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

fn seen(s: &Value, kernel: &str) -> Seen {
    let mut names: Vec<String> = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| {
            // OpenCL's clXxx (not close, clone3)
            x["tid"].is_u64()
                && x["name"]
                    .as_str()
                    .and_then(|n| n.strip_prefix("cl"))
                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_uppercase()))
        })
        .map(|x| without_handles(x["args"]["call"].as_str().unwrap()))
        .collect();
    names.sort();
    let mut k: Vec<&Value> = gpu_slices(s, kernel);
    k.sort_by_key(|x| x["ts"].as_u64());
    let kernels = k
        .iter()
        .map(|x| {
            (
                x["name"].as_str().unwrap().to_string(),
                x["dur"].as_u64().unwrap(),
            )
        })
        .collect();
    (names, kernels)
}

/// The OpenCL fallback for ICD loaders without layers: genba not naming its
/// layer in OPENCL_LAYERS (GENBA_GPU_NO_OPENCL_LAYER), the hooks its
/// auditor binds the program's references to libOpenCL to record alone,
/// and record what the layer records: the same calls with the same
/// arguments and results, each kernel with the device's own times inside
/// the program's brackets, profiling forced and hidden the same way. With
/// both there (the other tests), each call is recorded once.
#[test]
fn opencl_fallback_without_layers() {
    require_bpf!();
    let _s = serial();
    let Some(prog) = vadd() else { return };
    let dir = TempDir::new("gpu-fallback");
    let mut runs = Vec::new();
    for (name, args, fallback) in [
        ("l.pftrace", ["profiled", "65536", "3"], false),
        ("f.pftrace", ["profiled", "65536", "3"], true),
        ("lp.pftrace", ["plain", "65536", "2"], false),
        ("fp.pftrace", ["plain", "65536", "2"], true),
    ] {
        let file = dir.join(name);
        let mut cmd = genba_cmd(["record", "--gpu", "-o"]);
        cmd.arg(&file).arg("--").arg(&prog).args(args);
        if fallback {
            cmd.env("GENBA_GPU_NO_OPENCL_LAYER", "1");
        }
        let out = run(&mut cmd);
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
        assert_eq!(truth["sums_ok"], true, "{truth}");
        let s = check(&file);
        let mine = truth["kernels"].as_array().unwrap();
        let mut kernels = gpu_slices(&s, "vadd");
        kernels.sort_by_key(|k| k["ts"].as_u64());
        assert_eq!(kernels.len(), mine.len(), "{name}: {kernels:?}");
        for (k, m) in kernels.iter().zip(mine) {
            assert_in_bracket(k, m);
            if let (Some(st), Some(en)) = (m["start"].as_u64(), m["end"].as_u64()) {
                assert_eq!(k["dur"].as_u64(), Some(en - st), "{name}: {k} vs {m}");
            }
        }
        runs.push((truth, seen(&s, "vadd")));
    }
    for pair in runs.chunks(2) {
        let ((lt, (lcalls, lk)), (ft, (fcalls, fk))) = (&pair[0], &pair[1]);
        assert!(!lcalls.is_empty());
        assert_eq!(lcalls, fcalls, "the layer's calls, then the fallback's");
        assert_eq!(
            lk.iter().map(|k| &k.0).collect::<Vec<_>>(),
            fk.iter().map(|k| &k.0).collect::<Vec<_>>()
        );
        // what the program saw of its own profiling: the same
        for key in ["queue_profiling", "event_profiling_error", "others_ok"] {
            assert_eq!(lt[key], ft[key], "{key}");
        }
    }
}

/// A program that dlopen()s libOpenCL and calls through dlsym(handle) is
/// recorded by the fallback too, when no layer is loaded.
#[test]
fn opencl_fallback_catches_dlopen() {
    require_bpf!();
    let _s = serial();
    if vadd().is_none() {
        return;
    }
    let dir = TempDir::new("gpu-fallback-dlopen");
    let bin = dir.join("opencl_dlopen");
    gcc(&bin, "tests/programs/gpu/opencl_dlopen.c", &["-ldl"]);
    let file = dir.join("d.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .arg("--")
        .arg(&bin)
        .env("GENBA_GPU_NO_OPENCL_LAYER", "1"));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(out.stdout.trim(), "{\"ok\": true}");
    let s = check(&file);
    for name in ["clCreateContext", "clReleaseContext"] {
        let c = calls(&s, name);
        assert_eq!(c.len(), 1, "{name}: {c:?}");
        assert!(c[0]["args"]["call"]
            .as_str()
            .unwrap()
            .ends_with("= CL_SUCCESS"));
    }
}

/// The PyPI CUDA runtime's library directory (None: not installed; in CI a
/// failure).
fn cudart_dir() -> Option<PathBuf> {
    let lib = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_runtime as m; print(list(m.__path__)[0])",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()).join("lib"));
    prerequisite(
        lib.is_some(),
        "no CUDA runtime (scripts/deps.sh installs nvidia-cuda-runtime-cu12)",
    );
    lib
}

/// `--gpu` changes nothing for a program that probes for the CUDA runtime
/// without having loaded it (a weak reference, dlsym(RTLD_DEFAULT)): it
/// finds nothing, as without genba. Once it dlopen()s the runtime, what it
/// finds answers as without genba, and the call through dlsym(handle) is
/// recorded.
#[test]
fn cuda_probe_sees_no_difference() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-probe");
    let bin = dir.join("cuda_probe");
    gcc(&bin, "tests/programs/gpu/cuda_probe.c", &["-ldl"]);
    let plain = Command::new(&bin).output().unwrap();
    assert!(plain.status.success());
    let plain = String::from_utf8_lossy(&plain.stdout).to_string();
    assert!(plain.contains("\"weak\": {\"found\": false"), "{plain}");
    let out = run(genba_cmd(["trace", "--gpu", "-e", "trace=none", "--"]).arg(&bin));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(out.stdout, plain);

    let Some(lib) = cudart_dir() else { return };
    let so = lib.join("libcudart.so.12");
    let plain = Command::new(&bin).arg(&so).output().unwrap();
    assert!(plain.status.success());
    let plain = String::from_utf8_lossy(&plain.stdout).to_string();
    assert!(plain.contains("\"handle\": {\"found\": true"), "{plain}");
    let out = run(genba_cmd(["trace", "--gpu", "-e", "trace=none", "--"])
        .arg(&bin)
        .arg(&so));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    assert_eq!(out.stdout, plain);
    assert_eq!(
        out.stderr
            .lines()
            .filter(|l| l.starts_with("cudaGetDeviceCount("))
            .count(),
        1,
        "{}",
        out.stderr
    );
}

/// A child that outlives genba starts programs with genba's environment
/// still: the files it names are still there (no loader error), and the
/// same run again uses the same files.
#[test]
fn gpu_files_outlive_genba() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-outlive");
    let err = dir.join("err");
    let done = dir.join("done");
    let script = format!(
        "(sleep 1; /bin/true 2>{}; env > {}.tmp; mv {}.tmp {}) &",
        err.display(),
        done.display(),
        done.display(),
        done.display()
    );
    let out = run(genba_cmd(["trace", "--gpu", "-e", "trace=none", "--", "sh", "-c"]).arg(&script));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    // genba is gone; the child goes on
    let t = std::time::Instant::now();
    while !done.exists() && t.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let env = std::fs::read_to_string(&done).expect("the child ran");
    assert_eq!(std::fs::read_to_string(&err).unwrap(), "");
    let preload = env
        .lines()
        .find_map(|l| l.strip_prefix("LD_PRELOAD="))
        .expect("LD_PRELOAD")
        .to_string();
    for f in preload
        .split(':')
        .chain(env.lines().filter_map(|l| l.strip_prefix("LD_AUDIT=")))
    {
        assert!(Path::new(f).is_file(), "{f}");
    }
    // a second run: the same files
    let out = run(
        genba_cmd(["trace", "--gpu", "-e", "trace=none", "--", "sh", "-c"]).arg("echo $LD_PRELOAD"),
    );
    assert_eq!(out.stdout.trim(), preload);
}

/// The OpenCL calls beyond the common path (platforms and devices,
/// programs from binaries, IL, compiled and linked, kernels made at once
/// and cloned, buffers with properties, sub-buffers, images of each API
/// version, SVM migration) recorded with their decoded arguments, through
/// the layer and through the fallback alike; and the program sees what it
/// sees without genba, CL_QUEUE_PROPERTIES_ARRAY of queues whose profiling
/// genba forced included (asked with no list, an empty list, a zero).
#[test]
fn opencl_more_calls_are_recorded() {
    require_bpf!();
    let _s = serial();
    if vadd().is_none() {
        return;
    }
    let dir = TempDir::new("gpu-more");
    let bin = dir.join("opencl_more");
    gcc(&bin, "tests/programs/gpu/opencl_more.c", &["-lOpenCL"]);
    let plain = Command::new(&bin).output().unwrap();
    assert!(plain.status.success());
    let plain = String::from_utf8_lossy(&plain.stdout).to_string();
    let truth: Value = serde_json::from_str(plain.trim()).unwrap();
    assert_eq!(truth["result_ok"], 1, "{truth}");
    let mut seen = Vec::new();
    for fallback in [false, true] {
        let mut cmd = genba_cmd(["trace", "--gpu", "-e", "trace=none", "--"]);
        cmd.arg(&bin);
        if fallback {
            cmd.env("GENBA_GPU_NO_OPENCL_LAYER", "1");
        }
        let out = run(&mut cmd);
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        assert_eq!(out.stdout, plain, "fallback {fallback}");
        let lines: Vec<String> = out.stderr.lines().map(without_handles).collect();
        for want in [
            "clGetPlatformIDs(0, NULL, [1]) = CL_SUCCESS",
            "clGetDeviceIDs(H, CL_DEVICE_TYPE_ALL, 0, NULL, [1]) = CL_SUCCESS",
            "clCompileProgram(H, 1, [...], \"\", 0, NULL, NULL, NULL, NULL) = CL_SUCCESS",
            "clLinkProgram(H, 1, [...], \"\", 1, [...], NULL, NULL, &err) = CL_SUCCESS",
            "clCreateKernelsInProgram(H, 0, NULL, [2]) = CL_SUCCESS",
            "clCreateKernelsInProgram(H, 2, [...], NULL) = CL_SUCCESS",
            "clCloneKernel(\"twice\", &err) = CL_SUCCESS",
            "clCreateProgramWithIL(H, H, 16, &err) = CL_INVALID_VALUE",
            "clCreateBufferWithProperties(H, NULL, H, 1024, H, &err) = CL_SUCCESS",
            "clCreateSubBuffer(H, H, CL_BUFFER_CREATE_TYPE_REGION, {origin=0, size=512}, &err) = CL_SUCCESS",
            "clCreateImage(H, H, {H, H}, {type=H, 16x16x0, array=0}, NULL, &err) = CL_SUCCESS",
            "clCreateImageWithProperties(H, NULL, H, {H, H}, {type=H, 16x16x0, array=0}, NULL, &err) = CL_SUCCESS",
            "clCreateImage2D(H, H, {H, H}, 16, 16, 0, NULL, &err) = CL_SUCCESS",
            "clCreateImage3D(H, H, {H, H}, 8, 8, 8, 0, 0, NULL, &err) = CL_SUCCESS",
            "clEnqueueSVMMigrateMem(H, 1, [...], [...], 0, 0, NULL, NULL) = CL_SUCCESS",
        ] {
            assert_eq!(
                lines.iter().filter(|l| l.as_str() == want).count(),
                1,
                "fallback {fallback}: {want}\n{}",
                out.stderr
            );
        }
        assert!(
            lines.iter().any(
                |l| l.starts_with("clCreateProgramWithBinary(H, 1, [...], [")
                    && l.ends_with("], [...], [...], &err) = CL_SUCCESS")
            ),
            "{}",
            out.stderr
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("--- GPU svm migrate on queue H: ")
                    && l.ends_with(", 4096 bytes ---")),
            "{}",
            out.stderr
        );
        let mut calls: Vec<&String> = lines.iter().filter(|l| l.starts_with("cl")).collect();
        calls.sort();
        seen.push(calls.into_iter().cloned().collect::<Vec<_>>());
    }
    assert_eq!(seen[0], seen[1], "the layer's calls, then the fallback's");
}

/// OpenCL 1.0's clSetCommandQueueProperty (pocl has none: a driver of the
/// test's own, tests/programs/gpu/fake_icd.c, named by OCL_ICD_VENDORS):
/// a program that turns profiling on, then off, sees what it sees without
/// genba (the old properties, the queue's properties after), while the
/// queue keeps the profiling genba forced; through the layer and through
/// the fallback, each call recorded. The driver's own call of libOpenCL is
/// not taken for the program's.
#[test]
fn opencl_set_command_queue_property() {
    require_bpf!();
    let _s = serial();
    if vadd().is_none() {
        return;
    }
    let dir = TempDir::new("gpu-setprop");
    let vendors = dir.join("vendors");
    std::fs::create_dir_all(&vendors).unwrap();
    let icd = dir.join("libfake_icd.so");
    gcc(
        &icd,
        "tests/programs/gpu/fake_icd.c",
        &["-fPIC", "-shared", "-fvisibility=hidden", "-lOpenCL"],
    );
    std::fs::write(vendors.join("fake.icd"), format!("{}\n", icd.display())).unwrap();
    let bin = dir.join("opencl_setprop");
    gcc(&bin, "tests/programs/gpu/opencl_setprop.c", &["-lOpenCL"]);
    let plain = Command::new(&bin)
        .env("OCL_ICD_VENDORS", &vendors)
        .output()
        .unwrap();
    assert!(plain.status.success(), "{plain:?}");
    let stdout = String::from_utf8_lossy(&plain.stdout).to_string();
    let truth: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        (truth["after_on"].as_i64(), truth["after_off"].as_i64()),
        (Some(2), Some(0))
    );
    assert!(String::from_utf8_lossy(&plain.stderr)
        .contains("fake_icd: queue released with properties 0\n"));
    for fallback in [false, true] {
        let mut cmd = genba_cmd(["trace", "--gpu", "-e", "trace=none", "--"]);
        cmd.arg(&bin).env("OCL_ICD_VENDORS", &vendors);
        if fallback {
            cmd.env("GENBA_GPU_NO_OPENCL_LAYER", "1");
        }
        let out = run(&mut cmd);
        assert_eq!(out.code(), Some(0), "{}", out.describe());
        assert_eq!(out.stdout, stdout, "fallback {fallback}");
        // the driver's own queue kept profiling on
        assert!(
            out.stderr
                .contains("fake_icd: queue released with properties 0x2\n"),
            "{}",
            out.stderr
        );
        let lines: Vec<String> = out.stderr.lines().map(without_handles).collect();
        for (want, n) in [
            (
                "clSetCommandQueueProperty(H, H, CL_TRUE, &old) = CL_SUCCESS",
                1,
            ),
            (
                "clSetCommandQueueProperty(H, H, CL_FALSE, &old) = CL_SUCCESS",
                2,
            ),
        ] {
            assert_eq!(
                lines.iter().filter(|l| l.as_str() == want).count(),
                n,
                "fallback {fallback}: {want}\n{}",
                out.stderr
            );
        }
    }
}

/// A device with a clock of its own (simulated by the layer for tests:
/// every device time it reads moved 7 s and made to run 300 ppm fast): the
/// layer finds no host clock for it, maps it by a marker, and genba narrows
/// the offset with every command's facts and follows the drift. Every
/// kernel still lies inside the program's own CLOCK_MONOTONIC brackets,
/// with its duration within 1% of the device's; no command had to be moved
/// by the last resort (`hold_to_facts`); the recording says the mapping it
/// used: the drift found and an uncertainty narrower than the marker's.
#[test]
fn a_device_clock_of_its_own_is_narrowed_by_the_facts() {
    require_bpf!();
    let _s = serial();
    let Some(prog) = vadd() else { return };
    let dir = TempDir::new("gpu-own-clock");
    let file = dir.join("o.pftrace");
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .env("GENBA_GPU_TEST_DEVICE_CLOCK", "7000000000,300")
        .arg("--")
        .arg(&prog)
        .args(["profiled", "262144", "150"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["sums_ok"], true, "{truth}");
    // the last resort moved nothing, or by little: only a command whose
    // own facts no offset satisfies (its device time stretched by the
    // drift past the host's bracket of it) is left to it
    if let Some(l) = out
        .stderr
        .lines()
        .find(|l| l.contains("broke the host's order"))
    {
        let us: f64 = l
            .rsplit("by up to ")
            .next()
            .and_then(|x| x.strip_suffix(" us"))
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{l}"));
        assert!(us <= 2.0, "{l}");
    }
    let s = check(&file);
    let mine = truth["kernels"].as_array().unwrap();
    let mut kernels = gpu_slices(&s, "vadd");
    kernels.sort_by_key(|k| k["ts"].as_u64());
    assert_eq!(kernels.len(), mine.len(), "{kernels:?}");
    for (k, m) in kernels.iter().zip(mine) {
        let dur = k["dur"].as_u64().unwrap() as f64;
        let own = (m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap()) as f64;
        assert!((dur - own).abs() <= own * 0.01 + 2.0, "{k} vs {m}");
        assert_in_bracket(k, m);
    }
    // the mapping, as the layer measured it and as the facts narrowed it
    let x = run(genba_cmd(["export", "--format", "jsonl"]).arg(&file));
    assert_eq!(x.code(), Some(0), "{}", x.describe());
    let clocks: Vec<Value> = x
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "gpu_clock")
        .collect();
    let marker = clocks
        .iter()
        .find(|c| c["from_commands"] == 0)
        .unwrap_or_else(|| panic!("{clocks:?}"));
    assert!(
        marker["device_clock"]
            .as_str()
            .unwrap()
            .contains("measured around a marker"),
        "{marker}"
    );
    let last = clocks.last().unwrap();
    assert!(
        last["from_commands"].as_u64().unwrap() > 0
            && last["device_clock"]
                .as_str()
                .unwrap()
                .contains("narrowed by its commands' facts"),
        "{clocks:?}"
    );
    assert!(
        last["uncertainty_ns"].as_u64() < marker["uncertainty_ns"].as_u64(),
        "{clocks:?}"
    );
    // the device runs 300 ppm fast: the offset falls. How closely the
    // slope is known depends on how long the commands span (a few tens of
    // ms on a busy machine: a fraction of the facts' width; CI runs found
    // -956 and -76 ppm); its size is checked by clockfit's unit tests on
    // known inputs, here that a drift was seen, falling
    let drift = last["drift_ppb"].as_i64().unwrap();
    assert!(
        (-2_000_000..0).contains(&drift),
        "drift {drift}: {clocks:?}"
    );
    // the offset: about -7 s (the simulated shift) plus pocl's
    // MONOTONIC_RAW to MONOTONIC
    let off = last["offset_ns"].as_i64().unwrap();
    assert!(
        (-7_000_000_000 - 2_000_000_000..-7_000_000_000 + 2_000_000_000).contains(&off),
        "{off}"
    );
}

/// A Vulkan device with a clock of its own (lavapipe's, simulated by the
/// layer for tests: every device time it reads, its calibration's too,
/// moved 7 s and made to run 1000 ppm fast), each round two submissions
/// and one fence wait (its fence on the second). The layer's calibration
/// (VK_EXT_calibrated_timestamps) finds it is not CLOCK_MONOTONIC and maps
/// every time with the offset it measured once; genba then holds each
/// dispatch to the host's facts, as for OpenCL: it started after its
/// submission began, and ended before the wait that covered it returned
/// (the fence wait, for the first submission too: recorded by the layer as
/// `waited`), narrows the offset
/// with them and follows the drift. Checked against the program's own
/// view: each dispatch inside its CLOCK_MONOTONIC brackets (before the
/// submission, after the fence wait), its duration within 1% of its own
/// timestamp queries'; no command moved by the last resort; the recording
/// says the mapping it used and the drift it found.
#[test]
fn a_vulkan_device_clock_of_its_own_is_held_to_the_waits() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-vulkan-own-clock");
    let Some((bin, spv)) = vulkan_compute(&dir) else {
        return;
    };
    let file = dir.join("o.pftrace");
    let rounds = 100;
    let out = run(genba_cmd(["record", "--gpu", "-o"])
        .arg(&file)
        .env("GENBA_GPU_TEST_DEVICE_CLOCK", "7000000000,1000")
        .arg("--")
        .arg(&bin)
        .arg(&spv)
        .args(["65536", &rounds.to_string(), "split"]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["ok"], true, "{truth}");
    // the last resort moved nothing, or by little (a command whose own
    // facts no offset satisfies)
    if let Some(l) = out
        .stderr
        .lines()
        .find(|l| l.contains("broke the host's order"))
    {
        let us: f64 = l
            .rsplit("by up to ")
            .next()
            .and_then(|x| x.strip_suffix(" us"))
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{l}"));
        assert!(us <= 2.0, "{l}");
    }
    let s = check(&file);
    let period = truth["period"].as_f64().unwrap();
    let mine = truth["dispatches"].as_array().unwrap();
    assert_eq!(mine.len(), 2 * rounds);
    let mut ran: Vec<&Value> = s["slices"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["name"] == "main" && x["args"]["kind"] == "kernel")
        .collect();
    ran.sort_by_key(|x| x["ts"].as_u64());
    assert_eq!(ran.len(), mine.len());
    for (k, m) in ran.iter().zip(mine) {
        // the layer's queries lie inside the program's own (the device's
        // ticks stretched by the simulated 0.1%)
        let dur = k["dur"].as_u64().unwrap() as f64;
        let own = (m["end"].as_u64().unwrap() - m["start"].as_u64().unwrap()) as f64 * period;
        assert!(dur <= own * 1.01 + 1000.0, "{k} vs {m}");
        assert_in_bracket(k, m);
    }
    let clocks = gpu_clocks(&file);
    // lavapipe's real clock is CLOCK_MONOTONIC (vulkan_calls_are_recorded),
    // so the program's own timestamps are the truth the mapping tries to
    // find: once the facts narrowed it, every dispatch lies inside the
    // program's own queries but for the uncertainty the recording says of
    // it (every line the facts allow considered, the slope's own
    // uncertainty with it; 1 us more for rounding; the end later by the
    // simulated drift's stretch of the duration)
    let (mut checked, mut within) = (0, 0);
    let mut outside = Vec::new();
    for (k, m) in ran.iter().zip(mine) {
        let start = k["ts"].as_u64().unwrap() as i64;
        let end = start + k["dur"].as_u64().unwrap() as i64;
        let Some(said) = k["args"]["clock_uncertainty_ns"].as_i64() else {
            continue;
        };
        let u = said + 1000;
        // its duration is the simulated device's, 0.1% long
        let stretched = (end - start) / 1000 + 1;
        let own_start = (m["start"].as_u64().unwrap() as f64 * period) as i64;
        let own_end = (m["end"].as_u64().unwrap() as f64 * period) as i64;
        checked += 1;
        if own_start - u <= start && end <= own_end + u + stretched {
            within += 1;
        } else {
            outside.push(format!("{k} vs {m}, mapped to within {said} ns"));
        }
    }
    assert!(
        checked >= rounds,
        "{checked} dispatches with an uncertainty"
    );
    assert_eq!(within, checked, "{outside:?}");
    // the layer's own mapping: one calibration, about -7 s
    let first = &clocks[0];
    assert_eq!(first["from_commands"], 0, "{clocks:?}");
    assert!(
        first["device_clock"]
            .as_str()
            .unwrap()
            .contains("VK_EXT_calibrated_timestamps"),
        "{first}"
    );
    let off = first["offset_ns"].as_i64().unwrap();
    assert!((off + 7_000_000_000).abs() < 1_000_000, "{first}");
    // as the facts narrowed it: the drift found (the device runs fast, so
    // the offset falls; how closely depends on how long the commands span
    // against the facts' width on a busy machine), an uncertainty said
    let last = clocks.last().unwrap();
    assert!(
        last["from_commands"].as_u64().unwrap() > 0
            && last["device_clock"]
                .as_str()
                .unwrap()
                .contains("narrowed by its commands' facts"),
        "{clocks:?}"
    );
    let drift = last["drift_ppb"].as_i64().unwrap();
    assert!(
        (-5_000_000..=-200_000).contains(&drift),
        "drift {drift}: {clocks:?}"
    );
    assert!(last["uncertainty_ns"].as_u64().is_some(), "{last}");
}

/// A fence's signal covers the submissions before its own on its queue: a
/// program that submits twice a round, the fence on the second only, has
/// both dispatches read at its fence wait (`trace --gpu` prints each one's
/// `--- GPU` line in the order the layer wrote them: both right before
/// that vkWaitForFences, none held until the command buffer is recorded
/// again), and the program's results unchanged.
#[test]
fn a_vulkan_fence_covers_the_submissions_before_it() {
    require_bpf!();
    let _s = serial();
    let dir = TempDir::new("gpu-vulkan-fence");
    let Some((bin, spv)) = vulkan_compute(&dir) else {
        return;
    };
    let out = run(
        genba_cmd(["trace", "--gpu", "-f", "-e", "trace=none", "--"])
            .arg(&bin)
            .arg(&spv)
            .args(["4096", "4", "split"]),
    );
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let truth: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(truth["ok"], true, "{truth}");
    // the calls and the commands (without the [pid N] prefix, which goes
    // once the runtime's threads exited)
    let lines: Vec<&str> = out
        .stderr
        .lines()
        .map(|l| match l.strip_prefix("[pid ") {
            Some(r) => r.split_once("] ").map_or(l, |x| x.1),
            None => l,
        })
        .filter(|l| l.starts_with("--- GPU kernel main") || l.starts_with("vk"))
        .collect();
    let waits: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("vkWaitForFences("))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(waits.len(), 4, "{}", out.stderr);
    let kernels = lines
        .iter()
        .filter(|l| l.contains("--- GPU kernel main"))
        .count();
    assert_eq!(kernels, 8, "{}", out.stderr);
    for w in waits {
        assert!(
            w >= 2
                && lines[w - 2..w]
                    .iter()
                    .all(|l| l.contains("--- GPU kernel main")),
            "{}",
            out.stderr
        );
    }
}

/// genba's GPU environment in a process when genba does not record (no
/// GENBA_GPU_DIR: a program started with the rest of it) costs nothing a
/// call: the auditor binds nothing to the fallback's hooks (dlsym finds
/// libOpenCL's own function, as without genba), and the OpenCL layer hands
/// the loader its next table (the program's results, its own profiling
/// answers, as without genba); the Vulkan layer hooks nothing but the
/// device's destruction (the device's vkCmdDispatch is lavapipe's own, the
/// results unchanged). With GENBA_GPU_DIR the same lookups find the hook
/// and the layer: the checks can tell.
#[test]
fn gpu_environment_not_recording_binds_nothing() {
    require_bpf!();
    let _s = serial();
    let Some(vadd) = vadd() else { return };
    let dir = TempDir::new("gpu-idle");
    let bin = dir.join("opencl_where");
    gcc(
        &bin,
        "tests/programs/gpu/opencl_where.c",
        &["-lOpenCL", "-ldl"],
    );
    // genba's environment, as a program it starts has it
    let out = run(&mut genba_cmd([
        "trace",
        "--gpu",
        "-e",
        "trace=none",
        "--",
        "env",
    ]));
    assert_eq!(out.code(), Some(0), "{}", out.describe());
    let env: Vec<(String, String)> = out
        .stdout
        .lines()
        .filter_map(|l| l.split_once('='))
        .filter(|(k, _)| *k != "GENBA_GPU_DIR")
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert!(env.iter().any(|(k, _)| k == "LD_AUDIT"), "{env:?}");
    let with = |cmd: &mut Command, rings: Option<&Path>| {
        cmd.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
        if let Some(r) = rings {
            cmd.env("GENBA_GPU_DIR", r);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{o:?}");
        serde_json::from_slice::<Value>(&o.stdout).unwrap()
    };
    let idle = with(&mut Command::new(&bin), None);
    assert!(
        idle["object"].as_str().unwrap().contains("libOpenCL.so"),
        "{idle}"
    );
    let rings = dir.join("rings");
    std::fs::create_dir_all(&rings).unwrap();
    let hooked = with(&mut Command::new(&bin), Some(&rings));
    assert!(
        hooked["object"]
            .as_str()
            .unwrap()
            .ends_with("libgenba_opencl_hooks.so"),
        "{hooked}"
    );
    assert_eq!(idle["platforms"], hooked["platforms"]);
    // the layer idle: the program's own view as without genba
    let mut plain = Command::new(&vadd);
    let own = plain.args(["plain", "4096", "2"]).output().unwrap();
    let under = with(Command::new(&vadd).args(["plain", "4096", "2"]), None);
    let own: Value = serde_json::from_slice(&own.stdout).unwrap();
    assert_eq!(under["sums_ok"], true, "{under}");
    for k in ["queue_profiling", "event_profiling_error"] {
        assert!(own[k].is_boolean() || own[k].is_i64(), "{own}");
        assert_eq!(under[k], own[k], "{k}: {under} vs {own}");
    }
    let Some((vk, spv)) = vulkan_compute(&dir) else {
        return;
    };
    let idle = with(Command::new(&vk).arg(&spv).args(["4096", "2"]), None);
    assert_eq!(idle["ok"], true, "{idle}");
    let at = idle["dispatch_in"].as_str().unwrap();
    assert!(!at.is_empty() && !at.contains("genba"), "{idle}");
    let hooked = with(
        Command::new(&vk).arg(&spv).args(["4096", "2"]),
        Some(&rings),
    );
    assert!(
        hooked["dispatch_in"]
            .as_str()
            .unwrap()
            .ends_with("libgenba_vulkan.so"),
        "{hooked}"
    );
}
