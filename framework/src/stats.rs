//! Counters every executor fills in, so numbers that matter are printed by
//! the tool itself.

use serde::Serialize;

/// What a search did. Parallel executors sum the per-worker counters and fill
/// in the overhead ratios; sequential ones leave those `None`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SearchStats {
    /// States taken off an open list and expanded.
    pub expanded: u64,
    /// Successors produced by `expand`.
    pub generated: u64,
    /// Successors already known at an equal or better g (dropped).
    pub duplicates: u64,
    /// Closed states put back on open because a cheaper path reached them
    /// (only with an inconsistent heuristic).
    pub reopened: u64,
    /// Largest number of entries on the open list(s) at once.
    pub peak_open: u64,
    /// Largest number of states in the closed table(s).
    pub peak_closed: u64,
    /// Wall-clock seconds of the search (excluding heuristic set-up).
    pub seconds: f64,
    /// `expanded / seconds`.
    pub expansions_per_second: f64,
    /// Estimated peak bytes held by open and closed structures.
    pub peak_bytes: u64,
    /// Per-worker expansions/s, for parallel executors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub worker_rates: Vec<f64>,
    /// Search overhead: parallel expansions / sequential A* expansions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_overhead: Option<f64>,
    /// Communication overhead: states sent to another worker / generated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub communication_overhead: Option<f64>,
    /// States handed to another worker with their bucket by HDA*'s load
    /// balancing / generated: communication beside `communication_overhead`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff_share: Option<f64>,
    /// Termination overhead: share of wall time after the optimal solution
    /// was first found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination_overhead: Option<f64>,
    /// The busiest worker's expansions over the mean (1.0 is perfect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_balance: Option<f64>,
    /// Pieces of subtrees a busy thread handed to an idle one at the end
    /// of an iteration (CPU IDA*; see `search::donation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub donations: Option<u64>,
    /// Device bytes per node the arena and heaps can hold (GPU executors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes_per_node: Option<f64>,
    /// Each worker's (thread's, GPU's) own counters, for parallel executors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<crate::search::hda::WorkerCounts>,
    /// IDA*'s iterations completed in this run, in order: what each one's
    /// bound cost in nodes (the iteration that finds the goal is not
    /// complete, and not listed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iterations: Vec<IterationCount>,
    /// A proven lower bound on the optimal cost, from searches that need
    /// not prove the optimum (weighted, greedy, anytime, beam): the
    /// solution costs at most `cost / lower_bound` times the optimum, and
    /// is optimal where the two are equal. `None` from A\*'s order, whose
    /// solutions are optimal. Every executor stopped by a limit before any
    /// solution gives what it proved so far (the least f left unexpanded,
    /// in transit included; IDA\*'s bound of the iteration in progress),
    /// except GA\* after a memory limit, which drops children.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<crate::Cost>,
    /// Each improved solution of a weighted or anytime search, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub improvements: Vec<crate::search::Improvement>,
    /// The limit that stopped a search which still returned its best
    /// solution (anytime, weighted HDA\*, IDA\* below a beam): the
    /// solution is what the search had, and a longer run may find a
    /// cheaper one or prove it. `None` where the search ended on its own,
    /// or returned [`crate::search::Status::LimitReached`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<crate::search::Limit>,
}

/// One completed IDA* iteration.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IterationCount {
    /// Its f bound.
    pub bound: crate::Cost,
    /// Nodes it expanded.
    pub expanded: u64,
    /// Nodes it generated.
    pub generated: u64,
}

impl SearchStats {
    /// Records the solution of a search that does not claim optimality
    /// (weighted, anytime, beam, stopped by a limit): its proven lower bound,
    /// and the solution as the last improvement unless it is one already
    /// (an anytime search records each as it finds it).
    pub fn bound_solution(
        &mut self,
        seconds: f64,
        cost: crate::Cost,
        lower: crate::Cost,
        weight: f64,
    ) {
        self.lower_bound = Some(lower);
        if self.improvements.last().map(|i| i.cost) != Some(cost) {
            self.improvements.push(crate::search::Improvement {
                seconds,
                cost,
                lower_bound: lower,
                expanded: self.expanded,
                weight,
            });
        }
    }

    /// Adds another run's work to this one's: counts summed, peak sizes
    /// the larger. Seconds, rates and a run's own breakdown (workers,
    /// overheads, bounds) are the caller's to combine.
    pub fn add_counts(&mut self, run: &SearchStats) {
        self.expanded += run.expanded;
        self.generated += run.generated;
        self.duplicates += run.duplicates;
        self.reopened += run.reopened;
        self.peak_open = self.peak_open.max(run.peak_open);
        self.peak_closed = self.peak_closed.max(run.peak_closed);
        self.peak_bytes = self.peak_bytes.max(run.peak_bytes);
    }

    /// Sets `seconds` and the derived rate.
    pub fn finish(&mut self, seconds: f64) {
        self.seconds = seconds;
        self.expansions_per_second = if seconds > 0.0 {
            self.expanded as f64 / seconds
        } else {
            0.0
        };
    }
}
