//! Gravity meets contact: which bodies fly on their parabolas through the step and which
//! are held on straight lines, and where the resting speed applies to elastic pairs.
//!
//! The resting speed exists because gravity can make a bouncing body come back ever
//! faster (infinitely many bounces in a finite time). Where it cannot, an elastic pair
//! keeps exact impacts; where a body rests on a support, it is held there instead of
//! sinking on its parabola. See `docs/flight.md`.

use crate::config::RESTING_RADII_PER_SECOND;
use crate::contacts::SolverContact;
use crate::queue::is_body;
use crate::simulation::Simulation;
use crate::statics::static_material;
use glam::DVec2;

impl Simulation {
    /// Groups of the solver's bodies pushing on one another and on no wall, static or
    /// kinematic body (bodies falling together, or a body whose contacts ended with no
    /// impulse, such as one sliding down a wall) fly on: gravity accelerates them all
    /// alike, so it changes nothing between them, and the solver's result less the
    /// step's gravity `kick` is their velocity at the start of an exact flight. Bodies
    /// the solver holds up stay on straight lines.
    pub(crate) fn fly_on_unsupported(&mut self, kick: DVec2) {
        if self.landed.is_empty() {
            return;
        }
        let mut groups = std::mem::take(&mut self.groups);
        groups.reset(self.bodies.len());
        for &i in &self.landed {
            groups.add(i);
        }
        // A contact that ended with no impulse neither held nor pushed anything.
        for c in self.resting.iter().filter(|c| c.accumulated > 0.0) {
            let b_landed = is_body(c.b) && groups.contains(c.b);
            match (groups.contains(c.a), b_landed) {
                (true, true) => groups.join(c.a, c.b),
                (true, false) => groups.hold(c.a),
                (false, true) => groups.hold(c.b),
                (false, false) => {}
            }
        }
        for &i in &self.landed {
            if !groups.held(i) {
                let h = &mut self.bodies.hot[i as usize];
                h.vel -= kick;
                h.set_flying(true);
            }
        }
        self.groups = groups;
    }

    /// Under gravity with the default resting speed, drops from the solver's list the
    /// elastic contacts (restitution ≥ 1) that gravity does not press together: those
    /// of a group of touching bodies held by no floor (a wall gravity pushes into) and no
    /// static, kinematic or sleeping body — bodies falling together, or one sliding down
    /// a side wall. Gravity cannot make such a pair bounce endlessly, so it stays an exact
    /// impact of the event loop, and an elastic gas under gravity keeps its energy.
    pub(crate) fn drop_free_elastic_contacts(&mut self, list: &mut Vec<SolverContact>) {
        let (b, g) = (&self.bodies, self.bodies.gravity);
        if g == DVec2::ZERO || self.config.resting_speed.is_some() {
            return;
        }
        let combine = self.config.restitution_combine;
        let (level, arena) = (&self.level, self.config.arena);
        let free = |c: &SolverContact| match is_body(c.b) {
            false => {
                let e = static_material(level, arena.as_ref(), c.b).0;
                combine.combine(b.restitution[c.a as usize], e) >= 1.0 && g.dot(c.normal) <= 0.0
            }
            true => {
                let (i, j) = (c.a as usize, c.b as usize);
                b.pair_restitution(combine, i, j) >= 1.0
                    && b.hot[i].inv_mass > 0.0
                    && b.hot[j].inv_mass > 0.0
            }
        };
        if !list.iter().any(free) {
            return;
        }
        let mut groups = std::mem::take(&mut self.groups);
        groups.reset(b.len());
        for c in list.iter() {
            groups.add(c.a);
            match is_body(c.b) {
                false if g.dot(c.normal) > 0.0 => groups.hold(c.a),
                false => {}
                true if b.hot[c.b as usize].inv_mass == 0.0 => groups.hold(c.a),
                true => {
                    groups.add(c.b);
                    groups.join(c.a, c.b);
                }
            }
        }
        list.retain(|c| !free(c) || groups.held(c.a));
        self.groups = groups;
    }

    /// The resting speed of a pair whose smaller circle has radius `r` (a body and a wall
    /// or segment: the body's), before restitution's exception
    /// ([`StepConfig::pair_resting_speed`](crate::StepConfig::pair_resting_speed)): the
    /// step's, except that the default one without gravity is the pair's own —
    /// [`RESTING_RADII_PER_SECOND`] times `r`, never less than the world's (that of its
    /// smallest dynamic circle): a tiny circle somewhere no longer turns every other
    /// pair's slow contacts into impacts.
    #[inline]
    pub(crate) fn pair_resting_speed_at(&self, r: f64) -> f64 {
        if self.resting_by_radius && self.config.gravity == DVec2::ZERO {
            self.own_resting_speed(r)
        } else {
            self.resting_speed
        }
    }

