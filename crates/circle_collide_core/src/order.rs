//! The canonical order of bodies: results must not depend on the order a caller adds its
//! bodies in (spawn order, ECS iteration order), so a caller that rebuilds its bodies
//! each step adds them in this order.

use crate::body::BodyDesc;
use glam::DVec2;

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
    OrderInputs::from_descs(bodies).canonical_order()
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
    OrderInputs::from_descs(bodies).canonical_order_near(hint)
}

/// What the canonical order reads of each body — its position, its radius and its key
/// ([`BodyDesc::key`], or its index if unset) — in compact arrays. An order can be
/// computed from them ahead of time, from a simulation's own arrays (the plugin does so
/// at the end of a step, for the next one, while it writes the step back), and the
/// descriptions checked against them when they come ([`matches`](Self::matches)): where
/// every description matches, [`canonical_order`](Self::canonical_order) of the inputs is
/// the canonical order of the descriptions.
///
/// ```
/// use circle_collide_core::{BodyDesc, order::{OrderInputs, canonical_order}};
/// use glam::DVec2;
/// let body = |x: f64, y: f64, key: u64| BodyDesc::new(DVec2::new(x, y), 0.5, 1.0).with_key(key);
/// let bodies = [body(5.0, 0.0, 1), body(0.0, 9.0, 2), body(1.0, 0.0, 3)];
/// let mut inputs = OrderInputs::default();
/// for b in &bodies {
///     inputs.push(b.position, b.radius, b.key.unwrap());
/// }
/// assert!(bodies.iter().enumerate().all(|(i, b)| inputs.matches(i, b)));
/// assert_eq!(inputs.canonical_order(), canonical_order(&bodies));
/// ```
#[derive(Clone, Debug, Default)]
pub struct OrderInputs {
    xs: Vec<f64>,
    ys: Vec<f64>,
    radii: Vec<f64>,
    keys: Vec<u64>,
}

impl OrderInputs {
    /// The inputs of `bodies`, in their order (a body without a key is keyed by its index).
    pub fn from_descs(bodies: &[BodyDesc]) -> Self {
        let mut inputs = Self::with_capacity(bodies.len());
        for (i, b) in bodies.iter().enumerate() {
            inputs.push(b.position, b.radius, b.key.unwrap_or(i as u64));
        }
        inputs
    }

    /// Empty inputs with room for `n` bodies.
    pub fn with_capacity(n: usize) -> Self {
        Self {
            xs: Vec::with_capacity(n),
            ys: Vec::with_capacity(n),
            radii: Vec::with_capacity(n),
            keys: Vec::with_capacity(n),
        }
    }

    /// Forgets every body (keeps the allocations).
    pub fn clear(&mut self) {
        self.xs.clear();
        self.ys.clear();
        self.radii.clear();
        self.keys.clear();
    }

