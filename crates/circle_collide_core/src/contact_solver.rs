//! Resting contact: the first part of the time-of-impact phase.
//!
//! When a resting speed is in force (gravity, or a configured
//! [`resting_speed`](crate::StepConfig::resting_speed)), pairs and body–wall pairs that
//! touch (within the slop) at the start of the step are solved together as contacts, not
//! one impact after another: handled one at a time, a pile is an inelastic collapse — an
//! endless cascade of impacts at `t = 0` that never settles. Each contact gets a target
//! separation speed: `e · u₀` if it closes at `u₀` faster than the resting speed (a real
//! impact, reported as an [`Impact`] at `t = 0` with the impulse the solver gave it), else
//! 0 (resting: no event). Then:
//!
//! 1. [`contact_iterations`](crate::StepConfig::contact_iterations) Gauss–Seidel passes of
//!    normal impulses with accumulated, non-negative clamping (a contact can push, never
//!    pull), so momentum moves through the contact network;
//! 2. one *shock-propagation* pass ([`shock_propagation`](crate::StepConfig::shock_propagation)):
//!    contacts sorted from the bottom up along gravity, each treating its lower body as
//!    immovable, so a stack of any height stops in one pass instead of sinking.
//!
//! Afterwards the event loop ignores touching pairs closing at no more than the resting
//! speed (they can sink by at most `resting_speed · dt`, which the end-of-step push-out
//! takes back); faster approaches stay real impacts. Without gravity the resting speed
//! is 0 and none of this runs: elastic gases stay exact.

use crate::arena::Wall;
use crate::events::{Impact, Other};
use crate::queue::{code_wall, wall_code};
use crate::simulation::Simulation;
use glam::DVec2;

/// A contact handled by the solver.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RestingContact {
    pub(crate) a: u32,
    /// Body index, or a wall code.
    pub(crate) b: u32,
    /// Unit normal from `a` towards `b`.
    normal: DVec2,
    /// Height of the contact point against gravity (sort key of the shock pass).
    height: f64,
    /// Separation speed the contact should reach: `e · u₀` for an impact, 0 at rest.
    target: f64,
    /// Closing speed at the start of the step.
    closing: f64,
    /// Contact point.
    point: DVec2,
    /// Impulse accumulated over the passes.
    accumulated: f64,
}

impl Simulation {
    /// Solves the contacts touching at the start of this step (see the module docs).
    pub(crate) fn solve_resting_contacts(&mut self) {
        self.resting.clear();
        // Cleared even when no solver runs: the boxes belong to this step's bodies only.
        self.contact_boxes.clear();
        let resting_speed = self.resting_speed;
        if resting_speed <= 0.0 {
            return;
        }
        self.gather_contacts(false);
        // The boxes the broad phase saw, to tell afterwards whose path now leaves its own.
        for k in 0..self.resting.len() {
            let (a, b) = (self.resting[k].a, self.resting[k].b);
            for i in std::iter::once(a).chain(code_wall(b).is_none().then_some(b)) {
                // Once per body, however many contacts it is in.
                if self.bodies.hot[i as usize].keep_box_once() {
                    self.contact_boxes
                        .push((i, self.bodies.swept_box(i as usize)));
                }
            }
        }
        self.run_contact_passes(self.config.contact_iterations);
        self.report_contact_impacts();
        self.stats.resting_contacts = self.resting.len();
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
        self.gather_contacts(true);
        self.run_contact_passes(2 * self.config.contact_iterations.max(4));
    }

