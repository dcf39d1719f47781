//! Sleeping: islands of touching bodies that stay slow fall asleep and cost almost
//! nothing until woken ([`SleepConfig`](crate::config::SleepConfig)).
//!
//! A sleeping body is simulated as a static one (`inv_mass` 0, at rest): pairs of two
//! sleeping bodies are never listed, it gets no gravity and no contact of its own. It
//! wakes, with every sleeping body touching it (transitively: its island), when an awake
//! dynamic body or a moving kinematic one touches it or will hit it within the step —
//! checked right after the broad phase, which then lists the pairs again so the woken
//! island is simulated this very step. A world where nothing moves (every dynamic body
//! asleep, no moving kinematic body, no sensor) builds no grid and lists no pair. At the
//! end of a step, bodies held by the contact solver (in a slow contact this
//! step) and slower than the sleep speed add the step to their rest time (others start
//! from zero: a free body, or an elastic gas without gravity, never rests), and an island
//! of touching awake bodies whose every rest time has reached `time_to_sleep` falls
//! asleep. By neighbourhood
//! ([`by_neighbourhood`](crate::config::SleepConfig::by_neighbourhood)) a body falls
//! asleep once it and its awake touching neighbours have, a slow touch wakes a
//! sleeping body with the sleeping bodies touching it, and a hit the sleeping bodies it
//! reaches (`wake_reach`), not the island.

use crate::config::DISTURB_FRACTION;
use crate::push_out::within_slop;
use crate::simulation::Simulation;
use crate::wake_reach::Reached;

impl Simulation {
    /// Wakes the sleeping bodies that an awake dynamic body touches now (within the slop)
    /// or will hit within the step, or (by neighbourhood) disturbs; returns whether any
    /// woke.
    ///
    /// By whole islands (the default) a touch or a hit wakes the sleeping body with its
    /// island. By neighbourhood
    /// ([`by_neighbourhood`](crate::config::SleepConfig::by_neighbourhood)) a hit, or a
    /// touch closing faster than the resting speed, wakes the sleeping bodies it reaches
    /// ([`wake_reached`](Self::wake_reached): an impact must travel through every body it
    /// reaches within the step); a body near it (a candidate pair)
    /// that moves faster than [`DISTURB_FRACTION`] of the sleep speed (of the larger of
    /// the two circles), or did not rest
    /// in the last step, wakes it and the sleeping bodies touching it
    /// ([`wake_near`](Self::wake_near)); a body lying still on it wakes nobody. Either
    /// way a moving kinematic body's hit wakes the island, and so does its push through
    /// the awake bodies in front of it ([`wake_pushed`](Self::wake_pushed)).
    pub(crate) fn wake_touched(&mut self) -> bool {
        let mut woken = std::mem::take(&mut self.woken);
        let mut near = std::mem::take(&mut self.woken_near);
        let mut hits = std::mem::take(&mut self.wake_hits);
        woken.clear();
        near.clear();
        hits.clear();
        let whole = !self.config.sleep.by_neighbourhood;
        let resting_speed = (self.config).resting_speed_for(self.dt, self.min_radius);
        let b = &self.bodies;
        for &(i, j) in &self.pairs {
            let (i, j) = (i as usize, j as usize);
            let (sleeper, other) = match (b.hot[i].sleeping(), b.hot[j].sleeping()) {
                (true, false) => (i, j),
                (false, true) => (j, i),
                _ => continue,
            };
            if b.hot[other].inv_mass == 0.0 || b.sensor_pair(i, j) {
                continue; // kinematic bodies wake below; static bodies and sensors never do
            }
            let o = &b.hot[other];
            if let Some(closing) = self.hit_speed(sleeper, other, whole, resting_speed) {
                if whole {
                    woken.push(sleeper as u32);
                } else {
                    let speed = self.speed_of_hit(sleeper, other, closing);
                    hits.push(Reached {
                        speed,
                        body: sleeper as u32,
                    });
                }
            } else if !whole
                && (b.rest_time[other] == 0.0
                    || o.vel.length()
                        > DISTURB_FRACTION
                            * (self.config.sleep).speed_for(o.radius.max(b.hot[sleeper].radius)))
            {
                near.push(sleeper as u32);
            }
        }
        self.wake_by_kinematic(&mut woken, &mut near);
        self.wake_pushed(&mut woken);
        let any = !woken.is_empty() || !near.is_empty() || !hits.is_empty();
        self.wake_islands(&mut woken);
        self.wake_reached(&mut hits);
        self.wake_near(&near);
        self.woken = woken;
        self.woken_near = near;
        self.wake_hits = hits;
        any
    }

