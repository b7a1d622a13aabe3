// The mail module's public face: mailbox settings (mailbox.service.ts, and mailbox-parts.ts for the settings page's
// fields) for the CLI, the settings page and deps; which provider sends and the daily limit (providers.ts, limits.ts)
// for documents and the Business answer.
// The Send use case itself (send.service.ts) is reached through its routes, so this face imports no other module.
export type { MailboxRow } from './mailbox.repo'
export { providerOf, businessMailProvider, type MailboxInfo, type Provider } from './providers'
export { mailStateOf, type MailState } from './limits'
export { setMailbox, clearMailbox, openingMailer, type MailboxInput } from './mailbox.service'
export { setSmtpMailbox, smtpMailboxShown, SMTP_SECURITY, type SmtpParts, type SmtpShown } from './mailbox-parts'
