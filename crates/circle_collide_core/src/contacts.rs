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
//! Without gravity (under gravity: a pair with a steered body) a pair that pressed last
//! step and whose gap has opened past the slop,
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

/// Gauss–Seidel passes over every contact after the shock-propagation pass (see the
/// module docs). Measured on the jittered piles of 1200–3000 (DESIGN §5,
/// `docs/contacts.md`): without them the piles kept jostling at 0.03–0.3 units/s for
/// good; with four the 1200, 1500 and 2000 piles fall asleep at 7–9 s; eight were no
/// better.
pub const SETTLE_PASSES: u32 = 4;

/// The shock pass's supports: contacts whose normal is at least this close to the
/// vertical (the cosine of its angle with it; 0.5: leaning at least 30° from the
/// horizontal). Rough solves (friction or rolling resistance: fixed passes, no
/// conjugate-gradient correction) take every such support.
pub const SHOCK_SUPPORT: f64 = 0.5;

/// The shock pass's supports in a smooth solve: contacts within about 14° of the
/// vertical (cosine 0.97) — columns, where Gauss–Seidel carries weight worst. The
/// slanted supports of an irregular pile (about 30° from the vertical in a close
/// packing) are left to the passes, which run until converged, and to the
/// conjugate-gradient correction. Measured (seventeenth session, `docs/contacts.md`):
/// the jittered piles of 6000–12,000 (seven sizes, core, `pile_settle`) fell asleep at
/// 9.45 / 11.48 / 8.37 / 6.77 / 9.65 / 7.58 / 6.50 s with every support at 30° or more
/// (mean 8.5 s), at 6.85 / 5.28 / 6.85 / 10.00 / 6.45 / 6.13 / 6.17 s with these (mean
/// 6.8 s); through the plugin (runner, 900 steps) the piles of 8000–12,000 at 8.23 /
/// 8.55 / 8.63 / 10.83 / 8.50 → 8.92 / 7.02 / 10.58 / 7.10 / 8.70 s (mean 8.95 → 8.46 s)
/// and the pile of 2000 at 7.10 → 5.67 s; the piles of 1500–2700 (eight sizes, core)
/// all fell asleep either way (mean 6.75 and 6.63 s). When a pile falls asleep is
/// chaotic; an awake step costs about the same. The lattice piles of 2000 and 10,000
/// (columns) fall asleep at the same 0.92 and 1.50 s, where they
/// never did without the shock pass. Rough piles keep [`SHOCK_SUPPORT`] (with this, a
/// pile of 10,000 at μ = 0.3 blew up). A kinematic paddle driven into a sleeping pile
/// leaves bodies as deep inside it as before (eight jittered piles: by whole islands at
/// most 1.8 slops against 1.5, by neighbourhood 5.0 against 4.7).
pub const SMOOTH_SHOCK_SUPPORT: f64 = 0.97;

/// Under gravity, in a solve without friction, the solver's passes go on past the
/// configured number, up to [`MAX_PASS_FACTOR`] times it, until a pass changes no body's
/// velocity by more than this fraction of what gravity adds in a step (`|g| dt`). A pile
/// whose weight the configured passes leave half carried jostles for good: on the jittered
/// piles of 1500–2700 (eight sizes, core) 1 of 8 fell asleep within 10 s with 16 passes, 8
/// of 8 (at 4.9–9.4 s) with this rule; 0.005 and 0.01 settled 6 and 7 of 8, at most twice
/// the passes 4 of 8, and 32 or 64 fixed passes settled some sizes and not others. The cost
/// is in piles too deep to converge: the pile of 10,000 runs 64 passes a step and its
/// late-half median went from 15.3 to 22.0 ms (it settles within 10 s with neither). Solves
/// with friction keep the configured passes: with the rule the heap poured at μ 0.5 flowed
/// flatter (angle of repose 17.6° → 12.9°, below the peers' 15.6°), and friction brings
/// rough piles to rest on its own.
pub const CONVERGED_FRACTION: f64 = 0.002;

/// The most passes under gravity, as a multiple of the configured ones
/// ([`CONVERGED_FRACTION`]).
pub const MAX_PASS_FACTOR: u32 = 4;

