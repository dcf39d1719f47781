//! The system sets of the step and their order — the one place ordering is declared.

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::transform::TransformSystems;

/// The five phases of a collision step, chained in this order in the plugin's schedule
/// (default `FixedPostUpdate`), before transform propagation. Order your own systems
/// against them, e.g. `.before(CircleCollideSystems::Integrate)` to set velocities for
/// this step, `.after(CircleCollideSystems::Resolve)` to see its results.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_circle_collide::prelude::*;
/// fn thrusters(mut q: Query<&mut Velocity>) {
///     for mut v in &mut q {
///         v.0 *= 1.01;
///     }
/// }
/// App::new().add_systems(FixedPostUpdate, thrusters.before(CircleCollideSystems::Integrate));
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CircleCollideSystems {
    /// Gather bodies from the ECS, validate them, start their flight under gravity,
    /// compute swept boxes.
    Integrate,
    /// Candidate pairs from the spatial grid.
    BroadPhase,
    /// Overlap manifolds of touching pairs.
    NarrowPhase,
    /// Exact times of impact and the in-step event loop (impulses applied in time order).
    TimeOfImpact,
    /// Finish motion, separate overlaps, write back to the ECS, send events.
    Resolve,
}

impl CircleCollideSystems {
    /// All phases in execution order.
    pub const ALL: [CircleCollideSystems; 5] = [
        CircleCollideSystems::Integrate,
        CircleCollideSystems::BroadPhase,
        CircleCollideSystems::NarrowPhase,
        CircleCollideSystems::TimeOfImpact,
        CircleCollideSystems::Resolve,
    ];
}

/// Chains the five sets in `schedule`, before transform propagation.
pub(crate) fn configure_sets(app: &mut App, schedule: Interned<dyn ScheduleLabel>) {
    use CircleCollideSystems::*;
    app.configure_sets(
        schedule,
        (Integrate, BroadPhase, NarrowPhase, TimeOfImpact, Resolve)
            .chain()
            .before(TransformSystems::Propagate),
    );
}

/// Defines the plugin of one phase: it adds `$systems` to `$set` in its schedule.
/// Disable it in [`CircleCollidePlugins`](crate::CircleCollidePlugins) to remove the
/// phase, or to replace it with your own systems in the same set.
macro_rules! phase_plugin {
    ($(#[$doc:meta])* $name:ident, $set:expr, $systems:expr) => {
        $(#[$doc])*
        ///
        /// Part of [`CircleCollidePlugins`](crate::CircleCollidePlugins); disable it there
        /// to drop or replace the phase:
        ///
        /// ```
        /// # use bevy::prelude::*;
        /// # use bevy_circle_collide::prelude::*;
        #[doc = concat!("let group = CircleCollidePlugins::default().build().disable::<bevy_circle_collide::", stringify!($name), ">();")]
        /// App::new().add_plugins((MinimalPlugins, group));
        /// ```
        pub struct $name {
            /// Schedule the phase runs in (the same for every phase).
            pub schedule: bevy::ecs::intern::Interned<dyn bevy::ecs::schedule::ScheduleLabel>,
        }

        impl Default for $name {
            fn default() -> Self {
                use bevy::ecs::schedule::ScheduleLabel;
                Self { schedule: bevy::prelude::FixedPostUpdate.intern() }
            }
        }

        impl bevy::prelude::Plugin for $name {
            fn build(&self, app: &mut bevy::prelude::App) {
                use bevy::prelude::IntoScheduleConfigs;
                app.add_systems(self.schedule, $systems.in_set($set));
            }
        }
    };
}
pub(crate) use phase_plugin;

/// The parameter that keeps a step's systems on the thread running the schedule (the
/// main thread in an `App`): Bevy's multi-threaded executor runs any other system on a
/// pool thread, so the seven systems of a step would be handed from thread to thread,
/// each hand-off a futex wake (a quarter of a sleeping pile's step in a profile;
/// `docs/performance.md`, "The step's systems on the main thread"). The solver still
/// shares large solves out to the compute pool. The price, measured: the gas of 10,000
/// runs ~6 % slower a step than on the pool; the gain: a sleeping world's slow steps (the
/// 2000 pile's late-half median in the dense matrix 1.0 ms against 3.0–4.8 on the pool).
pub(crate) type MainThread = bevy::ecs::system::NonSendMarker;
