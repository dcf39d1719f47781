//! The canonical order of bodies: results must not depend on the order a caller adds its
//! bodies in (spawn order, ECS iteration order), so a caller that rebuilds its bodies
//! each step adds them in this order.

use crate::body::BodyDesc;

/// The order to add `bodies` in: by rows of cells `4 ×` the median radius high, left to
/// right within a row, then by exact position (`x`, then `y`), then by
/// [`BodyDesc::key`] (the index in `bodies` if unset) — the tie rule for bodies at the
/// very same place. The order depends only on the bodies, not on their order in the
/// slice, and puts neighbours next to each other in memory.
///
/// ```
/// use circle_collide_core::{BodyDesc, order::canonical_order};
/// use glam::DVec2;
/// let body = |x: f64, y: f64, key: u64| BodyDesc::new(DVec2::new(x, y), 0.5, 1.0).with_key(key);
/// let bodies = [body(5.0, 0.0, 1), body(0.0, 9.0, 2), body(1.0, 0.0, 3)];
/// let order = canonical_order(&bodies);
/// assert_eq!(order, [2, 0, 1]); // the bottom row left to right, then the row above
/// let reversed: Vec<BodyDesc> = bodies.iter().rev().copied().collect();
/// let keys = |b: &[BodyDesc], o: Vec<u32>| o.iter().map(|&i| b[i as usize].key).collect::<Vec<_>>();
/// assert_eq!(keys(&bodies, order), keys(&reversed, canonical_order(&reversed)));
/// ```
pub fn canonical_order(bodies: &[BodyDesc]) -> Vec<u32> {
    let mut radii: Vec<f64> = (bodies.iter())
        .map(|b| b.radius)
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    let cell = if radii.is_empty() {
        1.0
    } else {
        let middle = radii.len() / 2;
        4.0 * *radii.select_nth_unstable_by(middle, f64::total_cmp).1
    };
    let row = |b: &BodyDesc| {
        let y = (b.position.y / cell).floor();
        if y.is_finite() { y as i64 } else { i64::MAX }
    };
    let mut order: Vec<(i64, u32)> = (bodies.iter().enumerate())
        .map(|(i, b)| (row(b), i as u32))
        .collect();
    let key = |i: u32| bodies[i as usize].key.unwrap_or(u64::from(i));
    order.sort_unstable_by(|&(ra, a), &(rb, b)| {
        let (pa, pb) = (bodies[a as usize].position, bodies[b as usize].position);
        ra.cmp(&rb)
            .then(pa.x.total_cmp(&pb.x))
            .then(pa.y.total_cmp(&pb.y))
            .then(key(a).cmp(&key(b)))
    });
    order.into_iter().map(|(_, i)| i).collect()
}
