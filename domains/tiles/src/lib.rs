//! # frontier-tiles
//!
//! Sliding-tile puzzles (any R×C board up to 49 cells: the 8-, 15- and
//! 24-puzzle) for frontier: the [`Tiles`] domain, Manhattan distance and
//! additive pattern databases (Korf & Felner 2002) with on-disk caching.
//!
//! ```
//! use frontier_core::{astar, SearchOptions};
//! use frontier_tiles::{Goal, Manhattan, Tiles};
//! let puzzle = Tiles::parse("1 2 3 4 5 6 0 7 8", Goal::Standard).unwrap();
//! let h = Manhattan::new(puzzle.board(), Goal::Standard);
//! let outcome = astar(&puzzle, &h, &SearchOptions::default())?;
//! assert_eq!(outcome.solution().unwrap().cost, 2);
//! # Ok::<(), frontier_core::Error>(())
//! ```
#![deny(missing_docs)]

pub mod azh;
pub mod board;
pub mod cache;
/// The `frontier` command line's plugin for this domain: `solve` flags,
/// the RON block, and the domain's own subcommands.
#[cfg(feature = "cli")]
pub mod cli;
pub mod conflicts;
pub mod dual;
/// `frontier tiles fit-rank`: weights for `--rank-weights` fitted on your
/// own boards.
#[cfg(feature = "cli")]
pub mod fit_rank;
/// Fuzz properties of this domain's parsers and codec, on
/// `frontier_core::fuzz`.
pub mod fuzz;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod heuristic;
pub mod linear_rank;
#[cfg(feature = "cli")]
pub mod network_data;
pub mod network_rank;
pub mod pdb;

use std::path::PathBuf;

pub use board::{
    packed_bits, packed_words, parse_instance, solvable, Board, Dir, Goal, GoalLayout, TileState,
    Tiles, MAX_CELLS,
};
pub use dual::Dual;
pub use heuristic::{partition, preset_names, AdditivePdb, Manhattan, TilesHeuristic};
pub use linear_rank::LinearRank;
pub use network_rank::NetworkRank;
pub use pdb::{BuildProgress, Pattern, PatternDb};

/// Everything that can be wrong with a tiles instance or heuristic.
#[derive(Debug, thiserror::Error)]
pub enum TilesError {
    /// Board shape out of range.
    #[error("{rows}x{cols} boards are not supported (2 to 49 cells)")]
    Shape {
        /// Rows asked for.
        rows: u8,
        /// Columns asked for.
        cols: u8,
    },
    /// The `RxC:` prefix did not parse.
    #[error("board shape '{0}' should look like 4x4")]
    ShapeSyntax(String),
    /// Tile count is not a square and no shape was given.
    #[error(
        "{0} tiles is not a square board; prefix the instance with its shape, e.g. '3x4: ...'"
    )]
    NotSquare(usize),
    /// Wrong number of tiles for the shape.
    #[error("expected {expected} tiles, got {got}")]
    Count {
        /// Cells on the board.
        expected: usize,
        /// Numbers given.
        got: usize,
    },
    /// A token is not a number.
    #[error("'{0}' is not a tile number")]
    NotANumber(String),
    /// A tile number is too large.
    #[error("tile {tile} is out of range 0..={max}")]
    OutOfRange {
        /// The tile.
        tile: u8,
        /// Largest valid tile.
        max: usize,
    },
    /// A tile appears twice.
    #[error("tile {tile} appears twice")]
    Duplicate {
        /// The tile.
        tile: u8,
    },
    /// Wrong parity for the goal.
    #[error("unsolvable: the permutation parity cannot reach the {goal:?} goal")]
    Unsolvable {
        /// The goal convention.
        goal: Goal,
    },
    /// A partition spec is malformed.
    #[error("bad partition '{spec}': {reason}; give a preset ({presets}) or disjoint tile lists like 1,2,3/4,5,6, each leaving two cells free; several joined by '|' take the largest", presets = preset_names().join(", "))]
    BadPartition {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A preset was used on the wrong board.
    #[error("preset {preset} is for {side}x{side} boards")]
    PresetShape {
        /// The preset.
        preset: String,
        /// Its board side.
        side: u8,
    },
    /// Reflection needs a square board.
    #[error("the diagonal reflection lookup needs a square board")]
    ReflectNeedsSquare,
    /// Reflection needs a goal that the diagonal maps onto itself.
    #[error("the diagonal reflection lookup needs the goal's blank on the main diagonal (the goal board has it on cell {0})")]
    ReflectNeedsDiagonalBlank(u8),
    /// A goal board given for another shape.
    #[error("the goal board is {goal}, the instance {board}")]
    GoalShape {
        /// The goal board's shape.
        goal: String,
        /// The instance's.
        board: String,
    },
    /// `--dual` flips the start's corner onto the goal's blank cell.
    #[error("--dual needs the goal's blank on a corner of the board (the goal board has it on cell {0})")]
    DualNeedsCornerBlank(u8),
    /// A preset's cells assume one of the two goal conventions.
    #[error("preset {0} is laid out for the korf and standard goals: with a goal board, give the partition as tile lists like 1,2,3/4,5,6")]
    PresetNeedsConvention(String),
    /// A pattern has too many placements to tabulate.
    #[error("a {tiles}-tile pattern has {entries} placements, more than a table may hold")]
    PatternTooLarge {
        /// Tiles in the pattern.
        tiles: usize,
        /// Placements.
        entries: u64,
    },
    /// Reading or writing a database file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// An HDA* partition name the tiles domain does not know.
    #[error("unknown partition '{0}' (use hash, zobrist, split, split-xy, block, rows or cols)")]
    UnknownProjection(String),
    /// Weights of a learned rank that do not fit the heuristic.
    #[error("rank weights: {0}")]
    RankWeights(String),
    /// A learned network rank that cannot be read or does not fit the
    /// heuristic.
    #[error("rank network: {0}")]
    RankNetwork(String),
    /// A broken invariant (a bug, reported rather than panicking).
    #[error("internal error: {0}")]
    Internal(&'static str),
}
