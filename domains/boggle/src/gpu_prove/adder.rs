//! Adding up what the GPU's launches found, on a thread of its own.
//!
//! Scoring a launch's boards and walking on the CPU the subclasses the
//! GPU could not finish took the GPU's thread 21 of its 79 s on 1,024
//! 4x4 classes fed by 64 host threads (docs/RESULTS.md): with its copies,
//! longer than the next kernel, so the kernel waited. Here they run beside
//! the GPU's thread, which only copies, launches and reads back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::time::Instant;

use super::{Finished, Walked, BOARD_WORDS, ITEM_DONE};
use crate::gpu::GpuBoggle;
use crate::orderly::OrderlyTree;
use crate::prove::{
    letter_text, place_in_order, ArenaPool, Below, ClassOutcome, Handover, ProofSettings, Worker,
};
use crate::trie::Trie;
use crate::BoggleError;

/// The adding-up thread's state and what it has added up.
pub(super) struct Adder<'a, 't> {
    /// Scores the boards the walk sends back (exactly: the CPU's scores),
    /// on a stream of its own beside the walk's kernels.
    pub(super) scorer: GpuBoggle,
    pub(super) trie: &'t Trie,
    /// For the subclasses walked on the CPU after all, and for checking
    /// the scores of boards at the target.
    pub(super) worker: Worker<'t>,
    pub(super) settings: &'a ProofSettings,
    /// Where the arenas of walked classes go back to the threads.
    pub(super) pool: &'a ArenaPool,
    /// Counts the classes handed over until their arenas go back here.
    pub(super) host_budget: &'a super::HostBudget,
    pub(super) started: Instant,
    /// Subclasses, boards scored and boards found below the split.
    pub(super) outcome: ClassOutcome,
    /// Subclasses bounded on the GPU.
    pub(super) subclasses: u64,
    /// Subclasses walked on the CPU after all.
    pub(super) walked_on_cpu: u64,
    /// This thread's busy seconds.
    pub(super) seconds: f64,
    /// False once a walk on the CPU stopped at the time limit.
    pub(super) complete: bool,
    /// Where each handover added up is counted for the results file.
    pub(super) ledger: Option<&'a crate::ledger::Ledger<'a>>,
}

