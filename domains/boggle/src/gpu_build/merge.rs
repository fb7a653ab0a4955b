//! Forcing a cell with the merge on the GPU (`kernels/boggle_merge.cu`):
//! the arena the CPU's [`OrderlyTree::force`] would make, word for word,
//! read back into the host's tree.
//!
//! In a GPU proof of 4×4 classes the merges were half of the host threads'
//! time (docs/RESULTS.md, "Where the host threads' time goes"): about a
//! hundred a class, each of two trees of millions of nodes, and each
//! bound by the latency of reading nodes scattered over hundreds of
//! megabytes. A merge goes level by level, and a level's pairs of nodes are
//! independent: thousands to millions of them, a GPU thread each.
//!
//! The device keeps its own copy of the class's arena (a [`KeptArena`]: the
//! one the GPU filled, or [`GpuMerger::load`]'s): its first words always
//! equal the host's, up to the shorter of the two, since the host's tree
//! only grows by what a merge appends (copied back after it) and shrinks
//! when a force is undone (the device's words past the host's length are
//! then written over by the next merge).

use std::sync::Arc;

use frontier_core::gpu::cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, PushKernelArg,
};
use frontier_core::gpu::gpu_error;

use super::fill::{one_per, FILL_THREADS};
use super::scan::scan_rows;
use super::staging::PinnedStage;
use super::KeptArena;
use crate::orderly::{OrderlyTree, Unforce};
use crate::BoggleError;

/// Words a pair of nodes to merge takes (`PAIR_WORDS`).
const PAIR_WORDS: usize = 5;
/// A pair whose result is the merged tree's root (`MERGE_ROOT`).
const MERGE_ROOT: u32 = u32::MAX;
/// No position left out (`NO_SKIP`): every level but the root's.
const NO_SKIP: u32 = u32::MAX;
/// Pairs a tile of a level takes (`MERGE_TILE`: a block's threads, a pair
/// each, as [`one_per`] launches them).
const MERGE_TILE: usize = FILL_THREADS as usize;

/// One host thread's merges on the GPU: its stream and the merges' buffers
/// (grown as needed, kept between merges and classes).
pub(crate) struct GpuMerger {
    stream: Arc<CudaStream>,
    size: CudaFunction,
    write: CudaFunction,
    bounds: CudaFunction,
    /// `fill_level_scan`, which scans a level's tile sums.
    tiles_scan: CudaFunction,
    /// Every level's pairs, one level after another.
    pairs: CudaSlice<u32>,
    /// Per pair: its record's length; its count of pairs for the next
    /// level; its record's offset.
    length: CudaSlice<u32>,
    kids: CudaSlice<u32>,
    made: CudaSlice<u32>,
    /// Per tile of a level's pairs (`merge_size`): the sums of its lengths,
    /// then of its counts, scanned.
    tile_sums: CudaSlice<u32>,
    /// The level's totals: its records' words and its next level's pairs.
    totals: CudaSlice<u32>,
    /// The root's bound and offset.
    root_out: CudaSlice<u32>,
    nodes: CudaSlice<u64>,
    /// The merged words come back through it. Against reading them into
    /// pageable memory, seed 1's 256 4x4 classes projected 21.3-21.8
    /// H200-hours against 22.0-23.2 on one machine: the read-backs were no
    /// faster, the host threads' other phases were (docs/RESULTS.md, "The
    /// merges' time on the GPU").
    stage: PinnedStage,
    stats: MergeStats,
}

/// What a thread's merges on the GPU took (its wall time, in seconds),
/// to see where a merge waits in a proof.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MergeStats {
    /// Merges made, their levels, pairs of nodes and words appended.
    pub(crate) merges: u64,
    pub(crate) levels: u64,
    pub(crate) pairs: u64,
    pub(crate) words: u64,
    /// All of it, reading back included.
    pub(crate) seconds: f64,
    /// The levels, each ended by reading its two totals back.
    pub(crate) level_seconds: f64,
    /// Of the levels': waiting for their totals.
    pub(crate) totals_seconds: f64,
    /// The bounds, until the root's is read back.
    pub(crate) bounds_seconds: f64,
    /// The merged words read back, growing the host's arena included.
    pub(crate) read_seconds: f64,
    /// Of the read-back's: growing the host's arena to take the words
    /// (first touches of fresh memory fault its pages in).
    pub(crate) grow_seconds: f64,
    /// Of the read-back's: waiting for the device's copies, queueing them,
    /// and the thread's copies out of the page-locked buffers.
    pub(crate) copy_wait_seconds: f64,
    pub(crate) copy_queue_seconds: f64,
    pub(crate) copy_seconds: f64,
}

