//! Warnings about degraded steps: a step that hit the impact cap (the rest of it ran
//! without exact collision) or left overlaps deeper than the slop (a jam the bounded
//! push-out could not clear). Both are counted in
//! [`CollisionDiagnostics`](crate::CollisionDiagnostics); the log says so the first time
//! and then sums them up at most once per [`QUIET_STEPS`] steps, so a long jam does not
//! flood it.

/// Steps between two warnings about degraded steps (ten seconds at 60 Hz).
pub(crate) const QUIET_STEPS: u64 = 600;

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
    pub(crate) fn note(
        &mut self,
        step: u64,
        fell_back: bool,
        overlaps_left: usize,
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
        assert_eq!(d.note(1, false, 0), None, "a clean step says nothing");
        let first = d.note(2, true, 0).expect("the first fallback warns");
        assert!(
            first.contains("of the 2 steps up to step 2, 1 hit the impact cap"),
            "{first}"
        );
        assert!(!first.contains("overlaps"), "{first}");
        // Inside the quiet span: counted, not logged.
        for step in 3..2 + QUIET_STEPS {
            let jam = if step % 10 == 0 { 7 } else { 0 };
            assert_eq!(d.note(step, step % 100 == 0, jam), None, "step {step}");
        }
        let sum = d.note(2 + QUIET_STEPS, false, 0).expect("due again");
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
        assert!(d.note(10, false, 4).is_some());
        for step in 11..10 + 3 * QUIET_STEPS {
            assert_eq!(d.note(step, false, 0), None, "step {step}");
        }
        let next = d.note(10 + 3 * QUIET_STEPS, false, 1).expect("warns again");
        assert!(next.contains("1 left overlaps deeper than the slop (up to 1 in one step)"));
        assert!(!next.contains("impact cap"), "{next}");
    }
}
