//! Phase 4, time of impact: the in-step event loop.
//!
//! Every candidate pair and every body–wall pair gets its exact earliest time of impact
//! in `[0, dt]` ([`toi`](crate::toi)). Predictions go into a min-heap ordered by time,
//! ties broken by the pair's indices. The loop pops the earliest; if either body changed
//! course since the prediction (its version moved on) the prediction is dropped;
//! otherwise both bodies are advanced to that instant, the impulse is applied
//! ([`impulse`](crate::impulse)), and only the two bodies' pairs are predicted again —
//! from the grid, where they are first re-inserted with the boxes of their new paths, so
//! bodies outside the old candidate set are found too.

use crate::arena::Wall;
use crate::events::{Impact, Other};
use crate::impulse::normal_impulse;
use crate::manifold::manifold;
use crate::queue::{Predicted, code_wall, wall_code};
use crate::simulation::Simulation;
use crate::toi::time_of_impact;
use glam::DVec2;

impl Simulation {
    /// Handles every impact of the step in time order, up to the impact cap
    /// ([`StepConfig::impact_cap`](crate::StepConfig::impact_cap)). Past the cap the
    /// step is flagged as a fallback: the pairs touching at that instant are solved as
    /// restitution-0 contacts, the rest of the step is plain motion, and
    /// [`resolve`](Self::resolve) pushes out what overlaps with extra passes.
    pub fn solve_impacts(&mut self) {
        self.queue.clear();
        self.late_pairs.clear();
        self.resting_speed = self.config.resting_speed_for(self.dt);
        self.solve_resting_contacts();
        for k in 0..self.pairs.len() {
            let (i, j) = self.pairs[k];
            self.predict_pair(i as usize, j as usize, 0.0);
        }
        for i in 0..self.bodies.len() {
            self.predict_wall(i, 0.0);
        }
        let cap = self.config.impact_cap(self.bodies.len());
        let resting_speed = self.resting_speed;
        while let Some(ev) = self.queue.pop() {
            let a = ev.a as usize;
            let wall = code_wall(ev.b);
            let stale = self.bodies.version[a] != ev.version_a
                || (wall.is_none() && self.bodies.version[ev.b as usize] != ev.version_b);
            if stale {
                self.stats.stale_events += 1;
                continue;
            }
            if self.impacts.len() >= cap {
                self.stats.fallback = true;
                self.fallback_contacts(ev.time());
                break;
            }
            match wall {
                Some(w) => self.hit_wall(a, w, ev.time(), resting_speed),
                None => self.hit_pair(a, ev.b as usize, ev.time(), resting_speed),
            }
        }
        self.queue.clear();
        self.stats.impacts = self.impacts.len();
        self.stats.resting_impacts = self.impacts.iter().filter(|i| i.resting).count();
    }

    /// Predicts the impact of bodies `i` and `j` from step time `now`.
    fn predict_pair(&mut self, i: usize, j: usize, now: f64) {
        let b = &self.bodies;
        let (i, j) = (i.min(j), i.max(j));
        let d = b.position_at(j, now) - b.position_at(i, now);
        let (w, sigma) = (b.vel[j] - b.vel[i], b.radius[i] + b.radius[j]);
        if b.sensor_pair(i, j) && d.length_squared() <= sigma * sigma {
            // A sensor reports entry only; while the pair overlaps there is nothing to report.
            return;
        }
        if self.resting_speed > 0.0 && !b.sensor_pair(i, j) {
            // Touching and closing slowly: resting contact, not an impact.
            let touch = sigma + self.config.overlap_slop * b.radius[i].min(b.radius[j]);
            let dist_sq = d.length_squared();
            if dist_sq <= touch * touch && -d.dot(w) <= self.resting_speed * dist_sq.sqrt() {
                // It may sink by up to resting_speed · dt: the push-out must see it even
                // if the broad phase did not list it at the start of the step.
                self.late_pairs.push((i as u32, j as u32));
                return;
            }
        }
        if let Some(s) = time_of_impact(d, w, sigma) {
            let t = now + s;
            if t <= self.dt {
                let p = Predicted::new(t, i as u32, j as u32, b.version[i], b.version[j]);
                self.queue.push(p);
            }
        }
    }

