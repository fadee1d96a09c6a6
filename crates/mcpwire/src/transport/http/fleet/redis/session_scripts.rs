//! The Lua scripts of [`RedisSessions`](super::sessions::RedisSessions): each keeps a record
//! (a hash) and the sorted set that caps its principal's or network's sessions consistent in
//! one round trip. No script creates a key without an expiry: a record is made with one, and
//! written to only while it exists.

use std::sync::LazyLock;

/// Keeps the record (with its expiry), drops members whose records expired, and deletes the
/// least recently used sessions over the cap. KEYS: record, cap set. ARGV: idle ms, now ms, cap
/// (0: none, the set untouched), record key prefix of the set's members, id, then the record's
/// fields and values.
pub(super) static CREATE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local cap = tonumber(ARGV[3])
if cap == 0 then return {} end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', ARGV[4] .. member) == 0 then redis.call('ZREM', KEYS[2], member) end
end
local evicted = {}
while redis.call('ZCARD', KEYS[2]) > cap do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  redis.call('DEL', ARGV[4] .. oldest[1])
  table.insert(evicted, oldest[1])
end
return evicted
",
    )
});

/// Pushes back a live record's expiry and marks it used in its principal's set (given) or its
/// network's (named by the record's `n`); 0 when the record is gone. KEYS: record. ARGV: idle
/// ms, now ms, id, owner set ('' for an anonymous session), network set key prefix.
pub(super) static TOUCH: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then return 0 end
local set = ARGV[4]
if set == '' then
  local network = redis.call('HGET', KEYS[1], 'n')
  if not network then return 1 end
  set = ARGV[5] .. network
end
redis.call('ZADD', set, 'XX', ARGV[2], ARGV[3])
redis.call('PEXPIRE', set, ARGV[1])
return 1
",
    )
});

/// Deletes a record and takes it out of its principal's or network's set. KEYS: record. ARGV:
/// id, owner set ('' for an anonymous session), network set key prefix.
pub(super) static DELETE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local set = ARGV[2]
if set == '' then
  local network = redis.call('HGET', KEYS[1], 'n')
  if network then set = ARGV[3] .. network end
end
redis.call('DEL', KEYS[1])
if set ~= '' then redis.call('ZREM', set, ARGV[1]) end
return 1
",
    )
});

/// Sets (`set`) or removes (`del`) one field of a live record, its expiry kept; 0 when the
/// record is gone. KEYS: record. ARGV: `set` or `del`, field, value.
pub(super) static UPDATE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == 'set' then
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
else
  redis.call('HDEL', KEYS[1], ARGV[2])
end
return 1
",
    )
});

/// Replaces a live record's fields (its network kept) and pushes back its expiry; 0 when it is
/// gone. KEYS: record. ARGV: idle ms, then the fields and values.
pub(super) static SAVE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local network = redis.call('HGET', KEYS[1], 'n')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
if network then redis.call('HSET', KEYS[1], 'n', network) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
",
    )
});
