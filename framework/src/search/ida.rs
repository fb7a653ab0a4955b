//! Parallel IDA* (Korf 1985) on threads: memory-bounded, so it runs where
//! best-first search runs out of memory (the 24-puzzle).
//!
//! The start is split into subtree roots by a best-first *tree* search
//! (no duplicate detection) until there are `roots_per_thread` roots a
//! thread; every iteration then searches each root depth first under one
//! f-bound, threads taking roots from a shared counter, which balances
//! subtrees of very different sizes; once the roots are taken, a thread
//! with nothing left takes the unsearched part of a busy thread's
//! shallowest level (see `search/donation.rs`), so that the threads end
//! the iteration together. The bound is raised to the smallest f
//! that exceeded it. The first goal found in an iteration is optimal with
//! an admissible heuristic (every solution cheaper than the bound was
//! excluded by the earlier iterations), so the search stops there.
//!
//! Transpositions are pruned only as Korf did: a child equal to its
//! grandparent (a move undone, a pancake flipped back) is not generated. It
//! needs nothing from the domain beyond `Eq` on states.
//!
//! With a checkpoint directory, the bound of every completed iteration is
//! written to a file named after the start state; a search stopped by a
//! limit (or killed) and started again resumes at that bound instead of
//! redoing the iterations below it. An iteration is itself searched in
//! segments of roots (in the split's order) of about `segment_seconds`
//! each, and the roots done are checkpointed after each segment, so an
//! iteration longer than any one run (a ten-minute command on a lent
//! machine) still ends, over several runs.

use std::collections::BinaryHeap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::domain::{Cost, Domain, Edge, Heuristic, InPlace, InPlaceHeuristic};
use crate::search::astar::OpenEntry;
use crate::search::donation::Pool;
use crate::search::move_pruning::{MovePruning, PRUNED};
use crate::search::{
    DomainOutcome, Limit, Outcome, Progress, SearchOptions, Solution, Status, CHECK_EVERY,
};
use crate::stats::{IterationCount, SearchStats};
use crate::Error;

/// Parameters of [`ida`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IdaConfig {
    /// Worker threads.
    pub threads: usize,
    /// Subtree roots per thread the start is split into: more balances
    /// better, at the price of a bigger tree search up front.
    pub roots_per_thread: usize,
    /// A directory for checkpoints (created if missing): each completed
    /// iteration's bound is kept there, and a search of the same start
    /// resumes from it. `None`: no checkpoints.
    pub checkpoint: Option<PathBuf>,
    /// With a checkpoint: seconds of search between checkpoints inside
    /// an iteration (roots are searched in segments of about this long;
    /// each segment's end waits for its last subtree, so shorter costs
    /// more). Without a checkpoint an iteration is one segment.
    pub segment_seconds: f64,
    /// What decides the answer besides the start state, as `key=value`
    /// lines (goal, heuristic and its parameters): a checkpoint written
    /// under other lines is refused, naming the first that differs. The
    /// runner fills it in; it is no setting of a config file.
    #[serde(skip)]
    pub context: String,
    /// Op sequences up to this many ops that reach a state some smaller
    /// sequence reaches are not searched
    /// ([`crate::search::move_pruning`]); 0: only the move that undoes the
    /// last one is left out. On the in-place path, for domains that
    /// describe their move contexts.
    #[serde(default)]
    pub move_pruning: usize,
    /// A beam of this width runs first (0: none), and its solution is the
    /// incumbent: IDA\* then searches only below its cost and stops once
    /// its bound reaches it, proving the beam's solution optimal without
    /// the last, largest iteration ([`crate::search::incumbent`]). Optima
    /// are unchanged.
    #[serde(default)]
    pub incumbent_beam: u64,
    /// The cost of a solution known beforehand: the search stops once its
    /// bound reaches it, with [`crate::Status::NoSolution`] (nothing
    /// cheaper). Set by [`crate::search::incumbent`]; no setting of a
    /// config file.
    #[serde(skip)]
    pub ceiling: Option<Cost>,
}

impl Default for IdaConfig {
    fn default() -> Self {
        IdaConfig {
            threads: std::thread::available_parallelism().map_or(2, usize::from),
            roots_per_thread: 64,
            checkpoint: None,
            segment_seconds: DEFAULT_SEGMENT_SECONDS,
            context: String::new(),
            move_pruning: 0,
            incumbent_beam: 0,
            ceiling: None,
        }
    }
}

/// Seconds between checkpoints inside an iteration, by default: short
/// beside a ten-minute run, long beside a segment's tail.
pub const DEFAULT_SEGMENT_SECONDS: f64 = 60.0;

/// What a checkpoint file holds: the next bound to search and the work
/// spent so far, so that the final statistics count every run. An
/// iteration cut short by a limit counts too (its nodes and seconds are
/// spent, and the resumed search repeats it): a resumed search's time and
/// node counts are what the whole solve cost.
///
/// A resumed bound skips every iteration below it, so it is trusted only
/// for the same question: the file names its format, the start state and
/// the context (goal, heuristic, parameters), and carries a checksum over
/// all of it. A file that differs in any of them is refused, never reused.
/// Threads and roots do not change the bound, only the split, which
/// [`Partial::split`] names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// The file format's version ([`CHECKPOINT_FORMAT`]).
    pub format: u32,
    /// The start state, as `Debug` prints it, to refuse a file that a hash
    /// collision or a renamed file pairs with another instance.
    pub start: String,
    /// What decides the answer besides the start (see
    /// [`IdaConfig::context`]).
    pub context: String,
    /// The bound of the next iteration: no solution costs less.
    pub bound: Cost,
    /// Iterations completed.
    pub iterations: u32,
    /// Expansions so far.
    pub expanded: u64,
    /// Successors generated so far.
    pub generated: u64,
    /// Seconds of search so far.
    pub seconds: f64,
    /// Progress inside the iteration at `bound`, if any was checkpointed.
    pub partial: Option<Partial>,
    /// FNV-1a (64 bits, hex) of the file's JSON with this field empty: an
    /// edited or damaged file fails it.
    pub checksum: String,
}

/// The version of the checkpoint format; files of another are refused.
pub const CHECKPOINT_FORMAT: u32 = 2;

/// The roots of an iteration searched to the end, in the split's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    /// A fingerprint of the split (its roots, their costs and order): a
    /// resumed search that splits the start otherwise (another `roots`
    /// setting, another version) starts the iteration again.
    pub split: u64,
    /// Roots searched to the end: the split's first `done`.
    pub done: u64,
    /// The smallest f above the bound among them (`None`: none yet).
    pub next: Option<Cost>,
}

/// FNV-1a over `bytes`: a checksum stable across builds and platforms
/// (the map hashers are not), for files a later version reads.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The first `key=value` line that differs between two contexts, as
/// `key: written A, now B` (a key missing on one side shows as `-`).
pub fn context_difference(written: &str, now: &str) -> Option<String> {
    let pairs = |text: &str| -> Vec<(String, String)> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| match l.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (l.trim().to_string(), String::new()),
            })
            .collect()
    };
    let (a, b) = (pairs(written), pairs(now));
    let find = |list: &[(String, String)], key: &str| {
        list.iter()
            .find(|(k, _)| k == key)
            .map_or("-".to_string(), |(_, v)| v.clone())
    };
    let mut keys: Vec<&String> = a.iter().chain(&b).map(|(k, _)| k).collect();
    keys.dedup();
    keys.into_iter().find_map(|key| {
        let (x, y) = (find(&a, key), find(&b, key));
        (x != y).then(|| format!("{key}: written {x}, now {y}"))
    })
}

impl Checkpoint {
    /// The start state's name in checkpoints (`start` and the file name):
    /// the domain's type and the state as `Debug` prints it.
    pub fn key<D: Domain>(domain: &D) -> String {
        format!("{}:{:?}", std::any::type_name::<D>(), domain.start())
    }

    /// The file in `dir` that holds the checkpoint of a search from `start`.
    pub fn path(dir: &Path, start: &str) -> PathBuf {
        dir.join(format!("ida-{:016x}.json", fnv1a(start.as_bytes())))
    }

