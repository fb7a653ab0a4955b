//! Proving the best boards: branch and bound over *board classes* (every
//! cell a set of letters).
//!
//! Three upper bounds on the best score of any board in a class:
//! - **max/no-mark** ([`Bounder::max_no_mark`]): for each path of cells,
//!   the best letter at each cell (chosen per path) and every word counted
//!   as often as it is spelled;
//! - **sum/union** ([`Bounder::sum_union`]): every word that some board of
//!   the class spells, each counted once;
//! - **orderly sum/choice trees** ([`crate::orderly`]): each word's cells in
//!   one fixed order, so a path keeps one letter per cell; far tighter than
//!   the other two on wide classes, and cheap to update when one cell is
//!   fixed. The proof splits by it.
//!
//! [`prove`] cuts the boards into top-level classes by letter buckets
//! ([`Buckets`]; one class per symmetry class of bucket assignments),
//! builds each class's orderly tree, and walks its subclasses with the
//! framework's depth-first [`walk()`], fixing one cell's letter per level
//! in split order and discarding every subclass whose bound falls below
//! the target. Subclasses with every cell fixed are boards, scored
//! exactly. Near the root, while a subclass's bound is far above the
//! target, the next cell is *forced* instead: each of its letters gets a
//! merged tree of its own ([`OrderlyTree::force`]), whose bound is tighter
//! at every depth (see [`ProofSettings::switchover`]). Boards equal under
//! the symmetries of the rectangle (8 for a
//! square, 4 otherwise) are reported once, as the least of their images.
//! Classes run on all cores; with a certificate, every discarded subclass
//! is kept with its bound for [`crate::certificate::verify`].

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use frontier_core::{walk, Domain, Edge, SearchOptions, Visit, WalkEnd};
use rayon::prelude::*;

use crate::orderly::{
    split_order, OrderlyBound, OrderlyBuilder, OrderlyTree, SplitOrder, MAX_ORDERLY_CELLS,
};

