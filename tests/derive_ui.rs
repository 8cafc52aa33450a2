//! Compile-fail tests of `#[derive(Reflective)]`: each misuse in `tests/ui/derive/` is rejected with the message in its `.stderr`.

#[test]
fn derive_misuses_are_reported() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/derive/*.rs");
}
