//! The contact model: fast pairs are exact impacts even when they start touching, slow
//! ones are contacts; crowds stay cheap and within the slop; islands sleep and wake.

mod common;

use circle_collide_core::{Arena, BodyDesc, Simulation, StepConfig, scenes};
use glam::DVec2;

const G: DVec2 = DVec2::new(0.0, -9.81);

/// Unit-mass circle of radius 0.5 at `p`, restitution 1.
fn ball(p: DVec2, v: DVec2) -> BodyDesc {
    BodyDesc::new(p, 0.5, 1.0).with_velocity(v)
}

#[test]
fn a_cradle_resting_on_a_floor_passes_the_momentum_down_the_row() {
    // A arrives at 100 within the slop of B (gap 0.002 < 0.005); B and C rest on the
    // floor, touching. Sequential binary impacts: A and B stop, C leaves with 100.
    for jitter in [0.0, 1e-4] {
        let config = StepConfig {
            gravity: G,
            arena: Some(Arena {
                min: DVec2::ZERO,
                max: DVec2::new(60.0, 20.0),
                restitution: 1.0,
                friction: 0.0,
            }),
            ..StepConfig::default()
        };
        let mut sim = common::sim_with(
            &[
                ball(DVec2::new(3.998, 0.5), DVec2::new(100.0, 0.0)),
                ball(DVec2::new(5.0, 0.5), DVec2::ZERO),
                ball(DVec2::new(6.0 + jitter, 0.5), DVec2::ZERO),
            ],
            config,
        );
        sim.step(scenes::DT);
        let v: Vec<DVec2> = sim.bodies().velocities().collect();
        assert!(v[0].length() < 1e-9, "A: {}", v[0]);
        assert!(v[1].length() < 1e-9, "B: {}", v[1]);
        assert!(
            (v[2] - DVec2::new(100.0, 0.0)).length() < 1e-9,
            "C: {}",
            v[2]
        );
        let ke: f64 = v.iter().map(|v| 0.5 * v.length_squared()).sum();
        assert!((ke - 5000.0).abs() < 1e-9 * 5000.0, "kinetic energy {ke}");
        assert_eq!(sim.impacts().len(), 2, "{:?}", sim.impacts());
    }
}

#[test]
fn a_fast_disk_on_a_resting_one_touching_a_third_at_30_degrees_is_two_binary_impacts() {
    // B rests; C touches B at 30° above the line A–B; A arrives along that line at 100,
    // within the slop of B. Equal masses, restitution 1: A stops; B takes (100, 0) and
    // passes its component along n = (cos 30°, sin 30°) on to C.
    let n = DVec2::from_angle(30f64.to_radians());
    for gap in [0.002, 0.0031] {
        let mut sim = common::sim_with(
            &[
                ball(DVec2::new(-1.0 - gap, 0.0), DVec2::new(100.0, 0.0)),
                ball(DVec2::ZERO, DVec2::ZERO),
                ball(n, DVec2::ZERO),
            ],
            StepConfig {
                gravity: G,
                ..StepConfig::default()
            },
        );
        sim.step(scenes::DT);
        // Everything falls alike: compare velocities in the falling frame.
        let fall = G * scenes::DT;
        let v: Vec<DVec2> = sim.bodies().velocities().map(|v| v - fall).collect();
        let u = 100.0 * n.x; // B's speed along n
        let expect = [DVec2::ZERO, DVec2::new(100.0, 0.0) - n * u, n * u];
        for (k, (got, want)) in v.iter().zip(expect).enumerate() {
            assert!((*got - want).length() < 1e-9, "body {k}: {got} vs {want}");
        }
        let ke: f64 = v.iter().map(|v| 0.5 * v.length_squared()).sum();
        assert!((ke / 5000.0 - 1.0).abs() < 1e-12, "kinetic energy {ke}");
    }
}

/// The crowd of 500 (DESIGN §5), 600 steps: no step falls back, and the push-out leaves
/// no overlap deeper than the slop in any step (`overlaps_left` 0: its small jams, which
/// a limit of passes left overlapping in 15 steps, are cleared within its work limit).
#[test]
fn a_steered_crowd_stays_within_the_slop_with_no_fallback() {
    let n = 500;
    let scene = scenes::crowd(n, 0.3);
    let mut sim = scene.simulation();
    let centre = DVec2::splat(0.5 * scenes::gas_side(n, 0.3));
    let slop = sim.config.overlap_slop;
    let mut deepest: f64 = 0.0;
    for step in 0..600 {
        scenes::steer_crowd(&mut sim, centre);
        sim.step(scenes::DT);
        assert!(!sim.stats().fallback, "step {step} fell back");
        assert_eq!(sim.stats().overlaps_left, 0, "step {step}");
        let b = sim.bodies();
        for i in 0..n {
            for j in i + 1..n {
                let depth = 1.0 - b.position(i).distance(b.position(j));
                deepest = deepest.max(depth / scenes::RADIUS);
            }
        }
    }
    assert!(
        deepest <= slop * (1.0 + 1e-9),
        "deepest overlap {deepest} r"
    );
    // The crowd is jammed at the centre: most circles are held by the contact solver.
    assert!(sim.stats().resting_contacts > n, "{:?}", sim.stats());
}

#[test]
fn a_steered_crowd_of_3000_holds_without_imploding() {
    // The size that imploded before the solver's over-relaxation and position correction
    // (after 600 steps: overlaps of 0.158 r, kinetic energy 14,470 — bodies at the
    // steering speed inside the jam). Now the jam holds: overlaps within two slops at the
    // end and the crowd nearly at rest (KE 21).
    let n = 3000;
    let mut sim = scenes::crowd(n, 0.3).simulation();
    let centre = DVec2::splat(0.5 * scenes::gas_side(n, 0.3));
    let slop = sim.config.overlap_slop;
    let (mut left_steps, mut most) = (0, 0);
    for step in 0..600 {
        scenes::steer_crowd(&mut sim, centre);
        sim.step(scenes::DT);
        assert!(!sim.stats().fallback, "step {step} fell back");
        left_steps += usize::from(sim.stats().overlaps_left > 0);
        most = most.max(sim.stats().correction_iterations);
    }
    // A pass limit left overlaps in 334 of the 600 steps; the work limit in none.
    assert_eq!(left_steps, 0, "steps that left overlaps");
    // Its jam gets the correction (`CONJUGATE_TRIGGER`) but presses on no wall, so it
    // keeps the iterations of a jam pressed into itself (more made the crowds to the
    // centre of 5000 and 10,000 slower); its solves are of over 2000 contacts
    // (`GAUSS_SEIDEL_CONTACTS`).
    let limit = circle_collide_core::contacts::GAUSS_SEIDEL_ITERATIONS;
    assert!(
        most > 0 && most <= limit,
        "at most {most} correction iterations"
    );
    let b = sim.bodies();
    let circles: Vec<_> = (0..n).map(|i| (b.position(i), b.radius(i))).collect();
    let deepest = circle_collide_core::manifold::deepest_overlap(&circles) / scenes::RADIUS;
    assert!(deepest <= 2.0 * slop, "deepest overlap {deepest} r");
    let ke = sim.stats().kinetic_energy;
    assert!(ke < 1000.0, "kinetic energy {ke}: the jam liquefied");
}

