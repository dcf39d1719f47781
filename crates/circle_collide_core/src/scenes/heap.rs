//! The poured heap (issue "Friction and rotation"): circles of mixed radii poured from
//! one spout onto a wide floor, and the angle of repose of what they build.

use super::{SEED, Scene, SplitMix64};
use crate::arena::Arena;
use crate::body::BodyDesc;
use crate::config::StepConfig;
use glam::DVec2;
use std::f64::consts::PI;

/// Smallest radius of the heap's circles.
pub const HEAP_MIN_RADIUS: f64 = 0.3;
/// Largest radius of the heap's circles.
pub const HEAP_MAX_RADIUS: f64 = 2.0;
/// Width of the heap's floor (the arena is `HEAP_WIDTH × HEAP_HEIGHT`).
pub const HEAP_WIDTH: f64 = 500.0;
/// Height of the heap's arena.
pub const HEAP_HEIGHT: f64 = 200.0;
/// Height of the spout's centre.
pub const SPOUT_HEIGHT: f64 = 150.0;
/// Circles released side by side at once.
pub const BATCH: usize = 5;
/// Steps (of [`DT`](super::DT)) between two releases.
pub const EVERY: usize = 8;
/// Centre distance of neighbours in a batch, and the distance a batch falls before the
/// next is released: more than the largest diameter, so released circles never overlap.
const SPACING: f64 = 4.4;

/// A heap being poured: its scene (the bodies in release order, gravity −9.81 and the
/// arena), released [`BATCH`] at a time every [`EVERY`] steps.
#[derive(Clone, Debug)]
pub struct Heap {
    /// The bodies in release order, and the world.
    pub scene: Scene,
}

impl Heap {
    /// The bodies to add before step `step` (counting from 0): a batch every [`EVERY`]
    /// steps, empty in between and once all are released.
    pub fn released_before(&self, step: usize) -> &[BodyDesc] {
        if !step.is_multiple_of(EVERY) {
            return &[];
        }
        let start = (step / EVERY * BATCH).min(self.scene.bodies.len());
        let end = (start + BATCH).min(self.scene.bodies.len());
        &self.scene.bodies[start..end]
    }

    /// Steps until the last batch is released.
    pub fn pour_steps(&self) -> usize {
        self.scene.bodies.len().div_ceil(BATCH) * EVERY
    }

    /// An empty simulation of the heap's world: add [`released_before`](Self::released_before)
    /// before each step.
    pub fn simulation(&self) -> crate::Simulation {
        let mut sim = crate::Simulation::new(self.scene.config.clone());
        sim.reserve_bodies(self.scene.bodies.len());
        sim
    }
}

/// **heap**: `n` circles of radii uniform in [[`HEAP_MIN_RADIUS`], [`HEAP_MAX_RADIUS`]]
/// (density 1, restitution 0.2, friction `friction`, rolling resistance `rolling`),
/// poured from a spout at height [`SPOUT_HEIGHT`] above the middle of a floor
/// [`HEAP_WIDTH`] wide: [`BATCH`] side by side (`4.4` apart, ±0.15 jitter) every
/// [`EVERY`] steps, falling at `4.4 / (EVERY · dt)` = 33 units/s. Gravity −9.81; the
/// walls have restitution 0.2 and no friction of their own (under the default `Max` rule
/// the bodies' friction holds on the floor). Draws per circle, from [`SplitMix64`] seed
/// 42: radius, then jitter.
pub fn heap(n: usize, friction: f64, rolling: f64) -> Heap {
    let mut rng = SplitMix64(SEED);
    let speed = SPACING / (EVERY as f64 * super::DT);
    let bodies = (0..n)
        .map(|k| {
            let r = HEAP_MIN_RADIUS + (HEAP_MAX_RADIUS - HEAP_MIN_RADIUS) * rng.next_unit();
            let jitter = (rng.next_unit() - 0.5) * 0.3;
            let column = (k % BATCH) as f64 - 0.5 * (BATCH - 1) as f64;
            let x = 0.5 * HEAP_WIDTH + SPACING * column + jitter;
            BodyDesc::new(DVec2::new(x, SPOUT_HEIGHT), r, PI * r * r)
                .with_velocity(DVec2::new(0.0, -speed))
                .with_restitution(0.2)
                .with_friction(friction)
                .with_rolling_resistance(rolling)
        })
        .collect();
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(HEAP_WIDTH, HEAP_HEIGHT),
            restitution: 0.2,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    Heap {
        scene: Scene { bodies, config },
    }
}

