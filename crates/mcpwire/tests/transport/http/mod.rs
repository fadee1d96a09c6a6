//! Streamable HTTP (`mcpwire::transport::http`), and its fleet.

mod authorization;
mod cache_scope;
mod connections;
mod fleet;
mod legacy;
mod listen;
mod modern;
mod param_headers;
mod principal;
mod protection;
mod resume;
mod serving;
mod session_limits;
