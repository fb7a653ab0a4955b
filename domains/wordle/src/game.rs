//! Feedback, the feedback table, guess ranking and the greedy simulator.

use rayon::prelude::*;

use crate::words::Word;
use crate::WordleError;

/// The code of five greens.
pub const ALL_GREEN: u8 = 242;

/// Wordle's feedback for `guess` against `answer` as a base-3 code: digit
/// `i` (weight 3^i) is 2 for green, 1 for yellow, 0 for grey. Greens are
/// marked first; then, left to right, a letter is yellow while the answer
/// still has an unmatched copy of it.
pub fn feedback(guess: Word, answer: Word) -> u8 {
    let (g, a) = (guess.0, answer.0);
    let mut unmatched = [0u8; 26];
    let mut colour = [0u8; 5];
    for i in 0..5 {
        if g[i] == a[i] {
            colour[i] = 2;
        } else {
            unmatched[a[i] as usize] += 1;
        }
    }
    for i in 0..5 {
        if colour[i] == 0 && unmatched[g[i] as usize] > 0 {
            unmatched[g[i] as usize] -= 1;
            colour[i] = 1;
        }
    }
    colour.iter().rev().fold(0, |code, &c| code * 3 + c)
}

/// A code as text: `g` green, `y` yellow, `.` grey.
pub fn pattern(code: u8) -> String {
    let mut code = code;
    (0..5)
        .map(|_| {
            let c = code % 3;
            code /= 3;
            ['.', 'y', 'g'][c as usize]
        })
        .collect()
}

/// Parses feedback text: five of `g`/`G` (green), `y`/`Y` (yellow), `.`,
/// `-`, `b` or `x` (grey).
pub fn parse_pattern(text: &str) -> Result<u8, WordleError> {
    let t = text.trim();
    if t.chars().count() != 5 {
        return Err(WordleError::Pattern(t.to_string()));
    }
    let mut code = 0u8;
    for c in t.chars().rev() {
        let digit = match c.to_ascii_lowercase() {
            'g' => 2,
            'y' => 1,
            '.' | '-' | 'b' | 'x' => 0,
            _ => return Err(WordleError::Pattern(t.to_string())),
        };
        code = code * 3 + digit;
    }
    Ok(code)
}

/// Feedback of every guess against every answer, one byte each.
pub struct FeedbackTable {
    /// The guess list (answers included where the game allows them).
    pub guesses: Vec<Word>,
    /// The answer list.
    pub answers: Vec<Word>,
    codes: Vec<u8>,
    answer_guess: Vec<Option<usize>>,
}

impl FeedbackTable {
    /// Builds the table on all cores.
    pub fn new(guesses: Vec<Word>, answers: Vec<Word>) -> FeedbackTable {
        let mut codes = vec![0u8; guesses.len() * answers.len()];
        codes
            .par_chunks_mut(answers.len().max(1))
            .zip(&guesses)
            .for_each(|(row, &g)| {
                for (slot, &a) in row.iter_mut().zip(&answers) {
                    *slot = feedback(g, a);
                }
            });
        let position: std::collections::HashMap<Word, usize> =
            guesses.iter().enumerate().map(|(i, &g)| (g, i)).collect();
        let answer_guess = answers.iter().map(|a| position.get(a).copied()).collect();
        FeedbackTable {
            guesses,
            answers,
            codes,
            answer_guess,
        }
    }

    /// The code of guess `g` against answer `a` (indices).
    #[inline]
    pub fn get(&self, g: usize, a: usize) -> u8 {
        self.codes[g * self.answers.len() + a]
    }

    /// Every code, guess-major (`guesses × answers` bytes).
    pub fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// For each guess, whether it is one of `candidates` (answer indices),
    /// i.e. can still win at once.
    pub fn possible_guesses(&self, candidates: &[u32]) -> Vec<bool> {
        let words: std::collections::HashSet<Word> = candidates
            .iter()
            .map(|&a| self.answers[a as usize])
            .collect();
        self.guesses.iter().map(|g| words.contains(g)).collect()
    }

