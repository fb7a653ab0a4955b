//! Boggle: dictionary rules, boards, scores against published references
//! and against an independent word-by-word search, the trie cache, the
//! framework walk, annealing, and GPU = CPU.

use std::path::PathBuf;

use frontier_boggle::dict::{points, spell};
use frontier_boggle::orderly::SplitOrder;
use frontier_boggle::{
    anneal, find_words, random_boards, score_batch, AnnealConfig, Board, Letters, Scorer, Shape,
    Trie, WordList, WordPaths,
};
use frontier_core::rng::SplitMix64;

/// Reference file `name` (ENABLE2K and the reference scores are shipped in
/// the repository's data/; see `frontier_core::data`).
fn data_file(name: &str) -> PathBuf {
    frontier_core::data::find(name)
        .unwrap_or_else(|| panic!("MISSING TEST DATA: {}", frontier_core::data::missing(name)))
}

fn enable2k() -> (WordList, Trie) {
    let bytes = std::fs::read(data_file("boggle/enable2k.txt")).expect("read enable2k");
    let list = WordList::parse(&bytes);
    let trie = Trie::build(&list);
    (list, trie)
}

#[test]
fn word_list_rules_and_counts() {
    let list = WordList::parse(
        b"Tea\r\nQUEST\r\nqi\r\nqat\r\nab\r\nit's\r\n\r\ncaf\xc3\xa9\r\ntea\r\nquiz\n",
    );
    let words: Vec<String> = list.words.iter().map(|w| spell(w)).collect();
    assert_eq!(words, ["quest", "quiz", "tea"]);
    assert_eq!(list.lines, 10);
    let s = &list.skipped;
    assert_eq!(
        (
            s.too_short,
            s.q_without_u,
            s.not_letters,
            s.blank,
            s.duplicates
        ),
        (2, 1, 2, 1, 1),
        "{s:?}"
    );
    assert!(
        list.summary().contains("1 q without u"),
        "{}",
        list.summary()
    );
    // Qu counts as two letters: "quiz" is 4 letters, 1 point; "quest" 5: 2.
    assert_eq!(points(&list.words[1]), 1);
    assert_eq!(points(&list.words[0]), 2);
}

#[test]
fn enable2k_word_count_matches_the_data_readme() {
    let (list, trie) = enable2k();
    assert_eq!(list.words.len(), 173_402, "{}", list.summary());
    assert_eq!(list.skipped.total(), 126);
    assert_eq!(trie.words(), 173_402);
    // Every word is found in the trie and nothing else is a word there.
    assert!(list.words.iter().all(|w| trie.contains(w)));
    let marked = trie.nodes().iter().filter(|n| n.points() > 0).count();
    assert_eq!(marked, list.words.len());
}

#[test]
fn reference_boards_score_exactly() {
    let (_, trie) = enable2k();
    let text = std::fs::read_to_string(data_file("boggle/reference-scores.tsv")).unwrap();
    let mut scorer = Scorer::new(&trie);
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let shape = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let board = Board::parse(f[0], Some(shape)).unwrap();
        let want: u32 = f[3].parse().unwrap();
        assert_eq!(scorer.score(&board), want, "board {}", f[0]);
        let listed: u32 = find_words(&trie, &board).iter().map(|w| w.points).sum();
        assert_eq!(listed, want, "find_words on {}", f[0]);
        checked += 1;
    }
    assert!(checked >= 4);
}

/// Is `word` on the board? A search per word that shares nothing with the
/// trie walk: the independent check of every solver.
fn traceable(board: &Board, shape: &Shape, word: &[u8]) -> bool {
    fn from(board: &Board, shape: &Shape, word: &[u8], cell: usize, used: &mut Vec<bool>) -> bool {
        if board.letters[cell] != word[0] {
            return false;
        }
        if word.len() == 1 {
            return true;
        }
        used[cell] = true;
        let found = shape
            .neighbors_of(cell)
            .iter()
            .any(|&n| !used[n as usize] && from(board, shape, &word[1..], n as usize, used));
        used[cell] = false;
        found
    }
    let mut used = vec![false; shape.cells()];
    (0..shape.cells()).any(|c| from(board, shape, word, c, &mut used))
}

fn brute_force_score(list: &WordList, board: &Board) -> u32 {
    let shape = board.shape();
    let present: std::collections::HashSet<u8> = board.letters.iter().copied().collect();
    list.words
        .iter()
        .filter(|w| w.len() <= shape.cells() && w.iter().all(|l| present.contains(l)))
        .filter(|w| traceable(board, &shape, w))
        .map(|w| points(w))
        .sum()
}

#[test]
fn solvers_agree_with_a_word_by_word_search_on_random_boards() {
    let (list, trie) = enable2k();
    let mut rng = SplitMix64::new(42);
    let mut scorer = Scorer::new(&trie);
    let shapes = [
        (1, 1),
        (1, 5),
        (2, 2),
        (3, 3),
        (3, 4),
        (4, 4),
        (5, 5),
        (2, 9),
        (8, 9),
        (9, 9),
    ];
    for &(rows, cols) in &shapes {
        for round in 0..6 {
            let kind = if round % 2 == 0 {
                Letters::Dice
            } else {
                Letters::Uniform
            };
            let mut letters = vec![0; rows * cols];
            frontier_boggle::board::random_letters(&mut rng, kind, &mut letters);
            let board = Board {
                rows,
                cols,
                letters,
            };
            let want = brute_force_score(&list, &board);
            assert_eq!(scorer.score(&board), want, "Scorer on {}", board.text());
            let listed: u32 = find_words(&trie, &board).iter().map(|w| w.points).sum();
            assert_eq!(listed, want, "find_words on {}", board.text());
            if rows * cols <= 25 {
                assert_eq!(
                    WordPaths::new(&trie, &board).score_by_walk(),
                    want,
                    "framework walk on {}",
                    board.text()
                );
            }
        }
    }
}

#[test]
fn every_reported_path_spells_its_word_along_neighbours() {
    let (_, trie) = enable2k();
    let board = Board::parse("perslatgsineters", None).unwrap();
    let words = find_words(&trie, &board);
    assert!(words.len() > 1000, "{} words", words.len());
    for w in &words {
        let spelled: Vec<u8> = w
            .path
            .iter()
            .map(|&(r, c)| board.letters[r * 4 + c])
            .collect();
        assert_eq!(spell(&spelled), w.word);
        for pair in w.path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(a.0.abs_diff(b.0) <= 1 && a.1.abs_diff(b.1) <= 1 && a != b);
        }
        let mut cells = w.path.clone();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), w.path.len(), "{} reuses a cell", w.word);
    }
}

#[test]
fn large_boards_score_like_the_word_by_word_search() {
    let (list, trie) = enable2k();
    let mut rng = SplitMix64::new(7);
    let mut scorer = Scorer::new(&trie);
    for (rows, cols) in [(12, 12), (16, 20), (32, 32)] {
        let mut letters = vec![0; rows * cols];
        frontier_boggle::board::random_letters(&mut rng, Letters::Dice, &mut letters);
        let board = Board {
            rows,
            cols,
            letters,
        };
        assert_eq!(
            scorer.score(&board),
            brute_force_score(&list, &board),
            "{rows}x{cols}"
        );
    }
}

