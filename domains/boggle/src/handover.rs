//! Subclasses handed over at a split depth (to the GPU prover) instead of
//! being walked where they were found, forced trees included.
//!
//! Forcing (`OrderlyTree::force`) appends a forced tree's new nodes to the
//! class's arena, and `unforce` cuts them off again: in a CPU proof the
//! arena is a stack. Subclasses handed over in a forced tree still need
//! its nodes after the walk has moved on, so while a class is split its
//! forces keep their nodes whenever a subclass was handed over below them
//! (`OrderlyTree::unforce_keeping_nodes`), and the class's arena goes to
//! the GPU whole, holding every forced tree at once, each under its own
//! root, the nodes they share (the class's tree, a force near the root)
//! once. Nothing is copied or relocated on the host. (Relocating each
//! force's nodes into a separate arena, tried first, doubled the host's
//! time on 4x4 classes: docs/RESULTS.md.) Forces with nothing handed over
//! below them are cut off as in a CPU proof.

// Without the GPU prover only the tests take handovers.
#![cfg_attr(not(feature = "gpu"), allow(dead_code))]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::orderly::OrderlyTree;

/// Arena words past which a class hands over what it has gathered and
/// starts afresh (a copy of the arena goes), so that offsets stay far
/// inside `u32` however many forced trees a class keeps.
pub(crate) const FLUSH_WORDS: usize = 1 << 31;

/// Subclasses handed over at a split depth: one class's arena and the
/// subclasses with `depth` positions chosen whose look-ahead bound is still
/// at or above the target (the last position is chosen, not yet fixed:
/// `Below::walk`),
/// grouped by the tree (in that arena) they are bounded in.
pub(crate) struct Handover {
    /// The class's orderly tree, with the nodes of its forced trees kept
    /// in its arena.
    pub(crate) tree: OrderlyTree,
    /// Letter set of each split-order position.
    pub(crate) masks: Vec<u32>,
    /// The class's split order (cells).
    pub(crate) order: Vec<usize>,
    /// The subclasses, by tree.
    pub(crate) groups: Vec<HandedGroup>,
    /// Host bytes a GPU proof counts against its budget while the class
    /// is handed over (`gpu_prove/host_budget.rs`; 0 until counted).
    pub(crate) budget_bytes: u64,
    /// Positions chosen per subclass: the split's depth, or one more for a
    /// class split deeper ([`Split::deeper`]).
    pub(crate) depth: usize,
    /// The class's index in the list of all top-level classes (the name
    /// results files know it by).
    pub(crate) class: u64,
}

/// Subclasses of one tree of a [`Handover`]: the class's own, or the tree
/// of the forced subclass they lie below.
pub(crate) struct HandedGroup {
    /// The tree's root sum node in the handover's arena.
    pub(crate) root: u32,
    /// The root's bound.
    pub(crate) bound: u32,
    /// The letters fixed, `depth` per subclass, back to back (forced
    /// positions included: their choice nodes are merged away, so fixing
    /// them changes nothing).
    pub(crate) items: Vec<u8>,
}

impl Handover {
    /// Subclasses handed over, over all groups.
    pub(crate) fn item_count(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.items.len() / self.depth.max(1))
            .sum()
    }
}

/// Where subclasses are handed over: at `depth` positions fixed (or one
/// more, see [`Split::deeper`]), to `sink` (called from every worker
/// thread).
pub(crate) struct Split<'a> {
    pub(crate) depth: usize,
    /// While set, a class that starts is split one position deeper (the
    /// GPU's prover sets it while the last class handed over waited for
    /// the GPU: for its queue or for the host budget): the host thread
    /// then walks one more position, whose look-ahead and fixes discard
    /// subclasses the GPU would otherwise walk. None: always at `depth`.
    pub(crate) deeper: Option<&'a AtomicBool>,
    pub(crate) sink: &'a (dyn Fn(Handover) + Sync),
    /// Arenas the sink is done with, for the next classes' trees.
    pub(crate) pool: &'a ArenaPool,
    /// Arena words past which a class hands over early: [`FLUSH_WORDS`]
    /// (tests lower it to reach that path on small classes).
    pub(crate) flush_words: usize,
    /// Where a class's tree comes from, if not from the host thread
    /// itself: given the builder (its split order), the class's letter
    /// sets, the tree to fill and a buffer for keys, it returns the tree's
    /// bound if it built it (else the thread builds it as usual).
    pub(crate) trees: Option<&'a TreeSource<'a>>,
    /// Who merges a forced cell, if not the host thread itself: given the
    /// class's tree, a position and a letter, the forced tree as
    /// [`crate::orderly::OrderlyTree::force`] makes it, word for word, or
    /// None (the thread then forces it itself).
    pub(crate) forces: Option<&'a Forcer<'a>>,
    /// Where a proof with a results file counts its classes' handovers, so
    /// that a class is written once the sink's side of it is done too.
    pub(crate) ledger: Option<&'a crate::ledger::Ledger<'a>>,
}

