//! GA* on one GPU: the host side of `kernels/gastar.cu`.

use std::time::Instant;

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use serde::{Deserialize, Serialize};

use crate::domain::{Cost, PackedState};
use crate::gpu::{gpu_error, Gpu};
use crate::search::gpu::{replay_cost, GpuPlugin};
use crate::search::{DomainOutcome, Limit, Outcome, Progress, SearchOptions, Solution, Status};
use crate::stats::SearchStats;
use crate::Error;

/// The generic engine, pasted after each plugin.
const ENGINE: &str = include_str!("../../../../kernels/gastar.cu");
const PRELUDE: &str = "typedef unsigned int u32;\ntypedef unsigned long long u64;\n";

/// Parameters of [`gastar`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GastarConfig {
    /// Which GPU.
    pub device: usize,
    /// Number of binary heaps (one GPU thread each).
    pub heaps: u32,
    /// Share of free device memory for the node arena and heaps.
    pub memory_fraction: f64,
    /// Hash-table slots for duplicate detection, as a power of two.
    pub table_log2: u32,
}

impl Default for GastarConfig {
    fn default() -> Self {
        GastarConfig {
            device: 0,
            heaps: 1 << 14,
            memory_fraction: 0.7,
            table_log2: 25,
        }
    }
}

const CTRL_INCUMBENT: usize = 0;
const CTRL_MIN_F: usize = 1;
const CTRL_OVERFLOW: usize = 2;
const CTRL_NODES: usize = 3;
const CTRL_EXPANDED: usize = 4;
const NO_NODE: u32 = u32::MAX;
/// Threads per block of every engine launch (matches `__launch_bounds__` in gastar.cu).
const BLOCK: u32 = 256;
/// Longest solution path the session can read back.
const MAX_PATH: u32 = 1 << 16;

/// Runs GA* on the GPU. With an admissible heuristic the cost equals A*'s;
/// the returned path is replayed on the CPU before it is reported. To solve
/// many instances, keep a [`GastarSession`] instead: it compiles, allocates
/// and uploads tables once.
pub fn gastar<D: PackedState, P: GpuPlugin<D>>(
    domain: &D,
    plugin: &P,
    config: &GastarConfig,
    options: &SearchOptions,
) -> Result<DomainOutcome<D>, Error> {
    GastarSession::new(domain, plugin, config)?.solve(domain, plugin, options)
}

/// Device memory and kernels for GA*, reusable across instances whose plugin
/// source is the same (same board, goal and heuristic).
pub struct GastarSession {
    gpu: Gpu,
    source: String,
    kernels: [CudaFunction; 4],
    words: usize,
    heaps: u32,
    heap_cap: u32,
    slots: u32,
    node_cap: u32,
    table_mask: u32,
    bytes: u64,
    heap_keys: CudaSlice<u64>,
    heap_size: CudaSlice<u32>,
    states: CudaSlice<u32>,
    g: CudaSlice<u32>,
    parent: CudaSlice<u32>,
    moves: CudaSlice<u32>,
    child_states: CudaSlice<u32>,
    child_g: CudaSlice<u32>,
    child_h: CudaSlice<u32>,
    child_parent: CudaSlice<u32>,
    child_move: CudaSlice<u32>,
    child_node: CudaSlice<u32>,
    table: CudaSlice<u32>,
    tables: CudaSlice<u8>,
    ctrl: CudaSlice<u64>,
    /// Where `ga_trace` writes the solution path.
    path: CudaSlice<u32>,
}

impl GastarSession {
    /// Compiles the plugin, sizes every buffer from free device memory and
    /// uploads the plugin's tables. Running out of device memory is an error
    /// naming the sizes, never a crash.
    pub fn new<D: PackedState, P: GpuPlugin<D>>(
        domain: &D,
        plugin: &P,
        config: &GastarConfig,
    ) -> Result<GastarSession, Error> {
        Self::with_gpu(Gpu::open(config.device)?, domain, plugin, config)
    }

