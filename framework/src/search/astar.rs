//! Sequential A*: a binary heap over an arena of nodes indexed by a hash
//! table, with lazy deletion and reopening.
//!
//! Where states have many successors (at least [`PARTIAL_FROM`] at the
//! start), A* expands partially (Yoshizumi, Miura & Ishida, AAAI 2000): an
//! expansion at f = F stores only the children with f ≤ F and puts the node
//! back on the heap at the smallest larger child f, so children above the
//! optimal cost are never stored. Pancake stacks of 60 have 59 successors,
//! nearly all one f-layer up.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::domain::{Cost, Domain, Heuristic};
use crate::search::{
    or_best, trace, DomainOutcome, Improvement, Limit, Outcome, SearchOptions, Solution, Status,
    Watch, Weight, CHECK_EVERY,
};
use crate::stats::SearchStats;

/// Parent index of the start node.
const NO_PARENT: u32 = u32::MAX;

/// Successors of the start state from which A* expands partially.
pub const PARTIAL_FROM: usize = 8;

/// One state ever generated. The arena index is the node's identity; the
/// hash table stores only indices, so each state is held once.
struct Node<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: u32,
    g: Cost,
    h: Cost,
    closed: bool,
    /// The key of the node's live heap entry (`Cost::MAX`: none): f, or
    /// g + w·h scaled to integers when weighted.
    open_f: Cost,
    /// With partial expansion: children with f up to this were handled at
    /// an earlier expansion of the node (`None`: not expanded at this g).
    done_f: Option<Cost>,
}

/// A heap entry. Entries go stale when a cheaper path to their node is found
/// (the node's g drops) or the node is closed; stale entries are skipped.
/// `N` names the node: an arena index here, a (bucket, index) pair in HDA*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OpenEntry<N = u32> {
    pub(crate) f: Cost,
    pub(crate) g: Cost,
    pub(crate) node: N,
}

impl<N: Ord> Ord for OpenEntry<N> {
    /// Max-heap order: lowest f first; on equal f the larger g (deeper, so
    /// nearer a goal); then the newer node, which keeps runs deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .cmp(&self.f)
            .then(self.g.cmp(&other.g))
            .then(self.node.cmp(&other.node))
    }
}

