-- wrk script: GETs the addresses listed in a file, one per line, in turn across all
-- connections, so every request asks for something no cache has kept yet (or has, once the
-- list is exhausted and starts over).
--   wrk ... -s bench/paths.lua URL -- FILE
-- done() prints the answers, 200 and any other status ("statuses: 200 N other M"), which
-- bench/scale reads.
local paths = {}
local next_path = 0
ok = 0
other = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(paths, line) end
  end
  next_path = math.random(#paths) - 1
end

function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end

function response(status)
  if status == 200 then ok = ok + 1 else other = other + 1 end
end

function done()
  local ok_total, other_total = 0, 0
  for _, thread in ipairs(threads) do
    ok_total = ok_total + thread:get("ok")
    other_total = other_total + thread:get("other")
  end
  print("statuses: 200 " .. ok_total .. " other " .. other_total)
end
