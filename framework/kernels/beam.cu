// Beam search on one GPU: the generic engine (framework/src/search/gpu/beam.rs
// drives it). It takes the GA* plugin contract (see gastar.cu): STATE_WORDS,
// MAX_SUCC, is_goal, expand, heuristic and optionally state_hash, and
// optionally rank(state, h, tables) under PLUGIN_RANK (the CPU's
// Heuristic::rank: what a layer is ranked by in place of h). An optional
// hook makes a child's rank cheaper from its parent's: PLUGIN_RANK_CHILD
// (rank_child(parent, parent_h, parent_rank, child, h, tables), the CPU's
// Heuristic::rank_child). A plugin whose rank reads what its h computes
// makes both at once under PLUGIN_H_AND_RANK (h_and_rank(state, &h,
// tables) returns the rank, afresh). Each layer keeps its states' h and
// rank for the next expansion.
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

// Warp reductions: a word that every thread of a block's warps adds to,
// or keeps the least or largest of, is reduced in the warp first and
// changed by one atomic a warp. Many children a layer into one control word
// would otherwise queue at one address. Every lane of the warp must call
// them (the kernels that do keep out-of-range threads to the end).
#define FULL_WARP 0xFFFFFFFFu
#define NO_VALUE 0xFFFFFFFFu

__device__ __forceinline__ u32 warp_min(u32 v) {
    for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(FULL_WARP, v, o));
    return v;
}

__device__ __forceinline__ u32 warp_max(u32 v) {
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(FULL_WARP, v, o));
    return v;
}

__device__ __forceinline__ u32 warp_sum(u32 v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_WARP, v, o);
    return v;
}

// Lowers the control word `at` to the warp's least `v` (NO_VALUE: none).
__device__ __forceinline__ void warp_atomic_min(u64* at, u32 v) {
    v = warp_min(v);
    if ((threadIdx.x & 31) == 0 && v != NO_VALUE) atomicMin(at, (u64)v);
}

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

// A plugin that ranks by what its h computes, with IDA*'s incremental h
// (PLUGIN_H_CHILD: h_init makes a state's detail, h_child a child's detail
// and h from its parent's) and a rank made from the two details and a
// RankDetail of its own (PLUGIN_RANK_DETAIL: rank_detail_init(parent, hw,
// &rd, tables) once per parent, rank_from_detail(parent, hw, &rd, child,
// chw, tables) per child), gives the beam its children's h and rank from
// their parent's detail instead of h_and_rank afresh. Each equals the afresh
// value (the tests compare beam_child_rank_of with the CPU's). Only then:
// on the tiles the detail's h alone (one database lookup per board for a
// child, instead of all of them) made the 35-puzzle's beam ranked by h +
// conflicts 11% slower on an H100 (results/beam-detail: the parent's and
// child's detail in registers cost more than the lookups they save), where
// the network's rank from the detail made it 7.5% faster. BEAM_AFRESH (set
// by the host under FRONTIER_BEAM_AFRESH=1, to measure the difference)
// turns it off.
#if defined(PLUGIN_H_CHILD) && defined(PLUGIN_RANK_DETAIL) && !defined(BEAM_AFRESH)
#define BEAM_FROM_DETAIL
#endif

// A child's rank, from its parent's (h ph, rank pr) under PLUGIN_RANK_CHILD.
__device__ __forceinline__ u32 child_rank(const u32* parent, u32 ph, u32 pr, const u32* child,
                                          u32 h, const unsigned char* tables) {
#ifdef PLUGIN_RANK_CHILD
    return rank_child(parent, ph, pr, child, h, tables);
#else
    return rank_of(child, h, tables);
#endif
}

// What beam_expand makes once per parent to make its children's h and rank
// from: the parent's detail under BEAM_FROM_DETAIL, nothing otherwise.
struct ParentWork {
#ifdef BEAM_FROM_DETAIL
    u32 hw[H_WORDS];
    RankDetail rd;
#endif
};

__device__ __forceinline__ void parent_work_init(const u32* s, ParentWork* pw,
                                                 const unsigned char* tables) {
#ifdef BEAM_FROM_DETAIL
    h_init(s, pw->hw, tables);
    rank_detail_init(s, pw->hw, &pw->rd, tables);
#endif
}

