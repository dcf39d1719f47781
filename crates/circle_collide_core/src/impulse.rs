//! Collision response: normal impulses with mass and restitution (seeds 001 and 004).
//!
//! For inverse masses `w₁, w₂` (0 for a static body), unit normal `n` from body 1 to
//! body 2 and relative normal velocity `u = (v₂ − v₁)·n < 0`, the impulse magnitude is
//! `J = −(1 + e) u / (w₁ + w₂)`, applied as `v₁ −= J w₁ n`, `v₂ += J w₂ n`. For `e = 1`
//! this is exactly seed 001's 1D elastic formula along the normal, and the tangential
//! parts are untouched (seed 004's decomposition): momentum and kinetic energy are
//! conserved.

use glam::DVec2;

/// How the restitutions of two bodies combine into the pair's restitution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum RestitutionCombine {
    /// The larger of the two (the default: a bouncy ball stays bouncy on any floor).
    #[default]
    Max,
    /// The smaller of the two.
    Min,
    /// The arithmetic mean.
    Average,
    /// The product.
    Multiply,
}

impl RestitutionCombine {
    /// The pair's restitution from the two bodies' restitutions.
    #[inline]
    pub fn combine(self, a: f64, b: f64) -> f64 {
        match self {
            Self::Max => a.max(b),
            Self::Min => a.min(b),
            Self::Average => 0.5 * (a + b),
            Self::Multiply => a * b,
        }
    }
}

/// Result of a normal impulse between two bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpulseResult {
    /// New velocity of body 1.
    pub v1: DVec2,
    /// New velocity of body 2.
    pub v2: DVec2,
    /// Impulse magnitude `J ≥ 0` (momentum units), pushing body 2 along `+n`.
    pub impulse: f64,
    /// Approach speed `−(v₂ − v₁)·n` before the impulse.
    pub approach_speed: f64,
}

/// Applies a normal impulse with restitution `e` to two bodies of inverse masses `w1`,
/// `w2` (`0.0` = static). `n` is the unit normal from body 1 to body 2. Returns `None`
/// when the bodies are not approaching along `n` or both are static.
///
/// ```
/// use circle_collide_core::impulse::normal_impulse;
/// use glam::DVec2;
/// // Equal masses head-on at restitution 1 swap velocities.
/// let r = normal_impulse(DVec2::X, DVec2::NEG_X, 1.0, 1.0, DVec2::X, 1.0).unwrap();
/// assert_eq!((r.v1, r.v2), (DVec2::NEG_X, DVec2::X));
/// ```
#[inline]
pub fn normal_impulse(
    v1: DVec2,
    v2: DVec2,
    w1: f64,
    w2: f64,
    n: DVec2,
    e: f64,
) -> Option<ImpulseResult> {
    let u = (v2 - v1).dot(n);
    let w = w1 + w2;
    if u >= 0.0 || w <= 0.0 {
        return None;
    }
    let impulse = -(1.0 + e) * u / w;
    Some(ImpulseResult {
        v1: v1 - n * (impulse * w1),
        v2: v2 + n * (impulse * w2),
        impulse,
        approach_speed: -u,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unequal_masses_match_seed_001_formula() {
        let (m1, m2) = (3.0, 1.0);
        let (u1, u2) = (2.0, -1.0);
        let r = normal_impulse(
            DVec2::new(u1, 0.0),
            DVec2::new(u2, 0.0),
            1.0 / m1,
            1.0 / m2,
            DVec2::X,
            1.0,
        )
        .unwrap();
        let v1 = (u1 * (m1 - m2) + 2.0 * m2 * u2) / (m1 + m2);
        let v2 = (u2 * (m2 - m1) + 2.0 * m1 * u1) / (m1 + m2);
        assert!((r.v1.x - v1).abs() < 1e-14 && (r.v2.x - v2).abs() < 1e-14);
        assert!((r.approach_speed - 3.0).abs() < 1e-15);
    }

    #[test]
    fn static_body_reflects_exactly() {
        let r = normal_impulse(DVec2::new(3.0, 4.0), DVec2::ZERO, 1.0, 0.0, DVec2::X, 1.0).unwrap();
        assert_eq!(r.v1, DVec2::new(-3.0, 4.0));
        assert_eq!(r.v2, DVec2::ZERO);
        assert!((r.impulse - 6.0).abs() < 1e-15);
    }

    #[test]
    fn inelastic_leaves_common_normal_velocity() {
        let r = normal_impulse(DVec2::X, DVec2::ZERO, 1.0, 1.0, DVec2::X, 0.0).unwrap();
        assert!((r.v1.x - 0.5).abs() < 1e-15 && (r.v2.x - 0.5).abs() < 1e-15);
    }

    #[test]
    fn separating_or_both_static_gives_none() {
        assert!(normal_impulse(DVec2::NEG_X, DVec2::X, 1.0, 1.0, DVec2::X, 1.0).is_none());
        assert!(normal_impulse(DVec2::X, DVec2::NEG_X, 0.0, 0.0, DVec2::X, 1.0).is_none());
    }

    #[test]
    fn combine_rules() {
        assert_eq!(RestitutionCombine::Max.combine(0.2, 0.9), 0.9);
        assert_eq!(RestitutionCombine::Min.combine(0.2, 0.9), 0.2);
        assert!((RestitutionCombine::Average.combine(0.2, 0.9) - 0.55).abs() < 1e-15);
        assert!((RestitutionCombine::Multiply.combine(0.5, 0.5) - 0.25).abs() < 1e-15);
    }
}
