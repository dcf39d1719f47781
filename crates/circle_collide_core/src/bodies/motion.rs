//! The bodies' motion through a step: where a body is and how fast it goes at a step
//! time, times of impact between two bodies, advancing a body, its swept and path boxes,
//! and the energies and momentum of the whole set.

use super::{Bodies, Hot, SPECULATIVE_MARGIN, boxes_overlap};
use crate::friction::Spin;
use glam::DVec2;

impl Bodies {
    /// Position of body `i` at step time `t` (lazy extrapolation, on its parabola if
    /// it flies).
    #[inline]
    pub(crate) fn position_at(&self, i: usize, t: f64) -> DVec2 {
        self.hot[i].position_at(t, self.gravity)
    }

    /// Velocity of body `i` at step time `t`.
    #[inline]
    pub(crate) fn velocity_at(&self, i: usize, t: f64) -> DVec2 {
        self.hot[i].velocity_at(t, self.gravity)
    }

    /// Acceleration of body `i` this step: gravity if it flies, else none.
    #[inline]
    pub(crate) fn acceleration(&self, i: usize) -> DVec2 {
        if self.hot[i].flying() {
            self.gravity
        } else {
            DVec2::ZERO
        }
    }

    /// Earliest time of impact of bodies `i` and `j` from step time `now`, within
    /// `horizon` seconds of it: exact on their paths (straight lines, or parabolas for
    /// the flying ones; see [`parabolic_toi`](crate::parabolic_toi)). `None` if none
    /// within the horizon; `Some(0)` if they touch and approach now.
    #[inline]
    pub(crate) fn time_of_impact(&self, i: usize, j: usize, now: f64, horizon: f64) -> Option<f64> {
        let d = self.position_at(j, now) - self.position_at(i, now);
        let w = self.velocity_at(j, now) - self.velocity_at(i, now);
        self.time_of_impact_from(i, j, d, w, horizon)
            .filter(|&s| s <= horizon)
    }

    /// [`time_of_impact`](Self::time_of_impact) given the relative position `d` and
    /// velocity `w` (of `j` from `i`) now; a straight-line time may lie beyond the
    /// horizon (the caller checks).
    #[inline(always)]
    pub(crate) fn time_of_impact_from(
        &self,
        i: usize,
        j: usize,
        d: DVec2,
        w: DVec2,
        horizon: f64,
    ) -> Option<f64> {
        let sigma = self.hot[i].radius + self.hot[j].radius;
        if self.hot[i].flying() == self.hot[j].flying() {
            // The same acceleration: a straight line relative to each other.
            crate::toi::time_of_impact(d, w, sigma)
        } else {
            let a = self.acceleration(j) - self.acceleration(i);
            crate::parabolic_toi::time_of_impact_accelerated(d, w, a, sigma, horizon)
        }
    }

    /// Moves body `i` to step time `t` along its path (its velocity too, if it flies).
    #[inline]
    pub(crate) fn advance(&mut self, i: usize, t: f64) {
        let g = self.gravity;
        let h = &mut self.hot[i];
        if h.time != t {
            if h.flying() {
                let tau = t - h.time;
                h.pos = crate::flight::position(h.pos, h.vel, g, tau);
                h.vel = crate::flight::velocity(h.vel, g, tau);
            } else {
                h.pos = h.position_at(t, g);
            }
            h.time = t;
        }
    }

    /// Box of body `i`'s path over the rest of the sweep (to [`sweep_end`](Self::sweep_end)),
    /// widened by [`margin`](Self::margin) times its radius, and by
    /// [`SPECULATIVE_MARGIN`] times it more while the body is marked speculative (it was
    /// in the contact solver last step). The broad phase, the grid and every query use
    /// this box.
    #[inline(always)]
    pub(crate) fn swept_box(&self, i: usize) -> (DVec2, DVec2) {
        let extra = if self.hot[i].speculative() {
            SPECULATIVE_MARGIN
        } else {
            0.0
        };
        self.widened_path_box(i, self.margin + extra)
    }

    /// [`swept_box`](Self::swept_box) without the speculative widening: the box body
    /// `i`'s path needs.
    #[inline]
    pub(crate) fn path_box(&self, i: usize) -> (DVec2, DVec2) {
        self.widened_path_box(i, self.margin)
    }

    /// The box of body `i`'s path over the rest of the sweep, widened by `margin` times
    /// its radius on every side.
    #[inline(always)]
    fn widened_path_box(&self, i: usize, margin: f64) -> (DVec2, DVec2) {
        let h = &self.hot[i];
        let (min, max) = h.swept_box(self.sweep_end, self.gravity);
        let margin = DVec2::splat(margin * h.radius);
        (min - margin, max + margin)
    }

    /// Whether the swept boxes of `i` and `j` overlap.
    #[inline]
    pub(crate) fn boxes_overlap(&self, i: usize, j: usize) -> bool {
        boxes_overlap(self.swept_box(i), self.swept_box(j))
    }

    /// Kinetic energy `Σ ½ m v²` of the dynamic bodies.
    pub fn kinetic_energy(&self) -> f64 {
        self.hot
            .iter()
            .filter(|h| h.inv_mass > 0.0)
            .map(Hot::kinetic_energy)
            .sum()
    }

    /// Rotational kinetic energy `Σ ½ I ω²` of the dynamic bodies: with
    /// [`kinetic_energy`](Self::kinetic_energy), the energy rough impacts exchange.
    pub fn rotational_energy(&self) -> f64 {
        self.spin.iter().map(Spin::energy).sum()
    }

    /// Potential energy `Σ −m g·p` of the dynamic bodies in the uniform field `gravity`
    /// (zero at the origin): with [`kinetic_energy`](Self::kinetic_energy), the energy an
    /// elastic world under gravity keeps.
    pub fn potential_energy(&self, gravity: DVec2) -> f64 {
        (0..self.len())
            .filter(|&i| self.awake_inv_mass[i] > 0.0)
            .map(|i| -gravity.dot(self.hot[i].pos) / self.awake_inv_mass[i])
            .sum()
    }

    /// Momentum `Σ m v` of the dynamic bodies.
    pub fn momentum(&self) -> DVec2 {
        self.hot
            .iter()
            .filter(|h| h.inv_mass > 0.0)
            .map(Hot::momentum)
            .sum()
    }
}
