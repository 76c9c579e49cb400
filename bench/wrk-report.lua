-- Used by bench/run.mjs as `wrk -s bench/wrk-report.lua`: turns wrk's end-of-run summary into
-- the same `start` and `result <json>` lines bench/load.mjs prints, so the harness reads both
-- load generators the same way.

setup = function(thread)
  io.write("start\n")
  io.flush()
end

done = function(summary, latency, requests)
  local errors = summary.errors
  local seconds = summary.duration / 1e6
  -- wrk reports latencies in microseconds. Its status errors are responses with a status of
  -- 400 or above, the closest it gets to a non-2xx count.
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
