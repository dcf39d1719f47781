//! Exact time of impact of two circles moving at constant velocity (seeds 000, 003, 004).
//!
//! With relative position `d = p₂ − p₁`, relative velocity `w = v₂ − v₁` and contact
//! distance `σ = r₁ + r₂`, the circles touch when `|d + w t| = σ`, i.e.
//! `a t² + 2 b t + c = 0` with `a = w·w`, `b = d·w`, `c = d·d − σ²`.
//! The earliest root is computed in the cancellation-safe form
//! `t = c / (−b + √(b² − a c))`, which never subtracts two nearly equal numbers when the
//! circles approach (`b < 0`).

use glam::DVec2;

/// Relative approach speeds at or below this (units per second, along the line of
/// centres) are treated as "not approaching". It stops a pair that was just resolved with
/// restitution 0, whose relative normal velocity is zero up to rounding, from being
/// predicted to collide again at the same instant forever.
pub const MIN_APPROACH_SPEED: f64 = 1e-9;

/// Earliest time `t ≥ 0` at which two circles touch, or `None` when they never do.
///
/// * `d` — centre of the second circle minus centre of the first, at time 0.
/// * `w` — velocity of the second circle minus velocity of the first.
/// * `sigma` — sum of the radii.
///
/// A pair that already touches or overlaps (`|d| ≤ σ`) and is approaching returns
/// `Some(0.0)`; a pair that is moving apart (or keeps its distance) returns `None`,
/// whatever its overlap.
///
/// ```
/// use circle_collide_core::toi::time_of_impact;
/// use glam::DVec2;
/// // Gap of 8 between two unit circles closing at 4 units/s: contact after 2 s.
/// let t = time_of_impact(DVec2::new(10.0, 0.0), DVec2::new(-4.0, 0.0), 2.0);
/// assert_eq!(t, Some(2.0));
/// // Moving apart: never.
/// assert_eq!(time_of_impact(DVec2::new(10.0, 0.0), DVec2::new(4.0, 0.0), 2.0), None);
/// ```
#[inline]
pub fn time_of_impact(d: DVec2, w: DVec2, sigma: f64) -> Option<f64> {
    let b = d.dot(w);
    if b >= 0.0 {
        return None;
    }
    let dist_sq = d.length_squared();
    // Approach speed along the line of centres is −b/|d|; tiny ones are no impact.
    if b * b <= MIN_APPROACH_SPEED * MIN_APPROACH_SPEED * dist_sq {
        return None;
    }
    let c = dist_sq - sigma * sigma;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = w.length_squared();
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let t = c / (-b + disc.sqrt());
    if t.is_finite() { Some(t) } else { None }
}

