//! The `mpi-hda` executor itself (with the `mpi` feature); the module
//! docs of [`super`] describe the algorithm.

use std::collections::{BTreeMap, BinaryHeap};
use std::hash::BuildHasher;
use std::time::Instant;

use hashbrown::HashTable;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

use super::comm::{abort, init, Transport, Vote, MINS, SUMS};
use super::MpiHdaConfig;
use crate::domain::{Cost, Heuristic, Partitioner};
use crate::search::hda::{summarize, WorkerCounts};
use crate::search::{replay, DomainOutcome, Limit, Outcome, Progress, SearchOptions, Status};
use crate::{Error, PackedState};

/// Buckets of the partition, as in the thread executor.
const BUCKETS: u32 = 4096;
/// A node's parent: its rank in the high half, its index there in the low.
const NO_PARENT: u64 = u64::MAX;
/// Words before the records of a batch: the sender's epoch and incumbent
/// (so that a goal's cost spreads with the traffic, long before a vote).
const HEADER: usize = 2;
/// Words after a record's state: its extra word, g, h, parent rank,
/// parent index.
const TRAILER: usize = 5;
/// Expansions between looks at the inbox and the pending vote.
const POLL_EVERY: u64 = 8;
/// Flush partial outboxes this often, so other ranks are not starved.
const FLUSH_EVERY: u64 = 256;

struct Node<S> {
    state: S,
    parent: u64,
    g: Cost,
    h: Cost,
    closed: bool,
}

type OpenEntry = crate::search::astar::OpenEntry<u32>;

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
        transport,
        nodes: Vec::new(),
        index: HashTable::new(),
        hasher: hashbrown::DefaultHashBuilder::default(),
        open: BinaryHeap::new(),
        layer: h0,
        incumbent: Cost::MAX,
        agreed: Cost::MAX,
        best_goal: None,
        found_at: None,
        votes_entered: 0,
        sent_states: 0,
        received: BTreeMap::new(),
        vote: None,
        last_vote: 0.0,
        next_report: 0.25,
        stats: WorkerCounts::default(),
        started,
        successors: Vec::new(),
    };
    let home = rank.owner(&start);
    if home == rank.transport.rank {
        rank.insert(start, NO_PARENT, 0, h0);
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
    (h0, config.batch, &config.partition, packed).hash(&mut hasher);
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

struct Rank<'a, D: PackedState, H, P> {
    domain: &'a D,
    heuristic: &'a H,
    partitioner: &'a P,
    config: &'a MpiHdaConfig,
    options: &'a SearchOptions,
    words: usize,
    transport: Transport,
    /// The rank owning each bucket.
    owner_of: Vec<u32>,
    /// Per destination rank: the header, then records.
    outboxes: Vec<Vec<u32>>,
    nodes: Vec<Node<D::State>>,
    index: HashTable<u32>,
    hasher: hashbrown::DefaultHashBuilder,
    open: BinaryHeap<OpenEntry>,
    /// The f-layer being expanded.
    layer: Cost,
    /// The cheapest goal known here: this rank's own, or any rank's as of
    /// the last vote.
    incumbent: Cost,
    /// The cheapest goal of any rank as of the last vote.
    agreed: Cost,
    /// This rank's cheapest goal: its cost and node.
    best_goal: Option<(Cost, u32)>,
    /// Seconds at which a vote first showed the final incumbent.
    found_at: Option<f64>,
    votes_entered: u32,
    sent_states: u64,
    /// States received, by their sender's epoch.
    received: BTreeMap<u32, u64>,
    vote: Option<Vote>,
    /// Seconds at which the last vote completed.
    last_vote: f64,
    next_report: f64,
    stats: WorkerCounts,
    started: Instant,
    successors: Vec<crate::Edge<D::State, D::Move>>,
}

