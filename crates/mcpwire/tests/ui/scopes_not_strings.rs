use mcpwire::prelude::*;

/// Scopes are OAuth scope names: string literals.
#[tool(scopes = ["orders:write", 7])]
async fn place_order() -> String {
    "ordered".into()
}

fn main() {
    let _ = McpServer::new("t").tool(place_order);
}
