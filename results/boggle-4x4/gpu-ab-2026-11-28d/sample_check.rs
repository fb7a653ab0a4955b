// Temporary harness (not in the crate): appended to domains/boggle/src/prove.rs and run
// from domains/boggle with `cargo test --release --lib sample_check -- --ignored --nocapture`.
#[cfg(test)]
mod sample_check {
    use super::*;

    #[test]
    #[ignore]
    fn estimate_samples() {
        let (trie, _) = Trie::load(std::path::Path::new("../../data/boggle/enable2k.txt")).unwrap();
        let shape = Shape::new(4, 4);
        let buckets =
            Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz")
                .unwrap();
        let classes = top_classes(&shape, &buckets).unwrap();
        eprintln!("{} classes", classes.len());
        let estimate = |indices: &[usize]| -> Vec<u32> {
            indices
                .par_iter()
                .map_init(
                    || Bounder::new(&trie, &shape).unwrap(),
                    |b, &i| {
                        let cells = buckets.class_masks(&shape, &classes[i]);
                        b.max_no_mark_within(&BoardClass { cells }, ESTIMATE_LETTERS)
                    },
                )
                .collect()
        };
        let sample = |count: usize, seed: u64| -> Vec<usize> {
            let mut idx: Vec<usize> = (0..classes.len()).collect();
            let mut rng = frontier_core::rng::SplitMix64::new(seed);
            for i in (1..idx.len()).rev() {
                idx.swap(i, rng.below(i as u64 + 1) as usize);
            }
            idx.truncate(count);
            idx
        };
        // The slice: measured CPU seconds.
        let text = std::fs::read_to_string("../../results/boggle-4x4/share-1-of-100-cost.txt").unwrap();
        let mut slice: Vec<(usize, f64)> = text
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                (w.next()? == "class").then_some(())?;
                Some((w.next()?.parse().ok()?, w.next()?.parse().ok()?))
            })
            .collect();
        slice.sort_by_key(|s| s.0);
        let slice_idx: Vec<usize> = slice.iter().map(|s| s.0).collect();
        let t = std::time::Instant::now();
        let slice_est = estimate(&slice_idx);
        eprintln!("slice {} classes estimated in {:.1} s", slice.len(), t.elapsed().as_secs_f64());
        // Bins by estimate quantile: mean seconds per bin.
        let mut pairs: Vec<(u32, f64)> = slice_est.iter().copied().zip(slice.iter().map(|s| s.1)).collect();
        pairs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.partial_cmp(&b.1).unwrap()));
        let bins = 40;
        let per = pairs.len() / bins;
        let mut edges = Vec::new();
        let mut means = Vec::new();
        for k in 0..bins {
            let part = &pairs[k * per..if k + 1 == bins { pairs.len() } else { (k + 1) * per }];
            edges.push(part.last().unwrap().0);
            means.push(part.iter().map(|p| p.1).sum::<f64>() / part.len() as f64);
        }
        let predict = |e: u32| -> f64 {
            let k = edges.iter().position(|&edge| e <= edge).unwrap_or(bins - 1);
            means[k]
        };
        let slice_mean = slice.iter().map(|s| s.1).sum::<f64>() / slice.len() as f64;
        let slice_pred = slice_est.iter().map(|&e| predict(e)).sum::<f64>() / slice.len() as f64;
        eprintln!("slice: measured mean {slice_mean:.3} s, predicted {slice_pred:.3}");
        for (count, seed) in [(1024, 1), (2048, 2), (1024, 2), (1024, 3), (256, 3), (256, 4), (256, 5), (20000, 777)] {
            let idx = sample(count, seed);
            let est = estimate(&idx);
            let pred: Vec<f64> = est.iter().map(|&e| predict(e)).collect();
            let mean = pred.iter().sum::<f64>() / pred.len() as f64;
            let mut sorted = est.clone();
            sorted.sort_unstable();
            let in_top_bin = est.iter().filter(|&&e| e > edges[bins - 2]).count();
            eprintln!(
                "sample {count} seed {seed}: predicted mean {mean:.3} s ({:.2} of the slice's), estimate median {} p99 {} max {}, in the top bin (2.5%) {in_top_bin}",
                mean / slice_mean,
                sorted[sorted.len() / 2],
                sorted[sorted.len() * 99 / 100],
                sorted[sorted.len() - 1]
            );
        }
        eprintln!("top bin mean {:.2} s, edges top {:?}", means[bins - 1], &edges[bins - 3..]);
    }
}
