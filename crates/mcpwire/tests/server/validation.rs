//! Values are checked against the schema the server advertises, not only by type: tool
//! arguments (generated schemas with constraints on parameters, and hand-written
//! `input_schema`s) and elicitation answers (the form a resolver asks with `Elicit<M>`), on both
//! protocol revisions. Tool arguments are sent by the crate's own client; the answers to a form
//! are sent in raw JSON-RPC lines (rounds with `requestState` on 2026-07-28, answers to the
//! server's request on 2025-11-25), as a client that does not check them would.

use crate::support;
use mcpwire::client::Client;
use mcpwire::prelude::*;
use mcpwire::protocol::{CallToolResult, Content};
use mcpwire::transport::MemoryClient;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};
use std::cell::RefCell;
use support::{
    ERAS, call, connect, exchange, first_text, is_error, modern_call, modern_meta, next,
    request_state, retry_call, text,
};

/// A client of `server` on each revision (legacy first).
async fn clients(server: impl Fn() -> McpServer) -> [Client; 2] {
    let [legacy, modern] = ERAS;
    [
        support::client(server(), legacy).await,
        support::client(server(), modern).await,
    ]
}

/// Calls `tool` with `arguments` on both revisions and returns both results (legacy first).
async fn call_both(clients: &[Client; 2], tool: &str, arguments: Value) -> [CallToolResult; 2] {
    let mut results = Vec::new();
    for client in clients {
        let result = client.call_tool(tool, arguments.clone()).await;
        results.push(result.unwrap_or_else(|e| panic!("{:?}: {e}", client.era())));
    }
    results.try_into().unwrap()
}

/// Whether a tool result is an `isError` result.
fn failed(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}

// ---- constraints on generated schemas ------------------------------------------------------

/// Orders copies of a book.
#[tool]
async fn order(
    /// The title.
    #[schemars(length(min = 2))]
    title: String,
    /// How many copies, at most 10.
    #[schemars(range(max = 10))]
    copies: u32,
    /// The shop's code: three capitals, a dash, three digits.
    #[schemars(regex(pattern = r"^[A-Z]{3}-[0-9]{3}$"))]
    shop: String,
    /// Hardback or paperback.
    #[schemars(extend("enum" = ["hardback", "paperback"]))]
    binding: String,
    /// Where to send the receipt.
    #[schemars(email)]
    email: String,
    /// The delivery day.
    #[schemars(extend("format" = "date"))]
    day: Option<String>,
) -> String {
    format!(
        "{copies} {binding} of {title} from {shop} for {email} on {}",
        day.unwrap_or_else(|| "any day".into())
    )
}

fn valid_order() -> Value {
    json!({"title": "Dune", "copies": 10, "shop": "LON-001", "binding": "paperback",
           "email": "ada@example.com", "day": "2026-07-28"})
}

/// `valid_order()` with one argument changed.
fn order_with(name: &str, value: Value) -> Value {
    let mut arguments = valid_order();
    arguments[name] = value;
    arguments
}

#[tokio::test]
async fn constraints_on_tool_parameters_are_listed_and_enforced_on_both_revisions() {
    let clients = clients(|| McpServer::new("v").tool(order).unwrap()).await;
    for client in &clients {
        let tools = client.list_tools().await.unwrap();
        let properties = &tools[0].input_schema["properties"];
        let list = &tools[0].input_schema;
        assert_eq!(properties["title"]["minLength"], 2, "{list}");
        assert_eq!(properties["copies"]["maximum"], 10, "{list}");
        assert_eq!(
            properties["shop"]["pattern"], "^[A-Z]{3}-[0-9]{3}$",
            "{list}"
        );
        assert_eq!(
            properties["binding"]["enum"],
            json!(["hardback", "paperback"])
        );
        assert_eq!(properties["email"]["format"], "email", "{list}");
        assert_eq!(properties["day"]["format"], "date", "{list}");
    }
    let cases = [
        (
            order_with("title", json!("D")),
            "title: must be at least 2 characters long (minLength)",
        ),
        (
            order_with("copies", json!(11)),
            "copies: must be at most 10 (maximum)",
        ),
        (
            order_with("shop", json!("lon-1")),
            "shop: must match the pattern ^[A-Z]{3}-[0-9]{3}$ (pattern)",
        ),
        (
            order_with("binding", json!("leather")),
            r#"binding: must be one of "hardback", "paperback" (enum)"#,
        ),
        (
            order_with("email", json!("ada at example")),
            "email: must be a valid email (format)",
        ),
        (
            order_with("day", json!("28 July")),
            "day: must be a valid date (format)",
        ),
    ];
    for (arguments, why) in cases {
        for answer in call_both(&clients, "order", arguments.clone()).await {
            assert!(failed(&answer), "{arguments}: {answer:?}");
            assert_eq!(
                first_text(&answer),
                format!("Error executing tool order: invalid arguments: {why}"),
                "{arguments}"
            );
        }
    }
    for answer in call_both(&clients, "order", valid_order()).await {
        assert!(!failed(&answer), "{answer:?}");
        assert_eq!(
            first_text(&answer),
            "10 paperback of Dune from LON-001 for ada@example.com on 2026-07-28"
        );
    }
    let mut without_day = valid_order();
    without_day.as_object_mut().unwrap().remove("day");
    for answer in call_both(&clients, "order", without_day).await {
        assert!(first_text(&answer).ends_with("on any day"), "{answer:?}");
    }
}

