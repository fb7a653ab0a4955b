//! Beam search: breadth-first, keeping the `width` best states of each
//! layer by g + w·h. Its memory is width × depth, so it reaches instances
//! whose best-first frontier fits nowhere; it is incomplete and its
//! solutions are not optimal, but each comes with a proven lower bound.
//!
//! The bound: take an optimal path and its first node n that was never
//! expanded at its optimal g. Its predecessor was, so n was generated at
//! g\*(n): kept and left unexpanded, dropped from the beam, or found
//! already seen at no larger g (then that copy, at g\*(n), was not expanded
//! either). In each case some unexpanded node was generated with
//! f ≤ g\*(n) + h(n) ≤ C\*, so the least f of the generated nodes never
//! expanded, with the solution's cost, bounds C\* from below. This needs h
//! admissible only, and holds whatever the layers are ranked by: a beam
//! ranks by g + w·[`Heuristic::rank`], which defaults to h.
//!
//! Layers are expanded by `threads` workers in chunks whose results are
//! joined in order, and ties are broken by generation order, so a beam's
//! result does not depend on the thread count.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::domain::{Cost, Domain, Heuristic};
use crate::search::{trace, DomainOutcome, Limit, Outcome, SearchOptions, Solution, Status, Watch};
use crate::stats::SearchStats;

const NO_PARENT: u32 = u32::MAX;

/// A state the beam kept (and so expands, unless the search ends first).
struct Kept<D: Domain> {
    state: D::State,
    mv: Option<D::Move>,
    parent: u32,
    g: Cost,
    h: Cost,
    rank: Cost,
}

/// A state the beam has generated: its hash (kept, so that growing the
/// table reads no state again), where it is in `seen_states`, and the least
/// g it was generated at.
type Seen = (u64, u64, Cost);

/// A successor before the beam chose among them.
struct Candidate<D: Domain> {
    state: D::State,
    mv: D::Move,
    parent: u32,
    g: Cost,
    h: Cost,
    /// What the layer ranks it by ([`Heuristic::rank`]).
    rank: Cost,
    hash: u64,
    goal: bool,
}

