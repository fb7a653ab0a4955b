// The demo maze's plugin for gastar.cu and ida.cu (framework/src/grid.rs).
// The host prepends ROWS, COLS, GOAL_WORD, STATE_WORDS (1) and MAX_SUCC (4).
// A state is one word, row in the high half, column in the low; the tables
// buffer holds one byte a cell, row by row: 0 a wall, else the cost to
// enter it (1-9). Successors come in the CPU's order: up, down, left, right.

#define GRID_GOAL_ROW ((int)(GOAL_WORD >> 16))
#define GRID_GOAL_COL ((int)(GOAL_WORD & 0xFFFFu))

__device__ bool is_goal(const u32* s, const unsigned char* tables) {
    return s[0] == (u32)GOAL_WORD;
}

// The i-th step (0 up, 1 down, 2 left, 3 right), false into a wall or off
// the maze (PLUGIN_NTH_CHILD, for IDA*).
#define PLUGIN_NTH_CHILD
__device__ bool nth_child(const u32* s, const u32* hw, int i, u32* child, u32* cost,
                          const unsigned char* tables) {
    int r = (int)(s[0] >> 16), c = (int)(s[0] & 0xFFFFu);
    if (i == 0) r -= 1;
    else if (i == 1) r += 1;
    else if (i == 2) c -= 1;
    else if (i == 3) c += 1;
    else return false;
    if (r < 0 || c < 0 || r >= ROWS || c >= COLS) return false;
    unsigned char enter = tables[r * COLS + c];
    if (enter == 0) return false;
    child[0] = ((u32)r << 16) | (u32)c;
    *cost = enter;
    return true;
}

__device__ int expand(const u32* s, u32* out, u32* cost, const unsigned char* tables) {
    int n = 0;
#pragma unroll
    for (int i = 0; i < 4; i++)
        if (nth_child(s, nullptr, i, out + n, cost + n, tables)) n++;
    return n;
}

// Manhattan distance to the goal: every cell costs at least 1 to enter.
__device__ u32 heuristic(const u32* s, const unsigned char* tables) {
    int r = (int)(s[0] >> 16), c = (int)(s[0] & 0xFFFFu);
    int dr = r - GRID_GOAL_ROW, dc = c - GRID_GOAL_COL;
    return (u32)((dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc));
}
