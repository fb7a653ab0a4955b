//! Boggle on the GPU through frontier's runtime: batch scoring (one board
//! per thread, `domains/boggle/kernels/boggle.cu`) and annealing with one chain per thread.
//! Scores equal the CPU's: boards whose words overflow a thread's seen
//! table are rescored on the CPU.
//!
//! Tuning knobs for experiments (environment): `FRONTIER_BOGGLE_SHARED=0`
//! keeps the per-board tables in local memory, `FRONTIER_BOGGLE_BLOCKS_PER_SM`
//! overrides the grid size, `FRONTIER_BOGGLE_CARVEOUT` the shared/L1 split,
//! `FRONTIER_BOGGLE_TABLE_LOG2` the per-thread seen-table size, and
//! `FRONTIER_BOGGLE_DEFINES` adds `#define`s to the kernel source.

use std::fmt::Write;
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use frontier_core::gpu::cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use frontier_core::gpu::{gpu_error, Gpu};
use frontier_core::rng::SplitMix64;

use crate::anneal::{draw_letter, letter_weights, AnnealConfig, AnnealResult, Leaderboard};
use crate::board::{Board, Shape};
use crate::solve::Scorer;
use crate::trie::{Node, Trie};
use crate::BoggleError;

const SOURCE: &str = include_str!("../kernels/boggle.cu");
const BLOCK: u32 = 256;
const OVERFLOW: u32 = u32::MAX;

/// A trie and a board shape resident on one GPU.
pub struct GpuBoggle {
    gpu: Gpu,
    shape: Shape,
    trie: CudaSlice<u32>,
    table: CudaSlice<u32>,
    gens: CudaSlice<u32>,
    threads: u32,
    shared_bytes: u32,
    score_kernel: CudaFunction,
    anneal_kernel: CudaFunction,
}

/// Depth of the deepest trie node (the longest word, in stored letters).
fn trie_depth(nodes: &[Node]) -> usize {
    let mut depth = vec![0u8; nodes.len()];
    let mut deepest = 0;
    // Children always come after their parent in the array.
    for (i, node) in nodes.iter().enumerate() {
        let children = (node.info & crate::trie::LETTER_BITS).count_ones();
        for c in node.first..node.first + children {
            let below = depth[i].saturating_add(1);
            if let Some(d) = depth.get_mut(c as usize) {
                *d = below;
                deepest = deepest.max(below as usize);
            }
        }
    }
    deepest
}

/// Bits that index a trie of `nodes` on the device (at least 8; the
/// scorer takes at most 24).
fn node_bits(nodes: &[Node]) -> u32 {
    (usize::BITS - nodes.len().leading_zeros()).max(8)
}

/// The scorer's kernel source for boards of `shape` over a trie of
/// `nodes`, with what launching it needs.
pub(crate) struct ScorerSource {
    /// The CUDA source: the defines, the neighbour masks, then `boggle.cu`.
    pub(crate) source: String,
    /// Log2 of a thread's seen-table entries.
    pub(crate) table_log2: u32,
    /// Whether the per-board tables are in shared memory.
    pub(crate) shared: bool,
    /// Dynamic shared memory a block takes (0 without shared tables).
    pub(crate) shared_bytes: u32,
}

/// [`ScorerSource`] for `shape` and `nodes` (the environment's tuning
/// knobs of the module docs included); no device is needed to make it.
pub(crate) fn scorer_source(shape: &Shape, nodes: &[Node]) -> ScorerSource {
    let node_bits = node_bits(nodes);
    let cells = shape.cells();
    let words = cells.div_ceil(32);
    // Room for ~192 distinct words per cell before a board falls back
    // to the CPU: far beyond any board seen.
    let table_log2 = std::env::var("FRONTIER_BOGGLE_TABLE_LOG2")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or_else(|| (cells * 256).next_power_of_two().trailing_zeros())
        .clamp(8, 16);
    let mut src = String::new();
    let _ = writeln!(
        src,
        "#define CELLS {cells}\n#define WORDS {words}\n#define NODE_BITS {node_bits}\n\
         #define TABLE_LOG2 {table_log2}\n#define MAX_DEPTH {}",
        // A path never holds more cells than the board has.
        trie_depth(nodes).clamp(1, cells)
    );
    // Per-board tables in shared memory where they fit in a quarter of
    // an SM's (about 57 KB on H100/H200) for a block.
    let shared_bytes = ((26 * words + cells) * 4 + cells) as u32 * BLOCK;
    let shared =
        shared_bytes <= 56 * 1024 && std::env::var("FRONTIER_BOGGLE_SHARED").as_deref() != Ok("0");
    if shared {
        src += "#define SHARED_BOARD\n";
    }
    let shared_bytes = if shared { shared_bytes } else { 0 };
    let mut masks = vec![0u32; cells * words];
    for cell in 0..cells {
        for &n in shape.neighbors_of(cell) {
            masks[cell * words + n as usize / 32] |= 1 << (n % 32);
        }
    }
    // Profiling knobs: extra #defines (e.g. TABLE_LOG2_MIN) for experiments.
    if let Ok(extra) = std::env::var("FRONTIER_BOGGLE_DEFINES") {
        for define in extra.split_whitespace() {
            let _ = writeln!(src, "#define {}", define.replacen('=', " ", 1));
        }
    }
    src += &device_u32s("NEIGHBORS", &masks);
    src += SOURCE;
    ScorerSource {
        source: src,
        table_log2,
        shared,
        shared_bytes,
    }
}

