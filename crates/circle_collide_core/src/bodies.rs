//! The store of the bodies of one step: one 64-byte record per body with everything the
//! event loop reads (one cache line per body touched), plus the cold per-body data.

use crate::body::{BodyDesc, InputIssues};
use crate::filter::Layers;
use crate::friction::Spin;
use crate::impulse::RestitutionCombine;
use glam::DVec2;
pub(crate) use hot::Hot;
use hot::*;

/// Fraction of its radius by which the box of a body that was in the contact solver last
/// step is widened on every side, beyond the slop, for the broad phase: the solver turns
/// such bodies at the start of the step, and a new path that stays within the widened
/// box needs no new pairs (no grid query, no new predictions). Without it, a jostling
/// pile or a steered crowd re-listed the neighbours of most of its bodies every step.
/// Measured (core, late-half medians): the jittered pile of 10,000 from 20.4 to 17.0 ms
/// per step, the steered crowd of 2000 event loop 2.3 → 1.7 ms (see
/// `docs/performance.md`).
pub const SPECULATIVE_MARGIN: f64 = 0.1;

/// Whether two boxes `(min, max)` overlap (touching counts).
#[inline]
pub(crate) fn boxes_overlap(a: (DVec2, DVec2), b: (DVec2, DVec2)) -> bool {
    a.0.cmple(b.1).all() && b.0.cmple(a.1).all()
}

/// The bodies of a simulation, indexed `0..len()` in the order they were added.
///
/// Read-only from outside the core; the accessors take a body index.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    pub(crate) hot: Vec<Hot>,
    pub(crate) restitution: Vec<f64>,
    /// How many bodies have a restitution below 1.
    pub(crate) inelastic: usize,
    pub(crate) layers: Vec<Layers>,
    /// Each body's stable key ([`BodyDesc::key`], or its index).
    pub(crate) keys: Vec<u64>,
    /// Each body's inverse mass when awake (`Hot::inv_mass` is 0 while it sleeps).
    pub(crate) awake_inv_mass: Vec<f64>,
    /// Seconds each body has stayed slower than the sleep speed.
    pub(crate) rest_time: Vec<f64>,
    /// Whether some rest time may be non-zero: when false, every one is 0 and a step in
    /// which no body rested need not visit them (a gas never does). Set when a body is
    /// added with a rest time and by `update_sleep` when a body rested or sleeps.
    pub(crate) some_rest: bool,
    /// Each body's rotation, friction and rolling resistance. Write a spin through
    /// [`spin_mut`](Self::spin_mut), which keeps [`spinning`](Self::spinning) true.
    pub(crate) spin: Vec<Spin>,
    /// Whether some body may have a non-zero spin or a turn pending in
    /// [`Spin::shift`]: when false, every spin is zero and the end of the step leaves
    /// the spin records unread (a frictionless world never loads them). Set by every
    /// writer of a spin, cleared by [`resolve`](crate::Simulation::resolve) when it finds
    /// none left.
    pub(crate) spinning: bool,
    /// Step time the swept boxes run to: the step's `dt` during a step, 0 once bodies
    /// are at the end of it.
    pub(crate) sweep_end: f64,
    /// Fraction of its radius each body's box is widened by on every side: the step's
    /// overlap slop, so every pair within the slop is listed, moving or not.
    pub(crate) margin: f64,
    /// The step's gravity: the acceleration of every flying body (zero when there is
    /// none, and then no body flies).
    pub(crate) gravity: DVec2,
}

