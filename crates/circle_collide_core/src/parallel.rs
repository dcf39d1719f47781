//! Optional parallelism for the data-parallel parts of a step.
//!
//! The core has no thread pool of its own: whoever owns the [`Simulation`] may hand it an
//! [`Executor`] (the Bevy plugin passes one backed by Bevy's `ComputeTaskPool`). The broad
//! phase, the narrow phase and the start-of-step predictions then run as independent jobs
//! over fixed chunks whose outputs are joined in chunk order, so the result is
//! bit-identical whatever the number of threads. The in-step event loop is sequential by
//! nature (each impact depends on the one before) and always runs on the caller's thread.
//!
//! [`Simulation`]: crate::Simulation

use std::sync::{Arc, Mutex, PoisonError};

/// Worlds smaller than this many bodies run every phase serially: below it, handing work
/// to other threads costs more than it saves.
pub const PARALLEL_MIN_BODIES: usize = 2048;

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

/// The executor a simulation uses; [`Serial`] by default.
#[derive(Clone)]
pub(crate) struct ExecutorHandle(pub Arc<dyn Executor>);

impl Default for ExecutorHandle {
    fn default() -> Self {
        Self(Arc::new(Serial))
    }
}

impl std::fmt::Debug for ExecutorHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Executor({} threads)", self.0.threads())
    }
}

impl ExecutorHandle {
    /// Number of chunks to split `items` work items into: one when serial or small,
    /// otherwise a few per thread (for balance), each at least 256 items.
    pub fn chunks(&self, bodies: usize, items: usize) -> usize {
        let threads = self.0.threads();
        if threads <= 1 || bodies < PARALLEL_MIN_BODIES {
            1
        } else {
            (4 * threads).min(items.div_ceil(256)).max(1)
        }
    }

    /// Runs `f(k)` for `k` in `0..jobs` through the executor and returns the results in
    /// job order. A job the executor failed to run is run here, so nothing is lost.
    pub fn map<T: Send>(&self, jobs: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
        if jobs <= 1 {
            return (0..jobs).map(f).collect();
        }
        let slots: Vec<Mutex<Option<T>>> = (0..jobs).map(|_| Mutex::new(None)).collect();
        self.0.run(jobs, &|k| {
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
