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
    // unbuffered printf keeps an 8 KiB buffer on the stack: its caller is
    // past the default 2 KiB copy, and found with a bigger one
    for stack_bytes in ["2048", "16384"] {
        let r = run(genba_cmd([
            "trace",
            "--source",
            "--stack-bytes",
            stack_bytes,
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
        let mut want: Vec<(&str, &str)> = vec![
            ("openat", "open"),
            ("read", "read"),
            ("close", "close"),
            ("openat", "fopen"),
            ("read", "fgets"),
            ("write", "inline_write"),
            ("close", "fclose"),
            ("write", "inline_write"),
        ];
        if stack_bytes == "16384" {
            want.push(("write", "printf"));
        } else if !tag.contains("static") {
            // (in a static binary the C library's frames are the program's:
            // the site is then its innermost function, without a line)
            let printf = trace[start..]
                .lines()
                .find(|l| l.starts_with("write(1, \"/etc/hostname"))
                .expect("printf's write");
            assert!(
                printf.contains("<- (stack too deep) "),
                "{tag}: an unknown site says why: {printf}"
            );
            assert!(
                r.stderr.contains(
                    "genba: 1 call sites unknown: the stack was deeper than the 2048 bytes copied"
                ),
                "{tag}: and the end says how many: {}",
                r.stderr
            );
        }
        let want: Vec<(String, String, u32)> = want
            .iter()
            .map(|(sys, marker)| (sys.to_string(), "sites.c".to_string(), m[*marker]))
            .collect();
        assert_eq!(
            got,
            want,
            "{tag} --stack-bytes {stack_bytes}: call sites (syscall, file, line)\n--- trace ---\n{}",
            &trace[start..]
        );
    }
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
        // the program's frames here are all callers (the innermost is libc's
        // write): -k prints their return address, as strace -k does, and the
        // call instruction is the byte before it
        let call = format!(
            "{:#x}",
            u64::from_str_radix(off.trim_start_matches("0x"), 16).unwrap() - 1
        );
        // -i: inlined frames first, the physical frame (what this line is) last
        let want = Command::new("addr2line")
            .args(["-i", "-e", &bin_s, &call])
            .output()
            .expect("addr2line");
        let want = String::from_utf8_lossy(&want.stdout);
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
        sites.iter().any(|s| s.starts_with("(runtime)")),
        "the loader's opens are marked (runtime): {sites:?}"
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

/// `SITE:` markers of any of the target sources.
fn markers_of(file: &str) -> HashMap<String, u32> {
    let text = fs::read_to_string(repo_root().join("tests/programs/source").join(file))
        .expect("read source");
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let name = l.split("SITE:").nth(1)?.split_whitespace().next()?;
            Some((name.to_string(), i as u32 + 1))
        })
        .collect()
}

/// Builds one of the other-language targets, or says why it cannot.
fn build_other(file: &str, cmd: &[&str]) -> Option<PathBuf> {
    let dir = target_dir().join("test-programs/source");
    fs::create_dir_all(&dir).unwrap();
    let out = dir.join(file.replace('.', "-"));
    let src = repo_root().join("tests/programs/source").join(file);
    let mut c = Command::new(cmd[0]);
    c.args(&cmd[1..]);
    if cmd[0] == "go" {
        c.arg("-o")
            .arg(&out)
            .arg(&src)
            .env("GOCACHE", dir.join("gocache"))
            .env("GOFLAGS", "-mod=mod");
    } else {
        c.arg("-o").arg(&out).arg(&src);
    }
    match c.status() {
        Ok(st) if st.success() => Some(out),
        Ok(st) => panic!("{cmd:?} {file} failed: {st}"),
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("SKIP: {}: {e}", cmd[0]);
            None
        }
        Err(e) => panic!("{}: {e} (CI must have it)", cmd[0]),
    }
}

