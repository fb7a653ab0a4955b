//! The dual of a sliding-tile instance: the same puzzle searched from the
//! other end, as an ordinary instance with the same board and goal.
//!
//! A path from start `s` to goal `G`, read backwards, goes from `G` to `s`.
//! Relabel the tiles so that `s` reads as the goal and that backward search
//! becomes a forward search of an ordinary instance, with the heuristic,
//! databases and GPU kernels already built for the goal. Its solutions map
//! back to solutions of `s` of the same length. A search ordered by a
//! heuristic meets its errors in another place from that end: near `s`,
//! where the forward search decides first and knows least, the dual search
//! decides last. Beams of millions ranked by the same databases converge on
//! the same routes however wide or however their ties are broken; the dual's
//! route is a different one, so the shorter of the two pays where width no
//! longer does (docs/RESULTS.md, "The dual search").
//!
//! The relabelling needs `s`'s blank on the goal's blank cell (a corner in
//! both conventions). A board symmetry (a flip of rows, of columns, or both)
//! takes any corner there; a blank elsewhere is first walked to its nearest
//! corner, and the `k` moves of that walk are prepended to the dual's path.
//! Loops that the walk makes with the path are cut on the way back.
//!
//! [`Dual`] implements `frontier_core::search::dual::DualOf`, which runs
//! and merges the two searches for `--dual`.

use std::collections::HashMap;

use frontier_core::search::dual::DualOf;
use frontier_core::{Cost, Domain, Solution};

use crate::{Board, Dir, Goal, GoalLayout, TileState, Tiles, TilesError, MAX_CELLS};

/// An instance's dual, and what maps the dual's solutions back.
#[derive(Clone, Debug)]
pub struct Dual {
    puzzle: Tiles,
    /// The blank's walk from the original start to its nearest corner.
    prefix: Vec<Dir>,
    /// The board symmetry taking that corner to the goal's blank cell, as a
    /// cell map (an involution: each flip is its own inverse).
    symmetry: [u8; MAX_CELLS],
}

impl Dual {
    /// The dual of `puzzle`; refused when the goal's blank is off the
    /// board's corners (a goal board of your own), where no flip takes the
    /// start's corner to it.
    pub fn of(puzzle: &Tiles) -> Result<Dual, TilesError> {
        let (prefix, symmetry) = nearest_corner_flip(puzzle)?;
        // The walk moves toward a corner of the board, so it never leaves it.
        let turned = puzzle
            .replay(&prefix)
            .expect("the blank's walk to a corner stays on the board");
        let goal = puzzle.goal_state();
        debug_assert_eq!(symmetry[usize::from(turned.blank)], goal.blank);
        Dual::relabelled(puzzle, &turned, prefix, symmetry, goal, puzzle.goal_kind())
    }

    /// The dual of `puzzle` without the blank's walk: its goal keeps the
    /// blank where the start has it (seen through the flip that takes the
    /// start's nearest corner to the goal's blank cell), and the goal's
    /// tile from that cell on the goal's blank cell: a goal board of its
    /// own ([`Goal::Layout`]) that differs from the usual one by that swap.
    /// Its optimum is the start's (slack 0); its heuristic needs databases
    /// for that goal, of which only the swapped tile's differs.
    pub fn without_walk(puzzle: &Tiles) -> Result<Dual, TilesError> {
        let (_, symmetry) = nearest_corner_flip(puzzle)?;
        let (board, goal, start) = (puzzle.board(), puzzle.goal_state(), puzzle.start());
        // The start seen through the symmetry has its blank on `swapped`.
        let swapped = symmetry[usize::from(start.blank)];
        let mut dual_goal = *goal;
        dual_goal
            .cells
            .swap(usize::from(swapped), usize::from(goal.blank));
        dual_goal.blank = swapped;
        let layout = Goal::Layout(GoalLayout::of(board, &dual_goal));
        Dual::relabelled(puzzle, &start, Vec::new(), symmetry, &dual_goal, layout)
    }

