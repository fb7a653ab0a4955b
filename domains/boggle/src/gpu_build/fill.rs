//! The third step of a class's build on the GPU: the orderly tree's arena
//! filled from the sorted keys already on the device (the `fill_*` kernels
//! of `kernels/boggle_build.cu`; `fill_model.rs` is the same algorithm on
//! the CPU). The host then reads the arena back (about twice the keys'
//! bytes) instead of filling it at 70-110 ns a key on one core (a 4×4
//! class: 0.4 s on a dev core).

use frontier_core::gpu::cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchArgs, LaunchConfig, PushKernelArg,
};
use frontier_core::gpu::gpu_error;
use std::sync::Arc;

use super::scan::{scan_rows, TileScan};
use crate::BoggleError;

/// Threads a block of the fill's kernels (`FILL_THREADS`).
pub(super) const FILL_THREADS: u32 = 256;
/// Paths a block's tile (`FILL_TILE`).
pub(super) const FILL_TILE: u32 = 1024;

/// The fill's kernels and buffers (grown as classes need, kept between
/// them).
pub(super) struct GpuFill {
    /// Node levels of a tree: a sum and a choice level per cell, and the root.
    level_count: usize,
    paths: CudaFunction,
    tile_counts: CudaFunction,
    level_scan: CudaFunction,
    index: CudaFunction,
    ends: CudaFunction,
    bottom_up: CudaFunction,
    write: CudaFunction,
    /// The records' offsets scanned from their sizes.
    scan: TileScan,
    /// Per path.
    keep_top: CudaSlice<u32>,
    points: CudaSlice<u32>,
    closed: CudaSlice<u32>,
    /// Per level and path (a row of paths + 1 a level).
    count: CudaSlice<u32>,
    /// Per level and tile; per tile.
    tile_starts: CudaSlice<u32>,
    totals: CudaSlice<u32>,
    base: CudaSlice<u32>,
    /// Per node.
    starts: CudaSlice<u32>,
    ends_buffer: CudaSlice<u32>,
    bound: CudaSlice<u32>,
    size: CudaSlice<u32>,
    subtree: CudaSlice<u32>,
    header: CudaSlice<u32>,
    at: CudaSlice<u32>,
}

/// A tree filled on the device: its arena's length, its root's offset and
/// bound, and its node count.
#[derive(Clone, Copy, Debug)]
pub(super) struct Filled {
    pub(super) words: usize,
    pub(super) root: usize,
    pub(super) bound: u32,
    pub(super) nodes: usize,
}

/// A buffer of at least `len` words: `buffer` itself or, when it is too
/// small, a new one with a margin for the next classes.
pub(super) fn ensure(
    stream: &Arc<CudaStream>,
    buffer: &mut CudaSlice<u32>,
    len: usize,
) -> Result<(), BoggleError> {
    if buffer.len() < len {
        *buffer = stream
            .alloc_zeros::<u32>((len + len / 4).max(1))
            .map_err(gpu_error)?;
    }
    Ok(())
}

/// One level's place in the node arrays: the arguments every level kernel
/// starts with (`LEVEL_ARGS` in the kernel source, the paths and the
/// `count` and `starts` arrays after these).
struct Level {
    level: u32,
    nodes: u32,
    here: u32,
    up: u32,
    below: u32,
}

/// Every level's [`Level`], from the levels' node counts.
fn levels(totals: &[u32]) -> Vec<Level> {
    let mut base = Vec::with_capacity(totals.len());
    let mut nodes = 0u32;
    for &t in totals {
        base.push(nodes);
        nodes += t;
    }
    (0..totals.len())
        .map(|l| Level {
            level: l as u32,
            nodes: totals[l],
            here: base[l],
            up: if l > 0 { base[l - 1] } else { 0 },
            below: base.get(l + 1).copied().unwrap_or(0),
        })
        .collect()
}

/// A launch of the level kernel `function` with its first arguments
/// pushed (`LEVEL_ARGS`).
fn level_launch<'a>(
    stream: &'a Arc<CudaStream>,
    function: &'a CudaFunction,
    level: &'a Level,
    n: &'a u32,
    count: &'a CudaSlice<u32>,
    starts: &'a CudaSlice<u32>,
) -> LaunchArgs<'a> {
    let mut launch = stream.launch_builder(function);
    launch
        .arg(&level.level)
        .arg(&level.nodes)
        .arg(&level.here)
        .arg(&level.up)
        .arg(&level.below)
        .arg(n)
        .arg(count)
        .arg(starts);
    launch
}

