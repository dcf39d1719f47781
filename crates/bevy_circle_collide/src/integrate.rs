//! Phase 1: gather bodies from the ECS into the core, validate them, start their flight.

use crate::body_read::{BodyQuery, Rules, describe, opted_in};
use crate::components::{CircleCollider, IgnoredCollisions};
use crate::config::CircleCollideConfig;
use crate::contacts::ContactMemory;
use crate::world::CircleCollideWorld;
use bevy::ecs::system::SystemChangeTick;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use circle_collide_core::AddBodyError;
use circle_collide_core::order::OrderInputs;

crate::schedule::phase_plugin!(
    /// Phase 1: gather from the ECS, validate, flight under gravity, swept boxes.
    IntegratePlugin,
    crate::CircleCollideSystems::Integrate,
    integrate
);

/// Rebuilds the core's bodies from the ECS and runs the core's integrate phase.
///
/// Bodies are added in the core's [canonical order](circle_collide_core::order), keyed by
/// their entity, so results depend neither on spawn order nor on ECS iteration order. The
/// remembered contacts come from the [`ContactMemory`] resource. A sleeping body the
/// game moved or gave a velocity wakes (moved, with the sleeping bodies touching its old
/// place); so does every body when a setting of the [`CircleCollideConfig`] that bodies
/// at rest depend on changed (`resting_settings`), and every sleeping
/// body touching one the game resized or gave other collision properties
/// ([`sleeper_wakes`](crate::sleeper_wakes)). A body whose
/// [`Velocity`](crate::Velocity) the game changed since the last step is steered in this
/// one ([`BodyDesc::steered`](circle_collide_core::BodyDesc::steered)).
///
/// Invalid input is repaired or skipped as
/// [`BodyDesc::sanitize`](circle_collide_core::BodyDesc::sanitize) documents, with one
/// warning per entity and kind of problem.
///
/// A world that stood still, with nothing changed since the last step, skips the whole
/// step (the [`idle`](crate::idle) module). In a large world the bodies nobody changed
/// since the last write-back are kept from the core rather than read again, with the same
/// result (the [`kept`](crate::kept) module).
#[allow(clippy::too_many_arguments)]
pub(crate) fn integrate(
    _main: crate::schedule::MainThread,
    time: Res<Time>,
    config: Res<CircleCollideConfig>,
    memory: Res<ContactMemory>,
    mut world: ResMut<CircleCollideWorld>,
    bodies: Query<BodyQuery>,
    changes: Query<crate::body_read::TickQuery>,
    ignored: Query<(Entity, &IgnoredCollisions)>,
    resized: Query<(Entity, Ref<CircleCollider>), Changed<CircleCollider>>,
    retuned: Query<(Entity, Option<Ref<IgnoredCollisions>>), crate::sleeper_wakes::Retuned>,
    changed: Query<crate::idle::ChangedItem, crate::idle::ChangedBody>,
    ticks: SystemChangeTick,
) {
    let start = std::time::Instant::now();
    if crate::idle::may_skip(&config, &memory, &world, &changed, &bodies) {
        // Written without change detection: a change to the world is somebody else's.
        let world = world.bypass_change_detection();
        world.idle = true;
        world.phase_seconds = [start.elapsed().as_secs_f64(), 0.0, 0.0, 0.0, 0.0];
        return;
    }
    // The remembered contacts were restored by the game (a rollback) or never written by
    // the plugin.
    let restored = world.memory_written != Some(memory.last_changed());
    // Nothing but the bodies' components may have changed since the last write-back:
    // not the configuration, the core (the game's `simulation_mut`, the level), the
    // remembered contacts, nor the set of components of any body.
    let keep = world.may_keep()
        && world.kept_ready
        && !config.is_changed()
        && world.written_tick == Some(world.last_changed())
        && !restored
        && !world.lost_component;
    let world = &mut *world;
    world.kept_pause = world.kept_pause.saturating_sub(1);
    world.idle = false;
    world.lost_component = false;
    world.kept_ready = false;
    world.gathered_tick = ticks.this_run();
    world.sim.config = config.to_step_config();
    if config.is_changed() {
        world.warn_config(&config.problems());
    }
    // A change to a setting that bodies at rest depend on wakes every body (and the first
    // step, where every setting is new); tuning the others leaves the sleepers asleep. A
    // memory the game restored (a rollback) brings the settings its step ran with: this
    // step's are compared with those, not with the abandoned future's.
    if restored {
        world.resting_settings = memory.settings;
    }
    let wake_all = (config.is_changed() || restored) && {
        let settings = config.resting_settings();
        world.resting_settings.replace(settings) != Some(settings)
    };
    let rules = Rules::of(&config, wake_all);
    // Before the last step's entities are cleared: it looks up their core indices.
    crate::sleeper_wakes::wake_around_changed(world, &resized, &retuned, &bodies, &rules);
    world.entities.clear();
    world.opted_in.clear();
    world.skipped = 0;
    world.kept = keep && crate::kept::gather_kept(world, &bodies, &changes, &rules, &ticks);
    if !world.kept {
        gather_all(world, &bodies, &rules);
    }
    if restored {
        // The bodies a rollback despawned (spawned after the restored state) wake nobody.
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

/// Reads every body from the ECS and adds them to the core in canonical order.
fn gather_all(world: &mut CircleCollideWorld, bodies: &Query<BodyQuery>, rules: &Rules) {
    let count = bodies.iter().len();
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
    let mut read = || gather(bodies, rules, &mut descs, &mut gathered, &mut vacated);
    let ahead = if sim.bodies().len() >= world.order_ahead_min_bodies {
        crate::tasks::beside(
            || order_of_core(sim.bodies(), last_index, &mut inputs).map(|(order, _)| order),
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
    let mut outcomes = std::mem::take(&mut world.added);
    world.sim.add_bodies_from(&descs, &order, &mut outcomes);
    record_added(world, &order, &outcomes, &gathered);
    world.added = outcomes;
    world.last_order = order;
    world.gathered_descs = descs;
    world.gathered = gathered;
}

/// Notes what became of each body added (`outcomes`, in canonical `order`, of the bodies
/// `gathered` in query order): each one's core index, entity and opt-in, or that it was
/// skipped; warns once about its problems.
pub(crate) fn record_added(
    world: &mut CircleCollideWorld,
    order: &[u32],
    outcomes: &[circle_collide_core::add_bodies::AddOutcome],
    gathered: &[(Entity, bool, circle_collide_core::InputIssues)],
) {
    world.core_index.clear();
    world.core_index.resize(gathered.len(), u32::MAX);
    for (&i, &outcome) in order.iter().zip(outcomes) {
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
}

/// Reads every body of the query into its core description (`descs`) and its entity,
/// opt-in and problems (`gathered`), in query order; queues in `vacated` the places whose
/// sleepers must wake (a sleeping body the game moved, a static body the game moved).
fn gather(
    bodies: &Query<BodyQuery>,
    rules: &Rules,
    descs: &mut Vec<circle_collide_core::BodyDesc>,
    gathered: &mut Vec<(Entity, bool, circle_collide_core::InputIssues)>,
    vacated: &mut Vec<(bevy::math::DVec2, f64)>,
) {
    for item in bodies {
        let (desc, issues) = describe(&item, rules, vacated);
        descs.push(desc);
        gathered.push((item.0, opted_in(&item), issues));
    }
}

/// The canonical order, in query order (indices into the last step's gather), of the
/// core's bodies as they are, and the same order in core indices: read into `inputs` in
/// the core's order (which nearly is it), then taken through `last_index` (each gathered
/// body's core index). `None` if some core body was not gathered or some gathered body
/// was skipped.
pub(crate) fn order_of_core(
    bodies: &circle_collide_core::Bodies,
    last_index: &[u32],
    inputs: &mut OrderInputs,
) -> Option<(Vec<u32>, Vec<u32>)> {
    inputs.fill_from(bodies);
    let mut query_index = vec![u32::MAX; bodies.len()];
    for (i, &j) in last_index.iter().enumerate() {
        *query_index.get_mut(j as usize)? = i as u32;
    }
    let order = inputs.canonical_order_near_listed();
    let in_query = (order.iter())
        .map(|&j| Some(query_index[j as usize]).filter(|&i| i != u32::MAX))
        .collect::<Option<_>>()?;
    Some((in_query, order))
}
