//! A guide or generator that cannot be built is a clean setup error, said once: its panic is caught
//! without the panic hook printing it first. (A file of its own: the test sets the process's panic hook.)

use refgen::guides::TunedGuide;
use refgen::prelude::*;
use refgen::runner::RunError;
use std::sync::Mutex;

static PRINTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[test]
fn a_bad_tuning_example_is_one_clean_error() {
    // Installed before the runner's hook, which passes to it every panic it does not keep quiet.
    std::panic::set_hook(Box::new(|info| {
        let msg = info.payload().downcast_ref::<String>().cloned().unwrap_or_default();
        PRINTED.lock().unwrap().push(msg);
    }));
    let p = Property::new(|| refgen::combinators::int(0u8..=9), |_: u8| ());
    let bad = || match TunedGuide::from_examples(&refgen::combinators::int(0u8..=9), [200u8], Vec::new()) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    match p.check(&Config::new("bad_tuning").guide(bad)) {
        Err(RunError::Setup { reason, .. }) => {
            assert!(reason.contains("cannot make these examples") && reason.contains("like #0: 200"), "{reason}")
        }
        other => panic!("a setup error: {other:?}"),
    }
    let bad_gen = Property::new(|| -> BoxGen<u8> { panic!("no generator here") }, |_: u8| ());
    assert!(matches!(bad_gen.check(&Config::new("bad_gen")), Err(RunError::Setup { .. })));
    assert_eq!(PRINTED.lock().unwrap().len(), 0, "printed first: {:?}", PRINTED.lock().unwrap());
}
