-- Used by bench/run.mjs as `wrk -s bench/wrk-report.lua`: turns wrk's end-of-run summary into
-- the same `start` and `result <json>` lines bench/load.mjs prints, so the harness reads both
-- load generators the same way. Request headers come from wrk's own `-H`. When BENCH_TOKENS
-- names a file of tokens (one a line), each request sends the next one as
-- `Authorization: Bearer <token>`: a fresh token per request, the pool read once per thread.

local pool = nil
local size, next_token = 0, 0
local file = os.getenv("BENCH_TOKENS")
if file ~= nil and file ~= "" then
  pool = {}
  for line in io.lines(file) do
    if #line > 0 then
      size = size + 1
      pool[size] = "Bearer " .. line
    end
  end
end

setup = function(thread)
  io.write("start\n")
  io.flush()
end

if pool ~= nil and size > 0 then
  request = function()
    next_token = next_token % size + 1
    wrk.headers["Authorization"] = pool[next_token]
    return wrk.format()
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  local seconds = summary.duration / 1e6
  -- wrk reports latencies in microseconds. Its status errors are responses with a status of
  -- 400 or above, the closest it gets to a non-2xx count (a 304 run counts as success).
  io.write(string.format(
    'result {"requestsPerSec":%.2f,"p50Ms":%.3f,"p99Ms":%.3f,"non2xx":%d,"errors":%d}\n',
    summary.requests / seconds,
    latency:percentile(50) / 1000,
    latency:percentile(99) / 1000,
    errors.status,
    errors.connect + errors.read + errors.write + errors.timeout
  ))
  io.flush()
end
