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
//! them), and the second round would lose energy. The solve is declined, and the impacts
//! go on one by one as before (up to the impact cap), when it has no solution (a circle
//! squeezed between partners that cannot give way, such as a kinematic body driving it
//! into a wall), or when it would add kinetic energy in a cluster without a moving
//! kinematic body.

use crate::events::{Impact, Other, static_other};
use crate::manifold::manifold;
use crate::simulation::Simulation;
use crate::small_lcp::{LcpScratch, solve};
use glam::DVec2;

/// Impacts of one body within [`RUN_WINDOW`] that make a run: at the 256th (and again at
/// the 512th, the 1024th …) its cluster is solved at once. A cradle's middle ball takes
/// two impacts at one instant; hundreds are a body rattling in place. Lower triggers
/// caught runs in the landing of the jittered piles too (at 8, ~10,000 cluster solves in
/// 10 s of the pile of 2000; at 64, 10–24), where the truncated clusters bred more
/// impacts than they saved and the piles settled later (6 of 8 draws at 64); at 128
/// the pile of 10,000 still met one. At 256 no run of the design's scenes (gas, piles,
/// crowds, walkers, marches) reaches it: their results are the same bits.
pub const RUN_TRIGGER: u32 = 256;

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

/// The runs of the step and the scratch of the cluster solve.
#[derive(Clone, Debug, Default)]
pub(crate) struct SameInstant {
    runs: Vec<Run>,
    stamp: u32,
    bodies: Vec<u32>,
    velocities: Vec<DVec2>,
    contacts: Vec<ClusterContact>,
    found: Vec<usize>,
    a: Vec<f64>,
    q: Vec<f64>,
    x: Vec<f64>,
    lcp: LcpScratch,
}

impl SameInstant {
    /// Starts a step of `n` bodies: every run from before is over.
    pub(crate) fn begin_step(&mut self, n: usize) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.runs.iter_mut().for_each(|r| r.stamp = 0);
            self.stamp = 1;
        }
        if self.runs.len() < n {
            self.runs.resize(n, Run::default());
        }
    }

    /// Counts an impact of body `i` at step time `t` (`window` wide instants); whether
    /// its run just reached a size that calls for a cluster solve.
    fn note(&mut self, i: usize, t: f64, window: f64) -> bool {
        let stamp = self.stamp;
        let Some(run) = self.runs.get_mut(i) else {
            return false;
        };
        if run.stamp != stamp || t - run.start > window {
            *run = Run {
                stamp,
                start: t,
                count: 0,
            };
        }
        run.count += 1;
        run.count >= RUN_TRIGGER && run.count.is_power_of_two()
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
    }
}

impl Simulation {
    /// Counts the impact of body `i` (and body `j`, if any) at step time `t`; the body
    /// whose run calls for a cluster solve, if one does.
    pub(crate) fn same_instant_run(&mut self, i: usize, j: Option<usize>, t: f64) -> Option<usize> {
        let window = RUN_WINDOW * self.dt;
        let ri = self.same_instant.note(i, t, window);
        let rj = j.is_some_and(|j| self.same_instant.note(j, t, window));
        if ri {
            Some(i)
        } else if rj {
            j
        } else {
            None
        }
    }

