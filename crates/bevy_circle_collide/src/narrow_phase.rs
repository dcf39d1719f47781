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
    if world.idle {
        return;
    }
    let start = std::time::Instant::now();
    world.sim.narrow_phase();
    world.time_phase(2, start);
}
