//! Word paths packed into one unsigned integer — `u64` when they fit,
//! else `u128` — so that sorting them, the costliest step of building a
//! tree after collecting them, moves and compares as few bytes as it can.
//!
//! From the top, one 5-bit slot per split-order position (0: not on the
//! path, else `letter + 1`); in the low bits, the word (its trie node).
//! Sorting puts the paths of every tree node together: a node is a fixed
//! content of the slots before some position. The word is there only so
//! that a word spelled twice over the same cells counts once; its points
//! follow from the slots (the path's length, Qu counting two letters).

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use super::{OrderlyTree, Reach};
use crate::dict::{points_for_length, QU};

/// Bits of one position's slot.
pub(super) const SLOT_BITS: u32 = 5;
/// Bits that pick a path's bucket (see [`Layout::bucket`]).
pub(super) const BUCKET_BITS: u32 = 2 * SLOT_BITS;

/// An unsigned integer that holds word paths (see the module docs).
pub(super) trait PathKey:
    Copy
    + Ord
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Width in bits.
    const BITS: u32;
    /// The integer `value`.
    fn from_u32(value: u32) -> Self;
    /// The low 32 bits.
    fn low_u32(self) -> u32;
    /// Leading zero bits.
    fn leading_zeros(self) -> u32;
    /// One bits.
    fn count_ones(self) -> u32;
    /// The tree's path buffers of this width (kept to reuse them).
    fn buffers(tree: &mut OrderlyTree) -> &mut Vec<Vec<Self>>;
    /// The tree's collection lists of this width, one per letter for each
    /// depth (kept to reuse them).
    fn reaches(tree: &mut OrderlyTree) -> &mut Vec<[Vec<Reach<Self>>; 26]>;
}

macro_rules! path_key {
    ($int:ty, $buffers:ident, $reaches:ident) => {
        impl PathKey for $int {
            const BITS: u32 = <$int>::BITS;
            #[inline]
            fn from_u32(value: u32) -> Self {
                value as $int
            }
            #[inline]
            fn low_u32(self) -> u32 {
                self as u32
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$int>::leading_zeros(self)
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$int>::count_ones(self)
            }
            fn buffers(tree: &mut OrderlyTree) -> &mut Vec<Vec<Self>> {
                &mut tree.$buffers
            }
            fn reaches(tree: &mut OrderlyTree) -> &mut Vec<[Vec<Reach<Self>>; 26]> {
                &mut tree.$reaches
            }
        }
    };
}

path_key!(u64, paths64, reaches64);
path_key!(u128, paths128, reaches128);

/// Where the slots of `cells` positions sit in a key of type `K`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout<K> {
    /// Every slot's bits.
    slots: K,
    /// The low bit of every slot.
    low_bits: K,
    /// `QU + 1` in every slot.
    qu: K,
}

impl<K: PathKey> Layout<K> {
    /// The layout for `cells` positions (`cells * SLOT_BITS` plus the
    /// word's bits must fit `K`; see [`Layout::fits`]).
    pub(super) fn new(cells: usize) -> Layout<K> {
        let mut layout = Layout {
            slots: K::default(),
            low_bits: K::default(),
            qu: K::default(),
        };
        for position in 0..cells as u32 {
            layout.slots = layout.slots | Self::slot_value(position, 31);
            layout.low_bits = layout.low_bits | Self::slot_value(position, 1);
            layout.qu = layout.qu | Self::slot_value(position, u32::from(QU) + 1);
        }
        layout
    }

    /// Whether paths over `cells` positions with words of `word_bits` fit.
    pub(super) fn fits(cells: usize, word_bits: u32) -> bool {
        SLOT_BITS * cells as u32 + word_bits <= K::BITS
    }

    #[inline]
    fn slot_value(position: u32, value: u32) -> K {
        K::from_u32(value) << (K::BITS - SLOT_BITS * (position + 1))
    }

    /// The slot of `position` holding `letter`, in place.
    #[inline]
    pub(super) fn slot(position: u32, letter: u8) -> K {
        Self::slot_value(position, u32::from(letter) + 1)
    }

    /// The slot of `position` in `key`: 0, or the letter plus one.
    #[inline]
    pub(super) fn slot_of(key: K, position: u32) -> u32 {
        (key >> (K::BITS - SLOT_BITS * (position + 1))).low_u32() & 31
    }

    /// The bucket a path is sorted in: its top [`BUCKET_BITS`] (the first
    /// two slots). Buckets in order, each sorted, are all paths sorted.
    #[inline]
    pub(super) fn bucket(key: K) -> usize {
        (key >> (K::BITS - BUCKET_BITS)).low_u32() as usize
    }

    /// The positions `position..` (their slots' bits).
    #[inline]
    pub(super) fn positions_from(position: u32) -> K {
        !K::default() >> (SLOT_BITS * position)
    }

    /// One bit (the slot's low bit) per position that `key` uses.
    #[inline]
    pub(super) fn used(&self, key: K) -> K {
        let slots = key & self.slots;
        (slots | slots >> 1 | slots >> 2 | slots >> 3 | slots >> 4) & self.low_bits
    }

    /// The first position whose slots differ in `a` and `b`, if any.
    #[inline]
    pub(super) fn first_difference(&self, a: K, b: K) -> Option<u32> {
        let differ = (a ^ b) & self.slots;
        (differ != K::default()).then(|| differ.leading_zeros() / SLOT_BITS)
    }

    /// The word (its trie node).
    #[inline]
    pub(super) fn word(&self, key: K) -> u32 {
        (key & !self.slots).low_u32()
    }

    /// The word's points: from its length, the used slots plus one for
    /// each Qu.
    #[inline]
    pub(super) fn points(&self, key: K) -> u32 {
        let not_qu = (key & self.slots) ^ self.qu;
        let any = not_qu | not_qu >> 1 | not_qu >> 2 | not_qu >> 3 | not_qu >> 4;
        let qu = (!any & self.low_bits).count_ones();
        points_for_length((self.used(key).count_ones() + qu) as usize)
    }
}
