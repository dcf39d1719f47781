//! Idle steps: a world that stands still, and whose inputs nobody changed, skips its step.
//!
//! A step rebuilds the core's bodies from the ECS, so even a world asleep costs the
//! gather, the write-back and the touch tracking every step (about 0.5 ms for a sleeping
//! pile of 2000). When the last step left nothing that moves
//! ([`Simulation::is_still`](circle_collide_core::Simulation::is_still)) and none of the
//! step's inputs changed since, a full step would change nothing: the step is skipped,
//! and [`CollisionDiagnostics::idle_steps`](crate::CollisionDiagnostics::idle_steps)
//! counts it. The inputs checked are every component the gather reads (by change ticks,
//! then by value: a write that leaves every value as the core holds it changes nothing,
//! one to `IgnoredCollisions` or a `CollidingEntities` added makes the next step a full
//! one), their removal (an observer), the [`CircleCollideConfig`], the [`ContactMemory`]
//! (a rollback restoring it), and [`CircleCollideWorld`] itself (the level's system and
//! the game's [`simulation_mut`](CircleCollideWorld::simulation_mut) write it). Tests
//! (`tests/idle.rs`) step an app with and without skipping through each kind of change
//! and compare them bit for bit.

use crate::body_read::{BodyQuery, Rules, describe, opted_in};
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

/// A body with a component the gather reads (see [`BodyQuery`]) added or changed since
/// the system last ran, or a [`CollidingEntities`] just added (the touch tracking fills
/// it).
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

/// The bodies [`ChangedBody`] finds, with what of them no value comparison can vouch for:
/// their ignored partners (the core keeps no list to compare with) and a
/// [`CollidingEntities`] just added (the touch tracking must fill it).
pub(crate) type ChangedItem<'a> = (
    Entity,
    Option<Ref<'a, IgnoredCollisions>>,
    Option<Ref<'a, CollidingEntities>>,
);

/// Whether this step may be skipped: skipping is on, the core stood still after the
/// last step, and nothing the step reads changed since the gather last ran — or, when the
/// last write-back changed no value, what the game wrote since leaves every value as it
/// was: every body is described as the gather would describe it and compared bit for bit
/// with the body the core would keep
/// ([`Bodies::keeps_as`](circle_collide_core::Bodies::keeps_as)) and with its opt-in to
/// targeted events. The per-body checks come last.
pub(crate) fn may_skip(
    config: &Res<CircleCollideConfig>,
    memory: &Res<ContactMemory>,
    world: &ResMut<CircleCollideWorld>,
    changed: &Query<ChangedItem, ChangedBody>,
    bodies: &Query<BodyQuery>,
) -> bool {
    config.skip_idle_steps
        && !config.is_changed()
        && world.written_tick == Some(world.last_changed())
        && world.memory_written == Some(memory.last_changed())
        && !world.lost_component
        && world.sim.is_still()
        && (changed.is_empty()
            || (!world.wrote && written_unchanged(config, world, changed, bodies)))
}

/// Whether every body would be gathered exactly as the core keeps it (see [`may_skip`]):
/// none of those `changed` finds has new ignored partners or a `CollidingEntities` just
/// added, and every body of the query, met in the order of the last gather, describes its
/// kept body and keeps its opt-in. One walk in query order, as a gather's (no look-up by
/// entity): its cost is about the gather's, where a full step costs the whole step.
fn written_unchanged(
    config: &CircleCollideConfig,
    world: &CircleCollideWorld,
    changed: &Query<ChangedItem, ChangedBody>,
    bodies: &Query<BodyQuery>,
) -> bool {
    let unvouched = changed.iter().any(|(_, ignored, colliding)| {
        ignored.is_some_and(|list| list.is_changed()) || colliding.is_some_and(|c| c.is_added())
    });
    if unvouched || bodies.iter().len() != world.gathered.len() {
        return false;
    }
    let rules = Rules::of(config, false);
    let (max_speed, core) = (world.sim.config.max_speed, world.sim.bodies());
    // `SleepState` keeps the rest time in `f32` (as the kept gather rounds it).
    let rest_time = |t: f64| f64::from(t as f32);
    let mut vacated = Vec::new();
    let mut last = world.gathered.iter().zip(&world.core_index);
    let mut same = true;
    // Internal iteration (see `kept`); once a body differs the rest are passed over.
    bodies.iter().for_each(|item| {
        let Some(((entity, opted, _), &i)) = last.next().filter(|_| same) else {
            return;
        };
        same = item.0 == *entity && i != u32::MAX && opted_in(&item) == *opted && {
            let (desc, _) = describe(&item, &rules, &mut vacated);
            vacated.is_empty()
                && (desc.sanitize(max_speed))
                    .is_ok_and(|(desc, _)| core.keeps_as(i as usize, &desc, rest_time))
        };
    });
    same
}
