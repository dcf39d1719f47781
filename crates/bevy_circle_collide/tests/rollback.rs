//! Results depend neither on spawn order nor on ECS order, and a world restored from its
//! components and its `ContactMemory` re-simulates bit for bit (what a rollback needs).

mod common;
use bevy::prelude::*;
use bevy_circle_collide::CircleCollideWorld;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

/// Every body's bits, in scene order: position, velocity, sleep state.
fn state(app: &App, ids: &[Entity]) -> Vec<(u32, u32, u32, u32, bool, u32)> {
    ids.iter()
        .map(|&e| {
            let (p, v) = (pos(app, e), vel(app, e));
            let s = *app.world().get::<SleepState>(e).unwrap();
            let bits = |x: f32| x.to_bits();
            (
                bits(p.x),
                bits(p.y),
                bits(v.x),
                bits(v.y),
                s.sleeping,
                bits(s.rest_time),
            )
        })
        .collect()
}

/// How many bodies end differently when `scene` is spawned in reverse order; `run` gives
/// each body's final state in spawn order.
fn differ_reversed<S: PartialEq>(
    mut scene: scenes::Scene,
    run: impl Fn(&scenes::Scene) -> Vec<S>,
) -> usize {
    let forward = run(&scene);
    scene.bodies.reverse();
    let mut backward = run(&scene);
    backward.reverse();
    forward
        .iter()
        .zip(&backward)
        .filter(|(a, b)| a != b)
        .count()
}

#[test]
fn a_pile_spawned_in_reverse_order_ends_bit_identical() {
    // The jittered pile, and the crowd steered every frame (no gravity, pressing).
    for crowd in [false, true] {
        let n = 600;
        let scene = if crowd {
            scenes::crowd(n, 0.3)
        } else {
            scenes::pile(n)
        };
        let run = |scene: &scenes::Scene| {
            let mut app = app();
            let ids = spawn_scene(&mut app, scene);
            let centre = Vec2::splat(0.5 * scenes::gas_side(n, 0.3) as f32);
            for _ in 0..300 {
                if crowd {
                    for &e in &ids {
                        let to = centre - pos(&app, e);
                        app.world_mut().get_mut::<Velocity>(e).unwrap().0 =
                            to.normalize_or_zero() * scenes::CROWD_SPEED as f32;
                    }
                }
                steps(&mut app, 1);
            }
            assert_eq!(app.world().resource::<CollisionDiagnostics>().fallbacks, 0);
            state(&app, &ids)
        };
        let differ = differ_reversed(scene, run);
        assert_eq!(differ, 0, "crowd {crowd}: {differ} of {n} bodies differ");
    }
}

/// `scene` spawned and run 150 steps; asserts its largest solve had at least `contacts`
/// contacts (so its passes ran in colour order).
fn pile_solved_past(scene: &scenes::Scene, contacts: usize) -> (App, Vec<Entity>) {
    let mut app = app();
    let ids = spawn_scene(&mut app, scene);
    let mut largest = 0;
    for _ in 0..150 {
        steps(&mut app, 1);
        let d = app.world().resource::<CollisionDiagnostics>();
        largest = largest.max(d.solver_contacts);
    }
    assert!(largest >= contacts, "largest solve {largest} contacts");
    (app, ids)
}

/// A pile large enough that its solves (`COLOURED_CONTACTS`+ contacts) run their passes in colour order
/// on the compute pool's two threads, which take the work in whatever order they get to
/// it: spawned forward and reversed, it still ends bit-identical.
#[test]
fn a_large_pile_solved_on_two_threads_ends_bit_identical() {
    let n = 4000;
    let run = |scene: &scenes::Scene| {
        let (app, ids) = pile_solved_past(
            scene,
            bevy_circle_collide::core::contacts::COLOURED_CONTACTS,
        );
        state(&app, &ids)
    };
    let differ = differ_reversed(scenes::pile(n), run);
    assert_eq!(differ, 0, "{differ} of {n} bodies differ");
}

