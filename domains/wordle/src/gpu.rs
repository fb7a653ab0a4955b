//! Guess ranking on the GPU (`domains/wordle/kernels/wordle.cu`): the feedback table is
//! uploaded once; each ranking uploads only the candidate list.

use frontier_core::gpu::cudarc::driver::sys::CUevent_flags;
use frontier_core::gpu::cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use frontier_core::gpu::{gpu_error, Gpu};

use crate::game::{count_log_counts, rank_scores, score_from, FeedbackTable, Rank, Score};
use crate::WordleError;

const SOURCE: &str = include_str!("../kernels/wordle.cu");

/// A feedback table resident on one GPU.
pub struct GpuRanker {
    gpu: Gpu,
    kernel: CudaFunction,
    codes: CudaSlice<u8>,
    guesses: usize,
    answers: usize,
}

fn gpu_err(e: impl std::fmt::Display) -> WordleError {
    WordleError::Game(format!("GPU: {}", gpu_error(e)))
}

impl GpuRanker {
    /// Uploads `table` to GPU `ordinal`.
    pub fn new(table: &FeedbackTable, ordinal: usize) -> Result<GpuRanker, WordleError> {
        // Already a sentence ("no GPU: …"), not a driver error to wrap.
        let gpu = Gpu::open(ordinal).map_err(|e| WordleError::Game(e.to_string()))?;
        let module = gpu.module(SOURCE).map_err(gpu_err)?;
        let kernel = module.load_function("rank_guesses").map_err(gpu_err)?;
        let codes = gpu.stream.clone_htod(table.codes()).map_err(gpu_err)?;
        Ok(GpuRanker {
            gpu,
            kernel,
            codes,
            guesses: table.guesses.len(),
            answers: table.answers.len(),
        })
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.gpu.name
    }

    /// Every guess scored over `candidates`, ranked like
    /// [`crate::best_guesses`] (without a guess filter), and the kernel's
    /// seconds by device events.
    pub fn rank(
        &self,
        table: &FeedbackTable,
        candidates: &[u32],
        rank: Rank,
    ) -> Result<(Vec<Score>, f64), WordleError> {
        if candidates.is_empty() || candidates.iter().any(|&a| a as usize >= self.answers) {
            return Err(WordleError::Game(
                "candidates must be answer indices".into(),
            ));
        }
        let s = &self.gpu.stream;
        let candidates_dev = s.clone_htod(candidates).map_err(gpu_err)?;
        let weights = s
            .clone_htod(&count_log_counts(candidates.len()))
            .map_err(gpu_err)?;
        let mut sums = s.alloc_zeros::<f64>(self.guesses).map_err(gpu_err)?;
        let mut squares = s.alloc_zeros::<f64>(self.guesses).map_err(gpu_err)?;
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let begin = s.record_event(timing).map_err(gpu_err)?;
        let (answers, n) = (self.answers as i32, candidates.len() as i32);
        let mut launch = s.launch_builder(&self.kernel);
        launch
            .arg(&self.codes)
            .arg(&answers)
            .arg(&candidates_dev)
            .arg(&n)
            .arg(&weights)
            .arg(&mut sums)
            .arg(&mut squares);
        let config = LaunchConfig {
            grid_dim: (self.guesses as u32, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: arguments match `rank_guesses`; one block per guess row of
        // `answers` codes, candidate indices checked above.
        unsafe { launch.launch(config) }.map_err(gpu_err)?;
        let end = s.record_event(timing).map_err(gpu_err)?;
        let sums = s.clone_dtoh(&sums).map_err(gpu_err)?;
        let squares = s.clone_dtoh(&squares).map_err(gpu_err)?;
        let seconds = f64::from(begin.elapsed_ms(&end).map_err(gpu_err)?) / 1e3;
        let possible = table.possible_guesses(candidates);
        let n = candidates.len() as f64;
        let mut scores: Vec<Score> = (0..self.guesses)
            .map(|g| score_from(g, n, sums[g], squares[g], possible[g]))
            .collect();
        rank_scores(&mut scores, rank);
        Ok((scores, seconds))
    }
}

#[cfg(test)]
mod tests {
    /// The Wordle ranking kernel compiles for Hopper with NVRTC alone (no GPU
    /// needed); skipped loudly where NVRTC is not installed.
    #[test]
    fn the_kernel_compiles_without_a_gpu() {
        let compiled = frontier_core::gpu::compile_only(super::SOURCE, "sm_90");
        frontier_core::gpu::checked_unless_no_nvrtc(compiled)
            .expect("the Wordle ranking kernel compiles");
    }
}
