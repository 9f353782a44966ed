//! Criterion benchmarks of the domination search on fixed hard boards: the full solve (heuristic,
//! search, proof) sequentially, and on the default rayon pool.
//!
//! `cargo bench --bench search`; criterion reports medians and compares with the previous run.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queendom::search::{solve, Problem, SearchOptions};
use queendom::Board;

fn boards(c: &mut Criterion, problem: Problem, sizes: &[(usize, usize)]) {
    let mut group = c.benchmark_group(problem.name());
    group.sample_size(10);
    for &(r, cols) in sizes {
        let board = Board::new(r, cols).unwrap();
        for (mode, options) in [
            ("sequential", SearchOptions::sequential()),
            ("parallel", SearchOptions::parallel()),
        ] {
            group.bench_with_input(BenchmarkId::new(mode, board), &board, |b, &board| {
                b.iter(|| solve(board, problem, &options).unwrap().queens())
            });
        }
    }
    group.finish();
}

fn domination(c: &mut Criterion) {
    boards(
        c,
        Problem::Domination,
        &[(12, 12), (13, 13), (11, 13), (12, 14)],
    );
}

fn independent_domination(c: &mut Criterion) {
    boards(
        c,
        Problem::IndependentDomination,
        &[(12, 12), (13, 13), (11, 13), (14, 14)],
    );
}

criterion_group!(benches, domination, independent_domination);
criterion_main!(benches);