/// Over-relaxation of the solver's normal impulses without gravity (successive
/// over-relaxation: each pass's change of a normal impulse is this many times the plain
/// Gauss–Seidel one).
/// A crowd steered into itself is a deep stack lying on its side: each contact inside
/// carries the push of every layer outside it, and plain Gauss–Seidel passes carry it
/// in too slowly (residual closing up to 0.5 units/s after 16 passes). Measured on the
/// steered crowds of 1600–3000 (12 sizes, core, late-half medians): 1.0 gave a mean of
/// 7.8 ms per step, two of the twelve imploding (0.15–0.18 r overlaps, 25–30 ms); 1.3,
/// 1.4 and 1.5 gave 3.6–3.7 ms with none. Under gravity the shock pass carries the
/// weight, and 1.4 did not help the piles (the 1500 pile no longer fell asleep).
pub const RELAXATION: f64 = 1.4;

/// Without gravity, a solve of more than this many contacts gets more passes
/// ([`deep_jam_passes`]: steered jams under gravity and the position correction; a crowd's
/// velocity passes from [`CROWD_PASS_CONTACTS`] since the twenty-ninth session), and the
/// conjugate-gradient trigger ([`CONJUGATE_TRIGGER`]).
pub const DEEP_JAM_CONTACTS: usize = 2000;

/// The passes of a steered jam under gravity, and of the position correction of any solve
/// without gravity, with `contacts` contacts, `passes` configured (a crowd's velocity passes
/// take [`crowd_passes`] since the twenty-ninth session; before, this served them too):
/// `passes × √(contacts / DEEP_JAM_CONTACTS)`, at least `passes` and at most
/// [`DEEP_JAM_MAX_FACTOR`] times it. Gauss–Seidel carries a push one layer of a jam per
/// pass, and a jam's layers grow as the square root of its contacts. Measured (core,
/// late-half medians, with a cap of three): steered crowds of 9000–11000 (300 steps) from
/// a mean of 9.9 to 8.6 ms per step, of 1600–3000 (12 sizes) 3.09 → 3.06 ms with the mean
/// worst step 8.1 → 6.2 ms, of 800–1500 1.24 → 1.22 ms; with 1000 contacts as the scale
/// the largest crowds gained more (7.0 ms) but those of 800–1500 lost 8 %.
///
/// ```
/// use circle_collide_core::contacts::deep_jam_passes;
/// assert_eq!(deep_jam_passes(16, 1_000), 16);
/// assert_eq!(deep_jam_passes(16, 4_500), 24);
/// assert_eq!(deep_jam_passes(16, 8_000), 32);
/// assert_eq!(deep_jam_passes(16, 1_000_000), 32);
/// ```
pub fn deep_jam_passes(passes: u32, contacts: usize) -> u32 {
    passes_scaled(passes, contacts, DEEP_JAM_CONTACTS)
}

/// The velocity passes of a solve without gravity that is not a steered jam (a crowd, a
/// top-down game): `passes × √(contacts / CROWD_PASS_CONTACTS)`, at least `passes` and at
/// most [`DEEP_JAM_MAX_FACTOR`] times it — [`deep_jam_passes`] on a larger scale.
///
/// ```
/// use circle_collide_core::contacts::crowd_passes;
/// assert_eq!(crowd_passes(16, 4_000), 16);
/// assert_eq!(crowd_passes(16, 9_000), 24);
/// assert_eq!(crowd_passes(16, 1_000_000), 32);
/// ```
pub fn crowd_passes(passes: u32, contacts: usize) -> u32 {
    passes_scaled(passes, contacts, CROWD_PASS_CONTACTS)
}

/// `passes × √(contacts / scale)`, at least `passes`, at most [`DEEP_JAM_MAX_FACTOR`] times.
fn passes_scaled(passes: u32, contacts: usize, scale: usize) -> u32 {
    let factor = (contacts as f64 / scale as f64)
        .sqrt()
        .clamp(1.0, DEEP_JAM_MAX_FACTOR);
    (f64::from(passes) * factor).round() as u32
}

