//! Contact: the one owner of slow contact, the first part of the time-of-impact phase.
//!
//! **Classification by approach speed, never by distance.** Of the pairs (and body–wall
//! pairs) touching within the slop at the start of a step, the *slow* ones go to the
//! contact solver here:
//! * closing at no more than the step's resting speed (resting on, sliding along, or
//!   gently pressed into each other), or
//! * *pressing*: the pair was a contact of the solver in the last step
//!   ([`ContactMemory`]), whatever its closing speed now — bodies steered or pushed into
//!   each other every frame. Restitution is for impacts: a pressing contact's target is
//!   not to close (it does not bounce). Under the default resting speed an elastic pair
//!   (restitution ≥ 1) never presses: closing fast, it bounces — unless one of its bodies
//!   is *steered* ([`BodyDesc::steered`](crate::BodyDesc::steered): the game set its
//!   velocity before the step). Then the pair takes the steered resting speed
//!   ([`StepConfig::steered_resting_speed_for`](crate::StepConfig::steered_resting_speed_for)), and
//!   presses once it pressed or hit: the game's velocity would undo the bounce
//!   every step, and in a packed crowd each bounce rang through the jam from pair to pair
//!   (an elastic crowd of 2000 steered every step: ~37,000 impacts a step; now ~130).
//!   Its first contact, faster than the resting speed, is still an elastic impact.
//!
//! Without gravity (under gravity: in a world where the game steers a body or moves a
//! kinematic one) a pair that pressed last step and whose gap has opened past the slop,
//! by at most [`KEEP_GAP`] of the smaller radius, stays in the solver too, allowed to
//! close by its gap over the step (a *gap contact*): in a jam pushed together every step
//! the impulse it carried stays in the warm start.
//!
//! Every other pair closing faster is left to the event loop, where it is an exact binary
//! impact in time order even at time of impact 0 (a ball arriving fast within the slop
//! of a resting row passes its momentum down the row; restitution 1 conserves energy).
//!
//! **Gravity** ([`flight`](crate::flight); the rules are in the `gravity` module). Bodies
//! fly on exact parabolas through the step; the solver's bodies are put back on straight
//! lines, with the step's gravity added to their velocity before the passes (so a support
//! holds its weight). Under the default resting speed, an elastic contact within a group
//! of touching bodies that no floor, static or kinematic body holds (bodies falling
//! together, a ball sliding down a side wall) is left to the event loop, where gravity
//! cannot make it bounce endlessly. After the passes, every group of the solver's bodies
//! that no contact with a wall, a static or a kinematic body holds up (with a non-zero
//! impulse) flies on: the step's gravity is taken back out of its velocity.
//!
//! **The solver** is sequential impulses (Gauss–Seidel) on the normal constraints, with
//! accumulated, non-negative impulses (a contact pushes, never pulls), *warm-started*
//! from the impulse the same pair (keyed by the bodies' stable keys) ended the last step
//! with, so support builds up across steps and a pile or a pressed crowd holds still
//! without gravity's "bottom-up" too. Each contact's target is not to close. Under
//! gravity a bottom-up *shock-propagation* pass follows
//! ([`shock_propagation`](crate::StepConfig::shock_propagation)): body by body, lowest
//! first, each body gets the smallest change of velocity that stops it sinking into its
//! supports, which are held fixed, so a column holds its weight where a few passes
//! alone would let it sink. [`SETTLE_PASSES`] last passes then take out what the shock
//! pass left closing between neighbours side by side; without them an irregular,
//! frictionless pile keeps jostling and never sleeps. In a smooth solve (no friction or
//! rolling resistance) only near-vertical supports count ([`SMOOTH_SHOCK_SUPPORT`]): its
//! passes run until converged and, when deep, get the conjugate-gradient correction,
//! which carry an irregular pile's weight, and a lift along slanted supports there only
//! disturbs them. A rough solve under gravity keeps the configured passes unless it has
//! [`ROUGH_CONVERGED_CONTACTS`] contacts or more: then its passes too run until converged
//! and, when deep, get the correction (a deep rough pile's weight is not carried otherwise,
//! and it boils).
//!
//! **Deep jams and piles** ([`conjugate_correction`](crate::StepConfig::conjugate_correction)).
//! A solve of at least [`CONJUGATE_CONTACTS`] contacts gets a conjugate-gradient
//! correction: the contacts that push are solved together as equalities, which carries a
//! push across the whole jam where the passes carry it a layer at a time, and the passes
//! that follow settle the rest. Without gravity (a steered crowd of some 4000 circles)
//! it comes after the first [`CONJUGATE_FIRST_PASSES`] passes of every such solve, and
//! of a solve of [`DEEP_JAM_CONTACTS`] or more whose first passes still change a velocity
//! by more than [`CONJUGATE_TRIGGER`] × the resting speed (a crowd pressed against a
//! wall: more iterations when it presses on a wall, a static or a kinematic body) — in
//! both cases only while the jam is pressed near its overlap slop ([`TIGHT_JAM_DEPTH`]:
//! a jam given a looser slop rests from it); under
//! gravity (a pile of some 5000) after the configured passes, when they have not
//! converged, before the passes go on until converged. Solves of
//! [`GAUSS_SEIDEL_CONTACTS`] or more precondition it by symmetric Gauss–Seidel
//! ([`GAUSS_SEIDEL_ITERATIONS`], [`GAUSS_SEIDEL_ANCHORED_ITERATIONS`]), smaller ones by
//! Jacobi ([`CONJUGATE_ITERATIONS`], [`TRIGGERED_ITERATIONS`]).
//!
//! A pressing contact that closed faster than the resting speed, and whose impulse
//! changed its closing speed by more than that, is reported as an [`Impact`] at `t = 0`
//! (the bodies' velocities changed by more than the resting speed);
//! slow contacts send none (their pairs send `CollisionStarted` / `CollisionEnded` through
//! the touching list). Every faster change of velocity is an event-loop impact.
//!
//! **Without gravity** the passes are over-relaxed ([`RELAXATION`]), a large solve gets
//! more of them ([`crowd_passes`]; [`deep_jam_passes`] in a steered jam under gravity), and
//! the solver's contacts also plan a *position
//! correction* (split impulses: Gauss–Seidel passes on the same rows in position units,
//! which move positions and never velocities), applied at the end of the step before
//! the push-out: each contact's overlap at the start of the step is taken
//! [`CORRECTION_RATE`] of the way back, each body moving at most half the slop. Pressed
//! contacts then stay near touching instead of creeping to the edge of the slop, where
//! any push cascades through a jam. The push-out separates what is still deeper than the
//! slop. Why this solver (and not a soft step with sub-steps and relaxation) is said in
//! `docs/contacts.md`.
//!
//! The code: this module runs a step's solve (`Simulation::solve_contacts`) and reports
//! its impacts; `gather` lists the contacts with their warm starts, `passes` runs the
//! solver's passes, correction and shock pass on them, and `tuning` holds the measured
//! constants.

