//! `frontier wordle`: best next guesses, an interactive solver, the
//! greedy policy played against every answer, and proofs of the fewest
//! guesses (one first guess, or a sweep of them all) with their trees
//! verified.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use crate::{
    best_guesses, filter, hard_mode_allows, parse_pattern, pattern, read_words, simulate,
    FeedbackTable, Rank, Word, ALL_GREEN,
};

use frontier_app::config::resolve_data_path;
use frontier_app::CliError;

mod sweep;
use sweep::SweepRun;

/// Wordle commands.
#[derive(Debug, clap::Subcommand)]
pub enum WordleCommand {
    /// The best next guesses given the feedback so far.
    Next {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
        /// Feedback so far, as guess:pattern (g green, y yellow, grey as . - b or x), e.g. crane:g.y..
        #[arg(long)]
        feedback: Vec<String>,
        /// How many guesses to list.
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
    /// Interactive solver: type the feedback you got, get the next guess.
    Play {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
    },
    /// Time the ranking of every guess over all answers: one core, all
    /// cores, and (with --gpu) the GPU, checking the rankings are equal.
    Bench {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
        /// Also rank on the GPU.
        #[arg(long)]
        gpu: bool,
        /// Repetitions (the best time is reported).
        #[arg(long, default_value_t = 5)]
        repeat: usize,
    },
    /// The fewest guesses in total over all answers when the first guess is
    /// fixed, proven by the AND/OR decision executor (every guess at every
    /// later step, admissible bounds).
    Prove {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
        /// The first guess.
        #[arg(long, default_value = DEFAULT_FIRST)]
        first: String,
        /// Write the optimal tree as JSON here.
        #[arg(long)]
        tree_json: Option<PathBuf>,
        /// Write the optimal tree as Graphviz DOT here.
        #[arg(long)]
        tree_dot: Option<PathBuf>,
        /// Guesses allowed per answer with --hard [default: 6, the game's;
        /// 0: no limit]. Normal mode's optimum needs 5, so it has none.
        #[arg(long)]
        max_guesses: Option<u8>,
        /// Threads that solve the first guess's feedback classes, each
        /// class on one thread (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// The optimal first guess: every guess judged by the decision executor
    /// on all cores, each either proven within --margin of the best (exact
    /// cost) or proven outside it (a lower bound).
    Sweep {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Prove exact costs for every guess within this many guesses of the best.
        #[arg(long, default_value_t = 0)]
        margin: u32,
        /// Record each result here as it is proven, and skip guesses already
        /// recorded: an interrupted sweep resumes where it stopped.
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Judge only every N-th guess of the sweep's order (a sample, to
        /// estimate the time of the full sweep).
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Stop taking new guesses after this many seconds (finished ones are
        /// recorded; resume with the same --checkpoint).
        #[arg(long, value_parser = frontier_core::search::parse_seconds)]
        seconds: Option<f64>,
        /// Best total known beforehand (e.g. from `prove`), used as the
        /// first budget instead of solving the most promising guess first.
        #[arg(long)]
        incumbent: Option<u32>,
        /// Guesses allowed per answer with --hard [default: 6; 0: no limit].
        #[arg(long)]
        max_guesses: Option<u8>,
    },
    /// Check a decision tree on its own: every answer played through it with
    /// the feedback rule, each guess in the guess list, hard mode's rule on
    /// the whole history (with --hard), the guess limit, and the total.
    Verify {
        /// The tree: frontier's JSON (`prove --tree-json`), or a plain-text
        /// tree of one line per answer (`salet BBBBB1 … GGGGG4`, the format
        /// of Alex Selby's wordle repository).
        tree: PathBuf,
        /// Possible answers, one per line.
        #[arg(long, default_value = "@data/wordle/orig_answers_2315.txt")]
        answers: PathBuf,
        /// Allowed guesses, one per line (answers are added if missing).
        #[arg(long, default_value = "@data/wordle/orig_allowed_12972.txt")]
        guesses: PathBuf,
        /// Hard mode: every guess keeps the greens and reuses each revealed
        /// letter as often as it was revealed.
        #[arg(long)]
        hard: bool,
        /// Guesses allowed per answer [default: 6, the game's; 0: no limit].
        #[arg(long)]
        max_guesses: Option<u8>,
        /// Fail unless the tree's total over all answers is this.
        #[arg(long)]
        total: Option<u32>,
    },
    /// Play the greedy policy against every answer; print the distribution.
    Simulate {
        /// The word lists.
        #[command(flatten)]
        lists: Lists,
        /// Fix the first guess.
        #[arg(long)]
        first: Option<String>,
    },
}

/// Word lists and policy.
#[derive(Debug, clap::Args)]
pub struct Lists {
    /// Possible answers, one per line.
    #[arg(long, default_value = "@data/wordle/orig_answers_2315.txt")]
    answers: PathBuf,
    /// Allowed guesses, one per line (answers are added if missing).
    #[arg(long, default_value = "@data/wordle/orig_allowed_12972.txt")]
    guesses: PathBuf,
    /// entropy (expected information) or expected-remaining (fewest candidates left).
    #[arg(long, default_value = "entropy", value_parser = parse_rank)]
    rank: Rank,
    /// Hard mode: greens stay, revealed letters must be used again.
    #[arg(long)]
    hard: bool,
}

fn parse_rank(text: &str) -> Result<Rank, String> {
    match text {
        "entropy" => Ok(Rank::Entropy),
        "expected-remaining" => Ok(Rank::ExpectedRemaining),
        other => Err(format!("'{other}': expected entropy or expected-remaining")),
    }
}

fn wordle_error(e: crate::WordleError) -> CliError {
    CliError::Input(e.to_string())
}

impl Lists {
    fn table(&self) -> Result<FeedbackTable, CliError> {
        read_table(&self.answers, &self.guesses)
    }
}

/// The feedback table of an answer list and a guess list (answers added to
/// the guesses where missing, as the game allows guessing them).
fn read_table(answers_path: &Path, guesses_path: &Path) -> Result<FeedbackTable, CliError> {
    let answers = read_words(&resolve_data_path(answers_path)?).map_err(wordle_error)?;
    let guesses = read_words(&resolve_data_path(guesses_path)?).map_err(wordle_error)?;
    for (what, list, path) in [
        ("answers", &answers, answers_path),
        ("guesses", &guesses, guesses_path),
    ] {
        if list.rejected > 0 {
            tracing::warn!(
                "{}: {} {what} lines are not five letters a-z (skipped)",
                path.display(),
                list.rejected
            );
        }
    }
    let mut all = guesses.words;
    let known: std::collections::HashSet<Word> = all.iter().copied().collect();
    all.extend(answers.words.iter().filter(|w| !known.contains(w)));
    Ok(FeedbackTable::new(all, answers.words))
}

/// Candidate answers (indices) and the guesses with their feedback so far.
type GameState = (Vec<u32>, Vec<(Word, u8)>);

/// Applies `guess:pattern` steps; returns the candidates and the history.
fn apply(table: &FeedbackTable, steps: &[String]) -> Result<GameState, CliError> {
    let mut candidates: Vec<u32> = (0..table.answers.len() as u32).collect();
    let mut history = Vec::new();
    for step in steps {
        let (word, code) = step.split_once(':').ok_or_else(|| {
            CliError::Input(format!(
                "--feedback {step}: expected guess:pattern, e.g. crane:g.y.."
            ))
        })?;
        let word: Word = word.parse().map_err(wordle_error)?;
        let code = parse_pattern(code).map_err(wordle_error)?;
        let g = table
            .guess_index(word)
            .ok_or_else(|| CliError::Input(format!("'{word}' is not in the guess list")))?;
        candidates = filter(table, &candidates, g, code);
        history.push((word, code));
    }
    if candidates.is_empty() {
        return Err(CliError::Input("no answer fits that feedback".into()));
    }
    Ok((candidates, history))
}

fn suggestions(
    table: &FeedbackTable,
    candidates: &[u32],
    lists: &Lists,
    history: &[(Word, u8)],
    top: usize,
) -> Vec<crate::Score> {
    let allowed = |g: usize| !lists.hard || hard_mode_allows(history, table.guesses[g]);
    best_guesses(table, candidates, lists.rank, &allowed, top)
}

/// Runs a wordle command.
/// `progress`: whether long commands (the sweep) print progress on stderr.
pub fn run(command: &WordleCommand, json: bool, progress: bool) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let io = frontier_app::stdout_error;
    match command {
        WordleCommand::Next {
            lists,
            feedback,
            top,
        } => {
            if *top == 0 {
                return Err(CliError::Input("--top 0: list at least one guess".into()));
            }
            let table = lists.table()?;
            let (candidates, history) = apply(&table, feedback)?;
            let best = suggestions(&table, &candidates, lists, &history, *top);
            if json {
                let rows: Vec<serde_json::Value> = best
                    .iter()
                    .map(|s| serde_json::json!({"guess": table.guesses[s.guess].to_string(), "entropy": s.entropy, "expected_remaining": s.expected_remaining, "possible": s.possible}))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({"candidates": candidates.len(), "best": rows})
                )
                .map_err(io)?;
                return Ok(());
            }
            writeln!(out, "{} candidate answers left", candidates.len()).map_err(io)?;
            if candidates.len() <= 20 {
                let words: Vec<String> = candidates
                    .iter()
                    .map(|&a| table.answers[a as usize].to_string())
                    .collect();
                writeln!(out, "  {}", words.join(" ")).map_err(io)?;
            }
            writeln!(out, "guess   bits   expected left  possible answer").map_err(io)?;
            for s in best {
                writeln!(
                    out,
                    "{}  {:6.3}  {:12.2}  {}",
                    table.guesses[s.guess],
                    s.entropy,
                    s.expected_remaining,
                    if s.possible { "yes" } else { "" }
                )
                .map_err(io)?;
            }
            Ok(())
        }
        WordleCommand::Bench { lists, gpu, repeat } => {
            // Before the lists are read, which may take the machine's data.
            check_repeat(*repeat)?;
            if lists.hard {
                return Err(CliError::Input(
                    "bench ranks first guesses, which hard mode does not restrict: --hard does not apply".into(),
                ));
            }
            let table = lists.table()?;
            let all: Vec<u32> = (0..table.answers.len() as u32).collect();
            let (one, ranking) = time_ranking(&table, lists.rank, 1, *repeat)?;
            let (many, _) = time_ranking(&table, lists.rank, 0, *repeat)?;
            let top = &table.guesses[ranking[0].guess];
            let mut summary = serde_json::json!({
                "guesses": table.guesses.len(), "answers": all.len(),
                "best": top.to_string(), "entropy": ranking[0].entropy,
                "one_core_seconds": one, "all_cores_seconds": many,
            });
            if !json {
                writeln!(out, "{} guesses x {} answers: best {top} ({:.4} bits); one core {:.1} ms, all cores {:.1} ms", table.guesses.len(), all.len(), ranking[0].entropy, one * 1e3, many * 1e3).map_err(io)?;
            }
            if *gpu {
                let (device, best) = time_gpu_ranking(&table, lists.rank, *repeat, &ranking)?;
                summary["gpu"] = serde_json::json!({
                    "device": device, "seconds": best, "equal_to_cpu": true,
                });
                if !json {
                    writeln!(out, "GPU {device}: {:.3} ms by device events (table on the device); ranking equal to the CPU's: true", best * 1e3).map_err(io)?;
                }
            }
            if json {
                writeln!(out, "{summary}").map_err(io)?;
            }
            Ok(())
        }
        WordleCommand::Prove {
            lists,
            first,
            tree_json,
            tree_dot,
            max_guesses,
            threads,
        } => {
            let limit = hard_limit(lists.hard, *max_guesses)?;
            let threads = match frontier_app::plugin::thread_count(*threads)? {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            let table = lists.table()?;
            let word: Word = first.parse().map_err(wordle_error)?;
            // `--first` has a default, which a list of one's own may lack.
            let g = table.guess_index(word).ok_or_else(|| {
                CliError::Input(format!(
                    "--first {word} ({DEFAULT_FIRST} unless given) is not in the guess list"
                ))
            })?;
            let all: Vec<u32> = (0..table.answers.len() as u32).collect();
            let started = std::time::Instant::now();
            let (cost, tree) = proven_tree(&table, lists.hard, limit, g, threads)?.ok_or_else(|| {
                CliError::Input(match limit {
                    Some(n) => format!(
                        "no tree starting with {word} finds every answer within {n} guesses (hard mode)"
                    ),
                    None => format!("no tree starting with {word} finds every answer"),
                })
            })?;
            let write = |path: &PathBuf, text: String| {
                frontier_core::files::write_atomic(path, text.as_bytes()).map_err(|source| {
                    CliError::Io {
                        path: path.clone(),
                        source,
                    }
                })
            };
            if let Some(path) = tree_json {
                write(path, tree_to_json(&table, &tree).to_string())?;
            }
            if let Some(path) = tree_dot {
                write(path, tree_to_dot(&table, &tree))?;
            }
            let seconds = started.elapsed().as_secs_f64();
            let average = f64::from(cost) / all.len() as f64;
            if json {
                let value = serde_json::json!({
                    "first": word.to_string(), "hard": lists.hard, "max_guesses": limit, "total": cost,
                    "answers": all.len(), "average": average, "seconds": seconds,
                    "tree_verified": true,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                writeln!(
                    out,
                    "first guess {word}{}: at best {cost} guesses over {} answers (average {average:.4}), proven in {seconds:.1} s; tree verified",
                    match (lists.hard, limit) {
                        (false, _) => String::new(),
                        (true, Some(n)) => format!(" (hard mode, at most {n} guesses)"),
                        (true, None) => " (hard mode, no limit on guesses)".into(),
                    },
                    all.len(),
                )
                .map_err(io)?;
            }
            Ok(())
        }
        WordleCommand::Sweep {
            lists,
            threads,
            margin,
            checkpoint,
            every,
            seconds,
            incumbent,
            max_guesses,
        } => {
            let limit = hard_limit(lists.hard, *max_guesses)?;
            // Flags are refused before the lists are read.
            frontier_app::plugin::thread_count(*threads)?;
            let table = lists.table()?;
            let options = SweepRun {
                hard: lists.hard,
                max_guesses: limit,
                threads: *threads,
                margin: *margin,
                checkpoint: checkpoint.as_deref(),
                every: *every,
                seconds: *seconds,
                incumbent: *incumbent,
                progress,
            };
            let report = sweep::run(&table, &options)?;
            if json {
                writeln!(out, "{}", report.to_json(&table)).map_err(io)?;
            } else {
                write!(out, "{}", report.to_text(&table)).map_err(io)?;
            }
            Ok(())
        }
        WordleCommand::Verify {
            tree,
            answers,
            guesses,
            hard,
            max_guesses,
            total,
        } => {
            let rules = crate::verify::Rules {
                hard: *hard,
                max_guesses: match max_guesses.unwrap_or(6) {
                    0 => None,
                    n => Some(n),
                },
            };
            let text = std::fs::read_to_string(tree).map_err(|source| CliError::Io {
                path: tree.clone(),
                source,
            })?;
            let policy = crate::verify::Policy::parse(&text)
                .map_err(|e| CliError::Input(format!("{}: {e}", tree.display())))?;
            let table = read_table(answers, guesses)?;
            let report = verify_tree(&table, &policy, rules, &tree.display().to_string())?;
            if let Some(want) = total {
                if report.total != *want {
                    return Err(CliError::Input(format!(
                        "{}: the tree takes {} guesses in total, not {want}",
                        tree.display(),
                        report.total
                    )));
                }
            }
            if json {
                let value = serde_json::json!({
                    "tree": tree.display().to_string(), "valid": true, "hard": rules.hard,
                    "max_guesses": rules.max_guesses, "answers": report.answers,
                    "total": report.total, "distribution": report.distribution,
                    "unreached_branches": report.unreached,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                writeln!(out, "{}", verified_line(&policy, &report, rules)).map_err(io)?;
            }
            Ok(())
        }
        WordleCommand::Simulate { lists, first } => {
            let table = lists.table()?;
            let first = match first {
                Some(word) => {
                    let word: Word = word.parse().map_err(wordle_error)?;
                    Some(table.guess_index(word).ok_or_else(|| {
                        CliError::Input(format!("'{word}' is not in the guess list"))
                    })?)
                }
                None => None,
            };
            let started = std::time::Instant::now();
            let sim = simulate(&table, lists.rank, lists.hard, first);
            if json {
                writeln!(out, "{}", serde_json::to_value(&sim).unwrap_or_default()).map_err(io)?;
            } else {
                // A greedy policy's total, not an optimum: the line says which
                // policy and which rules, so it is not read beside `prove`'s as one.
                let policy = match lists.rank {
                    Rank::Entropy => "most expected information",
                    Rank::ExpectedRemaining => "fewest expected candidates left",
                };
                let mode = if lists.hard { ", hard mode" } else { "" };
                writeln!(
                    out,
                    "greedy policy ({policy}{mode}), first guess {}: {} answers, {} guesses in \
                     total, {:.4} on average ({:.1} s)",
                    sim.first,
                    table.answers.len(),
                    sim.total,
                    sim.average,
                    started.elapsed().as_secs_f64()
                )
                .map_err(io)?;
                for (k, n) in sim.distribution.iter().enumerate() {
                    writeln!(out, "  {} guesses: {n}", k + 1).map_err(io)?;
                }
            }
            Ok(())
        }
        WordleCommand::Play { lists } => {
            let table = lists.table()?;
            let mut steps: Vec<String> = Vec::new();
            let stdin = std::io::stdin();
            let mut lines = stdin.lock().lines();
            loop {
                let (candidates, history) = match apply(&table, &steps) {
                    Ok(state) => state,
                    Err(e) if json => return Err(e),
                    Err(e) => {
                        writeln!(out, "{e}; undoing the last feedback").map_err(io)?;
                        steps.pop();
                        continue;
                    }
                };
                let best = suggestions(&table, &candidates, lists, &history, 1);
                let Some(guess) = best.first().map(|s| table.guesses[s.guess]) else {
                    return Err(CliError::Input(
                        "no allowed guess is left: the feedback contradicts every answer".into(),
                    ));
                };
                if json {
                    let turn = serde_json::json!({
                        "turn": steps.len() + 1, "candidates": candidates.len(), "guess": guess.to_string(),
                    });
                    writeln!(out, "{turn}").map_err(io)?;
                } else {
                    writeln!(out, "{} candidates; guess: {guess}", candidates.len()).map_err(io)?;
                    write!(out, "feedback for {guess} (g/y/. e.g. g.y.., or 'quit'): ")
                        .map_err(io)?;
                }
                out.flush().map_err(io)?;
                let Some(Ok(line)) = lines.next() else {
                    return Ok(());
                };
                let line = line.trim().to_string();
                if line == "quit" || line == "q" {
                    return Ok(());
                }
                match parse_pattern(&line) {
                    Ok(ALL_GREEN) => {
                        if json {
                            let done = serde_json::json!({ "solved_in": steps.len() + 1 });
                            writeln!(out, "{done}").map_err(io)?;
                        } else {
                            let guesses = steps.len() + 1;
                            let plural = if guesses == 1 { "" } else { "es" };
                            writeln!(out, "solved in {guesses} guess{plural}").map_err(io)?;
                        }
                        return Ok(());
                    }
                    Ok(code) => steps.push(format!("{guess}:{}", pattern(code))),
                    Err(e) if json => return Err(wordle_error(e)),
                    Err(e) => writeln!(out, "{e}").map_err(io)?,
                }
            }
        }
    }
}

/// `wordle prove`'s first guess when `--first` is not given: the best
/// first guess of the original lists. The error for a list without it
/// names it, so the two must not drift apart.
const DEFAULT_FIRST: &str = "salet";

/// `repeat` 0 ran once, as if 1 had been asked: refused.
fn check_repeat(repeat: usize) -> Result<(), CliError> {
    if repeat == 0 {
        return Err(CliError::Input(
            "repeat 0: give 1 or more repetitions (the best time is reported)".into(),
        ));
    }
    Ok(())
}

/// The best of `repeat` times to rank every guess over every answer on
/// `threads` threads (0: all cores), and the ranking.
fn time_ranking(
    table: &FeedbackTable,
    rank: Rank,
    threads: usize,
    repeat: usize,
) -> Result<(f64, Vec<crate::Score>), CliError> {
    check_repeat(repeat)?;
    let all: Vec<u32> = (0..table.answers.len() as u32).collect();
    let pool = frontier_app::plugin::thread_pool(threads)?;
    let mut best = f64::INFINITY;
    let mut ranking = Vec::new();
    for _ in 0..repeat {
        let started = std::time::Instant::now();
        ranking = pool.install(|| best_guesses(table, &all, rank, &|_| true, usize::MAX));
        best = best.min(started.elapsed().as_secs_f64());
    }
    Ok((best, ranking))
}

/// The GPU's device name and best kernel time over `repeat` rankings (after
/// one to warm up); an error unless its ranking equals `cpu_ranking`.
fn time_gpu_ranking(
    table: &FeedbackTable,
    rank: Rank,
    repeat: usize,
    cpu_ranking: &[crate::Score],
) -> Result<(String, f64), CliError> {
    let all: Vec<u32> = (0..table.answers.len() as u32).collect();
    let ranker = crate::gpu::GpuRanker::new(table, 0).map_err(wordle_error)?;
    let mut best = f64::INFINITY;
    let mut gpu_ranking = Vec::new();
    for _ in 0..repeat.max(1) + 1 {
        let (r, seconds) = ranker.rank(table, &all, rank).map_err(wordle_error)?;
        best = best.min(seconds);
        gpu_ranking = r;
    }
    if gpu_ranking != cpu_ranking {
        return Err(CliError::Input("GPU and CPU rankings differ".into()));
    }
    Ok((ranker.device_name().to_string(), best))
}

type GuessTree = frontier_core::decision::Tree<usize, u8>;

/// Plays every answer through `policy` (`crate::verify`); a
/// failure names the tree and its first problems.
fn verify_tree(
    table: &FeedbackTable,
    policy: &crate::verify::Policy,
    rules: crate::verify::Rules,
    name: &str,
) -> Result<crate::verify::Report, CliError> {
    crate::verify::verify(table, policy, rules).map_err(|failure| {
        let count = failure.problems.len();
        CliError::Input(format!(
            "{name}: not a valid tree ({count} problem{}): {}",
            if count == 1 { "" } else { "s" },
            failure
                .problems
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
                + if count > 3 { "; …" } else { "" }
        ))
    })
}

/// `valid tree: salet first, 2315 answers in 7920 guesses (average 3.4212) …`
fn verified_line(
    policy: &crate::verify::Policy,
    report: &crate::verify::Report,
    rules: crate::verify::Rules,
) -> String {
    let first = policy
        .first_guess()
        .map_or_else(String::new, |w| format!("{w} first, "));
    let counts: Vec<String> = report
        .distribution
        .iter()
        .enumerate()
        .map(|(k, n)| format!("{}: {n}", k + 1))
        .collect();
    format!(
        "valid tree: {first}{} answers in {} guesses (average {:.4}); {}, {}; answers found per guess {}{}",
        report.answers,
        report.total,
        f64::from(report.total) / report.answers.max(1) as f64,
        if rules.hard { "hard mode" } else { "normal mode" },
        rules
            .max_guesses
            .map_or("no limit on guesses".to_string(), |n| format!("at most {n} guesses")),
        counts.join(", "),
        match report.unreached {
            0 => String::new(),
            n => format!("; {n} branches no answer reaches"),
        }
    )
}

/// The guess limit of a hard-mode proof: the game's 6 unless `--max-guesses`
/// says otherwise (0: none); refused without `--hard`.
fn hard_limit(hard: bool, max_guesses: Option<u8>) -> Result<Option<u8>, CliError> {
    match (hard, max_guesses) {
        (false, Some(_)) => Err(CliError::Input(
            "--max-guesses applies with --hard (normal mode's optimum needs 5 guesses, so it has no limit)".into(),
        )),
        (false, None) => Ok(None),
        (true, None) => Ok(Some(6)),
        (true, Some(0)) => Ok(None),
        (true, Some(n)) => Ok(Some(n)),
    }
}

/// The optimal total with first guess `g` and an optimal tree, the tree
/// played through the independent checker (`crate::verify`)
/// before it is returned: a proof whose tree fails it, or whose tree's
/// total is not the proven one, is an error, never a result. `None`: no
/// tree finds every answer (within `limit`, in hard mode).
fn proven_tree(
    table: &FeedbackTable,
    hard: bool,
    limit: Option<u8>,
    g: usize,
    threads: usize,
) -> Result<Option<(u32, GuessTree)>, CliError> {
    use frontier_core::decision::optimal_with_on_threads;
    let found = if hard {
        let problem = crate::HardWordleTree::new(table);
        let start = crate::HardState::start(table, limit);
        optimal_with_on_threads(&problem, &start, &g, threads, true)
    } else {
        let problem = crate::WordleTree::new(table);
        let all: Vec<u32> = (0..table.answers.len() as u32).collect();
        optimal_with_on_threads(&problem, &all, &g, threads, true)
    };
    let Some((cost, Some(tree))) = found else {
        return Ok(None);
    };
    let rules = crate::verify::Rules {
        hard,
        max_guesses: limit,
    };
    let policy = crate::verify::Policy::from_tree(table, &tree);
    let report = verify_tree(table, &policy, rules, "the proven tree")?;
    if report.total != cost {
        return Err(CliError::Input(format!(
            "the proven tree takes {} guesses, not the proven {cost}: a bug in the decision search",
            report.total
        )));
    }
    Ok(Some((cost, tree)))
}

/// `{"guess": "salet", "next": {"..y.g": {...}, ...}}`; leaves have no `next`.
fn tree_to_json(table: &FeedbackTable, tree: &GuessTree) -> serde_json::Value {
    let mut node = serde_json::json!({ "guess": table.guesses[tree.action].to_string() });
    if !tree.children.is_empty() {
        let next: serde_json::Map<String, serde_json::Value> = tree
            .children
            .iter()
            .map(|(code, child)| (pattern(*code), tree_to_json(table, child)))
            .collect();
        node["next"] = serde_json::Value::Object(next);
    }
    node
}

/// Graphviz DOT: a node per guess, edges labelled with the feedback.
fn tree_to_dot(table: &FeedbackTable, tree: &GuessTree) -> String {
    tree.to_dot(&|&g| table.guesses[g].to_string(), &|&code| pattern(code))
}

/// Wordle as an experiment (`domain: Wordle(…)` in RON, `frontier solve
/// wordle salet`): each instance is a first guess, its row the proven
/// fewest guesses in total over all answers (`wordle prove`). Instance
/// files: one guess per line, or TSV with a `guess` column and `total` and
/// `hard_total` columns that are checked (in normal and in hard mode).
#[derive(Clone, Debug, serde::Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct WordleCli {
    /// Possible answers, one per line.
    #[arg(long, default_value = "@data/wordle/orig_answers_2315.txt")]
    #[serde(default = "default_answers")]
    pub answers: PathBuf,
    /// Allowed guesses, one per line (answers are added if missing).
    #[arg(long, default_value = "@data/wordle/orig_allowed_12972.txt")]
    #[serde(default = "default_guesses")]
    pub guesses: PathBuf,
    /// Hard mode: greens stay, revealed letters must be used again.
    #[arg(long)]
    #[serde(default)]
    pub hard: bool,
    /// Guesses allowed per answer in hard mode [default: 6; 0: no limit].
    #[arg(long)]
    #[serde(default)]
    pub max_guesses: Option<u8>,
    /// What each instance is (RON only; `wordle simulate` and `wordle
    /// sweep` do the same from flags).
    #[arg(skip)]
    #[serde(default)]
    pub job: WordleJob,
}

/// What each instance of a Wordle experiment is.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub enum WordleJob {
    /// Instances are first guesses; the row's cost is the proven fewest
    /// total guesses (checked against a `total` or `hard_total` column).
    #[default]
    Prove,
    /// Instances are first guesses (`greedy`: the policy's own); the row's
    /// cost is the greedy policy's total over every answer, its value the
    /// average, its path the first guess and the distribution.
    Simulate(SimulateSettings),
    /// Instances are `all` (every guess) or `every:N` (every N-th guess of
    /// the sweep's order, a sample); the row's cost is the best total, its
    /// path the guesses within the margin of it.
    Sweep(SweepSettings),
    /// Instances are `all` (every guess ranked over every answer); the
    /// row's value is the best time in seconds, its path the best guess.
    Bench(RankBench),
}

/// Timing the ranking of every first guess, as `wordle bench` takes it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankBench {
    /// CPU threads (1: one core; 0: all cores).
    #[serde(default)]
    pub threads: usize,
    /// Rank on the GPU instead (kernel time; the ranking checked against
    /// one core's).
    #[serde(default)]
    pub gpu: bool,
    /// Repetitions; the best time is reported.
    #[serde(default = "default_repeat")]
    pub repeat: usize,
    /// `entropy` or `expected-remaining`.
    #[serde(default = "default_rank")]
    pub rank: String,
}

fn default_repeat() -> usize {
    5
}

/// The greedy policy's ranking, as `wordle simulate --rank` takes it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulateSettings {
    /// `entropy` or `expected-remaining`.
    #[serde(default = "default_rank")]
    pub rank: String,
}

fn default_rank() -> String {
    "entropy".into()
}

/// A sweep over first guesses, as `wordle sweep` takes it.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepSettings {
    /// Worker threads (0: all cores).
    #[serde(default)]
    pub threads: usize,
    /// Exact totals for every guess within this many of the best.
    #[serde(default)]
    pub margin: u32,
    /// Start no guess after this many seconds.
    #[serde(
        default,
        deserialize_with = "frontier_core::search::deserialize_seconds"
    )]
    pub seconds: Option<f64>,
    /// Best total known beforehand, the first budget.
    #[serde(default)]
    pub incumbent: Option<u32>,
}

