//! Wordle as a [`DecisionProblem`]: a state is the set of answers still
//! possible, an action a guess, its cost one guess for every answer in the
//! state, its outcomes the candidate sets of each feedback other than
//! all-green. The optimum of the full answer set is the fewest guesses in
//! total over all answers.
//!
//! Hard mode ([`HardWordleTree`]) is the same problem on states that also
//! carry what the feedback revealed ([`Revealed`]), since that decides which
//! guesses the game's rule allows.

use frontier_core::decision::DecisionProblem;
use frontier_core::Cost;
use rayon::prelude::*;

use crate::game::{FeedbackTable, ALL_GREEN};
use crate::words::Word;

/// The decision problem over a feedback table.
pub struct WordleTree<'t> {
    table: &'t FeedbackTable,
    /// Rank guesses on all cores (off when the caller is already parallel).
    parallel: bool,
    /// The lower bound for each number of candidates (see `bound`).
    bounds: Vec<Cost>,
    /// In states of at most this many answers every class's bound is
    /// 2k − 1, so a guess's bound needs only its number of classes.
    linear_up_to: usize,
    /// The feedback table answer-major (a row of every guess per answer),
    /// so that the executor's inner loop streams it instead of touching one
    /// cache line per code.
    by_answer: Vec<u8>,
    /// Every guess index, for the callers that rank them all.
    every_guess: Vec<u32>,
    /// Each guess as hard mode's rule reads it (see [`HardRule`]).
    shapes: Vec<Shape>,
}

impl<'t> WordleTree<'t> {
    /// The problem for `table`; guesses are ranked on all cores.
    pub fn new(table: &'t FeedbackTable) -> Self {
        let mut seen = [false; 243];
        for &code in table.codes() {
            seen[code as usize] = true;
        }
        seen[ALL_GREEN as usize] = false;
        let outcomes = seen.iter().filter(|&&s| s).count().max(1);
        let bounds = (0..=table.answers.len())
            .map(|n| bound(n, outcomes))
            .collect();
        WordleTree {
            table,
            parallel: true,
            bounds,
            linear_up_to: outcomes + 1,
            by_answer: transpose(table),
            every_guess: (0..table.guesses.len() as u32).collect(),
            shapes: table.guesses.iter().map(|&g| Shape::of(g)).collect(),
        }
    }

    /// The same problem ranking guesses on the calling thread only, for
    /// callers that run one search per core.
    pub fn sequential(mut self) -> Self {
        self.parallel = false;
        self
    }

    /// Every first guess over the whole answer set with its bound, most
    /// promising first: the order a sweep should take them in.
    pub fn first_guesses(&self) -> Vec<(usize, Cost)> {
        let all: Vec<u32> = (0..self.table.answers.len() as u32).collect();
        self.actions(&all)
    }

    fn bound(&self, n: usize) -> Cost {
        self.bounds[n]
    }

    /// Bound of a tree that starts with guess `g` in `state`, and whether
    /// `g` can win at once; `None` when `g` tells no candidate apart or,
    /// with `limits.left == 2`, leaves two candidates together. For states
    /// too large for [`Self::block_bounds`].
    fn guess_bound(&self, state: &[u32], g: usize, limits: Limits) -> Option<(Cost, bool)> {
        let row = self.table.row(g);
        let n = state.len();
        let mut counts = [0u32; 243];
        let (mut touched, mut used) = ([0u8; 243], 0usize);
        for &a in state {
            let code = row[a as usize];
            if counts[code as usize] == 0 {
                touched[used] = code;
                used += 1;
            }
            counts[code as usize] += 1;
        }
        let wins = counts[ALL_GREEN as usize] > 0;
        if (!wins && used == 1) || (limits.left == 2 && used < n) {
            return None;
        }
        let after: Cost = touched[..used]
            .iter()
            .filter(|&&code| code != ALL_GREEN)
            .map(|&code| self.bound(counts[code as usize] as usize))
            .sum();
        Some((n as Cost + after, wins))
    }

