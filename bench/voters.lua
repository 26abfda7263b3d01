-- wrk script: many readers who have voted, each request from the next of them in turn.
--   wrk ... -s bench/voters.lua URL -- FILE_OF_VOTER_IDS
local cookies = {}
local next_one = 1

function init(args)
  for id in io.lines(args[1]) do
    cookies[#cookies + 1] = "verdict_voter=" .. id
  end
  -- Threads start at different voters, so they do not ask for the same one at once.
  next_one = (math.floor(#cookies / 2) * (wrk.thread and 1 or 0)) % #cookies + 1
end

request = function()
  local cookie = cookies[next_one]
  next_one = next_one % #cookies + 1
  return wrk.format(nil, nil, {["Cookie"] = cookie})
end
