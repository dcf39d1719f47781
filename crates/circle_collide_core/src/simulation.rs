//! The simulation: bodies, scratch buffers, and the five phases of a step.
//!
//! A step runs [`integrate`](Simulation::integrate) → [`broad_phase`](Simulation::broad_phase)
//! → [`narrow_phase`](Simulation::narrow_phase) → [`solve_impacts`](Simulation::solve_impacts)
//! → [`resolve`](Simulation::resolve); [`step`](Simulation::step) runs all five. Each phase
//! lives in its own module.

use crate::bodies::Bodies;
use crate::body::{BodyDesc, InputIssues};
use crate::config::StepConfig;
use crate::events::Impact;
use crate::grid::Grid;
use crate::manifold::Manifold;
use crate::parallel::{Executor, ExecutorHandle};
use crate::queue::{EventQueue, MAX_BODIES};
use crate::stats::StepStats;
use glam::DVec2;

/// Bytes of heap memory `v`'s allocation holds (its capacity, not its length).
pub(crate) fn capacity_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// A pair touching or overlapping at the start of a step, from the narrow phase.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// Lower body index.
    pub a: u32,
    /// Higher body index.
    pub b: u32,
    /// Geometry, normal from `a` to `b`.
    pub manifold: Manifold,
}

/// Why a body could not be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddBodyError {
    /// The description is unusable (see [`BodyDesc::sanitize`]).
    Invalid(InputIssues),
    /// More bodies than [`MAX_BODIES`].
    TooManyBodies,
}

