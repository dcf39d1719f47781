//! Priority queue of predicted impacts, with lazy invalidation by body versions.

use crate::arena::Wall;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most bodies a simulation holds: the queue encodes body indices below 2³¹, level
/// segments from 2³¹ on, and the arena walls in the last four `u32`
/// values.
pub const MAX_BODIES: usize = SEGMENT_BASE as usize;

/// First code of a level segment in [`Predicted::b`].
pub(crate) const SEGMENT_BASE: u32 = 1 << 31;

/// Most level segments a simulation holds.
pub const MAX_SEGMENTS: usize = (u32::MAX - 4 - SEGMENT_BASE) as usize;

/// A predicted impact. Ordered by time, then by the pair: ties are broken
/// deterministically by the lower index, then the higher one (walls after bodies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Predicted {
    /// Bits of a non-negative `f64` time: they order like the numbers.
    t_bits: u64,
    pub a: u32,
    /// Body index, or a wall code from [`wall_code`].
    pub b: u32,
    pub version_a: u32,
    pub version_b: u32,
}

impl Predicted {
    pub fn new(t: f64, a: u32, b: u32, version_a: u32, version_b: u32) -> Self {
        // `+ 0.0` turns −0.0 into +0.0 so the bit order is the numeric order.
        let t = t.max(0.0) + 0.0;
        Self {
            t_bits: t.to_bits(),
            a,
            b,
            version_a,
            version_b,
        }
    }

    pub fn time(&self) -> f64 {
        f64::from_bits(self.t_bits)
    }
}

/// Code of a wall in [`Predicted::b`].
pub(crate) fn wall_code(wall: Wall) -> u32 {
    u32::MAX - 3 + wall as u32
}

/// The wall a code names, if it names one.
pub(crate) fn code_wall(code: u32) -> Option<Wall> {
    Wall::ALL.into_iter().find(|w| wall_code(*w) == code)
}

/// Code of level segment `s` in [`Predicted::b`].
#[inline]
pub(crate) fn segment_code(s: usize) -> u32 {
    SEGMENT_BASE + s as u32
}

/// The level segment a code names, if it names one.
#[inline]
pub(crate) fn code_segment(code: u32) -> Option<usize> {
    (SEGMENT_BASE..u32::MAX - 3)
        .contains(&code)
        .then(|| (code - SEGMENT_BASE) as usize)
}

/// Whether a code names a body (not a wall or a segment).
#[inline]
pub(crate) fn is_body(code: u32) -> bool {
    code < SEGMENT_BASE
}

/// Min-heap of predictions.
#[derive(Clone, Debug, Default)]
pub(crate) struct EventQueue {
    heap: BinaryHeap<Reverse<Predicted>>,
}

impl EventQueue {
    pub fn push(&mut self, p: Predicted) {
        self.heap.push(Reverse(p));
    }

    pub fn pop(&mut self) -> Option<Predicted> {
        self.heap.pop().map(|Reverse(p)| p)
    }

    /// The queue's storage, emptied, to collect predictions for [`rebuild_from`](Self::rebuild_from).
    pub fn take_buffer(&mut self) -> Vec<Predicted> {
        let mut v: Vec<Reverse<Predicted>> = std::mem::take(&mut self.heap).into_vec();
        v.clear();
        // Same layout (`Reverse` is transparent): reuse the allocation.
        v.into_iter().map(|Reverse(p)| p).collect()
    }

    /// Replaces the queue's contents with `predicted`, in O(n).
    pub fn rebuild_from(&mut self, predicted: Vec<Predicted>) {
        self.heap = predicted
            .into_iter()
            .map(Reverse)
            .collect::<Vec<_>>()
            .into();
    }

    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// Bytes the queue's storage holds.
    pub fn heap_bytes(&self) -> usize {
        self.heap.capacity() * std::mem::size_of::<Predicted>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_pair_order() {
        let mut q = EventQueue::default();
        q.push(Predicted::new(0.5, 1, 2, 0, 0));
        q.push(Predicted::new(0.25, 3, 4, 0, 0));
        q.push(Predicted::new(0.5, 0, 9, 0, 0));
        q.push(Predicted::new(-0.0, 7, wall_code(Wall::Top), 0, 0));
        let order: Vec<(u32, u32)> = std::iter::from_fn(|| q.pop()).map(|p| (p.a, p.b)).collect();
        assert_eq!(
            order,
            vec![(7, wall_code(Wall::Top)), (3, 4), (0, 9), (1, 2)]
        );
        assert_eq!(code_wall(wall_code(Wall::Bottom)), Some(Wall::Bottom));
        assert_eq!(code_wall(5), None);
    }
}
