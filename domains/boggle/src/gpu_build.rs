//! A class's orderly tree built on the GPU
//! (`domains/boggle/kernels/boggle_build.cu`), in the three steps of the
//! CPU's build: its word paths collected, their keys sorted, and the tree
//! filled from them (`gpu_build/fill.rs`). The host thread reads the tree
//! back (`gpu_build/read.rs`); it is the CPU's tree, word for word. On 4×4
//! classes the build was about half of a GPU proof's host time
//! (docs/RESULTS.md, "Collecting and sorting a class's paths on the GPU"
//! and "The tree filled on the GPU"). [`GpuPathSorter::sorted_paths`]
//! stops after the sort, for a host that fills the tree itself
//! ([`OrderlyBuilder::build_from_sorted`]).
//!
//! The collection goes one path length at a time: every board path that
//! spells a trie prefix is extended by each free neighbour and each of its
//! letters that the trie continues with, as `OrderlyBuilder::collect` does
//! trie node by trie node. The keys are then sorted by a stable radix sort
//! over the bytes a key can use (the slots, and the word's bits).

use std::fmt::Write;
use std::sync::Arc;

use frontier_core::gpu::cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use frontier_core::gpu::{gpu_error, Gpu};

use crate::board::Shape;
use crate::orderly::{OrderlyBuilder, MAX_ORDERLY_CELLS};
use crate::trie::{Trie, LETTER_BITS, POINTS_SHIFT};
use crate::BoggleError;

mod fill;
#[cfg(test)]
mod fill_model;
mod merge;
mod read;
mod scan;
mod staging;

pub(crate) use merge::{GpuMerger, MergeStats};
pub use read::DeviceTree;
pub(crate) use read::KeptArena;
use read::ReadSlots;
pub(crate) use staging::PinnedStage;

const SOURCE: &str = include_str!("../kernels/boggle_build.cu");
/// The merges of forcing (`merge.rs`), which use the fill's scans.
const MERGE_SOURCE: &str = include_str!("../kernels/boggle_merge.cu");
/// Threads a block of the collection.
const COLLECT_BLOCK: u32 = 256;
/// Threads of the one-block scans (`SCAN_THREADS`: `fill_level_scan`).
const SCAN_THREADS: u32 = 256;
/// Keys a block of the radix sort takes (`RADIX_TILE` in the kernel).
const RADIX_TILE: u32 = 2048;
/// Threads a block of the radix sort (`RADIX_THREADS`).
const RADIX_THREADS: u32 = 256;
/// Bytes of one reach (`struct Reach`).
const REACH_BYTES: usize = 24;
/// Capacities the buffers start at; they grow when a class needs more.
const FIRST_REACHES: usize = 1 << 22;
const FIRST_KEYS: usize = 1 << 22;

/// The kernel source for boards of `shape`: the defines and neighbour
/// masks, then `boggle_build.cu` and `boggle_merge.cu`. No device is
/// needed to make it.
pub fn build_source(shape: &Shape) -> String {
    let cells = shape.cells();
    let mut neighbors: Vec<u32> = shape.neighbor_masks.iter().map(|&m| m as u32).collect();
    // Past the last cell, the virtual cell that paths start from.
    neighbors.push(((1u64 << cells) - 1) as u32);
    let mut src = String::new();
    let _ = writeln!(
        src,
        "#define CELLS {cells}\n#define LETTER_BITS {LETTER_BITS}u\n#define POINTS_SHIFT {POINTS_SHIFT}"
    );
    src += &crate::gpu::device_u32s("NEIGHBORS", &neighbors);
    src + SOURCE + MERGE_SOURCE
}

