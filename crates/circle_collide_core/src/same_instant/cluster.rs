//! A cluster's solve: its bodies and contacts listed around the body whose run called for
//! it, the impulses that stop every contact from closing (with Poisson's restitution), and
//! the new velocities and impacts applied (the rules are in the module docs of
//! [`same_instant`](super)).

use super::{CLUSTER_BODIES, CLUSTER_CONTACTS, ClusterContact, Outcome, Partner, SameInstant};
use crate::events::{Impact, Other, static_other};
use crate::manifold::manifold;
use crate::simulation::Simulation;
use crate::small_lcp::solve;
use glam::DVec2;

impl Simulation {
    /// Lists the cluster of body `k` at `t` into `s` (bodies moved to `t`): `false` if
    /// it has no contact.
    pub(super) fn gather_cluster(&mut self, s: &mut SameInstant, k: usize, t: f64) -> bool {
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
    pub(super) fn impulses(&self, s: &mut SameInstant, e: f64) -> Outcome {
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
    pub(super) fn delassus(&self, s: &mut SameInstant) {
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
    pub(super) fn push_velocities(&self, s: &mut SameInstant) {
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
    pub(super) fn closing_now(&self, s: &mut SameInstant) {
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
    pub(super) fn apply_cluster(&mut self, s: &mut SameInstant, t: f64, resting: bool) {
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
