// Sliding tiles plugin for kernels/gastar.cu. The host prepends the instance:
//   N_CELLS, COLS, BITS (4 or 5 bits a cell), STATE_WORDS, MAX_SUCC, NUM_PDB,
//   REFLECT, GOAL_CELL[25], GOAL_WORDS[], REFL_CELL[25], REFL_TILE[25],
//   PDB_K[], PDB_TILES[][8], PDB_OFFSET[].
// A state is the tile on each cell, BITS bits a cell, little-endian across words.
// The tables buffer holds the pattern databases, one byte an entry.

__device__ __forceinline__ u32 get_tile(const u32* s, int cell) {
    int bit = cell * BITS;
    int w = bit >> 5, o = bit & 31;
    u32 v = s[w] >> o;
    if (o + BITS > 32) v |= s[w + 1] << (32 - o);
    return v & ((1u << BITS) - 1u);
}

__device__ __forceinline__ void set_tile(u32* s, int cell, u32 tile) {
    int bit = cell * BITS;
    int w = bit >> 5, o = bit & 31;
    u32 mask = (1u << BITS) - 1u;
    s[w] = (s[w] & ~(mask << o)) | (tile << o);
    if (o + BITS > 32) {
        int spill = o + BITS - 32;
        u32 high = (1u << spill) - 1u;
        s[w + 1] = (s[w + 1] & ~high) | (tile >> (32 - o));
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

__device__ __forceinline__ u32 pdb_sum(const unsigned char* pos, const unsigned char* tables) {
    u32 sum = 0;
    for (int p = 0; p < NUM_PDB; p++) {
        u32 used = 0;
        u64 index = 0;
        for (int i = 0; i < PDB_K[p]; i++) {
            u32 cell = pos[PDB_TILES[p][i]];
            u32 below = __popc(used & ((1u << cell) - 1u));
            index = index * (u64)(N_CELLS - i) + (cell - below);
            used |= 1u << cell;
        }
        sum += tables[PDB_OFFSET[p] + index];
    }
    return sum;
}

__device__ u32 heuristic(const u32* s, const unsigned char* tables) {
    unsigned char pos[N_CELLS];
    u32 manhattan = 0;
    for (int c = 0; c < N_CELLS; c++) {
        u32 t = get_tile(s, c);
        pos[t] = (unsigned char)c;
        if (t != 0) {
            int g = GOAL_CELL[t];
            int dr = c / COLS - g / COLS, dc = c % COLS - g % COLS;
            manhattan += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
        }
    }
    if (NUM_PDB == 0) return manhattan;
    u32 h = pdb_sum(pos, tables);
    if (REFLECT) {
        unsigned char mirrored[N_CELLS];
        for (int t = 0; t < N_CELLS; t++) mirrored[REFL_TILE[t]] = REFL_CELL[pos[t]];
        u32 h2 = pdb_sum(mirrored, tables);
        if (h2 > h) h = h2;
    }
    return h;
}

// Features for Abstract Zobrist partitions, as the CPU's `Features for
// Tiles`: feature = tile (the blank is implied), value = its cell.
template <class Visit>
__device__ void for_each_feature(const u32* s, Visit visit) {
    for (int c = 0; c < N_CELLS; c++) {
        u32 t = get_tile(s, c);
        if (t != 0) visit(t, (u32)c);
    }
}