    /// Bounds of the guesses `ids` (at most [`BLOCK`]) in a state of at most
    /// `linear_up_to` answers, pushed as (bound, cannot win, guess). With
    /// `limits.shortcut`, stops at a guess that is optimal by the argument
    /// below and returns it, leaving the rest of the block unscored. Each
    /// guess's classes are a 243-bit set.
    fn block_bounds(
        &self,
        state: &[u32],
        ids: &[u32],
        limits: Limits,
        scored: &mut Vec<(Cost, bool, usize)>,
    ) -> Option<usize> {
        let guesses = self.table.guesses.len();
        let mut seen = [[0u64; 4]; BLOCK];
        // Each answer's row of codes is read where the ids point: in hard
        // mode only the allowed guesses, often a small part of the list.
        let mark =
            |bits: &mut [u64; 4], code: u8| bits[(code >> 6) as usize] |= 1u64 << (code & 63);
        match (ids.first(), ids.last()) {
            // A run of consecutive guesses (every guess allowed) streams a
            // slice of the row, which is faster than looking each one up.
            (Some(&low), Some(&high)) if (high - low) as usize + 1 == ids.len() => {
                for &a in state {
                    let start = a as usize * guesses + low as usize;
                    let codes = &self.by_answer[start..start + ids.len()];
                    for (bits, &code) in seen.iter_mut().zip(codes) {
                        mark(bits, code);
                    }
                }
            }
            _ => {
                for &a in state {
                    let row = &self.by_answer[a as usize * guesses..(a as usize + 1) * guesses];
                    for (bits, &g) in seen.iter_mut().zip(ids) {
                        mark(bits, row[g as usize]);
                    }
                }
            }
        }
        let n = state.len();
        let green = (ALL_GREEN >> 6) as usize;
        let green_bit = 1u64 << (ALL_GREEN & 63);
        for (bits, &g) in seen.iter().zip(ids) {
            let g = g as usize;
            let classes: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
            let wins = bits[green] & green_bit != 0;
            if !wins && classes == 1 {
                continue;
            }
            // With two guesses left, a class of two or more answers has one
            // guess to find them all: no tree through `g` exists.
            if limits.left == 2 && classes < n {
                continue;
            }
            // Σ (2k − 1) over the classes other than all-green.
            let (lost, others) = (n - usize::from(wins), classes - usize::from(wins));
            let cost = (n + 2 * lost - others) as Cost;
            // The caller found no candidate that tells all the others
            // apart, so every tree costs at least 2n (see `actions_among`).
            // A bound of 2n is then reached in one of two ways, and each
            // is a real tree of exactly 2n:
            // - `g` is no candidate and leaves every answer alone (cost
            //   3n − classes ≤ 2n ⇔ classes = n): each is guessed next;
            //   two guesses deep;
            // - `g` is a candidate and leaves one pair besides lone answers
            //   (cost 3n − 1 − classes ≤ 2n ⇔ classes = n − 1): the pair
            //   costs 3 (guess one, then the other); three guesses deep.
            // Both finish by guessing candidates, which hard mode allows
            // and `limits.shortcut` says can be guessed; the depth must fit
            // the guesses left.
            if limits.shortcut && cost <= 2 * n as Cost {
                let depth = if wins { 3 } else { 2 };
                if depth <= limits.left {
                    return Some(g);
                }
            }
            scored.push((cost, !wins, g));
        }
        None
    }

