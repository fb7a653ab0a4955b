//! Wordle: the feedback rule against an independent implementation, pattern
//! text, the table, ranking on the original lists, and the greedy simulator.

use frontier_wordle::{
    best_guesses, feedback, hard_mode_allows, parse_pattern, pattern, read_words, simulate,
    FeedbackTable, Rank, Word, ALL_GREEN,
};

/// The game's list `name` (not shipped: see data/NOTICE), or a return from
/// the test after `SKIPPED (needs …)`; under CI a missing list fails the
/// test (`frontier_core::data::for_test`).
macro_rules! need {
    ($name:expr) => {
        match frontier_core::data::for_test(&format!("wordle/{}", $name)) {
            Some(path) => path,
            None => return,
        }
    };
}

/// ENABLE2K's five-letter words (shipped): the word pool of the small
/// random games, so that the brute-force checks run on any clone.
fn pool() -> Vec<Word> {
    let path = frontier_core::data::find("boggle/enable2k.txt").expect("data/ ships ENABLE2K");
    read_words(&path).unwrap().words
}

fn w(text: &str) -> Word {
    text.parse().unwrap()
}

/// The rule as the game states it, written another way: count letters.
fn reference(guess: &str, answer: &str) -> String {
    let (g, a): (Vec<char>, Vec<char>) = (guess.chars().collect(), answer.chars().collect());
    let mut out = ['.'; 5];
    let mut left: Vec<Option<char>> = a.iter().map(|&c| Some(c)).collect();
    for i in 0..5 {
        if g[i] == a[i] {
            out[i] = 'g';
            left[i] = None;
        }
    }
    for i in 0..5 {
        if out[i] == '.' {
            if let Some(j) = left.iter().position(|&c| c == Some(g[i])) {
                out[i] = 'y';
                left[j] = None;
            }
        }
    }
    out.iter().collect()
}

#[test]
fn feedback_follows_the_rule_on_known_cases_and_random_pairs() {
    for (guess, answer, want) in [
        ("speed", "abide", "..y.y"),
        ("eerie", "there", "y.y.g"),
        ("llama", "hello", "yy..."),
        ("crane", "crane", "ggggg"),
        ("abbey", "babes", "yygg."),
    ] {
        assert_eq!(
            pattern(feedback(w(guess), w(answer))),
            want,
            "{guess} {answer}"
        );
        assert_eq!(
            reference(guess, answer),
            want,
            "reference on {guess} {answer}"
        );
    }
    let answers = pool();
    let guesses = pool();
    for (i, &g) in guesses.iter().enumerate().step_by(37) {
        for &a in answers.iter().skip(i % 11).step_by(53) {
            assert_eq!(
                pattern(feedback(g, a)),
                reference(&g.to_string(), &a.to_string()),
                "{g} {a}"
            );
        }
    }
}

#[test]
fn patterns_round_trip_and_bad_text_is_rejected() {
    for code in 0..243u8 {
        assert_eq!(parse_pattern(&pattern(code)).unwrap(), code);
    }
    assert_eq!(
        parse_pattern("G-Y.b").unwrap(),
        parse_pattern("g.y..").unwrap()
    );
    for bad in ["gggg", "ggggz", "gggggg", ""] {
        let err = parse_pattern(bad).unwrap_err().to_string();
        assert!(err.contains("should be five of"), "{bad}: {err}");
    }
    assert!("abc".parse::<Word>().is_err());
    assert!("ab1de".parse::<Word>().is_err());
    assert_eq!("CRANE".parse::<Word>().unwrap(), w("crane"));
}

#[test]
fn lists_read_with_counts_and_the_best_opening_is_soare() {
    let answers = read_words(&need!("orig_answers_2315.txt")).unwrap();
    let guesses = read_words(&need!("orig_allowed_12972.txt")).unwrap();
    assert_eq!((answers.words.len(), answers.rejected), (2315, 0));
    assert_eq!(guesses.words.len(), 12972);
    let table = FeedbackTable::new(guesses.words, answers.words);
    let all: Vec<u32> = (0..2315).collect();
    let best = best_guesses(&table, &all, Rank::Entropy, &|_| true, 3);
    // The well-known entropy ranking over these lists: soare 5.886 bits.
    assert_eq!(table.guesses[best[0].guess].to_string(), "soare");
    assert!(
        (best[0].entropy - 5.8860).abs() < 1e-3,
        "{}",
        best[0].entropy
    );
    let by_remaining = best_guesses(&table, &all, Rank::ExpectedRemaining, &|_| true, 1);
    assert_eq!(table.guesses[by_remaining[0].guess].to_string(), "roate");
}

