//! Collision events: the buffered [`CollisionEvent`] message and the targeted
//! [`CollisionHit`] observer event.

use bevy::prelude::*;
use circle_collide_core::Wall;

/// What a body collided with.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn floor_hits(mut hits: MessageReader<CollisionEvent>) {
///     for hit in hits.read() {
///         if hit.b == CollisionTarget::Wall(Wall::Bottom) {
///             info!("{} landed at {}", hit.a, hit.point);
///         }
///     }
/// }
/// # App::new().add_systems(Update, floor_hits);
/// ```
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionTarget {
    /// Another collider.
    Body(Entity),
    /// An arena wall.
    Wall(#[reflect(ignore)] Wall),
}

/// One impact, sent as a [`Message`] in time order within the step (ties in a fixed,
/// deterministic order). Read it with `MessageReader<CollisionEvent>`.
///
/// `a` is always a body. For two bodies, `a` is the one with the lower [`Entity`]
/// (`a < b`); `normal` points from `a` towards `b` (or into the wall).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
///
/// fn count_hits(mut hits: MessageReader<CollisionEvent>, mut total: Local<usize>) {
///     for hit in hits.read() {
///         *total += 1;
///         info!("{} hit {:?} at {} with impulse {}", hit.a, hit.b, hit.point, hit.impulse);
///     }
/// }
/// # App::new().add_systems(Update, count_hits);
/// ```
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionEvent {
    /// The first body.
    pub a: Entity,
    /// The other body, or the wall.
    pub b: CollisionTarget,
    /// Time of impact in seconds from the start of the step, in `[0, dt]`.
    pub time: f32,
    /// Index of the step (see [`CollisionDiagnostics::step`](crate::CollisionDiagnostics::step)).
    pub step: u64,
    /// Contact point at the moment of impact.
    pub point: Vec2,
    /// Unit normal from `a` towards `b`.
    pub normal: Vec2,
    /// Impulse magnitude along the normal (mass × speed).
    pub impulse: f32,
    /// Closing speed along the normal just before the impact.
    pub approach_speed: f32,
    /// A sensor's entry: no impulse was applied and nothing changed course.
    pub sensor: bool,
    /// Whether this was a resting impact (only sent when
    /// [`report_resting_impacts`](crate::CircleCollideConfig::report_resting_impacts) is on).
    pub resting: bool,
}

/// Targeted event triggered on an entity with
/// [`CollisionEventsEnabled`](crate::CollisionEventsEnabled) for each of its impacts.
/// `entity` is the observed entity (the target); `other` is what it hit; `normal`
/// points from the target towards the other. Sent after the step's messages are written.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world
///     .spawn((CircleCollider::new(0.5), CollisionEventsEnabled))
///     .observe(|hit: On<CollisionHit>, mut commands: Commands| {
///         if hit.impulse > 10.0 {
///             commands.entity(hit.entity).despawn(); // shattered
///         }
///     });
/// ```
#[derive(EntityEvent, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionHit {
    /// The entity that opted in (the event's target).
    pub entity: Entity,
    /// What it hit.
    pub other: CollisionTarget,
    /// Time of impact in seconds from the start of the step.
    pub time: f32,
    /// Contact point.
    pub point: Vec2,
    /// Unit normal from the target towards the other.
    pub normal: Vec2,
    /// Impulse magnitude.
    pub impulse: f32,
    /// Closing speed along the normal.
    pub approach_speed: f32,
}

/// Two colliders started touching or overlapping (within the slop) during the last step,
/// or had an impact in it. Sent once per pair, in `Entity` order (`a < b`), after that
/// step's [`CollisionEvent`]s; every start is followed by exactly one [`CollisionEnded`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn on_touch(mut started: MessageReader<CollisionStarted>) {
///     for CollisionStarted { a, b } in started.read() {
///         info!("{a} and {b} touch");
///     }
/// }
/// # App::new().add_systems(Update, on_touch);
/// ```
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionStarted {
    /// The lower entity.
    pub a: Entity,
    /// The higher entity.
    pub b: Entity,
}

/// Two colliders that were touching no longer are — they moved apart, one was
/// despawned or lost its collider, or the pair stopped interacting. `a < b`.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn on_leave(mut ended: MessageReader<CollisionEnded>) {
///     for CollisionEnded { a, b } in ended.read() {
///         info!("{a} and {b} parted");
///     }
/// }
/// # App::new().add_systems(Update, on_leave);
/// ```
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionEnded {
    /// The lower entity.
    pub a: Entity,
    /// The higher entity.
    pub b: Entity,
}
