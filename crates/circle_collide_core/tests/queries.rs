//! Spatial queries against brute force: in a world of 10,000 circles of mixed radii
//! (some large, some sensors, on two layers) inside an arena, 10⁵ random ray casts and
//! 10⁵ random area queries give exactly what testing every circle gives; so do the
//! point queries, box queries, all-hits ray casts and circle casts.

use circle_collide_core::query::{CastHit, QueryFilter, QueryTarget, SpatialIndex};
use circle_collide_core::{Arena, Layers};
use glam::DVec2;

/// splitmix64, uniform in [0, 1).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

const SIDE: f64 = 200.0;

struct World {
    circles: Vec<(DVec2, f64)>,
    layers: Vec<Layers>,
    sensor: Vec<bool>,
    arena: Arena,
    index: SpatialIndex,
}

/// 10,000 circles in a 200 × 200 arena: radii 0.2–1.5, one in 500 of radius 5–25 (the
/// index's big list), one in ten a sensor, half on layer 1 and half on layer 2.
fn world() -> World {
    let mut rng = Rng(7);
    let mut circles = Vec::new();
    let (mut layers, mut sensor) = (Vec::new(), Vec::new());
    for k in 0..10_000 {
        let r = if k % 500 == 0 {
            rng.range(5.0, 25.0)
        } else {
            rng.range(0.2, 1.5)
        };
        circles.push((DVec2::new(rng.range(0.0, SIDE), rng.range(0.0, SIDE)), r));
        layers.push(Layers::new(1 << (k % 2), u32::MAX));
        sensor.push(k % 10 == 3);
    }
    let arena = Arena::new(DVec2::splat(-5.0), DVec2::splat(SIDE + 5.0));
    let index =
        SpatialIndex::from_circles(circles.clone(), layers.clone(), sensor.clone(), Some(arena));
    World {
        circles,
        layers,
        sensor,
        arena,
        index,
    }
}

impl World {
    fn sees(&self, i: usize, f: &QueryFilter) -> bool {
        self.layers[i].memberships & f.mask != 0
            && (f.sensors || !self.sensor[i])
            && !f.exclude.contains(&(i as u32))
    }
}

/// A random filter: every body, one layer, no sensors, or excluding a few bodies.
fn filter<'a>(rng: &mut Rng, exclude: &'a [u32]) -> QueryFilter<'a> {
    match (rng.unit() * 4.0) as u32 {
        0 => QueryFilter::default(),
        1 => QueryFilter::default().with_mask(2),
        2 => QueryFilter::default().without_sensors(),
        _ => QueryFilter::default().excluding(exclude).without_walls(),
    }
}

/// A random point in and around the arena, a random direction (one in eight along an
/// axis, which the grid walk must handle), and a random reach (one in ten unlimited).
fn ray(rng: &mut Rng) -> (DVec2, DVec2, f64) {
    let o = DVec2::new(rng.range(-20.0, SIDE + 20.0), rng.range(-20.0, SIDE + 20.0));
    let d = match (rng.unit() * 16.0) as u32 {
        0 => DVec2::X,
        1 => DVec2::NEG_Y,
        a => DVec2::from_angle(rng.unit() * std::f64::consts::TAU) * (1.0 + f64::from(a)),
    };
    let reach = if rng.unit() < 0.1 {
        f64::INFINITY
    } else {
        rng.range(0.0, 80.0)
    };
    (o, d, reach)
}

/// Where a ray from `o` along unit `d` first meets the circle `(c, rho)` within `max`
/// (0 if it starts inside), by the textbook quadratic.
fn brute_ray_circle(o: DVec2, d: DVec2, c: DVec2, rho: f64, max: f64) -> Option<f64> {
    let m = o - c;
    let cc = m.length_squared() - rho * rho;
    if cc <= 0.0 {
        return Some(0.0);
    }
    let b = m.dot(d);
    let disc = b * b - cc;
    if b >= 0.0 || disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    (t <= max).then_some(t)
}

/// Every body a cast of `radius` meets: (distance, body), nearest first.
fn brute_cast(
    w: &World,
    o: DVec2,
    d: DVec2,
    radius: f64,
    max: f64,
    f: &QueryFilter,
) -> Vec<(f64, u32)> {
    let mut hits: Vec<(f64, u32)> = (0..w.circles.len())
        .filter(|&i| w.sees(i, f))
        .filter_map(|i| {
            let (c, r) = w.circles[i];
            brute_ray_circle(o, d, c, r + radius, max).map(|t| (t, i as u32))
        })
        .collect();
    hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    hits
}

