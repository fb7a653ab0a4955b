// IDA* on the GPU: the generic engine, pasted after a domain plugin with
// the same contract as kernels/gastar.cu (STATE_WORDS, MAX_SUCC, is_goal,
// expand, heuristic); no per-domain kernel.
//
// The host splits the start into many subtree roots. One iteration
// searches every root depth first under one f-bound: each thread takes a
// root from a shared counter and walks its subtree with an explicit stack.
// A child equal to its grandparent is not generated (Korf's pruning of
// undone moves, from state equality alone).
//
// Children are made one at a time from the frame's state (a frame is a
// state, its heuristic detail, g and the next child to try), so a child
// cut by the bound costs no stack traffic, and a frame is written only
// when the search goes down into it.
//
// When the roots run out, threads that finish their subtree would idle
// while a few others hold the biggest subtrees to the end of the
// iteration. So idle threads say they are hungry, and busy ones donate:
// the shallowest frame of theirs with children left (the biggest subtree
// they hold) goes, with the states above it, into a queue in device
// memory, and the donor skips those children. The receiver copies the
// states above into its own stack (the path to a goal still starts at
// the root) and searches on from the donated frame.
//
// The stack lives in device memory, frame by frame, so a launch can end at
// any step and the next launch goes on where it stopped: the host keeps
// every launch to a time slice, checks its limits and reports progress
// between launches, however long one iteration takes.

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

// A plugin should also make its i-th child directly (#define PLUGIN_NTH_CHILD):
//   __device__ bool nth_child(const u32* s, const u32* hw, int i, u32* child,
//                             u32* cost, const unsigned char* tables);
// child i (0 <= i < MAX_SUCC) of state s, whose heuristic detail is hw;
// false where move i does not apply. Without it, child i comes from
// expand: right, but every child then costs a whole expansion.
#ifndef PLUGIN_NTH_CHILD
__device__ bool nth_child(const u32* s, const u32* hw, int i, u32* child, u32* cost,
                          const unsigned char* tables) {
    u32 kids[MAX_SUCC * STATE_WORDS];
    u32 costs[MAX_SUCC];
    int n = expand(s, kids, costs, tables);
    if (i >= n) return false;
    for (int w = 0; w < STATE_WORDS; w++) child[w] = kids[i * STATE_WORDS + w];
    *cost = costs[i];
    return true;
}
#endif

#define NO_ROOT 0xFFFFFFFFu
#define NOT_FOUND 0xFFFFFFFFFFFFFFFFull
#define HAS_PARENT 0x80000000u

// A frame: the state, its heuristic detail, g, with move pruning the
// automaton's state, and the next child to try (kept in a register for the
// deepest frame, written when the search goes below it or the launch ends).
//
// Move pruning (the host defines MOVE_PRUNING and PRUNED_OP): the host
// compiled the op sequences to leave out into an automaton, whose state
// after child i of a frame in state a is automaton[a * auto_ops + i]
// (PRUNED_OP: that child is not searched). Child i is the op the host
// numbers i; the host checks that on the plugin before it searches.
#define F_STATE 0
#define F_HW STATE_WORDS
#define F_G (STATE_WORDS + H_WORDS)
#ifdef MOVE_PRUNING
#define F_AUTO (F_G + 1)
#define F_NEXT (F_AUTO + 1)
#else
#define F_NEXT (F_G + 1)
#endif
#define FRAME_WORDS (F_NEXT + 1)

// A donated subtree: its root's index, the donated frame's depth and the
// frame itself (next = the first child given away), then the states
// above it, root first.
#define Q_ROOT 0
#define Q_DEPTH 1
#define Q_FRAME 2
#define Q_PREFIX (Q_FRAME + FRAME_WORDS)
#define ITEM_WORDS (Q_PREFIX + IDA_MAX_DEPTH * STATE_WORDS)

// Control words shared with the host (u64 each).
#define IC_NEXT_ROOT 0   // the next root to take
#define IC_MIN_F 1       // the smallest f above the bound seen
#define IC_EXPANDED 2
#define IC_GENERATED 3
#define IC_FOUND 4       // the goal's root << 32 | states on its path, or NOT_FOUND
#define IC_OVERFLOW 5    // 1: a path deeper than the stack
#define IC_BUSY 6        // threads inside a subtree
#define IC_HUNGRY 7      // threads waiting for a donation
#define IC_HEAD 8        // the donation queue's next item to take
#define IC_TAIL 9        // and its next free position
#define IC_DONATED 10    // donations made
#define IC_WORDS 12