impl<N: Ord> PartialOrd for OpenEntry<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Runs A* from `domain.start()`.
///
/// With an admissible heuristic the returned solution is optimal, also when
/// the heuristic is inconsistent (closed nodes are reopened when a cheaper
/// path reaches them).
///
/// ```
/// use frontier_core::{astar, grid::{Grid, Manhattan}, SearchOptions, Status};
/// let maze = Grid::parse("S.#.\n..#G\n....").unwrap();
/// let outcome = astar(&maze, &Manhattan, &SearchOptions::default())?;
/// let Status::Solved(solution) = outcome.status else { panic!("maze is solvable") };
/// assert_eq!(solution.cost, 6);
/// assert_eq!(solution.moves.len(), 6);
/// # Ok::<(), frontier_core::Error>(())
/// ```
///
/// Like every executor it returns a `Result`: limits that
/// [`Limits::check`](crate::Limits::check) refuses are an error.
pub fn astar<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, crate::Error> {
    options.limits.check()?;
    let order = options.order;
    order.check("astar", true)?;
    if order.beam.is_some() {
        return crate::search::beam::beam(domain, heuristic, 1, options);
    }
    let mut watch = Watch::new(options);
    let mut stats = SearchStats::default();
    let hasher = hashbrown::DefaultHashBuilder::default();
    let mut nodes: Vec<Node<D>> = Vec::new();
    let mut index: HashTable<u32> = HashTable::new();
    let mut open: BinaryHeap<OpenEntry> = BinaryHeap::new();
    let mut successors = Vec::new();
    // Beyond A* (see `order`): the weight in force, the best goal so far
    // and the least f pruned against it, which bounds the optimum.
    let mut weight = order.weight;
    let mut best: Option<Solution<D::State, D::Move>> = None;
    let mut cutoff = Cost::MAX;
    let mut least_pruned = Cost::MAX;
    // A key that did not fit a Cost: the ranking is then not exact, and
    // a weighted goal is no longer known to be within w of the optimum
    // when popped, so the search goes on to the cutoff.
    let mut inexact = false;

    let start = domain.start();
    let h0 = heuristic.h(domain, &start);
    index.insert_unique(hasher.hash_one(&start), 0, |_| unreachable_rehash());
    let (key0, over) = weight.key(0, h0);
    inexact |= over;
    nodes.push(Node {
        state: start,
        mv: None,
        parent: NO_PARENT,
        g: 0,
        h: h0,
        closed: false,
        open_f: key0,
        done_f: None,
    });
    open.push(OpenEntry {
        f: key0,
        g: 0,
        node: 0,
    });
    let bytes_per_node =
        (std::mem::size_of::<Node<D>>() + 2 * std::mem::size_of::<u32>() + 1) as u64;
    let bytes_per_entry = std::mem::size_of::<OpenEntry>() as u64;

    // Decided at the first expansion, from the start's branching; only
    // A*'s order expands partially (its deferred keys are unweighted f).
    let mut expand_partially = (!order.is_optimal()).then_some(false);
    let status = loop {
        let Some(entry) = open.pop() else {
            break or_best(&mut best, &mut stats, Status::NoSolution);
        };
        let node = &nodes[entry.node as usize];
        if entry.g != node.g || entry.f != node.open_f {
            continue;
        }
        let f = node.g.saturating_add(node.h);
        if f >= cutoff {
            least_pruned = least_pruned.min(f);
            nodes[entry.node as usize].open_f = Cost::MAX;
            // Ranked by f alone, everything left is at the cutoff too.
            if weight.is_one() && !inexact {
                break or_best(&mut best, &mut stats, Status::NoSolution);
            }
            continue;
        }
        if domain.is_goal(&node.state) {
            let solution = trace_path(&nodes, entry.node);
            if order.is_optimal() {
                break Status::Solved(solution);
            }
            // Below the cutoff, so below the incumbent: an improvement.
            let cost = solution.cost;
            let parent = &mut nodes[entry.node as usize];
            parent.closed = true;
            parent.open_f = Cost::MAX;
            if !order.anytime && !inexact {
                // Popped in g + w·h order: every open node n has
                // g + w·h ≥ C, so w·f(n) ≥ C, which is the cutoff. Its
                // bound and trace entry are filled in after the loop.
                break Status::Solved(solution);
            }
            if order.anytime && !weight.is_one() {
                weight = weight.lowered();
                inexact |= rekey(&mut nodes, &mut open, weight);
            }
            cutoff = order.cutoff(weight, cost);
            let lower = open_lower_bound(&nodes, cost).min(least_pruned);
            stats.improvements.push(Improvement {
                seconds: watch.elapsed(),
                cost,
                lower_bound: lower,
                expanded: stats.expanded,
                weight: weight.value(),
            });
            best = Some(solution);
            continue;
        }
        if watch.out_of_expansions(stats.expanded) {
            break or_best(
                &mut best,
                &mut stats,
                Status::LimitReached(Limit::Expansions),
            );
        }
        if stats.expanded & (CHECK_EVERY - 1) == 0 {
            let bytes = nodes.len() as u64 * bytes_per_node + open.len() as u64 * bytes_per_entry;
            stats.peak_bytes = stats.peak_bytes.max(bytes);
            stats.peak_open = stats.peak_open.max(open.len() as u64);
            if let Some(limit) = watch.check(stats.expanded, bytes, open.len() as u64, entry.f) {
                break or_best(&mut best, &mut stats, Status::LimitReached(limit));
            }
        }
        let parent = &mut nodes[entry.node as usize];
        parent.closed = true;
        parent.open_f = Cost::MAX;
        let handled = parent.done_f;
        stats.expanded += 1;
        let parent_g = entry.g;
        successors.clear();
        // The smallest child f above this expansion's, when partial.
        let mut deferred = Cost::MAX;
        // With operator selection the heuristic hands over only the
        // children on this f-layer, and says where the next one is.
        let parent_f = parent_g.saturating_add(nodes[entry.node as usize].h);
        let selected = if expand_partially == Some(true) && heuristic.consistent() {
            let parent = &nodes[entry.node as usize];
            heuristic.expand_rising_by(
                domain,
                &parent.state,
                parent.h,
                entry.f.saturating_sub(parent_f),
                &mut successors,
            )
        } else {
            None
        };
        if let Some(next) = selected {
            deferred = next.map_or(Cost::MAX, |rise| parent_f.saturating_add(rise));
        } else {
            domain.expand(&nodes[entry.node as usize].state, &mut successors);
        }
        stats.generated += successors.len() as u64;
        let partial = *expand_partially.get_or_insert(successors.len() >= PARTIAL_FROM);

        for edge in successors.drain(..) {
            let g = parent_g.saturating_add(edge.cost);
            // With partial expansion the bound comes first: a child left for
            // later costs no table lookup (h is a function of the state, so
            // a stored copy has the same).
            let mut child_h = None;
            if partial && selected.is_none() {
                let parent = &nodes[entry.node as usize];
                let h = heuristic.h_child(domain, &parent.state, parent.h, &edge.state);
                let f = g.saturating_add(h);
                if f > entry.f {
                    deferred = deferred.min(f);
                    continue;
                }
                if handled.is_some_and(|done| f <= done) {
                    continue;
                }
                child_h = Some(h);
            }
            let hash = hasher.hash_one(&edge.state);
            let found = index
                .find(hash, |&i| nodes[i as usize].state == edge.state)
                .copied();
            let child = match found {
                Some(i) => {
                    let known = &mut nodes[i as usize];
                    if g >= known.g {
                        stats.duplicates += 1;
                        continue;
                    }
                    let f = g.saturating_add(known.h);
                    if f >= cutoff {
                        least_pruned = least_pruned.min(f);
                        continue;
                    }
                    // A cheaper path: with a consistent heuristic this only
                    // happens to open nodes; otherwise the node is reopened.
                    if known.closed {
                        known.closed = false;
                        stats.reopened += 1;
                    }
                    known.g = g;
                    known.parent = entry.node;
                    known.mv = Some(edge.mv);
                    // Its children's f all moved: expand it afresh.
                    known.done_f = None;
                    // Equal states may carry different auxiliary data (the
                    // last move, say); keep the copy on the cheapest path.
                    known.state = edge.state;
                    i
                }
                None => {
                    let Ok(i) = u32::try_from(nodes.len()) else {
                        break;
                    };
                    if i == NO_PARENT {
                        break;
                    }
                    let parent = &nodes[entry.node as usize];
                    let h = child_h.unwrap_or_else(|| {
                        heuristic.h_child(domain, &parent.state, parent.h, &edge.state)
                    });
                    let f = g.saturating_add(h);
                    if f >= cutoff {
                        least_pruned = least_pruned.min(f);
                        continue;
                    }
                    index.insert_unique(hash, i, |&j| hasher.hash_one(&nodes[j as usize].state));
                    nodes.push(Node {
                        state: edge.state,
                        mv: Some(edge.mv),
                        parent: entry.node,
                        g,
                        h,
                        closed: false,
                        open_f: Cost::MAX,
                        done_f: None,
                    });
                    i
                }
            };
            let known = &mut nodes[child as usize];
            let (key, over) = weight.key(g, known.h);
            inexact |= over;
            known.open_f = key;
            open.push(OpenEntry {
                f: key,
                g,
                node: child,
            });
        }
        if partial {
            let parent = &mut nodes[entry.node as usize];
            // A cheaper path found meanwhile (a self-loop, say) reset it.
            if parent.g == parent_g {
                parent.done_f = Some(entry.f);
                if deferred != Cost::MAX {
                    parent.open_f = deferred;
                    open.push(OpenEntry {
                        f: deferred,
                        g: parent_g,
                        node: entry.node,
                    });
                }
            }
        }
        if nodes.len() as u64 >= u64::from(NO_PARENT) {
            // The arena is indexed by u32: more nodes than that is a memory
            // limit in practice. The parent's children may not all have
            // been added: it stays open for the proven lower bound.
            nodes[entry.node as usize].open_f = entry.f;
            break or_best(&mut best, &mut stats, Status::LimitReached(Limit::Memory));
        }
    };

    match &status {
        Status::Solved(solution) if !order.is_optimal() => {
            let lower = open_lower_bound(&nodes, solution.cost).min(least_pruned);
            // A search that stopped at its first goal has not recorded it yet.
            stats.bound_solution(watch.elapsed(), solution.cost, lower, weight.value());
        }
        // Stopped with no solution: what it proved so far. Every cheapest
        // path has a node on the open list (or one the cutoff pruned, whose
        // f `least_pruned` holds), whose f is at most the optimum.
        Status::LimitReached(_) => {
            stats.lower_bound = Some(open_lower_bound(&nodes, Cost::MAX).min(least_pruned));
        }
        _ => {}
    }
    stats.peak_open = stats.peak_open.max(open.len() as u64);
    stats.peak_closed = nodes.len() as u64;
    stats.peak_bytes = stats
        .peak_bytes
        .max(nodes.len() as u64 * bytes_per_node + open.len() as u64 * bytes_per_entry);
    stats.finish(watch.elapsed());
    Ok(Outcome { status, stats })
}

