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
    /// A [`LevelCollider`](crate::LevelCollider), with the index of its segment (a
    /// polyline's segments and a box's sides in order; a box's sides start with the
    /// bottom one and go counter-clockwise).
    Level {
        /// The level collider.
        entity: Entity,
        /// The segment within it.
        segment: u32,
    },
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
    /// Friction impulse (mass × speed) applied to `b` along `normal.perp()` (its
    /// opposite to `a`); 0 between smooth bodies. See [`Friction`](crate::Friction).
    pub tangent_impulse: f32,
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
    /// Friction impulse applied to the other along `normal.perp()` (its opposite to the
    /// target).
    pub tangent_impulse: f32,
    /// Closing speed along the normal.
    pub approach_speed: f32,
}

/// Two colliders started touching or overlapping (within the slop) during the last step,
/// or had an impact in it. Sent once per pair, in `Entity` order (`a < b`), after that
/// step's [`CollisionEvent`]s; every start is followed by exactly one [`CollisionEnded`],
/// in a later step.
///
/// **Several steps in one frame.** A system in `Update` reads the messages of every fixed
/// step that ran since its last run. Each reader keeps its own order, but a start read
/// from one reader and an end read from the other cannot be put in order by reading
/// alone: a pair may start, end and start again within one frame. Order them by
/// [`step`](Self::step) (starts and ends of one pair never share a step):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # use std::collections::HashSet;
/// /// The pairs touching now, kept across frames.
/// #[derive(Resource, Default)]
/// struct Open(HashSet<(Entity, Entity)>);
///
/// fn track(
///     mut started: MessageReader<CollisionStarted>,
///     mut ended: MessageReader<CollisionEnded>,
///     mut open: ResMut<Open>,
/// ) {
///     let mut changes: Vec<(u64, bool, Entity, Entity)> = Vec::new();
///     changes.extend(started.read().map(|s| (s.step, true, s.a, s.b)));
///     changes.extend(ended.read().map(|e| (e.step, false, e.a, e.b)));
///     changes.sort_by_key(|c| c.0);
///     for (_, starts, a, b) in changes {
///         if starts {
///             open.0.insert((a, b));
///         } else {
///             open.0.remove(&(a, b));
///         }
///     }
/// }
/// # App::new().init_resource::<Open>().add_systems(Update, track);
/// ```
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionStarted {
    /// The lower entity.
    pub a: Entity,
    /// The higher entity.
    pub b: Entity,
    /// Index of the step the pair started touching in (the same index as that step's
    /// [`CollisionEvent::step`]).
    pub step: u64,
}

/// Two colliders that were touching no longer are — they moved apart, one was
/// despawned or lost its collider, or the pair stopped interacting. `a < b`. See
/// [`CollisionStarted`] for reading starts and ends in order when several steps ran in
/// one frame.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn on_leave(mut ended: MessageReader<CollisionEnded>) {
///     for CollisionEnded { a, b, step } in ended.read() {
///         info!("{a} and {b} parted in step {step}");
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
    /// Index of the step after which they no longer touch.
    pub step: u64,
}
