//! Conflict-driven search with the line solver as the propagator.
//!
//! Depth-first guessing forgets why a guess failed; on puzzles built as long
//! chains of interlocking choices (the n-Dom family, many tournament
//! puzzles) it retries the same failure under every earlier guess. Here each
//! failure is explained and learned as a clause over cells, so it is never
//! retried:
//! - a cell forced by line `L` is explained lazily by the cells of `L` known
//!   before it, shrunk greedily to a subset that still forces it (checked
//!   with the exact line solver) — or, on lines of 128 cells or more, by a
//!   cut of the line's automaton (see [`crate::explain`]);
//! - a contradicting line is explained the same way;
//! - conflicts are analysed to the first unique implication point, the
//!   learned clause is watched (two watched literals) and the search jumps
//!   back; guesses follow VSIDS activity with saved phases, with Luby
//!   restarts and periodic removal of weak learned clauses;
//! - until a first solution, guesses prefer target phases (the values of
//!   the longest trail without a conflict) and the saved phases are reset
//!   now and then to the best such trail (rephasing), as CaDiCaL does on
//!   satisfiable problems; after it, the search is the plain one above.
//!
//! Besides the cells, each block of each line has variables "starts at or
//! after place p", tied to the cells by clauses (the crate's private
//! `order` module): guesses may place blocks, and learned clauses may speak
//! of block places, which cover many cell combinations at once. On faase
//! (80×95) the default run went from no verdict in 300 s to `multiple` in
//! 34 s, and the n-Dom proofs took a third of the time (docs/RESULTS.md).
//! Building and propagating those clauses costs more than a search of a
//! few dozen guesses, so a search over cells alone goes first, for about
//! the line work the block places would cost, and a search that outlasts
//! it starts afresh with them.
//!
//! Solutions are counted exactly: each solution found is blocked by the
//! clause "not all of these guesses" and the search goes on until the
//! clauses are unsatisfiable or enough solutions are found.
//!
//! Two cheaper searches may go first and hand over what they found:
//! - on small puzzles, a depth-first search with probing at every node,
//!   for 100 nodes (some puzzles fall to probing at once);
//! - on puzzles whose clues have a symmetry (see [`crate::symmetry`]), a
//!   search among the solutions that the symmetry keeps, with each cell
//!   tied to its images. A first solution's differing image is a second.
//!
//! Solutions found before are blocked whole, and the search starts from
//! their values.

use std::time::Instant;

use crate::explain::LineCut;
use crate::line::{GridLines, LineCache, LineQueue, LineSolver, EMPTY, FILLED, UNKNOWN};
use crate::puzzle::Puzzle;
use crate::solver::{solve_within, Cutoff, Grid, SolveOptions, SolveOutcome, SolveStats};

/// Marks a deleted clause's record in [`Search::arena`] (clause indexes
/// stay below it).
const DELETED: u32 = 1 << 31;

/// A literal: `cell * 2 + 1` means "cell filled", `cell * 2` "cell empty".
type Lit = u32;

fn lit(cell: usize, value: u8) -> Lit {
    (cell as u32) << 1 | u32::from(value == FILLED)
}

fn lit_cell(l: Lit) -> usize {
    (l >> 1) as usize
}

