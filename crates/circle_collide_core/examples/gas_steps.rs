//! Times the gas scene on the Bevy-free core, single-threaded, phase by phase.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example gas_steps -- [N] [steps]
//! ```

use circle_collide_core::{Simulation, scenes};
use std::time::Instant;

/// The five phases, in order, with their names.
const PHASES: [(&str, fn(&mut Simulation)); 5] = [
    ("integrate", |s| s.integrate(scenes::DT)),
    ("broad", Simulation::broad_phase),
    ("narrow", Simulation::narrow_phase),
    ("impacts", Simulation::solve_impacts),
    ("resolve", Simulation::resolve),
];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(100_000, |s| s.parse().expect("N"));
    let steps: usize = args.next().map_or(60, |s| s.parse().expect("steps"));
    let mut sim = scenes::gas(n, 0.3, 10.0).simulation();
    let e0 = sim.bodies().kinetic_energy();
    let mut totals = Vec::with_capacity(steps);
    let mut phases = vec![Vec::with_capacity(steps); PHASES.len()];
    let mut impacts = 0;
    for _ in 0..steps {
        let start = Instant::now();
        for ((_, phase), times) in PHASES.iter().zip(&mut phases) {
            let t = Instant::now();
            phase(&mut sim);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        totals.push(start.elapsed().as_secs_f64() * 1e3);
        impacts += sim.stats().impacts;
    }
    let mean = totals.iter().sum::<f64>() / steps as f64;
    let split: Vec<String> = PHASES
        .iter()
        .zip(&mut phases)
        .map(|((name, _), times)| format!("{name} {:.3}", median(times)))
        .collect();
    println!(
        "gas N = {n}: cell {:.3}, {steps} steps, median {:.3} ms, mean {mean:.3} ms, worst {:.3} ms, {:.0} impacts/step, |ΔE|/E {:.1e}\n  phase medians (ms): {}",
        sim.grid_cell_size(),
        median(&mut totals),
        totals[steps - 1],
        impacts as f64 / steps as f64,
        (sim.bodies().kinetic_energy() / e0 - 1.0).abs(),
        split.join(", ")
    );
}
