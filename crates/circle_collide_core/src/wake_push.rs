//! Which sleeping bodies a moving kinematic body pushes on through the awake bodies in
//! front of it.
//!
//! A sleeping body stands as a static one for the step. A kinematic body (static mass,
//! a velocity) that drives an awake body into a sleeping one squeezes it between two
//! bodies of infinite mass: the event loop then meets impact after impact between the
//! three until it reaches its cap, and the push-out, which moves neither, leaves the body
//! inside the kinematic one. Neither hit is foreseen at the start of the step when the
//! awake body does not move yet — only the kinematic body's hit on it is — so the
//! sleeping body would wake only at the end of the step.
//!
//! So at the start of the step (with the other wakes, [`wake_touched`]) the push is
//! followed forward: the kinematic body pushes each body its path meets at its velocity's
//! component along the line of centres, that body the ones in front of it at the
//! component of that, and so on while the component is faster than the resting speed (a
//! slower one is a resting contact, which the solver takes against a sleeping body).
//! Awake bodies pass the push on; a sleeping body reached wakes with its island, as when
//! the kinematic body hits it directly: it keeps pushing, and everything in its way has
//! to move. A body within the slop, or whose gap the push closes within the step, counts
//! as reached, up to [`PUSH_REACH`] radii of the pushing body away (so a kinematic body
//! at an absurd speed looks in its own neighbourhood, not across the world). Fastest
//! pushes are followed first (ties by body index), each body once.
//!
//! [`wake_touched`]: crate::simulation::Simulation::wake_touched

use crate::simulation::Simulation;
use crate::wake_reach::Reached;
use glam::DVec2;
use std::cmp::Ordering;

/// How far, in radii of the pushing body, a gap the push closes within the step is
/// looked for: beyond, a body pushed that fast meets a sleeping one as a static one, and
/// wakes it after the step.
pub(crate) const PUSH_REACH: f64 = 2.0;

/// A body a moving kinematic body pushes on, and the velocity the push gives it; ordered
/// as [`Reached`] (faster first, ties by body index).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pushed {
    /// The body and the speed of the push, units/s.
    at: Reached,
    /// The velocity the push gives it.
    vel: DVec2,
}

impl Eq for Pushed {}

impl Ord for Pushed {
    fn cmp(&self, other: &Self) -> Ordering {
        self.at.cmp(&other.at)
    }
}

impl PartialOrd for Pushed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The velocity a body at `to` is pushed at by one at `from` moving at `vel` if it is
/// within `reach` of touching it (radii summed in `sigma`) and the push along the line of
/// centres is faster than `resting_speed`: that component along the line, else `None`.
/// `dt` is the step: a gap the push closes within it counts as touching.
fn push_on(
    (from, vel): (DVec2, DVec2),
    to: DVec2,
    sigma: f64,
    reach: f64,
    resting_speed: f64,
    dt: f64,
) -> Option<DVec2> {
    let d = to - from;
    let dist = d.length();
    if dist.is_nan() || dist <= 0.0 {
        return None; // coincident centres (or not finite): no line to push along
    }
    let n = d / dist;
    let speed = vel.dot(n);
    (speed > resting_speed && dist - sigma <= reach + speed * dt).then_some(n * speed)
}