#[test]
fn without_gravity_a_contact_overlapping_within_the_slop_is_halved_each_step_by_positions_only() {
    // Two circles at rest overlapping by 0.8 slop: a slow contact (nothing closes, so the
    // velocity solve does nothing, and the push-out leaves overlaps within the slop). The
    // position correction takes half of the overlap back each step, shared by inverse
    // mass (the centre of mass stays), and never touches a velocity. Without it the
    // overlap stayed 0.8 slop for good. Axis along x, and turned by 0.7 rad with masses
    // 1 and 3.
    for (angle, m2) in [(0.0, 1.0), (0.7, 3.0)] {
        let axis = DVec2::from_angle(angle);
        let slop = StepConfig::default().overlap_slop;
        let (r, depth) = (0.5, 0.8 * slop * 0.5);
        let p1 = DVec2::new(3.0, 4.0);
        let p2 = p1 + axis * (2.0 * r - depth);
        let bodies = [
            BodyDesc::new(p1, r, 1.0).with_restitution(0.2),
            BodyDesc::new(p2, r, m2).with_restitution(0.2),
        ];
        let mut sim = common::sim_with(&bodies, StepConfig::default());
        let centre = |sim: &Simulation| {
            let b = sim.bodies();
            (b.position(0) + b.position(1) * m2) / (1.0 + m2)
        };
        let c0 = centre(&sim);
        for step in 1..=3 {
            sim.step(1.0 / 60.0);
            assert_eq!(sim.stats().resting_contacts, 1, "a solver contact");
            let b = sim.bodies();
            let now = 2.0 * r - b.position(0).distance(b.position(1));
            let want = depth * 0.5f64.powi(step);
            assert!((now - want).abs() < 1e-12, "step {step}: {now} vs {want}");
            assert!(
                (b.position(1) - b.position(0))
                    .normalize()
                    .abs_diff_eq(axis, 1e-12)
            );
            assert!((centre(&sim) - c0).length() < 1e-12, "centre of mass moved");
            assert_eq!(b.velocity(0), DVec2::ZERO);
            assert_eq!(b.velocity(1), DVec2::ZERO);
        }
    }
}

/// A small pile (lattice, and jittered by 2 % of the radius) and how many steps it took
/// to fall asleep entirely.
fn sleeping_pile(jitter: f64) -> (Simulation, usize) {
    let mut scene = scenes::lattice_pile(60);
    let mut state = scenes::SEED;
    for b in &mut scene.bodies {
        b.position.x += (scenes::SplitMix64::next_f64(&mut state) - 0.5) * jitter;
    }
    let mut sim = scene.simulation();
    for step in 1..=600 {
        sim.step(scenes::DT);
        if sim.stats().sleeping == 60 {
            return (sim, step);
        }
    }
    panic!("the pile never fell asleep: {:?}", sim.stats());
}

#[test]
fn a_sleeping_pile_wakes_when_a_ball_lands_on_it_and_sleeps_again() {
    for jitter in [0.0, 0.02 * scenes::RADIUS] {
        let (mut sim, asleep_at) = sleeping_pile(jitter);
        // Asleep, it costs no pairs, no contacts and no impacts, and stands still.
        let before: Vec<DVec2> = sim.bodies().positions().collect();
        sim.step(scenes::DT);
        let s = *sim.stats();
        assert_eq!(
            (s.candidate_pairs, s.resting_contacts, s.impacts),
            (0, 0, 0)
        );
        assert_eq!(sim.bodies().positions().collect::<Vec<_>>(), before);
        assert_eq!(sim.stats().kinetic_energy, 0.0);
        // A ball dropped from above wakes the pile when it lands.
        let top = before.iter().map(|p| p.y).fold(0.0, f64::max);
        let x = before[30].x;
        let (ball, _) = sim
            .add_body(
                BodyDesc::new(DVec2::new(x, top + 3.0), scenes::RADIUS, scenes::MASS)
                    .with_restitution(0.2),
            )
            .unwrap();
        let mut woken = 0;
        let mut again = None;
        for step in 1..=900 {
            sim.step(scenes::DT);
            woken += sim.stats().woken;
            if woken > 0 && sim.stats().sleeping == 61 {
                again = Some(step);
                break;
            }
        }
        assert!(woken > 0, "the landing woke nothing");
        assert!(again.is_some(), "never slept again: {:?}", sim.stats());
        let p = sim.bodies().position(ball as usize);
        assert!(
            p.y > top - 1.5 * scenes::RADIUS,
            "the ball sank into the pile: {p}"
        );
        assert!(asleep_at < 600);
    }
}

