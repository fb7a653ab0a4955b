//! Additive pattern databases (Korf & Felner 2002): building, lookup.
//!
//! A pattern database for tiles `T` stores, for every placement of `T`, the
//! fewest moves *of tiles in `T`* needed to bring them home, with all other
//! tiles indistinguishable and free to move at no cost. Because each move
//! moves one tile, databases over disjoint patterns add up admissibly.
//!
//! The table is filled by a 0-1 breadth-first search backward from the goal
//! over (placement, blank region): the blank moves freely inside the region
//! of non-pattern cells it can reach, so a node is a placement plus the set
//! of cells the blank may occupy, and only a pattern tile sliding into that
//! region costs a move. Each level is expanded by all cores; a placement's
//! value is the first level that reaches it (the minimum over blank
//! positions). Memory: one byte per placement for the table, plus a visited
//! cell mask per placement while building.

use std::sync::atomic::{
    AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed,
};
use std::sync::Mutex;

use frontier_core::prefetch::prefetch;

use crate::board::{Board, Dir, MAX_CELLS};

/// Placement counts above this are refused (4 GiB of table).
pub const MAX_ENTRIES: u64 = 1 << 32;

/// The tiles of one pattern and where they (and the blank) sit in the goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Tile numbers, in index order.
    pub tiles: Vec<u8>,
    /// Goal cell of each tile in `tiles`.
    pub goal_cells: Vec<u8>,
    /// Goal cell of the blank.
    pub blank_goal: u8,
}

/// Whether two patterns build the same table: the same tiles on the same
/// goal cells, and each blank goal in the region the other's reaches. The
/// build reads the blank goal only through that region (the cells free of
/// the pattern's tiles connected to it), so a goal that moves the blank
/// within it (another goal board, a dual's) may share the table and its
/// cache file.
pub fn same_table(board: &Board, a: &Pattern, b: &Pattern) -> bool {
    if a.tiles != b.tiles || a.goal_cells != b.goal_cells {
        return false;
    }
    blank_region(board, a) & (1 << b.blank_goal) != 0
}

/// The same pattern with its blank goal moved to the first cell of the
/// region it reaches: the same table ([`same_table`]), and one cache file
/// for every goal whose blank lies in that region.
pub fn with_first_blank(board: &Board, mut pattern: Pattern) -> Pattern {
    pattern.blank_goal = blank_region(board, &pattern).trailing_zeros() as u8;
    pattern
}

/// The cells free of `pattern`'s tiles on their goal cells that its blank
/// goal reaches, as a mask.
fn blank_region(board: &Board, pattern: &Pattern) -> u64 {
    let masks = Masks::new(board);
    let occupied: u64 = pattern.goal_cells.iter().map(|&c| 1u64 << c).sum();
    masks.flood(1 << pattern.blank_goal, masks.all & !occupied)
}

/// Number of placements of `k` distinct tiles on `n` cells: n!/(n−k)!.
pub fn placements(n: usize, k: usize) -> u64 {
    (0..k).map(|i| (n - i) as u64).product()
}

/// Ranks a placement (cell of each pattern tile, in order) into
/// `0..placements(n, k)`: a mixed-radix number whose i-th digit is the cell's
/// rank among cells not used by earlier tiles.
#[inline]
pub fn rank(cells_of_tiles: impl Iterator<Item = u8>, n: usize) -> usize {
    // Boards have up to 49 cells: one bit each.
    let mut used: u64 = 0;
    let mut index = 0usize;
    for (i, cell) in cells_of_tiles.enumerate() {
        let below = (used & ((1u64 << cell) - 1)).count_ones() as usize;
        index = index * (n - i) + usize::from(cell) - below;
        used |= 1 << cell;
    }
    index
}

/// Inverse of [`rank`] for `k` tiles.
pub fn unrank(mut index: usize, n: usize, k: usize, out: &mut [u8]) {
    let mut digits = [0usize; MAX_CELLS];
    for i in (0..k).rev() {
        digits[i] = index % (n - i);
        index /= n - i;
    }
    let mut used: u64 = 0;
    for i in 0..k {
        // The digits[i]-th free cell.
        let mut free = !used & ((1u64 << n) - 1);
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let cell = free.trailing_zeros() as u8;
        out[i] = cell;
        used |= 1 << cell;
    }
}

/// Cell bitmask operations for flood fills on one board (a bit a cell,
/// up to 49).
struct Masks {
    /// Neighbour cells of each cell, as a bitmask.
    neighbours: [u64; MAX_CELLS],
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
    cols: u32,
}