/// The scale of a crowd's velocity passes without gravity ([`crowd_passes`]): more than
/// the configured passes from this many contacts, not from [`DEEP_JAM_CONTACTS`] as before
/// the twenty-ninth session. The conjugate-gradient correction (triggered from
/// [`DEEP_JAM_CONTACTS`], preconditioned by symmetric Gauss–Seidel from
/// [`GAUSS_SEIDEL_CONTACTS`]) now carries the push across a mid-size jam, and the extra
/// passes cost more than they save. Steered jams under gravity (walkers, marches) keep
/// [`deep_jam_passes`]: on this scale the marches of 2000 left the push-out 2–8× the moves
/// and their mean step rose (core, draws 0–2: 2.97 / 3.01 / 2.95 → 3.26 / 3.11 / 3.11 ms).
/// The position correction's passes keep [`deep_jam_passes`] too.
///
/// Measured (core, two threads, 600 steps, late-half medians, the same draws `NUDGE=k`
/// both ways; no step left an overlap past the slop in any run): the crowd of 2000 (~3900
/// contacts, 22 → 16 passes), draws 0–5, 1.595 / 1.597 / 1.655 / 1.590 / 1.710 / 1.618 →
/// 1.409 / 1.503 / 1.529 / 1.527 / 1.510 / 1.526 ms (faster in all six, −7.8 %); draws 0–2:
/// the crowds of 3000 2.84 / 2.97 / 2.77 → 2.63 / 2.63 / 2.63 and 5000 6.23 / 4.75 / 5.67 →
/// 5.25 / 4.57 / 5.57, the elastic crowd of 2000 1.61 / 1.64 / 1.55 → 1.51 / 1.49 / 1.54,
/// the crowd at a pillar 1.74 / 1.63 / 1.74 → 1.59 / 1.49 / 1.50; level: the crowd of
/// 10,000 over 600 steps (draws 2–4: 9.22 / 9.21 / 8.31 → 10.29 / 8.29 / 7.75) and 300
/// (2.67 / 2.47 → 2.81 / 2.38), the wall crowd of 10,000 (4.28 / 4.24 / 4.75 → 4.21 / 4.99
/// / 4.16); a little dearer: the crowd of 2000 against a wall (draws 0–5, mean 1.94 →
/// 1.97 ms, three draws each way). Through the plugin (runner, five alternated
/// repetitions, medians of the late-half medians): the crowd of 2000 2.43 → 2.27 ms, of
/// 1000 1.16 → 1.10, the wall crowd of 2000 2.69 → 2.73 (mean step +2 %), the crowd of 500
/// (the same bits) 0.66 / 0.67. A scale of 3000 gained about half as much on the crowd of
/// 2000.
pub const CROWD_PASS_CONTACTS: usize = 4000;

/// The most [`deep_jam_passes`] and [`crowd_passes`] multiply the configured passes by
/// (reached at 8000 contacts on the deep-jam scale, 16,000 on a crowd's): the velocity
/// passes of a deep jam without gravity, and its position correction's
/// ([`CORRECTION_PASSES`]). Measured below on the deep-jam scale, which a crowd's passes
/// still took then (`CROWD_PASS_CONTACTS` came after). Was three until the twenty-ninth
/// session: since
/// the deep jams' correction is preconditioned by symmetric Gauss–Seidel (twenty-seventh
/// session, `GAUSS_SEIDEL_CONTACTS`) it carries the smooth part of the push that the
/// extra passes used to, and the passes beyond 32 cost more than the push-out's moves
/// they save. Measured (core, two threads, the steered crowd of 10,000 over 600 steps,
/// ~9800 solver contacts a step in its late half; draws `NUDGE=2…8`, the same draws both
/// ways): late-half medians 10.39 / 10.20 / 12.24 / 10.80 / 9.69 / 9.61 / 9.86 → 9.51 /
/// 9.41 / 8.92 / 9.74 / 9.34 / 9.31 / 9.56 ms (faster in all seven, mean −9.6 %), no
/// overlap left in any step either way, the push-out's moves a step 445 / 459 / 419 / 289
/// / 232 / 416 / 320 → 545 / 399 / 563 / 279 / 256 / 997 / 489; the crowd of 7000 (draws
/// 6–8) 7.57 / 8.44 / 7.98 → 6.55 / 7.63 / 8.01 ms; a cap of 1.5 was no better than 2
/// (draws 2–5: 10.57 / 10.23 / 8.58 / 9.16 ms); the crowd against a wall of 10,000 level
/// (draws 2–5: 5.32 / 5.42 / 5.45 / 4.73 → 5.72 / 5.11 / 5.48 / 5.17 ms). Solves below
/// 8000 contacts (the crowds of up to ~4000, the marches and walkers of 2000) are not
/// affected, bit for bit.
pub const DEEP_JAM_MAX_FACTOR: f64 = 2.0;

