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

// The children a collection step extends reach `r` to: each free
// neighbour, each of its letters that the trie continues with. A child
// that ends a word takes a key, one that goes on a reach. The count pass
// (WRITE false) only advances `key_at` and `reach_at`; the write pass
// writes there too, except past a buffer's capacity.
template <bool WRITE>
__device__ __forceinline__ void each_child(const Reach& r, u32 info, u32 first, u32 free,
                                           const u32* trie, const u32* masks,
                                           const u32* position, Reach* out, u32 out_capacity,
                                           u128* keys, u32 key_capacity, u32& key_at,
                                           u32& reach_at) {
    u32 letters = info & LETTER_BITS;
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
            bool ends_a_word = (child_info >> POINTS_SHIFT) > 0;
            bool goes_on = (child_info & LETTER_BITS) != 0;
            if (WRITE) {
                u128 extended = key | slot(position[next], letter);
                if (ends_a_word && key_at < key_capacity) keys[key_at] = extended | (u128)child;
                if (goes_on && reach_at < out_capacity) {
                    Reach e;
                    e.cell_used = next | ((used | (1u << next)) << 5);
                    e.node = child;
                    e.lo = (u64)extended;
                    e.hi = (u64)(extended >> 64);
                    out[reach_at] = e;
                }
            }
            key_at += ends_a_word ? 1u : 0u;
            reach_at += goes_on ? 1u : 0u;
        }
    }
}

// Extends every reach of `in` (n of them) by one cell (`each_child`).
// Each thread counts its writes first, and a block takes its places with
// one atomic per buffer: one counter for every thread would queue tens of
// millions of atomics at one address. Order does not matter: the keys are
// sorted next. Writes past a capacity are counted but not made: the host
// sees the count and grows the buffer.
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
    u32 my_keys = 0, my_reaches = 0;
    each_child<false>(r, info, first, free, trie, masks, position, out, out_capacity, keys,
                      key_capacity, my_keys, my_reaches);
    u32 key_at = block_prefix(my_keys, &totals[0]);
    u32 reach_at = block_prefix(my_reaches, &totals[1]);
    if (threadIdx.x == 0) {
        bases[0] = totals[0] ? atomicAdd(&counters[BC_KEYS], totals[0]) : 0;
        bases[1] = totals[1] ? atomicAdd(&counters[BC_REACHES], totals[1]) : 0;
    }
    __syncthreads();
    key_at += bases[0];
    reach_at += bases[1];
    each_child<true>(r, info, first, free, trie, masks, position, out, out_capacity, keys,
                     key_capacity, key_at, reach_at);
}

// A stable least-significant-digit radix sort, 8 bits a pass: per pass
// radix_count, the counters scanned (the fill's tile scan below, driven by
// gpu_build/scan.rs), radix_scatter. A block takes a tile of
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

// ---------------------------------------------------------------------------
// The fill: the orderly tree's arena from the sorted keys, level by level
// (gpu_build/fill_model.rs is the same algorithm on the CPU, loop for
// kernel). Node levels alternate from the root (level 0): even levels are
// sum nodes, odd levels choice nodes. A path of m cells is a chain of
// levels 0..2m; it shares the nodes of levels below its `keep` with the
// path before it and opens the rest, so the nodes of a level are runs of
// consecutive paths, numbered in order. With, per level, how many nodes
// start before each path (`count`, a row of n + 1 a level), every node
// finds its parent, its children (a contiguous range one level down) and
// its place among its siblings by lookups alone.
//
// The arena's order is the CPU fill's: a sum node's record (header, then
// its choice nodes' records) is written when the paths move past it, so
// after every node that closed before it, its own descendants included.

#define LEVELS (2 * CELLS + 1)
#define FILL_THREADS COLLECT_BLOCK
#define FILL_PER_THREAD 4
#define FILL_TILE (FILL_THREADS * FILL_PER_THREAD)
#define COUNT_BITS 5
#define POSITION_SHIFT 26
#define LEAF 0xFFFFFFFFu
#define QU_SLOT 17u  // 'q' - 'a' + 1

__device__ __forceinline__ u32 slot_of(u128 key, u32 position) {
    return (u32)(key >> (128 - SLOT_BITS * (position + 1))) & 31u;
}

