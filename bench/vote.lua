-- wrk script: every request is a vote through the real form by a new anonymous reader.
local tools = {"cursor-background-agent", "codestral-2-1", "mistral-small-3-1",
               "cursor-background-agents", "mistral-3-small", "code-llama-4"}
local n = 0
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
local function voter()
  local t = {}
  for i = 1, 32 do t[i] = string.format("%x", math.random(0, 15)) end
  return table.concat(t)
end
request = function()
  n = n + 1
  local headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Sec-Fetch-Site"] = "same-origin",
    ["Cookie"] = "verdict_voter=" .. voter(),
  }
  return wrk.format("POST", "/tools/" .. tools[n % #tools + 1] .. "/vote", headers, "verdict=ship")
end