use crate::events::{Impact, Other, static_other};
use crate::queue::is_body;
use crate::simulation::Simulation;
use glam::DVec2;

pub use crate::contact_memory::{ContactMemory, KeptContact, Partner};
pub use crate::gap_contacts::KEEP_GAP;

mod gather;
mod passes;
mod tuning;

pub(crate) use gather::{body_contact, static_partner};

pub use tuning::{
    COLOURED_CONTACTS, CONJUGATE_CONTACTS, CONJUGATE_FIRST_PASSES, CONJUGATE_ITERATIONS,
    CONJUGATE_TOLERANCE, CONJUGATE_TRIGGER, CONVERGED_FRACTION, CORRECTION_PASSES, CORRECTION_RATE,
    CROWD_PASS_CONTACTS, DEEP_JAM_CONTACTS, DEEP_JAM_MAX_FACTOR, GAUSS_SEIDEL_ANCHORED_ITERATIONS,
    GAUSS_SEIDEL_CONTACTS, GAUSS_SEIDEL_ITERATIONS, MAX_PASS_FACTOR, RELAXATION,
    ROUGH_COLOURED_CONTACTS, ROUGH_CONVERGED_CONTACTS, SETTLE_PASSES, SHOCK_SUPPORT,
    SMOOTH_SHOCK_SUPPORT, STEERED_JAM_CONTACTS, TIGHT_JAM_DEPTH, TIGHT_JAM_SHARE,
    TRIGGERED_ITERATIONS, crowd_passes, deep_jam_passes,
};

