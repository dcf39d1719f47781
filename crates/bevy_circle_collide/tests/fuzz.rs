//! A fuzz of the dense scenes a game meets, run on demand (ignored by `cargo test`):
//!
//! ```text
//! cargo test --release -p bevy_circle_collide --test fuzz -- --ignored --nocapture
//! FUZZ_SEEDS=1..300 FUZZ_CONFIG=1 cargo test --release -p bevy_circle_collide --test fuzz -- --ignored --nocapture
//! ```
//!
//! Each draw is a jittered pile of 300–1800 circles at restitution 0, 0.2, 0.5 or 1, a
//! random share of them walked left for 150 frames and then right, up to two kinematic
//! paddles sweeping the floor and turning at the walls, up to two level segments across
//! the lower half, friction 0.5 on every circle in some draws, and a circle despawned now
//! and then; with `FUZZ_CONFIG=1` the configuration is changed every twenty frames or so
//! (gravity, sleeping, slop, resting speed, passes, correction, impact cap). It asserts
//! what must always hold — every value finite, every dynamic circle inside the arena —
//! and prints each draw's median and worst step, and every step over 100 ms, for a
//! person to read (times are not asserted). It found the rows squeezed by a paddle that
//! the deep-jam correction flung at millions of units per second
//! (`docs/performance.md`, forty-fourth session).
//!
//! The second fuzz (`crowds_with_bulldozers…`, the same `FUZZ_SEEDS` and `FUZZ_CONFIG`)
//! draws a top-down crowd of 300–3000 circles at packing 0.4–0.75 steered toward the
//! centre every frame, with one to three kinematic bulldozers (radius 1–4, 2–12 units/s)
//! driven through it, and asserts the same, and that below restitution 1 no circle
//! leaves faster than 20 times the fastest bulldozer or the crowd's speed (frames that end
//! with two bulldozers pinching, closer than a circle's diameter, left out).

mod common;

use bevy::prelude::*;
use bevy_circle_collide::core::scenes;
use bevy_circle_collide::prelude::*;
use common::*;

/// One random change to the configuration, drawn from `rng`.
fn churn_config(app: &mut App, rng: &mut scenes::SplitMix64) {
    let (kind, x) = ((rng.next_unit() * 14.0) as usize, rng.next_unit() as f32);
    let pick = |choices: usize| (x * choices as f32) as usize % choices;
    let mut c = app.world_mut().resource_mut::<CircleCollideConfig>();
    match kind {
        0 => c.gravity = Vec2::new(0.0, -19.62 * x),
        1 => c.gravity = [Vec2::ZERO, Vec2::new(-9.81, 0.0)][pick(2)],
        2 => c.sleep = x < 0.5,
        3 => c.overlap_slop = [0.0, 0.01, 0.05, 0.2][pick(4)],
        4 => c.resting_speed = [None, Some(0.0), Some(2.0), Some(20.0)][pick(4)],
        5 => c.conjugate_correction = x < 0.5,
        6 => c.contact_iterations = [0, 1, 4, 16, 64][pick(5)],
        7 => c.sleep_by_neighbourhood = x < 0.5,
        8 => c.default_restitution = x,
        9 => c.default_friction = x,
        10 => c.separation_iterations = [0, 1, 4, 32][pick(4)],
        11 => c.skip_idle_steps = x < 0.5,
        12 => c.shock_propagation = x < 0.5,
        _ => c.max_impacts_per_body = [1, 8, 32, 4096][pick(4)],
    }
}

/// The draws `FUZZ_SEEDS` names (`a..b`, `b` excluded), else 1 to 20.
fn seeds() -> std::ops::Range<u64> {
    let given = std::env::var("FUZZ_SEEDS").ok().and_then(|s| {
        let (a, b) = s.split_once("..")?;
        Some(a.parse().ok()?..b.parse().ok()?)
    });
    given.unwrap_or(1..21)
}

