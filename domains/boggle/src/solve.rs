//! Finding the words on a board.
//!
//! [`Scorer`] is the tuned solver: a depth-first walk of board paths and
//! trie nodes together, cells in use kept in a bit set, each word counted
//! once by stamping its trie node with the board's number (no clearing
//! between boards). [`find_words`] also reports a path per word, and
//! [`WordPaths`] states the same search as a frontier [`Domain`] so the
//! framework's generic [`walk`](fn@frontier_core::walk) can run it.

use frontier_core::{Domain, Edge, SearchOptions, Visit};

use crate::board::{Board, Shape};
use crate::dict::spell;
use crate::trie::{Node, Trie};

/// Scores boards against one trie; keep one per thread and reuse it.
pub struct Scorer<'t> {
    nodes: &'t [Node],
    seen: Vec<u32>,
    stamp: u32,
    shape: Option<Shape>,
    around: Vec<u32>,
}

/// Cells in use on the current path: one bit per cell.
trait CellSet: Copy {
    fn has(&self, cell: usize) -> bool;
    fn with(self, cell: usize) -> Self;
}

impl CellSet for u64 {
    #[inline(always)]
    fn has(&self, cell: usize) -> bool {
        self >> cell & 1 != 0
    }
    #[inline(always)]
    fn with(self, cell: usize) -> Self {
        self | 1 << cell
    }
}

/// Up to 1024 cells (32×32, [`crate::board::MAX_SIDE`]).
impl CellSet for [u64; 16] {
    #[inline(always)]
    fn has(&self, cell: usize) -> bool {
        self[cell / 64] >> (cell % 64) & 1 != 0
    }
    #[inline(always)]
    fn with(mut self, cell: usize) -> Self {
        self[cell / 64] |= 1 << (cell % 64);
        self
    }
}

impl<'t> Scorer<'t> {
    /// A scorer for `trie`.
    pub fn new(trie: &'t Trie) -> Scorer<'t> {
        Scorer {
            nodes: trie.nodes(),
            seen: vec![0; trie.nodes().len()],
            stamp: 0,
            shape: None,
            around: Vec::new(),
        }
    }

    /// The board's score: each distinct word once.
    pub fn score(&mut self, board: &Board) -> u32 {
        // The shape of the previous board is reused when this one matches.
        let shape = match self.shape.take() {
            Some(s) if (s.rows, s.cols) == (board.rows, board.cols) => s,
            _ => board.shape(),
        };
        let score = self.score_letters(&shape, &board.letters);
        self.shape = Some(shape);
        score
    }

    /// The score of `letters` laid out on `shape` (no allocation).
    pub fn score_letters(&mut self, shape: &Shape, letters: &[u8]) -> u32 {
        assert_eq!(
            letters.len(),
            shape.cells(),
            "board and shape differ in size"
        );
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // The stamp wrapped: old marks could collide with new numbers.
            self.seen.fill(0);
            self.stamp = 1;
        }
        // Letters around each cell: a node none of whose children is among
        // them ends the path without looking at single neighbours.
        self.around.clear();
        self.around.extend((0..shape.cells()).map(|cell| {
            shape
                .neighbors_of(cell)
                .iter()
                .fold(0u32, |m, &n| m | 1 << letters[n as usize])
        }));
        let mut walk = Walk {
            around: &self.around,
            nodes: self.nodes,
            seen: &mut self.seen,
            stamp: self.stamp,
            shape,
            letters,
            score: 0,
        };
        if shape.cells() <= 64 {
            return walk.small_board();
        }
        let root = self.nodes[0];
        for (cell, &letter) in letters.iter().enumerate() {
            if let Some(child) = root.child(letter) {
                if shape.cells() <= 64 {
                    walk.enter(cell, child, 0u64.with(cell));
                } else {
                    walk.enter(cell, child, [0u64; 16].with(cell));
                }
            }
        }
        walk.score
    }
}

/// The points of the word ending at trie node `at` (`node`), the first time
/// this board (`stamp`) reaches it; 0 afterwards or if it is not a word.
#[inline(always)]
fn count_word(node: Node, seen: &mut [u32], at: usize, stamp: u32) -> u32 {
    let points = node.points();
    if points == 0 {
        return 0;
    }
    // SAFETY: `at` indexes the trie (see `Walk::enter`) and `seen` has one
    // entry per trie node.
    let mark = unsafe { seen.get_unchecked_mut(at) };
    if *mark == stamp {
        return 0;
    }
    *mark = stamp;
    points
}