/// Runs `bin` under `genba trace -f --source` and returns (syscall, file, line)
/// of the calls of the program's own code (lines with a site in `file`).
fn own_sites(bin: &Path, file: &str) -> (Vec<(String, String, u32)>, String) {
    let dir = TempDir::new("source-lang");
    let out = dir.join("trace.txt");
    let r = run(genba_cmd([
        "trace",
        "-f",
        "--source",
        "-e",
        "trace=openat,read,write",
        "-o",
    ])
    .arg(&out)
    .arg("--")
    .arg(bin)
    .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let trace = fs::read_to_string(&out).unwrap();
    let got = sites(&trace)
        .into_iter()
        .map(|(name, f, l)| (name.rsplit(' ').next().unwrap_or(&name).to_string(), f, l))
        .filter(|(_, f, _)| f == file)
        .collect();
    (got, trace)
}

#[test]
fn sites_cpp_inlined_template() {
    require_bpf!();
    let _s = serial();
    let Some(bin) = build_other("sites.cpp", &["g++", "-O2", "-g"]) else {
        return;
    };
    let m = markers_of("sites.cpp");
    let (got, trace) = own_sites(&bin, "sites.cpp");
    let want: Vec<(String, String, u32)> = [
        ("openat", "open"),
        ("read", "read"),
        ("write", "template_write"),
    ]
    .iter()
    .map(|(s, k)| (s.to_string(), "sites.cpp".to_string(), m[*k]))
    .collect();
    assert_eq!(got, want, "\n{trace}");
    assert!(
        trace.contains("Sink<int>::put") && trace.contains("(inlined)"),
        "the template is named, marked inlined:\n{trace}"
    );
}

/// The open, read and write of `file` (built with `cmd`, skipped when the
/// toolchain is missing) attributed to its marked lines.
fn open_read_write_sites(file: &str, cmd: &[&str]) {
    require_bpf!();
    let _s = serial();
    let Some(bin) = build_other(file, cmd) else {
        return;
    };
    let m = markers_of(file);
    let (got, trace) = own_sites(&bin, file);
    let want: Vec<(String, String, u32)> =
        [("openat", "open"), ("read", "read"), ("write", "write")]
            .iter()
            .map(|(s, k)| (s.to_string(), file.to_string(), m[*k]))
            .collect();
    assert_eq!(got, want, "\n{trace}");
}

/// Rust release build: open, read and write go through std's File and
/// Stdout (several inlined frames deep). rustc lays the text segment out in
/// the same file page as the end of the read-only one (offset 0x13870,
/// vaddr 0x14870): the open goes through std's frame-pointer code and only
/// unwinds with the right load bias.
#[test]
fn sites_rust_release() {
    open_read_write_sites("sites.rs", &["rustc", "-C", "opt-level=3", "-g"]);
}

/// Go makes its system calls without libc.
#[test]
fn sites_go_without_libc() {
    open_read_write_sites("sites.go", &["go", "build"]);
}

fn sh(cmd: &str) {
    let st = Command::new("sh").args(["-c", cmd]).status().expect("sh");
    assert!(st.success(), "{cmd}");
}

/// The first openat of /etc/hostname's site text, under `genba --source`.
fn open_site(bin: &Path) -> String {
    let r = run(genba_cmd(["trace", "--source", "-e", "trace=openat", "--"])
        .arg(bin)
        .arg("/etc/hostname"));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("\"/etc/hostname\""))
        .unwrap_or_else(|| panic!("{}", r.stderr))
        .to_string();
    line.rsplit_once("  <- ")
        .map(|(_, s)| s.to_string())
        .unwrap_or_default()
}

