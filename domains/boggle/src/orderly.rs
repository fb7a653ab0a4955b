//! Orderly sum/choice trees: the tight upper bound on a board class that
//! the proofs split by.
//!
//! Every path that spells a word on some board of the class is written as
//! its (cell, letter) pairs sorted by one fixed cell order (the *split
//! order*), and the paths, sorted, are merged into a tree in one pass, as
//! a trie is built from sorted keys:
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
//! waiting on it and, per letter, the sum of their children's bounds, so
//! fixing one more cell costs the choice nodes of that cell, not a new
//! tree. That is what makes a class's subclasses cheap to bound. Bounding
//! the choice nodes of one cell together (the best letter for all of them
//! at once, rather than each its own best) is also what makes the bound
//! tight deep in the walk.

use crate::board::Shape;
use crate::trie::{Node, Trie, LETTER_BITS};
use crate::BoggleError;

#[cfg(test)]
mod holey;
mod levels;
mod path_key;
use path_key::{Layout, PathKey, BUCKET_BITS, SLOT_BITS};

/// The most cells an orderly tree handles (a path packs into 128 bits,
/// in the layout of `orderly/path_key.rs`).
pub const MAX_ORDERLY_CELLS: usize = 16;

/// The words of a tree, one `u32` array, each node a record where its
/// parent can find it, so that reaching a sum node reads one stretch of
/// memory (the walk is bound by cache misses):
/// - a **sum node**: `points << COUNT_BITS | count`, then its `count`
///   choice nodes, back to back;
/// - a **choice node**: `position << POSITION_SHIFT | letters`, then per
///   letter (in letter order) `bound, offset` of the sum node it leads to
///   ([`LEAF`] for a sum node without choice nodes, which is not written).
///
/// Headers of one `u32` keep the arena about a third smaller than two
/// would, which both the filling (writes) and the walk (misses) feel.
type Arena = Vec<u32>;

/// Bits of a sum node's header that count its choice nodes (at most one
/// per position, [`MAX_ORDERLY_CELLS`]).
const COUNT_BITS: u32 = 5;
/// Where a choice node's header keeps its position, above its letters.
const POSITION_SHIFT: u32 = 26;

/// The offset written for a sum node with no choice nodes (a *leaf*): it
/// is not written at all, its bound (its points) is all there is to it.
/// Most sum nodes are leaves, so this saves the walk a cache miss each.
const LEAF: u32 = u32::MAX;

/// The (bound, offset) of the sum node that choice node `choice` leads to
/// for `letter`, if any path takes it.
#[inline]
fn choice_child(arena: &[u32], choice: usize, letter: u8) -> Option<(u32, u32)> {
    let letters = arena[choice] & LETTER_BITS;
    let bit = 1u32 << letter;
    (letters & bit != 0).then(|| {
        let at = choice + 1 + 2 * (letters & (bit - 1)).count_ones() as usize;
        (arena[at], arena[at + 1])
    })
}

/// An orderly tree over one board class (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct OrderlyTree {
    /// The nodes (see [`Arena`]).
    arena: Arena,
    /// Where the root sum node starts.
    root: usize,
    /// The root's bound.
    bound: u32,
    /// Sum and choice nodes.
    nodes: usize,
    /// Paths collected for the last build, by bucket (kept to reuse the
    /// buffers), in `u64` or in `u128` (see [`path_key`]).
    paths64: Vec<Vec<u64>>,
    paths128: Vec<Vec<u128>>,
    /// The collection's lists (see [`OrderlyBuilder::collect`]), kept to
    /// reuse them, in `u64` or in `u128`.
    reaches64: Vec<[Vec<Reach<u64>>; 26]>,
    reaches128: Vec<[Vec<Reach<u128>>; 26]>,
    /// While filling: the open nodes, root first.
    open: Vec<Open>,
    /// While filling: the records of the open nodes' closed children, each
    /// open node's on top of its parent's (see [`OrderlyTree::fill`]).
    pending: Vec<u32>,
    /// While forcing: the pairs of a level-by-level merge (`orderly/levels.rs`).
    levels: levels::Levels,
}

