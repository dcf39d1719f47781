//! Phase 4, time of impact: the in-step event loop.
//!
//! Every candidate pair and every body–wall pair gets its exact earliest time of impact
//! in `[0, dt]` ([`toi`](crate::toi)). Predictions go into a min-heap ordered by time,
//! ties broken by the pair's indices. The loop pops the earliest; if either body changed
//! course since the prediction (its version moved on) the prediction is dropped;
//! otherwise both bodies are advanced to that instant, the impulse is applied
//! ([`impulse`](crate::impulse)), and only the two bodies' pairs are predicted again —
//! from the grid, where they are first re-inserted with the boxes of their new paths, so
//! bodies outside the old candidate set are found too. A body hit again and again at one
//! instant, or by a moving kinematic body again and again in one step, is solved with
//! the bodies touching it at once ([`same_instant`](crate::same_instant)).

use crate::events::{Impact, Other, static_other};
use crate::impulse::normal_impulse;
use crate::manifold::manifold;
use crate::parallel::chunk_range;
use crate::queue::{Predicted, is_body};
use crate::simulation::Simulation;
use glam::DVec2;

/// Outcome of predicting a pair.
enum Prediction {
    /// An impact within the step.
    Impact(Predicted),
    /// Touching and closing slowly: left to the contact solver and the push-out.
    Resting,
    /// No impact within the step.
    Nothing,
}

/// How far the late pairs may grow past their distinct pairs before they are sorted and
/// cleared of repeats ([`Simulation::compact_late_pairs`]). A pile ploughed by a
/// kinematic body notes each resting pair ~15 times a step (once per course change of
/// one of its bodies): sorting at twice the distinct pairs (until 2026-12-01) sorted
/// twice the notes, at four times 1.33 times (2 % fewer instructions in the bulldozer's
/// pile; the list's memory up to four times its distinct pairs, 8 bytes each).
const LATE_PAIRS_GROWTH: usize = 4;

impl Simulation {
    /// Handles every impact of the step in time order, up to the impact cap
    /// ([`StepConfig::impact_cap`](crate::StepConfig::impact_cap)). Past the cap the
    /// step is flagged as a fallback: the pairs touching at that instant are solved as
    /// restitution-0 contacts, the rest of the step is plain motion, and
    /// [`resolve`](Self::resolve) pushes out what overlaps with extra passes.
    pub fn solve_impacts(&mut self) {
        self.queue.clear();
        self.late_pairs.clear();
        self.late_compacted = 0;
        let cap = self.config.impact_cap(self.bodies.len());
        self.same_instant.begin_step(self.bodies.len(), cap);
        self.resting_speed = self.config.resting_speed_for(self.dt, self.min_radius);
        self.steered_resting_speed =
            (self.config).steered_resting_speed_for(self.dt, self.min_radius);
        self.resting_by_radius = self.config.resting_speed.is_none() && self.min_radius.is_finite();
        // Nobody steered and every body elastic: every pair's restitution is 1 under any
        // combine rule, and `pair_resting_speed` gives such a pair 0 without gravity
        // (under gravity it may not: then pairs may rest).
        let elastic_gas = self.steered_bodies == 0
            && self.bodies.inelastic == 0
            && self.config.pair_resting_speed(self.resting_speed, 1.0) == 0.0;
        self.pairs_may_rest = self.resting_speed > 0.0 && !elastic_gas;
        self.solve_contacts();
        self.predict_start();
        self.follow_contact_changes();
        // Up to half the cap, then (the step is busy: `same_instant::SPREAD_TRIGGER`) the cap.
        let mut limit = cap / crate::same_instant::BUSY_SHARE;
        while let Some(ev) = self.queue.pop() {
            let a = ev.a as usize;
            let body = is_body(ev.b);
            let stale = self.bodies.hot[a].version != ev.version_a
                || (body && self.bodies.hot[ev.b as usize].version != ev.version_b);
            if stale {
                self.stats.stale_events += 1;
                continue;
            }
            if self.impacts.len() >= limit {
                if limit < cap {
                    self.same_instant.busy = true;
                    limit = cap;
                }
                if self.impacts.len() >= cap {
                    self.stats.fallback = true;
                    // The fallback's contact list reads the late pairs: each pair once.
                    self.compact_late_pairs();
                    self.fallback_contacts(ev.time());
                    break;
                }
            }
            if body {
                self.hit_pair(a, ev.b as usize, ev.time());
            } else {
                self.hit_static(a, ev.b, ev.time());
            }
        }
        self.queue.clear();
        self.compact_late_pairs();
        self.stats.impacts = self.impacts.len();
        self.stats.resting_impacts = self.impacts.iter().filter(|i| i.resting).count();
    }

