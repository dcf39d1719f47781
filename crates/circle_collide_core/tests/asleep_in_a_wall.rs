//! A body added asleep outside the arena, or sunk into a wall beyond the slop, wakes in
//! its first step and is pushed in (a saved level loaded asleep, a rollback, an arena
//! made smaller). Asleep it is simulated as a static body, which the push-out leaves
//! where it is: it used to stay outside for good.

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
