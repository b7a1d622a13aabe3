// A Business's own mailbox settings: set and cleared by the operator (`invoicing mail set|clear`) and the settings
// page, checked here, its SMTP URL (which holds the password) sealed at rest and opened only on its way out.
import type { Database } from '../../db/client'
import { mailboxKinds, type MailboxKind } from '../../db/schema'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag } from '../../shared/errors'
import { MailerError, parseSmtpUrl, type Mailer } from '../../adapters/smtp'
import type { SecretBox } from '../../shared/secret-box'
import { isEmailAddress } from '../../shared/text'
import { deleteMailbox, saveMailbox, type MailboxRow } from './mailbox.repo'
import { AddressRefused, checkHost, isPublicAddress, type Resolver } from '../webhooks'

export interface MailboxInput {
  /** smtp (default); google and microsoft are kinds this edition reports as not connected. */
  kind?: string
  smtpUrl?: string
  from?: string
}

/** Why a mailbox's From address is refused (null when it is taken): the one rule, for this and the page's own fields. */
export function mailboxFromFault(from: string | undefined): string | null {
  const f = from?.trim()
  if (!f) return 'is required'
  if (f.length > 255 || !isEmailAddress(f)) return 'must be an email address'
  return null
}

/** What a Business's own mail server may be (INVOICING_SMTP_ALLOW_PRIVATE): public unless the operator allowed more. */
export interface MailHostRules {
  allowPrivate: boolean
}

const PUBLIC_ONLY: MailHostRules = { allowPrivate: false }

/**
 * Why a tenant's SMTP host is refused as typed (null when it is taken): the webhooks' address rules, judged without
 * DNS here (an IP literal or a name of this machine must be public); its name is resolved, and every address
 * checked, when a message goes out (openingMailer). Resolving at save would tell an Admin which internal names exist.
 */
export function mailHostFault(host: string, rules: MailHostRules): string | null {
  if (rules.allowPrivate) return null
  const bare = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase()
  const literal = /^[0-9.]+$/.test(bare) || /^0x/i.test(bare) || bare.includes(':')
  if (bare === 'localhost' || bare.endsWith('.localhost') || (literal && !isPublicAddress(bare))) {
    return 'must be a mail server on the public internet, not a loopback, private or reserved address'
  }
  return null
}

export async function setMailbox(
  db: Database,
  clock: Clock,
  businessId: number,
  input: MailboxInput,
  rules: MailHostRules = PUBLIC_ONLY,
): Promise<MailboxRow> {
  const bag = new FieldErrorBag()
  const kind = (input.kind ?? 'smtp') as MailboxKind
  if (!mailboxKinds.includes(kind)) bag.add('kind', `must be one of ${mailboxKinds.join(', ')}`)
  const from = input.from?.trim()
  const fromFault = mailboxFromFault(from)
  if (fromFault) bag.add('from', fromFault)
  const url = input.smtpUrl?.trim()
  if (kind === 'smtp') {
    if (!url) bag.add('smtp', 'is required: smtp://user:password@host:port or smtps://...')
    else {
      try {
        const hostFault = mailHostFault(parseSmtpUrl(url).host, rules)
        if (hostFault) bag.add('smtp', `names a host that ${hostFault}`)
      } catch (e) {
        bag.add('smtp', (e as Error).message)
      }
    }
  } else if (url) bag.add('smtp', `is not taken by a ${kind} mailbox`)
  bag.throwIfAny()
  // The URL holds the mailbox's password: stored sealed, opened only as a message goes out (deps.ts).
  const sealed = kind === 'smtp' ? db.secrets.seal(url!, 'smtp-url') : null
  return db.write((tx) =>
    saveMailbox(tx, businessId, { kind, fromAddress: from!, smtpUrl: sealed }, clock.now().toISOString()),
  )
}

/** Removes the mailbox; the service's own mail server sends again when the Business has an address. */
export async function clearMailbox(db: Database, businessId: number): Promise<boolean> {
  return db.write((tx) => deleteMailbox(tx, businessId))
}

/** Who may be reached, and how: the operator's settings (src/config.ts) and the resolver the address rules use. */
export interface MailRoutes {
  /** The service's own relay (INVOICING_MAIL_RELAY): the operator's, so none of a tenant's rules apply to it. */
  relay: string | null
  resolve: Resolver
  allowPrivate: boolean
  allowPlainLogin: boolean
}

/**
 * The mailer the Send uses: a Business's mailbox URL is stored sealed and opened only here, on its way to the adapter.
 * Any server but the operator's relay is a tenant's: its name is resolved and every address checked (the webhooks'
 * rules) at each send, and the adapter connects to the address checked, so a name that answered a public address at
 * save cannot be turned to an internal one; a refused host is answered as a server not reached.
 */
export function openingMailer(inner: Mailer, db: { readonly secrets: SecretBox }, routes: MailRoutes): Mailer {
  return {
    async send(transportUrl, message) {
      if (routes.relay !== null && transportUrl === routes.relay) return inner.send(transportUrl, message)
      // Read at each send: the database's box is the one unlocked at start (db/secrets.ts), whenever this was built.
      const url = db.secrets.open(transportUrl, 'smtp-url')
      let address: string
      try {
        address = await checkHost(parseSmtpUrl(url).host, {
          allowPrivate: routes.allowPrivate,
          resolve: routes.resolve,
        })
      } catch (e) {
        if (!(e instanceof AddressRefused)) throw e
        throw new MailerError('unreachable', `the mail server was not tried: ${e.message}`)
      }
      return inner.send(url, message, { address, plainLogin: routes.allowPlainLogin })
    },
  }
}