impl MergeStats {
    /// `other`'s added to these.
    pub(crate) fn add(&mut self, other: &MergeStats) {
        self.merges += other.merges;
        self.levels += other.levels;
        self.pairs += other.pairs;
        self.words += other.words;
        self.seconds += other.seconds;
        self.level_seconds += other.level_seconds;
        self.totals_seconds += other.totals_seconds;
        self.bounds_seconds += other.bounds_seconds;
        self.read_seconds += other.read_seconds;
        self.grow_seconds += other.grow_seconds;
        self.copy_wait_seconds += other.copy_wait_seconds;
        self.copy_queue_seconds += other.copy_queue_seconds;
        self.copy_seconds += other.copy_seconds;
    }
}

/// `buffer` with room for `len` elements; when it grows, its first `keep`
/// are copied over (on `stream`, before anything later on it).
fn grow(
    stream: &Arc<CudaStream>,
    buffer: &mut CudaSlice<u32>,
    len: usize,
    keep: usize,
) -> Result<(), BoggleError> {
    if buffer.len() >= len {
        return Ok(());
    }
    let mut bigger = stream
        .alloc_zeros::<u32>(len + len / 2)
        .map_err(gpu_error)?;
    if keep > 0 {
        stream
            .memcpy_dtod(&buffer.slice(0..keep), &mut bigger.slice_mut(0..keep))
            .map_err(gpu_error)?;
    }
    *buffer = bigger;
    Ok(())
}

/// A word count or offset as the kernels take it (arenas stay below 2^32
/// words: offsets are `u32`, [`crate::orderly`]).
fn word(value: usize) -> Result<u32, BoggleError> {
    u32::try_from(value)
        .ok()
        .filter(|&v| v < u32::MAX / 2)
        .ok_or_else(|| BoggleError::TooLargeForGpu(format!("{value} words are too many to merge")))
}

impl GpuMerger {
    /// A merger with the kernels of `module` (the path sorter's, which
    /// holds `boggle_merge.cu`) on `stream`.
    pub(super) fn new(
        module: &Arc<CudaModule>,
        stream: Arc<CudaStream>,
    ) -> Result<GpuMerger, BoggleError> {
        let function = |name: &str| module.load_function(name).map_err(gpu_error);
        let empty = || stream.alloc_zeros::<u32>(1).map_err(gpu_error);
        Ok(GpuMerger {
            size: function("merge_size")?,
            write: function("merge_write")?,
            bounds: function("merge_bounds")?,
            tiles_scan: function("fill_level_scan")?,
            tile_sums: empty()?,
            pairs: stream.alloc_zeros::<u32>(PAIR_WORDS).map_err(gpu_error)?,
            length: empty()?,
            kids: empty()?,
            made: empty()?,
            totals: stream.alloc_zeros::<u32>(2).map_err(gpu_error)?,
            root_out: stream.alloc_zeros::<u32>(2).map_err(gpu_error)?,
            nodes: stream.alloc_zeros::<u64>(1).map_err(gpu_error)?,
            stage: PinnedStage::new(stream.context()).map_err(gpu_error)?,
            stats: MergeStats::default(),
            stream,
        })
    }

    /// `tree`'s arena copied to the device, for [`GpuMerger::force`].
    #[cfg(test)]
    pub(crate) fn load(&mut self, tree: &OrderlyTree) -> Result<KeptArena, BoggleError> {
        let arena = tree.arena();
        let mut words = self
            .stream
            .alloc_zeros::<u32>(arena.len().max(1))
            .map_err(gpu_error)?;
        self.stream
            .memcpy_htod(arena, &mut words.slice_mut(0..arena.len()))
            .map_err(gpu_error)?;
        Ok(KeptArena {
            words,
            len: arena.len(),
        })
    }

