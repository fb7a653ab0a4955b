//! HDA* over the GPUs of one host: GA* on every GPU, each state owned by
//! the GPU its [`GpuPartitioner`] names.
//!
//! One host thread drives each GPU through the iterations of
//! `framework/kernels/gastar.cu`. In an iteration every GPU expands one node per
//! heap; a child owned by another GPU is written straight into that GPU's
//! inbox over peer access (children with f at or above the incumbent are
//! dropped first; stores to a peer are posted, so the sender does not wait
//! on the link). The threads then meet at a barrier, each having published
//! its control words: how many records it wrote for each GPU, the lowest f
//! on its heaps and among its new children, its best goal. Every thread
//! reads all of them and takes the same decision:
//!
//! - the incumbent is the cheapest goal of any GPU (a reduction over the
//!   published words), and becomes every GPU's pruning bound;
//! - the search is over when the lowest f anywhere — heaps after the pops,
//!   and the children just generated, which are the only states in flight —
//!   is not below the incumbent: then the incumbent is optimal;
//! - otherwise each GPU's dedup kernel, launched on exactly the records
//!   the senders reported, reads them from its own inbox (no copies, no
//!   ring that forwards others' states), then pushes the survivors.
//!
//! Inboxes alternate between two halves by iteration, so a sender never
//! overwrites records a receiver has not read yet: it writes the same half
//! again only after the next barrier, which every receiver reaches after
//! its reads are done. The incumbent, its timing (termination
//! overhead) and the statistics are HDA*'s own ([`Incumbent`],
//! [`summarize`]). With one GPU this is GA*: [`super::gastar()`] runs it so.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::partition::GpuPartitioner;
use super::shard::{
    Incoming, Layout, Shard, CTRL_COUNTS, CTRL_EXPANDED, CTRL_GENERATED, CTRL_INCUMBENT,
    CTRL_MIN_F, CTRL_NODES, CTRL_OVERFLOW, CTRL_REOPENED, CTRL_SENT, MAX_GPUS, OVERFLOW_F,
};
use super::GpuPlugin;
use super::PRELUDE;
use crate::domain::{Cost, PackedState};
use crate::gpu::{gpu_error, Gpu};
use crate::search::hda::{keep_workers, summarize, Incumbent, WorkerCounts};
use crate::search::replay_traced;
use crate::search::{
    DomainOutcome, Limit, Outcome, Progress, SearchOptions, Solution, Status, Weight,
};
use crate::Error;

/// The generic engine, pasted after each plugin and partition.
const ENGINE: &str = include_str!("../../../kernels/gastar.cu");
/// The default `state_hash`, pasted between plugin and engine.
pub(super) const STATE_HASH: &str = include_str!("../../../kernels/state_hash.cuh");
/// Where the engine's body starts, after the helpers a partition may use.
const ENGINE_BODY: &str = "// ---- engine body";

/// Parameters of [`multi_gpu`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MultiGpuConfig {
    /// Which GPUs (device ordinals); empty means every GPU of the host. A
    /// device listed twice runs two shards on it, which exercises the
    /// exchange between GPUs on a machine with one (as the tests do).
    pub devices: Vec<usize>,
    /// The partitioner by name, resolved by the domain: `hash` (uniform
    /// hashing of the packed state) always exists; tiles adds its Abstract
    /// Zobrist projections (`split`, `zobrist`, …).
    pub partition: String,
    /// Binary heaps per GPU (one GPU thread each).
    pub heaps: u32,
    /// Share of each GPU's free memory for nodes, heaps and buffers.
    pub memory_fraction: f64,
    /// Hash-table slots per GPU for duplicate detection, as a power of two.
    pub table_log2: u32,
    /// Partial expansion: store only the children whose f equals the
    /// expanded node's, and reopen the node for the others when the search
    /// reaches their f. About half the nodes per GPU on the 24-puzzle for a
    /// few more expansions; off stores every child at once (plain GA*).
    pub partial_expansion: bool,
}

impl Default for MultiGpuConfig {
    fn default() -> Self {
        MultiGpuConfig {
            devices: Vec::new(),
            partition: "hash".into(),
            // 65,536 heaps keep an H100/H200 busy: twice the expansion rate of
            // 16,384 on the 24-puzzle (328 vs 177 M/s on one H200).
            heaps: 1 << 16,
            // The fixed buffers (hash table, PDBs, exchange) are sized
            // first and the rest shared by arena and heaps; the CUDA
            // context is already counted out of the free memory.
            memory_fraction: 0.9,
            table_log2: 25,
            partial_expansion: true,
        }
    }
}

