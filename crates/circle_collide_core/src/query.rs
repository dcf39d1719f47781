//! Spatial queries: ray casts, circle casts, point and area queries over the bodies (and
//! the arena's walls), exact and accelerated by a uniform grid.
//!
//! A [`SpatialIndex`] is built from the bodies where they stand (for example after a
//! step, [`SpatialIndex::new`]`(sim.bodies(), sim.config.arena)`); it does not follow
//! the bodies afterwards. Each circle is listed in every cell its bounding box overlaps,
//! so a query visits only the cells it can touch: a ray walks its cells in order
//! (Amanatides–Woo) and stops once the cells left start beyond its nearest hit.
//! Bodies too large for the cells are kept on a short list every query tests.
//!
//! Every answer is exact (closed-form ray–circle and swept-circle–circle intersections)
//! and equals a brute-force check over all bodies; `tests/queries.rs` compares them on
//! 10⁵ random queries.
//!
//! The code: this module builds the index and answers the point and area queries;
//! `casts.rs` holds the ray and circle casts.
//!
//! ```
//! use circle_collide_core::query::{QueryFilter, SpatialIndex};
//! use circle_collide_core::{BodyDesc, Simulation, StepConfig};
//! use glam::DVec2;
//! let mut sim = Simulation::new(StepConfig::default());
//! sim.add_body(BodyDesc::new(DVec2::new(5.0, 0.0), 1.0, 1.0)).unwrap();
//! sim.add_body(BodyDesc::new(DVec2::new(9.0, 0.0), 1.0, 1.0)).unwrap();
//! let index = SpatialIndex::new(sim.bodies(), None);
//! let hit = index.ray_cast(DVec2::ZERO, DVec2::X, 100.0, &QueryFilter::default()).unwrap();
//! assert_eq!((hit.body(), hit.distance), (Some(0), 4.0));
//! assert_eq!(hit.normal, -DVec2::X);
//! // Which circles contain a point, which overlap a box:
//! assert_eq!(index.point(DVec2::new(9.5, 0.0), &QueryFilter::default()), [1]);
//! let all = index.aabb(DVec2::new(0.0, -1.0), DVec2::new(20.0, 1.0), &QueryFilter::default());
//! assert_eq!(all, [0, 1]);
//! ```

use crate::arena::{Arena, Wall};
use crate::bodies::Bodies;
use crate::filter::Layers;
use crate::level::Level;
use glam::DVec2;

mod casts;

/// Which bodies a query sees.
///
/// ```
/// use circle_collide_core::query::QueryFilter;
/// const ENEMY: u32 = 1 << 1;
/// // Enemies only, not body 3, and not the arena's walls:
/// let filter = QueryFilter::default().with_mask(ENEMY).excluding(&[3]).without_walls();
/// assert!(!filter.walls);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryFilter<'a> {
    /// Layers a body must belong to (one of them) to be seen: a body is seen when
    /// `memberships & mask != 0`. Default: every layer.
    pub mask: u32,
    /// Bodies never seen (for example the caster itself). A short list.
    pub exclude: &'a [u32],
    /// Whether sensors are seen (default `true`, as the peers' queries do).
    pub sensors: bool,
    /// Whether ray and circle casts can hit the arena's walls and the level's segments
    /// (default `true`).
    pub walls: bool,
}

impl Default for QueryFilter<'_> {
    fn default() -> Self {
        Self {
            mask: u32::MAX,
            exclude: &[],
            sensors: true,
            walls: true,
        }
    }
}

impl<'a> QueryFilter<'a> {
    /// Sees only bodies in one of the layers `mask`.
    pub fn with_mask(mut self, mask: u32) -> Self {
        self.mask = mask;
        self
    }

    /// Never sees the bodies `exclude`.
    pub fn excluding(mut self, exclude: &'a [u32]) -> Self {
        self.exclude = exclude;
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

/// What a cast hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QueryTarget {
    /// A body, by index.
    Body(u32),
    /// A wall of the arena.
    Wall(Wall),
    /// A segment of the level, by its index in [`Level::segments`].
    Segment(u32),
}

/// A ray or circle cast's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// What was hit.
    pub target: QueryTarget,
    /// Distance travelled along the (unit) direction until the hit; 0 if the ray starts
    /// inside a circle, or the cast circle starts overlapping.
    pub distance: f64,
    /// Where the ray meets the circle or wall; for a circle cast, the point where the
    /// two circles touch.
    pub point: DVec2,
    /// Unit normal of the surface hit at `point`, pointing out of it (towards the
    /// caster).
    pub normal: DVec2,
}

