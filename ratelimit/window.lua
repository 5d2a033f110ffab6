-- Sliding-window log over one or more rules, atomically.
-- KEYS[i]: the sorted set of rule i (members are requests, scores their time in ms).
-- ARGV[1]: a unique member for this request; ARGV[2i], ARGV[2i+1]: limit and window (ms) of rule i.
-- Returns {allowed (1|0), binding rule index, remaining, reset ms, retry-after ms}.
-- The clock is Redis's own, so every process agrees on it. Writing after TIME
-- needs effects replication: the default since Redis 5, asked for explicitly
-- on older servers.
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = #KEYS
local counts = {}
local allowed = 1
local bind, retry = 1, 0

for i = 1, n do
  local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local c = redis.call('ZCARD', KEYS[i])
  counts[i] = c
  if c >= limit then
    allowed = 0
    -- room appears when the (c - limit + 1)-th oldest request leaves the window
    local e = redis.call('ZRANGE', KEYS[i], c - limit, c - limit, 'WITHSCORES')
    local wait = window
    if e[2] then wait = tonumber(e[2]) + window - now end
    if wait > retry then
      retry, bind = wait, i
    end
  end
end

if allowed == 1 then
  local least = nil
  for i = 1, n do
    local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
    redis.call('ZADD', KEYS[i], now, ARGV[1])
    redis.call('PEXPIRE', KEYS[i], window)
    counts[i] = counts[i] + 1
    local left = limit - counts[i]
    if least == nil or left < least then
      least, bind = left, i
    end
  end
end

local limit, window = tonumber(ARGV[2 * bind]), tonumber(ARGV[2 * bind + 1])
local remaining = limit - counts[bind]
if remaining < 0 then remaining = 0 end
local reset = 0
local oldest = redis.call('ZRANGE', KEYS[bind], 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
end
return {allowed, bind, remaining, reset, retry}
