//! Boggle proofs with the bottom of the walk on the GPU.
//!
//! The CPU does what it is good at: building each class's orderly tree,
//! forcing cells near the root (as a CPU proof does, while a subclass's
//! bound is above the switchover) and walking its subclasses down to a
//! *split depth* (a few positions of the split order). Every subclass whose
//! look-ahead bound is still at or above the target there is handed over,
//! unfixed (the warp fixes its last position), in its forced tree
//! (`handover.rs` ships each class's forced trees in one arena), and the
//! GPU walks everything below it (`domains/boggle/kernels/boggle_prove.cu`,
//! one warp per subclass): the same bounds, the same subclasses, the boards
//! whose bound reaches the target sent back and scored exactly by the GPU
//! scorer (`crate::gpu`), each at or above the target scored again on the
//! CPU. Trees of many classes go to the GPU together, one launch for all
//! their subclasses, while the CPU's threads build the next classes.
//!
//! A subclass whose waiting choice nodes overflow the GPU's stacks (or
//! whose boards overflow the output) is walked again on the CPU, so the
//! proof never depends on a capacity: it is the CPU proof, with the same
//! boards and the same count of subclasses bounded (the GPU tests check
//! both against [`crate::prove()`]).

use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{
    sync_channel, Receiver, RecvTimeoutError, SendError, SyncSender, TrySendError,
};
use std::sync::Arc;
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::sys::{CUdevice_attribute, CUevent_flags};
use frontier_core::gpu::cudarc::driver::{
    CudaEvent, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg,
};
use frontier_core::gpu::{gpu_error, Gpu};

mod adder;
mod arena_upload;
mod host_budget;
mod relaunch;
use adder::Adder;
use arena_upload::{ArenaUploader, CopyStats, DeviceArena, KeptArenas};
use host_budget::HostBudget;
use relaunch::Relaunch;

use crate::gpu::GpuBoggle;
use crate::handover::FLUSH_WORDS;
use crate::ledger::Ledger;
use crate::orderly::{split_order, OrderlyBuilder, OrderlyTree};
use crate::prove::{
    boards_up_to_symmetry, letter_values, letters_of, mean_and_standard_error, open_results,
    prove_split, ArenaPool, ClassOutcome, Handover, Proof, ProofSettings, Split, Worker,
};
use crate::trie::Trie;
use crate::BoggleError;

const SOURCE: &str = include_str!("../kernels/boggle_prove.cu");
/// Warps per block.
const WARPS: u32 = 4;
/// Words per subclass handed over: its class, then 16 letters, 4 per word.
const ITEM_WORDS: usize = 5;
/// Words per board sent back: subclass, bound, 16 letters 4 per word.
const BOARD_WORDS: usize = 6;
/// Boards one launch can send back (more: those subclasses are walked
/// again, [`Relaunch`]).
/// Classes near the best boards send back millions: a 2,048-class 4x4
/// sample (seed 2, 64 host threads, docs/RESULTS.md) filled 2^20 twice, and
/// walking the subclasses left over on the adding-up thread took 40.8 and
/// 24.4 s while the GPU waited, against 0.3 s for a launch of 0.78 M boards
/// scored on the GPU. 2^23 boards are 201 MB of device memory a launch.
const BOARD_CAPACITY: usize = 1 << 23;
/// A launch waits for this many subclasses (or the last class)...
const BATCH_ITEMS: usize = 1 << 18;
/// ... or for this many words of trees.
const BATCH_WORDS: usize = 1 << 29;
/// How often the GPU's thread, with nothing received, looks whether a host
/// thread waits for the host budget (`gpu_prove/host_budget.rs`).
const WANTED_POLL: std::time::Duration = std::time::Duration::from_millis(5);
/// Item status written by the kernel.
const ITEM_DONE: u32 = 1;
/// Item status: a stack overflowed (the CPU walks the subclass).
#[cfg(test)]
const ITEM_STACK_FULL: u32 = 2;
/// Item status: the launch's board buffer was full when the subclass sent
/// a board back (its boards sent so far are dropped).
const ITEM_BOARDS_FULL: u32 = 3;

/// What the GPU did for a proof.
#[derive(Clone, Debug, Default)]
pub struct GpuProofReport {
    /// The device.
    pub device: String,
    /// Positions fixed on the CPU before a subclass is handed over (one
    /// more in the classes split deeper).
    pub split_depth: usize,
    /// Classes handed over one position below `split_depth`
    /// ([`GpuProofOptions::deeper`]), counted once a handover (a class past
    /// the handover's arena limit counts more than once).
    pub deeper_classes: u64,
    /// Classes handed over at `split_depth`, counted the same way.
    pub split_classes: u64,
    /// Kernel launches.
    pub launches: u64,
    /// Subclasses handed over.
    pub handed_over: u64,
    /// Of those, walked on the CPU after all (a GPU stack overflowed, or
    /// the board buffer did with one position left to split).
    pub walked_on_cpu: u64,
    /// Subclasses walked again on the GPU because their launch's board
    /// buffer was full, counted once per relaunch, the children of a split
    /// subclass each (see `gpu_prove/relaunch.rs`).
    pub relaunched: u64,
    /// Subclasses bounded on the GPU.
    pub subclasses: u64,
    /// Seconds the GPU ran kernels, by device events: the union of the
    /// kernels' spans, since consecutive launches overlap (each queued on
    /// the other compute stream before the last one is read back).
    pub kernel_seconds: f64,
    /// The host threads' seconds on classes (building, forcing, walking to
    /// the split, handing over), summed over the classes; with
    /// [`GpuProofReport::handover_wait_seconds`] and the wall time, this
    /// says whether the host, the GPU or the sample's last classes bound a
    /// run.
    pub host_class_seconds: f64,
    /// The longest single class on the host.
    pub longest_class_seconds: f64,
    /// The standard error of the host's mean class time over that mean
    /// (0 for one class): the relative error of a projection.
    pub host_class_relative_error: f64,
    /// Of `host_class_seconds`, the time host threads waited to hand a
    /// class over because the GPU's queue was full.
    pub handover_wait_seconds: f64,
    /// When the host threads had finished every class, from the start; the
    /// GPU's last launches come after.
    pub host_done_seconds: f64,
    /// The GPU thread's seconds in launches: copying the trees and items
    /// to the device, waiting for the kernels and reading back. The host
    /// threads wait on a full queue while it is busy.
    pub launch_seconds: f64,
    /// The adding-up thread's seconds: scoring the boards the kernels sent
    /// back (on the GPU, beside the next kernel), checking those at the
    /// target on the CPU, and walking on the CPU the subclasses the GPU
    /// could not finish.
    pub adding_seconds: f64,
    /// Of `launch_seconds`, copying to the device the trees the host
    /// threads did not copy (see [`HostCopies`]; or past the device memory
    /// budget) and each launch's subclasses.
    pub upload_seconds: f64,
    /// Of `launch_seconds`, waiting for kernels to end (the first read-back
    /// of each): the rest is the thread's own work. Near all of it while
    /// the kernels bound the proof; near none while the thread does.
    pub kernel_wait_seconds: f64,
    /// Bytes of trees the GPU's thread copied to the device.
    pub uploaded_bytes: u64,
    /// The host threads' seconds copying their classes' trees to the
    /// device as they hand them over (part of `host_class_seconds`).
    pub host_upload_seconds: f64,
    /// Bytes of trees the host threads copied from the host.
    pub host_uploaded_bytes: u64,
    /// Bytes of the host threads' trees copied on the device instead,
    /// from the arenas the GPU filled (`--gpu-build tree`) and merged into
    /// (`merges`).
    pub host_kept_bytes: u64,
    /// Forced cells merged on the GPU (`--gpu-build merges`).
    pub merges_on_gpu: u64,
}

/// The whole proof's time on one GPU and the host threads that fed it,
/// projected from a sample (see [`GpuProofReport::projected_gpu_hours`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuProjection {
    /// The sample's wall time per class times every class, in hours.
    pub hours: f64,
    /// Its standard error, from the spread of the host's class times.
    pub error: f64,
    /// The same for the kernels' time alone (what the GPU needs, given
    /// host cores enough to build the trees).
    pub kernel_hours: f64,
    /// The host threads' busy time on classes (waits for the GPU's queue
    /// left out), projected the same way: the CPU's share of the proof.
    pub host_thread_hours: f64,
    /// Host threads of this host's speed that would build trees as fast
    /// as the kernel walks them (see
    /// [`GpuProofReport::threads_to_keep_kernel_busy`]); None without
    /// kernel time.
    pub threads_to_keep_kernel_busy: Option<f64>,
}

impl GpuProofReport {
    /// The host threads' seconds on classes less their waits for the
    /// GPU's queue: the work the host did.
    pub fn host_busy_seconds(&self) -> f64 {
        (self.host_class_seconds - self.handover_wait_seconds).max(0.0)
    }

    /// Host threads that would keep the kernel busy: the host's busy
    /// seconds over the kernel's. With fewer, the host bounds the proof's
    /// wall time; with more, the kernel does, as long as the GPU's own
    /// thread (uploads, reading back) keeps up. None without kernel time.
    pub fn threads_to_keep_kernel_busy(&self) -> Option<f64> {
        (self.kernel_seconds > 0.0).then(|| self.host_busy_seconds() / self.kernel_seconds)
    }

