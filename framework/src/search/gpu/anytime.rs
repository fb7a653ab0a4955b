//! Anytime GA* on one GPU: Restarting Weighted A* (Richter, Thayer and
//! Ruml, ICAPS 2010). Each run is weighted GA* from the start state under
//! the next weight of [`crate::search::Weight::lowered_for_restarts`]'s
//! schedule (1.4, 1.3, 1.2, 1.15, 1.1, 1.05, then 1), pruning every child
//! whose f = g + h reaches the best cost C found so far; the last run, at
//! w = 1, is GA* itself and proves the optimum.
//!
//! Why restarts rather than ARA*'s re-keyed open list (what `astar` does):
//! the GPU's open list is thousands of heaps in device memory, and a run
//! under a lower weight reaches its goal through a different, smaller part
//! of the space than the old run's frontier; restarting costs one pass of
//! kernels per weight and no re-key kernel, and RWA* is reported to match or
//! beat ARA* for that reason.
//!
//! Soundness. A run prunes only children with f ≥ C, which (h admissible)
//! lead to no goal below C. It goes on while anything is open until it
//! finds a goal of its own, which is cheaper than C; from then on it is one
//! weighted run (`order`'s module docs) and ends with a cost at most w·C*.
//! A run that empties its open list without a goal has shown that nothing
//! cheaper than C exists: C is optimal.
//! Each run that was not cut short by memory also yields the least f = g + h
//! of its open and pruned nodes, capped at C: with an admissible heuristic
//! and reopening, a lower bound on C* (`MultiGpuSession::run`). The bound
//! reported is the greatest of these; a run at w = 1 that ends closes it at C.

use std::time::Instant;

use super::partition::GpuPartitioner;
use super::{GpuPlugin, MultiGpuSession};
use crate::domain::{Cost, PackedState};
use crate::search::{
    DomainOutcome, Improvement, Limit, Limits, Order, Outcome, SearchOptions, Solution, Status,
};
use crate::stats::SearchStats;
use crate::Error;

/// Runs weighted GA* with restarts under `options.order.weight` and then
/// lower weights, until the optimum is proven or a limit of `options`
/// (counted over all runs) stops it; returns the best solution with its
/// proven lower bound and one [`Improvement`] per better solution.
pub(super) fn restarting<D, P, Q>(
    session: &mut MultiGpuSession,
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
    let started = Instant::now();
    let mut weight = options.order.weight;
    let mut best: Option<Solution<D::State, D::Move>> = None;
    let mut lower: Cost = 0;
    let mut totals = SearchStats::default();
    let mut improvements = Vec::new();
    let status = loop {
        let limits = match remaining(&options.limits, totals.expanded, started) {
            Ok(limits) => limits,
            Err(limit) => {
                break best
                    .take()
                    .map_or(Status::LimitReached(limit), Status::Solved)
            }
        };
        let ceiling = best.as_ref().map_or(Cost::MAX, |b| b.cost);
        let run_options = SearchOptions {
            limits,
            progress: options.progress.clone(),
            order: Order {
                weight,
                ..Order::default()
            },
        };
        let (outcome, least) =
            session.run(domain, plugin, partition, &run_options, weight, ceiling)?;
        add(&mut totals, outcome.stats);
        if let Some(least) = least {
            lower = lower.max(least);
        }
        match outcome.status {
            Status::Solved(solution) if solution.cost < ceiling => {
                improvements.push(Improvement {
                    seconds: started.elapsed().as_secs_f64(),
                    cost: solution.cost,
                    lower_bound: lower.min(solution.cost),
                    expanded: totals.expanded,
                    weight: weight.value(),
                });
                best = Some(solution);
            }
            // Children at the ceiling are pruned: no goal of a run costs more.
            Status::Solved(_) => {}
            // Nothing was pruned: the reachable space has no goal.
            Status::NoSolution if best.is_none() => break Status::NoSolution,
            // Nothing below the ceiling is left: the incumbent is optimal.
            Status::NoSolution => lower = ceiling,
            Status::LimitReached(limit) => {
                break best
                    .take()
                    .map_or(Status::LimitReached(limit), Status::Solved)
            }
        }
        let Some(cost) = best.as_ref().map(|b| b.cost) else {
            break Status::NoSolution;
        };
        if weight.is_one() {
            // GA* under the ceiling ran to its end: nothing cheaper exists.
            lower = cost;
        }
        if lower >= cost {
            break best.take().map_or(Status::NoSolution, Status::Solved);
        }
        weight = weight.lowered_for_restarts();
    };
    totals.finish(started.elapsed().as_secs_f64());
    if let Status::Solved(solution) = &status {
        totals.lower_bound = Some(lower.min(solution.cost));
    }
    totals.improvements = improvements;
    Ok(Outcome {
        status,
        stats: totals,
    })
}

/// What is left of `limits` after `expanded` expansions and the time since
/// `started`, or the limit already reached.
fn remaining(limits: &Limits, expanded: u64, started: Instant) -> Result<Limits, Limit> {
    let seconds = started.elapsed().as_secs_f64();
    if let Some(limit) = limits.exceeded(expanded, 0, seconds) {
        return Err(limit);
    }
    Ok(Limits {
        max_expanded: limits.max_expanded.map(|m| m - expanded),
        max_memory_bytes: limits.max_memory_bytes,
        max_seconds: limits.max_seconds.map(|m| m - seconds),
    })
}

/// Adds one run's counts to the totals; sizes are the largest run's. The
/// per-GPU breakdown and overheads are a single run's notions and are left
/// out.
fn add(totals: &mut SearchStats, run: SearchStats) {
    totals.expanded += run.expanded;
    totals.generated += run.generated;
    totals.duplicates += run.duplicates;
    totals.reopened += run.reopened;
    totals.peak_open = totals.peak_open.max(run.peak_open);
    totals.peak_closed = totals.peak_closed.max(run.peak_closed);
    totals.peak_bytes = totals.peak_bytes.max(run.peak_bytes);
    totals.bytes_per_node = run.bytes_per_node;
}