/// A solve of at least this many smooth contacts takes its passes in colour order, each
/// colour's rows shared out between the executor's threads (bit for bit the same on any
/// number of threads); smaller ones keep one thread. Measured and explained in
/// `contact_rows/coloured.rs`.
pub const COLOURED_CONTACTS: usize = 8192;

/// A steered jam under gravity (`Simulation::is_steered_jam`: a horde the game walks into
/// a wall every frame) gets the conjugate-gradient trigger of [`DEEP_JAM_CONTACTS`] from
/// this many contacts: its passes carry the horde's weight down as well as its push
/// sideways. Measured (core, the jittered piles of 500 / 700 / 1000 walked left at 4
/// units/s for 900 steps, restitution 0.2): with the trigger from 2000 contacts, 118 /
/// 594 / 2 steps left overlaps past the slop (the horde of 700 kept churning, kinetic
/// energy 64 at the end, 4.6 ms a step); from 500, 2 / 0 / 1 (0.47 / 0.65 / 1.0 ms).
pub const STEERED_JAM_CONTACTS: usize = 500;

/// A solve without gravity of at least this many contacts gets a conjugate-gradient
/// correction ([`GAUSS_SEIDEL_ITERATIONS`] iterations preconditioned by symmetric
/// Gauss–Seidel, [`CONJUGATE_ITERATIONS`] Jacobi-preconditioned ones until the
/// twenty-seventh session, after [`CONJUGATE_FIRST_PASSES`] passes, see
/// `docs/contacts.md`, "Conjugate gradients for deep jams"), in every other step (not in
/// a step after one that ran it: [`ContactMemory::corrected`]; since the nineteenth
/// session: `docs/contacts.md`, "The correction every other step"). Gauss–Seidel carries
/// a push about one layer of a jam per pass; a jam this large (a steered crowd of about
/// 4000 circles) is deeper than its passes reach, and what they leave is a smooth error
/// that conjugate gradients take out in a few dozen iterations. The rows that push
/// after the first passes are solved as equalities, the impulses clamped at zero, and
/// the remaining passes settle the rest. Measured (core, 600 steps, late-half medians,
/// one run each): steered crowds of 6000 / 8000 / 10,000 / 11,000 / 12,000 from 28.9 /
/// 47.6 / 55.8 / 64.8 / 76.4 ms (the larger ones breaking down: up to 18,000 pairs left
/// overlapping, 0.32 r deep) to 22.4 / 30.4 / 33.9 / 35.0 / 35.0 ms, all but the last
/// within the slop at the end. From 2000 contacts the crowd of 3000 went from 5.8 to
/// 11.4 ms (the correction costs more than the passes it saves while the passes hold);
/// from 12,000 it does not change. Under gravity, after the configured passes when they
/// leave the solve unconverged (most steps of a deep pile until it rests), and not in a
/// step after one that ran it (the contact memory's mark, [`ContactMemory::corrected`]:
/// the warm start carries the correction into the next step; run every step, the pile of
/// 10,000 settled no sooner over eight nudged trajectories and an awake step cost 20–25 %
/// more, `docs/contacts.md`, "The correction every other step"). First measured: the jittered
/// piles of 6000 / 9000 / 10,000 / 11,000 / 12,000 (core) fall asleep at 7.3 / 8.3 / 6.9 /
/// 6.9 / 10.9 s, none of which did within 14 s without it; awake the pile of 10,000 costs
/// 48–53 ms a step against 35–39 (1.4×), asleep about 1 ms. With 20 or 30 iterations
/// instead of 50 it did not fall asleep within 14 s. Piles of fewer contacts (the 2000
/// pile: ~5000) are unchanged.
pub const CONJUGATE_CONTACTS: usize = 12_000;