    /// The whole proof's time on this GPU with the host threads that fed
    /// it, projected from a sample. None for an incomplete proof.
    ///
    /// The error carries the sampling error of the host's mean class time
    /// over to the wall time, in proportion: right while the host bounds a
    /// run (the host threads finish close to the end and seldom wait for
    /// the GPU's queue, [`GpuProofReport::host_done_seconds`] and
    /// [`GpuProofReport::handover_wait_seconds`] say so), as at the default
    /// split depth on 4x4. It leaves out how machines of one kind differ,
    /// which docs/RESULTS.md measures apart.
    pub fn projected_gpu_hours(&self, proof: &Proof) -> Option<GpuProjection> {
        (proof.complete && proof.classes > 0).then(|| {
            let scale = proof.classes_total as f64 / proof.classes as f64 / 3600.0;
            let hours = (proof.seconds - proof.setup_seconds) * scale;
            GpuProjection {
                hours,
                error: hours * self.host_class_relative_error,
                kernel_hours: self.kernel_seconds * scale,
                host_thread_hours: self.host_busy_seconds() * scale,
                threads_to_keep_kernel_busy: self.threads_to_keep_kernel_busy(),
            }
        })
    }
}

/// How a proof uses the GPU.
#[derive(Clone, Debug)]
pub struct GpuProofOptions {
    /// The device.
    pub ordinal: usize,
    /// Positions fixed on the CPU before a subclass is handed over (None:
    /// [`default_split_depth`]).
    pub split_depth: Option<usize>,
    /// Choice nodes one position's stack holds on the GPU (per warp). The
    /// most seen waiting on one position is a few hundred (4x4 samples:
    /// 421); a subclass that needs more is walked on the CPU.
    pub stack_capacity: usize,
    /// Which trees the host threads copy to the device themselves.
    pub host_copies: HostCopies,
    /// Device bytes that the host threads' copies of the trees they hand
    /// over may hold at once; a tree past it is copied by the GPU's thread
    /// when its launch comes (None: half the device memory free once the
    /// prover's buffers are made).
    pub host_upload_budget: Option<u64>,
    /// Host bytes that the arenas of the classes handed over to the GPU's
    /// thread, and not yet given back, may hold at once; a host thread
    /// waits before it hands over a class past it (None: a quarter of the
    /// host memory available when the proof starts, at least 4 GiB; see
    /// `gpu_prove/host_budget.rs`).
    pub host_memory_budget: Option<u64>,
    /// Boards one launch can send back. The subclasses that find the
    /// buffer full are walked again with an empty one, split deeper when a
    /// round finishes none of them or leaves fewer than the kernel's warps
    /// (`gpu_prove/relaunch.rs`); 24 bytes of device memory a board.
    pub board_capacity: usize,
    /// How much of each class's tree is built on the GPU
    /// ([`crate::gpu_build`]); the tree is the same either way.
    pub build: GpuBuild,
    /// When a class is split one position below the split depth.
    pub deeper: DeeperSplit,
    /// A results file to append each finished class to (see
    /// [`crate::results`]): a class is written once its host part and
    /// every subclass it handed over are done. No parts: a class is
    /// written whole or searched again.
    pub results: Option<std::path::PathBuf>,
    /// Continue `results`, skipping the classes it holds.
    pub resume: bool,
}

/// When a class of a GPU proof is split one position below the split
/// depth: its host thread then walks one more position, whose look-ahead
/// and fixes discard subclasses that the kernel would otherwise walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeeperSplit {
    /// While the GPU is behind: a class starts one position deeper while
    /// the last class handed over had to wait for the GPU (for its queue,
    /// or for the host budget, which fills as the queue does), and at the
    /// split depth once one did not. The host's share then grows while the
    /// GPU bounds the proof and shrinks while the host does. The default:
    /// on seed 3's share 1/3 of the 4x4 sample (16 host threads, one H200),
    /// where the GPU bounds depth 7, 22.1 against 23.6 H200-hours; on seed
    /// 1's 256 classes, which the host bounds, within the runs' spread
    /// (docs/RESULTS.md, "A class split one cell deeper while the GPU is
    /// behind").
    #[default]
    WhenGpuBehind,
    /// Never: every class at the split depth.
    Never,
    /// Every other class handed over, whatever the GPU's queue: both
    /// depths at any speed, as the GPU tests need.
    EveryOther,
}

impl std::str::FromStr for DeeperSplit {
    type Err = String;

    /// `when-behind`, `never` or `every-other`.
    fn from_str(text: &str) -> Result<DeeperSplit, String> {
        named_choice(
            "deeper split",
            text,
            &[
                ("when-behind", DeeperSplit::WhenGpuBehind),
                ("never", DeeperSplit::Never),
                ("every-other", DeeperSplit::EveryOther),
            ],
        )
    }
}

/// The choice named `text` among `choices`, or a message naming `what`,
/// the text and every name: the names are written once, so the message
/// cannot leave one out.
fn named_choice<T: Copy>(what: &str, text: &str, choices: &[(&str, T)]) -> Result<T, String> {
    if let Some(&(_, choice)) = choices.iter().find(|(name, _)| *name == text) {
        return Ok(choice);
    }
    let names: Vec<String> = choices
        .iter()
        .map(|(name, _)| format!("`{name}`"))
        .collect();
    let listed = match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(format!("{what} {text:?}: {listed}"))
}

/// How much of a class's orderly tree the GPU builds, the host threads
/// doing the rest (the tree is the same, word for word).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GpuBuild {
    /// All of it: the paths collected, sorted and the tree filled on the
    /// GPU, the host thread reading the tree back. Filling took a host
    /// thread 70-110 ns a path (0.4 s a 4x4 class on one dev core).
    Tree,
    /// The whole tree as with [`GpuBuild::Tree`], and every forced cell's
    /// merge too (`gpu_build/merge.rs`): the host thread reads the merged
    /// words back, and its class's copy to the device then sends nothing
    /// from the host. The merges were half of the host threads' time with
    /// [`GpuBuild::Tree`] (docs/RESULTS.md, "Where the host threads' time
    /// goes"). The default: 11% off seed 1's 256 4x4 classes on 16 host
    /// threads against [`GpuBuild::Tree`] ("The merges on the GPU").
    #[default]
    Merges,
    /// The paths collected and sorted on the GPU, the tree filled by the
    /// host thread from the keys read back. On a 4x4 sample fed by 16 host
    /// threads this took a quarter off the wall against [`GpuBuild::Host`]
    /// (docs/RESULTS.md, "Collecting and sorting a class's paths on the
    /// GPU").
    Paths,
    /// Nothing: the host thread builds the tree.
    Host,
}

impl std::str::FromStr for GpuBuild {
    type Err = String;

    /// `tree`, `merges`, `paths` or `host`.
    fn from_str(text: &str) -> Result<GpuBuild, String> {
        named_choice(
            "GPU build",
            text,
            &[
                ("tree", GpuBuild::Tree),
                ("merges", GpuBuild::Merges),
                ("paths", GpuBuild::Paths),
                ("host", GpuBuild::Host),
            ],
        )
    }
}

/// Which trees a host thread copies to the device as it hands them over;
/// the GPU's thread copies the others when their launch comes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HostCopies {
    /// None: the GPU's thread copies every tree.
    Never,
    /// Those it would otherwise wait to hand over, the GPU's queue being
    /// full: the copy takes time the thread would have spent waiting, and
    /// the GPU's thread, behind, is spared it. While the host bounds the
    /// proof it copies nothing (on 16 host threads copying every tree made
    /// a 4x4 sample 7% slower, docs/RESULTS.md).
    WhenQueueFull,
    /// Every tree (within the budget).
    Always,
    /// [`HostCopies::Always`] where the GPU builds some of the trees
    /// ([`GpuProofOptions::build`]) or from [`ALWAYS_FROM_THREADS`]
    /// host threads up, else [`HostCopies::WhenQueueFull`]
    /// ([`HostCopies::for_threads`]).
    #[default]
    Auto,
}

/// Host threads from which [`HostCopies::Auto`] copies every tree. On 4x4
/// samples (docs/RESULTS.md, "Thirty-two host threads" and "Sixty-four
/// host threads"), copying every tree beat copying when the queue is
/// full by 4% on 32 threads and by 14-20% on 64, while the GPU's thread,
/// copying the rest from pageable memory, fell behind; on 16 it cost 7%.
pub const ALWAYS_FROM_THREADS: usize = 32;

impl HostCopies {
    /// What `self` means for a proof on `threads` host threads: `Auto`
    /// resolved, any other choice as it is.
    pub fn for_threads(self, threads: usize) -> HostCopies {
        match self {
            HostCopies::Auto if threads >= ALWAYS_FROM_THREADS => HostCopies::Always,
            HostCopies::Auto => HostCopies::WhenQueueFull,
            chosen => chosen,
        }
    }

    /// What `self` means for a proof on `threads` host threads whose
    /// trees are built as `build` says: `Auto` copies every tree where the
    /// GPU builds some of them, whatever the threads.
    /// The host threads then have the time to copy, and the GPU's thread,
    /// copying the rest, became the bound (seed 3's 4x4 sample on 16
    /// threads: 37.7 against 42.0 GPU-hours, docs/RESULTS.md).
    pub fn for_proof(self, threads: usize, build: GpuBuild) -> HostCopies {
        match self {
            HostCopies::Auto if build != GpuBuild::Host => HostCopies::Always,
            chosen => chosen.for_threads(threads),
        }
    }
}