__device__ __forceinline__ u64 now_ns() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ u64 volatile_read(const u64* p) { return *(const volatile u64*)p; }

// Frame `depth` of thread t. A thread's frames lie together: threads of a
// warp sit at different depths, so interleaving threads word by word
// (coalesced only at equal depths) measured 13% slower on an H100.
__device__ __forceinline__ u32* frame(u32* stack, u32 t, u32 depth) {
    return stack + ((u64)t * IDA_MAX_DEPTH + depth) * FRAME_WORDS;
}

__device__ __forceinline__ void load_frame(const u32* f, u32* s, u32* hw, u32& g, u32& next,
                                           u32& a) {
#pragma unroll
    for (int w = 0; w < STATE_WORDS; w++) s[w] = f[F_STATE + w];
#pragma unroll
    for (int w = 0; w < H_WORDS; w++) hw[w] = f[F_HW + w];
    g = f[F_G];
    next = f[F_NEXT];
#ifdef MOVE_PRUNING
    a = f[F_AUTO];
#endif
}

__device__ __forceinline__ void store_frame(u32* f, const u32* s, const u32* hw, u32 g, u32 a) {
#pragma unroll
    for (int w = 0; w < STATE_WORDS; w++) f[F_STATE + w] = s[w];
#pragma unroll
    for (int w = 0; w < H_WORDS; w++) f[F_HW + w] = hw[w];
    f[F_G] = g;
#ifdef MOVE_PRUNING
    f[F_AUTO] = a;
#endif
}

// Loads into ps the parent of the state in frame `depth` (the frame above,
// or the root's parent); false where there is none.
__device__ __forceinline__ bool load_parent(u32* ps, u32* stack, u32 t, u32 depth, u32 root,
                                            const u32* root_parents, const u32* root_g) {
    if (depth > 0) {
        const u32* f = frame(stack, t, depth - 1);
#pragma unroll
        for (int w = 0; w < STATE_WORDS; w++) ps[w] = f[F_STATE + w];
        return true;
    }
#pragma unroll
    for (int w = 0; w < STATE_WORDS; w++) ps[w] = root_parents[(u64)root * STATE_WORDS + w];
    return (root_g[root] & HAS_PARENT) != 0;
}

// The winner of the goal race writes the states from the root to the goal.
__device__ void record_goal(u64* ctrl, u32* path, u32* stack, u32 t, u32 depth, u32 root,
                            const u32* goal, bool goal_on_stack) {
    u32 states = depth + 1 + (goal_on_stack ? 0 : 1);
    u64 mine = ((u64)root << 32) | states;
    if (atomicCAS((unsigned long long*)&ctrl[IC_FOUND], NOT_FOUND, mine) != NOT_FOUND) return;
    for (u32 d = 0; d <= depth; d++)
        for (int w = 0; w < STATE_WORDS; w++) path[d * STATE_WORDS + w] = frame(stack, t, d)[F_STATE + w];
    if (!goal_on_stack)
        for (int w = 0; w < STATE_WORDS; w++) path[(depth + 1) * STATE_WORDS + w] = goal[w];
    __threadfence();
}

// The donation queue is a bounded ring (Vyukov's): slot q's sequence word
// says whether position p is free to write (seq == p) or written
// (seq == p + 1). Claims are made per warp, not per thread: one lane
// claims a run of positions for all the lanes of its warp that give (or
// take), after checking that every slot of the run is ready, with one
// compare-and-swap on the tail (or head). So nobody waits on a slot, and
// contention is per warp: with a claim per thread, tens of thousands of
// threads raced for one word, nearly all failed, and the tail of an
// iteration starved (60 k donations a launch while 100 k threads waited,
// on an H100).

// Claims up to `want` consecutive positions from the word at `end`, whose
// slots' sequence words equal position + `ready`; the number claimed,
// from position `pos`.
__device__ u32 claim_run(u64* end, const u32* seq, u32 n_slots, u32 want, u32 ready, u32& pos) {
    for (int attempt = 0; attempt < 4; attempt++) {
        pos = (u32)volatile_read(end);
        u32 run = 0;
        while (run < want && *(const volatile u32*)&seq[(pos + run) % n_slots] == pos + run + ready)
            run++;
        if (run == 0) return 0;
        if (atomicCAS((unsigned long long*)end, (u64)pos, (u64)pos + run) == (u64)pos) return run;
    }
    return 0;
}

// The shallowest frame in [low, depth) with children left, or depth.
__device__ __forceinline__ u32 open_frame(u32* stack, u32 t, u32 low, u32 depth) {
    u32 j = low;
    while (j < depth && frame(stack, t, j)[F_NEXT] >= MAX_SUCC) j++;
    return j;
}

