// A class's word paths collected and sorted on the GPU: the first two steps
// of building its orderly tree (domains/boggle/src/orderly.rs), which the
// host then fills from the sorted keys (domains/boggle/src/gpu_build.rs
// drives it). The host prepends CELLS, NEIGHBORS[CELLS + 1] (each cell's
// neighbours, then every cell for the virtual start) and the trie's
// LETTER_BITS and POINTS_SHIFT.
//
// A key is the 128-bit layout of orderly/path_key.rs: from the top, one
// 5-bit slot per split-order position (0: the cell is not on the path, else
// its letter + 1); in the low bits the word's trie node. Sorting the keys puts
// the paths of every tree node together.

typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned __int128 u128;

#define SLOT_BITS 5

// A board path spelling some trie node's prefix, while collecting.
struct Reach {
    u32 cell_used;  // its last cell in the low 5 bits, its cells above
    u32 node;       // the trie node it spells
    u64 lo, hi;     // its key so far
};

// Counters shared with the host.
#define BC_REACHES 0  // reaches written to the next level (may pass the capacity)
#define BC_KEYS 1     // keys written (may pass the capacity)

// The slot of split-order `position` holding `letter`, in place.
__device__ __forceinline__ u128 slot(u32 position, u32 letter) {
    return (u128)(letter + 1) << (128 - SLOT_BITS * (position + 1));
}

#define COLLECT_BLOCK 256

// The exclusive prefix of `v` over the block's threads, and in *total
// their sum (every thread of the block must call it).
__device__ __forceinline__ u32 block_prefix(u32 v, u32* total) {
    __shared__ u32 warp_sums[COLLECT_BLOCK / 32];
    u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    u32 inclusive = v;
    for (u32 o = 1; o < 32; o <<= 1) {
        u32 up = __shfl_up_sync(0xFFFFFFFFu, inclusive, o);
        if (lane >= o) inclusive += up;
    }
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 run = 0;
        for (u32 w = 0; w < COLLECT_BLOCK / 32; w++) {
            u32 t = warp_sums[w];
            warp_sums[w] = run;
            run += t;
        }
        *total = run;
    }
    __syncthreads();
    u32 prefix = warp_sums[warp] + inclusive - v;
    __syncthreads();
    return prefix;
}

// Extends every reach of `in` (n of them) by one cell: each free
// neighbour, each of its letters that the trie continues with. A child
// that ends a word writes its key to `keys`; one that goes on writes a
// reach to `out`. Each thread counts its writes first, and a block takes
// its places with one atomic per buffer: one counter for every thread
// would queue tens of millions of atomics at one address. Order does not
// matter: the keys are sorted next. Writes past a capacity are counted but
// not made: the host sees the count and grows the buffer.
extern "C" __global__ void __launch_bounds__(COLLECT_BLOCK)
    build_collect(const Reach* in, u32 n, const u32* trie, const u32* masks,
                  const u32* position, Reach* out, u32 out_capacity, u128* keys,
                  u32 key_capacity, u32* counters) {
    __shared__ u32 totals[2], bases[2];
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    Reach r;
    r.cell_used = 0;
    r.node = 0;
    r.lo = 0;
    r.hi = 0;
    u32 info = 0, first = 0, free = 0;
    if (i < n) {
        r = in[i];
        info = trie[2 * r.node];
        first = trie[2 * r.node + 1];
        free = NEIGHBORS[r.cell_used & 31u] & ~(r.cell_used >> 5);
    }
    u32 letters = info & LETTER_BITS;
    // Pass 1: how many keys and reaches this thread writes.
    u32 my_keys = 0, my_reaches = 0;
    for (u32 f = free; f;) {
        u32 next = __ffs(f) - 1;
        f &= f - 1;
        for (u32 choices = masks[next] & letters; choices;) {
            u32 letter = __ffs(choices) - 1;
            choices &= choices - 1;
            u32 child_info = trie[2 * (first + __popc(info & ((1u << letter) - 1u)))];
            my_keys += (child_info >> POINTS_SHIFT) > 0 ? 1u : 0u;
            my_reaches += (child_info & LETTER_BITS) ? 1u : 0u;
        }
    }
    u32 key_at = block_prefix(my_keys, &totals[0]);
    u32 reach_at = block_prefix(my_reaches, &totals[1]);
    if (threadIdx.x == 0) {
        bases[0] = totals[0] ? atomicAdd(&counters[BC_KEYS], totals[0]) : 0;
        bases[1] = totals[1] ? atomicAdd(&counters[BC_REACHES], totals[1]) : 0;
    }
    __syncthreads();
    key_at += bases[0];
    reach_at += bases[1];
    // Pass 2: the writes.
    u32 used = r.cell_used >> 5;
    u128 key = ((u128)r.hi << 64) | r.lo;
    for (u32 f = free; f;) {
        u32 next = __ffs(f) - 1;
        f &= f - 1;
        for (u32 choices = masks[next] & letters; choices;) {
            u32 letter = __ffs(choices) - 1;
            choices &= choices - 1;
            u32 child = first + __popc(info & ((1u << letter) - 1u));
            u32 child_info = trie[2 * child];
            u128 extended = key | slot(position[next], letter);
            if ((child_info >> POINTS_SHIFT) > 0) {
                if (key_at < key_capacity) keys[key_at] = extended | (u128)child;
                key_at++;
            }
            if (child_info & LETTER_BITS) {
                if (reach_at < out_capacity) {
                    Reach e;
                    e.cell_used = next | ((used | (1u << next)) << 5);
                    e.node = child;
                    e.lo = (u64)extended;
                    e.hi = (u64)(extended >> 64);
                    out[reach_at] = e;
                }
                reach_at++;
            }
        }
    }
}

