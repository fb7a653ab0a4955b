//! Copying a class's arena to the device from the host thread that built
//! it, as it is handed over.
//!
//! The GPU's own thread used to copy every batch's arenas itself, from
//! pageable memory at about 5 GB/s: on 32 host threads at depth 7 those
//! copies were 15.5 s of its 24.4 s and of the run's 27.8 s wall
//! (docs/RESULTS.md), the next bound once the host has cores enough. Each
//! host thread copying its own class's arena spreads the copies over all
//! of them, at a few percent of a class's time; the GPU's thread only
//! gathers the device addresses.
//!
//! Each copy goes through page-locked buffers of the thread's own
//! ([`PinnedStage`]), filled by the thread and copied from by the device
//! while the thread fills the next. Copies straight from the (pageable)
//! arena were tried first: the driver stages those itself, and from 32
//! threads at once they ran at about 1.3 GB/s each, 60 thread-seconds for
//! 77 GB, more than the GPU's thread had spent on them alone
//! (docs/RESULTS.md).
//!
//! Copies stay within a budget of device memory: an arena past it is left
//! to the GPU's thread, which copies it when its batch launches, after the
//! batches before it have freed theirs. So the queue of handed-over classes
//! never fails the proof for want of device memory.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtrMut, DriverError,
};

use crate::gpu_build::{GpuMerger, KeptArena, MergeStats, PinnedStage};
use crate::orderly::{OrderlyTree, Unforce};
use crate::BoggleError;

/// A class's arena on the device. Its bytes count against the uploader's
/// budget until it is dropped, once the kernel that read it is done.
pub(super) struct DeviceArena {
    pub(super) words: CudaSlice<u32>,
    resident: Arc<AtomicU64>,
}

impl Drop for DeviceArena {
    fn drop(&mut self) {
        self.resident
            .fetch_sub(self.words.len() as u64 * 4, Ordering::Relaxed);
    }
}

/// Each host thread's class arena as the GPU filled it ([`KeptArena`]),
/// kept on the device until the class is handed over: its copy then sends
/// only the words forcing appended, or none where the merges of forcing
/// ran on the GPU too ([`KeptArenas::force`]), appending to it. Each is
/// kept with its class's split-order letter sets and order, which decide
/// the tree, so that an arena is only ever copied over its own class's.
/// They lie outside the uploader's budget: one a host thread, as large as
/// its class's arena with the merges on the GPU (the handovers of seed 3's
/// 1,366 4x4 classes of share 1/3 copied 487 GB from them, 357 MB a
/// class). A merge that finds no device memory fails like any other, and
/// the host threads merge from then on.
#[derive(Default)]
pub(super) struct KeptArenas {
    by_thread: Mutex<HashMap<ThreadId, Kept>>,
    /// Each host thread's merger, made at its first force.
    mergers: Mutex<HashMap<ThreadId, GpuMerger>>,
    /// Set at the first merge that failed: the host threads merge from then on.
    merge_failed: AtomicBool,
}

struct Kept {
    masks: Vec<u32>,
    order: Vec<usize>,
    arena: KeptArena,
}

impl KeptArenas {
    /// The calling thread's kept arenas.
    fn mine(&self) -> std::sync::MutexGuard<'_, HashMap<ThreadId, Kept>> {
        // A poisoned lock only means another thread panicked, which ends
        // the proof anyway.
        self.by_thread.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps `arena` for the calling thread's class (of split-order letter
    /// sets `masks` and split order `order`).
    pub(super) fn keep(&self, masks: Vec<u32>, order: Vec<usize>, arena: KeptArena) {
        let me = std::thread::current().id();
        self.mine().insert(
            me,
            Kept {
                masks,
                order,
                arena,
            },
        );
    }

    /// Drops the calling thread's arena: its class is done.
    pub(super) fn forget(&self) {
        self.mine().remove(&std::thread::current().id());
    }

