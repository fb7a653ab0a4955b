//! Board geometry, goals, states, instance parsing and the search domain.

use std::fmt;
use std::hash::{Hash, Hasher};

use frontier_core::{CodecError, Cost, Domain, Edge, InPlace, PackedState};

use crate::TilesError;

/// Most cells a board may have (5×5).
pub const MAX_CELLS: usize = 49;

/// Where the blank and the tiles end up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Goal {
    /// Korf's convention: blank first, tile k at cell k (`0 1 2 … N`).
    Korf,
    /// The common one: `1 2 … N 0`, blank last.
    Standard,
    /// Any other goal board, given tile by tile (`1 2 3 8 0 4 7 6 5`, the
    /// 8-puzzle's goal in many textbooks). RON: `Layout("1 2 3 8 0 4 7 6 5")`.
    Layout(GoalLayout),
}

impl std::str::FromStr for Goal {
    type Err = String;
    fn from_str(s: &str) -> Result<Goal, String> {
        match s.to_ascii_lowercase().as_str() {
            "korf" => Ok(Goal::Korf),
            "standard" => Ok(Goal::Standard),
            _ if s.chars().any(|c| c.is_ascii_digit()) => s.parse().map(Goal::Layout),
            _ => Err(format!(
                "unknown goal '{s}' (use korf, standard or the goal board's tiles, as '1 2 3 8 0 4 7 6 5')"
            )),
        }
    }
}

impl Goal {
    /// The cell tile `tile` (0 = blank) occupies in this goal.
    pub fn cell_of(self, tile: u8, cells: usize) -> u8 {
        match self {
            Goal::Korf => tile,
            Goal::Standard if tile == 0 => (cells - 1) as u8,
            Goal::Standard => tile - 1,
            Goal::Layout(layout) => layout.cell[usize::from(tile)],
        }
    }

    /// Whether this goal fits `board` (a layout was given for one shape).
    pub fn fits(self, board: &Board) -> Result<(), TilesError> {
        match self {
            Goal::Layout(layout) if (layout.rows, layout.cols) != (board.rows(), board.cols()) => {
                Err(TilesError::GoalShape {
                    goal: format!("{}x{}", layout.rows, layout.cols),
                    board: format!("{}x{}", board.rows(), board.cols()),
                })
            }
            _ => Ok(()),
        }
    }
}

/// A goal board given tile by tile: the tile on each cell, row by row, 0
/// for the blank, with an `RxC:` prefix for non-square boards, as an
/// instance is written. Parsed with `str::parse`; shown and stored (RON,
/// results) in the same form.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct GoalLayout {
    rows: u8,
    cols: u8,
    /// The tile on each cell.
    tile: [u8; MAX_CELLS],
    /// The cell of each tile.
    cell: [u8; MAX_CELLS],
}

impl GoalLayout {
    /// `state` on `board` as a goal board.
    pub fn of(board: &Board, state: &TileState) -> GoalLayout {
        GoalLayout {
            rows: board.rows(),
            cols: board.cols(),
            tile: state.cells,
            cell: state.positions(board.cells()),
        }
    }

    /// The tile on each cell, row by row.
    pub fn tiles(&self) -> &[u8] {
        &self.tile[..usize::from(self.rows) * usize::from(self.cols)]
    }
}

impl std::str::FromStr for GoalLayout {
    type Err = String;
    fn from_str(text: &str) -> Result<GoalLayout, String> {
        let bad = |e: TilesError| format!("goal board '{text}': {e}");
        let (board, tiles) = parse_instance(text).map_err(bad)?;
        let state = TileState::from_tiles(&board, &tiles).map_err(bad)?;
        Ok(GoalLayout::of(&board, &state))
    }
}

impl fmt::Display for GoalLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows != self.cols {
            write!(f, "{}x{}: ", self.rows, self.cols)?;
        }
        let tiles: Vec<String> = self.tiles().iter().map(u8::to_string).collect();
        write!(f, "{}", tiles.join(" "))
    }
}

