//! Criterion micro-benchmarks of the core: time of impact, the broad phase, a full
//! step of the standard gas at 1k, 10k and 100k circles, and runs under gravity (the gas
//! falling, the jittered pile landing) from their first step.
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

/// Under gravity, a fixed run from the scene's start (a fresh copy each time, so every
/// sample does the same work): the gas of 10k falling for 60 steps (g = 9.81 down,
/// speed 10), and the jittered pile of 2000 landing for 120 steps.
fn under_gravity(c: &mut Criterion) {
    let mut group = c.benchmark_group("under gravity");
    group.sample_size(10);
    let mut gas = scenes::gas(10_000, 0.3, 10.0);
    gas.config.gravity = DVec2::new(0.0, -9.81);
    let runs = [
        ("gas 10000, 60 steps", gas.simulation(), 60),
        ("pile 2000, 120 steps", scenes::pile(2000).simulation(), 120),
    ];
    for (name, sim, steps) in runs {
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || sim.clone(),
                |sim| (0..steps).for_each(|_| sim.step(scenes::DT)),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, toi, broad_phase, full_step, under_gravity);
criterion_main!(benches);
