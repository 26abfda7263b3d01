-- wrk script: every request is a vote through the real form by a new anonymous reader who
-- loaded the page: it sends no cookie, so verdict issues a voter id with the vote, as for any
-- reader's first, and it carries the token of that tool's vote form.
--   wrk ... -s bench/vote.lua URL -- SECONDS DRAIN SLUG=TOKEN [SLUG=TOKEN ...]
-- The votes go to the tools named, in turn, each with its token (bench/bench.py takes them from
-- GET /tools/SLUG and waits until 2 s have passed since the token's time before running wrk, so
-- no vote is set aside as too fast; bench/vote_tokens.py). A vote without a token is refused
-- (403), so the script warns when it is given none. SECONDS may be "-" to vote until wrk stops.
-- It counts the 303 answers (the vote is committed before verdict answers) and done() prints
--   votes: 303 N other M window S
-- so bench/run can compare N with the rows added to tool_votes. wrk drops whatever is in
-- flight when its duration ends; given the run's SECONDS, the script sends no vote after
-- SECONDS - DRAIN (delay() holds each connection idle until wrk stops), so no vote is in
-- flight then and every committed vote has had its answer counted. wrk's latencies are the
-- votes' alone; its requests/s divides by all of SECONDS, so bench/run takes votes/s as
-- N / (SECONDS - DRAIN).
local ffi = require("ffi")
ffi.cdef [[
  struct vote_timespec { long tv_sec; long tv_nsec; };
  int clock_gettime(int clock, struct vote_timespec *t);
]]
local now_ts = ffi.new("struct vote_timespec")
local function now() -- CLOCK_MONOTONIC, seconds
  ffi.C.clock_gettime(1, now_ts)
  return tonumber(now_ts.tv_sec) + tonumber(now_ts.tv_nsec) * 1e-9
end

-- The tools voted on and the body of a vote on each ("verdict=ship&token=…"), from the
-- arguments; without any, bench.py's tools with no token (each vote then answers 403).
local tools = {}
local bodies = {}
local n = 0

-- Read by done() through thread:get, so these are globals of each thread's Lua state.
n303, other, window = 0, 0, 0
local deadline = nil

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local seconds, drain = tonumber(args[1]), tonumber(args[2] or "0.5")
  if seconds then
    window = seconds - drain
    deadline = now() + window
  end
  for i = 3, #args do
    local slug, token = string.match(args[i], "^([%w-]+)=([%w.]+)$")
    if not slug then
      io.stderr:write("vote.lua: not SLUG=TOKEN: " .. args[i] .. "\n")
    else
      tools[#tools + 1] = slug
      bodies[#bodies + 1] = "verdict=ship&token=" .. token
    end
  end
  if #tools == 0 then
    io.stderr:write("vote.lua: no SLUG=TOKEN given; votes without a token answer 403\n")
    for _, slug in ipairs({"cursor-background-agent", "codestral-2-1", "mistral-small-3-1",
                           "cursor-background-agents", "mistral-3-small", "code-llama-4"}) do
      tools[#tools + 1] = slug
      bodies[#bodies + 1] = "verdict=ship"
    end
  end
end

-- Before each request: none after the deadline (wrk stops long before this delay ends).
delay = function()
  if deadline and now() >= deadline then return 3600 * 1000 end
  return 0
end

request = function()
  n = n + 1
  local headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Sec-Fetch-Site"] = "same-origin",
  }
  local i = n % #tools + 1
  return wrk.format("POST", "/tools/" .. tools[i] .. "/vote", headers, bodies[i])
end

response = function(status, headers, body)
  if status == 303 then n303 = n303 + 1 else other = other + 1 end
end

done = function(summary, latency, requests)
  local total303, total_other, w = 0, 0, 0
  for _, thread in ipairs(threads) do
    total303 = total303 + thread:get("n303")
    total_other = total_other + thread:get("other")
    w = thread:get("window")
  end
  io.write(string.format("votes: 303 %d other %d window %.3f\n", total303, total_other, w))
end
