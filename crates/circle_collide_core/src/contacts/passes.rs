//! Running the solver's passes on the gathered contacts: over-relaxed or until converged,
//! the conjugate-gradient correction of deep jams and piles, the shock pass under gravity
//! (the rules are in the module docs of [`contacts`](super) and in `tuning`).

use super::tuning::{mostly_warm, passes_after_correction};
use super::{
    CONJUGATE_CONTACTS, CONJUGATE_FIRST_PASSES, CONJUGATE_ITERATIONS, CONJUGATE_TOLERANCE,
    CONJUGATE_TRIGGER, CONVERGED_FRACTION, DEEP_JAM_CONTACTS, GAUSS_SEIDEL_ANCHORED_ITERATIONS,
    GAUSS_SEIDEL_CONTACTS, GAUSS_SEIDEL_ITERATIONS, MAX_PASS_FACTOR, RELAXATION,
    ROUGH_CONVERGED_CONTACTS, SETTLE_PASSES, SHOCK_SUPPORT, SMOOTH_SHOCK_SUPPORT,
    STEERED_JAM_CONTACTS, TIGHT_JAM_DEPTH, TIGHT_JAM_SHARE, TRIGGERED_ITERATIONS, crowd_passes,
    deep_jam_passes,
};
use crate::contact_rows::ContactRows;
use crate::queue::is_body;
use crate::simulation::Simulation;
use glam::DVec2;

impl Simulation {
    /// `passes` Gauss–Seidel passes over the contacts (after their warm starts with
    /// `warm`), on the packed rows of [`ContactRows`]; then, if configured and under
    /// gravity, the shock-propagation pass and [`SETTLE_PASSES`] more passes.
    pub(super) fn run_contact_passes(&mut self, passes: u32, warm: bool) {
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
        // A shallow solve with friction keeps its configured passes (`ROUGH_CONVERGED_CONTACTS`).
        let rough = rows.any_rough();
        if up == DVec2::ZERO || (rough && self.resting.len() < ROUGH_CONVERGED_CONTACTS) {
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
            // Under gravity, a smooth solve or a deep rough one: on until converged
            // (`CONVERGED_FRACTION`); a deep pile the configured passes leave unconverged
            // gets the conjugate-gradient correction first (`CONJUGATE_CONTACTS`).
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
            let steep = if rough {
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
    /// ([`ContactMemory::corrected`](super::ContactMemory::corrected)): the warm start carries a correction into the next
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
        rows: &mut ContactRows,
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
}