    /// [`OrderlyTree::force`] with the merge on the GPU, over `device`, the
    /// device's copy of `tree`'s arena: the same tree, word for word, and
    /// the merged words appended to `device` too.
    pub(crate) fn force(
        &mut self,
        tree: &mut OrderlyTree,
        device: &mut KeptArena,
        position: u32,
        letter: u8,
    ) -> Result<(u32, Unforce), BoggleError> {
        let started = std::time::Instant::now();
        let forced = tree.try_force_with(position, letter, |tree, a, b, skip| {
            self.merge(tree, device, a, b, skip)
        })?;
        // A root without choice nodes gets its record on the host: the
        // device's copy takes it too.
        let arena = tree.arena();
        if arena.len() > device.len {
            let from = device.len;
            grow(&self.stream, &mut device.words, arena.len(), from)?;
            self.stream
                .memcpy_htod(
                    &arena[from..],
                    &mut device.words.slice_mut(from..arena.len()),
                )
                .map_err(gpu_error)?;
            self.stream.synchronize().map_err(gpu_error)?;
            device.len = arena.len();
        }
        self.stats.merges += 1;
        self.stats.seconds += started.elapsed().as_secs_f64();
        Ok(forced)
    }

    /// What the merges so far took.
    pub(crate) fn stats(&self) -> MergeStats {
        MergeStats {
            copy_wait_seconds: self.stage.wait_seconds,
            copy_queue_seconds: self.stage.queue_seconds,
            copy_seconds: self.stage.copy_seconds,
            ..self.stats
        }
    }

