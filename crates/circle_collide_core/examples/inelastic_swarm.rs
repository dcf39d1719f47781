//! Measures two zero-gravity worlds of restitution-0 circles, where the engine is at its
//! weakest (README, "Known limits"): the standard gas with every restitution set to 0,
//! and the same circles pulled toward the centre of the box (a swarm chasing a point, as
//! in a top-down game: 10 units/s² added to each velocity before every step).
//!
//! ```text
//! cargo run --release -p circle_collide_core --example inelastic_swarm -- [N] [steps] [gas|pull] [resting_speed]
//! ```
//!
//! Every 100 steps it prints the mean and worst step time, the steps that hit the impact
//! cap (fallbacks), the impacts per step, the overlaps the push-out left
//! (`StepStats::overlaps_left`) and the deepest overlap over the radius (all pairs,
//! brute force). Without a `resting_speed` argument the default (`2 |g| dt`, 0 here)
//! holds.

use circle_collide_core::{Simulation, scenes};

/// Deepest overlap of any pair, over the radius (O(N²): for small worlds).
fn deepest_overlap(sim: &Simulation) -> f64 {
    let b = sim.bodies();
    let mut deepest: f64 = 0.0;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let depth = b.radius(i) + b.radius(j) - b.position(i).distance(b.position(j));
            deepest = deepest.max(depth / scenes::RADIUS);
        }
    }
    deepest
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1000, |s| s.parse().expect("N"));
    let steps: usize = args.next().map_or(600, |s| s.parse().expect("steps"));
    let pull = match args.next().as_deref() {
        None | Some("gas") => false,
        Some("pull") => true,
        Some(other) => panic!("unknown world {other}: gas or pull"),
    };
    let mut scene = scenes::gas(n, 0.3, 10.0);
    scene.bodies.iter_mut().for_each(|b| b.restitution = 0.0);
    let arena = scene.config.arena.as_mut().expect("the gas has walls");
    arena.restitution = 0.0;
    let centre = (arena.min + arena.max) * 0.5;
    scene.config.resting_speed = args.next().map(|s| s.parse().expect("resting speed"));
    let mut sim = scene.simulation();
    let (mut times, mut fallbacks, mut impacts) = (Vec::new(), 0, 0);
    for step in 1..=steps {
        if pull {
            for i in 0..sim.bodies().len() {
                let b = sim.bodies();
                let towards = (centre - b.position(i)).normalize_or_zero();
                let v = b.velocity(i) + towards * 10.0 * scenes::DT;
                sim.set_velocity(i as u32, v);
            }
        }
        let start = std::time::Instant::now();
        sim.step(scenes::DT);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        fallbacks += usize::from(sim.stats().fallback);
        impacts += sim.stats().impacts;
        if step % 100 == 0 || step == steps {
            let (count, worst) = (times.len(), times.iter().copied().fold(0.0, f64::max));
            println!(
                "step {step}: mean {:.3} ms, worst {worst:.3} ms, fallback steps so far {fallbacks}, impacts per step {:.0}, overlaps left {}, deepest overlap {:.3} r, kinetic energy {:.1}",
                times.iter().sum::<f64>() / count as f64,
                impacts as f64 / count as f64,
                sim.stats().overlaps_left,
                deepest_overlap(&sim),
                sim.stats().kinetic_energy,
            );
            (times, impacts) = (Vec::new(), 0);
        }
    }
}
