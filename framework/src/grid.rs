//! The smallest useful domain: a 4-connected maze with weighted cells.
//!
//! It exists so that every executor and trait has a doc test and a test
//! whose optimal answer can be checked independently (by Dijkstra on the
//! same grid), without depending on any domain plugin.
//!
//! Text format, one line per row: `S` start, `G` goal, `#` wall, `.` a cell
//! that costs 1 to enter, `1`–`9` a cell that costs that much to enter.

use crate::domain::{
    CodecError, Cost, Domain, Edge, Heuristic, InPlace, InPlaceHeuristic, PackedState,
};
use crate::rng::SplitMix64;
use crate::Error;

/// A cell position, row then column.
pub type Cell = (u16, u16);

/// A move of the maze walker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Row − 1.
    Up,
    /// Row + 1.
    Down,
    /// Column − 1.
    Left,
    /// Column + 1.
    Right,
}

/// A parsed maze.
#[derive(Clone, Debug)]
pub struct Grid {
    rows: u16,
    cols: u16,
    /// Cost to enter each cell; `None` for walls.
    enter_cost: Vec<Option<Cost>>,
    /// The same, one byte a cell (0 a wall): the GPU plugin's table.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    cell_bytes: Vec<u8>,
    start: Cell,
    goal: Cell,
}

impl Grid {
    /// The text of a random `rows` × `cols` maze (`rows`, `cols` ≥ 1, at
    /// least two cells): start and goal at the given cells (clamped into
    /// the maze; the goal moved off the start), every other cell a wall
    /// with probability `walls_in_10`/10, else `.` (cost 1) with
    /// probability 4/10, else a cost of 1-9. Seeded, so a failing test's
    /// maze reproduces; [`Grid::parse`] reads it.
    ///
    /// ```
    /// use frontier_core::{grid::Grid, rng::SplitMix64};
    /// let text = Grid::random_text(&mut SplitMix64::new(7), 4, 6, 2, (0, 0), (3, 5));
    /// let grid = Grid::parse(&text).unwrap();
    /// assert_eq!(grid.size(), (4, 6));
    /// ```
    pub fn random_text(
        rng: &mut SplitMix64,
        rows: usize,
        cols: usize,
        walls_in_10: u64,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> String {
        let (rows, cols) = (rows.max(1), cols.max(1).max(3 - rows.min(2)));
        let clamp = |(r, c): (usize, usize)| (r.min(rows - 1), c.min(cols - 1));
        let start = clamp(start);
        let mut goal = clamp(goal);
        if goal == start {
            goal = if start == (0, 0) {
                (rows - 1, cols - 1)
            } else {
                (0, 0)
            };
        }
        let mut text = String::with_capacity(rows * (cols + 1));
        for r in 0..rows {
            for c in 0..cols {
                text.push(match (r, c) {
                    at if at == start => 'S',
                    at if at == goal => 'G',
                    _ => match rng.below(10) {
                        roll if roll < walls_in_10 => '#',
                        roll if roll < walls_in_10 + 4 => '.',
                        _ => char::from(b'1' + rng.below(9) as u8),
                    },
                });
            }
            text.push('\n');
        }
        text
    }

    /// Parses the text format described in the module docs.
    ///
    /// ```
    /// use frontier_core::grid::Grid;
    /// assert!(Grid::parse("S#G").is_ok());
    /// let err = Grid::parse("S.x\n..G").unwrap_err();
    /// assert_eq!(err.to_string(), "grid line 1, column 3: unexpected 'x' (use S G # . or 1-9)");
    /// ```
    pub fn parse(text: &str) -> Result<Grid, Error> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        let bad = |line: usize, column: usize, message: String| Error::Grid {
            line,
            column,
            message,
        };
        let cols = lines.first().map_or(0, |l| l.chars().count());
        if lines.is_empty() || cols == 0 {
            return Err(Error::GridWhole("empty".into()));
        }
        if lines.len() > usize::from(u16::MAX) || cols > usize::from(u16::MAX) {
            return Err(Error::GridWhole("larger than 65535 cells a side".into()));
        }
        let mut enter_cost = Vec::with_capacity(lines.len() * cols);
        let (mut start, mut goal) = (None, None);
        for (r, line) in lines.iter().enumerate() {
            if line.chars().count() != cols {
                return Err(bad(
                    r + 1,
                    1,
                    format!(
                        "row has {} cells, the first row has {cols}",
                        line.chars().count()
                    ),
                ));
            }
            for (c, ch) in line.chars().enumerate() {
                let here = (r as u16, c as u16);
                let cost = match ch {
                    '#' => None,
                    '.' => Some(1),
                    'S' if start.is_none() => {
                        start = Some(here);
                        Some(1)
                    }
                    'G' if goal.is_none() => {
                        goal = Some(here);
                        Some(1)
                    }
                    'S' | 'G' => return Err(bad(r + 1, c + 1, format!("a second '{ch}'"))),
                    '1'..='9' => Some(Cost::from(ch as u8 - b'0')),
                    _ => {
                        return Err(bad(
                            r + 1,
                            c + 1,
                            format!("unexpected '{ch}' (use S G # . or 1-9)"),
                        ))
                    }
                };
                enter_cost.push(cost);
            }
        }
        let start = start.ok_or_else(|| Error::GridWhole("no start cell 'S'".into()))?;
        let goal = goal.ok_or_else(|| Error::GridWhole("no goal cell 'G'".into()))?;
        // Entry costs are 1 to 9 (parsed from one digit), so a byte holds one.
        let cell_bytes = enter_cost
            .iter()
            .map(|c| c.map_or(0, |c| c as u8))
            .collect();
        Ok(Grid {
            rows: lines.len() as u16,
            cols: cols as u16,
            enter_cost,
            cell_bytes,
            start,
            goal,
        })
    }