fn lit_value(l: Lit) -> u8 {
    if l & 1 == 1 {
        FILLED
    } else {
        EMPTY
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Reason {
    Decision,
    Line(u32),
    Clause(u32),
}

/// A clause's bookkeeping; its literals live in [`Search::arena`] at `at`.
struct Clause {
    at: u32,
    learnt: bool,
    lbd: u32,
    activity: f64,
    /// Kept beside the record's mark: once the arena is compacted, a
    /// deleted clause has no record, and `at` points into another's.
    deleted: bool,
}

enum Conflict {
    Line(usize),
    Clause(u32),
}

struct Search<'p, 'r> {
    puzzle: &'p Puzzle,
    /// Cells are the first variables; block-position variables follow.
    cells: usize,
    /// Cells not yet set: none left is a solution, whatever the
    /// block-position variables say (every line was checked).
    unknown_cells: usize,
    /// The block-position variables (see [`crate::order`]); their
    /// clauses are in `clauses`.
    order: crate::order::OrderEncoding,
    value: Vec<u8>,
    /// `value` by line, with a line cache for propagation (long lines
    /// only: see [`LineCache::from_length`]); after a jump back,
    /// propagation meets the same line states again.
    lines: GridLines,
    changes: Vec<(usize, u8)>,
    level: Vec<u32>,
    position: Vec<u32>,
    reason: Vec<Reason>,
    trail: Vec<u32>,
    levels: Vec<usize>,
    clause_head: usize,
    /// Lines to re-solve.
    queue: LineQueue,
    clauses: Vec<Clause>,
    /// Every clause as a record `index | DELETED?, length, literals…`, back
    /// to back: propagation reads a watched clause in one place (one cache
    /// miss where a `Vec` per clause cost two).
    arena: Vec<u32>,
    /// Words of deleted clauses still in the arena.
    garbage: usize,
    /// Per literal, the arena records of the clauses watching it.
    watches: Vec<Vec<u32>>,
    activity: Vec<f64>,
    bump: f64,
    clause_bump: f64,
    heap: Heap,
    phase: Vec<u8>,
    /// Whether the search is still looking for a first solution: then it
    /// follows target phases, restarts rarely and rephases (see
    /// [`Search::run`]).
    stable: bool,
    /// The values of the longest conflict-free trail since the last
    /// rephasing (`UNKNOWN` where it did not reach). While the search is
    /// stable, guesses take them before saved phases: a search that came
    /// close to a solution goes back there after a jump instead of
    /// wandering off (CaDiCaL's target phases).
    target: Vec<u8>,
    /// Trail length that `target` records.
    target_size: usize,
    /// Like `target`, but kept until the next rephasing to them, which
    /// resets the saved phases to these values.
    best: Vec<u8>,
    /// Trail length that `best` records.
    best_size: usize,
    line: LineSolver,
    /// Explains deductions on lines of 128 cells or more.
    cut: LineCut,
    /// A line's cells for `cut`, kept between explanations.
    cut_cells: Vec<u8>,
    seen: Vec<bool>,
    /// Explanations of line-implied cells, computed once per assignment.
    explained: Vec<Option<Vec<Lit>>>,
    stats: SolveStats,
    conflicts: u64,
    /// Learned clauses not deleted (kept, not recounted per decision).
    learnts: usize,
    cutoff: Cutoff<'r>,
    out_of_time: bool,
    solves_since_clock: u32,
    /// Whether the first propagation left no cell unknown.
    line_solved: bool,
    /// Per level, the last clause (by `stamp`) that counted it.
    level_stamps: Vec<u64>,
    stamp: u64,
    /// Buffers of [`Search::redundant`], kept between calls.
    stack: Vec<usize>,
    reason_buffer: Vec<Lit>,
}

impl<'p, 'r> Search<'p, 'r> {
    /// A search over the cells, and over block places too when
    /// `block_places` says so.
    fn new(puzzle: &'p Puzzle, cutoff: Cutoff<'r>, block_places: bool) -> Search<'p, 'r> {
        let cells = puzzle.width * puzzle.height;
        let lines = puzzle.width + puzzle.height;
        let mut order = if block_places {
            crate::order::encode(puzzle)
        } else {
            crate::order::none(puzzle)
        };
        let vars = order.vars;
        let order_clauses = std::mem::take(&mut order.clauses);
        let mut s = Search {
            puzzle,
            cells,
            unknown_cells: cells,
            order,
            value: vec![UNKNOWN; vars],
            lines: GridLines::new(
                puzzle.width,
                puzzle.height,
                LineCache::default().from_length(64),
            ),
            changes: Vec::new(),
            level: vec![0; vars],
            position: vec![0; vars],
            reason: vec![Reason::Decision; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            clause_head: 0,
            queue: LineQueue::all(lines),
            clauses: Vec::new(),
            arena: Vec::new(),
            garbage: 0,
            watches: vec![Vec::new(); vars * 2],
            activity: vec![0.0; vars],
            bump: 1.0,
            clause_bump: 1.0,
            heap: Heap::new(vars),
            phase: vec![EMPTY; vars],
            stable: false,
            target: vec![UNKNOWN; vars],
            target_size: 0,
            best: vec![UNKNOWN; vars],
            best_size: 0,
            line: LineSolver::default(),
            cut: LineCut::default(),
            cut_cells: Vec::new(),
            seen: vec![false; vars],
            explained: vec![None; vars],
            stats: SolveStats::default(),
            conflicts: 0,
            learnts: 0,
            cutoff,
            out_of_time: false,
            solves_since_clock: 0,
            line_solved: false,
            level_stamps: Vec::new(),
            stamp: 0,
            stack: Vec::new(),
            reason_buffer: Vec::new(),
        };
        for clause in order_clauses {
            if clause.len() == 1 {
                let l = clause[0];
                if s.value[lit_cell(l)] == UNKNOWN {
                    s.assign(lit_cell(l), lit_value(l), Reason::Decision);
                }
            } else {
                s.add_clause(clause, false);
            }
        }
        s
    }

    fn decision_level(&self) -> u32 {
        self.levels.len() as u32
    }

    fn assign(&mut self, cell: usize, value: u8, reason: Reason) {
        self.value[cell] = value;
        self.level[cell] = self.decision_level();
        self.position[cell] = self.trail.len() as u32;
        self.reason[cell] = reason;
        self.trail.push(cell as u32);
        if cell >= self.cells {
            return;
        }
        self.unknown_cells -= 1;
        self.lines.set(cell, value);
        let w = self.puzzle.width;
        for line in [cell / w, self.puzzle.height + cell % w] {
            // The line that forced this cell already knows it.
            if reason == Reason::Line(line as u32) {
                continue;
            }
            self.queue.push(line);
        }
    }

    /// Clause and line propagation to a fixed point.
    fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            while self.clause_head < self.trail.len() {
                let cell = self.trail[self.clause_head] as usize;
                self.clause_head += 1;
                // Clauses watching the literal that just became false.
                let falsified = lit(cell, self.value[cell]) ^ 1;
                if let Err(ci) = self.propagate_clauses(falsified) {
                    return Err(Conflict::Clause(ci));
                }
            }
            // Long lines of huge puzzles make a propagation take seconds:
            // look at the clock now and then (the caller stops on the flag).
            self.solves_since_clock += 1;
            if self.solves_since_clock >= 64 && {
                self.solves_since_clock = 0;
                self.cutoff.reached()
            } {
                self.out_of_time = true;
                return Ok(());
            }
            let mut changes = std::mem::take(&mut self.changes);
            let Some((line, solved)) =
                self.lines
                    .solve_next(&mut self.queue, self.puzzle, &mut self.stats, &mut changes)
            else {
                self.changes = changes;
                return Ok(());
            };
            let (_, start, step, _) = self.puzzle.line(line);
            if solved.is_ok() {
                for &(i, value) in &changes {
                    self.assign(start + i * step, value, Reason::Line(line as u32));
                }
            }
            self.changes = changes;
            if solved.is_err() {
                return Err(Conflict::Line(line));
            }
        }
    }

    fn propagate_clauses(&mut self, falsified: Lit) -> Result<(), u32> {
        let mut watchers = std::mem::take(&mut self.watches[falsified as usize]);
        let mut kept = 0;
        let mut result = Ok(());
        let mut i = 0;
        while i < watchers.len() {
            let at = watchers[i] as usize;
            i += 1;
            let head = self.arena[at];
            if head & DELETED != 0 {
                continue;
            }
            let ci = head;
            let len = self.arena[at + 1] as usize;
            let lits = &mut self.arena[at + 2..at + 2 + len];
            if lits[0] == falsified {
                lits.swap(0, 1);
            }
            let other = lits[0];
            let other_value = self.value[lit_cell(other)];
            if other_value == lit_value(other) {
                watchers[kept] = at as u32;
                kept += 1;
                continue;
            }
            // Look for a new literal to watch.
            let mut moved = false;
            for k in 2..len {
                let l = lits[k];
                let v = self.value[lit_cell(l)];
                if v == UNKNOWN || v == lit_value(l) {
                    lits.swap(1, k);
                    self.watches[lits[1] as usize].push(at as u32);
                    moved = true;
                    break;
                }
            }
            if moved {
                continue;
            }
            watchers[kept] = at as u32;
            kept += 1;
            if other_value == UNKNOWN {
                let cell = lit_cell(other);
                self.assign(cell, lit_value(other), Reason::Clause(ci));
            } else {
                result = Err(ci);
                while i < watchers.len() {
                    watchers[kept] = watchers[i];
                    kept += 1;
                    i += 1;
                }
            }
        }
        watchers.truncate(kept);
        self.watches[falsified as usize] = watchers;
        result
    }

    /// Known cells of `line` assigned before trail position `before`,
    /// shrunk to a subset that still forces `target` (cell, value) — or
    /// still contradicts, when `target` is `None`. Returned as the true
    /// literals of those assignments.
    fn explain_line(&mut self, line: usize, before: u32, target: Option<(usize, u8)>) -> Vec<Lit> {
        let (clue, start, step, len) = self.puzzle.line(line);
        self.stats.line_solves += len as u64;
        let known = if len < 128 {
            self.shrink_greedily(line, before, target)
        } else {
            // A solve per known cell costs too much on long lines: cut the
            // line's automaton through the known cells instead, in one
            // pass each way (see `crate::explain`).
            let mut cells = std::mem::take(&mut self.cut_cells);
            cells.clear();
            cells.extend((0..len).map(|i| {
                let cell = start + i * step;
                if self.position[cell] < before {
                    self.value[cell]
                } else {
                    UNKNOWN
                }
            }));
            let imposed = target.map(|(cell, v)| {
                let other = if v == FILLED { EMPTY } else { FILLED };
                ((cell - start) / step, other)
            });
            let mut kept = Vec::new();
            if !self.cut.explain(clue, &cells, imposed, &mut kept) {
                // Cannot happen (the line solver made the deduction); the
                // whole line is a sound explanation anyway.
                debug_assert!(false, "line {line} does not imply what it explains");
                kept = (0..len).filter(|&i| cells[i] != UNKNOWN).collect();
            }
            self.cut_cells = cells;
            kept
        };
        known
            .into_iter()
            .map(|i| {
                let cell = start + i * step;
                lit(cell, self.value[cell])
            })
            .collect()
    }

    /// [`Search::explain_line`] on a line under 128 cells: drops each known
    /// cell whose absence keeps the implication, asking the line solver.
    /// Returns the places in the line of the cells kept.
    fn shrink_greedily(
        &mut self,
        line: usize,
        before: u32,
        target: Option<(usize, u8)>,
    ) -> Vec<usize> {
        let (clue, start, step, len) = self.puzzle.line(line);
        // The latest assignments go first, so that the explanation leans
        // on older ones (lower levels: shorter clauses after analysis,
        // longer jumps back). Sorted as keys (trail position reversed, then
        // place in the line): trail positions differ, so this is the one
        // order, and comparisons read no tables.
        let mut keys: Vec<u64> = (0..len)
            .filter_map(|i| {
                let cell = start + i * step;
                (self.value[cell] != UNKNOWN && self.position[cell] < before)
                    .then(|| u64::from(!self.position[cell]) << 32 | i as u64)
            })
            .collect();
        keys.sort_unstable();
        let mut known: Vec<usize> = keys
            .iter()
            .map(|&key| (key & 0xffff_ffff) as usize)
            .collect();
        // On bit sets: no cells to build per check.
        let every = (1u128 << len) - 1;
        let (mut filled, mut empty) = (0u128, 0u128);
        for &i in &known {
            if self.value[start + i * step] == FILLED {
                filled |= 1 << i;
            } else {
                empty |= 1 << i;
            }
        }
        // The target's other value, imposed.
        let (mut must_fill, mut must_empty) = (0u128, 0u128);
        if let Some((cell, v)) = target {
            let bit = 1u128 << ((cell - start) / step);
            if v == FILLED {
                must_empty = bit;
            } else {
                must_fill = bit;
            }
        }
        let solver = &mut self.line;
        drop_in_runs(&mut known, |run| {
            let gone: u128 = run.iter().fold(0, |acc, &i| acc | 1 << i);
            let (f, e) = (filled & !gone, empty & !gone);
            let may_empty = every & !(f | must_fill);
            let may_fill = every & !(e | must_empty);
            let still_holds = !solver.feasible_bits(clue, len, may_empty, may_fill);
            if still_holds {
                (filled, empty) = (f, e);
            }
            still_holds
        });
        known
    }

    /// The reason of an implied cell as the true literals that imply it.
    /// Puts into `out` (cleared first) the reason of an implied cell: the
    /// true literals that imply it.
    fn reason_into(&mut self, cell: usize, out: &mut Vec<Lit>) {
        out.clear();
        match self.reason[cell] {
            Reason::Decision => {}
            Reason::Clause(ci) => out.extend(
                self.clause_lits(ci)
                    .iter()
                    .filter(|&&l| lit_cell(l) != cell)
                    .map(|&l| l ^ 1),
            ),
            Reason::Line(line) => {
                if self.explained[cell].is_none() {
                    let target = Some((cell, self.value[cell]));
                    let lits = self.explain_line(line as usize, self.position[cell], target);
                    self.explained[cell] = Some(lits);
                }
                out.extend_from_slice(self.explained[cell].as_deref().unwrap_or_default());
            }
        }
    }

    fn bump_cell(&mut self, cell: usize) {
        self.activity[cell] += self.bump;
        if self.activity[cell] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.increased(cell, &self.activity);
    }

    /// First-UIP analysis; returns the learned clause (asserting literal
    /// first, all literals false now) and the level to jump back to.
    fn analyze(&mut self, conflict: Conflict) -> (Vec<Lit>, u32) {
        let mut reason_true: Vec<Lit> = match conflict {
            Conflict::Clause(ci) => {
                self.clauses[ci as usize].activity += self.clause_bump;
                self.clause_lits(ci).iter().map(|&l| l ^ 1).collect()
            }
            Conflict::Line(line) => self.explain_line(line, u32::MAX, None),
        };
        let current = self.decision_level();
        let mut learnt: Vec<Lit> = vec![0];
        let mut pending = 0;
        let mut index = self.trail.len();
        let uip;
        loop {
            for &l in &reason_true {
                let cell = lit_cell(l);
                if self.seen[cell] || self.level[cell] == 0 {
                    continue;
                }
                self.seen[cell] = true;
                self.bump_cell(cell);
                if self.level[cell] == current {
                    pending += 1;
                } else {
                    learnt.push(l ^ 1);
                }
            }
            // The latest seen cell on the trail.
            let cell = loop {
                index -= 1;
                let cell = self.trail[index] as usize;
                if self.seen[cell] {
                    break cell;
                }
            };
            self.seen[cell] = false;
            pending -= 1;
            if pending == 0 {
                uip = cell;
                break;
            }
            self.reason_into(cell, &mut reason_true);
        }
        learnt[0] = lit(uip, self.value[uip]) ^ 1;
        // Drop the literals implied by the others (recursive minimisation,
        // as in MiniSat): shorter clauses prune more and jump further.
        let mut cleared: Vec<usize> = learnt[1..].iter().map(|&l| lit_cell(l)).collect();
        let levels = learnt[1..]
            .iter()
            .fold(0, |acc, &l| acc | abstract_level(self.level[lit_cell(l)]));
        let mut keep = 1;
        for k in 1..learnt.len() {
            let cell = lit_cell(learnt[k]);
            if self.reason[cell] == Reason::Decision || !self.redundant(cell, levels, &mut cleared)
            {
                learnt[keep] = learnt[k];
                keep += 1;
            }
        }
        learnt.truncate(keep);
        for cell in cleared {
            self.seen[cell] = false;
        }
        // Jump back to the second-highest level, watched second.
        let mut back = 0;
        let mut at = 1;
        for (k, &l) in learnt.iter().enumerate().skip(1) {
            let lv = self.level[lit_cell(l)];
            if lv > back {
                back = lv;
                at = k;
            }
        }
        if learnt.len() > 1 {
            learnt.swap(1, at);
        }
        self.bump *= 1.0 / 0.95;
        self.clause_bump *= 1.0 / 0.999;
        (learnt, back)
    }

    /// Whether the assignment of `cell` (in the learned clause, or reached
    /// from it) follows from the clause's other cells and level-0 facts:
    /// then its literal adds nothing to the clause. `levels` is the
    /// clause's abstract levels; cells found implied stay marked seen and
    /// are added to `cleared`.
    fn redundant(&mut self, cell: usize, levels: u64, cleared: &mut Vec<usize>) -> bool {
        let mut stack = std::mem::take(&mut self.stack);
        let mut reason = std::mem::take(&mut self.reason_buffer);
        stack.clear();
        stack.push(cell);
        let top = cleared.len();
        let mut implied = true;
        'walk: while let Some(c) = stack.pop() {
            self.reason_into(c, &mut reason);
            for &l in &reason {
                let d = lit_cell(l);
                if self.seen[d] || self.level[d] == 0 {
                    continue;
                }
                if self.reason[d] != Reason::Decision && abstract_level(self.level[d]) & levels != 0
                {
                    self.seen[d] = true;
                    stack.push(d);
                    cleared.push(d);
                } else {
                    for &e in &cleared[top..] {
                        self.seen[e] = false;
                    }
                    cleared.truncate(top);
                    implied = false;
                    break 'walk;
                }
            }
        }
        (self.stack, self.reason_buffer) = (stack, reason);
        implied
    }

    fn undo_to_level(&mut self, level: u32) {
        if self.decision_level() <= level {
            return;
        }
        let keep = self.levels[level as usize];
        for &cell in &self.trail[keep..] {
            let cell = cell as usize;
            self.phase[cell] = self.value[cell];
            self.value[cell] = UNKNOWN;
            if cell < self.cells {
                self.lines.set(cell, UNKNOWN);
                self.unknown_cells += 1;
            }
            self.explained[cell] = None;
            self.heap.insert(cell, &self.activity);
        }
        self.trail.truncate(keep);
        self.levels.truncate(level as usize);
        self.clause_head = self.clause_head.min(keep);
        self.queue.clear();
    }

    /// Adds a clause whose literals are all false except possibly the first,
    /// watching the first two; returns its index.
    fn add_clause(&mut self, lits: Vec<Lit>, learnt: bool) -> u32 {
        let ci = self.clauses.len() as u32;
        // Distinct levels among the literals, counted with stamps.
        self.stamp += 1;
        let mut lbd = 0;
        for &l in &lits {
            let level = self.level[lit_cell(l)] as usize;
            if level >= self.level_stamps.len() {
                self.level_stamps.resize(level + 1, 0);
            }
            if self.level_stamps[level] != self.stamp {
                self.level_stamps[level] = self.stamp;
                lbd += 1;
            }
        }
        let at = self.arena.len() as u32;
        if lits.len() >= 2 {
            self.watches[lits[0] as usize].push(at);
            self.watches[lits[1] as usize].push(at);
        }
        self.arena.push(ci);
        self.arena.push(lits.len() as u32);
        self.arena.extend_from_slice(&lits);
        self.learnts += usize::from(learnt);
        self.clauses.push(Clause {
            at,
            learnt,
            lbd,
            activity: self.clause_bump,
            deleted: false,
        });
        ci
    }

    /// After a conflict: learn, jump back, assert. False when the conflict
    /// is at level 0 (no more solutions).
    fn learn(&mut self, conflict: Conflict) -> bool {
        self.conflicts += 1;
        self.stats.dead_ends += 1;
        if self.decision_level() == 0 {
            return false;
        }
        let (learnt, back) = self.analyze(conflict);
        if self.stable {
            self.remember_consistent_trail();
        }
        self.undo_to_level(back);
        let first = learnt[0];
        if learnt.len() == 1 {
            self.assign(lit_cell(first), lit_value(first), Reason::Decision);
            // A unit at level 0 is a fact; its "decision" reason is never
            // resolved on, since level-0 cells are skipped in analysis.
        } else {
            let ci = self.add_clause(learnt, true);
            self.assign(lit_cell(first), lit_value(first), Reason::Clause(ci));
        }
        true
    }

    /// Records the trail below the conflicting level (propagated without a
    /// conflict) as the target and the best phases, where it is the longest
    /// either has seen.
    fn remember_consistent_trail(&mut self) {
        let consistent = self.levels.last().copied().unwrap_or(0);
        for (size, phases) in [
            (&mut self.target_size, &mut self.target),
            (&mut self.best_size, &mut self.best),
        ] {
            if consistent > *size {
                for &cell in &self.trail[..consistent] {
                    phases[cell as usize] = self.value[cell as usize];
                }
                *size = consistent;
            }
        }
    }

    /// The `round`th rephasing: resets the saved phases and forgets the
    /// target. Most rounds go back to the best trail; the others to every
    /// cell empty, or to the saved phases flipped, which sends the search
    /// to other parts of the grid.
    fn rephase(&mut self, round: u64) {
        match round % 4 {
            1 | 3 => {
                for (phase, &best) in self.phase.iter_mut().zip(&self.best) {
                    if best != UNKNOWN {
                        *phase = best;
                    }
                }
                self.best_size = 0;
            }
            2 => self.phase.fill(EMPTY),
            _ => {
                for phase in &mut self.phase {
                    *phase = if *phase == EMPTY { FILLED } else { EMPTY };
                }
            }
        }
        self.target.fill(UNKNOWN);
        self.target_size = 0;
    }

    fn reduce_learnts(&mut self) {
        let locked: std::collections::HashSet<u32> = self
            .trail
            .iter()
            .filter_map(|&c| match self.reason[c as usize] {
                Reason::Clause(ci) => Some(ci),
                _ => None,
            })
            .collect();
        let mut candidates: Vec<u32> = (0..self.clauses.len() as u32)
            .filter(|&ci| {
                let c = &self.clauses[ci as usize];
                c.learnt && !c.deleted && c.lbd > 2 && !locked.contains(&ci)
            })
            .collect();
        candidates.sort_by(|&a, &b| {
            let (a, b) = (&self.clauses[a as usize], &self.clauses[b as usize]);
            b.lbd.cmp(&a.lbd).then(a.activity.total_cmp(&b.activity))
        });
        let doomed = &candidates[..candidates.len() / 2];
        self.learnts -= doomed.len();
        for &ci in doomed {
            let clause = &mut self.clauses[ci as usize];
            clause.deleted = true;
            let at = clause.at as usize;
            self.arena[at] |= DELETED;
            self.garbage += 2 + self.arena[at + 1] as usize;
        }
        if self.garbage * 2 > self.arena.len() {
            self.compact_arena();
        }
    }

    /// The literals of clause `ci`.
    fn clause_lits(&self, ci: u32) -> &[Lit] {
        let at = self.clauses[ci as usize].at as usize;
        &self.arena[at + 2..at + 2 + self.arena[at + 1] as usize]
    }

    /// Drops the deleted clauses' records from the arena. Watch lists keep
    /// their order (less the deleted clauses, which propagation would skip
    /// anyway), so the search goes on exactly as it would have.
    fn compact_arena(&mut self) {
        let old = std::mem::take(&mut self.arena);
        for clause in self.clauses.iter_mut().filter(|c| !c.deleted) {
            let at = clause.at as usize;
            let end = at + 2 + old[at + 1] as usize;
            clause.at = self.arena.len() as u32;
            self.arena.extend_from_slice(&old[at..end]);
        }
        for watchers in &mut self.watches {
            watchers.retain_mut(|at| {
                let head = old[*at as usize];
                if head & DELETED != 0 {
                    return false;
                }
                *at = self.clauses[head as usize].at;
                true
            });
        }
        self.garbage = 0;
    }

    fn decide(&mut self) -> Option<usize> {
        while let Some(cell) = self.heap.pop(&self.activity) {
            if self.value[cell] == UNKNOWN {
                return Some(cell);
            }
        }
        None
    }
}

