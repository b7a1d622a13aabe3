// The service's one error hierarchy: every failure a caller can see is one of these, rendered by doors/api/errors.ts.

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
const STATUS_OF: Record<ErrorType, number> = {
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

/**
 * The closed catalog of codes the service answers (the contract's refusal table, with its plan codes): what each means,
 * its remedy where the contract gives one, and for a refusal the one message it is answered with (`says`; a function
 * when the message names the case's figures). A code outside it does not compile; each operation of the table declares
 * which of these it may answer (src/operations.ts), and the runner holds it to that. The plan codes' words are each
 * door's own (platform/policy.ts).
 */
export const CODES = {
  // Issue, and Send or Convert issuing a Draft
  already_issued: {
    type: 'refusal',
    means: 'only a Draft is issued',
    says: 'Only a Draft is issued; this document is issued already.',
  },
  number_taken: {
    type: 'refusal',
    means: 'the requested number is held by another document',
    says: (p: { requested: string }) => `${p.requested} is held by another document.`,
  },
  number_skips_ahead: {
    type: 'refusal',
    means: 'the requested number skips ahead of the numbering; the message names the next',
    says: (p: { requested: string; next: string }) =>
      `${p.requested} skips ahead of the numbering; the next number is ${p.next}.`,
  },
  number_beyond_the_counter: {
    type: 'refusal',
    means: 'the number exceeds what the numbering can count',
    says: (p: { requested: string; pattern: string; largest: string }) =>
      `${p.requested} exceeds what the numbering ${p.pattern} can count (largest usable: ${p.largest}).`,
  },
  number_malformed: {
    type: 'refusal',
    means: 'not a valid document number for the pattern',
    says: (p: { requested: string; example: string }) =>
      `${p.requested} is not a valid number here; numbers look like ${p.example}.`,
  },
  numbering_at_its_end: {
    type: 'refusal',
    means: 'the next number is the largest the numbering holds, which is never taken',
    says: (p: { words: string; pattern: string; takesRequested: boolean }) =>
      `The ${p.words} numbering ${p.pattern} reached its largest number, which is never taken; change its pattern${p.takesRequested ? ' or request an unused earlier number' : ''}.`,
  },
  issuing_limit_reached: {
    type: 'refusal',
    means: 'a Free plan or Test business has issued its Invoices for the year',
    remedy: 'choose_plan',
    says: (p: { limit: number; year: number }) =>
      `This Business has issued its ${p.limit} Invoices for ${p.year}; it issues again on ${p.year + 1}-01-01.`,
  },
  draft_deleted: {
    type: 'refusal',
    means: 'the Draft was deleted meanwhile by a concurrent request; nothing written',
    says: 'The Draft was deleted meanwhile; nothing was written and no number taken.',
  },
  // Send
  cancelled_not_sent: {
    type: 'refusal',
    means: 'a cancelled document is not sent',
    says: 'A cancelled document is not sent.',
  },
  no_client_address: {
    type: 'refusal',
    means: 'the Client has no email address; nothing issued',
    says: 'The Client has no email address; add one to the Client (a Send may also name its own `to`). Nothing was sent or issued.',
    inApp:
      'The Client has no email address; add one to the Client, or name a recipient in the Send form. Nothing was sent or issued.',
  },
  no_mail_provider: {
    type: 'refusal',
    means: 'the Business has nothing to send through',
    remedy: 'connect_mail_provider',
    // Either the Business has no address of its own, or it has one and this service runs no mail server to send it
    // through (INVOICING_MAIL_RELAY unset): the message covers both, and a mailbox of its own cures both.
    // The words name the real cause when it is known (issue 32): the relay the operator has not set, or the address.
    says: (p: { why?: 'no_relay' | 'no_address' | null } = {}) =>
      p.why === 'no_relay'
        ? 'This Business has no way to send email: this service runs no mail server of its own (its operator has not set INVOICING_MAIL_RELAY) and the Business has no mailbox of its own; connect a mailbox. Nothing was sent.'
        : p.why === 'no_address'
          ? "This Business has no way to send email: it has no email address of its own for this service's mail server to send from, and no mailbox of its own; add its email address or connect a mailbox. Nothing was sent."
          : 'This Business has no way to send email: it needs an email address of its own on a service that runs a mail server, or a mailbox of its own; connect a mailbox. Nothing was sent.',
  },
  mail_account_lost: {
    type: 'refusal',
    means: 'the connected mailbox refused renewal',
    remedy: 'connect_mail_provider',
    says: (p: { via: string }) =>
      `The Business's ${p.via} mailbox is not connected; reconnect it or connect another mailbox. Nothing was sent.`,
  },
  sending_limit_reached: {
    type: 'refusal',
    means: "the daily recipient count through the service's own mail server is reached",
    remedy: 'connect_mail_provider',
    says: (p: { limit: number; sentToday: number; recipients: number; resumesOn: string }) =>
      `The service's own mail server takes ${p.limit} recipients a day for this Business (To, Cc and Bcc each count); ` +
      `${p.sentToday} were sent today and this message has ${p.recipients}. It sends again on ${p.resumesOn} (UTC), or through a mailbox of its own.`,
  },
  // Cancel
  draft_not_cancelled: {
    type: 'refusal',
    means: 'a Draft is deleted, not cancelled',
    says: 'A Draft is deleted (DELETE /v1/documents/{id}), not cancelled.',
    inApp: 'A Draft is not cancelled: delete it instead.',
  },
  paid_not_cancelled: {
    type: 'refusal',
    means: 'a paid document is corrected with a Credit Note',
    says: 'A paid document is corrected with a Credit Note, not cancelled.',
  },
  already_cancelled: {
    type: 'refusal',
    means: 'the document is cancelled already',
    says: 'The document is cancelled already.',
  },
  holds_money: {
    type: 'refusal',
    means: 'the document holds Payments; a Credit Note instead',
    says: 'The document holds Payments; correct it with a Credit Note instead.',
  },
  // Convert, and Drafts linked to a Proforma (the same words whether the Proforma converts or an Invoice names it)
  not_a_proforma: {
    type: 'refusal',
    means: 'only a Proforma Invoice converts',
    says: 'The document is not a Proforma Invoice; only a Proforma Invoice converts into an Invoice.',
  },
  draft_not_converted: {
    type: 'refusal',
    means: 'a Draft Proforma Invoice is issued first',
    says: 'The Proforma Invoice is a Draft; issue it first.',
  },
  cancelled_not_converted: {
    type: 'refusal',
    means: 'a cancelled Proforma Invoice converts into nothing',
    says: 'The Proforma Invoice is cancelled and converts into nothing.',
  },
  already_converted: {
    type: 'refusal',
    means: 'the Proforma Invoice was converted already',
    says: 'The Proforma Invoice was converted already.',
  },
  proforma_deleted: {
    type: 'refusal',
    means: 'the linked Proforma Invoice was deleted',
    says: 'The linked Proforma Invoice was deleted; clear proforma_id.',
    inApp: 'The linked Proforma Invoice was deleted; remove the link to it.',
  },
  only_into_an_invoice: {
    type: 'refusal',
    means: 'a Proforma Invoice converts only into an Invoice',
    says: 'A Proforma Invoice converts only into an Invoice.',
  },
  proforma_other_currency: {
    type: 'refusal',
    means: 'the linked Proforma Invoice is in another currency',
    says: (p: { proforma: string; document: string }) =>
      `The linked Proforma Invoice is in ${p.proforma}, not ${p.document}.`,
  },
  proforma_other_client: {
    type: 'refusal',
    means: 'the linked Proforma Invoice is for another Client',
    says: 'The linked Proforma Invoice is for another Client.',
  },
  // Update and delete a document
  issued_not_changed: {
    type: 'refusal',
    means: 'only a Draft is changed through the API',
    says: 'Only a Draft is changed; correct an issued document with a Credit Note.',
  },
  issued_not_deleted: {
    type: 'refusal',
    means: 'only a Draft is deleted',
    says: 'Only a Draft is deleted; cancel an issued document or correct it with a Credit Note.',
  },
  // Payments
  type_takes_no_payments: {
    type: 'refusal',
    means: 'a Credit Note or Quote takes no Payments',
    says: (p: { type: string }) => `A ${p.type === 'quote' ? 'Quote' : 'Credit Note'} takes no Payments.`,
  },
  draft_takes_no_payments: {
    type: 'refusal',
    means: 'a Draft takes no Payments',
    says: 'A Draft takes no Payments; issue it first.',
  },
  cancelled_takes_no_payments: {
    type: 'refusal',
    means: 'a cancelled document takes no Payments',
    says: 'A cancelled document takes no Payments.',
  },
  nothing_due: { type: 'refusal', means: 'the amount due is zero', says: 'Nothing is due on this document.' },
  payment_goes_to_its_invoice: {
    type: 'refusal',
    means: 'the Proforma Invoice was converted; record on its Invoice',
    remedy: 'record_on_its_invoice',
    says: (p: { invoiceNumber: string | null }) =>
      `This Proforma Invoice was converted; record the Payment on its Invoice${p.invoiceNumber ? ` ${p.invoiceNumber}` : ''}.`,
  },
  payment_currency_mismatch: {
    type: 'refusal',
    means: "the currency sent is not the document's",
    says: (p: { document: string; sent: string }) =>
      `The document is in ${p.document}; a Payment on it is in ${p.document} too, not ${p.sent}.`,
  },
  payment_exceeds_amount_due: {
    type: 'refusal',
    means: 'the amount is above what is due',
    says: (p: { amount: string; due: string; currency: string }) =>
      `The amount ${p.amount} is above the ${p.due} ${p.currency} due.`,
  },
  payment_reversed: {
    type: 'refusal',
    means: 'the Payment is reversed already',
    says: 'The Payment was reversed already; a reversed Payment is neither amended nor reversed again.',
  },
  // E-invoice export
  not_exportable: {
    type: 'refusal',
    means: 'the document is not exported as EN16931 XML (Draft, Proforma Invoice, Quote, or failing the rules)',
    says: (
      p:
        | { why: 'draft' | 'proforma' | 'quote' | 'other' }
        | { why: 'rules'; ruleSet: string; rules: string[]; format: string },
    ) =>
      p.why === 'rules'
        ? `The document fails the ${p.ruleSet} rule${p.rules.length > 1 ? 's' : ''} ${p.rules.join(', ')} for format ${p.format}; see rules for what to change.`
        : {
            draft: 'A Draft is not exported as EN16931 XML; issue it first.',
            proforma: 'A Proforma Invoice is not exported as EN16931 XML; convert it into an Invoice.',
            quote: 'A Quote is not exported as EN16931 XML.',
            other: 'Only Invoices and Credit Notes are exported as EN16931 XML.',
          }[p.why],
  },
  exports_not_in_a_test_business: {
    type: 'refusal',
    means: 'a Test business exports no EN16931 XML',
    says: 'A Test business exports no EN16931 XML; its documents are samples.',
  },
  // Webhooks
  webhook_limit_reached: {
    type: 'refusal',
    means: 'a Business has at most its limit of webhooks',
    says: (p: { max: number }) => `A Business has at most ${p.max} webhooks; delete one first.`,
  },
  webhook_paused: {
    type: 'refusal',
    means: 'the webhook is paused',
    says: 'The webhook is paused; turn it on (paused: false) first.',
    inApp: 'The webhook is paused; resume it first.',
  },
  webhooks_need_a_paid_plan: {
    type: 'refusal',
    means: 'webhooks are sent only on a paid plan',
    remedy: 'choose_plan',
    says: 'Webhooks are sent only on a paid plan; the Business’s Owner chooses one in billing settings.',
  },
  app_not_connected: {
    type: 'refusal',
    means: "the OAuth app no longer hears the message's Business",
    says: 'The app is no longer connected to that Business, so nothing more is sent about it.',
  },
  // The application's own actions (extensions §9): the contract's Refusal codes marked "in the application".
  draft_not_delivered: {
    type: 'refusal',
    means: 'a Draft is issued by Send, not marked sent',
    says: 'A Draft is issued by sending it, not marked sent; send it, or issue it and then mark it sent.',
  },
  cancelled_not_marked: {
    type: 'refusal',
    means: 'a cancelled document is not marked sent',
    says: 'A cancelled document is not marked sent.',
  },
  cancelled_keeps_mark: {
    type: 'refusal',
    means: 'a cancelled document keeps its mark',
    says: 'A cancelled document keeps its mark; it is not taken back.',
  },
  not_marked_sent: {
    type: 'refusal',
    means: 'the document is not marked sent by hand',
    says: 'The document is not marked sent by hand; there is no mark to take back.',
  },
  no_mail_provider_to_remind: {
    type: 'refusal',
    means: 'nothing to send a reminder through',
    remedy: 'connect_mail_provider',
    says: 'Nothing to send the reminder through: the Business needs an email address of its own on a service that runs a mail server, or a mailbox of its own; connect a mailbox.',
  },
  not_remindable: {
    type: 'refusal',
    means: 'only an issued Invoice or Proforma Invoice with something due is reminded',
    says: (p: { why: 'quote' | 'credit_note' | 'draft' | 'cancelled' | 'paid' }) =>
      ({
        quote: 'A Quote is not reminded: nothing is due on it.',
        credit_note: 'A Credit Note is not reminded: nothing is due on it.',
        draft: 'A Draft is not reminded; issue and send it first.',
        cancelled: 'A cancelled document is not reminded.',
        paid: 'The document is paid; nothing is due to remind of.',
      })[p.why],
  },
  converted_proforma: {
    type: 'refusal',
    means: 'a converted Proforma Invoice is reminded on its Invoice',
    says: 'This Proforma Invoice was converted into an Invoice; remind the Client on its Invoice.',
  },
  never_reminded: {
    type: 'refusal',
    means: 'the document was never reminded',
    says: 'The document was never reminded; send a first reminder before reminding again.',
  },
  receipt_voided: {
    type: 'refusal',
    means: 'a void Receipt is not emailed',
    says: 'The Receipt is void: its Payment was reversed. A void Receipt is not emailed.',
  },
  no_mail_provider_for_receipt: {
    type: 'refusal',
    means: 'nothing to send a Receipt through',
    remedy: 'connect_mail_provider',
    says: 'Nothing to send the Receipt through: the Business needs an email address of its own on a service that runs a mail server, or a mailbox of its own; connect a mailbox.',
  },
  no_receipt: {
    type: 'refusal',
    means: 'the Payment has no Receipt',
    says: 'This Payment was recorded before Receipts existed and has no Receipt to email.',
  },
  client_deleted: {
    type: 'refusal',
    means: "the document's Client is gone",
    says: "The document's Client is gone; a document is duplicated only for a Client that still exists.",
  },
  // People and memberships (CLI and application, extensions §8)
  person_exists: {
    type: 'refusal',
    means: 'a person with that email exists already',
    says: (p: { email: string }) =>
      `A person with the email ${p.email} exists already; send them a new link with "person link".`,
  },
  last_owner: {
    type: 'refusal',
    means: 'a Business keeps at least one Owner',
    says: 'A Business keeps at least one Owner: make another member Owner first.',
  },
  // Bank statements (extensions §15)
  bank_entry_not_unmatched: {
    type: 'refusal',
    means: 'the bank statement entry is matched, a duplicate or ignored; only an unmatched one is matched by hand',
    says: (p: { status: string }) => `This entry is ${p.status}; only an unmatched entry is matched by hand.`,
  },
  // Documents in another currency (extensions §16)
  exchange_rate_missing: {
    type: 'refusal',
    means: "a document in another currency than the Business's has no exchange rate and no reference rate is held",
    says: (p: { currency: string; accounting: string; date: string }) =>
      `No exchange rate from ${p.currency} to ${p.accounting} is held for ${p.date} or any day before it; send exchange_rate on the Draft, or import the ECB's rates ("invoicing fx import FILE").`,
    inApp:
      "No exchange rate into the Business's currency is held for this document's issue date: set the exchange rate on the Draft, or have the ECB's rates imported.",
  },
  // Recurring invoices (extensions §13)
  recurring_paused: {
    type: 'refusal',
    means: 'the recurring invoice is paused already',
    says: 'This recurring invoice is paused already; resume it to make its next dates.',
  },
  recurring_active: {
    type: 'refusal',
    means: 'the recurring invoice is active already',
    says: 'This recurring invoice is active already; only a paused one is resumed.',
  },
  recurring_ended: {
    type: 'refusal',
    means: 'the recurring invoice has ended',
    says: 'This recurring invoice has ended: it makes no more dates. Change its end_date or count to go on.',
    inApp:
      'This recurring invoice has ended: it makes no more dates. Change its last date or number of Invoices to go on.',
  },
  // Plan codes: 403 permission
  paid_plan_required: {
    type: 'permission',
    means: 'the Public API needs a paid plan (Free or Paused Business)',
    remedy: 'choose_plan',
  },
  business_paused: {
    type: 'permission',
    means: 'the Business is Paused (MCP server and application)',
    remedy: 'choose_plan',
  },
  plan_role_viewing: {
    type: 'permission',
    means: 'on the Free plan only reads are open (MCP server and application)',
    remedy: 'choose_plan',
  },
  // Refunds of Credit Notes (extensions §20)
  not_a_credit_note: {
    type: 'refusal',
    means: 'only a Credit Note takes Refunds',
    says: 'Only a Credit Note takes Refunds; record a Payment on an Invoice.',
  },
  refund_exceeds_credit: {
    type: 'refusal',
    means: "the amount is above the Credit Note's total less what was refunded before",
    says: (p: { amount: string; left: string; currency: string }) =>
      `The amount ${p.amount} is above the ${p.left} ${p.currency} left to refund on this Credit Note.`,
  },
  refund_reversed: {
    type: 'refusal',
    means: 'the Refund is reversed already',
    says: 'The Refund was reversed already.',
  },
} as const satisfies Record<
  string,
  | {
      type: 'refusal'
      means: string
      remedy?: string
      says: string | ((p: never) => string)
      /** The application's own words, where `says` speaks the API's (a path, a field name, a JSON value). */
      inApp?: string
    }
  | { type: 'permission'; means: string; remedy: string }
>

export type Code = keyof typeof CODES
export type RefusalCode = { [K in Code]: (typeof CODES)[K]['type'] extends 'refusal' ? K : never }[Code]
export type PlanCode = Exclude<Code, RefusalCode>

/** The figures a refusal's message names: none when the catalog's `says` is plain words. */
export type SaysWith<C extends RefusalCode> = (typeof CODES)[C]['says'] extends (p: infer P) => string
  ? [figures: P]
  : []

/** The one message of a refusal code, from the catalog. */
export function says<C extends RefusalCode>(code: C, ...figures: SaysWith<C>): string {
  // The figures' type is held at the call by SaysWith; here every `says` is called alike.
  const s = CODES[code].says as string | ((p: unknown) => string)
  return typeof s === 'string' ? s : s(figures[0])
}

/**
 * A refusal's words as the application shows them to a person: the catalog's own words for the application where it
 * has them (the API's name a path or a field a person never sees), else the message the refusal was answered with.
 */
export function inAppWords(code: string | null | undefined, message: string): string {
  const entry = code ? (CODES as Record<string, { inApp?: string }>)[code] : undefined
  return entry?.inApp ?? message
}

/** A refusal of the catalog as judged (its code and message); a judge adds the remedy and members the case carries. */
export function refusalInfo<C extends RefusalCode>(code: C, ...figures: SaysWith<C>): RefusalInfo {
  return { code, message: says(code, ...figures) }
}

/** A refusal as judged before it is thrown (the lifecycle predicts with it in `actions`, and throws it to refuse). */
export interface RefusalInfo {
  code: RefusalCode
  message: string
  remedy?: string
  remedy_url?: string
  /** Further members of the error object (e.g. `invoice` with record_on_its_invoice). */
  extra?: Record<string, unknown>
}

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
  constructor(status: 400 | 405 | 408 | 413 | 415, message: string, headers: Record<string, string> = {}) {
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
    super(
      'authentication',
      'Send a valid API key as "Authorization: Bearer <key>".',
      undefined,
      {},
      { 'WWW-Authenticate': 'Bearer realm="invoicing"' },
    )
  }
}