#[tokio::test]
async fn a_type_error_keeps_its_wording_and_the_server_keeps_serving() {
    let clients = clients(|| McpServer::new("v").tool(order).unwrap()).await;
    for answer in call_both(&clients, "order", order_with("copies", json!("ten"))).await {
        assert!(failed(&answer), "{answer:?}");
        assert_eq!(
            first_text(&answer),
            "Error executing tool order: invalid arguments: copies: invalid type: string \"ten\", \
             expected u32"
        );
    }
    // The server keeps serving each connection.
    let [legacy, modern] = &clients;
    legacy.ping().await.unwrap();
    modern.list_tools().await.unwrap();
}

// ---- hand-written input schemas ------------------------------------------------------------

fn sku_schema() -> schemars::Schema {
    json!({
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^SKU-[0-9]{4}$"},
            "quantity": {"type": "integer", "exclusiveMinimum": 0}
        },
        "required": ["sku"],
        "additionalProperties": false
    })
    .try_into()
    .unwrap()
}

/// Looks a product up by its SKU.
#[tool(input_schema = "sku_schema")]
async fn find_product(sku: String, quantity: Option<i64>) -> String {
    format!("{sku} x{}", quantity.unwrap_or(1))
}

#[tokio::test]
async fn a_hand_written_input_schema_is_enforced_on_both_revisions() {
    let clients = clients(|| McpServer::new("v").tool(find_product).unwrap()).await;
    let cases = [
        (
            json!({"sku": "sku-1"}),
            "sku: must match the pattern ^SKU-[0-9]{4}$ (pattern)",
        ),
        (
            json!({"sku": "SKU-0001", "quantity": 0}),
            "quantity: must be greater than 0 (exclusiveMinimum)",
        ),
        (
            json!({"sku": "SKU-0001", "colour": "red"}),
            "colour: is not allowed (additionalProperties)",
        ),
    ];
    for (arguments, why) in cases {
        for answer in call_both(&clients, "find_product", arguments.clone()).await {
            assert!(failed(&answer), "{arguments}: {answer:?}");
            assert_eq!(
                first_text(&answer),
                format!("Error executing tool find_product: invalid arguments: {why}"),
                "{arguments}"
            );
        }
    }
    for answer in call_both(&clients, "find_product", json!({"sku": "SKU-0042"})).await {
        assert!(!failed(&answer), "{answer:?}");
        assert_eq!(first_text(&answer), "SKU-0042 x1");
    }
}

// ---- elicitation answers -------------------------------------------------------------------

/// A booking, asked of the user.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Booking {
    /// How many seats (1 to 8).
    #[schemars(range(min = 1, max = 8))]
    seats: u32,
    /// The name on the booking.
    #[schemars(length(min = 2, max = 40))]
    name: String,
    /// Where to send the confirmation.
    #[schemars(email)]
    email: Option<String>,
}

#[resolver]
async fn ask_booking() -> Elicit<Booking> {
    Elicit::ask("Book a table?")
}

/// Books a table.
#[tool]
async fn book(#[resolve(ask_booking)] booking: Booking) -> String {
    let to = booking.email.map(|e| format!(", confirmed to {e}"));
    format!(
        "{} seats for {}{}",
        booking.seats,
        booking.name,
        to.unwrap_or_default()
    )
}

const ASKED: &str = "server::validation::ask_booking";

