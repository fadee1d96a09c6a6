use mcpwire::client::auth::OAuth;

/// Not a user-facing step: it has no `redirect_uri` nor `authorize`.
struct Browser;

fn main() {
    let _ = OAuth::new(Browser);
}