/// Drops from `items`, in order, each item that `try_drop` lets go: it is
/// given a run of items and drops them all (returning true) when the
/// implication being explained survives without them. The result is the
/// one of asking item by item, since an implication that survives dropping
/// a whole run survives dropping any part of it; but runs that go at once
/// cost one question, and a run grows while its items go (most do: about
/// three in four).
fn drop_in_runs<T: Copy>(items: &mut Vec<T>, mut try_drop: impl FnMut(&[T]) -> bool) {
    let (mut at, mut kept, mut run) = (0, 0, 1);
    while at < items.len() {
        let end = (at + run).min(items.len());
        if try_drop(&items[at..end]) {
            at = end;
            run *= 2;
        } else if run > 1 {
            run /= 2;
        } else {
            items[kept] = items[at];
            kept += 1;
            at += 1;
        }
    }
    items.truncate(kept);
}

/// A level's bit in a 64-bit summary of a clause's levels: a cell whose
/// level's bit is absent cannot be implied by the clause's cells alone.
fn abstract_level(level: u32) -> u64 {
    1 << (level & 63)
}

/// Luby's restart sequence: 1 1 2 1 1 2 4 1 1 2 …
fn luby(mut i: u64) -> u64 {
    let mut size = 1;
    let mut seq = 0;
    while size < i + 1 {
        seq += 1;
        size = 2 * size + 1;
    }
    while size - 1 != i {
        size = (size - 1) >> 1;
        seq -= 1;
        i %= size;
    }
    1 << seq
}

