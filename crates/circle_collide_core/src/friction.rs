//! Friction and rotation: rough circles.
//!
//! Each body has an angular velocity `ω` (counter-clockwise), a moment of inertia `I`
//! (default the solid disk's `½ m r²`), a Coulomb friction coefficient `μ` and a rolling
//! resistance ([`BodyDesc`](crate::BodyDesc)). A circle's shape does not turn with it,
//! so rotation never changes a path or a time of impact: it only enters the impulses.
//!
//! **At an impact** (the event loop's, in time order) the normal impulse `Jn` is the one
//! of [`impulse`](crate::impulse), unchanged. For circles the contact points lie on the
//! normal, so `Jn` exerts no torque, and a tangential impulse changes no normal
//! velocity: the two parts are independent. With `t = perp(n)` (the normal turned a
//! quarter counter-clockwise), the slip of body 2's surface over body 1's at the contact
//! point is
//!
//! ```text
//! u = (v₂ − v₁)·t − (ω₁ r₁ + ω₂ r₂)
//! ```
//!
//! and a tangential impulse `Jt` on body 2 (`−Jt` on body 1) changes it by `Jt · W`,
//! with `W = w₁ + w₂ + r₁² k₁ + r₂² k₂` (inverse masses `w`, inverse inertias `k`).
//! The impulse that leaves the slip at `−β u` (tangential restitution `β`: −1 smooth,
//! 0 sticking, +1 perfectly rough) is `−(1 + β) u / W`; Coulomb caps its size at `μ Jn`
//! ([`rough_impulse`]). So the impact sticks if the cap allows, and slides otherwise;
//! closed form, no iteration. For `β ≤ 1` the tangential part never adds energy (its
//! size is at most `2 |u| / W`), and with `μ = 0` the impact is exactly the smooth one.
//!
//! **In persistent contacts** (the contact solver) each contact has a tangential
//! impulse within the Coulomb cone `|λt| ≤ μ λn` whose target is no slip, and, with a
//! rolling resistance `c`, an angular impulse within `c · min(r₁, r₂) · λn` whose target
//! is no relative rolling; both are warm-started from the last step.
//!
//! The angle a body turns over a step is `ω dt` with the changes of `ω` at impacts
//! inside the step accounted at their times ([`Bodies::angle`](crate::Bodies::angle)).

use glam::DVec2;

/// The unit tangent of a contact whose normal is `n`: `n` turned a quarter turn
/// counter-clockwise.
#[inline]
pub fn tangent(n: DVec2) -> DVec2 {
    DVec2::new(-n.y, n.x)
}

/// Slip of body 2's surface over body 1's at their contact point, along [`tangent`]`(n)`:
/// `(v₂ − v₁)·t − (ω₁ r₁ + ω₂ r₂)`, with `n` the unit normal from body 1 to body 2.
///
/// ```
/// use circle_collide_core::friction::slip;
/// use glam::DVec2;
/// // A ball rolling to the right on a floor below it (normal from the ball down into the
/// // floor): its surface does not slip.
/// let (v, r) = (DVec2::new(2.0, 0.0), 0.5);
/// assert_eq!(slip(v, -4.0, r, DVec2::ZERO, 0.0, 0.0, DVec2::NEG_Y), 0.0);
/// ```
#[inline]
pub fn slip(v1: DVec2, w1: f64, r1: f64, v2: DVec2, w2: f64, r2: f64, n: DVec2) -> f64 {
    (v2 - v1).dot(tangent(n)) - (w1 * r1 + w2 * r2)
}

/// `W = w₁ + w₂ + r₁² k₁ + r₂² k₂`: how much a unit tangential impulse changes the slip
/// (inverse masses `w`, inverse moments of inertia `k`, radii `r`; zeros for a wall).
#[inline]
pub fn tangent_inverse_mass(w1: f64, k1: f64, r1: f64, w2: f64, k2: f64, r2: f64) -> f64 {
    w1 + w2 + r1 * r1 * k1 + r2 * r2 * k2
}

/// The tangential impulse of a rough impact (on body 2 along [`tangent`]; body 1 gets the
/// opposite): the one that leaves the slip `u` at `−β u`, capped in size at `μ Jn`.
/// `w` is [`tangent_inverse_mass`]; an infinite `μ` never slips. Zero when `μ`, `Jn`,
/// `u` or `w` is zero, or `β ≤ −1` (smooth).
///
/// ```
/// use circle_collide_core::friction::rough_impulse;
/// // A solid disk (w = 1, r² k = 2) sliding at slip 3 on a floor: sticking needs 1,
/// assert_eq!(rough_impulse(3.0, 3.0, 10.0, 0.5, 0.0), -1.0);
/// // and Coulomb allows only 0.5 × 1.
/// assert_eq!(rough_impulse(3.0, 3.0, 1.0, 0.5, 0.0), -0.5);
/// ```
#[inline]
pub fn rough_impulse(u: f64, w: f64, normal_impulse: f64, mu: f64, beta: f64) -> f64 {
    if u == 0.0 || w <= 0.0 || normal_impulse <= 0.0 || mu <= 0.0 || beta <= -1.0 {
        return 0.0;
    }
    let stick = -(1.0 + beta.min(1.0)) * u / w;
    let cap = mu * normal_impulse;
    stick.clamp(-cap, cap)
}

