//! Reading one body from the ECS into the core's description of it.

use crate::components::{
    AngularVelocity, CircleCollider, CollisionEventsEnabled, CollisionLayers, Friction, Mass,
    MomentOfInertia, Restitution, RollingResistance, Sensor, Velocity,
};
use crate::precise::PreciseMotion;
use crate::sleep::SleepState;
use bevy::ecs::change_detection::Tick;
use bevy::ecs::query::QueryItem;
use bevy::math::DVec2;
use bevy::prelude::*;
use circle_collide_core::{BodyDesc, InputIssues, Layers};
use std::f64::consts::PI;

/// Everything the gather reads of one body.
pub(crate) type BodyQuery<'a> = (
    Entity,
    &'a CircleCollider,
    &'a Velocity,
    &'a Mass,
    Option<&'a Restitution>,
    &'a Transform,
    Has<CollisionEventsEnabled>,
    Option<&'a CollisionLayers>,
    Has<Sensor>,
    Option<&'a SleepState>,
    Option<&'a AngularVelocity>,
    Option<&'a Friction>,
    Option<&'a RollingResistance>,
    Option<&'a MomentOfInertia>,
    Option<Ref<'a, PreciseMotion>>,
);

/// One body of a [`BodyQuery`].
pub(crate) type BodyItem<'w, 's> = QueryItem<'w, 's, BodyQuery<'static>>;

/// The change ticks of everything [`BodyQuery`] reads, for the same bodies in the same
/// order: the gather may keep a body none of them changed (see [`kept`](crate::kept)).
/// A query of its own: its items are heavier than [`BodyQuery`]'s.
pub(crate) type TickQuery<'a> = (
    Entity,
    Ref<'a, CircleCollider>,
    Ref<'a, Velocity>,
    Ref<'a, Mass>,
    Option<Ref<'a, Restitution>>,
    Ref<'a, Transform>,
    Option<Ref<'a, CollisionEventsEnabled>>,
    Option<Ref<'a, CollisionLayers>>,
    Option<Ref<'a, Sensor>>,
    Option<Ref<'a, SleepState>>,
    Option<Ref<'a, AngularVelocity>>,
    Option<Ref<'a, Friction>>,
    Option<Ref<'a, RollingResistance>>,
    Option<Ref<'a, MomentOfInertia>>,
    Option<Ref<'a, PreciseMotion>>,
);

/// One body of a [`TickQuery`].
pub(crate) type TickItem<'w, 's> = QueryItem<'w, 's, TickQuery<'static>>;

/// The configuration's rules the gather applies to every body.
pub(crate) struct Rules {
    /// [`CircleCollideConfig::effective_density`](crate::CircleCollideConfig::effective_density).
    pub density: f64,
    /// A setting that bodies at rest depend on changed: every body wakes.
    pub wake_all: bool,
    /// [`CircleCollideConfig::effective_default_restitution`](crate::CircleCollideConfig::effective_default_restitution).
    pub restitution: f64,
    /// [`CircleCollideConfig::effective_default_surface`](crate::CircleCollideConfig::effective_default_surface):
    /// friction, rolling resistance.
    pub surface: (f64, f64),
}

impl Rules {
    /// The rules in force under `config`; `wake_all` as given.
    pub(crate) fn of(config: &crate::CircleCollideConfig, wake_all: bool) -> Self {
        Self {
            density: config.effective_density(),
            wake_all,
            restitution: config.effective_default_restitution(),
            surface: config.effective_default_surface(),
        }
    }
}

/// Whether the game opted the body into targeted events.
#[inline]
pub(crate) fn opted_in(item: &BodyItem) -> bool {
    item.6
}

