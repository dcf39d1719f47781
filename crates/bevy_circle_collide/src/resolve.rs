//! Phase 5: finish the step, write positions and velocities back, send events.

use crate::components::{AngularVelocity, CircleCollider, Velocity};
use crate::config::CircleCollideConfig;
use crate::contacts::ContactMemory;
use crate::degraded::DegradedSteps;
use crate::diagnostics::CollisionDiagnostics;
use crate::events::{CollisionEvent, CollisionHit, CollisionTarget};
use crate::precise::PreciseMotion;
use crate::sleep::SleepState;
use crate::world::CircleCollideWorld;
use bevy::math::DVec2;
use bevy::prelude::*;
use circle_collide_core::{Impact, InputIssues, Other};

/// What the write-back changes on a body.
type WriteBack<'a> = (
    Entity,
    &'a mut Transform,
    &'a mut Velocity,
    Option<&'a mut SleepState>,
    Option<&'a mut AngularVelocity>,
    Option<&'a mut PreciseMotion>,
);

/// One body's write-back access.
type WriteBackItem<'a> = (
    Mut<'a, Transform>,
    Mut<'a, Velocity>,
    Option<Mut<'a, SleepState>>,
    Option<Mut<'a, AngularVelocity>>,
    Option<Mut<'a, PreciseMotion>>,
);

/// What the write-back copies of one body from the core.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written {
    position: DVec2,
    velocity: DVec2,
    angular_velocity: f64,
    rest_time: f64,
    sleeping: bool,
    /// The step changed the body's angle ([`Bodies::turned`](circle_collide_core::Bodies::turned)).
    turned: bool,
    /// The body's index in the core: its angle is read only for a body that turns.
    index: u32,
}

impl Written {
    /// Body `i`'s values.
    fn of(b: &circle_collide_core::Bodies, i: usize) -> Self {
        Self {
            position: b.position(i),
            velocity: b.velocity(i),
            angular_velocity: b.angular_velocity(i),
            rest_time: b.rest_time(i),
            sleeping: b.is_sleeping(i),
            turned: b.turned(i),
            index: i as u32,
        }
    }
}

crate::schedule::phase_plugin!(
    /// Phase 5: finish motion, push-out, write back, events, touch tracking.
    ResolvePlugin,
    crate::CircleCollideSystems::Resolve,
    (resolve, crate::touch::track_touches).chain()
);