/// Builds orderly trees for classes of one shape; reuse it across classes.
#[derive(Clone)]
pub struct OrderlyBuilder<'t> {
    nodes: &'t [Node],
    /// Each cell's neighbours, and past the last cell every cell.
    neighbor_masks: Vec<u32>,
    /// Split-order position of each cell.
    position: Vec<u32>,
    /// The cells in split order.
    order: Vec<usize>,
    /// Whether paths fit a `u64` (see [`path_key`]).
    narrow: bool,
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
        // Paths keep the trie node in 24 bits; a sum node's points (at most
        // 11 per word) must fit its header.
        if trie.nodes().len() >= 1 << 24 || u64::from(trie.words()) * 11 >= 1 << (32 - COUNT_BITS) {
            return Err(BoggleError::Config(
                "orderly trees take dictionaries of fewer than 2^24 trie nodes and 12 million words"
                    .into(),
            ));
        }
        let word_bits = u32::BITS - (trie.nodes().len() as u32).leading_zeros();
        // Past the last cell, the virtual cell that paths start from.
        // (Masks of at most MAX_ORDERLY_CELLS bits, checked above.)
        let mut neighbor_masks: Vec<u32> = shape.neighbor_masks.iter().map(|&m| m as u32).collect();
        neighbor_masks.push((1 << shape.cells()) - 1);
        let mut builder = OrderlyBuilder {
            narrow: Layout::<u64>::fits(shape.cells(), word_bits),
            nodes: trie.nodes(),
            neighbor_masks,
            position: vec![0; shape.cells()],
            order: Vec::with_capacity(shape.cells()),
        };
        builder.reorder(order);
        Ok(builder)
    }

    /// Splits the next classes in `order` instead (a permutation of the
    /// cells, as [`SplitOrder::of_class`] gives them).
    pub(crate) fn reorder(&mut self, order: &[usize]) {
        debug_assert_eq!(order.len(), self.position.len());
        for (p, &cell) in order.iter().enumerate() {
            self.position[cell] = p as u32;
        }
        self.order.clear();
        self.order.extend_from_slice(order);
    }

    /// The cells in split order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Builds into `tree` the orderly tree of the class whose cell `c` may
    /// be any letter of `masks[c]`; returns the root's bound.
    pub fn build(&self, masks: &[u32], tree: &mut OrderlyTree) -> u32 {
        if self.narrow {
            self.build_with::<u64>(masks, tree)
        } else {
            self.build_with::<u128>(masks, tree)
        }
    }

    fn build_with<K: PathKey>(&self, masks: &[u32], tree: &mut OrderlyTree) -> u32 {
        let mut paths = std::mem::take(K::buffers(tree));
        paths.resize_with(1 << BUCKET_BITS, Vec::new);
        for bucket in &mut paths {
            bucket.clear();
        }
        let layout = Layout::new(masks.len());
        let mut levels = std::mem::take(K::reaches(tree));
        self.collect_class(&layout, masks, &mut levels, &mut paths);
        // Bucketed by the first two slots, then each bucket sorted: buckets
        // small enough to sort in cache.
        for bucket in &mut paths {
            bucket.sort_unstable();
        }
        let bound = tree.fill(&layout, paths.iter().flatten().copied());
        *K::buffers(tree) = paths;
        *K::reaches(tree) = levels;
        bound
    }

    /// The class's word paths in the 128-bit layout of `orderly/path_key.rs`,
    /// sorted: what [`OrderlyBuilder::build_from_sorted`] takes. The CPU's
    /// twin of the GPU's collection (`gpu_build`), for its tests.
    pub fn sorted_wide_paths(&self, masks: &[u32]) -> Vec<u128> {
        let layout = Layout::<u128>::new(masks.len());
        let mut paths = vec![Vec::new(); 1 << BUCKET_BITS];
        self.collect_class(&layout, masks, &mut Vec::new(), &mut paths);
        let mut all: Vec<u128> = paths.into_iter().flatten().collect();
        all.sort_unstable();
        all
    }

    /// Fills `tree` from a class's sorted word paths in the 128-bit layout
    /// (as [`OrderlyBuilder::sorted_wide_paths`] or the GPU gives them);
    /// returns the root's bound. The tree is the one [`OrderlyBuilder::build`]
    /// makes: the fill reads only the slots and words, not the key's width.
    pub fn build_from_sorted(&self, sorted: &[u128], tree: &mut OrderlyTree) -> u32 {
        tree.fill(
            &Layout::<u128>::new(self.position.len()),
            sorted.iter().copied(),
        )
    }

    /// Split-order position of each cell, as the paths' slots number them.
    pub fn positions(&self) -> &[u32] {
        &self.position
    }

    /// Every word path of the class into `paths` (bucketed, unsorted).
    /// `levels` holds one list per letter for each depth a path can reach
    /// (kept between classes); a path starts from the virtual cell past
    /// the last, next to every cell.
    fn collect_class<K: PathKey>(
        &self,
        layout: &Layout<K>,
        masks: &[u32],
        levels: &mut Vec<[Vec<Reach<K>>; 26]>,
        paths: &mut [Vec<K>],
    ) {
        levels.resize_with(masks.len(), Default::default);
        let start = Reach {
            cell: masks.len() as u32,
            used: 0,
            key: K::default(),
        };
        self.collect(layout, masks, self.nodes[0], &[start], levels, paths);
    }

    /// Every word path extending the paths in `reached`, which all spell
    /// trie node `node`'s prefix.
    ///
    /// The walk goes trie node by trie node, each carrying every board
    /// path that spells it: a path per state would load the same trie
    /// nodes once per board path (cache misses into a trie of megabytes,
    /// the collection's cost), this loads each node once per class.
    /// `levels` holds one list per letter for each depth below.
    fn collect<K: PathKey>(
        &self,
        layout: &Layout<K>,
        masks: &[u32],
        node: Node,
        reached: &[Reach<K>],
        levels: &mut [[Vec<Reach<K>>; 26]],
        paths: &mut [Vec<K>],
    ) {
        // A path is at most every cell long, and `levels` has a depth per cell.
        let Some((by_letter, deeper)) = levels.split_first_mut() else {
            return;
        };
        let letters = node.info & LETTER_BITS;
        for list in by_letter.iter_mut() {
            list.clear();
        }
        for path in reached {
            let mut free = self.neighbor_masks[path.cell as usize] & !path.used;
            while free != 0 {
                let next = free.trailing_zeros();
                free &= free - 1;
                let mut choices = masks[next as usize] & letters;
                while choices != 0 {
                    let letter = choices.trailing_zeros() as u8;
                    choices &= choices - 1;
                    by_letter[letter as usize].push(Reach {
                        cell: next,
                        used: path.used | 1 << next,
                        key: path.key | Layout::<K>::slot(self.position[next as usize], letter),
                    });
                }
            }
        }
        let mut choices = letters;
        while choices != 0 {
            let letter = choices.trailing_zeros() as u8;
            choices &= choices - 1;
            let extended = &by_letter[letter as usize];
            // None only when no board path spells the child: the letter
            // is among the node's children.
            let Some(index) = node.child(letter).filter(|_| !extended.is_empty()) else {
                continue;
            };
            let child = self.nodes[index as usize];
            if child.points() > 0 {
                for path in extended {
                    // Trie indexes fit below the slots (checked in `new`).
                    let key = path.key | K::from_u32(index);
                    debug_assert_eq!(layout.points(key), child.points());
                    paths[Layout::<K>::bucket(path.key)].push(key);
                }
            }
            if child.has_children() {
                self.collect(layout, masks, child, extended, deeper, paths);
            }
        }
    }
}

/// A board path that spells some trie node's prefix, while collecting.
#[derive(Clone, Copy, Debug)]
struct Reach<K> {
    /// Its last cell.
    cell: u32,
    /// Its cells.
    used: u32,
    /// Its slots (see [`path_key`]).
    key: K,
}

