/** The Lua scripts of the Redis store: each one atomic step, mirroring the memory store exactly. */

/**
 * `hit`: KEYS the windows, ARGV[1] the amount, ARGV[2..] each window's ttl in ms. Checks every
 * counter is a whole number before counting in any (as the memory store does), then INCRBY and,
 * for a new counter, PEXPIRE. Answers value and PTTL per window.
 */
export const hitScript = `
local by = tonumber(ARGV[1])
for i = 1, #KEYS do
  local v = redis.call('GET', KEYS[i])
  if v and not string.match(v, '^-?%d+$') then
    return redis.error_reply('ERR the value at ' .. KEYS[i] .. ' is not a whole number')
  end
end
local out = {}
for i = 1, #KEYS do
  local existed = redis.call('EXISTS', KEYS[i])
  local value = redis.call('INCRBY', KEYS[i], by)
  if existed == 0 then redis.call('PEXPIRE', KEYS[i], ARGV[i + 1]) end
  out[#out + 1] = value
  out[#out + 1] = redis.call('PTTL', KEYS[i])
end
return out
`;

/**
 * The fixed-window step both limit scripts share, with `key`, `cost`, `now` and `window` in
 * scope: count at once, then read the counter's expiry. Defines `after`, `count`, `pttl`,
 * `fresh` (the call created the counter) and `reset`.
 */
const countFixedWindow = `
local after = redis.call('INCRBY', key, cost)
local count = after - cost
local pttl = redis.call('PTTL', key)
local fresh = pttl < 0 and count == 0
local reset
if pttl >= 0 then reset = now + pttl else reset = now + window end
`;

/**
 * `limit`: ARGV[1] now (ms), ARGV[2] the number of checks, then per check its algorithm
 * (f, s or g), limit, window (ms) and cost; KEYS one per check (two for a sliding window: the
 * current and the previous window). The arithmetic is decideRates's, step for step, so the
 * memory and Redis stores answer alike; a fixed window counts first and takes the count back
 * when a policy refuses, which saves a read on the common path. Answers per check: allowed (1/0), remaining, and the
 * reset time and the wait as strings (Lua numbers would be truncated to integers).
 */
export const limitScript = `
local now = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local eps = 1e-6
local function num(key)
  local v = redis.call('GET', key)
  if not v then return nil end
  local x = tonumber(v)
  if x == nil then error({err = 'ERR the value at ' .. key .. ' is not a number'}) end
  return x
end
local refused, counted, writes = {}, {}, {}
local all = true
local k = 1
for i = 1, n do
  local at = 2 + (i - 1) * 4
  local algo = ARGV[at + 1]
  local limit = tonumber(ARGV[at + 2])
  local window = tonumber(ARGV[at + 3])
  local cost = tonumber(ARGV[at + 4])
  local ok
  if algo == 'f' then
    -- Counted at once (one INCRBY instead of a GET), and undone below when any policy refuses.
    local key = KEYS[k]; k = k + 1
${countFixedWindow}    ok = after <= limit
    local retry = 0
    if not ok then retry = reset - now end
    refused[i] = {ok, math.max(0, limit - count), reset, retry}
    counted[i] = {ok, math.max(0, limit - after), reset, 0}
    writes[i] = {'fixed', key, cost, window, fresh}
  elseif algo == 's' then
    local cur = KEYS[k]; local prevKey = KEYS[k + 1]; k = k + 2
    local start = math.floor(now / window) * window
    local current = num(cur) or 0
    local previous = num(prevKey) or 0
    local estimate = previous * ((start + window - now) / window) + current
    ok = estimate + cost <= limit
    local reset = start + window
    local retry = 0
    if not ok then
      local room = limit - current - cost
      if room >= 0 and previous > 0 then
        retry = start + window * (1 - room / previous) - now
      elseif limit >= cost and current > 0 then
        retry = reset + window * (1 - (limit - cost) / current) - now
      else
        retry = reset + window - now
      end
      retry = math.max(retry, 1)
    end
    refused[i] = {ok, math.max(0, math.floor(limit - estimate)), reset, retry}
    counted[i] = {ok, math.max(0, math.floor(limit - estimate - cost)), reset, 0}
    writes[i] = {'slide', cur, current + cost, start + 2 * window - now}
  else
    local key = KEYS[k]; k = k + 1
    local interval = window / limit
    local stored = num(key)
    local tat = now
    if stored ~= nil and stored >= now then tat = stored end
    local nxt = tat + interval * cost
    ok = nxt - now <= window + eps
    local function left(arrival)
      return math.max(0, math.floor((window - (arrival - now)) / interval + eps))
    end
    local retry = 0
    if not ok then retry = math.max(1, nxt - window - now) end
    refused[i] = {ok, left(tat), math.ceil(tat), retry}
    counted[i] = {ok, left(nxt), math.ceil(nxt), 0}
    writes[i] = {'set', key, nxt, math.ceil(nxt) - now}
  end
  if not ok then all = false end
end
local out = {}
for i = 1, n do
  local r = all and counted[i] or refused[i]
  out[#out + 1] = r[1] and 1 or 0
  out[#out + 1] = r[2]
  out[#out + 1] = string.format('%.17g', r[3])
  out[#out + 1] = string.format('%.17g', r[4])
end
local at = 2
for i = 1, n do
  local cost = tonumber(ARGV[at + 4]); at = at + 4
  local w = writes[i]
  if w[1] == 'fixed' then
    if all and cost > 0 then
      if w[5] then redis.call('PEXPIRE', w[2], w[4]) end
    elseif w[5] then
      redis.call('DEL', w[2])
    elseif cost > 0 then
      redis.call('DECRBY', w[2], cost)
    end
  elseif all and cost > 0 then
    if w[1] == 'slide' then
      redis.call('SET', w[2], w[3], 'PX', math.max(1, math.ceil(w[4])))
    else
      redis.call('SET', w[2], string.format('%.17g', w[3]), 'PX', math.max(1, w[4]))
    end
  end
end
return out
`;

/**
 * `limit` for the most common call, one fixed-window check: KEYS the counter, ARGV now (ms),
 * limit, window (ms) and cost. The same steps and answer as `limitScript` with one `f` check,
 * without its tables and loops: count at once, take the count back when refused (or drop a
 * counter the call itself created), set the window on a new counter.
 */
export const fixedWindowScript = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local key = KEYS[1]
${countFixedWindow}local ok = after <= limit
if ok and cost > 0 then
  if fresh then redis.call('PEXPIRE', key, window) end
elseif fresh then
  redis.call('DEL', key)
elseif cost > 0 then
  redis.call('DECRBY', key, cost)
end
if ok then
  return {1, math.max(0, limit - after), string.format('%.17g', reset), '0'}
end
return {0, math.max(0, limit - count), string.format('%.17g', reset), string.format('%.17g', reset - now)}
`;