/// Runs the core's resolve phase, writes `Transform` (x, y, and the rotation about z
/// of a body that turned), [`Velocity`], [`AngularVelocity`] and [`SleepState`] of every
/// simulated body (only where they changed) and the
/// [`ContactMemory`] resource, sends [`CollisionEvent`]s in time order and
/// triggers [`CollisionHit`] on opted-in entities, fills [`CollisionDiagnostics`], and
/// warns (rate-limited, see [`DegradedSteps`]) about steps that fell back or jammed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve(
    _main: crate::schedule::MainThread,
    mut world: ResMut<CircleCollideWorld>,
    config: Res<CircleCollideConfig>,
    mut diagnostics: ResMut<CollisionDiagnostics>,
    mut memory: ResMut<ContactMemory>,
    mut bodies: Query<WriteBack, With<CircleCollider>>,
    mut writer: MessageWriter<CollisionEvent>,
    mut commands: Commands,
    mut degraded: Local<DegradedSteps>,
    ticks: bevy::ecs::system::SystemChangeTick,
) {
    if world.idle {
        // A skipped step: only the step count and the timing move on.
        let d = &mut *diagnostics;
        d.step += 1;
        d.idle_steps += 1;
        d.last_step_idle = true;
        d.phase_seconds = world.phase_seconds;
        return;
    }
    let start = std::time::Instant::now();
    // The tick of this write: a later change to the world is somebody else's.
    world.set_changed();
    let written_tick = world.last_changed();
    let world = &mut *world;
    world.written_tick = Some(written_tick);
    world.sim.resolve();
    world.query_index = std::sync::OnceLock::new();
    // Many bodies outside the arena in one step (at least three, and a tenth of them)
    // is the arena's problem — too small, or away from the bodies: one warning, not one
    // per entity, for them and for the deep overlaps of that step and of the steps right
    // after (where they were pushed in on top of each other).
    let outside = (world.sim.step_issues().iter())
        .filter(|(_, issue)| issue.contains(InputIssues::OUTSIDE_ARENA))
        .count();
    // So is a world whose circles' total area exceeds the arena's: they cannot fit.
    let overfull = world.sim.overfull();
    let arena_wide = overfull || (outside >= 3 && outside * 10 >= world.entities.len());
    if arena_wide && !world.arena_warned {
        let arena = world.sim.config.arena.map(|a| (a.min, a.max));
        world.warn_arena(if overfull {
            format!(
                "the circles' total area exceeds the arena {arena:?}: they cannot all fit \
                 without overlapping (is the arena too small?)"
            )
        } else {
            format!(
                "{outside} circles were outside the arena {arena:?} and were pushed inside \
                 (and apart): is the arena too small, or away from the bodies?"
            )
        });
    }
    // The deep overlaps of the following steps, without a break, are the same jam.
    let deep = (world.sim.step_issues().iter())
        .any(|(_, issue)| issue.contains(InputIssues::DEEP_OVERLAP));
    world.arena_jam = arena_wide || (world.arena_jam && deep);
    for k in 0..world.sim.step_issues().len() {
        let (i, mut issue) = world.sim.step_issues()[k];
        if world.arena_jam {
            let folded = InputIssues::OUTSIDE_ARENA | InputIssues::DEEP_OVERLAP;
            issue = InputIssues(issue.0 & !folded.0);
        }
        let entity = world.entities[i as usize];
        world.warn_once(entity, issue);
    }
    let b = world.sim.bodies();
    // A `Transform` some other system changed after this step's gather, which this write
    // may hide (it changes the translation, not the rotation a game may have set): the
    // next gather reads every body (see `gather_kept`). Watched only when the next gather
    // may keep bodies.
    let watch = world.may_keep();
    let gathered_at = world.gathered_tick;
    let late = std::cell::Cell::new(!watch);
    // Whether this write changed any component's value (see `CircleCollideWorld::wrote`).
    let wrote = std::cell::Cell::new(false);
    let write =
        |out: &Written, (mut transform, mut velocity, sleep, spin, precise): WriteBackItem| {
            let (p, v) = (out.position.as_vec2(), out.velocity.as_vec2());
            if watch && (transform.last_changed()).is_newer_than(gathered_at, ticks.this_run()) {
                late.set(true);
            }
            let mut changed = transform.translation.truncate() != p;
            if changed {
                transform.translation.x = p.x;
                transform.translation.y = p.y;
            }
            changed |= velocity.set_if_neq(Velocity(v));
            let omega = out.angular_velocity as f32;
            if let Some(mut spin) = spin {
                changed |= spin.set_if_neq(AngularVelocity(omega));
            }
            // Only a body the step turned gets a rotation: every other one's is left as the
            // game set it (and its angle in the core is the one read from it).
            let turned = out.turned.then(|| b.angle(out.index as usize));
            if let Some(angle) = turned {
                transform.rotation = Quat::from_rotation_z(angle as f32);
                changed = true;
            }
            // Written without change detection: the gather compares values, and nothing else
            // reacts to it (see `PreciseMotion`).
            if let Some(mut precise) = precise {
                let precise = precise.bypass_change_detection();
                *precise = PreciseMotion {
                    position: out.position,
                    velocity: out.velocity,
                    angular_velocity: out.angular_velocity,
                    angle: turned.unwrap_or(precise.angle),
                };
            }
            if let Some(mut sleep) = sleep {
                changed |= sleep.set_if_neq(SleepState {
                    sleeping: out.sleeping,
                    rest_time: out.rest_time as f32,
                    position: if out.sleeping { p } else { Vec2::ZERO },
                });
            }
            if changed {
                wrote.set(true);
            }
        };
    // The query yields the bodies in the order the gather met them (unless a phase
    // replaced by user code changed the world): walk it and read each body's core index.
    let gathered = &world.gathered;
    let same_order = bodies.iter().len() == gathered.len()
        && bodies.iter().zip(gathered).all(|((e, ..), g)| e == g.0);
    if same_order {
        // The core's values in query order first: a loop that only copies keeps many of
        // its scattered reads in flight at once.
        let mut written = std::mem::take(&mut world.written);
        written.clear();
        // A body the gather skipped (core index `u32::MAX`) gets nothing written.
        written.extend(
            (world.core_index.iter()).map(|&i| (i != u32::MAX).then(|| Written::of(b, i as usize))),
        );
        for ((_, transform, velocity, sleep, spin, precise), out) in bodies.iter_mut().zip(&written)
        {
            if let Some(out) = out {
                write(out, (transform, velocity, sleep, spin, precise));
            }
        }
        world.written = written;
    } else {
        for (i, entity) in world.entities.iter().enumerate() {
            if let Ok((_, transform, velocity, sleep, spin, precise)) = bodies.get_mut(*entity) {
                write(
                    &Written::of(b, i),
                    (transform, velocity, sleep, spin, precise),
                );
            }
        }
    }
    // The next gather may keep the bodies nobody changed: this write saw each body where
    // the gather left it, and hid no change of the game's (or was not watching).
    world.kept_ready = same_order && !late.get();
    world.wrote = wrote.get();
    memory.fill_from(world.sim.contact_memory());
    memory.settings = world.resting_settings;
    world.memory_written = Some(memory.last_changed());
    let step = diagnostics.step;
    for impact in world.sim.impacts() {
        if impact.resting && !config.report_resting_impacts {
            continue;
        }
        let event = to_event(impact, world, step);
        writer.write(event);
        let a = impact.a as usize;
        if world.opted_in[a] {
            commands.trigger(hit(
                world.entities[a],
                event.b_from(world.entities[a]),
                &event,
                // The message's normal points from its `a`, the lower entity, which need
                // not be the core's first body.
                if event.a == world.entities[a] {
                    1.0
                } else {
                    -1.0
                },
            ));
        }
        if let Other::Body(j) = impact.other
            && world.opted_in[j as usize]
        {
            let (ej, ea) = (world.entities[j as usize], world.entities[a]);
            commands.trigger(hit(
                ej,
                CollisionTarget::Body(ea),
                &event,
                if event.a == ej { 1.0 } else { -1.0 },
            ));
        }
    }
    let stats = world.sim.stats();
    let d = &mut *diagnostics;
    d.step += 1;
    d.bodies = stats.bodies;
    d.skipped_bodies = world.skipped;
    d.candidate_pairs = stats.candidate_pairs;
    d.contacts = stats.contacts;
    d.impacts = stats.impacts;
    d.resting_impacts = stats.resting_impacts;
    d.cluster_solves = stats.cluster_solves;
    d.squeezed_clusters = stats.squeezed_clusters;
    d.speck_contacts_given_up = stats.speck_contacts_given_up;
    d.overlaps_fixed = stats.overlaps_fixed;
    d.overlaps_left = stats.overlaps_left;
    d.solver_contacts = stats.resting_contacts;
    d.sleeping = stats.sleeping;
    d.oversized_bodies = stats.oversized_bodies;
    d.last_step_fell_back = stats.fallback;
    d.last_step_idle = false;
    d.fallbacks += u64::from(stats.fallback);
    // A resting speed of 0 (the configuration's, made finite) makes every contact an impact.
    let zero_resting = (world.sim.config.resting_speed).is_some_and(|s| s <= 0.0);
    if let Some(warning) = degraded.note(d.step, stats.fallback, stats.overlaps_left, zero_resting)
    {
        warn!("{warning}");
        world.step_warned = Some(warning);
    }
    d.kinetic_energy = stats.kinetic_energy;
    d.potential_energy = stats.potential_energy;
    d.rotational_energy = stats.rotational_energy;
    d.momentum = stats.momentum.as_vec2();
    d.external_impulse = stats.external_impulse.as_vec2();
    world.time_phase(4, start);
    d.phase_seconds = world.phase_seconds;
}

