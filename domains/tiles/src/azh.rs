//! Work distribution for HDA*: tiles as Zobrist features, and the abstract
//! projections used with Abstract Zobrist Hashing.
//!
//! Features are the tiles (the blank is implied by the others); a tile's
//! value is its cell. A projection maps cells to groups; a move changes the
//! owner only when the moved tile crosses a group boundary:
//!
//! | name | a tile's abstract value | share of moves that cross (4×4) |
//! |---|---|---|
//! | `zobrist` | its cell (plain Zobrist hashing) | all |
//! | `split` | the half of the board it is in (top rows / bottom rows) | 1/6 |
//! | `split-xy` | odd tiles: top or bottom half; even tiles: left or right half | 1/6 |
//! | `block` | its 2×2 block | 1/3 |
//! | `rows` | its row | 1/2 (vertical moves) |
//! | `cols` | its column | 1/2 (horizontal moves) |
//!
//! Fewer crossings mean less communication; coarser groups mean fewer
//! distinct abstract states and so a risk of uneven load, which the tiles'
//! many independent features keep small.

use frontier_core::zobrist::{AbstractZobrist, Features};

use crate::board::{Board, TileState, Tiles};
use crate::TilesError;

impl Features for Tiles {
    fn feature_space(&self) -> (usize, usize) {
        (self.board().cells(), self.board().cells())
    }

    #[inline]
    fn for_each_feature(&self, state: &TileState, mut visit: impl FnMut(usize, usize)) {
        for (cell, &tile) in state.cells[..self.board().cells()].iter().enumerate() {
            if tile != 0 {
                visit(usize::from(tile), cell);
            }
        }
    }
}

/// Names of the projections.
pub const PROJECTIONS: [&str; 6] = ["zobrist", "split", "split-xy", "block", "rows", "cols"];

/// The Abstract Zobrist table of a named projection on `board`.
pub fn projection(name: &str, board: &Board, seed: u64) -> Result<AbstractZobrist, TilesError> {
    let (rows, cols) = (usize::from(board.rows()), usize::from(board.cols()));
    let n = board.cells();
    if name == "split-xy" {
        // Two independent cuts spread the search over more abstract states
        // than one, at the same share of boundary-crossing moves.
        return Ok(AbstractZobrist::new(n, n, seed, |tile, cell| {
            let (r, c) = (cell / cols, cell % cols);
            Some(if tile % 2 == 1 {
                usize::from(r >= rows.div_ceil(2))
            } else {
                usize::from(c >= cols.div_ceil(2))
            })
        }));
    }
    let group: fn(usize, usize, usize, usize) -> usize = match name {
        "zobrist" => |r, c, _, cols| r * cols + c,
        "split" => |r, _, rows, _| usize::from(r >= rows.div_ceil(2)),
        "block" => |r, c, _, cols| (r / 2) * cols.div_ceil(2) + c / 2,
        "rows" => |r, _, _, _| r,
        "cols" => |_, c, _, _| c,
        _ => return Err(TilesError::UnknownProjection(name.to_string())),
    };
    Ok(AbstractZobrist::new(n, n, seed, |_tile, cell| {
        Some(group(cell / cols, cell % cols, rows, cols))
    }))
}
