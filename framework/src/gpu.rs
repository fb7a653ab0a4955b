//! The GPU runtime: device discovery that never panics, and CUDA sources
//! compiled at run time by NVRTC to a CUBIN for the device's architecture,
//! cached on disk by a hash of source and architecture.
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

/// cudarc, re-exported so GPU plugins launch their own kernels with the
/// same version the runtime uses.
pub use cudarc;

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

/// How many CUDA devices this machine has; an error (never a panic)
/// where there is no driver.
pub fn device_count() -> Result<usize, Error> {
    if !driver_present() {
        return Err(no_gpu("no CUDA driver (libcuda) on this machine"));
    }
    catch_unwind(CudaContext::device_count)
        .map_err(|_| no_gpu("the CUDA driver failed to initialise"))?
        .map(|n| n.max(0) as usize)
        .map_err(|e| no_gpu(format!("cannot count GPUs: {e}")))
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

    /// Compiles `source` to a CUBIN for this device's architecture (or loads
    /// the cached one) and loads it. Falls back to PTX, which the driver
    /// compiles at load time, where NVRTC cannot emit a CUBIN.
    pub fn module(&self, source: &str) -> Result<Arc<CudaModule>, Error> {
        let (major, minor) = self.capability;
        let arch = format!("sm_{major}{minor}");
        let key = foldhash::fast::FixedState::with_seed(0x6B65_726E_656C).hash_one((
            source,
            major,
            minor,
            options(&arch),
        ));
        let path = cache_dir().join(format!("{key:016x}-{arch}.cubin"));
        let image = match std::fs::read(&path) {
            Ok(bytes) if !bytes.is_empty() => Ptx::from_binary(bytes),
            _ => match compile_cubin(source, &arch)? {
                Some(cubin) => {
                    store(&path, &cubin);
                    Ptx::from_binary(cubin)
                }
                None => compile_ptx(source, &format!("compute_{major}{minor}"))?,
            },
        };
        self.ctx.load_module(image).map_err(gpu_error)
    }
}

/// Writes a cache file through a temporary name; a cache that cannot be
/// written only costs a recompile next time, said in one warning.
fn store(path: &std::path::Path, bytes: &[u8]) {
    let written = match path.parent() {
        Some(dir) => {
            std::fs::create_dir_all(dir).and_then(|()| crate::files::write_atomic(path, bytes))
        }
        None => crate::files::write_atomic(path, bytes),
    };
    if let Err(e) = written {
        tracing::warn!(
            "compiled kernel not cached ({}: {e}); going on without the cache",
            path.display()
        );
    }
}

fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen the library; no symbol is called.
    catch_unwind(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false)
}

/// NVRTC's options; they are part of a cached CUBIN's key. `-lineinfo`
/// maps the machine code to source lines for Nsight Compute (where a
/// kernel's warps diverge or stall, by line of the source NVRTC was given:
/// `search::gpu::engine_sources` makes it again) and leaves the code as it is.
/// `--device-int128` lets kernels use `unsigned __int128` (Boggle's 128-bit
/// path keys), which NVRTC otherwise refuses.
fn options(arch: &str) -> Vec<String> {
    vec![
        format!("--gpu-architecture={arch}"),
        "-default-device".into(),
        "--std=c++17".into(),
        "-lineinfo".into(),
        "--device-int128".into(),
    ]
}

/// Compiles `source` for `arch` (`sm_90` for H100 and H200) with NVRTC
/// and drops the binary: a kernel's compile errors, found on a machine
/// with no GPU and no CUDA driver (NVRTC alone, as PyPI's
/// `nvidia-cuda-nvrtc-cu12` ships it, on the library path). An
/// [`Error::NoGpu`] when NVRTC is not installed, an [`Error::Gpu`] with
/// NVRTC's log when the source does not compile.
pub fn compile_only(source: &str, arch: &str) -> Result<(), Error> {
    compile_cubin(source, arch).map(|_| ())
}

