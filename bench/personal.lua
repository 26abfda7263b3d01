-- wrk script: a reader with a voter cookie, whose page is rendered fresh on every request.
local t = {}
math.randomseed(os.time())
for i = 1, 32 do t[i] = string.format("%x", math.random(0, 15)) end
wrk.headers["Cookie"] = "verdict_voter=" .. table.concat(t)
