//! Phase 5, resolve: finish the step — move every body to the end of the step, push apart
//! overlaps deeper than the slop, and total the energy and momentum.
//!
//! Impulses themselves are applied inside [`solve_impacts`](Simulation::solve_impacts), at
//! the instant of each impact: time order requires it.

use crate::arena::{Arena, Wall};
use crate::bodies::Hot;
use crate::body::InputIssues;
use crate::manifold;
use crate::simulation::Simulation;
use glam::DVec2;

/// The push-out stops after this many times
/// [`separation_iterations`](crate::StepConfig::separation_iterations) passes even if
/// overlaps remain (it stops earlier as soon as a pass moves nothing).
pub const PUSH_OUT_PASS_LIMIT: u32 = 16;

impl Simulation {
    /// Moves every body to the end of the step, separates overlaps deeper than
    /// [`overlap_slop`](crate::StepConfig::overlap_slop) (pairs that started the step
    /// overlapping, or anything left after a fallback) and circles sunk into a wall, then
    /// fills the step's energy and momentum.
    ///
    /// Separation moves positions only, never velocities (no energy is added): each
    /// overlapping pair is pushed apart along its normal until it just touches. Passes
    /// repeat until nothing moves, at most [`PUSH_OUT_PASS_LIMIT`] ×
    /// [`separation_iterations`](crate::StepConfig::separation_iterations) (see
    /// `separate_pairs` for who moves).
    pub fn resolve(&mut self) {
        // One pass over the bodies: to the end of the step, out of the walls (the first
        // push-out pass's wall part), and the energy and momentum — the push-out moves
        // positions only, so the velocities summed here are final.
        let (mut energy, mut momentum, mut wall_moves) = (0.0, DVec2::ZERO, 0);
        let (arena, slop) = (self.config.arena, self.config.overlap_slop);
        for i in 0..self.bodies.len() {
            self.bodies.advance(i, self.dt);
            let h = &mut self.bodies.hot[i];
            h.time = 0.0;
            if h.inv_mass > 0.0 {
                energy += h.kinetic_energy();
                momentum += h.momentum();
            }
            if let Some(arena) = &arena {
                wall_moves += push_out_of_walls(arena, slop, i, h, &mut self.step_issues);
            }
        }
        if self.stats.fallback {
            // Bodies moved without collision handling after the cap: find what overlaps now.
            self.bodies.sweep_end = 0.0;
            self.grid.rebuild(&self.bodies);
            self.collect_pairs();
            self.late_pairs.clear();
        }
        // The configured passes settle ordinary overlaps; a jammed cluster (typically
        // after a fallback) keeps going while anything still moves, up to a hard bound.
        let passes = self.config.separation_iterations.max(1) * PUSH_OUT_PASS_LIMIT;
        self.stats.overlaps_fixed += wall_moves;
        let mut moved = self.separate_pairs(true) + wall_moves > 0;
        for _ in 1..passes {
            if !moved {
                break;
            }
            let walls: usize = match &arena {
                Some(arena) => (self.bodies.hot.iter_mut().enumerate())
                    .map(|(i, h)| push_out_of_walls(arena, slop, i, h, &mut self.step_issues))
                    .sum(),
                None => 0,
            };
            self.stats.overlaps_fixed += walls;
            moved = self.separate_pairs(false) + walls > 0;
        }
        self.collect_touching();
        self.stats.kinetic_energy = energy;
        self.stats.momentum = momentum;
    }

