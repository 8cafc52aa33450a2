//! A failing property's panic is located in the test that ran it, not in the runner.

use refgen::prelude::*;
use std::sync::Mutex;

static LOCATIONS: Mutex<Vec<String>> = Mutex::new(Vec::new());

#[test]
fn a_failing_property_panics_at_its_caller() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().cloned().unwrap_or_default();
        if msg.starts_with("property `") {
            let l = info.location().expect("a location");
            LOCATIONS.lock().unwrap().push(format!("{}:{}", l.file(), l.line()));
        } else {
            previous(info)
        }
    }));
    let p = Property::new(u8::generator, |x: u8| assert!(x < 100));
    let line = line!() + 1;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| p.assert(&Config::new("located"))));
    assert!(r.is_err(), "the property fails");
    let locations = LOCATIONS.lock().unwrap().clone();
    assert_eq!(locations, vec![format!("tests/panic_location.rs:{line}")]);
}