/// A contact handled by the solver.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverContact {
    pub(crate) a: u32,
    /// Body index, or a wall code.
    pub(crate) b: u32,
    /// Unit normal from `a` towards `b`.
    pub(crate) normal: DVec2,
    /// Whether the contact is a pressing one closing faster than the resting speed.
    pub(crate) pressing_fast: bool,
    /// Closing speed at the start of the step.
    pub(crate) closing: f64,
    /// Contact point.
    pub(crate) point: DVec2,
    /// Overlap depth at the start of the step (negative: a gap).
    pub(crate) depth: f64,
    /// The closing speed the contact allows: 0, or for a kept contact whose gap opened
    /// past the slop the speed that closes it to the slop over the step.
    pub(crate) allowed: f64,
    /// Impulse it started with (the warm start).
    pub(crate) warm: f64,
    /// Impulse accumulated over the passes, the warm start included.
    pub(crate) accumulated: f64,
    /// The pair's Coulomb coefficient (0: smooth, no friction pass).
    pub(crate) mu: f64,
    /// The pair's rolling-resistance lever: coefficient × the smaller radius (0: none).
    pub(crate) rolling: f64,
    /// Friction impulse along the tangent: the warm start, then accumulated.
    pub(crate) tangent_warm: f64,
    pub(crate) tangent: f64,
    /// Rolling-resistance angular impulse on `b`: the warm start, then accumulated.
    pub(crate) roll_warm: f64,
    pub(crate) roll: f64,
}

impl Simulation {
    /// Solves the slow contacts touching at the start of this step (see the module docs)
    /// and remembers them for the next step.
    pub(crate) fn solve_contacts(&mut self) {
        self.resting.clear();
        self.steered_jam = false;
        self.shifts.clear();
        // Cleared even when no solver runs: the boxes belong to this step's bodies only.
        self.contact_boxes.clear();
        if self.resting_speed <= 0.0 {
            self.memory.contacts.clear();
            self.memory.corrected = false;
            return;
        }
        self.gather_contacts(false);
        // The boxes the broad phase saw, to tell afterwards whose path now leaves its own.
        // A body the solver holds ends its free flight: it moves in a straight line at
        // the velocity the solver gives it, the step's gravity included.
        let kick = self.bodies.gravity * self.dt;
        let mut landed = std::mem::take(&mut self.landed);
        landed.clear();
        for k in 0..self.resting.len() {
            let (a, b) = (self.resting[k].a, self.resting[k].b);
            for i in std::iter::once(a).chain(is_body(b).then_some(b)) {
                // Once per body, however many contacts it is in.
                if self.bodies.hot[i as usize].keep_box_once() {
                    self.contact_boxes
                        .push((i, self.bodies.swept_box(i as usize)));
                    let h = &mut self.bodies.hot[i as usize];
                    if h.flying() {
                        landed.push(i);
                        h.vel += kick;
                        h.set_flying(false);
                    }
                }
            }
        }
        // The velocities and spins before the solver, once per body: the energy guard's
        // reference.
        let mut before = std::mem::take(&mut self.solver_velocities);
        before.clear();
        before.extend((self.contact_boxes.iter()).map(|&(i, _)| {
            let i = i as usize;
            (i as u32, self.bodies.hot[i].vel, self.bodies.spin[i].omega)
        }));
        let energy = |sim: &Self| {
            (before.iter())
                .map(|&(i, ..)| i as usize)
                .filter(|&i| sim.bodies.hot[i].inv_mass > 0.0)
                .map(|i| sim.bodies.hot[i].kinetic_energy() + sim.bodies.spin[i].energy())
                .sum::<f64>()
        };
        let e0 = energy(self);
        let external = self.stats.external_impulse;
        self.run_contact_passes(self.config.contact_iterations, true);
        if !self.memory.is_empty() && energy(self) > e0 * (1.0 + 1e-12) + f64::MIN_POSITIVE {
            // Last step's impulses did not fit this step's contacts (a body wedged
            // between nearly opposite contacts, say) and the passes could not take them
            // back: solve again from zero, which never adds energy.
            self.stats.cold_restarts += 1;
            self.stats.external_impulse = external;
            for &(i, v, omega) in &before {
                self.bodies.hot[i as usize].vel = v;
                self.bodies.spin_mut(i as usize).omega = omega;
            }
            for c in &mut self.resting {
                c.accumulated = 0.0;
                c.tangent = 0.0;
                c.roll = 0.0;
            }
            self.run_contact_passes(self.config.contact_iterations, false);
        }
        self.solver_velocities = before;
        self.landed = landed;
        self.fly_on_unsupported(kick);
        self.remember_contacts();
        self.report_contact_impacts();
        self.stats.resting_contacts = self.resting.len();
        self.list_solver_pairs();
    }

