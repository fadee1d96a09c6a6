use mcpwire::prelude::*;

#[derive(Clone)]
struct Stock;

#[resolver]
async fn check_stock() -> Stock {
    Stock
}

/// A constraint on a resolved parameter: the client never sends it.
#[tool]
async fn reserve(#[resolve(check_stock)] #[schemars(length(min = 1))] stock: Stock) -> String {
    drop(stock);
    String::new()
}

/// A constraint on a prompt argument: prompts are not checked against a schema.
#[prompt]
async fn review(#[schemars(length(min = 1))] code: String) -> String {
    code
}

fn main() {}