/// Without gravity, a solve of [`DEEP_JAM_CONTACTS`] to [`CONJUGATE_CONTACTS`] contacts
/// gets the conjugate-gradient correction too when the last of its first
/// [`CONJUGATE_FIRST_PASSES`] passes still changed a body's velocity by more than this
/// many times the resting speed: a jam pressed against a wall (or a static body) is a
/// deep stack on its side whose whole push the wall carries, and its passes carry it a
/// layer at a time, while a jam pressed into itself (the steered crowd) is shallower for
/// its contacts and its passes converge. Measured (core, crowds steered toward the middle
/// of the left wall, `crowd_steps WALL=1`, 600 steps, late-half medians): 1000 / 1500 /
/// 2000 / 3000 / 5000 / 10,000 circles 3.1 / 7.4 / 8.3 / 27.2 / 25.9 / 21.2 ms with
/// overlaps left at most 88 / 81 / 395 / 1424 / 706 / 519 pairs in a step → 2.7 / 4.2 /
/// 5.6 / 8.2 / 9.6 / 10.2 ms with none; the crowds steered to the centre 1500 / 2000 /
/// 3000 / 5000 / 10,000: 2.3 / 3.7 / 9.9 / 16.8 / 23.9 → 2.3 / 3.4 / 6.3 / 16.5 / 23.6 ms.
/// A trigger of 0.3 gave the centre crowds of 2000 / 3000 3.7 / 7.7 ms, 1.0 left the
/// wall crowd of 5000 100 pairs; from 1000 contacts instead of 2000 the wall crowd of 500
/// went from 0.75 to 1.59 ms. Solves with fewer contacts, or whose passes converge, take
/// the same passes as before, bit for bit.
pub const CONJUGATE_TRIGGER: f64 = 0.6;

/// A jam's solve runs the conjugate-gradient correction (deep, [`CONJUGATE_CONTACTS`], or
/// triggered, [`CONJUGATE_TRIGGER`]) only while the jam is *pressed near its tolerance*:
/// more than [`TIGHT_JAM_SHARE`] of its contacts started the step overlapping deeper than
/// this fraction of the overlap slop (`StepConfig::overlap_slop`, of the smaller radius).
/// The correction is there to keep a jam's overlaps from creeping to the edge of the slop,
/// where every push-out cascades through the jam (without it the walkers of 2000 broke
/// down: 37 % of their contacts deeper than half the slop, 33,000–110,000 push-out moves a
/// step); a jam given a looser slop keeps its overlaps far inside it, and the passes alone
/// hold it. Half the slop (first tried) skipped corrections the march of 2000 needed at the
/// default slop (its share dipped below [`TIGHT_JAM_SHARE`] in 457 of 600 steps; late means
/// +5.7 %, higher in six draws of six, push-out moves 15 → 171 a step).
pub const TIGHT_JAM_DEPTH: f64 = 0.25;

/// See [`TIGHT_JAM_DEPTH`]. Measured (core, two threads, thirty-third session): with the
/// correction every other step, the share of contacts deeper than a quarter of the slop
/// over the late 600 of 1200 steps (draws 1, 2) is 4.5–15 % for the walkers of 2000 and
/// 6.6–8.1 % for the march of 2000 at the default slop (0.01; 2.5 % and 3.5 % in the
/// lowest step), 0.6 % and 0.03 % at a slop of 0.05 (600 steps).
/// At the default slop the gate changes nothing measurable: of the twelve fingerprints of
/// the core examples only the elastic crowd's changed, and the late 600 of 1200 steps over
/// six draws (`NUDGE=1…6`) were level (walkers −0.8 %, march −0.4 %, crowd against a wall
/// −2.0 %, crowd −0.6 %; the elastic crowd of 2000 and the crowds of 10,000 level, the
/// same push-out moves). At a slop of 0.05 (600 steps, draws 1–3, late-half means, ms):
/// walkers 2.62 → 2.12 (−19 %, lower in all), march 2.22 → 2.02 (−9 %), crowd against a
/// wall 1.68 → 1.34 (−20 %), crowd level, the crowd of 10,000 6.17 / 5.98 → 6.02 / 5.51 and
/// against a wall 4.20 / 4.02 → 3.31 / 3.20 (draws 1, 2); at 0.02 walkers −5 %, march
/// −5.7 %, crowd against a wall −1.8 %. No step left an overlap past its slop.
pub const TIGHT_JAM_SHARE: f64 = 0.02;