    /// The dual whose goal is `dual_goal` (`kind` names it): `seen`, the
    /// start after `prefix`, seen through `symmetry`, has its blank on
    /// `dual_goal`'s; `label[t]` is `dual_goal`'s tile on the cell where
    /// that view holds tile t, so relabelled, the view is `dual_goal`, and
    /// the dual's start is the goal seen and relabelled the same way.
    fn relabelled(
        puzzle: &Tiles,
        seen: &TileState,
        prefix: Vec<Dir>,
        symmetry: [u8; MAX_CELLS],
        dual_goal: &TileState,
        kind: Goal,
    ) -> Result<Dual, TilesError> {
        let board = puzzle.board();
        let n = board.cells();
        let goal = puzzle.goal_state();
        let mut label = [0u8; MAX_CELLS];
        for (&image, &goal_tile) in symmetry[..n].iter().zip(&dual_goal.cells[..n]) {
            label[usize::from(seen.cells[usize::from(image)])] = goal_tile;
        }
        let tiles: Vec<u8> = (0..n)
            .map(|cell| label[usize::from(goal.cells[usize::from(symmetry[cell])])])
            .collect();
        let dual_start = TileState::from_tiles(board, &tiles)?;
        Ok(Dual {
            puzzle: Tiles::new(board.clone(), dual_start, kind)?,
            prefix,
            symmetry,
        })
    }

    /// The dual instance: same board, goal convention and heuristic.
    pub fn puzzle(&self) -> &Tiles {
        &self.puzzle
    }

    /// Moves the blank makes before the dual's path starts (0 when the
    /// start's blank is in a corner).
    pub fn prefix_len(&self) -> Cost {
        self.prefix.len() as Cost
    }

    /// A solution of the original instance from a solution of the dual:
    /// the blank's walk to its corner, then the dual's path reversed and
    /// mirrored back, with every loop cut (a state visited twice). Its
    /// length is at most the dual's plus [`Dual::prefix_len`]. `None` if
    /// `moves` do not solve the dual.
    pub fn moves_back(&self, original: &Tiles, moves: &[Dir]) -> Option<Vec<Dir>> {
        let board = self.puzzle.board();
        let end = self.puzzle.replay(moves)?;
        if !self.puzzle.is_goal(&end) {
            return None;
        }
        // The blank's cells along the dual's path, start first.
        let mut cells = vec![self.puzzle.start().blank];
        for &dir in moves {
            let at = *cells.last()?;
            cells.push(board.neighbour(at, dir)?);
        }
        let mut path = self.prefix.clone();
        for pair in cells.windows(2).rev() {
            let (from, to) = (
                self.symmetry[usize::from(pair[1])],
                self.symmetry[usize::from(pair[0])],
            );
            path.push(
                Dir::ALL
                    .into_iter()
                    .find(|&d| board.neighbour(from, d) == Some(to))?,
            );
        }
        Some(cut_loops(original, &path))
    }
}

impl DualOf<Tiles> for Dual {
    fn instance(&self) -> &Tiles {
        &self.puzzle
    }

    fn solution_back(
        &self,
        original: &Tiles,
        solution: &Solution<TileState, Dir>,
    ) -> Option<Solution<TileState, Dir>> {
        let moves = self.moves_back(original, &solution.moves)?;
        let mut states = vec![original.start()];
        for &dir in &moves {
            states.push(states[states.len() - 1].slide(original.board(), dir)?);
        }
        original
            .is_goal(&states[states.len() - 1])
            .then_some(Solution {
                cost: moves.len() as Cost,
                states,
                moves,
            })
    }

    /// The walk's moves: the dual's optimum is that of a state that many
    /// moves from the start.
    fn slack(&self) -> Cost {
        self.prefix_len()
    }
}

/// The corner nearest to `blank` (ties: the first in row-major order) and
/// the blank's moves there, rows first.
fn walk_to_nearest_corner(board: &Board, blank: u8) -> (u8, Vec<Dir>) {
    let (r, c) = board.coords(blank);
    let (last_row, last_col) = (board.rows() - 1, board.cols() - 1);
    let to_row = if r <= last_row - r { 0 } else { last_row };
    let to_col = if c <= last_col - c { 0 } else { last_col };
    let mut moves = Vec::new();
    let vertical = if to_row < r { Dir::Up } else { Dir::Down };
    moves.extend(std::iter::repeat_n(
        vertical,
        usize::from(r.abs_diff(to_row)),
    ));
    let horizontal = if to_col < c { Dir::Left } else { Dir::Right };
    moves.extend(std::iter::repeat_n(
        horizontal,
        usize::from(c.abs_diff(to_col)),
    ));
    (to_row * board.cols() + to_col, moves)
}

