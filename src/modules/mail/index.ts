// The mail module: the Send (send.service.ts) and the application's emails (app-mail.service.ts), reached through
// their routes and pages. A Business's mailbox, which provider sends and the daily allowance are the mailbox module's;
// they are re-exported here so that callers still naming them through mail keep working (new code: '../mailbox').
export * from '../mailbox'
