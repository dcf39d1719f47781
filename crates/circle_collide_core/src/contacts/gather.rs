//! Gathering the solver's contacts: the slow and pressing pairs touching at the start of
//! the step (and the fallback's touching pairs), with their warm starts, friction and
//! rolling resistance (the rules are in the module docs of [`contacts`](super)).

use super::{KeptContact, Partner, SolverContact};
use crate::queue::{code_segment, code_wall, is_body};
use crate::simulation::{Contact, Simulation};
use glam::DVec2;

impl Simulation {
    /// Lists the contacts of the solver: the slow narrow-phase contacts at the start of
    /// the step, with their warm starts; or, with `fallback`, every candidate pair
    /// touching at the bodies' current positions, with no warm start. Every contact's
    /// target is not to close.
    pub(super) fn gather_contacts(&mut self, fallback: bool) {
        if !fallback {
            // The bodies that can touch a wall or segment at the start of the step.
            self.list_wall_candidates();
        }
        let mut list = std::mem::take(&mut self.resting);
        let mut rows = std::mem::take(&mut self.memory_rows);
        if fallback || self.memory.is_empty() {
            rows.clear();
        } else {
            self.sort_keys();
            self.memory.rows_of(&self.key_order, &mut rows);
        }
        let combine = self.config.restitution_combine;
        let b = &self.bodies;
        // Closing speeds are judged with the step's gravity in the velocities, as the
        // solver will see them (its bodies stop flying).
        let kick = b.gravity * self.dt;
        let vel = |i: usize| {
            let h = &b.hot[i];
            if h.flying() && !fallback {
                h.vel + kick
            } else {
                h.vel
            }
        };
        // `ContactMemory::get` by body index, from the rows of the first body: of the two
        // bodies `a`, `j`, the one with the lower key; with a static partner, `a`.
        let remembered = |a: usize, partner: Partner| {
            (rows.get(a)).and_then(|&r| self.memory.find_in(r, partner).copied())
        };
        let remembered_pair = |i: usize, j: usize| {
            let (first, second) = if b.keys[j] < b.keys[i] {
                (j, i)
            } else {
                (i, j)
            };
            remembered(first, Partner::Body(b.keys[second]))
        };
        // Slow or pressing: the solver's, with whether it presses fast (closes faster
        // than the resting speed); else `None` (the event loop's). Under the default
        // resting speed an elastic pair (restitution ≥ 1) never presses: closing fast,
        // it bounces, energy kept — unless a steered body drives it together again after
        // it pressed or hit last step (`steered`): then it is a pair like any other (the
        // game's velocity would undo the bounce every step).
        let elastic_bounces = self.config.resting_speed.is_none();
        // `r`: the radius of the pair's smaller circle (with a wall or segment, the body's).
        let classify = |closing: f64, warm: Option<KeptContact>, e: f64, steered: bool, r: f64| {
            let resting_speed = if steered {
                self.steered_resting_speed_at(r)
            } else {
                self.config
                    .pair_resting_speed(self.pair_resting_speed_at(r), e)
            };
            if fallback || (closing <= resting_speed && resting_speed > 0.0) {
                Some(false)
            } else if warm.is_some()
                && resting_speed > 0.0
                && (e < 1.0 || !elastic_bounces || steered)
            {
                Some(true)
            } else {
                None
            }
        };
        let steered_pair = |i: usize, j: usize| b.steered_pair(i, j);
        if fallback {
            let slop = self.config.overlap_slop;
            for &(i, j) in self.pairs.iter().chain(&self.late_pairs) {
                let (iu, ju) = (i as usize, j as usize);
                if b.sensor_pair(iu, ju) {
                    continue;
                }
                let (p, q) = (&b.hot[iu], &b.hot[ju]);
                let m = crate::manifold::manifold(p.pos, p.radius, q.pos, q.radius, (i, j));
                if m.depth >= -slop * p.radius.min(q.radius) {
                    let closing = (p.vel - q.vel).dot(m.normal);
                    list.push(contact(
                        i,
                        j,
                        (m.normal, m.point, m.depth),
                        closing,
                        false,
                        None,
                    ));
                }
            }
        } else {
            // The contacts are the pairs touching now, in pair order; a pair that does not
            // touch may be a pressing contact whose gap opened a little (`KEEP_GAP`): any
            // pair without gravity, and under it in a world where the game drives a body
            // (steers it, or moves a kinematic one).
            let gravity = b.gravity != DVec2::ZERO;
            let driven = self.steered_bodies + self.driving_bodies > 0;
            let keep_gaps = (!gravity || driven) && !self.memory.is_empty();
            // A narrow-phase contact that is slow or pressing, as the solver's.
            let solver_contact = |c: &Contact| {
                let (i, j) = (c.a as usize, c.b as usize);
                if b.sensor_pair(i, j) {
                    return None;
                }
                let closing = (vel(i) - vel(j)).dot(c.manifold.normal);
                let warm = remembered_pair(i, j);
                let e = b.pair_restitution(combine, i, j);
                let m = &c.manifold;
                let r = b.hot[i].radius.min(b.hot[j].radius);
                classify(closing, warm, e, steered_pair(i, j), r).map(|pressing_fast| {
                    let at = (m.normal, m.point, m.depth);
                    body_contact(&b.keys, (c.a, c.b), at, closing, pressing_fast, warm)
                })
            };
            if keep_gaps {
                let mut next = 0;
                for &(i, j) in &self.pairs {
                    match self.contacts.get(next) {
                        Some(c) if (c.a, c.b) == (i, j) => {
                            next += 1;
                            list.extend(solver_contact(c));
                        }
                        _ => {
                            let (iu, ju) = (i as usize, j as usize);
                            let e = || b.pair_restitution(combine, iu, ju);
                            // Classified as a touching pair is, on what its gap allows.
                            if let Some((mut gap, warm)) =
                                self.gap_contact((i, j), (vel(iu), vel(ju)), || {
                                    remembered_pair(iu, ju)
                                })
                                && let Some(fast) = classify(
                                    gap.closing - gap.allowed,
                                    Some(warm),
                                    e(),
                                    steered_pair(iu, ju),
                                    b.hot[iu].radius.min(b.hot[ju].radius),
                                )
                            {
                                gap.pressing_fast = fast;
                                list.push(gap);
                            }
                        }
                    }
                }
                debug_assert_eq!(next, self.contacts.len(), "contacts follow the pairs");
            } else {
                // Only the narrow phase's contacts (the pairs' order).
                list.extend(self.contacts.iter().filter_map(solver_contact));
            }
        }
        if self.config.arena.is_some() || !self.level.is_empty() {
            let mut touch_statics = |i: usize| {
                let h = &b.hot[i];
                if h.inv_mass == 0.0 || h.sensor() {
                    return;
                }
                let margin = self.config.overlap_slop * h.radius;
                // Most bodies are clear of every wall and segment by more than the slop.
                let here = (h.pos - h.radius, h.pos + h.radius);
                self.visit_statics(i, (h.pos, vel(i)), here, margin, |touch| {
                    if touch.depth < -margin {
                        return;
                    }
                    let n = touch.normal;
                    let closing = vel(i).dot(n);
                    let warm = remembered(i, static_partner(touch.code));
                    let e = combine.combine(b.restitution[i], touch.restitution);
                    if let Some(fast) = classify(closing, warm, e, h.steered(), h.radius) {
                        let at = (n, touch.point, touch.depth);
                        list.push(contact(i as u32, touch.code, at, closing, fast, warm));
                    }
                });
            };
            // At the start of the step only the bodies `integrate` found near a wall or a
            // segment can touch one (`list_wall_candidates`): their swept boxes, widened by
            // at least the slop, hold the boxes tested here, met in index order as a walk
            // over every body would. The fallback tests every body where it stands.
            if fallback {
                (0..b.len()).for_each(touch_statics);
            } else {
                self.near_wall
                    .iter()
                    .for_each(|&i| touch_statics(i as usize));
            }
        }
        if !fallback {
            self.drop_free_elastic_contacts(&mut list);
        }
        self.rough_contacts(&mut list);
        self.resting = list;
        self.steered_jam = self.is_steered_jam();
        self.memory_rows = rows;
    }

