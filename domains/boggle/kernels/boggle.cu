// Boggle on the GPU: one board per thread, the same walk as the CPU's
// small-board solver (masks of neighbours and of cells per letter), with an
// explicit stack instead of recursion, and each thread's set of words found
// in its own slice of a global hash table.
//
// The host prepends: CELLS, WORDS (32-bit words per cell mask), NODE_BITS,
// TABLE_LOG2, MAX_DEPTH and the array NEIGHBORS[CELLS * WORDS].
//
// Seen table: entry = (generation << NODE_BITS) | node. A thread bumps its
// generation per board, so old entries read as empty without clearing; the
// table is wiped only when the generation wraps. Slots are interleaved
// across threads (slot * stride + thread).

typedef unsigned int u32;
typedef unsigned long long u64;

#define LETTER_BITS ((1u << 26) - 1)
#define GEN_LIMIT (1u << (32 - NODE_BITS))
#define TABLE_SLOTS (1u << TABLE_LOG2)
#define TABLE_FULL (TABLE_SLOTS / 4 * 3)
#define OVERFLOW 0xFFFFFFFFu

struct Seen {
    u32* table;
    u32 stride;
    u32 tid;
    u32 gen;
    u32 count;
};

__device__ __forceinline__ void seen_next_board(Seen& s) {
    s.gen += 1;
    s.count = 0;
    if (s.gen == GEN_LIMIT) {
        for (u32 i = 0; i < TABLE_SLOTS; i++) s.table[(u64)i * s.stride + s.tid] = 0;
        s.gen = 1;
    }
}

// True when `node` was not yet counted on this board.
__device__ __forceinline__ bool seen_insert(Seen& s, u32 node) {
    u32 key = (s.gen << NODE_BITS) | node;
    u32 slot = (node * 0x9E3779B1u) >> (32 - TABLE_LOG2);
    while (true) {
        u32* cell = &s.table[(u64)slot * s.stride + s.tid];
        u32 e = *cell;
        if (e == key) return false;
        if ((e >> NODE_BITS) != s.gen) {
            *cell = key;
            s.count++;
            return true;
        }
        slot = (slot + 1) & (TABLE_SLOTS - 1);
    }
}

struct Mask {
    u32 w[WORDS];
};

__device__ __forceinline__ bool mask_empty(const Mask& m) {
    u32 any = 0;
#pragma unroll
    for (int i = 0; i < WORDS; i++) any |= m.w[i];
    return any == 0;
}

// Removes and returns the lowest cell of a non-empty mask.
__device__ __forceinline__ int mask_pop(Mask& m) {
#pragma unroll
    for (int i = 0; i < WORDS; i++) {
        if (m.w[i]) {
            int bit = __ffs(m.w[i]) - 1;
            m.w[i] &= m.w[i] - 1;
            return i * 32 + bit;
        }
    }
    return -1;
}

struct Frame {
    u32 info;     // the trie node's child letters and points
    u32 first;    // the trie node's first child
    u32 letters;  // child letters still to try (only those next to the cell)
    u32 child;    // trie node of the letter being tried
    Mask cells;   // free neighbours with that letter, still to try
    int cell;     // the cell this frame's path ends on
};

// The walk over one board as a machine that advances one small step per
// call, so that a warp's threads, each on its own board, stay in step: a
// thread whose board is done starts its next board while the others go on.
// With SHARED_BOARD the per-board tables live in shared memory, laid out
// [entry][thread] so that every access of a warp is free of bank conflicts
// whatever entries its threads touch; otherwise they are per-thread arrays.
#ifdef SHARED_BOARD
extern __shared__ u32 board_tables[];
#define CELLS_OF(w, l, i) board_tables[((l) * WORDS + (i)) * blockDim.x + threadIdx.x]
#define AROUND(w, c) board_tables[(26 * WORDS + (c)) * blockDim.x + threadIdx.x]
#define LETTER(w, c) \
    ((unsigned char*)&board_tables[(26 * WORDS + CELLS) * blockDim.x])[(c) * blockDim.x + threadIdx.x]
#else
#define CELLS_OF(w, l, i) (w).cells_of[l].w[i]
#define AROUND(w, c) (w).around[c]
#define LETTER(w, c) (w).letters[c]
#endif