impl MultiGpuConfig {
    /// The most heaps per GPU: each takes a GPU thread, and the slots for
    /// their children (heaps × a state's successors) must count in 32 bits.
    pub const MOST_HEAPS: u32 = 1 << 24;

    /// Why a search cannot run with these parameters, if it cannot:
    /// `heaps` beyond [`Self::MOST_HEAPS`] (fewer than 32 are raised to
    /// 32), `memory_fraction` outside (0, 1].
    pub fn check(&self) -> Result<(), Error> {
        if self.heaps > Self::MOST_HEAPS {
            return Err(Error::BadConfig(format!(
                "heaps {}: at most {} per GPU",
                self.heaps,
                Self::MOST_HEAPS
            )));
        }
        super::check_memory_fraction(self.memory_fraction).map_err(Error::BadConfig)
    }

    /// The device ordinals to run on, checked against the GPUs present:
    /// asking for more GPUs than the host has is an error naming both counts.
    pub fn device_list(&self) -> Result<Vec<usize>, Error> {
        self.check()?;
        let present = crate::gpu::device_count()?;
        if self.devices.is_empty() {
            return Ok((0..present).collect());
        }
        if let Some(&highest) = self.devices.iter().max().filter(|&&d| d >= present) {
            return Err(Error::NoGpu(format!(
                "GPU {highest} asked for, but this machine has {present} GPU{}",
                if present == 1 { "" } else { "s" }
            )));
        }
        Ok(self.devices.clone())
    }
}

