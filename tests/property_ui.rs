//! Misuse of `#[property]` is a compile error spanned at the offending tokens.

#[test]
fn property_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/property/*.rs");
}
