// IDA* on the GPU: the generic engine, pasted after a domain plugin with
// the same contract as kernels/gastar.cu (STATE_WORDS, MAX_SUCC, is_goal,
// expand, heuristic); no per-domain kernel.
//
// The host splits the start into many subtree roots. One iteration
// searches every root depth first under one f-bound: each thread takes a
// root from a shared counter, walks its subtree with an explicit stack and
// takes the next root when done, so subtrees of very different sizes
// balance out. A child equal to its grandparent is not generated (Korf's
// pruning of undone moves, from state equality alone).
//
// The stack lives in device memory, frame by frame, so a launch can end at
// any step and the next launch goes on where it stopped: the host keeps every launch to a time slice, checks
// its limits and reports progress between launches, however long one
// iteration takes.

// A plugin may keep per-state detail that makes a child's heuristic
// cheaper than a fresh one (with #define PLUGIN_H_CHILD):
//   H_WORDS
//   __device__ u32 h_init(const u32* s, u32* hw, const unsigned char* tables);
//   __device__ u32 h_child(const u32* parent_hw, const u32* child, u32* hw,
//                          const unsigned char* tables);
// Tiles keeps tile cells and per-database values: one lookup a child.
#ifndef PLUGIN_H_CHILD
#define H_WORDS 1
__device__ __forceinline__ u32 h_init(const u32* s, u32* hw, const unsigned char* tables) {
    return hw[0] = heuristic(s, tables);
}
__device__ __forceinline__ u32 h_child(const u32* phw, const u32* child, u32* hw,
                                       const unsigned char* tables) {
    return hw[0] = heuristic(child, tables);
}
#endif

#define NO_ROOT 0xFFFFFFFFu
#define NOT_FOUND 0xFFFFFFFFFFFFFFFFull
#define HAS_PARENT 0x80000000u

// A frame: the state, its children (already without the grandparent),
// their edge costs, then g, the number of children, the next one and the
// state's heuristic detail.
#define F_STATE 0
#define F_KIDS STATE_WORDS
#define F_COST (STATE_WORDS * (MAX_SUCC + 1))
#define F_G (F_COST + MAX_SUCC)
#define F_N (F_G + 1)
#define F_NEXT (F_G + 2)
#define F_HW (F_G + 3)
#define FRAME_WORDS (F_HW + H_WORDS)

// Control words shared with the host (u64 each).
#define IC_NEXT_ROOT 0   // the next root to take
#define IC_MIN_F 1       // the smallest f above the bound seen
#define IC_EXPANDED 2
#define IC_GENERATED 3
#define IC_FOUND 4       // the goal's root << 32 | states on its path, or NOT_FOUND
#define IC_OVERFLOW 5    // 1: a path deeper than the stack
#define IC_ACTIVE 6      // threads still inside a subtree when the launch ended
#define IC_WORDS 8

__device__ __forceinline__ u64 now_ns() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Word w of frame `depth` of thread t. A thread's frames lie together:
// threads of a warp sit at different depths, so interleaving threads word
// by word (coalesced only at equal depths) measured 13% slower on an H100.
__device__ __forceinline__ u32* word(u32* stack, u32 threads, u32 t, u32 depth, u32 w) {
    return &stack[((u64)t * IDA_MAX_DEPTH + depth) * FRAME_WORDS + w];
}

// Expands the state in frame `depth` into its children, leaving out
// `parent` (unless `has_parent` is false).
__device__ void push_children(u32* stack, u32 threads, u32 t, u32 depth, const u32* s,
                              const u32* parent, bool has_parent,
                              const unsigned char* tables) {
    u32 kids[MAX_SUCC * STATE_WORDS];
    u32 cost[MAX_SUCC];
    int n = expand(s, kids, cost, tables);
    u32 kept = 0;
    for (int i = 0; i < n; i++) {
        const u32* k = kids + i * STATE_WORDS;
        if (has_parent) {
            bool same = true;
            for (int w = 0; w < STATE_WORDS; w++) same &= k[w] == parent[w];
            if (same) continue;
        }
        for (int w = 0; w < STATE_WORDS; w++)
            *word(stack, threads, t, depth, F_KIDS + kept * STATE_WORDS + w) = k[w];
        *word(stack, threads, t, depth, F_COST + kept) = cost[i];
        kept++;
    }
    *word(stack, threads, t, depth, F_N) = kept;
    *word(stack, threads, t, depth, F_NEXT) = 0;
}

// The winner of the goal race writes the states from the root to the goal.
__device__ void record_goal(u64* ctrl, u32* path, u32* stack, u32 threads, u32 t, u32 depth,
                            u32 root, const u32* goal, bool goal_on_stack) {
    u32 states = depth + 1 + (goal_on_stack ? 0 : 1);
    u64 mine = ((u64)root << 32) | states;
    if (atomicCAS((unsigned long long*)&ctrl[IC_FOUND], NOT_FOUND, mine) != NOT_FOUND) return;
    for (u32 d = 0; d <= depth; d++)
        for (int w = 0; w < STATE_WORDS; w++)
            path[d * STATE_WORDS + w] = *word(stack, threads, t, d, F_STATE + w);
    if (!goal_on_stack)
        for (int w = 0; w < STATE_WORDS; w++) path[(depth + 1) * STATE_WORDS + w] = goal[w];
    __threadfence();
}

