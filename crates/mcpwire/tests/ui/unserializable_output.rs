use mcpwire::prelude::*;

struct Opaque;

/// Returns something that is neither content nor serializable.
#[tool]
async fn show() -> Opaque {
    Opaque
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