    /// Predicts every candidate pair and every body's wall hit from the start of the
    /// step, then builds the queue from them at once (heapify, not one push each).
    /// Large worlds do it in chunks on the executor, joined in order (the queue's order
    /// does not depend on insertion order).
    fn predict_start(&mut self) {
        let mut predicted = self.queue.take_buffer();
        self.list_wall_candidates();
        let this = &*self;
        let (n, pairs) = (this.near_wall.len(), this.pairs.len());
        let chunks = this.executor.chunks(this.bodies.len(), n + pairs);
        if chunks <= 1 {
            this.predict_range(0..pairs, &this.near_wall, &mut predicted);
        } else {
            let parts = this.executor.map(chunks, |k| {
                let mut predicted = Vec::new();
                let (p, b) = (chunk_range(pairs, chunks, k), chunk_range(n, chunks, k));
                this.predict_range(p, &this.near_wall[b], &mut predicted);
                predicted
            });
            parts.iter().for_each(|p| predicted.extend_from_slice(p));
        }
        self.queue.rebuild_from(predicted);
    }

    /// Makes `near_wall` the bodies whose wall hit the start of the step must predict, and
    /// the only ones the solver's wall contacts are looked for among: those `integrate`
    /// found near a wall, or every body if the list no longer holds (a body woken or
    /// added since, a level or arena changed).
    /// A body the contact solver turned since is covered too: if its new path leaves its
    /// old box, [`follow_contact_changes`](Self::follow_contact_changes) predicts it
    /// again; if not, the new path stays within the old one's box, which keeps the slop
    /// clear of every wall.
    pub(crate) fn list_wall_candidates(&mut self) {
        let listed_for = (self.config.arena, self.config.overlap_slop);
        if self.near_wall_listed != Some(listed_for) {
            self.near_wall.clear();
            self.near_wall.extend(0..self.bodies.len() as u32);
            self.near_wall_listed = Some(listed_for);
        }
    }

    /// Start-of-step predictions of the candidate pairs `pairs` and of the wall hits of
    /// the bodies `bodies`. Resting pairs need no note: they are candidate pairs, which
    /// the push-out sees anyway.
    fn predict_range(
        &self,
        pairs: std::ops::Range<usize>,
        bodies: &[u32],
        predicted: &mut Vec<Predicted>,
    ) {
        for &(i, j) in &self.pairs[pairs] {
            if let Prediction::Impact(p) = self.pair_prediction(i as usize, j as usize, 0.0) {
                predicted.push(p);
            }
        }
        predicted.extend(
            bodies
                .iter()
                .filter_map(|&i| self.wall_prediction(i as usize, 0.0)),
        );
    }

    /// Notes a resting pair met during the event loop for the push-out. The list is
    /// sorted and cleared of repeats whenever it has grown to [`LATE_PAIRS_GROWTH`] times
    /// its length after the last time, so it stays within that many times the distinct
    /// pairs.
    fn note_late_pair(&mut self, i: usize, j: usize) {
        self.late_pairs.push((i.min(j) as u32, i.max(j) as u32));
        if self.late_pairs.len() >= LATE_PAIRS_GROWTH * self.late_compacted.max(512) {
            self.compact_late_pairs();
        }
    }

