//! Level geometry in a running simulation: no tunnelling at 10⁴ units/s, no leak out of
//! a closed polyline over 10⁴ steps, energy kept with segments and boxes, joints that do
//! not snag, events that name the segment, layers; bodies the push-out drives across a
//! segment (a kinematic squeeze, specks under heavy bodies) put back on their side.

mod common;

use circle_collide_core::{
    BodyDesc, Layers, Level, Other, Segment, Simulation, StepConfig, scenes,
};
use common::{Rng, sim_with};
use glam::DVec2;
use std::f64::consts::TAU;

const DT: f64 = 1.0 / 60.0;

/// Whether `p` lies inside the closed polygon `poly` (even–odd rule).
fn inside(poly: &[DVec2], p: DVec2) -> bool {
    let mut inside = false;
    for k in 0..poly.len() {
        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

/// Deepest overlap of body `i` with any segment, as a fraction of its radius.
fn deepest(sim: &Simulation, i: usize) -> f64 {
    let (p, r) = (sim.bodies().position(i), sim.bodies().radius(i));
    (sim.level().segments().iter())
        .map(|s| (r - (s.closest_point(p) - p).length()) / r)
        .fold(f64::NEG_INFINITY, f64::max)
}

/// An irregular closed polygon around the origin, roughly `size` across.
fn polygon(rng: &mut Rng, corners: usize, size: f64) -> Vec<DVec2> {
    (0..corners)
        .map(|k| {
            let angle = TAU * (k as f64 + rng.range(-0.3, 0.3)) / corners as f64;
            DVec2::from_angle(angle) * size * rng.range(0.8, 1.0)
        })
        .collect()
}

/// Circles at 10⁴ units/s in every direction inside a closed, rotated box of
/// zero-thickness segments (restitution 1, ~17 wall hits each per step): none ever
/// crosses a side, and every hit names a segment.
#[test]
fn no_tunnelling_at_ten_thousand_units_per_second() {
    let mut rng = Rng(11);
    let corners: Vec<DVec2> = [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)]
        .map(|(x, y)| DVec2::from_angle(0.37).rotate(DVec2::new(x, y)))
        .to_vec();
    // Members of layer 1 colliding with layer 2 only: they pass through one another.
    let ghost = Layers::new(1, 2);
    let bodies: Vec<BodyDesc> = (0..16)
        .map(|k| {
            let dir = DVec2::from_angle(TAU * (k as f64 + rng.unit()) / 16.0);
            let p = DVec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            BodyDesc::new(p, 0.1, 1.0)
                .with_velocity(dir * 1e4)
                .with_restitution(1.0)
                .with_layers(ghost)
        })
        .collect();
    let mut sim = sim_with(&bodies, StepConfig::default());
    sim.set_level(Level::new(Level::polyline(&corners, true)));
    let mut hits = 0;
    for step in 0..600 {
        sim.step(DT);
        for imp in sim.impacts() {
            assert!(matches!(imp.other, Other::Segment(_)), "{imp:?}");
        }
        hits += sim.impacts().len();
        assert!(!sim.stats().fallback, "step {step} fell back");
        for i in 0..bodies.len() {
            let p = sim.bodies().position(i);
            assert!(inside(&corners, p), "step {step}: body {i} escaped to {p}");
            assert!(
                deepest(&sim, i) <= 0.01 + 1e-9,
                "step {step}: body {i} sunk in a side"
            );
            let speed = sim.bodies().velocity(i).length();
            assert!((speed / 1e4 - 1.0).abs() < 1e-9, "speed {speed}");
        }
    }
    println!("{hits} segment hits in 600 steps");
    assert!(hits > 16 * 600 * 10, "{hits}");
}

/// Sixty circles (some rough, so they roll) thrown about inside an irregular closed
/// polygon under gravity for 10⁴ steps: none ever leaves it or sinks into a side beyond
/// the slop, and they come to rest on its floor.
#[test]
fn closed_polyline_never_leaks_over_ten_thousand_steps() {
    let mut rng = Rng(5);
    let poly = polygon(&mut rng, 9, 12.0);
    let bodies: Vec<BodyDesc> = (0..60)
        .map(|k| {
            let p = DVec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let v = DVec2::from_angle(rng.range(0.0, TAU)) * rng.range(0.0, 60.0);
            let body = BodyDesc::new(p, rng.range(0.3, 0.6), 1.0)
                .with_velocity(v)
                .with_restitution(0.4);
            if k % 2 == 0 {
                body.with_friction(0.5)
            } else {
                body
            }
        })
        .collect();
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        ..Default::default()
    };
    let mut sim = sim_with(&bodies, config);
    sim.set_level(Level::new(Level::polyline(&poly, true)));
    let mut worst = f64::NEG_INFINITY;
    for step in 0..10_000 {
        sim.step(DT);
        for i in 0..bodies.len() {
            let p = sim.bodies().position(i);
            assert!(inside(&poly, p), "step {step}: body {i} leaked to {p}");
            worst = worst.max(deepest(&sim, i));
        }
    }
    println!("deepest overlap with a side: {worst:.4} r");
    assert!(worst <= 0.02, "{worst}");
    let ke = sim.bodies().kinetic_energy();
    assert!(ke < 1e-3, "still moving: {ke}");
}

