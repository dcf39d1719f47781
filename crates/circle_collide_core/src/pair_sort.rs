//! Sorting lists of body pairs `(i, j)` with a radix sort.
//!
//! The touching list and the late pairs are sorted every step to remove repeats; in a
//! settled pile they hold a pair or more per body, in the broad phase's cell order. A
//! comparison sort of 10,000 such pairs took about 2 million instructions; three
//! counting passes over 11-bit digits of the packed key take a fraction of that. A list
//! already in a few sorted runs is merged from them instead, which reads it in order.

/// Bits per counting pass.
const DIGIT_BITS: u32 = 11;
/// Buckets per counting pass.
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Below this length a comparison sort is cheaper than clearing the buckets.
const SMALL: usize = 1024;
/// A list with fewer than one descent in this many pairs is merged from its runs.
const NEARLY_SORTED: usize = 32;

/// Sorts `pairs` into `(i, j)` order (repeats stay, side by side). `scratch` is a buffer
/// the sort may reuse between calls; its contents are not kept.
pub(crate) fn sort_pairs(pairs: &mut Vec<(u32, u32)>, scratch: &mut Vec<(u32, u32)>) {
    if pairs.len() < SMALL {
        pairs.sort_unstable();
        return;
    }
    // A list in few sorted runs (a settled pile listed in the order it was spawned):
    // merging the runs reads it sequentially, in fewer steps than the counting passes.
    let descents = pairs.windows(2).filter(|w| w[0] > w[1]).count();
    if descents < pairs.len() / NEARLY_SORTED {
        pairs.sort();
        return;
    }
    let largest = pairs.iter().fold(0, |m, &(i, j)| m.max(i).max(j));
    // Bits that hold every index: the key `i · 2^bits + j` orders like `(i, j)`.
    let bits = (u32::BITS - largest.leading_zeros()).max(1);
    let key = move |&(i, j): &(u32, u32)| (u64::from(i) << bits) | u64::from(j);
    scratch.clear();
    scratch.resize(pairs.len(), (0, 0));
    for pass in 0..(2 * bits).div_ceil(DIGIT_BITS) {
        let shift = pass * DIGIT_BITS;
        crate::key_sort::counting_pass::<_, BUCKETS>(pairs, scratch, |p| {
            (key(p) >> shift) as usize & (BUCKETS - 1)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::sort_pairs;
    use crate::scenes::SplitMix64;

    /// `len` pairs with indices below `bound`, many of them repeated.
    fn random_pairs(len: usize, bound: u64, seed: u64) -> Vec<(u32, u32)> {
        let mut g = SplitMix64(seed);
        let mut v: Vec<(u32, u32)> = (0..len)
            .map(|_| ((g.next_u64() % bound) as u32, (g.next_u64() % bound) as u32))
            .collect();
        for k in (0..len).step_by(7) {
            v[k] = v[k / 2];
        }
        v
    }

    #[test]
    fn sorts_like_a_comparison_sort_at_every_size_and_index_width() {
        let mut scratch = Vec::new();
        for (len, bound) in [
            (0, 1),
            (5, 3),
            (1023, 100),
            (1024, 1),
            (1024, 2),
            (5000, 1 << 11),
            (20_000, 100_000),
            (20_000, 1 << 20),
            (3000, 1 << 32),
        ] {
            let mut v = random_pairs(len, bound, len as u64 ^ bound);
            let mut expected = v.clone();
            expected.sort_unstable();
            sort_pairs(&mut v, &mut scratch);
            assert_eq!(v, expected, "{len} pairs below {bound}");
        }
    }

    #[test]
    fn a_nearly_sorted_list_is_sorted_too() {
        // Sorted runs of 100 pairs, each run a little below the end of the one before.
        let mut v: Vec<(u32, u32)> = (0..20_000u32).map(|k| (k / 3, k % 3 + k / 3)).collect();
        for run in v.chunks_mut(100) {
            run[0].0 = run[0].0.saturating_sub(7);
        }
        let mut expected = v.clone();
        expected.sort_unstable();
        assert!(v != expected, "the runs must be out of order");
        sort_pairs(&mut v, &mut Vec::new());
        assert_eq!(v, expected);
    }

    #[test]
    fn the_extreme_indices_keep_their_order() {
        let mut v: Vec<(u32, u32)> = (0..2000u32)
            .map(|k| match k % 4 {
                0 => (u32::MAX, k),
                1 => (k, u32::MAX),
                2 => (0, 0),
                _ => (u32::MAX, u32::MAX),
            })
            .collect();
        let mut expected = v.clone();
        expected.sort_unstable();
        sort_pairs(&mut v, &mut Vec::new());
        assert_eq!(v, expected);
    }
}