fn default_answers() -> PathBuf {
    PathBuf::from("@data/wordle/orig_answers_2315.txt")
}

fn default_guesses() -> PathBuf {
    PathBuf::from("@data/wordle/orig_allowed_12972.txt")
}

impl frontier_app::plugin::Plugin for WordleCli {
    const NAME: &'static str = "wordle";
    const ABOUT: &'static str = "Wordle first guesses, each proven: the fewest guesses in total";

    fn commands() -> Option<clap::Command> {
        Some(frontier_app::plugin::subcommands::<WordleCommand>(
            Self::NAME,
            "Wordle: best next guesses, interactive play, simulation of the greedy policy, proofs of the fewest guesses (prove, sweep) and their trees verified",
        ))
    }

    fn run_command(
        matches: &clap::ArgMatches,
        context: &frontier_app::Context,
    ) -> Result<(), CliError> {
        use frontier_app::plugin::parse_subcommand;
        run(
            &parse_subcommand::<WordleCommand>(matches)?,
            context.json,
            !context.quiet,
        )
    }
    type Prepared = FeedbackTable;

    fn prepare(&self, _: &[frontier_core::ExecutorConfig]) -> Result<FeedbackTable, CliError> {
        hard_limit(self.hard, self.max_guesses)?;
        Lists {
            answers: self.answers.clone(),
            guesses: self.guesses.clone(),
            rank: Rank::Entropy,
            hard: self.hard,
        }
        .table()
    }

