//! The property `refgen_fuzz::bst_delete` as a libFuzzer target: `cargo +nightly fuzz run bst_delete`.

#![no_main]

refgen::fuzz_property!(refgen_fuzz::bst_delete);
