//! Block positions as variables of the conflict-driven search.
//!
//! Learned clauses over cells alone are weak on loose lines: a row of
//! thirty 1-blocks has a cell-level explanation for each deduction that
//! names most of its known cells, and on faase (a dithered 80×95 picture)
//! the clauses learned were as long as the search was deep — one literal
//! per decision level, so that each said only "not this combination". A
//! clause that can say "block 7 of row 40 starts at or after column 30"
//! holds for many combinations at once.
//!
//! So every block of every line gets order variables `[start >= p]`, one
//! for each place it may start after its leftmost one, with clauses that
//! tie them together and to the cells (the order encoding):
//! - `[start >= p]` implies `[start >= p - 1]`;
//! - block `j` starting at or after `p` pushes block `j + 1` to at or after
//!   `p + len + 1`;
//! - a cell inside block `j`'s reach (`start` in `[i - len + 1, i]`) is
//!   filled;
//! - a cell between the end of block `j - 1` and the start of block `j` is
//!   empty.
//!
//! The clauses allow exactly the placements of each line, so they add no
//! solution and lose none; the exact line solver stays the propagator for
//! cells, and the search guesses and learns over both kinds of variable.
//!
//! Literals follow [`crate::cdcl`]: variable `v` true (a cell filled, a
//! start at or after `p`) is `2v + 1`, false is `2v`.

/// Where one block's order variables lie: `[start >= p]` for `lo < p <= hi`
/// is variable `base + p - lo - 1`; it is always true below and never
/// above.
pub(crate) struct BlockVars {
    /// The line, rows first (as in [`crate::line::GridLines`]).
    pub line: usize,
    /// The block's place in the line's clue.
    pub block: usize,
    /// The variable of `[start >= lo + 1]`.
    pub base: usize,
    /// The leftmost start the clue allows.
    pub lo: usize,
    /// The rightmost start the clue allows.
    pub hi: usize,
}

/// A puzzle's order variables (numbered after its cells) and their clauses.
pub(crate) struct OrderEncoding {
    /// Cells and order variables together.
    pub vars: usize,
    /// Each clause as literals, any of which may hold.
    pub clauses: Vec<Vec<u32>>,
    /// Every block's variables.
    pub blocks: Vec<BlockVars>,
}

/// The most order variables a puzzle gets (faase has 81,000, a random
/// 100×100 at density 0.5 127,000): beyond, building and propagating their
/// clauses costs more than the huge puzzles, which line solving and
/// probing mostly settle, repay.
pub(crate) const ORDER_VARS_MAX: usize = 200_000;

/// The blocks of a clue (zero-length entries dropped) and the line's slack
/// (its cells left over when the blocks stand leftmost, one gap between
/// each); `None` when they do not fit `len`.
fn blocks_fitting(clue: &[u32], len: usize) -> Option<(Vec<usize>, usize)> {
    let blocks: Vec<usize> = clue
        .iter()
        .filter(|&&b| b > 0)
        .map(|&b| b as usize)
        .collect();
    let need = blocks.iter().sum::<usize>() + blocks.len().saturating_sub(1);
    len.checked_sub(need).map(|slack| (blocks, slack))
}

/// How many order variables [`encode`] would give `puzzle`, without
/// building them.
pub(crate) fn variables(puzzle: &crate::Puzzle) -> usize {
    (0..puzzle.width + puzzle.height)
        .map(|line| {
            let (clue, _, _, len) = puzzle.line(line);
            blocks_fitting(clue, len).map_or(0, |(blocks, slack)| blocks.len() * slack)
        })
        .sum()
}

/// No order variables: a search over cells alone.
pub(crate) fn none(puzzle: &crate::Puzzle) -> OrderEncoding {
    OrderEncoding {
        vars: puzzle.width * puzzle.height,
        clauses: Vec::new(),
        blocks: Vec::new(),
    }
}

