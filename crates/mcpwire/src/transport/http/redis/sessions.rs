//! The session records of a [`RedisFleet`](super::RedisFleet): one string per session under its
//! principal's hash, expiring when idle, and one sorted set per principal (its sessions by last
//! use) that caps how many it holds across the fleet.

use super::super::shared::{SessionRecord, SessionStore, SharedFuture, Unavailable, idle_ms};
use super::connection::Inner;
use crate::tasks::now_ms;
use sha2::{Digest, Sha256};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// Keeps the record, drops members whose records expired, and deletes the least recently used
/// sessions over the cap. KEYS: record, owner set. ARGV: record JSON, idle ms, now ms, cap (0:
/// anonymous, no set), record key prefix of the owner, id.
static CREATE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local cap = tonumber(ARGV[4])
if cap == 0 then return {} end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', ARGV[5] .. member) == 0 then redis.call('ZREM', KEYS[2], member) end
end
local evicted = {}
while redis.call('ZCARD', KEYS[2]) > cap do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  redis.call('DEL', ARGV[5] .. oldest[1])
  table.insert(evicted, oldest[1])
end
return evicted
",
    )
});

/// The [`SessionStore`] of a [`RedisFleet`](super::RedisFleet).
pub(super) struct RedisSessions {
    inner: Arc<Inner>,
}

impl RedisSessions {
    pub(super) fn new(inner: Arc<Inner>) -> Self {
        Self { inner }
    }

    /// The hash of a principal in keys (a principal may be long, and is nobody's business).
    fn owner_tag(principal: Option<&str>) -> String {
        match principal {
            None => "-".to_owned(),
            Some(principal) => Sha256::digest(principal.as_bytes())[..12]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        }
    }

    fn record_prefix(&self, principal: Option<&str>) -> String {
        format!("{}s:{}:", self.inner.prefix, Self::owner_tag(principal))
    }

    fn record_key(&self, principal: Option<&str>, id: &str) -> String {
        format!("{}{id}", self.record_prefix(principal))
    }

    fn owner_key(&self, principal: Option<&str>) -> String {
        format!("{}o:{}", self.inner.prefix, Self::owner_tag(principal))
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
            let principal = record.principal.as_deref();
            let json = serde_json::to_string(record).expect("records serialize");
            let cap = if principal.is_some() {
                max_per_principal.max(1)
            } else {
                0
            };
            let mut connection = self.inner.connection.clone();
            let mut invocation = CREATE.prepare_invoke();
            invocation
                .key(self.record_key(principal, &record.id))
                .key(self.owner_key(principal))
                .arg(json)
                .arg(idle_ms(idle))
                .arg(now_ms())
                .arg(cap)
                .arg(self.record_prefix(principal))
                .arg(&record.id);
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
            let mut get = redis::cmd("GET");
            get.arg(self.record_key(principal, id));
            let read = get.query_async::<Option<String>>(&mut connection);
            let Some(json) = self.inner.run("load session", read).await? else {
                return Ok(None);
            };
            serde_json::from_str(&json)
                .map(Some)
                .map_err(|_| Unavailable::new("an unreadable session record"))
        })
    }

    fn save<'a>(&'a self, record: &'a SessionRecord, idle: Duration) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let json = serde_json::to_string(record).expect("records serialize");
            let mut connection = self.inner.connection.clone();
            let mut set = redis::cmd("SET");
            set.arg(self.record_key(record.principal.as_deref(), &record.id))
                .arg(json)
                .arg("PX")
                .arg(idle_ms(idle))
                .arg("XX");
            let write = set.query_async::<Option<String>>(&mut connection);
            Ok(self.inner.run("save session", write).await?.is_some())
        })
    }

    fn touch<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
        idle: Duration,
    ) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let idle = idle_ms(idle);
            let mut pipe = redis::pipe();
            pipe.cmd("PEXPIRE")
                .arg(self.record_key(principal, id))
                .arg(idle);
            if principal.is_some() {
                let owner = self.owner_key(principal);
                pipe.cmd("ZADD")
                    .arg(&owner)
                    .arg("XX")
                    .arg(now_ms())
                    .arg(id)
                    .ignore();
                pipe.cmd("PEXPIRE").arg(&owner).arg(idle).ignore();
            }
            let mut connection = self.inner.connection.clone();
            let (live,): (bool,) = self
                .inner
                .run("touch session", pipe.query_async(&mut connection))
                .await?;
            Ok(live)
        })
    }

    fn delete<'a>(&'a self, principal: Option<&'a str>, id: &'a str) -> SharedFuture<'a, ()> {
        Box::pin(async move {
            let mut pipe = redis::pipe();
            pipe.cmd("DEL").arg(self.record_key(principal, id)).ignore();
            if principal.is_some() {
                pipe.cmd("ZREM")
                    .arg(self.owner_key(principal))
                    .arg(id)
                    .ignore();
            }
            let mut connection = self.inner.connection.clone();
            self.inner
                .run("delete session", pipe.query_async::<()>(&mut connection))
                .await
        })
    }
}
