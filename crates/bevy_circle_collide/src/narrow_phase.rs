//! Phase 3: overlap manifolds of the pairs touching at the start of the step.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

/// Runs the core's narrow phase.
pub(crate) fn narrow_phase(mut world: ResMut<CircleCollideWorld>) {
    let start = std::time::Instant::now();
    world.sim.narrow_phase();
    world.time_phase(2, start);
}