    /// The goal cell.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// Rows and columns.
    pub fn size(&self) -> (u16, u16) {
        (self.rows, self.cols)
    }

    /// Cost to enter `cell`, `None` for walls and cells off the grid.
    pub fn enter_cost(&self, cell: Cell) -> Option<Cost> {
        if cell.0 >= self.rows || cell.1 >= self.cols {
            return None;
        }
        self.enter_cost[usize::from(cell.0) * usize::from(self.cols) + usize::from(cell.1)]
    }

    /// Applies `step` to `cell`, if that stays on a free cell.
    pub fn step(&self, (r, c): Cell, step: Step) -> Option<Cell> {
        let next = match step {
            Step::Up => (r.checked_sub(1)?, c),
            Step::Down => (r.checked_add(1)?, c),
            Step::Left => (r, c.checked_sub(1)?),
            Step::Right => (r, c.checked_add(1)?),
        };
        self.enter_cost(next).map(|_| next)
    }
}

impl Domain for Grid {
    type State = Cell;
    type Move = Step;

    fn start(&self) -> Cell {
        self.start
    }

    fn expand(&self, &cell: &Cell, out: &mut Vec<Edge<Cell, Step>>) {
        for step in [Step::Up, Step::Down, Step::Left, Step::Right] {
            if let Some(next) = self.step(cell, step) {
                // Cannot be None: `step` only returns free cells.
                let cost = self.enter_cost(next).unwrap_or(1);
                out.push(Edge {
                    state: next,
                    mv: step,
                    cost,
                });
            }
        }
    }

    fn is_goal(&self, cell: &Cell) -> bool {
        *cell == self.goal
    }

    /// Manhattan distance: every step moves one row or column and costs
    /// at least 1.
    fn estimate_between(&self, &(r, c): &Cell, &(tr, tc): &Cell) -> Option<Cost> {
        Some(Cost::from(r.abs_diff(tr)) + Cost::from(c.abs_diff(tc)))
    }
}

/// The states of `moves` (letters U, D, L, R, one step each) from the
/// grid's start; for tests of what is done with a path.
#[cfg(test)]
pub(crate) fn states_of(grid: &Grid, moves: &str) -> Vec<Cell> {
    let mut states = vec![grid.start()];
    let mut edges = Vec::new();
    for m in moves.chars() {
        edges.clear();
        // Some: the path starts with the start state.
        grid.expand(states.last().unwrap(), &mut edges);
        let next = edges
            .iter()
            .find(|e| format!("{:?}", e.mv).starts_with(m))
            .unwrap_or_else(|| panic!("no move {m}"))
            .state;
        states.push(next);
    }
    states
}

