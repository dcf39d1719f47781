//! The hot record of a body: what the event loop reads of it, in one cache line, and its
//! flags.

use glam::DVec2;
// For the doc links.
#[cfg(doc)]
use super::{Bodies, SPECULATIVE_MARGIN};
#[cfg(doc)]
use crate::{body::BodyDesc, filter::Layers, friction::Spin};

/// `Hot::flags` bit: the body is a sensor.
pub(super) const SENSOR: u32 = 1;
/// `Hot::flags` bit: the body's layers are not [`Layers::ALL`] (the filter must be read).
pub(super) const FILTERED: u32 = 2;
/// `Hot::flags` bit: the body's pre-solver box is in the contact-box snapshot (set
/// while the snapshot is taken, cleared when it is read).
pub(super) const BOX_KEPT: u32 = 4;
/// `Hot::flags` bit: the body is asleep (simulated as static, `inv_mass` 0, until woken).
pub(super) const SLEEPING: u32 = 8;
/// `Hot::flags` bit: the body is in a contact of this step's contact solver.
pub(super) const IN_SOLVER: u32 = 16;
/// `Hot::flags` bit: the body had an impact in this step's event loop.
pub(super) const HIT: u32 = 32;
/// `Hot::flags` bit: the body is in free flight this step, on the parabola of the step's
/// gravity ([`Bodies::gravity`]); without it the body moves in a straight line.
pub(super) const FLYING: u32 = 64;
/// `Hot::flags` bit: while the event loop decides whether the body flies or is held, its
/// box covers both paths (see [`Hot::set_undecided`]).
pub(super) const UNDECIDED: u32 = 128;
/// `Hot::flags` bit: the body has friction or rolling resistance (its impacts and
/// contacts read its [`Spin`]; a smooth body's never need to).
pub(super) const ROUGH: u32 = 256;
/// `Hot::flags` bit: the body was in the contact solver last step, and its box is
/// widened by [`SPECULATIVE_MARGIN`] until its course changes (see
/// [`Bodies::swept_box`]).
pub(super) const SPECULATIVE: u32 = 512;
/// `Hot::flags` bit: the game set the body's velocity since the last step
/// ([`BodyDesc::steered`]); the next step's start turns it into [`STEERED`].
pub(super) const VELOCITY_SET: u32 = 1024;
/// `Hot::flags` bit: the body is steered this step (its velocity was set before it).
pub(super) const STEERED: u32 = 2048;
/// `Hot::flags` bit: the body's angle changed at the end of the step (it spun, or its
/// spin changed during it): [`Bodies::turned`].
pub(super) const TURNED: u32 = 4096;
/// The `Hot::flags` bits that describe the body rather than a step's work on it.
pub(super) const DESCRIBED: u32 = SENSOR | FILTERED | SLEEPING | ROUGH;

/// What the event loop needs of one body, in one cache line.
///
/// The position is kept lazily during the in-step event loop: the body is at
/// `pos + vel * (t − time)` at step time `t`, plus `½ g (t − time)²` while it flies
/// ([`Bodies::position_at`]); `vel` is its velocity at `time`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Hot {
    pub pos: DVec2,
    pub vel: DVec2,
    /// Step time at which `pos` is valid.
    pub time: f64,
    pub radius: f64,
    /// 0 for static bodies.
    pub inv_mass: f64,
    /// Bumped at each impulse, to invalidate predicted events lazily.
    pub version: u32,
    pub(super) flags: u32,
}

impl Hot {
    /// Whether the body is immovable but moves: a kinematic body with a velocity (it
    /// drives what it meets; a static or sleeping body does not).
    #[inline]
    pub fn drives(&self) -> bool {
        self.inv_mass == 0.0 && self.vel != DVec2::ZERO
    }

    /// Whether the body can push what it meets: a moving kinematic body that is not a
    /// sensor (a moving trigger zone drives nothing). `integrate` counts these
    /// (`Simulation::driving_bodies`), and a body that [`pushes`](Self::pushes) is one, so
    /// a count of 0 spares the walks that look for pushers.
    #[inline]
    pub fn drives_bodies(&self) -> bool {
        self.drives() && !self.sensor()
    }

    /// Whether the body pushes this step: a body that [drives
    /// bodies](Self::drives_bodies) and touched something — a contact of the solver or an
    /// impact.
    #[inline]
    pub fn pushes(&self) -> bool {
        self.drives_bodies() && (self.in_solver() || self.hit())
    }

    /// Whether the body is a sensor.
    #[inline]
    pub fn sensor(&self) -> bool {
        self.flags & SENSOR != 0
    }

    /// Whether the body can be in an interacting pair with a body that cannot: a dynamic
    /// awake body or a sensor (a static, kinematic or sleeping one cannot; no pair of two
    /// such interacts).
    #[inline]
    pub(crate) fn active(&self) -> bool {
        self.inv_mass > 0.0 || self.sensor()
    }

    /// Marks the body's pre-solver box as kept; `false` if it already was this step.
    #[inline]
    pub fn keep_box_once(&mut self) -> bool {
        let first = self.flags & BOX_KEPT == 0;
        self.flags |= BOX_KEPT;
        first
    }

    /// Whether the body is asleep.
    #[inline]
    pub fn sleeping(&self) -> bool {
        self.flags & SLEEPING != 0
    }

    /// Whether the body is in a contact of this step's contact solver.
    #[inline]
    pub fn in_solver(&self) -> bool {
        self.flags & IN_SOLVER != 0
    }

    /// Whether the body had an impact in this step's event loop.
    #[inline]
    pub fn hit(&self) -> bool {
        self.flags & HIT != 0
    }

