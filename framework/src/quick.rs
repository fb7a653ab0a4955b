//! One-off searches over closures, in the manner of the `pathfinding`
//! crate: no domain type, no heuristic type. The closures become a
//! [`Domain`] and a [`Heuristic`], and every CPU executor runs them.
//!
//! ```
//! // The fewest +1 / ×2 steps from 1 to 100, h = 0 (Dijkstra).
//! let (path, cost) = frontier_core::quick::astar(
//!     1u32,
//!     |&n| [(n + 1, 1), (n * 2, 1)].into_iter().filter(|&(m, _)| m <= 100),
//!     |_| 0,
//!     |&n| n == 100,
//! )
//! .unwrap();
//! assert_eq!(cost, 8);
//! assert_eq!(path.first(), Some(&1));
//! assert_eq!(path.last(), Some(&100));
//! ```

use std::fmt::Debug;
use std::hash::Hash;

use crate::{Cost, Domain, Edge, Heuristic, SearchOptions, StdHasher};

/// Closures as a domain and its heuristic: successors with their edge
/// costs, an admissible lower bound on the cost to a goal, and the goal
/// test.
pub struct Closures<S, F, H, G> {
    start: S,
    successors: F,
    heuristic: H,
    goal: G,
}

impl<S, F, I, H, G> Closures<S, F, H, G>
where
    S: Clone + Eq + Hash + Send + Sync + Debug,
    F: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = (S, Cost)>,
    H: Fn(&S) -> Cost + Send + Sync,
    G: Fn(&S) -> bool + Send + Sync,
{
    /// The domain of these closures, starting at `start`.
    pub fn new(start: S, successors: F, heuristic: H, goal: G) -> Self {
        Closures {
            start,
            successors,
            heuristic,
            goal,
        }
    }
}

impl<S, F, I, H, G> Domain for Closures<S, F, H, G>
where
    S: Clone + Eq + Hash + Send + Sync + Debug,
    F: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = (S, Cost)>,
    H: Fn(&S) -> Cost + Send + Sync,
    G: Fn(&S) -> bool + Send + Sync,
{
    type State = S;
    /// The index of the successor taken, in the closure's order.
    type Move = usize;

    fn start(&self) -> S {
        self.start.clone()
    }

    fn expand(&self, state: &S, out: &mut Vec<Edge<S, usize>>) {
        for (i, (next, cost)) in (self.successors)(state).into_iter().enumerate() {
            out.push(Edge {
                state: next,
                mv: i,
                cost,
            });
        }
    }

    fn is_goal(&self, state: &S) -> bool {
        (self.goal)(state)
    }
}

/// The heuristic closure of a [`Closures`] domain. Not declared
/// consistent: the executors then allow for a closure that is only
/// admissible.
pub struct ClosureHeuristic;

impl<S, F, I, H, G> Heuristic<Closures<S, F, H, G>> for ClosureHeuristic
where
    S: Clone + Eq + Hash + Send + Sync + Debug,
    F: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = (S, Cost)>,
    H: Fn(&S) -> Cost + Send + Sync,
    G: Fn(&S) -> bool + Send + Sync,
{
    fn h(&self, domain: &Closures<S, F, H, G>, state: &S) -> Cost {
        (domain.heuristic)(state)
    }
}

/// A cheapest path from `start` to a state where `goal` holds, with its
/// cost, by A* on one core; `None` when no goal is reachable. Optimal when
/// `heuristic` never overestimates the cost to a goal.
pub fn astar<S, F, I, H, G>(
    start: S,
    successors: F,
    heuristic: H,
    goal: G,
) -> Option<(Vec<S>, Cost)>
where
    S: Clone + Eq + Hash + Send + Sync + Debug,
    F: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = (S, Cost)>,
    H: Fn(&S) -> Cost + Send + Sync,
    G: Fn(&S) -> bool + Send + Sync,
{
    let domain = Closures::new(start, successors, heuristic, goal);
    // Default options have no limit that `Limits::check` could refuse.
    let outcome = crate::astar(&domain, &ClosureHeuristic, &SearchOptions::default()).ok()?;
    outcome.solution().map(|s| (s.states.clone(), s.cost))
}

/// [`astar`] by HDA* on `threads` threads (states hashed to their owner);
/// an error for a thread count [`crate::HdaConfig::check`] refuses.
///
/// ```
/// let (_, cost) = frontier_core::quick::hda(
///     2,
///     1u32,
///     |&n| [(n + 1, 1), (n * 2, 1)].into_iter().filter(|&(m, _)| m <= 100),
///     |_| 0,
///     |&n| n == 100,
/// )?
/// .unwrap();
/// assert_eq!(cost, 8);
/// assert!(frontier_core::quick::hda(0, 1u32, |&n| [(n + 1, 1)], |_| 0, |&n| n == 3).is_err());
/// # Ok::<(), frontier_core::Error>(())
/// ```
pub fn hda<S, F, I, H, G>(
    threads: usize,
    start: S,
    successors: F,
    heuristic: H,
    goal: G,
) -> Result<Option<(Vec<S>, Cost)>, crate::Error>
where
    S: Clone + Eq + Hash + Send + Sync + Debug,
    F: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = (S, Cost)>,
    H: Fn(&S) -> Cost + Send + Sync,
    G: Fn(&S) -> bool + Send + Sync,
{
    let domain = Closures::new(start, successors, heuristic, goal);
    let config = crate::HdaConfig {
        threads,
        ..crate::HdaConfig::default()
    };
    let outcome = crate::hda(
        &domain,
        &ClosureHeuristic,
        &StdHasher,
        &config,
        &SearchOptions::default(),
    )?;
    Ok(outcome.solution().map(|s| (s.states.clone(), s.cost)))
}
