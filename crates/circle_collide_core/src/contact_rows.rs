//! The contact solver's working set: its bodies and constraint rows packed next to each
//! other, so that a Gauss–Seidel pass reads and writes a few dense arrays instead of the
//! bodies' 64-byte records and the solver's full contact list.
//!
//! The passes are the sequential-impulse passes described in [`contacts`](crate::contacts),
//! in the same order over the same contacts; each row keeps the reciprocal of its
//! effective mass, so a pass multiplies where it divided (a division's latency was most
//! of a pass's time; the results differ from dividing by rounding only). A wall is
//! slot 0: a body that never moves, with no mass, spin or radius.
//!
//! A solve of [`coloured::COLOURED_MIN_ROWS`] smooth rows or more, or of
//! [`coloured::ROUGH_COLOURED_MIN_ROWS`] rows with friction or rolling resistance, takes
//! them in colour order instead, on the executor's threads ([`coloured`]); smaller
//! solves keep the [`Lanes`] order on the caller's thread.

use crate::bodies::Bodies;
use crate::contacts::SolverContact;
use crate::friction::{slip, tangent, tangent_inverse_mass};
use crate::parallel::ExecutorHandle;
use crate::queue::is_body;
use glam::DVec2;

mod coloured;
mod conjugate;

pub(crate) use conjugate::Preconditioner;
mod team;

/// A body as the passes see it.
#[derive(Clone, Copy, Debug, Default)]
struct RowBody {
    vel: DVec2,
    inv_mass: f64,
    omega: f64,
}

/// The order a pass takes the rows in: the rows split into [`Lanes::LANES`] runs of
/// consecutive rows, taken in turn, one row of each (0, q, 2q, 3q, 1, q + 1, …). Rows
/// are sorted by body, and neighbouring rows share a body, so in plain order each row
/// waits for the velocity the previous one wrote; rows of different runs rarely share
/// one, and the processor works on several at once. Still Gauss–Seidel: each row reads
/// the latest velocities.
#[derive(Clone, Copy)]
struct Lanes {
    len: usize,
    run: usize,
}

impl Lanes {
    const LANES: usize = 4;

    fn new(len: usize) -> Self {
        Self {
            len,
            run: len.div_ceil(Self::LANES),
        }
    }

    /// Calls `f` with each row index in this order. Plain nested loops: with the same
    /// order written as an iterator chain (`flat_map` and `filter`) the crowd of
    /// 10,000's passes took a third longer.
    #[inline(always)]
    fn for_each(self, mut f: impl FnMut(usize)) {
        for t in 0..self.run {
            for s in 0..Self::LANES {
                let k = s * self.run + t;
                if k < self.len {
                    f(k);
                }
            }
        }
    }
}