    /// The checksum of a file's text: FNV-1a of the text with its
    /// checksum's value emptied. It is taken over the text as written, not
    /// over the fields parsed back: a float read back from JSON may differ
    /// from the one written in its last bit, and the file would then fail
    /// its own checksum. `None`: the text has no checksum field.
    fn sum_of(text: &str) -> Option<(String, String)> {
        // The field is serialised last; a quote inside a string value is
        // escaped, so this pattern is only ever the field itself.
        const FIELD: &str = "\"checksum\":\"";
        let at = text.rfind(FIELD)? + FIELD.len();
        let end = at + text[at..].find('"')?;
        let emptied = format!("{}{}", &text[..at], &text[end..]);
        Some((
            text[at..end].to_string(),
            format!("{:016x}", fnv1a(emptied.as_bytes())),
        ))
    }

    /// The checkpoint for `start` under `context` in `dir`, if one was
    /// written. A file that does not parse, is of another format, fails
    /// its checksum, or names another start or context is an error naming
    /// the difference, never ignored and never reused.
    pub fn load(dir: &Path, start: &str, context: &str) -> Result<Option<Checkpoint>, Error> {
        let path = Checkpoint::path(dir, start);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::Checkpoint(format!("{}: {e}", path.display()))),
        };
        let refuse = |why: String| {
            Err(Error::Checkpoint(format!(
                "{}: {why}; remove it or use another checkpoint directory",
                path.display()
            )))
        };
        let format = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("format")?.as_u64());
        if format != Some(u64::from(CHECKPOINT_FORMAT)) {
            return refuse(format!(
                "not a checkpoint of format {CHECKPOINT_FORMAT} (format {})",
                format.map_or("none".to_string(), |f| f.to_string())
            ));
        }
        let checkpoint: Checkpoint = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => return refuse(format!("does not parse ({e})")),
        };
        if Checkpoint::sum_of(&text).is_none_or(|(written, sum)| written != sum) {
            return refuse("its checksum does not match: the file was edited or damaged".into());
        }
        if checkpoint.start != start {
            return refuse(format!(
                "belongs to another start state ({})",
                checkpoint.start
            ));
        }
        if let Some(difference) = context_difference(&checkpoint.context, context) {
            return refuse(format!("written for another search ({difference})"));
        }
        Ok(Some(checkpoint))
    }

    /// Writes the checkpoint through a temporary file in the same
    /// directory, so that a search killed mid-write leaves the previous
    /// one; a failed write removes the temporary file.
    pub fn store(&self, dir: &Path) -> Result<(), Error> {
        let failed = |e: std::io::Error| Error::Checkpoint(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let path = Checkpoint::path(dir, &self.start);
        crate::files::write_atomic(&path, self.sealed().as_bytes()).map_err(failed)
    }

    /// The file's text: this checkpoint in the current format, with its
    /// checksum.
    pub fn sealed(&self) -> String {
        let open = Checkpoint {
            format: CHECKPOINT_FORMAT,
            checksum: String::new(),
            ..self.clone()
        };
        // Plain data with string keys: serialising cannot fail.
        let text = serde_json::to_string(&open).unwrap_or_default();
        match Checkpoint::sum_of(&text) {
            Some((_, sum)) => {
                text.replacen("\"checksum\":\"\"", &format!("\"checksum\":\"{sum}\""), 1)
            }
            None => text,
        }
    }
}

/// An advisory lock on a checkpoint directory (its `.lock` file), held
/// while a search may write there: a second search on the same directory
/// fails at once instead of racing on its files.
#[derive(Debug)]
pub struct DirLock(#[allow(dead_code)] std::fs::File);

impl DirLock {
    /// Takes the lock of `dir` (created if missing), or says who holds it.
    pub fn take(dir: &Path) -> Result<DirLock, Error> {
        let failed = |e: std::io::Error| Error::Checkpoint(format!("{}: {e}", dir.display()));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let file = crate::files::try_lock(&dir.join(".lock")).map_err(|e| match e {
            crate::files::LockError::Held => Error::Checkpoint(format!(
                "{}: another search is using this checkpoint directory; wait for it or use another",
                dir.display()
            )),
            crate::files::LockError::Io(e) => failed(e),
        })?;
        Ok(DirLock(file))
    }
}

/// A node of the splitting tree search; roots are its open leaves.
pub(crate) struct TreeNode<D: Domain> {
    pub(crate) state: D::State,
    mv: Option<D::Move>,
    parent: u32,
    pub(crate) g: Cost,
    pub(crate) h: Cost,
}

/// The tree above the roots, kept to replay a solution's first moves.
pub(crate) struct Split<D: Domain> {
    pub(crate) nodes: Vec<TreeNode<D>>,
    pub(crate) roots: Vec<u32>,
}

impl<D: Domain> Split<D> {
    /// The path from the start to node `at`: states (start first) and moves.
    pub(crate) fn path_to(&self, at: u32) -> (Vec<D::State>, Vec<D::Move>) {
        let (mut states, mut moves) = (Vec::new(), Vec::new());
        let mut at = at;
        loop {
            let node = &self.nodes[at as usize];
            states.push(node.state.clone());
            match &node.mv {
                Some(mv) => moves.push(mv.clone()),
                None => break,
            }
            at = node.parent;
        }
        states.reverse();
        moves.reverse();
        (states, moves)
    }

    /// A hash of the roots (states, costs, order), naming this split in
    /// checkpoints of progress inside an iteration.
    pub(crate) fn fingerprint(&self) -> u64 {
        let hasher = foldhash::fast::FixedState::with_seed(0x5E67_3A11);
        self.roots.iter().fold(self.roots.len() as u64, |key, &r| {
            let node = &self.nodes[r as usize];
            hasher.hash_one((key, &node.state, node.g, node.h))
        })
    }

    /// The state of `at`'s parent, which its children must not repeat.
    pub(crate) fn parent_state(&self, at: u32) -> Option<&D::State> {
        let node = &self.nodes[at as usize];
        node.mv
            .as_ref()
            .map(|_| &self.nodes[node.parent as usize].state)
    }
}

/// How the splitting ended: roots to search, or the answer already.
pub(crate) enum SplitEnd<D: Domain> {
    Roots(Split<D>),
    Goal(Split<D>, u32),
    NoSolution,
    Limit(Limit),
}

/// Nodes [`split`] expands together: one at a time (the order A* takes)
/// for the splits of CPU threads, and for the million roots of GPUs a
/// batch of the lowest f, whose children are made and bounded on every
/// core. Depends only on `target`, so a split is the same on any machine.
fn split_batch(target: usize) -> usize {
    if target < 1 << 16 {
        1
    } else {
        (target >> 8).min(4096)
    }
}

/// Below this many nodes a batch is expanded on the calling thread.
const PARALLEL_BATCH: usize = 256;

/// Split nodes expanded in order: per node how many children `expand`
/// made (all count as generated) and how many were kept (not the repeat
/// of its parent's parent); then the kept children, with their bounds.
type Bounded<D> = (
    Vec<(usize, usize)>,
    Vec<(Edge<<D as Domain>::State, <D as Domain>::Move>, Cost)>,
);

/// Best-first tree search from the start until `target` leaves are open;
/// a goal taken off the heap first is optimal (A* without a closed list).
/// Large splits expand batches of the lowest f at once ([`split_batch`]);
/// a goal is taken only as the first of its batch, where nothing open is
/// below it, so the guarantee holds.
pub(crate) fn split<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    target: usize,
    options: &SearchOptions,
    started: Instant,
    stats: &mut SearchStats,
) -> SplitEnd<D> {
    let start = domain.start();
    let h = heuristic.h(domain, &start);
    let mut nodes = vec![TreeNode::<D> {
        state: start,
        mv: None,
        parent: 0,
        g: 0,
        h,
    }];
    let mut open = BinaryHeap::from([OpenEntry {
        f: h,
        g: 0,
        node: 0u32,
    }]);
    let batch_size = split_batch(target);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut batch = Vec::with_capacity(batch_size);
    let mut checked = 0u64;
    while open.len() < target {
        batch.clear();
        while batch.len() < batch_size {
            let Some(entry) = open.pop() else {
                break;
            };
            if domain.is_goal(&nodes[entry.node as usize].state) {
                if batch.is_empty() {
                    return SplitEnd::Goal(
                        Split {
                            nodes,
                            roots: Vec::new(),
                        },
                        entry.node,
                    );
                }
                // Nodes of this batch may lead below it: it waits.
                open.push(entry);
                break;
            }
            batch.push(entry);
        }
        if batch.is_empty() {
            return SplitEnd::NoSolution;
        }
        // A space whose paths never branch (a corridor, a cycle) never
        // yields `target` roots: the limits stop that too.
        if stats.expanded >= checked {
            checked = stats.expanded + CHECK_EVERY;
            let seconds = started.elapsed().as_secs_f64();
            if let Some(limit) = options.limits.exceeded(stats.expanded, 0, seconds) {
                return SplitEnd::Limit(limit);
            }
        }
        // A part of the batch: each node's (made, kept) counts, and the
        // kept children with their bounds, in order, into one vector.
        let expand_part = |part: &[OpenEntry]| -> Bounded<D> {
            let mut counts = Vec::with_capacity(part.len());
            let mut kept = Vec::with_capacity(part.len() * 4);
            let mut children = Vec::new();
            for entry in part {
                let node = &nodes[entry.node as usize];
                children.clear();
                domain.expand(&node.state, &mut children);
                let grandparent = node.mv.as_ref().map(|_| &nodes[node.parent as usize].state);
                let (made, before) = (children.len(), kept.len());
                for edge in children.drain(..) {
                    if grandparent != Some(&edge.state) {
                        let h = heuristic.h_child(domain, &node.state, node.h, &edge.state);
                        kept.push((edge, h));
                    }
                }
                counts.push((made, kept.len() - before));
            }
            (counts, kept)
        };
        let parts: Vec<Bounded<D>> = if batch.len() < PARALLEL_BATCH || cores == 1 {
            vec![expand_part(&batch)]
        } else {
            let chunk = batch.len().div_ceil(cores);
            std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .map(|part| {
                        let expand_part = &expand_part;
                        scope.spawn(move || expand_part(part))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                    .collect()
            })
        };
        let mut entries = batch.iter();
        for (counts, kept) in parts {
            let mut kept = kept.into_iter();
            for (made, count) in counts {
                let Some(entry) = entries.next() else { break };
                stats.expanded += 1;
                stats.generated += made as u64;
                let g = nodes[entry.node as usize].g;
                for (edge, child_h) in kept.by_ref().take(count) {
                    let child_g = g.saturating_add(edge.cost);
                    let node = nodes.len() as u32;
                    nodes.push(TreeNode {
                        state: edge.state,
                        mv: Some(edge.mv),
                        parent: entry.node,
                        g: child_g,
                        h: child_h,
                    });
                    open.push(OpenEntry {
                        f: child_g.saturating_add(child_h),
                        g: child_g,
                        node,
                    });
                }
            }
        }
    }
    tracing::debug!(
        nodes = nodes.len(),
        batch = batch_size,
        seconds = started.elapsed().as_secs_f64(),
        "IDA* split done"
    );
    // Lowest f first: the roots most likely to hold the goal are searched
    // first in every iteration. The entries' order is total (the node
    // breaks ties), so an unstable sort, faster than the heap's own on a
    // million roots, gives the same order.
    let mut roots: Vec<OpenEntry> = open.into_vec();
    roots.sort_unstable_by(|a, b| b.cmp(a));
    SplitEnd::Roots(Split {
        nodes,
        roots: roots.into_iter().map(|e| e.node).collect(),
    })
}

