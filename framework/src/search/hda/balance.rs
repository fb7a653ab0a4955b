//! HDA*'s load balancing between f-layers: which buckets the busiest
//! workers hand to the idlest (see the module docs of `hda`).

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

use super::Shared;
use crate::domain::Cost;

/// A bucket to hand over, and the worker to take it.
pub(super) type Handoff = (usize, usize);

/// What the last executed plan saw.
pub(super) struct LastPlan {
    /// `bucket_load` as read then: the next plan balances the work done
    /// since. (Counting per f-layer instead breaks when states of an
    /// earlier layer arrive late, which the gate cannot see coming.)
    pub(super) loads: Vec<u64>,
    /// The expansions it planned from.
    pub(super) work: u64,
}

/// Layers smaller than this many expansions per worker are not worth
/// balancing: their shape says little about the next layer's.
const PLAN_MIN_PER_WORKER: usize = 256;
/// At most this many handoffs per worker and plan.
const PLAN_MOVES_PER_WORKER: usize = 4;

impl Shared {
    /// Plans bucket handoffs from the work done since the last plan (the
    /// layers every worker has finished since): moves buckets from the
    /// busiest worker to the idlest while that narrows the gap. The next
    /// layer's work spreads over buckets much as the last one's did, so this
    /// evens it out before it starts.
    ///
    /// `lowest` is the layer every worker has reached, as read from the
    /// workers' published f. That reading can run ahead of the truth while
    /// states are in flight — often in the first layers, where few states
    /// exist — so a reading only counts as a new layer, and a plan only
    /// happens, with enough work behind it: a minimum per worker, and half
    /// the work of the last plan (a new layer does more work than the one
    /// before it; a reading in the middle of one usually less).
    pub(super) fn plan(&self, lowest: Cost) {
        // One planner at a time; a worker that finds one busy goes on.
        let Ok(mut last) = self.last_plan.try_lock() else {
            return;
        };
        if self.planned_at.load(Relaxed) >= lowest {
            return;
        }
        let workers = self.min_f.len();
        let now: Vec<u64> = self.bucket_load.iter().map(|n| n.load(Acquire)).collect();
        let since: Vec<u64> = now
            .iter()
            .zip(&last.loads)
            .map(|(&now, &then)| now.saturating_sub(then))
            .collect();
        let owner_of = |bucket: usize| self.owner_of[bucket].load(Relaxed) as usize;
        let Some((total, moves)) = plan_moves(&since, owner_of, workers, last.work) else {
            return;
        };
        *last = LastPlan {
            loads: now,
            work: total,
        };
        self.planned_at.store(lowest, Relaxed);
        for (bucket, from_worker, to_worker) in moves {
            if let Ok(mut requests) = self.requests[from_worker].lock() {
                requests.push((bucket, to_worker));
            }
            self.has_requests[from_worker].store(true, Release);
        }
    }
}

/// A plan: the work it balances, and its moves (bucket, from, to).
pub(crate) type Plan = (u64, Vec<(usize, usize, usize)>);

/// Plans bucket handoffs from each bucket's expansions `since` the last
/// plan: moves buckets from the busiest worker to the idlest while that
/// narrows the gap. Returns the work planned from and the moves (bucket,
/// from, to), or `None` when the work is too little to say anything about
/// the next layer (see [`Shared::plan`]). Deterministic: the ranks of
/// `mpi-hda` each compute the same plan from the same counts.
pub(crate) fn plan_moves(
    since: &[u64],
    owner_of: impl Fn(usize) -> usize,
    workers: usize,
    last_work: u64,
) -> Option<Plan> {
    let mut load = vec![0u64; workers];
    let mut buckets = Vec::new();
    for (bucket, &expanded) in since.iter().enumerate() {
        if expanded > 0 {
            let owner = owner_of(bucket);
            load[owner] += expanded;
            buckets.push((expanded, bucket, owner, false));
        }
    }
    let total: u64 = load.iter().sum();
    if total < (workers * PLAN_MIN_PER_WORKER) as u64 || total < last_work / 2 {
        return None;
    }
    let mean = total / workers as u64;
    let mut moves = Vec::new();
    for _ in 0..workers * PLAN_MOVES_PER_WORKER {
        let busiest = (0..workers).max_by_key(|&w| load[w]).unwrap_or(0);
        let idlest = (0..workers).min_by_key(|&w| load[w]).unwrap_or(0);
        // Within 5% of the mean is as even as a layer's noise allows.
        if load[busiest] * 20 <= mean * 21 {
            break;
        }
        let gap = load[busiest] - load[idlest];
        // The bucket that best halves the gap without reversing it.
        let Some(pick) = buckets
            .iter()
            .enumerate()
            .filter(|(_, &(n, _, owner, moved))| owner == busiest && !moved && n < gap)
            .min_by_key(|(_, &(n, ..))| n.abs_diff(gap / 2))
            .map(|(i, _)| i)
        else {
            break;
        };
        let (n, bucket, ..) = buckets[pick];
        // Once per plan: its new owner holds nothing to hand on yet.
        buckets[pick].2 = idlest;
        buckets[pick].3 = true;
        load[busiest] -= n;
        load[idlest] += n;
        moves.push((bucket, busiest, idlest));
    }
    Some((total, moves))
}