    /// `tree.force(position, letter)` with the merge on the GPU, over the
    /// calling thread's kept arena (`make` gives the thread its merger the
    /// first time): the same tree, word for word
    /// ([`GpuMerger::force`]). None where the thread keeps no arena (its
    /// class's tree was not built on the GPU) or a merge failed: the
    /// thread then forces on the host, and a failed merge's arena is
    /// dropped (the class's copy then comes from the host).
    pub(super) fn force(
        &self,
        tree: &mut OrderlyTree,
        position: u32,
        letter: u8,
        make: impl FnOnce() -> Result<GpuMerger, BoggleError>,
    ) -> Option<(u32, Unforce)> {
        if self.merge_failed.load(Ordering::Relaxed) {
            return None;
        }
        let me = std::thread::current().id();
        let mut kept = self.mine().remove(&me)?;
        let own = self
            .mergers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&me);
        let forced = own.map_or_else(make, Ok).and_then(|mut merger| {
            let forced = merger.force(tree, &mut kept.arena, position, letter);
            self.mergers
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(me, merger);
            forced
        });
        match forced {
            Ok(forced) => {
                self.mine().insert(me, kept);
                Some(forced)
            }
            // Only this class's tree is too large (a class forced far
            // enough, as at low switchovers on seed 3's heavy classes):
            // its arena is dropped and the class merges on the host, while
            // the other threads' classes keep merging on the GPU.
            Err(e @ BoggleError::TooLargeForGpu(_)) => {
                tracing::info!("a class merges on the host: {e}");
                None
            }
            Err(e) => {
                if !self.merge_failed.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "a merge on the GPU failed ({e}): the host threads merge from here on"
                    );
                }
                None
            }
        }
    }

    /// What every host thread's merges on the GPU took.
    pub(super) fn merges(&self) -> MergeStats {
        let mut all = MergeStats::default();
        for merger in self
            .mergers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
        {
            all.add(&merger.stats());
        }
        all
    }

    /// `copy` given the calling thread's arena where it is the class of
    /// `masks` and `order`; the arena stays kept (a class that hands over
    /// again, past `FLUSH_WORDS`, needs it again). The lock is not held
    /// during `copy`.
    pub(super) fn with_own<R>(
        &self,
        masks: &[u32],
        order: &[usize],
        copy: impl FnOnce(Option<&KeptArena>) -> R,
    ) -> R {
        let me = std::thread::current().id();
        let kept = self.mine().remove(&me);
        let own = kept
            .as_ref()
            .filter(|k| k.masks == masks && k.order == order)
            .map(|k| &k.arena);
        let copied = copy(own);
        if let Some(kept) = kept {
            self.mine().insert(me, kept);
        }
        copied
    }
}

/// How many of `arena`'s first words `kept` holds on the device: its
/// class's arena as the GPU filled it and merged into it, which equals the
/// host's up to the shorter of the two (a force undone shortens the host's
/// and leaves the device's words past it, which the next merge writes
/// over).
fn on_device(arena: &[u32], kept: Option<&KeptArena>) -> usize {
    kept.map_or(0, |k| k.len.min(arena.len()))
}

/// Copies arenas to the device from the threads that call it, each copy on
/// a stream of its own (taken from a pool), ordered before the kernels that
/// read it by the context's event tracking (on since the prover made its
/// second stream).
pub(super) struct ArenaUploader {
    ctx: Arc<CudaContext>,
    /// Staging buffers and streams, one set per thread copying at once.
    stagers: Mutex<Vec<Stager>>,
    resident: Arc<AtomicU64>,
    budget: u64,
}

/// The time and bytes of the copies made by one side (the host threads, or
/// the GPU's thread).
#[derive(Default)]
pub(super) struct CopyStats {
    nanos: AtomicU64,
    bytes: AtomicU64,
    kept_bytes: AtomicU64,
}

impl CopyStats {
    /// Seconds in copies so far.
    pub(super) fn seconds(&self) -> f64 {
        self.nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// Bytes copied from the host so far.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Bytes copied on the device so far, from arenas the GPU filled and
    /// kept ([`KeptArena`]).
    pub(super) fn kept_bytes(&self) -> u64 {
        self.kept_bytes.load(Ordering::Relaxed)
    }
}

impl ArenaUploader {
    /// An uploader that keeps at most `budget` bytes of arenas on the
    /// device at once.
    pub(super) fn new(ctx: Arc<CudaContext>, budget: u64) -> ArenaUploader {
        ArenaUploader {
            ctx,
            stagers: Mutex::new(Vec::new()),
            resident: Arc::new(AtomicU64::new(0)),
            budget,
        }
    }

