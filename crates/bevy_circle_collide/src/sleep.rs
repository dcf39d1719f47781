//! Sleep state of a body, kept on its entity.

use crate::components::CircleCollider;
use crate::precise::PreciseMotion;
use crate::world::CircleCollideWorld;
use bevy::prelude::*;

/// Whether a body sleeps, and how long it has rested. Added with every
/// [`CircleCollider`] and kept up to date by the plugin.
///
/// An island of touching bodies that all stay slower than the sleep speed
/// ([`CircleCollideConfig::sleep_speed`](crate::CircleCollideConfig::sleep_speed)) for
/// [`time_to_sleep`](crate::CircleCollideConfig::time_to_sleep) falls asleep: its bodies
/// stop, are simulated as static and cost almost nothing (by neighbourhood,
/// [`sleep_by_neighbourhood`](crate::CircleCollideConfig::sleep_by_neighbourhood), a
/// body falls asleep once it and the bodies touching it have rested). A sleeping body
/// wakes, with its island, when an awake body touches it or is about to hit it (by
/// neighbourhood a slow touch wakes only it and the sleeping bodies touching it, a hit
/// the sleeping bodies it reaches), when
/// the game gives it a [`Velocity`](crate::Velocity) or moves its `Transform` away from
/// [`position`](Self::position), when the game sets `sleeping` to `false`, or when the
/// [`CircleCollideConfig`](crate::CircleCollideConfig) changes. It also wakes when a
/// body it touches leaves (despawned, its `CircleCollider` removed, or moved away by the
/// game, static or asleep), changes size, or is given other
/// [`CollisionLayers`](crate::CollisionLayers), [`Mass`](crate::Mass), friction, rolling
/// resistance, moment of inertia or [`IgnoredCollisions`](crate::IgnoredCollisions),
/// made a [`Sensor`](crate::Sensor) or no longer one,
/// or loses one of those components — so what rested on it falls; and so does a sleeping
/// body given those changes itself. Waking compares values, but for those changes
/// (change ticks and removals), and a step that starts from a restored
/// [`ContactMemory`](crate::ContactMemory) drops the wakes they queued before it, so a
/// rollback that restores the components re-simulates exactly.
///
/// ```
/// # use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// fn count_sleepers(bodies: Query<&SleepState>) -> usize {
///     bodies.iter().filter(|s| s.sleeping).count()
/// }
/// # App::new().add_systems(Update, |q: Query<&SleepState>| { count_sleepers(q); });
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct SleepState {
    /// The body sleeps.
    pub sleeping: bool,
    /// Seconds the body has rested (held by the contact solver, slower than the sleep
    /// speed).
    pub rest_time: f32,
    /// Where the body sleeps (meaningful while `sleeping`).
    pub position: Vec2,
}

/// A body leaving the simulation (despawned, or its [`CircleCollider`] removed) wakes,
/// in the next step, the sleeping bodies touching its last place
/// ([`Simulation::wake_around`](circle_collide_core::Simulation::wake_around)):
/// asleep, they are held in place like static bodies and would float.
pub(crate) fn vacate_on_remove(
    removed: On<Remove, CircleCollider>,
    bodies: Query<(&CircleCollider, &Transform, Option<&PreciseMotion>)>,
    mut world: ResMut<CircleCollideWorld>,
) {
    if let Ok((collider, transform, precise)) = bodies.get(removed.entity) {
        let translation = transform.translation.truncate();
        let place = precise.map_or(translation.as_dvec2(), |p| p.position_from(translation));
        world.sim.wake_around(place, f64::from(collider.radius));
    }
}
