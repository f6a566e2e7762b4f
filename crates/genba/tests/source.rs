//! Source attribution (`--source`, `-k`): every call is tied to the line of
//! the program that made it. The expected lines come from `SITE:` marker
//! comments in the target's source, never from genba's output.

#[macro_use]
mod common;

use common::*;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn source() -> PathBuf {
    repo_root().join("tests/programs/source/sites.c")
}

/// `SITE:name` marker -> line number.
fn markers() -> HashMap<String, u32> {
    let text = fs::read_to_string(source()).expect("read sites.c");
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let name = l.split("SITE:").nth(1)?.split_whitespace().next()?;
            Some((name.to_string(), i as u32 + 1))
        })
        .collect()
}

/// Builds sites.c with `flags` (once per flag set) and returns the binary.
fn build(tag: &str, flags: &[&str]) -> PathBuf {
    let dir = target_dir().join("test-programs/source");
    fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("sites-{tag}"));
    let st = Command::new("gcc")
        .args(["-g", "-Wall"])
        .args(flags)
        .arg("-o")
        .arg(&out)
        .arg(source())
        .status()
        .expect("run gcc");
    assert!(st.success(), "gcc {flags:?} failed");
    out
}

/// The `(syscall, file, line)` of each shown call, from `<- file:line func`.
fn sites(trace: &str) -> Vec<(String, String, u32)> {
    trace
        .lines()
        .filter_map(|l| {
            let name = l.split('(').next()?.to_string();
            let site = l.rsplit_once("  <- ")?.1;
            let loc = site.split_whitespace().next()?;
            let (file, line) = loc.rsplit_once(':')?;
            let file = Path::new(file).file_name()?.to_string_lossy().into_owned();
            Some((name, file, line.parse().ok()?))
        })
        .collect()
}

