//! GPU executors. A domain that runs on the GPU ships a CUDA plugin (see
//! `framework/kernels/gastar.cu` for the contract) through [`GpuPlugin`]; the same
//! engine runs GA* on one GPU ([`gastar()`]) and HDA* over every GPU of a
//! host ([`multi_gpu`]), states routed by a [`GpuPartitioner`].

mod anytime;
pub mod beam;
pub mod gastar;
pub mod ida;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod multi;
pub mod partition;
mod shard;

pub use beam::{device_child_ranks, device_ranks, gpu_beam};
pub use gastar::{gastar, GastarConfig, GastarSession};
pub use ida::{gpu_ida, gpu_ida_in_place, GpuIdaConfig};
#[cfg(feature = "mpi")]
pub use mpi::mpi_gpu;

/// Without the `mpi` feature: fails, saying how to build with it.
#[cfg(not(feature = "mpi"))]
pub fn mpi_gpu<D, P, Q>(
    _: &D,
    _: &P,
    _: &Q,
    _: &MultiGpuConfig,
    _: &crate::search::SearchOptions,
) -> Result<crate::search::DomainOutcome<D>, crate::Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
    Q: GpuPartitioner<D>,
{
    Err(crate::Error::ExecutorUnavailable {
        executor: "mpi-gpu",
        reason: "this frontier was built without MPI; build it with `--features mpi` \
                 (needs libopenmpi-dev and libclang-dev)"
            .into(),
    })
}
pub use multi::{device_owners, multi_gpu, MultiGpuConfig, MultiGpuSession};

/// The types every engine kernel and plugin source is written with, pasted
/// first.
pub(crate) const PRELUDE: &str = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n";

/// Device bytes for a plugin's table segments laid end to end, rounded up
/// to whole 32-bit words (the kernels read them as words).
pub(crate) fn tables_len(segments: &[&[u8]]) -> usize {
    (segments.iter().map(|t| t.len()).sum::<usize>().div_ceil(4) * 4).max(4)
}

/// `states` packed back to back (one state's room at least, so that an
/// empty list still makes a buffer a kernel may take).
pub(crate) fn pack_all<D: PackedState>(domain: &D, states: &[D::State]) -> Vec<u32> {
    let words = domain.packed_words();
    let mut packed = vec![0u32; states.len().max(1) * words];
    for (state, out) in states.iter().zip(packed.chunks_mut(words)) {
        domain.pack(state, out);
    }
    packed
}

/// Uploads a plugin's table segments end to end into a buffer of `len`
/// bytes (from [`tables_len`]).
pub(crate) fn upload_tables(
    stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    segments: &[&[u8]],
    len: usize,
) -> Result<cudarc::driver::CudaSlice<u8>, cudarc::driver::DriverError> {
    let mut buffer = stream.alloc_zeros::<u8>(len)?;
    let mut at = 0;
    for segment in segments {
        stream.memcpy_htod(*segment, &mut buffer.slice_mut(at..at + segment.len()))?;
        at += segment.len();
    }
    Ok(buffer)
}

/// Why `memory_fraction` is not a share of a GPU's free memory (above 0,
/// at most 1), if it is not.
pub(crate) fn check_memory_fraction(memory_fraction: f64) -> Result<(), String> {
    if memory_fraction > 0.0 && memory_fraction <= 1.0 {
        Ok(())
    } else {
        Err(format!(
            "memory_fraction {memory_fraction}: a share of free memory, above 0 and at most 1"
        ))
    }
}
pub use partition::{packed_hash, GpuPartitioner, PackedHasher};

use crate::domain::PackedState;
use crate::Error;

/// A domain's (and heuristic's) GPU side: CUDA source and lookup tables.
/// Moves need no device encoding: the host finds them again when it
/// replays the path of states the device returns.
pub trait GpuPlugin<D: PackedState>: Send + Sync {
    /// CUDA source defining `STATE_WORDS`, `MAX_SUCC`, `is_goal`, `expand`,
    /// `heuristic` (and `state_hash` under `PLUGIN_STATE_HASH`, else the
    /// engine's) for this instance, and
    /// `for_each_feature` where Abstract Zobrist partitions should run on
    /// the GPU (see framework/kernels/gastar.cu).
    fn source(&self, domain: &D) -> String;
    /// Bytes uploaded once and handed to every plugin call (pattern
    /// databases, goal tables), as segments laid end to end on the device:
    /// handing out existing buffers avoids copying hundreds of megabytes.
    /// They may belong to the heuristic or to the instance (a maze's cells).
    fn tables<'a>(&'a self, domain: &'a D) -> Vec<&'a [u8]>;
}

pub use crate::search::replay;

/// Every kernel the GPU executors compile for `domain` with `plugin`,
/// each named: GA* (`gpu`, `multi-gpu`; with the `hash` partition), the
/// beam, and IDA* with and without move pruning (stacks of the default
/// depth). With [`crate::gpu::compile_only`] a plugin's author finds its
/// compile errors on a machine without a GPU, before any device time.
pub fn engine_sources<D: PackedState, P: GpuPlugin<D>>(
    domain: &D,
    plugin: &P,
) -> Vec<(&'static str, String)> {
    let plugin_source = plugin.source(domain);
    let depth = GpuIdaConfig::default().max_depth;
    vec![
        ("GA*", multi::kernel_source(domain, plugin, &PackedHasher)),
        ("beam", beam::beam_source(&plugin_source)),
        ("IDA*", ida::ida_source(&plugin_source, depth, false)),
        (
            "IDA* with move pruning",
            ida::ida_source(&plugin_source, depth, true),
        ),
    ]
}

/// Compiles every kernel of [`engine_sources`] for `arch` (`sm_90` for
/// H100 and H200) with NVRTC alone ([`crate::gpu::compile_only`]): no GPU
/// or CUDA driver needed. The error names the kernel that does not
/// compile; [`Error::NoGpu`] says NVRTC is not installed.
pub fn compile_engines<D: PackedState, P: GpuPlugin<D>>(
    domain: &D,
    plugin: &P,
    arch: &str,
) -> Result<(), Error> {
    for (name, source) in engine_sources(domain, plugin) {
        crate::gpu::compile_only(&source, arch).map_err(|e| match e {
            Error::Gpu(log) => Error::Gpu(format!("{name}: {log}")),
            other => other,
        })?;
    }
    Ok(())
}
