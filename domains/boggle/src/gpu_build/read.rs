//! Trees filled on the device waiting for their host thread to read them
//! back. A 4×4 tree is about 190 MB, and reading it back took longer than
//! the rest of its build on the GPU (docs/RESULTS.md, "The tree filled on
//! the GPU"): the read is made outside the path sorter's lock, from a
//! buffer of its own, so that the next class's build need not wait for it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use frontier_core::gpu::cudarc::driver::{CudaSlice, CudaStream};
use frontier_core::gpu::gpu_error;

use super::fill::Filled;
use crate::orderly::OrderlyTree;
use crate::BoggleError;

/// Device buffers that filled trees wait in for their host thread to read
/// them back, each with a stream for the read: a 4x4 tree is about 190 MB,
/// and its read need not hold the sorter from the next class.
#[derive(Default)]
pub(super) struct ReadSlots {
    /// The slots free, and how many exist.
    free: Mutex<(Vec<ReadSlot>, usize)>,
    returned: Condvar,
    /// Nanoseconds spent reading trees back, over all threads.
    read_nanos: AtomicU64,
}

/// Trees that may wait to be read back at once; a build waits for a
/// buffer past that.
const READ_SLOTS: usize = 4;

/// A tree's device buffer and the stream that reads it back.
pub(super) struct ReadSlot {
    stream: Arc<CudaStream>,
    /// What the fill writes the arena into.
    pub(super) arena: CudaSlice<u32>,
}

impl ReadSlots {
    /// A free slot: one returned, a new one while fewer than
    /// [`READ_SLOTS`] exist, else the next one returned.
    pub(super) fn take(&self, stream: &Arc<CudaStream>) -> Result<ReadSlot, BoggleError> {
        // A poisoned lock only means another thread panicked, which ends
        // the proof anyway.
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(slot) = free.0.pop() {
                return Ok(slot);
            }
            if free.1 < READ_SLOTS {
                free.1 += 1;
                return Ok(ReadSlot {
                    stream: stream.context().new_stream().map_err(gpu_error)?,
                    arena: stream.alloc_zeros::<u32>(1).map_err(gpu_error)?,
                });
            }
            free = self.returned.wait(free).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Gives `slot` back, for the next build.
    pub(super) fn give(&self, slot: ReadSlot) {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        free.0.push(slot);
        self.returned.notify_one();
    }

    /// Seconds spent reading trees back, over all threads.
    pub(super) fn read_seconds(&self) -> f64 {
        self.read_nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }
}

/// A class's tree built on the GPU ([`super::GpuPathSorter::build`]), waiting on
/// the device to be read back.
pub struct DeviceTree {
    /// None for a class without paths.
    slot: Option<ReadSlot>,
    slots: Arc<ReadSlots>,
    filled: Option<Filled>,
}

impl DeviceTree {
    /// The tree of a class without paths.
    pub(super) fn empty(slots: Arc<ReadSlots>) -> DeviceTree {
        DeviceTree {
            slot: None,
            slots,
            filled: None,
        }
    }

    /// `filled` in `slot`, to be read back.
    pub(super) fn waiting(slot: ReadSlot, slots: Arc<ReadSlots>, filled: Filled) -> DeviceTree {
        DeviceTree {
            slot: Some(slot),
            slots,
            filled: Some(filled),
        }
    }

    /// [`DeviceTree::read_into`], and the device's copy of the arena kept
    /// for the caller (the read slot takes a fresh buffer): a proof that
    /// copies the class's arena to the device later copies only what was
    /// appended to it (`gpu_prove/arena_upload.rs`).
    pub(crate) fn read_keeping(
        mut self,
        tree: &mut OrderlyTree,
    ) -> Result<(u32, Option<KeptArena>), BoggleError> {
        let bound = self.read(tree)?;
        let kept = match (self.slot.as_mut(), self.filled) {
            (Some(slot), Some(filled)) => {
                let fresh = slot.stream.alloc_zeros::<u32>(1).map_err(gpu_error)?;
                Some(KeptArena {
                    words: std::mem::replace(&mut slot.arena, fresh),
                    len: filled.words,
                })
            }
            _ => None,
        };
        Ok((bound, kept))
    }

    /// Reads the tree back into `tree` (its memory reused); returns its
    /// root's bound.
    pub fn read_into(mut self, tree: &mut OrderlyTree) -> Result<u32, BoggleError> {
        // Dropping `self` then gives the slot back.
        self.read(tree)
    }

    fn read(&mut self, tree: &mut OrderlyTree) -> Result<u32, BoggleError> {
        let (Some(slot), Some(filled)) = (self.slot.as_ref(), self.filled) else {
            // No paths: the empty tree, a root of no points.
            let arena = tree.arena_to_fill(1);
            arena[0] = 0;
            tree.set_filled(0, 0, 1);
            return Ok(0);
        };
        let started = std::time::Instant::now();
        let arena = tree.arena_to_fill(filled.words);
        // Straight into the pageable arena: through page-locked buffers
        // (`super::staging`) these reads took twice as long.
        slot.stream
            .memcpy_dtoh(&slot.arena.slice(0..filled.words), arena)
            .map_err(gpu_error)?;
        slot.stream.synchronize().map_err(gpu_error)?;
        tree.set_filled(filled.root, filled.bound, filled.nodes);
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.slots.read_nanos.fetch_add(nanos, Ordering::Relaxed);
        Ok(filled.bound)
    }
}

/// The first `len` words of a class's arena, as the GPU filled them, kept
/// on the device ([`DeviceTree::read_keeping`]).
pub(crate) struct KeptArena {
    pub(crate) words: CudaSlice<u32>,
    pub(crate) len: usize,
}

impl Drop for DeviceTree {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            self.slots.give(slot);
        }
    }
}
