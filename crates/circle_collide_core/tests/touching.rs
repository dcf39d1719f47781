//! Which pairs count as touching at the end of a step: every pair within the slop, the
//! same whether the step listed its pairs from swept paths or anew at the end.

mod common;

use circle_collide_core::{BodyDesc, StepConfig};
use common::sim_with;
use glam::DVec2;

const R: f64 = 0.5;
const DT: f64 = 1.0 / 60.0;

/// Bodies A and B side by side on the x axis with `gap` between their surfaces, both
/// moving at `speed` along +x.
fn pair(gap: f64, speed: f64) -> [BodyDesc; 2] {
    let v = DVec2::new(speed, 0.0);
    [
        BodyDesc::new(DVec2::ZERO, R, 1.0).with_velocity(v),
        BodyDesc::new(DVec2::new(2.0 * R + gap, 0.0), R, 1.0).with_velocity(v),
    ]
}

#[test]
fn a_resting_pair_counts_as_touching_exactly_within_the_slop() {
    let slop = StepConfig::default().overlap_slop * R;
    for (gap, touching) in [
        (0.0, true),
        (0.5 * slop, true),
        (0.99 * slop, true),
        (1.5 * slop, false),
    ] {
        let mut sim = sim_with(&pair(gap, 0.0), StepConfig::default());
        sim.step(DT);
        assert_eq!(
            sim.touching_pairs().contains(&(0, 1)),
            touching,
            "gap {gap}: {:?}",
            sim.touching_pairs()
        );
    }
}

#[test]
fn a_pair_moving_together_stays_touching_through_a_fallback_step() {
    // A ball rattling at 300 units/s in a 0.02-wide slot between two static circles
    // bounces about 250 times a step: past the cap of 4 per body + 64, the first step
    // falls back and lists its pairs anew at the end. A and B, 0.5 slop apart and moving
    // together, touch within the slop all along.
    let gap = 0.5 * StepConfig::default().overlap_slop * R;
    let [a, b] = pair(gap, 1.0);
    let far = DVec2::new(0.0, 10.0);
    let rattler = [
        BodyDesc::new(far, R, f64::INFINITY),
        BodyDesc::new(far + DVec2::new(2.0 * R + 0.01, 0.0), R, 1.0)
            .with_velocity(DVec2::new(300.0, 0.0)),
        BodyDesc::new(far + DVec2::new(4.0 * R + 0.02, 0.0), R, f64::INFINITY),
    ];
    let config = StepConfig {
        max_impacts_per_body: 4,
        ..Default::default()
    };
    let mut sim = sim_with(&[a, b, rattler[0], rattler[1], rattler[2]], config);
    let mut fallbacks = 0;
    for step in 0..4 {
        sim.step(DT);
        fallbacks += usize::from(sim.stats().fallback);
        assert!(
            sim.touching_pairs().contains(&(0, 1)),
            "step {step} (fallback {}): {:?}",
            sim.stats().fallback,
            sim.touching_pairs()
        );
    }
    assert!(fallbacks >= 1, "the rattler must force a fallback");
    let gap_now = sim.bodies().position(1).x - sim.bodies().position(0).x - 2.0 * R;
    assert!(
        (gap_now - gap).abs() < 1e-12,
        "A and B never met: {gap_now}"
    );
}
