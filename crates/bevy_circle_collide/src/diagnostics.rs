//! Per-step diagnostics for game code and the inspector.

use bevy::prelude::*;

/// What the last step did, plus running totals. Updated at the end of every step.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn energy_hud(d: Res<CollisionDiagnostics>) {
///     info!("step {}: {} impacts, kinetic energy {:.3}", d.step, d.impacts, d.kinetic_energy);
/// }
/// # App::new().add_systems(Update, energy_hud);
/// ```
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Resource, Debug, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionDiagnostics {
    /// Steps run since start.
    pub step: u64,
    /// Bodies simulated in the last step.
    pub bodies: usize,
    /// Bodies skipped in the last step for invalid input.
    pub skipped_bodies: usize,
    /// Candidate pairs from the broad phase.
    pub candidate_pairs: usize,
    /// Pairs touching or overlapping at the start of the step.
    pub contacts: usize,
    /// Impacts handled (resting ones included).
    pub impacts: usize,
    /// Resting impacts among them.
    pub resting_impacts: usize,
    /// Same-instant runs solved as one cluster in the last step: a light body hit
    /// hundreds of times at one instant (a pebble under a crate landing on it) is solved
    /// with the bodies it touches at once (`circle_collide_core::same_instant`). Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub cluster_solves: usize,
    /// Same-instant clusters in the last step that could not stop closing: a body squeezed
    /// where nothing gives way (a kinematic body driving it into a wall, or hitting it
    /// again and again in one step); the kinematic body wins, and the contacts with
    /// immovable partners go to the push-out. Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub squeezed_clusters: usize,
    /// Contacts of specks handed to the push-out in the last step because their cluster
    /// had to be solved again at the same instant: a light circle (64 or more times
    /// lighter than a body it touches) squeezed out of a wedge under or between heavy
    /// ones (`circle_collide_core::same_instant`). Normally 0.
    #[cfg_attr(feature = "serialize", serde(default))]
    pub speck_contacts_given_up: usize,
    /// Overlaps pushed apart at the end of the step.
    pub overlaps_fixed: usize,
    /// Overlaps (pairs, and circles in a wall) still deeper than the slop after the
    /// last step: a jam the bounded push-out could not clear in one step. Normally 0.
    pub overlaps_left: usize,
    /// Slow (resting or pressing) contacts the contact solver handled in the last step.
    pub solver_contacts: usize,
    /// Bodies asleep after the last step.
    pub sleeping: usize,
    /// Bodies tested outside the broad-phase grid (huge or very fast).
    pub oversized_bodies: usize,
    /// Steps that hit the impact cap, since start.
    pub fallbacks: u64,
    /// Whether the last step hit the impact cap.
    pub last_step_fell_back: bool,
    /// Steps skipped since start because the world stood still and nothing it reads
    /// changed ([`CircleCollideConfig::skip_idle_steps`](crate::CircleCollideConfig::skip_idle_steps));
    /// the other figures are those of the last full step.
    pub idle_steps: u64,
    /// Whether the last step was skipped (see `idle_steps`).
    pub last_step_idle: bool,
    /// Kinetic energy of the dynamic bodies after the step.
    pub kinetic_energy: f64,
    /// Potential energy of the dynamic bodies in the gravity of the step (zero at the
    /// origin; 0 without gravity): with exact flight, kinetic plus potential energy is
    /// what an elastic world under gravity keeps.
    pub potential_energy: f64,
    /// Rotational kinetic energy `Σ ½ I ω²` of the dynamic bodies after the step: with
    /// the kinetic energy, what rough impacts exchange.
    pub rotational_energy: f64,
    /// Momentum of the dynamic bodies after the step.
    pub momentum: Vec2,
    /// Momentum walls and static bodies gave during the step.
    pub external_impulse: Vec2,
    /// Wall-clock seconds each phase took in the last step: integrate (with the gather
    /// from the ECS), broad phase, narrow phase, time of impact, resolve (with the write
    /// back and events).
    pub phase_seconds: [f64; 5],
}
