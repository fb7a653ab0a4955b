// Sliding tiles plugin for kernels/gastar.cu. The host prepends the instance:
//   N_CELLS, COLS, BITS (4 to 6 bits a cell), STATE_WORDS, MAX_SUCC, NUM_PDB,
//   NUM_PART, REFLECT, PART_FIRST[NUM_PART + 1], PART_REFLECT[NUM_PART],
//   GOAL_CELL[N_CELLS] and goal_cell_of(tile) (arithmetic where it can be),
//   GOAL_WORDS[], REFL_CELL[], REFL_TILE[], REFL_INV[], PDB_OF[], PDB_K[],
//   PDB_TILES[][8], PDB_OFFSET[]; for a beam's rank, PLUGIN_RANK and
//   rank_group_of(tile); for a learned one, PLUGIN_RANK_LINEAR and its
//   weights or PLUGIN_RANK_NETWORK and its network (NET_*).
// The databases form NUM_PART additive partitions (PART_FIRST[q] is
// partition q's first database); h is the largest partition's sum, each
// partition maxed with its sum on the mirrored board where PART_REFLECT[q]
// (REFLECT: any partition does), as the CPU's TilesHeuristic::Max.
// A state is the tile on each cell, BITS bits a cell, little-endian across words.
// The tables buffer holds the pattern databases, one byte an entry.

// Word i of a small array, by a run-time index, without indexing the
// array at run time: that would move it from registers to local memory.
template <int N>
__device__ __forceinline__ u32 pick(const u32* a, int i) {
    u32 v = a[0];
#pragma unroll
    for (int k = 1; k < N; k++)
        if (i == k) v = a[k];
    return v;
}

template <int N>
__device__ __forceinline__ void put(u32* a, int i, u32 v) {
#pragma unroll
    for (int k = 0; k < N; k++)
        if (i == k) a[k] = v;
}

__device__ __forceinline__ u32 get_tile(const u32* s, int cell) {
    int bit = cell * BITS;
    int w = bit >> 5, o = bit & 31;
    u32 v = pick<STATE_WORDS>(s, w) >> o;
    if (o + BITS > 32) v |= pick<STATE_WORDS>(s, w + 1) << (32 - o);
    return v & ((1u << BITS) - 1u);
}

__device__ __forceinline__ void set_tile(u32* s, int cell, u32 tile) {
    int bit = cell * BITS;
    int w = bit >> 5, o = bit & 31;
    u32 mask = (1u << BITS) - 1u;
    put<STATE_WORDS>(s, w, (pick<STATE_WORDS>(s, w) & ~(mask << o)) | (tile << o));
    if (o + BITS > 32) {
        int spill = o + BITS - 32;
        u32 high = (1u << spill) - 1u;
        put<STATE_WORDS>(s, w + 1, (pick<STATE_WORDS>(s, w + 1) & ~high) | (tile >> (32 - o)));
    }
}

__device__ __forceinline__ int blank_cell(const u32* s) {
    for (int c = 0; c < N_CELLS; c++)
        if (get_tile(s, c) == 0) return c;
    return 0;
}

__device__ bool is_goal(const u32* s, const unsigned char* tables) {
    for (int w = 0; w < STATE_WORDS; w++)
        if (s[w] != GOAL_WORDS[w]) return false;
    return true;
}

// Moves the blank up, down, left, right (the host's Dir order).
__device__ int expand(const u32* s, u32* out, u32* cost, const unsigned char* tables) {
    int b = blank_cell(s);
    int r = b / COLS, c = b % COLS;
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int to;
        if (d == 0) { if (r == 0) continue; to = b - COLS; }
        else if (d == 1) { if (b + COLS >= N_CELLS) continue; to = b + COLS; }
        else if (d == 2) { if (c == 0) continue; to = b - 1; }
        else { if (c == COLS - 1) continue; to = b + 1; }
        u32* child = out + n * STATE_WORDS;
        for (int w = 0; w < STATE_WORDS; w++) child[w] = s[w];
        set_tile(child, b, get_tile(s, to));
        set_tile(child, to, 0);
        cost[n] = 1;
        n++;
    }
    return n;
}