    /// Lists the contacts touching now: narrow-phase contacts at the start of the step,
    /// or, with `fallback`, every candidate pair touching at the bodies' current
    /// positions, all with target 0.
    fn gather_contacts(&mut self, fallback: bool) {
        let up = -self.config.gravity.normalize_or_zero();
        let combine = self.config.restitution_combine;
        let resting_speed = if fallback {
            f64::INFINITY
        } else {
            self.resting_speed
        };
        let b = &self.bodies;
        if fallback {
            let slop = self.config.overlap_slop;
            for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
                let (iu, ju) = (i as usize, j as usize);
                if b.sensor_pair(iu, ju) {
                    continue;
                }
                let m = crate::manifold::manifold(
                    b.hot[iu].pos,
                    b.hot[iu].radius,
                    b.hot[ju].pos,
                    b.hot[ju].radius,
                    (i, j),
                );
                if m.depth >= -slop * b.hot[iu].radius.min(b.hot[ju].radius) {
                    let closing = (b.hot[iu].vel - b.hot[ju].vel).dot(m.normal);
                    self.resting.push(contact(
                        i,
                        j,
                        m.normal,
                        m.point,
                        up,
                        closing,
                        0.0,
                        resting_speed,
                    ));
                }
            }
        } else {
            for c in &self.contacts {
                let (i, j) = (c.a as usize, c.b as usize);
                if b.sensor_pair(i, j) {
                    continue;
                }
                let closing = (b.hot[i].vel - b.hot[j].vel).dot(c.manifold.normal);
                let e = combine.combine(b.restitution[i], b.restitution[j]);
                self.resting.push(contact(
                    c.a,
                    c.b,
                    c.manifold.normal,
                    c.manifold.point,
                    up,
                    closing,
                    e,
                    resting_speed,
                ));
            }
        }
        if let Some(arena) = self.config.arena {
            for i in 0..b.len() {
                if b.hot[i].inv_mass == 0.0 || b.hot[i].sensor() {
                    continue;
                }
                let margin = self.config.overlap_slop * b.hot[i].radius;
                let e = combine.combine(b.restitution[i], arena.restitution);
                for wall in Wall::ALL {
                    if arena.depth(wall, b.hot[i].pos, b.hot[i].radius) >= -margin {
                        let n = wall.outward_normal();
                        let point = arena.contact_point(wall, b.hot[i].pos);
                        let closing = b.hot[i].vel.dot(n);
                        self.resting.push(contact(
                            i as u32,
                            wall_code(wall),
                            n,
                            point,
                            up,
                            closing,
                            e,
                            resting_speed,
                        ));
                    }
                }
            }
        }
    }

    /// `passes` Gauss–Seidel passes, then the shock-propagation pass under gravity.
    fn run_contact_passes(&mut self, passes: u32) {
        let up = -self.config.gravity.normalize_or_zero();
        for _ in 0..passes {
            for k in 0..self.resting.len() {
                self.contact_pass(k);
            }
        }
        if self.config.shock_propagation && up != DVec2::ZERO {
            self.resting.sort_by(|x, y| {
                x.height
                    .total_cmp(&y.height)
                    .then((x.a, x.b).cmp(&(y.a, y.b)))
            });
            for k in 0..self.resting.len() {
                self.shock_pass(k, up);
            }
        }
    }

    /// Impacts among the contacts (closing faster than the resting speed), at `t = 0`, in
    /// pair order.
    fn report_contact_impacts(&mut self) {
        let start = self.impacts.len();
        for c in &self.resting {
            if c.target > 0.0 || (c.closing > self.resting_speed && c.accumulated > 0.0) {
                self.impacts.push(Impact {
                    time: 0.0,
                    a: c.a,
                    other: code_wall(c.b).map_or(Other::Body(c.b), Other::Wall),
                    point: c.point,
                    normal: c.normal,
                    impulse: c.accumulated,
                    approach_speed: c.closing,
                    resting: false,
                    sensor: false,
                });
            }
        }
        self.impacts[start..].sort_by_key(|i| (i.a, other_key(i.other)));
    }

    /// One accumulated, clamped impulse on contact `k` towards its target separation speed.
    fn contact_pass(&mut self, k: usize) {
        let c = self.resting[k];
        let (a, b) = (c.a as usize, c.b as usize);
        let wall = code_wall(c.b).is_some();
        let bodies = &mut self.bodies;
        let (va, wa) = (bodies.hot[a].vel, bodies.hot[a].inv_mass);
        let (vb, wb) = if wall {
            (DVec2::ZERO, 0.0)
        } else {
            (bodies.hot[b].vel, bodies.hot[b].inv_mass)
        };
        let w = wa + wb;
        if w == 0.0 {
            return;
        }
        let closing = (va - vb).dot(c.normal);
        let total = (c.accumulated + (closing + c.target) / w).max(0.0);
        let delta = total - c.accumulated;
        self.resting[k].accumulated = total;
        bodies.hot[a].vel = va - c.normal * (delta * wa);
        if !wall {
            bodies.hot[b].vel = vb + c.normal * (delta * wb);
        }
        if wa == 0.0 || wb == 0.0 {
            // Support from a wall or a static body.
            self.stats.external_impulse -= c.normal * delta;
        }
    }

    /// Stops contact `k` from closing, moving only its upper body.
    fn shock_pass(&mut self, k: usize, up: DVec2) {
        let c = self.resting[k];
        let (a, b) = (c.a as usize, c.b as usize);
        let wall = code_wall(c.b).is_some();
        let bodies = &mut self.bodies;
        let vb = if wall { DVec2::ZERO } else { bodies.hot[b].vel };
        let closing = (bodies.hot[a].vel - vb).dot(c.normal);
        if closing <= 0.0 {
            return;
        }
        let a_is_upper = wall || up.dot(bodies.hot[a].pos) >= up.dot(bodies.hot[b].pos);
        let (upper, sign) = if a_is_upper { (a, -1.0) } else { (b, 1.0) };
        if bodies.hot[upper].inv_mass == 0.0 {
            return;
        }
        let dv = c.normal * (sign * closing);
        bodies.hot[upper].vel += dv;
        self.stats.external_impulse += dv / bodies.hot[upper].inv_mass;
    }
}

/// A contact with its target: restitution for a real impact, 0 at rest.
#[allow(clippy::too_many_arguments)]
fn contact(
    a: u32,
    b: u32,
    normal: DVec2,
    point: DVec2,
    up: DVec2,
    closing: f64,
    e: f64,
    resting_speed: f64,
) -> RestingContact {
    RestingContact {
        a,
        b,
        normal,
        height: up.dot(point),
        target: if closing > resting_speed {
            e * closing
        } else {
            0.0
        },
        closing,
        point,
        accumulated: 0.0,
    }
}

/// Sort key of what an impact's body hit: bodies by index, then walls.
fn other_key(other: Other) -> u64 {
    match other {
        Other::Body(j) => u64::from(j),
        Other::Wall(w) => u64::from(u32::MAX) + w as u64,
    }
}