    /// Adds the next body's inputs.
    pub fn push(&mut self, position: DVec2, radius: f64, key: u64) {
        self.xs.push(position.x);
        self.ys.push(position.y);
        self.radii.push(radius);
        self.keys.push(key);
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are no bodies.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether `desc`, taken as body `i` of the bodies to order, has exactly body `i`'s
    /// inputs here: its position and radius bit for bit, and its key (its index `i` if
    /// unset). False for an `i` out of range.
    pub fn matches(&self, i: usize, desc: &BodyDesc) -> bool {
        i < self.len()
            && desc.position.x.to_bits() == self.xs[i].to_bits()
            && desc.position.y.to_bits() == self.ys[i].to_bits()
            && desc.radius.to_bits() == self.radii[i].to_bits()
            && desc.key.unwrap_or(i as u64) == self.keys[i]
    }

    /// The inputs of `bodies`, a simulation's, in their order (replacing these).
    pub fn fill_from(&mut self, bodies: &crate::Bodies) {
        self.clear();
        for i in 0..bodies.len() {
            self.push(bodies.position(i), bodies.radius(i), bodies.key(i));
        }
    }

    /// The [canonical order](canonical_order) of these bodies.
    pub fn canonical_order(&self) -> Vec<u32> {
        self.order_visiting(None, false)
    }

    /// The same order computed faster when the bodies are listed nearly in it already —
    /// a simulation's bodies, which were added in the canonical order of their places at
    /// the start of the step — as [`canonical_order_near`] with the identity as hint.
    pub fn canonical_order_near_listed(&self) -> Vec<u32> {
        self.order_visiting(None, true)
    }

    /// The same order computed from a `hint` close to it, as [`canonical_order_near`]
    /// does.
    pub fn canonical_order_near(&self, hint: &[u32]) -> Vec<u32> {
        let mut seen = vec![false; self.len()];
        let permutation = hint.len() == self.len()
            && hint.iter().all(|&i| {
                (i as usize) < seen.len() && !std::mem::replace(&mut seen[i as usize], true)
            });
        self.order_visiting(permutation.then_some(hint), permutation)
    }

    /// The canonical order, filling the rows in the order of `visit` (a permutation) if
    /// given, else in index order; `near`: that order is nearly the canonical one, so
    /// each row is first sorted by insertion (within a budget).
    fn order_visiting(&self, visit: Option<&[u32]>, near: bool) -> Vec<u32> {
        let Self {
            xs,
            ys,
            radii,
            keys,
        } = self;
        let n = keys.len();
        // The median of the usable radii (a world of one radius needs no selection).
        let usable_radius = |r: &f64| r.is_finite() && *r > 0.0;
        let cell = match radii.first() {
            Some(&r) if usable_radius(&r) && radii.iter().all(|&s| s.to_bits() == r.to_bits()) => {
                4.0 * r
            }
            _ => {
                let mut usable: Vec<f64> = radii.iter().copied().filter(usable_radius).collect();
                if usable.is_empty() {
                    1.0
                } else {
                    let middle = usable.len() / 2;
                    4.0 * *usable.select_nth_unstable_by(middle, f64::total_cmp).1
                }
            }
        };
        // Rows first, by a counting sort (each body's row is `floor(y / cell)`); then
        // each row sorted by (x, y, key). A world spread over absurdly many rows, or with
        // non-finite positions, takes one sort of the whole tuple instead.
        let rows: Vec<f64> = ys.iter().map(|y| floor(y / cell)).collect();
        let (lo, hi) = rows
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                (lo.min(r), hi.max(r))
            });
        let tail = |i: usize| (ordered(xs[i]), ordered(ys[i]), keys[i], i as u32);
        let spread = hi - lo;
        if !(spread.is_finite() && spread <= 4.0 * n as f64 + 64.0) {
            let mut keyed: Vec<(u64, (u64, u64, u64, u32))> =
                (0..n).map(|i| (ordered(rows[i]), tail(i))).collect();
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
        // Within a row, by `x` alone (with the index to find the body again); bodies on
        // the very same `x` — rare — are put in (y, key, index) order afterwards.
        let mut next = starts.clone();
        let mut by_x = vec![0u128; n];
        let mut place = |i: usize| {
            let slot = &mut next[(rows[i] - lo) as usize];
            by_x[*slot as usize] = u128::from(ordered(xs[i])) << 32 | i as u128;
            *slot += 1;
        };
        match visit {
            Some(visit) => visit.iter().for_each(|&i| place(i as usize)),
            None => (0..n).for_each(place),
        }
        for w in starts.windows(2) {
            let row = &mut by_x[w[0] as usize..w[1] as usize];
            if !near || !insertion_sort_within(row, 8 * row.len() + 64) {
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
}

/// `q.floor()`, bit for bit, inlined: on the baseline x86-64 target `f64::floor` is a
/// call into the C library, once per body in the order's row pass. Below 2⁵² in
/// magnitude the truncation to an integer is exact; a value equal to its truncation is
/// returned as it is (so −0.0 stays −0.0); larger values, infinities and NaN take
/// `floor` itself.
#[inline]
fn floor(q: f64) -> f64 {
    if q.abs() < 4_503_599_627_370_496.0 {
        let t = q as i64 as f64;
        if t > q {
            t - 1.0
        } else if t == q {
            q
        } else {
            t
        }
    } else {
        q.floor()
    }
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
            // Moved a little (a step's bodies): ordered from the last order, ties
            // included.
            let mut nudged = bodies.clone();
            for b in nudged.iter_mut().step_by(3) {
                b.position += DVec2::new(0.2 * unit() - 0.1, 0.2 * unit() - 0.1);
            }
            assert_eq!(
                canonical_order_near(&nudged, &order),
                reference(&nudged, 2.0)
            );
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

    /// The inputs taken from a simulation's bodies give the descriptions' order (from
    /// the core's own arrays, listed nearly in order), and a description matches its
    /// inputs only bit for bit: a body moved by one ulp, to the other zero, to NaN, given
    /// another radius or another key does not.
    #[test]
    fn inputs_from_a_simulation_order_as_its_descriptions_and_match_bit_for_bit() {
        let mut state = crate::scenes::SEED;
        let mut unit = || crate::scenes::SplitMix64::next_f64(&mut state);
        let descs: Vec<BodyDesc> = (0..1500u64)
            .map(|k| {
                let r = 0.3 + 0.4 * unit();
                BodyDesc::new(DVec2::new(80.0 * unit(), 80.0 * unit()), r, 1.0).with_key(7 * k + 3)
            })
            .collect();
        let mut sim = crate::Simulation::new(crate::StepConfig::default());
        for &i in &canonical_order(&descs) {
            sim.add_body_from(&descs[i as usize]).unwrap();
        }
        // The simulation's bodies moved a little (as in a step), then ordered afresh.
        let mut moved: Vec<BodyDesc> = (0..sim.bodies().len())
            .map(|j| {
                let b = sim.bodies();
                let shift = DVec2::new(0.6 * unit() - 0.3, 0.6 * unit() - 0.3);
                BodyDesc::new(b.position(j) + shift, b.radius(j), 1.0).with_key(b.key(j))
            })
            .collect();
        moved[11].position.x = 40.0;
        let mut sim = crate::Simulation::new(crate::StepConfig::default());
        for d in &moved {
            sim.add_body_from(d).unwrap();
        }
        let mut inputs = OrderInputs::default();
        inputs.fill_from(sim.bodies());
        assert_eq!(inputs.len(), moved.len());
        assert_eq!(
            inputs.canonical_order_near_listed(),
            canonical_order(&moved)
        );
        assert_eq!(inputs.canonical_order(), canonical_order(&moved));
        assert!((moved.iter().enumerate()).all(|(i, d)| inputs.matches(i, d)));
        let d = moved[5];
        let changed = [
            BodyDesc {
                position: DVec2::new(f64::from_bits(d.position.x.to_bits() + 1), d.position.y),
                ..d
            },
            BodyDesc {
                radius: d.radius * 1.5,
                ..d
            },
            BodyDesc { key: Some(1), ..d },
            BodyDesc { key: None, ..d },
            BodyDesc {
                position: DVec2::new(d.position.x, f64::NAN),
                ..d
            },
        ];
        for c in &changed {
            assert!(!inputs.matches(5, c), "{c:?} matched");
        }
        let mut zero = OrderInputs::default();
        zero.push(DVec2::new(0.0, 1.0), 0.5, 0);
        let at = |x: f64| BodyDesc::new(DVec2::new(x, 1.0), 0.5, 1.0);
        assert!(
            zero.matches(0, &at(0.0)),
            "a body without a key is keyed by its index"
        );
        assert!(
            !zero.matches(0, &at(-0.0)),
            "the other zero orders differently"
        );
        assert!(!zero.matches(1, &at(0.0)), "out of range");
    }

    /// The inlined floor is `f64::floor` bit for bit: both zeros, tiny and huge values,
    /// values next to integers, infinities and NaN.
    #[test]
    fn the_inlined_floor_is_the_floor() {
        let mut state = crate::scenes::SEED;
        let mut values = vec![
            0.0,
            -0.0,
            1e-300,
            -1e-300,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.0f64.powi(52),
            -(2.0f64.powi(52)),
            2.0f64.powi(52) - 0.5,
            -(2.0f64.powi(52)) + 0.5,
            2.0f64.powi(63),
            -(2.0f64.powi(63)),
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
        ];
        for k in -40..40 {
            let x = f64::from(k);
            values.extend([
                x,
                f64::from_bits(x.to_bits() + 1),
                f64::from_bits(x.to_bits().wrapping_sub(1)),
            ]);
        }
        for _ in 0..10_000 {
            let u = crate::scenes::SplitMix64::next_f64(&mut state);
            values.push((u - 0.5) * 2.0f64.powi((u * 140.0) as i32 - 70));
        }
        for v in values {
            assert_eq!(floor(v).to_bits(), v.floor().to_bits(), "{v:e}");
        }
    }
}