    /// Predicts body `i`'s next wall hit from step time `now`.
    fn predict_wall(&mut self, i: usize, now: f64) {
        let (Some(arena), b) = (self.config.arena, &self.bodies) else {
            return;
        };
        if b.inv_mass[i] == 0.0 || b.sensor[i] {
            return;
        }
        let (p, v, r) = (b.position_at(i, now), b.vel[i], b.radius[i]);
        let (margin, resting_speed) = (self.config.overlap_slop * r, self.resting_speed);
        // Walls the body rests on (touching, closing slowly) are resting contacts.
        let resting_on = |wall: Wall| {
            resting_speed > 0.0
                && arena.depth(wall, p, r) >= -margin
                && v.dot(wall.outward_normal()) <= resting_speed
        };
        if let Some((s, wall)) = arena.earliest_hit_where(p, v, r, |w| !resting_on(w)) {
            let t = now + s;
            if t <= self.dt {
                self.queue.push(Predicted::new(
                    t,
                    i as u32,
                    wall_code(wall),
                    b.version[i],
                    0,
                ));
            }
        }
    }

    fn hit_pair(&mut self, i: usize, j: usize, t: f64, resting_speed: f64) {
        let b = &mut self.bodies;
        b.advance(i, t);
        b.advance(j, t);
        let m = manifold(
            b.pos[i],
            b.radius[i],
            b.pos[j],
            b.radius[j],
            (i as u32, j as u32),
        );
        let (vi, vj, wi, wj) = (b.vel[i], b.vel[j], b.inv_mass[i], b.inv_mass[j]);
        let approach = (vi - vj).dot(m.normal);
        if b.sensor_pair(i, j) {
            // Entry of a sensor: reported at its exact time, nothing changes course.
            self.impacts.push(Impact {
                time: t,
                a: i as u32,
                other: Other::Body(j as u32),
                point: m.point,
                normal: m.normal,
                impulse: 0.0,
                approach_speed: approach,
                resting: false,
                sensor: true,
            });
            return;
        }
        let resting = approach <= resting_speed;
        let e = if resting {
            0.0
        } else {
            self.config
                .restitution_combine
                .combine(b.restitution[i], b.restitution[j])
        };
        let Some(r) = normal_impulse(vi, vj, wi, wj, m.normal, e) else {
            return;
        };
        b.vel[i] = r.v1;
        b.vel[j] = r.v2;
        // Momentum a static (or kinematic) body gives the dynamic one is external.
        if wi == 0.0 {
            self.stats.external_impulse += (r.v2 - vj) / wj;
        } else if wj == 0.0 {
            self.stats.external_impulse += (r.v1 - vi) / wi;
        }
        self.impacts.push(Impact {
            time: t,
            a: i as u32,
            other: Other::Body(j as u32),
            point: m.point,
            normal: m.normal,
            impulse: r.impulse,
            approach_speed: r.approach_speed,
            resting,
            sensor: false,
        });
        self.course_changed(i, t);
        self.course_changed(j, t);
    }

    fn hit_wall(&mut self, i: usize, wall: Wall, t: f64, resting_speed: f64) {
        let Some(arena) = self.config.arena else {
            return;
        };
        let b = &mut self.bodies;
        b.advance(i, t);
        let n = wall.outward_normal();
        let v = b.vel[i];
        let resting = v.dot(n) <= resting_speed;
        let e = if resting {
            0.0
        } else {
            self.config
                .restitution_combine
                .combine(b.restitution[i], arena.restitution)
        };
        let Some(r) = normal_impulse(v, DVec2::ZERO, b.inv_mass[i], 0.0, n, e) else {
            return;
        };
        b.vel[i] = r.v1;
        self.stats.external_impulse += (r.v1 - v) / b.inv_mass[i];
        self.impacts.push(Impact {
            time: t,
            a: i as u32,
            other: Other::Wall(wall),
            point: arena.contact_point(wall, b.pos[i]),
            normal: n,
            impulse: r.impulse,
            approach_speed: r.approach_speed,
            resting,
            sensor: false,
        });
        self.course_changed(i, t);
    }

    /// Body `k` got a new velocity at time `t`: invalidate its predictions, re-insert it
    /// in the grid with its new path, and predict its pairs and wall hit again.
    fn course_changed(&mut self, k: usize, t: f64) {
        if self.bodies.inv_mass[k] == 0.0 {
            return; // static bodies never change course
        }
        self.bodies.version[k] = self.bodies.version[k].wrapping_add(1);
        self.bodies.update_box(k, self.dt);
        self.grid.insert(&self.bodies, k);
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        self.grid.query(&self.bodies, k, false, |j| found.push(j));
        // Overlapping old and new cell ranges can report a neighbour twice.
        found.sort_unstable();
        found.dedup();
        for &j in &found {
            if self.interacts(k as u32, j as u32) {
                self.predict_pair(k, j, t);
            }
        }
        self.scratch = found;
        self.predict_wall(k, t);
    }
}