/// Debug information in separate files, stripped binaries, a broken debug
/// file: lines when the information is there, function names from the
/// symbol table when only that is, and never a wrong line.
#[test]
fn separate_and_missing_debug_info() {
    require_bpf!();
    let _s = serial();
    let full = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let m = markers();
    let dir = TempDir::new("debuginfo");
    let d = dir.path().display().to_string();
    let f = full.display();
    let want = format!("sites.c:{} load_table", m["open"]);

    // debug info in a file named by .gnu_debuglink
    sh(&format!("objcopy --only-keep-debug {f} {d}/link.debug && cp {f} {d}/link && strip -g {d}/link && objcopy --add-gnu-debuglink={d}/link.debug {d}/link"));
    let got = open_site(&dir.join("link"));
    assert!(
        got.ends_with(&format!("/{want}")),
        "via .gnu_debuglink: {got}"
    );

    // debug info found by build-id alone
    let id = String::from_utf8(
        Command::new("sh")
            .args([
                "-c",
                &format!("readelf -n {f} | awk '/Build ID/{{print $3}}'"),
            ])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let id = id.trim();
    let debug = format!("/usr/lib/debug/.build-id/{}/{}.debug", &id[..2], &id[2..]);
    sh(&format!("mkdir -p /usr/lib/debug/.build-id/{} && objcopy --only-keep-debug {f} {debug} && cp {f} {d}/bid && strip -g {d}/bid", &id[..2]));
    let got = open_site(&dir.join("bid"));
    let _ = fs::remove_file(&debug);
    assert!(
        got.ends_with(&format!("/{want}")),
        "via /usr/lib/debug/.build-id: {got}"
    );

    // only a symbol table: the function, no line
    sh(&format!("cp {f} {d}/symtab && strip -g {d}/symtab"));
    let got = open_site(&dir.join("symtab"));
    assert!(
        got.starts_with("symtab(load_table") && !got.contains(".c:"),
        "function without a line: {got}"
    );

    // nothing at all: the file and offset
    sh(&format!("cp {f} {d}/bare && strip --strip-all {d}/bare"));
    let got = open_site(&dir.join("bare"));
    assert!(
        got.starts_with("bare+0x") && !got.contains(".c:"),
        "file+offset: {got}"
    );

    // a debuglink to a corrupted file: no line rather than a wrong one
    sh(&format!("cp {f} {d}/broken && strip -g {d}/broken && head -c 4096 /dev/urandom > {d}/broken.debug && objcopy --add-gnu-debuglink={d}/broken.debug {d}/broken"));
    let got = open_site(&dir.join("broken"));
    assert!(
        !got.contains(".c:") || got.ends_with(&format!("/{want}")),
        "a corrupted debug file gave {got}"
    );
}

/// `--source-skip` skips the frames of the user's choosing.
#[test]
fn source_skip_moves_the_site_outwards() {
    require_bpf!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let m = markers();
    let r = run(genba_cmd([
        "trace",
        "--source",
        "--source-skip",
        "^load_table$",
        "-e",
        "trace=openat",
        "--",
    ])
    .arg(&bin)
    .arg("/etc/hostname"));
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("\"/etc/hostname\""))
        .expect("open");
    assert!(
        !line.contains(&format!("sites.c:{} ", m["open"])),
        "load_table was to be skipped: {line}"
    );
    assert!(
        line.contains(" main"),
        "the site is load_table's caller: {line}"
    );
}

/// `-kk`: the kernel stack too, with kernel symbol names.
#[test]
fn kernel_stacks() {
    require_bpf!();
    let _s = serial();
    let r = run(&mut genba_cmd([
        "trace",
        "-kk",
        "-e",
        "trace=openat",
        "--",
        "cat",
        "/etc/hostname",
    ]));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let kernel: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with(" > [kernel]("))
        .collect();
    // at syscall entry the kernel stack is the entry path; genba's own BPF
    // and tracepoint frames are not shown
    assert!(
        kernel.iter().any(|l| l.contains("do_syscall_64")),
        "kernel frames: {kernel:?}"
    );
    assert!(
        !kernel
            .iter()
            .any(|l| l.contains("bpf_") || l.contains("traceiter")),
        "tracing frames leaked: {kernel:?}"
    );
}

