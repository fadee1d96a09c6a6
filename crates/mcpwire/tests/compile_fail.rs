//! Mistakes the compiler catches, with the messages users see.

#[test]
fn compile_errors_are_readable() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
