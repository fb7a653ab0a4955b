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

use std::collections::BinaryHeap;
use std::hash::BuildHasher;
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Relaxed, Ordering::SeqCst,
};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hashbrown::HashTable;
use serde::{Deserialize, Serialize};

use crate::domain::{Cost, Domain, Heuristic, Partitioner};
use crate::search::astar::OpenEntry;
use crate::search::{
    trace, DomainOutcome, Limit, Outcome, Progress, SearchOptions, Solution, Status,
};
use crate::stats::SearchStats;

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
}

impl Default for HdaConfig {
    fn default() -> Self {
        HdaConfig {
            threads: std::thread::available_parallelism().map_or(2, usize::from),
            batch: 64,
            partition: "hash".into(),
            max_lead: Some(0),
        }
    }
}

/// Identifies a node: owning thread in the high half, arena index in the low.
type NodeRef = u64;
const NO_PARENT: NodeRef = u64::MAX;

fn node_ref(worker: usize, index: u32) -> NodeRef {
    ((worker as u64) << 32) | u64::from(index)
}

struct Node<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: NodeRef,
    g: Cost,
    h: Cost,
    closed: bool,
}

/// A state on its way to its owner, with the bound the sender computed.
struct Message<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: NodeRef,
    g: Cost,
    h: Cost,
}

type Batch<D> = Vec<Message<D>>;

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
    incumbent: AtomicU32,
    /// The goal node of the incumbent and when it was found.
    best: Mutex<Option<(NodeRef, f64)>>,
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
}