    /// Solves the cluster of body `k` at step time `t` with restitution `e` (see the
    /// module docs; `resting`: the impact that triggered it was a resting one): `true` if it did (velocities changed, impacts recorded, courses
    /// changed), `false` if it declined and the caller's binary impact stands.
    pub(crate) fn solve_same_instant(&mut self, k: usize, t: f64, e: f64, resting: bool) -> bool {
        let mut s = std::mem::take(&mut self.same_instant);
        let solved = self.gather_cluster(&mut s, k, t) && self.impulses(&mut s, e);
        if solved {
            self.apply_cluster(&mut s, t, resting);
            self.stats.cluster_solves += 1;
        }
        self.same_instant = s;
        solved
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
    /// impulses of what is left on top, without restitution. `false` when a problem has no
    /// solution or the impulses would add energy (with no moving kinematic body in the
    /// cluster).
    fn impulses(&self, s: &mut SameInstant, e: f64) -> bool {
        let hot = &self.bodies.hot;
        let n = s.contacts.len();
        let inv_mass = |p: Partner| match p {
            Partner::Body(j) => hot[j as usize].inv_mass,
            Partner::Static(..) => 0.0,
        };
        // A = J M⁻¹ Jᵀ: contacts c and d share a body with inverse mass w; each pushes it
        // along its normal, negated on the contact's `a` side.
        s.a.clear();
        s.a.resize(n * n, 0.0);
        let sides = |x: &ClusterContact| [(Partner::Body(x.a), -1.0), (x.b, 1.0)];
        for c in 0..n {
            for d in 0..n {
                let (cc, dc) = (&s.contacts[c], &s.contacts[d]);
                let mut sum = 0.0;
                for (pc, sc) in sides(cc) {
                    for (pd, sd) in sides(dc) {
                        if pc == pd
                            && let Partner::Body(_) = pc
                        {
                            sum += inv_mass(pc) * sc * sd * cc.normal.dot(dc.normal);
                        }
                    }
                }
                s.a[c * n + d] = sum;
            }
        }
        s.velocities.clear();
        s.velocities
            .extend(s.bodies.iter().map(|&i| hot[i as usize].vel));
        s.q.clear();
        s.q.extend(s.contacts.iter().map(|c| c.closing));
        let mut total = vec![0.0; n];
        s.x.clear();
        s.x.resize(n, 0.0);
        if !solve(&s.a, &s.q, &mut s.x, &mut s.lcp) || s.x.iter().all(|&x| x == 0.0) {
            return false;
        }
        let tolerance = 1e-9 * s.q.iter().fold(0.0f64, |m, q| m.max(q.abs()));
        for round in 0..2 {
            let scale = if round == 0 { 1.0 + e } else { 1.0 };
            for (c, total) in total.iter_mut().enumerate() {
                let p = scale * s.x[c];
                *total += p;
                let contact = s.contacts[c];
                if let Some(ia) = s.bodies.iter().position(|&b| b == contact.a) {
                    s.velocities[ia] -= contact.normal * (p * hot[contact.a as usize].inv_mass);
                }
                if let Partner::Body(j) = contact.b
                    && let Some(ib) = s.bodies.iter().position(|&b| b == j)
                {
                    s.velocities[ib] += contact.normal * (p * hot[j as usize].inv_mass);
                }
            }
            if round == 1 || e == 0.0 {
                break;
            }
            // What the restitution left closing.
            let velocity = |bodies: &[u32], v: &[DVec2], i: u32| {
                (bodies.iter().position(|&b| b == i)).map_or(hot[i as usize].vel, |k| v[k])
            };
            s.q.clear();
            for contact in &s.contacts {
                let va = velocity(&s.bodies, &s.velocities, contact.a);
                let vb = match contact.b {
                    Partner::Body(j) => velocity(&s.bodies, &s.velocities, j),
                    Partner::Static(..) => DVec2::ZERO,
                };
                s.q.push((vb - va).dot(contact.normal));
            }
            if s.q.iter().all(|&q| q >= -tolerance) {
                break;
            }
            if !solve(&s.a, &s.q, &mut s.x, &mut s.lcp) {
                return false;
            }
        }
        s.x.clear();
        s.x.extend_from_slice(&total);
        let driven = (s.bodies.iter())
            .any(|&i| hot[i as usize].inv_mass == 0.0 && hot[i as usize].vel != DVec2::ZERO);
        let energy = |v: &mut dyn Iterator<Item = (u32, DVec2)>| {
            v.filter(|(i, _)| hot[*i as usize].inv_mass > 0.0)
                .map(|(i, v)| 0.5 * v.length_squared() / hot[i as usize].inv_mass)
                .sum::<f64>()
        };
        let before = energy(&mut s.bodies.iter().map(|&i| (i, hot[i as usize].vel)));
        let after = energy(&mut s.bodies.iter().copied().zip(s.velocities.iter().copied()));
        let finite = s.velocities.iter().all(|v| v.is_finite());
        finite && (driven || after <= before * (1.0 + 1e-9) + f64::MIN_POSITIVE)
    }

    /// Applies the solved cluster: velocities, the rough part of each impulse, the
    /// impacts, and the bodies' new courses.
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
            self.impacts.push(Impact {
                time: t,
                a: contact.a,
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
        for k in 0..s.found.len() {
            self.course_changed(s.found[k], t);
        }
    }
}