// The value of database p with tile t on cell cell_of(t).
template <class CellOf>
__device__ __forceinline__ u32 pdb_value(int p, CellOf cell_of, const unsigned char* tables) {
    u64 used = 0;  // cells taken so far (boards up to 49 cells)
    u64 index = 0;
    for (int i = 0; i < PDB_K[p]; i++) {
        u32 cell = cell_of(PDB_TILES[p][i]);
        u32 below = __popcll(used & ((1ull << cell) - 1ull));
        index = index * (u64)(N_CELLS - i) + (cell - below);
        used |= 1ull << cell;
    }
    return tables[PDB_OFFSET[p] + index];
}

// Database p's value with tile t on cell pos[t], and on the board
// reflected about the diagonal.
__device__ __forceinline__ u32 plain_value(int p, const unsigned char* pos,
                                           const unsigned char* tables) {
    return pdb_value(p, [&](int t) { return (u32)pos[t]; }, tables);
}

__device__ __forceinline__ u32 mirrored_value(int p, const unsigned char* pos,
                                              const unsigned char* tables) {
    return pdb_value(p, [&](int t) { return (u32)REFL_CELL[pos[REFL_INV[t]]]; }, tables);
}

// The largest partition's sum at tile positions `pos`; on the mirrored
// board (`mirrored`) only partitions built with the reflection count.
__device__ __forceinline__ u32 pdb_sum(const unsigned char* pos, const unsigned char* tables,
                                       bool mirrored) {
    u32 best = 0;
    for (int q = 0; q < NUM_PART; q++) {
        if (mirrored && !PART_REFLECT[q]) continue;
        u32 sum = 0;
        for (int p = PART_FIRST[q]; p < PART_FIRST[q + 1]; p++) sum += plain_value(p, pos, tables);
        if (sum > best) best = sum;
    }
    return best;
}

__device__ u32 heuristic(const u32* s, const unsigned char* tables) {
    unsigned char pos[N_CELLS];
    u32 manhattan = 0;
    for (int c = 0; c < N_CELLS; c++) {
        u32 t = get_tile(s, c);
        pos[t] = (unsigned char)c;
        if (t != 0) {
            int g = goal_cell_of(t);
            int dr = c / COLS - g / COLS, dc = c % COLS - g % COLS;
            manhattan += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
        }
    }
    if (NUM_PDB == 0) return manhattan;
    u32 h = pdb_sum(pos, tables, false);
    if (REFLECT) {
        unsigned char mirrored[N_CELLS];
        for (int t = 0; t < N_CELLS; t++) mirrored[REFL_TILE[t]] = REFL_CELL[pos[t]];
        u32 h2 = pdb_sum(mirrored, tables, true);
        if (h2 > h) h = h2;
    }
    return h;
}

#ifdef PLUGIN_RANK
// Tile t's goal line (its goal row where is_row, else its goal column),
// and in *place its place along that line.
__device__ __forceinline__ int goal_line_of(u32 t, bool is_row, int* place) {
    int g = goal_cell_of(t);
    *place = is_row ? g % COLS : g / COLS;
    return is_row ? g / COLS : g % COLS;
}

