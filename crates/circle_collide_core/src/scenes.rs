//! The standard scenes of the design guide (§5), built exactly, so every test, benchmark,
//! example and engine starts from the same state.
//!
//! Units: radius 0.5, step 1/60 s, mass = π r² (density 1), seeded [`SplitMix64`].

use crate::arena::Arena;
use crate::body::BodyDesc;
use crate::config::StepConfig;
use glam::DVec2;
use std::f64::consts::{PI, TAU};

mod dozers;
mod heap;
mod speck_pour;
pub use dozers::{DOZER_RADIUS, crowd_dozer, floor_dozer};
pub use heap::{
    BATCH, EVERY, HEAP_HEIGHT, HEAP_MAX_RADIUS, HEAP_MIN_RADIUS, HEAP_WIDTH, Heap, Repose,
    SPOUT_HEIGHT, heap, repose_angle,
};
pub use speck_pour::{SPECK_SHARE, speck_pour};

/// Radius of the standard scenes.
pub const RADIUS: f64 = 0.5;
/// Step of the standard scenes, seconds.
pub const DT: f64 = 1.0 / 60.0;
/// Seed of the standard scenes.
pub const SEED: u64 = 42;
/// Mass of a standard circle: density 1, `π r²`.
pub const MASS: f64 = PI * RADIUS * RADIUS;

/// The splitmix64 generator of the design guide.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 24 bits: `(z >> 40) / 2^24`, as the guide specifies.
    pub fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 40) as f64 / (1u64 << 24) as f64
    }

    /// Uniform `f64` in `[0, 1)` from a bare state (for tests that keep a `u64`).
    pub fn next_f64(state: &mut u64) -> f64 {
        let mut g = SplitMix64(*state);
        let x = g.next_unit();
        *state = g.0;
        x
    }
}

/// A ready-to-run scene.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The bodies, in spawn order.
    pub bodies: Vec<BodyDesc>,
    /// Gravity, arena and restitution rule of the scene.
    pub config: StepConfig,
}

/// Side of the gas box for `n` circles at packing fraction `eta`.
pub fn gas_side(n: usize, eta: f64) -> f64 {
    (n as f64 * PI * RADIUS * RADIUS / eta).sqrt()
}

/// **gas**: `n` circles on a jittered lattice in `[0, L]²` with walls, packing fraction
/// `eta`, the given speed in uniform random directions, restitution 1, no gravity.
pub fn gas(n: usize, eta: f64, speed: f64) -> Scene {
    let side = gas_side(n, eta);
    let k = (n as f64).sqrt().ceil().max(1.0) as usize;
    let s = side / k as f64;
    let jitter = 0.2 * (s - 2.0 * RADIUS);
    let mut rng = SplitMix64(SEED);
    let mass = PI * RADIUS * RADIUS;
    let bodies = (0..n)
        .map(|p| {
            let (ix, iy) = ((p % k) as f64, (p / k) as f64);
            let jx = (2.0 * rng.next_unit() - 1.0) * jitter;
            let jy = (2.0 * rng.next_unit() - 1.0) * jitter;
            let theta = rng.next_unit() * TAU;
            let pos = DVec2::new((ix + 0.5) * s + jx, (iy + 0.5) * s + jy);
            BodyDesc::new(pos, RADIUS, mass).with_velocity(DVec2::from_angle(theta) * speed)
        })
        .collect();
    let config = StepConfig {
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::splat(side),
            restitution: 1.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    Scene { bodies, config }
}

/// Width of the pile box for `n` circles: `ceil(1.5 √n) · 2r`.
pub fn pile_width(n: usize) -> f64 {
    (1.5 * (n as f64).sqrt()).ceil() * 2.0 * RADIUS
}

/// **pile** (design §5): `n` circles at rest on a slightly irregular lattice, dropped into
/// a box `pile_width(n)` wide, gravity −9.81, restitution 0.2 (bodies and walls).
///
/// `per_row = floor(W / 2.2r)`; circle `p` sits in column `c = p mod per_row`, row
/// `q = p div per_row` at `x = 1.1r + 2.2r·c + (u − 0.5)·0.1r`, `y = 2r + 2.2r·q`, one draw
/// `u` per circle from [`SplitMix64`] (seed 42); the box is `(n div per_row + 2)·2.2r + 2`
/// tall. The jitter matters: a perfect lattice stacks into columns that never touch
/// sideways ([`lattice_pile`]), which flatters every engine.
pub fn pile(n: usize) -> Scene {
    let width = pile_width(n);
    let spacing = 2.2 * RADIUS;
    let per_row = ((width / spacing).floor() as usize).max(1);
    let mut rng = SplitMix64(SEED);
    let bodies = (0..n)
        .map(|p| {
            let (c, q) = ((p % per_row) as f64, (p / per_row) as f64);
            let u = rng.next_unit();
            let pos = DVec2::new(
                1.1 * RADIUS + spacing * c + (u - 0.5) * 0.1 * RADIUS,
                2.0 * RADIUS + spacing * q,
            );
            BodyDesc::new(pos, RADIUS, MASS).with_restitution(0.2)
        })
        .collect();
    let height = (n / per_row + 2) as f64 * spacing + 2.0;
    Scene {
        bodies,
        config: pile_config(width, height),
    }
}

/// The pile's world: gravity −9.81 and a `width × height` box of restitution 0.2.
fn pile_config(width: f64, height: f64) -> StepConfig {
    StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(width, height),
            restitution: 0.2,
            friction: 0.0,
        }),
        ..StepConfig::default()
    }
}