/// An exact, event-ordered circle simulation.
///
/// ```
/// use circle_collide_core::{BodyDesc, Simulation, StepConfig};
/// use glam::DVec2;
///
/// let mut sim = Simulation::new(StepConfig::default());
/// // Two equal unit circles 3 apart, closing at 2 units/s.
/// sim.add_body(BodyDesc::new(DVec2::new(0.0, 0.0), 1.0, 1.0).with_velocity(DVec2::X)).unwrap();
/// sim.add_body(BodyDesc::new(DVec2::new(3.0, 0.0), 1.0, 1.0).with_velocity(-DVec2::X)).unwrap();
/// sim.step(1.0);
/// // They touched at t = 0.5 and swapped velocities.
/// let impact = sim.impacts()[0];
/// assert!((impact.time - 0.5).abs() < 1e-12);
/// assert_eq!(sim.bodies().velocities().collect::<Vec<_>>(), [-DVec2::X, DVec2::X]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Simulation {
    /// Step parameters; may be changed between steps.
    pub config: StepConfig,
    pub(crate) bodies: Bodies,
    pub(crate) grid: Grid,
    pub(crate) pairs: Vec<(u32, u32)>,
    pub(crate) contacts: Vec<Contact>,
    pub(crate) queue: EventQueue,
    pub(crate) impacts: Vec<Impact>,
    pub(crate) stats: StepStats,
    pub(crate) dt: f64,
    pub(crate) scratch: Vec<usize>,
    /// Same-instant runs of impacts and their cluster solves' scratch.
    pub(crate) same_instant: crate::same_instant::SameInstant,
    pub(crate) resting: Vec<crate::contacts::SolverContact>,
    /// The contact solver's packed bodies and rows (scratch).
    pub(crate) rows: crate::contact_rows::ContactRows,
    /// The slow contacts of the last step with their impulses (warm start, pressing).
    pub(crate) memory: crate::contacts::ContactMemory,
    /// This step's solver contacts `(body, body or wall code)`, sorted.
    pub(crate) solver_pairs: crate::solver_pairs::SolverPairs,
    /// The bodies' (key, index), sorted by key (`sort_keys`): the broad phase's marks
    /// and the contact solver's look-ups in the contact memory.
    pub(crate) key_order: Vec<(u64, u32)>,
    /// Whether `key_order` holds the current bodies (cleared when bodies are added or
    /// removed; see [`sort_keys`](Self::sort_keys)).
    pub(crate) key_order_valid: bool,
    /// Scratch of `sort_keys`' radix sort.
    pub(crate) key_scratch: Vec<(u64, u32)>,
    /// Scratch of `mark_speculative`: the keys the contact memory names, and its radix
    /// sort's buffer.
    pub(crate) memory_keys: Vec<u64>,
    pub(crate) memory_keys_scratch: Vec<u64>,
    /// Scratch of `mark_speculative`: the body of each key, by key.
    pub(crate) key_table: Vec<u32>,
    /// Scratch of `remember_contacts`: each body's place in `key_order`, and the
    /// contacts grouped by their first body's place (compressed rows).
    pub(crate) key_rank: Vec<u32>,
    pub(crate) rank_start: Vec<u32>,
    pub(crate) by_place: Vec<u32>,
    /// Each body's range in the contact memory (`ContactMemory::rows_of`), per step.
    pub(crate) memory_rows: Vec<(u32, u32)>,
    /// Scratch of `remember_impacts`: the impact pairs to add to the contact memory.
    pub(crate) impact_scratch: Vec<crate::contacts::KeptContact>,
    /// Velocities and spins of the solver's bodies before it ran (its energy guard).
    pub(crate) solver_velocities: Vec<(u32, DVec2, f64)>,
    /// The step's position correction: `(body, shift)` applied by `resolve`.
    pub(crate) shifts: Vec<(u32, DVec2)>,
    /// The solver's bodies that were flying before it added the step's gravity to
    /// their velocity (the unsupported ones fly on).
    pub(crate) landed: Vec<u32>,
    /// Scratch of the contact solver's groups of touching bodies (which are held up).
    pub(crate) groups: crate::groups::Groups,
    /// Scratch of the shock pass: (height as an ordered integer key, body, support) of
    /// each support, and the supports copied out of their contacts.
    pub(crate) shock_order: Vec<(u64, u32, u32)>,
    pub(crate) shock_supports: Vec<crate::shock::ShockSupport>,
    /// Smallest radius of a dynamic, non-sensor body this step (scales the default
    /// resting speed); infinite if there is none.
    pub(crate) min_radius: f64,
    /// Largest radius of an awake dynamic, non-sensor body this step (0 if there is none):
    /// a world whose awake circles are all alike needs no per-body sleep scale.
    pub(crate) max_radius: f64,
    /// The dynamic circles' total area exceeds the arena's this step: no arrangement
    /// fits them, so the push-out works within the limit without gravity from the first
    /// step (see [`GRAVITY_WORK_FACTOR`](crate::resolve::GRAVITY_WORK_FACTOR)).
    pub(crate) overfull: bool,
    /// Scratch of the sleep module: bodies to wake with their islands, and with their
    /// neighbours (seeds and the bodies woken), islands' union–find (or the bodies held
    /// awake) and rest times.
    pub(crate) woken: Vec<u32>,
    pub(crate) woken_near: Vec<u32>,
    /// The moving kinematic bodies (static mass, a velocity or a spin) of a world with
    /// sleeping bodies, listed by the broad phase: they wake the sleeping bodies they reach.
    pub(crate) kinematic: Vec<u32>,
    /// Circles `(centre, radius)` whose sleeping neighbours wake at the next broad phase:
    /// places of bodies the caller removed or moved ([`wake_around`](Self::wake_around)).
    pub(crate) vacated: Vec<(DVec2, f64)>,
    /// The level geometry changed since the last broad phase: every sleeping body wakes.
    pub(crate) level_changed: bool,
    pub(crate) wake_ring: Vec<u32>,
    /// By neighbourhood: sleeping bodies an impact reaches, fastest first
    /// ([`wake_reached`](Self::wake_reached)).
    pub(crate) wake_hits: std::collections::BinaryHeap<crate::wake_reach::Reached>,
    /// Bodies the moving kinematic bodies push on, fastest first, and which were
    /// followed ([`wake_pushed`](Self::wake_pushed)).
    pub(crate) push_front: std::collections::BinaryHeap<crate::wake_push::Pushed>,
    pub(crate) push_seen: Vec<bool>,
    pub(crate) island_parent: Vec<u32>,
    pub(crate) island_rest: Vec<f64>,
    /// Scratch of the sleep module: each body's sleep scale, the largest radius among it
    /// and the awake dynamic bodies touching it (worlds of unlike circles only).
    pub(crate) sleep_scale: Vec<f64>,
    /// Touching pairs met during the event loop (after the start-of-step predictions)
    /// and left to the push-out; sorted and without repeats once the loop is done.
    pub(crate) late_pairs: Vec<(u32, u32)>,
    /// The start-of-step contacts deeper than half the smaller radius, sorted: only those
    /// are reported as [`InputIssues::DEEP_OVERLAP`] (see
    /// [`deep_at_start`](Self::deep_at_start)). Listed on the push-out's first deep pair
    /// of a step.
    pub(crate) deep_at_start: Vec<(u32, u32)>,
    /// Whether `deep_at_start` was listed in this step.
    pub(crate) deep_at_start_listed: bool,
    /// The bodies whose centre was outside the arena at the start of the step, in index
    /// order: only those are reported as [`InputIssues::OUTSIDE_ARENA`].
    pub(crate) outside_at_start: Vec<u32>,
    /// With a level, the awake dynamic bodies at the start of the step, with their
    /// positions then, in index order: the push-out keeps each on the side of a segment
    /// it started on ([`push_out_of_segments`](crate::statics::push_out_of_segments)).
    pub(crate) level_starts: Vec<(u32, DVec2)>,
    /// Length of `late_pairs` after its last compaction (the event loop meets the same
    /// resting pair again each time one of its bodies changes course).
    pub(crate) late_compacted: usize,
    /// Pairs told never to interact ([`Simulation::exclude_pair`]).
    pub(crate) excluded: std::collections::HashSet<u64>,
    /// Pairs touching at the end of the step, or that had an impact during it.
    pub(crate) touching: Vec<(u32, u32)>,
    /// Buffer of the radix sort of `touching` and `late_pairs`.
    pub(crate) pair_scratch: Vec<(u32, u32)>,
    /// Problems found by the push-out this step.
    pub(crate) step_issues: Vec<(u32, InputIssues)>,
    /// Scratch of the push-out: (height, pair) of overlaps beyond the slop.
    pub(crate) overlapping: Vec<(f64, u32, u32)>,
    /// The places of the moving kinematic bodies the push-out's jammed passes go outward
    /// from (listed at its first jammed pass), how many went so (`crate::outward`; `None`
    /// until then), and whether one of them found no room (the push-out's passes after
    /// [`OUTWARD_PASSES`](crate::outward::OUTWARD_PASSES) then split again).
    pub(crate) pushers: Vec<DVec2>,
    pub(crate) outward_passes: Option<u32>,
    pub(crate) outward_blocked: bool,
    /// The last push-out's work: the pairs its jammed passes visited, and the work limit
    /// without gravity's factor (in pair visits).
    pub(crate) push_out_work: (usize, usize),
    /// Scratch of the push-out's first pass under gravity.
    pub(crate) bottom_up: crate::bottom_up::BottomUp,
    /// Bodies the push-out moved since it last listed their new neighbours.
    pub(crate) pushed: Vec<u32>,
    /// The pairs and bodies a jammed push-out pass works on.
    pub(crate) active: Vec<(u32, u32)>,
    pub(crate) active_bodies: Vec<u32>,
    /// Indices in `active` of the pairs that overlapped deeper than the slop when the
    /// pass's listing tested them, in `active`'s order; `active_deep_known` false when the
    /// listing did not keep them (it sorted `active`).
    pub(crate) active_deep: Vec<u32>,
    pub(crate) active_deep_known: bool,
    /// Scratch of the push-out: sorts the bodies a pass moved.
    pub(crate) pushed_bits: crate::body_bits::BodyBits,
    /// The pair list of a large jam, for the push-out's later passes.
    pub(crate) jam: crate::push_out::JamList,
    /// Swept boxes, before the contact solver, of the bodies in resting contacts.
    pub(crate) contact_boxes: Vec<(u32, (DVec2, DVec2))>,
    /// Bodies whose path this step may come within the slop of a wall, in index order:
    /// listed by [`integrate`](Self::integrate) (the others need no start-of-step wall
    /// prediction).
    pub(crate) near_wall: Vec<u32>,
    /// The arena and slop `near_wall` was listed for; `None` once anything added,
    /// removed or moved bodies after `integrate` (the list no longer holds).
    pub(crate) near_wall_listed: Option<(Option<crate::Arena>, f64)>,
    /// The level geometry (static segments and their grid).
    pub(crate) level: crate::level::Level,
    /// Resting-speed threshold of the current step (by default without gravity, of a
    /// pair of its smallest dynamic circles: see `pair_resting_speed_at`).
    pub(crate) resting_speed: f64,
    /// The current step's resting speed of a pair with a steered body
    /// ([`StepConfig::steered_resting_speed_for`]).
    pub(crate) steered_resting_speed: f64,
    /// Whether this step's resting speed is the default, which scales with the radii of
    /// each pair (without gravity, and for steered pairs under it): a pair's is that of
    /// its smaller circle, never less than the world's
    /// ([`pair_resting_speed_at`](Self::pair_resting_speed_at)). Set by `solve_impacts`.
    pub(crate) resting_by_radius: bool,
    /// Whether a pair of bodies may have a resting speed above 0 this step: false in an
    /// elastic gas (the default resting speed, no gravity, nobody steered, every body
    /// elastic), whose predictions then skip the resting test. Set by `solve_impacts`.
    pub(crate) pairs_may_rest: bool,
    /// Awake bodies steered this step ([`BodyDesc::steered`]), counted by `integrate`.
    pub(crate) steered_bodies: usize,
    /// Moving kinematic bodies this step (`Hot::drives_bodies`: sensors left out, they
    /// push nothing), counted by `integrate`: with
    /// [`steered_bodies`](Self::steered_bodies), whether the game drives a body (under
    /// gravity, every pair that pressed then keeps its gap contact).
    pub(crate) driving_bodies: usize,
    /// Whether this step's contact solver marked a body (`Hot::in_solver`); reset by
    /// `integrate`.
    pub(crate) solver_marked: bool,
    /// This step's solve is a steered jam under gravity (`Simulation::is_steered_jam`),
    /// decided once its contacts are listed: the passes and the push-out treat it as a
    /// jam without gravity.
    pub(crate) steered_jam: bool,
    /// Runs the data-parallel parts of a step ([`parallel`](crate::parallel)).
    pub(crate) executor: ExecutorHandle,
    /// The second half of a batch of bodies added on two threads
    /// ([`add_bodies_from`](Self::add_bodies_from)), before it is appended.
    pub(crate) add_scratch: Bodies,
}

