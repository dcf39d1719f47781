//! Bevy's `ComputeTaskPool` as the core's [`Executor`]: the broad phase, the narrow phase
//! and the start-of-step predictions of large worlds run on the pool's threads.

use bevy::app::TaskPoolOptions;
use bevy::tasks::ComputeTaskPool;
use circle_collide_core::parallel::Executor;

/// Runs the core's parallel jobs on Bevy's `ComputeTaskPool` when it has more than one
/// thread, on the calling thread otherwise (no pool, or a single compute thread). Results
/// do not depend on the number of threads (see [`circle_collide_core::parallel`]).
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
    /// The pool's threads. With one compute thread (what Bevy gives a two-core machine by
    /// default: one thread each for IO and async compute) the jobs run serially on the
    /// calling thread; see [`task_pool_options`].
    fn threads(&self) -> usize {
        ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num().max(1))
    }

    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        match ComputeTaskPool::try_get() {
            Some(pool) if pool.thread_num() > 1 && jobs > 1 => {
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

/// Task-pool options that give the compute pool exactly `compute_threads` threads (and
/// one each to the IO and async-compute pools).
///
/// Bevy's default splits the machine's threads between three pools: on two cores the
/// compute pool — where systems and this engine's parallel jobs run (the engine's own
/// systems run on the main thread) — gets one. Pass
/// these options to `TaskPoolPlugin` to let the engine use both cores:
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
