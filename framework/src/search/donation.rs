//! Work donation for depth-first threads: in an iteration's tail, when the
//! shared list of subtree roots is used up, a thread with nothing left to
//! search waits here, and busy threads hand it part of their own subtree.
//!
//! Roots alone balance most of an iteration, but its end waits for the
//! slowest root: on 16 threads a few heavy roots of the 24-puzzle kept one
//! or two threads busy while the rest idled. Donation moves the unsearched
//! part of a busy thread's shallowest open level to an idle one, so threads
//! finish together. What is donated is a set of subtrees the donor would
//! have searched next, so the iteration searches the same nodes: node
//! counts per iteration do not change, only which thread counts them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Donated work of type `T` under the subtree root it came from, and the
/// threads waiting for it.
pub(crate) struct Pool<T> {
    /// The root index each piece came from, and the piece.
    queue: Mutex<Vec<(u32, T)>>,
    /// Threads waiting in [`Pool::wait`]; changed only under `queue`'s
    /// lock, so that "all idle and nothing queued" is read consistently.
    idle: AtomicUsize,
    /// Pieces in `queue`, readable without the lock.
    queued: AtomicUsize,
    /// Pieces given in all.
    given: AtomicUsize,
    threads: usize,
}

/// How long a waiting thread sleeps between looks at the queue: far below
/// the time a donor takes to notice ([`Pool::wanted`] is read every few
/// thousand expansions), far above a spin's cost to the busy threads.
const NAP: Duration = Duration::from_micros(50);

impl<T> Pool<T> {
    /// A pool for `threads` threads.
    pub(crate) fn new(threads: usize) -> Pool<T> {
        Pool {
            queue: Mutex::new(Vec::new()),
            idle: AtomicUsize::new(0),
            queued: AtomicUsize::new(0),
            given: AtomicUsize::new(0),
            threads,
        }
    }

    /// Whether a waiting thread has nothing queued for it: a busy thread
    /// should donate.
    #[inline]
    pub(crate) fn wanted(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > self.queued.load(Ordering::Relaxed)
    }

    /// Hands `work` (from below root `root`) to a waiting thread.
    pub(crate) fn give(&self, root: u32, work: T) {
        // A poisoned lock means a thread panicked; its panic is re-raised
        // when the threads are joined, so the piece may be dropped.
        if let Ok(mut queue) = self.queue.lock() {
            queue.push((root, work));
            self.queued.fetch_add(1, Ordering::Relaxed);
            self.given.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Waits for a piece of work; `None` once every thread waits with
    /// nothing queued (the iteration is done: no busy thread is left to
    /// donate) or `stop` says so.
    pub(crate) fn wait(&self, stop: impl Fn() -> bool) -> Option<(u32, T)> {
        let mut counted = false;
        loop {
            if stop() {
                return None;
            }
            {
                let Ok(mut queue) = self.queue.lock() else {
                    return None;
                };
                if !counted {
                    self.idle.fetch_add(1, Ordering::Relaxed);
                    counted = true;
                }
                if let Some(piece) = queue.pop() {
                    self.queued.fetch_sub(1, Ordering::Relaxed);
                    self.idle.fetch_sub(1, Ordering::Relaxed);
                    return Some(piece);
                }
                // Every thread is here and nothing is queued: none can give.
                if self.idle.load(Ordering::Relaxed) == self.threads {
                    return None;
                }
            }
            std::thread::sleep(NAP);
        }
    }

    /// Pieces given so far.
    pub(crate) fn given(&self) -> usize {
        self.given.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// Threads that split a counted range by donation count every number
    /// once, and all of them end: the pool's end test lets none go early
    /// (a piece still queued) nor hang (all waiting).
    #[test]
    fn donated_ranges_are_counted_once_and_every_thread_ends() {
        for threads in [1, 2, 4, 8] {
            let pool = Pool::<(u64, u64)>::new(threads);
            let sum = AtomicU64::new(0);
            let count = AtomicU64::new(0);
            pool.give(0, (0, 100_000));
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        while let Some((_, (mut from, mut to))) = pool.wait(|| false) {
                            // The first piece waits for a waiting thread,
                            // so that every run with threads donates.
                            while from == 0 && threads > 1 && !pool.wanted() {
                                std::thread::yield_now();
                            }
                            while from < to {
                                if pool.wanted() && to - from > 1 {
                                    let half = from + (to - from) / 2;
                                    pool.give(0, (half, to));
                                    to = half;
                                }
                                sum.fetch_add(from, Ordering::Relaxed);
                                count.fetch_add(1, Ordering::Relaxed);
                                from += 1;
                            }
                        }
                    });
                }
            });
            assert_eq!(count.into_inner(), 100_000, "{threads} threads");
            assert_eq!(sum.into_inner(), 99_999 * 100_000 / 2, "{threads} threads");
            if threads > 1 {
                assert!(pool.given() > 1, "{threads} threads never donated");
            }
        }
    }
}
