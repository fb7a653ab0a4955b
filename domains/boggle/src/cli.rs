//! `frontier boggle`: score boards, benchmark the scorers, anneal for
//! high-scoring boards, and prove the best boards of a shape (with its
//! shares merged and its certificates verified).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::gpu_prove::GpuProofReport;
use crate::orderly::SplitOrder;
use crate::{
    anneal, find_words, random_boards, score_batch, AnnealConfig, Board, Letters, Scorer, Shape,
    Trie,
};

use frontier_app::config::resolve_data_path;
use frontier_app::CliError;

/// Boggle commands.
#[derive(Debug, clap::Subcommand)]
pub enum BoggleCommand {
    /// Every word on a board with a path for each, and the score.
    ///
    /// Boards are row-major strings (`perslatgsineters`, `q` = Qu) or rows
    /// (`per/lat/des`); non-square strings need --shape.
    #[command(visible_alias = "solve")]
    Score {
        /// Boards to score.
        boards: Vec<String>,
        /// Read boards from this file too (one per line), scored as a batch.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Shape of row-major strings that are not square, e.g. 3x4.
        #[arg(long, value_parser = parse_shape)]
        shape: Option<(usize, usize)>,
        /// Only print scores, not the words.
        #[arg(long)]
        scores_only: bool,
        /// Score the batch on the GPU (checked against the CPU).
        #[arg(long)]
        gpu: bool,
        /// The word list.
        #[command(flatten)]
        dict: DictArg,
    },
    /// Score random boards and report boards per second.
    Bench {
        /// Boards to score.
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        /// Board shape.
        #[arg(long, default_value = "4x4", value_parser = parse_shape)]
        shape: (usize, usize),
        /// uniform (each cell a random letter) or dice (the 16 Boggle dice).
        #[arg(long, default_value = "uniform", value_parser = parse_letters)]
        letters: Letters,
        /// CPU threads (1 = one core; 0 = all cores).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Score on the GPU instead, and check every score on the CPU.
        #[arg(long)]
        gpu: bool,
        /// Seed of the random boards.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The word list.
        #[command(flatten)]
        dict: DictArg,
    },
    /// Prove every board of a shape scoring at least --target: branch and
    /// bound over board classes (letter buckets per cell, split by orderly
    /// sum/choice trees), boards equal under symmetry listed once.
    Prove {
        /// Board shape (at most 16 cells).
        #[arg(long, default_value = "3x3", value_parser = parse_shape)]
        shape: (usize, usize),
        /// Report every board scoring at least this.
        #[arg(long)]
        target: u32,
        /// Letter buckets of the top-level classes: sets split by spaces,
        /// optionally ", corner: SETS" and ", edge: SETS" for the corner and
        /// the other border cells, no letter in two sets of one list. Sets
        /// that cover the alphabet prove over every board; fewer letters
        /// prove over the boards spelled with those only (the report says
        /// which).
        #[arg(long, default_value = DEFAULT_BUCKETS, conflicts_with = "letters")]
        buckets: String,
        /// Prove over boards of these letters only, one class (small proofs
        /// and tests).
        #[arg(long)]
        letters: Option<String>,
        /// CPU threads (0 = all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Stop after this many seconds (the proof is then incomplete).
        #[arg(long, value_parser = frontier_core::search::parse_seconds)]
        max_seconds: Option<f64>,
        /// Write a certificate here: every class with the subclasses that
        /// cover it and their bounds (`boggle verify` re-checks it).
        #[arg(long, conflicts_with = "sample")]
        certificate: Option<PathBuf>,
        /// Search only this many top-level classes drawn at random, and
        /// project the whole proof's time from them.
        #[arg(long)]
        sample: Option<usize>,
        /// Seed of --sample's draw.
        #[arg(long, default_value_t = 1, requires = "sample")]
        seed: u64,
        /// Search only share K of N (`K/N`, 1 <= K <= N): every Nth
        /// top-level class from the Kth on. The N shares, run anywhere,
        /// add up to the whole proof: every share complete, and the boards
        /// the union of theirs. For proofs longer than one sitting.
        #[arg(long, conflicts_with = "certificate")]
        share: Option<String>,
        /// Walk the bottom of the search on GPU 0: the CPU threads build the
        /// trees and fix the first --gpu-depth cells, the GPU bounds every
        /// subclass below (the same subclasses and boards as on the CPU).
        #[arg(long, conflicts_with = "certificate")]
        gpu: bool,
        /// With --gpu: cells fixed on the CPU before a subclass goes to the
        /// GPU (default: 7/16 of the cells: 7 on 4x4).
        #[arg(long, requires = "gpu")]
        gpu_depth: Option<usize>,
        /// With --gpu: which trees the CPU threads copy to the device
        /// themselves: `queue-full` (those they would otherwise wait to
        /// hand over, the GPU's thread being behind), `always`, `never`
        /// (the GPU's thread copies the rest) or `auto` (default: `always`
        /// with the paths collected on the GPU or from 32 threads up, else
        /// `queue-full`).
        #[arg(long, requires = "gpu")]
        gpu_host_copies: Option<String>,
        /// With --gpu: how much of each class's tree the GPU builds:
        /// `merges` (default: the paths collected and sorted, the tree
        /// filled, and every forced cell's merge), `tree` (all but the
        /// merges), `paths` (collected and sorted; the host thread fills the
        /// tree) or `host` (nothing). The trees are the same either way.
        #[arg(long, requires = "gpu")]
        gpu_build: Option<String>,
        /// With --gpu: when a class is split one cell below --gpu-depth,
        /// its CPU thread walking one more cell: `when-behind` (default:
        /// while the last class handed over waited for the GPU, for its
        /// queue or for the host's budget of classes in flight), `never`
        /// or `every-other` (every other class handed over).
        #[arg(long, requires = "gpu")]
        gpu_deeper: Option<String>,
        /// Force cells (a merged, tighter tree per letter of the next cell)
        /// while a subclass's bound is above this; walk incrementally below
        /// it. 0: never force. Default: 2.6 times the target, 4.6 times
        /// with --gpu, where the CPU threads force and the GPU walks the
        /// forced trees below the --gpu-depth cells.
        #[arg(long)]
        switchover: Option<u32>,
        /// How each class's cells are ordered for splitting: `cost` (each
        /// class its own: fewest letters for most neighbours first) or
        /// `degree` (one order: most neighbours first, as proofs before
        /// the cost order; a results file resumes only in its own order).
        #[arg(long, default_value = "cost", value_parser = ["cost", "degree"])]
        order: String,
        /// Append each finished top-level class (its boards, seconds and
        /// subclasses) to this file, a new one unless --resume. With --gpu a
        /// class is written once the GPU has walked all of it (its seconds
        /// are the host threads'), and a class cut short is searched again.
        #[arg(long, conflicts_with = "certificate")]
        results: Option<PathBuf>,
        /// Continue --results: skip the classes it lists (it must be of the
        /// same proof: shape, target, buckets, word list, share, split order).
        #[arg(long, requires = "results")]
        resume: bool,
        /// The word list.
        #[command(flatten)]
        dict: DictArg,
    },
    /// Merge the results files of a proof's shares (`boggle prove
    /// --results`): checks that they belong to one proof and cover each
    /// top-level class exactly once, then lists its boards.
    Merge {
        /// The results files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Check that the files cover share K/N of the proof (as `boggle
        /// prove --share K/N` takes it) instead of the whole: each of its
        /// classes once and no other. Shares K, K+N, … of M·N add up to it.
        #[arg(long, value_name = "K/N")]
        share: Option<String>,
    },
    /// Re-check a proof's certificate (`boggle prove --certificate`): the
    /// classes cover every board, and every bound and score is recomputed.
    Verify {
        /// The certificate.
        certificate: PathBuf,
        /// CPU threads (0 = all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// The word list.
        #[command(flatten)]
        dict: DictArg,
    },
    /// Search for high-scoring boards by simulated annealing.
    Anneal {
        /// Board shape.
        #[arg(long, default_value = "4x4", value_parser = parse_shape)]
        shape: (usize, usize),
        /// Independent chains (GPU: one per thread).
        #[arg(long)]
        chains: Option<usize>,
        /// Moves per chain.
        #[arg(long)]
        steps: Option<u64>,
        /// Starting temperature.
        #[arg(long)]
        t_start: Option<f64>,
        /// Final temperature.
        #[arg(long)]
        t_end: Option<f64>,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop once a board scores at least this.
        #[arg(long)]
        target: Option<u32>,
        /// Stop after this many seconds.
        #[arg(long, value_parser = frontier_core::search::parse_seconds)]
        max_seconds: Option<f64>,
        /// Best boards to print.
        #[arg(long, default_value_t = 10)]
        keep: usize,
        /// Run the chains on the GPU.
        #[arg(long)]
        gpu: bool,
        /// The word list.
        #[command(flatten)]
        dict: DictArg,
    },
}

