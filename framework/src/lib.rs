//! # frontier-core
//!
//! The engine of frontier: the traits a search domain implements, the
//! executors that search any such domain, and the statistics they report.
//!
//! A domain is written once against [`Domain`] and [`Heuristic`]; the same
//! code then runs on every executor. Executors are generic over the traits
//! (associated types, no trait objects on the hot path) and never name a
//! domain. Opt-in traits — [`StateHasher`], [`Partitioner`], [`PackedState`]
//! — unlock the parallel and GPU executors.
//!
//! ```
//! use frontier_core::{astar, grid::{Grid, Manhattan}, SearchOptions};
//! let maze = Grid::parse("S..\n.#.\n..G").unwrap();
//! let outcome = astar(&maze, &Manhattan, &SearchOptions::default())?;
//! assert_eq!(outcome.solution().map(|s| s.cost), Some(4));
//! # Ok::<(), frontier_core::Error>(())
//! ```
#![deny(missing_docs)]

pub mod config;
pub mod data;
pub mod decision;
pub mod domain;
pub mod executors;
pub mod files;
pub mod fuzz;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod grid;
pub mod prefetch;
pub mod quick;
pub mod rng;
pub mod search;
pub mod stats;
pub mod zobrist;

pub use config::ExecutorConfig;
pub use domain::{
    children_one_by_one, Blind, CodecError, Cost, Domain, Edge, Heuristic, InPlace,
    InPlaceHeuristic, PackedState, Parent, Partitioner, StateHasher, StdHasher,
};
pub use search::{
    astar, hda, ida, walk, DomainOutcome, HdaConfig, IdaConfig, Limit, Limits, Outcome, Progress,
    ProgressSink, SearchOptions, Solution, Status, Visit, WalkEnd,
};
pub use stats::SearchStats;

/// frontier's cache directory for `what` (pattern databases, compiled
/// kernels): `$XDG_CACHE_HOME/frontier/<what>`, else
/// `~/.cache/frontier/<what>`, else `./.frontier-cache/frontier/<what>`.
pub fn cache_dir(what: &str) -> std::path::PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| std::path::PathBuf::from(".frontier-cache"))
        .join("frontier")
        .join(what)
}

/// The most worker threads an executor or a thread pool starts: beyond
/// it a typo (`--threads 100000`) would spend minutes and gigabytes
/// spawning threads and their per-thread buffers before any search.
pub const MAX_THREADS: usize = 4096;

/// `threads` when a CPU executor can start that many workers (1 to
/// [`MAX_THREADS`]), or why not.
pub fn check_threads(executor: &str, threads: usize) -> Result<usize, Error> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(Error::BadConfig(format!(
            "{executor}: threads {threads}: give 1 to {MAX_THREADS}"
        )))
    }
}

/// Errors of the core crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A maze in [`grid`]'s text format could not be parsed.
    #[error("grid line {line}, column {column}: {message}")]
    Grid {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A maze in [`grid`]'s text format that is wrong as a whole (empty,
    /// too large, without a start or a goal): no line or column to name.
    #[error("grid: {0}")]
    GridWhole(String),
    /// No usable GPU: no driver, no device, or no NVRTC.
    #[error("no GPU: {0}")]
    NoGpu(String),
    /// A GPU call failed (out of memory, a kernel that does not compile).
    #[error("GPU: {0}")]
    Gpu(String),
    /// An executor was asked for that this build or machine cannot run.
    #[error("executor {executor} is unavailable: {reason}")]
    ExecutorUnavailable {
        /// The executor's config name.
        executor: &'static str,
        /// Why, and what to do instead.
        reason: String,
    },
    /// MPI failed, or the ranks of an `mpi-hda` job disagree.
    #[error("MPI: {0}")]
    Mpi(String),
    /// An executor's parameters are out of range (`threads: 100000`).
    #[error("{0}")]
    BadConfig(String),
    /// An IDA* checkpoint could not be read, parsed or written.
    #[error("checkpoint {0}")]
    Checkpoint(String),
    /// A domain's dual instance gave a solution that does not map back to
    /// the instance (a bug of its `DualOf`).
    #[error("dual search: {0} (bug)")]
    Dual(String),
}
