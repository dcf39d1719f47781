//! A speck's cluster that closes again at once: its contacts go to the push-out for the
//! rest of the step.
//!
//! A speck (a circle far lighter than its neighbours) wedged between a heavy body and the
//! floor, or between two heavy bodies pressed together by a pile, is squeezed out
//! sideways: frictionless, the wedge turns the heavy body's slow approach into a fast
//! slide of the speck. The cluster solve gives the right velocities for the instant, but
//! the squeeze goes on over time (the heavy body keeps sinking, held up only by the
//! speck), so the contacts close again at once, and one at a time each bounce of the
//! speck takes a share of about `m / M` of the heavy body's approach: in worlds of
//! 200–1000 circles with 30 % specks landing at restitution 0, runs of 10,000–30,000
//! impacts reached the step's impact cap, solve after solve, in two steps out of a
//! hundred. That is a resting contact, not a run of impacts: when a run's cluster has to
//! be solved a second time at one instant, the contacts the solve pressed on a speck are
//! left to the push-out for the rest of the step, as the contact solver's resting contacts
//! are (and the next step's contact solver takes them: they touch). A speck between
//! heavy bodies closing on it slowly rattles at distinct times instead: once the step has
//! taken half its impact cap, a body's [`SPREAD_TRIGGER`](super::SPREAD_TRIGGER)th impact
//! solves its cluster if a speck is in it, and hands the speck's pressed contacts over the
//! same way.

use super::{Partner, SameInstant};
use crate::simulation::Simulation;

/// A dynamic body is a *speck* in its cluster when a dynamic body it touches there is at
/// least this many times heavier (a radius a eighth of its neighbour's at equal density).
pub const SPECK_MASS_RATIO: f64 = 64.0;

impl Simulation {
    /// Hands the contacts of the solved cluster in `s` that the solve pressed (a positive
    /// impulse in `s.x`) and that have a speck on either side to the push-out for the
    /// rest of the step ([`SameInstant::gave_up`]); the number handed over.
    pub(super) fn give_up_specks(&self, s: &mut SameInstant) -> usize {
        let before = s.given_up.len();
        for k in 0..s.contacts.len() {
            let c = s.contacts[k];
            let speck = |i: u32| self.is_speck(s, i);
            if s.x[k] > 0.0 && (speck(c.a) || c.b.body().is_some_and(speck)) {
                s.give_up(&c);
            }
        }
        s.given_up.len() - before
    }

    /// Whether the cluster in `s` has a speck.
    pub(super) fn has_speck(&self, s: &SameInstant) -> bool {
        s.bodies.iter().any(|&i| self.is_speck(s, i))
    }

    /// Whether body `i` is a speck in the cluster in `s`: dynamic, with a dynamic
    /// neighbour there [`SPECK_MASS_RATIO`] or more times heavier.
    fn is_speck(&self, s: &SameInstant, i: u32) -> bool {
        let hot = &self.bodies.hot;
        let w = hot[i as usize].inv_mass;
        w > 0.0
            && s.contacts.iter().any(|c| {
                let other = match c.b {
                    _ if c.a == i => c.b.body(),
                    Partner::Body(j) if j == i => Some(c.a),
                    _ => None,
                };
                other.is_some_and(|j| {
                    let wj = hot[j as usize].inv_mass;
                    wj > 0.0 && wj * SPECK_MASS_RATIO <= w
                })
            })
    }
}
