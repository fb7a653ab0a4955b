// GA* (Zhou & Zeng, AAAI 2015) on one or several GPUs: the generic engine.
// A domain plugin, pasted above this file by the host, defines
//   STATE_WORDS, MAX_SUCC
//   __device__ bool     is_goal(const u32* s, const unsigned char* tables);
//   __device__ int      expand(const u32* s, u32* out, u32* cost,
//                              const unsigned char* tables);   // <= MAX_SUCC children
//   __device__ u32      heuristic(const u32* s, const unsigned char* tables);
// optionally (with #define PLUGIN_STATE_HASH; the engine has a default)
//   __device__ u64      state_hash(const u32* s);
// and, for Abstract Zobrist partitions only,
//   template <class Visit> __device__ void for_each_feature(const u32* s, Visit visit);
// The partition (see framework/src/search/gpu/partition.rs) is pasted between
// plugin and engine and defines
//   __device__ u32 partition_owner(const u32* s, u32 parts, const u64* table);
//
// One thread owns one binary heap. An iteration is:
//   ga_expand: every heap pops its best node (if its f is below the bound),
//              records a goal in the incumbent, or generates its children
//              (but not the one equal to the node's own parent);
//              a child owned by this GPU goes to a slot, a child owned by
//              another GPU straight into that GPU's inbox (several GPUs);
//   ga_dedup:  every child in a slot or in this GPU's inbox is checked
//              against a hash table with replacement (a duplicate may be
//              missed, never a better path dropped), then allocated in
//              the node arena;
//   ga_push:   heap t gathers child j of heap (t - (j+1)*stride - rotate)
//              and every heaps-th inbox record, and pushes them.
// The host stops when no GPU holds an f below the incumbent's cost: each
// reports the lowest f on its heaps after the pops and among the children
// it generated (in slots or inboxes), so nothing is in flight unseen.
//
// Partial expansion (Yoshizumi, Miura & Ishida, AAAI 2000), when `partial`
// is set: an expansion stores only the children whose f equals the node's
// heap key and puts the node back keyed by the smallest larger child f
// (bit 48 of the key marks such a reopened node). Children above the
// optimal cost are then never stored: on the 24-puzzle about half of all
// generated nodes.
//
// Weighted (num/den = w > 1) and greedy orders (framework/src/search/order.rs):
// a heap key's f field is then den·g + num·h (h when greedy) instead of
// g + h, partial expansion is off, and with an incumbent of cost C a node
// whose key reaches den·C is pruned (num·f ≥ key ≥ den·C, so w·f ≥ C;
// greedy prunes everything once C exists). The f of each pruned child is
// kept (CTRL_LEAST_F) for the solution's lower bound.
//
// Compact nodes: the arena holds only the packed state and the parent
// (plus the parent's GPU with several GPUs). g lives in the heap key and in
// the hash table entry; moves are found again on the CPU when the path is
// replayed. Heap keys are f << 49 | reopened << 48 | (0xFFFF - g) << 32 |
// node: smallest f first, then fresh before reopened, then largest g.

#define NO_NODE 0xFFFFFFFFu
#define MAX_F 0x7FFEu
#define F_SHIFT 49
#define MAX_GPUS 64

// Control words shared with the host.
#define CTRL_INCUMBENT 0   // cost << 32 | goal node, or all ones
#define CTRL_MIN_F 1       // lowest f on the heaps after the pops and among new children
#define CTRL_OVERFLOW 2    // 1: a heap is full, 2: the arena is full, 4: an f over MAX_F
#define CTRL_NODES 3       // nodes allocated
#define CTRL_EXPANDED 4    // nodes expanded
#define CTRL_GENERATED 5   // successors generated
#define CTRL_SENT 6        // children sent to another GPU
#define CTRL_REOPENED 7    // expansions of reopened nodes (partial expansion)
#define CTRL_LEAST_F 8     // least f = g + h of the children pruned (and, after
                           // ga_open_least_f, of the nodes open): a lower bound
#define CTRL_COUNTS 9      // [2][gpus]: records per destination, by iteration parity

// A child on its way to another GPU: state, g, f, parent node, sender.
#define RECORD_WORDS (STATE_WORDS + 4)

