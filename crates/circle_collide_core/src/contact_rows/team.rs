//! Runs a solve's phases on the executor's threads in one call of the executor.
//!
//! The work is a sequence of groups of units: the units of one group are independent of
//! each other, and every unit depends on all the groups before its own. The jobs go
//! through the groups in order; in each, the first job claims units from the front and
//! the others from the back, and before its first unit of a group a job waits (spinning)
//! until the groups before it have finished. A unit waited for was claimed earlier, so a
//! job is running it: the jobs cannot deadlock, and one job alone does everything when
//! the executor runs the jobs one after the other. Handing each group to the executor
//! separately would cost more than the groups (a pool thread takes tens of microseconds
//! to wake; `docs/contacts.md`, "The passes split over two threads").
//!
//! Claiming from the two ends keeps a unit on the same thread from one group and one
//! period to the next (with two threads, all but the units where they meet), so what a
//! unit wrote in one group is read from the same core in the next (measured on the
//! conjugate gradients' blocks of rows when they ran here, before the twenty-seventh
//! session: `docs/performance.md`, "Each thread keeps its units").

use crate::parallel::Executor;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Where a gate stopped the work: (period, group).
pub(super) type Stop = Option<(usize, usize)>;

/// Runs `periods` repetitions of the groups whose unit counts `groups` lists: for each
/// group, once the groups before it have finished, `gate(period, group)` decides whether
/// the work goes on (it must give the same answer on every thread: it may read only
/// what earlier groups wrote); then `work(period, group, unit)` runs each of the group's
/// units, on any thread. Returns the first (period, group) whose gate said no.
///
/// What the units write must be atomics or behind locks; the counter of finished units
/// (acquire and release) orders a group's writes before the next group's reads. A unit
/// that panics stops the jobs (they would wait for it forever); the executor passes the
/// panic on.
pub(super) fn run_groups(
    executor: &dyn Executor,
    groups: &[usize],
    periods: usize,
    gate: &(dyn Fn(usize, usize) -> bool + Sync),
    work: &(dyn Fn(usize, usize, usize) + Sync),
) -> Stop {
    let per_period: usize = groups.iter().sum();
    if per_period * periods == 0 {
        return None;
    }
    // The units of each group instance (period, group) not yet claimed, `front..back`
    // packed in one word: the first job claims from the front, the others from the back.
    let left: Vec<AtomicU64> = (0..periods)
        .flat_map(|_| groups.iter().map(|&n| AtomicU64::new((n as u64) << 32)))
        .collect();
    let (done, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let stopped = Mutex::new(None);
    let wait = |need: usize| {
        let mut spins = 0u32;
        while done.load(Ordering::Acquire) < need {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        true
    };
    let jobs = executor.threads().max(1);
    executor.run(jobs, &|job| {
        let _stop_on_panic = StopOnPanic(&stop);
        let front = job == 0;
        let mut before = 0; // units of the group instances before this one
        for period in 0..periods {
            for (group, &n) in groups.iter().enumerate() {
                let slot = &left[period * groups.len() + group];
                let mut gated = false;
                while let Some(unit) = claim(slot, front) {
                    if !gated {
                        if !wait(before) {
                            return;
                        }
                        if !gate(period, group) {
                            let mut s = stopped.lock().unwrap_or_else(|e| e.into_inner());
                            // Every job reaching a gate reaches the same first one.
                            s.get_or_insert((period, group));
                            stop.store(true, Ordering::Relaxed);
                            return;
                        }
                        gated = true;
                    }
                    work(period, group, unit);
                    done.fetch_add(1, Ordering::Release);
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                before += n;
            }
        }
    });
    stopped.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Claims a unit of a group instance whose unclaimed units are `front..back` in `slot`:
/// the front one, or with `front` false the back one; `None` once none is left.
fn claim(slot: &AtomicU64, front: bool) -> Option<usize> {
    let mut cur = slot.load(Ordering::Relaxed);
    loop {
        let (f, b) = (cur & 0xFFFF_FFFF, cur >> 32);
        if f >= b {
            return None;
        }
        let (next, unit) = if front {
            (cur + 1, f)
        } else {
            (cur - (1 << 32), b - 1)
        };
        match slot.compare_exchange_weak(cur, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(unit as usize),
            Err(now) => cur = now,
        }
    }
}

/// Raises the stop flag when dropped by a panic.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// Two scoped threads, each taking every other job (for tests).
#[cfg(test)]
pub(super) struct Two;

#[cfg(test)]
impl Executor for Two {
    fn threads(&self) -> usize {
        2
    }
    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        std::thread::scope(|s| {
            s.spawn(|| (1..jobs).step_by(2).for_each(job));
            (0..jobs).step_by(2).for_each(job);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::Serial;

    /// The front claimer takes 0, 1, …, the back one n − 1, n − 2, …, until they meet;
    /// then nothing is left for either.
    #[test]
    fn claims_come_from_both_ends_until_they_meet() {
        let slot = AtomicU64::new(5 << 32);
        let taken: Vec<_> = [true, false, true, false, false, true]
            .into_iter()
            .map(|front| claim(&slot, front))
            .collect();
        assert_eq!(taken, [Some(0), Some(4), Some(1), Some(3), Some(2), None]);
        assert_eq!(claim(&slot, true), None);
    }

    /// Each group doubles what the group before left in every cell, unit by unit, and a
    /// gate stops the work once a cell passes 1000: any unit running before the group
    /// before it finished would read a stale value and the totals would differ.
    #[test]
    fn groups_run_in_order_and_stop_at_the_first_closed_gate() {
        for executor in [&Serial as &dyn Executor, &Two] {
            let cells: Vec<AtomicU64> = (0..8).map(|_| AtomicU64::new(1)).collect();
            let copy: Vec<AtomicU64> = (0..8).map(|_| AtomicU64::new(0)).collect();
            // Group 0 copies every cell, group 1 writes back twice the copy of its
            // neighbour (so units of one group read what the other group's units wrote).
            let stop = run_groups(
                executor,
                &[8, 4],
                100,
                &|_, group| group == 1 || cells[0].load(Ordering::Relaxed) < 1000,
                &|_, group, unit| {
                    if group == 0 {
                        copy[unit].store(cells[unit].load(Ordering::Relaxed), Ordering::Relaxed);
                    } else {
                        for k in [2 * unit, 2 * unit + 1] {
                            let v = copy[(k + 1) % 8].load(Ordering::Relaxed);
                            cells[k].store(2 * v, Ordering::Relaxed);
                        }
                    }
                },
            );
            // 1 → 1024 after ten periods; the eleventh period's first gate stops.
            assert_eq!(stop, Some((10, 0)));
            assert!(cells.iter().all(|c| c.load(Ordering::Relaxed) == 1024));
        }
    }

    /// A unit that panics on one of two threads (the first unit of the second group,
    /// which the other thread's next units wait for): the panic reaches the caller
    /// instead of the other thread waiting for that unit forever.
    #[test]
    fn a_panicking_unit_stops_the_work_and_the_panic_reaches_the_caller() {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let result = std::panic::catch_unwind(|| {
                run_groups(&Two, &[2, 2], 1000, &|_, _| true, &|period, group, unit| {
                    if (period, group, unit) == (3, 1, 0) {
                        panic!("unit failed");
                    }
                })
            });
            let _ = send.send(result.is_err());
        });
        let panicked = receive.recv_timeout(std::time::Duration::from_secs(20));
        assert_eq!(panicked, Ok(true), "the run hung or did not panic");
    }
}
