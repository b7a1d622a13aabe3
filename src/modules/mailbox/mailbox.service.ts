// A Business's own mailbox settings: set and cleared by the operator (`invoicing mail set|clear`) and the settings
// page, checked here, its SMTP URL (which holds the password) sealed at rest and opened only on its way out.
import type { Database } from '../../db/client'
import { mailboxKinds, type MailboxKind } from '../../db/schema'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag } from '../../shared/errors'
import { parseSmtpUrl, type Mailer } from '../../adapters/smtp'
import type { SecretBox } from '../../shared/secret-box'
import { isEmailAddress } from '../../shared/text'
import { deleteMailbox, saveMailbox, type MailboxRow } from './mailbox.repo'

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

export async function setMailbox(db: Database, clock: Clock, businessId: number, input: MailboxInput): Promise<MailboxRow> {
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
        parseSmtpUrl(url)
      } catch (e) {
        bag.add('smtp', (e as Error).message)
      }
    }
  } else if (url) bag.add('smtp', `is not taken by a ${kind} mailbox`)
  bag.throwIfAny()
  // The URL holds the mailbox's password: stored sealed, opened only as a message goes out (deps.ts).
  const sealed = kind === 'smtp' ? db.secrets.seal(url!, 'smtp-url') : null
  return db.write((tx) => saveMailbox(tx, businessId, { kind, fromAddress: from!, smtpUrl: sealed }, clock.now().toISOString()))
}

/** Removes the mailbox; the service's own mail server sends again when the Business has an address. */
export async function clearMailbox(db: Database, businessId: number): Promise<boolean> {
  return db.write((tx) => deleteMailbox(tx, businessId))
}

/** The mailer the Send uses: a Business's mailbox URL is stored sealed and opened only here, on its way to the adapter. */
export function openingMailer(inner: Mailer, db: { readonly secrets: SecretBox }): Mailer {
  // Read at each send: the database's box is the one unlocked at start (db/secrets.ts), whenever this was built.
  return { send: (transportUrl, message) => inner.send(db.secrets.open(transportUrl, 'smtp-url'), message) }
}
