//! Replicas sharing sessions, streams, tasks and records in Redis (`transport/http/fleet`).

mod backend;
mod expiry;
mod records;
mod relay;
mod replay;
mod sessions;
mod streams;
