//! Searching an instance from both ends: the instance, then its dual.
//!
//! Some domains can turn the search from the goal back to the start into a
//! forward search of another instance of the same domain, the *dual*
//! instance, whose solutions map back to solutions of the first (sliding
//! tiles relabelled so that the start reads as the goal, a pancake stack's
//! inverse permutation). The dual uses the same heuristic and kernels, yet
//! a search ordered by a heuristic errs in other places from that end: a
//! beam decides first where its heuristic knows least, far from the goal,
//! and the dual's beam decides those steps last. So the better of the two
//! solutions pays where widening one search no longer does (docs/RESULTS.md,
//! "The dual search"). A domain describes its dual with [`DualOf`]; the
//! command line runs the executor on both ([`limits_left`]) and [`merge`]s
//! the outcomes.
//!
//! Why the merged row is sound: its solution is one of the two searches'
//! (the dual's mapped back and replayed by [`DualOf::solution_back`]), and
//! its lower bound is the larger of the two searches' bounds, the dual's
//! lowered by [`DualOf::slack`], each a bound on the same optimum.

use crate::domain::{Cost, Domain};
use crate::search::{DomainOutcome, Limits, Outcome, Solution, Status};
use crate::stats::SearchStats;

/// An instance's dual: the instance to search, and how its solutions and
/// bounds carry back to the original.
pub trait DualOf<D: Domain> {
    /// The dual instance: the same domain, searched with the same heuristic.
    fn instance(&self) -> &D;
    /// A solution of `original` made from `solution`, a solution of the dual
    /// instance, replayed on `original`; `None` if it is not one.
    fn solution_back(
        &self,
        original: &D,
        solution: &Solution<D::State, D::Move>,
    ) -> Option<Solution<D::State, D::Move>>;
    /// How far the original's optimum may lie below the dual's: a lower
    /// bound `l` on the dual's optimum is one of `l - slack` on the
    /// original's (0 where the two optima are equal).
    fn slack(&self) -> Cost;
}

/// The limits left to the dual's search after the original's spent
/// `spent`: the two share one instance's budget. `None` when nothing is
/// left (the dual is then not searched).
pub fn limits_left(limits: &Limits, spent: &SearchStats) -> Option<Limits> {
    let mut left = *limits;
    if let Some(seconds) = limits.max_seconds {
        left.max_seconds = Some(seconds - spent.seconds);
    }
    if let Some(expanded) = limits.max_expanded {
        left.max_expanded = Some(expanded.saturating_sub(spent.expanded));
    }
    let spent_all = left.max_seconds.is_some_and(|s| s <= 0.0) || left.max_expanded == Some(0);
    (!spent_all).then_some(left)
}

/// What `outcome` proves about its instance's optimum: its lower bound, or,
/// from an optimal order (which reports none), its solution's cost.
fn proven<S, M>(outcome: &Outcome<S, M>) -> Option<Cost> {
    outcome
        .stats
        .lower_bound
        .or(outcome.solution().map(|s| s.cost))
}

/// Whether searching the dual after `forward` can still change the row:
/// not once `forward`'s solution is proven optimal
/// ([`Outcome::proven_optimal`], the report's test for "optimal"), since no
/// solution is shorter and no lower bound lies above an optimum. An optimal
/// executor's `--dual` then costs nothing.
pub fn dual_can_improve<S, M>(forward: &Outcome<S, M>) -> bool {
    !forward.proven_optimal()
}

/// One outcome from the original's and the dual's: the shorter solution
/// (the original's on a tie), the larger proven lower bound, the work and
/// time of both. A solution found by either search after a limit cut the
/// other keeps that limit in `stopped_by` (a longer run might find a
/// cheaper one). Fails only if the dual's solution does not map back, a
/// bug of the domain's [`DualOf`].
pub fn merge<D: Domain>(
    original: &D,
    dual: &impl DualOf<D>,
    forward: DomainOutcome<D>,
    backward: DomainOutcome<D>,
) -> Result<DomainOutcome<D>, crate::Error> {
    let lower = match (
        proven(&forward),
        proven(&backward).map(|l| l.saturating_sub(dual.slack())),
    ) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let mapped = match backward.solution() {
        Some(solution) => Some(dual.solution_back(original, solution).ok_or_else(|| {
            crate::Error::Dual("the dual's solution does not map back to the instance".into())
        })?),
        None => None,
    };
    let cut_by = |status: &Status<D::State, D::Move>| match status {
        Status::LimitReached(limit) => Some(*limit),
        _ => None,
    };
    let dual_cut = cut_by(&backward.status);
    let (mut status, mut stats) = (forward.status, forward.stats);
    let forward_cut = cut_by(&status);
    add_work(&mut stats, &backward.stats);
    let shorter = match (&status, mapped) {
        (Status::Solved(kept), Some(m)) => Some(m).filter(|m| m.cost < kept.cost),
        (_, mapped) => mapped,
    };
    if let Some(solution) = shorter {
        let weight = stats.improvements.last().map_or(1.0, |i| i.weight);
        let bound = lower.unwrap_or(0).min(solution.cost);
        stats.bound_solution(stats.seconds, solution.cost, bound, weight);
        status = Status::Solved(solution);
    }
    if let Status::Solved(_) = status {
        stats.stopped_by = stats.stopped_by.or(forward_cut).or(dual_cut);
    }
    stats.lower_bound = lower;
    Ok(DomainOutcome::<D> { status, stats })
}

