//! Same-instant runs: a light body hit again and again at one instant is solved with the
//! bodies touching it, all at once (`circle_collide_core::same_instant`).

mod common;

use circle_collide_core::{Arena, BodyDesc, Simulation, StepConfig, scenes};
use glam::DVec2;

const G: DVec2 = DVec2::new(0.0, -9.81);

/// A box of 40 × 40 under `gravity`, walls of restitution `e`, room for `impacts` impacts
/// a body in a step (the tens of thousands a run took one by one fell back at the default
/// cap in these small worlds).
fn floor_box(gravity: DVec2, e: f64, impacts: u32) -> StepConfig {
    StepConfig {
        gravity,
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(40.0, 40.0),
            restitution: e,
            friction: 0.0,
        }),
        max_impacts_per_body: impacts,
        ..StepConfig::default()
    }
}

/// A pebble of radius `r` (mass r²) on the floor, and a column of three crates of radius
/// 2 (mass 4 each) right above it, touching each other, coming down at `speed`; the
/// column's lowest crate 10⁻⁴ above the pebble, the crates shifted sideways by `shift`.
/// Everything of restitution `e`.
fn pebble_under_crates(r: f64, speed: f64, e: f64, shift: f64) -> Simulation {
    // Without the cluster solve this step falls back at the cap.
    let config = floor_box(G, e, 2000);
    let mut bodies = vec![BodyDesc::new(DVec2::new(10.0, r), r, r * r).with_restitution(e)];
    for k in 0..3 {
        let y = 2.0 * r + 2.0 + 1e-4 + 4.0 * k as f64;
        bodies.push(
            BodyDesc::new(DVec2::new(10.0 + shift, y), 2.0, 4.0)
                .with_restitution(e)
                .with_velocity(DVec2::new(0.0, -speed)),
        );
    }
    common::sim_with(&bodies, config)
}

#[test]
fn crates_landing_on_a_pebble_bounce_in_one_solve_not_tens_of_thousands_of_impacts() {
    // Before: 45,079 binary impacts in this step at 10 units/s (the pebble a fortieth of
    // the crates' radius), each taking ~1/1600 of the lowest crate's speed.
    let (speed, e, r) = (10.0, 0.2, 0.05);
    for shift in [0.0, 0.004, -0.011] {
        let mut sim = pebble_under_crates(r, speed, e, shift);
        let before = sim.bodies().kinetic_energy();
        sim.step(scenes::DT);
        let stats = sim.stats();
        assert!(!stats.fallback, "shift {shift}: fell back at the cap");
        assert!(
            stats.impacts < 400,
            "shift {shift}: {} impacts",
            stats.impacts
        );
        assert_eq!(stats.overlaps_left, 0, "shift {shift}");
        let b = sim.bodies();
        // No energy made (gravity's work over the step is below 1 % of the landing's).
        let after = b.kinetic_energy();
        assert!(
            after < before,
            "shift {shift}: kinetic energy {before} → {after}"
        );
        assert!(
            b.velocity(1).y > 0.0,
            "shift {shift}: the lowest crate {}",
            b.velocity(1)
        );
        // The pebble stays on the floor and in the arena (off centre, it squirts out
        // sideways: nothing holds it there).
        let p = b.position(0);
        assert!(
            p.y >= r * (1.0 - 0.011) && p.x > 0.0 && p.x < 40.0,
            "pebble at {p}"
        );
        if shift == 0.0 {
            // Poisson's restitution on the stopped column: it leaves at e × its speed, then
            // gravity for the rest of the step (it landed 10⁻⁵ s in); the pebble with it.
            let landed = 1e-4 / speed;
            let expected = e * speed + G.y * (scenes::DT - landed);
            let top = b.velocity(3);
            assert!(
                (top.y - expected).abs() < 0.01 * e * speed,
                "the top crate leaves at {top}, expected {expected}"
            );
            assert!((b.velocity(0) - b.velocity(1)).length() < 0.01 * e * speed);
        }
    }
}

#[test]
fn an_elastic_run_is_left_to_exact_binary_impacts_and_keeps_the_energy() {
    // A pebble a millionth of a crate's mass, touching the floor and the crate coming down
    // on it, all elastic: the binary impacts at one instant pump the pebble up to ~V √(M/m)
    // and back down, ~3100 of them; the run ends by itself (the energy bounds it) and
    // stays exact — no cluster solve at restitution 1.
    for shift in [0.0, 0.003] {
        let speed = 1.0;
        let config = floor_box(DVec2::ZERO, 1.0, 4000);
        let r = 0.05;
        let bodies = [
            BodyDesc::new(DVec2::new(10.0, r), r, 4e-6),
            BodyDesc::new(DVec2::new(10.0 + shift, 2.0 * r + 2.0 + 1e-4), 2.0, 4.0)
                .with_velocity(DVec2::new(0.0, -speed)),
        ];
        let mut sim = common::sim_with(&bodies, config);
        let e0 = sim.bodies().kinetic_energy();
        sim.step(scenes::DT);
        let e1 = sim.bodies().kinetic_energy();
        let stats = sim.stats();
        assert!(!stats.fallback, "shift {shift}");
        assert!(
            (e1 - e0).abs() < 1e-9 * e0,
            "shift {shift}: kinetic energy {e0} → {e1}"
        );
        assert!(
            stats.impacts > 2 * circle_collide_core::same_instant::RUN_TRIGGER as usize,
            "shift {shift}: {} impacts",
            stats.impacts
        );
        // Straight above it, the crate bounces off the floor through the pebble at (nearly)
        // its own speed; off centre the pebble squirts out sideways with part of it.
        let crate_v = sim.bodies().velocity(1);
        if shift == 0.0 {
            assert!(crate_v.y > 0.99 * speed, "the crate leaves at {crate_v}");
        }
    }
}

#[test]
fn a_pebble_squeezed_by_a_kinematic_crate_against_the_floor_still_stays_finite() {
    // The cluster has no solution (the crate cannot give way): the run goes on one impact
    // at a time up to the cap, as before, and the step ends finite and inside the arena.
    // Room for the cluster solves at 256, 512 and 1024 impacts before the cap.
    let config = floor_box(G, 0.2, 1000);
    let r = 0.05;
    let bodies = [
        BodyDesc::new(DVec2::new(10.0, r), r, r * r).with_restitution(0.2),
        BodyDesc::new(DVec2::new(10.0, 2.0 * r + 2.0 + 1e-4), 2.0, f64::INFINITY)
            .with_velocity(DVec2::new(0.0, -3.0)),
    ];
    let mut sim = common::sim_with(&bodies, config);
    for _ in 0..3 {
        sim.step(scenes::DT);
        let b = sim.bodies();
        assert!(b.position(0).is_finite() && b.velocity(0).is_finite());
        // No impulse from a problem without a solution: the pebble keeps the speeds the
        // crate's binary impacts give it (about 3 / (1 − e)).
        assert!(b.velocity(0).length() < 10.0, "pebble at {}", b.velocity(0));
        assert!(
            b.position(0).x >= 0.0 && b.position(0).y >= 0.0,
            "{}",
            b.position(0)
        );
    }
}
