//! The quick line solver: the leftmost and the rightmost placement of a
//! line's runs consistent with its known cells, and what they agree on.
//!
//! Every placement puts each run at or right of its leftmost start and at
//! or left of its rightmost one, so a cell that a run covers in both is
//! filled, and a cell that no run can reach between them is empty. That
//! is sound but not complete (the exact solver in `line` finds every
//! deduction); what it buys is cost: one scan of the line against the
//! exact solver's passes per run over the whole line. On the long lines of
//! huge puzzles, where propagation re-solves each line several times while
//! its crossing lines fill in, propagation solves quickly first and
//! exactly once the quick solves run dry (`LineQueue`).

use crate::line::{Contradiction, EMPTY, FILLED, UNKNOWN};

/// Reused buffers of the quick solver.
#[derive(Default)]
pub struct OverlapSolver {
    runs: Vec<usize>,
    reversed_runs: Vec<usize>,
    reversed_cells: Vec<u8>,
    left: Vec<usize>,
    right: Vec<usize>,
    froms: Vec<usize>,
    next_empty: Vec<usize>,
    next_filled: Vec<usize>,
    /// `failed[j * (n + 2) + from] == stamp`: runs `j..` have no place
    /// from cell `from` on, in this placement's search (a stamp per search
    /// spares clearing the table).
    failed: Vec<u32>,
    stamp: u32,
}

/// Steps (run placements and retreats) a placement may take, per cell of
/// the line, before the quick solver gives up and leaves the line to the
/// exact one: a line of known cells that forces long retreats is rare and
/// the exact solver's cost does not depend on it.
const STEPS_PER_CELL: usize = 16;

impl OverlapSolver {
    /// Fixes in `cells` what the leftmost and rightmost placements of
    /// `clue`'s runs agree on. `Ok(Some(changed))`; `Ok(None)` where it
    /// gave up (a step budget proportional to the line), having changed nothing;
    /// `Err(Contradiction)` where no placement exists.
    pub fn solve(&mut self, clue: &[u32], cells: &mut [u8]) -> Result<Option<bool>, Contradiction> {
        let n = cells.len();
        self.runs.clear();
        self.runs
            .extend(clue.iter().filter(|&&r| r > 0).map(|&r| r as usize));
        let mut left = std::mem::take(&mut self.left);
        let mut right = std::mem::take(&mut self.right);
        let found = self.leftmost(cells, false, &mut left).and_then(|found| {
            if !found {
                return Some(false);
            }
            self.reversed_cells.clear();
            self.reversed_cells.extend(cells.iter().rev());
            self.reversed_runs.clear();
            self.reversed_runs.extend(self.runs.iter().rev());
            let reversed = std::mem::take(&mut self.reversed_cells);
            let found = self.leftmost(&reversed, true, &mut right);
            self.reversed_cells = reversed;
            found
        });
        let outcome = match found {
            None => Ok(None),
            Some(false) => Err(Contradiction),
            Some(true) => {
                // Rightmost starts, from the reversed line's leftmost ends.
                for (start, &r) in right.iter_mut().zip(&self.reversed_runs) {
                    *start = n - *start - r;
                }
                right.reverse();
                Ok(Some(self.settle(cells, &left, &right)))
            }
        };
        self.left = left;
        self.right = right;
        outcome
    }

    /// Writes the overlap of the placements `left` and `right` into
    /// `cells`; returns whether a cell changed.
    fn settle(&self, cells: &mut [u8], left: &[usize], right: &[usize]) -> bool {
        let mut changed = false;
        let mut set = |cells: &mut [u8], range: std::ops::Range<usize>, value: u8| {
            for cell in &mut cells[range] {
                if *cell == UNKNOWN {
                    *cell = value;
                    changed = true;
                }
            }
        };
        // Before each run's leftmost start and after the previous run's
        // rightmost end, no run can reach.
        let mut reach_end = 0;
        for (j, &r) in self.runs.iter().enumerate() {
            if left[j] > reach_end {
                set(cells, reach_end..left[j], EMPTY);
            }
            if right[j] < left[j] + r {
                set(cells, right[j]..left[j] + r, FILLED);
            }
            reach_end = reach_end.max(right[j] + r);
        }
        let n = cells.len();
        set(cells, reach_end.min(n)..n, EMPTY);
        changed
    }

