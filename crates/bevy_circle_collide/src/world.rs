//! The resource that holds the core simulation between the phases of a step.

use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use circle_collide_core::Simulation;

/// The bodies of the current step in the core's struct-of-arrays form, with the entity of
/// each. Filled by the integrate phase from the ECS, written back by the resolve phase.
/// Read it (for debug drawing, tools) with `Res<CircleCollideWorld>`.
///
/// ```
/// # use bevy::prelude::*;
/// use bevy_circle_collide::CircleCollideWorld;
/// fn fastest(world: Res<CircleCollideWorld>) {
///     let sim = world.simulation();
///     if let Some((i, v)) = sim.bodies().velocities().enumerate().max_by(|a, b| a.1.length().total_cmp(&b.1.length())) {
///         info!("fastest: {} at {}", world.entity(i as u32), v.length());
///     }
/// }
/// # App::new().add_systems(Update, fastest);
/// ```
#[derive(Resource)]
pub struct CircleCollideWorld {
    pub(crate) sim: Simulation,
    pub(crate) entities: Vec<Entity>,
    pub(crate) opted_in: Vec<bool>,
    pub(crate) warned: HashSet<(Entity, u16)>,
    pub(crate) skipped: usize,
    pub(crate) phase_seconds: [f64; 5],
    /// For each body in query order (as gathered), its index in the core, or `u32::MAX`
    /// if it was skipped: the write-back walks the query in the same order.
    pub(crate) core_index: Vec<u32>,
    /// The gather's scratch, in query order: each body's description (the full gather's:
    /// a [kept](crate::kept) gather describes only the bodies it reads), and its entity,
    /// opt-in and problems (kept apart so the descriptions can be ordered in place).
    pub(crate) gathered_descs: Vec<circle_collide_core::BodyDesc>,
    pub(crate) gathered: Vec<(Entity, bool, circle_collide_core::InputIssues)>,
    /// Last step's canonical order (indices into `gathered`), the hint for this step's.
    pub(crate) last_order: Vec<u32>,
    /// The scratch of the canonical order computed from the core's bodies as the last step
    /// left them, while the gather reads the ECS (see [`integrate`](crate::integrate)).
    pub(crate) order_inputs: circle_collide_core::order::OrderInputs,
    /// What became of each body added, in canonical order (the gather's scratch).
    pub(crate) added: Vec<circle_collide_core::add_bodies::AddOutcome>,
    /// Whether this step's gather took the order computed from the core's bodies.
    pub(crate) order_ahead: bool,
    /// The fewest bodies (in the core, from the last step) for which the gather computes
    /// that order on another thread ([`ORDER_AHEAD_MIN_BODIES`]; tests lower it).
    pub(crate) order_ahead_min_bodies: usize,
    /// The write-back's copy of the core's values, in query order (`None`: skipped).
    pub(crate) written: Vec<Option<crate::resolve::Written>>,
    /// When the plugin last wrote the [`ContactMemory`](crate::ContactMemory) resource
    /// from the core's memory: while the resource has not changed since, the core's own
    /// copy is the same and is not reloaded.
    pub(crate) memory_written: Option<bevy::ecs::change_detection::Tick>,
    /// The configuration problems warned about (each is warned once while it lasts).
    pub(crate) config_warned: Vec<String>,
    /// The last warning logged about degraded steps (see [`step_warning`](Self::step_warning)).
    pub(crate) step_warned: Option<String>,
    /// [`resting_settings`](crate::CircleCollideConfig::resting_settings) at the last
    /// change of the configuration (`None` before the first step): a change to them wakes
    /// every body.
    pub(crate) resting_settings: Option<[u64; 14]>,
    /// Whether the arena was found too small for the bodies in it (warned once while the
    /// configuration stays the same).
    pub(crate) arena_warned: bool,
    /// Whether this step's deep overlaps belong to a jam that started with many bodies
    /// pushed into the arena (their warnings are folded into the arena's).
    pub(crate) arena_jam: bool,
    /// The spatial queries' index of the last step's circles, built on the first query
    /// after the step ([`SpatialQuery`](crate::SpatialQuery)).
    pub(crate) query_index: std::sync::OnceLock<circle_collide_core::query::SpatialIndex>,
    /// The level colliders, by the owner number their segments carry.
    pub(crate) level_entities: Vec<Entity>,
    /// Whether the current step is skipped: the world stood still after the last step
    /// and nothing the step reads has changed since
    /// ([`CircleCollideConfig::skip_idle_steps`](crate::CircleCollideConfig::skip_idle_steps)).
    pub(crate) idle: bool,
    /// When the last full step's resolve phase wrote this resource: a later change is
    /// somebody else's (the game through [`simulation_mut`](Self::simulation_mut), the
    /// level's system, a removed body) and the next step is not skipped.
    pub(crate) written_tick: Option<bevy::ecs::change_detection::Tick>,
    /// A body lost one of the components the gather reads since the last full step.
    pub(crate) lost_component: bool,
    /// The bodies that lost one of those components since the last step: the sleepers
    /// touching them wake ([`sleeper_wakes`](crate::sleeper_wakes)).
    pub(crate) stripped: Vec<Entity>,
    /// The tick of the last gather (the integrate system's run that read the bodies).
    pub(crate) gathered_tick: bevy::ecs::change_detection::Tick,
    /// Whether the last write-back left every body as the core has it and hid no change
    /// of the game's: the next gather may then keep the bodies nobody changed since
    /// (see [`integrate`](crate::integrate)).
    pub(crate) kept_ready: bool,
    /// Whether the last write-back changed a component's value: the next step then runs
    /// whatever else changed (it may change more — a pile that just fell asleep drops its
    /// remembered contacts — so only its values compared are not enough; see
    /// [`idle`](crate::idle)).
    pub(crate) wrote: bool,
    /// Whether the gather keeps the bodies nobody changed (tests turn it off to compare).
    pub(crate) keep_unchanged: bool,
    /// Whether this step's gather kept the bodies nobody changed.
    pub(crate) kept: bool,
    /// Steps left before the gather tries to keep unchanged bodies again (it read most
    /// of them: see [`kept`](crate::kept)).
    pub(crate) kept_pause: u32,
    /// How long the next pause lasts.
    pub(crate) kept_pause_len: u32,
    /// The kept gather's scratch: each body's source (query order), the descriptions of
    /// the bodies it read, and the sources in canonical order.
    pub(crate) kept_scratch: crate::kept::KeptScratch,
    /// A level collider was removed since the level was last built.
    pub(crate) level_removed: bool,
}

