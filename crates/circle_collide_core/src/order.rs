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
    // Rows first, by a counting sort (each body's row is `floor(y / cell)`); then each
    // row sorted by (x, y, key). A world spread over absurdly many rows, or with
    // non-finite positions, takes one sort of the whole tuple instead.
    let row_of = |b: &BodyDesc| (b.position.y / cell).floor();
    let rows: Vec<f64> = bodies.iter().map(row_of).collect();
    let (lo, hi) = rows
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
            (lo.min(r), hi.max(r))
        });
    let tail = |i: usize| {
        let b = &bodies[i];
        let key = b.key.unwrap_or(i as u64);
        (ordered(b.position.x), ordered(b.position.y), key, i as u32)
    };
    let spread = hi - lo;
    if !(spread.is_finite() && spread <= 4.0 * bodies.len() as f64 + 64.0) {
        let mut keyed: Vec<(u64, (u64, u64, u64, u32))> = (0..bodies.len())
            .map(|i| (ordered(rows[i]), tail(i)))
            .collect();
        keyed.sort_unstable();
        return keyed.into_iter().map(|k| k.1.3).collect();
    }
    let row_count = spread as usize + 1;
    let mut starts = vec![0u32; row_count + 1];
    for &r in &rows {
        starts[(r - lo) as usize + 1] += 1;
    }
    for k in 1..=row_count {
        starts[k] += starts[k - 1];
    }
    let mut next = starts.clone();
    let mut keyed = vec![(0u64, 0u64, 0u64, 0u32); bodies.len()];
    for (i, &r) in rows.iter().enumerate() {
        let slot = &mut next[(r - lo) as usize];
        keyed[*slot as usize] = tail(i);
        *slot += 1;
    }
    for w in starts.windows(2) {
        keyed[w[0] as usize..w[1] as usize].sort_unstable();
    }
    keyed.into_iter().map(|k| k.3).collect()
}

/// The bits of `x` mapped so that unsigned order is `f64::total_cmp`'s order.
fn ordered(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    /// The order the documentation gives, by one sort of the whole tuple.
    /// A body whose row is NaN goes in the lowest row.
    fn reference(bodies: &[BodyDesc], cell: f64) -> Vec<u32> {
        let row_of = |b: &BodyDesc| (b.position.y / cell).floor();
        let lowest = bodies.iter().map(row_of).fold(f64::INFINITY, f64::min);
        let mut keyed: Vec<_> = (bodies.iter().enumerate())
            .map(|(i, b)| {
                let row = row_of(b);
                let row = ordered(if row.is_nan() { lowest } else { row });
                let key = b.key.unwrap_or(i as u64);
                (
                    row,
                    ordered(b.position.x),
                    ordered(b.position.y),
                    key,
                    i as u32,
                )
            })
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|k| k.4).collect()
    }

    #[test]
    fn the_order_is_rows_then_x_then_y_then_key_whatever_the_layout() {
        let mut state = crate::scenes::SEED;
        let mut unit = || crate::scenes::SplitMix64::next_f64(&mut state);
        // Radius 0.5 everywhere: cells 2 high.
        let body =
            |x: f64, y: f64, key: u64| BodyDesc::new(DVec2::new(x, y), 0.5, 1.0).with_key(key);
        // A dense crowd (by cells), with bodies at the very same place (the key decides),
        // on the same x (y decides) and on cell boundaries.
        let mut dense: Vec<BodyDesc> = (0..2000)
            .map(|k| body(60.0 * unit(), 60.0 * unit(), 2000 - k))
            .collect();
        dense.extend((0..50).map(|k| body(4.0, 6.0, 7 * k)));
        dense.extend((0..50).map(|k| body(8.0, 60.0 * unit(), 9000 + k)));
        dense.extend(
            (0..50).map(|k| body(2.0 * (k % 10) as f64, 2.0 * (k / 10) as f64, 10_000 + k)),
        );
        // Wide in x (by rows), and far apart in y (one sort).
        let wide: Vec<BodyDesc> = (0..500)
            .map(|k| body(1e7 * unit(), 60.0 * unit(), k))
            .collect();
        let tall: Vec<BodyDesc> = (0..500)
            .map(|k| body(60.0 * unit(), 1e7 * unit(), k))
            .collect();
        // Non-finite positions (skipped when added, but ordered all the same).
        let mut odd = dense[..300].to_vec();
        odd[3].position.x = f64::NAN;
        odd[5].position.y = f64::NAN;
        odd[7].position.x = f64::INFINITY;
        for bodies in [dense, wide, tall, odd] {
            assert_eq!(canonical_order(&bodies), reference(&bodies, 2.0));
            // And whatever order they come in.
            let reversed: Vec<BodyDesc> = bodies.iter().rev().copied().collect();
            let keys = |b: &[BodyDesc]| -> Vec<u64> {
                canonical_order(b)
                    .iter()
                    .map(|&i| b[i as usize].key.unwrap())
                    .collect()
            };
            assert_eq!(keys(&bodies), keys(&reversed));
        }
    }
}
