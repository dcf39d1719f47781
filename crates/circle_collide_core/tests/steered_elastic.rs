//! Elastic bodies the game steers every step (a top-down crowd left at the plugin's
//! default restitution, 1). Under the default resting speed an elastic pair never
//! pressed and never rested: each circle driven into its neighbours bounced off them at
//! full speed every step, and each bounce rang through the packed crowd from pair to pair
//! (the crowd of 500: ~6000 impacts a step, 8–12 ms, every circle still moving at the
//! steering speed). Now a body whose velocity the game set before the step is *steered*
//! (`BodyDesc::steered`, `Simulation::set_velocity`): without gravity its pairs take the
//! step's resting speed whatever their restitution, and a pair it drives together again
//! after it pressed or hit presses. A first contact faster than the resting speed still
//! bounces elastically.

mod common;

use circle_collide_core::{BodyDesc, Simulation, StepConfig, manifold, scenes};
use glam::DVec2;

/// The crowd of 500 (DESIGN §5) at restitution 1 (circles and walls), steered toward
/// `target` for 600 steps. Returns the steps that left overlaps past the slop, the
/// impacts and the slow contacts per step, the kinetic energy at the end and the deepest
/// overlap at the end (over the radius).
fn elastic_crowd(target: DVec2) -> (usize, f64, f64, f64, f64) {
    let n = 500;
    let mut scene = scenes::crowd(n, 0.3);
    for b in &mut scene.bodies {
        b.restitution = 1.0;
    }
    if let Some(arena) = &mut scene.config.arena {
        arena.restitution = 1.0;
    }
    let mut sim = scene.simulation();
    let run = common::steer_crowd_for(&mut sim, target, 600);
    let b = sim.bodies();
    let circles: Vec<_> = (0..b.len()).map(|i| (b.position(i), b.radius(i))).collect();
    let deepest = manifold::deepest_overlap(&circles) / scenes::RADIUS;
    let per_step = |k: usize| k as f64 / 600.0;
    let ke = sim.stats().kinetic_energy;
    let common::SteeredRun {
        left_steps,
        impacts,
        slow_contacts,
    } = run;
    (
        left_steps,
        per_step(impacts),
        per_step(slow_contacts),
        ke,
        deepest,
    )
}

#[test]
fn an_elastic_crowd_steered_every_step_jams_like_an_inelastic_one() {
    // Before (core, 600 steps): 5945 / 7504 impacts a step and no slow contact at the
    // centre (nudged) / against the wall, kinetic energy 3142 at the end (every circle at
    // the steering speed); now 32 / 36 impacts, 1178 / 1025 slow contacts, 0.04 / 0.11.
    let side = scenes::gas_side(500, 0.3);
    let targets = [
        ("centre", DVec2::splat(0.5 * side)),
        ("centre, nudged", DVec2::new(0.5 * side, 0.5 * side + 2e-3)),
        ("left wall", DVec2::new(0.0, 0.5 * side)),
    ];
    let slop = StepConfig::default().overlap_slop;
    for (label, target) in targets {
        let (left_steps, impacts, slow, ke, deepest) = elastic_crowd(target);
        assert_eq!(left_steps, 0, "{label}: steps that left overlaps");
        assert!(
            deepest <= 2.0 * slop,
            "{label}: deepest overlap {deepest} r"
        );
        assert!(impacts < 80.0, "{label}: {impacts} impacts a step");
        assert!(slow > 800.0, "{label}: {slow} slow contacts a step: no jam");
        assert!(ke < 1.0, "{label}: kinetic energy {ke} at the end");
    }
}

/// Two equal elastic circles of radius 0.5 at rest, no walls, stepped with `config`: `a`
/// at the origin, `b` at (`b_x`, 0). Returns the simulation and the two indices.
fn two_balls(config: StepConfig, b_x: f64) -> (Simulation, u32, u32) {
    let mut sim = Simulation::new(config);
    let mut add = |x: f64| {
        let desc = BodyDesc::new(DVec2::new(x, 0.0), 0.5, 1.0);
        sim.add_body(desc).expect("a valid circle").0
    };
    let (a, b) = (add(0.0), add(b_x));
    (sim, a, b)
}

/// Asserts the two balls of [`two_balls`] swapped exactly: `a` at rest, `b` moving at
/// `speed` along x.
fn assert_swapped(sim: &Simulation, (a, b): (u32, u32), speed: f64) {
    let v = |i: u32| sim.bodies().velocity(i as usize);
    assert!(v(a).length() < 1e-12, "a keeps {:?}", v(a));
    let off = (v(b) - DVec2::new(speed, 0.0)).length();
    assert!(off < 1e-12, "b: {:?}", v(b));
}

#[test]
fn a_steered_circle_still_bounces_elastically_on_first_contact() {
    // Steered from rest to 4 units/s, faster than the resting speed (2), 0.04 short of the
    // ball: the first contact is an exact elastic impact at t = 0.04 / 4 = 0.01 s of the
    // first step, the velocities swap, and steered again every step the circle follows
    // the ball at its speed, never closing.
    let (mut sim, a, b) = two_balls(StepConfig::default(), 1.04);
    let v = |sim: &Simulation, i: u32| sim.bodies().velocity(i as usize);
    sim.set_velocity(a, DVec2::new(4.0, 0.0));
    sim.step(scenes::DT);
    let hits: Vec<_> = sim.impacts().iter().filter(|i| !i.sensor).collect();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        (hits[0].time - 0.01).abs() < 1e-12,
        "impact at {}",
        hits[0].time
    );
    assert_swapped(&sim, (a, b), 4.0);
    for step in 1..60 {
        sim.set_velocity(a, DVec2::new(4.0, 0.0));
        sim.step(scenes::DT);
        assert_eq!(sim.stats().impacts, 0, "an impact at step {step}");
    }
    assert!((v(&sim, b) - DVec2::new(4.0, 0.0)).length() < 1e-12);
}

