//! Components a game puts on its circles.

use bevy::prelude::*;

/// A circle that collides. Requires [`Velocity`], [`Mass`] and [`Transform`]: spawning
/// the collider alone gives a body at rest with its mass from the configured density.
/// It also brings [`AngularVelocity`] and the state the plugin keeps on each body,
/// [`SleepState`](crate::SleepState) and [`PreciseMotion`](crate::PreciseMotion).
///
/// The circle's centre is the entity's `Transform` translation (x, y); the collider
/// entity should have no parent with a non-identity transform.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world.spawn((
///     CircleCollider::new(0.5),
///     Transform::from_xyz(1.0, 2.0, 0.0),
///     Velocity(Vec2::new(3.0, 0.0)),
/// ));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(
    Velocity,
    AngularVelocity,
    Mass,
    Transform,
    crate::SleepState,
    crate::PreciseMotion
)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CircleCollider {
    /// Radius, world units, > 0. Invalid radii skip the body (with a warning).
    pub radius: f32,
}

impl CircleCollider {
    /// A collider of the given radius.
    pub const fn new(radius: f32) -> Self {
        Self { radius }
    }
}

/// Linear velocity, world units per second. Read and written by the plugin every step.
///
/// A body whose velocity the game changed since the last step is *steered* in the next
/// one (`circle_collide_core::BodyDesc::steered`): its pairs take the resting speed
/// whatever their restitution (under gravity at least the one without gravity, four
/// radii per second), so a crowd steered into itself every frame jams and
/// presses even at the default restitution (1) instead of bouncing every frame, and under
/// gravity a horde walked into a wall piles up against it as a jam; its first contact
/// faster than the resting speed still bounces. Writing the same value is not steering.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// let v = Velocity(Vec2::new(0.0, -2.0));
/// assert_eq!(v.0.length(), 2.0);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Velocity(pub Vec2);

/// Angular velocity, radians per second counter-clockwise. Read and written by the plugin
/// every step; the body's `Transform` rotation (about z) turns with it. A circle's shape
/// does not depend on its rotation: spin changes only what friction does at contacts.
/// A [`Mass::Static`] body with a spin is a kinematic wheel that drags what it touches.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// // A ball with topspin, on a rough table.
/// world.spawn((CircleCollider::new(0.5), Velocity(Vec2::new(3.0, 0.0)), AngularVelocity(-6.0), Friction(0.4)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct AngularVelocity(pub f32);

/// Coulomb friction coefficient `μ ≥ 0` of a body, overriding
/// [`CircleCollideConfig::default_friction`](crate::CircleCollideConfig::default_friction)
/// (default 0: smooth). A pair's friction combines both bodies' (or the body's and the
/// arena's) by
/// [`CircleCollideConfig::friction_combine`](crate::CircleCollideConfig::friction_combine)
/// (default: the larger). At an impact the friction impulse is exact and closed-form:
/// it stops the slip at the contact point if `μ` × the normal impulse allows, else
/// slides; in resting contact it holds within Coulomb's cone. `f32::INFINITY` never
/// slips. See [`core::friction`](circle_collide_core::friction).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world.spawn((CircleCollider::new(0.5), Friction(0.5)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Friction(pub f32);

/// Rolling resistance coefficient `≥ 0` (dimensionless), overriding
/// [`CircleCollideConfig::default_rolling_resistance`](crate::CircleCollideConfig::default_rolling_resistance):
/// a resting contact resists its bodies rolling on each other with a torque of at most
/// this × the smaller radius × the normal force. Without it (the default) a ball rolls
/// on for ever on a flat floor; a solid disk rolling on a floor with resistance `c`
/// slows down at `⅔ c g`. Combined like [`Friction`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world.spawn((CircleCollider::new(0.5), Friction(0.5), RollingResistance(0.05)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct RollingResistance(pub f32);

/// Moment of inertia about the centre (mass × length²), overriding the solid disk's
/// `½ m r²` (a ring is `m r²`). Invalid values fall back to the disk's, with a warning.
/// Static bodies have infinite inertia whatever this says.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// // A hoop of mass 2 and radius 1.
/// world.spawn((CircleCollider::new(1.0), Mass::Fixed(2.0), MomentOfInertia(2.0)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct MomentOfInertia(pub f32);

