//! Phase 4: exact times of impact, handled in time order inside the step.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

/// Runs the core's in-step event loop.
pub(crate) fn time_of_impact(mut world: ResMut<CircleCollideWorld>) {
    let start = std::time::Instant::now();
    world.sim.solve_impacts();
    world.time_phase(3, start);
}
