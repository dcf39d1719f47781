//! Phase 4: exact times of impact, handled in time order inside the step.

use crate::world::CircleCollideWorld;
use bevy::prelude::*;

crate::schedule::phase_plugin!(
    /// Phase 4: contact solver, exact times of impact and the in-step event loop.
    TimeOfImpactPlugin,
    crate::CircleCollideSystems::TimeOfImpact,
    time_of_impact
);

/// Runs the core's in-step event loop.
pub(crate) fn time_of_impact(
    _main: crate::schedule::MainThread,
    mut world: ResMut<CircleCollideWorld>,
) {
    crate::world::run_phase(
        &mut world,
        3,
        circle_collide_core::Simulation::solve_impacts,
    );
}
