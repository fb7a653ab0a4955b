//! Anytime GA* on one GPU: Restarting Weighted A* (Richter, Thayer and
//! Ruml, ICAPS 2010). Each run is weighted GA* from the start state under
//! the next weight of [`crate::search::Weight::lowered_for_restarts`]'s
//! schedule (from 2: 1.75, 1.55, 1.4, 1.3, 1.2, 1.15, 1.1, 1.05, then 1),
//! pruning every child whose f = g + h reaches the best cost C found so
//! far; the last run, at w = 1, is GA* itself and proves the optimum.
//!
//! Why restarts rather than ARA*'s re-keyed open list (what `astar` does):
//! the GPU's open list is thousands of heaps in device memory, and a run
//! under a lower weight reaches its goal through a different, smaller part
//! of the space than the old run's frontier; restarting costs one pass of
//! kernels per weight and no re-key kernel, and RWA* is reported to match or
//! beat ARA* for that reason.
//!
//! Runs that do not end. A run under a lower weight can take far longer
//! than the one before, or fill the GPU's node arena, and a run that
//! ends that way finds nothing: on hard 35- and 48-puzzles the schedule's
//! next step (1.55 → 1.4) used the whole remaining time, or stopped the
//! search at a full arena with most of the time unused. So every run after
//! the first gets a budget of [`RETRY_FACTOR`] times the expansions of the
//! last run that improved (at least [`RETRY_FLOOR`]); a run cut by its
//! budget or by memory is retried halfway between the last weight that
//! improved and the one that failed ([`Weight::halfway_to`], in
//! fortieths), and later steps stay above the highest weight that failed.
//! Where no fortieth lies between, the failed weight runs once more with
//! whatever the caller's limits leave (and if it improves, the schedule
//! goes on from there as at the start). A cut run only loses time: it
//! changes no solution and reports no bound of its own unless the run
//! computes one (see below).
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
    or_best, DomainOutcome, Improvement, Limit, Order, Outcome, SearchOptions, Solution, Status,
    Weight,
};
use crate::stats::SearchStats;
use crate::Error;

/// A run after the first may expand this many times the nodes of the last
/// run that improved before it is cut and retried at a higher weight (see
/// the module docs): a lower weight's run that takes ten times longer is
/// common, one that takes sixteen times usually fails anyway.
pub const RETRY_FACTOR: u64 = 16;

/// The least expansions a budget is computed from: the first runs find
/// their goals in a few thousand, where a budget that small would cut
/// every next run at once.
pub const RETRY_FLOOR: u64 = 1 << 20;

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
    let mut best: Option<Solution<D::State, D::Move>> = None;
    let mut lower: Cost = 0;
    let mut totals = SearchStats::default();
    let mut improvements = Vec::new();
    let mut schedule = Schedule::new(options.order.weight);
    let status = loop {
        let weight = schedule.weight;
        let mut limits = match options.limits.left_after(totals.expanded, started) {
            Ok(limits) => limits,
            Err(limit) => break or_best(&mut best, &mut totals, Status::LimitReached(limit)),
        };
        let budget = schedule.budget(best.is_some());
        if let Some(budget) = budget {
            limits.max_expanded = Some(limits.max_expanded.map_or(budget, |m| m.min(budget)));
        }
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
        let run_expanded = outcome.stats.expanded;
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
                schedule.improved(run_expanded);
            }
            // Children at the ceiling are pruned: no goal of a run costs more.
            Status::Solved(_) => {}
            // Nothing was pruned: the reachable space has no goal.
            Status::NoSolution if best.is_none() => break Status::NoSolution,
            // Nothing below the ceiling is left: the incumbent is optimal.
            Status::NoSolution => lower = ceiling,
            // Cut by its budget or a full arena: retry at a higher weight
            // (the caller's own limits end the loop at its top).
            Status::LimitReached(Limit::Expansions | Limit::Memory) if budget.is_some() => {
                schedule.cut();
                continue;
            }
            Status::LimitReached(limit) => {
                break or_best(&mut best, &mut totals, Status::LimitReached(limit))
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
        schedule.lower();
    };
    totals.finish(started.elapsed().as_secs_f64());
    match &status {
        Status::Solved(solution) => totals.lower_bound = Some(lower.min(solution.cost)),
        // Stopped by a limit before any solution: what its runs proved.
        Status::LimitReached(_) if lower > 0 => totals.lower_bound = Some(lower),
        _ => {}
    }
    totals.improvements = improvements;
    Ok(Outcome {
        status,
        stats: totals,
    })
}

/// Which weight runs next, and with what budget (see the module docs): the
/// restart schedule with its retries, apart from the GPU so that it can be
/// followed step by step.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Schedule {
    /// The weight of the next run.
    weight: Weight,
    /// The weight of the last run that improved (the first weight until one
    /// has).
    improved_at: Weight,
    /// The expansions of that run.
    improved_expanded: u64,
    /// The highest weight whose run was cut since the last try.
    failed: Option<Weight>,
    /// The next run is the last try at a failed weight: no budget.
    last_try: bool,
}