impl Shared {
    /// The lowest f published by any worker: a lower bound on everything
    /// open, up to states in flight (which only makes gating looser).
    fn lowest_f(&self) -> Cost {
        self.min_f
            .iter()
            .map(|f| f.load(Relaxed))
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

/// Per-thread counters returned at the end.
#[derive(Default)]
struct WorkerStats {
    expanded: u64,
    generated: u64,
    duplicates: u64,
    reopened: u64,
    sent: u64,
    peak_open: u64,
    busy_seconds: f64,
}

struct Worker<'a, D: Domain, H, P> {
    id: usize,
    domain: &'a D,
    heuristic: &'a H,
    partitioner: &'a P,
    shared: &'a Shared,
    options: &'a SearchOptions,
    config: &'a HdaConfig,
    nodes: Vec<Node<D>>,
    index: HashTable<u32>,
    open: BinaryHeap<OpenEntry>,
    outboxes: Vec<Batch<D>>,
    /// Emptied batch buffers from received messages, reused for outboxes:
    /// buffers circulate between threads instead of being allocated by
    /// one and freed by another (a contended path in the allocator).
    spare: Vec<Batch<D>>,
    senders: Vec<Sender<Batch<D>>>,
    stats: WorkerStats,
    hasher: hashbrown::DefaultHashBuilder,
    next_report: f64,
    /// The f this worker last published.
    published_f: Cost,
    /// The global lowest f as last read.
    lowest_seen: Cost,
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
/// let outcome = hda(&maze, &Manhattan, &StdHasher, &config, &SearchOptions::default());
/// assert_eq!(outcome.solution().unwrap().cost, 5);
/// ```
pub fn hda<D, H, P>(
    domain: &D,
    heuristic: &H,
    partitioner: &P,
    config: &HdaConfig,
    options: &SearchOptions,
) -> DomainOutcome<D>
where
    D: Domain,
    H: Heuristic<D>,
    P: Partitioner<D>,
{
    let threads = config.threads.max(1);
    let shared = Shared {
        incumbent: AtomicU32::new(Cost::MAX),
        best: Mutex::new(None),
        in_flight: AtomicI64::new(0),
        idle: (0..threads)
            .map(|_| Padded(AtomicBool::new(false)))
            .collect(),
        epoch: AtomicU64::new(0),
        done: AtomicBool::new(false),
        stopped_by: Mutex::new(None),
        expanded: AtomicU64::new(0),
        bytes: (0..threads).map(|_| Padded(AtomicU64::new(0))).collect(),
        min_f: (0..threads)
            .map(|_| Padded(AtomicU32::new(Cost::MAX)))
            .collect(),
        started: Instant::now(),
    };
    let (senders, receivers): (Vec<_>, Vec<_>) =
        (0..threads).map(|_| channel::<Batch<D>>()).unzip();

    // The start state goes to its owner like any other message.
    let start = domain.start();
    let h0 = heuristic.h(domain, &start);
    let owner = partitioner.owner(domain, &start, threads as u32) as usize;
    shared.in_flight.fetch_add(1, SeqCst);
    // The receiver is alive: it is in `receivers`, owned by this function.
    let _ = senders[owner].send(vec![Message {
        state: start,
        mv: None,
        parent: NO_PARENT,
        g: 0,
        h: h0,
    }]);

    let results: Vec<(Vec<Node<D>>, WorkerStats)> = std::thread::scope(|scope| {
        let handles: Vec<_> = receivers
            .into_iter()
            .enumerate()
            .map(|(id, inbox)| {
                let senders = senders.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut worker = Worker {
                        id,
                        domain,
                        heuristic,
                        partitioner,
                        shared,
                        options,
                        config,
                        nodes: Vec::new(),
                        index: HashTable::new(),
                        open: BinaryHeap::new(),
                        outboxes: (0..threads).map(|_| Vec::new()).collect(),
                        spare: Vec::new(),
                        senders,
                        stats: WorkerStats::default(),
                        hasher: hashbrown::DefaultHashBuilder::default(),
                        next_report: 0.25,
                        published_f: Cost::MAX,
                        lowest_seen: 0,
                    };
                    worker.run(&inbox);
                    (worker.nodes, worker.stats)
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
    let arenas: Vec<&[Node<D>]> = results.iter().map(|(nodes, _)| nodes.as_slice()).collect();
    let best = shared.best.lock().ok().and_then(|b| *b);
    let stopped_by = shared.stopped_by.lock().ok().and_then(|s| *s);
    let status = match (stopped_by, best) {
        (Some(limit), _) => Status::LimitReached(limit),
        (None, Some((goal, _))) => Status::Solved(trace_across(&arenas, goal)),
        (None, None) => Status::NoSolution,
    };

    let mut stats = SearchStats::default();
    let mut sent = 0;
    for (nodes, w) in &results {
        stats.expanded += w.expanded;
        stats.generated += w.generated;
        stats.duplicates += w.duplicates;
        stats.reopened += w.reopened;
        stats.peak_open += w.peak_open;
        stats.peak_closed += nodes.len() as u64;
        stats.worker_rates.push(if w.busy_seconds > 0.0 {
            w.expanded as f64 / seconds
        } else {
            0.0
        });
        sent += w.sent;
    }
    stats.peak_bytes = shared.bytes.iter().map(|b| b.load(SeqCst)).sum();
    stats.communication_overhead = Some(if stats.generated > 0 {
        sent as f64 / stats.generated as f64
    } else {
        0.0
    });
    if let (Some((_, found_at)), Status::Solved(_)) = (best, &status) {
        stats.termination_overhead = Some(if seconds > 0.0 {
            ((seconds - found_at) / seconds).max(0.0)
        } else {
            0.0
        });
    }
    stats.finish(seconds);
    Outcome { status, stats }
}

fn trace_across<D: Domain>(arenas: &[&[Node<D>]], goal: NodeRef) -> Solution<D::State, D::Move> {
    let node_at = |r: NodeRef| {
        let n = &arenas[(r >> 32) as usize][(r & 0xFFFF_FFFF) as usize];
        (&n.state, n.mv.as_ref(), n.parent, n.g)
    };
    trace(goal, NO_PARENT, node_at)
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
    fn run(&mut self, inbox: &Receiver<Batch<D>>) {
        let started = Instant::now();
        let mut idle_since: Option<Instant> = None;
        let mut idle_total = Duration::ZERO;
        let mut last_published = 0u64;
        let mut successors = Vec::new();
        let mut iterations = 0u32;
        while !self.shared.done.load(SeqCst) {
            // Polling the channel costs an atomic round trip; batches are
            // large enough that looking every few expansions loses nothing.
            if iterations % INBOX_EVERY == 0 || self.open.is_empty() {
                while let Ok(batch) = inbox.try_recv() {
                    self.receive(batch);
                }
            }
            iterations = iterations.wrapping_add(1);
            if let Some(lead) = self.config.max_lead {
                if self.ahead_of_others(lead, &mut iterations) {
                    self.flush_all();
                    // Layers turn over in microseconds on short searches: a
                    // worker waiting for the others polls and yields rather
                    // than sleeping, which costs a wake-up per layer
                    // (measured on 16 cores: 8.4× → 12.2× A*'s rate on a
                    // 0.1 s search, 8.6× → 9.4× on a 1 s one).
                    match inbox.try_recv() {
                        Ok(batch) => self.receive(batch),
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
                    if self.stats.expanded % FLUSH_EVERY == 0 {
                        self.flush_all();
                    }
                    if self.stats.expanded - last_published >= PUBLISH_EVERY {
                        self.publish(self.stats.expanded - last_published, entry.f);
                        last_published = self.stats.expanded;
                    }
                }
                None => {
                    self.shared.min_f[self.id].store(Cost::MAX, Relaxed);
                    self.published_f = Cost::MAX;
                    self.flush_all();
                    idle_since.get_or_insert_with(Instant::now);
                    self.shared.idle[self.id].store(true, SeqCst);
                    if self.shared.quiescent() {
                        self.shared.done.store(true, SeqCst);
                        break;
                    }
                    match inbox.recv_timeout(Duration::from_micros(200)) {
                        Ok(batch) => self.receive(batch),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                }
            }
        }
        self.publish(self.stats.expanded - last_published, 0);
        self.stats.busy_seconds = (started.elapsed() - idle_total).as_secs_f64();
    }

    /// Publishes this worker's lowest f and says whether it is more than
    /// `lead` above the lowest f of all workers. The others' values are
    /// re-read only every few calls while busy: they are shared cache lines.
    fn ahead_of_others(&mut self, lead: Cost, iterations: &mut u32) -> bool {
        let Some(top) = self.open.peek() else {
            return false;
        };
        let mine = top.f;
        if self.published_f != mine {
            self.shared.min_f[self.id].store(mine, Relaxed);
            self.published_f = mine;
        }
        if mine <= self.lowest_seen.saturating_add(lead) && *iterations % 64 != 0 {
            return false;
        }
        self.lowest_seen = self.shared.lowest_f();
        if mine > self.lowest_seen.saturating_add(lead) {
            *iterations = iterations.wrapping_add(1);
            return true;
        }
        false
    }

    /// Takes the best live entry whose f is below the incumbent.
    fn pop(&mut self) -> Option<OpenEntry> {
        let incumbent = self.shared.incumbent.load(SeqCst);
        while let Some(entry) = self.open.pop() {
            if entry.f >= incumbent {
                // Nothing left here can beat the incumbent, which only falls.
                self.open.clear();
                return None;
            }
            let node = &self.nodes[entry.node as usize];
            if !node.closed && entry.g == node.g {
                return Some(entry);
            }
        }
        None
    }

    /// Adds received states to this worker's open list and closed table.
    fn receive(&mut self, mut batch: Batch<D>) {
        // Waking up: leave idle and bump the epoch before the batch stops
        // counting as in flight, so a racing termination check fails. Only
        // this worker sets its own flag, so a plain read skips the locked
        // swap for the many batches that arrive while it is busy.
        if self.shared.idle[self.id].load(Relaxed) && self.shared.idle[self.id].swap(false, SeqCst)
        {
            self.shared.epoch.fetch_add(1, SeqCst);
        }
        let count = batch.len() as i64;
        for message in batch.drain(..) {
            self.insert(message);
        }
        self.shared.in_flight.fetch_sub(count, SeqCst);
        if self.spare.len() < SPARE_BUFFERS {
            self.spare.push(batch);
        }
    }

    fn insert(&mut self, m: Message<D>) {
        let hash = self.hasher.hash_one(&m.state);
        let nodes = &mut self.nodes;
        let found = self
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
                i
            }
            None => {
                let i = nodes.len() as u32;
                self.index
                    .insert_unique(hash, i, |&j| self.hasher.hash_one(&nodes[j as usize].state));
                nodes.push(Node {
                    state: m.state,
                    mv: m.mv,
                    parent: m.parent,
                    g: m.g,
                    h: m.h,
                    closed: false,
                });
                i
            }
        };
        let node = &self.nodes[index as usize];
        self.open.push(OpenEntry {
            f: node.g.saturating_add(node.h),
            g: node.g,
            node: index,
        });
        self.stats.peak_open = self.stats.peak_open.max(self.open.len() as u64);
    }

    fn expand(&mut self, entry: OpenEntry, successors: &mut Vec<crate::Edge<D::State, D::Move>>) {
        let me = node_ref(self.id, entry.node);
        if self.domain.is_goal(&self.nodes[entry.node as usize].state) {
            let g = entry.g;
            if g < self.shared.incumbent.load(SeqCst) {
                if let Ok(mut best) = self.shared.best.lock() {
                    // Re-checked under the lock: another worker may have
                    // recorded a cheaper goal meanwhile.
                    if g < self.shared.incumbent.load(SeqCst) {
                        self.shared.incumbent.store(g, SeqCst);
                        *best = Some((me, self.shared.started.elapsed().as_secs_f64()));
                    }
                }
            }
            return;
        }
        self.nodes[entry.node as usize].closed = true;
        self.stats.expanded += 1;
        successors.clear();
        let parent = &self.nodes[entry.node as usize];
        self.domain.expand(&parent.state, successors);
        self.stats.generated += successors.len() as u64;
        let (parent_g, parent_h) = (parent.g, parent.h);
        let threads = self.outboxes.len() as u32;
        let incumbent = self.shared.incumbent.load(SeqCst);
        for edge in successors.drain(..) {
            let g = parent_g.saturating_add(edge.cost);
            let parent_state = &self.nodes[entry.node as usize].state;
            let h = self
                .heuristic
                .h_child(self.domain, parent_state, parent_h, &edge.state);
            if g.saturating_add(h) >= incumbent {
                continue;
            }
            let owner = self.partitioner.owner(self.domain, &edge.state, threads) as usize;
            let message = Message {
                state: edge.state,
                mv: Some(edge.mv),
                parent: me,
                g,
                h,
            };
            if owner == self.id {
                self.insert(message);
            } else {
                self.outboxes[owner].push(message);
                if self.outboxes[owner].len() >= self.config.batch {
                    self.flush(owner);
                }
            }
        }
    }

    fn flush(&mut self, to: usize) {
        if self.outboxes[to].is_empty() {
            return;
        }
        // Drop what can no longer beat the incumbent before paying to send it.
        let incumbent = self.shared.incumbent.load(Relaxed);
        self.outboxes[to].retain(|m| m.g.saturating_add(m.h) < incumbent);
        if self.outboxes[to].is_empty() {
            return;
        }
        let fresh = self
            .spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(self.config.batch));
        let batch = std::mem::replace(&mut self.outboxes[to], fresh);
        self.stats.sent += batch.len() as u64;
        self.shared.in_flight.fetch_add(batch.len() as i64, SeqCst);
        if let Err(returned) = self.senders[to].send(batch) {
            // The receiver has exited (the search is over): nothing is in flight.
            self.shared
                .in_flight
                .fetch_sub(returned.0.len() as i64, SeqCst);
        }
    }

    fn flush_all(&mut self) {
        for to in 0..self.outboxes.len() {
            self.flush(to);
        }
    }

    /// Adds local counts to the shared ones, checks limits, reports progress.
    fn publish(&mut self, new_expansions: u64, f: Cost) {
        let total = self.shared.expanded.fetch_add(new_expansions, SeqCst) + new_expansions;
        let bytes_per_node = (std::mem::size_of::<Node<D>>() + 9) as u64;
        let bytes = self.nodes.len() as u64 * bytes_per_node
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
