//! Without gravity (and under gravity in a world where the game steers a body or moves a
//! kinematic one) a pair that pressed last step and whose gap has opened a little past
//! the slop stays in the contact solver (`contacts::KEEP_GAP`): it may close by its gap
//! over the step and no further, it never holds apart bodies that would not meet, and an
//! elastic pair closing fast is still an exact impact.

mod common;

use circle_collide_core::contacts::{ContactMemory, KEEP_GAP, KeptContact, Partner};
use circle_collide_core::{BodyDesc, Other, Simulation, StepConfig, scenes};
use glam::DVec2;

/// Slop of these worlds, in radii (the default).
const SLOP: f64 = 0.01;

/// Two unit-mass circles of radius 0.5 (keys 1 and 2, restitution `e`) on the x axis
/// with a gap of `gap` between them, A moving at `speed` toward B at rest; with
/// `pressed`, the contact memory says they pressed last step with an impulse of 1.
fn pair(gap: f64, speed: f64, e: f64, pressed: bool) -> Simulation {
    let config = StepConfig {
        overlap_slop: SLOP,
        ..StepConfig::default()
    };
    let ball = |x: f64, v: f64, key: u64| {
        BodyDesc::new(DVec2::new(x, 0.0), 0.5, 1.0)
            .with_velocity(DVec2::new(v, 0.0))
            .with_restitution(e)
            .with_key(key)
    };
    let mut sim = common::sim_with(&[ball(0.0, speed, 1), ball(1.0 + gap, 0.0, 2)], config);
    if pressed {
        let kept = KeptContact::new(1, Partner::Body(2), 1.0);
        sim.set_contact_memory(ContactMemory::new(vec![kept]));
    }
    sim
}

fn state(sim: &Simulation) -> (Vec<DVec2>, Vec<DVec2>) {
    let b = sim.bodies();
    (b.positions().collect(), b.velocities().collect())
}

#[test]
fn a_gap_contact_closing_slower_than_its_gap_allows_moves_freely() {
    // Gap 0.1 r (past the slop, within KEEP_GAP); 1 unit/s closes 0.0167 of 0.045.
    let (gap, v) = (0.05, 1.0);
    assert!(gap < KEEP_GAP * 0.5 && gap > SLOP * 0.5);
    let mut sim = pair(gap, v, 0.2, true);
    sim.step(scenes::DT);
    let (p, u) = state(&sim);
    assert!((u[0].x - v).abs() < 1e-12 && u[1].x.abs() < 1e-12, "{u:?}");
    assert!((p[0].x - v * scenes::DT).abs() < 1e-12, "{p:?}");
    assert_eq!(p[1].x, 1.0 + gap);
    assert!(sim.impacts().is_empty());
}

#[test]
fn a_gap_contact_closing_faster_than_its_gap_allows_stops_at_the_slop() {
    // The gap allows (0.05 − 0.005) / dt = 2.7 units/s; A comes at 4, B at rest: the
    // solver takes 1.3 of closing away, shared equally (A 3.35, B 0.65), and the pair
    // ends the step at the slop, not overlapping, with no impact (to the 16 passes'
    // convergence: over-relaxed at 1.4, one row's error shrinks 0.4× a pass).
    let (gap, v) = (0.05, 4.0);
    let allowed = (gap - SLOP * 0.5) / scenes::DT;
    let mut sim = pair(gap, v, 0.2, true);
    sim.step(scenes::DT);
    let (p, u) = state(&sim);
    let excess = v - allowed;
    assert!((u[0].x - (v - 0.5 * excess)).abs() < 1e-6, "{u:?}");
    assert!((u[1].x - 0.5 * excess).abs() < 1e-6, "{u:?}");
    let end_gap = p[1].x - p[0].x - 1.0;
    assert!(
        (end_gap - SLOP * 0.5).abs() < 1e-7,
        "gap at the end {end_gap}"
    );
    assert!(sim.impacts().is_empty(), "{:?}", sim.impacts());
    assert!((u[0].x + u[1].x - v).abs() < 1e-12, "momentum");
}

#[test]
fn without_last_steps_press_the_pair_meets_as_an_exact_impact() {
    // No remembered press: A at 4 (faster than the resting speed, 2) meets B within the
    // step, an exact binary impact at restitution 0.2: A keeps 1.6, B takes 2.4.
    let mut sim = pair(0.05, 4.0, 0.2, false);
    sim.step(scenes::DT);
    let (_, u) = state(&sim);
    assert!(
        (u[0].x - 1.6).abs() < 1e-12 && (u[1].x - 2.4).abs() < 1e-12,
        "{u:?}"
    );
    assert_eq!(sim.impacts().len(), 1);
}

#[test]
fn past_keep_gap_a_pressed_pair_is_no_contact() {
    // Gap 0.24 r, wider than KEEP_GAP: the remembered press is dropped, and A, which
    // does not reach B within the step, flies on untouched.
    let gap = 0.5 * KEEP_GAP + 0.02;
    let mut sim = pair(gap, 4.0, 0.2, true);
    sim.step(scenes::DT);
    let (p, u) = state(&sim);
    assert!(4.0 * scenes::DT < gap);
    assert!((u[0].x - 4.0).abs() < 1e-12 && u[1].x == 0.0, "{u:?}");
    assert!((p[0].x - 4.0 * scenes::DT).abs() < 1e-12, "{p:?}");
    assert!(sim.contact_memory().is_empty());
}

