//! The gather that keeps unchanged bodies (`kept`) against the full gather: two apps,
//! one with each, stepped side by side through the game's changes of every kind, hold
//! the same bodies bit for bit after every gather and every step.

use crate::kept::KEPT_PAUSE;
use crate::prelude::*;
use crate::world::CircleCollideWorld;
use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use circle_collide_core::scenes::{SEED, SplitMix64};

/// Every value the core holds of each body, in the core's order, bit for bit.
#[derive(Resource, Default, Clone, PartialEq, Debug)]
struct Snapshot(Vec<Vec<u64>>);

/// The core's bodies, bit for bit, with their entities.
fn bits(world: &CircleCollideWorld) -> Vec<Vec<u64>> {
    let b = world.simulation().bodies();
    (0..b.len())
        .map(|i| {
            let entity = world.entity(i as u32).to_bits();
            std::iter::once(entity).chain(b.state_bits(i)).collect()
        })
        .collect()
}

/// Records the core's bodies right after the gather.
fn after_gather(world: Res<CircleCollideWorld>, mut snapshot: ResMut<Snapshot>) {
    if !world.idle {
        snapshot.0 = bits(&world);
    }
}

/// What the game does in the fixed step before the physics, by step number.
#[derive(Resource, Default)]
struct Script {
    step: u32,
    bodies: Vec<Entity>,
    /// Steer every body every step (a crowd) from step 200 to 260.
    crowd: bool,
}

/// The game's changes: velocities set (steering), a teleport, a mass, a sensor added, a
/// restitution removed, a rotation, an angular velocity, spawns and despawns, and each
/// other component the gather reads set or added.
fn game(mut commands: Commands, mut script: ResMut<Script>, mut q: Query<BodyParts>) {
    script.step += 1;
    let (k, b) = (script.step, script.bodies.clone());
    if script.crowd && (200..260).contains(&k) {
        for (t, mut v, ..) in &mut q {
            v.0 = -0.1 * t.translation.truncate();
        }
    }
    match k {
        20..=40 => {
            // Steering: one body a step.
            if let Ok((_, mut v, ..)) = q.get_mut(b[k as usize % b.len()]) {
                v.0 = Vec2::new(2.0, 1.0);
            }
        }
        50 => {
            if let Ok((mut t, ..)) = q.get_mut(b[5]) {
                t.translation.x += 4.0;
            }
        }
        60 => {
            if let Ok((_, _, mut m, _)) = q.get_mut(b[6]) {
                *m = Mass::Fixed(3.0);
            }
        }
        70 => {
            // The last body of its table: it stays last in query order.
            commands.entity(b[b.len() - 1]).insert(Sensor);
        }
        80 => {
            commands.entity(b[8]).remove::<Restitution>();
        }
        90 => {
            if let Ok((mut t, ..)) = q.get_mut(b[9]) {
                t.rotation = Quat::from_rotation_z(0.7);
            }
        }
        100 => {
            commands.entity(b[10]).insert(AngularVelocity(5.0));
        }
        110 => {
            commands.spawn((
                CircleCollider::new(0.4),
                Transform::from_xyz(20.0, 50.0, 0.0),
                Velocity(Vec2::new(0.0, -3.0)),
            ));
        }
        120 => {
            commands.entity(b[12]).despawn();
        }
        130 => {
            // Changed and changed back: a write that changes nothing.
            if let Ok((_, _, mut m, _)) = q.get_mut(b[13]) {
                m.set_changed();
            }
        }
        150 => {
            if let Ok((.., Some(mut r))) = q.get_mut(b[16]) {
                r.0 = 0.9;
            }
        }
        // Components added to the last body, which stays last in query order.
        155 => {
            // In no layer's filter: it stops colliding.
            let layers = CollisionLayers::new(1, 0);
            commands.entity(b[b.len() - 1]).insert(layers);
        }
        160 => {
            commands.entity(b[b.len() - 1]).insert(Friction(0.9));
        }
        165 => {
            commands
                .entity(b[b.len() - 1])
                .insert(RollingResistance(0.2));
        }
        170 => {
            commands.entity(b[b.len() - 1]).insert(MomentOfInertia(7.0));
        }
        175 => {
            commands
                .entity(b[b.len() - 1])
                .insert(CollisionEventsEnabled);
        }
        180 => {
            commands.entity(b[18]).insert(SleepState::default());
        }
        185 => {
            let mut motion = PreciseMotion::default();
            motion.velocity.x = 1.0;
            commands.entity(b[19]).insert(motion);
        }
        190 => {
            commands.entity(b[20]).insert(CircleCollider::new(0.3));
        }
        _ => {}
    }
}

