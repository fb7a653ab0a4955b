//! Hash-distributed A* (Kishimoto, Fukunaga & Botea 2009) on threads.
//!
//! Every state has one owner thread, chosen by a [`Partitioner`]. Each
//! thread runs A* on its own open list and closed table; a generated state
//! owned by another thread is batched into an outbox and sent over a
//! channel, so no lock is taken on the hot path.
//!
//! Termination: the best solution cost found so far (the incumbent) is
//! shared atomically. A thread is idle when its open list holds nothing
//! with f below the incumbent and its inbox is empty. The search ends when
//! every thread is idle and no batch is in flight — then nothing anywhere
//! has f below the incumbent, so with an admissible heuristic it is optimal.
//! The check reads an epoch counter before and after looking at the idle
//! flags and the in-flight count; a thread that wakes up bumps the epoch,
//! so a check that raced with a wake-up is discarded.
//!
//! Load balance: the partitioner sorts states into 4096 buckets and workers
//! own buckets. Abstraction-based partitions (AZH) keep most successors in
//! their parent's bucket, but a search concentrates in few abstract states,
//! and hashing few heavy buckets onto workers leaves some with twice the
//! mean load; with workers kept on one f-layer, every layer then lasts as
//! long as the busiest worker's share. So when all workers have passed a
//! layer, the first to notice compares the buckets' expansions since the
//! last such plan and asks the busiest workers to hand buckets to the
//! idlest. A handoff sends the bucket's whole store (closed table, arena,
//! open states) as one message and changes its entry in the shared owner
//! map; states sent on a stale entry are forwarded. Node references name a
//! bucket and an index in its arena, so they survive the move.

mod balance;

#[cfg(feature = "mpi")]
pub(crate) use balance::plan_moves;

use balance::{Handoff, LastPlan};
mod counts;
mod incumbent;

pub use counts::{keep_workers, summarize, WorkerCounts};
pub use incumbent::{share_after, Incumbent};

use std::collections::BinaryHeap;
use std::hash::BuildHasher;
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Acquire, Ordering::Relaxed,
    Ordering::Release, Ordering::SeqCst,
};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hashbrown::HashTable;
use serde::{Deserialize, Serialize};

use crate::domain::{Cost, Domain, Heuristic, Partitioner};
use crate::search::{
    trace, DomainOutcome, Improvement, Limit, Order, Outcome, Progress, SearchOptions, Solution,
    Status, Weight,
};

/// Parameters of [`hda`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HdaConfig {
    /// Worker threads.
    pub threads: usize,
    /// States per message batch.
    pub batch: usize,
    /// The partitioner by name, resolved by the domain: `hash` (uniform
    /// hashing) always exists; domains add Zobrist and abstract variants.
    pub partition: String,
    /// How far a worker's f may run ahead of the lowest f any worker holds.
    /// `Some(0)` keeps workers on the same f-layer: a lightly loaded worker
    /// waits instead of expanding nodes the search may not need (and popping
    /// the goal long before optimality can be proven). `None` is classic
    /// unsynchronised HDA*. Never affects the cost returned.
    pub max_lead: Option<Cost>,
    /// Moves buckets of states from the busiest workers to the idlest
    /// between f-layers (with `max_lead` set): abstraction-based partitions
    /// such as AZH concentrate a search in few abstract states, and hashing
    /// few heavy keys onto workers leaves some with twice the mean load.
    /// Never affects the cost returned.
    pub rebalance: bool,
}

impl HdaConfig {
    /// Why [`hda`] cannot run with these parameters, if it cannot: 1 to
    /// [`crate::MAX_THREADS`] workers, batches of 1 to 2^20 states (each
    /// worker keeps a batch's room for every other).
    pub fn check(&self) -> Result<(), crate::Error> {
        crate::check_threads("hda", self.threads)?;
        const MOST_BATCH: usize = 1 << 20;
        if !(1..=MOST_BATCH).contains(&self.batch) {
            return Err(crate::Error::BadConfig(format!(
                "hda: batch {}: give 1 to {MOST_BATCH} states",
                self.batch
            )));
        }
        Ok(())
    }
}

impl Default for HdaConfig {
    fn default() -> Self {
        HdaConfig {
            threads: std::thread::available_parallelism().map_or(2, usize::from),
            batch: 64,
            partition: "hash".into(),
            max_lead: Some(0),
            rebalance: true,
        }
    }
}

/// Identifies a node: its bucket in the high half, its index in the
/// bucket's arena in the low half. Arenas move with their bucket, so a
/// reference stays valid wherever the bucket goes.
type NodeRef = u64;
const NO_PARENT: NodeRef = u64::MAX;

fn node_ref(bucket: usize, index: usize) -> NodeRef {
    ((bucket as u64) << 32) | index as u64
}

fn split_ref(at: NodeRef) -> (usize, usize) {
    ((at >> 32) as usize, (at & 0xFFFF_FFFF) as usize)
}

