//! The subclasses of a launch that found its board buffer full, walked
//! again on the GPU until each is done.
//!
//! Some 4x4 classes send back tens of millions of boards whose orderly
//! bound reaches the target (their real scores do not): one launch of a
//! 4,096-class sample filled its buffer of 2^23 boards nine times over,
//! and the 137 subclasses left were walked on the adding-up thread, one
//! core, for over five minutes while the GPU and every host thread waited
//! (docs/RESULTS.md, "A class of many boards"). Here the subclasses left
//! are walked again with an empty buffer as long as each round finishes
//! some of them; when a round finishes none, they compete for the buffer
//! with more boards each than it holds, and each is split into its
//! children one position deeper (a relaunch at that depth), which send
//! fewer boards each. They are split too when fewer are left than the
//! kernel runs warps at once: a warp walks one subclass, so the last few
//! would otherwise keep most of the GPU idle (on a class of seed 3's
//! 4,096-class sample, 31 M boards, the rounds of 46, 23 and 1 subclasses
//! took 17 of the relaunches' 34 s). Only a subclass that overflows with
//! one position left, or whose walk overflows a stack, goes to the CPU.
//!
//! The counts stay those of one walk of the subclass: a child counts the
//! subclasses below it, and the parent's walk would have counted the
//! children themselves, one each, which the split adds. A child whose own
//! bound is below the target counts nothing below it (the kernel checks
//! that bound before walking; the parent's walk would have cut it there).

use super::{ReadBack, BOARD_WORDS, ITEM_BOARDS_FULL, ITEM_DONE, ITEM_WORDS};

/// A subclass walked again: the first launch's subclass it belongs to
/// (itself or one of its descendants) and its item record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Again {
    of: u32,
    record: [u32; ITEM_WORDS],
}

/// The subclasses still to walk again, all with `depth` positions fixed.
pub(super) struct Relaunch {
    depth: usize,
    /// Warps the kernel runs at once: fewer subclasses left than this are
    /// split so that the next round has more to share among them.
    warps: usize,
    work: Vec<Again>,
    /// Per first-launch subclass: its records not yet finished.
    outstanding: Vec<u32>,
}

impl Relaunch {
    /// Takes from `first` (a launch's first kernel over the records
    /// `items`, `depth` positions fixed) the subclasses that found the
    /// buffer full: their boards so far are dropped and their counts
    /// start from zero. `warps`: how many the kernel runs at once.
    pub(super) fn new(first: &mut ReadBack, items: &[u32], depth: usize, warps: usize) -> Relaunch {
        let mut outstanding = vec![0; first.status.len()];
        let mut work = Vec::new();
        for (item, record) in items.chunks_exact(ITEM_WORDS).enumerate() {
            if first.status.get(item) != Some(&ITEM_BOARDS_FULL) {
                continue;
            }
            let mut words = [0; ITEM_WORDS];
            words.copy_from_slice(record);
            work.push(Again {
                of: item as u32,
                record: words,
            });
            outstanding[item] = 1;
            first.subclasses[item] = 0;
        }
        if !work.is_empty() {
            keep_boards_of_finished(first);
        }
        Relaunch {
            depth,
            warps,
            work,
            outstanding,
        }
    }

    /// Whether nothing is left to walk again.
    pub(super) fn is_empty(&self) -> bool {
        self.work.is_empty()
    }

    /// Subclasses to walk again in the next round.
    pub(super) fn len(&self) -> usize {
        self.work.len()
    }

