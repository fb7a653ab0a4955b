//! The GPU runtime: device discovery that never panics, and CUDA sources
//! compiled at run time by NVRTC for the device's architecture, cached on
//! disk by a hash of source and architecture.
//!
//! cudarc loads libcuda and libnvrtc dynamically and panics if a symbol is
//! missing, so every entry point first checks that the libraries exist and
//! runs the first driver calls under `catch_unwind`: a machine without a GPU
//! gets an [`Error::NoGpu`] naming what is missing.

use std::hash::BuildHasher;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions, Ptx};

use crate::Error;

/// One CUDA device with a stream to run on.
pub struct Gpu {
    /// The driver context.
    pub ctx: Arc<CudaContext>,
    /// The stream every launch and copy goes through.
    pub stream: Arc<CudaStream>,
    /// The device's name, for reports.
    pub name: String,
    /// Compute capability (major, minor).
    pub capability: (i32, i32),
}

fn no_gpu(why: impl Into<String>) -> Error {
    Error::NoGpu(why.into())
}

/// Whether the CUDA driver library can be loaded at all.
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen the library; no symbol is called.
    catch_unwind(|| unsafe { cudarc::driver::sys::is_culib_present() }).unwrap_or(false)
}

impl Gpu {
    /// Opens device `ordinal`, or says why not (no driver, no device).
    pub fn open(ordinal: usize) -> Result<Gpu, Error> {
        if !driver_present() {
            return Err(no_gpu("no CUDA driver (libcuda) on this machine"));
        }
        let opened = catch_unwind(AssertUnwindSafe(|| -> Result<Gpu, Error> {
            let ctx = CudaContext::new(ordinal)
                .map_err(|e| no_gpu(format!("cannot open GPU {ordinal}: {e}")))?;
            let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
            let capability = ctx
                .compute_capability()
                .map_err(|e| no_gpu(e.to_string()))?;
            let stream = ctx.default_stream();
            Ok(Gpu {
                ctx,
                stream,
                name,
                capability,
            })
        }));
        opened.unwrap_or_else(|_| Err(no_gpu("the CUDA driver failed to initialise")))
    }

    /// Free and total device memory in bytes.
    pub fn memory(&self) -> Result<(usize, usize), Error> {
        self.ctx.mem_get_info().map_err(gpu_error)
    }

    /// Compiles `source` for this device (or loads the cached PTX) and loads it.
    pub fn module(&self, source: &str) -> Result<Arc<CudaModule>, Error> {
        let arch = format!("compute_{}{}", self.capability.0, self.capability.1);
        let key = foldhash::fast::FixedState::with_seed(0x6B65_726E_656C).hash_one((source, &arch));
        let path = cache_dir().join(format!("{key:016x}-{arch}.ptx"));
        let ptx = match std::fs::read_to_string(&path) {
            Ok(text) => Ptx::from_src(text),
            Err(_) => {
                let compiled = compile(source, &arch)?;
                // A cache that cannot be written only costs a recompile next time.
                if std::fs::create_dir_all(cache_dir()).is_ok() {
                    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
                    if std::fs::write(&tmp, compiled.to_src()).is_ok() {
                        let _ = std::fs::rename(&tmp, &path);
                    }
                }
                compiled
            }
        };
        self.ctx.load_module(ptx).map_err(gpu_error)
    }
}

fn compile(source: &str, arch: &str) -> Result<Ptx, Error> {
    // SAFETY: only tries to dlopen the library; no symbol is called.
    let present =
        catch_unwind(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false);
    if !present {
        return Err(no_gpu("NVRTC (libnvrtc) is not installed"));
    }
    let options = CompileOptions {
        options: vec![
            format!("--gpu-architecture={arch}"),
            "-default-device".into(),
            "--std=c++17".into(),
        ],
        name: Some("frontier.cu".into()),
        ..CompileOptions::default()
    };
    catch_unwind(AssertUnwindSafe(|| compile_ptx_with_opts(source, options)))
        .map_err(|_| no_gpu("NVRTC failed to load"))?
        .map_err(|e| match e {
            cudarc::nvrtc::CompileError::CompileError { log, .. } => Error::Gpu(format!(
                "kernel does not compile: {}",
                log.to_string_lossy()
            )),
            other => Error::Gpu(format!("NVRTC: {other:?}")),
        })
}

/// Where compiled kernels are cached: `$XDG_CACHE_HOME/frontier/kernels`,
/// else `~/.cache/frontier/kernels`.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".frontier-cache"))
        .join("frontier")
        .join("kernels")
}

/// Wraps a driver error.
pub fn gpu_error(e: impl std::fmt::Display) -> Error {
    Error::Gpu(e.to_string())
}