    /// Whether moving body `other` hits `sleeper`, and at what closing speed: it will
    /// hit it within the step (closing at most at its speed), or touches it (within the
    /// slop; closing along the line of centres) — by neighbourhood only when closing
    /// faster than `resting_speed` (an impact must travel through every body it
    /// reaches). By whole islands such a hit wakes the island, by neighbourhood the
    /// bodies it reaches ([`wake_reached`](Self::wake_reached)).
    fn hit_speed(
        &self,
        sleeper: usize,
        other: usize,
        whole: bool,
        resting_speed: f64,
    ) -> Option<f64> {
        let b = &self.bodies;
        let (s, o) = (&b.hot[sleeper], &b.hot[other]);
        if within_slop(b, sleeper, other, self.config.overlap_slop) {
            let closing = o.vel.dot((s.pos - o.pos).normalize_or_zero());
            (whole || closing > resting_speed).then_some(closing)
        } else {
            (b.time_of_impact(sleeper, other, 0.0, self.dt)).map(|_| o.vel.length())
        }
    }

    /// Lists the moving kinematic bodies (static mass, a velocity or a spin — a wheel
    /// drags what it touches; not sensors) into `kinematic`; returns whether anything in
    /// the world moves: an awake dynamic body, a sensor (its pairs with sleeping bodies
    /// report overlaps) or a moving kinematic body. Called by the broad phase of a world
    /// with sleeping bodies.
    pub(crate) fn list_movers(&mut self) -> bool {
        self.kinematic.clear();
        let mut moves = false;
        for i in 0..self.bodies.len() {
            if !self.may_move(i) {
                continue;
            }
            moves = true;
            let h = &self.bodies.hot[i];
            if !h.sensor() && h.inv_mass == 0.0 {
                self.kinematic.push(i as u32);
            }
        }
        moves
    }

    /// Whether body `i` may move this step: awake, and dynamic, a sensor, or a kinematic
    /// body (static mass) with a velocity or a spin.
    fn may_move(&self, i: usize) -> bool {
        let h = &self.bodies.hot[i];
        !h.sleeping()
            && (h.sensor()
                || h.inv_mass > 0.0
                || h.vel != glam::DVec2::ZERO
                || self.bodies.spin[i].omega != 0.0)
    }

    /// Whether the world stands still after the last step, so that the next step would
    /// change nothing if the caller changes nothing: no body that moves (every dynamic
    /// body asleep, no awake sensor, no kinematic body with a velocity or a spin), and
    /// no [vacated place](Simulation::wake_around) or [level](Simulation::set_level)
    /// change waiting. An empty world stands still. A caller that rebuilds its bodies
    /// every step (the plugin) may then skip the step, as long as it can tell that none
    /// of its inputs changed either.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig};
    /// use glam::DVec2;
    /// let mut sim = Simulation::new(StepConfig::default());
    /// assert!(sim.is_still());
    /// sim.add_body(BodyDesc::new(DVec2::ZERO, 0.5, 1.0)).unwrap();
    /// // An awake dynamic body may move (here it does not, but it could be hit).
    /// assert!(!sim.is_still());
    /// ```
    pub fn is_still(&self) -> bool {
        self.vacated.is_empty()
            && !self.level_changed
            && !(0..self.bodies.len()).any(|i| self.may_move(i))
    }

