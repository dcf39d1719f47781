//! Idle steps (`CircleCollideConfig::skip_idle_steps`): a world that stands still skips
//! its steps, and every change a game can make while it does is seen. Two apps, one
//! skipping and one not, are stepped through the same changes and compared bit for bit.

mod common;
use bevy::prelude::*;
use bevy_circle_collide::prelude::*;
use bevy_circle_collide::{CircleCollideWorld, ContactMemory, PreciseMotion};
use common::*;

/// Every `CollisionStarted` / `CollisionEnded` seen, as (started, a, b, step).
#[derive(Resource, Default)]
struct Touches(Vec<(bool, Entity, Entity, u64)>);

fn collect_touches(
    mut started: MessageReader<CollisionStarted>,
    mut ended: MessageReader<CollisionEnded>,
    mut out: ResMut<Touches>,
) {
    out.0
        .extend(started.read().map(|e| (true, e.a, e.b, e.step)));
    out.0
        .extend(ended.read().map(|e| (false, e.a, e.b, e.step)));
}

/// The scene's bodies: a stack of two on the floor, a rough ball carrying every optional
/// component, and a static post.
struct Bodies {
    low: Entity,
    high: Entity,
    rough: Entity,
    post: Entity,
}

/// An app in the gravity box with the scene; `skip` sets `skip_idle_steps`.
fn scene(skip: bool) -> (App, Bodies) {
    let mut app = app();
    app.init_resource::<Touches>()
        .add_systems(Update, collect_touches);
    gravity_box(&mut app);
    app.world_mut()
        .resource_mut::<CircleCollideConfig>()
        .skip_idle_steps = skip;
    let (low, high) = stack_of_two(&mut app);
    let rough = spawn(&mut app, Vec2::new(2.0, 0.5), Vec2::ZERO, 0.5, Mass::Auto);
    app.world_mut().entity_mut(rough).insert((
        Restitution(0.3),
        Friction(0.5),
        RollingResistance(0.01),
        AngularVelocity(0.0),
        MomentOfInertia(0.2),
        CollisionLayers::ALL,
        CollisionEventsEnabled,
        IgnoredCollisions(vec![high]),
    ));
    let post = spawn(&mut app, Vec2::new(8.0, 0.5), Vec2::ZERO, 0.5, Mass::Static);
    (
        app,
        Bodies {
            low,
            high,
            rough,
            post,
        },
    )
}

/// Everything a step writes, bit for bit: each body's `Transform`, `Velocity`,
/// `AngularVelocity`, `SleepState`, `PreciseMotion` and `CollidingEntities`, the contact
/// memory, the events and touches seen, and the step count.
fn state(app: &mut App) -> String {
    let mut q = app.world_mut().query::<(
        Entity,
        &Transform,
        &Velocity,
        Option<&AngularVelocity>,
        Option<&SleepState>,
        Option<&PreciseMotion>,
        Option<&CollidingEntities>,
    )>();
    let mut rows: Vec<String> = (q.iter(app.world()))
        .map(|(e, t, v, w, s, p, c)| {
            let mut c: Vec<Entity> = c.map(|c| c.0.iter().copied().collect()).unwrap_or_default();
            c.sort();
            format!(
                "{e} {:?} {:?} {:?} {:?} {:?} {:?} {c:?}",
                t.translation.to_array().map(f32::to_bits),
                t.rotation.to_array().map(f32::to_bits),
                v.0.to_array().map(f32::to_bits),
                w.map(|w| w.0.to_bits()),
                s.map(|s| (
                    s.sleeping,
                    s.rest_time.to_bits(),
                    s.position.to_array().map(f32::to_bits)
                )),
                p.map(|p| (
                    p.position.to_array().map(f64::to_bits),
                    p.velocity.to_array().map(f64::to_bits),
                    p.angular_velocity.to_bits()
                )),
            )
        })
        .collect();
    rows.sort();
    let w = app.world();
    format!(
        "{}\n{:?}\n{:?}\n{:?}\nstep {}",
        rows.join("\n"),
        w.resource::<ContactMemory>(),
        w.resource::<Collected>().0,
        w.resource::<Touches>().0,
        w.resource::<CollisionDiagnostics>().step,
    )
}

