//! A large smooth solve's passes in colour order, on the executor's threads.
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
use super::{ContactRows, Row, closing_speed, normal_step};
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
    /// The rows in `order`, and the slots' velocities and inverse masses.
    rows: Vec<SharedRow>,
    slots: Vec<SharedSlot>,
    /// Largest change of a velocity in each pass (bits of a non-negative `f64`).
    largest: Vec<AtomicU64>,
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

/// A slot as the threads share it: velocity (atomics) and inverse mass, on one half of
/// a cache line.
#[derive(Debug)]
#[repr(align(32))]
struct SharedSlot {
    vel: [AtomicU64; 2],
    inv_mass: f64,
}

/// Rows of at most this many colours are coloured; the rest share the last colour,
/// which is never cut (its rows may share a body).
const COLOURS: usize = 64;

impl ContactRows {
    /// Colours the loaded rows ([`Colours`]) when the solve is large and smooth; clears
    /// the colouring otherwise.
    pub(super) fn colour(&mut self) {
        let c = &mut self.colours;
        c.order.clear();
        c.ends.clear();
        if self.rows.len() < COLOURED_MIN_ROWS || !self.rough.is_empty() {
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
        c.slots.clear();
        c.slots.extend(self.bodies.iter().map(|s| SharedSlot {
            vel: s.vel.to_array().map(|v| AtomicU64::new(v.to_bits())),
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
        let converged = |pass: usize| {
            track
                && pass >= min
                && f64::from_bits(c.largest[pass - 1].load(Ordering::Relaxed)) <= tolerance
        };
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
            self.largest_change = f64::from_bits(c.largest[run - 1].load(Ordering::Relaxed));
        }
        for (r, &k) in c.rows.iter().zip(&c.order) {
            self.rows[k as usize].acc = f64::from_bits(r.acc.load(Ordering::Relaxed));
        }
        for (s, shared) in self.bodies.iter_mut().zip(&c.slots) {
            s.vel = shared.velocity();
        }
        run as u32
    }
}

impl SharedSlot {
    #[inline(always)]
    fn velocity(&self) -> DVec2 {
        let [x, y] = self
            .vel
            .each_ref()
            .map(|a| f64::from_bits(a.load(Ordering::Relaxed)));
        DVec2::new(x, y)
    }

    #[inline(always)]
    fn set_velocity(&self, v: DVec2) {
        self.vel[0].store(v.x.to_bits(), Ordering::Relaxed);
        self.vel[1].store(v.y.to_bits(), Ordering::Relaxed);
    }
}

impl Colours {
    /// One unit's rows, as [`ContactRows::normal_row`] updates them; returns the largest
    /// change of a body's velocity.
    #[inline(always)]
    fn unit_pass(&self, unit: std::ops::Range<usize>, relaxation: f64, track: bool) -> f64 {
        let mut largest = 0.0f64;
        for r in &self.rows[unit] {
            if r.inv_w == 0.0 {
                continue;
            }
            let (a, b) = (&self.slots[r.a as usize], &self.slots[r.b as usize]);
            let (va, vb) = (a.velocity(), b.velocity());
            let acc = f64::from_bits(r.acc.load(Ordering::Relaxed));
            let closing = closing_speed(va, vb, r.normal, r.allowed);
            let delta = normal_step(acc, closing, r.inv_w, relaxation);
            let (wa, wb) = (a.inv_mass, b.inv_mass);
            if track {
                largest = largest.max(delta.abs() * wa.max(wb));
            }
            r.acc.store((acc + delta).to_bits(), Ordering::Relaxed);
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
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{RowBody, team::Two};
    use super::*;
    use crate::parallel::{Executor, ExecutorHandle, Serial};
    use std::sync::Arc;

    /// A triangular lattice `wide` bodies wide and `high` rows high standing on a floor
    /// between two walls (all slot 0), each body resting on the two below it (a small gap
    /// sideways, as in a jittered pile), every body moving down at 0.95–1.05 units/s:
    /// the passes must bring every body to rest. (Coloured, with no impulse yet.)
    pub(in crate::contact_rows) fn stack(wide: usize, high: usize) -> ContactRows {
        let mut rows = ContactRows::default();
        rows.bodies.push(RowBody::default());
        let slot = |x: usize, y: usize| (1 + y * wide + x) as u32;
        let mut seed = 3u64;
        for _ in 0..wide * high {
            let jitter = crate::scenes::SplitMix64::next_f64(&mut seed) - 0.5;
            rows.bodies.push(RowBody {
                vel: DVec2::new(0.0, -1.0 - 0.1 * jitter),
                inv_mass: 1.0,
                omega: 0.0,
            });
        }
        let (c, s) = (0.5, 0.75f64.sqrt());
        let mut row = |a: u32, b: u32, normal: DVec2, w: f64| {
            rows.rows.push(Row {
                a,
                b,
                normal,
                allowed: 0.0,
                acc: 0.0,
                inv_w: 1.0 / w,
            })
        };
        for y in 0..high {
            for x in 0..wide {
                if y == 0 {
                    row(0, slot(x, 0), DVec2::Y, 1.0);
                }
                // Side walls.
                if x == 0 {
                    row(0, slot(x, y), DVec2::X, 1.0);
                }
                if x + 1 == wide {
                    row(0, slot(x, y), -DVec2::X, 1.0);
                }
                if y + 1 < high {
                    // Odd rows sit half a body to the right.
                    // Odd rows sit half a body to the right of even ones.
                    let (up_left, up_right) = if y % 2 == 0 {
                        (x.checked_sub(1), Some(x))
                    } else {
                        (Some(x), (x + 1 < wide).then_some(x + 1))
                    };
                    if let Some(l) = up_left {
                        row(slot(x, y), slot(l, y + 1), DVec2::new(-c, s), 2.0);
                    }
                    if let Some(r) = up_right {
                        row(slot(x, y), slot(r, y + 1), DVec2::new(c, s), 2.0);
                    }
                }
            }
        }
        rows.colour();
        rows
    }

    fn with(executor: Arc<dyn Executor>, mut rows: ContactRows) -> ContactRows {
        rows.executor = ExecutorHandle {
            executor,
            min_bodies: 0,
        };
        rows
    }

    #[test]
    fn no_two_rows_of_a_colour_share_a_moving_body() {
        let rows = stack(400, 11);
        assert!(rows.rows.len() >= COLOURED_MIN_ROWS, "{}", rows.rows.len());
        assert!(rows.coloured());
        let c = &rows.colours;
        let mut seen = vec![false; rows.rows.len()];
        let mut start = 0;
        for &end in &c.ends {
            let mut used = vec![false; rows.bodies.len()];
            for &k in &c.order[start..end] {
                assert!(!std::mem::replace(&mut seen[k as usize], true));
                let r = rows.rows[k as usize];
                for s in [r.a, r.b].into_iter().filter(|&s| s != 0) {
                    assert!(!std::mem::replace(&mut used[s as usize], true), "slot {s}");
                }
            }
            start = end;
        }
        assert!(seen.iter().all(|&s| s));
        // Each body is in up to four rows (two supports, two supported): at least four
        // colours, and greedy colouring needs at most a few more.
        assert!((4..=8).contains(&c.ends.len()), "{} colours", c.ends.len());
    }

    /// The same impulses, velocities and passes, bit for bit, on one thread and on two.
    #[test]
    fn coloured_passes_are_the_same_on_two_threads() {
        let bits = |r: &ContactRows| {
            (r.rows.iter().map(|r| r.acc.to_bits()))
                .chain(
                    r.bodies
                        .iter()
                        .flat_map(|b| [b.vel.x.to_bits(), b.vel.y.to_bits()]),
                )
                .collect::<Vec<_>>()
        };
        let mut one = with(Arc::new(Serial), stack(400, 11));
        let mut two = with(Arc::new(Two), stack(400, 11));
        // A tolerance that stops the passes part way (after 148 of them).
        let n1 = one.passes_until(4, 300, 0.01, 1.0);
        assert_eq!(n1, two.passes_until(4, 300, 0.01, 1.0));
        assert!((5..300).contains(&n1), "{n1} passes");
        assert_eq!(
            one.largest_change().to_bits(),
            two.largest_change().to_bits()
        );
        assert_eq!(bits(&one), bits(&two));
        // Fixed, over-relaxed passes too.
        one.passes(7, 1.4);
        two.passes(7, 1.4);
        assert_eq!(bits(&one), bits(&two));
    }

    /// 2000 columns of 5 bodies of different masses falling onto a floor at about
    /// 1 unit/s: every body stops, and each column's floor impulse is the column's
    /// momentum, Σ m v.
    #[test]
    fn coloured_passes_stop_columns_on_a_floor() {
        let (columns, high) = (2000, 5);
        let mut rows = ContactRows::default();
        rows.bodies.push(RowBody::default());
        let mut seed = 11u64;
        let mut momentum = vec![0.0; columns];
        for m in &mut momentum {
            for y in 0..high {
                let mut rnd = || crate::scenes::SplitMix64::next_f64(&mut seed);
                let (mass, speed) = (0.5 + 1.5 * rnd(), 0.95 + 0.1 * rnd());
                let s = rows.bodies.len() as u32;
                *m += mass * speed;
                rows.bodies.push(RowBody {
                    vel: DVec2::new(0.0, -speed),
                    inv_mass: 1.0 / mass,
                    omega: 0.0,
                });
                let below = if y == 0 { 0 } else { s - 1 };
                let w = rows.bodies[below as usize].inv_mass + 1.0 / mass;
                rows.rows.push(Row {
                    a: below,
                    b: s,
                    normal: DVec2::Y,
                    allowed: 0.0,
                    acc: 0.0,
                    inv_w: 1.0 / w,
                });
            }
        }
        rows.colour();
        assert!(rows.coloured());
        let mut rows = with(Arc::new(Two), rows);
        let n = rows.passes_until(4, 1000, 1e-12, 1.0);
        assert!(n < 1000, "{n} passes");
        for b in &rows.bodies[1..] {
            assert!(b.vel.length() < 1e-9, "{:?}", b.vel);
        }
        for (x, m) in momentum.iter().enumerate() {
            let floor = rows.rows[x * high].acc;
            assert!(
                (floor - m).abs() < 1e-9 * m,
                "column {x}: {floor} against {m}"
            );
        }
    }
}
