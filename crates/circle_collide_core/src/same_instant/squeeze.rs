//! A squeezed cluster: no impulses stop every contact from closing, because a body sits
//! between partners that cannot give way — a kinematic body driving it into a wall, a
//! static body or another kinematic body. One impact at a time such a run went on to the
//! step's impact cap (each a bounce between the two, at restitution 1 ever faster, the
//! body's path box growing with its speed until every grid query visited every body: a
//! crate between a sliding kinematic paddle and a wall took 31,232 impacts and 0.1–1.5 s
//! in a world of 973 bodies), and the cap's fallback then took every other body's
//! impacts of that step too.
//!
//! Instead the kinematic body wins, as the push-out already lets it: the cluster's
//! contacts with still partners (walls, segments, static or sleeping bodies) are left out,
//! each body's velocity into them taken away (it stops against them), and the rest solved
//! (the squeezed body moves on with the kinematic one); if that has no solution either
//! (two kinematic bodies closing on it), the contacts with every immovable partner are
//! left out the same way. The contacts left out are handed to the push-out for
//! the rest of the step: the event loop treats them as resting contacts, and the end of
//! the step pushes apart what it can (a body pressed into a wall comes back in, next to
//! the kinematic body that pressed it there).

use super::{Partner, SameInstant};
use crate::simulation::Simulation;
use crate::small_lcp::solve;
use glam::DVec2;

impl Simulation {
    /// Solves the squeezed cluster in `s` at step time `t` (see the module docs): applies
    /// what can be solved, hands the rest to the push-out, and counts it in
    /// [`StepStats::squeezed_clusters`](crate::stats::StepStats::squeezed_clusters).
    pub(super) fn squeeze(&mut self, s: &mut SameInstant, t: f64) -> bool {
        s.velocities.clear();
        (s.velocities).extend(s.bodies.iter().map(|&i| self.bodies.hot[i as usize].vel));
        let mut dropped = Vec::new();
        let mut solved = false;
        // First the still partners, then every immovable one.
        for moving_too in [false, true] {
            let hot = &self.bodies.hot;
            let immovable = |p: Partner| match p {
                Partner::Static(..) => true,
                Partner::Body(j) => {
                    let h = &hot[j as usize];
                    h.inv_mass == 0.0 && (moving_too || !h.drives())
                }
            };
            let first = dropped.len();
            dropped.extend(s.contacts.iter().filter(|c| immovable(c.b)).copied());
            s.contacts.retain(|c| !immovable(c.b));
            // A body no longer closes on the partners left out (it stops against a wall,
            // moves on with a kinematic body): the momentum they take is external.
            for c in &dropped[first..] {
                let Some(k) = s.bodies.iter().position(|&b| b == c.a) else {
                    continue;
                };
                let partner = c.b.body().map_or(DVec2::ZERO, |j| hot[j as usize].vel);
                let closing = (partner - s.velocities[k]).dot(c.normal);
                if closing < 0.0 {
                    s.velocities[k] += c.normal * closing;
                    self.stats.external_impulse +=
                        c.normal * (closing / hot[c.a as usize].inv_mass);
                }
            }
            if s.contacts.is_empty() || (dropped.len() == first && moving_too) {
                break;
            }
            self.delassus(s);
            self.closing_now(s);
            // The events report the closing speeds the solve met.
            for (c, &q) in s.contacts.iter_mut().zip(&s.q) {
                c.closing = q;
            }
            s.x.clear();
            s.x.resize(s.contacts.len(), 0.0);
            if solve(&s.a, &s.q, &mut s.x, &mut s.lcp) {
                solved = true;
                break;
            }
        }
        if !solved {
            dropped.append(&mut s.contacts);
            s.x.clear();
        }
        self.push_velocities(s);
        for c in &dropped {
            s.give_up(c);
        }
        self.apply_cluster(s, t, true);
        self.stats.squeezed_clusters += 1;
        true
    }
}
