//! Orderly sum/choice trees: the tight upper bound on a board class that
//! the proofs split by.
//!
//! Every path that spells a word on some board of the class is written as
//! its (cell, letter) pairs sorted by one fixed cell order (the *split
//! order*), and the sorted paths are merged into a tree:
//! - a **sum node** holds the points of the words whose paths end there,
//!   plus one child per next cell;
//! - a **choice node** for a cell holds one child per letter of that cell.
//!
//! A sum node is bounded by its points plus its children's bounds, a
//! choice node by its best child, so within one path every cell has one
//! letter, and a word spelled twice over the same cells counts once. The
//! root's bound holds for every board of the class.
//!
//! Because paths are sorted by the split order, fixing the cells in that
//! order only ever resolves choice nodes that hang from sum nodes already
//! reached: [`OrderlyBound`] keeps, per cell still free, the choice nodes
//! waiting on it and the sum of their bounds, so fixing one more cell costs
//! the choice nodes of that cell, not a new tree. That is what makes a
//! class's subclasses cheap to bound.

use crate::board::Shape;
use crate::trie::{Node, Trie, LETTER_BITS};
use crate::BoggleError;

/// The most cells an orderly tree handles (a path packs into 128 bits).
pub const MAX_ORDERLY_CELLS: usize = 16;

/// A sum node: points, then its choice children `choices[first..first + count]`.
#[derive(Clone, Copy, Debug)]
struct SumNode {
    points: u32,
    first: u32,
    count: u32,
}

/// A choice node: the split-order position of its cell, the letters with a
/// child, and the children `sums[first + rank(letter)]`.
#[derive(Clone, Copy, Debug)]
struct ChoiceNode {
    position: u32,
    letters: u32,
    bound: u32,
    first: u32,
}

impl ChoiceNode {
    /// The sum node for `letter`, if any path takes it.
    #[inline]
    fn child(&self, letter: u8) -> Option<u32> {
        let bit = 1u32 << letter;
        (self.letters & bit != 0).then(|| self.first + (self.letters & (bit - 1)).count_ones())
    }
}

/// One word path as a sortable `u128`: the top 96 bits hold one 6-bit
/// slot per split-order position (`0b1_lllll`: used, with letter `l`; 0:
/// not on the path), the low 32 bits the word (its trie node). Sorting
/// these puts the paths of every tree node together: a node is a fixed
/// content of the slots before some position.
type WordPath = u128;

const SLOT_BITS: u32 = 6;
const USED: u128 = 1 << 5;
const WORD_BITS: u32 = 32;

/// The slot of `position` holding `letter`, in place.
#[inline]
fn slot(position: u32, letter: u8) -> u128 {
    (USED | letter as u128) << (128 - SLOT_BITS * (position + 1))
}

/// The slots from `position` on, shifted to the top, word bits cleared.
#[inline]
fn slots_from(path: WordPath, position: u32) -> u128 {
    (path >> WORD_BITS << WORD_BITS) << (SLOT_BITS * position)
}

/// An orderly tree over one board class (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct OrderlyTree {
    sums: Vec<SumNode>,
    /// Bound of each sum node (apart, so scanning a choice node's children
    /// reads one small array).
    sum_bounds: Vec<u32>,
    choices: Vec<ChoiceNode>,
    /// Paths collected for the last build (kept to reuse the buffer).
    paths: Vec<WordPath>,
    /// Runs of paths (key, start, end) of the nodes being filled, a stack.
    runs: Vec<(u32, usize, usize)>,
}

/// Builds orderly trees for classes of one shape; reuse it across classes.
#[derive(Clone)]
pub struct OrderlyBuilder<'t> {
    nodes: &'t [Node],
    neighbor_masks: Vec<u64>,
    /// Split-order position of each cell.
    position: Vec<u32>,
    /// The cells in split order.
    order: Vec<usize>,
}

