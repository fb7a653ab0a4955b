//! # frontier-wordle
//!
//! Wordle for frontier: word lists, the exact feedback rule as a base-3 code,
//! a guess × answer feedback table built on all cores, best next guesses by
//! expected information (entropy) or expected remaining candidates, and a
//! simulator of the greedy policy.
//!
//! ```
//! use frontier_wordle::{feedback, pattern, Word};
//! let guess: Word = "speed".parse().unwrap();
//! let answer: Word = "abide".parse().unwrap();
//! // s p e e d vs abide: only one e is yellow (abide has one e), d is yellow.
//! assert_eq!(pattern(feedback(guess, answer)), "..y.y");
//! ```
#![deny(missing_docs)]

/// The `frontier` command line's plugin for this domain: `solve` flags,
/// the RON block, and the domain's own subcommands.
#[cfg(feature = "cli")]
pub mod cli;
pub mod decision;
/// Fuzz properties of this domain's parsers and codec, on
/// `frontier_core::fuzz`.
pub mod fuzz;
pub mod game;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod verify;
pub mod words;

pub use decision::{HardRule, HardState, HardWordleTree, Revealed, Shape, WordleTree};
pub use game::{
    best_guesses, feedback, filter, hard_mode_allows, parse_pattern, pattern, simulate,
    FeedbackTable, Rank, Score, Simulation, ALL_GREEN,
};
pub use words::{read_words, Word, WordList};

/// Everything that can be wrong with Wordle input.
#[derive(Debug, thiserror::Error)]
pub enum WordleError {
    /// A file that cannot be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A list with no five-letter word.
    #[error("{}: no five-letter words ({skipped} lines skipped)", path.display())]
    Empty {
        /// The file.
        path: std::path::PathBuf,
        /// Lines that were not words.
        skipped: usize,
    },
    /// A word that is not five letters a–z.
    #[error("'{0}' is not a five-letter word (a-z)")]
    Word(String),
    /// A feedback pattern that does not parse.
    #[error("feedback '{0}' should be five of: g (green), y (yellow), grey as . - b or x")]
    Pattern(String),
    /// A guess that is not in the guess list, or feedback no answer fits.
    #[error("{0}")]
    Game(String),
}
