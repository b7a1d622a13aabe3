// Which mail provider sends for a Business: its own mailbox when it has one, else the service's own mail server
// (INVOICING_MAIL_RELAY) when the Business has an email address of its own, else none. A Test business's emails to
// its Clients go to its outbox instead (src/modules/outbox): the same provider, relay or not, but kept, never sent.
import type { Queryable } from '../../db/client'
import type { MailboxKind } from '../../db/schema'
import { findMailbox } from './mailbox.repo'

export interface MailboxInfo {
  kind: MailboxKind
  fromAddress: string
  smtpUrl: string | null
}

export type Provider =
  | { kind: 'service' | 'smtp'; from: string; transportUrl: string; connected: true }
  /** Hosted mailboxes (and an SMTP mailbox without a server): this edition cannot reach them, so their account counts as lost. */
  | { kind: MailboxKind; from: string; transportUrl: null; connected: false }

/**
 * Whom an email is for: a Client (a Send, a reminder, a Receipt: a Test business keeps these in its outbox) or a
 * person (an invitation and its sign-in link, extensions §8: never kept in an outbox, always sent).
 */
export type MailAudience = 'client' | 'person'

const OUTBOX_TRANSPORT = /^outbox:([1-9][0-9]{0,14})$/

/** The transport of a Test business's outbox: the mailer keeps what is sent to it (src/modules/outbox). */
export function outboxTransport(businessId: number): string {
  return `outbox:${businessId}`
}

/** The Business whose outbox a transport names, or null for a mail server's URL. */
export function outboxBusinessOf(transportUrl: string): number | null {
  const m = OUTBOX_TRANSPORT.exec(transportUrl)
  return m ? Number(m[1]) : null
}

/**
 * The provider of an email to `audience`. A Test business's email to a Client is composed as its provider would send
 * it (its mailbox's From, or its own address as the service's mail server would) and kept in its outbox: it needs no
 * relay and never leaves the machine. A lost hosted mailbox stays lost, so `mail_account_lost` can be tried too.
 */
export function providerFor(
  audience: MailAudience,
  business: { id: number; email: string | null; isTest: boolean },
  mailRelay: string | null,
  mailbox: MailboxInfo | null | undefined,
): Provider | null {
  if (audience === 'person' || !business.isTest) return providerOf(business, mailRelay, mailbox)
  const outbox = outboxTransport(business.id)
  const p = providerOf(business, outbox, mailbox)
  return p?.connected ? { ...p, transportUrl: outbox } : p
}

export function providerOf(
  business: { email: string | null },
  mailRelay: string | null,
  mailbox: MailboxInfo | null | undefined,
): Provider | null {
  if (mailbox) {
    // A mailbox is used when it is there, even lost: the Business chose it, so it is never bypassed silently.
    if (mailbox.kind === 'smtp' && mailbox.smtpUrl)
      return { kind: 'smtp', from: mailbox.fromAddress, transportUrl: mailbox.smtpUrl, connected: true }
    // An SMTP mailbox whose server and password were dropped with a lost secret key (`invoicing secrets forget`):
    // nothing sends until it is set again, and the service's relay does not take over unasked.
    if (mailbox.kind === 'smtp') return null
    return { kind: mailbox.kind, from: mailbox.fromAddress, transportUrl: null, connected: false }
  }
  if (mailRelay && business.email)
    return { kind: 'service', from: business.email, transportUrl: mailRelay, connected: true }
  return null
}

/**
 * `mail_provider` of GET /v1/business: the kind and the From address a Send uses (a Test business's as its outbox
 * keeps them); never the server URL or its login.
 */
export function mailProviderView(
  business: { id: number; email: string | null; isTest: boolean },
  mailRelay: string | null,
  mailbox: MailboxInfo | null | undefined,
): { kind: string; address: string } | null {
  const p = providerFor('client', business, mailRelay, mailbox)
  return p ? { kind: p.kind, address: p.from } : null
}

/** `mail_provider` of a Business as it stands: its mailbox read, then the one rule above. */
export async function businessMailProvider(
  q: Queryable,
  business: { id: number; email: string | null; isTest: boolean },
  mailRelay: string | null,
) {
  return mailProviderView(business, mailRelay, await findMailbox(q, business.id))
}
