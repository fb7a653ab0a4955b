//! A fuzz harness for any domain: the properties every packed encoding and
//! every instance parser must hold, and a runner that checks a property on
//! edits of valid inputs for a few seconds under `cargo test`.
//!
//! A property takes the raw bytes a fuzzer gives and panics when what it
//! holds is false: a panic is the finding, not an input error. The same
//! function is a cargo-fuzz target's body
//! (`fuzz_target!(|data: &[u8]| my_domain::fuzz::codec(data))`) and a
//! [`Target`] that [`exercise`] runs in a test:
//!
//! ```
//! use frontier_core::fuzz::{exercise, packed_round_trip, Target};
//! use frontier_core::grid::Grid;
//!
//! fn codec(data: &[u8]) {
//!     let maze = Grid::parse("S..\n.#.\n..G").expect("a valid maze");
//!     packed_round_trip(&maze, data);
//! }
//!
//! let target = Target {
//!     name: "grid_codec",
//!     property: codec,
//!     seeds: || vec![vec![0; 8], vec![1, 0, 0, 0, 2, 0, 0, 0]],
//!     alphabet: b"\x00\x01\x02\x03\xff",
//! };
//! let inputs = exercise(&target, std::time::Duration::from_millis(100), 100).unwrap();
//! assert!(inputs >= 100);
//! ```

use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::rng::SplitMix64;
use crate::PackedState;

/// One fuzz target: its property, and what inputs are built from.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The target's name (a cargo-fuzz binary's, by convention).
    pub name: &'static str,
    /// Panics when the property fails for these bytes.
    pub property: fn(&[u8]),
    /// Valid inputs to edit, so that edits reach past the first parse error.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// The bytes the format is made of, favoured by the edits.
    pub alphabet: &'static [u8],
}

/// An input on which a property failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The target.
    pub target: &'static str,
    /// The bytes, to replay or to keep as a regression test.
    pub input: Vec<u8>,
    /// What the property said.
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: the property fails on {:?} ({})",
            self.target,
            String::from_utf8_lossy(&self.input),
            self.message
        )
    }
}

/// One input: a seed (or nothing, one time in sixteen), then up to eight
/// edits, each a byte inserted, removed or replaced (from `alphabet` three
/// times in four, else any byte) or a slice of another seed spliced in.
pub fn edit(rng: &mut SplitMix64, seeds: &[Vec<u8>], alphabet: &[u8]) -> Vec<u8> {
    let pick = |rng: &mut SplitMix64, n: usize| rng.below(n as u64) as usize;
    let mut data = if seeds.is_empty() || rng.below(16) == 0 {
        Vec::new()
    } else {
        seeds[pick(rng, seeds.len())].clone()
    };
    for _ in 0..rng.below(9) {
        let byte = if !alphabet.is_empty() && rng.below(4) != 0 {
            alphabet[pick(rng, alphabet.len())]
        } else {
            rng.next_u64() as u8
        };
        let at = pick(rng, data.len() + 1);
        match rng.below(4) {
            1 if at < data.len() => drop(data.remove(at)),
            2 if at < data.len() => data[at] = byte,
            3 if !seeds.is_empty() => {
                let other = &seeds[pick(rng, seeds.len())];
                let from = pick(rng, other.len() + 1);
                let to = from + pick(rng, other.len() - from + 1);
                data.splice(at..at, other[from..to].iter().copied());
            }
            _ => data.insert(at, byte),
        }
    }
    data
}

/// Checks `target`'s property on its seeds, then on edits of them for
/// `budget` and at least `min_inputs` inputs (seeded by the target's name,
/// so a run repeats). Returns the number of inputs checked, or the first
/// input that failed.
pub fn exercise(target: &Target, budget: Duration, min_inputs: u64) -> Result<u64, Finding> {
    let seeds = (target.seeds)();
    let seed = target
        .name
        .bytes()
        .fold(0xF0221u64, |h, b| h.rotate_left(7) ^ u64::from(b));
    let mut rng = SplitMix64::new(seed);
    let start = Instant::now();
    let mut inputs = 0u64;
    let mut next = seeds.iter().cloned();
    while inputs < min_inputs || start.elapsed() < budget {
        let data = next
            .next()
            .unwrap_or_else(|| edit(&mut rng, &seeds, target.alphabet));
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| (target.property)(&data))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Err(Finding {
                target: target.name,
                input: data,
                message,
            });
        }
        inputs += 1;
    }
    Ok(inputs)
}

