//! Builds the runtime (runtime/causal_runtime.c) into a shared object that
//! genba carries inside its binary, and writes the C layout of the shared
//! page (causal.h) as Rust constants, which a test compares with the Rust
//! mirror in src/page.rs.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let include = "../genba-bpf/src/bpf";
    println!("cargo:rerun-if-changed=runtime/causal_runtime.c");
    println!("cargo:rerun-if-changed={include}/causal.h");
    println!("cargo:rerun-if-env-changed=CC");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let ok = Command::new(&cc)
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared"])
        .arg(format!("-I{include}"))
        .arg("-o")
        .arg(out.join("libgenba_causal.so"))
        .arg("runtime/causal_runtime.c")
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "runtime/causal_runtime.c did not compile (see above)");
    // the page's layout as the C compiler lays it out
    let probe = out.join("causal_layout.c");
    std::fs::write(
        &probe,
        r#"#include <stdio.h>
#include <stddef.h>
#include "causal.h"
#define O(f) printf("pub const " #f ": usize = %zu;\n", offsetof(struct genba_causal, f))
#define T(f) printf("pub const T_" #f ": usize = %zu;\n", offsetof(struct genba_causal_thread, f))
int main(void) {
	printf("pub const SIZE: usize = %zu;\n", sizeof(struct genba_causal));
	printf("pub const THREAD_SIZE: usize = %zu;\n", sizeof(struct genba_causal_thread));
	O(speedup); O(threshold); O(kind); O(with_kernel); O(lo); O(sites); O(text_lo); O(busy); O(global);
	O(open_sum); O(hits); O(runtime_pid); O(slept); O(runtime_handler); O(not_ours); O(progress); O(latency); O(t);
	T(credit); T(paid); T(acc_ts); T(off_cls); T(off_word); T(g_block);
	return 0;
}
"#,
    )
    .unwrap();
    let exe = out.join("causal_layout");
    let ok = Command::new(&cc)
        .arg(format!("-I{include}"))
        .arg("-o")
        .arg(&exe)
        .arg(&probe)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "the layout probe did not compile");
    let text = Command::new(&exe).output().expect("the layout probe runs");
    std::fs::write(out.join("layout.rs"), text.stdout).unwrap();
}
