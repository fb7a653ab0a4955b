// Forcing a cell on the GPU: the merge of two sum nodes of an orderly tree
// (domains/boggle/src/orderly/levels.rs, `merge_levels`), level by level,
// a thread a pair of nodes. Appended to boggle_build.cu, whose defines
// (COUNT_BITS, POSITION_SHIFT, LEAF, LETTER_BITS, FILL_THREADS) and scans
// (block_prefix, fill_level_scan) it uses;
// gpu_build/merge.rs drives it.
//
// The arena it writes is the CPU's, word for word: per level, the records
// take their places in the order of the level's pairs (an exclusive scan of
// their lengths, where the CPU appends them one after another), and the
// next level's pairs in the same order (a scan of each pair's count of
// letters that both sides have, in the order the CPU queues them: positions
// from the last, letters from 'a'). Bounds are filled from the deepest
// level up, as the CPU fills them in the reverse order it made the records.
//
// A pair is five words: a's (bound, offset), b's (bound, offset) and the
// slot its result goes to (an entry of a choice node already written) or
// MERGE_ROOT. Per pair, `made` is its record's offset, or LEAF for none.

#define MERGE_ROOT 0xFFFFFFFFu
#define NO_SKIP 0xFFFFFFFFu
#define PAIR_WORDS 5
// root_out: the root's bound and offset.
#define ROOT_BOUND 0
#define ROOT_OFFSET 1

// A level's pairs go in tiles of MERGE_TILE, a block's threads a pair each:
// `merge_size` gives each tile's sums of its pairs' lengths and counts,
// `fill_level_scan` scans them (the level's totals), and `merge_write`
// finds each pair's place from its tile's start and a scan inside the
// block. Three launches a level (two for a level of one tile), against
// eight with the scans apart: each launch waits for its turn beside the
// proof's walk, and the waits for each level's totals were half of the
// levels' time in a proof (docs/RESULTS.md, "The stages' events made once").
#define MERGE_TILE FILL_THREADS

// A side's points: a leaf's bound, else its record's header.
__device__ __forceinline__ u32 merge_points(const u32* arena, u32 bound, u32 offset) {
    return offset == LEAF ? bound : arena[offset] >> COUNT_BITS;
}

// The choice node of sum node `sum` on `position` (LEAF for none, or for a
// leaf).
__device__ __forceinline__ u32 choice_on(const u32* arena, u32 sum, u32 position) {
    if (sum == LEAF) return LEAF;
    u32 count = arena[sum] & ((1u << COUNT_BITS) - 1);
    u32 at = sum + 1;
    for (u32 k = 0; k < count; k++) {
        u32 header = arena[at];
        if ((header >> POSITION_SHIFT) == position) return at;
        at += 1 + 2 * __popc(header & LETTER_BITS);
    }
    return LEAF;
}

// The positions of sum node `sum`'s choice nodes (none for a leaf), less
// `skip`.
__device__ __forceinline__ u32 positions_of(const u32* arena, u32 sum, u32 skip) {
    if (sum == LEAF) return 0;
    u32 count = arena[sum] & ((1u << COUNT_BITS) - 1);
    u32 at = sum + 1, present = 0;
    for (u32 k = 0; k < count; k++) {
        u32 header = arena[at];
        u32 p = header >> POSITION_SHIFT;
        if (p != skip) present |= 1u << p;
        at += 1 + 2 * __popc(header & LETTER_BITS);
    }
    return present;
}

// Where pair i's result goes: its slot's two words, or the root's.
__device__ __forceinline__ void merge_result(u32* arena, u32* root_out, u32 slot, u32 bound,
                                             u32 offset) {
    if (slot == MERGE_ROOT) {
        root_out[ROOT_BOUND] = bound;
        root_out[ROOT_OFFSET] = offset;
    } else {
        arena[slot] = bound;
        arena[slot + 1] = offset;
    }
}

