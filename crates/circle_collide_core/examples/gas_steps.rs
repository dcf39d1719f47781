//! Times the gas scene on the Bevy-free core, phase by phase: single-threaded by default,
//! or with the parallel phases on `threads` scoped threads.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example gas_steps -- [N] [steps] [threads]
//! ```
//!
//! `GRAVITY=1` runs it under gravity (9.81 down): the gas falling.

mod common;

use circle_collide_core::scenes;
use std::sync::Arc;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(100_000, |s| s.parse().expect("N"));
    let steps: usize = args.next().map_or(60, |s| s.parse().expect("steps"));
    let threads: usize = args.next().map_or(1, |s| s.parse().expect("threads"));
    let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
    if std::env::var_os("GRAVITY").is_some() {
        sim.config.gravity = circle_collide_core::glam::DVec2::new(0.0, -9.81);
    }
    sim.set_executor(Arc::new(common::Threads(threads.max(1))));
    let e0 = sim.bodies().kinetic_energy();
    let mut totals = Vec::with_capacity(steps);
    let mut phases = common::PhaseTimes::default();
    let (mut impacts, mut stale, mut pairs) = (0, 0, 0);
    for _ in 0..steps {
        totals.push(phases.step(&mut sim, scenes::DT));
        impacts += sim.stats().impacts;
        stale += sim.stats().stale_events;
        pairs += sim.stats().candidate_pairs;
    }
    let mean = totals.iter().sum::<f64>() / steps as f64;
    println!(
        "gas N = {n}, {threads} thread(s): cell {:.3}, {steps} steps, median {:.3} ms, mean {mean:.3} ms, worst {:.3} ms, {:.0} impacts/step ({:.0} stale predictions, {:.0} candidate pairs), |ΔE|/E {:.1e}\n  phase medians (ms): {}",
        sim.grid_cell_size(),
        median(&mut totals),
        totals[steps - 1],
        impacts as f64 / steps as f64,
        stale as f64 / steps as f64,
        pairs as f64 / steps as f64,
        (sim.bodies().kinetic_energy() / e0 - 1.0).abs(),
        phases.medians(0)
    );
    common::print_heap_bytes(&sim);
    common::print_state_fingerprint(&sim);
}
