//! The incumbent of a parallel search: the cheapest goal found so far,
//! shared by every worker (threads or GPUs), and when it last improved.
//!
//! Workers prune against [`Incumbent::cost`] (states with f at or above it
//! are never expanded nor sent) and the search ends once nothing open
//! anywhere has f below it. The time of the last improvement gives the
//! termination overhead: the share of the run spent proving, not finding.

use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::sync::Mutex;
use std::time::Instant;

use crate::domain::Cost;

/// The best goal so far, named by the executor's node reference `R`.
pub struct Incumbent<R> {
    cost: AtomicU32,
    /// The goal and the seconds since `started` at which it was recorded.
    best: Mutex<Option<(R, f64)>>,
    started: Instant,
}

impl<R: Copy> Incumbent<R> {
    /// No goal yet; times count from `started`.
    pub fn new(started: Instant) -> Self {
        Incumbent {
            cost: AtomicU32::new(Cost::MAX),
            best: Mutex::new(None),
            started,
        }
    }

    /// The incumbent's cost, `Cost::MAX` while there is none.
    #[inline]
    pub fn cost(&self) -> Cost {
        self.cost.load(SeqCst)
    }

    /// Records `goal` at `cost` if that beats the incumbent; says whether it did.
    pub fn offer(&self, cost: Cost, goal: R) -> bool {
        if cost >= self.cost() {
            return false;
        }
        let Ok(mut best) = self.best.lock() else {
            return false;
        };
        // Re-checked under the lock: another worker may have recorded a
        // cheaper goal meanwhile.
        if cost >= self.cost() {
            return false;
        }
        self.cost.store(cost, SeqCst);
        *best = Some((goal, self.started.elapsed().as_secs_f64()));
        true
    }

    /// The incumbent's goal and when it was found.
    pub fn best(&self) -> Option<(R, f64)> {
        self.best.lock().ok().and_then(|b| *b)
    }

    /// The share of a search of `seconds` that came after the incumbent
    /// last improved: the price of proving it optimal.
    pub fn termination_overhead(&self, seconds: f64) -> Option<f64> {
        let (_, found_at) = self.best()?;
        Some(share_after(found_at, seconds))
    }
}

/// The share of a search of `seconds` that came after `found_at`: the
/// termination overhead of an incumbent found then.
pub fn share_after(found_at: f64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        ((seconds - found_at) / seconds).max(0.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cheaper_goals_replace_the_incumbent() {
        let incumbent = Incumbent::new(Instant::now());
        assert!(incumbent.termination_overhead(1.0).is_none());
        assert!(incumbent.offer(10, 'a'));
        assert!(!incumbent.offer(10, 'b'));
        assert!(!incumbent.offer(12, 'c'));
        assert!(incumbent.offer(9, 'd'));
        assert_eq!(incumbent.cost(), 9);
        assert_eq!(incumbent.best().map(|b| b.0), Some('d'));
        let to = incumbent.termination_overhead(1e6).unwrap();
        assert!(to > 0.99 && to <= 1.0, "{to}");
    }
}