/// A node still open while [`OrderlyTree::fill`] reads the sorted paths:
/// even levels are sum nodes, odd levels choice nodes.
#[derive(Clone, Copy, Debug, Default)]
struct Open {
    /// A choice node's position, a sum node's letter.
    key: u32,
    /// A sum node's points (each word once).
    points: u32,
    /// A sum node's points plus its closed choices' bounds; a choice
    /// node's best closed child.
    bound: u32,
    /// A choice node's letters with a closed child; a sum node's closed
    /// choice nodes.
    children: u32,
    /// A sum node's last word counted (duplicates are adjacent).
    last_word: u32,
    /// Where its record starts in [`OrderlyTree::pending`].
    start: u32,
}

impl OrderlyTree {
    /// Fills the tree from `buckets` of paths, each sorted, the buckets in
    /// order: one pass, like building a trie from sorted keys. Consecutive
    /// paths share the nodes of their common slots; a node is closed when
    /// the paths move past it.
    ///
    /// Records are assembled in place on one stack, `pending`: an open
    /// node's closed children lie on top of its parent's. A choice node
    /// reserves its header when it opens, its sum children append their
    /// `bound, offset` as they close, so when it closes its record already
    /// sits inside its parent's. A sum node's record is copied out to the
    /// arena once, when it closes (its children before it, so every node's
    /// children are contiguous). Returns the root's bound.
    fn fill<K: PathKey>(&mut self, layout: &Layout<K>, sorted: impl IntoIterator<Item = K>) -> u32 {
        self.arena.clear();
        self.pending.clear();
        self.nodes = 1;
        self.open.clear();
        self.open.push(Open {
            last_word: u32::MAX,
            ..Open::default()
        });
        let mut previous: Option<K> = None;
        for path in sorted {
            // Open nodes kept: those of the slots both paths share.
            let keep = match previous {
                None => 1,
                Some(previous) => match layout.first_difference(path, previous) {
                    None => self.open.len(),
                    Some(q) => {
                        // The open choice nodes are the previous path's
                        // slots; those before the first difference stay.
                        let before = layout.used(previous) & !Layout::<K>::positions_from(q);
                        let both_use_q = Layout::<K>::slot_of(previous, q) != 0
                            && Layout::<K>::slot_of(path, q) != 0;
                        1 + 2 * before.count_ones() as usize + usize::from(both_use_q)
                    }
                },
            };
            while self.open.len() > keep {
                self.close();
            }
            // Open the path's remaining nodes.
            let position = if self.open.len() == 1 {
                0
            } else if self.open.len().is_multiple_of(2) {
                // A kept choice node: its letter's sum is next.
                let choice = self.open[self.open.len() - 1].key;
                self.open_sum(Layout::<K>::slot_of(path, choice) - 1);
                choice + 1
            } else {
                self.open[self.open.len() - 2].key + 1
            };
            let mut used = layout.used(path) & Layout::<K>::positions_from(position);
            while used != K::default() {
                let zeros = used.leading_zeros();
                used = used & !(K::from_u32(1) << (K::BITS - 1 - zeros));
                let position = zeros / SLOT_BITS;
                self.open.push(Open {
                    key: position,
                    start: self.pending.len() as u32,
                    ..Open::default()
                });
                // The letters are filled in when it closes.
                self.pending.push(position << POSITION_SHIFT);
                self.open_sum(Layout::<K>::slot_of(path, position) - 1);
            }
            let word = layout.word(path);
            let end = self.open.len() - 1;
            let last = &mut self.open[end];
            if word != last.last_word {
                let points = layout.points(path);
                last.points += points;
                last.bound += points;
                last.last_word = word;
            }
            previous = Some(path);
        }
        while self.open.len() > 1 {
            self.close();
        }
        let root = self.open[0];
        self.root = self.write_sum(&root);
        self.bound = root.bound;
        root.bound
    }

    /// Opens a sum node for `letter` below the open choice node.
    #[inline]
    fn open_sum(&mut self, letter: u32) {
        self.open.push(Open {
            key: letter,
            last_word: u32::MAX,
            start: self.pending.len() as u32,
            ..Open::default()
        });
    }

    /// Closes the innermost open node and counts it in its parent: a sum
    /// node is written out (unless it is a leaf), and leaves its bound and
    /// offset in its parent's record; a choice node's record is already in
    /// place, its letters are filled in.
    #[inline(always)]
    fn close(&mut self) {
        let level = self.open.len() - 1;
        // Some: the open stack has the root below.
        let node = self.open.pop().unwrap_or_default();
        self.nodes += 1;
        let parent = &mut self.open[level - 1];
        if level.is_multiple_of(2) {
            parent.children |= 1 << node.key;
            parent.bound = parent.bound.max(node.bound);
            let offset = if node.children == 0 {
                LEAF
            } else {
                self.write_sum(&node) as u32
            };
            self.pending.push(node.bound);
            self.pending.push(offset);
        } else {
            parent.bound += node.bound;
            parent.children += 1;
            self.pending[node.start as usize] |= node.children;
        }
    }

    /// Writes out sum node `sum`, its choice nodes' records taken off
    /// `pending`; returns its offset.
    fn write_sum(&mut self, sum: &Open) -> usize {
        let offset = self.arena.len();
        let start = sum.start as usize;
        // Points fit above the count: checked in `OrderlyBuilder::new`.
        self.arena.push(sum.points << COUNT_BITS | sum.children);
        self.arena.extend_from_slice(&self.pending[start..]);
        self.pending.truncate(start);
        offset
    }

