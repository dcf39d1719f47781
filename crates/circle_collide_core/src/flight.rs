//! Exact flight under uniform gravity: where a body is, how fast it goes, and the box of
//! its path, when it moves on the parabola `p(t) = p₀ + v₀t + ½gt²`, `v(t) = v₀ + gt`.
//!
//! Free bodies fly on parabolas inside the step, so an elastic ball keeps its bounce
//! exactly whatever the time of its impact within the step. Bodies the contact solver
//! holds move in straight lines at the velocity it gave them (see
//! [`contacts`](crate::contacts)): it already counted the step's gravity.

use glam::DVec2;

/// Position after `tau` seconds from `p` at velocity `v` under acceleration `a`.
#[inline]
pub fn position(p: DVec2, v: DVec2, a: DVec2, tau: f64) -> DVec2 {
    p + v * tau + a * (0.5 * tau * tau)
}

/// Velocity after `tau` seconds from `v` under acceleration `a`.
#[inline]
pub fn velocity(v: DVec2, a: DVec2, tau: f64) -> DVec2 {
    v + a * tau
}

/// Box `(min, max)` of the centres of the parabola from `p` at velocity `v` under
/// acceleration `a`, over `tau ∈ [0, duration]`: its two ends and, on each axis whose
/// velocity turns within the interval, the vertex.
///
/// ```
/// use circle_collide_core::flight::path_box;
/// use glam::DVec2;
/// // Thrown up at 10 under g = −10: rises 5 in 1 s, back at the start after 2 s.
/// let (min, max) = path_box(DVec2::ZERO, DVec2::new(1.0, 10.0), DVec2::new(0.0, -10.0), 2.0);
/// assert_eq!((min, max), (DVec2::new(0.0, 0.0), DVec2::new(2.0, 5.0)));
/// ```
#[inline]
pub fn path_box(p: DVec2, v: DVec2, a: DVec2, duration: f64) -> (DVec2, DVec2) {
    let end = position(p, v, a, duration);
    let (mut min, mut max) = (p.min(end), p.max(end));
    for axis in 0..2 {
        // The velocity on this axis is zero at tau = −v/a: an extreme of the coordinate.
        if a[axis] != 0.0 {
            let turn = -v[axis] / a[axis];
            if turn > 0.0 && turn < duration {
                let x = p[axis] + v[axis] * turn + 0.5 * a[axis] * turn * turn;
                min[axis] = min[axis].min(x);
                max[axis] = max[axis].max(x);
            }
        }
    }
    (min, max)
}

/// A box `(min, max)` holding the parabola of [`path_box`] over `[0, duration]`, cheaper
/// to compute (no division, no branch): the box of its chord widened on each axis by the
/// most a parabola strays from its chord, `|a| duration² / 8`. The broad phase uses it;
/// it is never more than that much larger than [`path_box`].
#[inline(always)]
pub fn path_bounds(p: DVec2, v: DVec2, a: DVec2, duration: f64) -> (DVec2, DVec2) {
    let end = position(p, v, a, duration);
    let bulge = a.abs() * (0.125 * duration * duration);
    (p.min(end) - bulge, p.max(end) + bulge)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box holds every point of the path (sampled densely) and is reached by it.
    #[test]
    fn path_box_is_the_tightest_box_of_the_path() {
        let mut seed = 7u64;
        let mut draw = || crate::scenes::SplitMix64::next_f64(&mut seed) * 2.0 - 1.0;
        for _ in 0..2000 {
            let (p, v) = (
                DVec2::new(draw(), draw()) * 10.0,
                DVec2::new(draw(), draw()) * 20.0,
            );
            let (a, duration) = (DVec2::new(draw(), draw()) * 30.0, draw().abs() * 2.0);
            let (min, max) = path_box(p, v, a, duration);
            let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(-f64::INFINITY));
            for k in 0..=20_000 {
                let q = position(p, v, a, duration * k as f64 / 20_000.0);
                assert!(q.cmpge(min - 1e-9).all() && q.cmple(max + 1e-9).all());
                (lo, hi) = (lo.min(q), hi.max(q));
            }
            // Sampling at 1/20000 of the interval gets within its square of the extremes.
            let slack = 1e-6 * (v.length() + a.length() * duration + 1.0) * (duration + 1.0);
            assert!((lo - min).abs().max_element() <= slack, "{lo} vs {min}");
            assert!((hi - max).abs().max_element() <= slack, "{hi} vs {max}");
        }
    }

    /// The cheap bounds hold the tightest box and exceed it by at most `|a| T² / 8`.
    #[test]
    fn path_bounds_hold_the_path_box_within_the_bulge() {
        let mut seed = 9u64;
        let mut draw = || crate::scenes::SplitMix64::next_f64(&mut seed) * 2.0 - 1.0;
        for _ in 0..100_000 {
            let (p, v) = (
                DVec2::new(draw(), draw()) * 10.0,
                DVec2::new(draw(), draw()) * 20.0,
            );
            let (a, duration) = (DVec2::new(draw(), draw()) * 30.0, draw().abs() * 2.0);
            let (tight, loose) = (path_box(p, v, a, duration), path_bounds(p, v, a, duration));
            let bulge = a.abs() * (0.125 * duration * duration) + 1e-12;
            assert!(loose.0.cmple(tight.0).all() && tight.1.cmple(loose.1).all());
            assert!(
                (tight.0 - loose.0).cmple(bulge).all() && (loose.1 - tight.1).cmple(bulge).all()
            );
        }
    }

    #[test]
    fn no_acceleration_is_a_straight_line() {
        let (p, v) = (DVec2::new(1.0, -2.0), DVec2::new(-3.0, 0.5));
        assert_eq!(position(p, v, DVec2::ZERO, 0.7), p + v * 0.7);
        assert_eq!(
            path_box(p, v, DVec2::ZERO, 2.0),
            (p.min(p + v * 2.0), p.max(p + v * 2.0))
        );
    }
}
