//! Criterion micro-benchmarks of the core: time of impact, the broad phase, and a full
//! step of the standard gas at 1k, 10k and 100k circles.
//!
//! ```text
//! cargo bench -p circle_collide_core
//! ```

use circle_collide_core::glam::DVec2;
use circle_collide_core::scenes;
use circle_collide_core::toi::time_of_impact;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn toi(c: &mut Criterion) {
    let cases: Vec<(DVec2, DVec2)> = (0..1024)
        .map(|k| {
            let a = k as f64 * 0.37;
            (
                DVec2::new(3.0 + a.cos(), a.sin()),
                DVec2::new(-2.0, 0.1 * a.cos()),
            )
        })
        .collect();
    c.bench_function("time_of_impact x1024", |b| {
        b.iter(|| {
            cases
                .iter()
                .filter_map(|(d, w)| time_of_impact(black_box(*d), black_box(*w), 1.0))
                .sum::<f64>()
        })
    });
}

fn broad_phase(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad_phase gas");
    for n in [1_000usize, 10_000, 100_000] {
        let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
        sim.integrate(scenes::DT);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| sim.broad_phase())
        });
    }
    group.finish();
}

fn full_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("step gas");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| sim.step(scenes::DT))
        });
    }
    group.finish();
}

criterion_group!(benches, toi, broad_phase, full_step);
criterion_main!(benches);