/// Earliest time `t ≥ 0` at which a circle of radius `radius` at coordinate `x` moving at
/// `vx` along one axis touches a wall at coordinate `wall`. `side` is `-1.0` for a wall
/// below the circle (the circle must stay at `x ≥ wall + radius`) and `1.0` for a wall
/// above it (`x ≤ wall − radius`).
///
/// A circle already touching or beyond the wall and moving into it returns `Some(0.0)`.
#[inline]
pub fn wall_time_of_impact(x: f64, vx: f64, radius: f64, wall: f64, side: f64) -> Option<f64> {
    // Speed towards the wall.
    let approach = vx * side;
    if approach <= MIN_APPROACH_SPEED {
        return None;
    }
    // Distance still free before contact.
    let gap = (wall - x) * side - radius;
    if gap <= 0.0 {
        return Some(0.0);
    }
    let t = gap / approach;
    if t.is_finite() { Some(t) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Textbook root of the seed's quadratic, for comparison.
    fn naive(d: DVec2, w: DVec2, sigma: f64) -> f64 {
        let a = w.dot(w);
        let b = 2.0 * d.dot(w);
        let c = d.dot(d) - sigma * sigma;
        (-b - (b * b - 4.0 * a * c).sqrt()) / (2.0 * a)
    }

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs().max(1e-300)
    }

    #[test]
    fn head_on_matches_gap_over_speed() {
        let t = time_of_impact(DVec2::new(3.0, 0.0), DVec2::new(-2.0, 0.0), 1.0).unwrap();
        assert!(rel(t, 1.0) < 1e-15, "t = {t}");
    }

    #[test]
    fn oblique_matches_closed_form() {
        // d = (5, 1), w = (-3, 0), sigma = 2: contact when (5-3t)² + 1 = 4 -> t = (5-√3)/3.
        let t = time_of_impact(DVec2::new(5.0, 1.0), DVec2::new(-3.0, 0.0), 2.0).unwrap();
        let exact = (5.0 - 3f64.sqrt()) / 3.0;
        assert!(rel(t, exact) < 1e-12, "t = {t}, exact = {exact}");
        assert!(rel(t, naive(DVec2::new(5.0, 1.0), DVec2::new(-3.0, 0.0), 2.0)) < 1e-12);
    }

    #[test]
    fn grazing_miss_and_exact_graze() {
        // Offset equal to sigma: touches exactly once at t = 5/3.
        let t = time_of_impact(DVec2::new(5.0, 2.0), DVec2::new(-3.0, 0.0), 2.0).unwrap();
        assert!(rel(t, 5.0 / 3.0) < 1e-12);
        // Offset beyond sigma: no contact.
        assert_eq!(
            time_of_impact(DVec2::new(5.0, 2.0001), DVec2::new(-3.0, 0.0), 2.0),
            None
        );
    }

    #[test]
    fn touching_and_approaching_is_zero() {
        assert_eq!(
            time_of_impact(DVec2::new(2.0, 0.0), DVec2::new(-1.0, 0.0), 2.0),
            Some(0.0)
        );
        // Overlapping and approaching: zero as well.
        assert_eq!(
            time_of_impact(DVec2::new(1.0, 0.0), DVec2::new(-1.0, 0.0), 2.0),
            Some(0.0)
        );
    }

    #[test]
    fn separating_or_parallel_is_none() {
        assert_eq!(
            time_of_impact(DVec2::new(2.0, 0.0), DVec2::new(1.0, 0.0), 2.0),
            None
        );
        assert_eq!(
            time_of_impact(DVec2::new(1.0, 0.0), DVec2::new(0.5, 0.0), 2.0),
            None
        );
        assert_eq!(
            time_of_impact(DVec2::new(3.0, 0.0), DVec2::new(0.0, 1.0), 2.0),
            None
        );
        assert_eq!(time_of_impact(DVec2::new(3.0, 0.0), DVec2::ZERO, 2.0), None);
    }

    #[test]
    fn cancellation_safe_for_tiny_gap_and_fast_approach() {
        // Gap 1e-9 at speed 1e4: the naive formula loses most digits.
        let d = DVec2::new(2.0 + 1e-9, 0.0);
        let w = DVec2::new(-1e4, 1e-3);
        let t = time_of_impact(d, w, 2.0).unwrap();
        // Exact by series: contact when distance = 2; t ≈ gap / speed to first order.
        let exact = 1e-9 / 1e4;
        assert!(rel(t, exact) < 1e-6, "t = {t:e}, exact = {exact:e}");
    }

    #[test]
    fn wall_times() {
        // x = 5, r = 1, moving left at 2 towards a wall at 0: contact when x = 1, t = 2.
        assert_eq!(wall_time_of_impact(5.0, -2.0, 1.0, 0.0, -1.0), Some(2.0));
        assert_eq!(wall_time_of_impact(5.0, 2.0, 1.0, 0.0, -1.0), None);
        // Upper wall at 10: contact when x = 9.
        assert_eq!(wall_time_of_impact(5.0, 2.0, 1.0, 10.0, 1.0), Some(2.0));
        // Already through the wall and moving out: immediate.
        assert_eq!(wall_time_of_impact(-3.0, -1.0, 1.0, 0.0, -1.0), Some(0.0));
    }
}
