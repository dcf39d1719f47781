//! Phase 1: gather bodies from the ECS into the core, validate them, start their flight.

use crate::components::{
    AngularVelocity, CircleCollider, CollisionEventsEnabled, CollisionLayers, Friction,
    IgnoredCollisions, Mass, MomentOfInertia, Restitution, RollingResistance, Sensor, Velocity,
};
use crate::config::CircleCollideConfig;
use crate::contacts::ContactMemory;
use crate::precise::PreciseMotion;
use crate::sleep::SleepState;
use crate::world::CircleCollideWorld;
use bevy::math::DVec2;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use circle_collide_core::order::OrderInputs;
use circle_collide_core::{AddBodyError, BodyDesc, InputIssues, Layers};
use std::f64::consts::PI;

crate::schedule::phase_plugin!(
    /// Phase 1: gather from the ECS, validate, flight under gravity, swept boxes.
    IntegratePlugin,
    crate::CircleCollideSystems::Integrate,
    integrate
);

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

/// Rebuilds the core's bodies from the ECS and runs the core's integrate phase.
///
/// Bodies are added in the core's [canonical order](circle_collide_core::order), keyed by
/// their entity, so results depend neither on spawn order nor on ECS iteration order. The
/// remembered contacts come from the [`ContactMemory`] resource. A sleeping body the
/// game moved or gave a velocity wakes (moved, with the sleeping bodies touching its old
/// place); so does every body when the [`CircleCollideConfig`] changed. A body whose
/// [`Velocity`] the game changed since the last step is steered in this one
/// ([`BodyDesc::steered`]).
///
/// Invalid input is repaired or skipped as [`BodyDesc::sanitize`] documents, with one
/// warning per entity and kind of problem.
///
/// A world that stood still, with nothing changed since the last step, skips the whole
/// step (the [`idle`](crate::idle) module).
#[allow(clippy::too_many_arguments)]
pub(crate) fn integrate(
    _main: crate::schedule::MainThread,
    time: Res<Time>,
    config: Res<CircleCollideConfig>,
    memory: Res<ContactMemory>,
    mut world: ResMut<CircleCollideWorld>,
    bodies: Query<BodyQuery>,
    ignored: Query<(Entity, &IgnoredCollisions)>,
    resized: Query<(Entity, Ref<CircleCollider>), Changed<CircleCollider>>,
    changed: Query<(), crate::idle::ChangedBody>,
) {
    let start = std::time::Instant::now();
    if crate::idle::may_skip(&config, &memory, &world, &changed) {
        // Written without change detection: a change to the world is somebody else's.
        let world = world.bypass_change_detection();
        world.idle = true;
        world.phase_seconds = [start.elapsed().as_secs_f64(), 0.0, 0.0, 0.0, 0.0];
        return;
    }
    let world = &mut *world;
    world.idle = false;
    world.lost_component = false;
    world.sim.config = config.to_step_config();
    wake_around_resized(world, &resized);
    world.entities.clear();
    world.opted_in.clear();
    world.skipped = 0;
    let count = bodies.iter().len();
    let wake_all = config.is_changed();
    if wake_all {
        world.warn_config(&config.problems());
    }
    let rules = Rules {
        density: config.effective_density(),
        wake_all,
        restitution: config.effective_default_restitution(),
        surface: config.effective_default_surface(),
    };
    let mut descs = std::mem::take(&mut world.gathered_descs);
    let mut gathered = std::mem::take(&mut world.gathered);
    descs.clear();
    gathered.clear();
    descs.reserve(count);
    gathered.reserve(count);
    // The canonical order of the bodies where the core has them (as the last step left
    // them), computed on another thread while this one reads the ECS; taken if every body
    // is still there (the same bodies in the same query order, each at the position and
    // with the radius the core has), else computed from what was read, with last step's
    // order as the hint (bodies move a little in a step) — never a different result.
    let mut inputs = std::mem::take(&mut world.order_inputs);
    let mut vacated = Vec::new();
    let (sim, last_index) = (&world.sim, &world.core_index);
    let mut read = || gather(&bodies, &rules, &mut descs, &mut gathered, &mut vacated);
    let ahead = if sim.bodies().len() >= world.order_ahead_min_bodies {
        crate::tasks::beside(
            || order_of_core(sim.bodies(), last_index, &mut inputs),
            read,
        )
        .flatten()
    } else {
        read();
        None
    };
    let ahead = ahead.filter(|_| {
        inputs.len() == descs.len()
            && last_index.len() == descs.len()
            && (descs.iter().zip(last_index)).all(|(d, &j)| inputs.matches(j as usize, d))
    });
    world.order_inputs = inputs;
    world.order_ahead = ahead.is_some();
    let order = ahead.unwrap_or_else(|| {
        circle_collide_core::order::canonical_order_near(&descs, &world.last_order)
    });
    // What rested on a body the game moved wakes (queued in query order).
    for (center, radius) in vacated {
        world.sim.wake_around(center, radius);
    }
    world.sim.clear_bodies();
    world.sim.reserve_bodies(count);
    world.core_index.clear();
    world.core_index.resize(gathered.len(), u32::MAX);
    let mut outcomes = std::mem::take(&mut world.added);
    world.sim.add_bodies_from(&descs, &order, &mut outcomes);
    for (&i, &outcome) in order.iter().zip(&outcomes) {
        let (entity, opted_in, mut issues) = gathered[i as usize];
        match outcome {
            Ok((index, repaired)) => {
                world.core_index[i as usize] = index;
                issues |= repaired;
                world.entities.push(entity);
                world.opted_in.push(opted_in);
            }
            Err(AddBodyError::Invalid(bad)) => {
                issues |= bad;
                world.skipped += 1;
            }
            Err(AddBodyError::TooManyBodies) => {
                world.skipped += 1;
            }
        }
        world.warn_once(entity, issues);
    }
    world.added = outcomes;
    world.last_order = order;
    world.gathered_descs = descs;
    world.gathered = gathered;
    if world.memory_written != Some(memory.last_changed()) {
        // Restored by the game (a rollback) or never written by the plugin. The bodies a
        // rollback despawned (spawned after the restored state) wake nobody.
        world.sim.set_contact_memory(memory.to_core());
        world.sim.cancel_wake_around();
    }
    if !ignored.is_empty() {
        let index: HashMap<Entity, u32> = world
            .entities
            .iter()
            .enumerate()
            .map(|(i, e)| (*e, i as u32))
            .collect();
        for (entity, list) in &ignored {
            let Some(&i) = index.get(&entity) else {
                continue;
            };
            for other in &list.0 {
                if let Some(&j) = index.get(other) {
                    world.sim.exclude_pair(i, j);
                }
            }
        }
    }
    world.sim.integrate(time.delta_secs_f64());
    world.time_phase(0, start);
}