/// The normal constraint of one contact.
#[derive(Clone, Copy, Debug)]
struct Row {
    /// Slots of the two bodies (0: a wall).
    a: u32,
    b: u32,
    /// Unit normal from `a` towards `b`.
    normal: DVec2,
    /// The closing speed the row allows (a kept contact's gap, [`SolverContact::allowed`]).
    allowed: f64,
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

/// How much faster than `allowed` a row of unit `normal` closes with its bodies at `va`
/// and `vb` (negative: slower, or opening).
#[inline(always)]
fn closing_speed(va: DVec2, vb: DVec2, normal: DVec2, allowed: f64) -> f64 {
    (va - vb).dot(normal) - allowed
}

/// The change of a row's accumulated normal impulse `acc` that stops it closing at
/// `closing` (the step times `relaxation`), the total clamped at zero: the update of
/// both pass orders ([`Lanes`] and [`coloured`]).
#[inline(always)]
fn normal_step(acc: f64, closing: f64, inv_w: f64, relaxation: f64) -> f64 {
    (acc + closing * inv_w * relaxation).max(0.0) - acc
}

/// A normal impulse `delta` along unit `n` (from `a` towards `b`): on `b` along it, on `a`
/// against it. A row's two bodies are different slots, so a caller reads both, applies
/// the impulses and writes both back.
#[inline(always)]
fn push_normal(a: &mut RowBody, b: &mut RowBody, n: DVec2, delta: f64) {
    a.vel -= n * (delta * a.inv_mass);
    b.vel += n * (delta * b.inv_mass);
}

/// A friction impulse `delta` added to rough row `q` of unit normal `n`: on `b` along
/// [`tangent`]`(n)`, on `a` against it, with the spins it gives both.
#[inline(always)]
fn push_tangent(a: &mut RowBody, b: &mut RowBody, q: &mut RoughRow, n: DVec2, delta: f64) {
    q.tangent += delta;
    let t = tangent(n);
    a.vel -= t * (delta * a.inv_mass);
    a.omega -= delta * q.ra * q.ka;
    b.vel += t * (delta * b.inv_mass);
    b.omega -= delta * q.rb * q.kb;
}

/// A rolling-resistance impulse `delta` added to rough row `q`: on `b`'s spin, its
/// opposite on `a`'s.
#[inline(always)]
fn push_rolling(a: &mut RowBody, b: &mut RowBody, q: &mut RoughRow, delta: f64) {
    q.roll += delta;
    a.omega -= delta * q.ka;
    b.omega += delta * q.kb;
}

/// One update of rough row `r` / `q` on its bodies `a` and `b`: the normal impulse (as
/// [`normal_step`], over-relaxed by `relaxation`), then within its new cone the friction
/// impulse (aiming at no slip, `|λt| ≤ μ λn`) and the rolling-resistance impulse (aiming
/// at no relative rolling, within `c · r · λn`). The update of both pass orders
/// ([`Lanes`] and [`coloured`]). Returns the change of a body's velocity by the normal
/// impulse (the larger inverse mass times the impulse; 0 for a row of fixed bodies).
#[inline(always)]
fn rough_step(
    r: &mut Row,
    q: &mut RoughRow,
    a: &mut RowBody,
    b: &mut RowBody,
    relaxation: f64,
) -> f64 {
    let mut change = 0.0;
    if r.inv_w != 0.0 {
        let closing = closing_speed(a.vel, b.vel, r.normal, r.allowed);
        let delta = normal_step(r.acc, closing, r.inv_w, relaxation);
        change = delta.abs() * a.inv_mass.max(b.inv_mass);
        r.acc += delta;
        push_normal(a, b, r.normal, delta);
    }
    if q.mu > 0.0 && q.tw > 0.0 {
        let u = slip(a.vel, a.omega, q.ra, b.vel, b.omega, q.rb, r.normal);
        let cap = if r.acc > 0.0 { q.mu * r.acc } else { 0.0 };
        let total = (q.tangent - u * q.inv_tw).clamp(-cap, cap);
        push_tangent(a, b, q, r.normal, total - q.tangent);
    }
    let kk = q.ka + q.kb;
    if q.rolling > 0.0 && kk > 0.0 {
        let cap = q.rolling * r.acc.max(0.0);
        let total = (q.roll - (b.omega - a.omega) / kk).clamp(-cap, cap);
        push_rolling(a, b, q, total - q.roll);
    }
    change
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
    /// Position correction's scratch: each slot's shift and inverse mass, and its rows.
    shift: Vec<(DVec2, f64)>,
    shift_rows: Vec<ShiftRow>,
    /// The largest change of a body's velocity by a normal impulse in the current pass
    /// ([`passes_until`](Self::passes_until)).
    largest_change: f64,
    /// Scratch of [`conjugate_gradient`](Self::conjugate_gradient).
    conjugate: conjugate::Conjugate,
    /// The colour order of a large smooth solve ([`coloured`]).
    colours: coloured::Colours,
    /// The threads its passes may use ([`set_executor`](Self::set_executor)).
    executor: ExecutorHandle,
}

/// A contact's row of the position correction ([`ContactRows::shifts`]).
#[derive(Clone, Copy, Debug)]
struct ShiftRow {
    a: u32,
    b: u32,
    normal: DVec2,
    inv_w: f64,
    /// Separation wanted (negative: how much deeper it may sink).
    wanted: f64,
    /// Accumulated push, ≥ 0.
    pushed: f64,
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
                allowed: c.allowed,
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
        self.colour();
    }

