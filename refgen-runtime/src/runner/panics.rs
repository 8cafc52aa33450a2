//! The panic hook: cases' panics kept quiet with their locations; an aborting panic prints them.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The panics of the current case, shown should the process abort.
    static CASE_PANICS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The messages the standard library panics with when a panic cannot
/// unwind (a panic in a destructor while unwinding): the process aborts next.
const ABORTING: [&str; 2] = ["panic in a destructor during cleanup", "panic in a function that cannot unwind"];

/// Installs (once) a panic hook that keeps the panics of cases quiet and
/// notes where they happened; every other panic goes to the previous hook.
/// A panic that will abort the process (it cannot unwind, or the crate is
/// built with `panic = "abort"`) is not kept quiet, and the case's earlier
/// panics are printed with it: nothing else will tell them.
pub(super) fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) || cfg!(panic = "abort") {
                return previous(info);
            }
            let loc = info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
            let message = panic_message(info.payload());
            if ABORTING.iter().any(|m| message.starts_with(m)) {
                let earlier = CASE_PANICS.with(|p| p.borrow().join("\n  "));
                let _ = writeln!(
                    std::io::stderr(),
                    "refgen: the case panicked while unwinding, so the process aborts:\n  {earlier}"
                );
                return previous(info);
            }
            CASE_PANICS.with(|p| {
                let mut p = p.borrow_mut();
                if p.len() < 8 {
                    p.push(format!("{message}{}", loc.as_deref().unwrap_or("")));
                }
            });
            LAST_PANIC.with(|p| *p.borrow_mut() = loc);
        }));
    });
}

/// The message of a panic's payload.
pub(super) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}

/// Whether this thread's panics are a case's (kept quiet) from now on.
pub(super) fn quiet(on: bool) {
    QUIET.with(|q| q.set(on));
}

/// A case begins on this thread: the panics of the one before are forgotten.
pub(super) fn case_begins() {
    CASE_PANICS.with(|p| p.borrow_mut().clear());
}

/// Where this thread's last quiet panic happened (` at file:line:column`), once; empty when not known.
pub(super) fn take_location() -> String {
    LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default()
}

/// Runs `f`, catching its panic without a word on standard error (the
/// panic hook keeps it quiet, as a case's): for what the runner reports as a
/// clean error of its own, such as a guide that cannot be built.
pub(super) fn quietly<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    LAST_PANIC.with(|p| p.borrow_mut().take());
    r
}
