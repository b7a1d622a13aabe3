// Which mail provider sends for a Business: its own mailbox when it has one, else the service's own mail server
// (INVOICING_MAIL_RELAY) when the Business has an email address of its own, else none.
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

/** `mail_provider` of GET /v1/business: the kind and the From address; never the server URL or its login. */
export function mailProviderView(
  business: { email: string | null },
  mailRelay: string | null,
  mailbox: MailboxInfo | null | undefined,
): { kind: string; address: string } | null {
  const p = providerOf(business, mailRelay, mailbox)
  return p ? { kind: p.kind, address: p.from } : null
}

/** `mail_provider` of a Business as it stands: its mailbox read, then the one rule above. */
export async function businessMailProvider(
  q: Queryable,
  business: { id: number; email: string | null },
  mailRelay: string | null,
) {
  return mailProviderView(business, mailRelay, await findMailbox(q, business.id))
}
