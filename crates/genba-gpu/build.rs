//! Builds the GPU layers (shim/opencl_layer.c, shim/vulkan_layer.c), the
//! OpenCL layer a second time as the fallback for ICD loaders without
//! layers, the CUDA runtime shim (shim/cuda_preload.c) and the auditor
//! that routes calls to the last two (shim/gpu_audit.c), into shared
//! objects that genba carries inside its binary and writes out when
//! `--gpu` asks for them. Without an API's headers (Debian's
//! opencl-headers, libvulkan-dev) its layer is left out, and `--gpu` says
//! so.

use std::path::{Path, PathBuf};
use std::process::Command;

const CL_ICD: &str = "/usr/include/CL/cl_icd.h";

fn main() {
    println!("cargo:rerun-if-changed=shim/genba_gpu.h");
    println!("cargo:rerun-if-changed=shim/shim_common.h");
    println!("cargo:rerun-if-changed=shim/shim_hooks.h");
    println!("cargo:rerun-if-changed={CL_ICD}");
    println!("cargo:rerun-if-env-changed=CC");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let names = dispatch_names(&out);
    build(
        "opencl_layer.c",
        "libgenba_opencl.so",
        "genba_opencl_layer",
        "/usr/include/CL/cl_layer.h",
        "OpenCL headers (apt-get install opencl-headers)",
        &[],
    );
    // the fallback fills its table by these names: without them every
    // entry would stay NULL, so it is not built at all
    if names > 0 {
        build(
            "opencl_layer.c",
            "libgenba_opencl_hooks.so",
            "genba_opencl_hooks",
            "/usr/include/CL/cl_layer.h",
            "OpenCL headers (apt-get install opencl-headers)",
            &["-DGENBA_OPENCL_FALLBACK"],
        );
    } else {
        println!(
            "cargo:warning=the OpenCL fallback is not built: no dispatch table entries found in {CL_ICD}"
        );
    }
    build(
        "vulkan_layer.c",
        "libgenba_vulkan.so",
        "genba_vulkan_layer",
        "/usr/include/vulkan/vk_layer.h",
        "Vulkan headers (apt-get install libvulkan-dev)",
        &[],
    );
    // need no CUDA header: always built (a failure is an error)
    build(
        "cuda_preload.c",
        "libgenba_cuda.so",
        "genba_cuda_preload",
        "shim/cuda_preload.c",
        "",
        &[],
    );
    build(
        "gpu_audit.c",
        "libgenba_audit.so",
        "genba_gpu_audit",
        "shim/gpu_audit.c",
        "",
        &[],
    );
}

/// `$OUT_DIR/ocl_dispatch_names.h`: an X-macro over the entries of the
/// OpenCL dispatch table (`struct _cl_icd_dispatch` of cl_icd.h, each
/// entry typed `cl_api_<name>`), for the fallback to fill its table of the
/// real loader's functions by name. Empty without the header. Returns how
/// many entries it found.
fn dispatch_names(out: &Path) -> usize {
    let text = std::fs::read_to_string(CL_ICD).unwrap_or_default();
    let body = text
        .find("struct _cl_icd_dispatch {")
        .map(|i| &text[i..])
        .and_then(|t| t.find("\n}").map(|j| &t[..j]))
        .unwrap_or("");
    let mut names = Vec::new();
    for line in body.lines() {
        let mut words = line.split_whitespace();
        if let (Some(ty), Some(field)) = (words.next(), words.next()) {
            let field = field.trim_end_matches(';');
            if ty.strip_prefix("cl_api_") == Some(field) {
                names.push(format!("\tX({field})"));
            }
        }
    }
    let h = format!(
        "/* made by build.rs from {CL_ICD} */\n#define OCL_DISPATCH_NAMES(X) \\\n{}\n",
        names.join(" \\\n")
    );
    std::fs::write(out.join("ocl_dispatch_names.h"), h).unwrap();
    names.len()
}

/// Compiles shim/`src` (with `extra` flags) into `$OUT_DIR/so` and sets
/// `cfg` when it built.
fn build(src: &str, so: &str, cfg: &str, header: &str, missing: &str, extra: &[&str]) {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let so = out.join(so);
    println!("cargo:rerun-if-changed=shim/{src}");
    println!("cargo::rustc-check-cfg=cfg({cfg})");
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
        ])
        .args(extra)
        .arg("-I")
        .arg(&out)
        .arg("-o")
        .arg(&so)
        .arg(format!("shim/{src}"))
        .arg("-lpthread")
        .arg("-ldl")
        .status();
    match status {
        Ok(s) if s.success() => println!("cargo:rustc-cfg={cfg}"),
        Ok(_) if std::path::Path::new(header).exists() => {
            panic!("shim/{src} did not compile (see above)")
        }
        _ => println!("cargo:warning=shim/{src} is left out: no {missing}"),
    }
}