/// The word list.
#[derive(Debug, clap::Args)]
pub struct DictArg {
    /// Word list, one word per line; `@data/` means the repository's data/
    /// (ENABLE2K is shipped), else $FRONTIER_DATA, else ../shared/data.
    #[arg(long, default_value = "@data/boggle/enable2k.txt")]
    dict: PathBuf,
}

impl DictArg {
    fn load(&self) -> Result<Trie, CliError> {
        let path = resolve_data_path(&self.dict)?;
        let started = Instant::now();
        let (trie, summary) = Trie::load(&path).map_err(|e| {
            CliError::Input(format!(
                "{e}\n(pass a word list with --dict PATH, or set FRONTIER_DATA to the data folder)"
            ))
        })?;
        tracing::info!(
            "{}: {summary}; {} trie nodes, loaded in {:.1} ms",
            path.display(),
            trie.nodes().len(),
            started.elapsed().as_secs_f64() * 1e3
        );
        Ok(trie)
    }
}

fn parse_shape(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("shape '{text}' should look like 4x4"))?;
    let side = |s: &str| {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| (1..=crate::board::MAX_SIDE).contains(&n))
            .ok_or_else(|| {
                format!(
                    "'{s}' in shape '{text}' is not a side from 1 to {}",
                    crate::board::MAX_SIDE
                )
            })
    };
    Ok((side(r)?, side(c)?))
}

fn parse_letters(text: &str) -> Result<Letters, String> {
    match text {
        "uniform" => Ok(Letters::Uniform),
        "dice" => Ok(Letters::Dice),
        other => Err(format!("'{other}': expected uniform or dice")),
    }
}

/// " over the letters …" where a proof's buckets leave letters out (its
/// boards are those spelled with the rest), else nothing: a report of "no
/// board scores N" must not read as a claim about every board.
fn over_letters(buckets: &crate::Buckets) -> String {
    buckets.partial_alphabet().map_or(String::new(), |letters| {
        format!(" over the letters {letters}")
    })
}

fn boggle_error(e: crate::BoggleError) -> CliError {
    CliError::Input(e.to_string())
}