impl<'t> OrderlyBuilder<'t> {
    /// A builder for `shape` splitting cells in `order` (a permutation of
    /// the cells; see [`split_order`]).
    pub fn new(
        trie: &'t Trie,
        shape: &Shape,
        order: &[usize],
    ) -> Result<OrderlyBuilder<'t>, BoggleError> {
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        if shape.cells() > MAX_ORDERLY_CELLS || sorted != (0..shape.cells()).collect::<Vec<_>>() {
            return Err(BoggleError::Config(format!(
                "orderly trees take up to {MAX_ORDERLY_CELLS} cells and a split order of every cell \
                 ({}x{}, order {order:?})",
                shape.rows, shape.cols
            )));
        }
        if trie.nodes().len() >= 1 << 24 {
            return Err(BoggleError::Config(
                "orderly trees take dictionaries of fewer than 2^24 trie nodes".into(),
            ));
        }
        let mut position = vec![0; shape.cells()];
        for (p, &cell) in order.iter().enumerate() {
            position[cell] = p as u32;
        }
        Ok(OrderlyBuilder {
            nodes: trie.nodes(),
            neighbor_masks: shape.neighbor_masks.clone(),
            position,
            order: order.to_vec(),
        })
    }

    /// The cells in split order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Builds into `tree` the orderly tree of the class whose cell `c` may
    /// be any letter of `masks[c]`; returns the root's bound.
    pub fn build(&self, masks: &[u32], tree: &mut OrderlyTree) -> u32 {
        tree.sums.clear();
        tree.sum_bounds.clear();
        tree.choices.clear();
        let mut paths = std::mem::take(&mut tree.paths);
        paths.clear();
        for cell in 0..masks.len() {
            self.collect(masks, cell, self.nodes[0], 1 << cell, 0, &mut paths);
        }
        paths.sort_unstable();
        tree.sums.push(SumNode {
            points: 0,
            first: 0,
            count: 0,
        });
        tree.sum_bounds.push(0);
        self.fill_sum(tree, &paths, 0, 0);
        tree.paths = paths;
        tree.sum_bounds[0]
    }

    /// Every word path starting at `cell` (already in `used`, the path so
    /// far in `key`) below trie node `node`.
    fn collect(
        &self,
        masks: &[u32],
        cell: usize,
        node: Node,
        used: u64,
        key: u128,
        paths: &mut Vec<WordPath>,
    ) {
        let position = self.position[cell];
        let mut choices = masks[cell] & node.info & LETTER_BITS;
        while choices != 0 {
            let letter = choices.trailing_zeros() as u8;
            choices &= choices - 1;
            // The letter is among the node's children.
            let Some(index) = node.child(letter) else {
                continue;
            };
            let child = self.nodes[index as usize];
            let key = key | slot(position, letter);
            if child.points() > 0 {
                // Trie indexes fit 24 bits (checked in `new`).
                paths.push(key | (index as u128) << 8 | child.points() as u128);
            }
            if child.has_children() {
                let mut free = self.neighbor_masks[cell] & !used;
                while free != 0 {
                    let next = free.trailing_zeros() as usize;
                    free &= free - 1;
                    self.collect(masks, next, child, used | 1 << next, key, paths);
                }
            }
        }
    }

    /// Fills sum node `index` from `paths` (sorted, all alike in the slots
    /// before `from`): the paths with no slot from `from` on end here and
    /// give their points (each word once); the others group by their first
    /// used slot into choice nodes. Returns the node's bound.
    fn fill_sum(&self, tree: &mut OrderlyTree, paths: &[WordPath], from: u32, index: usize) -> u32 {
        let ending = paths.partition_point(|&p| slots_from(p, from) == 0);
        let mut points = 0;
        let mut last_word = u32::MAX;
        for &path in &paths[..ending] {
            // Duplicates (one word over the same cells and letters) are adjacent.
            let word = path as u32 >> 8;
            if word != last_word {
                points += path as u32 & 0xff;
                last_word = word;
            }
        }
        // Runs of the same first used position (zeros before it); found by
        // binary search, so a node costs its children, not its paths.
        let group = |p: &WordPath| slots_from(*p, from).leading_zeros() / SLOT_BITS;
        let base = tree.runs.len();
        let mut start = ending;
        while start < paths.len() {
            let g = group(&paths[start]);
            let end = start + paths[start..].partition_point(|p| group(p) == g);
            tree.runs.push((from + g, start, end));
            start = end;
        }
        let count = tree.runs.len() - base;
        let first = tree.choices.len();
        for k in 0..count {
            tree.choices.push(ChoiceNode {
                position: tree.runs[base + k].0,
                letters: 0,
                bound: 0,
                first: 0,
            });
        }
        let mut bound = points;
        for k in 0..count {
            let (position, start, end) = tree.runs[base + k];
            bound += self.fill_choice(tree, &paths[start..end], position, first + k);
        }
        tree.runs.truncate(base);
        tree.sums[index] = SumNode {
            points,
            first: first as u32,
            count: count as u32,
        };
        tree.sum_bounds[index] = bound;
        bound
    }

    /// Fills choice node `index` from `paths` (all with `position` as their
    /// first used slot after the parent's): one sum node per letter.
    /// Returns its bound.
    fn fill_choice(
        &self,
        tree: &mut OrderlyTree,
        paths: &[WordPath],
        position: u32,
        index: usize,
    ) -> u32 {
        let letter_of = |p: &WordPath| (p >> (128 - SLOT_BITS * (position + 1)) & 31) as u32;
        let base = tree.runs.len();
        let mut start = 0;
        while start < paths.len() {
            let letter = letter_of(&paths[start]);
            let end = start + paths[start..].partition_point(|p| letter_of(p) == letter);
            tree.runs.push((letter, start, end));
            start = end;
        }
        let count = tree.runs.len() - base;
        let first = tree.sums.len();
        let blank = SumNode {
            points: 0,
            first: 0,
            count: 0,
        };
        tree.sums.extend(std::iter::repeat_n(blank, count));
        tree.sum_bounds.extend(std::iter::repeat_n(0, count));
        let mut letters = 0;
        let mut bound = 0;
        for k in 0..count {
            let (letter, start, end) = tree.runs[base + k];
            letters |= 1 << letter;
            bound = bound.max(self.fill_sum(tree, &paths[start..end], position + 1, first + k));
        }
        tree.runs.truncate(base);
        tree.choices[index] = ChoiceNode {
            position,
            letters,
            bound,
            first: first as u32,
        };
        bound
    }
}