    /// [`RESTING_RADII_PER_SECOND`] times `r`, never less than the world's (that of its
    /// smallest dynamic circle): the default resting speed of a pair scaled to its bodies.
    #[inline]
    fn own_resting_speed(&self, r: f64) -> f64 {
        RESTING_RADII_PER_SECOND * r.max(self.min_radius)
    }

    /// The resting speed of a pair with a steered body whose smaller circle has radius
    /// `r`: the step's steered one
    /// ([`StepConfig::steered_resting_speed_for`](crate::StepConfig::steered_resting_speed_for)),
    /// whose default, like [`pair_resting_speed_at`](Self::pair_resting_speed_at)'s, is
    /// the pair's own.
    #[inline]
    pub(crate) fn steered_resting_speed_at(&self, r: f64) -> f64 {
        let own = self.own_resting_speed(r);
        if !self.resting_by_radius {
            self.steered_resting_speed
        } else if self.config.gravity == DVec2::ZERO {
            own
        } else {
            self.resting_speed.max(own)
        }
    }

    /// The resting speed of bodies `i` and `j` (restitution `e`) in the event loop: the
    /// pair's, except that the default one does not apply to an elastic pair that
    /// gravity cannot press together (both fly: their relative motion is a straight line).
    #[inline]
    pub(crate) fn body_pair_resting_speed(&self, i: usize, j: usize, e: f64) -> f64 {
        let h = &self.bodies.hot;
        let r = h[i].radius.min(h[j].radius);
        if self.bodies.steered_pair(i, j) {
            self.steered_resting_speed_at(r)
        } else if e >= 1.0 && self.config.resting_speed.is_none() && h[i].flying() && h[j].flying()
        {
            0.0
        } else {
            self.config
                .pair_resting_speed(self.pair_resting_speed_at(r), e)
        }
    }

    /// The resting speed of body `i` against a wall or segment whose normal (from the
    /// body into it) is `n` (restitution `e`) in the event loop: the pair's, except that
    /// the default one does not apply to an elastic flying body against a wall gravity
    /// does not push it into.
    #[inline]
    pub(crate) fn static_resting_speed(&self, i: usize, n: DVec2, e: f64) -> f64 {
        let pressed = self.bodies.gravity.dot(n) > 0.0;
        let r = self.bodies.hot[i].radius;
        if self.bodies.hot[i].steered() {
            self.steered_resting_speed_at(r)
        } else if e >= 1.0
            && self.config.resting_speed.is_none()
            && self.bodies.hot[i].flying()
            && !pressed
        {
            0.0
        } else {
            self.config
                .pair_resting_speed(self.pair_resting_speed_at(r), e)
        }
    }

    /// Whether body `k`, at step time `t` (where it is), rests on a support: it touches
    /// (within the slop) a wall gravity pushes it into, or a body that does not fly
    /// (static, kinematic, asleep, or held itself) below it in gravity's direction, and
    /// neither closes on nor leaves it faster than the resting speed. A body held there
    /// moves on in a straight line (as the contact solver's bodies do) instead of sinking
    /// into its support on its parabola; a body hit off its support flies.
    pub(crate) fn held_at(&self, k: usize, t: f64, neighbours: &[usize]) -> bool {
        let b = &self.bodies;
        let (g, h) = (b.gravity, &b.hot[k]);
        let (p, v, r) = (h.pos, h.vel, h.radius);
        let slop = self.config.overlap_slop;
        let combine = self.config.restitution_combine;
        let slow = |approach: f64, e: f64| {
            approach.abs() <= self.config.pair_resting_speed(self.resting_speed, e)
        };
        let mut on_floor = false;
        let reach = DVec2::splat(r);
        self.visit_statics(k, (p, v), (p - reach, p + reach), slop * r, |touch| {
            let (n, e) = (
                touch.normal,
                combine.combine(b.restitution[k], touch.restitution),
            );
            on_floor |= g.dot(n) > 0.0 && touch.depth >= -slop * r && slow(v.dot(n), e);
        });
        if on_floor {
            return true;
        }
        neighbours.iter().any(|&j| {
            let other = &b.hot[j];
            if other.flying() {
                return false;
            }
            // Not flying: where it is at `t` lies on its straight path.
            let d = other.pos + other.vel * (t - other.time) - p;
            let touch = r + other.radius + slop * r.min(other.radius);
            if d.length_squared() > touch * touch || g.dot(d) <= 0.0 {
                return false;
            }
            let e = b.pair_restitution(combine, k, j);
            !b.sensor_pair(k, j)
                && self.interacts(k as u32, j as u32)
                && slow((v - other.vel).dot(d.normalize_or_zero()), e)
        })
    }
}
