//! IDA* on every GPU of a host (framework/kernels/ida.cu): memory-bounded, for the
//! instances whose best-first frontier no GPU holds (the 24-puzzle).
//!
//! The start is split on the CPU into subtree roots (the best-first tree
//! search of [`mod@crate::search::ida`]); the roots are dealt to the GPUs in
//! turn, so each gets a share of every f-layer. In every iteration each GPU
//! searches its roots under the bound the GPUs agreed on (the smallest f
//! that exceeded the last one, over all GPUs); the first goal found ends
//! the search and is optimal with an admissible heuristic. When a GPU's
//! roots run out, its idle threads take subtrees that busy threads donate
//! (the shallowest frame with children left, through a queue in device
//! memory), so an iteration does not wait on a few big subtrees. Kernel launches
//! are kept to time slices (a thread's depth-first stack lives in device
//! memory and survives between launches), so limits and progress work
//! however long an iteration takes, and checkpoints (shared with the CPU
//! executor: a bound proven on one holds on the other) resume an
//! interrupted search at its last completed bound.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use cudarc::driver::{sys, CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use serde::{Deserialize, Serialize};

use super::{replay, GpuPlugin, PRELUDE};
use crate::domain::{Cost, Heuristic, InPlace, PackedState};
use crate::gpu::{device_count, gpu_error, Gpu};
use crate::search::ida::{
    begin, split_automaton, watch_iteration, Begun, Segments, Split, DEFAULT_SEGMENT_SECONDS,
};
use crate::search::move_pruning::{MovePruning, PRUNED};
use crate::search::{DomainOutcome, Limit, Outcome, SearchOptions, Status};
use crate::Error;

const ENGINE: &str = include_str!("../../../kernels/ida.cu");

/// Control words: the `IC_*` defines in framework/kernels/ida.cu.
const IC_NEXT_ROOT: usize = 0;
const IC_MIN_F: usize = 1;
const IC_EXPANDED: usize = 2;
const IC_GENERATED: usize = 3;
const IC_FOUND: usize = 4;
const IC_OVERFLOW: usize = 5;
const IC_BUSY: usize = 6;
const IC_HUNGRY: usize = 7;
const IC_HEAD: usize = 8;
const IC_TAIL: usize = 9;
const IC_DONATED: usize = 10;
const IC_WORDS: usize = 12;
const NOT_FOUND: u64 = u64::MAX;
const HAS_PARENT: u32 = 0x8000_0000;
const BLOCK: u32 = 128;
/// Donated subtrees the queue holds at most, per GPU.
const QUEUE_SLOTS: u32 = 16384;

/// Parameters of [`gpu_ida`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpuIdaConfig {
    /// Which GPUs (device ordinals); empty means every GPU of the host.
    pub devices: Vec<usize>,
    /// Subtree roots the start is split into (on the CPU), over all GPUs:
    /// many more than threads, so that big subtrees balance out.
    pub roots: usize,
    /// Depth-first searches at once per GPU (0: as many as the GPU keeps
    /// resident), fewer where the stacks would not fit the memory share or
    /// the GPU cannot keep them all resident (idle threads wait for
    /// donated subtrees, so every thread must run at once).
    pub threads: u32,
    /// Frames per stack: the deepest path below a root. A deeper one stops
    /// the search with an error naming this parameter.
    pub max_depth: u32,
    /// Share of free device memory for the stacks.
    pub memory_fraction: f64,
    /// Seconds per kernel launch, between which limits are checked and
    /// progress reported.
    pub slice_seconds: f64,
    /// Checkpoint directory, as in [`crate::search::ida::IdaConfig`].
    pub checkpoint: Option<PathBuf>,
    /// With a checkpoint: seconds between checkpoints inside an
    /// iteration, as in [`crate::search::ida::IdaConfig`].
    pub segment_seconds: f64,
    /// What decides the answer besides the start, as in
    /// [`crate::search::ida::IdaConfig::context`].
    #[serde(skip)]
    pub context: String,
    /// Move pruning, as in [`crate::search::ida::IdaConfig::move_pruning`]:
    /// through [`gpu_ida_in_place`], for domains that describe their move
    /// contexts.
    pub move_pruning: usize,
    /// A GPU beam of this width runs first (0: none), and its solution is
    /// the incumbent, as in [`crate::search::ida::IdaConfig::incumbent_beam`].
    pub incumbent_beam: u64,
    /// As in [`crate::search::ida::IdaConfig::ceiling`].
    #[serde(skip)]
    pub ceiling: Option<Cost>,
}