impl Masks {
    fn new(board: &Board) -> Masks {
        let (rows, cols) = (u32::from(board.rows()), u32::from(board.cols()));
        let all = (1u64 << (rows * cols)) - 1;
        let mut first = 0u64;
        let mut last = 0u64;
        for r in 0..rows {
            first |= 1 << (r * cols);
            last |= 1 << (r * cols + cols - 1);
        }
        let mut neighbours = [0u64; MAX_CELLS];
        for (cell, mask) in neighbours.iter_mut().enumerate().take(board.cells()) {
            for dir in Dir::ALL {
                if let Some(n) = board.neighbour(cell as u8, dir) {
                    *mask |= 1 << n;
                }
            }
        }
        Masks {
            neighbours,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
            cols,
        }
    }

    /// Cells of `free` connected to `start` through `free`.
    #[inline]
    fn flood(&self, start: u64, free: u64) -> u64 {
        let mut region = start;
        loop {
            let grown = (region
                | (region << self.cols)
                | (region >> self.cols)
                | ((region << 1) & self.not_first_col)
                | ((region >> 1) & self.not_last_col))
                & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// Per-placement visited masks: u16 for boards up to 16 cells, u32 up to
/// 32, else u64.
trait AtomicMask: Send + Sync {
    /// The same mask, plain, as the frontier stores it: at the mask's own
    /// width, the frontier's entries take 8 bytes instead of 16 on boards
    /// up to 32 cells and 12 beyond, which cuts the build's peak memory
    /// beyond the tables by a half and a quarter (a 7-tile database of the
    /// 24-puzzle has 2.4·10⁹ placements, a 6-tile one of the 35-puzzle
    /// 1.4·10⁹).
    type Plain: Copy + Send + Sync;
    /// Lossless: the mask type is chosen by the board's cell count.
    fn narrow(bits: u64) -> Self::Plain;
    fn widen(plain: Self::Plain) -> u64;
    fn zero() -> Self;
    /// The current bits.
    fn get(&self) -> u64;
    /// ORs `bits` in and returns the previous value.
    fn or(&self, bits: u64) -> u64;
}

/// The masks narrower than 64 bits: the same code at two widths.
macro_rules! narrow_mask {
    ($atomic:ty, $plain:ty) => {
        impl AtomicMask for $atomic {
            type Plain = $plain;
            #[inline]
            fn narrow(bits: u64) -> $plain {
                bits as $plain
            }
            #[inline]
            fn widen(plain: $plain) -> u64 {
                u64::from(plain)
            }
            fn zero() -> Self {
                <$atomic>::new(0)
            }
            #[inline]
            fn get(&self) -> u64 {
                u64::from(self.load(Relaxed))
            }
            #[inline]
            fn or(&self, bits: u64) -> u64 {
                u64::from(self.fetch_or(bits as $plain, Relaxed))
            }
        }
    };
}

narrow_mask!(AtomicU16, u16);
narrow_mask!(AtomicU32, u32);

impl AtomicMask for AtomicU64 {
    /// Two halves, so that an entry (u32, mask) packs into 12 bytes at
    /// 4-byte alignment instead of 16 at 8.
    type Plain = [u32; 2];
    #[inline]
    fn narrow(bits: u64) -> [u32; 2] {
        [bits as u32, (bits >> 32) as u32]
    }
    #[inline]
    fn widen(plain: [u32; 2]) -> u64 {
        u64::from(plain[0]) | (u64::from(plain[1]) << 32)
    }
    fn zero() -> Self {
        AtomicU64::new(0)
    }
    #[inline]
    fn get(&self) -> u64 {
        self.load(Relaxed)
    }
    #[inline]
    fn or(&self, bits: u64) -> u64 {
        self.fetch_or(bits, Relaxed)
    }
}

/// Progress of a build: the level just finished and its new nodes.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// BFS depth just completed.
    pub level: u8,
    /// (placement, region) nodes first reached at that depth.
    pub frontier: u64,
    /// Placements with a value so far.
    pub placements_done: u64,
    /// All placements.
    pub placements_total: u64,
}

/// Fills the table of `pattern` on `board` with `threads` workers.
pub fn build(
    board: &Board,
    pattern: &Pattern,
    threads: usize,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Vec<u8> {
    match board.cells() {
        0..=16 => build_with::<AtomicU16>(board, pattern, threads, progress),
        17..=32 => build_with::<AtomicU32>(board, pattern, threads, progress),
        _ => build_with::<AtomicU64>(board, pattern, threads, progress),
    }
}

fn build_with<M: AtomicMask>(
    board: &Board,
    pattern: &Pattern,
    threads: usize,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Vec<u8> {
    let n = board.cells();
    let k = pattern.tiles.len();
    let total = placements(n, k);
    let size = total as usize;
    let masks = Masks::new(board);
    let visited: Vec<M> = huge_vec(size, M::zero);
    let dist: Vec<AtomicU8> = huge_vec(size, || AtomicU8::new(u8::MAX));

    let goal_index = rank(pattern.goal_cells.iter().copied(), n);
    let occupied: u64 = pattern.goal_cells.iter().map(|&c| 1u64 << c).sum();
    let region = masks.flood(1 << pattern.blank_goal, masks.all & !occupied);
    visited[goal_index].or(region);
    dist[goal_index].store(0, Relaxed);
    let mut frontier: Vec<(u32, M::Plain)> = vec![(goal_index as u32, M::narrow(region))];
    let mut done = 1u64;
    let mut level = 0u8;

    while !frontier.is_empty() {
        let next_level = level.saturating_add(1);
        let chunk = frontier.len().div_ceil(threads * 16).max(1024);
        let cursor = AtomicUsize::new(0);
        let found = AtomicUsize::new(0);
        let next = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut local = Vec::new();
                    let mut new_placements = 0usize;
                    let mut cells = [0u8; MAX_CELLS];
                    // Successors of a few frontier nodes, generated first and
                    // prefetched, then checked: the visited table is far
                    // larger than the caches, so overlapping the misses is
                    // what makes the build fast.
                    let mut pending: Vec<(usize, u64)> = Vec::with_capacity(PREFETCH_GROUP * 4 * k);
                    loop {
                        let start = cursor.fetch_add(chunk, Relaxed);
                        if start >= frontier.len() {
                            break;
                        }
                        for group in frontier[start..(start + chunk).min(frontier.len())]
                            .chunks(PREFETCH_GROUP)
                        {
                            pending.clear();
                            for &(index, reached) in group {
                                unrank(index as usize, n, k, &mut cells);
                                let occupied: u64 = cells[..k].iter().map(|&c| 1u64 << c).sum();
                                for i in 0..k {
                                    let from = cells[i];
                                    let mut targets =
                                        masks.neighbours[usize::from(from)] & M::widen(reached);
                                    while targets != 0 {
                                        let to = targets.trailing_zeros() as u8;
                                        targets &= targets - 1;
                                        cells[i] = to;
                                        let child = rank(cells[..k].iter().copied(), n);
                                        cells[i] = from;
                                        prefetch(&visited[child]);
                                        let free =
                                            masks.all & !(occupied ^ (1 << from) ^ (1 << to));
                                        pending.push((child, masks.flood(1 << from, free)));
                                    }
                                }
                            }
                            for &(child, region) in &pending {
                                // A plain load first: most successors are
                                // already known, and a locked OR costs more.
                                if region & !visited[child].get() == 0 {
                                    continue;
                                }
                                let before = visited[child].or(region);
                                if region & !before != 0 {
                                    if before == 0 {
                                        dist[child].store(next_level, Relaxed);
                                        new_placements += 1;
                                    }
                                    local.push((child as u32, M::narrow(region)));
                                }
                            }
                        }
                    }
                    found.fetch_add(new_placements, Relaxed);
                    // A poisoned lock means a worker panicked; scope re-raises it.
                    if let Ok(mut next) = next.lock() {
                        next.append(&mut local);
                    }
                });
            }
        });
        frontier = next.into_inner().unwrap_or_default();
        done += found.load(Relaxed) as u64;
        level = next_level;
        progress(BuildProgress {
            level,
            frontier: frontier.len() as u64,
            placements_done: done,
            placements_total: total,
        });
    }
    // The masks are done with: freed before the table is copied out.
    drop(visited);
    // Every placement is reachable when at least one non-pattern tile
    // exists; a missing one would read 255 and is clamped to 0 (still admissible).
    dist.into_iter()
        .map(|d| match d.into_inner() {
            u8::MAX => 0,
            v => v,
        })
        .collect()
}