/// Runs draw `seed` for 400 frames; returns each step's wall time in milliseconds.
fn draw(seed: u64, churn: bool) -> Vec<f64> {
    let mut rng = scenes::SplitMix64(seed * 7919 + 11);
    let n = 300 + (rng.next_unit() * 1500.0) as usize;
    let e = [0.0, 0.2, 0.5, 1.0][(rng.next_unit() * 4.0) as usize % 4];
    let mut scene = scenes::pile(n);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    let arena = scene.config.arena.expect("a box");
    let (width, height) = (arena.max.x as f32, arena.max.y as f32);
    let mut app = app();
    let bodies = spawn_scene(&mut app, &scene);
    let share = rng.next_unit() * 0.5;
    let walkers: Vec<Entity> = (bodies.iter().copied())
        .filter(|_| rng.next_unit() < share)
        .collect();
    let paddles: Vec<Entity> = (0..(rng.next_unit() * 3.0) as usize)
        .map(|k| {
            let p = Vec2::new(width * (0.2 + 0.3 * k as f32), 1.5);
            spawn(&mut app, p, Vec2::new(3.0, 0.0), 1.0, Mass::Static)
        })
        .collect();
    // Up to two ramps of level geometry across the lower half, and friction on every
    // circle in some draws.
    let ramps = (rng.next_unit() * 3.0) as usize;
    for _ in 0..ramps {
        let (x0, x1) = (
            rng.next_unit() as f32 * width,
            rng.next_unit() as f32 * width,
        );
        let (y0, y1) = (rng.next_unit() as f32, rng.next_unit() as f32);
        let ends = [
            Vec2::new(x0, 2.0 + y0 * height / 2.0),
            Vec2::new(x1, 2.0 + y1 * height / 2.0),
        ];
        app.world_mut().spawn((
            LevelCollider::segment(ends[0], ends[1]),
            Transform::default(),
        ));
    }
    let rough = rng.next_unit() < 0.3;
    if rough {
        for &b in &bodies {
            app.world_mut().entity_mut(b).insert(Friction(0.5));
        }
    }
    let at = format!(
        "draw {seed} ({n} circles, e {e}, {} walkers, {} paddles, {ramps} ramps, rough {rough})",
        walkers.len(),
        paddles.len()
    );
    let mut times = Vec::new();
    for frame in 0..400 {
        let walk = if (frame / 150) % 2 == 0 { -4.0 } else { 4.0 };
        for &w in &walkers {
            if let Some(mut v) = app.world_mut().get_mut::<Velocity>(w) {
                v.0.x = walk;
            }
        }
        turn_paddles(&mut app, &paddles, width);
        let frame_at = format!("{at}, frame {frame}");
        times.push(churned_step(&mut app, &mut rng, churn, &bodies, &frame_at));
        check_bodies(&mut app, &frame_at, Vec2::new(width, height));
    }
    eprintln!(
        "{at}: median {:.2} ms, worst {:.1} ms",
        median(&times),
        worst(&times)
    );
    times
}