// A beam's rank: h plus the linear conflicts between tiles of different
// groups (rank_group_of), as the CPU's Conflicts::count (conflicts.rs). It is
// computed beside the expansion's children, so it must stay light on
// registers: unrolled per-line arrays took beam_expand from 42 to 213
// registers on 7×7 and halved the beam's speed. The loops are kept rolled,
// and a line's earlier tiles live in two words: a bit per goal place seen
// and 6 bits of group per place (lines of up to 10 cells; longer lines
// read the earlier cells again instead). A branch-free form of this loop
// (popcounts over the fields of the two words) was slower on an H200.
__device__ __forceinline__ u32 line_pairs(const u32* s, int first, int step, int len, int line,
                                          bool is_row) {
    u32 pairs = 0;
#if COLS <= 10 && N_CELLS / COLS <= 10
    u32 seen = 0;
    u64 group_at = 0;
#pragma unroll 1
    for (int i = 0; i < len; i++) {
        u32 t = get_tile(s, first + i * step);
        int at;
        if (t == 0 || goal_line_of(t, is_row, &at) != line) continue;
        u32 place = (u32)at;
        u32 group = rank_group_of(t);
        // Earlier tiles of this line whose goals lie beyond this one's.
        u32 beyond = seen & ~((2u << place) - 1u);
        while (beyond) {
            u32 p = (u32)(__ffs(beyond) - 1);
            beyond &= beyond - 1u;
            pairs += (u32)((group_at >> (6u * p)) & 63u) != group ? 1u : 0u;
        }
        seen |= 1u << place;
        group_at |= (u64)group << (6u * place);
    }
#else
#pragma unroll 1
    for (int i = 0; i < len; i++) {
        u32 t = get_tile(s, first + i * step);
        int place;
        if (t == 0 || goal_line_of(t, is_row, &place) != line) continue;
#pragma unroll 1
        for (int j = 0; j < i; j++) {
            u32 u = get_tile(s, first + j * step);
            int earlier;
            if (u == 0 || goal_line_of(u, is_row, &earlier) != line) continue;
            pairs += (earlier > place && rank_group_of(u) != rank_group_of(t)) ? 1u : 0u;
        }
    }
#endif
    return pairs;
}

// Every row's and column's conflicts (the CPU's Conflicts::count).
__device__ u32 all_pairs(const u32* s) {
    const int rows = N_CELLS / COLS;
    u32 pairs = 0;
#pragma unroll 1
    for (int r = 0; r < rows; r++) pairs += line_pairs(s, r * COLS, 1, COLS, r, true);
#pragma unroll 1
    for (int c = 0; c < COLS; c++) pairs += line_pairs(s, c, COLS, rows, c, false);
    return pairs;
}

#ifdef PLUGIN_RANK_NETWORK
// A learned network's rank (the CPU's NetworkRank::rank, network_rank.rs):
// the weights are fixed point with NET_FRACTION_BITS bits of fraction and
// the sums 64-bit integers, so that it equals the CPU's bit for bit; the
// host checked that no sum overflows. `f` holds the features of the CPU's
// AdditivePdb::rank_feature_counts.
// The table's row of `tile` on `cell`: one weight per hidden unit.
__device__ __forceinline__ const int* net_row(u32 tile, int cell) {
    return NET_TABLE + ((int)tile * N_CELLS + cell) * NET_HIDDEN;
}

// The units' bias plus the table's rows of the tiles on their cells.
__device__ __forceinline__ void network_table_units(const u32* s, long long* units) {
#pragma unroll
    for (int j = 0; j < NET_HIDDEN; j++) units[j] = NET_BIAS[j];
#pragma unroll 1
    for (int c = 0; c < N_CELLS; c++) {
        const int* row = net_row(get_tile(s, c), c);
#pragma unroll
        for (int j = 0; j < NET_HIDDEN; j++) units[j] += row[j];
    }
}

// The rank from the units' table sums (network_table_units) and the
// features `f`; `units` is spent.
__device__ u32 network_output(long long* units, const int* f) {
    long long linear = NET_CONSTANT;
#pragma unroll 1
    for (int k = 0; k < NET_FEATURES; k++) {
        long long fk = f[k];
        linear += NET_LINEAR[k] * fk;
#pragma unroll
        for (int j = 0; j < NET_HIDDEN; j++) units[j] += NET_MIX[k * NET_HIDDEN + j] * fk;
    }
    // A multiplication, not a shift: the sum may be negative.
    long long total = linear * (1ll << NET_FRACTION_BITS);
#pragma unroll
    for (int j = 0; j < NET_HIDDEN; j++)
        if (units[j] > 0) total += NET_OUTPUT[j] * units[j];
    // From 2^-32 moves to 64ths (an arithmetic shift, as the CPU's).
    long long r = RANK_OFFSET + (total >> (2 * NET_FRACTION_BITS - 6));
    return (u32)(r < 0 ? 0 : r > 2 * RANK_OFFSET ? 2 * RANK_OFFSET : r);
}

