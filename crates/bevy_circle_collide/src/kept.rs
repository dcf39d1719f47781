//! The gather that keeps, from the last step, the bodies nobody changed since.
//!
//! The full gather describes every body from its components and adds the descriptions
//! to the core in canonical order. In a gas of 10,000 circles the game changed no body
//! since the last write-back, whose own writes are what the core already holds. This
//! gather walks the query's change ticks instead and describes only the bodies some
//! other system changed (or added a component to) since the last gather; while it does,
//! another thread computes the canonical order of the core's bodies and
//! [keeps](circle_collide_core::kept_bodies) every one of them in that order, exactly as
//! a description read from the ECS would add it (the rest time in `SleepState`'s `f32`).
//! The descriptions read are then written over their bodies.
//!
//! It runs beside the canonical order's computation, so only in worlds large enough for
//! that ([`ORDER_AHEAD_MIN_BODIES`](crate::world::ORDER_AHEAD_MIN_BODIES)), and pauses
//! for [`KEPT_PAUSE`] steps (full gathers, longer each time it finds the same) once it
//! finds that the game changed more than a quarter of the bodies (a crowd steered every
//! frame: the full gather, on two threads, is cheaper then). It is used only when
//! nothing else could have changed: the same bodies in the same query order as at the
//! last gather, none of them skipped, none moved or resized by the game, no component
//! removed, the configuration, the core and the [`ContactMemory`](crate::ContactMemory)
//! untouched since the write-back, and no `Transform` changed by another system between
//! the gather and the write-back (whose write could hide it). Otherwise the full gather
//! runs. Results are the same bits either way (`kept_tests.rs` steps both side by side
//! through every kind of change).

use crate::body_read::{BodyQuery, Rules, TickQuery, any_changed, describe, opted_in};
use crate::integrate::{order_of_core, record_added};
use crate::world::CircleCollideWorld;
use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::SystemChangeTick;
use bevy::prelude::*;
use circle_collide_core::kept_bodies::KeptBodies;
use circle_collide_core::{BodyDesc, InputIssues};
use std::sync::atomic::{AtomicBool, Ordering};

/// The kept gather's scratch, kept between steps for its allocations.
#[derive(Default)]
pub(crate) struct KeptScratch {
    /// The query indices of the bodies read, and their descriptions.
    read: Vec<u32>,
    descs: Vec<BodyDesc>,
    /// The core's bodies kept in this step's order.
    kept: KeptBodies,
    /// Each core body's index in this step's order.
    slots: Vec<u32>,
}

/// A kept gather that finds more than one body in this many changed gives way to the
/// full gather, and pauses.
const KEPT_MAX_READ: usize = 4;

/// The steps the first pause lasts (full gathers), before the kept gather is tried
/// again; each pause after one that did not end in a kept gather is twice as long (plus
/// one), up to [`KEPT_PAUSE_MAX`].
pub(crate) const KEPT_PAUSE: u32 = 15;

/// The longest pause.
const KEPT_PAUSE_MAX: u32 = 255;

