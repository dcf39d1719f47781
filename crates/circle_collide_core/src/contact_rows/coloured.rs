//! A large solve's passes in colour order, on the executor's threads.
//!
//! The rows are coloured greedily so that no two rows of one colour share a moving body;
//! a pass takes the colours in turn, and within a colour the rows are independent, so
//! they can be cut into chunks that run at once on different threads. Each row still
//! reads the latest velocities (Gauss–Seidel), and the result is the same, bit for bit,
//! whatever the number of threads and however the chunks fall on them.
//!
//! All the passes of one call are a single call of the executor: units (pass, colour,
//! chunk) run by [`team::run_groups`], each colour a group. The velocities and impulses
//! live in atomics for the duration (relaxed loads and stores, plain moves on common
//! processors); the counter of finished units orders them.

use super::team;
use super::{ContactRows, RoughRow, Row, RowBody, closing_speed, normal_step, rough_step};
use glam::DVec2;
use std::sync::atomic::{AtomicU64, Ordering};

/// Solves of at least this many rows, all smooth, take them in colour order
/// ([`ContactRows::colour`]); smaller ones keep the [`Lanes`](super::Lanes) order. A pass
/// over this many rows takes about 60 µs on one thread here, a few times what handing
/// work to a second thread costs; and the piles and crowds of up to about 3000 bodies
/// (solves of 5000–7000 rows) keep the trajectories they had before the colour order.
/// Lowered to 2048 rows (colours cut from 256), the crowd of 2000 (core, two threads,
/// ~3900 contacts) took 2.95 ms a step against 2.37: its colours' chunks are too small.
pub(super) const COLOURED_MIN_ROWS: usize = crate::contacts::COLOURED_CONTACTS;

/// As [`COLOURED_MIN_ROWS`] for a solve with rough rows
/// ([`ROUGH_COLOURED_CONTACTS`](crate::contacts::ROUGH_COLOURED_CONTACTS)).
pub(super) const ROUGH_COLOURED_MIN_ROWS: usize = crate::contacts::ROUGH_COLOURED_CONTACTS;

/// A colour of at least this many rows is cut into one chunk per thread; a smaller one
/// is a single unit (its rows cost less than the hand-over).
const MIN_SPLIT_ROWS: usize = 1024;

/// The colours' scratch, kept between steps for its allocations.
#[derive(Debug, Default)]
pub(super) struct Colours {
    /// Row index of each position, colour after colour (empty: not coloured).
    order: Vec<u32>,
    /// End position of each colour in `order`.
    ends: Vec<usize>,
    /// Per slot: the colours its rows took so far (while colouring).
    mask: Vec<u64>,
    /// Per row: its colour (while colouring).
    colour_of: Vec<u8>,
    /// The rows in `order`, their friction parts (a rough solve; else empty), and the
    /// slots' velocities, spins and inverse masses.
    rows: Vec<SharedRow>,
    rough: Vec<SharedRough>,
    slots: Vec<SharedSlot>,
    /// Largest change of a velocity in each pass (bits of a non-negative `f64`).
    largest: Vec<AtomicU64>,
}

impl Colours {
    /// Bytes of heap this scratch holds (capacities).
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.order)
            + cap(&self.ends)
            + cap(&self.mask)
            + cap(&self.colour_of)
            + cap(&self.rows)
            + cap(&self.rough)
            + cap(&self.slots)
            + cap(&self.largest)
    }
}

impl Clone for Colours {
    /// Scratch only: a clone starts empty.
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// A row as the threads share it: its accumulated impulse an atomic.
#[derive(Debug)]
struct SharedRow {
    a: u32,
    b: u32,
    normal: DVec2,
    allowed: f64,
    inv_w: f64,
    acc: AtomicU64,
}

/// The friction part of a rough row as the threads share it: the row's constants
/// ([`RoughRow`]; its own impulse fields unused) and its accumulated friction and rolling
/// impulses, atomics.
#[derive(Debug)]
struct SharedRough {
    row: RoughRow,
    tangent: AtomicU64,
    roll: AtomicU64,
}

/// A slot as the threads share it: velocity and spin (atomics) and inverse mass, on one
/// half of a cache line.
#[derive(Debug)]
#[repr(align(32))]
struct SharedSlot {
    vel: [AtomicU64; 2],
    omega: AtomicU64,
    inv_mass: f64,
}

/// Rows of at most this many colours are coloured; the rest share the last colour,
/// which is never cut (its rows may share a body).
const COLOURS: usize = 64;

impl ContactRows {
    /// Colours the loaded rows ([`Colours`]) when the solve is large (a rough one from
    /// [`ROUGH_COLOURED_MIN_ROWS`] rows); clears the colouring otherwise.
    pub(super) fn colour(&mut self) {
        let c = &mut self.colours;
        c.order.clear();
        c.ends.clear();
        let least = if self.rough.is_empty() {
            COLOURED_MIN_ROWS
        } else {
            ROUGH_COLOURED_MIN_ROWS
        };
        if self.rows.len() < least {
            return;
        }
        c.mask.clear();
        c.mask.resize(self.bodies.len(), 0);
        c.colour_of.clear();
        let mut counts = [0usize; COLOURS + 1];
        for r in &self.rows {
            let (a, b) = (r.a as usize, r.b as usize);
            let moving = |s: usize| self.bodies[s].inv_mass > 0.0;
            let used =
                if moving(a) { c.mask[a] } else { 0 } | if moving(b) { c.mask[b] } else { 0 };
            let colour = ((!used).trailing_zeros() as usize).min(COLOURS);
            if colour < COLOURS {
                for s in [a, b] {
                    if moving(s) {
                        c.mask[s] |= 1 << colour;
                    }
                }
            }
            counts[colour] += 1;
            c.colour_of.push(colour as u8);
        }
        let used = counts.iter().rposition(|&n| n > 0).map_or(0, |k| k + 1);
        let mut next = Vec::with_capacity(used);
        let mut sum = 0;
        for &n in &counts[..used] {
            next.push(sum);
            sum += n;
            c.ends.push(sum);
        }
        c.order.resize(self.rows.len(), 0);
        for (k, &colour) in c.colour_of.iter().enumerate() {
            c.order[next[colour as usize]] = k as u32;
            next[colour as usize] += 1;
        }
    }

