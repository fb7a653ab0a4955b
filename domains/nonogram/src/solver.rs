//! Propagation, probing and guess-and-propagate search on one grid.
//!
//! [`Grid`] holds the cells and a trail of assignments, so a search undoes a
//! guess by popping the trail instead of copying the grid. Propagation
//! re-solves only lines that contain a changed cell (a queue of dirty
//! lines). Probing tries both values of a cell: a value that leads to a
//! contradiction fixes the cell to the other one (learning from the
//! contradiction), and cells that come out the same in both branches are
//! fixed outright.

use std::time::Instant;

use crate::line::{Contradiction, GridLines, LineCache, LineQueue, EMPTY, FILLED, UNKNOWN};
use crate::puzzle::Puzzle;

/// Counters of a solve.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolveStats {
    /// Lines solved by the line solver.
    pub line_solves: u64,
    /// Long lines solved first by the quick solver (`crate::overlap`).
    pub quick_line_solves: u64,
    /// Line states answered from the line cache instead of solved.
    pub line_cache_hits: u64,
    /// Cells probed (both values tried).
    pub probes: u64,
    /// Cells fixed by probing.
    pub probe_fixed: u64,
    /// Search nodes (grids after propagation) visited.
    pub nodes: u64,
    /// Guesses undone because they led to a contradiction.
    pub dead_ends: u64,
    /// Wall seconds.
    pub seconds: f64,
}

impl SolveStats {
    /// Adds another solve's counters (not its seconds): a portfolio's
    /// racers, or a probing grid inside `cdcl`.
    pub fn add(&mut self, other: &SolveStats) {
        self.line_solves += other.line_solves;
        self.quick_line_solves += other.quick_line_solves;
        self.line_cache_hits += other.line_cache_hits;
        self.probes += other.probes;
        self.probe_fixed += other.probe_fixed;
        self.nodes += other.nodes;
        self.dead_ends += other.dead_ends;
    }
}

/// When a search must stop: at a deadline, or when the portfolio it runs
/// in has its answer (see [`crate::portfolio`]).
#[derive(Clone, Copy, Default)]
pub struct Cutoff<'r> {
    deadline: Option<Instant>,
    race: Option<&'r crate::portfolio::Race>,
}

impl<'r> Cutoff<'r> {
    /// Stop at `deadline`, if any.
    pub fn at(deadline: Option<Instant>) -> Cutoff<'static> {
        Cutoff {
            deadline,
            race: None,
        }
    }

    /// Also stop when `race` is over.
    pub fn or_race(self, race: Option<&'r crate::portfolio::Race>) -> Cutoff<'r> {
        Cutoff {
            deadline: self.deadline,
            race,
        }
    }

    /// Whether the search must stop now.
    pub fn reached(&self) -> bool {
        self.race.is_some_and(|r| r.is_over()) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Hands a solution to the race, if any.
    pub fn publish(&self, solution: &[bool]) {
        if let Some(race) = self.race {
            race.publish(solution);
        }
    }
}

/// A grid being solved: cells, trail and the propagation queue.
pub struct Grid<'p> {
    puzzle: &'p Puzzle,
    /// Row-major cells: UNKNOWN, FILLED or EMPTY (read them; set them with
    /// [`Grid::assign`], which keeps `lines` in step).
    pub cells: Vec<u8>,
    lines: GridLines,
    changes: Vec<(usize, u8)>,
    trail: Vec<u32>,
    /// Lines to re-solve, first in first out (see `cdcl`).
    queue: LineQueue,
    unknown: usize,
    /// Propagation stops here, unfinished (only while probing within a
    /// budget: see [`Grid::probe_while_fruitful`]).
    stop_at: Option<Instant>,
    solves_since_clock: u32,
    interrupted: bool,
    /// Counters.
    pub stats: SolveStats,
}