    /// Sorts the late pairs and removes repeats.
    pub(crate) fn compact_late_pairs(&mut self) {
        crate::pair_sort::sort_pairs(&mut self.late_pairs, &mut self.pair_scratch);
        self.late_pairs.dedup();
        self.late_compacted = self.late_pairs.len();
    }

    /// The broad phase listed the pairs of each body's path before the contact solver
    /// changed velocities. A body whose new path leaves the box of its old one (widened
    /// by [`SPECULATIVE_MARGIN`](crate::bodies::SPECULATIVE_MARGIN) if it was in the
    /// solver last step) is listed again and predicted anew (as after an impact), so no
    /// partner along the new path is missed. Bodies that only slowed down (resting), or
    /// were turned within the widened box, keep their pairs.
    fn follow_contact_changes(&mut self) {
        for k in 0..self.contact_boxes.len() {
            let (i, (min, max)) = self.contact_boxes[k];
            let i = i as usize;
            self.bodies.hot[i].clear_box_kept();
            let (new_min, new_max) = self.bodies.path_box(i);
            let inside = min.cmple(new_min).all() && new_max.cmple(max).all();
            // Version 0: not yet redirected this step (a body can be in several contacts).
            let h = &self.bodies.hot[i];
            if !inside && h.inv_mass > 0.0 && h.version == 0 {
                self.course_changed(i, 0.0);
            }
        }
    }

    /// Predicts the impact of bodies `i` and `j` from step time `now` into the queue.
    fn predict_pair(&mut self, i: usize, j: usize, now: f64) {
        match self.pair_prediction(i, j, now) {
            Prediction::Impact(p) => self.queue.push(p),
            Prediction::Resting => self.note_late_pair(i, j),
            Prediction::Nothing => {}
        }
    }

    /// What bodies `i` and `j` will do from step time `now` until the end of the step.
    fn pair_prediction(&self, i: usize, j: usize, now: f64) -> Prediction {
        let b = &self.bodies;
        let (i, j) = (i.min(j), i.max(j));
        let (hi, hj) = (&b.hot[i], &b.hot[j]);
        let (d, w) = if hi.flying() || hj.flying() {
            let g = b.gravity;
            (
                hj.position_at(now, g) - hi.position_at(now, g),
                hj.velocity_at(now, g) - hi.velocity_at(now, g),
            )
        } else {
            let d = (hj.pos + hj.vel * (now - hj.time)) - (hi.pos + hi.vel * (now - hi.time));
            (d, hj.vel - hi.vel)
        };
        let sigma = hi.radius + hj.radius;
        if b.sensor_pair(i, j) && d.length_squared() <= sigma * sigma {
            // A sensor reports entry only; while the pair overlaps there is nothing to report.
            return Prediction::Nothing;
        }
        if self.solver_owns(i, j as u32) || self.same_instant.gave_up(i, j as u32) {
            // The solver's contact this step, untouched by an impact since; or one a
            // squeezed cluster handed to the push-out.
            return Prediction::Resting;
        }
        if self.pairs_may_rest && !b.sensor_pair(i, j) {
            // Touching and closing slowly: resting contact, not an impact.
            let e = b.pair_restitution(self.config.restitution_combine, i, j);
            let resting_speed = self.body_pair_resting_speed(i, j, e);
            let touch = sigma + self.config.overlap_slop * b.hot[i].radius.min(b.hot[j].radius);
            let dist_sq = d.length_squared();
            if resting_speed > 0.0
                && dist_sq <= touch * touch
                && -d.dot(w) <= resting_speed * dist_sq.sqrt()
            {
                // It may sink by up to resting_speed · dt: the push-out must see it even
                // if the broad phase did not list it at the start of the step.
                return Prediction::Resting;
            }
        }
        match b.time_of_impact_from(i, j, d, w, self.dt - now) {
            Some(s) if now + s <= self.dt => Prediction::Impact(Predicted::new(
                now + s,
                i as u32,
                j as u32,
                b.hot[i].version,
                b.hot[j].version,
            )),
            _ => Prediction::Nothing,
        }
    }