struct Walker {
#ifndef SHARED_BOARD
    Mask cells_of[26];
    u32 around[CELLS];
    unsigned char letters[CELLS];
#endif
    Frame stack[MAX_DEPTH + 1];
    Mask used;  // cells of the frames on the stack
    int depth;
    int start;  // next cell to start paths from
    u32 score;
};

__device__ __forceinline__ void walker_begin(Walker& w, Seen& seen) {
    for (int l = 0; l < 26; l++)
#pragma unroll
        for (int i = 0; i < WORDS; i++) CELLS_OF(w, l, i) = 0;
    for (int c = 0; c < CELLS; c++) CELLS_OF(w, LETTER(w, c), c / 32) |= 1u << (c % 32);
    for (int c = 0; c < CELLS; c++) {
        Mask near;
#pragma unroll
        for (int i = 0; i < WORDS; i++) near.w[i] = NEIGHBORS[c * WORDS + i];
        u32 m = 0;
        while (!mask_empty(near)) m |= 1u << LETTER(w, mask_pop(near));
        AROUND(w, c) = m;
    }
#pragma unroll
    for (int i = 0; i < WORDS; i++) w.used.w[i] = 0;
    w.depth = 0;
    w.start = 0;
    w.score = 0;
    seen_next_board(seen);
}

