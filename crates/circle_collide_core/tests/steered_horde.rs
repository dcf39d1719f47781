//! A side-view horde under gravity: the jittered pile of DESIGN §5 whose circles the game
//! walks left at 4 units/s every step (horizontal velocity set, vertical kept), so they
//! pile up against the left wall. Under gravity the engine had none of the tools that
//! hold a steered jam without gravity: every circle hit its neighbours and the wall
//! anew each step (impacts were remembered without gravity only), the push-out lifted
//! the upper circle of pairs pressed sideways, and the passes could not carry the push
//! across the horde — ~16,000 impacts a step for 500 circles, the impact cap in most
//! steps, overlaps left in every step. Now the pairs of steered bodies are remembered and
//! kept as under no gravity, and a solve that is mostly steered (`Simulation::is_steered_jam`)
//! is solved and pushed out as a jam without gravity is.

use circle_collide_core::{StepConfig, manifold, scenes};
use glam::DVec2;

/// What [`walk_left`] measured.
struct Walk {
    /// Steps that left overlaps past the slop.
    left_steps: usize,
    /// Impacts per step over the last 300 steps.
    late_impacts: f64,
    /// Impacts per step over all 600 steps (the horde forming included).
    impacts: f64,
    /// The most impacts in one step.
    most_in_a_step: usize,
    /// Kinetic energy at the end.
    ke: f64,
    /// The deepest overlap at the end, over the radius.
    deepest: f64,
    /// Circles that ended outside the arena.
    outside: usize,
}

/// The pile of `n` at restitution `e` (circles and walls), walked left for 600 steps.
fn walk_left(n: usize, e: f64) -> Walk {
    let mut scene = scenes::pile(n);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    let arena = scene.config.arena.as_mut().expect("the pile has walls");
    arena.restitution = e;
    let (min, max) = (arena.min, arena.max);
    let mut sim = scene.simulation();
    let (mut left_steps, mut late, mut all, mut most) = (0, 0, 0, 0);
    for step in 0..600 {
        for i in 0..sim.bodies().len() {
            let v = sim.bodies().velocity(i);
            sim.set_velocity(i as u32, DVec2::new(-scenes::CROWD_SPEED, v.y));
        }
        sim.step(scenes::DT);
        assert!(!sim.stats().fallback, "n {n}, e {e}: step {step} fell back");
        let stats = sim.stats();
        left_steps += usize::from(stats.overlaps_left > 0);
        (all, most) = (all + stats.impacts, most.max(stats.impacts));
        if step >= 300 {
            late += stats.impacts;
        }
    }
    let b = sim.bodies();
    let circles: Vec<_> = (0..b.len()).map(|i| (b.position(i), b.radius(i))).collect();
    let deepest = manifold::deepest_overlap(&circles) / scenes::RADIUS;
    let slop = StepConfig::default().overlap_slop * scenes::RADIUS;
    let outside = (circles.iter())
        .filter(|(p, r)| {
            let (lo, hi) = (min + DVec2::splat(r - slop), max - DVec2::splat(r - slop));
            p.x < lo.x || p.y < lo.y || p.x > hi.x || p.y > hi.y
        })
        .count();
    Walk {
        left_steps,
        late_impacts: late as f64 / 300.0,
        impacts: all as f64 / 600.0,
        most_in_a_step: most,
        ke: sim.stats().kinetic_energy,
        deepest,
        outside,
    }
}

#[test]
fn a_horde_walked_into_a_wall_under_gravity_jams_within_the_slop() {
    let slop = StepConfig::default().overlap_slop;
    // Before (core, 600 steps): the impact cap in most steps, overlaps left past the slop
    // in nearly every step, 16,000 impacts a step (500) and 22,000 (700), kinetic energy
    // 739 / 1480 / 15,539 at the end. With the steered pairs kept and the jam solved as
    // without gravity (twenty-second session): 264 / 362 / 699 impacts a step over the
    // 600 steps, up to 4643 / 4837 / 6736 in one step while the horde forms (steered
    // neighbours meeting between gravity's resting speed, 0.33 units/s, and their walking
    // speed bounced off each other). With a steered pair's resting speed at least the one
    // without gravity (2 units/s): 39 / 48 / 152 a step, at most 217 / 285 / 1876; over
    // the last 300 steps 21 / 26 / 21, at most 1 step leaving overlaps, kinetic energy
    // 0.01 / 0.06 / 10 (the elastic horde still stirred by its steering).
    for (n, e, most_late, most_all, most_in_a_step) in [
        (500, 0.2, 60.0, 100.0, 1000),
        (700, 0.2, 60.0, 120.0, 1000),
        (500, 1.0, 200.0, 350.0, 3500),
    ] {
        let walk = walk_left(n, e);
        let label = format!("horde of {n}, restitution {e}");
        assert!(
            walk.left_steps <= 5,
            "{label}: {} steps left overlaps",
            walk.left_steps
        );
        assert!(
            walk.late_impacts < most_late,
            "{label}: {} impacts a step late",
            walk.late_impacts
        );
        assert!(
            walk.impacts < most_all && walk.most_in_a_step < most_in_a_step,
            "{label}: {} impacts a step, {} in one",
            walk.impacts,
            walk.most_in_a_step
        );
        assert!(
            walk.ke < 20.0,
            "{label}: kinetic energy {} at the end",
            walk.ke
        );
        assert!(
            walk.deepest <= 2.0 * slop,
            "{label}: deepest overlap {} r",
            walk.deepest
        );
        assert_eq!(walk.outside, 0, "{label}: circles outside the arena");
    }
}