/// A path found below a root: the (state, move) pairs after the root, and
/// the solution's total cost.
type Found<D> = (Vec<(<D as Domain>::State, <D as Domain>::Move)>, Cost);

/// A level of a worker's depth-first stack.
struct Frame<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    g: Cost,
    h: Cost,
    children: Vec<Edge<D::State, D::Move>>,
    next: usize,
}

/// What the threads share during one iteration; `T` is a piece of a
/// subtree handed from a busy thread to an idle one.
struct Shared<D: Domain, T> {
    next_root: AtomicUsize,
    /// The segment's end: its last root at first, lowered to the roots
    /// already taken once the segment's time is up (see
    /// [`Segments::close_at`]). Every root below its final value was
    /// taken by a worker that saw a value above that root, so it was
    /// searched; a root at or above it may have been searched too, and is
    /// searched again next segment.
    segment_end: AtomicUsize,
    /// Donated work for the iteration's tail, once `next_root` is past the
    /// last root.
    pool: Pool<T>,
    stop: AtomicBool,
    expanded: AtomicU64,
    generated: AtomicU64,
    /// The smallest f above the bound seen by any thread.
    next_bound: AtomicU64,
    /// A goal: the root it was found under and the path below that root.
    found: Mutex<Option<(u32, Found<D>)>>,
    /// Workers that finished the iteration.
    finished: AtomicUsize,
    /// The thread that watches the iteration ([`watch_iteration`]): a
    /// worker that finishes wakes it, so that a short iteration does not
    /// wait out the watcher's sleep.
    watcher: std::thread::Thread,
}

/// What a worker counts, published to [`Shared`] in blocks.
struct Counters {
    expanded: u64,
    generated: u64,
    /// The smallest f above the bound this worker has seen.
    next_bound: Cost,
    max_expanded: Option<u64>,
}

impl Counters {
    fn new(options: &SearchOptions) -> Counters {
        Counters {
            expanded: 0,
            generated: 0,
            next_bound: Cost::MAX,
            max_expanded: options.limits.max_expanded,
        }
    }

    /// Publishes expansions in blocks of [`CHECK_EVERY`] and says whether
    /// the iteration must stop (a goal found elsewhere, a limit reached).
    #[inline]
    fn account<D: Domain, T>(&self, shared: &Shared<D, T>) -> bool {
        if self.expanded & (CHECK_EVERY - 1) != 0 {
            return false;
        }
        let total = shared.expanded.fetch_add(CHECK_EVERY, Ordering::Relaxed) + CHECK_EVERY;
        if self.max_expanded.is_some_and(|m| total >= m) {
            shared.stop.store(true, Ordering::Relaxed);
        }
        shared.stop.load(Ordering::Relaxed)
    }

    /// Whether to donate now: a thread waits for work, read at the same
    /// block boundaries as [`Counters::account`].
    #[inline]
    fn donate_now<D: Domain, T>(&self, shared: &Shared<D, T>) -> bool {
        self.expanded & (CHECK_EVERY - 1) == 0 && shared.pool.wanted()
    }
}

/// The shallowest level a donor gives from lies at least this many levels
/// above the node it is expanding: nearer the bottom, a piece's subtrees
/// are too small to be worth handing over.
const DONATE_ABOVE: usize = 2;

/// The level a thread at `depth` donates from: the shallowest at least
/// [`DONATE_ABOVE`] above it that still has unsearched work (`open`).
fn donor_level(depth: usize, open: impl Fn(usize) -> bool) -> Option<usize> {
    (0..=depth.checked_sub(DONATE_ABOVE)?).find(|&at| open(at))
}

/// One thread's depth-first search below one root at a time: through
/// [`Domain::expand`] ([`Worker`]) or moves applied in place
/// ([`InPlaceWorker`]). The iterations, segments, checkpoints and threads
/// around it are the same ([`drive`]).
trait RootSearch<D: Domain> {
    /// The unsearched part of one level of this thread's stack, handed to
    /// another thread ([`Pool`]).
    type Piece: Send;
    /// Searches below `root` (split node `index`, whose parent is
    /// `parent`) under `bound`; the moves and states from the root to a
    /// goal, or `None`. `automaton`: the move-pruning automaton's state at
    /// the root, from the path above it (unused without move pruning).
    fn search(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        parent: Option<&D::State>,
        bound: Cost,
        shared: &Shared<D, Self::Piece>,
        automaton: u32,
    ) -> Option<Found<D>>;
    /// Searches `piece`, donated from below `root` (split node `index`),
    /// under `bound`; as [`RootSearch::search`].
    fn resume(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        piece: Self::Piece,
        bound: Cost,
        shared: &Shared<D, Self::Piece>,
    ) -> Option<Found<D>>;
    /// What it counted.
    fn counters(&self) -> &Counters;
}

