//! Phase 5, resolve: finish the step — move every body to the end of the step, push apart
//! overlaps deeper than the slop, and total the energy and momentum.
//!
//! Impulses themselves are applied inside [`solve_impacts`](Simulation::solve_impacts), at
//! the instant of each impact: time order requires it.

use crate::manifold::manifold;
use crate::simulation::Simulation;

impl Simulation {
    /// Moves every body to the end of the step, separates overlaps deeper than
    /// [`overlap_slop`](crate::StepConfig::overlap_slop) (pairs that started the step
    /// overlapping, or anything left after a fallback) and circles sunk into a wall, then
    /// fills the step's energy and momentum.
    ///
    /// Separation moves positions only, never velocities (no energy is added): each
    /// overlapping pair is pushed apart along its normal until it just touches, shared by
    /// inverse mass; [`separation_iterations`](crate::StepConfig::separation_iterations)
    /// Gauss–Seidel passes settle chains of overlaps.
    pub fn resolve(&mut self) {
        let n = self.bodies.len();
        for i in 0..n {
            self.bodies.advance(i, self.dt);
            self.bodies.time[i] = 0.0;
        }
        if self.stats.fallback {
            // Bodies moved without collision handling after the cap: find what overlaps now.
            for i in 0..n {
                self.bodies.update_box(i, 0.0);
            }
            self.grid.rebuild(&self.bodies);
            self.collect_pairs();
        }
        for _ in 0..self.config.separation_iterations {
            if !self.separate_once() {
                break;
            }
        }
        self.stats.kinetic_energy = self.bodies.kinetic_energy();
        self.stats.momentum = self.bodies.momentum();
    }

    /// One push-out pass; returns whether anything moved.
    fn separate_once(&mut self) -> bool {
        let slop = self.config.overlap_slop;
        let b = &mut self.bodies;
        let mut moved = 0;
        for &(i, j) in &self.pairs {
            let (i, j) = (i as usize, j as usize);
            let w = b.inv_mass[i] + b.inv_mass[j];
            if w == 0.0 {
                continue;
            }
            let m = manifold(
                b.pos[i],
                b.radius[i],
                b.pos[j],
                b.radius[j],
                (i as u32, j as u32),
            );
            if m.depth > slop * b.radius[i].min(b.radius[j]) {
                b.pos[i] -= m.normal * (m.depth * b.inv_mass[i] / w);
                b.pos[j] += m.normal * (m.depth * b.inv_mass[j] / w);
                moved += 1;
            }
        }
        if let Some(arena) = self.config.arena {
            for i in 0..b.len() {
                if b.inv_mass[i] == 0.0 {
                    continue;
                }
                for wall in crate::arena::Wall::ALL {
                    let depth = arena.depth(wall, b.pos[i], b.radius[i]);
                    if depth > slop * b.radius[i] {
                        b.pos[i] -= wall.outward_normal() * depth;
                        moved += 1;
                    }
                }
            }
        }
        self.stats.overlaps_fixed += moved;
        moved > 0
    }
}