/// An elastic gas (no gravity) in a rotated box of segments with a rotated box and two
/// lone segments inside, 3000 steps: kinetic energy kept to rounding, as with the arena.
#[test]
fn energy_kept_with_segments_and_boxes() {
    let mut rng = Rng(9);
    let mut segments = Level::rect(DVec2::ZERO, DVec2::new(20.0, 15.0), 0.2);
    segments.extend(Level::rect(
        DVec2::new(4.0, -3.0),
        DVec2::new(2.0, 1.0),
        0.7,
    ));
    segments.push(Segment::new(DVec2::new(-10.0, 5.0), DVec2::new(-4.0, 8.0)));
    segments.push(Segment::new(DVec2::new(-8.0, -6.0), DVec2::new(-8.0, 0.0)));
    let level = Level::new(segments);
    let mut bodies = Vec::new();
    while bodies.len() < 150 {
        let p = DVec2::new(rng.range(-15.0, 15.0), rng.range(-10.0, 10.0));
        let r = rng.range(0.2, 0.5);
        let clear = (level.segments().iter()).all(|s| (s.closest_point(p) - p).length() > r + 0.1)
            && (bodies.iter()).all(|b: &BodyDesc| (b.position - p).length() > b.radius + r + 0.1);
        // Inside the big box: within its half extents once turned back.
        let local = DVec2::from_angle(-0.2).rotate(p);
        if clear && local.x.abs() < 19.0 && local.y.abs() < 14.0 {
            let v = DVec2::from_angle(rng.range(0.0, TAU)) * rng.range(1.0, 20.0);
            bodies.push(
                BodyDesc::new(p, r, r * r)
                    .with_velocity(v)
                    .with_restitution(1.0),
            );
        }
    }
    let mut sim = sim_with(&bodies, StepConfig::default());
    sim.set_level(level);
    let e0 = sim.bodies().kinetic_energy();
    let mut segment_hits = 0;
    for _ in 0..3000 {
        sim.step(DT);
        segment_hits += (sim.impacts().iter())
            .filter(|i| matches!(i.other, Other::Segment(_)))
            .count();
    }
    let drift = sim.bodies().kinetic_energy() / e0 - 1.0;
    println!("energy drift {drift:e}, {segment_hits} segment hits");
    assert!(drift.abs() < 1e-9, "{drift}");
    assert!(segment_hits > 1000);
}

