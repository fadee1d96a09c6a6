//! A broken tool or resolver graph fails at registration, naming the culprit.

use mcpwire::prelude::*;

#[derive(Clone)]
struct Stock(u32);

#[resolver]
async fn needs_isbn(isbn: String) -> Stock {
    Stock(isbn.len() as u32)
}

/// Uses a resolver whose parameter no source can fill.
#[tool]
async fn lookup(title: String, #[resolve(needs_isbn)] stock: Stock) -> String {
    format!("{title}: {}", stock.0)
}

#[test]
fn an_unclassifiable_resolver_parameter_names_the_resolver_and_the_parameter() {
    let error = McpServer::new("t")
        .tool(lookup)
        .err()
        .expect("registration fails");
    assert_eq!(
        error.message(),
        "tool 'lookup': resolver 'needs_isbn' parameter 'isbn' cannot be resolved: expected a \
         Context, a #[resolve(..)] parameter, or a tool argument named 'isbn'"
    );
}

#[resolver]
async fn count_copies(title: u32) -> Stock {
    Stock(title)
}

/// The resolver wants `title` as a number, the tool has it as a string.
#[tool]
async fn mismatched(title: String, #[resolve(count_copies)] stock: Stock) -> String {
    format!("{title}: {}", stock.0)
}

#[test]
fn a_resolver_argument_of_another_type_than_the_tools_is_rejected() {
    let error = McpServer::new("t")
        .tool(mismatched)
        .err()
        .expect("registration fails");
    assert_eq!(
        error.message(),
        "tool 'mismatched': resolver 'count_copies' parameter 'title' has type `u32`, but the \
         tool argument 'title' has type `String`"
    );
}

#[resolver]
async fn first(#[resolve(second)] value: u32) -> u32 {
    value
}

#[resolver]
async fn second(#[resolve(third)] value: u32) -> u32 {
    value
}

#[resolver]
async fn third(#[resolve(first)] value: u32) -> u32 {
    value
}

/// Depends on a cycle.
#[tool]
async fn circular(#[resolve(first)] value: u32) -> String {
    value.to_string()
}

#[test]
fn a_cycle_is_rejected_and_named() {
    let error = McpServer::new("t")
        .tool(circular)
        .err()
        .expect("registration fails");
    assert_eq!(
        error.message(),
        "tool 'circular': resolver 'first' has a cyclic dependency: first -> second -> third -> first"
    );
}

/// Says hi.
#[tool]
async fn hello() -> String {
    "hi".into()
}

/// Also says hi, under the same name.
#[tool(name = "hello")]
async fn hello_again() -> String {
    "hi again".into()
}

#[test]
fn a_duplicate_tool_name_is_rejected() {
    let error = McpServer::new("t")
        .tool(hello)
        .unwrap()
        .tool(hello_again)
        .err()
        .unwrap();
    assert_eq!(error.message(), "tool 'hello' is registered twice");
}

/// A name with a space.
#[tool(name = "say hello")]
async fn spaced() -> String {
    "hi".into()
}

#[test]
fn an_invalid_tool_name_is_rejected() {
    let error = McpServer::new("t").tool(spaced).err().unwrap();
    assert!(
        error
            .message()
            .starts_with("tool name 'say hello' is invalid"),
        "{error}"
    );
}

#[resolver]
async fn isbn_free() -> Stock {
    Stock(3)
}

#[resolver]
async fn needs_author(author: String) -> Stock {
    Stock(author.len() as u32)
}

#[test]
fn an_override_that_fixes_the_graph_is_accepted_and_one_that_breaks_it_is_not() {
    // The replacement of `needs_isbn` takes no argument, so `lookup` becomes valid.
    let fixed = McpServer::new("t")
        .override_resolver::<needs_isbn, isbn_free>()
        .unwrap()
        .tool(lookup);
    assert!(fixed.is_ok());
    // Overriding after registration re-checks the registered tools.
    let broken = McpServer::new("t")
        .override_resolver::<needs_isbn, isbn_free>()
        .unwrap()
        .tool(lookup)
        .unwrap()
        .override_resolver::<needs_isbn, needs_author>()
        .err()
        .expect("the graph is broken again");
    assert!(
        broken
            .message()
            .contains("resolver 'needs_author' parameter 'author'"),
        "{broken}"
    );
}
