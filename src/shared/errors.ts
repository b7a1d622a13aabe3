// The service's one error hierarchy: every failure a caller can see is one of these, rendered by http/errors.ts.

export type ErrorType =
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'invalid_request'
  | 'idempotency'
  | 'idempotency_in_flight'
  | 'rate_limit'
  | 'refusal'
  | 'not_delivered'
  | 'server_error'

/** The contract's default HTTP status per error type; a missing type is a compile error. */
export const STATUS_OF: Record<ErrorType, number> = {
  authentication: 401,
  permission: 403,
  not_found: 404,
  invalid_request: 422,
  idempotency: 422,
  idempotency_in_flight: 409,
  rate_limit: 429,
  refusal: 422,
  not_delivered: 502,
  server_error: 500,
} satisfies Record<ErrorType, number>

/** Field name (`lines.0.unit` style) to the plain-word reasons it was refused. */
export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly status: number = STATUS_OF[type],
    /** Extra members of the error object (code, remedy, invoice, errors, ...). */
    readonly extra: Record<string, unknown> = {},
    /** Headers the answer must carry (Retry-After, Allow). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export class InvalidRequest extends ApiError {
  constructor(errors: FieldErrors, message = describeFieldErrors(errors)) {
    super('invalid_request', message, 422, { errors })
  }
  get errors(): FieldErrors {
    return this.extra.errors as FieldErrors
  }
}

/** A request malformed before any field can be judged (bad JSON, wrong content type, too large, wrong method). */
export class BadRequest extends ApiError {
  constructor(status: 400 | 405 | 413 | 415, message: string, headers: Record<string, string> = {}) {
    super('invalid_request', message, status, {}, headers)
  }
}

export class NotFound extends ApiError {
  constructor(message = 'No such record.') {
    super('not_found', message)
  }
}

export class Unauthenticated extends ApiError {
  constructor() {
    // One answer for a missing, unknown or revoked credential, so a caller cannot probe which it was.
    // RFC 6750 §3: a 401 names the scheme the caller should use.
    super('authentication', 'Send a valid API key as "Authorization: Bearer <key>".', undefined, {}, { 'WWW-Authenticate': 'Bearer realm="invoicing"' })
  }
}

export class Permission extends ApiError {
  constructor(message: string, extra: { code?: string; remedy?: string } = {}) {
    super('permission', message, 403, extra)
  }
}

export class Refusal extends ApiError {
  constructor(readonly code: string, message: string, extra: Record<string, unknown> = {}) {
    super('refusal', message, 422, { code, ...extra })
  }
}

export class IdempotencyMismatch extends ApiError {
  constructor() {
    super('idempotency', 'This Idempotency-Key was already used with another request; nothing was done.')
  }
}

export class IdempotencyInFlight extends ApiError {
  constructor() {
    super('idempotency_in_flight', 'The first request under this Idempotency-Key is still running; resend it in a few seconds.')
  }
}

export class RateLimited extends ApiError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      'rate_limit',
      `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} seconds.`,
      429,
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    )
  }
}

export class NotDelivered extends ApiError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('not_delivered', message, 502, extra)
  }
}

export function describeFieldErrors(errors: FieldErrors): string {
  const first = Object.entries(errors)[0]
  if (!first) return 'The request was refused.'
  const more = Object.keys(errors).length - 1
  return `${first[0]}: ${first[1][0]}${more > 0 ? ` (and ${more} more field${more > 1 ? 's' : ''})` : ''}`
}

/** Collects field errors during validation and throws them together. */
export class FieldErrorBag {
  readonly errors: FieldErrors = {}
  add(field: string, message: string): void {
    ;(this.errors[field] ??= []).push(message)
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0
  }
  throwIfAny(): void {
    if (!this.empty) throw new InvalidRequest(this.errors)
  }
}

/**
 * The refusal codes of the application-only actions (the contract's Refusal codes marked "in the application";
 * extensions §9), each with the words a person reads. These actions have no API route; the application's pages answer
 * them as 422 with the code's message.
 */
export const APPLICATION_REFUSALS = {
  // Mark sent / take the mark back.
  draft_not_delivered: 'A Draft is issued by sending it, not marked sent; send it, or issue it and then mark it sent.',
  cancelled_not_marked: 'A cancelled document is not marked sent.',
  cancelled_keeps_mark: 'A cancelled document keeps its mark; it is not taken back.',
  not_marked_sent: 'The document is not marked sent by hand; there is no mark to take back.',
  // Remind, and remind again.
  no_mail_provider_to_remind:
    'Nothing to send the reminder through: the Business needs an email address of its own on a service that runs a mail server, or a mailbox of its own; connect a mailbox.',
  not_remindable: 'Only an issued Invoice or Proforma Invoice with something still due is reminded.',
  converted_proforma: 'This Proforma Invoice was converted into an Invoice; remind the Client on its Invoice.',
  never_reminded: 'The document was never reminded; send a first reminder before reminding again.',
  // Email a Receipt.
  receipt_voided: 'The Receipt is void: its Payment was reversed. A void Receipt is not emailed.',
  no_mail_provider_for_receipt:
    'Nothing to send the Receipt through: the Business needs an email address of its own on a service that runs a mail server, or a mailbox of its own; connect a mailbox.',
  no_receipt: 'This Payment was recorded before Receipts existed and has no Receipt to email.',
  // Duplicate.
  client_deleted: "The document's Client is gone; a document is duplicated only for a Client that still exists.",
} as const

export type ApplicationRefusalCode = keyof typeof APPLICATION_REFUSALS