impl Adder<'_, '_> {
    /// Adds up every batch received until the channel closes. After an
    /// error it sets `failed` (the GPU's thread then stops launching) and
    /// only gives the arenas back, so that the GPU's thread never blocks.
    pub(super) fn run(
        &mut self,
        receiver: Receiver<Finished>,
        failed: &AtomicBool,
    ) -> Result<(), BoggleError> {
        let mut failure = None;
        for Finished { mut batch, walked } in receiver {
            let started = Instant::now();
            if failure.is_none() {
                if let Err(e) = self.add_up(&mut batch, &walked) {
                    failed.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
            for handover in batch {
                super::give_back(handover, self.pool, self.host_budget);
            }
            self.seconds += started.elapsed().as_secs_f64();
        }
        failure.map_or(Ok(()), Err)
    }

    /// Adds up the GPU's results for `batch`: scores the boards sent
    /// back, checks those at the target on the CPU, counts the subclasses
    /// and walks on the CPU the ones the GPU could not finish.
    fn add_up(&mut self, batch: &mut [Handover], walked: &Walked) -> Result<(), BoggleError> {
        let adding_started = Instant::now();
        let target = self.settings.target;
        let shape = &self.settings.shape;
        // Each item's class, whose split order lays its boards out.
        let class_of: Vec<usize> = batch
            .iter()
            .enumerate()
            .flat_map(|(class, handover)| std::iter::repeat_n(class, handover.item_count()))
            .collect();
        let cells = shape.cells();
        // Laid out in place, with no allocation per board: one class can
        // send back tens of millions (31 M, one of seed 3's 4,096-class
        // sample). Most of this thread's time there is the scoring below
        // (about 3 M of these boards a second, dense boards of many words).
        let records = walked.boards.chunks_exact(BOARD_WORDS);
        let mut boards = Vec::with_capacity(records.len() * cells);
        // The handover of the batch that sent each board laid out.
        let mut board_handovers = Vec::with_capacity(records.len());
        for record in records {
            if walked.status[record[0] as usize] != ITEM_DONE {
                continue;
            }
            let handed = class_of[record[0] as usize];
            board_handovers.push(handed);
            let order = &batch[handed].order;
            let start = boards.len();
            boards.resize(start + cells, 0);
            let letters = record[2..].iter().flat_map(|word| word.to_le_bytes());
            place_in_order(order, letters, &mut boards[start..]);
        }
        let (scores, _) = self.scorer.score(self.trie, &boards)?;
        self.outcome.boards_scored += scores.len() as u64;
        // Per handover of the batch, the boards it found, for the ledger.
        let mut found: Vec<Vec<(Vec<u8>, u32)>> = vec![Vec::new(); batch.len()];
        for ((board, &score), &handed) in boards
            .chunks_exact(cells)
            .zip(&scores)
            .zip(&board_handovers)
        {
            if score < target {
                continue;
            }
            // A board the proof reports is scored again on the CPU.
            let checked = self.worker.scorer.score_letters(shape, board);
            if checked != score {
                return Err(BoggleError::Config(format!(
                    "the GPU scored a board {score} and the CPU {checked}: {}",
                    letter_text(board)
                )));
            }
            self.outcome.boards.push((board.to_vec(), score));
            if self.ledger.is_some() {
                found[handed].push((board.to_vec(), score));
            }
        }
        let mut item = 0;
        for (handover, found) in batch.iter_mut().zip(found) {
            let subclasses_before = self.outcome.subclasses;
            let boards_before = self.outcome.boards.len();
            for group in &handover.groups {
                let mut failed = Vec::new();
                for letters in group.items.chunks_exact(handover.depth) {
                    match walked.status[item] {
                        ITEM_DONE => {
                            self.outcome.subclasses += walked.subclasses[item];
                            self.subclasses += walked.subclasses[item];
                        }
                        0 => {
                            return Err(BoggleError::Config(format!(
                                "the GPU left subclass {item} of a launch unwalked"
                            )))
                        }
                        _ => failed.push(letters),
                    }
                    item += 1;
                }
                if !failed.is_empty() {
                    // Said before the walk: a long one holds up every launch.
                    tracing::info!(
                        "GPU launch {}: {} subclasses (a stack or the board buffer full) walked on the CPU",
                        walked.launch,
                        failed.len()
                    );
                    self.walked_on_cpu += failed.len() as u64;
                    self.worker.builder.reorder(&handover.order);
                    handover.tree.reroot(group.root as usize, group.bound);
                    self.walk_on_cpu(&mut handover.tree, &handover.masks, &failed);
                }
            }
            if let Some(ledger) = self.ledger {
                // This handover's boards: the GPU's, and those of its
                // subclasses walked on the CPU after all.
                let mut boards = found;
                boards.extend(self.outcome.boards[boards_before..].iter().cloned());
                let subclasses = self.outcome.subclasses - subclasses_before;
                ledger.added_up(handover.class, subclasses, boards);
            }
        }
        tracing::info!(
            "GPU launch {}: {} classes, {item} subclasses handed over, {} boards, {:.3} s adding up ({:.3} s in the kernel so far)",
            walked.launch,
            batch.len(),
            walked.boards.len() / BOARD_WORDS,
            adding_started.elapsed().as_secs_f64(),
            walked.kernel_seconds_so_far
        );
        Ok(())
    }

    /// Walks the subclasses `failed` of the class of `tree` on the CPU.
    fn walk_on_cpu(&mut self, tree: &mut OrderlyTree, masks: &[u32], failed: &[&[u8]]) {
        std::mem::swap(&mut self.worker.tree, tree);
        let stop = AtomicBool::new(false);
        for letters in failed {
            let (mut pieces, mut items) = (Vec::new(), Vec::new());
            let mut below = Below {
                settings: self.settings,
                started: self.started,
                stop: &stop,
                split: None,
                outcome: &mut self.outcome,
                pieces: &mut pieces,
                items: &mut items,
                shipment: None,
                forced: 0,
                parts: None,
            };
            self.complete &= below.walk(&mut self.worker, masks, letters);
        }
        std::mem::swap(&mut self.worker.tree, tree);
    }
}
