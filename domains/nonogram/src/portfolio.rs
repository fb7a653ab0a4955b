//! A portfolio: several searches race on one puzzle, one per thread, and
//! the first verdict wins.
//!
//! On hard puzzles the time of one conflict-driven search depends on luck
//! (its first guesses), and the depth-first search with probing at every
//! node wins where conflict learning does not (and the other way round).
//! Racers:
//! - thread 0: [`solve_cdcl`](crate::solve_cdcl) as it runs alone;
//! - thread 1: the depth-first search with probing ([`crate::solve`]);
//! - threads 2 and on: [`solve_cdcl`](crate::solve_cdcl) from random guess activities and
//!   phases (seeded by the thread number, so runs repeat).
//!
//! Racers share what they find: every solution goes into one pool, and two
//! distinct solutions from two different racers settle `multiple` at once.
//! A racer that ends its search exhaustively (unique or none) settles the
//! verdict for all. Each racer keeps its own line cache (up to 256 MB,
//! dropped whole when full, and 10 MiB for short lines), so N racers may
//! hold N times that.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::cdcl::solve_cdcl_until;
use crate::puzzle::Puzzle;
use crate::solver::{solve_until, Cutoff, SolveOptions, SolveOutcome, SolveStats, Verdict};

/// What the racers share: the distinct solutions found so far, and whether
/// the race is over.
pub struct Race {
    over: AtomicBool,
    wanted: usize,
    found: Mutex<Vec<Vec<bool>>>,
}

impl Race {
    fn new(wanted: usize) -> Race {
        Race {
            over: AtomicBool::new(false),
            wanted,
            found: Mutex::new(Vec::new()),
        }
    }

    /// Whether every racer should stop.
    pub fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    fn end(&self) {
        self.over.store(true, Ordering::Relaxed);
    }

    /// Adds a solution to the pool; the race is over once the pool holds
    /// as many distinct solutions as were asked for.
    pub fn publish(&self, solution: &[bool]) {
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if !found.iter().any(|s| s == solution) {
            found.push(solution.to_vec());
        }
        if found.len() >= self.wanted {
            self.end();
        }
    }
}

/// Races the searches (see the module docs) on `threads` threads (0: one
/// per core) and returns the first verdict, or what the pool holds when the
/// time limit ends the race.
pub fn solve_portfolio(puzzle: &Puzzle, options: &SolveOptions, threads: usize) -> SolveOutcome {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let wanted = options.max_solutions.max(1);
    let race = Race::new(wanted);
    let started = Instant::now();
    let outcomes: Vec<SolveOutcome> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..threads)
            .map(|racer| {
                let race = &race;
                scope.spawn(move || {
                    let cutoff = |deadline| Cutoff::at(deadline).or_race(Some(race));
                    let outcome = match racer {
                        1 => solve_until(puzzle, options, cutoff),
                        _ => solve_cdcl_until(puzzle, options, racer as u64, cutoff),
                    };
                    if outcome.verdict != Verdict::Unknown {
                        race.end();
                    }
                    outcome
                })
            })
            .collect();
        racers
            .into_iter()
            .filter_map(|racer| racer.join().ok())
            .collect()
    });
    let mut stats = SolveStats::default();
    for outcome in &outcomes {
        stats.add(&outcome.stats);
    }
    let line_solved = outcomes.iter().any(|o| o.line_solved);
    let found = race.found.into_inner().unwrap_or_else(|e| e.into_inner());
    let (solutions, cut_short) = settle(outcomes, found, wanted);
    let mut outcome =
        SolveOutcome::finish(solutions, wanted, cut_short, line_solved, stats, started);
    outcome.solutions.truncate(wanted);
    outcome
}

/// The race's solutions, and whether it was cut short, from the racers'
/// outcomes and the pool. A racer settles it when its search was
/// exhaustive (unique or none) or found all that was asked for; a racer
/// stopped by the race may say `multiple` with fewer solutions than the
/// pool holds, so otherwise the pool answers, cut short — by filling up
/// (then `judge` says multiple) or by the time limit.
fn settle(
    outcomes: Vec<SolveOutcome>,
    pool: Vec<Vec<bool>>,
    wanted: usize,
) -> (Vec<Vec<bool>>, bool) {
    let settled = outcomes.into_iter().find(|o| match o.verdict {
        Verdict::Unique | Verdict::None => true,
        Verdict::Multiple => o.solutions.len() >= wanted,
        Verdict::Unknown => false,
    });
    match settled {
        Some(outcome) => (outcome.solutions, false),
        None => (pool, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_racer_stopped_with_fewer_solutions_than_the_pool_does_not_settle_the_race() {
        let outcome = |verdict, solutions: Vec<Vec<bool>>| SolveOutcome {
            verdict,
            solutions,
            line_solved: false,
            stats: SolveStats::default(),
        };
        let (a, b, c) = (vec![true, false], vec![false, true], vec![true, true]);
        // Stopped by the race after two of three: the pool's three answer.
        let stopped = outcome(Verdict::Multiple, vec![a.clone(), b.clone()]);
        let pool = vec![a.clone(), b.clone(), c.clone()];
        assert_eq!(settle(vec![stopped], pool.clone(), 3), (pool.clone(), true));
        // An exhaustive verdict settles it, as does finding all that was asked.
        let unique = outcome(Verdict::Unique, vec![a.clone()]);
        assert_eq!(
            settle(vec![unique], vec![a.clone()], 3),
            (vec![a.clone()], false)
        );
        let three = outcome(Verdict::Multiple, pool.clone());
        assert_eq!(settle(vec![three], vec![b.clone()], 3), (pool, false));
    }

    #[test]
    fn the_race_ends_at_enough_distinct_solutions() {
        let race = Race::new(2);
        race.publish(&[true, false]);
        race.publish(&[true, false]);
        assert!(!race.is_over(), "one solution found twice is not two");
        race.publish(&[false, true]);
        assert!(race.is_over());
        assert_eq!(race.found.lock().unwrap().len(), 2);
    }
}