// One bit per split-order position that `key` uses.
__device__ __forceinline__ u32 used_positions(u128 key) {
    u32 used = 0;
    for (u32 p = 0; p < CELLS; p++) used |= (slot_of(key, p) != 0 ? 1u : 0u) << p;
    return used;
}

// The points of a word of `length` letters (dict.rs's points_for_length).
__device__ __forceinline__ u32 points_for_length(u32 length) {
    return length < 3 ? 0u : length < 5 ? 1u : length == 5 ? 2u : length == 6 ? 3u : length == 7 ? 5u : 11u;
}

// Per path: the first level it opens (keep) and its deepest (top), packed
// `keep | top << 8`, and its word's points if it is the first path of its
// key (a word spelled twice over the same cells counts once).
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_paths(const u128* keys, u32 n, u32* keep_top, u32* points) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u128 key = keys[i];
    u32 used = used_positions(key);
    u32 qu = 0;
    for (u32 p = 0; p < CELLS; p++) qu += slot_of(key, p) == QU_SLOT ? 1u : 0u;
    u32 top = 2 * __popc(used);
    u32 word_points = points_for_length(__popc(used) + qu);
    u32 keep = 0;
    if (i > 0) {
        u128 previous = keys[i - 1];
        if (previous == key) word_points = 0;
        u128 slots = ~(u128)0 << (128 - SLOT_BITS * CELLS);
        u128 differ = (previous ^ key) & slots;
        if (differ == 0) {
            keep = top + 1;
        } else {
            u64 hi = (u64)(differ >> 64);
            u32 zeros = hi ? __clzll(hi) : 64 + __clzll((u64)differ);
            u32 q = zeros / SLOT_BITS;
            u32 before = used_positions(previous) & ((1u << q) - 1u);
            u32 both = slot_of(previous, q) != 0 && slot_of(key, q) != 0 ? 1u : 0u;
            keep = 1 + 2 * __popc(before) + both;
        }
    }
    keep_top[i] = keep | top << 8;
    points[i] = word_points;
}

__device__ __forceinline__ bool opens(u32 keep_top, u32 level) {
    return (keep_top & 255u) <= level && level <= (keep_top >> 8);
}

// counts[level * blocks + block]: the nodes of the level that the block's
// tile of paths opens.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_tile_counts(const u32* keep_top, u32 n, u32 blocks, u32* counts) {
    __shared__ u32 local[LEVELS];
    for (u32 l = threadIdx.x; l < LEVELS; l += FILL_THREADS) local[l] = 0;
    __syncthreads();
    for (u32 j = 0; j < FILL_PER_THREAD; j++) {
        u32 i = blockIdx.x * FILL_TILE + j * FILL_THREADS + threadIdx.x;
        if (i >= n) break;
        u32 kt = keep_top[i];
        for (u32 l = kt & 255u; l <= (kt >> 8); l++) atomicAdd(&local[l], 1u);
    }
    __syncthreads();
    for (u32 l = threadIdx.x; l < LEVELS; l += FILL_THREADS)
        counts[l * blocks + blockIdx.x] = local[l];
}

// Threads of the one-block scan below. A block of 1024 needed 28 K
// registers, more than the proof's walk leaves free on an SM while a launch
// runs (two of its blocks, 14 K: gpu_prove.rs, BUILD_ROOM_BLOCKS), so
// every build and merge that scanned waited for a walk launch to end; 256
// need 7 K.
#define SCAN_THREADS 256

// Exclusive prefix sums of `values` (total entries) in place, by one block
// of SCAN_THREADS threads: each sums its contiguous chunk, the chunks' sums
// are scanned, and each thread writes its chunk's prefixes. Returns the sum.
__device__ u32 chunked_scan(u32* values, u32 total) {
    __shared__ u32 sums[SCAN_THREADS];
    u32 t = threadIdx.x;
    u32 chunk = (total + SCAN_THREADS - 1) / SCAN_THREADS;
    u32 from = min(total, t * chunk), to = min(total, from + chunk);
    u32 sum = 0;
    for (u32 i = from; i < to; i++) sum += values[i];
    sums[t] = sum;
    __syncthreads();
    for (u32 o = 1; o < SCAN_THREADS; o <<= 1) {
        u32 v = t >= o ? sums[t - o] : 0;
        __syncthreads();
        sums[t] += v;
        __syncthreads();
    }
    u32 run = sums[t] - sum;
    for (u32 i = from; i < to; i++) {
        u32 c = values[i];
        values[i] = run;
        run += c;
    }
    return sums[SCAN_THREADS - 1];
}

