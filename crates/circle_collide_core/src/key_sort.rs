//! Sorting by body key with a radix sort.
//!
//! The plugin adds its bodies in the canonical (spatial) order each step, and their keys
//! are entity bits in no order: the bodies' `(key, index)` list and the keys the contact
//! memory names are sorted every step. Entity bits differ in few bytes (the index's low
//! two, the generation rarely), so a least-significant-byte-first radix sort that skips
//! the bytes every key shares takes two counting passes where a comparison sort of 2000
//! bodies took ~40 µs a step.

/// Below this length a comparison sort is cheaper than the counting passes.
const SMALL: usize = 256;

/// Sorts `items` by `key`, stably (items of equal keys keep their order). `scratch` is a
/// buffer the sort may reuse between calls; its contents are not kept.
pub(crate) fn sort_by_key<T: Copy>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    key: impl Fn(&T) -> u64,
) {
    if items.len() < SMALL {
        items.sort_by_key(&key);
        return;
    }
    // The bits every key has (`all`) and any key has (`any`): a byte where they agree is
    // the same in every key and orders nothing.
    let (all, any) = (items.iter()).fold((!0u64, 0u64), |(all, any), t| {
        let k = key(t);
        (all & k, any | k)
    });
    scratch.clear();
    scratch.extend_from_slice(items);
    for shift in (0..64).step_by(8) {
        if ((all ^ any) >> shift) & 0xff == 0 {
            continue;
        }
        counting_pass::<T, 256>(items, scratch, |t| ((key(t) >> shift) & 0xff) as usize);
    }
}

/// One stable counting pass of a least-significant-digit radix sort: `items` ordered by
/// `digit` (below `BUCKETS`) through `scratch` (as long as `items`), the two swapped.
/// Shared by [`sort_by_key`] and `pair_sort::sort_pairs` (which takes wider digits).
#[inline]
pub(crate) fn counting_pass<T: Copy, const BUCKETS: usize>(
    items: &mut Vec<T>,
    scratch: &mut Vec<T>,
    digit: impl Fn(&T) -> usize,
) {
    let mut starts = [0usize; BUCKETS];
    for t in items.iter() {
        starts[digit(t)] += 1;
    }
    let mut sum = 0;
    for s in &mut starts {
        (*s, sum) = (sum, sum + *s);
    }
    for t in items.iter() {
        let d = digit(t);
        scratch[starts[d]] = *t;
        starts[d] += 1;
    }
    std::mem::swap(items, scratch);
}

#[cfg(test)]
mod tests {
    use super::sort_by_key;

    /// Keys like entity bits (an index in the low half, a generation above), some equal,
    /// in a scrambled order: the radix sort gives the standard library's stable sort,
    /// above and below the length where it switches.
    #[test]
    fn sorts_like_a_stable_sort_by_key() {
        for n in [0usize, 1, 5, 255, 256, 3000] {
            let items: Vec<(u64, u32)> = (0..n as u32)
                .map(|i| {
                    let index = u64::from(i.wrapping_mul(2_654_435_761) % 70_001);
                    let generation = u64::from(i % 7 == 0) << 32;
                    // Every tenth key repeats its predecessor's.
                    let key = if i % 10 == 9 {
                        index - index % 2
                    } else {
                        index
                    };
                    (generation | key, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|t| t.0);
            let (mut sorted, mut scratch) = (items, Vec::new());
            sort_by_key(&mut sorted, &mut scratch, |t| t.0);
            assert_eq!(sorted, expected, "{n} items");
        }
    }
}
