//! Compiles the BPF C programs with clang and generates their Rust skeletons.
use std::env;
use std::path::PathBuf;

use libbpf_cargo::SkeletonBuilder;

const PROGRAMS: &[&str] = &["trace", "floor"];

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR is set by cargo"));
    let arch_include = format!("-I/usr/include/{}-linux-gnu", std::env::consts::ARCH);
    for name in PROGRAMS {
        let src = format!("src/bpf/{name}.bpf.c");
        SkeletonBuilder::new()
            .source(&src)
            .clang_args([
                "-Isrc/bpf",
                arch_include.as_str(),
                "-O2",
                "-g",
                "-Wall",
                "-mcpu=v3",
            ])
            .build_and_generate(out.join(format!("{name}.skel.rs")))
            .unwrap_or_else(|e| panic!("building {src}: {e:#}"));
        println!("cargo:rerun-if-changed={src}");
    }
    println!("cargo:rerun-if-changed=src/bpf/genba.h");
    println!("cargo:rerun-if-changed=src/bpf/profile.bpf.inc");
    println!("cargo:rerun-if-changed=src/bpf/irq.bpf.inc");
    println!("cargo:rerun-if-changed=src/bpf/causal.bpf.inc");
    println!("cargo:rerun-if-changed=src/bpf/causal.h");
}
