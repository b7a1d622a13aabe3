// TypeBox pieces every module's model uses: the error shape, lists, decimals, ids, and declared error answers.
// Plain TypeBox (Elysia's `t` is the same builders plus its own): models stay free of the doors' framework here.
import { FormatRegistry, Type, Type as t, type IntegerOptions, type TSchema } from '@sinclair/typebox'
import { AMOUNT_PATTERN } from './money'
import { isEmailAddress } from './text'

// Fields of format "email" (a Send's To, Cc and Bcc) are judged by the service's one email check, not by the looser
// one Elysia registers (it let through what SMTP reads as syntax: see isEmailAddress).
FormatRegistry.Set('email', isEmailAddress)

export const ErrorSchema = t.Object(
  {
    error: t.Object(
      {
        type: t.String({ description: 'branch on this; unknown types are read by HTTP status' }),
        message: t.String(),
        errors: t.Optional(t.Record(t.String(), t.Array(t.String()))),
        code: t.Optional(t.String()),
        remedy: t.Optional(t.String()),
        remedy_url: t.Optional(t.String()),
        document_number: t.Optional(t.String()),
        invoice: t.Optional(t.Object({ id: Type.Integer(), document_number: t.Union([t.String(), t.Null()]) })),
        rules: t.Optional(
          t.Array(t.Object({ id: t.String(), message: t.String() }), {
            description: 'with not_exportable: the EN16931 rules the document fails',
          }),
        ),
      },
      { additionalProperties: true },
    ),
  },
  { $id: '#/components/schemas/Error', title: 'Error' },
)

const ERROR_WORDS: Record<number, string> = {
  400: 'invalid_request: the body is not valid JSON',
  401: 'authentication: no, unknown or revoked API key',
  403: 'permission: the Role may not do this, or the plan does not allow it (code paid_plan_required)',
  404: 'not_found: no such record of this Business',
  405: 'invalid_request: method not allowed here (Allow header)',
  409: 'idempotency_in_flight',
  413: 'invalid_request: body over 1 MiB',
  415: 'invalid_request: body not application/json',
  422: 'invalid_request (with errors per field), idempotency or refusal',
  429: 'rate_limit (Retry-After)',
  500: "server_error: a fault on the service's side",
  502: 'not_delivered',
}

/** One error answer per status, made once: every route shares it (made per route, they were a third of building the API at start). */
const errorAnswerOf = new Map<number, TSchema>()

/** Declares the error answers a route gives, so the OpenAPI document lists them. */
export function errorAnswers(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of [401, 403, 429, 500, ...statuses]) {
    let answer = errorAnswerOf.get(s)
    if (!answer) errorAnswerOf.set(s, (answer = t.Composite([ErrorSchema], { description: ERROR_WORDS[s] ?? 'error' })))
    out[s] = answer
  }
  return out
}

/** A decimal sent as a string; the money module judges its digits, TypeBox only refuses other JSON types. */
export const DecimalInput = t.String({
  'x-decimal': true,
  description: 'decimal string such as "12.50"; JSON numbers are refused',
})
export const Amount = t.String({ pattern: AMOUNT_PATTERN, description: 'exact decimal string at the currency scale' })
export const Timestamp = t.String({ format: 'date-time', description: 'UTC' })

export const ListQuery = {
  limit: t.Optional(t.String({ description: '1 to 100, default 25' })),
  cursor: t.Optional(t.String({ description: "the previous page's next_cursor" })),
}

export function Paged<T extends TSchema>(item: T, title: string) {
  return t.Object({ data: t.Array(item), next_cursor: t.Union([t.String(), t.Null()]) }, { title })
}

/** Request integers and booleans stay strict: Elysia's own t.Integer / t.Boolean would also take "30" or "true". */
export const Int = (opts: IntegerOptions = {}) => Type.Integer(opts)
export const Bool = () => Type.Boolean()

export const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()])

/** The optional Idempotency-Key header of creates, for the OpenAPI document. */
export const idempotencyHeader = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    '1 to 255 printable characters, no space; the same key and body within 24 hours replays the first answer',
  schema: { type: 'string' as const, pattern: '^[\\x21-\\x7E]{1,255}$' },
}

/**
 * The body of an action that takes none: absent, empty or `{}`. A field sent anyway is 422 naming it (extensions §7),
 * so a caller who thinks the action takes options learns it does not.
 */
export const NoBody = t.Optional(
  t.Object({}, { additionalProperties: false, description: 'no body, or {}', title: 'NoBody' }),
)
