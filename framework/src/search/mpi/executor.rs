//! The `mpi-hda` executor itself (with the `mpi` feature); the module
//! docs of [`super`] describe the algorithm.

use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::hash::BuildHasher;
use std::time::Instant;

use hashbrown::HashTable;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

use super::comm::{abort, init, Transport, Vote, MINS, SUMS};
use super::MpiHdaConfig;
use crate::domain::{Cost, Heuristic, Partitioner};
use crate::search::hda::{keep_workers, plan_moves, share_after, summarize, WorkerCounts};
use crate::search::{
    replay_traced, replay_traced_within, DomainOutcome, Improvement, Limit, Order, Outcome,
    Progress, SearchOptions, Status, Weight,
};
use crate::{Error, PackedState};

/// Buckets of the partition, as in the thread executor.
const BUCKETS: u32 = 4096;
/// A node: its bucket in the high half, its index in the bucket's arena in
/// the low half. Arenas move with their bucket, so references survive a
/// bucket changing rank.
type NodeRef = u64;
const NO_PARENT: NodeRef = u64::MAX;
/// Words before the records of a message: the sender's epoch and
/// incumbent (so that a goal's cost spreads with the traffic, long before
/// a vote), then for a whole bucket its number and expansion count (two
/// words), else `STATES` and two zeros.
const HEADER: usize = 5;
/// The bucket word of a message of states.
const STATES: u32 = u32::MAX;
/// Words after a state in a message of states: its extra word, g, h,
/// bucket, parent reference (two words).
const TRAILER: usize = 6;
/// Words after a state in a message of a whole bucket: its extra word, g,
/// h, parent reference (two words), closed.
const NODE_TRAILER: usize = 6;
/// Expansions between looks at the inbox and the pending vote.
const POLL_EVERY: u64 = 8;
/// Flush partial outboxes this often, so other ranks are not starved.
const FLUSH_EVERY: u64 = 256;

struct Node<S> {
    state: S,
    parent: NodeRef,
    g: Cost,
    h: Cost,
    closed: bool,
}

/// The closed table and arena of one bucket, held by one rank at a time.
struct Store<S> {
    nodes: Vec<Node<S>>,
    index: HashTable<u32>,
    /// Expansions of this bucket's states so far.
    expanded: u64,
}

/// A state that arrived for a bucket whose store is still on its way.
struct Waiting<S> {
    state: S,
    parent: NodeRef,
    g: Cost,
    h: Cost,
}

fn node_ref(bucket: usize, index: usize) -> NodeRef {
    ((bucket as u64) << 32) | index as u64
}

fn split_ref(at: NodeRef) -> (usize, usize) {
    ((at >> 32) as usize, (at & 0xFFFF_FFFF) as usize)
}

type OpenEntry = crate::search::astar::OpenEntry<NodeRef>;

/// How a vote ended the search.
enum Verdict {
    /// Nothing open anywhere beats the incumbent (or there is none).
    Proven,
    Limit(Limit),
}