/// A sleeping pile stands still (`Simulation::is_still`: a step would change nothing),
/// and stays so with a resting static body beside it; anything that could move it —
/// an awake dynamic body, a sensor, a moving or spinning kinematic body, a vacated place,
/// a level change — means it does not, and a step of a still pile changes nothing.
#[test]
fn a_sleeping_pile_stands_still_until_something_could_move_it() {
    let far = DVec2::new(-50.0, 50.0);
    let post = BodyDesc::new(far, scenes::RADIUS, f64::INFINITY);
    let additions: [(&str, Option<BodyDesc>, bool); 6] = [
        ("a resting static body", Some(post), true),
        (
            "a dynamic body",
            Some(BodyDesc::new(far, scenes::RADIUS, scenes::MASS)),
            false,
        ),
        ("a static sensor", Some(post.with_sensor(true)), false),
        (
            "a moving kinematic body",
            Some(post.with_velocity(DVec2::X)),
            false,
        ),
        (
            "a spinning kinematic body",
            Some(post.with_angular_velocity(1.0)),
            false,
        ),
        ("a vacated place", None, false),
    ];
    for (what, body, still) in additions {
        let (mut sim, _) = sleeping_pile(0.02 * scenes::RADIUS);
        assert!(sim.is_still(), "asleep, the pile stands still");
        let before: Vec<DVec2> = sim.bodies().positions().collect();
        sim.step(scenes::DT);
        assert!(sim.is_still(), "and after a step of it");
        assert_eq!(sim.bodies().positions().collect::<Vec<_>>(), before);
        match body {
            Some(b) => {
                sim.add_body(b).unwrap();
            }
            None => sim.wake_around(before[0], scenes::RADIUS),
        }
        assert_eq!(sim.is_still(), still, "{what}");
    }
    let (mut sim, _) = sleeping_pile(0.0);
    sim.set_level(circle_collide_core::Level::new(Vec::new()));
    assert!(!sim.is_still(), "a level change");
}

/// The sleeping piles the waking tests start from: (jitter, by whole islands) — the
/// lattice and the jittered pile, and the jittered one sleeping by neighbourhood.
const WAKING_PILES: [(f64, bool); 3] = [
    (0.0, true),
    (0.02 * scenes::RADIUS, true),
    (0.02 * scenes::RADIUS, false),
];

/// [`sleeping_pile`] of `jitter`, sleeping by whole islands if `whole` (else by
/// neighbourhood), and where its bodies rest.
fn asleep(jitter: f64, whole: bool) -> (Simulation, Vec<DVec2>) {
    let (mut sim, _) = sleeping_pile(jitter);
    sim.config.sleep.by_neighbourhood = !whole;
    let rest = sim.bodies().positions().collect();
    (sim, rest)
}

/// A kinematic paddle (static mass, moving at 3 units/s) driven along the floor into a
/// sleeping pile wakes what it reaches and pushes it, by whole islands and by
/// neighbourhood, on four jittered piles: no body is ever left inside the paddle beyond
/// four times the slop (a pair of a kinematic and a sleeping body is never a candidate pair,
/// so before kinematic bodies woke sleepers the paddle swept through the pile as through
/// air, 0.7 of a radius deep). Measured on eight jitters of 0.006–0.03 since the push is
/// followed through awake bodies (`wake_push`): 0.99–1.55 slops in both modes. Before,
/// by neighbourhood up to 5.0: the paddle's first touch woke only the body it neared and
/// its neighbours, which it then drove into a body still asleep, squeezed between
/// two that do not give way (the impact cap reached in that step). Once the bottom row
/// is pushed shut against the far wall the kinematic body wins (a few steps reach the cap
/// there, in both modes, before and after). Since such a push-out stops at the work limit
/// without gravity's factor (forty-sixth session, `push_out.rs`: a driven jam), the first
/// of those steps leaves more: 1.80–2.82 slops on these eight piles (0.99–1.55 before).
/// Since every pair that pressed keeps its gap contact while a kinematic body moves
/// (fiftieth session, `gap_contacts.rs`), the solve carries more of the paddle's push into
/// the shut row: 2.58 / 2.78 / 3.39 / 3.60 slops on the four jitters here (the same in
/// both modes), against 2.8 at most before.
#[test]
fn a_kinematic_paddle_driven_into_a_sleeping_pile_wakes_it_and_pushes_it() {
    for jitter in [0.006, 0.01, 0.014, 0.02] {
        for whole in [true, false] {
            let slops = 4.0;
            let (mut sim, rest) = asleep(jitter, whole);
            let left = rest.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
            let floor = rest.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
            let at = DVec2::new(left - 3.0, floor);
            let paddle = BodyDesc::new(at, scenes::RADIUS, f64::INFINITY)
                .with_velocity(DVec2::new(3.0, 0.0));
            let (k, _) = sim.add_body(paddle).unwrap();
            let k = k as usize;
            let (mut woken, mut deepest) = (0, 0.0f64);
            // 1.5 s: the paddle ends 1.5 units inside the pile's first column.
            for _ in 0..90 {
                sim.step(scenes::DT);
                woken += sim.stats().woken;
                let at = sim.bodies().position(k);
                for p in sim.bodies().positions().take(rest.len()) {
                    let overlap = 2.0 * scenes::RADIUS - p.distance(at);
                    deepest = deepest.max(overlap / scenes::RADIUS);
                }
            }
            let label = format!("jitter {jitter}, whole islands {whole}");
            assert!(woken > 0, "{label}: the paddle woke nobody");
            assert!(
                deepest <= slops * sim.config.overlap_slop,
                "{label}: a body {deepest} r inside the paddle"
            );
            let pushed = (sim.bodies().positions().zip(&rest))
                .filter(|(p, r)| p.x > r.x + scenes::RADIUS)
                .count();
            assert!(pushed > 0, "{label}: nothing pushed ahead of the paddle");
        }
    }
}