extern "C" __global__ void ida_search(
    const u32* roots, const u32* root_parents, const u32* root_g, u32 n_roots, u32 bound,
    u32* stack, u32 threads, u32 max_depth, u32* thread_root, u32* thread_depth,
    u64* ctrl, u32* path, u64 budget_ns, const unsigned char* tables) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    u64 deadline = now_ns() + budget_ns;
    u32 root = thread_root[t];
    u32 depth = thread_depth[t];
    u64 expanded = 0, generated = 0;
    u32 min_f = 0xFFFFFFFFu;
    u32 steps = 0;
    u32 s[STATE_WORDS];
    u32 parent[STATE_WORDS];
    u32 hw[H_WORDS], phw[H_WORDS];
    while (true) {
        if ((++steps & 127) == 0) {
            if (*(volatile u64*)&ctrl[IC_FOUND] != NOT_FOUND) break;
            if (now_ns() > deadline) break;
        }
        if (root == NO_ROOT) {
            u32 r = (u32)atomicAdd((unsigned long long*)&ctrl[IC_NEXT_ROOT], 1ull);
            if (r >= n_roots) break;
            for (int w = 0; w < STATE_WORDS; w++) s[w] = roots[(u64)r * STATE_WORDS + w];
            u32 g = root_g[r] & ~HAS_PARENT;
            u32 f = g + h_init(s, hw, tables);
            if (f > bound) {
                min_f = min(min_f, f);
                continue;
            }
            for (int w = 0; w < STATE_WORDS; w++) *word(stack, threads, t, 0, F_STATE + w) = s[w];
            for (int w = 0; w < H_WORDS; w++) *word(stack, threads, t, 0, F_HW + w) = hw[w];
            *word(stack, threads, t, 0, F_G) = g;
            root = r;
            depth = 0;
            if (is_goal(s, tables)) {
                record_goal(ctrl, path, stack, threads, t, 0, root, s, true);
                break;
            }
            for (int w = 0; w < STATE_WORDS; w++)
                parent[w] = root_parents[(u64)r * STATE_WORDS + w];
            push_children(stack, threads, t, 0, s, parent, (root_g[r] & HAS_PARENT) != 0, tables);
            expanded++;
            continue;
        }
        u32 next = *word(stack, threads, t, depth, F_NEXT);
        if (next == *word(stack, threads, t, depth, F_N)) {
            if (depth == 0) root = NO_ROOT;
            else depth--;
            continue;
        }
        *word(stack, threads, t, depth, F_NEXT) = next + 1;
        for (int w = 0; w < STATE_WORDS; w++)
            s[w] = *word(stack, threads, t, depth, F_KIDS + next * STATE_WORDS + w);
        u32 g = *word(stack, threads, t, depth, F_G) + *word(stack, threads, t, depth, F_COST + next);
        generated++;
        for (int w = 0; w < H_WORDS; w++) phw[w] = *word(stack, threads, t, depth, F_HW + w);
        u32 f = g + h_child(phw, s, hw, tables);
        if (f > bound) {
            min_f = min(min_f, f);
            continue;
        }
        if (is_goal(s, tables)) {
            record_goal(ctrl, path, stack, threads, t, depth, root, s, false);
            break;
        }
        if (depth + 1 >= max_depth) {
            atomicOr((unsigned long long*)&ctrl[IC_OVERFLOW], 1ull);
            break;
        }
        for (int w = 0; w < STATE_WORDS; w++)
            parent[w] = *word(stack, threads, t, depth, F_STATE + w);
        depth++;
        for (int w = 0; w < STATE_WORDS; w++) *word(stack, threads, t, depth, F_STATE + w) = s[w];
        for (int w = 0; w < H_WORDS; w++) *word(stack, threads, t, depth, F_HW + w) = hw[w];
        *word(stack, threads, t, depth, F_G) = g;
        push_children(stack, threads, t, depth, s, parent, true, tables);
        expanded++;
    }
    thread_root[t] = root;
    thread_depth[t] = depth;
    atomicAdd((unsigned long long*)&ctrl[IC_EXPANDED], (unsigned long long)expanded);
    atomicAdd((unsigned long long*)&ctrl[IC_GENERATED], (unsigned long long)generated);
    if (min_f != 0xFFFFFFFFu) atomicMin((unsigned long long*)&ctrl[IC_MIN_F], (unsigned long long)min_f);
    if (root != NO_ROOT) atomicAdd((unsigned long long*)&ctrl[IC_ACTIVE], 1ull);
}

// Tells the host the frame size the plugin's constants make.
extern "C" __global__ void ida_frame_words(u32* out) { out[0] = FRAME_WORDS; }
