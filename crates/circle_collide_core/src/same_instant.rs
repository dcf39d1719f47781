//! Same-instant runs: a body hit again and again at one instant is solved with the bodies
//! touching it, all at once.
//!
//! A light circle between the floor and a heavy body landing on it (a pebble under a
//! falling crate) is hit by the heavy body, passes the push to the floor, bounces back
//! into the heavy body, and so on, all at the instant of landing: each binary impact
//! takes a share of about `m / M` of the heavy body's speed, so a column of crates
//! landing at 10 units/s on a circle a fortieth of their radius took 45,000 impacts in
//! one step (82 ms in a world of 2000 bodies). Sequential binary impacts at one instant
//! are Gauss–Seidel on the cluster's contacts, and they converge as slowly as the masses
//! differ.
//!
//! So when a body's impacts within [`RUN_WINDOW`] of the step reach [`RUN_TRIGGER`] (and
//! again at twice, four times … as many) and the impact's restitution is below 1, the
//! event loop stops taking them one by one: the bodies touching it (within the slop), and
//! those touching them, up to [`CLUSTER_BODIES`] dynamic bodies and [`CLUSTER_CONTACTS`]
//! contacts, with the walls, segments, static and kinematic bodies they touch as
//! immovable partners, are solved together: the impulses that stop every contact of the
//! cluster from closing (a linear complementarity problem, solved exactly by Murty's
//! principal pivoting), applied `1 + e` times, `e` the restitution of the impact that
//! triggered the run (0 for a resting one) — Poisson's restitution, which never adds
//! energy — and, if that leaves a contact closing (one that was opening when the solve
//! began but took a share of the push), the impulses that stop what is left on top,
//! without restitution. The pebble under the landing crates stays on the floor and the
//! crates bounce at `e` times their speed, in one solve (that step: 259 impacts, 1.7 ms).
//!
//! An elastic run (restitution 1) is left to exact binary impacts: the energy bounds it
//! (a pebble between the floor and a crate a million times heavier takes about 3100 of
//! them), and the second round would lose energy — unless a moving kinematic body is in
//! the cluster: it feeds the run without end (a crate between a kinematic paddle and a
//! wall, bounced ever faster), and the cluster is solved, without restitution (the bounce
//! off the driver is what pumps it). Such runs need not come at one instant (the gap to
//! the wall closes while the crate bounces): [`DRIVEN_TRIGGER`] counts a body's impacts
//! by moving kinematic bodies over the whole step, and squeezes its cluster at once.
//!
//! A run that goes on at the same instant after its cluster was solved, with a speck in
//! the cluster (a circle at most 1/[`SPECK_MASS_RATIO`] of the mass of a body it touches),
//! is a speck squeezed out of a wedge (`specks.rs`): the contacts the second solve pressed
//! on the speck go to the push-out for the rest of the step. So do they when a body hit
//! [`SPREAD_TRIGGER`] times since the step took half its impact cap has a speck in its
//! cluster (a speck rattling between heavy bodies that close on it at distinct times).
//!
//! A cluster whose contacts cannot all stop closing (a body squeezed between partners
//! that cannot give way, such as a kinematic body driving it into a wall) is *squeezed*
//! (`squeeze.rs`): the kinematic body wins, and the contacts with immovable partners go
//! to the push-out for the rest of the step. The solve is declined, and the impacts go on
//! one by one, when it would add kinetic energy in a cluster without a moving kinematic
//! body.

use crate::events::{Impact, Other, static_other};
use crate::manifold::manifold;
use crate::simulation::Simulation;
use crate::small_lcp::{LcpScratch, solve};
use glam::DVec2;

mod specks;
mod squeeze;

pub use specks::SPECK_MASS_RATIO;

/// Impacts of one body within [`RUN_WINDOW`] that make a run: at the 256th (and again at
/// the 512th, the 1024th …) its cluster is solved at once (in a world whose impact cap
/// is below 1024, at the first power of two from a quarter of the cap: at the default
/// `max_impacts_per_body`, fewer than 30 bodies). A cradle's middle ball takes
/// two impacts at one instant; hundreds are a body rattling in place. Lower triggers
/// caught runs in the landing of the jittered piles too (at 8, ~10,000 cluster solves in
/// 10 s of the pile of 2000; at 64, 10–24), where the truncated clusters bred more
/// impacts than they saved and the piles settled later (6 of 8 draws at 64); at 128
/// the pile of 10,000 still met one. At 256 no run of the design's scenes (gas, piles,
/// crowds, walkers, marches) reaches it: their results are the same bits.
pub const RUN_TRIGGER: u32 = 256;