impl CastHit {
    /// The body hit, if a body was hit (not a wall).
    pub fn body(&self) -> Option<u32> {
        match self.target {
            QueryTarget::Body(i) => Some(i),
            QueryTarget::Wall(_) | QueryTarget::Segment(_) => None,
        }
    }
}

/// A uniform grid over the bodies' circles, for queries (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct SpatialIndex {
    circles: Vec<(DVec2, f64)>,
    layers: Vec<Layers>,
    sensor: Vec<bool>,
    arena: Option<Arena>,
    level: Level,
    origin: DVec2,
    cell: f64,
    nx: i32,
    ny: i32,
    /// `entries[start[c]..start[c + 1]]`: the bodies listed in cell `c` (row-major).
    start: Vec<u32>,
    entries: Vec<u32>,
    /// Bodies spanning more than [`BIG_SPAN`] cells on an axis: tested by every query.
    big: Vec<u32>,
}

/// A body whose box spans more cells than this on an axis is kept on the big list.
const BIG_SPAN: i32 = 4;

impl SpatialIndex {
    /// Indexes `bodies` where they stand, with the `arena`'s walls for casts.
    pub fn new(bodies: &Bodies, arena: Option<Arena>) -> Self {
        let circles = bodies.positions().zip(bodies.radii()).collect();
        let layers = bodies.layers.clone();
        let sensor = (0..bodies.len()).map(|i| bodies.is_sensor(i)).collect();
        Self::from_circles(circles, layers, sensor, arena)
    }

    /// Indexes circles `(centre, radius)` given directly, each with its layers and
    /// whether it is a sensor (the three lists have one entry per circle).
    pub fn from_circles(
        circles: Vec<(DVec2, f64)>,
        layers: Vec<Layers>,
        sensor: Vec<bool>,
        arena: Option<Arena>,
    ) -> Self {
        assert!(layers.len() == circles.len() && sensor.len() == circles.len());
        let mut index = Self {
            circles,
            layers,
            sensor,
            arena,
            ..Self::default()
        };
        index.build();
        index
    }

    /// Number of circles indexed.
    pub fn len(&self) -> usize {
        self.circles.len()
    }

    /// Whether no circle is indexed.
    pub fn is_empty(&self) -> bool {
        self.circles.is_empty()
    }