    /// [`load`](Self::load) again, after a [`store`](Self::store), of the contacts last
    /// loaded (the same list, only their impulses changed since, as the bodies'
    /// velocities): the rows keep their bodies, weights and colours, and take the new
    /// impulses and velocities. The same rows as a full load, without packing and
    /// colouring them again (the shock pass's settle passes reload ~25,000 rows a step
    /// in the pile of 10,000).
    pub(crate) fn reload(&mut self, contacts: &[SolverContact], b: &Bodies) {
        debug_assert_eq!(self.rows.len(), contacts.len(), "the contacts last loaded");
        for (r, c) in self.rows.iter_mut().zip(contacts) {
            r.acc = c.accumulated;
        }
        for (q, c) in self.rough.iter_mut().zip(contacts) {
            q.tangent = c.tangent;
            q.roll = c.roll;
        }
        for (s, body) in self.bodies.iter_mut().enumerate().skip(1) {
            let i = self.members[s] as usize;
            self.slot_of[i] = s as u32;
            body.vel = b.hot[i].vel;
            body.omega = b.spin[i].omega;
        }
    }

    /// Bytes of heap the packed bodies and rows hold, with the position correction's, the
    /// conjugate gradients' and the colour order's scratch (capacities).
    pub(crate) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.bodies)
            + cap(&self.members)
            + cap(&self.slot_of)
            + cap(&self.rows)
            + cap(&self.rough)
            + cap(&self.shift)
            + cap(&self.shift_rows)
            + self.conjugate.heap_bytes()
            + self.colours.heap_bytes()
    }

    /// The executor whose threads the passes of a large smooth solve run on (serial
    /// by default; the results do not depend on it).
    pub(crate) fn set_executor(&mut self, executor: &ExecutorHandle) {
        self.executor = executor.clone();
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

    /// `passes` Gauss–Seidel passes over every row (in [`Lanes`] order, or in colour
    /// order when [`coloured`](Self::coloured)): its normal
    /// impulse, then (rough contacts) its friction and rolling resistance within the new
    /// normal impulse's cones. Each normal impulse step is over-relaxed by `relaxation`
    /// (successive over-relaxation; 1 is plain Gauss–Seidel, and any value in (0, 2)
    /// lowers the bodies' kinetic energy at every step, as plain Gauss–Seidel does).
    pub(crate) fn passes(&mut self, passes: u32, relaxation: f64) {
        if self.coloured() {
            self.coloured_passes(passes, passes, 0.0, relaxation, false);
            return;
        }
        let order = Lanes::new(self.rows.len());
        for _ in 0..passes {
            self.pass::<false>(order, relaxation);
        }
    }

    /// One pass (see [`passes`](Self::passes)); with `TRACK`, it keeps the largest change
    /// of a body's velocity by a normal impulse in `largest_change`.
    #[inline(always)]
    fn pass<const TRACK: bool>(&mut self, order: Lanes, relaxation: f64) {
        if self.rough.is_empty() {
            order.for_each(|k| self.normal_row::<TRACK>(k, relaxation));
        } else {
            order.for_each(|k| self.rough_row::<TRACK>(k, relaxation));
        }
    }

    /// Whether any loaded contact has friction or rolling resistance.
    pub(crate) fn any_rough(&self) -> bool {
        !self.rough.is_empty()
    }

    /// At least `min` and at most `max` passes as [`passes`](Self::passes) runs them,
    /// stopping after the first pass from `min` on whose normal impulses changed no
    /// body's velocity by more than `tolerance`. Returns the passes run.
    pub(crate) fn passes_until(
        &mut self,
        min: u32,
        max: u32,
        tolerance: f64,
        relaxation: f64,
    ) -> u32 {
        if self.coloured() {
            return self.coloured_passes(min, max, tolerance, relaxation, true);
        }
        let order = Lanes::new(self.rows.len());
        for pass in 0..max {
            self.largest_change = 0.0;
            self.pass::<true>(order, relaxation);
            if pass + 1 >= min && self.largest_change <= tolerance {
                return pass + 1;
            }
        }
        max
    }

    /// The largest change of a body's velocity by a normal impulse in the last pass of
    /// [`passes_until`](Self::passes_until).
    pub(crate) fn largest_change(&self) -> f64 {
        self.largest_change
    }

    /// Whether any row with an impulse presses on a body no impulse moves (a wall, a
    /// static or a kinematic body: no inverse mass), which then carries that part of the
    /// solve's push.
    pub(crate) fn presses_on_static(&self) -> bool {
        let fixed = |slot: u32| self.bodies[slot as usize].inv_mass == 0.0;
        (self.rows.iter()).any(|r| r.acc > 0.0 && (fixed(r.a) || fixed(r.b)))
    }

    /// Whether the last pass changed no body's velocity by more than `tolerance`.
    pub(crate) fn converged(&self, tolerance: f64) -> bool {
        self.largest_change <= tolerance
    }

    /// How much faster than it allows row `r` closes now (negative: slower, or opening).
    #[inline(always)]
    fn closing(&self, r: &Row) -> f64 {
        let (va, vb) = (self.bodies[r.a as usize].vel, self.bodies[r.b as usize].vel);
        closing_speed(va, vb, r.normal, r.allowed)
    }

    /// One accumulated, clamped impulse on row `k` so that it stops closing (its step
    /// times `relaxation`).
    #[inline(always)]
    fn normal_row<const TRACK: bool>(&mut self, k: usize, relaxation: f64) {
        let r = self.rows[k];
        if r.inv_w == 0.0 {
            return;
        }
        let (a, b) = (r.a as usize, r.b as usize);
        let delta = normal_step(r.acc, self.closing(&r), r.inv_w, relaxation);
        if TRACK {
            let (wa, wb) = (self.bodies[a].inv_mass, self.bodies[b].inv_mass);
            self.largest_change = self.largest_change.max(delta.abs() * wa.max(wb));
        }
        self.apply_normal(k, delta);
    }

    /// Row `k` of a solve with rough contacts, its two bodies read and written once
    /// ([`rough_step`]).
    #[inline(always)]
    fn rough_row<const TRACK: bool>(&mut self, k: usize, relaxation: f64) {
        let (r, q) = (&mut self.rows[k], &mut self.rough[k]);
        let (sa, sb) = (r.a as usize, r.b as usize);
        let (mut a, mut b) = (self.bodies[sa], self.bodies[sb]);
        let change = rough_step(r, q, &mut a, &mut b, relaxation);
        if TRACK {
            self.largest_change = self.largest_change.max(change);
        }
        (self.bodies[sa], self.bodies[sb]) = (a, b);
    }

    /// Adds `delta` to row `k`'s normal impulse and to its bodies' velocities.
    fn apply_normal(&mut self, k: usize, delta: f64) {
        let r = &mut self.rows[k];
        r.acc += delta;
        let (sa, sb) = (r.a as usize, r.b as usize);
        let (mut a, mut b) = (self.bodies[sa], self.bodies[sb]);
        push_normal(&mut a, &mut b, r.normal, delta);
        (self.bodies[sa], self.bodies[sb]) = (a, b);
    }

    /// Adds `delta` to row `k`'s friction impulse and to its bodies' velocities and spins
    /// ([`push_tangent`]).
    fn apply_tangent(&mut self, k: usize, delta: f64) {
        let (r, q) = (self.rows[k], &mut self.rough[k]);
        let (sa, sb) = (r.a as usize, r.b as usize);
        let (mut a, mut b) = (self.bodies[sa], self.bodies[sb]);
        push_tangent(&mut a, &mut b, q, r.normal, delta);
        (self.bodies[sa], self.bodies[sb]) = (a, b);
    }

    /// Adds `delta` to row `k`'s rolling-resistance impulse and to its bodies' spins
    /// ([`push_rolling`]).
    fn apply_rolling(&mut self, k: usize, delta: f64) {
        let (r, q) = (self.rows[k], &mut self.rough[k]);
        let (sa, sb) = (r.a as usize, r.b as usize);
        let (mut a, mut b) = (self.bodies[sa], self.bodies[sb]);
        push_rolling(&mut a, &mut b, q, delta);
        (self.bodies[sa], self.bodies[sb]) = (a, b);
    }

    /// Position correction (the solver's split impulses): shifts of the dynamic bodies,
    /// found by `passes` Gauss–Seidel passes over the rows of `contacts` in position
    /// units, that take each overlapping contact (its depth at the start of the step)
    /// `rate` of the way back to touching, and let no contact within the slop close to
    /// an overlap for it. A shift moves positions only, never velocities, and is at most
    /// `limit` times its body's radius. Pushes `(body, shift)` for each body that moves
    /// onto `out`. Needs the rows loaded ([`load`](Self::load)) and changes none of their
    /// impulses or velocities.
    pub(crate) fn shifts(
        &mut self,
        contacts: &[SolverContact],
        b: &Bodies,
        rate: f64,
        passes: u32,
        limit: f64,
        out: &mut Vec<(u32, DVec2)>,
    ) {
        let mut any = false;
        self.shift_rows.clear();
        self.shift_rows
            .extend(self.rows.iter().zip(contacts).map(|(r, c)| {
                any |= c.depth > 0.0;
                ShiftRow {
                    a: r.a,
                    b: r.b,
                    normal: r.normal,
                    inv_w: r.inv_w,
                    // An overlap: `rate` of it back; a gap: it may close, to touching.
                    wanted: if c.depth > 0.0 {
                        rate * c.depth
                    } else {
                        c.depth
                    },
                    pushed: 0.0,
                }
            }));
        if !any {
            return;
        }
        self.shift.clear();
        self.shift
            .extend(self.bodies.iter().map(|s| (DVec2::ZERO, s.inv_mass)));
        let shift = &mut self.shift[..];
        let order = Lanes::new(self.shift_rows.len());
        let rows = &mut self.shift_rows[..];
        for _ in 0..passes {
            order.for_each(|k| {
                let r = &mut rows[k];
                let (a, sb) = (r.a as usize, r.b as usize);
                let gained = (shift[sb].0 - shift[a].0).dot(r.normal);
                let total = (r.pushed + (r.wanted - gained) * r.inv_w).max(0.0);
                let delta = total - r.pushed;
                r.pushed = total;
                shift[a].0 -= r.normal * (delta * shift[a].1);
                shift[sb].0 += r.normal * (delta * shift[sb].1);
            });
        }
        for (s, &i) in self.members.iter().enumerate().skip(1) {
            let (d, w) = self.shift[s];
            if d != DVec2::ZERO && w > 0.0 {
                let most = limit * b.hot[i as usize].radius;
                out.push((i, d.clamp_length_max(most)));
            }
        }
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
                if body.omega != 0.0 {
                    b.spin_mut(i).omega = body.omega;
                } else {
                    // A zero spin keeps `Bodies::spinning` true to what it says.
                    b.spin[i].omega = 0.0;
                }
            }
        }
        external
    }
}