__device__ u32 network_rank(const u32* s, const int* f) {
    long long units[NET_HIDDEN];
    network_table_units(s, units);
    return network_output(units, f);
}

// The features after the databases' values (f[0 .. at), laid out as the
// CPU's rank_feature_counts): the larger and the smaller sum (the one sum
// without the reflection), then the conflicts.
__device__ __forceinline__ void network_sums_and_pairs(int* f, int at, int direct, int mirrored,
                                                       u32 pairs) {
    if (REFLECT) {
        f[at++] = max(direct, mirrored);
        f[at++] = min(direct, mirrored);
    } else {
        f[at++] = direct;
    }
    f[at] = (int)pairs;
}

// A state's h and its network rank at once (the beam's PLUGIN_H_AND_RANK):
// the rank's features are the databases' values that h sums, so each is
// looked up once. The features as the CPU's rank_feature_counts: each
// database's value, each on the reflected board, the larger and the
// smaller sum (the one sum without the reflection), the conflicts. One
// partition only (the CPU ranks by a network on no other heuristic); h is
// then the larger sum, as heuristic() makes it.
#if NUM_PART != 1
#error "a network rank reads one partition's databases"
#endif
#define PLUGIN_H_AND_RANK
__device__ u32 h_and_rank(const u32* s, u32* h, const unsigned char* tables) {
    unsigned char pos[N_CELLS];
    for (int c = 0; c < N_CELLS; c++) pos[get_tile(s, c)] = (unsigned char)c;
    int f[NET_FEATURES];
    int direct = 0, mirrored = 0;
#pragma unroll 1
    for (int p = 0; p < NUM_PDB; p++) {
        f[p] = (int)plain_value(p, pos, tables);
        direct += f[p];
        if (REFLECT) {
            f[NUM_PDB + p] = (int)mirrored_value(p, pos, tables);
            mirrored += f[NUM_PDB + p];
        }
    }
    network_sums_and_pairs(f, REFLECT ? 2 * NUM_PDB : NUM_PDB, direct, mirrored, all_pairs(s));
    *h = (u32)(REFLECT ? max(direct, mirrored) : direct);
    return network_rank(s, f);
}
#endif  // PLUGIN_RANK_NETWORK

__device__ u32 rank(const u32* s, u32 h, const unsigned char* tables) {
#if defined(PLUGIN_RANK_NETWORK)
    u32 same_h;
    return h_and_rank(s, &same_h, tables);
#else
    u32 pairs = all_pairs(s);
#ifdef PLUGIN_RANK_LINEAR
    // The learned rank (linear_rank.rs): every database on both boards.
    unsigned char pos[N_CELLS];
    for (int c = 0; c < N_CELLS; c++) pos[get_tile(s, c)] = (unsigned char)c;
    long long acc = RANK_OFFSET + RANK_H * (long long)h + RANK_CONFLICTS * (long long)pairs;
#pragma unroll 1
    for (int p = 0; p < NUM_PDB; p++) {
        acc += RANK_DIRECT[p] * (long long)plain_value(p, pos, tables);
        if (REFLECT) acc += RANK_REFLECTED[p] * (long long)mirrored_value(p, pos, tables);
    }
    return (u32)acc;
#else
    return h + pairs;
#endif
#endif  // PLUGIN_RANK_NETWORK
}

// The pairs of `tile` with the other tiles of its goal row (is_row) or
// goal column: an earlier tile whose goal lies beyond its own, or a later
// one whose goal lies before, in another group.
__device__ __forceinline__ u32 pairs_with(const u32* s, bool is_row, u32 tile) {
    int place;
    int line = goal_line_of(tile, is_row, &place);
    int first = is_row ? line * COLS : line, step = is_row ? 1 : COLS;
    int len = is_row ? COLS : N_CELLS / COLS;
    u32 group = rank_group_of(tile);
    u32 pairs = 0;
    bool before = true;
#pragma unroll 1
    for (int i = 0; i < len; i++) {
        u32 u = get_tile(s, first + i * step);
        int other_place;
        bool on_line = goal_line_of(u, is_row, &other_place) == line;
        bool counts = u != 0 && u != tile && on_line && rank_group_of(u) != group;
        pairs += counts && (before ? other_place > place : other_place < place) ? 1u : 0u;
        before = before && u != tile;
    }
    return pairs;
}