/// A root that needs no search below it: `Some(None)` for one above the
/// bound (its f noted for the next), `Some(Some(..))` for a goal.
fn settle_root<D: Domain>(
    domain: &D,
    root: &TreeNode<D>,
    bound: Cost,
    counters: &mut Counters,
) -> Option<Option<Found<D>>> {
    let f = root.g.saturating_add(root.h);
    if f > bound {
        counters.next_bound = counters.next_bound.min(f);
        return Some(None);
    }
    domain
        .is_goal(&root.state)
        .then(|| Some((Vec::new(), root.g)))
}

/// One thread's depth-first search state, reused across roots.
struct Worker<'a, D: Domain, H: Heuristic<D>> {
    domain: &'a D,
    heuristic: &'a H,
    frames: Vec<Frame<D>>,
    /// The states and moves from the subtree root to frame 0 (empty when
    /// frame 0 is the root; a donated piece's path otherwise).
    prefix: Vec<(D::State, D::Move)>,
    counters: Counters,
}

/// A [`Worker`]'s donated piece: a frame's state with the children it had
/// not searched yet, and the path to it from its subtree root.
struct Piece<D: Domain> {
    path: Vec<(D::State, D::Move)>,
    state: D::State,
    g: Cost,
    h: Cost,
    children: Vec<Edge<D::State, D::Move>>,
}

impl<D: Domain, H: Heuristic<D>> RootSearch<D> for Worker<'_, D, H> {
    type Piece = Piece<D>;

    fn counters(&self) -> &Counters {
        &self.counters
    }

    fn search(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        parent: Option<&D::State>,
        bound: Cost,
        shared: &Shared<D, Piece<D>>,
        _automaton: u32,
    ) -> Option<Found<D>> {
        if let Some(settled) = settle_root(self.domain, root, bound, &mut self.counters) {
            return settled;
        }
        let first = self.first_frame(&root.state);
        first.g = root.g;
        first.h = root.h;
        self.prefix.clear();
        self.expand_frame(0, parent);
        if self.counters.account(shared) {
            return None;
        }
        self.descend(index, bound, shared)
    }

    fn resume(
        &mut self,
        index: u32,
        _root: &TreeNode<D>,
        piece: Piece<D>,
        bound: Cost,
        shared: &Shared<D, Piece<D>>,
    ) -> Option<Found<D>> {
        let first = self.first_frame(&piece.state);
        first.g = piece.g;
        first.h = piece.h;
        first.children = piece.children;
        first.next = 0;
        self.prefix = piece.path;
        self.descend(index, bound, shared)
    }
}

impl<D: Domain, H: Heuristic<D>> Worker<'_, D, H> {
    /// Frame 0, holding `state`.
    fn first_frame(&mut self, state: &D::State) -> &mut Frame<D> {
        if self.frames.is_empty() {
            self.frames.push(Frame {
                state: state.clone(),
                mv: None,
                g: 0,
                h: 0,
                children: Vec::new(),
                next: 0,
            });
        }
        let first = &mut self.frames[0];
        first.state.clone_from(state);
        first
    }

    /// The depth-first search below frame 0, whose children are generated.
    fn descend(
        &mut self,
        index: u32,
        bound: Cost,
        shared: &Shared<D, Piece<D>>,
    ) -> Option<Found<D>> {
        let mut depth = 0;
        loop {
            let frame = &mut self.frames[depth];
            let i = frame.next;
            if i == frame.children.len() {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
                continue;
            }
            frame.next += 1;
            self.counters.generated += 1;
            let (below, above) = self.frames.split_at_mut(depth + 1);
            let frame = &below[depth];
            let edge = &frame.children[i];
            let g = frame.g.saturating_add(edge.cost);
            let h = self
                .heuristic
                .h_child(self.domain, &frame.state, frame.h, &edge.state);
            let f = g.saturating_add(h);
            if f > bound {
                self.counters.next_bound = self.counters.next_bound.min(f);
                continue;
            }
            if self.domain.is_goal(&edge.state) {
                let mut path = Self::path_through(&self.prefix, &below[1..]);
                path.push((edge.state.clone(), edge.mv.clone()));
                return Some((path, g));
            }
            match above.first_mut() {
                Some(slot) => {
                    slot.state.clone_from(&edge.state);
                    slot.mv = Some(edge.mv.clone());
                    slot.g = g;
                    slot.h = h;
                }
                None => {
                    let child = Frame {
                        state: edge.state.clone(),
                        mv: Some(edge.mv.clone()),
                        g,
                        h,
                        children: Vec::new(),
                        next: 0,
                    };
                    self.frames.push(child);
                }
            }
            depth += 1;
            self.expand_frame(depth, None);
            if self.counters.account(shared) {
                return None;
            }
            if self.counters.donate_now(shared) {
                self.donate(index, depth, shared);
            }
        }
    }

    /// Hands the unsearched children of the shallowest frame at least
    /// [`DONATE_ABOVE`] above `depth` to a waiting thread, if it has any.
    fn donate(&mut self, index: u32, depth: usize, shared: &Shared<D, Piece<D>>) {
        let frames = &mut self.frames;
        let Some(at) = donor_level(depth, |at| frames[at].next < frames[at].children.len()) else {
            return;
        };
        let frame = &mut self.frames[at];
        let children = frame.children.split_off(frame.next);
        let path = Self::path_through(&self.prefix, &self.frames[1..=at]);
        let frame = &self.frames[at];
        let piece = Piece {
            path,
            state: frame.state.clone(),
            g: frame.g,
            h: frame.h,
            children,
        };
        shared.pool.give(index, piece);
    }

    /// The states and moves from the subtree root through `frames` (frames
    /// above frame 0, in order), after `prefix` (the way to frame 0).
    fn path_through(
        prefix: &[(D::State, D::Move)],
        frames: &[Frame<D>],
    ) -> Vec<(D::State, D::Move)> {
        let mut path = prefix.to_vec();
        // Frames above frame 0 always hold the move that made them.
        path.extend(
            frames
                .iter()
                .filter_map(|f| Some((f.state.clone(), f.mv.clone()?))),
        );
        path
    }

    /// Generates the children of frame `depth`, leaving out the state of
    /// its parent: the frame below, or `root_parent` for the root.
    fn expand_frame(&mut self, depth: usize, root_parent: Option<&D::State>) {
        let (before, rest) = self.frames.split_at_mut(depth);
        let frame = &mut rest[0];
        let parent = before.last().map(|f| &f.state).or(root_parent);
        frame.children.clear();
        frame.next = 0;
        self.domain.expand(&frame.state, &mut frame.children);
        if let Some(parent) = parent {
            frame.children.retain(|edge| edge.state != *parent);
        }
        self.counters.expanded += 1;
    }
}

/// A level of the in-place search: the ops of its state, the op that
/// reached it, its g, h and heuristic detail.
struct Level<D: InPlace, H: InPlaceHeuristic<D>> {
    ops: Vec<D::Op>,
    next: usize,
    op_in: Option<D::Op>,
    g: Cost,
    h: Cost,
    detail: H::Detail,
    /// The move-pruning automaton's state here (0 without pruning).
    automaton: u32,
}

impl<D: InPlace, H: InPlaceHeuristic<D>> Level<D, H> {
    fn new() -> Self {
        Level {
            ops: Vec::new(),
            next: 0,
            op_in: None,
            g: 0,
            h: 0,
            detail: H::Detail::default(),
            automaton: 0,
        }
    }
}

/// One thread's in-place depth-first search: one state, moved by
/// [`InPlace::apply`] and [`InPlace::undo`]; levels reused across roots.
struct InPlaceWorker<'a, D: InPlace, H: InPlaceHeuristic<D>> {
    domain: &'a D,
    heuristic: &'a H,
    pruning: Option<&'a MovePruning>,
    state: Option<D::State>,
    levels: Vec<Level<D, H>>,
    /// The ops from the subtree root to level 0 (empty when level 0 is
    /// the root; a donated piece's path otherwise).
    prefix: Vec<D::Op>,
    counters: Counters,
}

/// An [`InPlaceWorker`]'s donated piece: a level's unsearched ops, its g,
/// h, detail and automaton state, and the ops that reach it from its
/// subtree root.
struct InPlacePiece<D: InPlace, H: InPlaceHeuristic<D>> {
    path: Vec<D::Op>,
    ops: Vec<D::Op>,
    g: Cost,
    h: Cost,
    detail: H::Detail,
    automaton: u32,
}

