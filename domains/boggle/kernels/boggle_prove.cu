// Boggle proofs on the GPU: the bottom levels of the branch and bound over
// board classes, one warp per subclass handed over by the CPU.
//
// The CPU builds each class's orderly tree (domains/boggle/src/orderly.rs),
// walks its subclasses down to a split depth, and hands every subclass whose
// look-ahead bound is still at or above the target there over as an *item*:
// its class and the letters of the positions fixed so far. The CPU does not
// fix an item's last position (the warp does, below), so an item's own bound
// may be below the target. A warp rebuilds the item's state from the tree
// (the same steps as OrderlyBound::start and fix) and walks everything below
// it depth first, exactly as the CPU walk would: the same bounds, the same
// subclasses counted, the boards whose bound reaches the target written out
// for the CPU to score.
//
// Lanes split the work, not the search: the 26 letters of one position's
// sums are one lane each (a choice node's children are added by the lanes of
// their letters), the choice nodes waiting on the position being fixed are
// looked up 32 at a time, and lane p keeps what belongs to position p (its
// stack length, its mask) and what belongs to depth p (the walk's letters
// left, the points and the rest of the bound). Control flow is uniform
// across the warp.
//
// The host prepends: CELLS (at most 16), CAP (choice nodes one position's
// stack holds; an item that needs more is handed back to the CPU),
// WARPS (warps per block).
//
// Arena layout (u32 words, as orderly.rs writes it):
// - sum node: points << COUNT_BITS | count, then `count` choice nodes;
// - choice node: position << POSITION_SHIFT | letters, then per letter
//   `bound, offset` of its sum child (offset LEAF: a sum node without
//   choice nodes, not written; its bound is its points).

typedef unsigned int u32;
typedef unsigned long long u64;

#define LETTER_BITS ((1u << 26) - 1)
#define COUNT_BITS 5
#define POSITION_SHIFT 26
#define LEAF 0xFFFFFFFFu
#define FULL 0xFFFFFFFFu
// A row of sums: one position, 32 letters (26 used, the rest stay 0).
#define ROW (CELLS * 32)
// Per-warp global words: sums for depths 0..=CELLS, then the stacks.
#define SUM_WORDS ((CELLS + 1) * ROW)
#define WARP_WORDS (SUM_WORDS + CELLS * CAP)
// Words per item: class, then 16 letters, 4 per word.
#define ITEM_WORDS 5
// Words per board written: item, bound, 16 letters 4 per word.
#define BOARD_WORDS 6

// Sum nodes reached in one round of a fix from which each lane adds its own.
#define LANES_AT_ONCE 8
// Stack entries a lane reads in one round of a fix, their loads side by
// side (docs/RESULTS.md, "The GPU thread's steps, and two stack entries a
// lane").
#define ENTRIES 2

// Item status.
#define ITEM_DONE 1u
#define ITEM_STACK_FULL 2u
#define ITEM_BOARDS_FULL 3u

struct Warp {
    const u32* arena;   // this item's class's tree
    u32* sums;          // [depth][position][letter]
    u32* stacks;        // [position][CAP] choice node offsets
    u32* lengths;       // shared: [depth][lane] stack lengths saved
    u32* open;          // shared: [position] stack lengths while fixing
    u32 lane;
    // Lane p: the length of position p's stack.
    u32 cur;
    // Lane d: the points and the rest of the bound at depth d (the points
    // plus the best of every position after d).
    u32 points;
    u32 rest;
};

// Adds the choice nodes of sum node `sum` to the sums of `row`: each pushed
// on its position's stack (by that position's lane, its length in shared
// `open` while a fix or the start runs), its children's bounds added to the
// position's sums (each by its letter's lane).
__device__ __forceinline__ void advance(Warp& w, u32* row, u32 sum) {
    u32 count = w.arena[sum] & ((1u << COUNT_BITS) - 1);
    u32 at = sum + 1;
    for (u32 k = 0; k < count; k++) {
        u32 header = w.arena[at];
        u32 p = header >> POSITION_SHIFT;
        u32 letters = header & LETTER_BITS;
        if (w.lane == p) {
            u32 slot = w.open[p];
            if (slot < CAP) w.stacks[p * CAP + slot] = at;
            w.open[p] = slot + 1;
        }
        if (w.lane < 26 && ((letters >> w.lane) & 1u)) {
            u32 index = __popc(letters & ((1u << w.lane) - 1));
            row[p * 32 + w.lane] += w.arena[at + 1 + 2 * index];
        }
        at += 1 + 2 * __popc(letters);
    }
}