impl Split<'_> {
    /// The depth at which a class that starts now hands its subclasses
    /// over, on a board of `cells`: one below `depth` while
    /// [`Split::deeper`] is set, never past the last cell but one.
    pub(crate) fn class_depth(&self, cells: usize) -> usize {
        let deeper = self.deeper.is_some_and(|d| d.load(Ordering::Relaxed));
        if deeper && self.depth + 1 < cells {
            self.depth + 1
        } else {
            self.depth
        }
    }
}

/// See [`Split::forces`].
pub(crate) type Forcer<'a> = dyn Fn(&mut crate::orderly::OrderlyTree, u32, u8) -> Option<(u32, crate::orderly::Unforce)>
    + Sync
    + 'a;

/// See [`Split::trees`].
pub(crate) type TreeSource<'a> = dyn Fn(
        &crate::orderly::OrderlyBuilder,
        &[u32],
        &mut crate::orderly::OrderlyTree,
        &mut Vec<u128>,
    ) -> Option<u32>
    + Sync
    + 'a;

/// Arenas handed back once the GPU is done with them, for the next
/// classes' trees. A class that keeps its forced trees grows its arena to
/// gigabytes, and fresh memory costs a page fault every 4 KiB; memory the
/// process holds already does not.
pub(crate) struct ArenaPool {
    arenas: std::sync::Mutex<Vec<Vec<u32>>>,
    /// Words of arenas the pool may hold at once.
    cap_words: usize,
    /// Classes that took a pooled arena, and that found none.
    taken: AtomicU64,
    missed: AtomicU64,
    /// Arenas given back past the cap (freed), and their words.
    dropped: AtomicU64,
    dropped_words: AtomicU64,
}

/// The least a pool holds (16 GiB).
const POOL_WORDS: usize = 1 << 32;

impl Default for ArenaPool {
    fn default() -> ArenaPool {
        ArenaPool::with_cap(POOL_WORDS)
    }
}

impl ArenaPool {
    /// A pool of at most `cap_words` words of arenas.
    pub(crate) fn with_cap(cap_words: usize) -> ArenaPool {
        ArenaPool {
            arenas: std::sync::Mutex::new(Vec::new()),
            cap_words,
            taken: AtomicU64::new(0),
            missed: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            dropped_words: AtomicU64::new(0),
        }
    }

    /// A pool sized for this host: a quarter of the memory available now,
    /// and at least [`POOL_WORDS`]. With 64 host threads the GPU's queue
    /// alone holds 128 classes' trees, a third of a gigabyte each on
    /// average (1,024 4x4 classes handed over 346 GB, docs/RESULTS.md):
    /// more than 16 GiB, and each arena freed is faulted in afresh.
    pub(crate) fn for_host() -> ArenaPool {
        let quarter_in_words = available_bytes().map_or(0, |bytes| bytes / 4 / 4);
        ArenaPool::with_cap(
            usize::try_from(quarter_in_words)
                .unwrap_or(usize::MAX)
                .max(POOL_WORDS),
        )
    }

    /// Keeps `arena`'s memory for a later class, if the pool has room.
    pub(crate) fn give(&self, mut arena: Vec<u32>) {
        // A poisoned lock only means another thread panicked, and the
        // proof fails anyway; the arena is dropped then.
        if let Ok(mut pool) = self.arenas.lock() {
            let held: usize = pool.iter().map(Vec::capacity).sum();
            if held + arena.capacity() <= self.cap_words {
                arena.clear();
                pool.push(arena);
                return;
            }
        }
        self.dropped.fetch_add(1, Ordering::Relaxed);
        self.dropped_words
            .fetch_add(arena.capacity() as u64, Ordering::Relaxed);
    }

    /// The largest arena waiting, if any.
    pub(crate) fn take(&self) -> Option<Vec<u32>> {
        let taken = self.arenas.lock().ok().and_then(|mut pool| {
            let largest = (0..pool.len()).max_by_key(|&i| pool[i].capacity())?;
            Some(pool.swap_remove(largest))
        });
        let counter = if taken.is_some() {
            &self.taken
        } else {
            &self.missed
        };
        counter.fetch_add(1, Ordering::Relaxed);
        taken
    }

    /// What the pool did, for the log: classes that took an arena, that
    /// found none, and arenas freed past the cap.
    pub(crate) fn summary(&self) -> String {
        format!(
            "arena pool: {} classes took a pooled arena, {} found none; {} arenas ({:.1} GB) freed past the cap of {:.0} GB",
            self.taken.load(Ordering::Relaxed),
            self.missed.load(Ordering::Relaxed),
            self.dropped.load(Ordering::Relaxed),
            self.dropped_words.load(Ordering::Relaxed) as f64 * 4e-9,
            self.cap_words as f64 * 4e-9
        )
    }
}