impl std::str::FromStr for HostCopies {
    type Err = String;

    /// `never`, `queue-full`, `always` or `auto`.
    fn from_str(text: &str) -> Result<HostCopies, String> {
        named_choice(
            "host copies",
            text,
            &[
                ("never", HostCopies::Never),
                ("queue-full", HostCopies::WhenQueueFull),
                ("always", HostCopies::Always),
                ("auto", HostCopies::Auto),
            ],
        )
    }
}

impl Default for GpuProofOptions {
    fn default() -> GpuProofOptions {
        GpuProofOptions {
            ordinal: 0,
            split_depth: None,
            stack_capacity: 2048,
            host_copies: HostCopies::default(),
            host_upload_budget: None,
            host_memory_budget: None,
            board_capacity: BOARD_CAPACITY,
            build: GpuBuild::default(),
            deeper: DeeperSplit::default(),
            results: None,
            resume: false,
        }
    }
}

/// The split depth used when none is given: seven sixteenths of the cells
/// (3x3: 3, 3x4: 5, 4x4: 7), deep enough that the subclasses handed over
/// are many and small, shallow enough that the CPU's share is small. On
/// the 4x4 sample of docs/RESULTS.md (256 classes, target 3500, switchover
/// 16,000, one H200 and 16 host threads) depths 4 to 8 took 217, 89, 66,
/// **48** and 56 s: below 7 the GPU walks subtrees too large for its
/// warps, above it the host's walk to the split outgrows the kernel's
/// saving. Only 4x4 was measured.
pub fn default_split_depth(cells: usize) -> usize {
    (cells * 7 / 16).clamp(1, cells.saturating_sub(1).max(1))
}