/// Runs a boggle command; `json` prints JSON lines instead of text.
pub fn run(command: &BoggleCommand, json: bool) -> Result<(), CliError> {
    // The ranks of an MPI job (`boggle prove` under mpirun) compute the
    // same results; the first prints.
    let mut out: Box<dyn Write> = if frontier_app::prints_results() {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::io::sink())
    };
    let io = frontier_app::stdout_error;
    match command {
        BoggleCommand::Score {
            boards,
            file,
            shape,
            scores_only,
            gpu,
            dict,
        } => {
            let mut parsed = boards
                .iter()
                .map(|b| {
                    Board::parse(b, *shape)
                        .map(|b| (b, None))
                        .map_err(boggle_error)
                })
                .collect::<Result<Vec<_>, _>>()?;
            if let Some(path) = file {
                parsed.extend(read_boards(path, *shape)?);
            }
            if parsed.is_empty() {
                return Err(CliError::Input(
                    "no boards: give boards as arguments or --file".into(),
                ));
            }
            let trie = dict.load()?;
            let (parsed, known): (Vec<Board>, Vec<Option<u32>>) = parsed.into_iter().unzip();
            let scores = score_all(&trie, &parsed, *gpu)?;
            let wrong: Vec<String> = parsed
                .iter()
                .zip(&scores)
                .zip(&known)
                .filter_map(|((b, s), k)| {
                    k.filter(|k| k != s)
                        .map(|k| format!("{} scores {s}, the file says {k}", b.text()))
                })
                .collect();
            for (board, score) in parsed.iter().zip(scores) {
                let words = if *scores_only {
                    Vec::new()
                } else {
                    find_words(&trie, board)
                };
                if json {
                    let mut value = serde_json::json!({
                        "board": board.text(),
                        "rows": board.rows,
                        "cols": board.cols,
                        "score": score,
                    });
                    if !scores_only {
                        value["words"] = serde_json::to_value(&words).unwrap_or_default();
                    }
                    writeln!(out, "{value}").map_err(io)?;
                } else if *scores_only {
                    writeln!(out, "{}\t{score}", board.text()).map_err(io)?;
                } else {
                    write!(out, "{}", board.grid()).map_err(io)?;
                    for w in &words {
                        let path: Vec<String> =
                            w.path.iter().map(|(r, c)| format!("{r},{c}")).collect();
                        writeln!(out, "{:>3}  {:<16} {}", w.points, w.word, path.join(" "))
                            .map_err(io)?;
                    }
                    writeln!(
                        out,
                        "{}: {score} points, {} words\n",
                        board.text(),
                        words.len()
                    )
                    .map_err(io)?;
                }
            }
            if !wrong.is_empty() {
                return Err(CliError::Input(format!(
                    "{} score(s) differ from the file: {}",
                    wrong.len(),
                    wrong.join("; ")
                )));
            }
            Ok(())
        }
        BoggleCommand::Bench {
            count,
            shape,
            letters,
            threads,
            gpu,
            seed,
            dict,
        } => {
            let trie = dict.load()?;
            let shape = Shape::new(shape.0, shape.1);
            let (total, seconds, how) =
                bench(&trie, &shape, *count, *letters, *threads, *gpu, *seed)?;
            let rate = *count as f64 / seconds.max(1e-12);
            if json {
                let value = serde_json::json!({
                    "boards": count, "rows": shape.rows, "cols": shape.cols,
                    "letters": letters, "seed": seed, "scorer": how,
                    "seconds": seconds, "boards_per_second": rate,
                    "total_score": total,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                writeln!(
                    out,
                    "{count} random {}x{} boards ({letters:?} letters, seed {seed}) on {how}: \
                     {seconds:.3} s, {rate:.0} boards/s, mean score {:.3}",
                    shape.rows,
                    shape.cols,
                    total as f64 / (*count).max(1) as f64
                )
                .map_err(io)?;
            }
            Ok(())
        }
        BoggleCommand::Prove {
            shape,
            target,
            buckets,
            letters,
            threads,
            max_seconds,
            certificate,
            sample,
            seed,
            share,
            gpu,
            gpu_depth,
            gpu_host_copies,
            gpu_build,
            gpu_deeper,
            switchover,
            order,
            results,
            resume,
            dict,
        } => {
            let trie = dict.load()?;
            let settings = ProveSettings {
                shape: format!("{}x{}", shape.0, shape.1),
                target: *target,
                buckets: letters
                    .clone()
                    .map_or_else(|| buckets.clone(), |l| format!("={l}")),
                threads: *threads,
                max_seconds: *max_seconds,
                sample: *sample,
                seed: *seed,
                share: share.clone(),
                gpu: *gpu,
                gpu_depth: *gpu_depth,
                gpu_host_copies: gpu_host_copies.clone(),
                gpu_build: gpu_build.clone(),
                gpu_deeper: gpu_deeper.clone(),
                switchover: *switchover,
                order: order.clone(),
                results: results.clone(),
                resume: *resume,
            };
            let (proof, proof_threads, on_gpu) = settings.run(&trie, certificate.is_some())?;
            let gpu_hours = on_gpu.as_ref().and_then(|g| g.projected_gpu_hours(&proof));
            let projection = proof.projected_core_hours();
            if let Some(path) = certificate {
                let text = crate::certificate::write(&trie, &proof);
                frontier_core::files::write_atomic(path, text.as_bytes()).map_err(|e| {
                    CliError::Input(format!("cannot write {}: {e}", path.display()))
                })?;
            }
            if json {
                let gpu_json = on_gpu.as_ref().map(|g| {
                    serde_json::json!({
                        "device": g.device, "split_depth": g.split_depth,
                        "deeper_classes": g.deeper_classes, "split_classes": g.split_classes,
                        "launches": g.launches, "handed_over": g.handed_over,
                        "walked_on_cpu": g.walked_on_cpu, "relaunched": g.relaunched,
                        "subclasses": g.subclasses,
                        "kernel_seconds": g.kernel_seconds,
                        "host_class_seconds": g.host_class_seconds,
                        "longest_class_seconds": g.longest_class_seconds,
                        "handover_wait_seconds": g.handover_wait_seconds,
                        "host_done_seconds": g.host_done_seconds,
                        "launch_seconds": g.launch_seconds,
                        "adding_seconds": g.adding_seconds,
                        "upload_seconds": g.upload_seconds,
                        "kernel_wait_seconds": g.kernel_wait_seconds,
                        "uploaded_bytes": g.uploaded_bytes,
                        "host_upload_seconds": g.host_upload_seconds,
                        "host_uploaded_bytes": g.host_uploaded_bytes,
                        "host_kept_bytes": g.host_kept_bytes,
                        "merges_on_gpu": g.merges_on_gpu,
                        "projected_gpu_hours": gpu_hours.map(|h| h.hours),
                        "projected_gpu_hours_stderr": gpu_hours.map(|h| h.error),
                        "projected_kernel_hours": gpu_hours.map(|h| h.kernel_hours),
                        "projected_host_thread_hours": gpu_hours.map(|h| h.host_thread_hours),
                        "host_threads_to_keep_kernel_busy":
                            gpu_hours.and_then(|h| h.threads_to_keep_kernel_busy),
                    })
                });
                let value = serde_json::json!({
                    "rows": proof.shape.rows, "cols": proof.shape.cols, "target": target,
                    "buckets": proof.buckets.describe(),
                    "letters": crate::prove::letters_of(proof.buckets.alphabet()),
                    "boards": proof.boards, "classes": proof.classes,
                    "classes_discarded": proof.classes_discarded,
                    "subclasses": proof.subclasses, "boards_scored": proof.boards_scored,
                    "tree_nodes": proof.tree_nodes, "max_bound": proof.max_bound,
                    "complete": proof.complete, "seconds": proof.seconds,
                    "classes_total": proof.classes_total, "threads": proof_threads,
                    "projected_core_hours": projection.map(|p| p.0),
                    "projected_core_hours_stderr": projection.map(|p| p.1),
                    "class_seconds": proof.class_seconds, "share": share,
                    "class_letters": proof.class_letters,
                    "setup_seconds": proof.setup_seconds, "switchover": proof.switchover,
                    "order": proof.order.describe(),
                    "classes_resumed": proof.classes_resumed,
                    "gpu": gpu_json,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                for (board, score) in &proof.boards {
                    writeln!(out, "{score}\t{board}").map_err(io)?;
                }
                // A sample's or a share's boards are those of its classes only:
                // the line says so before anything else.
                let within = match (sample, share) {
                    (Some(_), _) => format!(
                        " in the {} sampled top-level classes (of {})",
                        proof.classes, proof.classes_total
                    ),
                    (None, Some(share)) => format!(" in share {share}"),
                    (None, None) => String::new(),
                };
                writeln!(
                    out,
                    "{} board(s) of {}x{}{} scoring at least {target}{within} (up to symmetry), \
                     {:.1} s; {} top-level classes up to symmetry ({} discarded at once, highest \
                     bound {}), {} subclasses bounded, {} boards scored, {} tree nodes{}{}",
                    proof.boards.len(),
                    proof.shape.rows,
                    proof.shape.cols,
                    over_letters(&proof.buckets),
                    proof.seconds,
                    proof.classes,
                    proof.classes_discarded,
                    proof.max_bound,
                    proof.subclasses,
                    proof.boards_scored,
                    proof.tree_nodes,
                    proof
                        .switchover
                        .map_or(String::new(), |s| format!(" (cells forced above {s})")),
                    if proof.complete {
                        ""
                    } else {
                        "; INCOMPLETE: stopped by the time limit"
                    }
                )
                .map_err(io)?;
                if let Some(share) = share {
                    writeln!(
                        out,
                        "share {share} of the proof: the boards above are this share's"
                    )
                    .map_err(io)?;
                }
                if let Some(path) = results {
                    writeln!(
                        out,
                        "results in {}: {} class(es) searched now, {} from earlier runs (their \
                         boards are listed above too)",
                        path.display(),
                        proof.classes,
                        proof.classes_resumed
                    )
                    .map_err(io)?;
                }
                if let Some(g) = &on_gpu {
                    writeln!(
                        out,
                        "GPU {}: {} subclasses handed over at depth {} ({} classes; {} more \
                         one deeper) in {} launch(es) \
                         ({} walked on the CPU after all, {} again on the GPU for board \
                         space), {} subclasses bounded there, {:.1} s in the kernel",
                        g.device,
                        g.handed_over,
                        g.split_depth,
                        g.split_classes,
                        g.deeper_classes,
                        g.launches,
                        g.walked_on_cpu,
                        g.relaunched,
                        g.subclasses,
                        g.kernel_seconds
                    )
                    .map_err(io)?;
                    writeln!(
                        out,
                        "host threads: {:.1} s on classes ({:.1} s of it waiting for the GPU's \
                         queue, {:.1} s copying {:.1} GB of trees to the device and {:.1} GB \
                         on it; longest class {:.1} s), every class done at {:.1} s; the GPU's \
                         thread: {:.1} s in \
                         launches, {:.1} s of it copying {:.1} GB of trees and {:.1} s waiting \
                         for kernels; {:.1} s adding up",
                        g.host_class_seconds,
                        g.handover_wait_seconds,
                        g.host_upload_seconds,
                        g.host_uploaded_bytes as f64 / 1e9,
                        g.host_kept_bytes as f64 / 1e9,
                        g.longest_class_seconds,
                        g.host_done_seconds,
                        g.launch_seconds,
                        g.upload_seconds,
                        g.uploaded_bytes as f64 / 1e9,
                        g.kernel_wait_seconds,
                        g.adding_seconds
                    )
                    .map_err(io)?;
                }
                if sample.is_some() {
                    let projected = match (projection, gpu_hours) {
                        (_, Some(gpu)) => format!(
                            "the whole proof projects to {:.1} ± {:.1} GPU-hours (this GPU fed \
                             by {proof_threads} host threads; wall time per class, one standard \
                             error of the host's class times), {:.1} hours of it in the kernel; \
                             the host's part is {:.0} thread-hours{}",
                            gpu.hours,
                            gpu.error,
                            gpu.kernel_hours,
                            gpu.host_thread_hours,
                            gpu.threads_to_keep_kernel_busy
                                .map_or(String::new(), |threads| {
                                    format!(
                                        ", and {threads:.0} threads of this host would keep the \
                                     kernel busy"
                                    )
                                })
                        ),
                        (Some((hours, error)), _) => {
                            let (scale, unit) = if hours < 1.0 {
                                (3600.0, "core-seconds")
                            } else {
                                (1.0, "core-hours")
                            };
                            format!(
                                "the whole proof projects to {:.1} ± {:.1} {unit} (mean class \
                                 time, one standard error)",
                                hours * scale,
                                error * scale
                            )
                        }
                        _ => "no projection: the time limit cut the sample short".into(),
                    };
                    writeln!(
                        out,
                        "sample: {} of {} top-level classes on {proof_threads} threads; {projected}",
                        proof.classes, proof.classes_total,
                    )
                    .map_err(io)?;
                }
            }
            if !proof.complete {
                return Err(CliError::Input("the proof did not finish".into()));
            }
            Ok(())
        }
        BoggleCommand::Merge { files, share } => {
            let share = share.as_deref().map(parse_share).transpose()?;
            let mut read = Vec::new();
            for path in files {
                let name = path.display().to_string();
                let text = std::fs::read_to_string(path)
                    .map_err(|e| CliError::Input(format!("{name}: {e}")))?;
                read.push((
                    name.clone(),
                    crate::results::parse(&name, &text).map_err(boggle_error)?,
                ));
            }
            let merged = crate::results::merge(&read, share).map_err(boggle_error)?;
            // The merged header names the share checked (1-based), if any.
            let share_text = merged.header.share.map(|(k, n)| format!("{k}/{n}"));
            let covered = match &share_text {
                Some(text) => format!("all {} top-level classes of share {text}", merged.classes),
                None => format!("all {} top-level classes", merged.classes),
            };
            let (rows, cols) = merged.header.shape;
            // The header's buckets were read by `results::parse`, which refuses
            // any it cannot parse.
            let buckets = crate::Buckets::parse(&merged.header.buckets).map_err(boggle_error)?;
            if json {
                let value = serde_json::json!({
                    "rows": rows, "cols": cols, "target": merged.header.target,
                    "buckets": merged.header.buckets,
                    "letters": crate::prove::letters_of(buckets.alphabet()),
                    "boards": merged.boards,
                    "classes": merged.classes, "subclasses": merged.subclasses,
                    "core_seconds": merged.seconds, "files": files.len(),
                    // A share's files prove the share, not the whole.
                    "complete": share_text.is_none(),
                    "share": share_text,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                for (board, score) in &merged.boards {
                    writeln!(out, "{score}\t{board}").map_err(io)?;
                }
                writeln!(
                    out,
                    "{} results file(s) cover {covered} of {rows}x{cols}{} once: {} board(s) \
                     scoring at least {} (up to symmetry); {} subclasses bounded, {:.2} \
                     core-hours",
                    files.len(),
                    over_letters(&buckets),
                    merged.boards.len(),
                    merged.header.target,
                    merged.subclasses,
                    merged.seconds / 3600.0
                )
                .map_err(io)?;
            }
            Ok(())
        }
        BoggleCommand::Verify {
            certificate,
            threads,
            dict,
        } => {
            let trie = dict.load()?;
            let text = std::fs::read_to_string(certificate)
                .map_err(|e| CliError::Input(format!("{}: {e}", certificate.display())))?;
            let named = certificate.display();
            let parsed = crate::certificate::parse(&text)
                .map_err(|e| CliError::Input(format!("{named}: {e}")))?;
            let started = Instant::now();
            let pool = frontier_app::plugin::thread_pool(*threads)?;
            let verified = pool
                .install(|| crate::certificate::verify(&trie, &parsed))
                .map_err(|e| CliError::Input(format!("{named}: certificate refused: {e}")))?;
            let seconds = started.elapsed().as_secs_f64();
            if json {
                let value = serde_json::json!({
                    "verified": true, "classes": verified.classes, "pieces": verified.pieces,
                    "letters": crate::prove::letters_of(parsed.buckets.alphabet()),
                    "boards": verified.boards, "target": parsed.target, "seconds": seconds,
                });
                writeln!(out, "{value}").map_err(io)?;
            } else {
                for (board, score) in &verified.boards {
                    writeln!(out, "{score}\t{board}").map_err(io)?;
                }
                writeln!(
                    out,
                    "certificate verified: {} classes, {} subclasses re-bounded; {} board(s) of {}x{}{} \
                     scoring at least {} (up to symmetry), {seconds:.1} s",
                    verified.classes,
                    verified.pieces,
                    verified.boards.len(),
                    parsed.shape.rows,
                    parsed.shape.cols,
                    over_letters(&parsed.buckets),
                    parsed.target
                )
                .map_err(io)?;
            }
            Ok(())
        }
        BoggleCommand::Anneal {
            shape,
            chains,
            steps,
            t_start,
            t_end,
            seed,
            target,
            max_seconds,
            keep,
            gpu,
            dict,
        } => {
            let trie = dict.load()?;
            let settings = AnnealSettings {
                shape: format!("{}x{}", shape.0, shape.1),
                chains: *chains,
                steps: *steps,
                t_start: *t_start,
                t_end: *t_end,
                target: *target,
                max_seconds: *max_seconds,
                gpu: *gpu,
            };
            let result = settings.run(&trie, *seed, *keep)?;
            if json {
                writeln!(out, "{}", serde_json::to_value(&result).unwrap_or_default())
                    .map_err(io)?;
            } else {
                for (board, score) in &result.best {
                    writeln!(out, "{score}\t{board}").map_err(io)?;
                }
                writeln!(
                    out,
                    "{} chains, {} boards scored in {:.1} s ({:.0} boards/s){}",
                    result.chains,
                    result.evaluated,
                    result.seconds,
                    result.evaluated as f64 / result.seconds.max(1e-9),
                    if result.reached_target {
                        "; target reached"
                    } else {
                        ""
                    }
                )
                .map_err(io)?;
            }
            Ok(())
        }
    }
}

/// Reads boards from a file: one per line, or a TSV whose header names a
/// `board` column and optionally `rows`, `cols` and `score` (checked).
fn read_boards(
    path: &Path,
    shape: Option<(usize, usize)>,
) -> Result<Vec<(Board, Option<u32>)>, CliError> {
    let text = frontier_app::plugin::read_file(path)?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .peekable();
    let header: Option<Vec<&str>> = lines
        .peek()
        .map(|(_, l)| l.split('\t').map(str::trim).collect::<Vec<_>>())
        .filter(|fields| fields.contains(&"board"));
    if header.is_some() {
        lines.next();
    }
    let column = |name: &str| {
        header
            .as_ref()
            .and_then(|h| h.iter().position(|&f| f == name))
    };
    let (board_at, rows_at, cols_at, score_at) = (
        column("board").unwrap_or(0),
        column("rows"),
        column("cols"),
        column("score"),
    );
    lines
        .map(|(i, line)| {
            let at = |e: String| CliError::Input(format!("{}:{}: {e}", path.display(), i + 1));
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            let field = |k: Option<usize>| k.and_then(|k| fields.get(k).copied());
            let number = |k: Option<usize>, what: &str| -> Result<Option<usize>, CliError> {
                field(k)
                    .map(|f| {
                        f.parse::<usize>()
                            .map_err(|_| at(format!("{what} '{f}' is not a number")))
                    })
                    .transpose()
            };
            let board_shape = match (number(rows_at, "rows")?, number(cols_at, "cols")?) {
                (Some(r), Some(c)) => Some((r, c)),
                _ => shape,
            };
            let board = Board::parse(field(Some(board_at)).unwrap_or(""), board_shape)
                .map_err(|e| at(e.to_string()))?;
            let known = number(score_at, "score")?.map(|s| s as u32);
            Ok((board, known))
        })
        .collect()
}

/// Scores boards of possibly mixed shapes: one batch per shape.
fn score_all(trie: &Trie, boards: &[Board], gpu: bool) -> Result<Vec<u32>, CliError> {
    let mut scores = vec![0; boards.len()];
    let mut shapes: Vec<(usize, usize)> = boards.iter().map(|b| (b.rows, b.cols)).collect();
    shapes.sort_unstable();
    shapes.dedup();
    for (rows, cols) in shapes {
        let which: Vec<usize> = (0..boards.len())
            .filter(|&i| (boards[i].rows, boards[i].cols) == (rows, cols))
            .collect();
        let shape = Shape::new(rows, cols);
        let letters: Vec<u8> = which
            .iter()
            .flat_map(|&i| boards[i].letters.iter().copied())
            .collect();
        let batch = if gpu {
            gpu_scores(trie, &shape, &letters)?
        } else {
            score_batch(trie, &shape, &letters)
        };
        for (&i, s) in which.iter().zip(batch) {
            scores[i] = s;
        }
    }
    Ok(scores)
}

/// Scores `count` random boards of `shape` (seeded) on the CPU or the
/// GPU: the sum of their scores, the seconds (kernel time on the GPU) and
/// what scored them.
fn bench(
    trie: &Trie,
    shape: &Shape,
    count: usize,
    letters: Letters,
    threads: usize,
    gpu: bool,
    seed: u64,
) -> Result<(u64, f64, String), CliError> {
    frontier_app::plugin::check_bench_count(count, shape.cells(), "boards")?;
    let boards = random_boards(shape, count, letters, seed);
    let (scores, seconds, how) = if gpu {
        gpu_bench(trie, shape, &boards)?
    } else {
        cpu_bench(trie, shape, &boards, threads)?
    };
    Ok((scores.iter().map(|&s| u64::from(s)).sum(), seconds, how))
}

/// How to anneal, as `boggle anneal` flags and the RON `Anneal(…)` job
/// take it; unset numbers take `AnnealConfig`'s defaults (131,072 chains
/// on a GPU).
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnnealSettings {
    /// Board shape, `4x4`.
    #[serde(default = "default_shape")]
    pub shape: String,
    /// Independent chains.
    #[serde(default)]
    pub chains: Option<usize>,
    /// Moves per chain.
    #[serde(default)]
    pub steps: Option<u64>,
    /// Starting temperature.
    #[serde(default)]
    pub t_start: Option<f64>,
    /// Final temperature.
    #[serde(default)]
    pub t_end: Option<f64>,
    /// Stop once a board scores at least this.
    #[serde(default)]
    pub target: Option<u32>,
    /// Stop after this many seconds.
    #[serde(
        default,
        deserialize_with = "frontier_core::search::deserialize_seconds"
    )]
    pub max_seconds: Option<f64>,
    /// Run the chains on the GPU.
    #[serde(default)]
    pub gpu: bool,
}

fn default_shape() -> String {
    "4x4".into()
}

impl AnnealSettings {
    /// Anneals from `seed`, keeping the `keep` best boards; new bests are
    /// logged as they come.
    fn run(&self, trie: &Trie, seed: u64, keep: usize) -> Result<crate::AnnealResult, CliError> {
        let (rows, cols) = parse_shape(&self.shape).map_err(CliError::Input)?;
        let defaults = AnnealConfig::default();
        let config = AnnealConfig {
            rows,
            cols,
            chains: self
                .chains
                .unwrap_or(if self.gpu { 131_072 } else { defaults.chains }),
            steps: self.steps.unwrap_or(defaults.steps),
            t_start: self.t_start.unwrap_or(defaults.t_start),
            t_end: self.t_end.unwrap_or(defaults.t_end),
            seed,
            target: self.target,
            max_seconds: self.max_seconds,
            keep,
        };
        let started = Instant::now();
        let report = |board: &str, score: u32| {
            tracing::info!(
                "{:>8.2} s  new best {score}: {board}",
                started.elapsed().as_secs_f64()
            );
        };
        if self.gpu {
            gpu_anneal(trie, &config, &report)
        } else {
            anneal(trie, &config, &report).map_err(boggle_error)
        }
    }
}

/// The letter buckets proofs start from unless told: three sets for the
/// inner and edge cells, and the corners left whole to the letter-by-letter
/// search (bucketing the corners copies every path that misses them into
/// every corner class; 3x3 took 7x longer with four buckets everywhere).
const DEFAULT_BUCKETS: &str = "aeijou bcdfgmpqvwxz hklnrsty, corner: abcdefghijklmnopqrstuvwxyz";

/// A proof, as `boggle prove` flags and the RON `Prove(…)` job take it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProveSettings {
    /// Board shape, `3x3`.
    pub shape: String,
    /// Report every board scoring at least this.
    pub target: u32,
    /// Letter buckets (see `boggle prove --help`); `=letters` for one
    /// class of boards over those letters.
    #[serde(default = "default_buckets")]
    pub buckets: String,
    /// CPU threads (0: all).
    #[serde(default)]
    pub threads: usize,
    /// Stop after this many seconds.
    #[serde(
        default,
        deserialize_with = "frontier_core::search::deserialize_seconds"
    )]
    pub max_seconds: Option<f64>,
    /// Search only this many top-level classes, drawn with `seed`.
    #[serde(default)]
    pub sample: Option<usize>,
    /// Seed of the sample.
    #[serde(default = "default_sample_seed")]
    pub seed: u64,
    /// `K/N`: search only share K of N (see `boggle prove --help`).
    #[serde(default)]
    pub share: Option<String>,
    /// Walk the bottom of the search on GPU 0 (see `boggle prove --help`).
    #[serde(default)]
    pub gpu: bool,
    /// With `gpu`: cells fixed on the CPU before a subclass goes to the GPU.
    #[serde(default)]
    pub gpu_depth: Option<usize>,
    /// With `gpu`: `auto` (default), `queue-full`, `always` or `never`:
    /// which trees the CPU threads copy to the device (see `boggle prove
    /// --help`).
    #[serde(default)]
    pub gpu_host_copies: Option<String>,
    /// With `gpu`: `tree` (default), `paths` or `host`: how much of each
    /// class's tree the GPU builds (see `boggle prove --help`).
    #[serde(default)]
    pub gpu_build: Option<String>,
    /// With `gpu`: `when-behind` (default), `never` or `every-other`: when a class is
    /// split one cell below `gpu_depth` (see `boggle prove --help`).
    #[serde(default)]
    pub gpu_deeper: Option<String>,
    /// Force cells while a subclass's bound is above this (see `boggle
    /// prove --help`); 0: never. Default: 2.6 times the target (4.6 with
    /// `gpu`).
    #[serde(default)]
    pub switchover: Option<u32>,
    /// `cost` (default) or `degree`: how each class's cells are ordered
    /// (see `boggle prove --help`).
    #[serde(default = "default_order")]
    pub order: String,
    /// Append finished classes to this results file (see `boggle prove
    /// --help`).
    #[serde(default)]
    pub results: Option<PathBuf>,
    /// Continue `results`, skipping the classes it lists.
    #[serde(default)]
    pub resume: bool,
}

