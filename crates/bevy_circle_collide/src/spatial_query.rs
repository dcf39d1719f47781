//! Spatial queries for game code: ray casts, circle casts, point and area queries over
//! the circles as the last physics step left them (a system parameter).

use crate::CircleCollideWorld;
use bevy::ecs::system::SystemParam;
use bevy::math::DVec2;
use bevy::prelude::*;
use circle_collide_core::Wall;
use circle_collide_core::query::{CastHit, QueryFilter, QueryTarget, SpatialIndex};

/// Which circles a [`SpatialQuery`] sees.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::SpatialQueryFilter;
/// const ENEMY: u32 = 1 << 1;
/// let player = Entity::from_raw_u32(7).unwrap();
/// // Enemies only, never the player, and no sensors:
/// let filter = SpatialQueryFilter::default()
///     .with_mask(ENEMY)
///     .excluding([player])
///     .without_sensors();
/// assert_eq!(filter.excluded, [player]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SpatialQueryFilter {
    /// Layers a circle must belong to (one of them): its
    /// [`CollisionLayers::memberships`](crate::CollisionLayers) `& mask != 0`. Default:
    /// every layer.
    pub mask: u32,
    /// Entities never seen (the caster itself, say). A short list.
    pub excluded: Vec<Entity>,
    /// Whether [`Sensor`](crate::Sensor)s are seen (default `true`).
    pub sensors: bool,
    /// Whether casts hit the arena's walls (default `true`).
    pub walls: bool,
}

impl Default for SpatialQueryFilter {
    fn default() -> Self {
        Self {
            mask: u32::MAX,
            excluded: Vec::new(),
            sensors: true,
            walls: true,
        }
    }
}

impl SpatialQueryFilter {
    /// Sees only circles in one of the layers `mask`.
    pub fn with_mask(mut self, mask: u32) -> Self {
        self.mask = mask;
        self
    }

    /// Never sees `entities`.
    pub fn excluding(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    /// Does not see sensors.
    pub fn without_sensors(mut self) -> Self {
        self.sensors = false;
        self
    }

    /// Casts do not hit the arena's walls.
    pub fn without_walls(mut self) -> Self {
        self.walls = false;
        self
    }
}

/// A ray or circle cast's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The circle hit, or `None` for a wall of the arena.
    pub entity: Option<Entity>,
    /// The wall hit, if a wall was.
    pub wall: Option<Wall>,
    /// The [`LevelCollider`](crate::LevelCollider) hit and the index of its segment, if
    /// level geometry was.
    pub level: Option<(Entity, u32)>,
    /// Distance travelled along the direction (0 if the cast starts inside or
    /// overlapping what it hits).
    pub distance: f32,
    /// Where the ray meets the surface (for a circle cast, where the circles touch).
    pub point: Vec2,
    /// Unit normal of the surface at `point`, pointing out of it.
    pub normal: Vec2,
}

/// Spatial queries over every simulated circle where the last physics step left it:
/// exact (closed-form intersections) and accelerated by a grid that is built on the
/// first query after each step (a step with no query costs nothing). Circles spawned,
/// moved or despawned since the last step are seen where that step left them.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// use bevy_circle_collide::{SpatialQuery, SpatialQueryFilter};
///
/// fn line_of_sight(query: SpatialQuery, players: Query<(Entity, &Transform), With<Velocity>>) {
///     for (me, at) in &players {
///         let filter = SpatialQueryFilter::default().excluding([me]).without_sensors();
///         if let Some(hit) = query.ray_cast(at.translation.truncate(), Vec2::X, 50.0, &filter) {
///             info!("{me} sees {:?} at {}", hit.entity, hit.distance);
///         }
///         let near = query.circle(at.translation.truncate(), 5.0, &filter);
///         info!("{} circles within 5 of {me}", near.len());
///     }
/// }
/// # App::new().add_plugins(CircleCollidePlugin::default()).add_systems(Update, line_of_sight);
/// ```
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    world: Res<'w, CircleCollideWorld>,
}