    /// `OrderlyTree::merge_levels` on the device, the words it appends read
    /// back into `tree`.
    fn merge(
        &mut self,
        tree: &mut OrderlyTree,
        device: &mut KeptArena,
        a: (u32, u32),
        b: (u32, u32),
        skip: u32,
    ) -> Result<(u32, u32), BoggleError> {
        let s = self.stream.clone();
        let started = std::time::Instant::now();
        // The host's tree may have shrunk (a force undone): the device's
        // words up to its length are still the same.
        let start = tree.arena().len();
        if start > device.len {
            return Err(BoggleError::Config(format!(
                "the GPU's merge was given a tree of {start} words, of which the device holds {}",
                device.len
            )));
        }
        let mut tail = start;
        s.memcpy_htod(
            &[a.0, a.1, b.0, b.1, MERGE_ROOT],
            &mut self.pairs.slice_mut(0..PAIR_WORDS),
        )
        .map_err(gpu_error)?;
        s.memset_zeros(&mut self.nodes).map_err(gpu_error)?;
        let (mut first, mut n, mut level_skip) = (0usize, 1usize, skip);
        let mut levels = Vec::new();
        loop {
            let end = first + n;
            grow(&s, &mut self.length, end, 0)?;
            grow(&s, &mut self.kids, end, 0)?;
            grow(&s, &mut self.made, end, first)?;
            let (first32, n32) = (word(first)?, word(n)?);
            // A tile a block, as `one_per` lays out the launches.
            let tiles = n.div_ceil(MERGE_TILE);
            grow(&s, &mut self.tile_sums, 2 * tiles, 0)?;
            let mut launch = s.launch_builder(&self.size);
            launch
                .arg(&mut device.words)
                .arg(&self.pairs)
                .arg(&first32)
                .arg(&n32)
                .arg(&level_skip)
                .arg(&mut self.length)
                .arg(&mut self.kids)
                .arg(&mut self.made)
                .arg(&mut self.root_out)
                .arg(&mut self.tile_sums)
                .arg(&mut self.totals);
            // SAFETY: arguments match `merge_size`, a block a tile of
            // `MERGE_TILE` pairs; pairs first..end are written (the root's
            // above, the rest by the last level's `merge_write`), the
            // per-pair buffers hold `end` words and `tile_sums` two a tile.
            unsafe { launch.launch(one_per(n32)) }.map_err(gpu_error)?;
            // A level of one tile has its totals from `merge_size`.
            if tiles > 1 {
                // Two rows of `tiles` sums: the lengths', the counts'.
                scan_rows(
                    &s,
                    &self.tiles_scan,
                    &mut self.tile_sums.slice_mut(..),
                    word(tiles)?,
                    2,
                    &mut self.totals.slice_mut(..),
                )?;
            }
            let waited = std::time::Instant::now();
            let totals = s.clone_dtoh(&self.totals).map_err(gpu_error)?;
            self.stats.totals_seconds += waited.elapsed().as_secs_f64();
            let (words, next) = (totals[0] as usize, totals[1] as usize);
            grow(&s, &mut device.words, tail + words, tail)?;
            grow(
                &s,
                &mut self.pairs,
                (end + next) * PAIR_WORDS,
                end * PAIR_WORDS,
            )?;
            let (tail32, end32) = (word(tail)?, word(end)?);
            let mut launch = s.launch_builder(&self.write);
            launch
                .arg(&mut device.words)
                .arg(&mut self.pairs)
                .arg(&first32)
                .arg(&n32)
                .arg(&level_skip)
                .arg(&self.length)
                .arg(&self.kids)
                .arg(&self.tile_sums)
                .arg(&tail32)
                .arg(&end32)
                .arg(&mut self.made)
                .arg(&mut self.root_out)
                .arg(&mut self.nodes);
            // SAFETY: arguments match `merge_write`; the records fit the
            // arena (`tail + words`) and the next level's pairs the pair
            // buffer (`end + next`), both grown above.
            unsafe { launch.launch(one_per(n32)) }.map_err(gpu_error)?;
            levels.push((first32, n32));
            tail += words;
            if next == 0 {
                break;
            }
            (first, n, level_skip) = (end, next, NO_SKIP);
        }
        let levels_done = std::time::Instant::now();
        for (first32, n32) in levels.iter().rev() {
            let mut launch = s.launch_builder(&self.bounds);
            launch
                .arg(&mut device.words)
                .arg(&self.pairs)
                .arg(first32)
                .arg(n32)
                .arg(&self.made)
                .arg(&mut self.root_out);
            // SAFETY: arguments match `merge_bounds`; every deeper level's
            // bounds are written (launches on one stream run in order).
            unsafe { launch.launch(one_per(*n32)) }.map_err(gpu_error)?;
        }
        let root = s.clone_dtoh(&self.root_out).map_err(gpu_error)?;
        let nodes = s.clone_dtoh(&self.nodes).map_err(gpu_error)?[0];
        self.stats.bounds_seconds += levels_done.elapsed().as_secs_f64();
        let grown = std::time::Instant::now();
        let arena = tree.arena_to_append(tail - start, nodes as usize);
        self.stats.grow_seconds += grown.elapsed().as_secs_f64();
        self.stage
            .download_appending(&s, &device.words.slice(start..tail), arena)
            .map_err(gpu_error)?;
        device.len = tail;
        self.stats.levels += levels.len() as u64;
        self.stats.pairs += levels.iter().map(|&(_, n)| u64::from(n)).sum::<u64>();
        self.stats.words += (tail - start) as u64;
        self.stats.level_seconds += (levels_done - started).as_secs_f64();
        self.stats.read_seconds += grown.elapsed().as_secs_f64();
        Ok((root[0], root[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::word;
    use crate::BoggleError;

    /// The uploader tells a class too large for the kernels' offsets from
    /// a failing GPU by this variant: the first keeps the GPU merging for
    /// the other classes, the second stops it.
    #[test]
    fn words_past_the_kernels_offsets_are_too_large_for_the_gpu() {
        let last = (u32::MAX / 2 - 1) as usize;
        assert_eq!(word(last).ok(), Some(u32::MAX / 2 - 1));
        for value in [last + 1, u32::MAX as usize, usize::MAX] {
            assert!(matches!(word(value), Err(BoggleError::TooLargeForGpu(_))));
        }
    }
}
