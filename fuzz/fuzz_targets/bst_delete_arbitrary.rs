//! The baseline: the same bug, with the input derived by `arbitrary` (what cargo-fuzz users write today);
//! an input that is not a search tree is skipped.

#![no_main]

use libfuzzer_sys::fuzz_target;
use refgen_fuzz::{is_bst, Tree};

fuzz_target!(|input: (Tree, u8)| {
    let (t, x) = input;
    if is_bst(&t) {
        assert!(is_bst(&t.delete(x)), "delete({x}) broke the order of {t:?}");
    }
});
