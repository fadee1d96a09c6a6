//! The session records of a [`RedisBackend`](super::RedisBackend): one hash per session under its
//! principal's hash (see `session_fields.rs`), expiring when idle, one sorted set per principal
//! and one per anonymous network (its sessions by last use) that cap how many it holds across
//! the fleet. A change writes one field; nothing reads a record back but a replica that lacks
//! the session.

use super::super::super::session_change::{SessionCaps, SessionChange};
use super::super::super::shared::{SessionRecord, SessionStore, SharedFuture, idle_ms};
use super::connection::Inner;
use super::session_fields::{fields_of, record_of, write_of};
use super::session_scripts::{CREATE, DELETE, SAVE, TOUCH, UPDATE};
use crate::tasks::now_ms;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The [`SessionStore`] of a [`RedisBackend`](super::RedisBackend).
pub(super) struct RedisSessions {
    inner: Arc<Inner>,
}

/// A short hash of `text` for keys (a principal or an address is nobody's business).
fn tag(text: &str) -> String {
    Sha256::digest(text.as_bytes())[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl RedisSessions {
    pub(super) fn new(inner: Arc<Inner>) -> Self {
        Self { inner }
    }

    fn owner_tag(principal: Option<&str>) -> String {
        principal.map_or_else(|| "-".to_owned(), tag)
    }

    fn record_prefix(&self, principal: Option<&str>) -> String {
        format!("{}r:{}:", self.inner.prefix, Self::owner_tag(principal))
    }

    fn record_key(&self, principal: Option<&str>, id: &str) -> String {
        format!("{}{id}", self.record_prefix(principal))
    }

    /// The set capping a principal's sessions; `''` for anonymous ones (their network's set is
    /// named in their record).
    fn owner_key(&self, principal: Option<&str>) -> String {
        match principal {
            Some(_) => format!("{}o:{}", self.inner.prefix, Self::owner_tag(principal)),
            None => String::new(),
        }
    }

    fn network_prefix(&self) -> String {
        format!("{}n:", self.inner.prefix)
    }
}

impl SessionStore for RedisSessions {
    fn create<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
        max_per_principal: usize,
    ) -> SharedFuture<'a, Vec<String>> {
        Box::pin(async move {
            let caps = SessionCaps {
                per_principal: max_per_principal,
                network: None,
                per_network: 0,
            };
            self.create_capped(record, idle, &caps).await
        })
    }

    fn create_capped<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
        caps: &'a SessionCaps,
    ) -> SharedFuture<'a, Vec<String>> {
        Box::pin(async move {
            let principal = record.principal.as_deref();
            let mut fields = fields_of(record)?;
            let (set, cap) = match (principal, &caps.network) {
                (Some(_), _) => (self.owner_key(principal), caps.per_principal.max(1)),
                (None, Some(network)) => {
                    let network = tag(network);
                    let set = format!("{}{network}", self.network_prefix());
                    fields.push(("n".to_owned(), network));
                    (set, caps.per_network.max(1))
                }
                (None, None) => (self.record_key(principal, &record.id), 0),
            };
            let mut invocation = CREATE.prepare_invoke();
            invocation
                .key(self.record_key(principal, &record.id))
                .key(set)
                .arg(idle_ms(idle))
                .arg(now_ms())
                .arg(cap)
                .arg(self.record_prefix(principal))
                .arg(&record.id);
            for (field, value) in fields {
                invocation.arg(field).arg(value);
            }
            let mut connection = self.inner.connection.clone();
            self.inner
                .run("create session", invocation.invoke_async(&mut connection))
                .await
        })
    }

    fn load<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
    ) -> SharedFuture<'a, Option<SessionRecord>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            let mut all = redis::cmd("HGETALL");
            all.arg(self.record_key(principal, id));
            let read = all.query_async::<HashMap<String, String>>(&mut connection);
            let fields = self.inner.run("load session", read).await?;
            record_of(id, fields)
        })
    }

    fn save<'a>(&'a self, record: &'a SessionRecord, idle: Duration) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let mut invocation = SAVE.prepare_invoke();
            invocation
                .key(self.record_key(record.principal.as_deref(), &record.id))
                .arg(idle_ms(idle));
            for (field, value) in fields_of(record)? {
                invocation.arg(field).arg(value);
            }
            let mut connection = self.inner.connection.clone();
            let saved: i64 = self
                .inner
                .run("save session", invocation.invoke_async(&mut connection))
                .await?;
            Ok(saved == 1)
        })
    }

    fn update<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
        change: &'a SessionChange,
        _idle: Duration,
    ) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let (op, field, value) = write_of(change);
            let mut invocation = UPDATE.prepare_invoke();
            invocation
                .key(self.record_key(principal, id))
                .arg(op)
                .arg(field)
                .arg(value);
            let mut connection = self.inner.connection.clone();
            let updated: i64 = self
                .inner
                .run("update session", invocation.invoke_async(&mut connection))
                .await?;
            Ok(updated == 1)
        })
    }

    fn touch<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
        idle: Duration,
    ) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let mut invocation = TOUCH.prepare_invoke();
            invocation
                .key(self.record_key(principal, id))
                .arg(idle_ms(idle))
                .arg(now_ms())
                .arg(id)
                .arg(self.owner_key(principal))
                .arg(self.network_prefix());
            let mut connection = self.inner.connection.clone();
            let live: i64 = self
                .inner
                .run("touch session", invocation.invoke_async(&mut connection))
                .await?;
            Ok(live == 1)
        })
    }

    fn delete<'a>(&'a self, principal: Option<&'a str>, id: &'a str) -> SharedFuture<'a, ()> {
        Box::pin(async move {
            let mut invocation = DELETE.prepare_invoke();
            invocation
                .key(self.record_key(principal, id))
                .arg(id)
                .arg(self.owner_key(principal))
                .arg(self.network_prefix());
            let mut connection = self.inner.connection.clone();
            self.inner
                .run(
                    "delete session",
                    invocation.invoke_async::<()>(&mut connection),
                )
                .await
        })
    }
}
