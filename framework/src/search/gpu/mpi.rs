//! HDA* over the GPUs of an MPI job (`mpirun -np N frontier ... --executor
//! mpi-gpu`): one rank per GPU, each driving GA* on its GPU as a thread of
//! `multi-gpu` does, with the same kernels and the same decision rule.
//!
//! What `multi-gpu` shares between threads travels between processes
//! instead. Each rank's inbox is a plain device allocation whose CUDA IPC
//! handle is all-gathered at the start; every rank maps the others' inboxes
//! (with peer access enabled lazily), so the expansion kernel still writes
//! each child straight into its owner's inbox, with no copy through the
//! host (on one host; across hosts the kernel writes them into a local
//! staging buffer instead, and one all-to-all per iteration carries them
//! through the host). The barrier after every iteration is an all-gather of the control
//! words, after which every rank applies [`decide`] to the same reports.
//! The path is traced by broadcasts from each node's owner. IPC handles
//! reach only GPUs of the same host; when the ranks do not all share one
//! host (or `FRONTIER_MPI_GPU_EXCHANGE=host` asks for it), every rank
//! stages instead.

use std::time::Instant;

use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

use super::multi::{
    counts_of, decide, incoming_for, is_cut, kernel_source, max_successors, report_progress,
    Finish, Report,
};
use super::shard::{
    Incoming, Layout, Shard, CTRL_COUNTS, CTRL_EXPANDED, CTRL_NODES, CTRL_OVERFLOW, MAX_F, MAX_GPUS,
};
use super::{GpuPartitioner, GpuPlugin, MultiGpuConfig};
use crate::domain::{Cost, PackedState};
use crate::gpu::Gpu;
use crate::search::hda::{keep_workers, share_after, summarize, WorkerCounts};
use crate::search::replay_traced;
use crate::search::{DomainOutcome, Limit, Outcome, SearchOptions, Status};
use crate::Error;

/// Runs GA* on one GPU per rank of the MPI job, as [`super::multi_gpu`]
/// runs it on the GPUs of one process. Rank `r` takes the `r`-th device of
/// its host (among `config.devices` when given). Every rank must call it
/// with the same instance and config; every rank returns the same outcome.
///
/// ```no_run
/// // Run as `mpirun -np 2 my-program` on a host with two GPUs, in a build
/// // with the `mpi` feature.
/// use frontier_core::grid::{Grid, Manhattan};
/// use frontier_core::search::gpu::{mpi_gpu, MultiGpuConfig, PackedHasher};
/// use frontier_core::search::mpi;
/// use frontier_core::SearchOptions;
/// mpi::init()?;
/// let maze = Grid::parse("S..#\n.#..\n...G").unwrap();
/// let config = MultiGpuConfig::default();
/// let outcome = mpi_gpu(&maze, &Manhattan, &PackedHasher, &config, &SearchOptions::default())?;
/// assert_eq!(outcome.solution().unwrap().cost, 5);
/// mpi::finalize();
/// # Ok::<(), frontier_core::Error>(())
/// ```
pub fn mpi_gpu<D, P, Q>(
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
    options.order.not_yet("mpi-gpu")?;
    crate::search::mpi::init()?;
    let world = SimpleCommunicator::world();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    if ranks > MAX_GPUS {
        return Err(Error::Gpu(format!(
            "{ranks} ranks; one search runs on at most {MAX_GPUS} GPUs"
        )));
    }
    let local = world.split_shared(0).rank() as usize;
    let device = if config.devices.is_empty() {
        local % crate::gpu::device_count()?.max(1)
    } else {
        config.devices[local % config.devices.len()]
    };
    let source = kernel_source(domain, plugin, partition);
    agree(&world, &source)?;
    // CUDA IPC reaches only GPUs of this host: with ranks on several hosts
    // (or when asked, to measure it on one) the host carries the records.
    let one_host = world.split_shared(0).size() as usize == ranks;
    let asked = std::env::var("FRONTIER_MPI_GPU_EXCHANGE").is_ok_and(|v| v == "host");
    let mut staged = 0u8;
    world.all_reduce_into(
        &u8::from(ranks > 1 && (!one_host || asked)),
        &mut staged,
        mpi::collective::SystemOperation::max(),
    );
    let staged = staged != 0;
    config.check()?;
    let layout = Layout {
        words: domain.packed_words(),
        max_succ: max_successors(&source)
            .ok_or_else(|| Error::Gpu("plugin defines no MAX_SUCC".into()))?,
        heaps: config.heaps.max(32),
        table_log2: config.table_log2,
        memory_fraction: config.memory_fraction,
        gpus: ranks as u32,
        partial: config.partial_expansion,
        ipc: ranks > 1 && !staged,
        staged,
    };
    let segments = plugin.tables(domain);
    let mut shard = Shard::new(
        Gpu::open(device)?,
        rank as u32,
        &source,
        &layout,
        &segments,
        &partition.device_table(),
    )?;
    // From here on a rank failing alone would leave the others waiting in
    // a collective: it ends the job instead.
    let record_words = layout.record_words();
    let outcome = search(&world, &mut shard, domain, partition, options, record_words);
    let outcome = outcome.unwrap_or_else(|e| {
        eprintln!("error: rank {rank} of {ranks}: {e}");
        crate::search::mpi::abort(1)
    });
    // Unmap the others' inboxes, then free this one only once nobody maps it.
    shard.disconnect_ipc();
    world.barrier();
    drop(shard);
    Ok(outcome)
}

