//! Pancake sorting against independent answers: breadth-first search over
//! every stack of up to 9 pancakes, HDA* and the GPU against A*.

use std::collections::HashMap;

use frontier_core::rng::SplitMix64;
use frontier_core::{astar, Domain, Heuristic, PackedState, SearchOptions};
use frontier_pancake::{Gap, Pancake, PancakeError, Stack};

/// Distance to the sorted stack of every stack of `n` pancakes, by
/// breadth-first search from the goal (a flip is its own inverse). Stacks
/// are keyed as base-16 numbers to keep the table small.
fn all_distances(n: usize) -> HashMap<u64, u8> {
    let key = |s: &[u8]| s.iter().fold(0u64, |k, &p| k << 4 | u64::from(p));
    let goal: Vec<u8> = (1..=n as u8).collect();
    let mut dist = HashMap::new();
    dist.insert(key(&goal), 0u8);
    let mut layer = vec![goal];
    let mut d = 0u8;
    while !layer.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for s in &layer {
            for k in 2..=n {
                let mut t = s.clone();
                t[..k].reverse();
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key(&t)) {
                    e.insert(d);
                    next.push(t);
                }
            }
        }
        layer = next;
    }
    dist
}

#[test]
fn astar_with_the_gap_heuristic_equals_breadth_first_search_up_to_9_pancakes() {
    let mut rng = SplitMix64::new(9);
    for n in 1..=9 {
        let dist = all_distances(n);
        let factorial: usize = (1..=n).product();
        assert_eq!(dist.len(), factorial, "every stack of {n} is reachable");
        for _ in 0..40 {
            let stack = Pancake::random(n, &mut rng).unwrap();
            let key = stack
                .start()
                .0
                .iter()
                .fold(0u64, |k, &p| k << 4 | u64::from(p));
            let outcome = astar(&stack, &Gap, &SearchOptions::default()).expect("valid limits");
            let solution = outcome.solution().expect("every stack can be sorted");
            assert_eq!(solution.cost, u32::from(dist[&key]), "{}", stack.text());
            let config = frontier_core::IdaConfig {
                threads: 2,
                roots_per_thread: 4,
                ..frontier_core::IdaConfig::default()
            };
            let ida = frontier_core::ida(&stack, &Gap, &config, &SearchOptions::default());
            let by_ida = ida.unwrap().solution().map(|s| s.cost);
            assert_eq!(by_ida, Some(solution.cost), "IDA* on {}", stack.text());
            let flips: Vec<u8> = solution.moves.clone();
            let end = stack.replay(&flips).unwrap();
            assert!(stack.is_goal(&end), "{}: the flips sort it", stack.text());
            assert!(Gap.h(&stack, &stack.start()) <= solution.cost);
        }
    }
}

/// A stack's dual has the stack's distance (breadth-first search), the dual
/// of the dual is the stack, and an optimal sort of the dual, carried back,
/// sorts the stack in as many flips.
#[test]
fn a_stacks_dual_is_as_far_from_sorted_and_its_flips_reversed_sort_the_stack() {
    use frontier_core::search::dual::DualOf;
    let key = |s: &Stack| s.0.iter().fold(0u64, |k, &p| k << 4 | u64::from(p));
    let mut rng = SplitMix64::new(45);
    for n in 2..=8 {
        let dist = all_distances(n);
        for _ in 0..30 {
            let stack = Pancake::random(n, &mut rng).unwrap();
            let dual = stack.dual();
            assert_eq!(
                dist[&key(&dual.instance().start())],
                dist[&key(&stack.start())]
            );
            assert_eq!(dual.instance().dual().instance(), &stack);
            let outcome = astar(dual.instance(), &Gap, &SearchOptions::default()).unwrap();
            let solution = outcome.solution().expect("every stack can be sorted");
            let back = dual.solution_back(&stack, solution).expect("maps back");
            assert_eq!(back.cost, solution.cost);
            let end = stack.replay(&back.moves).unwrap();
            assert!(stack.is_goal(&end), "{}", stack.text());
            assert_eq!(back.states.len(), back.moves.len() + 1);
            assert_eq!(dual.slack(), 0);
        }
    }
}