export class Permission extends ApiError {
  constructor(message: string, extra: { code?: PlanCode; remedy?: string } = {}) {
    super('permission', message, 403, extra)
  }
}

/** The one way to refuse: a code of the catalog, words for a person, and the members the code carries. */
export class Refusal extends ApiError {
  constructor(
    readonly code: RefusalCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super('refusal', message, 422, { code, ...extra })
  }

  /** The refusal of the catalog with its one message (figures as its `says` names them). */
  static say<C extends RefusalCode>(code: C, ...figures: SaysWith<C>): Refusal {
    return new Refusal(code, says(code, ...figures))
  }

  /** The refusal a judge returned (remedy, remedy_url and extra members become members of the error object). */
  static of(r: RefusalInfo): Refusal {
    const extra: Record<string, unknown> = { ...r.extra }
    if (r.remedy) extra.remedy = r.remedy
    if (r.remedy_url) extra.remedy_url = r.remedy_url
    return new Refusal(r.code, r.message, extra)
  }
}

export class IdempotencyMismatch extends ApiError {
  constructor() {
    super('idempotency', 'This Idempotency-Key was already used with another request; nothing was done.')
  }
}

export class IdempotencyInFlight extends ApiError {
  constructor(message = 'The first request under this Idempotency-Key is still running; resend it in a few seconds.') {
    super('idempotency_in_flight', message)
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

function describeFieldErrors(errors: FieldErrors): string {
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
