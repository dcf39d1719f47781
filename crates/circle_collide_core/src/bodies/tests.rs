//! Tests of the body store.

use super::*;

#[test]
fn hot_record_is_one_cache_line() {
    assert_eq!(std::mem::size_of::<Hot>(), 64);
    assert_eq!(std::mem::align_of::<Hot>(), 64);
}

#[test]
fn a_set_velocity_steers_the_body_for_the_next_step_only() {
    let mut sim = crate::Simulation::new(crate::StepConfig::default());
    let desc = BodyDesc::new(DVec2::ZERO, 0.5, 1.0).with_velocity(DVec2::X);
    let (i, _) = sim.add_body(desc).expect("valid");
    let steered = |sim: &crate::Simulation| sim.bodies().hot[i as usize].steered();
    // The same velocity again is no steering; a new one steers the next step only.
    sim.set_velocity(i, DVec2::X);
    sim.step(0.1);
    assert!(!steered(&sim), "an unchanged velocity steered the body");
    let now = sim.bodies().velocity(i as usize);
    sim.set_velocity(i, now + DVec2::Y);
    sim.step(0.1);
    assert!(steered(&sim), "a new velocity did not steer the step");
    sim.step(0.1);
    assert!(!steered(&sim), "the steering outlived its step");
    // So does a description marked steered (the plugin's path).
    let mut sim = crate::Simulation::new(crate::StepConfig::default());
    let (j, _) = sim
        .add_body(BodyDesc {
            steered: true,
            ..desc
        })
        .expect("valid");
    sim.step(0.1);
    assert!(sim.bodies().hot[j as usize].steered());
}

#[test]
fn a_steered_body_without_contacts_is_no_steered_jam() {
    // Under gravity, a steered body in the air: a solve without contacts is no steered
    // jam (else a push-out of landings around it would drop the pile's bottom-up
    // rule).
    let config = crate::StepConfig {
        gravity: DVec2::new(0.0, -9.81),
        ..crate::StepConfig::default()
    };
    let mut sim = crate::Simulation::new(config);
    let (flyer, _) = sim
        .add_body(BodyDesc::new(DVec2::new(10.0, 10.0), 0.5, 1.0))
        .expect("valid");
    sim.set_velocity(flyer, DVec2::X);
    sim.step(1.0 / 60.0);
    assert!(sim.bodies().hot[flyer as usize].steered());
    assert!(sim.resting.is_empty());
    assert!(
        !sim.steered_jam,
        "a lone steered body made the step a steered jam"
    );
}

#[test]
fn swept_box_covers_the_rest_of_the_path() {
    let mut b = Bodies::default();
    b.push_numbered(
        &BodyDesc::new(DVec2::ZERO, 0.5, 1.0).with_velocity(DVec2::new(2.0, -1.0)),
        0,
    );
    b.sweep_end = 1.0;
    assert_eq!(
        b.swept_box(0),
        (DVec2::new(-0.5, -1.5), DVec2::new(2.5, 0.5))
    );
    b.advance(0, 0.5);
    assert_eq!(
        b.swept_box(0),
        (DVec2::new(0.5, -1.5), DVec2::new(2.5, 0.0))
    );
}
