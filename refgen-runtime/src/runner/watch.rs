//! The cell a watched run shares with its watcher: the case running, how to remake it, the failure.
//!
//! The run's thread writes a case's beginning and end to atomics (no lock);
//! other details go in a locked [`Pulse`]. The thread watching
//! ([`super::supervise`]) reads them to tell a hang and to report it.

use super::report::Origin;
use crate::case_result::Status;
use crate::html::RunLog;
use refgen_core::choice::{Choice, ChoiceTree};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What a run tells the thread watching it.
///
/// The run's thread writes a case's beginning and end to atomics, with no
/// lock: a case made on the fast path (its seed and counts), and any case
/// once a failure was found (the failure is what a hang reports), are
/// described by them alone. Other cases also leave their details in the
/// locked [`Pulse`], for the watcher to read when one hangs.
#[derive(Default)]
pub(crate) struct Watch {
    /// Counts the beginnings and ends of cases: odd while a case runs.
    state: AtomicU64,
    /// The running case's seed, index, and the valid and discarded cases
    /// before it, when it was begun by a plain generated case.
    plain: [AtomicU64; 4],
    /// A failure was found ([`Pulse::found`] holds it).
    found: AtomicBool,
    pulse: Mutex<Pulse>,
    /// The run's in-flight file, removed when the run is abandoned (the
    /// run's thread keeps writing to it, unnamed, should it go on).
    pub(super) inflight: Mutex<Option<PathBuf>>,
    /// The id of the run's [`super::exits::Live`] guard (0 before it has one):
    /// an abandoned run is not live any more.
    pub(super) live: AtomicU64,
    /// The run's cases for its HTML report, written by the watcher when the run is abandoned.
    pub(super) log: Mutex<Option<Arc<Mutex<RunLog>>>>,
}

/// What the watcher reads under a lock: details of a case that is not
/// described by the atomics, and the failure found.
#[derive(Default)]
struct Pulse {
    running: Option<Running>,
    /// The choices of the running case, once made (the list is kept from case to case).
    choices: Vec<Choice>,
    found: Option<Found>,
}

/// A case's details, for the report of a hang.
struct Running {
    /// The [`Watch::state`] of the case these details are of.
    serial: u64,
    /// Its seed, when it is made by plain generation from one.
    seed: Option<u64>,
    /// Whether it was made: its choices are then [`Pulse::choices`].
    made: bool,
    origin: Origin,
    cases: u64,
    discards: u64,
}

/// A failing case, and what its report needs: the found failure a hang
/// while shrinking must not lose, or the hung case itself.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) status: Status,
    /// Its choices (empty when only its seed or choices are known).
    pub(crate) tree: ChoiceTree,
    /// The seed that makes it by plain generation, when its tree is not known.
    pub(crate) seed: Option<u64>,
    /// The choices it made, when its tree is not known or is out of date:
    /// replayed exactly, they make it again (a case that hung, as the watch
    /// saw it; a failure as shrunk so far, which they describe in place of
    /// the tree).
    pub(crate) choices: Option<Vec<Choice>>,
    pub(crate) origin: Origin,
    pub(crate) cases: u64,
    pub(crate) discards: u64,
    /// Time from the start of the run to the failure, and generation and
    /// test time up to it.
    pub(crate) times: [Duration; 3],
    /// Why the report is made by the watching thread.
    pub(crate) note: Option<String>,
}

impl Watch {
    fn pulse(&self) -> std::sync::MutexGuard<'_, Pulse> {
        self.pulse.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A case begins. Only the run's thread calls `begin` and [`Watch::end`].
    pub(super) fn begin(&self, seed: Option<u64>, origin: &Origin, cases: u64, discards: u64) {
        let serial = self.state.load(Ordering::Relaxed) + 1;
        if !self.found.load(Ordering::Relaxed) {
            let origin = origin.clone();
            self.pulse().running = Some(Running { serial, seed, made: false, origin, cases, discards });
        }
        self.state.store(serial, Ordering::Release);
    }