/// Under gravity, an elastic ball bouncing inside a rotated box: kinetic plus potential
/// energy kept to rounding over 2000 steps (exact parabolas to exact impacts).
#[test]
fn elastic_bounces_under_gravity_keep_energy() {
    let g = DVec2::new(0.0, -9.81);
    let config = StepConfig {
        gravity: g,
        ..Default::default()
    };
    let ball = BodyDesc::new(DVec2::new(1.0, 2.0), 0.5, 2.0)
        .with_velocity(DVec2::new(7.0, 3.0))
        .with_restitution(1.0);
    let mut sim = sim_with(&[ball], config);
    sim.set_level(Level::new(Level::rect(
        DVec2::ZERO,
        DVec2::new(6.0, 5.0),
        0.3,
    )));
    let energy =
        |sim: &Simulation| sim.bodies().kinetic_energy() - 2.0 * g.dot(sim.bodies().position(0));
    let e0 = energy(&sim);
    let mut hits = 0;
    for _ in 0..2000 {
        sim.step(DT);
        hits += sim.impacts().len();
        let drift = energy(&sim) / e0 - 1.0;
        assert!(drift.abs() < 1e-9, "{drift}");
    }
    assert!(hits > 20, "{hits}");
}

/// A smooth ball released on a straight chain of 30 segments of uneven lengths, tilted
/// 10°: it slides past every joint with no impact and reaches the closed-form speed
/// g sin θ · t; on a chain bent a little at each joint (a convex curve) it slides on with
/// no bounce either.
#[test]
fn joints_do_not_snag() {
    let g = 9.81;
    let theta = 10f64.to_radians();
    let down = DVec2::new(theta.cos(), -theta.sin());
    let mut rng = Rng(3);
    let mut points = vec![DVec2::ZERO];
    for _ in 0..30 {
        let last = *points.last().unwrap();
        points.push(last + down * rng.range(0.5, 3.0));
    }
    let config = StepConfig {
        gravity: DVec2::new(0.0, -g),
        ..Default::default()
    };
    let start = down * 0.2 + down.perp() * 0.5;
    let ball = BodyDesc::new(start, 0.5, 1.0);
    let mut sim = sim_with(&[ball], config.clone());
    sim.set_level(Level::new(Level::polyline(&points, false)));
    let steps = 90;
    for step in 0..steps {
        sim.step(DT);
        if std::env::var("DEBUG_SNAG").is_ok() {
            let v = sim.bodies().velocity(0);
            println!(
                "{step} {} {} want {} {:?} rc {}",
                v.dot(down),
                v.dot(down.perp()),
                g * theta.sin() * (step + 1) as f64 * DT,
                sim.impacts(),
                sim.stats().resting_contacts
            );
        }
        assert!(
            sim.impacts().iter().all(|i| i.resting),
            "{:?}",
            sim.impacts()
        );
    }
    let v = sim.bodies().velocity(0);
    let want = g * theta.sin() * steps as f64 * DT;
    println!("speed {} want {want}", v.length());
    assert!((v.dot(down) / want - 1.0).abs() < 1e-6, "{v} vs {want}");
    assert!(v.dot(down.perp()).abs() < 1e-6 * want, "{v}");

    // A convex chain: each joint turns 2° further down.
    let mut points = vec![DVec2::ZERO];
    for k in 0..20 {
        let dir = DVec2::from_angle(-(5.0 + 2.0 * k as f64).to_radians());
        let last = *points.last().unwrap();
        points.push(last + dir * rng.range(0.5, 1.5));
    }
    let first = (points[1] - points[0]).normalize();
    let ball = BodyDesc::new(first * 0.2 + first.perp() * 0.5, 0.5, 1.0);
    let mut sim = sim_with(&[ball], config);
    sim.set_level(Level::new(Level::polyline(&points, false)));
    let mut speed = 0.0;
    for step in 0..60 {
        sim.step(DT);
        assert!(
            sim.impacts().iter().all(|i| i.resting),
            "step {step}: {:?}",
            sim.impacts()
        );
        let s = sim.bodies().velocity(0).length();
        assert!(s >= speed, "step {step}: slowed from {speed} to {s}");
        speed = s;
        if deepest(&sim, 0) < -0.05 {
            break; // left the curve (it gets steep enough to fly off): fine
        }
    }
}

