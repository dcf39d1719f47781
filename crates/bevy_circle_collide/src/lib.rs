//! # bevy_circle_collide
//!
//! Exact 2D circle collisions for Bevy: every approaching pair gets its exact time of
//! impact, impacts inside a step are handled in time order, nothing tunnels, elastic
//! collisions conserve energy and momentum, and every impact is reported with its time,
//! point, normal, impulse and approach speed.
//!
//! ## Quick start
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_circle_collide::prelude::*;
//!
//! fn setup(mut commands: Commands) {
//!     commands.spawn((CircleCollider::new(0.5), Transform::from_xyz(0.0, 0.0, 0.0), Velocity(Vec2::X)));
//!     commands.spawn((CircleCollider::new(0.5), Transform::from_xyz(3.0, 0.0, 0.0)));
//! }
//!
//! fn on_hits(mut hits: MessageReader<CollisionEvent>) {
//!     for hit in hits.read() {
//!         println!("{} hit {:?} {:.3} s into the step", hit.a, hit.b, hit.time);
//!     }
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, TransformPlugin, CircleCollidePlugin::default()))
//!     .add_systems(Startup, setup)
//!     .add_systems(Update, on_hits)
//!     .update();
//! ```
//!
//! ## The step
//!
//! In the plugin's schedule (default `FixedPostUpdate`, so the step length is the fixed
//! timestep), five chained [`CircleCollideSystems`] sets run once per step:
//!
//! 1. **Integrate** — bodies are gathered from the ECS (`Transform` x/y, [`Velocity`],
//!    [`Mass`], [`Restitution`]), invalid ones repaired or skipped with a one-time
//!    warning, swept boxes computed. Under gravity every free body flies on its exact
//!    parabola through the step, so a bounce or a landing happens at its exact time and an
//!    elastic ball keeps its apex; bodies held by resting contacts move in straight lines
//!    at the velocity the contact solver gives them.
//! 2. **BroadPhase** — candidate pairs from a spatial grid sized from the bodies;
//!    huge or very fast circles are tested against all bodies instead of flooding it.
//! 3. **NarrowPhase** — overlap manifolds (depth, normal, tangent, point) of the pairs
//!    touching at the start of the step.
//! 4. **TimeOfImpact** — slow contacts solved, then the exact earliest time of impact
//!    of every approaching pair and body–wall pair (a quadratic, or a quartic for a
//!    flying body against a static, kinematic or resting one); impacts are handled in time order, each changing only the two
//!    bodies' predictions (their new paths are looked up in the grid again).
//! 5. **Resolve** — bodies are moved to the end of the step, overlaps deeper than the
//!    slop pushed apart (positions only), results written back, events sent.
//!
//! ## Events
//!
//! [`CollisionEvent`] messages are written in the order impacts happened within the
//! step. [`CollisionHit`] is triggered on entities carrying [`CollisionEventsEnabled`].
//! Resting impacts (approach speed under
//! [`CircleCollideConfig::resting_speed`]) produce no event unless
//! [`CircleCollideConfig::report_resting_impacts`] is set.
//!
//! Touch tracking: [`CollisionStarted`] / [`CollisionEnded`] messages when two colliders
//! begin or stop touching (resting contact and sensor overlaps included; an end is also
//! sent when one of them is despawned or loses its collider), and the opt-in
//! [`CollidingEntities`] component. A pair resting on each other sends one
//! `CollisionStarted`, then nothing until it separates.
//!
//! ## Filtering
//!
//! [`CollisionLayers`] (32 layers, membership and filter masks), [`IgnoredCollisions`]
//! for specific pairs, and [`Sensor`] for triggers that report entry with its exact time
//! but never push.
//!
//! ## Units and defaults
//!
//! Any consistent units. Mass defaults to `density × π r²` (density 1); restitution to
//! 1; no gravity; no arena. See [`CircleCollideConfig`] for every default.
//!
//! ## Coming from avian2d
//!
//! | avian2d | bevy_circle_collide |
//! |---|---|
//! | `PhysicsPlugins::default()` | [`CircleCollidePlugin::default()`] (or [`CircleCollidePlugins`] to swap a phase) |
//! | `RigidBody::Dynamic` + `Collider::circle(r)` | [`CircleCollider::new(r)`](CircleCollider::new) (dynamic by default) |
//! | `RigidBody::Static` | [`Mass::Static`] |
//! | `RigidBody::Kinematic` + `LinearVelocity` | [`Mass::Static`] + [`Velocity`] |
//! | `LinearVelocity(v)` | [`Velocity(v)`](Velocity) |
//! | `Mass(m)` | [`Mass::Fixed(m)`](Mass::Fixed) |
//! | `Restitution::new(e)` | [`Restitution(e)`](Restitution) (pair rule in the config, default `Max`) |
//! | `Gravity(v)` resource | [`CircleCollideConfig::gravity`] |
//! | `CollisionLayers::new(m, f)` | [`CollisionLayers::new(m, f)`](CollisionLayers::new) (plain `u32` masks) |
//! | `Sensor` | [`Sensor`] (entry reported with its exact time) |
//! | `CollisionStart` / `CollisionEnd` | [`CollisionStarted`] / [`CollisionEnded`] |
//! | `CollidingEntities` | [`CollidingEntities`] |
//! | `CollisionEventsEnabled` + observers | [`CollisionEventsEnabled`] + [`CollisionHit`] |
//! | `SweptCcd` (opt-in) | nothing to add: every pair is continuous |
//!
//! Walls: instead of four static boxes, set [`CircleCollideConfig::arena`]. Rotation,
//! friction and non-circle shapes do not exist here.