/// As RON writes it (`"1 2 3 8 0 4 7 6 5"`), so that a results file's
/// parameters name the goal the way a config gives it.
impl fmt::Debug for GoalLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl serde::Serialize for GoalLayout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for GoalLayout {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A rectangular board: its shape and neighbour tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: u8,
    cols: u8,
    /// Up to four neighbours per cell, in [`Dir`] order; `NONE` where off the board.
    neighbours: [[u8; 4]; MAX_CELLS],
}

const NONE: u8 = u8::MAX;

impl Board {
    /// A board of `rows`×`cols`, between 2 and 49 cells (7×7).
    pub fn new(rows: u8, cols: u8) -> Result<Board, TilesError> {
        let cells = usize::from(rows) * usize::from(cols);
        if rows == 0 || cols == 0 || !(2..=MAX_CELLS).contains(&cells) {
            return Err(TilesError::Shape { rows, cols });
        }
        let mut neighbours = [[NONE; 4]; MAX_CELLS];
        for (cell, slot) in neighbours.iter_mut().enumerate().take(cells) {
            let (r, c) = (cell / usize::from(cols), cell % usize::from(cols));
            let at = |r: usize, c: usize| (r * usize::from(cols) + c) as u8;
            slot[Dir::Up as usize] = if r > 0 { at(r - 1, c) } else { NONE };
            slot[Dir::Down as usize] = if r + 1 < usize::from(rows) {
                at(r + 1, c)
            } else {
                NONE
            };
            slot[Dir::Left as usize] = if c > 0 { at(r, c - 1) } else { NONE };
            slot[Dir::Right as usize] = if c + 1 < usize::from(cols) {
                at(r, c + 1)
            } else {
                NONE
            };
        }
        Ok(Board {
            rows,
            cols,
            neighbours,
        })
    }

    /// Rows.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// Cells (tiles + blank).
    pub fn cells(&self) -> usize {
        usize::from(self.rows) * usize::from(self.cols)
    }

    /// The cell next to `cell` in direction `dir`, if on the board.
    #[inline]
    pub fn neighbour(&self, cell: u8, dir: Dir) -> Option<u8> {
        let n = self.neighbours[usize::from(cell)][dir as usize];
        (n != NONE).then_some(n)
    }

    /// Row and column of a cell.
    pub fn coords(&self, cell: u8) -> (u8, u8) {
        (cell / self.cols, cell % self.cols)
    }
}

/// Direction the blank moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Blank moves up (the tile above slides down).
    Up = 0,
    /// Blank moves down.
    Down = 1,
    /// Blank moves left.
    Left = 2,
    /// Blank moves right.
    Right = 3,
}

impl Dir {
    /// All four, in table order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The move that undoes this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// One letter: U, D, L, R.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }
}

/// A board position: the tile on every cell (0 = blank).
///
/// `came_from` remembers the blank's previous direction so that expansion
/// can skip the move that undoes it; it is not part of the state's
/// identity (ignored by `Eq` and `Hash`).
#[derive(Clone, Copy)]
pub struct TileState {
    /// Tile on each cell; cells past the board are 0.
    pub cells: [u8; MAX_CELLS],
    /// Where the blank is.
    pub blank: u8,
    /// The last move, if any.
    pub came_from: Option<Dir>,
}

impl PartialEq for TileState {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
    }
}
impl Eq for TileState {}
impl Hash for TileState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Boards of up to 25 cells (every published benchmark) leave the
        // rest zero: hashing only their part keeps the hash as cheap as it
        // was before boards grew to 49 cells. Equal states take the same
        // branch, so equal states still hash alike.
        if self.cells[SMALL_BOARD..].iter().all(|&t| t == 0) {
            self.cells[..SMALL_BOARD].hash(state);
        } else {
            self.cells.hash(state);
        }
    }
}

