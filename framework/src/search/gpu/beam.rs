//! Beam search on one GPU (framework/kernels/beam.cu), for domains with a
//! GPU plugin: `--executor gpu --beam B`. Each layer is expanded, ranked
//! (g + w·h, or h when greedy) and cut to its best `B` states on the device;
//! the host only reads the keys' histogram and a few counts per layer.
//!
//! Like the CPU beam ([`crate::search::beam`]) it drops duplicates within a
//! layer and states kept in earlier layers, the latter by 64-bit
//! fingerprints in a table of up to 2^28 slots (filled to three quarters;
//! later layers are then checked but not added). Its lower bound has the
//! same argument; a child dropped as seen before joins it with its own f,
//! so a fingerprint collision cannot make the bound unsound.
//!
//! Every layer's parent indices stay on the device, its states only at
//! checkpoints (every few layers, and the last two, which the next
//! expansion reads): the path is read back along the parents, its states
//! at the checkpoints, the steps between found again on the CPU
//! ([`crate::search::gaps::path_between`]), and replayed. On the
//! 48-puzzle (7 words a state, checkpoints every 8 layers) a layer then
//! costs 8 bytes a state on the device instead of 36.

use std::time::Instant;

use cudarc::driver::{CudaSlice, LaunchConfig, PushKernelArg};

use super::{replay, GpuPlugin, PRELUDE};
use crate::domain::{Cost, PackedState};
use crate::gpu::{gpu_error, Gpu};
use crate::search::gaps::path_between;
use crate::search::{DomainOutcome, Limit, Outcome, Progress, SearchOptions, Status};
use crate::stats::SearchStats;
use crate::Error;

const ENGINE: &str = include_str!("../../../kernels/beam.cu");

/// Control words: the `BC_*` defines in framework/kernels/beam.cu.
const BC_FOUND: usize = 0;
const BC_MIN_KEY: usize = 1;
const BC_MAX_KEY: usize = 2;
const BC_DROPPED_F: usize = 3;
const BC_GENERATED: usize = 4;
const BC_MIN_F: usize = 5;
const BC_SEEN: usize = 6;
const BC_WORDS: usize = 7;
/// Slots of the table of kept states' fingerprints, at most (2 GiB).
const MOST_SEEN_SLOTS: usize = 1 << 28;
/// Threads a block, as `BEAM_BLOCK` in the kernel (`beam_count` and
/// `beam_place` rank within blocks of this size).
const BLOCK: u32 = 1024;
/// Threads a block for the other kernels.
const SMALL_BLOCK: u32 = 128;
/// The widest histogram of keys read per layer; keys beyond share its
/// last bin (they are then kept or dropped in index order).
const MOST_BINS: u64 = 1 << 22;
/// The most layers a beam runs (the most moves of a solution).
const MOST_LAYERS: usize = 100_000;
/// The most move sequences the CPU tries to find the steps between two
/// checkpoints: checkpoints are `ln(this) / ln(branching)` layers apart.
const MOST_GAP_SEQUENCES: f64 = 1e5;
/// The most layers between checkpoints (for branching near 1).
const MOST_GAP: usize = 64;

/// Where a beam's time goes, kernel by kernel: kept only at debug level
/// (`-vv`), where each kernel is waited for so that its time is its own
/// (with the host's work just before it; the waits slow the beam a
/// little), and logged when the beam ends.
struct KernelClock {
    on: bool,
    mark: Instant,
    spent: Vec<(&'static str, f64)>,
}

impl KernelClock {
    fn new() -> Self {
        KernelClock {
            on: tracing::enabled!(tracing::Level::DEBUG),
            mark: Instant::now(),
            spent: Vec::new(),
        }
    }