/// Fails on every rank unless all compiled the same kernel source (the
/// same domain, plugin tables' shape and partition).
fn agree(world: &SimpleCommunicator, source: &str) -> Result<(), Error> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut hasher);
    let mine = hasher.finish();
    let (mut low, mut high) = (0u64, 0u64);
    world.all_reduce_into(&mine, &mut low, mpi::collective::SystemOperation::min());
    world.all_reduce_into(&mine, &mut high, mpi::collective::SystemOperation::max());
    if low != high {
        return Err(Error::Gpu(
            "the ranks were given different instances, heuristics or partitions".into(),
        ));
    }
    Ok(())
}

/// The limit a stop word names (0: none).
fn stop_word(stop: Option<Limit>) -> u64 {
    match stop {
        None => 0,
        Some(Limit::Expansions) => 1,
        Some(Limit::Memory) => 2,
        Some(Limit::Time) => 3,
    }
}

fn stop_of(word: u64) -> Option<Limit> {
    match word {
        1 => Some(Limit::Expansions),
        2 => Some(Limit::Memory),
        3 => Some(Limit::Time),
        _ => None,
    }
}

fn search<D, Q>(
    world: &SimpleCommunicator,
    shard: &mut Shard,
    domain: &D,
    partition: &Q,
    options: &SearchOptions,
    record_words: usize,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    Q: GpuPartitioner<D>,
{
    let (me, gpus) = (world.rank() as usize, world.size() as usize);
    let staged = shard.is_staged();
    if staged {
        shard.connect_staged()?;
    } else if gpus > 1 {
        let handle = shard.inbox_handle()?;
        let mut handles = vec![0u8; 64 * gpus];
        world.all_gather_into(&handle[..], &mut handles[..]);
        let handles: Vec<[u8; 64]> = handles
            .chunks_exact(64)
            .map(|c| {
                let mut h = [0u8; 64];
                h.copy_from_slice(c);
                h
            })
            .collect();
        shard.connect_ipc(&handles)?;
    }
    let start = domain.start();
    let mut packed = vec![0u32; domain.packed_words()];
    domain.pack(&start, &mut packed);
    let home = partition.owner(domain, &start, gpus as u32) as usize;
    shard.reset((home == me).then_some(&packed[..]))?;
    let mut per_node = vec![0f64; gpus];
    world.all_gather_into(&shard.bytes_per_node, &mut per_node[..]);
    world.barrier();

    let started = Instant::now();
    let words = CTRL_COUNTS + 2 * gpus;
    let mut ctrl = vec![0u64; words];
    let mut mine = vec![0u64; words + 1];
    let mut all = vec![0u64; (words + 1) * gpus];
    let (mut bound, mut parity, mut iteration) = (Cost::MAX, 0u32, 0u32);
    let (mut expanded, mut stored_bytes, mut next_report) = (0u64, 0u64, 0.25);
    let mut found: Option<((Cost, u32, u32), f64)> = None;
    let (finish, reports) = loop {
        shard.expand(bound, parity)?;
        shard.read_ctrl(&mut ctrl)?;
        let stop = if me == 0 {
            let seconds = started.elapsed().as_secs_f64();
            options.limits.exceeded(expanded, stored_bytes, seconds)
        } else {
            None
        };
        mine[..words].copy_from_slice(&ctrl);
        mine[words] = stop_word(stop);
        // The barrier of `multi-gpu`: every rank's kernel has finished
        // writing into the others' inboxes before its words arrive.
        world.all_gather_into(&mine[..], &mut all[..]);
        let reports: Vec<Report> = all
            .chunks_exact(words + 1)
            .map(|c| Report {
                ctrl: c[..words].to_vec(),
                stop: stop_of(c[words]),
            })
            .collect();
        let decision = decide(&reports, crate::search::Weight::ONE);
        if let Some(best) = decision.best {
            if found.is_none_or(|(b, _)| best.0 < b.0) {
                found = Some((best, started.elapsed().as_secs_f64()));
            }
        }
        if let Some(finish) = decision.finish {
            break (finish, reports);
        }
        bound = decision.best.map_or(Cost::MAX, |b| b.0);
        expanded = reports.iter().map(|r| r.ctrl[CTRL_EXPANDED]).sum();
        stored_bytes = reports
            .iter()
            .zip(&per_node)
            .map(|(r, per)| (r.ctrl[CTRL_NODES] as f64 * per) as u64)
            .sum();
        if me == 0 {
            let seconds = started.elapsed().as_secs_f64();
            report_progress(&reports, seconds, &mut next_report, options);
        }
        let incoming = incoming_for(&reports, me, parity);
        if staged {
            exchange(world, shard, &ctrl, &incoming, parity, record_words)?;
        }
        shard.insert(parity, iteration, &incoming)?;
        parity ^= 1;
        iteration = iteration.wrapping_add(1);
    };
    let lower = if is_cut(finish) {
        cut_bound(
            world,
            shard,
            &reports,
            found,
            parity,
            iteration,
            record_words,
        )?
    } else {
        None
    };
    let seconds = started.elapsed().as_secs_f64();
    let status = match finish {
        Finish::Limit(limit) => Status::LimitReached(limit),
        Finish::CostTooLarge => {
            return Err(Error::Gpu(format!(
                "a path cost exceeds {MAX_F}, the largest f the GPU heap keys hold"
            )))
        }
        Finish::Proven => match found {
            None => Status::NoSolution,
            Some(((cost, gpu, node), _)) => {
                Status::Solved(trace(world, shard, domain, gpu, node, cost)?)
            }
        },
    };
    // A node count past the arena (a full arena) is capped at this rank's
    // capacity: the ranks size their arenas alike.
    let workers: Vec<WorkerCounts> = reports
        .iter()
        .map(|r| counts_of(&r.ctrl, shard.node_cap, seconds))
        .collect();
    let mut stats = summarize(&workers, seconds);
    stats.peak_bytes = stored_bytes;
    stats.handoff_share = None;
    if matches!(status, Status::Solved(_)) {
        stats.termination_overhead = found.map(|(_, at)| share_after(at, seconds));
    }
    stats.lower_bound = lower;
    keep_workers(&mut stats, workers);
    Ok(Outcome { status, stats })
}

/// What a search stopped by a limit proved: the least f = g + h left on
/// any rank's heaps, among its pruned children or in the last round's
/// inboxes (taken onto the heaps first, as a next round would), and the
/// cost of any goal found. With an admissible heuristic some state on an
/// optimal path is among them at its optimal g, or the goal found is
/// optimal. `None` where a heap overflowed on the way (a child dropped).
/// Every rank calls it: the exchange and the reduction are collective.
fn cut_bound(
    world: &SimpleCommunicator,
    shard: &mut Shard,
    reports: &[Report],
    found: Option<((Cost, u32, u32), f64)>,
    parity: u32,
    iteration: u32,
    record_words: usize,
) -> Result<Option<Cost>, Error> {
    let (me, gpus) = (world.rank() as usize, world.size() as usize);
    if gpus > 1 {
        let incoming = incoming_for(reports, me, parity);
        if shard.is_staged() {
            exchange(
                world,
                shard,
                &reports[me].ctrl,
                &incoming,
                parity,
                record_words,
            )?;
        }
        shard.insert(parity, iteration, &incoming)?;
    }
    let mut ctrl = vec![0u64; reports[me].ctrl.len()];
    shard.read_ctrl(&mut ctrl)?;
    // Whether this rank kept every child, and its least f.
    let mine = [u64::from(ctrl[CTRL_OVERFLOW] == 0), shard.least_f()?];
    let mut all = vec![0u64; 2 * gpus];
    world.all_gather_into(&mine[..], &mut all[..]);
    if all.chunks_exact(2).any(|c| c[0] == 0) {
        return Ok(None);
    }
    let found = found.map_or(Cost::MAX, |((cost, _, _), _)| cost);
    let least = all
        .chunks_exact(2)
        .map(|c| c[1])
        .fold(u64::from(found), u64::min);
    Ok(Cost::try_from(least)
        .ok()
        .filter(|&least| least < Cost::MAX))
}

/// Carries this iteration's staged records: each rank's records for every
/// other rank, in one all-to-all, into the receivers' inboxes.
fn exchange(
    world: &SimpleCommunicator,
    shard: &mut Shard,
    ctrl: &[u64],
    incoming: &Incoming,
    parity: u32,
    record_words: usize,
) -> Result<(), Error> {
    use mpi::datatype::{Partition, PartitionMut};
    let (me, gpus) = (world.rank() as usize, world.size() as usize);
    let mut send = Vec::new();
    let mut send_counts = vec![0 as mpi::Count; gpus];
    for (to, count) in send_counts
        .iter_mut()
        .enumerate()
        .filter(|&(to, _)| to != me)
    {
        let records = ctrl[CTRL_COUNTS + parity as usize * gpus + to] as u32;
        let before = send.len();
        shard.staged_for(parity, to, records, &mut send)?;
        *count = (send.len() - before) as mpi::Count;
    }
    let recv_counts: Vec<mpi::Count> = (0..gpus)
        .map(|from| (incoming.count[from] as usize * record_words) as mpi::Count)
        .collect();
    let displs = |counts: &[mpi::Count]| -> Vec<mpi::Count> {
        counts
            .iter()
            .scan(0, |at, &n| {
                let here = *at;
                *at += n;
                Some(here)
            })
            .collect()
    };
    let (send_displs, recv_displs) = (displs(&send_counts), displs(&recv_counts));
    let mut recv = vec![0u32; recv_counts.iter().map(|&n| n as usize).sum()];
    world.all_to_all_varcount_into(
        &Partition::new(&send[..], &send_counts[..], &send_displs[..]),
        &mut PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]),
    );
    for from in (0..gpus).filter(|&from| from != me) {
        let at = recv_displs[from] as usize;
        let words = &recv[at..at + recv_counts[from] as usize];
        shard.receive_staged(parity, from, words)?;
    }
    Ok(())
}

