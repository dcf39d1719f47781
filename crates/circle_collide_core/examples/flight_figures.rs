//! Measures exact flight under gravity: the apex spread of an elastic ball bouncing
//! 10,000 times on the floor (dropped, thrown down, thrown sideways), a projectile's
//! landing-time error, and the energy drift of the tall elastic gas (100 balls, 10,000
//! steps), the figures of `docs/flight.md`.
//!
//! ```text
//! cargo run --release -p circle_collide_core --example flight_figures
//! ```

use circle_collide_core::scenes::{self, DT};
use circle_collide_core::{BodyDesc, Other, Simulation, Wall};
use glam::DVec2;

const G: DVec2 = DVec2::new(0.0, -9.81);

/// A simulation of `bodies` in the elastic box `width × height` under gravity.
fn world(bodies: &[BodyDesc], width: f64, height: f64) -> Simulation {
    let config = scenes::elastic_box_under_gravity(width, height);
    scenes::Scene {
        bodies: bodies.to_vec(),
        config,
    }
    .simulation()
}

/// Kinetic plus potential energy of the dynamic bodies.
fn energy(sim: &Simulation) -> f64 {
    sim.bodies().kinetic_energy() + sim.bodies().potential_energy(sim.config.gravity)
}

fn main() {
    for (name, v) in [
        ("dropped", DVec2::ZERO),
        ("thrown down", DVec2::new(0.0, -3.7)),
        ("thrown sideways", DVec2::new(2.3, 0.4)),
    ] {
        let ball = BodyDesc::new(DVec2::new(5.0, 1.5), 0.5, 1.0).with_velocity(v);
        let mut sim = world(&[ball], 10.0, 50.0);
        let apex = |sim: &Simulation| {
            let b = sim.bodies();
            b.position(0).y + b.velocity(0).y.powi(2) / (2.0 * G.length())
        };
        let start = apex(&sim);
        let (mut bounces, mut lo, mut hi, mut steps) = (0, f64::INFINITY, f64::NEG_INFINITY, 0);
        while bounces < 10_000 && steps < 2_000_000 {
            sim.step(DT);
            steps += 1;
            bounces += (sim.impacts().iter())
                .filter(|i| i.other == Other::Wall(Wall::Bottom))
                .count();
            let a = apex(&sim);
            (lo, hi) = (lo.min(a), hi.max(a));
        }
        println!(
            "{name}: apex {start:.6} → between {lo:.9} and {hi:.9} over {bounces} bounces: spread {:.3e} of the apex",
            (hi - lo) / start
        );
    }
    let (p0, v0, r) = (DVec2::new(1.0, 10.0), DVec2::new(3.0, 4.0), 0.5);
    let mut sim = world(
        &[BodyDesc::new(p0, r, 1.0).with_velocity(v0)],
        1000.0,
        100.0,
    );
    let g = G.length();
    let t_land = (v0.y + (v0.y * v0.y + 2.0 * g * (p0.y - r)).sqrt()) / g;
    for step in 0..1000 {
        sim.step(DT);
        if let Some(hit) = sim.impacts().first() {
            let t = step as f64 * DT + hit.time;
            println!(
                "projectile: lands at t = {t:.12} (closed form {t_land:.12}), error {:.3e} relative",
                (t / t_land - 1.0).abs()
            );
            break;
        }
    }
    let mut sim = scenes::tall_gas(100, 15.0).simulation();
    let e0 = energy(&sim);
    let (mut worst, mut impacts) = (0.0f64, 0);
    for _ in 0..10_000 {
        sim.step(DT);
        impacts += sim.impacts().len();
        worst = worst.max((energy(&sim) / e0 - 1.0).abs());
    }
    println!(
        "tall gas (100 elastic balls, 10,000 steps, {impacts} impacts): |ΔE|/E at most {worst:.3e}, at the end {:.3e}",
        energy(&sim) / e0 - 1.0
    );
}