use crate::board::Shape;
use crate::handover::Shipment;
#[cfg_attr(not(feature = "gpu"), allow(unused_imports))]
pub(crate) use crate::handover::{ArenaPool, Handover, Split};
use crate::results::{ClassResult, PartResult, ResultsHeader, ResultsLog};
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
            let letters = letters_of(mask);
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
        self.max_no_mark_within(class, usize::MAX)
    }

    /// The max/no-mark bound over word prefixes of at most `letters`
    /// letters (the points of the words among them): not a bound on the
    /// class, but a cheap estimate of its cost. On the 4x4 slice's classes
    /// (ENABLE2K, the 2025 buckets) 4 letters rank the classes' CPU proof
    /// times with a Spearman correlation of 0.86 at about 4 ms a class,
    /// against 0.95 for the whole bound at 0.3 s (docs/RESULTS.md).
    pub fn max_no_mark_within(&self, class: &BoardClass, letters: usize) -> u32 {
        (0..self.shape.cells())
            .map(|cell| self.max_within(&class.cells, cell, self.nodes[0], 1 << cell, letters))
            .sum()
    }

    fn max_within(&self, cells: &[u32], cell: usize, node: Node, used: u64, letters: usize) -> u32 {
        let mut best = 0;
        for (_, child) in self.children(cells[cell], node) {
            let mut total = child.points();
            if child.has_children() && letters > 1 {
                for next in self.free_neighbors(cell, used) {
                    total += self.max_within(cells, next, child, used | 1 << next, letters - 1);
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

/// Letter buckets: the letter sets a top-level class gives each cell.
/// Every board's cells fall in exactly one bucket each, so the top-level
/// classes partition the boards over the buckets' alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buckets {
    /// The sets of every cell not covered by `corner` or `edge`.
    pub sets: Vec<u32>,
    /// Sets of the four corner cells, when they differ.
    pub corner: Option<Vec<u32>>,
    /// Sets of the other border cells, when they differ.
    pub edge: Option<Vec<u32>>,
}

impl Buckets {
    /// Parses `"aeiou lnrsy chkmpt bdfgjqvwxz"` (sets split by spaces),
    /// optionally followed by `", corner: <sets>"` and `", edge: <sets>"`
    /// for the corner and the other border cells. The sets of one list
    /// must not share letters, and every list must cover the same letters
    /// (a single set of the whole alphabet leaves those cells to the
    /// letter-by-letter search).
    pub fn parse(text: &str) -> Result<Buckets, BoggleError> {
        let list = |sets: &str| -> Result<Vec<u32>, BoggleError> {
            let masks = sets
                .split_whitespace()
                .map(letter_mask)
                .collect::<Result<Vec<u32>, _>>()?;
            if masks.is_empty() {
                return Err(BoggleError::Config(format!("buckets '{text}': no sets")));
            }
            let mut seen = 0u32;
            for &m in &masks {
                if seen & m != 0 {
                    return Err(BoggleError::Config(format!(
                        "buckets '{text}': letter '{}' is in two sets",
                        char::from(b'a' + (seen & m).trailing_zeros() as u8)
                    )));
                }
                seen |= m;
            }
            Ok(masks)
        };
        let mut parts = text.split(',');
        let mut buckets = Buckets {
            sets: list(parts.next().unwrap_or_default())?,
            corner: None,
            edge: None,
        };
        for part in parts {
            let part = part.trim();
            let (slot, sets) = if let Some(sets) = part.strip_prefix("corner:") {
                (&mut buckets.corner, sets)
            } else if let Some(sets) = part.strip_prefix("edge:") {
                (&mut buckets.edge, sets)
            } else {
                return Err(BoggleError::Config(format!(
                    "buckets '{text}': after a comma expected 'corner: <sets>' or 'edge: <sets>'"
                )));
            };
            if slot.is_some() {
                return Err(BoggleError::Config(format!(
                    "buckets '{text}': '{part}' given twice"
                )));
            }
            *slot = Some(list(sets)?);
        }
        let union = |sets: &[u32]| sets.iter().fold(0, |a, m| a | m);
        for other in [&buckets.corner, &buckets.edge].into_iter().flatten() {
            if union(other) != union(&buckets.sets) {
                return Err(BoggleError::Config(format!(
                    "buckets '{text}': the corner or edge sets cover other letters than the rest"
                )));
            }
        }
        Ok(buckets)
    }

    /// One bucket of `letters`: the top-level class is every board.
    pub fn single(letters: &str) -> Result<Buckets, BoggleError> {
        Ok(Buckets {
            sets: vec![letter_mask(letters)?],
            corner: None,
            edge: None,
        })
    }

    /// The letters the buckets cover.
    pub fn alphabet(&self) -> u32 {
        self.sets.iter().fold(0, |a, m| a | m)
    }

    /// The letters the buckets cover when that is not the whole alphabet,
    /// else None. A proof over such buckets speaks only of the boards
    /// spelled with those letters: its reports must say so, or "no board
    /// scores N" would read as a claim about every board.
    pub fn partial_alphabet(&self) -> Option<String> {
        let all = (1u32 << 26) - 1;
        (self.alphabet() & all != all).then(|| letters_of(self.alphabet()))
    }

    /// The sets as [`Buckets::parse`] reads them.
    pub fn describe(&self) -> String {
        let list = |sets: &[u32]| {
            sets.iter()
                .map(|&m| letters_of(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut text = list(&self.sets);
        for (name, sets) in [("corner", &self.corner), ("edge", &self.edge)] {
            if let Some(sets) = sets {
                text += &format!(", {name}: {}", list(sets));
            }
        }
        text
    }

    /// The letter set of each cell of top-level class `class` (a bucket
    /// index per cell, as [`top_classes`] lists them).
    pub(crate) fn class_masks(&self, shape: &Shape, class: &[u8]) -> Vec<u32> {
        (0..shape.cells())
            .map(|cell| self.sets_of(shape, cell)[class[cell] as usize])
            .collect()
    }

    /// The sets cell `cell` of `shape` chooses from.
    pub(crate) fn sets_of(&self, shape: &Shape, cell: usize) -> &[u32] {
        let (r, c) = (cell / shape.cols, cell % shape.cols);
        let row_edge = r == 0 || r + 1 == shape.rows;
        let col_edge = c == 0 || c + 1 == shape.cols;
        match (&self.corner, &self.edge) {
            (Some(corner), _) if row_edge && col_edge => corner,
            (_, Some(edge)) if (row_edge || col_edge) && !(row_edge && col_edge) => edge,
            _ => &self.sets,
        }
    }
}

/// Letters (0 = a) as text, `q` for Qu as boards are written.
pub(crate) fn letter_text(letters: &[u8]) -> String {
    letters.iter().map(|&l| char::from(b'a' + l)).collect()
}

/// The letters (0 = a) of `text`, which holds a-z only; `None` otherwise.
pub(crate) fn letter_values(text: &str) -> Option<Vec<u8>> {
    text.bytes()
        .map(|b| b.is_ascii_lowercase().then(|| b - b'a'))
        .collect()
}

/// Lays letters given in split order out on the board's cells.
pub(crate) fn place_in_order(
    order: &[usize],
    letters: impl IntoIterator<Item = u8>,
    board: &mut [u8],
) {
    for (&cell, letter) in order.iter().zip(letters) {
        board[cell] = letter;
    }
}

/// Boards found (row-major letters, score) as the proof reports them: the
/// least of each one's symmetric images, once, best first.
pub(crate) fn boards_up_to_symmetry(
    shape: &Shape,
    boards: impl IntoIterator<Item = (Vec<u8>, u32)>,
) -> Vec<(String, u32)> {
    let images = symmetries(shape);
    let unique: std::collections::BTreeMap<String, u32> = boards
        .into_iter()
        .map(|(letters, score)| (letter_text(&least_image(&letters, &images)), score))
        .collect();
    let mut boards: Vec<(String, u32)> = unique.into_iter().collect();
    boards.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    boards
}

/// The letters of `mask`, alphabetical.
pub(crate) fn letters_of(mask: u32) -> String {
    (0..26u8)
        .filter(|l| mask >> l & 1 == 1)
        .map(|l| char::from(b'a' + l))
        .collect()
}

/// The top-level classes of a proof: one bucket index per cell, only the
/// least of each class's symmetric images (a board's images lie in the
/// images of its class, so one of them lies in the class kept).
pub fn top_classes(shape: &Shape, buckets: &Buckets) -> Result<Vec<Vec<u8>>, BoggleError> {
    let radix: Vec<usize> = (0..shape.cells())
        .map(|cell| buckets.sets_of(shape, cell).len())
        .collect();
    let total = radix
        .iter()
        .try_fold(1u64, |a, &r| a.checked_mul(r as u64))
        .filter(|&t| t <= 1 << 32)
        .ok_or_else(|| {
            BoggleError::Config(format!(
                "{}x{} with {} buckets makes too many top-level classes to list",
                shape.rows,
                shape.cols,
                buckets.sets.len()
            ))
        })?;
    let sources = image_sources(shape);
    let mut classes = Vec::new();
    let mut digits = vec![0u8; shape.cells()];
    for _ in 0..total {
        if is_least_image(&digits, &sources) {
            classes.push(digits.clone());
        }
        // The next assignment, last cell fastest.
        for (d, &r) in digits.iter_mut().zip(&radix).rev() {
            *d += 1;
            if (*d as usize) < r {
                break;
            }
            *d = 0;
        }
    }
    Ok(classes)
}

/// What a proof is asked.
#[derive(Clone, Debug)]
pub struct ProofSettings {
    /// The board shape (at most [`MAX_ORDERLY_CELLS`] cells).
    pub shape: Shape,
    /// Boards scoring at least this are reported; classes bounded below it
    /// are discarded.
    pub target: u32,
    /// The top-level classes' letter sets.
    pub buckets: Buckets,
    /// Stop after this many seconds (the proof is then incomplete).
    pub max_seconds: Option<f64>,
    /// Keep the discarded subclasses with their bounds (a certificate).
    pub certificate: bool,
    /// Search only this many top-level classes drawn at random (with this
    /// seed): a sample to project the whole proof's time from.
    pub sample: Option<(usize, u64)>,
    /// `Some((part, parts))`: search only the classes whose index (after
    /// sampling) is `part` modulo `parts` — one process's share of a proof
    /// spread over several (`mpirun`); the shares' proofs add up.
    pub share: Option<(usize, usize)>,
    /// Force cells (a merged tree per letter of the next cell) while a
    /// subclass's bound is above this; below it, walk the
    /// forced tree incrementally. None: never force. See
    /// [`crate::orderly::OrderlyTree::force`].
    pub switchover: Option<u32>,
    /// The order each class's cells are split in.
    pub order: SplitOrder,
}

/// How far above the target, in percent, a subclass's bound must be for
/// the proof to force its next cell, by default: the best of 8000, 9000,
/// 10500 and 12500 on a 10-class 4x4 sample (target 3500), and better than
/// no forcing on a 32-class 3x4 sample (target 1500); see docs/RESULTS.md.
pub const DEFAULT_SWITCHOVER_PERCENT: u32 = 260;

/// [`DEFAULT_SWITCHOVER_PERCENT`] for proofs that walk the bottom on a GPU
/// (`gpu_prove.rs`): there the walk below the split is cheap and the
/// host's merges are what bound the time, so forcing stops higher. On the
/// 256-class 4x4 sample (target 3500, one H200 and 16 host threads)
/// switchovers of 9,100, 16,000 and 24,000 took 78, 66 and 94 s; see
/// docs/RESULTS.md.
pub const DEFAULT_GPU_SWITCHOVER_PERCENT: u32 = 460;

/// The default switchover for `target` (see [`ProofSettings::switchover`]).
pub fn default_switchover(target: u32) -> u32 {
    switchover_at(target, DEFAULT_SWITCHOVER_PERCENT)
}

/// The default switchover for `target` of a GPU proof.
pub fn default_gpu_switchover(target: u32) -> u32 {
    switchover_at(target, DEFAULT_GPU_SWITCHOVER_PERCENT)
}

fn switchover_at(target: u32, percent: u32) -> u32 {
    (u64::from(target) * u64::from(percent) / 100).min(u64::from(u32::MAX)) as u32
}

/// A subclass discarded by its bound: the letters of the first `letters.len()`
/// cells in split order fixed, the rest their bucket's sets. With every
/// cell fixed it is a board, and `bound` its score when that reaches the
/// target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discarded {
    /// Letters fixed, in split order.
    pub letters: Vec<u8>,
    /// How many of them were forced: its bound is that of the class's
    /// tree with the first `forced` letters forced on it in order
    /// ([`OrderlyTree::force`]), the rest fixed on it incrementally.
    pub forced: usize,
    /// Its orderly bound (a board's: its score).
    pub bound: u32,
}

/// One top-level class as the proof left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassRecord {
    /// Bucket index per cell.
    pub buckets: Vec<u8>,
    /// The class's orderly bound.
    pub bound: u32,
    /// In depth-first order, the subclasses that cover it, each discarded
    /// or a board at or above the target (empty when `bound` is below the
    /// target).
    pub pieces: Vec<Discarded>,
}

/// What a proof found.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The shape proven.
    pub shape: Shape,
    /// The target.
    pub target: u32,
    /// The top-level classes' buckets.
    pub buckets: Buckets,
    /// Every board scoring at least the target, once per symmetry class
    /// (the least of its images, row-major letters), best first.
    pub boards: Vec<(String, u32)>,
    /// Top-level classes searched (one per symmetry class).
    pub classes: u64,
    /// Top-level classes of the whole proof (more than `classes` when
    /// sampling).
    pub classes_total: u64,
    /// Top-level classes discarded by their root bound.
    pub classes_discarded: u64,
    /// Subclasses bounded below the top level.
    pub subclasses: u64,
    /// Boards scored exactly (their orderly bound reached the target).
    pub boards_scored: u64,
    /// Orderly-tree nodes built, over all classes.
    pub tree_nodes: u64,
    /// The highest top-level bound.
    pub max_bound: u32,
    /// The split order: how each class's cells were ordered for fixing.
    pub order: SplitOrder,
    /// Cells were forced while bounds stood above this (None: never).
    pub switchover: Option<u32>,
    /// Top-level classes finished by earlier runs (a results file
    /// resumed): not searched again, not in `classes`; their boards are in
    /// `boards`.
    pub classes_resumed: u64,
    /// With [`ProofSettings::certificate`], every class searched.
    pub certificate: Vec<ClassRecord>,
    /// Whether every class was searched (false when the time limit cut it).
    pub complete: bool,
    /// Seconds each class searched took on its thread, in class order.
    pub class_seconds: Vec<f64>,
    /// Seconds of each class finished by earlier runs (a results file
    /// resumed), as that file gives them.
    pub resumed_seconds: Vec<f64>,
    /// The letters of each class searched, in the order of
    /// `class_seconds`: one set per cell, row-major, split by spaces (the
    /// form other provers take a class in, for side-by-side timing).
    pub class_letters: Vec<String>,
    /// Seconds.
    pub seconds: f64,
    /// Of those, the seconds spent listing the top-level classes (a fixed
    /// cost, left out of projections from a sample).
    pub setup_seconds: f64,
    /// Where the classes' time on their threads went, over the classes
    /// searched.
    pub host_phases: HostPhases,
}

/// Where a class's time on its thread goes, in seconds (summed over a
/// proof's classes): what is left of the class's time is the walk, the
/// incremental bounds and the memory they fault in. Measured because the
/// GPU machines have no profiler: in a GPU proof the host threads bound
/// the run, and these say which of their steps does.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostPhases {
    /// Building the class's tree (on the GPU: waiting for the path sorter,
    /// the kernels and the read-back).
    pub build: f64,
    /// Forcing cells: the merges (on the GPU, waiting for them and reading
    /// the merged nodes back).
    pub merges: f64,
    /// Handing subclasses over to the GPU: gathering them, copying trees
    /// to the device and waiting for room in the queue.
    pub handovers: f64,
}

impl HostPhases {
    fn add(&mut self, other: &HostPhases) {
        self.build += other.build;
        self.merges += other.merges;
        self.handovers += other.handovers;
    }

    /// One line for the log: each phase's seconds and share of
    /// `class_seconds`, the classes' time on their threads, and the rest.
    pub fn describe(&self, class_seconds: f64) -> String {
        let share = |seconds: f64| {
            if class_seconds > 0.0 {
                100.0 * seconds / class_seconds
            } else {
                0.0
            }
        };
        let rest = class_seconds - self.build - self.merges - self.handovers;
        format!(
            "host threads' {class_seconds:.1} s on classes: tree builds {:.1} s ({:.0}%), merges {:.1} s ({:.0}%), handovers {:.1} s ({:.0}%), the walk and the rest {rest:.1} s ({:.0}%)",
            self.build,
            share(self.build),
            self.merges,
            share(self.merges),
            self.handovers,
            share(self.handovers),
            share(rest),
        )
    }
}

impl Proof {
    /// The whole proof's time on one core, projected from the classes
    /// searched (a sample; with a resumed results file, the earlier runs'
    /// classes too: a run that finishes a share's last classes projects
    /// from the whole share, not from its heavy tail): the mean class time
    /// times every class, in core-hours, with its standard error. Each
    /// class is timed on its own thread, so a slow class costs what it
    /// costs and no more (a wall time times threads would charge every
    /// thread for the slowest). None when the time limit cut the proof:
    /// the classes left out would be the slow ones.
    pub fn projected_core_hours(&self) -> Option<(f64, f64)> {
        if !self.complete {
            return None;
        }
        let seconds: Vec<f64> = self
            .class_seconds
            .iter()
            .chain(&self.resumed_seconds)
            .copied()
            .collect();
        let (mean, error) = mean_and_standard_error(&seconds)?;
        let scale = self.classes_total as f64 / 3600.0;
        Some((mean * scale, error * scale))
    }
}

/// The mean of `values` and its standard error (the sample's standard
/// deviation over the square root of its size; 0 for one value), or None
/// for no values.
pub(crate) fn mean_and_standard_error(values: &[f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = if values.len() > 1 {
        values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    Some((mean, (variance / n).sqrt()))
}

/// The subclasses of one top-level class below a subclass (`start`):
/// positions of the split order fixed one letter at a time, depth first.
struct Subclasses {
    /// Letter set of each split-order position.
    masks: Vec<u32>,
    /// Where the walk starts: the class (nothing fixed) or a subclass.
    start: Fixed,
}

/// The letters fixed so far, in split order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Fixed {
    letters: [u8; MAX_ORDERLY_CELLS],
    depth: u8,
}

impl Fixed {
    /// The subclass whose first positions are `letters`.
    fn of(letters: &[u8]) -> Fixed {
        let mut fixed = Fixed {
            letters: [0; MAX_ORDERLY_CELLS],
            depth: letters.len() as u8,
        };
        fixed.letters[..letters.len()].copy_from_slice(letters);
        fixed
    }
}

impl Domain for Subclasses {
    type State = Fixed;
    /// The letter fixed.
    type Move = u8;

    fn start(&self) -> Fixed {
        self.start.clone()
    }

    fn is_goal(&self, _: &Fixed) -> bool {
        false
    }

    fn expand(&self, fixed: &Fixed, out: &mut Vec<Edge<Fixed, u8>>) {
        let depth = fixed.depth as usize;
        let Some(&mask) = self.masks.get(depth) else {
            return;
        };
        let mut letters = mask;
        while letters != 0 {
            let letter = letters.trailing_zeros() as u8;
            letters &= letters - 1;
            let mut child = fixed.clone();
            child.letters[depth] = letter;
            child.depth += 1;
            out.push(Edge {
                state: child,
                mv: letter,
                cost: 1,
            });
        }
    }
}

/// One thread's buffers, for a proof or for checking its certificate.
pub(crate) struct Worker<'t> {
    pub(crate) builder: OrderlyBuilder<'t>,
    pub(crate) tree: OrderlyTree,
    pub(crate) bound: OrderlyBound,
    pub(crate) scorer: Scorer<'t>,
    /// A class's sorted word paths, where its tree comes from elsewhere
    /// ([`Split::trees`]).
    paths: Vec<u128>,
}

impl<'t> Worker<'t> {
    /// Buffers for classes of `builder`'s shape (`cells` cells).
    pub(crate) fn new(builder: &OrderlyBuilder<'t>, trie: &'t Trie, cells: usize) -> Worker<'t> {
        Worker {
            builder: builder.clone(),
            tree: OrderlyTree::default(),
            bound: OrderlyBound::new(cells),
            scorer: Scorer::new(trie),
            paths: Vec::new(),
        }
    }
}

/// What searching one top-level class (or a subclass) gave.
#[derive(Default)]
pub(crate) struct ClassOutcome {
    /// Boards at or above the target (row-major letters) with their scores.
    pub(crate) boards: Vec<(Vec<u8>, u32)>,
    pub(crate) subclasses: u64,
    pub(crate) boards_scored: u64,
    tree_nodes: u64,
    record: Option<ClassRecord>,
    complete: bool,
    bound: u32,
    seconds: f64,
    phases: HostPhases,
    /// Whether the first position was searched letter by letter, skipping
    /// the letters of earlier runs' parts (which then count toward the
    /// class); a class walked whole (not forced at its root, say under
    /// another switchover) searched those letters again.
    parts_skipped: bool,
}

/// Finds every board of `settings.shape` scoring at least the target, by
/// branch and bound: each top-level class (up to symmetry, on all cores
/// of the current rayon pool) gets its orderly tree, and its subclasses
/// are walked depth first by [`walk()`], fixing cells in split order and
/// discarding every subclass whose bound falls below the target.
/// `progress` is called now and then with (classes done, classes).
pub fn prove(
    trie: &Trie,
    settings: &ProofSettings,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Proof, BoggleError> {
    prove_split(trie, settings, progress, None, None)
}

/// How long a class runs before its finished first-position letters are
/// appended to the results file as parts (see [`crate::results`]): long
/// enough that a file holds parts for the few heavy classes only (the 4×4
/// slice's class mean is 7.6 s), short against a run (ten minutes on a
/// lent machine), so that a class longer than any run still finishes.
pub const PART_SECONDS: f64 = 60.0;

/// [`prove`], appending each finished top-level class to the results
/// file `path` (see [`crate::results`]): a new file, or with `resume` one
/// of the same proof, whose classes are skipped and whose boards are the
/// proof's too. A class that has run `part_seconds` appends its finished
/// first-position letters as parts, which a resumed proof skips (not with
/// a certificate, which needs every piece of a class from one run).
pub fn prove_logged(
    trie: &Trie,
    settings: &ProofSettings,
    progress: &(dyn Fn(u64, u64) + Sync),
    path: &Path,
    resume: bool,
    part_seconds: f64,
) -> Result<Proof, BoggleError> {
    let log = open_results(trie, settings, path, resume)?;
    prove_split(trie, settings, progress, None, Some((&log, part_seconds)))
}

/// The results file `path` of the proof `settings` describes (see
/// [`crate::results`]): a new one, or with `resume` one of the same proof.
pub(crate) fn open_results(
    trie: &Trie,
    settings: &ProofSettings,
    path: &Path,
    resume: bool,
) -> Result<ResultsLog, BoggleError> {
    let shape = &settings.shape;
    check_proof_shape(shape)?;
    // The header names the number of classes: listed once more here (a
    // fraction of a second on 4x4) rather than the log opened halfway
    // through the proof, since a split proof's other threads write to it
    // after the proof's own part returns.
    let classes_total = top_classes(shape, &settings.buckets)?.len() as u64;
    let header = ResultsHeader::new(
        trie,
        shape,
        settings.target,
        &settings.buckets,
        classes_total,
        settings.share,
        &settings.order,
    );
    ResultsLog::open(path, &header, resume)
}

/// Refuses a board that proofs do not take.
pub(crate) fn check_proof_shape(shape: &Shape) -> Result<(), BoggleError> {
    if shape.cells() == 0 || shape.cells() > MAX_ORDERLY_CELLS {
        return Err(BoggleError::Config(format!(
            "proofs take boards of 1 to {MAX_ORDERLY_CELLS} cells, not {}x{}",
            shape.rows, shape.cols
        )));
    }
    Ok(())
}

/// [`prove`], handing the subclasses at `split`'s depth over to its sink
/// instead of walking below them (the proof is then short of what the sink
/// finds). With `results`, the classes its file holds are skipped and
/// each finished class is appended to it (see [`prove_logged`]); a split
/// proof appends through its [`Split::ledger`] instead, once the sink's
/// side of the class is done too.
pub(crate) fn prove_split(
    trie: &Trie,
    settings: &ProofSettings,
    progress: &(dyn Fn(u64, u64) + Sync),
    split: Option<&Split>,
    results: Option<(&ResultsLog, f64)>,
) -> Result<Proof, BoggleError> {
    let shape = &settings.shape;
    check_proof_shape(shape)?;
    // Refused before the classes are listed or a results file is opened.
    if let Some((0, _)) = settings.sample {
        return Err(BoggleError::Config(
            "a sample of 0 classes: sample at least one class".into(),
        ));
    }
    let started = Instant::now();
    // Each class with its index in the whole list, the name results files
    // know it by.
    let mut classes: Vec<(u64, Vec<u8>)> = top_classes(shape, &settings.buckets)?
        .into_iter()
        .enumerate()
        .map(|(i, class)| (i as u64, class))
        .collect();
    let classes_total = classes.len() as u64;
    let part_seconds = results.map_or(f64::INFINITY, |(_, seconds)| seconds);
    let log = results.map(|(log, _)| log);
    // A split proof's classes end on the sink's side: the ledger appends
    // them, and without one they would be appended too early.
    let ledger = split.and_then(|s| s.ledger);
    if log.is_some() && split.is_some() && ledger.is_none() {
        return Err(BoggleError::Config(
            "a split proof writes its results file through a ledger".into(),
        ));
    }
    if let Some((count, seed)) = settings.sample {
        let mut rng = frontier_core::rng::SplitMix64::new(seed);
        for i in (1..classes.len()).rev() {
            classes.swap(i, rng.below(i as u64 + 1) as usize);
        }
        classes.truncate(count);
    }
    if let Some((part, parts)) = settings.share {
        if part >= parts {
            return Err(BoggleError::Config(format!(
                "share {part} of {parts} does not exist"
            )));
        }
        classes = classes
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % parts == part)
            .map(|(_, class)| class)
            .collect();
    }
    if let Some(log) = log {
        classes.retain(|(index, _)| !log.is_done(*index));
    }
    // The first failure to append to the results file; it stops the proof.
    let log_error: std::sync::Mutex<Option<BoggleError>> = std::sync::Mutex::new(None);
    let setup_seconds = started.elapsed().as_secs_f64();
    // Checks the shape and dictionary once, so workers cannot fail; each
    // class then takes its own order.
    let builder = OrderlyBuilder::new(trie, shape, &split_order(shape))?;
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let total = classes.len() as u64;
    let start_order = if split.is_some() {
        // Not yet for GPU proofs: their queue holds two classes a thread,
        // and the heaviest classes first would fill it with the largest
        // trees at once (gigabytes each), on the host and on the device,
        // before anyone has measured that it fits.
        (0..classes.len()).collect()
    } else {
        heaviest_first(trie, settings, &classes)?
    };
    // Each job takes the next class in `start_order` rather than its own: rayon
    // splits the list into ranges, one per thread, so that a sorted list
    // would put all of its heaviest classes in the first thread's range.
    let next = std::sync::atomic::AtomicUsize::new(0);
    // One worker (tree and buffers) a thread, reused from class to class.
    // Each class is its own rayon job (`with_max_len(1)`): in longer
    // ranges a thread held the classes queued behind a heavy one while
    // others idled, and a run's time limit then dropped light classes
    // that had never started.
    let workers: Vec<std::sync::Mutex<Option<Worker>>> = (0..rayon::current_num_threads())
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let mut outcomes: Vec<(usize, ClassOutcome)> = (0..classes.len())
        .into_par_iter()
        .with_max_len(1)
        .map(|_| {
            // Each of the `classes.len()` jobs takes one position: every
            // position is taken once.
            let at = start_order[next.fetch_add(1, Ordering::Relaxed)];
            let index = &classes[at].0;
            let thread = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let make = || Worker::new(&builder, trie, shape.cells());
            // A thread's own slot is free unless a class's search ever runs
            // rayon jobs inside it (it does not today); then a spare worker
            // serves. A poisoned slot (a panic, re-raised by rayon) is
            // reused as it stands.
            let mut slot = match workers[thread].try_lock() {
                Ok(slot) => Some(slot),
                Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => None,
            };
            let mut spare = None;
            let worker = match slot.as_mut() {
                Some(slot) => slot.get_or_insert_with(make),
                None => spare.insert(make()),
            };
            // The limit is checked before each class as well as inside
            // the walk, so a short limit stops even a proof of small classes.
            if out_of_time(settings, started, &stop) {
                return (at, ClassOutcome::default());
            }
            let class_started = Instant::now();
            // A certificate needs every piece of the class, and a split
            // proof's parts end on the sink's side: no parts.
            let log_parts = log.filter(|_| !settings.certificate && split.is_none());
            let earlier = log_parts.map_or(&[][..], |log| log.parts_of(*index));
            let parts =
                log_parts.map(|log| Parts::new(log, *index, earlier, part_seconds, &log_error));
            let mut outcome =
                search_class(worker, settings, &classes[at], started, &stop, split, parts);
            outcome.seconds = class_started.elapsed().as_secs_f64();
            if outcome.complete && outcome.parts_skipped {
                for part in earlier {
                    outcome.seconds += part.seconds;
                    outcome.subclasses += part.subclasses;
                    outcome.boards.extend(part.boards.iter().cloned());
                }
            }
            if let Some(ledger) = ledger {
                ledger.host_done(
                    *index,
                    outcome.complete,
                    outcome.seconds,
                    outcome.subclasses,
                    &outcome.boards,
                );
            } else if let Some(log) = log.filter(|_| outcome.complete) {
                let appended = log.append(&ClassResult {
                    index: *index,
                    seconds: outcome.seconds,
                    subclasses: outcome.subclasses,
                    boards: outcome.boards.clone(),
                });
                if let Err(e) = appended {
                    stop.store(true, Ordering::Relaxed);
                    let mut first = log_error.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert(e);
                    // Not written: the class counts as not searched.
                    outcome.complete = false;
                }
            }
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(n, total);
            (at, outcome)
        })
        .collect();
    // Back in the classes' order, which the proof's lists keep.
    outcomes.sort_unstable_by_key(|&(at, _)| at);
    let mut proof = Proof {
        shape: shape.clone(),
        target: settings.target,
        buckets: settings.buckets.clone(),
        boards: Vec::new(),
        classes: 0,
        classes_total,
        classes_discarded: 0,
        subclasses: 0,
        boards_scored: 0,
        tree_nodes: 0,
        max_bound: 0,
        order: settings.order.clone(),
        switchover: settings.switchover,
        classes_resumed: 0,
        certificate: Vec::new(),
        complete: true,
        class_seconds: Vec::new(),
        resumed_seconds: Vec::new(),
        class_letters: Vec::new(),
        seconds: 0.0,
        setup_seconds,
        host_phases: HostPhases::default(),
    };
    if let Some(e) = log_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut boards = Vec::new();
    if let Some(log) = log {
        proof.classes_resumed = log.previous().len() as u64;
        for class in log.previous() {
            boards.extend(class.boards.iter().cloned());
            proof.resumed_seconds.push(class.seconds);
        }
    }
    for ((_, outcome), (_, class)) in outcomes.into_iter().zip(&classes) {
        proof.complete &= outcome.complete;
        if !outcome.complete {
            continue;
        }
        proof.classes += 1;
        proof.classes_discarded += u64::from(outcome.bound < settings.target);
        proof.subclasses += outcome.subclasses;
        proof.boards_scored += outcome.boards_scored;
        proof.tree_nodes += outcome.tree_nodes;
        proof.max_bound = proof.max_bound.max(outcome.bound);
        proof.class_seconds.push(outcome.seconds);
        proof.host_phases.add(&outcome.phases);
        proof.class_letters.push(
            (0..shape.cells())
                .map(|cell| letters_of(settings.buckets.sets_of(shape, cell)[class[cell] as usize]))
                .collect::<Vec<_>>()
                .join(" "),
        );
        boards.extend(outcome.boards);
        proof.certificate.extend(outcome.record);
    }
    proof.boards = boards_up_to_symmetry(shape, boards);
    proof.seconds = started.elapsed().as_secs_f64();
    tracing::info!(
        "{}",
        proof.host_phases.describe(proof.class_seconds.iter().sum())
    );
    Ok(proof)
}

/// Prefix letters of the cost estimate that orders a proof's classes.
const ESTIMATE_LETTERS: usize = 4;

/// The positions of `classes` in the order their proof starts them: the
/// heaviest first by [`Bounder::max_no_mark_within`], so that the last
/// classes to start are light and the threads finish together (in a
/// random order, a heavy class started last ran on alone: replayed on the
/// 4x4 slice's measured class times, 16 threads would take 17% longer and
/// 64 threads 39% longer in a random order, docs/RESULTS.md). With one
/// thread the order cannot matter, and the classes go in their own order,
/// unestimated.
fn heaviest_first(
    trie: &Trie,
    settings: &ProofSettings,
    classes: &[(u64, Vec<u8>)],
) -> Result<Vec<usize>, BoggleError> {
    let shape = &settings.shape;
    if rayon::current_num_threads() == 1 {
        return Ok((0..classes.len()).collect());
    }
    // Checks the shape once, so that the estimates cannot fail.
    Bounder::new(trie, shape)?;
    let estimating = Instant::now();
    let estimates: Vec<u32> = classes
        .par_iter()
        .map_init(
            || Bounder::new(trie, shape),
            |bounder, (_, class)| {
                bounder
                    .as_ref()
                    .map_or(0, |bounder| estimated_cost(bounder, settings, class))
            },
        )
        .collect();
    let mut order: Vec<usize> = (0..classes.len()).collect();
    // Stable: classes of one estimate keep their own order.
    order.sort_by_key(|&at| std::cmp::Reverse(estimates[at]));
    tracing::info!(
        "{} classes ordered heaviest first by their estimated cost in {:.1} s",
        classes.len(),
        estimating.elapsed().as_secs_f64()
    );
    Ok(order)
}

/// The cost estimate of top-level class `class` (a bucket index per cell)
/// that orders a proof's classes.
fn estimated_cost(bounder: &Bounder, settings: &ProofSettings, class: &[u8]) -> u32 {
    let cells = settings.buckets.class_masks(&settings.shape, class);
    bounder.max_no_mark_within(&BoardClass { cells }, ESTIMATE_LETTERS)
}

/// Searches one top-level class: its index in the list of all (which its
/// handovers carry) and its bucket index per cell.
fn search_class(
    worker: &mut Worker,
    settings: &ProofSettings,
    listed: &(u64, Vec<u8>),
    started: Instant,
    stop: &AtomicBool,
    split: Option<&Split>,
    parts: Option<Parts>,
) -> ClassOutcome {
    let (index, class) = (listed.0, listed.1.as_slice());
    let shape = &settings.shape;
    let masks = settings.buckets.class_masks(shape, class);
    worker
        .builder
        .reorder(&settings.order.of_class(shape, &masks));
    if let Some(split) = split {
        if let Some(arena) = split.pool.take() {
            let smaller = worker.tree.adopt_arena(arena);
            if smaller.capacity() > 0 {
                split.pool.give(smaller);
            }
        }
    }
    let building = Instant::now();
    let built = split
        .and_then(|s| s.trees)
        .and_then(|trees| trees(&worker.builder, &masks, &mut worker.tree, &mut worker.paths));
    let bound = match built {
        Some(bound) => bound,
        None => worker.builder.build(&masks, &mut worker.tree),
    };
    let mut outcome = ClassOutcome {
        tree_nodes: worker.tree.node_count() as u64,
        bound,
        complete: true,
        phases: HostPhases {
            build: building.elapsed().as_secs_f64(),
            ..HostPhases::default()
        },
        ..ClassOutcome::default()
    };
    let mut pieces = Vec::new();
    if bound >= settings.target {
        let mut items = Vec::new();
        // Chosen once a class: its handovers hold subclasses of one depth.
        let depth = split.map(|s| s.class_depth(masks.len()));
        let mut shipment = split
            .zip(depth)
            .map(|(s, depth)| Shipment::new(s.flush_words, depth, index));
        let mut below = Below {
            settings,
            started,
            stop,
            split: depth,
            forced: 0,
            parts,
            outcome: &mut outcome,
            pieces: &mut pieces,
            items: &mut items,
            shipment: shipment.as_mut(),
        };
        let masks: Vec<u32> = worker.builder.order().iter().map(|&c| masks[c]).collect();
        below.outcome.complete = below.force(worker, &masks, &mut Vec::new(), split);
        // A class with nothing to hand over keeps its arena for the next.
        if let (Some(split), Some(shipment)) = (split, shipment.filter(|s| !s.is_empty())) {
            let handing = Instant::now();
            let tree = worker.tree.take();
            if let Some(handover) = shipment.finish(tree, &masks, worker.builder.order()) {
                (split.sink)(handover);
            }
            outcome.phases.handovers += handing.elapsed().as_secs_f64();
        }
    }
    if settings.certificate {
        outcome.record = Some(ClassRecord {
            buckets: class.to_vec(),
            bound,
            pieces,
        });
    }
    outcome
}

/// One walk below a subclass and where it puts what it finds.
pub(crate) struct Below<'a> {
    pub(crate) settings: &'a ProofSettings,
    pub(crate) started: Instant,
    pub(crate) stop: &'a AtomicBool,
    /// Hand subclasses over at this depth instead of walking below them
    /// (the class's own: [`Split::class_depth`]).
    pub(crate) split: Option<usize>,
    pub(crate) outcome: &'a mut ClassOutcome,
    /// With a certificate: every subclass discarded.
    pub(crate) pieces: &'a mut Vec<Discarded>,
    /// The subclasses found at the split depth, `split` letters each,
    /// until they are handed over.
    pub(crate) items: &'a mut Vec<u8>,
    /// With a split: the class's handover being gathered.
    pub(crate) shipment: Option<&'a mut Shipment>,
    /// Positions forced in the tree being walked (see [`Below::force`]).
    pub(crate) forced: usize,
    /// Where the class records its finished first-position letters.
    pub(crate) parts: Option<Parts<'a>>,
}