    /// Whether the loaded rows are coloured (their passes go through
    /// [`coloured_passes`](Self::coloured_passes)).
    pub(super) fn coloured(&self) -> bool {
        !self.colours.order.is_empty()
    }

    /// As [`passes_until`](Self::passes_until) (with `track`; else exactly `max` passes),
    /// in colour order on the executor's threads.
    pub(super) fn coloured_passes(
        &mut self,
        min: u32,
        max: u32,
        tolerance: f64,
        relaxation: f64,
        track: bool,
    ) -> u32 {
        if max == 0 {
            return 0;
        }
        let executor = self.executor.executor.clone();
        let jobs = executor.threads().max(1);
        let c = &mut self.colours;
        c.rows.clear();
        c.rows.extend(c.order.iter().map(|&k| {
            let r: Row = self.rows[k as usize];
            SharedRow {
                a: r.a,
                b: r.b,
                normal: r.normal,
                allowed: r.allowed,
                inv_w: r.inv_w,
                acc: AtomicU64::new(r.acc.to_bits()),
            }
        }));
        c.rough.clear();
        if !self.rough.is_empty() {
            let shared = |k: &u32| SharedRough::new(&self.rough[*k as usize]);
            c.rough.extend(c.order.iter().map(shared));
        }
        c.slots.clear();
        c.slots.extend(self.bodies.iter().map(|s| SharedSlot {
            vel: s.vel.to_array().map(|v| AtomicU64::new(v.to_bits())),
            omega: AtomicU64::new(s.omega.to_bits()),
            inv_mass: s.inv_mass,
        }));
        c.largest.clear();
        c.largest.extend((0..max).map(|_| AtomicU64::new(0)));
        // The units of each colour of a pass.
        let mut units = Vec::new();
        let mut chunks_of = Vec::new();
        let mut start = 0;
        for (colour, &end) in c.ends.iter().enumerate() {
            let len = end - start;
            let last = colour + 1 == c.ends.len() && c.ends.len() > COLOURS;
            let chunks = if len >= MIN_SPLIT_ROWS && !last {
                jobs
            } else {
                1
            };
            chunks_of.push(chunks);
            units.push(
                (0..chunks)
                    .map(|k| (start + len * k / chunks)..(start + len * (k + 1) / chunks))
                    .collect::<Vec<_>>(),
            );
            start = end;
        }
        let min = min.max(1) as usize;
        let c = &*c;
        let converged =
            |pass: usize| track && pass >= min && load(&c.largest[pass - 1]) <= tolerance;
        team::run_groups(
            &*executor,
            &chunks_of,
            max as usize,
            // A pass runs unless the one before converged.
            &|pass, colour| colour > 0 || pass == 0 || !converged(pass),
            &|pass, colour, unit| {
                let largest = c.unit_pass(units[colour][unit].clone(), relaxation, track);
                if track {
                    c.largest[pass].fetch_max(largest.to_bits(), Ordering::Relaxed);
                }
            },
        );
        let run = (min..=max as usize)
            .find(|&p| converged(p))
            .unwrap_or(max as usize);
        let c = &self.colours;
        if track {
            self.largest_change = load(&c.largest[run - 1]);
        }
        for (r, &k) in c.rows.iter().zip(&c.order) {
            self.rows[k as usize].acc = load(&r.acc);
        }
        for (q, &k) in c.rough.iter().zip(&c.order) {
            let row = &mut self.rough[k as usize];
            (row.tangent, row.roll) = (load(&q.tangent), load(&q.roll));
        }
        for (s, shared) in self.bodies.iter_mut().zip(&c.slots) {
            s.vel = shared.velocity();
            s.omega = load(&shared.omega);
        }
        run as u32
    }
}

/// The `f64` an atomic holds the bits of.
#[inline(always)]
fn load(a: &AtomicU64) -> f64 {
    f64::from_bits(a.load(Ordering::Relaxed))
}

/// Stores `v`'s bits in an atomic.
#[inline(always)]
fn store(a: &AtomicU64, v: f64) {
    a.store(v.to_bits(), Ordering::Relaxed);
}

impl SharedRough {
    fn new(q: &RoughRow) -> Self {
        Self {
            row: *q,
            tangent: AtomicU64::new(q.tangent.to_bits()),
            roll: AtomicU64::new(q.roll.to_bits()),
        }
    }

