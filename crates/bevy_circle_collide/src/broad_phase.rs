//! Phase 2: candidate pairs from the core's spatial grid.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

crate::schedule::phase_plugin!(
    /// Phase 2: candidate pairs from the spatial grid.
    BroadPhasePlugin,
    crate::CircleCollideSystems::BroadPhase,
    broad_phase
);

/// Runs the core's broad phase.
pub(crate) fn broad_phase(
    _main: crate::schedule::MainThread,
    mut world: ResMut<CircleCollideWorld>,
) {
    crate::world::run_phase(&mut world, 1, circle_collide_core::Simulation::broad_phase);
}
