//! # frontier-boggle
//!
//! Boggle for frontier: every word on a board of any R×C shape, scored on
//! the CPU (one board, or many on all cores) and on the GPU, a search for
//! high-scoring boards by simulated annealing, and proofs that no board of
//! a shape scores more (branch and bound over board classes).
//!
//! ```
//! use frontier_boggle::{Board, Scorer, Trie, WordList};
//! let list = WordList::parse(b"tea\nteas\neat\neats\nseat\nquest\nqi\n");
//! assert_eq!(list.words.len(), 6); // "qi": q without u
//! let trie = Trie::build(&list);
//! let board = Board::parse("teas", None).unwrap(); // a 2x2 board
//! assert_eq!(Scorer::new(&trie).score(&board), 5); // tea teas eat eats seat
//! ```
#![deny(missing_docs)]

pub mod anneal;
pub mod batch;
pub mod board;
pub mod certificate;
/// The `frontier` command line's plugin for this domain: `solve` flags,
/// the RON block, and the domain's own subcommands.
#[cfg(feature = "cli")]
pub mod cli;
pub mod dict;
/// Fuzz properties of this domain's parsers and codec, on
/// `frontier_core::fuzz`.
pub mod fuzz;
#[cfg(feature = "gpu")]
pub mod gpu;
#[cfg(feature = "gpu")]
pub mod gpu_build;
#[cfg(feature = "gpu")]
pub mod gpu_prove;
mod handover;
mod header;
mod ledger;
pub mod orderly;
pub mod prove;
pub mod results;
pub mod solve;
pub mod trie;

use std::path::PathBuf;

pub use anneal::{anneal, AnnealConfig, AnnealResult};
pub use batch::{random_boards, score_batch};
pub use board::{Board, Letters, Shape};
pub use dict::WordList;
pub use prove::{prove, BoardClass, Bounder, Buckets, Proof, ProofSettings};
pub use solve::{find_words, Found, Scorer, WordPaths};
pub use trie::Trie;

/// Everything that can go wrong with Boggle input.
#[derive(Debug, thiserror::Error)]
pub enum BoggleError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A word list with no usable word.
    #[error("{}: no usable words ({summary})", path.display())]
    EmptyDictionary {
        /// The file.
        path: PathBuf,
        /// What was skipped.
        summary: String,
    },
    /// A board that cannot be read.
    #[error("board '{board}': {message}")]
    Board {
        /// The board as given.
        board: String,
        /// What is wrong.
        message: String,
    },
    /// Bad settings (annealing, batch sizes).
    #[error("{0}")]
    Config(String),
    /// A tree larger than the GPU's kernels can address (their offsets
    /// are 32-bit). Its class continues on the host, and the GPU keeps
    /// working on the other classes.
    #[error("{0}")]
    TooLargeForGpu(String),
    /// The GPU failed or is missing.
    #[error(transparent)]
    Core(#[from] frontier_core::Error),
}