// Pair g of a level: its result written when it needs no record (both
// leaves, one side empty, no choice nodes), as the CPU's `open` returns it,
// with made[g] LEAF and 0 returned in *words and *both; else its record's
// length and its count of letters both sides have (the next level's pairs
// it makes). `skip`: a's position left out (the level of the root only).
__device__ __forceinline__ void merge_size_one(u32* arena, const u32* pairs, u32 g, u32 skip,
                                               u32* made, u32* root_out, u32* words_out,
                                               u32* both_out) {
    const u32* pair = pairs + (u64)g * PAIR_WORDS;
    u32 ab = pair[0], ao = pair[1], bb = pair[2], bo = pair[3], slot = pair[4];
    *words_out = 0;
    *both_out = 0;
    made[g] = LEAF;
    u32 points = merge_points(arena, ab, ao) + merge_points(arena, bb, bo);
    if (ao == LEAF && bo == LEAF) {
        merge_result(arena, root_out, slot, points, LEAF);
        return;
    }
    if (skip == NO_SKIP && bb == 0 && bo == LEAF) {
        merge_result(arena, root_out, slot, ab, ao);
        return;
    }
    if (skip == NO_SKIP && ab == 0 && ao == LEAF) {
        merge_result(arena, root_out, slot, bb, bo);
        return;
    }
    u32 present = positions_of(arena, ao, skip) | positions_of(arena, bo, NO_SKIP);
    if (present == 0) {
        merge_result(arena, root_out, slot, points, LEAF);
        return;
    }
    u32 words = 1, both = 0;
    for (u32 left = present; left != 0; left &= left - 1) {
        u32 p = __ffs(left) - 1;
        u32 x = p == skip ? LEAF : choice_on(arena, ao, p);
        u32 y = choice_on(arena, bo, p);
        u32 lx = x == LEAF ? 0u : arena[x] & LETTER_BITS;
        u32 ly = y == LEAF ? 0u : arena[y] & LETTER_BITS;
        words += 1 + 2 * __popc(lx | ly);
        both += __popc(lx & ly);
    }
    *words_out = words;
    *both_out = both;
}

// Per pair of a level (pairs[first..first + n]), a block a tile: its
// record's length and next pairs (`merge_size_one`) in length[g] and
// kids[g]; per tile, their sums, in tile_sums[tile] and
// tile_sums[tiles + tile] (tiles: the grid). A level of one tile writes
// them scanned (0) and its totals (totals[0], totals[1]) itself, so that
// it needs no scan launch.
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    merge_size(u32* arena, const u32* pairs, u32 first, u32 n, u32 skip, u32* length, u32* kids,
               u32* made, u32* root_out, u32* tile_sums, u32* totals) {
    __shared__ u32 words_total, both_total;
    u32 i = blockIdx.x * MERGE_TILE + threadIdx.x;
    u32 words = 0, both = 0;
    if (i < n) {
        u32 g = first + i;
        merge_size_one(arena, pairs, g, skip, made, root_out, &words, &both);
        length[g] = words;
        kids[g] = both;
    }
    block_prefix(words, &words_total);
    block_prefix(both, &both_total);
    if (threadIdx.x == 0) {
        u32 tiles = gridDim.x;
        if (tiles == 1) {
            tile_sums[0] = 0;
            tile_sums[1] = 0;
            totals[0] = words_total;
            totals[1] = both_total;
        } else {
            tile_sums[blockIdx.x] = words_total;
            tile_sums[tiles + blockIdx.x] = both_total;
        }
    }
}