/// The bodies a sleeping body rests on, taken away (moved out of the pile with
/// `set_position`), leave their old neighbours awake: the body they carried falls into
/// the gap, more than one and a half radii lower (before, it stayed asleep, held in the
/// air like a static body). By neighbourhood the bodies around the gap wake and
/// rearrange.
///
/// Every support is taken: a frictionless body held from below by two and pressed from
/// the side by its row can stand as an arch over a single vacancy, and whether it does
/// depends on the packing the pile fell asleep in (with one of two supports taken it
/// woke, rocked and came back to rest in some packings and fell in others).
#[test]
fn a_body_taken_from_under_a_sleeping_pile_lets_what_it_carried_fall() {
    for (jitter, whole) in WAKING_PILES {
        let (mut sim, rest) = asleep(jitter, whole);
        let right = rest.iter().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
        // The lowest body of the column nearest the middle, and the one resting on it.
        let middle = rest.iter().map(|p| p.x).sum::<f64>() / rest.len() as f64;
        let bottom = (0..rest.len())
            .min_by(|&a, &b| {
                let key = |i: usize| ((rest[i].x - middle).abs().round(), rest[i].y);
                key(a).partial_cmp(&key(b)).unwrap()
            })
            .unwrap();
        let above = (0..rest.len())
            .filter(|&i| {
                (rest[i].x - rest[bottom].x).abs() < scenes::RADIUS && rest[i].y > rest[bottom].y
            })
            .min_by(|&a, &b| rest[a].y.total_cmp(&rest[b].y))
            .expect("a body rests on it");
        // Its supports: the bodies touching it from below (within the slop).
        let touching = 2.0 * scenes::RADIUS * 1.01;
        let supports: Vec<usize> = (0..rest.len())
            .filter(|&i| rest[i].y < rest[above].y - 0.1 * scenes::RADIUS)
            .filter(|&i| rest[i].distance(rest[above]) <= touching)
            .collect();
        assert!(supports.contains(&bottom), "it rests on the bottom body");
        for (k, &i) in supports.iter().enumerate() {
            let away = DVec2::new(right + 5.0 + 2.0 * k as f64, rest[i].y);
            sim.set_position(i as u32, away);
        }
        sim.step(scenes::DT);
        assert!(
            sim.stats().woken > 0,
            "jitter {jitter}, whole {whole}: nothing woke"
        );
        for _ in 0..120 {
            sim.step(scenes::DT);
        }
        let drop = rest[above].y - sim.bodies().position(above).y;
        let moved = (0..rest.len())
            .filter(|&i| {
                !supports.contains(&i)
                    && sim.bodies().position(i).distance(rest[i]) > scenes::RADIUS
            })
            .count();
        let label = format!(
            "jitter {jitter}, whole islands {whole}, {} supports",
            supports.len()
        );
        if whole {
            assert!(
                drop > 1.5 * scenes::RADIUS,
                "{label}: the body above fell by {drop} only"
            );
        } else {
            // By neighbourhood only the bodies near the gap wake: the pile around it
            // rearranges, but the body diagonally above can stay propped on a neighbour
            // still asleep.
            assert!(moved >= 3, "{label}: {moved} bodies moved");
        }
    }
}