// How a move of `tile` from cell `from` (in the parent) to `to` (in the
// child) changes the conflicts (all_pairs), as the CPU's
// Conflicts::count_child: only the moved tile's pairs change, across its
// move (along it, every tile keeps its order), and only on its goal line:
// the pairs it had on the line it left if that is its goal line, or those
// it has on the line it entered if that is.
__device__ __forceinline__ int pairs_change(const u32* parent, const u32* child, u32 tile,
                                            int from, int to) {
    // A move along a column changes rows across it; along a row, columns.
    bool across_rows = from / COLS != to / COLS;
    int place;
    int goal_line = goal_line_of(tile, across_rows, &place);
    if (goal_line == (across_rows ? from / COLS : from % COLS))
        return -(int)pairs_with(parent, across_rows, tile);
    if (goal_line == (across_rows ? to / COLS : to % COLS))
        return (int)pairs_with(child, across_rows, tile);
    return 0;
}

// A child's rank from its parent's (the beam's PLUGIN_RANK_CHILD): the
// parent's plus the change in conflicts (pairs_change; most moves touch
// no goal line and scan nothing). The two cells the move touches are the lowest and
// highest bits where the packed states differ (the moved tile is not 0, so
// both cells differ); the child's blank is one of them.
#define PLUGIN_RANK_CHILD
__device__ u32 rank_child(const u32* parent, u32 ph, u32 pr, const u32* child, u32 h,
                          const unsigned char* tables) {
#ifdef PLUGIN_RANK_NETWORK
    // The network is not linear in its features, and a beam state keeps
    // only its rank: the child's is made afresh, as the CPU's (the beam
    // makes it from the parent's detail instead: PLUGIN_RANK_DETAIL).
    return rank(child, h, tables);
#else
    int low = -1, high = -1;
#pragma unroll
    for (int w = 0; w < STATE_WORDS; w++) {
        u32 x = parent[w] ^ child[w];
        if (x) {
            if (low < 0) low = w * 32 + __ffs(x) - 1;
            high = w * 32 + 31 - __clz(x);
        }
    }
    int a = low / BITS, b = high / BITS;
    int from = get_tile(child, a) == 0 ? a : b;  // the tile's cell in the parent
    int to = a + b - from;                       // and in the child
    u32 tile = get_tile(child, to);
    int moved_pairs = pairs_change(parent, child, tile, from, to);
#ifdef PLUGIN_RANK_LINEAR
    // The learned rank is linear in each database's value, h and the
    // conflicts, and the move changes one database on each board: the
    // parent's rank plus those changes, four lookups instead of all of
    // them (the CPU's rank afresh gives the same integer).
    long long acc = (long long)pr + RANK_H * ((long long)h - (long long)ph) +
                    RANK_CONFLICTS * (long long)moved_pairs;
    unsigned char pos[N_CELLS];
    for (int c = 0; c < N_CELLS; c++) pos[get_tile(child, c)] = (unsigned char)c;
    int p = PDB_OF[tile];
    int m = REFLECT ? PDB_OF[REFL_TILE[tile]] : 255;
    long long plain_after = 0, mirrored_after = 0;
    if (p < NUM_PDB) plain_after = plain_value(p, pos, tables);
    if (m < NUM_PDB) mirrored_after = mirrored_value(m, pos, tables);
    pos[tile] = (unsigned char)from;  // the parent's positions
    pos[0] = (unsigned char)to;
    if (p < NUM_PDB) acc += RANK_DIRECT[p] * (plain_after - (long long)plain_value(p, pos, tables));
    if (m < NUM_PDB)
        acc += RANK_REFLECTED[m] * (mirrored_after - (long long)mirrored_value(m, pos, tables));
    return (u32)acc;
#else
    return h + (u32)((int)(pr - ph) + moved_pairs);
#endif
#endif  // PLUGIN_RANK_NETWORK
}
#endif

