// Issue 45 (2026-12-02, twenty-eighth session): how many of the words a force appends the
// host's walk to the split can reach. Paste `tmp_visible` into `impl OrderlyTree` in
// orderly.rs, call `self.tmp_visible(start)` in `force_with` after the merge (with `let
// start = self.arena.len();` before it), add the static, and print TMP_VISIBLE at the end
// of host_harness.rs (`forces: None` in its Split). Result, seed 1's first 12 4x4 classes
// at depth 7, switchover 16,000: 119,068,755 of 617,596,748 appended words (19%).
// Per merge level (the same run): levels 3-6 hold 88% of the appended words, levels 0-7 97%.
fn tmp_visible(&self, start: usize) {
    // A sum node is reached by the host's walk only through choice nodes of split-order
    // positions below the split depth (positions rise along every path).
    let depth: u32 = 7;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![self.root];
    let mut visible = 0u64;
    while let Some(sum) = stack.pop() {
        if sum >= start && !seen.insert(sum) {
            continue;
        }
        let count = self.arena[sum] & ((1 << COUNT_BITS) - 1);
        let mut at = sum + 1;
        for _ in 0..count {
            let header = self.arena[at];
            let letters = (header & LETTER_BITS).count_ones() as usize;
            if header >> POSITION_SHIFT < depth {
                for c in 0..letters {
                    let offset = self.arena[at + 2 + 2 * c];
                    if offset != LEAF {
                        stack.push(offset as usize);
                    }
                }
            }
            at += 1 + 2 * letters;
        }
        if sum >= start {
            visible += (at - sum) as u64;
        }
    }
    TMP_VISIBLE[0].fetch_add(visible, std::sync::atomic::Ordering::Relaxed);
    TMP_VISIBLE[1].fetch_add((self.arena.len() - start) as u64, std::sync::atomic::Ordering::Relaxed);
}
pub(crate) static TMP_VISIBLE: [std::sync::atomic::AtomicU64; 2] =
    [const { std::sync::atomic::AtomicU64::new(0) }; 2];
