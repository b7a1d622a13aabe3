// The mail module: the Send (send.service.ts) and the application's emails (app-mail.service.ts). A Business's mailbox,
// which provider sends and the daily allowance are the mailbox module's: import those from '../mailbox'.
export { sendDocument, type MailDeps } from './send.service'
export {
  remindDocument,
  emailReceipt,
  remindOnSchedule,
  UnrecordedEmail,
  type ScheduledReminder,
} from './app-mail.service'
