//! Proving the best boards: branch and bound over *board classes* (every
//! cell a set of letters), searched by the framework's depth-first
//! [`walk()`].
//!
//! A class's upper bound is the smaller of two bounds that hold for every
//! board in it:
//! - **max/no-mark**: for each path of cells, the best letter at each cell
//!   (chosen per path) and every word counted as often as it is spelled;
//! - **sum/union**: every word that some board of the class spells, each
//!   counted once.
//!
//! A class whose bound is below the target is discarded whole; otherwise
//! its widest cell is split into two halves of its letters. A class of
//! single letters is a board, scored exactly. Boards equal under the
//! symmetries of the rectangle (8 for a square, 4 otherwise) are reported
//! once, as the least of their images.

use std::time::Instant;

use frontier_core::{walk, Domain, Edge, SearchOptions, Visit, WalkEnd};

use crate::board::Shape;
use crate::trie::{Node, Trie, LETTER_BITS};
use crate::{BoggleError, Scorer};

/// Every cell's letters, as 26-bit masks (bit `l` for letter `'a' + l`;
/// `q` is Qu), row-major.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardClass {
    /// One mask per cell.
    pub cells: Vec<u32>,
}

impl BoardClass {
    /// The class whose every cell may be any of `letters` (a-z).
    pub fn uniform(shape: &Shape, letters: &str) -> Result<BoardClass, BoggleError> {
        let mask = letter_mask(letters)?;
        Ok(BoardClass {
            cells: vec![mask; shape.cells()],
        })
    }

    /// Cells as letter sets: `{aei} b {rst}` row by row, rows split by `/`.
    pub fn describe(&self, shape: &Shape) -> String {
        let cell = |mask: u32| {
            let letters: String = (0..26u8)
                .filter(|l| mask >> l & 1 == 1)
                .map(|l| char::from(b'a' + l))
                .collect();
            if letters.len() == 1 {
                letters
            } else {
                format!("{{{letters}}}")
            }
        };
        self.cells
            .chunks(shape.cols.max(1))
            .map(|row| row.iter().map(|&m| cell(m)).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(" / ")
    }

    /// The letters of a class of single letters (a board), else `None`.
    fn board(&self) -> Option<Vec<u8>> {
        self.cells
            .iter()
            .map(|&m| (m.count_ones() == 1).then(|| m.trailing_zeros() as u8))
            .collect()
    }
}

/// The mask of the letters in `text` (a-z, case ignored).
pub fn letter_mask(text: &str) -> Result<u32, BoggleError> {
    let mut mask = 0u32;
    for c in text.chars() {
        if !c.is_ascii_alphabetic() {
            return Err(BoggleError::Config(format!(
                "'{c}' in the letter set '{text}' is not a letter a-z"
            )));
        }
        mask |= 1 << (c.to_ascii_lowercase() as u8 - b'a');
    }
    if mask == 0 {
        return Err(BoggleError::Config("an empty letter set".into()));
    }
    Ok(mask)
}

/// Upper bounds on the best score of any board in a class.
pub struct Bounder<'t> {
    nodes: &'t [Node],
    shape: Shape,
    /// Per trie node, the union bound's pass that last counted its word.
    stamp: Vec<u32>,
    pass: u32,
}

