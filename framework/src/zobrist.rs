//! Zobrist and Abstract Zobrist hashing (Jinnai & Fukunaga 2016) as
//! partitioners for hash-distributed search.
//!
//! Zobrist hashing XORs one random word per (feature, value) of a state —
//! tile 5 on cell 9, say. It spreads states evenly over workers, but almost
//! every move changes the owner, so most generated states travel. Abstract
//! Zobrist hashing first maps each value through an abstraction (cell 9 →
//! block 2) and XORs one random word per (feature, abstract value): a move
//! that stays inside an abstract value keeps the owner, which cuts
//! communication while keeping enough distinct abstract states to balance
//! load.

use crate::domain::{reduce, Domain, Partitioner};

/// A domain whose states are assignments of values to features, such as
/// "tile t is on cell p". Needed for Zobrist-style partitioners.
pub trait Features: Domain {
    /// Number of features and number of values a feature can take.
    fn feature_space(&self) -> (usize, usize);
    /// Calls `visit(feature, value)` once for every feature of `state`.
    fn for_each_feature(&self, state: &Self::State, visit: impl FnMut(usize, usize));
}

/// A Zobrist table over abstract feature values.
///
/// ```
/// use frontier_core::zobrist::AbstractZobrist;
/// // 3 features with 4 values each; values 0,1 form one group and 2,3 another.
/// let azh = AbstractZobrist::new(3, 4, 7, |_, v| Some(v / 2));
/// assert_eq!(azh.hash([(0, 0), (1, 2), (2, 3)]), azh.hash([(0, 1), (1, 3), (2, 2)]));
/// assert_ne!(azh.hash([(0, 0)]), azh.hash([(0, 2)]));
/// ```
#[derive(Clone, Debug)]
pub struct AbstractZobrist {
    values: usize,
    /// `table[feature * values + value]`: the random word of the value's
    /// abstract group (0 for ignored features).
    table: Vec<u64>,
}

impl AbstractZobrist {
    /// Builds the table. `abstraction(feature, value)` names the value's
    /// group (any small integer), or `None` to ignore that feature value.
    /// `seed` makes the table reproducible.
    pub fn new(
        features: usize,
        values: usize,
        seed: u64,
        abstraction: impl Fn(usize, usize) -> Option<usize>,
    ) -> Self {
        let mut table = vec![0u64; features * values];
        for feature in 0..features {
            for value in 0..values {
                if let Some(group) = abstraction(feature, value) {
                    table[feature * values + value] = mix(seed, feature as u64, group as u64);
                }
            }
        }
        AbstractZobrist { values, table }
    }

    /// Plain Zobrist hashing: every value is its own group.
    pub fn plain(features: usize, values: usize, seed: u64) -> Self {
        Self::new(features, values, seed, |_, v| Some(v))
    }

    /// Values per feature: the row length of [`Self::table`].
    pub fn values(&self) -> usize {
        self.values
    }

    /// The random word of every (feature, value), row-major by feature;
    /// GPU partitions upload it.
    pub fn table(&self) -> &[u64] {
        &self.table
    }

    /// The hash of a set of (feature, value) pairs.
    pub fn hash(&self, pairs: impl IntoIterator<Item = (usize, usize)>) -> u64 {
        pairs.into_iter().fold(0, |h, (f, v)| h ^ self.word(f, v))
    }

    #[inline]
    fn word(&self, feature: usize, value: usize) -> u64 {
        self.table
            .get(feature * self.values + value)
            .copied()
            .unwrap_or(0)
    }
}

impl<D: Features> Partitioner<D> for AbstractZobrist {
    #[inline]
    fn owner(&self, domain: &D, state: &D::State, parts: u32) -> u32 {
        let mut h = 0u64;
        domain.for_each_feature(state, |f, v| h ^= self.word(f, v));
        // Mix before reducing: XORs of few words have weak low bits.
        reduce(mix(h, 0, 0), parts)
    }
}

/// splitmix64 of three words: a fixed, well-spread random word per input.
fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ c.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