/// The same with friction: a rough pile whose solves (`ROUGH_COLOURED_CONTACTS`+
/// contacts) run their passes, friction and spin included, in colour order on the compute
/// pool's two threads ends bit-identical spawned forward and reversed, and its circles
/// spin (the friction rows act).
#[test]
fn a_large_rough_pile_solved_on_two_threads_ends_bit_identical() {
    use bevy_circle_collide::core::contacts::ROUGH_COLOURED_CONTACTS;
    let n = 3000;
    let mut scene = scenes::pile(n);
    for b in &mut scene.bodies {
        b.friction = 0.5;
    }
    let run = |scene: &scenes::Scene| {
        let (app, ids) = pile_solved_past(scene, ROUGH_COLOURED_CONTACTS);
        let spin = |e: Entity| app.world().get::<AngularVelocity>(e).map_or(0.0, |w| w.0);
        let spinning = ids.iter().filter(|&&e| spin(e).abs() > 0.01).count();
        assert!(spinning > n / 10, "{spinning} of {n} circles spin");
        let states = state(&app, &ids).into_iter();
        (states.zip(&ids))
            .map(|(s, &e)| (s, spin(e).to_bits()))
            .collect::<Vec<_>>()
    };
    let differ = differ_reversed(scene, run);
    assert_eq!(differ, 0, "{differ} of {n} bodies differ");
}

/// The plugin keeps scratch between steps (last step's canonical order as a hint for this
/// step's, buffers): none of it is state. A `CircleCollideWorld` replaced by a fresh one
/// before every step gives the same bits as one kept — jittered pile, landing and pressing.
#[test]
fn the_plugins_scratch_between_steps_is_not_state() {
    let scene = scenes::pile(500);
    let run = |fresh_each_step: bool| {
        let mut app = app();
        if fresh_each_step {
            app.add_systems(
                FixedPostUpdate,
                (|mut world: ResMut<CircleCollideWorld>| *world = CircleCollideWorld::default())
                    .before(CircleCollideSystems::Integrate),
            );
        }
        let ids = spawn_scene(&mut app, &scene);
        steps(&mut app, 150);
        assert!(
            app.world()
                .resource::<CollisionDiagnostics>()
                .solver_contacts
                > 500
        );
        state(&app, &ids)
    };
    assert_eq!(run(false), run(true));
}

/// What a rollback saves of each body.
type Saved = (Transform, Velocity, SleepState, PreciseMotion);

/// Each body's saved components.
fn save(app: &App, ids: &[Entity]) -> Vec<Saved> {
    let w = app.world();
    ids.iter()
        .map(|&e| {
            (
                *w.get::<Transform>(e).unwrap(),
                *w.get::<Velocity>(e).unwrap(),
                *w.get::<SleepState>(e).unwrap(),
                *w.get::<PreciseMotion>(e).unwrap(),
            )
        })
        .collect()
}

/// What a rollback restores: each body's components (the double-precision motion only if
/// `precise`), and the contact memory.
fn restore(app: &mut App, ids: &[Entity], saved: &[Saved], memory: ContactMemory, precise: bool) {
    for (&e, (t, v, s, m)) in ids.iter().zip(saved) {
        let mut entity = app.world_mut().entity_mut(e);
        *entity.get_mut::<Transform>().unwrap() = *t;
        *entity.get_mut::<Velocity>().unwrap() = *v;
        *entity.get_mut::<SleepState>().unwrap() = *s;
        if precise {
            *entity.get_mut::<PreciseMotion>().unwrap() = *m;
        }
    }
    *app.world_mut().resource_mut::<ContactMemory>() = memory;
}

