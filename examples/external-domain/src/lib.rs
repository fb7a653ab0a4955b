//! TopSpin: `n` tokens on a ring, and a turnstile that reverses any `k`
//! consecutive ones (Felner et al., "Compressed pattern databases"). The
//! goal is `0 1 … n-1` in place; every move costs 1.
//!
//! The whole domain is the two frontier-core traits ([`Domain`],
//! [`Heuristic`]), a packed encoding for MPI and the fuzz harness
//! ([`PackedState`]), and the command line's [`Plugin`] (`cli.rs`).

pub mod cli;
pub mod fuzz;

use frontier_core::{CodecError, Cost, Domain, Edge, Heuristic, PackedState};

/// One puzzle: ring size, turnstile width, start permutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopSpin {
    /// Tokens per turn of the turnstile.
    pub k: usize,
    start: Vec<u8>,
}

/// Why a text is not a TopSpin instance.
#[derive(Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The most tokens on a ring: a token is a byte, and a packed state one
/// byte per token.
pub const MAX_TOKENS: usize = 64;

impl TopSpin {
    /// `start` is a permutation of `0..n`, `k` the turnstile width
    /// (2 ≤ k ≤ n ≤ [`MAX_TOKENS`]).
    pub fn new(start: Vec<u8>, k: usize) -> Result<TopSpin, ParseError> {
        let n = start.len();
        if !(2..=MAX_TOKENS).contains(&n) {
            return Err(ParseError(format!("{n} tokens: give 2 to {MAX_TOKENS}")));
        }
        if !(2..=n).contains(&k) {
            return Err(ParseError(format!("turnstile of {k}: give 2 to {n}")));
        }
        let mut seen = vec![false; n];
        for &t in &start {
            match seen.get_mut(t as usize) {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(ParseError(format!(
                        "not a permutation of 0..{n}: token {t}"
                    )))
                }
            }
        }
        Ok(TopSpin { k, start })
    }

    /// Tokens separated by spaces or commas (`"3 0 1 2 4"`).
    pub fn parse(text: &str, k: usize) -> Result<TopSpin, ParseError> {
        let tokens = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u8>()
                    .map_err(|_| ParseError(format!("'{t}' is not a token number")))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        TopSpin::new(tokens, k)
    }

    /// The start as `parse` reads it.
    pub fn text(&self) -> String {
        let tokens: Vec<String> = self.start.iter().map(u8::to_string).collect();
        tokens.join(" ")
    }

    /// A start `moves` random turns away from the goal (so solvable).
    pub fn scrambled(
        n: usize,
        k: usize,
        moves: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<TopSpin, ParseError> {
        let mut puzzle = TopSpin::new((0..n as u8).collect(), k)?;
        for _ in 0..moves {
            let at = rng.below(n as u64) as usize;
            puzzle.start = puzzle.turned(&puzzle.start, at);
        }
        Ok(puzzle)
    }

    /// `state` with the `k` tokens from position `at` (around the ring)
    /// reversed.
    pub fn turned(&self, state: &[u8], at: usize) -> Vec<u8> {
        let n = state.len();
        let mut next = state.to_vec();
        for i in 0..self.k {
            next[(at + i) % n] = state[(at + self.k - 1 - i) % n];
        }
        next
    }

    /// Replays `moves` from the start: the state they reach.
    pub fn replay(&self, moves: &[usize]) -> Vec<u8> {
        moves
            .iter()
            .fold(self.start.clone(), |s, &at| self.turned(&s, at))
    }
}

impl Domain for TopSpin {
    type State = Vec<u8>;
    /// The position the turn starts at.
    type Move = usize;

    fn start(&self) -> Vec<u8> {
        self.start.clone()
    }

    fn expand(&self, state: &Vec<u8>, out: &mut Vec<Edge<Vec<u8>, usize>>) {
        for at in 0..state.len() {
            out.push(Edge {
                state: self.turned(state, at),
                mv: at,
                cost: 1,
            });
        }
    }

    fn is_goal(&self, state: &Vec<u8>) -> bool {
        state.iter().enumerate().all(|(i, &t)| t as usize == i)
    }
}

/// Breakpoints: neighbours on the ring that are not consecutive tokens
/// (`n-1` next to `0` counts as consecutive), halved and rounded up.
///
/// Admissible and consistent: a turn changes only the two adjacencies at
/// the ends of its window (those inside are reversed, not broken), so it
/// removes at most two breakpoints and h falls by at most 1 per move; the
/// goal has none.
pub struct Breakpoints;

impl Heuristic<TopSpin> for Breakpoints {
    fn h(&self, _: &TopSpin, state: &Vec<u8>) -> Cost {
        let n = state.len();
        let broken = (0..n)
            .filter(|&i| {
                let (a, b) = (state[i] as usize, state[(i + 1) % n] as usize);
                (a + 1) % n != b && (b + 1) % n != a
            })
            .count();
        broken.div_ceil(2) as Cost
    }

    fn consistent(&self) -> bool {
        true
    }
}

impl PackedState for TopSpin {
    fn packed_words(&self) -> usize {
        self.start.len().div_ceil(4)
    }

    fn pack(&self, state: &Vec<u8>, out: &mut [u32]) {
        out.fill(0);
        for (i, &t) in state.iter().enumerate() {
            out[i / 4] |= u32::from(t) << (8 * (i % 4));
        }
    }

    fn unpack(&self, words: &[u32]) -> Result<Vec<u8>, CodecError> {
        let n = self.start.len();
        if words.len() != self.packed_words() {
            return Err(CodecError::Length {
                expected: self.packed_words(),
                got: words.len(),
            });
        }
        let state: Vec<u8> = (0..n)
            .map(|i| (words[i / 4] >> (8 * (i % 4))) as u8)
            .collect();
        // Bytes past the last token must be zero, or two word strings
        // would decode to one state.
        let spare = (n..words.len() * 4).any(|i| (words[i / 4] >> (8 * (i % 4))) as u8 != 0);
        if spare || TopSpin::new(state.clone(), self.k).is_err() {
            return Err(CodecError::Invalid(
                "not a permutation of the ring's tokens".into(),
            ));
        }
        Ok(state)
    }
}
