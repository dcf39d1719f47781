//! Sleeping bodies when their world changes. Asleep a body is simulated as a static one,
//! which nothing moves: a body added asleep outside the arena, or sunk into a wall beyond
//! the slop (a saved level loaded asleep, a rollback, an arena made smaller), wakes in its
//! first step and is pushed in — it used to stay outside for good; and a new gravity or
//! arena wakes every sleeping body — a sleeping stack used to hang where it was — and so
//! does sleeping turned off.

use circle_collide_core::contacts::ContactMemory;
use circle_collide_core::{Arena, BodyDesc, InputIssues, Simulation, StepConfig};
use glam::DVec2;

/// A body of radius 0.5 at `at`, added asleep.
fn asleep(at: DVec2) -> BodyDesc {
    let mut b = BodyDesc::new(at, 0.5, 1.0).with_restitution(0.0);
    b.sleeping = true;
    b
}

#[test]
fn a_body_added_asleep_in_a_wall_wakes_and_is_pushed_in() {
    for gravity in [DVec2::ZERO, DVec2::new(0.0, -9.81)] {
        let mut sim = Simulation::new(StepConfig {
            gravity,
            arena: Some(Arena::new(DVec2::ZERO, DVec2::new(20.0, 10.0))),
            ..StepConfig::default()
        });
        // Centre outside the left wall; sunk half a radius into the floor; resting on
        // the floor inside (within the slop: it stays asleep).
        let out = sim.add_body(asleep(DVec2::new(-3.0, 5.0))).unwrap().0;
        let sunk = sim.add_body(asleep(DVec2::new(10.0, 0.25))).unwrap().0;
        let inside = sim.add_body(asleep(DVec2::new(15.0, 0.5))).unwrap().0;
        sim.step(1.0 / 60.0);
        let b = sim.bodies();
        let slop = sim.config.overlap_slop * 0.5;
        assert!(!b.is_sleeping(out as usize), "gravity {gravity}");
        assert!(!b.is_sleeping(sunk as usize), "gravity {gravity}");
        assert!(b.is_sleeping(inside as usize), "gravity {gravity}");
        assert!(
            b.position(out as usize).x >= 0.5 - slop,
            "{}",
            b.position(out as usize)
        );
        assert!(
            b.position(sunk as usize).y >= 0.5 - slop,
            "{}",
            b.position(sunk as usize)
        );
        assert_eq!(b.position(inside as usize), DVec2::new(15.0, 0.5));
        // The body whose centre was outside is reported as such (the plugin logs it).
        let issues: Vec<_> = sim.step_issues().to_vec();
        assert!(
            issues.contains(&(out, InputIssues::OUTSIDE_ARENA)),
            "gravity {gravity}: {issues:?}"
        );
        assert!(
            !issues.iter().any(|&(i, _)| i == sunk || i == inside),
            "{issues:?}"
        );
    }
}

/// A stack of two asleep at `x` on the floor of a 20 × 10 box under `gravity`.
fn sleeping_stack(x: f64, gravity: DVec2) -> (Simulation, [u32; 2]) {
    let mut sim = Simulation::new(StepConfig {
        gravity,
        arena: Some(Arena::new(DVec2::ZERO, DVec2::new(20.0, 10.0))),
        ..StepConfig::default()
    });
    let low = sim.add_body(asleep(DVec2::new(x, 0.5))).unwrap().0;
    let high = sim.add_body(asleep(DVec2::new(x, 1.5))).unwrap().0;
    sim.step(1.0 / 60.0);
    assert_eq!(
        sim.stats().sleeping,
        2,
        "added asleep, and asleep after a step"
    );
    (sim, [low, high])
}

/// Gravity turned to point right and down: the stack wakes and slides to the right-hand
/// wall (4.5 units at 9.81 units/s², about 1 s; restitution 0, so it stays there); the
/// same gravity set again, or the walls' restitution changed, wakes nobody.
#[test]
fn a_sleeping_stack_slides_when_gravity_turns() {
    let (mut sim, stack) = sleeping_stack(10.0, DVec2::new(0.0, -9.81));
    sim.config.gravity = DVec2::new(0.0, -9.81);
    sim.step(1.0 / 60.0);
    assert_eq!(sim.stats().sleeping, 2, "the same gravity wakes nobody");
    for restitution in [0.5, 0.0] {
        sim.config.arena.as_mut().unwrap().restitution = restitution;
        sim.step(1.0 / 60.0);
        assert_eq!(
            sim.stats().sleeping,
            2,
            "walls of restitution {restitution}"
        );
    }
    sim.config.gravity = DVec2::new(9.81, -9.81);
    for _ in 0..120 {
        sim.step(1.0 / 60.0);
    }
    for i in stack {
        let x = sim.bodies().position(i as usize).x;
        assert!(x > 19.4, "body {i} at x = {x}, not at the wall");
    }
}

