// Dev harnesses (2026-11-29), appended to domains/boggle/src/prove.rs to run:
// host_part (the GPU proof's host part alone), sample_positions (a class's place in a
// sample's order, estimated costs of a window), item_sizes (one class split at depth 7,
// every item walked on the CPU: its bound, subclasses and boards).

#[cfg(test)]
mod host_harness {
    use super::*;
    use crate::dict::WordList;
    use crate::handover::{ArenaPool, Handover, Split, FLUSH_WORDS};
    use std::sync::atomic::AtomicUsize;

    /// Dev harness (not committed): the GPU proof's host part alone.
    #[test]
    #[ignore]
    fn host_part() {
        let n: usize = std::env::var("HARNESS_N").map_or(12, |v| v.parse().unwrap());
        let seed: u64 = std::env::var("HARNESS_SEED").map_or(1, |v| v.parse().unwrap());
        let list = WordList::read(std::path::Path::new("../../data/boggle/enable2k.txt")).unwrap();
        let trie = Trie::build(&list);
        let settings = ProofSettings {
            shape: Shape::new(4, 4),
            target: 3500,
            buckets: Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz").unwrap(),
            max_seconds: None,
            certificate: false,
            sample: Some((n, seed)),
            share: None,
            switchover: Some(16000),
            order: SplitOrder::Cost,
        };
        let pool = ArenaPool::for_host();
        let items = AtomicUsize::new(0);
        let words = AtomicUsize::new(0);
        let sink = |h: Handover| {
            items.fetch_add(h.groups.iter().map(|g| g.items.len() / 7).sum::<usize>(), Ordering::Relaxed);
            words.fetch_add(h.tree.node_count(), Ordering::Relaxed);
            pool.give(h.tree.into_arena());
        };
        let split = Split { depth: 7, sink: &sink, pool: &pool, flush_words: FLUSH_WORDS };
        let t = Instant::now();
        let proof = prove_split(&trie, &settings, &|_, _| {}, Some(&split), None).unwrap();
        eprintln!(
            "HARNESS n={n} seed={seed}: {:.2} s, subclasses handed {}, tree words {}, classes {}, {}",
            t.elapsed().as_secs_f64(),
            items.load(Ordering::Relaxed),
            words.load(Ordering::Relaxed),
            proof.classes,
            pool.summary()
        );
    }
}

#[cfg(test)]
mod order_harness {
    use super::*;
    #[test]
    #[ignore]
    fn sample_positions() {
        let shape = Shape::new(4, 4);
        let buckets = Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz").unwrap();
        let mut classes: Vec<u64> = (0..top_classes(&shape, &buckets).unwrap().len() as u64).collect();
        let seed: u64 = std::env::var("HARNESS_SEED").map_or(3, |v| v.parse().unwrap());
        let mut rng = frontier_core::rng::SplitMix64::new(seed);
        for i in (1..classes.len()).rev() {
            classes.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let want: Vec<u64> = std::env::var("HARNESS_CLASSES").unwrap().split(',').map(|s| s.parse().unwrap()).collect();
        for w in want {
            eprintln!("POS class {w} at {:?}", classes.iter().position(|&c| c == w));
        }
        let all = top_classes(&shape, &buckets).unwrap();
        let list = crate::dict::WordList::read(std::path::Path::new("../../data/boggle/enable2k.txt")).unwrap();
        let trie = Trie::build(&list);
        let settings = ProofSettings { shape: shape.clone(), target: 3500, buckets, max_seconds: None, certificate: false,
            sample: None, share: None, switchover: Some(16000), order: SplitOrder::Cost };
        let bounder = Bounder::new(&trie, &shape).unwrap();
        let from: usize = std::env::var("HARNESS_FROM").map_or(400, |v| v.parse().unwrap());
        let to: usize = std::env::var("HARNESS_TO").map_or(640, |v| v.parse().unwrap());
        let mut est: Vec<(u32, usize, u64)> = (from..to).map(|p| (estimated_cost(&bounder, &settings, &all[classes[p] as usize]), p, classes[p])).collect();
        est.sort_unstable_by(|a, b| b.cmp(a));
        for e in est.iter().take(12) { eprintln!("POS est {} at {} class {}", e.0, e.1, e.2); }
    }
}

#[cfg(test)]
mod item_harness {
    use super::*;
    use crate::dict::WordList;
    use crate::handover::{ArenaPool, Handover, Split, FLUSH_WORDS};