// Writes frame j (from its next child on) and the states above it to
// position pos, and gives those children away.
__device__ void give(u32* seq, u32* items, u32 n_slots, u32* stack, u32 t, u32 j, u32 root,
                     u32 pos) {
    u32 q = pos % n_slots;
    u32* item = items + (u64)q * ITEM_WORDS;
    const u32* f = frame(stack, t, j);
    item[Q_ROOT] = root;
    item[Q_DEPTH] = j;
    for (int w = 0; w < FRAME_WORDS; w++) item[Q_FRAME + w] = f[w];
    for (u32 d = 0; d < j; d++)
        for (int w = 0; w < STATE_WORDS; w++)
            item[Q_PREFIX + d * STATE_WORDS + w] = frame(stack, t, d)[F_STATE + w];
    frame(stack, t, j)[F_NEXT] = MAX_SUCC;
    __threadfence();
    *(volatile u32*)&seq[q] = pos + 1;
}

// Copies the item at position pos into thread t's stack; its depth.
__device__ u32 receive(u32* seq, u32* items, u32 n_slots, u32* stack, u32 t, u32 pos, u32& root) {
    u32 q = pos % n_slots;
    __threadfence();
    // Read through L2 (__ldcg): the donor wrote the item from another
    // multiprocessor, past this one's L1; unlike volatile reads, these may
    // all be in flight at once.
    const u32* item = items + (u64)q * ITEM_WORDS;
    u32 j = __ldcg(&item[Q_DEPTH]);
    root = __ldcg(&item[Q_ROOT]);
    u32* f = frame(stack, t, j);
#pragma unroll
    for (int w = 0; w < FRAME_WORDS; w++) f[w] = __ldcg(&item[Q_FRAME + w]);
    for (u32 d = 0; d < j; d++) {
        u32* to = frame(stack, t, d);
#pragma unroll
        for (int w = 0; w < STATE_WORDS; w++) to[F_STATE + w] = __ldcg(&item[Q_PREFIX + d * STATE_WORDS + w]);
    }
    __threadfence();
    *(volatile u32*)&seq[q] = pos + n_slots;
    return j;
}

#define FULL_WARP 0xFFFFFFFFu