    /// *Forces* split-order `position` to `letter`: makes the tree of the
    /// subclass with that cell fixed, in which the cell is no choice any
    /// more, and returns its bound with what [`OrderlyTree::unforce`] takes
    /// to go back. Every earlier position must be forced already, so the
    /// position's choice node, if any, hangs from the root.
    ///
    /// The new root *merges* the old root (without that choice node) with
    /// the letter's child: points add, and choice nodes of one position
    /// under the two become one, with the union of their letters, and the
    /// children of a letter both have merged the same way, recursively.
    /// Where the incremental walk bounds a merged choice node by max A +
    /// max B, the merged tree bounds it by max (A + B), at every depth:
    /// much tighter near the root, where bounds are high. It still bounds
    /// every board of the subclass: a board's letters reach, in the merged
    /// tree, exactly the merged images of the nodes they reached before
    /// (every word a board spells is still counted at least once). A word
    /// that both sides count, on paths that differ only in the forced cell,
    /// counts twice, which is looser than a tree built afresh, never wrong.
    ///
    /// Subtrees only one side has are shared, not copied: the new nodes are
    /// appended to the arena, and `unforce` truncates it, so forcing deeper
    /// and going back is a stack.
    pub fn force(&mut self, position: u32, letter: u8) -> (u32, Unforce) {
        self.force_with(position, letter, OrderlyTree::merge_levels)
    }

    /// [`OrderlyTree::force`] with `merge` (a test compares merges).
    fn force_with(
        &mut self,
        position: u32,
        letter: u8,
        merge: impl FnOnce(&mut OrderlyTree, (u32, u32), (u32, u32), u32) -> (u32, u32),
    ) -> (u32, Unforce) {
        let Ok::<_, std::convert::Infallible>(forced) =
            self.try_force_with(position, letter, |tree, a, b, skip| {
                Ok(merge(tree, a, b, skip))
            });
        forced
    }

    /// [`OrderlyTree::force`] with a `merge` that may fail (the GPU's,
    /// `gpu_build/merge.rs`): it must append to the arena what
    /// [`OrderlyTree::merge_levels`] appends and return what it returns.
    /// On failure the tree is as it was.
    pub(crate) fn try_force_with<E>(
        &mut self,
        position: u32,
        letter: u8,
        merge: impl FnOnce(&mut OrderlyTree, (u32, u32), (u32, u32), u32) -> Result<(u32, u32), E>,
    ) -> Result<(u32, Unforce), E> {
        let saved = Unforce {
            arena: self.arena.len(),
            root: self.root,
            bound: self.bound,
            nodes: self.nodes,
        };
        let root = self.root as u32;
        let child = self
            .choice_at(root, position)
            .and_then(|choice| choice_child(&self.arena, choice, letter))
            .unwrap_or((0, LEAF));
        let (bound, offset) = match merge(self, (self.bound, root), child, position) {
            Ok(merged) => merged,
            Err(e) => {
                self.unforce(saved);
                return Err(e);
            }
        };
        self.root = if offset == LEAF {
            // A root without choice nodes still needs its record.
            self.arena.push(bound << COUNT_BITS);
            self.arena.len() - 1
        } else {
            offset as usize
        };
        self.bound = bound;
        Ok((bound, saved))
    }

    /// Goes back to the tree before the [`OrderlyTree::force`] that gave
    /// `saved` (and every one after it).
    pub fn unforce(&mut self, saved: Unforce) {
        self.arena.truncate(saved.arena);
        self.unforce_keeping_nodes(saved);
    }

    /// [`OrderlyTree::unforce`], leaving the forced trees' nodes in the
    /// arena: subclasses handed over in them (`handover.rs`) still need
    /// them. Later forces append after them.
    pub(crate) fn unforce_keeping_nodes(&mut self, saved: Unforce) {
        self.root = saved.root;
        self.bound = saved.bound;
        self.nodes = saved.nodes;
    }

    /// Where sum node `sum`'s choice node on `position` starts, if it has one.
    fn choice_at(&self, sum: u32, position: u32) -> Option<usize> {
        self.choices(sum)
            .find(|&choice| self.arena[choice] >> POSITION_SHIFT == position)
    }