    /// Like [`Self::new`] on a device opened beforehand (opening one takes a
    /// few tenths of a second, which callers can overlap with other set-up).
    pub fn with_gpu<D: PackedState, P: GpuPlugin<D>>(
        gpu: Gpu,
        domain: &D,
        plugin: &P,
        config: &GastarConfig,
    ) -> Result<GastarSession, Error> {
        let opened = Instant::now();
        let source = kernel_source(domain, plugin);
        let module = gpu.module(&source)?;
        tracing::info!(seconds = opened.elapsed().as_secs_f64(), "kernels loaded");
        let kernel = |name: &str| module.load_function(name).map_err(gpu_error);
        let kernels = [
            kernel("ga_expand")?,
            kernel("ga_dedup")?,
            kernel("ga_push")?,
            kernel("ga_trace")?,
        ];
        let s = gpu.stream.clone();

        let words = domain.packed_words();
        let max_succ = max_successors(&source)
            .ok_or_else(|| Error::Gpu("plugin defines no MAX_SUCC".into()))?;
        let heaps = config.heaps.max(32);
        let slots = heaps * max_succ;
        let (free, _) = gpu.memory()?;
        let table_slots = 1u64 << config.table_log2.clamp(10, 31);
        let segments = plugin.tables(domain);
        // Device buffers are read as 32-bit words: round the size up.
        let tables_len = (segments.iter().map(|t| t.len()).sum::<usize>().div_ceil(4) * 4).max(4);
        let fixed =
            table_slots * 4 + u64::from(slots) * (4 * words as u64 + 20) + tables_len as u64;
        let budget =
            ((free as f64 * config.memory_fraction.clamp(0.01, 0.95)) as u64).saturating_sub(fixed);
        // A third of the budget for heaps (8-byte keys), the rest for nodes.
        let heap_cap = ((budget / 3) / (u64::from(heaps) * 8)).clamp(16, 1 << 20) as u32;
        let node_bytes = 4 * words as u64 + 12;
        let node_cap = ((budget - budget / 3) / node_bytes).min(u64::from(u32::MAX - 1)) as u32;
        if node_cap < 1024 {
            return Err(Error::Gpu(format!(
                "only {free} bytes of device memory free"
            )));
        }
        let oom = |e| Error::Gpu(format!("out of device memory ({free} bytes free): {e}"));
        let bytes =
            u64::from(node_cap) * node_bytes + u64::from(heaps) * u64::from(heap_cap) * 8 + fixed;
        let started = Instant::now();
        // SAFETY: the heap slots, the node arena and its fields are written
        // before they are read (heap sizes and the hash table, which say what
        // is valid, are zeroed per instance), so they need no zero-fill, which
        // would cost tens of milliseconds per gigabyte set up.
        let (heap_keys, states, g, parent, moves) = unsafe {
            (
                s.alloc::<u64>(heaps as usize * heap_cap as usize)
                    .map_err(oom)?,
                s.alloc::<u32>(node_cap as usize * words).map_err(oom)?,
                s.alloc::<u32>(node_cap as usize).map_err(oom)?,
                s.alloc::<u32>(node_cap as usize).map_err(oom)?,
                s.alloc::<u32>(node_cap as usize).map_err(oom)?,
            )
        };
        tracing::info!(
            gpu = %gpu.name,
            heaps,
            heap_cap,
            node_cap,
            gigabytes = bytes as f64 / 1e9,
            seconds = started.elapsed().as_secs_f64(),
            "GA* session allocated"
        );
        Ok(GastarSession {
            heap_keys,
            heap_size: s.alloc_zeros(heaps as usize).map_err(oom)?,
            states,
            g,
            parent,
            moves,
            child_states: s.alloc_zeros(slots as usize * words).map_err(oom)?,
            child_g: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_h: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_parent: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_move: s.alloc_zeros(slots as usize).map_err(oom)?,
            child_node: s.alloc_zeros(slots as usize).map_err(oom)?,
            table: s.alloc_zeros(table_slots as usize).map_err(oom)?,
            tables: upload(&s, &segments, tables_len).map_err(oom)?,
            ctrl: s.alloc_zeros(8).map_err(oom)?,
            path: s
                .alloc_zeros(1 + MAX_PATH as usize * (1 + words))
                .map_err(oom)?,
            gpu,
            source,
            kernels,
            words,
            heaps,
            heap_cap,
            slots,
            node_cap,
            table_mask: (table_slots - 1) as u32,
            bytes,
        })
    }

    /// Whether this session was built for the same plugin source as `domain`'s.
    pub fn fits<D: PackedState, P: GpuPlugin<D>>(&self, domain: &D, plugin: &P) -> bool {
        self.source == kernel_source(domain, plugin)
    }