    /// The row as [`rough_step`] takes it, with its impulses as they are now.
    #[inline(always)]
    fn get(&self) -> RoughRow {
        RoughRow {
            tangent: load(&self.tangent),
            roll: load(&self.roll),
            ..self.row
        }
    }
}

impl SharedRow {
    /// The row as [`rough_step`] takes it, with its impulse as it is now.
    #[inline(always)]
    fn get(&self) -> Row {
        Row {
            a: self.a,
            b: self.b,
            normal: self.normal,
            allowed: self.allowed,
            inv_w: self.inv_w,
            acc: load(&self.acc),
        }
    }
}

impl SharedSlot {
    /// The slot as [`rough_step`] takes it.
    #[inline(always)]
    fn body(&self) -> RowBody {
        RowBody {
            vel: self.velocity(),
            inv_mass: self.inv_mass,
            omega: load(&self.omega),
        }
    }

    /// Stores a moving body's new velocity and spin (a fixed body's never change: many
    /// rows of a colour may share it).
    #[inline(always)]
    fn set_body(&self, body: &RowBody) {
        if self.inv_mass > 0.0 {
            self.set_velocity(body.vel);
            store(&self.omega, body.omega);
        }
    }

    #[inline(always)]
    fn velocity(&self) -> DVec2 {
        let [x, y] = self.vel.each_ref().map(load);
        DVec2::new(x, y)
    }

    #[inline(always)]
    fn set_velocity(&self, v: DVec2) {
        store(&self.vel[0], v.x);
        store(&self.vel[1], v.y);
    }
}

impl Colours {
    /// One unit's rows, as [`ContactRows::normal_row`] (a rough solve:
    /// [`ContactRows::rough_row`]) updates them; returns the largest change of a body's
    /// velocity.
    #[inline(always)]
    fn unit_pass(&self, unit: std::ops::Range<usize>, relaxation: f64, track: bool) -> f64 {
        if !self.rough.is_empty() {
            return self.rough_unit_pass(unit, relaxation);
        }
        let mut largest = 0.0f64;
        for r in &self.rows[unit] {
            if r.inv_w == 0.0 {
                continue;
            }
            let (a, b) = (&self.slots[r.a as usize], &self.slots[r.b as usize]);
            let (va, vb) = (a.velocity(), b.velocity());
            let acc = load(&r.acc);
            let closing = closing_speed(va, vb, r.normal, r.allowed);
            let delta = normal_step(acc, closing, r.inv_w, relaxation);
            let (wa, wb) = (a.inv_mass, b.inv_mass);
            if track {
                largest = largest.max(delta.abs() * wa.max(wb));
            }
            store(&r.acc, acc + delta);
            // A static body's velocity never changes: no store (many rows share a wall).
            if wa > 0.0 {
                a.set_velocity(va - r.normal * (delta * wa));
            }
            if wb > 0.0 {
                b.set_velocity(vb + r.normal * (delta * wb));
            }
        }
        largest
    }

    /// One unit's rows of a rough solve ([`rough_step`]); returns the largest change of a
    /// body's velocity by a normal impulse.
    #[inline(always)]
    fn rough_unit_pass(&self, unit: std::ops::Range<usize>, relaxation: f64) -> f64 {
        let mut largest = 0.0f64;
        for (r, q) in self.rows[unit.clone()].iter().zip(&self.rough[unit]) {
            let (sa, sb) = (&self.slots[r.a as usize], &self.slots[r.b as usize]);
            let (mut a, mut b) = (sa.body(), sb.body());
            let (mut row, mut rough) = (r.get(), q.get());
            largest = largest.max(rough_step(&mut row, &mut rough, &mut a, &mut b, relaxation));
            store(&r.acc, row.acc);
            store(&q.tangent, rough.tangent);
            store(&q.roll, rough.roll);
            sa.set_body(&a);
            sb.set_body(&b);
        }
        largest
    }
}

#[cfg(test)]
pub(super) mod tests;