    /// The row of guess `g`.
    #[inline]
    pub fn row(&self, g: usize) -> &[u8] {
        &self.codes[g * self.answers.len()..(g + 1) * self.answers.len()]
    }

    /// The guess index of answer `a`, if the answer may be guessed.
    pub fn guess_index_of_answer(&self, a: usize) -> Option<usize> {
        self.answer_guess.get(a).copied().flatten()
    }

    /// The index of `word` in the guess list.
    pub fn guess_index(&self, word: Word) -> Option<usize> {
        self.guesses.iter().position(|&w| w == word)
    }
}

/// How guesses are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// Most expected information (bits) first.
    Entropy,
    /// Fewest expected remaining candidates first.
    ExpectedRemaining,
}

/// One guess's value over a candidate set.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Score {
    /// Index in the guess list.
    pub guess: usize,
    /// Expected information in bits.
    pub entropy: f64,
    /// Expected number of candidates left after it.
    pub expected_remaining: f64,
    /// Whether it is still a possible answer (it can win now).
    pub possible: bool,
}

/// Scores every allowed guess over `candidates` (answer indices) and
/// returns the best `top`, best first. Ties go to guesses that are
/// still possible answers, then to the earlier guess in the list.
/// `allowed` filters guesses (hard mode).
pub fn best_guesses(
    table: &FeedbackTable,
    candidates: &[u32],
    rank: Rank,
    allowed: &(dyn Fn(usize) -> bool + Sync),
    top: usize,
) -> Vec<Score> {
    let n = candidates.len() as f64;
    let possible = table.possible_guesses(candidates);
    let weights = count_log_counts(candidates.len());
    let mut scores: Vec<Score> = (0..table.guesses.len())
        .into_par_iter()
        .filter(|&g| allowed(g))
        .map(|g| {
            let row = table.row(g);
            let mut histogram = [0u32; 243];
            for &a in candidates {
                histogram[row[a as usize] as usize] += 1;
            }
            let (sum, squares) = sums(&histogram, &weights);
            score_from(g, n, sum, squares, possible[g])
        })
        .collect();
    rank_scores(&mut scores, rank);
    scores.truncate(top);
    scores
}

/// `c · log2(c)` for every count `0..=n`, so the CPU and the GPU add the
/// same numbers in the same order and get bit-identical entropies.
pub fn count_log_counts(n: usize) -> Vec<f64> {
    (0..=n)
        .map(|c| {
            if c == 0 {
                0.0
            } else {
                c as f64 * (c as f64).log2()
            }
        })
        .collect()
}

/// Σ c·log2(c) and Σ c² over the 243 bins, in bin order.
pub fn sums(histogram: &[u32; 243], weights: &[f64]) -> (f64, f64) {
    let (mut sum, mut squares) = (0.0, 0.0);
    for &count in histogram {
        sum += weights[count as usize];
        squares += f64::from(count) * f64::from(count);
    }
    (sum, squares)
}

/// A guess's score from its bin sums over `n` candidates:
/// entropy = log2(n) − Σ c·log2(c) / n, expected remaining = Σ c² / n.
pub fn score_from(guess: usize, n: f64, sum: f64, squares: f64, possible: bool) -> Score {
    Score {
        guess,
        entropy: n.log2() - sum / n,
        expected_remaining: squares / n,
        possible,
    }
}

/// Sorts best first; ties (within 1e-9) go to possible answers, then to
/// the earlier guess.
pub fn rank_scores(scores: &mut [Score], rank: Rank) {
    let key = |s: &Score| match rank {
        Rank::Entropy => -s.entropy,
        Rank::ExpectedRemaining => s.expected_remaining,
    };
    scores.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        if (ka - kb).abs() > 1e-9 {
            ka.total_cmp(&kb)
        } else {
            b.possible.cmp(&a.possible).then(a.guess.cmp(&b.guess))
        }
    });
}

