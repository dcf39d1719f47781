//! Touch tracking: `CollisionStarted` / `CollisionEnded` messages and `CollidingEntities`.

use crate::components::CollidingEntities;
use crate::diagnostics::CollisionDiagnostics;
use crate::events::{CollisionEnded, CollisionStarted};
use crate::world::CircleCollideWorld;
use bevy::prelude::*;
use std::cmp::Ordering;

/// The pairs touching after the previous step, sorted, `a < b`.
#[derive(Resource, Default)]
pub(crate) struct Touching(Vec<(Entity, Entity)>, Asleep);

/// The sleeping bodies after a step, looked up by entity index (a table, not a query:
/// a sleeping pile of 2000 has ~5000 pairs to look up each step).
#[derive(Default)]
struct Asleep {
    /// The sleeping entity at each index, [`Entity::PLACEHOLDER`] elsewhere.
    table: Vec<Entity>,
    /// The indices set, to clear them for the next step.
    set: Vec<u32>,
}

impl Asleep {
    /// Fills the table with the bodies of `world` asleep after its step.
    fn fill(&mut self, world: &CircleCollideWorld) {
        for &k in &self.set {
            self.table[k as usize] = Entity::PLACEHOLDER;
        }
        self.set.clear();
        let bodies = world.simulation().bodies();
        for (i, &e) in world.entities().iter().enumerate() {
            if bodies.is_sleeping(i) {
                let k = e.index_u32();
                if k as usize >= self.table.len() {
                    self.table.resize(k as usize + 1, Entity::PLACEHOLDER);
                }
                self.table[k as usize] = e;
                self.set.push(k);
            }
        }
    }

    /// Whether `e` is a body asleep after the step.
    fn has(&self, e: Entity) -> bool {
        self.table.get(e.index_u32() as usize) == Some(&e)
    }
}

/// Compares this step's touching pairs with the last step's and sends the differences,
/// in sorted pair order; refreshes every [`CollidingEntities`].
///
/// Pairs of two sleeping bodies are never listed by the broad phase; they cannot have
/// moved apart, so a pair that touched and whose bodies both sleep (in the core, after
/// this step) still touches (with no body asleep, there is no such pair to look for).
pub(crate) fn track_touches(
    _main: crate::schedule::MainThread,
    world: Res<CircleCollideWorld>,
    diagnostics: Res<CollisionDiagnostics>,
    mut previous: ResMut<Touching>,
    mut started: MessageWriter<CollisionStarted>,
    mut ended: MessageWriter<CollisionEnded>,
    mut colliding: Query<&mut CollidingEntities>,
) {
    let mut now: Vec<(Entity, Entity)> = world
        .simulation()
        .touching_pairs()
        .iter()
        .map(|&(i, j)| {
            let (a, b) = (world.entity(i), world.entity(j));
            (a.min(b), a.max(b))
        })
        .collect();
    if world.simulation().stats().sleeping > 0 {
        let Touching(old, asleep) = &mut *previous;
        asleep.fill(&world);
        now.extend((old.iter()).filter(|&&(a, b)| asleep.has(a) && asleep.has(b)));
    }
    // The order of `Entity` is that of its bits: sorting by the packed pair is the same
    // order, with one comparison instead of two.
    now.sort_unstable_by_key(|&(a, b)| (u128::from(a.to_bits()) << 64) | u128::from(b.to_bits()));
    now.dedup();
    // The step just run (the diagnostics count it already).
    let step = diagnostics.step.saturating_sub(1);
    // Merge the two sorted lists: only-new pairs started, only-old pairs ended.
    let (old, mut k, mut l) = (&previous.0, 0, 0);
    while k < now.len() || l < old.len() {
        let order = match (now.get(k), old.get(l)) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                started.write(CollisionStarted {
                    a: now[k].0,
                    b: now[k].1,
                    step,
                });
                k += 1;
            }
            Ordering::Greater => {
                ended.write(CollisionEnded {
                    a: old[l].0,
                    b: old[l].1,
                    step,
                });
                l += 1;
            }
            Ordering::Equal => {
                k += 1;
                l += 1;
            }
        }
    }
    if !colliding.is_empty() {
        for mut c in &mut colliding {
            c.0.clear();
        }
        for &(a, b) in &now {
            for (me, other) in [(a, b), (b, a)] {
                if let Ok(mut c) = colliding.get_mut(me) {
                    c.0.insert(other);
                }
            }
        }
    }
    previous.0 = now;
}