// Features for Abstract Zobrist partitions, as the CPU's `Features for
// Tiles`: feature = tile (the blank is implied), value = its cell.
template <class Visit>
__device__ void for_each_feature(const u32* s, Visit visit) {
    for (int c = 0; c < N_CELLS; c++) {
        u32 t = get_tile(s, c);
        if (t != 0) visit(t, (u32)c);
    }
}

// With several partitions IDA* looks each child up whole (ida.cu's
// defaults): the detail below follows one partition's databases.
#if NUM_PART == 1
// Incremental heuristic for IDA* (kernels/ida.cu, PLUGIN_H_CHILD): a
// state's detail is every tile's cell (a byte each) and each pattern
// database's value, plain and mirrored (a byte each), then h. A move
// changes one tile's cell, so a child costs one lookup per orientation
// instead of 2 * NUM_PDB, and no scan of the board.
#define PLUGIN_H_CHILD
#define POS_WORDS ((N_CELLS + 3) / 4)
#define PART_WORDS ((2 * NUM_PDB + 3) / 4)
#define H_WORDS (POS_WORDS + PART_WORDS + 1)
#define H_AT (POS_WORDS + PART_WORDS)

__device__ __forceinline__ u32 byte_at(const u32* hw, int i) {
    return (pick<H_WORDS>(hw, i >> 2) >> ((i & 3) * 8)) & 0xFFu;
}

__device__ __forceinline__ void set_byte(u32* hw, int i, u32 v) {
    int shift = (i & 3) * 8;
    put<H_WORDS>(hw, i >> 2, (pick<H_WORDS>(hw, i >> 2) & ~(0xFFu << shift)) | (v << shift));
}

// Byte offset of the per-database values in the detail.
#define PART_AT (POS_WORDS * 4)

// Database p's value for the tile cells in the detail, plain and mirrored.
__device__ __forceinline__ u32 plain_part(int p, const u32* hw, const unsigned char* tables) {
    return pdb_value(p, [&](int t) { return byte_at(hw, t); }, tables);
}

__device__ __forceinline__ u32 mirrored_part(int p, const u32* hw, const unsigned char* tables) {
    return pdb_value(p, [&](int t) { return (u32)REFL_CELL[byte_at(hw, REFL_INV[t])]; }, tables);
}

__device__ __forceinline__ u32 h_from_parts(const u32* hw) {
    u32 plain = 0, mirrored = 0;
    for (int p = 0; p < NUM_PDB; p++) {
        plain += byte_at(hw, PART_AT + p);
        mirrored += byte_at(hw, PART_AT + NUM_PDB + p);
    }
    return REFLECT && mirrored > plain ? mirrored : plain;
}

__device__ u32 h_init(const u32* s, u32* hw, const unsigned char* tables) {
    for (int w = 0; w < H_WORDS; w++) hw[w] = 0;
    for (int c = 0; c < N_CELLS; c++) set_byte(hw, get_tile(s, c), c);
    u32 h;
    if (NUM_PDB == 0) {
        h = heuristic(s, tables);
    } else {
        for (int p = 0; p < NUM_PDB; p++) {
            set_byte(hw, PART_AT + p, plain_part(p, hw, tables));
            if (REFLECT) set_byte(hw, PART_AT + NUM_PDB + p, mirrored_part(p, hw, tables));
        }
        h = h_from_parts(hw);
    }
    hw[H_AT] = h;
    return h;
}

__device__ u32 h_child(const u32* phw, const u32* child, u32* hw, const unsigned char* tables) {
    for (int w = 0; w < H_WORDS; w++) hw[w] = phw[w];
    u32 from = byte_at(phw, 0);          // the parent's blank: where the tile went
    u32 t = get_tile(child, from);       // the tile that moved
    u32 to = byte_at(phw, t);            // where it was: the child's blank
    set_byte(hw, t, from);
    set_byte(hw, 0, to);
    u32 h;
    if (NUM_PDB == 0) {
        int g = goal_cell_of(t);
        int before = abs((int)to / COLS - g / COLS) + abs((int)to % COLS - g % COLS);
        int after = abs((int)from / COLS - g / COLS) + abs((int)from % COLS - g % COLS);
        h = (u32)((int)phw[H_AT] + after - before);
    } else {
        int p = PDB_OF[t];
        if (p < NUM_PDB) set_byte(hw, PART_AT + p, plain_part(p, hw, tables));
        if (REFLECT) {
            int m = PDB_OF[REFL_TILE[t]];
            if (m < NUM_PDB) set_byte(hw, PART_AT + NUM_PDB + m, mirrored_part(m, hw, tables));
        }
        h = h_from_parts(hw);
    }
    hw[H_AT] = h;
    return h;
}