/// `-k` prints physical frames in strace -k's form; for the same call the
/// frames (file, function+offset, [offset]) equal strace's.
#[test]
fn stack_lines_equal_strace_k() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let frames = |text: &str| -> Vec<String> {
        // the frames under say(1, "done\n") in main
        let mut blocks: Vec<Vec<String>> = Vec::new();
        let mut inside = false;
        for l in text.lines() {
            if l.starts_with("write(") {
                inside = l.starts_with("write(1, \"done");
                if inside {
                    blocks.push(Vec::new());
                }
            } else if let (Some(b), true) = (blocks.last_mut(), inside && l.starts_with(" > ")) {
                if !l.ends_with("(inlined)") {
                    // strace's part of the line: up to the bracketed offset
                    b.push(l[..l.find(']').map_or(l.len(), |i| i + 1)].to_string());
                }
            }
        }
        blocks.pop().unwrap_or_default()
    };
    let s = run(Command::new("strace")
        .args(["-k", "-e", "trace=write", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    let g = run(genba_cmd(["trace", "-k", "-e", "trace=write", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    let (sf, gf) = (frames(&s.stderr), frames(&g.stderr));
    assert!(
        sf.len() >= 3,
        "strace -k gave too few frames:\n{}",
        s.stderr
    );
    // strace names the libc function by its exported alias (__write); genba
    // by the symbol debug information has (__GI___libc_write): compare the
    // file and offsets of every frame, and the names of the program's frames
    let key = |f: &String| {
        (
            f.split('(').next().unwrap().to_string(),
            f.rsplit('[').next().unwrap().to_string(),
        )
    };
    assert_eq!(
        gf.iter().map(key).collect::<Vec<_>>(),
        sf.iter().map(key).collect::<Vec<_>>(),
        "genba:\n{gf:#?}\nstrace:\n{sf:#?}"
    );
}

/// A library loaded with dlopen after start-up, and calls from two threads,
/// and the same program run through `sh -c 'exec ...'` (the mappings are
/// followed across exec).
#[test]
fn sites_across_dlopen_threads_and_exec() {
    require_bpf!();
    let _s = serial();
    let dir = target_dir().join("test-programs/source");
    fs::create_dir_all(&dir).unwrap();
    let src = repo_root().join("tests/programs/source");
    let lib = dir.join("libplugin.so");
    let bin = dir.join("sites_dl");
    sh(&format!(
        "gcc -O2 -g -shared -fPIC -o {} {}/plugin.c",
        lib.display(),
        src.display()
    ));
    sh(&format!(
        "gcc -O2 -g -o {} {}/sites_dl.c -ldl -lpthread",
        bin.display(),
        src.display()
    ));
    let plugin = markers_of("plugin.c");
    let main = markers_of("sites_dl.c");
    for via_exec in [false, true] {
        let mut cmd = genba_cmd(["trace", "-f", "--source", "-e", "trace=openat", "--"]);
        if via_exec {
            cmd.args([
                "sh",
                "-c",
                &format!("exec {} {} /etc/hostname", bin.display(), lib.display()),
            ]);
        } else {
            cmd.arg(&bin).arg(&lib).arg("/etc/hostname");
        }
        let r = run(&mut cmd);
        assert_eq!(r.code(), Some(0), "{}", r.describe());
        // the two threads' opens may overlap: a call split into
        // "<unfinished ...>" and "<... openat resumed>" has its site on the
        // resumed line
        fn pid_of(l: &str) -> Option<&str> {
            l.strip_prefix("[pid ")?.split(']').next()
        }
        let split: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.contains("\"/etc/hostname\"") && l.contains("<unfinished ...>"))
            .filter_map(|l| pid_of(l))
            .collect();
        let got = sites(
            &r.stderr
                .lines()
                .filter(|l| {
                    (l.contains("\"/etc/hostname\"") && !l.contains("<unfinished ...>"))
                        || (l.contains("<... openat resumed>")
                            && pid_of(l).is_some_and(|p| split.contains(&p)))
                })
                .collect::<Vec<_>>()
                .join("\n"),
        );
        let mut got: Vec<(String, u32)> = got.into_iter().map(|(_, f, l)| (f, l)).collect();
        got.sort();
        let mut want = vec![
            ("plugin.c".to_string(), plugin["plugin_open"]),
            ("sites_dl.c".to_string(), main["thread_open"]),
            ("sites_dl.c".to_string(), main["thread_open"]),
        ];
        want.sort();
        assert_eq!(got, want, "via exec: {via_exec}\n{}", r.stderr);
    }
}

/// `-c --source --format jsonl`: the summary and the summary by call site
/// as JSON objects.
#[test]
fn summary_by_site_as_json() {
    require_bpf!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    let m = markers();
    let dir = TempDir::new("site-json");
    // -c: the summary alone; -C: the calls too. Both with a filter, which
    // --source widens in the kernel (to follow mmap, execve...) but must not
    // widen in what is shown
    for mode in ["-c", "-C"] {
        let f = dir.join(&format!("s{mode}.jsonl"));
        let r = run(genba_cmd(["trace", mode, "--source", "--format", "jsonl"])
            .args(["-e", "trace=openat,read", "-o"])
            .arg(&f)
            .arg("--")
            .arg(&bin)
            .arg("/etc/hostname"));
        assert_eq!(r.code(), Some(0), "{}", r.describe());
        let text = fs::read_to_string(&f).unwrap();
        let objs: Vec<Json> = text
            .lines()
            .map(|l| parse_json(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect();
        let of_type = |t: &str| -> Vec<&Json> {
            objs.iter()
                .filter(|o| o.get("type").and_then(Json::as_str) == Some(t))
                .collect()
        };
        let name = |o: &Json| o.get("syscall").and_then(Json::as_str).unwrap().to_string();
        let mut names: Vec<String> = of_type("summary").into_iter().map(name).collect();
        names.sort();
        assert_eq!(
            names,
            ["openat", "read"],
            "{mode}: only the calls asked for:\n{text}"
        );
        if mode == "-C" {
            assert!(
                of_type("syscall").iter().any(|o| o.get("site").is_some()),
                "-C: the calls are there too, with their sites:\n{text}"
            );
        }
        let openat = of_type("summary")
            .into_iter()
            .find(|o| name(o) == "openat")
            .unwrap();
        let calls = openat.get("calls").and_then(Json::as_i64).unwrap();
        let sites: Vec<&Json> = of_type("summary_site")
            .into_iter()
            .filter(|o| name(o) == "openat")
            .collect();
        let site_calls: i64 = sites
            .iter()
            .map(|o| o.get("calls").and_then(Json::as_i64).unwrap())
            .sum();
        assert_eq!(
            site_calls, calls,
            "{mode}: the sites' calls add up to the syscall's:\n{text}"
        );
        let want = format!("sites.c:{} load_table", m["open"]);
        assert!(
            sites.iter().any(|o| o
                .get("site")
                .and_then(Json::as_str)
                .is_some_and(|s| s.ends_with(&want))),
            "{mode}: {text}"
        );
    }
}

/// A program whose executable is deleted while it runs: its calls still get
/// their sites, whether genba saw it start (and held the file) or attached
/// later (and reads it through /proc/PID/map_files).
#[test]
fn deleted_binary() {
    require_bpf!();
    let _s = serial();
    let m = markers_of("deleted.c");
    let dir = TempDir::new("deleted");
    let src = repo_root().join("tests/programs/source/deleted.c");
    let want = vec![
        ("openat".to_string(), "deleted.c".to_string(), m["open"]),
        ("read".to_string(), "deleted.c".to_string(), m["read"]),
    ];
    for attach in [false, true] {
        let bin = dir.join(if attach { "attached" } else { "launched" });
        sh(&format!(
            "gcc -O2 -g -o {} {}",
            bin.display(),
            src.display()
        ));
        let r = if attach {
            let mut child = Command::new(&bin).arg("/etc/hostname").spawn().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(100));
            let r = run(
                genba_cmd(["trace", "--source", "-e", "trace=openat,read", "-p"])
                    .arg(child.id().to_string()),
            );
            assert!(child.wait().unwrap().success());
            r
        } else {
            run(
                genba_cmd(["trace", "--source", "-e", "trace=openat,read", "--"])
                    .arg(&bin)
                    .arg("/etc/hostname"),
            )
        };
        assert_eq!(r.code(), Some(0), "{}", r.describe());
        assert!(!bin.exists(), "the program deleted itself");
        let trace: String = r
            .stderr
            .lines()
            // the open, and the read that is not the loader's (of ELF headers)
            .filter(|l| {
                l.contains("\"/etc/hostname\"")
                    || (l.starts_with("read(") && !l.contains("\\177ELF"))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let trace = if trace.is_empty() {
            r.stderr.clone()
        } else {
            trace
        };
        assert_eq!(sites(&trace), want, "attached: {attach}\n{}", r.stderr);
    }
}

/// One session that builds a program, runs it, rebuilds it at the same path
/// with its lines moved, and runs it again (a `make && ./prog` loop): each
/// run is read from the binary it ran, not from what was cached for the path.
#[test]
fn rebuilt_binary_at_the_same_path() {
    require_bpf!();
    let _s = serial();
    let m = markers();
    let dir = TempDir::new("rebuilt");
    let text = fs::read_to_string(source()).unwrap();
    fs::write(dir.join("v1.c"), &text).unwrap();
    fs::write(dir.join("v2.c"), format!("\n\n\n\n\n{text}")).unwrap();
    let d = dir.path().display().to_string();
    let script = format!(
        "set -e; cd {d}; for v in v1 v2; do gcc -O2 -g -o prog $v.c; ./prog /etc/hostname >/dev/null; done"
    );
    let r = run(
        genba_cmd(["trace", "-f", "--source", "-e", "trace=openat", "--"])
            .args(["sh", "-c", &script]),
    );
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let lines: Vec<(String, u32)> = sites(
        &r.stderr
            .lines()
            .filter(|l| l.contains("\"/etc/hostname\""))
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .into_iter()
    .map(|(_, f, l)| (f, l))
    .collect();
    // each run opens it twice: open() and fopen(). The first run's events
    // may be read after the rebuild (genba follows behind the compiler's
    // own calls): then its program is gone and it gets no line, never v2's
    let v2 = [
        ("v2.c".to_string(), m["open"] + 5),
        ("v2.c".to_string(), m["fopen"] + 5),
    ];
    let v1 = [
        ("v1.c".to_string(), m["open"]),
        ("v1.c".to_string(), m["fopen"]),
    ];
    assert!(
        lines == [&v1[..], &v2[..]].concat() || lines == v2,
        "{lines:?}\n{}",
        r.stderr
    );
    let first: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("\"/etc/hostname\""))
        .take(2)
        .collect();
    if lines == v2 {
        assert!(
            first.iter().all(|l| !l.contains(".c:")),
            "the first run, read late, gets no line: {first:?}"
        );
    }
}

/// A `syscall` instruction inlined into the program's own code (inline
/// assembly in a static inline function, -O2): the call site is the inline
/// function's line. At syscall entry the user ip is the instruction after
/// `syscall`, which here is main's next line; it is looked up minus one, as
/// caller frames are, and -k still prints the address itself, as strace -k.
#[test]
fn inlined_syscall_instruction() {
    require_bpf!();
    let _s = serial();
    let dir = target_dir().join("test-programs/source");
    fs::create_dir_all(&dir).unwrap();
    let src = repo_root().join("tests/programs/source/inline_syscall.c");
    let bin = dir.join("inline_syscall");
    sh(&format!(
        "gcc -O2 -g -o {} {}",
        bin.display(),
        src.display()
    ));
    let m = markers_of("inline_syscall.c");
    let r = run(genba_cmd(["trace", "--source", "-e", "trace=getppid", "--"]).arg(&bin));
    assert_eq!(r.code(), Some(0), "{}", r.describe());
    let got = sites(&r.stderr);
    assert_eq!(
        got,
        vec![(
            "getppid".to_string(),
            "inline_syscall.c".to_string(),
            m["inline_syscall"]
        )],
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains(" raw_getppid (inlined)"),
        "the inlined function is named: {}",
        r.stderr
    );
    // -k: the program's innermost frame shows the return address of the
    // syscall instruction, as strace -k does (objdump finds the instruction)
    let dis = Command::new("objdump")
        .args(["-d", "--no-show-raw-insn"])
        .arg(&bin)
        .output()
        .expect("objdump");
    let dis = String::from_utf8_lossy(&dis.stdout);
    let syscall_at = dis
        .lines()
        .find(|l| l.trim_end().ends_with("\tsyscall"))
        .and_then(|l| l.split(':').next())
        .map(|a| u64::from_str_radix(a.trim(), 16).expect("address"))
        .expect("a syscall instruction in the program");
    let k = run(genba_cmd(["trace", "-k", "-e", "trace=getppid", "--"]).arg(&bin));
    assert_eq!(k.code(), Some(0), "{}", k.describe());
    let first = k
        .stderr
        .lines()
        .find(|l| l.starts_with(" > "))
        .expect("a stack");
    assert!(
        first.contains(&format!("[{:#x}] ", syscall_at + 2))
            && first.contains(&format!("inline_syscall.c:{}", m["inline_syscall"])),
        "innermost frame at the return address, with the inline function's line: {}",
        k.stderr
    );
}

/// `-k` on a call whose stack is deep (unbuffered printf keeps an 8 KiB
/// buffer on the stack): by default genba copies enough to show all of
/// strace -k's frames; with a small copy the cut stack ends with
/// ` > (stack too deep)` and the run says how many were cut.
#[test]
fn k_deep_stacks_whole_or_marked() {
    require_bpf!();
    require_strace!();
    let _s = serial();
    let bin = build("O2", &["-O2", "-fomit-frame-pointer"]);
    // the frames under printf's write, up to the bracketed offset
    let printf_frames = |text: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut inside = false;
        for l in text.lines() {
            if !l.starts_with(" > ") {
                inside = l.starts_with("write(1, \"/etc/hostname");
            } else if inside && !l.ends_with("(inlined)") {
                let f = &l[..l.find(']').map_or(l.len(), |i| i + 1)];
                // strace names libc functions by other aliases: file and offset
                out.push(format!(
                    "{} {}",
                    f.split('(').next().unwrap(),
                    f.rsplit('[').next().unwrap()
                ));
            }
        }
        out
    };
    let s = run(Command::new("strace")
        .args(["-k", "-e", "trace=write", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    let want = printf_frames(&s.stderr);
    assert!(want.len() >= 4, "strace -k:\n{}", s.stderr);

    let g = run(genba_cmd(["trace", "-k", "-e", "trace=write", "--"])
        .arg(&bin)
        .arg("/etc/hostname"));
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    assert_eq!(
        printf_frames(&g.stderr),
        want,
        "default -k copy: all of strace -k's frames\n{}",
        g.stderr
    );
    assert!(!g.stderr.contains("stack too deep"), "{}", g.stderr);

    let g = run(genba_cmd([
        "trace",
        "-k",
        "--stack-bytes",
        "2048",
        "-e",
        "trace=write",
        "--",
    ])
    .arg(&bin)
    .arg("/etc/hostname"));
    assert_eq!(g.code(), Some(0), "{}", g.describe());
    let got = printf_frames(&g.stderr);
    assert!(
        got.len() < want.len() && got.last().is_some_and(|f| f.contains("(stack too deep)")),
        "a cut stack is marked at its end:\n{}",
        g.stderr
    );
    assert!(
        g.stderr.contains("genba: 1 stacks cut short"),
        "and counted at the end:\n{}",
        g.stderr
    );
}