    /// Charges the time since the last mark, once the stream is idle, to `what`.
    fn charge(&mut self, s: &cudarc::driver::CudaStream, what: &'static str) -> Result<(), Error> {
        if !self.on {
            return Ok(());
        }
        s.synchronize().map_err(gpu_error)?;
        let now = Instant::now();
        let seconds = (now - self.mark).as_secs_f64();
        self.mark = now;
        match self.spent.iter_mut().find(|(name, _)| *name == what) {
            Some((_, total)) => *total += seconds,
            None => self.spent.push((what, seconds)),
        }
        Ok(())
    }

    fn log(&self, layers: usize) {
        if self.on {
            let spent: Vec<String> = self
                .spent
                .iter()
                .map(|(name, seconds)| format!("{name} {seconds:.3} s"))
                .collect();
            tracing::debug!(layers, "GPU beam, by kernel: {}", spent.join(", "));
        }
    }
}

/// One layer kept on the device: its states and their g (None once the
/// layer is neither a checkpoint nor one of the last two), its states'
/// parents' indices in the layer before.
struct Layer {
    states: Option<(CudaSlice<u32>, CudaSlice<u32>)>,
    /// Each state's h and rank, two words a state, until the layer is
    /// expanded (its children's may be made from them: `PLUGIN_RANK_CHILD`).
    h_and_rank: Option<CudaSlice<u32>>,
    parent: CudaSlice<u32>,
    len: u32,
}

impl Layer {
    /// Its states and g, which the layers that are expanded still hold.
    fn held(&self) -> Result<&(CudaSlice<u32>, CudaSlice<u32>), Error> {
        self.states
            .as_ref()
            .ok_or_else(|| Error::Gpu("a beam layer's states were freed too early".into()))
    }
}

/// A launch of `threads` threads in blocks of [`SMALL_BLOCK`]: for the
/// kernels that run the plugin's code (expand, heuristic, rank), whose
/// registers can exceed what a block of 1024 threads may hold.
fn small_blocks(threads: u32) -> LaunchConfig {
    blocks_of(threads, SMALL_BLOCK)
}

/// A launch of `threads` threads in blocks of `block`.
fn blocks_of(threads: u32, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (threads.div_ceil(block).max(1), 1, 1),
        block_dim: (block, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Layers between checkpoints for `max_succ` successors a state: as many
/// as keep the move sequences between two checkpoints within
/// [`MOST_GAP_SEQUENCES`].
fn checkpoint_gap(max_succ: usize) -> usize {
    if max_succ <= 1 {
        return MOST_GAP;
    }
    ((MOST_GAP_SEQUENCES.ln() / (max_succ as f64).ln()) as usize).clamp(1, MOST_GAP)
}

/// The packed path, goal first, through `known` states (depth, packed
/// state, g; the start first, the goal last), the steps between them found
/// again on the CPU.
fn fill_gaps<D: PackedState>(
    domain: &D,
    known: &[(usize, Vec<u32>, Cost)],
) -> Result<Vec<u32>, Error> {
    let lost = |why: String| Error::Gpu(format!("the beam's path {why}"));
    let mut states = Vec::new();
    for pair in known.windows(2) {
        let [(from_depth, from, from_g), (to_depth, to, to_g)] = pair else {
            continue;
        };
        let state = domain
            .unpack(from)
            .map_err(|e| lost(format!("holds an invalid state: {e}")))?;
        let steps = to_g
            .checked_sub(*from_g)
            .and_then(|cost| path_between(domain, &state, to, to_depth - from_depth, cost))
            .ok_or_else(|| {
                lost(format!(
                    "has no {} moves of cost {to_g} - {from_g} from its state at depth {from_depth} to the one at {to_depth}",
                    to_depth - from_depth
                ))
            })?;
        if states.is_empty() {
            states.push(state);
        }
        states.extend(steps);
    }
    let words = domain.packed_words();
    let mut packed = vec![0u32; words * states.len()];
    for (state, out) in states.iter().rev().zip(packed.chunks_exact_mut(words)) {
        domain.pack(state, out);
    }
    Ok(packed)
}

/// Beam search of width `options.order.beam` on GPU `device`, ranked by
/// `options.order.weight`. The first layer with a goal ends the search with
/// its cheapest goal, replayed on the CPU; `stats.lower_bound` is the
/// proven bound. Without a GPU this is an error, never a panic.
pub fn gpu_beam<D, P>(
    domain: &D,
    plugin: &P,
    device: usize,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
{
    options.limits.check()?;
    let order = options.order;
    order.check("gpu", true)?;
    let Some(width) = order.beam else {
        return Err(Error::BadConfig("gpu_beam needs a beam width".into()));
    };
    let width = u32::try_from(width)
        .ok()
        .filter(|&w| w <= 1 << 28)
        .ok_or_else(|| Error::BadConfig(format!("beam {width}: at most 2^28 states a layer")))?;
    let started = Instant::now();
    let gpu = Gpu::open(device)?;
    let module = gpu.module(&beam_source(&plugin.source(domain)))?;
    let load = |name: &str| module.load_function(name).map_err(gpu_error);
    let remember = load("beam_remember")?;
    let (rank_of, expand, dedup, histogram, count, place, min_f) = (
        load("beam_rank_of")?,
        load("beam_expand")?,
        load("beam_dedup")?,
        load("beam_histogram")?,
        load("beam_count")?,
        load("beam_place")?,
        load("beam_min_f")?,
    );
    let s = gpu.stream.clone();
    let oom = |e: cudarc::driver::DriverError| {
        Error::Gpu(format!(
            "device memory for a beam of {width} on {}: {e}",
            gpu.name
        ))
    };
    let words = domain.packed_words();
    let max_succ = {
        let probe = load("beam_sizes")?;
        let mut out = s.alloc_zeros::<u32>(2).map_err(gpu_error)?;
        let mut b = s.launch_builder(&probe);
        b.arg(&mut out);
        // SAFETY: the kernel writes two words, which `out` holds.
        unsafe { b.launch(LaunchConfig::for_num_elems(1)) }.map_err(gpu_error)?;
        let mut sizes = [0u32; 2];
        s.memcpy_dtoh(&out, &mut sizes).map_err(gpu_error)?;
        if sizes[1] as usize != words {
            return Err(Error::Gpu(format!(
                "the plugin packs {} words a state, the domain {words}",
                sizes[1]
            )));
        }
        sizes[0].max(1) as usize
    };
    let segments = plugin.tables(domain);
    let tables = super::upload_tables(&s, &segments, super::tables_len(&segments)).map_err(oom)?;
    // Children of one layer, and the table that finds their duplicates.
    let children = width as usize * max_succ;
    let children_u32 = u32::try_from(children)
        .map_err(|_| Error::BadConfig(format!("beam {width}: too many children a layer")))?;
    let mut child_states = s.alloc_zeros::<u32>(children * words).map_err(oom)?;
    let mut child_g = s.alloc_zeros::<u32>(children).map_err(oom)?;
    let mut child_f = s.alloc_zeros::<u32>(children).map_err(oom)?;
    let mut child_rank = s.alloc_zeros::<u32>(children).map_err(oom)?;
    let mut child_key = s.alloc_zeros::<u32>(children).map_err(oom)?;
    let table_slots = (2 * children).next_power_of_two();
    let mut table = s.alloc_zeros::<u64>(table_slots).map_err(oom)?;
    let blocks = children_u32.div_ceil(BLOCK);
    let mut below = s.alloc_zeros::<u32>(blocks as usize).map_err(oom)?;
    let mut at_bin = s.alloc_zeros::<u32>(blocks as usize).map_err(oom)?;
    let mut ctrl = s.alloc_zeros::<u64>(BC_WORDS).map_err(oom)?;
    // Fingerprints of every state kept so far, filled to three quarters.
    let seen_slots = (children * 256).next_power_of_two().min(MOST_SEEN_SLOTS);
    let mut seen = s.alloc_zeros::<u64>(seen_slots).map_err(oom)?;
    let seen_mask = (seen_slots - 1) as u64;
    let mut remembered = 0u64;
    s.memcpy_htod(
        &[u64::MAX; 1],
        &mut ctrl.slice_mut(BC_DROPPED_F..BC_DROPPED_F + 1),
    )
    .map_err(gpu_error)?;

    let start = domain.start();
    let mut packed = vec![0u32; words];
    domain.pack(&start, &mut packed);
    let start_states = s.clone_htod(&packed).map_err(oom)?;
    let mut start_h_and_rank = s.alloc_zeros::<u32>(2).map_err(oom)?;
    let mut b = s.launch_builder(&rank_of);
    b.arg(&start_states)
        .arg(&1u32)
        .arg(&mut start_h_and_rank)
        .arg(&tables);
    // SAFETY: one packed state in, two words out.
    unsafe { b.launch(small_blocks(1)) }.map_err(gpu_error)?;
    let mut layers = vec![Layer {
        states: Some((start_states, s.clone_htod(&[0u32]).map_err(oom)?)),
        h_and_rank: Some(start_h_and_rank),
        parent: s.clone_htod(&[0u32]).map_err(oom)?,
        len: 1,
    }];
    let gap = checkpoint_gap(max_succ);
    let (num, den, greedy) = order.weight.device_ratio();
    let mut stats = SearchStats::default();
    let mut next_report = 0.25;
    let bytes_per_state = (words * 4 + 8) as u64;
    let mut held_bytes = 0u64;
    let child_bytes =
        children as u64 * (words as u64 * 4 + 16) + table_slots as u64 * 8 + seen_slots as u64 * 8;
    // The plugin's kernels (expand, heuristic) take many registers: they
    // run in small blocks; counting and placing need BLOCK-wide blocks.
    let launch = small_blocks;
    let ranked = |threads: u32| blocks_of(threads, BLOCK);

    /// How the layers ended.
    enum End {
        /// A goal: its control word (g and child slot).
        Goal(u64),
        /// The start is a goal.
        Start,
        /// No child left in the beam.
        Nothing,
        /// A limit.
        Limit(Limit),
    }
    let mut clock = KernelClock::new();
    let end = loop {
        if domain.is_goal(&start) {
            break End::Start;
        }
        let seconds = started.elapsed().as_secs_f64();
        if let Some(limit) =
            options
                .limits
                .exceeded(stats.expanded, held_bytes + child_bytes, seconds)
        {
            break End::Limit(limit);
        }
        if layers.len() > MOST_LAYERS {
            return Err(Error::BadConfig(format!(
                "beam {width}: no goal within {MOST_LAYERS} layers"
            )));
        }
        let layer = layers.last().expect("the start layer is never removed");
        let n = layer.len;
        let prev = layers.len().checked_sub(2).map(|i| &layers[i]);
        s.memcpy_htod(
            &[u64::MAX, u64::MAX, 0],
            &mut ctrl.slice_mut(BC_FOUND..BC_MAX_KEY + 1),
        )
        .map_err(gpu_error)?;
        s.memcpy_htod(
            &[0u64, u64::MAX],
            &mut ctrl.slice_mut(BC_GENERATED..BC_MIN_F + 1),
        )
        .map_err(gpu_error)?;
        let has_prev = u32::from(prev.is_some());
        let (layer_states, layer_g) = layer.held()?;
        let layer_h_and_rank = layer
            .h_and_rank
            .as_ref()
            .ok_or_else(|| Error::Gpu("a beam layer's ranks were freed too early".into()))?;
        let prev_states = match prev {
            Some(p) => &p.held()?.0,
            None => layer_states,
        };
        let mut b = s.launch_builder(&expand);
        b.arg(layer_states)
            .arg(layer_g)
            .arg(layer_h_and_rank)
            .arg(&layer.parent)
            .arg(prev_states)
            .arg(&n)
            .arg(&has_prev)
            .arg(&mut child_states)
            .arg(&mut child_g)
            .arg(&mut child_f)
            .arg(&mut child_rank)
            .arg(&mut child_key)
            .arg(&mut ctrl)
            .arg(&num)
            .arg(&den)
            .arg(&greedy)
            .arg(&seen)
            .arg(&seen_mask)
            .arg(&tables);
        // SAFETY: the layer holds `n` states, g and parents, and a parent
        // index names a state of the layer before (or `has_prev` is 0);
        // the child arrays hold `width · MAX_SUCC` entries, `n ≤ width`.
        unsafe { b.launch(launch(n)) }.map_err(gpu_error)?;
        clock.charge(&s, "expand")?;
        stats.expanded += u64::from(n);
        let total = n * max_succ as u32;
        s.memset_zeros(&mut table).map_err(gpu_error)?;
        let mask = (table_slots - 1) as u32;
        let mut b = s.launch_builder(&dedup);
        b.arg(&child_states)
            .arg(&mut child_key)
            .arg(&total)
            .arg(&mut table)
            .arg(&mask);
        // SAFETY: `total` children were written; the table has `mask + 1`
        // slots, more than twice the children, so a probe ends.
        unsafe { b.launch(launch(total)) }.map_err(gpu_error)?;
        clock.charge(&s, "dedup")?;
        let mut words_back = [0u64; BC_WORDS];
        s.memcpy_dtoh(&ctrl, &mut words_back).map_err(gpu_error)?;
        stats.generated += words_back[BC_GENERATED];
        if words_back[BC_FOUND] != u64::MAX {
            // The last layer is not expanded: its children count in the bound.
            let mut b = s.launch_builder(&min_f);
            b.arg(&child_f).arg(&child_key).arg(&total).arg(&mut ctrl);
            // SAFETY: `total` children were written.
            unsafe { b.launch(launch(total)) }.map_err(gpu_error)?;
            break End::Goal(words_back[BC_FOUND]);
        }
        let (least, most) = (words_back[BC_MIN_KEY], words_back[BC_MAX_KEY]);
        if least == u64::MAX {
            break End::Nothing;
        }
        let bins = (most - least + 1).min(MOST_BINS) as u32;
        let base = least as u32;
        let mut counts = s.alloc_zeros::<u32>(bins as usize).map_err(oom)?;
        let mut b = s.launch_builder(&histogram);
        b.arg(&child_key)
            .arg(&total)
            .arg(&base)
            .arg(&bins)
            .arg(&mut counts);
        // SAFETY: the histogram has `bins` counters; keys past it go to the last.
        unsafe { b.launch(launch(total)) }.map_err(gpu_error)?;
        clock.charge(&s, "histogram")?;
        let mut host_counts = vec![0u32; bins as usize];
        s.memcpy_dtoh(&counts, &mut host_counts)
            .map_err(gpu_error)?;
        // The bin at which the beam fills, the states below it, and room
        // left in it.
        let (mut threshold, mut below_all, mut room_at) = (bins, 0u64, 0u64);
        let mut sum = 0u64;
        for (bin, &c) in host_counts.iter().enumerate() {
            if sum + u64::from(c) > u64::from(width) {
                threshold = bin as u32;
                below_all = sum;
                room_at = u64::from(width) - sum;
                break;
            }
            sum += u64::from(c);
        }
        if threshold == bins {
            below_all = sum;
        }
        let mut b = s.launch_builder(&count);
        b.arg(&child_key)
            .arg(&total)
            .arg(&base)
            .arg(&bins)
            .arg(&threshold)
            .arg(&mut below)
            .arg(&mut at_bin);
        // SAFETY: one counter pair per block of `BLOCK` children.
        unsafe { b.launch(ranked(total)) }.map_err(gpu_error)?;
        clock.charge(&s, "count")?;
        let used_blocks = total.div_ceil(BLOCK) as usize;
        let mut host_below = vec![0u32; used_blocks];
        let mut host_at = vec![0u32; used_blocks];
        s.memcpy_dtoh(&below.slice(0..used_blocks), &mut host_below)
            .map_err(gpu_error)?;
        s.memcpy_dtoh(&at_bin.slice(0..used_blocks), &mut host_at)
            .map_err(gpu_error)?;
        let exclusive = |v: &mut [u32]| {
            let mut sum = 0u32;
            for x in v.iter_mut() {
                let here = *x;
                *x = sum;
                sum += here;
            }
        };
        exclusive(&mut host_below);
        exclusive(&mut host_at);
        let below_before = s.clone_htod(&host_below).map_err(oom)?;
        let at_before = s.clone_htod(&host_at).map_err(oom)?;
        let kept = (below_all + room_at) as u32;
        // Every layer stays on the device for the replay, so a long path
        // at a wide beam can fill it: that ends the search at a memory
        // limit (a row, with no solution and so no bound), as a full arena
        // ends GA*; it is not an error that stops an experiment.
        let room = kept.max(1) as usize;
        let (Ok(states), Ok(g), Ok(mut h_and_rank), Ok(parent)) = (
            s.alloc_zeros::<u32>(room * words),
            s.alloc_zeros::<u32>(room),
            s.alloc_zeros::<u32>(2 * room),
            s.alloc_zeros::<u32>(room),
        ) else {
            break End::Limit(Limit::Memory);
        };
        let mut next = Layer {
            states: None,
            h_and_rank: None,
            parent,
            len: kept,
        };
        let (mut next_states, mut next_g) = (states, g);
        let (below_all, room_at) = (below_all as u32, room_at as u32);
        let mut b = s.launch_builder(&place);
        b.arg(&child_states)
            .arg(&child_g)
            .arg(&child_f)
            .arg(&child_rank)
            .arg(&child_key)
            .arg(&total)
            .arg(&base)
            .arg(&bins)
            .arg(&threshold)
            .arg(&below_before)
            .arg(&at_before)
            .arg(&below_all)
            .arg(&room_at)
            .arg(&mut next_states)
            .arg(&mut next_g)
            .arg(&mut h_and_rank)
            .arg(&mut next.parent)
            .arg(&mut ctrl);
        // SAFETY: the prefixes give every kept child a distinct place
        // below `kept` (below_all states under the threshold, at most
        // room_at in it), which the next layer holds.
        unsafe { b.launch(ranked(total)) }.map_err(gpu_error)?;
        clock.charge(&s, "place")?;
        // Remember the kept states while the table has room for them.
        if (remembered + u64::from(kept)) * 4 <= 3 * seen_slots as u64 {
            let mut b = s.launch_builder(&remember);
            b.arg(&next_states)
                .arg(&kept)
                .arg(&mut seen)
                .arg(&seen_mask)
                .arg(&mut ctrl);
            // SAFETY: the layer holds `kept` states; the table stays under
            // three quarters full, so every probe finds a slot.
            unsafe { b.launch(launch(kept)) }.map_err(gpu_error)?;
            clock.charge(&s, "remember")?;
            remembered += u64::from(kept);
        }
        held_bytes += u64::from(kept) * bytes_per_state;
        stats.peak_open = stats.peak_open.max(u64::from(kept));
        next.states = Some((next_states, next_g));
        next.h_and_rank = Some(h_and_rank);
        // The expanded layer's ranks are read no more.
        if let Some(last) = layers.last_mut() {
            last.h_and_rank = None;
        }
        layers.push(next);
        // The layer before the last two is expanded no more: its states
        // go unless it is a checkpoint.
        if let Some(old) = layers.len().checked_sub(3).filter(|i| i % gap != 0) {
            if layers[old].states.take().is_some() {
                held_bytes -= u64::from(layers[old].len) * (words * 4 + 4) as u64;
            }
        }
        if kept == 0 {
            break End::Nothing;
        }
        let seconds = started.elapsed().as_secs_f64();
        if seconds >= next_report {
            next_report = seconds + 0.25;
            if let Some(sink) = &options.progress {
                let mut least_f = [0u64];
                s.memcpy_dtoh(&ctrl.slice(BC_MIN_F..BC_MIN_F + 1), &mut least_f)
                    .map_err(gpu_error)?;
                sink(&Progress {
                    expanded: stats.expanded,
                    open: u64::from(kept),
                    f: Cost::try_from(least_f[0]).unwrap_or(Cost::MAX),
                    seconds,
                });
            }
        }
    };
    clock.log(layers.len());
    let seconds = started.elapsed().as_secs_f64();
    stats.peak_bytes = held_bytes + child_bytes;
    let mut kept_states = [0u64];
    s.memcpy_dtoh(&ctrl.slice(BC_SEEN..BC_SEEN + 1), &mut kept_states)
        .map_err(gpu_error)?;
    stats.peak_closed = kept_states[0];
    let status = match end {
        End::Nothing => Status::NoSolution,
        End::Limit(limit) => Status::LimitReached(limit),
        End::Start => Status::Solved(
            replay(domain, vec![start])
                .map_err(|_| Error::Gpu("the start does not replay".into()))?,
        ),
        End::Goal(word) => {
            let g = (word >> 32) as Cost;
            let slot = (word & 0xFFFF_FFFF) as usize;
            // The goal, then back along the parents: the states (and g) of
            // the layers that kept them, depth first from the goal.
            let mut goal = vec![0u32; words];
            s.memcpy_dtoh(
                &child_states.slice(slot * words..(slot + 1) * words),
                &mut goal,
            )
            .map_err(gpu_error)?;
            let mut known = vec![(layers.len(), goal, g)];
            let mut index = slot / max_succ;
            for (depth, layer) in layers.iter().enumerate().rev() {
                if let Some((states, layer_g)) = &layer.states {
                    let mut state = vec![0u32; words];
                    s.memcpy_dtoh(
                        &states.slice(index * words..(index + 1) * words),
                        &mut state,
                    )
                    .map_err(gpu_error)?;
                    let mut at = [0u32];
                    s.memcpy_dtoh(&layer_g.slice(index..index + 1), &mut at)
                        .map_err(gpu_error)?;
                    known.push((depth, state, at[0] as Cost));
                }
                let mut parent = [0u32];
                s.memcpy_dtoh(&layer.parent.slice(index..index + 1), &mut parent)
                    .map_err(gpu_error)?;
                index = parent[0] as usize;
            }
            known.reverse();
            let path = fill_gaps(domain, &known)?;
            let solution = crate::search::replay_traced(domain, &path, g)
                .map_err(|why| Error::Gpu(format!("the beam's path {why}")))?;
            Status::Solved(solution)
        }
    };
    if let Status::Solved(solution) = &status {
        let mut dropped = [0u64];
        s.memcpy_dtoh(&ctrl.slice(BC_DROPPED_F..BC_DROPPED_F + 1), &mut dropped)
            .map_err(gpu_error)?;
        let lower = Cost::try_from(dropped[0])
            .unwrap_or(Cost::MAX)
            .min(solution.cost);
        stats.bound_solution(seconds, solution.cost, lower, order.weight.value());
    }
    stats.finish(seconds);
    Ok(Outcome { status, stats })
}

/// Each state's `(h, rank)` as GPU `device` computes them for a beam
/// (the plugin's `heuristic`, and its `rank` under `PLUGIN_RANK`, else h):
/// for tests that a plugin ranks as the CPU's [`crate::Heuristic::rank`]
/// does, as [`super::device_owners`] checks partitions.
pub fn device_ranks<D, P>(
    device: usize,
    domain: &D,
    plugin: &P,
    states: &[D::State],
) -> Result<Vec<(Cost, Cost)>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
{
    rank_kernel(device, domain, plugin, "beam_rank_of", &[states])
}

/// Each child's `(h, rank)` as a GPU beam makes them from its parent
/// (`pairs`: parent, child), through the plugin's incremental hooks
/// (`PLUGIN_H_CHILD` with `PLUGIN_RANK_DETAIL`, or `PLUGIN_RANK_CHILD`) where
/// it has them: for tests that
/// they equal [`device_ranks`] and the CPU's.
pub fn device_child_ranks<D, P>(
    device: usize,
    domain: &D,
    plugin: &P,
    pairs: &[(D::State, D::State)],
) -> Result<Vec<(Cost, Cost)>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
{
    let (parents, children): (Vec<D::State>, Vec<D::State>) = pairs.iter().cloned().unzip();
    rank_kernel(
        device,
        domain,
        plugin,
        "beam_child_rank_of",
        &[&parents, &children],
    )
}

/// Runs the test kernel `name` of the beam's source over `inputs` (lists
/// of states of equal length, each packed into its own buffer), which
/// writes two words for each: `(h, rank)`.
fn rank_kernel<D, P>(
    device: usize,
    domain: &D,
    plugin: &P,
    name: &str,
    inputs: &[&[D::State]],
) -> Result<Vec<(Cost, Cost)>, Error>
where
    D: PackedState,
    P: GpuPlugin<D>,
{
    let n = inputs.first().map_or(0, |states| states.len());
    let gpu = Gpu::open(device)?;
    let module = gpu.module(&beam_source(&plugin.source(domain)))?;
    let kernel = module.load_function(name).map_err(gpu_error)?;
    let s = gpu.stream.clone();
    let segments = plugin.tables(domain);
    let tables =
        super::upload_tables(&s, &segments, super::tables_len(&segments)).map_err(gpu_error)?;
    let mut buffers = Vec::with_capacity(inputs.len());
    for states in inputs {
        buffers.push(
            s.clone_htod(&super::pack_all(domain, states))
                .map_err(gpu_error)?,
        );
    }
    let mut ranks = s.alloc_zeros::<u32>(2 * n.max(1)).map_err(gpu_error)?;
    let count =
        u32::try_from(n).map_err(|_| Error::BadConfig(format!("{name}: at most 2^32 states")))?;
    let mut b = s.launch_builder(&kernel);
    for buffer in &buffers {
        b.arg(buffer);
    }
    b.arg(&count).arg(&mut ranks).arg(&tables);
    // SAFETY: each buffer holds `count` packed states (the kernels take
    // one or two such lists, then the count, the output and the tables),
    // and `ranks` two words for each.
    unsafe { b.launch(small_blocks(count)) }.map_err(gpu_error)?;
    let mut out = vec![0u32; 2 * n];
    s.memcpy_dtoh(&ranks.slice(0..2 * n), &mut out)
        .map_err(gpu_error)?;
    Ok(out.chunks_exact(2).map(|pair| (pair[0], pair[1])).collect())
}

/// The GPU beam's kernel source: the engine after `plugin_source`.
/// `FRONTIER_BEAM_AFRESH=1` makes every child's h and rank afresh instead
/// of from its parent's detail where the plugin's rank has one
/// (`BEAM_AFRESH` in beam.cu): the same numbers, for measuring what the
/// detail saves.
pub(super) fn beam_source(plugin_source: &str) -> String {
    let afresh = if std::env::var("FRONTIER_BEAM_AFRESH").is_ok_and(|v| v == "1") {
        "#define BEAM_AFRESH\n"
    } else {
        ""
    };
    format!(
        "{PRELUDE}{afresh}{plugin_source}\n{}{ENGINE}",
        super::multi::STATE_HASH
    )
}