/// The former standard pile, kept as a named variant: `n` circles at rest on a
/// *perfect* square lattice of spacing `2.2 r`, filled row by row from the floor up, in
/// a box `pile_width(n)` wide (and tall enough for the lattice plus one width), gravity
/// −9.81, restitution 0.2. Its columns never touch sideways, so it settles trivially: use
/// [`pile`] for anything measured.
pub fn lattice_pile(n: usize) -> Scene {
    let width = pile_width(n);
    let spacing = 2.2 * RADIUS;
    let cols = ((width / spacing).floor() as usize).max(1);
    let rows = n.div_ceil(cols);
    let bodies = (0..n)
        .map(|p| {
            let (c, r) = ((p % cols) as f64, (p / cols) as f64);
            let pos = DVec2::new((c + 0.5) * spacing, (r + 0.5) * spacing);
            BodyDesc::new(pos, RADIUS, MASS).with_restitution(0.2)
        })
        .collect();
    Scene {
        bodies,
        config: pile_config(width, rows as f64 * spacing + width),
    }
}

/// Speed at which the crowd is steered toward the centre of its box, units/s.
pub const CROWD_SPEED: f64 = 4.0;

/// Whether circle `i` of a scene walks when a `share` of its circles do — the walkers of
/// the peer runner's `walkers` scene (share 0.2) and of its `march` (share 1): a fixed
/// scatter over the indices, `frac(i φ⁻¹) < share`.
///
/// ```
/// use circle_collide_core::scenes::walks;
/// let walking = (0..1000).filter(|&i| walks(i, 0.2)).count();
/// assert_eq!(walking, 200);
/// assert!((0..1000).all(|i| walks(i, 1.0)));
/// ```
pub fn walks(i: usize, share: f64) -> bool {
    (i as f64 * 0.618_033_988_749_895).fract() < share
}

/// The indices of `0..n` that [`walks`] picks at `share`, in order.
///
/// ```
/// use circle_collide_core::scenes::walkers;
/// assert_eq!(walkers(1000, 0.2).len(), 200);
/// assert_eq!(walkers(3, 1.0), vec![0, 1, 2]);
/// ```
pub fn walkers(n: usize, share: f64) -> Vec<u32> {
    (0..n)
        .filter(|&i| walks(i, share))
        .map(|i| i as u32)
        .collect()
}

/// The walkers' steering, run before every step: each body of `walkers` gets the
/// horizontal velocity −[`CROWD_SPEED`] (walking left), its vertical velocity kept.
pub fn walk_left(sim: &mut crate::Simulation, walkers: impl IntoIterator<Item = u32>) {
    for i in walkers {
        let v = sim.bodies().velocity(i as usize);
        sim.set_velocity(i, DVec2::new(-CROWD_SPEED, v.y));
    }
}

/// **crowd** (design §5): the [`gas`] construction with zero velocities, restitution 0.2,
/// no gravity. It is meant to be steered before every step with [`steer_crowd`] (a
/// top-down crowd or swarm): it never rests.
pub fn crowd(n: usize, eta: f64) -> Scene {
    let mut scene = gas(n, eta, 0.0);
    for b in &mut scene.bodies {
        b.velocity = DVec2::ZERO;
        b.restitution = 0.2;
    }
    if let Some(arena) = &mut scene.config.arena {
        arena.restitution = 0.2;
    }
    scene
}

/// The crowd's steering, run before every step: each dynamic body of `sim` gets the
/// velocity [`CROWD_SPEED`] toward `centre` (zero at the centre itself); static and
/// kinematic bodies keep theirs.
pub fn steer_crowd(sim: &mut crate::Simulation, centre: DVec2) {
    for i in 0..sim.bodies().len() {
        if sim.bodies().inverse_mass(i) == 0.0 {
            continue;
        }
        let to_centre = centre - sim.bodies().position(i);
        sim.set_velocity(i as u32, to_centre.normalize_or_zero() * CROWD_SPEED);
    }
}