__device__ __forceinline__ u64 mix64(u64 z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The hash of a packed state that the "hash" partition reduces; written
// again in Rust (search::gpu::partition::packed_hash), which must agree.
__device__ __forceinline__ u64 packed_hash(const u32* s) {
    u64 h = 0x243F6A8885A308D3ull;
    for (int w = 0; w < STATE_WORDS; w++) h = mix64(h ^ s[w]);
    return h;
}

// state_hash: the plugin's, or the default of state_hash.cuh (pasted above).

// Multiply-shift onto 0..parts, as frontier_core::domain::reduce.
__device__ __forceinline__ u32 reduce_parts(u64 hash, u32 parts) {
    return (u32)__umul64hi(hash, (u64)parts);
}

// ---- engine body: the host pastes the partition above this line ----

__device__ __forceinline__ void heap_push(u64* heap, u32* size, u32 cap, u64 key, u64* ctrl) {
    u32 i = *size;
    if (i >= cap) {
        atomicOr(&ctrl[CTRL_OVERFLOW], 1ull);
        return;
    }
    *size = i + 1;
    while (i > 0) {
        u32 parent = (i - 1) >> 1;
        u64 p = heap[parent];
        if (p <= key) break;
        heap[i] = p;
        i = parent;
    }
    heap[i] = key;
}

__device__ __forceinline__ u64 heap_pop(u64* heap, u32* size) {
    u64 top = heap[0];
    u32 n = *size - 1;
    *size = n;
    if (n == 0) return top;
    u64 last = heap[n];
    u32 i = 0;
    while (true) {
        u32 l = 2 * i + 1;
        if (l >= n) break;
        u32 r = l + 1;
        u32 c = (r < n && heap[r] < heap[l]) ? r : l;
        if (heap[c] >= last) break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = last;
    return top;
}

__device__ __forceinline__ u64 heap_key(u32 f, u32 g, u32 again, u32 node) {
    return ((u64)f << F_SHIFT) | ((u64)again << 48) | ((u64)(0xFFFFu - (g & 0xFFFFu)) << 32) | (u64)node;
}

__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31u; }

// Claims `count` consecutive slots of `*counter` for each group of lanes
// adding to it together: one atomic per group instead of one per lane
// (thousands of same-address atomics per launch serialise in L2).
__device__ __forceinline__ u32 claim_slot(u64* counter, u32 group) {
    u32 leader = __ffs(group) - 1;
    u32 rank = __popc(group & ((1u << lane_id()) - 1u));
    u32 base = 0;
    if (lane_id() == leader) base = (u32)atomicAdd(counter, (u64)__popc(group));
    return __shfl_sync(group, base, leader) + rank;
}

extern "C" __global__ void __launch_bounds__(256) ga_expand(
    u64* heaps, u32* heap_size, u32 heap_count, u32 heap_cap,
    const u32* states, const u32* parent, const unsigned char* parent_gpus,
    u32* child_states, u32* child_f, u32* child_g, u32* child_parent, u32* child_node,
    u64* ctrl, const unsigned char* tables, u32 bound, u32 ceiling, u32 partial,
    u32 num, u32 den, u32 greedy,
    u32 gpus, u32 me, u32 parity, const u64* inboxes, u32 inbox_cap, const u64* partition)
{
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= heap_count) return;
    for (int j = 0; j < MAX_SUCC; j++) child_node[t * MAX_SUCC + j] = 0;
    u64 best = ctrl[CTRL_INCUMBENT] >> 32;
    if ((u64)bound < best) best = bound;
    // The least key pruned: den·C (C for A*), 0 for greedy with a goal.
    u64 incumbent = best >= 0xFFFFFFFFull ? best : (greedy ? 0 : (u64)den * best);
    u32 pruned_f = 0xFFFFFFFFu;  // least f = g + h of the children pruned here
    u32 lowest = 0xFFFFFFFFu;  // lowest f left on this heap or generated here
    u32 expanded = 0, again = 0, generated = 0, sent = 0;
    u32 size = heap_size[t];
    u64* heap = heaps + (u64)t * heap_cap;
    if (size > 0 && (heap[0] >> F_SHIFT) >= incumbent) {
        lowest = (u32)(heap[0] >> F_SHIFT);
    } else if (size > 0) {
        u64 key = heap_pop(heap, &size);
        if (size > 0) lowest = (u32)(heap[0] >> F_SHIFT);
        u32 node = (u32)(key & 0xFFFFFFFFu);
        u32 fn = (u32)(key >> F_SHIFT);
        bool reopened = ((key >> 48) & 1u) != 0;
        const u32* s = states + (u64)node * STATE_WORDS;
        u32 gn = 0xFFFFu - (u32)((key >> 32) & 0xFFFFu);
        if (is_goal(s, tables)) {
            atomicMin(&ctrl[CTRL_INCUMBENT], ((u64)gn << 32) | node);
        } else {
            expanded = 1;
            again = reopened ? 1 : 0;
            u32 parent_state[STATE_WORDS];
            for (int w = 0; w < STATE_WORDS; w++) parent_state[w] = s[w];
            // The child that leads back to this node's parent is never cheaper
            // (costs are non-negative) and the table has often forgotten the
            // parent by now: skip it here, where the parent is at hand (on this GPU).
            u32 back = parent[node];
            bool has_back = back != NO_NODE && (gpus == 1 || parent_gpus[node] == me);
            u32 back_state[STATE_WORDS];
            for (int w = 0; w < STATE_WORDS; w++) back_state[w] = has_back ? states[(u64)back * STATE_WORDS + w] : 0;
            u32 out[MAX_SUCC * STATE_WORDS];
            u32 cost[MAX_SUCC];
            int n = expand(parent_state, out, cost, tables);
            generated = (u32)n;
            // Partial expansion: only the children whose f equals the node's
            // key are stored now; the node goes back on its heap keyed by the
            // smallest f above it, and the rest wait until that f is reached
            // (never, for those at or above the optimal cost).
            u32 deferred = 0xFFFFFFFFu;
            for (int j = 0; j < n; j++) {
                u32* cs = out + j * STATE_WORDS;
                if (has_back) {
                    bool same = true;
                    for (int w = 0; w < STATE_WORDS; w++) same = same && cs[w] == back_state[w];
                    if (same) continue;
                }
                u32 h = heuristic(cs, tables);
                u32 gc = gn + cost[j];
                // The heap key's f field: g + h, or den·g + num·h weighted.
                u64 f = greedy ? (u64)h : (u64)den * gc + (u64)num * h;
                // An anytime restart's ceiling prunes by f = g + h, which
                // (h admissible) drops only children that cannot lead below
                // it; a key prune instead would end the run at the first
                // weighted frontier above the ceiling and miss improvements.
                if (f >= incumbent || (u64)gc + h >= ceiling) {
                    if ((u64)gc + h < pruned_f) pruned_f = gc + h;
                    continue;
                }
                if (f > MAX_F) {
                    atomicOr(&ctrl[CTRL_OVERFLOW], 4ull);
                    continue;
                }
                if (partial) {
                    if (f > fn) {
                        if (f < deferred) deferred = (u32)f;
                        continue;
                    }
                    if (reopened && f < fn) continue;  // stored when the node was opened before
                }
                if (f < lowest) lowest = (u32)f;
                u32 owner = gpus > 1 ? partition_owner(cs, gpus, partition) : me;
                if (owner != me) {
                    // Written straight into the owner's inbox (a store to a
                    // peer is posted; a read from one waits a round trip).
                    u32 group = __match_any_sync(__activemask(), owner);
                    u32 at = claim_slot(&ctrl[CTRL_COUNTS + parity * gpus + owner], group);
                    u32* rec = (u32*)inboxes[owner] + (((u64)parity * gpus + me) * inbox_cap + at) * RECORD_WORDS;
                    for (int w = 0; w < STATE_WORDS; w++) rec[w] = cs[w];
                    rec[STATE_WORDS] = gc;
                    rec[STATE_WORDS + 1] = (u32)f;
                    rec[STATE_WORDS + 2] = node;
                    rec[STATE_WORDS + 3] = me;
                    sent++;
                    continue;
                }
                u32 slot = t * MAX_SUCC + j;
                for (int w = 0; w < STATE_WORDS; w++) child_states[(u64)slot * STATE_WORDS + w] = cs[w];
                child_g[slot] = gc;
                child_f[slot] = (u32)f;
                child_parent[slot] = node;
                child_node[slot] = 1;  // pending; ga_dedup turns it into node + 1 or 0
            }
            if (deferred != 0xFFFFFFFFu) {
                heap_push(heap, &size, heap_cap, heap_key(deferred, gn, 1, node), ctrl);
                if (deferred < lowest) lowest = deferred;
            }
        }
        heap_size[t] = size;
    }
    // Counters: one atomic per warp.
    u32 active = __activemask();
    expanded = __reduce_add_sync(active, expanded);
    again = __reduce_add_sync(active, again);
    generated = __reduce_add_sync(active, generated);
    sent = __reduce_add_sync(active, sent);
    lowest = __reduce_min_sync(active, lowest);
    pruned_f = __reduce_min_sync(active, pruned_f);
    if (lane_id() == __ffs(active) - 1) {
        if (expanded) atomicAdd(&ctrl[CTRL_EXPANDED], (u64)expanded);
        if (again) atomicAdd(&ctrl[CTRL_REOPENED], (u64)again);
        if (generated) atomicAdd(&ctrl[CTRL_GENERATED], (u64)generated);
        if (sent) atomicAdd(&ctrl[CTRL_SENT], (u64)sent);
        if (lowest != 0xFFFFFFFFu) atomicMin(&ctrl[CTRL_MIN_F], (u64)lowest);
        if (pruned_f != 0xFFFFFFFFu) atomicMin(&ctrl[CTRL_LEAST_F], (u64)pruned_f);
    }
}