/// `values` as a kernel's constant array `name`, one line.
pub(crate) fn device_u32s(name: &str, values: &[u32]) -> String {
    let values: Vec<String> = values.iter().map(|v| format!("{v}u")).collect();
    format!(
        "__device__ const unsigned int {name}[{}] = {{{}}};\n",
        values.len(),
        values.join(", ")
    )
}

impl GpuBoggle {
    /// Uploads `trie` to GPU `ordinal` and compiles the kernels for boards
    /// of `shape`.
    pub fn new(trie: &Trie, shape: &Shape, ordinal: usize) -> Result<GpuBoggle, BoggleError> {
        let gpu = Gpu::open(ordinal)?;
        let nodes = trie.nodes();
        if node_bits(nodes) > 24 {
            return Err(BoggleError::Config(format!(
                "a trie of {} nodes is too large for the GPU scorer (at most 2^24)",
                nodes.len()
            )));
        }
        let ScorerSource {
            source: src,
            table_log2,
            shared,
            shared_bytes,
        } = scorer_source(shape, nodes);
        let module = gpu.module(&src)?;
        let function = |name: &str| module.load_function(name).map_err(gpu_error);
        let score_kernel = function("score_boards")?;
        let anneal_kernel = function("anneal_steps")?;
        for kernel in [&score_kernel, &anneal_kernel] {
            use frontier_core::gpu::cudarc::driver::sys::CUfunction_attribute as A;
            kernel
                .set_attribute(
                    A::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    shared_bytes as i32,
                )
                .map_err(gpu_error)?;
            // The walk's stack is in local memory: prefer L1 over shared
            // memory beyond what the tables need.
            let carveout = std::env::var("FRONTIER_BOGGLE_CARVEOUT")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(-1);
            kernel
                .set_attribute(
                    A::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                    carveout,
                )
                .map_err(gpu_error)?;
        }
        let occupancy = score_kernel
            .occupancy_max_active_blocks_per_multiprocessor(BLOCK, shared_bytes as usize, None)
            .map_err(gpu_error)?;
        tracing::info!(
            "boggle kernel: {} registers, {} B local memory per thread, {} blocks of {BLOCK} per SM, shared tables: {shared}",
            score_kernel.num_regs().unwrap_or(-1),
            score_kernel.local_size_bytes().unwrap_or(-1),
            occupancy
        );
        let sms = gpu
            .ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(gpu_error)? as u64;
        // Enough threads to fill every SM, fewer if their tables would not
        // fit in half the free memory.
        let (free, _) = gpu.memory()?;
        let per_thread = (4u64 << table_log2) + 4;
        let fit = (free as u64 / 2 / per_thread) / u64::from(BLOCK) * u64::from(BLOCK);
        let blocks_per_sm = std::env::var("FRONTIER_BOGGLE_BLOCKS_PER_SM")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(u64::from(occupancy.max(1)));
        let threads = (sms * blocks_per_sm * u64::from(BLOCK))
            .min(fit)
            .max(u64::from(BLOCK)) as u32;
        let s = &gpu.stream;
        let flat: Vec<u32> = nodes.iter().flat_map(|n| [n.info, n.first]).collect();
        let trie_dev = s.clone_htod(&flat).map_err(gpu_error)?;
        let table = s
            .alloc_zeros::<u32>((threads as usize) << table_log2)
            .map_err(gpu_error)?;
        let gens = s.alloc_zeros::<u32>(threads as usize).map_err(gpu_error)?;
        Ok(GpuBoggle {
            gpu,
            shape: shape.clone(),
            trie: trie_dev,
            table,
            gens,
            threads,
            shared_bytes,
            score_kernel,
            anneal_kernel,
        })
    }

