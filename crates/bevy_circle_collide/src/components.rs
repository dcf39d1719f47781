//! Components a game puts on its circles.

use bevy::prelude::*;

/// A circle that collides. Requires [`Velocity`], [`Mass`] and [`Transform`]: spawning
/// the collider alone gives a body at rest with its mass from the configured density.
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
#[require(Velocity, Mass, Transform)]
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
pub struct CollisionEventsEnabled;