impl<D: PackedState, H: Heuristic<D>, P: Partitioner<D>> Rank<'_, D, H, P> {
    fn owner(&self, state: &D::State) -> usize {
        let bucket = self.partitioner.owner(self.domain, state, BUCKETS);
        self.owner_of[bucket as usize % BUCKETS as usize] as usize
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
            if entry.is_none() || iterations % POLL_EVERY == 0 {
                self.receive_all()?;
                self.transport.reap()?;
                if let Some(vote) = self.vote.as_mut() {
                    if let Some((sums, mins)) = vote.test()? {
                        self.vote = None;
                        if let Some(verdict) = self.decide(sums, mins) {
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
                    if self.stats.expanded % FLUSH_EVERY == 0 {
                        self.flush_all()?;
                    }
                    if self.vote.is_none()
                        && iterations % POLL_EVERY == 0
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

    /// The best live open entry at f ≤ the layer and below the incumbent.
    fn pop(&mut self) -> Option<OpenEntry> {
        while let Some(&entry) = self.open.peek() {
            let node = &self.nodes[entry.node as usize];
            if node.closed || entry.g != node.g {
                self.open.pop();
                continue;
            }
            if entry.f > self.layer || entry.f >= self.incumbent {
                return None;
            }
            self.open.pop();
            return Some(entry);
        }
        None
    }

    /// The lowest f of a live open entry (`Cost::MAX` with none).
    fn lowest_open_f(&mut self) -> Cost {
        while let Some(&entry) = self.open.peek() {
            let node = &self.nodes[entry.node as usize];
            if node.closed || entry.g != node.g {
                self.open.pop();
                continue;
            }
            return entry.f;
        }
        Cost::MAX
    }

    fn expand(&mut self, entry: OpenEntry) -> Result<(), Error> {
        let at = entry.node as usize;
        if self.domain.is_goal(&self.nodes[at].state) {
            let g = self.nodes[at].g;
            if g < self.incumbent {
                self.incumbent = g;
                self.best_goal = Some((g, entry.node));
                // Tell every rank now, so that none expands past the goal's
                // cost until the next vote: one short message each.
                let me = self.transport.rank;
                for to in (0..self.transport.size).filter(|&to| to != me) {
                    self.flush_even_empty(to)?;
                }
            }
            return Ok(());
        }
        self.nodes[at].closed = true;
        self.stats.expanded += 1;
        let mut successors = std::mem::take(&mut self.successors);
        successors.clear();
        self.domain.expand(&self.nodes[at].state, &mut successors);
        self.stats.generated += successors.len() as u64;
        let (parent_g, parent_h) = (self.nodes[at].g, self.nodes[at].h);
        let me = ((self.transport.rank as u64) << 32) | u64::from(entry.node);
        for edge in successors.drain(..) {
            let g = parent_g.saturating_add(edge.cost);
            let h =
                self.heuristic
                    .h_child(self.domain, &self.nodes[at].state, parent_h, &edge.state);
            if g.saturating_add(h) >= self.incumbent {
                continue;
            }
            let to = self.owner(&edge.state);
            if to == self.transport.rank {
                self.insert(edge.state, me, g, h);
                continue;
            }
            let outbox = &mut self.outboxes[to];
            let from = outbox.len();
            outbox.resize(from + self.words, 0);
            self.domain.pack(&edge.state, &mut outbox[from..]);
            let extra = self.domain.pack_extra(&edge.state);
            outbox.extend_from_slice(&[extra, g, h, self.transport.rank as u32, entry.node]);
            if (outbox.len() - HEADER) / (self.words + TRAILER) >= self.config.batch {
                self.flush(to)?;
            }
        }
        self.successors = successors;
        Ok(())
    }

    /// Adds a state to the closed table and open list, unless it is known
    /// at an equal or better g.
    fn insert(&mut self, state: D::State, parent: u64, g: Cost, h: Cost) {
        let hash = self.hasher.hash_one(&state);
        let nodes = &mut self.nodes;
        let found = self
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
                i
            }
            None => {
                let i = nodes.len() as u32;
                let hasher = &self.hasher;
                self.index
                    .insert_unique(hash, i, |&j| hasher.hash_one(&nodes[j as usize].state));
                nodes.push(Node {
                    state,
                    parent,
                    g,
                    h,
                    closed: false,
                });
                i
            }
        };
        let node = &self.nodes[at as usize];
        self.open.push(OpenEntry {
            f: node.g.saturating_add(node.h),
            g: node.g,
            node: at,
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

    /// Sends rank `to`'s outbox stamped with this rank's epoch and
    /// incumbent, also when it holds no state.
    fn flush_even_empty(&mut self, to: usize) -> Result<(), Error> {
        let mut fresh = self.transport.spare.pop().unwrap_or_default();
        fresh.clear();
        fresh.resize(HEADER, 0);
        let mut batch = std::mem::replace(&mut self.outboxes[to], fresh);
        batch[0] = self.votes_entered;
        batch[1] = self.incumbent;
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

    fn receive_all(&mut self) -> Result<(), Error> {
        while let Some((from, words)) = self.transport.receive() {
            self.take(from, words)?;
        }
        Ok(())
    }

    /// Inserts the states of a received batch.
    fn take(&mut self, from: usize, words: Vec<u32>) -> Result<(), Error> {
        let record = self.words + TRAILER;
        if words.len() < HEADER {
            return Err(Error::Mpi(format!(
                "rank {from} sent a message without a header"
            )));
        }
        let (header, records) = words.split_at(HEADER);
        let (epoch, incumbent) = (header[0], header[1]);
        self.incumbent = self.incumbent.min(incumbent);
        if records.len() % record != 0 {
            return Err(Error::Mpi(format!(
                "rank {from} sent {} words, not whole records of {record}",
                records.len()
            )));
        }
        *self.received.entry(epoch).or_default() += (records.len() / record) as u64;
        for r in records.chunks_exact(record) {
            let (packed, t) = r.split_at(self.words);
            let (g, h) = (t[1], t[2]);
            if g.saturating_add(h) >= self.incumbent {
                continue;
            }
            let mut state = self
                .domain
                .unpack(packed)
                .map_err(|e| Error::Mpi(format!("rank {from} sent a bad state: {e}")))?;
            self.domain.unpack_extra(&mut state, t[0]);
            self.insert(state, (u64::from(t[3]) << 32) | u64::from(t[4]), g, h);
        }
        let mut words = words;
        words.clear();
        self.transport.spare.push(words);
        Ok(())
    }

    fn bytes(&self) -> u64 {
        let per_node = (std::mem::size_of::<Node<D::State>>() + 9) as u64;
        self.nodes.len() as u64 * per_node
            + self.open.len() as u64 * std::mem::size_of::<OpenEntry>() as u64
    }

    /// Enters the next vote, after sending everything waiting to be sent.
    fn start_vote(&mut self) -> Result<(), Error> {
        self.flush_all()?;
        let epoch = self.votes_entered;
        let received: u64 = self.received.range(..=epoch).map(|(_, n)| n).sum();
        let goal = self.best_goal.map_or(u64::MAX, |(cost, _)| {
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
        let mins = [u64::from(self.lowest_open_f()), goal, clock];
        self.vote = Some(Vote::start(&self.transport.world, sums, mins)?);
        self.votes_entered += 1;
        Ok(())
    }

    /// What every rank concludes from the same reduced numbers.
    fn decide(&mut self, sums: [u64; SUMS], mins: [u64; MINS]) -> Option<Verdict> {
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
        if agreed < self.agreed {
            self.agreed = agreed;
            self.found_at = Some(seconds);
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
            if lowest_f >= u64::from(self.agreed) {
                // Nothing anywhere was cheaper than the agreed goal, so no
                // rank holds a cheaper one of its own.
                self.incumbent = self.agreed;
                return Some(Verdict::Proven);
            }
            self.layer = self.layer.max(lowest_f as Cost);
        }
        self.options
            .limits
            .exceeded(expanded, bytes, seconds)
            .map(Verdict::Limit)
    }

    /// Drains the network, traces the path and gathers the statistics.
    fn finish(mut self, verdict: Verdict) -> Result<DomainOutcome<D>, Error> {
        // Batches still addressed to a rank when a limit ended the search
        // are received only so that no send is left pending.
        self.transport.drain(|_, _| {})?;
        let seconds = self.seconds();
        let status = match verdict {
            Verdict::Limit(limit) => Status::LimitReached(limit),
            Verdict::Proven if self.incumbent == Cost::MAX => Status::NoSolution,
            Verdict::Proven => Status::Solved(self.trace()?),
        };

        // Every rank's counters, gathered everywhere.
        let mine = [
            self.stats.expanded,
            self.stats.generated,
            self.stats.duplicates,
            self.stats.reopened,
            self.stats.sent,
            self.stats.peak_open,
            self.nodes.len() as u64,
            self.stats.busy_seconds.to_bits(),
            seconds.to_bits(),
            self.bytes(),
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
                ..WorkerCounts::default()
            })
            .collect();
        let mut stats = summarize(&workers, seconds);
        stats.peak_bytes = all.chunks_exact(mine.len()).map(|c| c[9]).sum();
        stats.handoff_share = None;
        if matches!(status, Status::Solved(_)) {
            stats.termination_overhead = self
                .found_at
                .map(|at| ((seconds - at) / seconds.max(f64::MIN_POSITIVE)).max(0.0));
        }
        if self.transport.size == 1 {
            stats.communication_overhead = None;
            stats.load_balance = None;
            stats.worker_rates.clear();
        } else {
            stats.workers = workers;
        }
        Ok(Outcome { status, stats })
    }

    /// Follows the goal's parents from rank to rank: each node's owner
    /// broadcasts its packed state and its parent. Every rank calls this.
    fn trace(&mut self) -> Result<crate::Solution<D::State, D::Move>, Error> {
        let words = self.words;
        // The goal's rank: the least (cost, rank) of the last vote, which
        // every rank derives the same way.
        let mut holder = [self
            .best_goal
            .filter(|&(cost, _)| cost == self.incumbent)
            .map_or(u32::MAX, |_| self.transport.rank as u32)];
        let mut lowest = [0u32];
        self.transport.world.all_reduce_into(
            &holder[..],
            &mut lowest[..],
            mpi::collective::SystemOperation::min(),
        );
        holder = lowest;
        if holder[0] == u32::MAX {
            return Err(Error::Mpi("no rank holds the incumbent's goal".into()));
        }
        let mut at = (holder[0] as usize, self.best_goal.map(|(_, node)| node));
        let mut packed = Vec::new();
        let mut message = vec![0u32; 2 + words];
        loop {
            let (owner, node) = at;
            if owner >= self.transport.size {
                return Err(Error::Mpi(format!("a parent names rank {owner}")));
            }
            if owner == self.transport.rank {
                let node = node
                    .and_then(|n| self.nodes.get(n as usize))
                    .ok_or_else(|| Error::Mpi("a parent names a missing node".into()))?;
                let (parent_rank, parent_node) = if node.parent == NO_PARENT {
                    (u32::MAX, u32::MAX)
                } else {
                    ((node.parent >> 32) as u32, node.parent as u32)
                };
                message[0] = parent_rank;
                message[1] = parent_node;
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
            if message[0] == u32::MAX {
                break;
            }
            at = (message[0] as usize, Some(message[1]));
        }
        let mut states = packed
            .chunks_exact(words)
            .map(|w| self.domain.unpack(w))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::Mpi(format!("the path holds a bad state: {e}")))?;
        states.reverse();
        if states.first() != Some(&self.domain.start())
            || !states.last().is_some_and(|s| self.domain.is_goal(s))
        {
            return Err(Error::Mpi(
                "the traced path does not run from the start to a goal".into(),
            ));
        }
        let solution = replay(self.domain, states)
            .map_err(|step| Error::Mpi(format!("path step {step} is not a move")))?;
        if solution.cost != self.incumbent {
            return Err(Error::Mpi(format!(
                "the incumbent costs {}, its path {}",
                self.incumbent, solution.cost
            )));
        }
        Ok(solution)
    }
}
