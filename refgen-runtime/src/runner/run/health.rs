//! Health notes: what a passing run says once, past the capture, when its cost went where the user would not expect.

use crate::runner::Report;
use std::time::Duration;

/// Generation is noted as slow when it took at least this long over the run, and at least
/// [`SLOW_FACTOR`] times the property's time.
const SLOW_GENERATION: Duration = Duration::from_secs(1);

/// See [`SLOW_GENERATION`].
const SLOW_FACTOR: u32 = 10;

/// A run is told that most values were filtered once it made at least this many values.
const FILTERED_VALUES: u64 = 100;

/// What a run counted on its thread besides its report.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    /// The failed attempts of retrying filters.
    pub(super) failed_attempts: u64,
    /// The values with a collection of default length cut short (`refgen_core::combinators::sizes::values_cut`).
    pub(super) values_cut: u64,
    /// The run's largest size.
    pub(super) max_size: usize,
}

/// The health notes of a run that passed: `report`, and what else it `counted`. Each says what was
/// seen and what to do.
pub(super) fn notes(report: &Report, counted: Counts) -> Vec<String> {
    let Counts { failed_attempts, values_cut, max_size } = counted;
    let mut notes = Vec::new();
    let (made_gen, tested) = (report.gen_time, report.test_time);
    if made_gen >= SLOW_GENERATION && made_gen >= tested * SLOW_FACTOR {
        notes.push(format!(
            "making the values took {made_gen:.1?}, running the property on them {tested:.1?}: most of the run \
             went to generation (large values, deep recursion, or a filter that retries often; the statistics, \
             `#[property(stats)]`, show the guide's notes)"
        ));
    }
    let rejected = report.discards + failed_attempts;
    let made = report.cases + rejected;
    if made >= FILTERED_VALUES && 2 * rejected > made {
        notes.push(format!(
            "most values made were rejected by a validity condition: {rejected} of {made} ({} cases discarded, \
             {failed_attempts} failed attempts of retrying filters such as `#[assume]`), each paid for and thrown \
             away; make them valid by construction (`#[synth]` on the predicate, or arguments to the derived type) \
             where the condition allows",
            report.discards
        ));
    }
    if made >= FILTERED_VALUES && 2 * values_cut > made {
        notes.push(format!(
            "most values made used up the largest size: {values_cut} of {made} had a collection cut short (left              empty once the value's {max_size} elements of default-length collections were spent); raise it              (`#[property(max_size = N)]`, `REFGEN_MAX_SIZE`) if larger values matter, or give the collections              a `len` range"
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(cases: u64, discards: u64, gen_ms: u64, test_ms: u64) -> Report {
        Report {
            cases,
            discards,
            gen_time: Duration::from_millis(gen_ms),
            test_time: Duration::from_millis(test_ms),
            ..Report::default()
        }
    }

    fn failed(failed_attempts: u64) -> Counts {
        Counts { failed_attempts, values_cut: 0, max_size: 100 }
    }

    #[test]
    fn a_healthy_run_has_no_note() {
        assert!(notes(&report(256, 10, 50, 40), failed(30)).is_empty());
        // Slow in all, but not against the property.
        assert!(notes(&report(256, 0, 2_000, 1_000), failed(0)).is_empty());
        // A tenth of the property's time but short.
        assert!(notes(&report(256, 0, 500, 10), failed(0)).is_empty());
        // Some values cut short, not most.
        assert!(notes(&report(256, 0, 10, 10), Counts { values_cut: 100, ..failed(0) }).is_empty());
    }

    #[test]
    fn slow_generation_filtered_and_cut_values_are_each_noted() {
        let slow = notes(&report(256, 0, 3_000, 100), failed(0));
        assert_eq!(slow.len(), 1);
        assert!(slow[0].contains("most of the run went to generation"), "{slow:?}");
        let filtered = notes(&report(256, 100, 10, 10), failed(200));
        assert_eq!(filtered.len(), 1);
        assert!(filtered[0].contains("300 of 556"), "{filtered:?}");
        assert_eq!(notes(&report(256, 100, 3_000, 10), failed(200)).len(), 2);
        let cut = notes(&report(256, 0, 10, 10), Counts { values_cut: 200, ..failed(0) });
        assert_eq!(cut.len(), 1);
        assert!(cut[0].contains("200 of 256 had a collection cut short") && cut[0].contains("100 elements"), "{cut:?}");
    }
}
