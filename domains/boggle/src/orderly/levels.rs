//! Merging two sum nodes level by level (breadth first), for
//! [`OrderlyTree::force`](super::OrderlyTree::force).
//!
//! The recursive merge reads the header of each pair's two sum nodes, then
//! descends into the first pair of children before it reads the next pair.
//! Each of those reads is a cache miss in a tree of hundreds of megabytes,
//! and they wait on each other. Here every pair of one level is opened
//! before any pair of the next, so the headers of the pairs a few places
//! ahead in the level are known and asked for ([`prefetch`]: the header's
//! cache line and the next, where its first choice nodes lie) while this
//! one is merged, and their misses overlap. (Without the prefetch, the
//! levels alone were 11% slower than the recursion on ten 4x4 classes;
//! with one line 9-10% faster, with two 15%: docs/RESULTS.md.) A merged
//! node's bound needs its children's, so records are written top-down with
//! their bounds left open, and the bounds are filled bottom-up, in the
//! reverse order the records were made (children after their parents).
//! The bounds are those of the recursive merge: points plus, per position,
//! the best letter's child bound, a letter both sides have leading to the
//! merge of its two children.

use frontier_core::prefetch::prefetch;

use super::{OrderlyTree, COUNT_BITS, LEAF, LETTER_BITS, MAX_ORDERLY_CELLS, POSITION_SHIFT};

/// How many pairs ahead of the one being merged headers are asked for
/// (16 was no better on the ten classes of docs/RESULTS.md, nor was a
/// third cache line a pair).
const PREFETCH_AHEAD: usize = 8;

/// Arena words (`u32`) in a 64-byte cache line: a node's second line
/// starts this far past its header.
const WORDS_PER_LINE: usize = 16;

/// Where a merged pair's `(bound, offset)` goes: an entry of a choice node
/// already written, or the root (returned).
const ROOT: u32 = u32::MAX;

/// Two sum nodes to merge, each as a choice node keeps it: `(bound,
/// offset)`, a leaf's offset [`LEAF`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Pair {
    a: (u32, u32),
    b: (u32, u32),
    /// Where the merged node's `(bound, offset)` is written.
    slot: u32,
}

/// A merged record whose bound is filled bottom-up.
#[derive(Clone, Copy, Debug)]
pub(super) struct Made {
    record: u32,
    slot: u32,
}

/// The buffers of a level-by-level merge, kept to reuse them.
#[derive(Clone, Debug, Default)]
pub(super) struct Levels {
    level: Vec<Pair>,
    next: Vec<Pair>,
    made: Vec<Made>,
}

impl OrderlyTree {
    /// Merges sum nodes `a` and `b` (each `(bound, offset)`), leaving
    /// `a`'s choice node on position `skip` out; returns the merged node's
    /// `(bound, offset)`, written to the arena unless it is a leaf or one
    /// side is empty (as the recursive merge does).
    pub(super) fn merge_levels(&mut self, a: (u32, u32), b: (u32, u32), skip: u32) -> (u32, u32) {
        let mut levels = std::mem::take(&mut self.levels);
        levels.made.clear();
        levels.next.clear();
        let mut root = match self.open(a, b, skip, ROOT, &mut levels) {
            Some(done) => done,
            // `open` returns None only after it made the root's record.
            None => (0, levels.made[0].record),
        };
        // The pairs `open` queued on `levels.next` become the level to
        // open; the last level's buffer takes the next queue.
        while !levels.next.is_empty() {
            std::mem::swap(&mut levels.level, &mut levels.next);
            levels.next.clear();
            let level = std::mem::take(&mut levels.level);
            for (i, pair) in level.iter().enumerate() {
                if let Some(ahead) = level.get(i + PREFETCH_AHEAD) {
                    for offset in [ahead.a.1, ahead.b.1] {
                        if offset != LEAF {
                            prefetch(&self.arena[offset as usize]);
                            if let Some(next) = self.arena.get(offset as usize + WORDS_PER_LINE) {
                                prefetch(next);
                            }
                        }
                    }
                }
                if let Some(done) = self.open(pair.a, pair.b, u32::MAX, pair.slot, &mut levels) {
                    self.arena[pair.slot as usize] = done.0;
                    self.arena[pair.slot as usize + 1] = done.1;
                }
            }
            levels.level = level;
        }
        for made in levels.made.iter().rev() {
            let bound = self.record_bound(made.record as usize);
            if made.slot == ROOT {
                root.0 = bound;
            } else {
                self.arena[made.slot as usize] = bound;
            }
        }
        self.levels = levels;
        root
    }

