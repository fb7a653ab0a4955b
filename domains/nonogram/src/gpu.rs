//! Line solving to a fixed point for many grids at once on the GPU
//! (`domains/nonogram/kernels/nonogram.cu`: a grid per block, a line per thread), and the
//! same computation on the CPU for comparison. Lines are limited to 63
//! cells and 32 runs on the GPU.

use frontier_core::gpu::cudarc::driver::sys::CUevent_flags;
use frontier_core::gpu::cudarc::driver::{CudaFunction, LaunchConfig, PushKernelArg};
use frontier_core::gpu::{gpu_error, Gpu};
use rayon::prelude::*;

use crate::puzzle::Puzzle;
use crate::solver::Grid;
use crate::NonogramError;

const SOURCE: &str = include_str!("../kernels/nonogram.cu");

/// Result of propagating one grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Propagated {
    /// Every cell known.
    Solved,
    /// Line solving stops with unknown cells left.
    Stuck,
    /// The clues contradict the grid.
    Contradiction,
}

impl Propagated {
    fn from_code(code: u8) -> Propagated {
        match code {
            0 => Propagated::Solved,
            2 => Propagated::Contradiction,
            _ => Propagated::Stuck,
        }
    }
}

/// Propagates `grids` (cells of `puzzles[puzzle_of[i]]`, concatenated) in
/// place on all cores.
pub fn propagate_cpu(puzzles: &[Puzzle], puzzle_of: &[u32], grids: &mut [u8]) -> Vec<Propagated> {
    let cells = puzzles.first().map_or(1, |p| p.width * p.height).max(1);
    grids
        .par_chunks_mut(cells)
        .zip(puzzle_of)
        .map(|(cells, &p)| {
            let puzzle = &puzzles[p as usize];
            let mut grid = Grid::with_cells(puzzle, cells);
            let result = grid.propagate();
            cells.copy_from_slice(&grid.cells);
            match result {
                Err(_) => Propagated::Contradiction,
                Ok(()) if grid.unknown() == 0 => Propagated::Solved,
                Ok(()) => Propagated::Stuck,
            }
        })
        .collect()
}

/// The GPU propagator: the compiled kernel on one device.
pub struct GpuPropagator {
    gpu: Gpu,
    kernel: CudaFunction,
}

impl GpuPropagator {
    /// Opens GPU `ordinal` and compiles the kernel.
    pub fn new(ordinal: usize) -> Result<GpuPropagator, NonogramError> {
        let gpu = Gpu::open(ordinal).map_err(|e| NonogramError::Gpu(e.to_string()))?;
        let module = gpu
            .module(SOURCE)
            .map_err(|e| NonogramError::Gpu(e.to_string()))?;
        let kernel = module
            .load_function("propagate_grids")
            .map_err(|e| NonogramError::Gpu(e.to_string()))?;
        Ok(GpuPropagator { gpu, kernel })
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.gpu.name
    }

    /// Like [`propagate_cpu`]; also returns the kernel's seconds by device
    /// events. Every puzzle must have the same size, sides of at most 63.
    pub fn propagate(
        &self,
        puzzles: &[Puzzle],
        puzzle_of: &[u32],
        grids: &mut [u8],
    ) -> Result<(Vec<Propagated>, f64), NonogramError> {
        let Some(first) = puzzles.first() else {
            return Ok((Vec::new(), 0.0));
        };
        let (w, h) = (first.width, first.height);
        let bad = |m: String| Err(NonogramError::Gpu(format!("GPU: {m}")));
        if w > 63 || h > 63 {
            return bad(format!(
                "the GPU propagator takes sides up to 63, not {w}x{h}"
            ));
        }
        let mut starts = Vec::with_capacity(puzzles.len() * (w + h + 1));
        let mut runs = Vec::new();
        for p in puzzles {
            if (p.width, p.height) != (w, h) {
                return bad("every puzzle of a GPU batch must have the same size".into());
            }
            for clue in p.rows.iter().chain(&p.cols) {
                if clue.len() > 32 {
                    return bad("the GPU propagator takes at most 32 runs per line".into());
                }
                starts.push(runs.len() as u32);
                runs.extend_from_slice(clue);
            }
            starts.push(runs.len() as u32);
        }
        // The kernel reads line l's runs from starts[l] to starts[l + 1]
        // within its puzzle's block of `w + h + 1` starts.
        let count = grids.len() / (w * h);
        if count != puzzle_of.len() || puzzle_of.iter().any(|&p| p as usize >= puzzles.len()) {
            return bad("one puzzle index per grid, each naming a puzzle".into());
        }
        runs.push(0);
        let s = &self.gpu.stream;
        let gpu = |e| NonogramError::Gpu(gpu_error(e).to_string());
        let mut grids_dev = s.clone_htod(grids).map_err(gpu)?;
        let puzzle_dev = s.clone_htod(puzzle_of).map_err(gpu)?;
        let starts_dev = s.clone_htod(&starts).map_err(gpu)?;
        let runs_dev = s.clone_htod(&runs).map_err(gpu)?;
        let mut status_dev = s.alloc_zeros::<u8>(count.max(1)).map_err(gpu)?;
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let begin = s.record_event(timing).map_err(gpu)?;
        let (wi, hi) = (w as i32, h as i32);
        let mut launch = s.launch_builder(&self.kernel);
        launch
            .arg(&mut grids_dev)
            .arg(&puzzle_dev)
            .arg(&starts_dev)
            .arg(&runs_dev)
            .arg(&wi)
            .arg(&hi)
            .arg(&mut status_dev);
        let config = LaunchConfig {
            grid_dim: (count as u32, 1, 1),
            block_dim: (64, 1, 1),
            shared_mem_bytes: 0,
        };
        if count > 0 {
            // SAFETY: arguments match `propagate_grids`; one block per grid,
            // every buffer sized for `count` grids of w*h cells.
            unsafe { launch.launch(config) }.map_err(gpu)?;
        }
        let end = s.record_event(timing).map_err(gpu)?;
        s.memcpy_dtoh(&grids_dev, grids).map_err(gpu)?;
        let status = s.clone_dtoh(&status_dev).map_err(gpu)?;
        let seconds = f64::from(begin.elapsed_ms(&end).map_err(gpu)?) / 1e3;
        Ok((
            status[..count]
                .iter()
                .map(|&c| Propagated::from_code(c))
                .collect(),
            seconds,
        ))
    }
}

#[cfg(test)]
mod tests {
    /// The nonogram line-solving kernel compiles for Hopper with NVRTC alone (no GPU
    /// needed); skipped loudly where NVRTC is not installed.
    #[test]
    fn the_kernel_compiles_without_a_gpu() {
        let compiled = frontier_core::gpu::compile_only(super::SOURCE, "sm_90");
        frontier_core::gpu::checked_unless_no_nvrtc(compiled)
            .expect("the nonogram line-solving kernel compiles");
    }
}
