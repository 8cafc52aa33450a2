//! `refgen_fuzz::bst_delete` with the structure-aware mutator: `cargo +nightly fuzz run bst_delete_mutate`.

#![no_main]

refgen::fuzz_property!(refgen_fuzz::bst_delete, mutate);
