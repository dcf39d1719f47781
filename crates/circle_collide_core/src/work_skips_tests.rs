//! The per-body work a step leaves out when the world has no use for it: the spin
//! records (`Bodies::spinning`), the rest times (`Bodies::some_rest`) and the resting
//! test of the event loop's predictions (`Simulation::pairs_may_rest`). Each flag must
//! turn on whenever the work is needed — `debug_assert!`s in `resolve` and `update_sleep`
//! check that in every test — and off again when it no longer is, or the work comes back
//! for good; these tests check both ways.

use crate::{Arena, BodyDesc, Simulation, StepConfig, scenes};
use glam::DVec2;

/// A frictionless gas of 200 in its box.
fn gas() -> Simulation {
    scenes::gas(200, 0.3, 10.0).simulation()
}

fn steps(sim: &mut Simulation, n: usize) {
    for _ in 0..n {
        sim.step(scenes::DT);
    }
}

#[test]
fn a_spin_is_read_only_while_some_body_turns() {
    let mut sim = gas();
    steps(&mut sim, 30);
    assert!(!sim.bodies.spinning, "a frictionless gas never spins");
    sim.set_angular_velocity(0, 3.0);
    assert!(sim.bodies.spinning, "a spin set by the game is read");
    sim.step(scenes::DT);
    // Frictionless: nothing changes the spin, and the angle turns by ω dt exactly.
    let turned = 3.0 * scenes::DT;
    assert_eq!(sim.bodies().angular_velocity(0), 3.0);
    assert!((sim.bodies().angle(0) - turned).abs() < 1e-12);
    assert!(sim.bodies.spinning);
    sim.set_angular_velocity(0, 0.0);
    sim.step(scenes::DT);
    assert!(
        !sim.bodies.spinning,
        "no spin left: the records are skipped again"
    );
    let stays = (sim.bodies().angle(0) - turned).abs() < 1e-12;
    assert!(stays, "the angle it turned to stays");
}

#[test]
fn a_rough_impact_makes_the_world_spin() {
    let mut sim = Simulation::new(StepConfig::default());
    let rough = |x: f64, v: DVec2| {
        BodyDesc::new(DVec2::new(x, 0.0), 0.5, 1.0)
            .with_velocity(v)
            .with_friction(0.5)
    };
    // An oblique hit: the tangential impulse turns both.
    sim.add_body(rough(0.0, DVec2::new(4.0, 2.0))).unwrap();
    sim.add_body(rough(1.02, DVec2::ZERO)).unwrap();
    assert!(!sim.bodies.spinning);
    sim.step(scenes::DT);
    assert_eq!(sim.stats().impacts, 1);
    assert!(sim.bodies.spinning);
    let (w0, w1) = (
        sim.bodies().angular_velocity(0),
        sim.bodies().angular_velocity(1),
    );
    assert!(w0 != 0.0 && w0 == w1, "equal disks turn alike: {w0} {w1}");
}

#[test]
fn rest_times_are_visited_only_while_a_body_rests_or_sleeps() {
    let mut sim = gas();
    steps(&mut sim, 30);
    assert!(!sim.bodies.some_rest, "nothing rests in a gas");
    // A ball set down on a floor rests, then sleeps.
    let r = scenes::RADIUS;
    let mut sim = Simulation::new(StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(20.0))),
        ..StepConfig::default()
    });
    sim.add_body(BodyDesc::new(DVec2::new(10.0, r), r, scenes::MASS))
        .unwrap();
    steps(&mut sim, 5);
    assert!(sim.bodies.some_rest);
    assert!((sim.bodies().rest_time(0) - 5.0 * scenes::DT).abs() < 1e-12);
    steps(&mut sim, 60);
    assert!(sim.bodies().is_sleeping(0));
    // Lifted into the air it wakes and falls: no rest time left anywhere.
    sim.set_position(0, DVec2::new(10.0, 15.0));
    steps(&mut sim, 2);
    assert!(!sim.bodies().is_sleeping(0));
    assert_eq!(sim.bodies().rest_time(0), 0.0);
    assert!(
        !sim.bodies.some_rest,
        "falling, nothing rests: the loop is skipped"
    );
}

#[test]
fn only_an_elastic_gas_skips_the_resting_test() {
    let mut sim = gas();
    sim.step(scenes::DT);
    assert!(
        !sim.pairs_may_rest,
        "an elastic gas: every pair's resting speed is 0"
    );
    // One inelastic body, gravity, a steered body, a configured resting speed: each
    // gives some pair a resting speed.
    let mut scene = scenes::gas(200, 0.3, 10.0);
    scene.bodies[7].restitution = 0.9;
    let mut inelastic = scene.simulation();
    inelastic.step(scenes::DT);
    assert!(inelastic.pairs_may_rest);
    let mut falling = gas();
    falling.config.gravity = DVec2::new(0.0, -9.81);
    falling.step(scenes::DT);
    assert!(falling.pairs_may_rest);
    let mut steered = gas();
    steered.set_velocity(3, DVec2::new(1.0, 0.5));
    steered.step(scenes::DT);
    assert!(steered.pairs_may_rest);
    let mut configured = gas();
    configured.config.resting_speed = Some(0.5);
    configured.step(scenes::DT);
    assert!(configured.pairs_may_rest);
    // Steered only in the step it was set: the next one is a gas again.
    steered.step(scenes::DT);
    assert!(!steered.pairs_may_rest);
}
