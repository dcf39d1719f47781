//! Exact times of impact when the relative motion is a parabola: a body in flight under
//! gravity against a wall, a static circle, or a body that moves in a straight line (one
//! the contact solver holds, or a kinematic one).
//!
//! Two bodies in flight share the same acceleration, so their relative motion stays a
//! straight line and [`time_of_impact`](crate::toi::time_of_impact) applies unchanged.
//!
//! * **Circle–circle**: with relative position `P(t) = d + w t + ½ a t²` the circles touch
//!   when `f(t) = |P(t)|² − σ² = 0`, a quartic. Its derivative `f′ = 2 P·P′` is a cubic, and
//!   the cubic's derivative a quadratic: the quadratic's roots (closed form) split the
//!   step into pieces where the cubic is monotone, each holding at most one of its
//!   roots, found by safeguarded Newton; those roots (the extremes of the distance) split
//!   it into pieces where `f` itself is monotone, and the first piece along which `f`
//!   reaches zero holds the time of impact, again found by safeguarded Newton. Nothing is
//!   sampled, so no root is stepped over. A graze (the distance's minimum equal to `σ`
//!   within rounding) counts as a touch at the minimum: it is never missed.
//! * **Circle–wall**: a quadratic per axis, solved in the cancellation-safe form.

use crate::toi::MIN_APPROACH_SPEED;
use glam::DVec2;

/// Iterations of safeguarded Newton before giving up on more digits (each at least
/// halves the bracket when Newton misbehaves; Newton itself converges in a handful).
const MAX_ITERATIONS: u32 = 200;

/// Earliest `t` in `[0, horizon]` at which two circles whose relative position moves as
/// `d + w t + ½ a t²` (second minus first) are `sigma` apart, or `None`.
///
/// As [`time_of_impact`](crate::toi::time_of_impact): a pair already touching or
/// overlapping returns `Some(0.0)` if it approaches and `None` otherwise (what follows is
/// resting contact, not an impact).
///
/// ```
/// use circle_collide_core::parabolic_toi::time_of_impact_accelerated;
/// use glam::DVec2;
/// // A ball dropped from rest 5 above a static ball, 2 apart at contact, g = 10:
/// // the gap of 3 closes when 5 t² = 3.
/// let t = time_of_impact_accelerated(
///     DVec2::new(0.0, -5.0), DVec2::ZERO, DVec2::new(0.0, 10.0), 2.0, 10.0,
/// ).unwrap();
/// assert!((t - (3.0f64 / 5.0).sqrt()).abs() < 1e-15);
/// ```
pub fn time_of_impact_accelerated(
    d: DVec2,
    w: DVec2,
    a: DVec2,
    sigma: f64,
    horizon: f64,
) -> Option<f64> {
    let sigma_sq = sigma * sigma;
    let dist_sq = d.length_squared();
    if dist_sq <= sigma_sq {
        let b = d.dot(w);
        let approaching = b < 0.0 && b * b > MIN_APPROACH_SPEED * MIN_APPROACH_SPEED * dist_sq;
        return approaching.then_some(0.0);
    }
    if !(horizon.is_finite() && horizon > 0.0) {
        return None;
    }
    let gap = |t: f64| {
        let p = d + w * t + a * (0.5 * t * t);
        p.length_squared() - sigma_sq
    };
    // f′/2 = P·P′ = c0 + c1 t + c2 t² + c3 t³.
    let slope = |t: f64| {
        let p = d + w * t + a * (0.5 * t * t);
        p.dot(w + a * t)
    };
    let (c1, c2, c3) = (w.dot(w) + d.dot(a), 1.5 * w.dot(a), 0.5 * a.dot(a));
    let curvature = |t: f64| c1 + 2.0 * c2 * t + 3.0 * c3 * t * t;
    // Pieces where the cubic P·P′ is monotone: split at the roots of its derivative.
    let mut cuts = [0.0, horizon, horizon, horizon];
    let mut n = 1;
    for r in quadratic_roots(3.0 * c3, 2.0 * c2, c1) {
        if r > 0.0 && r < horizon {
            cuts[n] = r;
            n += 1;
        }
    }
    cuts[n] = horizon;
    // Extremes of the distance in order: the roots of P·P′ inside the step.
    let mut extremes = [0.0; 5];
    let mut m = 1;
    for k in 0..n {
        let (lo, hi) = (cuts[k], cuts[k + 1]);
        if let Some(r) = monotone_root(&slope, &curvature, lo, hi)
            && r > extremes[m - 1]
            && r < horizon
        {
            extremes[m] = r;
            m += 1;
        }
    }
    extremes[m] = horizon;
    // The first piece along which the gap reaches zero holds the impact (the gap is
    // positive at the start of each piece, or an earlier one would have held it).
    let mut start = gap(0.0);
    for k in 0..m {
        let (lo, hi) = (extremes[k], extremes[k + 1]);
        let end = gap(hi);
        if end <= 0.0 {
            return monotone_root(&gap, &|t| 2.0 * slope(t), lo, hi);
        }
        // A minimum of the distance within rounding of touching is a graze: a touch
        // (with no approach speed), never missed.
        if k + 1 < m && end < start && end <= grazing_tolerance(sigma_sq, d, w, a, hi) {
            return Some(hi);
        }
        start = end;
    }
    None
}