/// Rebuilds the core's bodies keeping those nobody changed since the last write-back
/// (see the [module](self)); `false`, with the core and the gather's lists as they were,
/// if it cannot (the full gather must run).
pub(crate) fn gather_kept(
    world: &mut CircleCollideWorld,
    bodies: &Query<BodyQuery>,
    changes: &Query<TickQuery>,
    rules: &Rules,
    ticks: &SystemChangeTick,
) -> bool {
    let Some(written) = world.written_tick else {
        return false;
    };
    let n = world.gathered.len();
    if bodies.iter().len() != n || changes.iter().len() != n {
        return false;
    }
    // Changed by someone else than the write-back since the last gather.
    let (last_run, this_run) = (ticks.last_run(), ticks.this_run());
    let changed = |t: Tick| t != written && t.is_newer_than(last_run, this_run);
    let mut scratch = std::mem::take(&mut world.kept_scratch);
    scratch.read.clear();
    scratch.descs.clear();
    let mut gathered = std::mem::take(&mut world.gathered);
    let mut inputs = std::mem::take(&mut world.order_inputs);
    let mut vacated = Vec::new();
    let mut same = true;
    let (sim, last_index) = (&world.sim, &world.core_index);
    let (read, descs) = (&mut scratch.read, &mut scratch.descs);
    let most = gathered.len() / KEPT_MAX_READ;
    let mut many = false;
    // Set when the walk gives way: the other thread then skips keeping the bodies.
    let given_up = AtomicBool::new(false);
    let walk = || {
        let mut last = gathered.iter_mut().zip(last_index).enumerate();
        // Internal iteration (a `for` loop's `next` copies the fetch state of the fifteen
        // components for every body).
        changes.iter().for_each(|ticks| {
            let Some((i, (g, &j))) = last.next().filter(|(_, (g, _))| same && ticks.0 == g.0)
            else {
                same = false;
                given_up.store(true, Ordering::Relaxed);
                return;
            };
            if j != u32::MAX && !any_changed(&ticks, changed) {
                g.2 = InputIssues::NONE;
                return;
            }
            // The game changed it: read it (a few bodies; too many, and the full gather
            // reads them all).
            match bodies.get(ticks.0) {
                Ok(item) if read.len() < most => {
                    let (desc, issues) = describe(&item, rules, &mut vacated);
                    *g = (item.0, opted_in(&item), issues);
                    read.push(i as u32);
                    descs.push(desc);
                }
                _ => {
                    (same, many) = (false, true);
                    given_up.store(true, Ordering::Relaxed);
                }
            }
        });
    };
    // `SleepState` keeps the rest time in `f32`.
    let rest_time = |t: f64| f64::from(t as f32);
    let (kept, slots) = (&mut scratch.kept, &mut scratch.slots);
    // The order of the core's bodies in query indices; `slots` gets each core body's new
    // index.
    let keep = || -> Option<Vec<u32>> {
        let (order, picks) = order_of_core(sim.bodies(), last_index, &mut inputs)?;
        if given_up.load(Ordering::Relaxed) {
            return None;
        }
        sim.keep_bodies(&picks, rest_time, kept);
        slots.clear();
        slots.resize(picks.len(), 0);
        for (k, &j) in picks.iter().enumerate() {
            slots[j as usize] = k as u32;
        }
        Some(order)
    };
    let ahead = crate::tasks::beside(keep, walk).flatten();
    // The order of the core's bodies is this step's if every body read is where the core
    // has it.
    let ahead = ahead.filter(|_| {
        same && inputs.len() == gathered.len()
            && (read.iter().zip(descs.iter()))
                .all(|(&i, d)| inputs.matches(last_index[i as usize] as usize, d))
    });
    world.order_inputs = inputs;
    let mut outcomes = std::mem::take(&mut world.added);
    let slots = &scratch.slots;
    let installed = ahead.filter(|_| {
        let described: Vec<(u32, &BodyDesc)> = (read.iter().zip(descs.iter()))
            .map(|(&i, d)| (slots[last_index[i as usize] as usize], d))
            .collect();
        world
            .sim
            .install_kept(&mut scratch.kept, &described, &mut outcomes)
    });
    world.added = outcomes;
    let Some(order) = installed else {
        if many {
            // The game changes many bodies every step (a steered crowd): the full
            // gather is cheaper for a while.
            world.kept_pause = world.kept_pause_len;
            world.kept_pause_len = (2 * world.kept_pause_len + 1).min(KEPT_PAUSE_MAX);
        }
        (world.gathered, world.kept_scratch) = (gathered, scratch);
        return false;
    };
    world.order_ahead = true;
    world.kept_pause_len = KEPT_PAUSE;
    // What rested on a body the game moved wakes (queued in query order).
    for (center, radius) in vacated {
        world.sim.wake_around(center, radius);
    }
    let outcomes = std::mem::take(&mut world.added);
    record_added(world, &order, &outcomes, &gathered);
    world.added = outcomes;
    world.last_order = order;
    (world.gathered, world.kept_scratch) = (gathered, scratch);
    true
}
