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
    order_visiting(bodies, None)
}

/// [`canonical_order`] — the very same result — computed faster when `hint` is close to
/// it: for example last step's order of bodies that moved a little since. `hint` is a
/// permutation of `0..bodies.len()` (anything else is ignored); the rows are filled
/// visiting the bodies in its order and then finished by insertion, so the cost grows
/// with how far the bodies moved, not with `n log n`.
///
/// ```
/// use circle_collide_core::{BodyDesc, order::{canonical_order, canonical_order_near}};
/// use glam::DVec2;
/// let body = |x: f64, y: f64, key: u64| BodyDesc::new(DVec2::new(x, y), 0.5, 1.0).with_key(key);
/// let mut bodies = vec![body(5.0, 0.0, 1), body(0.0, 9.0, 2), body(1.0, 0.0, 3)];
/// let last = canonical_order(&bodies);
/// bodies[0].position.x = 0.5; // now left of the third body
/// assert_eq!(canonical_order_near(&bodies, &last), canonical_order(&bodies));
/// assert_eq!(canonical_order_near(&bodies, &[0, 0, 1]), canonical_order(&bodies));
/// ```
pub fn canonical_order_near(bodies: &[BodyDesc], hint: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; bodies.len()];
    let permutation = hint.len() == bodies.len()
        && hint
            .iter()
            .all(|&i| (i as usize) < seen.len() && !std::mem::replace(&mut seen[i as usize], true));
    order_visiting(bodies, permutation.then_some(hint))
}

/// The canonical order, filling the rows in the order of `visit` (a permutation) if given.
fn order_visiting(bodies: &[BodyDesc], visit: Option<&[u32]>) -> Vec<u32> {
    // One pass over the descriptions (large records): the usable radii, and each body's
    // `x` and `y` in compact arrays, which the rest reads (the rows are filled in the
    // hint's order, a scattered read per body).
    let n = bodies.len();
    let (mut radii, mut xs, mut ys) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for b in bodies {
        if b.radius.is_finite() && b.radius > 0.0 {
            radii.push(b.radius);
        }
        xs.push(b.position.x);
        ys.push(b.position.y);
    }
    let cell = if radii.is_empty() {
        1.0
    } else {
        let middle = radii.len() / 2;
        4.0 * *radii.select_nth_unstable_by(middle, f64::total_cmp).1
    };
    // Rows first, by a counting sort (each body's row is `floor(y / cell)`); then each
    // row sorted by (x, y, key). A world spread over absurdly many rows, or with
    // non-finite positions, takes one sort of the whole tuple instead.
    let rows: Vec<f64> = ys.iter().map(|y| (y / cell).floor()).collect();
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
    // Within a row, by `x` alone (with the index to find the body again); bodies on the
    // very same `x` — rare — are put in (y, key, index) order afterwards.
    let mut next = starts.clone();
    let mut by_x = vec![0u128; bodies.len()];
    let mut place = |i: usize| {
        let slot = &mut next[(rows[i] - lo) as usize];
        by_x[*slot as usize] = u128::from(ordered(xs[i])) << 32 | i as u128;
        *slot += 1;
    };
    match visit {
        Some(visit) => visit.iter().for_each(|&i| place(i as usize)),
        None => (0..bodies.len()).for_each(place),
    }
    for w in starts.windows(2) {
        let row = &mut by_x[w[0] as usize..w[1] as usize];
        if visit.is_none() || !insertion_sort_within(row, 8 * row.len() + 64) {
            row.sort_unstable();
        }
        let mut run = 0;
        for k in 1..=row.len() {
            if k == row.len() || row[k] >> 32 != row[run] >> 32 {
                if k - run > 1 {
                    row[run..k].sort_unstable_by_key(|&e| tail(e as u32 as usize));
                }
                run = k;
            }
        }
    }
    by_x.into_iter().map(|e| e as u32).collect()
}

/// Sorts `row` by insertion if that takes at most `budget` moves, and says whether it
/// did (else `row` is left permuted, to be sorted another way).
fn insertion_sort_within(row: &mut [u128], budget: usize) -> bool {
    let mut moves = 0;
    for k in 1..row.len() {
        let item = row[k];
        let mut j = k;
        while j > 0 && row[j - 1] > item {
            row[j] = row[j - 1];
            j -= 1;
        }
        row[j] = item;
        moves += k - j;
        if moves > budget {
            return false;
        }
    }
    true
}

/// The bits of `x` mapped so that unsigned order is `f64::total_cmp`'s order (also the
/// shock pass's height keys): the sign bit flipped, all bits flipped for a negative `x`.
pub(crate) fn ordered(x: f64) -> u64 {
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

    /// The integer keys sort as `f64::total_cmp` sorts the values (negative, zero of both
    /// signs, subnormal, large).
    #[test]
    fn ordered_keys_sort_as_total_cmp() {
        let mut values = vec![
            3.5, -2.0, 0.0, -0.0, 1e-310, -1e-310, 1e300, -1e300, 0.25, -0.25, 7.0, -7.5,
        ];
        let mut keys: Vec<u64> = values.iter().map(|&v| ordered(v)).collect();
        values.sort_by(f64::total_cmp);
        keys.sort_unstable();
        let back: Vec<u64> = values.iter().map(|&v| ordered(v)).collect();
        assert_eq!(keys, back);
        assert!(ordered(-0.0) < ordered(0.0));
    }

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
            let order = canonical_order(&bodies);
            assert_eq!(order, reference(&bodies, 2.0));
            // From a hint: the same order, whatever the hint.
            let n = bodies.len() as u32;
            let identity: Vec<u32> = (0..n).collect();
            let reversed_hint: Vec<u32> = (0..n).rev().collect();
            let mut moved = bodies.clone();
            for (k, b) in moved.iter_mut().enumerate() {
                b.position += DVec2::new(0.3 * unit() - 0.15, 0.3 * unit() - 0.15);
                if k % 7 == 0 {
                    b.position.x = 60.0 * unit();
                }
            }
            for hint in [
                &order,
                &identity,
                &reversed_hint,
                &vec![0; n as usize],
                &vec![],
            ] {
                assert_eq!(canonical_order_near(&bodies, hint), order);
                assert_eq!(canonical_order_near(&moved, hint), canonical_order(&moved));
            }
            assert_eq!(canonical_order(&moved), reference(&moved, 2.0));
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
