// Operations of webhook management (Admin keys; the policy refuses other Roles before anything is read). Not MCP tools.
import { Type as t } from '@sinclair/typebox'
import { Bool, Int, ListQuery, NoBody, Nullable, Paged, Timestamp } from '../../shared/schemas'
import {
  answersFromCommit,
  idOf,
  json,
  listOperation,
  listPage,
  type Operation,
  type OperationContext,
} from '../../platform/operation'
import { presentWebhook } from './webhooks.service'
import {
  addWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  rollSecret,
  updateWebhook,
  type WebhookDeps,
} from './webhooks.service'

const Events = t.Array(
  t.String({
    description:
      'document.issued, document.sent, document.viewed, document.paid, document.cancelled, document.reminded, payment.recorded, payment.reversed, refund.recorded, refund.reversed',
  }),
  { maxItems: 10 },
)

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
      t.Object({
        at: Timestamp,
        duration_ms: Int(),
        status_code: Nullable(Int()),
        error: Nullable(t.String()),
        response: Nullable(t.String()),
      }),
    ),
  },
  { title: 'WebhookDelivery' },
)

/**
 * The signing secret is shown once: a replay of the create answers the webhook without it (and the stored answer
 * never holds it), so a key reused after a roll or a delete cannot bring the old secret back.
 */
function withoutSecret(value: unknown): unknown {
  const { secret: _shownOnce, ...rest } = value as Record<string, unknown>
  return rest
}

const path = t.Object({ id: t.String() })
const base = { tag: 'Webhooks', access: 'admin', mcp: false } as const

export const webhooksOperations: Operation[] = [
  listOperation({
    ...base,
    name: 'webhooks_list',
    summary: 'List webhooks',
    description: "The Business's webhooks, paged.",
    http: { method: 'GET', path: '/v1/webhooks', status: 200 },
    query: t.Object(ListQuery),
    output: Paged(WebhookSchema, 'WebhookList'),
    list: 'webhooks',
    rows: ({ deps }, actor, after, n) => listWebhooks(webhookDeps(deps), actor.businessId, after, n),
    present: (r) => presentWebhook(r),
  }),
  {
    ...base,
    name: 'webhooks_create',
    summary: 'Add a webhook (its secret is shown once)',
    description:
      'An https address that resolves to a public host, and the events it hears (every event when empty); the signing secret is in this answer only.',
    http: { method: 'POST', path: '/v1/webhooks', status: 201 },
    body: t.Object(
      { url: t.String({ maxLength: 2000 }), events: t.Optional(Events) },
      { additionalProperties: false, title: 'WebhookCreate' },
    ),
    output: WebhookSchema,
    idempotent: true,
    committed: answersFromCommit,
    keep: withoutSecret,
    refusals: ['webhook_limit_reached'],
    async run(actor, { body }, { deps }) {
      return json(await addWebhook(webhookDeps(deps), actor.businessId, body), 201)
    },
  },
  {
    ...base,
    name: 'webhooks_get',
    summary: 'Get a webhook',
    description: 'One webhook, without its secret.',
    http: { method: 'GET', path: '/v1/webhooks/:id', status: 200 },
    path,
    output: WebhookSchema,
    idempotent: false,
    refusals: [],
    async run(actor, { path }, { deps }) {
      return json(await getWebhook(webhookDeps(deps), actor.businessId, idOf(path.id)))
    },
  },
  {
    ...base,
    name: 'webhooks_update',
    summary: 'Change a webhook: url, events, paused',
    description: 'A new address is held to the same rules as on create.',
    http: { method: 'PATCH', path: '/v1/webhooks/:id', status: 200 },
    path,
    body: t.Object(
      { url: t.Optional(t.String({ maxLength: 2000 })), events: t.Optional(Events), paused: t.Optional(Bool()) },
      { additionalProperties: false, title: 'WebhookUpdate' },
    ),
    output: WebhookSchema,
    idempotent: false,
    refusals: [],
    async run(actor, { path, body }, { deps }) {
      return json(await updateWebhook(webhookDeps(deps), actor.businessId, idOf(path.id), body))
    },
  },
  {
    ...base,
    name: 'webhooks_delete',
    summary: 'Delete a webhook',
    description: 'Nothing more is sent to it; its deliveries go with it.',
    http: { method: 'DELETE', path: '/v1/webhooks/:id', status: 204 },
    path,
    body: NoBody,
    output: null,
    idempotent: false,
    refusals: [],
    async run(actor, { path }, { deps }) {
      const id = idOf(path.id)
      await deleteWebhook(webhookDeps(deps), actor.businessId, id)
      return { kind: 'deleted', id }
    },
  },
  {
    ...base,
    name: 'webhooks_roll_secret',
    summary: 'Roll the signing secret: the new one is shown once; both sign for 24 hours',
    description: 'The previous secret keeps signing beside the new one for 24 hours.',
    http: { method: 'POST', path: '/v1/webhooks/:id/roll-secret', status: 200 },
    path,
    body: NoBody,
    output: WebhookSchema,
    idempotent: false,
    refusals: [],
    async run(actor, { path }, { deps }) {
      return json(await rollSecret(webhookDeps(deps), actor.businessId, idOf(path.id)))
    },
  },
  {
    ...base,
    name: 'webhook_deliveries_list',
    summary: 'Deliveries of the last 30 days, each with its attempts',
    description:
      'Paged, oldest first; each attempt with its time, duration, status or error and the start of the answer.',
    http: { method: 'GET', path: '/v1/webhooks/:id/deliveries', status: 200 },
    path,
    query: t.Object(ListQuery),
    output: Paged(DeliverySchema, 'WebhookDeliveryList'),
    idempotent: false,
    refusals: [],
    async run(actor, { path, query }, ctx) {
      const webhookId = idOf(path.id)
      return json(
        await listPage(
          ctx,
          actor,
          query,
          `webhook-deliveries-${webhookId}`,
          (after, n) => listDeliveries(webhookDeps(ctx.deps), actor.businessId, webhookId, after, n),
          (r) => r.view,
        ),
      )
    },
  },
  {
    ...base,
    name: 'webhook_deliveries_resend',
    summary: 'Send a stored message again: a new delivery, same body and webhook-id',
    description: 'Only on a paid plan, and not while the webhook is paused.',
    http: { method: 'POST', path: '/v1/webhook-deliveries/:id/resend', status: 201 },
    path,
    body: NoBody,
    output: DeliverySchema,
    idempotent: true,
    committed: answersFromCommit,
    refusals: ['webhooks_need_a_paid_plan', 'webhook_paused'],
    async run(actor, { path }, { deps }) {
      return json(await resendDelivery(webhookDeps(deps), actor.businessId, idOf(path.id)), 201)
    },
  },
]

function webhookDeps(deps: OperationContext['deps']): WebhookDeps {
  return { db: deps.db, clock: deps.clock, resolve: deps.resolve, allowPrivate: deps.config.webhookAllowPrivate }
}
