//! Tests of the push-out.

use crate::{Arena, BodyDesc, Simulation, StepConfig};
use glam::DVec2;

fn world(bodies: &[BodyDesc], config: StepConfig) -> Simulation {
    crate::scenes::Scene {
        bodies: bodies.to_vec(),
        config,
    }
    .simulation()
}

/// Pairs overlapping deeper than the slop, by brute force.
fn deep_pairs(sim: &Simulation) -> Vec<(usize, usize, f64)> {
    let b = sim.bodies();
    let slop = sim.config.overlap_slop;
    let mut deep = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let (ri, rj) = (b.radius(i), b.radius(j));
            let depth = ri + rj - b.position(i).distance(b.position(j));
            if depth > slop * ri.min(rj) {
                deep.push((i, j, depth));
            }
        }
    }
    deep
}

/// Asserts that every pair `sim`'s last step left deeper than the slop was counted in
/// `overlaps_left` (`at` names the step in the message).
fn assert_deep_pairs_counted(sim: &Simulation, at: &str) {
    let deep = deep_pairs(sim).len();
    let left = sim.stats().overlaps_left;
    assert!(deep <= left, "{at}: {deep} deep pairs, {left} counted");
}

#[test]
fn a_body_pushed_into_a_partner_it_was_never_paired_with_is_separated() {
    // A and B start 0.4 deep; the push moves B 0.2 to the right, 0.15 into C, whose
    // box was 0.05 clear of B's: the broad phase never paired B and C.
    let mut sim = world(
        &[
            BodyDesc::new(DVec2::new(0.0, 0.0), 0.5, 1.0),
            BodyDesc::new(DVec2::new(0.6, 0.0), 0.5, 1.0),
            BodyDesc::new(DVec2::new(1.65, 0.0), 0.5, 1.0),
        ],
        StepConfig::default(),
    );
    sim.step(1.0 / 60.0);
    assert!(!sim.candidate_pairs().contains(&(1, 2)));
    assert_eq!(deep_pairs(&sim), vec![]);
    assert_eq!(sim.stats().overlaps_left, 0);
    assert!(sim.touching_pairs().contains(&(1, 2)));
    // Equal masses share each push: the centre of mass stays put.
    let centre: DVec2 = (0..3).map(|i| sim.bodies().position(i)).sum::<DVec2>() / 3.0;
    assert!(
        (centre - DVec2::new(2.25 / 3.0, 0.0)).length() < 1e-12,
        "{centre}"
    );
}

/// The runner's `pile_dozer` scene, smaller: a jittered pile of 500 with a kinematic
/// circle of 4 radii sliding along the floor at 4 units/s (the circles it would
/// overlap at the start left out). Its push closes the floor row against the far wall
/// (level normals: no pass can make room), and the push-out's steps that stop at the
/// limit stop at the one without gravity's factor: with it, the first of each run of
/// such steps visited up to eight times as many pairs.
#[test]
fn a_paddle_closing_a_gap_under_gravity_gets_the_limit_without_gravitys_factor() {
    let mut scene = crate::scenes::pile(500);
    let paddle = crate::scenes::floor_dozer(&mut scene, None);
    scene.bodies.push(paddle.with_restitution(0.2));
    let mut sim = scene.simulation();
    let (mut stopped, mut most) = (0, 0.0_f64);
    for _ in 0..360 {
        sim.step(1.0 / 60.0);
        if sim.memory.push_out_limited {
            stopped += 1;
            let (visited, plain_budget) = sim.push_out_work;
            most = most.max(visited as f64 / plain_budget as f64);
        }
    }
    assert!(
        stopped >= 10,
        "the push-out stopped at its limit in {stopped} steps"
    );
    assert!(
        most < 1.2,
        "a stopped step visited {most} times the limit's pairs"
    );
}

