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
//!
//! The code: this module counts the runs and calls the solve; `cluster.rs` gathers a
//! cluster, solves its impulses and applies them.

use crate::simulation::Simulation;
use crate::small_lcp::LcpScratch;
use glam::DVec2;

mod cluster;
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
}