/// The cells of the largest board whose states hash only their first
/// cells (see `Hash for TileState`).
const SMALL_BOARD: usize = 25;

/// Bits a tile takes in a packed state: 4 up to 16 cells, 5 up to 32,
/// 6 beyond (up to [`MAX_CELLS`]).
pub fn packed_bits(cells: usize) -> usize {
    match cells {
        0..=16 => 4,
        17..=32 => 5,
        _ => 6,
    }
}

/// Words of a packed state: 2 up to 16 cells, 4 up to 25 (as the GPU
/// plugin has always read them), else as many as the bits need (7 for
/// 6×6, 10 for 7×7).
pub fn packed_words(cells: usize) -> usize {
    match cells {
        0..=16 => 2,
        17..=25 => 4,
        _ => (packed_bits(cells) * cells).div_ceil(32),
    }
}

impl fmt::Debug for TileState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        let used = self
            .cells
            .iter()
            .rposition(|&t| t != 0)
            .map_or(0, |i| i + 1)
            .max(usize::from(self.blank) + 1);
        for (i, t) in self.cells[..used].iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{t}")?;
        }
        write!(f, "]")
    }
}

impl TileState {
    /// The state with these tiles, validated against `board`: every tile
    /// 0..N exactly once.
    pub fn from_tiles(board: &Board, tiles: &[u8]) -> Result<TileState, TilesError> {
        let n = board.cells();
        if tiles.len() != n {
            return Err(TilesError::Count {
                expected: n,
                got: tiles.len(),
            });
        }
        let mut seen = [false; MAX_CELLS];
        let mut cells = [0u8; MAX_CELLS];
        let mut blank = 0;
        for (cell, &tile) in tiles.iter().enumerate() {
            if usize::from(tile) >= n {
                return Err(TilesError::OutOfRange { tile, max: n - 1 });
            }
            if std::mem::replace(&mut seen[usize::from(tile)], true) {
                return Err(TilesError::Duplicate { tile });
            }
            cells[cell] = tile;
            if tile == 0 {
                blank = cell as u8;
            }
        }
        Ok(TileState {
            cells,
            blank,
            came_from: None,
        })
    }

    /// The goal position.
    pub fn goal(board: &Board, goal: Goal) -> TileState {
        let n = board.cells();
        let mut cells = [0u8; MAX_CELLS];
        for tile in 0..n as u8 {
            cells[usize::from(goal.cell_of(tile, n))] = tile;
        }
        TileState {
            cells,
            blank: goal.cell_of(0, n),
            came_from: None,
        }
    }

    /// Cell of every tile (index = tile).
    #[inline]
    pub fn positions(&self, cells: usize) -> [u8; MAX_CELLS] {
        let mut pos = [0u8; MAX_CELLS];
        for (cell, &tile) in self.cells[..cells].iter().enumerate() {
            pos[usize::from(tile)] = cell as u8;
        }
        pos
    }

    /// Moves the blank, if that stays on the board.
    #[inline]
    pub fn slide(&self, board: &Board, dir: Dir) -> Option<TileState> {
        let to = board.neighbour(self.blank, dir)?;
        let mut next = *self;
        next.cells[usize::from(self.blank)] = self.cells[usize::from(to)];
        next.cells[usize::from(to)] = 0;
        next.blank = to;
        next.came_from = Some(dir);
        Some(next)
    }
}