/// The estimate between two stacks never exceeds their distance (the
/// distance from `a` to `b` is that of `a` renamed by places in `b` to the
/// sorted stack), and toward the sorted stack it is the gap heuristic.
#[test]
fn the_estimate_between_two_stacks_is_a_lower_bound_and_the_gap_toward_the_goal() {
    let n = 7;
    let dist = all_distances(n);
    let key = |s: &[u8]| s.iter().fold(0u64, |k, &p| k << 4 | u64::from(p));
    let mut rng = SplitMix64::new(17);
    let sorted = Stack((1..=n as u8).collect());
    let mut tight = 0;
    for _ in 0..300 {
        let a = Pancake::random(n, &mut rng).unwrap();
        let b = Pancake::random(n, &mut rng).unwrap();
        let (sa, sb) = (a.start(), b.start());
        let mut place = [0u8; 16];
        for (i, &p) in sb.0.iter().enumerate() {
            place[usize::from(p)] = i as u8 + 1;
        }
        let renamed: Vec<u8> = sa.0.iter().map(|&p| place[usize::from(p)]).collect();
        let distance = u32::from(dist[&key(&renamed)]);
        let estimate = a.estimate_between(&sa, &sb).unwrap();
        assert!(estimate <= distance, "{:?} to {:?}", sa.0, sb.0);
        tight += usize::from(estimate == distance);
        assert_eq!(a.estimate_between(&sa, &sorted), Some(Gap.h(&a, &sa)));
    }
    assert!(tight > 50, "only {tight} of 300 estimates were exact");
    let short = Stack(vec![1, 2]);
    assert_eq!(
        Pancake::random(n, &mut rng)
            .unwrap()
            .estimate_between(&sorted, &short),
        None
    );
}

#[test]
fn the_incremental_gap_equals_the_full_count_after_every_flip() {
    let mut rng = SplitMix64::new(3);
    let mut edges = Vec::new();
    for n in [1usize, 2, 5, 20, 60] {
        let stack = Pancake::random(n, &mut rng).unwrap();
        let mut at = stack.start();
        for _ in 0..200 {
            let h = Gap.h(&stack, &at);
            edges.clear();
            stack.expand(&at, &mut edges);
            for edge in &edges {
                let full = Gap.h(&stack, &edge.state);
                assert_eq!(Gap.h_child(&stack, &at, h, &edge.state), full);
                assert!(h <= full + 1, "consistent");
            }
            if edges.is_empty() {
                break;
            }
            at = edges[rng.below(edges.len() as u64) as usize].state.clone();
        }
    }
}