// Pair g of a level, whose record goes at `offset` and whose next pairs
// at `next`: the record written as the CPU's `open` writes it; its slot
// (or the root) told the record's offset; the pairs of letters both sides
// have queued. Bounds are filled later (merge_bounds). `nodes` adds up the
// sum and choice nodes made.
__device__ __forceinline__ void merge_write_one(u32* arena, u32* pairs, u32 g, u32 skip,
                                                u32 offset, u32 next, u32* made,
                                                u32* root_out, u64* nodes) {
    const u32* pair = pairs + (u64)g * PAIR_WORDS;
    u32 ab = pair[0], ao = pair[1], bb = pair[2], bo = pair[3], slot = pair[4];
    u32 points = merge_points(arena, ab, ao) + merge_points(arena, bb, bo);
    u32 present = positions_of(arena, ao, skip) | positions_of(arena, bo, NO_SKIP);
    u32 count = __popc(present);
    arena[offset] = points << COUNT_BITS | count;
    if (slot == MERGE_ROOT) {
        root_out[ROOT_OFFSET] = offset;
    } else {
        arena[slot + 1] = offset;
    }
    made[g] = offset;
    u32 at = offset + 1;
    // Positions from the last, as `fill` writes a sum node's choice nodes.
    while (present != 0) {
        u32 p = 31 - __clz(present);
        present ^= 1u << p;
        u32 x = p == skip ? LEAF : choice_on(arena, ao, p);
        u32 y = choice_on(arena, bo, p);
        if (x == LEAF || y == LEAF) {
            u32 only = x == LEAF ? y : x;
            u32 words = 1 + 2 * __popc(arena[only] & LETTER_BITS);
            for (u32 k = 0; k < words; k++) arena[at + k] = arena[only + k];
            at += words;
            continue;
        }
        u32 lx = arena[x] & LETTER_BITS, ly = arena[y] & LETTER_BITS;
        arena[at] = p << POSITION_SHIFT | lx | ly;
        u32 nx = x + 1, ny = y + 1, out = at + 1;
        for (u32 letters = lx | ly; letters != 0; letters &= letters - 1) {
            u32 bit = letters & (0u - letters);
            u32 eb = 0, eo = LEAF;
            if ((lx & bit) && (ly & bit)) {
                u32* queued = pairs + (u64)next * PAIR_WORDS;
                queued[0] = arena[nx];
                queued[1] = arena[nx + 1];
                queued[2] = arena[ny];
                queued[3] = arena[ny + 1];
                queued[4] = out;
                next++;
                nx += 2;
                ny += 2;
            } else if (lx & bit) {
                eb = arena[nx];
                eo = arena[nx + 1];
                nx += 2;
            } else {
                eb = arena[ny];
                eo = arena[ny + 1];
                ny += 2;
            }
            arena[out] = eb;
            arena[out + 1] = eo;
            out += 2;
        }
        at = out;
    }
    atomicAdd(nodes, (u64)(1 + count));
}

// Per pair of a level with a record (length[g] > 0), a block a tile as
// in merge_size: the record written at `tail` plus its place (its tile's
// start, tile_starts[tile] as fill_level_scan scanned them, plus the
// lengths before it in the tile), its next pairs at next_first plus
// theirs (tile_starts[tiles + tile] plus the counts before it).
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    merge_write(u32* arena, u32* pairs, u32 first, u32 n, u32 skip, const u32* length,
                const u32* kids, const u32* tile_starts, u32 tail, u32 next_first, u32* made,
                u32* root_out, u64* nodes) {
    __shared__ u32 words_total, both_total;
    u32 i = blockIdx.x * MERGE_TILE + threadIdx.x;
    u32 g = first + i;
    u32 words = i < n ? length[g] : 0u, both = i < n ? kids[g] : 0u;
    u32 tiles = gridDim.x;
    u32 offset = tail + tile_starts[blockIdx.x] + block_prefix(words, &words_total);
    u32 next = next_first + tile_starts[tiles + blockIdx.x] + block_prefix(both, &both_total);
    if (i >= n || words == 0) return;
    merge_write_one(arena, pairs, g, skip, offset, next, made, root_out, nodes);
}

// Per pair of a level with a record (every deeper level done): its bound,
// its points plus each choice node's best child, written to its slot (or
// the root's).
extern "C" __global__ void __launch_bounds__(FILL_THREADS)
    merge_bounds(u32* arena, const u32* pairs, u32 first, u32 n, const u32* made, u32* root_out) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 g = first + i;
    u32 record = made[g];
    if (record == LEAF) return;
    u32 bound = arena[record] >> COUNT_BITS;
    u32 count = arena[record] & ((1u << COUNT_BITS) - 1);
    u32 at = record + 1;
    for (u32 k = 0; k < count; k++) {
        u32 letters = arena[at] & LETTER_BITS;
        u32 best = 0;
        for (u32 c = 0; c < (u32)__popc(letters); c++) best = max(best, arena[at + 1 + 2 * c]);
        bound += best;
        at += 1 + 2 * __popc(letters);
    }
    u32 slot = pairs[(u64)g * PAIR_WORDS + 4];
    if (slot == MERGE_ROOT) {
        root_out[ROOT_BOUND] = bound;
    } else {
        arena[slot] = bound;
    }
}