/// Steps both apps `n` times, checking after each step that they agree.
fn step_both(apps: &mut [App; 2], n: usize, what: &str) {
    for k in 0..n {
        for app in apps.iter_mut() {
            steps(app, 1);
        }
        let [a, b] = apps;
        assert_eq!(
            state(a),
            state(b),
            "{what}: the apps differ {} steps on",
            k + 1
        );
    }
}

fn diagnostics(app: &App) -> &CollisionDiagnostics {
    app.world().resource::<CollisionDiagnostics>()
}

/// Steps both apps until the skipping one skips (every dynamic body asleep and two more
/// steps: the one after the pile fell asleep still writes its sleep states).
fn until_idle(apps: &mut [App; 2], what: &str) {
    for _ in 0..600 {
        if diagnostics(&apps[0]).last_step_idle {
            return;
        }
        step_both(apps, 1, what);
    }
    panic!("{what}: the world never stood still");
}

/// A world that falls asleep skips its steps from the second step after: it costs no
/// gather (the diagnostics count the skipped steps), and it ends, events and all, exactly
/// as the app that runs every step.
#[test]
fn a_still_world_skips_its_steps_and_ends_as_a_full_step_would() {
    let (a, Bodies { low, high, .. }) = scene(true);
    let (b, _) = scene(false);
    let mut apps = [a, b];
    until_idle(&mut apps, "settling");
    let skipped = diagnostics(&apps[0]).idle_steps;
    assert!(skipped >= 1);
    step_both(&mut apps, 100, "asleep");
    assert_eq!(
        diagnostics(&apps[0]).idle_steps,
        skipped + 100,
        "every step skipped"
    );
    assert_eq!(diagnostics(&apps[1]).idle_steps, 0, "skipping off");
    assert_eq!(
        diagnostics(&apps[0]).sleeping,
        3,
        "the three dynamic bodies sleep"
    );
    let touches = &apps[0].world().resource::<Touches>().0;
    assert!(
        touches
            .iter()
            .any(|&(started, a, b, _)| started && (a, b) == (low.min(high), low.max(high))),
        "the stack's touch started: {touches:?}"
    );
}

/// A change to the world of a skipping app.
type Change = fn(&mut App, &Bodies);

fn set<T: Component<Mutability = bevy::ecs::component::Mutable>>(
    app: &mut App,
    e: Entity,
    f: impl FnOnce(&mut T),
) {
    f(&mut app.world_mut().get_mut::<T>(e).expect("the component"));
}

fn insert(app: &mut App, e: Entity, component: impl Component) {
    app.world_mut().entity_mut(e).insert(component);
}

fn remove<T: Component>(app: &mut App, e: Entity) {
    app.world_mut().entity_mut(e).remove::<T>();
}

/// Brings a skipping app and one that never skips to a standstill, makes `change` in both
/// and steps them 41 times, comparing them after each step; whether the skipping app
/// skipped the first.
fn after_a_change_at_rest(what: &str, change: Change) -> bool {
    let (a, bodies) = scene(true);
    let (b, _) = scene(false);
    let mut apps = [a, b];
    until_idle(&mut apps, what);
    let idle_before = diagnostics(&apps[0]).idle_steps;
    for app in &mut apps {
        change(app, &bodies);
    }
    step_both(&mut apps, 1, what);
    let skipped = diagnostics(&apps[0]).idle_steps == idle_before + 1;
    step_both(&mut apps, 40, what);
    skipped
}

