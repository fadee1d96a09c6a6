//! Mistakes the compiler catches in the client's OAuth (features `client` + `auth`), with the
//! messages users see.

#![cfg(all(feature = "client", feature = "auth"))]

#[test]
fn oauth_compile_errors_are_readable() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui_auth/*.rs");
}
