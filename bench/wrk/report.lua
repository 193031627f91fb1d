-- What each wrk script of bench/wrk ends with: one JSON line of requests, seconds, p50, p99,
-- errors and the refusals each connection counted in its "refused" (http_load.py reads it).
-- A script loads it with: dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")
return function(threads, summary, latency)
  local refusals = 0
  for _, thread in ipairs(threads) do
    refusals = refusals + (thread:get("refused") or 0)
  end
  io.write(string.format('{"requests": %d, "seconds": %.3f, "p50_ms": %.2f, "p99_ms": %.2f, ' ..
    '"errors": %d, "refused": %d}\n', summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(99) / 1e3, summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout, refusals))
end
