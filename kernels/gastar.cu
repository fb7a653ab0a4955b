// GA* (Zhou & Zeng, AAAI 2015): the generic engine. A domain plugin, pasted
// above this file by the host, defines
//   STATE_WORDS, MAX_SUCC
//   __device__ bool     is_goal(const u32* s, const unsigned char* tables);
//   __device__ int      expand(const u32* s, u32* out, u32* cost, u32* move,
//                              const unsigned char* tables);   // <= MAX_SUCC children
//   __device__ u32      heuristic(const u32* s, const unsigned char* tables);
//   __device__ u64      state_hash(const u32* s);
//
// One thread owns one binary heap. An iteration is three launches:
//   ga_expand: every heap pops its best node (if its f is below the incumbent),
//              records a goal in the incumbent or writes its children to slots;
//   ga_dedup:  every child is checked against a hash table with replacement
//              (slots hold node + 1, so a zeroed table is empty)
//              (a duplicate may be missed, never a better path dropped), then
//              allocated in the node arena;
//   ga_push:   heap t gathers child j of heap (t - (j+1)*stride - rotate) and
//              pushes it, so children land on heaps other than their parent's
//              without locks; then reports its min f.
// The host stops when no heap's min f is below the incumbent's cost.
//
// Heap keys are f << 48 | (0xFFFF - g) << 32 | node: smallest f first, then
// largest g, as on the CPU.

#define NO_NODE 0xFFFFFFFFu

// Control words shared with the host.
#define CTRL_INCUMBENT 0   // cost << 32 | goal node, or all ones
#define CTRL_MIN_F 1       // min f over heaps after the last push
#define CTRL_OVERFLOW 2    // non-zero when a heap or the arena ran out
#define CTRL_NODES 3       // nodes allocated
#define CTRL_EXPANDED 4    // nodes expanded

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

extern "C" __global__ void __launch_bounds__(256) ga_expand(
    u64* heaps, u32* heap_size, u32 heap_count, u32 heap_cap,
    const u32* states, const u32* g,
    u32* child_states, u32* child_g, u32* child_h, u32* child_parent, u32* child_move, u32* child_node,
    u64* ctrl, const unsigned char* tables)
{
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) ctrl[CTRL_MIN_F] = 0xFFFFFFFFull;
    if (t >= heap_count) return;
    for (int j = 0; j < MAX_SUCC; j++) child_node[t * MAX_SUCC + j] = 0;
    u32 size = heap_size[t];
    if (size == 0) return;
    u64* heap = heaps + (u64)t * heap_cap;
    u64 incumbent = ctrl[CTRL_INCUMBENT] >> 32;
    if ((heap[0] >> 48) >= incumbent) return;
    u64 key = heap_pop(heap, &size);
    heap_size[t] = size;
    u32 node = (u32)(key & 0xFFFFFFFFu);
    const u32* s = states + (u64)node * STATE_WORDS;
    u32 gn = g[node];
    if (is_goal(s, tables)) {
        atomicMin(&ctrl[CTRL_INCUMBENT], ((u64)gn << 32) | node);
        return;
    }
    atomicAdd(&ctrl[CTRL_EXPANDED], 1ull);
    u32 out[MAX_SUCC * STATE_WORDS];
    u32 cost[MAX_SUCC];
    u32 move[MAX_SUCC];
    int n = expand(s, out, cost, move, tables);
    for (int j = 0; j < n; j++) {
        u32 slot = t * MAX_SUCC + j;
        u32* cs = out + j * STATE_WORDS;
        u32 h = heuristic(cs, tables);
        u32 gc = gn + cost[j];
        if ((u64)gc + h >= incumbent) continue;
        for (int w = 0; w < STATE_WORDS; w++) child_states[(u64)slot * STATE_WORDS + w] = cs[w];
        child_g[slot] = gc;
        child_h[slot] = h;
        child_parent[slot] = node;
        child_move[slot] = move[j];
        child_node[slot] = 1;  // pending; ga_dedup turns it into node + 1 or 0
    }
}

extern "C" __global__ void __launch_bounds__(256) ga_dedup(
    u32 slots, u32* table, u32 table_mask,
    u32* states, u32* g, u32* parent, u32* moves, u32 node_cap,
    const u32* child_states, const u32* child_g, const u32* child_parent, const u32* child_move, u32* child_node,
    u64* ctrl)
{
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= slots || child_node[i] == 0) return;
    const u32* cs = child_states + (u64)i * STATE_WORDS;
    u32 slot = (u32)(state_hash(cs) & table_mask);
    u32 known = table[slot];  // node + 1; 0 is empty
    if (known != 0) {
        known -= 1;
        bool same = true;
        for (int w = 0; w < STATE_WORDS; w++) same = same && states[(u64)known * STATE_WORDS + w] == cs[w];
        if (same && g[known] <= child_g[i]) {
            child_node[i] = 0;
            return;
        }
    }
    u32 node = (u32)atomicAdd(&ctrl[CTRL_NODES], 1ull);
    if (node >= node_cap) {
        atomicOr(&ctrl[CTRL_OVERFLOW], 2ull);
        child_node[i] = 0;
        return;
    }
    for (int w = 0; w < STATE_WORDS; w++) states[(u64)node * STATE_WORDS + w] = cs[w];
    g[node] = child_g[i];
    parent[node] = child_parent[i];
    moves[node] = child_move[i];
    table[slot] = node + 1;
    child_node[i] = node + 1;
}

extern "C" __global__ void __launch_bounds__(256) ga_push(
    u64* heaps, u32* heap_size, u32 heap_count, u32 heap_cap,
    const u32* child_g, const u32* child_h, const u32* child_node,
    u32 stride, u32 rotate, u64* ctrl)
{
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= heap_count) return;
    u64* heap = heaps + (u64)t * heap_cap;
    u32 size = heap_size[t];
    for (u32 j = 0; j < MAX_SUCC; j++) {
        u32 shift = (u32)(((u64)(j + 1) * stride + rotate) % heap_count);
        u32 from = (t + heap_count - shift) % heap_count;
        u32 slot = from * MAX_SUCC + j;
        u32 v = child_node[slot];
        if (v == 0) continue;
        u32 gc = child_g[slot];
        u64 f = (u64)gc + child_h[slot];
        u64 key = (f << 48) | ((u64)(0xFFFFu - (gc & 0xFFFFu)) << 32) | (u64)(v - 1);
        heap_push(heap, &size, heap_cap, key, ctrl);
    }
    heap_size[t] = size;
    if (size > 0) atomicMin(&ctrl[CTRL_MIN_F], heap[0] >> 48);
}

// Walks parent links from the goal; writes the path length, then for each
// step (goal first) the move and the state words.
extern "C" __global__ void ga_trace(u32 goal, const u32* parent, const u32* moves, const u32* states, u32* out, u32 max_len)
{
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    u32 len = 0;
    u32 at = goal;
    while (at != NO_NODE && len < max_len) {
        u32* rec = out + 1 + (u64)len * (1 + STATE_WORDS);
        rec[0] = moves[at];
        for (int w = 0; w < STATE_WORDS; w++) rec[1 + w] = states[(u64)at * STATE_WORDS + w];
        len++;
        at = parent[at];
    }
    out[0] = len;
}