    /// Generated case `index` begins, made by plain generation from `seed`
    /// (after `cases` valid and `discards` discarded cases); no failure was found.
    pub(super) fn begin_plain(&self, seed: u64, index: u64, cases: u64, discards: u64) {
        for (slot, v) in self.plain.iter().zip([seed, index, cases, discards]) {
            slot.store(v, Ordering::Release);
        }
        self.state.store(self.state.load(Ordering::Relaxed) + 1, Ordering::Release);
    }

    /// Whether the watch keeps what a case is made of ([`Watch::made`]):
    /// only while no failure was found (after, a hang reports the failure).
    pub(super) fn wants_made(&self) -> bool {
        !self.found.load(Ordering::Relaxed)
    }

    /// The running case has been made (its choices). Kept only while no failure was found: after, a hang
    /// reports the failure, not the case.
    pub(super) fn made(&self, choices: &mut dyn Iterator<Item = Choice>) {
        if !self.wants_made() {
            return;
        }
        let serial = self.state.load(Ordering::Relaxed);
        let pulse = &mut *self.pulse();
        if let Some(r) = pulse.running.as_mut().filter(|r| r.serial == serial) {
            pulse.choices.clear();
            pulse.choices.extend(choices);
            r.made = true;
        }
    }

    /// The running case ended.
    pub(super) fn end(&self) {
        self.state.store(self.state.load(Ordering::Relaxed) + 1, Ordering::Release);
    }

    /// A failure was found: it is reported should a later case hang.
    pub(super) fn found(&self, found: &Found) {
        self.pulse().found = Some(found.clone());
        self.found.store(true, Ordering::Relaxed);
    }

    /// The failure found shrank to `tree`: kept as its flat choices (copied
    /// into a list kept from one shrink step to the next, not a tree cloned),
    /// which, replayed exactly, make it again.
    pub(super) fn shrunk(&self, tree: &ChoiceTree) {
        if let Some(f) = &mut self.pulse().found {
            let choices = f.choices.get_or_insert_with(Vec::new);
            choices.clear();
            tree.walk(&mut |t| choices.extend(t.choice));
            f.seed = None;
        }
    }

    /// What to report if the running case has run longer than `limit`;
    /// `seen` is the watcher's memory: the case it saw running, and since when.
    pub(super) fn hung(&self, limit: Duration, seen: &mut Option<(u64, Instant)>) -> Option<Found> {
        let serial = self.state.load(Ordering::Acquire);
        if serial.is_multiple_of(2) {
            *seen = None;
            return None;
        }
        match *seen {
            Some((s, since)) if s == serial => {
                if since.elapsed() < limit {
                    return None;
                }
            }
            _ => {
                *seen = Some((serial, Instant::now()));
                return None;
            }
        }
        let since = seen.map_or(limit, |(_, t)| t.elapsed());
        let pulse = self.pulse();
        let found = if let Some(found) = &pulse.found {
            let note = format!(
                "a case hung (ran longer than the time limit of {limit:?}) while this failure was shrunk or replayed: it is reported as shrunk so far"
            );
            Found { note: Some(note), ..found.clone() }
        } else {
            // The hung case itself: from its details, else from the atomics of a plain generated case.
            let (seed, choices, origin, cases, discards) = match pulse.running.as_ref().filter(|r| r.serial == serial) {
                Some(r) => {
                    let made = r.made && !pulse.choices.is_empty();
                    let seed = if made { None } else { r.seed };
                    (seed, made.then(|| pulse.choices.clone()), r.origin.clone(), r.cases, r.discards)
                }
                None => {
                    let [seed, index, cases, discards] = self.plain.each_ref().map(|a| a.load(Ordering::Acquire));
                    (Some(seed), None, Origin::Generated(index), cases, discards)
                }
            };
            let (status, tree, times) =
                (Status::Hung(limit), ChoiceTree::root(Vec::new()), [since, Duration::ZERO, since]);
            Found { status, tree, seed, choices, origin, cases, discards, times, note: None }
        };
        // The details read are the hung case's only if it is still running
        // (the atomics are written before the state that announces them).
        (self.state.load(Ordering::Acquire) == serial).then_some(found)
    }
}