    /// Plans the end-of-step position correction of the solver's contacts on its loaded
    /// `rows` ([`ContactRows::shifts`](crate::contact_rows::ContactRows::shifts)): the
    /// overlap a contact started the step with is taken [`CORRECTION_RATE`] of the way
    /// back to touching, each body moving at most half the slop times its radius (so no
    /// pair the broad phase did not list can come to touch). `resolve` applies the shifts
    /// before the push-out. Without it, pressed contacts creep to the edge of the slop
    /// (the solver leaves a small residual closing and nothing corrects overlap within
    /// the slop), and any push then cascades through a jam.
    ///
    /// For a `jam`: without gravity, or a steered jam under it
    /// ([`is_steered_jam`](Self::is_steered_jam)). Under gravity the shock pass and the
    /// push-out's bottom-up rule (the upper body moves) keep piles and heaps together, and
    /// a correction shared by mass moved lower bodies too — the rough heap of 2000 flowed
    /// flatter (angle of repose 16.2° → 15.3° at μ 0.5, 20.1° → 16.2° with rolling
    /// resistance) and the pile of 10000 kept twice the kinetic energy.
    fn plan_position_correction(&mut self, rows: &mut crate::contact_rows::ContactRows, jam: bool) {
        if self.config.overlap_slop > 0.0 && jam {
            let limit = 0.5 * self.config.overlap_slop;
            let (resting, bodies) = (&self.resting, &self.bodies);
            rows.shifts(
                resting,
                bodies,
                CORRECTION_RATE,
                deep_jam_passes(CORRECTION_PASSES, resting.len()),
                limit,
                &mut self.shifts,
            );
        }
    }

    /// The up the step's passes and push-out work with: gravity's, zero without gravity
    /// and for a steered jam ([`is_steered_jam`](Self::is_steered_jam)), which is solved
    /// and pushed out as a jam without gravity is (its weight is in the velocities
    /// already).
    pub(crate) fn jam_up(&self) -> DVec2 {
        if self.steered_jam {
            DVec2::ZERO
        } else {
            -self.config.gravity.normalize_or_zero()
        }
    }

    /// Whether this step's solve under gravity is a *steered jam*: one of its contacts has
    /// a steered body ([`BodyDesc::steered`](crate::BodyDesc::steered)) — the game drives
    /// bodies through the solve every frame (a horde walked into a wall, walkers shoving
    /// crates through a pile). Such a solve is solved as a jam without gravity is
    /// (over-relaxed passes, more of them when deep, the conjugate-gradient trigger and the
    /// position correction). The first rule asked for half of the contacts: a pile of 1000
    /// a tenth or a fifth of whose circles walked left stayed a pile, and the pile's
    /// push-out lifted what the walkers shoved (core, 900 steps: 108 / 303 steps leaving
    /// overlaps, 8.7 / 25 ms a step; with this rule none, 1.6 / 1.7 ms). A character
    /// standing or walking on a pile leaves it as high as the first rule did. Without
    /// gravity, or without contacts: `false` (a steered body in the air changes nothing
    /// about the landings around it).
    fn is_steered_jam(&self) -> bool {
        if self.bodies.gravity == DVec2::ZERO || self.steered_bodies == 0 {
            return false;
        }
        let b = &self.bodies.hot;
        (self.resting.iter())
            .any(|c| b[c.a as usize].steered() || (is_body(c.b) && b[c.b as usize].steered()))
    }