    /// Marks the body as in a solver contact this step.
    #[inline]
    pub fn mark_in_solver(&mut self) {
        self.flags |= IN_SOLVER;
    }

    /// Marks the body as hit in this step's event loop.
    #[inline]
    pub fn mark_hit(&mut self) {
        self.flags |= HIT;
    }

    /// Clears the step's solver, impact and flight marks (at the start of a step); the
    /// body is steered this step if its velocity was set since the last one.
    #[inline]
    pub fn clear_step_marks(&mut self) {
        let steered = if self.flags & VELOCITY_SET != 0 {
            STEERED
        } else {
            0
        };
        self.flags &= !(IN_SOLVER | HIT | FLYING | SPECULATIVE | VELOCITY_SET | STEERED | TURNED);
        self.flags |= steered;
    }

    /// Marks the body's velocity as set by the game since the last step.
    #[inline]
    pub fn mark_velocity_set(&mut self) {
        self.flags |= VELOCITY_SET;
    }

    /// Whether the body is steered this step: the game set its velocity before it
    /// ([`BodyDesc::steered`]). Then the steered resting speed
    /// ([`StepConfig::steered_resting_speed_for`](crate::StepConfig::steered_resting_speed_for))
    /// applies to its pairs whatever their restitution (an elastic pair closing slower rests instead of
    /// bouncing, as an inelastic one), an elastic pair it drives together again presses
    /// (the [`contacts`](crate::contacts) module), and under gravity its impacts are
    /// remembered and its pairs kept while their gap opens a little, as every pair's are
    /// without gravity (a horde walking into a wall: `Simulation::is_steered_jam`).
    #[inline]
    pub fn steered(&self) -> bool {
        self.flags & STEERED != 0
    }

    /// Sets (or clears) the `flags` bit `flag`.
    #[inline]
    fn set_flag(&mut self, flag: u32, on: bool) {
        if on {
            self.flags |= flag;
        } else {
            self.flags &= !flag;
        }
    }

    /// Whether the body's box is widened by [`SPECULATIVE_MARGIN`].
    #[inline]
    pub fn speculative(&self) -> bool {
        self.flags & SPECULATIVE != 0
    }

    /// Widens (or stops widening) the body's box by [`SPECULATIVE_MARGIN`].
    #[inline]
    pub fn set_speculative(&mut self, speculative: bool) {
        self.set_flag(SPECULATIVE, speculative);
    }

    /// Marks the body as turned by the step (its angle was updated at the end of it).
    #[inline]
    pub(crate) fn mark_turned(&mut self) {
        self.flags |= TURNED;
    }

    /// Whether the body flies on the parabola of the step's gravity.
    #[inline]
    pub fn flying(&self) -> bool {
        self.flags & FLYING != 0
    }

    /// Starts (or ends) the body's flight on the step's gravity from its current time.
    #[inline]
    pub fn set_flying(&mut self, flying: bool) {
        self.set_flag(FLYING, flying);
    }

    /// Whether the body has friction or rolling resistance.
    #[inline]
    pub fn rough(&self) -> bool {
        self.flags & ROUGH != 0
    }

    /// Clears the mark of [`keep_box_once`](Self::keep_box_once).
    #[inline]
    pub fn clear_box_kept(&mut self) {
        self.flags &= !BOX_KEPT;
    }

    /// Kinetic energy `½ m v²` of a dynamic body (`inv_mass > 0`).
    #[inline]
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * self.vel.length_squared() / self.inv_mass
    }

    /// Momentum `m v` of a dynamic body (`inv_mass > 0`).
    #[inline]
    pub fn momentum(&self) -> DVec2 {
        self.vel / self.inv_mass
    }

    /// Position at step time `t` (lazy extrapolation) under acceleration `g` if flying.
    #[inline(always)]
    pub fn position_at(&self, t: f64, g: DVec2) -> DVec2 {
        if self.flying() {
            crate::flight::position(self.pos, self.vel, g, t - self.time)
        } else {
            self.pos + self.vel * (t - self.time)
        }
    }

    /// Velocity at step time `t` under acceleration `g` if flying.
    #[inline(always)]
    pub fn velocity_at(&self, t: f64, g: DVec2) -> DVec2 {
        if self.flying() {
            crate::flight::velocity(self.vel, g, t - self.time)
        } else {
            self.vel
        }
    }

    /// Marks the body as undecided (or not): its box covers both its flight and its
    /// straight path, so one grid query finds its neighbours whichever it takes.
    #[inline]
    pub fn set_undecided(&mut self, undecided: bool) {
        self.set_flag(UNDECIDED, undecided);
    }

    /// Box of the circle's path from its current time to step time `end` (for a flying
    /// or undecided body, [`flight::path_bounds`](crate::flight::path_bounds) of its
    /// parabola, joined for an undecided one with the box of its straight path).
    #[inline(always)]
    pub fn swept_box(&self, end: f64, g: DVec2) -> (DVec2, DVec2) {
        let r = DVec2::splat(self.radius);
        let tau = end - self.time;
        let stop = self.pos + self.vel * tau;
        let (mut min, mut max) = (self.pos.min(stop), self.pos.max(stop));
        if self.flags & (FLYING | UNDECIDED) != 0 {
            let (lo, hi) = crate::flight::path_bounds(self.pos, self.vel, g, tau);
            if self.flags & UNDECIDED != 0 {
                (min, max) = (min.min(lo), max.max(hi));
            } else {
                (min, max) = (lo, hi);
            }
        }
        (min - r, max + r)
    }
}