    /// Body `i`'s next hit of a wall or a level segment from step time `now`, if it
    /// comes within the step (ties: the lower code, so walls after segments).
    fn wall_prediction(&self, i: usize, now: f64) -> Option<Predicted> {
        let b = &self.bodies;
        if b.hot[i].inv_mass == 0.0 || b.hot[i].sensor() {
            return None;
        }
        if self.config.arena.is_none() && self.level.is_empty() {
            return None;
        }
        let (p, v, r) = (
            b.position_at(i, now),
            b.velocity_at(i, now),
            b.hot[i].radius,
        );
        let margin = self.config.overlap_slop * r;
        // Most bodies stay clear of every wall and segment (by more than the slop) for
        // the rest of the step: the box of their path (the broad phase's, with the
        // radius) says so without solving anything.
        let path = b.hot[i].swept_box(self.dt, b.gravity);
        let combine = self.config.restitution_combine;
        let mut best: Option<(f64, u32)> = None;
        self.visit_statics(i, (p, v), path, margin, |touch| {
            let Some(s) = self.static_hit_time(i, touch.code, p, v, now) else {
                return;
            };
            if best.is_some_and(|x| (s, touch.code) >= x) {
                return;
            }
            // Partners the body rests on (touching, closing slowly) are resting contacts,
            // and so are the solver's contacts this step.
            let e = combine.combine(b.restitution[i], touch.restitution);
            let resting_speed = self.static_resting_speed(i, touch.normal, e);
            let resting_on = self.solver_owns(i, touch.code)
                || self.same_instant.gave_up(i, touch.code)
                || (resting_speed > 0.0
                    && touch.depth >= -margin
                    && v.dot(touch.normal) <= resting_speed);
            if !resting_on {
                best = Some((s, touch.code));
            }
        });
        let (s, code) = best?;
        Some(Predicted::new(now + s, i as u32, code, b.hot[i].version, 0))
    }

    fn hit_pair(&mut self, i: usize, j: usize, t: f64) {
        let e = (self.bodies).pair_restitution(self.config.restitution_combine, i, j);
        let resting_speed = self.body_pair_resting_speed(i, j, e);
        let b = &mut self.bodies;
        // When each body last moved on (its last impact, usually): a run at one instant.
        let since = (b.hot[i].time, b.hot[j].time);
        b.advance(i, t);
        b.advance(j, t);
        let m = manifold(
            b.hot[i].pos,
            b.hot[i].radius,
            b.hot[j].pos,
            b.hot[j].radius,
            (i as u32, j as u32),
        );
        let (vi, vj, wi, wj) = (
            b.hot[i].vel,
            b.hot[j].vel,
            b.hot[i].inv_mass,
            b.hot[j].inv_mass,
        );
        // As a sensor's entry: reported at its exact time, nothing changes course.
        let entry = Impact {
            time: t,
            a: i as u32,
            other: Other::Body(j as u32),
            point: m.point,
            normal: m.normal,
            impulse: 0.0,
            tangent_impulse: 0.0,
            approach_speed: (vi - vj).dot(m.normal),
            resting: false,
            sensor: true,
        };
        if b.sensor_pair(i, j) {
            self.impacts.push(entry);
            return;
        }
        let resting = entry.approach_speed <= resting_speed;
        let e = if resting { 0.0 } else { e };
        let Some(r) = normal_impulse(vi, vj, wi, wj, m.normal, e) else {
            return;
        };
        // The same instant again and again: the touching cluster at once.
        if let Some(run) = self.same_instant_run((i, since.0), Some((j, since.1)), t)
            && self.solve_same_instant(run, t, e, resting)
        {
            return;
        }
        let b = &mut self.bodies;
        b.hot[i].vel = r.v1;
        b.hot[j].vel = r.v2;
        b.hot[i].mark_hit();
        b.hot[j].mark_hit();
        // Momentum a static (or kinematic) body gives the dynamic one is external.
        if wi == 0.0 {
            self.stats.external_impulse += (r.v2 - vj) / wj;
        } else if wj == 0.0 {
            self.stats.external_impulse += (r.v1 - vi) / wi;
        }
        let tangent_impulse = self.rough_impact(i, Some(j), 0.0, m.normal, r.impulse, t);
        self.impacts.push(Impact {
            impulse: r.impulse,
            tangent_impulse,
            approach_speed: r.approach_speed,
            resting,
            sensor: false,
            ..entry
        });
        self.course_changed(i, t);
        self.course_changed(j, t);
    }