mod body_read;
mod broad_phase;
mod components;
mod config;
mod contacts;
#[cfg(feature = "debug-render")]
mod debug;
mod degraded;
mod diagnostics;
mod events;
mod idle;
mod integrate;
mod kept;
#[cfg(test)]
mod kept_tests;
mod level;
mod narrow_phase;
#[cfg(test)]
mod order_ahead_tests;
mod precise;
#[cfg(feature = "serialize")]
pub mod preset;
mod resolve;
mod schedule;
mod sleep;
mod sleeper_wakes;
mod spatial_query;
mod tasks;
mod time_of_impact;
mod touch;
mod world;

pub use broad_phase::BroadPhasePlugin;
pub use circle_collide_core as core;
pub use components::{
    AngularVelocity, CircleCollider, CollidingEntities, CollisionEventsEnabled, CollisionLayers,
    Friction, IgnoredCollisions, Mass, MomentOfInertia, Restitution, RollingResistance, Sensor,
    Velocity,
};
pub use config::{ArenaConfig, CircleCollideConfig, CombineRule};
pub use contacts::{ContactMemory, ContactPartner, RememberedContact};
#[cfg(feature = "debug-render")]
pub use debug::{CircleCollideDebugConfig, CircleCollideDebugPlugin};
pub use diagnostics::CollisionDiagnostics;
pub use events::{CollisionEnded, CollisionEvent, CollisionHit, CollisionStarted, CollisionTarget};
pub use integrate::IntegratePlugin;
pub use level::{LevelCollider, LevelShape};
pub use narrow_phase::NarrowPhasePlugin;
pub use precise::PreciseMotion;
pub use resolve::ResolvePlugin;
pub use schedule::CircleCollideSystems;
pub use sleep::SleepState;
pub use spatial_query::{RayHit, SpatialQuery, SpatialQueryFilter};
pub use tasks::{ComputeTaskPoolExecutor, task_pool_options};
pub use time_of_impact::TimeOfImpactPlugin;
pub use world::CircleCollideWorld;

use bevy::app::PluginGroupBuilder;
use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// Everything a game needs: `use bevy_circle_collide::prelude::*;`.
pub mod prelude {
    pub use crate::{
        AngularVelocity, ArenaConfig, CircleCollideConfig, CircleCollidePlugin,
        CircleCollidePlugins, CircleCollideSystems, CircleCollider, CollidingEntities,
        CollisionDiagnostics, CollisionEnded, CollisionEvent, CollisionEventsEnabled, CollisionHit,
        CollisionLayers, CollisionStarted, CollisionTarget, CombineRule, ContactMemory, Friction,
        IgnoredCollisions, LevelCollider, LevelShape, Mass, MomentOfInertia, PreciseMotion,
        Restitution, RollingResistance, Sensor, SleepState, SpatialQuery, SpatialQueryFilter,
        Velocity,
    };
    pub use circle_collide_core::Wall;
}

