//! Without gravity the default resting speed is each pair's own: four radii per second
//! of its smaller circle (never less than of the world's smallest). A tiny circle
//! somewhere used to set it for every pair, so a steered crowd with one circle of a
//! fiftieth of its radius in it handled its slow contacts as exact impacts (core, crowd
//! of 2000: 39 → 7215 impacts a step, 1.1 → 5.1 ms).

use circle_collide_core::{BodyDesc, Other, Simulation, StepConfig};
use glam::DVec2;

/// A circle at `x` on the x axis, of radius `r` and mass 1, moving at `vx`, restitution 0.2.
fn body(x: f64, r: f64, vx: f64) -> BodyDesc {
    BodyDesc::new(DVec2::new(x, 0.0), r, 1.0)
        .with_velocity(DVec2::new(vx, 0.0))
        .with_restitution(0.2)
}

/// Asserts that circles `a` and `b` (equal masses, one at 1 unit/s) left the step at their
/// mean velocity, 0.5, as a slow contact does (to the solver's convergence; as an impact
/// at restitution 0.2 they would leave at 0.4 and 0.6).
fn assert_slow_contact(sim: &Simulation, a: u32, b: u32, case: &str) {
    let v = |i: u32| sim.bodies().velocity(i as usize).x;
    assert!(
        (v(a) - 0.5).abs() < 1e-6 && (v(b) - 0.5).abs() < 1e-6,
        "{case}: {} {}",
        v(a),
        v(b)
    );
}

#[test]
fn a_tiny_circle_leaves_other_pairs_slow_contacts_alone() {
    let mut sim = Simulation::new(StepConfig::default());
    // Two circles of radius 0.5 touching and closing at 1 unit/s, below their pair's
    // resting speed (2 units/s): a slow contact, solved without a bounce.
    let a = sim.add_body(body(0.0, 0.5, 1.0)).unwrap().0;
    let b = sim.add_body(body(1.0, 0.5, 0.0)).unwrap().0;
    // Far away, a circle of radius 0.01 touching one of radius 0.5, closing at 1 unit/s:
    // above their pair's resting speed (0.04 units/s), an exact impact at restitution 0.2.
    let tiny = sim.add_body(body(20.0, 0.01, 1.0)).unwrap().0;
    let big = sim.add_body(body(20.51, 0.5, 0.0)).unwrap().0;
    sim.step(1.0 / 60.0);
    assert_slow_contact(&sim, a, b, "beside a tiny circle");
    // The impact exchanges (1 ± e) / 2 of the velocity exactly.
    let v = |i: u32| sim.bodies().velocity(i as usize).x;
    assert!((v(tiny) - 0.4).abs() < 1e-12, "{}", v(tiny));
    assert!((v(big) - 0.6).abs() < 1e-12, "{}", v(big));
    let impacts: Vec<_> = (sim.impacts().iter())
        .map(|i| (i.a, i.other, i.resting))
        .collect();
    assert_eq!(impacts, [(tiny, Other::Body(big), false)]);
}

#[test]
fn a_tiny_circle_leaves_steered_pairs_slow_contacts_alone() {
    // The same with the game steering the two circles of radius 0.5 (their pair takes the
    // steered resting speed), with gravity and without: 1 unit/s is below four of their
    // radii per second either way.
    for gravity in [DVec2::ZERO, DVec2::new(0.0, -9.81)] {
        let mut sim = Simulation::new(StepConfig {
            gravity,
            ..StepConfig::default()
        });
        let steered = |x: f64, vx: f64| {
            let mut b = body(x, 0.5, vx);
            b.steered = true;
            b
        };
        let a = sim.add_body(steered(0.0, 1.0)).unwrap().0;
        let b = sim.add_body(steered(1.0, 0.0)).unwrap().0;
        sim.add_body(body(20.0, 0.01, 0.0)).unwrap();
        sim.step(1.0 / 60.0);
        assert_slow_contact(&sim, a, b, &format!("steered, gravity {gravity}"));
        assert!(sim.impacts().is_empty(), "gravity {gravity}");
    }
}
