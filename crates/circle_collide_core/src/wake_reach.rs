//! Sleeping by neighbourhood: how far a hit the broad phase foresees on a sleeping body
//! wakes the sleeping bodies around it
//! ([`by_neighbourhood`](crate::config::SleepConfig::by_neighbourhood)).
//!
//! An impact must travel through every body it reaches within the step: a sleeping body
//! stands as a static one, and a body hitting it bounces back instead of passing its
//! momentum on. By whole islands a hit wakes the island. By neighbourhood it wakes the
//! bodies the impact can reach: the body hit, and from each woken body that leaves
//! faster than the resting speed (a pair closing that fast is an impact, not a resting
//! contact), the sleeping bodies touching it. How fast a woken body leaves is estimated
//! as a head-on hit from a body at rest: a body of inverse mass `w` hit at `closing` by
//! one of inverse mass `w'` with restitution `e` leaves at `(1 + e) · w / (w + w') ·
//! closing` ([`speed_given`]). In an elastic row of equal masses that is the hit's speed
//! all the way (the whole row wakes, and the far end leaves at the ball's speed); in the
//! jittered pile (restitution 0.2) each body passes on 0.6 of its speed, so a hit at 3
//! units/s reaches five bodies deep. Beyond, the pairs close more slowly than the
//! resting speed: the contact solver takes them against the sleeping bodies, as it would
//! have against awake ones at rest, and a woken body still moving wakes its sleeping
//! neighbours in the next step (`wake_near`).
//!
//! Oblique hits pass on less than a head-on one. What the estimate misses is a push
//! from behind: the bodies already struck hit again, and two bodies hitting one at the
//! same instant pass on more than either alone (each sleeping body takes the fastest
//! estimate that reaches it; the fastest are followed first). In an inelastic row hit
//! at 6 units/s the sixth body struck hit the seventh at 0.365 units/s where a single hit
//! gives 0.28: such a hit, unforeseen, meets a sleeping body as a static one, and the end
//! of the step wakes its island (`wake_islands_hit`; waking only the bodies such hits
//! reach let a collapse inside a pile go on for seconds, `docs/contacts.md`, "A hit
//! wakes the bodies it reaches"). A moving kinematic body's hit still wakes the island:
//! it keeps pushing, and everything in its way has to move (so does its push through
//! awake bodies onto a sleeping one, `wake_push`).

use crate::simulation::Simulation;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A sleeping body an impact reaches, and the speed it is estimated to leave at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reached {
    /// Speed the body leaves at ([`speed_given`]), units/s.
    pub(crate) speed: f64,
    /// The body.
    pub(crate) body: u32,
}

impl Eq for Reached {}

impl Ord for Reached {
    /// Faster first; of equal speeds the lower body index first (the canonical order,
    /// so the bodies woken do not depend on the order the hits were found in).
    fn cmp(&self, other: &Self) -> Ordering {
        (self.speed.total_cmp(&other.speed)).then(other.body.cmp(&self.body))
    }
}

impl PartialOrd for Reached {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The speed a body of inverse mass `w` at rest leaves at when a body of inverse mass
/// `w_hitter` hits it head-on at `closing` with restitution `e` (clamped to `0..=1`):
/// `(1 + e) · w / (w + w_hitter) · closing`. A static or kinematic hitter (`w_hitter` 0)
/// gives `(1 + e) · closing`; a body of no inverse mass leaves at 0.
pub(crate) fn speed_given(closing: f64, e: f64, w: f64, w_hitter: f64) -> f64 {
    let share = if w > 0.0 { w / (w + w_hitter) } else { 0.0 };
    (1.0 + e.clamp(0.0, 1.0)) * share * closing.max(0.0)
}

impl Simulation {
    /// By neighbourhood: wakes the sleeping bodies in `hits` (each with the speed the
    /// hit gives it) and, from every woken body leaving faster than the pair's resting
    /// speed, the sleeping bodies touching it (module docs). Empties `hits`; sets the
    /// woken bodies flying under this step's gravity.
    pub(crate) fn wake_reached(&mut self, hits: &mut BinaryHeap<Reached>) {
        let resting_speed = (self.config).resting_speed_for(self.dt, self.min_radius);
        let combine = self.config.restitution_combine;
        let flies = self.bodies.gravity != glam::DVec2::ZERO;
        let mut found = std::mem::take(&mut self.scratch);
        let mut touching = std::mem::take(&mut self.wake_ring);
        while let Some(Reached { speed, body }) = hits.pop() {
            let k = body as usize;
            if !self.wake_flying(k, flies) {
                continue; // awake already (reached faster, or never asleep)
            }
            touching.clear();
            self.sleeping_touching(k, &mut found, &mut touching);
            let b = &self.bodies;
            for &j in &touching {
                let e = b.pair_restitution(combine, k, j as usize);
                if speed > self.config.pair_resting_speed(resting_speed, e) {
                    let w = b.awake_inv_mass[j as usize];
                    let speed = speed_given(speed, e, w, b.awake_inv_mass[k]);
                    hits.push(Reached { speed, body: j });
                }
            }
        }
        self.scratch = found;
        self.wake_ring = touching;
    }

    /// The speed sleeping body `sleeper` leaves at when awake body `hitter` hits it at
    /// `closing` ([`speed_given`] with the pair's restitution).
    pub(crate) fn speed_of_hit(&self, sleeper: usize, hitter: usize, closing: f64) -> f64 {
        let b = &self.bodies;
        let e = b.pair_restitution(self.config.restitution_combine, sleeper, hitter);
        speed_given(
            closing,
            e,
            b.awake_inv_mass[sleeper],
            b.hot[hitter].inv_mass,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_on_hit_passes_on_what_one_dimensional_impacts_give() {
        // Equal masses: the struck body leaves at (1 + e)/2 of the closing speed (e = 1:
        // all of it, the velocity swap).
        assert_eq!(speed_given(6.0, 1.0, 1.0, 1.0), 6.0);
        assert!((speed_given(6.0, 0.2, 1.0, 1.0) - 3.6).abs() < 1e-12);
        // A heavy hitter (w' → 0) sends a light body off at up to (1 + e) times; a static
        // body struck stays put; restitution is clamped, a receding pair gives nothing.
        assert_eq!(speed_given(2.0, 1.0, 1.0, 0.0), 4.0);
        assert_eq!(speed_given(2.0, 1.0, 0.0, 1.0), 0.0);
        assert_eq!(speed_given(2.0, 3.0, 1.0, 1.0), 2.0);
        assert_eq!(speed_given(-2.0, 0.5, 1.0, 1.0), 0.0);
    }

    #[test]
    fn the_fastest_reached_body_comes_first_and_ties_go_by_body_order() {
        let mut heap = BinaryHeap::new();
        for (speed, body) in [(1.0, 7), (3.0, 9), (3.0, 2), (0.5, 1)] {
            heap.push(Reached { speed, body });
        }
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop().map(|r| r.body)).collect();
        assert_eq!(order, [2, 9, 7, 1]);
    }
}