/// Bytes from words, little-endian: a seed for a codec property.
pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `domain`'s start state, packed.
pub fn packed_start<D: PackedState>(domain: &D) -> Vec<u32> {
    let mut words = vec![0; domain.packed_words()];
    domain.pack(&domain.start(), &mut words);
    words
}

/// Little-endian words from bytes (a trailing part word is dropped).
pub fn words_of(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The property of every packed encoding, on `domain`'s instance: its start
/// and the start's successors pack and unpack to themselves, and any words
/// (from `data`) either are refused or unpack to a state that packs back
/// to the same words, so that no two word strings mean one state.
pub fn packed_round_trip<D: PackedState>(domain: &D, data: &[u8])
where
    D::State: Debug,
{
    let width = domain.packed_words();
    let mut words = vec![0; width];
    let start = domain.start();
    let mut edges = Vec::new();
    domain.expand(&start, &mut edges);
    for state in std::iter::once(&start).chain(edges.iter().map(|e| &e.state)) {
        domain.pack(state, &mut words);
        match domain.unpack(&words) {
            Ok(back) => assert!(back == *state, "{state:?} unpacks as {back:?}"),
            Err(e) => panic!("{state:?} packs to {words:?}, which is refused: {e}"),
        }
    }
    let mut given = words_of(data);
    given.resize(width, 0);
    if let Ok(state) = domain.unpack(&given) {
        domain.pack(&state, &mut words);
        assert_eq!(words, given, "{state:?} packs to other words");
    }
}

/// The property of every instance parser: any text is parsed or refused
/// without a panic, and what is parsed, printed and parsed again is the
/// same instance.
pub fn text_round_trip<T, E>(
    data: &[u8],
    parse: impl Fn(&str) -> Result<T, E>,
    print: impl Fn(&T) -> String,
) where
    T: PartialEq + Debug,
    E: Debug,
{
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = parse(text) {
        let printed = print(&parsed);
        match parse(&printed) {
            Ok(again) => assert!(
                again == parsed,
                "{text:?} prints as {printed:?}, read as {again:?}"
            ),
            Err(e) => panic!("{text:?} prints as {printed:?}, which is refused: {e:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn maze_codec(data: &[u8]) {
        let maze = Grid::parse("S..\n.#.\n..G").expect("a valid maze");
        packed_round_trip(&maze, data);
    }

    /// A property that is false is found, with the input that breaks it.
    #[test]
    fn a_false_property_is_found_with_its_input() {
        fn no_byte_seven(data: &[u8]) {
            assert!(!data.contains(&7), "a seven");
        }
        let target = Target {
            name: "no_seven",
            property: no_byte_seven,
            seeds: || vec![b"123".to_vec()],
            alphabet: b"0123456789",
        };
        let finding = exercise(&target, Duration::ZERO, 10_000).unwrap_err();
        assert!(finding.input.contains(&7), "{finding}");
        assert_eq!(finding.message, "a seven");
    }

    #[test]
    fn the_maze_codec_holds() {
        let target = Target {
            name: "maze_codec",
            property: maze_codec,
            seeds: || vec![vec![0; 8], vec![4, 0, 0, 0, 0, 0, 0, 0]],
            alphabet: b"\x00\x01\x02\x03\x04\xff",
        };
        assert!(exercise(&target, Duration::from_millis(200), 500).unwrap() >= 500);
    }

    /// A parser whose printing loses information breaks the text property.
    #[test]
    fn a_lossy_printer_breaks_the_text_round_trip() {
        let lossy = std::panic::catch_unwind(|| {
            text_round_trip(b"12", |t| t.parse::<u32>(), |n| (n / 10).to_string())
        });
        assert!(lossy.is_err());
        text_round_trip(b"12", |t| t.parse::<u32>(), |n| n.to_string());
    }
}