#[test]
fn qu_cells_spell_qu_and_score_two_letters() {
    let list = WordList::parse(b"quit\nquilt\nsuit\n");
    let trie = Trie::build(&list);
    let board = Board::parse("qil/xtx/sux", None).unwrap();
    let words = find_words(&trie, &board);
    let spelled: Vec<(&str, u32)> = words.iter().map(|w| (w.word.as_str(), w.points)).collect();
    // quilt: q-i-l-t is 4 cells but 5 letters (2 points); quit: 1 point;
    // suit is not on the board (u is not next to i).
    assert_eq!(spelled, [("quilt", 2), ("quit", 1)]);
}

#[test]
fn bad_boards_are_rejected_with_a_reason() {
    let cases = [
        ("abcde", "5 letters is not a square board"),
        ("ab1d", "'1' (letter 3) is not a letter"),
        ("abc/de", "row 2 has 2 letters but row 1 has 3"),
        ("", "the board is empty"),
    ];
    for (text, message) in cases {
        let err = Board::parse(text, None).unwrap_err().to_string();
        assert!(err.contains(message), "{text:?}: {err}");
    }
    let err = Board::parse("abcdef", Some((2, 2)))
        .unwrap_err()
        .to_string();
    assert!(err.contains("a 2x2 board needs 4 letters, got 6"), "{err}");
    let big = "a".repeat(33 * 33);
    let err = Board::parse(&big, None).unwrap_err().to_string();
    assert!(err.contains("not supported"), "{err}");
    assert_eq!(
        Board::parse("Ab/Cd", None).unwrap(),
        Board::parse("abcd", None).unwrap()
    );
    assert_eq!(
        Board::parse("abcdef", Some((2, 3))).unwrap().text(),
        "abcdef"
    );
}

