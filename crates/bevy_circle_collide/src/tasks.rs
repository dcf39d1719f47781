//! Bevy's `ComputeTaskPool` as the core's [`Executor`]: the broad phase, the narrow phase
//! and the start-of-step predictions of large worlds, and the large contact solves, run
//! on the pool's threads and on the thread that runs the step.

use bevy::app::TaskPoolOptions;
use bevy::tasks::ComputeTaskPool;
use circle_collide_core::parallel::Executor;

/// Runs the core's parallel jobs on Bevy's `ComputeTaskPool` and on the calling thread:
/// the step's systems run on the thread that runs the schedule, which would otherwise
/// only wait, and Bevy's `scope` lets it run the pool's tasks while it does. So the
/// jobs are as many as the pool's threads plus one, at most the machine's cores: with
/// Bevy's default pools a two-core machine (one compute thread) runs them on both
/// cores. Without a pool, or when that count is one, they run on the calling thread.
/// Results do not depend on the number of threads (see
/// [`circle_collide_core::parallel`]).
///
/// ```
/// use bevy_circle_collide::ComputeTaskPoolExecutor;
/// use circle_collide_core::parallel::Executor;
/// // Without a task pool (no `TaskPoolPlugin`), jobs run on the caller's thread.
/// let ran = std::sync::atomic::AtomicUsize::new(0);
/// ComputeTaskPoolExecutor.run(3, &|_| {
///     ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(ran.into_inner(), 3);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ComputeTaskPoolExecutor;

impl Executor for ComputeTaskPoolExecutor {
    /// The pool's threads plus the calling one, at most the machine's cores (the pool's
    /// threads alone if the cores are unknown); 1 without a pool.
    fn threads(&self) -> usize {
        ComputeTaskPool::try_get().map_or(1, |pool| runners(pool.thread_num(), cores()))
    }

    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        match shared_pool().filter(|_| jobs > 1) {
            Some(pool) => {
                pool.scope(|scope| {
                    for k in 0..jobs {
                        scope.spawn(async move { job(k) });
                    }
                });
            }
            _ => (0..jobs).for_each(job),
        }
    }
}

/// Runs `side` on a thread of the compute pool while the calling thread runs `main`, and
/// returns what `side` returned (`None` only if the pool dropped it). Without a pool of
/// two runners or more (see [`ComputeTaskPoolExecutor`]) both run on the calling thread,
/// `side` first; the calling thread also runs `side` itself if no pool thread took it by
/// the time `main` ended.
pub(crate) fn beside<R: Send>(side: impl FnOnce() -> R + Send, main: impl FnOnce()) -> Option<R> {
    let mut out = None;
    match shared_pool() {
        Some(pool) => {
            pool.scope(|scope| {
                let out = &mut out;
                scope.spawn(async move {
                    *out = Some(side());
                });
                main();
            });
        }
        _ => {
            out = Some(side());
            main();
        }
    }
    out
}

/// The compute pool, if it and the calling thread make two runners or more (work handed
/// to it runs beside the caller's).
fn shared_pool() -> Option<&'static ComputeTaskPool> {
    ComputeTaskPool::try_get().filter(|pool| runners(pool.thread_num(), cores()) > 1)
}

/// The threads that run the jobs: a pool of `pool_threads` and the calling thread, at most
/// `cores` (the pool alone when the cores are unknown), at least one.
fn runners(pool_threads: usize, cores: Option<usize>) -> usize {
    cores
        .map_or(pool_threads, |cores| (pool_threads + 1).min(cores))
        .max(1)
}

/// The machine's cores as the standard library sees them (cgroup limits included), once.
fn cores() -> Option<usize> {
    static CORES: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().ok().map(|n| n.get()))
}

/// Task-pool options that give the compute pool exactly `compute_threads` threads (and
/// one each to the IO and async-compute pools).
///
/// Bevy's default splits the machine's threads between three pools: on two cores the
/// compute pool, where Bevy runs systems, gets one. This engine's jobs use both cores
/// either way (they run on the pool and on the thread that runs the step, see
/// [`ComputeTaskPoolExecutor`]); pass these options to `TaskPoolPlugin` to give the
/// pool, and so your own systems, a size of your choice (the benchmarks give every
/// engine two compute threads):
///
/// ```
/// use bevy::app::TaskPoolPlugin;
/// use bevy::prelude::*;
/// use bevy_circle_collide::task_pool_options;
///
/// let mut app = App::new();
/// app.add_plugins(MinimalPlugins.set(TaskPoolPlugin {
///     task_pool_options: task_pool_options(2),
/// }));
/// ```
pub fn task_pool_options(compute_threads: usize) -> TaskPoolOptions {
    let compute_threads = compute_threads.max(1);
    let mut options = TaskPoolOptions::with_num_threads(compute_threads + 2);
    options.io.max_threads = 1;
    options.async_compute.max_threads = 1;
    options.compute.min_threads = compute_threads;
    options.compute.max_threads = compute_threads;
    options
}

#[cfg(test)]
mod tests {
    use super::runners;

    /// The jobs' threads: the pool's and the calling one, within the cores.
    #[test]
    fn runners_are_the_pool_and_the_caller_within_the_cores() {
        assert_eq!(runners(1, Some(2)), 2, "Bevy's default pool on two cores");
        assert_eq!(runners(2, Some(2)), 2, "no more jobs than cores");
        assert_eq!(runners(4, Some(8)), 5);
        assert_eq!(runners(1, Some(1)), 1);
        assert_eq!(runners(0, Some(8)), 1, "a pool without threads: the caller");
        assert_eq!(runners(3, None), 3, "unknown cores: the pool alone");
        assert_eq!(runners(0, None), 1);
    }
}