    /// Positions the next round's subclasses have fixed.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// The trees (the kernel's class numbers) of the next round's
    /// subclasses.
    pub(super) fn trees(&self) -> impl Iterator<Item = u32> + '_ {
        self.work.iter().map(|again| again.record[0])
    }

    /// The next round's item records, back to back.
    pub(super) fn records(&self) -> Vec<u32> {
        self.work.iter().flat_map(|again| again.record).collect()
    }

    /// Folds into `first` a round's kernel over [`Relaunch::records`], and
    /// prepares the next round: the subclasses that found the buffer full
    /// again, split one position deeper (`masks`: per tree, each position's
    /// letters, `cells` positions) if the round finished none of them or
    /// fewer are left than the kernel's warps, else at the same depth; a
    /// split needs a position left below them. What cannot go on stays
    /// [`ITEM_BOARDS_FULL`] in `first`, for the CPU.
    pub(super) fn fold(
        &mut self,
        first: &mut ReadBack,
        again: ReadBack,
        masks: &[u32],
        cells: usize,
    ) {
        for record in again.boards.chunks_exact(BOARD_WORDS) {
            let Some(walked) = self.work.get(record[0] as usize) else {
                continue;
            };
            if again.status.get(record[0] as usize) == Some(&ITEM_DONE) {
                first.boards.push(walked.of);
                first.boards.extend_from_slice(&record[1..]);
            }
        }
        let mut full = Vec::new();
        let mut finished_some = false;
        for (walked, (&status, &subclasses)) in self
            .work
            .iter()
            .zip(again.status.iter().zip(&again.subclasses))
        {
            let of = walked.of as usize;
            match status {
                ITEM_DONE => {
                    finished_some = true;
                    first.subclasses[of] += subclasses;
                    self.outstanding[of] -= 1;
                    if self.outstanding[of] == 0 && first.status[of] == ITEM_BOARDS_FULL {
                        first.status[of] = ITEM_DONE;
                    }
                }
                ITEM_BOARDS_FULL => full.push(*walked),
                // A stack full (or a status never written): the CPU walks
                // the whole first-launch subclass.
                _ => first.status[of] = status,
            }
        }
        // Descendants of a subclass gone to the CPU are not walked again.
        full.retain(|walked| first.status[walked.of as usize] == ITEM_BOARDS_FULL);
        let split = !finished_some || full.len() < self.warps;
        self.work = if full.is_empty() || !split {
            full
        } else if self.depth + 1 < cells {
            let position = self.depth;
            self.depth += 1;
            let mut children = Vec::new();
            for walked in full {
                let tree = walked.record[0] as usize;
                let mut letters = masks.get(tree * cells + position).copied().unwrap_or(0);
                let of = walked.of as usize;
                // The parent's walk counts each letter it tries here.
                first.subclasses[of] += u64::from(letters.count_ones());
                self.outstanding[of] = self.outstanding[of] - 1 + letters.count_ones();
                while letters != 0 {
                    let letter = letters.trailing_zeros();
                    letters &= letters - 1;
                    let mut child = walked;
                    let (word, shift) = (1 + position / 4, 8 * (position % 4));
                    child.record[word] = child.record[word] & !(0xFF << shift) | letter << shift;
                    children.push(child);
                }
                if self.outstanding[of] == 0 {
                    first.status[of] = ITEM_DONE;
                }
            }
            children
        } else if finished_some {
            // Too few to fill the GPU, but nothing to split them by.
            full
        } else {
            Vec::new()
        };
        // Boards of subclasses the CPU walks after all are its to find.
        if self.work.is_empty() {
            keep_boards_of_finished(first);
        }
    }
}

/// Drops the boards of the subclasses not finished (a subclass that found
/// the buffer full had sent some of its boards; it is walked again whole).
fn keep_boards_of_finished(read: &mut ReadBack) {
    let status = &read.status;
    let kept: Vec<u32> = read
        .boards
        .chunks_exact(BOARD_WORDS)
        .filter(|record| status.get(record[0] as usize) == Some(&ITEM_DONE))
        .flatten()
        .copied()
        .collect();
    read.boards = kept;
}

#[cfg(test)]
mod tests {
    use super::super::ITEM_STACK_FULL;
    use super::*;

    /// A board record of `item` with bound `bound` (letters all 0).
    fn board(item: u32, bound: u32) -> Vec<u32> {
        let mut record = vec![0; BOARD_WORDS];
        record[0] = item;
        record[1] = bound;
        record
    }