fn default_sample_seed() -> u64 {
    1
}

fn default_order() -> String {
    "cost".into()
}

fn default_buckets() -> String {
    DEFAULT_BUCKETS.into()
}

/// Boards a proof may be expected to list: each board at or above the
/// target is kept until the proof ends (with its certificate pieces), so a
/// target most boards reach would fill the memory before it says anything.
const MOST_BOARDS: f64 = 1e6;

/// Refuses a target that a sizeable share of random boards reach, saying
/// what it implies: 20,000 random boards over the letters of `buckets` (each
/// cell uniform over them) are scored (a few milliseconds), and their share
/// above the target, times the k^cells boards of k letters, estimates how
/// many the proof would list. Targets that random boards do not reach
/// pass: their boards are few.
fn check_target_is_selective(
    trie: &Trie,
    shape: &Shape,
    target: u32,
    buckets: &crate::Buckets,
) -> Result<(), CliError> {
    const SAMPLE: usize = 20_000;
    let cells = shape.cells();
    let alphabet = buckets.alphabet();
    let letters: Vec<u8> = (0..26u8).filter(|l| alphabet >> l & 1 == 1).collect();
    if letters.is_empty() {
        return Ok(());
    }
    let mut rng = frontier_core::rng::SplitMix64::new(7);
    let mut board = vec![0u8; cells];
    let mut scorer = crate::Scorer::new(trie);
    let (mut reaching, mut best) = (0usize, 0u32);
    for _ in 0..SAMPLE {
        for cell in board.iter_mut() {
            *cell = letters[rng.below(letters.len() as u64) as usize];
        }
        let score = scorer.score_letters(shape, &board);
        reaching += usize::from(score >= target);
        best = best.max(score);
    }
    let share = reaching as f64 / SAMPLE as f64;
    let estimate = share * (letters.len() as f64).powi(cells as i32);
    if estimate > MOST_BOARDS {
        let over = over_letters(buckets);
        return Err(CliError::Input(format!(
            "--target {target} on {}x{}: {reaching} of {SAMPLE} random boards{over} reach it, so the proof would list about {estimate:.1e} boards, each kept in memory; a proof is for targets few boards reach (the best random board here scored {best}): raise --target",
            shape.rows,
            shape.cols,
        )));
    }
    Ok(())
}