/// The components the game script writes.
type BodyParts = (
    &'static mut Transform,
    &'static mut Velocity,
    &'static mut Mass,
    Option<&'static mut Restitution>,
);

/// Between the gather and the write-back, another system turns a body (step 140): the
/// write-back moves it, which must not hide the turn from the next gather.
fn between(script: Res<Script>, mut q: Query<&mut Transform, With<CircleCollider>>) {
    if script.step == 140
        && let Ok(mut t) = q.get_mut(script.bodies[14])
    {
        t.rotation = Quat::from_rotation_z(-0.4);
    }
}

/// A scene of the side-by-side runs.
#[derive(Clone, Copy)]
struct Scene {
    /// Bodies, on a lattice 18 wide in a box 40 wide (and tall enough).
    n: usize,
    gravity: Vec2,
    /// With friction and rolling resistance (else no body turns).
    rough: bool,
    /// Every body steered from step 200 to 260.
    crowd: bool,
    /// The fewest bodies for the order computed beside the gather, and so for the kept
    /// gather (the plugin's default, or lowered for small scenes).
    threshold: usize,
}

impl Scene {
    /// `n` smooth bodies without gravity, no crowd, the threshold lowered to 64.
    fn new(n: usize) -> Self {
        let (gravity, rough, crowd, threshold) = (Vec2::ZERO, false, false, 64);
        Self {
            n,
            gravity,
            rough,
            crowd,
            threshold,
        }
    }
}

/// An app of `scene`, half of its bodies with a restitution of 0.3; `keep` sets whether
/// the gather keeps unchanged bodies.
fn app(keep: bool, scene: Scene) -> App {
    let Scene {
        n,
        gravity,
        rough,
        crowd,
        threshold,
    } = scene;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: crate::task_pool_options(2),
    }))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        Time::<Fixed>::from_hz(60.0).timestep(),
    ))
    .add_plugins(CircleCollidePlugin::default())
    .init_resource::<Snapshot>()
    .add_systems(FixedUpdate, game)
    .add_systems(
        FixedPostUpdate,
        (
            after_gather
                .after(CircleCollideSystems::Integrate)
                .before(CircleCollideSystems::BroadPhase),
            between
                .after(CircleCollideSystems::Integrate)
                .before(CircleCollideSystems::Resolve),
        ),
    );
    {
        let mut world = app.world_mut().resource_mut::<CircleCollideWorld>();
        world.keep_unchanged = keep;
        world.order_ahead_min_bodies = threshold;
    }
    {
        let mut config = app.world_mut().resource_mut::<CircleCollideConfig>();
        config.gravity = gravity;
        let friction = if rough { 0.4 } else { 0.0 };
        config.default_friction = friction;
        config.default_rolling_resistance = friction / 40.0;
        config.arena = Some(ArenaConfig {
            min: Vec2::ZERO,
            max: Vec2::new(40.0, 40f32.max(2.1 * n.div_ceil(18) as f32 + 2.0)),
            restitution: 0.5,
            friction,
        });
    }
    let mut state = SEED;
    let mut unit = || SplitMix64::next_f64(&mut state) as f32;
    let bodies = (0..n)
        .map(|k| {
            let at = Vec2::new(1.2 + 2.1 * (k % 18) as f32, 1.2 + 2.1 * (k / 18) as f32);
            let v = Vec2::new(unit() - 0.5, unit() - 0.5) * 10.0;
            let mut e = app.world_mut().spawn((
                CircleCollider::new(0.6 + 0.3 * unit()),
                Transform::from_translation((at + Vec2::new(0.1 * unit(), 0.0)).extend(0.0)),
                Velocity(v),
            ));
            if k % 2 == 0 {
                e.insert(Restitution(0.3));
            }
            e.id()
        })
        .collect();
    app.insert_resource(Script {
        step: 0,
        bodies,
        crowd,
    });
    app
}

