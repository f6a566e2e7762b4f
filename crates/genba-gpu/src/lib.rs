//! genba's GPU collectors.
//!
//! The OpenCL layer (`shim/opencl_layer.c`) and the Vulkan layer
//! (`shim/vulkan_layer.c`), built by build.rs and carried in genba's binary,
//! are loaded into the traced program by its loaders when genba's
//! environment names them (`OPENCL_LAYERS`; `VK_ADD_LAYER_PATH` and
//! `VK_INSTANCE_LAYERS`). They write each API call (and, OpenCL, each
//! command's device times) into a ring per process (`shim/genba_gpu.h`), in
//! a directory genba makes for the run ([`GpuDir`]); [`Rings`] reads them
//! into genba's events while the program runs.

mod cache;
mod clockfit;
mod ring;

use std::io;
use std::path::{Path, PathBuf};

pub use clockfit::{ClockFit, Estimate};
pub use ring::Rings;

/// The OpenCL layer's shared object, when genba was built with the OpenCL
/// headers.
pub fn opencl_layer() -> Option<&'static [u8]> {
    #[cfg(genba_opencl_layer)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libgenba_opencl.so"
        )))
    }
    #[cfg(not(genba_opencl_layer))]
    {
        None
    }
}

/// The Vulkan layer's shared object, when genba was built with the Vulkan
/// headers.
pub fn vulkan_layer() -> Option<&'static [u8]> {
    #[cfg(genba_vulkan_layer)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libgenba_vulkan.so"
        )))
    }
    #[cfg(not(genba_vulkan_layer))]
    {
        None
    }
}

/// The CUDA runtime shim's shared object (it needs no CUDA header).
pub fn cuda_preload() -> Option<&'static [u8]> {
    #[cfg(genba_cuda_preload)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libgenba_cuda.so"
        )))
    }
    #[cfg(not(genba_cuda_preload))]
    {
        None
    }
}

/// The OpenCL layer built as the fallback for ICD loaders without layers
/// (its hooks reached through the auditor).
pub fn opencl_hooks() -> Option<&'static [u8]> {
    #[cfg(genba_opencl_hooks)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libgenba_opencl_hooks.so"
        )))
    }
    #[cfg(not(genba_opencl_hooks))]
    {
        None
    }
}

/// The auditor (`LD_AUDIT`) that binds the program's references to
/// libOpenCL and libcudart to genba's hooks.
pub fn gpu_audit() -> Option<&'static [u8]> {
    #[cfg(genba_gpu_audit)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libgenba_audit.so"
        )))
    }
    #[cfg(not(genba_gpu_audit))]
    {
        None
    }
}

/// The Vulkan layer's name.
pub const VULKAN_LAYER: &str = "VK_LAYER_GENBA_trace";

/// The run's GPU directories: the shared objects (and the Vulkan layer's
/// manifest) in a cache directory named by their contents, which is never
/// removed (a child that outlives genba still finds what its environment
/// names), and the rings the programs make in a private directory of the
/// run, removed when dropped.
pub struct GpuDir {
    path: PathBuf,
    layer: Option<PathBuf>,
    hooks: Vec<PathBuf>,
    audit: Option<PathBuf>,
    vulkan: Option<PathBuf>,
}

/// Set (to anything) in genba's environment: the OpenCL layer is not named
/// in `OPENCL_LAYERS`, so that the fallback records (tests of the
/// fallback, and ICD loaders that do not read the variable).
pub const NO_OPENCL_LAYER: &str = "GENBA_GPU_NO_OPENCL_LAYER";