#[test]
fn restoring_the_components_and_the_contact_memory_resimulates_bit_for_bit() {
    let scene = scenes::pile(400);
    let mut app = app();
    let ids = spawn_scene(&mut app, &scene);
    steps(&mut app, 90); // landed, contacts warm
    // Save what a rollback saves: the bodies' components and the contact memory.
    let saved = save(&app, &ids);
    let memory = app.world().resource::<ContactMemory>().clone();
    assert!(
        memory.contacts.len() > 400,
        "{} contacts",
        memory.contacts.len()
    );
    steps(&mut app, 60);
    let first = state(&app, &ids);
    // Roll back and re-simulate.
    restore(&mut app, &ids, &saved, memory.clone(), true);
    steps(&mut app, 60);
    assert_eq!(state(&app, &ids), first, "re-simulation differs");
    // Without the memory the warm start is lost and the run differs: it is state.
    restore(&mut app, &ids, &saved, ContactMemory::default(), true);
    steps(&mut app, 60);
    assert_ne!(state(&app, &ids), first, "the memory made no difference");
    // So is the double-precision motion: restored from the f32 components alone (the
    // bodies in flight and pressing at step 90 left values that differ from their
    // rounding), the run differs too.
    let moved = (saved.iter())
        .filter(|(t, _, _, m)| m.position.as_vec2() == t.translation.truncate())
        .filter(|(t, _, _, m)| m.position != t.translation.truncate().as_dvec2())
        .count();
    assert!(moved > 100, "{moved} bodies held more than f32 precision");
    restore(&mut app, &ids, &saved, memory, false);
    steps(&mut app, 60);
    assert_ne!(
        state(&app, &ids),
        first,
        "the precise motion made no difference"
    );
}

/// A pile of 400 stepped until part of it sleeps (600 steps), with what a rollback saves
/// of it then: the app, the bodies, their components and the contact memory.
fn partly_sleeping_pile() -> (App, Vec<Entity>, Vec<Saved>, ContactMemory) {
    let mut app = app();
    let ids = spawn_scene(&mut app, &scenes::pile(400));
    steps(&mut app, 600);
    let sleeping = app.world().resource::<CollisionDiagnostics>().sleeping;
    assert!(sleeping > 100, "{sleeping} bodies asleep");
    let saved = save(&app, &ids);
    let memory = app.world().resource::<ContactMemory>().clone();
    (app, ids, saved, memory)
}

/// A rollback to a moment when part of a pile slept: it despawns a ball the game had
/// spawned on the pile after that moment and rewrites every collider (as a snapshot
/// restore does, marking them changed). Neither may wake a sleeper — the despawn and the
/// "resize" belong to the abandoned future — so the re-simulation matches the first run
/// bit for bit; without the restored contact memory the same despawn wakes the pile.
#[test]
fn a_rollback_that_despawns_a_later_body_wakes_nobody() {
    let (mut app, ids, saved, memory) = partly_sleeping_pile();
    let colliders: Vec<CircleCollider> = (ids.iter())
        .map(|&e| *app.world().get::<CircleCollider>(e).unwrap())
        .collect();
    steps(&mut app, 60);
    let first = state(&app, &ids);
    // The game drops a ball onto the highest sleeper (on top of it, touching).
    let top = (ids.iter().copied())
        .filter(|&e| app.world().get::<SleepState>(e).unwrap().sleeping)
        .max_by(|&a, &b| pos(&app, a).y.total_cmp(&pos(&app, b).y))
        .unwrap();
    let r = colliders[0].radius;
    let above = pos(&app, top) + Vec2::new(0.0, 2.0 * r);
    let rollback = |app: &mut App, memory: ContactMemory| {
        let ball = spawn(app, above, Vec2::ZERO, r, Mass::Auto);
        // Roll back: the ball did not exist then.
        app.world_mut().despawn(ball);
        for (&e, c) in ids.iter().zip(&colliders) {
            *app.world_mut().get_mut::<CircleCollider>(e).unwrap() = *c;
        }
        restore(app, &ids, &saved, memory, true);
        steps(app, 60);
    };
    rollback(&mut app, memory.clone());
    assert_eq!(state(&app, &ids), first, "re-simulation differs");
    // The same spawn and despawn without a rollback wake the sleepers under the ball:
    // the cancel above is what kept them asleep.
    let asleep_before = app.world().resource::<CollisionDiagnostics>().sleeping;
    let at = pos(&app, top) + Vec2::new(0.0, 2.0 * r);
    let ball = spawn(&mut app, at, Vec2::ZERO, r, Mass::Auto);
    app.world_mut().despawn(ball);
    steps(&mut app, 1);
    let asleep_after = app.world().resource::<CollisionDiagnostics>().sleeping;
    assert!(
        asleep_after < asleep_before,
        "the despawn woke nobody: {asleep_before} → {asleep_after} asleep"
    );
}