// Adds the choice nodes of sum node `sum` as `advance` does, by one lane
// alone, while the other lanes add theirs: a fix reaches about 46 sum nodes
// of 2.6 choice nodes and 3.5 letters each on 4x4 (dev-machine model of the
// walk), so one sum node at a time across the warp kept 3-4 lanes of 32
// busy for a chain of about 120 dependent steps. Stacks are pushed through
// shared counters and sums added atomically, so a stack's order depends on
// timing; bounds do not (sums commute, and a fix reads all of a stack).
__device__ __forceinline__ void advance_lane(Warp& w, u32* row, u32 sum) {
    u32 count = w.arena[sum] & ((1u << COUNT_BITS) - 1);
    u32 at = sum + 1;
    for (u32 k = 0; k < count; k++) {
        u32 header = w.arena[at];
        u32 p = header >> POSITION_SHIFT;
        u32 slot = atomicAdd(&w.open[p], 1u);
        if (slot < CAP) w.stacks[p * CAP + slot] = at;
        u32 child = at + 1;
        for (u32 letters = header & LETTER_BITS; letters != 0; letters &= letters - 1) {
            atomicAdd(&row[p * 32 + __ffs(letters) - 1], w.arena[child]);
            child += 2;
        }
        at = child;
    }
}

// Saves the state after fixing `depth` positions with `points` spelled;
// returns the bound (0xFFFFFFFF when a stack overflowed).
__device__ __forceinline__ u32 save(Warp& w, u32 depth, u32 points) {
    __syncwarp();
    if (w.lane < CELLS) w.lengths[depth * 32 + w.lane] = w.cur;
    bool overflow = __any_sync(FULL, w.lane < CELLS && w.cur > CAP);
    const u32* row = w.sums + depth * ROW;
    // The best letter of every position after `depth`: one row a step, its
    // 32 letters read by the 32 lanes at once (letters 26..31 stay 0), rather
    // than each lane reading its own position's row letter by letter.
    u32 best = 0;
    for (u32 p = depth + 1; p < CELLS; p++) best += __reduce_max_sync(FULL, row[p * 32 + w.lane]);
    u32 rest = points + best;
    u32 own = depth < CELLS ? row[depth * 32 + w.lane] : 0u;
    u32 bound = rest + __reduce_max_sync(FULL, own);
    if (w.lane == depth) {
        w.points = points;
        w.rest = rest;
    }
    return overflow ? 0xFFFFFFFFu : bound;
}

// OrderlyBound::start: nothing fixed.
__device__ __forceinline__ u32 start(Warp& w, u32 root) {
    for (u32 p = 0; p < CELLS; p++) w.sums[p * 32 + w.lane] = 0;
    if (w.lane < CELLS) w.open[w.lane] = 0;
    __syncwarp();
    u32 points = w.arena[root] >> COUNT_BITS;
    advance(w, w.sums, root);
    __syncwarp();
    w.cur = w.lane < CELLS ? w.open[w.lane] : 0u;
    return save(w, 0, points);
}