#[test]
fn hda_matches_astar_under_every_partition() {
    use frontier_core::{hda, HdaConfig, StdHasher};
    let mut rng = SplitMix64::new(12);
    for _ in 0..6 {
        let stack = Pancake::random(14, &mut rng).unwrap();
        let want = astar(&stack, &Gap, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .unwrap()
            .cost;
        let config = HdaConfig {
            threads: 3,
            ..HdaConfig::default()
        };
        let by_hash = hda(&stack, &Gap, &StdHasher, &config, &SearchOptions::default())
            .expect("a valid HDA* config");
        assert_eq!(by_hash.solution().map(|s| s.cost), Some(want));
        for name in ["zobrist", "bottom"] {
            let azh = frontier_pancake::projection(name, stack.len(), 7).unwrap();
            let outcome = hda(&stack, &Gap, &azh, &config, &SearchOptions::default())
                .expect("a valid HDA* config");
            assert_eq!(outcome.solution().map(|s| s.cost), Some(want), "{name}");
        }
    }
    assert!(frontier_pancake::projection("nope", 5, 1).is_none());
}

#[test]
fn partial_expansion_a_star_equals_full_expansion_hda_on_random_22_stacks() {
    // A* expands partially here (21 successors, above PARTIAL_FROM);
    // HDA* stores every child: two independent executors, one optimum.
    use frontier_core::{hda, HdaConfig, StdHasher};
    let mut rng = SplitMix64::new(22);
    for _ in 0..4 {
        let stack = Pancake::random(22, &mut rng).unwrap();
        let a = astar(&stack, &Gap, &SearchOptions::default()).expect("valid limits");
        let solution = a.solution().unwrap();
        assert!(stack.is_goal(&stack.replay(&solution.moves).unwrap()));
        let config = HdaConfig {
            threads: 2,
            ..HdaConfig::default()
        };
        let h = hda(&stack, &Gap, &StdHasher, &config, &SearchOptions::default())
            .expect("a valid HDA* config");
        assert_eq!(
            h.solution().map(|s| s.cost),
            Some(solution.cost),
            "{}",
            stack.text()
        );
        assert!(solution.cost >= Gap.h(&stack, &stack.start()));
    }
}

#[test]
fn the_codec_round_trips_and_rejects_what_pack_cannot_produce() {
    let mut rng = SplitMix64::new(5);
    for n in [1usize, 3, 4, 5, 17, 60, 128] {
        let stack = Pancake::random(n, &mut rng).unwrap();
        let mut words = vec![0u32; stack.packed_words()];
        stack.pack(&stack.start(), &mut words);
        assert_eq!(stack.unpack(&words).unwrap(), stack.start());
        let mut bad = words.clone();
        bad[0] ^= 0xFF; // the top pancake's size is no longer in 1..=n, or repeats
        assert!(stack.unpack(&bad).is_err() || n == 1 && bad[0] <= 1);
        assert!(stack.unpack(&words[..words.len() - 1]).is_err());
    }
    let three = Pancake::parse("2 3 1").unwrap();
    assert!(
        three.unpack(&[0x0001_0203 | 0x0500_0000]).is_err(),
        "a byte past the stack"
    );
    assert_eq!(three.unpack(&[0x0001_0302]).unwrap(), Stack(vec![2, 3, 1]));
}

#[test]
fn bad_stacks_are_refused_with_the_reason() {
    assert_eq!(
        Pancake::parse("1 2 x").unwrap_err(),
        PancakeError::NotASize("x".into())
    );
    let twice = Pancake::parse("1 2 2").unwrap_err().to_string();
    assert!(twice.contains("2 appears twice"), "{twice}");
    let range = Pancake::parse("1 5 2").unwrap_err().to_string();
    assert!(range.contains("5 is out of range"), "{range}");
    assert_eq!(Pancake::parse("  ").unwrap_err(), PancakeError::Height(0));
    assert_eq!(Pancake::parse("3,1,2").unwrap().text(), "3 1 2");
    assert_eq!(
        Pancake::parse("3 1 4 2").unwrap().replay(&[1]),
        None,
        "a flip of one is not a move"
    );
}

#[test]
fn gpu_gastar_and_multi_gpu_equal_astar_on_random_20_stacks() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_gastar_and_multi_gpu_equal_astar_on_random_20_stacks",
    ) {
        return;
    }
    use frontier_core::search::gpu::{
        device_owners, gastar, multi_gpu, GastarConfig, MultiGpuConfig, PackedHasher,
    };
    use frontier_core::Partitioner;
    let mut rng = SplitMix64::new(20);
    let stacks: Vec<Pancake> = (0..10)
        .map(|_| Pancake::random(20, &mut rng).unwrap())
        .collect();
    let config = GastarConfig {
        heaps: 4096,
        memory_fraction: 0.2,
        ..GastarConfig::default()
    };
    let azh = frontier_pancake::projection("bottom", 20, 7).unwrap();
    let states: Vec<Stack> = stacks.iter().map(|s| s.start()).collect();
    let owners = device_owners(0, &stacks[0], &Gap, &azh, &states, 3).unwrap();
    let cpu: Vec<u32> = states.iter().map(|s| azh.owner(&stacks[0], s, 3)).collect();
    assert_eq!(owners, cpu, "the GPU partition is the CPU one");
    for stack in &stacks {
        let want = astar(stack, &Gap, &SearchOptions::default())
            .expect("valid limits")
            .solution()
            .unwrap()
            .cost;
        let one = gastar(stack, &Gap, &config, &SearchOptions::default()).unwrap();
        let ida_config = frontier_core::search::gpu::GpuIdaConfig {
            roots: 256,
            threads: 1024,
            memory_fraction: 0.1,
            ..Default::default()
        };
        let ida = frontier_core::search::gpu::gpu_ida(
            stack,
            &Gap,
            &ida_config,
            &SearchOptions::default(),
        );
        assert_eq!(
            ida.unwrap().solution().map(|s| s.cost),
            Some(want),
            "GPU IDA* on {}",
            stack.text()
        );
        assert_eq!(
            one.solution().map(|s| s.cost),
            Some(want),
            "{}",
            stack.text()
        );
        let shards = MultiGpuConfig {
            devices: vec![0, 0],
            heaps: 4096,
            memory_fraction: 0.1,
            ..MultiGpuConfig::default()
        };
        let hashed = multi_gpu(
            stack,
            &Gap,
            &PackedHasher,
            &shards,
            &SearchOptions::default(),
        )
        .unwrap();
        assert_eq!(hashed.solution().map(|s| s.cost), Some(want));
        let by_bottom = multi_gpu(stack, &Gap, &azh, &shards, &SearchOptions::default()).unwrap();
        assert_eq!(by_bottom.solution().map(|s| s.cost), Some(want));
    }
}

