//! One GPU's part of a search: its kernels, node arena, heaps, hash table
//! and exchange buffers, and the launches of one GA* iteration.

use std::time::Instant;

use cudarc::driver::{
    sys, CudaFunction, CudaSlice, DevicePtr, DeviceRepr, LaunchConfig, PushKernelArg,
};

use crate::gpu::{gpu_error, Gpu};
use crate::Error;

/// Control words: see the `CTRL_*` defines in framework/kernels/gastar.cu.
pub(super) const CTRL_INCUMBENT: usize = 0;
pub(super) const CTRL_MIN_F: usize = 1;
pub(super) const CTRL_OVERFLOW: usize = 2;
pub(super) const CTRL_NODES: usize = 3;
pub(super) const CTRL_EXPANDED: usize = 4;
pub(super) const CTRL_GENERATED: usize = 5;
pub(super) const CTRL_SENT: usize = 6;
pub(super) const CTRL_REOPENED: usize = 7;
pub(super) const CTRL_LEAST_F: usize = 8;
pub(super) const CTRL_COUNTS: usize = 9;
/// `CTRL_OVERFLOW` bits.
pub(super) const OVERFLOW_F: u64 = 4;
pub(super) const NO_NODE: u32 = u32::MAX;
/// The largest f a heap key holds (`MAX_F` in gastar.cu).
pub(super) const MAX_F: u32 = 0x7FFE;
/// The most GPUs of one search (`MAX_GPUS` in gastar.cu): the size of the
/// per-sender record counts passed to `ga_dedup` by value.
pub(super) const MAX_GPUS: usize = 64;
/// Threads per block of every engine launch (matches `__launch_bounds__` in gastar.cu).
const BLOCK: u32 = 256;
/// Longest solution path a session can read back.
const MAX_PATH: u32 = 1 << 16;
/// Heap entries per arena node. A node is on a heap at most once at a
/// time, so the heaps never hold more entries than the arena holds nodes.
/// With full expansion the open share of a search is about half
/// (24-puzzle: 0.55), and the spare quarter absorbs heaps that fill faster
/// than the mean; with partial expansion nearly every closed node waits on
/// a heap again for its deferred children, so every node gets an entry.
fn heap_entries_per_node(partial: bool) -> f64 {
    if partial {
        1.0
    } else {
        0.75
    }
}

/// Records each GPU wrote into one receiver's inbox in an iteration, as
/// the `Incoming` struct of gastar.cu (passed by value).
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct Incoming {
    pub count: [u32; MAX_GPUS],
}

// SAFETY: a plain array of u32, laid out as the kernel's struct.
unsafe impl DeviceRepr for Incoming {}

/// Sizes that every shard of a session shares.
pub(super) struct Layout {
    pub words: usize,
    pub max_succ: u32,
    pub heaps: u32,
    pub table_log2: u32,
    pub memory_fraction: f64,
    pub gpus: u32,
    /// Partial expansion (see gastar.cu).
    pub partial: bool,
    /// Inboxes that other processes map through CUDA IPC (`mpi-gpu`)
    /// rather than peers of this process reach over peer access.
    pub ipc: bool,
    /// Children for other GPUs are written into a local staging buffer
    /// and carried by the host (`mpi-gpu` across hosts).
    pub staged: bool,
}

impl Layout {
    /// `u32` words of one exchanged child: state, g, f, parent, sender.
    pub fn record_words(&self) -> usize {
        self.words + 4
    }
    fn slots(&self) -> u32 {
        self.heaps * self.max_succ
    }
}

/// Where another shard's inbox lives, for writing records into it over
/// peer access.
#[derive(Clone, Copy)]
pub(super) struct PeerView {
    ctx: sys::CUcontext,
    device: sys::CUdevice,
    inbox: sys::CUdeviceptr,
}

// SAFETY: a CUcontext handle and device addresses are plain values that the
// driver accepts from any thread; the buffers behind them live as long as
// the session that hands them out.
unsafe impl Send for PeerView {}
unsafe impl Sync for PeerView {}