    /// Gives each contact of rough bodies (or of a body on rough walls) its friction
    /// coefficient and rolling-resistance lever; smooth contacts keep none, and their
    /// warm starts of friction are dropped.
    fn rough_contacts(&self, list: &mut [SolverContact]) {
        let b = &self.bodies;
        let combine = self.config.friction_combine;
        for c in list {
            let (a, s) = (c.a as usize, &b.spin);
            let wall_friction = if is_body(c.b) {
                0.0
            } else {
                self.static_material(c.b).1
            };
            let (mu, rolling) = match is_body(c.b) {
                false if b.rough_with_wall(a, wall_friction) => (
                    combine.combine(s[a].friction, wall_friction),
                    combine.combine(s[a].rolling, 0.0) * b.hot[a].radius,
                ),
                true if b.rough_pair(a, c.b as usize) => {
                    let j = c.b as usize;
                    let radius = b.hot[a].radius.min(b.hot[j].radius);
                    (
                        combine.combine(s[a].friction, s[j].friction),
                        combine.combine(s[a].rolling, s[j].rolling) * radius,
                    )
                }
                _ => (0.0, 0.0),
            };
            c.mu = mu;
            c.rolling = rolling;
            if mu <= 0.0 {
                c.tangent_warm = 0.0;
            }
            if rolling <= 0.0 {
                c.roll_warm = 0.0;
            }
        }
    }
}

/// A solver contact at `(normal, point, depth)` with its warm start.
fn contact(
    a: u32,
    b: u32,
    (normal, point, depth): (DVec2, DVec2, f64),
    closing: f64,
    pressing_fast: bool,
    kept: Option<KeptContact>,
) -> SolverContact {
    let kept = kept.unwrap_or(KeptContact::new(0, Partner::Body(0), 0.0));
    SolverContact {
        a,
        b,
        normal,
        pressing_fast,
        closing,
        point,
        depth,
        allowed: 0.0,
        warm: kept.impulse,
        accumulated: 0.0,
        mu: 0.0,
        rolling: 0.0,
        tangent_warm: kept.tangent_impulse,
        tangent: 0.0,
        roll_warm: kept.rolling_impulse,
        roll: 0.0,
    }
}

/// [`contact`] between bodies `i` and `j`, with `warm`'s rolling impulse turned to act on
/// `i`: the memory keeps each body pair with the lower key as `a`, and the rolling impulse
/// acts on `b`.
pub(crate) fn body_contact(
    keys: &[u64],
    (i, j): (u32, u32),
    at: (DVec2, DVec2, f64),
    closing: f64,
    pressing_fast: bool,
    warm: Option<KeptContact>,
) -> SolverContact {
    let mut kept = contact(i, j, at, closing, pressing_fast, warm);
    if keys[i as usize] > keys[j as usize] {
        kept.roll_warm = -kept.roll_warm;
    }
    kept
}

/// The remembered partner of a static code (a wall or a segment).
pub(crate) fn static_partner(code: u32) -> Partner {
    match code_segment(code) {
        Some(s) => Partner::Segment(s as u32),
        None => Partner::Wall(code_wall(code).expect("a wall code")),
    }
}