/// Whether `state` can reach `goal`: the parity of the permutation between
/// them (blank included) must equal the parity of the blank's taxicab
/// distance, since every move is one transposition and one blank step.
pub fn solvable(board: &Board, state: &TileState, goal: &TileState) -> bool {
    let n = board.cells();
    let goal_pos = goal.positions(n);
    // Permutation cell -> goal cell of the tile standing there.
    let mut perm: Vec<usize> = (0..n)
        .map(|c| usize::from(goal_pos[usize::from(state.cells[c])]))
        .collect();
    let mut transpositions = 0;
    for i in 0..n {
        while perm[i] != i {
            let j = perm[i];
            perm.swap(i, j);
            transpositions += 1;
        }
    }
    let (r0, c0) = board.coords(state.blank);
    let (r1, c1) = board.coords(goal.blank);
    let blank_steps = u32::from(r0.abs_diff(r1)) + u32::from(c0.abs_diff(c1));
    transpositions % 2 == blank_steps % 2
}

/// Parses an instance: tile numbers separated by spaces or commas, with an
/// optional `RxC:` prefix for non-square boards (`3x4: 1 2 …`).
pub fn parse_instance(text: &str) -> Result<(Board, Vec<u8>), TilesError> {
    let (shape, numbers) = match text.split_once(':') {
        Some((shape, rest)) => (Some(shape.trim()), rest),
        None => (None, text),
    };
    let tiles = numbers
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u8>()
                .map_err(|_| TilesError::NotANumber(t.to_string()))
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let (rows, cols) = match shape {
        Some(shape) => {
            let bad = || TilesError::ShapeSyntax(shape.to_string());
            let (r, c) = shape.split_once(['x', 'X']).ok_or_else(bad)?;
            (
                r.trim().parse().map_err(|_| bad())?,
                c.trim().parse().map_err(|_| bad())?,
            )
        }
        None => {
            // Any square count names its board, so that a board too large
            // (36 tiles) is refused for its size, not as "not square".
            let side = (1..=u8::MAX)
                .find(|&s| usize::from(s) * usize::from(s) >= tiles.len())
                .filter(|&s| usize::from(s) * usize::from(s) == tiles.len())
                .ok_or(TilesError::NotSquare(tiles.len()))?;
            (side, side)
        }
    };
    Ok((Board::new(rows, cols)?, tiles))
}

/// A sliding-tile instance: board, start and goal.
#[derive(Clone, Debug)]
pub struct Tiles {
    board: Board,
    start: TileState,
    goal: TileState,
    goal_kind: Goal,
    prune_undo: bool,
}

impl Tiles {
    /// An instance, rejected if unsolvable.
    pub fn new(board: Board, start: TileState, goal: Goal) -> Result<Tiles, TilesError> {
        goal.fits(&board)?;
        let goal_state = TileState::goal(&board, goal);
        if !solvable(&board, &start, &goal_state) {
            return Err(TilesError::Unsolvable { goal });
        }
        Ok(Tiles {
            board,
            start,
            goal: goal_state,
            goal_kind: goal,
            prune_undo: true,
        })
    }

    /// Parses and validates an instance in one step.
    ///
    /// ```
    /// use frontier_tiles::{Goal, Tiles};
    /// assert!(Tiles::parse("1 2 3 4 5 6 0 7 8", Goal::Standard).is_ok());
    /// let err = Tiles::parse("2 1 3 4 5 6 7 8 0", Goal::Standard).unwrap_err();
    /// assert!(err.to_string().contains("unsolvable"));
    /// ```
    pub fn parse(text: &str, goal: Goal) -> Result<Tiles, TilesError> {
        let (board, tiles) = parse_instance(text)?;
        let start = TileState::from_tiles(&board, &tiles)?;
        Tiles::new(board, start, goal)
    }

    /// Whether expansion skips the move that undoes the previous one (on by
    /// default; it only removes a successor that is the parent).
    pub fn with_undo_pruning(mut self, prune: bool) -> Tiles {
        self.prune_undo = prune;
        self
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The goal convention.
    pub fn goal_kind(&self) -> Goal {
        self.goal_kind
    }

    /// The goal state.
    pub fn goal_state(&self) -> &TileState {
        &self.goal
    }

    /// Applies `moves` from the start; `None` if a move leaves the board.
    pub fn replay(&self, moves: &[Dir]) -> Option<TileState> {
        moves
            .iter()
            .try_fold(self.start, |s, &d| s.slide(&self.board, d))
    }
}

impl Domain for Tiles {
    type State = TileState;
    type Move = Dir;

