// Beam search on one GPU: the generic engine (framework/src/search/gpu/beam.rs
// drives it). It takes the GA* plugin contract (see gastar.cu): STATE_WORDS,
// MAX_SUCC, is_goal, expand, heuristic and optionally state_hash, and
// optionally rank(state, h, tables) under PLUGIN_RANK (the CPU's
// Heuristic::rank: what a layer is ranked by in place of h).
//
// A layer of n states is expanded by n threads (beam_expand); a child equal
// to its parent's parent, or whose fingerprint is in the table of states
// kept in earlier layers (beam_remember fills it; a fingerprint is a 64-bit
// hash, so a rare collision drops a state never seen: the dropped child's f
// joins the bound, which stays sound), is dropped; the others get g,
// f = g + h and the
// key den·g + num·r (r alone when greedy; r = rank, else h). beam_dedup keeps, of the
// children that are the same state, the one with the least (key, index)
// through a hash table of ~(key << 32 | index) words (0: empty, so the
// table is cleared with a memset) and atomicMax; the losers are dropped. The host reads the keys' histogram (beam_histogram)
// between the least and largest key, finds the key T at which the beam
// fills, and beam_count / beam_place compact the children with key < T and
// the first (by index) with key = T into the next layer, in index order, so
// that a run does not depend on thread timing. Dropped children's least f
// is kept: with the final layer's, it bounds the optimum from below
// (framework/src/search/beam.rs has the argument).

#define DROPPED 0xFFFFFFFFu
#define BEAM_BLOCK 1024

// Control words shared with the host.
#define BC_FOUND 0      // g << 32 | child slot of the cheapest goal, or all ones
#define BC_MIN_KEY 1    // least key among this layer's children
#define BC_MAX_KEY 2    // largest key among them
#define BC_DROPPED_F 3  // least f of the children left out of any beam so far
#define BC_GENERATED 4  // children generated
#define BC_MIN_F 5      // least f among this layer's kept children (the last layer's bound)
#define BC_SEEN 6       // fingerprints in the table of kept states
#define BC_WORDS 7

// state_hash: the plugin's, or the default of state_hash.cuh (pasted above).

// A state's fingerprint in the table of kept states: never 0 (empty).
__device__ __forceinline__ u64 fingerprint(const u32* s) {
    u64 h = state_hash(s) * 0xD6E8FEB86659FD93ull;
    return (h ^ (h >> 32)) | 1ull;
}

// Whether `print` is in the table of kept states (linear probing; the host
// stops filling it at three quarters full, so a probe ends).
__device__ __forceinline__ bool seen_before(const u64* seen, u64 mask, u64 print) {
    for (u64 slot = print & mask;; slot = (slot + 1) & mask) {
        u64 v = seen[slot];
        if (v == print) return true;
        if (v == 0) return false;
    }
}

__device__ __forceinline__ bool same_state(const u32* a, const u32* b) {
    for (int w = 0; w < STATE_WORDS; w++)
        if (a[w] != b[w]) return false;
    return true;
}

// What a layer ranks state s (bound h) by: the plugin's rank (the CPU's
// Heuristic::rank) under PLUGIN_RANK, else h. f, and so the lower bound,
// stays g + h either way.
__device__ __forceinline__ u32 rank_of(const u32* s, u32 h, const unsigned char* tables) {
#ifdef PLUGIN_RANK
    return rank(s, h, tables);
#else
    return h;
#endif
}

// For tests: each of n states' h and the rank a layer orders it by, to
// check a plugin's against the CPU's.
extern "C" __global__ void beam_rank_of(const u32* states, u32 n, u32* out,
                                        const unsigned char* tables) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32* s = states + (u64)i * STATE_WORDS;
    u32 h = heuristic(s, tables);
    out[2 * (u64)i] = h;
    out[2 * (u64)i + 1] = rank_of(s, h, tables);
}

