// The mailbox module's public face: a Business's own mailbox (settings checked and sealed, mailbox.service.ts and
// mailbox-parts.ts for the settings page's fields), which provider sends for it (providers.ts), and its daily allowance
// on the service's own mail server (limits.ts, daily-count.repo.ts). Documents judge a Send with it; the Send (the mail
// module) sends with it. It imports only the webhooks module's address rules, which a tenant's mail server obeys too.
export type { MailboxRow } from './mailbox.repo'
export {
  providerOf,
  businessMailProvider,
  outboxTransport,
  outboxBusinessOf,
  type MailAudience,
  type MailboxInfo,
  type Provider,
} from './providers'
export { mailStateOf, dailyRecipientLimit, MAX_RECIPIENTS_PER_SEND, type MailState } from './limits'
export { countRecipients, recipientsSent } from './daily-count.repo'
export {
  setMailbox,
  clearMailbox,
  openingMailer,
  mailHostFault,
  type MailboxInput,
  type MailHostRules,
  type MailRoutes,
} from './mailbox.service'
export { setSmtpMailbox, smtpMailboxShown, SMTP_SECURITY, type SmtpParts, type SmtpShown } from './mailbox-parts'