/// Runs HDA* with one worker per MPI rank. Every rank of the job must call
/// it with the same domain, heuristic, partitioner and config (checked:
/// ranks given different instances get an error, on every rank); MPI must
/// have been started with [`init`]. Returns the same optimal cost as
/// [`astar`](fn@crate::astar) with an admissible heuristic, on every rank.
///
/// ```no_run
/// // Run as `mpirun -np 4 my-program` in a build with the `mpi` feature.
/// use frontier_core::grid::{Grid, Manhattan};
/// use frontier_core::search::{mpi, mpi_hda, MpiHdaConfig};
/// use frontier_core::{SearchOptions, StdHasher};
/// mpi::init()?;
/// let maze = Grid::parse("S..#\n.#..\n...G").unwrap();
/// let outcome = mpi_hda(&maze, &Manhattan, &StdHasher, &MpiHdaConfig::default(), &SearchOptions::default())?;
/// assert_eq!(outcome.solution().unwrap().cost, 5);
/// mpi::finalize();
/// # Ok::<(), frontier_core::Error>(())
/// ```
pub fn mpi_hda<D, H, P>(
    domain: &D,
    heuristic: &H,
    partitioner: &P,
    config: &MpiHdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error>
where
    D: PackedState,
    H: Heuristic<D>,
    P: Partitioner<D>,
{
    let order = options.order;
    order.check("mpi-hda", false)?;
    init()?;
    if config.batch == 0 || config.batch > 1 << 20 {
        return Err(Error::Mpi(format!(
            "batch must be 1 to {} states (not {})",
            1 << 20,
            config.batch
        )));
    }
    if !(config.vote_every > 0.0 && config.vote_every.is_finite()) {
        return Err(Error::Mpi(format!(
            "vote_every must be a positive number of seconds (not {})",
            config.vote_every
        )));
    }
    let transport = Transport::new();
    let start = domain.start();
    let h0 = heuristic.h(domain, &start);
    let words = domain.packed_words();
    let mut packed = vec![0u32; words];
    domain.pack(&start, &mut packed);
    agree_on_instance(&transport, &packed, h0, config)?;

    let started = Instant::now();
    let mut rank = Rank {
        domain,
        heuristic,
        partitioner,
        config,
        options,
        words,
        owner_of: (0..BUCKETS as usize)
            .map(|b| (b * transport.size / BUCKETS as usize) as u32)
            .collect(),
        outboxes: (0..transport.size).map(|_| vec![0; HEADER]).collect(),
        stores: (0..BUCKETS as usize)
            .map(|b| (b * transport.size / BUCKETS as usize == transport.rank).then(Box::default))
            .collect(),
        pending: HashMap::new(),
        held: 0,
        last_loads: vec![0; BUCKETS as usize],
        last_work: 0,
        transport,
        hasher: hashbrown::DefaultHashBuilder::default(),
        open: BinaryHeap::new(),
        layer: order.weight.key(0, h0).0,
        weight: order.weight,
        order,
        h0,
        improvements: Vec::new(),
        goals: Vec::new(),
        least_dropped: Cost::MAX,
        incumbent: Cost::MAX,
        agreed: Cost::MAX,
        found_at: None,
        votes_entered: 0,
        sent_states: 0,
        received: BTreeMap::new(),
        received_settled: 0,
        vote: None,
        last_vote: 0.0,
        next_report: 0.25,
        stats: WorkerCounts::default(),
        started,
        successors: Vec::new(),
    };
    let bucket = rank.bucket_of(&start);
    if rank.stores[bucket].is_some() {
        rank.insert(bucket, start, NO_PARENT, 0, h0);
    }
    let verdict = match rank.search() {
        Ok(verdict) => verdict,
        Err(e) => {
            // The other ranks wait on this one's votes: end them all.
            eprintln!(
                "error: rank {} of {}: {e}",
                rank.transport.rank, rank.transport.size
            );
            abort(1)
        }
    };
    let (at, of) = (rank.transport.rank, rank.transport.size);
    Ok(rank.finish(verdict).unwrap_or_else(|e| {
        eprintln!("error: rank {at} of {of}: {e}");
        abort(1)
    }))
}

/// Fails on every rank unless all ranks were given the same start state,
/// heuristic value and settings: a rank searching another instance would
/// make the answer meaningless.
fn agree_on_instance(
    transport: &Transport,
    packed: &[u32],
    h0: Cost,
    config: &MpiHdaConfig,
) -> Result<(), Error> {
    // std's default hasher has fixed keys: the same text hashes the same
    // in every process of one build.
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (
        h0,
        config.batch,
        &config.partition,
        config.rebalance,
        packed,
    )
        .hash(&mut hasher);
    let fingerprint = hasher.finish();
    let mut low = 0u64;
    let mut high = 0u64;
    transport.world.all_reduce_into(
        &fingerprint,
        &mut low,
        mpi::collective::SystemOperation::min(),
    );
    transport.world.all_reduce_into(
        &fingerprint,
        &mut high,
        mpi::collective::SystemOperation::max(),
    );
    if low != high {
        return Err(Error::Mpi(
            "the ranks were given different instances, heuristics or settings".into(),
        ));
    }
    Ok(())
}

impl<S> Default for Store<S> {
    fn default() -> Self {
        Store {
            nodes: Vec::new(),
            index: HashTable::new(),
            expanded: 0,
        }
    }
}

struct Rank<'a, D: PackedState, H, P> {
    domain: &'a D,
    heuristic: &'a H,
    partitioner: &'a P,
    config: &'a MpiHdaConfig,
    options: &'a SearchOptions,
    words: usize,
    transport: Transport,
    /// The rank owning each bucket: the same on every rank, changed only
    /// by plans that every rank makes at the same vote.
    owner_of: Vec<u32>,
    /// Per destination rank: the header, then records.
    outboxes: Vec<Vec<u32>>,
    /// `stores[b]` is `Some` while this rank holds bucket `b`.
    stores: Vec<Option<Box<Store<D::State>>>>,
    /// States of buckets whose store has not arrived yet.
    pending: HashMap<usize, Vec<Waiting<D::State>>>,
    /// Nodes in all held stores.
    held: u64,
    /// Every bucket's expansions when the last plan was made, and the
    /// work that plan balanced.
    last_loads: Vec<u64>,
    last_work: u64,
    hasher: hashbrown::DefaultHashBuilder,
    /// Open states by key: f = g + h, or den·g + num·h under a weight
    /// (`Weight::key`).
    open: BinaryHeap<OpenEntry>,
    /// The key layer being expanded.
    layer: Cost,
    /// The weight in force (an anytime search lowers it at each improvement
    /// every rank agrees on).
    weight: Weight,
    /// The search's order: weight, anytime.
    order: Order,
    /// The start's h: the lower bound recorded with each improvement.
    h0: Cost,
    /// Every improvement agreed on by a vote (the same on every rank).
    improvements: Vec<Improvement>,
    /// Every goal this rank found (cost, node), each cheaper than the one
    /// before: the last is this rank's best, and the one a vote agreed on
    /// can still be traced after a cheaper one was found.
    goals: Vec<(Cost, NodeRef)>,
    /// Under a weight: the least f of the states dropped for reaching the
    /// cutoff of the incumbent (`Weight::cutoff`), a part of the lower
    /// bound.
    least_dropped: Cost,
    /// The cheapest goal known here: this rank's own, or any rank's as of
    /// the last vote.
    incumbent: Cost,
    /// The cheapest goal of any rank as of the last vote.
    agreed: Cost,
    /// Seconds at which a vote first showed the final incumbent.
    found_at: Option<f64>,
    votes_entered: u32,
    /// States (and whole buckets, one each) sent so far.
    sent_states: u64,
    /// States (and whole buckets) received from epochs after the last
    /// vote this rank entered, by epoch (late batches of earlier epochs
    /// land here too, until the next vote settles them).
    received: BTreeMap<u32, u64>,
    /// States (and whole buckets) received from the epochs that the votes
    /// entered so far have counted: every later vote counts them too.
    received_settled: u64,
    vote: Option<Vote>,
    /// Seconds at which the last vote completed.
    last_vote: f64,
    next_report: f64,
    stats: WorkerCounts,
    started: Instant,
    successors: Vec<crate::Edge<D::State, D::Move>>,
}

