//! Optional parallelism for the data-parallel parts of a step.
//!
//! The core has no thread pool of its own: whoever owns the [`Simulation`] may hand it an
//! [`Executor`] (the Bevy plugin passes one backed by Bevy's `ComputeTaskPool`). The broad
//! phase, the narrow phase and the start-of-step predictions then run as independent jobs
//! over fixed chunks whose outputs are joined in chunk order, so the result is
//! bit-identical whatever the number of threads. The in-step event loop is sequential by
//! nature (each impact depends on the one before) and runs on the caller's thread, but for
//! the passes of a large contact solve (8192 smooth contacts or more, 4096 with
//! friction), which take their rows in colour order, the rows of one colour shared out
//! between the threads — the same results, bit for bit, on any number of threads. (The
//! conjugate-gradient correction ran on the threads too until the twenty-seventh session;
//! its Gauss–Seidel preconditioner runs on the caller's.)
//!
//! [`Simulation`]: crate::Simulation

use std::sync::{Arc, Mutex, PoisonError};

/// By default, worlds smaller than this many bodies run every phase serially: below it,
/// handing work to other threads costs more than it saves
/// ([`Simulation::set_parallel_min_bodies`](crate::Simulation::set_parallel_min_bodies)
/// changes it).
///
/// Measured on two cores with two compute threads (2026-11-25, through the Bevy plugin,
/// serial against parallel, three runs each, alternated): crowd of 3000 4.58 against
/// 4.87 ms per step, gas of 10,000 3.45 against 3.74 ms, pile of 10,000 27.8 against
/// 28.4 ms, and no difference beyond the noise at 20,000–40,000; the core alone, gas of
/// 10,000: 1.60 ms on one thread, 1.73–2.28 ms on two. At 100,000 two threads gained about
/// 20 % (22.6 → 18.2 ms). It was 2048 before; a machine with more cores may gain below
/// this (not measured here).
///
/// The broad phase's pair listing, the phase with the most work per body, uses the
/// threads from a quarter of it (4096 bodies by default): measured again on 2026-11-30
/// (thirty-fourth session, through the plugin, five runs alternated) it took the gas of
/// 10,000's broad phase from 0.53–0.54 to 0.43–0.52 ms a step (medians 0.537 → 0.463),
/// while the narrow phase and the predictions on the threads still did not pay there; the
/// crowds of 5000 and 10,000 were level, the pile of 10,000's broad phase 0.716 → 0.738.
pub const PARALLEL_MIN_BODIES: usize = 16_384;

/// Runs independent jobs, possibly on several threads.
///
/// ```
/// use circle_collide_core::parallel::Executor;
///
/// /// Runs the jobs on scoped standard threads, two at a time.
/// struct TwoThreads;
///
/// impl Executor for TwoThreads {
///     fn threads(&self) -> usize {
///         2
///     }
///     fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
///         std::thread::scope(|s| {
///             s.spawn(|| (0..jobs).step_by(2).for_each(job));
///             (1..jobs).step_by(2).for_each(job);
///         });
///     }
/// }
/// ```
pub trait Executor: Send + Sync {
    /// How many threads the jobs can spread over (1 means serial).
    fn threads(&self) -> usize;

    /// Calls `job(k)` once for every `k` in `0..jobs`, in any order and on any threads,
    /// and returns when all calls have returned.
    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync));
}

/// Runs every job on the caller's thread, in order (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Executor for Serial {
    fn threads(&self) -> usize {
        1
    }

    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        (0..jobs).for_each(job);
    }
}

/// The executor a simulation uses ([`Serial`] by default) and the fewest bodies for which
/// it is used ([`PARALLEL_MIN_BODIES`] by default).
#[derive(Clone)]
pub(crate) struct ExecutorHandle {
    pub executor: Arc<dyn Executor>,
    pub min_bodies: usize,
}

impl Default for ExecutorHandle {
    fn default() -> Self {
        Self {
            executor: Arc::new(Serial),
            min_bodies: PARALLEL_MIN_BODIES,
        }
    }
}

impl std::fmt::Debug for ExecutorHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Executor({} threads from {} bodies)",
            self.executor.threads(),
            self.min_bodies
        )
    }
}

impl ExecutorHandle {
    /// Number of chunks to split `items` work items into: one when serial or small,
    /// otherwise a few per thread (for balance), each at least 256 items.
    pub fn chunks(&self, bodies: usize, items: usize) -> usize {
        let threads = self.executor.threads();
        if threads <= 1 || bodies < self.min_bodies {
            1
        } else {
            (4 * threads).min(items.div_ceil(256)).max(1)
        }
    }

    /// [`chunks`](Self::chunks) for the broad phase's pair listing, which uses the threads
    /// from a quarter of the bodies the other phases need (see [`PARALLEL_MIN_BODIES`]).
    pub fn pair_chunks(&self, bodies: usize, items: usize) -> usize {
        self.chunks(bodies.saturating_mul(4), items)
    }

    /// Runs `f(k)` for `k` in `0..jobs` through the executor and returns the results in
    /// job order. A job the executor failed to run is run here, so nothing is lost.
    pub fn map<T: Send>(&self, jobs: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
        if jobs <= 1 {
            return (0..jobs).map(f).collect();
        }
        let slots: Vec<Mutex<Option<T>>> = (0..jobs).map(|_| Mutex::new(None)).collect();
        self.executor.run(jobs, &|k| {
            let out = f(k);
            *slots[k].lock().unwrap_or_else(PoisonError::into_inner) = Some(out);
        });
        slots
            .into_iter()
            .enumerate()
            .map(|(k, slot)| {
                slot.into_inner()
                    .unwrap_or_else(PoisonError::into_inner)
                    .unwrap_or_else(|| f(k))
            })
            .collect()
    }
}

/// The `k`-th of `chunks` near-equal consecutive ranges of `0..len`.
pub(crate) fn chunk_range(len: usize, chunks: usize, k: usize) -> std::ops::Range<usize> {
    (len * k / chunks)..(len * (k + 1) / chunks)
}