/// Impacts of one body by moving kinematic bodies within one step that call for a cluster
/// solve whatever their times (and again at twice, four times … as many): a body between
/// a kinematic paddle and a wall, bounced between them ever faster while the gap closes
/// (restitution 1: 64,128 impacts to the cap of a world of 2002 bodies, 172 ms), is hit
/// at ever closer but distinct times. A paddle meets a body it pushes once or twice a
/// step; sixty-four hits are a squeeze.
pub const DRIVEN_TRIGGER: u32 = 64;

/// Impacts of one body since the step took half its impact cap that call for a solve of
/// its cluster, if a speck is in it (and again at twice, four times … as many): a speck
/// rattling between heavy bodies that close on it slowly is hit at distinct times, not
/// at one instant, and such runs took the rest of the cap. Half the cap is 16 impacts
/// for every body of the world at the default `max_impacts_per_body`: a world that busy
/// is landing or jammed.
pub const SPREAD_TRIGGER: u32 = 256;

/// A step is *busy* once it has taken `cap / BUSY_SHARE` impacts (`cap` its impact
/// cap): from then on every impact counts towards [`SPREAD_TRIGGER`].
pub const BUSY_SHARE: usize = 2;

/// The width of an instant, as a fraction of the step: impacts of a body this close in
/// time after the first of its run belong to the run (a light body between two partners
/// that touch it is hit again at the very same time, to rounding).
pub const RUN_WINDOW: f64 = 1e-9;

/// The most dynamic bodies in one cluster (nearest first, by touching neighbours).
pub const CLUSTER_BODIES: usize = 16;

/// The most contacts in one cluster.
pub const CLUSTER_CONTACTS: usize = 40;

/// A body's run of impacts in the current step.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    /// The step it was counted in ([`SameInstant::stamp`]).
    stamp: u32,
    /// Step time of its first impact.
    start: f64,
    /// Impacts so far.
    count: u32,
    /// Impacts by a moving kinematic body in the whole step.
    driven: u32,
    /// Impacts since the step took half its impact cap ([`SPREAD_TRIGGER`]).
    busy: u32,
}

/// One contact of a cluster: body `a`, its partner (a body or a static code), the unit
/// normal from `a` to the partner, the point, and the partner's friction if static.
#[derive(Clone, Copy, Debug)]
struct ClusterContact {
    a: u32,
    b: Partner,
    normal: DVec2,
    point: DVec2,
    /// Relative normal velocity `(v_b − v_a)·n` before the solve (negative: closing).
    closing: f64,
}

/// The other side of a cluster contact.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Partner {
    /// A body, by index.
    Body(u32),
    /// A wall or segment, by code, with its friction.
    Static(u32, f64),
}

impl Partner {
    /// The body's index, if a body.
    fn body(self) -> Option<u32> {
        match self {
            Partner::Body(j) => Some(j),
            Partner::Static(..) => None,
        }
    }

    /// The body's index or the static partner's code (codes lie above every index).
    fn code(self) -> u32 {
        match self {
            Partner::Body(j) | Partner::Static(j, _) => j,
        }
    }
}

/// What calls for a cluster solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// A run of impacts at one instant ([`RUN_TRIGGER`]).
    Instant,
    /// A speck's impacts spread over a step that took half its impact cap
    /// ([`SPREAD_TRIGGER`]).
    Spread,
    /// Impacts by moving kinematic bodies in the step ([`DRIVEN_TRIGGER`]): the cluster
    /// is squeezed at once ([`Simulation::squeeze`]).
    Driven,
}

/// What a cluster solve came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Impulses found and applied.
    Solved,
    /// Left to the binary impacts.
    Declined,
    /// No impulses stop every contact from closing: a body squeezed where nothing gives
    /// way ([`Simulation::squeeze`]).
    Squeezed,
}

