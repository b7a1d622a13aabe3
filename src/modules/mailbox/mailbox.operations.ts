// The application's operations of a Business's mailbox (extensions §9, settings): connect an SMTP mailbox, remove it.
import { json, type ApplicationOperation } from '../../platform/operation'
import { clearMailbox } from './mailbox.service'
import { setSmtpMailbox, type SmtpParts } from './mailbox-parts'

export const mailboxAppOperations: ApplicationOperation[] = [
  {
    name: 'mailbox_set_smtp',
    description:
      "Connects the Business's own SMTP mailbox (host, port, security, username, password, from); the service sends through it.",
    access: 'admin',
    refusals: [],
    async run(actor, { body }, { deps }) {
      await setSmtpMailbox(deps.db, deps.clock, actor.businessId, body as SmtpParts, {
        allowPrivate: deps.config.smtpAllowPrivate,
      })
      return json({ connected: true })
    },
  },
  {
    name: 'mailbox_clear',
    description:
      "Removes the Business's mailbox: the service's own mail server sends when the Business has an address.",
    access: 'admin',
    refusals: [],
    async run(actor, _input, { deps }) {
      return json({ cleared: await clearMailbox(deps.db, actor.businessId) })
    },
  },
]