/// How far above zero the gap `|P|² − σ²` may be computed at a minimum and still be a
/// touch: a few roundings of the terms it is made of.
fn grazing_tolerance(sigma_sq: f64, d: DVec2, w: DVec2, a: DVec2, t: f64) -> f64 {
    let scale = d.length() + w.length() * t + 0.5 * a.length() * t * t;
    16.0 * f64::EPSILON * (sigma_sq + scale * scale)
}

/// Real roots of `A t² + B t + C`, in the cancellation-safe form (NaN where none).
fn quadratic_roots(a: f64, b: f64, c: f64) -> [f64; 2] {
    if a == 0.0 {
        return if b != 0.0 {
            [-c / b, f64::NAN]
        } else {
            [f64::NAN; 2]
        };
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return [f64::NAN; 2];
    }
    let q = -0.5 * (b + b.signum() * disc.sqrt());
    if q == 0.0 {
        return [0.0, f64::NAN];
    }
    let (r1, r2) = (q / a, c / q);
    [r1.min(r2), r1.max(r2)]
}

/// The root of `f` in `[lo, hi]`, where `f` is monotone, if `f` changes sign there (a
/// zero at either end counts): safeguarded Newton with derivative `df`, bisecting
/// whenever a Newton step would leave the bracket.
fn monotone_root(
    f: &impl Fn(f64) -> f64,
    df: &impl Fn(f64) -> f64,
    lo: f64,
    hi: f64,
) -> Option<f64> {
    let (f_lo, f_hi) = (f(lo), f(hi));
    if f_lo == 0.0 {
        return Some(lo);
    }
    if f_hi == 0.0 {
        return Some(hi);
    }
    if (f_lo > 0.0) == (f_hi > 0.0) || f_lo.is_nan() || f_hi.is_nan() {
        return None;
    }
    // Keep `neg` where f < 0 and `pos` where f > 0.
    let (mut neg, mut pos) = if f_lo < 0.0 { (lo, hi) } else { (hi, lo) };
    let mut t = if f_lo > 0.0 { lo } else { hi };
    for _ in 0..MAX_ITERATIONS {
        let (value, slope) = (f(t), df(t));
        if value == 0.0 {
            return Some(t);
        }
        if value < 0.0 {
            neg = t;
        } else {
            pos = t;
        }
        let newton = t - value / slope;
        let (a, b) = (neg.min(pos), neg.max(pos));
        let next = if newton > a && newton < b && newton.is_finite() {
            newton
        } else {
            a + 0.5 * (b - a)
        };
        if next == t || next <= a || next >= b {
            break;
        }
        t = next;
    }
    // The side where the circles have not yet met (or the end reached).
    Some(if f_lo > 0.0 { pos } else { neg })
}