impl Bodies {
    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.hot.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.hot.is_empty()
    }

    /// Removes every body, keeping the allocations.
    pub fn clear(&mut self) {
        self.hot.clear();
        self.restitution.clear();
        self.inelastic = 0;
        self.layers.clear();
        self.keys.clear();
        self.awake_inv_mass.clear();
        self.rest_time.clear();
        self.some_rest = false;
        self.spin.clear();
        self.spinning = false;
    }

    /// Moves every body of `other` after these (`other` is left empty, with its
    /// allocations).
    pub(crate) fn append(&mut self, other: &mut Bodies) {
        self.hot.append(&mut other.hot);
        self.restitution.append(&mut other.restitution);
        self.inelastic += std::mem::take(&mut other.inelastic);
        self.layers.append(&mut other.layers);
        self.keys.append(&mut other.keys);
        self.awake_inv_mass.append(&mut other.awake_inv_mass);
        self.rest_time.append(&mut other.rest_time);
        self.some_rest |= std::mem::take(&mut other.some_rest);
        self.spin.append(&mut other.spin);
        self.spinning |= std::mem::take(&mut other.spinning);
    }

    /// Makes room for `additional` more bodies.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.hot.reserve(additional);
        self.restitution.reserve(additional);
        self.layers.reserve(additional);
        self.keys.reserve(additional);
        self.awake_inv_mass.reserve(additional);
        self.rest_time.reserve(additional);
        self.spin.reserve(additional);
    }

    /// Appends an already sanitised body; returns its index: the body's index in the
    /// simulation counts from `offset` (a part added apart, then appended, starts after
    /// the bodies before it), and so does its key if it has none.
    pub(crate) fn push_numbered(&mut self, b: &BodyDesc, offset: u32) -> u32 {
        let index = offset + self.hot.len() as u32;
        let r = Record::of(b, index);
        self.inelastic += usize::from(r.restitution < 1.0);
        self.some_rest |= r.rest_time != 0.0;
        self.spinning |= r.spin.omega != 0.0;
        self.hot.push(r.hot);
        self.restitution.push(r.restitution);
        self.layers.push(r.layers);
        self.keys.push(r.key);
        self.awake_inv_mass.push(r.awake_inv_mass);
        self.rest_time.push(r.rest_time);
        self.spin.push(r.spin);
        index
    }

    /// Makes body `k` the already sanitised `b`, numbered `k` (its key if it has none),
    /// as [`push_numbered`](Self::push_numbered) adds it; leaves the counts of inelastic,
    /// resting and spinning bodies to the caller.
    pub(crate) fn set_numbered(&mut self, k: usize, b: &BodyDesc) {
        let r = Record::of(b, k as u32);
        self.hot[k] = r.hot;
        self.restitution[k] = r.restitution;
        self.layers[k] = r.layers;
        self.keys[k] = r.key;
        self.awake_inv_mass[k] = r.awake_inv_mass;
        self.rest_time[k] = r.rest_time;
        self.spin[k] = r.spin;
    }

    /// Replaces these bodies with `old`'s bodies `picks[0]`, `picks[1]`, … (each index
    /// below `old.len()`), each made what a description of its state would add: its rest
    /// time through `rest_time`, the step's marks and pending turn cleared, a sleeping
    /// body's inverse mass and inertia, velocity and spin 0, and [`BodyDesc::repair`]'s
    /// repairs of what a step changes (a speed above `max_speed` clamped), pushed onto
    /// `issues` with the body's new index plus `offset`. Returns how many bodies are
    /// inelastic, have a rest time, spin. One pass per array.
    pub(crate) fn keep_from(
        &mut self,
        old: &Bodies,
        picks: &[u32],
        rest_time: &impl Fn(f64) -> f64,
        max_speed: f64,
        (issues, offset): (&mut Vec<(u32, InputIssues)>, u32),
    ) -> [usize; 3] {
        fn pick<T: Copy>(to: &mut Vec<T>, from: &[T], picks: &[u32]) {
            to.clear();
            to.extend(picks.iter().map(|&j| from[j as usize]));
        }
        pick(&mut self.layers, &old.layers, picks);
        pick(&mut self.keys, &old.keys, picks);
        pick(&mut self.awake_inv_mass, &old.awake_inv_mass, picks);
        pick(&mut self.restitution, &old.restitution, picks);
        let inelastic = self.restitution.iter().filter(|&&e| e < 1.0).count();
        self.rest_time.clear();
        self.rest_time.extend(picks.iter().map(|&j| {
            let rest = rest_time(old.rest_time[j as usize]);
            if rest.is_finite() && rest >= 0.0 {
                rest
            } else {
                0.0
            }
        }));
        let resting = self.rest_time.iter().filter(|&&t| t != 0.0).count();
        let mut spinning = 0;
        self.hot.clear();
        self.spin.clear();
        self.hot.reserve(picks.len());
        self.spin.reserve(picks.len());
        for (k, &j) in picks.iter().enumerate() {
            let (mut hot, mut spin) = (old.hot[j as usize], old.spin[j as usize]);
            let motion = (&mut hot.vel, &mut spin.omega, &mut spin.angle);
            let repaired = crate::body::repair_motion(motion, hot.radius, max_speed);
            if repaired != InputIssues::NONE {
                issues.push((offset + k as u32, repaired));
            }
            hot.flags &= DESCRIBED;
            hot.time = 0.0;
            hot.version = 0;
            if hot.flags & SLEEPING != 0 {
                (hot.vel, hot.inv_mass) = (DVec2::ZERO, 0.0);
                (spin.omega, spin.inv_inertia) = (0.0, 0.0);
            } else {
                (hot.inv_mass, spin.inv_inertia) =
                    (old.awake_inv_mass[j as usize], spin.awake_inv_inertia);
            }
            spin.shift = 0.0;
            spinning += usize::from(spin.omega != 0.0);
            self.hot.push(hot);
            self.spin.push(spin);
        }
        [inelastic, resting, spinning]
    }

    /// Whether body `k` is inelastic, has a rest time, spins (what
    /// [`inelastic`](Self::inelastic), [`some_rest`](Self::some_rest) and
    /// [`spinning`](Self::spinning) count or note).
    #[inline]
    pub(crate) fn counts_of(&self, k: usize) -> [bool; 3] {
        [
            self.restitution[k] < 1.0,
            self.rest_time[k] != 0.0,
            self.spin[k].omega != 0.0,
        ]
    }

    /// Whether body `i`'s angle changed at the end of the last step (it spun, or its spin
    /// changed during the step): a body that did not turn kept the angle it was added
    /// with.
    #[inline]
    pub fn turned(&self, i: usize) -> bool {
        self.hot[i].flags & TURNED != 0
    }

    /// Body `i`'s spin record to write (marks the world as [`spinning`](Self::spinning)).
    #[inline]
    pub(crate) fn spin_mut(&mut self, i: usize) -> &mut Spin {
        self.spinning = true;
        &mut self.spin[i]
    }

    /// Wakes body `i` if it sleeps: it gets its mass back and its rest time starts anew.
    /// Returns whether it slept.
    pub(crate) fn wake(&mut self, i: usize) -> bool {
        let h = &mut self.hot[i];
        if !h.sleeping() {
            return false;
        }
        h.flags &= !SLEEPING;
        h.inv_mass = self.awake_inv_mass[i];
        self.rest_time[i] = 0.0;
        let spin = &mut self.spin[i];
        spin.inv_inertia = spin.awake_inv_inertia;
        true
    }

    /// Puts the dynamic body `i` to sleep: it stops and is simulated as static.
    pub(crate) fn fall_asleep(&mut self, i: usize) {
        let h = &mut self.hot[i];
        h.flags |= SLEEPING;
        h.inv_mass = 0.0;
        h.vel = DVec2::ZERO;
        let spin = &mut self.spin[i];
        spin.inv_inertia = 0.0;
        spin.omega = 0.0;
    }

    /// Stable key of body `i` ([`BodyDesc::key`], or the index it was added at).
    pub fn key(&self, i: usize) -> u64 {
        self.keys[i]
    }

    /// Whether body `i` is asleep (it stands still, simulated as static, until woken).
    pub fn is_sleeping(&self, i: usize) -> bool {
        self.hot[i].sleeping()
    }

    /// Seconds body `i` has stayed slower than the sleep speed (see
    /// [`StepConfig::sleep`](crate::StepConfig::sleep)); kept while it sleeps.
    pub fn rest_time(&self, i: usize) -> f64 {
        // Every rest time is 0 while no body rests: the array stays unread.
        if self.some_rest {
            self.rest_time[i]
        } else {
            0.0
        }
    }

    /// Centre of body `i` (valid after a full step).
    pub fn position(&self, i: usize) -> DVec2 {
        self.hot[i].pos
    }

    /// Velocity of body `i`.
    pub fn velocity(&self, i: usize) -> DVec2 {
        self.hot[i].vel
    }

    /// Angular velocity of body `i`, rad/s counter-clockwise.
    pub fn angular_velocity(&self, i: usize) -> f64 {
        // Every spin is zero while nothing spins: the record stays unread.
        if self.spinning {
            self.spin[i].omega
        } else {
            0.0
        }
    }

    /// Orientation of body `i`, radians counter-clockwise (valid after a full step): its
    /// [`BodyDesc::angle`] plus what it turned since.
    pub fn angle(&self, i: usize) -> f64 {
        self.spin[i].angle
    }

    /// Moment of inertia of body `i` (infinite for a static body; a sleeping body's
    /// awake one).
    pub fn inertia(&self, i: usize) -> f64 {
        1.0 / self.spin[i].awake_inv_inertia
    }

    /// Coulomb friction coefficient of body `i`.
    pub fn friction(&self, i: usize) -> f64 {
        self.spin[i].friction
    }

    /// Rolling resistance of body `i`.
    pub fn rolling_resistance(&self, i: usize) -> f64 {
        self.spin[i].rolling
    }

    /// Radius of body `i`.
    pub fn radius(&self, i: usize) -> f64 {
        self.hot[i].radius
    }

    /// Inverse mass of body `i` (0 for a static body; a sleeping body's awake one).
    pub fn inverse_mass(&self, i: usize) -> f64 {
        self.awake_inv_mass[i]
    }

    /// Restitution coefficient of body `i`.
    pub fn restitution(&self, i: usize) -> f64 {
        self.restitution[i]
    }

    /// The restitution of the pair of bodies `i` and `j`, their coefficients combined by
    /// `combine`.
    #[inline]
    pub(crate) fn pair_restitution(&self, combine: RestitutionCombine, i: usize, j: usize) -> f64 {
        combine.combine(self.restitution[i], self.restitution[j])
    }

    /// Whether body `i` is a sensor.
    pub fn is_sensor(&self, i: usize) -> bool {
        self.hot[i].sensor()
    }

    /// Whether body `i` has, bit for bit, the collision properties that `desc` (a sound
    /// description: see [`BodyDesc::sanitize`]) would give it: its mass and moment of
    /// inertia, friction, rolling resistance, layers and sensor flag — not its place,
    /// motion, radius, restitution, key or sleep. Tells a game that wrote a body's
    /// properties again, unchanged, from one that changed them. `false` for an `i` out of
    /// range.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, glam::DVec2};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// let desc = BodyDesc::new(DVec2::ZERO, 0.5, 2.0).with_friction(0.3);
    /// sim.add_body(desc).unwrap();
    /// let moved = BodyDesc { position: DVec2::ONE, ..desc };
    /// assert!(sim.bodies().holds_properties(0, &moved));
    /// assert!(!sim.bodies().holds_properties(0, &desc.with_friction(0.4)));
    /// ```
    pub fn holds_properties(&self, i: usize, desc: &BodyDesc) -> bool {
        i < self.len() && self.has_properties_of(i, &Record::of(desc, i as u32))
    }

    /// Whether body `i` has `new`'s mass and moment of inertia (awake), friction, rolling
    /// resistance, layers and sensor flag, bit for bit.
    fn has_properties_of(&self, i: usize, new: &Record) -> bool {
        let spin = &self.spin[i];
        same_bits(new.awake_inv_mass, self.awake_inv_mass[i])
            && same_bits(new.spin.awake_inv_inertia, spin.awake_inv_inertia)
            && same_bits(new.spin.friction, spin.friction)
            && same_bits(new.spin.rolling, spin.rolling)
            && new.layers == self.layers[i]
            && new.hot.flags & SENSOR == self.hot[i].flags & SENSOR
    }

    /// Whether `desc` (a sound description: see [`BodyDesc::sanitize`]) would add, bit for
    /// bit, the very body that [`Simulation::keep_bodies`](crate::Simulation::keep_bodies)
    /// keeps of body `i` with `rest_time`: its key, place, motion, radius, masses,
    /// restitution, layers, surface, angle, rest time and sleep and sensor flags. A step
    /// whose bodies are all so described would rebuild the same world: a game that wrote
    /// a body's components again, unchanged, changed nothing. `false` for an `i` out of
    /// range.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, glam::DVec2};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// let desc = BodyDesc::new(DVec2::ZERO, 0.5, 2.0).with_key(7);
    /// sim.add_body(desc).unwrap();
    /// assert!(sim.bodies().keeps_as(0, &desc, |t| t));
    /// let moved = BodyDesc { position: DVec2::ONE, ..desc };
    /// assert!(!sim.bodies().keeps_as(0, &moved, |t| t));
    /// ```
    pub fn keeps_as(&self, i: usize, desc: &BodyDesc, rest_time: impl Fn(f64) -> f64) -> bool {
        if i >= self.len() {
            return false;
        }
        let (new, h, s) = (Record::of(desc, i as u32), &self.hot[i], &self.spin[i]);
        let both = |a: DVec2, b: DVec2| same_bits(a.x, b.x) && same_bits(a.y, b.y);
        // As kept (see `keep_from`): a sleeping body stands still, held as a static one.
        let (vel, inv_mass, omega, inv_inertia) = if h.sleeping() {
            (DVec2::ZERO, 0.0, 0.0, 0.0)
        } else {
            let (w, inertia) = (self.angular_velocity(i), s.awake_inv_inertia);
            (h.vel, self.awake_inv_mass[i], w, inertia)
        };
        let rest = rest_time(self.rest_time(i));
        let rest = if rest.is_finite() && rest >= 0.0 {
            rest
        } else {
            0.0
        };
        self.has_properties_of(i, &new)
            && new.key == self.keys[i]
            && both(new.hot.pos, h.pos)
            && both(new.hot.vel, vel)
            && same_bits(new.hot.radius, h.radius)
            && same_bits(new.hot.inv_mass, inv_mass)
            && new.hot.flags == h.flags & DESCRIBED
            && same_bits(new.restitution, self.restitution[i])
            && same_bits(new.rest_time, rest)
            && same_bits(new.spin.omega, omega)
            && same_bits(new.spin.inv_inertia, inv_inertia)
            && same_bits(new.spin.angle, s.angle)
    }

    /// Everything body `i` is, bit for bit: its key, position, velocity, radius, inverse
    /// mass, restitution, layers, spin, angle, inertia, friction, rolling resistance, rest
    /// time, sleep and sensor flags — to compare two simulations exactly (a rollback's
    /// re-simulation, peers checking they have not diverged).
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, glam::DVec2};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.add_body(BodyDesc::new(DVec2::new(1.0, 2.0), 0.5, 1.0)).unwrap();
    /// assert_eq!(sim.bodies().state_bits(0)[1], 1.0f64.to_bits());
    /// ```
    pub fn state_bits(&self, i: usize) -> [u64; 17] {
        let (p, v, layers) = (self.position(i), self.velocity(i), self.layers[i]);
        [
            self.key(i),
            p.x.to_bits(),
            p.y.to_bits(),
            v.x.to_bits(),
            v.y.to_bits(),
            self.radius(i).to_bits(),
            self.inverse_mass(i).to_bits(),
            self.restitution(i).to_bits(),
            u64::from(layers.memberships) << 32 | u64::from(layers.filters),
            self.angular_velocity(i).to_bits(),
            self.angle(i).to_bits(),
            self.inertia(i).to_bits(),
            self.friction(i).to_bits(),
            self.rolling_resistance(i).to_bits(),
            self.rest_time(i).to_bits(),
            u64::from(self.is_sleeping(i)),
            u64::from(self.is_sensor(i)),
        ]
    }

    /// Every centre, in body order.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig, glam::DVec2};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.add_body(BodyDesc::new(DVec2::new(1.0, 2.0), 0.5, 1.0)).unwrap();
    /// assert_eq!(sim.bodies().positions().collect::<Vec<_>>(), [DVec2::new(1.0, 2.0)]);
    /// ```
    pub fn positions(&self) -> impl ExactSizeIterator<Item = DVec2> + Clone + '_ {
        self.hot.iter().map(|h| h.pos)
    }

    /// Every velocity, in body order.
    pub fn velocities(&self) -> impl ExactSizeIterator<Item = DVec2> + Clone + '_ {
        self.hot.iter().map(|h| h.vel)
    }

    /// Every radius, in body order.
    pub fn radii(&self) -> impl ExactSizeIterator<Item = f64> + Clone + '_ {
        self.hot.iter().map(|h| h.radius)
    }

    /// Whether either of `i`, `j` is steered this step ([`Hot::steered`]).
    #[inline]
    pub(crate) fn steered_pair(&self, i: usize, j: usize) -> bool {
        self.hot[i].steered() || self.hot[j].steered()
    }

    /// Whether either of `i`, `j` is a sensor.
    #[inline]
    pub(crate) fn sensor_pair(&self, i: usize, j: usize) -> bool {
        self.hot[i].sensor() || self.hot[j].sensor()
    }

    /// Whether either of `i`, `j` has friction or rolling resistance.
    #[inline]
    pub(crate) fn rough_pair(&self, i: usize, j: usize) -> bool {
        self.hot[i].rough() || self.hot[j].rough()
    }

    /// Whether body `i` against a wall or static surface of friction `wall_friction` has
    /// friction or rolling resistance ([`rough_pair`](Self::rough_pair)'s wall variant).
    #[inline]
    pub(crate) fn rough_with_wall(&self, i: usize, wall_friction: f64) -> bool {
        self.hot[i].rough() || wall_friction > 0.0
    }

    /// Whether the layers of `i` and `j` accept each other (read only when one is filtered).
    #[inline]
    pub(crate) fn layers_accept(&self, i: usize, j: usize) -> bool {
        (self.hot[i].flags | self.hot[j].flags) & FILTERED == 0
            || self.layers[i].interacts(self.layers[j])
    }

    /// Whether the push-out may move the pair `i`, `j` apart: at least one is dynamic
    /// and neither is a sensor.
    #[inline]
    pub(crate) fn separable(&self, i: usize, j: usize) -> bool {
        self.hot[i].inv_mass + self.hot[j].inv_mass > 0.0 && !self.sensor_pair(i, j)
    }
}