#[test]
fn hard_mode_keeps_greens_and_reuses_revealed_letters() {
    let history = [(w("crane"), parse_pattern("g.y..").unwrap())];
    assert!(hard_mode_allows(&history, w("cigar")));
    assert!(!hard_mode_allows(&history, w("acorn")), "c must stay first");
    assert!(!hard_mode_allows(&history, w("climb")), "a must be used");
}

#[test]
fn greedy_entropy_policy_solves_every_answer() {
    let answers = read_words(&need!("orig_answers_2315.txt")).unwrap().words;
    let guesses = read_words(&need!("orig_allowed_12972.txt")).unwrap().words;
    let table = FeedbackTable::new(guesses, answers);
    let sim = simulate(&table, Rank::Entropy, false, None);
    assert_eq!(sim.distribution.iter().sum::<usize>(), 2315);
    assert_eq!(sim.first, "soare");
    // Known for this policy: about 3.46 guesses on average.
    assert!((3.40..3.52).contains(&sim.average), "{sim:?}");
    assert!(sim.distribution.len() <= 6, "{sim:?}");
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_ranking_equals_cpu_ranking() {
    if !frontier_core::gpu::usable_or_skip("gpu_ranking_equals_cpu_ranking") {
        return;
    }
    let answers = read_words(&need!("orig_answers_2315.txt")).unwrap().words;
    let guesses = read_words(&need!("orig_allowed_12972.txt")).unwrap().words;
    let table = FeedbackTable::new(guesses, answers);
    let ranker = frontier_wordle::gpu::GpuRanker::new(&table, 0).unwrap();
    let subsets: Vec<Vec<u32>> = vec![
        (0..2315).collect(),
        (0..2315).step_by(7).collect(),
        vec![5, 17, 900, 2000],
        vec![42],
    ];
    for candidates in subsets {
        for rank in [Rank::Entropy, Rank::ExpectedRemaining] {
            let cpu = best_guesses(&table, &candidates, rank, &|_| true, usize::MAX);
            let (gpu, _) = ranker.rank(&table, &candidates, rank).unwrap();
            assert_eq!(cpu, gpu, "{} candidates, {rank:?}", candidates.len());
        }
    }
}

/// The optimum by exhaustive recursion over every splitting guess, no
/// bounds, no memo: the independent check of the decision executor.
fn brute_optimum(table: &FeedbackTable, state: &[u32], guesses: &[usize]) -> u32 {
    if state.is_empty() {
        return 0;
    }
    let mut best = u32::MAX;
    for &g in guesses {
        let mut groups: std::collections::BTreeMap<u8, Vec<u32>> = Default::default();
        for &a in state {
            groups.entry(table.get(g, a as usize)).or_default().push(a);
        }
        if groups.len() == 1 && !groups.contains_key(&frontier_wordle::ALL_GREEN) {
            continue;
        }
        let rest: u32 = groups
            .iter()
            .filter(|(code, _)| **code != frontier_wordle::ALL_GREEN)
            .map(|(_, group)| brute_optimum(table, group, guesses))
            .sum();
        best = best.min(state.len() as u32 + rest);
    }
    best
}

#[test]
fn decision_executor_finds_the_brute_force_optimum_on_small_games() {
    for round in 0..12 {
        // A small game: 40 guesses, 6-9 answers among them.
        let table = small_game(11 + round as u64, 6 + round % 4);
        let n = table.answers.len();
        let pool = &table.guesses;
        let problem = frontier_wordle::WordleTree::new(&table);
        let all: Vec<u32> = (0..n as u32).collect();
        let guesses: Vec<usize> = (0..pool.len()).collect();
        let want = brute_optimum(&table, &all, &guesses);
        let got = frontier_core::decision::optimal(&problem, &all, u32::MAX).unwrap();
        assert_eq!(got.cost, want, "round {round}");
        let first = got.action.unwrap();
        assert_eq!(
            frontier_core::decision::optimal_with(&problem, &all, &first),
            Some(want)
        );
        // A budget at the optimum is refused: the optimum is proven.
        assert!(frontier_core::decision::optimal(&problem, &all, want).is_none());
        // The tree read back plays every answer in exactly `want` guesses in total.
        let (cost, tree) = frontier_core::decision::optimal_tree(&problem, &all, None).unwrap();
        assert_eq!(cost, want);
        let total = played_total(&table, &tree);
        assert_eq!(total, want, "round {round}");
        assert_eq!(verified_total(&table, &tree, false, None), want);
    }
}

/// The total of `tree` by the independent checker, which must pass it.
fn verified_total(
    table: &FeedbackTable,
    tree: &frontier_core::decision::Tree<usize, u8>,
    hard: bool,
    max_guesses: Option<u8>,
) -> u32 {
    use frontier_wordle::verify::{verify, Policy, Rules};
    let rules = Rules { hard, max_guesses };
    match verify(table, &Policy::from_tree(table, tree), rules) {
        Ok(report) => report.total,
        Err(failure) => panic!("the tree fails the checker: {failure}"),
    }
}

/// Guesses the tree takes over every answer of `table`, played out.
fn played_total(table: &FeedbackTable, tree: &frontier_core::decision::Tree<usize, u8>) -> u32 {
    (0..table.answers.len())
        .map(|a| {
            let answer = |&g: &usize| Some(table.get(g, a)).filter(|&c| c != ALL_GREEN);
            tree.actions_to_end(answer).expect("outcome in tree") as u32
        })
        .sum()
}

/// A random small game: `pool` guesses, the first `n` of them answers.
fn small_game(seed: u64, n: usize) -> FeedbackTable {
    use frontier_core::rng::SplitMix64;
    let answers = pool();
    let mut rng = SplitMix64::new(seed);
    let mut pool: Vec<Word> = (0..40)
        .map(|_| answers[rng.below(answers.len() as u64) as usize])
        .collect();
    pool.sort();
    pool.dedup();
    let n = n.min(pool.len());
    FeedbackTable::new(pool.clone(), pool[..n].to_vec())
}

#[test]
fn sweep_judges_every_first_guess_like_brute_force() {
    use frontier_core::decision::{sweep, RootCost, SweepOptions};
    for round in 0..8u64 {
        let table = small_game(100 + round, 6 + round as usize % 4);
        let n = table.answers.len();
        let problem = frontier_wordle::WordleTree::new(&table).sequential();
        let all: Vec<u32> = (0..n as u32).collect();
        let guesses: Vec<usize> = (0..table.guesses.len()).collect();
        let with_first = |g: usize| -> u32 {
            let mut groups: std::collections::BTreeMap<u8, Vec<u32>> = Default::default();
            for &a in &all {
                groups.entry(table.get(g, a as usize)).or_default().push(a);
            }
            groups
                .iter()
                .filter(|(code, _)| **code != frontier_wordle::ALL_GREEN)
                .map(|(_, group)| brute_optimum(&table, group, &guesses))
                .sum::<u32>()
                + n as u32
        };
        let order: Vec<usize> = problem
            .first_guesses()
            .into_iter()
            .map(|(g, _)| g)
            .collect();
        let want: Vec<u32> = order.iter().map(|&g| with_first(g)).collect();
        let best = *want.iter().min().unwrap();
        let margin = (round % 3) as u32 * 2;
        let options = SweepOptions {
            threads: 1 + round as usize % 3,
            margin,
            incumbent: None,
            memo_limit: 50,
            deadline: None,
        };
        let got = sweep(&problem, &all, &order, &options, &|_, _| {});
        for ((&g, &want), got) in order.iter().zip(&want).zip(&got) {
            match got.expect("no deadline: every guess judged") {
                RootCost::Exact(c) => assert_eq!(c, want, "round {round}, guess {g}"),
                RootCost::AtLeast(b) => {
                    assert!(want >= b, "round {round}, guess {g}: bound {b} > {want}");
                    assert!(
                        want > best + margin,
                        "round {round}, guess {g} within the margin"
                    );
                }
            }
        }
    }
}

/// The published figure: SALET first, 7920 guesses over the 2315 answers
/// (Selby's and others' solvers), and the tree read back plays it.
#[test]
fn salet_needs_7920_guesses_and_its_tree_plays_them() {
    let answers = read_words(&need!("orig_answers_2315.txt")).unwrap().words;
    let guesses = read_words(&need!("orig_allowed_12972.txt")).unwrap().words;
    let table = FeedbackTable::new(guesses, answers);
    let problem = frontier_wordle::WordleTree::new(&table);
    let salet = table.guess_index(w("salet")).unwrap();
    let all: Vec<u32> = (0..2315).collect();
    let (cost, tree) = frontier_core::decision::optimal_tree(&problem, &all, Some(&salet)).unwrap();
    assert_eq!(cost, 7920);
    let total = played_total(&table, &tree);
    assert_eq!(total, 7920);
}

/// The hard-mode optimum by exhaustive recursion: every guess the game's
/// rule allows after `history` (checked by `hard_mode_allows` on the whole
/// history, not by the executor's summary), no bounds, no memo.
fn brute_hard(
    table: &FeedbackTable,
    state: &[u32],
    history: &mut Vec<(Word, u8)>,
    first: Option<usize>,
    left: u32,
) -> u32 {
    if state.is_empty() {
        return 0;
    }
    let mut best = u32::MAX;
    if left == 0 {
        return best;
    }
    let choices: Vec<usize> = match first {
        Some(g) => vec![g],
        None => (0..table.guesses.len())
            .filter(|&g| hard_mode_allows(history, table.guesses[g]))
            .collect(),
    };
    for g in choices {
        let mut groups: std::collections::BTreeMap<u8, Vec<u32>> = Default::default();
        for &a in state {
            groups.entry(table.get(g, a as usize)).or_default().push(a);
        }
        if groups.len() == 1 && !groups.contains_key(&ALL_GREEN) {
            continue;
        }
        let mut rest = 0u32;
        for (&code, group) in groups.iter().filter(|(code, _)| **code != ALL_GREEN) {
            history.push((table.guesses[g], code));
            rest = rest.saturating_add(brute_hard(table, group, history, None, left - 1));
            history.pop();
        }
        best = best.min((state.len() as u32).saturating_add(rest));
    }
    best
}

#[test]
fn revealed_summary_allows_exactly_what_the_history_allows() {
    use frontier_core::rng::SplitMix64;
    let words = pool();
    let mut rng = SplitMix64::new(5);
    for _ in 0..2000 {
        let answer = words[rng.below(words.len() as u64) as usize];
        let mut history = Vec::new();
        let mut revealed = frontier_wordle::Revealed::default();
        for _ in 0..1 + rng.below(4) {
            let guess = words[rng.below(words.len() as u64) as usize];
            let code = feedback(guess, answer);
            history.push((guess, code));
            revealed = revealed.with(guess, code);
        }
        assert!(revealed.allows(answer), "the answer is always allowed");
        for _ in 0..50 {
            let guess = words[rng.below(words.len() as u64) as usize];
            assert_eq!(
                revealed.allows(guess),
                hard_mode_allows(&history, guess),
                "{guess}"
            );
            // The masks the executor lists allowed guesses with agree too.
            assert_eq!(
                revealed.rule().allows(&frontier_wordle::Shape::of(guess)),
                hard_mode_allows(&history, guess),
                "{guess} (masks)"
            );
        }
    }
}

#[test]
fn hard_mode_salet_total_equals_brute_force_on_small_games() {
    use frontier_core::rng::SplitMix64;
    let answers = pool();
    let salet: Word = "salet".parse().unwrap();
    for round in 0..6u64 {
        let mut rng = SplitMix64::new(700 + round);
        let mut pool: Vec<Word> = (0..24)
            .map(|_| answers[rng.below(answers.len() as u64) as usize])
            .collect();
        pool.sort();
        pool.dedup();
        let n = 7 + round as usize % 3;
        let mut guesses = pool.clone();
        guesses.push(salet);
        let table = FeedbackTable::new(guesses, pool[..n].to_vec());
        let start = frontier_wordle::HardState::start(&table, None);
        let first = table.guess_index(salet).unwrap();
        let hard = frontier_wordle::HardWordleTree::new(&table);
        let got = frontier_core::decision::optimal_with(&hard, &start, &first).unwrap();
        let all = &start.candidates;
        let want = brute_hard(&table, all, &mut Vec::new(), Some(first), u32::MAX);
        assert_eq!(got, want, "round {round}: SALET first, hard mode");
        // Free first guess, hard mode: the executor's optimum is the brute force's.
        let best = frontier_core::decision::optimal(&hard, &start, u32::MAX).unwrap();
        let free_first = brute_hard(&table, all, &mut Vec::new(), None, u32::MAX);
        assert_eq!(best.cost, free_first);
        // With a limit on guesses, infeasible limits included.
        for limit in 2..=4u8 {
            let limited = frontier_wordle::HardState::start(&table, Some(limit));
            let want = brute_hard(&table, all, &mut Vec::new(), Some(first), u32::from(limit));
            let got = frontier_core::decision::optimal_with(&hard, &limited, &first);
            assert_eq!(
                got.unwrap_or(u32::MAX),
                want,
                "round {round}, {limit} guesses"
            );
        }
        // Hard mode can only cost more than normal mode.
        let normal = frontier_wordle::WordleTree::new(&table);
        let free =
            frontier_core::decision::optimal_with(&normal, &start.candidates, &first).unwrap();
        assert!(got >= free, "round {round}: hard {got} < normal {free}");
        // The tree read back obeys the rule and plays every answer in `got` guesses.
        let (cost, tree) =
            frontier_core::decision::optimal_tree(&hard, &start, Some(&first)).unwrap();
        assert_eq!(cost, got);
        assert_eq!(
            played_hard(&table, &tree, &mut Vec::new(), &start.candidates),
            got
        );
        assert_eq!(verified_total(&table, &tree, true, None), got);
    }
}

/// Guesses the tree takes over the answers of `state`, asserting that every
/// guess is one hard mode allows.
fn played_hard(
    table: &FeedbackTable,
    tree: &frontier_core::decision::Tree<usize, u8>,
    history: &mut Vec<(Word, u8)>,
    state: &[u32],
) -> u32 {
    let guess = table.guesses[tree.action];
    assert!(hard_mode_allows(history, guess), "{guess} breaks the rule");
    let mut total = state.len() as u32;
    for (code, child) in &tree.children {
        let group: Vec<u32> = state
            .iter()
            .copied()
            .filter(|&a| table.get(tree.action, a as usize) == *code)
            .collect();
        history.push((guess, *code));
        total += played_hard(table, child, history, &group);
        history.pop();
    }
    total
}

#[test]
fn every_feedback_code_prints_and_parses_back() {
    // Random lists and feedback strings are fuzzed by the wordle_input
    // property (frontier::fuzzing, run by the root crate's tests/fuzz.rs).
    for code in 0..243u8 {
        assert_eq!(parse_pattern(&pattern(code)).ok(), Some(code));
    }
}

/// A small game whose guesses are not only answers: `answers` answers
/// drawn from the original answers, `extra` other allowed words.
fn mixed_game(seed: u64, answers: usize, extra: usize) -> FeedbackTable {
    use frontier_core::rng::SplitMix64;
    let all_answers = pool();
    let allowed = pool();
    let mut rng = SplitMix64::new(seed);
    let mut picked: Vec<Word> = (0..answers)
        .map(|_| all_answers[rng.below(all_answers.len() as u64) as usize])
        .collect();
    picked.sort();
    picked.dedup();
    let mut guesses = picked.clone();
    guesses.extend((0..extra).map(|_| allowed[rng.below(allowed.len() as u64) as usize]));
    guesses.sort();
    guesses.dedup();
    FeedbackTable::new(guesses, picked)
}

/// Hard mode under a guess limit, where the guesses that split best are
/// often not answers: the executor's optimum (any first guess) is the
/// brute force's, limits of 2 and 3 included (120 games: the code before
/// the fix failed 5 of them, the first at round 78). Before the shortcuts knew
/// the limit, a candidate leaving one pair (a tree three guesses deep) was
/// taken as optimal with two guesses left, and states were judged
/// unsolvable that a non-answer guess solves.
#[test]
fn hard_mode_with_a_guess_limit_equals_brute_force_when_guesses_are_not_answers() {
    let mut limited_rounds = 0;
    for round in 0..120u64 {
        let table = mixed_game(9000 + round, 4 + round as usize % 5, 40);
        let hard = frontier_wordle::HardWordleTree::new(&table).sequential();
        for limit in [2u8, 3] {
            let start = frontier_wordle::HardState::start(&table, Some(limit));
            let want = brute_hard(
                &table,
                &start.candidates,
                &mut Vec::new(),
                None,
                u32::from(limit),
            );
            let got = frontier_core::decision::optimal(&hard, &start, u32::MAX);
            assert_eq!(
                got.as_ref().map_or(u32::MAX, |d| d.cost),
                want,
                "round {round}, {limit} guesses, {} answers",
                table.answers.len()
            );
            if want != u32::MAX {
                limited_rounds += 1;
                let (cost, tree) =
                    frontier_core::decision::optimal_tree(&hard, &start, None).unwrap();
                assert_eq!(cost, want);
                assert_eq!(verified_total(&table, &tree, true, Some(limit)), want);
                // Solved a first-guess class per thread, the same total.
                let first = tree.action;
                let (cost, tree) = frontier_core::decision::optimal_with_on_threads(
                    &hard, &start, &first, 2, true,
                )
                .unwrap();
                assert_eq!(cost, want);
                assert_eq!(
                    verified_total(&table, &tree.unwrap(), true, Some(limit)),
                    want
                );
            }
        }
    }
    // The game must exercise solvable limits, not only refusals.
    assert!(limited_rounds >= 60, "{limited_rounds} solvable rounds");
}

/// More than 32 answers (the states whose guesses are ranked in parallel
/// blocks) that one non-answer guess tells apart, and no answer does: the
/// optimum is 2n, reached by that guess and then each answer. Before, a
/// block that held a 2n guess stopped early and dropped the rest of its
/// guesses, that one included, so the state had no action at all.
#[test]
fn a_large_state_that_one_other_guess_separates_costs_twice_its_size() {
    let answers = pool();
    let salet = w("salet");
    // Answers with pairwise different feedback against SALET, taken
    // greedily, and none of them SALET.
    let mut seen = [false; 243];
    let mut picked: Vec<Word> = Vec::new();
    for &a in &answers {
        let code = feedback(salet, a) as usize;
        if a != salet && !seen[code] {
            seen[code] = true;
            picked.push(a);
        }
    }
    assert!(picked.len() > 32, "{} answers", picked.len());
    let mut guesses = picked.clone();
    guesses.push(salet);
    let table = FeedbackTable::new(guesses, picked.clone());
    let n = picked.len() as u32;
    let all: Vec<u32> = (0..n).collect();
    // No answer separates the others (else the optimum would be 2n − 1).
    let separates = |g: usize| {
        let codes: std::collections::HashSet<u8> =
            all.iter().map(|&a| table.get(g, a as usize)).collect();
        codes.len() == all.len()
    };
    assert!((0..table.guesses.len())
        .filter(|&g| separates(g))
        .all(|g| table.guesses[g] == salet));
    let normal = frontier_wordle::WordleTree::new(&table);
    let got = frontier_core::decision::optimal(&normal, &all, u32::MAX).map(|d| d.cost);
    assert_eq!(got, Some(2 * n));
    let hard = frontier_wordle::HardWordleTree::new(&table);
    let start = frontier_wordle::HardState::start(&table, Some(2));
    let got = frontier_core::decision::optimal(&hard, &start, u32::MAX).map(|d| d.cost);
    assert_eq!(got, Some(2 * n), "hard mode, two guesses");
}