/// A rollback across a turn of gravity: the contact memory saved with the sleeping stack
/// carries the gravity and arena it rested under (`ContactMemory::surroundings`). The
/// stack restored after a step under turned gravity — its bodies added asleep again, the
/// old gravity and the saved memory set back — stays asleep, as it did in the first run:
/// the restored gravity is not new to it. Restored with the abandoned future's memory
/// instead, the same gravity is a change, and the stack wakes.
#[test]
fn a_rollback_across_a_turn_of_gravity_keeps_the_stack_asleep() {
    let (down, turned) = (DVec2::new(0.0, -9.81), DVec2::new(9.81, -9.81));
    let (mut sim, stack) = sleeping_stack(10.0, down);
    let saved = sim.contact_memory().clone();
    assert_eq!(saved.surroundings(), Some(sim.config.surroundings()));
    let bodies: Vec<BodyDesc> = (stack.iter())
        .map(|&i| asleep(sim.bodies().position(i as usize)))
        .collect();
    // The future the rollback abandons: gravity turned, the stack woke.
    sim.config.gravity = turned;
    sim.step(1.0 / 60.0);
    assert_eq!(sim.stats().sleeping, 0, "the turn woke the stack");
    let future = sim.contact_memory().clone();
    let restore = |sim: &mut Simulation, memory: ContactMemory| {
        sim.clear_bodies();
        for b in &bodies {
            sim.add_body_from(b).unwrap();
        }
        sim.config.gravity = down;
        sim.set_contact_memory(memory);
        sim.step(1.0 / 60.0);
        sim.stats().sleeping
    };
    assert_eq!(
        restore(&mut sim, saved.clone()),
        2,
        "the rollback woke the stack"
    );
    assert_eq!(
        restore(&mut sim, future),
        0,
        "the future's gravity is not a change"
    );
    // A memory that does not know its gravity (built by `ContactMemory::new`) leaves the
    // simulation its own: the turned gravity of the step before, so the stack wakes.
    sim.config.gravity = turned;
    sim.step(1.0 / 60.0);
    let unknown = saved.with_surroundings(None);
    assert_eq!(
        restore(&mut sim, unknown),
        0,
        "a memory without surroundings reset them"
    );
}

/// The left wall moved away under a stack leaning on it: under gravity pointing left and
/// down the stack sleeps against the wall at x = 0; the arena widened to x = −5 (gravity
/// unchanged), it wakes and falls to the new wall.
#[test]
fn a_sleeping_stack_follows_a_wall_moved_away() {
    let (mut sim, stack) = sleeping_stack(0.5, DVec2::new(-9.81, -9.81));
    sim.config.arena = Some(Arena::new(DVec2::new(-5.0, 0.0), DVec2::new(20.0, 10.0)));
    for _ in 0..120 {
        sim.step(1.0 / 60.0);
    }
    for i in stack {
        let x = sim.bodies().position(i as usize).x;
        assert!(x < -4.4, "body {i} at x = {x}, not at the new wall");
    }
}

/// Sleeping turned off under a sleeping stack: both balls wake in the next step and stay
/// awake, resting where they slept (within the slop); turned on again, the stack, which
/// rested all the while, falls asleep in the next step.
#[test]
fn sleeping_turned_off_wakes_every_sleeper() {
    let (mut sim, stack) = sleeping_stack(10.0, DVec2::new(0.0, -9.81));
    let before: Vec<DVec2> = stack
        .iter()
        .map(|&i| sim.bodies().position(i as usize))
        .collect();
    sim.config.sleep.enabled = false;
    for step in 0..60 {
        sim.step(1.0 / 60.0);
        assert_eq!(sim.stats().sleeping, 0, "step {step}: sleeping is off");
    }
    for (&i, &p) in stack.iter().zip(&before) {
        let moved = sim.bodies().position(i as usize).distance(p);
        assert!(moved < 0.01 * 0.5, "body {i} moved {moved}");
    }
    // Resting all along (a second, past `time_to_sleep`): asleep in the first step
    // with sleeping on again.
    sim.config.sleep.enabled = true;
    sim.step(1.0 / 60.0);
    assert_eq!(sim.stats().sleeping, 2, "asleep again");
}