/// The runs of the step and the scratch of the cluster solve.
#[derive(Clone, Debug, Default)]
pub(crate) struct SameInstant {
    runs: Vec<Run>,
    stamp: u32,
    /// This step's trigger: [`RUN_TRIGGER`], or a quarter of a small world's impact cap.
    trigger: u32,
    /// The step has taken half its impact cap: every impact counts towards
    /// [`SPREAD_TRIGGER`] (set by the event loop, [`BUSY_SHARE`]).
    pub(crate) busy: bool,
    bodies: Vec<u32>,
    velocities: Vec<DVec2>,
    contacts: Vec<ClusterContact>,
    found: Vec<usize>,
    a: Vec<f64>,
    q: Vec<f64>,
    x: Vec<f64>,
    total: Vec<f64>,
    /// Contacts handed to the push-out for the rest of the step, by squeezed clusters and
    /// by specks' (`specks.rs`): `(lower, higher)` of a body's index and its partner's
    /// index or static code.
    given_up: Vec<(u32, u32)>,
    lcp: LcpScratch,
}

impl SameInstant {
    /// Starts a step of `n` bodies and an impact cap of `cap`: every run from before is
    /// over.
    pub(crate) fn begin_step(&mut self, n: usize, cap: usize) {
        self.trigger = (cap / 4).clamp(8, RUN_TRIGGER as usize) as u32;
        self.busy = false;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.runs.iter_mut().for_each(|r| r.stamp = 0);
            self.stamp = 1;
        }
        if self.runs.len() < n {
            self.runs.resize(n, Run::default());
        }
        self.given_up.clear();
    }

    /// Whether any contact was handed to the push-out in this step.
    pub(crate) fn gave_up_any(&self) -> bool {
        !self.given_up.is_empty()
    }

    /// Whether the pair of body `i` and `other` (a body's index or a static code) was
    /// handed to the push-out for the rest of the step (a squeezed cluster's, a speck's).
    #[inline]
    pub(crate) fn gave_up(&self, i: usize, other: u32) -> bool {
        let i = i as u32;
        !self.given_up.is_empty() && self.given_up.contains(&(i.min(other), i.max(other)))
    }

    /// Hands the contact `c` of a cluster to the push-out for the rest of the step.
    fn give_up(&mut self, c: &ClusterContact) {
        let (a, b) = (c.a, c.b.code());
        self.given_up.push((a.min(b), a.max(b)));
    }

    /// Counts an impact of body `i` at step time `t`: `repeat` if its last impact (its
    /// last move on) came within the instant (`window`) before, `driven` if by a moving
    /// kinematic body; once the step is busy, every impact counts too. What calls for a
    /// cluster solve, if anything: its run at one instant, its impacts by moving
    /// kinematic bodies in the step, or its impacts since the step got busy. An impact
    /// neither repeated nor driven in a step that is not busy (nearly all of them)
    /// touches nothing.
    fn note(
        &mut self,
        i: usize,
        t: f64,
        window: f64,
        (repeat, driven): (bool, bool),
    ) -> Option<Trigger> {
        let busy = self.busy;
        if !repeat && !driven && !busy {
            return None;
        }
        let stamp = self.stamp;
        let run = self.runs.get_mut(i)?;
        if run.stamp != stamp {
            *run = Run {
                stamp,
                start: t,
                count: 0,
                driven: 0,
                busy: 0,
            };
        }
        let calls = |count: u32, from: u32| count >= from && count.is_power_of_two();
        run.driven += u32::from(driven);
        if driven && calls(run.driven, DRIVEN_TRIGGER.min(self.trigger)) {
            return Some(Trigger::Driven);
        }
        run.busy += u32::from(busy);
        if busy && calls(run.busy, SPREAD_TRIGGER.min(self.trigger)) {
            return Some(Trigger::Spread);
        }
        if !repeat {
            return None;
        }
        if run.count == 0 || t - run.start > window {
            // A new run: the impact before this one opened it.
            (run.start, run.count) = (t, 1);
        }
        run.count += 1;
        calls(run.count, self.trigger).then_some(Trigger::Instant)
    }

    /// Bytes of heap memory held.
    pub(crate) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.runs)
            + cap(&self.bodies)
            + cap(&self.velocities)
            + cap(&self.contacts)
            + cap(&self.found)
            + cap(&self.a)
            + cap(&self.q)
            + cap(&self.x)
            + cap(&self.total)
            + cap(&self.given_up)
            + self.lcp.heap_bytes()
    }
}