/// Jacobi-preconditioned conjugate-gradient iterations of a correction that does not press
/// on a static body, in a solve below [`GAUSS_SEIDEL_CONTACTS`] (since the twenty-seventh
/// session: steered jams under gravity of 500–2000 contacts; larger solves take
/// [`GAUSS_SEIDEL_ITERATIONS`]). Measured when every solve was preconditioned so, on
/// large solves ([`CONJUGATE_CONTACTS`]): on the
/// crowds of 8000–12,000, 35 / 50 / 65 iterations gave 30–42 / 30–35 / 32–38 ms per step;
/// 20 let the crowd of 10,000 leave overlaps (41 ms).
pub const CONJUGATE_ITERATIONS: u32 = 50;

/// Jacobi-preconditioned conjugate-gradient iterations of a correction that presses on a
/// static body in a solve below [`GAUSS_SEIDEL_CONTACTS`] (since the twenty-seventh
/// session; larger solves take [`GAUSS_SEIDEL_ANCHORED_ITERATIONS`]). Measured when every
/// solve was preconditioned so: of a smaller solve that [`CONJUGATE_TRIGGER`] gives the
/// correction (2000 to 12,000 contacts without gravity) when it presses on a body no
/// impulse moves (a row with an impulse after the first passes against a wall, a static
/// or a kinematic body: a crowd pressed against a wall); a jam pressed into itself keeps
/// [`CONJUGATE_ITERATIONS`]. An anchored jam's push crosses all of it, from its free edge
/// to the anchor; 50 iterations (never stopped early by the tolerance there) left the
/// passes after them too much, and the push-out did the rest at a higher cost, or
/// failed. Measured (core, `crowd_steps`, 600 steps, late-half medians over the nudged
/// trajectories `NUDGE=k`, the builds alternated, two threads, 2026-11-28), with 70 for
/// every triggered solve first: crowds against the wall (`WALL=1`) of 2000 / 3000 from
/// 2.07 / 4.10 ms (runs leaving pairs overlapping in some step: 0 / 6 of 8) with 50 to
/// 2.01 / 3.53 (0 / 2) with 60 and 1.94 / 3.18 (1 / 0) with 70; of 2000 over twelve draws
/// 2.09 → 1.89 ms, lower in 11 of 12; of 1500 / 5000 (six draws) 1.52 / 4.46 → 1.40 /
/// 4.28 ms; of 1000 level. But the crowds steered to the centre lost: of 10,000 (twelve
/// draws) 12.8 → 13.4 ms, lower in 3 of 12; of 5000 5.94 → 6.22 ms over twelve draws; of
/// 2000 / 3000 level. Their triggered solves do not press on a static body (none of those
/// counted in the crowds of 2000 / 5000 / 10,000 had such a row; the wall crowds' had
/// 44–58), so the rule keeps them bit for bit as they were.
/// The deep solves did not gain from 70 (crowds of 10,000, four draws: against the wall
/// 7.76 → 7.81 ms, to the centre 11.88 → 11.89 ms).
pub const TRIGGERED_ITERATIONS: u32 = 70;

/// Solves of at least this many contacts precondition the correction's conjugate
/// gradients by symmetric Gauss–Seidel (`contact_rows/conjugate.rs`; twenty-seventh
/// session, `docs/contacts.md`), smaller ones by Jacobi. Gauss–Seidel crosses a deep jam
/// in far fewer iterations, but in the steered hordes of 500 (about 1250 contacts) it
/// left the jam stirred: kinetic energy at the end over twelve draws (core, `walkers_steps
/// 500 600 1 NUDGE=k`) up to 67, median ~1.1, against Jacobi's up to 3.3, median ~0.2
/// (it solves a small jam's equalities nearly exactly, and the clamp then throws away
/// their pulling impulses). From the marches of 1000 (about 2400 contacts) on it did as
/// well or better: medians 1.64 / 1.20 / 0.98 / 0.92 / 1.33 → 0.98 / 0.98 / 0.90 / 1.29
/// / 0.85 ms, kinetic energy at the end no higher.
pub const GAUSS_SEIDEL_CONTACTS: usize = 2000;

