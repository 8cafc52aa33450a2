//! Helpers for tests that call the runner directly.

use refgen::runner::{Failure, Report, RunError};
use std::path::PathBuf;

/// A fresh temporary directory for the test `name` of this process (not created).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("reflect-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The failure of a run that must have failed.
pub fn failure(r: Result<Report, RunError>) -> Box<Failure> {
    match r {
        Err(RunError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    }
}

/// Hangs the case that calls it, politely: the abandoned thread sleeps rather than spins.
pub fn hang() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