/// Frontier nodes whose successors are generated (and prefetched) together.
const PREFETCH_GROUP: usize = 8;

/// A vector of `len` values, backed by transparent huge pages where the OS
/// offers them on request: random access to gigabyte tables otherwise
/// spends most of its time on TLB misses.
fn huge_vec<T>(len: usize, make: impl Fn() -> T) -> Vec<T> {
    let mut v = huge_with_capacity(len);
    v.resize_with(len, make);
    v
}

/// An empty vector with room for `len` values, whose pages the OS is asked
/// to back with transparent huge pages before anything touches them (on a
/// machine whose setting is `madvise`, the common default, nothing else
/// gets them: a table read from a file into a plain vector took a TLB miss
/// on nearly every lookup).
pub(crate) fn huge_with_capacity<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let bytes = len * std::mem::size_of::<T>();
        // `madvise` refuses a start that is not page-aligned, and the
        // allocator's large blocks begin just past a page boundary: advise
        // from the next boundary on (huge pages cover whole 2 MiB extents
        // inside the range anyway).
        let start = v.as_ptr() as usize;
        let skip = start.next_multiple_of(PAGE) - start;
        if bytes >= (1 << 21) + skip {
            // SAFETY: the range lies inside this vector's own allocation;
            // MADV_HUGEPAGE only changes how the kernel backs it, never its
            // contents, and a refusal leaves it as it was.
            unsafe {
                libc::madvise(
                    (start + skip) as *mut libc::c_void,
                    bytes - skip,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    v
}

/// A built database for one pattern.
#[derive(Clone, Debug)]
pub struct PatternDb {
    /// The pattern.
    pub pattern: Pattern,
    cells: usize,
    table: Vec<u8>,
}

impl PatternDb {
    /// Wraps a table; `table.len()` must be the placement count.
    pub fn new(pattern: Pattern, cells: usize, table: Vec<u8>) -> Option<PatternDb> {
        (table.len() as u64 == placements(cells, pattern.tiles.len())).then_some(PatternDb {
            pattern,
            cells,
            table,
        })
    }

    /// The value for tile positions `pos` (indexed by tile).
    #[inline]
    pub fn lookup(&self, pos: &[u8; MAX_CELLS]) -> u8 {
        self.table[self.index(pos)]
    }

    /// The table index ([`rank`]) of tile positions `pos`.
    #[inline]
    pub fn index(&self, pos: &[u8; MAX_CELLS]) -> usize {
        rank(
            self.pattern.tiles.iter().map(|&t| pos[usize::from(t)]),
            self.cells,
        )
    }

    /// The value at a table index, as [`PatternDb::index`] or an update of
    /// it gives; an index past the table is a caller's bug.
    #[inline]
    pub fn at(&self, index: usize) -> u8 {
        self.table[index]
    }

    /// The place value of each pattern tile's digit in [`rank`]'s number:
    /// the product of the radices of the digits after it.
    pub fn digit_weights(&self) -> Vec<usize> {
        let k = self.pattern.tiles.len();
        (0..k)
            .map(|i| (i + 1..k).map(|j| self.cells - j).product())
            .collect()
    }

    /// The raw table.
    pub fn table(&self) -> &[u8] {
        &self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        let (n, k) = (9, 4);
        let mut seen = vec![false; placements(n, k) as usize];
        let mut cells = [0u8; MAX_CELLS];
        for index in 0..seen.len() {
            unrank(index, n, k, &mut cells);
            let mut distinct = cells[..k].to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), k);
            let back = rank(cells[..k].iter().copied(), n);
            assert_eq!(back, index);
            assert!(!std::mem::replace(&mut seen[back], true));
        }
    }

    /// Patterns whose blank goals share a region build the same table (so
    /// they may share a file); a blank walled off elsewhere builds another.
    #[test]
    fn a_blank_goal_matters_only_through_its_region() {
        let board = Board::new(3, 3).unwrap();
        // Tiles on cells 1 and 3 wall off corner 0.
        let pattern = |blank_goal| Pattern {
            tiles: vec![1, 3],
            goal_cells: vec![1, 3],
            blank_goal,
        };
        let table = |p: &Pattern| build(&board, p, 1, &|_| {});
        let (corner, middle, far) = (pattern(0), pattern(4), pattern(8));
        assert!(same_table(&board, &middle, &far) && !same_table(&board, &corner, &far));
        assert_eq!(table(&middle), table(&far));
        assert_ne!(table(&corner), table(&far));
        assert_eq!(with_first_blank(&board, pattern(8)).blank_goal, 2);
        assert_eq!(with_first_blank(&board, pattern(0)).blank_goal, 0);
    }

    #[test]
    fn flood_stays_inside_free_cells_and_does_not_wrap_rows() {
        let board = Board::new(3, 3).unwrap();
        let masks = Masks::new(&board);
        // Wall down the middle column: cells 1, 4, 7 occupied.
        let free = masks.all & !((1 << 1) | (1 << 4) | (1 << 7));
        assert_eq!(masks.flood(1 << 0, free), (1 << 0) | (1 << 3) | (1 << 6));
        assert_eq!(masks.flood(1 << 2, free), (1 << 2) | (1 << 5) | (1 << 8));
    }
}