/// The memory the kernel says is available (Linux's `MemAvailable`), in
/// bytes; None elsewhere.
pub(crate) fn available_bytes() -> Option<u64> {
    proc_bytes("/proc/meminfo", "MemAvailable:")
}

/// A line `key  N kB` of a Linux `/proc` file, in bytes; None elsewhere or
/// where the line is missing.
pub(crate) fn proc_bytes(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|line| line.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The groups of one class gathered while its proof walks (see the module
/// docs).
pub(crate) struct Shipment {
    groups: Vec<HandedGroup>,
    /// Groups recorded so far, and at the last flush.
    recorded: u64,
    flushed: u64,
    /// See [`Split::flush_words`].
    flush_words: usize,
    /// See [`Handover::depth`].
    depth: usize,
    /// See [`Handover::class`].
    class: u64,
}

impl Shipment {
    /// A shipment of subclasses of `depth` positions of class `class`
    /// that hands over early past `flush_words` of arena.
    pub(crate) fn new(flush_words: usize, depth: usize, class: u64) -> Shipment {
        Shipment {
            groups: Vec::new(),
            recorded: 0,
            flushed: 0,
            flush_words,
            depth,
            class,
        }
    }

    /// Whether no group waits to be handed over.
    pub(crate) fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// A mark to take before a force: see [`Shipment::keeps_since`].
    pub(crate) fn mark(&self) -> u64 {
        self.recorded
    }

    /// Whether a group still to be handed over was recorded since `mark`:
    /// the nodes of a force made after `mark` must then stay.
    pub(crate) fn keeps_since(&self, mark: u64) -> bool {
        self.recorded > mark.max(self.flushed)
    }

    /// Records `items`, bounded in `tree` (the class's tree as forced on
    /// the way down) under its current root. Past `flush_words` of arena,
    /// returns the groups so far with a copy of the arena, to be handed
    /// over now.
    pub(crate) fn hand_over(
        &mut self,
        tree: &OrderlyTree,
        items: Vec<u8>,
        masks: &[u32],
        order: &[usize],
    ) -> Option<Handover> {
        self.groups.push(HandedGroup {
            root: tree.root() as u32,
            bound: tree.bound(),
            items,
        });
        self.recorded += 1;
        if tree.arena().len() < self.flush_words {
            return None;
        }
        self.flushed = self.recorded;
        Some(Handover {
            tree: tree.clone_arena(),
            masks: masks.to_vec(),
            order: order.to_vec(),
            groups: std::mem::take(&mut self.groups),
            budget_bytes: 0,
            depth: self.depth,
            class: self.class,
        })
    }

    /// The handover of the class, once its walk is done and `tree` is its
    /// unforced tree again (with the nodes kept); `None` if nothing is left
    /// to hand over.
    pub(crate) fn finish(
        self,
        tree: OrderlyTree,
        masks: &[u32],
        order: &[usize],
    ) -> Option<Handover> {
        (!self.groups.is_empty()).then(|| Handover {
            tree,
            masks: masks.to_vec(),
            order: order.to_vec(),
            groups: self.groups,
            budget_bytes: 0,
            depth: self.depth,
            class: self.class,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ArenaPool;

    #[test]
    fn the_pool_gives_the_largest_arena_and_frees_past_its_cap() {
        let pool = ArenaPool::with_cap(100);
        assert!(pool.take().is_none());
        pool.give(Vec::with_capacity(40));
        pool.give(Vec::with_capacity(50));
        // 40 + 50 + 30 > 100: this one is freed.
        pool.give(Vec::with_capacity(30));
        let largest = pool.take().expect("an arena");
        assert!(largest.capacity() >= 50 && largest.is_empty());
        assert!(pool.take().is_some_and(|arena| arena.capacity() >= 40));
        assert!(pool.take().is_none());
        let summary = pool.summary();
        assert!(
            summary
                .starts_with("arena pool: 2 classes took a pooled arena, 2 found none; 1 arenas"),
            "{summary}"
        );
    }

    #[test]
    fn a_pool_for_this_host_holds_at_least_sixteen_gibibytes() {
        assert!(ArenaPool::for_host().cap_words >= 1 << 32);
    }

    #[test]
    fn proc_lines_are_read_in_bytes() {
        let missing = super::proc_bytes("/proc/meminfo", "NoSuchKey:");
        assert_eq!(missing, None);
        assert_eq!(super::proc_bytes("/no/such/file", "MemTotal:"), None);
        // Linux hosts only: elsewhere there is no /proc to read.
        if std::path::Path::new("/proc/meminfo").exists() {
            let total = super::proc_bytes("/proc/meminfo", "MemTotal:").expect("MemTotal");
            let available = super::available_bytes().expect("MemAvailable");
            assert!(total.is_multiple_of(1024) && total >= available && available > 0);
        }
    }
}