extern "C" __global__ void beam_expand(
    const u32* layer, const u32* layer_g, const u32* layer_parent, const u32* prev_layer,
    u32 n, u32 has_prev, u32* child_states, u32* child_g, u32* child_f, u32* child_key,
    u64* ctrl, u32 num, u32 den, u32 greedy, const u64* seen, u64 seen_mask,
    const unsigned char* tables) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32* s = layer + (u64)i * STATE_WORDS;
    u32 out[MAX_SUCC * STATE_WORDS];
    u32 cost[MAX_SUCC];
    int made = expand(s, out, cost, tables);
    const u32* grandparent = has_prev ? prev_layer + (u64)layer_parent[i] * STATE_WORDS : 0;
    u32 generated = 0;
    for (int j = 0; j < MAX_SUCC; j++) {
        u64 slot = (u64)i * MAX_SUCC + j;
        if (j >= made) {
            child_key[slot] = DROPPED;
            continue;
        }
        const u32* c = out + j * STATE_WORDS;
        if (grandparent && same_state(c, grandparent)) {
            child_key[slot] = DROPPED;
            continue;
        }
        generated++;
        u32 g = layer_g[i] + cost[j];
        u32 h = heuristic(c, tables);
        if (seen_before(seen, seen_mask, fingerprint(c))) {
            child_key[slot] = DROPPED;
            atomicMin(&ctrl[BC_DROPPED_F], (u64)(g + h));
            continue;
        }
        u32* to = child_states + slot * STATE_WORDS;
        for (int w = 0; w < STATE_WORDS; w++) to[w] = c[w];
        u32 r = rank_of(c, h, tables);
        u64 key = greedy ? (u64)r : (u64)den * g + (u64)num * r;
        if (key >= DROPPED) key = DROPPED - 1;
        child_g[slot] = g;
        child_f[slot] = g + h;
        child_key[slot] = (u32)key;
        atomicMin(&ctrl[BC_MIN_KEY], key);
        atomicMax(&ctrl[BC_MAX_KEY], key);
        if (is_goal(c, tables)) atomicMin(&ctrl[BC_FOUND], ((u64)g << 32) | slot);
    }
    if (generated) atomicAdd(&ctrl[BC_GENERATED], (u64)generated);
}

extern "C" __global__ void beam_dedup(
    const u32* child_states, u32* child_key, u32 total, u64* table, u32 mask) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    u32 key = child_key[i];
    if (key == DROPPED) return;
    const u32* c = child_states + (u64)i * STATE_WORDS;
    u64 mine = ((u64)key << 32) | i;
    u32 slot = (u32)state_hash(c) & mask;
    for (;;) {
        u64 v = table[slot];
        if (v == 0) {
            u64 old = atomicCAS(&table[slot], 0ull, ~mine);
            if (old == 0) return;
            v = old;
        }
        // Every word a slot ever holds names a copy of the same state.
        if (same_state(child_states + (u64)(u32)~v * STATE_WORDS, c)) {
            u64 old = ~atomicMax(&table[slot], ~mine);
            if (old < mine) child_key[i] = DROPPED;
            else child_key[(u32)old] = DROPPED;
            return;
        }
        slot = (slot + 1) & mask;
    }
}

// The plugin's sizes, for the host: MAX_SUCC and STATE_WORDS.
extern "C" __global__ void beam_sizes(u32* out) {
    out[0] = MAX_SUCC;
    out[1] = STATE_WORDS;
}

extern "C" __global__ void beam_histogram(
    const u32* child_key, u32 total, u32 base, u32 bins, u32* counts) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total) return;
    u32 key = child_key[i];
    if (key == DROPPED) return;
    u32 at = key - base;
    atomicAdd(&counts[at < bins ? at : bins - 1], 1u);
}

// The bin of a key: keys past the last bin share it (the host widens the
// histogram to every key, so this only guards memory).
__device__ __forceinline__ u32 bin_of(u32 key, u32 base, u32 bins) {
    u32 at = key - base;
    return at < bins ? at : bins - 1;
}