    /// The splitting guesses among `allowed` (guess indices, ascending),
    /// most promising first (see [`DecisionProblem::actions`]), for a state
    /// with `left` guesses left (`u8::MAX`: no limit). In hard mode every
    /// candidate is among `allowed`: it agrees with all feedback so far.
    ///
    /// Every shortcut that returns a single guess claims that guess is
    /// optimal; each says below why, and under which limit it holds.
    fn actions_among(&self, state: &[u32], allowed: &[u32], left: u8) -> Vec<(usize, Cost)> {
        let n = state.len();
        // No guess left, or one guess for two answers or more: no tree.
        if left == 0 || (left == 1 && n > 1) {
            return Vec::new();
        }
        // The shortcuts finish by guessing lone candidates: only when every
        // candidate may be guessed (the CLI adds the answers to the guesses;
        // a library caller need not).
        let finishable = state
            .iter()
            .all(|&a| self.table.guess_index_of_answer(a as usize).is_some());
        // A candidate that tells all the others apart costs n + (n − 1) =
        // 2n − 1, which is `bound(n)` whenever such a candidate can exist
        // (n ≤ outcomes + 1), so it is optimal. Its tree is two guesses deep
        // (one when n = 1), and `left` ≥ 2 here unless n = 1.
        if finishable {
            for &a in state {
                let Some(g) = self.table.guess_index_of_answer(a as usize) else {
                    continue;
                };
                let row = self.table.row(g);
                let mut seen = [false; 243];
                if state
                    .iter()
                    .all(|&b| !std::mem::replace(&mut seen[row[b as usize] as usize], true))
                {
                    return vec![(g, self.bound(n))];
                }
            }
        }
        // No candidate tells the others apart, so every tree costs at least
        // 2n: a first guess that is a candidate leaves a class of two or
        // more, which costs at least 2k − 1 ≥ k + 1 (n + (n − 1) + 1); one
        // that is not pays n now and at least one guess per answer after.
        // `block_bounds` stops at a guess that reaches 2n, where that is a
        // real tree within `left`.
        let limits = Limits {
            left,
            shortcut: finishable,
        };
        let linear = n <= self.linear_up_to;
        let scored: Vec<(Cost, bool, usize)> = if !self.parallel || n <= 32 {
            let mut scored = Vec::with_capacity(allowed.len());
            if linear {
                for ids in allowed.chunks(BLOCK) {
                    if let Some(g) = self.block_bounds(state, ids, limits, &mut scored) {
                        return vec![(g, 2 * n as Cost)];
                    }
                }
            } else {
                scored.extend(allowed.iter().filter_map(|&g| {
                    self.guess_bound(state, g as usize, limits)
                        .map(|(cost, wins)| (cost, !wins, g as usize))
                }));
            }
            scored
        } else if linear {
            // No early stop here: every guess of every block is scored (a
            // block that stopped early would drop the rest of its guesses),
            // and the sort puts a 2n guess first, where the executor stops
            // at it.
            let every = Limits {
                shortcut: false,
                ..limits
            };
            allowed
                .par_chunks(BLOCK)
                .with_min_len(4)
                .flat_map_iter(|ids| {
                    let mut scored = Vec::with_capacity(BLOCK);
                    let _ = self.block_bounds(state, ids, every, &mut scored);
                    scored
                })
                .collect()
        } else {
            allowed
                .par_iter()
                .with_min_len(256)
                .filter_map(|&g| {
                    self.guess_bound(state, g as usize, limits)
                        .map(|(cost, wins)| (cost, !wins, g as usize))
                })
                .collect()
        };
        by_bound(scored)
    }

    fn split(&self, state: &[u32], g: usize) -> Vec<(u8, Vec<u32>)> {
        let row = self.table.row(g);
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); 243];
        for &a in state {
            groups[row[a as usize] as usize].push(a);
        }
        groups
            .into_iter()
            .enumerate()
            .filter(|(code, group)| *code != ALL_GREEN as usize && !group.is_empty())
            .map(|(code, group)| (code as u8, group))
            .collect()
    }
}

/// Lower bound for `n` candidates when a guess has `outcomes` feedback codes
/// other than all-green: each answer costs the depth at which it is found,
/// and each depth holds few answers — one found by the next guess, then at
/// most one per outcome of it, and so on.
fn bound(n: usize, outcomes: usize) -> Cost {
    let (mut left, mut room, mut depth, mut total) = (n as u64, 1u64, 1u64, 0u64);
    while left > 0 {
        let here = left.min(room);
        total += here * depth;
        left -= here;
        room = room.saturating_mul(outcomes as u64);
        depth += 1;
    }
    total.min(u64::from(Cost::MAX)) as Cost
}

/// Guesses scored together by [`WordleTree::block_bounds`].
const BLOCK: usize = 64;

/// What the guess limit allows a state's ranking to assume.
#[derive(Clone, Copy)]
struct Limits {
    /// Guesses left, this one included (`u8::MAX`: no limit).
    left: u8,
    /// Whether a guess may be returned alone as optimal (every candidate
    /// can be guessed, and the caller wants no complete list).
    shortcut: bool,
}