    /// Body `i` hits the wall or level segment `code` at step time `t`.
    fn hit_static(&mut self, i: usize, code: u32, t: f64) {
        let since = self.bodies.hot[i].time;
        self.bodies.advance(i, t);
        let (p, v) = (self.bodies.hot[i].pos, self.bodies.hot[i].vel);
        let touch = self.static_touch(i, code, p, v);
        let e = (self.config.restitution_combine)
            .combine(self.bodies.restitution[i], touch.restitution);
        let resting_speed = self.static_resting_speed(i, touch.normal, e);
        let b = &mut self.bodies;
        let n = touch.normal;
        let resting = v.dot(n) <= resting_speed;
        let e = if resting { 0.0 } else { e };
        let Some(r) = normal_impulse(v, DVec2::ZERO, b.hot[i].inv_mass, 0.0, n, e) else {
            return;
        };
        if let Some(run) = self.same_instant_run((i, since), None, t)
            && self.solve_same_instant(run, t, e, resting)
        {
            return;
        }
        let b = &mut self.bodies;
        b.hot[i].vel = r.v1;
        b.hot[i].mark_hit();
        self.stats.external_impulse += (r.v1 - v) / b.hot[i].inv_mass;
        let tangent_impulse = self.rough_impact(i, None, touch.friction, n, r.impulse, t);
        self.impacts.push(Impact {
            time: t,
            a: i as u32,
            other: static_other(code),
            point: touch.point,
            normal: n,
            impulse: r.impulse,
            tangent_impulse,
            approach_speed: r.approach_speed,
            resting,
            sensor: false,
        });
        self.course_changed(i, t);
    }

    /// Body `k` got a new velocity at time `t`: invalidate its predictions, re-insert it
    /// in the grid with its new path, and predict its pairs and wall hit again. Under
    /// gravity it first decides how the body moves on: held on a straight line if it
    /// now rests on a support ([`held_at`](Self::held_at)), else flying.
    pub(crate) fn course_changed(&mut self, k: usize, t: f64) {
        if self.bodies.hot[k].inv_mass == 0.0 {
            return; // static bodies never change course
        }
        self.bodies.hot[k].version = self.bodies.hot[k].version.wrapping_add(1);
        // From here on its box is that of its path (it is re-inserted below).
        self.bodies.hot[k].set_speculative(false);
        let mut found = std::mem::take(&mut self.scratch);
        let gravity = self.bodies.gravity != DVec2::ZERO;
        if gravity {
            // Listed with a box covering both paths, then inserted with the one it takes.
            self.bodies.hot[k].set_undecided(true);
        }
        self.list_neighbours(k, &mut found);
        if gravity {
            // The grid keeps the cells of the box covering both paths (a body may be
            // registered in more cells than its path needs, never fewer).
            let flying = !self.held_at(k, t, &found);
            let h = &mut self.bodies.hot[k];
            h.set_flying(flying);
            h.set_undecided(false);
        }
        for &j in &found {
            if self.interacts(k as u32, j as u32) {
                self.predict_pair(k, j, t);
            }
        }
        self.scratch = found;
        if let Some(p) = self.wall_prediction(k, t) {
            self.queue.push(p);
        }
    }