impl GpuDir {
    /// Writes the shared objects into their cache directory (when not there
    /// already) and makes the run's private directory (mode 0700) under
    /// `$TMPDIR` (or /tmp) for the rings.
    pub fn create() -> io::Result<GpuDir> {
        if opencl_layer().is_none() && vulkan_layer().is_none() {
            return Err(io::Error::other(
                "this genba was built without its GPU layers (the OpenCL and Vulkan headers were missing: apt-get install opencl-headers libvulkan-dev, then rebuild)",
            ));
        }
        let files: Vec<(&str, &[u8])> = [
            ("libgenba_audit.so", gpu_audit()),
            ("libgenba_cuda.so", cuda_preload()),
            ("libgenba_opencl.so", opencl_layer()),
            ("libgenba_opencl_hooks.so", opencl_hooks()),
            ("libgenba_vulkan.so", vulkan_layer()),
        ]
        .into_iter()
        .filter_map(|(n, b)| b.map(|b| (n, b)))
        .collect();
        let cache = cache::directory(&files)?;
        let write = |name: &str, bytes: &[u8]| -> io::Result<PathBuf> {
            let p = cache.join(name);
            cache::put(&p, bytes)?;
            Ok(p)
        };
        let mut dir = GpuDir {
            path: genba_events::private_dir("genba-gpu")?,
            layer: None,
            hooks: Vec::new(),
            audit: None,
            vulkan: None,
        };
        for (name, bytes) in &files {
            let p = write(name, bytes)?;
            match *name {
                "libgenba_audit.so" => dir.audit = Some(p),
                "libgenba_cuda.so" | "libgenba_opencl_hooks.so" => dir.hooks.push(p),
                "libgenba_opencl.so" => dir.layer = Some(p),
                _ => {}
            }
        }
        if vulkan_layer().is_some() {
            let so = cache.join("libgenba_vulkan.so");
            // the loader finds the layer by its manifest, in the directory
            // VK_ADD_LAYER_PATH names
            let manifest = format!(
                concat!(
                    "{{\"file_format_version\": \"1.1.2\", \"layer\": {{",
                    "\"name\": \"{}\", \"type\": \"GLOBAL\", \"library_path\": \"{}\", ",
                    "\"api_version\": \"1.3.0\", \"implementation_version\": \"1\", ",
                    "\"description\": \"genba: records the program's compute work\", ",
                    "\"functions\": {{\"vkGetInstanceProcAddr\": \"genba_vkGetInstanceProcAddr\", ",
                    "\"vkGetDeviceProcAddr\": \"genba_vkGetDeviceProcAddr\"}}}}}}\n"
                ),
                VULKAN_LAYER,
                so.display()
            );
            write("genba_vulkan_layer.json", manifest.as_bytes())?;
            dir.vulkan = Some(cache);
        }
        Ok(dir)
    }

    /// The directory the rings are made in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The environment a traced program needs for its GPU calls to be
    /// recorded: the layer for the OpenCL ICD loader (after any the user
    /// set), and where to put its ring.
    pub fn env(&self) -> Vec<(String, String)> {
        // each list after what the user set
        let append = |var: &str, v: String| match std::env::var(var) {
            Ok(l) if !l.is_empty() => format!("{l}:{v}"),
            _ => v,
        };
        let dir = self.path.to_string_lossy().into_owned();
        let mut env = vec![("GENBA_GPU_DIR".to_string(), dir)];
        if let Some(l) = &self.layer {
            if std::env::var_os(NO_OPENCL_LAYER).is_none() {
                env.push((
                    "OPENCL_LAYERS".into(),
                    append("OPENCL_LAYERS", l.to_string_lossy().into_owned()),
                ));
            }
        }
        // the CUDA runtime has no layers, and some OpenCL loaders none: the
        // hooks preloaded under names of their own, and the auditor binding
        // the program's references to those libraries to them (a process
        // that did not load them sees nothing)
        if let (Some(a), false) = (&self.audit, self.hooks.is_empty()) {
            env.push((
                "LD_AUDIT".into(),
                append("LD_AUDIT", a.to_string_lossy().into_owned()),
            ));
            let hooks: Vec<String> = self
                .hooks
                .iter()
                .map(|h| h.to_string_lossy().into_owned())
                .collect();
            env.push(("LD_PRELOAD".into(), append("LD_PRELOAD", hooks.join(":"))));
        }
        if let Some(v) = &self.vulkan {
            env.push((
                "VK_ADD_LAYER_PATH".into(),
                append("VK_ADD_LAYER_PATH", v.to_string_lossy().into_owned()),
            ));
            env.push((
                "VK_INSTANCE_LAYERS".into(),
                append("VK_INSTANCE_LAYERS", VULKAN_LAYER.into()),
            ));
        }
        env
    }
}

impl Drop for GpuDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