/// Guesses sorted by (bound, cannot win, index), as the executor wants
/// them. Bounds span a narrow range, so a counting sort does it in linear
/// time; sorting 12972 entries per state was a third of a proof's time.
fn by_bound(scored: Vec<(Cost, bool, usize)>) -> Vec<(usize, Cost)> {
    let Some(low) = scored.iter().map(|s| s.0).min() else {
        return Vec::new();
    };
    let high = scored.iter().map(|s| s.0).max().unwrap_or(low);
    let span = (high - low) as usize + 1;
    if span > 4 * scored.len() + 64 {
        let mut scored = scored;
        scored.sort_unstable();
        return scored.into_iter().map(|(cost, _, g)| (g, cost)).collect();
    }
    let key =
        |&(cost, loses, _): &(Cost, bool, usize)| 2 * (cost - low) as usize + usize::from(loses);
    let mut starts = vec![0usize; 2 * span + 1];
    for s in &scored {
        starts[key(s) + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut sorted = vec![(0usize, 0 as Cost); scored.len()];
    // Guesses arrive in index order, so placing them in turn keeps ties
    // in index order, as the sort did.
    for s in &scored {
        let slot = &mut starts[key(s)];
        sorted[*slot] = (s.2, s.0);
        *slot += 1;
    }
    sorted
}

/// The table answer-major: `codes[a * guesses + g]`.
fn transpose(table: &FeedbackTable) -> Vec<u8> {
    let guesses = table.guesses.len();
    let mut codes = vec![0u8; guesses * table.answers.len()];
    codes
        .par_chunks_mut(guesses.max(1))
        .enumerate()
        .for_each(|(a, row)| {
            for (g, slot) in row.iter_mut().enumerate() {
                *slot = table.get(g, a);
            }
        });
    codes
}

impl DecisionProblem for WordleTree<'_> {
    type State = Vec<u32>;
    type Action = usize;
    /// The feedback code.
    type Outcome = u8;

    /// Every guess that splits the state, most promising first: the fewest
    /// guesses by the bound after it, then candidates before others.
    fn actions(&self, state: &Vec<u32>) -> Vec<(usize, Cost)> {
        self.actions_among(state, &self.every_guess, u8::MAX)
    }

    fn apply(&self, state: &Vec<u32>, g: &usize) -> (Cost, Vec<(u8, Vec<u32>)>) {
        (state.len() as Cost, self.split(state, *g))
    }

    fn lower_bound(&self, state: &Vec<u32>) -> Cost {
        self.bound(state.len())
    }
}

/// What feedback has revealed, as hard mode's rule needs it: the letter
/// fixed on each cell by a green, and how many of each letter a guess must
/// hold (the most any one feedback marked green or yellow). The rule over a
/// whole history is the rule of this summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Revealed {
    /// Letter + 1 on each cell known green, 0 elsewhere.
    greens: [u8; 5],
    /// Least count of each letter in an allowed guess.
    need: [u8; 26],
}

impl Revealed {
    /// This knowledge after `guess` was answered with feedback `code`.
    pub fn with(&self, guess: Word, code: u8) -> Revealed {
        let mut next = *self;
        let mut marked = [0u8; 26];
        let mut code = code;
        for (cell, &letter) in guess.0.iter().enumerate() {
            let colour = code % 3;
            code /= 3;
            if colour == 2 {
                next.greens[cell] = letter + 1;
            }
            if colour > 0 {
                marked[letter as usize] += 1;
            }
        }
        for (need, marked) in next.need.iter_mut().zip(marked) {
            *need = (*need).max(marked);
        }
        next
    }

    /// Whether hard mode allows `guess`: greens kept, every revealed letter
    /// used as often as it was revealed ([`HardRule`], checked against the
    /// rule over a whole history, `hard_mode_allows`, in the tests).
    pub fn allows(&self, guess: Word) -> bool {
        self.rule().allows(&Shape::of(guess))
    }

    /// The same rule in a form checked with a few word operations per
    /// guess (a state's allowed guesses are listed from all of them).
    pub fn rule(&self) -> HardRule {
        let mut rule = HardRule::default();
        for (cell, &green) in self.greens.iter().enumerate() {
            if green != 0 {
                rule.green_mask |= 31 << (5 * cell);
                rule.green_letters |= u32::from(green - 1) << (5 * cell);
            }
        }
        for (letter, &need) in self.need.iter().enumerate() {
            rule.need |= u128::from(need.min(7)) << (4 * letter);
        }
        rule
    }

    /// True before any feedback.
    fn is_empty(&self) -> bool {
        *self == Revealed::default()
    }
}

/// A guess as [`HardRule`] reads it: its letters five bits a cell, and its
/// count of each letter four bits a letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    letters: u32,
    counts: u128,
}