fn mismatch() -> String {
    "Error executing tool book: Resolver 'ask_booking' received an accepted elicitation whose \
     content does not match the requested schema"
        .to_owned()
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// Answers that fit the form's types but not its constraints.
fn out_of_form() -> [Value; 4] {
    [
        json!({"seats": 9, "name": "Ada"}),
        json!({"seats": 0, "name": "Ada"}),
        json!({"seats": 2, "name": "A"}),
        json!({"seats": 2, "name": "Ada", "email": "not an address"}),
    ]
}

fn booking_server() -> McpServer {
    McpServer::new("v").tool(book).unwrap()
}

#[tokio::test]
async fn an_answer_outside_the_form_is_not_accepted_on_2026_07_28() {
    let mut client = connect(booking_server()).await;
    let form = json!({"elicitation": {"form": {}}});
    let round1 = exchange(
        &mut client,
        modern_call(1, "book", json!({}), modern_meta(form.clone())),
    )
    .await;
    let asked = &round1["result"]["inputRequests"][ASKED]["params"]["requestedSchema"];
    assert_eq!(asked["properties"]["seats"]["maximum"], 8, "{round1}");
    assert_eq!(asked["properties"]["name"]["minLength"], 2, "{round1}");
    let state = request_state(&round1);
    let mut id = 2;
    for content in out_of_form() {
        let responses = json!({ ASKED: accept(content.clone()) });
        let answer = exchange(
            &mut client,
            retry_call(id, "book", json!({}), form.clone(), responses, &state),
        )
        .await;
        assert!(is_error(&answer), "{content}: {answer}");
        assert_eq!(text(&answer), mismatch(), "{content}");
        id += 1;
    }
    let responses = json!({ ASKED: accept(json!({"seats": 2, "name": "Ada", "email": null})) });
    let done = exchange(
        &mut client,
        retry_call(id, "book", json!({}), form, responses, &state),
    )
    .await;
    assert_eq!(text(&done), "2 seats for Ada", "{done}");
}

/// Opens a 2025-11-25 session whose client can answer form elicitations.
async fn legacy_session() -> MemoryClient {
    let mut client = connect(booking_server()).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},
        "clientInfo":{"name":"c","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    client
}

/// Calls `book` on a legacy session, answers its `elicitation/create` with `content`, and
/// returns the call's response.
async fn book_answering(client: &mut MemoryClient, id: u64, content: Value) -> Value {
    let question = exchange(client, call(id, "book", json!({}))).await;
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let answer = json!({"jsonrpc":"2.0","id":question["id"],"result":accept(content)});
    client.send(answer.to_string());
    next(client).await
}

#[tokio::test]
async fn an_answer_outside_the_form_is_not_accepted_on_2025_11_25() {
    let mut client = legacy_session().await;
    let mut id = 1;
    for content in out_of_form() {
        let response = book_answering(&mut client, id, content.clone()).await;
        assert_eq!(response["id"], id, "{response}");
        assert!(is_error(&response), "{content}: {response}");
        assert_eq!(text(&response), mismatch(), "{content}");
        id += 1;
    }
    let done = book_answering(&mut client, id, json!({"seats": 8, "name": "Grace"})).await;
    assert_eq!(text(&done), "8 seats for Grace", "{done}");
}

// ---- arbitrary input -----------------------------------------------------------------------

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u32..12).prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,10}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{0,6}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// `base` with a few of its values (or new keys) replaced: strings and small numbers, which
/// reach the constraints, or anything at all.
fn changed(base: Value) -> impl Strategy<Value = Value> {
    let names: Vec<String> = base.as_object().unwrap().keys().cloned().collect();
    let key = prop_oneof![
        4 => prop::sample::select(names),
        1 => "[a-z]{1,6}",
    ];
    let value = prop_oneof![
        3 => ".{0,12}".prop_map(Value::from),
        2 => (-3i64..15).prop_map(Value::from),
        2 => any_json(),
    ];
    prop::collection::btree_map(key, value, 0..4).prop_map(move |changes| {
        let mut object = base.clone();
        for (key, value) in changes {
            object[key] = value;
        }
        object
    })
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// What an accepted booking must satisfy: the form's range and length constraints.
fn fits_booking(content: &Value) -> bool {
    let seats = content["seats"]
        .as_u64()
        .is_some_and(|s| (1..=8).contains(&s));
    let name = content["name"].as_str().map(|n| n.chars().count());
    seats && name.is_some_and(|n| (2..=40).contains(&n))
}

/// Whether `text` is `prefix` followed by exactly `digits` ASCII digits.
fn coded(text: Option<&str>, prefix: impl Fn(&str) -> bool, digits: usize) -> bool {
    text.is_some_and(|t| {
        let (head, tail) = t.split_at(t.len().saturating_sub(digits));
        prefix(head) && tail.len() == digits && tail.bytes().all(|b| b.is_ascii_digit())
    })
}

/// What accepted `order` arguments must satisfy (the string formats aside).
fn fits_order(arguments: &Value) -> bool {
    let title = arguments["title"].as_str().map(|t| t.chars().count());
    let shop = |head: &str| {
        head.len() == 4
            && head.ends_with('-')
            && head.bytes().take(3).all(|b| b.is_ascii_uppercase())
    };
    title.is_some_and(|n| n >= 2)
        && arguments["copies"].as_u64().is_some_and(|c| c <= 10)
        && coded(arguments["shop"].as_str(), shop, 3)
        && matches!(
            arguments["binding"].as_str(),
            Some("hardback" | "paperback")
        )
}

/// What accepted `find_product` arguments must satisfy.
fn fits_product(arguments: &Value) -> bool {
    let object = arguments.as_object().unwrap();
    let quantity = object.get("quantity");
    coded(arguments["sku"].as_str(), |head| head == "SKU-", 4)
        && quantity.is_none_or(|q| q.as_i64().is_some_and(|q| q > 0))
        && object.keys().all(|key| key == "sku" || key == "quantity")
}

#[test]
fn arbitrary_answers_to_a_form_are_accepted_only_inside_it() {
    let runtime = runtime();
    let form = json!({"elicitation": {"form": {}}});
    let (client, state) = runtime.block_on(async {
        let mut client = connect(booking_server()).await;
        let round1 = exchange(
            &mut client,
            modern_call(1, "book", json!({}), modern_meta(form.clone())),
        )
        .await;
        let state = request_state(&round1);
        (client, state)
    });
    let client = RefCell::new(client);
    let answers = prop_oneof![
        3 => changed(json!({"seats": 2, "name": "Ada", "email": "ada@example.com"})).prop_map(accept),
        1 => (any_json(), any_json()).prop_map(|(action, content)| json!({"action": action, "content": content})),
        1 => any_json(),
    ];
    runner(192)
        .run(&answers, |answer| {
            let responses = json!({ ASKED: answer });
            let line = retry_call(2, "book", json!({}), form.clone(), responses, &state);
            let response = runtime.block_on(exchange(&mut client.borrow_mut(), line));
            prop_assert_eq!(&response["id"], &json!(2), "{}", response);
            let text = response["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            if is_error(&response) {
                prop_assert!(
                    text.starts_with("Error executing tool book: Resolver 'ask_booking' received"),
                    "{}",
                    response
                );
            } else {
                prop_assert!(text.contains(" seats for "), "{}", response);
                prop_assert!(fits_booking(&answer["content"]), "accepted {}", answer);
            }
            Ok(())
        })
        .unwrap();
    let ping = runtime.block_on(exchange(
        &mut client.borrow_mut(),
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#.into(),
    ));
    assert_eq!(ping["result"], json!({}));
}

#[test]
fn arbitrary_arguments_are_accepted_only_inside_the_schema() {
    let runtime = runtime();
    let server = || {
        McpServer::new("v")
            .tool(order)
            .and_then(|s| s.tool(find_product))
            .unwrap()
    };
    let clients = runtime.block_on(clients(server));
    let calls = prop_oneof![
        changed(valid_order()).prop_map(|arguments| ("order", arguments)),
        changed(json!({"sku": "SKU-0001", "quantity": 2}))
            .prop_map(|arguments| ("find_product", arguments)),
    ];
    runner(192)
        .run(&calls, |(tool, arguments)| {
            for result in runtime.block_on(call_both(&clients, tool, arguments.clone())) {
                let text = match result.content.first() {
                    Some(Content::Text { text, .. }) => text.as_str(),
                    _ => "",
                };
                if failed(&result) {
                    let refused = format!("Error executing tool {tool}: invalid arguments: ");
                    prop_assert!(text.starts_with(&refused), "{}: {:?}", arguments, result);
                } else {
                    let fits = match tool {
                        "order" => fits_order(&arguments),
                        _ => fits_product(&arguments),
                    };
                    prop_assert!(fits, "accepted {}: {:?}", arguments, result);
                }
            }
            Ok(())
        })
        .unwrap();
}