impl Simulation {
    /// Adds to `woken` (their islands wake) the sleeping bodies that a moving kinematic
    /// body pushes on within the step through the awake bodies in front of it (module
    /// docs).
    pub(crate) fn wake_pushed(&mut self, woken: &mut Vec<u32>) {
        if self.kinematic.is_empty() {
            return;
        }
        let mut heap = std::mem::take(&mut self.push_front);
        let mut seen = std::mem::take(&mut self.push_seen);
        heap.clear();
        seen.clear();
        seen.resize(self.bodies.len(), false);
        let resting_speed = (self.config).resting_speed_for(self.dt, self.min_radius);
        let (b, slop, dt) = (&self.bodies, self.config.overlap_slop, self.dt);
        for &k in &self.kinematic {
            let vel = b.hot[k as usize].vel;
            if vel.length() > resting_speed {
                let at = Reached {
                    speed: vel.length(),
                    body: k,
                };
                heap.push(Pushed { at, vel });
            }
        }
        while let Some(Pushed { at, vel }) = heap.pop() {
            let i = at.body as usize;
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let hi = &b.hot[i];
            let widen = (vel.length() * dt).min(PUSH_REACH * hi.radius);
            self.grid.query_widened(b, i, widen, |j| {
                let hj = &b.hot[j];
                let sleeping = hj.sleeping();
                // Static and kinematic bodies are not pushed; sensors push nothing.
                if seen[j] || (hj.inv_mass == 0.0 && !sleeping) || b.sensor_pair(i, j) {
                    return;
                }
                if !self.filters_accept(i as u32, j as u32) {
                    return;
                }
                let reach = slop * hi.radius.min(hj.radius);
                let sigma = hi.radius + hj.radius;
                let Some(push) = push_on((hi.pos, vel), hj.pos, sigma, reach, resting_speed, dt)
                else {
                    return;
                };
                if sleeping {
                    seen[j] = true;
                    woken.push(j as u32);
                } else {
                    let at = Reached {
                        speed: push.length(),
                        body: j as u32,
                    };
                    heap.push(Pushed { at, vel: push });
                }
            });
        }
        self.push_front = heap;
        self.push_seen = seen;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_passes_on_its_component_along_the_line_of_centres() {
        let (dt, rest) = (0.1, 0.5);
        // Head-on, touching: all of it.
        let head_on = push_on((DVec2::ZERO, DVec2::X * 3.0), DVec2::X, 1.0, 0.0, rest, dt);
        assert_eq!(head_on, Some(DVec2::new(3.0, 0.0)));
        // At 60° from the push: half of it, along the line of centres.
        let to = DVec2::new(0.5, 0.75f64.sqrt());
        let oblique = push_on((DVec2::ZERO, DVec2::X * 3.0), to, 1.0, 0.0, rest, dt).unwrap();
        assert!((oblique - to * 1.5).length() < 1e-12, "{oblique}");
        // A gap of 0.2 is closed within the step at 3 units/s (0.3), not at 1.5 (0.15).
        let gap = DVec2::X * 1.2;
        assert!(push_on((DVec2::ZERO, DVec2::X * 3.0), gap, 1.0, 0.0, rest, dt).is_some());
        assert!(push_on((DVec2::ZERO, DVec2::X * 1.5), gap, 1.0, 0.0, rest, dt).is_none());
        // Within the reach (the slop) counts as touching.
        assert!(push_on((DVec2::ZERO, DVec2::X * 1.5), gap, 1.0, 0.06, rest, dt).is_some());
        // No faster than the resting speed, sideways, away, or from the same centre: none.
        assert!(push_on((DVec2::ZERO, DVec2::X * 0.5), DVec2::X, 1.0, 0.0, rest, dt).is_none());
        assert!(push_on((DVec2::ZERO, DVec2::Y * 3.0), DVec2::X, 1.0, 0.0, rest, dt).is_none());
        assert!(push_on((DVec2::ZERO, -DVec2::X * 3.0), DVec2::X, 1.0, 0.0, rest, dt).is_none());
        assert!(
            push_on(
                (DVec2::ZERO, DVec2::X * 3.0),
                DVec2::ZERO,
                1.0,
                0.0,
                rest,
                dt
            )
            .is_none()
        );
    }

    #[test]
    fn the_fastest_push_comes_first_and_ties_go_by_body_order() {
        let mut heap = std::collections::BinaryHeap::new();
        for (speed, body) in [(1.0, 7), (3.0, 9), (3.0, 2), (0.5, 1)] {
            let at = Reached { speed, body };
            heap.push(Pushed {
                at,
                vel: DVec2::X * speed,
            });
        }
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop().map(|p| p.at.body)).collect();
        assert_eq!(order, [2, 9, 7, 1]);
    }
}