    /// Dev harness (not committed): one class split at depth 7, every item
    /// walked on the CPU: its bound at the split and its subclasses.
    #[test]
    #[ignore]
    fn item_sizes() {
        let class: usize = std::env::var("HARNESS_CLASS").unwrap().parse().unwrap();
        let list = WordList::read(std::path::Path::new("../../data/boggle/enable2k.txt")).unwrap();
        let trie = Trie::build(&list);
        let shape = Shape::new(4, 4);
        let buckets = Buckets::parse("aeijou bcdfgmpqvwxz hklnrsty, corner: aeiosuy bcdfghjklmnpqrtvwxz").unwrap();
        let total = top_classes(&shape, &buckets).unwrap().len();
        let settings = ProofSettings {
            shape: shape.clone(),
            target: 3500,
            buckets,
            max_seconds: None,
            certificate: false,
            sample: None,
            share: Some((class, total)),
            switchover: Some(16000),
            order: SplitOrder::Cost,
        };
        let depth = 7;
        let handed = std::sync::Mutex::new(Vec::new());
        let sink = |h: Handover| handed.lock().unwrap().push(h);
        let pool = ArenaPool::default();
        let split = Split { depth, sink: &sink, pool: &pool, flush_words: FLUSH_WORDS };
        let t = Instant::now();
        let top = prove_split(&trie, &settings, &|_, _| {}, Some(&split), None).unwrap();
        eprintln!("ITEMS class {class}: host part {:.2} s, {} subclasses above", t.elapsed().as_secs_f64(), top.subclasses);
        let order = split_order(&shape);
        let builder = OrderlyBuilder::new(&trie, &shape, &order).unwrap();
        let mut worker = Worker::new(&builder, &trie, 16);
        let stop = AtomicBool::new(false);
        let mut sizes: Vec<(u64, u32, f64)> = Vec::new();
        let mut scored: Vec<u64> = Vec::new();
        let t = Instant::now();
        for handover in handed.into_inner().unwrap() {
            worker.tree = handover.tree;
            worker.builder.reorder(&handover.order);
            for group in &handover.groups {
                worker.tree.reroot(group.root as usize, group.bound);
                for letters in group.items.chunks_exact(depth) {
                    let bound = worker.bound.bound_of(&worker.tree, letters);
                    let mut below = ClassOutcome::default();
                    let (mut pieces, mut items) = (Vec::new(), Vec::new());
                    let mut walk = Below {
                        settings: &settings, started: Instant::now(), stop: &stop, split: None,
                        outcome: &mut below, pieces: &mut pieces, items: &mut items,
                        shipment: None, forced: 0, parts: None,
                    };
                    let s = Instant::now();
                    assert!(walk.walk(&mut worker, &handover.masks, letters));
                    sizes.push((below.subclasses, bound, s.elapsed().as_secs_f64()));
                    scored.push(below.boards_scored);
                }
            }
        }
        let n = sizes.len();
        let sum: u64 = sizes.iter().map(|s| s.0).sum();
        sizes.sort_by(|a, b| b.0.cmp(&a.0));
        scored.sort_unstable_by(|a, b| b.cmp(a));
        eprintln!("ITEMS boards scored {} (largest item {:?})", scored.iter().sum::<u64>(), &scored[..5]);
        eprintln!("ITEMS {n} items, {sum} subclasses below, CPU walk {:.2} s", t.elapsed().as_secs_f64());
        for (i, s) in sizes.iter().take(15).enumerate() {
            eprintln!("ITEMS top {i}: {} subclasses, bound {}, {:.3} s", s.0, s.1, s.2);
        }
        // Bound threshold vs share of subclasses.
        for th in [6000u32, 8000, 10000, 12000, 16000, 20000] {
            let (c, w): (usize, u64) = sizes.iter().filter(|s| s.1 >= th).fold((0, 0), |a, s| (a.0 + 1, a.1 + s.0));
            eprintln!("ITEMS bound >= {th}: {c} items, {w} subclasses");
        }
    }
}
