//! Helpers shared by the core's integration tests (each test uses some of them).
#![allow(dead_code)]

use circle_collide_core::scenes::Scene;
use circle_collide_core::{BodyDesc, Simulation, StepConfig};

/// A simulation of `bodies` under `config`, built the way every scene is.
pub fn sim_with(bodies: &[BodyDesc], config: StepConfig) -> Simulation {
    Scene {
        bodies: bodies.to_vec(),
        config,
    }
    .simulation()
}

/// A small deterministic generator for the tests' random cases (no dependency).
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)` with 53 bits.
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in the square `[−scale, scale)²`.
    pub fn vec(&mut self, scale: f64) -> glam::DVec2 {
        glam::DVec2::new(self.range(-scale, scale), self.range(-scale, scale))
    }
}

/// Totals of [`steer_crowd_for`]: over all its steps.
pub struct SteeredRun {
    /// Steps that left overlaps past the slop.
    pub left_steps: usize,
    /// Impacts.
    pub impacts: usize,
    /// Contacts of the contact solver.
    pub slow_contacts: usize,
}

/// Steers the crowd of `sim` toward `target` before each of `steps` steps (DESIGN §5's
/// steering, `scenes::steer_crowd`), asserting that no step falls back.
pub fn steer_crowd_for(sim: &mut Simulation, target: glam::DVec2, steps: usize) -> SteeredRun {
    use circle_collide_core::scenes;
    let mut run = SteeredRun {
        left_steps: 0,
        impacts: 0,
        slow_contacts: 0,
    };
    for step in 0..steps {
        scenes::steer_crowd(sim, target);
        sim.step(scenes::DT);
        let stats = sim.stats();
        assert!(!stats.fallback, "step {step} fell back");
        run.left_steps += usize::from(stats.overlaps_left > 0);
        run.impacts += stats.impacts;
        run.slow_contacts += stats.resting_contacts;
    }
    run
}

/// Steps `sim` (a pile of `n` bodies that has just fallen asleep entirely) `steps` steps
/// more, asserting that nothing moves or carries kinetic energy, then that no pair
/// overlaps deeper than the slop (of the standard radius).
pub fn assert_stays_settled(sim: &mut Simulation, n: usize, steps: usize) {
    use circle_collide_core::scenes;
    use glam::DVec2;
    let before: Vec<DVec2> = sim.bodies().positions().collect();
    for later in 1..=steps {
        sim.step(scenes::DT);
        let ke = sim.stats().kinetic_energy;
        assert_eq!(ke, 0.0, "pile {n}: {later} steps after falling asleep");
    }
    let after: Vec<DVec2> = sim.bodies().positions().collect();
    assert_eq!(after, before, "pile {n} moved while asleep");
    let b = sim.bodies();
    let circles: Vec<(DVec2, f64)> = b.positions().zip(b.radii()).collect();
    let deepest = circle_collide_core::manifold::deepest_overlap(&circles);
    let slop = sim.config.overlap_slop * scenes::RADIUS;
    assert!(deepest <= slop + 1e-12, "pile {n}: overlap {deepest}");
}
