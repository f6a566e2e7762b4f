//! The Perfetto writer's files, checked with Perfetto's official protobuf
//! bindings (scripts/check_perfetto.py; the `perfetto` PyPI package, which
//! scripts/deps.sh installs). Without the bindings the test is skipped,
//! except under CI, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use genba_export::perfetto::{count_packets, ArgValue, ClockReadings, PerfettoWriter};
use serde_json::Value;

fn checker() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check_perfetto.py")
}

fn bindings_available() -> bool {
    let ok = Command::new("python3")
        .args([
            "-c",
            "import perfetto.protos.perfetto.trace.perfetto_trace_pb2",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: Perfetto's Python bindings are missing (scripts/deps.sh installs them)"
        );
        eprintln!("note: perfetto's Python bindings not installed; skipped");
    }
    ok
}

/// Runs the checker: Ok(summary) or Err(its message).
fn check(path: &Path, truncated: bool) -> Result<Value, String> {
    let mut c = Command::new("python3");
    c.arg(checker()).arg(path);
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

/// Two threads of one process: nested slices (a read blocking inside a
/// system call), a wakeup flow from one thread to the other, an instant and
/// a counter.
fn write_trace() -> Vec<u8> {
    let clocks = ClockReadings {
        monotonic: 5_000_000,
        realtime: 1_764_000_000_000_000_000,
        boottime: 6_000_000,
    };
    let mut w = PerfettoWriter::new(Vec::new(), clocks).unwrap();
    w.process(4242, "server").unwrap();
    let main = w.thread(4242, 4242, "server").unwrap();
    let worker = w.thread(4242, 4243, "worker").unwrap();
    let lost = w.counter_track("lost events", "events", None).unwrap();
    for i in 0..50u64 {
        let t = 6_000_000 + i * 10_000;
        // the blocked part is written first, inside its call
        w.slice(
            main,
            t + 1_000,
            3_000,
            "[B] read",
            &[("class", ArgValue::Str("[B]"))],
            &[],
            &[],
        )
        .unwrap();
        w.slice(
            main,
            t,
            5_000,
            "read",
            &[
                ("call", ArgValue::Str("read(3, \"ping\", 4)")),
                ("ret", ArgValue::Int(4)),
            ],
            &[],
            &[],
        )
        .unwrap();
        w.slice(
            worker,
            t + 4_500,
            300,
            "write",
            &[("ret", ArgValue::Int(4))],
            &[],
            &[],
        )
        .unwrap();
        // the wakeup, as genba records it: an instant on the waker's track
        // with a flow to the woken thread's wait for a CPU
        w.instant(
            worker,
            t + 4_700,
            "wakeup",
            &[("wakee_tid", ArgValue::Uint(4242))],
            &[i + 1],
        )
        .unwrap();
        w.slice(
            main,
            t + 4_900,
            50,
            "[S] runnable",
            &[("waker_tid", ArgValue::Uint(4243))],
            &[],
            &[i + 1],
        )
        .unwrap();
    }
    w.counter(lost, 6_600_000, 0).unwrap();
    w.finish().unwrap()
}

#[test]
fn files_read_back_with_the_official_bindings() {
    if !bindings_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("genba-perfetto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.pftrace");
    let data = write_trace();
    std::fs::write(&path, &data).unwrap();
    let s = check(&path, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        s["threads"],
        serde_json::json!([[4242, 4242, "server"], [4242, 4243, "worker"]])
    );
    let slices = s["slices"].as_array().unwrap();
    assert_eq!(slices.len(), 200);
    assert_eq!(s["flows"], 50);
    // the blocked part nests inside its call, on the caller's track
    let blocked: Vec<&Value> = slices.iter().filter(|x| x["name"] == "[B] read").collect();
    assert_eq!(blocked.len(), 50);
    assert!(blocked.iter().all(|x| x["depth"] == 1 && x["tid"] == 4242));
    let read = slices.iter().find(|x| x["name"] == "read").unwrap();
    assert_eq!(read["args"]["call"], "read(3, \"ping\", 4)");
    assert_eq!(read["args"]["ret"], 4);
    assert_eq!(read["dur"], 5_000);

    // under 100 bytes an event on average: names interned
    let (packets, cut) = count_packets(&data);
    assert_eq!(cut, None);
    assert!(
        data.len() as u64 / packets < 60,
        "{} bytes, {packets} packets",
        data.len()
    );

    // cut anywhere: a reader gets every whole packet, and nothing breaks
    for len in (1..data.len()).step_by(499) {
        std::fs::write(&path, &data[..len]).unwrap();
        if let Err(e) = check(&path, true) {
            // a cut leaves slices open and flows half made, or, inside the
            // first packet, nothing: the only complaints allowed
            assert!(
                e.contains("never end") || e.contains("flow") || e.contains("no packets"),
                "cut at {len}: {e}"
            );
        }
    }

    // the checker itself fails on what is wrong: drop the last two packets
    // (the counter, and the end of the last slice)
    let (n, _) = count_packets(&data);
    let at = (0..data.len())
        .rev()
        .find(|&len| count_packets(&data[..len]) == (n - 2, None))
        .unwrap();
    std::fs::write(&path, &data[..at]).unwrap();
    let Err(e) = check(&path, false) else {
        panic!("a slice that never ends must be found");
    };
    assert!(e.contains("never end"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
