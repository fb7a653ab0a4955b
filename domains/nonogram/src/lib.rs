//! # frontier-nonogram
//!
//! Nonograms (paint by numbers) for frontier: readers for `.nin` and `.non`,
//! an exact line solver, propagation that re-solves only touched lines,
//! probing, and guess-and-propagate search that finds a solution or up to
//! k of them for a uniqueness verdict.
//!
//! ```
//! use frontier_nonogram::{solve, Puzzle, SolveOptions, Verdict};
//! let puzzle = Puzzle::parse_nin("3 3\n1\n3\n1\n1\n3\n1\n").unwrap(); // a plus sign
//! let outcome = solve(&puzzle, &SolveOptions::default());
//! assert_eq!(outcome.verdict, Verdict::Unique);
//! assert!(puzzle.accepts(&outcome.solutions[0]));
//! ```
#![deny(missing_docs)]

pub mod cdcl;
/// The `frontier` command line's plugin for this domain: `solve` flags,
/// the RON block, and the domain's own subcommands.
#[cfg(feature = "cli")]
pub mod cli;
pub mod domain;
pub mod explain;
/// Fuzz properties of this domain's parsers and codec, on
/// `frontier_core::fuzz`.
pub mod fuzz;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod line;
mod order;
pub mod overlap;
pub mod png;
pub mod portfolio;
pub mod puzzle;
pub mod solver;
pub mod symmetry;

pub use cdcl::solve_cdcl;
pub use domain::{Guess, NonogramSearch};
pub use portfolio::solve_portfolio;
pub use puzzle::Puzzle;
pub use solver::{solve, Grid, SolveOptions, SolveOutcome, SolveStats, Verdict};

/// Everything that can be wrong with nonogram input.
#[derive(Debug, thiserror::Error)]
pub enum NonogramError {
    /// A puzzle file that does not parse; `line` is 1-based (0: the file as a whole).
    #[error("{}{message}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
    Parse {
        /// Where.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The GPU is missing or failed, or the batch does not fit the kernel.
    #[error("{0}")]
    Gpu(String),
    /// A file that cannot be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