impl<D: InPlace, H: InPlaceHeuristic<D>> RootSearch<D> for InPlaceWorker<'_, D, H> {
    type Piece = InPlacePiece<D, H>;

    fn counters(&self) -> &Counters {
        &self.counters
    }

    fn search(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        parent: Option<&D::State>,
        bound: Cost,
        shared: &Shared<D, Self::Piece>,
        automaton: u32,
    ) -> Option<Found<D>> {
        if let Some(settled) = settle_root(self.domain, root, bound, &mut self.counters) {
            return settled;
        }
        let (domain, heuristic) = (self.domain, self.heuristic);
        let (state, first) = self.restart(&root.state);
        first.g = root.g;
        first.op_in = None;
        first.next = 0;
        first.h = heuristic.root(domain, state, &mut first.detail);
        first.automaton = automaton;
        first.ops.clear();
        domain.ops(state, None, &mut first.ops);
        // Below the root, `ops` leaves out the op that undoes the last one;
        // at a root the parent is a state, as `expand`'s path leaves it out.
        if let Some(parent) = parent {
            first.ops.retain(|&op| {
                domain.apply(state, op);
                let back = state == parent;
                domain.undo(state, op);
                !back
            });
        }
        self.prefix.clear();
        self.counters.expanded += 1;
        if self.counters.account(shared) {
            return None;
        }
        self.descend(index, root, bound, shared)
    }

    fn resume(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        piece: Self::Piece,
        bound: Cost,
        shared: &Shared<D, Self::Piece>,
    ) -> Option<Found<D>> {
        let domain = self.domain;
        let (state, first) = self.restart(&root.state);
        for &op in &piece.path {
            domain.apply(state, op);
        }
        first.ops = piece.ops;
        first.next = 0;
        first.op_in = None;
        first.g = piece.g;
        first.h = piece.h;
        first.detail = piece.detail;
        first.automaton = piece.automaton;
        self.prefix = piece.path;
        self.descend(index, root, bound, shared)
    }
}

impl<D: InPlace, H: InPlaceHeuristic<D>> InPlaceWorker<'_, D, H> {
    /// The state, set to `root`, and level 0 (for the caller to fill in).
    fn restart(&mut self, root: &D::State) -> (&mut D::State, &mut Level<D, H>) {
        let state = self.state.get_or_insert_with(|| root.clone());
        state.clone_from(root);
        if self.levels.is_empty() {
            self.levels.push(Level::new());
        }
        (state, &mut self.levels[0])
    }

    /// The ops from the subtree root through `levels` (levels above level
    /// 0, in order), after `prefix` (the way to level 0).
    fn ops_through<'l>(
        prefix: &'l [D::Op],
        levels: &'l [Level<D, H>],
    ) -> impl Iterator<Item = D::Op> + 'l {
        prefix
            .iter()
            .copied()
            .chain(levels.iter().filter_map(|l| l.op_in))
    }

    /// The depth-first search below level 0, whose ops are listed and
    /// whose state is `self.state`.
    fn descend(
        &mut self,
        index: u32,
        root: &TreeNode<D>,
        bound: Cost,
        shared: &Shared<D, InPlacePiece<D, H>>,
    ) -> Option<Found<D>> {
        let (domain, heuristic) = (self.domain, self.heuristic);
        // Set by both callers before they descend.
        let state = self.state.as_mut()?;
        let mut depth = 0;
        loop {
            let level = &mut self.levels[depth];
            if level.next == level.ops.len() {
                match level.op_in {
                    Some(op) => domain.undo(state, op),
                    None => return None,
                }
                depth -= 1;
                continue;
            }
            let op = level.ops[level.next];
            level.next += 1;
            let automaton = match self.pruning {
                Some(pruning) => match pruning.step(level.automaton, domain.op_index(op)) {
                    Some(next) => next,
                    None => continue,
                },
                None => 0,
            };
            self.counters.generated += 1;
            let cost = domain.apply(state, op);
            if self.levels.len() == depth + 1 {
                self.levels.push(Level::new());
            }
            let (below, above) = self.levels.split_at_mut(depth + 1);
            let (level, child) = (&below[depth], &mut above[0]);
            let g = level.g.saturating_add(cost);
            // A bound at or above `cap` leaves this child pruned and the
            // next bound as it is, whatever its exact value: `next_bound`
            // only ever holds an f above `bound` (each iteration's workers
            // start from `Counters::new`), so an inexact bound prunes.
            debug_assert!(self.counters.next_bound > bound);
            let cap = self.counters.next_bound.saturating_sub(g);
            let h = heuristic.after_below(
                domain,
                state,
                op,
                &level.detail,
                level.h,
                &mut child.detail,
                cap,
            );
            let f = g.saturating_add(h);
            if f > bound {
                self.counters.next_bound = self.counters.next_bound.min(f);
                domain.undo(state, op);
                continue;
            }
            if domain.is_goal(state) {
                // The path from the root, replayed: the ops to level 0, the
                // ops of the levels above it, then this one.
                let ops = Self::ops_through(&self.prefix, &below[1..]).chain([op]);
                let mut at = root.state.clone();
                let path = ops
                    .map(|op| {
                        domain.apply(&mut at, op);
                        (at.clone(), domain.move_of(op))
                    })
                    .collect();
                return Some((path, g));
            }
            child.op_in = Some(op);
            child.g = g;
            child.h = h;
            child.automaton = automaton;
            child.next = 0;
            child.ops.clear();
            domain.ops(state, Some(op), &mut child.ops);
            depth += 1;
            self.counters.expanded += 1;
            if self.counters.account(shared) {
                return None;
            }
            if self.counters.donate_now(shared) {
                Self::donate(&mut self.levels, &self.prefix, index, depth, shared);
            }
        }
    }

    /// Hands the unsearched ops of the shallowest of `levels` at least
    /// [`DONATE_ABOVE`] above `depth` to a waiting thread, if it has any;
    /// `prefix` reaches level 0 from root `index`.
    fn donate(
        levels: &mut [Level<D, H>],
        prefix: &[D::Op],
        index: u32,
        depth: usize,
        shared: &Shared<D, InPlacePiece<D, H>>,
    ) {
        let Some(at) = donor_level(depth, |at| levels[at].next < levels[at].ops.len()) else {
            return;
        };
        let path = Self::ops_through(prefix, &levels[1..=at]).collect();
        let level = &mut levels[at];
        let piece = InPlacePiece {
            path,
            ops: level.ops.split_off(level.next),
            g: level.g,
            h: level.h,
            detail: level.detail.clone(),
            automaton: level.automaton,
        };
        shared.pool.give(index, piece);
    }
}

/// Runs parallel IDA* from `domain.start()`; see the module docs.
///
/// With an admissible heuristic the returned solution is optimal, whether
/// or not the heuristic is consistent.
///
/// ```
/// use frontier_core::{grid::{Grid, Manhattan}, search::ida::{ida, IdaConfig}, SearchOptions, Status};
/// let maze = Grid::parse("S.#.\n..#G\n....").unwrap();
/// let config = IdaConfig { threads: 2, ..IdaConfig::default() };
/// let outcome = ida(&maze, &Manhattan, &config, &SearchOptions::default()).unwrap();
/// let Status::Solved(solution) = outcome.status else { panic!("maze is solvable") };
/// assert_eq!(solution.cost, 6);
/// ```
pub fn ida<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    config: &IdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error> {
    options.order.only_optimal("ida")?;
    if config.move_pruning > 0 {
        return Err(Error::BadConfig(
            "move pruning runs on the in-place path (ida_in_place): this domain's ida \
             goes through expand"
                .into(),
        ));
    }
    drive(domain, heuristic, config, options, None, || Worker {
        domain,
        heuristic,
        frames: Vec::new(),
        prefix: Vec::new(),
        counters: Counters::new(options),
    })
}