// Arrive at `cell` on trie node `at`: count the word, push a frame if the
// path can go on. False when the seen table overflowed.
__device__ __forceinline__ bool walker_enter(Walker& w, const uint2* __restrict__ trie, Seen& seen,
                                             int cell, u32 at) {
    uint2 node = __ldg(&trie[at]);
    u32 points = node.x >> 26;
#ifdef NO_DEDUP
    if (points) {
        w.score += points;
#else
    if (points && seen_insert(seen, at)) {
        w.score += points;
#endif
        if (seen.count >= TABLE_FULL) return false;
    }
    u32 next = node.x & AROUND(w, cell);
    if (next && w.depth < MAX_DEPTH) {
        Frame& f = w.stack[w.depth++];
        f.info = node.x;
        f.first = node.y;
        f.letters = next;
        f.cell = cell;
#pragma unroll
        for (int i = 0; i < WORDS; i++) f.cells.w[i] = 0;
        w.used.w[cell / 32] |= 1u << (cell % 32);
    }
    return true;
}

// One step. Returns 1 to go on, 0 when the board is done, -1 on overflow.
__device__ __forceinline__ int walker_step(Walker& w, const uint2* __restrict__ trie, Seen& seen) {
    if (w.depth == 0) {
        const uint2 root = __ldg(&trie[0]);
        while (w.start < CELLS && !((root.x >> LETTER(w, w.start)) & 1)) w.start++;
        if (w.start >= CELLS) return 0;
        int cell = w.start++;
        u32 l = LETTER(w, cell);
        return walker_enter(w, trie, seen, cell, root.y + __popc(root.x & ((1u << l) - 1))) ? 1 : -1;
    }
    Frame& f = w.stack[w.depth - 1];
    while (mask_empty(f.cells)) {
        if (f.letters == 0) {
            w.used.w[f.cell / 32] &= ~(1u << (f.cell % 32));
            w.depth--;
            return 1;
        }
        u32 letter = __ffs(f.letters) - 1;
        f.letters &= f.letters - 1;
#pragma unroll
        for (int i = 0; i < WORDS; i++)
            f.cells.w[i] = NEIGHBORS[f.cell * WORDS + i] & ~w.used.w[i] & CELLS_OF(w, letter, i);
        f.child = f.first + __popc(f.info & ((1u << letter) - 1));
    }
    int cell = mask_pop(f.cells);
    return walker_enter(w, trie, seen, cell, f.child) ? 1 : -1;
}

// Scores the board in `w.letters`; OVERFLOW if the seen table filled up.
__device__ u32 score_board(Walker& w, const uint2* __restrict__ trie, Seen& seen) {
    walker_begin(w, seen);
    int r;
    while ((r = walker_step(w, trie, seen)) > 0) {
    }
    return r < 0 ? OVERFLOW : w.score;
}

__device__ __forceinline__ Seen seen_open(u32* table, u32* gens, u32 stride, u32 tid) {
    Seen s;
    s.table = table;
    s.stride = stride;
    s.tid = tid;
    s.gen = gens[tid];
    s.count = 0;
    return s;
}

extern "C" __global__ void __launch_bounds__(256) score_boards(
    const uint2* __restrict__ trie, const unsigned char* __restrict__ boards, u32 n,
    u32* __restrict__ scores, u32* table, u32* gens) {
    u32 tid = blockIdx.x * blockDim.x + threadIdx.x;
    u32 stride = gridDim.x * blockDim.x;
    Seen seen = seen_open(table, gens, stride, tid);
    Walker w;
    // Each thread walks its boards tid, tid + stride, ...; the step loop
    // is shared, so a thread that finishes a board takes its next one
    // without waiting for the rest of its warp.
    u32 b = tid;
    if (b < n) {
        for (int c = 0; c < CELLS; c++) LETTER(w, c) = boards[(u64)b * CELLS + c];
        walker_begin(w, seen);
    }
    while (b < n) {
        int r = walker_step(w, trie, seen);
        if (r <= 0) {
            scores[b] = r < 0 ? OVERFLOW : w.score;
            b += stride;
            if (b < n) {
                for (int c = 0; c < CELLS; c++) LETTER(w, c) = boards[(u64)b * CELLS + c];
                walker_begin(w, seen);
            }
        }
    }
    gens[tid] = seen.gen;
}

// SplitMix64, as on the host.
__device__ __forceinline__ u64 next_u64(u64& s) {
    s += 0x9E3779B97F4A7C15ull;
    u64 z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__device__ __forceinline__ u32 below(u64& s, u32 n) {
    return (u32)(((next_u64(s) >> 32) * (u64)n) >> 32);
}

__device__ __forceinline__ unsigned char draw_letter(u64& s, const u32* cumulative) {
    u32 x = below(s, cumulative[25]);
    unsigned char l = 0;
    while (cumulative[l] <= x) l++;
    return l;
}

// `steps` annealing moves for every chain, from global step `step0` of
// `total`; T = exp(log_t0 + log_ratio * step / total).
extern "C" __global__ void __launch_bounds__(256) anneal_steps(
    const uint2* __restrict__ trie, unsigned char* boards, u32* scores, unsigned char* best_boards,
    u32* best_scores, u64* rng, const u32* __restrict__ cumulative, u32 chains, u64 step0, u32 steps,
    u64 total, double log_t0, double log_ratio, u32* table, u32* gens, unsigned long long* evaluated) {
    u32 tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= chains) return;
    u32 stride = gridDim.x * blockDim.x;
    Seen seen = seen_open(table, gens, stride, tid);
    Walker w;
#ifdef SHARED_BOARD
#define b(c) LETTER(w, c)
#else
#define b(c) w.letters[c]
#endif
    for (int c = 0; c < CELLS; c++) b(c) = boards[(u64)tid * CELLS + c];
    u64 s = rng[tid];
    u32 score = scores[tid];
    u32 best = best_scores[tid];
    u32 done = 0;
    for (u32 k = 0; k < steps; k++) {
        double t = exp(log_t0 + log_ratio * (double)(step0 + k) / (double)total);
        u32 a = below(s, CELLS);
        int undo_cell = -1, swap_b = -1;
        unsigned char old = b(a);
        if (below(s, 2) == 0) {
            unsigned char l = draw_letter(s, cumulative);
            while (l == old) l = draw_letter(s, cumulative);
            b(a) = l;
            undo_cell = a;
        } else {
            u32 c = below(s, CELLS - 1);
            if (c >= a) c++;
            b(a) = b(c);
            b(c) = old;
            swap_b = c;
        }
        u32 next = score_board(w, trie, seen);
        done++;
        if (next == OVERFLOW) next = 0;
        double delta = (double)next - (double)score;
        double u = (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
        if (delta >= 0 || u < exp(delta / t)) {
            score = next;
            if (score > best) {
                best = score;
                for (int c = 0; c < CELLS; c++) best_boards[(u64)tid * CELLS + c] = b(c);
            }
        } else if (undo_cell >= 0) {
            b(undo_cell) = old;
        } else {
            b(swap_b) = b(a);
            b(a) = old;
        }
    }
    for (int c = 0; c < CELLS; c++) boards[(u64)tid * CELLS + c] = b(c);
    rng[tid] = s;
    scores[tid] = score;
    best_scores[tid] = best;
    gens[tid] = seen.gen;
    atomicAdd(evaluated, (unsigned long long)done);
}