/// The slope of a heap, measured from its surface.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Repose {
    /// Angle of the left flank, degrees.
    pub left: f64,
    /// Angle of the right flank, degrees.
    pub right: f64,
    /// Height of the top above the lowest point of the surface.
    pub height: f64,
}

impl Repose {
    /// Mean of the two flanks, degrees.
    pub fn angle(&self) -> f64 {
        0.5 * (self.left + self.right)
    }
}

/// The angle of repose of the heap of `circles` (centre, radius) on a floor from 0 to
/// `width`: the surface `h(x)` is the highest circle top over each 2-unit column; from
/// the highest column outward, each flank's columns whose height lies in the middle half
/// between the lowest surface point and the top (`base + ¼ … ¾ (top − base)`) are fitted
/// with a least-squares line, whose slope gives the angle. A flank with fewer than three
/// such columns (a flat layer) has angle 0.
///
/// ```
/// use circle_collide_core::scenes::repose_angle;
/// use glam::DVec2;
/// // A triangle of unit circles rising one unit per unit along x to x = 50, then back:
/// // 45° flanks.
/// let circles: Vec<(DVec2, f64)> = (0..100)
///     .map(|k| {
///         let x = k as f64 + 0.5;
///         (DVec2::new(x, 50.0 - (x - 50.0).abs()), 1.0)
///     })
///     .collect();
/// let repose = repose_angle(&circles, 100.0);
/// assert!((repose.angle() - 45.0).abs() < 2.0, "{repose:?}");
/// ```
pub fn repose_angle(circles: &[(DVec2, f64)], width: f64) -> Repose {
    const COLUMN: f64 = 2.0;
    let columns = ((width / COLUMN).ceil() as usize).max(1);
    let mut surface = vec![0.0f64; columns];
    for &(p, r) in circles {
        if !(p.is_finite() && r.is_finite()) {
            continue;
        }
        let first = ((p.x - r) / COLUMN).floor().max(0.0) as usize;
        let last = (((p.x + r) / COLUMN).floor().max(0.0) as usize).min(columns - 1);
        for h in &mut surface[first.min(columns - 1)..=last] {
            *h = h.max(p.y + r);
        }
    }
    let (peak, top) = (surface.iter().copied().enumerate())
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, 0.0));
    let base = surface.iter().copied().fold(f64::INFINITY, f64::min);
    let (low, high) = (base + 0.25 * (top - base), base + 0.75 * (top - base));
    let flank = |columns: &mut dyn Iterator<Item = usize>| {
        let mut points = Vec::new();
        for k in columns {
            let h = surface[k];
            if h < low {
                break;
            }
            if h <= high {
                points.push(((k as f64 + 0.5) * COLUMN, h));
            }
        }
        slope_degrees(&points)
    };
    Repose {
        left: flank(&mut (0..=peak).rev()),
        right: flank(&mut (peak..columns)),
        height: top - base,
    }
}

/// The angle of the least-squares line through `points`, degrees (0 for fewer than 3).
fn slope_degrees(points: &[(f64, f64)]) -> f64 {
    if points.len() < 3 {
        return 0.0;
    }
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(sxy, sxx), p| {
        (sxy + (p.0 - mx) * (p.1 - my), sxx + (p.0 - mx).powi(2))
    });
    (sxy / sxx).abs().atan().to_degrees()
}
