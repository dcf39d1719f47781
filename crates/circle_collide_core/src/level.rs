//! Level geometry: static segments (lone, chained into polylines, or the sides of boxes)
//! indexed once in a uniform grid of their own.
//!
//! The grid is built when the level is set ([`Simulation::set_level`]) and never touched
//! by a step: bodies ask it which segments lie near their path. A polyline's joints are
//! shared end points, so a circle sliding along the chain meets the next segment's
//! interior exactly where it leaves the previous one's, with the same normal: joints do
//! not snag. Closed chains and boxes leave no gap at their corners.

use crate::segment::Segment;
use crate::simulation::Simulation;
use glam::DVec2;

/// Most grid cells per segment (the cell size grows to keep within it).
const CELLS_PER_SEGMENT: f64 = 4.0;

/// The level's segments and their grid.
///
/// ```
/// use circle_collide_core::level::Level;
/// use circle_collide_core::segment::Segment;
/// use glam::DVec2;
/// let mut segments = Level::polyline(&[DVec2::new(-5.0, 5.0), DVec2::new(-5.0, 0.0), DVec2::new(5.0, 0.0), DVec2::new(5.0, 5.0)], false);
/// segments.extend(Level::rect(DVec2::new(0.0, 3.0), DVec2::new(1.0, 0.5), 0.3));
/// let level = Level::new(segments);
/// assert_eq!(level.segments().len(), 7);
/// let mut near = Vec::new();
/// level.visit(DVec2::new(-1.0, -1.0), DVec2::new(1.0, 0.5), |s| near.push(s));
/// assert_eq!(near, [1]); // only the cup's floor
/// ```
#[derive(Clone, Debug, Default)]
pub struct Level {
    segments: Vec<Segment>,
    /// Lower corner of the grid.
    origin: DVec2,
    inv_cell: f64,
    /// Cells per row and per column.
    nx: usize,
    ny: usize,
    /// Segments of cell `c` are `items[starts[c]..starts[c + 1]]` (compressed rows).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Bounding boxes of the segments.
    boxes: Vec<(DVec2, DVec2)>,
    /// For each segment, another segment sharing its end point `a`, and one sharing `b`
    /// (`u32::MAX`: none): the joints of chains.
    joints: Vec<[u32; 2]>,
}

impl Level {
    /// A level of `segments`. Segments with a non-finite end point are dropped (the
    /// plugin warns about them); a zero-length segment is a point, which circles hit like
    /// a circle of radius 0.
    pub fn new(mut segments: Vec<Segment>) -> Self {
        segments.retain(Segment::is_finite);
        let boxes: Vec<_> = segments.iter().map(Segment::bounds).collect();
        let mut level = Self {
            segments,
            boxes,
            ..Default::default()
        };
        level.build_grid();
        level.find_joints();
        level
    }

    /// Finds, for each end point, another segment that shares it exactly.
    fn find_joints(&mut self) {
        let mut ends: Vec<([u64; 2], u32)> = Vec::with_capacity(2 * self.segments.len());
        for (k, s) in self.segments.iter().enumerate() {
            for (end, p) in [s.a, s.b].into_iter().enumerate() {
                // −0.0 and 0.0 are the same point.
                let key = [(p.x + 0.0).to_bits(), (p.y + 0.0).to_bits()];
                ends.push((key, (2 * k + end) as u32));
            }
        }
        ends.sort_unstable();
        self.joints = vec![[u32::MAX; 2]; self.segments.len()];
        for run in ends.chunk_by(|x, y| x.0 == y.0) {
            for &(_, code) in run {
                let (seg, end) = (code as usize / 2, code as usize % 2);
                if let Some(&(_, other)) = run.iter().find(|&&(_, o)| o as usize / 2 != seg) {
                    self.joints[seg][end] = other / 2;
                }
            }
        }
    }

    /// Whether the contact of segment `s` with a circle centred at `p` is left to another
    /// segment of the same chain: `p` is nearest `s` at an end point shared with a
    /// segment whose interior `p` lies beside (that segment's contact holds the circle,
    /// with the right normal; the end point's would be a ghost tilted against the
    /// motion, the snag of chains), or that is nearest the same end point and comes
    /// first (one contact per corner).
    #[inline]
    pub fn defers(&self, s: usize, p: DVec2) -> bool {
        let seg = &self.segments[s];
        let param = |seg: &Segment| {
            let e = seg.b - seg.a;
            (p - seg.a).dot(e) / e.length_squared()
        };
        let t = param(seg);
        if !(t <= 0.0 || t >= 1.0) {
            return false; // beside the interior (or a point segment: NaN)
        }
        let (end, corner) = if t <= 0.0 { (0, seg.a) } else { (1, seg.b) };
        let other = self.joints[s][end];
        if other == u32::MAX {
            return false;
        }
        let neighbour = &self.segments[other as usize];
        let u = param(neighbour);
        (u > 0.0 && u < 1.0) || (other < s as u32 && neighbour.closest_point(p) == corner)
    }

    /// The segments, in the order given (their index is what impacts and contacts name).
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Whether the level has no segment.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Segments joining `points` in order, closed back to the first if `closed`; each
    /// segment's [`part`](Segment::part) is its index in the chain.
    pub fn polyline(points: &[DVec2], closed: bool) -> Vec<Segment> {
        let n = points.len();
        let count = if closed && n > 2 {
            n
        } else {
            n.saturating_sub(1)
        };
        (0..count)
            .map(|k| Segment {
                part: k as u32,
                ..Segment::new(points[k], points[(k + 1) % n])
            })
            .collect()
    }