/// Where a shard's inbox lives: in the device's memory pool, which peers
/// in this process reach over peer access, or in a plain allocation that
/// other processes can map through CUDA IPC (pool memory cannot be
/// exported that way).
enum InboxMemory {
    Pool(CudaSlice<u32>),
    Ipc {
        ptr: sys::CUdeviceptr,
        ctx: std::sync::Arc<cudarc::driver::CudaContext>,
    },
}

impl InboxMemory {
    fn ipc(ctx: &std::sync::Arc<cudarc::driver::CudaContext>, words: u64) -> Result<Self, Error> {
        ctx.bind_to_thread().map_err(gpu_error)?;
        let mut ptr: sys::CUdeviceptr = 0;
        // SAFETY: `ptr` receives a fresh allocation of the bound context.
        let got = unsafe { sys::cuMemAlloc_v2(&mut ptr, (words * 4) as usize) };
        if got != sys::CUresult::CUDA_SUCCESS {
            return Err(Error::Gpu(format!(
                "could not allocate an inbox of {} bytes ({got:?})",
                words * 4
            )));
        }
        Ok(InboxMemory::Ipc {
            ptr,
            ctx: ctx.clone(),
        })
    }

    fn address(&self, stream: &std::sync::Arc<cudarc::driver::CudaStream>) -> u64 {
        match self {
            InboxMemory::Pool(slice) => slice.device_ptr(stream).0,
            InboxMemory::Ipc { ptr, .. } => *ptr,
        }
    }
}

impl Drop for InboxMemory {
    fn drop(&mut self) {
        if let InboxMemory::Ipc { ptr, ctx } = self {
            // Nothing to report to on drop: a failed free leaks device
            // memory until the process ends.
            if ctx.bind_to_thread().is_ok() {
                // SAFETY: `ptr` came from cuMemAlloc_v2 in this context and
                // is freed once.
                let _ = unsafe { sys::cuMemFree_v2(*ptr) };
            }
        }
    }
}

/// A node of a multi-GPU search: (GPU, index in that GPU's arena).
pub(super) type NodeAt = (u32, u32);

pub(super) struct Shard {
    pub gpu: Gpu,
    /// This shard's number: the owner value `partition_owner` gives its states.
    pub index: u32,
    gpus: u32,
    kernels: [CudaFunction; 5],
    /// The order's weight: ga_expand's heap keys (A*'s with `Weight::ONE`).
    pub(super) weight: crate::search::Weight,
    /// Children whose f = g + h reaches it are pruned (an anytime restart's
    /// incumbent from an earlier run; `Cost::MAX` otherwise).
    pub(super) ceiling: crate::domain::Cost,
    words: usize,
    heaps: u32,
    heap_cap: u32,
    slots: u32,
    pub node_cap: u32,
    table_mask: u32,
    /// Device bytes this shard holds.
    pub bytes: u64,
    /// Arena and heap bytes per node the arena can hold.
    pub bytes_per_node: f64,
    partial: bool,
    heap_keys: CudaSlice<u64>,
    heap_size: CudaSlice<u32>,
    states: CudaSlice<u32>,
    parent: CudaSlice<u32>,
    parent_gpus: CudaSlice<u8>,
    child_states: CudaSlice<u32>,
    child_f: CudaSlice<u32>,
    child_g: CudaSlice<u32>,
    child_parent: CudaSlice<u32>,
    child_node: CudaSlice<u32>,
    table: CudaSlice<u64>,
    tables: CudaSlice<u8>,
    partition: CudaSlice<u64>,
    ctrl: CudaSlice<u64>,
    /// `[parity][sender][slots]` records written by the other GPUs (one
    /// word with one GPU).
    inbox: InboxMemory,
    /// Other processes' inboxes mapped through CUDA IPC, closed on drop.
    mapped: Vec<sys::CUdeviceptr>,
    /// With host staging: laid out as an inbox, region `[parity][q]`
    /// holding this iteration's records for GPU `q`.
    staging: Option<CudaSlice<u32>>,
    /// Words of one exchanged record.
    record_words: usize,
    /// Every shard's inbox, as device addresses.
    peer_inboxes: CudaSlice<u64>,
    /// The heap key of each record received in an iteration, senders one
    /// after another; 0 if dropped.
    inbox_key: CudaSlice<u64>,
    path: CudaSlice<u32>,
}