impl<'p> Grid<'p> {
    /// An empty grid with every line queued.
    pub fn new(puzzle: &'p Puzzle) -> Grid<'p> {
        let lines = puzzle.height + puzzle.width;
        Grid {
            puzzle,
            cells: vec![UNKNOWN; puzzle.width * puzzle.height],
            lines: GridLines::new(puzzle.width, puzzle.height, LineCache::default()),
            changes: Vec::new(),
            trail: Vec::new(),
            queue: LineQueue::all(lines),
            stop_at: None,
            solves_since_clock: 0,
            interrupted: false,
            unknown: puzzle.width * puzzle.height,
            stats: SolveStats::default(),
        }
    }

    /// A grid with these cells (a search state), every line queued.
    pub fn with_cells(puzzle: &'p Puzzle, cells: &[u8]) -> Grid<'p> {
        let mut grid = Grid::new(puzzle);
        grid.cells.copy_from_slice(cells);
        for (cell, &value) in cells.iter().enumerate() {
            grid.lines.set(cell, value);
        }
        grid.unknown = cells.iter().filter(|&&c| c == UNKNOWN).count();
        grid
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &'p Puzzle {
        self.puzzle
    }

    /// Cells still unknown.
    pub fn unknown(&self) -> usize {
        self.unknown
    }

    /// Trail length: pass it to [`Grid::undo_to`] to come back here.
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Sets `cell` (must be unknown) and queues its row and column.
    pub fn assign(&mut self, cell: usize, value: u8) {
        self.assign_from(cell, value, usize::MAX);
    }

    /// [`Grid::assign`] for a cell forced by line `by`, which is not queued
    /// again for it (it already knows).
    fn assign_from(&mut self, cell: usize, value: u8, by: usize) {
        debug_assert_eq!(self.cells[cell], UNKNOWN);
        self.cells[cell] = value;
        self.lines.set(cell, value);
        self.trail.push(cell as u32);
        self.unknown -= 1;
        let (r, c) = (cell / self.puzzle.width, cell % self.puzzle.width);
        for line in [r, self.puzzle.height + c] {
            if line != by {
                self.queue.push(line);
            }
        }
    }

    /// Undoes every assignment after `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        for &cell in &self.trail[mark..] {
            self.cells[cell as usize] = UNKNOWN;
            self.lines.set(cell as usize, UNKNOWN);
        }
        self.unknown += self.trail.len() - mark;
        self.trail.truncate(mark);
        self.queue.clear();
    }

