//! Linear conflicts between tiles of different groups, as a term a beam
//! ranks states by ([`frontier_core::Heuristic::rank`]), never a bound.
//!
//! Two tiles conflict when both sit on the row (or column) of their goal
//! cells in the reverse order of their goals: one must leave the line to
//! let the other pass. An additive pattern database counts such moves only
//! between tiles of its own pattern, so conflicts across databases are
//! what the sum cannot see. Adding one per such pair to h makes a beam's
//! layers better ordered (docs/RESULTS.md, "Ranking a beam by conflicts
//! across databases"). The sum is not admissible, which a beam does not
//! need: its lower bound still comes from h alone.

use frontier_core::Cost;

use crate::board::{Board, Goal, TileState, MAX_CELLS};

/// The conflict count of a board shape, goal and grouping of its tiles.
#[derive(Clone, Debug)]
pub struct Conflicts {
    rows: usize,
    cols: usize,
    /// Each tile's goal row and column.
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    /// Each tile's group: only tiles of different groups conflict.
    group: [u8; MAX_CELLS],
}

impl Conflicts {
    /// Conflicts on `board` toward `goal`, between tiles whose entries in
    /// `group_of` (indexed by tile; the blank's is never read, a missing
    /// entry is group 0) differ.
    pub fn new(board: &Board, goal: Goal, group_of: &[u8]) -> Conflicts {
        let cells = board.cells();
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        let mut group = [0u8; MAX_CELLS];
        // Renumbered densely in tile order (at most 48 groups), so that a
        // group fits the GPU's 6 bits whatever numbers the caller used.
        let mut dense: Vec<u8> = Vec::new();
        for tile in 1..cells as u8 {
            let (r, c) = board.coords(goal.cell_of(tile, cells));
            goal_row[usize::from(tile)] = r;
            goal_col[usize::from(tile)] = c;
            let given = group_of.get(usize::from(tile)).copied().unwrap_or(0);
            let at = dense.iter().position(|&g| g == given).unwrap_or_else(|| {
                dense.push(given);
                dense.len() - 1
            });
            // Fewer than MAX_CELLS groups: a group per tile at most.
            group[usize::from(tile)] = at as u8;
        }
        Conflicts {
            rows: usize::from(board.rows()),
            cols: usize::from(board.cols()),
            goal_row,
            goal_col,
            group,
        }
    }

    /// Conflicts between every two tiles: each tile its own group, the
    /// count of the linear-conflict heuristic's pairs (Hansson, Mayer and
    /// Yung 1992), for Manhattan distance.
    pub fn every_pair(board: &Board, goal: Goal) -> Conflicts {
        let tiles: Vec<u8> = (0..board.cells() as u8).collect();
        Conflicts::new(board, goal, &tiles)
    }

    /// The group of each tile (those given to [`Conflicts::new`],
    /// renumbered 0, 1, … in tile order), for the GPU plugin.
    pub fn groups(&self) -> &[u8] {
        &self.group[..self.rows * self.cols]
    }

    /// The conflicting pairs of `state`.
    pub fn count(&self, state: &TileState) -> Cost {
        let rows: Cost = (0..self.rows).map(|row| self.line(state, true, row)).sum();
        let cols: Cost = (0..self.cols).map(|col| self.line(state, false, col)).sum();
        rows + cols
    }

