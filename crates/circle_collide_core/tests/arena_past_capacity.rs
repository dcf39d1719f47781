//! An arena filled with more circles than fit, under gravity: the push-out cannot clear
//! the jam, and after the first step that stops at its work limit it works within the
//! limit without gravity (`resolve::GRAVITY_WORK_FACTOR`) instead of paying gravity's
//! eight-fold limit every step; when the circles' total area exceeds the arena's, from
//! the first step.

use circle_collide_core::resolve::GRAVITY_WORK_FACTOR;
use circle_collide_core::scenes::SplitMix64;
use circle_collide_core::{Arena, BodyDesc, Simulation, StepConfig};
use glam::DVec2;

/// `n` circles of radius 0.5 on a slightly jittered square lattice filling a square
/// arena whose area is their total area over `packing`, under gravity.
fn packed_box(n: usize, packing: f64) -> Simulation {
    let r = 0.5;
    let side = (n as f64 * std::f64::consts::PI * r * r / packing).sqrt();
    let mut sim = Simulation::new(StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(side))),
        ..StepConfig::default()
    });
    let per_row = (n as f64).sqrt().ceil() as usize;
    let spacing = side / per_row as f64;
    let mut draws = SplitMix64(42);
    for k in 0..n {
        let jitter = ((draws.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.1 * r;
        let at = DVec2::new(
            ((k % per_row) as f64 + 0.5) * spacing + jitter,
            ((k / per_row) as f64 + 0.5) * spacing,
        );
        sim.add_body(BodyDesc::new(at, r, 1.0).with_restitution(0.2))
            .unwrap();
    }
    sim
}

/// Push-out moves of one more step of `sim`, with the last step's push-out marked as
/// stopped at its limit or not.
fn moves_of_next_step(sim: &Simulation, limited_before: bool) -> (usize, Simulation) {
    let mut next = sim.clone();
    let memory = (sim.contact_memory().clone()).with_push_out_limited(limited_before);
    next.set_contact_memory(memory);
    next.step(1.0 / 60.0);
    (next.stats().overlaps_fixed, next)
}

/// At packing 0.95 equal circles cannot fit (at most 0.907 of the area, hexagonally),
/// though their total area is less than the arena's.
#[test]
fn a_box_filled_past_capacity_pays_the_larger_limit_once() {
    let mut sim = packed_box(400, 0.95);
    sim.step(1.0 / 60.0);
    assert!(sim.stats().overlaps_left > 0, "400 circles cannot fit");
    assert!(
        sim.contact_memory().push_out_limited(),
        "the first step stopped at the limit"
    );
    let (limited, after) = moves_of_next_step(&sim, true);
    let (full, _) = moves_of_next_step(&sim, false);
    assert!(
        limited * (GRAVITY_WORK_FACTOR as usize / 2) < full,
        "after a step at its limit the push-out moved {limited} times, with gravity's limit {full}"
    );
    assert!(after.contact_memory().push_out_limited(), "still jammed");
    // The walls keep the last word: every circle inside the arena (within the slop).
    let side = (400.0 * std::f64::consts::PI * 0.25_f64 / 0.95).sqrt();
    let b = after.bodies();
    for i in 0..b.len() {
        let (p, r) = (b.position(i), b.radius(i));
        assert!(p.is_finite(), "body {i} at {p}");
        let margin = r * (1.0 - 0.011);
        assert!(
            p.x >= margin && p.y >= margin && p.x <= side - margin && p.y <= side - margin,
            "body {i} at {p} left the arena of side {side}"
        );
    }
}

/// Circles whose total area is 1.5 times the arena's: no arrangement fits them, which
/// the step sees from the areas, so the first step already works within the limit
/// without gravity — about as many moves as the next (59,378 then 56,128 when this was
/// written; with gravity's limit in the first step 464,788, 8.5 times the next).
#[test]
fn a_box_whose_circles_outsize_it_takes_the_smaller_limit_from_the_first_step() {
    let mut sim = packed_box(400, 1.5);
    sim.step(1.0 / 60.0);
    let first = sim.stats().overlaps_fixed;
    sim.step(1.0 / 60.0);
    let second = sim.stats().overlaps_fixed;
    assert!(sim.stats().overlaps_left > 0, "400 circles cannot fit");
    assert!(
        first < 2 * second,
        "the first step moved {first} times, the next {second}"
    );
}

#[test]
fn a_pile_that_fits_never_marks_its_push_out_limited() {
    // The same box at half the packing: the pile lands and its push-out always clears, so
    // gravity's larger limit stays in force.
    let mut sim = packed_box(400, 0.5);
    for step in 0..180 {
        sim.step(1.0 / 60.0);
        assert_eq!(sim.stats().overlaps_left, 0, "step {step}");
        assert!(!sim.contact_memory().push_out_limited(), "step {step}");
    }
}