/// `text` parsed, or the type's default where it is not given; a text
/// the type does not name is refused with its own message.
fn parsed_or_default<T>(text: &Option<String>) -> Result<T, CliError>
where
    T: std::str::FromStr<Err = String> + Default,
{
    text.as_deref().map_or_else(
        || Ok(T::default()),
        |text| text.parse().map_err(CliError::Input),
    )
}

/// `--share K/N` as 0-based `(K - 1, N)`.
fn parse_share(text: &str) -> Result<(usize, usize), CliError> {
    let bad = || CliError::Input(format!("--share '{text}': expected K/N with 1 <= K <= N"));
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k - 1, n))
}

impl ProveSettings {
    /// The share of the classes to search, 0-based: `--share K/N`, or
    /// under mpirun this rank's.
    fn share(&self) -> Result<Option<(usize, usize)>, CliError> {
        let ranks = frontier_core::search::mpi::rank_and_size().filter(|&(_, ranks)| ranks > 1);
        let Some(text) = &self.share else {
            return Ok(ranks);
        };
        if ranks.is_some() {
            return Err(CliError::Input(
                "--share and mpirun both split the proof: use one".into(),
            ));
        }
        parse_share(text).map(Some)
    }

    /// The results file the proof appends to, if any, once the settings
    /// that cannot write one are refused (the proof opens it).
    fn results_file(&self, by_mpi: bool, certificate: bool) -> Result<Option<&Path>, CliError> {
        let Some(path) = &self.results else {
            if self.resume {
                return Err(CliError::Input(
                    "resume continues a results file: set results too".into(),
                ));
            }
            return Ok(None);
        };
        if certificate {
            return Err(CliError::Input(
                "results files are written by proofs without a certificate: a certificate needs \
                 every class in one run"
                    .into(),
            ));
        }
        if by_mpi {
            return Err(CliError::Input(
                "--results is one file per process: split the proof with --share K/N, one results \
                 file per share, instead of mpirun"
                    .into(),
            ));
        }
        // A sample's share is every N-th class of the sample, not of the
        // proof: its file would name a share (`boggle merge --share`) that
        // its classes are not.
        if self.sample.is_some() && self.share.is_some() {
            return Err(CliError::Input(
                "--share with --sample splits the sample, not the proof, and a results file names \
                 shares of the proof: drop --results, or --share"
                    .into(),
            ));
        }
        Ok(Some(path))
    }