    /// The conflicting pairs of `child`, a successor of `parent` whose
    /// pairs are `parent_pairs`. Only pairs with the moved tile change: it
    /// keeps its order along its line of travel, and the other tiles of
    /// the two lines across it keep theirs. Across, it leaves one line and
    /// enters the other, and its pairs count only on its goal line; so at
    /// most one line is scanned, for its pairs with that tile alone, and
    /// none where neither line is its goal line.
    pub fn count_child(&self, parent: &TileState, parent_pairs: Cost, child: &TileState) -> Cost {
        // The tile moved from the child's blank cell to the parent's.
        let (from, to) = (usize::from(child.blank), usize::from(parent.blank));
        let tile = usize::from(child.cells[to]);
        // A move along a column changes rows across it; along a row, columns.
        let across_rows = from / self.cols != to / self.cols;
        let line_of = |cell: usize| {
            if across_rows {
                cell / self.cols
            } else {
                cell % self.cols
            }
        };
        let (goal_line, _) = self.goal(across_rows, tile);
        let pairs_on = |state: &TileState, line: usize| {
            if line == usize::from(goal_line) {
                self.pairs_with(state, across_rows, tile)
            } else {
                0
            }
        };
        let (lost, gained) = (
            pairs_on(parent, line_of(from)),
            pairs_on(child, line_of(to)),
        );
        // `lost` is part of `parent_pairs`, which counts every pair.
        (parent_pairs + gained).saturating_sub(lost)
    }

    /// Tile `tile`'s goal line (its goal row where `is_row`, else its goal
    /// column) and its place along that line.
    fn goal(&self, is_row: bool, tile: usize) -> (u8, u8) {
        if is_row {
            (self.goal_row[tile], self.goal_col[tile])
        } else {
            (self.goal_col[tile], self.goal_row[tile])
        }
    }

    /// The cells of row (`is_row`) or column `line`, in board order.
    fn cells(&self, is_row: bool, line: usize) -> impl Iterator<Item = usize> {
        let (first, step, len) = if is_row {
            (line * self.cols, 1, self.cols)
        } else {
            (line, self.cols, self.rows)
        };
        (0..len).map(move |i| first + i * step)
    }

    /// The conflicting pairs of `tile` with the other tiles of its goal
    /// row (`is_row`) or goal column.
    fn pairs_with(&self, state: &TileState, is_row: bool, tile: usize) -> Cost {
        let (line, place) = self.goal(is_row, tile);
        let mut before = true;
        let mut pairs = 0;
        for cell in self.cells(is_row, usize::from(line)) {
            let other = usize::from(state.cells[cell]);
            if other == tile {
                before = false;
                continue;
            }
            let (other_line, other_place) = self.goal(is_row, other);
            if other == 0 || other_line != line || self.group[other] == self.group[tile] {
                continue;
            }
            pairs += Cost::from(if before {
                other_place > place
            } else {
                other_place < place
            });
        }
        pairs
    }

    /// The conflicting pairs on row (`is_row`) or column `line`.
    fn line(&self, state: &TileState, is_row: bool, line: usize) -> Cost {
        // A line holds at most every cell of the board.
        let mut along = [(0u8, 0u8); MAX_CELLS];
        let mut k = 0;
        for cell in self.cells(is_row, line) {
            let tile = usize::from(state.cells[cell]);
            let (goal_line, place) = self.goal(is_row, tile);
            if tile != 0 && usize::from(goal_line) == line {
                along[k] = (place, self.group[tile]);
                k += 1;
            }
        }
        inversions(&along[..k])
    }
}