// Each level's tile counts scanned (a block a level); totals[level]: its
// nodes.
extern "C" __global__ void __launch_bounds__(SCAN_THREADS)
    fill_level_scan(u32* counts, u32 blocks, u32* totals) {
    u32 total = chunked_scan(counts + (u64)blockIdx.x * blocks, blocks);
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// count[level * (n + 1) + i]: the level's nodes opened before path i; and
// starts[base[level] + k]: the path that opens the level's node k. A thread
// takes FILL_PER_THREAD consecutive paths of the block's tile.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_index(const u32* keep_top, u32 n, u32 blocks, const u32* tile_starts,
               const u32* base, u32* count, u32* starts) {
    __shared__ u32 total;
    u32 first = blockIdx.x * FILL_TILE + threadIdx.x * FILL_PER_THREAD;
    u32 kt[FILL_PER_THREAD];
    for (u32 j = 0; j < FILL_PER_THREAD; j++) kt[j] = first + j < n ? keep_top[first + j] : 1u;
    for (u32 l = 0; l < LEVELS; l++) {
        u32 mine = 0;
        for (u32 j = 0; j < FILL_PER_THREAD; j++) mine += opens(kt[j], l) ? 1u : 0u;
        u32 run = tile_starts[l * blocks + blockIdx.x] + block_prefix(mine, &total);
        u32* row = count + (u64)l * (n + 1);
        for (u32 j = 0; j < FILL_PER_THREAD; j++) {
            u32 i = first + j;
            if (i >= n) break;
            row[i] = run;
            if (opens(kt[j], l)) {
                starts[base[l] + run] = i;
                run++;
            }
            if (i == n - 1) row[n] = run;
        }
    }
}

// The level kernels below run a launch a level, a thread a node. They take
// the same first arguments (LEVEL_ARGS): the level; its nodes; where its
// nodes, its parent level's and its child level's lie in the node arrays;
// the paths; `count` and `starts` (fill_index).
#define LEVEL_ARGS u32 level, u32 nodes, u32 here, u32 up, u32 below, u32 n, \
    const u32 *count, const u32 *starts

// Ends, a level at a time from the root: a node ends at the path before
// the next node of its level, or with its parent, whichever is first.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_ends(LEVEL_ARGS, u32* ends) {
    u32 k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nodes) return;
    if (level == 0) {
        ends[here] = n - 1;
        return;
    }
    u32 s = starts[here + k];
    u32 parent = count[(u64)(level - 1) * (n + 1) + s + 1] - 1;
    u32 parent_end = ends[up + parent];
    u32 next = k + 1 < nodes ? starts[here + k + 1] : n;
    ends[here + k] = next <= parent_end ? next - 1 : parent_end;
}

