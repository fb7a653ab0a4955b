//! A test of the premise of reading back only part of a GPU merge: the
//! host thread's walk to a split of `depth` positions reads only the
//! records of sum nodes reached through choice nodes of positions below
//! `depth` (positions rise along every path, and the walk fixes them in
//! order). [`OrderlyTree::force_holey`] forces as the GPU's merges do,
//! over a second copy of the arena (the device's), but copies into the
//! host's tree only those records; every other appended word is
//! [`HOLE`]. A proof whose host part reads a hole goes wrong, so a split
//! proof forced so, whose handed-over trees are then completed from the
//! copy (as the GPU walks its own), must equal the plain one
//! (`prove.rs`'s `split_and_walked_apart`).

use super::{OrderlyTree, Unforce, COUNT_BITS, LEAF, LETTER_BITS, POSITION_SHIFT};

/// What the host's tree holds where a record was not copied: as an offset
/// past any arena, as a record's header a huge score with many choice
/// nodes, as a bound a huge one, so a read of it shows.
pub(crate) const HOLE: u32 = u32::MAX - 7;

impl OrderlyTree {
    /// [`OrderlyTree::force`] as the GPU merges: over `device` (equal to
    /// this tree's arena where it is not a hole, up to the shorter of the
    /// two), which takes the whole merge, while this tree takes only the
    /// records a walk to `depth` positions reaches.
    pub(crate) fn force_holey(
        &mut self,
        device: &mut Vec<u32>,
        depth: u32,
        position: u32,
        letter: u8,
    ) -> (u32, Unforce) {
        let start = self.arena.len();
        // The device's words past the host's (a force undone) are written
        // over, as the GPU's next merge writes over them.
        device.truncate(start);
        let Ok::<_, std::convert::Infallible>(forced) =
            self.try_force_with(position, letter, |tree, a, b, skip| {
                let mut full = tree.with_arena(std::mem::take(device));
                let merged = full.merge_levels(a, b, skip);
                tree.arena.resize(full.arena.len(), HOLE);
                tree.nodes = full.nodes;
                if merged.1 != LEAF {
                    copy_reached(
                        &full.arena,
                        &mut tree.arena,
                        merged.1 as usize,
                        start,
                        depth,
                    );
                }
                *device = full.arena;
                Ok(merged)
            });
        // A root without choice nodes gets its record on the host: the
        // device's copy takes it too.
        device.extend_from_slice(&self.arena[device.len()..]);
        forced
    }

    /// The device's copy, where it holds this tree: this tree's arena with
    /// its holes filled from `device`, as the GPU walks it.
    pub(crate) fn filled_from(&mut self, device: &[u32]) {
        let len = self.arena.len().min(device.len());
        self.arena[..len].copy_from_slice(&device[..len]);
    }

    /// Whether `device` looks like this tree's arena: equal wherever the
    /// tree holds no hole over their first words (a class's tree begins
    /// with its own records, so a new class's tree differs there; a false
    /// match could only make the test fail, never pass).
    pub(crate) fn matches_device(&self, device: &[u32]) -> bool {
        const COMPARED: usize = 4096;
        self.arena
            .iter()
            .zip(device)
            .take(COMPARED)
            .all(|(&host, &dev)| host == HOLE || host == dev)
    }
}

/// Copies into `host` the records at or past `start` in `full` that a walk
/// from sum node `root` reaches through choice nodes of positions below
/// `depth`.
fn copy_reached(full: &[u32], host: &mut [u32], root: usize, start: usize, depth: u32) {
    let mut stack = vec![root];
    while let Some(sum) = stack.pop() {
        let count = full[sum] & ((1 << COUNT_BITS) - 1);
        let mut at = sum + 1;
        for _ in 0..count {
            let header = full[at];
            let letters = (header & LETTER_BITS).count_ones() as usize;
            if header >> POSITION_SHIFT < depth {
                for c in 0..letters {
                    let offset = full[at + 2 + 2 * c];
                    // Records before `start` are the host's already.
                    if offset != LEAF && offset as usize >= start {
                        stack.push(offset as usize);
                    }
                }
            }
            at += 1 + 2 * letters;
        }
        if sum >= start {
            host[sum..at].copy_from_slice(&full[sum..at]);
        }
    }
}