/// Reads the path back from `node` on rank `gpu`'s GPU, following parents
/// from rank to rank: each segment's owner broadcasts it. Every rank calls
/// this and gets the same solution, which must cost `cost`.
fn trace<D: PackedState>(
    world: &SimpleCommunicator,
    shard: &mut Shard,
    domain: &D,
    gpu: u32,
    node: u32,
    cost: Cost,
) -> Result<crate::Solution<D::State, D::Move>, Error> {
    let mut packed = Vec::new();
    let mut at = (gpu, node);
    for _ in 0..1 << 20 {
        let owner = at.0 as usize;
        if owner >= world.size() as usize {
            return Err(Error::Gpu(format!("the GPU path names rank {owner}")));
        }
        // [states' words, next rank (u32::MAX: none), next node]
        let mut header = [0u32; 3];
        let mut states = Vec::new();
        if owner == world.rank() as usize {
            let (segment, next) = shard.trace(at.1)?;
            let (rank, node) = next.unwrap_or((u32::MAX, 0));
            header = [segment.len() as u32, rank, node];
            states = segment;
        }
        let root = world.process_at_rank(owner as i32);
        root.broadcast_into(&mut header[..]);
        states.resize(header[0] as usize, 0);
        root.broadcast_into(&mut states[..]);
        packed.extend(states);
        if header[1] == u32::MAX {
            return replay_traced(domain, &packed, cost)
                .map_err(|e| Error::Gpu(format!("the GPU path {e}")));
        }
        at = (header[1], header[2]);
    }
    Err(Error::Gpu(
        "the GPU path does not lead back to the start".into(),
    ))
}