/// Proves as [`crate::prove()`] does, with the walk below the split depth
/// on the GPU (see the module docs). Certificates are not kept (the GPU
/// does not record its pieces).
pub fn prove_on_gpu(
    trie: &Trie,
    settings: &ProofSettings,
    options: &GpuProofOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(Proof, GpuProofReport), BoggleError> {
    let cells = settings.shape.cells();
    if settings.certificate {
        return Err(BoggleError::Config(
            "certificates are written by CPU proofs only (the GPU keeps no pieces)".into(),
        ));
    }
    let depth = options
        .split_depth
        .unwrap_or_else(|| default_split_depth(cells));
    if depth == 0 || depth >= cells {
        return Err(BoggleError::Config(format!(
            "the split depth must be from 1 to {} for {cells} cells, not {depth}",
            cells.saturating_sub(1)
        )));
    }
    if options.stack_capacity == 0 {
        return Err(BoggleError::Config("a GPU stack capacity of 0".into()));
    }
    if options.board_capacity == 0 || u32::try_from(options.board_capacity).is_err() {
        return Err(BoggleError::Config(format!(
            "a GPU board capacity of {} (1 to 2^32 - 1 boards)",
            options.board_capacity
        )));
    }
    let order = split_order(&settings.shape);
    let builder = OrderlyBuilder::new(trie, &settings.shape, &order)?;
    let prover = GpuProver::new(cells, options)?;
    // Opened once the GPU is there: a machine without one leaves no new
    // file behind.
    let log = options
        .results
        .as_deref()
        .map(|path| open_results(trie, settings, path, options.resume))
        .transpose()?;
    let ledger = log.as_ref().map(Ledger::new);
    // Sorters the host threads share: a 4x4 class holds one for its
    // collection, sort and fill, about 18 ms alone (the tree is read back
    // outside it), or about 35 ms with `GpuBuild::Paths` (the keys read back
    // under it; docs/RESULTS.md), against the 1.5 s or so a host thread
    // spends on it. Beside the walk it holds it longer: with one sorter,
    // 16 host threads waited 21 s for it on seed 1's 256 4x4 classes (a
    // tenth of their time on classes, docs/RESULTS.md), so there are
    // `SORTERS`.
    let path_sorters = if options.build != GpuBuild::Host {
        (0..SORTERS)
            .map(|_| {
                crate::gpu_build::GpuPathSorter::new(&prover.gpu, trie, &settings.shape)
                    .map(std::sync::Mutex::new)
            })
            .collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    // The boards the walk sends back are scored on the same GPU: on one
    // host thread they were the GPU thread's largest cost (4x4 sample at
    // depth 7: 0.7 M boards a run), and the host threads waited on it.
    let mut scorer = GpuBoggle::new(trie, &settings.shape, options.ordinal)?;
    // Scoring a launch's boards must not wait for the next launch's kernel
    // (see `use_own_stream`): that wait kept the next batch's copy from
    // overlapping the kernel.
    scorer.use_own_stream()?;
    // Half the memory left: the trees of the classes queued and of two
    // launches; the rest for each launch's buffers and the copies the
    // GPU's thread makes of trees past the budget.
    let budget = match options.host_upload_budget {
        Some(budget) => budget,
        None => prover.gpu.memory()?.0 as u64 / 2,
    };
    let uploader = ArenaUploader::new(prover.gpu.ctx.clone(), budget);
    let host_copies = CopyStats::default();
    let started = Instant::now();
    let threads = rayon::current_num_threads();
    let copies = options.host_copies.for_proof(threads, options.build);
    tracing::info!(
        "host threads copy trees: {copies:?} ({:?} on {threads} threads)",
        options.host_copies
    );
    // Room for a few classes per thread: the threads keep building while
    // the GPU walks.
    let (sender, receiver) = sync_channel::<(Handover, Option<DeviceArena>)>(2 * threads.max(1));
    // Sized for the host: with 64 host threads more arenas are in flight
    // than a fixed 16 GiB pool keeps, and each one freed is faulted in
    // afresh by a later class.
    let pool = ArenaPool::for_host();
    let host_budget = options
        .host_memory_budget
        .map_or_else(HostBudget::for_host, HostBudget::new);
    let waited_nanos = AtomicU64::new(0);
    let adder_failed = AtomicBool::new(false);
    // Classes whose tree the GPU built (the rest fell back to the host).
    let gpu_built = AtomicU64::new(0);
    // The host threads' time waiting for the path sorter, which one class
    // holds at a time.
    let sorter_wait_nanos = AtomicU64::new(0);
    let mut merges_on_gpu = 0;
    // Handovers one position deeper than `depth`, and at it.
    let (deeper_classes, split_classes) = (AtomicU64::new(0), AtomicU64::new(0));
    let (proof, consumed, added, host_done) = std::thread::scope(|scope| {
        // Two walked batches may wait to be added up; past that the GPU's
        // thread waits, rather than keep their arenas from the pool.
        let (finished, to_add) = sync_channel::<Finished>(2);
        let adder = scope.spawn(|| {
            let mut adder = Adder {
                scorer,
                trie,
                worker: Worker::new(&builder, trie, cells),
                settings,
                pool: &pool,
                host_budget: &host_budget,
                started,
                outcome: ClassOutcome::default(),
                subclasses: 0,
                walked_on_cpu: 0,
                seconds: 0.0,
                complete: true,
                ledger: ledger.as_ref(),
            };
            let result = adder.run(to_add, &adder_failed);
            (result, adder)
        });
        let consumer = scope.spawn(|| {
            let mut consumer = Consumer {
                prover,
                settings,
                pool: &pool,
                host_budget: &host_budget,
                uploader: &uploader,
                started,
                adder_failed: &adder_failed,
                report: GpuProofReport::default(),
                complete: true,
            };
            // Returning drops `finished`: the adding-up thread ends.
            let result = consumer.run(receiver, finished);
            (result, consumer)
        });
        let kept_arenas = KeptArenas::default();
        // Whether a class that starts now is split deeper: set while the
        // last class handed over had to wait for the GPU, or every other
        // handover (`options.deeper`).
        let gpu_behind = AtomicBool::new(false);
        let note_behind = |behind: bool| {
            if options.deeper == DeeperSplit::WhenGpuBehind {
                gpu_behind.store(behind, Ordering::Relaxed);
            }
        };
        let upload = |handover: &Handover| {
            kept_arenas.with_own(&handover.masks, &handover.order, |own| {
                uploader.upload(handover.tree.arena(), own, &host_copies)
            })
        };
        let sink = |mut handover: Handover| {
            // Counted before the copies below: a class waiting for the
            // budget holds no device memory yet.
            let budget_started = Instant::now();
            handover.budget_bytes = (handover.tree.arena_capacity() as u64).saturating_mul(4);
            let counter = if handover.depth > depth {
                &deeper_classes
            } else {
                &split_classes
            };
            counter.fetch_add(1, Ordering::Relaxed);
            if let Some(ledger) = &ledger {
                ledger.handed_over(handover.class);
            }
            if options.deeper == DeeperSplit::EveryOther {
                gpu_behind.fetch_xor(true, Ordering::Relaxed);
            }
            // Whether this class waited for the GPU, for this budget or for
            // a full queue below, noted once it is sent: both fill while the
            // GPU is behind (on seed 3's 4x4 sample the host threads waited
            // on the budget, never on the queue).
            let mut waited_for_gpu = host_budget.take(handover.budget_bytes);
            let waited = u64::try_from(budget_started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            waited_nanos.fetch_add(waited, Ordering::Relaxed);
            let handover = match copies {
                HostCopies::Never => (handover, None),
                HostCopies::Always => {
                    let device = upload(&handover);
                    (handover, device)
                }
                // `Auto` is resolved above.
                HostCopies::WhenQueueFull | HostCopies::Auto => {
                    match sender.try_send((handover, None)) {
                        Err(TrySendError::Full((handover, _))) => {
                            waited_for_gpu = true;
                            let device = upload(&handover);
                            (handover, device)
                        }
                        Ok(()) => {
                            note_behind(waited_for_gpu);
                            return;
                        }
                        // The consumer failed (its error is reported below):
                        // nothing will give these bytes back but this thread.
                        Err(TrySendError::Disconnected((handover, _))) => {
                            host_budget.give(handover.budget_bytes);
                            return;
                        }
                    }
                }
            };
            let wait_started = Instant::now();
            // A closed channel means the consumer failed: its error is
            // reported below, and the class's bytes are this thread's to
            // give back, or the other threads would wait for them forever.
            let sent = match sender.try_send(handover) {
                Ok(()) => {
                    note_behind(waited_for_gpu);
                    Ok(())
                }
                Err(TrySendError::Full(handover)) => {
                    note_behind(true);
                    sender.send(handover)
                }
                Err(TrySendError::Disconnected(handover)) => Err(SendError(handover)),
            };
            if let Err(SendError((handover, _))) = sent {
                host_budget.give(handover.budget_bytes);
            }
            let waited = wait_started.elapsed().as_nanos();
            waited_nanos.fetch_add(u64::try_from(waited).unwrap_or(u64::MAX), Ordering::Relaxed);
        };
        // Once the GPU's build fails (out of device memory, say), the host
        // threads build every later class themselves.
        let build_failed = AtomicBool::new(false);
        let trees = |builder: &OrderlyBuilder,
                     masks: &[u32],
                     tree: &mut OrderlyTree,
                     keys: &mut Vec<u128>| {
            if path_sorters.is_empty() {
                return None;
            }
            // The last class's arena, if kept, is handed over by now.
            kept_arenas.forget();
            if build_failed.load(Ordering::Relaxed) {
                return None;
            }
            let asked = Instant::now();
            let mut sorter = lock_any(&path_sorters)?;
            let nanos = u64::try_from(asked.elapsed().as_nanos()).unwrap_or(u64::MAX);
            sorter_wait_nanos.fetch_add(nanos, Ordering::Relaxed);
            let built = match options.build {
                GpuBuild::Paths => sorter.sorted_paths(builder, masks, keys).map(|()| {
                    // The fill is the host's: the GPU is free for the next class.
                    drop(sorter);
                    builder.build_from_sorted(keys, tree)
                }),
                // `Host` has no sorter: it returned above.
                GpuBuild::Tree | GpuBuild::Merges | GpuBuild::Host => {
                    sorter.build(builder, masks).and_then(|device| {
                        // Read back with the GPU free for the next class.
                        drop(sorter);
                        let (bound, kept) = device.read_keeping(tree)?;
                        if let Some(kept) = kept {
                            let order = builder.order().to_vec();
                            let masks = order.iter().map(|&c| masks[c]).collect();
                            kept_arenas.keep(masks, order, kept);
                        }
                        Ok(bound)
                    })
                }
            };
            match built {
                Ok(bound) => {
                    gpu_built.fetch_add(1, Ordering::Relaxed);
                    Some(bound)
                }
                Err(e) => {
                    if !build_failed.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            "the GPU's build of a tree failed ({e}): the host threads build them from here on"
                        );
                    }
                    None
                }
            }
        };
        // The merges on the GPU, over the arena the GPU built and kept: a
        // thread's first force makes its merger.
        let forces = |tree: &mut OrderlyTree, position: u32, letter: u8| {
            let sorter = path_sorters.first()?;
            kept_arenas.force(tree, position, letter, || {
                sorter.lock().unwrap_or_else(|e| e.into_inner()).merger()
            })
        };
        let proof = prove_split(
            trie,
            settings,
            progress,
            Some(&Split {
                depth,
                deeper: (options.deeper != DeeperSplit::Never).then_some(&gpu_behind),
                sink: &sink,
                pool: &pool,
                flush_words: FLUSH_WORDS,
                trees: Some(&trees),
                forces: (options.build == GpuBuild::Merges).then_some(&forces),
                ledger: ledger.as_ref(),
            }),
            log.as_ref().map(|log| (log, f64::INFINITY)),
        );
        let merges = kept_arenas.merges();
        merges_on_gpu = merges.merges;
        if merges.merges > 0 {
            tracing::info!(
                "{} merges on the GPU, {:.1} s of the host threads' time: {} levels ({} pairs of nodes) in {:.1} s, {:.1} s of it waiting for their totals; bounds in {:.1} s; {:.1} G words read back in {:.1} s ({:.1} s growing the host's arenas, {:.1} s waiting for the copies, {:.1} s queueing them, {:.1} s copying out of the page-locked buffers)",
                merges.merges,
                merges.seconds,
                merges.levels,
                merges.pairs,
                merges.level_seconds,
                merges.totals_seconds,
                merges.bounds_seconds,
                merges.words as f64 * 1e-9,
                merges.read_seconds,
                merges.grow_seconds,
                merges.copy_wait_seconds,
                merges.copy_queue_seconds,
                merges.copy_seconds
            );
        }
        let host_done = started.elapsed().as_secs_f64();
        // Closes the channel: the GPU's thread launches what is left and ends.
        drop(sender);
        let consumed = consumer
            .join()
            .map_err(|_| BoggleError::Config("the GPU thread panicked".into()));
        let added = adder
            .join()
            .map_err(|_| BoggleError::Config("the adding-up thread panicked".into()));
        (proof, consumed, added, host_done)
    });
    let mut proof = proof?;
    let (launched, consumer) = consumed?;
    let (added, adder) = added?;
    launched?;
    added?;
    let Consumer {
        mut report,
        complete,
        prover,
        ..
    } = consumer;
    let Adder {
        outcome,
        subclasses,
        walked_on_cpu,
        seconds: adding_seconds,
        complete: added_all,
        ..
    } = adder;
    report.device = prover.gpu.name.clone();
    report.split_depth = depth;
    report.deeper_classes = deeper_classes.into_inner();
    report.split_classes = split_classes.into_inner();
    report.subclasses = subclasses;
    report.walked_on_cpu = walked_on_cpu;
    report.adding_seconds = adding_seconds;
    proof.complete &= complete && added_all;
    proof.subclasses += outcome.subclasses;
    proof.boards_scored += outcome.boards_scored;
    report.host_class_seconds = proof.class_seconds.iter().sum();
    report.longest_class_seconds = proof.class_seconds.iter().copied().fold(0.0, f64::max);
    report.host_class_relative_error = mean_and_standard_error(&proof.class_seconds)
        .filter(|&(mean, _)| mean > 0.0)
        .map_or(0.0, |(mean, error)| error / mean);
    report.handover_wait_seconds = waited_nanos.into_inner() as f64 * 1e-9;
    report.host_done_seconds = host_done;
    report.host_upload_seconds = host_copies.seconds();
    report.host_uploaded_bytes = host_copies.bytes();
    report.host_kept_bytes = host_copies.kept_bytes();
    report.merges_on_gpu = merges_on_gpu;
    // The CPU's class times miss the GPU's part: no projection from them,
    // nor from a resumed file's (a GPU proof's are its host threads').
    proof.class_seconds.clear();
    proof.resumed_seconds.clear();
    proof.class_letters.clear();
    // Boards have every cell fixed, below any split depth: all of this
    // run's come from the GPU's part; earlier runs' from the results file.
    // The proof wrote these texts with `letter_text`: a-z only.
    let earlier = std::mem::take(&mut proof.boards)
        .into_iter()
        .filter_map(|(text, score)| letter_values(&text).map(|letters| (letters, score)));
    proof.boards = boards_up_to_symmetry(&settings.shape, earlier.chain(outcome.boards));
    if let Some(ledger) = ledger {
        let unfinished = ledger.unfinished();
        if let Some(e) = ledger.into_error() {
            return Err(e);
        }
        if unfinished > 0 && proof.complete {
            return Err(BoggleError::Config(format!(
                "{unfinished} classes of a complete GPU proof were not written to its results file"
            )));
        }
    }
    proof.seconds = started.elapsed().as_secs_f64();
    tracing::info!("{}", pool.summary());
    tracing::info!("{}", host_budget.summary());
    if let Some(peak) = peak_resident_bytes() {
        tracing::info!(
            "the process's peak resident memory: {:.1} GB",
            peak as f64 * 1e-9
        );
    }
    if !path_sorters.is_empty() {
        // The host threads' read-back of the trees, into trees they reuse:
        // the GPU test's figure reads into fresh ones (page faults).
        let mut times = crate::gpu_build::PathSorterTimes::default();
        for sorter in path_sorters {
            times.add(
                &sorter
                    .into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .times(),
            );
        }
        tracing::info!(
            "GPU builds of {} classes on {SORTERS} sorters: collect {:.1} s, sort {:.1} s, fill {:.1} s; the host threads waited {:.1} s for a sorter and read the trees back in {:.1} s",
            gpu_built.into_inner(),
            times.collect,
            times.sort,
            times.fill,
            sorter_wait_nanos.into_inner() as f64 * 1e-9,
            times.read_trees
        );
    }
    Ok((proof, report))
}

/// Gives a handed-over class's arena back to `pool`, and its bytes to
/// `budget`.
fn give_back(handover: Handover, pool: &ArenaPool, budget: &HostBudget) {
    budget.give(handover.budget_bytes);
    pool.give(handover.tree.into_arena());
}

/// The process's peak resident memory (Linux's `VmHWM`), in bytes; None
/// elsewhere.
fn peak_resident_bytes() -> Option<u64> {
    crate::handover::proc_bytes("/proc/self/status", "VmHWM:")
}

/// Path sorters a GPU proof builds its trees with (see `prove_on_gpu`'s
/// `path_sorters`).
const SORTERS: usize = 2;

/// A free sorter of `sorters` (not empty), or, where every one is busy, the
/// calling thread's own (by its id), waited for. A poisoned lock only
/// means another thread panicked, which ends the proof anyway.
fn lock_any(
    sorters: &[std::sync::Mutex<crate::gpu_build::GpuPathSorter>],
) -> Option<std::sync::MutexGuard<'_, crate::gpu_build::GpuPathSorter>> {
    for sorter in sorters {
        if let Ok(free) = sorter.try_lock() {
            return Some(free);
        }
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&std::thread::current().id(), &mut hasher);
    let own = std::hash::Hasher::finish(&hasher) as usize % sorters.len().max(1);
    Some(sorters.get(own)?.lock().unwrap_or_else(|e| e.into_inner()))
}

