//! Static line segments, the pieces of level geometry: closest point, depth, and the
//! exact time at which a moving circle first touches one.
//!
//! A segment has zero thickness and two sides. A circle touches it either on its
//! interior, where the distance to the segment's line is a quadratic in time for a
//! straight or a parabolic path (the arena wall's equation along the segment's normal),
//! or at an end point, which is the circle–point case of two circles
//! ([`time_of_impact`] or, under gravity,
//! [`time_of_impact_accelerated`]). The earliest of the three is the impact.

use crate::filter::Layers;
use crate::parabolic_toi::time_of_impact_accelerated;
use crate::toi::{MIN_APPROACH_SPEED, time_of_impact};
use glam::DVec2;

/// A static segment of level geometry from `a` to `b`, with its material and layers.
///
/// ```
/// use circle_collide_core::segment::Segment;
/// use glam::DVec2;
/// let floor = Segment::new(DVec2::new(-5.0, 0.0), DVec2::new(5.0, 0.0));
/// // A unit circle 3 above the floor falling at 2 units/s touches it after 1 s.
/// let t = floor.time_of_impact(DVec2::new(1.0, 3.0), DVec2::new(0.0, -2.0), DVec2::ZERO, 1.0, 10.0);
/// assert_eq!(t, Some(1.0));
/// assert_eq!(floor.closest_point(DVec2::new(7.0, 1.0)), DVec2::new(5.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    /// First end point.
    pub a: DVec2,
    /// Second end point.
    pub b: DVec2,
    /// Restitution, combined with the body's by the configured rule (with the default
    /// `Max` rule, `0.0` means "the body's own").
    pub restitution: f64,
    /// Coulomb friction, combined with the body's by the configured rule.
    pub friction: f64,
    /// Collision layers: a body meets the segment only if their layers interact.
    pub layers: Layers,
    /// The caller's number for the collider this segment belongs to (the plugin stores
    /// the entity's index in its list of level colliders here).
    pub owner: u32,
    /// Index of the segment within its collider (0 for a lone segment; a polyline's or a
    /// box's sides in order).
    pub part: u32,
}

impl Segment {
    /// A segment from `a` to `b` with restitution and friction 0 (the body's own under
    /// the `Max` rule), every layer, owner 0, part 0.
    pub fn new(a: DVec2, b: DVec2) -> Self {
        Self {
            a,
            b,
            restitution: 0.0,
            friction: 0.0,
            layers: Layers::ALL,
            owner: 0,
            part: 0,
        }
    }

    /// Whether both end points are finite.
    pub fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite()
    }

    /// The point of the segment closest to `p`.
    #[inline]
    pub fn closest_point(&self, p: DVec2) -> DVec2 {
        let e = self.b - self.a;
        let len_sq = e.length_squared();
        if len_sq == 0.0 {
            return self.a;
        }
        let s = ((p - self.a).dot(e) / len_sq).clamp(0.0, 1.0);
        self.a + e * s
    }

    /// Contact of a circle at `p` of radius `radius`: the closest point, the unit normal
    /// from the centre towards it, and the depth (positive = overlapping). A centre lying
    /// exactly on the segment gets the segment's left normal, turned against `hint` (the
    /// body's velocity, so it is pushed back the way it came) when that is not zero.
    #[inline]
    pub fn contact(&self, p: DVec2, radius: f64, hint: DVec2) -> (DVec2, DVec2, f64) {
        let q = self.closest_point(p);
        let d = q - p;
        let dist = d.length();
        let n = if dist > 0.0 {
            d / dist
        } else {
            let left = (self.b - self.a).perp().try_normalize().unwrap_or(DVec2::Y);
            if hint.dot(left) < 0.0 { -left } else { left }
        };
        (q, n, radius - dist)
    }

    /// Where a circle of `radius` whose centre moved from `from` to `to` straight across
    /// the segment, between its ends, belongs: touching it at the crossing's closest point
    /// on the side of `from`. `None` if the move does not cross it (or only through an
    /// end point, or from or to its line).
    pub(crate) fn back_across(&self, from: DVec2, to: DVec2, radius: f64) -> Option<DVec2> {
        let along = self.b - self.a;
        let (s0, s1) = (along.perp_dot(from - self.a), along.perp_dot(to - self.a));
        let path = to - from;
        let (e0, e1) = (path.perp_dot(self.a - from), path.perp_dot(self.b - from));
        if s0 * s1 >= 0.0 || e0 * e1 >= 0.0 {
            return None;
        }
        let side = along.perp().normalize_or_zero() * s0.signum();
        Some(self.closest_point(to) + side * radius)
    }

    /// Lower and upper corners of the segment's bounding box.
    pub fn bounds(&self) -> (DVec2, DVec2) {
        (self.a.min(self.b), self.a.max(self.b))
    }

    /// Earliest time in `[0, horizon]` at which a circle of radius `radius` at `p`,
    /// moving at `v` with constant acceleration `g`, touches the segment; `None` if it
    /// does not. A circle already touching returns `Some(0.0)` if it moves into the
    /// segment and `None` otherwise, as [`time_of_impact`] does for two circles.
    pub fn time_of_impact(
        &self,
        p: DVec2,
        v: DVec2,
        g: DVec2,
        radius: f64,
        horizon: f64,
    ) -> Option<f64> {
        let mut best = self.interior_time_of_impact(p, v, g, radius);
        for end in [self.a, self.b] {
            let t = if g == DVec2::ZERO {
                time_of_impact(end - p, -v, radius)
            } else {
                time_of_impact_accelerated(end - p, -v, -g, radius, horizon)
            };
            if let Some(t) = t
                && best.is_none_or(|b| t < b)
            {
                best = Some(t);
            }
        }
        best.filter(|&t| t <= horizon)
    }

    /// First time the circle touches the segment's interior (between the end points),
    /// from either side: the times its distance from the segment's line is the radius
    /// (roots of a quadratic, or of a line without acceleration across it), in order,
    /// the first at which it closes on the line with its centre beside the segment.
    /// Under gravity a path may cross the line beyond an end and come back to the other
    /// side, so both sides are tried.
    fn interior_time_of_impact(&self, p: DVec2, v: DVec2, g: DVec2, radius: f64) -> Option<f64> {
        let e = self.b - self.a;
        let len = e.length();
        if len == 0.0 {
            return None;
        }
        let u = e / len;
        let n = u.perp();
        // Signed distance from the line: s0 + s1 t + ½ s2 t².
        let (s0, s1, s2) = (n.dot(p - self.a), n.dot(v), n.dot(g));
        let beside = |t: f64| {
            let at = p + v * t + g * (0.5 * t * t);
            (0.0..=len).contains(&u.dot(at - self.a))
        };
        if s0.abs() <= radius && beside(0.0) {
            // Touching the interior already: an impact now if closing, else resting.
            let closing = -s0.signum() * s1;
            return (closing > MIN_APPROACH_SPEED).then_some(0.0);
        }
        // (Within the line band beyond an end point, the circle meets that end point
        // before the interior, unless it leaves the band and comes back: the roots.)
        let mut best: Option<f64> = None;
        for side in [1.0, -1.0] {
            for t in roots(0.5 * s2, s1, s0 - side * radius)
                .into_iter()
                .flatten()
            {
                // Closing on the line there (|s| decreasing) and beside the segment.
                let closing = -side * (s1 + s2 * t);
                if t >= 0.0 && closing > 0.0 && best.is_none_or(|b| t < b) && beside(t) {
                    best = Some(t);
                }
            }
        }
        best
    }
}