/// Every kind of change a game can make while the world stands still — each component
/// the step reads changed, added or removed, a body spawned or despawned, the
/// configuration, the contact memory, the level, the core through `simulation_mut` — makes
/// the next step a full one, and the app then goes on exactly as the app that never
/// skips (bit for bit, events included). A change left out of the idle check fails here:
/// the step after it would be skipped.
#[test]
fn every_change_made_while_the_world_stands_still_is_seen() {
    let changes: &[(&str, Change)] = &[
        ("velocity", |a, b| {
            set::<Velocity>(a, b.rough, |v| v.0 = Vec2::new(2.0, 0.0))
        }),
        ("transform", |a, b| {
            set::<Transform>(a, b.rough, |t| t.translation.x += 0.5)
        }),
        ("collider", |a, b| {
            set::<CircleCollider>(a, b.low, |c| c.radius = 0.4)
        }),
        ("mass", |a, b| {
            set::<Mass>(a, b.high, |m| *m = Mass::Fixed(5.0))
        }),
        ("restitution", |a, b| {
            set::<Restitution>(a, b.rough, |r| r.0 = 0.9)
        }),
        ("restitution added", |a, b| {
            insert(a, b.high, Restitution(0.5))
        }),
        ("friction", |a, b| {
            set::<Friction>(a, b.rough, |f| f.0 = 0.1)
        }),
        ("rolling resistance", |a, b| {
            set::<RollingResistance>(a, b.rough, |c| c.0 = 0.2)
        }),
        ("spin", |a, b| {
            set::<AngularVelocity>(a, b.rough, |w| w.0 = 6.0)
        }),
        ("moment of inertia", |a, b| {
            set::<MomentOfInertia>(a, b.rough, |i| i.0 = 0.1)
        }),
        ("layers", |a, b| {
            insert(
                a,
                b.high,
                CollisionLayers {
                    memberships: 2,
                    filters: 2,
                },
            )
        }),
        ("sensor added", |a, b| insert(a, b.high, Sensor)),
        ("events enabled", |a, b| {
            insert(a, b.high, CollisionEventsEnabled)
        }),
        ("ignored collisions", |a, b| {
            insert(a, b.high, IgnoredCollisions(vec![b.low]))
        }),
        ("colliding entities added", |a, b| {
            insert(a, b.low, CollidingEntities::default())
        }),
        ("woken", |a, b| {
            set::<SleepState>(a, b.high, |s| s.sleeping = false)
        }),
        ("precise motion", |a, b| {
            set::<PreciseMotion>(a, b.rough, |p| p.velocity.x = 1.0)
        }),
        ("friction removed", |a, b| remove::<Friction>(a, b.rough)),
        ("restitution removed", |a, b| {
            remove::<Restitution>(a, b.rough)
        }),
        ("rolling resistance removed", |a, b| {
            remove::<RollingResistance>(a, b.rough)
        }),
        ("spin removed", |a, b| remove::<AngularVelocity>(a, b.rough)),
        ("moment of inertia removed", |a, b| {
            remove::<MomentOfInertia>(a, b.rough)
        }),
        ("layers removed", |a, b| {
            remove::<CollisionLayers>(a, b.rough)
        }),
        ("events enabled removed", |a, b| {
            remove::<CollisionEventsEnabled>(a, b.rough)
        }),
        ("ignored collisions removed", |a, b| {
            remove::<IgnoredCollisions>(a, b.rough)
        }),
        ("sleep state removed", |a, b| {
            remove::<SleepState>(a, b.high)
        }),
        ("precise motion removed", |a, b| {
            remove::<PreciseMotion>(a, b.rough)
        }),
        ("collider removed", |a, b| {
            remove::<CircleCollider>(a, b.low)
        }),
        ("despawned", |a, b| {
            a.world_mut().despawn(b.low);
        }),
        ("static post despawned", |a, b| {
            a.world_mut().despawn(b.post);
        }),
        ("spawned", |a, _| {
            spawn(a, Vec2::new(5.0, 4.0), Vec2::ZERO, 0.5, Mass::Auto);
        }),
        ("kinematic spawned", |a, _| {
            spawn(
                a,
                Vec2::new(9.0, 3.0),
                Vec2::new(-1.0, 0.0),
                0.3,
                Mass::Static,
            );
        }),
        ("config", |a, _| {
            a.world_mut()
                .resource_mut::<CircleCollideConfig>()
                .gravity
                .y = -5.0;
        }),
        ("contact memory restored", |a, b| {
            // A remembered push between the stack's balls, as a rollback would restore.
            let contact = bevy_circle_collide::RememberedContact {
                a: b.low.min(b.high),
                b: bevy_circle_collide::ContactPartner::Body(b.low.max(b.high)),
                impulse: 0.2,
                tangent_impulse: 0.0,
                rolling_impulse: 0.0,
            };
            a.world_mut().resource_mut::<ContactMemory>().contacts = vec![contact];
        }),
        ("level", |a, _| {
            a.world_mut().spawn(LevelCollider::segment(
                Vec2::new(0.0, 0.0),
                Vec2::new(10.0, 0.0),
            ));
        }),
        ("simulation_mut", |a, b| {
            let place = pos(a, b.low).as_dvec2();
            let mut world = a.world_mut().resource_mut::<CircleCollideWorld>();
            world.simulation_mut().wake_around(place, 0.5);
        }),
    ];
    for (what, change) in changes {
        let skipped = after_a_change_at_rest(what, *change);
        assert!(!skipped, "{what}: the step after the change was skipped");
    }
}

