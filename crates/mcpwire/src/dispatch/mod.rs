//! The dispatch layer: revision selection per message, routing, sessions, and connections.
//!
//! Bottom to top: [`handshake`] (what a 2025-11-25 handshake left), [`exchange`] (what a
//! request is served with), [`envelope`] and [`errors`] (what answers look like), [`era`],
//! [`rounds`], [`watched`], [`authorize`] (the one authorization decision), [`runner`] (running
//! a handler; its run is one future, [`running`]), [`pipeline`] (through the server's middleware, the empty stack without any),
//! [`admitted`] (a request admitted to its method), [`methods`] (one file per method family),
//! [`table`] (one row per method: how the core treats it, and what serves it),
//! [`extension_method`] (what no row serves: the extensions' methods, and unknown ones),
//! [`reply`], [`peek`] and [`outer`] (the outer tier, around every message), [`preread`] (what a
//! transport already read of a request's parameters), then [`router`] on top, with
//! [`tool_call`] beside it (a `tools/call` as one future, which the HTTP transport holds when it
//! read the call's parameters), and [`connection`] (stdio and in-memory) above it.

pub(crate) mod admitted;
pub(crate) mod authorize;
pub(crate) mod call_inputs;
pub(crate) mod connection;
pub(crate) mod envelope;
pub(crate) mod era;
pub(crate) mod errors;
pub(crate) mod exchange;
pub(crate) mod extension_method;
pub(crate) mod handshake;
pub(crate) mod in_flight;
pub(crate) mod intercepted;
pub(crate) mod methods;
pub(crate) mod outer;
pub(crate) mod params_fields;
pub(crate) mod params_read;
pub(crate) mod peek;
pub(crate) mod pipeline;
pub(crate) mod preread;
pub(crate) mod reply;
pub(crate) mod rounds;
pub(crate) mod router;
pub(crate) mod runner;
pub(crate) mod running;
pub(crate) mod table;
#[cfg(feature = "http")]
pub(crate) mod tool_call;
pub(crate) mod watched;