    /// The leftmost placement of the runs (reversed when `reversed`) on
    /// `cells`, as run starts in `starts`: `Some(true)`; `Some(false)`
    /// where none exists; `None` past the step budget.
    fn leftmost(&mut self, cells: &[u8], reversed: bool, starts: &mut Vec<usize>) -> Option<bool> {
        let runs = if reversed {
            &self.reversed_runs
        } else {
            &self.runs
        };
        let n = cells.len();
        let k = runs.len();
        // next_empty[i] / next_filled[i]: the first such cell at or after i
        // (n where there is none), for i up to n + 1.
        self.next_empty.clear();
        self.next_empty.resize(n + 2, n);
        self.next_filled.clear();
        self.next_filled.resize(n + 2, n);
        for i in (0..n).rev() {
            self.next_empty[i] = if cells[i] == EMPTY {
                i
            } else {
                self.next_empty[i + 1]
            };
            self.next_filled[i] = if cells[i] == FILLED {
                i
            } else {
                self.next_filled[i + 1]
            };
        }
        let stride = n + 2;
        if self.failed.len() < (k + 1) * stride {
            self.failed.resize((k + 1) * stride, 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.failed.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        starts.clear();
        starts.resize(k, 0);
        self.froms.clear();
        self.froms.resize(k, 0);
        let (mut j, mut from, mut lo) = (0, 0, 0);
        let mut steps_left = STEPS_PER_CELL * (n + k) + 16;
        loop {
            steps_left = steps_left.checked_sub(1)?;
            if j == k {
                // Every run placed: a filled cell after the last is left
                // uncovered, and the last run must move right to cover it.
                let uncovered = self.next_filled[from.min(n + 1)];
                if uncovered >= n {
                    return Some(true);
                }
                self.failed[k * stride + from.min(n + 1)] = stamp;
                if k == 0 {
                    return Some(false);
                }
                // Only a start that reaches the uncovered cell helps.
                j = k - 1;
                lo = (starts[j] + 1).max((uncovered + 1).saturating_sub(runs[j]));
                from = self.froms[j];
                continue;
            }
            let r = runs[j];
            // A run may not start past a filled cell it would leave
            // uncovered behind it.
            let last = self.next_filled[from.min(n + 1)].min(n.saturating_sub(r));
            let mut s = lo;
            let mut placed = None;
            while s <= last && r <= n {
                let blocked = self.next_empty[s];
                if blocked < s + r {
                    s = blocked + 1;
                } else if (s + r < n && cells[s + r] == FILLED)
                    || self.failed[(j + 1) * stride + (s + r + 1).min(n + 1)] == stamp
                {
                    // Next to a filled cell, or where the later runs are
                    // known to find no place.
                    s += 1;
                } else {
                    placed = Some(s);
                    break;
                }
                steps_left = steps_left.checked_sub(1)?;
            }
            match placed {
                Some(s) => {
                    starts[j] = s;
                    self.froms[j] = from;
                    from = s + r + 1;
                    lo = from;
                    j += 1;
                }
                None if j == 0 => return Some(false),
                None => {
                    self.failed[j * stride + from.min(n + 1)] = stamp;
                    j -= 1;
                    lo = starts[j] + 1;
                    from = self.froms[j];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::LineSolver;

    /// On random lines, the quick solver's deductions are a part of the
    /// exact solver's, it finds a contradiction only where the exact one
    /// does, and on a line with no known cells it finds what the exact one
    /// finds (the overlap is complete there).
    #[test]
    fn deduces_a_part_of_what_the_exact_solver_deduces() {
        let mut rng = frontier_core::rng::SplitMix64::new(23);
        let (mut contradictions, mut deductions, mut gave_up) = (0, 0, 0);
        for round in 0..20_000 {
            let n = 1 + rng.below(if round % 10 == 0 { 300 } else { 24 }) as usize;
            let density = 1 + rng.below(9);
            let truth: Vec<bool> = (0..n).map(|_| rng.below(10) < density).collect();
            let line = crate::Puzzle::from_grid(n, 1, &truth).expect("a one-row grid");
            let mut clue = line.rows[0].clone();
            if round % 7 == 3 && !clue.is_empty() {
                // Another clue, often without a placement on these cells.
                let j = rng.below(clue.len() as u64) as usize;
                clue[j] += 1;
            }
            let known = rng.below(4);
            let cells: Vec<u8> = truth
                .iter()
                .map(|&filled| match (rng.below(4) < known, filled) {
                    (false, _) => UNKNOWN,
                    (true, true) => FILLED,
                    (true, false) => EMPTY,
                })
                .collect();
            let mut exact = cells.clone();
            let exact_outcome = LineSolver::default().solve(&clue, &mut exact);
            let mut quick = cells.clone();
            let what = format!("clue {clue:?}, cells {cells:?}");
            match OverlapSolver::default().solve(&clue, &mut quick) {
                Err(Contradiction) => {
                    assert!(exact_outcome.is_err(), "{what}: a false contradiction");
                    contradictions += 1;
                }
                Ok(None) => {
                    assert_eq!(quick, cells, "{what}: gave up but changed cells");
                    gave_up += 1;
                }
                Ok(Some(changed)) => {
                    assert_eq!(changed, quick != cells, "{what}");
                    if exact_outcome.is_ok() {
                        for i in 0..n {
                            if quick[i] != cells[i] {
                                assert_eq!(quick[i], exact[i], "{what}: cell {i}");
                                deductions += 1;
                            }
                        }
                        if known == 0 {
                            assert_eq!(quick, exact, "{what}: an empty line");
                        }
                    }
                }
            }
        }
        assert!(
            contradictions > 500 && deductions > 10_000,
            "{contradictions} {deductions}"
        );
        // It gives up only on long lines with most cells known (a tenth of
        // the rounds here have up to 300 cells, three quarters known).
        assert!(gave_up < 200, "gave up {gave_up} times");
    }

    #[test]
    fn finds_the_extreme_placements() {
        // Runs 2 and 1 on 7 cells with cell 5 filled: the leftmost
        // placement retreats to put the 1 on cell 5 (0-1, 5), and the
        // rightmost cannot put it on 6, which would need the 2 on 4-5
        // (2-3, 5): cells 4 and 6 are empty, cells 0-3 still open.
        let mut cells = vec![UNKNOWN; 7];
        cells[5] = FILLED;
        let outcome = OverlapSolver::default().solve(&[2, 1], &mut cells);
        assert_eq!(outcome, Ok(Some(true)));
        let (u, f, e) = (UNKNOWN, FILLED, EMPTY);
        assert_eq!(cells, [u, u, u, u, e, f, e]);
        // A line full but for one cell: all fixed.
        let mut cells = vec![UNKNOWN; 5];
        let outcome = OverlapSolver::default().solve(&[2, 2], &mut cells);
        assert_eq!(outcome, Ok(Some(true)));
        assert_eq!(cells, [FILLED, FILLED, EMPTY, FILLED, FILLED]);
        // No runs: all empty; a filled cell then contradicts.
        let mut cells = vec![UNKNOWN, FILLED, UNKNOWN];
        assert_eq!(
            OverlapSolver::default().solve(&[0], &mut cells),
            Err(Contradiction)
        );
    }
}
