//! Phase 3: overlap manifolds of the pairs touching at the start of the step.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

crate::schedule::phase_plugin!(
    /// Phase 3: overlap manifolds of touching pairs.
    NarrowPhasePlugin,
    crate::CircleCollideSystems::NarrowPhase,
    narrow_phase
);

/// Runs the core's narrow phase.
pub(crate) fn narrow_phase(
    _main: crate::schedule::MainThread,
    mut world: ResMut<CircleCollideWorld>,
) {
    crate::world::run_phase(&mut world, 2, circle_collide_core::Simulation::narrow_phase);
}