/// The GPU's thread: gathers handed-over classes into launches and hands
/// what they find to the adding-up thread ([`Adder`]).
struct Consumer<'a> {
    prover: GpuProver,
    settings: &'a ProofSettings,
    /// Where the arenas of classes not launched go back to the threads.
    pool: &'a ArenaPool,
    /// Counts the classes handed over until their arenas go back; a host
    /// thread waiting on it makes this thread launch what it holds.
    host_budget: &'a HostBudget,
    /// Copies the trees the host threads left to this thread, through
    /// page-locked staging as theirs: the driver's own staging of pageable
    /// copies slowed the host threads' copies beside it to 0.4 GB/s
    /// (docs/RESULTS.md).
    uploader: &'a ArenaUploader,
    started: Instant,
    /// Set by the adding-up thread when it failed: launch no more.
    adder_failed: &'a AtomicBool,
    report: GpuProofReport,
    complete: bool,
}

impl Consumer<'_> {
    /// Launches until the channel closes, handing each walked batch to
    /// `finished` (the adding-up thread). After an error (or the time
    /// limit, or the adding-up thread's error) it keeps receiving, so the
    /// threads handing over never block.
    fn run(
        &mut self,
        receiver: Receiver<(Handover, Option<DeviceArena>)>,
        finished: SyncSender<Finished>,
    ) -> Result<(), BoggleError> {
        // The adding-up thread drains its channel whatever happens: a send
        // fails only if it panicked, which its join reports.
        // A batch the adding-up thread cannot take is given back here: its
        // bytes would otherwise hold the host threads at the budget forever.
        let (pool, host_budget) = (self.pool, self.host_budget);
        let add_up = |done: Finished| {
            finished.send(done).map_err(|SendError(done)| {
                for handover in done.batch {
                    give_back(handover, pool, host_budget);
                }
                BoggleError::Config("the adding-up thread ended early".into())
            })
        };
        self.prover.gpu.ctx.bind_to_thread().map_err(gpu_error)?;
        let mut failure = None;
        // One batch a depth: a launch walks subclasses of one depth, and
        // classes split deeper arrive between the others.
        let mut pending: Vec<(usize, Pending)> = Vec::new();
        let mut in_flight: Option<InFlight> = None;
        let mut open = true;
        while open {
            // A host thread waiting for the host budget is the one case in
            // which this thread must not wait for a full batch: the bytes
            // it waits for are this thread's, or the launch in flight's.
            let mut wanted = false;
            let waiting = Instant::now();
            let received = receiver.recv_timeout(WANTED_POLL);
            self.prover.steps.idle += waiting.elapsed().as_secs_f64();
            match received {
                Ok((handover, device)) => {
                    let depth = handover.depth;
                    let index = match pending.iter().position(|(d, _)| *d == depth) {
                        Some(index) => index,
                        None => {
                            pending.push((depth, Pending::default()));
                            pending.len() - 1
                        }
                    };
                    pending[index].1.push(handover, device);
                }
                Err(RecvTimeoutError::Timeout) => {
                    if !self.host_budget.is_wanted() {
                        continue;
                    }
                    wanted = true;
                }
                Err(RecvTimeoutError::Disconnected) => open = false,
            }
            if pending.iter().all(|(_, p)| p.batch.is_empty()) {
                if wanted {
                    if let Some(last) = in_flight.take() {
                        self.finish(last, &mut failure, &add_up);
                    }
                }
                continue;
            }
            for (depth, batch) in &mut pending {
                let due = !open || wanted || batch.is_full();
                if batch.batch.is_empty() || !due {
                    continue;
                }
                let ready = std::mem::take(batch);
                self.launch_or_give_back(ready, *depth, &mut in_flight, &mut failure, &add_up);
            }
        }
        if let Some(last) = in_flight.take() {
            self.finish(last, &mut failure, &add_up);
        }
        let t = &self.prover.steps;
        tracing::info!(
            "the GPU thread's seconds by step: idle {:.1}, records {:.1}, their copies {:.1}, queueing kernels {:.1}, read-backs {:.1}, relaunches {:.1} (their read-backs counted in both), releasing {:.1}, handing on {:.1}",
            t.idle, t.pack, t.htod, t.queue, t.dtoh, t.relaunch, t.release, t.hand_on
        );
        failure.map_or(Ok(()), Err)
    }

    /// Launches `ready` (subclasses of `depth` positions), the launch in
    /// flight read back and handed to the adding-up thread; past the time
    /// limit or after a failure (kept in `failure`) gives its arenas back
    /// instead.
    fn launch_or_give_back(
        &mut self,
        ready: Pending,
        depth: usize,
        in_flight: &mut Option<InFlight>,
        failure: &mut Option<BoggleError>,
        add_up: &impl Fn(Finished) -> Result<(), BoggleError>,
    ) {
        if self.settings.past_limit(self.started) {
            self.complete = false;
        } else if failure.is_none() && !self.adder_failed.load(Ordering::Relaxed) {
            // This batch's trees are copied while the last batch's kernel
            // runs; then that kernel's results are read, this batch's
            // kernel starts, and the last batch is added up on the
            // adding-up thread while it runs.
            match self.start(ready.batch, ready.devices, depth, in_flight.take()) {
                Ok((started, done)) => {
                    *in_flight = Some(started);
                    if let Some(done) = done {
                        let handing = Instant::now();
                        if let Err(e) = add_up(done) {
                            *failure = Some(e);
                        }
                        self.prover.steps.hand_on += handing.elapsed().as_secs_f64();
                    }
                }
                Err(e) => *failure = Some(e),
            }
            return;
        }
        for handover in ready.batch {
            give_back(handover, self.pool, self.host_budget);
        }
    }

    /// Waits for `last`'s kernel, reads it back and hands it to the
    /// adding-up thread; after a failure (kept in `failure`) gives its
    /// arenas back instead.
    fn finish(
        &mut self,
        last: InFlight,
        failure: &mut Option<BoggleError>,
        add_up: &impl Fn(Finished) -> Result<(), BoggleError>,
    ) {
        // Waiting for the kernel and reading it back counts as the launch's
        // time, as it does for every other batch in `start`.
        let reading_started = Instant::now();
        let done = self.prover.results(last.launched, &mut self.report);
        self.report.launch_seconds += reading_started.elapsed().as_secs_f64();
        match done {
            Ok(walked) if failure.is_none() => {
                if let Err(e) = add_up(Finished {
                    batch: last.batch,
                    walked,
                }) {
                    *failure = Some(e);
                }
                return;
            }
            Ok(_) => {}
            Err(e) => {
                failure.get_or_insert(e);
            }
        }
        for handover in last.batch {
            give_back(handover, self.pool, self.host_budget);
        }
    }

    /// Copies `batch` to the GPU (while the kernel of `last`, if any, still
    /// runs), starts `batch`'s kernel on the other compute stream and reads
    /// `last`'s results: returns the launch now in flight and `last`,
    /// walked, for the adding-up thread.
    fn start(
        &mut self,
        batch: Vec<Handover>,
        devices: Vec<Option<DeviceArena>>,
        depth: usize,
        last: Option<InFlight>,
    ) -> Result<(InFlight, Option<Finished>), BoggleError> {
        let launch_started = Instant::now();
        let copies = CopyStats::default();
        let devices = batch
            .iter()
            .zip(devices)
            .map(|(handover, device)| {
                device.or_else(|| self.uploader.upload(handover.tree.arena(), None, &copies))
            })
            .collect();
        let uploaded = self
            .prover
            .upload(&batch, devices, depth, &mut self.report)?;
        self.report.upload_seconds += copies.seconds();
        self.report.uploaded_bytes += copies.bytes();
        // Queued on the other compute stream before the last launch is
        // read back: its warps start as the last kernel's tail frees SMs.
        let launched = self.prover.launch(uploaded, depth, self.settings.target)?;
        let done = match last {
            Some(last) => Some(Finished {
                walked: self.prover.results(last.launched, &mut self.report)?,
                batch: last.batch,
            }),
            None => None,
        };
        self.report.launch_seconds += launch_started.elapsed().as_secs_f64();
        Ok((InFlight { batch, launched }, done))
    }
}

