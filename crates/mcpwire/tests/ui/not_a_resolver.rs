use mcpwire::prelude::*;

struct Lookup;

/// Names a type that is not a resolver.
#[tool]
async fn show(#[resolve(Lookup)] value: u32) -> String {
    value.to_string()
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