#[test]
fn operator_selection_splits_the_successors_by_their_rise_in_f() {
    let mut rng = SplitMix64::new(31);
    let mut all = Vec::new();
    let mut some = Vec::new();
    for n in [2usize, 3, 9, 30, 60] {
        let stack = Pancake::random(n, &mut rng).unwrap();
        let mut at = stack.start();
        for _ in 0..50 {
            let h = Gap.h(&stack, &at);
            all.clear();
            stack.expand(&at, &mut all);
            let mut seen = 0;
            for rise in 0..=2 {
                some.clear();
                let next = Gap
                    .expand_rising_by(&stack, &at, h, rise, &mut some)
                    .expect("the gap heuristic selects operators");
                for edge in &some {
                    assert_eq!(edge.cost + Gap.h(&stack, &edge.state) - h, rise);
                    assert!(all.iter().any(|e| e.state == edge.state && e.mv == edge.mv));
                }
                seen += some.len();
                let above = all
                    .iter()
                    .map(|e| e.cost + Gap.h(&stack, &e.state) - h)
                    .filter(|&r| r > rise)
                    .min();
                assert_eq!(next, above, "the next rise");
            }
            assert_eq!(seen, all.len(), "every successor on exactly one layer");
            at = all[rng.below(all.len() as u64) as usize].state.clone();
        }
    }
}

/// In-place flips search the same tree as `expand`: equal cost and equal
/// node counts on one thread, on random stacks, and the gap bound after
/// every flip of a random walk equals `h`.
#[test]
fn in_place_ida_equals_ida_and_its_bounds_equal_h() {
    use frontier_core::search::ida::{ida, ida_in_place, IdaConfig};
    use frontier_core::{InPlace, InPlaceHeuristic};
    let mut rng = SplitMix64::new(91);
    for n in [5, 8, 11, 14] {
        for _ in 0..4 {
            let stack = Pancake::random(n, &mut rng).unwrap();
            let mut state = stack.start();
            let mut bound = Gap.root(&stack, &state, &mut ());
            let (mut last, mut ops) = (None, Vec::new());
            for _ in 0..100 {
                ops.clear();
                stack.ops(&state, last, &mut ops);
                let k = ops[rng.below(ops.len() as u64) as usize];
                stack.apply(&mut state, k);
                bound = Gap.after(&stack, &state, k, &(), bound, &mut ());
                assert_eq!(bound, Gap.h(&stack, &state));
                last = Some(k);
            }
            let config = IdaConfig {
                threads: 1,
                ..IdaConfig::default()
            };
            let options = SearchOptions::default();
            let plain = ida(&stack, &Gap, &config, &options).unwrap();
            let fast = ida_in_place(&stack, &Gap, &config, &options).unwrap();
            assert_eq!(
                fast.solution().map(|s| s.cost),
                plain.solution().map(|s| s.cost)
            );
            assert_eq!(fast.stats.expanded, plain.stats.expanded);
            assert_eq!(fast.stats.generated, plain.stats.generated);
            let moves = &fast.solution().unwrap().moves;
            assert!(stack.replay(moves).is_some_and(|end| stack.is_goal(&end)));
        }
    }
}

