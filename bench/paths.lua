-- wrk script: GETs the addresses listed in a file, one per line, in turn across all
-- connections, so every request asks for something no cache has kept yet (or has, once the
-- list is exhausted and starts over).
--   wrk ... -s bench/paths.lua URL -- FILE
-- done() prints the answers by status ("statuses: 200 N 429 M …"), which bench/scale reads.
local paths = {}
local next_path = 0
local statuses = {}
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then table.insert(paths, line) end
  end
  next_path = math.random(#paths) - 1
  statuses = {}
end

function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done()
  local total = {}
  for _, thread in ipairs(threads) do
    local counted = thread:get("statuses")
    for status, n in pairs(counted) do total[status] = (total[status] or 0) + n end
  end
  local line = "statuses:"
  for status, n in pairs(total) do line = line .. " " .. status .. " " .. n end
  print(line)
end