impl OrderlyTree {
    /// Sum and choice nodes.
    pub fn node_count(&self) -> usize {
        self.sums.len() + self.choices.len()
    }

    /// The root's bound.
    pub fn bound(&self) -> u32 {
        self.sum_bounds.first().copied().unwrap_or(0)
    }
}

/// What [`OrderlyBound`] saved after fixing a position.
#[derive(Clone, Copy, Debug)]
struct Frame {
    lengths: [u32; MAX_ORDERLY_CELLS],
    sums: [u32; MAX_ORDERLY_CELLS],
    points: u32,
}

/// Bounds of subclasses of a tree's class: the cells fixed one at a time
/// in split order, each step undone by going back to an earlier depth (see
/// the module docs).
pub struct OrderlyBound {
    /// Per split-order position, the choice nodes waiting on it.
    stacks: Vec<Vec<u32>>,
    /// Per depth, the state after fixing that many positions.
    frames: Vec<Frame>,
    cells: usize,
}

impl OrderlyBound {
    /// An evaluator for classes of `cells` cells.
    pub fn new(cells: usize) -> OrderlyBound {
        OrderlyBound {
            stacks: vec![Vec::new(); cells],
            frames: Vec::with_capacity(cells + 1),
            cells,
        }
    }

    /// Starts on `tree`: nothing fixed. Returns the root's bound.
    pub fn start(&mut self, tree: &OrderlyTree) -> u32 {
        for stack in &mut self.stacks {
            stack.clear();
        }
        self.frames.clear();
        let mut frame = Frame {
            lengths: [0; MAX_ORDERLY_CELLS],
            sums: [0; MAX_ORDERLY_CELLS],
            points: 0,
        };
        if tree.sums.is_empty() {
            self.frames.push(frame);
            return 0;
        }
        self.advance(tree, 0, &mut frame);
        self.save(frame)
    }

