-- wrk script: each connection inserts trick rows into its own group of the minimal endpoint.
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end

function init(args)
  path = "/insert/g" .. index
  body = '{"trick": 1, "leader": 1, "cards": ["AH", "10H", "QH", "JH"], "winner": 1, "points": 27}'
  headers = { ["Content-Type"] = "application/json" }
end

function request()
  return wrk.format("POST", path, headers, body)
end

function done(summary, latency, requests)
  io.write(string.format('{"requests": %d, "seconds": %.3f, "p50_ms": %.2f, "p99_ms": %.2f, "errors": %d, ' ..
    '"refused": 0}\n', summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(99) / 1e3, summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout))
end