/// Solves with conflict-driven search (see the module docs); the verdict
/// is exact unless the time limit strikes.
pub fn solve_cdcl(puzzle: &Puzzle, options: &SolveOptions) -> SolveOutcome {
    solve_cdcl_until(puzzle, options, 0, Cutoff::at)
}

/// [`solve_cdcl`] that also stops at the cutoff `cutoff(deadline)` makes of
/// the options' deadline (a portfolio adds its race). A `seed` other than 0
/// starts from random guess activities and phases, so that racers differ.
pub fn solve_cdcl_until<'r>(
    puzzle: &Puzzle,
    options: &SolveOptions,
    seed: u64,
    cutoff: impl FnOnce(Option<Instant>) -> Cutoff<'r>,
) -> SolveOutcome {
    let started = Instant::now();
    let cutoff = cutoff(options.deadline(started));
    let want = options.max_solutions.max(1);
    let mut solutions: Vec<Vec<bool>> = Vec::new();
    let mut stats = SolveStats::default();
    let dfs_first = seed == 0 && puzzle.width * puzzle.height <= DFS_CELLS;
    if dfs_first {
        // Some puzzles fall to probing at once (ICGA 2016 #984: two
        // solutions in 83 nodes, where learning took 10,000): a short
        // depth-first search with probing at every node first. Seeded
        // racers skip it: the portfolio races a depth-first search.
        let dfs_options = SolveOptions {
            max_solutions: want,
            probing: true,
            max_seconds: None,
        };
        let (outcome, over_budget) = solve_within(puzzle, &dfs_options, cutoff, DFS_NODES);
        if !over_budget {
            return outcome;
        }
        stats.add(&outcome.stats);
        solutions = outcome.solutions;
    }
    // A symmetric search only for a first solution, and only where line
    // solving leaves a search to do.
    let symmetries = if solutions.is_empty() {
        crate::symmetry::symmetries(puzzle)
    } else {
        Vec::new()
    };
    // Block places as variables where there are not too many of them; and
    // only where a search is left to do, which line solving (asked only
    // where the answer matters) settles.
    let order_variables = crate::order::variables(puzzle);
    let order = order_variables <= crate::order::ORDER_VARS_MAX;
    if !dfs_first && (order || !symmetries.is_empty()) {
        // Where line solving alone settles the puzzle, that is the answer
        // (the depth-first search above would have given it): a search
        // would only solve the same lines again, half of a line-solvable
        // random 200×200's time.
        let mut grid = Grid::new(puzzle);
        let consistent = grid.propagate().is_ok();
        if !consistent || grid.unknown() == 0 {
            stats.add(&grid.stats);
            stats.nodes += 1;
            if consistent {
                solutions.push(grid.filled());
            }
            return SolveOutcome::finish(solutions, want, false, consistent, stats, started);
        }
    }
    if !symmetries.is_empty() {
        let first = symmetric_solution(
            puzzle,
            &symmetries,
            (seed, order),
            cutoff,
            started,
            &mut stats,
        );
        match first {
            Err(Ended::TimedOut) => {
                return SolveOutcome::finish(solutions, want, true, false, stats, started);
            }
            Err(_) => {}
            Ok(first) => {
                cutoff.publish(&first);
                // Its mirror images solve the puzzle too: one that differs
                // is a second solution without a search.
                for symmetry in &symmetries {
                    let image = symmetry.apply(&first);
                    if image != first && !solutions.contains(&image) && puzzle.accepts(&image) {
                        cutoff.publish(&image);
                        solutions.push(image);
                    }
                }
                solutions.insert(0, first);
                solutions.truncate(want);
                if solutions.len() >= want {
                    return SolveOutcome::finish(solutions, want, false, false, stats, started);
                }
            }
        }
    }
    // Building and propagating the block places' clauses costs more than a
    // search that needs a few dozen guesses (webpbn #1611: 18 ms of its
    // 20): the cells alone first, for about as much line work as the block
    // places would cost. A search that outlasts it starts afresh, as it
    // would have without this one; so no puzzle pays much more than twice
    // what the better of the two choices would have cost it.
    let attempt = |block_places: bool,
                   budget: Budget,
                   solutions: &mut Vec<Vec<bool>>,
                   stats: &mut SolveStats| {
        let mut s = Search::new(puzzle, cutoff, block_places);
        s.seed(seed);
        let found_before = solutions.len();
        s.look_beyond(solutions);
        let ended = s.run(want, solutions, budget, started);
        stats.add(&s.stats);
        (ended, s.line_solved && found_before == 0)
    };
    let cells_first = order.then(|| {
        let line_work = CELLS_FIRST_WORK_PER_ORDER_VARIABLE * order_variables as u64;
        attempt(
            false,
            Budget::line_work(line_work),
            &mut solutions,
            &mut stats,
        )
    });
    let (ended, line_solved) = match cells_first {
        Some(outcome) if outcome.0 != Ended::OverBudget => outcome,
        _ => attempt(order, Budget::UNLIMITED, &mut solutions, &mut stats),
    };
    SolveOutcome::finish(
        solutions,
        want,
        ended == Ended::TimedOut,
        line_solved,
        stats,
        started,
    )
}

