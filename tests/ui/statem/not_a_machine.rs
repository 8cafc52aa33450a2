use refgen::prelude::*;
use refgen::statem::check_state_machine;

struct Store;

fn main() {
    let _ = check_state_machine(Store, &Config::new("store"));
}