// The least f = g + h over every heap entry and every child the last
// ga_expand left in its slots (made under an incumbent that a goal of the
// same launch then lowered, they are open too), into CTRL_LEAST_F: with
// the pruned children's, a lower bound on the optimum once a weighted
// search ends (keys as ga_expand makes them).
extern "C" __global__ void __launch_bounds__(256) ga_open_least_f(
    const u64* heaps, const u32* heap_size, u32 heap_count, u32 heap_cap,
    const u32* child_f, const u32* child_g, const u32* child_node,
    u32 num, u32 den, u32 greedy, u64* ctrl)
{
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= heap_count) return;
    const u64* heap = heaps + (u64)t * heap_cap;
    u32 least = 0xFFFFFFFFu;
    for (u32 i = 0; i < heap_size[t]; i++) {
        u64 key = heap[i];
        u32 k = (u32)(key >> F_SHIFT);
        u32 g = 0xFFFFu - (u32)((key >> 32) & 0xFFFFu);
        u32 h = greedy ? k : (k - den * g) / num;
        if (g + h < least) least = g + h;
    }
    for (int j = 0; j < MAX_SUCC; j++) {
        u32 slot = t * MAX_SUCC + j;
        if (child_node[slot] == 0) continue;
        u32 k = child_f[slot], g = child_g[slot];
        u32 h = greedy ? k : (k - den * g) / num;
        if (g + h < least) least = g + h;
    }
    if (least != 0xFFFFFFFFu) atomicMin(&ctrl[CTRL_LEAST_F], (u64)least);
}

