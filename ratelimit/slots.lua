-- Concurrency slots: a sorted set of live holders, scored by their last
-- heartbeat (ms, Redis's clock). Holders that stopped beating for ttl are
-- pruned, so a crashed process's slots free themselves.
-- KEYS[1]: the set; ARGV[1]: the holder; ARGV[2]: the limit; ARGV[3]: ttl (ms).
-- A holder already in the set (a heartbeat) is always allowed.
-- Returns {allowed (1|0), holders after the call}.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if not held and n >= limit then
  return {0, n}
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
if not held then n = n + 1 end
return {1, n}
