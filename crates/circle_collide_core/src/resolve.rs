//! Phase 5, resolve: finish the step — move every body to the end of the step, push apart
//! overlaps deeper than the slop, and total the energy and momentum.
//!
//! Impulses themselves are applied inside [`solve_impacts`](Simulation::solve_impacts), at
//! the instant of each impact: time order requires it.

use crate::manifold;
use crate::push_out::push_out_of_walls;
use crate::simulation::Simulation;
use crate::statics::{level_start, push_out_of_segments};
use glam::DVec2;
use std::f64::consts::{PI, TAU};

pub use crate::push_out::{
    GRAVITY_PUSH_OUT_KEEP, GRAVITY_WORK_FACTOR, PUSH_OUT_PASS_CAP, PUSH_OUT_PASS_LIMIT,
};

impl Simulation {
    /// Moves every body to the end of the step, separates overlaps deeper than
    /// [`overlap_slop`](crate::StepConfig::overlap_slop) (pairs that started the step
    /// overlapping, or anything left after a fallback) and circles sunk into a wall, then
    /// fills the step's energy and momentum.
    ///
    /// Separation moves positions only, never velocities (no energy is added): each
    /// overlapping pair is pushed apart along its normal until it just touches. Passes
    /// repeat until nothing moves, within the work of [`PUSH_OUT_PASS_LIMIT`] ×
    /// [`separation_iterations`](crate::StepConfig::separation_iterations) passes over
    /// every listed pair and at most [`PUSH_OUT_PASS_CAP`] × as many passes (both
    /// [`GRAVITY_WORK_FACTOR`] times more under gravity, unless the last step's push-out
    /// stopped at its limit); a body pushed
    /// off its path is checked against its new neighbours (see the `push_out` module).
    pub fn resolve(&mut self) {
        // One pass over the bodies: to the end of the step, out of the walls (the first
        // push-out pass's wall part), and the energy and momentum — the push-out moves
        // positions only, so the velocities summed here are final.
        let (mut energy, mut momentum, mut wall_moves) = (0.0, DVec2::ZERO, 0);
        let mut rotational = 0.0;
        let (arena, slop) = (self.config.arena, self.config.overlap_slop);
        self.pushed.clear();
        for &(i, shift) in &self.shifts {
            self.bodies.hot[i as usize].pos += shift;
        }
        // Without a spin anywhere the spin records stay unread (see `Bodies::spinning`).
        let (spinning, mut spins_left) = (self.bodies.spinning, false);
        debug_assert!(
            spinning
                || self
                    .bodies
                    .spin
                    .iter()
                    .all(|s| s.omega == 0.0 && s.shift == 0.0)
        );
        for i in 0..self.bodies.len() {
            self.bodies.advance(i, self.dt);
            let spin = &mut self.bodies.spin[i];
            if spinning && (spin.omega != 0.0 || spin.shift != 0.0) {
                // The angle turned over the step, the spin changes at their times included;
                // kept in [−π, π).
                let turned = spin.angle + spin.omega * self.dt + spin.shift;
                spin.angle = (turned + PI).rem_euclid(TAU) - PI;
                spin.shift = 0.0;
                rotational += spin.energy();
                spins_left |= spin.omega != 0.0;
                self.bodies.hot[i].mark_turned();
            }
            let h = &mut self.bodies.hot[i];
            h.time = 0.0;
            // At the end of the step: `vel` is the velocity there, the flight is over.
            h.set_flying(false);
            if h.inv_mass > 0.0 {
                energy += h.kinetic_energy();
                momentum += h.momentum();
            }
            let mut moves = 0;
            if let Some(arena) = &arena {
                let report = (&mut self.step_issues, &self.outside_at_start[..]);
                moves += push_out_of_walls(arena, slop, i, h, report);
            }
            if !self.level.is_empty() {
                // The event loop lets no body cross a segment; plain motion after the
                // impact cap and contacts given up to the push-out may.
                let start = (self.stats.fallback || self.same_instant.gave_up_any())
                    .then(|| level_start(&self.level_starts, i))
                    .flatten();
                moves += push_out_of_segments(&self.level, self.bodies.layers[i], slop, h, start);
            }
            if moves > 0 {
                self.pushed.push(i as u32);
            }
            wall_moves += moves;
        }
        self.bodies.spinning = spins_left;
        // From here a body's box is its circle where it stands, inside the path the grid
        // lists it for.
        self.bodies.sweep_end = 0.0;
        if self.stats.fallback {
            // Bodies moved without collision handling after the cap: find what overlaps now.
            self.rebuild_grid();
            self.collect_pairs();
            self.late_pairs.clear();
            self.note_broad_boxes();
        }
        self.stats.overlaps_fixed += wall_moves;
        self.push_out(wall_moves > 0);
        self.collect_touching();
        self.remember_impacts();
        self.update_sleep();
        self.stats.kinetic_energy = energy;
        self.stats.rotational_energy = rotational;
        if self.bodies.gravity != DVec2::ZERO {
            // After the push-out, which moves positions.
            self.stats.potential_energy = self.bodies.potential_energy(self.bodies.gravity);
        }
        self.stats.momentum = momentum;
    }

    /// Pairs touching now (within the slop), plus pairs that had an impact this step.
    fn collect_touching(&mut self) {
        let mut touching = std::mem::take(&mut self.touching);
        touching.clear();
        let b = &self.bodies;
        let slop = self.config.overlap_slop;
        for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
            let (iu, ju) = (i as usize, j as usize);
            let margin = if b.sensor_pair(iu, ju) {
                0.0
            } else {
                slop * b.hot[iu].radius.min(b.hot[ju].radius)
            };
            if manifold::overlaps(
                b.hot[iu].pos,
                b.hot[iu].radius + margin,
                b.hot[ju].pos,
                b.hot[ju].radius,
            ) {
                touching.push((i, j));
            }
        }
        for impact in &self.impacts {
            if let crate::events::Other::Body(j) = impact.other {
                touching.push((impact.a.min(j), impact.a.max(j)));
            }
        }
        crate::pair_sort::sort_pairs(&mut touching, &mut self.pair_scratch);
        touching.dedup();
        self.touching = touching;
    }
}