/// Components written again with the values they had — as a game that writes them every
/// frame does — change nothing: the step after is skipped all the same (the values are
/// compared with the bodies the core holds), and the app goes on exactly as the app that
/// never skips. (By change ticks alone, each made the next step a full one.)
#[test]
fn components_written_again_unchanged_leave_the_world_idle() {
    let rewrites: &[(&str, Change)] = &[
        ("velocity", |a, b| {
            set::<Velocity>(a, b.low, |v| v.0 = Vec2::ZERO)
        }),
        ("transform", |a, b| {
            set::<Transform>(a, b.high, |t| t.translation.x += 0.0)
        }),
        ("mass", |a, b| set::<Mass>(a, b.high, |m| *m = Mass::Auto)),
        ("friction", |a, b| {
            set::<Friction>(a, b.rough, |f| f.0 = 0.5)
        }),
        ("restitution", |a, b| {
            set::<Restitution>(a, b.rough, |r| r.0 = 0.3)
        }),
        ("rolling resistance", |a, b| {
            set::<RollingResistance>(a, b.rough, |c| c.0 = 0.01)
        }),
        ("spin", |a, b| {
            set::<AngularVelocity>(a, b.rough, |w| w.0 = 0.0)
        }),
        ("moment of inertia", |a, b| {
            set::<MomentOfInertia>(a, b.rough, |i| i.0 = 0.2)
        }),
        ("layers", |a, b| insert(a, b.rough, CollisionLayers::ALL)),
        ("sleep state", |a, b| {
            set::<SleepState>(a, b.high, |s| s.sleeping = true)
        }),
        ("precise motion", |a, b| {
            set::<PreciseMotion>(a, b.rough, |p| p.velocity.x = 0.0)
        }),
        ("collider", |a, b| {
            set::<CircleCollider>(a, b.low, |c| c.radius = 0.5)
        }),
        ("all of them on every body", |a, b| {
            for e in [b.low, b.high, b.rough, b.post] {
                set::<Velocity>(a, e, |v| v.0 += Vec2::ZERO);
                set::<Transform>(a, e, |t| t.translation += Vec3::ZERO);
                // Borrowed mutably, nothing written: marked changed all the same.
                set::<Mass>(a, e, |_| {});
                set::<SleepState>(a, e, |s| s.rest_time += 0.0);
            }
        }),
    ];
    for (what, rewrite) in rewrites {
        let skipped = after_a_change_at_rest(what, *rewrite);
        assert!(skipped, "{what}: the step after the rewrite ran");
    }
}