/// Move pruning (flip sequences that equal smaller ones, up to 3 to 6
/// flips) keeps the optimum that breadth-first search gives on stacks of up
/// to 8, for 1 and 2 threads, and prunes nodes.
#[test]
fn move_pruning_keeps_breadth_first_optima_and_prunes() {
    use frontier_core::search::ida::{ida_in_place, IdaConfig};
    let mut rng = SplitMix64::new(12);
    let (mut plain_total, mut pruned_total) = (0, 0);
    for n in [4, 6, 8] {
        let dist = all_distances(n);
        for _ in 0..12 {
            let stack = Pancake::random(n, &mut rng).unwrap();
            let key = stack
                .start()
                .0
                .iter()
                .fold(0u64, |k, &p| k << 4 | u64::from(p));
            let options = SearchOptions::default();
            let one = IdaConfig {
                threads: 1,
                roots_per_thread: 1,
                ..IdaConfig::default()
            };
            let plain = ida_in_place(&stack, &Gap, &one, &options).unwrap();
            for depth in [3, 4, 6] {
                for threads in [1, 2] {
                    let config = IdaConfig {
                        threads,
                        roots_per_thread: 4,
                        move_pruning: depth,
                        ..IdaConfig::default()
                    };
                    let outcome = ida_in_place(&stack, &Gap, &config, &options).unwrap();
                    let solution = outcome.solution().expect("every stack sorts");
                    assert_eq!(solution.cost, u32::from(dist[&key]), "{}", stack.text());
                    let end = stack.replay(&solution.moves).unwrap();
                    assert!(stack.is_goal(&end));
                }
            }
            let config = IdaConfig {
                move_pruning: 6,
                ..one
            };
            plain_total += plain.stats.generated;
            pruned_total += ida_in_place(&stack, &Gap, &config, &options)
                .unwrap()
                .stats
                .generated;
        }
    }
    assert!(
        pruned_total < plain_total,
        "{pruned_total} of {plain_total}"
    );
}

/// GPU IDA* with move pruning searches the tree CPU IDA* with move pruning
/// searches: over the same split of the start, every completed iteration
/// expands the same nodes on both, and both find the optimum (random 16-
/// stacks, depth 5). Skipped without a GPU.
#[test]
fn gpu_ida_with_move_pruning_equals_cpu_iteration_by_iteration() {
    if !frontier_core::gpu::usable_or_skip(
        "gpu_ida_with_move_pruning_equals_cpu_iteration_by_iteration",
    ) {
        return;
    }
    use frontier_core::search::gpu::{gpu_ida_in_place, GpuIdaConfig};
    use frontier_core::search::ida::{ida_in_place, IdaConfig};
    let mut rng = SplitMix64::new(16);
    for _ in 0..4 {
        let stack = Pancake::random(16, &mut rng).unwrap();
        let options = SearchOptions::default();
        for depth in [0, 5] {
            let cpu = IdaConfig {
                threads: 2,
                roots_per_thread: 256,
                move_pruning: depth,
                ..IdaConfig::default()
            };
            let gpu = GpuIdaConfig {
                roots: 512,
                move_pruning: depth,
                memory_fraction: 0.2,
                ..GpuIdaConfig::default()
            };
            let on_cpu = ida_in_place(&stack, &Gap, &cpu, &options).unwrap();
            let on_gpu = gpu_ida_in_place(&stack, &Gap, &gpu, &options).unwrap();
            assert_eq!(
                on_gpu.solution().map(|s| s.cost),
                on_cpu.solution().map(|s| s.cost),
                "{}",
                stack.text()
            );
            assert_eq!(
                on_gpu.stats.iterations,
                on_cpu.stats.iterations,
                "{}",
                stack.text()
            );
            let moves = &on_gpu.solution().unwrap().moves;
            assert!(stack.replay(moves).is_some_and(|end| stack.is_goal(&end)));
        }
    }
}

/// Weighted, greedy, anytime and beam searches of stacks of 9 against the
/// breadth-first distances: every bound holds and anytime ends at the
/// optimum, on A* and on HDA* with three threads.
#[test]
fn orders_beyond_astar_keep_their_bounds_against_breadth_first_distances() {
    use frontier_core::search::{Order, Weight};
    use frontier_core::{hda, HdaConfig, StdHasher};
    let dist = all_distances(9);
    let mut rng = SplitMix64::new(21);
    let orders = [
        ("1.5", false, None),
        ("3", false, None),
        ("greedy", false, None),
        ("greedy", true, None),
        ("1", false, Some(8)),
    ];
    for _ in 0..30 {
        let stack = Pancake::random(9, &mut rng).unwrap();
        let key = stack
            .start()
            .0
            .iter()
            .fold(0u64, |k, &p| k << 4 | u64::from(p));
        let optimum = u32::from(dist[&key]);
        for (w, anytime, beam) in orders {
            let weight = Weight::parse(w).unwrap();
            let options = SearchOptions {
                order: Order {
                    weight,
                    anytime,
                    beam,
                    shortcut: None,
                    window: None,
                },
                ..SearchOptions::default()
            };
            let config = HdaConfig {
                threads: 3,
                ..HdaConfig::default()
            };
            let runs = [
                astar(&stack, &Gap, &options).unwrap(),
                hda(&stack, &Gap, &StdHasher, &config, &options).unwrap(),
            ];
            for outcome in runs {
                let what = format!("{} w={w} anytime={anytime} beam={beam:?}", stack.text());
                let solution = outcome.solution().unwrap_or_else(|| panic!("{what}"));
                let lower = outcome.stats.lower_bound.unwrap();
                assert!(lower <= optimum && optimum <= solution.cost, "{what}");
                if beam.is_none() && weight != Weight::Greedy {
                    assert!(f64::from(solution.cost) <= weight.value() * f64::from(optimum));
                }
                if anytime {
                    assert_eq!((lower, solution.cost), (optimum, optimum), "{what}");
                }
                assert!(
                    stack.is_goal(&stack.replay(&solution.moves).unwrap()),
                    "{what}"
                );
            }
        }
    }
}

