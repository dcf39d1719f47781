//! Criterion benchmarks of the spatial queries on the standard gas of 10,000 circles
//! (DESIGN §5, after one step): building the index, and one ray cast (first hit and all
//! hits, 20 units long), circle cast, point, circle-area and box-area query, each
//! averaged over 1024 queries spread over the box.
//!
//! ```text
//! cargo bench -p circle_collide_core --bench queries
//! ```

use circle_collide_core::glam::DVec2;
use circle_collide_core::query::{QueryFilter, SpatialIndex};
use circle_collide_core::scenes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const QUERIES: usize = 1024;

fn queries(c: &mut Criterion) {
    let n = 10_000;
    let scene = scenes::gas(n, 0.3, 10.0);
    let mut sim = scene.simulation();
    sim.step(scenes::DT);
    let side = scenes::gas_side(n, 0.3);
    let mut group = c.benchmark_group("queries gas 10k");
    group.bench_function("build index", |b| {
        b.iter(|| SpatialIndex::new(black_box(sim.bodies()), sim.config.arena))
    });
    let index = SpatialIndex::new(sim.bodies(), sim.config.arena);
    // Query points and directions spread over the box (golden-ratio sequences).
    let points: Vec<(DVec2, DVec2)> = (0..QUERIES)
        .map(|k| {
            let (u, v) = ((k as f64 * 0.618_034) % 1.0, (k as f64 * 0.754_878) % 1.0);
            (
                DVec2::new(u, v) * side,
                DVec2::from_angle(k as f64 * 2.399_963),
            )
        })
        .collect();
    let f = QueryFilter::default();
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("ray cast, 20 long", |b| {
        b.iter(|| {
            (points.iter())
                .filter_map(|&(p, d)| index.ray_cast(p, d, 20.0, &f))
                .count()
        })
    });
    group.bench_function("ray cast all, 20 long", |b| {
        b.iter(|| {
            (points.iter())
                .map(|&(p, d)| index.ray_cast_all(p, d, 20.0, &f).len())
                .sum::<usize>()
        })
    });
    group.bench_function("circle cast r 0.5, 20 long", |b| {
        b.iter(|| {
            (points.iter())
                .filter_map(|&(p, d)| index.circle_cast(p, 0.5, d, 20.0, &f))
                .count()
        })
    });
    group.bench_function("point", |b| {
        b.iter(|| {
            (points.iter())
                .map(|&(p, _)| index.point(p, &f).len())
                .sum::<usize>()
        })
    });
    group.bench_function("circle area r 3", |b| {
        b.iter(|| {
            (points.iter())
                .map(|&(p, _)| index.circle(p, 3.0, &f).len())
                .sum::<usize>()
        })
    });
    group.bench_function("box area 5 x 5", |b| {
        b.iter(|| {
            (points.iter())
                .map(|&(p, _)| index.aabb(p, p + 5.0, &f).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, queries);
criterion_main!(benches);