#[test]
fn a_light_body_wedged_between_a_static_and_a_heavy_one_is_cleared_in_one_step() {
    // Shared by mass, each pass moves the heavy body 1 % of the depth; even shares in
    // the jammed passes halve it.
    let mut sim = world(
        &[
            BodyDesc::new(DVec2::new(0.0, 0.0), 1.0, f64::INFINITY),
            BodyDesc::new(DVec2::new(1.8, 0.0), 1.0, 0.1),
            BodyDesc::new(DVec2::new(3.6, 0.0), 1.0, 10.0),
        ],
        StepConfig::default(),
    );
    sim.step(1.0 / 60.0);
    assert_eq!(deep_pairs(&sim), vec![]);
    assert_eq!(sim.stats().overlaps_left, 0);
    assert_eq!(sim.bodies().position(0), DVec2::ZERO);
    assert!(sim.bodies().velocities().all(|v| v == DVec2::ZERO));
}

#[test]
fn a_swarm_pulled_together_stays_within_a_few_slops() {
    // 400 circles of the standard gas with restitution 0, pulled toward the centre
    // at 10 units/s² (a top-down swarm chasing a point) for 200 steps: nearly every
    // body is pushed in every jammed pass. Stopped by a budget of about two grid
    // queries per body, the push-out let the swarm sink 0.057 r deep; listing the
    // pairs anew for such passes keeps it at 0.016 r.
    let mut scene = crate::scenes::gas(400, 0.3, 10.0);
    scene.bodies.iter_mut().for_each(|b| b.restitution = 0.0);
    scene.config.resting_speed = Some(0.3);
    let arena = scene.config.arena.as_mut().unwrap();
    arena.restitution = 0.0;
    let centre = (arena.min + arena.max) * 0.5;
    let mut sim = scene.simulation();
    for _ in 0..200 {
        for i in 0..sim.bodies().len() {
            let towards = (centre - sim.bodies().position(i)).normalize_or_zero();
            let v = sim.bodies().velocity(i) + towards * 10.0 / 60.0;
            sim.set_velocity(i as u32, v);
        }
        sim.step(1.0 / 60.0);
    }
    let deep = deep_pairs(&sim);
    let deepest = deep.iter().map(|d| d.2).fold(0.0, f64::max) / 0.5;
    assert!(deepest < 0.03, "deepest overlap {deepest} r");
    assert_eq!(deep.len(), sim.stats().overlaps_left);
}

#[test]
fn a_jam_with_no_room_is_bounded_and_reported() {
    // Two circles of radius 0.6 cannot both fit in a 2 × 2 box (the diagonal leaves
    // centres 1.13 apart): the push-out stops at its limit and says so.
    let config = StepConfig {
        arena: Some(Arena {
            min: DVec2::ZERO,
            max: DVec2::splat(2.0),
            restitution: 1.0,
            friction: 0.0,
        }),
        ..StepConfig::default()
    };
    let mut sim = world(
        &[
            BodyDesc::new(DVec2::new(0.8, 0.8), 0.6, 1.0),
            BodyDesc::new(DVec2::new(1.2, 1.2), 0.6, 1.0),
        ],
        config,
    );
    for _ in 0..3 {
        sim.step(1.0 / 60.0);
        let sunk = (0..2)
            .filter(|&i| {
                let (p, r) = (sim.bodies().position(i), sim.bodies().radius(i));
                p.min_element() < r * 0.99 || p.max_element() > 2.0 - r * 0.99
            })
            .count();
        assert_eq!(deep_pairs(&sim).len() + sunk, sim.stats().overlaps_left);
        assert!(sim.stats().overlaps_left > 0);
        assert!(sim.bodies().positions().all(|p| p.is_finite()));
    }
}

/// The steered crowd of 2000 with a weak contact solver (two passes, so that it
/// jams the push-out every step; the default solver now mostly holds it). Whatever
/// the jam list leaves out, no pair may overlap deeper than the slop without being
/// counted in `overlaps_left` (a pair the list missed would be): checked by brute
/// force.
#[test]
fn the_jam_list_misses_no_deep_pair() {
    let n = 2000;
    let mut sim = crate::scenes::crowd(n, 0.3).simulation();
    sim.config.contact_iterations = 2;
    let centre = DVec2::splat(0.5 * crate::scenes::gas_side(n, 0.3));
    let mut jammed = 0;
    for step in 0..120 {
        crate::scenes::steer_crowd(&mut sim, centre);
        sim.step(crate::scenes::DT);
        if step % 20 != 19 {
            continue;
        }
        jammed += usize::from(sim.stats().overlaps_fixed > n);
        assert_deep_pairs_counted(&sim, &format!("step {step}"));
    }
    assert!(
        jammed > 0,
        "the crowd never jammed the push-out: the test shows nothing"
    );
}

