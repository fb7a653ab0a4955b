//! Exclusive prefix sums of a device buffer, in three launches: each block
//! sums its tile (`fill_tile_sums`), one block scans the tiles' sums
//! (`fill_level_scan`), each block writes its tile's prefixes
//! (`fill_tile_apply`). The fill's offsets, the radix sort's counters and
//! the merges' lengths are all scanned so.
//!
//! Blocks of 256 threads: in a proof the walk's launches leave each SM the
//! registers of two of their blocks (`BUILD_ROOM_BLOCKS` in
//! `gpu_prove.rs`), about 14 K; a block of 1024 scanning threads needed
//! 28 K, so every build or merge that scanned waited for a walk launch to
//! end.

use std::sync::Arc;

use frontier_core::gpu::cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, CudaViewMut, LaunchConfig, PushKernelArg,
};
use frontier_core::gpu::gpu_error;

use super::fill::{ensure, per_tile, FILL_TILE};
use super::SCAN_THREADS;
use crate::BoggleError;

/// The scan's kernels and the tiles' sums (grown as needed, kept between
/// scans).
pub(super) struct TileScan {
    tile_sums: CudaFunction,
    sums_scan: CudaFunction,
    tile_apply: CudaFunction,
    sums: CudaSlice<u32>,
}

impl TileScan {
    /// The kernels of `module` (`boggle_build.cu`).
    pub(super) fn new(
        module: &Arc<CudaModule>,
        stream: &Arc<CudaStream>,
    ) -> Result<TileScan, BoggleError> {
        let function = |name: &str| module.load_function(name).map_err(gpu_error);
        Ok(TileScan {
            tile_sums: function("fill_tile_sums")?,
            sums_scan: function("fill_level_scan")?,
            tile_apply: function("fill_tile_apply")?,
            sums: stream.alloc_zeros::<u32>(1).map_err(gpu_error)?,
        })
    }

    /// `values` (`n` entries) made their exclusive prefix sums in place,
    /// their sum written to `total` (one word); queued on `stream`.
    pub(super) fn scan(
        &mut self,
        stream: &Arc<CudaStream>,
        values: &mut CudaViewMut<u32>,
        n: u32,
        total: &mut CudaViewMut<u32>,
    ) -> Result<(), BoggleError> {
        let tiles = n.div_ceil(FILL_TILE);
        ensure(stream, &mut self.sums, tiles as usize)?;
        let mut launch = stream.launch_builder(&self.tile_sums);
        launch.arg(&mut *values).arg(&n).arg(&mut self.sums);
        // SAFETY: arguments match `fill_tile_sums`; a word a tile.
        unsafe { launch.launch(per_tile(n)) }.map_err(gpu_error)?;
        scan_rows(
            stream,
            &self.sums_scan,
            &mut self.sums.slice_mut(..),
            tiles,
            1,
            total,
        )?;
        let mut launch = stream.launch_builder(&self.tile_apply);
        launch.arg(&mut *values).arg(&n).arg(&self.sums);
        // SAFETY: arguments match `fill_tile_apply`.
        unsafe { launch.launch(per_tile(n)) }.map_err(gpu_error)?;
        Ok(())
    }
}

/// `fill_level_scan` (`scan`, loaded from `boggle_build.cu`) over `rows`
/// rows of `len` words of `sums`, a block a row: each row made its
/// exclusive prefix sums in place, its sum written to `totals[row]`; queued
/// on `stream`. The fill's levels, the merges' two rows of tile sums and
/// [`TileScan`]'s one row are all scanned so.
pub(super) fn scan_rows(
    stream: &Arc<CudaStream>,
    scan: &CudaFunction,
    sums: &mut CudaViewMut<u32>,
    len: u32,
    rows: u32,
    totals: &mut CudaViewMut<u32>,
) -> Result<(), BoggleError> {
    let rows_words = rows as usize * len as usize;
    if sums.len() < rows_words || totals.len() < rows as usize {
        return Err(BoggleError::Config(format!(
            "a scan of {rows} rows of {len} words was given {} words and {} totals",
            sums.len(),
            totals.len()
        )));
    }
    let mut launch = stream.launch_builder(scan);
    launch.arg(&mut *sums).arg(&len).arg(&mut *totals);
    let a_block_a_row = LaunchConfig {
        grid_dim: (rows, 1, 1),
        block_dim: (SCAN_THREADS, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: arguments match `fill_level_scan`, a block a row; `sums`
    // holds the `rows` rows of `len` words and `totals` a word a row
    // (checked above).
    unsafe { launch.launch(a_block_a_row) }.map_err(gpu_error)?;
    Ok(())
}