    /// Where each choice node of sum node `sum` starts (none for a leaf).
    fn choices(&self, sum: u32) -> impl Iterator<Item = usize> + '_ {
        let (mut at, count) = if sum == LEAF {
            (0, 0)
        } else {
            let sum = sum as usize;
            (sum + 1, self.arena[sum] & ((1 << COUNT_BITS) - 1))
        };
        (0..count).map(move |_| {
            let choice = at;
            at += 1 + 2 * (self.arena[choice] & LETTER_BITS).count_ones() as usize;
            choice
        })
    }

    /// Merges sum nodes `a` and `b`, each (bound, offset) as a choice
    /// node keeps its children (a leaf's offset [`LEAF`], its bound its
    /// points), leaving `a`'s choice node on position `skip` out (none:
    /// `u32::MAX`); returns the merged node's (bound, offset), written to
    /// the arena unless it is a leaf or one side is empty.
    #[cfg(test)]
    fn merge(&mut self, a: (u32, u32), b: (u32, u32), skip: u32) -> (u32, u32) {
        let points_of = |(bound, offset): (u32, u32)| {
            if offset == LEAF {
                bound
            } else {
                self.arena[offset as usize] >> COUNT_BITS
            }
        };
        let points = points_of(a) + points_of(b);
        if a.1 == LEAF && b.1 == LEAF {
            return (points, LEAF);
        }
        // One side empty (no points, no choices): the other as it is.
        if skip == u32::MAX && b == (0, LEAF) {
            return a;
        }
        if skip == u32::MAX && a == (0, LEAF) {
            return b;
        }
        let mut by_position = [[usize::MAX; 2]; MAX_ORDERLY_CELLS];
        // The merged record's length: a header, then per position its
        // choice node's header and a (bound, offset) per letter.
        let mut length = 1;
        let mut union = [0u32; MAX_ORDERLY_CELLS];
        // The positions present, to visit only those (most sum nodes have
        // one or two choice nodes).
        let mut present = 0u32;
        for (side, sum) in [a.1, b.1].into_iter().enumerate() {
            for choice in self.choices(sum) {
                let position = (self.arena[choice] >> POSITION_SHIFT) as usize;
                if !(side == 0 && position as u32 == skip) {
                    by_position[position][side] = choice;
                    let letters = self.arena[choice] & LETTER_BITS;
                    length += 2 * (letters & !union[position]).count_ones() as usize;
                    if union[position] == 0 {
                        length += 1;
                        present |= 1 << position;
                    }
                    union[position] |= letters;
                }
            }
        }
        if present == 0 {
            return (points, LEAF);
        }
        let count = present.count_ones();
        // Written in place: merged children go after it in the arena (any
        // order reads the same; `fill` puts children first).
        let offset = self.arena.len();
        self.arena.resize(offset + length, 0);
        // Points fit above the count: at most every word's, as in `fill`.
        self.arena[offset] = points << COUNT_BITS | count;
        let mut at = offset + 1;
        let mut bound = points;
        // Positions in the order `fill` writes them (a sum node's choice
        // nodes from the last position to the first), so a forced tree
        // reads like a built one.
        while present != 0 {
            let position = (u32::BITS - 1 - present.leading_zeros()) as usize;
            present ^= 1 << position;
            bound += match by_position[position] {
                [only, usize::MAX] | [usize::MAX, only] => {
                    let letters = self.arena[only] & LETTER_BITS;
                    let end = only + 1 + 2 * letters.count_ones() as usize;
                    self.arena.copy_within(only..end, at);
                    at += end - only;
                    (only + 1..end)
                        .step_by(2)
                        .map(|i| self.arena[i])
                        .max()
                        .unwrap_or(0)
                }
                [x, y] => {
                    let best = self.merge_choices(position as u32, x, y, at);
                    at += 1 + 2 * union[position].count_ones() as usize;
                    best
                }
            };
        }
        debug_assert_eq!(at, offset + length);
        self.nodes += 1 + count as usize;
        (bound, offset as u32)
    }

    /// Writes at `at` the merge of choice nodes `x` and `y` (both on
    /// `position`): the union of their letters, a letter both have leading
    /// to the merge of its two children. Returns its bound.
    #[cfg(test)]
    fn merge_choices(&mut self, position: u32, x: usize, y: usize, at: usize) -> u32 {
        let (lx, ly) = (self.arena[x] & LETTER_BITS, self.arena[y] & LETTER_BITS);
        self.arena[at] = position << POSITION_SHIFT | lx | ly;
        // Each side's next (bound, offset), letters in order.
        let (mut next_x, mut next_y) = (x + 1, y + 1);
        let mut best = 0;
        let mut out = at + 1;
        let mut letters = lx | ly;
        while letters != 0 {
            let bit = letters & letters.wrapping_neg();
            letters ^= bit;
            let take = |mask: u32, next: &mut usize| {
                if mask & bit == 0 {
                    return (0, LEAF);
                }
                *next += 2;
                (self.arena[*next - 2], self.arena[*next - 1])
            };
            let (cx, cy) = (take(lx, &mut next_x), take(ly, &mut next_y));
            let child = self.merge(cx, cy, u32::MAX);
            best = best.max(child.0);
            self.arena[out] = child.0;
            self.arena[out + 1] = child.1;
            out += 2;
        }
        best
    }

    /// Moves the tree out, leaving the buffers of the build behind for
    /// the next one.
    pub(crate) fn take(&mut self) -> OrderlyTree {
        let arena = std::mem::take(&mut self.arena);
        self.with_arena(arena)
    }

    /// The arena's memory, for another tree (`handover.rs`).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn into_arena(self) -> Vec<u32> {
        self.arena
    }

    /// Builds the next tree in `arena`'s memory if it holds more than this
    /// tree's own, and returns the smaller of the two: memory that the
    /// process already holds is worth keeping (in an
    /// [`crate::handover::ArenaPool`]), since fresh memory costs a page
    /// fault and a cleared page every 4 KiB.
    pub(crate) fn adopt_arena(&mut self, mut arena: Vec<u32>) -> Vec<u32> {
        if arena.capacity() > self.arena.capacity() {
            std::mem::swap(&mut self.arena, &mut arena);
        }
        self.arena.clear();
        arena
    }

    /// A copy of the tree without the build's buffers.
    pub(crate) fn clone_arena(&self) -> OrderlyTree {
        self.with_arena(self.arena.clone())
    }

    /// This tree's root, bound and node count over `arena` (this tree's
    /// nodes, moved or copied), without the build's buffers.
    fn with_arena(&self, arena: Arena) -> OrderlyTree {
        OrderlyTree {
            arena,
            root: self.root,
            bound: self.bound,
            nodes: self.nodes,
            ..OrderlyTree::default()
        }
    }

    /// The arena, `words` long, for a fill made elsewhere (the GPU's,
    /// `gpu_build/fill.rs`) to write into; [`OrderlyTree::set_filled`]
    /// completes it. Its memory is the tree's own, reused.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn arena_to_fill(&mut self, words: usize) -> &mut [u32] {
        self.arena.clear();
        self.arena.resize(words, 0);
        &mut self.arena
    }

    /// The arena, with room for `words` more, for a merge made elsewhere
    /// (the GPU's, `gpu_build/merge.rs`) to append its words to, and
    /// `nodes` more nodes counted. Room, not words: zeroing words that the
    /// read-back then overwrites was most of the merges' "growing the
    /// host's arenas" time (docs/RESULTS.md).
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn arena_to_append(&mut self, words: usize, nodes: usize) -> &mut Vec<u32> {
        self.arena.reserve(words);
        self.nodes += nodes;
        &mut self.arena
    }

    /// Completes a fill made elsewhere into [`OrderlyTree::arena_to_fill`]:
    /// the root's offset and bound, and the node count.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn set_filled(&mut self, root: usize, bound: u32, nodes: usize) {
        self.root = root;
        self.bound = bound;
        self.nodes = nodes;
    }

    /// The nodes (see [`Arena`]).
    pub(crate) fn arena(&self) -> &[u32] {
        &self.arena
    }

    /// Words the arena's memory holds, used or not (a GPU proof's host
    /// budget counts them).
    #[cfg(feature = "gpu")]
    pub(crate) fn arena_capacity(&self) -> usize {
        self.arena.capacity()
    }

    /// Where the root sum node starts in [`OrderlyTree::arena`].
    pub(crate) fn root(&self) -> usize {
        self.root
    }

    /// Makes the sum node at `root` (whose bound is `bound`) the root: a
    /// class's arena handed over with its forced trees' nodes kept
    /// (`handover.rs`) holds several roots, one per forced subclass.
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    pub(crate) fn reroot(&mut self, root: usize, bound: u32) {
        self.root = root;
        self.bound = bound;
    }

    /// Sum and choice nodes.
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// The root's bound.
    pub fn bound(&self) -> u32 {
        self.bound
    }
}

