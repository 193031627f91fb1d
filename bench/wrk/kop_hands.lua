-- wrk script: each connection plays whole Kop hands at a table of its own, a deal then four
-- tricks, one request each, hand after hand. The plan (groups, tokens, tables, hands) is a
-- Lua file bench/http_load.py writes; its path comes after "--" on wrk's command line.
local counter = 0
local threads = {}

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  plan = dofile(args[1])[index + 1]
  step, hand, hand_id, refused = 0, 0, nil, 0
  auth = { ["Authorization"] = "Bearer " .. plan.token, ["Content-Type"] = "application/json" }
end

function request()
  local dealer = hand % 4
  if step == 0 then
    return wrk.format("POST", plan.tables, auth, plan.deals[dealer + 1])
  end
  return wrk.format("POST", plan.hands .. hand_id .. "/tricks", auth, plan.tricks[dealer + 1][step])
end

function response(status, headers, body)
  if status ~= 201 then
    refused = refused + 1
    step, hand = 0, hand + 1  -- start a new hand: the table's next dealer is the same one again
    return
  end
  if step == 0 then
    hand_id = string.match(body, '"id": ?"(h_[0-9a-f]+)"')
  end
  step = step + 1
  if step == 5 then
    step, hand = 0, hand + 1
  end
end

local report = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

function done(summary, latency, requests)
  report(threads, summary, latency)
end