// Child c's h (into *h) and rank, from its parent s (h ph, rank pr) and the
// parent's work pw. A child that is dropped needs only its h, for the bound
// (need_rank false: the rank is then 0). beam_expand and the tests'
// beam_child_rank_of both make a child's numbers here.
__device__ __forceinline__ u32 child_h_and_rank(const u32* s, u32 ph, u32 pr,
                                                const ParentWork* pw, const u32* c,
                                                bool need_rank, u32* h,
                                                const unsigned char* tables) {
#if defined(BEAM_FROM_DETAIL)
    u32 chw[H_WORDS];
    *h = h_child(pw->hw, c, chw, tables);
    return need_rank ? rank_from_detail(s, pw->hw, &pw->rd, c, chw, tables) : 0;
#elif defined(PLUGIN_H_AND_RANK)
    if (!need_rank) {
        *h = heuristic(c, tables);
        return 0;
    }
    return h_and_rank(c, h, tables);
#else
    *h = heuristic(c, tables);
    return need_rank ? child_rank(s, ph, pr, c, *h, tables) : 0;
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
    const u32* layer, const u32* layer_g, const u32* layer_hr, const u32* layer_parent,
    const u32* prev_layer, u32 n, u32 has_prev, u32* child_states, u32* child_g, u32* child_f,
    u32* child_rank_out, u32* child_key, u64* ctrl, u32 num, u32 den, u32 greedy,
    const u64* seen, u64 seen_mask, const unsigned char* tables) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    // Threads past the layer stay to the warp reductions at the end.
    u32 generated = 0, least_key = NO_VALUE, most_key = 0, least_dropped_f = NO_VALUE;
    if (i < n) {
        // The parent and each child are read into registers once: the
        // plugin's code reads a state word by word many times, from
        // global or local memory otherwise.
        u32 s[STATE_WORDS];
        for (int w = 0; w < STATE_WORDS; w++) s[w] = layer[(u64)i * STATE_WORDS + w];
        u32 out[MAX_SUCC * STATE_WORDS];
        u32 cost[MAX_SUCC];
        int made = expand(s, out, cost, tables);
        u32 ph = layer_hr[2 * (u64)i], pr = layer_hr[2 * (u64)i + 1];
        const u32* grandparent = has_prev ? prev_layer + (u64)layer_parent[i] * STATE_WORDS : 0;
        ParentWork pw;
        parent_work_init(s, &pw, tables);
        for (int j = 0; j < MAX_SUCC; j++) {
            u64 slot = (u64)i * MAX_SUCC + j;
            if (j >= made) {
                child_key[slot] = DROPPED;
                continue;
            }
            u32 c[STATE_WORDS];
            for (int w = 0; w < STATE_WORDS; w++) c[w] = out[j * STATE_WORDS + w];
            if (grandparent && same_state(c, grandparent)) {
                child_key[slot] = DROPPED;
                continue;
            }
            generated++;
            u32 g = layer_g[i] + cost[j];
            bool known = seen_before(seen, seen_mask, fingerprint(c));
            u32 h;
            u32 r = child_h_and_rank(s, ph, pr, &pw, c, !known, &h, tables);
            if (known) {
                child_key[slot] = DROPPED;
                least_dropped_f = min(least_dropped_f, g + h);
                continue;
            }
            u32* to = child_states + slot * STATE_WORDS;
            for (int w = 0; w < STATE_WORDS; w++) to[w] = c[w];
            u64 key = greedy ? (u64)r : (u64)den * g + (u64)num * r;
            if (key >= DROPPED) key = DROPPED - 1;
            child_g[slot] = g;
            child_f[slot] = g + h;
            child_rank_out[slot] = r;
            child_key[slot] = (u32)key;
            least_key = min(least_key, (u32)key);
            most_key = max(most_key, (u32)key);
            if (is_goal(c, tables)) atomicMin(&ctrl[BC_FOUND], ((u64)g << 32) | slot);
        }
    }
    warp_atomic_min(&ctrl[BC_MIN_KEY], least_key);
    warp_atomic_min(&ctrl[BC_DROPPED_F], least_dropped_f);
    most_key = warp_max(most_key);
    generated = warp_sum(generated);
    if ((threadIdx.x & 31) == 0) {
        if (most_key) atomicMax(&ctrl[BC_MAX_KEY], (u64)most_key);
        if (generated) atomicAdd(&ctrl[BC_GENERATED], (u64)generated);
    }
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

// For tests: the h and rank of each of n children as beam_expand makes
// them from their parents (the incremental hooks where the plugin has them).
extern "C" __global__ void beam_child_rank_of(const u32* parents, const u32* children, u32 n,
                                              u32* out, const unsigned char* tables) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const u32* p = parents + (u64)i * STATE_WORDS;
    const u32* c = children + (u64)i * STATE_WORDS;
    u32 ph = heuristic(p, tables);
    u32 pr = rank_of(p, ph, tables);
    ParentWork pw;
    parent_work_init(p, &pw, tables);
    u32 h;
    u32 r = child_h_and_rank(p, ph, pr, &pw, c, true, &h, tables);
    out[2 * (u64)i] = h;
    out[2 * (u64)i + 1] = r;
}

