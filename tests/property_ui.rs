//! Misuse of `#[property]` is a compile error spanned at the offending tokens, and the
//! uses in `property_pass/` compile and run.

#[test]
fn property_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/property/*.rs");
    t.pass("tests/ui/property_pass/*.rs");
}