/// The collision plugin: adds [`CircleCollidePlugins`] with every phase. Its field is a
/// build-time choice; runtime tunables live in the [`CircleCollideConfig`] resource
/// (inserted with defaults unless already present).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// App::new().add_plugins((MinimalPlugins, CircleCollidePlugin::new(FixedPostUpdate)));
/// ```
pub struct CircleCollidePlugin {
    /// Schedule the step runs in. Default `FixedPostUpdate` (the step length is then the
    /// fixed timestep, `Time<Fixed>`).
    pub schedule: Interned<dyn ScheduleLabel>,
}

impl Default for CircleCollidePlugin {
    fn default() -> Self {
        Self {
            schedule: FixedPostUpdate.intern(),
        }
    }
}

impl CircleCollidePlugin {
    /// The plugin running in `schedule`.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Plugin for CircleCollidePlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(CircleCollidePlugins {
            schedule: self.schedule,
        });
    }
}

/// The plugin as a group, one plugin per phase, so a phase can be disabled or replaced:
///
/// ```
/// use bevy::prelude::*;
/// use bevy_circle_collide::prelude::*;
/// use bevy_circle_collide::{CircleCollideWorld, NarrowPhasePlugin};
///
/// // My own narrow phase, in the same set.
/// fn my_narrow_phase(mut world: ResMut<CircleCollideWorld>) {
///     world.simulation_mut().narrow_phase();
/// }
///
/// App::new()
///     .add_plugins((MinimalPlugins, CircleCollidePlugins::default().build().disable::<NarrowPhasePlugin>()))
///     .add_systems(FixedPostUpdate, my_narrow_phase.in_set(CircleCollideSystems::NarrowPhase));
/// ```
pub struct CircleCollidePlugins {
    /// Schedule every phase runs in. Default `FixedPostUpdate`.
    pub schedule: Interned<dyn ScheduleLabel>,
}

impl Default for CircleCollidePlugins {
    fn default() -> Self {
        Self {
            schedule: FixedPostUpdate.intern(),
        }
    }
}

impl PluginGroup for CircleCollidePlugins {
    fn build(self) -> PluginGroupBuilder {
        let schedule = self.schedule;
        PluginGroupBuilder::start::<Self>()
            .add(CircleCollideCorePlugin { schedule })
            .add(IntegratePlugin { schedule })
            .add(BroadPhasePlugin { schedule })
            .add(NarrowPhasePlugin { schedule })
            .add(TimeOfImpactPlugin { schedule })
            .add(ResolvePlugin { schedule })
    }
}

/// Resources, messages, reflection and the ordered sets; the phases come from the other
/// plugins of [`CircleCollidePlugins`]. Added by the group; on its own it steps nothing:
///
/// ```
/// # use bevy::prelude::*;
/// use bevy::ecs::schedule::ScheduleLabel;
/// use bevy_circle_collide::{CircleCollideCorePlugin, CircleCollideConfig};
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, CircleCollideCorePlugin { schedule: FixedPostUpdate.intern() }));
/// assert!(app.world().contains_resource::<CircleCollideConfig>());
/// ```
pub struct CircleCollideCorePlugin {
    /// Schedule the sets are configured in.
    pub schedule: Interned<dyn ScheduleLabel>,
}

impl Plugin for CircleCollideCorePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CircleCollideConfig>()
            .init_resource::<CircleCollideWorld>()
            .init_resource::<CollisionDiagnostics>()
            .init_resource::<ContactMemory>()
            .init_resource::<touch::Touching>()
            .add_message::<CollisionEvent>()
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .register_type::<CircleCollider>()
            .register_type::<Velocity>()
            .register_type::<AngularVelocity>()
            .register_type::<Friction>()
            .register_type::<RollingResistance>()
            .register_type::<MomentOfInertia>()
            .register_type::<Mass>()
            .register_type::<Restitution>()
            .register_type::<CollisionLayers>()
            .register_type::<Sensor>()
            .register_type::<IgnoredCollisions>()
            .register_type::<CollidingEntities>()
            .register_type::<CollisionEventsEnabled>()
            .register_type::<CircleCollideConfig>()
            .register_type::<CollisionDiagnostics>()
            .register_type::<SleepState>()
            .register_type::<PreciseMotion>()
            .register_type::<ContactMemory>()
            .register_type::<LevelCollider>();
        schedule::configure_sets(app, self.schedule);
        app.add_observer(sleep::vacate_on_remove);
        app.add_observer(idle::note_removal);
        app.add_observer(level::note_level_removal);
        app.add_systems(
            self.schedule,
            level::sync_level.before(CircleCollideSystems::Integrate),
        );
    }
}

/// The README's code blocks, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