/// The maze's moves in place, for [`crate::search::ida::ida_in_place`]: a
/// step moves the one cell; the step back is left out, as IDA*'s `expand`
/// path leaves out the parent.
impl InPlace for Grid {
    type Op = Step;

    fn ops(&self, &cell: &Cell, last: Option<Step>, out: &mut Vec<Step>) {
        let back = last.map(|s| match s {
            Step::Up => Step::Down,
            Step::Down => Step::Up,
            Step::Left => Step::Right,
            Step::Right => Step::Left,
        });
        for step in [Step::Up, Step::Down, Step::Left, Step::Right] {
            if Some(step) != back && self.step(cell, step).is_some() {
                out.push(step);
            }
        }
    }

    fn apply(&self, cell: &mut Cell, step: Step) -> Cost {
        // `ops` listed only steps onto free cells.
        if let Some(next) = self.step(*cell, step) {
            *cell = next;
        }
        self.enter_cost(*cell).unwrap_or(1)
    }

    fn undo(&self, cell: &mut Cell, step: Step) {
        let (r, c) = *cell;
        *cell = match step {
            Step::Up => (r + 1, c),
            Step::Down => (r - 1, c),
            Step::Left => (r, c + 1),
            Step::Right => (r, c - 1),
        };
    }

    fn move_of(&self, step: Step) -> Step {
        step
    }

    /// Up, down, left, right.
    fn op_count(&self) -> usize {
        4
    }

    fn op_index(&self, step: Step) -> usize {
        step as usize
    }

    /// One context per cell (walls included, never entered): a state is
    /// its cell.
    fn context_count(&self) -> usize {
        usize::from(self.rows) * usize::from(self.cols)
    }

    fn context(&self, &(r, c): &Cell) -> usize {
        usize::from(r) * usize::from(self.cols) + usize::from(c)
    }

    fn witness(&self, context: usize) -> Option<Cell> {
        let cols = usize::from(self.cols);
        Some((
            u16::try_from(context / cols).ok()?,
            u16::try_from(context % cols).ok()?,
        ))
    }
}

/// Manhattan distance is cheap enough to take afresh: no detail.
impl InPlaceHeuristic<Grid> for Manhattan {
    type Detail = ();

    fn root(&self, grid: &Grid, cell: &Cell, _: &mut ()) -> Cost {
        self.h(grid, cell)
    }

    fn after(&self, grid: &Grid, cell: &Cell, _: Step, _: &(), _: Cost, _: &mut ()) -> Cost {
        self.h(grid, cell)
    }
}

/// A cell packs into one word, row in the high half: mazes travel between
/// the processes of `mpi-hda` like any other domain's states.
impl PackedState for Grid {
    fn packed_words(&self) -> usize {
        1
    }

    fn pack(&self, &(row, col): &Cell, out: &mut [u32]) {
        out[0] = (u32::from(row) << 16) | u32::from(col);
    }

    fn unpack(&self, words: &[u32]) -> Result<Cell, CodecError> {
        let [word] = words else {
            return Err(CodecError::Length {
                expected: 1,
                got: words.len(),
            });
        };
        let cell = ((word >> 16) as u16, (word & 0xFFFF) as u16);
        match self.enter_cost(cell) {
            Some(_) => Ok(cell),
            None => Err(CodecError::Invalid(format!(
                "cell ({}, {}) is a wall or off the {}x{} maze",
                cell.0, cell.1, self.rows, self.cols
            ))),
        }
    }
}

/// Manhattan distance to the goal: admissible and consistent because every
/// cell costs at least 1 to enter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Manhattan;

impl Heuristic<Grid> for Manhattan {
    fn h(&self, grid: &Grid, &(r, c): &Cell) -> Cost {
        let (gr, gc) = grid.goal;
        Cost::from(r.abs_diff(gr)) + Cost::from(c.abs_diff(gc))
    }

    /// A step changes the distance by 1 and costs at least 1.
    fn consistent(&self) -> bool {
        true
    }
}