    /// Line-solves queued lines until nothing changes.
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            if let Some(stop_at) = self.stop_at {
                self.solves_since_clock += 1;
                if self.solves_since_clock >= 16 {
                    self.solves_since_clock = 0;
                    if Instant::now() >= stop_at {
                        self.interrupted = true;
                        self.queue.clear();
                        return Ok(());
                    }
                }
            }
            let mut changes = std::mem::take(&mut self.changes);
            let Some((line, solved)) =
                self.lines
                    .solve_next(&mut self.queue, self.puzzle, &mut self.stats, &mut changes)
            else {
                self.changes = changes;
                return Ok(());
            };
            if let Err(e) = solved {
                self.changes = changes;
                self.queue.clear();
                return Err(e);
            }
            let (_, start, step, _) = self.puzzle.line(line);
            for &(i, value) in &changes {
                self.assign_from(start + i * step, value, line);
            }
            self.changes = changes;
        }
    }

    /// Probes unknown cells next to known ones until a round fixes nothing.
    /// Returns the cell whose weaker branch fixed the most cells (the best
    /// guess), or `None` when the grid is complete.
    ///
    /// Within a round, the unknown neighbours of the cells a probe fixes are
    /// probed next: fixes come in chains (one fix lets its neighbour be
    /// fixed), and following the chain reaches its end within the round
    /// instead of one link per round.
    pub fn probe(&mut self, cutoff: Cutoff) -> Result<Option<(usize, u8)>, Contradiction> {
        self.probe_yielding(cutoff, 0.0, f64::INFINITY)
    }

    /// [`Grid::probe`] that gives up (keeping what it fixed) once it does
    /// not pay: once fewer than `min_yield` of its probes fixed something,
    /// (checked from the 16th probe on), or once its probes take more than
    /// `max_probe_seconds` each on average, counting 16 probes of grace (a
    /// probe that would overrun is cut short and gives nothing). On a huge grid that a few guesses
    /// settle (a random 1000×1000) one probe cascades over the whole grid
    /// and costs more than a dozen conflicts, while where probing pays (the
    /// upscaled tiger and sun) two probes in five fix cells and a probe
    /// costs a fraction of a conflict. What it returns then is no guess
    /// advice.
    pub fn probe_while_fruitful(
        &mut self,
        cutoff: Cutoff,
        min_yield: f64,
        max_probe_seconds: f64,
    ) -> Result<(), Contradiction> {
        self.probe_yielding(cutoff, min_yield, max_probe_seconds)
            .map(|_| ())
    }

    fn probe_yielding(
        &mut self,
        cutoff: Cutoff,
        min_yield: f64,
        max_probe_seconds: f64,
    ) -> Result<Option<(usize, u8)>, Contradiction> {
        // Probes meet the same line states over and over, which the line
        // cache answers exactly: quick solves first would only add work
        // (the upscaled sun took 4.3 s with them, 1.2 s without).
        let quick_first = self.queue.set_quick_first(false);
        let outcome = self.probe_rounds(cutoff, min_yield, max_probe_seconds);
        self.queue.set_quick_first(quick_first);
        outcome
    }

    /// [`Grid::probe_yielding`]'s rounds.
    fn probe_rounds(
        &mut self,
        cutoff: Cutoff,
        min_yield: f64,
        max_probe_seconds: f64,
    ) -> Result<Option<(usize, u8)>, Contradiction> {
        let n = self.cells.len();
        let (probes_before, fixed_before) = (self.stats.probes, self.stats.probe_fixed);
        let started = Instant::now();
        let fruitless = |stats: &SolveStats| {
            let probes = (stats.probes - probes_before) as f64;
            probes >= 16.0 && ((stats.probe_fixed - fixed_before) as f64) < min_yield * probes
        };
        let mut seen_value = vec![UNKNOWN; n];
        let mut pending = std::collections::VecDeque::new();
        let mut is_pending = vec![false; n];
        let mut best: Option<(usize, usize, u8)>;
        loop {
            let mut progress = false;
            best = None;
            pending.extend((0..n).filter(|&c| self.cells[c] == UNKNOWN && self.near_known(c)));
            for &cell in &pending {
                is_pending[cell] = true;
            }
            while let Some(cell) = pending.pop_front() {
                is_pending[cell] = false;
                if self.cells[cell] != UNKNOWN {
                    continue;
                }
                // A fix whose propagation ran out of budget ends probing too.
                if cutoff.reached() || fruitless(&self.stats) || self.interrupted {
                    break;
                }
                self.stats.probes += 1;
                if max_probe_seconds.is_finite() {
                    // Probes so far and this one share the budget: a probe
                    // may use what earlier ones saved. The first ones also
                    // pay for scanning the grid and a cold line cache (on
                    // the tiger the scan alone took half a conflict's time),
                    // so the budget starts PROBE_GRACE probes ahead.
                    let probes = (self.stats.probes - probes_before) as f64 + PROBE_GRACE;
                    let budget = max_probe_seconds * probes;
                    self.stop_at = frontier_core::search::deadline_after(started, budget);
                }
                let mark = self.mark();
                // Branch FILLED.
                self.assign(cell, FILLED);
                let filled = self.propagate();
                if self.interrupted {
                    self.undo_to(mark);
                    break;
                }
                let fixed = if filled.is_err() {
                    self.undo_to(mark);
                    self.assign(cell, EMPTY);
                    self.stats.probe_fixed += 1;
                    self.propagate()?;
                    true
                } else {
                    let filled_count = self.trail.len() - mark;
                    for &c in &self.trail[mark..] {
                        seen_value[c as usize] = self.cells[c as usize];
                    }
                    let filled_trail: Vec<u32> = self.trail[mark..].to_vec();
                    self.undo_to(mark);
                    // Branch EMPTY.
                    self.assign(cell, EMPTY);
                    let empty = self.propagate();
                    if self.interrupted {
                        self.undo_to(mark);
                        break;
                    }
                    let empty_count = self.trail.len() - mark;
                    let agreed: Vec<(u32, u8)> = if empty.is_err() {
                        Vec::new()
                    } else {
                        self.trail[mark..]
                            .iter()
                            .filter(|&&c| seen_value[c as usize] == self.cells[c as usize])
                            .map(|&c| (c, self.cells[c as usize]))
                            .collect()
                    };
                    self.undo_to(mark);
                    for &c in &filled_trail {
                        seen_value[c as usize] = UNKNOWN;
                    }
                    if empty.is_err() {
                        self.assign(cell, FILLED);
                        self.stats.probe_fixed += 1;
                        self.propagate()?;
                        true
                    } else if !agreed.is_empty() {
                        for (c, v) in agreed {
                            if self.cells[c as usize] == UNKNOWN {
                                self.assign(c as usize, v);
                                self.stats.probe_fixed += 1;
                            }
                        }
                        self.propagate()?;
                        true
                    } else {
                        let score = filled_count.min(empty_count);
                        let first = if filled_count >= empty_count {
                            FILLED
                        } else {
                            EMPTY
                        };
                        if best.is_none_or(|b| score > b.1) {
                            best = Some((cell, score, first));
                        }
                        false
                    }
                };
                if fixed {
                    progress = true;
                    for at in (mark..self.trail.len()).rev() {
                        for next in self.neighbours(self.trail[at] as usize) {
                            if self.cells[next] == UNKNOWN && !is_pending[next] {
                                is_pending[next] = true;
                                pending.push_front(next);
                            }
                        }
                    }
                }
            }
            for cell in pending.drain(..) {
                is_pending[cell] = false;
            }
            // An interrupted probe (or a fix whose propagation was cut
            // short: what it fixed still holds) ends probing.
            if !progress || self.unknown == 0 || self.interrupted {
                break;
            }
        }
        self.stop_at = None;
        self.interrupted = false;
        if self.unknown == 0 {
            return Ok(None);
        }
        Ok(Some(match best {
            Some((cell, _, first)) => (cell, first),
            None => (self.fallback_guess(), FILLED),
        }))
    }

    /// The orthogonal neighbours of a cell.
    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (self.puzzle.width, self.puzzle.height);
        let (r, c) = (cell / w, cell % w);
        [
            (r > 0).then(|| cell - w),
            (r + 1 < h).then(|| cell + w),
            (c > 0).then(|| cell - 1),
            (c + 1 < w).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// Whether a cell has a known orthogonal neighbour or lies on the border
    /// (probing elsewhere rarely fixes anything).
    fn near_known(&self, cell: usize) -> bool {
        let mut neighbours = 0;
        for next in self.neighbours(cell) {
            if self.cells[next] != UNKNOWN {
                return true;
            }
            neighbours += 1;
        }
        neighbours < 4
    }

    /// A guess without probing: the first unknown cell of the row with the
    /// fewest unknown cells.
    pub fn fallback_guess(&self) -> usize {
        let w = self.puzzle.width;
        let mut best = (usize::MAX, 0);
        for (r, row) in self.cells.chunks(w).enumerate() {
            let unknown = row.iter().filter(|&&c| c == UNKNOWN).count();
            if unknown > 0 && unknown < best.0 {
                let c = row.iter().position(|&c| c == UNKNOWN).unwrap_or(0);
                best = (unknown, r * w + c);
            }
        }
        best.1
    }

    /// The grid as booleans (`true` = filled); unknown cells read as empty.
    pub fn filled(&self) -> Vec<bool> {
        self.cells.iter().map(|&c| c == FILLED).collect()
    }
}