/// Walkers shoving a pile into a wall (a fifth of 600 circles walk left, the pile's
/// jam under gravity): after every step no pair overlaps deeper than the slop unless
/// counted as left — the configured passes test only the pairs of the bodies moved
/// since their last test, and a jam's list (relisted, or from the step's own pairs,
/// also while some bodies sleep) activates only the pairs of the pushed bodies (brute
/// force over every pair, every step, in steps that listed a jam).
#[test]
fn the_push_outs_narrowed_tests_miss_no_deep_pair() {
    let mut sim = crate::scenes::pile(600).simulation();
    let walkers = crate::scenes::walkers(600, 0.2);
    let (mut listing, mut among_sleepers) = (0, 0);
    for step in 0..240 {
        crate::scenes::walk_left(&mut sim, walkers.iter().copied());
        sim.step(crate::scenes::DT);
        if sim.jam.relists == 0 && sim.jam.broad_lists == 0 {
            continue;
        }
        listing += 1;
        // A list from the step's own pairs while some bodies slept at its start: its
        // bodies woken since stand outside their boxes.
        among_sleepers += usize::from(sim.jam.broad_lists > 0 && sim.stats.sleeping_at_start > 0);
        assert_deep_pairs_counted(&sim, &format!("step {step}"));
    }
    assert!(
        listing >= 20 && among_sleepers >= 5,
        "only {listing} steps listed a jam ({among_sleepers} among sleepers): the test shows little"
    );
}

/// Pairs within the slop (brute force) missing from the step's touching list.
fn untold_touching(sim: &Simulation) -> Vec<(u32, u32)> {
    let b = sim.bodies();
    let touching = sim.touching_pairs();
    let mut missing = Vec::new();
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let pair = (i as u32, j as u32);
            if super::within_slop(&sim.bodies, i, j, sim.config.overlap_slop)
                && touching.binary_search(&pair).is_err()
            {
                missing.push(pair);
            }
        }
    }
    missing
}

/// Ten pairs of touching circles of radius 0.5, 4 units apart on the x axis, without
/// gravity, after one step.
fn ten_touching_pairs() -> Simulation {
    let bodies: Vec<BodyDesc> = (0..20)
        .map(|k| {
            let (pair, side) = ((k / 2) as f64, if k % 2 == 0 { -0.5 } else { 0.5 });
            BodyDesc::new(DVec2::new(4.0 * pair + side, 0.0), 0.5, 1.0)
        })
        .collect();
    let config = StepConfig {
        gravity: DVec2::ZERO,
        ..StepConfig::default()
    };
    let mut sim = world(&bodies, config);
    sim.step(1.0 / 60.0);
    sim
}

/// Sets each body's broad-phase box to the square of half-side `half` around it.
fn boxes_around_bodies(sim: &mut Simulation, half: f32) {
    for (i, b) in sim.jam.broad_boxes.iter_mut().enumerate() {
        let p = sim.bodies.hot[i].pos.as_vec2();
        *b = [p.x - half, p.y - half, p.x + half, p.y + half];
    }
}