/// [`ida`] with moves applied to one state in place and undone, the
/// heuristic updated from the parent's detail ([`InPlace`],
/// [`InPlaceHeuristic`]): no state cloned and nothing allocated per node.
/// The same tree as [`ida`] (the domain's ops are its `expand`'s moves, in
/// order), the same node counts, checkpoints, threads and limits.
///
/// ```
/// use frontier_core::{grid::{Grid, Manhattan}, search::ida::{ida_in_place, IdaConfig}, SearchOptions};
/// let maze = Grid::parse("S.#.\n..#G\n....").unwrap();
/// let config = IdaConfig { threads: 2, ..IdaConfig::default() };
/// let outcome = ida_in_place(&maze, &Manhattan, &config, &SearchOptions::default())?;
/// assert_eq!(outcome.solution().map(|s| s.cost), Some(6));
/// # Ok::<(), frontier_core::Error>(())
/// ```
pub fn ida_in_place<D: InPlace, H: InPlaceHeuristic<D>>(
    domain: &D,
    heuristic: &H,
    config: &IdaConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error> {
    options.order.only_optimal("ida")?;
    let pruning = match config.move_pruning {
        0 => None,
        depth => Some(MovePruning::shared(domain, depth)?),
    };
    let at_roots = |split: &Split<D>| match &pruning {
        Some(p) => split_automaton(domain, p, split),
        None => Vec::new(),
    };
    drive(domain, heuristic, config, options, Some(&at_roots), || {
        InPlaceWorker {
            domain,
            heuristic,
            pruning: pruning.as_deref(),
            state: None,
            levels: Vec::new(),
            prefix: Vec::new(),
            counters: Counters::new(options),
        }
    })
}

/// The move-pruning automaton's state at every node of `split` (by
/// index), stepped along the ops from the start; [`PRUNED`] for a node
/// whose path holds a redundant sequence. Such a root need not be searched:
/// the split is a tree of every path (no duplicates dropped), so the
/// smallest path to a goal, which holds no redundant sequence
/// ([`crate::search::move_pruning`]), goes through a root that is not
/// pruned.
pub(crate) fn split_automaton<D: InPlace>(
    domain: &D,
    pruning: &MovePruning,
    split: &Split<D>,
) -> Vec<u32> {
    let mut states = Vec::with_capacity(split.nodes.len());
    for node in &split.nodes {
        let at = match node.mv {
            None => pruning.start(domain.context(&node.state)),
            // Nodes come after their parents.
            Some(_) => match states.get(node.parent as usize) {
                Some(&from) if from != PRUNED => {
                    let parent = &split.nodes[node.parent as usize].state;
                    // An edge no op makes (a domain whose `expand` and
                    // `ops` disagree) prunes nothing below it.
                    match domain.op_between(parent, &node.state) {
                        Some(op) => pruning.step(from, domain.op_index(op)).unwrap_or(PRUNED),
                        None => pruning.start(domain.context(&node.state)),
                    }
                }
                _ => PRUNED,
            },
        };
        states.push(at);
    }
    states
}

/// The move-pruning automaton's state at each node of a split, by index
/// ([`split_automaton`]); empty without move pruning.
type AtRoots<'a, D> = &'a (dyn Fn(&Split<D>) -> Vec<u32> + Sync);

/// IDA*'s iterations, segments, checkpoints and threads around one
/// [`RootSearch`] per thread, made by `worker`; with `at_roots`, roots
/// whose path move pruning prunes are skipped, and the others start in
/// their automaton state.
fn drive<D, H, W, F>(
    domain: &D,
    heuristic: &H,
    config: &IdaConfig,
    options: &SearchOptions,
    at_roots: Option<AtRoots<'_, D>>,
    worker: F,
) -> Result<DomainOutcome<D>, Error>
where
    D: Domain,
    H: Heuristic<D>,
    W: RootSearch<D>,
    F: Fn() -> W + Sync,
{
    let started = Instant::now();
    let threads = crate::check_threads("ida", config.threads)?;
    let target = threads.saturating_mul(config.roots_per_thread.max(1));
    let begun = begin(
        domain,
        heuristic,
        config.checkpoint.as_deref(),
        &config.context,
        config.ceiling,
        target,
        options,
        started,
    );
    let (split, mut iterations, mut stats) = match begun? {
        Begun::Search(split, iterations, stats) => (split, iterations, stats),
        Begun::Done(outcome) => return Ok(outcome),
    };
    let roots = split.roots.len();
    let automata = at_roots.map(|f| f(&split)).unwrap_or_default();
    let mut segments = Segments::new(config.checkpoint.is_some(), config.segment_seconds, roots);
    let mut worker_expanded = vec![0u64; threads];
    let mut donations = 0u64;
    let mut iteration_started = Instant::now();
    let status = loop {
        if iterations.reached_ceiling() {
            break Status::NoSolution;
        }
        let bound = iterations.bound;
        let from = iterations.done;
        let end = segments.end(from, roots);
        let shared = Shared::<D, W::Piece> {
            next_root: AtomicUsize::new(from),
            segment_end: AtomicUsize::new(end),
            pool: Pool::new(threads),
            stop: AtomicBool::new(false),
            expanded: AtomicU64::new(stats.expanded),
            generated: AtomicU64::new(0),
            next_bound: AtomicU64::new(u64::from(Cost::MAX)),
            found: Mutex::new(None),
            finished: AtomicUsize::new(0),
            watcher: std::thread::current(),
        };
        let segment_started = Instant::now();
        // Under a resumed or raised bound the first roots can take minutes
        // each, so a segment sized by its root count alone can outlast a
        // whole run: it closes at its target time instead, or before the
        // run's time limit.
        let close_at = segments.close_at(segment_started, started, options.limits.max_seconds);
        let mut limit = None;
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let (shared, segment) = (&shared, &split.roots[..end]);
                    let (split, make, automata) = (&split, &worker, &automata);
                    scope.spawn(move || {
                        let mut worker = make();
                        let report = |root: u32, found: Option<Found<D>>| {
                            if let Some(found) = found {
                                shared.stop.store(true, Ordering::Relaxed);
                                // A poisoned lock means another worker
                                // panicked; its panic is re-raised at join.
                                if let Ok(mut slot) = shared.found.lock() {
                                    slot.get_or_insert((root, found));
                                }
                            }
                        };
                        while !shared.stop.load(Ordering::Relaxed) {
                            if close_at.is_some_and(|t| Instant::now() >= t) {
                                // At least one root per segment, so that
                                // segments progress.
                                let taken = shared.next_root.load(Ordering::Relaxed).max(from + 1);
                                shared.segment_end.fetch_min(taken, Ordering::Relaxed);
                            }
                            let i = shared.next_root.fetch_add(1, Ordering::Relaxed);
                            if i >= shared.segment_end.load(Ordering::Relaxed) {
                                break;
                            }
                            let Some(&root) = segment.get(i) else {
                                break;
                            };
                            let node = &split.nodes[root as usize];
                            let parent = split.parent_state(root);
                            let automaton = automata.get(root as usize).copied().unwrap_or(0);
                            if automaton == PRUNED {
                                continue;
                            }
                            report(
                                root,
                                worker.search(root, node, parent, bound, shared, automaton),
                            );
                        }
                        // The roots are taken: help the threads still busy.
                        let stop = || shared.stop.load(Ordering::Relaxed);
                        while let Some((root, piece)) = shared.pool.wait(stop) {
                            let node = &split.nodes[root as usize];
                            report(root, worker.resume(root, node, piece, bound, shared));
                        }
                        let counted = worker.counters();
                        shared
                            .expanded
                            .fetch_add(counted.expanded & (CHECK_EVERY - 1), Ordering::Relaxed);
                        shared
                            .generated
                            .fetch_add(counted.generated, Ordering::Relaxed);
                        shared
                            .next_bound
                            .fetch_min(u64::from(counted.next_bound), Ordering::Relaxed);
                        shared.finished.fetch_add(1, Ordering::Release);
                        shared.watcher.unpark();
                        counted.expanded
                    })
                })
                .collect();
            limit = watch_iteration(
                started,
                options,
                bound,
                || shared.expanded.load(Ordering::Relaxed),
                || roots.saturating_sub(shared.next_root.load(Ordering::Relaxed)) as u64,
                || shared.finished.load(Ordering::Acquire) >= threads,
                &shared.stop,
            );
            for (i, handle) in handles.into_iter().enumerate() {
                match handle.join() {
                    Ok(expanded) => worker_expanded[i] += expanded,
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        stats.expanded = shared.expanded.load(Ordering::Relaxed);
        stats.generated += shared.generated.load(Ordering::Relaxed);
        donations += shared.pool.given() as u64;
        // The workers are joined: every store is visible.
        let end = shared.segment_end.load(Ordering::Relaxed).min(end);
        let found = shared.found.into_inner().ok().flatten();
        if let Some((root, (below, cost))) = found {
            let (mut states, mut moves) = split.path_to(root);
            for (state, mv) in below {
                states.push(state);
                moves.push(mv);
            }
            break Status::Solved(Solution {
                cost,
                states,
                moves,
            });
        }
        // The expansion limit is checked by the workers, the others here.
        let limit = limit.or_else(|| {
            shared
                .stop
                .load(Ordering::Relaxed)
                .then_some(Limit::Expansions)
        });
        if let Some(limit) = limit {
            iterations.interrupted(&mut stats, started)?;
            break Status::LimitReached(limit);
        }
        segments.measured(end - from, segment_started.elapsed().as_secs_f64());
        let segment_next = shared
            .next_bound
            .load(Ordering::Relaxed)
            .min(u64::from(Cost::MAX)) as Cost;
        let Some(next) = iterations.segment_done(end, roots, segment_next, &stats, started)? else {
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
            donations,
            "IDA* iteration done"
        );
        iterations.completed(next, &stats, started)?;
        segments.raised();
        iteration_started = Instant::now();
    };
    iterations.finish(&mut stats, started, &worker_expanded);
    stats.donations = (threads > 1).then_some(donations);
    Ok(Outcome { status, stats })
}

/// The bounds of one search and its checkpoint file, kept the same way by
/// the CPU and GPU executors.
pub(crate) struct Iterations {
    /// The bound of the next iteration.
    pub(crate) bound: Cost,
    start_key: String,
    context: String,
    checkpoint: Option<PathBuf>,
    /// Held while this search may write its checkpoint.
    _lock: Option<DirLock>,
    completed: u32,
    earlier_seconds: f64,
    /// The split's fingerprint, for [`Partial::split`].
    split: u64,
    /// Roots of the current iteration searched to the end (a prefix of
    /// the split's order).
    pub(crate) done: usize,
    /// The smallest f above the bound among those roots.
    next: Cost,
    /// Expanded and generated counts when the current iteration began in
    /// this run, for [`SearchStats::iterations`].
    began: (u64, u64),
    trace: Vec<IterationCount>,
    /// The cost of a solution known beforehand (`Cost::MAX`: none): once
    /// the bound reaches it, nothing cheaper exists.
    ceiling: Cost,
}

impl Iterations {
    /// Whether the bound has reached the ceiling: every iteration below
    /// it ended without a goal, so no solution costs less than the
    /// ceiling, and the known one of that cost is optimal.
    pub(crate) fn reached_ceiling(&self) -> bool {
        self.bound >= self.ceiling
    }

    /// Records an iteration that ended without a goal, its smallest f above
    /// the bound being `next`, in the checkpoint (if any); returns the next
    /// bound.
    pub(crate) fn completed(
        &mut self,
        next: Cost,
        stats: &SearchStats,
        started: Instant,
    ) -> Result<Cost, Error> {
        self.completed += 1;
        self.trace.push(IterationCount {
            bound: self.bound,
            expanded: stats.expanded - self.began.0,
            generated: stats.generated - self.began.1,
        });
        self.began = (stats.expanded, stats.generated);
        self.bound = next;
        self.done = 0;
        self.next = Cost::MAX;
        self.store(stats, started)?;
        Ok(next)
    }

    /// Records a segment of the iteration that ended without a goal: the
    /// roots up to `end` are done, and `next` is the smallest f above the
    /// bound among the segment's. Returns the smallest such f over the
    /// whole iteration once `end` is the last root (`Cost::MAX` if no f
    /// exceeded the bound: nothing is left to search); before that,
    /// checkpoints the progress and returns `None`.
    pub(crate) fn segment_done(
        &mut self,
        end: usize,
        roots: usize,
        next: Cost,
        stats: &SearchStats,
        started: Instant,
    ) -> Result<Option<Cost>, Error> {
        self.done = end;
        self.next = self.next.min(next);
        if end >= roots {
            return Ok(Some(self.next));
        }
        self.store(stats, started)?;
        Ok(None)
    }

    /// Records a search stopped by a limit inside the iteration at
    /// `self.bound`: the next run starts that iteration again, and the
    /// work of this one is counted in the totals. The bound is what the
    /// run proved: every iteration below it ended without a goal, and each
    /// iteration's bound is the least f that exceeded the one before (or
    /// the roots' least f), so with an admissible heuristic no solution is
    /// cheaper (move pruning keeps one optimal path of every state).
    pub(crate) fn interrupted(
        &self,
        stats: &mut SearchStats,
        started: Instant,
    ) -> Result<(), Error> {
        stats.lower_bound = Some(self.bound);
        self.store(stats, started)
    }

    /// Seconds of search over every run of this search, this one included.
    pub(crate) fn seconds(&self, started: Instant) -> f64 {
        self.earlier_seconds + started.elapsed().as_secs_f64()
    }

    /// Closes the statistics of a search: totals over every run, and, with
    /// several workers, their load balance and rates in this run (whose
    /// expansions `per_worker` counts).
    pub(crate) fn finish(&mut self, stats: &mut SearchStats, started: Instant, per_worker: &[u64]) {
        stats.finish(self.seconds(started));
        stats.iterations = std::mem::take(&mut self.trace);
        if per_worker.len() > 1 {
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            stats.load_balance = load_balance(per_worker);
            stats.worker_rates = per_worker.iter().map(|&e| e as f64 / seconds).collect();
        }
    }

    fn store(&self, stats: &SearchStats, started: Instant) -> Result<(), Error> {
        let Some(dir) = &self.checkpoint else {
            return Ok(());
        };
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            start: self.start_key.clone(),
            context: self.context.clone(),
            checksum: String::new(),
            bound: self.bound,
            iterations: self.completed,
            expanded: stats.expanded,
            generated: stats.generated,
            seconds: self.seconds(started),
            partial: (self.done > 0).then(|| Partial {
                split: self.split,
                done: self.done as u64,
                next: (self.next < Cost::MAX).then_some(self.next),
            }),
        }
        .store(dir)
    }
}