impl<'t> Bounder<'t> {
    /// Bounds for classes of `shape` (at most 64 cells) over `trie`.
    pub fn new(trie: &'t Trie, shape: &Shape) -> Result<Bounder<'t>, BoggleError> {
        if shape.cells() > 64 || shape.cells() == 0 {
            return Err(BoggleError::Config(format!(
                "proofs take boards of 1 to 64 cells, not {}x{}",
                shape.rows, shape.cols
            )));
        }
        Ok(Bounder {
            nodes: trie.nodes(),
            shape: shape.clone(),
            stamp: vec![0; trie.nodes().len()],
            pass: 0,
        })
    }

    /// The max/no-mark bound (see the module docs).
    pub fn max_no_mark(&self, class: &BoardClass) -> u32 {
        (0..self.shape.cells())
            .map(|cell| self.max_from(&class.cells, cell, self.nodes[0], 1 << cell))
            .sum()
    }

    fn max_from(&self, cells: &[u32], cell: usize, node: Node, used: u64) -> u32 {
        let mut best = 0;
        for (_, child) in self.children(cells[cell], node) {
            let mut total = child.points();
            if child.has_children() {
                for next in self.free_neighbors(cell, used) {
                    total += self.max_from(cells, next, child, used | 1 << next);
                }
            }
            best = best.max(total);
        }
        best
    }

    /// The trie children of `node` for the letters of `mask`, as (index,
    /// node); owns what it reads, so `self` stays free to mutate.
    fn children(&self, mask: u32, node: Node) -> impl Iterator<Item = (usize, Node)> + 't {
        let nodes = self.nodes;
        let mut letters = mask & node.info & LETTER_BITS;
        std::iter::from_fn(move || {
            let letter = (letters != 0).then(|| letters.trailing_zeros() as u8)?;
            letters &= letters - 1;
            // The letter is among the node's children, so `child` is some.
            let index = node.child(letter)? as usize;
            Some((index, nodes[index]))
        })
    }

    /// The neighbours of `cell` not in `used`, from the shape's neighbour
    /// masks (proof shapes have at most 64 cells, so they have masks).
    fn free_neighbors(&self, cell: usize, used: u64) -> impl Iterator<Item = usize> {
        let mut free = self.shape.neighbor_masks[cell] & !used;
        std::iter::from_fn(move || {
            let next = (free != 0).then(|| free.trailing_zeros() as usize)?;
            free &= free - 1;
            Some(next)
        })
    }

    /// The sum/union bound (see the module docs).
    pub fn sum_union(&mut self, class: &BoardClass) -> u32 {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.stamp.fill(0);
            self.pass = 1;
        }
        let mut total = 0;
        for cell in 0..self.shape.cells() {
            self.union_from(&class.cells, cell, self.nodes[0], 1 << cell, &mut total);
        }
        total
    }

    fn union_from(&mut self, cells: &[u32], cell: usize, node: Node, used: u64, total: &mut u32) {
        for (index, child) in self.children(cells[cell], node) {
            if child.points() > 0 && self.stamp[index] != self.pass {
                self.stamp[index] = self.pass;
                *total += child.points();
            }
            if child.has_children() {
                for next in self.free_neighbors(cell, used) {
                    self.union_from(cells, next, child, used | 1 << next, total);
                }
            }
        }
    }

    /// The smaller of the two bounds; the union bound (the costlier) is
    /// only computed when the other does not already fall below `target`.
    pub fn bound(&mut self, class: &BoardClass, target: u32) -> u32 {
        let max = self.max_no_mark(class);
        if max < target {
            return max;
        }
        max.min(self.sum_union(class))
    }
}

/// The tree of classes below a start class: a class's children split its
/// widest cell into two halves of its letters.
struct ClassTree {
    start: BoardClass,
}

impl Domain for ClassTree {
    type State = BoardClass;
    /// The cell whose letters the child halved.
    type Move = usize;

    fn start(&self) -> BoardClass {
        self.start.clone()
    }

    fn is_goal(&self, _: &BoardClass) -> bool {
        false
    }

    fn expand(&self, class: &BoardClass, out: &mut Vec<Edge<BoardClass, usize>>) {
        let Some((cell, &mask)) = class
            .cells
            .iter()
            .enumerate()
            .filter(|(_, m)| m.count_ones() > 1)
            .max_by_key(|(i, m)| (m.count_ones(), std::cmp::Reverse(*i)))
        else {
            return;
        };
        // The lower half of the set bits, and the rest.
        let mut low = 0u32;
        let mut rest = mask;
        for _ in 0..mask.count_ones() / 2 {
            low |= rest & rest.wrapping_neg();
            rest &= rest - 1;
        }
        for half in [low, rest] {
            let mut child = class.clone();
            child.cells[cell] = half;
            out.push(Edge {
                state: child,
                mv: cell,
                cost: 1,
            });
        }
    }
}