/// A list from the step's own pairs finds the partner of a body that stands outside its
/// broad-phase box (a pair the step never listed), and gives way when a body inside its
/// box is pushed out of it or one outside moves past the margin.
#[test]
fn a_list_from_the_steps_pairs_covers_bodies_off_their_boxes() {
    // The broad phase's boxes taken as 0.2 wider than the circles all round (as the
    // boxes of moving or speculative bodies are): they list the same pairs.
    let mut sim = ten_touching_pairs();
    assert!(
        sim.pairs.iter().all(|&(i, j)| i % 2 == 0 && j == i + 1),
        "only the pairs were near: {:?}",
        sim.pairs
    );
    boxes_around_bodies(&mut sim, 0.7);
    // Body 0 put half into body 10: outside its box, a pair nobody listed.
    sim.bodies.hot[0].pos = sim.bodies.hot[10].pos + DVec2::new(0.0, 0.5);
    sim.jam.reset();
    sim.active.clear();
    let deep = sim
        .list_from_broad_phase(&[0])
        .expect("one body outside: a list");
    assert!(deep, "the pair deeper than the slop");
    assert!(
        sim.active.contains(&(0, 10)),
        "active pairs {:?}",
        sim.active
    );
    assert!(sim.pairs.contains(&(0, 10)));
    let outside: Vec<usize> = (0..20).filter(|&i| sim.jam.outside[i]).collect();
    assert_eq!(outside, vec![0], "bodies outside their boxes");
    let (slop, allowed) = (sim.config.overlap_slop, sim.allowed_move());
    // Body 5 (inside its box) pushed into body 15: past its box.
    assert!(!sim.jam.moved_past(&sim.bodies, &[5], allowed, slop));
    sim.bodies.hot[5].pos = sim.bodies.hot[15].pos + DVec2::new(0.9, 0.0);
    assert!(sim.jam.moved_past(&sim.bodies, &[5], allowed, slop));
    // The list is kept: body 5's pairs are searched again where it stands.
    assert!(sim.extend_broad_list(&[5]));
    assert!(!sim.jam.moved_past(&sim.bodies, &[5], allowed, slop));
    sim.active.clear();
    assert!(
        sim.touching_jam_pairs(&[5]),
        "the new pair deeper than the slop"
    );
    assert!(
        sim.active.contains(&(5, 15)),
        "active pairs {:?}",
        sim.active
    );
    assert!(sim.pairs.contains(&(5, 15)));
    // Through body 15 too (the pair is in both bodies' lists).
    sim.active.clear();
    sim.touching_jam_pairs(&[15]);
    assert!(
        sim.active.contains(&(5, 15)),
        "active pairs {:?}",
        sim.active
    );
    // Body 0 (outside) moved less, then more, than the margin allows.
    sim.bodies.hot[0].pos.x += 0.5 * allowed;
    assert!(!sim.jam.moved_past(&sim.bodies, &[0], allowed, slop));
    sim.bodies.hot[0].pos.x += allowed;
    assert!(sim.jam.moved_past(&sim.bodies, &[0], allowed, slop));
}

/// In a world with sleepers at the step's start, the broad phase lists no pair of two
/// bodies asleep (or static) then: a list from the step's own pairs takes a body woken
/// since as standing outside its box, so its pairs with bodies still asleep are found.
#[test]
fn a_list_from_the_steps_pairs_finds_the_pairs_of_a_body_woken_since() {
    let mut sim = ten_touching_pairs();
    // As if bodies 10 and 11 had slept when the pairs were listed (so their pair was
    // not), and 10 woke since: 11 still sleeps, 10 is pushed 0.1 into it, inside its box.
    sim.bodies.fall_asleep(10);
    sim.bodies.fall_asleep(11);
    sim.jam.note_broad_boxes(&sim.grid, &sim.bodies, false);
    assert!(
        sim.jam.broad_inactive.is_empty(),
        "no sleepers: nothing noted"
    );
    sim.jam.note_broad_boxes(&sim.grid, &sim.bodies, true);
    let inactive: Vec<usize> = (0..20).filter(|&i| sim.jam.broad_inactive[i]).collect();
    assert_eq!(inactive, vec![10, 11], "the sleepers noted");
    sim.stats.sleeping_at_start = 2;
    sim.pairs.retain(|&pair| pair != (10, 11));
    sim.bodies.wake(10);
    boxes_around_bodies(&mut sim, 0.7);
    sim.bodies.hot[10].pos.x += 0.1;
    sim.jam.reset();
    sim.active.clear();
    let deep = sim
        .list_from_broad_phase(&[10])
        .expect("one body woken: a list");
    let outside: Vec<usize> = (0..20).filter(|&i| sim.jam.outside[i]).collect();
    assert_eq!(outside, vec![10], "the woken body stands outside its box");
    assert!(deep, "the pair deeper than the slop");
    assert!(
        sim.active.contains(&(10, 11)),
        "active pairs {:?}",
        sim.active
    );
    assert!(sim.pairs.contains(&(10, 11)));
}