// One thread per depth-first search. The loop is warp-synchronous: every
// lane takes one step (start a subtree, go up a frame, or make one child
// and maybe go down into it) and the lanes meet again at the top. Left to
// themselves, the lanes of a warp split at the first divergent step and
// never meet again, and a warp ran with 2.5 of its 32 lanes on an H100.
extern "C" __global__ void __launch_bounds__(128, 8) ida_search(
    const u32* roots, const u32* root_parents, const u32* root_g, u32 n_roots, u32 bound,
    u32* stack, u32 threads, u32 max_depth, u32* thread_root, u32* thread_depth,
    u32* thread_base, u32* seq, u32* items, u32 n_slots, u64* ctrl, u32* path, u64 budget_ns,
    const unsigned char* tables, const u32* automaton, u32 auto_ops, const u32* root_auto) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    // `threads` is a multiple of 32: whole warps leave here.
    if (t >= threads) return;
    u64 deadline = now_ns() + budget_ns;
    unsigned long long* busy_count = (unsigned long long*)&ctrl[IC_BUSY];
    unsigned long long* hungry_count = (unsigned long long*)&ctrl[IC_HUNGRY];
    u32 s[STATE_WORDS], ps[STATE_WORDS], hw[H_WORDS];
    u32 root = thread_root[t];
    u32 depth = 0, base = 0, next = 0, g = 0, a = 0;
    bool has_ps = false;
    if (root != NO_ROOT) {
        depth = thread_depth[t];
        base = thread_base[t];
        load_frame(frame(stack, t, depth), s, hw, g, next, a);
        has_ps = load_parent(ps, stack, t, depth, root, root_parents, root_g);
    }
    // Frames below `low` have no children left to give away.
    u32 low = base;
    bool hungry = false;
    // This lane has nothing left to do in this launch (the iteration is
    // over, or it found the goal or overflowed).
    bool done = false;
    u64 expanded = 0, generated = 0;
    u32 min_f = 0xFFFFFFFFu;
    u32 steps = 0;
    while (true) {
        if ((++steps & 31) == 0) {
            bool stop = volatile_read(&ctrl[IC_FOUND]) != NOT_FOUND ||
                        volatile_read(&ctrl[IC_OVERFLOW]) != 0 || now_ns() > deadline;
            if (__any_sync(FULL_WARP, stop)) break;
            // Donations, once a warp: lanes with a subtree give their
            // shallowest open frame while threads wait for work...
            u32 lane = threadIdx.x & 31, below = (1u << lane) - 1;
            u64 waiting = volatile_read(&ctrl[IC_HUNGRY]);
            u64 queued = volatile_read(&ctrl[IC_TAIL]) - volatile_read(&ctrl[IC_HEAD]);
            u32 j = depth;
            if (root != NO_ROOT && !done && low < depth && waiting > queued)
                j = open_frame(stack, t, low, depth);
            u32 givers = __ballot_sync(FULL_WARP, j < depth);
            if (givers) {
                u32 leader = __ffs(givers) - 1, pos = 0, run = 0;
                if (lane == leader) {
                    u64 want = min((u64)__popc(givers), waiting - queued);
                    run = claim_run(&ctrl[IC_TAIL], seq, n_slots, (u32)want, 0, pos);
                    if (run) atomicAdd((unsigned long long*)&ctrl[IC_DONATED], (u64)run);
                }
                pos = __shfl_sync(FULL_WARP, pos, leader);
                run = __shfl_sync(FULL_WARP, run, leader);
                u32 rank = __popc(givers & below);
                if (j < depth && rank < run) {
                    give(seq, items, n_slots, stack, t, j, root, pos + rank);
                    low = j + 1;
                } else if (j < depth) {
                    low = j;
                }
            }
            // ... and lanes without one take donations.
            bool wants = root == NO_ROOT && !done && hungry;
            u32 takers = __ballot_sync(FULL_WARP, wants);
            if (takers && queued != 0) {
                u32 leader = __ffs(takers) - 1, pos = 0, run = 0;
                if (lane == leader) {
                    // Busy before the claim: the iteration ends when
                    // nothing is busy and nothing is queued.
                    u32 k = __popc(takers);
                    atomicAdd(busy_count, (u64)k);
                    run = claim_run(&ctrl[IC_HEAD], seq, n_slots, k, 1, pos);
                    if (run < k) atomicAdd(busy_count, (u64)0 - (k - run));
                }
                pos = __shfl_sync(FULL_WARP, pos, leader);
                run = __shfl_sync(FULL_WARP, run, leader);
                u32 rank = __popc(takers & below);
                if (wants && rank < run) {
                    u32 r;
                    u32 d = receive(seq, items, n_slots, stack, t, pos + rank, r);
                    hungry = false;
                    atomicAdd(hungry_count, ~0ull);
                    root = r;
                    depth = base = low = d;
                    load_frame(frame(stack, t, d), s, hw, g, next, a);
                    has_ps = load_parent(ps, stack, t, d, root, root_parents, root_g);
                }
            }
        }
        if (__all_sync(FULL_WARP, done)) break;
        // A warp with no subtree among its lanes, once the roots are gone,
        // waits between polls of the queue instead of spinning.
        if (__all_sync(FULL_WARP, done || root == NO_ROOT) &&
            volatile_read(&ctrl[IC_NEXT_ROOT]) >= n_roots)
            __nanosleep(500);
        if (done) continue;
        if (root == NO_ROOT) {
            if (volatile_read(&ctrl[IC_NEXT_ROOT]) < n_roots) {
                u32 r = (u32)atomicAdd((unsigned long long*)&ctrl[IC_NEXT_ROOT], 1ull);
                if (r >= n_roots) continue;
#ifdef MOVE_PRUNING
                // The path from the start to this root holds a sequence
                // move pruning leaves out: its subtree is not searched.
                if (root_auto[r] == PRUNED_OP) continue;
#endif
#pragma unroll
                for (int w = 0; w < STATE_WORDS; w++) s[w] = roots[(u64)r * STATE_WORDS + w];
                g = root_g[r] & ~HAS_PARENT;
                u32 f = g + h_init(s, hw, tables);
                if (f > bound) {
                    min_f = min(min_f, f);
                    continue;
                }
                root = r;
                depth = base = low = next = 0;
#ifdef MOVE_PRUNING
                a = root_auto[r];
#endif
                store_frame(frame(stack, t, 0), s, hw, g, a);
                has_ps = load_parent(ps, stack, t, 0, root, root_parents, root_g);
                atomicAdd(busy_count, 1ull);
                if (is_goal(s, tables)) {
                    record_goal(ctrl, path, stack, t, 0, root, s, true);
                    done = true;
                    continue;
                }
                expanded++;
                continue;
            }
            if (!hungry) {
                hungry = true;
                atomicAdd(hungry_count, 1ull);
            }
            // The iteration is over when nothing is busy and nothing is
            // queued (checked every 16th step: the lanes of this warp
            // with a subtree wait for these loads).
            if ((steps & 15) == 0 && volatile_read(&ctrl[IC_BUSY]) == 0 &&
                volatile_read(&ctrl[IC_TAIL]) == volatile_read(&ctrl[IC_HEAD]))
                done = true;
            continue;
        }
        if (next >= MAX_SUCC) {
            if (depth == base) {
                root = NO_ROOT;
                __threadfence();  // a donation of ours is queued before we stop being busy
                atomicAdd(busy_count, ~0ull);
                continue;
            }
            depth--;
            load_frame(frame(stack, t, depth), s, hw, g, next, a);
            has_ps = load_parent(ps, stack, t, depth, root, root_parents, root_g);
            if (low > depth) low = depth;
            continue;
        }
        // The next child that applies and does not undo the last move.
        u32 child[STATE_WORDS], cost, child_a = 0;
        bool made = false;
        while (next < MAX_SUCC && !made) {
            int i = (int)next++;
#ifdef MOVE_PRUNING
            child_a = (u32)i < auto_ops ? automaton[(u64)a * auto_ops + i] : PRUNED_OP;
            if (child_a == PRUNED_OP) continue;
#endif
            made = nth_child(s, hw, i, child, &cost, tables);
            if (made && has_ps) {
                bool same = true;
#pragma unroll
                for (int w = 0; w < STATE_WORDS; w++) same &= child[w] == ps[w];
                made = !same;
            }
        }
        if (!made) continue;
        generated++;
        u32 chw[H_WORDS];
        u32 cg = g + cost;
        u32 f = cg + h_child(hw, child, chw, tables);
        if (f > bound) {
            min_f = min(min_f, f);
            continue;
        }
        if (is_goal(child, tables)) {
            record_goal(ctrl, path, stack, t, depth, root, child, false);
            done = true;
            continue;
        }
        if (depth + 1 >= max_depth) {
            atomicOr((unsigned long long*)&ctrl[IC_OVERFLOW], 1ull);
            done = true;
            continue;
        }
        frame(stack, t, depth)[F_NEXT] = next;
        depth++;
#pragma unroll
        for (int w = 0; w < STATE_WORDS; w++) {
            ps[w] = s[w];
            s[w] = child[w];
        }
#pragma unroll
        for (int w = 0; w < H_WORDS; w++) hw[w] = chw[w];
        g = cg;
        next = 0;
        a = child_a;
        has_ps = true;
        store_frame(frame(stack, t, depth), s, hw, g, a);
        expanded++;
    }
    if (root != NO_ROOT) frame(stack, t, depth)[F_NEXT] = next;
    thread_root[t] = root;
    thread_depth[t] = depth;
    thread_base[t] = base;
    if (hungry) atomicAdd(hungry_count, ~0ull);
    atomicAdd((unsigned long long*)&ctrl[IC_EXPANDED], (unsigned long long)expanded);
    atomicAdd((unsigned long long*)&ctrl[IC_GENERATED], (unsigned long long)generated);
    if (min_f != 0xFFFFFFFFu) atomicMin((unsigned long long*)&ctrl[IC_MIN_F], (unsigned long long)min_f);
}