    /// An item record of tree `tree` with `letters` fixed.
    fn item(tree: u32, letters: &[u8]) -> Vec<u32> {
        let mut record = vec![0; ITEM_WORDS];
        record[0] = tree;
        for (i, &letter) in letters.iter().enumerate() {
            record[1 + i / 4] |= u32::from(letter) << (8 * (i % 4));
        }
        record
    }

    #[test]
    fn a_round_that_finishes_some_walks_the_rest_again_at_its_depth() {
        // Item 0 finished with one board; items 1 and 2 found the buffer
        // full, item 1 after sending one board.
        let mut first = ReadBack {
            subclasses: vec![10, 3, 0],
            status: vec![ITEM_DONE, ITEM_BOARDS_FULL, ITEM_BOARDS_FULL],
            boards: [board(0, 100), board(1, 101)].concat(),
        };
        let items = [item(0, &[1, 2]), item(0, &[1, 3]), item(1, &[4, 5])].concat();
        let mut relaunch = Relaunch::new(&mut first, &items, 2, 1);
        assert_eq!(relaunch.len(), 2);
        assert_eq!(relaunch.records(), items[ITEM_WORDS..].to_vec());
        // Item 1's partial board is gone, its count reset.
        assert_eq!(first.boards, board(0, 100));
        assert_eq!(first.subclasses, vec![10, 0, 0]);
        // The first walked again finishes with two boards, the second
        // finds the buffer full again.
        let again = ReadBack {
            subclasses: vec![20, 1],
            status: vec![ITEM_DONE, ITEM_BOARDS_FULL],
            boards: [board(0, 201), board(1, 202), board(0, 203)].concat(),
        };
        relaunch.fold(&mut first, again, &[], 4);
        assert_eq!(first.status, vec![ITEM_DONE, ITEM_DONE, ITEM_BOARDS_FULL]);
        assert_eq!(first.subclasses, vec![10, 20, 0]);
        // The round's boards carry the first launch's numbers; the
        // still-full one's (202) are not kept.
        assert_eq!(
            first.boards,
            [board(0, 100), board(1, 201), board(1, 203)].concat()
        );
        assert_eq!((relaunch.len(), relaunch.depth()), (1, 2));
        assert_eq!(relaunch.records(), item(1, &[4, 5]));
    }

    #[test]
    fn a_round_that_finishes_none_splits_one_position_deeper() {
        let mut first = ReadBack {
            subclasses: vec![7, 0],
            status: vec![ITEM_BOARDS_FULL, ITEM_DONE],
            boards: board(0, 300),
        };
        let items = [item(1, &[9]), item(0, &[2])].concat();
        // Tree 1: position 1 takes letters 3 and 6.
        let masks = [0, 0, 0, 0, 1 << 3 | 1 << 6, 0];
        let cells = 3;
        let mut relaunch = Relaunch::new(&mut first, &items, 1, 1);
        let again = ReadBack {
            subclasses: vec![5],
            status: vec![ITEM_BOARDS_FULL],
            boards: board(0, 400),
        };
        relaunch.fold(&mut first, again, &masks, cells);
        // Two children at depth 2, each counted as the parent's walk
        // would count it; the partial board dropped.
        assert_eq!(relaunch.depth(), 2);
        assert_eq!(
            relaunch.records(),
            [item(1, &[9, 3]), item(1, &[9, 6])].concat()
        );
        assert_eq!(first.subclasses, vec![2, 0]);
        assert!(first.boards.is_empty());
        assert_eq!(first.status[0], ITEM_BOARDS_FULL);
        // Both finish: the parent is done, with their counts and boards
        // under its number.
        let again = ReadBack {
            subclasses: vec![4, 0],
            status: vec![ITEM_DONE, ITEM_DONE],
            boards: [board(1, 500), board(0, 501)].concat(),
        };
        relaunch.fold(&mut first, again, &masks, cells);
        assert!(relaunch.is_empty());
        assert_eq!(first.status, vec![ITEM_DONE, ITEM_DONE]);
        assert_eq!(first.subclasses, vec![6, 0]);
        assert_eq!(first.boards, [board(0, 500), board(0, 501)].concat());
    }

