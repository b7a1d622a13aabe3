-- wrk script of bench/payments.ts: POST /v1/documents/{id}/payments, each thread on its own share of the documents.
--   BENCH_KEY      API key (Authorization: Bearer ...)
--   BENCH_BODY     the JSON body of every request
--   BENCH_DOCS     document ids, comma-separated (one per connection is the intent)
--   BENCH_THREADS  wrk's -t, so that each thread takes every BENCH_THREADS-th document
-- Requests are formatted once per thread in init(); request() only cycles over them.
local count = 0

function setup(thread)
  thread:set("tid", count)
  count = count + 1
end

local requests = {}
local n = 0
local i = 0

function init(args)
  local threads = tonumber(os.getenv("BENCH_THREADS")) or 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY"),
  }
  local body = os.getenv("BENCH_BODY")
  local docs = {}
  for id in string.gmatch(os.getenv("BENCH_DOCS") or "", "%d+") do
    docs[#docs + 1] = id
  end
  for k = 1, #docs do
    if (k - 1) % threads == tid then
      n = n + 1
      requests[n] = wrk.format("POST", "/v1/documents/" .. docs[k] .. "/payments", headers, body)
    end
  end
  if n == 0 then
    -- More threads than documents: share them all.
    for k = 1, #docs do
      n = n + 1
      requests[n] = wrk.format("POST", "/v1/documents/" .. docs[k] .. "/payments", headers, body)
    end
  end
end

function request()
  i = i % n + 1
  return requests[i]
end