    fn start(&self) -> TileState {
        self.start
    }

    #[inline]
    fn expand(&self, state: &TileState, out: &mut Vec<Edge<TileState, Dir>>) {
        let undo = if self.prune_undo {
            state.came_from.map(Dir::opposite)
        } else {
            None
        };
        for dir in Dir::ALL {
            if Some(dir) == undo {
                continue;
            }
            if let Some(next) = state.slide(&self.board, dir) {
                out.push(Edge {
                    state: next,
                    mv: dir,
                    cost: 1 as Cost,
                });
            }
        }
    }

    #[inline]
    fn is_goal(&self, state: &TileState) -> bool {
        state.cells == self.goal.cells
    }

    /// Manhattan distance between the two boards: each move slides one
    /// tile one cell, so no path is shorter than the tiles' distances.
    fn estimate_between(&self, from: &TileState, to: &TileState) -> Option<Cost> {
        let cells = self.board.cells();
        let target = to.positions(cells);
        let mut sum = 0;
        for (cell, &tile) in from.cells[..cells].iter().enumerate() {
            if tile != 0 {
                let (r, c) = self.board.coords(cell as u8);
                let (tr, tc) = self.board.coords(target[usize::from(tile)]);
                sum += Cost::from(r.abs_diff(tr) + c.abs_diff(tc));
            }
        }
        Some(sum)
    }
}

/// The blank slides in place and back, for `ida_in_place`. The move that
/// undoes the last one is left out, as IDA*'s `expand` path leaves out the
/// parent; the order is `expand`'s (`Dir::ALL`).
impl InPlace for Tiles {
    type Op = Dir;

    #[inline(always)]
    fn ops(&self, state: &TileState, last: Option<Dir>, out: &mut Vec<Dir>) {
        let back = last.map(Dir::opposite);
        for dir in Dir::ALL {
            if Some(dir) != back && self.board.neighbour(state.blank, dir).is_some() {
                out.push(dir);
            }
        }
    }

    #[inline]
    fn apply(&self, state: &mut TileState, dir: Dir) -> Cost {
        // `ops` listed only directions that stay on the board.
        if let Some(to) = self.board.neighbour(state.blank, dir) {
            state.cells[usize::from(state.blank)] = state.cells[usize::from(to)];
            state.cells[usize::from(to)] = 0;
            state.blank = to;
            state.came_from = Some(dir);
        }
        1
    }

    #[inline]
    fn undo(&self, state: &mut TileState, dir: Dir) {
        if let Some(back) = self.board.neighbour(state.blank, dir.opposite()) {
            state.cells[usize::from(state.blank)] = state.cells[usize::from(back)];
            state.cells[usize::from(back)] = 0;
            state.blank = back;
            // The move before is not kept; the in-place path never reads it.
            state.came_from = None;
        }
    }

    fn move_of(&self, dir: Dir) -> Dir {
        dir
    }

    /// Where the blank went, and the tile it passed now on its old cell:
    /// four neighbour reads, not a slide and a board compare per direction.
    fn op_between(&self, from: &TileState, to: &TileState) -> Option<Dir> {
        let dir = Dir::ALL
            .into_iter()
            .find(|&dir| self.board.neighbour(from.blank, dir) == Some(to.blank))?;
        (to.cells[usize::from(from.blank)] == from.cells[usize::from(to.blank)]).then_some(dir)
    }

    /// The four directions, in `Dir::ALL`'s order.
    fn op_count(&self) -> usize {
        Dir::ALL.len()
    }

    fn op_index(&self, dir: Dir) -> usize {
        dir as usize
    }

