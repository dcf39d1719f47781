//! Ray and circle casts over a [`SpatialIndex`]: the grid walked cell by cell along the
//! ray (Amanatides–Woo), exact ray–circle and swept-circle intersections, the arena's
//! walls and the level's segments.

use super::{CastHit, QueryFilter, QueryTarget, SpatialIndex};
use crate::arena::{Arena, Wall};
use crate::level::Level;
use glam::DVec2;

/// The ray–circle intersection: the smallest `t ≥ 0` at which `o + d t` (`d` a unit
/// vector) is at distance `rho` from `c`, if it comes within `max`; 0 if `o` is within
/// `rho` already.
#[inline]
fn ray_circle(o: DVec2, d: DVec2, c: DVec2, rho: f64, max: f64) -> Option<f64> {
    let m = o - c;
    let cc = m.length_squared() - rho * rho;
    if cc <= 0.0 {
        return Some(0.0);
    }
    let b = m.dot(d);
    if b >= 0.0 {
        return None;
    }
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    // The nearer root, in the form without cancellation.
    let t = cc / (-b + disc.sqrt());
    (t <= max).then_some(t)
}

impl SpatialIndex {
    /// The first body or wall a ray from `origin` along `direction` meets within
    /// `max_distance` (`direction` need not be unit length; a zero or non-finite one
    /// hits nothing). Ties go to the lower body index, walls last.
    pub fn ray_cast(
        &self,
        origin: DVec2,
        direction: DVec2,
        max_distance: f64,
        filter: &QueryFilter,
    ) -> Option<CastHit> {
        self.cast(origin, direction, 0.0, max_distance, filter)
    }

    /// Every body a ray meets within `max_distance`, nearest first (ties by body
    /// index), each with its first hit; walls are not listed.
    pub fn ray_cast_all(
        &self,
        origin: DVec2,
        direction: DVec2,
        max_distance: f64,
        filter: &QueryFilter,
    ) -> Vec<CastHit> {
        let mut hits = Vec::new();
        let Some(d) = direction.try_normalize() else {
            return hits;
        };
        if !origin.is_finite() {
            return hits;
        }
        let max = max_distance.max(0.0);
        let mut seen = Vec::new();
        self.walk(origin, d, max, 0, &mut |i| {
            if self.sees(i, filter) {
                seen.push(i);
            }
            f64::INFINITY
        });
        seen.extend(self.big.iter().copied().filter(|&i| self.sees(i, filter)));
        seen.sort_unstable();
        seen.dedup();
        for i in seen {
            let (c, r) = self.circles[i as usize];
            if let Some(t) = ray_circle(origin, d, c, r, max) {
                hits.push(self.body_hit(i, origin, d, t, 0.0));
            }
        }
        hits.sort_by(|a, b| {
            a.distance
                .total_cmp(&b.distance)
                .then(a.target.cmp(&b.target))
        });
        hits
    }

    /// The first body or wall a circle of `radius` at `origin`, moving along
    /// `direction`, touches within `max_distance`: the exact time of impact of the swept
    /// circle. A circle that starts overlapping a body or sunk in a wall hits it at
    /// distance 0.
    pub fn circle_cast(
        &self,
        origin: DVec2,
        radius: f64,
        direction: DVec2,
        max_distance: f64,
        filter: &QueryFilter,
    ) -> Option<CastHit> {
        if !(radius.is_finite() && radius >= 0.0) {
            return None;
        }
        self.cast(origin, direction, radius, max_distance, filter)
    }

    /// The same index with the level's segments, for casts (a copy: the index is a
    /// snapshot).
    pub fn with_level(mut self, level: &Level) -> Self {
        self.level = level.clone();
        self
    }

    /// Ray cast (`radius` 0) or circle cast.
    fn cast(
        &self,
        origin: DVec2,
        direction: DVec2,
        radius: f64,
        max_distance: f64,
        filter: &QueryFilter,
    ) -> Option<CastHit> {
        let d = direction.try_normalize()?;
        if !origin.is_finite() {
            return None;
        }
        let max = max_distance.max(0.0);
        // (distance, body) of the best hit so far.
        let mut best: Option<(f64, u32)> = None;
        let consider = |i: u32, best: &mut Option<(f64, u32)>| {
            if !self.sees(i, filter) {
                return;
            }
            let (c, r) = self.circles[i as usize];
            let reach = best.map_or(max, |b| b.0);
            if let Some(t) = ray_circle(origin, d, c, r + radius, reach)
                && best.is_none_or(|b| t < b.0 || (t == b.0 && i < b.1))
            {
                *best = Some((t, i));
            }
        };
        for &i in &self.big {
            consider(i, &mut best);
        }
        let around = if self.cell > 0.0 {
            (radius / self.cell).ceil() as i32
        } else {
            0
        };
        self.walk(origin, d, max, around, &mut |i| {
            consider(i, &mut best);
            best.map_or(f64::INFINITY, |b| b.0)
        });
        let mut hit = best.map(|(t, i)| self.body_hit(i, origin, d, t, radius));
        if filter.walls
            && let Some(arena) = self.arena
            && let Some((t, wall)) = wall_hit(&arena, origin, d, radius)
            && t <= max
            && hit.is_none_or(|h| t < h.distance)
        {
            let n = -wall.outward_normal();
            let centre = origin + d * t;
            hit = Some(CastHit {
                target: QueryTarget::Wall(wall),
                distance: t,
                point: centre - n * radius,
                normal: n,
            });
        }
        if filter.walls && !self.level.is_empty() {
            let reach = hit.map_or(max, |h| h.distance);
            let end = origin + d * reach.min(1e300);
            let pad = DVec2::splat(radius);
            let mut best: Option<(f64, usize)> = None;
            self.level
                .visit(origin.min(end) - pad, origin.max(end) + pad, |s| {
                    let seg = &self.level.segments()[s];
                    if seg.layers.memberships & filter.mask == 0 {
                        return;
                    }
                    let limit = best.map_or(reach, |b| b.0);
                    if let Some(t) = seg.time_of_impact(origin, d, DVec2::ZERO, radius, limit)
                        && best.is_none_or(|b| (t, s) < b)
                    {
                        best = Some((t, s));
                    }
                });
            if let Some((t, s)) = best
                && hit.is_none_or(|h| t < h.distance)
            {
                let centre = origin + d * t;
                let (point, n, _) = self.level.segments()[s].contact(centre, radius, d);
                hit = Some(CastHit {
                    target: QueryTarget::Segment(s as u32),
                    distance: t,
                    point,
                    normal: -n,
                });
            }
        }
        hit
    }