/// Probes' worth of time a budgeted probing starts with (see
/// [`Grid::probe_while_fruitful`]).
const PROBE_GRACE: f64 = 16.0;

/// What the search concluded about the number of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Exactly one solution (the search was exhaustive).
    Unique,
    /// At least two solutions.
    Multiple,
    /// No solution.
    None,
    /// A limit stopped the search before it could tell.
    Unknown,
}

impl Verdict {
    /// The verdict of a search that found `found` distinct solutions while
    /// looking for up to `wanted`; `cut_short` when a limit ended it.
    pub fn judge(found: usize, wanted: usize, cut_short: bool) -> Verdict {
        match found {
            2.. => Verdict::Multiple,
            _ if cut_short => Verdict::Unknown,
            1 if wanted >= 2 => Verdict::Unique,
            1 => Verdict::Unknown,
            _ => Verdict::None,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::None => "none",
            Verdict::Unknown => "unknown",
        })
    }
}

/// Search settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// Stop after this many solutions (1: first solution; 2: enough for a
    /// uniqueness verdict).
    pub max_solutions: usize,
    /// Probe at every search node.
    pub probing: bool,
    /// Give up after this many seconds.
    pub max_seconds: Option<f64>,
}

impl SolveOptions {
    /// When a search that began at `started` must stop.
    pub fn deadline(&self, started: Instant) -> Option<Instant> {
        self.max_seconds
            .and_then(|s| frontier_core::search::deadline_after(started, s))
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_solutions: 2,
            probing: true,
            max_seconds: None,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct SolveOutcome {
    /// Solutions found (row-major, `true` = filled), at most `max_solutions`.
    pub solutions: Vec<Vec<bool>>,
    /// Unique / multiple / none, or unknown if a limit struck first.
    pub verdict: Verdict,
    /// Whether line solving alone (no probing, no guess) solved it.
    pub line_solved: bool,
    /// Counters.
    pub stats: SolveStats,
}

impl SolveOutcome {
    /// The outcome of a search that found `solutions` looking for up to
    /// `wanted`, `cut_short` by a limit or not, started at `started`.
    pub fn finish(
        solutions: Vec<Vec<bool>>,
        wanted: usize,
        cut_short: bool,
        line_solved: bool,
        mut stats: SolveStats,
        started: Instant,
    ) -> SolveOutcome {
        stats.seconds = started.elapsed().as_secs_f64();
        SolveOutcome {
            verdict: Verdict::judge(solutions.len(), wanted, cut_short),
            solutions,
            line_solved,
            stats,
        }
    }
}

/// Depth-first guess-and-propagate search with probing at every node.
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> SolveOutcome {
    solve_until(puzzle, options, Cutoff::at)
}

/// [`solve`] that also stops at the cutoff `cutoff(deadline)` makes of the
/// options' deadline (a portfolio adds its race).
pub fn solve_until<'r>(
    puzzle: &Puzzle,
    options: &SolveOptions,
    cutoff: impl FnOnce(Option<Instant>) -> Cutoff<'r>,
) -> SolveOutcome {
    let started = Instant::now();
    let cutoff = cutoff(options.deadline(started));
    solve_within(puzzle, options, cutoff, u64::MAX).0
}

/// [`solve_until`] that gives up after `max_nodes` search nodes; also says
/// whether it did (then the verdict is unknown, and the solutions are the
/// ones found so far).
pub fn solve_within(
    puzzle: &Puzzle,
    options: &SolveOptions,
    cutoff: Cutoff,
    max_nodes: u64,
) -> (SolveOutcome, bool) {
    let started = Instant::now();
    let mut grid = Grid::new(puzzle);
    let mut solutions = Vec::new();
    let mut limits = Limits {
        cutoff,
        nodes_left: max_nodes,
        timed_out: false,
        over_budget: false,
    };
    let consistent = grid.propagate().is_ok();
    let line_solved = consistent && grid.unknown() == 0;
    if consistent {
        search(&mut grid, options, &mut limits, &mut solutions);
    }
    let wanted = options.max_solutions.max(1);
    let outcome = SolveOutcome::finish(
        solutions,
        wanted,
        limits.timed_out || limits.over_budget,
        line_solved,
        grid.stats,
        started,
    );
    (outcome, limits.over_budget)
}

/// What stops a depth-first search besides enough solutions.
struct Limits<'r> {
    cutoff: Cutoff<'r>,
    /// Nodes the search may still open.
    nodes_left: u64,
    /// Set when the cutoff struck.
    timed_out: bool,
    /// Set when a node was wanted past the budget.
    over_budget: bool,
}