/// Conjugate-gradient iterations preconditioned by symmetric Gauss–Seidel of a solve of
/// [`GAUSS_SEIDEL_CONTACTS`] or more (deep or triggered, with or without gravity) that
/// does not press on a static body ([`CONJUGATE_ITERATIONS`] with Jacobi's). Measured
/// (core, late-half medians, two threads, draws `NUDGE=k`, the rows then in four runs,
/// against Jacobi's 50): the crowd
/// of 10,000 over 600 steps 9.60 / 9.76 → 9.52 / 10.06 ms with 20 (push-out moves a step
/// 1946 / 1067 → 511 / 621), 11.03 / 10.43 with 14 (7465 / 3175 moves); the crowd of 2000
/// at the centre 1.67 / 1.63 → 1.57 / 1.60 ms; the pile of 10,000 over 3 s (four draws)
/// 21.3 / 27.4 / 27.3 / 24.6 → 27.2 / 26.6 / 26.5 / 24.8 ms (chaotic: when it lands and
/// what stays awake differ from draw to draw).
pub const GAUSS_SEIDEL_ITERATIONS: u32 = 20;

/// Conjugate-gradient iterations preconditioned by symmetric Gauss–Seidel of a solve
/// (triggered or deep) of [`GAUSS_SEIDEL_CONTACTS`] or more that presses on a wall, a
/// static or a kinematic body ([`TRIGGERED_ITERATIONS`] with Jacobi's). Measured (core,
/// late-half medians, two threads, draws `NUDGE=k`, the rows then in four runs, against
/// Jacobi's 70): the march of 2000
/// (`walkers_steps 2000 600 1`) 3.75 / 3.83 ms with Jacobi's, 4.44 / 3.72 with 20
/// (push-out moves a step 3315 / 3285 → 13,845 / 6223: the jam never came to rest), 4.21
/// / 3.72 with 30, 2.57 / 2.47 with 40 (404 / 253 moves); the walkers of 2000 (means)
/// 3.90 / 4.12 / 4.32 → 3.87 / 3.98 / 4.05 ms with 40 (push-out moves 1297 / 3114 / 3403
/// → 827 / 638 / 624), lower still with 20 but one draw of four with 16 left 14,417
/// moves; the crowd of 2000 against a wall 1.83 / 1.87 → 1.92 / 1.91 ms (level).
///
/// Deep solves ([`CONJUGATE_CONTACTS`]) pressed on a wall take them too since the
/// thirty-second session (they took [`GAUSS_SEIDEL_ITERATIONS`]): the crowd of 10,000
/// against a wall broke down once its jam grew past ~22,000 contacts (around step 950 of
/// 1200: push-out 60,000–74,000 moves a step, overlaps past the slop left in 251–307 of the
/// late 600 steps over draws 10, 11, 13, 14, late-half means 33.4–39.1 ms); with 40
/// iterations it holds (0–1 such steps, 10.2–11.6 ms, ~1700 moves a step). Over 600 steps
/// (draws 0–3) level: 4.67 → 4.68 ms on average.
pub const GAUSS_SEIDEL_ANCHORED_ITERATIONS: u32 = 40;