/// The partitioner sorts states into this many buckets; workers own
/// buckets, not hash ranges, so ownership can move. Many more buckets than
/// workers, so a layer's work splits finely; few enough that the owner map
/// stays in cache.
const BUCKETS: u32 = 4096;

struct Node<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: NodeRef,
    g: Cost,
    h: Cost,
    closed: bool,
}

/// The closed table and arena of one bucket, owned by one worker at a time.
struct Store<D: Domain> {
    nodes: Vec<Node<D>>,
    index: HashTable<u32>,
    /// Expansions of this bucket's states so far, and as last published.
    expanded: u64,
    published: u64,
}

impl<D: Domain> Store<D> {
    fn new() -> Self {
        Store {
            nodes: Vec::new(),
            index: HashTable::new(),
            expanded: 0,
            published: 0,
        }
    }
}

/// A state on its way to its owner, with the bound the sender computed.
struct Message<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: NodeRef,
    g: Cost,
    h: Cost,
    bucket: u32,
}

type Batch<D> = Vec<Message<D>>;

/// What travels between workers: states, or a whole bucket changing owner.
enum Envelope<D: Domain> {
    States(Batch<D>),
    Bucket(usize, Box<Store<D>>),
}

impl<D: Domain> Envelope<D> {
    /// How much this envelope counts in `Shared::in_flight`.
    fn weight(&self) -> i64 {
        match self {
            Envelope::States(batch) => batch.len() as i64,
            Envelope::Bucket(..) => 1,
        }
    }
}

/// An open-list entry naming its node by bucket and index.
type OpenEntry = crate::search::astar::OpenEntry<NodeRef>;

/// A per-worker value on its own cache line, so that one worker's writes
/// do not invalidate the line its neighbours' values sit on.
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// What all workers share.
struct Shared {
    incumbent: Incumbent<NodeRef>,
    /// The least f pruned (see `order`): nodes with f at or above it
    /// cannot lead to a goal the search still needs. `Cost::MAX` until the
    /// first goal.
    cutoff: AtomicU32,
    /// The least f of the nodes pruned so far, for the lower bound.
    least_pruned: AtomicU32,
    /// How often an anytime search has lowered its weight.
    phase: AtomicU32,
    /// Improved solutions, for the anytime trace.
    improvements: Mutex<Vec<Improvement>>,
    /// Workers still to finish their last sends before they drain what
    /// is left in their inboxes.
    finishing: std::sync::Barrier,
    in_flight: AtomicI64,
    idle: Vec<Padded<AtomicBool>>,
    epoch: AtomicU64,
    done: AtomicBool,
    stopped_by: Mutex<Option<Limit>>,
    expanded: AtomicU64,
    bytes: Vec<Padded<AtomicU64>>,
    /// Each worker's lowest open f (`Cost::MAX` when it has none).
    min_f: Vec<Padded<AtomicU32>>,
    started: Instant,
    /// The worker that owns each bucket. Only the worker holding a bucket's
    /// store changes its entry, so ownership is never contested; a state
    /// sent on a stale entry is forwarded by the former owner.
    owner_of: Vec<AtomicU32>,
    /// Each bucket's expansions so far, as last published by its owner.
    bucket_load: Vec<AtomicU64>,
    /// The lowest f at which the balancer last planned (written under
    /// `last_plan`'s lock).
    planned_at: AtomicU32,
    last_plan: Mutex<LastPlan>,
    /// Buckets the balancer asked each worker to hand over, with the taker.
    requests: Vec<Padded<Mutex<Vec<Handoff>>>>,
    has_requests: Vec<Padded<AtomicBool>>,
}

impl Shared {
    /// The lowest f published by any worker: a lower bound on everything
    /// open, up to states in flight (which only makes gating looser).
    fn lowest_f(&self) -> Cost {
        self.min_f
            .iter()
            .map(|f| f.load(Acquire))
            .min()
            .unwrap_or(Cost::MAX)
    }

    /// Ends the search because `limit` was reached (the first one wins).
    fn stop(&self, limit: Limit) {
        if let Ok(mut s) = self.stopped_by.lock() {
            s.get_or_insert(limit);
        }
        self.done.store(true, SeqCst);
    }

    /// Whether every worker is idle with nothing in flight, checked so that a
    /// concurrent wake-up invalidates the answer.
    fn quiescent(&self) -> bool {
        let before = self.epoch.load(SeqCst);
        let all_idle = self.idle.iter().all(|i| i.load(SeqCst));
        let nothing_in_flight = self.in_flight.load(SeqCst) == 0;
        all_idle && nothing_in_flight && self.epoch.load(SeqCst) == before
    }
}

