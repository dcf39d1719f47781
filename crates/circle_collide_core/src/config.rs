//! Step parameters of the core simulation.

use crate::arena::Arena;
use crate::impulse::RestitutionCombine;
use glam::DVec2;

/// Everything a step needs besides the bodies. Every default is documented on its field.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serialize", serde(default))]
pub struct StepConfig {
    /// Acceleration applied to every dynamic body, units/s². Default `(0, 0)`.
    pub gravity: DVec2,
    /// Optional axis-aligned box whose walls the circles bounce off. Default `None`.
    pub arena: Option<Arena>,
    /// How two restitutions combine into the pair's. Default [`RestitutionCombine::Max`].
    pub restitution_combine: RestitutionCombine,
    /// Allowed overlap after a step, as a fraction of the smaller radius of the pair
    /// (or of the radius, against a wall). Deeper overlaps are pushed apart at the end
    /// of the step. Default `0.01`.
    pub overlap_slop: f64,
    /// Gauss–Seidel passes of the end-of-step push-out of overlaps. Default `4`. Passes
    /// stop early when nothing moves, and continue while overlaps remain up to
    /// [`PUSH_OUT_PASS_LIMIT`](crate::resolve::PUSH_OUT_PASS_LIMIT) times this (jammed
    /// clusters).
    pub separation_iterations: u32,
    /// Impacts handled per step per body; the step's cap is
    /// `max_impacts_per_body × bodies + 64`. Past it the rest of the step falls back to
    /// plain motion plus push-out (counted in the step's statistics). Default `32`.
    pub max_impacts_per_body: u32,
    /// Closing speed at or below which contact is *resting*: touching pairs closing this
    /// slowly at the start of a step go to the resting-contact solver and make no impact
    /// events; impacts this slow later in the step use restitution 0 and are flagged in
    /// [`Impact::resting`](crate::Impact::resting). `None` (the default) means
    /// `2 |gravity| dt`, the speed gravity adds in two steps; with no gravity every impact
    /// is a real one.
    pub resting_speed: Option<f64>,
    /// Gauss–Seidel passes of the resting-contact solver. Default `4`.
    pub contact_iterations: u32,
    /// Finish the resting-contact solver with a bottom-up shock-propagation pass, so
    /// stacks and piles stop in one step. Default `true`.
    pub shock_propagation: bool,
    /// Speeds above this are clamped (direction kept) and reported. Default `1e5`.
    pub max_speed: f64,
}

impl Default for StepConfig {
    fn default() -> Self {
        Self {
            gravity: DVec2::ZERO,
            arena: None,
            restitution_combine: RestitutionCombine::Max,
            overlap_slop: 0.01,
            separation_iterations: 4,
            max_impacts_per_body: 32,
            resting_speed: None,
            contact_iterations: 4,
            shock_propagation: true,
            max_speed: 1e5,
        }
    }
}

impl StepConfig {
    /// The resting-speed threshold in force for a step of length `dt`.
    pub fn resting_speed_for(&self, dt: f64) -> f64 {
        self.resting_speed
            .unwrap_or(2.0 * self.gravity.length() * dt)
            .max(0.0)
    }

    /// The impact cap for `bodies` bodies.
    pub fn impact_cap(&self, bodies: usize) -> usize {
        (self.max_impacts_per_body as usize)
            .saturating_mul(bodies)
            .saturating_add(64)
    }
}