    /// Fixes split-order position `depth - 1` to `letter`, the positions
    /// before it as fixed by the last calls that reached `depth - 1`.
    /// Returns the bound of the subclass: the points of the words already
    /// spelled plus the best the waiting choice nodes can add. With every
    /// position fixed it is the board's orderly score (at least its score).
    pub fn fix(&mut self, tree: &OrderlyTree, depth: usize, letter: u8) -> u32 {
        debug_assert!(depth >= 1 && depth <= self.frames.len());
        self.frames.truncate(depth);
        let mut frame = self.frames[depth - 1];
        for (p, stack) in self.stacks.iter_mut().enumerate().skip(depth - 1) {
            stack.truncate(frame.lengths[p] as usize);
        }
        let position = depth - 1;
        let waiting = std::mem::take(&mut self.stacks[position]);
        for &choice in &waiting {
            if let Some(sum) = tree.choices[choice as usize].child(letter) {
                self.advance(tree, sum, &mut frame);
            }
        }
        self.stacks[position] = waiting;
        // The fixed position's choices are resolved: its sum no longer counts.
        frame.sums[position] = 0;
        self.save(frame)
    }

    /// The bound of every subclass one step below the current one (the
    /// last state saved, `depth` positions fixed): `out[l]` is what
    /// [`OrderlyBound::fix`]`(tree, depth + 1, l)` would return, computed
    /// from the waiting choice nodes' children without descending. Most
    /// subclasses are discarded by it, so most are never fixed.
    pub fn child_bounds(&self, tree: &OrderlyTree, depth: usize, out: &mut [u32; 26]) {
        let frame = &self.frames[depth];
        let rest: u32 = frame.points + frame.sums[depth + 1..self.cells].iter().sum::<u32>();
        *out = [rest; 26];
        for &choice in &self.stacks[depth] {
            let node = &tree.choices[choice as usize];
            let mut letters = node.letters;
            let mut child = node.first as usize;
            while letters != 0 {
                let letter = letters.trailing_zeros() as usize;
                letters &= letters - 1;
                out[letter] += tree.sum_bounds[child];
                child += 1;
            }
        }
    }

    /// Adds sum node `sum`: its points, and its choice children to the
    /// stacks of their positions.
    #[inline]
    fn advance(&mut self, tree: &OrderlyTree, sum: u32, frame: &mut Frame) {
        let node = tree.sums[sum as usize];
        frame.points += node.points;
        for choice in node.first..node.first + node.count {
            let child = &tree.choices[choice as usize];
            let p = child.position as usize;
            self.stacks[p].push(choice);
            frame.sums[p] += child.bound;
        }
    }

    fn save(&mut self, mut frame: Frame) -> u32 {
        for (p, stack) in self.stacks.iter().enumerate() {
            frame.lengths[p] = stack.len() as u32;
        }
        self.frames.push(frame);
        frame.points + frame.sums[..self.cells].iter().sum::<u32>()
    }
}

/// The default split order: cells with more neighbours first (the centre,
/// then edges, then corners), row-major among equals. Fixing the
/// best-connected cells first shrinks the bounds fastest.
pub fn split_order(shape: &Shape) -> Vec<usize> {
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    order.sort_by_key(|&cell| (std::cmp::Reverse(shape.degree[cell]), cell));
    order
}
