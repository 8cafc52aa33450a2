//! The schedule's work: how much of it fresh cases have done, recorded or on the fast path.

/// The work of a run's cases (the choices they made, in valid cases and rejected ones), for the
/// schedule that keeps fresh cases to their share of it; see [`super`]'s docs.
///
/// A fresh case on the fast path is not recorded, and counts as the latest mean work of the recorded
/// fresh cases (the first and one in [`super::CALIBRATE`]), applied to all of them: with few
/// recorded, the mean of a heavy-tailed work is most often below the true one, and fresh cases would
/// otherwise keep more than their share.
#[derive(Debug, Clone, Default)]
pub(super) struct Work {
    /// The choices made by the recorded fresh cases, and by all recorded cases.
    recorded: (u64, u64),
    /// The fresh cases on the fast path.
    plain: u64,
    /// The fresh cases recorded, and the choices they made (kept when the guide starts again).
    calibration: (u64, u64),
}

impl Work {
    /// The work counted afresh (the guide starts again), what the recorded fresh cases say of a fresh
    /// case's work kept.
    pub(super) fn restarted(&self) -> Work {
        Work { calibration: self.calibration, ..Work::default() }
    }

    /// A recorded case that made `choices` choices; `fresh` when it was a fresh case.
    pub(super) fn recorded(&mut self, fresh: bool, choices: u64) {
        if fresh {
            self.recorded.0 += choices;
            self.calibration = (self.calibration.0 + 1, self.calibration.1 + choices);
        }
        self.recorded.1 += choices;
    }

    /// A fresh case on the fast path.
    pub(super) fn plain(&mut self) {
        self.plain += 1;
    }

    /// Whether a fresh case has been recorded: the fast path's have a mean to count at.
    pub(super) fn calibrated(&self) -> bool {
        self.calibration.0 > 0
    }

    /// The fresh cases recorded.
    #[cfg(test)]
    pub(super) fn fresh_recorded(&self) -> u64 {
        self.calibration.0
    }

    /// The share of the work fresh cases have done (0 before any).
    #[cfg(test)]
    pub(super) fn fresh_share(&self) -> f64 {
        let plain = self.plain_work();
        (self.recorded.0 as f64 + plain) / (self.recorded.1 as f64 + plain).max(f64::MIN_POSITIVE)
    }

    /// Whether fresh cases have done less than `share` of the work: the next case is fresh.
    pub(super) fn fresh_due(&self, share: f64) -> bool {
        let plain = self.plain_work();
        self.recorded.0 as f64 + plain < share * (self.recorded.1 as f64 + plain)
    }

    /// The work of the fresh cases on the fast path: their number times the recorded ones' mean.
    fn plain_work(&self) -> f64 {
        let (recorded, choices) = self.calibration;
        self.plain as f64 * choices as f64 / recorded.max(1) as f64
    }
}