    /// Wakes the sleeping bodies touching (within the slop) a circle the caller vacated
    /// ([`wake_around`](Simulation::wake_around)), or all of them if the level changed,
    /// and empties the list. Each sleeping body looks up the circles near it in x
    /// (sorted), so many vacated places cost `O((n + k) log k)`, not `n · k`. The woken
    /// bodies wake their islands through the broad phase
    /// ([`wake_touched`](Self::wake_touched)).
    pub(crate) fn wake_vacated(&mut self) {
        let mut vacated = std::mem::take(&mut self.vacated);
        let everyone = std::mem::take(&mut self.level_changed);
        if self.stats.sleeping_at_start == 0 {
            vacated.clear(); // nobody to wake
            self.vacated = vacated;
            return;
        }
        vacated.sort_unstable_by(|a, b| a.0.x.total_cmp(&b.0.x));
        let widest = vacated.iter().map(|c| c.1).fold(0.0, f64::max);
        let slop = self.config.overlap_slop.max(0.0);
        let flies = self.bodies.gravity != glam::DVec2::ZERO;
        for i in 0..self.bodies.len() {
            let h = &self.bodies.hot[i];
            if !h.sleeping() {
                continue;
            }
            let (p, r) = (h.pos, h.radius);
            let reach = r + widest + slop * r;
            let first = vacated.partition_point(|c| c.0.x < p.x - reach);
            let touches = everyone
                || (vacated[first..].iter())
                    .take_while(|c| c.0.x <= p.x + reach)
                    .any(|&(c, rc)| p.distance(c) <= r + rc + slop * r.min(rc));
            if touches {
                self.wake_flying(i, flies);
            }
        }
        vacated.clear();
        self.vacated = vacated;
    }

    /// Adds to `woken` (their islands wake) the sleeping bodies that a moving kinematic
    /// body will hit within the step or touches (by neighbourhood: touches closing faster
    /// than the resting speed), and by neighbourhood to `near` those it touches more
    /// slowly or whose boxes its path overlaps. A pair of a kinematic and a sleeping body
    /// is never a candidate pair (both have infinite mass while one sleeps), so the
    /// kinematic bodies look for their sleepers in the grid.
    fn wake_by_kinematic(&self, woken: &mut Vec<u32>, near: &mut Vec<u32>) {
        let whole = !self.config.sleep.by_neighbourhood;
        let resting_speed = (self.config).resting_speed_for(self.dt, self.min_radius);
        let b = &self.bodies;
        for &k in &self.kinematic {
            let k = k as usize;
            self.grid.query(b, k, false, |s| {
                if !b.hot[s].sleeping()
                    || b.hot[s].sensor()
                    || !self.filters_accept(k as u32, s as u32)
                {
                    return;
                }
                if self.hit_speed(s, k, whole, resting_speed).is_some() {
                    woken.push(s as u32);
                } else if !whole {
                    near.push(s as u32);
                }
            });
        }
    }

    /// By neighbourhood: wakes the island of every sleeping body that an impact of this
    /// step hit faster than the resting speed. The broad phase wakes the bodies the hits
    /// it foresees reach ([`wake_reached`](Self::wake_reached)); a body whose course an
    /// impact changed, or pushed on by the bodies behind it faster than that estimate, can
    /// hit a sleeping one unforeseen, which then stood as a static body, and left asleep
    /// its island would take such hits again and again (a collapse inside a pile went on
    /// for seconds, bodies bouncing off the sleeping ones around it; waking only the
    /// bodies such a hit reaches brought that back on one pile of eight, `docs/contacts.md`,
    /// "A hit wakes the bodies it reaches").
    fn wake_islands_hit(&mut self) {
        let mut hit = std::mem::take(&mut self.woken);
        hit.clear();
        let hot = &self.bodies.hot;
        for impact in &self.impacts {
            if let crate::events::Other::Body(j) = impact.other
                && impact.approach_speed
                    > self.pair_resting_speed_at(
                        hot[impact.a as usize].radius.min(hot[j as usize].radius),
                    )
            {
                hit.extend(
                    [impact.a, j]
                        .into_iter()
                        .filter(|&k| hot[k as usize].sleeping()),
                );
            }
        }
        self.wake_islands(&mut hit);
        self.woken = hit;
    }

    /// Fills `sleep_scale` with each body's sleep scale: the largest radius among it and
    /// the awake dynamic bodies touching it (not sensors). A speck of dust lying in a
    /// pile is judged on the pile's scale: it rides bodies that creep at a fraction of
    /// their own radius per second until the island sleeps, faster than half its own
    /// radius per second; a lone speck on the floor keeps its own. Left empty when every
    /// circle awake at the start of the step has the same radius and none woke since
    /// (the scale is then each body's own radius).
    fn fill_sleep_scales(&mut self) {
        let mut scale = std::mem::take(&mut self.sleep_scale);
        scale.clear();
        // Bodies woken after `integrate` are not in its radii: then look at every body.
        if self.max_radius > self.min_radius || self.stats.woken > 0 {
            let b = &self.bodies;
            scale.extend(b.hot.iter().map(|h| h.radius));
            for &(i, j) in &self.touching {
                let (i, j) = (i as usize, j as usize);
                let (p, q) = (&b.hot[i], &b.hot[j]);
                if p.inv_mass == 0.0 || q.inv_mass == 0.0 || p.sensor() || q.sensor() {
                    continue;
                }
                scale[i] = scale[i].max(q.radius);
                scale[j] = scale[j].max(p.radius);
            }
        }
        self.sleep_scale = scale;
    }

