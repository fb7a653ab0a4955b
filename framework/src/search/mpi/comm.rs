//! The MPI calls `mpi-hda` makes, behind types that own their buffers.
//!
//! rsmpi's non-blocking calls borrow their buffers for a lexical scope, but
//! a search keeps sends and reductions in flight across iterations of its
//! loop. So [`Transport`] and [`Vote`] own the buffers of the operations
//! they start and keep them, unmoved and untouched, until `MPI_Test` says
//! MPI is done with them. Blocking and receiving calls go through rsmpi.

use std::os::raw::{c_int, c_void};
use std::sync::Mutex;

use mpi::environment::{Threading, Universe};
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, MatchedReceiveVec, Source};

use crate::Error;

/// The MPI environment, held from [`init`] until [`finalize`]; dropping it
/// finalizes MPI.
static UNIVERSE: Mutex<Option<Universe>> = Mutex::new(None);

/// Starts MPI in this process; later calls do nothing. Outside a launcher
/// this is a job of one rank. The search calls MPI from the thread that
/// runs it, which need not be the main thread, so the library must allow
/// serialized calls from any thread.
pub fn init() -> Result<(), Error> {
    // A poisoned lock only means a panic elsewhere while it was held.
    let mut universe = UNIVERSE.lock().unwrap_or_else(|e| e.into_inner());
    if universe.is_some() || mpi::environment::is_initialized() {
        return Ok(());
    }
    let Some((started, threading)) = mpi::initialize_with_threading(Threading::Serialized) else {
        return Ok(()); // initialized elsewhere in this process meanwhile
    };
    *universe = Some(started);
    match threading {
        Threading::Serialized | Threading::Multiple => Ok(()),
        other => Err(Error::Mpi(format!(
            "the MPI library offers only {other:?} threading; mpi-hda needs Serialized"
        ))),
    }
}

/// Finalizes MPI if [`init`] started it; every rank must call it before
/// exiting normally, after its last MPI call.
pub fn finalize() {
    let universe = UNIVERSE.lock().unwrap_or_else(|e| e.into_inner()).take();
    drop(universe);
}

/// This process's rank and the number of ranks, once MPI is running.
pub fn rank_and_size() -> Option<(usize, usize)> {
    if !mpi::environment::is_initialized() || mpi::environment::is_finalized() {
        return None;
    }
    let world = SimpleCommunicator::world();
    Some((world.rank() as usize, world.size() as usize))
}

/// Ends every rank of the job with exit code `code`. A rank that fails
/// alone must call this: the others would wait for it forever.
pub fn abort(code: i32) -> ! {
    let world = SimpleCommunicator::world();
    // SAFETY: MPI_Abort takes a valid communicator and does not return.
    unsafe {
        ffi::MPI_Abort(world.as_raw(), code);
    }
    // MPI_Abort does not return; should an implementation do so, exit.
    std::process::exit(code)
}

/// Every rank's `mine`, on every rank, in rank order; outside an MPI job
/// (or in a job of one rank) just `mine`. For results that ranks compute
/// in shares and every rank then merges.
pub fn all_gather_bytes(mine: &[u8]) -> Vec<Vec<u8>> {
    use mpi::datatype::PartitionMut;
    use mpi::traits::CommunicatorCollectives;
    if rank_and_size().is_none_or(|(_, size)| size < 2) {
        return vec![mine.to_vec()];
    }
    let world = SimpleCommunicator::world();
    let size = world.size() as usize;
    let length = mine.len() as mpi::Count;
    let mut lengths = vec![0 as mpi::Count; size];
    world.all_gather_into(&length, &mut lengths[..]);
    let displs: Vec<mpi::Count> = lengths
        .iter()
        .scan(0, |at, &n| {
            let here = *at;
            *at += n;
            Some(here)
        })
        .collect();
    let mut all = vec![0u8; lengths.iter().map(|&n| n as usize).sum()];
    world.all_gather_varcount_into(
        mine,
        &mut PartitionMut::new(&mut all[..], &lengths[..], &displs[..]),
    );
    displs
        .iter()
        .zip(&lengths)
        .map(|(&at, &n)| all[at as usize..(at + n) as usize].to_vec())
        .collect()
}

/// Tag of messages carrying states.
pub const STATES: i32 = 1;

/// Point-to-point traffic of one rank: sends in flight with the buffers
/// they read, and receives.
pub struct Transport {
    pub world: SimpleCommunicator,
    pub rank: usize,
    pub size: usize,
    in_flight: Vec<(Vec<u32>, ffi::MPI_Request)>,
    /// Buffers whose sends completed, for reuse.
    pub spare: Vec<Vec<u32>>,
    /// Messages sent to and received from each rank, for the final drain.
    sent_to: Vec<u64>,
    received_from: Vec<u64>,
}

impl Transport {
    /// The world communicator of a running MPI.
    pub fn new() -> Self {
        let world = SimpleCommunicator::world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        Transport {
            world,
            rank,
            size,
            in_flight: Vec::new(),
            spare: Vec::new(),
            sent_to: vec![0; size],
            received_from: vec![0; size],
        }
    }

    /// Starts sending `words` to rank `to`; the buffer is kept until the
    /// send completes.
    pub fn send(&mut self, to: usize, words: Vec<u32>) -> Result<(), Error> {
        let count = c_int::try_from(words.len())
            .map_err(|_| Error::Mpi(format!("a message of {} words is too long", words.len())))?;
        // SAFETY: a null request is a valid initial value; MPI_Isend writes it.
        let mut request: ffi::MPI_Request = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: the buffer's heap allocation stays where it is while the
        // Vec is held in `in_flight`, which it leaves only once MPI_Test
        // reports the send complete (or after `wait_all`).
        let code = unsafe {
            ffi::MPI_Isend(
                words.as_ptr() as *const c_void,
                count,
                ffi::RSMPI_UINT32_T,
                to as c_int,
                STATES,
                self.world.as_raw(),
                &mut request,
            )
        };
        check(code, "MPI_Isend")?;
        self.sent_to[to] += 1;
        self.in_flight.push((words, request));
        Ok(())
    }

