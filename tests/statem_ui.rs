//! Misuse of the state-machine API is a compile error that names what is missing (it adds no attribute or macro).

#[test]
fn statem_ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/statem/*.rs");
}
