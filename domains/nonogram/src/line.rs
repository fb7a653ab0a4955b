//! The exact line solver: given a clue and the known cells of a line, every
//! cell that has the same value in all placements of the runs consistent with
//! the known cells. A left-to-right and a right-to-left dynamic programme
//! over (runs placed, cells covered), O(cells × runs) per line.

/// A cell not yet decided.
pub const UNKNOWN: u8 = 0;
/// A filled cell.
pub const FILLED: u8 = 1;
/// An empty cell.
pub const EMPTY: u8 = 2;

/// The line admits no placement of its runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// Writes what every placement agrees on back into `cells`: a cell that may
/// only be filled (`fill(i)` and not `empty(i)`) becomes FILLED, and so on;
/// a cell that may be neither means the line has no placement. Returns
/// whether a cell changed.
fn settle(
    cells: &mut [u8],
    mut fill: impl FnMut(usize) -> bool,
    empty: impl Fn(usize) -> bool,
) -> Result<bool, Contradiction> {
    let mut changed = false;
    for (i, cell) in cells.iter_mut().enumerate() {
        let value = match (fill(i), empty(i)) {
            (true, false) => FILLED,
            (false, true) => EMPTY,
            (true, true) => UNKNOWN,
            (false, false) => return Err(Contradiction),
        };
        if value != UNKNOWN && *cell == UNKNOWN {
            *cell = value;
            changed = true;
        }
    }
    Ok(changed)
}

// Set operations on a buffer of sets of `w` words each (set `i` is
// `buf[i * w..(i + 1) * w]`); no allocation.

fn copy_set(buf: &mut [u64], from: usize, to: usize, w: usize) {
    buf.copy_within(from * w..(from + 1) * w, to * w);
}

fn and_set(buf: &mut [u64], into: usize, other: usize, w: usize) {
    for i in 0..w {
        buf[into * w + i] &= buf[other * w + i];
    }
}

fn or_set(buf: &mut [u64], into: usize, other: usize, w: usize) {
    for i in 0..w {
        buf[into * w + i] |= buf[other * w + i];
    }
}

/// Set `to` = bits `0..count`.
fn set_low_bits(buf: &mut [u64], to: usize, count: usize, w: usize) {
    for i in 0..w {
        let lo = i * 64;
        buf[to * w + i] = if count >= lo + 64 {
            !0
        } else if count <= lo {
            0
        } else {
            (1u64 << (count - lo)) - 1
        };
    }
}

/// Set `to` = set `from` moved towards higher positions by `by`.
fn shl_into(buf: &mut [u64], from: usize, by: usize, to: usize, w: usize) {
    let (whole, part) = (by / 64, by % 64);
    for i in (0..w).rev() {
        let value = if i < whole {
            0
        } else {
            let low = buf[from * w + i - whole];
            if part == 0 {
                low
            } else {
                let carry = if i > whole {
                    buf[from * w + i - whole - 1] >> (64 - part)
                } else {
                    0
                };
                low << part | carry
            }
        };
        buf[to * w + i] = value;
    }
}

/// Set `to` = set `from` moved towards lower positions by `by`.
fn shr_into(buf: &mut [u64], from: usize, by: usize, to: usize, w: usize) {
    let (whole, part) = (by / 64, by % 64);
    for i in 0..w {
        let value = if i + whole >= w {
            0
        } else {
            let high = buf[from * w + i + whole];
            if part == 0 {
                high
            } else {
                let carry = if i + whole + 1 < w {
                    buf[from * w + i + whole + 1] << (64 - part)
                } else {
                    0
                };
                high >> part | carry
            }
        };
        buf[to * w + i] = value;
    }
}