/// The configuration's rules the gather applies to every body.
struct Rules {
    /// [`CircleCollideConfig::effective_density`].
    density: f64,
    /// The configuration changed: every body wakes.
    wake_all: bool,
    /// [`CircleCollideConfig::effective_default_restitution`].
    restitution: f64,
    /// [`CircleCollideConfig::effective_default_surface`]: friction, rolling resistance.
    surface: (f64, f64),
}

/// Reads every body of the query into its core description (`descs`) and its entity,
/// opt-in and problems (`gathered`), in query order; queues in `vacated` the places whose
/// sleepers must wake (a sleeping body the game moved, a static body the game moved).
fn gather(
    bodies: &Query<BodyQuery>,
    rules: &Rules,
    descs: &mut Vec<BodyDesc>,
    gathered: &mut Vec<(Entity, bool, InputIssues)>,
    vacated: &mut Vec<(DVec2, f64)>,
) {
    for (
        entity,
        collider,
        velocity,
        mass,
        restitution,
        transform,
        opted_in,
        layers,
        sensor,
        sleep,
        spin,
        friction,
        rolling,
        inertia,
        precise,
    ) in bodies
    {
        let radius = f64::from(collider.radius);
        let auto_mass = rules.density * PI * radius * radius;
        let mut issues = InputIssues::NONE;
        let mass = match *mass {
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
        let precise = precise.map_or_else(PreciseMotion::default, |p| *p);
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
            sensor,
            key: Some(entity.to_bits()),
            sleeping: sleep.sleeping && !touched && !rules.wake_all,
            rest_time: if touched {
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
        descs.push(desc);
        gathered.push((entity, opted_in, issues));
    }
}

/// The canonical order, in query order (indices into the last step's gather), of the
/// core's bodies as they are: read into `inputs` in the core's order (which nearly is
/// it), then taken through `last_index` (each gathered body's core index). `None` if some
/// core body was not gathered or some gathered body was skipped.
fn order_of_core(
    bodies: &circle_collide_core::Bodies,
    last_index: &[u32],
    inputs: &mut OrderInputs,
) -> Option<Vec<u32>> {
    inputs.fill_from(bodies);
    let mut query_index = vec![u32::MAX; bodies.len()];
    for (i, &j) in last_index.iter().enumerate() {
        *query_index.get_mut(j as usize)? = i as u32;
    }
    let order = inputs.canonical_order_near_listed();
    (order.iter())
        .map(|&j| Some(query_index[j as usize]).filter(|&i| i != u32::MAX))
        .collect()
}

/// A body whose [`CircleCollider`] the game changed (not just added) wakes, in this
/// step, the sleeping bodies touching its circle of the last step: grown or shrunk, it
/// no longer fits what rested on it or against it (its new circle is woken around as a
/// sleeper's, or as an awake body's, touch). Looks the body up in the last step's list
/// only when some collider changed.
fn wake_around_resized(
    world: &mut CircleCollideWorld,
    resized: &Query<(Entity, Ref<CircleCollider>), Changed<CircleCollider>>,
) {
    let changed: Vec<Entity> = (resized.iter())
        .filter(|(_, c)| !c.is_added())
        .map(|(e, _)| e)
        .collect();
    if changed.is_empty() {
        return;
    }
    let last: HashMap<Entity, usize> = (world.entities.iter().enumerate())
        .map(|(i, e)| (*e, i))
        .collect();
    for entity in changed {
        if let Some(&i) = last.get(&entity) {
            let b = world.sim.bodies();
            let (place, radius) = (b.position(i), b.radius(i));
            world.sim.wake_around(place, radius);
        }
    }
}
