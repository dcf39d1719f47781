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
fn a_pebble_squeezed_by_a_kinematic_crate_against_the_floor_moves_with_the_crate() {
    // The cluster has no solution (neither the crate nor the floor gives way): the pebble
    // stops against the floor, moves on with the crate, and its floor contact goes to the
    // push-out for the rest of the step (the kinematic body wins). One impact at a time
    // the run went on to the impact cap, and the fallback.
    let config = floor_box(G, 0.2, 1000);
    let r = 0.05;
    let bodies = [
        BodyDesc::new(DVec2::new(10.0, r), r, r * r).with_restitution(0.2),
        BodyDesc::new(DVec2::new(10.0, 2.0 * r + 2.0 + 1e-4), 2.0, f64::INFINITY)
            .with_velocity(DVec2::new(0.0, -3.0)),
    ];
    let mut sim = common::sim_with(&bodies, config);
    for step in 0..3 {
        sim.step(scenes::DT);
        let stats = sim.stats();
        assert!(!stats.fallback, "step {step}: fell back at the cap");
        let b = sim.bodies();
        let (p, v) = (b.position(0), b.velocity(0));
        assert!(p.is_finite() && v.is_finite(), "step {step}: {p} {v}");
        if step == 0 {
            assert_eq!(stats.squeezed_clusters, 1, "{stats:?}");
            // At the crate's velocity (gravity added after the solve, for the rest of
            // the step, to what no longer rests on anything).
            assert!((v - DVec2::new(0.0, -3.0)).length() < 0.2, "pebble at {v}");
        }
        assert!(v.length() < 3.5, "step {step}: pebble at {v}");
        assert!(p.x >= 0.0 && p.y >= 0.0, "step {step}: pebble at {p}");
    }
}

#[test]
fn a_crate_squeezed_by_a_kinematic_paddle_against_a_wall_leaves_the_rest_of_the_world_exact() {
    // A crate by the right wall, a kinematic paddle 10⁻⁴ from it sliding into it
    // (elastic at 2 units/s; at restitution 0.2 at 10, above the resting speed without
    // gravity, 4): one impact at a time the crate bounced between the two (elastic: ever
    // faster) until the step's impact cap, whose fallback then solved every other pair of
    // the world as restitution-0 contacts. Now the squeezed cluster goes with the paddle
    // and its wall contact to the push-out, and an elastic pair elsewhere still swaps its
    // velocities exactly in that step.
    // With a gap to the wall (elastic) the bounces come at ever closer, distinct times
    // while the gap closes: counted by the moving kinematic body's hits in the step.
    let cases = [
        (1.0, 0.0, 2.0, 0.0),
        (1.0, 0.02, 2.0, 0.0),
        (0.2, 0.0, 10.0, 0.0),
        (1.0, 0.0, 2.0, 0.1),
        (1.0, 0.02, 2.0, 0.1),
    ];
    for (e, shift, speed, gap) in cases {
        let mut config = floor_box(DVec2::ZERO, e, 32);
        config.arena = config.arena.map(|a| Arena {
            max: DVec2::new(40.0, 40.0),
            ..a
        });
        let bodies = [
            BodyDesc::new(DVec2::new(39.0 - gap, 20.0), 1.0, 1.0).with_restitution(e),
            BodyDesc::new(DVec2::new(36.9999 - gap, 20.0 + shift), 1.0, f64::INFINITY)
                .with_restitution(e)
                .with_velocity(DVec2::new(speed, 0.0)),
            BodyDesc::new(DVec2::new(10.0, 10.0), 0.5, 1.0).with_velocity(DVec2::X),
            BodyDesc::new(DVec2::new(11.01, 10.0), 0.5, 1.0).with_velocity(-DVec2::X),
        ];
        let mut sim = common::sim_with(&bodies, config);
        let at = format!("e {e}, shift {shift}, gap {gap}");
        // Head-on the crate goes no faster than one bounce off the paddle sends it, never
        // pumped (off centre, a frictionless crate in the wedge squirts out sideways, as a
        // rigid one must), and it stays in the arena.
        let bound = if shift == 0.0 {
            (1.0 + e) * speed + 1e-9
        } else {
            f64::INFINITY
        };
        let mut clusters = 0;
        for step in 0..6 {
            sim.step(scenes::DT);
            let stats = sim.stats();
            assert!(!stats.fallback, "{at}, step {step}: fell back at the cap");
            assert!(stats.impacts < 600, "{at}, step {step}: {stats:?}");
            clusters += stats.squeezed_clusters + stats.cluster_solves;
            let b = sim.bodies();
            if step == 0 {
                // The elastic pair elsewhere met in this step.
                assert_eq!(
                    (b.velocity(2), b.velocity(3)),
                    (-DVec2::X, DVec2::X),
                    "{at}"
                );
            }
            let (p, v) = (b.position(0), b.velocity(0));
            assert!(
                p.is_finite() && v.is_finite() && v.length() <= bound,
                "{at}: {p} {v}"
            );
            assert!(
                p.x <= 39.0 + 0.011 && p.y > 0.0 && p.y < 40.0,
                "{at}: the crate at {p}"
            );
        }
        // Head-on nothing else stops the run (off centre the crate may slip out first).
        assert!(shift != 0.0 || clusters >= 1, "{at}: no cluster solved");
    }
}

#[test]
fn specks_squeezed_out_of_wedges_in_a_pour_do_not_reach_the_impact_cap() {
    // Four pours of 250 crates and specks at restitution 0 (`scenes::speck_pour`). A
    // speck wedged between a heavy body and the floor or another heavy body is squeezed
    // out sideways over time; one bounce at a time it ran to the step's impact cap,
    // cluster solve after cluster solve (before: 13, 12 and 35 steps of 300 fell back in
    // the first three). Now the contacts a second solve at one instant presses on a
    // speck go to the push-out for the rest of the step. In the fourth a speck rattles
    // between bodies closing on it at distinct times (3 steps fell back with the rule
    // above alone): once a step has taken half its cap, such a body's 256th impact
    // solves its cluster (`same_instant::SPREAD_TRIGGER`).
    let mut given_up = 0;
    for seed in [4, 5, 15, 3] {
        let scene = scenes::speck_pour(250, seed);
        let width = scene.config.arena.expect("a box").max.x;
        let mut sim = scene.simulation();
        let mut fallbacks = 0;
        for step in 0..300 {
            sim.step(scenes::DT);
            let stats = sim.stats();
            fallbacks += usize::from(stats.fallback);
            given_up += stats.speck_contacts_given_up;
            let b = sim.bodies();
            for i in 0..b.len() {
                let (p, v, r) = (b.position(i), b.velocity(i), b.radius(i));
                assert!(
                    p.is_finite() && v.is_finite(),
                    "seed {seed}, step {step}: body {i} at {p}, {v}"
                );
                assert!(
                    p.x > -0.02 * r && p.x < width + 0.02 * r && p.y > -0.02 * r,
                    "seed {seed}, step {step}: body {i} (radius {r}) outside the box at {p}"
                );
            }
        }
        assert!(fallbacks <= 1, "seed {seed}: {fallbacks} steps fell back");
        assert_eq!(sim.stats().overlaps_left, 0, "seed {seed}");
    }
    assert!(
        given_up > 0,
        "no speck's contact was handed to the push-out"
    );
}