/// The bit-parallel programme for one word type (see `solve_bits64`).
macro_rules! bit_solver {
    ($(#[$doc:meta])* $name:ident, $passes:ident, $t:ty, $bits:expr, $fw:ident, $bw:ident) => {
        $(#[$doc])*
        ///
        /// With `feasibility_only`, stops after the left-to-right pass:
        /// whether the line has a placement, nothing written back.
        pub fn $name(
            &mut self,
            clue: &[u32],
            cells: &mut [u8],
            feasibility_only: bool,
        ) -> Result<bool, Contradiction> {
            let (mut may_empty, mut may_fill) = (0 as $t, 0 as $t);
            for (i, &c) in cells.iter().enumerate() {
                if c != FILLED {
                    may_empty |= 1 << i;
                }
                if c != EMPTY {
                    may_fill |= 1 << i;
                }
            }
            let (may_cover, empty_ok) =
                self.$passes(clue, cells.len(), may_empty, may_fill, feasibility_only)?;
            if feasibility_only {
                return Ok(false);
            }
            settle(cells, |i| may_cover >> i & 1 == 1, |i| empty_ok >> i & 1 == 1)
        }

        /// The passes over a line of `n` cells given as the sets of cells
        /// that may be empty and that may be filled (bits `0..n`): the
        /// cells some placement covers and those some placement leaves
        /// empty — or, with `forward_only`, only whether a placement exists
        /// (then both sets come back empty).
        fn $passes(
            &mut self,
            clue: &[u32],
            n: usize,
            may_empty: $t,
            may_fill: $t,
            forward_only: bool,
        ) -> Result<($t, $t), Contradiction> {
        debug_assert!(n < $bits);
        let k = clue.len();
        let all: $t = if n + 1 >= $bits { !0 } else { ((1 as $t) << (n + 1)) - 1 };
        let filled = !may_empty & all & !((1 as $t) << n);
        let first_filled = if filled == 0 { n } else { filled.trailing_zeros() as usize };
        let last_filled =
            (filled != 0).then(|| ($bits - 1 - filled.leading_zeros()) as usize);
        // Windows of `2^b` cells that may all be filled, for run fits, up
        // to the longest run's highest bit.
        let longest = clue.iter().copied().max().unwrap_or(0);
        let levels = (u32::BITS - longest.leading_zeros()).max(1) as usize;
        let mut windows = [0 as $t; 8];
        windows[0] = may_fill;
        for b in 1..levels.min(8) {
            let m = 1u32 << (b - 1);
            windows[b] = windows[b - 1] & windows[b - 1].checked_shr(m).unwrap_or(0);
        }
        let fits = |r: u32| {
            if r.is_power_of_two() {
                // Most runs in hard puzzles are 1, 2 or 4 cells long.
                return windows[r.trailing_zeros() as usize] & all;
            }
            let (mut fit, mut offset) = (all, 0u32);
            for (b, window) in windows.iter().enumerate().take(levels) {
                if r >> b & 1 == 1 {
                    fit &= window >> offset;
                    offset += 1 << b;
                }
            }
            fit
        };
        // Positions i >= 1 that may follow position i - 1 through an empty cell.
        let step_up = (may_empty << 1) & all;
        // A carry started at each bit of `set` runs up through the
        // positions `step_up` lets it pass, turning their ones to zeros:
        // four operations instead of a doubling loop.
        let fill_up = |set: $t| {
            let through = step_up | set;
            (set | (through & !through.wrapping_add(set))) & all
        };
        let fill_down = |mut set: $t| {
            let mut through = may_empty;
            let mut shift = 1;
            while shift <= n {
                set |= (set >> shift) & through;
                through &= through >> shift;
                shift <<= 1;
            }
            set & all
        };
        let prefix_clear = if first_filled + 1 >= $bits { all } else { (((1 as $t) << (first_filled + 1)) - 1) & all };
        let suffix_clear = match last_filled {
            None => all,
            Some(l) if l + 1 >= $bits => 0,
            Some(l) => all & !(((1 as $t) << (l + 1)) - 1),
        };
        self.$fw.clear();
        self.$fw.push(prefix_clear);
        for (j, &r) in clue.iter().enumerate() {
            let f = self.$fw[j];
            let left = if j == 0 { f } else { ((f & may_empty) << 1) & all };
            let ends = ((left & fits(r)) << r) & all;
            if ends == 0 {
                // No placement of runs 0..=j: explanations ask this of
                // lines cut short early, and need not read the rest.
                return Err(Contradiction);
            }
            self.$fw.push(fill_up(ends));
        }
        if self.$fw[k] >> n & 1 == 0 {
            return Err(Contradiction);
        }
        if forward_only {
            return Ok((0, 0));
        }
        self.$bw.clear();
        self.$bw.resize(k + 1, 0);
        self.$bw[k] = suffix_clear;
        let mut may_cover: $t = 0;
        for j in (0..k).rev() {
            let r = clue[j];
            let after = if j + 1 == k {
                suffix_clear
            } else {
                may_empty & (self.$bw[j + 1] >> 1)
            };
            let fit = fits(r);
            let starts = fit & (after >> r);
            self.$bw[j] = fill_down(starts);
            // Starts consistent on both sides, smeared over the run's cells.
            let f = self.$fw[j];
            let left = if j == 0 { f } else { ((f & may_empty) << 1) & all };
            let valid = starts & left;
            let (mut cover, mut smear, mut offset, mut width) = (0 as $t, valid, 0u32, 1u32);
            let mut rest = r;
            while rest > 0 {
                if rest & 1 == 1 {
                    cover |= smear << offset;
                    offset += width;
                }
                smear |= smear << width;
                width <<= 1;
                rest >>= 1;
            }
            may_cover |= cover;
        }
        let mut empty_ok: $t = 0;
        for j in 0..=k {
            empty_ok |= self.$fw[j] & (self.$bw[j] >> 1);
        }
        empty_ok &= may_empty;
        Ok((may_cover, empty_ok))
    }

    };
}

/// Reusable buffers, so solving a line allocates nothing once warm.
#[derive(Default, Clone)]
pub struct LineSolver {
    words: Vec<u64>,
    forward64: Vec<u64>,
    backward64: Vec<u64>,
    forward_bits: Vec<u128>,
    backward_bits: Vec<u128>,
    empties: Vec<u32>,
    filleds: Vec<u32>,
    forward: Vec<bool>,
    backward: Vec<bool>,
    can_empty: Vec<bool>,
    fill_marks: Vec<i32>,
}

impl LineSolver {
    /// Solves `cells` (values UNKNOWN / FILLED / EMPTY) against `clue` in
    /// place; returns whether any cell changed.
    pub fn solve(&mut self, clue: &[u32], cells: &mut [u8]) -> Result<bool, Contradiction> {
        if cells.len() < 64 {
            self.solve_bits64(clue, cells, false)
        } else if cells.len() < 128 {
            self.solve_bits128(clue, cells, false)
        } else {
            self.solve_words(clue, cells)
        }
    }

    /// Whether `cells` admit a placement of `clue`'s runs: the first half
    /// of [`LineSolver::solve`] on lines under 128 cells, for callers that
    /// only ask whether a partial line is consistent (the tests of
    /// explanations; explanations themselves hold bits and ask
    /// [`LineSolver::feasible_bits`]). Longer lines are solved whole, so
    /// `cells` may come back with more cells known.
    pub fn feasible(&mut self, clue: &[u32], cells: &mut [u8]) -> bool {
        let result = if cells.len() < 64 {
            self.solve_bits64(clue, cells, true)
        } else if cells.len() < 128 {
            self.solve_bits128(clue, cells, true)
        } else {
            self.solve_words(clue, cells)
        };
        result.is_ok()
    }

    /// [`LineSolver::feasible`] for a line under 128 cells given as the
    /// cells that may be empty and those that may be filled (bits `0..n`),
    /// so a caller that already holds the line as bits builds no cells.
    pub fn feasible_bits(
        &mut self,
        clue: &[u32],
        n: usize,
        may_empty: u128,
        may_fill: u128,
    ) -> bool {
        debug_assert!(n < 128);
        if n < 64 {
            // Bits above n are never read: the truncation keeps 0..n.
            self.passes64(clue, n, may_empty as u64, may_fill as u64, true)
                .is_ok()
        } else {
            self.passes128(clue, n, may_empty, may_fill, true).is_ok()
        }
    }

    bit_solver!(
        /// The same programme with one bit per position, for lines under 64
        /// cells: each run costs a few dozen word operations. Bit `i` of
        /// `forward[j]`: runs `0..j` fit in cells `0..i` with the rest
        /// empty; bit `i` of `backward[j]`: runs `j..` fit in `i..n`.
        solve_bits64, passes64, u64, 64, forward64, backward64
    );
    bit_solver!(
        /// [`LineSolver::solve_bits64`] for lines under 128 cells.
        solve_bits128, passes128, u128, 128, forward_bits, backward_bits
    );

    /// The bit-parallel programme over multi-word bit sets, for long lines:
    /// each run costs O(cells / 64 × log cells) word operations instead of
    /// the table's O(cells). All sets live in one reused buffer.
    pub fn solve_words(&mut self, clue: &[u32], cells: &mut [u8]) -> Result<bool, Contradiction> {
        let n = cells.len();
        let k = clue.len();
        let w = (n + 1).div_ceil(64);
        let levels = (usize::BITS - n.leading_zeros()) as usize + 1;
        // Layout of the buffer, in sets of `w` words.
        const ALL: usize = 0;
        const EMPTY_OK: usize = 1;
        const STEP_UP: usize = 2;
        const T1: usize = 3;
        const FIT: usize = 4;
        const LEFT: usize = 5;
        const PREFIX: usize = 6;
        const SUFFIX: usize = 7;
        const COVER: usize = 8;
        const EMPTYABLE: usize = 9;
        const AFTER: usize = 10;
        const NEXT_BACK: usize = 11;
        const WINDOWS: usize = 12;
        let forward_at = WINDOWS + levels;
        let fits_at = forward_at + k + 1;
        let sets = fits_at + k;
        let buf = &mut self.words;
        buf.clear();
        buf.resize(sets * w, 0);
        let at = |set: usize| set * w..(set + 1) * w;
        for word in &mut buf[at(ALL)] {
            *word = !0;
        }
        if !(n + 1).is_multiple_of(64) {
            buf[ALL * w + w - 1] = (1u64 << ((n + 1) % 64)) - 1;
        }
        let (mut first_filled, mut last_filled) = (n, None);
        for (i, &c) in cells.iter().enumerate() {
            if c != FILLED {
                buf[EMPTYABLE * w + i / 64] |= 1 << (i % 64);
            } else {
                first_filled = first_filled.min(i);
                last_filled = Some(i);
            }
            if c != EMPTY {
                buf[WINDOWS * w + i / 64] |= 1 << (i % 64);
            }
        }
        for b in 1..levels {
            shr_into(buf, WINDOWS + b - 1, 1 << (b - 1), T1, w);
            copy_set(buf, WINDOWS + b - 1, WINDOWS + b, w);
            and_set(buf, WINDOWS + b, T1, w);
        }
        shl_into(buf, EMPTYABLE, 1, STEP_UP, w);
        and_set(buf, STEP_UP, ALL, w);
        set_low_bits(buf, PREFIX, first_filled + 1, w);
        and_set(buf, PREFIX, ALL, w);
        match last_filled {
            None => copy_set(buf, ALL, SUFFIX, w),
            Some(l) => {
                set_low_bits(buf, SUFFIX, l + 1, w);
                for i in at(SUFFIX) {
                    buf[i] = !buf[i] & buf[i - SUFFIX * w + ALL * w];
                }
            }
        }
        // FIT = cells where a run of r may start (all r cells may be filled).
        let fits = |buf: &mut Vec<u64>, r: usize| {
            copy_set(buf, ALL, FIT, w);
            let mut offset = 0;
            for b in 0..levels {
                if r >> b & 1 == 1 {
                    shr_into(buf, WINDOWS + b, offset, T1, w);
                    and_set(buf, FIT, T1, w);
                    offset += 1 << b;
                }
            }
        };
        // LEFT = starts whose left side fits runs 0..j (from forward[j]).
        let left_of = |buf: &mut Vec<u64>, j: usize| {
            if j == 0 {
                copy_set(buf, forward_at, LEFT, w);
            } else {
                copy_set(buf, forward_at + j, T1, w);
                and_set(buf, T1, EMPTYABLE, w);
                shl_into(buf, T1, 1, LEFT, w);
                and_set(buf, LEFT, ALL, w);
            }
        };
        // set |= everything reachable upwards (downwards) through `through`:
        // one pass over the words. Upwards, an addition carries each set
        // bit through the positions it may pass (see `fill_up` in
        // `bit_solver`), word into word; downwards, the edge bit is carried
        // into the next word and each word filled by doubling.
        let fill = |buf: &mut Vec<u64>, set: usize, through_from: usize, up: bool| {
            let mut carry = 0u64;
            for step in 0..w {
                let i = if up { step } else { w - 1 - step };
                let through = buf[through_from * w + i];
                let mut reached = buf[set * w + i];
                let mut pass = through;
                if up {
                    let passing = through | reached;
                    let (sum, over) = passing.overflowing_add(reached);
                    let (sum, over_again) = sum.overflowing_add(carry);
                    carry = u64::from(over | over_again);
                    reached |= passing & !sum;
                } else {
                    reached |= (carry << 63) & through;
                    let mut shift = 1;
                    while shift < 64 {
                        reached |= (reached >> shift) & pass;
                        pass &= pass >> shift;
                        shift <<= 1;
                    }
                    carry = reached & 1;
                }
                buf[set * w + i] = reached & buf[ALL * w + i];
            }
        };
        copy_set(buf, PREFIX, forward_at, w);
        for (j, &r) in clue.iter().enumerate() {
            left_of(buf, j);
            fits(buf, r as usize);
            copy_set(buf, FIT, fits_at + j, w);
            and_set(buf, LEFT, FIT, w);
            shl_into(buf, LEFT, r as usize, forward_at + j + 1, w);
            fill(buf, forward_at + j + 1, STEP_UP, true);
        }
        if buf[(forward_at + k) * w + n / 64] >> (n % 64) & 1 == 0 {
            return Err(Contradiction);
        }
        // Backward pass: NEXT_BACK holds backward[j + 1]; EMPTY_OK and
        // COVER collect what each cell may be.
        copy_set(buf, SUFFIX, NEXT_BACK, w);
        shr_into(buf, SUFFIX, 1, EMPTY_OK, w);
        and_set(buf, EMPTY_OK, forward_at + k, w);
        for j in (0..k).rev() {
            let r = clue[j] as usize;
            if j + 1 == k {
                copy_set(buf, SUFFIX, AFTER, w);
            } else {
                shr_into(buf, NEXT_BACK, 1, AFTER, w);
                and_set(buf, AFTER, EMPTYABLE, w);
            }
            copy_set(buf, fits_at + j, FIT, w);
            shr_into(buf, AFTER, r, T1, w);
            and_set(buf, FIT, T1, w); // FIT = starts with a fitting right side
            copy_set(buf, FIT, NEXT_BACK, w);
            fill(buf, NEXT_BACK, EMPTYABLE, false); // backward[j]
            left_of(buf, j);
            and_set(buf, LEFT, FIT, w); // valid starts
                                        // Smear the valid starts over the run's r cells into COVER.
            let (mut offset, mut width, mut rest) = (0usize, 1usize, r);
            while rest > 0 {
                if rest & 1 == 1 {
                    shl_into(buf, LEFT, offset, T1, w);
                    or_set(buf, COVER, T1, w);
                    offset += width;
                }
                shl_into(buf, LEFT, width, T1, w);
                or_set(buf, LEFT, T1, w);
                width <<= 1;
                rest >>= 1;
            }
            shr_into(buf, NEXT_BACK, 1, T1, w);
            and_set(buf, T1, forward_at + j, w);
            or_set(buf, EMPTY_OK, T1, w);
        }
        and_set(buf, EMPTY_OK, EMPTYABLE, w);
        let bit = |set: usize, i: usize| buf[set * w + i / 64] >> (i % 64) & 1 == 1;
        settle(cells, |i| bit(COVER, i), |i| bit(EMPTY_OK, i))
    }

    /// The programme over a table of booleans, for lines of any length: the
    /// plain reference the bit-parallel versions are tested against.
    pub fn solve_table(&mut self, clue: &[u32], cells: &mut [u8]) -> Result<bool, Contradiction> {
        let n = cells.len();
        let k = clue.len();
        // Prefix counts of known empties and known filleds.
        self.empties.clear();
        self.filleds.clear();
        self.empties.push(0);
        self.filleds.push(0);
        for &c in cells.iter() {
            let (e, f) = (
                self.empties[self.empties.len() - 1],
                self.filleds[self.filleds.len() - 1],
            );
            self.empties.push(e + u32::from(c == EMPTY));
            self.filleds.push(f + u32::from(c == FILLED));
        }
        let (pe, pf) = (&self.empties, &self.filleds);
        let fits = |s: usize, r: usize| pe[s + r] == pe[s];
        let clear = |a: usize, b: usize| pf[b] == pf[a];
        let can_empty = |i: usize| cells[i] != FILLED;
        let w = n + 1;
        // forward[j * w + i]: runs 0..j fit in cells 0..i, the rest of 0..i empty.
        self.forward.clear();
        self.forward.resize((k + 1) * w, false);
        let fw = &mut self.forward;
        for (i, f) in fw.iter_mut().enumerate().take(n + 1) {
            *f = clear(0, i);
        }
        for j in 1..=k {
            let r = clue[j - 1] as usize;
            for i in 0..=n {
                let mut ok = i >= 1 && can_empty(i - 1) && fw[j * w + i - 1];
                if !ok && i >= r {
                    let s = i - r;
                    ok = fits(s, r)
                        && if j == 1 {
                            fw[s]
                        } else {
                            s >= 1 && can_empty(s - 1) && fw[(j - 1) * w + s - 1]
                        };
                }
                fw[j * w + i] = ok;
            }
        }
        if !fw[k * w + n] {
            return Err(Contradiction);
        }
        // backward[j * w + i]: runs j..k fit in cells i..n, the rest empty.
        self.backward.clear();
        self.backward.resize((k + 1) * w, false);
        let bw = &mut self.backward;
        for i in 0..=n {
            bw[k * w + i] = clear(i, n);
        }
        for j in (0..k).rev() {
            let r = clue[j] as usize;
            for i in (0..=n).rev() {
                let mut ok = i < n && can_empty(i) && bw[j * w + i + 1];
                if !ok && i + r <= n {
                    let e = i + r;
                    ok = fits(i, r)
                        && if j + 1 == k {
                            bw[k * w + e]
                        } else {
                            e < n && can_empty(e) && bw[(j + 1) * w + e + 1]
                        };
                }
                bw[j * w + i] = ok;
            }
        }
        // Which cells can be empty, which can be filled.
        self.can_empty.clear();
        self.can_empty.resize(n, false);
        self.fill_marks.clear();
        self.fill_marks.resize(n + 1, 0);
        for i in 0..n {
            if can_empty(i) {
                self.can_empty[i] = (0..=k).any(|j| fw[j * w + i] && bw[j * w + i + 1]);
            }
        }
        for (j, &r) in clue.iter().enumerate() {
            let r = r as usize;
            for s in 0..=(n - r) {
                if !fits(s, r) {
                    continue;
                }
                let left = if j == 0 {
                    fw[s]
                } else {
                    s >= 1 && can_empty(s - 1) && fw[j * w + s - 1]
                };
                if !left {
                    continue;
                }
                let e = s + r;
                let right = if j + 1 == k {
                    bw[k * w + e]
                } else {
                    e < n && can_empty(e) && bw[(j + 1) * w + e + 1]
                };
                if right {
                    self.fill_marks[s] += 1;
                    self.fill_marks[e] -= 1;
                }
            }
        }
        // Cells are visited in order, so the running sum of the marks says
        // whether some valid placement covers cell i.
        let mut covered = 0;
        let (marks, can_empty) = (&self.fill_marks, &self.can_empty);
        settle(
            cells,
            |i| {
                covered += marks[i];
                covered > 0
            },
            |i| can_empty[i],
        )
    }
}

/// The cells of every row and column at two bits a cell (the values
/// UNKNOWN, FILLED and EMPTY fit in two bits), kept up to date cell by
/// cell: a line's state is then a few words, ready to be a [`LineCache`]
/// key without reading the grid, and a column costs no strided reads.
/// Lines are numbered as in the solvers: rows `0..height`, then columns.
#[derive(Clone, Debug)]
pub struct PackedLines {
    width: usize,
    height: usize,
    row_words: usize,
    col_words: usize,
    rows: Vec<u64>,
    cols: Vec<u64>,
}

impl PackedLines {
    /// Every cell unknown.
    pub fn new(width: usize, height: usize) -> PackedLines {
        let (row_words, col_words) = (width.div_ceil(32).max(1), height.div_ceil(32).max(1));
        PackedLines {
            width,
            height,
            row_words,
            col_words,
            rows: vec![0; height * row_words],
            cols: vec![0; width * col_words],
        }
    }

    /// Sets row-major `cell` to `value` (UNKNOWN to clear it).
    pub fn set(&mut self, cell: usize, value: u8) {
        let (r, c) = (cell / self.width, cell % self.width);
        let put = |word: &mut u64, at: usize| {
            *word = (*word & !(3 << (2 * at))) | u64::from(value) << (2 * at);
        };
        put(&mut self.rows[r * self.row_words + c / 32], c % 32);
        put(&mut self.cols[c * self.col_words + r / 32], r % 32);
    }

    /// Line `line`'s words.
    pub fn line(&self, line: usize) -> &[u64] {
        if line < self.height {
            &self.rows[line * self.row_words..(line + 1) * self.row_words]
        } else {
            let c = line - self.height;
            &self.cols[c * self.col_words..(c + 1) * self.col_words]
        }
    }
}

/// A grid's rows and columns kept packed ([`PackedLines`]) with a cached
/// line solver in front: what propagation needs to re-solve a line and
/// learn which cells that fixed.
pub struct GridLines {
    packed: PackedLines,
    solver: LineSolver,
    quick: crate::overlap::OverlapSolver,
    cache: LineCache,
    scratch: Vec<u8>,
    before: Vec<u64>,
    after: Vec<u64>,
}

impl GridLines {
    /// Every cell unknown; line states go through `cache`.
    pub fn new(width: usize, height: usize, cache: LineCache) -> GridLines {
        GridLines {
            packed: PackedLines::new(width, height),
            solver: LineSolver::default(),
            quick: crate::overlap::OverlapSolver::default(),
            cache,
            scratch: Vec::new(),
            before: Vec::new(),
            after: Vec::new(),
        }
    }

    /// Sets row-major `cell` to `value` (UNKNOWN to clear it).
    pub fn set(&mut self, cell: usize, value: u8) {
        self.packed.set(cell, value);
    }

    /// Solves line `line` (of `len` cells, against `clue`) as it stands and
    /// puts into `changes` each (position in the line, value) the solve
    /// fixed; counts the solve or the cache hit in `stats`.
    pub fn solve(
        &mut self,
        (line, clue): (usize, &[u32]),
        len: usize,
        stats: &mut crate::solver::SolveStats,
        changes: &mut Vec<(usize, u8)>,
    ) -> Result<(), Contradiction> {
        self.before.clear();
        self.before.extend_from_slice(self.packed.line(line));
        let misses = self.cache.misses;
        let solved = self.cache.solve(
            &mut self.solver,
            (line, clue),
            &self.before,
            len,
            &mut self.scratch,
            &mut self.after,
        );
        if self.cache.misses > misses {
            stats.line_solves += 1;
        } else {
            stats.line_cache_hits += 1;
        }
        solved?;
        changes.clear();
        for_each_change(&self.before, &self.after, |i, value| {
            changes.push((i, value))
        });
        Ok(())
    }

    /// Solves the next line `queue` holds (see [`LineQueue`]) and puts into
    /// `changes` each (position in the line, value) the solve fixed.
    /// Returns the line and whether it has a placement; `None` when no line
    /// waits.
    pub fn solve_next(
        &mut self,
        queue: &mut LineQueue,
        puzzle: &crate::Puzzle,
        stats: &mut crate::solver::SolveStats,
        changes: &mut Vec<(usize, u8)>,
    ) -> Option<(usize, Result<(), Contradiction>)> {
        let (line, exact) = queue.pop()?;
        let (clue, _, _, len) = puzzle.line(line);
        if !exact && queue.quick_first && len >= QUICK_CELLS {
            match self.solve_quick((line, clue), len, stats, changes) {
                Ok(Quick::Exact) => return Some((line, Ok(()))),
                Ok(Quick::Partial) => {
                    queue.push_exact(line);
                    return Some((line, Ok(())));
                }
                Ok(Quick::GaveUp) => {}
                Err(contradiction) => return Some((line, Err(contradiction))),
            }
        }
        Some((line, self.solve((line, clue), len, stats, changes)))
    }

    /// The exact answer where the cache holds it, or else what the quick
    /// solver (`crate::overlap`) fixes, into `changes`.
    fn solve_quick(
        &mut self,
        (line, clue): (usize, &[u32]),
        len: usize,
        stats: &mut crate::solver::SolveStats,
        changes: &mut Vec<(usize, u8)>,
    ) -> Result<Quick, Contradiction> {
        changes.clear();
        let known = self.packed.line(line);
        if let Some(answer) = self.cache.cached(line, known, len, &mut self.after) {
            stats.line_cache_hits += 1;
            answer?;
            for_each_change(known, &self.after, |i, value| changes.push((i, value)));
            return Ok(Quick::Exact);
        }
        self.scratch.clear();
        self.scratch.resize(len, UNKNOWN);
        unpack_cells(known, &mut self.scratch);
        stats.quick_line_solves += 1;
        if self.quick.solve(clue, &mut self.scratch)?.is_none() {
            return Ok(Quick::GaveUp);
        }
        self.after.clear();
        pack_cells(&self.scratch, &mut self.after);
        for_each_change(known, &self.after, |i, value| changes.push((i, value)));
        Ok(Quick::Partial)
    }
}

/// Lines of at least this many cells are solved quickly first (see
/// [`LineQueue`]): shorter ones go to the one-word bit-parallel solvers,
/// which cost about what the quick solver does.
const QUICK_CELLS: usize = 128;

/// What [`GridLines::solve_quick`] made of a line.
enum Quick {
    /// The exact answer, from the cache.
    Exact,
    /// The quick solver's: sound, maybe short of the exact one.
    Partial,
    /// Nothing: the quick solver gave up.
    GaveUp,
}

/// Lines waiting to be solved, first in first out (a line waits while
/// others add to what it knows, so it is solved fewer times), in two
/// tiers. A long line is solved quickly first (`crate::overlap`: one scan,
/// where the exact solver makes passes per run over the whole line) and
/// then waits for an exact solve, which comes once no line waits for a
/// quick one. Propagation still ends at the exact fixed point, but long
/// lines are solved exactly about once each instead of every time a
/// crossing line adds a cell: a random 500×500 went from 8,249 exact solves
/// to 1,000 (and 9,058 quick ones), 0.26 s to 0.11 s.
pub struct LineQueue {
    quick_first: bool,
    quick: std::collections::VecDeque<u32>,
    in_quick: Vec<bool>,
    exact: std::collections::VecDeque<u32>,
    in_exact: Vec<bool>,
}

impl LineQueue {
    /// All `lines` lines waiting.
    pub fn all(lines: usize) -> LineQueue {
        LineQueue {
            quick_first: true,
            quick: (0..lines as u32).collect(),
            in_quick: vec![true; lines],
            exact: std::collections::VecDeque::new(),
            in_exact: vec![false; lines],
        }
    }

    /// Whether long lines are solved quickly first (they are unless this
    /// turns it off); returns the setting before.
    pub fn set_quick_first(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.quick_first, on)
    }

    /// Queues `line`, one of whose cells changed.
    pub fn push(&mut self, line: usize) {
        if !self.in_quick[line] {
            self.in_quick[line] = true;
            self.quick.push_back(line as u32);
        }
    }

    /// Queues `line` for an exact solve, after every quick one.
    fn push_exact(&mut self, line: usize) {
        if !self.in_exact[line] {
            self.in_exact[line] = true;
            self.exact.push_back(line as u32);
        }
    }

    /// The next line, and whether it waits for an exact solve.
    fn pop(&mut self) -> Option<(usize, bool)> {
        if let Some(line) = self.quick.pop_front() {
            self.in_quick[line as usize] = false;
            return Some((line as usize, false));
        }
        let line = self.exact.pop_front()? as usize;
        self.in_exact[line] = false;
        Some((line, true))
    }

    /// Empties the queue.
    pub fn clear(&mut self) {
        for (queue, queued) in [
            (&mut self.quick, &mut self.in_quick),
            (&mut self.exact, &mut self.in_exact),
        ] {
            for &line in queue.iter() {
                queued[line as usize] = false;
            }
            queue.clear();
        }
    }
}

/// Remembers line solutions by (line, known cells), so that a line state met
/// again is answered without solving. Probing meets the same states over
/// and over: every probe starts from the same grid, neighbouring probes
/// often cascade identically after a step or two, and a probing round
/// repeats every probe that nothing it read has changed since.
///
/// The cache is dropped whole when it outgrows its byte budget: simpler
/// than least-recently-used eviction, and the states that matter come back
/// within a round. Lines under 64 cells are kept apart, in a direct-mapped
/// table of at most 10 MiB outside the budget.
pub struct LineCache {
    map: hashbrown::HashMap<Box<[u64]>, Option<Box<[u64]>>>,
    /// Lines under 64 cells (two words packed) go to a direct-mapped table
    /// instead: a lookup hashes three words and compares them, with no key
    /// to allocate, compare by `memcmp` or rehash, where a short line
    /// solves in a few hundred nanoseconds. A colliding state overwrites.
    short: Vec<ShortEntry>,
    /// `misses` when the short table last grew.
    short_grown: u64,
    key: Vec<u64>,
    bytes: usize,
    budget: usize,
    shortest: usize,
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups that had to solve the line.
    pub misses: u64,
}

/// Bytes a cache may hold before it is dropped.
const LINE_CACHE_BYTES: usize = 256 << 20;

/// Slots of the short-line table at most (40 bytes each: 10 MiB), and at
/// first.
const SHORT_SLOTS: usize = 1 << 18;
const SHORT_FIRST_SLOTS: usize = 1 << 12;

/// A short line's state and its solution, in [`LineCache::short`].
#[derive(Clone, Copy, Default)]
struct ShortEntry {
    /// The line's number plus one (0: an empty slot), with bit 63 set when
    /// the state has no solution.
    tag: u64,
    known: [u64; 2],
    solved: [u64; 2],
}

const NO_SOLUTION: u64 = 1 << 63;

impl Default for LineCache {
    fn default() -> LineCache {
        LineCache::with_budget(LINE_CACHE_BYTES)
    }
}

impl LineCache {
    /// A cache holding at most about `budget` bytes of lines of 64 cells
    /// or more (and at most 10 MiB of shorter ones).
    pub fn with_budget(budget: usize) -> LineCache {
        LineCache {
            map: hashbrown::HashMap::new(),
            short: Vec::new(),
            short_grown: 0,
            key: Vec::new(),
            bytes: 0,
            budget,
            shortest: 0,
            hits: 0,
            misses: 0,
        }
    }

    /// Solves lines shorter than `cells` without the cache: where a line
    /// state rarely comes back (conflict-driven search on small puzzles),
    /// hashing and storing it costs more than solving a short line again.
    pub fn from_length(mut self, cells: usize) -> LineCache {
        self.shortest = cells;
        self
    }

    /// Makes `key` the map's key of line number `line` in state `known`.
    fn set_key(&mut self, line: usize, known: &[u64]) {
        self.key.clear();
        self.key.push(line as u64);
        self.key.extend_from_slice(known);
    }

    /// The solved state of a line of 64 cells or more, as
    /// [`LineCache::solve`] would write it, where the cache holds it;
    /// `None` where it would have to solve.
    fn cached(
        &mut self,
        line: usize,
        known: &[u64],
        len: usize,
        solved: &mut Vec<u64>,
    ) -> Option<Result<(), Contradiction>> {
        if len < self.shortest.max(64) {
            return None;
        }
        self.set_key(line, known);
        let answer = self.map.get(self.key.as_slice())?;
        self.hits += 1;
        let packed = answer.as_ref().ok_or(Contradiction);
        Some(packed.map(|packed| {
            solved.clear();
            solved.extend_from_slice(packed);
        }))
    }

    /// Writes into `solved` the solved state of line number `line` (a
    /// number that always comes with the same clue) whose `len` cells are
    /// `known` (as packed by [`PackedLines`]), packed the same way; `scratch`
    /// is a buffer for the solver.
    pub fn solve(
        &mut self,
        solver: &mut LineSolver,
        (line, clue): (usize, &[u32]),
        known: &[u64],
        len: usize,
        scratch: &mut Vec<u8>,
        solved: &mut Vec<u64>,
    ) -> Result<(), Contradiction> {
        if len < self.shortest {
            self.misses += 1;
            solved.clear();
            return solve_packed(solver, clue, known, len, scratch, solved);
        }
        if len < 64 {
            // Through the direct-mapped table (see `short`).
            // The table starts small (a small puzzle's few states cost no
            // megabytes to clear) and doubles, emptied, while misses outnumber
            // its slots.
            if self.short.is_empty()
                || (self.short.len() < SHORT_SLOTS
                    && self.misses - self.short_grown > 2 * self.short.len() as u64)
            {
                let slots = (2 * self.short.len()).clamp(SHORT_FIRST_SLOTS, SHORT_SLOTS);
                self.short = vec![ShortEntry::default(); slots];
                self.short_grown = self.misses;
            }
            let words = [
                known.first().copied().unwrap_or(0),
                known.get(1).copied().unwrap_or(0),
            ];
            let tag = line as u64 + 1;
            let mut hash = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for word in words {
                hash = (hash ^ word).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
                hash ^= hash >> 29;
            }
            let slots = self.short.len();
            let slot = &mut self.short[(hash >> 7) as usize & (slots - 1)];
            solved.clear();
            if slot.tag & !NO_SOLUTION == tag && slot.known == words {
                self.hits += 1;
                if slot.tag & NO_SOLUTION != 0 {
                    return Err(Contradiction);
                }
                solved.extend_from_slice(&slot.solved[..known.len()]);
                return Ok(());
            }
            self.misses += 1;
            let answer = solve_packed(solver, clue, known, len, scratch, solved);
            let mut entry = ShortEntry {
                tag,
                known: words,
                solved: [0; 2],
            };
            match answer {
                Ok(()) => entry.solved[..solved.len()].copy_from_slice(solved),
                Err(Contradiction) => entry.tag |= NO_SOLUTION,
            }
            *slot = entry;
            return answer;
        }
        self.set_key(line, known);
        let entry_bytes = 16 * self.key.len() + 64;
        if self.bytes + entry_bytes > self.budget {
            self.map.clear();
            self.bytes = 0;
        }
        let answer = match self.map.entry_ref(self.key.as_slice()) {
            hashbrown::hash_map::EntryRef::Occupied(entry) => {
                self.hits += 1;
                entry.into_mut()
            }
            hashbrown::hash_map::EntryRef::Vacant(entry) => {
                self.misses += 1;
                self.bytes += entry_bytes;
                let mut packed = Vec::with_capacity(known.len());
                let answer = solve_packed(solver, clue, known, len, scratch, &mut packed)
                    .ok()
                    .map(|()| packed.into_boxed_slice());
                entry.insert_with_key(self.key.clone().into_boxed_slice(), answer)
            }
        };
        let packed = answer.as_ref().ok_or(Contradiction)?;
        solved.clear();
        solved.extend_from_slice(packed);
        Ok(())
    }
}

/// Solves the line of `len` cells packed in `known` and appends its solved
/// state, packed, to `out`.
fn solve_packed(
    solver: &mut LineSolver,
    clue: &[u32],
    known: &[u64],
    len: usize,
    scratch: &mut Vec<u8>,
    out: &mut Vec<u64>,
) -> Result<(), Contradiction> {
    if len < 64 {
        // Straight from two bits a cell to the bit-parallel passes and
        // back: no cells to unpack, settle and pack.
        let (mut filled, mut empty) = (0u64, 0u64);
        for (k, &word) in known.iter().enumerate() {
            filled |= u64::from(even_bits(word)) << (32 * k);
            empty |= u64::from(even_bits(word >> 1)) << (32 * k);
        }
        let every = (1u64 << len) - 1;
        let (cover, empty_ok) =
            solver.passes64(clue, len, every & !filled, every & !empty, false)?;
        if (cover | empty_ok) & every != every {
            return Err(Contradiction);
        }
        let (fill, blank) = (cover & !empty_ok, empty_ok & !cover);
        for k in 0..len.div_ceil(32) {
            let (f, b) = ((fill >> (32 * k)) as u32, (blank >> (32 * k)) as u32);
            out.push((spread_bits(f) * u64::from(FILLED)) | (spread_bits(b) * u64::from(EMPTY)));
        }
        return Ok(());
    }
    scratch.clear();
    scratch.resize(len, UNKNOWN);
    unpack_cells(known, scratch);
    solver.solve(clue, scratch)?;
    pack_cells(scratch, out);
    Ok(())
}

/// The even bits of `word` (bit `2i` becomes bit `i`): a packed line's
/// low bits (with `word >> 1`, its high bits).
fn even_bits(word: u64) -> u32 {
    let mut x = word & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF;
    x as u32
}

/// The inverse of [`even_bits`]: bit `i` becomes bit `2i`.
fn spread_bits(bits: u32) -> u64 {
    let mut x = u64::from(bits);
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    x = (x | x << 1) & 0x5555_5555_5555_5555;
    x
}

/// Appends `cells` at two bits a cell.
fn pack_cells(cells: &[u8], out: &mut Vec<u64>) {
    for chunk in cells.chunks(32) {
        let mut word = 0u64;
        for (i, &c) in chunk.iter().enumerate() {
            word |= u64::from(c) << (2 * i);
        }
        out.push(word);
    }
}

fn unpack_cells(packed: &[u64], cells: &mut [u8]) {
    for (chunk, &word) in cells.chunks_mut(32).zip(packed) {
        for (i, c) in chunk.iter_mut().enumerate() {
            *c = (word >> (2 * i) & 3) as u8;
        }
    }
}

/// Calls `changed(position, value)` for every cell of `after` that differs
/// from `before` (both packed lines).
pub fn for_each_change(before: &[u64], after: &[u64], mut changed: impl FnMut(usize, u8)) {
    for (k, (&b, &a)) in before.iter().zip(after).enumerate() {
        let mut diff = a ^ b;
        while diff != 0 {
            let bit = diff.trailing_zeros() & !1;
            changed(k * 32 + bit as usize / 2, (a >> bit & 3) as u8);
            diff &= !(3 << bit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of the runs, by brute force.
    fn placements(clue: &[u32], n: usize) -> Vec<Vec<u8>> {
        fn go(clue: &[u32], n: usize, at: usize, line: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            let Some((&r, rest)) = clue.split_first() else {
                let mut done = line.clone();
                done.resize(n, EMPTY);
                out.push(done);
                return;
            };
            let r = r as usize;
            for s in at..=n.saturating_sub(r) {
                if s + r > n {
                    break;
                }
                let keep = line.len();
                line.resize(s, EMPTY);
                line.extend(std::iter::repeat_n(FILLED, r));
                if !rest.is_empty() {
                    line.push(EMPTY);
                }
                go(rest, n, line.len(), line, out);
                line.truncate(keep);
            }
        }
        let mut out = Vec::new();
        go(clue, n, 0, &mut Vec::new(), &mut out);
        out.retain(|p| p.len() == n);
        out
    }

    #[test]
    fn both_programmes_equal_brute_force_on_random_lines() {
        let mut rng = frontier_core::rng::SplitMix64::new(0x1234_5678_9ABC_DEF0u64);
        let mut next = |m: u64| rng.below(m);
        let mut solver = LineSolver::default();
        for _ in 0..20_000 {
            let n = 1 + next(14) as usize;
            let mut clue = Vec::new();
            let mut used = 0;
            while used < n && next(3) > 0 {
                let r = 1 + next(4) as u32;
                if used + r as usize + usize::from(!clue.is_empty()) > n {
                    break;
                }
                used += r as usize + usize::from(!clue.is_empty());
                clue.push(r);
            }
            let cells: Vec<u8> = (0..n)
                .map(|_| match next(5) {
                    0 => FILLED,
                    1 => EMPTY,
                    _ => UNKNOWN,
                })
                .collect();
            let consistent: Vec<Vec<u8>> = placements(&clue, n)
                .into_iter()
                .filter(|p| p.iter().zip(&cells).all(|(&v, &c)| c == UNKNOWN || c == v))
                .collect();
            let expected = if consistent.is_empty() {
                None
            } else {
                Some(
                    (0..n)
                        .map(|i| {
                            let v = consistent[0][i];
                            if consistent.iter().all(|p| p[i] == v) {
                                v
                            } else {
                                UNKNOWN
                            }
                        })
                        .collect::<Vec<u8>>(),
                )
            };
            for bits in [64, 128, 1, 0] {
                let mut got = cells.clone();
                let result = match bits {
                    64 => solver.solve_bits64(&clue, &mut got, false),
                    128 => solver.solve_bits128(&clue, &mut got, false),
                    1 => solver.solve_words(&clue, &mut got),
                    _ => solver.solve_table(&clue, &mut got),
                };
                match &expected {
                    None => assert!(result.is_err(), "{clue:?} {cells:?} bits={bits}"),
                    Some(e) => {
                        assert!(result.is_ok(), "{clue:?} {cells:?} bits={bits}");
                        assert_eq!(&got, e, "{clue:?} {cells:?} bits={bits}");
                    }
                }
            }
            // The feasibility-only pass agrees, and leaves short lines as
            // they were.
            let mut probe = cells.clone();
            let feasible = solver.feasible(&clue, &mut probe);
            assert_eq!(feasible, expected.is_some(), "{clue:?} {cells:?}");
            assert_eq!(probe, cells, "{clue:?}");
        }
    }

    #[test]
    fn word_programmes_equal_the_table_on_long_lines() {
        let mut rng = frontier_core::rng::SplitMix64::new(0x0DDB_1A5E_5BAD_5EEDu64);
        let mut next = |m: u64| rng.below(m);
        let mut solver = LineSolver::default();
        for round in 0..3000 {
            let n = [63, 64, 65, 127, 128, 1 + next(200) as usize][round % 6];
            // Clues from a random line, so most are feasible.
            let truth: Vec<bool> = (0..n).map(|_| next(3) > 0).collect();
            let mut clue = Vec::new();
            let mut run = 0;
            for &t in truth.iter().chain([false].iter()) {
                if t {
                    run += 1;
                } else if run > 0 {
                    clue.push(run);
                    run = 0;
                }
            }
            let cells: Vec<u8> = (0..n)
                .map(|i| match next(8) {
                    0 => {
                        if truth[i] {
                            FILLED
                        } else {
                            EMPTY
                        }
                    }
                    1 => {
                        if next(4) == 0 {
                            FILLED
                        } else {
                            EMPTY
                        }
                    }
                    _ => UNKNOWN,
                })
                .collect();
            let (mut a, mut b) = (cells.clone(), cells.clone());
            let ra = solver.solve(&clue, &mut a);
            let rb = solver.solve_table(&clue, &mut b);
            assert_eq!(ra.is_ok(), rb.is_ok(), "n={n} {clue:?}");
            if ra.is_ok() {
                assert_eq!(a, b, "n={n} {clue:?}");
            }
            let mut c = cells.clone();
            let rc = solver.solve_words(&clue, &mut c);
            assert_eq!(rc.is_ok(), rb.is_ok(), "words n={n} {clue:?}");
            if rc.is_ok() {
                assert_eq!(c, b, "words n={n} {clue:?}");
            }
            let feasible = solver.feasible(&clue, &mut cells.clone());
            assert_eq!(feasible, rb.is_ok(), "feasible n={n} {clue:?}");
            if n < 128 {
                let may_empty = (0..n)
                    .filter(|&i| cells[i] != FILLED)
                    .fold(0u128, |m, i| m | 1 << i);
                let may_fill = (0..n)
                    .filter(|&i| cells[i] != EMPTY)
                    .fold(0u128, |m, i| m | 1 << i);
                let by_bits = solver.feasible_bits(&clue, n, may_empty, may_fill);
                assert_eq!(by_bits, rb.is_ok(), "feasible_bits n={n} {clue:?}");
            }
        }
    }

    /// Lines under 64 cells skip unpacking: the packed answer equals
    /// solving the cells, on one and two words, contradictions included.
    #[test]
    fn packed_short_lines_equal_solving_the_cells() {
        let mut rng = frontier_core::rng::SplitMix64::new(0x5407_7E11_0000_0064u64);
        let mut next = |m: u64| rng.below(m);
        let mut solver = LineSolver::default();
        let (mut contradictions, mut changes) = (0, 0);
        for round in 0..20_000 {
            let len = [1, 31, 32, 33, 63, 1 + next(63) as usize][round % 6];
            let clue: Vec<u32> = (0..next(len as u64 / 3 + 2))
                .map(|_| 1 + next(4) as u32)
                .collect();
            let cells: Vec<u8> = (0..len)
                .map(|_| [UNKNOWN, UNKNOWN, FILLED, EMPTY][next(4) as usize])
                .collect();
            let mut known = Vec::new();
            pack_cells(&cells, &mut known);
            let mut expected = cells.clone();
            let direct = solver.solve(&clue, &mut expected);
            let (mut scratch, mut out) = (Vec::new(), Vec::new());
            let packed = solve_packed(&mut solver, &clue, &known, len, &mut scratch, &mut out);
            assert_eq!(packed.is_ok(), direct.is_ok(), "{clue:?} {cells:?}");
            if direct.is_ok() {
                let mut want = Vec::new();
                pack_cells(&expected, &mut want);
                assert_eq!(out, want, "{clue:?} {cells:?}");
                changes += usize::from(expected != cells);
            } else {
                contradictions += 1;
            }
        }
        assert!(
            contradictions > 1000 && changes > 1000,
            "{contradictions} {changes}"
        );
    }

    #[test]
    fn cached_answers_equal_solving_and_a_full_cache_starts_over() {
        let mut rng = frontier_core::rng::SplitMix64::new(0xCAC4_E0F1_1E55_0001u64);
        let mut next = |m: u64| rng.below(m);
        let mut solver = LineSolver::default();
        // A budget of a few entries, so the cache is dropped many times.
        let mut cache = LineCache::with_budget(2_000);
        let (width, height) = (70, 40);
        let mut packed = PackedLines::new(width, height);
        let mut grid = vec![UNKNOWN; width * height];
        let clues: Vec<Vec<u32>> = (0..width + height)
            .map(|_| (0..next(6)).map(|_| 1 + next(5) as u32).collect())
            .collect();
        let (mut scratch, mut solved) = (Vec::new(), Vec::new());
        for _ in 0..4000 {
            let cell = next((width * height) as u64) as usize;
            let value = [UNKNOWN, FILLED, EMPTY][next(3) as usize];
            grid[cell] = value;
            packed.set(cell, value);
            let line = next((width + height) as u64) as usize;
            let cells: Vec<u8> = if line < height {
                grid[line * width..(line + 1) * width].to_vec()
            } else {
                (0..height)
                    .map(|r| grid[r * width + line - height])
                    .collect()
            };
            let mut expected = cells.clone();
            let direct = solver.solve(&clues[line], &mut expected);
            // Twice: the second answer comes from the cache.
            for _ in 0..2 {
                let cached = cache.solve(
                    &mut solver,
                    (line, &clues[line]),
                    packed.line(line),
                    cells.len(),
                    &mut scratch,
                    &mut solved,
                );
                assert_eq!(cached.is_ok(), direct.is_ok());
                if cached.is_ok() {
                    let mut got = cells.clone();
                    for_each_change(packed.line(line), &solved, |i, v| {
                        assert_eq!(got[i], UNKNOWN, "a known cell changed");
                        got[i] = v;
                    });
                    assert_eq!(got, expected);
                }
            }
        }
        assert!(cache.hits >= 4000, "{} hits", cache.hits);
        assert!(cache.misses > 100, "{} misses", cache.misses);
    }

    /// The short-line table answers as solving does while it grows and
    /// while colliding states overwrite each other: many more states than
    /// its first slots, then the earliest again.
    #[test]
    fn the_short_line_table_answers_like_solving_through_growth_and_collisions() {
        let mut rng = frontier_core::rng::SplitMix64::new(0x5407_7AB1E);
        let mut solver = LineSolver::default();
        let mut cache = LineCache::default();
        let (mut scratch, mut solved) = (Vec::new(), Vec::new());
        let states: Vec<(usize, Vec<u32>, Vec<u8>)> = (0..30_000)
            .map(|_| {
                let n = 1 + rng.below(63) as usize;
                let clue: Vec<u32> = (0..rng.below(5)).map(|_| 1 + rng.below(4) as u32).collect();
                let cells = (0..n)
                    .map(|_| [UNKNOWN, UNKNOWN, FILLED, EMPTY][rng.below(4) as usize])
                    .collect();
                (rng.below(200) as usize, clue, cells)
            })
            .collect();
        // A line number comes with one clue and one length.
        let mut numbers = std::collections::HashMap::new();
        let mut check = |(line, clue, cells): &(usize, Vec<u32>, Vec<u8>)| {
            let next = numbers.len();
            let line = *numbers
                .entry((*line, clue.clone(), cells.len()))
                .or_insert(next);
            let mut packed = Vec::new();
            pack_cells(cells, &mut packed);
            let mut expected = cells.clone();
            let direct = solver.solve(clue, &mut expected);
            let cached = cache.solve(
                &mut solver,
                (line, clue),
                &packed,
                cells.len(),
                &mut scratch,
                &mut solved,
            );
            assert_eq!(cached.is_ok(), direct.is_ok(), "{clue:?} {cells:?}");
            if cached.is_ok() {
                let mut got = vec![UNKNOWN; cells.len()];
                unpack_cells(&solved, &mut got);
                assert_eq!(got, expected, "{clue:?} {cells:?}");
            }
        };
        states.iter().for_each(&mut check);
        states[..2_000].iter().for_each(&mut check);
        assert!(
            cache.short.len() > SHORT_FIRST_SLOTS,
            "{} slots",
            cache.short.len()
        );
    }
}
