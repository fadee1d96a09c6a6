use mcpwire::prelude::*;

mod other {
    pub struct Context;
}

/// A parameter typed `Context` must be mcp's.
#[tool]
async fn show(ctx: other::Context) -> String {
    let _ = ctx;
    String::new()
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