/// Classes received by the GPU's thread and not yet launched, all handed
/// over at one depth.
#[derive(Default)]
struct Pending {
    batch: Vec<Handover>,
    /// Per class, its arena on the device if the host thread copied it.
    devices: Vec<Option<DeviceArena>>,
    items: usize,
    words: usize,
}

impl Pending {
    fn push(&mut self, handover: Handover, device: Option<DeviceArena>) {
        self.items += handover.item_count();
        self.words += handover.tree.arena().len();
        self.batch.push(handover);
        self.devices.push(device);
    }

    /// Whether the batch is large enough to launch.
    fn is_full(&self) -> bool {
        self.items >= BATCH_ITEMS || self.words >= BATCH_WORDS
    }
}

/// A launch whose kernel may still run, with the batch it walks.
struct InFlight {
    batch: Vec<Handover>,
    launched: Launched,
}

/// A batch and what its launch sent back, to add up.
struct Finished {
    batch: Vec<Handover>,
    walked: Walked,
}

/// One launch's inputs on the device (see [`GpuProver::upload`]).
struct Uploaded {
    /// The arenas the host threads copied, which `trees` point into:
    /// kept until the kernel is done with them.
    arenas: Vec<DeviceArena>,
    /// The same for the arenas copied by the GPU's thread.
    own: Vec<CudaSlice<u32>>,
    /// Per tree: its arena's device address.
    trees: CudaSlice<u64>,
    roots: CudaSlice<u32>,
    masks: CudaSlice<u32>,
    items: CudaSlice<u32>,
    /// The same subclasses on the host, for relaunching some of them.
    items_host: Vec<u32>,
    /// The same letter sets on the host, for splitting some of them.
    masks_host: Vec<u32>,
    /// Per tree, its class (an index into `class_letters`).
    tree_classes: Vec<u32>,
    /// Per class of the launch, its letters cell by cell as `--json`
    /// names classes, for the log when its subclasses overflow.
    class_letters: Vec<String>,
    count: usize,
}

/// A launch: its inputs, kept alive until its kernels are done with them,
/// and its first kernel.
struct Launched {
    inputs: Uploaded,
    kernel: KernelRun,
    depth: usize,
    target: u32,
}

/// One kernel's buffers, read back by [`GpuProver::read_back`].
struct KernelRun {
    count: usize,
    subclasses: CudaSlice<u64>,
    status: CudaSlice<u32>,
    boards: CudaSlice<u32>,
    board_count: CudaSlice<u32>,
    start: CudaEvent,
    end: CudaEvent,
    /// The compute stream it runs on.
    turn: usize,
}

/// What one kernel sent back: per subclass its count and status, and the
/// boards (`BOARD_WORDS` each).
struct ReadBack {
    subclasses: Vec<u64>,
    status: Vec<u32>,
    boards: Vec<u32>,
}