impl Simulation {
    /// Counts the impact at step time `t` of body `i` (and body `j`, if any), each with
    /// the time it was last moved on to before it; the body whose run calls for a cluster
    /// solve, and why, if one does.
    #[inline]
    pub(crate) fn same_instant_run(
        &mut self,
        (i, i_since): (usize, f64),
        j: Option<(usize, f64)>,
        t: f64,
    ) -> Option<(usize, Trigger)> {
        let window = RUN_WINDOW * self.dt;
        let hot = &self.bodies.hot;
        let (i_driven, j_driven) =
            j.map_or((false, false), |(j, _)| (hot[j].drives(), hot[i].drives()));
        let repeat = |since: f64| t - since <= window;
        let ri = (self.same_instant).note(i, t, window, (repeat(i_since), i_driven));
        let rj = j.and_then(|(j, since)| {
            (self.same_instant)
                .note(j, t, window, (repeat(since), j_driven))
                .map(|r| (j, r))
        });
        ri.map(|r| (i, r)).or(rj)
    }

    /// Solves the cluster of body `k` at step time `t` with restitution `e` (see the
    /// module docs; `trigger`: what called for it; `resting`: the impact that triggered it
    /// was a resting one): `true` if
    /// it did (velocities changed, impacts recorded, courses changed; or a squeezed
    /// cluster handed to the push-out, [`squeeze`](Self::squeeze)), `false` if it
    /// declined and the caller's binary impact stands.
    #[cold]
    #[inline(never)]
    pub(crate) fn solve_same_instant(
        &mut self,
        (k, trigger): (usize, Trigger),
        t: f64,
        e: f64,
        resting: bool,
    ) -> bool {
        let mut s = std::mem::take(&mut self.same_instant);
        let outcome = if !self.gather_cluster(&mut s, k, t)
            || (trigger == Trigger::Spread && !self.has_speck(&s))
        {
            Outcome::Declined
        } else if trigger == Trigger::Driven {
            Outcome::Squeezed
        } else {
            self.impulses(&mut s, e)
        };
        let done = match outcome {
            Outcome::Solved => {
                // The run went on at this instant after a solve of its cluster already.
                if trigger == Trigger::Spread || s.runs[k].count >= 2 * s.trigger {
                    self.stats.speck_contacts_given_up += self.give_up_specks(&mut s);
                }
                self.apply_cluster(&mut s, t, resting);
                self.stats.cluster_solves += 1;
                true
            }
            Outcome::Squeezed => self.squeeze(&mut s, t),
            Outcome::Declined => false,
        };
        // The new courses are predicted with the given-up contacts in place.
        let changed = std::mem::take(&mut s.found);
        self.same_instant = s;
        if done {
            for &i in &changed {
                self.course_changed(i, t);
            }
        }
        self.same_instant.found = changed;
        done
    }

    /// Lists the cluster of body `k` at `t` into `s` (bodies moved to `t`): `false` if
    /// it has no contact.
    fn gather_cluster(&mut self, s: &mut SameInstant, k: usize, t: f64) -> bool {
        s.bodies.clear();
        s.contacts.clear();
        s.bodies.push(k as u32);
        self.bodies.advance(k, t);
        let slop = self.config.overlap_slop;
        let mut next = 0;
        while next < s.bodies.len() && s.contacts.len() < CLUSTER_CONTACTS {
            let x = s.bodies[next] as usize;
            next += 1;
            if self.bodies.hot[x].inv_mass == 0.0 {
                continue; // immovable: a partner, not a source of more contacts
            }
            let (px, rx, vx) = {
                let h = &self.bodies.hot[x];
                (h.pos, h.radius, h.vel)
            };
            // Static partners: walls and segments touching within the slop.
            let margin = slop * rx;
            let bounds = (px - DVec2::splat(rx), px + DVec2::splat(rx));
            let contacts = &mut s.contacts;
            self.visit_statics(x, (px, vx), bounds, margin, |touch| {
                if touch.depth >= -margin && contacts.len() < CLUSTER_CONTACTS {
                    contacts.push(ClusterContact {
                        a: x as u32,
                        b: Partner::Static(touch.code, touch.friction),
                        normal: touch.normal,
                        point: touch.point,
                        closing: -vx.dot(touch.normal),
                    });
                }
            });
            // Bodies touching within the slop.
            let mut found = std::mem::take(&mut s.found);
            found.clear();
            self.grid.query_listed(&self.bodies, x, |j| {
                if !found.contains(&j) {
                    found.push(j);
                }
            });
            for &j in &found {
                if s.contacts.len() >= CLUSTER_CONTACTS {
                    break;
                }
                let b = &self.bodies;
                if !self.interacts(x as u32, j as u32) || b.sensor_pair(x, j) {
                    continue;
                }
                let listed = s.bodies.contains(&(j as u32));
                if listed
                    && s.contacts
                        .iter()
                        .any(|c| c.a == j as u32 && c.b == Partner::Body(x as u32))
                {
                    continue; // listed from j's side already
                }
                let (pj, rj) = (b.position_at(j, t), b.hot[j].radius);
                let touch = rx + rj + slop * rx.min(rj);
                if (pj - px).length_squared() > touch * touch {
                    continue;
                }
                if !listed {
                    let dynamic = b.hot[j].inv_mass > 0.0;
                    let dynamic_count = (s.bodies.iter())
                        .filter(|&&i| self.bodies.hot[i as usize].inv_mass > 0.0)
                        .count();
                    if dynamic && dynamic_count >= CLUSTER_BODIES {
                        continue;
                    }
                    self.bodies.advance(j, t);
                    s.bodies.push(j as u32);
                }
                let h = &self.bodies.hot;
                let m = manifold(px, rx, h[j].pos, rj, (x as u32, j as u32));
                s.contacts.push(ClusterContact {
                    a: x as u32,
                    b: Partner::Body(j as u32),
                    normal: m.normal,
                    point: m.point,
                    closing: (h[j].vel - vx).dot(m.normal),
                });
            }
            s.found = found;
        }
        !s.contacts.is_empty()
    }