/// A rollback across a change of the settings bodies rest on: the game tilted gravity
/// after the restored moment, and restores the configuration with the bodies and the
/// contact memory. The restored world wakes its sleepers only where the first run did —
/// the settings the restored step ran with are part of the memory
/// (`ContactMemory::settings`; the core's gravity and arena with it) — so the
/// re-simulation, which tilts gravity again at the same step, matches bit for bit, the
/// sleepers of the steps before the tilt included. Without them the restored, untilted
/// gravity reads as a change and wakes the whole pile.
#[test]
fn a_rollback_across_a_gravity_change_resimulates_bit_for_bit() {
    let (mut app, ids, saved, memory) = partly_sleeping_pile();
    let config = app.world().resource::<CircleCollideConfig>().clone();
    // The future the rollback replays: ten quiet steps, then gravity tilted.
    let future = |app: &mut App| {
        steps(app, 10);
        let before_tilt = state(app, &ids);
        app.world_mut()
            .resource_mut::<CircleCollideConfig>()
            .gravity = Vec2::new(3.0, -9.0);
        steps(app, 1);
        let asleep = app.world().resource::<CollisionDiagnostics>().sleeping;
        assert_eq!(asleep, 0, "the tilt woke every body");
        steps(app, 49);
        (before_tilt, state(app, &ids))
    };
    let (quiet, first) = future(&mut app);
    assert!(
        quiet.iter().filter(|s| s.4).count() > 100,
        "the pile slept until the tilt"
    );
    let rollback = |app: &mut App, memory: ContactMemory| {
        restore(app, &ids, &saved, memory, true);
        *app.world_mut().resource_mut::<CircleCollideConfig>() = config.clone();
        future(app)
    };
    let asleep = |state: &[(u32, u32, u32, u32, bool, u32)]| state.iter().filter(|s| s.4).count();
    let (again_quiet, again) = rollback(&mut app, memory.clone());
    assert!(
        again_quiet == quiet,
        "the restored world woke its sleepers: {} asleep before the tilt, {} in the first run",
        asleep(&again_quiet),
        asleep(&quiet)
    );
    let differ = (again.iter().zip(&first)).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "re-simulation differs in {differ} bodies");
    // The same rollback with a memory that forgot the settings (as one saved by an
    // earlier version reads): the untilted gravity is new to the world, and the pile
    // wakes.
    let forgetful = ContactMemory {
        settings: None,
        ..memory
    };
    let (woken, _) = rollback(&mut app, forgetful);
    assert!(
        asleep(&woken) < 10,
        "a memory without the settings woke nobody: {} asleep",
        asleep(&woken)
    );
}

#[test]
fn the_contact_memory_round_trips_through_ron() {
    let scene = scenes::pile(200);
    let mut app = app();
    spawn_scene(&mut app, &scene);
    steps(&mut app, 60);
    let memory = app.world().resource::<ContactMemory>().clone();
    assert!(!memory.contacts.is_empty());
    let text = ron::to_string(&memory).unwrap();
    let back: ContactMemory = ron::from_str(&text).unwrap();
    assert_eq!(back, memory);
}

#[test]
fn a_sleeping_body_wakes_when_the_game_moves_it() {
    let mut app = app();
    gravity_box(&mut app);
    let (low, high) = stack_of_two(&mut app);
    steps(&mut app, 120);
    let asleep = |app: &App, e: Entity| app.world().get::<SleepState>(e).unwrap().sleeping;
    assert!(
        asleep(&app, low) && asleep(&app, high),
        "the stack fell asleep"
    );
    assert_eq!(app.world().resource::<CollisionDiagnostics>().sleeping, 2);
    // Asleep, nothing is written back: the transforms are not even marked changed.
    steps(&mut app, 10);
    assert!(asleep(&app, high));
    // The game kicks the top ball sideways: it wakes and moves, and so does its island.
    app.world_mut().get_mut::<Velocity>(high).unwrap().0 = Vec2::new(3.0, 0.0);
    steps(&mut app, 1);
    assert!(!asleep(&app, high) && !asleep(&app, low));
    assert!(vel(&app, high).x > 2.9, "{}", vel(&app, high));
    steps(&mut app, 30);
    assert!(
        pos(&app, high).x > 5.5,
        "it rolled off: {}",
        pos(&app, high)
    );
}