    /// The hit on body `i` of a cast of `radius` from `o` along `d` at distance `t`.
    fn body_hit(&self, i: u32, o: DVec2, d: DVec2, t: f64, radius: f64) -> CastHit {
        let (c, r) = self.circles[i as usize];
        let centre = o + d * t;
        let normal = (centre - c).try_normalize().unwrap_or(-d);
        CastHit {
            target: QueryTarget::Body(i),
            distance: t,
            point: if t == 0.0 && radius == 0.0 {
                o
            } else {
                c + normal * r
            },
            normal,
        }
    }

    /// Walks the cells a ray from `o` along unit `d` crosses within `max`, in order,
    /// calling `visit` for each body listed in them and in the `around` cells on each
    /// side; `visit` returns the distance of the nearest hit so far, and the walk stops
    /// once the next cell starts beyond it.
    fn walk(&self, o: DVec2, d: DVec2, max: f64, around: i32, visit: &mut impl FnMut(u32) -> f64) {
        if self.start.is_empty() {
            return;
        }
        // Where the ray is inside the grid's bounds (widened by `around` cells).
        let pad = f64::from(around) * self.cell;
        let lo = self.origin - pad;
        let hi = self.origin + DVec2::new(f64::from(self.nx), f64::from(self.ny)) * self.cell + pad;
        let (mut t0, mut t1) = (0.0f64, max);
        for axis in 0..2 {
            if d[axis] == 0.0 {
                if o[axis] < lo[axis] || o[axis] > hi[axis] {
                    return;
                }
                continue;
            }
            let (a, b) = (
                (lo[axis] - o[axis]) / d[axis],
                (hi[axis] - o[axis]) / d[axis],
            );
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        if t0 > t1 {
            return;
        }
        let p = o + d * t0;
        let q = (p - self.origin) / self.cell;
        let (mut x, mut y) = (q.x.floor() as i32, q.y.floor() as i32);
        let step = (d.x.signum() as i32, d.y.signum() as i32);
        // Distance along the ray to the next vertical (horizontal) cell line, and between
        // two of them.
        let first_line = |coord: i32, dir: f64, origin: f64, from: f64| {
            if dir == 0.0 {
                return f64::INFINITY;
            }
            let edge = origin + f64::from(coord + i32::from(dir > 0.0)) * self.cell;
            t0 + ((edge - from) / dir).max(0.0)
        };
        let mut tx = first_line(x, d.x, self.origin.x, p.x);
        let mut ty = first_line(y, d.y, self.origin.y, p.y);
        let (dtx, dty) = (self.cell / d.x.abs(), self.cell / d.y.abs());
        // Rounding at cell lines: a hit this close past the line is looked for beyond it.
        let tolerance = 1e-9 * self.cell;
        let margin = around + 1;
        loop {
            let mut nearest = f64::INFINITY;
            for cy in y - around..=y + around {
                for cx in x - around..=x + around {
                    for &i in self.cell_bodies(cx, cy) {
                        nearest = nearest.min(visit(i));
                    }
                }
            }
            let leave = tx.min(ty);
            if leave > t1 || leave > nearest + tolerance {
                return;
            }
            if tx <= ty {
                x += step.0;
                tx += dtx;
            } else {
                y += step.1;
                ty += dty;
            }
            if x < -margin || y < -margin || x > self.nx + margin || y > self.ny + margin {
                return;
            }
        }
    }
}

/// The first wall of `arena` a circle of `radius` at `o` moving along unit `d` touches:
/// `(distance, wall)`; distance 0 for a wall it already sinks into while moving into it.
fn wall_hit(arena: &Arena, o: DVec2, d: DVec2, radius: f64) -> Option<(f64, Wall)> {
    let mut best: Option<(f64, Wall)> = None;
    for wall in Wall::ALL {
        let n = wall.outward_normal();
        let speed = d.dot(n);
        if speed <= 0.0 {
            continue;
        }
        let gap = -arena.depth(wall, o, radius);
        let t = (gap / speed).max(0.0);
        if best.is_none_or(|(b, _)| t < b) {
            best = Some((t, wall));
        }
    }
    best
}
