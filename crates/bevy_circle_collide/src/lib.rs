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
//!    warning, gravity added to velocities, swept boxes computed.
//! 2. **BroadPhase** — candidate pairs from a spatial grid sized from the bodies;
//!    huge or very fast circles are tested against all bodies instead of flooding it.
//! 3. **NarrowPhase** — overlap manifolds (depth, normal, tangent, point) of the pairs
//!    touching at the start of the step.
//! 4. **TimeOfImpact** — the exact earliest time of impact of every approaching pair
//!    and body–wall pair; impacts are handled in time order, each changing only the two
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
//! ## Units and defaults
//!
//! Any consistent units. Mass defaults to `density × π r²` (density 1); restitution to
//! 1; no gravity; no arena. See [`CircleCollideConfig`] for every default.

mod broad_phase;
mod components;
mod config;
mod diagnostics;
mod events;
mod integrate;
mod narrow_phase;
mod resolve;
mod schedule;
mod time_of_impact;
mod world;

pub use circle_collide_core as core;
pub use components::{CircleCollider, CollisionEventsEnabled, Mass, Restitution, Velocity};
pub use config::{ArenaConfig, CircleCollideConfig, CombineRule};
pub use diagnostics::CollisionDiagnostics;
pub use events::{CollisionEvent, CollisionHit, CollisionTarget};
pub use schedule::CircleCollideSystems;
pub use world::CircleCollideWorld;

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

/// Everything a game needs: `use bevy_circle_collide::prelude::*;`.
pub mod prelude {
    pub use crate::{
        ArenaConfig, CircleCollideConfig, CircleCollidePlugin, CircleCollideSystems,
        CircleCollider, CollisionDiagnostics, CollisionEvent, CollisionEventsEnabled, CollisionHit,
        CollisionTarget, CombineRule, Mass, Restitution, Velocity,
    };
    pub use circle_collide_core::Wall;
}

/// The collision plugin. Its field is a build-time choice; runtime tunables live in the
/// [`CircleCollideConfig`] resource (inserted with defaults unless already present).
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
        app.init_resource::<CircleCollideConfig>()
            .init_resource::<CircleCollideWorld>()
            .init_resource::<CollisionDiagnostics>()
            .add_message::<CollisionEvent>()
            .register_type::<CircleCollider>()
            .register_type::<Velocity>()
            .register_type::<Mass>()
            .register_type::<Restitution>()
            .register_type::<CollisionEventsEnabled>()
            .register_type::<CircleCollideConfig>()
            .register_type::<CollisionDiagnostics>();
        schedule::configure_sets(app, self.schedule);
        app.add_systems(
            self.schedule,
            (
                integrate::integrate.in_set(CircleCollideSystems::Integrate),
                broad_phase::broad_phase.in_set(CircleCollideSystems::BroadPhase),
                narrow_phase::narrow_phase.in_set(CircleCollideSystems::NarrowPhase),
                time_of_impact::time_of_impact.in_set(CircleCollideSystems::TimeOfImpact),
                resolve::resolve.in_set(CircleCollideSystems::Resolve),
            ),
        );
    }
}

/// The README's code blocks, compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
