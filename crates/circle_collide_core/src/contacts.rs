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
//! disturbs them.
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

use crate::events::{Impact, Other, static_other};
use crate::queue::{code_segment, code_wall, is_body};
use crate::simulation::{Contact, Simulation};
use glam::DVec2;

pub use crate::contact_memory::{ContactMemory, KeptContact, Partner};
pub use crate::gap_contacts::KEEP_GAP;

mod tuning;

pub use tuning::{
    COLOURED_CONTACTS, CONJUGATE_CONTACTS, CONJUGATE_FIRST_PASSES, CONJUGATE_ITERATIONS,
    CONJUGATE_TOLERANCE, CONJUGATE_TRIGGER, CONVERGED_FRACTION, CORRECTION_PASSES, CORRECTION_RATE,
    CROWD_PASS_CONTACTS, DEEP_JAM_CONTACTS, DEEP_JAM_MAX_FACTOR, GAUSS_SEIDEL_ANCHORED_ITERATIONS,
    GAUSS_SEIDEL_CONTACTS, GAUSS_SEIDEL_ITERATIONS, MAX_PASS_FACTOR, RELAXATION, SETTLE_PASSES,
    SHOCK_SUPPORT, SMOOTH_SHOCK_SUPPORT, STEERED_JAM_CONTACTS, TIGHT_JAM_DEPTH, TIGHT_JAM_SHARE,
    TRIGGERED_ITERATIONS, crowd_passes, deep_jam_passes,
};
use tuning::{mostly_warm, passes_after_correction};

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

    /// Lists the contacts of the solver: the slow narrow-phase contacts at the start of
    /// the step, with their warm starts; or, with `fallback`, every candidate pair
    /// touching at the bodies' current positions, with no warm start. Every contact's
    /// target is not to close.
    fn gather_contacts(&mut self, fallback: bool) {
        if !fallback {
            // The bodies that can touch a wall or segment at the start of the step.
            self.list_wall_candidates();
        }
        let mut list = std::mem::take(&mut self.resting);
        let mut rows = std::mem::take(&mut self.memory_rows);
        if fallback || self.memory.is_empty() {
            rows.clear();
        } else {
            self.sort_keys();
            self.memory.rows_of(&self.key_order, &mut rows);
        }
        let combine = self.config.restitution_combine;
        let b = &self.bodies;
        // Closing speeds are judged with the step's gravity in the velocities, as the
        // solver will see them (its bodies stop flying).
        let kick = b.gravity * self.dt;
        let vel = |i: usize| {
            let h = &b.hot[i];
            if h.flying() && !fallback {
                h.vel + kick
            } else {
                h.vel
            }
        };
        // `ContactMemory::get` by body index, from the rows of the first body: of the two
        // bodies `a`, `j`, the one with the lower key; with a static partner, `a`.
        let remembered = |a: usize, partner: Partner| {
            (rows.get(a)).and_then(|&r| self.memory.find_in(r, partner).copied())
        };
        let remembered_pair = |i: usize, j: usize| {
            let (first, second) = if b.keys[j] < b.keys[i] {
                (j, i)
            } else {
                (i, j)
            };
            remembered(first, Partner::Body(b.keys[second]))
        };
        // Slow or pressing: the solver's, with whether it presses fast (closes faster
        // than the resting speed); else `None` (the event loop's). Under the default
        // resting speed an elastic pair (restitution ≥ 1) never presses: closing fast,
        // it bounces, energy kept — unless a steered body drives it together again after
        // it pressed or hit last step (`steered`): then it is a pair like any other (the
        // game's velocity would undo the bounce every step).
        let elastic_bounces = self.config.resting_speed.is_none();
        // `r`: the radius of the pair's smaller circle (with a wall or segment, the body's).
        let classify = |closing: f64, warm: Option<KeptContact>, e: f64, steered: bool, r: f64| {
            let resting_speed = if steered {
                self.steered_resting_speed_at(r)
            } else {
                self.config
                    .pair_resting_speed(self.pair_resting_speed_at(r), e)
            };
            if fallback || (closing <= resting_speed && resting_speed > 0.0) {
                Some(false)
            } else if warm.is_some()
                && resting_speed > 0.0
                && (e < 1.0 || !elastic_bounces || steered)
            {
                Some(true)
            } else {
                None
            }
        };
        let steered_pair = |i: usize, j: usize| b.steered_pair(i, j);
        if fallback {
            let slop = self.config.overlap_slop;
            for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
                let (iu, ju) = (i as usize, j as usize);
                if b.sensor_pair(iu, ju) {
                    continue;
                }
                let (p, q) = (&b.hot[iu], &b.hot[ju]);
                let m = crate::manifold::manifold(p.pos, p.radius, q.pos, q.radius, (i, j));
                if m.depth >= -slop * p.radius.min(q.radius) {
                    let closing = (p.vel - q.vel).dot(m.normal);
                    list.push(contact(
                        i,
                        j,
                        (m.normal, m.point, m.depth),
                        closing,
                        false,
                        None,
                    ));
                }
            }
        } else {
            // The contacts are the pairs touching now, in pair order; a pair that does not
            // touch may be a pressing contact whose gap opened a little (`KEEP_GAP`): any
            // pair without gravity, and under it in a world where the game drives a body
            // (steers it, or moves a kinematic one).
            let gravity = b.gravity != DVec2::ZERO;
            let driven = self.steered_bodies + self.driving_bodies > 0;
            let keep_gaps = (!gravity || driven) && !self.memory.is_empty();
            // A narrow-phase contact that is slow or pressing, as the solver's.
            let solver_contact = |c: &Contact| {
                let (i, j) = (c.a as usize, c.b as usize);
                if b.sensor_pair(i, j) {
                    return None;
                }
                let closing = (vel(i) - vel(j)).dot(c.manifold.normal);
                let warm = remembered_pair(i, j);
                let e = b.pair_restitution(combine, i, j);
                let m = &c.manifold;
                let r = b.hot[i].radius.min(b.hot[j].radius);
                classify(closing, warm, e, steered_pair(i, j), r).map(|pressing_fast| {
                    let at = (m.normal, m.point, m.depth);
                    body_contact(&b.keys, (c.a, c.b), at, closing, pressing_fast, warm)
                })
            };
            if keep_gaps {
                let mut next = 0;
                for &(i, j) in &self.pairs {
                    match self.contacts.get(next) {
                        Some(c) if (c.a, c.b) == (i, j) => {
                            next += 1;
                            list.extend(solver_contact(c));
                        }
                        _ => {
                            let (iu, ju) = (i as usize, j as usize);
                            let e = || b.pair_restitution(combine, iu, ju);
                            // Classified as a touching pair is, on what its gap allows.
                            if let Some((mut gap, warm)) =
                                self.gap_contact((i, j), (vel(iu), vel(ju)), || {
                                    remembered_pair(iu, ju)
                                })
                                && let Some(fast) = classify(
                                    gap.closing - gap.allowed,
                                    Some(warm),
                                    e(),
                                    steered_pair(iu, ju),
                                    b.hot[iu].radius.min(b.hot[ju].radius),
                                )
                            {
                                gap.pressing_fast = fast;
                                list.push(gap);
                            }
                        }
                    }
                }
                debug_assert_eq!(next, self.contacts.len(), "contacts follow the pairs");
            } else {
                // Only the narrow phase's contacts (the pairs' order).
                list.extend(self.contacts.iter().filter_map(solver_contact));
            }
        }
        if self.config.arena.is_some() || !self.level.is_empty() {
            let mut touch_statics = |i: usize| {
                let h = &b.hot[i];
                if h.inv_mass == 0.0 || h.sensor() {
                    return;
                }
                let margin = self.config.overlap_slop * h.radius;
                // Most bodies are clear of every wall and segment by more than the slop.
                let here = (h.pos - h.radius, h.pos + h.radius);
                self.visit_statics(i, (h.pos, vel(i)), here, margin, |touch| {
                    if touch.depth < -margin {
                        return;
                    }
                    let n = touch.normal;
                    let closing = vel(i).dot(n);
                    let warm = remembered(i, static_partner(touch.code));
                    let e = combine.combine(b.restitution[i], touch.restitution);
                    if let Some(fast) = classify(closing, warm, e, h.steered(), h.radius) {
                        let at = (n, touch.point, touch.depth);
                        list.push(contact(i as u32, touch.code, at, closing, fast, warm));
                    }
                });
            };
            // At the start of the step only the bodies `integrate` found near a wall or a
            // segment can touch one (`list_wall_candidates`): their swept boxes, widened by
            // at least the slop, hold the boxes tested here, met in index order as a walk
            // over every body would. The fallback tests every body where it stands.
            if fallback {
                (0..b.len()).for_each(touch_statics);
            } else {
                self.near_wall
                    .iter()
                    .for_each(|&i| touch_statics(i as usize));
            }
        }
        if !fallback {
            self.drop_free_elastic_contacts(&mut list);
        }
        self.rough_contacts(&mut list);
        self.resting = list;
        self.steered_jam = self.is_steered_jam();
        self.memory_rows = rows;
    }

    /// Gives each contact of rough bodies (or of a body on rough walls) its friction
    /// coefficient and rolling-resistance lever; smooth contacts keep none, and their
    /// warm starts of friction are dropped.
    fn rough_contacts(&self, list: &mut [SolverContact]) {
        let b = &self.bodies;
        let combine = self.config.friction_combine;
        for c in list {
            let (a, s) = (c.a as usize, &b.spin);
            let wall_friction = if is_body(c.b) {
                0.0
            } else {
                self.static_material(c.b).1
            };
            let (mu, rolling) = match is_body(c.b) {
                false if b.rough_with_wall(a, wall_friction) => (
                    combine.combine(s[a].friction, wall_friction),
                    combine.combine(s[a].rolling, 0.0) * b.hot[a].radius,
                ),
                true if b.rough_pair(a, c.b as usize) => {
                    let j = c.b as usize;
                    let radius = b.hot[a].radius.min(b.hot[j].radius);
                    (
                        combine.combine(s[a].friction, s[j].friction),
                        combine.combine(s[a].rolling, s[j].rolling) * radius,
                    )
                }
                _ => (0.0, 0.0),
            };
            c.mu = mu;
            c.rolling = rolling;
            if mu <= 0.0 {
                c.tangent_warm = 0.0;
            }
            if rolling <= 0.0 {
                c.roll_warm = 0.0;
            }
        }
    }

    /// `passes` Gauss–Seidel passes over the contacts (after their warm starts with
    /// `warm`), on the packed rows of
    /// [`ContactRows`](crate::contact_rows::ContactRows); then, if configured and under
    /// gravity, the shock-propagation pass and [`SETTLE_PASSES`] more passes.
    fn run_contact_passes(&mut self, passes: u32, warm: bool) {
        let mut rows = std::mem::take(&mut self.rows);
        rows.set_executor(&self.executor);
        rows.load(&self.resting, &self.bodies);
        // The shock pass below still takes gravity's up in a steered jam.
        let gravity_up = -self.config.gravity.normalize_or_zero();
        let up = self.jam_up();
        if warm {
            // The first solve of the step: the position correction is planned on its rows.
            self.plan_position_correction(&mut rows, up == DVec2::ZERO);
            rows.warm_start(&self.resting);
        }
        let configured = passes;
        // Over-relaxed without gravity (crowds, top-down games); see `RELAXATION`.
        let (passes, relaxation) = if up == DVec2::ZERO {
            // A steered jam under gravity keeps the deep-jam scale (`CROWD_PASS_CONTACTS`).
            let passes = if self.steered_jam {
                deep_jam_passes(passes, self.resting.len())
            } else {
                crowd_passes(passes, self.resting.len())
            };
            (passes, RELAXATION)
        } else {
            (passes, 1.0)
        };
        // A deep jam without gravity: a few passes find the contacts that push, conjugate
        // gradients carry the push across the jam (see `CONJUGATE_CONTACTS`), the passes
        // that follow settle the inequalities.
        // A smaller jam gets them too when its first passes still change a velocity by more
        // than `CONJUGATE_TRIGGER` × the resting speed (see there). Either way only while
        // the jam is pressed near its slop (`TIGHT_JAM_DEPTH`).
        let deep = self.config.conjugate_correction && self.resting.len() >= CONJUGATE_CONTACTS;
        let triggered_from = if gravity_up == DVec2::ZERO {
            DEEP_JAM_CONTACTS
        } else {
            STEERED_JAM_CONTACTS
        };
        let maybe = self.config.conjugate_correction
            && self.resting.len() >= triggered_from
            && passes > CONJUGATE_FIRST_PASSES;
        let conjugate = up == DVec2::ZERO && (deep || maybe);
        let (mut corrected, mut anchored) = (false, false);
        if conjugate {
            rows.passes_until(
                CONJUGATE_FIRST_PASSES,
                CONJUGATE_FIRST_PASSES,
                0.0,
                relaxation,
            );
            let wanted = deep || rows.largest_change() > CONJUGATE_TRIGGER * self.resting_speed;
            // The step after a correction skips it anyway (`correct_every_other_step`): the
            // scan of `pressed_near_slop` only in steps that may run it.
            if wanted && !self.memory.corrected && self.pressed_near_slop() {
                // Deep or triggered, and pressed near the slop: a jam pressed on a wall or a
                // static body takes the anchored iterations (`GAUSS_SEIDEL_ANCHORED_ITERATIONS`).
                anchored = rows.presses_on_static();
                let tolerance = CONJUGATE_TOLERANCE * self.resting_speed;
                corrected = self.correct_every_other_step(&mut rows, tolerance, anchored);
            }
        }
        if up == DVec2::ZERO || rows.any_rough() {
            let after = if conjugate {
                // A warm jam pressed into itself, just crossed by the correction.
                let settles = corrected && !anchored && !self.steered_jam;
                let total = if settles && mostly_warm(&self.resting) {
                    passes_after_correction(configured, passes)
                } else {
                    passes
                };
                total.saturating_sub(CONJUGATE_FIRST_PASSES)
            } else {
                passes
            };
            rows.passes(after, relaxation);
        } else {
            // Smooth contacts under gravity: on until converged (`CONVERGED_FRACTION`); a
            // deep pile the configured passes leave unconverged gets the conjugate-gradient
            // correction first (`CONJUGATE_CONTACTS`).
            let tolerance = CONVERGED_FRACTION * self.config.gravity.length() * self.dt;
            let most = passes.saturating_mul(MAX_PASS_FACTOR);
            let (mut done, mut converged) = (0, false);
            if deep && passes > 0 {
                done = rows.passes_until(passes, passes, tolerance, 1.0);
                converged = rows.converged(tolerance);
                if !converged {
                    self.correct_every_other_step(&mut rows, tolerance, false);
                }
            }
            if !converged {
                done += rows.passes_until(passes, most.saturating_sub(done), tolerance, 1.0);
            }
            self.stats.contact_passes = done;
        }
        self.stats.external_impulse += rows.store(&mut self.resting, &mut self.bodies);
        let up = gravity_up;
        if self.config.shock_propagation && up != DVec2::ZERO {
            let steep = if rows.any_rough() {
                SHOCK_SUPPORT
            } else {
                SMOOTH_SHOCK_SUPPORT
            };
            self.shock_by_body(up, steep);
            rows.reload(&self.resting, &self.bodies);
            rows.passes(SETTLE_PASSES, 1.0);
            self.stats.external_impulse += rows.store(&mut self.resting, &mut self.bodies);
        }
        self.rows = rows;
    }

    /// Whether more than [`TIGHT_JAM_SHARE`] of the solver's contacts started the step
    /// overlapping deeper than [`TIGHT_JAM_DEPTH`] × the overlap slop (of the smaller
    /// radius; a wall's or segment's contact: of the body's): a jam pressed near its
    /// tolerance, which the conjugate-gradient correction is for.
    fn pressed_near_slop(&self) -> bool {
        let (hot, slop) = (&self.bodies.hot, self.config.overlap_slop);
        let deep = (self.resting.iter())
            .filter(|c| {
                let ra = hot[c.a as usize].radius;
                let r = if is_body(c.b) {
                    ra.min(hot[c.b as usize].radius)
                } else {
                    ra
                };
                c.depth > TIGHT_JAM_DEPTH * slop * r
            })
            .count();
        deep as f64 > TIGHT_JAM_SHARE * self.resting.len() as f64
    }

    /// The conjugate-gradient correction (`CONJUGATE_CONTACTS`) of `rows` down to
    /// `tolerance`, unless the step that left the contact memory ran it
    /// ([`ContactMemory::corrected`]): the warm start carries a correction into the next
    /// step, so it runs every other step at most, with or without gravity. A solve of
    /// [`GAUSS_SEIDEL_CONTACTS`] or more is preconditioned by symmetric Gauss–Seidel
    /// ([`GAUSS_SEIDEL_ITERATIONS`], or [`GAUSS_SEIDEL_ANCHORED_ITERATIONS`] when
    /// `anchored`: it presses on a wall, a static or a kinematic body), a smaller one by
    /// Jacobi ([`CONJUGATE_ITERATIONS`], or [`TRIGGERED_ITERATIONS`] when `anchored`).
    /// Gauss–Seidel's sweeps run on the executor's threads for jams without gravity and
    /// steered jams, on the calling thread for piles under gravity (see
    /// `Preconditioner::GaussSeidelRegions`). Returns whether it ran.
    fn correct_every_other_step(
        &mut self,
        rows: &mut crate::contact_rows::ContactRows,
        tolerance: f64,
        anchored: bool,
    ) -> bool {
        use crate::contact_rows::Preconditioner;
        if self.memory.corrected {
            return false;
        }
        let gauss_seidel = if self.jam_up() == DVec2::ZERO {
            Preconditioner::GaussSeidelRegions
        } else {
            Preconditioner::GaussSeidel
        };
        let (preconditioner, iterations) =
            match (self.resting.len() >= GAUSS_SEIDEL_CONTACTS, anchored) {
                (true, false) => (gauss_seidel, GAUSS_SEIDEL_ITERATIONS),
                (true, true) => (gauss_seidel, GAUSS_SEIDEL_ANCHORED_ITERATIONS),
                (false, false) => (Preconditioner::Jacobi, CONJUGATE_ITERATIONS),
                (false, true) => (Preconditioner::Jacobi, TRIGGERED_ITERATIONS),
            };
        self.stats.correction_iterations =
            rows.conjugate_gradient(iterations, tolerance, preconditioner);
        self.stats.corrected = true;
        true
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

/// A solver contact at `(normal, point, depth)` with its warm start.
fn contact(
    a: u32,
    b: u32,
    (normal, point, depth): (DVec2, DVec2, f64),
    closing: f64,
    pressing_fast: bool,
    kept: Option<KeptContact>,
) -> SolverContact {
    let kept = kept.unwrap_or(KeptContact::new(0, Partner::Body(0), 0.0));
    SolverContact {
        a,
        b,
        normal,
        pressing_fast,
        closing,
        point,
        depth,
        allowed: 0.0,
        warm: kept.impulse,
        accumulated: 0.0,
        mu: 0.0,
        rolling: 0.0,
        tangent_warm: kept.tangent_impulse,
        tangent: 0.0,
        roll_warm: kept.rolling_impulse,
        roll: 0.0,
    }
}

/// [`contact`] between bodies `i` and `j`, with `warm`'s rolling impulse turned to act on
/// `i`: the memory keeps each body pair with the lower key as `a`, and the rolling impulse
/// acts on `b`.
pub(crate) fn body_contact(
    keys: &[u64],
    (i, j): (u32, u32),
    at: (DVec2, DVec2, f64),
    closing: f64,
    pressing_fast: bool,
    warm: Option<KeptContact>,
) -> SolverContact {
    let mut kept = contact(i, j, at, closing, pressing_fast, warm);
    if keys[i as usize] > keys[j as usize] {
        kept.roll_warm = -kept.roll_warm;
    }
    kept
}

/// Sort key of what an impact's body hit: bodies by index, then walls, then segments.
fn other_key(other: Other) -> u64 {
    match other {
        Other::Body(j) => u64::from(j),
        Other::Segment(s) => u64::from(u32::MAX) + 4 + u64::from(s),
        Other::Wall(w) => u64::from(u32::MAX) + w as u64,
    }
}

/// The remembered partner of a static code (a wall or a segment).
pub(crate) fn static_partner(code: u32) -> Partner {
    match code_segment(code) {
        Some(s) => Partner::Segment(s as u32),
        None => Partner::Wall(code_wall(code).expect("a wall code")),
    }
}