/// How a [`Search::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ended {
    /// Enough solutions, or none left.
    Finished,
    /// The cutoff struck.
    TimedOut,
    /// The [`Budget`] ran out.
    OverBudget,
}

/// What a [`Search::run`] may spend before it ends with
/// [`Ended::OverBudget`]; both are counted at each conflict.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Conflicts.
    conflicts: u64,
    /// Line work, as the search's `line_solves` counts it: one per line
    /// solved in propagation, and a line's cells per explanation (about
    /// the feasibility checks that shrinking it takes).
    line_work: u64,
}

impl Budget {
    /// No limit but the cutoff's.
    const UNLIMITED: Budget = Budget {
        conflicts: u64::MAX,
        line_work: u64::MAX,
    };

    /// At most `conflicts` conflicts.
    fn conflicts(conflicts: u64) -> Budget {
        Budget {
            conflicts,
            ..Budget::UNLIMITED
        }
    }

    /// At most `line_work` of line work (counted as the field says).
    fn line_work(line_work: u64) -> Budget {
        Budget {
            line_work,
            ..Budget::UNLIMITED
        }
    }
}

/// Nodes of the depth-first search that `cdcl` tries first, on puzzles of
/// at most [`DFS_CELLS`] cells (probing a larger grid at every node costs
/// more than learning does).
const DFS_NODES: u64 = 100;

