//! The contact solver's tuning: pass counts and how they scale with a solve's size, the
//! thresholds that choose the coloured passes, the Gauss–Seidel and conjugate-gradient
//! corrections, and the position correction's rate (see the [`contacts`](super) module
//! docs and `docs/contacts.md` for the measurements behind each).

use super::SolverContact;

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
/// with friction keep the configured passes below [`ROUGH_CONVERGED_CONTACTS`] contacts:
/// with the rule the heap poured at μ 0.5 flowed flatter (angle of repose 17.6° → 12.9°,
/// below the peers' 15.6°; 16.6° → 15.2° in the fifty-second session, at twice the cost a
/// step), and friction brings shallow rough piles to rest on its own.
pub const CONVERGED_FRACTION: f64 = 0.002;

/// Under gravity a solve with friction of at least this many contacts is solved as a
/// smooth one is: its passes run until converged ([`CONVERGED_FRACTION`], up to
/// [`MAX_PASS_FACTOR`] times the configured ones), and from [`CONJUGATE_CONTACTS`] on
/// with the conjugate-gradient correction first. With the configured passes only, a deep
/// rough pile's weight stays half carried: it sinks into itself every step, the push-out
/// lifts it back, and it boils for good. Measured (fifty-second session, core, jittered
/// piles over 15 s, fell asleep at): at μ 0.5 the piles of 3000 / 3500 / 4000 / 4500 /
/// 5000 / 6000 / 7000 / 10,000 circles 10.65 s / never (kinetic energy 29 at the end) /
/// never (3.5) / never (8.1) / never (106) / never (51) / never (150) / never (2300, with
/// 4000–6000 circles above the sleep speed and the push-out separating 7000–20,000 pairs a
/// step) → 4.50 / 4.83 / 4.92 / 5.00 / 4.88 / 5.75 / 5.05 / 6.13 s (9000 / 11,000: 5.28 /
/// 9.67 s; bevy_rapier2d's pile of 10,000 at 8.2 s); at μ 0.2 the piles of 5000 / 10,000
/// never → 5.15 / 10.0 s, at μ 1 never → 4.83 / 10.9 s. The piles of 2000 and 2500 (~3600
/// contacts) and the poured heap of 2000 stay below it, unchanged bit for bit. From 12,000
/// contacts (the correction's threshold) the piles of 3000–5000 kept boiling; without the
/// correction the piles of 9000 and 11,000 (μ 0.5) and 9000–11,000 (μ 0.2) did too. The
/// price is in deep rough heaps that keep flowing: the poured heap of 5000 (μ 0.5) costs
/// 8.5 → 13.8 ms a step after the pour and ends a little flatter (20.2° → 18.5°).
pub const ROUGH_CONVERGED_CONTACTS: usize = 5000;

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
pub(super) fn passes_scaled(passes: u32, contacts: usize, scale: usize) -> u32 {
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

/// As [`COLOURED_CONTACTS`] for a solve with friction or rolling resistance: its passes
/// too go in colour order from this many contacts on. Half the smooth threshold, as a
/// rough row costs about twice a smooth one (13 ns against ~7 on one thread here); the
/// rough piles of up to ~2500 circles and the poured heap of 2000 (solves of up to ~3600
/// contacts) keep the serial order. On two threads a pass over the poured heap of 5000's
/// ~7800 rows took 72.7 µs against 102 (`docs/contacts.md`, "Rough passes in colour
/// order").
pub const ROUGH_COLOURED_CONTACTS: usize = 4096;

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
/// a step after one that ran it:
/// [`ContactMemory::corrected`](crate::ContactMemory::corrected); since the nineteenth
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
/// step after one that ran it (the contact memory's mark,
/// [`ContactMemory::corrected`](crate::ContactMemory::corrected):
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
pub(super) fn passes_after_correction(configured: u32, scaled: u32) -> u32 {
    configured.min(scaled)
}

/// Whether at least nine tenths of `contacts` started from a remembered impulse: a jam
/// the last step held. The corrected solves of the steered crowds of 2000–10,000 (centre
/// or wall) had 98–99 % of their contacts warm-started; a jam formed in one step has none.
pub(super) fn mostly_warm(contacts: &[SolverContact]) -> bool {
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
