// HTTP routes of webhook management (Admin keys; the pipeline refuses other Roles before anything is read).
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import type { Answer } from '../../http/idempotency'
import { idempotentCreate, json, listPage, pathId, type HttpServices } from '../../http/route-helpers'
import { Bool, errorAnswers, idempotencyHeader, Int, ListQuery, NoBody, Nullable, Paged, Timestamp } from '../../http/schemas'
import { presentWebhook } from './webhooks.service'
import { addWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, resendDelivery, rollSecret, updateWebhook, type WebhookDeps } from './webhooks.service'

const tags = ['Webhooks']
const Params = t.Object({ id: t.String() })
const Events = t.Array(t.String({ description: 'document.issued, document.sent, document.viewed, document.paid, document.cancelled, payment.recorded, payment.reversed' }), { maxItems: 7 })

const WebhookSchema = t.Object(
  {
    id: Int(),
    url: t.String(),
    events: t.Array(t.String(), { description: 'every event when empty' }),
    paused: Bool(),
    paused_reason: Nullable(t.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    secret: t.Optional(t.String({ description: 'whsec_ + 44 characters, shown only when created or rolled' })),
  },
  { title: 'Webhook' },
)

const DeliverySchema = t.Object(
  {
    id: Int(),
    webhook_id: Int(),
    webhook_message_id: t.String(),
    event: t.String(),
    url: t.String(),
    status: t.String({ description: 'pending, delivered, failed or failed_unsent' }),
    reason: Nullable(t.String()),
    next_attempt_at: Nullable(Timestamp),
    created_at: Timestamp,
    attempts: t.Array(
      t.Object({ at: Timestamp, duration_ms: Int(), status_code: Nullable(Int()), error: Nullable(t.String()), response: Nullable(t.String()) }),
    ),
  },
  { title: 'WebhookDelivery' },
)

/**
 * The signing secret is shown once: a replay of the create answers the webhook without it (and the stored answer
 * never holds it), so a key reused after a roll or a delete cannot bring the old secret back.
 */
function withoutSecret(a: Answer): Answer {
  const { secret: _shownOnce, ...rest } = JSON.parse(a.body) as Record<string, unknown>
  return { ...a, body: JSON.stringify(rest) }
}

export function webhooksRoutes(deps: WebhookDeps, http: HttpServices) {
  return new Elysia({ name: 'webhooks' })
    .get(
      '/v1/webhooks',
      ({ request, query }) => listPage(http, request, query, 'webhooks', (c, after, n) => listWebhooks(deps, c.businessId, after, n), (r) => presentWebhook(r)),
      { query: t.Object(ListQuery), response: { 200: Paged(WebhookSchema, 'WebhookList'), ...errorAnswers(422) }, detail: { tags, summary: 'List webhooks' } },
    )
    .post(
      '/v1/webhooks',
      ({ request, body }) =>
        idempotentCreate(http, request, async () => json(201, await addWebhook(deps, actorOf(request).businessId, body)), withoutSecret),
      {
        body: t.Object({ url: t.String({ maxLength: 2000 }), events: t.Optional(Events) }, { additionalProperties: false, title: 'WebhookCreate' }),
        response: { 201: WebhookSchema, ...errorAnswers(400, 409, 413, 415, 422) },
        detail: { tags, summary: 'Add a webhook (its secret is shown once)', parameters: [idempotencyHeader] },
      },
    )
    .get('/v1/webhooks/:id', ({ request, params }) => getWebhook(deps, actorOf(request).businessId, pathId(params.id)), {
      params: Params,
      response: { 200: WebhookSchema, ...errorAnswers(404) },
      detail: { tags, summary: 'Get a webhook' },
    })
    .patch('/v1/webhooks/:id', ({ request, params, body }) => updateWebhook(deps, actorOf(request).businessId, pathId(params.id), body), {
      params: Params,
      body: t.Object({ url: t.Optional(t.String({ maxLength: 2000 })), events: t.Optional(Events), paused: t.Optional(Bool()) }, { additionalProperties: false, title: 'WebhookUpdate' }),
      response: { 200: WebhookSchema, ...errorAnswers(400, 404, 413, 415, 422) },
      detail: { tags, summary: 'Change a webhook: url, events, paused' },
    })
    .delete(
      '/v1/webhooks/:id',
      async ({ request, params }) => {
        await deleteWebhook(deps, actorOf(request).businessId, pathId(params.id))
        return new Response(null, { status: 204 })
      },
      { params: Params, body: NoBody, response: { 204: t.Void(), ...errorAnswers(400, 404, 413, 415, 422) }, detail: { tags, summary: 'Delete a webhook' } },
    )
    .post('/v1/webhooks/:id/roll-secret', ({ request, params }) => rollSecret(deps, actorOf(request).businessId, pathId(params.id)), {
      params: Params,
      body: NoBody,
      response: { 200: WebhookSchema, ...errorAnswers(400, 404, 413, 415, 422) },
      detail: { tags, summary: 'Roll the signing secret: the new one is shown once; both sign for 24 hours' },
    })
    .get(
      '/v1/webhooks/:id/deliveries',
      ({ request, params, query }) => {
        const webhookId = pathId(params.id)
        return listPage(http, request, query, `webhook-deliveries-${webhookId}`, (c, after, n) => listDeliveries(deps, c.businessId, webhookId, after, n), (r) => r.view)
      },
      {
        params: Params,
        query: t.Object(ListQuery),
        response: { 200: Paged(DeliverySchema, 'WebhookDeliveryList'), ...errorAnswers(404, 422) },
        detail: { tags, summary: 'Deliveries of the last 30 days, each with its attempts' },
      },
    )
    .post(
      '/v1/webhook-deliveries/:id/resend',
      ({ request, params }) => idempotentCreate(http, request, async () => json(201, await resendDelivery(deps, actorOf(request).businessId, pathId(params.id)))),
      {
        params: Params,
        body: NoBody,
        response: { 201: DeliverySchema, ...errorAnswers(400, 404, 409, 413, 415, 422) },
        detail: { tags, summary: 'Send a stored message again: a new delivery, same body and webhook-id', parameters: [idempotencyHeader] },
      },
    )
}
