//! Groups of bodies linked by contacts, and whether something holds each group up: a
//! union–find over body indices with one "held" bit per group.
//!
//! The contact solver asks it twice per step under gravity: which elastic pairs touch
//! within a group that gravity presses onto a support (only those can come to rest), and
//! which of its bodies hang on nothing (they fly on; see [`contacts`](crate::contacts)).

/// Bit of a group root's entry: the group is held.
const HELD: u32 = 1 << 31;
/// Entry of a body that is in no group.
const NONE: u32 = u32::MAX;

/// Union–find over body indices `0..n`; only bodies [`add`](Self::add)ed take part.
#[derive(Clone, Debug, Default)]
pub(crate) struct Groups {
    parent: Vec<u32>,
    /// Number of bodies in each root's group (read at roots only): the smaller group
    /// joins the larger, so no chain grows longer than `log₂ n`.
    size: Vec<u32>,
}

impl Groups {
    /// Starts over for `n` bodies, none in a group.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.resize(n, NONE);
        self.size.clear();
        self.size.resize(n, 1);
    }

    /// Puts body `i` in a group of its own (if it is in none yet).
    pub fn add(&mut self, i: u32) {
        if self.parent[i as usize] == NONE {
            self.parent[i as usize] = i;
        }
    }

    /// Whether body `i` is in a group.
    #[inline]
    pub fn contains(&self, i: u32) -> bool {
        self.parent[i as usize] != NONE
    }

    /// The root of body `i`'s group (halving the path on the way).
    fn root(&mut self, mut i: u32) -> u32 {
        loop {
            let up = self.parent[i as usize] & !HELD;
            if up == i {
                return i;
            }
            let grand = self.parent[up as usize] & !HELD;
            self.parent[i as usize] = grand | (self.parent[i as usize] & HELD);
            i = up;
        }
    }

    /// Joins the groups of `i` and `j`; the union is held if either was.
    pub fn join(&mut self, i: u32, j: u32) {
        let (mut ri, mut rj) = (self.root(i), self.root(j));
        if ri != rj {
            if self.size[ri as usize] > self.size[rj as usize] {
                std::mem::swap(&mut ri, &mut rj);
            }
            let held = (self.parent[ri as usize] | self.parent[rj as usize]) & HELD;
            self.parent[ri as usize] = rj | held;
            self.parent[rj as usize] |= held;
            self.size[rj as usize] += self.size[ri as usize];
        }
    }

    /// Marks the group of `i` as held.
    pub fn hold(&mut self, i: u32) {
        let r = self.root(i);
        self.parent[r as usize] |= HELD;
    }

    /// Whether the group of `i` is held.
    pub fn held(&mut self, i: u32) -> bool {
        let r = self.root(i);
        self.parent[r as usize] & HELD != 0
    }

    /// Bytes of heap memory held.
    pub fn heap_bytes(&self) -> usize {
        crate::simulation::capacity_bytes(&self.parent)
            + crate::simulation::capacity_bytes(&self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_anywhere_holds_the_whole_chain() {
        let mut g = Groups::default();
        g.reset(6);
        for i in 0..5 {
            g.add(i);
        }
        g.join(0, 1);
        g.join(2, 3);
        g.hold(3);
        g.join(1, 2);
        assert!((0..4).all(|i| g.held(i)), "the chain 0–1–2–3 holds at 3");
        assert!(!g.held(4), "4 touches nothing");
        assert!(!g.contains(5));
    }

    /// Steps from `i` up to its root, without shortening the path.
    fn depth(g: &Groups, mut i: u32) -> u32 {
        let mut steps = 0;
        while g.parent[i as usize] & !HELD != i {
            i = g.parent[i as usize] & !HELD;
            steps += 1;
        }
        steps
    }

    #[test]
    fn a_chain_joined_end_to_end_stays_shallow() {
        // Joined along the chain, each group's root joining the next body's: without
        // the smaller group going under the larger, body 0 ends 1023 steps deep.
        let n = 1024;
        let mut g = Groups::default();
        g.reset(n as usize);
        for i in 0..n {
            g.add(i);
        }
        for i in 0..n - 1 {
            g.join(i, i + 1);
        }
        let deepest = (0..n).map(|i| depth(&g, i)).max().unwrap();
        assert!(deepest <= 10, "deepest {deepest} steps, log₂ n = 10");
        assert!((0..n).all(|i| g.root(i) == g.root(0)));
    }
}
