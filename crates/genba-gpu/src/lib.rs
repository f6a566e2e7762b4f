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

mod ring;

use std::io;
use std::path::{Path, PathBuf};

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

/// The Vulkan layer's name.
pub const VULKAN_LAYER: &str = "VK_LAYER_GENBA_trace";

/// The run's GPU directory: the layers written out (the Vulkan one with its
/// manifest), and the rings the programs make. Removed when dropped.
pub struct GpuDir {
    path: PathBuf,
    layer: Option<PathBuf>,
    vulkan: bool,
    cuda: Option<PathBuf>,
}

impl GpuDir {
    /// Makes a private directory (mode 0700) under `$TMPDIR` (or /tmp) and
    /// writes the OpenCL layer into it.
    pub fn create() -> io::Result<GpuDir> {
        if opencl_layer().is_none() && vulkan_layer().is_none() {
            return Err(io::Error::other(
                "this genba was built without its GPU layers (the OpenCL and Vulkan headers were missing: apt-get install opencl-headers libvulkan-dev, then rebuild)",
            ));
        }
        let path = genba_events::private_dir("genba-gpu")?;
        let mut dir = GpuDir {
            path,
            layer: None,
            vulkan: false,
            cuda: None,
        };
        if let Some(bytes) = cuda_preload() {
            let p = dir.path.join("libgenba_cuda.so");
            std::fs::write(&p, bytes)?;
            dir.cuda = Some(p);
        }
        if let Some(bytes) = opencl_layer() {
            let p = dir.path.join("libgenba_opencl.so");
            std::fs::write(&p, bytes)?;
            dir.layer = Some(p);
        }
        if let Some(bytes) = vulkan_layer() {
            let so = dir.path.join("libgenba_vulkan.so");
            std::fs::write(&so, bytes)?;
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
            std::fs::write(dir.path.join("genba_vulkan_layer.json"), manifest)?;
            dir.vulkan = true;
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
        let mut env = vec![("GENBA_GPU_DIR".to_string(), dir.clone())];
        if let Some(l) = &self.layer {
            env.push((
                "OPENCL_LAYERS".into(),
                append("OPENCL_LAYERS", l.to_string_lossy().into_owned()),
            ));
        }
        // the CUDA runtime has no layers: its entry points preloaded (each
        // forwards to the program's libcudart)
        if let Some(l) = &self.cuda {
            env.push((
                "LD_PRELOAD".into(),
                append("LD_PRELOAD", l.to_string_lossy().into_owned()),
            ));
        }
        if self.vulkan {
            env.push(("VK_ADD_LAYER_PATH".into(), append("VK_ADD_LAYER_PATH", dir)));
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