impl<D: PackedState, H: Heuristic<D>, P: Partitioner<D>> Rank<'_, D, H, P> {
    fn bucket_of(&self, state: &D::State) -> usize {
        self.partitioner.owner(self.domain, state, BUCKETS) as usize % BUCKETS as usize
    }

    fn node(&self, at: NodeRef) -> Option<&Node<D::State>> {
        let (bucket, index) = split_ref(at);
        self.stores.get(bucket)?.as_ref()?.nodes.get(index)
    }

    fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Expands, exchanges and votes until a vote ends the search.
    fn search(&mut self) -> Result<Verdict, Error> {
        let mut idle_since: Option<Instant> = None;
        let mut idle = 0.0;
        let mut iterations = 0u64;
        let verdict = loop {
            iterations += 1;
            let entry = self.pop();
            if entry.is_none() || iterations.is_multiple_of(POLL_EVERY) {
                self.receive_all()?;
                self.transport.reap()?;
                if let Some(vote) = self.vote.as_mut() {
                    if let Some((sums, mins)) = vote.test()? {
                        self.vote = None;
                        if let Some(verdict) = self.decide(sums, mins)? {
                            break verdict;
                        }
                    }
                }
            }
            match entry {
                Some(entry) => {
                    if let Some(since) = idle_since.take() {
                        idle += since.elapsed().as_secs_f64();
                    }
                    self.expand(entry)?;
                    if self.stats.expanded.is_multiple_of(FLUSH_EVERY) {
                        self.flush_all()?;
                    }
                    if self.vote.is_none()
                        && iterations.is_multiple_of(POLL_EVERY)
                        && self.seconds() - self.last_vote >= self.config.vote_every
                    {
                        self.start_vote()?;
                    }
                }
                None => {
                    idle_since.get_or_insert_with(Instant::now);
                    if self.vote.is_none() {
                        self.start_vote()?;
                    } else {
                        // Other processes may share this core (an
                        // oversubscribed job): let them run.
                        std::thread::yield_now();
                    }
                }
            }
        };
        if let Some(since) = idle_since {
            idle += since.elapsed().as_secs_f64();
        }
        self.stats.busy_seconds = self.seconds() - idle;
        Ok(verdict)
    }

    /// Drops stale entries (closed, superseded, or of a bucket handed
    /// over) from the top of the open list, and under a weight those whose
    /// f reaches the incumbent's cutoff (they cannot bring a solution the
    /// weight's bound needs; their f joins the lower bound).
    fn live_top(&mut self) -> Option<OpenEntry> {
        let cutoff = self.cutoff();
        while let Some(&entry) = self.open.peek() {
            match self.node(entry.node) {
                Some(node) if !node.closed && entry.g == node.g => {
                    let f = node.g.saturating_add(node.h);
                    if f < cutoff {
                        return Some(entry);
                    }
                    self.least_dropped = self.least_dropped.min(f);
                    self.open.pop();
                }
                _ => {
                    self.open.pop();
                }
            }
        }
        None
    }

    /// The least f dropped once a goal is known: under a weight f ≥ ⌈C/w⌉
    /// (cannot improve on C by the weight's bound), anytime f ≥ C;
    /// `Cost::MAX` (nothing dropped) for A* or before any goal.
    fn cutoff(&self) -> Cost {
        if self.order.is_optimal() || self.incumbent == Cost::MAX {
            Cost::MAX
        } else {
            self.order.cutoff(self.weight, self.incumbent)
        }
    }

    /// The best live open entry at a key within the layer and (A*) an f
    /// below the incumbent; under a weight, `live_top` has dropped those
    /// at the incumbent's cutoff.
    fn pop(&mut self) -> Option<OpenEntry> {
        let entry = self.live_top()?;
        if entry.f > self.layer || (self.order.is_optimal() && entry.f >= self.incumbent) {
            return None;
        }
        self.open.pop();
        Some(entry)
    }

    fn expand(&mut self, entry: OpenEntry) -> Result<(), Error> {
        let me = entry.node;
        let (bucket, index) = split_ref(me);
        let Some(store) = self.stores[bucket].as_deref_mut() else {
            return Ok(()); // pop returns entries of held buckets only
        };
        let parent = &mut store.nodes[index];
        if self.domain.is_goal(&parent.state) {
            let g = parent.g;
            if g < self.incumbent {
                self.incumbent = g;
                self.goals.push((g, me));
                // Tell every rank now, so that none expands past the goal's
                // cost until the next vote: one short message each.
                let rank = self.transport.rank;
                for to in (0..self.transport.size).filter(|&to| to != rank) {
                    self.flush_even_empty(to)?;
                }
            }
            return Ok(());
        }
        parent.closed = true;
        store.expanded += 1;
        self.stats.expanded += 1;
        let (parent_g, parent_h) = (parent.g, parent.h);
        let mut successors = std::mem::take(&mut self.successors);
        successors.clear();
        self.domain.expand(&parent.state, &mut successors);
        self.stats.generated += successors.len() as u64;
        for edge in successors.drain(..) {
            let g = parent_g.saturating_add(edge.cost);
            let Some(parent) = self.node(me) else {
                break; // the parent's bucket is held throughout its expansion
            };
            let h = self
                .heuristic
                .h_child(self.domain, &parent.state, parent_h, &edge.state);
            let f = g.saturating_add(h);
            if f >= self.incumbent {
                continue;
            }
            if f >= self.cutoff() {
                self.least_dropped = self.least_dropped.min(f);
                continue;
            }
            let child_bucket = self.bucket_of(&edge.state);
            let to = self.owner_of[child_bucket] as usize;
            if to == self.transport.rank {
                self.insert(child_bucket, edge.state, me, g, h);
                continue;
            }
            let extra = self.domain.pack_extra(&edge.state);
            let outbox = &mut self.outboxes[to];
            let from = outbox.len();
            outbox.resize(from + self.words, 0);
            self.domain.pack(&edge.state, &mut outbox[from..]);
            outbox.extend_from_slice(&[
                extra,
                g,
                h,
                child_bucket as u32,
                (me >> 32) as u32,
                me as u32,
            ]);
            if (outbox.len() - HEADER) / (self.words + TRAILER) >= self.config.batch {
                self.flush(to)?;
            }
        }
        self.successors = successors;
        Ok(())
    }

    /// Adds a state of `bucket` to its closed table and the open list,
    /// unless it is known at an equal or better g; keeps it for later when
    /// the bucket's store is still on its way here.
    fn insert(&mut self, bucket: usize, state: D::State, parent: NodeRef, g: Cost, h: Cost) {
        let hash = self.hasher.hash_one(&state);
        let Some(store) = self.stores[bucket].as_deref_mut() else {
            self.pending.entry(bucket).or_default().push(Waiting {
                state,
                parent,
                g,
                h,
            });
            return;
        };
        let nodes = &mut store.nodes;
        let found = store
            .index
            .find(hash, |&i| nodes[i as usize].state == state)
            .copied();
        let at = match found {
            Some(i) => {
                let known = &mut nodes[i as usize];
                if g >= known.g {
                    self.stats.duplicates += 1;
                    return;
                }
                if known.closed {
                    known.closed = false;
                    self.stats.reopened += 1;
                }
                known.g = g;
                known.parent = parent;
                // The new path's state: its extra (last move) belongs to it.
                known.state = state;
                i as usize
            }
            None => {
                let i = nodes.len();
                let hasher = &self.hasher;
                store.index.insert_unique(hash, i as u32, |&j| {
                    hasher.hash_one(&nodes[j as usize].state)
                });
                nodes.push(Node {
                    state,
                    parent,
                    g,
                    h,
                    closed: false,
                });
                self.held += 1;
                i
            }
        };
        let node = &nodes[at];
        self.open.push(OpenEntry {
            f: self.weight.key(node.g, node.h).0,
            g: node.g,
            node: node_ref(bucket, at),
        });
        self.stats.peak_open = self.stats.peak_open.max(self.open.len() as u64);
    }

    /// Sends rank `to`'s outbox, if it holds any state.
    fn flush(&mut self, to: usize) -> Result<(), Error> {
        if self.outboxes[to].len() <= HEADER {
            return Ok(());
        }
        self.flush_even_empty(to)
    }

    /// A buffer holding a header for this rank's epoch and incumbent.
    fn fresh_message(&mut self, bucket: u32, expanded: u64) -> Vec<u32> {
        let mut words = self.transport.spare.pop().unwrap_or_default();
        words.clear();
        words.extend_from_slice(&[
            self.votes_entered,
            self.incumbent,
            bucket,
            expanded as u32,
            (expanded >> 32) as u32,
        ]);
        words
    }

    /// Sends rank `to`'s outbox stamped with this rank's epoch and
    /// incumbent, also when it holds no state.
    fn flush_even_empty(&mut self, to: usize) -> Result<(), Error> {
        let fresh = self.fresh_message(STATES, 0);
        let mut batch = std::mem::replace(&mut self.outboxes[to], fresh);
        batch[..HEADER].copy_from_slice(&[self.votes_entered, self.incumbent, STATES, 0, 0]);
        let states = ((batch.len() - HEADER) / (self.words + TRAILER)) as u64;
        self.stats.sent += states;
        self.sent_states += states;
        self.transport.send(to, batch)
    }

    fn flush_all(&mut self) -> Result<(), Error> {
        for to in 0..self.outboxes.len() {
            self.flush(to)?;
        }
        Ok(())
    }

    /// Sends bucket `bucket`'s whole store to rank `to`, its new owner.
    fn hand_over(&mut self, bucket: usize, to: usize) -> Result<(), Error> {
        let Some(store) = self.stores[bucket].take() else {
            return Ok(());
        };
        self.held -= store.nodes.len() as u64;
        let mut words = self.fresh_message(bucket as u32, store.expanded);
        words.reserve(store.nodes.len() * (self.words + NODE_TRAILER));
        for node in &store.nodes {
            let from = words.len();
            words.resize(from + self.words, 0);
            self.domain.pack(&node.state, &mut words[from..]);
            words.extend_from_slice(&[
                self.domain.pack_extra(&node.state),
                node.g,
                node.h,
                (node.parent >> 32) as u32,
                node.parent as u32,
                u32::from(node.closed),
            ]);
        }
        // A whole bucket counts as one in the votes' sent and received.
        self.sent_states += 1;
        self.transport.send(to, words)
    }

    fn receive_all(&mut self) -> Result<(), Error> {
        while let Some((from, words)) = self.transport.receive() {
            self.take(from, words)?;
        }
        Ok(())
    }

    fn unpack(&self, from: usize, packed: &[u32], extra: u32) -> Result<D::State, Error> {
        let mut state = self
            .domain
            .unpack(packed)
            .map_err(|e| Error::Mpi(format!("rank {from} sent a bad state: {e}")))?;
        self.domain.unpack_extra(&mut state, extra);
        Ok(state)
    }

    /// Inserts the states of a received batch, or adopts a whole bucket.
    fn take(&mut self, from: usize, words: Vec<u32>) -> Result<(), Error> {
        if words.len() < HEADER {
            return Err(Error::Mpi(format!(
                "rank {from} sent a message without a header"
            )));
        }
        let (header, records) = words.split_at(HEADER);
        let (epoch, incumbent, bucket) = (header[0], header[1], header[2]);
        self.incumbent = self.incumbent.min(incumbent);
        let record = self.words
            + if bucket == STATES {
                TRAILER
            } else {
                NODE_TRAILER
            };
        if !records.len().is_multiple_of(record) {
            return Err(Error::Mpi(format!(
                "rank {from} sent {} words, not whole records of {record}",
                records.len()
            )));
        }
        if bucket != STATES {
            *self.received.entry(epoch).or_default() += 1;
            let expanded = u64::from(header[3]) | (u64::from(header[4]) << 32);
            self.adopt(from, bucket as usize, records, expanded)?;
        } else {
            *self.received.entry(epoch).or_default() += (records.len() / record) as u64;
            for r in records.chunks_exact(record) {
                let (packed, t) = r.split_at(self.words);
                let (g, h, bucket) = (t[1], t[2], t[3] as usize);
                if bucket >= BUCKETS as usize {
                    return Err(Error::Mpi(format!("rank {from} sent bucket {bucket}")));
                }
                if g.saturating_add(h) >= self.incumbent {
                    continue;
                }
                let state = self.unpack(from, packed, t[0])?;
                let parent = (u64::from(t[4]) << 32) | u64::from(t[5]);
                self.insert(bucket, state, parent, g, h);
            }
        }
        let mut words = words;
        words.clear();
        self.transport.spare.push(words);
        Ok(())
    }

    /// Becomes the holder of a handed-over bucket: its open nodes join the
    /// open list, then the states that arrived ahead of it.
    fn adopt(
        &mut self,
        from: usize,
        bucket: usize,
        records: &[u32],
        expanded: u64,
    ) -> Result<(), Error> {
        if bucket >= BUCKETS as usize || self.stores[bucket].is_some() {
            return Err(Error::Mpi(format!(
                "rank {from} handed over bucket {bucket}, which is not expected here"
            )));
        }
        let mut store = Box::new(Store::<D::State> {
            expanded,
            ..Store::default()
        });
        for r in records.chunks_exact(self.words + NODE_TRAILER) {
            let (packed, t) = r.split_at(self.words);
            let state = self.unpack(from, packed, t[0])?;
            let i = store.nodes.len();
            let hasher = &self.hasher;
            let nodes = &store.nodes;
            store
                .index
                .insert_unique(hasher.hash_one(&state), i as u32, |&j| {
                    hasher.hash_one(&nodes[j as usize].state)
                });
            let closed = t[5] != 0;
            if !closed {
                self.open.push(OpenEntry {
                    f: t[1].saturating_add(t[2]),
                    g: t[1],
                    node: node_ref(bucket, i),
                });
            }
            store.nodes.push(Node {
                state,
                g: t[1],
                h: t[2],
                parent: (u64::from(t[3]) << 32) | u64::from(t[4]),
                closed,
            });
        }
        self.held += store.nodes.len() as u64;
        self.stats.adopted += store.nodes.len() as u64;
        self.stores[bucket] = Some(store);
        for w in self.pending.remove(&bucket).unwrap_or_default() {
            self.insert(bucket, w.state, w.parent, w.g, w.h);
        }
        Ok(())
    }

    fn bytes(&self) -> u64 {
        let per_node = (std::mem::size_of::<Node<D::State>>() + 9) as u64;
        self.held * per_node + self.open.len() as u64 * std::mem::size_of::<OpenEntry>() as u64
    }

    /// Enters the next vote, after sending everything waiting to be sent.
    fn start_vote(&mut self) -> Result<(), Error> {
        self.flush_all()?;
        let epoch = self.votes_entered;
        // Epochs up to this one count now and in every later vote.
        let later = self.received.split_off(&(epoch + 1));
        self.received_settled += self.received.values().sum::<u64>();
        self.received = later;
        let received = self.received_settled;
        let goal = self.goals.last().map_or(u64::MAX, |&(cost, _)| {
            (u64::from(cost) << 32) | self.transport.rank as u64
        });
        // The slowest clock, as a minimum of its complement.
        let clock = u64::MAX - (self.seconds() * 1e6) as u64;
        let sums = [
            self.sent_states,
            received,
            self.stats.expanded,
            self.bytes(),
        ];
        // The lowest key (f for A*).
        let lowest_f = self.live_top().map_or(Cost::MAX, |e| e.f);
        let mins = [u64::from(lowest_f), goal, clock];
        self.vote = Some(Vote::start(&self.transport.world, sums, mins)?);
        self.votes_entered += 1;
        Ok(())
    }

    /// What every rank concludes from the same reduced numbers.
    fn decide(&mut self, sums: [u64; SUMS], mins: [u64; MINS]) -> Result<Option<Verdict>, Error> {
        let [sent, received, expanded, bytes] = sums;
        let [lowest_f, goal, clock] = mins;
        let seconds = (u64::MAX - clock) as f64 / 1e6;
        tracing::trace!(
            rank = self.transport.rank,
            vote = self.votes_entered,
            ?sums,
            ?mins,
            layer = self.layer,
            "vote"
        );
        self.last_vote = self.seconds();
        // Decisions use only the reduced numbers, never this rank's own
        // goal, which the others learn at the next vote.
        let agreed = if goal == u64::MAX {
            Cost::MAX
        } else {
            (goal >> 32) as Cost
        };
        // An anytime search's keys change with its weight: the lowest key
        // of this vote is of the old ones.
        let mut rekeyed = false;
        if agreed < self.agreed {
            self.agreed = agreed;
            self.found_at = Some(seconds);
            if !self.order.is_optimal() {
                rekeyed = self.improve(agreed, seconds, expanded);
            }
        }
        self.incumbent = self.incumbent.min(agreed);
        if self.transport.rank == 0 && seconds >= self.next_report {
            self.next_report = seconds + 0.25;
            if let Some(sink) = &self.options.progress {
                sink(&Progress {
                    expanded,
                    open: self.open.len() as u64 * self.transport.size as u64,
                    f: self.layer,
                    seconds,
                });
            }
        }
        if sent == received {
            // Under a weight, keys are not costs: the search is over when
            // no rank holds a state below its cutoff (each dropped the
            // rest), and every goal found is in the vote.
            let done = if self.order.is_optimal() {
                lowest_f >= u64::from(self.agreed)
            } else {
                lowest_f == u64::from(Cost::MAX)
            };
            if done {
                // Nothing anywhere was cheaper than the agreed goal (A*),
                // or could improve on it by the weight's bound, so no
                // rank holds a cheaper one of its own.
                self.incumbent = self.agreed;
                return Ok(Some(Verdict::Proven));
            }
            if !rekeyed && lowest_f > u64::from(self.layer) {
                self.layer = lowest_f as Cost;
                if self.config.rebalance && self.transport.size > 1 {
                    self.rebalance()?;
                }
            }
        }
        Ok(self
            .options
            .limits
            .exceeded(expanded, bytes, seconds)
            .map(Verdict::Limit))
    }

    /// Records an improvement every rank agreed on; an anytime search then
    /// lowers its weight (on every rank at the same vote), ranks its open
    /// list again by the new keys and restarts the layers from 0 (the next
    /// vote finds the lowest key anywhere).
    /// Returns whether the weight was lowered.
    fn improve(&mut self, cost: Cost, seconds: f64, expanded: u64) -> bool {
        let lower = self.order.anytime && !self.weight.is_one();
        if lower {
            self.weight = self.weight.lowered();
            let weight = self.weight;
            let entries: Vec<OpenEntry> = std::mem::take(&mut self.open)
                .into_iter()
                .filter_map(|e| {
                    let node = self.node(e.node).filter(|n| !n.closed && n.g == e.g)?;
                    Some(OpenEntry {
                        f: weight.key(node.g, node.h).0,
                        ..e
                    })
                })
                .collect();
            self.open = BinaryHeap::from(entries);
            self.layer = 0;
        }
        self.record(cost, seconds, expanded);
        lower
    }

    /// Adds a solution of `cost` to the anytime trace.
    fn record(&mut self, cost: Cost, seconds: f64, expanded: u64) {
        self.improvements.push(Improvement {
            seconds,
            cost,
            lower_bound: self.h0.min(cost),
            expanded,
            weight: self.weight.value(),
        });
    }

    /// Between layers, moves buckets from the busiest ranks to the idlest,
    /// planned from every bucket's expansions since the last plan. Every
    /// rank calls it at the same vote and makes the same plan; nothing is
    /// in flight then, so no state can be sent under the old owners.
    fn rebalance(&mut self) -> Result<(), Error> {
        let mine: Vec<u64> = self
            .stores
            .iter()
            .map(|s| s.as_ref().map_or(0, |s| s.expanded))
            .collect();
        let mut loads = vec![0u64; mine.len()];
        self.transport.world.all_reduce_into(
            &mine[..],
            &mut loads[..],
            mpi::collective::SystemOperation::sum(),
        );
        let since: Vec<u64> = loads
            .iter()
            .zip(&self.last_loads)
            .map(|(&now, &then)| now.saturating_sub(then))
            .collect();
        let owner_of = |bucket: usize| self.owner_of[bucket] as usize;
        let Some((work, moves)) = plan_moves(&since, owner_of, self.transport.size, self.last_work)
        else {
            return Ok(());
        };
        self.last_loads = loads;
        self.last_work = work;
        for (bucket, from, to) in moves {
            self.owner_of[bucket] = to as u32;
            if from == self.transport.rank {
                self.hand_over(bucket, to)?;
            }
        }
        Ok(())
    }

    /// Drains the network, traces the path and gathers the statistics.
    fn finish(mut self, verdict: Verdict) -> Result<DomainOutcome<D>, Error> {
        // States still in an outbox or on their way when a limit ended the
        // search are unexpanded too: the outboxes go out and every batch is
        // taken in as usual, so that the lower bound below counts them (an
        // optimal path may run through any of them), and no send is left
        // pending.
        self.flush_all()?;
        let mut in_flight = Vec::new();
        self.transport
            .drain(|from, words| in_flight.push((from, words)))?;
        // A batch's header may carry a cheaper incumbent; the vote has
        // agreed on the one every rank traces, so it stays.
        let incumbent = self.incumbent;
        for (from, words) in in_flight {
            self.take(from, words)?;
        }
        self.incumbent = incumbent;
        let seconds = self.seconds();
        let mut kept_at_limit = None;
        let status = match verdict {
            // Beyond A*, a search stopped early still has its best
            // solution: the one the last vote agreed on.
            Verdict::Limit(limit) if !self.order.is_optimal() && self.agreed < Cost::MAX => {
                self.incumbent = self.agreed;
                kept_at_limit = Some(limit);
                Status::Solved(self.trace()?)
            }
            Verdict::Limit(limit) => Status::LimitReached(limit),
            Verdict::Proven if self.incumbent == Cost::MAX => Status::NoSolution,
            Verdict::Proven => Status::Solved(self.trace()?),
        };

        // The least f of every state left unexpanded here: open (below the
        // cutoff or not), dropped, or waiting for its bucket; and the
        // cheapest goal this rank found, since a goal taken off the open
        // list is counted nowhere else, and a state pruned at f ≥ a goal's
        // cost lies on an optimal path only if that goal is optimal (a goal
        // of another rank is that rank's to count). Beyond A* it bounds a
        // solution's quality; for A* stopped by a limit it is what the
        // search proved. A solved A* needs none.
        let cut = matches!(status, Status::LimitReached(_));
        let found = self
            .goals
            .iter()
            .map(|&(cost, _)| cost)
            .min()
            .unwrap_or(Cost::MAX);
        let unexpanded = if self.order.is_optimal() && !cut {
            Cost::MAX
        } else {
            let waiting = self
                .pending
                .values()
                .flatten()
                .map(|w| w.g.saturating_add(w.h));
            self.open
                .iter()
                .filter_map(|e| self.node(e.node).filter(|n| !n.closed && n.g == e.g))
                .map(|n| n.g.saturating_add(n.h))
                .chain(waiting)
                .fold(self.least_dropped.min(found), Cost::min)
        };
        // Every rank's counters, gathered everywhere.
        let mine = [
            self.stats.expanded,
            self.stats.generated,
            self.stats.duplicates,
            self.stats.reopened,
            self.stats.sent,
            self.stats.peak_open,
            self.held,
            self.stats.busy_seconds.to_bits(),
            seconds.to_bits(),
            self.bytes(),
            self.stats.adopted,
            u64::from(unexpanded),
        ];
        let mut all = vec![0u64; mine.len() * self.transport.size];
        self.transport
            .world
            .all_gather_into(&mine[..], &mut all[..]);
        let seconds = all
            .chunks_exact(mine.len())
            .map(|c| f64::from_bits(c[8]))
            .fold(0.0, f64::max);
        let workers: Vec<WorkerCounts> = all
            .chunks_exact(mine.len())
            .map(|c| WorkerCounts {
                expanded: c[0],
                generated: c[1],
                duplicates: c[2],
                reopened: c[3],
                sent: c[4],
                peak_open: c[5],
                stored: c[6],
                busy_seconds: f64::from_bits(c[7]),
                adopted: c[10],
            })
            .collect();
        let mut stats = summarize(&workers, seconds);
        stats.stopped_by = kept_at_limit;
        stats.peak_bytes = all.chunks_exact(mine.len()).map(|c| c[9]).sum();
        if !self.config.rebalance {
            stats.handoff_share = None;
        }
        let least_unexpanded = all
            .chunks_exact(mine.len())
            .map(|c| c[11])
            .min()
            .map_or(Cost::MAX, |least| {
                Cost::try_from(least).unwrap_or(Cost::MAX)
            });
        if matches!(status, Status::LimitReached(_)) && least_unexpanded < Cost::MAX {
            // With an admissible heuristic a state on an optimal path, at
            // its optimal g, is among those counted (or the incumbent is
            // optimal): C* ≥ the least of them.
            stats.lower_bound = Some(least_unexpanded);
        }
        if let Status::Solved(solution) = &status {
            stats.termination_overhead = self.found_at.map(|at| share_after(at, seconds));
            if !self.order.is_optimal() {
                // With an admissible heuristic some state on an optimal
                // path is left unexpanded with its optimal g (reopening
                // keeps that true), so C* ≥ the least f of them all.
                stats.lower_bound = Some(least_unexpanded.min(solution.cost));
                // The traced path may cost less than its goal's g (states
                // on it reached more cheaply later): the trace ends at what
                // is returned.
                if self
                    .improvements
                    .last()
                    .is_none_or(|last| solution.cost < last.cost)
                {
                    self.record(solution.cost, seconds, stats.expanded);
                }
            }
        }
        keep_workers(&mut stats, workers);
        stats.improvements = std::mem::take(&mut self.improvements);
        Ok(Outcome { status, stats })
    }

    /// Follows the goal's parents from rank to rank: each node's owner
    /// broadcasts its packed state and its parent. Every rank calls this.
    fn trace(&mut self) -> Result<crate::Solution<D::State, D::Move>, Error> {
        let words = self.words;
        // The goal's holder (the least rank holding a goal of the agreed
        // cost) tells every rank where it is.
        let goal = self
            .goals
            .iter()
            .find(|&&(cost, _)| cost == self.incumbent)
            .map(|&(_, at)| at);
        let mine = [goal.map_or(u32::MAX, |_| self.transport.rank as u32)];
        let mut holder = [0u32];
        self.transport.world.all_reduce_into(
            &mine[..],
            &mut holder[..],
            mpi::collective::SystemOperation::min(),
        );
        if holder[0] as usize >= self.transport.size {
            return Err(Error::Mpi("no rank holds the incumbent's goal".into()));
        }
        let goal = goal.unwrap_or(NO_PARENT);
        let mut at = [(goal >> 32) as u32, goal as u32];
        self.transport
            .world
            .process_at_rank(holder[0] as i32)
            .broadcast_into(&mut at[..]);
        let mut packed = Vec::new();
        let mut message = vec![0u32; 2 + words];
        loop {
            let here = (u64::from(at[0]) << 32) | u64::from(at[1]);
            let (bucket, _) = split_ref(here);
            let Some(&owner) = self.owner_of.get(bucket) else {
                return Err(Error::Mpi(format!("a parent names bucket {bucket}")));
            };
            if owner as usize == self.transport.rank {
                let node = self
                    .node(here)
                    .ok_or_else(|| Error::Mpi("a parent names a missing node".into()))?;
                message[0] = (node.parent >> 32) as u32;
                message[1] = node.parent as u32;
                self.domain.pack(&node.state, &mut message[2..]);
            }
            self.transport
                .world
                .process_at_rank(owner as i32)
                .broadcast_into(&mut message[..]);
            packed.extend_from_slice(&message[2..]);
            if packed.len() / words > 1 << 26 {
                return Err(Error::Mpi("the goal's parents form a cycle".into()));
            }
            if (u64::from(message[0]) << 32) | u64::from(message[1]) == NO_PARENT {
                break;
            }
            at = [message[0], message[1]];
        }
        // Under a weight a node on the path may have been reached more
        // cheaply after the goal was (reopened): the path then costs less.
        let traced = if self.order.is_optimal() {
            replay_traced(self.domain, &packed, self.incumbent)
        } else {
            replay_traced_within(self.domain, &packed, self.incumbent)
        };
        traced.map_err(|e| Error::Mpi(format!("the traced path {e}")))
    }
}
