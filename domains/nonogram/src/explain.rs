//! Explanations of long lines' deductions as cuts of the line's automaton.
//!
//! A line with clue `b₁ … b_k` is the regular language
//! `0* 1^b₁ 0+ 1^b₂ … 0+ 1^b_k 0*`. Its automaton has one state per gap
//! (`g₀ … g_k`) and one per filled cell of each run, laid out as the bits
//! `g₀, (1,1) … (1,b₁), g₁, (2,1) …, g_k`, so that every transition moves a
//! state to itself or to the next bit: a layer of states steps in a few
//! word operations per 64 states.
//!
//! When the known cells of a line admit no placement, an explanation is a
//! cut through the layers of the automaton: going back from the last
//! layer, the states that must stay unreachable, and at each cell the known
//! value that blocks a transition into them from a reachable state. A known
//! cell joins the explanation only when no unreachable state can block
//! that transition instead. It costs one pass forwards and one back, where
//! shrinking the known cells greedily asks the line solver once per kept
//! cell: on lines of hundreds of cells the conflict-driven search could not
//! afford that, and learned whole lines instead.

use crate::line::{EMPTY, FILLED};

/// A line's automaton as bit sets over its states, with the buffers of
/// its passes; one per search, rebuilt for each explanation.
#[derive(Default)]
pub struct LineCut {
    /// 64-bit words per set of states.
    words: usize,
    /// States with a transition on a filled cell (to the next bit).
    on_fill: Vec<u64>,
    /// Gap states, which stay on an empty cell.
    gaps: Vec<u64>,
    /// Last states of runs, which go on to the next gap on an empty cell.
    run_ends: Vec<u64>,
    /// States that end a placement.
    accepting: Vec<u64>,
    /// Layer `i` (words `i * words..`): the states reachable after the
    /// first `i` cells read.
    reachable: Vec<u64>,
    blocked: Vec<u64>,
    before: Vec<u64>,
    from_fill: Vec<u64>,
    from_empty: Vec<u64>,
}

impl LineCut {
    /// Builds the automaton of `clue` for a line of `n` cells; false (and
    /// nothing built) when its runs cannot fit the line together.
    fn build(&mut self, clue: &[u32], n: usize) -> bool {
        let runs = clue.iter().filter(|&&b| b > 0);
        // Each run and the gap after it, the last gap beyond the line.
        let least = runs.clone().map(|&b| u64::from(b) + 1).sum::<u64>();
        if least > n as u64 + 1 {
            return false;
        }
        let states = least as usize + 1;
        let words = states.div_ceil(64);
        self.words = words;
        for set in [&mut self.gaps, &mut self.run_ends, &mut self.on_fill] {
            set.clear();
            set.resize(words, 0);
        }
        let set_bit = |set: &mut Vec<u64>, at: usize| set[at / 64] |= 1 << (at % 64);
        set_bit(&mut self.gaps, 0);
        let mut at = 0;
        let mut mark = |b: u32| {
            at += b as usize;
            set_bit(&mut self.run_ends, at);
            at += 1;
            set_bit(&mut self.gaps, at);
        };
        runs.for_each(|&b| mark(b));
        // Every state but the run ends and the last gap steps on a fill.
        for state in 0..at {
            if self.run_ends[state / 64] >> (state % 64) & 1 == 0 {
                set_bit(&mut self.on_fill, state);
            }
        }
        self.accepting.clear();
        self.accepting.resize(words, 0);
        set_bit(&mut self.accepting, at);
        if at > 0 {
            set_bit(&mut self.accepting, at - 1);
        }
        true
    }