/// See [`DFS_NODES`].
const DFS_CELLS: usize = 2500;

/// Line work (as [`Budget`] counts it) a search over cells alone may
/// spend per order variable before a search with block places as
/// variables starts instead: about what building and propagating the
/// variable's clauses (ten literals or so) costs. On one dev core, about
/// 0.1-0.15 µs per unit of line work and per literal: webpbn #1611 (20,826
/// order variables) pays 18 ms for its block places and finishes in 16,000
/// units of line work; a random 100×100 at density 0.6 (80,039) pays 0.1 s
/// and finishes in 184,000 (0.03 s), where a budget of 100 conflicts
/// stopped it at 100 of its 102.
const CELLS_FIRST_WORK_PER_ORDER_VARIABLE: u64 = 10;

/// Conflicts a search for a symmetric first solution may take.
const SYMMETRIC_BUDGET: u64 = 20_000;

/// A first solution that every cell's images under the puzzle's most
/// reducing symmetry share, found by a search where each cell is tied to
/// its image (fewer free cells, and every deduction made twice or four
/// times over). Puzzles are mostly drawn symmetric when their clues are,
/// and such a search finds a first solution where the open one wanders:
/// the 40×40 "Knotty" in a second. `Err` when there is none, the budget
/// runs out or the cutoff strikes.
fn symmetric_solution(
    puzzle: &Puzzle,
    symmetries: &[crate::symmetry::Symmetry],
    (seed, order): (u64, bool),
    cutoff: Cutoff,
    started: Instant,
    stats: &mut SolveStats,
) -> Result<Vec<bool>, Ended> {
    let Some(tightest) = symmetries.iter().min_by_key(|s| s.orbits()) else {
        return Err(Ended::Finished);
    };
    let mut s = Search::new(puzzle, cutoff, order);
    s.seed(seed);
    for (cell, &image) in tightest.image.iter().enumerate() {
        if image != cell {
            // Around each orbit: a cell's value passes to its image.
            for value in [FILLED, EMPTY] {
                s.add_clause(vec![lit(image, value), lit(cell, value) ^ 1], false);
            }
        }
    }
    let mut found = Vec::new();
    let ended = s.run(1, &mut found, Budget::conflicts(SYMMETRIC_BUDGET), started);
    stats.add(&s.stats);
    match (ended, found.pop()) {
        (Ended::TimedOut, _) => Err(Ended::TimedOut),
        (_, Some(solution)) => Ok(solution),
        (ended, None) => Err(ended),
    }
}

impl Search<'_, '_> {
    /// Starts the search away from the `solutions` already found: at least
    /// one cell must differ from each, but the guesses lean towards the
    /// last, since a second solution often differs in a few cells.
    fn look_beyond(&mut self, solutions: &[Vec<bool>]) {
        for solution in solutions {
            let blocking = (0..solution.len())
                .map(|cell| lit(cell, if solution[cell] { EMPTY } else { FILLED }))
                .collect();
            self.add_clause(blocking, false);
            for (cell, &filled) in solution.iter().enumerate() {
                self.phase[cell] = if filled { FILLED } else { EMPTY };
            }
            self.order
                .phases_from(self.puzzle, solution, &mut self.phase);
        }
    }

    /// A `seed` other than 0 starts from random guess activities and
    /// phases; then fills the guess heap.
    fn seed(&mut self, seed: u64) {
        if seed != 0 {
            let mut rng = frontier_core::rng::SplitMix64::new(seed);
            for cell in 0..self.value.len() {
                self.activity[cell] = rng.unit() * 1e-3;
                self.phase[cell] = if rng.below(2) == 0 { EMPTY } else { FILLED };
            }
        }
        for cell in 0..self.value.len() {
            self.heap.insert(cell, &self.activity);
        }
    }

    /// Searches until `solutions` holds `want`, none is left, the cutoff
    /// strikes or the `budget` is spent.
    fn run(
        &mut self,
        want: usize,
        solutions: &mut Vec<Vec<bool>>,
        budget: Budget,
        started: Instant,
    ) -> Ended {
        let s = self;
        let cutoff = s.cutoff;
        let mut first_pass = true;
        // Until a first solution the search is stable: it follows target
        // phases and restarts less often, and every so often rephases. Over
        // six seeds of the ICGA 2016 puzzles with several solutions, the
        // runs took a fifth of the time, and faase got its first verdicts
        // (docs/RESULTS.md). Once a solution is found, what is left is
        // mostly a proof that no other exists, where the focused search
        // (saved phases, frequent restarts) was a sixth faster on dom-14.
        s.stable = solutions.is_empty();
        let restart_unit = |stable: bool| {
            if stable {
                STABLE_RESTART_UNIT
            } else {
                FOCUSED_RESTART_UNIT
            }
        };
        let (mut rephases, mut rephase_at) = (0, REPHASE_UNIT);
        let mut restart_at = restart_unit(s.stable) * luby(0);
        let mut restarts = 0;
        let mut since_restart = 0u64;
        let mut max_learnts = (s.cells / 3).max(2000) as f64;
        let mut probes_done = 0;
        loop {
            if let Err(conflict) = s.propagate() {
                since_restart += 1;
                if !s.learn(conflict) {
                    return Ended::Finished;
                }
                if s.conflicts.is_multiple_of(256) && cutoff.reached() {
                    return Ended::TimedOut;
                }
                if s.conflicts >= budget.conflicts || s.stats.line_solves >= budget.line_work {
                    return Ended::OverBudget;
                }
                continue;
            }
            if s.out_of_time {
                return Ended::TimedOut;
            }
            if first_pass {
                first_pass = false;
                s.line_solved = s.unknown_cells == 0;
            }
            s.stats.nodes += 1;
            let probe_due = PROBE_AFTER
                .get(probes_done)
                .is_some_and(|&after| s.conflicts >= after);
            // The first probing does not wait for a restart: a stable search
            // restarts only after a thousand conflicts, and the puzzles that
            // probing settles (the upscaled tiger) should not pay them.
            if since_restart >= restart_at || (probe_due && probes_done == 0) {
                restarts += 1;
                since_restart = 0;
                restart_at = restart_unit(s.stable) * luby(restarts);
                s.undo_to_level(0);
                if s.stable && s.conflicts >= rephase_at {
                    rephases += 1;
                    rephase_at = s.conflicts + REPHASE_UNIT * (rephases + 1);
                    s.rephase(rephases);
                }
                if probe_due {
                    // A puzzle that resists learning: probing (both values of
                    // every cell next to known ones) may settle it without a
                    // guess, as it does the upscaled tiger and sun (where a
                    // guess costs thousands of conflicts on lines of hundreds
                    // of cells). Not before 100 conflicts: probing a huge
                    // puzzle that a few guesses settle costs more than they do.
                    probes_done += 1;
                    let per_conflict = started.elapsed().as_secs_f64() / s.conflicts as f64;
                    if !s.probe_at_root(per_conflict) {
                        return Ended::Finished;
                    }
                }
                continue;
            }
            if s.learnts as f64 > max_learnts + s.trail.len() as f64 {
                s.reduce_learnts();
                max_learnts *= 1.1;
            }
            let next = if s.unknown_cells == 0 {
                None
            } else {
                s.decide()
            };
            match next {
                Some(cell) => {
                    if s.stats.nodes.is_multiple_of(1024) && cutoff.reached() {
                        return Ended::TimedOut;
                    }
                    s.levels.push(s.trail.len());
                    let phase = match s.target[cell] {
                        target if s.stable && target != UNKNOWN => target,
                        _ => s.phase[cell],
                    };
                    s.assign(cell, phase, Reason::Decision);
                }
                None => {
                    // Every cell is set and every line was checked by the line
                    // solver when it was last touched.
                    let solution: Vec<bool> =
                        s.value[..s.cells].iter().map(|&v| v == FILLED).collect();
                    cutoff.publish(&solution);
                    let blocking = s.blocking_clause(&solution);
                    solutions.push(solution);
                    if s.stable {
                        s.stable = false;
                        (restarts, since_restart) = (0, 0);
                        restart_at = restart_unit(false);
                    }
                    if solutions.len() >= want {
                        return Ended::Finished;
                    }
                    if blocking.is_empty() {
                        return Ended::Finished;
                    }
                    let ci = s.add_clause(blocking, false);
                    if !s.learn(Conflict::Clause(ci)) {
                        return Ended::Finished;
                    }
                }
            }
        }
    }
}