    /// Wakes the bodies `seeds` and the sleeping bodies touching them (not further): the
    /// neighbourhood a slowly moving body disturbs, so that it can rearrange (woken
    /// alone, a body next to a gap falls into it with its sleeping neighbours held in
    /// place, and the gap rises through the sleeping bodies above, one at a time). Sets
    /// them flying under this step's gravity.
    fn wake_near(&mut self, seeds: &[u32]) {
        let mut found = std::mem::take(&mut self.scratch);
        let mut ring = std::mem::take(&mut self.wake_ring);
        ring.clear();
        for &k in seeds {
            if self.bodies.hot[k as usize].sleeping() {
                ring.push(k);
                self.sleeping_touching(k as usize, &mut found, &mut ring);
            }
        }
        let flies = self.bodies.gravity != glam::DVec2::ZERO;
        for &k in &ring {
            self.wake_flying(k as usize, flies);
        }
        self.scratch = found;
        self.wake_ring = ring;
    }

    /// Wakes body `k` if it sleeps, counts it and sets it flying under this step's
    /// gravity if `flies`; returns whether it slept. A body woken after `integrate` is not
    /// on its list of bodies near a wall: the list no longer holds (the wall contacts and
    /// wall hits of the step are then looked for among every body).
    pub(crate) fn wake_flying(&mut self, k: usize, flies: bool) -> bool {
        let woke = self.bodies.wake(k);
        if woke {
            self.stats.woken += 1;
            self.bodies.hot[k].set_flying(flies);
            self.near_wall_listed = None;
        }
        woke
    }

    /// Adds to `out` the sleeping bodies touching body `k` (within the slop), found
    /// through the grid (`found` is scratch).
    pub(crate) fn sleeping_touching(&self, k: usize, found: &mut Vec<usize>, out: &mut Vec<u32>) {
        found.clear();
        self.grid.query(&self.bodies, k, false, |j| found.push(j));
        let (b, slop) = (&self.bodies, self.config.overlap_slop);
        out.extend(
            (found.iter())
                .filter(|&&j| b.hot[j].sleeping() && within_slop(b, k, j, slop))
                .map(|&j| j as u32),
        );
    }

    /// Wakes the bodies `seeds` and every sleeping body touching a woken one, and sets
    /// them flying under this step's gravity (they had none while asleep).
    pub(crate) fn wake_islands(&mut self, seeds: &mut Vec<u32>) {
        let flies = self.bodies.gravity != glam::DVec2::ZERO;
        let mut found = std::mem::take(&mut self.scratch);
        while let Some(k) = seeds.pop() {
            if self.wake_flying(k as usize, flies) {
                self.sleeping_touching(k as usize, &mut found, seeds);
            }
        }
        self.scratch = found;
    }