    /// The device's name.
    pub fn device_name(&self) -> &str {
        &self.gpu.name
    }

    fn grid(&self, work: u32) -> LaunchConfig {
        let threads = work.min(self.threads).max(1);
        LaunchConfig {
            grid_dim: (threads.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: self.shared_bytes,
        }
    }

    /// Moves this scorer's work to a stream of its own. On the default
    /// stream a score waits for every kernel queued there before it: the
    /// GPU proof's long walk kernels run on their own device's default
    /// stream, so its scoring waited for the kernel launched just before,
    /// and the thread that feeds the GPU with it.
    pub fn use_own_stream(&mut self) -> Result<(), BoggleError> {
        // The trie and the tables were written on the old stream.
        self.gpu.stream.synchronize().map_err(gpu_error)?;
        self.gpu.stream = self.gpu.ctx.new_stream().map_err(gpu_error)?;
        Ok(())
    }

    /// Scores boards (`shape.cells()` letters each, concatenated); also
    /// returns the seconds the kernel took by device events.
    pub fn score(&mut self, trie: &Trie, boards: &[u8]) -> Result<(Vec<u32>, f64), BoggleError> {
        let cells = self.shape.cells();
        if cells == 0 || !boards.len().is_multiple_of(cells) {
            return Err(BoggleError::Config(format!(
                "{} letters are not a whole number of {cells}-cell boards",
                boards.len()
            )));
        }
        let n = (boards.len() / cells) as u32;
        if n == 0 {
            return Ok((Vec::new(), 0.0));
        }
        let s = self.gpu.stream.clone();
        let boards_dev = s.clone_htod(boards).map_err(gpu_error)?;
        let mut scores_dev = s.alloc_zeros::<u32>(n as usize).map_err(gpu_error)?;
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let start = s.record_event(timing).map_err(gpu_error)?;
        let grid = self.grid(n);
        let mut launch = s.launch_builder(&self.score_kernel);
        launch
            .arg(&self.trie)
            .arg(&boards_dev)
            .arg(&n)
            .arg(&mut scores_dev)
            .arg(&mut self.table)
            .arg(&mut self.gens);
        // SAFETY: arguments match `score_boards`; the grid has at most
        // `self.threads` threads, the size of `table` and `gens`.
        unsafe { launch.launch(grid) }.map_err(gpu_error)?;
        let end = s.record_event(timing).map_err(gpu_error)?;
        let mut scores = s.clone_dtoh(&scores_dev).map_err(gpu_error)?;
        let seconds = f64::from(start.elapsed_ms(&end).map_err(gpu_error)?) / 1e3;
        let mut scorer = None;
        for (i, score) in scores.iter_mut().enumerate() {
            if *score == OVERFLOW {
                let scorer = scorer.get_or_insert_with(|| Scorer::new(trie));
                *score = scorer.score_letters(&self.shape, &boards[i * cells..(i + 1) * cells]);
            }
        }
        Ok((scores, seconds))
    }

    /// Simulated annealing with one chain per GPU thread (see
    /// [`crate::anneal`](mod@crate::anneal) for the moves and schedule). `config.chains` chains
    /// run `config.steps` moves each, in launches of a few hundred moves so
    /// progress and the time limit are checked between them.
    pub fn anneal(
        &mut self,
        trie: &Trie,
        config: &AnnealConfig,
        on_best: &dyn Fn(&str, u32),
    ) -> Result<AnnealResult, BoggleError> {
        config.validate()?;
        if (config.rows, config.cols) != (self.shape.rows, self.shape.cols) {
            return Err(BoggleError::Config(format!(
                "this GPU session scores {}x{} boards, not {}x{}",
                self.shape.rows, self.shape.cols, config.rows, config.cols
            )));
        }
        let started = Instant::now();
        let cells = self.shape.cells();
        let chains = (config.chains as u32).min(self.threads);
        let weights = letter_weights(trie);
        let cumulative: Vec<u32> = weights
            .iter()
            .map(|&w| w.min(u64::from(u32::MAX)) as u32)
            .collect();
        let mut boards = vec![0u8; chains as usize * cells];
        let mut rng_states = Vec::with_capacity(chains as usize);
        for chain in 0..u64::from(chains) {
            let mut rng = SplitMix64::new(config.seed ^ chain.wrapping_mul(0xA076_1D64_78BD_642F));
            for cell in &mut boards[chain as usize * cells..(chain as usize + 1) * cells] {
                *cell = draw_letter(&mut rng, &weights);
            }
            rng_states.push(rng.next_u64());
        }
        let (scores, _) = self.score(trie, &boards)?;
        let s = self.gpu.stream.clone();
        let mut boards_dev = s.clone_htod(&boards).map_err(gpu_error)?;
        let mut best_dev = s.clone_htod(&boards).map_err(gpu_error)?;
        let mut scores_dev = s.clone_htod(&scores).map_err(gpu_error)?;
        let mut best_scores_dev = s.clone_htod(&scores).map_err(gpu_error)?;
        let mut rng_dev = s.clone_htod(&rng_states).map_err(gpu_error)?;
        let cumulative_dev = s.clone_htod(&cumulative).map_err(gpu_error)?;
        let mut evaluated_dev = s.alloc_zeros::<u64>(1).map_err(gpu_error)?;
        let (log_t0, log_ratio) = (config.t_start.ln(), (config.t_end / config.t_start).ln());
        let mut leaders = Leaderboard::new(config.keep);
        let mut step = 0u64;
        let chunk = 256u32;
        let mut reached = false;
        while step < config.steps {
            let steps = chunk.min((config.steps - step) as u32);
            let grid = self.grid(chains);
            let mut launch = s.launch_builder(&self.anneal_kernel);
            launch
                .arg(&self.trie)
                .arg(&mut boards_dev)
                .arg(&mut scores_dev)
                .arg(&mut best_dev)
                .arg(&mut best_scores_dev)
                .arg(&mut rng_dev)
                .arg(&cumulative_dev)
                .arg(&chains)
                .arg(&step)
                .arg(&steps)
                .arg(&config.steps)
                .arg(&log_t0)
                .arg(&log_ratio)
                .arg(&mut self.table)
                .arg(&mut self.gens)
                .arg(&mut evaluated_dev);
            // SAFETY: arguments match `anneal_steps`; every per-chain buffer
            // holds `chains` entries and the grid covers at most `threads`.
            unsafe { launch.launch(grid) }.map_err(gpu_error)?;
            step += u64::from(steps);
            let best_scores = s.clone_dtoh(&best_scores_dev).map_err(gpu_error)?;
            let top = best_scores.iter().copied().max().unwrap_or(0);
            if top > leaders.best_score() {
                let best = s.clone_dtoh(&best_dev).map_err(gpu_error)?;
                for (chain, &score) in best_scores.iter().enumerate() {
                    if score + 50 >= top {
                        let board = Board {
                            rows: self.shape.rows,
                            cols: self.shape.cols,
                            letters: best[chain * cells..(chain + 1) * cells].to_vec(),
                        };
                        let text = board.text();
                        if leaders.offer(text.clone(), score) {
                            on_best(&text, score);
                        }
                    }
                }
            }
            reached = config.target.is_some_and(|t| leaders.best_score() >= t);
            let late = config
                .max_seconds
                .is_some_and(|m| started.elapsed().as_secs_f64() >= m);
            if reached || late {
                break;
            }
        }
        // Final pass: every chain's best, so the leaderboard is complete.
        let best_scores = s.clone_dtoh(&best_scores_dev).map_err(gpu_error)?;
        let best = s.clone_dtoh(&best_dev).map_err(gpu_error)?;
        for (chain, &score) in best_scores.iter().enumerate() {
            let letters = best[chain * cells..(chain + 1) * cells].to_vec();
            let text = Board {
                rows: self.shape.rows,
                cols: self.shape.cols,
                letters,
            }
            .text();
            if leaders.offer(text.clone(), score) {
                on_best(&text, score);
            }
        }
        let evaluated = s.clone_dtoh(&evaluated_dev).map_err(gpu_error)?;
        Ok(AnnealResult {
            best: leaders.boards().to_vec(),
            evaluated: evaluated.first().copied().unwrap_or(0) + u64::from(chains),
            chains: u64::from(chains),
            seconds: started.elapsed().as_secs_f64(),
            reached_target: reached || config.target.is_some_and(|t| leaders.best_score() >= t),
        })
    }
}
