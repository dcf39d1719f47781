//! Runs a solve's phases on the executor's threads in one call of the executor.
//!
//! The work is a sequence of groups of units: the units of one group are independent of
//! each other, and every unit depends on all the groups before its own. Each job claims
//! the next unit from one counter and waits (spinning) until the groups before it have
//! finished. A unit waited for was claimed earlier, so a job is running it: the jobs
//! cannot deadlock, and one job alone does everything when the executor runs the jobs
//! one after the other. Handing each group to the executor separately would cost more
//! than the groups (a pool thread takes tens of microseconds to wake; `docs/contacts.md`,
//! "The passes split over two threads").

use crate::parallel::Executor;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    // Units before each group within a period, and per period.
    let mut starts = Vec::with_capacity(groups.len());
    let mut per_period = 0;
    for &n in groups {
        starts.push(per_period);
        per_period += n;
    }
    let total = per_period * periods;
    if total == 0 {
        return None;
    }
    // The group of each unit within a period.
    let group_of: Vec<(usize, usize)> = (groups.iter().enumerate())
        .flat_map(|(g, &n)| (0..n).map(move |k| (g, k)))
        .collect();
    let (next, done, stop) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicBool::new(false),
    );
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
    executor.run(jobs, &|_| {
        let _stop_on_panic = StopOnPanic(&stop);
        loop {
            let u = next.fetch_add(1, Ordering::Relaxed);
            if u >= total || stop.load(Ordering::Relaxed) {
                return;
            }
            let (period, (group, unit)) = (u / per_period, group_of[u % per_period]);
            if !wait(period * per_period + starts[group]) {
                return;
            }
            if !gate(period, group) {
                let mut s = stopped.lock().unwrap_or_else(|e| e.into_inner());
                // Every job reaching a gate reaches the same first one.
                s.get_or_insert((period, group));
                stop.store(true, Ordering::Relaxed);
                return;
            }
            work(period, group, unit);
            done.fetch_add(1, Ordering::Release);
        }
    });
    stopped.into_inner().unwrap_or_else(|e| e.into_inner())
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
    use std::sync::atomic::AtomicU64;

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