    /// Runs the proof on `threads` cores (and the GPU when asked), logging
    /// progress every ten seconds; returns it with the number of threads it
    /// ran on and what the GPU did.
    fn run(
        &self,
        trie: &Trie,
        certificate: bool,
    ) -> Result<(crate::Proof, usize, Option<GpuProofReport>), CliError> {
        let (rows, cols) = parse_shape(&self.shape).map_err(CliError::Input)?;
        let buckets = match self.buckets.strip_prefix('=') {
            Some(letters) => crate::Buckets::single(letters),
            None => crate::Buckets::parse(&self.buckets),
        }
        .map_err(boggle_error)?;
        let settings = crate::ProofSettings {
            shape: Shape::new(rows, cols),
            target: self.target,
            buckets,
            max_seconds: self.max_seconds,
            certificate,
            sample: self.sample.map(|n| (n, self.seed)),
            share: self.share()?,
            switchover: match (self.switchover, self.gpu) {
                (Some(0), _) => None,
                (Some(switchover), _) => Some(switchover),
                (None, false) => Some(crate::prove::default_switchover(self.target)),
                (None, true) => Some(crate::prove::default_gpu_switchover(self.target)),
            },
            order: SplitOrder::named(&self.order, &Shape::new(rows, cols)).ok_or_else(|| {
                CliError::Input(format!("order '{}': expected cost or degree", self.order))
            })?,
        };
        if certificate && settings.share.is_some() {
            return Err(CliError::Input(
                "--certificate is written by a single process: run the proof without mpirun".into(),
            ));
        }
        // The shape first: a target check on a board no proof takes would
        // ask for a higher target, which the shape then refuses anyway.
        crate::prove::check_proof_shape(&settings.shape).map_err(boggle_error)?;
        // `--letters` too: its random boards are drawn from its letters, so a
        // small alphabet's low target passes where a whole one's would not.
        check_target_is_selective(trie, &settings.shape, self.target, &settings.buckets)?;
        let pool = frontier_app::plugin::thread_pool(self.threads)?;
        let started = Instant::now();
        let last = std::sync::Mutex::new(0u64);
        let progress = |done: u64, total: u64| {
            let seconds = started.elapsed().as_secs();
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if seconds >= *last + 10 {
                *last = seconds;
                tracing::info!("{seconds:>6} s  {done}/{total} top-level classes");
            }
        };
        let gpu_keys = [
            ("gpu_depth", self.gpu_depth.is_some()),
            ("gpu_host_copies", self.gpu_host_copies.is_some()),
            ("gpu_build", self.gpu_build.is_some()),
            ("gpu_deeper", self.gpu_deeper.is_some()),
        ];
        if let Some((key, _)) = gpu_keys.iter().find(|&&(_, set)| set && !self.gpu) {
            return Err(CliError::Input(format!(
                "{key} is for GPU proofs: set gpu too"
            )));
        }
        let host_copies: crate::gpu_prove::HostCopies = parsed_or_default(&self.gpu_host_copies)?;
        let build: crate::gpu_prove::GpuBuild = parsed_or_default(&self.gpu_build)?;
        let deeper: crate::gpu_prove::DeeperSplit = parsed_or_default(&self.gpu_deeper)?;
        let threads = pool.current_num_threads();
        let by_mpi = settings.share.is_some() && self.share.is_none();
        let results = self.results_file(by_mpi, certificate)?;
        if self.gpu {
            if certificate {
                return Err(CliError::Input(
                    "--certificate is written by CPU proofs only: run without --gpu".into(),
                ));
            }
            if by_mpi {
                return Err(CliError::Input(
                    "--gpu proves in one process: split a GPU proof with --share K/N instead of mpirun"
                        .into(),
                ));
            }
            let (proof, report) = pool
                .install(|| {
                    let options = crate::gpu_prove::GpuProofOptions {
                        split_depth: self.gpu_depth,
                        host_copies,
                        build,
                        deeper,
                        results: results.map(Path::to_path_buf),
                        resume: self.resume,
                        ..Default::default()
                    };
                    crate::gpu_prove::prove_on_gpu(trie, &settings, &options, &progress)
                })
                .map_err(boggle_error)?;
            return Ok((proof, threads, Some(report)));
        }
        let proof = pool
            .install(|| match results {
                Some(path) => crate::prove::prove_logged(
                    trie,
                    &settings,
                    &progress,
                    path,
                    self.resume,
                    crate::prove::PART_SECONDS,
                ),
                None => crate::prove(trie, &settings, &progress),
            })
            .map_err(boggle_error)?;
        if by_mpi {
            let (proof, threads) = merge_shares(proof, threads)?;
            return Ok((proof, threads, None));
        }
        Ok((proof, threads, None))
    }
}