// Tells the host the frame and donation sizes the plugin's constants make,
// and the children a state has at most.
extern "C" __global__ void ida_sizes(u32* out) {
    out[0] = FRAME_WORDS;
    out[1] = ITEM_WORDS;
    out[2] = MAX_SUCC;
}

// Child i of each of n states, for the host to check the plugin's child
// numbering against its own op numbers before move pruning relies on it:
// made[k * MAX_SUCC + i] says whether child i of state k applies, and
// children holds it.
extern "C" __global__ void ida_children(const u32* states, u32 n, u32* children, u32* made,
                                        const unsigned char* tables) {
    u32 k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    u32 s[STATE_WORDS], hw[H_WORDS];
    for (int w = 0; w < STATE_WORDS; w++) s[w] = states[(u64)k * STATE_WORDS + w];
    h_init(s, hw, tables);
    for (int i = 0; i < MAX_SUCC; i++) {
        u32 child[STATE_WORDS], cost;
        bool m = nth_child(s, hw, i, child, &cost, tables);
        made[(u64)k * MAX_SUCC + i] = m ? 1u : 0u;
        for (int w = 0; w < STATE_WORDS; w++)
            children[((u64)k * MAX_SUCC + i) * STATE_WORDS + w] = m ? child[w] : 0u;
    }
}