/// The order encoding of `puzzle` (see [`variables`] for its size).
pub(crate) fn encode(puzzle: &crate::Puzzle) -> OrderEncoding {
    let mut encoding = none(puzzle);
    for line in 0..puzzle.width + puzzle.height {
        let (clue, start, step, len) = puzzle.line(line);
        // A clue that cannot fit is the line solver's contradiction to
        // find; a line without blocks is all empty, which it finds too.
        if let Some((blocks, _)) = blocks_fitting(clue, len).filter(|(b, _)| !b.is_empty()) {
            encode_line(line, &blocks, len, |i| start + i * step, &mut encoding);
        }
    }
    encoding
}

/// A block's `[start >= p]`: a literal, or a constant outside its range.
#[derive(Clone, Copy)]
enum AtOrAfter {
    Always,
    Never,
    Lit(u32),
}

/// Appends to `encoding` the variables and clauses of one line whose
/// `blocks` fit its `len` cells; `cell(i)` is the variable of its `i`th cell.
fn encode_line(
    line: usize,
    blocks: &[usize],
    len: usize,
    cell: impl Fn(usize) -> usize,
    encoding: &mut OrderEncoding,
) {
    let k = blocks.len();
    let first = encoding.blocks.len();
    let mut lo = 0;
    for (block, &size) in blocks.iter().enumerate() {
        encoding.blocks.push(BlockVars {
            line,
            block,
            base: 0,
            lo,
            hi: 0,
        });
        lo += size + 1;
    }
    let mut hi = len;
    for j in (0..k).rev() {
        hi -= blocks[j];
        encoding.blocks[first + j].hi = hi;
        hi = hi.saturating_sub(1);
    }
    for b in &mut encoding.blocks[first..] {
        b.base = encoding.vars;
        encoding.vars += b.hi - b.lo;
    }
    let vars = &encoding.blocks[first..];
    let at_or_after = |j: usize, p: isize| -> AtOrAfter {
        let b = &vars[j];
        if p <= b.lo as isize {
            AtOrAfter::Always
        } else if p > b.hi as isize {
            AtOrAfter::Never
        } else {
            AtOrAfter::Lit(((b.base + p as usize - b.lo - 1) as u32) << 1 | 1)
        }
    };
    let clauses = &mut encoding.clauses;
    // "`cell_lit` or any of `parts`" (each `[start >= p]`, negated or not),
    // left out when a part always holds.
    let mut add = |parts: &[(AtOrAfter, bool)], cell_lit: u32| {
        let mut clause = vec![cell_lit];
        for &(part, negated) in parts {
            match (part, negated) {
                (AtOrAfter::Always, false) | (AtOrAfter::Never, true) => return,
                (AtOrAfter::Always, true) | (AtOrAfter::Never, false) => {}
                (AtOrAfter::Lit(l), false) => clause.push(l),
                (AtOrAfter::Lit(l), true) => clause.push(l ^ 1),
            }
        }
        clauses.push(clause);
    };
    let mut implications = Vec::new();
    for (j, &size) in blocks.iter().enumerate() {
        let (lo, hi) = (vars[j].lo, vars[j].hi);
        for p in lo + 1..=hi {
            let here = at_or_after(j, p as isize);
            if let (AtOrAfter::Lit(a), AtOrAfter::Lit(b)) = (here, at_or_after(j, p as isize - 1)) {
                implications.push([a ^ 1, b]);
            }
            if j + 1 < k {
                if let (AtOrAfter::Lit(a), AtOrAfter::Lit(b)) =
                    (here, at_or_after(j + 1, (p + size + 1) as isize))
                {
                    implications.push([a ^ 1, b]);
                }
            }
        }
        // Starting in [i - size + 1, i] covers cell i.
        for i in lo..hi + size {
            let from = at_or_after(j, i as isize - size as isize + 1);
            let past = at_or_after(j, i as isize + 1);
            add(&[(from, true), (past, false)], (cell(i) as u32) << 1 | 1);
        }
    }
    // Block g - 1 over before cell i and block g not yet begun: empty.
    for g in 0..=k {
        for i in 0..len {
            let mut parts = Vec::with_capacity(2);
            if g > 0 {
                let ended = at_or_after(g - 1, i as isize - blocks[g - 1] as isize + 1);
                parts.push((ended, false));
            }
            if g < k {
                parts.push((at_or_after(g, i as isize + 1), true));
            }
            add(&parts, (cell(i) as u32) << 1);
        }
    }
    clauses.extend(implications.into_iter().map(Vec::from));
}