impl Shape {
    /// The shape of `word`.
    pub fn of(word: Word) -> Shape {
        let mut shape = Shape {
            letters: 0,
            counts: 0,
        };
        for (cell, &letter) in word.0.iter().enumerate() {
            shape.letters |= u32::from(letter) << (5 * cell);
            shape.counts += 1u128 << (4 * letter as usize);
        }
        shape
    }
}

/// [`Revealed::allows`] as masks: the green cells' letters, and the least
/// count of each letter, four bits a letter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HardRule {
    green_mask: u32,
    green_letters: u32,
    need: u128,
}

/// The top bit of each of the 26 four-bit letter counts.
const COUNT_TOPS: u128 = 0x0088_8888_8888_8888_8888_8888_8888_u128;

impl HardRule {
    /// Whether hard mode allows a guess of this shape: its green cells
    /// hold their letters, and each letter's count is at least the need.
    /// Counts are at most 5 (7 for a need, capped), so each four-bit field
    /// of `counts | tops` minus `need` stays at or above 1 and borrows from
    /// no neighbour; its top bit stays set exactly where count ≥ need.
    #[inline]
    pub fn allows(&self, shape: &Shape) -> bool {
        shape.letters & self.green_mask == self.green_letters
            && ((shape.counts | COUNT_TOPS) - self.need) & COUNT_TOPS == COUNT_TOPS
    }
}

/// A hard-mode state: the candidates, what feedback revealed, and how
/// many guesses are left.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HardState {
    /// Answers still possible.
    pub candidates: Vec<u32>,
    /// The rule's memory of the feedback so far.
    pub revealed: Revealed,
    /// Guesses left, `u8::MAX` for no limit.
    pub left: u8,
}

impl HardState {
    /// The start of a game: every answer possible, nothing revealed,
    /// `max_guesses` to find each answer (`None`: no limit; the game's is 6).
    pub fn start(table: &FeedbackTable, max_guesses: Option<u8>) -> HardState {
        HardState {
            candidates: (0..table.answers.len() as u32).collect(),
            revealed: Revealed::default(),
            left: max_guesses.unwrap_or(u8::MAX),
        }
    }
}

/// Wordle in hard mode as a [`DecisionProblem`]: [`WordleTree`]'s bounds
/// and splits, with only the guesses the rule allows in each state.
pub struct HardWordleTree<'t>(WordleTree<'t>);

impl<'t> HardWordleTree<'t> {
    /// The hard-mode problem for `table`; guesses are ranked on all cores.
    pub fn new(table: &'t FeedbackTable) -> Self {
        HardWordleTree(WordleTree::new(table))
    }

    /// Ranking on the calling thread only (see [`WordleTree::sequential`]).
    pub fn sequential(self) -> Self {
        HardWordleTree(self.0.sequential())
    }
}

impl DecisionProblem for HardWordleTree<'_> {
    type State = HardState;
    type Action = usize;
    /// The feedback code.
    type Outcome = u8;

    fn actions(&self, state: &HardState) -> Vec<(usize, Cost)> {
        // `actions_among` takes the guesses left into account: its
        // shortcuts are taken only where their trees fit the limit, and
        // with two left it lists only guesses that leave lone answers.
        if state.revealed.is_empty() {
            return self
                .0
                .actions_among(&state.candidates, &self.0.every_guess, state.left);
        }
        let rule = state.revealed.rule();
        let allowed: Vec<u32> = self
            .0
            .shapes
            .iter()
            .zip(0u32..)
            .filter(|(shape, _)| rule.allows(shape))
            .map(|(_, g)| g)
            .collect();
        self.0
            .actions_among(&state.candidates, &allowed, state.left)
    }

    fn apply(&self, state: &HardState, g: &usize) -> (Cost, Vec<(u8, HardState)>) {
        let guess = self.0.table.guesses[*g];
        let children = self
            .0
            .split(&state.candidates, *g)
            .into_iter()
            .map(|(code, candidates)| {
                let revealed = state.revealed.with(guess, code);
                let left = if state.left == u8::MAX {
                    u8::MAX
                } else {
                    state.left.saturating_sub(1)
                };
                (
                    code,
                    HardState {
                        candidates,
                        revealed,
                        left,
                    },
                )
            })
            .collect();
        (state.candidates.len() as Cost, children)
    }

    fn lower_bound(&self, state: &HardState) -> Cost {
        self.0.bound(state.candidates.len())
    }
}
