//! Expansions per second of the executors on sliding tiles, and the cost of a
//! pattern-database lookup. `cargo bench --bench search`; throughput is in
//! expansions (or lookups) per second.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use frontier_core::{astar, hda, HdaConfig, Heuristic, SearchOptions};
use frontier_tiles::{cache, partition, AdditivePdb, Board, Goal, Manhattan, Tiles};

/// Korf #55 and #16 (standard goal): 0.15 and 0.9 million A* expansions with Manhattan.
const INSTANCES: [(&str, &str); 2] = [
    ("korf55", "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3"),
    ("korf16", "0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15"),
];

fn executors(c: &mut Criterion) {
    let board = Board::new(4, 4).expect("4x4 is a valid board");
    let h = Manhattan::new(&board, Goal::Standard);
    let mut group = c.benchmark_group("tiles-manhattan");
    group.sample_size(10);
    for (name, text) in INSTANCES {
        let puzzle = Tiles::parse(text, Goal::Standard).expect("benchmark instances are valid");
        let expanded = astar(&puzzle, &h, &SearchOptions::default())
            .expect("no limits to refuse")
            .stats
            .expanded;
        group.throughput(Throughput::Elements(expanded));
        group.bench_function(format!("astar/{name}"), |b| {
            b.iter(|| astar(&puzzle, &h, &SearchOptions::default()).expect("valid limits"))
        });
        let config = HdaConfig {
            threads: 2,
            partition: "split".into(),
            ..HdaConfig::default()
        };
        let azh = frontier_tiles::azh::projection("split", &board, 1).expect("known projection");
        group.bench_function(format!("hda2-split/{name}"), |b| {
            b.iter(|| {
                hda(&puzzle, &h, &azh, &config, &SearchOptions::default())
                    .expect("a valid HDA* config")
            })
        });
    }
    group.finish();
}

fn pdb_lookups(c: &mut Criterion) {
    let board = Board::new(4, 4).expect("4x4 is a valid board");
    let dir = std::env::temp_dir().join("frontier-bench-pdb");
    let dbs = partition("5-5-5", &board, Goal::Standard)
        .expect("preset exists")
        .iter()
        .map(|p| Arc::new(cache::load_or_build(&board, p, &dir, 2, &|_| {}).expect("PDB builds")))
        .collect();
    let pdb = AdditivePdb::new(&board, Goal::Standard, dbs, true).expect("square board");
    let puzzles: Vec<Tiles> = INSTANCES
        .iter()
        .map(|(_, t)| Tiles::parse(t, Goal::Standard).expect("valid"))
        .collect();
    let mut group = c.benchmark_group("pdb");
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("5-5-5+reflect/h", |b| {
        b.iter(|| {
            puzzles
                .iter()
                .map(|p| pdb.h(p, &frontier_core::Domain::start(p)))
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, executors, pdb_lookups);
criterion_main!(benches);