/// The nearest wall a cast of `radius` meets, by the closed form per wall line.
fn brute_wall(w: &World, o: DVec2, d: DVec2, radius: f64) -> Option<f64> {
    let a = w.arena;
    // (how far the centre is inside the wall's line, less the radius; outward speed)
    let lines = [
        (o.x - (a.min.x + radius), -d.x),
        ((a.max.x - radius) - o.x, d.x),
        (o.y - (a.min.y + radius), -d.y),
        ((a.max.y - radius) - o.y, d.y),
    ];
    lines
        .iter()
        .filter(|&&(_, speed)| speed > 0.0)
        .map(|&(inside, speed)| inside.max(0.0) / speed)
        .min_by(f64::total_cmp)
}

/// Checks a cast's first hit against brute force: the same distance (to rounding of the
/// two quadratic forms) and the same body, unless two bodies are hit within rounding.
fn check_first(
    w: &World,
    hit: Option<CastHit>,
    o: DVec2,
    d: DVec2,
    radius: f64,
    max: f64,
    f: &QueryFilter,
) {
    let d = d.normalize();
    let bodies = brute_cast(w, o, d, radius, max, f);
    let wall = if f.walls {
        brute_wall(w, o, d, radius).filter(|&t| t <= max)
    } else {
        None
    };
    let tol = |t: f64| 1e-9 * (1.0 + t);
    let expected = match (bodies.first(), wall) {
        (Some(&(tb, _)), Some(tw)) if tw < tb - tol(tb) => Some(tw),
        (Some(&(tb, _)), _) => Some(tb),
        (None, Some(tw)) => Some(tw),
        (None, None) => None,
    };
    match (hit, expected) {
        (None, None) => {}
        (Some(h), Some(t)) => {
            assert!(
                (h.distance - t).abs() <= tol(t),
                "ray {o} {d} r {radius}: distance {} against {t}",
                h.distance
            );
            if let QueryTarget::Body(i) = h.target {
                let (c, r) = w.circles[i as usize];
                assert!(
                    bodies
                        .iter()
                        .any(|&(tb, j)| j == i && (tb - t).abs() <= tol(t)),
                    "ray {o} {d}: body {i} not among the nearest"
                );
                // The point lies on the circle hit, the normal points out of it.
                assert!((h.point.distance(c) - r).abs() <= 1e-9 * (1.0 + r) || h.distance == 0.0);
                assert!((h.normal.length() - 1.0).abs() < 1e-12);
            } else {
                assert!(
                    bodies.first().is_none_or(|&(tb, _)| tb >= t - tol(t)),
                    "a wall reported behind a body"
                );
            }
        }
        (h, e) => panic!("ray {o} {d} r {radius} reach {max}: got {h:?}, expected {e:?}"),
    }
}

#[test]
fn ray_casts_equal_brute_force_on_100k_random_rays() {
    let w = world();
    let mut rng = Rng(11);
    let exclude: Vec<u32> = (0..10_000).step_by(7).take(20).collect();
    let mut hits = 0;
    for _ in 0..100_000 {
        let (o, d, reach) = ray(&mut rng);
        let f = filter(&mut rng, &exclude);
        let hit = w.index.ray_cast(o, d, reach, &f);
        hits += usize::from(hit.is_some_and(|h| h.body().is_some()));
        check_first(&w, hit, o, d, 0.0, reach, &f);
    }
    assert!(hits > 50_000, "most rays hit a body: {hits}");
}

#[test]
fn all_hits_and_circle_casts_equal_brute_force() {
    let w = world();
    let mut rng = Rng(12);
    let exclude: Vec<u32> = (0..10_000).step_by(11).take(20).collect();
    for _ in 0..20_000 {
        let (o, d, reach) = ray(&mut rng);
        let f = filter(&mut rng, &exclude);
        let all = w.index.ray_cast_all(o, d, reach, &f);
        let brute = brute_cast(&w, o, d.normalize(), 0.0, reach, &f);
        let got: Vec<u32> = all.iter().filter_map(CastHit::body).collect();
        let mut got_sorted = got.clone();
        got_sorted.sort_unstable();
        let mut want: Vec<u32> = brute.iter().map(|h| h.1).collect();
        want.sort_unstable();
        assert_eq!(got_sorted, want, "all hits of ray {o} {d} reach {reach}");
        assert!(all.windows(2).all(|p| p[0].distance <= p[1].distance));
        let radius = rng.range(0.0, 3.0);
        let hit = w.index.circle_cast(o, radius, d, reach, &f);
        check_first(&w, hit, o, d, radius, reach, &f);
    }
}

