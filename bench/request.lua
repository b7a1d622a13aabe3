-- wrk script for every bench scenario: one static request built from environment variables (no per-request Lua).
--   BENCH_METHOD  GET (default) or POST
--   BENCH_BODY    request body; when set, Content-Type: application/json is sent with it
--   BENCH_KEY     API key; when set, Authorization: Bearer <key> is sent
--   BENCH_ACCEPT  Accept header; when set, sent as is (the MCP server asks for "application/json, text/event-stream")
-- The path comes from the URL given to wrk. Example:
--   BENCH_METHOD=POST BENCH_BODY='{"name":"A","email":"a@example.com","country":"DE"}' BENCH_KEY=inv_... \
--     wrk -t2 -c32 -d10s --latency -s bench/request.lua http://127.0.0.1:8080/v1/clients
local method = os.getenv("BENCH_METHOD")
local body = os.getenv("BENCH_BODY")
local key = os.getenv("BENCH_KEY")
local accept = os.getenv("BENCH_ACCEPT")

wrk.method = (method ~= nil and method ~= "") and method or "GET"
if body ~= nil and body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
if key ~= nil and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
end
if accept ~= nil and accept ~= "" then
  wrk.headers["Accept"] = accept
end
