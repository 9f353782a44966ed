//! N-queens counting on n = 14..16: the sequential twin (what `-j 1` runs) and the parallel search
//! on all threads. `scripts/nqueens_bench.sh` gives the same numbers as CPU and wall medians of the
//! command line, with the speed-up.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use queendom::nqueens::count_placements;

fn count(c: &mut Criterion) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let mut group = c.benchmark_group("nqueens_count");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    for n in [14, 15, 16] {
        group.bench_with_input(BenchmarkId::new("1_thread", n), &n, |b, &n| {
            b.iter(|| count_placements(n, false).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new(format!("{threads}_threads"), n),
            &n,
            |b, &n| b.iter(|| pool.install(|| count_placements(n, true).unwrap())),
        );
    }
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