/// What a proof found.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// Every board scoring at least the target, once per symmetry class
    /// (the least of its images, row-major letters), best first.
    pub boards: Vec<(String, u32)>,
    /// Classes whose bound was computed.
    pub classes: u64,
    /// Classes discarded by their bound, with the bound, as a certificate:
    /// with the boards above they cover the start class.
    pub discarded: Vec<(BoardClass, u32)>,
    /// Whether the search covered the whole start class (false when a
    /// limit stopped it).
    pub complete: bool,
    /// Seconds.
    pub seconds: f64,
}

/// Finds every board of `start` (a class of `shape`) scoring at least
/// `target`, discarding classes whose bound is below it. With
/// `certificate`, the discarded classes are kept in the proof.
pub fn prove(
    trie: &Trie,
    shape: &Shape,
    start: &BoardClass,
    target: u32,
    certificate: bool,
    options: &SearchOptions,
) -> Result<Proof, BoggleError> {
    if start.cells.len() != shape.cells() || start.cells.iter().any(|&m| m == 0 || m >> 26 != 0) {
        return Err(BoggleError::Config(format!(
            "a class of a {}x{} board needs {} non-empty letter sets",
            shape.rows,
            shape.cols,
            shape.cells()
        )));
    }
    let started = Instant::now();
    let mut bounder = Bounder::new(trie, shape)?;
    let mut scorer = Scorer::new(trie);
    let images = symmetries(shape);
    let mut proof = Proof::default();
    let tree = ClassTree {
        start: start.clone(),
    };
    // A class's bound can take milliseconds: the time limit is checked at
    // every class, not every few thousand as the walk does.
    let deadline = options.limits.max_seconds;
    let (end, _) = walk(&tree, options, |class, _| {
        if deadline.is_some_and(|d| started.elapsed().as_secs_f64() > d) {
            return Visit::Stop;
        }
        proof.classes += 1;
        if let Some(letters) = class.board() {
            let score = scorer.score_letters(shape, &letters);
            if score >= target && is_least_image(&letters, &images) {
                let text: String = letters.iter().map(|&l| char::from(b'a' + l)).collect();
                proof.boards.push((text, score));
            } else if score < target && certificate {
                proof.discarded.push((class.clone(), score));
            }
            return Visit::Prune;
        }
        let bound = bounder.bound(class, target);
        if bound < target {
            if certificate {
                proof.discarded.push((class.clone(), bound));
            }
            return Visit::Prune;
        }
        Visit::Descend
    });
    proof.complete = end == WalkEnd::Complete;
    proof
        .boards
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    proof.seconds = started.elapsed().as_secs_f64();
    Ok(proof)
}

/// The cell permutations of the rectangle's symmetries: `image[i]` is the
/// cell that cell `i` moves to.
pub fn symmetries(shape: &Shape) -> Vec<Vec<usize>> {
    let (rows, cols) = (shape.rows, shape.cols);
    // Flips of rows and of columns, then (square only) the transposes.
    let count = if rows == cols { 8 } else { 4 };
    (0..count)
        .map(|k| {
            (0..rows * cols)
                .map(|i| {
                    let (mut r, mut c) = (i / cols, i % cols);
                    if k & 1 == 1 {
                        r = rows - 1 - r;
                    }
                    if k & 2 == 2 {
                        c = cols - 1 - c;
                    }
                    if k & 4 == 4 {
                        (r, c) = (c, r);
                    }
                    r * cols + c
                })
                .collect()
        })
        .collect()
}

/// Whether `letters` is the least (row-major) of its images.
fn is_least_image(letters: &[u8], images: &[Vec<usize>]) -> bool {
    let mut image = vec![0u8; letters.len()];
    images.iter().all(|map| {
        for (i, &to) in map.iter().enumerate() {
            image[to] = letters[i];
        }
        letters <= image.as_slice()
    })
}
