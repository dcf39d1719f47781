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