/// The candidates that give `code` for guess `g`.
pub fn filter(table: &FeedbackTable, candidates: &[u32], g: usize, code: u8) -> Vec<u32> {
    let row = table.row(g);
    candidates
        .iter()
        .copied()
        .filter(|&a| row[a as usize] == code)
        .collect()
}

/// Hard mode (the game's rule): greens stay in place and every revealed
/// letter is used again, as often as it was revealed.
pub fn hard_mode_allows(history: &[(Word, u8)], guess: Word) -> bool {
    history.iter().all(|&(previous, code)| {
        let mut code = code;
        let mut need = [0u8; 26];
        for i in 0..5 {
            let colour = code % 3;
            code /= 3;
            let letter = previous.0[i];
            if colour == 2 && guess.0[i] != letter {
                return false;
            }
            if colour > 0 {
                need[letter as usize] += 1;
            }
        }
        (0..26).all(|l| guess.0.iter().filter(|&&x| x as usize == l).count() >= need[l] as usize)
    })
}

/// The greedy policy played against every answer.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Simulation {
    /// `distribution[k]`: answers found with `k + 1` guesses.
    pub distribution: Vec<usize>,
    /// Guesses over all answers.
    pub total: usize,
    /// `total / answers`.
    pub average: f64,
    /// The first guess.
    pub first: String,
}

/// Plays the greedy policy (best guess by `rank` at each step, ties toward
/// possible answers) against every answer, building its decision tree once;
/// `first` fixes the opening guess.
pub fn simulate(table: &FeedbackTable, rank: Rank, hard: bool, first: Option<usize>) -> Simulation {
    let all: Vec<u32> = (0..table.answers.len() as u32).collect();
    let mut distribution = vec![0usize; 1];
    let mut history = Vec::new();
    let first = first.unwrap_or_else(|| choose(table, &all, rank, hard, &[]));
    play(
        table,
        &all,
        rank,
        hard,
        Some(first),
        1,
        &mut history,
        &mut distribution,
    );
    let total: usize = distribution
        .iter()
        .enumerate()
        .map(|(k, n)| (k + 1) * n)
        .sum();
    Simulation {
        average: total as f64 / table.answers.len().max(1) as f64,
        total,
        distribution,
        first: table.guesses[first].to_string(),
    }
}

fn choose(
    table: &FeedbackTable,
    candidates: &[u32],
    rank: Rank,
    hard: bool,
    history: &[(Word, u8)],
) -> usize {
    if candidates.len() <= 2 {
        // Guessing a candidate wins now or leaves one: never worse here.
        if let Some(g) = table.guess_index(table.answers[candidates[0] as usize]) {
            if !hard || hard_mode_allows(history, table.guesses[g]) {
                return g;
            }
        }
    }
    let allowed = |g: usize| !hard || hard_mode_allows(history, table.guesses[g]);
    best_guesses(table, candidates, rank, &allowed, 1)
        .first()
        .map_or(0, |s| s.guess)
}

#[allow(clippy::too_many_arguments)]
fn play(
    table: &FeedbackTable,
    candidates: &[u32],
    rank: Rank,
    hard: bool,
    forced: Option<usize>,
    depth: usize,
    history: &mut Vec<(Word, u8)>,
    distribution: &mut Vec<usize>,
) {
    let g = forced.unwrap_or_else(|| choose(table, candidates, rank, hard, history));
    let mut groups: std::collections::BTreeMap<u8, Vec<u32>> = std::collections::BTreeMap::new();
    for &a in candidates {
        groups.entry(table.get(g, a as usize)).or_default().push(a);
    }
    for (code, group) in groups {
        if code == ALL_GREEN {
            if distribution.len() < depth {
                distribution.resize(depth, 0);
            }
            distribution[depth - 1] += group.len();
            continue;
        }
        history.push((table.guesses[g], code));
        play(
            table,
            &group,
            rank,
            hard,
            None,
            depth + 1,
            history,
            distribution,
        );
        history.pop();
    }
}
