//! Without gravity, exact flight changes nothing: the gas and the steered crowd end bit
//! for bit where they ended before it (the constants were computed with the engine as it
//! was before exact flight, commit 393b300, and again after). Friction and rotation
//! (commit 8e368fa) left them unchanged too: smooth bodies (μ = 0) take exactly the
//! frictionless path. A change meant to alter these scenes must say so and update them:
//! the contact solver's packed rows, which multiply by each row's reciprocal effective
//! mass instead of dividing by it, changed the crowd by rounding (the packing alone left
//! it bit-identical); the gas, which has no slow contacts, is unchanged. The crowd
//! changed again with the solver's interleaved row order (`contact_rows::Lanes`) and the
//! position correction and over-relaxation of its contacts without gravity
//! (`CORRECTION_RATE`, `RELAXATION`); the gas did not. The speculative boxes of the
//! bodies in last step's contacts (`bodies::SPECULATIVE_MARGIN`) list more candidate
//! pairs, which the push-out works through in another order: the crowd changed; the gas,
//! whose contact memory stays empty, did not. The push-out's jammed passes list every
//! pair anew from one pushed body in 64 (not 8): the crowd changed again, the gas not.
//! The push-out's jammed passes stop on a work limit instead of a pass limit, so the
//! crowd's small jams are cleared (the crowd changed; the gas, which never jams, not).
//! Pressing contacts whose gap opened a little past the slop stay in the solver without
//! gravity (`contacts::KEEP_GAP`): the crowd changed; the gas, whose contact memory stays
//! empty, not. A pair that had an impact and can press is remembered for the next
//! step without gravity (`Simulation::remember_impacts`: pushed into a static body again,
//! it is a pressing contact, not a new impact): the crowd changed; the elastic gas, whose
//! pairs never press, not. A jammed push-out makes its first list from the step's own
//! pairs where it can (`push_out::list_from_broad_phase`) instead of listing every pair
//! anew, and takes them in their order: the crowd changed; the gas, which never jams, not.

use circle_collide_core::{Simulation, scenes};
use glam::DVec2;

/// FNV-1a over the bits of every position and velocity.
fn fingerprint(sim: &Simulation) -> u64 {
    let b = sim.bodies();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for v in b.positions().chain(b.velocities()) {
        for bits in [v.x.to_bits(), v.y.to_bits()] {
            for byte in bits.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

#[test]
fn the_gas_and_the_crowd_without_gravity_are_bit_identical_to_before_exact_flight() {
    let mut gas = scenes::gas(2000, 0.3, 10.0).simulation();
    for _ in 0..120 {
        gas.step(scenes::DT);
    }
    let mut crowd = scenes::crowd(500, 0.3).simulation();
    let centre = DVec2::splat(0.5 * scenes::gas_side(500, 0.3));
    for _ in 0..120 {
        scenes::steer_crowd(&mut crowd, centre);
        crowd.step(scenes::DT);
    }
    let (g, c) = (fingerprint(&gas), fingerprint(&crowd));
    eprintln!("gas {g:016x}, crowd {c:016x}");
    assert_eq!(g, 0xc137_ad6f_68f2_412b, "gas");
    assert_eq!(c, 0xa2fc_7e3f_402c_127a, "crowd");
}