/// Conflicts between restarts before a first solution, times Luby's
/// sequence (Kissat's stable mode restarts as rarely). On faase, 16 seeded
/// runs of 300 s found its solutions in 3 to 5 runs with 1,024 (with and
/// without the early restart for probing), in 1 with 256 (docs/RESULTS.md).
const STABLE_RESTART_UNIT: u64 = 1024;

/// Conflicts between restarts after a first solution, times Luby's
/// sequence.
const FOCUSED_RESTART_UNIT: u64 = 100;

/// Conflicts before the first rephasing; the `k`th comes `k + 1` times
/// as many conflicts after the one before.
const REPHASE_UNIT: u64 = 1000;

/// Conflicts after which a restart probes the root: early, and once more
/// when the facts learned since may let probing fix more.
const PROBE_AFTER: [u64; 2] = [100, 2000];

impl Search<'_, '_> {
    /// The clause that rules out `solution`, just found: "not all of
    /// these guesses" (no other solution can agree with all of them, since
    /// they imply its cells). Unless a guess was a block place that the
    /// solution's cells contradict (propagation need not notice): then the
    /// same cells could come back under the true place, and the clause is
    /// "not all of these cells" (a safeguard: the brute-force counts of
    /// the tests never needed it).
    fn blocking_clause(&self, solution: &[bool]) -> Vec<Lit> {
        let guesses = self.levels.iter().rev().map(|&at| self.trail[at] as usize);
        let truthful = self.order.blocks.is_empty() || {
            let starts = crate::order::block_starts(self.puzzle, solution);
            guesses.clone().all(|var| {
                var < self.cells || self.order.value_at(&starts, var) == Some(self.value[var])
            })
        };
        if truthful {
            return guesses.map(|var| lit(var, self.value[var]) ^ 1).collect();
        }
        let mut cells: Vec<usize> = (0..self.cells).filter(|&c| self.level[c] > 0).collect();
        // Latest levels first: the first two literals are watched.
        cells.sort_by_key(|&c| std::cmp::Reverse(self.level[c]));
        cells
            .into_iter()
            .map(|c| lit(c, self.value[c]) ^ 1)
            .collect()
    }

    /// Probes at level 0 and keeps every cell probing fixes as a level-0
    /// fact: each holds in every solution that the clues and the facts
    /// already known allow. Returns false when probing finds that none is
    /// left.
    fn probe_at_root(&mut self, max_probe_seconds: f64) -> bool {
        let mut grid = crate::solver::Grid::with_cells(self.puzzle, &self.value[..self.cells]);
        let settled = grid.propagate().is_ok()
            && grid
                .probe_while_fruitful(self.cutoff, 0.1, max_probe_seconds)
                .is_ok();
        self.stats.add(&grid.stats);
        if !settled {
            return false;
        }
        for cell in 0..self.cells {
            if self.value[cell] == UNKNOWN && grid.cells[cell] != UNKNOWN {
                self.assign(cell, grid.cells[cell], Reason::Decision);
            }
        }
        true
    }
}

/// A binary max-heap of cells by activity, with positions for updates.
struct Heap {
    items: Vec<usize>,
    index: Vec<usize>,
}

const ABSENT: usize = usize::MAX;

impl Heap {
    fn new(cells: usize) -> Heap {
        Heap {
            items: Vec::with_capacity(cells),
            index: vec![ABSENT; cells],
        }
    }

    fn insert(&mut self, cell: usize, activity: &[f64]) {
        if self.index[cell] != ABSENT {
            return;
        }
        self.index[cell] = self.items.len();
        self.items.push(cell);
        self.up(self.items.len() - 1, activity);
    }

    fn increased(&mut self, cell: usize, activity: &[f64]) {
        if self.index[cell] != ABSENT {
            self.up(self.index[cell], activity);
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop()?;
        self.index[top] = ABSENT;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.index[last] = 0;
            self.down(0, activity);
        }
        Some(top)
    }

    fn up(&mut self, mut at: usize, activity: &[f64]) {
        let cell = self.items[at];
        while at > 0 {
            let parent = (at - 1) / 2;
            if activity[self.items[parent]] >= activity[cell] {
                break;
            }
            self.items[at] = self.items[parent];
            self.index[self.items[at]] = at;
            at = parent;
        }
        self.items[at] = cell;
        self.index[cell] = at;
    }