/// A ball dropped onto a box's top side: the impact names that side, comes at the
/// closed-form time and reflects the velocity with the restitution; a segment whose
/// layers refuse the ball lets it through.
#[test]
fn events_name_the_segment_and_layers_filter() {
    let mut sides = Level::rect(DVec2::ZERO, DVec2::new(2.0, 1.0), 0.0);
    for s in &mut sides {
        s.restitution = 0.5;
        s.owner = 7;
    }
    let mut ghost = Segment::new(DVec2::new(-3.0, 4.0), DVec2::new(3.0, 4.0));
    ghost.layers = Layers::new(4, 4);
    sides.push(ghost);
    let ball = BodyDesc::new(DVec2::new(0.5, 6.0), 0.5, 1.0)
        .with_velocity(DVec2::new(0.0, -9.0))
        .with_restitution(0.0) // the sides' 0.5 under the `Max` rule
        .with_layers(Layers::new(1, u32::MAX));
    let mut sim = sim_with(&[ball], StepConfig::default());
    sim.set_level(Level::new(sides));
    sim.step(1.0);
    let hits = sim.impacts();
    assert_eq!(hits.len(), 1, "{hits:?}");
    // Falls 6 − 1 − 0.5 = 4.5 at 9 units/s.
    assert!((hits[0].time - 0.5).abs() < 1e-12);
    let Other::Segment(s) = hits[0].other else {
        panic!()
    };
    let side = sim.level().segments()[s as usize];
    assert_eq!((side.owner, side.part), (7, 2), "the top side");
    assert_eq!(hits[0].normal, DVec2::new(0.0, -1.0));
    assert!(
        (sim.bodies().velocity(0).y - 4.5).abs() < 1e-12,
        "{:?}",
        sim.bodies().velocity(0)
    );
}

/// Ray and circle casts meet the level's segments: a known case against the closed
/// form, then 10⁴ random casts in a level of 300 segments (and 200 circles) against a
/// brute-force scan of every segment and circle.
#[test]
fn casts_hit_segments() {
    use circle_collide_core::query::{QueryFilter, QueryTarget, SpatialIndex};
    let wall = Segment::new(DVec2::new(5.0, -1.0), DVec2::new(5.0, 1.0));
    let index = SpatialIndex::from_circles(vec![], vec![], vec![], None)
        .with_level(&Level::new(vec![wall]));
    let filter = QueryFilter::default();
    let hit = index
        .ray_cast(DVec2::ZERO, DVec2::X, 100.0, &filter)
        .unwrap();
    assert_eq!((hit.target, hit.distance), (QueryTarget::Segment(0), 5.0));
    assert_eq!((hit.point, hit.normal), (DVec2::new(5.0, 0.0), -DVec2::X));
    // A circle of radius 0.5 aimed past the end point (1 above the axis, the end at 1):
    // touches the end point when its centre is 0.5 from it.
    let hit = (index.circle_cast(DVec2::new(0.0, 1.3), 0.5, DVec2::X, 100.0, &filter)).unwrap();
    assert!((hit.distance - (5.0 - (0.25f64 - 0.09).sqrt())).abs() < 1e-12);
    assert!(
        index
            .ray_cast(DVec2::ZERO, DVec2::X, 100.0, &filter.without_walls())
            .is_none()
    );

    let mut rng = Rng(21);
    let segments: Vec<Segment> = (0..300)
        .map(|_| {
            let a = DVec2::new(rng.range(0.0, 100.0), rng.range(0.0, 100.0));
            Segment::new(
                a,
                a + DVec2::from_angle(rng.range(0.0, TAU)) * rng.range(0.5, 8.0),
            )
        })
        .collect();
    let circles: Vec<(DVec2, f64)> = (0..200)
        .map(|_| {
            (
                DVec2::new(rng.range(0.0, 100.0), rng.range(0.0, 100.0)),
                rng.range(0.2, 1.0),
            )
        })
        .collect();
    let level = Level::new(segments.clone());
    let index = SpatialIndex::from_circles(
        circles.clone(),
        vec![Layers::ALL; 200],
        vec![false; 200],
        None,
    )
    .with_level(&level);
    let mut segment_hits = 0;
    for _ in 0..10_000 {
        let o = DVec2::new(rng.range(-10.0, 110.0), rng.range(-10.0, 110.0));
        let d = DVec2::from_angle(rng.range(0.0, TAU));
        let (radius, max) = (rng.range(0.0, 1.0), rng.range(1.0, 80.0));
        let got = index.circle_cast(o, radius, d, max, &filter);
        let mut want: Option<(f64, QueryTarget)> = None;
        for (k, s) in segments.iter().enumerate() {
            if let Some(t) = s.time_of_impact(o, d, DVec2::ZERO, radius, max)
                && want.is_none_or(|w| t < w.0)
            {
                want = Some((t, QueryTarget::Segment(k as u32)));
            }
        }
        for (k, &(c, r)) in circles.iter().enumerate() {
            // A cast starting inside a circle hits it at 0 (as the index documents).
            let inside = (c - o).length() <= r + radius;
            let t = circle_collide_core::toi::time_of_impact(c - o, -d, r + radius);
            if let Some(t) = if inside { Some(0.0) } else { t }
                && t <= max
                && want.is_none_or(|w| t < w.0)
            {
                want = Some((t, QueryTarget::Body(k as u32)));
            }
        }
        match (got, want) {
            (Some(h), Some((t, target))) => {
                assert!((h.distance - t).abs() < 1e-9, "{h:?} vs {t} {target:?}");
                segment_hits += matches!(h.target, QueryTarget::Segment(_)) as usize;
            }
            (None, None) => {}
            (got, want) => panic!("{got:?} vs {want:?}"),
        }
    }
    assert!(segment_hits > 1000, "{segment_hits}");
}