// Per block of BEAM_BLOCK children: how many are below the threshold bin,
// and how many in it.
extern "C" __global__ void beam_count(
    const u32* child_key, u32 total, u32 base, u32 bins, u32 threshold, u32* below, u32* at) {
    __shared__ u32 lt, eq;
    if (threadIdx.x == 0) { lt = 0; eq = 0; }
    __syncthreads();
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total && child_key[i] != DROPPED) {
        u32 b = bin_of(child_key[i], base, bins);
        if (b < threshold) atomicAdd(&lt, 1u);
        else if (b == threshold) atomicAdd(&eq, 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) { below[blockIdx.x] = lt; at[blockIdx.x] = eq; }
}

// The rank of this thread's flag among its block's, and the block's total
// (blockDim.x = BEAM_BLOCK, 32 warps).
__device__ u32 block_rank(bool flag, u32* warp_totals, u32* total) {
    u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned ballot = __ballot_sync(0xFFFFFFFFu, flag);
    u32 rank = __popc(ballot & ((1u << lane) - 1));
    if (lane == 0) warp_totals[warp] = __popc(ballot);
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 sum = 0;
        for (int w = 0; w < BEAM_BLOCK / 32; w++) {
            u32 t = warp_totals[w];
            warp_totals[w] = sum;
            sum += t;
        }
        *total = sum;
    }
    __syncthreads();
    rank += warp_totals[warp];
    __syncthreads();
    return rank;
}

extern "C" __global__ void beam_place(
    const u32* child_states, const u32* child_g, const u32* child_f, const u32* child_key,
    u32 total, u32 base, u32 bins, u32 threshold, const u32* below_before, const u32* at_before,
    u32 below_all, u32 room_at, u32* next_layer, u32* next_g, u32* next_parent, u64* ctrl) {
    __shared__ u32 warp_totals[BEAM_BLOCK / 32];
    __shared__ u32 block_total;
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < total && child_key[i] != DROPPED;
    u32 b = valid ? bin_of(child_key[i], base, bins) : 0xFFFFFFFFu;
    bool lt = valid && b < threshold;
    bool eq = valid && b == threshold;
    u32 lt_rank = block_rank(lt, warp_totals, &block_total);
    u32 eq_rank = block_rank(eq, warp_totals, &block_total);
    long long to = -1;
    if (lt) to = below_before[blockIdx.x] + lt_rank;
    if (eq) {
        u32 e = at_before[blockIdx.x] + eq_rank;
        if (e < room_at) to = below_all + e;
    }
    if (!valid) return;
    if (to < 0) {
        atomicMin(&ctrl[BC_DROPPED_F], (u64)child_f[i]);
        return;
    }
    const u32* c = child_states + (u64)i * STATE_WORDS;
    u32* out = next_layer + (u64)to * STATE_WORDS;
    for (int w = 0; w < STATE_WORDS; w++) out[w] = c[w];
    next_g[to] = child_g[i];
    next_parent[to] = i / MAX_SUCC;
    atomicMin(&ctrl[BC_MIN_F], (u64)child_f[i]);
}

// Adds the fingerprints of a layer's kept states to the table.
extern "C" __global__ void beam_remember(const u32* layer, u32 n, u64* seen, u64 mask, u64* ctrl) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u64 print = fingerprint(layer + (u64)i * STATE_WORDS);
    for (u64 slot = print & mask;; slot = (slot + 1) & mask) {
        u64 old = atomicCAS(&seen[slot], 0ull, print);
        if (old == 0) {
            atomicAdd(&ctrl[BC_SEEN], 1ull);
            return;
        }
        if (old == print) return;
    }
}

// The least f of a layer's children that are not dropped: the last layer
// is never expanded, so its children count in the bound.
extern "C" __global__ void beam_min_f(const u32* child_f, const u32* child_key, u32 total, u64* ctrl) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total || child_key[i] == DROPPED) return;
    atomicMin(&ctrl[BC_DROPPED_F], (u64)child_f[i]);
}
