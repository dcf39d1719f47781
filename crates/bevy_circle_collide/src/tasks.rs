//! Bevy's `ComputeTaskPool` as the core's [`Executor`]: the broad phase, the narrow phase
//! and the start-of-step predictions of large worlds run on the pool's threads.

use bevy::tasks::ComputeTaskPool;
use circle_collide_core::parallel::Executor;

/// Runs the core's parallel jobs on Bevy's `ComputeTaskPool`, or on the calling thread
/// when the pool is missing or has a single thread. Results do not depend on the number
/// of threads (see [`circle_collide_core::parallel`]).
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
