//! The dispatch layer: revision selection per message, routing, sessions, and connections.

pub(crate) mod authorize;
pub(crate) mod calls;
pub(crate) mod connection;
pub(crate) mod envelope;
pub(crate) mod era;
pub(crate) mod in_flight;
pub(crate) mod listen;
pub(crate) mod rounds;
pub(crate) mod router;
pub(crate) mod session;
pub(crate) mod tasks;
pub(crate) mod watched;