/// A class's letters, cell by cell, as `--json` names classes
/// (`class_letters`), from its letter sets in split `order`.
fn class_letters(order: &[usize], masks: &[u32]) -> String {
    let mut by_cell = vec![0; masks.len()];
    for (&cell, &mask) in order.iter().zip(masks) {
        if let Some(slot) = by_cell.get_mut(cell) {
            *slot = mask;
        }
    }
    by_cell
        .iter()
        .map(|&mask| letters_of(mask))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one launch sent back.
struct Walked {
    /// Per subclass handed over: subclasses bounded below it.
    subclasses: Vec<u64>,
    /// Per subclass: `ITEM_DONE`, or why the CPU must walk it.
    status: Vec<u32>,
    /// `BOARD_WORDS` per board.
    boards: Vec<u32>,
    /// The launch's number, and the kernels' seconds up to it (for the
    /// adding-up thread's log).
    launch: u64,
    kernel_seconds_so_far: f64,
}

/// Lets the device's default memory pool keep what is freed. Each launch's
/// buffers and every tree copied to the device are allocated in stream
/// order from that pool, which by default hands freed memory back to the
/// driver at every synchronization, so that the next allocation maps it
/// again. Best effort: a device without the pool allocates as before.
fn keep_freed_memory(gpu: &Gpu) {
    use frontier_core::gpu::cudarc::driver::sys;
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    let mut threshold = u64::MAX;
    // SAFETY: `pool` is written by the driver before it is read; the
    // attribute's value is a u64, as the driver expects for this one.
    let kept = unsafe {
        sys::cuDeviceGetDefaultMemPool(&mut pool, gpu.ctx.cu_device())
            .result()
            .and_then(|()| {
                sys::cuMemPoolSetAttribute(
                    pool,
                    sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                    (&mut threshold as *mut u64).cast(),
                )
                .result()
            })
    };
    if let Err(e) = kept {
        tracing::debug!("the device's memory pool gives freed memory back: {e}");
    }
}

/// The walk kernel's source for boards of `cells` cells and stacks of
/// `capacity` choice nodes a position; no device is needed to make it.
fn prove_source(cells: usize, capacity: usize) -> String {
    let mut src = String::new();
    let _ = writeln!(
        src,
        "#define CELLS {cells}\n#define CAP {capacity}\n#define WARPS {WARPS}"
    );
    src += SOURCE;
    src
}

/// The kernel and its per-warp scratch on one GPU.
struct GpuProver {
    gpu: Gpu,
    /// Where the next launch's inputs are copied while a kernel runs.
    upload_stream: Arc<CudaStream>,
    /// Launches take turns on two compute streams, each with its own
    /// scratch: the next launch is queued before the last one is read
    /// back, so its warps take the SMs that the last launch's tail leaves
    /// idle (a launch's last items run on few warps: the SMs were active
    /// 73% of a launch's cycles, "Profile of the kernel" in
    /// docs/RESULTS.md), and the read-back and relaunches of one overlap
    /// the other's kernel.
    compute: [Arc<CudaStream>; 2],
    scratch: [CudaSlice<u32>; 2],
    /// The compute stream of the next launch.
    turn: usize,
    /// The end of the latest kernel added to `kernel_seconds`, so that
    /// overlapping kernels count once.
    last_end: Option<CudaEvent>,
    kernel: CudaFunction,
    blocks: u32,
    cells: usize,
    /// Boards one kernel can send back.
    board_capacity: usize,
    /// Where the GPU's thread spends its time, step by step.
    steps: ThreadSteps,
}

/// The GPU thread's seconds by step, logged at the end of a proof. On 4x4
/// classes the thread is busy nearly all the time, but it is not what
/// bounds the proof: with the thread's own steps cut from 61 to 19 s of
/// seed 3's 100 s share, the host threads built and merged more at once
/// on the GPU, and the walk's kernel and the builds slowed each other
/// (docs/RESULTS.md, "The GPU thread's steps").
#[derive(Default)]
struct ThreadSteps {
    /// Waiting for a handover (the thread idle).
    idle: f64,
    /// Laying a batch's subclasses out as the kernel's records, and
    /// copying the trees the host threads left to this thread (none in
    /// the runs of docs/RESULTS.md: `uploaded_bytes` was 0).
    pack: f64,
    /// Copying a batch's records, roots, masks and tree addresses.
    htod: f64,
    /// Allocating a launch's buffers and queueing its kernel.
    queue: f64,
    /// Reading back a kernel's counts, statuses and boards, after it ended.
    dtoh: f64,
    /// Relaunches of the subclasses that found the board buffer full:
    /// their kernels, waits and read-backs, which `dtoh` (and the report's
    /// kernel wait) count too.
    relaunch: f64,
    /// Dropping a walked launch's device buffers and arenas.
    release: f64,
    /// Handing a walked batch to the adding-up thread.
    hand_on: f64,
}

/// Blocks of the walk's per SM left out for the builds' and merges'
/// kernels when the GPU builds trees: on seed 1's 256 4x4 classes (one
/// H200, 16 host threads) 2 of 9 took the projection from 27.0 to 24.2
/// GPU-hours with the merges on the GPU, and from 30.3 to 27.1 without.
const BUILD_ROOM_BLOCKS: u32 = 2;

impl GpuProver {
    fn new(cells: usize, options: &GpuProofOptions) -> Result<GpuProver, BoggleError> {
        let gpu = Gpu::open(options.ordinal)?;
        keep_freed_memory(&gpu);
        // A second stream turns on the context's event tracking, which
        // orders the kernels after the copies of their inputs.
        let upload_stream = gpu.ctx.new_stream().map_err(gpu_error)?;
        let capacity = options.stack_capacity;
        let module = gpu.module(&prove_source(cells, capacity))?;
        let kernel = module.load_function("prove_items").map_err(gpu_error)?;
        let occupancy = kernel
            .occupancy_max_active_blocks_per_multiprocessor(WARPS * 32, 0, None)
            .map_err(gpu_error)?
            .max(1);
        let sms = gpu
            .ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(gpu_error)? as u32;
        let warp_words = (cells + 1) * cells * 32 + cells * capacity;
        // Every SM full, the two scratches in at most a quarter of the
        // free memory.
        let (free, _) = gpu.memory()?;
        let fit = (free / 8 / (warp_words * 4 * WARPS as usize)).max(1) as u32;
        // The walk's blocks stay until its launch is done, and at full
        // occupancy they hold every register: the builds' and merges'
        // kernels, which a host thread waits on, then wait for a launch to
        // end, whatever their priority. Leaving them room cost the walk
        // less than it saved them (docs/RESULTS.md, "The merges on the
        // GPU").
        let room = if options.build == GpuBuild::Host {
            0
        } else {
            BUILD_ROOM_BLOCKS
        };
        let blocks = (sms * occupancy.saturating_sub(room).max(1)).min(fit);
        tracing::info!(
            "boggle prove kernel: {} registers, {blocks} blocks of {WARPS} warps ({occupancy} per SM), {} MB scratch a stream",
            kernel.num_regs().unwrap_or(-1),
            (blocks as usize * WARPS as usize * warp_words * 4) >> 20
        );
        // Streams of their own: the context's default stream is the legacy
        // one, which other blocking streams would wait for.
        let compute = [
            gpu.ctx.new_stream().map_err(gpu_error)?,
            gpu.ctx.new_stream().map_err(gpu_error)?,
        ];
        let scratch_words = blocks as usize * WARPS as usize * warp_words;
        let scratch = [
            compute[0]
                .alloc_zeros::<u32>(scratch_words)
                .map_err(gpu_error)?,
            compute[1]
                .alloc_zeros::<u32>(scratch_words)
                .map_err(gpu_error)?,
        ];
        Ok(GpuProver {
            gpu,
            upload_stream,
            compute,
            scratch,
            turn: 0,
            last_end: None,
            kernel,
            blocks,
            cells,
            board_capacity: options.board_capacity,
            steps: ThreadSteps::default(),
        })
    }

    /// Copies `batch`'s trees and subclasses to the device on the upload
    /// stream, so that the copy overlaps the kernels still running (the
    /// context tracks which buffer each stream wrote); the next launch's
    /// compute stream waits for the copies.
    fn upload(
        &mut self,
        batch: &[Handover],
        devices: Vec<Option<DeviceArena>>,
        depth: usize,
        report: &mut GpuProofReport,
    ) -> Result<Uploaded, BoggleError> {
        let upload_started = Instant::now();
        let s = self.upload_stream.clone();
        let compute = self.compute[self.turn].clone();
        let mut arenas = Vec::with_capacity(batch.len());
        let mut own = Vec::new();
        // The kernel's "classes" are trees: each group's, in its class's
        // arena (a class's own tree, or one of its forced trees).
        let mut trees = Vec::with_capacity(batch.len());
        let mut roots = Vec::with_capacity(batch.len());
        let mut masks = Vec::with_capacity(batch.len() * self.cells);
        let mut items = Vec::new();
        let mut tree_classes = Vec::with_capacity(batch.len());
        let class_letters = batch
            .iter()
            .map(|handover| class_letters(&handover.order, &handover.masks))
            .collect();
        for (class, (handover, device)) in batch.iter().zip(devices).enumerate() {
            // The class's arena on the device, copied by the host thread
            // that handed it over or here; the kernel's stream waits for
            // the copy (its write event), wherever it was made.
            let pointer = match device {
                Some(device) => {
                    let pointer = device.words.device_ptr(&compute).0;
                    arenas.push(device);
                    pointer
                }
                None => {
                    let tree = handover.tree.arena();
                    // SAFETY: the copy writes every word before the kernel
                    // (ordered after it by the slice's write event) reads.
                    let mut words =
                        unsafe { s.alloc::<u32>(tree.len().max(1)) }.map_err(gpu_error)?;
                    s.memcpy_htod(tree, &mut words).map_err(gpu_error)?;
                    report.uploaded_bytes += tree.len() as u64 * 4;
                    let pointer = words.device_ptr(&compute).0;
                    own.push(words);
                    pointer
                }
            };
            for group in &handover.groups {
                let tree = roots.len() as u32;
                tree_classes.push(class as u32);
                trees.push(pointer);
                roots.push(group.root);
                masks.extend_from_slice(&handover.masks);
                for letters in group.items.chunks_exact(depth) {
                    let mut record = [0u32; ITEM_WORDS];
                    record[0] = tree;
                    for (i, &letter) in letters.iter().enumerate() {
                        record[1 + i / 4] |= u32::from(letter) << (8 * (i % 4));
                    }
                    items.extend_from_slice(&record);
                }
            }
        }
        let count = items.len() / ITEM_WORDS;
        let copies_started = Instant::now();
        self.steps.pack += (copies_started - upload_started).as_secs_f64();
        tracing::debug!(
            "GPU launch: {} classes ({} copied here), {count} subclasses",
            batch.len(),
            own.len()
        );
        let uploaded = Uploaded {
            arenas,
            own,
            trees: s.clone_htod(&trees).map_err(gpu_error)?,
            roots: s.clone_htod(&roots).map_err(gpu_error)?,
            masks: s.clone_htod(&masks).map_err(gpu_error)?,
            items: s.clone_htod(&items).map_err(gpu_error)?,
            items_host: items,
            masks_host: masks,
            tree_classes,
            class_letters,
            count,
        };
        report.upload_seconds += upload_started.elapsed().as_secs_f64();
        self.steps.htod += copies_started.elapsed().as_secs_f64();
        Ok(uploaded)
    }

    /// Starts the kernel over every subclass of `inputs` on this turn's
    /// compute stream, without waiting for it; the next launch takes the
    /// other stream.
    fn launch(
        &mut self,
        inputs: Uploaded,
        depth: usize,
        target: u32,
    ) -> Result<Launched, BoggleError> {
        let turn = self.turn;
        self.turn = 1 - turn;
        let queued = Instant::now();
        let kernel = self.run_kernel(&inputs, &inputs.items, inputs.count, depth, target, turn)?;
        self.steps.queue += queued.elapsed().as_secs_f64();
        Ok(Launched {
            inputs,
            kernel,
            depth,
            target,
        })
    }

    /// Starts the kernel over the `count` subclasses `items` of `inputs`'
    /// trees on compute stream `turn`, without waiting for it.
    fn run_kernel(
        &mut self,
        inputs: &Uploaded,
        items: &CudaSlice<u32>,
        count: usize,
        depth: usize,
        target: u32,
        turn: usize,
    ) -> Result<KernelRun, BoggleError> {
        let s = self.compute[turn].clone();
        let mut next = s.alloc_zeros::<u32>(1).map_err(gpu_error)?;
        let mut subclasses = s.alloc_zeros::<u64>(count).map_err(gpu_error)?;
        let mut status = s.alloc_zeros::<u32>(count).map_err(gpu_error)?;
        let mut boards = s
            .alloc_zeros::<u32>(self.board_capacity * BOARD_WORDS)
            .map_err(gpu_error)?;
        let mut board_count = s.alloc_zeros::<u32>(1).map_err(gpu_error)?;
        // `board_capacity` fits a u32 (checked in `prove_on_gpu`).
        let (count32, depth32, capacity) = (count as u32, depth as u32, self.board_capacity as u32);
        let timing = Some(CUevent_flags::CU_EVENT_DEFAULT);
        let start = s.record_event(timing).map_err(gpu_error)?;
        let mut launch = s.launch_builder(&self.kernel);
        launch
            .arg(&inputs.trees)
            .arg(&inputs.roots)
            .arg(&inputs.masks)
            .arg(items)
            .arg(&count32)
            .arg(&depth32)
            .arg(&target)
            .arg(&mut next)
            .arg(&mut self.scratch[turn])
            .arg(&mut subclasses)
            .arg(&mut status)
            .arg(&mut boards)
            .arg(&mut board_count)
            .arg(&capacity);
        let config = LaunchConfig {
            grid_dim: (self.blocks, 1, 1),
            block_dim: (WARPS * 32, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the arguments match `prove_items`; `scratch[turn]` holds
        // the per-warp words of `blocks * WARPS` warps (no other kernel
        // uses it meanwhile: only stream `turn`'s), every per-item buffer
        // `count` entries, `boards` `board_capacity` boards, and every
        // tree offset the kernel follows stays inside its class's arena,
        // whose address `trees` holds. The inputs, written on the upload
        // stream or the host threads' streams, are waited for by the
        // compute stream (the context's event tracking, on since the
        // upload stream was made; the arenas' waits were placed by
        // `upload`).
        unsafe { launch.launch(config) }.map_err(gpu_error)?;
        // The kernel reads the arenas through addresses, not arguments:
        // their read events go after it, so that freeing one waits for it.
        for words in inputs
            .arenas
            .iter()
            .map(|arena| &arena.words)
            .chain(&inputs.own)
        {
            drop(words.device_ptr(&s));
        }
        let end = s.record_event(timing).map_err(gpu_error)?;
        Ok(KernelRun {
            count,
            subclasses,
            status,
            boards,
            board_count,
            start,
            end,
            turn,
        })
    }

    /// Waits for `launched`'s kernel and reads back what it found. The
    /// subclasses that found the board buffer full are walked again on the
    /// GPU with an empty one until each is done ([`Relaunch`]).
    fn results(
        &mut self,
        launched: Launched,
        report: &mut GpuProofReport,
    ) -> Result<Walked, BoggleError> {
        let Launched {
            inputs,
            kernel,
            depth,
            target,
        } = launched;
        // The relaunches run on the launch's own stream and scratch.
        let turn = kernel.turn;
        report.handed_over += kernel.count as u64;
        let mut read = self.read_back(kernel, report)?;
        report.launches += 1;
        let warps = self.blocks as usize * WARPS as usize;
        let mut relaunch = Relaunch::new(&mut read, &inputs.items_host, depth, warps);
        if !relaunch.is_empty() {
            let mut classes: Vec<u32> = relaunch
                .trees()
                .filter_map(|tree| inputs.tree_classes.get(tree as usize).copied())
                .collect();
            classes.sort_unstable();
            classes.dedup();
            let letters: Vec<&str> = classes
                .iter()
                .filter_map(|&class| inputs.class_letters.get(class as usize))
                .map(String::as_str)
                .collect();
            tracing::info!(
                "GPU launch {}: {} subclasses found the board buffer full, of the classes {letters:?}",
                report.launches,
                relaunch.len()
            );
        }
        let relaunch_started = Instant::now();
        while !relaunch.is_empty() {
            let (count, relaunch_depth) = (relaunch.len(), relaunch.depth());
            let items = self.compute[turn]
                .clone_htod(&relaunch.records())
                .map_err(gpu_error)?;
            let kernel = self.run_kernel(&inputs, &items, count, relaunch_depth, target, turn)?;
            let again = self.read_back(kernel, report)?;
            report.relaunched += count as u64;
            relaunch.fold(&mut read, again, &inputs.masks_host, self.cells);
            tracing::info!(
                "GPU launch {}: {count} subclasses of depth {relaunch_depth} found the board buffer full, walked again; {} left at depth {}",
                report.launches,
                relaunch.len(),
                relaunch.depth()
            );
        }
        self.steps.relaunch += relaunch_started.elapsed().as_secs_f64();
        let released = Instant::now();
        drop(relaunch);
        drop(inputs);
        self.steps.release += released.elapsed().as_secs_f64();
        Ok(Walked {
            subclasses: read.subclasses,
            status: read.status,
            boards: read.boards,
            launch: report.launches,
            kernel_seconds_so_far: report.kernel_seconds,
        })
    }

    /// Waits for `kernel` and reads back what it found.
    fn read_back(
        &mut self,
        launched: KernelRun,
        report: &mut GpuProofReport,
    ) -> Result<ReadBack, BoggleError> {
        let s = self.compute[launched.turn].clone();
        let waited = Instant::now();
        let found = s.clone_dtoh(&launched.board_count).map_err(gpu_error)?;
        report.kernel_wait_seconds += waited.elapsed().as_secs_f64();
        let read_started = Instant::now();
        let found = (found.first().copied().unwrap_or(0) as usize).min(self.board_capacity);
        let boards = if found == 0 {
            Vec::new()
        } else {
            s.clone_dtoh(&launched.boards.slice(..found * BOARD_WORDS))
                .map_err(gpu_error)?
        };
        let subclasses = s.clone_dtoh(&launched.subclasses).map_err(gpu_error)?;
        let status = s.clone_dtoh(&launched.status).map_err(gpu_error)?;
        self.steps.dtoh += read_started.elapsed().as_secs_f64();
        let ms = launched
            .start
            .elapsed_ms(&launched.end)
            .map_err(gpu_error)?;
        // Kernels are read back in the order they were queued, so the part
        // of this one before the latest end read so far ran beside an
        // earlier kernel, and is counted once. (A launch's relaunches run
        // beside the next launch's kernel after a gap for the read-back:
        // those gaps, a few milliseconds, are not counted.) An end before
        // this start is no overlap, whether the driver gives a negative
        // time or an error for it.
        let overlap = self.last_end.as_ref().map_or(0.0, |last_end| {
            launched
                .start
                .elapsed_ms(last_end)
                .unwrap_or(0.0)
                .clamp(0.0, ms)
        });
        report.kernel_seconds += f64::from(ms - overlap) / 1e3;
        let later = match &self.last_end {
            Some(last_end) => launched
                .end
                .elapsed_ms(last_end)
                .map_or(true, |after| after <= 0.0),
            None => true,
        };
        if later {
            self.last_end = Some(launched.end);
        }
        Ok(ReadBack {
            subclasses,
            status,
            boards,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GpuProofReport;

    #[test]
    fn a_choice_is_read_by_name_and_an_unknown_name_lists_them_all() {
        use super::{DeeperSplit, GpuBuild, HostCopies};
        assert_eq!("every-other".parse(), Ok(DeeperSplit::EveryOther));
        assert_eq!("paths".parse(), Ok(GpuBuild::Paths));
        assert_eq!("queue-full".parse(), Ok(HostCopies::WhenQueueFull));
        assert_eq!(
            "Tree".parse::<GpuBuild>(),
            Err("GPU build \"Tree\": `tree`, `merges`, `paths` or `host`".to_string())
        );
        assert_eq!(
            "".parse::<DeeperSplit>(),
            Err("deeper split \"\": `when-behind`, `never` or `every-other`".to_string())
        );
        assert_eq!(
            super::named_choice("one", "x", &[("only", 1)]),
            Err("one \"x\": `only`".to_string())
        );
    }

    #[test]
    fn a_class_is_named_cell_by_cell_whatever_its_split_order() {
        // Split order: cell 2, then 0, then 1.
        let masks = [0b1, 0b110, 1 << 25];
        assert_eq!(super::class_letters(&[2, 0, 1], &masks), "bc z a");
    }

    fn report(host: f64, waiting: f64, kernel: f64) -> GpuProofReport {
        GpuProofReport {
            host_class_seconds: host,
            handover_wait_seconds: waiting,
            kernel_seconds: kernel,
            ..GpuProofReport::default()
        }
    }

    /// Every Boggle kernel compiles for Hopper on every shape the tests and
    /// proofs use, with NVRTC alone (no GPU needed): a kernel edited on a
    /// machine without one is checked before device time is spent on it.
    #[test]
    fn every_boggle_kernel_compiles_without_a_gpu() {
        use crate::board::Shape;
        use crate::dict::WordList;
        use crate::trie::Trie;
        let trie = Trie::build(&WordList::parse(b"tree\nquit\nstreets\nqueen\n"));
        for (rows, cols) in [(2, 2), (3, 3), (3, 4), (4, 4), (5, 5)] {
            let shape = Shape::new(rows, cols);
            let sources = [
                ("walk", super::prove_source(shape.cells(), 2048)),
                (
                    "scorer",
                    crate::gpu::scorer_source(&shape, trie.nodes()).source,
                ),
                ("path sorter", crate::gpu_build::build_source(&shape)),
            ];
            for (kernel, source) in sources {
                let compiled = frontier_core::gpu::compile_only(&source, "sm_90");
                if !frontier_core::gpu::checked_unless_no_nvrtc(compiled)
                    .unwrap_or_else(|e| panic!("the {kernel} kernel for {rows}x{cols}: {e}"))
                {
                    return;
                }
            }
        }
    }

    /// `auto` resolves to copying every tree from 32 host threads up, or
    /// where the GPU builds some of the trees; chosen modes stay as they are.
    #[test]
    fn auto_host_copies_copy_every_tree_from_32_threads_up_or_with_gpu_builds() {
        use super::{GpuBuild, HostCopies, ALWAYS_FROM_THREADS};
        assert_eq!(HostCopies::default(), HostCopies::Auto);
        assert_eq!(GpuBuild::default(), GpuBuild::Merges);
        assert_eq!(HostCopies::Auto.for_threads(16), HostCopies::WhenQueueFull);
        assert_eq!(
            HostCopies::Auto.for_proof(16, GpuBuild::Host),
            HostCopies::WhenQueueFull
        );
        for build in [GpuBuild::Tree, GpuBuild::Merges, GpuBuild::Paths] {
            assert_eq!(HostCopies::Auto.for_proof(16, build), HostCopies::Always);
        }
        assert_eq!(
            HostCopies::Auto.for_proof(64, GpuBuild::Host),
            HostCopies::Always
        );
        for chosen in [HostCopies::Never, HostCopies::WhenQueueFull] {
            assert_eq!(chosen.for_proof(16, GpuBuild::Tree), chosen);
        }
        assert_eq!(
            HostCopies::Auto.for_threads(ALWAYS_FROM_THREADS - 1),
            HostCopies::WhenQueueFull
        );
        assert_eq!(
            HostCopies::Auto.for_threads(ALWAYS_FROM_THREADS),
            HostCopies::Always
        );
        assert_eq!(HostCopies::Auto.for_threads(64), HostCopies::Always);
        // A choice made is kept, whatever the threads.
        for chosen in [
            HostCopies::Never,
            HostCopies::WhenQueueFull,
            HostCopies::Always,
        ] {
            assert_eq!(chosen.for_threads(1), chosen);
            assert_eq!(chosen.for_threads(128), chosen);
        }
        assert_eq!("auto".parse(), Ok(HostCopies::Auto));
        assert_eq!("queue-full".parse(), Ok(HostCopies::WhenQueueFull));
        let refused = "sometimes".parse::<HostCopies>().unwrap_err();
        assert!(refused.contains("`auto`"), "{refused}");
    }

    #[test]
    fn threads_to_keep_the_kernel_busy_count_busy_host_time_only() {
        // 1,024 classes on one H200 (docs/RESULTS.md, machine I): 2,393.0
        // thread-seconds on classes, 0.1 of them waiting, 56.2 s of kernel.
        let threads = report(2393.0, 0.1, 56.2)
            .threads_to_keep_kernel_busy()
            .unwrap_or(0.0);
        assert!((threads - 42.58).abs() < 0.01, "{threads}");
        // Waiting is not work: a host that waited half its time needs half
        // the threads.
        assert_eq!(
            report(100.0, 50.0, 10.0).threads_to_keep_kernel_busy(),
            Some(5.0)
        );
        assert_eq!(report(100.0, 0.0, 0.0).threads_to_keep_kernel_busy(), None);
    }
}