/// For tests of kernels: whether `compiled` (a [`compile_only`] or
/// `search::gpu::compile_engines` result) checked anything. `Ok(false)`,
/// said on stderr, where NVRTC is not installed; a compile error is
/// returned as it is.
pub fn checked_unless_no_nvrtc(compiled: Result<(), Error>) -> Result<bool, Error> {
    match compiled {
        Ok(()) => Ok(true),
        Err(Error::NoGpu(why)) => {
            eprintln!("SKIPPED: kernels are not compiled here: {why}");
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// Compiles to a CUBIN; `Ok(None)` when this NVRTC cannot hand one out.
fn compile_cubin(source: &str, arch: &str) -> Result<Option<Vec<u8>>, Error> {
    use cudarc::nvrtc::{result, sys};
    if !nvrtc_present() {
        return Err(no_gpu("NVRTC (libnvrtc) is not installed"));
    }
    let src = std::ffi::CString::new(source)
        .map_err(|_| Error::Gpu("kernel source holds a NUL byte".into()))?;
    let compiled = catch_unwind(AssertUnwindSafe(|| -> Result<Option<Vec<u8>>, Error> {
        let prog = result::create_program(&src, Some(c"frontier.cu")).map_err(gpu_error)?;
        // SAFETY: `prog` is a live program until destroyed below; the CUBIN
        // buffer has the size NVRTC reported.
        let out = unsafe {
            match result::compile_program(prog, &options(arch)) {
                Err(_) => {
                    let log = result::get_program_log(prog).unwrap_or_default();
                    let text: String = log
                        .iter()
                        .take_while(|&&c| c != 0)
                        .map(|&c| c as u8 as char)
                        .collect();
                    Err(Error::Gpu(format!("kernel does not compile: {text}")))
                }
                Ok(()) => {
                    let mut size = 0usize;
                    if sys::nvrtcGetCUBINSize(prog, &mut size) != sys::nvrtcResult::NVRTC_SUCCESS
                        || size == 0
                    {
                        Ok(None)
                    } else {
                        let mut cubin = vec![0u8; size];
                        let got = sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr().cast());
                        Ok((got == sys::nvrtcResult::NVRTC_SUCCESS).then_some(cubin))
                    }
                }
            }
        };
        // SAFETY: `prog` came from create_program and is destroyed once.
        let _ = unsafe { result::destroy_program(prog) };
        out
    }));
    compiled.unwrap_or_else(|_| Err(no_gpu("NVRTC failed to load")))
}

fn compile_ptx(source: &str, arch: &str) -> Result<Ptx, Error> {
    if !nvrtc_present() {
        return Err(no_gpu("NVRTC (libnvrtc) is not installed"));
    }
    let options = CompileOptions {
        options: options(arch),
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

/// For GPU tests: whether GPU 0 can be opened. Where it cannot, prints a
/// `SKIPPED <test>` notice (so CPU-only machines show what did not run) and
/// returns false — unless `FRONTIER_REQUIRE_GPU=1`, which makes a missing
/// GPU a failure (the device machine's check script sets it).
///
/// # Panics
/// When `FRONTIER_REQUIRE_GPU=1` and there is no usable GPU.
pub fn usable_or_skip(test: &str) -> bool {
    if driver_present() && Gpu::open(0).is_ok() {
        return true;
    }
    assert!(
        std::env::var("FRONTIER_REQUIRE_GPU").as_deref() != Ok("1"),
        "{test}: FRONTIER_REQUIRE_GPU=1 but no GPU"
    );
    // Written to the handle, not through eprintln!, so libtest's capture
    // does not hide the notice.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no GPU on this machine");
    false
}

/// Where compiled kernels are cached (see [`crate::cache_dir`]).
pub fn cache_dir() -> PathBuf {
    crate::cache_dir("kernels")
}

/// Wraps a driver error.
pub fn gpu_error(e: impl std::fmt::Display) -> Error {
    Error::Gpu(e.to_string())
}
