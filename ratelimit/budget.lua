-- Weighted rolling window: each spend consumes its cost, atomically.
-- KEYS[1]: the sorted set of spends (member "<unique>:<cost>", score its time in ms).
-- KEYS[2]: the sum of the costs in KEYS[1] (a cache: rebuilt when missing).
-- ARGV[1]: a unique member for this spend, ending in ":<cost>"; ARGV[2]: cost;
-- ARGV[3]: limit; ARGV[4]: window (ms).
-- A spend of 0 only reads the budget.
-- Returns {allowed (1|0), remaining, reset ms, retry-after ms}. A refused
-- spend is not recorded. The clock is Redis's own (see window.lua).
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cost, limit, window = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local cutoff = now - window

local function costOf(m) return tonumber(string.match(m, ':(%d+)$')) or 0 end

local used = redis.call('GET', KEYS[2])
if used then
  used = tonumber(used)
  -- each spend leaves the sum once, when it leaves the window
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)) do
    used = used - costOf(m)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
else
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', cutoff)
  used = 0
  for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    used = used + costOf(m)
  end
end
if used < 0 or redis.call('ZCARD', KEYS[1]) == 0 then used = 0 end

local allowed, retry = 1, 0
if used + cost > limit then
  allowed = 0
  -- room appears when enough of the oldest spends have left the window
  local need = used + cost - limit
  retry = window
  local e = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  local freed = 0
  for i = 1, #e, 2 do
    freed = freed + costOf(e[i])
    if freed >= need then
      retry = tonumber(e[i + 1]) + window - now
      break
    end
  end
  if used > 0 then redis.call('SET', KEYS[2], used, 'PX', window) end
elseif cost > 0 then
  used = used + cost
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('SET', KEYS[2], used, 'PX', window)
end

local reset = 0
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
local remaining = limit - used
if remaining < 0 then remaining = 0 end
return {allowed, remaining, reset, retry}
