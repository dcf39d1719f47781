//! The overlap manifold of two circles (seed 002): depth, normal, tangent, point.

use glam::DVec2;

/// Contact geometry of two touching or overlapping circles.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Penetration depth `r₁ + r₂ − |p₂ − p₁|` (negative when apart).
    pub depth: f64,
    /// Unit normal from the first circle towards the second.
    pub normal: DVec2,
    /// Unit tangent, the normal turned a quarter turn counter-clockwise.
    pub tangent: DVec2,
    /// Contact point, weighted by the radii (seed 001): `(p₁ r₂ + p₂ r₁) / (r₁ + r₂)`.
    /// On exact contact this is the touching point of both surfaces.
    pub point: DVec2,
}

/// Direction used when two centres coincide: a fixed angle from the pair's indices, so
/// the separation is deterministic and different pairs of a pile fan out.
pub fn fallback_normal(i: u32, j: u32) -> DVec2 {
    // Golden-angle spread over the pair key.
    let key = (u64::from(i) << 32 | u64::from(j)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let angle = (key >> 11) as f64 / (1u64 << 53) as f64 * std::f64::consts::TAU;
    DVec2::from_angle(angle)
}

/// Manifold of circle 1 `(p1, r1)` and circle 2 `(p2, r2)`, computed whatever their
/// distance (check [`Manifold::depth`]). Coincident centres use [`fallback_normal`] with
/// the given pair indices.
pub fn manifold(p1: DVec2, r1: f64, p2: DVec2, r2: f64, pair: (u32, u32)) -> Manifold {
    let d = p2 - p1;
    let dist = d.length();
    let normal = if dist > 0.0 {
        d / dist
    } else {
        fallback_normal(pair.0, pair.1)
    };
    let sigma = r1 + r2;
    Manifold {
        depth: sigma - dist,
        normal,
        tangent: normal.perp(),
        point: (p1 * r2 + p2 * r1) / sigma,
    }
}

/// Whether two circles overlap (strictly) — seed 001's distance test without the square root.
#[inline]
pub fn overlaps(p1: DVec2, r1: f64, p2: DVec2, r2: f64) -> bool {
    let sigma = r1 + r2;
    p1.distance_squared(p2) < sigma * sigma
}

/// Deepest overlap `r₁ + r₂ − |p₁ − p₂|` over all pairs of `circles` (centre, radius),
/// by sort-and-sweep on x: an independent check for tests and benchmarks (it shares no
/// code with the broad phase). Returns `f64::MIN` for fewer than two circles.
///
/// ```
/// use circle_collide_core::manifold::deepest_overlap;
/// use glam::DVec2;
/// let circles = [(DVec2::ZERO, 1.0), (DVec2::new(1.5, 0.0), 1.0), (DVec2::new(9.0, 0.0), 1.0)];
/// assert_eq!(deepest_overlap(&circles), 0.5);
/// ```
pub fn deepest_overlap(circles: &[(DVec2, f64)]) -> f64 {
    let mut sorted = circles.to_vec();
    sorted.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
    let max_r = sorted.iter().map(|c| c.1).fold(0.0, f64::max);
    let mut deepest = f64::MIN;
    for i in 0..sorted.len() {
        for j in i + 1..sorted.len() {
            if sorted[j].0.x - sorted[i].0.x > sorted[i].1 + max_r {
                break;
            }
            deepest = deepest.max(sorted[i].1 + sorted[j].1 - sorted[i].0.distance(sorted[j].0));
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_normal_tangent_point() {
        let m = manifold(DVec2::new(0.0, 0.0), 1.0, DVec2::new(2.5, 0.0), 2.0, (0, 1));
        assert!((m.depth - 0.5).abs() < 1e-15);
        assert_eq!(m.normal, DVec2::X);
        assert_eq!(m.tangent, DVec2::Y);
        // (0*2 + 2.5*1) / 3
        assert!((m.point.x - 2.5 / 3.0).abs() < 1e-15);
        assert!(overlaps(DVec2::ZERO, 1.0, DVec2::new(2.5, 0.0), 2.0));
        assert!(!overlaps(DVec2::ZERO, 1.0, DVec2::new(3.0, 0.0), 2.0));
    }

    #[test]
    fn coincident_centres_get_a_deterministic_unit_normal() {
        let a = manifold(DVec2::ONE, 1.0, DVec2::ONE, 1.0, (3, 7));
        let b = manifold(DVec2::ONE, 1.0, DVec2::ONE, 1.0, (3, 7));
        assert_eq!(a.normal, b.normal);
        assert!((a.normal.length() - 1.0).abs() < 1e-12);
        assert_eq!(a.depth, 2.0);
        assert_ne!(fallback_normal(3, 7), fallback_normal(3, 8));
    }
}
