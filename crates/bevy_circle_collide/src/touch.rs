//! Touch tracking: `CollisionStarted` / `CollisionEnded` messages and `CollidingEntities`.

use crate::components::CollidingEntities;
use crate::diagnostics::CollisionDiagnostics;
use crate::events::{CollisionEnded, CollisionStarted};
use crate::sleep::SleepState;
use crate::world::CircleCollideWorld;
use bevy::prelude::*;
use std::cmp::Ordering;

/// The pairs touching after the previous step, sorted, `a < b`.
#[derive(Resource, Default)]
pub(crate) struct Touching(Vec<(Entity, Entity)>);

/// Compares this step's touching pairs with the last step's and sends the differences,
/// in sorted pair order; refreshes every [`CollidingEntities`].
///
/// Pairs of two sleeping bodies are never listed by the broad phase; they cannot have
/// moved apart, so a pair that touched and whose bodies both sleep still touches (with
/// no body asleep, there is no such pair to look for).
pub(crate) fn track_touches(
    world: Res<CircleCollideWorld>,
    diagnostics: Res<CollisionDiagnostics>,
    mut previous: ResMut<Touching>,
    sleep: Query<&SleepState>,
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
        let asleep = |e: Entity| sleep.get(e).is_ok_and(|s| s.sleeping);
        now.extend((previous.0.iter()).filter(|&&(a, b)| asleep(a) && asleep(b)));
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
