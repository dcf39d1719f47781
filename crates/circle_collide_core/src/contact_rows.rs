//! The contact solver's working set: its bodies and constraint rows packed next to each
//! other, so that a Gauss–Seidel pass reads and writes a few dense arrays instead of the
//! bodies' 64-byte records and the solver's full contact list.
//!
//! The passes are the sequential-impulse passes described in [`contacts`](crate::contacts),
//! in the same order over the same contacts; each row keeps the reciprocal of its
//! effective mass, so a pass multiplies where it divided (a division's latency was most
//! of a pass's time; the results differ from dividing by rounding only). A wall is
//! slot 0: a body that never moves, with no mass, spin or radius.

use crate::bodies::Bodies;
use crate::contacts::SolverContact;
use crate::friction::{slip, tangent, tangent_inverse_mass};
use crate::queue::is_body;
use glam::DVec2;

/// A body as the passes see it.
#[derive(Clone, Copy, Debug, Default)]
struct RowBody {
    vel: DVec2,
    inv_mass: f64,
    omega: f64,
}

/// The normal constraint of one contact.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// Slots of the two bodies (0: a wall).
    a: u32,
    b: u32,
    /// Unit normal from `a` towards `b`.
    normal: DVec2,
    /// `w_a + w_b`: the closing speed a unit impulse takes away (0: two static bodies).
    w: f64,
    /// Accumulated normal impulse.
    acc: f64,
    /// `1 / w` (0 when `w` is 0).
    inv_w: f64,
}

/// The friction and rolling-resistance part of a rough contact's row.
#[derive(Clone, Copy, Debug, Default)]
struct RoughRow {
    /// Coulomb coefficient and rolling-resistance lever (0: none).
    mu: f64,
    rolling: f64,
    /// Radii and inverse moments of inertia of the two bodies (zeros for a wall).
    ra: f64,
    rb: f64,
    ka: f64,
    kb: f64,
    /// How much a unit friction impulse changes the slip ([`tangent_inverse_mass`]),
    /// and its reciprocal.
    tw: f64,
    inv_tw: f64,
    /// Accumulated friction and rolling impulses.
    tangent: f64,
    roll: f64,
}

/// The solver's packed bodies and rows (scratch kept between steps for its allocations).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactRows {
    bodies: Vec<RowBody>,
    /// Index in [`Bodies`] of each slot's body (slot 0, the wall, has none: `u32::MAX`).
    members: Vec<u32>,
    /// Slot of each body of [`Bodies`] while loaded, else 0.
    slot_of: Vec<u32>,
    rows: Vec<Row>,
    /// Parallel to `rows` when any contact is rough, else empty.
    rough: Vec<RoughRow>,
}

impl ContactRows {
    /// Packs `contacts` and the bodies they touch, with their accumulated impulses.
    pub(crate) fn load(&mut self, contacts: &[SolverContact], b: &Bodies) {
        self.slot_of.resize(b.len(), 0);
        self.bodies.clear();
        self.members.clear();
        self.bodies.push(RowBody::default());
        self.members.push(u32::MAX);
        self.rows.clear();
        self.rough.clear();
        let any_rough = contacts.iter().any(|c| c.mu > 0.0 || c.rolling > 0.0);
        for c in contacts {
            let sa = self.slot(c.a as usize, b);
            let wall = !is_body(c.b);
            let sb = if wall { 0 } else { self.slot(c.b as usize, b) };
            let wa = b.hot[c.a as usize].inv_mass;
            let wb = if wall {
                0.0
            } else {
                b.hot[c.b as usize].inv_mass
            };
            self.rows.push(Row {
                a: sa,
                b: sb,
                normal: c.normal,
                w: wa + wb,
                inv_w: if wa + wb > 0.0 { 1.0 / (wa + wb) } else { 0.0 },
                acc: c.accumulated,
            });
            if any_rough {
                let (ra, ka) = (b.hot[c.a as usize].radius, b.spin[c.a as usize].inv_inertia);
                let (rb, kb) = if wall {
                    (0.0, 0.0)
                } else {
                    (b.hot[c.b as usize].radius, b.spin[c.b as usize].inv_inertia)
                };
                let tw = tangent_inverse_mass(wa, ka, ra, wb, kb, rb);
                self.rough.push(RoughRow {
                    mu: c.mu,
                    rolling: c.rolling,
                    ra,
                    rb,
                    ka,
                    kb,
                    tw,
                    inv_tw: if tw > 0.0 { 1.0 / tw } else { 0.0 },
                    tangent: c.tangent,
                    roll: c.roll,
                });
            }
        }
    }

    /// The slot of body `i`, packing it on first sight.
    fn slot(&mut self, i: usize, b: &Bodies) -> u32 {
        if self.slot_of[i] == 0 {
            self.slot_of[i] = self.bodies.len() as u32;
            self.members.push(i as u32);
            self.bodies.push(RowBody {
                vel: b.hot[i].vel,
                inv_mass: b.hot[i].inv_mass,
                omega: b.spin[i].omega,
            });
        }
        self.slot_of[i]
    }

    /// Applies each contact's warm start (its remembered impulses), in contact order.
    pub(crate) fn warm_start(&mut self, contacts: &[SolverContact]) {
        for (k, c) in contacts.iter().enumerate() {
            if c.warm > 0.0 {
                self.apply_normal(k, c.warm);
            }
            if c.tangent_warm != 0.0 {
                self.apply_tangent(k, c.tangent_warm);
            }
            if c.roll_warm != 0.0 {
                self.apply_rolling(k, c.roll_warm);
            }
        }
    }