impl Schedule {
    fn new(first: Weight) -> Schedule {
        Schedule {
            weight: first,
            improved_at: first,
            improved_expanded: 0,
            failed: None,
            last_try: false,
        }
    }

    /// The expansions the next run may make of its own (None: only the
    /// caller's limits), given whether a solution is known yet.
    fn budget(&self, solved: bool) -> Option<u64> {
        (solved && !self.last_try)
            .then(|| RETRY_FACTOR.saturating_mul(self.improved_expanded.max(RETRY_FLOOR)))
    }

    /// The run at `self.weight` improved after `expanded` expansions; a
    /// last try that got through lets the schedule go on from here.
    fn improved(&mut self, expanded: u64) {
        self.improved_at = self.weight;
        self.improved_expanded = expanded;
        if self.last_try {
            (self.last_try, self.failed) = (false, None);
        }
    }

    /// The run at `self.weight` was cut by its budget or by memory: retry
    /// halfway back toward the last weight that improved, or, with no
    /// fortieth between, once more at this weight with no budget.
    fn cut(&mut self) {
        self.failed = Some(self.weight);
        match self.improved_at.halfway_to(self.weight) {
            Some(halfway) => self.weight = halfway,
            None => self.last_try = true,
        }
    }

    /// After a run that ended (improved or not): the schedule's next
    /// weight, but never as low as one that failed (halfway to it instead,
    /// or a last try at it).
    fn lower(&mut self) {
        let lowered = self.weight.lowered_for_restarts();
        self.weight = match self.failed {
            Some(failed) if lowered.value() <= failed.value() => {
                match self.weight.halfway_to(failed) {
                    Some(halfway) => halfway,
                    None => {
                        self.last_try = true;
                        failed
                    }
                }
            }
            _ => lowered,
        };
    }
}

/// Adds one run's counts to the totals; sizes are the largest run's. The
/// per-GPU breakdown and overheads are a single run's notions and are left
/// out.
fn add(totals: &mut SearchStats, run: SearchStats) {
    totals.add_counts(&run);
    totals.bytes_per_node = run.bytes_per_node;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Weight {
        Weight::parse(text).unwrap()
    }

    /// The schedule step by step: no budget before a solution, budgets from
    /// the last improving run, a cut run retried halfway back, never again
    /// as low as a failed weight, a last try without a budget where no
    /// fortieth is left, and the plain schedule again once that try
    /// improves.
    #[test]
    fn cut_runs_are_retried_halfway_and_end_in_a_last_try() {
        let mut s = Schedule::new(w("2"));
        assert_eq!(s.budget(false), None);
        s.improved(1000);
        assert_eq!(s.budget(true), Some(RETRY_FACTOR * RETRY_FLOOR));
        s.lower();
        assert_eq!(s.weight, w("1.75"));
        s.improved(50_000_000);
        assert_eq!(s.budget(true), Some(RETRY_FACTOR * 50_000_000));
        s.lower();
        assert_eq!(s.weight, w("1.55"));
        // 1.55 runs out of its budget: back to 1.65, halfway to 1.75.
        s.cut();
        assert_eq!((s.weight, s.failed), (w("1.65"), Some(w("1.55"))));
        s.improved(60_000_000);
        // The schedule's next step (1.45) is below the failed 1.55: halfway.
        s.lower();
        assert_eq!(s.weight, w("1.6"));
        s.cut();
        assert_eq!(s.weight, w("1.625"));
        // No fortieth between 1.65 and 1.625: the last try, unbudgeted.
        s.cut();
        assert_eq!(s.weight, w("1.625"));
        assert!(s.last_try);
        assert_eq!(s.budget(true), None);
        // It improves: the schedule goes on below it.
        s.improved(900_000_000);
        assert!(!s.last_try && s.failed.is_none());
        s.lower();
        assert_eq!(s.weight, w("1.625").lowered_for_restarts());
        assert!(s.weight.value() < 1.625);
    }

    /// Followed to the end with every run improving, the schedule reaches
    /// w = 1 (which proves the optimum); with every run after the first cut,
    /// it ends in a last try above the first cut weight.
    #[test]
    fn the_schedule_reaches_one_or_a_last_try() {
        let mut s = Schedule::new(w("3"));
        for _ in 0..40 {
            s.improved(1);
            if s.weight.is_one() {
                break;
            }
            s.lower();
        }
        assert!(s.weight.is_one());
        let mut s = Schedule::new(w("2"));
        s.improved(1);
        s.lower();
        let first_cut = s.weight;
        for _ in 0..40 {
            if s.last_try {
                break;
            }
            s.cut();
        }
        assert!(s.last_try);
        assert!(s.weight.value() >= first_cut.value() && s.weight.value() < 2.0);
    }
}