/// Pairs of `line` (goal place along the line, group), in board order,
/// whose goals are in the reverse order and whose groups differ.
fn inversions(line: &[(u8, u8)]) -> Cost {
    let mut pairs = 0;
    for (i, &(goal_a, group_a)) in line.iter().enumerate() {
        for &(goal_b, group_b) in &line[i + 1..] {
            pairs += Cost::from(goal_a > goal_b && group_a != group_b);
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, pair by pair over all tiles.
    fn by_definition(board: &Board, goal: Goal, groups: &[u8], state: &TileState) -> Cost {
        let cells = board.cells();
        let mut pairs = 0;
        for a in 0..cells as u8 {
            for b in 0..cells as u8 {
                let (ta, tb) = (state.cells[usize::from(a)], state.cells[usize::from(b)]);
                if a >= b
                    || ta == 0
                    || tb == 0
                    || groups[usize::from(ta)] == groups[usize::from(tb)]
                {
                    continue;
                }
                let (ra, ca) = board.coords(a);
                let (rb, cb) = board.coords(b);
                let (gra, gca) = board.coords(goal.cell_of(ta, cells));
                let (grb, gcb) = board.coords(goal.cell_of(tb, cells));
                let in_row = ra == rb && gra == ra && grb == rb && ca < cb && gca > gcb;
                let in_col = ca == cb && gca == ca && gcb == cb && ra < rb && gra > grb;
                pairs += Cost::from(in_row || in_col);
            }
        }
        pairs
    }

    #[test]
    fn counts_match_the_definition_on_random_boards() {
        let mut rng = frontier_core::rng::SplitMix64::new(7);
        for (rows, cols) in [(3, 3), (4, 4), (3, 5), (6, 6), (7, 7)] {
            let board = Board::new(rows, cols).unwrap();
            let cells = board.cells();
            for goal in [Goal::Korf, Goal::Standard] {
                // Groups of three consecutive tiles, and every tile alone.
                let threes: Vec<u8> = (0..cells as u8).map(|t| t / 3).collect();
                let alone: Vec<u8> = (0..cells as u8).collect();
                for groups in [&threes, &alone] {
                    let conflicts = Conflicts::new(&board, goal, groups);
                    for _ in 0..200 {
                        let mut tiles: Vec<u8> = (0..cells as u8).collect();
                        for i in (1..cells).rev() {
                            tiles.swap(i, rng.below(i as u64 + 1) as usize);
                        }
                        let state = TileState::from_tiles(&board, &tiles).unwrap();
                        assert_eq!(
                            conflicts.count(&state),
                            by_definition(&board, goal, groups, &state),
                            "{rows}x{cols} {goal:?} {tiles:?}"
                        );
                    }
                }
            }
        }
    }

    /// Along random walks from the goal (whose tiles start on their goal
    /// lines, where the pairs change), on six shapes, both goals, groups
    /// of three tiles and every tile alone.
    #[test]
    fn a_child_counted_from_its_parent_matches_a_count_afresh() {
        let mut rng = frontier_core::rng::SplitMix64::new(11);
        for (rows, cols) in [(3, 3), (4, 4), (3, 5), (6, 6), (7, 7), (2, 24)] {
            let board = Board::new(rows, cols).unwrap();
            let cells = board.cells() as u8;
            let threes: Vec<u8> = (0..cells).map(|t| t / 3).collect();
            let alone: Vec<u8> = (0..cells).collect();
            for goal in [Goal::Korf, Goal::Standard] {
                for groups in [&threes, &alone] {
                    let conflicts = Conflicts::new(&board, goal, groups);
                    let mut state = TileState::goal(&board, goal);
                    let mut pairs = conflicts.count(&state);
                    for step in 0..2000 {
                        let moves: Vec<TileState> = crate::board::Dir::ALL
                            .iter()
                            .filter_map(|&dir| state.slide(&board, dir))
                            .collect();
                        let child = moves[rng.below(moves.len() as u64) as usize];
                        pairs = conflicts.count_child(&state, pairs, &child);
                        assert_eq!(
                            pairs,
                            conflicts.count(&child),
                            "{rows}x{cols} {goal:?} {step}"
                        );
                        state = child;
                    }
                }
            }
        }
    }

    #[test]
    fn the_goal_has_none_and_a_swapped_pair_on_its_row_has_one() {
        let board = Board::new(3, 3).unwrap();
        let every = Conflicts::every_pair(&board, Goal::Standard);
        let goal = TileState::goal(&board, Goal::Standard);
        assert_eq!(every.count(&goal), 0);
        let swapped = TileState::from_tiles(&board, &[2, 1, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(every.count(&swapped), 1);
        // Tiles 1 and 2 in one group: their conflict is the group's own.
        let together = Conflicts::new(&board, Goal::Standard, &[0, 1, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(together.count(&swapped), 0);
        // Group numbers 64 apart stay apart once renumbered for the GPU's
        // 6 bits.
        let far = Conflicts::new(&board, Goal::Standard, &[0, 200, 136, 72, 8, 9, 10, 11, 12]);
        assert_eq!(far.count(&swapped), 1);
        assert!(far.groups().iter().all(|&g| g < 9), "{:?}", far.groups());
    }
}
