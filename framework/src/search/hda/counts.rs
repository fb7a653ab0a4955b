//! Per-worker counters of a parallel search and how they add up to the
//! overheads the HDA* literature reports: communication (CO), load
//! balance, per-worker rates. Threads and GPUs fill the same counters.

use serde::Serialize;

use crate::stats::SearchStats;

/// What one worker (a thread, a GPU) did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WorkerCounts {
    /// States expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Successors dropped as known at an equal or better g.
    pub duplicates: u64,
    /// Closed states reopened.
    pub reopened: u64,
    /// States sent to another worker.
    pub sent: u64,
    /// States received inside handed-over buckets (CPU rebalancing).
    pub adopted: u64,
    /// Largest open list.
    pub peak_open: u64,
    /// States held at the end.
    pub stored: u64,
    /// Seconds spent with work to do.
    pub busy_seconds: f64,
}

/// Keeps the per-worker figures of a distributed search, or, with one
/// worker, which sends nothing, drops the overheads of distribution.
pub fn keep_workers(stats: &mut SearchStats, workers: Vec<WorkerCounts>) {
    if workers.len() == 1 {
        stats.communication_overhead = None;
        stats.load_balance = None;
        stats.worker_rates.clear();
    } else {
        stats.workers = workers;
    }
}

/// Adds up the workers of a search that ran `seconds`: totals, the
/// per-worker rates, communication overhead, handoff share and load
/// balance (the busiest worker's expansions over the mean).
pub fn summarize(workers: &[WorkerCounts], seconds: f64) -> SearchStats {
    let mut stats = SearchStats::default();
    let (mut sent, mut adopted) = (0, 0);
    for w in workers {
        stats.expanded += w.expanded;
        stats.generated += w.generated;
        stats.duplicates += w.duplicates;
        stats.reopened += w.reopened;
        stats.peak_open += w.peak_open;
        stats.peak_closed += w.stored;
        stats.worker_rates.push(if seconds > 0.0 {
            w.expanded as f64 / seconds
        } else {
            0.0
        });
        sent += w.sent;
        adopted += w.adopted;
    }
    let share = |n: u64| {
        if stats.generated > 0 {
            n as f64 / stats.generated as f64
        } else {
            0.0
        }
    };
    stats.communication_overhead = Some(share(sent));
    stats.handoff_share = Some(share(adopted));
    let busiest = workers.iter().map(|w| w.expanded).max().unwrap_or(0);
    if stats.expanded > 0 {
        stats.load_balance = Some(busiest as f64 * workers.len() as f64 / stats.expanded as f64);
    }
    stats.finish(seconds);
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_reports_the_busiest_worker_against_the_mean() {
        let worker = |expanded, sent| WorkerCounts {
            expanded,
            generated: 2 * expanded,
            sent,
            ..WorkerCounts::default()
        };
        let stats = summarize(&[worker(300, 60), worker(100, 20)], 2.0);
        assert_eq!(stats.expanded, 400);
        assert_eq!(stats.load_balance, Some(1.5));
        assert_eq!(stats.communication_overhead, Some(0.1));
        assert_eq!(stats.worker_rates, vec![150.0, 50.0]);
        assert_eq!(stats.expansions_per_second, 200.0);
    }
}