struct Worker<'a, D: Domain, H, P> {
    id: usize,
    domain: &'a D,
    heuristic: &'a H,
    partitioner: &'a P,
    shared: &'a Shared,
    options: &'a SearchOptions,
    config: &'a HdaConfig,
    /// `stores[b]` is `Some` while this worker holds bucket `b`.
    stores: Vec<Option<Box<Store<D>>>>,
    /// States of buckets handed to this worker whose store is still on its
    /// way: inserted when it arrives, so no node is indexed twice.
    pending: std::collections::HashMap<usize, Vec<Message<D>>>,
    /// States held in all stores.
    held: u64,
    /// Buckets expanded since the counts were last published.
    touched: Vec<usize>,
    open: BinaryHeap<OpenEntry>,
    outboxes: Vec<Batch<D>>,
    /// Emptied batch buffers from received messages, reused for outboxes:
    /// buffers circulate between threads instead of being allocated by
    /// one and freed by another (a contended path in the allocator).
    spare: Vec<Batch<D>>,
    senders: Vec<Sender<Envelope<D>>>,
    stats: WorkerCounts,
    hasher: hashbrown::DefaultHashBuilder,
    next_report: f64,
    /// The f this worker last published.
    published_f: Cost,
    /// The global lowest f as last read.
    lowest_seen: Cost,
    /// The lowest f at which this worker last offered to plan.
    plan_tried_at: Cost,
    /// The lowest key among states in the outboxes since they were last
    /// all flushed.
    unsent_min_key: Cost,
    /// The search's order and the weight in force (lowered `phase` times).
    order: Order,
    weight: Weight,
    phase: u32,
    /// The start's h: the lower bound an anytime improvement reports while
    /// the open lists are spread over workers.
    h0: Cost,
}