#[test]
fn area_queries_equal_brute_force_on_100k_random_queries() {
    let w = world();
    let mut rng = Rng(13);
    let exclude: Vec<u32> = (0..10_000).step_by(3).take(20).collect();
    let mut found = 0;
    for k in 0..100_000 {
        let f = filter(&mut rng, &exclude);
        let p = DVec2::new(rng.range(-20.0, SIDE + 20.0), rng.range(-20.0, SIDE + 20.0));
        let (got, want): (Vec<u32>, Vec<u32>) = match k % 3 {
            0 => {
                let radius = rng.range(0.0, 8.0);
                let brute = (0..w.circles.len())
                    .filter(|&i| w.sees(i, &f))
                    .filter(|&i| {
                        let (c, r) = w.circles[i];
                        c.distance(p) <= r + radius
                    })
                    .map(|i| i as u32);
                (w.index.circle(p, radius, &f), brute.collect())
            }
            1 => {
                let max = p + DVec2::new(rng.range(0.0, 15.0), rng.range(0.0, 15.0));
                let brute = (0..w.circles.len())
                    .filter(|&i| w.sees(i, &f))
                    .filter(|&i| {
                        let (c, r) = w.circles[i];
                        c.distance(c.clamp(p, max)) <= r
                    })
                    .map(|i| i as u32);
                (w.index.aabb(p, max, &f), brute.collect())
            }
            _ => {
                let brute = (0..w.circles.len())
                    .filter(|&i| w.sees(i, &f))
                    .filter(|&i| w.circles[i].0.distance(p) <= w.circles[i].1)
                    .map(|i| i as u32);
                (w.index.point(p, &f), brute.collect())
            }
        };
        found += got.len();
        assert_eq!(got, want, "query {k} at {p}");
    }
    assert!(found > 100_000, "the queries find bodies: {found}");
}

#[test]
fn casts_and_queries_of_bad_input_find_nothing_and_do_not_panic() {
    let w = world();
    let f = QueryFilter::default();
    for d in [DVec2::ZERO, DVec2::NAN, DVec2::new(f64::INFINITY, 0.0)] {
        assert!(w.index.ray_cast(DVec2::ONE, d, 10.0, &f).is_none());
        assert!(w.index.ray_cast_all(DVec2::ONE, d, 10.0, &f).is_empty());
    }
    assert!(w.index.ray_cast(DVec2::NAN, DVec2::X, 10.0, &f).is_none());
    assert!(
        w.index
            .circle_cast(DVec2::ONE, f64::NAN, DVec2::X, 10.0, &f)
            .is_none()
    );
    assert!(
        w.index
            .circle_cast(DVec2::ONE, -1.0, DVec2::X, 10.0, &f)
            .is_none()
    );
    assert!(w.index.point(DVec2::NAN, &f).is_empty());
    assert!(
        w.index.aabb(DVec2::ONE, DVec2::ZERO, &f).is_empty(),
        "min above max"
    );
    let empty = SpatialIndex::from_circles(Vec::new(), Vec::new(), Vec::new(), None);
    assert!(empty.ray_cast(DVec2::ZERO, DVec2::X, 1e9, &f).is_none());
    assert!(empty.circle(DVec2::ZERO, 5.0, &f).is_empty());
    // A circle that is not finite is left out of the index, the others still answer.
    let index = SpatialIndex::from_circles(
        vec![(DVec2::NAN, 1.0), (DVec2::new(3.0, 0.0), 1.0)],
        vec![Layers::ALL; 2],
        vec![false; 2],
        None,
    );
    let hit = index.ray_cast(DVec2::ZERO, DVec2::X, 10.0, &f).unwrap();
    assert_eq!((hit.body(), hit.distance), (Some(1), 2.0));
}
