//! Builds the OpenCL layer (shim/opencl_layer.c) into a shared object that
//! genba carries inside its binary and writes out when `--gpu` asks for it.
//! Without the OpenCL headers (Debian's opencl-headers) the layer is left
//! out, and `--gpu` says so.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let so = out.join("libgenba_opencl.so");
    println!("cargo:rerun-if-changed=shim/opencl_layer.c");
    println!("cargo:rerun-if-changed=shim/genba_gpu.h");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo::rustc-check-cfg=cfg(genba_opencl_layer)");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args([
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fPIC",
            "-shared",
            "-fvisibility=hidden",
            "-o",
        ])
        .arg(&so)
        .arg("shim/opencl_layer.c")
        .arg("-lpthread")
        .status();
    match status {
        Ok(s) if s.success() => println!("cargo:rustc-cfg=genba_opencl_layer"),
        Ok(_) if std::path::Path::new("/usr/include/CL/cl_layer.h").exists() => {
            panic!("the OpenCL layer did not compile (see above)")
        }
        _ => println!(
            "cargo:warning=the OpenCL layer is left out: no OpenCL headers (apt-get install opencl-headers)"
        ),
    }
}