/// What the rotation of one body needs, kept apart from the event loop's cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Spin {
    /// Angular velocity, rad/s.
    pub omega: f64,
    /// Inverse moment of inertia: 0 for a static body, or while asleep.
    pub inv_inertia: f64,
    /// Inverse moment of inertia when awake.
    pub awake_inv_inertia: f64,
    /// Coulomb coefficient.
    pub friction: f64,
    /// Rolling resistance coefficient.
    pub rolling: f64,
    /// Orientation at the start of the step, radians.
    pub angle: f64,
    /// `Σ (ω before − ω after) · t` over the step's changes of `ω` at step times `t`:
    /// the step turns the body by `ω dt + shift`.
    pub shift: f64,
}

impl Spin {
    /// Sets the angular velocity at step time `t`, keeping the angle turned exact.
    #[inline]
    pub fn set_omega_at(&mut self, omega: f64, t: f64) {
        self.shift += (self.omega - omega) * t;
        self.omega = omega;
    }

    /// Rotational kinetic energy `½ I ω²` (0 for a static or sleeping body).
    #[inline]
    pub fn energy(&self) -> f64 {
        if self.inv_inertia > 0.0 {
            0.5 * self.omega * self.omega / self.inv_inertia
        } else {
            0.0
        }
    }
}

impl crate::Simulation {
    /// The rough part of the impact of body `i` with body `j` (or, with `j` `None`, with
    /// a wall of friction `wall_friction`) at step time `t`, right after a normal impulse
    /// `jn` along the unit normal `n` from `i` to the other: applies the tangential
    /// impulse of [`rough_impulse`] to the velocities and spins, and returns it (0 when
    /// the pair is smooth).
    pub(crate) fn rough_impact(
        &mut self,
        i: usize,
        j: Option<usize>,
        wall_friction: f64,
        n: DVec2,
        jn: f64,
        t: f64,
    ) -> f64 {
        let b = &self.bodies;
        let rough = match j {
            Some(j) => b.rough_pair(i, j),
            None => b.rough_with_wall(i, wall_friction),
        };
        if !rough {
            return 0.0;
        }
        let combine = self.config.friction_combine;
        let (hi, si) = (&b.hot[i], &b.spin[i]);
        let (vj, oj, rj, wj, kj, mu_j) = match j {
            Some(j) => {
                let (h, s) = (&b.hot[j], &b.spin[j]);
                (
                    h.vel,
                    s.omega,
                    h.radius,
                    h.inv_mass,
                    s.inv_inertia,
                    s.friction,
                )
            }
            None => (DVec2::ZERO, 0.0, 0.0, 0.0, 0.0, wall_friction),
        };
        let mu = combine.combine(si.friction, mu_j);
        let u = slip(hi.vel, si.omega, hi.radius, vj, oj, rj, n);
        let w = tangent_inverse_mass(hi.inv_mass, si.inv_inertia, hi.radius, wj, kj, rj);
        let jt = rough_impulse(u, w, jn, mu, self.config.tangential_restitution());
        if jt == 0.0 {
            return 0.0;
        }
        let tv = tangent(n);
        let (wi, ki, ri, oi) = (hi.inv_mass, si.inv_inertia, hi.radius, si.omega);
        let bodies = &mut self.bodies;
        bodies.hot[i].vel -= tv * (jt * wi);
        bodies.spin_mut(i).set_omega_at(oi - jt * ri * ki, t);
        if let Some(j) = j {
            bodies.hot[j].vel += tv * (jt * wj);
            bodies.spin_mut(j).set_omega_at(oj - jt * rj * kj, t);
        }
        // Momentum a wall or a static body gives the dynamic one is external.
        if wj == 0.0 {
            self.stats.external_impulse -= tv * jt;
        } else if wi == 0.0 {
            self.stats.external_impulse += tv * jt;
        }
        jt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sticking at β = 0 zeroes the slip; β = 1 reverses it; energy is never created.
    #[test]
    fn sticking_and_perfectly_rough_impulses() {
        let w = tangent_inverse_mass(1.0, 2.0, 1.0, 0.5, 4.0, 0.5);
        assert_eq!(w, 1.0 + 0.5 + 2.0 + 1.0);
        let u = 2.5;
        let stick = rough_impulse(u, w, 1e9, f64::INFINITY, 0.0);
        assert!((u + stick * w).abs() < 1e-15);
        let rough = rough_impulse(u, w, 1e9, f64::INFINITY, 1.0);
        assert!((u + rough * w + u).abs() < 1e-15);
        assert_eq!(
            rough_impulse(u, w, 0.0, f64::INFINITY, 0.0),
            0.0,
            "no Jn, no Jt"
        );
        assert_eq!(rough_impulse(u, w, 1.0, 1.0, -1.0), 0.0, "smooth");
        // Slip energy change ΔE = Jt u + ½ Jt² W ≤ 0 for every cap and β ≤ 1.
        for beta in [-0.5, 0.0, 0.5, 1.0, 3.0] {
            for cap in [0.01, 0.3, 1.0, 100.0] {
                let j = rough_impulse(u, w, cap, 1.0, beta);
                assert!(j * u + 0.5 * j * j * w <= 1e-15, "β {beta} cap {cap}");
            }
        }
    }

    #[test]
    fn angle_shift_accounts_spin_changes_at_their_time() {
        let mut s = Spin {
            omega: 2.0,
            ..Spin::default()
        };
        s.set_omega_at(-1.0, 0.25);
        // 2 rad/s for 0.25 s, then −1 rad/s for 0.75 s: 0.5 − 0.75.
        assert!((s.omega * 1.0 + s.shift - (-0.25)).abs() < 1e-15);
    }
}
