//! The dictionary as a popcount trie: one 8-byte node per prefix, children
//! of a node stored together and found by counting bits, so the whole of
//! ENABLE2K fits in about 3 MB and stays in cache while scoring.
//!
//! Node layout (two little-endian `u32`):
//! - `info`: bits 0..26 say which letters have a child; bits 26..30 hold
//!   the word's points (0 = the prefix is not a word).
//! - `first`: index of the first child; the child for letter `l` is
//!   `first + popcount(info & ((1 << l) - 1))`.
//!
//! Children sit contiguously and subtrees in depth-first order, so a walk
//! down one word touches nearby memory. The same array is the on-disk cache
//! format (a 32-byte header, then the nodes) and the GPU's copy.

use std::hash::BuildHasher;
use std::path::Path;

use crate::dict::{points, WordList};
use crate::BoggleError;

/// Bits of `info` that mark child letters.
pub const LETTER_BITS: u32 = (1 << 26) - 1;
/// Shift of the points field in `info`.
pub const POINTS_SHIFT: u32 = 26;

/// One trie node (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    /// Child letters and points.
    pub info: u32,
    /// Index of the first child.
    pub first: u32,
}

impl Node {
    /// Points of the word ending here (0: not a word).
    #[inline]
    pub fn points(self) -> u32 {
        self.info >> POINTS_SHIFT
    }
    /// Whether any longer word continues this prefix.
    #[inline]
    pub fn has_children(self) -> bool {
        self.info & LETTER_BITS != 0
    }
    /// The child for `letter`, if any.
    #[inline]
    pub fn child(self, letter: u8) -> Option<u32> {
        let bit = 1u32 << letter;
        (self.info & bit != 0).then(|| self.first + (self.info & (bit - 1)).count_ones())
    }
}

enum Storage {
    Owned(Vec<Node>),
    Mapped(memmap2::Mmap),
}

/// The dictionary trie; root is node 0.
pub struct Trie {
    storage: Storage,
    words: u32,
}

const MAGIC: &[u8; 8] = b"FBTRIE01";
const HEADER: usize = 32;

impl Trie {
    /// Builds the trie of a word list.
    pub fn build(list: &WordList) -> Trie {
        let mut nodes = vec![Node::default()];
        build_children(&list.words, 0, 0, &mut nodes);
        Trie {
            storage: Storage::Owned(nodes),
            words: list.words.len() as u32,
        }
    }

    /// The nodes, root first.
    #[inline]
    pub fn nodes(&self) -> &[Node] {
        match &self.storage {
            Storage::Owned(nodes) => nodes,
            Storage::Mapped(map) => {
                // SAFETY: `Node` is two u32s with no invalid bit patterns;
                // `open_cache` checked that the mapping (page aligned) holds
                // a whole number of nodes after the 32-byte header, so the
                // aligned middle is the entire node area.
                let (_, nodes, _) = unsafe { map[HEADER..].align_to::<Node>() };
                nodes
            }
        }
    }

    /// Number of words.
    pub fn words(&self) -> u32 {
        self.words
    }