    /// The four sides of a box centred on `centre` with half extents `half`, turned by
    /// `angle` radians (counter-clockwise), as a closed chain starting at the lower left.
    pub fn rect(centre: DVec2, half: DVec2, angle: f64) -> Vec<Segment> {
        let rot = DVec2::from_angle(angle);
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| centre + rot.rotate(DVec2::new(x * half.x, y * half.y)));
        Self::polyline(&corners, true)
    }

    /// Calls `visit` once with the index of each segment whose bounding box overlaps the
    /// box `[min, max]`, in no particular order.
    #[inline]
    pub fn visit(&self, min: DVec2, max: DVec2, mut visit: impl FnMut(usize)) {
        if self.segments.is_empty() || !(min.is_finite() && max.is_finite()) {
            if !self.segments.is_empty() {
                // A box with no finite bounds: every segment (never happens for a body
                // with a finite path; kept total rather than wrong).
                (0..self.segments.len()).for_each(visit);
            }
            return;
        }
        let (x0, y0) = self.cell_of(min);
        let (x1, y1) = self.cell_of(max);
        if max.x < self.origin.x || max.y < self.origin.y {
            return;
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = y * self.nx + x;
                for &s in &self.items[self.starts[c] as usize..self.starts[c + 1] as usize] {
                    let (lo, hi) = self.boxes[s as usize];
                    if lo.cmpgt(max).any() || hi.cmplt(min).any() {
                        continue;
                    }
                    // Reported from one cell only: the first the two boxes share.
                    let (sx, sy) = self.cell_of(lo.max(min));
                    if (sx, sy) == (x, y) {
                        visit(s as usize);
                    }
                }
            }
        }
    }

    /// Cell of `p`, clamped to the grid.
    #[inline]
    fn cell_of(&self, p: DVec2) -> (usize, usize) {
        let c = ((p - self.origin) * self.inv_cell).max(DVec2::ZERO);
        (
            (c.x as usize).min(self.nx - 1),
            (c.y as usize).min(self.ny - 1),
        )
    }

    fn build_grid(&mut self) {
        let Some(&(first_lo, first_hi)) = self.boxes.first() else {
            return;
        };
        let (lo, hi) = (self.boxes.iter()).fold((first_lo, first_hi), |(lo, hi), &(a, b)| {
            (lo.min(a), hi.max(b))
        });
        let size = (hi - lo).max(DVec2::splat(1e-9));
        let mean_len = (self.segments.iter())
            .map(|s| (s.b - s.a).length())
            .sum::<f64>()
            / self.segments.len() as f64;
        // Cells about a segment long, no more than a few per segment in all.
        let budget = CELLS_PER_SEGMENT * self.segments.len() as f64 + 16.0;
        let cell = mean_len
            .max((size.x * size.y / budget).sqrt())
            .max(size.max_element() / 4096.0);
        self.origin = lo;
        self.inv_cell = 1.0 / cell;
        self.nx = ((size.x / cell) as usize + 1).max(1);
        self.ny = ((size.y / cell) as usize + 1).max(1);
        let (mut starts, mut items) = (
            std::mem::take(&mut self.starts),
            std::mem::take(&mut self.items),
        );
        crate::compressed_rows::build(self.nx * self.ny, &mut starts, &mut items, |emit| {
            for (s, &(a, b)) in self.boxes.iter().enumerate() {
                let ((x0, y0), (x1, y1)) = (self.cell_of(a), self.cell_of(b));
                for y in y0..=y1 {
                    for x in x0..=x1 {
                        emit(y * self.nx + x, s as u32);
                    }
                }
            }
        });
        (self.starts, self.items) = (starts, items);
    }

    /// Bytes of heap memory the level holds.
    pub fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.segments)
            + cap(&self.starts)
            + cap(&self.items)
            + cap(&self.boxes)
            + cap(&self.joints)
    }
}

impl Simulation {
    /// Replaces the level geometry. The contacts the solver remembers with segments are
    /// dropped (segment indices may now name other segments), and every sleeping body
    /// wakes in the next step (it may have rested on a segment that is gone).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
        self.level_changed = true;
        self.memory.forget_segments();
        self.near_wall_listed = None;
    }

    /// The level geometry.
    pub fn level(&self) -> &Level {
        &self.level
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid reports exactly the segments whose boxes overlap the query, each once.
    #[test]
    fn grid_matches_brute_force() {
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut segments = Vec::new();
        for _ in 0..500 {
            let a = DVec2::new(rnd(), rnd()) * 100.0;
            let b = a + DVec2::new(rnd() - 0.5, rnd() - 0.5) * 20.0;
            segments.push(Segment::new(a, b));
        }
        let level = Level::new(segments);
        for _ in 0..2000 {
            let min = DVec2::new(rnd(), rnd()) * 120.0 - 10.0;
            let max = min + DVec2::new(rnd(), rnd()) * 15.0;
            let mut got = Vec::new();
            level.visit(min, max, |s| got.push(s));
            got.sort_unstable();
            let want: Vec<usize> = (0..level.segments.len())
                .filter(|&s| {
                    let (lo, hi) = level.boxes[s];
                    !(lo.cmpgt(max).any() || hi.cmplt(min).any())
                })
                .collect();
            assert_eq!(got, want);
        }
    }
}
