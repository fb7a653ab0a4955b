//! IDA\* below an incumbent: a beam's solution first, then a proof that
//! nothing is cheaper.
//!
//! IDA\* proves an optimum C\* by searching every path with f below it,
//! then finds a goal inside the iteration at C\*, which is the largest (on
//! the 24-puzzle several times all the earlier ones together). Where a
//! solution of cost U is known beforehand, the iterations below U are the
//! whole proof: once the next bound reaches U no path is cheaper, and the
//! known solution is optimal. A beam finds such a solution in a fraction
//! of the time (on DeepCubeA's 24-puzzles, a path of the optimal length
//! on most boards); where its cost is above the optimum IDA\* finds the
//! optimum as usual, in an iteration below U.
//!
//! Why it holds: each completed iteration of bound b ended without a goal,
//! so every path costs more than b, and the next bound is the least f
//! above b that the iteration met, at most C\* with an admissible
//! heuristic. So a next bound ≥ U means C\* ≥ U, and the beam's path,
//! replayed by the caller like any other, costs U: it is optimal. The
//! beam itself claims nothing; it only sets U.

use std::time::Instant;

use crate::domain::{Cost, Domain};
use crate::search::{or_best, DomainOutcome, Order, Outcome, SearchOptions, Status};
use crate::Error;

/// Runs `beam` (a beam of `width`, under the caller's limits), then
/// `prove` with the beam's cost as its ceiling (`None` where the beam
/// found no goal) and the limits left. `prove` is IDA\* with that
/// ceiling: a `NoSolution` from it under a ceiling makes the beam's
/// solution the optimum. The counts and seconds are those of both. A
/// limit that stops the search after the beam found a solution returns
/// that solution, bounded by IDA\*'s bound (or the beam's, where IDA\* had
/// no time), with `stopped_by` naming the limit.
pub fn below_a_beam<D: Domain>(
    width: u64,
    options: &SearchOptions,
    beam: impl FnOnce(&SearchOptions) -> Result<DomainOutcome<D>, Error>,
    prove: impl FnOnce(Option<Cost>, &SearchOptions) -> Result<DomainOutcome<D>, Error>,
) -> Result<DomainOutcome<D>, Error> {
    let started = Instant::now();
    let beamed = beam(&SearchOptions {
        limits: options.limits,
        progress: options.progress.clone(),
        order: Order {
            beam: Some(width),
            ..Order::default()
        },
    })?;
    let incumbent = match beamed.status {
        Status::Solved(solution) => Some(solution),
        // Out of time or expansions already: nothing is left for a proof.
        Status::LimitReached(limit) => {
            return Ok(Outcome {
                status: Status::LimitReached(limit),
                stats: beamed.stats,
            })
        }
        // A beam that ran dry proves nothing: IDA* searches unbounded.
        Status::NoSolution => None,
    };
    let limits = match options.limits.left_after(beamed.stats.expanded, started) {
        Ok(limits) => limits,
        Err(limit) => {
            // No time for IDA*: the beam's solution, bounded by what the
            // beam proved.
            let mut stats = beamed.stats;
            let mut incumbent = incumbent;
            let status = or_best(&mut incumbent, &mut stats, Status::LimitReached(limit));
            return Ok(Outcome { status, stats });
        }
    };
    let ceiling = incumbent.as_ref().map(|s| s.cost);
    let proved = prove(
        ceiling,
        &SearchOptions {
            limits,
            progress: options.progress.clone(),
            order: options.order,
        },
    )?;
    let mut stats = proved.stats;
    stats.expanded += beamed.stats.expanded;
    stats.generated += beamed.stats.generated;
    stats.peak_bytes = stats.peak_bytes.max(beamed.stats.peak_bytes);
    stats.finish(started.elapsed().as_secs_f64());
    let status = match (proved.status, incumbent) {
        // Nothing below the beam's cost: its solution is optimal.
        (Status::NoSolution, Some(solution)) => {
            stats.lower_bound = None;
            Status::Solved(solution)
        }
        // Stopped before the proof: the beam's solution, bounded by IDA*'s
        // bound in progress (every path below it was searched; at most the
        // beam's cost, which IDA* would have stopped at).
        (Status::LimitReached(limit), Some(solution)) => {
            let lower = [stats.lower_bound, beamed.stats.lower_bound]
                .into_iter()
                .flatten()
                .fold(0, Cost::max)
                .min(solution.cost);
            stats.improvements = beamed.stats.improvements;
            stats.bound_solution(started.elapsed().as_secs_f64(), solution.cost, lower, 1.0);
            stats.stopped_by = Some(limit);
            Status::Solved(solution)
        }
        (status, _) => status,
    };
    Ok(Outcome { status, stats })
}