/// Walkers shoving a pile (a fifth of 600 circles walk left) and a crowd of 600 steered
/// against a wall: in the steps whose push-out made its list from the step's own pairs
/// (`list_from_broad_phase`), no pair is left deeper than the slop uncounted and every
/// pair within the slop is in the touching list (brute force over every pair).
#[test]
fn a_list_from_the_steps_pairs_misses_no_pair() {
    let walkers = crate::scenes::pile(600).simulation();
    let crowd = crate::scenes::crowd(600, 0.3);
    let arena = crowd.config.arena.expect("the crowd has walls");
    let wall = DVec2::new(arena.min.x, 0.5 * (arena.min.y + arena.max.y));
    for (name, mut sim) in [("walkers", walkers), ("wall crowd", crowd.simulation())] {
        let walkers = crate::scenes::walkers(600, 0.2);
        let mut listed = 0;
        for step in 0..240 {
            if name == "walkers" {
                crate::scenes::walk_left(&mut sim, walkers.iter().copied());
            } else {
                crate::scenes::steer_crowd(&mut sim, wall);
            }
            sim.step(crate::scenes::DT);
            if sim.jam.broad_lists == 0 {
                continue;
            }
            listed += 1;
            assert_deep_pairs_counted(&sim, &format!("{name}, step {step}"));
            let missing = untold_touching(&sim);
            assert!(
                missing.is_empty(),
                "{name}, step {step}: touching but not told {missing:?}"
            );
        }
        assert!(
            listed >= 20,
            "{name}: only {listed} steps listed from their own pairs"
        );
    }
}

/// A crowd steered to its centre and ploughed through by a kinematic body outgrows
/// the push-out's list again and again: the list is widened rather than made anew in
/// every pass, and no deep pair goes uncounted (brute force).
#[test]
fn a_crowd_ploughed_by_a_kinematic_body_keeps_a_widened_list() {
    let (mut sim, centre) = crate::outward::tests::ploughed_crowd(2000);
    let mut ploughed = 0;
    for step in 0..240 {
        crate::scenes::steer_crowd(&mut sim, centre);
        sim.step(crate::scenes::DT);
        let jam = &sim.jam;
        if jam.outgrown >= super::JAM_OUTGROWN_CHARGED {
            ploughed += 1;
            // Listed anew in every pass once outgrown twice, it made ~60 lists a step
            // (now 3 in most steps, up to 9).
            let at = format!("step {step}");
            assert!(jam.relists <= 16, "{at}: {} lists", jam.relists);
            assert!(jam.margin > super::JAM_MARGIN, "{at}");
            assert_deep_pairs_counted(&sim, &at);
        }
    }
    assert!(ploughed >= 20, "the crowd was ploughed in {ploughed} steps");
}

/// 400 circles dropped on top of one another in a disk of radius 6: the push-out moves
/// bodies much farther than the jam list's margin within one step, so the list must
/// be made again; no deep pair may go uncounted (brute force).
#[test]
fn a_violent_jam_outgrows_its_list_and_misses_no_deep_pair() {
    let mut state = crate::scenes::SEED;
    let bodies: Vec<BodyDesc> = (0..400)
        .map(|_| {
            let mut unit = || crate::scenes::SplitMix64::next_f64(&mut state);
            let (r, a) = (6.0 * unit().sqrt(), std::f64::consts::TAU * unit());
            BodyDesc::new(DVec2::from_angle(a) * r, 0.5, 1.0)
        })
        .collect();
    let mut sim = world(&bodies, StepConfig::default());
    let start: Vec<DVec2> = sim.bodies().positions().collect();
    sim.step(1.0 / 60.0);
    let b = sim.bodies();
    let moved = (b.positions().zip(&start))
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f64::max);
    assert!(moved > 0.5, "the push-out moved bodies only {moved}");
    assert_deep_pairs_counted(&sim, "after the step");
}