#[test]
fn trie_cache_round_trips_and_survives_corruption() {
    let dir = std::env::temp_dir().join(format!("frontier-boggle-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let list_path = dir.join("words.txt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &list_path,
        "tea\nteas\neat\neats\nseat\nsate\netas\nquest\n",
    )
    .unwrap();
    let (built, _) = Trie::load_in(&list_path, &dir).unwrap();
    assert!(!built.is_mapped());
    let (mapped, summary) = Trie::load_in(&list_path, &dir).unwrap();
    assert!(mapped.is_mapped(), "{summary}");
    assert_eq!(mapped.nodes(), built.nodes());
    assert_eq!(mapped.words(), 8);
    // Corrupt every cache file: the next load rebuilds, scores stay right.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "trie") {
            let mut bytes = std::fs::read(&path).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 0x5A;
            std::fs::write(&path, &bytes[..]).unwrap();
        }
    }
    let (rebuilt, _) = Trie::load_in(&list_path, &dir).unwrap();
    assert!(!rebuilt.is_mapped());
    assert_eq!(rebuilt.nodes(), built.nodes());
    // A different list never picks up the old cache.
    std::fs::write(&list_path, "tea\n").unwrap();
    let (other, _) = Trie::load_in(&list_path, &dir).unwrap();
    assert_eq!(other.words(), 1);
    // A list with no usable word is an error naming the file.
    std::fs::write(&list_path, "ab\nq\n12\n").unwrap();
    let err = Trie::load_in(&list_path, &dir).err().unwrap().to_string();
    assert!(
        err.contains("no usable words") && err.contains("words.txt"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batch_scores_equal_one_by_one_scores() {
    let (_, trie) = enable2k();
    let shape = Shape::new(4, 4);
    let boards = random_boards(&shape, 5000, Letters::Uniform, 3);
    let batch = score_batch(&trie, &shape, &boards);
    let mut scorer = Scorer::new(&trie);
    for (b, &s) in boards.chunks_exact(16).zip(&batch) {
        assert_eq!(scorer.score_letters(&shape, b), s);
    }
    // The mean of uniform random 4x4 boards (published: 41.13 over a million).
    let mean = batch.iter().map(|&s| f64::from(s)).sum::<f64>() / batch.len() as f64;
    assert!((38.0..44.0).contains(&mean), "mean {mean}");
}

#[test]
fn annealing_is_reproducible_and_reports_true_scores() {
    let (_, trie) = enable2k();
    let config = AnnealConfig {
        rows: 3,
        cols: 3,
        chains: 8,
        steps: 3000,
        seed: 5,
        ..AnnealConfig::default()
    };
    let first = anneal(&trie, &config, &|_, _| {}).unwrap();
    let second = anneal(&trie, &config, &|_, _| {}).unwrap();
    assert_eq!(first.best, second.best);
    let mut scorer = Scorer::new(&trie);
    for (text, score) in &first.best {
        assert_eq!(scorer.score(&Board::parse(text, None).unwrap()), *score);
    }
    // Far above a random 3x3 board (mean about 5); the optimum is 545.
    assert!(first.best[0].1 >= 300, "{:?}", first.best);
    assert!(first.best[0].1 <= 545);
    let bad = AnnealConfig {
        t_end: 200.0,
        ..config
    };
    let err = anneal(&trie, &bad, &|_, _| {}).unwrap_err().to_string();
    assert!(err.contains("t_end <= t_start"), "{err}");
    // An infinite start would make every temperature on the way NaN.
    let unbounded = AnnealConfig {
        t_start: f64::INFINITY,
        ..config
    };
    let err = anneal(&trie, &unbounded, &|_, _| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("t_end <= t_start"), "{err}");
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_scores_equal_cpu_scores_on_every_shape() {
    if !frontier_core::gpu::usable_or_skip("gpu_scores_equal_cpu_scores_on_every_shape") {
        return;
    }
    let (_, trie) = enable2k();
    for (rows, cols, count) in [
        (4, 4, 200_000),
        (3, 4, 50_000),
        (5, 5, 50_000),
        (1, 7, 1000),
        (9, 9, 5000),
        (12, 12, 2000),
        (20, 20, 200),
    ] {
        let shape = Shape::new(rows, cols);
        let mut gpu = frontier_boggle::gpu::GpuBoggle::new(&trie, &shape, 0).unwrap();
        for kind in [Letters::Uniform, Letters::Dice] {
            let boards = random_boards(&shape, count, kind, rows as u64 * 100 + cols as u64);
            let (scores, _) = gpu.score(&trie, &boards).unwrap();
            assert_eq!(
                scores,
                score_batch(&trie, &shape, &boards),
                "{rows}x{cols} {kind:?}"
            );
        }
    }
    // High-scoring boards (near the seen table's limit) too.
    let shape = Shape::new(4, 4);
    let mut gpu = frontier_boggle::gpu::GpuBoggle::new(&trie, &shape, 0).unwrap();
    let best = Board::parse("perslatgsineters", None).unwrap();
    let (scores, _) = gpu.score(&trie, &best.letters.repeat(1000)).unwrap();
    assert!(scores.iter().all(|&s| s == 3625));
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_annealing_reports_true_scores() {
    if !frontier_core::gpu::usable_or_skip("gpu_annealing_reports_true_scores") {
        return;
    }
    let (_, trie) = enable2k();
    let shape = Shape::new(4, 4);
    let mut gpu = frontier_boggle::gpu::GpuBoggle::new(&trie, &shape, 0).unwrap();
    let config = AnnealConfig {
        chains: 4096,
        steps: 2000,
        ..AnnealConfig::default()
    };
    let result = gpu.anneal(&trie, &config, &|_, _| {}).unwrap();
    let mut scorer = Scorer::new(&trie);
    for (text, score) in &result.best {
        assert_eq!(
            scorer.score(&Board::parse(text, None).unwrap()),
            *score,
            "{text}"
        );
    }
    assert!(result.best[0].1 >= 2500, "{:?}", result.best);
}

/// Every board of a shape over `letters`, by enumeration: (letters, score).
fn all_boards(trie: &Trie, shape: &Shape, letters: &[u8]) -> Vec<(Vec<u8>, u32)> {
    let cells = shape.cells();
    let mut scorer = Scorer::new(trie);
    let mut board = vec![0usize; cells];
    let mut out = Vec::new();
    loop {
        let ls: Vec<u8> = board.iter().map(|&i| letters[i]).collect();
        let score = scorer.score_letters(shape, &ls);
        out.push((ls, score));
        let mut at = 0;
        loop {
            if at == cells {
                return out;
            }
            board[at] += 1;
            if board[at] < letters.len() {
                break;
            }
            board[at] = 0;
            at += 1;
        }
    }
}

/// The letters of `mask`, in order.
fn letters_in(mask: u32) -> Vec<u8> {
    (0..26u8).filter(|l| mask >> l & 1 == 1).collect()
}

/// A board of the class whose cells take `masks`, each cell's letter drawn
/// at random.
fn random_board(rng: &mut SplitMix64, masks: &[u32]) -> Vec<u8> {
    masks
        .iter()
        .map(|&m| {
            let bits = letters_in(m);
            bits[rng.below(bits.len() as u64) as usize]
        })
        .collect()
}

/// A class of `cells` cells, each of one to four letters drawn from `pool`.
fn random_class(rng: &mut SplitMix64, cells: usize, pool: &[u8]) -> Vec<u32> {
    (0..cells)
        .map(|_| {
            (0..1 + rng.below(4)).fold(0u32, |m, _| {
                m | 1 << (pool[rng.below(pool.len() as u64) as usize] - b'a')
            })
        })
        .collect()
}

#[test]
fn class_bounds_hold_for_every_board_of_the_class() {
    use frontier_boggle::prove::{BoardClass, Bounder};
    let (_, trie) = enable2k();
    let mut rng = SplitMix64::new(18);
    for (rows, cols) in [(2, 2), (2, 3), (3, 3)] {
        let shape = Shape::new(rows, cols);
        let mut bounder = Bounder::new(&trie, &shape).unwrap();
        for _ in 0..30 {
            // Cells of one to three letters from a common alphabet.
            let pool = b"aeirstlnop";
            let class = BoardClass {
                cells: (0..shape.cells())
                    .map(|_| {
                        (0..1 + rng.below(3)).fold(0u32, |m, _| {
                            m | 1 << (pool[rng.below(pool.len() as u64) as usize] - b'a')
                        })
                    })
                    .collect(),
            };
            let max = bounder.max_no_mark(&class);
            let union = bounder.sum_union(&class);
            // Every board of the class (all choices), or a sample of them.
            let mut scorer = Scorer::new(&trie);
            let mut best = 0;
            for _ in 0..200 {
                let letters = random_board(&mut rng, &class.cells);
                best = best.max(scorer.score_letters(&shape, &letters));
            }
            assert!(
                max >= best && union >= best,
                "{} {max} {union} < {best}",
                class.describe(&shape)
            );
            // A single board: the union bound is its exact score.
            let board = BoardClass {
                cells: class.cells.iter().map(|&m| m & m.wrapping_neg()).collect(),
            };
            let letters: Vec<u8> = board
                .cells
                .iter()
                .map(|m| m.trailing_zeros() as u8)
                .collect();
            assert_eq!(
                bounder.sum_union(&board),
                scorer.score_letters(&shape, &letters)
            );
        }
    }
}

#[test]
fn orderly_bounds_hold_and_fixing_a_cell_matches_a_fresh_tree() {
    use frontier_boggle::orderly::{split_order, OrderlyBound, OrderlyBuilder, OrderlyTree};
    let (_, trie) = enable2k();
    let mut rng = SplitMix64::new(7);
    let pool = b"aeirstlnopcd";
    // Steps where bounding a cell's choice nodes together beat the fresh
    // tree's plain bound.
    let mut tighter = 0;
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4)] {
        let shape = Shape::new(rows, cols);
        let order = split_order(&shape);
        let builder = OrderlyBuilder::new(&trie, &shape, &order).unwrap();
        let (mut tree, mut fresh) = (OrderlyTree::default(), OrderlyTree::default());
        let mut evaluator = OrderlyBound::new(shape.cells());
        let mut fresh_evaluator = OrderlyBound::new(shape.cells());
        let mut scorer = Scorer::new(&trie);
        for _ in 0..20 {
            let masks = random_class(&mut rng, shape.cells(), pool);
            let bound = builder.build(&masks, &mut tree);
            assert_eq!(evaluator.start(&tree), bound);
            // Fix the cells in split order to random letters of their sets;
            // each step's bound must equal the same evaluation of a fresh
            // tree of that subclass, never exceed what `child_bounds`
            // foretold nor the fresh tree's plain bound, and hold for boards
            // of the subclass.
            let mut fixed = masks.clone();
            let mut prefix = Vec::new();
            let mut ahead = [0u32; 26];
            for depth in 1..=shape.cells() {
                let cell = order[depth - 1];
                let letters = letters_in(masks[cell]);
                let letter = letters[rng.below(letters.len() as u64) as usize];
                evaluator.child_bounds(depth - 1, &mut ahead);
                let step = evaluator.fix(&tree, depth, letter);
                fixed[cell] = 1 << letter;
                prefix.push(letter);
                assert!(step <= ahead[letter as usize], "depth {depth}");
                let plain = builder.build(&fixed, &mut fresh);
                assert!(step <= plain, "depth {depth}");
                tighter += usize::from(step < plain);
                assert_eq!(
                    step,
                    fresh_evaluator.bound_of(&fresh, &prefix),
                    "depth {depth}"
                );
                for _ in 0..8 {
                    let board = random_board(&mut rng, &fixed);
                    assert!(
                        step >= scorer.score_letters(&shape, &board),
                        "depth {depth}"
                    );
                }
            }
        }
    }
    assert!(tighter > 0, "bounding choice nodes together never helped");
}

#[test]
fn forced_trees_bound_every_board_and_never_exceed_the_incremental_bound() {
    use frontier_boggle::orderly::{split_order, OrderlyBound, OrderlyBuilder, OrderlyTree};
    let (_, trie) = enable2k();
    let mut rng = SplitMix64::new(11);
    let pool = b"aeirstlnopcd";
    // Steps where the forced tree bounded tighter than the incremental walk.
    let mut tighter = 0;
    for (rows, cols) in [(2, 2), (2, 3), (3, 3), (3, 4)] {
        let shape = Shape::new(rows, cols);
        let order = split_order(&shape);
        let builder = OrderlyBuilder::new(&trie, &shape, &order).unwrap();
        let (mut forced, mut plain) = (OrderlyTree::default(), OrderlyTree::default());
        let (mut on_forced, mut on_plain) = (
            OrderlyBound::new(shape.cells()),
            OrderlyBound::new(shape.cells()),
        );
        let mut scorer = Scorer::new(&trie);
        for _ in 0..20 {
            let masks = random_class(&mut rng, shape.cells(), pool);
            let bound = builder.build(&masks, &mut forced);
            builder.build(&masks, &mut plain);
            let nodes = forced.node_count();
            // Force the cells in split order to random letters, all but the
            // last; after each, bound deeper subclasses on the forced tree.
            let mut fixed = masks.clone();
            let mut prefix = Vec::new();
            let mut undo = Vec::new();
            for depth in 1..shape.cells() {
                let cell = order[depth - 1];
                let letters = letters_in(masks[cell]);
                let letter = letters[rng.below(letters.len() as u64) as usize];
                fixed[cell] = 1 << letter;
                prefix.push(letter);
                let (step, saved) = forced.force(depth as u32 - 1, letter);
                undo.push(saved);
                assert_eq!(step, forced.bound());
                // The incremental walk fixes nothing more on a forced tree.
                assert_eq!(on_forced.bound_of(&forced, &prefix), step, "depth {depth}");
                let incremental = on_plain.bound_of(&plain, &prefix);
                assert!(step <= incremental, "depth {depth}: {step} > {incremental}");
                tighter += usize::from(step < incremental);
                // Boards of the subclass, and of a deeper one on the forced
                // tree: exactly every board where there are few.
                let deeper: Vec<u8> = order[depth..]
                    .iter()
                    .take(2)
                    .map(|&c| masks[c].trailing_zeros() as u8)
                    .collect();
                let mut longer = prefix.clone();
                longer.extend(&deeper);
                let below = on_forced.bound_of(&forced, &longer);
                let boards: u64 = fixed.iter().map(|m| u64::from(m.count_ones())).product();
                let samples = if boards <= 4096 { boards } else { 200 };
                for k in 0..samples {
                    let mut index = k;
                    let board: Vec<u8> = fixed
                        .iter()
                        .map(|&m| {
                            let bits = letters_in(m);
                            let n = bits.len() as u64;
                            let pick = if boards <= 4096 {
                                let pick = index % n;
                                index /= n;
                                pick
                            } else {
                                rng.below(n)
                            };
                            bits[pick as usize]
                        })
                        .collect();
                    let score = scorer.score_letters(&shape, &board);
                    assert!(step >= score, "depth {depth}: {step} < {score}");
                    let inside = order[depth..]
                        .iter()
                        .zip(&deeper)
                        .all(|(&c, &l)| board[c] == l);
                    assert!(
                        !inside || below >= score,
                        "depth {depth}: {below} < {score}"
                    );
                }
            }
            // Undone, the tree is the class's again.
            for saved in undo.into_iter().rev() {
                forced.unforce(saved);
            }
            assert_eq!((forced.bound(), forced.node_count()), (bound, nodes));
            assert_eq!(
                on_forced.bound_of(&forced, &prefix),
                on_plain.bound_of(&plain, &prefix)
            );
        }
    }
    assert!(tighter > 0, "forcing never tightened a bound");
}

/// Every board over `letters` scoring at least the tenth best score, the
/// least of its images, best first; and that target.
fn boards_by_enumeration(trie: &Trie, shape: &Shape, letters: &str) -> (Vec<(String, u32)>, u32) {
    use frontier_boggle::prove::{least_image, symmetries};
    let pool: Vec<u8> = letters.bytes().map(|b| b - b'a').collect();
    let mut boards = all_boards(trie, shape, &pool);
    boards.sort_by_key(|b| std::cmp::Reverse(b.1));
    let target = boards[10.min(boards.len() - 1)].1.max(1);
    let images = symmetries(shape);
    let mut expected: Vec<(String, u32)> = boards
        .iter()
        .filter(|(ls, score)| *score >= target && least_image(ls, &images) == *ls)
        .map(|(ls, score)| (ls.iter().map(|&l| char::from(b'a' + l)).collect(), *score))
        .collect();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    (expected, target)
}

#[test]
fn a_proof_finds_exactly_the_boards_enumeration_finds_and_its_certificate_verifies() {
    use frontier_boggle::certificate;
    use frontier_boggle::prove::{prove, Buckets, ProofSettings};
    let (_, trie) = enable2k();
    for (rows, cols, letters, buckets) in [
        (2, 2, "aerst", "ae rst"),
        (2, 3, "aest", "ae st, corner: aest"),
        (3, 2, "eprst", "e prst, edge: ep rst"),
    ] {
        let shape = Shape::new(rows, cols);
        let (expected, target) = boards_by_enumeration(&trie, &shape, letters);
        assert!(!expected.is_empty());
        let orders = [
            SplitOrder::Cost,
            SplitOrder::named("degree", &shape).unwrap(),
        ];
        for ((buckets, switchover), order) in [
            (Buckets::single(letters).unwrap(), None),
            (Buckets::parse(buckets).unwrap(), None),
            // Forcing every cell it may (all but the last).
            (Buckets::single(letters).unwrap(), Some(0)),
            (Buckets::parse(buckets).unwrap(), Some(0)),
        ]
        .into_iter()
        .flat_map(|case| orders.clone().map(|order| (case.clone(), order)))
        {
            let settings = ProofSettings {
                shape: shape.clone(),
                target,
                buckets: buckets.clone(),
                max_seconds: None,
                certificate: true,
                sample: None,
                share: None,
                switchover,
                order: order.clone(),
            };
            let proof = prove(&trie, &settings, &|_, _| {}).unwrap();
            let what = format!(
                "{rows}x{cols}, buckets {}, switchover {switchover:?}, order {}",
                buckets.describe(),
                order.describe()
            );
            let forced = proof
                .certificate
                .iter()
                .flat_map(|c| &c.pieces)
                .filter(|p| p.forced > 0)
                .count();
            assert_eq!(forced > 0, switchover.is_some(), "{what}");
            assert!(proof.complete, "{what}");
            assert_eq!(proof.boards, expected, "{what}, target {target}");
            // The certificate re-checks, and finds the same boards.
            let text = certificate::write(&trie, &proof);
            let parsed = certificate::parse(&text).unwrap();
            let verified = certificate::verify(&trie, &parsed).unwrap();
            assert_eq!(verified.boards, expected, "{what}");
            assert_eq!(verified.classes as u64, proof.classes);
        }
    }
}

#[test]
fn a_tampered_certificate_is_refused() {
    use frontier_boggle::certificate;
    use frontier_boggle::prove::{prove, Buckets, ProofSettings};
    let (_, trie) = enable2k();
    let shape = Shape::new(2, 3);
    let (_, target) = boards_by_enumeration(&trie, &shape, "aest");
    let settings = ProofSettings {
        shape,
        target,
        buckets: Buckets::parse("ae st").unwrap(),
        max_seconds: None,
        certificate: true,
        sample: None,
        share: None,
        switchover: None,
        order: SplitOrder::Cost,
    };
    let proof = prove(&trie, &settings, &|_, _| {}).unwrap();
    let text = certificate::write(&trie, &proof);
    let check = |text: &str| certificate::parse(text).and_then(|c| certificate::verify(&trie, &c));
    assert!(check(&text).is_ok());
    let lines: Vec<&str> = text.lines().collect();
    // The first line after a class line that is not a class (the header ends
    // before the first class).
    let first_class = lines.iter().position(|l| l.starts_with("class")).unwrap();
    let piece = (first_class..lines.len())
        .find(|&i| !lines[i].starts_with("class") && !lines[i].starts_with("end"))
        .expect("a piece line");
    // A lowered bound, a dropped piece, a dropped class, another target.
    let (letters, bound) = lines[piece].split_once(' ').unwrap();
    let lowered = format!(
        "{letters} {}",
        bound.parse::<u32>().unwrap().saturating_sub(1)
    );
    let mut edits: Vec<(String, &str)> = Vec::new();
    let replace = |i: usize, with: Option<&str>| -> String {
        let mut out: Vec<&str> = lines.clone();
        match with {
            Some(w) => out[i] = w,
            None => {
                out.remove(i);
            }
        }
        out.join("\n") + "\n"
    };
    edits.push((replace(piece, Some(&lowered)), "bound"));
    edits.push((replace(piece, None), "cover"));
    let class = lines.iter().rposition(|l| l.starts_with("class")).unwrap();
    let end = lines.len() - 1;
    let fewer = replace(class, None).replace(lines[end], &format!("end {}", proof.classes - 1));
    edits.push((fewer, "classes"));
    edits.push((
        text.replace(
            &format!("target {target}"),
            &format!("target {}", target + 50),
        ),
        "target",
    ));
    for (edited, what) in &edits {
        let err = check(edited).expect_err(what).to_string();
        assert!(
            err.contains("class") || err.contains("bound"),
            "{what}: {err}"
        );
    }
    // Another dictionary.
    let other = Trie::build(&WordList::parse(b"tea\nseat\neats\n"));
    let err = certificate::verify(&other, &certificate::parse(&text).unwrap()).unwrap_err();
    assert!(err.to_string().contains("another dictionary"), "{err}");
    // Malformed text names its line.
    let err = certificate::parse(&text.replace("shape 2x3", "shape 2y3")).unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
    // A certificate cut short names its last line.
    let kept: Vec<&str> = text.lines().take(text.lines().count() - 1).collect();
    let err = certificate::parse(&kept.join("\n"))
        .unwrap_err()
        .to_string();
    let expected = format!("line {}: no 'end' line", kept.len());
    assert!(err.contains(&expected), "{err}");
    // A piece under forced cells with its bound lowered, or its cells not
    // forced: the bound recomputed on the forced tree differs.
    let forced = prove(
        &trie,
        &ProofSettings {
            switchover: Some(0),
            ..settings.clone()
        },
        &|_, _| {},
    )
    .unwrap();
    let text = certificate::write(&trie, &forced);
    assert!(check(&text).is_ok());
    // Certificates of one order for every class (versions 1 and 2) are
    // still read; forced pieces are not version 1's, orders per class
    // (`cost`) are version 3's.
    let in_degree_order = |switchover| ProofSettings {
        switchover,
        order: SplitOrder::named("degree", &settings.shape).unwrap(),
        ..settings.clone()
    };
    let as_version = |text: &str, version: u32| {
        text.replacen(
            "frontier-boggle-certificate 3",
            &format!("frontier-boggle-certificate {version}"),
            1,
        )
    };
    let unforced = prove(&trie, &in_degree_order(None), &|_, _| {}).unwrap();
    let unforced = certificate::write(&trie, &unforced);
    let degree_forced = prove(&trie, &in_degree_order(Some(0)), &|_, _| {}).unwrap();
    let degree_forced = certificate::write(&trie, &degree_forced);
    assert!(check(&as_version(&unforced, 1)).is_ok());
    assert!(check(&as_version(&degree_forced, 2)).is_ok());
    let err = check(&as_version(&degree_forced, 1))
        .unwrap_err()
        .to_string();
    assert!(err.contains("one letter a-z per cell"), "{err}");
    let err = check(&as_version(&text, 2)).unwrap_err().to_string();
    assert!(err.contains("version 3"), "{err}");
    // A cost-ordered certificate read in the degree order: where buckets
    // differ in size the orders differ, and so do the classes' bounds.
    let uneven = ProofSettings {
        buckets: Buckets::parse("a est").unwrap(),
        ..settings.clone()
    };
    let uneven = certificate::write(&trie, &prove(&trie, &uneven, &|_, _| {}).unwrap());
    assert!(check(&uneven).is_ok());
    let degree = SplitOrder::named("degree", &settings.shape)
        .unwrap()
        .describe();
    let err = check(&uneven.replacen("order cost", &format!("order {degree}"), 1))
        .unwrap_err()
        .to_string();
    assert!(err.contains("bound") || err.contains("cover"), "{err}");
    for order in ["0 1 2", "0 1 2 3 4 4", "sorted"] {
        let err = certificate::parse(&text.replacen("order cost", &format!("order {order}"), 1))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 5") && err.contains("order"),
            "{order}: {err}"
        );
    }
    let lines: Vec<&str> = text.lines().collect();
    let piece = lines
        .iter()
        .position(|l| l.contains('.') && !l.starts_with("class"))
        .expect("a forced piece");
    let (letters, bound) = lines[piece].split_once(' ').unwrap();
    let bound: u32 = bound.parse().unwrap();
    for edit in [
        format!("{letters} {}", bound - 1),
        format!("{} {bound}", letters.replace('.', "")),
    ] {
        let mut edited = lines.clone();
        edited[piece] = &edit;
        let err = check(&(edited.join("\n") + "\n")).expect_err(&edit);
        assert!(err.to_string().contains("bound"), "{edit}: {err}");
    }
}

#[test]
fn buckets_are_checked() {
    use frontier_boggle::prove::Buckets;
    let b = Buckets::parse("aeiou bcd, corner: abcdeiou, edge: ab cdeiou").unwrap();
    assert_eq!(b.describe(), "aeiou bcd, corner: abcdeiou, edge: ab cdeiou");
    for (text, says) in [
        ("ab bc", "in two sets"),
        ("ab c1", "not a letter"),
        ("ab cd, corner: abc", "other letters"),
        ("ab cd, middle: abcd", "corner:"),
        ("ab cd, edge: abcd, edge: abcd", "given twice"),
        ("", "no sets"),
    ] {
        let err = Buckets::parse(text).unwrap_err().to_string();
        assert!(err.contains(says), "{text}: {err}");
    }
}

#[test]
fn shares_of_a_proof_add_up_to_the_whole() {
    use frontier_boggle::prove::{prove, Buckets, ProofSettings};
    let (_, trie) = enable2k();
    let shape = Shape::new(2, 3);
    let (_, target) = boards_by_enumeration(&trie, &shape, "aest");
    let settings = |share| ProofSettings {
        shape: shape.clone(),
        target,
        buckets: Buckets::parse("ae st").unwrap(),
        max_seconds: None,
        certificate: false,
        sample: None,
        share,
        switchover: None,
        order: SplitOrder::Cost,
    };
    let whole = prove(&trie, &settings(None), &|_, _| {}).unwrap();
    assert!(whole.classes > 3, "enough classes to share");
    let parts: Vec<_> = (0..3)
        .map(|part| prove(&trie, &settings(Some((part, 3))), &|_, _| {}).unwrap())
        .collect();
    assert_eq!(parts.iter().map(|p| p.classes).sum::<u64>(), whole.classes);
    assert_eq!(
        parts.iter().map(|p| p.subclasses).sum::<u64>(),
        whole.subclasses
    );
    let mut boards: Vec<(String, u32)> = parts.iter().flat_map(|p| p.boards.clone()).collect();
    boards.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut expected = whole.boards.clone();
    expected.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    assert_eq!(boards, expected);
    assert!(prove(&trie, &settings(Some((3, 3))), &|_, _| {}).is_err());
}

/// The GPU prover walks the bottom of the search: the same subclasses
/// bounded, the same boards scored and found as the CPU proof, at every
/// split depth, on 9 and 16 cells, unforced and with cells forced near the
/// root (the forced trees shipped to the GPU), when small GPU stacks
/// send subclasses back to the CPU, with the classes' paths collected
/// and sorted on the GPU or on the host threads, and with classes split
/// at two depths in one proof.
/// A results file's class line: index, subclasses, boards.
#[cfg(feature = "gpu")]
type ClassLine = (u64, u64, Vec<(Vec<u8>, u32)>);

/// A GPU proof with a results file writes the classes the CPU's file of
/// the same proof holds, with their subclasses and boards, also when
/// board buffers overflow (subclasses walked again); resuming a file that
/// holds some of them searches only the others, and the proof's boards
/// include the file's.
#[cfg(feature = "gpu")]
#[test]
fn gpu_proofs_write_and_resume_results_files() {
    use frontier_boggle::gpu_prove::{prove_on_gpu, GpuProofOptions};
    use frontier_boggle::prove::{prove_logged, Buckets, ProofSettings};
    if !frontier_core::gpu::usable_or_skip("gpu_proofs_write_and_resume_results_files") {
        return;
    }
    let (_, trie) = enable2k();
    let settings = ProofSettings {
        shape: Shape::new(3, 3),
        target: 500,
        buckets: Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: abcdefghijklmnopqrstuvwxyz")
            .unwrap(),
        max_seconds: None,
        certificate: false,
        sample: None,
        share: None,
        switchover: None,
        order: SplitOrder::Cost,
    };
    let dir = std::env::temp_dir().join(format!("frontier-gpu-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| {
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    };
    // Class lines (index, subclasses, sorted boards), sorted, and the
    // header and class lines as written.
    let read = |path: &PathBuf| {
        let text = std::fs::read_to_string(path).unwrap();
        let parsed = frontier_boggle::results::parse("results", &text).unwrap();
        let mut classes: Vec<ClassLine> = parsed
            .classes
            .iter()
            .map(|c| {
                let mut boards = c.boards.clone();
                boards.sort();
                (c.index, c.subclasses, boards)
            })
            .collect();
        classes.sort();
        (classes, text)
    };
    let cpu_file = file("cpu.txt");
    let cpu = prove_logged(
        &trie,
        &settings,
        &|_, _| {},
        &cpu_file,
        false,
        f64::INFINITY,
    )
    .unwrap();
    let (expected, cpu_text) = read(&cpu_file);
    assert!(cpu.complete && expected.len() > 10);
    for board_capacity in [1 << 23, 64] {
        let gpu_file = file("gpu.txt");
        let options = GpuProofOptions {
            split_depth: Some(4),
            board_capacity,
            results: Some(gpu_file.clone()),
            ..GpuProofOptions::default()
        };
        let (gpu, report) = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
        assert!(gpu.complete && report.handed_over > 0);
        assert_eq!(report.relaunched > 0, board_capacity == 64);
        assert_eq!(gpu.boards, cpu.boards);
        assert_eq!(
            read(&gpu_file).0,
            expected,
            "board capacity {board_capacity}"
        );
    }
    // The CPU's file cut after its first third of classes, resumed on the
    // GPU.
    let lines: Vec<&str> = cpu_text.lines().collect();
    let third = expected.len() / 3;
    let class_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("class "))
        .collect();
    let kept = lines[..class_lines[third]].join("\n") + "\n";
    let resumed_file = file("resumed.txt");
    std::fs::write(&resumed_file, kept).unwrap();
    let options = GpuProofOptions {
        split_depth: Some(4),
        results: Some(resumed_file.clone()),
        resume: true,
        ..GpuProofOptions::default()
    };
    let (gpu, _) = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
    assert!(gpu.complete);
    assert_eq!(gpu.classes_resumed as usize, third);
    assert_eq!(gpu.classes as usize, expected.len() - third);
    assert_eq!(gpu.boards, cpu.boards);
    // Class times on the host alone project no core-hours.
    assert_eq!(gpu.projected_core_hours(), None);
    assert_eq!(read(&resumed_file).0, expected);
    // A new file where one exists is refused before the GPU starts.
    let options = GpuProofOptions {
        results: Some(resumed_file),
        ..GpuProofOptions::default()
    };
    let refused = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap_err();
    assert!(refused.to_string().contains("exists"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_proofs_equal_cpu_proofs() {
    use frontier_boggle::gpu_prove::{
        prove_on_gpu, DeeperSplit, GpuBuild, GpuProofOptions, HostCopies,
    };
    use frontier_boggle::prove::{prove, Buckets, ProofSettings};
    if !frontier_core::gpu::usable_or_skip("gpu_proofs_equal_cpu_proofs") {
        return;
    }
    let (_, trie) = enable2k();
    let settings = |rows, cols, target, buckets: &str, sample, switchover| ProofSettings {
        shape: Shape::new(rows, cols),
        target,
        buckets: Buckets::parse(buckets).unwrap(),
        max_seconds: None,
        certificate: false,
        sample,
        share: None,
        switchover,
        order: SplitOrder::Cost,
    };
    let corners = "aeijou bcdfgmpqvwxz hklnrsty, corner: abcdefghijklmnopqrstuvwxyz";
    let four = "aeijou bcdfgmpqvwxz hklnrsty";
    let forced = |target| Some(frontier_boggle::prove::default_switchover(target));
    // Forced cases split where the whole CPU proof forces no deeper (a
    // split stops forcing above it, and the counts would differ).
    let cases = [
        // (settings, split depths, stack capacity, who copies the trees to
        // the device: the default (`auto`), whoever finds the queue full,
        // the GPU's thread alone, every host thread)
        (
            settings(3, 3, 500, corners, None, None),
            vec![None, Some(1), Some(8)],
            2048,
            vec![
                HostCopies::default(),
                HostCopies::WhenQueueFull,
                HostCopies::Never,
                HostCopies::Always,
            ],
        ),
        (
            settings(3, 3, 500, corners, None, None),
            vec![Some(4)],
            48,
            vec![HostCopies::default()],
        ),
        (
            settings(4, 4, 3625, four, Some((4, 3)), None),
            vec![None, Some(3)],
            2048,
            vec![HostCopies::default()],
        ),
        (
            settings(3, 3, 500, corners, None, forced(500)),
            vec![Some(8)],
            2048,
            vec![HostCopies::default()],
        ),
        (
            settings(4, 4, 3625, four, Some((4, 3)), forced(3625)),
            vec![None],
            2048,
            vec![HostCopies::default()],
        ),
        (
            settings(4, 4, 3625, four, Some((4, 3)), forced(3625)),
            vec![Some(6)],
            64,
            vec![HostCopies::default()],
        ),
    ];
    for (settings, depths, stack_capacity, copies) in cases {
        let cpu = prove(&trie, &settings, &|_, _| {}).unwrap();
        assert!(cpu.complete && cpu.subclasses > 0);
        for split_depth in depths {
            for &host_copies in &copies {
                // The whole tree built on the GPU where the copies are the
                // default's, with the merges on the GPU and without, only
                // the sorted paths where trees are copied when the queue is
                // full, nothing in the other cases.
                let builds = match host_copies {
                    HostCopies::Auto => vec![GpuBuild::Tree, GpuBuild::Merges],
                    HostCopies::WhenQueueFull => vec![GpuBuild::Paths],
                    HostCopies::Never | HostCopies::Always => vec![GpuBuild::Host],
                };
                for build in builds {
                    let options = GpuProofOptions {
                        split_depth,
                        stack_capacity,
                        host_copies,
                        build,
                        ..GpuProofOptions::default()
                    };
                    let (gpu, report) =
                        prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
                    let case = format!(
                    "{}x{} split {split_depth:?} capacity {stack_capacity} copies {host_copies:?} build {build:?}",
                    settings.shape.rows, settings.shape.cols
                );
                    assert!(gpu.complete, "{case}");
                    assert_eq!(gpu.boards, cpu.boards, "{case}");
                    assert_eq!(gpu.subclasses, cpu.subclasses, "{case}");
                    assert_eq!(gpu.boards_scored, cpu.boards_scored, "{case}");
                    assert!(report.handed_over > 0, "{case}");
                    if stack_capacity < 2048 {
                        assert!(report.walked_on_cpu > 0, "{case}: nothing overflowed");
                    } else {
                        assert!(report.subclasses > 0, "{case}");
                        assert_eq!(report.walked_on_cpu, 0, "{case}");
                    }
                    // Who copied the trees (these are far below the default
                    // budget); `auto` is one of the other three.
                    match host_copies {
                        HostCopies::Never => {
                            assert_eq!(report.host_uploaded_bytes, 0, "{case}");
                            assert!(report.uploaded_bytes > 0, "{case}");
                        }
                        HostCopies::Always => {
                            assert!(report.host_uploaded_bytes > 0, "{case}");
                            assert_eq!(report.uploaded_bytes, 0, "{case}");
                        }
                        HostCopies::WhenQueueFull | HostCopies::Auto => {
                            // With the GPU's tree kept on the device, a class
                            // that forced nothing sends nothing from the host.
                            assert!(
                                report.host_uploaded_bytes
                                    + report.host_kept_bytes
                                    + report.uploaded_bytes
                                    > 0,
                                "{case}"
                            );
                        }
                    }
                    if build == GpuBuild::Merges {
                        // Every merge on the GPU, and the device's copy of each
                        // arena whole: nothing copied from the host.
                        assert_eq!(
                            report.merges_on_gpu > 0,
                            settings.switchover.is_some() && split_depth != Some(1),
                            "{case}"
                        );
                        assert_eq!(report.host_uploaded_bytes, 0, "{case}");
                    }
                }
            }
        }
    }
    // Classes split at two depths in one proof (every other one deeper),
    // launched apart by depth, and never deeper: the CPU proof's counts.
    // (3x3: many classes hand over, so both depths are seen.)
    for (settings, split_depth) in [
        (settings(3, 3, 500, corners, None, forced(500)), Some(4)),
        (settings(3, 3, 500, corners, None, None), None),
    ] {
        let cpu = prove(&trie, &settings, &|_, _| {}).unwrap();
        for deeper in [DeeperSplit::EveryOther, DeeperSplit::Never] {
            let options = GpuProofOptions {
                split_depth,
                deeper,
                ..GpuProofOptions::default()
            };
            let (gpu, report) = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
            let case = format!(
                "{}x{} deeper {deeper:?}: {} classes at the split, {} deeper",
                settings.shape.rows,
                settings.shape.cols,
                report.split_classes,
                report.deeper_classes
            );
            assert!(gpu.complete, "{case}");
            assert!(report.split_classes > 0, "{case}");
            assert_eq!(
                report.deeper_classes > 0,
                deeper == DeeperSplit::EveryOther,
                "{case}"
            );
            assert_eq!(gpu.boards, cpu.boards, "{case}");
            assert_eq!(gpu.subclasses, cpu.subclasses, "{case}");
            assert_eq!(gpu.boards_scored, cpu.boards_scored, "{case}");
        }
    }
    // Board buffers far too small: the subclasses that find one full are
    // walked again on the GPU, split deeper when a round finishes none of
    // them, and with one position left walked on the CPU, with the CPU
    // proof's boards and counts (no board lost, none scored twice, no
    // subclass counted twice).
    let settings = settings(3, 3, 500, corners, None, None);
    let cpu = prove(&trie, &settings, &|_, _| {}).unwrap();
    for board_capacity in [64, 1] {
        let options = GpuProofOptions {
            split_depth: Some(4),
            board_capacity,
            ..GpuProofOptions::default()
        };
        let (gpu, report) = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
        let case = format!("3x3 board capacity {board_capacity}");
        assert!(gpu.complete, "{case}");
        assert!(report.relaunched > 0, "{case}: nothing relaunched");
        assert_eq!(gpu.boards, cpu.boards, "{case}");
        assert_eq!(gpu.subclasses, cpu.subclasses, "{case}");
        assert_eq!(gpu.boards_scored, cpu.boards_scored, "{case}");
    }
    // A host budget of one byte: each class handed over waits until the
    // one before it is given back, and the GPU's thread launches each alone
    // (a wait that never ended would hang here), with the CPU proof's
    // boards and counts.
    let batched = GpuProofOptions {
        split_depth: Some(4),
        ..GpuProofOptions::default()
    };
    let (_, batched) = prove_on_gpu(&trie, &settings, &batched, &|_, _| {}).unwrap();
    let options = GpuProofOptions {
        split_depth: Some(4),
        host_memory_budget: Some(1),
        ..GpuProofOptions::default()
    };
    let (gpu, report) = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap();
    assert!(gpu.complete);
    assert!(
        report.launches > batched.launches,
        "{} launches one class at a time, {} batched",
        report.launches,
        batched.launches
    );
    assert_eq!(gpu.boards, cpu.boards);
    assert_eq!(gpu.subclasses, cpu.subclasses);
    assert_eq!(gpu.boards_scored, cpu.boards_scored);
    let options = GpuProofOptions {
        board_capacity: 0,
        ..GpuProofOptions::default()
    };
    let refused = prove_on_gpu(&trie, &settings, &options, &|_, _| {}).unwrap_err();
    assert!(
        refused.to_string().contains("board capacity of 0"),
        "{refused}"
    );
}

/// A class longer than a run: once it has run `part_seconds`, its finished
/// first-position letters are appended as parts; a resumed proof skips
/// them and adds them to the class (a part's count edited by hand shows up
/// in its class: it was read, not searched again); the boards and
/// subclasses equal a proof run whole.
#[test]
fn classes_resumed_from_their_parts_equal_classes_run_whole() {
    use frontier_boggle::prove::{prove, prove_logged, Buckets, ProofSettings};
    use frontier_boggle::results::parse;
    let (_, trie) = enable2k();
    let shape = Shape::new(3, 2);
    let (expected, target) = boards_by_enumeration(&trie, &shape, "eprst");
    let settings = ProofSettings {
        shape,
        target,
        buckets: Buckets::parse("ep rst").unwrap(),
        max_seconds: None,
        certificate: false,
        sample: None,
        share: None,
        // Forced at the root, so that a class is searched letter by letter
        // of its first position.
        switchover: Some(target),
        order: SplitOrder::Cost,
    };
    let whole = prove(&trie, &settings, &|_, _| {}).unwrap();
    assert_eq!(whole.boards, expected);
    let dir = std::env::temp_dir().join(format!("frontier-boggle-parts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (all_parts, cut) = (dir.join("all-parts.txt"), dir.join("cut.txt"));
    let logged = prove_logged(&trie, &settings, &|_, _| {}, &all_parts, false, 0.0).unwrap();
    assert_eq!(logged.boards, whole.boards);
    assert_eq!(logged.subclasses, whole.subclasses);
    let text = std::fs::read_to_string(&all_parts).unwrap();
    let read = parse("all-parts", &text).unwrap();
    assert!(read.parts.len() > read.classes.len(), "classes in parts");

    // Records: a class or part line with the board lines after it.
    let body = text.find("\nclass ").min(text.find("\npart ")).unwrap() + 1;
    let mut records: Vec<String> = Vec::new();
    for line in text[body..].lines() {
        match line.starts_with("board ") {
            true => records.last_mut().unwrap().push_str(&format!("{line}\n")),
            false => records.push(format!("{line}\n")),
        }
    }
    // Every other class with more than one part is cut after its first
    // part (its class line and later parts gone, as in a run stopped
    // mid-class), that part's subclass count raised by 1,000.
    let index = |record: &str| record.split(' ').nth(1).unwrap().to_string();
    let parts_of = |i: &str| {
        read.parts
            .iter()
            .filter(|p| p.index.to_string() == i)
            .count()
    };
    let mut cut_classes = std::collections::HashSet::new();
    for class in read.classes.iter().step_by(2) {
        if parts_of(&class.index.to_string()) > 1 {
            cut_classes.insert(class.index.to_string());
        }
    }
    assert!(!cut_classes.is_empty(), "no class has two parts");
    let mut kept = text[..body].to_string();
    let mut first_seen = std::collections::HashSet::new();
    for record in &records {
        let i = index(record);
        if !cut_classes.contains(&i) && record.starts_with("class ") {
            // Classes of earlier runs took 100 s each, for the projection.
            let mut fields: Vec<&str> = record.split(' ').collect();
            fields[2] = "100.000";
            kept.push_str(&fields.join(" "));
        } else if !cut_classes.contains(&i) {
            kept.push_str(record);
        } else if record.starts_with("part ") && first_seen.insert(i) {
            let mut fields: Vec<String> = record
                .lines()
                .next()
                .unwrap()
                .split(' ')
                .map(String::from)
                .collect();
            fields[4] = (fields[4].parse::<u64>().unwrap() + 1000).to_string();
            kept.push_str(&format!("{}\n", fields.join(" ")));
            for board in record.lines().skip(1) {
                kept.push_str(&format!("{board}\n"));
            }
        }
    }
    std::fs::write(&cut, kept).unwrap();
    // Parts name letters of a class's first cell in the file's split
    // order: another order must not resume it.
    let in_degree_order = ProofSettings {
        order: SplitOrder::named("degree", &settings.shape).unwrap(),
        ..settings.clone()
    };
    let err = prove_logged(&trie, &in_degree_order, &|_, _| {}, &cut, true, 0.0)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("different split order") && err.contains("--order cost"),
        "{err}"
    );
    let resumed = prove_logged(&trie, &settings, &|_, _| {}, &cut, true, 0.0).unwrap();
    assert!(resumed.complete);
    assert_eq!(resumed.classes, cut_classes.len() as u64);
    assert_eq!(resumed.boards, whole.boards);
    let after = parse("cut", &std::fs::read_to_string(&cut).unwrap()).unwrap();
    for class in &after.classes {
        let original = read
            .classes
            .iter()
            .find(|c| c.index == class.index)
            .unwrap();
        let raised = cut_classes.contains(&class.index.to_string());
        assert_eq!(
            class.subclasses,
            original.subclasses + if raised { 1000 } else { 0 },
            "class {}",
            class.index
        );
        let mut boards = class.boards.clone();
        let mut expected = original.boards.clone();
        boards.sort();
        expected.sort();
        assert_eq!(boards, expected, "class {}", class.index);
    }
    assert_eq!(after.classes.len(), read.classes.len());
    // The projection counts the earlier runs' classes, not only the few
    // this run finished.
    let (projected, _) = resumed.projected_core_hours().unwrap();
    let earlier = (after.classes.len() - cut_classes.len()) as f64;
    let floor = earlier * 100.0 / after.classes.len() as f64 * whole.classes_total as f64 / 3600.0;
    assert!(projected >= floor * 0.999, "{projected} below {floor}");

    // A part's letters are a-z.
    let bad = text[..body].to_string() + "part 3 aB 1.0 2\n";
    let err = parse("bad", &bad).unwrap_err().to_string();
    assert!(err.contains("a part's letters are a-z"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