/// How the start of an IDA* search ended: roots to iterate over (with the
/// first bound, resumed from a checkpoint where one exists, and the
/// statistics so far), or the outcome already.
pub(crate) enum Begun<D: Domain> {
    Search(Split<D>, Iterations, SearchStats),
    Done(DomainOutcome<D>),
}

/// What both IDA* executors do before their first iteration: read the
/// checkpoint of this start from `checkpoint` (a directory), split the
/// start into `target` roots, and take the first bound from the roots or
/// the checkpoint, whichever is higher.
#[allow(clippy::too_many_arguments)]
pub(crate) fn begin<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    checkpoint: Option<&Path>,
    context: &str,
    ceiling: Option<Cost>,
    target: usize,
    options: &SearchOptions,
    started: Instant,
) -> Result<Begun<D>, Error> {
    let ceiling = ceiling.unwrap_or(Cost::MAX);
    let mut stats = SearchStats::default();
    let start_key = Checkpoint::key(domain);
    let lock = checkpoint.map(DirLock::take).transpose()?;
    let resumed = match checkpoint {
        Some(dir) => Checkpoint::load(dir, &start_key, context)?,
        None => None,
    };
    let status = match split(domain, heuristic, target, options, started, &mut stats) {
        SplitEnd::Roots(split) => {
            let lowest_f = split
                .roots
                .iter()
                .map(|&r| {
                    let n = &split.nodes[r as usize];
                    n.g.saturating_add(n.h)
                })
                .min()
                .unwrap_or(Cost::MAX);
            let mut iterations = Iterations {
                bound: lowest_f,
                start_key,
                context: context.to_string(),
                checkpoint: checkpoint.map(Path::to_path_buf),
                _lock: lock,
                completed: 0,
                earlier_seconds: 0.0,
                // Hashing a million roots is only worth it when progress
                // inside an iteration is checkpointed.
                split: checkpoint.map_or(0, |_| split.fingerprint()),
                done: 0,
                next: Cost::MAX,
                began: (0, 0),
                trace: Vec::new(),
                ceiling,
            };
            if let Some(c) = &resumed {
                iterations.bound = lowest_f.max(c.bound);
                iterations.completed = c.iterations;
                iterations.earlier_seconds = c.seconds;
                stats.expanded += c.expanded;
                stats.generated += c.generated;
                // Roots done inside the iteration count only for the same
                // bound over the same roots.
                if let Some(p) = c.partial.as_ref().filter(|p| {
                    c.bound == iterations.bound
                        && p.split == iterations.split
                        && p.done <= split.roots.len() as u64
                }) {
                    iterations.done = p.done as usize;
                    iterations.next = p.next.unwrap_or(Cost::MAX);
                }
                tracing::info!(
                    bound = iterations.bound,
                    iterations = c.iterations,
                    roots_done = iterations.done,
                    "IDA* resumes from its checkpoint"
                );
            }
            iterations.began = (stats.expanded, stats.generated);
            return Ok(Begun::Search(split, iterations, stats));
        }
        // The split's goal is optimal; under a ceiling it cannot cost
        // less, so nothing cheaper than the ceiling exists.
        SplitEnd::Goal(split, at) if split.nodes[at as usize].g >= ceiling => Status::NoSolution,
        SplitEnd::Goal(split, at) => {
            let (states, moves) = split.path_to(at);
            Status::Solved(Solution {
                cost: split.nodes[at as usize].g,
                states,
                moves,
            })
        }
        SplitEnd::NoSolution => Status::NoSolution,
        SplitEnd::Limit(limit) => Status::LimitReached(limit),
    };
    stats.finish(started.elapsed().as_secs_f64());
    Ok(Begun::Done(Outcome { status, stats }))
}

