// The mail module's public face for documents (how a Business would send), the Business answer and the CLI.
// The Send use case itself (mail.service.ts) is reached through its routes, so this face imports no other module.
export { findMailbox, type MailboxRow } from './mail.repo'
export { providerOf, mailProviderView, businessMailProvider, type MailboxInfo, type Provider } from './providers'
export { dailyRecipientLimit, mailStateOf, MAX_RECIPIENTS_PER_SEND, type MailState } from './limits'
export { setMailbox, clearMailbox, type MailboxInput } from './mailbox.service'
export { setSmtpMailbox, smtpMailboxShown, SMTP_SECURITY, type SmtpParts, type SmtpShown } from './mailbox-parts'