/// Whether `changed` holds for the change tick of one of the body's components (a
/// component added since counts: its tick is the addition's). Every tick is tested, the
/// results or-ed without branches: most bodies have none changed.
#[inline(always)]
pub(crate) fn any_changed(item: &TickItem, changed: impl Fn(Tick) -> bool) -> bool {
    let some = |c: Option<Tick>| c.is_some_and(&changed);
    let (_, collider, velocity, mass, restitution, transform, events, layers, sensor, ..) = item;
    let (.., sleep, spin, friction, rolling, inertia, precise) = item;
    changed(collider.last_changed())
        | changed(velocity.last_changed())
        | changed(mass.last_changed())
        | changed(transform.last_changed())
        | some(restitution.as_ref().map(|c| c.last_changed()))
        | some(events.as_ref().map(|c| c.last_changed()))
        | some(layers.as_ref().map(|c| c.last_changed()))
        | some(sensor.as_ref().map(|c| c.last_changed()))
        | some(sleep.as_ref().map(|c| c.last_changed()))
        | some(spin.as_ref().map(|c| c.last_changed()))
        | some(friction.as_ref().map(|c| c.last_changed()))
        | some(rolling.as_ref().map(|c| c.last_changed()))
        | some(inertia.as_ref().map(|c| c.last_changed()))
        | some(precise.as_ref().map(|c| c.last_changed()))
}

/// The core's description of one body and the problems found reading it; pushes onto
/// `vacated` the places whose sleepers must wake (a sleeping body the game moved, a
/// static body the game moved).
#[inline(always)]
pub(crate) fn describe(
    item: &BodyItem,
    rules: &Rules,
    vacated: &mut Vec<(DVec2, f64)>,
) -> (BodyDesc, InputIssues) {
    let (entity, collider, velocity, mass, restitution, transform, _, layers, sensor, ..) = item;
    let (.., sleep, spin, friction, rolling, inertia, precise) = item;
    let radius = f64::from(collider.radius);
    let auto_mass = rules.density * PI * radius * radius;
    let mut issues = InputIssues::NONE;
    let mass = match **mass {
        Mass::Auto => auto_mass,
        Mass::Static => f64::INFINITY,
        Mass::Fixed(m) if m.is_finite() && m > 0.0 => f64::from(m),
        Mass::Fixed(_) => {
            issues |= InputIssues::INVALID_MASS;
            auto_mass
        }
    };
    let sleep = sleep.copied().unwrap_or_default();
    // The game moved a sleeping body or gave it a speed: it wakes.
    let omega = spin.map_or(0.0, |w| w.0);
    let translation = transform.translation.truncate();
    let moved = sleep.sleeping && translation != sleep.position;
    let touched = moved || (sleep.sleeping && (velocity.0 != Vec2::ZERO || omega != 0.0));
    if moved {
        // What rested on it at its old place wakes too.
        vacated.push((sleep.position.as_dvec2(), radius));
    }
    // Step from the last step's double-precision values unless the game changed them.
    let stepped = precise.as_ref().is_some_and(|p| !p.is_added());
    let precise = precise
        .as_ref()
        .map_or_else(PreciseMotion::default, |p| **p);
    if stepped && mass.is_infinite() && precise.position.as_vec2() != translation {
        // A static body the game moved: the sleepers at its old place (they rested
        // on it) and at its new one (it was set down on them) wake.
        vacated.push((precise.position, radius));
        vacated.push((translation.as_dvec2(), radius));
    }
    let (position, linear, omega) = (
        precise.position_from(translation),
        precise.velocity_from(velocity.0),
        precise.spin_from(omega),
    );
    let desc = BodyDesc {
        position,
        velocity: linear,
        radius,
        mass,
        restitution: restitution.map_or(rules.restitution, |r| f64::from(r.0)),
        layers: layers.map_or(Layers::ALL, |l| Layers::new(l.memberships, l.filters)),
        sensor: *sensor,
        key: Some(entity.to_bits()),
        sleeping: sleep.sleeping && !touched && !rules.wake_all,
        // A body woken, or any body when the configuration changed, starts resting anew,
        // as the core's wakes do: with its rest time kept (past `time_to_sleep`) it fell
        // asleep again after one slow step, wherever it was (a sleeping stack under
        // gravity turned sideways stayed put).
        rest_time: if touched || rules.wake_all {
            0.0
        } else {
            f64::from(sleep.rest_time)
        },
        angular_velocity: omega,
        angle: precise.angle_from(transform.rotation),
        friction: friction.map_or(rules.surface.0, |f| f64::from(f.0)),
        rolling_resistance: rolling.map_or(rules.surface.1, |c| f64::from(c.0)),
        inertia: inertia.map(|i| f64::from(i.0)),
        // The game changed its velocity since the last step.
        steered: stepped && precise.velocity.as_vec2() != velocity.0,
    };
    (desc, issues)
}