    /// Solves `domain`'s instance on this session's buffers.
    pub fn solve<D: PackedState, P: GpuPlugin<D>>(
        &mut self,
        domain: &D,
        plugin: &P,
        options: &SearchOptions,
    ) -> Result<DomainOutcome<D>, Error> {
        if !self.fits(domain, plugin) {
            return Err(Error::Gpu(
                "this GA* session was built for another board, goal or heuristic".into(),
            ));
        }
        let s = self.gpu.stream.clone();
        let words = self.words;
        let (heaps, heap_cap, slots, node_cap, table_mask) = (
            self.heaps,
            self.heap_cap,
            self.slots,
            self.node_cap,
            self.table_mask,
        );
        s.memset_zeros(&mut self.heap_size).map_err(gpu_error)?;
        s.memset_zeros(&mut self.table).map_err(gpu_error)?;

        // The start node: arena slot 0, on heap 0. Any key works for it: it is
        // the only node, so it is popped first.
        let mut packed = vec![0u32; words];
        domain.pack(&domain.start(), &mut packed);
        s.memcpy_htod(&packed, &mut self.states.slice_mut(0..words))
            .map_err(gpu_error)?;
        s.memcpy_htod(&[NO_NODE], &mut self.parent.slice_mut(0..1))
            .map_err(gpu_error)?;
        s.memcpy_htod(&[0u32], &mut self.g.slice_mut(0..1))
            .map_err(gpu_error)?;
        s.memcpy_htod(&[0xFFFFu64 << 32], &mut self.heap_keys.slice_mut(0..1))
            .map_err(gpu_error)?;
        s.memcpy_htod(&[1u32], &mut self.heap_size.slice_mut(0..1))
            .map_err(gpu_error)?;
        s.memcpy_htod(&[u64::MAX, u64::MAX, 0, 1, 0, 0, 0, 0], &mut self.ctrl)
            .map_err(gpu_error)?;

        let started = Instant::now();
        // 256 threads a block: plugins keep whole states in registers, and
        // larger blocks run out of registers on big boards.
        let per = |n: u32| LaunchConfig {
            grid_dim: (n.div_ceil(BLOCK), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        // Child j of heap p goes to heap p + (j + 1) * stride + rotate: spread
        // the MAX_SUCC children of one parent evenly around the heaps.
        let stride = (heaps / (slots / heaps)).max(1) | 1;
        // Cloned (they are handles) so the launches below can borrow self mutably.
        let [expand_k, dedup_k, push_k, trace_k] = self.kernels.clone();
        let mut iteration: u32 = 0;
        let mut host_ctrl = [0u64; 8];
        let mut next_report = 0.25;
        let status = loop {
            // SAFETY (all launches): every pointer argument is a live device
            // allocation sized in `new` for `heaps`, `slots` and `node_cap`,
            // which the kernels bound-check against the same values.
            unsafe {
                let mut b = s.launch_builder(&expand_k);
                b.arg(&mut self.heap_keys)
                    .arg(&mut self.heap_size)
                    .arg(&heaps)
                    .arg(&heap_cap);
                b.arg(&self.states).arg(&self.g);
                b.arg(&mut self.child_states)
                    .arg(&mut self.child_g)
                    .arg(&mut self.child_h);
                b.arg(&mut self.child_parent)
                    .arg(&mut self.child_move)
                    .arg(&mut self.child_node);
                b.arg(&mut self.ctrl).arg(&self.tables);
                b.launch(per(heaps)).map_err(gpu_error)?;

                let mut b = s.launch_builder(&dedup_k);
                b.arg(&slots).arg(&mut self.table).arg(&table_mask);
                b.arg(&mut self.states)
                    .arg(&mut self.g)
                    .arg(&mut self.parent)
                    .arg(&mut self.moves)
                    .arg(&node_cap);
                b.arg(&self.child_states)
                    .arg(&self.child_g)
                    .arg(&self.child_parent)
                    .arg(&self.child_move);
                b.arg(&mut self.child_node).arg(&mut self.ctrl);
                b.launch(per(slots)).map_err(gpu_error)?;

                let rotate = iteration % heaps;
                let mut b = s.launch_builder(&push_k);
                b.arg(&mut self.heap_keys)
                    .arg(&mut self.heap_size)
                    .arg(&heaps)
                    .arg(&heap_cap);
                b.arg(&self.child_g)
                    .arg(&self.child_h)
                    .arg(&self.child_node);
                b.arg(&stride).arg(&rotate).arg(&mut self.ctrl);
                b.launch(per(heaps)).map_err(gpu_error)?;
            }
            iteration = iteration.wrapping_add(1);
            s.memcpy_dtoh(&self.ctrl, &mut host_ctrl)
                .map_err(gpu_error)?;
            let incumbent = host_ctrl[CTRL_INCUMBENT];
            let incumbent_cost = incumbent >> 32;
            if host_ctrl[CTRL_OVERFLOW] != 0 {
                break Status::LimitReached(Limit::Memory);
            }
            if host_ctrl[CTRL_MIN_F] >= incumbent_cost {
                if incumbent == u64::MAX {
                    break Status::NoSolution;
                }
                let goal = (incumbent & 0xFFFF_FFFF) as u32;
                let solution = self.trace(domain, plugin, &trace_k, goal)?;
                if u64::from(solution.cost) != incumbent_cost {
                    return Err(Error::Gpu(format!(
                        "GPU reported cost {incumbent_cost}, its path costs {}",
                        solution.cost
                    )));
                }
                break Status::Solved(solution);
            }
            let seconds = started.elapsed().as_secs_f64();
            let expanded = host_ctrl[CTRL_EXPANDED];
            // Device memory running out is reported by the kernels (overflow).
            if let Some(limit) = options.limits.exceeded(expanded, 0, seconds) {
                break Status::LimitReached(limit);
            }
            if seconds >= next_report {
                next_report = seconds + 0.25;
                if let Some(sink) = &options.progress {
                    sink(&Progress {
                        expanded,
                        open: host_ctrl[CTRL_NODES],
                        f: host_ctrl[CTRL_MIN_F] as Cost,
                        seconds,
                    });
                }
            }
        };
        let mut stats = SearchStats {
            expanded: host_ctrl[CTRL_EXPANDED],
            generated: host_ctrl[CTRL_NODES].saturating_sub(1),
            peak_closed: host_ctrl[CTRL_NODES],
            peak_bytes: self.bytes,
            ..SearchStats::default()
        };
        stats.finish(started.elapsed().as_secs_f64());
        Ok(Outcome { status, stats })
    }

    fn trace<D: PackedState, P: GpuPlugin<D>>(
        &mut self,
        domain: &D,
        plugin: &P,
        kernel: &CudaFunction,
        goal: u32,
    ) -> Result<Solution<D::State, D::Move>, Error> {
        let words = self.words;
        let s = self.gpu.stream.clone();
        let max_len = MAX_PATH;
        // SAFETY: `path` holds `MAX_PATH` records, the bound the kernel writes within.
        unsafe {
            let mut b = s.launch_builder(kernel);
            b.arg(&goal)
                .arg(&self.parent)
                .arg(&self.moves)
                .arg(&self.states);
            b.arg(&mut self.path).arg(&max_len);
            b.launch(LaunchConfig::for_num_elems(1))
                .map_err(gpu_error)?;
        }
        let mut head = [0u32; 1];
        s.memcpy_dtoh(&self.path.slice(0..1), &mut head)
            .map_err(gpu_error)?;
        let len = (head[0] as usize).min(MAX_PATH as usize);
        let mut host = vec![0u32; 1 + len * (1 + words)];
        s.memcpy_dtoh(&self.path.slice(0..host.len()), &mut host)
            .map_err(gpu_error)?;
        let mut path_states = Vec::with_capacity(len);
        let mut path_moves = Vec::with_capacity(len);
        // Records run goal first; the start's move word is meaningless.
        for i in (0..len).rev() {
            let rec = &host[1 + i * (1 + words)..1 + (i + 1) * (1 + words)];
            path_states.push(
                domain
                    .unpack(&rec[1..])
                    .map_err(|e| Error::Gpu(format!("GPU path holds an invalid state: {e}")))?,
            );
            if i + 1 < len {
                path_moves.push(
                    plugin
                        .decode_move(domain, rec[0])
                        .ok_or_else(|| Error::Gpu(format!("unknown move code {}", rec[0])))?,
                );
            }
        }
        if path_states.first() != Some(&domain.start())
            || !path_states.last().is_some_and(|s| domain.is_goal(s))
        {
            return Err(Error::Gpu(
                "GPU path does not run from the start to a goal".into(),
            ));
        }
        let cost = replay_cost(domain, &path_states)
            .map_err(|step| Error::Gpu(format!("GPU path step {step} is not a move")))?;
        Ok(Solution {
            cost,
            states: path_states,
            moves: path_moves,
        })
    }
}

/// The plugin's source with the engine pasted after it: what is compiled,
/// and what identifies the instances a session can serve.
fn kernel_source<D: PackedState, P: GpuPlugin<D>>(domain: &D, plugin: &P) -> String {
    format!("{PRELUDE}{}\n{ENGINE}", plugin.source(domain))
}

/// Reads `#define MAX_SUCC n` from the plugin source.
fn max_successors(source: &str) -> Option<u32> {
    source.lines().find_map(|l| {
        l.trim()
            .strip_prefix("#define MAX_SUCC")?
            .trim()
            .parse()
            .ok()
    })
}

/// Copies `segments` end to end into one zeroed device buffer of `len` bytes.
fn upload(
    stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    segments: &[&[u8]],
    len: usize,
) -> Result<CudaSlice<u8>, cudarc::driver::DriverError> {
    let mut buffer = stream.alloc_zeros::<u8>(len)?;
    let mut at = 0;
    for segment in segments {
        stream.memcpy_htod(*segment, &mut buffer.slice_mut(at..at + segment.len()))?;
        at += segment.len();
    }
    Ok(buffer)
}