    /// Whether the nodes are memory-mapped from a cache file.
    pub fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Mapped(_))
    }

    /// The node reached by spelling `word` (stored letters), if it is a prefix.
    pub fn find(&self, word: &[u8]) -> Option<u32> {
        let nodes = self.nodes();
        word.iter()
            .try_fold(0u32, |at, &l| nodes[at as usize].child(l))
    }

    /// Whether `word` (stored letters) is in the dictionary.
    pub fn contains(&self, word: &[u8]) -> bool {
        self.find(word)
            .is_some_and(|n| self.nodes()[n as usize].points() > 0)
    }

    /// Loads `path` through the cache: a trie built before from a list with
    /// the same bytes is memory-mapped; otherwise the list is parsed, the
    /// trie built and the cache written (failures to write only cost time).
    /// Returns the trie and the list's summary line.
    pub fn load(path: &Path) -> Result<(Trie, String), BoggleError> {
        Trie::load_in(path, &frontier_core::cache_dir("boggle"))
    }

    /// [`Trie::load`] with the cache in `cache_dir`.
    pub fn load_in(path: &Path, cache_dir: &Path) -> Result<(Trie, String), BoggleError> {
        let bytes = std::fs::read(path).map_err(|source| BoggleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let key = foldhash::fast::FixedState::with_seed(0x626F_6767_6C65).hash_one(&bytes[..]);
        let cache = cache_dir.join(format!("{key:016x}.trie"));
        if let Some(trie) = open_cache(&cache, key) {
            let summary = format!("{} words (mapped from {})", trie.words, cache.display());
            return Ok((trie, summary));
        }
        let list = WordList::parse(&bytes);
        if list.words.is_empty() {
            return Err(BoggleError::EmptyDictionary {
                path: path.to_path_buf(),
                summary: list.summary(),
            });
        }
        let trie = Trie::build(&list);
        if let Err(e) = trie.write_cache(&cache, key) {
            tracing::warn!(
                "dictionary not cached ({}: {e}); going on without the cache",
                cache.display()
            );
        }
        Ok((trie, list.summary()))
    }

    fn write_cache(&self, path: &Path, key: u64) -> std::io::Result<()> {
        let nodes = self.nodes();
        let mut out = Vec::with_capacity(HEADER + nodes.len() * 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&(nodes.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.words.to_le_bytes());
        let body_at = out.len();
        out.extend_from_slice(&[0; 8]);
        for node in nodes {
            out.extend_from_slice(&node.info.to_le_bytes());
            out.extend_from_slice(&node.first.to_le_bytes());
        }
        let sum = checksum(&out[HEADER..]);
        out[body_at..body_at + 8].copy_from_slice(&sum.to_le_bytes());
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        frontier_core::files::write_atomic(path, &out)
    }
}

fn checksum(bytes: &[u8]) -> u64 {
    foldhash::fast::FixedState::with_seed(0x7472_6965).hash_one(bytes)
}

/// Maps a cache file if it is whole and belongs to `key`; a bad file is
/// treated as missing (and rewritten by the caller).
fn open_cache(path: &Path, key: u64) -> Option<Trie> {
    if cfg!(target_endian = "big") {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    // SAFETY: the cache is written whole under a temporary name and renamed
    // into place, so a mapped file is never written to while mapped by us.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    let word = |at: usize| u32::from_le_bytes([map[at], map[at + 1], map[at + 2], map[at + 3]]);
    if map.len() < HEADER || &map[..8] != MAGIC || map[8..16] != key.to_le_bytes() {
        return None;
    }
    let count = word(16) as usize;
    let words = word(20);
    let sum = u64::from_le_bytes(map[24..32].try_into().ok()?);
    if count == 0 || map.len() != HEADER + count * 8 || checksum(&map[HEADER..]) != sum {
        return None;
    }
    let trie = Trie {
        storage: Storage::Mapped(map),
        words,
    };
    // Every child index must stay inside the array.
    let nodes = trie.nodes();
    let sound = nodes.len() == count
        && nodes.iter().all(|n| {
            !n.has_children()
                || (n.first as usize + (n.info & LETTER_BITS).count_ones() as usize) <= count
        });
    sound.then_some(trie)
}

/// Lays out the children of the node at `at`, whose words all share their
/// first `depth` letters, then recurses into each child.
fn build_children(words: &[Vec<u8>], depth: usize, at: usize, nodes: &mut Vec<Node>) {
    let mut groups: Vec<(u8, &[Vec<u8>])> = Vec::new();
    let mut rest = words;
    while let Some(first) = rest.first() {
        if first.len() == depth {
            rest = &rest[1..];
            continue;
        }
        let letter = first[depth];
        let end = rest
            .iter()
            .position(|w| w.len() <= depth || w[depth] != letter)
            .unwrap_or(rest.len());
        groups.push((letter, &rest[..end]));
        rest = &rest[end..];
    }
    let first = nodes.len();
    let mut info = nodes[at].info;
    for &(letter, group) in &groups {
        info |= 1 << letter;
        let word_here = group[0].len() == depth + 1;
        let points = if word_here { points(&group[0]) } else { 0 };
        nodes.push(Node {
            info: points << POINTS_SHIFT,
            first: 0,
        });
    }
    nodes[at] = Node {
        info,
        first: first as u32,
    };
    for (i, &(_, group)) in groups.iter().enumerate() {
        build_children(group, depth + 1, first + i, nodes);
    }
}
