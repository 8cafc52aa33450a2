//! A process that exits while a run makes or tests cases does not pass: an exit hook reports it.
//!
//! `std::process::exit(0)` inside a property (or its generator) would end a
//! `cargo test` process with a passing status, the test never reported.
//! So while a run is running (from its first case to its report), it is
//! *live*: registered here, with its name and its in-flight file. The first
//! live run installs, once per process, a C `atexit` hook. When the process
//! exits through the C library's `exit` (which `std::process::exit` calls,
//! and so does returning from `main`) while a run is live, the hook says on
//! standard error which run was cut short, and where its case is kept (the
//! in-flight file, which the next run reports, see [`crate::persist`]), then
//! ends the process at once with the status 101 (a failed test's status)
//! in place of the one given.
//!
//! What is caught: `std::process::exit` and `libc::exit` with any status,
//! from any thread, while a run is live (the runner's own code between two
//! cases counts: it never exits). A run abandoned because a case hung is
//! not live any more (the hang is its report). What is not caught: the
//! process ending without the C library's `exit` (`libc::_exit`, a signal
//! such as `SIGKILL`, an abort): the last two leave a failing status, and
//! all are reported by the next run through the in-flight file; a
//! [`crate::fuzz::Fuzzer`], whose runs live as long as the fuzzer, which
//! exits as it pleases; and, off Unix, everything (there is no hook there
//! yet: only the next run reports the case).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A live run.
#[derive(Clone)]
struct Entry {
    id: u64,
    name: String,
    inflight: Option<PathBuf>,
}

/// The live runs.
static LIVE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The id of the next live run.
static NEXT: AtomicU64 = AtomicU64::new(1);

/// The status a process exiting while a run is live ends with (that of a failed test).
pub(crate) const STATUS: i32 = 101;

fn live() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A run is live while this lives (see the module docs).
pub(crate) struct Live {
    id: u64,
}

impl Live {
    /// The run of the property `name`, whose cases are kept in flight in `inflight`, is live.
    pub(crate) fn begin(name: &str, inflight: Option<PathBuf>) -> Live {
        install();
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        live().push(Entry { id, name: name.to_owned(), inflight });
        Live { id }
    }

    /// Its id, for [`forget`].
    pub(crate) fn id(&self) -> u64 {
        self.id
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        forget(self.id);
    }
}

/// The run `id` is not live any more (it was abandoned: it hung).
pub(crate) fn forget(id: u64) {
    live().retain(|e| e.id != id);
}

/// What the hook says of the live runs `entries`.
fn cut_short(entries: &[Entry]) -> String {
    let mut out = String::new();
    for e in entries {
        out.push_str(&format!(
            "refgen: `{}`: the process is exiting (`std::process::exit` or `exit`) while this property's run is \
             making or testing a case: that is not a pass, so it exits with status {STATUS}\n",
            e.name
        ));
        match &e.inflight {
            Some(path) => {
                let record = std::fs::read_to_string(path).unwrap_or_default();
                out.push_str(&format!(
                    "refgen: `{}`: the case is kept in flight in {} ({}): the next run reports it\n",
                    e.name,
                    path.display(),
                    record.trim()
                ));
            }
            None => out.push_str(&format!(
                "refgen: `{}`: with a regressions directory, the next run would report the case\n",
                e.name
            )),
        }
    }
    out
}

/// The hook: the process is exiting.
#[cfg(unix)]
extern "C" fn at_exit() {
    // Nothing here may unwind out of a C callback: no panic is possible below.
    let said = {
        let entries = live();
        if entries.is_empty() {
            return;
        }
        cut_short(&entries)
    };
    let _ = std::io::Write::write_all(&mut std::io::stderr(), said.as_bytes());
    // SAFETY: `_exit` ends the process at once, without running the exit
    // hooks left or flushing C streams (calling `exit` from a hook is
    // undefined behaviour; `_exit` is not). The Rust side has nothing left
    // to flush: `std::process::exit` flushed the standard output before
    // the C library ran this hook, and the standard error is not buffered.
    #[allow(unsafe_code)]
    unsafe {
        libc::_exit(STATUS)
    }
}

/// Installs the hook, once per process.
fn install() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: `atexit` only stores the address of `at_exit`, a function
            // with the C calling convention and no arguments that lives as long
            // as the program and never unwinds.
            #[allow(unsafe_code)]
            let failed = unsafe { libc::atexit(at_exit) } != 0;
            if failed {
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    b"refgen: warning: cannot install the exit hook: a process that exits in a case may pass\n",
                );
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_run_is_told_until_it_ends_or_is_forgotten() {
        let a = Live::begin("exits::a", None);
        let b = Live::begin("exits::b", Some(PathBuf::from("/nonexistent/b.inflight-1")));
        let ours: Vec<Entry> = live().iter().filter(|e| e.id == a.id() || e.id == b.id()).cloned().collect();
        let said = cut_short(&ours);
        assert!(said.contains("`exits::a`: the process is exiting"), "{said}");
        assert!(said.contains("b.inflight-1") && said.contains("the next run reports it"), "{said}");
        let (ia, ib) = (a.id(), b.id());
        drop(a);
        forget(ib);
        assert!(!live().iter().any(|e| e.id == ia || e.id == ib));
        drop(b);
    }
}