fn check(tag: &str, flags: &[&str]) {
    require_bpf!();
    let _s = serial();
    let bin = build(tag, flags);
    let m = markers();
    let dir = TempDir::new(&format!("source-{tag}"));
    let out = dir.join("trace.txt");
    let r = run(genba_cmd([
        "trace",
        "--source",
        "-e",
        "trace=openat,read,close,write",
        "-o",
    ])
    .arg(&out)
    .arg("--")
    .arg(&bin)
    .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let trace = fs::read_to_string(&out).unwrap();
    // the program's own calls: from the first open of /etc/hostname on
    let start = trace
        .find("\"/etc/hostname\"")
        .expect("the program opened /etc/hostname");
    let start = trace[..start].rfind('\n').map_or(0, |i| i + 1);
    let got = sites(&trace[start..]);
    let want: Vec<(&str, &str)> = vec![
        ("openat", "open"),
        ("read", "read"),
        ("close", "close"),
        ("openat", "fopen"),
        ("read", "fgets"),
        ("write", "inline_write"),
        ("close", "fclose"),
        ("write", "inline_write"),
    ];
    let want: Vec<(String, String, u32)> = want
        .iter()
        .map(|(sys, marker)| (sys.to_string(), "sites.c".to_string(), m[*marker]))
        .collect();
    assert_eq!(
        got,
        want,
        "{tag}: call sites (syscall, file, line)\n--- trace ---\n{}",
        &trace[start..]
    );
}

#[test]
fn sites_o0_frame_pointers() {
    check("O0", &["-O0", "-fno-omit-frame-pointer"]);
}

#[test]
fn sites_o2_no_frame_pointers() {
    check("O2", &["-O2", "-fomit-frame-pointer"]);
}

#[test]
fn sites_o2_not_pie() {
    check("O2-nopie", &["-O2", "-fomit-frame-pointer", "-no-pie"]);
}

#[test]
fn sites_o2_static() {
    check("O2-static", &["-O2", "-fomit-frame-pointer", "-static"]);
}

/// `-k`: the whole user stack, one frame a line, each frame's address
/// checked against addr2line for the same file offset.
#[test]
fn stack_frames_match_addr2line() {
    require_bpf!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let r = run(genba_cmd(["trace", "-k", "-e", "trace=write", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let bin_s = bin.to_string_lossy().into_owned();
    let mut checked = 0;
    for l in r
        .stderr
        .lines()
        .filter(|l| l.starts_with(" > ") && l.contains(&bin_s) && !l.ends_with("(inlined)"))
    {
        // " > /path(func+0x40) [0x1270] /src/sites.c:34"
        let off = l
            .split('[')
            .nth(1)
            .and_then(|s| s.split(']').next())
            .expect("offset");
        let Some(loc) = l.rsplit(' ').next().filter(|s| s.contains("sites.c:")) else {
            continue;
        };
        // -i: inlined frames first, the physical frame (what this line is) last
        let want = Command::new("addr2line")
            .args(["-i", "-e", &bin_s, off])
            .output()
            .expect("addr2line");
        let want = String::from_utf8_lossy(&want.stdout);
        // genba prints the lookup address (return address - 1 for callers),
        // so addr2line sees the same instruction
        let last = want.trim().lines().last().unwrap_or("");
        let want_line = last
            .rsplit(':')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next()
            .unwrap_or("");
        let got_line = loc.rsplit(':').next().unwrap();
        assert_eq!(got_line, want_line, "frame {l}: addr2line says {want}");
        checked += 1;
    }
    assert!(
        checked >= 3,
        "too few frames of the program checked:\n{}",
        r.stderr
    );
}

/// `-c --source`: the summary broken down by call site. Each syscall's sites
/// come from the markers; their calls add up to the syscall's.
#[test]
fn summary_by_call_site() {
    require_bpf!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let m = markers();
    let r = run(genba_cmd(["trace", "-c", "--source", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let err = &r.stderr;
    let table = err
        .split("calls by site")
        .nth(1)
        .unwrap_or_else(|| panic!("no site table:\n{err}"));
    // the openat rows: one site per marker, one call each
    let openat = table
        .split("\n")
        .skip_while(|l| !l.ends_with(" openat"))
        .skip(1)
        .take_while(|l| l.starts_with("       "));
    let sites: Vec<String> = openat
        .map(|l| l.rsplit("  ").next().unwrap().to_string())
        .collect();
    for marker in ["open", "fopen"] {
        let want = format!("sites.c:{}", m[marker]);
        assert!(
            sites.iter().any(|s| s.contains(&want)),
            "no openat site {want} in {sites:?}\n{table}"
        );
    }
    assert!(
        sites.iter().any(|s| s.starts_with("(start-up)")),
        "the loader's opens are start-up: {sites:?}"
    );
    // the strace-compatible table is still there, unchanged in layout
    assert!(
        err.contains("% time     seconds  usecs/call     calls    errors syscall\n"),
        "{err}"
    );
}

/// JSON lines carry the call site and the stack as structured fields.
#[test]
fn json_lines_carry_site_and_stack() {
    require_bpf!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let m = markers();
    let dir = TempDir::new("source-json");
    let f = dir.join("t.jsonl");
    let r = run(genba_cmd([
        "trace",
        "--source",
        "--format",
        "jsonl",
        "-e",
        "trace=openat",
        "-o",
    ])
    .arg(&f)
    .arg("--")
    .arg(&bin)
    .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let text = fs::read_to_string(&f).unwrap();
    let calls: Vec<Json> = text
        .lines()
        .map(|l| parse_json(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .filter(|v| v.get("type").and_then(Json::as_str) == Some("syscall"))
        .collect();
    assert!(
        calls
            .iter()
            .all(|c| c.get("name").and_then(Json::as_str) == Some("openat")),
        "only the calls asked for"
    );
    let want = format!("sites.c:{}", m["open"]);
    let own = calls
        .iter()
        .find(|c| {
            c.get("site")
                .and_then(Json::as_str)
                .is_some_and(|s| s.contains(&want))
        })
        .unwrap_or_else(|| panic!("no openat from {want}:\n{text}"));
    let Some(Json::Arr(stack)) = own.get("stack") else {
        panic!("no stack array: {own:?}")
    };
    let lines: Vec<i64> = stack
        .iter()
        .filter_map(|f| f.get("line").and_then(Json::as_i64))
        .collect();
    assert!(
        lines.contains(&(m["open"] as i64)),
        "the stack holds the call's line: {stack:?}"
    );
    assert!(stack
        .iter()
        .all(|f| f.get("module").is_some() && f.get("offset").is_some()));
}
