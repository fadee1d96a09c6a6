//! `Mcp-Param-*` headers (2026-07-28): tool arguments marked `#[arg(header = "…")]` carry
//! `x-mcp-header` in the schema, and a request must mirror them in headers.

use crate::support;
use mcpwire::prelude::*;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::json;
use support::http::*;

/// Runs a query for a tenant.
#[tool]
async fn query(
    #[arg(header = "Tenant")] tenant: String,
    #[arg(header = "Limit")] limit: Option<i64>,
    #[arg(header = "Dry-Run")] dry_run: Option<bool>,
    text: String,
) -> String {
    format!("{tenant}:{limit:?}:{dry_run:?}:{text}")
}

fn headers_with(body: &serde_json::Value, extra: &[(&'static str, &str)]) -> HeaderMap {
    let mut headers = modern_headers(body);
    for (name, value) in extra {
        headers.insert(*name, HeaderValue::from_str(value).unwrap());
    }
    headers
}

#[tokio::test]
async fn mirrored_arguments_are_in_the_schema_and_checked_against_their_headers() {
    let server = start(McpServer::new("params").tool(query).unwrap()).await;
    let list = json_of(
        server
            .modern(&modern_body(1, "tools/list", json!({})))
            .await,
    )
    .await;
    let schema = &list["result"]["tools"][0]["inputSchema"]["properties"];
    assert_eq!(schema["tenant"]["x-mcp-header"], "Tenant");
    assert_eq!(schema["limit"]["x-mcp-header"], "Limit");

    let body = modern_body(
        2,
        "tools/call",
        json!({"name": "query",
        "arguments": {"tenant": "acme", "limit": 42, "dry_run": true, "text": "hi"}}),
    );
    let good = headers_with(
        &body,
        &[
            ("mcp-param-tenant", "acme"),
            ("mcp-param-limit", "42.0"),
            ("mcp-param-dry-run", "true"),
        ],
    );
    let ok = server.post_with(&body, good).await;
    assert_eq!(ok.status(), 200);
    assert_eq!(
        json_of(ok).await["result"]["content"][0]["text"],
        "acme:Some(42):Some(true):hi"
    );

    let encoded = headers_with(
        &body,
        &[
            ("mcp-param-tenant", "=?base64?YWNtZQ==?="),
            ("mcp-param-limit", "42"),
            ("mcp-param-dry-run", "true"),
        ],
    );
    assert_eq!(server.post_with(&body, encoded).await.status(), 200);

    let cases: [(&[(&'static str, &str)], &str); 4] = [
        (
            &[("mcp-param-limit", "42"), ("mcp-param-dry-run", "true")],
            "missing required header Mcp-Param-Tenant",
        ),
        (
            &[
                ("mcp-param-tenant", "other"),
                ("mcp-param-limit", "42"),
                ("mcp-param-dry-run", "true"),
            ],
            "header Mcp-Param-Tenant does not match the request body",
        ),
        (
            &[
                ("mcp-param-tenant", "acme"),
                ("mcp-param-limit", "43"),
                ("mcp-param-dry-run", "true"),
            ],
            "header Mcp-Param-Limit does not match the request body",
        ),
        (
            &[
                ("mcp-param-tenant", "acme"),
                ("mcp-param-limit", "42"),
                ("mcp-param-dry-run", "yes"),
            ],
            "header Mcp-Param-Dry-Run does not match the request body",
        ),
    ];
    for (extra, message) in cases {
        let response = server.post_with(&body, headers_with(&body, extra)).await;
        assert_eq!(response.status(), 400, "{message}");
        let error = json_of(response).await["error"].clone();
        assert_eq!(
            error,
            json!({"code": -32020, "message": format!("Header mismatch: {message}")})
        );
    }

    // Optional arguments left out need no header; a header without its argument is refused.
    let minimal = modern_body(
        3,
        "tools/call",
        json!({"name": "query", "arguments": {"tenant": "acme", "text": "x"}}),
    );
    let ok = server
        .post_with(
            &minimal,
            headers_with(&minimal, &[("mcp-param-tenant", "acme")]),
        )
        .await;
    assert_eq!(ok.status(), 200);
    let stray = headers_with(
        &minimal,
        &[("mcp-param-tenant", "acme"), ("mcp-param-limit", "5")],
    );
    let refused = json_of(server.post_with(&minimal, stray).await).await;
    assert_eq!(
        refused["error"]["message"],
        "Header mismatch: header Mcp-Param-Limit has no argument in the body"
    );
}

/// Mirrors a float, which the spec does not allow.
#[tool]
async fn ratio(#[arg(header = "Ratio")] ratio: f64) -> String {
    ratio.to_string()
}

#[test]
fn a_header_on_a_non_integer_number_fails_at_registration() {
    let error = McpServer::new("t").tool(ratio).err().unwrap();
    assert_eq!(
        error.message(),
        "tool 'ratio': argument 'ratio' is mirrored in a header but is not a string, integer or boolean"
    );
}