// The plugin's sizes, for the host: MAX_SUCC and STATE_WORDS.
extern "C" __global__ void beam_sizes(u32* out) {
    out[0] = MAX_SUCC;
    out[1] = STATE_WORDS;
}

// Children of a warp whose keys share a bin add to it with one atomic
// (a layer's keys span a few dozen bins, so most of a warp's share one).
extern "C" __global__ void beam_histogram(
    const u32* child_key, u32 total, u32 base, u32 bins, u32* counts) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    u32 key = i < total ? child_key[i] : DROPPED;
    u32 at = NO_VALUE;
    if (key != DROPPED) {
        at = key - base;
        if (at >= bins) at = bins - 1;
    }
    u32 peers = __match_any_sync(FULL_WARP, at);
    if (at != NO_VALUE && (u32)(__ffs(peers) - 1) == (threadIdx.x & 31))
        atomicAdd(&counts[at], (u32)__popc(peers));
}

// The bin of a key: keys past the last bin share it (the host widens the
// histogram to every key, so this only guards memory).
__device__ __forceinline__ u32 bin_of(u32 key, u32 base, u32 bins) {
    u32 at = key - base;
    return at < bins ? at : bins - 1;
}

// Per block of BEAM_BLOCK children: how many are below the threshold bin,
// and how many in it.
extern "C" __global__ void __launch_bounds__(BEAM_BLOCK) beam_count(
    const u32* child_key, u32 total, u32 base, u32 bins, u32 threshold, u32* below, u32* at) {
    __shared__ u32 lt, eq;
    if (threadIdx.x == 0) { lt = 0; eq = 0; }
    __syncthreads();
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    bool is_lt = false, is_eq = false;
    if (i < total && child_key[i] != DROPPED) {
        u32 b = bin_of(child_key[i], base, bins);
        is_lt = b < threshold;
        is_eq = b == threshold;
    }
    u32 warp_lt = __popc(__ballot_sync(FULL_WARP, is_lt));
    u32 warp_eq = __popc(__ballot_sync(FULL_WARP, is_eq));
    if ((threadIdx.x & 31) == 0) {
        if (warp_lt) atomicAdd(&lt, warp_lt);
        if (warp_eq) atomicAdd(&eq, warp_eq);
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

extern "C" __global__ void __launch_bounds__(BEAM_BLOCK) beam_place(
    const u32* child_states, const u32* child_g, const u32* child_f, const u32* child_rank,
    const u32* child_key, u32 total, u32 base, u32 bins, u32 threshold, const u32* below_before,
    const u32* at_before, u32 below_all, u32 room_at, u32* next_layer, u32* next_g,
    u32* next_hr, u32* next_parent, u64* ctrl) {
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
    u32 f = valid ? child_f[i] : NO_VALUE;
    warp_atomic_min(&ctrl[BC_DROPPED_F], to < 0 ? f : NO_VALUE);
    warp_atomic_min(&ctrl[BC_MIN_F], to >= 0 ? f : NO_VALUE);
    if (!valid || to < 0) return;
    const u32* c = child_states + (u64)i * STATE_WORDS;
    u32* out = next_layer + (u64)to * STATE_WORDS;
    for (int w = 0; w < STATE_WORDS; w++) out[w] = c[w];
    next_g[to] = child_g[i];
    next_hr[2 * to] = child_f[i] - child_g[i];
    next_hr[2 * to + 1] = child_rank[i];
    next_parent[to] = i / MAX_SUCC;
}

// Adds the fingerprints of a layer's kept states to the table.
extern "C" __global__ void beam_remember(const u32* layer, u32 n, u64* seen, u64 mask, u64* ctrl) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    u32 added = 0;
    if (i < n) {
        u64 print = fingerprint(layer + (u64)i * STATE_WORDS);
        for (u64 slot = print & mask;; slot = (slot + 1) & mask) {
            u64 old = atomicCAS(&seen[slot], 0ull, print);
            if (old == 0) added = 1;
            if (old == 0 || old == print) break;
        }
    }
    added = warp_sum(added);
    if ((threadIdx.x & 31) == 0 && added) atomicAdd(&ctrl[BC_SEEN], (u64)added);
}

// The least f of a layer's children that are not dropped: the last layer
// is never expanded, so its children count in the bound.
extern "C" __global__ void beam_min_f(const u32* child_f, const u32* child_key, u32 total, u64* ctrl) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total || child_key[i] == DROPPED) return;
    atomicMin(&ctrl[BC_DROPPED_F], (u64)child_f[i]);
}
