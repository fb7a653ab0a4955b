// Nonogram line solving to a fixed point on the GPU: one grid per block,
// one line per thread (rows, then columns, until a round changes nothing),
// the grid in shared memory. Each thread runs the same bit-parallel exact
// line solver as the CPU (domains/nonogram/src/line.rs, solve_bits64), so
// lines are limited to 63 cells.
//
// Grid cells: 0 unknown, 1 filled, 2 empty. Status per grid: 0 solved,
// 1 stuck (line solving alone cannot finish), 2 contradiction.

typedef unsigned long long u64;
typedef unsigned int u32;

#define MAX_SIDE 63
#define MAX_RUNS 32

__device__ u64 fill_up(u64 set, u64 through, int n) {
    for (int shift = 1; shift <= n; shift <<= 1) {
        set |= (set << shift) & through;
        through &= through << shift;
    }
    return set;
}

__device__ u64 fill_down(u64 set, u64 through, int n) {
    for (int shift = 1; shift <= n; shift <<= 1) {
        set |= (set >> shift) & through;
        through &= through >> shift;
    }
    return set;
}

__device__ u64 fits(const u64* windows, u32 r, u64 all) {
    u64 fit = all;
    u32 offset = 0;
    for (int b = 0; b < 7; b++) {
        if ((r >> b) & 1) {
            fit &= offset < 64 ? windows[b] >> offset : 0;
            offset += 1u << b;
        }
    }
    return fit;
}

// Solves one line in place (cells at grid[start + i * step]); returns
// -1 on contradiction, else whether a cell changed.
__device__ int solve_line(unsigned char* grid, int start, int step, int n, const u32* clue, int k) {
    u64 all = (n + 1 >= 64) ? ~0ull : ((1ull << (n + 1)) - 1);
    u64 may_empty = 0, may_fill = 0;
    int first_filled = n, last_filled = -1;
    for (int i = 0; i < n; i++) {
        unsigned char c = grid[start + i * step];
        if (c != 1) may_empty |= 1ull << i;
        else {
            if (i < first_filled) first_filled = i;
            last_filled = i;
        }
        if (c != 2) may_fill |= 1ull << i;
    }
    u64 windows[7];
    windows[0] = may_fill;
    for (int b = 1; b < 7; b++) windows[b] = windows[b - 1] & (windows[b - 1] >> (1u << (b - 1)));
    u64 step_up = (may_empty << 1) & all;
    u64 prefix_clear = (first_filled + 1 >= 64) ? all : (((1ull << (first_filled + 1)) - 1) & all);
    u64 suffix_clear = last_filled < 0 ? all : (last_filled + 1 >= 64 ? 0 : (all & ~((1ull << (last_filled + 1)) - 1)));
    u64 forward[MAX_RUNS + 1];
    forward[0] = prefix_clear;
    for (int j = 0; j < k; j++) {
        u64 f = forward[j];
        u64 left = j == 0 ? f : (((f & may_empty) << 1) & all);
        u32 r = clue[j];
        u64 ends = r < 64 ? (((left & fits(windows, r, all)) << r) & all) : 0;
        forward[j + 1] = fill_up(ends, step_up, n) & all;
    }
    if (!((forward[k] >> n) & 1)) return -1;
    u64 backward_next = suffix_clear;  // backward[j + 1]
    u64 may_cover = 0, empty_ok = forward[k] & (suffix_clear >> 1);
    for (int j = k - 1; j >= 0; j--) {
        u32 r = clue[j];
        u64 after = (j + 1 == k) ? suffix_clear : (may_empty & (backward_next >> 1));
        u64 starts = fits(windows, r, all) & (r < 64 ? after >> r : 0);
        u64 backward_j = fill_down(starts, may_empty, n) & all;
        u64 f = forward[j];
        u64 left = j == 0 ? f : (((f & may_empty) << 1) & all);
        u64 valid = starts & left;
        u64 cover = 0, smear = valid;
        u32 offset = 0, width = 1, rest = r;
        while (rest > 0) {
            if (rest & 1) {
                cover |= offset < 64 ? smear << offset : 0;
                offset += width;
            }
            smear |= width < 64 ? smear << width : 0;
            width <<= 1;
            rest >>= 1;
        }
        may_cover |= cover;
        empty_ok |= f & (backward_j >> 1);
        backward_next = backward_j;
    }
    empty_ok &= may_empty;
    int changed = 0;
    for (int i = 0; i < n; i++) {
        bool fill = (may_cover >> i) & 1, empty = (empty_ok >> i) & 1;
        if (!fill && !empty) return -1;
        unsigned char* c = &grid[start + i * step];
        if (*c == 0 && fill != empty) {
            *c = fill ? 1 : 2;
            changed = 1;
        }
    }
    return changed;
}

// grids: count * cells bytes (in/out); clues: for grid g, lines of puzzle
// puzzle_of[g]: clue_start[p * lines + l] .. clue_start[p * lines + l + 1]
// into clue_runs (rows first, then columns).
extern "C" __global__ void __launch_bounds__(64) propagate_grids(
    unsigned char* grids, const u32* __restrict__ puzzle_of, const u32* __restrict__ clue_start,
    const u32* __restrict__ clue_runs, int width, int height, unsigned char* status) {
    __shared__ unsigned char grid[MAX_SIDE * MAX_SIDE];
    __shared__ int contradiction;
    int g = blockIdx.x, t = threadIdx.x;
    int cells = width * height, lines = width + height;
    for (int i = t; i < cells; i += blockDim.x) grid[i] = grids[(u64)g * cells + i];
    if (t == 0) contradiction = 0;
    __syncthreads();
    const u32* starts = clue_start + (u64)puzzle_of[g] * (lines + 1);
    while (true) {
        int changed = 0;
        for (int phase = 0; phase < 2; phase++) {
            int count = phase == 0 ? height : width;
            if (t < count && !contradiction) {
                int line = phase == 0 ? t : height + t;
                const u32* clue = clue_runs + starts[line];
                int k = starts[line + 1] - starts[line];
                int r = phase == 0 ? solve_line(grid, t * width, 1, width, clue, k)
                                   : solve_line(grid, t, width, height, clue, k);
                if (r < 0) contradiction = 1;
                else changed |= r;
            }
            __syncthreads();
        }
        if (!__syncthreads_or(changed) || contradiction) break;
    }
    int unknown = 0;
    for (int i = t; i < cells; i += blockDim.x) {
        grids[(u64)g * cells + i] = grid[i];
        unknown |= grid[i] == 0;
    }
    unknown = __syncthreads_or(unknown);
    if (t == 0) status[g] = contradiction ? 2 : (unknown ? 1 : 0);
}
