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

local report = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "report.lua")

function done(summary, latency, requests)
  report(threads, summary, latency)
end