// OrderlyBound::fix: position depth - 1 takes `letter`.
__device__ __forceinline__ u32 fix(Warp& w, u32 depth, u32 letter) {
    __syncwarp();
    if (w.lane + 1 >= depth && w.lane < CELLS) w.cur = w.lengths[(depth - 1) * 32 + w.lane];
    u32 points = __shfl_sync(FULL, w.points, depth - 1);
    const u32* parent = w.sums + (depth - 1) * ROW;
    u32* row = w.sums + depth * ROW;
    for (u32 p = depth; p < CELLS; p++) row[p * 32 + w.lane] = parent[p * 32 + w.lane];
    u32 position = depth - 1;
    u32 n = __shfl_sync(FULL, w.cur, position);
    // The stacks' lengths go to shared memory while lanes push at once (the
    // sum nodes reached only push on positions after this one, so the stack
    // scanned does not move).
    if (w.lane < CELLS) w.open[w.lane] = w.cur;
    __syncwarp();
    const u32* stack = w.stacks + position * CAP;
    u32 bit = 1u << letter;
    u32 added = 0;
    // ENTRIES stack entries a lane at once, each load step for all of them
    // before the next: a fix reads about 62 entries (the dev-machine model),
    // and an entry, its choice node, its letter's bound and child, and the
    // child's points are dependent loads, so each round of 32 waited for
    // one chain of them; a round's chains now overlap.
    for (u32 base = 0; base < n; base += 32 * ENTRIES) {
        u32 reached[ENTRIES];
        u32 choice[ENTRIES];
#pragma unroll
        for (u32 k = 0; k < ENTRIES; k++) {
            u32 i = base + 32 * k + w.lane;
            choice[k] = i < n ? stack[i] : LEAF;
        }
        u32 letters[ENTRIES];
#pragma unroll
        for (u32 k = 0; k < ENTRIES; k++) {
            letters[k] = choice[k] != LEAF ? w.arena[choice[k]] & LETTER_BITS : 0u;
        }
        u32 bound[ENTRIES];
#pragma unroll
        for (u32 k = 0; k < ENTRIES; k++) {
            u32 at = choice[k] + 1 + 2 * __popc(letters[k] & (bit - 1));
            bool has = (letters[k] & bit) != 0;
            bound[k] = has ? w.arena[at] : 0u;
            reached[k] = has ? w.arena[at + 1] : LEAF;
        }
#pragma unroll
        for (u32 k = 0; k < ENTRIES; k++) {
            // A leaf's bound is its points; a sum node's points head it.
            added += reached[k] == LEAF ? bound[k] : w.arena[reached[k]] >> COUNT_BITS;
        }
        // With many sum nodes reached, every lane adds its own at once;
        // with few (near the root, where sum nodes are large), the warp adds
        // them one at a time, a lane a letter. On the dev-machine model of
        // 4x4 walks the switch at 8 takes 2.1 times fewer serial steps than
        // the warp alone, against 1.9 for the lanes alone (measured with one
        // entry a lane; the switch now counts both entries' sum nodes).
        // (The last round's atomics, seen before this round's plain adds.)
        __syncwarp();
        u32 pending[ENTRIES];
        u32 many = 0;
#pragma unroll
        for (u32 k = 0; k < ENTRIES; k++) {
            pending[k] = __ballot_sync(FULL, reached[k] != LEAF);
            many += __popc(pending[k]);
        }
        if (many >= LANES_AT_ONCE) {
#pragma unroll
            for (u32 k = 0; k < ENTRIES; k++) {
                if (reached[k] != LEAF) advance_lane(w, row, reached[k]);
            }
        } else {
#pragma unroll
            for (u32 k = 0; k < ENTRIES; k++) {
                while (pending[k]) {
                    u32 from = __ffs(pending[k]) - 1;
                    pending[k] &= pending[k] - 1;
                    advance(w, row, __shfl_sync(FULL, reached[k], from));
                }
            }
        }
    }
    __syncwarp();
    if (w.lane < CELLS) w.cur = w.open[w.lane];
    return save(w, depth, points + __reduce_add_sync(FULL, added));
}