impl Simulation {
    /// An empty simulation.
    pub fn new(config: StepConfig) -> Self {
        Self {
            config,
            ..Default::default()
        }
    }

    /// Adds a body after [`BodyDesc::sanitize`]; returns its index and the repairs made.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<(u32, InputIssues), AddBodyError> {
        self.add_body_from(&desc)
    }

    /// [`add_body`](Self::add_body) from a borrowed description: a caller that rebuilds
    /// many bodies every step saves copying each (a sound description, the common case,
    /// is not copied at all).
    pub fn add_body_from(&mut self, desc: &BodyDesc) -> Result<(u32, InputIssues), AddBodyError> {
        if self.bodies.len() >= MAX_BODIES {
            return Err(AddBodyError::TooManyBodies);
        }
        self.near_wall_listed = None;
        self.key_order_valid = false;
        crate::add_bodies::push_checked(&mut self.bodies, desc, 0, self.config.max_speed)
    }

    /// Runs the broad phase, the narrow phase and the start-of-step predictions of
    /// worlds of at least [`PARALLEL_MIN_BODIES`](crate::parallel::PARALLEL_MIN_BODIES)
    /// bodies (see [`set_parallel_min_bodies`](Self::set_parallel_min_bodies); the broad
    /// phase's pair listing from a quarter of that) as jobs on `executor`, and the contact
    /// solver's passes of any solve of 8192 smooth contacts or more (4096 with friction)
    /// on its threads, in colour order (whatever the number of bodies), as its
    /// conjugate-gradient correction of 2048 rows or more. Results are bit-identical to a
    /// serial run.
    ///
    /// ```
    /// use circle_collide_core::{Simulation, StepConfig, parallel::Serial};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.set_executor(std::sync::Arc::new(Serial));
    /// ```
    pub fn set_executor(&mut self, executor: std::sync::Arc<dyn Executor>) {
        self.executor.executor = executor;
    }

    /// Sets the fewest bodies for which the executor's threads are used (default
    /// [`PARALLEL_MIN_BODIES`](crate::parallel::PARALLEL_MIN_BODIES)) in the broad
    /// phase, the narrow phase and the predictions (the broad phase's pair listing, and a
    /// batch of bodies [added at once](Self::add_bodies_from), from a quarter of it);
    /// smaller worlds run those serially (a large contact solve uses the
    /// threads regardless: [`set_executor`](Self::set_executor)). Results do not depend
    /// on it.
    ///
    /// ```
    /// use circle_collide_core::{Simulation, StepConfig};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.set_parallel_min_bodies(4096); // a machine with many cores
    /// ```
    pub fn set_parallel_min_bodies(&mut self, bodies: usize) {
        self.executor.min_bodies = bodies;
    }

    /// Makes room for `additional` more bodies (avoids regrowing while adding them).
    pub fn reserve_bodies(&mut self, additional: usize) {
        self.bodies.reserve(additional);
    }

    /// Removes every body and every pair exclusion (keeps the allocations).
    pub fn clear_bodies(&mut self) {
        self.bodies.clear();
        self.forget_pairs_and_order();
    }

    /// Drops what was derived from the bodies as they were (the pair exclusions, the
    /// bodies listed near a wall, the key order): the bodies were replaced.
    pub(crate) fn forget_pairs_and_order(&mut self) {
        self.excluded.clear();
        self.near_wall_listed = None;
        self.key_order_valid = false;
    }

    /// Makes bodies `i` and `j` ignore each other (until [`clear_bodies`](Self::clear_bodies)).
    pub fn exclude_pair(&mut self, i: u32, j: u32) {
        self.excluded.insert(crate::filter::pair_key(i, j));
    }

    /// Whether bodies `i` and `j` interact at all: layers accept each other, the pair is
    /// not excluded, and at least one is dynamic (or one is a sensor).
    #[inline(always)]
    pub fn interacts(&self, i: u32, j: u32) -> bool {
        let (iu, ju) = (i as usize, j as usize);
        let b = &self.bodies;
        (b.hot[iu].inv_mass > 0.0 || b.hot[ju].inv_mass > 0.0 || b.sensor_pair(iu, ju))
            && self.filters_accept(i, j)
    }

    /// Whether the layers of bodies `i` and `j` accept each other and the pair is not
    /// excluded (whatever their masses).
    #[inline(always)]
    pub(crate) fn filters_accept(&self, i: u32, j: u32) -> bool {
        self.bodies.layers_accept(i as usize, j as usize)
            && (self.excluded.is_empty() || !self.excluded.contains(&crate::filter::pair_key(i, j)))
    }

    /// Pairs `(lower, higher)` touching (within the slop) at the end of the last step, or
    /// that had an impact during it, sorted. Sensor pairs count while they overlap.
    pub fn touching_pairs(&self) -> &[(u32, u32)] {
        &self.touching
    }

    /// The bodies.
    pub fn bodies(&self) -> &Bodies {
        &self.bodies
    }

    /// Sets the velocity of body `i` between steps (waking it if it sleeps; the bodies
    /// it touches wake in the next step's broad phase). A changed velocity makes the body
    /// *steered* in the next step ([`BodyDesc::steered`](crate::BodyDesc::steered)).
    pub fn set_velocity(&mut self, i: u32, velocity: DVec2) {
        self.bodies.wake(i as usize);
        let h = &mut self.bodies.hot[i as usize];
        if h.vel != velocity {
            h.mark_velocity_set();
        }
        h.vel = velocity;
        self.near_wall_listed = None;
    }

    /// Sets the angular velocity of body `i` between steps, rad/s (waking it if it
    /// sleeps).
    pub fn set_angular_velocity(&mut self, i: u32, angular_velocity: f64) {
        self.bodies.wake(i as usize);
        self.bodies.spin_mut(i as usize).omega = angular_velocity;
    }

    /// Sets the position of body `i` between steps (waking it if it sleeps).
    ///
    /// The sleeping bodies touching it at its old place wake too (what rested on it
    /// falls): see [`wake_around`](Self::wake_around).
    pub fn set_position(&mut self, i: u32, position: DVec2) {
        let h = &self.bodies.hot[i as usize];
        self.wake_around(h.pos, h.radius);
        self.bodies.wake(i as usize);
        self.bodies.hot[i as usize].pos = position;
        self.near_wall_listed = None;
    }

    /// Wakes, in the next step's broad phase, every sleeping body touching (within the
    /// slop) the circle at `center` of `radius`, for a body the caller removed or moved
    /// away: a sleeping body is held in place like a static one until something wakes
    /// it, so what rested on a vanished body would float. Woken, such a body wakes its
    /// island as any awake body does. A caller that rebuilds its bodies every step (as
    /// the plugin does) calls it for each body it dropped; non-finite input is ignored.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig};
    /// use glam::DVec2;
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.add_body(BodyDesc::new(DVec2::ZERO, 0.5, 1.0)).unwrap();
    /// // A body of radius 0.5 at (1, 0) was removed between steps:
    /// sim.wake_around(DVec2::new(1.0, 0.0), 0.5);
    /// sim.step(1.0 / 60.0);
    /// ```
    pub fn wake_around(&mut self, center: DVec2, radius: f64) {
        if center.is_finite() && radius.is_finite() && radius >= 0.0 {
            self.vacated.push((center, radius));
        }
    }

    /// Drops the places queued by [`wake_around`](Self::wake_around) since the last step:
    /// for a caller that restored an earlier state (a rollback), whose removals belong to
    /// the abandoned future.
    pub fn cancel_wake_around(&mut self) {
        self.vacated.clear();
    }

    /// Impacts of the last step, in the order they were handled: by time, ties broken by
    /// the pair's indices.
    pub fn impacts(&self) -> &[Impact] {
        &self.impacts
    }

    /// Pairs touching or overlapping at the start of the last step.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// Candidate pairs of the last broad phase, `(lower, higher)` index. After a step
    /// that fell back, or whose push-out met a large jam, they are the pairs listed anew
    /// at the bodies' end-of-step places.
    pub fn candidate_pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Bodies the last step found deeply overlapping another or outside the arena
    /// (and pushed apart or inside), with the problem; a body may appear more than once.
    pub fn step_issues(&self) -> &[(u32, InputIssues)] {
        &self.step_issues
    }

    /// The contacts the last step's solver kept, with their impulses: the next step's
    /// warm start; and the bits of the gravity and arena that step ran with. Save it with
    /// the bodies for a rollback.
    pub fn contact_memory(&self) -> &crate::contacts::ContactMemory {
        &self.memory
    }

    /// Replaces the remembered contacts and the last step's gravity and arena bits
    /// ([`ContactMemory::surroundings`](crate::contacts::ContactMemory::surroundings); a
    /// memory without them, such as one built by
    /// [`ContactMemory::new`](crate::contacts::ContactMemory::new), keeps the simulation's
    /// own): restoring a saved state, or the caller's copy when it rebuilds its bodies each
    /// step.
    pub fn set_contact_memory(&mut self, memory: crate::contacts::ContactMemory) {
        let own = self.memory.surroundings;
        self.memory = memory;
        self.memory.surroundings = self.memory.surroundings.or(own);
    }

    /// The resting speed in force in the last step (see
    /// [`StepConfig::resting_speed`](crate::StepConfig::resting_speed)); by default
    /// without gravity, that of a pair of the world's smallest dynamic circles (a pair of
    /// larger ones has its own, larger one).
    pub fn resting_speed(&self) -> f64 {
        self.resting_speed
    }

    /// Whether the dynamic circles' total area (asleep or awake, sensors aside) exceeded
    /// the arena's in the last step: no arrangement fits them, and they overlap, or are
    /// pushed into the walls, whatever the engine does (the arena is too small for them).
    ///
    /// ```
    /// use circle_collide_core::{Arena, BodyDesc, Simulation, StepConfig};
    /// use glam::DVec2;
    ///
    /// let mut sim = Simulation::new(StepConfig {
    ///     arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(2.0))),
    ///     ..StepConfig::default()
    /// });
    /// for x in [0.6, 1.4] {
    ///     sim.add_body(BodyDesc::new(DVec2::new(x, 1.0), 0.9, 1.0)).unwrap();
    /// }
    /// sim.step(1.0 / 60.0);
    /// assert!(sim.overfull()); // 2 · π · 0.81 > 4
    /// ```
    pub fn overfull(&self) -> bool {
        self.overfull
    }

    /// Statistics of the last step.
    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    /// Cell size the broad phase chose in the last step.
    pub fn grid_cell_size(&self) -> f64 {
        self.grid.cell_size()
    }

    /// Bytes of heap memory held by each of the simulation's buffers (their capacity),
    /// largest first: what a body costs the core, for diagnostics and benchmarks.
    ///
    /// ```
    /// use circle_collide_core::{BodyDesc, Simulation, StepConfig};
    /// let mut sim = Simulation::new(StepConfig::default());
    /// sim.add_body(BodyDesc::new(glam::DVec2::ZERO, 1.0, 1.0)).unwrap();
    /// sim.step(1.0 / 60.0);
    /// let total: usize = sim.heap_bytes().iter().map(|(_, b)| b).sum();
    /// assert!(total >= 64, "at least the body's record");
    /// ```
    pub fn heap_bytes(&self) -> Vec<(&'static str, usize)> {
        use capacity_bytes as cap;
        let b = &self.bodies;
        let mut list = vec![
            (
                "bodies",
                cap(&b.hot)
                    + cap(&b.restitution)
                    + cap(&b.layers)
                    + cap(&b.keys)
                    + cap(&b.awake_inv_mass)
                    + cap(&b.rest_time)
                    + cap(&b.spin),
            ),
            ("candidate pairs", cap(&self.pairs)),
            ("contacts", cap(&self.contacts) + cap(&self.deep_at_start)),
            ("bodies outside the arena", cap(&self.outside_at_start)),
            ("level starts", cap(&self.level_starts)),
            ("impact queue", self.queue.heap_bytes()),
            ("impacts", cap(&self.impacts)),
            ("solver contacts", cap(&self.resting)),
            ("solver rows", self.rows.heap_bytes()),
            (
                "contact memory",
                std::mem::size_of_val(self.memory.contacts()),
            ),
            ("late pairs", cap(&self.late_pairs)),
            ("touching pairs", cap(&self.touching)),
            ("overlaps", cap(&self.overlapping)),
            ("contact boxes", cap(&self.contact_boxes)),
            (
                "other scratch",
                cap(&self.scratch)
                    + cap(&self.pair_scratch)
                    + cap(&self.step_issues)
                    + cap(&self.near_wall)
                    + cap(&self.landed)
                    + self.groups.heap_bytes()
                    + cap(&self.solver_velocities)
                    + self.solver_pairs.heap_bytes()
                    + cap(&self.memory_rows)
                    + cap(&self.impact_scratch)
                    + cap(&self.key_order)
                    + cap(&self.key_scratch)
                    + cap(&self.memory_keys)
                    + cap(&self.memory_keys_scratch)
                    + cap(&self.key_table)
                    + self.bottom_up.heap_bytes()
                    + cap(&self.key_rank)
                    + cap(&self.rank_start)
                    + cap(&self.by_place)
                    + cap(&self.shock_order)
                    + cap(&self.shock_supports)
                    + cap(&self.pushed)
                    + cap(&self.active)
                    + cap(&self.active_bodies)
                    + cap(&self.active_deep)
                    + self.pushed_bits.heap_bytes()
                    + self.jam.heap_bytes()
                    + cap(&self.woken)
                    + cap(&self.woken_near)
                    + cap(&self.kinematic)
                    + cap(&self.vacated)
                    + cap(&self.wake_ring)
                    + self.wake_hits.capacity() * std::mem::size_of::<crate::wake_reach::Reached>()
                    + self.push_front.capacity() * std::mem::size_of::<crate::wake_push::Pushed>()
                    + cap(&self.push_seen)
                    + cap(&self.island_parent)
                    + cap(&self.island_rest)
                    + cap(&self.sleep_scale)
                    + self.same_instant.heap_bytes(),
            ),
        ];
        list.push(("level", self.level.heap_bytes()));
        list.extend(self.grid.heap_bytes());
        list.sort_by_key(|(_, bytes)| std::cmp::Reverse(*bytes));
        list
    }

    /// Runs a whole step of `dt` seconds: the five phases in order.
    pub fn step(&mut self, dt: f64) {
        self.integrate(dt);
        self.broad_phase();
        self.narrow_phase();
        self.solve_impacts();
        self.resolve();
    }
}