// Looks a child up in the table and allocates it unless a copy at an equal
// or lower g is known. Table entries are g << 32 | node + 1 (0: empty).
// Returns node + 1, or 0 when the child is dropped.
__device__ __forceinline__ u32 insert_node(
    const u32* cs, u32 gc, u32 parent_node, u32 parent_gpu,
    u64* table, u32 table_mask, u32* states, u32* parent, unsigned char* parent_gpus,
    u32 gpus, u32 node_cap, u64* ctrl)
{
    u32 slot = (u32)(state_hash(cs) & table_mask);
    u64 known = table[slot];
    if (known != 0) {
        u32 other = (u32)(known & 0xFFFFFFFFu) - 1;
        bool same = true;
        for (int w = 0; w < STATE_WORDS; w++) same = same && states[(u64)other * STATE_WORDS + w] == cs[w];
        if (same && (u32)(known >> 32) <= gc) return 0;
    }
    u32 node = claim_slot(&ctrl[CTRL_NODES], __activemask());
    if (node >= node_cap) {
        atomicOr(&ctrl[CTRL_OVERFLOW], 2ull);
        return 0;
    }
    for (int w = 0; w < STATE_WORDS; w++) states[(u64)node * STATE_WORDS + w] = cs[w];
    parent[node] = parent_node;
    if (gpus > 1) parent_gpus[node] = (unsigned char)parent_gpu;
    table[slot] = ((u64)gc << 32) | (u64)(node + 1);
    return node + 1;
}

// How many records each GPU wrote into this GPU's inbox this iteration
// (the host reads them from the senders' control words at the barrier).
struct Incoming { u32 count[MAX_GPUS]; };

