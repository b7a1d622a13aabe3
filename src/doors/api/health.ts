// GET /health's answer, apart from the API door: the server answers it before (and without) building that door.

/** GET /health's answer, with the headers the API pipeline gives every answer (a request id, no sniffing). */
export function healthy(): Response {
  return new Response('{"ok":true}', {
    headers: {
      'Content-Type': 'application/json;charset=utf-8',
      'X-Request-Id': crypto.randomUUID(),
      'X-Content-Type-Options': 'nosniff',
    },
  })
}

/** GET /health's answer, `{ ok: true }`, as the OpenAPI document declares it. */
export const HEALTH_ANSWER = {
  description: 'the service answers',
  type: 'object' as const,
  required: ['ok'],
  properties: { ok: { const: true, type: 'boolean' as const } },
}