/// A class's parts: the letters of its first position (in split order)
/// that earlier runs finished, and the record of those this run finishes
/// (see [`crate::results`]).
pub(crate) struct Parts<'a> {
    log: &'a ResultsLog,
    index: u64,
    /// Letters earlier runs finished (bit per letter): skipped.
    skip: u32,
    /// Seconds into the class after which finished letters are recorded.
    after: f64,
    class_started: Instant,
    /// Letters finished and not recorded yet, since `since`, from
    /// `subclasses_from` subclasses and `boards_from` boards on.
    letters: Vec<u8>,
    since: Instant,
    subclasses_from: u64,
    boards_from: usize,
    /// The proof's first failure to append; one stops the proof.
    error: &'a std::sync::Mutex<Option<BoggleError>>,
}

impl<'a> Parts<'a> {
    /// The parts of class `index`, starting now: `earlier` (from `log`)
    /// skipped, finished letters appended to `log` once the class has run
    /// `after` seconds, the first failure to append kept in `error`.
    fn new(
        log: &'a ResultsLog,
        index: u64,
        earlier: &[PartResult],
        after: f64,
        error: &'a std::sync::Mutex<Option<BoggleError>>,
    ) -> Parts<'a> {
        let now = Instant::now();
        Parts {
            log,
            index,
            skip: earlier
                .iter()
                .flat_map(|p| &p.letters)
                .fold(0, |mask, &l| mask | 1 << l),
            after,
            class_started: now,
            letters: Vec::new(),
            since: now,
            subclasses_from: 0,
            boards_from: 0,
            error,
        }
    }
}

