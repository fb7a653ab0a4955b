//! GA* on one GPU: the multi-GPU engine with a single device, so one code
//! path serves both and `multi-gpu` on one GPU returns what `gpu` returns.

use serde::{Deserialize, Serialize};

use super::multi::{MultiGpuConfig, MultiGpuSession};
use super::partition::PackedHasher;
use super::GpuPlugin;
use crate::domain::PackedState;
use crate::gpu::Gpu;
use crate::search::{DomainOutcome, SearchOptions};
use crate::Error;

/// Parameters of [`gastar`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GastarConfig {
    /// Which GPU.
    pub device: usize,
    /// Number of binary heaps (one GPU thread each).
    pub heaps: u32,
    /// Share of free device memory for the node arena, heaps and buffers.
    pub memory_fraction: f64,
    /// Hash-table slots for duplicate detection, as a power of two.
    pub table_log2: u32,
    /// Partial expansion (see [`MultiGpuConfig::partial_expansion`]).
    pub partial_expansion: bool,
}

impl Default for GastarConfig {
    fn default() -> Self {
        let multi = MultiGpuConfig::default();
        GastarConfig {
            device: 0,
            heaps: multi.heaps,
            memory_fraction: multi.memory_fraction,
            table_log2: multi.table_log2,
            partial_expansion: multi.partial_expansion,
        }
    }
}

impl GastarConfig {
    /// The same search as a one-GPU [`MultiGpuConfig`].
    pub fn as_multi(&self) -> MultiGpuConfig {
        MultiGpuConfig {
            devices: vec![self.device],
            partition: "hash".into(),
            heaps: self.heaps,
            memory_fraction: self.memory_fraction,
            table_log2: self.table_log2,
            partial_expansion: self.partial_expansion,
        }
    }
}

/// Runs GA* on the GPU. With an admissible heuristic the cost equals A*'s;
/// the returned path is replayed on the CPU before it is reported. To solve
/// many instances, keep a [`GastarSession`] instead: it compiles, allocates
/// and uploads tables once.
///
/// ```
/// use frontier_core::grid::{Grid, Manhattan};
/// use frontier_core::search::gpu::{gastar, GastarConfig};
/// use frontier_core::{Error, SearchOptions};
/// let maze = Grid::parse("S..#\n.#..\n...G").unwrap();
/// match gastar(&maze, &Manhattan, &GastarConfig::default(), &SearchOptions::default()) {
///     Ok(outcome) => assert_eq!(outcome.solution().unwrap().cost, 5),
///     // Without a GPU (or its driver) this is an error, never a panic.
///     Err(e) => assert!(matches!(e, Error::NoGpu(_) | Error::Gpu(_)), "{e}"),
/// }
/// ```
pub fn gastar<D: PackedState, P: GpuPlugin<D>>(
    domain: &D,
    plugin: &P,
    config: &GastarConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error> {
    GastarSession::new(domain, plugin, config)?.solve(domain, plugin, options)
}

/// Device memory and kernels for GA*, reusable across instances whose plugin
/// source is the same (same board, goal and heuristic).
pub struct GastarSession(MultiGpuSession);

impl GastarSession {
    /// Compiles the plugin, sizes every buffer from free device memory and
    /// uploads the plugin's tables. Running out of device memory is an error
    /// naming the sizes, never a crash.
    pub fn new<D: PackedState, P: GpuPlugin<D>>(
        domain: &D,
        plugin: &P,
        config: &GastarConfig,
    ) -> Result<GastarSession, Error> {
        Self::with_gpu(Gpu::open(config.device)?, domain, plugin, config)
    }

    /// Like [`Self::new`] on a device opened beforehand (opening one takes a
    /// few tenths of a second, which callers can overlap with other set-up).
    pub fn with_gpu<D: PackedState, P: GpuPlugin<D>>(
        gpu: Gpu,
        domain: &D,
        plugin: &P,
        config: &GastarConfig,
    ) -> Result<GastarSession, Error> {
        MultiGpuSession::with_gpus(vec![gpu], domain, plugin, &PackedHasher, &config.as_multi())
            .map(GastarSession)
    }

    /// Whether this session was built for the same plugin source as `domain`'s.
    pub fn fits<D: PackedState, P: GpuPlugin<D>>(&self, domain: &D, plugin: &P) -> bool {
        self.0.fits(domain, plugin, &PackedHasher)
    }

    /// Solves `domain`'s instance on this session's buffers.
    pub fn solve<D: PackedState, P: GpuPlugin<D>>(
        &mut self,
        domain: &D,
        plugin: &P,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error> {
        self.0.solve(domain, plugin, &PackedHasher, options)
    }
}