/// The velocity passes, in all, of a jam without gravity whose solve ran the
/// conjugate-gradient correction this step and was warm-started ([`mostly_warm`]: a jam
/// that held last step too): the configured ones (`StepConfig::contact_iterations`, of
/// which [`CONJUGATE_FIRST_PASSES`] before the correction), not the jam's scaled count
/// `scaled` ([`crowd_passes`], [`deep_jam_passes`]), if that is more. The scale is there
/// for a push the passes carry a layer at a time; in a step where the correction has just
/// carried it, the configured passes settle the inequalities. The steps without the
/// correction keep the scale; steered jams under gravity and jams pressed on a wall or a
/// static body (anchored) keep it in every step. Measured (core, two threads, late-half
/// means, the same draws both ways, thirty-second session): the crowd of 10,000 over the
/// late 600 of 1200 steps (draws 4–9) 10.78 / 10.26 / 11.03 / 10.30 / 11.67 / 10.65 → 9.93
/// / 10.06 / 10.61 / 9.97 / 10.78 / 9.91 ms (−5.3 %, lower in all six), the crowd of 5000
/// over 600 steps (draws 4–7) 4.47 / 4.97 / 5.16 / 4.43 → 4.33 / 4.42 / 4.53 / 4.35 ms
/// (−7 %), the crowds of 2000 and 3000, the elastic crowd of 2000 and the forming crowd of
/// 10,000 (300 steps) level; no step left an overlap past the slop. For steered jams the
/// same rule was level or worse over the late 600 of 1200 steps (the walkers of 2000 2.744
/// → 2.752 ms, the march of 2000 2.525 → 2.586). A cold jam (no warm start: 19,000 contacts steered into themselves from rest,
/// the test `a_jam_of_19_000_contacts_steered_into_itself_stops_closing_in_one_step`) keeps
/// the scale: with the configured passes after its correction a pair still closed at 0.14
/// units/s instead of 0.057. So does an anchored jam: the crowd of 10,000 against a wall
/// over the late 600 of 1200 steps (draws 10, 11, 13, 14) took 12.20 / 11.09 / 10.93 /
/// 11.33 ms with the rule against 11.58 / 10.46 / 10.18 / 10.56 without (its push crosses
/// the whole jam to the wall, as with [`GAUSS_SEIDEL_ANCHORED_ITERATIONS`]).
fn passes_after_correction(configured: u32, scaled: u32) -> u32 {
    configured.min(scaled)
}

/// Whether at least nine tenths of `contacts` started from a remembered impulse: a jam
/// the last step held. The corrected solves of the steered crowds of 2000–10,000 (centre
/// or wall) had 98–99 % of their contacts warm-started; a jam formed in one step has none.
fn mostly_warm(contacts: &[SolverContact]) -> bool {
    let warm = contacts.iter().filter(|c| c.warm > 0.0).count();
    10 * warm >= 9 * contacts.len()
}

/// Gauss–Seidel passes before the conjugate gradients of a large solve: they pick the
/// contacts that push (those with an impulse then are solved as equalities).
pub const CONJUGATE_FIRST_PASSES: u32 = 4;

/// Without gravity the conjugate gradients stop early once no contact they solve closes
/// faster than this fraction of the resting speed (under gravity: at the passes'
/// convergence tolerance, [`CONVERGED_FRACTION`]).
pub const CONJUGATE_TOLERANCE: f64 = 0.005;

/// Position correction of the solver's contacts (module docs, `docs/contacts.md`): the
/// fraction of a contact's overlap taken back at the end of each step. Measured on the
/// steered crowd of 2000 (core, late-half medians): 0.3, 0.5, 0.8 and 1.0 gave 2.8, 2.7,
/// 2.7 and 3.6 ms per step (1.0 overshoots and jostles), against 4.1–4.4 ms without the
/// correction.
pub const CORRECTION_RATE: f64 = 0.5;
/// Position correction: Gauss–Seidel passes over the solver's rows, scaled with the solve's
/// contacts like the velocity passes ([`deep_jam_passes`]: 4 up to 2000 contacts, 8
/// from 8000; 12 from 18,000 until the twenty-ninth session, [`DEEP_JAM_MAX_FACTOR`]). A
/// jam's layers grow as the square root of its contacts, and what the correction leaves
/// the push-out separates at a higher cost. Measured (core, steered
/// crowds, 600 steps, late-half medians, one run each, 2026-11-26): 4 → scaled, crowds of
/// 500–2400 (six sizes) level (−1 % to +5 %); 8000 / 9000 / 10,000 / 11,000 / 12,000:
/// 29.7 / 25.9 / 37.6 / 36.9 / 36.4 → 28.7 / 26.0 / 29.8 / 30.7 / 33.0 ms, steps leaving
/// overlaps 8 / 0 / 48 / 42 / 31 → 0 / 0 / 11 / 1 / 95 (the crowd of 12,000 breaks down
/// either way: 0.04 r / 0.10 r deep at the end). 12 passes everywhere gained as much on
/// the large crowds but cost the small ones 7–15 %.
pub const CORRECTION_PASSES: u32 = 4;

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
            // pair without gravity, a pair with a steered body under it.
            let gravity = b.gravity != DVec2::ZERO;
            let keep_gaps = (!gravity || self.steered_bodies > 0) && !self.memory.is_empty();
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
                            if gravity && !steered_pair(iu, ju) {
                                continue;
                            }
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