/// The GPU beam on random 10-stacks against A*'s optimum: the optimum lies
/// between its lower bound and its cost, its path (replayed by the
/// executor) sorts the stack, and
/// a beam wide enough for every layer (10! states) is breadth-first
/// search, which is optimal here (every flip costs 1).
#[test]
fn the_gpu_beam_bounds_astars_optimum_on_random_10_stacks() {
    if !frontier_core::gpu::usable_or_skip("the_gpu_beam_bounds_astars_optimum_on_random_10_stacks")
    {
        return;
    }
    use frontier_core::search::gpu::gpu_beam;
    use frontier_core::search::{Order, Weight};
    let mut rng = SplitMix64::new(16);
    for _ in 0..8 {
        let stack = Pancake::random(10, &mut rng).unwrap();
        let optimum = astar(&stack, &Gap, &SearchOptions::default())
            .unwrap()
            .solution()
            .unwrap()
            .cost;
        for (width, weight) in [(1u64, "1"), (64, "1"), (4096, "1.5"), (1 << 22, "1")] {
            let options = SearchOptions {
                order: Order {
                    beam: Some(width),
                    shortcut: None,
                    window: None,
                    weight: Weight::parse(weight).unwrap(),
                    anytime: false,
                },
                ..SearchOptions::default()
            };
            let outcome = gpu_beam(&stack, &Gap, 0, &options).unwrap();
            let solution = outcome.solution().expect("a beam sorts every stack");
            let lower = outcome.stats.lower_bound.unwrap();
            let what = format!("{} beam {width} w {weight}", stack.text());
            assert!(
                lower <= optimum && optimum <= solution.cost,
                "{what}: {lower} {optimum}"
            );
            assert!(
                stack.is_goal(&stack.replay(&solution.moves).unwrap()),
                "{what}"
            );
            if width == 1 << 22 {
                assert_eq!(solution.cost, optimum, "{what}");
            }
        }
    }
}

/// Eight random 14-stacks drawn with `seed` and a GA* session for them
/// (a fifth of the device's memory, so tests can share it).
fn gpu_stacks_and_session(seed: u64) -> (Vec<Pancake>, frontier_core::search::gpu::GastarSession) {
    use frontier_core::search::gpu::{GastarConfig, GastarSession};
    let mut rng = SplitMix64::new(seed);
    let stacks: Vec<Pancake> = (0..8)
        .map(|_| Pancake::random(14, &mut rng).unwrap())
        .collect();
    let config = GastarConfig {
        heaps: 4096,
        memory_fraction: 0.2,
        ..GastarConfig::default()
    };
    let session = GastarSession::new(&stacks[0], &Gap, &config).unwrap();
    (stacks, session)
}

/// A*'s optimum, what the GPU's orders are checked against.
fn optimum(stack: &Pancake) -> u32 {
    astar(stack, &Gap, &SearchOptions::default())
        .unwrap()
        .solution()
        .unwrap()
        .cost
}

/// What every weighted or greedy GPU row must show against A*'s `optimum`:
/// its lower bound and cost bracket the optimum, a weight W keeps the cost
/// within W times it (greedy promises no factor), and the path sorts the
/// stack. Returns the cost and the lower bound.
fn assert_within_weight(
    stack: &Pancake,
    outcome: &frontier_core::search::DomainOutcome<Pancake>,
    optimum: u32,
    weight: frontier_core::search::Weight,
    what: &str,
) -> (u32, u32) {
    let solution = outcome.solution().expect("GA* sorts every stack");
    let lower = outcome.stats.lower_bound.unwrap();
    assert!(
        lower <= optimum && optimum <= solution.cost,
        "{what}: {lower}"
    );
    if weight != frontier_core::search::Weight::Greedy {
        assert!(
            f64::from(solution.cost) <= weight.value() * f64::from(optimum),
            "{what}"
        );
    }
    assert!(
        stack.is_goal(&stack.replay(&solution.moves).unwrap()),
        "{what}"
    );
    (solution.cost, lower)
}