/// Adds up the shares of a proof that the ranks of an MPI job searched:
/// every rank gets the whole proof and the threads of all ranks.
fn merge_shares(
    mut proof: crate::Proof,
    threads: usize,
) -> Result<(crate::Proof, usize), CliError> {
    let mine = serde_json::json!({
        "boards": proof.boards, "classes": proof.classes,
        "discarded": proof.classes_discarded, "subclasses": proof.subclasses,
        "scored": proof.boards_scored, "nodes": proof.tree_nodes,
        "max_bound": proof.max_bound, "complete": proof.complete,
        "seconds": proof.seconds, "threads": threads,
        "class_seconds": proof.class_seconds,
        "class_letters": proof.class_letters,
    });
    let shares = frontier_core::search::mpi::all_gather_bytes(mine.to_string().as_bytes());
    let bad = |e: String| CliError::Input(format!("a rank's share of the proof: {e}"));
    let (mut boards, mut threads) = (Vec::new(), 0);
    proof.classes = 0;
    proof.classes_discarded = 0;
    proof.subclasses = 0;
    proof.boards_scored = 0;
    proof.tree_nodes = 0;
    proof.class_seconds.clear();
    proof.class_letters.clear();
    for share in shares {
        let v: serde_json::Value =
            serde_json::from_slice(&share).map_err(|e| bad(e.to_string()))?;
        let number = |key: &str| v[key].as_u64().ok_or_else(|| bad(format!("no '{key}'")));
        proof.classes += number("classes")?;
        proof.classes_discarded += number("discarded")?;
        proof.subclasses += number("subclasses")?;
        proof.boards_scored += number("scored")?;
        proof.tree_nodes += number("nodes")?;
        proof.max_bound = proof.max_bound.max(number("max_bound")? as u32);
        proof.complete &= v["complete"].as_bool().unwrap_or(false);
        proof.seconds = proof.seconds.max(v["seconds"].as_f64().unwrap_or(0.0));
        threads += number("threads")? as usize;
        let seconds: Vec<f64> =
            serde_json::from_value(v["class_seconds"].clone()).map_err(|e| bad(e.to_string()))?;
        proof.class_seconds.extend(seconds);
        let letters: Vec<String> =
            serde_json::from_value(v["class_letters"].clone()).map_err(|e| bad(e.to_string()))?;
        proof.class_letters.extend(letters);
        let found: Vec<(String, u32)> =
            serde_json::from_value(v["boards"].clone()).map_err(|e| bad(e.to_string()))?;
        boards.extend(found);
    }
    // Each board's least image lies in one class, searched by one rank.
    boards.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    proof.boards = boards;
    Ok((proof, threads))
}

/// Random boards scored for a rate, as `boggle bench` takes them.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchSettings {
    /// Boards to score.
    #[serde(default = "default_bench_count")]
    pub count: usize,
    /// Board shape, `4x4`.
    #[serde(default = "default_shape")]
    pub shape: String,
    /// `uniform` or `dice`.
    #[serde(default = "default_letters")]
    pub letters: String,
    /// CPU threads (1: one core; 0: all).
    #[serde(default = "default_threads")]
    pub threads: usize,
    /// Score on the GPU (every score checked on the CPU).
    #[serde(default)]
    pub gpu: bool,
}

fn default_bench_count() -> usize {
    1_000_000
}

fn default_letters() -> String {
    "uniform".into()
}

fn default_threads() -> usize {
    1
}

/// What each instance of a Boggle experiment is: a board to score, or a
/// seed for a benchmark or an annealing run.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub enum BoggleJob {
    /// Instances are boards; the row's value is the score (checked against
    /// a `score` column).
    #[default]
    Score,
    /// Instances are seeds of random boards; the value is boards scored
    /// per second.
    Bench(BenchSettings),
    /// Instances are seeds; the value is the best score found, the path
    /// the best board.
    Anneal(AnnealSettings),
    /// A proof (`boggle prove`); instances are seeds (of the sample, when
    /// sampling). The value is the best score proven, the path every board
    /// at or above the target.
    Prove(ProveSettings),
}

fn cpu_bench(
    trie: &Trie,
    shape: &Shape,
    boards: &[u8],
    threads: usize,
) -> Result<(Vec<u32>, f64, String), CliError> {
    if threads == 1 {
        let mut scorer = Scorer::new(trie);
        let started = Instant::now();
        let scores: Vec<u32> = boards
            .chunks_exact(shape.cells())
            .map(|b| scorer.score_letters(shape, b))
            .collect();
        return Ok((
            scores,
            started.elapsed().as_secs_f64(),
            "1 CPU thread".into(),
        ));
    }
    let pool = frontier_app::plugin::thread_pool(threads)?;
    let started = Instant::now();
    let scores = pool.install(|| score_batch(trie, shape, boards));
    let seconds = started.elapsed().as_secs_f64();
    Ok((
        scores,
        seconds,
        format!("{} CPU threads", pool.current_num_threads()),
    ))
}

fn gpu_scores(trie: &Trie, shape: &Shape, boards: &[u8]) -> Result<Vec<u32>, CliError> {
    let mut gpu = crate::gpu::GpuBoggle::new(trie, shape, 0).map_err(boggle_error)?;
    let (scores, _) = gpu.score(trie, boards).map_err(boggle_error)?;
    check_against_cpu(trie, shape, boards, &scores)?;
    Ok(scores)
}

fn gpu_bench(
    trie: &Trie,
    shape: &Shape,
    boards: &[u8],
) -> Result<(Vec<u32>, f64, String), CliError> {
    let mut gpu = crate::gpu::GpuBoggle::new(trie, shape, 0).map_err(boggle_error)?;
    // A first batch warms the kernel, caches and clocks up.
    let warm = &boards[..boards.len().min(shape.cells() * 100_000)];
    gpu.score(trie, warm).map_err(boggle_error)?;
    let started = Instant::now();
    let (scores, kernel_seconds) = gpu.score(trie, boards).map_err(boggle_error)?;
    let wall = started.elapsed().as_secs_f64();
    tracing::info!(
        "GPU: kernel {:.3} s by device events, {:.3} s with transfers",
        kernel_seconds,
        wall
    );
    check_against_cpu(trie, shape, boards, &scores)?;
    Ok((
        scores,
        kernel_seconds,
        format!(
            "{} (kernel time; {:.0} boards/s with transfers; every score checked on the CPU)",
            gpu.device_name(),
            (boards.len() / shape.cells()) as f64 / wall
        ),
    ))
}

fn check_against_cpu(
    trie: &Trie,
    shape: &Shape,
    boards: &[u8],
    scores: &[u32],
) -> Result<(), CliError> {
    let cpu = score_batch(trie, shape, boards);
    let differ = cpu.iter().zip(scores).filter(|(a, b)| a != b).count();
    if differ > 0 {
        return Err(CliError::Input(format!(
            "GPU and CPU scores differ on {differ} of {} boards",
            cpu.len()
        )));
    }
    Ok(())
}

fn gpu_anneal(
    trie: &Trie,
    config: &AnnealConfig,
    report: &dyn Fn(&str, u32),
) -> Result<crate::AnnealResult, CliError> {
    let shape = Shape::new(config.rows, config.cols);
    let mut gpu = crate::gpu::GpuBoggle::new(trie, &shape, 0).map_err(boggle_error)?;
    tracing::info!("annealing on {}", gpu.device_name());
    gpu.anneal(trie, config, report).map_err(boggle_error)
}

/// Boggle as an experiment (`domain: Boggle(…)` in RON, `frontier solve
/// boggle BOARD`): each instance is a board, its row the board's score.
/// Instance files are those `boggle score --file` reads (a `score` column
/// is checked).
#[derive(Clone, Debug, serde::Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct BoggleCli {
    /// Word list; `@data/` means the repository's data/, else
    /// $FRONTIER_DATA, else ../shared/data.
    #[arg(long, default_value = "@data/boggle/enable2k.txt")]
    #[serde(default = "default_dict")]
    pub dict: PathBuf,
    /// What each instance is (RON only; the subcommands `boggle bench` and
    /// `boggle anneal` do the same from flags).
    #[arg(skip)]
    #[serde(default)]
    pub job: BoggleJob,
}