#[test]
fn elastic_bodies_nobody_steers_keep_their_exact_impacts() {
    // Set once (before the first step) and never again: the ball is steered in its first
    // step only, and meets the other at 1 unit/s — slower than the resting speed, where a
    // steered pair would rest — well after: an exact swap, energy kept.
    let (mut sim, a, b) = two_balls(StepConfig::default(), 3.1);
    sim.set_velocity(a, DVec2::new(1.0, 0.0));
    for _ in 0..180 {
        sim.step(scenes::DT);
    }
    assert_swapped(&sim, (a, b), 1.0);
}

#[test]
fn a_slow_steered_circle_pushes_an_elastic_ball_instead_of_knocking_it_away() {
    // The circle starts touching the ball and is steered at 1 unit/s, slower than the
    // resting speed: their pair rests, and the circle pushes the ball (momentum shared,
    // 0.5, 0.75, … → 1) without ever leaving it. Unsteered, the same start is an elastic
    // swap: the ball leaves at 1 and the circle, set to 1 again, trails it by a step's
    // travel (1/60 unit). A velocity is "set" when it changes (`Simulation::set_velocity`):
    // a circle flying at the speed it is steered to is not steered, and meets the ball
    // elastically (the test above).
    let (mut sim, a, b) = two_balls(StepConfig::default(), 1.0);
    let slop = StepConfig::default().overlap_slop * 0.5;
    for step in 0..180 {
        sim.set_velocity(a, DVec2::new(1.0, 0.0));
        sim.step(scenes::DT);
        let bodies = sim.bodies();
        let (pa, pb) = (bodies.position(a as usize), bodies.position(b as usize));
        let gap = pa.distance(pb) - 1.0;
        assert!(
            gap.abs() <= slop,
            "step {step}: gap {gap}, the ball was knocked away"
        );
        let vb = bodies.velocity(b as usize).x;
        assert!(vb <= 1.0 + 1e-12, "step {step}: the ball pushed to {vb}");
    }
    let vb = sim.bodies().velocity(b as usize);
    assert!((vb.x - 1.0).abs() < 1e-9, "b: {vb:?}");
}

#[test]
fn a_resting_speed_of_zero_keeps_even_steered_impacts_exact() {
    // The documented way out: with `resting_speed: Some(0.0)` the same start as above is
    // an exact elastic swap at t = 0, steered or not.
    let config = StepConfig {
        resting_speed: Some(0.0),
        ..StepConfig::default()
    };
    let (mut sim, a, b) = two_balls(config, 1.0);
    sim.set_velocity(a, DVec2::new(1.0, 0.0));
    sim.step(scenes::DT);
    assert_swapped(&sim, (a, b), 1.0);
}

#[test]
fn under_gravity_a_circle_walked_into_a_row_of_elastic_balls_pushes_the_row() {
    // A floor under gravity, everything elastic (restitution 1, the plugin's default): a
    // circle walked right at 1.5 units/s from 0.01 short of a row of two touching balls.
    // Gravity's resting speed is 0.33 units/s; a steered pair takes at least the one
    // without gravity (2 units/s: `StepConfig::steered_resting_speed_for`), so the circle
    // pushes the row along: its first meeting rests (momentum shared; the unsteered pair
    // of balls then meets elastically at 0.75, the cradle's limit of an unsteered pair),
    // then no impact. Under gravity's resting speed alone the circle knocked the far ball
    // off at 1.5 through the row (a cradle), met the near one again at t = 0 in the next
    // steps, and the row came apart (a gap of 0.034 at the third step).
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(circle_collide_core::Arena {
            min: DVec2::new(-5.0, -0.5),
            max: DVec2::new(100.0, 10.0),
            restitution: 1.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    let mut sim = Simulation::new(config);
    let mut add = |x: f64| {
        let desc = BodyDesc {
            restitution: 1.0,
            ..BodyDesc::new(DVec2::new(x, 0.0), 0.5, 1.0)
        };
        sim.add_body(desc).expect("a valid circle").0
    };
    let (a, b, c) = (add(0.0), add(1.01), add(2.01));
    let mut body_impacts = 0;
    for step in 0..180 {
        sim.set_velocity(a, DVec2::new(1.5, sim.bodies().velocity(a as usize).y));
        sim.step(scenes::DT);
        if step > 0 {
            body_impacts += (sim.impacts().iter())
                .filter(|i| matches!(i.other, circle_collide_core::Other::Body(_)))
                .count();
        }
        let bodies = sim.bodies();
        let x = |i: u32| bodies.position(i as usize).x;
        let speed = |i: u32| bodies.velocity(i as usize).length();
        assert!(
            speed(b).max(speed(c)) <= 1.5 + 1e-9,
            "step {step}: a ball pushed to {} / {}",
            speed(b),
            speed(c)
        );
        if step >= 2 {
            let (ab, bc) = (x(b) - x(a) - 1.0, x(c) - x(b) - 1.0);
            assert!(
                ab.abs() <= 0.01 && bc.abs() <= 0.01,
                "step {step}: gaps {ab} / {bc}, the row came apart"
            );
        }
    }
    assert_eq!(
        body_impacts, 0,
        "impacts between the circles after the first step"
    );
    let vc = sim.bodies().velocity(c as usize);
    assert!((vc.x - 1.5).abs() < 1e-6 && vc.y.abs() < 1e-6, "c: {vc:?}");
}
