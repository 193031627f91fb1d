-- wrk script: each connection POSTs the same body to a path of its own, request after
-- request (a hand's result at a table of its own; a bill in a project of its own). The plan,
-- {path, headers, body} per connection, is a Lua file whose path comes after "--".
local counter = 0
local threads = {}

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  plan = dofile(args[1])[index + 1]
  refused = 0
end

function request()
  return wrk.format("POST", plan.path, plan.headers, plan.body)
end

function response(status, headers, body)
  if status ~= 201 then
    refused = refused + 1
  end
end

function done(summary, latency, requests)
  local refusals = 0
  for _, thread in ipairs(threads) do
    refusals = refusals + thread:get("refused")
  end
  io.write(string.format('{"requests": %d, "seconds": %.3f, "p50_ms": %.2f, "p99_ms": %.2f, ' ..
    '"errors": %d, "refused": %d}\n', summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(99) / 1e3, summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout, refusals))
end
