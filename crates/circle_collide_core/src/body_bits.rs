//! Sorting a list of body indices that repeats some of them (the bodies a push-out pass
//! moved, each once per pair that pushed it) into distinct ascending order, through a
//! bitmap: a bit set per entry and a scan of the words the list spans, where a
//! comparison sort of a few hundred entries with their repeats cost ~3 % of a pile
//! ploughed by a kinematic body. The result is the same as `sort_unstable` + `dedup`.

/// Below this many entries a comparison sort is cheaper than the bitmap.
const SMALL: usize = 32;

/// The bitmap scans at most this many words per entry; a list spread wider is sorted.
const WORDS_PER_ENTRY: usize = 4;

/// A bitmap over a span of body indices, all zero between calls (its allocation is kept).
#[derive(Clone, Debug, Default)]
pub(crate) struct BodyBits {
    words: Vec<u64>,
}

impl BodyBits {
    /// Sorts `ids` ascending and removes repeats: `ids.sort_unstable(); ids.dedup()`.
    pub(crate) fn sort_distinct(&mut self, ids: &mut Vec<u32>) {
        let (Some(&low), Some(&high)) = (ids.iter().min(), ids.iter().max()) else {
            return;
        };
        let (first, last) = (low as usize / 64, high as usize / 64);
        if ids.len() < SMALL || last - first > WORDS_PER_ENTRY * ids.len() {
            ids.sort_unstable();
            ids.dedup();
            return;
        }
        // Word `w` of the bitmap holds indices `(first + w) * 64 ..`.
        let span = last - first + 1;
        if self.words.len() < span {
            self.words.resize(span, 0);
        }
        for &i in ids.iter() {
            self.words[i as usize / 64 - first] |= 1 << (i % 64);
        }
        ids.clear();
        for (w, word) in self.words[..span].iter_mut().enumerate() {
            let mut bits = std::mem::take(word);
            while bits != 0 {
                ids.push(((first + w) * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }

    /// Bytes of heap memory the bitmap holds.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::simulation::capacity_bytes(&self.words)
    }
}

#[cfg(test)]
mod tests {
    use super::BodyBits;

    /// The same list as a comparison sort and `dedup`, for lists dense, spread, short,
    /// empty and at the ends of `u32`, twice through one bitmap (left all zero).
    #[test]
    fn sorts_and_removes_repeats_as_a_comparison_sort_does() {
        let mut bits = BodyBits::default();
        let mut seed = 12345u64;
        let mut next = |m: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as u32) % m
        };
        let mut lists: Vec<Vec<u32>> = vec![vec![], vec![7], vec![u32::MAX, 0, u32::MAX]];
        for (len, span) in [
            (10, 50),
            (40, 100),
            (300, 2000),
            (500, 64),
            (100, 1_000_000),
        ] {
            lists.push((0..len).map(|_| 3000 + next(span)).collect());
        }
        lists.push((0..200).map(|k| u32::MAX - k % 70).collect());
        for _ in 0..2 {
            for list in &lists {
                let mut expected = list.clone();
                expected.sort_unstable();
                expected.dedup();
                let mut got = list.clone();
                bits.sort_distinct(&mut got);
                assert_eq!(got, expected);
            }
            assert!(bits.words.iter().all(|&w| w == 0));
        }
    }
}
