//! The Lua scripts of the Redis task store: each change of a task, its lease, its owner's
//! quota and the store's bounds is one atomic script.

/// Lua shared by the scripts that keep the store within its bounds. `P` is the key prefix; an
/// index key (`P:index`, `P:finished`, `P:finished:…`) lives as long as its longest-lived task.
macro_rules! retention_lua {
    () => {
        r#"
local function extend(key, at, fresh)
  if at == 0 then
    redis.call('PERSIST', key)
  else
    local current = redis.call('PEXPIRETIME', key)
    if fresh or (current >= 0 and current < at) then redis.call('PEXPIREAT', key, at) end
  end
end
local function index(key, score, id, at)
  local fresh = redis.call('EXISTS', key) == 0
  redis.call('ZADD', key, score, id)
  extend(key, at, fresh)
end
local function evict(P, id, all, finished)
  redis.call('DEL', P .. ':task:' .. id, P .. ':lease:' .. id, P .. ':answers:' .. id)
  redis.call('ZREM', all, id)
  redis.call('ZREM', finished, id)
end
local function oldest(P, from)
  while true do
    local popped = redis.call('ZPOPMIN', from)
    if #popped == 0 then return false end
    if redis.call('EXISTS', P .. ':task:' .. popped[1]) == 1 then return popped[1] end
  end
end
"#
    };
}

/// Creates a task with its lease, within its owner's quota and the store's capacity: when the
/// store is full, the owner's task that finished longest ago is evicted, else anyone's; with
/// no finished task left, `full`.
/// KEYS: task, lease, owner set, index (every task by expiry), finished (by end time), the
/// owner's finished. ARGV: record, expiry (ms since the epoch, 0: none), lease (ms), replica,
/// quota (0: none), lease key prefix, id, key prefix, capacity, now (ms), terminal (0/1),
/// end time (ms).
pub(super) const CREATE: &str = concat!(
    retention_lua!(),
    r#"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate' end
local quota = tonumber(ARGV[5])
if quota > 0 and redis.call('SCARD', KEYS[3]) >= quota then
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if redis.call('EXISTS', ARGV[6] .. id) == 0 then redis.call('SREM', KEYS[3], id) end
  end
  if redis.call('SCARD', KEYS[3]) >= quota then return 'quota' end
end
local P, at = ARGV[8], tonumber(ARGV[2])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', ARGV[10], 'LIMIT', 0, 1000)) do
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
end
while redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[9]) do
  local victim = oldest(P, KEYS[6]) or oldest(P, KEYS[5])
  if not victim then return 'full' end
  evict(P, victim, KEYS[4], KEYS[5])
end
if at > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
local score = at
if at == 0 then score = 253402300799000 end
index(KEYS[4], score, ARGV[7], at)
if ARGV[11] == '1' then
  index(KEYS[5], ARGV[12], ARGV[7], at)
  index(KEYS[6], ARGV[12], ARGV[7], at)
  return 'ok'
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
redis.call('SADD', KEYS[3], ARGV[7])
local owners_at = redis.call('PEXPIRETIME', KEYS[3])
if at == 0 then
  redis.call('PERSIST', KEYS[3])
elseif (owners_at == -1 and redis.call('SCARD', KEYS[3]) == 1) or (owners_at >= 0 and owners_at < at) then
  redis.call('PEXPIREAT', KEYS[3], at)
end
return 'ok'
"#
);

/// Replaces a task with its next version, if the stored one is the version before and not
/// terminal; a terminal version releases the task (quota, lease, pending answers) and joins
/// the finished ones, its owner keeping at most so many (the oldest go first).
/// KEYS: task, owner set, lease, answers, index, finished, the owner's finished. ARGV: next
/// record, expiry (0: none), terminal (0/1), id, key prefix, end time (ms), finished kept per
/// owner.
pub(super) const COMPARE_AND_SET: &str = concat!(
    retention_lua!(),
    r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return 0 end
local held = cjson.decode(stored)
local next = cjson.decode(ARGV[1])
if held.version + 1 ~= next.version or held.id ~= next.id or held.owner ~= next.owner then return 0 end
local s = held.status
if s == 'completed' or s == 'failed' or s == 'cancelled' then return 0 end
local at = tonumber(ARGV[2])
if at > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
if ARGV[3] == '1' then
  redis.call('SREM', KEYS[2], ARGV[4])
  redis.call('DEL', KEYS[3], KEYS[4])
  index(KEYS[6], ARGV[6], ARGV[4], at)
  index(KEYS[7], ARGV[6], ARGV[4], at)
  local keep = tonumber(ARGV[7])
  while redis.call('ZCARD', KEYS[7]) > keep do
    local victim = oldest(ARGV[5], KEYS[7])
    if not victim then break end
    evict(ARGV[5], victim, KEYS[5], KEYS[6])
  end
end
return 1
"#
);

/// Refreshes the leases of the tasks running here; says for each whether it ended (1: gone or
/// terminal) or has answers waiting (2), else 0.
/// ARGV: key prefix, replica, lease (ms), then the ids.
pub(super) const REFRESH: &str = r#"
local out = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local stored = redis.call('GET', ARGV[1] .. ':task:' .. id)
  local state = 1
  if stored then
    local s = cjson.decode(stored).status
    if s ~= 'completed' and s ~= 'failed' and s ~= 'cancelled' then
      state = 0
      redis.call('SET', ARGV[1] .. ':lease:' .. id, ARGV[2], 'PX', ARGV[3])
      if redis.call('EXISTS', ARGV[1] .. ':answers:' .. id) == 1 then state = 2 end
    end
  end
  out[#out + 1] = state
end
return out
"#;

/// Keeps answers for the replica running a task, and tells it.
/// KEYS: answers, task. ARGV: channel, message, then key, answer, key, answer…
pub(super) const SIGNAL_ANSWERS: &str = r#"
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local at = redis.call('PEXPIRETIME', KEYS[2])
if at > 0 then redis.call('PEXPIREAT', KEYS[1], at) end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1
"#;

/// Takes a task's waiting answers. KEYS: answers.
pub(super) const TAKE_ANSWERS: &str = r#"
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return all
"#;

/// Releases a task that stopped running here: its place in the quota, its lease if still ours.
/// KEYS: owner set, lease. ARGV: id, replica.
pub(super) const RELEASE: &str = r#"
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
return 1
"#;

/// An `EVAL` of `script` with `keys` keys, arguments to follow.
pub(super) fn eval(script: &str, keys: usize) -> redis::Cmd {
    let mut command = redis::cmd("EVAL");
    command.arg(script).arg(keys);
    command
}