    /// Marks the solver's bodies and lists its pairs (body index, or wall code).
    fn list_solver_pairs(&mut self) {
        self.solver_marked |= !self.resting.is_empty();
        for c in &self.resting {
            self.bodies.hot[c.a as usize].mark_in_solver();
            if is_body(c.b) {
                self.bodies.hot[c.b as usize].mark_in_solver();
            }
        }
        let pairs = self.resting.iter().map(|c| (c.a, c.b));
        self.solver_pairs.list(self.bodies.len(), pairs);
    }

    /// Whether body `i` and `other` (a body index with `i < other`, or a wall code) are a
    /// contact of this step's solver that no event-loop impact has touched since: the
    /// event loop leaves such a pair to the solver and the push-out, whatever is left of
    /// its closing speed (a jam's residue is no impact). Once an impact changes either
    /// body's course, the pair is predicted like any other (and a fast closing is an
    /// exact impact).
    #[inline]
    pub(crate) fn solver_owns(&self, i: usize, other: u32) -> bool {
        let h = &self.bodies.hot;
        h[i].in_solver()
            && !h[i].hit()
            && (!is_body(other) || h[other as usize].in_solver() && !h[other as usize].hit())
            && self.solver_pairs.contains(i, other)
    }

    /// Fallback once the impact cap is reached at step time `t`: every body is moved to
    /// `t`, and every pair touching then is solved as a restitution-0 contact (so a
    /// collapsing cluster stops closing instead of sinking into itself), with twice the
    /// usual passes. The rest of the step is plain motion, then the push-out.
    pub(crate) fn fallback_contacts(&mut self, t: f64) {
        for i in 0..self.bodies.len() {
            self.bodies.advance(i, t);
        }
        self.resting.clear();
        self.solver_pairs.clear();
        self.gather_contacts(true);
        self.run_contact_passes(2 * self.config.contact_iterations.max(4), false);
    }

    /// Pressing contacts that closed faster than the resting speed and whose impulse
    /// changed their closing speed by more than it, as impacts at `t = 0`, in pair order.
    fn report_contact_impacts(&mut self) {
        let start = self.impacts.len();
        for c in &self.resting {
            let (a, b) = (c.a as usize, c.b as usize);
            let hot = &self.bodies.hot;
            let (wb, r) = if is_body(c.b) {
                (hot[b].inv_mass, hot[a].radius.min(hot[b].radius))
            } else {
                (0.0, hot[a].radius)
            };
            let w = hot[a].inv_mass + wb;
            if c.pressing_fast && c.accumulated * w > self.pair_resting_speed_at(r) {
                self.impacts.push(Impact {
                    time: 0.0,
                    a: c.a,
                    other: if is_body(c.b) {
                        Other::Body(c.b)
                    } else {
                        static_other(c.b)
                    },
                    point: c.point,
                    normal: c.normal,
                    impulse: c.accumulated,
                    tangent_impulse: c.tangent,
                    approach_speed: c.closing,
                    resting: false,
                    sensor: false,
                });
            }
        }
        self.impacts[start..].sort_by_key(|i| (i.a, other_key(i.other)));
    }
}

/// Sort key of what an impact's body hit: bodies by index, then walls, then segments.
fn other_key(other: Other) -> u64 {
    match other {
        Other::Body(j) => u64::from(j),
        Other::Segment(s) => u64::from(u32::MAX) + 4 + u64::from(s),
        Other::Wall(w) => u64::from(u32::MAX) + w as u64,
    }
}