/// What [`OrderlyTree::unforce`] restores.
#[derive(Clone, Copy, Debug)]
pub struct Unforce {
    arena: usize,
    root: usize,
    bound: u32,
    nodes: usize,
}

/// What [`OrderlyBound`] saved after fixing a position (the per-letter
/// sums live apart, in [`OrderlyBound::letter_sums`]).
#[derive(Clone, Copy, Debug)]
struct Frame {
    lengths: [u32; MAX_ORDERLY_CELLS],
    points: u32,
}

/// Bounds of subclasses of a tree's class: the cells fixed one at a time
/// in split order, each step undone by going back to an earlier depth (see
/// the module docs).
///
/// The choice nodes waiting on one position are all resolved by the same
/// letter, so they are bounded together: per position, the bound is the
/// best letter's *sum* of child bounds, not the sum of each choice node's
/// best letter. On one board every one of them takes the board's letter,
/// so this still holds, and it is much tighter deep in the walk, where
/// dozens of choice nodes wait on each cell and pick different letters.
pub struct OrderlyBound {
    /// Per split-order position, the choice nodes waiting on it.
    stacks: Vec<Vec<u32>>,
    /// Per depth, the state after fixing that many positions.
    frames: Vec<Frame>,
    /// Per depth, per position, per letter: the summed bounds of the
    /// letter's children of the choice nodes waiting on the position
    /// (`[(depth * cells + position) * 26 + letter]`; positions before the
    /// depth are resolved and left stale).
    letter_sums: Vec<u32>,
    /// While fixing: the sum nodes reached (kept to reuse the buffer).
    reached: Vec<u32>,
    cells: usize,
}

impl OrderlyBound {
    /// An evaluator for classes of `cells` cells.
    pub fn new(cells: usize) -> OrderlyBound {
        OrderlyBound {
            stacks: vec![Vec::new(); cells],
            frames: Vec::with_capacity(cells + 1),
            letter_sums: vec![0; (cells + 1) * cells * 26],
            reached: Vec::new(),
            cells,
        }
    }

    /// Starts on `tree`: nothing fixed. Returns the root's bound (the
    /// tree's: at the root every position has one choice node at most).
    pub fn start(&mut self, tree: &OrderlyTree) -> u32 {
        for stack in &mut self.stacks {
            stack.clear();
        }
        self.frames.clear();
        let row = self.cells * 26;
        self.letter_sums[..row].fill(0);
        let mut frame = Frame {
            lengths: [0; MAX_ORDERLY_CELLS],
            points: 0,
        };
        if !tree.arena.is_empty() {
            frame.points += tree.arena[tree.root] >> COUNT_BITS;
            self.advance(tree, 0, tree.root);
        }
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
        // This depth's sums start as the parent's, for the positions still free.
        let row = self.cells * 26;
        let (parent, this) = self.letter_sums.split_at_mut(depth * row);
        this[depth * 26..row].copy_from_slice(&parent[(depth - 1) * row + depth * 26..depth * row]);
        let position = depth - 1;
        // Two passes: the first only finds the sum nodes reached and reads
        // their points, loads that do not wait on each other, so their
        // cache misses overlap; the second adds their choice nodes.
        let mut reached = std::mem::take(&mut self.reached);
        reached.clear();
        for &choice in &self.stacks[position] {
            match choice_child(&tree.arena, choice as usize, letter) {
                Some((points, LEAF)) => frame.points += points,
                Some((_, sum)) => {
                    frame.points += tree.arena[sum as usize] >> COUNT_BITS;
                    reached.push(sum);
                }
                None => {}
            }
        }
        for &sum in &reached {
            self.advance(tree, depth, sum as usize);
        }
        self.reached = reached;
        self.save(frame)
    }

    /// The bound of every subclass one step below the current one (the
    /// last state saved, `depth` positions fixed): `out[l]` is what
    /// [`OrderlyBound::fix`]`(tree, depth + 1, l)` would return before
    /// the choice nodes that fixing `l` brings in are bounded together
    /// (so never less). Most subclasses are discarded by it, so most are
    /// never fixed.
    pub fn child_bounds(&self, depth: usize, out: &mut [u32; 26]) {
        let frame = &self.frames[depth];
        let rest = frame.points + self.best_from(depth, depth + 1);
        let sums = &self.level(depth)[depth * 26..(depth + 1) * 26];
        for (o, &s) in out.iter_mut().zip(sums) {
            *o = rest + s;
        }
    }

    /// Adds the choice children of sum node `sum` at `depth` to the stacks
    /// and letter sums of their positions (its points are the caller's).
    #[inline]
    fn advance(&mut self, tree: &OrderlyTree, depth: usize, sum: usize) {
        let arena = &tree.arena;
        let count = arena[sum] & ((1 << COUNT_BITS) - 1);
        let row = self.cells * 26;
        let level = &mut self.letter_sums[depth * row..(depth + 1) * row];
        let mut at = sum + 1;
        for _ in 0..count {
            let p = (arena[at] >> POSITION_SHIFT) as usize;
            let mut letters = arena[at] & LETTER_BITS;
            self.stacks[p].push(at as u32);
            let sums = &mut level[p * 26..(p + 1) * 26];
            let mut child = at + 1;
            while letters != 0 {
                let letter = letters.trailing_zeros() as usize;
                letters &= letters - 1;
                sums[letter] += arena[child];
                child += 2;
            }
            at = child;
        }
    }