    /// `passes` Gauss–Seidel passes over every row in contact order: its normal
    /// impulse, then (rough contacts) its friction and rolling resistance within the new
    /// normal impulse's cones.
    pub(crate) fn passes(&mut self, passes: u32) {
        for _ in 0..passes {
            for k in 0..self.rows.len() {
                self.normal_row(k);
                if let Some(&q) = self.rough.get(k) {
                    if q.mu > 0.0 {
                        self.friction_row(k);
                    }
                    if q.rolling > 0.0 {
                        self.rolling_row(k);
                    }
                }
            }
        }
    }

    /// One accumulated, clamped impulse on row `k` so that it stops closing.
    fn normal_row(&mut self, k: usize) {
        let r = self.rows[k];
        if r.w == 0.0 {
            return;
        }
        let (a, b) = (r.a as usize, r.b as usize);
        let closing = (self.bodies[a].vel - self.bodies[b].vel).dot(r.normal);
        let total = (r.acc + closing * r.inv_w).max(0.0);
        self.apply_normal(k, total - r.acc);
    }

    /// One accumulated friction impulse on row `k`, aiming at no slip, within
    /// `|λt| ≤ μ λn`.
    fn friction_row(&mut self, k: usize) {
        let (r, q) = (self.rows[k], self.rough[k]);
        if q.tw <= 0.0 {
            return;
        }
        let (a, b) = (self.bodies[r.a as usize], self.bodies[r.b as usize]);
        let u = slip(a.vel, a.omega, q.ra, b.vel, b.omega, q.rb, r.normal);
        let cap = if r.acc > 0.0 { q.mu * r.acc } else { 0.0 };
        let total = (q.tangent - u * q.inv_tw).clamp(-cap, cap);
        self.apply_tangent(k, total - q.tangent);
    }

    /// One accumulated rolling-resistance impulse on row `k`, aiming at no relative
    /// rolling, within `c · r · λn`.
    fn rolling_row(&mut self, k: usize) {
        let (r, q) = (self.rows[k], self.rough[k]);
        let kk = q.ka + q.kb;
        if kk <= 0.0 {
            return;
        }
        let (oa, ob) = (
            self.bodies[r.a as usize].omega,
            self.bodies[r.b as usize].omega,
        );
        let cap = q.rolling * r.acc.max(0.0);
        let total = (q.roll - (ob - oa) / kk).clamp(-cap, cap);
        self.apply_rolling(k, total - q.roll);
    }

    /// Adds `delta` to row `k`'s normal impulse and to its bodies' velocities.
    fn apply_normal(&mut self, k: usize, delta: f64) {
        let r = &mut self.rows[k];
        r.acc += delta;
        let (a, b, n) = (r.a as usize, r.b as usize, r.normal);
        let (wa, wb) = (self.bodies[a].inv_mass, self.bodies[b].inv_mass);
        self.bodies[a].vel -= n * (delta * wa);
        self.bodies[b].vel += n * (delta * wb);
    }

    /// Adds `delta` to row `k`'s friction impulse (on `b` along the tangent, on `a`
    /// against it) and to its bodies' velocities and spins.
    fn apply_tangent(&mut self, k: usize, delta: f64) {
        let (r, q) = (self.rows[k], &mut self.rough[k]);
        q.tangent += delta;
        let t = tangent(r.normal);
        let (a, b) = (r.a as usize, r.b as usize);
        let wa = self.bodies[a].inv_mass;
        self.bodies[a].vel -= t * (delta * wa);
        self.bodies[a].omega -= delta * q.ra * q.ka;
        let wb = self.bodies[b].inv_mass;
        self.bodies[b].vel += t * (delta * wb);
        self.bodies[b].omega -= delta * q.rb * q.kb;
    }

    /// Adds `delta` to row `k`'s rolling-resistance impulse (on `b`; its opposite on
    /// `a`).
    fn apply_rolling(&mut self, k: usize, delta: f64) {
        let (r, q) = (self.rows[k], &mut self.rough[k]);
        q.roll += delta;
        self.bodies[r.a as usize].omega -= delta * q.ka;
        self.bodies[r.b as usize].omega += delta * q.kb;
    }

    /// Writes the passes' impulses back into `contacts` and the velocities and spins of
    /// the dynamic bodies into `b` (a static body's never change), and unpacks. Returns
    /// the impulse walls and static bodies gave dynamic ones since [`load`](Self::load).
    pub(crate) fn store(&mut self, contacts: &mut [SolverContact], b: &mut Bodies) -> DVec2 {
        let mut external = DVec2::ZERO;
        for (k, c) in contacts.iter_mut().enumerate() {
            // What the passes added since `load`: the contact still holds what it had.
            let r = &self.rows[k];
            let mut given = r.normal * (r.acc - c.accumulated);
            c.accumulated = r.acc;
            if let Some(q) = self.rough.get(k) {
                given += tangent(r.normal) * (q.tangent - c.tangent);
                c.tangent = q.tangent;
                c.roll = q.roll;
            }
            // Support from a wall or a static body: what the dynamic one receives.
            if self.bodies[r.b as usize].inv_mass == 0.0 {
                external -= given;
            } else if self.bodies[r.a as usize].inv_mass == 0.0 {
                external += given;
            }
        }
        for (s, body) in self.bodies.iter().enumerate().skip(1) {
            let i = self.members[s] as usize;
            self.slot_of[i] = 0;
            if body.inv_mass > 0.0 {
                b.hot[i].vel = body.vel;
                b.spin[i].omega = body.omega;
            }
        }
        external
    }
}