/// Runs HDA* with `config.threads` workers.
///
/// Returns the same optimal cost as [`astar`](fn@crate::astar) with an
/// admissible heuristic; the path may differ among equally cheap ones.
///
/// ```
/// use frontier_core::{grid::{Grid, Manhattan}, hda, HdaConfig, SearchOptions, StdHasher};
/// let maze = Grid::parse("S...\n.##.\n...G").unwrap();
/// let config = HdaConfig { threads: 3, ..HdaConfig::default() };
/// let outcome = hda(&maze, &Manhattan, &StdHasher, &config, &SearchOptions::default())?;
/// assert_eq!(outcome.solution().unwrap().cost, 5);
/// # Ok::<(), frontier_core::Error>(())
/// ```
///
/// A config that [`HdaConfig::check`] refuses (0 threads, say) is an error,
/// not a search on some other number of threads.
pub fn hda<D, H, P>(
    domain: &D,
    heuristic: &H,
    partitioner: &P,
    config: &HdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, crate::Error>
where
    D: Domain,
    H: Heuristic<D>,
    P: Partitioner<D>,
{
    config.check()?;
    let order = options.order;
    order.check("hda", true)?;
    if order.beam.is_some() {
        return crate::search::beam::beam(domain, heuristic, config.threads, options);
    }
    let threads = config.threads;
    let per_worker = |_| Padded(AtomicBool::new(false));
    let started = Instant::now();
    let shared = Shared {
        incumbent: Incumbent::new(started),
        cutoff: AtomicU32::new(Cost::MAX),
        least_pruned: AtomicU32::new(Cost::MAX),
        phase: AtomicU32::new(0),
        improvements: Mutex::new(Vec::new()),
        finishing: std::sync::Barrier::new(threads),
        in_flight: AtomicI64::new(0),
        idle: (0..threads).map(per_worker).collect(),
        epoch: AtomicU64::new(0),
        done: AtomicBool::new(false),
        stopped_by: Mutex::new(None),
        expanded: AtomicU64::new(0),
        bytes: (0..threads).map(|_| Padded(AtomicU64::new(0))).collect(),
        min_f: (0..threads)
            .map(|_| Padded(AtomicU32::new(Cost::MAX)))
            .collect(),
        started,
        // Contiguous bucket ranges: the same split of the hash range as
        // reducing the hash to `threads` parts directly.
        owner_of: (0..BUCKETS as usize)
            .map(|b| AtomicU32::new((b * threads / BUCKETS as usize) as u32))
            .collect(),
        bucket_load: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
        planned_at: AtomicU32::new(0),
        last_plan: Mutex::new(LastPlan {
            loads: vec![0; BUCKETS as usize],
            work: 0,
        }),
        requests: (0..threads)
            .map(|_| Padded(Mutex::new(Vec::new())))
            .collect(),
        has_requests: (0..threads).map(per_worker).collect(),
    };
    let (senders, receivers): (Vec<_>, Vec<_>) =
        (0..threads).map(|_| channel::<Envelope<D>>()).unzip();

    // The start state goes to its owner like any other message.
    let start = domain.start();
    let h0 = heuristic.h(domain, &start);
    let bucket = partitioner.owner(domain, &start, BUCKETS);
    let owner = shared.owner_of[bucket as usize].load(Relaxed) as usize;
    shared.in_flight.fetch_add(1, SeqCst);
    // The receiver is alive: it is in `receivers`, owned by this function.
    let _ = senders[owner].send(Envelope::States(vec![Message {
        state: start,
        mv: None,
        parent: NO_PARENT,
        g: 0,
        h: h0,
        bucket,
    }]));

    type Held<D> = Vec<Option<Box<Store<D>>>>;
    let results: Vec<(Held<D>, WorkerCounts)> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let senders = senders.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let stores = (0..BUCKETS as usize)
                        .map(|b| {
                            (shared.owner_of[b].load(Relaxed) as usize == id)
                                .then(|| Box::new(Store::new()))
                        })
                        .collect();
                    let mut worker = Worker {
                        id,
                        domain,
                        heuristic,
                        partitioner,
                        shared,
                        options,
                        config,
                        stores,
                        pending: std::collections::HashMap::new(),
                        held: 0,
                        touched: Vec::new(),
                        open: BinaryHeap::new(),
                        outboxes: (0..threads).map(|_| Vec::new()).collect(),
                        spare: Vec::new(),
                        senders,
                        stats: WorkerCounts::default(),
                        hasher: hashbrown::DefaultHashBuilder::default(),
                        next_report: 0.25,
                        published_f: Cost::MAX,
                        lowest_seen: 0,
                        plan_tried_at: 0,
                        unsent_min_key: Cost::MAX,
                        order,
                        weight: order.weight,
                        phase: 0,
                        h0,
                    };
                    worker.run(&inbox);
                    (worker.stores, worker.stats)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    drop(senders);

    let seconds = shared.started.elapsed().as_secs_f64();
    let mut arenas: Vec<&[Node<D>]> = vec![&[]; BUCKETS as usize];
    for (stores, _) in &results {
        for (bucket, store) in stores.iter().enumerate() {
            if let Some(store) = store {
                arenas[bucket] = &store.nodes;
            }
        }
    }
    let stopped_by = shared.stopped_by.lock().ok().and_then(|s| *s);
    let mut kept_at_limit = None;
    let status = match (stopped_by, shared.incumbent.best()) {
        // Beyond A*, a search stopped early still has its best solution.
        (Some(limit), Some((goal, _))) if !order.is_optimal() => {
            kept_at_limit = Some(limit);
            Status::Solved(trace_across(domain, &arenas, goal))
        }
        (Some(limit), _) => Status::LimitReached(limit),
        (None, Some((goal, _))) => Status::Solved(trace_across(domain, &arenas, goal)),
        (None, None) => Status::NoSolution,
    };

    let workers: Vec<WorkerCounts> = results.iter().map(|(_, w)| w.clone()).collect();
    let mut stats = summarize(&workers, seconds);
    stats.peak_closed = arenas.iter().map(|a| a.len() as u64).sum();
    stats.peak_bytes = shared.bytes.iter().map(|b| b.load(SeqCst)).sum();
    if matches!(status, Status::Solved(_)) {
        stats.termination_overhead = shared.incumbent.termination_overhead(seconds);
    }
    stats.workers = workers;
    stats.stopped_by = kept_at_limit;
    // A weighted search's solution is bounded by what is left unexpanded;
    // so is the optimum of a search stopped by a limit before any.
    let ceiling = match &status {
        Status::Solved(solution) if !order.is_optimal() => Some(solution.cost),
        Status::LimitReached(_) => Some(Cost::MAX),
        _ => None,
    };
    if let Some(ceiling) = ceiling {
        // Every node not closed, pruned or not, has an f that bounds the
        // optimum from below where it lies on an optimal path (see
        // `order`); the inboxes and outboxes were drained into
        // `least_pruned`, and a worker stops between expansions, never
        // inside one.
        let open_least = arenas
            .iter()
            .flat_map(|a| a.iter())
            .filter(|n| !n.closed)
            .map(|n| n.g.saturating_add(n.h))
            .fold(ceiling, Cost::min);
        stats.lower_bound = Some(open_least.min(shared.least_pruned.load(SeqCst)));
        stats.improvements = shared
            .improvements
            .lock()
            .map(|i| i.clone())
            .unwrap_or_default();
    }
    Ok(Outcome { status, stats })
}

/// The path to `goal`, its cost summed again from the domain's edges: a
/// node on it may have been reached more cheaply after the goal was
/// recorded (weighted orders reopen often), which shortens the path the
/// parent links now give but not the goal's stored g.
fn trace_across<D: Domain>(
    domain: &D,
    arenas: &[&[Node<D>]],
    goal: NodeRef,
) -> Solution<D::State, D::Move> {
    let node_at = |r: NodeRef| {
        let (bucket, index) = split_ref(r);
        let n = &arenas[bucket][index];
        (&n.state, n.mv.as_ref(), n.parent, n.g)
    };
    let traced = trace(goal, NO_PARENT, node_at);
    crate::search::replay(domain, traced.states.clone()).unwrap_or(traced)
}

/// Expansions between looks at the inbox while busy.
const INBOX_EVERY: u32 = 8;
/// Flush partial outboxes this often, so other workers are not starved.
const FLUSH_EVERY: u64 = 256;
/// Emptied buffers a worker keeps for reuse.
const SPARE_BUFFERS: usize = 64;
/// Publish counters and check limits this often.
const PUBLISH_EVERY: u64 = 1024;

impl<D: Domain, H: Heuristic<D>, P: Partitioner<D>> Worker<'_, D, H, P> {
    fn run(&mut self, inbox: &Receiver<Envelope<D>>) {
        let started = Instant::now();
        let mut idle_since: Option<Instant> = None;
        let mut idle_total = Duration::ZERO;
        let mut last_published = 0u64;
        let mut successors = Vec::new();
        let mut iterations = 0u32;
        while !self.shared.done.load(SeqCst) {
            // Polling the channel costs an atomic round trip; batches are
            // large enough that looking every few expansions loses nothing.
            if iterations.is_multiple_of(INBOX_EVERY) || self.open.is_empty() {
                while let Ok(envelope) = inbox.try_recv() {
                    self.handle(envelope);
                }
                self.hand_over_requested();
            }
            iterations = iterations.wrapping_add(1);
            if let Some(lead) = self.config.max_lead {
                if self.ahead_of_others(lead, &mut iterations) {
                    self.flush_all();
                    self.hand_over_requested();
                    // Layers turn over in microseconds on short searches: a
                    // worker waiting for the others polls and yields rather
                    // than sleeping, which costs a wake-up per layer
                    // (measured on 16 cores: 8.4× → 12.2× A*'s rate on a
                    // 0.1 s search, 8.6× → 9.4× on a 1 s one).
                    match inbox.try_recv() {
                        Ok(envelope) => self.handle(envelope),
                        Err(_) => std::thread::yield_now(),
                    }
                    continue;
                }
            }
            match self.pop() {
                Some(entry) => {
                    if let Some(since) = idle_since.take() {
                        idle_total += since.elapsed();
                    }
                    self.expand(entry, &mut successors);
                    if self.stats.expanded.is_multiple_of(FLUSH_EVERY) {
                        self.flush_all();
                    }
                    if self.stats.expanded - last_published >= PUBLISH_EVERY {
                        self.publish(self.stats.expanded - last_published, entry.f);
                        last_published = self.stats.expanded;
                    }
                }
                None => {
                    self.publish_loads();
                    self.shared.min_f[self.id].store(Cost::MAX, Release);
                    self.published_f = Cost::MAX;
                    self.flush_all();
                    idle_since.get_or_insert_with(Instant::now);
                    self.shared.idle[self.id].store(true, SeqCst);
                    if self.shared.quiescent() {
                        self.shared.done.store(true, SeqCst);
                        // The others sleep on their inboxes: an empty batch
                        // wakes them now instead of at their next timeout,
                        // which on a 20 ms search is a visible share of TO.
                        for to in (0..self.senders.len()).filter(|&to| to != self.id) {
                            self.post(to, Envelope::States(Vec::new()));
                        }
                        break;
                    }
                    match inbox.recv_timeout(Duration::from_micros(200)) {
                        Ok(envelope) => self.handle(envelope),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
            }
        }
        self.publish(self.stats.expanded - last_published, 0);
        self.stats.busy_seconds = (started.elapsed() - idle_total).as_secs_f64();
        // Once every worker is here nothing more is sent: what is left in
        // the inbox (after a limit) is kept, buckets to trace paths
        // through and states for the lower bound.
        self.shared.finishing.wait();
        let mut least = Cost::MAX;
        while let Ok(envelope) = inbox.try_recv() {
            match envelope {
                Envelope::States(batch) => {
                    for m in batch {
                        least = least.min(m.g.saturating_add(m.h));
                    }
                }
                Envelope::Bucket(bucket, store) => {
                    self.held += store.nodes.len() as u64;
                    self.stores[bucket] = Some(store);
                }
            }
        }
        // States not yet sent (a limit stops a worker with its outboxes
        // part full) are as unexpanded as those on their way.
        for m in self
            .pending
            .values()
            .flatten()
            .chain(self.outboxes.iter().flatten())
        {
            least = least.min(m.g.saturating_add(m.h));
        }
        self.shared.least_pruned.fetch_min(least, SeqCst);
        self.stats.stored = self.held;
    }

    /// Publishes this worker's lowest f and says whether it is more than
    /// `lead` above the lowest f of all workers. The others' values are
    /// re-read only every few calls while busy: they are shared cache lines.
    fn ahead_of_others(&mut self, lead: Cost, iterations: &mut u32) -> bool {
        let Some(top) = self.open.peek() else {
            return false;
        };
        let mine = top.f;
        // States waiting in this worker's outboxes are part of the layer
        // too: without them the lowest f reads high whenever a layer's last
        // states are on their way, and the others start the next one early.
        let shown = mine.min(self.unsent_min_key);
        if self.published_f != shown {
            // Loads first: a planner that sees this worker past a layer
            // must also see what the layer cost it.
            self.publish_loads();
            self.shared.min_f[self.id].store(shown, Release);
            self.published_f = shown;
        }
        if mine <= self.lowest_seen.saturating_add(lead) && !(*iterations).is_multiple_of(64) {
            return false;
        }
        let lowest = self.shared.lowest_f();
        if lowest != self.plan_tried_at && lowest != Cost::MAX && self.config.rebalance {
            self.plan_tried_at = lowest;
            self.maybe_plan(lowest);
        }
        self.lowest_seen = lowest;
        if mine > self.lowest_seen.saturating_add(lead) {
            *iterations = iterations.wrapping_add(1);
            return true;
        }
        false
    }

    /// Every worker is past the layers below `lowest`: the first to notice
    /// plans the handoffs for the next one.
    fn maybe_plan(&self, lowest: Cost) {
        if self.shared.planned_at.load(Relaxed) < lowest
            && self.shared.incumbent.cost() == Cost::MAX
        {
            self.shared.plan(lowest);
        }
    }

    /// Makes the counts of the buckets expanded since the last call
    /// visible to the planner.
    fn publish_loads(&mut self) {
        for bucket in self.touched.drain(..) {
            if let Some(store) = self.stores[bucket].as_deref_mut() {
                store.published = store.expanded;
                self.shared.bucket_load[bucket].store(store.expanded, Release);
            }
        }
    }

    /// Hands over the buckets the planner asked for.
    fn hand_over_requested(&mut self) {
        if !self.shared.has_requests[self.id].load(Acquire) {
            return;
        }
        self.shared.has_requests[self.id].store(false, SeqCst);
        let requests = match self.shared.requests[self.id].lock() {
            Ok(mut requests) => std::mem::take(&mut *requests),
            Err(_) => return,
        };
        for (bucket, to) in requests {
            self.hand_over(bucket, to);
        }
    }

    /// Sends bucket `bucket`, closed and open states alike, to worker `to`,
    /// which becomes its owner. Entries for it left in this worker's open
    /// list are skipped when popped.
    fn hand_over(&mut self, bucket: usize, to: usize) {
        if to == self.id {
            return;
        }
        let Some(store) = self.stores[bucket].take() else {
            return;
        };
        self.held -= store.nodes.len() as u64;
        self.shared.owner_of[bucket].store(to as u32, Release);
        self.post(to, Envelope::Bucket(bucket, store));
    }

    /// Sends an envelope, counting it in flight until its receiver takes it.
    fn post(&self, to: usize, envelope: Envelope<D>) {
        let weight = envelope.weight();
        self.shared.in_flight.fetch_add(weight, SeqCst);
        if self.senders[to].send(envelope).is_err() {
            // The receiver has exited (the search is over): nothing is in flight.
            self.shared.in_flight.fetch_sub(weight, SeqCst);
        }
    }

    /// Takes the best live entry whose f is below the cutoff.
    fn pop(&mut self) -> Option<OpenEntry> {
        let cutoff = self.shared.cutoff.load(Relaxed);
        if !self.order.is_optimal() {
            self.follow_phase();
        }
        let mut least_pruned = Cost::MAX;
        let found = loop {
            let Some(entry) = self.open.pop() else {
                break None;
            };
            if entry.f >= cutoff && self.weight.is_one() {
                // Ranked by f: nothing left here is below the cutoff,
                // which only falls.
                least_pruned = least_pruned.min(entry.f);
                self.open.clear();
                break None;
            }
            let (bucket, index) = split_ref(entry.node);
            let Some(store) = &self.stores[bucket] else {
                continue; // handed over, with its open states
            };
            let node = &store.nodes[index];
            if node.closed || entry.g != node.g {
                continue;
            }
            let f = node.g.saturating_add(node.h);
            if f >= cutoff {
                least_pruned = least_pruned.min(f);
                continue;
            }
            break Some(entry);
        };
        if least_pruned != Cost::MAX {
            self.shared.least_pruned.fetch_min(least_pruned, Relaxed);
        }
        found
    }

    /// Ranks the open list again when an anytime search lowered its weight.
    fn follow_phase(&mut self) {
        let phase = self.shared.phase.load(Relaxed);
        if phase == self.phase {
            return;
        }
        while self.phase < phase {
            self.weight = self.weight.lowered();
            self.phase += 1;
        }
        let mut entries = Vec::with_capacity(self.open.len());
        for (bucket, store) in self.stores.iter().enumerate() {
            let Some(store) = store else { continue };
            for (index, node) in store.nodes.iter().enumerate() {
                if !node.closed {
                    entries.push(OpenEntry {
                        f: self.weight.key(node.g, node.h).0,
                        g: node.g,
                        node: node_ref(bucket, index),
                    });
                }
            }
        }
        self.open = BinaryHeap::from(entries);
    }

    /// Records a goal of cost `g`; beyond A*, an improvement moves the
    /// cutoff, lowers an anytime search's weight and joins the trace.
    fn offer_goal(&mut self, g: Cost, goal: NodeRef) {
        if !self.shared.incumbent.offer(g, goal) {
            return;
        }
        if self.order.is_optimal() {
            self.shared.cutoff.fetch_min(g, SeqCst);
            return;
        }
        let mut weight = self.weight;
        if self.order.anytime && !weight.is_one() {
            // The first to record a goal at this phase moves it on.
            if self
                .shared
                .phase
                .compare_exchange(self.phase, self.phase + 1, SeqCst, Relaxed)
                .is_ok()
            {
                weight = weight.lowered();
            }
        }
        let cutoff = self.order.cutoff(weight, g);
        self.shared.cutoff.fetch_min(cutoff, SeqCst);
        if let Ok(mut trace) = self.shared.improvements.lock() {
            trace.push(Improvement {
                seconds: self.shared.started.elapsed().as_secs_f64(),
                cost: g,
                lower_bound: self.h0.min(g),
                expanded: self.shared.expanded.load(Relaxed),
                weight: weight.value(),
            });
        }
    }

    /// Takes in what another worker sent.
    fn handle(&mut self, envelope: Envelope<D>) {
        // Waking up: leave idle and bump the epoch before the envelope stops
        // counting as in flight, so a racing termination check fails. Only
        // this worker sets its own flag, so a plain read skips the locked
        // swap for the many envelopes that arrive while it is busy.
        if self.shared.idle[self.id].load(Relaxed) && self.shared.idle[self.id].swap(false, SeqCst)
        {
            self.shared.epoch.fetch_add(1, SeqCst);
        }
        let weight = envelope.weight();
        match envelope {
            Envelope::States(mut batch) => {
                for message in batch.drain(..) {
                    self.route(message);
                }
                if self.spare.len() < SPARE_BUFFERS {
                    self.spare.push(batch);
                }
            }
            Envelope::Bucket(bucket, store) => self.adopt(bucket, store),
        }
        self.shared.in_flight.fetch_sub(weight, SeqCst);
    }

    /// Becomes the owner of a handed-over bucket: its open states join this
    /// worker's open list, then the states that arrived ahead of it.
    fn adopt(&mut self, bucket: usize, store: Box<Store<D>>) {
        self.held += store.nodes.len() as u64;
        self.stats.adopted += store.nodes.len() as u64;
        for (index, node) in store.nodes.iter().enumerate() {
            if !node.closed {
                self.open.push(OpenEntry {
                    f: self.weight.key(node.g, node.h).0,
                    g: node.g,
                    node: node_ref(bucket, index),
                });
            }
        }
        self.stores[bucket] = Some(store);
        self.touched.push(bucket);
        for message in self.pending.remove(&bucket).unwrap_or_default() {
            self.insert(message);
        }
    }

    /// Inserts a state here if this worker holds its bucket, else sends it
    /// on to the bucket's owner.
    fn route(&mut self, message: Message<D>) {
        let bucket = message.bucket as usize;
        if self.stores[bucket].is_some() {
            self.insert(message);
            return;
        }
        let owner = self.shared.owner_of[bucket].load(Acquire) as usize;
        if owner == self.id {
            self.pending.entry(bucket).or_default().push(message);
            return;
        }
        self.unsent_min_key = self
            .unsent_min_key
            .min(self.weight.key(message.g, message.h).0);
        self.outboxes[owner].push(message);
        if self.outboxes[owner].len() >= self.config.batch {
            self.flush(owner);
        }
    }

    /// Adds a state of a bucket this worker holds to its open list and
    /// closed table.
    fn insert(&mut self, m: Message<D>) {
        let bucket = m.bucket as usize;
        let hash = self.hasher.hash_one(&m.state);
        let Some(store) = self.stores[bucket].as_deref_mut() else {
            return; // callers check that the bucket is held
        };
        let nodes = &mut store.nodes;
        let found = store
            .index
            .find(hash, |&i| nodes[i as usize].state == m.state)
            .copied();
        let index = match found {
            Some(i) => {
                let known = &mut nodes[i as usize];
                if m.g >= known.g {
                    self.stats.duplicates += 1;
                    return;
                }
                if known.closed {
                    known.closed = false;
                    self.stats.reopened += 1;
                }
                known.g = m.g;
                known.parent = m.parent;
                known.mv = m.mv;
                known.state = m.state;
                i as usize
            }
            None => {
                let i = nodes.len();
                let hasher = &self.hasher;
                store.index.insert_unique(hash, i as u32, |&j| {
                    hasher.hash_one(&nodes[j as usize].state)
                });
                nodes.push(Node {
                    state: m.state,
                    mv: m.mv,
                    parent: m.parent,
                    g: m.g,
                    h: m.h,
                    closed: false,
                });
                self.held += 1;
                i
            }
        };
        let node = &nodes[index];
        self.open.push(OpenEntry {
            f: self.weight.key(node.g, node.h).0,
            g: node.g,
            node: node_ref(bucket, index),
        });
        self.stats.peak_open = self.stats.peak_open.max(self.open.len() as u64);
    }

    fn expand(&mut self, entry: OpenEntry, successors: &mut Vec<crate::Edge<D::State, D::Move>>) {
        let me = entry.node;
        let (bucket, index) = split_ref(me);
        let Some(store) = self.stores[bucket].as_deref_mut() else {
            return; // pop only returns entries of held buckets
        };
        if self.domain.is_goal(&store.nodes[index].state) {
            self.offer_goal(entry.g, me);
            return;
        }
        if store.expanded == store.published {
            self.touched.push(bucket);
        }
        store.expanded += 1;
        store.nodes[index].closed = true;
        self.stats.expanded += 1;
        successors.clear();
        let parent = &store.nodes[index];
        self.domain.expand(&parent.state, successors);
        self.stats.generated += successors.len() as u64;
        let (parent_g, parent_h) = (parent.g, parent.h);
        let cutoff = self.shared.cutoff.load(Relaxed);
        let mut least_pruned = Cost::MAX;
        for edge in successors.drain(..) {
            let g = parent_g.saturating_add(edge.cost);
            let Some(parent_state) = self.stores[bucket]
                .as_deref()
                .map(|s| &s.nodes[index].state)
            else {
                return; // the parent's bucket is held throughout the expansion
            };
            let h = self
                .heuristic
                .h_child(self.domain, parent_state, parent_h, &edge.state);
            if g.saturating_add(h) >= cutoff {
                least_pruned = least_pruned.min(g.saturating_add(h));
                continue;
            }
            let child_bucket = self.partitioner.owner(self.domain, &edge.state, BUCKETS);
            self.route(Message {
                state: edge.state,
                mv: Some(edge.mv),
                parent: me,
                g,
                h,
                bucket: child_bucket,
            });
        }
        if least_pruned != Cost::MAX {
            self.shared.least_pruned.fetch_min(least_pruned, Relaxed);
        }
    }

    fn flush(&mut self, to: usize) {
        if self.outboxes[to].is_empty() {
            return;
        }
        // Drop what can no longer beat the incumbent before paying to send it.
        let cutoff = self.shared.cutoff.load(Relaxed);
        let mut least_pruned = Cost::MAX;
        self.outboxes[to].retain(|m| {
            let f = m.g.saturating_add(m.h);
            least_pruned = least_pruned.min(if f >= cutoff { f } else { Cost::MAX });
            f < cutoff
        });
        if least_pruned != Cost::MAX {
            self.shared.least_pruned.fetch_min(least_pruned, Relaxed);
        }
        if self.outboxes[to].is_empty() {
            return;
        }
        let fresh = self
            .spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(self.config.batch));
        let batch = std::mem::replace(&mut self.outboxes[to], fresh);
        self.stats.sent += batch.len() as u64;
        self.post(to, Envelope::States(batch));
    }

    fn flush_all(&mut self) {
        for to in 0..self.outboxes.len() {
            self.flush(to);
        }
        self.unsent_min_key = Cost::MAX;
    }

    /// Adds local counts to the shared ones, checks limits, reports progress.
    fn publish(&mut self, new_expansions: u64, f: Cost) {
        let total = self.shared.expanded.fetch_add(new_expansions, SeqCst) + new_expansions;
        let bytes_per_node = (std::mem::size_of::<Node<D>>() + 9) as u64;
        let bytes = self.held * bytes_per_node
            + self.open.len() as u64 * std::mem::size_of::<OpenEntry>() as u64;
        self.shared.bytes[self.id].store(bytes, SeqCst);
        let seconds = self.shared.started.elapsed().as_secs_f64();
        let all_bytes = self
            .shared
            .bytes
            .iter()
            .map(|b| b.load(SeqCst))
            .sum::<u64>();
        if let Some(limit) = self.options.limits.exceeded(total, all_bytes, seconds) {
            self.shared.stop(limit);
        }
        if self.id == 0 && seconds >= self.next_report {
            self.next_report = seconds + 0.25;
            if let Some(sink) = &self.options.progress {
                sink(&Progress {
                    expanded: total,
                    open: self.open.len() as u64 * self.outboxes.len() as u64,
                    f,
                    seconds,
                });
            }
        }
    }
}