/// The blank's walk from the start to its nearest corner, and the flip
/// that takes that corner onto the goal's blank cell, both duals' view of
/// the start. Refused where the goal's blank is off the corners, which no
/// flip reaches.
fn nearest_corner_flip(puzzle: &Tiles) -> Result<(Vec<Dir>, [u8; MAX_CELLS]), TilesError> {
    let board = puzzle.board();
    let blank = puzzle.goal_state().blank;
    let (r, c) = board.coords(blank);
    let edge = |x: u8, last: u8| x == 0 || x == last;
    if !(edge(r, board.rows() - 1) && edge(c, board.cols() - 1)) {
        return Err(TilesError::DualNeedsCornerBlank(blank));
    }
    let (corner, walk) = walk_to_nearest_corner(board, puzzle.start().blank);
    Ok((walk, corner_symmetry(board, corner, blank)))
}

/// The flip of rows, columns or both that takes corner `from` to corner
/// `to`, as a cell map.
fn corner_symmetry(board: &Board, from: u8, to: u8) -> [u8; MAX_CELLS] {
    let ((r0, c0), (r1, c1)) = (board.coords(from), board.coords(to));
    let (last_row, last_col) = (board.rows() - 1, board.cols() - 1);
    let mut map = [0u8; MAX_CELLS];
    for (cell, image) in map.iter_mut().enumerate().take(board.cells()) {
        let (r, c) = board.coords(cell as u8);
        let r = if r0 == r1 { r } else { last_row - r };
        let c = if c0 == c1 { c } else { last_col - c };
        *image = r * board.cols() + c;
    }
    map
}

