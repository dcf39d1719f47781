//! The engine's parallel jobs run on Bevy's compute pool and on the thread that runs the
//! step: with Bevy's default pools a two-core machine gets one compute thread, and the
//! jobs still run on two threads. (Its own test binary: the pools are process-wide, and
//! this one must be built with a single compute thread.)

mod common;

use bevy::tasks::ComputeTaskPool;
use bevy_circle_collide::ComputeTaskPoolExecutor;
use circle_collide_core::parallel::Executor;
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Two jobs that each wait until both have started: they can only both finish in time if
/// they run at once, on two threads (the pool's one and the caller).
#[test]
fn a_one_thread_pool_and_the_caller_run_two_jobs_at_once() {
    let _app = common::bare_app(1);
    assert_eq!(ComputeTaskPool::get().thread_num(), 1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let executor = ComputeTaskPoolExecutor;
    if cores < 2 {
        assert_eq!(executor.threads(), 1, "one core: the caller alone");
        return;
    }
    assert_eq!(executor.threads(), 2);
    let (started, threads) = (AtomicUsize::new(0), Mutex::new(HashSet::new()));
    let together = AtomicUsize::new(0);
    executor.run(2, &|_| {
        threads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(std::thread::current().id());
        started.fetch_add(1, Ordering::SeqCst);
        let since = Instant::now();
        // No panic inside a task: give up after a while and let the asserts below fail.
        while started.load(Ordering::SeqCst) < 2 && since.elapsed() < Duration::from_secs(20) {
            std::hint::spin_loop();
        }
        if started.load(Ordering::SeqCst) == 2 {
            together.fetch_add(1, Ordering::SeqCst);
        }
    });
    let threads = threads.into_inner().unwrap_or_else(|e| e.into_inner());
    assert_eq!(
        threads.len(),
        2,
        "the jobs ran on {} thread(s)",
        threads.len()
    );
    assert!(
        threads.contains(&std::thread::current().id()),
        "the caller ran one"
    );
    assert_eq!(together.into_inner(), 2, "both jobs saw the other start");
}