    /// The known cells of a line that leave it no placement, pushed into
    /// `kept` as positions in the line; false (and nothing pushed) when the
    /// line has a placement.
    ///
    /// `cells` are the line's cells as far as the explanation may use them
    /// (FILLED, EMPTY or UNKNOWN); `imposed` is a cell taken to hold a value
    /// at no cost, as an implied cell is explained by imposing its other
    /// value. Runs too long for the line together need no cell: the
    /// explanation is empty.
    pub fn explain(
        &mut self,
        clue: &[u32],
        cells: &[u8],
        imposed: Option<(usize, u8)>,
        kept: &mut Vec<usize>,
    ) -> bool {
        if !self.build(clue, cells.len()) {
            // The runs do not fit the line whatever its cells.
            return true;
        }
        let (n, words) = (cells.len(), self.words);
        let value = |i: usize| match imposed {
            Some((cell, v)) if cell == i => v,
            _ => cells[i],
        };
        self.reachable.clear();
        self.reachable.resize((n + 1) * words, 0);
        self.reachable[0] = 1;
        for i in 0..n {
            let v = value(i);
            let (may_fill, may_empty) = (v != EMPTY, v != FILLED);
            let (mut carry_fill, mut carry_end) = (0, 0);
            for w in 0..words {
                let from = self.reachable[i * words + w];
                let (fill, end) = (from & self.on_fill[w], from & self.run_ends[w]);
                let mut to = 0;
                if may_fill {
                    to |= fill << 1 | carry_fill;
                }
                if may_empty {
                    to |= (from & self.gaps[w]) | end << 1 | carry_end;
                }
                (carry_fill, carry_end) = (fill >> 63, end >> 63);
                self.reachable[(i + 1) * words + w] = to;
            }
        }
        let last = &self.reachable[n * words..];
        if last.iter().zip(&self.accepting).any(|(r, a)| r & a != 0) {
            return false;
        }
        // States after the cell read that must stay unreachable (none is).
        self.blocked.clone_from(&self.accepting);
        for set in [&mut self.before, &mut self.from_fill, &mut self.from_empty] {
            set.clear();
            set.resize(words, 0);
        }
        for i in (0..n).rev() {
            if self.blocked.iter().all(|&b| b == 0) {
                break;
            }
            let v = value(i);
            let reachable = &self.reachable[i * words..(i + 1) * words];
            // Transitions into blocked states on a fill and on an empty
            // cell, from states before this cell.
            let (mut fill_from_reachable, mut empty_from_reachable) = (false, false);
            let mut carry = 0;
            for w in (0..words).rev() {
                let blocked = self.blocked[w];
                let shifted = blocked >> 1 | carry << 63;
                carry = blocked & 1;
                self.from_fill[w] = shifted & self.on_fill[w];
                self.from_empty[w] = (blocked & self.gaps[w]) | (shifted & self.run_ends[w]);
                fill_from_reachable |= self.from_fill[w] & reachable[w] != 0;
                empty_from_reachable |= self.from_empty[w] & reachable[w] != 0;
            }
            // A transition from a reachable state must be blocked by the
            // cell's value, which joins the explanation (unless imposed);
            // a value not needed so stays out, and the states behind the
            // transitions it blocks must be unreachable instead.
            let imposed_here = imposed.is_some_and(|(cell, _)| cell == i);
            let needed =
                (v == EMPTY && fill_from_reachable) || (v == FILLED && empty_from_reachable);
            if needed && !imposed_here {
                kept.push(i);
            }
            let blocks = needed || imposed_here;
            let (block_fill, block_empty) = (blocks && v == EMPTY, blocks && v == FILLED);
            for w in 0..words {
                self.before[w] = if block_fill { 0 } else { self.from_fill[w] }
                    | if block_empty { 0 } else { self.from_empty[w] };
            }
            std::mem::swap(&mut self.blocked, &mut self.before);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::{LineSolver, UNKNOWN};

    /// Random lines of 20 to 400 cells with random known cells: whenever
    /// the line solver finds them infeasible, the cut is a part of the
    /// known cells that the line solver still finds infeasible; whenever
    /// it finds them feasible, there is no cut.
    #[test]
    fn cuts_are_infeasible_parts_of_the_known_cells() {
        let mut rng = frontier_core::rng::SplitMix64::new(0x0C07_5EED_0000_0001);
        let mut solver = LineSolver::default();
        let mut cut = LineCut::default();
        let mut infeasible = 0;
        for round in 0..1500 {
            let n = [20, 63, 64, 127, 128, 129, 200, 400][round % 8];
            let density = 30 + rng.below(50);
            let solution: Vec<bool> = (0..n).map(|_| rng.below(100) < density).collect();
            let mut clue = Vec::new();
            let mut run = 0;
            for &c in solution.iter().chain([&false]) {
                if c {
                    run += 1;
                } else if run > 0 {
                    clue.push(run);
                    run = 0;
                }
            }
            // Known cells mostly from the solution, a few flipped.
            let cells: Vec<u8> = solution
                .iter()
                .map(|&c| match rng.below(100) {
                    r if r < 40 => {
                        if c ^ (r < 2) {
                            FILLED
                        } else {
                            EMPTY
                        }
                    }
                    _ => UNKNOWN,
                })
                .collect();
            let whole = solver.feasible(&clue, &mut cells.clone());
            let mut kept = Vec::new();
            let found = cut.explain(&clue, &cells, None, &mut kept);
            assert_eq!(found, !whole, "n={n} {clue:?}");
            if found {
                let mut part = vec![UNKNOWN; n];
                for &i in &kept {
                    assert_ne!(cells[i], UNKNOWN, "an unknown cell in a cut");
                    part[i] = cells[i];
                }
                assert!(!solver.feasible(&clue, &mut part), "n={n} {clue:?}");
                infeasible += 1;
            }
        }
        assert!(
            infeasible > 300,
            "too few infeasible lines tried: {infeasible}"
        );
    }

    /// An implied cell: imposing its other value makes the line
    /// infeasible, and the cut explains that without the imposed cell.
    #[test]
    fn an_implied_cell_is_explained_without_itself() {
        let mut cut = LineCut::default();
        // 1 0 ? ? ? ? 0 with clue [1, 3]: the second run starts at 2 or 3,
        // so cell 3 is filled, and the empty last cell alone says so.
        let clue = [1, 3];
        let cells = [FILLED, EMPTY, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, EMPTY];
        let mut kept = Vec::new();
        assert!(cut.explain(&clue, &cells, Some((3, EMPTY)), &mut kept));
        assert_eq!(kept, [6]);
        // Without the last cell the second run may start at 4: no cut.
        let mut cells = cells;
        cells[6] = UNKNOWN;
        kept.clear();
        assert!(!cut.explain(&clue, &cells, Some((3, EMPTY)), &mut kept));
        assert!(kept.is_empty());
        // Runs that cannot fit need no cell at all.
        kept.clear();
        assert!(cut.explain(&[3, 3], &[UNKNOWN; 6], None, &mut kept));
        assert!(kept.is_empty());
        assert!(cut.explain(&[u32::MAX], &[FILLED; 2], None, &mut kept));
        assert!(kept.is_empty());
        // A blank line explains a filled cell by the cell alone.
        let blank = [UNKNOWN, UNKNOWN, FILLED, UNKNOWN];
        assert!(cut.explain(&[], &blank, None, &mut kept));
        assert_eq!(kept, [2]);
    }
}