/// Mass of a body.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// // A post that others bounce off and that never moves.
/// world.spawn((CircleCollider::new(2.0), Mass::Static));
/// // A heavy ball.
/// world.spawn((CircleCollider::new(1.0), Mass::Fixed(50.0)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Mass {
    /// `density × π r²`, with the density of [`CircleCollideConfig`](crate::CircleCollideConfig).
    #[default]
    Auto,
    /// A given mass, > 0 (an invalid value falls back to `Auto` with a warning).
    Fixed(f32),
    /// Infinite mass: impulses never move it. With a non-zero [`Velocity`] it moves
    /// kinematically — it pushes dynamic bodies, ignores walls and static bodies.
    Static,
}

/// Per-body coefficient of restitution in `[0, 1]`, overriding the configured default.
/// A pair's restitution combines both bodies' by
/// [`CircleCollideConfig::restitution_combine`](crate::CircleCollideConfig::restitution_combine)
/// (default: the larger of the two).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world.spawn((CircleCollider::new(0.5), Restitution(0.3)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Restitution(pub f32);

/// Opt-in marker: the entity receives a targeted [`CollisionHit`](crate::CollisionHit) for
/// each of its impacts, observed with `.observe(...)`. It may be added at spawn or later;
/// it takes effect from the next step.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// world
///     .spawn((CircleCollider::new(0.5), CollisionEventsEnabled))
///     .observe(|hit: On<CollisionHit>| {
///         println!("{} was hit at {}", hit.entity, hit.point);
///     });
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionEventsEnabled;

/// Collision layers: up to 32 layers as bit masks. Two colliders interact only when each
/// one's `memberships` meets the other's `filters`. Without the component a collider is
/// in every layer and collides with every layer. Filtered pairs never reach the narrow
/// phase: they pass through each other and send no events.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// const PLAYER: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// const GHOST: u32 = 1 << 2;
/// # let mut world = World::new();
/// // A ghost that only the player bumps into.
/// world.spawn((CircleCollider::new(0.5), CollisionLayers::new(GHOST, PLAYER)));
/// world.spawn((CircleCollider::new(0.5), CollisionLayers::new(PLAYER, ENEMY | GHOST)));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionLayers {
    /// Layers this collider belongs to.
    pub memberships: u32,
    /// Layers this collider collides with.
    pub filters: u32,
}

impl CollisionLayers {
    /// Every layer, colliding with every layer.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };

    /// Layers from the two masks.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self {
            memberships,
            filters,
        }
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// Marker: the collider is a sensor (trigger). Its entry into another collider is found
/// with the exact time of impact like any impact and reported as a [`CollisionEvent`](crate::CollisionEvent)
/// with `sensor: true` (and a [`CollisionStarted`](crate::CollisionStarted) when the
/// overlap begins, [`CollisionEnded`](crate::CollisionEnded) when it ends), but nothing
/// bounces: velocities never change, overlaps are never pushed apart, and a sensor
/// ignores the arena walls.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// // A coin to pick up.
/// world.spawn((CircleCollider::new(0.3), Sensor, Mass::Static));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Sensor;

/// The entities this collider ignores: no pair of it with any of them interacts (on
/// either side: one of the two entities listing the other is enough). For whole groups,
/// use [`CollisionLayers`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// # let mut world = World::new();
/// let gun = world.spawn(CircleCollider::new(1.0)).id();
/// // A bullet that does not hit the gun it leaves.
/// world.spawn((CircleCollider::new(0.1), IgnoredCollisions(vec![gun])));
/// ```
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct IgnoredCollisions(pub Vec<Entity>);

/// Opt-in: the colliders this entity touches or overlaps after the last step (updated
/// every step; sensors count while they overlap).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn report(q: Query<(Entity, &CollidingEntities)>) {
///     for (e, touching) in &q {
///         if !touching.is_empty() {
///             info!("{e} touches {} colliders", touching.len());
///         }
///     }
/// }
/// # App::new().add_systems(Update, report);
/// ```
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Deref)]
#[reflect(Component, Debug, Default)]
pub struct CollidingEntities(pub bevy::ecs::entity::EntityHashSet);