    /// Re-inserts body `k` in the grid with the box of its current path and lists the
    /// bodies whose boxes overlap it into `found`.
    fn list_neighbours(&mut self, k: usize, found: &mut Vec<usize>) {
        self.grid.insert(&self.bodies, k);
        found.clear();
        // Overlapping old and new cell ranges can report a neighbour twice; the list is a
        // handful long, so a scan beats sorting it.
        self.grid.query_listed(&self.bodies, k, |j| {
            if !found.contains(&j) {
                found.push(j);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::LATE_PAIRS_GROWTH;
    use crate::scenes;
    use crate::{Arena, BodyDesc, Other, Simulation, StepConfig, Wall};
    use glam::DVec2;

    /// A body at rest in the middle of a 10 × 10 arena, integrated over 1 s.
    fn resting_in_the_middle() -> Simulation {
        let mut sim = Simulation::new(StepConfig {
            arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(10.0))),
            ..StepConfig::default()
        });
        sim.add_body(BodyDesc::new(DVec2::splat(5.0), 0.5, 1.0))
            .unwrap();
        sim.integrate(1.0);
        assert!(sim.near_wall.is_empty(), "nowhere near a wall");
        sim
    }

    /// The rest of the step after `integrate`; returns the impacts.
    fn finish(sim: &mut Simulation) -> Vec<crate::Impact> {
        sim.broad_phase();
        sim.narrow_phase();
        sim.solve_impacts();
        sim.impacts().to_vec()
    }

    /// The event loop predicts wall hits only for the bodies `integrate` listed near a
    /// wall: a body turned toward a wall after `integrate`, or walls moved in, must still
    /// be hit, at the exact time.
    #[test]
    fn wall_hits_after_changes_since_integrate() {
        let mut sim = resting_in_the_middle();
        sim.set_velocity(0, DVec2::new(9.0, 0.0));
        let hits = finish(&mut sim);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].other, Other::Wall(Wall::Right));
        assert!((hits[0].time - 0.5).abs() < 1e-12, "x = 5 + 9 t meets 9.5");

        let mut sim = resting_in_the_middle();
        sim.set_velocity(0, DVec2::new(0.0, -1.0)); // reaches y = 4 at the end of the step
        sim.integrate(1.0);
        sim.config.arena = Some(Arena::new(DVec2::new(0.0, 4.0), DVec2::splat(10.0)));
        let hits = finish(&mut sim);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].other, Other::Wall(Wall::Bottom));
        assert!((hits[0].time - 0.5).abs() < 1e-12, "y = 5 − t meets 4.5");
    }

    /// While the pile lands, each course change meets its resting neighbours again:
    /// the late pairs must still come out sorted, without repeats, and never hold more
    /// than [`LATE_PAIRS_GROWTH`] times the distinct pairs; each body's pre-solver box is
    /// kept once, and its mark is gone after the step.
    #[test]
    fn late_pairs_and_contact_boxes_hold_no_repeats() {
        let mut sim = scenes::pile(2000).simulation();
        let mut most_late = 0;
        for _ in 0..90 {
            sim.integrate(scenes::DT);
            sim.broad_phase();
            sim.narrow_phase();
            // The last step's push-out may have grown the list (it lists a jam's pairs
            // there); what the event loop adds is what is checked.
            let before = sim.late_pairs.capacity();
            sim.solve_impacts();
            let late = &sim.late_pairs;
            assert!(late.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
            most_late = most_late.max(late.len());
            // Compaction at each growth by `LATE_PAIRS_GROWTH`: the list never grew past
            // that many times the distinct pairs (and `Vec` at most doubles past that).
            assert!(
                late.capacity() <= before.max(2 * LATE_PAIRS_GROWTH * most_late.max(512)),
                "capacity {} (before the loop {before}), {most_late} distinct pairs at most",
                late.capacity(),
            );
            let mut kept: Vec<u32> = sim.contact_boxes.iter().map(|(i, _)| *i).collect();
            let listed = kept.len();
            kept.sort_unstable();
            kept.dedup();
            assert_eq!(kept.len(), listed, "one pre-solver box per body");
            assert!(sim.bodies.hot.iter().all(|h| h.clone().keep_box_once()));
            sim.resolve();
        }
        assert!(most_late > 0, "the landing meets resting pairs mid-step");
    }
}