/// The fewest bodies for which the gather computes the canonical order of the core's
/// bodies on another thread while it reads the ECS: below it, handing a job to the pool
/// costs more than the order it saves.
pub(crate) const ORDER_AHEAD_MIN_BODIES: usize = 4096;

impl Default for CircleCollideWorld {
    /// An empty world whose parallel phases run on Bevy's `ComputeTaskPool`.
    fn default() -> Self {
        let mut sim = Simulation::default();
        sim.set_executor(std::sync::Arc::new(crate::tasks::ComputeTaskPoolExecutor));
        Self {
            sim,
            entities: Vec::new(),
            opted_in: Vec::new(),
            warned: HashSet::default(),
            skipped: 0,
            phase_seconds: [0.0; 5],
            gathered_descs: Vec::new(),
            gathered: Vec::new(),
            last_order: Vec::new(),
            order_inputs: Default::default(),
            added: Vec::new(),
            order_ahead: false,
            order_ahead_min_bodies: ORDER_AHEAD_MIN_BODIES,
            written: Vec::new(),
            core_index: Vec::new(),
            memory_written: None,
            config_warned: Vec::new(),
            step_warned: None,
            resting_settings: None,
            arena_warned: false,
            arena_jam: false,
            query_index: std::sync::OnceLock::new(),
            level_entities: Vec::new(),
            idle: false,
            written_tick: None,
            lost_component: false,
            stripped: Vec::new(),
            gathered_tick: Default::default(),
            kept_ready: false,
            wrote: false,
            keep_unchanged: true,
            kept: false,
            kept_pause: 0,
            kept_pause_len: crate::kept::KEPT_PAUSE,
            kept_scratch: Default::default(),
            level_removed: false,
        }
    }
}

impl CircleCollideWorld {
    /// Replaces the executor of the parallel phases (default:
    /// [`ComputeTaskPoolExecutor`](crate::ComputeTaskPoolExecutor)); results do not depend
    /// on it. For example, to keep the physics on one thread:
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// use bevy_circle_collide::CircleCollideWorld;
    /// use bevy_circle_collide::core::parallel::Serial;
    /// let mut world = CircleCollideWorld::default();
    /// world.set_executor(std::sync::Arc::new(Serial));
    /// ```
    pub fn set_executor(
        &mut self,
        executor: std::sync::Arc<dyn circle_collide_core::parallel::Executor>,
    ) {
        self.sim.set_executor(executor);
    }

