//! The peer runner's bulldozers: kinematic circles driven through a crowd (`--scene
//! dozer`) or along the floor of a pile (`--scene pile_dozer`), built here once for the
//! runner, the core's examples and tests.

use super::{CROWD_SPEED, RADIUS, Scene};
use crate::arena::Arena;
use crate::body::BodyDesc;
use glam::DVec2;

/// Radius of the runner's bulldozers: four radii of the standard circle.
pub const DOZER_RADIUS: f64 = 4.0 * RADIUS;

/// The bulldozer of the runner's `dozer` scene for a crowd in `arena`: a kinematic circle
/// of [`DOZER_RADIUS`] half a unit from the left wall, its centre at height `y` (the
/// middle of the arena if `None`), moving right at twice [`CROWD_SPEED`]. Restitution is
/// the caller's (the runner gives it 0.2).
///
/// ```
/// use circle_collide_core::scenes::{crowd, crowd_dozer};
/// let scene = crowd(2000, 0.3);
/// let dozer = crowd_dozer(scene.config.arena.unwrap(), None);
/// assert_eq!(dozer.position.x, 2.5);
/// assert_eq!(dozer.velocity.x, 8.0);
/// assert!(dozer.mass.is_infinite());
/// ```
pub fn crowd_dozer(arena: Arena, y: Option<f64>) -> BodyDesc {
    let r = DOZER_RADIUS;
    let y = y.unwrap_or(0.5 * (arena.min.y + arena.max.y));
    let p = DVec2::new(arena.min.x + r + 0.5, y);
    BodyDesc::new(p, r, f64::INFINITY).with_velocity(DVec2::new(2.0 * CROWD_SPEED, 0.0))
}

/// The bulldozer of the runner's `pile_dozer` scene: a kinematic circle of
/// [`DOZER_RADIUS`] half a unit from the left wall of `scene`'s arena, its centre `height`
/// above the floor (0.05 more than its radius if `None`: on the floor), moving right at
/// [`CROWD_SPEED`]. The circles of `scene` it would overlap are removed. Restitution is
/// the caller's (the runner gives it 0.2).
///
/// ```
/// use circle_collide_core::scenes::{floor_dozer, pile};
/// let mut scene = pile(2000);
/// let dozer = floor_dozer(&mut scene, None);
/// assert_eq!(dozer.position.y, 2.05);
/// assert!(scene.bodies.iter().all(|b| b.position.distance(dozer.position) > 2.0 + b.radius));
/// ```
///
/// # Panics
///
/// If `scene` has no arena (the pile has one).
pub fn floor_dozer(scene: &mut Scene, height: Option<f64>) -> BodyDesc {
    let arena = scene.config.arena.expect("the pile has walls");
    let r = DOZER_RADIUS;
    let p = arena.min + DVec2::new(r + 0.5, height.unwrap_or(r + 0.05));
    scene
        .bodies
        .retain(|b| b.position.distance(p) > r + b.radius);
    BodyDesc::new(p, r, f64::INFINITY).with_velocity(DVec2::new(CROWD_SPEED, 0.0))
}
