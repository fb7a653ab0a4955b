//! Copies between a host thread's memory and the device through two
//! page-locked buffers of the thread's own: the device copies one buffer
//! while the thread fills (or empties) the other.
//!
//! Copies from or into pageable memory are staged by the driver, and from
//! many host threads at once they slow each other: a proof's uploads ran
//! at about 1.3 GB/s a thread from 32 threads (docs/RESULTS.md). The
//! uploads and the merges' read-backs go through these buffers. The trees'
//! read-backs do not: through them they took twice as long (seed 1's 256
//! 4x4 classes: 36-39 host thread-seconds against 15-16), since the thread
//! then copies every word once more.

use std::sync::Arc;

use frontier_core::gpu::cudarc::driver::sys::{CUdeviceptr, CUevent_flags};
use frontier_core::gpu::cudarc::driver::{
    result, CudaContext, CudaEvent, CudaStream, CudaView, DevicePtr, DriverError, PinnedHostSlice,
};

/// Words of one staging buffer (16 MiB): large enough that a copy's setup
/// is small beside it, small enough that 32 threads' pairs stay near a
/// gigabyte of page-locked memory.
const STAGE_WORDS: usize = 1 << 22;

/// Two page-locked buffers, each with an event recorded after the last
/// copy that used it, and whether that copy may still run. The events are
/// made once: making one per copy, beside 16 host threads' driver calls,
/// took about 12 ms a copy, three quarters of the merges' read-back (seed
/// 1's 256 4x4 classes: 86-90 host thread-seconds, 23-24 with the events
/// made once; docs/RESULTS.md, "The stages' events made once").
pub(crate) struct PinnedStage {
    buffers: [PinnedHostSlice<u32>; 2],
    copied: [CudaEvent; 2],
    pending: [bool; 2],
    /// Seconds the thread waited for the device's copies, queued them,
    /// and copied between the buffers and its own memory, so far.
    pub(crate) wait_seconds: f64,
    pub(crate) queue_seconds: f64,
    pub(crate) copy_seconds: f64,
}

impl PinnedStage {
    /// Two buffers of [`STAGE_WORDS`] words.
    pub(crate) fn new(ctx: &Arc<CudaContext>) -> Result<PinnedStage, DriverError> {
        // SAFETY: a buffer is only copied from after this thread wrote the
        // words copied, and only read after the device wrote them.
        let buffers = unsafe {
            [
                ctx.alloc_pinned(STAGE_WORDS)?,
                ctx.alloc_pinned(STAGE_WORDS)?,
            ]
        };
        let event = || ctx.new_event(Some(CUevent_flags::CU_EVENT_DISABLE_TIMING));
        Ok(PinnedStage {
            buffers,
            copied: [event()?, event()?],
            pending: [false, false],
            wait_seconds: 0.0,
            queue_seconds: 0.0,
            copy_seconds: 0.0,
        })
    }

    /// Waits for the last copy that used buffer `at`.
    fn free(&mut self, at: usize) -> Result<(), DriverError> {
        if !self.pending[at] {
            return Ok(());
        }
        let started = std::time::Instant::now();
        self.copied[at].synchronize()?;
        self.pending[at] = false;
        self.wait_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Records, on `stream`, the event after the copy just queued there
    /// with buffer `at`.
    fn queued(&mut self, stream: &Arc<CudaStream>, at: usize) -> Result<(), DriverError> {
        self.copied[at].record(stream)?;
        self.pending[at] = true;
        Ok(())
    }

    /// Queues on `stream` the copy of `words` to the device from address
    /// `to` on; returns when the last of them is staged (the copies may
    /// still run: a later use of this stage or its drop waits for them).
    ///
    /// # Safety
    /// `to` must have room for `words`, and nothing may read it before the
    /// copies on `stream` are done.
    pub(crate) unsafe fn upload(
        &mut self,
        stream: &Arc<CudaStream>,
        words: &[u32],
        to: CUdeviceptr,
    ) -> Result<(), DriverError> {
        for (k, chunk) in words.chunks(STAGE_WORDS).enumerate() {
            let at = k % 2;
            self.free(at)?;
            let started = std::time::Instant::now();
            let staged = &mut self.buffers[at].as_mut_slice()?[..chunk.len()];
            staged.copy_from_slice(chunk);
            self.copy_seconds += started.elapsed().as_secs_f64();
            let offset = (k * STAGE_WORDS * std::mem::size_of::<u32>()) as u64;
            // SAFETY: `staged` is page-locked and stays untouched until the
            // event recorded after this copy has passed (`free` above); the
            // caller vouches for the destination.
            unsafe { result::memcpy_htod_async(to + offset, staged, stream.cu_stream()) }?;
            self.queued(stream, at)?;
        }
        Ok(())
    }

    /// `from`'s words appended to `into`, on `stream` after what is queued
    /// there; returns when they are all in `into`. Appending, not copying
    /// over: the caller need not zero words only to have them overwritten.
    pub(crate) fn download_appending(
        &mut self,
        stream: &Arc<CudaStream>,
        from: &CudaView<'_, u32>,
        into: &mut Vec<u32>,
    ) -> Result<(), DriverError> {
        into.reserve(from.len());
        // The guard orders `stream` after the writes to `from` and keeps
        // it readable until it drops, after the last copy below.
        let (base, _reading) = from.device_ptr(stream);
        let mut waiting: Option<(usize, usize)> = None;
        for (k, first) in (0..from.len()).step_by(STAGE_WORDS).enumerate() {
            let words = STAGE_WORDS.min(from.len() - first);
            let at = k % 2;
            self.free(at)?;
            let started = std::time::Instant::now();
            let staged = &mut self.buffers[at].as_mut_slice()?[..words];
            let offset = (first * std::mem::size_of::<u32>()) as u64;
            // SAFETY: `staged` is page-locked and read only after the event
            // recorded after this copy has passed (`free` below); the
            // source range lies inside `from`.
            unsafe { result::memcpy_dtoh_async(staged, base + offset, stream.cu_stream()) }?;
            self.queued(stream, at)?;
            self.queue_seconds += started.elapsed().as_secs_f64();
            // The chunk before this one is emptied while this one copies.
            if let Some((before, words)) = waiting.replace((at, words)) {
                self.empty(before, words, into)?;
            }
        }
        if let Some((before, words)) = waiting {
            self.empty(before, words, into)?;
        }
        Ok(())
    }

    /// Buffer `at`'s first `words` words appended to `into`, once its copy
    /// is done.
    fn empty(&mut self, at: usize, words: usize, into: &mut Vec<u32>) -> Result<(), DriverError> {
        self.free(at)?;
        let started = std::time::Instant::now();
        into.extend_from_slice(&self.buffers[at].as_slice()?[..words]);
        self.copy_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }
}

impl Drop for PinnedStage {
    /// The buffers are freed after this: no copy may be left using them.
    fn drop(&mut self) {
        for (copied, _) in self.copied.iter().zip(self.pending).filter(|(_, p)| *p) {
            let _ = copied.synchronize();
        }
    }
}
