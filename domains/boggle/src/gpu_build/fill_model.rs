//! The GPU's fill (`fill_*` kernels of `kernels/boggle_build.cu`) step by
//! step on the CPU, one loop per kernel and the same formulas, for tests
//! that need no GPU: that it makes [`OrderlyTree::fill`]'s tree word for
//! word checks the algorithm; the GPU test then checks the kernels.

use crate::dict::{points_for_length, QU};

/// The tree's arena, root, bound and node count, filled level by level
/// from `sorted` keys over `cells` positions (at least one key).
pub(super) fn fill_by_levels(sorted: &[u128], cells: usize) -> (Vec<u32>, usize, u32, usize) {
    let n = sorted.len();
    let levels = 2 * cells + 1;
    let slot_of = |key: u128, p: usize| ((key >> (128 - 5 * (p + 1))) & 31) as u32;
    let used = |key: u128| {
        (0..cells)
            .filter(|&p| slot_of(key, p) != 0)
            .fold(0u32, |m, p| m | 1 << p)
    };
    // fill_paths: the levels a path opens (keep..=top) and its points.
    let mut keep = vec![0u32; n];
    let mut top = vec![0u32; n];
    let mut points = vec![0u32; n];
    for i in 0..n {
        let key = sorted[i];
        top[i] = 2 * used(key).count_ones();
        let qu = (0..cells)
            .filter(|&p| slot_of(key, p) == u32::from(QU) + 1)
            .count();
        let length = used(key).count_ones() as usize + qu;
        if i == 0 {
            keep[i] = 0;
            points[i] = points_for_length(length);
            continue;
        }
        let previous = sorted[i - 1];
        points[i] = if key != previous {
            points_for_length(length)
        } else {
            0
        };
        keep[i] = match (0..cells).find(|&p| slot_of(key, p) != slot_of(previous, p)) {
            None => top[i] + 1,
            Some(q) => {
                let before = used(previous) & ((1u32 << q) - 1);
                let both = slot_of(previous, q) != 0 && slot_of(key, q) != 0;
                1 + 2 * before.count_ones() + u32::from(both)
            }
        };
    }
    // fill_tile_counts, fill_tile_scan, fill_index: per level, how many
    // nodes start before each path, and each node's first path.
    let mut count = vec![0u32; levels * (n + 1)];
    let mut starts: Vec<Vec<u32>> = vec![Vec::new(); levels];
    for l in 0..levels {
        for i in 0..n {
            let opens = keep[i] <= l as u32 && l as u32 <= top[i];
            count[l * (n + 1) + i + 1] = count[l * (n + 1) + i] + u32::from(opens);
            if opens {
                starts[l].push(i as u32);
            }
        }
    }
    let c = |l: usize, i: usize| count[l * (n + 1) + i] as usize;
    // fill_ends, top-down: a node ends at the next start on its level or
    // at its parent's end, whichever comes first.
    let mut ends: Vec<Vec<u32>> = vec![vec![n as u32 - 1]];
    for l in 1..levels {
        let mut level = Vec::with_capacity(starts[l].len());
        for (k, &s) in starts[l].iter().enumerate() {
            let parent_end = ends[l - 1][c(l - 1, s as usize + 1) - 1];
            let next = starts[l].get(k + 1).copied().unwrap_or(n as u32);
            level.push(if next <= parent_end {
                next - 1
            } else {
                parent_end
            });
        }
        ends.push(level);
    }
    // fill_bottom_up: bounds, record sizes, subtree sizes, headers.
    let mut bound: Vec<Vec<u32>> = starts.iter().map(|s| vec![0; s.len()]).collect();
    let mut size = bound.clone();
    let mut subtree = bound.clone();
    let mut header = bound.clone();
    let mut closed = vec![0u32; n + 1];
    for l in (0..levels).rev() {
        for k in 0..starts[l].len() {
            let (s, e) = (starts[l][k] as usize, ends[l][k] as usize);
            let children = if l + 1 < levels {
                c(l + 1, s)..c(l + 1, e + 1)
            } else {
                0..0
            };
            let mut sum_subtree = 0;
            for child in children.clone() {
                sum_subtree += subtree[l + 1][child];
            }
            if l % 2 == 0 {
                let grandchildren = if l + 2 < levels {
                    c(l + 2, e + 1) - c(l + 2, s)
                } else {
                    0
                };
                let mut own = 0;
                let mut i = s;
                while i <= e && top[i] == l as u32 {
                    own += points[i];
                    i += 1;
                }
                let mut b = own;
                for child in children.clone() {
                    b += bound[l + 1][child];
                }
                let count = children.len() as u32;
                let record = if count > 0 || l == 0 {
                    1 + count + 2 * grandchildren as u32
                } else {
                    0
                };
                bound[l][k] = b;
                size[l][k] = record;
                subtree[l][k] = record + sum_subtree;
                header[l][k] = own << 5 | count;
                if record > 0 {
                    closed[e] += record;
                }
            } else {
                // The choice's position: its start path's (l + 1) / 2-th used one.
                let position = (0..cells)
                    .filter(|&p| slot_of(sorted[s], p) != 0)
                    .nth(l / 2)
                    .expect("a used position");
                let mut letters = 0u32;
                let mut b = 0;
                for child in children.clone() {
                    let first = starts[l + 1][child] as usize;
                    letters |= 1 << (slot_of(sorted[first], position) - 1);
                    b = b.max(bound[l + 1][child]);
                }
                bound[l][k] = b;
                subtree[l][k] = sum_subtree;
                header[l][k] = (position as u32) << 26 | letters;
            }
        }
    }
    // The post-order: a sum node follows every node closed before it.
    let mut closed_before = vec![0u32; n + 1];
    for i in 0..n {
        closed_before[i + 1] = closed_before[i] + closed[i];
    }
    let total = closed_before[n] as usize;
    let offset =
        |l: usize, k: usize| closed_before[starts[l][k] as usize] + subtree[l][k] - size[l][k];
    // fill_write, top-down.
    let mut arena = vec![0u32; total];
    let mut record_at: Vec<Vec<u32>> = starts.iter().map(|s| vec![0; s.len()]).collect();
    for l in 0..levels {
        for k in 0..starts[l].len() {
            let s = starts[l][k] as usize;
            if l % 2 == 0 {
                if size[l][k] > 0 {
                    arena[offset(l, k) as usize] = header[l][k];
                }
                if l >= 2 {
                    let choice = c(l - 1, s + 1) - 1;
                    let choice_start = starts[l - 1][choice] as usize;
                    let pair = record_at[l - 1][choice] as usize + 1 + 2 * (k - c(l, choice_start));
                    arena[pair] = bound[l][k];
                    arena[pair + 1] = if size[l][k] > 0 {
                        offset(l, k)
                    } else {
                        u32::MAX
                    };
                }
            } else {
                let parent = c(l - 1, s + 1) - 1;
                let parent_start = starts[l - 1][parent] as usize;
                let rank = k - c(l, parent_start);
                let grand_before = c(l + 1, s) - c(l + 1, parent_start);
                let at = offset(l - 1, parent) as usize + 1 + rank + 2 * grand_before;
                record_at[l][k] = at as u32;
                arena[at] = header[l][k];
            }
        }
    }
    let nodes = starts.iter().map(Vec::len).sum();
    let root = offset(0, 0) as usize;
    (arena, root, bound[0][0], nodes)
}