/// `path` from `puzzle`'s start with every loop removed: where a state
/// recurs, the moves between its two visits go. The states that remain
/// are visited in the same order, so the result ends where `path` does.
fn cut_loops(puzzle: &Tiles, path: &[Dir]) -> Vec<Dir> {
    let mut state = puzzle.start();
    let mut kept: Vec<Dir> = Vec::with_capacity(path.len());
    // The state after each kept prefix, by the prefix's length (states
    // compare and hash by their cells alone).
    let mut seen: HashMap<TileState, usize> = HashMap::from([(state, 0)]);
    let mut states = vec![state];
    for &dir in path {
        let Some(next) = state.slide(puzzle.board(), dir) else {
            // Not a path on this board: left for the replay to refuse.
            kept.push(dir);
            continue;
        };
        state = next;
        if let Some(&at) = seen.get(&state) {
            for dropped in &states[at + 1..] {
                seen.remove(dropped);
            }
            kept.truncate(at);
            states.truncate(at + 1);
        } else {
            kept.push(dir);
            seen.insert(state, kept.len());
            states.push(state);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Goal, Manhattan};
    use frontier_core::rng::SplitMix64;
    use frontier_core::{astar, SearchOptions};

    fn random_walk(board: &Board, goal: Goal, steps: usize, rng: &mut SplitMix64) -> Tiles {
        let mut state = TileState::goal(board, goal);
        for _ in 0..steps {
            let dir = Dir::ALL[(rng.next_u64() % 4) as usize];
            if let Some(next) = state.slide(board, dir) {
                state = next;
            }
        }
        state.came_from = None;
        Tiles::new(board.clone(), state, goal).expect("a walk from the goal is solvable")
    }

    fn optimum(puzzle: &Tiles) -> (Cost, Vec<Dir>) {
        let h = Manhattan::new(puzzle.board(), puzzle.goal_kind());
        let outcome = astar(puzzle, &h, &SearchOptions::default()).expect("A* runs");
        let solution = outcome.solution().expect("solvable");
        (solution.cost, solution.moves.clone())
    }

    /// On every shape and three goals: the dual's optimum is the start's
    /// within the blank's walk, equal when the blank is in a corner; the
    /// dual's optimal path maps back to a path that solves the start; the
    /// dual without the walk has the start's optimum on every board.
    #[test]
    fn a_duals_solutions_solve_the_original_within_the_blanks_walk() {
        let mut rng = SplitMix64::new(43);
        let mut cornered = 0;
        for (rows, cols) in [(2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 3)] {
            let board = Board::new(rows, cols).expect("a valid shape");
            // A goal board of one's own with its blank on a corner too.
            let n = usize::from(rows) * usize::from(cols);
            let reversed: Vec<String> = (1..n).rev().chain([0]).map(|t| t.to_string()).collect();
            let layout: Goal = format!("{rows}x{cols}: {}", reversed.join(" "))
                .parse()
                .expect("a goal board");
            for goal in [Goal::Korf, Goal::Standard, layout] {
                for _ in 0..12 {
                    let puzzle = random_walk(&board, goal, 300, &mut rng);
                    let dual = Dual::of(&puzzle).expect("every board has a dual");
                    let k = dual.prefix_len();
                    let (original, _) = optimum(&puzzle);
                    let (dual_cost, dual_moves) = optimum(dual.puzzle());
                    assert!(original <= dual_cost + k && dual_cost <= original + k);
                    if k == 0 {
                        cornered += 1;
                        assert_eq!(original, dual_cost, "{rows}x{cols} {goal:?}");
                    }
                    let back = dual.moves_back(&puzzle, &dual_moves).expect("maps back");
                    let end = puzzle.replay(&back).expect("stays on the board");
                    assert!(puzzle.is_goal(&end));
                    assert!(back.len() as Cost <= dual_cost + k);
                    assert!(back.len() as Cost >= original);
                    assert!(dual_cost.saturating_sub(dual.slack()) <= original);
                    // Without the walk: the same optimum, always.
                    let free = Dual::without_walk(&puzzle).expect("every board has one");
                    assert_eq!(free.slack(), 0);
                    let (free_cost, free_moves) = optimum(free.puzzle());
                    assert_eq!(free_cost, original, "{rows}x{cols} {goal:?}");
                    let back = free.moves_back(&puzzle, &free_moves).expect("maps back");
                    assert_eq!(back.len() as Cost, original);
                    assert!(puzzle.is_goal(&puzzle.replay(&back).expect("on the board")));
                }
            }
        }
        assert!(cornered > 5, "the corner case ran {cornered} times");
    }

    /// A board whose blank sits on the goal's blank cell: its dual is the
    /// inverse permutation, and the dual of the dual is the board again.
    #[test]
    fn the_dual_of_a_cornered_board_is_its_inverse_and_an_involution() {
        let puzzle = Tiles::parse("3 1 2 6 4 5 7 8 0", Goal::Standard).expect("valid");
        let dual = Dual::of(&puzzle).expect("has a dual");
        assert_eq!(dual.prefix_len(), 0);
        let cells = &dual.puzzle().start().cells[..9];
        // Tile t of the start stands on the cell of tile label[t]'s goal.
        assert_eq!(cells, &[2, 3, 1, 5, 6, 4, 7, 8, 0]);
        let again = Dual::of(dual.puzzle()).expect("has a dual");
        assert_eq!(again.puzzle().start().cells, puzzle.start().cells);
    }

    /// A goal board whose blank is off the corners has no dual: no flip
    /// takes the start's corner to its blank cell.
    #[test]
    fn a_goal_with_its_blank_off_the_corners_has_no_dual() {
        let spiral: Goal = "1 2 3 8 0 4 7 6 5".parse().expect("a goal board");
        let puzzle = Tiles::parse("2 8 3 1 6 4 7 0 5", spiral).expect("solvable");
        let refused = Dual::of(&puzzle).expect_err("refused").to_string();
        assert!(refused.contains("on a corner"), "{refused}");
    }

    /// A path that wanders back onto a state it passed loses the loop.
    #[test]
    fn loops_are_cut_and_the_end_kept() {
        let puzzle = Tiles::parse("1 2 3 4 5 6 7 0 8", Goal::Standard).expect("valid");
        use Dir::*;
        // Around a 2x2 block three times (12 moves back to the start), then right.
        let mut path = Vec::new();
        for _ in 0..3 {
            path.extend([Up, Right, Down, Left]);
        }
        path.push(Right);
        assert_eq!(cut_loops(&puzzle, &path), vec![Right]);
        let wander = [Left, Right, Up, Down, Right];
        assert_eq!(cut_loops(&puzzle, &wander), vec![Right]);
    }
}
