use mcpwire::prelude::*;

struct Opaque;

/// Returns something that is neither content nor serializable.
#[tool]
async fn show() -> Opaque {
    Opaque
}

/// The same, as the success of a `Result`.
#[tool]
async fn try_show() -> Result<Opaque, ToolError> {
    Ok(Opaque)
}

fn main() {
    let _ = McpServer::new("t").tool(show);
}