    fn set_param(
        &mut self,
        key: &str,
        value: &frontier_app::config::GridValue,
    ) -> Result<bool, CliError> {
        if key == "hard" {
            self.hard = value.flag(key)?;
            return Ok(true);
        }
        match (&mut self.job, key) {
            (WordleJob::Simulate(settings), "rank") => settings.rank = value.text(key)?,
            (WordleJob::Bench(bench), "gpu") => bench.gpu = value.flag(key)?,
            (WordleJob::Bench(bench), "threads") => bench.threads = value.count(key)? as usize,
            (WordleJob::Sweep(sweep), "threads") => sweep.threads = value.count(key)? as usize,
            (WordleJob::Sweep(sweep), "margin") => sweep.margin = value.count(key)? as u32,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn read_instances(&self, path: &Path) -> Result<Vec<frontier_app::plugin::Instance>, CliError> {
        // Files of first guesses with proven totals are for `Prove`.
        if !matches!(self.job, WordleJob::Prove) {
            return frontier_app::plugin::read_lines(path);
        }
        let text = frontier_app::plugin::read_file(path)?;
        let mut lines = text
            .lines()
            .map(str::trim)
            .enumerate()
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .peekable();
        let header: Vec<&str> = match lines.peek() {
            Some((_, first)) if first.split('\t').any(|f| f == "guess") => {
                let fields = first.split('\t').collect();
                lines.next();
                fields
            }
            _ => vec!["guess"],
        };
        let guess_at = header.iter().position(|&f| f == "guess").unwrap_or(0);
        let column = if self.hard { "hard_total" } else { "total" };
        let total_at = header.iter().position(|&f| f == column);
        lines
            .map(|(n, line)| {
                let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
                let bad =
                    |why: String| CliError::Input(format!("{}:{}: {why}", path.display(), n + 1));
                let guess = fields.get(guess_at).ok_or_else(|| bad("no guess".into()))?;
                let known_cost = match total_at.and_then(|k| fields.get(k)) {
                    Some(total) => Some(
                        total
                            .parse()
                            .map_err(|_| bad(format!("total '{total}' is not a number")))?,
                    ),
                    None => None,
                };
                Ok(frontier_app::plugin::Instance {
                    id: guess.to_string(),
                    text: guess.to_string(),
                    known_cost,
                    ..Default::default()
                })
            })
            .collect()
    }

    fn solve(
        &self,
        table: &FeedbackTable,
        instance: &frontier_app::plugin::Instance,
        executor: &frontier_core::ExecutorConfig,
        _: &frontier_core::SearchOptions,
    ) -> Result<frontier_app::report::InstanceReport, CliError> {
        frontier_app::plugin::no_executor(Self::NAME, executor)?;
        let limit = hard_limit(self.hard, self.max_guesses)?;
        let failed = |message: String| CliError::Instance {
            id: instance.id.clone(),
            message,
        };
        let mut report = frontier_app::report::InstanceReport::new(Self::NAME, instance, executor);
        let mode = if self.hard { "-hard" } else { "" };
        match &self.job {
            WordleJob::Prove => {}
            WordleJob::Simulate(settings) => {
                let rank = parse_rank(&settings.rank).map_err(CliError::Input)?;
                let first =
                    match instance.text.trim() {
                        "greedy" => None,
                        text => {
                            let word: Word = text
                                .parse()
                                .map_err(|e: crate::WordleError| failed(e.to_string()))?;
                            Some(table.guess_index(word).ok_or_else(|| {
                                failed(format!("'{word}' is not in the guess list"))
                            })?)
                        }
                    };
                let started = std::time::Instant::now();
                let sim = simulate(table, rank, self.hard, first);
                report.executor = format!("simulate{mode}");
                report.status = "played".into();
                report.solved = true;
                report.cost = Some(sim.total as u32);
                report.value = Some(sim.average);
                let distribution: Vec<String> =
                    sim.distribution.iter().map(|n| n.to_string()).collect();
                report.path = vec![sim.first, distribution.join("/")];
                report.stats.seconds = started.elapsed().as_secs_f64();
                return Ok(report);
            }
            WordleJob::Bench(bench) => {
                if instance.text.trim() != "all" {
                    return Err(failed(format!(
                        "'{}': a bench's instance is `all` (every guess over every answer)",
                        instance.text.trim()
                    )));
                }
                if self.hard {
                    return Err(CliError::Input(
                        "bench ranks first guesses, which hard mode does not restrict: hard does not apply".into(),
                    ));
                }
                let rank = parse_rank(&bench.rank).map_err(CliError::Input)?;
                let (cpu_seconds, ranking) = time_ranking(
                    table,
                    rank,
                    if bench.gpu { 1 } else { bench.threads },
                    bench.repeat,
                )?;
                let top = ranking
                    .first()
                    .ok_or_else(|| failed("no guesses to rank".into()))?;
                report.path = vec![
                    table.guesses[top.guess].to_string(),
                    format!("{:.4} bits", top.entropy),
                ];
                let seconds = if bench.gpu {
                    let (device, seconds) = time_gpu_ranking(table, rank, bench.repeat, &ranking)?;
                    report.executor = "rank-gpu".into();
                    report.path.push(device);
                    seconds
                } else {
                    report.executor = format!("rank-{}", bench.threads);
                    cpu_seconds
                };
                report.status = "measured".into();
                report.solved = true;
                report.value = Some(seconds);
                report.stats.seconds = seconds;
                return Ok(report);
            }
            WordleJob::Sweep(settings) => {
                let every = match instance.text.trim() {
                    "all" => 1,
                    text => text
                        .strip_prefix("every:")
                        .and_then(|n| n.parse::<usize>().ok())
                        .filter(|&n| n > 0)
                        .ok_or_else(|| {
                            failed(format!(
                                "'{text}': a sweep's instance is `all` or `every:N`"
                            ))
                        })?,
                };
                let started = std::time::Instant::now();
                let sweep_report = sweep::run(
                    table,
                    &SweepRun {
                        hard: self.hard,
                        max_guesses: limit,
                        threads: settings.threads,
                        margin: settings.margin,
                        checkpoint: None,
                        every,
                        seconds: settings.seconds,
                        incumbent: settings.incumbent,
                        progress: false,
                    },
                )?;
                let (best, leaders, complete) = sweep_report.summary(table);
                report.executor = format!("sweep{mode}");
                report.status = if complete {
                    "optimal".into()
                } else {
                    // The limit's own name, which `run --retry-cut` knows.
                    frontier_core::search::Limit::Time.to_string()
                };
                report.solved = complete && best.is_some();
                report.cost = best;
                report.value = best.map(|b| f64::from(b) / table.answers.len() as f64);
                report.path = leaders.iter().map(|(g, c)| format!("{g} {c}")).collect();
                report.stats.seconds = started.elapsed().as_secs_f64();
                return Ok(report);
            }
        }
        let word: Word = instance
            .text
            .parse()
            .map_err(|e: crate::WordleError| failed(e.to_string()))?;
        let g = table
            .guess_index(word)
            .ok_or_else(|| failed(format!("'{word}' is not in the guess list")))?;
        let started = std::time::Instant::now();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let found =
            proven_tree(table, self.hard, limit, g, threads).map_err(|e| failed(e.to_string()))?;
        report.executor = if self.hard {
            "prove-hard".into()
        } else {
            "prove".into()
        };
        report.stats.seconds = started.elapsed().as_secs_f64();
        match found {
            Some((total, _)) => {
                report.status = "optimal".into();
                report.solved = true;
                report.cost = Some(total);
                report.value = Some(f64::from(total) / table.answers.len() as f64);
            }
            None => report.status = "no tree".into(),
        }
        Ok(report)
    }
}