#[test]
fn a_body_squeezed_against_a_level_segment_never_comes_out_on_its_far_side() {
    // A ball between a kinematic paddle sliding at 2 units/s and a level segment (a wall
    // of no thickness): squeezed (elastic) or pressed in the contact solver (restitution
    // 0.2), it is driven into the segment by the push-out, which pushed a body out
    // towards the side its centre is on: the ball came out beyond the wall at step 30,
    // once its centre had crossed. It stays on the paddle's side, overlapping the paddle
    // (the kinematic body wins), even after the paddle itself has passed the wall.
    for (e, shift) in [(1.0, 0.0), (0.2, 0.0), (1.0, 0.02)] {
        let config = StepConfig {
            max_impacts_per_body: 32,
            ..StepConfig::default()
        };
        let wall = 30.0;
        let bodies = [
            BodyDesc::new(DVec2::new(wall - 1.0, 20.0), 1.0, 1.0).with_restitution(e),
            BodyDesc::new(DVec2::new(wall - 3.0001, 20.0 + shift), 1.0, f64::INFINITY)
                .with_restitution(e)
                .with_velocity(DVec2::new(2.0, 0.0)),
        ];
        let mut sim = sim_with(&bodies, config);
        sim.set_level(Level::new(vec![Segment::new(
            DVec2::new(wall, 0.0),
            DVec2::new(wall, 40.0),
        )]));
        for step in 0..90 {
            sim.step(DT);
            let p = sim.bodies().position(0);
            assert!(
                p.x < wall && p.is_finite(),
                "e {e}, shift {shift}, step {step}: the ball at {p}"
            );
            assert!(!sim.stats().fallback, "e {e}, step {step}: fell back");
        }
    }
}

#[test]
fn specks_poured_onto_a_level_floor_stay_above_it() {
    // Pours of crates and specks at restitution 0 onto a floor of two segments 3–5 above
    // the arena's: a speck pressed by a heavy body was driven through the floor by the
    // push-out and pushed out below it (one in each of these pours before).
    for seed in [2, 3] {
        let scene = scenes::speck_pour(250, seed);
        let width = scene.config.arena.expect("a box").max.x;
        let mut sim = scene.simulation();
        let (left, top, right) = (
            DVec2::new(0.0, 3.0),
            DVec2::new(0.5 * width, 5.0),
            DVec2::new(width, 3.0),
        );
        sim.set_level(Level::new(Level::polyline(&[left, top, right], false)));
        let floor = |x: f64| 5.0 - 2.0 * (x - 0.5 * width).abs() / (0.5 * width);
        for step in 0..600 {
            sim.step(DT);
            let b = sim.bodies();
            for i in 0..b.len() {
                let p = b.position(i);
                assert!(
                    p.y > floor(p.x),
                    "seed {seed}, step {step}: body {i} (radius {}) at {p}",
                    b.radius(i)
                );
            }
        }
    }
}
