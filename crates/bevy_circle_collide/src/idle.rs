//! Idle steps: a world that stands still, and whose inputs nobody changed, skips its step.
//!
//! A step rebuilds the core's bodies from the ECS, so even a world asleep costs the
//! gather, the write-back and the touch tracking every step (about 0.5 ms for a sleeping
//! pile of 2000). When the last step left nothing that moves
//! ([`Simulation::is_still`](circle_collide_core::Simulation::is_still)) and none of the
//! step's inputs changed since, a full step would change nothing: the step is skipped,
//! and [`CollisionDiagnostics::idle_steps`](crate::CollisionDiagnostics::idle_steps)
//! counts it. The inputs checked are every component the gather reads (by change ticks:
//! a write that changes nothing still makes the next step a full one), their removal (an
//! observer), the [`CircleCollideConfig`], the [`ContactMemory`] (a rollback restoring
//! it), and [`CircleCollideWorld`] itself (the level's system and the game's
//! [`simulation_mut`](CircleCollideWorld::simulation_mut) write it). Tests
//! (`tests/idle.rs`) step an app with and without skipping through each kind of change
//! and compare them bit for bit.

use crate::components::{
    AngularVelocity, CircleCollider, CollidingEntities, CollisionEventsEnabled, CollisionLayers,
    Friction, IgnoredCollisions, Mass, MomentOfInertia, Restitution, RollingResistance, Sensor,
    Velocity,
};
use crate::config::CircleCollideConfig;
use crate::contacts::ContactMemory;
use crate::precise::PreciseMotion;
use crate::sleep::SleepState;
use crate::world::CircleCollideWorld;
use bevy::prelude::*;

/// A body with a component the gather reads (see
/// [`BodyQuery`](crate::body_read::BodyQuery)) added or changed since the system last
/// ran, or a [`CollidingEntities`] just added (the touch tracking fills it).
pub(crate) type ChangedBody = (
    With<CircleCollider>,
    Or<(
        Or<(
            Changed<CircleCollider>,
            Changed<Velocity>,
            Changed<Mass>,
            Changed<Restitution>,
            Changed<Transform>,
            Changed<CollisionEventsEnabled>,
            Changed<CollisionLayers>,
            Changed<Sensor>,
        )>,
        Or<(
            Changed<SleepState>,
            Changed<AngularVelocity>,
            Changed<Friction>,
            Changed<RollingResistance>,
            Changed<MomentOfInertia>,
            Changed<PreciseMotion>,
            Changed<IgnoredCollisions>,
            Added<CollidingEntities>,
        )>,
    )>,
);

/// The components whose removal from a body makes the next step a full one (the
/// gather's, as in [`ChangedBody`]).
type BodyComponents = (
    (
        CircleCollider,
        Velocity,
        Mass,
        Restitution,
        Transform,
        CollisionEventsEnabled,
        CollisionLayers,
        Sensor,
    ),
    (
        SleepState,
        AngularVelocity,
        Friction,
        RollingResistance,
        MomentOfInertia,
        PreciseMotion,
        IgnoredCollisions,
    ),
);

/// Notes that a body lost a component the gather reads (or was despawned): the next
/// step is a full one, and wakes the sleepers touching it
/// ([`sleeper_wakes`](crate::sleeper_wakes)). Removals are observed, not read from
/// `RemovedComponents`, whose messages may be gone before a fixed-rate schedule next
/// runs.
pub(crate) fn note_removal(
    removed: On<Remove, BodyComponents>,
    bodies: Query<(), With<CircleCollider>>,
    mut world: ResMut<CircleCollideWorld>,
) {
    if bodies.contains(removed.entity) {
        if !world.lost_component {
            world.lost_component = true;
        }
        world
            .bypass_change_detection()
            .stripped
            .push(removed.entity);
    }
}

/// Whether this step may be skipped: skipping is on, the core stood still after the
/// last step, and nothing the step reads changed since the gather last ran. The
/// per-body check (`changed`, a walk over the bodies' change ticks) comes last.
pub(crate) fn may_skip(
    config: &Res<CircleCollideConfig>,
    memory: &Res<ContactMemory>,
    world: &ResMut<CircleCollideWorld>,
    changed: &Query<(), ChangedBody>,
) -> bool {
    config.skip_idle_steps
        && !config.is_changed()
        && world.written_tick == Some(world.last_changed())
        && world.memory_written == Some(memory.last_changed())
        && !world.lost_component
        && world.sim.is_still()
        && changed.is_empty()
}