    /// The cluster's impulses into `s.x` and its bodies' velocities after them into
    /// `s.velocities`: the compression impulses `x` that stop every contact from closing,
    /// `(1 + e) x` applied (Poisson), and if that leaves a contact closing (one that was
    /// opening when the solve began but took a share of the push), the compression
    /// impulses of what is left on top, without restitution. [`Outcome::Squeezed`] when
    /// the compression has no solution; [`Outcome::Declined`] at restitution 1 without a
    /// moving kinematic body in the cluster (an elastic run stays exact), when the second
    /// round finds no solution, or when the impulses would add energy (with no moving
    /// kinematic body in the cluster).
    fn impulses(&self, s: &mut SameInstant, e: f64) -> Outcome {
        let hot = &self.bodies.hot;
        let n = s.contacts.len();
        self.delassus(s);
        s.velocities.clear();
        s.velocities
            .extend(s.bodies.iter().map(|&i| hot[i as usize].vel));
        s.q.clear();
        s.q.extend(s.contacts.iter().map(|c| c.closing));
        s.x.clear();
        s.x.resize(n, 0.0);
        if !solve(&s.a, &s.q, &mut s.x, &mut s.lcp) {
            return Outcome::Squeezed;
        }
        // A moving kinematic body gives the cluster energy: an elastic run there need not
        // end by itself, and a bounce off the driver is what pumps it (a body between a
        // kinematic paddle and a wall): such a cluster is solved without restitution.
        let driven = s.bodies.iter().any(|&i| hot[i as usize].drives());
        if (e >= 1.0 && !driven) || s.x.iter().all(|&x| x == 0.0) {
            return Outcome::Declined;
        }
        let e = if driven { 0.0 } else { e };
        let mut total = std::mem::take(&mut s.total);
        total.clear();
        total.resize(n, 0.0);
        let tolerance = 1e-9 * s.q.iter().fold(0.0f64, |m, q| m.max(q.abs()));
        for round in 0..2 {
            let scale = if round == 0 { 1.0 + e } else { 1.0 };
            for (total, x) in total.iter_mut().zip(&mut s.x) {
                *x *= scale;
                *total += *x;
            }
            self.push_velocities(s);
            if round == 1 || e == 0.0 {
                break;
            }
            // What the restitution left closing.
            self.closing_now(s);
            if s.q.iter().all(|&q| q >= -tolerance) {
                break;
            }
            if !solve(&s.a, &s.q, &mut s.x, &mut s.lcp) {
                s.total = total;
                return Outcome::Declined;
            }
        }
        std::mem::swap(&mut s.x, &mut total);
        s.total = total;
        let energy = |v: &mut dyn Iterator<Item = (u32, DVec2)>| {
            v.filter(|(i, _)| hot[*i as usize].inv_mass > 0.0)
                .map(|(i, v)| 0.5 * v.length_squared() / hot[i as usize].inv_mass)
                .sum::<f64>()
        };
        let before = energy(&mut s.bodies.iter().map(|&i| (i, hot[i as usize].vel)));
        let after = energy(&mut s.bodies.iter().copied().zip(s.velocities.iter().copied()));
        let finite = s.velocities.iter().all(|v| v.is_finite());
        if finite && (driven || after <= before * (1.0 + 1e-9) + f64::MIN_POSITIVE) {
            Outcome::Solved
        } else {
            Outcome::Declined
        }
    }