    /// The core simulation of the last step (bodies, impacts, contacts, statistics).
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// Mutable access to the core simulation, for a phase system that replaces one of
    /// the plugin's.
    pub fn simulation_mut(&mut self) -> &mut Simulation {
        self.query_index = std::sync::OnceLock::new();
        &mut self.sim
    }

    /// The level collider entity and the index of the segment within it (see
    /// [`LevelCollider::segments`](crate::LevelCollider::segments)) of the core's level
    /// segment `segment`.
    pub fn level_segment(&self, segment: u32) -> Option<(Entity, u32)> {
        let s = self.sim.level().segments().get(segment as usize)?;
        Some((*self.level_entities.get(s.owner as usize)?, s.part))
    }

    /// Entity of the core's body `index`.
    pub fn entity(&self, index: u32) -> Entity {
        self.entities[index as usize]
    }

    /// Entities in core body order.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// Every (entity, problems) pair warned about so far: one warning each.
    pub fn warnings(
        &self,
    ) -> impl Iterator<Item = (Entity, circle_collide_core::InputIssues)> + '_ {
        self.warned
            .iter()
            .map(|(e, bits)| (*e, circle_collide_core::InputIssues(*bits)))
    }

    /// Whether the next gather may keep the bodies nobody changed, as far as the world's
    /// size and the kept gather's pause say (see [`kept`](crate::kept)); the rest of its
    /// conditions are the step's. The gather asks before it counts its pause down, the
    /// write-back (watching for it) after.
    pub(crate) fn may_keep(&self) -> bool {
        self.keep_unchanged
            && self.kept_pause == 0
            && self.sim.bodies().len() >= self.order_ahead_min_bodies
    }

    /// Logs `issues` for `entity` unless this exact report was already made.
    pub(crate) fn warn_once(&mut self, entity: Entity, issues: circle_collide_core::InputIssues) {
        if issues != circle_collide_core::InputIssues::NONE
            && self.warned.insert((entity, issues.0))
        {
            warn!(
                "bevy_circle_collide: entity {entity}: {}",
                issues.describe()
            );
        }
    }

    /// Logs each of `problems` (of the configuration) not already warned about, and
    /// forgets the ones that were fixed; a changed configuration may warn about the arena
    /// again.
    pub(crate) fn warn_config(&mut self, problems: &[String]) {
        for p in problems {
            if !self.config_warned.contains(p) {
                warn!("bevy_circle_collide: config: {p}");
            }
        }
        self.config_warned = problems.to_vec();
        self.arena_warned = false;
    }

    /// Logs `message` about the arena (once until the configuration changes).
    pub(crate) fn warn_arena(&mut self, message: String) {
        warn!("bevy_circle_collide: config: {message}");
        self.config_warned.push(message);
        self.arena_warned = true;
    }

    /// The problems of the configuration in force that were warned about, one line each
    /// (see [`CircleCollideConfig::problems`](crate::CircleCollideConfig::problems)),
    /// plus a warning about the arena if several bodies were found outside it in one step.
    pub fn config_warnings(&self) -> &[String] {
        &self.config_warned
    }

    /// The last warning logged about degraded steps — steps that hit the impact cap or
    /// left overlaps deeper than the slop, summed up at most once every ten seconds of
    /// steps (their counts are in [`CollisionDiagnostics`](crate::CollisionDiagnostics)) —
    /// or `None` if there was none.
    pub fn step_warning(&self) -> Option<&str> {
        self.step_warned.as_deref()
    }

    /// Records the wall-clock time of `phase` (0..5) since `start`.
    pub(crate) fn time_phase(&mut self, phase: usize, start: std::time::Instant) {
        self.phase_seconds[phase] = start.elapsed().as_secs_f64();
    }
}

/// Runs `run` on the core unless this step is idle (the gather found nothing to do: see
/// [`idle`](crate::idle)), timed as phase `phase`. An idle step leaves the resource
/// unchanged (it is only read): a change to it is somebody else's.
pub(crate) fn run_phase(
    world: &mut ResMut<CircleCollideWorld>,
    phase: usize,
    run: impl FnOnce(&mut Simulation),
) {
    if world.idle {
        return;
    }
    let start = std::time::Instant::now();
    run(&mut world.sim);
    world.time_phase(phase, start);
}