    /// Per-letter sums at `depth`, every position.
    fn level(&self, depth: usize) -> &[u32] {
        let row = self.cells * 26;
        &self.letter_sums[depth * row..(depth + 1) * row]
    }

    /// The sum, over positions `from..`, of each position's best letter
    /// at `depth`.
    fn best_from(&self, depth: usize, from: usize) -> u32 {
        self.level(depth)[from * 26..]
            .chunks_exact(26)
            .map(|sums| sums.iter().copied().max().unwrap_or(0))
            .sum()
    }

    fn save(&mut self, mut frame: Frame) -> u32 {
        for (p, stack) in self.stacks.iter().enumerate() {
            frame.lengths[p] = stack.len() as u32;
        }
        let depth = self.frames.len();
        self.frames.push(frame);
        frame.points + self.best_from(depth, depth)
    }

    /// The bound of the subclass of `tree`'s class whose first positions
    /// in split order are `letters`: [`OrderlyBound::start`], then
    /// [`OrderlyBound::fix`] for each.
    pub fn bound_of(&mut self, tree: &OrderlyTree, letters: &[u8]) -> u32 {
        let mut bound = self.start(tree);
        for (depth, &letter) in letters.iter().enumerate() {
            bound = self.fix(tree, depth + 1, letter);
        }
        bound
    }
}

/// The degree split order: cells with more neighbours first (the centre,
/// then edges, then corners), row-major among equals. Fixing the
/// best-connected cells first shrinks the bounds fastest.
pub fn split_order(shape: &Shape) -> Vec<usize> {
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    order.sort_by_key(|&cell| (std::cmp::Reverse(shape.degree[cell]), cell));
    order
}

/// How much a cell's neighbours count against its letters in
/// [`cost_order`]: the exponent of its degree.
const COST_DEGREE_EXPONENT: f64 = 1.3;

/// The cost split order of one class whose cell `c` takes the letters of
/// `masks[c]`: cells by their letter count over their degree to the power
/// 1.3, lowest first (ties: more neighbours, then row-major).
///
/// Any order gives a correct proof (the tree is built for it); the order
/// only decides the work. Fixing a cell multiplies the subclasses by its
/// letter count and tightens the bound by the words through it, which
/// grow with its neighbours: cells that cost few branches for many
/// neighbours go first. On 4x4 with the 2025 buckets it puts a centre
/// vowel before a centre consonant of twelve letters and an edge vowel
/// before both. 20 sampled 4x4 classes, one dev core: 40.9 s against
/// 64.0 s in the degree order; 420 classes of the 4x4 slice, paired on
/// one host: 0.79 of the degree order's time on light classes, 0.82-0.91
/// on the heaviest. The exponent was the best of 0.5 to 2 (1 and 1.6
/// were 4% and 32% slower on the 20 classes; docs/RESULTS.md).
pub fn cost_order(shape: &Shape, masks: &[u32]) -> Vec<usize> {
    let cost = |cell: usize| {
        let letters = f64::from(masks[cell].count_ones().max(1));
        letters.ln() - COST_DEGREE_EXPONENT * f64::from(shape.degree[cell].max(1)).ln()
    };
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    order.sort_by(|&a, &b| {
        cost(a)
            .total_cmp(&cost(b))
            .then(shape.degree[b].cmp(&shape.degree[a]))
            .then(a.cmp(&b))
    });
    order
}

/// How a proof orders each class's cells (the order its tree is built in
/// and its subclasses are split by).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitOrder {
    /// Every class in the same order (proofs before the cost order: the
    /// degree order, [`split_order`]).
    Cells(Vec<usize>),
    /// Each class in its own [`cost_order`].
    Cost,
}

impl SplitOrder {
    /// The order named `name` (`degree` or `cost`) for `shape`.
    pub fn named(name: &str, shape: &Shape) -> Option<SplitOrder> {
        match name {
            "degree" => Some(SplitOrder::Cells(split_order(shape))),
            "cost" => Some(SplitOrder::Cost),
            _ => None,
        }
    }

    /// The cells of the class whose cell `c` takes `masks[c]`, in order.
    pub fn of_class(&self, shape: &Shape, masks: &[u32]) -> Vec<usize> {
        match self {
            SplitOrder::Cells(order) => order.clone(),
            SplitOrder::Cost => cost_order(shape, masks),
        }
    }

    /// As certificates and results files write it: `cost`, or the cells.
    pub fn describe(&self) -> String {
        match self {
            SplitOrder::Cells(order) => order
                .iter()
                .map(|cell| cell.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            SplitOrder::Cost => "cost".into(),
        }
    }

    /// Reads what [`SplitOrder::describe`] writes, for `cells` cells.
    pub fn parse(text: &str, cells: usize) -> Result<SplitOrder, String> {
        if text == "cost" {
            return Ok(SplitOrder::Cost);
        }
        let order: Vec<usize> = text
            .split_whitespace()
            .map(|cell| cell.parse().ok().filter(|&c| c < cells))
            .collect::<Option<_>>()
            .ok_or("order holds a cell off the board")?;
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != (0..cells).collect::<Vec<_>>() {
            return Err("order is not a permutation of the cells, nor `cost`".into());
        }
        Ok(SplitOrder::Cells(order))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WordList;

    /// The trie of ENABLE2K, which ships in `data/`.
    fn enable2k() -> Trie {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/boggle/enable2k.txt"
        ))
        .expect("ENABLE2K ships in data/");
        Trie::build(&WordList::parse(text.as_bytes()))
    }