    /// Moves the buffers of completed sends to `spare`.
    pub fn reap(&mut self) -> Result<(), Error> {
        let mut i = 0;
        while i < self.in_flight.len() {
            let mut done: c_int = 0;
            // SAFETY: the request came from MPI_Isend and is still active.
            let code = unsafe {
                ffi::MPI_Test(
                    &mut self.in_flight[i].1,
                    &mut done,
                    ffi::RSMPI_STATUS_IGNORE,
                )
            };
            check(code, "MPI_Test")?;
            if done != 0 {
                let (mut words, _) = self.in_flight.swap_remove(i);
                words.clear();
                self.spare.push(words);
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// The next message of states that has arrived, with its sender.
    pub fn receive(&mut self) -> Option<(usize, Vec<u32>)> {
        let matched = self
            .world
            .any_process()
            .immediate_matched_probe_with_tag(STATES)?;
        let from = matched.1.source_rank() as usize;
        let (words, _) = matched.matched_receive_vec::<u32>();
        self.received_from[from] += 1;
        Some((from, words))
    }

    /// Receives every message still addressed to this rank and completes
    /// every send, so that no operation outlives the search. Every rank
    /// calls it at the same point: it exchanges message counts.
    pub fn drain(&mut self, mut take: impl FnMut(usize, Vec<u32>)) -> Result<(), Error> {
        use mpi::traits::CommunicatorCollectives;
        let mut expected = vec![0u64; self.size];
        self.world
            .all_to_all_into(&self.sent_to[..], &mut expected[..]);
        while (0..self.size).any(|r| self.received_from[r] < expected[r]) {
            match self.receive() {
                Some((from, words)) => take(from, words),
                None => {
                    self.reap()?;
                    std::thread::yield_now();
                }
            }
        }
        while !self.in_flight.is_empty() {
            self.reap()?;
            std::thread::yield_now();
        }
        Ok(())
    }
}

/// Numbers summed over the ranks by a [`Vote`].
pub const SUMS: usize = 4;
/// Numbers minimized over the ranks by a [`Vote`].
pub const MINS: usize = 3;

/// What a vote returns: the sums and the minima over every rank.
pub type Reduced = ([u64; SUMS], [u64; MINS]);

/// A non-blocking all-reduce of a few counters: one sum and one minimum
/// reduction, in flight together. The buffers are boxed so that they stay
/// put while the vote is pending, wherever the `Vote` moves.
pub struct Vote {
    sums: Box<([u64; SUMS], [u64; SUMS])>,
    mins: Box<([u64; MINS], [u64; MINS])>,
    requests: [ffi::MPI_Request; 2],
}

impl Vote {
    /// Starts reducing `sums` (added up) and `mins` (least taken) over
    /// every rank of `world`; every rank must start its votes in the same
    /// order.
    pub fn start(
        world: &SimpleCommunicator,
        sums: [u64; SUMS],
        mins: [u64; MINS],
    ) -> Result<Vote, Error> {
        // SAFETY: a null request is a valid initial value.
        let null = unsafe { ffi::RSMPI_REQUEST_NULL };
        let mut vote = Vote {
            sums: Box::new((sums, [0; SUMS])),
            mins: Box::new((mins, [0; MINS])),
            requests: [null, null],
        };
        // SAFETY: the boxed buffers live in the Vote, which is only
        // dropped after `test` has seen both reductions complete (the
        // executor never drops a pending vote except when aborting).
        let codes = unsafe {
            [
                ffi::MPI_Iallreduce(
                    vote.sums.0.as_ptr() as *const c_void,
                    vote.sums.1.as_mut_ptr() as *mut c_void,
                    SUMS as c_int,
                    ffi::RSMPI_UINT64_T,
                    ffi::RSMPI_SUM,
                    world.as_raw(),
                    &mut vote.requests[0],
                ),
                ffi::MPI_Iallreduce(
                    vote.mins.0.as_ptr() as *const c_void,
                    vote.mins.1.as_mut_ptr() as *mut c_void,
                    MINS as c_int,
                    ffi::RSMPI_UINT64_T,
                    ffi::RSMPI_MIN,
                    world.as_raw(),
                    &mut vote.requests[1],
                ),
            ]
        };
        for code in codes {
            check(code, "MPI_Iallreduce")?;
        }
        Ok(vote)
    }

    /// The reduced sums and minima once every rank has voted.
    pub fn test(&mut self) -> Result<Option<Reduced>, Error> {
        let mut done: c_int = 0;
        // SAFETY: both requests came from MPI_Iallreduce (or are null once
        // complete, which MPI_Testall accepts).
        let code = unsafe {
            ffi::MPI_Testall(
                2,
                self.requests.as_mut_ptr(),
                &mut done,
                ffi::RSMPI_STATUSES_IGNORE,
            )
        };
        check(code, "MPI_Testall")?;
        Ok((done != 0).then_some((self.sums.1, self.mins.1)))
    }
}

fn check(code: c_int, call: &str) -> Result<(), Error> {
    if code == ffi::MPI_SUCCESS as c_int {
        Ok(())
    } else {
        Err(Error::Mpi(format!("{call} failed with error code {code}")))
    }
}