impl Shard {
    /// Loads the kernels on `gpu`, sizes every buffer from its free memory
    /// and uploads the tables. Running out of device memory is an error
    /// naming the sizes, never a crash.
    pub fn new(
        mut gpu: Gpu,
        index: u32,
        source: &str,
        layout: &Layout,
        segments: &[&[u8]],
        partition: &[u64],
    ) -> Result<Shard, Error> {
        let opened = Instant::now();
        // A stream of its own that does not synchronise with the legacy
        // default stream: a peer copy on the default stream waits for the
        // other device's default stream too, and the GPUs then took turns
        // (measured on two H200s: 0.56× one GPU's rate).
        gpu.stream = gpu.ctx.new_stream().map_err(gpu_error)?;
        // SAFETY: each shard uses its buffers on its own stream only; a
        // peer's outbox is read after that peer synchronised its stream and
        // passed the barrier, so cudarc's cross-stream events are not needed.
        unsafe { gpu.ctx.disable_event_tracking() };
        let module = gpu.module(source)?;
        let kernel = |name: &str| module.load_function(name).map_err(gpu_error);
        let kernels = [
            kernel("ga_expand")?,
            kernel("ga_dedup")?,
            kernel("ga_push")?,
            kernel("ga_trace")?,
            kernel("ga_open_least_f")?,
        ];
        tracing::info!(
            gpu = index,
            seconds = opened.elapsed().as_secs_f64(),
            "kernels loaded"
        );
        let s = gpu.stream.clone();
        let words = layout.words;
        let gpus = layout.gpus;
        let slots = layout.slots();
        let heaps = layout.heaps;
        let (inbox_len, inbox_keys) = if gpus > 1 {
            (
                2 * u64::from(gpus) * u64::from(slots) * layout.record_words() as u64,
                u64::from(gpus) * u64::from(slots),
            )
        } else {
            (1, 1)
        };
        let (free, _) = gpu.memory()?;
        let table_slots = 1u64 << layout.table_log2.clamp(10, 31);
        let tables_len = super::tables_len(segments);
        let fixed = table_slots * 8
            + u64::from(slots) * (4 * words as u64 + 16)
            + tables_len as u64
            + 4 * inbox_len
            + 8 * inbox_keys
            + 8 * partition.len() as u64;
        let budget = ((free as f64 * layout.memory_fraction.clamp(0.0001, 0.95)) as u64)
            .saturating_sub(fixed);
        let node_bytes = 4 * words as u64 + 4 + u64::from(gpus > 1);
        let entries_per_node = heap_entries_per_node(layout.partial);
        let per_node = node_bytes as f64 + 8.0 * entries_per_node;
        let node_cap = ((budget as f64 / per_node) as u64).min(u64::from(u32::MAX - 1)) as u32;
        if node_cap < 1024 {
            return Err(Error::Gpu(format!(
                "GPU {index}: only {free} bytes of device memory free, {fixed} needed before any node"
            )));
        }
        let heap_cap = ((f64::from(node_cap) * entries_per_node / f64::from(heaps)) as u64)
            .clamp(16, u64::from(u32::MAX)) as u32;
        let arena_bytes =
            u64::from(node_cap) * node_bytes + u64::from(heaps) * u64::from(heap_cap) * 8;
        let oom = |e| {
            Error::Gpu(format!(
                "GPU {index}: out of device memory ({free} bytes free): {e}"
            ))
        };
        let started = Instant::now();
        // SAFETY: the heap slots, the node arena and the exchange buffers are
        // written before they are read (heap sizes, the hash table and the
        // control words, which say what is valid, are zeroed per instance),
        // so they need no zero-fill, which would cost tens of milliseconds
        // per gigabyte set up.
        let (heap_keys, states, parent, parent_gpus, inbox, inbox_key) = unsafe {
            (
                s.alloc::<u64>(heaps as usize * heap_cap as usize)
                    .map_err(oom)?,
                s.alloc::<u32>(node_cap as usize * words).map_err(oom)?,
                s.alloc::<u32>(node_cap as usize).map_err(oom)?,
                s.alloc::<u8>(if gpus > 1 { node_cap as usize } else { 1 })
                    .map_err(oom)?,
                if layout.ipc {
                    InboxMemory::ipc(&gpu.ctx, inbox_len)?
                } else {
                    InboxMemory::Pool(s.alloc::<u32>(inbox_len as usize).map_err(oom)?)
                },
                s.alloc::<u64>(inbox_keys as usize).map_err(oom)?,
            )
        };
        let partition_table = if partition.is_empty() {
            &[0u64][..]
        } else {
            partition
        };
        let shard = Shard {
            heap_keys,
            heap_size: s.alloc_zeros(heaps as usize).map_err(oom)?,
            states,
            parent,
            parent_gpus,
            child_states: s.alloc_zeros(slots as usize * words).map_err(oom)?,
            child_f: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_g: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_parent: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_node: s.alloc_zeros(slots as usize).map_err(oom)?,
            table: s.alloc_zeros(table_slots as usize).map_err(oom)?,
            tables: super::upload_tables(&s, segments, tables_len).map_err(oom)?,
            partition: s.clone_htod(partition_table).map_err(oom)?,
            ctrl: s
                .alloc_zeros(CTRL_COUNTS + 2 * gpus as usize)
                .map_err(oom)?,
            inbox,
            mapped: Vec::new(),
            staging: if layout.staged && gpus > 1 {
                // SAFETY: a region is read only up to the count the kernel
                // wrote into it.
                Some(unsafe { s.alloc::<u32>(inbox_len as usize) }.map_err(oom)?)
            } else {
                None
            },
            record_words: layout.record_words(),
            peer_inboxes: s.alloc_zeros(gpus as usize).map_err(oom)?,
            inbox_key,
            path: s.alloc_zeros(3 + MAX_PATH as usize * words).map_err(oom)?,
            gpu,
            index,
            gpus,
            kernels,
            weight: crate::search::Weight::ONE,
            ceiling: crate::domain::Cost::MAX,
            words,
            heaps,
            heap_cap,
            slots,
            node_cap,
            table_mask: (table_slots - 1) as u32,
            bytes: arena_bytes + fixed,
            bytes_per_node: arena_bytes as f64 / f64::from(node_cap),
            partial: layout.partial,
        };
        tracing::info!(
            gpu = index,
            name = %shard.gpu.name,
            heaps,
            heap_cap,
            node_cap,
            bytes_per_node = shard.bytes_per_node,
            gigabytes = shard.bytes as f64 / 1e9,
            seconds = started.elapsed().as_secs_f64(),
            "GA* shard allocated"
        );
        Ok(shard)
    }