struct Walk<'a> {
    around: &'a [u32],
    nodes: &'a [Node],
    seen: &'a mut [u32],
    stamp: u32,
    shape: &'a Shape,
    letters: &'a [u8],
    score: u32,
}

impl Walk<'_> {
    /// Boards of at most 64 cells: neighbours and cells of each letter as
    /// bit masks, so a node's matching children and the neighbours that
    /// carry them come out of a few ANDs instead of a loop over neighbours.
    fn small_board(&mut self) -> u32 {
        let mut cells_of = [0u64; 26];
        for (cell, &l) in self.letters.iter().enumerate() {
            cells_of[l as usize] |= 1 << cell;
        }
        let mut small = SmallWalk {
            nodes: self.nodes,
            seen: self.seen,
            stamp: self.stamp,
            around: self.around,
            neighbors: &self.shape.neighbor_masks,
            cells_of,
            score: 0,
        };
        let root = self.nodes[0];
        for (cell, &letter) in self.letters.iter().enumerate() {
            if let Some(child) = root.child(letter) {
                small.enter(cell, child, 1 << cell);
            }
        }
        small.score
    }

    /// Arrived at `cell` with trie node `at`: count the word, go on.
    #[inline(always)]
    fn enter<S: CellSet>(&mut self, cell: usize, at: u32, used: S) {
        let at = at as usize;
        // SAFETY (all unchecked reads below): `at` is the root's child or a
        // child index read from the trie, and every trie is checked to keep
        // child indices inside the node array (built that way, or validated
        // when a cache file is mapped); `seen` has one entry per node;
        // `cell` and every neighbour index are below `shape.cells()`, which
        // is the length of `letters` and `around` (asserted on entry).
        let node = unsafe { *self.nodes.get_unchecked(at) };
        self.score += count_word(node, self.seen, at, self.stamp);
        if node.info & unsafe { *self.around.get_unchecked(cell) } != 0 {
            self.extend(cell, node, used);
        }
    }

    fn extend<S: CellSet>(&mut self, cell: usize, node: Node, used: S) {
        let (neighbors, degree) = unsafe {
            (
                self.shape.neighbors.get_unchecked(cell),
                *self.shape.degree.get_unchecked(cell) as usize,
            )
        };
        for &next in &neighbors[..degree] {
            let next = next as usize;
            if used.has(next) {
                continue;
            }
            // SAFETY: see `enter`.
            if let Some(child) = node.child(unsafe { *self.letters.get_unchecked(next) }) {
                self.enter(next, child, used.with(next));
            }
        }
    }
}

struct SmallWalk<'a> {
    nodes: &'a [Node],
    seen: &'a mut [u32],
    stamp: u32,
    around: &'a [u32],
    neighbors: &'a [u64],
    cells_of: [u64; 26],
    score: u32,
}

impl SmallWalk<'_> {
    #[inline(always)]
    fn enter(&mut self, cell: usize, at: u32, used: u64) {
        let at = at as usize;
        // SAFETY: as in `Walk::enter`; `neighbors` and `around` have one
        // entry per cell and masks only hold bits of cells on the board.
        let node = unsafe { *self.nodes.get_unchecked(at) };
        self.score += count_word(node, self.seen, at, self.stamp);
        let mut letters = node.info & unsafe { *self.around.get_unchecked(cell) };
        if letters == 0 {
            return;
        }
        let free = unsafe { *self.neighbors.get_unchecked(cell) } & !used;
        while letters != 0 {
            let letter = letters.trailing_zeros();
            letters &= letters - 1;
            let mut cells = free & self.cells_of[letter as usize];
            if cells == 0 {
                continue;
            }
            let child = node.first + (node.info & ((1 << letter) - 1)).count_ones();
            while cells != 0 {
                let next = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                self.enter_more(next, child, used | 1 << next);
            }
        }
    }

    /// The recursive step, kept out of line so `enter` inlines once.
    #[inline(never)]
    fn enter_more(&mut self, cell: usize, at: u32, used: u64) {
        self.enter(cell, at, used);
    }
}

/// A word found on a board, with one path that spells it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Found {
    /// The word as read ("qu" spelled out).
    pub word: String,
    /// Its points.
    pub points: u32,
    /// The cells, as (row, column) from the top left.
    pub path: Vec<(usize, usize)>,
}

