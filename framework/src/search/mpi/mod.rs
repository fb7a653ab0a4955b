//! HDA* across processes and hosts over MPI: one rank per core, every
//! state owned by the rank its [`Partitioner`](crate::Partitioner) names, launched as
//! `mpirun -np N frontier solve ... --executor mpi-hda`.
//!
//! Each rank runs A* on its own open list and closed table. A child owned
//! by another rank is packed ([`PackedState`](crate::PackedState)) into that rank's outbox and
//! sent in batches with non-blocking sends; receivers probe for batches
//! while they work. States are routed exactly as the thread executor
//! routes them: the partitioner sorts states into 4096 buckets and rank `r`
//! of `N` owns a contiguous range of buckets, so `--partition split` means
//! the same partition on threads and on ranks.
//!
//! Ranks stay on one f-layer, as the thread executor does with
//! `max_lead: Some(0)`: a rank expands only states with f at most the
//! current layer `F`. Everything global is decided by votes, non-blocking
//! all-reductions of a few counters (states sent and received, expansions,
//! bytes, each rank's lowest open f, its best goal, its clock). A rank
//! votes when it has nothing left at f ≤ F, and every `vote_every` seconds
//! while busy (for limits, progress and the incumbent); there is one vote
//! in flight at a time, and every rank takes the same decision from the
//! same reduced numbers:
//!
//! - the incumbent is the cheapest goal of any rank;
//! - when no state is in flight and the lowest f anywhere is at least the
//!   incumbent, the incumbent is optimal (or, with neither, there is no
//!   solution); when no state is in flight and the lowest f is above `F`,
//!   the next layer starts there;
//! - a limit reached by the summed expansions or bytes, or the slowest
//!   clock, ends the search.
//!
//! "No state in flight" is checked without stopping anyone. Every batch
//! carries its sender's epoch, the number of votes the sender had entered
//! when it sent. A rank entering its `k`-th vote reports every state it
//! has sent, and the states it has received from epochs up to `k`: a batch
//! from a later epoch was sent after its sender entered this vote. If the
//! sums agree, every state sent before its sender voted had arrived before
//! its receiver voted. A state sent after its sender voted comes from work
//! at f ≤ F, which that sender either held when voting (so its reported
//! lowest f is at most F) or received after voting (a batch that either
//! makes the sums disagree or was itself sent after a vote); so when the
//! sums agree and every lowest f is above `F`, the layer is done.
//! Ranks keep working, sending and receiving while a vote is pending.
//!
//! At the end the ranks exchange message counts and receive what is still
//! addressed to them, then follow the goal's parents from rank to rank by
//! broadcasts from each node's owner; every rank returns the same path,
//! replayed on the domain to recover the moves. Statistics are gathered on
//! every rank. A rank that fails mid-search aborts the whole job: the
//! others would otherwise wait for its votes forever.

#[cfg(feature = "mpi")]
mod comm;
#[cfg(feature = "mpi")]
mod executor;

#[cfg(feature = "mpi")]
pub use comm::{abort, all_gather_bytes, finalize, init, rank_and_size};
#[cfg(feature = "mpi")]
pub use executor::mpi_hda;

use serde::{Deserialize, Serialize};

/// Parameters of [`mpi_hda`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MpiHdaConfig {
    /// States per message.
    pub batch: usize,
    /// The partitioner by name, resolved by the domain as for `Hda`.
    pub partition: String,
    /// Seconds between votes while a rank is busy: how often limits are
    /// checked, goals shared and progress reported.
    pub vote_every: f64,
    /// Between f-layers, moves buckets of states from the busiest ranks to
    /// the idlest, as `Hda`'s `rebalance` does between threads. Never
    /// affects the cost returned.
    pub rebalance: bool,
}

impl Default for MpiHdaConfig {
    fn default() -> Self {
        MpiHdaConfig {
            batch: 256,
            partition: "hash".into(),
            vote_every: 0.1,
            rebalance: true,
        }
    }
}

/// Whether this process was started by an MPI launcher (`mpirun`,
/// `mpiexec`, `srun`): they all set one of these variables.
pub fn launched_by_mpirun() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_RANK",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|name| std::env::var_os(name).is_some())
}

#[cfg(not(feature = "mpi"))]
mod without_mpi {
    use super::MpiHdaConfig;
    use crate::search::{DomainOutcome, SearchOptions};
    use crate::{Error, Heuristic, PackedState, Partitioner};

    fn unavailable() -> Error {
        Error::ExecutorUnavailable {
            executor: "mpi-hda",
            reason: "this frontier was built without MPI; build it with `--features mpi` \
                     (needs libopenmpi-dev and libclang-dev)"
                .into(),
        }
    }

    /// Without the `mpi` feature: fails, saying how to build with it.
    pub fn init() -> Result<(), Error> {
        Err(unavailable())
    }

    /// Without the `mpi` feature there is nothing to finalize.
    pub fn finalize() {}

    /// Without the `mpi` feature there are no ranks.
    pub fn rank_and_size() -> Option<(usize, usize)> {
        None
    }

    /// Without the `mpi` feature there is one process: its own bytes.
    pub fn all_gather_bytes(mine: &[u8]) -> Vec<Vec<u8>> {
        vec![mine.to_vec()]
    }

    /// Without the `mpi` feature: fails, saying how to build with it.
    pub fn mpi_hda<D: PackedState, H: Heuristic<D>, P: Partitioner<D>>(
        _: &D,
        _: &H,
        _: &P,
        _: &MpiHdaConfig,
        _: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error> {
        Err(unavailable())
    }
}
#[cfg(not(feature = "mpi"))]
pub use without_mpi::{all_gather_bytes, finalize, init, mpi_hda, rank_and_size};