    /// Where this shard's inbox lives, for the others.
    pub fn peer_view(&self) -> PeerView {
        let inbox = self.inbox.address(&self.gpu.stream);
        PeerView {
            ctx: self.gpu.ctx.cu_ctx(),
            device: self.gpu.ctx.cu_device(),
            inbox,
        }
    }

    /// Lets this shard's kernels write into every other shard's inbox
    /// (peer access over NVLink or PCIe), and uploads their addresses.
    /// Fails where the driver refuses peer access between two of the
    /// devices.
    pub fn connect(&mut self, peers: &[PeerView]) -> Result<(), Error> {
        self.gpu.ctx.bind_to_thread().map_err(gpu_error)?;
        for (i, peer) in peers.iter().enumerate() {
            if peer.ctx == self.gpu.ctx.cu_ctx() {
                continue; // the same device: its memory is ours
            }
            // SAFETY: both are live contexts of this session.
            let result = unsafe { sys::cuCtxEnablePeerAccess(peer.ctx, 0) };
            if !matches!(
                result,
                sys::CUresult::CUDA_SUCCESS | sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
            ) {
                return Err(Error::Gpu(format!(
                    "GPU {} cannot reach GPU {i}'s memory ({result:?}): multi-gpu needs peer access",
                    self.index
                )));
            }
        }
        // cudarc allocates from the device's memory pool (cuMemAllocAsync),
        // whose allocations peer access alone does not expose: the pool
        // must grant the other devices access too.
        let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
        // SAFETY: `pool` receives the default pool of this live device.
        let got = unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, self.gpu.ctx.cu_device()) };
        if got == sys::CUresult::CUDA_SUCCESS {
            for peer in peers
                .iter()
                .filter(|p| p.device != self.gpu.ctx.cu_device())
            {
                let access = sys::CUmemAccessDesc {
                    location: sys::CUmemLocation {
                        type_: sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE,
                        id: peer.device,
                    },
                    flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                };
                // SAFETY: one valid descriptor for a live pool.
                let granted = unsafe { sys::cuMemPoolSetAccess(pool, &access, 1) };
                if granted != sys::CUresult::CUDA_SUCCESS {
                    return Err(Error::Gpu(format!(
                        "GPU {}'s memory pool refuses access to device {} ({granted:?})",
                        self.index, peer.device
                    )));
                }
            }
        }
        let s = self.gpu.stream.clone();
        let inboxes: Vec<u64> = peers.iter().map(|p| p.inbox).collect();
        s.memcpy_htod(&inboxes, &mut self.peer_inboxes)
            .map_err(gpu_error)
    }

    /// The CUDA IPC handle of this shard's inbox (built with `ipc`), for
    /// the other processes of an `mpi-gpu` search.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn inbox_handle(&self) -> Result<[u8; 64], Error> {
        let InboxMemory::Ipc { ptr, .. } = &self.inbox else {
            return Err(Error::Gpu("this shard's inbox is not exportable".into()));
        };
        self.gpu.ctx.bind_to_thread().map_err(gpu_error)?;
        let mut handle = sys::CUipcMemHandle_st { reserved: [0; 64] };
        // SAFETY: `ptr` is a live cuMemAlloc allocation of this context.
        let got = unsafe { sys::cuIpcGetMemHandle(&mut handle, *ptr) };
        if got != sys::CUresult::CUDA_SUCCESS {
            return Err(Error::Gpu(format!("cuIpcGetMemHandle failed ({got:?})")));
        }
        Ok(handle.reserved.map(|c| c as u8))
    }

    /// Maps every other process's inbox from its IPC handle (`handles[i]`
    /// is shard `i`'s) and uploads the addresses, so that this shard's
    /// kernels write children straight into them, as between the GPUs of
    /// one process.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn connect_ipc(&mut self, handles: &[[u8; 64]]) -> Result<(), Error> {
        self.gpu.ctx.bind_to_thread().map_err(gpu_error)?;
        let mut inboxes = Vec::with_capacity(handles.len());
        for (i, handle) in handles.iter().enumerate() {
            if i == self.index as usize {
                inboxes.push(self.inbox.address(&self.gpu.stream));
                continue;
            }
            let handle = sys::CUipcMemHandle_st {
                reserved: handle.map(|b| b as std::ffi::c_char),
            };
            let mut ptr: sys::CUdeviceptr = 0;
            // SAFETY: the handle came from cuIpcGetMemHandle in another
            // process of this job, whose allocation outlives the search
            // (every rank passes a final barrier before freeing it).
            let got = unsafe {
                sys::cuIpcOpenMemHandle_v2(
                    &mut ptr,
                    handle,
                    sys::CUipcMem_flags::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS as u32,
                )
            };
            if got != sys::CUresult::CUDA_SUCCESS {
                return Err(Error::Gpu(format!(
                    "GPU {} cannot map rank {i}'s inbox ({got:?}): mpi-gpu needs the ranks' GPUs on one host with peer access",
                    self.index
                )));
            }
            self.mapped.push(ptr);
            inboxes.push(ptr);
        }
        let s = self.gpu.stream.clone();
        s.memcpy_htod(&inboxes, &mut self.peer_inboxes)
            .map_err(gpu_error)
    }

    /// Unmaps the inboxes `connect_ipc` mapped: before their owners free
    /// them.
    pub fn disconnect_ipc(&mut self) {
        if self.mapped.is_empty() || self.gpu.ctx.bind_to_thread().is_err() {
            return;
        }
        for ptr in self.mapped.drain(..) {
            // SAFETY: each was opened once by cuIpcOpenMemHandle.
            let _ = unsafe { sys::cuIpcCloseMemHandle(ptr) };
        }
    }

    /// Points this shard's kernels at its own staging buffer for every
    /// other GPU: the record the kernel writes at region `[parity][me]` of
    /// GPU `q`'s "inbox" lands in region `[parity][q]` of the staging
    /// buffer, from which the host carries it.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn connect_staged(&mut self) -> Result<(), Error> {
        let s = self.gpu.stream.clone();
        let Some(staging) = &self.staging else {
            return Err(Error::Gpu("this shard has no staging buffer".into()));
        };
        let base = staging.device_ptr(&s).0;
        let region = (u64::from(self.slots) * self.record_words as u64 * 4) as i64;
        let me = i64::from(self.index);
        let inboxes: Vec<u64> = (0..i64::from(self.gpus))
            .map(|q| {
                if q == me {
                    self.inbox.address(&s)
                } else {
                    // Shifted so that the kernel's offset for region
                    // [parity][me] lands on [parity][q]; the sum is in range.
                    base.wrapping_add(((q - me) * region) as u64)
                }
            })
            .collect();
        s.memcpy_htod(&inboxes, &mut self.peer_inboxes)
            .map_err(gpu_error)
    }

    /// The words of the `count` records staged for GPU `to` in iteration
    /// `parity`, appended to `out`.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn staged_for(
        &self,
        parity: u32,
        to: usize,
        count: u32,
        out: &mut Vec<u32>,
    ) -> Result<(), Error> {
        let Some(staging) = &self.staging else {
            return Err(Error::Gpu("this shard has no staging buffer".into()));
        };
        let from = self.region(parity, to);
        let len = count as usize * self.record_words;
        if count > self.slots {
            return Err(Error::Gpu(format!("{count} records staged for GPU {to}")));
        }
        let at = out.len();
        out.resize(at + len, 0);
        self.gpu
            .stream
            .memcpy_dtoh(&staging.slice(from..from + len), &mut out[at..])
            .map_err(gpu_error)
    }

    /// Copies records that GPU `from` staged for this one into region
    /// `[parity][from]` of the inbox, where the dedup kernel reads them.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn receive_staged(&mut self, parity: u32, from: usize, words: &[u32]) -> Result<(), Error> {
        if words.len() > self.slots as usize * self.record_words {
            return Err(Error::Gpu(format!(
                "{} words staged from GPU {from}",
                words.len()
            )));
        }
        let at = self.region(parity, from);
        match &mut self.inbox {
            InboxMemory::Pool(inbox) => self
                .gpu
                .stream
                .memcpy_htod(words, &mut inbox.slice_mut(at..at + words.len()))
                .map_err(gpu_error),
            InboxMemory::Ipc { .. } => Err(Error::Gpu(
                "a staged shard's inbox is in the memory pool".into(),
            )),
        }
    }

    /// Whether children for other GPUs go through the host.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn is_staged(&self) -> bool {
        self.staging.is_some()
    }

    /// The first word of inbox region `[parity][gpu]`.
    fn region(&self, parity: u32, gpu: usize) -> usize {
        ((parity as usize * self.gpus as usize + gpu) * self.slots as usize) * self.record_words
    }

    /// Clears heaps, table and counters; puts `start` (packed) on heap 0
    /// when this shard owns it.
    pub fn reset(&mut self, start: Option<&[u32]>) -> Result<(), Error> {
        let s = self.gpu.stream.clone();
        s.memset_zeros(&mut self.heap_size).map_err(gpu_error)?;
        s.memset_zeros(&mut self.table).map_err(gpu_error)?;
        let mut ctrl = vec![0u64; CTRL_COUNTS + 2 * self.gpus as usize];
        ctrl[CTRL_INCUMBENT] = u64::MAX;
        ctrl[CTRL_MIN_F] = u64::from(u32::MAX);
        ctrl[CTRL_LEAST_F] = u64::from(u32::MAX);
        if let Some(packed) = start {
            s.memcpy_htod(packed, &mut self.states.slice_mut(0..self.words))
                .map_err(gpu_error)?;
            s.memcpy_htod(&[NO_NODE], &mut self.parent.slice_mut(0..1))
                .map_err(gpu_error)?;
            // f = 0, g = 0: it is the only node, so any key pops it first.
            s.memcpy_htod(&[0xFFFFu64 << 32], &mut self.heap_keys.slice_mut(0..1))
                .map_err(gpu_error)?;
            s.memcpy_htod(&[1u32], &mut self.heap_size.slice_mut(0..1))
                .map_err(gpu_error)?;
            ctrl[CTRL_NODES] = 1;
        }
        s.memcpy_htod(&ctrl, &mut self.ctrl).map_err(gpu_error)
    }

    fn per(n: u32) -> LaunchConfig {
        LaunchConfig {
            grid_dim: (n.div_ceil(BLOCK).max(1), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        }
    }

    /// Pops and expands one node per heap; `bound` is the incumbent cost
    /// all GPUs agreed on.
    pub fn expand(&mut self, bound: u32, parity: u32) -> Result<(), Error> {
        let s = self.gpu.stream.clone();
        let (heaps, heap_cap, gpus, me, slots) =
            (self.heaps, self.heap_cap, self.gpus, self.index, self.slots);
        // Partial expansion defers children by unweighted f: A*'s order only.
        let (num, den, greedy) = self.weight.device_ratio();
        let partial = u32::from(self.partial && self.weight.is_one());
        // SAFETY: every pointer argument is a live device allocation sized
        // in `new` for `heaps`, `slots` and `node_cap`; the peers' inboxes
        // hold `slots` records per sender and parity, which bounds what one
        // sender writes in an iteration, and no receiver reads this
        // parity's region until after the barrier that follows.
        unsafe {
            let mut b = s.launch_builder(&self.kernels[0]);
            b.arg(&mut self.heap_keys)
                .arg(&mut self.heap_size)
                .arg(&heaps)
                .arg(&heap_cap);
            b.arg(&self.states).arg(&self.parent).arg(&self.parent_gpus);
            b.arg(&mut self.child_states)
                .arg(&mut self.child_f)
                .arg(&mut self.child_g)
                .arg(&mut self.child_parent)
                .arg(&mut self.child_node);
            b.arg(&mut self.ctrl)
                .arg(&self.tables)
                .arg(&bound)
                .arg(&self.ceiling)
                .arg(&partial);
            b.arg(&num).arg(&den).arg(&greedy);
            b.arg(&gpus)
                .arg(&me)
                .arg(&parity)
                .arg(&self.peer_inboxes)
                .arg(&slots)
                .arg(&self.partition);
            b.launch(Self::per(heaps)).map_err(gpu_error)?;
        }
        Ok(())
    }

    /// The least f = g + h of the children pruned and the nodes still on
    /// the heaps (keys as made under `self.weight`): with the incumbent, a
    /// lower bound on the optimum when a weighted search ends.
    pub fn least_f(&mut self) -> Result<u64, Error> {
        let s = self.gpu.stream.clone();
        let (heaps, heap_cap) = (self.heaps, self.heap_cap);
        let (num, den, greedy) = self.weight.device_ratio();
        // SAFETY: the heaps hold `heaps × heap_cap` keys and `heaps` sizes;
        // the child arrays `heaps × MAX_SUCC` slots (sized in `new`).
        unsafe {
            let mut b = s.launch_builder(&self.kernels[4]);
            b.arg(&self.heap_keys)
                .arg(&self.heap_size)
                .arg(&heaps)
                .arg(&heap_cap)
                .arg(&self.child_f)
                .arg(&self.child_g)
                .arg(&self.child_node)
                .arg(&num)
                .arg(&den)
                .arg(&greedy)
                .arg(&mut self.ctrl);
            b.launch(Self::per(heaps)).map_err(gpu_error)?;
        }
        let mut least = [0u64];
        s.memcpy_dtoh(&self.ctrl.slice(CTRL_LEAST_F..CTRL_LEAST_F + 1), &mut least)
            .map_err(gpu_error)?;
        Ok(least[0])
    }

    /// Reads the control words (waits for the launches before it).
    pub fn read_ctrl(&self, out: &mut [u64]) -> Result<(), Error> {
        self.gpu
            .stream
            .memcpy_dtoh(&self.ctrl, out)
            .map_err(gpu_error)
    }

    /// De-duplicates this iteration's children (this shard's slots, and
    /// the records the others wrote into its inbox in iteration `parity`:
    /// `incoming.count[p]` from GPU p) and pushes the survivors onto the
    /// heaps.
    pub fn insert(
        &mut self,
        parity: u32,
        iteration: u32,
        incoming: &Incoming,
    ) -> Result<(), Error> {
        let s = self.gpu.stream.clone();
        let (slots, table_mask, gpus, me, node_cap, heaps, heap_cap) = (
            self.slots,
            self.table_mask,
            self.gpus,
            self.index,
            self.node_cap,
            self.heaps,
            self.heap_cap,
        );
        let received: u32 = incoming.count.iter().sum();
        let inbox = self.inbox.address(&s);
        let rotate = iteration % heaps;
        let next_parity = parity ^ 1;
        // Child j of heap p goes to heap p + (j + 1) * stride + rotate: spread
        // the MAX_SUCC children of one parent evenly around the heaps.
        let stride = (heaps / (slots / heaps)).max(1) | 1;
        // SAFETY: as in `expand`; the senders' records of `parity` and their
        // counts were complete before the barrier this shard passed (each
        // sender synchronised its stream first), and no sender writes this
        // parity again until the next barrier, which this shard reaches
        // only after these launches complete (see multi.rs). `received` is
        // at most `(gpus - 1) * slots`, the length of `inbox_key`.
        unsafe {
            let mut b = s.launch_builder(&self.kernels[1]);
            b.arg(&slots).arg(&mut self.table).arg(&table_mask);
            b.arg(&mut self.states)
                .arg(&mut self.parent)
                .arg(&mut self.parent_gpus)
                .arg(&gpus)
                .arg(&node_cap);
            b.arg(&self.child_states)
                .arg(&self.child_g)
                .arg(&self.child_parent)
                .arg(&mut self.child_node);
            b.arg(&inbox)
                .arg(incoming)
                .arg(&parity)
                .arg(&mut self.inbox_key);
            b.arg(&me).arg(&mut self.ctrl);
            b.launch(Self::per(slots + received)).map_err(gpu_error)?;

            let mut b = s.launch_builder(&self.kernels[2]);
            b.arg(&mut self.heap_keys)
                .arg(&mut self.heap_size)
                .arg(&heaps)
                .arg(&heap_cap);
            b.arg(&self.child_f)
                .arg(&self.child_g)
                .arg(&self.child_node);
            b.arg(&self.inbox_key).arg(&received);
            b.arg(&stride)
                .arg(&rotate)
                .arg(&gpus)
                .arg(&next_parity)
                .arg(&mut self.ctrl);
            b.launch(Self::per(heaps.max(gpus))).map_err(gpu_error)?;
        }
        Ok(())
    }

    /// Follows parent links from `node` while they stay on this GPU.
    /// Returns the packed states passed (that node first) and where the
    /// path goes on: `None` at the start, else (GPU, node).
    pub fn trace(&mut self, node: u32) -> Result<(Vec<u32>, Option<NodeAt>), Error> {
        let s = self.gpu.stream.clone();
        let (gpus, me, max_len) = (self.gpus, self.index, MAX_PATH);
        // SAFETY: `path` holds 3 + MAX_PATH states, the bound the kernel writes within.
        unsafe {
            let mut b = s.launch_builder(&self.kernels[3]);
            b.arg(&node)
                .arg(&self.parent)
                .arg(&self.parent_gpus)
                .arg(&gpus)
                .arg(&me);
            b.arg(&self.states).arg(&mut self.path).arg(&max_len);
            b.launch(LaunchConfig::for_num_elems(1))
                .map_err(gpu_error)?;
        }
        let mut head = [0u32; 3];
        s.memcpy_dtoh(&self.path.slice(0..3), &mut head)
            .map_err(gpu_error)?;
        let len = head[0] as usize;
        if len >= MAX_PATH as usize {
            return Err(Error::Gpu(format!(
                "the solution path is longer than {MAX_PATH} states"
            )));
        }
        let mut states = vec![0u32; len * self.words];
        s.memcpy_dtoh(&self.path.slice(3..3 + states.len()), &mut states)
            .map_err(gpu_error)?;
        let next = (head[1] != NO_NODE).then_some((head[2], head[1]));
        Ok((states, next))
    }
}

/// Copies `segments` end to end into one zeroed device buffer of `len` bytes.
impl Drop for Shard {
    fn drop(&mut self) {
        self.disconnect_ipc();
    }
}
