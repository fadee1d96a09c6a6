use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};

/// Not a token store: it has no `load` nor `save`.
struct Keyring;

fn main() {
    let _ = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb")).store(Keyring);
}
