// The OpenAPI document's own description: what a reader of /docs needs before the first request.
export const API_DESCRIPTION = `Self-hosted multi-tenant invoicing: Clients, Products, documents (Invoices, Proforma Invoices, Credit Notes, Quotes), Payments and Receipts, reports, webhooks. The same operations are MCP tools at \`/mcp\` (each operation names its tool).

## Authentication
Send an API key as \`Authorization: Bearer inv_…\`. Keys are made by the Business's Owner (CLI or application) and shown once. No, an unknown or a revoked key is 401 \`authentication\`.

## Roles
An **Admin** key does everything; a **Member** key reads and changes documents, Clients, Products and Payments; a **Viewer** key only reads. Webhook management and the request log are for Admin keys. A Role that may not do something is 403 \`permission\` (each operation says its access).

## Plans
While the Business is on the Free plan or Paused, every request is 403 \`permission\` with code \`paid_plan_required\` and remedy \`choose_plan\`, before any other answer; a Test business keeps the API on every plan.

## Errors
Every error is \`{"error": {"type", "message", ...}}\`; branch on \`type\`: \`authentication\` 401, \`permission\` 403, \`not_found\` 404, \`invalid_request\` 4xx (422 with \`errors\`: field name to reasons, e.g. \`lines.0.unit\`), \`idempotency\` 422, \`idempotency_in_flight\` 409, \`rate_limit\` 429, \`refusal\` 422 (the record refuses the action as it stands; \`code\` says why, each operation lists its codes), \`not_delivered\` 502, \`server_error\` 5xx. A 4xx changed nothing. A document's \`actions\` say beforehand which refusal each action would answer.

## Remedies
Some refusals carry \`remedy\` and \`remedy_url\`: \`choose_plan\` (the Owner chooses a paid plan on the billing page), \`connect_mail_provider\` (connect a mailbox of the Business's own), \`record_on_its_invoice\` (with \`invoice\`: record the Payment on the Invoice a Proforma became).

## Paging
Lists answer \`{"data": [...], "next_cursor": "…" | null}\`, oldest first. Send \`limit\` (1 to 100, default 25) and the previous page's \`next_cursor\` as \`cursor\`; null means the last page. A cursor belongs to its list and Business; anything else is 422 under \`cursor\`. Cursors of the API and the MCP tools are interchangeable.

## Money
Amounts are **decimal strings** at the currency's scale (\`"1234.50"\`, \`"1.234"\` for a 3-decimal currency, \`"1234"\` for a 0-decimal one), never JSON numbers: a number sent is 422. Dates are \`YYYY-MM-DD\`; timestamps are UTC.

## Idempotency
Creates and actions that create take an \`Idempotency-Key\` header (1 to 255 printable characters). The same key and the same body within 24 hours answer the first answer again, byte for byte, with \`Idempotent-Replayed: true\`; another body is 422 \`idempotency\`; while the first is still running (in any process of the service) the second waits, then answers 409 \`idempotency_in_flight\`. Only a success keeps its key. The key is saved with the change it answers.

## Rate limit
120 requests a minute per credential, shared by the API and the MCP tools. Every answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; over the limit it is 429 \`rate_limit\` with \`Retry-After\` seconds. An unknown path (404) is not counted.`