/// Earliest time `t ≥ 0` at which a circle of radius `radius` at coordinate `x`, moving
/// at `vx` with acceleration `ax` along one axis, touches a wall at coordinate `wall`
/// (`side` as in [`wall_time_of_impact`](crate::toi::wall_time_of_impact)).
///
/// The gap `(wall − x)·side − radius − (vx t + ½ ax t²)·side` is a quadratic in `t`; its
/// first root is taken in the form that never subtracts nearly equal numbers. A circle
/// already touching or beyond the wall returns `Some(0.0)` if it moves into it, `None`
/// otherwise.
///
/// ```
/// use circle_collide_core::parabolic_toi::wall_time_of_impact_accelerated;
/// // Dropped from rest at height 5 (radius 1) under g = 10 onto the floor at 0:
/// // the centre falls 4 when 5 t² = 4.
/// let t = wall_time_of_impact_accelerated(5.0, 0.0, -10.0, 1.0, 0.0, -1.0).unwrap();
/// assert!((t - 0.8f64.sqrt()).abs() < 1e-15);
/// ```
pub fn wall_time_of_impact_accelerated(
    x: f64,
    vx: f64,
    ax: f64,
    radius: f64,
    wall: f64,
    side: f64,
) -> Option<f64> {
    // Approach speed and half the acceleration towards the wall.
    let (b, a) = (vx * side, 0.5 * ax * side);
    let gap = (wall - x) * side - radius;
    if gap <= 0.0 {
        return (b > MIN_APPROACH_SPEED).then_some(0.0);
    }
    // a t² + b t − gap = 0.
    let disc = b * b + 4.0 * a * gap;
    if disc < 0.0 {
        return None; // turns back before reaching the wall
    }
    let t = if b > 0.0 {
        2.0 * gap / (b + disc.sqrt())
    } else if a > 0.0 {
        (disc.sqrt() - b) / (2.0 * a)
    } else {
        return None;
    };
    (t.is_finite() && t >= 0.0).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_closed_forms() {
        // Thrown down at 3 from 10 (radius 0) under g = 10: 10 = 3t + 5t².
        let t = wall_time_of_impact_accelerated(10.0, -3.0, -10.0, 0.0, 0.0, -1.0).unwrap();
        let exact = (-3.0 + (9.0f64 + 200.0).sqrt()) / 10.0;
        assert!((t - exact).abs() <= 1e-15 * exact);
        // Thrown up at 10 from 1 towards a ceiling at 4 under g = 10: rises 5 at most, so it
        // reaches 3 more when 10t − 5t² = 3, t = 1 − √0.4.
        let t = wall_time_of_impact_accelerated(1.0, 10.0, -10.0, 0.0, 4.0, 1.0).unwrap();
        assert!((t - (1.0 - 0.4f64.sqrt())).abs() <= 1e-15);
        // The same throw never reaches a ceiling at 7.
        assert_eq!(
            wall_time_of_impact_accelerated(1.0, 10.0, -10.0, 0.0, 7.0, 1.0),
            None
        );
        // Thrown up from just above the floor: comes back down after 2 s.
        let t = wall_time_of_impact_accelerated(1.0 + 1e-12, 10.0, -10.0, 1.0, 0.0, -1.0);
        assert!((t.unwrap() - 2.0).abs() < 1e-12);
        // Touching and moving in: now; touching and leaving: not an impact.
        assert_eq!(
            wall_time_of_impact_accelerated(1.0, -1.0, -10.0, 1.0, 0.0, -1.0),
            Some(0.0)
        );
        assert_eq!(
            wall_time_of_impact_accelerated(1.0, 1.0, -10.0, 1.0, 0.0, -1.0),
            None
        );
    }

    #[test]
    fn circle_closed_forms() {
        // Head-on along y: a ball 10 above a static one (σ = 2), thrown down at 4, g = 10:
        // 8 = 4t + 5t².
        let t = time_of_impact_accelerated(
            DVec2::new(0.0, -10.0),
            DVec2::new(0.0, 4.0),
            DVec2::new(0.0, 10.0),
            2.0,
            5.0,
        )
        .unwrap();
        let exact = (-4.0 + (16.0f64 + 160.0).sqrt()) / 10.0;
        assert!((t - exact).abs() <= 2e-15 * exact, "{t} vs {exact}");
        // Thrown sideways at (−4, 0) under g = 10 onto a post (σ = 1), built backwards from
        // a contact at t = 0.5 with normal (−0.6, 0.8): P(0.5) = σ n, closing there.
        let (n, w, a) = (
            DVec2::new(-0.6, 0.8),
            DVec2::new(-4.0, 0.0),
            DVec2::new(0.0, -10.0),
        );
        let d = n - w * 0.5 - a * 0.125;
        let t = time_of_impact_accelerated(d, w, a, 1.0, 1.0).unwrap();
        assert!((t - 0.5).abs() < 1e-15, "{t}");
        // Thrown the other way from the same place it flies away and never comes back.
        assert_eq!(time_of_impact_accelerated(d, -w, a, 1.0, 1.0), None);
        // A horizon before the contact: none within it.
        assert_eq!(time_of_impact_accelerated(d, w, a, 1.0, 0.49), None);
    }

    #[test]
    fn a_graze_is_a_touch() {
        // Built backwards from a contact at t = 0.5 where the relative velocity is
        // tangent (P′·n = 0) and the path bends less than the circle (curvature
        // 10/5² < 1/σ): the distance's minimum is exactly σ.
        let (n, a) = (DVec2::new(0.0, 1.0), DVec2::new(0.0, -10.0));
        let w = DVec2::new(5.0, 5.0); // P′(0.5) = (5, 0) ⟂ n
        let d = n - w * 0.5 - a * 0.125;
        let t = time_of_impact_accelerated(d, w, a, 1.0, 1.0).unwrap();
        assert!((t - 0.5).abs() < 1e-7, "{t}");
    }

    #[test]
    fn separating_overlap_is_no_impact() {
        let none = time_of_impact_accelerated(
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(-5.0, 0.0),
            2.0,
            1.0,
        );
        assert_eq!(none, None);
    }

    #[test]
    fn quadratic_roots_are_ordered_and_cancellation_safe() {
        let [r1, r2] = quadratic_roots(1.0, -1e8, 1.0);
        assert!((r1 - 1e-8).abs() < 1e-22 && (r2 - 1e8).abs() < 1e-6);
        assert!(quadratic_roots(1.0, 0.0, 1.0)[0].is_nan());
    }
}
