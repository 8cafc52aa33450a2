//! The per-case time limit: the run on a thread of its own, watched for a case that runs too long.
//!
//! A run with a time limit ([`Config::case_timeout`]) is started on a new
//! thread, which runs every case inline (generation and property, no
//! channel, no context switch). Before each case it notes on a shared
//! [`Watch`] that a case began (a serial number: the run's thread reads no
//! clock for it) and how to make it again (its seed on the fast path, else
//! its choices once made); while a failure is being
//! shrunk and reported, the watch also holds that failure and the smallest
//! failing tree so far. The calling thread waits for the run's result and,
//! between waits (a quarter of the limit, at most 250 ms), looks at the
//! watch: a case it has seen running for longer than the limit is a hang
//! (so a hang is reported between one limit and one wait past it). The run's thread is then abandoned (Rust cannot stop a thread;
//! it ends with the process) and the calling thread reports:
//!
//! - the failure being shrunk, with its smallest tree so far, when a shrink
//!   candidate or a replay hung (the failure found is never lost);
//! - otherwise the hung case itself ([`FailureKind::Hung`](super::FailureKind::Hung)).
//!
//! The report is made by a fresh run on another watched thread (its
//! arguments shown, the case remembered), which does not test a hung case
//! again. Should that hang too, the report shows the case's choices as they
//! are. The hung run's in-flight file is removed, so the next run does not
//! take the hang for a case that ended the process, and its HTML report
//! (when asked for) is written with its cases up to the hang and the
//! failure. Observation lines were written as the cases ran; the report
//! run writes none.

use super::property::Property;
use super::report::RunError;
use super::run::{write_html, Run};
use super::watch::{Found, Watch};
use crate::config::Config;
use crate::runner::Report;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// What a watched run does.
pub(super) enum Job {
    /// The whole run.
    Search,
    /// Report this failure (found by an abandoned run), without shrinking.
    Report(Box<Found>),
}

/// Runs `job` of `prop` on a new thread, watching its cases: a case running
/// longer than `limit` is reported (see the module docs). `depth` counts
/// the reports made for hangs, so a report that hangs too ends the chain.
pub(super) fn watched<V: 'static>(
    prop: &Property<V>,
    config: &Config,
    limit: Duration,
    job: Job,
    depth: u32,
) -> Result<Report, RunError> {
    let watch = Arc::new(Watch::default());
    let (tx, rx) = channel();
    let (p, c, w) = (prop.clone(), config.clone(), watch.clone());
    let spawned = std::thread::Builder::new().name("refgen-run".into()).spawn(move || {
        let run = Run::new(p, &c, Some(w));
        let _ = tx.send(match job {
            Job::Search => run.go(),
            Job::Report(found) => run.report_found(*found),
        });
    });
    let handle = match spawned {
        Ok(h) => h,
        Err(e) => panic!("refgen: cannot start a thread to run cases: {e}"),
    };
    // Wake often enough to see a hang soon after the limit, rarely enough to cost nothing.
    let tick = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(250));
    let mut seen = None;
    loop {
        match rx.recv_timeout(tick) {
            Ok(result) => return result,
            Err(RecvTimeoutError::Disconnected) => match handle.join() {
                // The run panicked outside any case: a bug of the runner, shown as it is.
                Err(payload) => std::panic::resume_unwind(payload),
                Ok(()) => unreachable!("the run's thread sends its result before it ends"),
            },
            Err(RecvTimeoutError::Timeout) => {
                let Some(found) = watch.hung(limit, &mut seen) else { continue };
                // Abandon the run: its in-flight case hung, it did not end the process
                // (and should the process exit while it hangs, that is no case cut short).
                super::exits::forget(watch.live.load(Ordering::Relaxed));
                if let Some(path) = watch.inflight.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    let _ = std::fs::remove_file(path);
                }
                if depth == 0 {
                    let mut quiet = config.clone();
                    (quiet.observability, quiet.report) = (None, None);
                    let result = watched(prop, &quiet, limit, Job::Report(Box::new(found)), depth + 1);
                    // The abandoned run's HTML report: its cases up to the hang, and the failure.
                    let log = watch.log.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let (Some(dir), Some(log)) = (&config.report, log) {
                        let log = log.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = write_html(dir, &log, &result, None) {
                            let _ = writeln!(std::io::stderr(), "refgen: warning: `{}`: {e}", config.name);
                        }
                    }
                    return result;
                }
                // The report hung as well: the case as it is, without its arguments.
                let run = Run::new(prop.clone(), &Config { regressions: None, ..config.clone() }, None);
                let mut found = found;
                let also = "its report hung as well: the case is shown as its choices";
                found.note = Some(found.note.take().map_or_else(|| also.to_owned(), |n| format!("{n}; {also}")));
                return Err(run.raw_failure(found));
            }
        }
    }
}
