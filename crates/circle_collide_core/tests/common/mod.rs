//! Helpers shared by the core's integration tests.

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
