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

/// The pile of `n` at restitution `e` (circles and walls), walked left for 600 steps.
/// Returns the steps that left overlaps past the slop, the impacts per step over the last
/// 300 steps, the kinetic energy at the end, the deepest overlap at the end (over the
/// radius) and how many circles ended outside the arena.
fn walk_left(n: usize, e: f64) -> (usize, f64, f64, f64, usize) {
    let mut scene = scenes::pile(n);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    let arena = scene.config.arena.as_mut().expect("the pile has walls");
    arena.restitution = e;
    let (min, max) = (arena.min, arena.max);
    let mut sim = scene.simulation();
    let (mut left_steps, mut impacts) = (0, 0);
    for step in 0..600 {
        for i in 0..sim.bodies().len() {
            let v = sim.bodies().velocity(i);
            sim.set_velocity(i as u32, DVec2::new(-scenes::CROWD_SPEED, v.y));
        }
        sim.step(scenes::DT);
        assert!(!sim.stats().fallback, "n {n}, e {e}: step {step} fell back");
        left_steps += usize::from(sim.stats().overlaps_left > 0);
        if step >= 300 {
            impacts += sim.stats().impacts;
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
    let ke = sim.stats().kinetic_energy;
    (left_steps, impacts as f64 / 300.0, ke, deepest, outside)
}

#[test]
fn a_horde_walked_into_a_wall_under_gravity_jams_within_the_slop() {
    let slop = StepConfig::default().overlap_slop;
    // Before (core, 600 steps): the impact cap in most steps, overlaps left past the slop
    // in nearly every step, 16,000 impacts a step (500) and 22,000 (700), kinetic energy
    // 739 / 1480 / 15,539 at the end. Now 21 / 26 / 100 impacts a step over the last 300
    // steps (the elastic horde still settling), at most 2 steps leaving overlaps, kinetic
    // energy 0.7 / 1.1 / 2.6.
    for (n, e, most_impacts) in [(500, 0.2, 60.0), (700, 0.2, 60.0), (500, 1.0, 200.0)] {
        let (left_steps, impacts, ke, deepest, outside) = walk_left(n, e);
        let label = format!("horde of {n}, restitution {e}");
        assert!(left_steps <= 5, "{label}: {left_steps} steps left overlaps");
        assert!(impacts < most_impacts, "{label}: {impacts} impacts a step");
        assert!(ke < 20.0, "{label}: kinetic energy {ke} at the end");
        assert!(
            deepest <= 2.0 * slop,
            "{label}: deepest overlap {deepest} r"
        );
        assert_eq!(outside, 0, "{label}: circles outside the arena");
    }
}