    /// The pair part of one push-out pass (the walls come first, from
    /// [`push_out_of_walls`]); returns how many pairs moved.
    ///
    /// Under gravity the pairs are taken from the bottom up and only the upper body moves
    /// (unless it is static), and on the first pass, if anything overlaps, *every* pair is
    /// visited in that order — a body pushed up into its neighbour above is then fixed in
    /// the same pass, so a column standing on the floor clears at once and nothing is
    /// pushed into the floor. Without gravity each pair shares the push by inverse mass.
    fn separate_pairs(&mut self, first: bool) -> usize {
        let slop = self.config.overlap_slop;
        let up = -self.config.gravity.normalize_or_zero();
        let mut moved = 0;
        let b = &mut self.bodies;
        let mut deep = std::mem::take(&mut self.overlapping);
        deep.clear();
        for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
            let (iu, ju) = (i as usize, j as usize);
            let allowed = slop * b.hot[iu].radius.min(b.hot[ju].radius);
            if b.separable(iu, ju)
                && manifold::overlaps(
                    b.hot[iu].pos,
                    b.hot[iu].radius - allowed,
                    b.hot[ju].pos,
                    b.hot[ju].radius,
                )
            {
                deep.push((up.dot(b.hot[iu].pos + b.hot[ju].pos), i, j));
            }
        }
        if up != DVec2::ZERO && first && !deep.is_empty() {
            deep.clear();
            for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
                let (iu, ju) = (i as usize, j as usize);
                if b.separable(iu, ju) {
                    deep.push((up.dot(b.hot[iu].pos + b.hot[ju].pos), i, j));
                }
            }
        }
        if up != DVec2::ZERO {
            deep.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));
        }
        for &(_, i, j) in &deep {
            let (i, j) = (i as usize, j as usize);
            let m = manifold::manifold(
                b.hot[i].pos,
                b.hot[i].radius,
                b.hot[j].pos,
                b.hot[j].radius,
                (i as u32, j as u32),
            );
            let smaller = b.hot[i].radius.min(b.hot[j].radius);
            if m.depth <= slop * smaller {
                continue;
            }
            if m.depth > 0.5 * smaller {
                self.step_issues.push((i as u32, InputIssues::DEEP_OVERLAP));
                self.step_issues.push((j as u32, InputIssues::DEEP_OVERLAP));
            }
            let (wi, wj) = if up == DVec2::ZERO {
                let w = b.hot[i].inv_mass + b.hot[j].inv_mass;
                (b.hot[i].inv_mass / w, b.hot[j].inv_mass / w)
            } else if (up.dot(b.hot[j].pos) >= up.dot(b.hot[i].pos) && b.hot[j].inv_mass > 0.0)
                || b.hot[i].inv_mass == 0.0
            {
                (0.0, 1.0)
            } else {
                (1.0, 0.0)
            };
            b.hot[i].pos -= m.normal * (m.depth * wi);
            b.hot[j].pos += m.normal * (m.depth * wj);
            moved += 1;
        }
        self.overlapping = deep;
        self.stats.overlaps_fixed += moved;
        moved
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
        touching.sort_unstable();
        touching.dedup();
        self.touching = touching;
    }
}

/// Pushes body `i` (record `h`) out of every wall of `arena` it sinks into deeper than
/// `slop` times its radius; returns how many walls moved it. A circle more than its
/// radius outside is noted in `issues`.
#[inline]
fn push_out_of_walls(
    arena: &Arena,
    slop: f64,
    i: usize,
    h: &mut Hot,
    issues: &mut Vec<(u32, InputIssues)>,
) -> usize {
    if h.inv_mass == 0.0 || h.sensor() {
        return 0;
    }
    // Most bodies are at least their radius from every wall: nothing sinks in (the same
    // differences as `Arena::depth`, so the shortcut changes no result).
    let r = DVec2::splat(h.radius);
    if slop >= 0.0 && (h.pos - arena.min).cmpge(r).all() && (arena.max - h.pos).cmpge(r).all() {
        return 0;
    }
    let mut moved = 0;
    for wall in Wall::ALL {
        let depth = arena.depth(wall, h.pos, h.radius);
        if depth > h.radius {
            issues.push((i as u32, InputIssues::OUTSIDE_ARENA));
        }
        if depth > slop * h.radius {
            h.pos -= wall.outward_normal() * depth;
            moved += 1;
        }
    }
    moved
}
