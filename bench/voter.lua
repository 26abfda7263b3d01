-- wrk script: a reader who has voted, coming back: every request carries their voter cookie.
--   wrk ... -s bench/voter.lua URL -- VOTER_ID
local cookie = nil

function init(args)
  cookie = "verdict_voter=" .. args[1]
end

request = function()
  return wrk.format(nil, nil, {["Cookie"] = cookie})
end
