//! The parallel phases give bit-identical results to a serial run, whatever the threads
//! and whatever order the executor runs the jobs in.

use circle_collide_core::parallel::{Executor, PARALLEL_MIN_BODIES};
use circle_collide_core::{Simulation, scenes};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs the jobs on two scoped threads, each taking its share backwards, and counts the
/// batches it was given.
#[derive(Default)]
struct TwoThreadsBackwards {
    batches: AtomicUsize,
}

impl Executor for TwoThreadsBackwards {
    fn threads(&self) -> usize {
        2
    }

    fn run(&self, jobs: usize, job: &(dyn Fn(usize) + Sync)) {
        self.batches.fetch_add(1, Ordering::Relaxed);
        std::thread::scope(|s| {
            s.spawn(|| (0..jobs).rev().step_by(2).for_each(job));
            (0..jobs).rev().skip(1).step_by(2).for_each(job);
        });
    }
}

/// Everything a step produces that the parallel phases feed.
fn fingerprint(sim: &Simulation) -> String {
    format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}",
        sim.bodies().positions().collect::<Vec<_>>(),
        sim.bodies().velocities().collect::<Vec<_>>(),
        sim.impacts(),
        sim.candidate_pairs(),
        sim.contacts(),
    )
}

/// The threshold these tests lower the default to, so that mid-sized worlds run as jobs.
const MIN_BODIES: usize = 2048;

#[test]
fn parallel_steps_are_bit_identical_to_serial() {
    let n = MIN_BODIES + 500;
    // The gas runs its broad phase and its predictions as jobs every step; the pile, whose
    // bodies start apart and at rest, has too little to predict in its first steps.
    for (scene, least_batches) in [(scenes::gas(n, 0.3, 10.0), 80), (scenes::pile(n), 60)] {
        let mut serial = scene.simulation();
        let mut parallel = scene.simulation();
        let executor = Arc::new(TwoThreadsBackwards::default());
        parallel.set_executor(executor.clone());
        parallel.set_parallel_min_bodies(MIN_BODIES);
        for step in 0..40 {
            serial.step(scenes::DT);
            parallel.step(scenes::DT);
            assert_eq!(fingerprint(&serial), fingerprint(&parallel), "step {step}");
        }
        // The narrow phase runs as jobs too once there are enough candidate pairs.
        let batches = executor.batches.load(Ordering::Relaxed);
        assert!(batches >= least_batches, "{batches} batches");
        assert!(serial.stats().impacts + serial.stats().contacts > 0);
    }
}

/// A large contact solve's passes run in colour order on the executor's threads: a pile
/// of 4000, once landed (solves of over `COLOURED_CONTACTS`), steps bit for bit as serially.
#[test]
fn large_contact_solves_on_two_threads_are_bit_identical() {
    let scene = scenes::pile(4000);
    let mut serial = scene.simulation();
    let mut parallel = scene.simulation();
    let executor = Arc::new(TwoThreadsBackwards::default());
    parallel.set_executor(executor.clone());
    let mut largest = 0;
    for step in 0..150 {
        serial.step(scenes::DT);
        parallel.step(scenes::DT);
        largest = largest.max(serial.stats().resting_contacts);
        if step % 25 == 24 {
            assert_eq!(fingerprint(&serial), fingerprint(&parallel), "step {step}");
        }
    }
    assert!(
        largest >= circle_collide_core::contacts::COLOURED_CONTACTS,
        "largest solve {largest} contacts"
    );
    // Below the bodies' threshold only the solver hands work to the executor.
    assert!(executor.batches.load(Ordering::Relaxed) > 0);
}

/// Below a quarter of `PARALLEL_MIN_BODIES` a world runs serially; from there up to the
/// threshold only the broad phase's pair listing runs as jobs (one batch a step); the
/// threshold is the simulation's.
#[test]
fn small_worlds_stay_serial() {
    let mut sim = scenes::gas(PARALLEL_MIN_BODIES / 4 - 1, 0.3, 10.0).simulation();
    let executor = Arc::new(TwoThreadsBackwards::default());
    sim.set_executor(executor.clone());
    sim.step(scenes::DT);
    assert_eq!(executor.batches.load(Ordering::Relaxed), 0);
    let mut listed = scenes::gas(PARALLEL_MIN_BODIES - 1, 0.3, 10.0).simulation();
    let listing = Arc::new(TwoThreadsBackwards::default());
    listed.set_executor(listing.clone());
    listed.step(scenes::DT);
    assert_eq!(listing.batches.load(Ordering::Relaxed), 1);
    // Lowered, the small world runs as jobs, in every phase.
    sim.set_parallel_min_bodies(MIN_BODIES);
    sim.step(scenes::DT);
    assert!(executor.batches.load(Ordering::Relaxed) > 1);
}

/// A batch of bodies added on two threads (`Simulation::add_bodies_from`) gives the very
/// bodies, indices, keys, repairs and outcomes of adding them one by one — with bodies
/// that need a repair, bodies without a key, bodies that cannot be added in either half
/// (the second half is then added again after the first) and an index out of range —
/// and the same steps after.
#[test]
fn a_batch_added_on_two_threads_is_the_bodies_added_one_by_one() {
    use circle_collide_core::BodyDesc;
    let scene = scenes::gas(3000, 0.3, 10.0);
    let n = scene.bodies.len();
    for bad in [None, Some(n / 5), Some(4 * n / 5)] {
        let mut descs: Vec<BodyDesc> = scene.bodies.clone();
        for (k, d) in descs.iter_mut().enumerate() {
            d.key = (k % 7 != 0).then_some(10 * k as u64 + 1);
            if k % 101 == 0 {
                d.restitution = 1.5; // clamped to 1
            }
        }
        if let Some(k) = bad {
            descs[k].radius = f64::NAN;
        }
        // A fixed scatter of the descriptions, and one index that names none (in the
        // second half: the first half is added again only for the bad body there).
        let mut order: Vec<u32> = (0..n as u32).map(|k| (k * 1237) % n as u32).collect();
        order.insert(2 * n / 3, n as u32 + 5);
        let mut serial = Simulation::new(scene.config.clone());
        let one_by_one: Vec<_> = (order.iter())
            .map(|&i| match descs.get(i as usize) {
                Some(d) => serial.add_body_from(d),
                None => Err(circle_collide_core::AddBodyError::Invalid(
                    circle_collide_core::InputIssues::NONE,
                )),
            })
            .collect();
        let mut batch = Simulation::new(scene.config.clone());
        let executor = Arc::new(TwoThreadsBackwards::default());
        batch.set_executor(executor.clone());
        batch.set_parallel_min_bodies(MIN_BODIES);
        let mut outcomes = Vec::new();
        batch.add_bodies_from(&descs, &order, &mut outcomes);
        assert_eq!(executor.batches.load(Ordering::Relaxed), 1, "not shared");
        assert_eq!(outcomes, one_by_one, "bad body at {bad:?}");
        assert_eq!(
            format!("{:?}", batch.bodies()),
            format!("{:?}", serial.bodies()),
            "bad body at {bad:?}"
        );
        assert!(outcomes.iter().filter(|o| o.is_err()).count() == 1 + usize::from(bad.is_some()));
        for step in 0..20 {
            serial.step(scenes::DT);
            batch.step(scenes::DT);
            assert_eq!(fingerprint(&serial), fingerprint(&batch), "step {step}");
        }
    }
}
