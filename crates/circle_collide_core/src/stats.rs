//! Per-step counts and conserved quantities.

use glam::DVec2;

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct StepStats {
    /// Bodies simulated.
    pub bodies: usize,
    /// Candidate pairs from the broad phase (swept boxes overlapping).
    pub candidate_pairs: usize,
    /// Bodies kept out of the broad-phase grid (huge or very fast) and tested against all.
    pub oversized_bodies: usize,
    /// Pairs touching or overlapping at the start of the step (narrow phase).
    pub contacts: usize,
    /// Slow (resting or pressing) pairs and body–wall pairs handled by the contact solver.
    pub resting_contacts: usize,
    /// Gauss–Seidel passes of the contact solver's last solve this step when it ran on
    /// until converged (smooth contacts under gravity,
    /// [`CONVERGED_FRACTION`](crate::contacts::CONVERGED_FRACTION)); otherwise 0.
    pub contact_passes: u32,
    /// Steps whose warm-started contact solve would have added kinetic energy and was
    /// redone from zero (0 or 1).
    pub cold_restarts: usize,
    /// Whether the contact solve ran the conjugate-gradient correction of a deep jam or
    /// pile ([`CONJUGATE_CONTACTS`](crate::contacts::CONJUGATE_CONTACTS)).
    pub corrected: bool,
    /// Iterations that correction ran (0 when it did not run): in a solve of
    /// [`GAUSS_SEIDEL_CONTACTS`](crate::contacts::GAUSS_SEIDEL_CONTACTS) or more at most
    /// [`GAUSS_SEIDEL_ITERATIONS`](crate::contacts::GAUSS_SEIDEL_ITERATIONS), or
    /// [`GAUSS_SEIDEL_ANCHORED_ITERATIONS`](crate::contacts::GAUSS_SEIDEL_ANCHORED_ITERATIONS)
    /// for a jam pressing on a wall, a static or a kinematic body; in a smaller one
    /// [`CONJUGATE_ITERATIONS`](crate::contacts::CONJUGATE_ITERATIONS), or
    /// [`TRIGGERED_ITERATIONS`](crate::contacts::TRIGGERED_ITERATIONS) for such a jam.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub correction_iterations: u32,
    /// Bodies asleep at the start of the step.
    pub sleeping_at_start: usize,
    /// Bodies woken during the step (with their islands).
    pub woken: usize,
    /// Bodies asleep at the end of the step.
    pub sleeping: usize,
    /// Impacts handled (resting ones included).
    pub impacts: usize,
    /// Of those, resting impacts.
    pub resting_impacts: usize,
    /// Predicted events discarded because a body had changed course.
    pub stale_events: usize,
    /// Same-instant runs solved as one cluster
    /// ([`same_instant`](crate::same_instant)): a body hit
    /// [`RUN_TRIGGER`](crate::same_instant::RUN_TRIGGER) times at one instant. Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub cluster_solves: usize,
    /// Same-instant runs whose cluster could not stop closing: a body squeezed where
    /// nothing gives way (a kinematic body driving it into a wall), its contacts with the
    /// immovable partners handed to the push-out for the rest of the step
    /// ([`same_instant`](crate::same_instant)). Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub squeezed_clusters: usize,
    /// Contacts of specks handed to the push-out for the rest of the step because their
    /// cluster had to be solved again at the same instant: a light circle squeezed out of
    /// a wedge between heavy bodies or a heavy body and a wall
    /// ([`SPECK_MASS_RATIO`](crate::same_instant::SPECK_MASS_RATIO)). Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub speck_contacts_given_up: usize,
    /// Overlaps beyond the slop pushed apart at the end of the step.
    pub overlaps_fixed: usize,
    /// Pairs overlapping, and circles sunk into a wall, deeper than the slop when the
    /// push-out reached its work limit
    /// ([`PUSH_OUT_PASS_LIMIT`](crate::resolve::PUSH_OUT_PASS_LIMIT),
    /// [`PUSH_OUT_PASS_CAP`](crate::resolve::PUSH_OUT_PASS_CAP)): a jam it could not
    /// clear within the step's bounded work. Normally 0.
    pub overlaps_left: usize,
    /// Whether the impact cap was reached and the step fell back to motion + push-out.
    pub fallback: bool,
    /// Kinetic energy of the dynamic bodies after the step.
    pub kinetic_energy: f64,
    /// Rotational kinetic energy `Σ ½ I ω²` of the dynamic bodies after the step (0 when
    /// nothing spins).
    #[cfg_attr(feature = "serialize", serde(default))]
    pub rotational_energy: f64,
    /// Potential energy `Σ −m g·p` of the dynamic bodies (asleep ones included) in the
    /// step's gravity after the step, zero at the origin; 0 without gravity. With the
    /// kinetic energy, what an elastic world under gravity keeps.
    pub potential_energy: f64,
    /// Momentum of the dynamic bodies after the step.
    pub momentum: DVec2,
    /// Impulse given to the dynamic bodies by walls, static bodies and the support of
    /// resting contacts during the step (momentum after − momentum before − gravity's
    /// share equals this).
    pub external_impulse: DVec2,
}