/// Every distinct word on `board` with the first path found for it, best
/// scoring first, then alphabetical.
pub fn find_words(trie: &Trie, board: &Board) -> Vec<Found> {
    let shape = board.shape();
    let nodes = trie.nodes();
    let mut found: hashbrown::HashMap<u32, Vec<u16>> = hashbrown::HashMap::new();
    let mut path: Vec<u16> = Vec::new();
    fn go(
        nodes: &[Node],
        shape: &Shape,
        letters: &[u8],
        at: u32,
        path: &mut Vec<u16>,
        found: &mut hashbrown::HashMap<u32, Vec<u16>>,
    ) {
        let node = nodes[at as usize];
        if node.points() > 0 {
            found.entry(at).or_insert_with(|| path.clone());
        }
        let Some(&cell) = path.last() else { return };
        for &next in shape.neighbors_of(cell as usize) {
            if path.contains(&next) {
                continue;
            }
            if let Some(child) = node.child(letters[next as usize]) {
                path.push(next);
                go(nodes, shape, letters, child, path, found);
                path.pop();
            }
        }
    }
    for (cell, &letter) in board.letters.iter().enumerate() {
        if let Some(child) = nodes[0].child(letter) {
            path.push(cell as u16);
            go(nodes, &shape, &board.letters, child, &mut path, &mut found);
            path.pop();
        }
    }
    let mut words: Vec<Found> = found
        .into_iter()
        .map(|(at, path)| {
            let letters: Vec<u8> = path.iter().map(|&c| board.letters[c as usize]).collect();
            Found {
                word: spell(&letters),
                points: nodes[at as usize].points(),
                path: path
                    .iter()
                    .map(|&c| (c as usize / board.cols, c as usize % board.cols))
                    .collect(),
            }
        })
        .collect();
    words.sort_by(|a, b| b.points.cmp(&a.points).then_with(|| a.word.cmp(&b.word)));
    words
}

/// The path search as a frontier domain: a state is a path of cells plus
/// the trie node it spells; successors extend the path to an unused
/// neighbour whose letter continues a word; goals spell words. The tree is
/// finite because paths never revisit a cell.
pub struct WordPaths<'a> {
    trie: &'a Trie,
    board: &'a Board,
    shape: Shape,
}

/// A state of [`WordPaths`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathState {
    /// Cells visited, in order.
    pub cells: Vec<u16>,
    /// The trie node the path spells (0 = root, empty path).
    pub node: u32,
}

impl<'a> WordPaths<'a> {
    /// The domain of paths on `board`.
    pub fn new(trie: &'a Trie, board: &'a Board) -> Self {
        WordPaths {
            trie,
            board,
            shape: board.shape(),
        }
    }

    /// The score, found by the framework's generic depth-first walk (slower
    /// than [`Scorer`]; kept as an independent check and as the example of
    /// a domain written against the traits).
    pub fn score_by_walk(&self) -> u32 {
        let nodes = self.trie.nodes();
        let mut counted = hashbrown::HashSet::new();
        let mut score = 0;
        frontier_core::walk(self, &SearchOptions::default(), |state, _| {
            if self.is_goal(state) && counted.insert(state.node) {
                score += nodes[state.node as usize].points();
            }
            Visit::Descend
        });
        score
    }
}

impl Domain for WordPaths<'_> {
    type State = PathState;
    /// The cell added to the path.
    type Move = u16;

    fn start(&self) -> PathState {
        PathState {
            cells: Vec::new(),
            node: 0,
        }
    }

    fn expand(&self, state: &PathState, out: &mut Vec<Edge<PathState, u16>>) {
        let node = self.trie.nodes()[state.node as usize];
        let mut push = |cell: u16| {
            if let Some(child) = node.child(self.board.letters[cell as usize]) {
                let mut cells = state.cells.clone();
                cells.push(cell);
                out.push(Edge {
                    state: PathState { cells, node: child },
                    mv: cell,
                    cost: 1,
                });
            }
        };
        match state.cells.last() {
            None => (0..self.shape.cells() as u16).for_each(&mut push),
            Some(&last) => self
                .shape
                .neighbors_of(last as usize)
                .iter()
                .filter(|c| !state.cells.contains(c))
                .for_each(|&c| push(c)),
        }
    }

    fn is_goal(&self, state: &PathState) -> bool {
        self.trie.nodes()[state.node as usize].points() > 0
    }
}