/// Real roots of `a t² + b t + c = 0` (of `b t + c` when `a` is 0), computed without
/// subtracting nearly equal numbers.
fn roots(a: f64, b: f64, c: f64) -> [Option<f64>; 2] {
    if a == 0.0 {
        let t = -c / b;
        return [t.is_finite().then_some(t), None];
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return [None, None];
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    let finite = |t: f64| t.is_finite().then_some(t);
    if q == 0.0 {
        return [Some(0.0), None];
    }
    [finite(q / a), finite(c / q)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_centre_moved_across_goes_back_touching_on_its_side() {
        let s = Segment::new(DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0));
        let r = 0.5;
        // Down across between the ends: back above, touching at the crossing's foot.
        let back = s.back_across(DVec2::new(1.0, 0.3), DVec2::new(1.5, -0.4), r);
        assert_eq!(back, Some(DVec2::new(1.5, 0.5)));
        // Up across from below: back below.
        let back = s.back_across(DVec2::new(3.0, -0.2), DVec2::new(3.0, 0.1), r);
        assert_eq!(back, Some(DVec2::new(3.0, -0.5)));
        // Not across: still above, past an end, onto the line, through an end point.
        assert_eq!(
            s.back_across(DVec2::new(1.0, 0.3), DVec2::new(2.0, 0.1), r),
            None
        );
        assert_eq!(
            s.back_across(DVec2::new(4.5, 0.3), DVec2::new(4.5, -0.3), r),
            None
        );
        assert_eq!(
            s.back_across(DVec2::new(1.0, 0.3), DVec2::new(1.0, 0.0), r),
            None
        );
        assert_eq!(
            s.back_across(DVec2::new(3.0, 1.0), DVec2::new(5.0, -1.0), r),
            None
        );
    }

    #[test]
    fn interior_end_point_and_miss() {
        let s = Segment::new(DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0));
        let g = DVec2::ZERO;
        // Straight down onto the interior from below: touches at y = −1.
        assert_eq!(
            s.time_of_impact(DVec2::new(2.0, -3.0), DVec2::Y, g, 1.0, 9.0),
            Some(2.0)
        );
        // Head-on at the end point along the segment's line.
        assert_eq!(
            s.time_of_impact(DVec2::new(8.0, 0.0), -DVec2::X, g, 1.0, 9.0),
            Some(3.0)
        );
        // Passing beside the end with a clearance.
        assert_eq!(
            s.time_of_impact(DVec2::new(6.0, 5.0), -DVec2::Y, g, 1.0, 99.0),
            None
        );
        // Beyond the horizon.
        assert_eq!(
            s.time_of_impact(DVec2::new(2.0, -3.0), DVec2::Y, g, 1.0, 1.5),
            None
        );
        // Already touching and moving away: nothing.
        assert_eq!(
            s.time_of_impact(DVec2::new(2.0, 1.0), DVec2::Y, g, 1.0, 9.0),
            None
        );
        let (q, n, depth) = s.contact(DVec2::new(5.0, 0.5), 1.0, DVec2::ZERO);
        assert_eq!(q, DVec2::new(4.0, 0.0));
        assert!((n - DVec2::new(-1.0, -0.5).normalize()).length() < 1e-15);
        assert!((depth - (1.0 - 1.25f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn falling_under_gravity_onto_a_slope() {
        // A 45° slope through the origin; a unit circle dropped from rest above it.
        let s = Segment::new(DVec2::new(-10.0, -10.0), DVec2::new(10.0, 10.0));
        let g = DVec2::new(0.0, -10.0);
        let p = DVec2::new(0.0, 5.0);
        let t = s.time_of_impact(p, DVec2::ZERO, g, 1.0, 10.0).unwrap();
        // Distance to the line is y/√2 at x = 0: it reaches 1 when y = √2.
        let y = 5.0 - 5.0 * t * t;
        assert!((y - 2f64.sqrt()).abs() < 1e-12, "{y}");
    }
}