/// Returns true when the search should stop (enough solutions, time, or
/// nodes).
fn search(
    grid: &mut Grid,
    options: &SolveOptions,
    limits: &mut Limits,
    solutions: &mut Vec<Vec<bool>>,
) -> bool {
    if limits.nodes_left == 0 {
        limits.over_budget = true;
        return true;
    }
    limits.nodes_left -= 1;
    grid.stats.nodes += 1;
    let cutoff = limits.cutoff;
    if cutoff.reached() {
        limits.timed_out = true;
        return true;
    }
    if grid.propagate().is_err() {
        grid.stats.dead_ends += 1;
        return false;
    }
    let guess = if grid.unknown() == 0 {
        None
    } else if options.probing {
        match grid.probe(cutoff) {
            Ok(g) => g,
            Err(Contradiction) => {
                grid.stats.dead_ends += 1;
                return false;
            }
        }
    } else {
        Some((grid.fallback_guess(), FILLED))
    };
    let Some((cell, first)) = guess else {
        let solution = grid.filled();
        cutoff.publish(&solution);
        solutions.push(solution);
        return solutions.len() >= options.max_solutions.max(1);
    };
    for value in [first, if first == FILLED { EMPTY } else { FILLED }] {
        let mark = grid.mark();
        grid.assign(cell, value);
        let stop = search(grid, options, limits, solutions);
        grid.undo_to(mark);
        if stop {
            return true;
        }
    }
    false
}