/// Beam search of width `options.order.beam` from `domain.start()`,
/// layers expanded on `threads` threads. The first layer that holds a goal
/// ends the search with its cheapest goal; `stats.lower_bound` is the
/// proven bound (see the module docs).
///
/// ```
/// use frontier_core::{search::{beam::beam, Order}, grid::{Grid, Manhattan}, SearchOptions, Status};
/// let maze = Grid::parse("S.#.\n..#G\n....").unwrap();
/// let options = SearchOptions {
///     order: Order { beam: Some(2), ..Order::default() },
///     ..SearchOptions::default()
/// };
/// let outcome = beam(&maze, &Manhattan, 1, &options)?;
/// let Status::Solved(solution) = outcome.status else { panic!("the maze is solvable") };
/// assert!(solution.cost >= 6);
/// assert!(outcome.stats.lower_bound.unwrap() <= 6);
/// # Ok::<(), frontier_core::Error>(())
/// ```
pub fn beam<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    threads: usize,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, crate::Error> {
    options.limits.check()?;
    crate::check_threads("beam", threads)?;
    let order = options.order;
    order.check("beam", true)?;
    let width = usize::try_from(order.beam.unwrap_or(1))
        .map_err(|_| crate::Error::BadConfig("beam: the width does not fit this machine".into()))?;
    let weight = order.weight;
    let mut watch = Watch::new(options);
    let mut stats = SearchStats::default();
    let hasher = hashbrown::DefaultHashBuilder::default();

    let start = domain.start();
    let h0 = heuristic.h(domain, &start);
    // Every state kept, for the paths; `seen` maps each state generated,
    // kept or not, to the least g it was generated at.
    let mut kept: Vec<Kept<D>> = Vec::new();
    let mut seen: HashTable<Seen> = HashTable::new();
    let mut seen_states: Vec<D::State> = Vec::new();
    let start_hash = hasher.hash_one(&start);
    seen.insert_unique(start_hash, (start_hash, 0, 0), |e| e.0);
    seen_states.push(start.clone());
    let start_goal = domain.is_goal(&start);
    kept.push(Kept {
        rank: heuristic.rank(domain, &start, h0),
        state: start,
        mv: None,
        parent: NO_PARENT,
        g: 0,
        h: h0,
    });
    // The generated nodes never expanded: their least f bounds C*.
    let mut least_unexpanded = Cost::MAX;
    let mut layer: Vec<u32> = vec![0];
    // Buffers kept from layer to layer: a layer's millions of candidates
    // would otherwise take fresh pages from the system, each zeroed first.
    let mut candidates: Vec<Candidate<D>> = Vec::new();
    let mut found_by_worker: Vec<Vec<Candidate<D>>> = Vec::new();
    let mut fresh: Vec<usize> = Vec::new();
    let bytes_per_state = (std::mem::size_of::<Kept<D>>()
        + std::mem::size_of::<D::State>()
        + std::mem::size_of::<Seen>()) as u64;

    let status = loop {
        if start_goal {
            break Status::Solved(trace_kept(&kept, 0));
        }
        if layer.is_empty() {
            break Status::NoSolution;
        }
        let least_f = layer
            .iter()
            .map(|&i| kept[i as usize].g.saturating_add(kept[i as usize].h))
            .min()
            .unwrap_or(0);
        let bytes = kept.len() as u64 * bytes_per_state;
        if let Some(limit) = watch.check(stats.expanded, bytes, layer.len() as u64, least_f) {
            break Status::LimitReached(limit);
        }
        candidates.clear();
        expand_layer(
            domain,
            heuristic,
            &kept,
            &layer,
            threads,
            &hasher,
            &mut found_by_worker,
            &mut candidates,
        );
        stats.expanded += layer.len() as u64;
        stats.generated += candidates.len() as u64;

        // Keep each state once per layer, at its least g, and only where
        // it beats every earlier sighting.
        fresh.clear();
        for (i, c) in candidates.iter().enumerate() {
            let found = seen.find_mut(c.hash, |e| {
                e.0 == c.hash && seen_states[e.1 as usize] == c.state
            });
            match found {
                Some(entry) if entry.2 <= c.g => {
                    stats.duplicates += 1;
                    continue;
                }
                Some(entry) => entry.2 = c.g,
                None => {
                    let at = seen_states.len() as u64;
                    seen.insert_unique(c.hash, (c.hash, at, c.g), |e| e.0);
                    seen_states.push(c.state.clone());
                }
            }
            fresh.push(i);
        }
        // A layer with a goal ends the search: its cheapest goal.
        if let Some(&goal) = fresh
            .iter()
            .filter(|&&i| candidates[i].goal)
            .min_by_key(|&&i| (candidates[i].g, i))
        {
            for &i in &fresh {
                let c = &candidates[i];
                least_unexpanded = least_unexpanded.min(c.g.saturating_add(c.h));
            }
            let c = &candidates[goal];
            let mut solution = trace_kept(&kept, c.parent);
            solution.cost = c.g;
            solution.states.push(c.state.clone());
            solution.moves.push(c.mv.clone());
            break Status::Solved(solution);
        }
        // The best `width` by key, ties by generation order.
        let key = |i: usize| {
            let c = &candidates[i];
            (weight.key(c.g, c.rank).0, i)
        };
        if fresh.len() > width {
            fresh.select_nth_unstable_by_key(width, |&i| key(i));
            for &i in &fresh[width..] {
                let c = &candidates[i];
                least_unexpanded = least_unexpanded.min(c.g.saturating_add(c.h));
            }
            fresh.truncate(width);
        }
        fresh.sort_unstable();
        layer.clear();
        // `fresh` is in generation order now: one pass over the candidates
        // moves the chosen ones into `kept`.
        let mut chosen = fresh.iter().copied().peekable();
        for (i, c) in candidates.drain(..).enumerate() {
            if chosen.next_if_eq(&i).is_none() {
                continue;
            }
            let Ok(at) = u32::try_from(kept.len()) else {
                break;
            };
            layer.push(at);
            kept.push(Kept {
                state: c.state,
                mv: Some(c.mv),
                parent: c.parent,
                g: c.g,
                h: c.h,
                rank: c.rank,
            });
        }
        stats.peak_open = stats.peak_open.max(layer.len() as u64);
        if kept.len() as u64 >= u64::from(NO_PARENT) {
            break Status::LimitReached(Limit::Memory);
        }
    };
    if let Status::Solved(solution) = &status {
        let lower = least_unexpanded.min(solution.cost);
        stats.bound_solution(watch.elapsed(), solution.cost, lower, weight.value());
    }
    stats.peak_closed = seen_states.len() as u64;
    stats.peak_bytes = kept.len() as u64 * bytes_per_state;
    stats.finish(watch.elapsed());
    Ok(Outcome { status, stats })
}