    #[test]
    fn fewer_left_than_the_kernels_warps_are_split_even_when_some_finished() {
        let mut first = ReadBack {
            subclasses: vec![0, 0],
            status: vec![ITEM_BOARDS_FULL, ITEM_BOARDS_FULL],
            boards: Vec::new(),
        };
        let items = [item(0, &[1]), item(0, &[2])].concat();
        // Tree 0: position 1 takes letters 4 and 5; a kernel of 8 warps.
        let masks = [0, 1 << 4 | 1 << 5, 0];
        let mut relaunch = Relaunch::new(&mut first, &items, 1, 8);
        let again = ReadBack {
            subclasses: vec![6, 2],
            status: vec![ITEM_DONE, ITEM_BOARDS_FULL],
            boards: board(0, 800),
        };
        relaunch.fold(&mut first, again, &masks, 3);
        assert_eq!(first.status, vec![ITEM_DONE, ITEM_BOARDS_FULL]);
        assert_eq!((relaunch.len(), relaunch.depth()), (2, 2));
        assert_eq!(
            relaunch.records(),
            [item(0, &[2, 4]), item(0, &[2, 5])].concat()
        );
        // With one position left they cannot be split: walked again at
        // the same depth while rounds finish some.
        let again = ReadBack {
            subclasses: vec![1, 0],
            status: vec![ITEM_DONE, ITEM_BOARDS_FULL],
            boards: Vec::new(),
        };
        relaunch.fold(&mut first, again, &masks, 3);
        assert_eq!((relaunch.len(), relaunch.depth()), (1, 2));
        assert_eq!(relaunch.records(), item(0, &[2, 5]));
        assert_eq!(first.subclasses, vec![6, 3]);
    }

    #[test]
    fn what_cannot_go_deeper_or_overflows_a_stack_is_left_to_the_cpu() {
        // Item 0 at the last position but one: no split below it.
        let mut first = ReadBack {
            subclasses: vec![0, 0],
            status: vec![ITEM_BOARDS_FULL, ITEM_BOARDS_FULL],
            boards: Vec::new(),
        };
        let items = [item(0, &[1, 1]), item(0, &[1, 2])].concat();
        let mut relaunch = Relaunch::new(&mut first, &items, 2, 1);
        let again = ReadBack {
            subclasses: vec![3, 9],
            status: vec![ITEM_BOARDS_FULL, ITEM_STACK_FULL],
            boards: [board(0, 600), board(1, 601)].concat(),
        };
        relaunch.fold(&mut first, again, &[0; 3], 3);
        assert!(relaunch.is_empty());
        assert_eq!(first.status, vec![ITEM_BOARDS_FULL, ITEM_STACK_FULL]);
        assert!(first.boards.is_empty());
    }

    #[test]
    fn descendants_of_a_subclass_gone_to_the_cpu_are_dropped() {
        // One parent split into two children: one finishes with a board,
        // the other overflows a stack; the parent goes to the CPU, and the
        // finished sibling's board is dropped with it.
        let mut first = ReadBack {
            subclasses: vec![0],
            status: vec![ITEM_BOARDS_FULL],
            boards: Vec::new(),
        };
        let masks = [1 << 0 | 1 << 1, 1 << 0 | 1 << 1, 1 << 0 | 1 << 1, 1];
        let mut relaunch = Relaunch::new(&mut first, &item(0, &[0]), 1, 1);
        let none = ReadBack {
            subclasses: vec![0],
            status: vec![ITEM_BOARDS_FULL],
            boards: Vec::new(),
        };
        relaunch.fold(&mut first, none, &masks, 4);
        assert_eq!((relaunch.len(), relaunch.depth()), (2, 2));
        let again = ReadBack {
            subclasses: vec![1, 1],
            status: vec![ITEM_DONE, ITEM_STACK_FULL],
            boards: board(0, 700),
        };
        relaunch.fold(&mut first, again, &masks, 4);
        assert!(relaunch.is_empty());
        assert_eq!(first.status, vec![ITEM_STACK_FULL]);
        assert!(first.boards.is_empty());
    }
}
