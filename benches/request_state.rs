//! Sealing and opening a typical `requestState`: one recorded elicitation answer and one
//! question asked, bound to a tool call's method, name, arguments and audience.
//! Results are recorded in `docs/benchmarks.md`.

use criterion::{Criterion, criterion_group, criterion_main};
use mcpwire::bench_internals::{Binding, StateCodec, arguments_digest};
use mcpwire::request_state::KeyRing;
use std::hint::black_box;

const STATE: &str = r#"{"answered":{"bookshop::confirm_backorder":{"d":{"action":"accept","content":{"confirm":true}},"q":"k3Jd8s0aQmS1bS2xYz0w1Q"}},"asked":{"bookshop::gift_wrap":"Zm9vYmFyYmF6cXV4cXV1eA"}}"#;

fn bench(c: &mut Criterion) {
    let codec = StateCodec::new(KeyRing::new([[42u8; 32]]).unwrap(), "Bookshop");
    let arguments = r#"{"title":"Neuromancer"}"#;
    let digest = arguments_digest(Some(arguments));
    let binding = Binding {
        method: "tools/call",
        target: "order_book",
        arguments: &digest,
        principal: None,
    };
    let token = codec.seal(binding, STATE, "call").unwrap();
    let mut group = c.benchmark_group("request_state");
    group.bench_function("seal", |b| {
        b.iter(|| codec.seal(black_box(binding), black_box(STATE), black_box("call")))
    });
    group.bench_function("open", |b| {
        b.iter(|| codec.open(black_box(&token), black_box(binding)).unwrap())
    });
    group.bench_function("arguments_digest", |b| {
        b.iter(|| arguments_digest(black_box(Some(arguments))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