/// **bullet**: a circle of radius 0.05 at `speed` (design: 1e4 units/s) flying right into
/// a row of `row` touching circles whose last one touches the right wall of a
/// `[0, 2 row + 2] × [0, 4]` arena. Body 0 is the bullet; restitution 1.
pub fn bullet(row: usize, speed: f64, y_offset: f64) -> Scene {
    let right = 2.0 * row as f64 + 2.0;
    let mass = PI * RADIUS * RADIUS;
    let mut bodies = vec![
        BodyDesc::new(DVec2::new(0.5, 2.0 + y_offset), 0.05, PI * 0.05 * 0.05)
            .with_velocity(DVec2::new(speed, 0.0)),
    ];
    bodies.extend((0..row).map(|k| {
        BodyDesc::new(
            DVec2::new(right - RADIUS - 2.0 * RADIUS * k as f64, 2.0),
            RADIUS,
            mass,
        )
    }));
    let config = StepConfig {
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(right, 4.0),
            restitution: 1.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    Scene { bodies, config }
}

/// The configuration of an elastic box `[0, width] × [0, height]` (wall restitution 1)
/// under gravity 9.81 down.
pub fn elastic_box_under_gravity(width: f64, height: f64) -> StepConfig {
    StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(width, height),
            restitution: 1.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    }
}

/// **tall gas**: `n` elastic circles (radius [`RADIUS`], unit mass) in rows of 10 with a
/// ±0.3 jitter, at `speed` in random directions, in a 20 × 120 box with elastic walls,
/// under gravity 9.81 down: a gas under gravity (exact flight keeps its energy).
pub fn tall_gas(n: usize, speed: f64) -> Scene {
    let mut rng = SplitMix64(SEED);
    let bodies = (0..n)
        .map(|k| {
            let (col, row) = ((k % 10) as f64, (k / 10) as f64);
            let jitter = DVec2::new(rng.next_unit() - 0.5, rng.next_unit() - 0.5) * 0.6;
            let p = DVec2::new(1.0 + 2.0 * col, 5.0 + 4.0 * row) + jitter;
            let v = DVec2::from_angle(rng.next_unit() * TAU) * speed;
            BodyDesc::new(p, RADIUS, 1.0).with_velocity(v)
        })
        .collect();
    Scene {
        bodies,
        config: elastic_box_under_gravity(20.0, 120.0),
    }
}

/// **cradle**: `n` equal circles on the x axis separated by `gap`, the first moving
/// right at `speed`, no walls, restitution 1.
pub fn cradle(n: usize, gap: f64, speed: f64) -> Scene {
    let mass = PI * RADIUS * RADIUS;
    let bodies = (0..n)
        .map(|k| {
            let b = BodyDesc::new(
                DVec2::new(k as f64 * (2.0 * RADIUS + gap), 0.0),
                RADIUS,
                mass,
            );
            if k == 0 {
                b.with_velocity(DVec2::new(speed, 0.0))
            } else {
                b
            }
        })
        .collect();
    Scene {
        bodies,
        config: StepConfig::default(),
    }
}

impl Scene {
    /// A simulation holding this scene.
    ///
    /// # Panics
    /// If a body is rejected by [`Simulation::add_body`](crate::Simulation::add_body).
    pub fn simulation(&self) -> crate::Simulation {
        let mut sim = crate::Simulation::new(self.config.clone());
        sim.reserve_bodies(self.bodies.len());
        for b in &self.bodies {
            sim.add_body(*b)
                .expect("every body of a scene must be valid");
        }
        sim
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gas_matches_the_design_check_values() {
        let scene = gas(1000, 0.3, 10.0);
        let b0 = scene.bodies[0];
        assert!(
            (b0.position - DVec2::new(0.857347907, 0.717995594))
                .abs()
                .max_element()
                < 5e-9
        );
        assert!(
            (b0.velocity - DVec2::new(-1.787403885, 9.838962717))
                .abs()
                .max_element()
                < 5e-9
        );
        assert!((gas_side(1000, 0.3) - (1000.0 * PI * 0.25 / 0.3).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn scenes_start_without_overlap_and_inside_their_box() {
        for scene in [
            gas(1000, 0.3, 10.0),
            pile(1000),
            lattice_pile(1000),
            crowd(1000, 0.3),
            bullet(8, 1e4, 0.0),
            cradle(5, 1e-3, 1.0),
            tall_gas(100, 15.0),
        ] {
            let mut sim = scene.simulation();
            sim.integrate(0.0);
            sim.broad_phase();
            sim.narrow_phase();
            let deepest = sim
                .contacts()
                .iter()
                .map(|c| c.manifold.depth)
                .fold(f64::MIN, f64::max);
            assert!(deepest <= 1e-12, "deepest overlap {deepest}");
            if let Some(a) = scene.config.arena {
                for b in &scene.bodies {
                    assert!(b.position.cmpge(a.min + b.radius - 1e-12).all());
                    assert!(b.position.cmple(a.max - b.radius + 1e-12).all());
                }
            }
        }
    }
}
