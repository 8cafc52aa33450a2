//! Remembered failures: failing cases' trees, kept in a regressions directory, replayed first.
//!
//! Each property has one JSON file, `<dir>/<property name>.json` (with `::`
//! written `__`), holding the choice trees (not seeds: a seed goes stale when
//! the generator changes, choices replayed leniently survive). A tree is
//! stored flat, one `[site, choice, children]` triple per node in pre-order,
//! so a file of any depth reads back (nested JSON would meet the JSON
//! reader's recursion limit past a few dozen levels).
//!
//! Writers do not lose each other's failures: a write takes an exclusive
//! lock on `<dir>/.reflect-lock`, reads the file again, merges its cases
//! with the new one, and renames a temporary file (named by process, thread
//! and a counter) over the old one. Only then does [`Store::add`] return
//! `Ok`, so a failure reported as remembered is on disk. A file that is
//! corrupt, or was written by another format version, is a warning naming
//! its path, never a crash; it is kept aside as `<file>.corrupt` (or
//! `.corrupt.1`, `.corrupt.2`, ...: an earlier one is never overwritten) when
//! a new failure is written.
//!
//! A case that ends the process (an abort, a stack overflow, a failed
//! allocation, `std::process::exit`) cannot be caught. So before each case
//! the runner records it in an *in-flight* file
//! `<dir>/<property name>.inflight-<process>-<n>` ([`InFlight`]): the flat
//! sequence of choices it made (replayed exactly, they make it again), or,
//! for a case on the fast path of plain random generation, its run's seed
//! and its index in the run (which give its seed). The file's first page is
//! mapped into memory, so recording a case is a copy into memory, not a
//! system call; recording the next fast-path case counts its index up in
//! place (the kernel keeps a shared mapping's
//! writes however the process ends). The run holds a lock on the file while
//! it lives, and removes it when it ends. A later run that finds such a file
//! no process holds ([`Store::take_orphans`]) knows the case ended the
//! process, and reports it. It makes the case again to report it, and
//! records it in its own in-flight file first ([`InFlight::record_again`]):
//! should making it end that process too, the next run finds it again.
//!
//! The directory is made only to write to it: a run that finds it missing
//! makes it for its in-flight file, and removes it again when the run ends
//! having written nothing else there, so a run that passes leaves none.
//!
//! A value written by hand joins the file with [`Store::add_value`], which
//! reflects it into the choices that make it.
//!
//! In files: `store` (the regressions file: lock, merge, corrupt files set
//! aside), `flat` (a tree as a flat list), `inflight` (the case in flight,
//! in mapped memory: the only `unsafe` of this module).

mod flat;
mod inflight;
mod store;
#[cfg(test)]
mod tests;

pub use inflight::{InFlight, InFlightCase};
pub use store::Store;

use refgen_core::choice::ChoiceTree;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The format version this crate writes (it reads version 1 too).
pub const FORMAT_VERSION: u32 = 2;

/// The name of the lock file in a regressions directory.
const LOCK: &str = ".reflect-lock";

/// One remembered case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The choices that make the case.
    #[serde(with = "flat")]
    pub tree: ChoiceTree,
    /// Why it failed when it was remembered (or where it came from).
    #[serde(default)]
    pub reason: String,
}

/// The file name for `property`: `::` becomes `__`, and anything but
/// letters, digits, `_`, `-` and `.` becomes `_`.
pub fn file_name(property: &str) -> String {
    format!("{}.json", stem(property))
}

fn stem(property: &str) -> String {
    let s = property.replace("::", "__");
    s.chars().map(|c| if c.is_ascii_alphanumeric() || "_-.".contains(c) { c } else { '_' }).collect()
}

/// A name no other writer uses: process, thread and a counter.
fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    format!("{}-{thread}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// Makes a file in `dir` with `make`, creating `dir` first when it is
/// missing; tried again should `dir` vanish in between (a run that created
/// it removes it when it ends empty, see [`InFlight`]).
fn in_dir<T>(dir: &Path, make: impl Fn() -> io::Result<T>) -> io::Result<T> {
    let mut tries = 0;
    loop {
        fs::create_dir_all(dir)?;
        match make() {
            Err(e) if e.kind() == io::ErrorKind::NotFound && tries < 8 => tries += 1,
            made => return made,
        }
    }
}