    /// End of step: rest times, then islands whose bodies have all rested long enough
    /// fall asleep. Islands are linked by the touching pairs of two awake dynamic bodies.
    pub(crate) fn update_sleep(&mut self) {
        let sleep = self.config.sleep;
        if sleep.by_neighbourhood && self.stats.sleeping_at_start > 0 {
            self.wake_islands_hit();
        }
        // No body in the solver rests, none sleeps, and every rest time is 0 already (a
        // gas): the loop would change nothing.
        let unchanged =
            !self.solver_marked && self.stats.sleeping_at_start == 0 && !self.bodies.some_rest;
        let fixed = sleep.speed;
        if fixed.is_none() && !unchanged {
            self.fill_sleep_scales();
        }
        let b = &mut self.bodies;
        let (mut sleeping, mut longest) = (0, 0.0f64);
        let spinning = b.spinning;
        debug_assert!(!unchanged || b.rest_time.iter().all(|&r| r == 0.0));
        debug_assert!(!unchanged || !b.hot.iter().any(|h| h.sleeping() || h.in_solver()));
        let rows = if unchanged { 0 } else { b.len() };
        let scale = &self.sleep_scale;
        for (i, (h, rest)) in b.hot[..rows].iter().zip(&mut b.rest_time).enumerate() {
            // A spinning body's surface moves: it rests only when that is slow too.
            let speed = sleep.speed_for(scale.get(i).copied().unwrap_or(h.radius));
            let slow =
                h.vel.length() <= speed && (!spinning || b.spin[i].omega.abs() * h.radius <= speed);
            if h.sleeping() {
                sleeping += 1;
            } else if h.inv_mass > 0.0 && !h.sensor() && h.in_solver() && slow {
                *rest += self.dt;
                longest = longest.max(*rest);
            } else {
                *rest = 0.0;
            }
        }
        b.some_rest = longest > 0.0 || sleeping > 0;
        self.stats.sleeping = sleeping;
        // A NaN time to sleep never sleeps. An island sleeps only when all its bodies
        // have rested long enough: if no awake body has, none can (a gas, a crowd on the
        // move), and the islands need not be built.
        if !sleep.enabled
            || sleep.time_to_sleep.is_nan()
            || longest < sleep.time_to_sleep
            || fixed.is_some_and(|s| s <= 0.0)
        {
            return;
        }
        if sleep.by_neighbourhood {
            self.sleep_quiet_bodies(sleep.time_to_sleep);
        } else {
            self.sleep_whole_islands(sleep.time_to_sleep);
        }
    }

    /// Puts to sleep every awake dynamic body that has rested `time_to_sleep` and whose
    /// awake dynamic neighbours (touching pairs) have too
    /// ([`by_neighbourhood`](crate::config::SleepConfig::by_neighbourhood)): the quiet
    /// parts of an island sleep while another part still moves, with a layer of awake,
    /// resting bodies between them.
    fn sleep_quiet_bodies(&mut self, time_to_sleep: f64) {
        let b = &mut self.bodies;
        let mut held = std::mem::take(&mut self.island_parent);
        held.clear();
        held.resize(b.len(), 0);
        for &(i, j) in &self.touching {
            let (i, j) = (i as usize, j as usize);
            let (p, q) = (&b.hot[i], &b.hot[j]);
            if p.inv_mass == 0.0 || q.inv_mass == 0.0 || p.sensor() || q.sensor() {
                continue;
            }
            if b.rest_time[i] < time_to_sleep || b.rest_time[j] < time_to_sleep {
                held[i] = 1;
                held[j] = 1;
            }
        }
        for (i, &held) in held.iter().enumerate() {
            let h = &b.hot[i];
            let quiet = b.rest_time[i] >= time_to_sleep && held == 0;
            if quiet && h.inv_mass > 0.0 && !h.sensor() {
                b.fall_asleep(i);
                self.stats.sleeping += 1;
            }
        }
        self.island_parent = held;
    }

    /// Puts to sleep every island of touching awake dynamic bodies whose every body has
    /// rested `time_to_sleep` (the default rule).
    fn sleep_whole_islands(&mut self, time_to_sleep: f64) {
        let b = &mut self.bodies;
        // Union–find over the touching pairs of awake dynamic bodies; each root keeps the
        // smallest rest time of its island.
        let n = b.len();
        let mut parent = std::mem::take(&mut self.island_parent);
        parent.clear();
        parent.extend(0..n as u32);
        let mut least = std::mem::take(&mut self.island_rest);
        least.clear();
        least.extend_from_slice(&b.rest_time);
        for &(i, j) in &self.touching {
            let (i, j) = (i as usize, j as usize);
            let (p, q) = (&b.hot[i], &b.hot[j]);
            if p.inv_mass == 0.0 || q.inv_mass == 0.0 || p.sensor() || q.sensor() {
                continue;
            }
            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
            if ri != rj {
                let (lo, hi) = (ri.min(rj), ri.max(rj));
                parent[hi] = lo as u32;
                least[lo] = least[lo].min(least[hi]);
            }
        }
        for i in 0..n {
            let h = &b.hot[i];
            if h.inv_mass == 0.0 || h.sensor() {
                continue;
            }
            let root = find(&mut parent, i);
            if least[root] >= time_to_sleep {
                b.fall_asleep(i);
                self.stats.sleeping += 1;
            }
        }
        self.island_parent = parent;
        self.island_rest = least;
    }
}

/// Root of `i` in the union–find forest `parent`, halving paths on the way.
fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        let up = parent[parent[i] as usize];
        parent[i] = up;
        i = up as usize;
    }
    i
}