    /// Lays the grid: cells twice the median radius (grown until there are at most
    /// about four cells per circle), each circle listed in the cells its box overlaps.
    /// Circles that are not finite are left out.
    fn build(&mut self) {
        let valid = |&(p, r): &(DVec2, f64)| p.is_finite() && r.is_finite() && r >= 0.0;
        let mut radii: Vec<f64> = (self.circles.iter().filter(|c| valid(c)))
            .map(|c| c.1)
            .collect();
        if radii.is_empty() {
            return;
        }
        let mid = radii.len() / 2;
        let median = *radii.select_nth_unstable_by(mid, f64::total_cmp).1;
        let (mut min, mut max) = (DVec2::INFINITY, DVec2::NEG_INFINITY);
        for c in self.circles.iter().filter(|c| valid(c)) {
            min = min.min(c.0 - c.1);
            max = max.max(c.0 + c.1);
        }
        let size = (max - min).max(DVec2::splat(1e-9));
        let mut cell = (2.0 * median).max(size.max_element() * 1e-6).max(1e-9);
        let cap = 4.0 * radii.len() as f64 + 16.0;
        while (size.x / cell).ceil() * (size.y / cell).ceil() > cap {
            cell *= 1.5;
        }
        self.cell = cell;
        self.origin = min;
        self.nx = ((size.x / cell).ceil() as i32).max(1);
        self.ny = ((size.y / cell).ceil() as i32).max(1);
        let cells = (self.nx * self.ny) as usize;
        let mut spans = Vec::with_capacity(self.circles.len());
        for (i, c) in self.circles.iter().enumerate() {
            if !valid(c) {
                spans.push(None);
                continue;
            }
            // Listed a hair wider than its box, so a query meeting it exactly at a cell
            // line (within rounding) finds it on either side.
            let reach = DVec2::splat(c.1 + 1e-9 * cell);
            let (x0, y0) = self.coords(c.0 - reach);
            let (x1, y1) = self.coords(c.0 + reach);
            if x1 - x0 >= BIG_SPAN || y1 - y0 >= BIG_SPAN {
                self.big.push(i as u32);
                spans.push(None);
                continue;
            }
            spans.push(Some((x0, y0, x1, y1)));
        }
        let (mut start, mut entries) = (
            std::mem::take(&mut self.start),
            std::mem::take(&mut self.entries),
        );
        crate::compressed_rows::build(cells, &mut start, &mut entries, |emit| {
            for (i, span) in spans.iter().enumerate() {
                let Some((x0, y0, x1, y1)) = *span else {
                    continue;
                };
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        emit(self.slot(x, y), i as u32);
                    }
                }
            }
        });
        (self.start, self.entries) = (start, entries);
    }

    /// Cell coordinates of point `p`, clamped into the grid.
    #[inline]
    fn coords(&self, p: DVec2) -> (i32, i32) {
        let q = (p - self.origin) / self.cell;
        (
            (q.x.floor() as i32).clamp(0, self.nx - 1),
            (q.y.floor() as i32).clamp(0, self.ny - 1),
        )
    }

    #[inline]
    fn slot(&self, x: i32, y: i32) -> usize {
        (y * self.nx + x) as usize
    }

    /// The bodies listed in cell `(x, y)` (none outside the grid).
    #[inline]
    fn cell_bodies(&self, x: i32, y: i32) -> &[u32] {
        if self.start.is_empty() || x < 0 || y < 0 || x >= self.nx || y >= self.ny {
            return &[];
        }
        let s = self.slot(x, y);
        &self.entries[self.start[s] as usize..self.start[s + 1] as usize]
    }

    /// Whether `filter` sees body `i`.
    #[inline]
    fn sees(&self, i: u32, filter: &QueryFilter) -> bool {
        let k = i as usize;
        self.layers[k].memberships & filter.mask != 0
            && (filter.sensors || !self.sensor[k])
            && !filter.exclude.contains(&i)
    }

    /// The bodies whose circle contains `point` (on the boundary included), by index.
    pub fn point(&self, point: DVec2, filter: &QueryFilter) -> Vec<u32> {
        self.area(point, point, filter, |c, r| {
            c.distance_squared(point) <= r * r
        })
    }

    /// The bodies whose circle overlaps (or touches) the circle at `centre` of
    /// `radius`, by index.
    pub fn circle(&self, centre: DVec2, radius: f64, filter: &QueryFilter) -> Vec<u32> {
        let reach = DVec2::splat(radius);
        self.area(centre - reach, centre + reach, filter, |c, r| {
            c.distance_squared(centre) <= (r + radius) * (r + radius)
        })
    }

    /// The bodies whose circle overlaps (or touches) the axis-aligned box
    /// `[min, max]`, by index.
    pub fn aabb(&self, min: DVec2, max: DVec2, filter: &QueryFilter) -> Vec<u32> {
        self.area(min, max, filter, |c, r| {
            c.distance_squared(c.clamp(min, max)) <= r * r
        })
    }

    /// The bodies listed in the cells overlapping `[min, max]` (and the big ones) that
    /// `filter` sees and `keep(centre, radius)` accepts, sorted by index.
    fn area(
        &self,
        min: DVec2,
        max: DVec2,
        filter: &QueryFilter,
        keep: impl Fn(DVec2, f64) -> bool,
    ) -> Vec<u32> {
        let mut found = Vec::new();
        if !(min.is_finite() && max.is_finite()) || min.cmpgt(max).any() {
            return found;
        }
        let mut take = |i: u32| {
            let (c, r) = self.circles[i as usize];
            if self.sees(i, filter) && keep(c, r) {
                found.push(i);
            }
        };
        self.big.iter().for_each(|&i| take(i));
        if !self.start.is_empty() {
            let far = self.origin + DVec2::new(f64::from(self.nx), f64::from(self.ny)) * self.cell;
            if max.cmpge(self.origin).all() && min.cmple(far).all() {
                let (x0, y0) = self.coords(min);
                let (x1, y1) = self.coords(max);
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        self.cell_bodies(x, y).iter().for_each(|&i| take(i));
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}
