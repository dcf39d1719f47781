//! Pressing contacts whose gap opened a little: kept in the solver, allowed to close
//! by their gap.
//!
//! The narrow phase lists the pairs touching now (within the slop). In a jam held
//! together every step (a steered crowd), contacts deep inside carry large impulses —
//! the push of every layer outside them — and a push-out or position correction
//! elsewhere opens the gap of some of them a hair past the slop. Dropped from the solver,
//! such a contact's remembered impulse is lost from the warm start while its neighbours'
//! are kept: they push the two bodies apart at up to 100 units/s before the passes, which
//! the passes and the conjugate gradients then have to take back (the steered crowd of
//! 10,000: after the warm start the largest closing speed was 104 units/s, the largest
//! separating one 146; with the gap contacts kept 4.5 and 4.8).
//!
//! So a pair that does not touch now but pressed last step (a remembered impulse above
//! zero), within [`KEEP_GAP`] of touching, stays in the solver as a *gap contact*: its
//! row allows the pair to close at the speed that brings it to the slop by the end of
//! the step ([`SolverContact::allowed`]), so it never holds two bodies apart that do not
//! meet, and stops them at the slop if they would. It is classified as a touching pair
//! is, on its closing speed beyond what its gap allows: a pair that pressed last step
//! stays the solver's even closing fast, unless it is elastic under the default resting
//! speed (then only slow ones: an elastic gas stays exact). Without gravity (see
//! [`KEEP_GAP`]), and under gravity in a world where the game drives a body — steers it
//! ([`BodyDesc::steered`](crate::BodyDesc::steered): a horde walked into a wall, walkers
//! shoving crates) or moves a kinematic one (a bulldozer, a paddle) — for every pair.
//! Until the fiftieth session only the pairs of a steered body were kept under gravity,
//! and the crates a walker or a bulldozer shoved, pressed one step and a hair apart the
//! next, met again as exact impacts: in the walkers of 2000 (core, 300 steps) 61 % of
//! the crate–crate impacts inside a step were such pairs. Kept, the walkers' impacts fell
//! 8–30 % a step, the push-out's moves to a third or less, their late mean 26 %; the
//! bulldozer under a pile's impacts 18–44 %, its late mean 7–18 % (`docs/contacts.md`).
//! A pile nobody drives keeps its impacts: kept there too, the pile of 2000 fell asleep
//! later (5.82 against 5.35 s) with a worse landing step.

use crate::contacts::{KeptContact, SolverContact, body_contact};
use crate::simulation::Simulation;
use glam::DVec2;

/// Without gravity, a contact that pressed last step (a remembered impulse above zero)
/// stays in the solver while its gap is at most this fraction of the smaller radius,
/// allowed to close at the speed that brings it to the slop by the end of the step. In a
/// jam held together every step (a steered crowd) a push elsewhere opens the gap of a
/// contact carrying a large impulse a hair past the slop; dropped, its impulse is missing
/// from the warm start while its neighbours' are not, and the solver has to take back
/// pushes of up to 100 units/s. It is classified as a touching pair is, on its closing
/// speed beyond what its gap allows.
///
/// Measured on the steered crowds (core, 600 steps, late-half medians, alternated):
/// crowd of 500: 0.96 ms without, 0.79 / 0.80 / 0.64 ms with 0.05 / 0.1 / 0.2; 2000:
/// 4.40 → 4.11 / 3.67 / 3.78 ms; 5000: 19.3 → 18.4 / 17.6 / 17.2 ms; 10,000: 31.3 →
/// 27.2–28.2 (0.1) and 27.1–28.0 ms (0.2), the push-out's moves 17,388 → 5302 a step,
/// overlaps left in 11 steps → none, worst step 92 → 42–53 ms (before the
/// [`CONJUGATE_TRIGGER`](crate::contacts::CONJUGATE_TRIGGER)). Under gravity the piles'
/// landings got cheaper but their settling later (of eight jittered piles of 1500–2700,
/// 4 asleep within 10 s instead of 7; the pile of 10,000 not within 10 s): piles keep
/// the narrow phase's contacts only (`docs/contacts.md`, "Gap contacts").
pub const KEEP_GAP: f64 = 0.2;

impl Simulation {
    /// The gap contact of bodies `(i, j)` (moving at `vel`) and what the memory kept of
    /// them (`remembered`, asked only for pairs within reach), or `None` if it is not one:
    /// either body is a sensor, the gap is wider than [`KEEP_GAP`], or the pair did not
    /// press last step (no remembered impulse). The caller classifies it as a touching
    /// pair, on its closing speed beyond what its gap allows.
    pub(crate) fn gap_contact(
        &self,
        (i, j): (u32, u32),
        vel: (DVec2, DVec2),
        remembered: impl FnOnce() -> Option<KeptContact>,
    ) -> Option<(SolverContact, KeptContact)> {
        let b = &self.bodies;
        let (iu, ju) = (i as usize, j as usize);
        let (p, q) = (&b.hot[iu], &b.hot[ju]);
        let smaller = p.radius.min(q.radius);
        let reach = p.radius + q.radius + KEEP_GAP * smaller;
        if b.sensor_pair(iu, ju) || (q.pos - p.pos).length_squared() > reach * reach {
            return None;
        }
        let warm = remembered().filter(|w| w.impulse > 0.0)?;
        let m = crate::manifold::manifold(p.pos, p.radius, q.pos, q.radius, (i, j));
        let closing = (vel.0 - vel.1).dot(m.normal);
        let at = (m.normal, m.point, m.depth);
        let mut kept = body_contact(&b.keys, (i, j), at, closing, false, Some(warm));
        kept.allowed = ((-m.depth - self.config.overlap_slop * smaller) / self.dt).max(0.0);
        Some((kept, warm))
    }
}