/// Per line (rows first), where the blocks of a solved grid start.
pub(crate) fn block_starts(puzzle: &crate::Puzzle, grid: &[bool]) -> Vec<Vec<usize>> {
    (0..puzzle.width + puzzle.height)
        .map(|line| {
            let (_, start, step, len) = puzzle.line(line);
            let filled = |i: usize| grid[start + i * step];
            (0..len)
                .filter(|&i| filled(i) && (i == 0 || !filled(i - 1)))
                .collect()
        })
        .collect()
}

impl OrderEncoding {
    /// The value (`FILLED` for true) that order variable `var` has where
    /// the blocks start at `starts` (from [`block_starts`]); `None` for a
    /// cell, or where a line has fewer blocks than its clue.
    pub(crate) fn value_at(&self, starts: &[Vec<usize>], var: usize) -> Option<u8> {
        let at = self
            .blocks
            .partition_point(|b| b.base <= var)
            .checked_sub(1)?;
        let b = &self.blocks[at];
        if var >= b.base + (b.hi - b.lo) {
            return None;
        }
        let start = *starts[b.line].get(b.block)?;
        let p = var - b.base + b.lo + 1;
        Some(if start >= p {
            crate::line::FILLED
        } else {
            crate::line::EMPTY
        })
    }

    /// Sets `phase` (indexed by variable) of every order variable to the
    /// places of the blocks in `solution`: a search that starts from a
    /// solution's cells starts from its blocks too.
    pub(crate) fn phases_from(&self, puzzle: &crate::Puzzle, solution: &[bool], phase: &mut [u8]) {
        let starts = block_starts(puzzle, solution);
        let cells = puzzle.width * puzzle.height;
        for (var, phase) in phase.iter_mut().enumerate().skip(cells) {
            if let Some(value) = self.value_at(&starts, var) {
                *phase = value;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a clause holds under `truth` (indexed by variable).
    fn holds(clause: &[u32], truth: &[bool]) -> bool {
        clause
            .iter()
            .any(|&l| truth[(l >> 1) as usize] == (l & 1 == 1))
    }

    /// The clue of a line of cells (as a one-row puzzle's row).
    fn clue_of(cells: &[bool]) -> Vec<usize> {
        let puzzle = crate::Puzzle::from_grid(cells.len(), 1, cells).expect("a one-row grid");
        puzzle.rows[0].iter().map(|&b| b as usize).collect()
    }

    /// On every clue of lines up to 9 cells and every filling of the line,
    /// some assignment of the order variables satisfies the clauses exactly
    /// when the filling matches the clue. The clauses force the variables
    /// of a block to be monotone, so the assignments worth trying are one
    /// start per block.
    #[test]
    fn the_clauses_allow_exactly_the_placements() {
        for len in 1..=9usize {
            let mut clues: Vec<Vec<usize>> = (0..1u32 << len)
                .map(|m| clue_of(&(0..len).map(|i| m >> i & 1 == 1).collect::<Vec<_>>()))
                .filter(|c| !c.is_empty())
                .collect();
            clues.sort();
            clues.dedup();
            for clue in clues {
                let mut encoding = OrderEncoding {
                    vars: len,
                    clauses: Vec::new(),
                    blocks: Vec::new(),
                };
                encode_line(0, &clue, len, |i| i, &mut encoding);
                let blocks = &encoding.blocks;
                for mask in 0..1u32 << len {
                    let cells: Vec<bool> = (0..len).map(|i| mask >> i & 1 == 1).collect();
                    // Every tuple of starts within the blocks' ranges.
                    let mut starts: Vec<usize> = blocks.iter().map(|b| b.lo).collect();
                    let mut satisfiable = false;
                    'tuples: loop {
                        let mut truth = cells.clone();
                        truth.resize(encoding.vars, false);
                        for (b, &s) in blocks.iter().zip(&starts) {
                            for p in b.lo + 1..=b.hi {
                                truth[b.base + p - b.lo - 1] = s >= p;
                            }
                        }
                        if encoding.clauses.iter().all(|c| holds(c, &truth)) {
                            satisfiable = true;
                            break;
                        }
                        for (j, b) in blocks.iter().enumerate() {
                            if starts[j] < b.hi {
                                starts[j] += 1;
                                continue 'tuples;
                            }
                            starts[j] = b.lo;
                        }
                        break;
                    }
                    assert_eq!(
                        satisfiable,
                        clue_of(&cells) == clue,
                        "clue {clue:?}, cells {cells:?}"
                    );
                }
            }
        }
    }

    /// Monotone assignments only: an assignment that says a block starts at
    /// or after `p` but not at or after `p - 1` breaks a clause.
    #[test]
    fn order_variables_are_monotone() {
        let mut encoding = OrderEncoding {
            vars: 7,
            clauses: Vec::new(),
            blocks: Vec::new(),
        };
        encode_line(0, &[2], 7, |i| i, &mut encoding);
        let b = &encoding.blocks[0];
        assert_eq!((b.lo, b.hi), (0, 5));
        let mut truth = vec![false; encoding.vars];
        // Cells 3 and 4 filled: the block starts at 3.
        truth[3] = true;
        truth[4] = true;
        for p in 1..=3 {
            truth[b.base + p - 1] = true;
        }
        assert!(encoding.clauses.iter().all(|c| holds(c, &truth)));
        truth[b.base + 1] = false; // [start >= 2] false, [start >= 3] true
        assert!(!encoding.clauses.iter().all(|c| holds(c, &truth)));
    }

    /// A variable's value read back from block starts is the one the
    /// brute-force check assigns.
    #[test]
    fn values_at_block_starts() {
        let grid = [false, true, true, false, false, true, false];
        let puzzle = crate::Puzzle::from_grid(7, 1, &grid).expect("a 7x1 grid");
        let encoding = encode(&puzzle);
        let starts = block_starts(&puzzle, &grid);
        assert_eq!(starts[0], vec![1, 5]);
        let row: Vec<&BlockVars> = encoding.blocks.iter().filter(|b| b.line == 0).collect();
        assert_eq!(row.len(), 2);
        for b in row {
            for p in b.lo + 1..=b.hi {
                let want = if starts[0][b.block] >= p {
                    crate::line::FILLED
                } else {
                    crate::line::EMPTY
                };
                assert_eq!(
                    encoding.value_at(&starts, b.base + p - b.lo - 1),
                    Some(want)
                );
            }
        }
        assert_eq!(encoding.value_at(&starts, 3), None, "a cell");
    }

    /// The count that sizes the search's budgets is the encoding's own.
    #[test]
    fn variables_counts_what_encode_builds() {
        let mut rng = frontier_core::rng::SplitMix64::new(7);
        for round in 0..40 {
            let (w, h) = (3 + round % 9, 2 + round % 7);
            let grid: Vec<bool> = (0..w * h).map(|_| rng.below(3) != 0).collect();
            let puzzle = crate::Puzzle::from_grid(w, h, &grid).expect("a small grid");
            assert_eq!(
                variables(&puzzle),
                encode(&puzzle).vars - w * h,
                "{puzzle:?}"
            );
        }
    }

    #[test]
    fn huge_puzzles_get_no_order_variables() {
        let side = 1000;
        let puzzle = crate::Puzzle {
            width: side,
            height: side,
            rows: vec![vec![1; 400]; side],
            cols: vec![vec![1; 400]; side],
        };
        assert!(variables(&puzzle) > ORDER_VARS_MAX);
    }
}
