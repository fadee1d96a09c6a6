//! `Context` under another name is still the injected context.
use mcpwire::Context as Ctx;
use mcpwire::prelude::*;

#[resolver]
async fn caller(ctx: Ctx) -> String {
    ctx.request_id().to_string()
}

/// Echoes the caller.
#[tool]
async fn whoami(ctx: Ctx, #[resolve(caller)] caller: String) -> String {
    format!("{caller} {}", ctx.protocol_version())
}

fn main() {
    McpServer::new("t").tool(whoami).unwrap();
}
