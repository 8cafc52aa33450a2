//! Stateful testing of a key-value store against a `BTreeMap` model: a planted bug found, shrunk to its minimal sequence and printed as steps.
//!
//! Run with `cargo run --release --example statem_kv`.

use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{check_state_machine, Commands};
use refgen_fixtures::statem_models::{Kv, KvMachine};

fn main() {
    // The same entry point a `#[test]` calls (`assert_state_machine`), here
    // with the run's failure in hand.
    let config = Config::new("statem_kv").seed(1).cases(10_000);
    match check_state_machine(KvMachine, &config) {
        Err(RunError::Failed(f)) => print!("{f}"),
        other => panic!("the planted bug should be found: {other:?}"),
    }

    // The printed steps, pasted into a regression test:
    let pasted = Commands::<KvMachine>::new(vec![
        Kv::Put(0, 0),
        Kv::Put(1, 0),
        Kv::Put(2, 0),
        Kv::Put(3, 0),
        Kv::Put(0, 1),
        Kv::Remove(0),
    ]);
    println!("\nthe pasted sequence fails as reported: {}", pasted.check().unwrap_err());
}
