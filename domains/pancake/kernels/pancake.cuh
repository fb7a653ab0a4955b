// Pancake plugin for kernels/gastar.cu. The host prepends N_PANCAKES,
// STATE_WORDS and MAX_SUCC (N_PANCAKES - 1). A state is the sizes 1..N
// from the top, one byte each, four to a word, little-endian; the goal is
// 1 2 … N. See domains/pancake/src/lib.rs.

__device__ __forceinline__ u32 size_at(const u32* s, int i) {
    return (s[i >> 2] >> ((i & 3) * 8)) & 0xFFu;
}

__device__ __forceinline__ void set_size(u32* s, int i, u32 v) {
    int shift = (i & 3) * 8;
    s[i >> 2] = (s[i >> 2] & ~(0xFFu << shift)) | (v << shift);
}

__device__ bool is_goal(const u32* s, const unsigned char* tables) {
    for (int i = 0; i < N_PANCAKES; i++)
        if (size_at(s, i) != (u32)(i + 1)) return false;
    return true;
}

// Child i: the top k = i + 2 flipped (PLUGIN_NTH_CHILD, for IDA*).
#define PLUGIN_NTH_CHILD
__device__ bool nth_child(const u32* s, const u32* hw, int i, u32* child, u32* cost,
                          const unsigned char* tables) {
    int k = i + 2;
    if (k > N_PANCAKES) return false;
    for (int w = 0; w < STATE_WORDS; w++) child[w] = s[w];
    for (int j = 0; j < k / 2; j++) {
        u32 a = size_at(s, j), b = size_at(s, k - 1 - j);
        set_size(child, j, b);
        set_size(child, k - 1 - j, a);
    }
    *cost = 1;
    return true;
}

// Flips of the top k = 2..N, in the host's order.
__device__ int expand(const u32* s, u32* out, u32* cost, const unsigned char* tables) {
    int n = 0;
    for (int i = 0; i + 2 <= N_PANCAKES; i++)
        if (nth_child(s, nullptr, i, out + n * STATE_WORDS, cost + n, tables)) n++;
    return n;
}

// Gaps between neighbours, the plate counting as N + 1.
__device__ u32 heuristic(const u32* s, const unsigned char* tables) {
    u32 gaps = 0;
    for (int i = 0; i < N_PANCAKES; i++) {
        int a = (int)size_at(s, i);
        int b = i + 1 < N_PANCAKES ? (int)size_at(s, i + 1) : N_PANCAKES + 1;
        int d = a - b;
        gaps += (d > 1 || d < -1) ? 1u : 0u;
    }
    return gaps;
}

// Features for Abstract Zobrist partitions, as the CPU's `Features for
// Pancake`: feature = position, value = the size there.
template <class Visit>
__device__ void for_each_feature(const u32* s, Visit visit) {
    for (int i = 0; i < N_PANCAKES; i++) visit((u32)i, size_at(s, i));
}
