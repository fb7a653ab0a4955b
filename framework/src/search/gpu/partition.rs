//! Partitions the GPU can evaluate: the same owner for a state on the CPU
//! (through [`Partitioner`]) and on the device (through CUDA source pasted
//! into the engine), so a multi-GPU search routes every state exactly as
//! the domain's partitioner says, and tests can compare the two.

use crate::domain::{reduce, PackedState, Partitioner};
use crate::zobrist::{AbstractZobrist, Features};

/// A [`Partitioner`] with a device twin.
pub trait GpuPartitioner<D: PackedState>: Partitioner<D> {
    /// CUDA source defining
    /// `__device__ u32 partition_owner(const u32* s, u32 parts, const u64* table)`,
    /// which must return what [`Partitioner::owner`] returns for the state
    /// packed in `s`.
    fn device_source(&self) -> String;
    /// The table handed to `partition_owner` (uploaded once per session).
    fn device_table(&self) -> Vec<u64>;
}

/// Uniform hashing of a state's packed words: the `hash` partition of the
/// GPU executors. (The CPU's [`StdHasher`](crate::StdHasher) hashes the Rust
/// state, which the device cannot reproduce.)
#[derive(Clone, Copy, Debug, Default)]
pub struct PackedHasher;

/// The hash of packed words that `packed_hash` in `framework/kernels/gastar.cu`
/// computes: a splitmix64 finaliser folded over the words.
pub fn packed_hash(words: &[u32]) -> u64 {
    words
        .iter()
        .fold(0x243F_6A88_85A3_08D3, |h, &w| mix64(h ^ u64::from(w)))
}

/// The splitmix64 finaliser; `mix64` in `framework/kernels/gastar.cu`.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Packs `state` on the stack where it fits (every domain so far does).
fn with_packed<D: PackedState, T>(domain: &D, state: &D::State, f: impl FnOnce(&[u32]) -> T) -> T {
    let words = domain.packed_words();
    if words <= 16 {
        let mut buffer = [0u32; 16];
        domain.pack(state, &mut buffer[..words]);
        f(&buffer[..words])
    } else {
        let mut buffer = vec![0u32; words];
        domain.pack(state, &mut buffer);
        f(&buffer)
    }
}

impl<D: PackedState> Partitioner<D> for PackedHasher {
    fn owner(&self, domain: &D, state: &D::State, parts: u32) -> u32 {
        with_packed(domain, state, |words| reduce(packed_hash(words), parts))
    }
}

impl<D: PackedState> GpuPartitioner<D> for PackedHasher {
    fn device_source(&self) -> String {
        "__device__ u32 partition_owner(const u32* s, u32 parts, const u64* table) {\n\
         \x20   return reduce_parts(packed_hash(s), parts);\n}\n"
            .into()
    }

    fn device_table(&self) -> Vec<u64> {
        Vec::new()
    }
}

/// Abstract Zobrist hashing on the device: the plugin defines
/// `for_each_feature` (see `framework/kernels/gastar.cu`), the table is this one's.
impl<D: PackedState + Features> GpuPartitioner<D> for AbstractZobrist {
    fn device_source(&self) -> String {
        format!(
            "__device__ u32 partition_owner(const u32* s, u32 parts, const u64* table) {{\n\
             \x20   u64 h = 0;\n\
             \x20   for_each_feature(s, [&](u32 f, u32 v) {{ h ^= table[(u64)f * {values} + v]; }});\n\
             \x20   return reduce_parts(mix64(h), parts);\n}}\n",
            values = self.values()
        )
    }

    fn device_table(&self) -> Vec<u64> {
        self.table().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_hash_spreads_neighbouring_words_over_parts() {
        // Adjacent inputs must not land on one owner: the device relies on
        // this function alone to balance GPUs.
        let mut counts = [0u32; 8];
        for w in 0..8000u32 {
            counts[reduce(packed_hash(&[w, 7]), 8) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (900..1100).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn packed_hash_depends_on_word_order() {
        assert_ne!(packed_hash(&[1, 2]), packed_hash(&[2, 1]));
    }
}
