//! The contact solver's pairs of the step, listed by first body, so that the event loop
//! can ask "is this pair the solver's?" for every pair it predicts in a few reads
//! (a binary search over every solver pair was most of a prediction's time in a crowd).

/// The solver's pairs: for each body `a`, the partners (a body index, or a static code)
/// of its solver contacts `(a, partner)`, in compressed rows.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverPairs {
    /// `partners[first[a]..first[a + 1]]` are body `a`'s partners; empty when nothing
    /// is listed.
    first: Vec<u32>,
    partners: Vec<u32>,
}

impl SolverPairs {
    /// Forgets every pair (the allocations are kept).
    pub(crate) fn clear(&mut self) {
        self.first.clear();
        self.partners.clear();
    }

    /// Lists `pairs` (first body, partner) for a world of `bodies` bodies.
    pub(crate) fn list(&mut self, bodies: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) {
        if pairs.clone().next().is_none() {
            // No rows at all (a gas): nothing is listed, without a pass over the bodies.
            self.clear();
            return;
        }
        crate::compressed_rows::build(bodies, &mut self.first, &mut self.partners, |emit| {
            pairs
                .clone()
                .for_each(|(a, partner)| emit(a as usize, partner));
        });
    }

    /// Whether `(a, partner)` is listed.
    #[inline]
    pub(crate) fn contains(&self, a: usize, partner: u32) -> bool {
        match self.first.get(a..a + 2) {
            Some(&[start, end]) => self.partners[start as usize..end as usize].contains(&partner),
            _ => false,
        }
    }

    /// Bytes of heap memory held.
    pub(crate) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.first) + cap(&self.partners)
    }
}

#[cfg(test)]
mod tests {
    use super::SolverPairs;

    #[test]
    fn lists_each_pair_under_its_first_body_and_nothing_else() {
        let pairs = [(3, 7), (0, 1), (3, 4), (5, u32::MAX - 1), (0, 9)];
        let mut listed = SolverPairs::default();
        listed.list(10, pairs.iter().copied());
        for a in 0..10usize {
            for b in (0..12).chain([u32::MAX - 1, u32::MAX]) {
                let want = pairs.contains(&(a as u32, b));
                assert_eq!(listed.contains(a, b), want, "({a}, {b})");
            }
        }
        assert!(!listed.contains(10, 1), "past the last body");
        listed.clear();
        assert!(!listed.contains(0, 1));
        // An empty list after a full one leaves nothing listed.
        listed.list(10, pairs.iter().copied());
        assert!(pairs.iter().all(|&(a, b)| listed.contains(a as usize, b)));
        listed.list(10, std::iter::empty());
        assert!(pairs.iter().all(|&(a, b)| !listed.contains(a as usize, b)));
    }
}