impl SpatialQuery<'_> {
    /// The index of the last step's circles (built on first use).
    fn index(&self) -> &SpatialIndex {
        let sim = &self.world.sim;
        (self.world.query_index).get_or_init(|| {
            SpatialIndex::new(sim.bodies(), sim.config.arena).with_level(sim.level())
        })
    }

    /// Runs `f` with the core filter for `filter` (its entities turned into body indices).
    fn with_filter<R>(&self, filter: &SpatialQueryFilter, f: impl FnOnce(&QueryFilter) -> R) -> R {
        let excluded: Vec<u32> = if filter.excluded.is_empty() {
            Vec::new()
        } else {
            (self.world.entities.iter().enumerate())
                .filter(|(_, e)| filter.excluded.contains(e))
                .map(|(i, _)| i as u32)
                .collect()
        };
        f(&QueryFilter {
            mask: filter.mask,
            exclude: &excluded,
            sensors: filter.sensors,
            walls: filter.walls,
        })
    }

    fn hit(&self, h: CastHit) -> RayHit {
        let (mut entity, mut wall, mut level) = (None, None, None);
        match h.target {
            QueryTarget::Body(i) => entity = self.world.entities.get(i as usize).copied(),
            QueryTarget::Wall(w) => wall = Some(w),
            QueryTarget::Segment(s) => level = self.world.level_segment(s),
        }
        RayHit {
            entity,
            wall,
            level,
            distance: h.distance as f32,
            point: h.point.as_vec2(),
            normal: h.normal.as_vec2(),
        }
    }

    fn entities(&self, indices: Vec<u32>) -> Vec<Entity> {
        (indices.into_iter())
            .filter_map(|i| self.world.entities.get(i as usize).copied())
            .collect()
    }

    /// The first circle or wall a ray from `origin` along `direction` meets within
    /// `max_distance` (`direction` need not be unit length; a zero one hits nothing).
    pub fn ray_cast(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Option<RayHit> {
        let (o, d, max) = ray(origin, direction, max_distance);
        self.with_filter(filter, |f| self.index().ray_cast(o, d, max, f))
            .map(|h| self.hit(h))
    }

    /// Every circle a ray meets within `max_distance`, nearest first (walls are not
    /// listed).
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Vec<RayHit> {
        let (o, d, max) = ray(origin, direction, max_distance);
        let hits = self.with_filter(filter, |f| self.index().ray_cast_all(o, d, max, f));
        hits.into_iter().map(|h| self.hit(h)).collect()
    }

    /// The first circle or wall that a circle of `radius` at `origin`, moving along
    /// `direction`, touches within `max_distance`: the exact time of impact of the swept
    /// circle (would this circle fit, where would it stop).
    pub fn circle_cast(
        &self,
        origin: Vec2,
        radius: f32,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Option<RayHit> {
        let (o, d, max) = ray(origin, direction, max_distance);
        let r = f64::from(radius);
        self.with_filter(filter, |f| self.index().circle_cast(o, r, d, max, f))
            .map(|h| self.hit(h))
    }

    /// The circles containing `point` (the one under the mouse, say).
    pub fn point(&self, point: Vec2, filter: &SpatialQueryFilter) -> Vec<Entity> {
        let p = point.as_dvec2();
        self.entities(self.with_filter(filter, |f| self.index().point(p, f)))
    }

    /// The circles overlapping (or touching) the circle at `centre` of `radius`.
    pub fn circle(&self, centre: Vec2, radius: f32, filter: &SpatialQueryFilter) -> Vec<Entity> {
        let (c, r) = (centre.as_dvec2(), f64::from(radius));
        self.entities(self.with_filter(filter, |f| self.index().circle(c, r, f)))
    }

    /// The circles overlapping (or touching) the axis-aligned box `[min, max]`.
    pub fn aabb(&self, min: Vec2, max: Vec2, filter: &SpatialQueryFilter) -> Vec<Entity> {
        let (lo, hi) = (min.as_dvec2(), max.as_dvec2());
        self.entities(self.with_filter(filter, |f| self.index().aabb(lo, hi, f)))
    }
}

/// A ray's origin, direction and reach as the core takes them.
fn ray(origin: Vec2, direction: Vec2, max_distance: f32) -> (DVec2, DVec2, f64) {
    (
        origin.as_dvec2(),
        direction.as_dvec2(),
        f64::from(max_distance),
    )
}