/// Weighted and greedy GA* on the GPU against A* on random 14-stacks: costs
/// within w of the optimum, lower bounds at or below it, paths that sort.
#[test]
fn weighted_gpu_gastar_keeps_its_bounds_on_random_14_stacks() {
    if !frontier_core::gpu::usable_or_skip(
        "weighted_gpu_gastar_keeps_its_bounds_on_random_14_stacks",
    ) {
        return;
    }
    use frontier_core::search::{Order, Weight};
    let (stacks, mut session) = gpu_stacks_and_session(14);
    for stack in &stacks {
        let optimum = optimum(stack);
        for w in ["1.5", "2", "greedy"] {
            let weight = Weight::parse(w).unwrap();
            let options = SearchOptions {
                order: Order {
                    weight,
                    ..Order::default()
                },
                ..SearchOptions::default()
            };
            let outcome = session.solve(stack, &Gap, &options).unwrap();
            let what = format!("{} w {w}", stack.text());
            assert_within_weight(stack, &outcome, optimum, weight, &what);
        }
        // A*'s order on the same session still proves the optimum.
        let plain = session
            .solve(stack, &Gap, &SearchOptions::default())
            .unwrap();
        assert_eq!(plain.solution().map(|s| s.cost), Some(optimum));
    }
}

/// Weighted, greedy and anytime GA* over two shards (`multi-gpu` on one
/// device twice: the same exchange of children as on two GPUs) against A*
/// on random 14-stacks: costs within w of the optimum, lower bounds at or
/// below it (children still in flight between shards at the end count),
/// anytime ends at the optimum, paths sort.
#[test]
fn weighted_and_anytime_multi_gpu_keep_their_bounds_on_random_14_stacks() {
    if !frontier_core::gpu::usable_or_skip(
        "weighted_and_anytime_multi_gpu_keep_their_bounds_on_random_14_stacks",
    ) {
        return;
    }
    use frontier_core::search::gpu::{MultiGpuConfig, MultiGpuSession, PackedHasher};
    use frontier_core::search::{Order, Weight};
    let mut rng = SplitMix64::new(1414);
    let stacks: Vec<Pancake> = (0..8)
        .map(|_| Pancake::random(14, &mut rng).unwrap())
        .collect();
    let config = MultiGpuConfig {
        devices: vec![0, 0],
        heaps: 4096,
        memory_fraction: 0.1,
        ..MultiGpuConfig::default()
    };
    let mut session = MultiGpuSession::new(&stacks[0], &Gap, &PackedHasher, &config).unwrap();
    for stack in &stacks {
        let optimum = optimum(stack);
        for (w, anytime) in [("1.5", false), ("2", false), ("greedy", false), ("2", true)] {
            let weight = Weight::parse(w).unwrap();
            let options = SearchOptions {
                order: Order {
                    weight,
                    anytime,
                    ..Order::default()
                },
                ..SearchOptions::default()
            };
            let outcome = session.solve(stack, &Gap, &PackedHasher, &options).unwrap();
            let what = format!("{} w {w} anytime {anytime} on 2 shards", stack.text());
            let (cost, lower) = assert_within_weight(stack, &outcome, optimum, weight, &what);
            if anytime {
                assert_eq!((cost, lower), (optimum, optimum), "{what}");
            }
        }
    }
}

