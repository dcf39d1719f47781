//! Phase 2: candidate pairs from the core's spatial grid.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

/// Runs the core's broad phase.
pub(crate) fn broad_phase(mut world: ResMut<CircleCollideWorld>) {
    let start = std::time::Instant::now();
    world.sim.broad_phase();
    world.time_phase(1, start);
}
