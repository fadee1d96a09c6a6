use mcpwire::prelude::*;

/// Exports everything.
#[tool(task = "sometimes")]
async fn export() -> &'static str {
    "exported"
}

fn main() {
    let _ = McpServer::new("t").tool(export);
}
