-- wrk script for the list walk: each request asks the next page of a walk over the whole list, so no two requests in a
-- row ask the same page and the service's page cache cannot answer them.
--   BENCH_KEY    API key (Authorization: Bearer <key>)
--   BENCH_PATHS  file with one request path per line (the pages of the walk, cursors included)
local key = os.getenv("BENCH_KEY")
local paths = {}
for line in io.lines(os.getenv("BENCH_PATHS")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local n = 0
local threads = 0

function setup(thread)
  -- Threads start half a walk apart (with two threads), far more pages apart than the service keeps.
  thread:set("offset", math.floor(threads * #paths / 2))
  threads = threads + 1
end

function init(args)
  n = offset or 0
end

function request()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1], { ["Authorization"] = "Bearer " .. key })
end
