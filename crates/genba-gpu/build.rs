//! Builds the GPU layers (shim/opencl_layer.c, shim/vulkan_layer.c) and the
//! CUDA runtime shim (shim/cuda_preload.c) into
//! shared objects that genba carries inside its binary and writes out when
//! `--gpu` asks for them. Without an API's headers (Debian's opencl-headers,
//! libvulkan-dev) its layer is left out, and `--gpu` says so.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=shim/genba_gpu.h");
    println!("cargo:rerun-if-changed=shim/shim_common.h");
    println!("cargo:rerun-if-env-changed=CC");
    build(
        "opencl_layer.c",
        "libgenba_opencl.so",
        "genba_opencl_layer",
        "/usr/include/CL/cl_layer.h",
        "OpenCL headers (apt-get install opencl-headers)",
    );
    build(
        "vulkan_layer.c",
        "libgenba_vulkan.so",
        "genba_vulkan_layer",
        "/usr/include/vulkan/vk_layer.h",
        "Vulkan headers (apt-get install libvulkan-dev)",
    );
    // needs no CUDA header: always built (a failure is an error)
    build(
        "cuda_preload.c",
        "libgenba_cuda.so",
        "genba_cuda_preload",
        "shim/cuda_preload.c",
        "",
    );
}

/// Compiles shim/`src` into `$OUT_DIR/so` and sets `cfg` when it built.
fn build(src: &str, so: &str, cfg: &str, header: &str, missing: &str) {
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
            "-o",
        ])
        .arg(&so)
        .arg(format!("shim/{src}"))
        .arg("-lpthread")
        .status();
    match status {
        Ok(s) if s.success() => println!("cargo:rustc-cfg={cfg}"),
        Ok(_) if std::path::Path::new(header).exists() => {
            panic!("shim/{src} did not compile (see above)")
        }
        _ => println!("cargo:warning=shim/{src} is left out: no {missing}"),
    }
}