/// Runs crowd draw `seed` for 400 frames: a top-down crowd of 300–3000 circles without
/// gravity, steered toward the centre every frame, with one to three kinematic
/// bulldozers (radius 1–4, 2–12 units/s) driven through it and turning at the walls.
/// Returns each step's wall time in milliseconds and the fastest dynamic circle seen.
fn crowd_draw(seed: u64, churn: bool) -> (Vec<f64>, f32) {
    let mut rng = scenes::SplitMix64(seed * 6151 + 3);
    let n = 300 + (rng.next_unit() * 2700.0) as usize;
    let eta = 0.4 + 0.35 * rng.next_unit();
    let e = [0.0, 0.2, 0.5, 1.0][(rng.next_unit() * 4.0) as usize % 4];
    let mut scene = scenes::crowd(n, eta);
    for b in &mut scene.bodies {
        b.restitution = e;
    }
    let side = scene.config.arena.expect("a box").max.x as f32;
    let mut app = app();
    let bodies = spawn_scene(&mut app, &scene);
    let mut dozers = Vec::new();
    let mut top = 0.0_f32;
    for _ in 0..1 + (rng.next_unit() * 3.0) as usize {
        let r = 1.0 + 3.0 * rng.next_unit() as f32;
        let speed = 2.0 + 10.0 * rng.next_unit() as f32;
        let angle = std::f32::consts::TAU * rng.next_unit() as f32;
        let p = Vec2::new(
            r + 1.0,
            r + 1.0 + (side - 2.0 * r - 2.0) * rng.next_unit() as f32,
        );
        let v = Vec2::from_angle(angle) * speed;
        top = top.max(speed);
        let dozer = spawn(&mut app, p, v, r, Mass::Static);
        app.world_mut()
            .entity_mut(dozer)
            .insert(Restitution(e as f32));
        dozers.push((dozer, r));
    }
    let at = format!(
        "crowd draw {seed} ({n} circles, packing {eta:.2}, e {e}, {} bulldozers)",
        dozers.len()
    );
    let centre = Vec2::splat(side / 2.0);
    let (mut times, mut fastest, mut pinched_frames) = (Vec::new(), 0.0_f32, 0);
    let widest = (scene.bodies.iter()).fold(0.0_f32, |w, b| w.max(b.radius as f32));
    for frame in 0..400 {
        for &b in &bodies {
            let Ok(mut body) = app.world_mut().get_entity_mut(b) else {
                continue;
            };
            let p = body.get::<Transform>().unwrap().translation.truncate();
            body.get_mut::<Velocity>().unwrap().0 =
                (centre - p).normalize_or_zero() * scenes::CROWD_SPEED as f32;
        }
        for &(d, r) in &dozers {
            let p = pos(&app, d);
            let mut v = app.world_mut().get_mut::<Velocity>(d).unwrap();
            for k in 0..2 {
                if (p[k] < r + 0.5 && v.0[k] < 0.0) || (p[k] > side - r - 0.5 && v.0[k] > 0.0) {
                    v.0[k] = -v.0[k];
                }
            }
        }
        let frame_at = format!("{at}, frame {frame}");
        times.push(churned_step(&mut app, &mut rng, churn, &bodies, &frame_at));
        let speed = check_bodies(&mut app, &frame_at, Vec2::splat(side));
        // The bulldozers start on top of circles: their first frames push out. A frame
        // that ends with two bulldozers pinched is not counted (see `pinched`).
        if pinched(&app, &dozers, 2.0 * widest) {
            pinched_frames += 1;
        } else if frame >= 30 {
            fastest = fastest.max(speed);
        }
    }
    eprintln!(
        "{at}: median {:.2} ms, worst {:.1} ms, fastest circle {fastest:.1} u/s (bulldozers to {top:.1}; {pinched_frames} frames pinched)",
        median(&times),
        worst(&times)
    );
    // Below restitution 1 a circle squeezed in a wedge, or between two bulldozers closing
    // on each other, may leave faster than what pushes it (60 draws: up to 9.2 times),
    // never by orders of magnitude (a squeezed row was flung at millions of units/s
    // before d547b14); at 1 a circle between closing bulldozers gains speed at every
    // bounce (up to 32 times). Frames that end pinched are left out: there the circle
    // between must leave at a speed without bound (draw 1081: 24 times, for one frame).
    let pushed_at = top.max(scenes::CROWD_SPEED as f32);
    assert!(
        e == 1.0 || fastest < 20.0 * pushed_at,
        "{at}: a circle at {fastest} u/s"
    );
    (times, fastest)
}

