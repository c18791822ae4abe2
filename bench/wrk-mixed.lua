-- The mixed benchmark's wrk script (bench/mixed/mixed-bench.ts): production traffic is thousands of
-- distinct URLs from several keys, not one URL over and over, so each request is the next line of a
-- file of `authorization-header-value<TAB>path` lines, named after the URL:
--   wrk -s bench/wrk-mixed.lua http://127.0.0.1:PORT/ /tmp/urls.tsv
-- The file comes shuffled; each thread walks it round-robin from its own starting point, so that every URL
-- is asked for and the threads do not ask for the same one at the same moment. The figures are reported
-- by wrk-report.lua's done hook, loaded from beside this file, so they parse like every other run's.
local here = debug.getinfo(1, 'S').source:match('^@(.*/)') or './'
dofile(here .. 'wrk-report.lua')

local started = 0
setup = function(thread)
  thread:set('thread_index', started)
  started = started + 1
end

local requests = {}
local nextRequest = 1

init = function(args)
  local file = args[1]
  if not file then error('wrk-mixed.lua: name the file of requests after the URL') end
  local host = wrk.headers['Host']
  for line in io.lines(file) do
    local authorization, path = line:match('^([^\t]+)\t(.+)$')
    if authorization then
      -- Formatted once here, not on every request: wrk then only hands out the ready bytes.
      requests[#requests + 1] = wrk.format('GET', path, { Host = host, Authorization = authorization })
    end
  end
  if #requests == 0 then error('wrk-mixed.lua: no requests in ' .. file) end
  -- Starting points spread by the golden ratio, whatever the number of threads.
  nextRequest = math.floor(#requests * (((thread_index or 0) * 0.6180339887) % 1)) + 1
end

request = function()
  local formatted = requests[nextRequest]
  nextRequest = nextRequest % #requests + 1
  return formatted
end
