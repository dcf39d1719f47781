//! A pour of crates and specks at restitution 0: circles of radius 0.3–2.0 with three in
//! ten of them specks of radius 0.01–0.11, dropped from a jittered lattice into a box.
//! Specks get wedged under and between the crates and squeezed out sideways
//! ([`same_instant`](crate::same_instant)'s specks).

use super::{Scene, SplitMix64};
use crate::arena::Arena;
use crate::body::BodyDesc;
use crate::config::StepConfig;
use glam::DVec2;

/// Share of the pour's circles that are specks.
pub const SPECK_SHARE: f64 = 0.3;
/// Lattice pitch of the pour's starting places (more than the largest diameter).
const PITCH: f64 = 4.2;

/// `n` circles poured into a box 30–60 wide (drawn from `seed`) and 2000 high, gravity
/// −9.81, every wall and body of restitution 0: a share [`SPECK_SHARE`] of specks of
/// radius 0.01–0.11, the rest of radius 0.3–2.0, mass r² (so a speck is 7 to 40,000
/// times lighter than a crate), one in five rough (friction 0.5). They start on a lattice
/// of pitch 4.2 from 8.1 up, each jittered within its cell (no two overlap), falling at up
/// to 10 units/s with a sideways drift of up to ±0.5.
pub fn speck_pour(n: usize, seed: u64) -> Scene {
    let mut rng = SplitMix64(seed);
    let width = 30.0 + 30.0 * rng.next_unit();
    let per_row = (width / PITCH) as usize;
    let bodies = (0..n)
        .map(|k| {
            let r = if rng.next_unit() < SPECK_SHARE {
                0.01 + 0.1 * rng.next_unit()
            } else {
                0.3 + 1.7 * rng.next_unit()
            };
            let cell = DVec2::new(
                PITCH * (0.5 + (k % per_row) as f64),
                8.1 + PITCH * (k / per_row) as f64,
            );
            let jitter = DVec2::new(rng.next_unit() - 0.5, rng.next_unit() - 0.5);
            let position = cell + jitter * (PITCH - 0.2 - 2.0 * r) * 0.5;
            let velocity = DVec2::new(rng.next_unit() - 0.5, -10.0 * rng.next_unit());
            let body = BodyDesc::new(position, r, r * r)
                .with_velocity(velocity)
                .with_restitution(0.0);
            if rng.next_unit() < 0.2 {
                body.with_friction(0.5)
            } else {
                body
            }
        })
        .collect();
    let config = StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::new(width, 2000.0),
            restitution: 0.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    Scene { bodies, config }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pour_starts_apart_inside_its_box_with_a_share_of_specks() {
        let scene = speck_pour(1000, 7);
        let arena = scene.config.arena.expect("a box");
        let b = &scene.bodies;
        assert_eq!(b.len(), 1000);
        for (i, x) in b.iter().enumerate() {
            assert!(x.position.x - x.radius > arena.min.x && x.position.x + x.radius < arena.max.x);
            assert!(x.position.y - x.radius > 0.0 && x.restitution == 0.0);
            for y in &b[i + 1..] {
                let d = (x.position - y.position).length();
                assert!(d > x.radius + y.radius, "{x:?} overlaps {y:?}");
            }
        }
        let specks = b.iter().filter(|x| x.radius < 0.2).count();
        assert!((250..350).contains(&specks), "{specks} specks");
        assert!(b.iter().all(|x| x.mass == x.radius * x.radius));
    }
}
