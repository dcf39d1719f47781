//! A column of three crates (radius 2, mass 4) landing on a pebble that lies on the floor,
//! with `extra` circles resting elsewhere on the floor (a world of that size: its impact
//! cap and its grid), and what the landing step costs: the same-instant run the pebble
//! starts, solved as one cluster (`circle_collide_core::same_instant`).
//!
//! ```text
//! cargo run --release -p circle_collide_core --example pebble_under_crates -- [speed] [restitution] [pebble radius] [extra]
//! ```
//!
//! Defaults: 10 units/s, 0.2, 0.05, 2000. Prints, for the first three steps, the time,
//! the impacts, the cluster solves, whether the step fell back at the impact cap, and
//! the pebble's and the crates' vertical velocities.

use circle_collide_core::{Arena, BodyDesc, StepConfig, scenes};
use glam::DVec2;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut next = |default: f64| {
        args.next()
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let (speed, e, r) = (next(10.0), next(0.2), next(0.05));
    let extra = next(2000.0) as usize;
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(50.0 + 2.0 * extra as f64, 40.0),
            restitution: e,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    let mut bodies = vec![BodyDesc::new(DVec2::new(10.0, r), r, r * r).with_restitution(e)];
    for k in 0..3 {
        let y = 2.0 * r + 2.0 + 1e-4 + 4.0 * k as f64;
        bodies.push(
            BodyDesc::new(DVec2::new(10.0, y), 2.0, 4.0)
                .with_restitution(e)
                .with_velocity(DVec2::new(0.0, -speed)),
        );
    }
    bodies.extend((0..extra).map(|k| {
        BodyDesc::new(DVec2::new(50.0 + 2.0 * k as f64, 0.5), 0.5, 1.0).with_restitution(e)
    }));
    let mut sim = scenes::Scene { bodies, config }.simulation();
    println!(
        "crates at {speed} units/s onto a pebble of radius {r}, restitution {e}, {} bodies",
        sim.bodies().len()
    );
    for step in 0..3 {
        let start = std::time::Instant::now();
        sim.step(scenes::DT);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let b = sim.bodies();
        println!(
            "  step {step}: {ms:.3} ms, {} impacts, {} cluster solves, fallback {}, vertical velocities: pebble {:.4}, crates {:.4} / {:.4} / {:.4}",
            sim.stats().impacts,
            sim.stats().cluster_solves,
            sim.stats().fallback,
            b.velocity(0).y,
            b.velocity(1).y,
            b.velocity(2).y,
            b.velocity(3).y,
        );
    }
}
