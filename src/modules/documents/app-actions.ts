// The one judge of the application-only actions (mark sent, take the mark back, remind, remind again, duplicate,
// email a Receipt): the refusal each would answer, used both to refuse a request and to show its button closed with
// the reason, so the page and the action never disagree.
import { refusalInfo as r } from '../../shared/errors'
import { Dec } from '../../shared/money'
import type { Role } from '../business'
import type { DocumentRow } from './documents.repo'
import { amountDue } from './paid'
import { judgeActions, REMEDY_URLS, type ActionEntry, type RefusalInfo, type SendFacts } from './lifecycle'

export const APP_ACTIONS = ['mark_sent', 'unmark_sent', 'remind', 'remind_again', 'duplicate'] as const
export type AppActionName = (typeof APP_ACTIONS)[number]

export interface LastSent {
  at: string
  recipients: string[]
  via: string
}

/** What the application-only actions are judged by, gathered beforehand (inside the transaction when a change follows). */
export interface AppFacts {
  doc: Pick<DocumentRow, 'type' | 'status' | 'convertedIntoId' | 'total' | 'amountPaid' | 'lastSent' | 'lastRemindedAt'>
  /** Whether the document's Client still exists (a duplicate needs it). */
  clientExists: boolean
  clientEmail: string | null
  /** How the Business would send mail now (null: no way). */
  mailVia: string | null
  /** The daily-limit facts of a reminder to the Client (one recipient). */
  send: Pick<SendFacts, 'mailboxLost' | 'sentToday' | 'dailyLimit' | 'resumesOn'>
  /** How many recipients the email counts against the daily limit (1, the Client, unless a reminder names others). */
  recipients?: number
}

export function lastSentOf(doc: Pick<DocumentRow, 'lastSent'>): LastSent | null {
  return doc.lastSent ? (JSON.parse(doc.lastSent) as LastSent) : null
}

export function markSentRefusal(doc: Pick<DocumentRow, 'status'>): RefusalInfo | null {
  if (doc.status === 'draft') return r('draft_not_delivered')
  if (doc.status === 'cancelled') return r('cancelled_not_marked')
  return null
}

/** Only a mark made by hand is taken back, and a cancelled document keeps it. */
export function unmarkSentRefusal(doc: Pick<DocumentRow, 'status' | 'lastSent'>): RefusalInfo | null {
  if (lastSentOf(doc)?.via !== 'marked') return r('not_marked_sent')
  if (doc.status === 'cancelled') return r('cancelled_keeps_mark')
  return null
}

/**
 * Which mail refusal an email from the application to the Client would meet (one recipient, the Client): the
 * action's own "no mail provider" code, then the Send's codes for a lost mailbox and the daily limit.
 */
function mailRefusal(
  f: Pick<AppFacts, 'clientEmail' | 'mailVia' | 'send' | 'recipients'>,
  noProvider: 'no_mail_provider_to_remind' | 'no_mail_provider_for_receipt',
): RefusalInfo | null {
  if (!f.clientEmail) return r('no_client_address')
  return sendingRefusal(f, noProvider)
}

/** What the Business's way of sending answers now, whoever the Client: no provider, a lost mailbox, the daily limit. */
function sendingRefusal(
  f: Pick<AppFacts, 'mailVia' | 'send' | 'recipients'>,
  noProvider: 'no_mail_provider_to_remind' | 'no_mail_provider_for_receipt',
): RefusalInfo | null {
  const mailRemedy = { remedy: 'connect_mail_provider', remedy_url: REMEDY_URLS.connect_mail_provider }
  if (!f.mailVia) return { ...r(noProvider), ...mailRemedy }
  if (f.send.mailboxLost) return { ...r('mail_account_lost', { via: f.mailVia }), ...mailRemedy }
  const s = f.send
  const recipients = f.recipients ?? 1
  if (s.dailyLimit !== null && s.sentToday + recipients > s.dailyLimit) {
    return {
      ...r('sending_limit_reached', {
        limit: s.dailyLimit,
        sentToday: s.sentToday,
        recipients,
        resumesOn: s.resumesOn,
      }),
      ...mailRemedy,
    }
  }
  return null
}

/** Remind: an issued Invoice or never-converted Proforma with something due; "again" only after a first reminder. */
export function remindRefusal(f: AppFacts, again: boolean): RefusalInfo | null {
  const d = f.doc
  if (d.type === 'quote' || d.type === 'credit_note') return r('not_remindable', { why: d.type })
  if (d.status === 'draft') return r('not_remindable', { why: 'draft' })
  if (d.status === 'cancelled') return r('not_remindable', { why: 'cancelled' })
  if (d.type === 'proforma' && d.convertedIntoId !== null) return r('converted_proforma')
  if (d.status === 'paid' || amountDue(d).lte(new Dec('0'))) return r('not_remindable', { why: 'paid' })
  if (again && !d.lastRemindedAt) return r('never_reminded')
  return mailRefusal(f, 'no_mail_provider_to_remind')
}

export function duplicateRefusal(f: Pick<AppFacts, 'clientExists'>): RefusalInfo | null {
  return f.clientExists ? null : r('client_deleted')
}

export function appRefusalFor(action: AppActionName, f: AppFacts): RefusalInfo | null {
  switch (action) {
    case 'mark_sent':
      return markSentRefusal(f.doc)
    case 'unmark_sent':
      return unmarkSentRefusal(f.doc)
    case 'remind':
      return remindRefusal(f, false)
    case 'remind_again':
      return remindRefusal(f, true)
    case 'duplicate':
      return duplicateRefusal(f)
  }
}

/** The application-only actions' entries, shaped as the document's `actions` and judged by the same judge. */
export function appActionsOf(f: AppFacts, role: Role): Record<AppActionName, ActionEntry> {
  return judgeActions(APP_ACTIONS, role, (a) => appRefusalFor(a, f))
}

/** Why no Receipt of the Business can be emailed now, whatever its Client (a list of Receipts closes its buttons). */
export function receiptSendingRefusal(f: Pick<AppFacts, 'mailVia' | 'send'>): RefusalInfo | null {
  return sendingRefusal(f, 'no_mail_provider_for_receipt')
}

/** What emailing a Receipt would answer: the Payment's Receipt first, then the mail. */
export function receiptEmailRefusal(
  receipt: { voidedAt: string | null } | null | undefined,
  f: Pick<AppFacts, 'clientEmail' | 'mailVia' | 'send'>,
): RefusalInfo | null {
  if (!receipt) return r('no_receipt')
  if (receipt.voidedAt) return r('receipt_voided')
  return mailRefusal(f, 'no_mail_provider_for_receipt')
}