    /// `s.a` = `J M⁻¹ Jᵀ` of the cluster's contacts: contacts c and d share a body with
    /// inverse mass w; each pushes it along its normal, negated on the contact's `a` side.
    fn delassus(&self, s: &mut SameInstant) {
        let hot = &self.bodies.hot;
        let n = s.contacts.len();
        s.a.clear();
        s.a.resize(n * n, 0.0);
        let sides = |x: &ClusterContact| [(x.a, -1.0), (x.b.body().unwrap_or(u32::MAX), 1.0)];
        for c in 0..n {
            for d in 0..n {
                let (cc, dc) = (&s.contacts[c], &s.contacts[d]);
                let mut sum = 0.0;
                for (pc, sc) in sides(cc) {
                    for (pd, sd) in sides(dc) {
                        if pc == pd && pc != u32::MAX {
                            sum += hot[pc as usize].inv_mass * sc * sd * cc.normal.dot(dc.normal);
                        }
                    }
                }
                s.a[c * n + d] = sum;
            }
        }
    }

    /// Adds the impulses `s.x` of the cluster's contacts to `s.velocities`.
    fn push_velocities(&self, s: &mut SameInstant) {
        let hot = &self.bodies.hot;
        for (c, contact) in s.contacts.iter().enumerate() {
            let p = s.x[c];
            if let Some(ia) = s.bodies.iter().position(|&b| b == contact.a) {
                s.velocities[ia] -= contact.normal * (p * hot[contact.a as usize].inv_mass);
            }
            if let Some(j) = contact.b.body()
                && let Some(ib) = s.bodies.iter().position(|&b| b == j)
            {
                s.velocities[ib] += contact.normal * (p * hot[j as usize].inv_mass);
            }
        }
    }

    /// `s.q` = each contact's relative normal velocity at `s.velocities` (negative:
    /// closing).
    fn closing_now(&self, s: &mut SameInstant) {
        let hot = &self.bodies.hot;
        let velocity = |i: u32| {
            (s.bodies.iter().position(|&b| b == i)).map_or(hot[i as usize].vel, |k| s.velocities[k])
        };
        s.q.clear();
        for contact in &s.contacts {
            let vb = contact.b.body().map_or(DVec2::ZERO, velocity);
            s.q.push((vb - velocity(contact.a)).dot(contact.normal));
        }
    }

    /// Applies the solved cluster: velocities, the rough part of each impulse and the
    /// impacts; lists the bodies whose course changed in `s.found`.
    fn apply_cluster(&mut self, s: &mut SameInstant, t: f64, resting: bool) {
        // `found` now lists the bodies whose course changed.
        s.found.clear();
        for (k, &i) in s.bodies.iter().enumerate() {
            let h = &mut self.bodies.hot[i as usize];
            if h.inv_mass > 0.0 && h.vel != s.velocities[k] {
                h.vel = s.velocities[k];
                h.mark_hit();
                s.found.push(i as usize);
            }
        }
        for (c, contact) in s.contacts.iter().enumerate() {
            let p = s.x[c];
            if p <= 0.0 {
                continue;
            }
            // Body `a` is dynamic (the cluster grows from its dynamic bodies only).
            let (a, n) = (contact.a as usize, contact.normal);
            let (other, wb, j, friction) = match contact.b {
                Partner::Body(j) => {
                    let j = j as usize;
                    (
                        Other::Body(j as u32),
                        self.bodies.hot[j].inv_mass,
                        Some(j),
                        0.0,
                    )
                }
                Partner::Static(code, friction) => (static_other(code), 0.0, None, friction),
            };
            // Momentum an immovable partner gives the dynamic body is external.
            if wb == 0.0 {
                self.stats.external_impulse -= n * p;
            }
            let tangent_impulse = self.rough_impact(a, j, friction, n, p, t);
            // A pair's impact names the lower index first, its normal pointing from it
            // (the tangent `(−n.y, n.x)` turns with the normal: the friction impulse's
            // sign stays).
            let (first, other, n) = match j {
                Some(j) if j < a => (j as u32, Other::Body(contact.a), -n),
                _ => (contact.a, other, n),
            };
            self.impacts.push(Impact {
                time: t,
                a: first,
                other,
                point: contact.point,
                normal: n,
                impulse: p,
                tangent_impulse,
                approach_speed: -contact.closing,
                resting,
                sensor: false,
            });
        }
    }
}