impl Default for GpuIdaConfig {
    fn default() -> Self {
        GpuIdaConfig {
            devices: Vec::new(),
            roots: 1 << 20,
            threads: 0,
            max_depth: 160,
            memory_fraction: 0.5,
            slice_seconds: 0.25,
            checkpoint: None,
            segment_seconds: DEFAULT_SEGMENT_SECONDS,
            context: String::new(),
            move_pruning: 0,
            incumbent_beam: 0,
            ceiling: None,
        }
    }
}

/// Move pruning on the GPUs: the automaton, its state at every node of a
/// split ([`split_automaton`]: each root starts there, or is skipped), and
/// each context's witness with the child the plugin must make for each op
/// number.
struct GpuPruning<'a, D: PackedState> {
    automaton: std::sync::Arc<MovePruning>,
    at_split: AtSplit<'a, D>,
    witnesses: Vec<Witness>,
}

/// [`split_automaton`] for a domain known to be [`InPlace`].
type AtSplit<'a, D> = Box<dyn Fn(&MovePruning, &Split<D>) -> Vec<u32> + Sync + 'a>;

/// A context's witness, packed, and its child for each op number (`None`
/// where no op of that number applies).
struct Witness {
    state: Vec<u32>,
    children: Vec<Option<Vec<u32>>>,
}

impl GpuIdaConfig {
    /// Why [`gpu_ida`] cannot run with these parameters, if it cannot: no
    /// roots, a memory share outside (0, 1], or seconds that are not a
    /// positive number (NaN slices would launch kernels with no time).
    pub fn check(&self) -> Result<(), Error> {
        let bad = |what: String| Err(Error::BadConfig(format!("gpu-ida: {what}")));
        if self.roots == 0 {
            return bad("roots 0: split the start into 1 or more".into());
        }
        if let Err(why) = super::check_memory_fraction(self.memory_fraction) {
            return bad(why);
        }
        for (name, seconds) in [
            ("slice_seconds", self.slice_seconds),
            ("segment_seconds", self.segment_seconds),
        ] {
            if !(seconds > 0.0 && seconds.is_finite()) {
                return bad(format!("{name} {seconds}: a positive number of seconds"));
            }
        }
        Ok(())
    }
}

/// One GPU's kernel and buffers for one instance's roots.
struct IdaShard {
    gpu: Gpu,
    kernel: CudaFunction,
    tables: CudaSlice<u8>,
    roots: CudaSlice<u32>,
    parents: CudaSlice<u32>,
    root_g: CudaSlice<u32>,
    /// Which of the split's roots this GPU holds, by its local index
    /// (the split's roots `k, k + n, k + 2n, …` on GPU `k` of `n`).
    global_roots: Vec<u32>,
    stack: CudaSlice<u32>,
    thread_root: CudaSlice<u32>,
    thread_depth: CudaSlice<u32>,
    thread_base: CudaSlice<u32>,
    /// The donation queue: a sequence word per slot, and the slots.
    seq: CudaSlice<u32>,
    items: CudaSlice<u32>,
    slots: u32,
    ctrl: CudaSlice<u64>,
    path: CudaSlice<u32>,
    threads: u32,
    max_depth: u32,
    words: usize,
    /// The move-pruning automaton (one unused word without), its op
    /// numbers per state (0 without), and each root's start state.
    automaton: CudaSlice<u32>,
    auto_ops: u32,
    root_auto: CudaSlice<u32>,
}

/// What one GPU did in one iteration.
#[derive(Default)]
struct ShardEnd {
    expanded: u64,
    generated: u64,
    min_f: u64,
    donated: u64,
    /// The local index after the last root searched: the range's end, or
    /// less where the segment's time ran out and no more roots were taken.
    end: u32,
    /// The goal's states (packed, root first) and the split's root index.
    found: Option<(u32, Vec<u32>)>,
}