impl Below<'_> {
    /// Searches the subclass `prefix` (letters of the first positions in
    /// split order, of a class whose positions take `masks`), those
    /// positions forced in `worker.tree` (its root bound at or above the
    /// target).
    ///
    /// While the bound is above the switchover, the next position is
    /// forced too, one letter at a time ([`OrderlyTree::force`]): a forced
    /// tree bounds tighter at every depth, where the incremental walk
    /// tightens only the choice nodes waiting on the next cell. It costs a
    /// merge, worth it near the root where bounds are high and subclasses
    /// few; below the switchover the forced tree is walked incrementally
    /// ([`Below::walk`]). Letters whose incremental bound already falls
    /// below the target are discarded without a merge (that bound holds
    /// too). Returns whether it finished (not stopped by the time limit).
    fn force(
        &mut self,
        worker: &mut Worker,
        masks: &[u32],
        prefix: &mut Vec<u8>,
        split: Option<&Split>,
    ) -> bool {
        let depth = prefix.len();
        let target = self.settings.target;
        // A forced subclass always walks at least one position, and hands
        // its subclasses over below the split depth, not at it.
        let deepest = self
            .split
            .map_or(masks.len(), |depth| depth.min(masks.len()))
            .saturating_sub(1);
        let above = self
            .settings
            .switchover
            .is_some_and(|s| worker.tree.bound() > s);
        if !above || depth >= deepest {
            self.forced = depth;
            let complete = self.walk(worker, masks, prefix);
            if let Some(shipment) = self.shipment.as_mut().filter(|_| !self.items.is_empty()) {
                let handing = Instant::now();
                let items = std::mem::take(self.items);
                let order = worker.builder.order();
                if let Some(handover) = shipment.hand_over(&worker.tree, items, masks, order) {
                    // A shipment exists only with a split.
                    if let Some(split) = split {
                        (split.sink)(handover);
                    }
                }
                self.outcome.phases.handovers += handing.elapsed().as_secs_f64();
            }
            return complete;
        }
        // The incremental bounds of the next position's letters.
        let mut incremental = [0u32; 26];
        worker.bound.bound_of(&worker.tree, prefix);
        let mut pending = masks[depth];
        while pending != 0 {
            let letter = pending.trailing_zeros() as u8;
            pending &= pending - 1;
            incremental[letter as usize] = worker.bound.fix(&worker.tree, depth + 1, letter);
        }
        self.outcome.parts_skipped |= depth == 0 && self.parts.is_some();
        let mut pending = masks[depth];
        while pending != 0 {
            let letter = pending.trailing_zeros() as u8;
            pending &= pending - 1;
            if depth == 0
                && self
                    .parts
                    .as_ref()
                    .is_some_and(|p| p.skip >> letter & 1 == 1)
            {
                continue;
            }
            self.outcome.subclasses += 1;
            if out_of_time(self.settings, self.started, self.stop) {
                return false;
            }
            prefix.push(letter);
            let (mut forced, mut bound) = (depth, incremental[letter as usize]);
            let mut complete = true;
            if bound >= target {
                let nodes = worker.tree.node_count();
                let merging = Instant::now();
                let elsewhere = split
                    .and_then(|s| s.forces)
                    .and_then(|forces| forces(&mut worker.tree, depth as u32, letter));
                let saved;
                (bound, saved) =
                    elsewhere.unwrap_or_else(|| worker.tree.force(depth as u32, letter));
                self.outcome.phases.merges += merging.elapsed().as_secs_f64();
                self.outcome.tree_nodes += (worker.tree.node_count() - nodes) as u64;
                forced = depth + 1;
                let mark = self.shipment.as_ref().map(|s| s.mark());
                if bound >= target {
                    complete = self.force(worker, masks, prefix, split);
                }
                match (&self.shipment, mark) {
                    // Subclasses handed over below still need these nodes.
                    (Some(shipment), Some(mark)) if shipment.keeps_since(mark) => {
                        worker.tree.unforce_keeping_nodes(saved)
                    }
                    _ => worker.tree.unforce(saved),
                }
            }
            if bound < target && self.settings.certificate {
                self.pieces.push(Discarded {
                    letters: prefix.clone(),
                    forced,
                    bound,
                });
            }
            prefix.pop();
            if !complete || (depth == 0 && !self.finished_letter(letter)) {
                return false;
            }
        }
        true
    }

    /// Notes that the first position's `letter` is done, and appends the
    /// letters done since the last part once the class has run long
    /// enough. False if the append failed (the proof stops).
    fn finished_letter(&mut self, letter: u8) -> bool {
        let Some(parts) = self.parts.as_mut() else {
            return true;
        };
        parts.letters.push(letter);
        if parts.class_started.elapsed().as_secs_f64() < parts.after {
            return true;
        }
        let part = PartResult {
            index: parts.index,
            letters: std::mem::take(&mut parts.letters),
            seconds: parts.since.elapsed().as_secs_f64(),
            subclasses: self.outcome.subclasses - parts.subclasses_from,
            boards: self.outcome.boards[parts.boards_from..].to_vec(),
        };
        parts.since = Instant::now();
        parts.subclasses_from = self.outcome.subclasses;
        parts.boards_from = self.outcome.boards.len();
        match parts.log.append_part(&part) {
            Ok(()) => true,
            Err(e) => {
                self.stop.store(true, Ordering::Relaxed);
                let mut first = parts.error.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert(e);
                false
            }
        }
    }

    /// Walks every subclass below the one whose first positions in split
    /// order are `prefix` (of a class whose positions take `masks`, its
    /// tree in `worker.tree`), discarding those bounded below the target.
    /// Returns whether it finished (not stopped by the time limit).
    pub(crate) fn walk(&mut self, worker: &mut Worker, masks: &[u32], prefix: &[u8]) -> bool {
        let Worker {
            builder,
            tree,
            bound: evaluator,
            scorer,
            ..
        } = worker;
        let (settings, target) = (self.settings, self.settings.target);
        let shape = &settings.shape;
        let order = builder.order();
        let domain = Subclasses {
            masks: masks.to_vec(),
            start: Fixed::of(prefix),
        };
        let cells = shape.cells();
        let mut board = vec![0u8; cells];
        // Per depth, the bounds of its children (see `child_bounds`).
        let mut ahead = vec![[0u32; 26]; cells];
        let (end, _) = walk(&domain, &SearchOptions::default(), |fixed, steps| {
            let depth = fixed.depth as usize;
            if steps == 0 {
                let bound = evaluator.bound_of(tree, prefix);
                // A subclass handed over unfixed (below) may turn out to be
                // below the target: nothing under it is walked or counted,
                // as where the walk above it had fixed it.
                if bound < target {
                    if settings.certificate {
                        self.pieces.push(Discarded {
                            letters: prefix.to_vec(),
                            forced: self.forced,
                            bound,
                        });
                    }
                    return Visit::Prune;
                }
                evaluator.child_bounds(depth, &mut ahead[depth]);
                return Visit::Descend;
            }
            self.outcome.subclasses += 1;
            if self.outcome.subclasses.is_multiple_of(65536)
                && out_of_time(settings, self.started, self.stop)
            {
                return Visit::Stop;
            }
            let letter = fixed.letters[depth - 1];
            let mut bound = ahead[depth - 1][letter as usize];
            if self.split == Some(depth) && !settings.certificate && bound >= target {
                // Handed over on the look-ahead alone. Whoever walks below
                // the split fixes this position again (the GPU's warp,
                // `prove_items`, or this walk on the CPU) and drops the
                // subclass there if its bound falls below the target, so a
                // fix here would only filter. On the 4x4 classes the split's
                // fixes were four fifths of the host walk's and cut 37% of
                // the subclasses; the kernel takes those in about 5% more
                // time, less than the host saves (docs/RESULTS.md, "The
                // split's fixes left to the GPU").
                self.items.extend_from_slice(&fixed.letters[..depth]);
                return Visit::Prune;
            }
            if depth < cells && (bound >= target || settings.certificate) {
                // The look-ahead passed (or a certificate wants the exact
                // bound): fixing bounds the newly waiting choice nodes
                // together, which often cuts the bound further.
                bound = evaluator.fix(tree, depth, letter);
                if bound >= target {
                    if self.split == Some(depth) {
                        self.items.extend_from_slice(&fixed.letters[..depth]);
                        return Visit::Prune;
                    }
                    evaluator.child_bounds(depth, &mut ahead[depth]);
                    return Visit::Descend;
                }
            } else if depth == cells && bound >= target {
                place_in_order(order, fixed.letters.iter().copied(), &mut board);
                self.outcome.boards_scored += 1;
                bound = scorer.score_letters(shape, &board);
                if bound >= target {
                    self.outcome.boards.push((board.clone(), bound));
                }
            }
            if settings.certificate {
                self.pieces.push(Discarded {
                    letters: fixed.letters[..depth].to_vec(),
                    forced: self.forced,
                    bound,
                });
            }
            Visit::Prune
        });
        end == WalkEnd::Complete
    }
}