/// One frame's churn and step: with `churn` the configuration changed in one frame of
/// twenty, one of `bodies` despawned in one of fifty; then the step. Returns its wall
/// time in milliseconds; prints a step over 100 ms and asserts the kinetic energy is
/// finite.
fn churned_step(
    app: &mut App,
    rng: &mut scenes::SplitMix64,
    churn: bool,
    bodies: &[Entity],
    at: &str,
) -> f64 {
    if churn && rng.next_unit() < 0.05 {
        churn_config(app, rng);
    }
    if rng.next_unit() < 0.02 {
        let k = (rng.next_unit() * bodies.len() as f64) as usize % bodies.len();
        if let Ok(body) = app.world_mut().get_entity_mut(bodies[k]) {
            body.despawn();
        }
    }
    let start = std::time::Instant::now();
    steps(app, 1);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    // The test app keeps every event until a test takes them: a collapse of a million
    // impacts a step would pile up gigabytes.
    events(app);
    let d = app.world().resource::<CollisionDiagnostics>();
    if ms > 100.0 {
        // The settings that make steps dear (draw 1105: slop 0 with 32 push-out passes).
        let c = app.world().resource::<CircleCollideConfig>();
        eprintln!(
            "  {at}: {ms:.1} ms, {} impacts, {} contacts (slop {}, push-out passes {}, impacts per body {}, gravity {})",
            d.impacts,
            d.contacts,
            c.overlap_slop,
            c.separation_iterations,
            c.max_impacts_per_body,
            c.gravity
        );
    }
    assert!(d.kinetic_energy.is_finite(), "{at}");
    ms
}

/// Asserts every body's position and velocity are finite and every dynamic body is
/// inside the arena `[0, size]` (within 0.1); returns the fastest dynamic body's speed.
fn check_bodies(app: &mut App, at: &str, size: Vec2) -> f32 {
    let mut fastest = 0.0_f32;
    let mut query = (app.world_mut()).query::<(Entity, &Transform, &Velocity, &Mass)>();
    for (entity, transform, velocity, mass) in query.iter(app.world()) {
        let (p, v) = (transform.translation.truncate(), velocity.0);
        let here = format!("{at}: {entity} at {p}, {v}");
        assert!(p.is_finite() && v.is_finite(), "{here}");
        if *mass != Mass::Static {
            let inside = p.cmpgt(Vec2::splat(-0.1)).all() && p.cmplt(size + 0.1).all();
            assert!(inside, "{here}");
            fastest = fastest.max(v.length());
        }
    }
    fastest
}

/// Whether two of the bulldozers' surfaces are closer than `width`, the widest circle's
/// diameter: a circle between them cannot fit, and the pair squeezes it out sideways, as
/// pinching fingers squeeze a seed, faster the narrower the wedge (draw 1081 of the
/// crowd fuzz: two bulldozers 0.96 apart closing at 12.8 units/s sent two circles off
/// at 177–179 units/s, 35 the frame after).
fn pinched(app: &App, dozers: &[(Entity, f32)], width: f32) -> bool {
    (dozers.iter().enumerate()).any(|(i, &(a, ra))| {
        (dozers[i + 1..].iter()).any(|&(b, rb)| pos(app, a).distance(pos(app, b)) - ra - rb < width)
    })
}

fn median(times: &[f64]) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

fn worst(times: &[f64]) -> f64 {
    times.iter().copied().fold(0.0, f64::max)
}

#[test]
#[ignore = "a fuzz, run on demand (see the module docs)"]
fn dense_scenes_with_walkers_and_paddles_stay_finite_and_inside() {
    let churn = std::env::var("FUZZ_CONFIG").is_ok();
    let worst_steps: Vec<f64> = seeds().map(|seed| worst(&draw(seed, churn))).collect();
    eprintln!(
        "{} draws: the worst step of the worst draw {:.1} ms, of the median draw {:.1} ms",
        worst_steps.len(),
        worst(&worst_steps),
        median(&worst_steps)
    );
}

#[test]
#[ignore = "a fuzz, run on demand (see the module docs)"]
fn crowds_with_bulldozers_stay_finite_and_inside() {
    let churn = std::env::var("FUZZ_CONFIG").is_ok();
    let draws: Vec<(f64, f32)> = (seeds())
        .map(|seed| {
            let (times, fastest) = crowd_draw(seed, churn);
            (worst(&times), fastest)
        })
        .collect();
    let worst_steps: Vec<f64> = draws.iter().map(|d| d.0).collect();
    eprintln!(
        "{} crowd draws: the worst step of the worst draw {:.1} ms, of the median draw {:.1} ms; the fastest circle {:.1} u/s",
        draws.len(),
        worst(&worst_steps),
        median(&worst_steps),
        draws.iter().map(|d| d.1).fold(0.0, f32::max)
    );
}