    fn down(&mut self, mut at: usize, activity: &[f64]) {
        let cell = self.items[at];
        loop {
            let left = 2 * at + 1;
            if left >= self.items.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.items.len()
                && activity[self.items[right]] > activity[self.items[left]]
            {
                right
            } else {
                left
            };
            if activity[self.items[child]] <= activity[cell] {
                break;
            }
            self.items[at] = self.items[child];
            self.index[self.items[at]] = at;
            at = child;
        }
        self.items[at] = cell;
        self.index[cell] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Puzzles too large for the opening depth-first search that line
    /// solving settles get their answer from it alone, without a search:
    /// the one solution, or none where the clues contradict.
    #[test]
    fn line_solving_alone_answers_large_puzzles_it_settles() {
        let side = 60;
        assert!(side * side > DFS_CELLS);
        // Empty cells on the diagonal, but for the corners: each line is
        // full, or full but for one cell inside it, so each solves alone.
        let grid: Vec<bool> = (0..side * side)
            .map(|c| c / side != c % side || c % (side * side - 1) == 0)
            .collect();
        let mut puzzle = Puzzle::from_grid(side, side, &grid).expect("a square grid");
        let options = SolveOptions {
            max_solutions: 2,
            probing: false,
            max_seconds: None,
        };
        let outcome = solve_cdcl(&puzzle, &options);
        assert_eq!(outcome.verdict, crate::Verdict::Unique);
        assert_eq!(outcome.solutions, vec![grid]);
        assert!(outcome.line_solved);
        assert_eq!(outcome.stats.nodes, 1);
        // A full second column, against the second row's empty second cell.
        puzzle.cols[1] = vec![side as u32];
        let outcome = solve_cdcl(&puzzle, &options);
        assert_eq!(outcome.verdict, crate::Verdict::None);
        assert!(outcome.solutions.is_empty() && !outcome.line_solved);
    }

    /// Dropping runs at once keeps exactly what asking item by item keeps,
    /// for implications that survive dropping part of what they survive
    /// dropping whole — and asks fewer questions when most items go.
    #[test]
    fn dropping_in_runs_equals_dropping_one_by_one() {
        let mut rng = frontier_core::rng::SplitMix64::new(19);
        let (mut all_questions, mut all_items) = (0, 0);
        for _ in 0..500 {
            let n = 1 + rng.below(40) as usize;
            // Holds while the kept items include two of `pairs` or all of
            // `needed`: monotone, and the answer depends on the order.
            let pairs: Vec<usize> = (0..n).filter(|_| rng.below(4) == 0).collect();
            let needed: Vec<usize> = (0..n).filter(|_| rng.below(6) == 0).collect();
            let holds = |kept: &[bool]| {
                pairs.iter().filter(|&&i| kept[i]).count() >= 2 || needed.iter().all(|&i| kept[i])
            };
            let mut kept = vec![true; n];
            let mut one_by_one = Vec::new();
            for i in 0..n {
                kept[i] = false;
                if !holds(&kept) {
                    kept[i] = true;
                    one_by_one.push(i);
                }
            }
            let mut kept = vec![true; n];
            let mut items: Vec<usize> = (0..n).collect();
            let mut questions = 0;
            drop_in_runs(&mut items, |run| {
                questions += 1;
                run.iter().for_each(|&i| kept[i] = false);
                let still = holds(&kept);
                if !still {
                    run.iter().for_each(|&i| kept[i] = true);
                }
                still
            });
            assert_eq!(items, one_by_one, "pairs {pairs:?} needed {needed:?}");
            if one_by_one.is_empty() {
                let doublings = usize::BITS - n.leading_zeros();
                assert!(questions <= doublings as usize, "{questions} for {n} items");
            }
            (all_questions, all_items) = (all_questions + questions, all_items + n);
        }
        assert!(
            all_questions * 4 < all_items * 3,
            "{all_questions} for {all_items}"
        );
    }

    /// Both searches, over cells alone and with block places too, count
    /// like brute force. `solve_cdcl` starts the second only once the
    /// first has spent its budget, which small puzzles never do, so the
    /// counts of the public solvers do not reach it.
    #[test]
    fn searches_with_and_without_block_places_count_like_brute_force() {
        let mut rng = frontier_core::rng::SplitMix64::new(31);
        let mut counts = [0; 3];
        for round in 0..90 {
            let (w, h) = [(4, 4), (3, 5), (5, 3)][round % 3];
            let mut grid = || -> Vec<bool> { (0..w * h).map(|_| rng.below(2) == 0).collect() };
            let mut puzzle = Puzzle::from_grid(w, h, &grid()).expect("a small grid");
            if round % 3 == 2 {
                // Another grid's first row: often no solution at all.
                let other = Puzzle::from_grid(w, h, &grid()).expect("a small grid");
                puzzle.rows[0] = other.rows[0].clone();
            }
            let truth = (0u32..1 << (w * h))
                .filter(|bits| {
                    let cells: Vec<bool> = (0..w * h).map(|c| bits >> c & 1 == 1).collect();
                    puzzle.accepts(&cells)
                })
                .count();
            counts[truth.min(2)] += 1;
            for block_places in [false, true] {
                for seed in [0, 5] {
                    let mut search = Search::new(&puzzle, Cutoff::at(None), block_places);
                    search.seed(seed);
                    let mut found = Vec::new();
                    let ended = search.run(3, &mut found, Budget::UNLIMITED, Instant::now());
                    let what = format!("{puzzle:?}, block places {block_places}, seed {seed}");
                    assert_eq!(ended, Ended::Finished, "{what}");
                    assert_eq!(found.len(), truth.min(3), "{what}");
                    assert!(found.iter().all(|grid| puzzle.accepts(grid)), "{what}");
                    found.sort();
                    found.dedup();
                    assert_eq!(found.len(), truth.min(3), "{what}: repeated");
                }
            }
        }
        // Every verdict came up.
        assert!(counts.iter().all(|&n| n >= 5), "{counts:?}");
    }

    /// Compacting the clause arena keeps every live clause's literals and
    /// every watch list's order, less the deleted clauses.
    #[test]
    fn compacting_the_arena_keeps_live_clauses_and_watch_order() {
        // A full grid: its blocks have one place each, so the search starts
        // without clauses (the order encoding's are units, set at once).
        let puzzle = Puzzle::from_grid(6, 6, &[true; 36]).expect("a 6x6 grid");
        let mut search = Search::new(&puzzle, Cutoff::at(None), true);
        assert!(search.clauses.is_empty());
        // Clauses of 2 to 5 literals over the 36 cells.
        let clause =
            |k: u32| -> Vec<Lit> { (0..2 + k % 4).map(|j| (k * 7 + j * 11) % 72).collect() };
        for k in 0..40 {
            search.add_clause(clause(k), true);
        }
        let watched = |search: &Search| -> Vec<Vec<u32>> {
            search
                .watches
                .iter()
                .map(|list| {
                    list.iter()
                        .map(|&at| search.arena[at as usize])
                        .filter(|head| head & DELETED == 0)
                        .collect()
                })
                .collect()
        };
        let before = watched(&search);
        for ci in (0..40).filter(|ci| ci % 3 != 1) {
            let at = search.clauses[ci].at as usize;
            search.clauses[ci].deleted = true;
            search.arena[at] |= DELETED;
        }
        let live_before = watched(&search);
        let arena_before = search.arena.len();
        search.compact_arena();
        assert!(search.arena.len() < arena_before / 2);
        for ci in (0..40u32).filter(|ci| ci % 3 == 1) {
            assert_eq!(search.clause_lits(ci), clause(ci).as_slice(), "clause {ci}");
        }
        // Every watcher left is live, in the order it had.
        assert_eq!(watched(&search), live_before);
        let total: usize = search.watches.iter().map(Vec::len).sum();
        assert_eq!(total, live_before.iter().map(Vec::len).sum::<usize>());
        assert!(before.iter().map(Vec::len).sum::<usize>() > total);
        // A second round: the clauses dropped by the first are gone from
        // the arena (their offsets now lie in other records), yet stay
        // deleted.
        for ci in (0..40).filter(|ci| ci % 9 == 1) {
            let at = search.clauses[ci].at as usize;
            search.clauses[ci].deleted = true;
            search.arena[at] |= DELETED;
        }
        let live_before = watched(&search);
        search.compact_arena();
        for ci in (0..40u32).filter(|ci| ci % 3 == 1 && ci % 9 != 1) {
            assert_eq!(search.clause_lits(ci), clause(ci).as_slice(), "clause {ci}");
        }
        assert_eq!(watched(&search), live_before);
    }
}
