//! Stateful testing of a bank account whose withdrawals have a precondition (never more than the balance): a planted bug found and shrunk.
//!
//! Run with `cargo run --release --example statem_bank`. Generated
//! sequences only withdraw what the model balance holds: a withdrawal
//! drawn too large is made again in place, the case never discarded.

use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::check_state_machine;
use refgen_fixtures::statem_models::BankMachine;

fn main() {
    let config = Config::new("statem_bank").seed(1).cases(10_000);
    match check_state_machine(BankMachine, &config) {
        Err(RunError::Failed(f)) => print!("{f}"),
        other => panic!("the planted bug should be found: {other:?}"),
    }
}