/// Expands every state of `layer` into `out`, in layer order, on
/// `threads` threads, each filling one of `found_by_worker` (emptied into
/// `out`, their memory kept for the next layer).
#[allow(clippy::too_many_arguments)]
fn expand_layer<D: Domain, H: Heuristic<D>>(
    domain: &D,
    heuristic: &H,
    kept: &[Kept<D>],
    layer: &[u32],
    threads: usize,
    hasher: &hashbrown::DefaultHashBuilder,
    found_by_worker: &mut Vec<Vec<Candidate<D>>>,
    out: &mut Vec<Candidate<D>>,
) {
    let expand_chunk = |chunk: &[u32], found: &mut Vec<Candidate<D>>| {
        let mut edges = Vec::new();
        let mut ranks = Vec::new();
        for &at in chunk {
            let parent = &kept[at as usize];
            edges.clear();
            domain.expand(&parent.state, &mut edges);
            ranks.clear();
            let of = crate::Parent {
                state: &parent.state,
                h: parent.h,
                rank: parent.rank,
            };
            heuristic.children_h_and_rank(domain, of, &edges, &mut ranks);
            for (edge, &(h, rank)) in edges.drain(..).zip(&ranks) {
                found.push(Candidate {
                    rank,
                    hash: hasher.hash_one(&edge.state),
                    goal: domain.is_goal(&edge.state),
                    g: parent.g.saturating_add(edge.cost),
                    h,
                    parent: at,
                    mv: edge.mv,
                    state: edge.state,
                });
            }
        }
    };
    // Below this many states a layer is expanded on the calling thread:
    // starting threads would cost more than it saves.
    const SPLIT_FROM: usize = 256;
    if threads <= 1 || layer.len() < SPLIT_FROM {
        expand_chunk(layer, out);
        return;
    }
    let size = layer.len().div_ceil(threads);
    let chunks = layer.len().div_ceil(size);
    if found_by_worker.len() < chunks {
        found_by_worker.resize_with(chunks, Vec::new);
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = layer
            .chunks(size)
            .zip(found_by_worker.iter_mut())
            .map(|(chunk, found)| scope.spawn(move || expand_chunk(chunk, found)))
            .collect();
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    // In layer order, as the chunks were cut.
    for found in &mut found_by_worker[..chunks] {
        out.append(found);
    }
}

fn trace_kept<D: Domain>(kept: &[Kept<D>], last: u32) -> Solution<D::State, D::Move> {
    let node_at = |i: u32| {
        let n = &kept[i as usize];
        (&n.state, n.mv.as_ref(), n.parent, n.g)
    };
    trace(last, NO_PARENT, node_at)
}