/// Anytime GA* on the GPU (restarting weighted A*) against A* on random
/// 14-stacks: run to its end it proves the optimum; every improvement costs
/// less than the one before and brackets the optimum with its bound; cut
/// short by an expansion limit it returns its best solution with a bound
/// still at or below the optimum.
#[test]
fn anytime_gpu_gastar_ends_at_the_optimum_and_bounds_it_on_the_way() {
    if !frontier_core::gpu::usable_or_skip(
        "anytime_gpu_gastar_ends_at_the_optimum_and_bounds_it_on_the_way",
    ) {
        return;
    }
    use frontier_core::search::{Limit, Limits, Order, Weight};
    let (stacks, mut session) = gpu_stacks_and_session(41);
    for stack in &stacks {
        let optimum = optimum(stack);
        for (w, limit) in [("greedy", None), ("3", None), ("2", Some(2_000))] {
            let options = SearchOptions {
                order: Order {
                    weight: Weight::parse(w).unwrap(),
                    anytime: true,
                    beam: None,
                    shortcut: None,
                    window: None,
                },
                limits: Limits {
                    max_expanded: limit,
                    ..Limits::default()
                },
                ..SearchOptions::default()
            };
            let what = format!("{} w {w} anytime, limit {limit:?}", stack.text());
            let outcome = session.solve(stack, &Gap, &options).unwrap();
            let Some(solution) = outcome.solution() else {
                // Only a limit may leave it without a solution.
                assert!(limit.is_some(), "{what}");
                continue;
            };
            let lower = outcome.stats.lower_bound.unwrap();
            assert!(
                lower <= optimum && optimum <= solution.cost,
                "{what}: {lower}"
            );
            if limit.is_none() {
                assert_eq!((solution.cost, lower), (optimum, optimum), "{what}");
            }
            // Kept at the limit it says so; ended on its own it proved it.
            match outcome.stats.stopped_by {
                Some(stopped) => assert_eq!(stopped, Limit::Expansions, "{what}"),
                None => assert_eq!(solution.cost, lower, "{what}"),
            }
            let steps = &outcome.stats.improvements;
            assert_eq!(steps.last().map(|i| i.cost), Some(solution.cost), "{what}");
            for pair in steps.windows(2) {
                assert!(pair[1].cost < pair[0].cost, "{what}");
                assert!(pair[1].seconds >= pair[0].seconds, "{what}");
            }
            for step in steps {
                assert!(
                    step.lower_bound <= optimum && optimum <= step.cost,
                    "{what}"
                );
            }
            assert!(
                stack.is_goal(&stack.replay(&solution.moves).unwrap()),
                "{what}"
            );
        }
    }
}

/// The steps between two states a known number of moves apart (how the GPU
/// beam gets back the states it did not keep) are found again: along random
/// walks of 0 to 5 flips, a path of that many flips ends at the walk's end
/// and replays; a cost one higher finds none, and no flips only the start.
#[test]
fn paths_between_states_of_known_distance_are_found_again() {
    use frontier_core::search::gaps::path_between;
    let mut rng = SplitMix64::new(5);
    let pancake = Pancake::random(8, &mut rng).unwrap();
    let mut edges = Vec::new();
    for _ in 0..40 {
        let moves = rng.below(6) as usize;
        let mut state = pancake.start();
        for _ in 0..moves {
            edges.clear();
            pancake.expand(&state, &mut edges);
            state = edges[rng.below(edges.len() as u64) as usize].state.clone();
        }
        let mut to = vec![0u32; pancake.packed_words()];
        pancake.pack(&state, &mut to);
        let cost = moves as frontier_core::Cost;
        let steps = path_between(&pancake, &pancake.start(), &to, moves, cost)
            .unwrap_or_else(|| panic!("{moves} flips not found again"));
        assert_eq!(steps.len(), moves);
        if moves > 0 {
            assert_eq!(steps.last(), Some(&state));
        }
        let mut at = pancake.start();
        for step in &steps {
            edges.clear();
            pancake.expand(&at, &mut edges);
            assert!(edges.iter().any(|e| &e.state == step), "not a flip");
            at = step.clone();
        }
        assert!(path_between(&pancake, &pancake.start(), &to, moves, cost + 1).is_none());
        // No moves: only the state itself.
        let none = path_between(&pancake, &pancake.start(), &to, 0, 0);
        assert_eq!(none.is_some(), state == pancake.start());
    }
}

/// Every GPU executor's kernel compiles for Hopper with NVRTC alone (no GPU
/// needed), for stacks of one packed word and of several; skipped loudly
/// where NVRTC is not installed.
#[test]
fn every_gpu_kernel_compiles_without_a_gpu() {
    for n in [4, 14, 40] {
        let sizes: Vec<usize> = (1..=n).rev().collect();
        let stack = Pancake::new(&sizes).unwrap();
        let compiled = frontier_core::search::gpu::compile_engines(&stack, &Gap, "sm_90");
        if !frontier_core::gpu::checked_unless_no_nvrtc(compiled)
            .unwrap_or_else(|e| panic!("{n} pancakes: {e}"))
        {
            return;
        }
    }
}
