//! Warnings about degraded steps: a step that hit the impact cap (the rest of it ran
//! without exact collision) or left overlaps deeper than the slop (a jam the bounded
//! push-out could not clear). Both are counted in
//! [`CollisionDiagnostics`](crate::CollisionDiagnostics); the log says so the first time
//! and then sums them up at most once per [`QUIET_STEPS`] steps, so a long jam does not
//! flood it.

/// Steps between two warnings about degraded steps (ten seconds at 60 Hz).
pub(crate) const QUIET_STEPS: u64 = 600;

/// What a warning about steps that hit the impact cap adds when the configuration's
/// `resting_speed` is `Some(0.0)`: no contact is slow then, so bodies resting on or
/// pressed into each other at restitution below 1 (a pile, a jammed crowd) trade ever
/// smaller exact impacts, an inelastic collapse that runs into the cap every step.
pub(crate) const ZERO_RESTING_HINT: &str = "resting_speed is Some(0.0), so every closing \
     contact is an exact impact and bodies resting or pressed together at restitution \
     below 1 collapse through the cap: resting_speed None (the default) hands them to the \
     contact solver";

/// The degraded steps seen since the last warning.
#[derive(Debug, Default)]
pub(crate) struct DegradedSteps {
    /// Step of the last warning.
    last_warning: Option<u64>,
    /// Steps since then that hit the impact cap.
    fallbacks: u64,
    /// Steps since then that left overlaps deeper than the slop.
    jammed: u64,
    /// Most overlaps one step left since then.
    most_left: usize,
}

impl DegradedSteps {
    /// Notes step `step` (which fell back, or left `overlaps_left` overlaps); returns the
    /// warning to log if one is due: at the first degraded step, then once at least
    /// [`QUIET_STEPS`] steps after the last warning if there were degraded steps since.
    /// `zero_resting`: the configuration's resting speed is 0, which the warning names
    /// when steps fell back (every closing contact is then an impact: see
    /// [`ZERO_RESTING_HINT`]).
    pub(crate) fn note(
        &mut self,
        step: u64,
        fell_back: bool,
        overlaps_left: usize,
        zero_resting: bool,
    ) -> Option<String> {
        self.fallbacks += u64::from(fell_back);
        self.jammed += u64::from(overlaps_left > 0);
        self.most_left = self.most_left.max(overlaps_left);
        let due = self
            .last_warning
            .is_none_or(|last| step.saturating_sub(last) >= QUIET_STEPS);
        if !due || self.fallbacks + self.jammed == 0 {
            return None;
        }
        let span = step - self.last_warning.unwrap_or(0);
        let mut parts = Vec::new();
        if self.fallbacks > 0 {
            parts.push(format!(
                "{} hit the impact cap (max_impacts_per_body × bodies + 64, at most a \
                 million) and finished without exact collision",
                self.fallbacks
            ));
            if zero_resting {
                parts.push(ZERO_RESTING_HINT.to_string());
            }
        }
        if self.jammed > 0 {
            parts.push(format!(
                "{} left overlaps deeper than the slop (up to {} in one step)",
                self.jammed, self.most_left
            ));
        }
        *self = Self {
            last_warning: Some(step),
            ..Self::default()
        };
        Some(format!(
            "circle_collide: of the {span} steps up to step {step}, {}. CollisionDiagnostics counts \
             them; a larger max_impacts_per_body, separation_iterations or resting_speed \
             helps, unless more circles were put in the arena than fit in it.",
            parts.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{DegradedSteps, QUIET_STEPS};

    #[test]
    fn warns_at_the_first_degraded_step_then_sums_up_once_per_quiet_span() {
        let mut d = DegradedSteps::default();
        assert_eq!(
            d.note(1, false, 0, false),
            None,
            "a clean step says nothing"
        );
        let first = d.note(2, true, 0, false).expect("the first fallback warns");
        assert!(
            first.contains("of the 2 steps up to step 2, 1 hit the impact cap"),
            "{first}"
        );
        assert!(!first.contains("overlaps"), "{first}");
        // Inside the quiet span: counted, not logged.
        for step in 3..2 + QUIET_STEPS {
            let jam = if step % 10 == 0 { 7 } else { 0 };
            assert_eq!(
                d.note(step, step % 100 == 0, jam, false),
                None,
                "step {step}"
            );
        }
        let sum = d.note(2 + QUIET_STEPS, false, 0, false).expect("due again");
        assert!(
            sum.contains("of the 600 steps up to step 602, 6 hit the impact cap"),
            "{sum}"
        );
        assert!(sum.contains("6 hit the impact cap"), "{sum}");
        assert!(
            sum.contains("60 left overlaps deeper than the slop (up to 7"),
            "{sum}"
        );
    }

    #[test]
    fn a_quiet_span_without_degraded_steps_stays_silent_until_the_next_one() {
        let mut d = DegradedSteps::default();
        assert!(d.note(10, false, 4, false).is_some());
        for step in 11..10 + 3 * QUIET_STEPS {
            assert_eq!(d.note(step, false, 0, false), None, "step {step}");
        }
        let next = d
            .note(10 + 3 * QUIET_STEPS, false, 1, false)
            .expect("warns again");
        assert!(next.contains("1 left overlaps deeper than the slop (up to 1 in one step)"));
        assert!(!next.contains("impact cap"), "{next}");
    }

    #[test]
    fn a_fallback_under_a_zero_resting_speed_names_it() {
        let mut d = DegradedSteps::default();
        let warning = d.note(1, true, 0, true).expect("the first fallback warns");
        assert!(warning.contains("resting_speed is Some(0.0)"), "{warning}");
        // Only a step that fell back names it: overlaps left alone do not.
        let mut d = DegradedSteps::default();
        let jam = d.note(1, false, 3, true).expect("overlaps left warn");
        assert!(!jam.contains("resting_speed is"), "{jam}");
        let mut d = DegradedSteps::default();
        let plain = d.note(1, true, 0, false).expect("warns");
        assert!(!plain.contains("resting_speed is"), "{plain}");
    }
}