    /// The blank's cell decides which slides apply and where each tile
    /// goes: one context per cell.
    fn context_count(&self) -> usize {
        self.board.cells()
    }

    fn context(&self, state: &TileState) -> usize {
        usize::from(state.blank)
    }

    /// The board's shape and the goal decide the slides and the witnesses.
    fn algebra_key(&self) -> Option<u64> {
        // A layout's key folds its tiles in (FNV-1a), above the shape's bits.
        let goal = match self.goal_kind {
            Goal::Korf => 0,
            Goal::Standard => 1,
            Goal::Layout(layout) => {
                let fold = layout
                    .tiles()
                    .iter()
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, &t| {
                        (h ^ u64::from(t)).wrapping_mul(0x0100_0000_01b3)
                    });
                2 | (fold << 24)
            }
        };
        Some((u64::from(self.board.rows()) << 16) | (u64::from(self.board.cols()) << 8) | goal)
    }

    /// The goal with the blank walked to `cell` (row by row, then column
    /// by column): its tiles are distinct, as every state's are, so slide
    /// sequences that agree on it agree on every state with the blank
    /// there.
    fn witness(&self, cell: usize) -> Option<TileState> {
        let mut state = self.goal;
        let (to_row, to_col) = self.board.coords(u8::try_from(cell).ok()?);
        while state.blank != cell as u8 {
            let (row, col) = self.board.coords(state.blank);
            let dir = if row < to_row {
                Dir::Down
            } else if row > to_row {
                Dir::Up
            } else if col < to_col {
                Dir::Right
            } else {
                Dir::Left
            };
            state = state.slide(&self.board, dir)?;
        }
        state.came_from = None;
        Some(state)
    }
}

impl PackedState for Tiles {
    /// [`packed_bits`] a tile, little-endian across [`packed_words`]
    /// words: 2 words up to 16 cells, 4 up to 25, 7 for 6×6, 10 for 7×7.
    fn packed_words(&self) -> usize {
        packed_words(self.board.cells())
    }

    fn pack(&self, state: &TileState, out: &mut [u32]) {
        let bits = packed_bits(self.board.cells());
        out.fill(0);
        for (i, &t) in state.cells[..self.board.cells()].iter().enumerate() {
            let (word, offset) = (i * bits / 32, i * bits % 32);
            let value = u64::from(t) << offset;
            if let Some(w) = out.get_mut(word) {
                *w |= value as u32;
            }
            if let Some(w) = out.get_mut(word + 1) {
                *w |= (value >> 32) as u32;
            }
        }
    }

    fn unpack(&self, words: &[u32]) -> Result<TileState, CodecError> {
        let expected = self.packed_words();
        if words.len() != expected {
            return Err(CodecError::Length {
                expected,
                got: words.len(),
            });
        }
        let n = self.board.cells();
        let bits = packed_bits(n);
        let bit = |i: usize| words[i / 32] >> (i % 32) & 1;
        if (bits * n..32 * words.len()).any(|i| bit(i) != 0) {
            return Err(CodecError::Invalid("bits set past the last cell".into()));
        }
        let tiles: Vec<u8> = (0..n)
            .map(|i| (0..bits).fold(0u8, |t, b| t | (bit(i * bits + b) as u8) << b))
            .collect();
        TileState::from_tiles(&self.board, &tiles).map_err(|e| CodecError::Invalid(e.to_string()))
    }

    /// The last move (0 for none, else the direction plus one), so that a
    /// state sent to another process does not generate its parent again.
    fn pack_extra(&self, state: &TileState) -> u32 {
        state.came_from.map_or(0, |d| d as u32 + 1)
    }

    fn unpack_extra(&self, state: &mut TileState, extra: u32) {
        state.came_from = match extra {
            1 => Some(Dir::Up),
            2 => Some(Dir::Down),
            3 => Some(Dir::Left),
            4 => Some(Dir::Right),
            _ => None,
        };
    }
}