/// A launch of one thread an item (the fill's and the merges' kernels).
pub(super) fn one_per(items: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (items.div_ceil(FILL_THREADS).max(1), 1, 1),
        block_dim: (FILL_THREADS, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A launch of one block a tile of `paths` (or of entries to scan).
pub(super) fn per_tile(paths: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (paths.div_ceil(FILL_TILE).max(1), 1, 1),
        block_dim: (FILL_THREADS, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl GpuFill {
    /// The kernels of `module` (the path sorter's) for `cells` positions.
    pub(super) fn new(
        module: &Arc<CudaModule>,
        stream: &Arc<CudaStream>,
        cells: usize,
    ) -> Result<GpuFill, BoggleError> {
        let function = |name: &str| module.load_function(name).map_err(gpu_error);
        let empty = || stream.alloc_zeros::<u32>(1).map_err(gpu_error);
        Ok(GpuFill {
            level_count: 2 * cells + 1,
            paths: function("fill_paths")?,
            tile_counts: function("fill_tile_counts")?,
            level_scan: function("fill_level_scan")?,
            index: function("fill_index")?,
            ends: function("fill_ends")?,
            bottom_up: function("fill_bottom_up")?,
            write: function("fill_write")?,
            scan: TileScan::new(module, stream)?,
            keep_top: empty()?,
            points: empty()?,
            closed: empty()?,
            count: empty()?,
            tile_starts: empty()?,
            totals: empty()?,
            base: empty()?,
            starts: empty()?,
            ends_buffer: empty()?,
            bound: empty()?,
            size: empty()?,
            subtree: empty()?,
            header: empty()?,
            at: empty()?,
        })
    }

    /// Fills a tree's arena into `arena` (grown as needed) from the `n`
    /// sorted keys of `keys` (at least one). The kernels are done when it
    /// returns.
    pub(super) fn fill(
        &mut self,
        stream: &Arc<CudaStream>,
        keys: &CudaSlice<u128>,
        n: usize,
        arena: &mut CudaSlice<u32>,
    ) -> Result<Filled, BoggleError> {
        let n32 = u32::try_from(n)
            .ok()
            .filter(|&n| n < u32::MAX / 2)
            .ok_or_else(|| BoggleError::Config(format!("{n} paths are too many to fill")))?;
        let levels = self.index(stream, keys, n32)?;
        let nodes: u64 = levels.iter().map(|l| u64::from(l.nodes)).sum();
        for level in &levels {
            let mut launch =
                level_launch(stream, &self.ends, level, &n32, &self.count, &self.starts);
            launch.arg(&mut self.ends_buffer);
            // SAFETY: arguments match `fill_ends`; the level's nodes and its
            // parent level's lie at `here` and `up`.
            unsafe { launch.launch(one_per(level.nodes)) }.map_err(gpu_error)?;
        }
        stream
            .memset_zeros(&mut self.closed.slice_mut(0..n + 1))
            .map_err(gpu_error)?;
        for level in levels.iter().rev() {
            let mut launch = level_launch(
                stream,
                &self.bottom_up,
                level,
                &n32,
                &self.count,
                &self.starts,
            );
            launch
                .arg(keys)
                .arg(&self.keep_top)
                .arg(&self.points)
                .arg(&self.ends_buffer)
                .arg(&mut self.bound)
                .arg(&mut self.size)
                .arg(&mut self.subtree)
                .arg(&mut self.header)
                .arg(&mut self.closed);
            // SAFETY: arguments match `fill_bottom_up`; the level below is
            // done (launches on one stream run in order).
            unsafe { launch.launch(one_per(level.nodes)) }.map_err(gpu_error)?;
        }
        let words = self.offsets(stream, n32)?;
        ensure(stream, arena, words)?;
        for level in &levels {
            let mut launch =
                level_launch(stream, &self.write, level, &n32, &self.count, &self.starts);
            launch
                .arg(&self.bound)
                .arg(&self.size)
                .arg(&self.subtree)
                .arg(&self.header)
                .arg(&self.closed)
                .arg(&mut self.at)
                .arg(&mut *arena);
            // SAFETY: arguments match `fill_write`; every place written is
            // below `words` (the records' sizes add up to it).
            unsafe { launch.launch(one_per(level.nodes)) }.map_err(gpu_error)?;
        }
        // The root: level 0's only node, at index 0. Read on the stream
        // after the writes: when they are read, every kernel is done.
        let bound = stream
            .clone_dtoh(&self.bound.slice(0..1))
            .map_err(gpu_error)?[0];
        let root_size = stream
            .clone_dtoh(&self.size.slice(0..1))
            .map_err(gpu_error)?[0] as usize;
        Ok(Filled {
            words,
            root: words - root_size,
            bound,
            nodes: nodes as usize,
        })
    }

    /// Per path the levels it opens and its points; per level and path
    /// the nodes started before it (`count`); per node its first path
    /// (`starts`). Returns the levels, with the node buffers grown to hold
    /// them.
    fn index(
        &mut self,
        stream: &Arc<CudaStream>,
        keys: &CudaSlice<u128>,
        n32: u32,
    ) -> Result<Vec<Level>, BoggleError> {
        let (s, n, level_count) = (stream, n32 as usize, self.level_count);
        let blocks = n32.div_ceil(FILL_TILE);
        ensure(s, &mut self.keep_top, n)?;
        ensure(s, &mut self.points, n)?;
        ensure(s, &mut self.closed, n + 1)?;
        ensure(s, &mut self.count, level_count * (n + 1))?;
        ensure(s, &mut self.tile_starts, level_count * blocks as usize)?;
        ensure(s, &mut self.totals, level_count)?;
        ensure(s, &mut self.base, level_count)?;
        let mut launch = s.launch_builder(&self.paths);
        launch
            .arg(keys)
            .arg(&n32)
            .arg(&mut self.keep_top)
            .arg(&mut self.points);
        // SAFETY: arguments match `fill_paths`; `keys` holds `n` keys, the
        // outputs `n` words each.
        unsafe { launch.launch(one_per(n32)) }.map_err(gpu_error)?;
        let mut launch = s.launch_builder(&self.tile_counts);
        launch
            .arg(&self.keep_top)
            .arg(&n32)
            .arg(&blocks)
            .arg(&mut self.tile_starts);
        // SAFETY: arguments match `fill_tile_counts`; `tile_starts` holds a
        // word per level and tile.
        unsafe { launch.launch(per_tile(n32)) }.map_err(gpu_error)?;
        // A row a level, of `blocks` tile counts each.
        scan_rows(
            s,
            &self.level_scan,
            &mut self.tile_starts.slice_mut(..),
            blocks,
            level_count as u32,
            &mut self.totals.slice_mut(..),
        )?;
        let totals = s
            .clone_dtoh(&self.totals.slice(0..level_count))
            .map_err(gpu_error)?;
        let nodes: u64 = totals.iter().map(|&t| u64::from(t)).sum();
        if nodes >= u64::from(u32::MAX / 2) {
            return Err(BoggleError::Config(format!(
                "{nodes} tree nodes are too many to fill"
            )));
        }
        let levels_found = levels(&totals);
        let base: Vec<u32> = levels_found.iter().map(|l| l.here).collect();
        s.memcpy_htod(&base, &mut self.base.slice_mut(0..level_count))
            .map_err(gpu_error)?;
        for buffer in [
            &mut self.starts,
            &mut self.ends_buffer,
            &mut self.bound,
            &mut self.size,
            &mut self.subtree,
            &mut self.header,
            &mut self.at,
        ] {
            ensure(s, buffer, nodes as usize)?;
        }
        let mut launch = s.launch_builder(&self.index);
        launch
            .arg(&self.keep_top)
            .arg(&n32)
            .arg(&blocks)
            .arg(&self.tile_starts)
            .arg(&self.base)
            .arg(&mut self.count)
            .arg(&mut self.starts);
        // SAFETY: arguments match `fill_index`; `count` holds a row of
        // n + 1 a level, `starts` every level's nodes from `base`.
        unsafe { launch.launch(per_tile(n32)) }.map_err(gpu_error)?;
        Ok(levels_found)
    }

    /// `closed` made its exclusive prefix sums over n + 1 entries: each
    /// path's count of record words closed before it. Returns the last,
    /// the arena's length.
    fn offsets(&mut self, stream: &Arc<CudaStream>, n32: u32) -> Result<usize, BoggleError> {
        let entries = n32 + 1;
        self.scan.scan(
            stream,
            &mut self.closed.slice_mut(0..entries as usize),
            entries,
            &mut self.totals.slice_mut(0..1),
        )?;
        Ok(stream
            .clone_dtoh(&self.totals.slice(0..1))
            .map_err(gpu_error)?[0] as usize)
    }
}