/// Steps an app keeping unchanged bodies beside one that does not, `steps` times; both
/// must hold the same bodies after every gather and every step. Returns, for each step,
/// whether the first kept its bodies, and the steps left in its pause.
fn side_by_side(scene: Scene, steps: usize) -> Vec<(bool, u32)> {
    let scene = |keep| app(keep, scene);
    let (mut kept, mut full) = (scene(true), scene(false));
    (0..steps)
        .map(|k| {
            kept.update();
            full.update();
            let (a, b) = (kept.world(), full.world());
            let (wa, wb) = (
                a.resource::<CircleCollideWorld>(),
                b.resource::<CircleCollideWorld>(),
            );
            assert!(!wb.kept);
            let (ga, gb) = (a.resource::<Snapshot>(), b.resource::<Snapshot>());
            assert!(ga == gb, "step {k}: the gathers differ (kept {})", wa.kept);
            assert!(bits(wa) == bits(wb), "step {k}: the steps differ");
            assert_eq!(wa.opted_in, wb.opted_in, "step {k}: the opt-ins differ");
            (wa.kept, wa.kept_pause)
        })
        .collect()
}

/// In how many of `steps` the gather kept its bodies.
fn count(steps: &[(bool, u32)]) -> usize {
    steps.iter().filter(|(kept, _)| *kept).count()
}

#[test]
fn the_kept_gather_gives_the_full_gathers_bodies_through_every_kind_of_change() {
    // A rough pile under gravity, landing and going to sleep (rest times, sleepers).
    let (gravity, rough) = (Vec2::new(0.0, -9.81), true);
    let pile = Scene {
        gravity,
        rough,
        ..Scene::new(300)
    };
    let kept = count(&side_by_side(pile, 900));
    assert!(kept >= 850, "kept in {kept} of 900 steps");
    // A box of rough circles without gravity (spins, impacts in flight).
    let kept = count(&side_by_side(
        Scene {
            rough,
            ..Scene::new(300)
        },
        200,
    ));
    assert!(kept >= 150, "kept in {kept} of 200 steps");
    // A smooth gas: no body turns, so the rotation the game set between the gather and
    // the write-back is seen only because the write-back noticed it.
    let kept = count(&side_by_side(Scene::new(300), 200));
    assert!(kept >= 150, "kept in {kept} of 200 steps");
}

#[test]
fn the_kept_gather_runs_from_the_default_threshold() {
    let threshold = crate::world::ORDER_AHEAD_MIN_BODIES;
    let scene = |n| Scene {
        threshold,
        ..Scene::new(n)
    };
    assert_eq!(count(&side_by_side(scene(threshold - 1), 30)), 0);
    let kept = count(&side_by_side(scene(threshold + 100), 30));
    assert!(kept >= 28, "kept in {kept} of 30 steps");
}

#[test]
fn a_crowd_steered_every_step_pauses_the_kept_gather() {
    let kept = side_by_side(
        Scene {
            crowd: true,
            ..Scene::new(300)
        },
        400,
    );
    // Steered from step 200 to 260: the kept gather finds too many bodies changed and
    // gives way to the full gather, pauses 15 steps, tries again and pauses 31, then 63.
    assert_eq!(count(&kept[200..260]), 0);
    let tried: Vec<(usize, u32)> = (200..260)
        .filter(|&k| kept[k].1 > kept[k - 1].1)
        .map(|k| (k, kept[k].1))
        .collect();
    assert_eq!(
        tried,
        [(200, KEPT_PAUSE), (216, 31), (248, 63)],
        "{tried:?}"
    );
    assert!(count(&kept[100..200]) >= 90);
    // Kept again once the last pause is over (from step 312).
    assert!(count(&kept[312..]) >= 80, "{:?}", &kept[300..]);
}