impl IdaShard {
    /// Compiles the engine with the plugin, uploads the tables and this
    /// GPU's roots, and sizes the stacks from free memory; with move
    /// pruning, checks the plugin's children and uploads the automaton.
    #[allow(clippy::too_many_arguments)]
    fn new<D: PackedState>(
        gpu: Gpu,
        source: &str,
        segments: &[&[u8]],
        domain: &D,
        split: &Split<D>,
        mine: Vec<u32>,
        config: &GpuIdaConfig,
        pruning: Option<(&GpuPruning<D>, &[u32])>,
    ) -> Result<IdaShard, Error> {
        let module = gpu.module(source)?;
        let kernel = module.load_function("ida_search").map_err(gpu_error)?;
        let s = gpu.stream.clone();
        let words = domain.packed_words();
        let oom = |e: cudarc::driver::DriverError| {
            Error::Gpu(format!("device memory for IDA* on {}: {e}", gpu.name))
        };
        let tables =
            super::upload_tables(&s, segments, super::tables_len(segments)).map_err(oom)?;
        let mut packed = vec![0u32; mine.len().max(1) * words];
        let mut parents = vec![0u32; mine.len().max(1) * words];
        let mut root_g = vec![0u32; mine.len().max(1)];
        for (i, &root) in mine.iter().enumerate() {
            let node = &split.nodes[root as usize];
            domain.pack(&node.state, &mut packed[i * words..(i + 1) * words]);
            root_g[i] = node.g;
            if let Some(parent) = split.parent_state(root) {
                domain.pack(parent, &mut parents[i * words..(i + 1) * words]);
                root_g[i] |= HAS_PARENT;
            }
        }
        let (frame_words, item_words, max_succ) = {
            let probe = module.load_function("ida_sizes").map_err(gpu_error)?;
            let mut out = s.alloc_zeros::<u32>(3).map_err(gpu_error)?;
            let mut b = s.launch_builder(&probe);
            b.arg(&mut out);
            // SAFETY: the kernel writes three words into a three-word buffer.
            unsafe { b.launch(LaunchConfig::for_num_elems(1)) }.map_err(gpu_error)?;
            let mut host = [0u32; 3];
            s.memcpy_dtoh(&out, &mut host).map_err(gpu_error)?;
            (u64::from(host[0]), u64::from(host[1]), host[2] as usize)
        };
        let (automaton, auto_ops, root_auto) = match pruning {
            None => (
                s.alloc_zeros::<u32>(1).map_err(oom)?,
                0,
                s.alloc_zeros::<u32>(1).map_err(oom)?,
            ),
            Some((p, at_split)) => {
                check_children(&gpu, &module, &tables, words, max_succ, &p.witnesses)?;
                let starts: Vec<u32> = mine
                    .iter()
                    .map(|&root| at_split.get(root as usize).copied().unwrap_or(PRUNED))
                    .chain([0])
                    .collect();
                (
                    s.clone_htod(p.automaton.table()).map_err(oom)?,
                    p.automaton.ops() as u32,
                    s.clone_htod(&starts).map_err(oom)?,
                )
            }
        };
        let per_thread = 4 * (u64::from(config.max_depth.max(2)) * frame_words + 3);
        let sms = gpu
            .ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(gpu_error)?
            .max(1) as u32;
        let resident = sms
            * BLOCK
            * kernel
                .occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)
                .map_err(gpu_error)?
                .max(1);
        let wanted = if config.threads == 0 {
            resident
        } else {
            config.threads.min(resident)
        };
        let slots = QUEUE_SLOTS.min(wanted.max(1));
        let queue_bytes = u64::from(slots) * (4 * item_words + 4);
        let (free, _) = gpu.memory()?;
        let budget = (free as f64 * config.memory_fraction.clamp(0.01, 0.9)) as u64;
        let fits =
            (budget.saturating_sub(queue_bytes) / per_thread).min(u64::from(u32::MAX)) as u32;
        let threads = wanted.min(fits) / 32 * 32;
        if threads == 0 {
            return Err(Error::Gpu(format!(
                "one IDA* stack of {} frames takes {per_thread} bytes, more than the memory share of {budget}: lower max_depth",
                config.max_depth
            )));
        }
        let stack_words = u64::from(threads) * u64::from(config.max_depth.max(2)) * frame_words;
        Ok(IdaShard {
            kernel,
            tables,
            roots: s.clone_htod(&packed).map_err(oom)?,
            parents: s.clone_htod(&parents).map_err(oom)?,
            root_g: s.clone_htod(&root_g).map_err(oom)?,
            global_roots: mine,
            stack: s.alloc_zeros(stack_words as usize).map_err(oom)?,
            thread_root: s.alloc_zeros(threads as usize).map_err(oom)?,
            thread_depth: s.alloc_zeros(threads as usize).map_err(oom)?,
            thread_base: s.alloc_zeros(threads as usize).map_err(oom)?,
            seq: s.alloc_zeros(slots as usize).map_err(oom)?,
            items: s
                .alloc_zeros((u64::from(slots) * item_words) as usize)
                .map_err(oom)?,
            slots,
            ctrl: s.alloc_zeros(IC_WORDS).map_err(oom)?,
            path: s
                .alloc_zeros((config.max_depth as usize + 2) * words)
                .map_err(oom)?,
            threads,
            max_depth: config.max_depth.max(2),
            words,
            automaton,
            auto_ops,
            root_auto,
            gpu,
        })
    }

    /// Searches this GPU's roots `local` (its own indices) under `bound`
    /// in time slices until they are done, a goal is found (here or on
    /// another GPU: `stop`), or a limit sets `stop`. Adds expansions to
    /// `expanded` as they happen.
    ///
    /// After `close_at`, no more roots are taken: those taken are searched
    /// to the end (with their donated subtrees), and the returned `end`
    /// says how far the range got. A segment thus ends near its target
    /// time whatever its roots weigh: under a resumed or raised bound the
    /// first roots can each take minutes, and a segment sized by count
    /// alone ran past a whole call's limit without one checkpoint.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        bound: Cost,
        local: std::ops::Range<u32>,
        slice_seconds: f64,
        close_at: Option<Instant>,
        stop: &AtomicBool,
        expanded: &AtomicU64,
    ) -> Result<ShardEnd, Error> {
        let s = self.gpu.stream.clone();
        let mut ctrl = [0u64; IC_WORDS];
        ctrl[IC_NEXT_ROOT] = u64::from(local.start);
        ctrl[IC_MIN_F] = u64::MAX;
        ctrl[IC_FOUND] = NOT_FOUND;
        s.memcpy_htod(&ctrl, &mut self.ctrl).map_err(gpu_error)?;
        s.memcpy_htod(
            &vec![u32::MAX; self.threads as usize],
            &mut self.thread_root,
        )
        .map_err(gpu_error)?;
        // Slot q is free for position q (the queue's head and tail start
        // at 0).
        let free: Vec<u32> = (0..self.slots).collect();
        s.memcpy_htod(&free, &mut self.seq).map_err(gpu_error)?;
        // The kernel takes roots from IC_NEXT_ROOT up to this.
        let mut n_roots = local.end;
        let budget_ns = (slice_seconds.clamp(0.001, 10.0) * 1e9) as u64;
        let config = LaunchConfig {
            grid_dim: (self.threads.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut counted = 0u64;
        loop {
            let mut b = s.launch_builder(&self.kernel);
            b.arg(&self.roots)
                .arg(&self.parents)
                .arg(&self.root_g)
                .arg(&n_roots)
                .arg(&bound);
            b.arg(&mut self.stack)
                .arg(&self.threads)
                .arg(&self.max_depth)
                .arg(&mut self.thread_root)
                .arg(&mut self.thread_depth)
                .arg(&mut self.thread_base)
                .arg(&mut self.seq)
                .arg(&mut self.items)
                .arg(&self.slots);
            b.arg(&mut self.ctrl)
                .arg(&mut self.path)
                .arg(&budget_ns)
                .arg(&self.tables);
            b.arg(&self.automaton)
                .arg(&self.auto_ops)
                .arg(&self.root_auto);
            // SAFETY: the stack holds `threads` stacks of `max_depth`
            // frames and the queue `slots` items, sized in `new` from the
            // kernel's own FRAME_WORDS and ITEM_WORDS (whose prefixes hold
            // IDA_MAX_DEPTH = max_depth states); the thread arrays hold
            // `threads` entries; the roots, parents and g hold `n_roots` entries;
            // the path holds `max_depth + 2` states, the most a path below
            // a root has (the kernel stops at `max_depth`); with move
            // pruning the automaton holds `auto_ops` entries per state, each
            // a state or PRUNED_OP, and a start state per root.
            unsafe { b.launch(config) }.map_err(gpu_error)?;
            s.memcpy_dtoh(&self.ctrl, &mut ctrl).map_err(gpu_error)?;
            expanded.fetch_add(ctrl[IC_EXPANDED] - counted, Ordering::Relaxed);
            // Where an iteration's time goes: with roots left, or in the
            // tail where threads live on donations.
            tracing::debug!(
                gpu = %self.gpu.name,
                bound,
                expanded = ctrl[IC_EXPANDED] - counted,
                roots_left = u64::from(n_roots).saturating_sub(ctrl[IC_NEXT_ROOT]),
                busy = ctrl[IC_BUSY],
                hungry = ctrl[IC_HUNGRY],
                queued = ctrl[IC_TAIL].wrapping_sub(ctrl[IC_HEAD]),
                donated = ctrl[IC_DONATED],
                "GPU IDA* launch"
            );
            counted = ctrl[IC_EXPANDED];
            if ctrl[IC_OVERFLOW] != 0 {
                return Err(Error::Gpu(format!(
                    "a path below a root is deeper than max_depth = {}: raise it",
                    self.max_depth
                )));
            }
            // Closing: the kernel checks each claim against `n_roots`, so
            // lowering it to the next root stops the claims; every root
            // below was claimed, so all of them are searched. At least
            // one root of the range is taken first, so segments progress.
            let next_root = ctrl[IC_NEXT_ROOT];
            if close_at.is_some_and(|t| Instant::now() >= t)
                && next_root < u64::from(n_roots)
                && next_root > u64::from(local.start)
            {
                n_roots = next_root as u32;
            }
            let done = ctrl[IC_NEXT_ROOT] >= u64::from(n_roots)
                && ctrl[IC_BUSY] == 0
                && ctrl[IC_HEAD] == ctrl[IC_TAIL];
            if ctrl[IC_FOUND] != NOT_FOUND || done || stop.load(Ordering::Relaxed) {
                break;
            }
        }
        let mut end = ShardEnd {
            expanded: ctrl[IC_EXPANDED],
            generated: ctrl[IC_GENERATED],
            min_f: ctrl[IC_MIN_F],
            donated: ctrl[IC_DONATED],
            end: n_roots,
            found: None,
        };
        if ctrl[IC_FOUND] != NOT_FOUND {
            let local = (ctrl[IC_FOUND] >> 32) as usize;
            let states = (ctrl[IC_FOUND] & 0xFFFF_FFFF) as usize;
            let mut path = vec![0u32; states * self.words];
            s.memcpy_dtoh(&self.path.slice(0..path.len()), &mut path)
                .map_err(gpu_error)?;
            let root = *self
                .global_roots
                .get(local)
                .ok_or_else(|| Error::Gpu(format!("the kernel named root {local}")))?;
            end.found = Some((root, path));
        }
        Ok(end)
    }
}

/// Runs IDA* on the GPUs (see the module docs). `plugin` is the heuristic
/// on both sides: the CPU splits the start with it, the GPUs search with
/// its CUDA source. Returns a path replayed on the CPU.
///
/// ```
/// use frontier_core::grid::{Grid, Manhattan};
/// use frontier_core::search::gpu::{gpu_ida, GpuIdaConfig};
/// use frontier_core::{Error, SearchOptions};
/// let maze = Grid::parse("S..#\n.#..\n...G").unwrap();
/// match gpu_ida(&maze, &Manhattan, &GpuIdaConfig::default(), &SearchOptions::default()) {
///     Ok(outcome) => assert_eq!(outcome.solution().unwrap().cost, 5),
///     // Without a GPU (or its driver) this is an error, never a panic.
///     Err(e) => assert!(matches!(e, Error::NoGpu(_) | Error::Gpu(_)), "{e}"),
/// }
/// ```
pub fn gpu_ida<D, P>(
    domain: &D,
    plugin: &P,
    config: &GpuIdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    P: GpuPlugin<D> + Heuristic<D>,
{
    options.order.only_optimal("gpu-ida")?;
    if config.move_pruning > 0 {
        return Err(Error::BadConfig(
            "gpu-ida: move pruning needs a domain whose moves apply in place \
             (gpu_ida_in_place); this one's search goes through gpu_ida"
                .into(),
        ));
    }
    search(domain, plugin, config, options, None)
}

/// [`gpu_ida`] for domains whose moves apply in place ([`InPlace`]), with
/// move pruning when `config.move_pruning` asks for it: the automaton of
/// [`crate::search::move_pruning`], built on the CPU, is stepped by every
/// GPU thread as it makes children. Before searching, each GPU's plugin is
/// checked to make child `i` as the op numbered `i` from every context's
/// witness; a plugin that numbers its children otherwise is refused.
pub fn gpu_ida_in_place<D, P>(
    domain: &D,
    plugin: &P,
    config: &GpuIdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState + InPlace,
    P: GpuPlugin<D> + Heuristic<D>,
{
    options.order.only_optimal("gpu-ida")?;
    if config.move_pruning == 0 {
        return search(domain, plugin, config, options, None);
    }
    let automaton = MovePruning::shared(domain, config.move_pruning)?;
    let words = domain.packed_words();
    let pack = |state: &D::State| {
        let mut out = vec![0u32; words];
        domain.pack(state, &mut out);
        out
    };
    let mut witnesses = Vec::new();
    let mut ops = Vec::new();
    for context in 0..domain.context_count() {
        // `build` refused a domain without a witness for every context.
        let Some(mut witness) = domain.witness(context) else {
            continue;
        };
        let mut children = vec![None; domain.op_count()];
        ops.clear();
        domain.ops(&witness, None, &mut ops);
        for &op in &ops {
            domain.apply(&mut witness, op);
            let child = pack(&witness);
            domain.undo(&mut witness, op);
            if let Some(slot) = children.get_mut(domain.op_index(op)) {
                *slot = Some(child);
            }
        }
        witnesses.push(Witness {
            state: pack(&witness),
            children,
        });
    }
    let pruning = GpuPruning {
        at_split: Box::new(|automaton: &MovePruning, split: &Split<D>| {
            split_automaton(domain, automaton, split)
        }),
        automaton,
        witnesses,
    };
    search(domain, plugin, config, options, Some(&pruning))
}

/// Checks on `gpu` that the plugin's child `i` of each witness is the
/// expected one (`None`: no child `i`).
fn check_children(
    gpu: &Gpu,
    module: &std::sync::Arc<cudarc::driver::CudaModule>,
    tables: &CudaSlice<u8>,
    words: usize,
    max_succ: usize,
    witnesses: &[Witness],
) -> Result<(), Error> {
    let s = gpu.stream.clone();
    let n = witnesses.len();
    let states: Vec<u32> = witnesses
        .iter()
        .flat_map(|w| w.state.iter().copied())
        .collect();
    let states = s.clone_htod(&states).map_err(gpu_error)?;
    let mut children = s
        .alloc_zeros::<u32>(n * max_succ * words)
        .map_err(gpu_error)?;
    let mut made = s.alloc_zeros::<u32>(n * max_succ).map_err(gpu_error)?;
    let kernel = module.load_function("ida_children").map_err(gpu_error)?;
    let count = n as u32;
    let mut b = s.launch_builder(&kernel);
    b.arg(&states)
        .arg(&count)
        .arg(&mut children)
        .arg(&mut made)
        .arg(tables);
    // SAFETY: `states` holds n states, `children` n * MAX_SUCC states and
    // `made` n * MAX_SUCC words, MAX_SUCC as the kernel reported it.
    unsafe { b.launch(LaunchConfig::for_num_elems(count)) }.map_err(gpu_error)?;
    let mut host_children = vec![0u32; n * max_succ * words];
    let mut host_made = vec![0u32; n * max_succ];
    s.memcpy_dtoh(&children, &mut host_children)
        .map_err(gpu_error)?;
    s.memcpy_dtoh(&made, &mut host_made).map_err(gpu_error)?;
    for (
        k,
        Witness {
            children: expected, ..
        },
    ) in witnesses.iter().enumerate()
    {
        for i in 0..max_succ.max(expected.len()) {
            let at = k * max_succ + i;
            let device = (i < max_succ && host_made[at] != 0)
                .then(|| &host_children[at * words..(at + 1) * words]);
            let wanted = expected.get(i).and_then(|c| c.as_deref());
            if device != wanted {
                return Err(Error::BadConfig(format!(
                    "gpu-ida move pruning: the GPU plugin's child {i} of move context {k}'s \
                     witness is not the op the domain numbers {i}"
                )));
            }
        }
    }
    Ok(())
}

/// [`gpu_ida`]'s search, with move pruning or without.
fn search<D, P>(
    domain: &D,
    plugin: &P,
    config: &GpuIdaConfig,
    options: &SearchOptions,
    pruning: Option<&GpuPruning<D>>,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    P: GpuPlugin<D> + Heuristic<D>,
{
    config.check()?;
    let started = Instant::now();
    let devices = if config.devices.is_empty() {
        (0..device_count()?).collect()
    } else {
        config.devices.clone()
    };
    if devices.is_empty() {
        return Err(Error::NoGpu("this machine has no CUDA device".into()));
    }
    let source = ida_source(&plugin.source(domain), config.max_depth, pruning.is_some());
    let opened: Vec<Result<Gpu, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = devices
            .iter()
            .map(|&d| scope.spawn(move || Gpu::open(d)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Gpu("opening a GPU panicked".into())))
            })
            .collect()
    });
    let gpus = opened.into_iter().collect::<Result<Vec<Gpu>, Error>>()?;

    let begun = begin(
        domain,
        plugin,
        config.checkpoint.as_deref(),
        &config.context,
        config.ceiling,
        config.roots.max(1),
        options,
        started,
    );
    let (split, mut iterations, mut stats) = match begun? {
        Begun::Search(split, iterations, stats) => (split, iterations, stats),
        Begun::Done(outcome) => return Ok(outcome),
    };
    tracing::info!(
        roots = split.roots.len(),
        seconds = started.elapsed().as_secs_f64(),
        "IDA* split the start"
    );
    let segments = plugin.tables(domain);
    let count = gpus.len();
    let at_split = pruning.map(|p| (p.at_split)(&p.automaton, &split));
    let pruning = pruning.zip(at_split.as_deref());
    let built: Vec<Result<IdaShard, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = gpus
            .into_iter()
            .enumerate()
            .map(|(k, gpu)| {
                let mine: Vec<u32> = split.roots.iter().copied().skip(k).step_by(count).collect();
                let (source, segments, split) = (&source, &segments, &split);
                scope.spawn(move || {
                    IdaShard::new(gpu, source, segments, domain, split, mine, config, pruning)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::Gpu("a GPU's set-up panicked".into())))
            })
            .collect()
    });
    let mut shards = built
        .into_iter()
        .collect::<Result<Vec<IdaShard>, Error>>()?;
    tracing::info!(
        threads = shards.iter().map(|s| s.threads).sum::<u32>(),
        seconds = started.elapsed().as_secs_f64(),
        "IDA* kernels and buffers ready"
    );

    let roots = split.roots.len();
    let mut plan = Segments::new(config.checkpoint.is_some(), config.segment_seconds, roots);
    let mut per_gpu = vec![0u64; count];
    let mut iteration_started = Instant::now();
    let status = loop {
        if iterations.reached_ceiling() {
            break Status::NoSolution;
        }
        let bound = iterations.bound;
        let from = iterations.done;
        let end = plan.end(from, roots);
        let stop = AtomicBool::new(false);
        let expanded = AtomicU64::new(stats.expanded);
        let finished = AtomicUsize::new(0);
        let segment_started = Instant::now();
        let close_at = plan.close_at(segment_started, started, options.limits.max_seconds);
        let ends: Mutex<Vec<Option<Result<ShardEnd, Error>>>> =
            Mutex::new((0..count).map(|_| None).collect());
        let mut limit = None;
        std::thread::scope(|scope| {
            for (k, shard) in shards.iter_mut().enumerate() {
                let (stop, expanded, finished, ends) = (&stop, &expanded, &finished, &ends);
                let local = local_range(from..end, k, count);
                scope.spawn(move || {
                    let end =
                        shard.iterate(bound, local, config.slice_seconds, close_at, stop, expanded);
                    if matches!(&end, Ok(e) if e.found.is_some()) || end.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if let Ok(mut ends) = ends.lock() {
                        ends[k] = Some(end);
                    }
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            limit = watch_iteration(
                started,
                options,
                bound,
                || expanded.load(Ordering::Relaxed),
                || (roots - from) as u64,
                || finished.load(Ordering::Acquire) >= count,
                &stop,
            );
        });
        // A poisoned lock means a GPU's thread panicked, which the scope
        // has already re-raised; the lock is whole here.
        let ends = ends.into_inner().unwrap_or_default();
        let mut next = u64::MAX;
        let mut found = None;
        let mut donated = 0;
        // Roots up to `end` are done on every GPU where none closed early;
        // where one did, the first root it left marks the end. Roots past
        // it that other GPUs searched are searched again next segment;
        // their smallest f above the bound still counts toward `next`,
        // being a value of this same iteration.
        let (planned, mut end) = (end, end);
        for (k, shard_end) in ends.into_iter().enumerate() {
            let shard_end =
                shard_end.ok_or_else(|| Error::Gpu(format!("GPU {k} reported nothing")))??;
            if shard_end.end < local_range(from..planned, k, count).end {
                end = end.min(k + shard_end.end as usize * count);
            }
            stats.expanded += shard_end.expanded;
            stats.generated += shard_end.generated;
            per_gpu[k] += shard_end.expanded;
            next = next.min(shard_end.min_f);
            donated += shard_end.donated;
            if found.is_none() {
                found = shard_end.found;
            }
        }
        if let Some((root, packed)) = found {
            let (mut states, _) = split.path_to(root);
            // The GPU's path starts at the root, which the split's ends with.
            for chunk in packed.chunks_exact(domain.packed_words()).skip(1) {
                let state = domain
                    .unpack(chunk)
                    .map_err(|e| Error::Gpu(format!("the GPU returned a bad state: {e}")))?;
                states.push(state);
            }
            let solution = replay(domain, states).map_err(|step| {
                Error::Gpu(format!("step {step} of the GPU's path is not a move"))
            })?;
            if solution.cost != bound {
                return Err(Error::Gpu(format!(
                    "the GPU's path costs {} under bound {bound}",
                    solution.cost
                )));
            }
            break Status::Solved(solution);
        }
        let limit = limit.or_else(|| stop.load(Ordering::Relaxed).then_some(Limit::Expansions));
        if let Some(limit) = limit {
            iterations.interrupted(&mut stats, started)?;
            break Status::LimitReached(limit);
        }
        plan.measured(end - from, segment_started.elapsed().as_secs_f64());
        let segment_next = next.min(u64::from(Cost::MAX)) as Cost;
        let Some(next) = iterations.segment_done(end, roots, segment_next, &stats, started)? else {
            tracing::info!(
                bound,
                roots_done = end,
                roots,
                seconds = segment_started.elapsed().as_secs_f64(),
                "GPU IDA* segment done (checkpointed)"
            );
            continue;
        };
        if next == Cost::MAX {
            break Status::NoSolution;
        }
        tracing::info!(
            bound,
            next,
            seconds = iteration_started.elapsed().as_secs_f64(),
            expanded = stats.expanded,
            donated,
            "GPU IDA* iteration done"
        );
        iterations.completed(next, &stats, started)?;
        plan.raised();
        iteration_started = Instant::now();
    };
    iterations.finish(&mut stats, started, &per_gpu);
    Ok(Outcome { status, stats })
}

/// The local indices, on GPU `k` of `count`, of the split's roots
/// `global` (GPU `k` holds roots `k, k + count, k + 2 count, …`).
fn local_range(global: std::ops::Range<usize>, k: usize, count: usize) -> std::ops::Range<u32> {
    let first_at_or_after = |g: usize| g.saturating_sub(k).div_ceil(count) as u32;
    first_at_or_after(global.start)..first_at_or_after(global.end)
}

/// GPU IDA*'s kernel source: the engine after `plugin_source`, stacks of
/// `max_depth` frames (at least 2), with move pruning or without.
pub(super) fn ida_source(plugin_source: &str, max_depth: u32, pruning: bool) -> String {
    let pruning_defines = if pruning {
        format!("#define MOVE_PRUNING\n#define PRUNED_OP {PRUNED}u\n")
    } else {
        String::new()
    };
    format!(
        "{PRELUDE}#define IDA_MAX_DEPTH {}\n{plugin_source}\n{pruning_defines}{ENGINE}",
        max_depth.max(2)
    )
}

#[cfg(test)]
mod tests {
    use super::{local_range, GpuIdaConfig};

    /// Checked before any GPU is asked for, so it runs without one.
    #[test]
    fn roots_memory_shares_and_seconds_out_of_range_are_refused() {
        let ok = GpuIdaConfig::default();
        assert!(ok.check().is_ok());
        let cases = [
            (
                GpuIdaConfig {
                    roots: 0,
                    ..ok.clone()
                },
                "roots 0",
            ),
            (
                GpuIdaConfig {
                    memory_fraction: 2.0,
                    ..ok.clone()
                },
                "memory_fraction 2",
            ),
            (
                GpuIdaConfig {
                    slice_seconds: f64::NAN,
                    ..ok.clone()
                },
                "slice_seconds NaN",
            ),
            (
                GpuIdaConfig {
                    segment_seconds: -1.0,
                    ..ok.clone()
                },
                "segment_seconds -1",
            ),
        ];
        for (bad, message) in cases {
            let err = bad.check().unwrap_err().to_string();
            assert!(err.contains(message), "{err}");
        }
    }

    #[test]
    fn segments_deal_each_root_to_exactly_one_gpu() {
        for count in 1..5 {
            for start in 0..12 {
                for end in start..12 {
                    let mut seen = Vec::new();
                    for k in 0..count {
                        for local in local_range(start..end, k, count) {
                            seen.push(k + local as usize * count);
                        }
                    }
                    seen.sort();
                    assert_eq!(seen, (start..end).collect::<Vec<_>>(), "{count} GPUs");
                }
            }
        }
    }
}
