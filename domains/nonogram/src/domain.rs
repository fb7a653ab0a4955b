//! Guess-and-propagate search as a frontier [`Domain`], so every executor
//! runs it: a state is a grid after propagation (and probing), children
//! are the two values of the cell the probe ranked best, goals are
//! complete grids (the line solver has checked every line).
//!
//! Each guess costs 1, so A* with the blind heuristic finds the solution
//! reachable with the fewest guesses, HDA* spreads the same search over
//! threads, and [`walk`](fn@frontier_core::walk) enumerates solutions depth-first
//! (up to k, for a uniqueness verdict). The two children of a state fix one
//! cell to different values, so no grid is reached twice.

use frontier_core::{CodecError, Domain, Edge, PackedState, SearchOptions, Visit, WalkEnd};

use std::time::Instant;

use crate::line::{EMPTY, FILLED, UNKNOWN};
use crate::puzzle::Puzzle;
use crate::solver::{Cutoff, Grid, Verdict};

/// The search space of one puzzle.
pub struct NonogramSearch<'p> {
    puzzle: &'p Puzzle,
    /// Probe every state before guessing (slower per state, far fewer states).
    pub probing: bool,
    start: Option<Vec<u8>>,
    /// When probing stops: a probe of a large grid can take seconds, longer
    /// than a search's time limit, and the executors check their limits
    /// only between expansions.
    cutoff: Cutoff<'static>,
}

/// A guess: the cell (row-major index) and the value tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// Row-major cell index.
    pub cell: usize,
    /// Filled or not.
    pub filled: bool,
}

impl<'p> NonogramSearch<'p> {
    /// The search for `puzzle`. The start state is the line-solved (and,
    /// with probing, probed) grid; `None` inside means the clues contradict.
    pub fn new(puzzle: &'p Puzzle, probing: bool) -> NonogramSearch<'p> {
        NonogramSearch::until(puzzle, probing, None)
    }

    /// [`NonogramSearch::new`] whose probes stop at `deadline`: the start
    /// state's and every expansion's. A probe cut short keeps what it fixed
    /// (each fix follows from the clues) and guesses a cell of its own, so
    /// every state still has both its children and no solution is lost;
    /// past the deadline the search only guesses, until its executor's
    /// limit stops it.
    pub fn until(
        puzzle: &'p Puzzle,
        probing: bool,
        deadline: Option<Instant>,
    ) -> NonogramSearch<'p> {
        let cutoff = Cutoff::at(deadline);
        let mut grid = Grid::new(puzzle);
        let ok = grid.propagate().is_ok() && (!probing || grid.probe(cutoff).is_ok());
        NonogramSearch {
            puzzle,
            probing,
            start: ok.then_some(grid.cells),
            cutoff,
        }
    }

    /// Whether the clues contradict already without guessing.
    pub fn contradicts(&self) -> bool {
        self.start.is_none()
    }

    /// Enumerates up to `k` solutions depth-first with the framework's walk;
    /// returns them, the verdict and the states expanded.
    pub fn solutions(&self, k: usize, options: &SearchOptions) -> (Vec<Vec<bool>>, Verdict, u64) {
        if self.contradicts() {
            return (Vec::new(), Verdict::None, 0);
        }
        let mut found = Vec::new();
        let (end, stats) = frontier_core::walk(self, options, |state: &Vec<u8>, _| {
            if self.is_goal(state) {
                found.push(state.iter().map(|&c| c == FILLED).collect());
                if found.len() >= k {
                    return Visit::Stop;
                }
            }
            Visit::Descend
        });
        let cut_short = matches!(end, WalkEnd::LimitReached(_));
        let verdict = Verdict::judge(found.len(), k, cut_short);
        (found, verdict, stats.expanded)
    }
}

impl Domain for NonogramSearch<'_> {
    type State = Vec<u8>;
    type Move = Guess;

    fn start(&self) -> Vec<u8> {
        // A contradicting puzzle starts from an empty grid whose expansion
        // yields nothing (see `expand`), so executors report no solution.
        self.start
            .clone()
            .unwrap_or_else(|| vec![0; self.puzzle.width * self.puzzle.height])
    }

    fn expand(&self, state: &Vec<u8>, out: &mut Vec<Edge<Vec<u8>, Guess>>) {
        if self.start.is_none() {
            return;
        }
        let mut grid = Grid::with_cells(self.puzzle, state);
        if grid.unknown() == 0 {
            return;
        }
        let (cell, first) = if self.probing {
            match grid.probe(self.cutoff) {
                Ok(Some(guess)) => guess,
                _ => return,
            }
        } else {
            (grid.fallback_guess(), FILLED)
        };
        let base = grid.mark();
        for value in [first, if first == FILLED { EMPTY } else { FILLED }] {
            grid.assign(cell, value);
            let consistent = grid.propagate().is_ok()
                && (!self.probing || grid.unknown() == 0 || grid.probe(self.cutoff).is_ok());
            if consistent {
                out.push(Edge {
                    state: grid.cells.clone(),
                    mv: Guess {
                        cell,
                        filled: value == FILLED,
                    },
                    cost: 1,
                });
            }
            grid.undo_to(base);
        }
    }

    fn is_goal(&self, state: &Vec<u8>) -> bool {
        self.start.is_some() && !state.contains(&0)
    }
}

/// A grid packs into 2 bits a cell (unknown, filled, empty), 16 cells a
/// word: search states travel between the processes of `mpi-hda`.
impl PackedState for NonogramSearch<'_> {
    fn packed_words(&self) -> usize {
        (self.puzzle.width * self.puzzle.height).div_ceil(16).max(1)
    }

    fn pack(&self, state: &Vec<u8>, out: &mut [u32]) {
        out.fill(0);
        for (i, &cell) in state.iter().enumerate() {
            out[i / 16] |= u32::from(cell & 3) << (2 * (i % 16));
        }
    }

    fn unpack(&self, words: &[u32]) -> Result<Vec<u8>, CodecError> {
        let expected = self.packed_words();
        if words.len() != expected {
            return Err(CodecError::Length {
                expected,
                got: words.len(),
            });
        }
        let cells = self.puzzle.width * self.puzzle.height;
        let mut state = Vec::with_capacity(cells);
        for i in 0..expected * 16 {
            let value = ((words[i / 16] >> (2 * (i % 16))) & 3) as u8;
            if i >= cells {
                if value != 0 {
                    return Err(CodecError::Invalid("bits set past the last cell".into()));
                }
                continue;
            }
            if ![UNKNOWN, FILLED, EMPTY].contains(&value) {
                return Err(CodecError::Invalid(format!("cell {i} holds {value}")));
            }
            state.push(value);
        }
        Ok(state)
    }
}
