//! Mistakes the compiler catches, with the messages users see; and spellings that must keep
//! compiling (a renamed `Context`, a resolver returning a `Result` alias).

#[test]
fn compile_errors_are_readable() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
