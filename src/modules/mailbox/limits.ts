// The daily recipient limit of the service's own mail server (contract, Limits): To, Cc and Bcc each count,
// per UTC day; a Business's own mailbox has no limit of ours.
import { mailDailyLimit } from '../../platform/policy'
import type { Queryable } from '../../db/client'
import { utcDay } from '../../shared/dates'
import { recipientsSent } from './daily-count.repo'
import { findMailbox } from './mailbox.repo'
import { providerFor, type MailAudience, type Provider } from './providers'

/** At most this many recipients in one Send (To, Cc and Bcc together). */
export const MAX_RECIPIENTS_PER_SEND = 50

/** The plan's limit, as the policy states it. */
export function dailyRecipientLimit(b: { plan: string; isTest: boolean }): number {
  return mailDailyLimit(b)
}

function nextUtcDay(day: string): string {
  return utcDay(new Date(Date.parse(day) + 86_400_000))
}

/** How a Business would send now, and where it stands against the limit, as the lifecycle judge reads it. */
export interface MailState {
  provider: Provider | null
  /** The provider's kind, null when there is none. */
  via: string | null
  mailboxLost: boolean
  sentToday: number
  /** null when the provider is not the service's own mail server. */
  dailyLimit: number | null
  /** The UTC day the count starts again. */
  resumesOn: string
  /** With no provider, why: this service runs no mail server (no relay), or the Business has no address to send from. */
  noMail: 'no_relay' | 'no_address' | null
}

/**
 * How the Business would send to `audience` now. A Test business's outbox stands in for the service's own mail server
 * and is held to its daily limit (the contract's Limits name a Test business at 20 a day), so the sandbox meets
 * `sending_limit_reached` as a live Business would.
 */
export async function mailStateOf(
  q: Queryable,
  business: { id: number; email: string | null; plan: string; isTest: boolean },
  mailRelay: string | null,
  day: string,
  audience: MailAudience,
): Promise<MailState> {
  const provider = providerFor(audience, business, mailRelay, await findMailbox(q, business.id))
  const outbox = audience === 'client' && business.isTest
  const service = provider?.kind === 'service'
  return {
    provider,
    via: provider?.kind ?? null,
    mailboxLost: provider !== null && !provider.connected,
    sentToday: service ? await recipientsSent(q, business.id, day) : 0,
    dailyLimit: service ? dailyRecipientLimit(business) : null,
    resumesOn: nextUtcDay(day),
    noMail: provider ? null : !mailRelay && !outbox ? 'no_relay' : 'no_address',
  }
}
