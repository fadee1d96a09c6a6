//! The guide's bookshop (`confirm_backorder` asks only when a book is out of stock) as a task:
//! the same resolvers, with `#[tool(task = "optional")]` on `order_book`. Out of stock, the task
//! parks in `input_required` with the question; `tasks/update` answers it and the order is
//! placed. In stock, nothing is asked. Without the extension it is the usual round.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use support::http::*;
use support::tasks::*;

#[derive(Clone, Debug)]
struct Stock {
    copies: u32,
}

struct Inventory(HashMap<&'static str, u32>);

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    let copies = ctx
        .state::<Inventory>()
        .0
        .get(title.as_str())
        .copied()
        .unwrap_or(0);
    Stock { copies }
}

/// The user's answer.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Backorder {
    /// Order anyway and wait?
    confirm: bool,
}

#[resolver]
async fn confirm_backorder(
    title: String,
    #[resolve(check_stock)] stock: Stock,
) -> Elicit<Backorder> {
    if stock.copies > 0 {
        return Elicit::Ready(Backorder { confirm: true });
    }
    Elicit::ask(format!(
        "'{title}' is out of stock (2-3 weeks). Order anyway?"
    ))
}

/// Order a book from the shop.
#[tool(task = "optional")]
async fn order_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    #[resolve(confirm_backorder)] backorder: Backorder,
) -> String {
    if !backorder.confirm {
        return "No order placed.".to_owned();
    }
    if stock.copies == 0 {
        return format!("Backordered '{title}'; it ships in 2-3 weeks.");
    }
    format!("Ordered '{title}'.")
}

async fn bookshop() -> Running {
    let server = McpServer::new("Bookshop")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(order_book)
        .unwrap();
    start(server).await
}

fn only_question(task: &Value) -> (String, Value) {
    let questions = task["inputRequests"].as_object().expect("questions");
    assert_eq!(questions.len(), 1, "{task}");
    let (key, question) = questions.iter().next().unwrap();
    (key.clone(), question.clone())
}

#[tokio::test]
async fn an_out_of_stock_order_asks_inside_its_task_and_is_placed_once_answered() {
    let running = bookshop().await;
    let caller = Caller::new(&running.url);
    let task = caller
        .start_task("order_book", json!({"title": "Neuromancer"}))
        .await;
    let waiting = caller.wait_for(&task, "input_required").await;
    let (key, question) = only_question(&waiting);
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(
        question["params"]["message"],
        "'Neuromancer' is out of stock (2-3 weeks). Order anyway?"
    );
    let answer = json!({ key: {"action": "accept", "content": {"confirm": true}} });
    result(caller.update(&task, answer).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(
        text(&done["result"]),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks."
    );
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_declined_backorder_places_no_order() {
    let running = bookshop().await;
    let caller = Caller::new(&running.url);
    let task = caller
        .start_task("order_book", json!({"title": "Neuromancer"}))
        .await;
    let (key, _) = only_question(&caller.wait_for(&task, "input_required").await);
    let answer = json!({ key: {"action": "accept", "content": {"confirm": false}} });
    result(caller.update(&task, answer).await);
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "No order placed.");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn an_order_in_stock_completes_without_a_question() {
    let running = bookshop().await;
    let caller = Caller::new(&running.url);
    let task = caller
        .start_task("order_book", json!({"title": "Dune"}))
        .await;
    let done = caller.wait_for(&task, "completed").await;
    assert_eq!(text(&done["result"]), "Ordered 'Dune'.");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn without_tasks_the_same_tool_asks_in_an_input_required_round() {
    let running = bookshop().await;
    let caller = Caller::new(&running.url).without_tasks();
    let round = caller
        .call("order_book", json!({"title": "Neuromancer"}))
        .await;
    assert_eq!(round["resultType"], "input_required");
    let (key, _) = only_question(&round);
    let retry = caller
        .send(
            "tools/call",
            json!({
                "name": "order_book",
                "arguments": {"title": "Neuromancer"},
                "inputResponses": { key: {"action": "accept", "content": {"confirm": true}} },
                "requestState": round["requestState"],
            }),
        )
        .await;
    assert_eq!(
        text(&result(retry)),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks."
    );
    running.shut_down().await.unwrap();
}