// Child i of s for IDA* (PLUGIN_NTH_CHILD): move i of expand's order, the
// blank's cell read from the detail instead of a scan of the board.
#define PLUGIN_NTH_CHILD
__device__ __forceinline__ bool nth_child(const u32* s, const u32* hw, int i, u32* child, u32* cost,
                                          const unsigned char* tables) {
    int b = (int)byte_at(hw, 0);
    int r = b / COLS, c = b % COLS;
    int to;
    if (i == 0) { if (r == 0) return false; to = b - COLS; }
    else if (i == 1) { if (b + COLS >= N_CELLS) return false; to = b + COLS; }
    else if (i == 2) { if (c == 0) return false; to = b - 1; }
    else { if (c == COLS - 1) return false; to = b + 1; }
#pragma unroll
    for (int w = 0; w < STATE_WORDS; w++) child[w] = s[w];
    set_tile(child, b, get_tile(s, to));
    set_tile(child, to, 0);
    *cost = 1;
    return true;
}

#ifdef PLUGIN_RANK_NETWORK
// A beam child's network rank from its parent's detail (the beam's
// PLUGIN_RANK_DETAIL, made once per parent) and its own (h_child's), not
// afresh: the table's sums change in four rows (the moved tile and the
// blank, each off its old cell and onto its new one), the databases'
// values are in the child's detail, and the conflicts change as
// pairs_change says. The sums are the afresh rank's, added in another
// order: 64-bit integers that the host checked cannot overflow, so the
// rank is the same integer (beam_child_rank_of against the CPU's).
#define PLUGIN_RANK_DETAIL
struct RankDetail {
    long long units[NET_HIDDEN];  // network_table_units of the parent
    u32 pairs;                    // the parent's conflicts (all_pairs)
};

__device__ void rank_detail_init(const u32* s, const u32* hw, RankDetail* rd,
                                 const unsigned char* tables) {
    network_table_units(s, rd->units);
    rd->pairs = all_pairs(s);
}

__device__ u32 rank_from_detail(const u32* parent, const u32* phw, const RankDetail* rd,
                                const u32* child, const u32* chw, const unsigned char* tables) {
    int to = (int)byte_at(phw, 0);     // the parent's blank: the tile's cell now
    u32 tile = get_tile(child, to);    // the tile that moved
    int from = (int)byte_at(phw, tile);  // its cell in the parent: the child's blank
    const int* gone = net_row(tile, from);
    const int* come = net_row(tile, to);
    const int* blank_gone = net_row(0, to);
    const int* blank_come = net_row(0, from);
    long long units[NET_HIDDEN];
#pragma unroll
    for (int j = 0; j < NET_HIDDEN; j++)
        units[j] = rd->units[j] - gone[j] + come[j] - blank_gone[j] + blank_come[j];
    int f[NET_FEATURES];
    int direct = 0, mirrored = 0;
#pragma unroll 1
    for (int p = 0; p < NUM_PDB; p++) {
        f[p] = (int)byte_at(chw, PART_AT + p);
        direct += f[p];
        if (REFLECT) {
            f[NUM_PDB + p] = (int)byte_at(chw, PART_AT + NUM_PDB + p);
            mirrored += f[NUM_PDB + p];
        }
    }
    u32 pairs = (u32)((int)rd->pairs + pairs_change(parent, child, tile, from, to));
    network_sums_and_pairs(f, REFLECT ? 2 * NUM_PDB : NUM_PDB, direct, mirrored, pairs);
    return network_output(units, f);
}
#endif  // PLUGIN_RANK_NETWORK
#endif  // NUM_PART == 1