fn default_dict() -> PathBuf {
    PathBuf::from("@data/boggle/enable2k.txt")
}

/// The board as rows joined by `/`, which `Board::parse` reads back with
/// its shape.
fn board_rows(board: &Board) -> String {
    let letters: Vec<char> = board.text().chars().collect();
    letters
        .chunks(board.cols.max(1))
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

impl frontier_app::plugin::Plugin for BoggleCli {
    const NAME: &'static str = "boggle";
    const ABOUT: &'static str = "Boggle boards scored against a word list";

    fn commands() -> Option<clap::Command> {
        Some(frontier_app::plugin::subcommands::<BoggleCommand>(
            Self::NAME,
            "Boggle: score boards, benchmark the scorers, anneal for high-scoring boards, prove the best boards of a shape (merge its shares, verify its certificate)",
        ))
    }

    fn run_command(
        matches: &clap::ArgMatches,
        context: &frontier_app::Context,
    ) -> Result<(), CliError> {
        use frontier_app::plugin::parse_subcommand;
        run(&parse_subcommand::<BoggleCommand>(matches)?, context.json)
    }
    type Prepared = Trie;

    fn prepare(&self, _: &[frontier_core::ExecutorConfig]) -> Result<Trie, CliError> {
        DictArg {
            dict: self.dict.clone(),
        }
        .load()
    }

    fn set_param(
        &mut self,
        key: &str,
        value: &frontier_app::config::GridValue,
    ) -> Result<bool, CliError> {
        match (&mut self.job, key) {
            (BoggleJob::Bench(b), "threads") => b.threads = value.count(key)? as usize,
            (BoggleJob::Bench(b), "letters") => b.letters = value.text(key)?,
            (BoggleJob::Bench(b), "gpu") => b.gpu = value.flag(key)?,
            (BoggleJob::Bench(b), "shape") => b.shape = value.text(key)?,
            (BoggleJob::Anneal(a), "gpu") => a.gpu = value.flag(key)?,
            (BoggleJob::Anneal(a), "chains") => a.chains = Some(value.count(key)? as usize),
            (BoggleJob::Anneal(a), "shape") => a.shape = value.text(key)?,
            (BoggleJob::Prove(p), "shape") => p.shape = value.text(key)?,
            (BoggleJob::Prove(p), "target") => p.target = value.count(key)? as u32,
            (BoggleJob::Prove(p), "threads") => p.threads = value.count(key)? as usize,
            (BoggleJob::Prove(p), "buckets") => p.buckets = value.text(key)?,
            (BoggleJob::Prove(p), "gpu") => p.gpu = value.flag(key)?,
            (BoggleJob::Prove(p), "gpu_depth") => p.gpu_depth = Some(value.count(key)? as usize),
            (BoggleJob::Prove(p), "gpu_host_copies") => p.gpu_host_copies = Some(value.text(key)?),
            (BoggleJob::Prove(p), "gpu_build") => p.gpu_build = Some(value.text(key)?),
            (BoggleJob::Prove(p), "gpu_deeper") => p.gpu_deeper = Some(value.text(key)?),
            // A sample too long for one sitting runs as shares of it, each
            // a random sample of its own (docs/RESULTS.md, seed 3's halves).
            (BoggleJob::Prove(p), "share") => p.share = Some(value.text(key)?),
            (BoggleJob::Prove(p), "switchover") => p.switchover = Some(value.count(key)? as u32),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn random_instance(
        &self,
        _size: usize,
        rng: &mut frontier_core::rng::SplitMix64,
    ) -> Result<String, CliError> {
        match self.job {
            BoggleJob::Score => Err(CliError::Input(
                "boggle scores the boards it is given: list them inline or in a file \
                 (random instances are seeds, for Bench(…) and Anneal(…) jobs)"
                    .into(),
            )),
            _ => Ok(frontier_app::plugin::random_seed(rng)),
        }
    }

    fn read_instances(&self, path: &Path) -> Result<Vec<frontier_app::plugin::Instance>, CliError> {
        if !matches!(self.job, BoggleJob::Score) {
            return frontier_app::plugin::read_lines(path);
        }
        Ok(read_boards(path, None)?
            .into_iter()
            .map(|(board, known)| frontier_app::plugin::Instance {
                id: board.text(),
                text: board_rows(&board),
                known_value: known.map(f64::from),
                ..Default::default()
            })
            .collect())
    }

    fn solve(
        &self,
        trie: &Trie,
        instance: &frontier_app::plugin::Instance,
        executor: &frontier_core::ExecutorConfig,
        _: &frontier_core::SearchOptions,
    ) -> Result<frontier_app::report::InstanceReport, CliError> {
        frontier_app::plugin::no_executor(Self::NAME, executor)?;
        let mut report = frontier_app::report::InstanceReport::new(Self::NAME, instance, executor);
        match &self.job {
            BoggleJob::Score => {}
            BoggleJob::Bench(bench_settings) => {
                let (rows, cols) = parse_shape(&bench_settings.shape).map_err(CliError::Input)?;
                let letters = parse_letters(&bench_settings.letters).map_err(CliError::Input)?;
                let shape = Shape::new(rows, cols);
                let count = bench_settings.count;
                let (_, seconds, how) = bench(
                    trie,
                    &shape,
                    count,
                    letters,
                    bench_settings.threads,
                    bench_settings.gpu,
                    instance.seed()?,
                )?;
                report.executor = if bench_settings.gpu {
                    "score-gpu".into()
                } else {
                    format!("score-{}", bench_settings.threads)
                };
                report.status = "measured".into();
                report.solved = true;
                report.value = Some(count as f64 / seconds.max(1e-12));
                report.path = vec![how];
                report.stats.expanded = count as u64;
                report.stats.finish(seconds);
                return Ok(report);
            }
            BoggleJob::Anneal(settings) => {
                let result = settings.run(trie, instance.seed()?, 1)?;
                let (board, score) = result.best.first().cloned().unwrap_or_default();
                report.executor = if settings.gpu {
                    "anneal-gpu".into()
                } else {
                    "anneal".into()
                };
                report.status = if result.reached_target {
                    "target reached".into()
                } else {
                    "annealed".into()
                };
                report.solved = true;
                report.value = Some(f64::from(score));
                report.path = vec![board];
                report.stats.expanded = result.evaluated;
                report.stats.finish(result.seconds);
                return Ok(report);
            }
            BoggleJob::Prove(settings) => {
                let settings = ProveSettings {
                    seed: instance.seed()?,
                    ..settings.clone()
                };
                let (proof, threads, on_gpu) = settings.run(trie, false)?;
                report.executor = match on_gpu {
                    Some(g) => format!("prove-gpu-{threads}-depth{}", g.split_depth),
                    None => format!("prove-{threads}"),
                };
                let status: String = match (proof.complete, settings.sample, &settings.share) {
                    (false, _, _) => "incomplete".into(),
                    (true, Some(_), _) => "sampled".into(),
                    (true, None, Some(share)) => format!("share {share} proven"),
                    (true, None, None) => "proven".into(),
                };
                report.status = status + &over_letters(&proof.buckets);
                report.solved = proof.complete;
                report.value = Some(f64::from(proof.boards.first().map_or(0, |b| b.1)));
                report.path = proof
                    .boards
                    .iter()
                    .map(|(board, score)| format!("{score} {board}"))
                    .collect();
                report.stats.expanded = proof.subclasses;
                report.stats.generated = proof.tree_nodes;
                report.stats.finish(proof.seconds);
                return Ok(report);
            }
        }
        let board = Board::parse(&instance.text, None).map_err(|e| CliError::Instance {
            id: instance.id.clone(),
            message: e.to_string(),
        })?;
        let started = Instant::now();
        let score = score_all(trie, std::slice::from_ref(&board), false)?[0];
        report.executor = "score".into();
        report.status = "scored".into();
        report.solved = true;
        report.value = Some(f64::from(score));
        report.stats.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }
}
