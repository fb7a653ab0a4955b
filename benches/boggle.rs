//! Boggle boards scored per second on one core: uniform random 4x4 boards
//! (the peer solver's benchmark), dice-rolled boards, and neighbours of the
//! best 4x4 board (the boards annealing spends its time on).
//! `cargo bench --bench boggle`; reads the ENABLE2K list the repository
//! ships in data/.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use frontier_boggle::{random_boards, Letters, Scorer, Shape, Trie};

fn scoring(c: &mut Criterion) {
    let Some(path) = frontier_core::data::find("boggle/enable2k.txt") else {
        eprintln!("{}", frontier_core::data::missing("boggle/enable2k.txt"));
        return;
    };
    let Ok((trie, _)) = Trie::load(&path) else {
        eprintln!("{}: cannot be read", path.display());
        return;
    };
    let shape = Shape::new(4, 4);
    let mut group = c.benchmark_group("boggle-4x4");
    group.sample_size(10);
    let best: Vec<u8> = "perslatgsineters".bytes().map(|b| b - b'a').collect();
    let mut near_best = Vec::new();
    for cell in 0..16 {
        for letter in 0..26u8 {
            let mut board = best.clone();
            board[cell] = letter;
            near_best.extend(board);
        }
    }
    let sets = [
        (
            "uniform",
            random_boards(&shape, 100_000, Letters::Uniform, 1),
        ),
        ("dice", random_boards(&shape, 20_000, Letters::Dice, 1)),
        ("near-best", near_best),
    ];
    for (name, boards) in sets {
        group.throughput(Throughput::Elements((boards.len() / 16) as u64));
        let mut scorer = Scorer::new(&trie);
        group.bench_function(name, |b| {
            b.iter(|| {
                boards
                    .chunks_exact(16)
                    .map(|board| u64::from(scorer.score_letters(&shape, board)))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scoring);
criterion_main!(benches);