    /// Trees built from `u64` and from `u128` paths are the same tree, and
    /// points read off the slots (Qu counting two) match the trie's.
    #[test]
    fn narrow_and_wide_paths_build_the_same_tree() {
        let words = "quit queen quiet aqua equal squat tea eat ate seat east teas \
                     rest stare tears aster rates arrest treat street setter tester";
        let list = WordList::parse(words.replace(' ', "\n").as_bytes());
        let trie = Trie::build(&list);
        let shape = Shape::new(3, 3);
        let order = split_order(&shape);
        let builder = OrderlyBuilder::new(&trie, &shape, &order).expect("3x3 fits");
        let letters = |text: &str| crate::prove::letter_mask(text).expect("letters");
        let masks = [
            letters("qs"),
            letters("ueat"),
            letters("irs"),
            letters("aeiou"),
            letters("tqr"),
            letters("e"),
            letters("st"),
            letters("ae"),
            letters("rtn"),
        ];
        let (mut narrow, mut wide) = (OrderlyTree::default(), OrderlyTree::default());
        let bound = builder.build_with::<u64>(&masks, &mut narrow);
        assert_eq!(builder.build_with::<u128>(&masks, &mut wide), bound);
        assert!(bound > 0 && narrow.node_count() > 20);
        assert_eq!(narrow.arena, wide.arena);
        assert_eq!(narrow.node_count(), wide.node_count());
    }

    /// A tree filled from the sorted 128-bit paths (what the GPU collects)
    /// is the tree `build` makes, narrow keys or wide, on 3x3 classes
    /// of three buckets and on 3x4 and 4x4 classes, each in its own order.
    #[test]
    fn trees_filled_from_sorted_wide_paths_are_the_built_trees() {
        let trie = enable2k();
        let buckets =
            crate::prove::Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty").expect("buckets");
        for (rows, cols, stride) in [(3, 3, 41), (3, 4, 4_999), (4, 4, 2_000_003)] {
            let shape = Shape::new(rows, cols);
            let classes = crate::prove::top_classes(&shape, &buckets).expect("classes");
            let mut builder =
                OrderlyBuilder::new(&trie, &shape, &split_order(&shape)).expect("builder");
            for class in classes.iter().step_by(stride) {
                let masks = buckets.class_masks(&shape, class);
                builder.reorder(&cost_order(&shape, &masks));
                let (mut filled, mut built) = (OrderlyTree::default(), OrderlyTree::default());
                let paths = builder.sorted_wide_paths(&masks);
                assert!(paths.windows(2).all(|w| w[0] <= w[1]));
                let bound = builder.build_from_sorted(&paths, &mut filled);
                assert_eq!(
                    bound,
                    builder.build(&masks, &mut built),
                    "{rows}x{cols} {class:?}"
                );
                assert_eq!(filled.arena, built.arena, "{rows}x{cols} {class:?}");
            }
        }
    }

    /// Forcing merges level by level; the recursive merge it replaced is
    /// the reference, written apart on purpose (a reference that shared the
    /// level merge's code would check less): after every force of a
    /// depth-first walk over the first positions, the same root bound, the
    /// same nodes written, and the same incremental bounds for every letter
    /// of the next position.
    #[test]
    fn level_merges_equal_recursive_merges() {
        let trie = enable2k();
        let shape = Shape::new(3, 3);
        let letters = |text: &str| crate::prove::letter_mask(text).expect("letters");
        let classes = [
            [
                "aeiou",
                "bcdfgmpqvwxz",
                "aeiou",
                "hklnrsty",
                "aeiou",
                "hklnrsty",
                "st",
                "aeijou",
                "r",
            ],
            [
                "rstl", "aeio", "nltr", "aeiou", "rstlnd", "eai", "sdt", "aei", "dnrst",
            ],
        ];
        for class in classes {
            let masks: Vec<u32> = class.iter().map(|t| letters(t)).collect();
            let order = cost_order(&shape, &masks);
            let builder = OrderlyBuilder::new(&trie, &shape, &order).expect("3x3 fits");
            let mut levels = OrderlyTree::default();
            builder.build(&masks, &mut levels);
            // The walk and the forces go by split-order position.
            let masks: Vec<u32> = order.iter().map(|&cell| masks[cell]).collect();
            let mut recursive = levels.clone();
            let mut walks = (OrderlyBound::new(9), OrderlyBound::new(9));
            let mut forced = 0;
            let mut prefix = Vec::new();
            check_forces(
                &masks,
                &mut prefix,
                &mut levels,
                &mut recursive,
                &mut walks,
                &mut forced,
            );
            assert!(forced > 50, "only {forced} forces");
        }
    }

    /// Forces every letter of the next position on both trees, compares,
    /// and goes one position deeper, four deep.
    fn check_forces(
        masks: &[u32],
        prefix: &mut Vec<u8>,
        levels: &mut OrderlyTree,
        recursive: &mut OrderlyTree,
        walks: &mut (OrderlyBound, OrderlyBound),
        forced: &mut usize,
    ) {
        let depth = prefix.len();
        if depth == 4 {
            return;
        }
        let mut pending = masks[depth];
        while pending != 0 {
            let letter = pending.trailing_zeros() as u8;
            pending &= pending - 1;
            let (bound, saved) = levels.force(depth as u32, letter);
            let reference = recursive.force_with(depth as u32, letter, OrderlyTree::merge);
            *forced += 1;
            assert_eq!(
                bound, reference.0,
                "bound after forcing {prefix:?} + {letter}"
            );
            assert_eq!(levels.node_count(), recursive.node_count());
            prefix.push(letter);
            let mut next = masks.get(depth + 1).copied().unwrap_or(0);
            walks.0.bound_of(levels, prefix);
            walks.1.bound_of(recursive, prefix);
            while next != 0 {
                let l = next.trailing_zeros() as u8;
                next &= next - 1;
                assert_eq!(
                    walks.0.fix(levels, depth + 2, l),
                    walks.1.fix(recursive, depth + 2, l),
                    "walk below {prefix:?} + {l}"
                );
            }
            check_forces(masks, prefix, levels, recursive, walks, forced);
            prefix.pop();
            levels.unforce(saved);
            recursive.unforce(reference.1);
        }
    }
}
