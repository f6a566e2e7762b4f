//! genba's GPU collectors.
//!
//! The OpenCL layer (`shim/opencl_layer.c`, built by build.rs and carried in
//! genba's binary) is loaded by the ICD loader into the traced program when
//! `OPENCL_LAYERS` names it. It writes each API call and each command's
//! device times into a ring per process (`shim/genba_gpu.h`), in a
//! directory genba makes for the run ([`GpuDir`]); [`Rings`] reads them
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

/// The run's GPU directory: the layer written out, and the rings the
/// programs make. Removed when dropped.
pub struct GpuDir {
    path: PathBuf,
    layer: PathBuf,
}

impl GpuDir {
    /// Makes a private directory (mode 0700) under `$TMPDIR` (or /tmp) and
    /// writes the OpenCL layer into it.
    pub fn create() -> io::Result<GpuDir> {
        let Some(layer_bytes) = opencl_layer() else {
            return Err(io::Error::other(
                "this genba was built without its OpenCL layer (the OpenCL headers were missing: apt-get install opencl-headers, then rebuild)",
            ));
        };
        let base = std::env::var_os("TMPDIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/tmp"));
        let mut template = base
            .join("genba-gpu-XXXXXX")
            .into_os_string()
            .into_encoded_bytes();
        template.push(0);
        // SAFETY: a NUL-terminated template, written in place by mkdtemp.
        let p = unsafe { libc::mkdtemp(template.as_mut_ptr().cast()) };
        if p.is_null() {
            return Err(io::Error::last_os_error());
        }
        template.pop();
        // SAFETY: mkdtemp kept the bytes a path.
        let path =
            PathBuf::from(unsafe { std::ffi::OsString::from_encoded_bytes_unchecked(template) });
        let layer = path.join("libgenba_opencl.so");
        let dir = GpuDir { path, layer };
        std::fs::write(&dir.layer, layer_bytes)?;
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
        let layer = self.layer.to_string_lossy().into_owned();
        let layers = match std::env::var("OPENCL_LAYERS") {
            Ok(l) if !l.is_empty() => format!("{l}:{layer}"),
            _ => layer,
        };
        vec![
            ("OPENCL_LAYERS".into(), layers),
            (
                "GENBA_GPU_DIR".into(),
                self.path.to_string_lossy().into_owned(),
            ),
        ]
    }
}

impl Drop for GpuDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