#[test]
fn an_elastic_gap_pair_closing_fast_is_still_an_exact_impact() {
    // Restitution 1 under the default resting speed: never a pressing contact. A at 10
    // meets B within the step: the velocities swap exactly, energy kept.
    let mut sim = pair(0.05, 10.0, 1.0, true);
    sim.step(scenes::DT);
    let (_, u) = state(&sim);
    assert!(
        u[0].x.abs() < 1e-12 && (u[1].x - 10.0).abs() < 1e-12,
        "{u:?}"
    );
    assert_eq!(sim.impacts().len(), 1);
}

/// Who drives a body in [`crates_under_gravity`]'s world.
#[derive(Clone, Copy)]
enum Driver {
    Nobody,
    /// A body in the air the game steers, as it does a walker.
    Steered,
    /// A kinematic body in the air moving at 1 unit/s, as a paddle or a platform.
    Kinematic,
    /// The same kinematic body as a sensor (a moving trigger zone): it drives nothing.
    KinematicSensor,
}

/// Under gravity: two crates (keys 1, 2) on the floor of a 10 × 10 box, a gap of 0.05
/// (0.1 r) between them, that pressed last step; A slides at 4 units/s toward B at rest,
/// no friction. A third body in the air touches nothing, driven by `driver`. Returns the
/// crates' velocities after one step and the impacts between them (time, impulse).
fn crates_under_gravity(driver: Driver) -> ([DVec2; 2], Vec<(f64, f64)>) {
    let config = StepConfig {
        overlap_slop: SLOP,
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(circle_collide_core::Arena::new(
            DVec2::ZERO,
            DVec2::splat(10.0),
        )),
        ..StepConfig::default()
    };
    let crate_at = |x: f64, v: f64, key: u64| {
        BodyDesc::new(DVec2::new(x, 0.5), 0.5, 1.0)
            .with_velocity(DVec2::new(v, 0.0))
            .with_restitution(0.2)
            .with_key(key)
    };
    let mut third = BodyDesc::new(DVec2::new(8.0, 6.0), 0.5, 1.0).with_key(3);
    match driver {
        Driver::Nobody => {}
        Driver::Steered => third.steered = true,
        Driver::Kinematic | Driver::KinematicSensor => {
            third = BodyDesc::new(DVec2::new(8.0, 6.0), 0.5, f64::INFINITY)
                .with_velocity(DVec2::new(1.0, 0.0))
                .with_sensor(matches!(driver, Driver::KinematicSensor))
                .with_key(3);
        }
    }
    let bodies = [crate_at(2.0, 4.0, 1), crate_at(3.05, 0.0, 2), third];
    let mut sim = common::sim_with(&bodies, config);
    let kept = KeptContact::new(1, Partner::Body(2), 1.0);
    sim.set_contact_memory(ContactMemory::new(vec![kept]));
    sim.step(scenes::DT);
    let u = sim.bodies().velocities().collect::<Vec<_>>();
    let between = (sim.impacts().iter())
        .filter(|i| i.a == 0 && i.other == Other::Body(1))
        .map(|i| (i.time, i.impulse))
        .collect();
    ([u[0], u[1]], between)
}

#[test]
fn under_gravity_a_driven_world_keeps_every_pressed_pairs_gap() {
    // A steered or a moving kinematic body anywhere: the crates' pair is a gap contact,
    // as without gravity. The gap allows (0.05 − 0.005) / dt = 2.7 units/s; the solver
    // takes the other 1.3 away, shared equally (A 3.35, B 0.65), and reports its impulse
    // (0.65: more than the resting speed's change) as the step's one event between them,
    // at time 0.
    let excess = 4.0 - (0.05 - SLOP * 0.5) / scenes::DT;
    for driver in [Driver::Steered, Driver::Kinematic] {
        let ([a, b], between) = crates_under_gravity(driver);
        assert!((a.x - (4.0 - 0.5 * excess)).abs() < 1e-6, "{a:?}");
        assert!((b.x - 0.5 * excess).abs() < 1e-6, "{b:?}");
        assert_eq!(between.len(), 1, "{between:?}");
        assert!(between[0].0 == 0.0 && (between[0].1 - 0.5 * excess).abs() < 1e-6);
    }
    // Nobody driven (a moving sensor drives nothing): the pile's rule, an exact binary
    // impact at restitution 0.2 inside the step (A keeps 1.6, B takes 2.4) once A has
    // closed the gap.
    for driver in [Driver::Nobody, Driver::KinematicSensor] {
        let ([a, b], between) = crates_under_gravity(driver);
        assert!(
            (a.x - 1.6).abs() < 1e-12 && (b.x - 2.4).abs() < 1e-12,
            "{a:?} {b:?}"
        );
        assert_eq!(between.len(), 1, "{between:?}");
        assert!((between[0].0 - 0.05 / 4.0).abs() < 1e-12 && (between[0].1 - 2.4).abs() < 1e-12);
    }
}
