//! Compile-fail tests of `#[derive(Reflective)]` and `#[synth]`: each misuse is rejected with the message in its `.stderr`.

#[test]
fn derive_misuses_are_reported() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/derive/*.rs");
}

/// Compile-fail tests of `#[synth]`: each misuse in `tests/ui/synth/` is rejected with the message in its `.stderr`.
#[test]
fn synth_misuses_are_reported() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/synth/*.rs");
}