/// Adds the dual search's work to the original's: counts summed, peaks
/// maxed, the two searches' seconds one after the other.
fn add_work(stats: &mut SearchStats, dual: &SearchStats) {
    stats.add_counts(dual);
    stats.stopped_by = stats.stopped_by.or(dual.stopped_by);
    let seconds = stats.seconds + dual.seconds;
    stats.finish(seconds);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limit;

    /// A toy domain: states are numbers, one move adds one, the goal is
    /// `goal`; its "dual" is itself, with a slack.
    struct Line {
        goal: u32,
    }

    impl Domain for Line {
        type State = u32;
        type Move = ();
        fn start(&self) -> u32 {
            0
        }
        fn expand(&self, state: &u32, out: &mut Vec<crate::Edge<u32, ()>>) {
            out.push(crate::Edge {
                state: state + 1,
                mv: (),
                cost: 1,
            });
        }
        fn is_goal(&self, state: &u32) -> bool {
            *state == self.goal
        }
    }

    struct Same {
        line: Line,
        slack: Cost,
    }

    impl DualOf<Line> for Same {
        fn instance(&self) -> &Line {
            &self.line
        }
        fn solution_back(&self, _: &Line, s: &Solution<u32, ()>) -> Option<Solution<u32, ()>> {
            Some(s.clone())
        }
        fn slack(&self) -> Cost {
            self.slack
        }
    }

    fn solved(cost: Cost, lower: Option<Cost>, expanded: u64) -> DomainOutcome<Line> {
        let stats = SearchStats {
            expanded,
            seconds: 1.0,
            lower_bound: lower,
            ..SearchStats::default()
        };
        DomainOutcome::<Line> {
            status: Status::Solved(Solution {
                cost,
                states: (0..=cost).collect(),
                moves: vec![(); cost as usize],
            }),
            stats,
        }
    }

    #[test]
    fn the_shorter_solution_and_the_larger_bound_are_kept() {
        let dual = Same {
            line: Line { goal: 3 },
            slack: 2,
        };
        let line = Line { goal: 3 };
        // The dual is shorter; its bound 9 - 2 is below the original's 8.
        let merged = merge(&line, &dual, solved(12, Some(8), 5), solved(10, Some(9), 7)).unwrap();
        assert_eq!(merged.solution().map(|s| s.cost), Some(10));
        assert_eq!(merged.stats.lower_bound, Some(8));
        assert_eq!((merged.stats.expanded, merged.stats.seconds), (12, 2.0));
        assert_eq!(merged.stats.improvements.last().map(|i| i.cost), Some(10));
        // The original is kept on a tie; the dual's bound 11 - 2 wins.
        let merged = merge(
            &line,
            &dual,
            solved(10, Some(8), 5),
            solved(10, Some(11), 7),
        )
        .unwrap();
        assert_eq!(merged.stats.lower_bound, Some(9));
        assert!(merged.stats.improvements.is_empty());
        // An optimal order's solution proves its cost.
        let merged = merge(&line, &dual, solved(10, None, 5), solved(12, None, 7)).unwrap();
        assert_eq!(merged.stats.lower_bound, Some(10));
    }

    #[test]
    fn a_proven_optimum_needs_no_dual() {
        // An optimal order's solution, or one whose bound reached its cost.
        assert!(!dual_can_improve(&solved(10, None, 5)));
        assert!(!dual_can_improve(&solved(10, Some(10), 5)));
        // A bound below the cost leaves room; so does no solution at all.
        assert!(dual_can_improve(&solved(10, Some(9), 5)));
        let cut = DomainOutcome::<Line> {
            status: Status::LimitReached(Limit::Time),
            stats: SearchStats::default(),
        };
        assert!(dual_can_improve(&cut));
    }

    #[test]
    fn a_limit_that_cut_either_search_is_named() {
        let dual = Same {
            line: Line { goal: 3 },
            slack: 0,
        };
        let line = Line { goal: 3 };
        let cut = DomainOutcome::<Line> {
            status: Status::LimitReached(Limit::Time),
            stats: SearchStats {
                lower_bound: Some(6),
                ..SearchStats::default()
            },
        };
        let merged = merge(&line, &dual, cut.clone(), solved(10, Some(5), 7)).unwrap();
        assert_eq!(merged.solution().map(|s| s.cost), Some(10));
        assert_eq!(merged.stats.stopped_by, Some(Limit::Time));
        assert_eq!(merged.stats.lower_bound, Some(6));
        let merged = merge(&line, &dual, solved(10, Some(5), 7), cut).unwrap();
        assert_eq!(merged.solution().map(|s| s.cost), Some(10));
        assert_eq!(merged.stats.stopped_by, Some(Limit::Time));
    }

    #[test]
    fn the_dual_gets_what_the_original_left_of_the_limits() {
        let limits = Limits {
            max_seconds: Some(10.0),
            max_expanded: Some(100),
            ..Limits::default()
        };
        let spent = |seconds, expanded| SearchStats {
            seconds,
            expanded,
            ..SearchStats::default()
        };
        let left = limits_left(&limits, &spent(4.0, 30)).unwrap();
        assert_eq!((left.max_seconds, left.max_expanded), (Some(6.0), Some(70)));
        assert!(limits_left(&limits, &spent(10.5, 30)).is_none());
        assert!(limits_left(&limits, &spent(1.0, 100)).is_none());
        assert!(limits_left(&Limits::default(), &spent(1e9, u64::MAX)).is_some());
    }
}
