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
//! Copies stay within a budget of device memory: an arena past it is left
//! to the GPU's thread, which copies it when its batch launches, after the
//! batches before it have freed theirs. So the queue of handed-over classes
//! never fails the proof for want of device memory.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use frontier_core::gpu::cudarc::driver::{CudaContext, CudaSlice, CudaStream};

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

/// Copies arenas to the device from the threads that call it, each copy on
/// a stream of its own (taken from a pool), ordered before the kernels that
/// read it by the context's event tracking (on since the prover made its
/// second stream).
pub(super) struct ArenaUploader {
    ctx: Arc<CudaContext>,
    streams: Mutex<Vec<Arc<CudaStream>>>,
    resident: Arc<AtomicU64>,
    budget: u64,
    nanos: AtomicU64,
    bytes: AtomicU64,
}

impl ArenaUploader {
    /// An uploader that keeps at most `budget` bytes of arenas on the
    /// device at once.
    pub(super) fn new(ctx: Arc<CudaContext>, budget: u64) -> ArenaUploader {
        ArenaUploader {
            ctx,
            streams: Mutex::new(Vec::new()),
            resident: Arc::new(AtomicU64::new(0)),
            budget,
            nanos: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        }
    }

    /// `arena` on the device, or None when it would pass the budget or a
    /// copy failed: then the GPU's thread copies it with its batch (where a
    /// failure is the proof's error).
    pub(super) fn upload(&self, arena: &[u32]) -> Option<DeviceArena> {
        let bytes = arena.len() as u64 * 4;
        if bytes == 0 {
            return None;
        }
        if self.resident.fetch_add(bytes, Ordering::Relaxed) + bytes > self.budget {
            self.resident.fetch_sub(bytes, Ordering::Relaxed);
            return None;
        }
        let started = Instant::now();
        let copied = self.copy(arena);
        if copied.is_none() {
            self.resident.fetch_sub(bytes, Ordering::Relaxed);
        } else {
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.nanos.fetch_add(nanos, Ordering::Relaxed);
            self.bytes.fetch_add(bytes, Ordering::Relaxed);
        }
        copied.map(|words| DeviceArena {
            words,
            resident: self.resident.clone(),
        })
    }

    fn copy(&self, arena: &[u32]) -> Option<CudaSlice<u32>> {
        let pooled = self
            .streams
            .lock()
            .ok()
            .and_then(|mut streams| streams.pop());
        let stream = match pooled {
            Some(stream) => stream,
            None => self.ctx.new_stream().ok()?,
        };
        // SAFETY: the copy below writes every word before any kernel reads
        // them (the slice's write event orders the kernel's stream).
        let mut words = unsafe { stream.alloc::<u32>(arena.len()) }.ok()?;
        // From pageable memory the call returns once the words are staged,
        // so the host's arena may be reused as soon as it returns.
        let copied = stream.memcpy_htod(arena, &mut words).ok();
        if let Ok(mut streams) = self.streams.lock() {
            streams.push(stream);
        }
        copied.map(|()| words)
    }

    /// The host threads' seconds in copies so far.
    pub(super) fn seconds(&self) -> f64 {
        self.nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// Bytes the host threads copied so far.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}