/// Cuts an iteration's roots into segments of about a target duration, so
/// that the checkpoint after each keeps the work of an iteration longer
/// than any one run. Each segment's end waits for its slowest subtree, so
/// without a checkpoint an iteration is one segment. The size by count is
/// an upper bound: the executors stop taking roots once the target time
/// has passed ([`Segments::close_at`]), since the first roots under
/// a resumed or raised bound can outweigh any count's estimate.
pub(crate) struct Segments {
    /// Target seconds per segment; `None`: whole iterations.
    seconds: Option<f64>,
    /// Roots in the next segment.
    size: usize,
}

impl Segments {
    /// Segments of about `seconds` when `checkpointing`, over `roots`
    /// roots. The first segments are small (how long a root takes under
    /// a resumed bound is unknown) and grow as they are measured.
    pub(crate) fn new(checkpointing: bool, seconds: f64, roots: usize) -> Segments {
        Segments {
            seconds: checkpointing.then_some(seconds.max(1e-3)),
            size: (roots / 64).max(1),
        }
    }

    /// Where the segment that starts at root `from` of `roots` ends.
    pub(crate) fn end(&self, from: usize, roots: usize) -> usize {
        match self.seconds {
            Some(_) => from.saturating_add(self.size).min(roots),
            None => roots,
        }
    }

    /// Sizes the next segment from one of `roots` roots that took
    /// `seconds`: to the target, by at most 2× up and 8× down a step
    /// (a root's subtree varies by orders of magnitude along the split's
    /// order, so a fast segment predicts the next one poorly: on KF #50 a
    /// 4× step made a 176 s segment of a 60 s target).
    pub(crate) fn measured(&mut self, roots: usize, seconds: f64) {
        if let Some(target) = self.seconds {
            let scale = (target / seconds.max(1e-6)).clamp(0.125, 2.0);
            self.size = ((roots.max(1) as f64 * scale) as usize).max(1);
        }
    }

    /// When a segment that started at `segment_started` stops taking roots
    /// (`None`: it runs to its end by count): at its target time, or a
    /// twentieth of the run's time limit before the limit (`max_seconds`
    /// counted from `run_started`), whichever comes first. A time limit
    /// throws away the segment in flight; closed before it, the roots
    /// finished meanwhile are checkpointed instead, as long as the roots
    /// taken end within that twentieth.
    pub(crate) fn close_at(
        &self,
        segment_started: Instant,
        run_started: Instant,
        max_seconds: Option<f64>,
    ) -> Option<Instant> {
        // A target or limit too far off for an Instant (`--max-seconds
        // 1e300`, `segment_seconds: 1e300`) is none here; the other still
        // closes the segment.
        let after = |from: Instant, seconds: f64| {
            Duration::try_from_secs_f64(seconds)
                .ok()
                .and_then(|d| from.checked_add(d))
        };
        let target = after(segment_started, self.seconds?);
        let before_limit = max_seconds.and_then(|s| after(run_started, s * 0.95));
        match (target, before_limit) {
            (Some(target), Some(limit)) => Some(target.min(limit)),
            (target, limit) => target.or(limit),
        }
    }

    /// A new bound: an iteration takes several times the last, and the
    /// split's first roots (lowest f) take longest, so start smaller.
    pub(crate) fn raised(&mut self) {
        self.size = (self.size / 8).max(1);
    }
}

/// The busiest worker's expansions over the mean (`None` when none
/// expanded anything).
pub(crate) fn load_balance(per_worker: &[u64]) -> Option<f64> {
    let mean = per_worker.iter().sum::<u64>() as f64 / per_worker.len().max(1) as f64;
    let busiest = per_worker.iter().copied().max().unwrap_or(0) as f64;
    (mean > 0.0).then(|| busiest / mean)
}

/// Keeps the clock while the workers of one iteration run (none of them
/// reads it): every 10 ms checks the limits against `expanded()`, setting
/// `stop` at the first one exceeded, and hands a progress report (the bound
/// as f, `remaining()` roots as open) to the sink four times a second,
/// until `finished()`. Returns the limit that stopped the iteration.
pub(crate) fn watch_iteration(
    started: Instant,
    options: &SearchOptions,
    bound: Cost,
    expanded: impl Fn() -> u64,
    remaining: impl Fn() -> u64,
    finished: impl Fn() -> bool,
    stop: &AtomicBool,
) -> Option<Limit> {
    let mut limit = None;
    let mut next_report = Duration::from_millis(250);
    while !finished() {
        // Woken early by a worker that finishes (an unpark that comes
        // before this park makes it return at once).
        std::thread::park_timeout(Duration::from_millis(10));
        let elapsed = started.elapsed();
        let expanded = expanded();
        if limit.is_none() {
            limit = options.limits.exceeded(expanded, 0, elapsed.as_secs_f64());
            if limit.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        if elapsed >= next_report {
            next_report = elapsed + Duration::from_millis(250);
            if let Some(sink) = &options.progress {
                sink(&Progress {
                    expanded,
                    open: remaining(),
                    f: bound,
                    seconds: elapsed.as_secs_f64(),
                });
            }
        }
    }
    limit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment closes at its target time, or a twentieth of the run's
    /// time limit before the limit when that comes first; without a
    /// checkpoint it runs to its end.
    #[test]
    fn segments_close_at_their_target_or_before_the_run_limit() {
        let run_started = Instant::now();
        let segment_started = run_started + Duration::from_secs(100);
        let segments = Segments::new(true, 60.0, 1 << 20);
        let target = segment_started + Duration::from_secs(60);
        assert_eq!(
            segments.close_at(segment_started, run_started, None),
            Some(target)
        );
        assert_eq!(
            segments.close_at(segment_started, run_started, Some(1000.0)),
            Some(target)
        );
        // A limit at 140 s: the segment stops taking roots at 133 s.
        assert_eq!(
            segments.close_at(segment_started, run_started, Some(140.0)),
            Some(run_started + Duration::from_secs(133))
        );
        assert_eq!(
            segments.close_at(segment_started, run_started, Some(1e300)),
            Some(target)
        );
        // A target too far off for an Instant still closes before the limit.
        let endless = Segments::new(true, 1e300, 1 << 20);
        assert_eq!(
            endless.close_at(segment_started, run_started, Some(140.0)),
            Some(run_started + Duration::from_secs(133))
        );
        assert_eq!(endless.close_at(segment_started, run_started, None), None);
        let whole = Segments::new(false, 60.0, 1 << 20);
        assert_eq!(
            whole.close_at(segment_started, run_started, Some(140.0)),
            None
        );
    }
}