/// A new stream of `ctx` at the highest priority, for the builds and the
/// merges. They share the GPU with the proof's walk, whose launches fill
/// every SM for seconds, and a host thread waits on each of them: at the
/// highest priority the scheduler gives their blocks the SMs that free up
/// before the walk's waiting blocks.
fn highest_priority_stream(ctx: &Arc<CudaContext>) -> Result<Arc<CudaStream>, BoggleError> {
    ctx.bind_to_thread().map_err(gpu_error)?;
    let (_, highest) = frontier_core::gpu::cudarc::driver::result::stream::get_priority_range()
        .map_err(gpu_error)?;
    Ok(ctx.new_stream_with_priority(highest).map_err(gpu_error)?)
}

/// Of two buffers that a step reads from one and writes to the other in
/// turn, the one read (`from`) and the one written.
fn read_and_written<T>(pair: &mut [T; 2], from: usize) -> (&T, &mut T) {
    let [a, b] = pair;
    if from == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Collects and sorts classes' word paths on one GPU, for one board shape
/// and one trie. Buffers are kept between classes and grow as needed.
pub struct GpuPathSorter {
    stream: Arc<CudaStream>,
    /// The kernels, which mergers share ([`GpuPathSorter::merger`]).
    module: Arc<CudaModule>,
    cells: usize,
    trie: CudaSlice<u32>,
    /// The bits of a key that the word (its trie node) may use.
    word_bits: u32,
    collect: CudaFunction,
    count: CudaFunction,
    /// The radix sort's counters scanned (their sum, `n`, to `scan_total`).
    scan: scan::TileScan,
    scan_total: CudaSlice<u32>,
    scatter: CudaFunction,
    reaches: [CudaSlice<u8>; 2],
    reach_capacity: usize,
    keys: [CudaSlice<u128>; 2],
    /// Which of `keys` holds the last class's sorted keys.
    sorted: usize,
    key_capacity: usize,
    /// The radix sort's counters, 256 a block (grown as needed).
    counts: CudaSlice<u32>,
    counters: CudaSlice<u32>,
    masks: CudaSlice<u32>,
    positions: CudaSlice<u32>,
    fill: fill::GpuFill,
    slots: Arc<ReadSlots>,
    times: PathSorterTimes,
}

/// Where a [`GpuPathSorter`]'s time went, summed over its classes (wall
/// seconds of the calling thread, which waits for each step).
#[derive(Clone, Copy, Debug, Default)]
pub struct PathSorterTimes {
    /// Collecting the paths, buffer growth included.
    pub collect: f64,
    /// Sorting them on the GPU.
    pub sort: f64,
    /// Reading them back to the host.
    pub read: f64,
    /// Filling trees from them ([`GpuPathSorter::build`]).
    pub fill: f64,
    /// Reading the trees back (the host threads' time, summed;
    /// [`DeviceTree::read_into`]).
    pub read_trees: f64,
}

impl PathSorterTimes {
    /// `other`'s added to these (several sorters' times).
    pub fn add(&mut self, other: &PathSorterTimes) {
        self.collect += other.collect;
        self.sort += other.sort;
        self.read += other.read;
        self.fill += other.fill;
        self.read_trees += other.read_trees;
    }
}

impl GpuPathSorter {
    /// Uploads `trie` to `gpu` and compiles the kernels for boards of
    /// `shape` (at most [`MAX_ORDERLY_CELLS`] cells).
    pub fn new(gpu: &Gpu, trie: &Trie, shape: &Shape) -> Result<GpuPathSorter, BoggleError> {
        let cells = shape.cells();
        if cells > MAX_ORDERLY_CELLS {
            return Err(BoggleError::Config(format!(
                "paths are collected on the GPU for up to {MAX_ORDERLY_CELLS} cells, not {cells}"
            )));
        }
        let module = gpu.module(&build_source(shape))?;
        let function = |name: &str| module.load_function(name).map_err(gpu_error);
        let stream = highest_priority_stream(&gpu.ctx)?;
        let words: Vec<u32> = trie
            .nodes()
            .iter()
            .flat_map(|n| [n.info, n.first])
            .collect();
        let trie_dev = stream.clone_htod(&words).map_err(gpu_error)?;
        let alloc = |bytes: usize| stream.alloc_zeros::<u8>(bytes).map_err(gpu_error);
        Ok(GpuPathSorter {
            cells,
            trie: trie_dev,
            word_bits: u32::BITS - (trie.nodes().len() as u32).leading_zeros(),
            collect: function("build_collect")?,
            count: function("radix_count")?,
            scan: scan::TileScan::new(&module, &stream)?,
            scan_total: stream.alloc_zeros::<u32>(1).map_err(gpu_error)?,
            scatter: function("radix_scatter")?,
            reaches: [
                alloc(FIRST_REACHES * REACH_BYTES)?,
                alloc(FIRST_REACHES * REACH_BYTES)?,
            ],
            reach_capacity: FIRST_REACHES,
            keys: [
                stream.alloc_zeros::<u128>(FIRST_KEYS).map_err(gpu_error)?,
                stream.alloc_zeros::<u128>(FIRST_KEYS).map_err(gpu_error)?,
            ],
            counts: stream.alloc_zeros::<u32>(1).map_err(gpu_error)?,
            sorted: 0,
            key_capacity: FIRST_KEYS,
            counters: stream.alloc_zeros::<u32>(2).map_err(gpu_error)?,
            masks: stream.alloc_zeros::<u32>(cells).map_err(gpu_error)?,
            positions: stream.alloc_zeros::<u32>(cells).map_err(gpu_error)?,
            fill: fill::GpuFill::new(&module, &stream, cells)?,
            slots: Arc::new(ReadSlots::default()),
            times: PathSorterTimes::default(),
            module,
            stream,
        })
    }

    /// A merger for one host thread's forces ([`GpuMerger`]), on a stream of
    /// its own at the builds' priority: its thread waits on each merge.
    pub(crate) fn merger(&self) -> Result<GpuMerger, BoggleError> {
        GpuMerger::new(
            &self.module,
            highest_priority_stream(self.stream.context())?,
        )
    }

    /// The word paths of the class whose cell `c` may be any letter of
    /// `masks[c]`, with positions in `builder`'s split order, sorted: equal
    /// to [`OrderlyBuilder::sorted_wide_paths`]. They are written to `out`
    /// (reused between classes: its memory is warm).
    pub fn sorted_paths(
        &mut self,
        builder: &OrderlyBuilder,
        masks: &[u32],
        out: &mut Vec<u128>,
    ) -> Result<(), BoggleError> {
        let n = self.collect_and_sort(builder, masks)?;
        let read = std::time::Instant::now();
        out.clear();
        out.resize(n, 0);
        if n > 0 {
            let s = &self.stream;
            s.memcpy_dtoh(&self.keys[self.sorted].slice(0..n), &mut out[..])
                .map_err(gpu_error)?;
            s.synchronize().map_err(gpu_error)?;
        }
        self.times.read += read.elapsed().as_secs_f64();
        Ok(())
    }

    /// Builds the orderly tree of the class whose cell `c` may be any
    /// letter of `masks[c]`, with positions in `builder`'s split order, on
    /// the GPU: [`DeviceTree::read_into`] then gives the tree
    /// [`OrderlyBuilder::build`] makes, word for word. The read needs
    /// nothing of the sorter: a caller that shares it reads after letting
    /// the next class in.
    pub fn build(
        &mut self,
        builder: &OrderlyBuilder,
        masks: &[u32],
    ) -> Result<DeviceTree, BoggleError> {
        let n = self.collect_and_sort(builder, masks)?;
        if n == 0 {
            return Ok(DeviceTree::empty(self.slots.clone()));
        }
        let started = std::time::Instant::now();
        let mut slot = self.slots.take(&self.stream)?;
        let filled = self
            .fill
            .fill(&self.stream, &self.keys[self.sorted], n, &mut slot.arena);
        self.times.fill += started.elapsed().as_secs_f64();
        match filled {
            Ok(filled) => Ok(DeviceTree::waiting(slot, self.slots.clone(), filled)),
            Err(e) => {
                self.slots.give(slot);
                Err(e)
            }
        }
    }

    /// Collects and sorts a class's paths on the device (into
    /// `keys[self.sorted]`); returns how many.
    fn collect_and_sort(
        &mut self,
        builder: &OrderlyBuilder,
        masks: &[u32],
    ) -> Result<usize, BoggleError> {
        if masks.len() != self.cells {
            return Err(BoggleError::Config(format!(
                "a class of {} cells given to a {}-cell path sorter",
                masks.len(),
                self.cells
            )));
        }
        let started = std::time::Instant::now();
        loop {
            if let Some(n) = self.collect(builder, masks)? {
                self.times.collect += started.elapsed().as_secs_f64();
                self.sort(n)?;
                return Ok(n);
            }
        }
    }

    /// The time spent so far, by step.
    pub fn times(&self) -> PathSorterTimes {
        PathSorterTimes {
            read_trees: self.slots.read_seconds(),
            ..self.times
        }
    }

    /// Collects into `keys[0]`; `None` when a buffer was too small (it has
    /// grown, collect again).
    fn collect(
        &mut self,
        builder: &OrderlyBuilder,
        masks: &[u32],
    ) -> Result<Option<usize>, BoggleError> {
        let s = self.stream.clone();
        s.memcpy_htod(masks, &mut self.masks).map_err(gpu_error)?;
        s.memcpy_htod(builder.positions(), &mut self.positions)
            .map_err(gpu_error)?;
        s.memset_zeros(&mut self.counters).map_err(gpu_error)?;
        // The start: the virtual cell past the last, the trie's root, no slots.
        let mut start = [0u8; REACH_BYTES];
        start[..4].copy_from_slice(&(self.cells as u32).to_le_bytes());
        let mut first = self.reaches[0].slice_mut(0..REACH_BYTES);
        s.memcpy_htod(&start, &mut first).map_err(gpu_error)?;
        let (mut n, mut from) = (1u32, 0usize);
        let reach_capacity = self.reach_capacity as u32;
        let key_capacity = self.key_capacity as u32;
        let mut keys_written = 0u32;
        // A path holds each cell at most once.
        for _ in 0..self.cells {
            if n == 0 {
                break;
            }
            let reset = [0u32; 1];
            s.memcpy_htod(&reset, &mut self.counters.slice_mut(0..1))
                .map_err(gpu_error)?;
            let (input, output) = read_and_written(&mut self.reaches, from);
            let mut launch = s.launch_builder(&self.collect);
            launch
                .arg(input)
                .arg(&n)
                .arg(&self.trie)
                .arg(&self.masks)
                .arg(&self.positions)
                .arg(output)
                .arg(&reach_capacity)
                .arg(&mut self.keys[0])
                .arg(&key_capacity)
                .arg(&mut self.counters);
            let grid = LaunchConfig {
                grid_dim: (n.div_ceil(COLLECT_BLOCK), 1, 1),
                block_dim: (COLLECT_BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            // SAFETY: arguments match `build_collect`; `input` holds `n`
            // reaches, `output` and `keys[0]` their capacities, which the
            // kernel checks before every write.
            unsafe { launch.launch(grid) }.map_err(gpu_error)?;
            let counters = s.clone_dtoh(&self.counters).map_err(gpu_error)?;
            keys_written = counters[1];
            if counters[0] > reach_capacity || counters[1] > key_capacity {
                self.grow(counters[0] as usize, counters[1] as usize)?;
                return Ok(None);
            }
            n = counters[0];
            from ^= 1;
        }
        Ok(Some(keys_written as usize))
    }

    /// Makes room for `reaches` and `keys` (with a margin for the next classes).
    fn grow(&mut self, reaches: usize, keys: usize) -> Result<(), BoggleError> {
        let s = self.stream.clone();
        let alloc = |bytes: usize| s.alloc_zeros::<u8>(bytes).map_err(gpu_error);
        if reaches > self.reach_capacity {
            self.reach_capacity = (reaches + reaches / 4).next_power_of_two();
            self.reaches = [
                alloc(self.reach_capacity * REACH_BYTES)?,
                alloc(self.reach_capacity * REACH_BYTES)?,
            ];
        }
        if keys > self.key_capacity {
            self.key_capacity = (keys + keys / 4).next_power_of_two();
            self.keys = [
                s.alloc_zeros::<u128>(self.key_capacity)
                    .map_err(gpu_error)?,
                s.alloc_zeros::<u128>(self.key_capacity)
                    .map_err(gpu_error)?,
            ];
        }
        Ok(())
    }

    /// Sorts the `n` keys of `keys[0]` into `keys[self.sorted]`.
    fn sort(&mut self, n: usize) -> Result<(), BoggleError> {
        let s = self.stream.clone();
        self.sorted = 0;
        if n == 0 {
            return Ok(());
        }
        let sorted_from = std::time::Instant::now();
        let n32 = n as u32;
        let blocks = n32.div_ceil(RADIX_TILE);
        let total = 256 * blocks;
        if self.counts.len() < total as usize {
            self.counts = s.alloc_zeros::<u32>(total as usize).map_err(gpu_error)?;
        }
        let counts = &mut self.counts;
        // The bytes a key can use: the word's, then the slots' (the top
        // 5 bits a cell), least significant first.
        let slot_bits = 5 * self.cells as u32;
        let word_bytes = self.word_bits.div_ceil(8);
        let first_slot_byte = (128 - slot_bits) / 8;
        let shifts: Vec<u32> = (0..word_bytes)
            .chain(first_slot_byte.max(word_bytes)..16)
            .map(|byte| 8 * byte)
            .collect();
        let grid = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (RADIX_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut from = 0;
        for shift in shifts {
            let (input, output) = read_and_written(&mut self.keys, from);
            let mut launch = s.launch_builder(&self.count);
            launch
                .arg(input)
                .arg(&n32)
                .arg(&shift)
                .arg(&blocks)
                .arg(&mut *counts);
            // SAFETY: arguments match `radix_count`; `counts` holds 256
            // counters a block, `input` at least `n` keys.
            unsafe { launch.launch(grid) }.map_err(gpu_error)?;
            self.scan.scan(
                &s,
                &mut counts.slice_mut(0..total as usize),
                total,
                &mut self.scan_total.slice_mut(0..1),
            )?;
            let mut launch = s.launch_builder(&self.scatter);
            launch
                .arg(input)
                .arg(output)
                .arg(&n32)
                .arg(&shift)
                .arg(&blocks)
                .arg(&*counts);
            // SAFETY: arguments match `radix_scatter`; both key buffers
            // hold at least `n` keys, and every place written is below `n`
            // (the scanned counts add up to `n`).
            unsafe { launch.launch(grid) }.map_err(gpu_error)?;
            from ^= 1;
        }
        s.synchronize().map_err(gpu_error)?;
        self.times.sort += sorted_from.elapsed().as_secs_f64();
        self.sorted = from;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::dict::WordList;
    use crate::orderly::{split_order, OrderlyTree, SplitOrder};
    use crate::prove::{top_classes, Buckets};

    /// The letter buckets of the tests: one for every cell, and one with
    /// the corners apart.
    const FOUR: &str = "aeijou bcdfgmpqvwxz hklnrsty";
    const CORNERS: &str = "aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz";

    /// ENABLE2K's trie, found through FRONTIER_DATA too: the GPU tests run
    /// on GPU machines from a binary built elsewhere.
    fn enable2k() -> Trie {
        let path =
            frontier_core::data::find("boggle/enable2k.txt").expect("ENABLE2K ships in data/");
        let text = std::fs::read(path).expect("ENABLE2K readable");
        Trie::build(&WordList::parse(&text))
    }

    /// The GPU's fill, modelled on the CPU, makes `OrderlyTree::fill`'s
    /// tree word for word (arena, root, bound and node count) on classes
    /// of 9, 12 and 16 cells, each in its own split order.
    #[test]
    fn level_fill_model_makes_the_cpus_tree() {
        let trie = enable2k();
        let (four, corners) = (FOUR, CORNERS);
        for (rows, cols, buckets, stride) in [
            (3, 3, four, 29),
            (3, 4, four, 9_973),
            (4, 4, corners, 700_001),
        ] {
            let shape = Shape::new(rows, cols);
            let buckets = Buckets::parse(buckets).expect("buckets");
            let classes = top_classes(&shape, &buckets).expect("classes");
            let mut builder =
                OrderlyBuilder::new(&trie, &shape, &split_order(&shape)).expect("builder");
            for class in classes.iter().step_by(stride) {
                let masks = buckets.class_masks(&shape, class);
                builder.reorder(&SplitOrder::Cost.of_class(&shape, &masks));
                let paths = builder.sorted_wide_paths(&masks);
                let mut filled = OrderlyTree::default();
                let bound = builder.build_from_sorted(&paths, &mut filled);
                let (arena, root, model_bound, nodes) =
                    fill_model::fill_by_levels(&paths, shape.cells());
                assert_eq!(model_bound, bound, "{rows}x{cols} {class:?}");
                assert_eq!(root, filled.root(), "{rows}x{cols} {class:?}");
                assert_eq!(nodes, filled.node_count(), "{rows}x{cols} {class:?}");
                assert!(
                    arena == filled.arena(),
                    "{rows}x{cols} {class:?}: arenas differ"
                );
            }
        }
    }

    /// Forcing with the merge on the GPU makes the CPU's forced tree word
    /// for word (arena, root, bound, node count) on classes of 9, 12 and
    /// 16 cells: forces nested three positions deep, each undone after its
    /// subtree, every other one keeping its nodes (as a class that hands
    /// subclasses over keeps them), so that the device's copy of the arena
    /// is checked after the host's shrinks and after it grows. Prints the
    /// time a force takes on each side.
    #[test]
    fn gpu_merges_equal_the_cpus() {
        if !frontier_core::gpu::usable_or_skip("gpu_merges_equal_the_cpus") {
            return;
        }
        let (trie, gpu) = (enable2k(), Gpu::open(0).expect("a GPU (checked above)"));
        let (four, corners) = (FOUR, CORNERS);
        for (rows, cols, buckets, stride, budget) in [
            (3, 3, four, 37, 300),
            (3, 4, four, 4_999, 120),
            (4, 4, corners, 213_671, 40),
        ] {
            let shape = Shape::new(rows, cols);
            let buckets = Buckets::parse(buckets).expect("buckets");
            let classes = top_classes(&shape, &buckets).expect("classes");
            let sorter = GpuPathSorter::new(&gpu, &trie, &shape).expect("sorter");
            let mut merger = sorter.merger().expect("merger");
            let mut builder =
                OrderlyBuilder::new(&trie, &shape, &split_order(&shape)).expect("builder");
            let mut checked = Checked::default();
            for class in classes.iter().step_by(stride) {
                let masks = buckets.class_masks(&shape, class);
                builder.reorder(&SplitOrder::Cost.of_class(&shape, &masks));
                let mut cpu = OrderlyTree::default();
                builder.build(&masks, &mut cpu);
                let mut on_gpu = cpu.clone_arena();
                let mut device = merger.load(&on_gpu).expect("loaded");
                let masks: Vec<u32> = builder.order().iter().map(|&c| masks[c]).collect();
                let name = format!("{rows}x{cols} class {class:?}");
                let mut pair = Forced {
                    cpu: &mut cpu,
                    gpu: &mut on_gpu,
                    device: &mut device,
                    merger: &mut merger,
                    masks: &masks,
                    left: budget,
                    name: &name,
                };
                pair.force_from(0, &mut checked);
            }
            let stats = merger.stats();
            let (merges, gpu_seconds) = (stats.merges, stats.seconds);
            assert!(
                merges as usize == checked.forces && merges > 0,
                "{rows}x{cols}"
            );
            let ms = |seconds: f64| seconds * 1e3 / merges as f64;
            eprintln!(
                "MERGES {rows}x{cols}: {merges} forces, {} words appended; a force {:.2} ms on the GPU (read back included), {:.2} ms on one core",
                checked.words,
                ms(gpu_seconds),
                ms(checked.cpu_seconds)
            );
        }
    }

    /// Forces checked so far, the words they appended and the CPU's time.
    #[derive(Default)]
    struct Checked {
        forces: usize,
        words: usize,
        cpu_seconds: f64,
    }

    /// One class's tree forced on both sides.
    struct Forced<'a> {
        cpu: &'a mut OrderlyTree,
        gpu: &'a mut OrderlyTree,
        /// The device's copy of `gpu`'s arena.
        device: &'a mut KeptArena,
        merger: &'a mut GpuMerger,
        masks: &'a [u32],
        /// Forces left to make in this class.
        left: usize,
        name: &'a str,
    }

    impl Forced<'_> {
        /// Forces position `depth` to each of its letters on both sides,
        /// compares them, forces deeper (three positions at most), and
        /// undoes it.
        fn force_from(&mut self, depth: usize, checked: &mut Checked) {
            let mut letters = self.masks[depth];
            while letters != 0 && self.left > 0 {
                let letter = letters.trailing_zeros() as u8;
                letters &= letters - 1;
                self.left -= 1;
                let before = self.cpu.arena().len();
                let started = Instant::now();
                let (cpu_bound, cpu_saved) = self.cpu.force(depth as u32, letter);
                checked.cpu_seconds += started.elapsed().as_secs_f64();
                let (gpu_bound, gpu_saved) = self
                    .merger
                    .force(self.gpu, self.device, depth as u32, letter)
                    .expect("a merge on the GPU");
                let at = format!("{}, position {depth} forced to {letter}", self.name);
                assert_eq!(gpu_bound, cpu_bound, "{at}: bounds");
                assert_eq!(self.gpu.root(), self.cpu.root(), "{at}: roots");
                assert_eq!(self.gpu.node_count(), self.cpu.node_count(), "{at}: nodes");
                let (g, c) = (self.gpu.arena(), self.cpu.arena());
                if g != c {
                    let first = g.iter().zip(c).position(|(x, y)| x != y);
                    panic!(
                        "{at}: arenas differ (lengths {} and {}, first difference at {first:?}, {before} words before the force)",
                        g.len(),
                        c.len()
                    );
                }
                checked.forces += 1;
                checked.words += c.len() - before;
                if depth + 1 < self.masks.len().min(3) {
                    self.force_from(depth + 1, checked);
                }
                if letter.is_multiple_of(2) {
                    self.cpu.unforce(cpu_saved);
                    self.gpu.unforce(gpu_saved);
                } else {
                    self.cpu.unforce_keeping_nodes(cpu_saved);
                    self.gpu.unforce_keeping_nodes(gpu_saved);
                }
            }
        }
    }

    /// Paths collected and sorted on the GPU are the CPU's, key for key, on
    /// classes of 9, 12 and 16 cells in each class's own split order (light
    /// and heavy classes: a stride through each); the tree filled from them
    /// is the CPU's tree, and so is the tree built on the GPU end to end.
    /// Prints the time a class takes on each side.
    #[test]
    fn gpu_sorted_paths_equal_the_cpus() {
        if !frontier_core::gpu::usable_or_skip("gpu_sorted_paths_equal_the_cpus") {
            return;
        }
        let (trie, gpu) = (enable2k(), Gpu::open(0).expect("a GPU (checked above)"));
        let (four, corners) = (FOUR, CORNERS);
        for (rows, cols, buckets, stride) in
            [(3, 3, four, 7), (3, 4, four, 997), (4, 4, corners, 35_611)]
        {
            let shape = Shape::new(rows, cols);
            let buckets = Buckets::parse(buckets).expect("buckets");
            let classes = top_classes(&shape, &buckets).expect("classes");
            let mut sorter = GpuPathSorter::new(&gpu, &trie, &shape).expect("sorter");
            let order = SplitOrder::Cost;
            let mut builder =
                OrderlyBuilder::new(&trie, &shape, &split_order(&shape)).expect("builder");
            let (mut gpu_seconds, mut cpu_seconds, mut keys, mut checked) = (0.0, 0.0, 0, 0);
            let (mut build_seconds, mut fill_seconds) = (0.0, 0.0);
            let mut on_gpu = Vec::new();
            for class in classes.iter().step_by(stride) {
                let masks = buckets.class_masks(&shape, class);
                builder.reorder(&order.of_class(&shape, &masks));
                let started = Instant::now();
                sorter
                    .sorted_paths(&builder, &masks, &mut on_gpu)
                    .expect("GPU paths");
                gpu_seconds += started.elapsed().as_secs_f64();
                let started = Instant::now();
                let on_cpu = builder.sorted_wide_paths(&masks);
                cpu_seconds += started.elapsed().as_secs_f64();
                assert_eq!(on_gpu.len(), on_cpu.len(), "{rows}x{cols} class {class:?}");
                assert!(
                    on_gpu == on_cpu,
                    "{rows}x{cols} class {class:?}: keys differ"
                );
                let (mut from_gpu, mut built) = (OrderlyTree::default(), OrderlyTree::default());
                let bound = builder.build_from_sorted(&on_gpu, &mut from_gpu);
                assert_eq!(bound, builder.build(&masks, &mut built));
                assert!(
                    from_gpu.arena() == built.arena(),
                    "{rows}x{cols} class {class:?}: trees differ"
                );
                // The whole build on the GPU: the same tree again.
                let mut on_device = OrderlyTree::default();
                let started = Instant::now();
                let device_bound = sorter
                    .build(&builder, &masks)
                    .and_then(|device| device.read_into(&mut on_device))
                    .expect("GPU tree");
                build_seconds += started.elapsed().as_secs_f64();
                assert_eq!(device_bound, bound, "{rows}x{cols} class {class:?}");
                assert_eq!(
                    on_device.root(),
                    built.root(),
                    "{rows}x{cols} class {class:?}"
                );
                assert_eq!(on_device.node_count(), built.node_count());
                assert!(
                    on_device.arena() == built.arena(),
                    "{rows}x{cols} class {class:?}: the GPU's filled tree differs"
                );
                let started = Instant::now();
                builder.build_from_sorted(&on_gpu, &mut from_gpu);
                fill_seconds += started.elapsed().as_secs_f64();
                keys += on_gpu.len();
                checked += 1;
            }
            let times = sorter.times();
            let ms = |seconds: f64| seconds * 1e3 / checked as f64;
            // Collected and sorted twice a class: once for the keys, once for the tree.
            eprintln!(
                "TREES {rows}x{cols}: {checked} classes; the whole build on the GPU {:.1} ms a class (fill {:.1}, read back {:.1}); the host's fill from the keys {:.1} ms",
                ms(build_seconds),
                ms(times.fill),
                ms(times.read_trees),
                ms(fill_seconds)
            );
            eprintln!(
                "PATHS {rows}x{cols}: {checked} classes, {keys} paths; GPU {:.1} ms a class (collect {:.1}, sort {:.1}, read {:.1}), CPU (one core, collect and sort) {:.1} ms",
                ms(gpu_seconds),
                ms(times.collect / 2.0),
                ms(times.sort / 2.0),
                ms(times.read),
                ms(cpu_seconds)
            );
        }
    }
}