/// The message for a core impact, with `a < b` for body pairs.
fn to_event(impact: &Impact, world: &CircleCollideWorld, step: u64) -> CollisionEvent {
    let entities = &world.entities;
    let ea = entities[impact.a as usize];
    let (a, b, normal) = match impact.other {
        Other::Wall(w) => (ea, CollisionTarget::Wall(w), impact.normal),
        Other::Segment(s) => {
            let (entity, segment) = world.level_segment(s).unwrap_or((Entity::PLACEHOLDER, s));
            (
                ea,
                CollisionTarget::Level { entity, segment },
                impact.normal,
            )
        }
        Other::Body(j) => {
            let eb = entities[j as usize];
            if ea < eb {
                (ea, CollisionTarget::Body(eb), impact.normal)
            } else {
                (eb, CollisionTarget::Body(ea), -impact.normal)
            }
        }
    };
    CollisionEvent {
        a,
        b,
        time: impact.time as f32,
        step,
        point: impact.point.as_vec2(),
        normal: normal.as_vec2(),
        impulse: impact.impulse as f32,
        tangent_impulse: impact.tangent_impulse as f32,
        approach_speed: impact.approach_speed as f32,
        sensor: impact.sensor,
        resting: impact.resting,
    }
}

impl CollisionEvent {
    /// What `entity` (one of the two bodies) hit.
    fn b_from(&self, entity: Entity) -> CollisionTarget {
        match self.b {
            CollisionTarget::Body(b) if b == entity => CollisionTarget::Body(self.a),
            other => other,
        }
    }
}

/// The targeted event for `target`; `sign` turns the message's normal to point from the
/// target to the other.
fn hit(target: Entity, other: CollisionTarget, event: &CollisionEvent, sign: f32) -> CollisionHit {
    CollisionHit {
        entity: target,
        other,
        time: event.time,
        point: event.point,
        normal: event.normal * sign,
        impulse: event.impulse,
        tangent_impulse: event.tangent_impulse,
        approach_speed: event.approach_speed,
    }
}