// Bounds and sizes, a level at a time from the deepest. A sum node: its
// points (those of the paths that end on it, which sort first in its run)
// plus its choice children's bounds; its record's size (0 for a leaf, not
// written); its subtree's words. A choice node: its best child's bound and
// its letters. `closed[e]` adds up the sizes of the sum nodes that end at
// path e.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_bottom_up(LEVEL_ARGS, const u128* keys, const u32* keep_top, const u32* points,
                   const u32* ends, u32* bound, u32* size, u32* subtree, u32* header,
                   u32* closed) {
    u32 k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nodes) return;
    u32 s = starts[here + k], e = ends[here + k];
    u32 first_child = 0, last_child = 0;
    if (level + 1 < LEVELS) {
        const u32* row = count + (u64)(level + 1) * (n + 1);
        first_child = row[s];
        last_child = row[e + 1];
    }
    u32 words = 0;
    for (u32 c = first_child; c < last_child; c++) words += subtree[below + c];
    if (level % 2 == 0) {
        u32 own = 0;
        for (u32 i = s; i <= e && (keep_top[i] >> 8) == level; i++) own += points[i];
        u32 b = own;
        for (u32 c = first_child; c < last_child; c++) b += bound[below + c];
        u32 choices = last_child - first_child;
        u32 grandchildren = 0;
        if (level + 2 < LEVELS) {
            const u32* row = count + (u64)(level + 2) * (n + 1);
            grandchildren = row[e + 1] - row[s];
        }
        u32 record = choices > 0 || level == 0 ? 1 + choices + 2 * grandchildren : 0;
        bound[here + k] = b;
        size[here + k] = record;
        subtree[here + k] = record + words;
        header[here + k] = own << COUNT_BITS | choices;
        if (record > 0) atomicAdd(&closed[e], record);
    } else {
        // The choice's position: the (level / 2)-th position its paths use.
        u32 used = used_positions(keys[s]);
        for (u32 j = 0; j < level / 2; j++) used &= used - 1;
        u32 position = __ffs(used) - 1;
        u32 letters = 0, b = 0;
        for (u32 c = first_child; c < last_child; c++) {
            letters |= 1u << (slot_of(keys[starts[below + c]], position) - 1);
            b = max(b, bound[below + c]);
        }
        bound[here + k] = b;
        size[here + k] = 0;
        subtree[here + k] = words;
        header[here + k] = position << POSITION_SHIFT | letters;
    }
}

// sums[block]: the sum of the block's tile of `values`.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_tile_sums(const u32* values, u32 n, u32* sums) {
    __shared__ u32 total;
    u32 first = blockIdx.x * FILL_TILE + threadIdx.x * FILL_PER_THREAD;
    u32 mine = 0;
    for (u32 j = 0; j < FILL_PER_THREAD; j++)
        if (first + j < n) mine += values[first + j];
    block_prefix(mine, &total);
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// `values` made their exclusive prefix sums, given the tiles' scanned sums.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_tile_apply(u32* values, u32 n, const u32* tile_starts) {
    __shared__ u32 total;
    u32 first = blockIdx.x * FILL_TILE + threadIdx.x * FILL_PER_THREAD;
    u32 v[FILL_PER_THREAD], mine = 0;
    for (u32 j = 0; j < FILL_PER_THREAD; j++) {
        v[j] = first + j < n ? values[first + j] : 0u;
        mine += v[j];
    }
    u32 run = tile_starts[blockIdx.x] + block_prefix(mine, &total);
    for (u32 j = 0; j < FILL_PER_THREAD; j++) {
        if (first + j >= n) break;
        values[first + j] = run;
        run += v[j];
    }
}

// The records, a level at a time from the root. A sum node's record starts
// after every node closed before its first path and its own descendants
// (`closed_before`: the scanned `closed`). A choice node's record sits in
// its parent's after its elder siblings' (a header and a pair a letter
// each); `at` keeps where, for its children's (bound, offset) pairs.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    fill_write(LEVEL_ARGS, const u32* bound, const u32* size, const u32* subtree,
               const u32* header, const u32* closed_before, u32* at, u32* arena) {
    u32 k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nodes) return;
    u32 g = here + k, s = starts[g];
    const u32* row = count + (u64)level * (n + 1);
    if (level % 2 == 0) {
        u32 offset = closed_before[s] + subtree[g] - size[g];
        if (size[g] > 0) arena[offset] = header[g];
        if (level >= 2) {
            u32 choice = up + count[(u64)(level - 1) * (n + 1) + s + 1] - 1;
            u32 pair = at[choice] + 1 + 2 * (k - row[starts[choice]]);
            arena[pair] = bound[g];
            arena[pair + 1] = size[g] > 0 ? offset : LEAF;
        }
    } else {
        u32 parent = up + count[(u64)(level - 1) * (n + 1) + s + 1] - 1;
        u32 ps = starts[parent];
        const u32* next_row = count + (u64)(level + 1) * (n + 1);
        u32 place = closed_before[ps] + subtree[parent] - size[parent] + 1 + (k - row[ps]) +
                    2 * (next_row[s] - next_row[ps]);
        at[g] = place;
        arena[place] = header[g];
    }
}