/// The maze on the GPU executors (`framework/kernels/grid.cuh`): the demo
/// domain runs on every executor, and each GPU entry point's example uses
/// it.
#[cfg(feature = "gpu")]
impl crate::search::gpu::GpuPlugin<Grid> for Manhattan {
    fn source(&self, grid: &Grid) -> String {
        let mut goal = [0u32];
        grid.pack(&grid.goal, &mut goal);
        format!(
            "#define ROWS {}\n#define COLS {}\n#define GOAL_WORD {}u\n#define STATE_WORDS 1\n#define MAX_SUCC 4\n{}",
            grid.rows,
            grid.cols,
            goal[0],
            include_str!("../kernels/grid.cuh")
        )
    }

    fn tables<'a>(&'a self, grid: &'a Grid) -> Vec<&'a [u8]> {
        vec![&grid.cell_bytes]
    }
}

/// The maze parser's fuzz property, on [`crate::fuzz`].
pub mod fuzz {
    use super::Grid;
    use crate::fuzz::Target;

    /// Maze text parses or is refused with an error, never a panic; a maze
    /// that parses round-trips its start and successors through the codec.
    pub fn grid_parse(data: &[u8]) {
        if let Ok(text) = std::str::from_utf8(data) {
            if let Ok(maze) = Grid::parse(text) {
                crate::fuzz::packed_round_trip(&maze, &[]);
            }
        }
    }

    fn grid_seeds() -> Vec<Vec<u8>> {
        vec![
            b"S..#\n.#..\n...G\n".to_vec(),
            b"S.........\n.########.\n.........G\n".to_vec(),
        ]
    }

    /// The maze's targets.
    pub const TARGETS: &[Target] = &[Target {
        name: "grid_parse",
        property: grid_parse,
        seeds: grid_seeds,
        alphabet: b".#SG@T \n",
    }];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every GPU executor's kernel for the maze compiles for Hopper with
    /// NVRTC alone (no GPU needed), on mazes of one and many words of
    /// rows; skipped loudly where NVRTC is not installed.
    #[cfg(feature = "gpu")]
    #[test]
    fn every_gpu_kernel_for_mazes_compiles_without_a_gpu() {
        for text in ["S.#\n..G", "S...\n.##.\n...G"] {
            let maze = Grid::parse(text).unwrap();
            let compiled = crate::search::gpu::compile_engines(&maze, &Manhattan, "sm_90");
            if !crate::gpu::checked_unless_no_nvrtc(compiled)
                .unwrap_or_else(|e| panic!("{text:?}: {e}"))
            {
                return;
            }
        }
    }

    #[test]
    fn cells_round_trip_and_walls_or_strays_are_refused() {
        let maze = Grid::parse("S.#\n..G").unwrap();
        let mut word = [0u32];
        for cell in [(0, 0), (0, 1), (1, 0), (1, 2)] {
            maze.pack(&cell, &mut word);
            assert_eq!(maze.unpack(&word), Ok(cell));
        }
        maze.pack(&(0, 2), &mut word);
        assert!(maze.unpack(&word).is_err(), "(0, 2) is a wall");
        assert!(maze.unpack(&[5 << 16]).is_err(), "row 5 is off the maze");
        assert_eq!(
            maze.unpack(&[0, 0]),
            Err(CodecError::Length {
                expected: 1,
                got: 2
            })
        );
    }

    /// A fault at one place names its line and column; a fault of the
    /// whole maze (nothing there, no start, no goal) names none, since
    /// line 1, column 1 would point at a cell that is not at fault.
    #[test]
    fn faults_name_their_place_only_where_they_have_one() {
        for (text, message) in [
            (
                "S.\n.x\nG.",
                "grid line 2, column 2: unexpected 'x' (use S G # . or 1-9)",
            ),
            (
                "S..\n.G",
                "grid line 2, column 1: row has 2 cells, the first row has 3",
            ),
            ("S.S\n..G", "grid line 1, column 3: a second 'S'"),
            ("\n\n", "grid: empty"),
            ("...\n..G", "grid: no start cell 'S'"),
            ("S..\n...", "grid: no goal cell 'G'"),
        ] {
            let error = Grid::parse(text).map(|_| ()).unwrap_err();
            assert_eq!(error.to_string(), message, "{text:?}");
        }
    }
}