/// Runs HDA* on the configured GPUs. With an admissible heuristic the cost
/// equals A*'s; the returned path is replayed on the CPU. To solve many
/// instances, keep a [`MultiGpuSession`]: it compiles, allocates and
/// uploads tables once.
///
/// ```
/// use frontier_core::grid::{Grid, Manhattan};
/// use frontier_core::search::gpu::{multi_gpu, MultiGpuConfig, PackedHasher};
/// use frontier_core::{Error, SearchOptions};
/// let maze = Grid::parse("S..#\n.#..\n...G").unwrap();
/// let config = MultiGpuConfig::default(); // every GPU of this host, hash partition
/// match multi_gpu(&maze, &Manhattan, &PackedHasher, &config, &SearchOptions::default()) {
///     Ok(outcome) => assert_eq!(outcome.solution().unwrap().cost, 5),
///     // Without a GPU (or its driver) this is an error, never a panic.
///     Err(e) => assert!(matches!(e, Error::NoGpu(_) | Error::Gpu(_)), "{e}"),
/// }
/// ```
pub fn multi_gpu<D, P, Q>(
    domain: &D,
    plugin: &P,
    partition: &Q,
    config: &MultiGpuConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
    Q: GpuPartitioner<D>,
{
    MultiGpuSession::new(domain, plugin, partition, config)?
        .solve(domain, plugin, partition, options)
}

/// Device memory and kernels on every GPU of a search, reusable across
/// instances whose plugin and partition source are the same.
pub struct MultiGpuSession {
    shards: Vec<Shard>,
    source: String,
}

impl MultiGpuSession {
    /// Opens the configured GPUs, compiles the plugin and sizes each GPU's
    /// buffers from its free memory.
    pub fn new<D, P, Q>(
        domain: &D,
        plugin: &P,
        partition: &Q,
        config: &MultiGpuConfig,
    ) -> Result<Self, Error>
    where
        D: PackedState,
        P: GpuPlugin<D>,
        Q: GpuPartitioner<D>,
    {
        let devices = config.device_list()?;
        // Opening a device takes a few tenths of a second: open all at once.
        let gpus = on_threads(devices, Gpu::open)
            .into_iter()
            .collect::<Result<Vec<Gpu>, Error>>()?;
        Self::with_gpus(gpus, domain, plugin, partition, config)
    }

    /// Like [`Self::new`] on devices opened beforehand.
    pub fn with_gpus<D, P, Q>(
        gpus: Vec<Gpu>,
        domain: &D,
        plugin: &P,
        partition: &Q,
        config: &MultiGpuConfig,
    ) -> Result<Self, Error>
    where
        D: PackedState,
        P: GpuPlugin<D>,
        Q: GpuPartitioner<D>,
    {
        config.check()?;
        if gpus.is_empty() {
            return Err(Error::NoGpu("no GPU to run on".into()));
        }
        if gpus.len() > MAX_GPUS {
            return Err(Error::Gpu(format!(
                "{} GPUs asked for; one search runs on at most {MAX_GPUS}",
                gpus.len()
            )));
        }
        let source = kernel_source(domain, plugin, partition);
        let layout = Layout {
            words: domain.packed_words(),
            max_succ: max_successors(&source)
                .ok_or_else(|| Error::Gpu("plugin defines no MAX_SUCC".into()))?,
            heaps: config.heaps.max(32),
            table_log2: config.table_log2,
            memory_fraction: config.memory_fraction,
            gpus: gpus.len() as u32,
            partial: config.partial_expansion,
            ipc: false,
            staged: false,
        };
        let segments = plugin.tables(domain);
        let table = partition.device_table();
        // Compile once (the CUBIN is cached on disk), then let every other
        // device load and allocate in parallel.
        let mut gpus = gpus.into_iter();
        let first = gpus
            .next()
            .ok_or_else(|| Error::NoGpu("no GPU to run on".into()))?;
        let mut shards = vec![Shard::new(first, 0, &source, &layout, &segments, &table)?];
        let others = on_threads(gpus.enumerate(), |(i, gpu)| {
            Shard::new(gpu, i as u32 + 1, &source, &layout, &segments, &table)
        })
        .into_iter()
        .collect::<Result<Vec<Shard>, Error>>()?;
        shards.extend(others);
        if shards.len() > 1 {
            let peers: Vec<_> = shards.iter().map(Shard::peer_view).collect();
            for shard in &mut shards {
                shard.connect(&peers)?;
            }
        }
        Ok(MultiGpuSession { shards, source })
    }

    /// The device ordinals this session runs on.
    pub fn devices(&self) -> Vec<usize> {
        self.shards.iter().map(|s| s.gpu.ctx.ordinal()).collect()
    }

    /// Whether this session was built for the same plugin and partition
    /// source as `domain`'s.
    pub fn fits<D, P, Q>(&self, domain: &D, plugin: &P, partition: &Q) -> bool
    where
        D: PackedState,
        P: GpuPlugin<D>,
        Q: GpuPartitioner<D>,
    {
        self.source == kernel_source(domain, plugin, partition)
    }

    /// Solves `domain`'s instance on this session's GPUs.
    pub fn solve<D, P, Q>(
        &mut self,
        domain: &D,
        plugin: &P,
        partition: &Q,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error>
    where
        D: PackedState,
        P: GpuPlugin<D>,
        Q: GpuPartitioner<D>,
    {
        let order = options.order;
        if order.beam.is_some() {
            return Err(Error::BadConfig(
                "GA* on the GPU runs weighted, greedy and anytime orders; beams run through \
                 gpu_beam"
                    .into(),
            ));
        }
        // Weights hold across shards as on one: every shard orders its heap
        // by den·g + num·h, the incumbent is shared at each round's
        // reports, a child sent to another shard counts in its sender's
        // lowest key until it is on its owner's heap, and the search ends only once no
        // shard holds a key below den·C; `least_f` takes every shard's
        // open and pruned nodes.
        let weight = order.weight;
        if order.anytime {
            return super::anytime::restarting(self, domain, plugin, partition, options);
        }
        let (mut outcome, least) =
            self.run(domain, plugin, partition, options, weight, Cost::MAX)?;
        match (least, &outcome.status) {
            (Some(lower), Status::Solved(solution)) if !weight.is_one() => {
                let seconds = outcome.stats.seconds;
                outcome
                    .stats
                    .bound_solution(seconds, solution.cost, lower, weight.value());
            }
            // Stopped by a limit: what the search proved so far.
            (Some(lower), Status::LimitReached(_)) => outcome.stats.lower_bound = Some(lower),
            _ => {}
        }
        Ok(outcome)
    }

    /// One GA* run under `weight` that prunes every child whose f = g + h
    /// reaches `ceiling` (an earlier run's cost; `Cost::MAX` for none): with
    /// an admissible heuristic none of them leads to a cheaper goal. Until
    /// it finds a goal of its own the run goes on while anything is open, so
    /// `NoSolution` means nothing cheaper than the ceiling exists.
    /// Returns the outcome and, for weighted runs, runs under a ceiling and
    /// runs stopped by a limit, unless children were dropped for memory, the
    /// least f = g + h of the nodes left open or pruned, at most the best
    /// cost found (or the ceiling): with an admissible heuristic, and nodes
    /// reopened when reached more cheaply, a lower bound on the optimum.
    pub(super) fn run<D, P, Q>(
        &mut self,
        domain: &D,
        plugin: &P,
        partition: &Q,
        options: &SearchOptions,
        weight: Weight,
        ceiling: Cost,
    ) -> Result<(DomainOutcome<D>, Option<Cost>), Error>
    where
        D: PackedState,
        P: GpuPlugin<D>,
        Q: GpuPartitioner<D>,
    {
        for shard in &mut self.shards {
            shard.weight = weight;
            shard.ceiling = ceiling;
        }
        if !self.fits(domain, plugin, partition) {
            return Err(Error::Gpu(
                "this GPU session was built for another board, goal, heuristic or partition".into(),
            ));
        }
        let gpus = self.shards.len();
        let start = domain.start();
        let mut packed = vec![0u32; domain.packed_words()];
        domain.pack(&start, &mut packed);
        let home = partition.owner(domain, &start, gpus as u32) as usize;
        for shard in &mut self.shards {
            let owns_start = shard.index as usize == home;
            shard.reset(owns_start.then_some(&packed[..]))?;
        }

        let started = Instant::now();
        let coordination = Coordination {
            barrier: SpinBarrier::new(gpus),
            reports: [0, 1].map(|_| (0..gpus).map(|_| Mutex::new(Report::default())).collect()),
            incumbent: Incumbent::new(started),
            finish: Mutex::new(None),
            started,
            bytes_per_node: self.shards.iter().map(|s| s.bytes_per_node).collect(),
        };
        let results = on_threads(self.shards.iter_mut(), |shard| {
            let driven = drive(shard, gpus, &coordination, options);
            if driven.is_err() {
                coordination.barrier.abort();
            }
            driven
        });
        let seconds = started.elapsed().as_secs_f64();
        // The first real failure; the others only saw the barrier abort.
        let mut finals = Vec::with_capacity(gpus);
        let mut failure = None;
        for result in results {
            match result {
                Ok(ctrl) => finals.push(ctrl),
                Err(Error::Gpu(m)) if m == ABORTED => {}
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        let finish = coordination
            .finish
            .lock()
            .ok()
            .and_then(|f| *f)
            .ok_or_else(|| Error::Gpu("the GPU threads ended without a verdict".into()))?;
        let status = match finish {
            Finish::Limit(limit) => Status::LimitReached(limit),
            Finish::CostTooLarge => {
                return Err(Error::Gpu(format!(
                    "a path cost (or, weighted, den·g + num·h) exceeds {}, the largest f the \
                     GPU heap keys hold",
                    super::shard::MAX_F
                )))
            }
            Finish::Proven => match coordination.incumbent.best() {
                None => Status::NoSolution,
                Some(((gpu, node), _)) => {
                    Status::Solved(self.trace(domain, gpu, node, coordination.incumbent.cost())?)
                }
            },
        };
        // Nodes still open and children pruned bound the optimum (see
        // `order` and gastar.cu), unless children were dropped for memory.
        // Plain GA* run to its end proves its optimum without it: no extra
        // kernel then. A goal found but not yet proven bounds it too: a
        // child pruned at its cost lies on an optimal path only if it is
        // optimal.
        let wanted = !weight.is_one() || ceiling != Cost::MAX || is_cut(finish);
        let dropped = finals.iter().any(|ctrl| ctrl[CTRL_OVERFLOW] != 0);
        let least = if !wanted || dropped || matches!(finish, Finish::Limit(Limit::Memory)) {
            None
        } else {
            let mut least = match &status {
                Status::Solved(solution) => u64::from(solution.cost),
                _ => u64::from(ceiling.min(coordination.incumbent.cost())),
            };
            for shard in &mut self.shards {
                least = least.min(shard.least_f()?);
            }
            Some(least)
                .filter(|&least| least < u64::from(Cost::MAX))
                .map(|least| least as Cost)
        };
        let workers: Vec<WorkerCounts> = finals
            .iter()
            .zip(&self.shards)
            .map(|(ctrl, shard)| counts_of(ctrl, shard.node_cap, seconds))
            .collect();
        let mut stats = summarize(&workers, seconds);
        stats.peak_bytes = self.shards.iter().map(|s| s.bytes).sum();
        let capacity: f64 = self.shards.iter().map(|s| f64::from(s.node_cap)).sum();
        stats.bytes_per_node = Some(
            self.shards
                .iter()
                .map(|s| s.bytes_per_node * f64::from(s.node_cap))
                .sum::<f64>()
                / capacity,
        );
        if matches!(status, Status::Solved(_)) {
            stats.termination_overhead = coordination.incumbent.termination_overhead(seconds);
        }
        // GPUs never hand buckets to each other.
        stats.handoff_share = None;
        keep_workers(&mut stats, workers);
        Ok((Outcome { status, stats }, least))
    }

    /// Reads the path back from `node` on GPU `gpu`, following parents
    /// across GPUs, and replays it on the CPU; it must cost `cost`.
    fn trace<D: PackedState>(
        &mut self,
        domain: &D,
        gpu: u32,
        node: u32,
        cost: Cost,
    ) -> Result<Solution<D::State, D::Move>, Error> {
        let mut packed = Vec::new();
        let mut at = Some((gpu, node));
        let mut segments = 0usize;
        while let Some((gpu, node)) = at {
            segments += 1;
            if segments > 1 << 20 {
                return Err(Error::Gpu(
                    "the GPU path does not lead back to the start".into(),
                ));
            }
            let shard = self
                .shards
                .get_mut(gpu as usize)
                .ok_or_else(|| Error::Gpu(format!("the GPU path names GPU {gpu}")))?;
            let (states, next) = shard.trace(node)?;
            packed.extend(states);
            at = next;
        }
        replay_traced(domain, &packed, cost).map_err(|e| Error::Gpu(format!("the GPU path {e}")))
    }
}

/// The owner the device partition gives each state, computed on GPU
/// `device`: for checking a [`GpuPartitioner`] against its CPU side.
pub fn device_owners<D, P, Q>(
    device: usize,
    domain: &D,
    plugin: &P,
    partition: &Q,
    states: &[D::State],
    parts: u32,
) -> Result<Vec<u32>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
    Q: GpuPartitioner<D>,
{
    use cudarc::driver::{LaunchConfig, PushKernelArg};
    let gpu = Gpu::open(device)?;
    let module = gpu.module(&kernel_source(domain, plugin, partition))?;
    let kernel = module.load_function("ga_owners").map_err(gpu_error)?;
    let packed = super::pack_all(domain, states);
    let s = gpu.stream.clone();
    let table = partition.device_table();
    let device_states = s.clone_htod(&packed).map_err(gpu_error)?;
    let device_table = s
        .clone_htod(if table.is_empty() {
            &[0u64][..]
        } else {
            &table
        })
        .map_err(gpu_error)?;
    let mut owners = s
        .alloc_zeros::<u32>(states.len().max(1))
        .map_err(gpu_error)?;
    let count = states.len() as u32;
    // SAFETY: `device_states` holds `count` packed states and `owners` `count` words.
    unsafe {
        let mut b = s.launch_builder(&kernel);
        b.arg(&device_states)
            .arg(&count)
            .arg(&parts)
            .arg(&device_table)
            .arg(&mut owners);
        b.launch(LaunchConfig::for_num_elems(count.max(1)))
            .map_err(gpu_error)?;
    }
    let mut out = vec![0u32; states.len()];
    s.memcpy_dtoh(&owners.slice(0..states.len()), &mut out)
        .map_err(gpu_error)?;
    Ok(out)
}

/// Runs `work` on each item on a thread of its own (GPUs are driven, opened
/// and filled in parallel) and returns the results in order; a panic in one
/// is raised again here.
fn on_threads<I: Send, R: Send>(
    items: impl IntoIterator<Item = I>,
    work: impl Fn(I) -> R + Sync,
) -> Vec<R> {
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .into_iter()
            .map(|item| scope.spawn(move || work(item)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Marks a thread that stopped because another failed.
const ABORTED: &str = "stopped because another GPU's thread failed";

/// What one GPU published at a barrier.
#[derive(Clone, Default)]
pub(super) struct Report {
    pub(super) ctrl: Vec<u64>,
    /// Set by the first GPU's thread when a limit is reached.
    pub(super) stop: Option<Limit>,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Finish {
    /// Nothing open below the incumbent: it is optimal, or there is none.
    Proven,
    Limit(Limit),
    CostTooLarge,
}

/// Whether a search ended at a limit that leaves every generated child
/// on a heap or in an inbox (time, expansions), so that the least f left
/// bounds the optimum; a full arena or heap drops children.
pub(super) fn is_cut(finish: Finish) -> bool {
    matches!(finish, Finish::Limit(limit) if limit != Limit::Memory)
}

/// What every thread concludes from the reports of one barrier.
#[derive(Debug, PartialEq)]
pub(super) struct Decision {
    /// The cheapest goal any GPU holds: cost, GPU, node.
    pub(super) best: Option<(Cost, u32, u32)>,
    /// `None`: go on with the incumbent's cost as the bound.
    pub(super) finish: Option<Finish>,
}

/// The one decision rule, a pure function of the reports, so every thread
/// reaches the same verdict without a second round of messages.
///
/// With a `weight` (see gastar.cu) the lowest keys are den·g + num·h, and
/// the search is over once none is below den·C (every key, for greedy).
pub(super) fn decide(reports: &[Report], weight: Weight) -> Decision {
    let best = reports
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ctrl[CTRL_INCUMBENT] != u64::MAX)
        .map(|(gpu, r)| {
            let word = r.ctrl[CTRL_INCUMBENT];
            ((word >> 32) as Cost, gpu as u32, word as u32)
        })
        .min();
    let overflow = reports.iter().fold(0, |o, r| o | r.ctrl[CTRL_OVERFLOW]);
    let lowest_f = reports
        .iter()
        .map(|r| r.ctrl[CTRL_MIN_F])
        .min()
        .unwrap_or(u64::MAX);
    let (_, den, greedy) = weight.device_ratio();
    let bound = best.map_or(u64::from(Cost::MAX), |b| match greedy {
        0 => u64::from(den) * u64::from(b.0),
        _ => 0,
    });
    let finish = if overflow & OVERFLOW_F != 0 {
        Some(Finish::CostTooLarge)
    } else if overflow != 0 {
        Some(Finish::Limit(Limit::Memory))
    } else if lowest_f >= bound {
        Some(Finish::Proven)
    } else {
        reports.first().and_then(|r| r.stop).map(Finish::Limit)
    };
    Decision { best, finish }
}

/// What a GPU did, from its control words at the end of a search of
/// `seconds` (GPUs are busy throughout).
pub(super) fn counts_of(ctrl: &[u64], node_cap: u32, seconds: f64) -> WorkerCounts {
    WorkerCounts {
        expanded: ctrl[CTRL_EXPANDED],
        generated: ctrl[CTRL_GENERATED],
        sent: ctrl[CTRL_SENT],
        stored: ctrl[CTRL_NODES].min(u64::from(node_cap)),
        busy_seconds: seconds,
        ..WorkerCounts::default()
    }
}

/// Hands the progress sink the reports' totals, every quarter second.
pub(super) fn report_progress(
    reports: &[Report],
    seconds: f64,
    next_report: &mut f64,
    options: &SearchOptions,
) {
    if seconds < *next_report {
        return;
    }
    *next_report = seconds + 0.25;
    if let Some(sink) = &options.progress {
        sink(&Progress {
            expanded: reports.iter().map(|r| r.ctrl[CTRL_EXPANDED]).sum(),
            open: reports.iter().map(|r| r.ctrl[CTRL_NODES]).sum(),
            f: reports
                .iter()
                .map(|r| r.ctrl[CTRL_MIN_F])
                .min()
                .unwrap_or(0) as Cost,
            seconds,
        });
    }
}

/// How many records each other GPU wrote into GPU `me`'s inbox in
/// iteration `parity`, as its reports say.
pub(super) fn incoming_for(reports: &[Report], me: usize, parity: u32) -> Incoming {
    let gpus = reports.len();
    let mut incoming = Incoming {
        count: [0; MAX_GPUS],
    };
    for (from, report) in reports.iter().enumerate().filter(|&(from, _)| from != me) {
        incoming.count[from] = report.ctrl[CTRL_COUNTS + parity as usize * gpus + me] as u32;
    }
    incoming
}

/// What the GPU threads share.
struct Coordination {
    barrier: SpinBarrier,
    /// `reports[parity][gpu]`: two sets, so a fast thread writing the next
    /// iteration's report never overwrites one a slow thread still reads.
    reports: [Vec<Mutex<Report>>; 2],
    incumbent: Incumbent<(u32, u32)>,
    finish: Mutex<Option<Finish>>,
    started: Instant,
    bytes_per_node: Vec<f64>,
}

/// One GPU's thread: iterations until the shared decision ends the search.
/// Returns the GPU's last control words.
fn drive(
    shard: &mut Shard,
    gpus: usize,
    coordination: &Coordination,
    options: &SearchOptions,
) -> Result<Vec<u64>, Error> {
    let me = shard.index as usize;
    let mut ctrl = vec![0u64; CTRL_COUNTS + 2 * gpus];
    let (mut bound, mut parity, mut iteration) = (Cost::MAX, 0u32, 0u32);
    let (mut expanded, mut stored_bytes, mut next_report) = (0u64, 0u64, 0.25);
    // Where a GPU's thread spends an iteration (logged at the end).
    let mut spent = [std::time::Duration::ZERO; 4];
    let mut clock = Instant::now();
    let mut lap = |phase: usize| {
        let now = Instant::now();
        spent[phase] += now - clock;
        clock = now;
    };
    loop {
        shard.expand(bound, parity)?;
        shard.read_ctrl(&mut ctrl)?;
        lap(0);
        let stop = if me == 0 {
            let seconds = coordination.started.elapsed().as_secs_f64();
            options.limits.exceeded(expanded, stored_bytes, seconds)
        } else {
            None
        };
        if let Ok(mut slot) = coordination.reports[parity as usize][me].lock() {
            slot.ctrl.clone_from(&ctrl);
            slot.stop = stop;
        }
        if !coordination.barrier.wait() {
            return Err(Error::Gpu(ABORTED.into()));
        }
        lap(1);
        let reports: Vec<Report> = coordination.reports[parity as usize]
            .iter()
            .map(|r| r.lock().map(|r| r.clone()).unwrap_or_default())
            .collect();
        let decision = decide(&reports, shard.weight);
        if me == 0 {
            if let Some((cost, gpu, node)) = decision.best {
                coordination.incumbent.offer(cost, (gpu, node));
            }
        }
        if let Some(finish) = decision.finish {
            // Children sent in this last round wait in their owners'
            // inboxes, not on a heap: a run that reports a lower bound
            // (weighted, or under a ceiling) puts them there first, so
            // `least_f` sees every open node. A heap that overflows now
            // shows in the control words `run` reads.
            let bounded = !shard.weight.is_one() || shard.ceiling != Cost::MAX || is_cut(finish);
            if gpus > 1 && bounded {
                let incoming = incoming_for(&reports, me, parity);
                shard.insert(parity, iteration, &incoming)?;
                shard.read_ctrl(&mut ctrl)?;
            }
            tracing::info!(
                gpu = me,
                iterations = iteration,
                expanded = ctrl[CTRL_EXPANDED],
                reopened = ctrl[CTRL_REOPENED],
                overflow = ctrl[CTRL_OVERFLOW],
                expand_and_read = spent[0].as_secs_f64(),
                barrier = spent[1].as_secs_f64(),
                decide = spent[2].as_secs_f64(),
                exchange_and_insert = spent[3].as_secs_f64(),
                "GPU thread time"
            );
            if me == 0 {
                if let Ok(mut f) = coordination.finish.lock() {
                    *f = Some(finish);
                }
            }
            return Ok(ctrl);
        }
        bound = decision.best.map_or(Cost::MAX, |b| b.0);
        expanded = reports.iter().map(|r| r.ctrl[CTRL_EXPANDED]).sum();
        stored_bytes = reports
            .iter()
            .zip(&coordination.bytes_per_node)
            .map(|(r, per)| (r.ctrl[CTRL_NODES] as f64 * per) as u64)
            .sum();
        if me == 0 {
            let seconds = coordination.started.elapsed().as_secs_f64();
            report_progress(&reports, seconds, &mut next_report, options);
        }
        let incoming = incoming_for(&reports, me, parity);
        lap(2);
        shard.insert(parity, iteration, &incoming)?;
        lap(3);
        parity ^= 1;
        iteration = iteration.wrapping_add(1);
    }
}

/// A barrier that spins (GA* iterations last tens of microseconds, less
/// than a futex wake-up) and can be abandoned when a thread fails, so the
/// others do not wait forever.
struct SpinBarrier {
    parties: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    aborted: AtomicBool,
}

impl SpinBarrier {
    fn new(parties: usize) -> Self {
        SpinBarrier {
            parties,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            aborted: AtomicBool::new(false),
        }
    }

    /// Waits for every party; false when the barrier was abandoned.
    fn wait(&self) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.parties {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return true;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            if self.aborted.load(Ordering::Relaxed) {
                return false;
            }
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        true
    }

    fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }
}

/// The plugin's and partition's source with the engine pasted after them:
/// what is compiled, and what identifies the instances a session can serve.
pub(super) fn kernel_source<D: PackedState, P: GpuPlugin<D>, Q: GpuPartitioner<D>>(
    domain: &D,
    plugin: &P,
    partition: &Q,
) -> String {
    // The partition calls the engine's hash helpers and the engine calls
    // the partition: it goes between the two parts.
    let (helpers, engine) = ENGINE.split_at(ENGINE.find(ENGINE_BODY).unwrap_or(0));
    format!(
        "{PRELUDE}{}\n{STATE_HASH}{helpers}{}\n{engine}",
        plugin.source(domain),
        partition.device_source()
    )
}

/// Reads `#define MAX_SUCC n` from the plugin source.
pub(super) fn max_successors(source: &str) -> Option<u32> {
    source.lines().find_map(|l| {
        l.trim()
            .strip_prefix("#define MAX_SUCC")?
            .trim()
            .parse()
            .ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A*'s order for `decide`.
    const A_STAR: Weight = Weight::ONE;

    #[test]
    fn weighted_searches_end_once_every_key_reaches_den_times_the_incumbent() {
        // w = 3/2: keys are 2g + 3h; a goal of 50 prunes keys from 100 on.
        let goal = (50u64 << 32) | 7;
        let w = Weight::ratio(3, 2).unwrap();
        let on = decide(&[report(goal, 99, 0)], w);
        assert_eq!(on.finish, None);
        let done = decide(&[report(goal, 100, 0)], w);
        assert_eq!(done.finish, Some(Finish::Proven));
        // Greedy: the first goal ends the search.
        let greedy = decide(&[report(goal, 1, 0)], Weight::Greedy);
        assert_eq!(greedy.finish, Some(Finish::Proven));
        assert_eq!(
            decide(&[report(u64::MAX, 1, 0)], Weight::Greedy).finish,
            None
        );
    }

    fn report(incumbent: u64, min_f: u64, overflow: u64) -> Report {
        let mut ctrl = vec![0u64; CTRL_COUNTS + 4];
        ctrl[CTRL_INCUMBENT] = incumbent;
        ctrl[CTRL_MIN_F] = min_f;
        ctrl[CTRL_OVERFLOW] = overflow;
        Report { ctrl, stop: None }
    }

    #[test]
    fn the_search_goes_on_while_any_gpu_holds_an_f_below_the_incumbent() {
        let goal = (50u64 << 32) | 7;
        let d = decide(&[report(u64::MAX, 52, 0), report(goal, 49, 0)], A_STAR);
        assert_eq!(d.best, Some((50, 1, 7)));
        assert_eq!(d.finish, None);
        let d = decide(&[report(u64::MAX, 50, 0), report(goal, 51, 0)], A_STAR);
        assert_eq!(d.finish, Some(Finish::Proven));
    }

    /// Parameters that would wrap the children's slot count or divide by
    /// it are refused before any GPU is opened.
    #[test]
    fn heaps_and_memory_shares_out_of_range_are_refused() {
        let ok = MultiGpuConfig::default();
        assert!(ok.check().is_ok());
        for bad in [
            MultiGpuConfig {
                heaps: MultiGpuConfig::MOST_HEAPS + 1,
                ..ok.clone()
            },
            MultiGpuConfig {
                memory_fraction: 0.0,
                ..ok.clone()
            },
            MultiGpuConfig {
                memory_fraction: f64::NAN,
                ..ok.clone()
            },
            MultiGpuConfig {
                memory_fraction: 1.5,
                ..ok.clone()
            },
        ] {
            assert!(bad.device_list().is_err(), "{bad:?}");
        }
        let err = MultiGpuConfig {
            heaps: u32::MAX,
            ..ok
        }
        .check()
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("heaps 4294967295: at most 16777216"),
            "{err}"
        );
    }

    #[test]
    fn the_cheapest_goal_of_any_gpu_is_the_incumbent() {
        let d = decide(
            &[report((60 << 32) | 1, 10, 0), report((58 << 32) | 9, 10, 0)],
            A_STAR,
        );
        assert_eq!(d.best, Some((58, 1, 9)));
    }

    #[test]
    fn no_goal_and_nothing_open_means_no_solution() {
        let d = decide(&vec![report(u64::MAX, u64::from(u32::MAX), 0); 3], A_STAR);
        assert_eq!(
            d,
            Decision {
                best: None,
                finish: Some(Finish::Proven)
            }
        );
    }

    #[test]
    fn a_full_arena_anywhere_ends_the_search_as_a_memory_limit() {
        let d = decide(&[report(u64::MAX, 3, 0), report(u64::MAX, 3, 2)], A_STAR);
        assert_eq!(d.finish, Some(Finish::Limit(Limit::Memory)));
        let d = decide(&[report(u64::MAX, 3, OVERFLOW_F | 1)], A_STAR);
        assert_eq!(d.finish, Some(Finish::CostTooLarge));
    }

    #[test]
    fn a_limit_seen_by_the_first_thread_stops_every_thread() {
        let mut first = report(u64::MAX, 3, 0);
        first.stop = Some(Limit::Time);
        let d = decide(&[first, report(u64::MAX, 3, 0)], A_STAR);
        assert_eq!(d.finish, Some(Finish::Limit(Limit::Time)));
    }

    #[test]
    fn the_spin_barrier_releases_all_parties_and_can_be_abandoned() {
        let barrier = SpinBarrier::new(3);
        let passed = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    for _ in 0..100 {
                        assert!(barrier.wait());
                        passed.fetch_add(1, Ordering::Relaxed);
                    }
                });
            }
        });
        assert_eq!(passed.load(Ordering::Relaxed), 300);
        let lonely = SpinBarrier::new(2);
        lonely.abort();
        assert!(!lonely.wait());
    }
}
