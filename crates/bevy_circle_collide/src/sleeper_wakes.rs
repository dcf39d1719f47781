//! Sleeping bodies that wake because something under or beside them changed in a way
//! their positions do not show: a body resized, or given other collision layers, another
//! mass, friction, rolling resistance, moment of inertia or ignored partners, made a
//! sensor or no longer one, or stripped of one of those components. Asleep, a body is
//! held like a static one: a ball resting on a body that stops colliding with it (its
//! layers changed) would hang in the air, a ball held on a slope by friction set to zero
//! would stay put.
//!
//! Such a body, asleep or not, wakes the sleeping bodies touching its place in the last
//! step, itself included (a property written again as it was wakes nobody: a game may
//! write them every frame)
//! ([`Simulation::wake_around`](circle_collide_core::Simulation::wake_around)); a resized
//! body's new circle then wakes what it reaches as any sleeper's or awake body's touch.
//! A body spawned since the last step wakes nobody (a level loaded asleep stays asleep),
//! and a rollback's restored components wake nobody either (the restored
//! [`ContactMemory`](crate::ContactMemory) cancels the wakes).

use crate::body_read::{BodyQuery, Rules, describe};
use crate::components::{
    CircleCollider, CollisionLayers, Friction, IgnoredCollisions, Mass, MomentOfInertia,
    RollingResistance, Sensor,
};
use crate::world::CircleCollideWorld;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Bodies whose collision-relevant components other than the collider's size were
/// written since the system last ran (added to a body that already had a collider
/// included).
pub(crate) type Retuned = (
    With<CircleCollider>,
    Or<(
        Changed<CollisionLayers>,
        Changed<Sensor>,
        Changed<Mass>,
        Changed<Friction>,
        Changed<RollingResistance>,
        Changed<MomentOfInertia>,
        Changed<IgnoredCollisions>,
    )>,
);

/// Wakes the sleeping bodies touching the last place of each body resized (not just
/// spawned, nor written with the radius it had), retuned ([`Retuned`]) or stripped of a
/// component since the last step (`world.stripped`, noted by
/// [`note_removal`](crate::idle::note_removal)). The
/// retuned bodies are looked for only when the last step left sleepers, and a body
/// retuned to the very properties it had (a game writing its `Mass`, `Friction`, …
/// again every frame: bits compared, through
/// [`Bodies::holds_properties`](circle_collide_core::Bodies::holds_properties)) wakes
/// nobody; a written [`IgnoredCollisions`] always wakes.
pub(crate) fn wake_around_changed(
    world: &mut CircleCollideWorld,
    resized: &Query<(Entity, Ref<CircleCollider>), Changed<CircleCollider>>,
    retuned: &Query<(Entity, Option<Ref<IgnoredCollisions>>), Retuned>,
    bodies: &Query<BodyQuery>,
    rules: &Rules,
) {
    let mut changed: Vec<Entity> = std::mem::take(&mut world.stripped);
    // Colliders written since (not just added: a spawn wakes nobody).
    let mut rewritten = resized.iter().filter(|(_, c)| !c.is_added()).peekable();
    let some_retuned = world.sim.stats().sleeping > 0 && !retuned.is_empty();
    if !changed.is_empty() || rewritten.peek().is_some() || some_retuned {
        let last: HashMap<Entity, usize> = (world.entities.iter().enumerate())
            .map(|(i, e)| (*e, i))
            .collect();
        // A collider written with the radius it had resizes nothing.
        let b = world.sim.bodies();
        let same = |i: usize, radius: f32| f64::from(radius).to_bits() == b.radius(i).to_bits();
        changed.extend(
            rewritten
                .filter(|(e, c)| !last.get(e).is_some_and(|&i| same(i, c.radius)))
                .map(|(e, _)| e),
        );
        if some_retuned {
            let max_speed = world.sim.config.max_speed;
            let mut vacated = Vec::new();
            for (entity, ignored) in retuned {
                let Some(&i) = last.get(&entity) else {
                    continue;
                };
                let unchanged = ignored.is_none_or(|list| !list.is_changed())
                    && bodies.get(entity).is_ok_and(|item| {
                        let (desc, _) = describe(&item, rules, &mut vacated);
                        desc.sanitize(max_speed)
                            .is_ok_and(|(desc, _)| world.sim.bodies().holds_properties(i, &desc))
                    });
                if !unchanged {
                    changed.push(entity);
                }
            }
        }
        for entity in &changed {
            if let Some(&i) = last.get(entity) {
                let b = world.sim.bodies();
                let (place, radius) = (b.position(i), b.radius(i));
                world.sim.wake_around(place, radius);
            }
        }
    }
    // The list's allocation serves the next removals.
    changed.clear();
    world.stripped = changed;
}