/// The least f = g + h of the open nodes, at most `ceiling`: with an
/// admissible heuristic, and closed nodes reopened when reached more
/// cheaply, a lower bound on the optimum (or on the unpruned part of it).
fn open_lower_bound<D: Domain>(nodes: &[Node<D>], ceiling: Cost) -> Cost {
    nodes
        .iter()
        .filter(|n| n.open_f != Cost::MAX)
        .map(|n| n.g.saturating_add(n.h))
        .fold(ceiling, Cost::min)
}

/// Ranks the open nodes again under `weight` (the anytime schedule
/// lowered it); says whether a key did not fit.
fn rekey<D: Domain>(
    nodes: &mut [Node<D>],
    open: &mut BinaryHeap<OpenEntry>,
    weight: Weight,
) -> bool {
    let mut inexact = false;
    let mut entries = Vec::with_capacity(open.len());
    for (i, node) in nodes.iter_mut().enumerate() {
        if node.open_f != Cost::MAX {
            let (key, over) = weight.key(node.g, node.h);
            inexact |= over;
            node.open_f = key;
            entries.push(OpenEntry {
                f: key,
                g: node.g,
                // The arena is indexed by u32 (checked as nodes are added).
                node: i as u32,
            });
        }
    }
    *open = BinaryHeap::from(entries);
    inexact
}

/// The table is empty when the start node goes in, so nothing is rehashed.
fn unreachable_rehash() -> u64 {
    0
}

fn trace_path<D: Domain>(nodes: &[Node<D>], goal: u32) -> Solution<D::State, D::Move> {
    let node_at = |i: u32| {
        let n = &nodes[i as usize];
        (&n.state, n.mv.as_ref(), n.parent, n.g)
    };
    trace(goal, NO_PARENT, node_at)
}
