// The engines' default hash of a packed state (gastar.cu, beam.cu), for
// plugins that do not define PLUGIN_STATE_HASH and their own state_hash.
// The host pastes this file after the plugin and before the engine.
#ifndef PLUGIN_STATE_HASH
// The hash-table hash of a packed state, for plugins without a better one.
__device__ __forceinline__ u64 state_hash(const u32* s) {
    u64 h = 0x9E3779B97F4A7C15ull;
    for (int w = 0; w < STATE_WORDS; w++) {
        h ^= s[w];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}
#endif