/// Everything [`Bodies`] keeps of one body, as [`Bodies::push_numbered`] adds it.
struct Record {
    hot: Hot,
    restitution: f64,
    layers: Layers,
    key: u64,
    awake_inv_mass: f64,
    rest_time: f64,
    spin: Spin,
}

/// Whether `a` and `b` are the same `f64`, bit for bit.
#[inline]
fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits()
}

impl Record {
    /// The already sanitised `b` as body `index` (its key if it has none).
    #[inline]
    fn of(b: &BodyDesc, index: u32) -> Self {
        let inv_mass = if b.mass.is_finite() {
            1.0 / b.mass
        } else {
            0.0
        };
        // Only a dynamic body can sleep; a sleeping body stands still as a static one.
        let asleep = b.sleeping && inv_mass > 0.0 && !b.sensor;
        let flags = if b.sensor { SENSOR } else { 0 }
            | if b.layers == Layers::ALL { 0 } else { FILTERED }
            | if asleep { SLEEPING } else { 0 }
            | if b.friction > 0.0 || b.rolling_resistance > 0.0 {
                ROUGH
            } else {
                0
            }
            | if b.steered { VELOCITY_SET } else { 0 };
        let inertia = b.effective_inertia();
        let inv_inertia = if inv_mass > 0.0 && inertia.is_finite() {
            1.0 / inertia
        } else {
            0.0
        };
        Self {
            hot: Hot {
                pos: b.position,
                vel: if asleep { DVec2::ZERO } else { b.velocity },
                time: 0.0,
                radius: b.radius,
                inv_mass: if asleep { 0.0 } else { inv_mass },
                version: 0,
                flags,
            },
            restitution: b.restitution,
            layers: b.layers,
            key: b.key.unwrap_or(u64::from(index)),
            awake_inv_mass: inv_mass,
            rest_time: b.rest_time,
            spin: Spin {
                omega: if asleep { 0.0 } else { b.angular_velocity },
                inv_inertia: if asleep { 0.0 } else { inv_inertia },
                awake_inv_inertia: inv_inertia,
                friction: b.friction,
                rolling: b.rolling_resistance,
                angle: b.angle,
                shift: 0.0,
            },
        }
    }
}

mod hot;
mod motion;

#[cfg(test)]
mod tests;