impl ProofSettings {
    /// Whether the time limit has passed for a proof started at `started`.
    pub(crate) fn past_limit(&self, started: Instant) -> bool {
        self.max_seconds
            .is_some_and(|limit| started.elapsed().as_secs_f64() > limit)
    }
}

/// Whether the proof must stop: the limit has passed, now or for another
/// thread (which set `stop`).
pub(crate) fn out_of_time(settings: &ProofSettings, started: Instant, stop: &AtomicBool) -> bool {
    if stop.load(Ordering::Relaxed) {
        return true;
    }
    let late = settings.past_limit(started);
    if late {
        stop.store(true, Ordering::Relaxed);
    }
    late
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

/// For each symmetry of the rectangle, the cell whose letter lands on
/// cell j: an image read in row-major order, so that it can be compared
/// without being built.
fn image_sources(shape: &Shape) -> Vec<Vec<usize>> {
    symmetries(shape)
        .iter()
        .map(|image| {
            let mut source = vec![0; image.len()];
            for (from, &to) in image.iter().enumerate() {
                source[to] = from;
            }
            source
        })
        .collect()
}

/// Whether `letters` is the least (row-major) of its images, each image
/// given by `sources` (cell j of the image holds `letters[source[j]]`).
/// Most assignments differ from an image in their first cells, so the
/// comparison stops early; 4x4 lists 43 M assignments this way.
fn is_least_image(letters: &[u8], sources: &[Vec<usize>]) -> bool {
    sources.iter().all(|source| {
        for (j, &from) in source.iter().enumerate() {
            match letters[from].cmp(&letters[j]) {
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Greater => return true,
                std::cmp::Ordering::Equal => {}
            }
        }
        true
    })
}

/// The least (row-major) of `letters`' images under `images`.
pub fn least_image(letters: &[u8], images: &[Vec<usize>]) -> Vec<u8> {
    let mut least = letters.to_vec();
    let mut image = vec![0u8; letters.len()];
    for map in images {
        for (i, &to) in map.iter().enumerate() {
            image[to] = letters[i];
        }
        if image < least {
            least.copy_from_slice(&image);
        }
    }
    least
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handover::FLUSH_WORDS;
    use crate::ledger::Ledger;
    use crate::WordList;
    use std::sync::Mutex;

    /// A projection's error: the sample's standard deviation over the
    /// square root of its size, none for no classes, 0 for one.
    #[test]
    fn mean_and_standard_error_of_class_times() {
        let (mean, error) = mean_and_standard_error(&[1.0, 2.0, 3.0, 4.0]).expect("values");
        assert!((mean - 2.5).abs() < 1e-12);
        // Variance (2.25 + 0.25 + 0.25 + 2.25) / 3, over 4 values.
        assert!(
            (error - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12,
            "{error}"
        );
        assert_eq!(mean_and_standard_error(&[7.0]), Some((7.0, 0.0)));
        assert_eq!(mean_and_standard_error(&[]), None);
    }

    /// The listing's early-exit comparison agrees with building every
    /// image, on random assignments of few values (so ties and symmetric
    /// assignments are common) for square and oblong shapes.
    #[test]
    fn least_image_test_matches_building_the_images() {
        let mut rng = frontier_core::rng::SplitMix64::new(5);
        for (rows, cols) in [(2, 2), (3, 3), (3, 4), (4, 4)] {
            let shape = Shape::new(rows, cols);
            let images = symmetries(&shape);
            let sources = image_sources(&shape);
            let mut least = 0;
            for _ in 0..5000 {
                let digits: Vec<u8> = (0..shape.cells()).map(|_| rng.below(2) as u8).collect();
                let expected = least_image(&digits, &images) == digits;
                assert_eq!(is_least_image(&digits, &sources), expected, "{digits:?}");
                least += usize::from(expected);
            }
            assert!(least > 0 && least < 5000, "{rows}x{cols}: {least}");
        }
    }

    /// Subclasses handed over at any split depth and walked apart add up
    /// to the whole proof: the same subclasses bounded, the same boards,
    /// unforced and forced near the root (each forced subclass's tree
    /// shipped in its class's arena under its own root). (The GPU prover
    /// is such a walk; its tests compare it with the CPU.)
    #[test]
    fn the_cost_estimate_is_the_bound_cut_to_short_prefixes() {
        let words = "tea eat ate eats seat east teas sate rest stare tears aster rates \
                     treat street setter tester tress resets steer trees terse reset";
        let list = WordList::parse(words.replace(' ', "\n").as_bytes());
        let trie = Trie::build(&list);
        let shape = Shape::new(3, 3);
        let bounder = Bounder::new(&trie, &shape).expect("3x3 fits");
        for letters in ["aerst", "ae", "rst", "aet"] {
            let class = BoardClass::uniform(&shape, letters).expect("letters");
            let whole = bounder.max_no_mark(&class);
            let estimates: Vec<u32> = (1..=shape.cells() + 1)
                .map(|n| bounder.max_no_mark_within(&class, n))
                .collect();
            // No word has fewer than three letters: prefixes of two score
            // nothing; longer prefixes count more words, up to the bound.
            assert_eq!(estimates[1], 0, "{letters}");
            assert!(
                estimates.windows(2).all(|w| w[0] <= w[1]),
                "{letters}: {estimates:?}"
            );
            assert_eq!(*estimates.last().expect("some"), whole, "{letters}");
        }
        let rich = BoardClass::uniform(&shape, "aerst").expect("letters");
        let poor = BoardClass::uniform(&shape, "rst").expect("letters");
        assert!(bounder.max_no_mark_within(&rich, 4) > bounder.max_no_mark_within(&poor, 4));
    }

    #[test]
    fn a_proof_on_several_threads_starts_heavy_classes_first_and_adds_up_the_same() {
        let words = "tea eat ate eats seat east teas sate rest stare tears aster rates";
        let list = WordList::parse(words.replace(' ', "\n").as_bytes());
        let trie = Trie::build(&list);
        let settings = ProofSettings {
            shape: Shape::new(2, 3),
            target: 10,
            buckets: Buckets::parse("aer st").expect("buckets"),
            max_seconds: None,
            certificate: false,
            sample: None,
            share: None,
            switchover: None,
            order: SplitOrder::Cost,
        };
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool")
                .install(|| prove(&trie, &settings, &|_, _| {}))
                .expect("proof")
        };
        let (one, three) = (on(1), on(3));
        assert!(one.complete && three.complete && one.classes > 4);
        assert_eq!(one.boards, three.boards);
        assert_eq!(one.subclasses, three.subclasses);
        // Kept in the classes' own order, whatever order they ran in.
        assert_eq!(one.class_letters, three.class_letters);
        let classes: Vec<(u64, Vec<u8>)> = top_classes(&settings.shape, &settings.buckets)
            .expect("classes")
            .into_iter()
            .enumerate()
            .map(|(i, class)| (i as u64, class))
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        let order = pool
            .install(|| heaviest_first(&trie, &settings, &classes))
            .expect("estimates");
        let bounder = Bounder::new(&trie, &settings.shape).expect("fits");
        let estimate = |at: usize| estimated_cost(&bounder, &settings, &classes[at].1);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..classes.len()).collect::<Vec<_>>());
        assert!(order.windows(2).all(|w| estimate(w[0]) >= estimate(w[1])));
        assert!(estimate(order[0]) > estimate(order[order.len() - 1]));
    }

    #[test]
    fn a_proof_split_and_walked_apart_adds_up_to_the_whole() {
        // Unforced: every split depth. Forced near the root (switchover
        // 500: nothing forced below depth 3 in the whole proof): the same
        // counts. Forced nearly to the bottom (60: many forces shipped,
        // several levels deep): at the deepest split, where the split stops
        // no force, the same counts; higher up the split forces less than
        // the whole proof (a forced subclass walks at least to the split),
        // so only the boards must agree.
        split_and_walked_apart(None, &[1, 4, 8], true, FLUSH_WORDS, false, false);
        split_and_walked_apart(Some(500), &[4, 6, 8], true, FLUSH_WORDS, false, false);
        split_and_walked_apart(Some(60), &[8], true, FLUSH_WORDS, false, false);
        split_and_walked_apart(Some(60), &[3, 5], false, FLUSH_WORDS, false, false);
        // Every group handed over early, alone with a copy of its class's
        // arena as forced so far (the path of classes past `FLUSH_WORDS`).
        split_and_walked_apart(Some(500), &[6], true, 0, false, false);
    }

    #[test]
    fn the_walk_to_the_split_reads_only_the_records_below_its_positions() {
        // Forced as the GPU merges, the host's tree taking only the records
        // reached through positions above the split (the rest are holes:
        // `orderly/holey.rs`), handed-over trees completed from the
        // device's copy: the same proof.
        split_and_walked_apart(Some(500), &[4, 6, 8], true, FLUSH_WORDS, true, false);
        split_and_walked_apart(Some(60), &[3, 5], false, FLUSH_WORDS, true, false);
        split_and_walked_apart(Some(60), &[8], true, FLUSH_WORDS, true, false);
        split_and_walked_apart(Some(500), &[6], true, 0, true, false);
    }

    #[test]
    fn a_proof_split_one_position_deeper_adds_up_to_the_whole() {
        // `Split::deeper` set: every class hands over one position below
        // the split's depth (at the last cell but one, at it), and the
        // counts and boards are those of the whole proof.
        split_and_walked_apart(None, &[1, 4, 7, 8], true, FLUSH_WORDS, false, true);
        split_and_walked_apart(Some(500), &[4, 6], true, FLUSH_WORDS, false, true);
        split_and_walked_apart(Some(60), &[7], true, FLUSH_WORDS, false, true);
        split_and_walked_apart(Some(500), &[6], true, 0, true, true);
    }

    /// Proves split at each of `depths` (one deeper with `deeper`) and
    /// walks every subclass handed over apart, against the whole proof.
    fn split_and_walked_apart(
        switchover: Option<u32>,
        depths: &[usize],
        exact: bool,
        flush_words: usize,
        holey: bool,
        deeper: bool,
    ) {
        let (trie, settings) = small_proof(switchover);
        let cells = settings.shape.cells();
        let whole = prove(&trie, &settings, &|_, _| {}).expect("proof");
        assert!(whole.complete && !whole.boards.is_empty() && whole.subclasses > 1000);
        let order = split_order(&settings.shape);
        let builder = OrderlyBuilder::new(&trie, &settings.shape, &order).expect("3x3 fits");
        let mut forced_trees = 0;
        // Subclasses handed over unfixed and found below the target by the
        // walk under them.
        let mut below_target = 0;
        for &depth in depths {
            assert!(depth < cells);
            let handed = Mutex::new(Vec::new());
            // Each thread's "device" copy of its class's arena, for `holey`.
            let devices = Mutex::new(std::collections::HashMap::<_, Vec<u32>>::new());
            let sink = |mut handover: Handover| {
                if holey {
                    let devices = devices.lock().expect("no panic");
                    if let Some(device) = devices.get(&std::thread::current().id()) {
                        if handover.tree.matches_device(device) {
                            handover.tree.filled_from(device);
                        }
                    }
                }
                handed.lock().expect("no panic").push(handover)
            };
            let forcer = |tree: &mut OrderlyTree, position: u32, letter: u8| {
                let mut devices = devices.lock().expect("no panic");
                let device: &mut Vec<u32> = devices.entry(std::thread::current().id()).or_default();
                if device.is_empty() || !tree.matches_device(device) {
                    *device = tree.arena().to_vec();
                }
                let reached = depth + usize::from(deeper);
                Some(tree.force_holey(device, reached as u32, position, letter))
            };
            let pool = ArenaPool::default();
            let deeper_flag = AtomicBool::new(deeper);
            let split = Split {
                depth,
                deeper: Some(&deeper_flag),
                sink: &sink,
                pool: &pool,
                flush_words,
                trees: None,
                forces: holey.then_some(&forcer as &crate::handover::Forcer),
                ledger: None,
            };
            let top = prove_split(&trie, &settings, &|_, _| {}, Some(&split), None).expect("proof");
            let mut worker = Worker::new(&builder, &trie, cells);
            let mut below = ClassOutcome::default();
            let stop = AtomicBool::new(false);
            let mut walked = 0;
            let handed = handed.into_inner().expect("no panic");
            // Each phase is timed inside the class's time, and a phase that
            // ran is seen: trees built by every class, handovers wherever a
            // class handed over, merges wherever the proof forced.
            let phases = top.host_phases;
            let class_seconds: f64 = top.class_seconds.iter().sum();
            assert!(phases.build + phases.merges + phases.handovers <= class_seconds);
            assert!(phases.build > 0.0);
            assert_eq!(phases.handovers > 0.0, !handed.is_empty());
            assert_eq!(
                phases.merges > 0.0,
                whole.host_phases.merges > 0.0 && depth > 1
            );
            if flush_words == 0 {
                assert!(
                    handed.iter().all(|h| h.groups.len() == 1),
                    "depth {depth}: a group was not handed over early"
                );
            }
            let class_depth = if deeper && depth + 1 < cells {
                depth + 1
            } else {
                depth
            };
            for handover in handed {
                assert_eq!(handover.depth, class_depth, "split at {depth}");
                let class_root = handover.tree.root() as u32;
                forced_trees += handover
                    .groups
                    .iter()
                    .filter(|group| group.root != class_root)
                    .count();
                let (items, below) =
                    walk_handover(&mut worker, handover, &settings, &mut below, &stop);
                walked += items;
                below_target += below;
            }
            assert!(walked > 0, "depth {depth}: nothing handed over");
            if exact {
                assert_eq!(
                    top.subclasses + below.subclasses,
                    whole.subclasses,
                    "depth {depth}"
                );
                assert_eq!(
                    top.boards_scored + below.boards_scored,
                    whole.boards_scored,
                    "depth {depth}"
                );
            }
            assert!(
                top.boards.is_empty(),
                "depth {depth}: boards above the split"
            );
            let boards = boards_up_to_symmetry(&settings.shape, below.boards);
            assert_eq!(boards, whole.boards, "depth {depth}");
        }
        // Subclasses that a fix at the split would have cut were handed
        // over, and the counts above still agree.
        assert!(below_target > 0, "none handed over below the target");
        // An early handover's tree is rooted where its group is: counted
        // only when classes hand over at their end.
        if flush_words == FLUSH_WORDS {
            assert_eq!(
                forced_trees > 0,
                switchover.is_some(),
                "forced trees handed over: {forced_trees}"
            );
        }
    }

    /// The 3x3 proof over a few words of five letters that the split tests
    /// share, forced above `switchover`.
    fn small_proof(switchover: Option<u32>) -> (Trie, ProofSettings) {
        let words = "tea eat ate eats seat east teas sate rest stare tears aster rates \
                     treat street setter tester tress resets steer trees terse reset \
                     ester sere seer tree rete retest tetra tart start starter";
        let list = WordList::parse(words.replace(' ', "\n").as_bytes());
        let settings = ProofSettings {
            shape: Shape::new(3, 3),
            target: 50,
            buckets: Buckets::single("aerst").expect("letters"),
            max_seconds: None,
            certificate: false,
            sample: None,
            share: None,
            switchover,
            order: SplitOrder::Cost,
        };
        (Trie::build(&list), settings)
    }

    /// Walks every subclass of `handover` on the CPU into `outcome`, as
    /// the GPU would; returns how many, and how many of them were bounded
    /// below the target when handed over.
    fn walk_handover(
        worker: &mut Worker,
        handover: Handover,
        settings: &ProofSettings,
        outcome: &mut ClassOutcome,
        stop: &AtomicBool,
    ) -> (usize, usize) {
        let (mut walked, mut below_target) = (0, 0);
        worker.tree = handover.tree;
        worker.builder.reorder(&handover.order);
        for group in &handover.groups {
            worker.tree.reroot(group.root as usize, group.bound);
            for letters in group.items.chunks_exact(handover.depth) {
                if worker.bound.bound_of(&worker.tree, letters) < settings.target {
                    below_target += 1;
                }
                let (mut pieces, mut items) = (Vec::new(), Vec::new());
                let mut walk = Below {
                    settings,
                    started: Instant::now(),
                    stop,
                    split: None,
                    outcome,
                    pieces: &mut pieces,
                    items: &mut items,
                    shipment: None,
                    forced: 0,
                    parts: None,
                };
                assert!(walk.walk(worker, &handover.masks, letters));
                walked += 1;
            }
        }
        (walked, below_target)
    }

    /// A results file's class line: index, subclasses, boards.
    type ClassLine = (u64, u64, Vec<(Vec<u8>, u32)>);

    /// A split proof with a results file writes each class once all of
    /// its handovers are added up, whatever the order: the same classes,
    /// subclasses and boards as the CPU's file of the same proof; a class
    /// one of whose handovers is never added up is left out, and a resumed
    /// split proof searches only that one.
    #[test]
    fn a_split_proof_writes_each_class_once_its_handovers_are_added_up() {
        let (trie, mut settings) = small_proof(Some(500));
        // Several classes: a bucket per cell of three.
        settings.buckets = Buckets::parse("ae rst").expect("buckets");
        let dir = std::env::temp_dir().join(format!("frontier-ledger-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch");
        let (cpu_file, split_file) = (dir.join("cpu.txt"), dir.join("split.txt"));
        let _ = std::fs::remove_file(&cpu_file);
        let _ = std::fs::remove_file(&split_file);
        let cpu = prove_logged(
            &trie,
            &settings,
            &|_, _| {},
            &cpu_file,
            false,
            f64::INFINITY,
        )
        .expect("proof");
        assert!(cpu.complete && !cpu.boards.is_empty());
        let read = |path: &Path| {
            let text = std::fs::read_to_string(path).expect("results file");
            let file = crate::results::parse("file", &text).expect("a results file");
            let mut classes: Vec<ClassLine> = file
                .classes
                .iter()
                .map(|c| (c.index, c.subclasses, c.boards.clone()))
                .collect();
            classes.sort();
            for (_, _, boards) in &mut classes {
                boards.sort();
            }
            classes
        };
        let expected = read(&cpu_file);
        assert!(expected.len() > 3, "too few classes: {}", expected.len());
        let cells = settings.shape.cells();
        let order = split_order(&settings.shape);
        let builder = OrderlyBuilder::new(&trie, &settings.shape, &order).expect("3x3 fits");
        let stop = AtomicBool::new(false);
        // Runs the split proof; its handovers are added up after the host
        // parts end (last first), but for those of `skipped`'s class.
        let run = |resume: bool, skipped: Option<u64>| -> (Proof, Option<u64>) {
            let log = open_results(&trie, &settings, &split_file, resume).expect("file");
            let ledger = Ledger::new(&log);
            let handed = Mutex::new(Vec::new());
            let sink = |handover: Handover| {
                ledger.handed_over(handover.class);
                handed.lock().expect("no panic").push(handover);
            };
            let pool = ArenaPool::default();
            let split = Split {
                depth: 4,
                deeper: None,
                sink: &sink,
                pool: &pool,
                flush_words: 0,
                trees: None,
                forces: None,
                ledger: Some(&ledger),
            };
            let proof = prove_split(
                &trie,
                &settings,
                &|_, _| {},
                Some(&split),
                Some((&log, f64::INFINITY)),
            )
            .expect("proof");
            let mut handed = handed.into_inner().expect("no panic");
            let skipped = skipped.or_else(|| handed.first().map(|h| h.class));
            let mut worker = Worker::new(&builder, &trie, cells);
            while let Some(handover) = handed.pop() {
                let class = handover.class;
                if Some(class) == skipped {
                    continue;
                }
                let mut outcome = ClassOutcome::default();
                walk_handover(&mut worker, handover, &settings, &mut outcome, &stop);
                ledger.added_up(class, outcome.subclasses, outcome.boards);
            }
            assert!(ledger.into_error().is_none());
            (proof, skipped)
        };
        let (first, skipped) = run(false, None);
        let skipped = skipped.expect("a class handed over");
        let written = read(&split_file);
        let without: Vec<_> = expected
            .iter()
            .filter(|c| c.0 != skipped)
            .cloned()
            .collect();
        assert_eq!(written, without, "all but the class left unwalked");
        assert_eq!(first.classes_resumed, 0);
        // Resumed, only that class is searched, and now it is written.
        let (second, _) = run(true, Some(u64::MAX));
        assert_eq!(second.classes, 1);
        assert_eq!(second.classes_resumed as usize, expected.len() - 1);
        assert_eq!(read(&split_file), expected);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