    /// Opens one pair: its result when it needs no record (a leaf, or one
    /// side empty), else writes the merged record, its bound and the
    /// bounds of children still to merge left open, queues those pairs on
    /// `levels.next` and returns None.
    fn open(
        &mut self,
        a: (u32, u32),
        b: (u32, u32),
        skip: u32,
        slot: u32,
        levels: &mut Levels,
    ) -> Option<(u32, u32)> {
        let points_of = |(bound, offset): (u32, u32)| {
            if offset == LEAF {
                bound
            } else {
                self.arena[offset as usize] >> COUNT_BITS
            }
        };
        let points = points_of(a) + points_of(b);
        if a.1 == LEAF && b.1 == LEAF {
            return Some((points, LEAF));
        }
        if skip == u32::MAX && b == (0, LEAF) {
            return Some(a);
        }
        if skip == u32::MAX && a == (0, LEAF) {
            return Some(b);
        }
        let mut by_position = [[usize::MAX; 2]; MAX_ORDERLY_CELLS];
        let mut length = 1;
        let mut union = [0u32; MAX_ORDERLY_CELLS];
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
            return Some((points, LEAF));
        }
        let count = present.count_ones();
        let offset = self.arena.len();
        self.arena.resize(offset + length, 0);
        self.arena[offset] = points << COUNT_BITS | count;
        if slot != ROOT {
            self.arena[slot as usize + 1] = offset as u32;
        }
        let mut at = offset + 1;
        while present != 0 {
            let position = (u32::BITS - 1 - present.leading_zeros()) as usize;
            present ^= 1 << position;
            match by_position[position] {
                [only, usize::MAX] | [usize::MAX, only] => {
                    let end = only + 1 + 2 * (self.arena[only] & LETTER_BITS).count_ones() as usize;
                    self.arena.copy_within(only..end, at);
                    at += end - only;
                }
                [x, y] => {
                    let (lx, ly) = (self.arena[x] & LETTER_BITS, self.arena[y] & LETTER_BITS);
                    self.arena[at] = (position as u32) << POSITION_SHIFT | lx | ly;
                    let (mut next_x, mut next_y) = (x + 1, y + 1);
                    let mut out = at + 1;
                    let mut letters = lx | ly;
                    while letters != 0 {
                        let bit = letters & letters.wrapping_neg();
                        letters ^= bit;
                        let take = |mask: u32, next: &mut usize| {
                            if mask & bit == 0 {
                                return None;
                            }
                            *next += 2;
                            Some((self.arena[*next - 2], self.arena[*next - 1]))
                        };
                        let entry = match (take(lx, &mut next_x), take(ly, &mut next_y)) {
                            (Some(cx), Some(cy)) => {
                                levels.next.push(Pair {
                                    a: cx,
                                    b: cy,
                                    slot: out as u32,
                                });
                                (0, LEAF)
                            }
                            (Some(only), None) | (None, Some(only)) => only,
                            (None, None) => unreachable!("a letter of the union is on a side"),
                        };
                        self.arena[out] = entry.0;
                        self.arena[out + 1] = entry.1;
                        out += 2;
                    }
                    at = out;
                }
            }
        }
        debug_assert_eq!(at, offset + length);
        self.nodes += 1 + count as usize;
        levels.made.push(Made {
            record: offset as u32,
            slot,
        });
        None
    }

    /// The bound of the sum node at `record`, from its points and its
    /// choice nodes' children's bounds (all filled).
    fn record_bound(&self, record: usize) -> u32 {
        let mut bound = self.arena[record] >> COUNT_BITS;
        for choice in self.choices(record as u32) {
            let end = choice + 1 + 2 * (self.arena[choice] & LETTER_BITS).count_ones() as usize;
            bound += (choice + 1..end)
                .step_by(2)
                .map(|i| self.arena[i])
                .max()
                .unwrap_or(0);
        }
        bound
    }
}
