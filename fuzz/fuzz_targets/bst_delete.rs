//! The property `reflect_fuzz::bst_delete` as a libFuzzer target: `cargo +nightly fuzz run bst_delete`.

#![no_main]

reflect::fuzz_property!(reflect_fuzz::bst_delete);
