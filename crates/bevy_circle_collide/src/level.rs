//! Static level geometry as components: segments, polylines (open or closed) and boxes.

use crate::components::CollisionLayers;
use crate::world::CircleCollideWorld;
use bevy::prelude::*;
use circle_collide_core::glam::DVec2;
use circle_collide_core::{Layers, Level, Segment};

/// The shape of a [`LevelCollider`], in the entity's local space (its `Transform`'s
/// translation, rotation about z and scale place it in the world).
#[derive(Reflect, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum LevelShape {
    /// One segment from `a` to `b`.
    Segment {
        /// First end point.
        a: Vec2,
        /// Second end point.
        b: Vec2,
    },
    /// Segments joining `points` in order, back to the first if `closed`. Circles slide
    /// over the joints without snagging.
    Polyline {
        /// The corners, in order.
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        closed: bool,
    },
    /// The four sides of a box centred on the entity (turn it with the `Transform`).
    Box {
        /// Half the width and half the height.
        half_extents: Vec2,
    },
}

/// Static level geometry: zero-thickness segments that circles hit at the exact time of
/// impact, from either side, at any speed. Events name the entity and the segment
/// ([`CollisionTarget::Level`](crate::CollisionTarget::Level)); filter it with
/// [`CollisionLayers`]. The level is re-indexed only when a level collider (or its
/// `Transform`) is added, changed or removed; then every sleeping body wakes (it may
/// have rested on what changed).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// fn cup(mut commands: Commands) {
///     // A U-shaped cup of three segments, and a slope turned by 20°.
///     let points = vec![Vec2::new(-5.0, 8.0), Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), Vec2::new(5.0, 8.0)];
///     commands.spawn(LevelCollider::polyline(points, false).with_restitution(0.2));
///     commands.spawn((
///         LevelCollider::segment(Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0)),
///         Transform::from_xyz(0.0, 12.0, 0.0).with_rotation(Quat::from_rotation_z(0.35)),
///     ));
/// }
/// # App::new().add_systems(Startup, cup);
/// ```
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct LevelCollider {
    /// The shape.
    pub shape: LevelShape,
    /// Restitution, combined with the body's by the configured rule (under the default
    /// `Max` rule, 0 means "the body's own").
    pub restitution: f32,
    /// Coulomb friction, combined with the body's by the configured rule.
    pub friction: f32,
}

impl LevelCollider {
    /// A collider of `shape` with restitution and friction 0 (the body's own under `Max`).
    pub fn new(shape: LevelShape) -> Self {
        Self {
            shape,
            restitution: 0.0,
            friction: 0.0,
        }
    }

    /// One segment from `a` to `b`.
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        Self::new(LevelShape::Segment { a, b })
    }

    /// A chain through `points`, closed back to the first if `closed`.
    pub fn polyline(points: Vec<Vec2>, closed: bool) -> Self {
        Self::new(LevelShape::Polyline { points, closed })
    }

    /// A box of half extents `half_extents` centred on the entity.
    pub fn rectangle(half_extents: Vec2) -> Self {
        Self::new(LevelShape::Box { half_extents })
    }

    /// The same collider with this restitution.
    pub fn with_restitution(mut self, restitution: f32) -> Self {
        self.restitution = restitution;
        self
    }

    /// The same collider with this friction.
    pub fn with_friction(mut self, friction: f32) -> Self {
        self.friction = friction;
        self
    }

    /// The collider's segments in world space under `transform`, each with its index in
    /// the collider as [`Segment::part`].
    pub fn segments(&self, transform: &Transform) -> Vec<Segment> {
        let place = |p: Vec2| {
            transform
                .transform_point(p.extend(0.0))
                .truncate()
                .as_dvec2()
        };
        let mut segments = match &self.shape {
            LevelShape::Segment { a, b } => vec![Segment::new(place(*a), place(*b))],
            LevelShape::Polyline { points, closed } => {
                let points: Vec<DVec2> = points.iter().map(|p| place(*p)).collect();
                Level::polyline(&points, *closed)
            }
            LevelShape::Box { half_extents: h } => {
                let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                    .map(|(x, y)| place(Vec2::new(x * h.x, y * h.y)));
                Level::polyline(&corners, true)
            }
        };
        for s in &mut segments {
            s.restitution = f64::from(self.restitution.max(0.0));
            s.friction = f64::from(self.friction.max(0.0));
        }
        segments
    }
}

/// Level colliders added or changed since the last run (shape, place or layers).
type ChangedLevel = (
    With<LevelCollider>,
    Or<(
        Changed<LevelCollider>,
        Changed<Transform>,
        Changed<CollisionLayers>,
    )>,
);

/// Notes that a level collider was removed (or despawned), for [`sync_level`]. Observed,
/// not read from `RemovedComponents`: that record lasts two frames, and with frames
/// shorter than the fixed step a removal could be gone before the next step.
pub(crate) fn note_level_removal(
    _removed: On<Remove, LevelCollider>,
    mut world: ResMut<CircleCollideWorld>,
) {
    world.level_removed = true;
}

/// Rebuilds the core's level when a level collider was added, changed (or its
/// `Transform` or layers) or removed. Colliders go in entity order, so the segment
/// indices do not depend on spawn or query order. Non-finite points are dropped with a
/// warning.
pub(crate) fn sync_level(
    _main: crate::schedule::MainThread,
    mut world: ResMut<CircleCollideWorld>,
    colliders: Query<(Entity, &LevelCollider, &Transform, Option<&CollisionLayers>)>,
    changed: Query<(), ChangedLevel>,
) {
    if changed.is_empty() && !world.level_removed {
        return;
    }
    world.level_removed = false;
    let mut list: Vec<_> = colliders.iter().collect();
    list.sort_by_key(|(e, ..)| *e);
    let mut segments = Vec::new();
    let mut entities = Vec::with_capacity(list.len());
    for (owner, (entity, collider, transform, layers)) in list.into_iter().enumerate() {
        let layers = layers.map_or(Layers::ALL, |l| Layers::new(l.memberships, l.filters));
        let mut own = collider.segments(transform);
        if own.iter().any(|s| !s.is_finite()) {
            warn!(
                "bevy_circle_collide: level collider {entity}: a point is not finite; those segments are left out"
            );
        }
        for s in &mut own {
            s.owner = owner as u32;
            s.layers = layers;
        }
        segments.extend(own);
        entities.push(entity);
    }
    world.level_entities = entities;
    world.simulation_mut().set_level(Level::new(segments));
}