// Walks every item: persistent warps take items from `next_item`.
extern "C" __global__ void prove_items(
    const u64* class_arena,      // per tree (a class's, or a forced one
                                 // in its class's arena): the arena's
                                 // device address
    const u32* class_root,       // per tree: its root sum node
    const u32* class_masks,      // per class: CELLS letter masks, split order
    const u32* items,            // ITEM_WORDS per item
    u32 item_count,
    u32 depth0,                  // positions an item has fixed
    u32 target,
    u32* next_item,
    u32* scratch,                // WARP_WORDS per warp
    u64* item_subclasses,        // per item: subclasses bounded below it
    u32* item_status,
    u32* boards,                 // BOARD_WORDS per board
    u32* board_count,
    u32 board_capacity)
{
    __shared__ u32 lengths_all[WARPS][(CELLS + 1) * 32];
    __shared__ u32 open_all[WARPS][32];
    u32 lane = threadIdx.x & 31;
    u32 warp_in_block = threadIdx.x >> 5;
    u64 warp = (u64)blockIdx.x * WARPS + warp_in_block;
    Warp w;
    w.sums = scratch + warp * WARP_WORDS;
    w.stacks = w.sums + SUM_WORDS;
    w.lengths = lengths_all[warp_in_block];
    w.open = open_all[warp_in_block];
    w.lane = lane;
    w.points = 0;
    w.rest = 0;
    // The tree of the last item this warp walked to the end (none yet), and
    // on lane p < depth0 that item's letter of position p: the state of its
    // first depth0 positions is still in the warp's scratch, since a walk
    // below depth0 writes only deeper rows, lanes and stack entries.
    u32 last_klass = 0xFFFFFFFFu;
    u32 letter_of = 0;
    while (true) {
        // One item at a time: a class's items arrive in its walk's order,
        // and siblings side by side on many warps share their tree's nodes
        // in the cache (taking eight consecutive items a warp doubled the
        // kernel's time, docs/RESULTS.md). The warps' next items are a few
        // thousand apart, so they share the first positions with the last.
        u32 item = 0;
        if (lane == 0) item = atomicAdd(next_item, 1u);
        item = __shfl_sync(FULL, item, 0);
        if (item >= item_count) break;
        const u32* record = items + (u64)item * ITEM_WORDS;
        u32 klass = record[0];
        w.arena = (const u32*)class_arena[klass];
        // Lane p: position p's mask and (for p < depth0) its letter.
        u32 mask = lane < CELLS ? class_masks[klass * CELLS + lane] : 0u;
        u32 last_letter = letter_of;
        letter_of = lane < CELLS ? (record[1 + lane / 4] >> (8 * (lane % 4))) & 0xFFu : 0u;
        u32 status = ITEM_DONE;
        u64 subclasses = 0;
        // Positions fixed as the last item fixed them (at most depth0 - 1:
        // the last position is fixed again even for a repeated item).
        u32 kept = 0;
        if (klass == last_klass && depth0 > 0) {
            u32 parted = __ballot_sync(FULL, lane < depth0 && letter_of != last_letter);
            kept = parted ? __ffs(parted) - 1 : depth0;
            kept = min(kept, depth0 - 1);
        }
        u32 bound = kept == 0 ? start(w, class_root[klass]) : 0u;
        for (u32 d = kept + 1; d <= depth0 && bound != 0xFFFFFFFFu; d++) {
            bound = fix(w, d, __shfl_sync(FULL, letter_of, d - 1));
        }
        if (bound == 0xFFFFFFFFu) status = ITEM_STACK_FULL;
        // Lane d: letters of position d still to try. An item below the
        // target walks nothing: the CPU hands items over on their
        // look-ahead bound, unfixed (prove.rs, Below::walk), and a relaunch
        // splits an item into all of its children (gpu_prove/relaunch.rs),
        // which the parent's walk would have cut here.
        u32 remaining = lane == depth0 && bound >= target ? mask : 0u;
        u32 depth = depth0;
        while (status == ITEM_DONE) {
            u32 left = __shfl_sync(FULL, remaining, depth);
            if (left == 0) {
                if (depth == depth0) break;
                depth -= 1;
                continue;
            }
            u32 letter = __ffs(left) - 1;
            if (lane == depth) remaining = left & (left - 1);
            subclasses += 1;
            // The look-ahead: the parent's rest plus this letter's sum.
            u32 ahead = __shfl_sync(FULL, w.rest, depth) +
                        w.sums[depth * ROW + depth * 32 + letter];
            if (ahead < target) continue;
            if (depth + 1 == CELLS) {
                // A board: the CPU scores it.
                if (lane == depth) letter_of = letter;
                u32 slot = 0;
                if (lane == 0) slot = atomicAdd(board_count, 1u);
                slot = __shfl_sync(FULL, slot, 0);
                if (slot >= board_capacity) {
                    status = ITEM_BOARDS_FULL;
                    break;
                }
                u32 packed = lane < CELLS ? letter_of << (8 * (lane % 4)) : 0u;
                // Lanes 4k..4k+3 make word k.
                packed |= __shfl_down_sync(FULL, packed, 1);
                packed |= __shfl_down_sync(FULL, packed, 2);
                u32* out = boards + (u64)slot * BOARD_WORDS;
                if (lane == 0) {
                    out[0] = item;
                    out[1] = ahead;
                }
                if (lane % 4 == 0 && lane < 16) out[2 + lane / 4] = packed;
                continue;
            }
            u32 fixed = fix(w, depth + 1, letter);
            if (fixed == 0xFFFFFFFFu) {
                status = ITEM_STACK_FULL;
                break;
            }
            if (fixed >= target) {
                if (lane == depth) letter_of = letter;
                depth += 1;
                if (lane == depth) remaining = mask;
            }
        }
        if (lane == 0) {
            item_subclasses[item] = subclasses;
            item_status[item] = status;
        }
        // A walk cut short may have left its state unsaved.
        last_klass = status == ITEM_DONE ? klass : 0xFFFFFFFFu;
    }
}