// A stable least-significant-digit radix sort, 8 bits a pass: per pass
// radix_count, radix_scan, radix_scatter. A block takes a tile of
// RADIX_TILE keys, each of its RADIX_WARPS warps a contiguous stretch of it.
#define RADIX_WARPS 8
#define RADIX_PER_WARP 256
#define RADIX_TILE (RADIX_WARPS * RADIX_PER_WARP)
#define RADIX_THREADS (RADIX_WARPS * 32)

__device__ __forceinline__ u32 digit_of(u128 key, u32 shift) {
    return (u32)(key >> shift) & 255u;
}

// Each warp's count of each digit over its stretch of the block's tile.
__device__ void warp_counts(const u128* keys, u32 n, u32 shift, u32 (*counts)[256]) {
    u32 warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (u32 d = threadIdx.x; d < RADIX_WARPS * 256; d += RADIX_THREADS)
        counts[d / 256][d % 256] = 0;
    __syncthreads();
    u32 start = blockIdx.x * RADIX_TILE + warp * RADIX_PER_WARP;
    for (u32 k = 0; k < RADIX_PER_WARP; k += 32) {
        u32 i = start + k + lane;
        u32 d = i < n ? digit_of(keys[i], shift) : 256u;
        u32 peers = __match_any_sync(0xFFFFFFFFu, d);
        if (d < 256u && (u32)(__ffs(peers) - 1) == lane) counts[warp][d] += __popc(peers);
        __syncwarp();
    }
    __syncthreads();
}

// counts[digit * blocks + block]: how many keys of the block's tile have
// the digit.
extern "C" __global__ void __launch_bounds__(RADIX_THREADS)
    radix_count(const u128* keys, u32 n, u32 shift, u32 blocks, u32* counts) {
    __shared__ u32 local[RADIX_WARPS][256];
    warp_counts(keys, n, shift, local);
    for (u32 d = threadIdx.x; d < 256; d += RADIX_THREADS) {
        u32 sum = 0;
        for (u32 w = 0; w < RADIX_WARPS; w++) sum += local[w][d];
        counts[(u64)d * blocks + blockIdx.x] = sum;
    }
}

// Exclusive prefix sums of `counts` (total entries) in place, in one block
// of 1024 threads: each sums its contiguous chunk, the chunks' sums are
// scanned, and each thread writes its chunk's prefixes.
extern "C" __global__ void __launch_bounds__(1024) radix_scan(u32* counts, u32 total) {
    __shared__ u32 sums[1024];
    u32 t = threadIdx.x;
    u32 chunk = (total + 1023) / 1024;
    u32 from = min(total, t * chunk), to = min(total, from + chunk);
    u32 sum = 0;
    for (u32 i = from; i < to; i++) sum += counts[i];
    sums[t] = sum;
    __syncthreads();
    for (u32 o = 1; o < 1024; o <<= 1) {
        u32 v = t >= o ? sums[t - o] : 0;
        __syncthreads();
        sums[t] += v;
        __syncthreads();
    }
    u32 run = sums[t] - sum;
    for (u32 i = from; i < to; i++) {
        u32 c = counts[i];
        counts[i] = run;
        run += c;
    }
}

// Moves each key to its place by the pass's digit: its digit's start
// (the scanned counts), plus the keys of that digit in earlier warps of the
// block, plus those earlier in its own warp. Stable: ties keep their order.
extern "C" __global__ void __launch_bounds__(RADIX_THREADS)
    radix_scatter(const u128* keys, u128* out, u32 n, u32 shift, u32 blocks,
                  const u32* starts) {
    __shared__ u32 next[RADIX_WARPS][256];
    warp_counts(keys, n, shift, next);
    // Each warp's first place for each digit.
    for (u32 d = threadIdx.x; d < 256; d += RADIX_THREADS) {
        u32 at = starts[(u64)d * blocks + blockIdx.x];
        for (u32 w = 0; w < RADIX_WARPS; w++) {
            u32 c = next[w][d];
            next[w][d] = at;
            at += c;
        }
    }
    __syncthreads();
    u32 warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    u32 start = blockIdx.x * RADIX_TILE + warp * RADIX_PER_WARP;
    for (u32 k = 0; k < RADIX_PER_WARP; k += 32) {
        u32 i = start + k + lane;
        u128 key = i < n ? keys[i] : 0;
        u32 d = i < n ? digit_of(key, shift) : 256u;
        u32 peers = __match_any_sync(0xFFFFFFFFu, d);
        u32 before = __popc(peers & ((1u << lane) - 1u));
        if (d < 256u) out[next[warp][d] + before] = key;
        __syncwarp();
        if (d < 256u && (u32)(__ffs(peers) - 1) == lane) next[warp][d] += __popc(peers);
        __syncwarp();
    }
}
