//! Host memory held by the classes handed over to the GPU's thread.
//!
//! A handed-over class keeps its arena (its forced trees, up to
//! [`crate::handover::FLUSH_WORDS`] words) until the adding-up thread gives
//! it back to the pool. The channel to the GPU's thread holds two classes
//! per host thread, the GPU's thread gathers a batch and keeps one in
//! flight, and the adding-up thread holds up to three more: with 24 host
//! threads on seed 3's heavy 4x4 classes that was more than a 128 GiB host
//! had (the process was killed, docs/RESULTS.md). Counting classes does not
//! bound their bytes, so a host thread waits here before it hands over a
//! class whose arena would take the classes in flight past the budget.
//!
//! The budget is fixed: a quarter of the host's memory kept 24 threads on
//! seed 3's share 1/3 at 90 GB of 125. Letting classes past it while a
//! quarter of the memory was still available took the same run to 102 GB,
//! with no gain measured (docs/RESULTS.md).
//!
//! Waiting cannot deadlock: a class is always let through when nothing is
//! held, and the GPU's thread launches what it has gathered, and reads back
//! the launch in flight, as soon as [`HostBudget::is_wanted`] says a host
//! thread waits, instead of waiting for a full batch.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Bytes of arenas handed over and not yet given back, against a budget.
pub(crate) struct HostBudget {
    budget: u64,
    held: Mutex<Held>,
    freed: Condvar,
    /// Host threads waiting now.
    waiting: AtomicU64,
    /// Times a host thread waited, and the seconds it waited.
    waits: AtomicU64,
    waited_nanos: AtomicU64,
}

#[derive(Default)]
struct Held {
    bytes: u64,
    peak: u64,
}

impl HostBudget {
    /// A budget of `budget` bytes.
    pub(crate) fn new(budget: u64) -> HostBudget {
        HostBudget {
            budget,
            held: Mutex::new(Held::default()),
            freed: Condvar::new(),
            waiting: AtomicU64::new(0),
            waits: AtomicU64::new(0),
            waited_nanos: AtomicU64::new(0),
        }
    }

    /// A budget sized for this host: a quarter of the memory available now
    /// (the arena pool takes another quarter, [`crate::prove::ArenaPool`]),
    /// at least 4 GiB; unbounded where the available memory is unknown.
    pub(crate) fn for_host() -> HostBudget {
        HostBudget::new(
            crate::handover::available_bytes().map_or(u64::MAX, |bytes| (bytes / 4).max(4 << 30)),
        )
    }

    /// Whether a class of `bytes` may go with `held` bytes in flight.
    fn may_take(&self, held: u64, bytes: u64) -> bool {
        held == 0 || held.saturating_add(bytes) <= self.budget
    }

    /// Counts `bytes` as held, first waiting while they would take what is
    /// held past the budget (and something is held: a class larger than
    /// the budget goes alone). Returns whether it waited.
    pub(crate) fn take(&self, bytes: u64) -> bool {
        let mut held = self.lock();
        let waits = !self.may_take(held.bytes, bytes);
        if waits {
            let started = std::time::Instant::now();
            self.waiting.fetch_add(1, Ordering::SeqCst);
            while !self.may_take(held.bytes, bytes) {
                held = self
                    .freed
                    .wait(held)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            self.waits.fetch_add(1, Ordering::Relaxed);
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.waited_nanos.fetch_add(nanos, Ordering::Relaxed);
        }
        held.bytes += bytes;
        held.peak = held.peak.max(held.bytes);
        waits
    }

    /// Gives back `bytes` taken before.
    pub(crate) fn give(&self, bytes: u64) {
        let mut held = self.lock();
        held.bytes = held.bytes.saturating_sub(bytes);
        drop(held);
        self.freed.notify_all();
    }

    /// Whether a host thread waits for bytes to be given back: the GPU's
    /// thread should then launch, and read back, what it holds.
    pub(crate) fn is_wanted(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) > 0
    }

    /// What the budget did, for the log.
    pub(crate) fn summary(&self) -> String {
        let peak = self.lock().peak;
        format!(
            "host budget for classes handed over: peak {:.1} GB of {:.1} GB; host threads waited {} times, {:.1} s",
            peak as f64 * 1e-9,
            self.budget as f64 * 1e-9,
            self.waits.load(Ordering::Relaxed),
            self.waited_nanos.load(Ordering::Relaxed) as f64 * 1e-9
        )
    }

    /// A poisoned lock only means another thread panicked while holding
    /// it, between two plain integer updates: the counts stay usable.
    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_class_past_the_budget_waits_until_bytes_are_given_back() {
        let budget = Arc::new(HostBudget::new(100));
        assert!(!budget.take(60), "nothing held: no wait");
        assert!(!budget.is_wanted());
        let waiter = {
            let budget = Arc::clone(&budget);
            std::thread::spawn(move || budget.take(50))
        };
        // The waiter must be counted before anything is given back.
        while !budget.is_wanted() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(!waiter.is_finished());
        budget.give(60);
        let waited = waiter
            .join()
            .expect("the waiter ends once bytes are given back");
        assert!(waited, "the waiter says it waited");
        assert!(!budget.is_wanted());
        assert!(
            budget.summary().contains("waited 1 times"),
            "{}",
            budget.summary()
        );
    }

    #[test]
    fn a_class_larger_than_the_budget_goes_alone() {
        let budget = HostBudget::new(100);
        assert!(!budget.take(500));
        budget.give(500);
        assert!(!budget.take(30));
        assert!(!budget.take(70));
        assert!(
            budget.summary().contains("peak 0.0 GB"),
            "{}",
            budget.summary()
        );
        assert_eq!(budget.lock().peak, 500);
        assert_eq!(budget.lock().bytes, 100);
    }
}