// Children of this iteration: the slots of this GPU (threads below
// `slots`), then the records other GPUs wrote into this GPU's inbox,
// sender by sender (thread slots + k: k-th record of them all).
extern "C" __global__ void __launch_bounds__(256) ga_dedup(
    u32 slots, u64* table, u32 table_mask,
    u32* states, u32* parent, unsigned char* parent_gpus, u32 gpus, u32 node_cap,
    const u32* child_states, const u32* child_g, const u32* child_parent, u32* child_node,
    const u32* inbox, Incoming incoming, u32 parity, u64* inbox_key,
    u32 me, u64* ctrl)
{
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < slots) {
        if (child_node[i] != 0)
            child_node[i] = insert_node(child_states + (u64)i * STATE_WORDS, child_g[i], child_parent[i], me,
                                        table, table_mask, states, parent, parent_gpus, gpus, node_cap, ctrl);
        return;
    }
    u32 k = i - slots, from = 0;
    while (from < gpus && k >= incoming.count[from]) k -= incoming.count[from++];
    if (from >= gpus) return;
    const u32* rec = inbox + (((u64)parity * gpus + from) * slots + k) * RECORD_WORDS;
    u32 cs[STATE_WORDS];
    for (int w = 0; w < STATE_WORDS; w++) cs[w] = rec[w];
    u32 gc = rec[STATE_WORDS], f = rec[STATE_WORDS + 1];
    u32 v = insert_node(cs, gc, rec[STATE_WORDS + 2], rec[STATE_WORDS + 3],
                        table, table_mask, states, parent, parent_gpus, gpus, node_cap, ctrl);
    inbox_key[i - slots] = v != 0 ? heap_key(f, gc, 0, v - 1) : 0;
}

extern "C" __global__ void __launch_bounds__(256) ga_push(
    u64* heaps, u32* heap_size, u32 heap_count, u32 heap_cap,
    const u32* child_f, const u32* child_g, const u32* child_node,
    const u64* inbox_key, u32 inbox_len,
    u32 stride, u32 rotate, u32 gpus, u32 next_parity, u64* ctrl)
{
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) ctrl[CTRL_MIN_F] = 0xFFFFFFFFull;  // for the next ga_expand
    if (t < gpus) ctrl[CTRL_COUNTS + next_parity * gpus + t] = 0;
    if (t >= heap_count) return;
    u64* heap = heaps + (u64)t * heap_cap;
    u32 size = heap_size[t];
    for (u32 j = 0; j < MAX_SUCC; j++) {
        u32 shift = (u32)(((u64)(j + 1) * stride + rotate) % heap_count);
        u32 from = (t + heap_count - shift) % heap_count;
        u32 slot = from * MAX_SUCC + j;
        u32 v = child_node[slot];
        if (v == 0) continue;
        heap_push(heap, &size, heap_cap, heap_key(child_f[slot], child_g[slot], 0, v - 1), ctrl);
    }
    for (u32 i = (t + rotate) % heap_count; i < inbox_len; i += heap_count) {
        u64 key = inbox_key[i];
        if (key != 0) heap_push(heap, &size, heap_cap, key, ctrl);
    }
    heap_size[t] = size;
}

// Walks parent links from `goal` while they stay on this GPU; writes the
// number of records, the node and GPU where the walk left off (NO_NODE at
// the start), then each state (goal first).
extern "C" __global__ void ga_trace(
    u32 goal, const u32* parent, const unsigned char* parent_gpus, u32 gpus, u32 me,
    const u32* states, u32* out, u32 max_len)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    u32 len = 0;
    u32 at = goal;
    u32 next_gpu = me;
    while (len < max_len) {
        u32* rec = out + 3 + (u64)len * STATE_WORDS;
        for (int w = 0; w < STATE_WORDS; w++) rec[w] = states[(u64)at * STATE_WORDS + w];
        len++;
        next_gpu = gpus > 1 ? parent_gpus[at] : me;
        at = parent[at];
        if (at == NO_NODE || next_gpu != me) break;
    }
    out[0] = len;
    out[1] = at;
    out[2] = next_gpu;
}

// The owner of each of `count` packed states, for checking the device
// partition against the CPU one.
extern "C" __global__ void ga_owners(const u32* states, u32 count, u32 parts, const u64* partition, u32* owners)
{
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    owners[i] = partition_owner(states + (u64)i * STATE_WORDS, parts, partition);
}