/// A row of `n` unit-mass circles of radius 0.5 on the floor of a wide arena, touching
/// (gaps of 0–0.002, within the slop, drawn from the scenes' generator), restitution
/// `e`, asleep; by whole islands (the default) if `whole`, else by neighbourhood.
fn sleeping_row(n: usize, e: f64, whole: bool) -> Simulation {
    let mut state = scenes::SEED;
    let mut x = 2.0;
    let bodies: Vec<BodyDesc> = (0..n)
        .map(|_| {
            let b = BodyDesc::new(DVec2::new(x, 0.5), 0.5, 1.0).with_restitution(e);
            x += 1.0 + 0.002 * scenes::SplitMix64::next_f64(&mut state);
            b
        })
        .collect();
    let mut config = StepConfig {
        gravity: G,
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(x + 40.0, 20.0),
            restitution: e,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    config.sleep.by_neighbourhood = !whole;
    let mut sim = common::sim_with(&bodies, config);
    for _ in 0..120 {
        sim.step(scenes::DT);
    }
    assert_eq!(sim.stats().sleeping, n, "the row fell asleep");
    sim
}

/// [`sleeping_row`] of 12 (restitution 0.2), a body at rest touching its first body from
/// the left, and a kinematic paddle touching that body from the left, moving right at
/// `speed`: the simulation, the row's first position, the body's and the paddle's index.
fn paddle_behind_a_sleeping_row(whole: bool, speed: f64) -> (Simulation, DVec2, usize, usize) {
    let mut sim = sleeping_row(12, 0.2, whole);
    let first = sim.bodies().position(0);
    let (a, _) = (sim.add_body(BodyDesc::new(first - DVec2::X * 1.001, 0.5, 1.0))).unwrap();
    let paddle = BodyDesc::new(first - DVec2::X * 2.002, 0.5, f64::INFINITY)
        .with_velocity(DVec2::new(speed, 0.0));
    let (k, _) = sim.add_body(paddle).unwrap();
    (sim, first, a as usize, k as usize)
}

/// A kinematic paddle (moving at 3 units/s) touching a body at rest that touches a
/// sleeping row: the paddle will drive the body into the row within the step, though
/// neither the body nor the row moves yet. The push is followed through the body at the
/// start of the step, so the row wakes then (its island, as when the paddle hits a sleeping
/// body itself), by whole islands and by neighbourhood. Before, by neighbourhood only the
/// row's first two bodies woke (the body at rest counts as a slow touch): the third stood
/// static, the paddle squeezed the three against it, the step reached the impact cap and
/// left a body 3.5 slops inside the paddle (by whole islands the body's touch woke the
/// row already).
#[test]
fn a_kinematic_body_pushing_a_body_into_a_sleeping_row_wakes_the_row_in_that_step() {
    let n = 12;
    for whole in [false, true] {
        let (mut sim, first, a, k) = paddle_behind_a_sleeping_row(whole, 3.0);
        let label = format!("whole islands {whole}");
        sim.step(scenes::DT);
        assert_eq!(
            sim.stats().woken,
            n,
            "{label}: the row woke in the first step"
        );
        let mut deepest = 0.0f64;
        for step in 0..60 {
            if step > 0 {
                sim.step(scenes::DT);
            }
            assert!(
                !sim.stats().fallback,
                "{label}: step {step} hit the impact cap"
            );
            let at = sim.bodies().position(k);
            for i in (0..n).chain([a]) {
                let overlap = 1.0 - sim.bodies().position(i).distance(at);
                deepest = deepest.max(overlap / 0.5);
            }
        }
        let slop = sim.config.overlap_slop;
        assert!(
            deepest <= 2.0 * slop,
            "{label}: a body {deepest} r inside the paddle"
        );
        // The paddle drove the row ahead of it: the far end moved on.
        assert!(
            sim.bodies().position(n - 1).x > first.x + n as f64,
            "{label}: row not pushed"
        );
    }
}

/// The same at the largest speed a body may have (`max_speed`, 10⁵ units/s: the paddle
/// crosses 1667 units in the step): the push is looked for only near each body
/// (`PUSH_REACH`), the row still wakes in that step, and nothing turns non-finite.
#[test]
fn a_kinematic_body_at_the_speed_limit_pushing_into_a_sleeping_row_wakes_it_and_stays_finite() {
    let n = 12;
    for whole in [false, true] {
        let speed = StepConfig::default().max_speed;
        let (mut sim, ..) = paddle_behind_a_sleeping_row(whole, speed);
        sim.step(scenes::DT);
        assert_eq!(
            sim.stats().sleeping,
            0,
            "whole islands {whole}: the row woke"
        );
        for _ in 0..3 {
            sim.step(scenes::DT);
        }
        for i in 0..n + 2 {
            let (p, v) = (sim.bodies().position(i), sim.bodies().velocity(i));
            assert!(p.is_finite() && v.is_finite(), "body {i}: {p} {v}");
        }
    }
}

#[test]
fn a_body_set_down_gently_on_a_sleeping_row_wakes_its_neighbourhood_not_the_row() {
    // A circle set down at rest touching the row's first body: by neighbourhood it is
    // slow, so it wakes that body and the sleeping one touching it, not the 40; by whole
    // islands (the default) all 40. Either way everything sleeps again and the row stays
    // put.
    for (whole, expect) in [(false, 2), (true, 40)] {
        let mut sim = sleeping_row(40, 0.2, whole);
        let row: Vec<DVec2> = sim.bodies().positions().collect();
        sim.add_body(BodyDesc::new(DVec2::new(row[0].x - 1.001, 0.5), 0.5, 1.0))
            .unwrap();
        let mut woken = 0;
        for _ in 0..120 {
            sim.step(scenes::DT);
            woken += sim.stats().woken;
        }
        assert_eq!(woken, expect, "whole islands: {whole}");
        assert_eq!(sim.stats().sleeping, 41, "asleep again");
        let moved = (row.iter().enumerate())
            .map(|(i, p)| sim.bodies().position(i).distance(*p))
            .fold(0.0, f64::max);
        assert!(moved < 1e-3, "the row moved {moved}");
    }
}

#[test]
fn a_ball_hitting_a_sleeping_row_wakes_the_whole_row_and_passes_its_momentum_on() {
    // Elastic, frictionless, equal masses: a cradle, asleep by neighbourhood. The hit
    // still wakes the whole island (an impact must travel through every body it reaches
    // within the step), and the
    // sequential binary impacts leave the ball and the row at rest and the far end
    // leaving at the ball's speed. Had the hit woken only the first bodies, the ball
    // would have bounced back off the sleeping ones.
    let n = 40;
    let mut sim = sleeping_row(n, 1.0, false);
    let first = sim.bodies().position(0);
    let (ball, _) = sim
        .add_body(ball(first - DVec2::new(1.05, 0.0), DVec2::new(6.0, 0.0)))
        .unwrap();
    sim.step(scenes::DT);
    assert_eq!(sim.stats().woken, n);
    let b = sim.bodies();
    assert!(
        b.velocity(ball as usize).length() < 1e-9,
        "{}",
        b.velocity(ball as usize)
    );
    for i in 0..n - 1 {
        assert!(b.velocity(i).length() < 1e-9, "body {i}: {}", b.velocity(i));
    }
    assert!((b.velocity(n - 1) - DVec2::new(6.0, 0.0)).length() < 1e-9);
}

#[test]
fn a_hit_on_an_inelastic_sleeping_row_wakes_the_bodies_it_reaches_not_the_row() {
    // By neighbourhood, restitution 0.2, equal masses: the ball hits the row's first
    // body at 5 units/s. A head-on hit passes on (1 + e)/2 = 0.6 of the speed, so the
    // bodies struck leave at 3.0, 1.8, 1.08, 0.65, 0.39, 0.23 units/s: the sixth is
    // slower than the resting speed (2 g dt = 0.327), so the broad phase wakes six
    // bodies and the seventh sleeps on (a sleeping body the hit reaches only slowly is a
    // resting contact, taken by the solver as an awake one at rest would be). The bodies
    // behind push on (the ball and the first bodies hit again), but no body hits a
    // sleeping one faster than the resting speed, which would wake the row at the end of
    // the step. The row's far half never wakes or moves; no energy appears; everything
    // falls asleep again. (A ball at 6 units/s: the sixth body, pushed on, hits the
    // seventh at 0.365 where a single hit gives 0.28, and the row wakes.)
    let n = 40;
    let mut sim = sleeping_row(n, 0.2, false);
    let row: Vec<DVec2> = sim.bodies().positions().collect();
    let first = row[0];
    let (ball, _) = sim
        .add_body(ball(first - DVec2::new(1.05, 0.0), DVec2::new(5.0, 0.0)).with_restitution(0.2))
        .unwrap();
    sim.step(scenes::DT);
    let awake: Vec<usize> = (0..n).filter(|&i| !sim.bodies().is_sleeping(i)).collect();
    assert_eq!(awake, (0..6).collect::<Vec<_>>(), "woken by the hit");
    let start_energy = 0.5 * 25.0;
    let (mut woken_late, mut most_energy) = (0, 0.0f64);
    for _ in 0..600 {
        sim.step(scenes::DT);
        most_energy = most_energy.max(sim.stats().kinetic_energy);
        woken_late += (n / 2..n).filter(|&i| !sim.bodies().is_sleeping(i)).count();
    }
    assert!(
        most_energy < start_energy,
        "energy {most_energy} > {start_energy}"
    );
    assert_eq!(woken_late, 0, "the far half woke");
    for (i, &p) in row.iter().enumerate().skip(n / 2) {
        assert_eq!(sim.bodies().position(i), p, "body {i} moved");
    }
    assert_eq!(sim.stats().sleeping, n + 1, "asleep again");
    assert!(sim.bodies().velocity(ball as usize).length() == 0.0);
}

#[test]
fn an_unforeseen_hit_on_a_sleeping_row_wakes_it_at_the_end_of_the_step() {
    // By neighbourhood. B rests 0.3 from the sleeping row's first body, A comes at 60
    // units/s 0.2 behind B: no box of the broad phase reaches the row, so nothing wakes
    // it there; A hits B, and B hits the row's first body within the same step, which
    // stands as a static body for that hit. At the end of the step the row's island
    // wakes, so the next hits go into a simulated row.
    let n = 40;
    let mut sim = sleeping_row(n, 1.0, false);
    let first = sim.bodies().position(0);
    let b = first - DVec2::new(1.3, 0.0);
    let (bi, _) = sim.add_body(ball(b, DVec2::ZERO)).unwrap();
    let (ai, _) = sim
        .add_body(ball(b - DVec2::new(1.2, 0.0), DVec2::new(60.0, 0.0)))
        .unwrap();
    sim.step(scenes::DT);
    let hit = |x: u32, y: u32| {
        use circle_collide_core::Other::Body;
        (sim.impacts().iter())
            .any(|i| (i.a, i.other) == (x, Body(y)) || (i.a, i.other) == (y, Body(x)))
    };
    assert!(hit(ai, bi) && hit(bi, 0), "{:?}", sim.impacts());
    assert_eq!(sim.stats().woken, n);
    assert_eq!(sim.stats().sleeping, 0);
}

#[test]
fn the_quiet_part_of_a_pile_sleeps_while_the_rest_still_moves_and_stays_at_rest() {
    // The jittered pile of 600 (one island of touching bodies once landed): by
    // neighbourhood its quiet bodies fall asleep while others still move; with whole
    // islands none sleeps before all do. Asleep, it is a pile at rest: woken all at
    // once, nothing moves more than a few hundredths of a radius in half a second. Parts
    // frozen while their neighbours still settled are a little further from balance
    // than a pile frozen whole (see `docs/contacts.md`, "Sleeping by neighbourhood").
    for whole in [false, true] {
        let n = 600;
        let mut scene = scenes::pile(n);
        scene.config.sleep.by_neighbourhood = !whole;
        let mut sim = scene.simulation();
        let (mut partly, mut asleep) = (0, false);
        for _ in 0..900 {
            sim.step(scenes::DT);
            let sleeping = sim.stats().sleeping;
            if sleeping == n {
                asleep = true;
                break;
            }
            partly = partly.max(sleeping);
        }
        assert!(asleep, "whole islands {whole}: the pile never slept");
        // By whole islands only a body resting apart from the pile (an island of its
        // own: one, on this pile) may sleep before the pile does; by neighbourhood a
        // good part of the pile does.
        if whole {
            assert!(partly <= n / 100, "whole islands: {partly} asleep early");
        } else {
            assert!(
                partly >= n / 10,
                "by neighbourhood: at most {partly} asleep early"
            );
        }
        let rest: Vec<DVec2> = sim.bodies().positions().collect();
        for i in 0..n {
            sim.set_velocity(i as u32, DVec2::ZERO);
        }
        for _ in 0..30 {
            sim.step(scenes::DT);
        }
        let moved = (rest.iter().enumerate())
            .map(|(i, p)| sim.bodies().position(i).distance(*p))
            .fold(0.0, f64::max);
        // Measured on this pile: 0.0062 r by whole islands; by neighbourhood 0.315 r since
        // a foreseen hit wakes only the bodies it reaches (0.104 r when it woke the
        // island; 0.029 / 0.0094 r before the push-out under gravity stopped short of
        // touching, `GRAVITY_PUSH_OUT_KEEP`). Which bodies freeze how far from balance is
        // a draw: on the piles of 400–900 the largest shift was 0.03–0.48 r by
        // neighbourhood and 0–0.13 r by whole islands (before that change 0.003–0.71 r and
        // 0–0.19 r); on eight piles of 400–3000 by neighbourhood 0.04–1.12 r, 0.4 r or
        // less on seven (0.01–0.58 r when a hit woke the island; `docs/contacts.md`, "A
        // hit wakes the bodies it reaches"). A body resting just below the sleep speed
        // may creep 0.25 r in half a second; the bound catches a pile that falls apart
        // when woken, not the draw.
        let bound = if whole { 0.25 } else { 0.5 } * scenes::RADIUS;
        assert!(
            moved < bound,
            "whole islands {whole}: woken, a body moved {moved}"
        );
    }
}

#[test]
fn a_kinematic_pusher_squeezes_a_ball_against_the_wall_without_pumping_it() {
    // The pusher (static mass, moving right at 3) drives a ball into the right wall.
    let config = StepConfig {
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(10.0, 10.0),
            restitution: 0.5,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    let pusher = BodyDesc::new(DVec2::new(2.0, 5.0), 1.0, f64::INFINITY)
        .with_velocity(DVec2::new(3.0, 0.0))
        .with_restitution(0.5);
    let ball = BodyDesc::new(DVec2::new(5.0, 5.0), 0.5, 1.0).with_restitution(0.5);
    let mut sim = common::sim_with(&[pusher, ball], config);
    let mut fastest: f64 = 0.0;
    // The gap closes completely when the pusher reaches x = 9.5 − 0.5 − 1 = 8 (step
    // 120); until then the ball is never pushed into the wall or the pusher beyond the
    // slop. (Once it is closed the kinematic pusher wins: see the README's limits.)
    for step in 0..119 {
        sim.step(scenes::DT);
        let s = sim.stats();
        assert!(!s.fallback, "step {step} hit the impact cap");
        let (p, v) = (sim.bodies().position(1), sim.bodies().velocity(1));
        fastest = fastest.max(v.length());
        assert!(
            p.x <= 9.5 + 0.005 + 1e-9,
            "step {step}: ball into the wall at {p}"
        );
        let pusher_x = sim.bodies().position(0).x;
        assert!(
            p.x - pusher_x >= 1.5 - 0.005 - 1e-9,
            "step {step}: ball into the pusher"
        );
    }
    assert!(
        sim.bodies().position(1).x > 9.4,
        "the ball was pushed to the wall"
    );
    // Bouncing between the wall and a paddle closing at 3 with restitution e, the speeds
    // follow v' = 3 + e (e v + 3), whose fixed point 3 / (1 − e) = 6 bounds them; the
    // old engine doubled the speed at each bounce (6, 12, … 210) and hit the cap.
    assert!(
        fastest <= 3.0 / (1.0 - 0.5) + 1e-9,
        "the ball was pumped to {fastest}"
    );
    assert!(
        fastest >= 4.5 - 1e-9,
        "the first hit sends it off at (1 + e)·3: {fastest}"
    );
}

/// Steps the jittered pile (design §5) of each size in `sizes` for up to 10 s, asserting
/// no fallback and no overlap left past the push-out in any step, and returns the sizes
/// that fell asleep entirely with the time they did. Each that did is stepped `settled`
/// steps more, in which nothing may move or carry kinetic energy, and is then checked for
/// overlaps deeper than the slop.
fn jittered_piles_asleep(sizes: impl Iterator<Item = usize>, settled: usize) -> Vec<(usize, f64)> {
    let mut asleep = Vec::new();
    for n in sizes {
        let mut sim = scenes::pile(n).simulation();
        let mut asleep_at = None;
        for step in 1..=600 {
            sim.step(scenes::DT);
            assert!(!sim.stats().fallback, "pile {n}: step {step} fell back");
            assert_eq!(sim.stats().overlaps_left, 0, "pile {n}: step {step}");
            if sim.stats().sleeping == n {
                asleep_at = Some(step);
                break;
            }
        }
        let Some(step) = asleep_at else {
            continue;
        };
        asleep.push((n, step as f64 * scenes::DT));
        common::assert_stays_settled(&mut sim, n, settled);
    }
    asleep
}

/// The jittered piles (design §5) of 200 to 900 circles, in steps of 100, land with no
/// fallback and no overlap left past the push-out, and at least 6 of the 8 fall asleep
/// entirely within 10 s of simulated time; asleep, a pile stays put with no pair
/// overlapping deeper than the slop.
///
/// Why "6 of 8" and not "every one": a frictionless pile settles chaotically (a change
/// that moves one impact by an ulp decides whether a given pile has slumped flat by 10 s
/// or still creeps). Measured when this was written, all 8 slept, at 4.2–9.1 s; an
/// earlier version of the same code, 6 of 8 (the others crept at 0.3–0.6 units of kinetic
/// energy); before exact flight, 7 of 8. Larger piles sleep within 10 s less often, and
/// the peers' piles of 2000 sleep at 5–6 s: see `docs/contacts.md`. Friction is the lever.
#[test]
fn most_jittered_piles_fall_asleep_within_ten_seconds_and_stay_put() {
    let asleep = jittered_piles_asleep((200..=900).step_by(100), 1);
    eprintln!("asleep within 10 s (pile, seconds): {asleep:?}");
    assert!(asleep.len() >= 6, "only {asleep:?} slept within 10 s");
}

/// The dense-contact issue's standard pile: the jittered piles (design §5) of 1900–2100
/// circles, in steps of 50, land with no fallback and no overlap left past the push-out,
/// and at least four of the five fall asleep within 10 s of simulated time (when this was
/// written all five did, at 6.82, 6.52, 5.33, 7.07 and 9.95 s); each that did then stays
/// settled for 10 s more: no body moves, no kinetic energy, every pair within the slop.
///
/// Not within 3 s, as the issue asked: the top rows are in free fall until about 1.1 s and
/// a frictionless pile slumps flat for seconds after; no peer engine settles it within
/// 3 s either (avian at ~5.0 s, bevy_rapier2d not within 10 s: README, `docs/contacts.md`).
/// Why "four of five": when a frictionless pile falls asleep is chaotic (see
/// `most_jittered_piles_fall_asleep_within_ten_seconds_and_stay_put`).
#[test]
fn jittered_piles_of_about_2000_fall_asleep_within_ten_seconds_and_stay_settled() {
    let asleep = jittered_piles_asleep((1900..=2100).step_by(50), 600);
    eprintln!("asleep within 10 s (pile, seconds): {asleep:?}");
    assert!(asleep.len() >= 4, "only {asleep:?} slept within 10 s");
}

/// A column of 20 smooth disks standing on the floor: the solver's passes go on past the
/// configured 16 while the column's weight is not yet carried (first step, cold), and
/// once it stands still the warm-started solve converges within the configured passes
/// and the floor carries the whole column: its impulse per step is `20 m g dt`. With
/// friction the rule is off in a solve this small (`contact_passes` 0; from
/// `contacts::ROUGH_CONVERGED_CONTACTS` on it is on: `tests/rough_piles.rs`).
#[test]
fn a_smooth_column_s_solve_runs_until_the_floor_carries_its_weight() {
    let column = |mu: f64| {
        let bodies: Vec<BodyDesc> = (0..20)
            .map(|k| {
                BodyDesc::new(DVec2::new(5.0, 0.5 + k as f64), 0.5, 1.0)
                    .with_restitution(0.0)
                    .with_friction(mu)
                    .with_key(k)
            })
            .collect();
        let mut config = StepConfig {
            gravity: G,
            arena: Some(Arena::new(DVec2::ZERO, DVec2::new(10.0, 30.0))),
            ..StepConfig::default()
        };
        config.sleep.enabled = false;
        common::sim_with(&bodies, config)
    };
    let mut sim = column(0.0);
    sim.step(scenes::DT);
    let configured = sim.config.contact_iterations;
    let first = sim.stats().contact_passes;
    assert!(first > configured, "cold column: {first} passes");
    for _ in 0..240 {
        sim.step(scenes::DT);
    }
    assert_eq!(sim.stats().contact_passes, configured, "at rest: converged");
    let floor = sim
        .contact_memory()
        .impulse(
            0,
            circle_collide_core::contacts::Partner::Wall(circle_collide_core::Wall::Bottom),
        )
        .expect("the bottom disk rests on the floor");
    let weight = 20.0 * 1.0 * G.length() * scenes::DT;
    assert!(
        (floor - weight).abs() < 1e-3 * weight,
        "floor impulse {floor}, column weight per step {weight}"
    );
    assert!(sim.bodies().velocities().all(|v| v.length() < 1e-3));

    let mut rough = column(0.5);
    rough.step(scenes::DT);
    assert_eq!(
        rough.stats().contact_passes,
        0,
        "with friction the rule is off in a small solve"
    );
}

#[test]
fn a_jam_of_19_000_contacts_steered_into_itself_stops_closing_in_one_step() {
    // A triangular lattice of 80 × 80 touching circles (each nudged by up to 0.002 r,
    // restitution 0.2 as the crowd's), every circle steered toward the centre at 1 unit/s
    // from rest: the lattice cannot compress, so the exact solve leaves no touching pair
    // closing. The solve has ~19,000 contacts, 40 layers from the rim to the centre, and
    // no warm start. Gauss–Seidel alone (32 passes, `contacts::DEEP_JAM_MAX_FACTOR`) leaves
    // a pair closing at 0.36 units/s; with the conjugate-gradient correction
    // (`CONJUGATE_CONTACTS`) the fastest closing is 0.057 units/s (with 48 passes, before
    // the twenty-ninth session, 0.19 and 0.035): 0.001 units over the step, a fifth of the
    // slop, for the push-out.
    let (side, r) = (80, 0.5);
    let mut rng = common::Rng(11);
    let mut nudge = || rng.range(-0.002 * r, 0.002 * r);
    let mut bodies = Vec::new();
    for j in 0..side {
        for i in 0..side {
            let p = DVec2::new(
                2.0 * r * i as f64 + r * (j % 2) as f64,
                3f64.sqrt() * r * j as f64,
            );
            bodies.push(
                BodyDesc::new(p + DVec2::new(nudge(), nudge()), r, 1.0).with_restitution(0.2),
            );
        }
    }
    let centre = bodies.iter().map(|b| b.position).sum::<DVec2>() / bodies.len() as f64;
    let fastest_closing = |correction: bool| {
        let config = StepConfig {
            gravity: DVec2::ZERO,
            conjugate_correction: correction,
            ..StepConfig::default()
        };
        let mut sim = common::sim_with(&bodies, config);
        for i in 0..bodies.len() {
            let inward = (centre - sim.bodies().position(i)).normalize_or_zero();
            sim.set_velocity(i as u32, inward);
        }
        sim.step(1.0 / 60.0);
        let stats = sim.stats();
        assert!(
            stats.resting_contacts >= circle_collide_core::contacts::CONJUGATE_CONTACTS,
            "{stats:?}"
        );
        assert_eq!(stats.corrected, correction);
        // The solver's aim: no touching pair closes.
        let b = sim.bodies();
        let mut closing = 0.0f64;
        for &(i, j) in sim.candidate_pairs() {
            let (i, j) = (i as usize, j as usize);
            let d = b.position(j) - b.position(i);
            if d.length() <= b.radius(i) + b.radius(j) + 0.01 * r {
                closing = closing.max((b.velocity(i) - b.velocity(j)).dot(d.normalize()));
            }
        }
        closing
    };
    let (corrected, passes_alone) = (fastest_closing(true), fastest_closing(false));
    assert!(
        corrected < 0.08,
        "a pair still closes at {corrected} units/s"
    );
    assert!(
        passes_alone > 4.0 * corrected,
        "the correction's share: {passes_alone} units/s without it, {corrected} with it"
    );
}

#[test]
fn the_jittered_pile_of_6000_falls_asleep() {
    // The standard jittered pile (DESIGN §5) of 6000 circles: ~15,000 contacts under
    // gravity, deeper than the configured passes converge. With the conjugate-gradient
    // correction (`StepConfig::conjugate_correction`) it comes to rest and falls asleep
    // at 6.9 s; without it, it was still awake at 14 s (KE 4.8; checked by turning the
    // correction off). Its landing leaves no overlap past the push-out: with the work
    // limit without gravity's (`resolve::GRAVITY_WORK_FACTOR` 1) it left some in 23 steps.
    // The correction runs every other step at most (the contact memory carries whether
    // the last step ran it), so no two steps in a row run it.
    let n = 6000;
    let mut sim = scenes::pile(n).simulation();
    assert!(sim.config.conjugate_correction, "on by default");
    let mut deep = false;
    let mut asleep_at = None;
    let (mut corrected, mut last) = (0, false);
    let mut alternate = None;
    for step in 1..=600 {
        sim.step(scenes::DT);
        let stats = sim.stats();
        assert_eq!(stats.overlaps_left, 0, "overlaps left at step {step}");
        deep |= stats.resting_contacts >= circle_collide_core::contacts::CONJUGATE_CONTACTS;
        assert!(
            !(last && stats.corrected),
            "corrected in two steps in a row ({step})"
        );
        assert_eq!(sim.contact_memory().corrected(), stats.corrected);
        corrected += usize::from(stats.corrected);
        last = stats.corrected;
        if stats.corrected && step >= 120 && alternate.is_none() {
            alternate = Some(sim.clone());
        }
        if stats.sleeping == n {
            asleep_at = Some(step);
            break;
        }
    }
    assert!(deep, "the pile never made a solve of the correction's size");
    assert!(corrected >= 20, "the correction ran in {corrected} steps");
    // The memory's mark decides: after a corrected step the next skips it; the same state
    // with the mark cleared (a memory saved without it) runs it.
    let mut skip = alternate.expect("a corrected step after 2 s");
    let mut run = skip.clone();
    let cleared = run.contact_memory().clone().with_corrected(false);
    run.set_contact_memory(cleared);
    skip.step(scenes::DT);
    run.step(scenes::DT);
    assert!(!skip.stats().corrected && run.stats().corrected);
    let step = asleep_at.expect("the pile of 6000 did not fall asleep within 10 s");
    // Asleep: at rest, within the slop (over every pair: two sleeping bodies are never
    // candidate pairs).
    let b = sim.bodies();
    assert!(b.velocities().all(|v| v == DVec2::ZERO));
    let circles: Vec<(DVec2, f64)> = b.positions().zip(b.radii()).collect();
    let deepest = circle_collide_core::manifold::deepest_overlap(&circles);
    assert!(
        deepest <= 0.0101 * scenes::RADIUS,
        "an overlap {deepest} deep at step {step}"
    );
}

/// A ball asleep on the floor, woken by a place vacated next to it (not by a touch), keeps
/// its floor contact in the step it wakes: the solver holds it on the floor instead of
/// letting it fall in (the wall contacts are looked for among the bodies listed near a
/// wall at the start of the step, which a body woken after that list must join).
#[test]
fn a_ball_woken_on_the_floor_by_a_vacated_place_keeps_its_floor_contact() {
    let r = scenes::RADIUS;
    let mut sim = Simulation::new(StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena::new(DVec2::ZERO, DVec2::splat(20.0))),
        ..StepConfig::default()
    });
    let mut resting = BodyDesc::new(DVec2::new(10.0, r), r, scenes::MASS);
    resting.sleeping = true;
    sim.add_body(resting).unwrap();
    sim.step(scenes::DT);
    assert!(sim.is_still(), "asleep on the floor");
    sim.wake_around(DVec2::new(10.0 + 2.0 * r, r), r);
    sim.step(scenes::DT);
    assert_eq!(sim.stats().woken, 1, "woken by the vacated place");
    assert_eq!(sim.stats().resting_contacts, 1, "held by the floor");
    let y = sim.bodies().position(0).y;
    assert!((y - r).abs() <= 1e-9, "on the floor, not in it: {}", y - r);
}