    /// `arena` on the device, or None when it would pass the budget or a
    /// copy failed: then the GPU's thread copies it with its batch (where a
    /// failure is the proof's error).
    /// Where `kept` holds the arena's first words on the device already
    /// (the GPU filled them), only the words after those are copied from
    /// the host; the first are copied on the device.
    pub(super) fn upload(
        &self,
        arena: &[u32],
        kept: Option<&KeptArena>,
        stats: &CopyStats,
    ) -> Option<DeviceArena> {
        let bytes = arena.len() as u64 * 4;
        if bytes == 0 {
            return None;
        }
        if self.resident.fetch_add(bytes, Ordering::Relaxed) + bytes > self.budget {
            self.resident.fetch_sub(bytes, Ordering::Relaxed);
            return None;
        }
        let started = Instant::now();
        let copied = self.copy(arena, kept);
        if copied.is_none() {
            self.resident.fetch_sub(bytes, Ordering::Relaxed);
        } else {
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            stats.nanos.fetch_add(nanos, Ordering::Relaxed);
            let on_device = on_device(arena, kept) as u64 * 4;
            stats.bytes.fetch_add(bytes - on_device, Ordering::Relaxed);
            stats.kept_bytes.fetch_add(on_device, Ordering::Relaxed);
        }
        copied.map(|words| DeviceArena {
            words,
            resident: self.resident.clone(),
        })
    }

    fn copy(&self, arena: &[u32], kept: Option<&KeptArena>) -> Option<CudaSlice<u32>> {
        let pooled = self
            .stagers
            .lock()
            .ok()
            .and_then(|mut stagers| stagers.pop());
        let mut stager = match pooled {
            Some(stager) => stager,
            None => Stager::new(&self.ctx).ok()?,
        };
        let copied = stager.copy(arena, kept).ok();
        if let Ok(mut stagers) = self.stagers.lock() {
            stagers.push(stager);
        }
        copied
    }
}

/// One thread's way to the device: a stream and its page-locked staging
/// (dropped first: its drop waits for the copies queued on the stream).
struct Stager {
    stage: PinnedStage,
    stream: Arc<CudaStream>,
}

impl Stager {
    fn new(ctx: &Arc<CudaContext>) -> Result<Stager, DriverError> {
        Ok(Stager {
            stage: PinnedStage::new(ctx)?,
            stream: ctx.new_stream()?,
        })
    }

    /// `arena` on the device, staged a buffer at a time. The words `kept`
    /// holds (at most the arena's) are copied on the device instead.
    fn copy(
        &mut self,
        arena: &[u32],
        kept: Option<&KeptArena>,
    ) -> Result<CudaSlice<u32>, DriverError> {
        // SAFETY: every word is written by the copies below (the kept
        // words on the device, the rest from the host) before a kernel
        // reads it (the slice's write event, recorded when `base`'s
        // guard drops after the last copy, orders the kernel's stream).
        let mut words = unsafe { self.stream.alloc::<u32>(arena.len()) }?;
        let on_device = on_device(arena, kept);
        if let Some(kept) = kept.filter(|_| on_device > 0) {
            self.stream.memcpy_dtod(
                &kept.words.slice(0..on_device),
                &mut words.slice_mut(0..on_device),
            )?;
        }
        {
            let (base, _write) = words.device_ptr_mut(&self.stream);
            let base = base + (on_device * std::mem::size_of::<u32>()) as u64;
            // SAFETY: the destination range lies inside `words`, which no
            // kernel reads before the write event recorded (as `_write`
            // drops) after the copies.
            unsafe { self.stage.upload(&self.stream, &arena[on_device..], base) }?;
        }
        Ok(words)
    }
}
