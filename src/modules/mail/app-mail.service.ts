// The application-only emails to a Client: remind of a document that is due (and remind again), and email a Receipt,
// each in the document's language (extensions §18).
// Each judges in one transaction (refusals write nothing), counts its one recipient against the service's daily
// limit like a Send, sends outside the transaction, and gives the count back when the email surely did not go out.
import type { MailMessage } from '../../adapters/smtp'
import type { Tx } from '../../db/client'
import { NotDelivered, NotFound } from '../../shared/errors'
import { utcDay } from '../../shared/dates'
import { getBusiness, type BusinessRow } from '../business'
import { findClient } from '../clients'
import {
  findDocument,
  gatherAppFacts,
  receiptEmailRefusal,
  recordRemindedInTx,
  remindRefusal,
  throwRefusal,
  viewDocuments,
  type Acting,
  type DocumentView,
  type RefusalInfo,
} from '../documents'
import { paymentWithReceipt, receiptPdfOf } from '../payments'
import { documentPdf } from '../pdf'
import { countRecipients, mailStateOf, type Provider } from '../mailbox'
import { mailFailure, type MailDeps } from './send.service'
import { fileBase, signature, titleOf } from './message'
import { words } from '../words'

type Connected = Extract<Provider, { connected: true }>

/** Who an email goes to: the Client's address unless the person named others (a reminder by hand, extensions §14). */
export interface Recipients {
  to: string[]
  cc: string[]
  bcc: string[]
}

interface Planned<T> {
  provider: Connected
  to: Recipients
  counted: number
  day: string
  it: T
}

/**
 * One email to the Client: `judge` reads what it needs inside the transaction and answers the refusal or what to
 * send; the recipient is counted there too. `after` records the email once it went out.
 */
async function emailClient<T>(
  deps: MailDeps,
  business: BusinessRow,
  judge: (
    tx: Tx,
    mail: { via: string | null; mailboxLost: boolean; sentToday: number; dailyLimit: number | null; resumesOn: string },
  ) => Promise<{ refusal: RefusalInfo | null; to: Recipients | null; it: T }>,
  compose: (provider: Connected, to: Recipients, it: T) => Promise<MailMessage>,
  after: ((tx: Tx, it: T) => Promise<void>) | null,
): Promise<T> {
  const plan: Planned<T> = await deps.db.write(async (tx) => {
    const day = utcDay(deps.clock.now())
    const mail = await mailStateOf(tx, business, deps.config.mailRelay, day, 'client')
    const judged = await judge(tx, mail)
    if (judged.refusal) throwRefusal(judged.refusal)
    const provider = mail.provider
    // The judge opened the email, so there is a connected provider and a Client address.
    if (!provider?.connected || !judged.to)
      throw new Error('an application email was opened without a provider or an address')
    const counted = mail.dailyLimit !== null ? judged.to.to.length + judged.to.cc.length + judged.to.bcc.length : 0
    if (counted > 0) await countRecipients(tx, business.id, day, counted)
    return { provider, to: judged.to, counted, day, it: judged.it }
  })
  try {
    await deps.mailer.send(plan.provider.transportUrl, await compose(plan.provider, plan.to, plan.it))
  } catch (e) {
    const failure = await mailFailure(deps, business.id, plan, e, 'application email not delivered')
    const tail =
      failure.reason === 'interrupted'
        ? 'It may have gone out: check with the Client before sending again.'
        : 'Nothing was sent; it may succeed later.'
    // The mail server's own failure stays on the error (not in the answer): a reminder step reads whether to retry.
    throw Object.assign(new NotDelivered(`Not delivered: ${failure.message}. ${tail}`), { cause: failure })
  }
  if (after)
    await deps.db
      .write((tx) => after(tx, plan.it))
      .catch((e) => {
        throw new UnrecordedEmail(e)
      })
  return plan.it
}

/**
 * The email went out but its record could not be written (the database busy past its wait): a caller that retries
 * must count this as a hand-over made, as after a crash between the email and its record (extensions §14).
 */
export class UnrecordedEmail extends Error {
  constructor(override readonly cause: unknown) {
    super('the email went out but its record could not be written')
    this.name = 'UnrecordedEmail'
  }
}

/** A reminder's default subject in the document's language (the scheduled reminders of §14 say the same). */
export function reminderSubject(doc: DocumentView, businessName: string): string {
  const w = words(doc.language)
  return w.reminderSubject(titleOf(w, doc.type), doc.document_number ?? '', businessName)
}

/** A reminder's default text in the document's language. */
export function reminderText(doc: DocumentView, businessName: string, pageUrl: string | null): string {
  const w = words(doc.language)
  return [
    w.hello,
    '',
    w.reminderText(
      titleOf(w, doc.type),
      doc.document_number ?? '',
      doc.issue_date ? w.date(doc.issue_date) : '',
      w.money(doc.total, doc.currency),
      doc.due_date ? w.date(doc.due_date) : null,
      doc.is_overdue,
      w.money(doc.amount_due, doc.currency),
    ),
    w.reminderAttached,
    ...(pageUrl ? ['', w.viewOnline(pageUrl)] : []),
    ...signature(w, businessName),
  ].join('\n')
}

/** What a reminder by hand may set (extensions §14): recipients, subject and text; each defaults as the application's. */
export interface RemindOptions {
  to?: string[] | null
  cc?: string[] | null
  bcc?: string[] | null
  subject?: string | null
  message?: string | null
}

/**
 * Reminds the Client that an issued, unpaid document is due: the document's PDF with a reminder text, to the Client's
 * email (or the `to`, `cc`, `bcc` named). `again` is "remind again", refused `never_reminded` before a first
 * reminder. The document then shows when it was last reminded and to whom, and counts its reminders.
 */
export async function remindDocument(
  deps: MailDeps,
  who: Acting,
  id: number,
  again: boolean,
  opts: RemindOptions = {},
): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, who.businessId)
  if (!(await findDocument(deps.db.read, who.businessId, id))) throw new NotFound('No such document.')
  await emailClient(
    deps,
    business,
    async (tx, mail) => {
      const doc = await findDocument(tx, who.businessId, id)
      if (!doc) throw new NotFound('No such document.')
      const facts = await gatherAppFacts(tx, business, doc, deps.config.mailRelay, utcDay(deps.clock.now()))
      // The mail state read in this transaction is the one counted against.
      facts.mailVia = mail.via
      facts.send = mail
      const to = opts.to?.length ? opts.to : facts.clientEmail ? [facts.clientEmail] : []
      if (opts.to?.length) facts.clientEmail = opts.to[0]!
      const recipients = { to, cc: opts.cc ?? [], bcc: opts.bcc ?? [] }
      facts.recipients = to.length + recipients.cc.length + recipients.bcc.length
      return { refusal: remindRefusal(facts, again), to: to.length ? recipients : null, it: recipients }
    },
    async (provider, to) => {
      const [view] = await viewDocuments(deps, deps.db.read, business, who.role, [
        (await findDocument(deps.db.read, who.businessId, id))!,
      ])
      const pageUrl = view!.public_url
      return {
        from: { name: business.name, address: provider.from },
        to: to.to,
        cc: to.cc,
        bcc: to.bcc,
        subject: opts.subject ?? reminderSubject(view!, business.name),
        text: opts.message ?? reminderText(view!, business.name, pageUrl),
        attachments: [
          {
            filename: `${fileBase(view!)}.pdf`,
            content: await documentPdf(deps.db.read, business, view!),
            contentType: 'application/pdf',
          },
        ],
      }
    },
    (tx, sent) => recordRemindedInTx(deps, tx, who.businessId, id, [...sent.to, ...sent.cc]),
  )
  const doc = (await findDocument(deps.db.read, who.businessId, id))!
  return (await viewDocuments(deps, deps.db.read, business, who.role, [doc]))[0]!
}

/** A step of a Business's reminder schedule (extensions §14): its days and its words, placeholders filled. */
export interface ScheduledReminder {
  stepDays: number
  /** The subject and text for the document as it stands (its view, and its public page's full address or null). */
  /** null: the reminder's default words in the document's language, as a reminder by hand says them. */
  words: (
    doc: DocumentView,
    pageUrl: string | null,
    businessName: string,
  ) => { subject: string | null; text: string | null }
  /** Writes, in the transaction that records the reminder, that the step went out. */
  recordStep: (tx: Tx) => Promise<void>
}

/**
 * Sends one step of the reminder schedule to the Client's email, judged and counted as a reminder by hand (the same
 * refusals: no address, no way to send, a lost mailbox, the daily limit), the PDF attached; then records it on the
 * document with the step's days, raising document.reminded, and the step as sent, in one transaction.
 */
export async function remindOnSchedule(
  deps: MailDeps,
  businessId: number,
  id: number,
  step: ScheduledReminder,
): Promise<string[]> {
  const business = await getBusiness(deps.db.read, businessId)
  const sent = await emailClient(
    deps,
    business,
    async (tx, mail) => {
      const doc = await findDocument(tx, businessId, id)
      if (!doc) throw new NotFound('No such document.')
      const facts = await gatherAppFacts(tx, business, doc, deps.config.mailRelay, utcDay(deps.clock.now()))
      facts.mailVia = mail.via
      facts.send = mail
      const to = facts.clientEmail ? [facts.clientEmail] : []
      return { refusal: remindRefusal(facts, false), to: to.length ? { to, cc: [], bcc: [] } : null, it: to }
    },
    async (provider, to) => {
      const [view] = await viewDocuments(deps, deps.db.read, business, 'admin', [
        (await findDocument(deps.db.read, businessId, id))!,
      ])
      const pageUrl = view!.public_url
      const words = step.words(view!, pageUrl, business.name)
      return {
        from: { name: business.name, address: provider.from },
        to: to.to,
        cc: [],
        bcc: [],
        subject: (words.subject ?? reminderSubject(view!, business.name)).replace(/[\r\n\t]+/g, ' ').trim(),
        text: words.text ?? reminderText(view!, business.name, pageUrl),
        attachments: [
          {
            filename: `${fileBase(view!)}.pdf`,
            content: await documentPdf(deps.db.read, business, view!),
            contentType: 'application/pdf',
          },
        ],
      }
    },
    async (tx, to) => {
      await recordRemindedInTx(deps, tx, businessId, id, to, step.stepDays)
      await step.recordStep(tx)
    },
  )
  return sent
}

/**
 * Emails the Receipt of a Payment (its PDF) to the Client of the Payment's document. Refused `no_receipt` for a
 * Payment without one, `receipt_voided` once reversed, `no_mail_provider_for_receipt` with no way to send. Writes
 * nothing but the day's recipient count.
 */
export async function emailReceipt(
  deps: MailDeps,
  who: Acting,
  paymentId: number,
): Promise<{ receipt_number: string; to: string }> {
  const business = await getBusiness(deps.db.read, who.businessId)
  await paymentWithReceipt(deps.db.read, who.businessId, paymentId)
  return emailClient(
    deps,
    business,
    async (tx, mail) => {
      const { payment, receipt } = await paymentWithReceipt(tx, who.businessId, paymentId)
      const doc = (await findDocument(tx, who.businessId, payment.documentId))!
      const clientEmail = (await findClient(tx, who.businessId, doc.clientId))?.email ?? null
      const refusal = receiptEmailRefusal(receipt ?? null, { clientEmail, mailVia: mail.via, send: mail })
      return {
        refusal,
        to: clientEmail ? { to: [clientEmail], cc: [], bcc: [] } : null,
        it: {
          receipt_number: receipt?.receiptNumber ?? '',
          to: clientEmail ?? '',
          receiptId: receipt?.id ?? 0,
          doc,
          amount: payment.amount,
          currency: payment.currency,
          date: payment.paymentDate,
        },
      }
    },
    async (provider, to, it) => {
      const pdf = await receiptPdfOf(deps.db, who, it.receiptId)
      // The paid document's language, as its Receipt PDF is written in.
      const w = words(it.doc.language ?? business.language)
      return {
        from: { name: business.name, address: provider.from },
        to: to.to,
        cc: [],
        bcc: [],
        subject: w.receiptSubject(it.receipt_number, business.name),
        text: [
          w.hello,
          '',
          w
            .receiptThanks(
              w.money(it.amount, it.currency),
              w.date(it.date),
              titleOf(w, it.doc.type),
              it.doc.documentNumber ?? '',
            )
            .replace(/ +\./, '.'),
          w.receiptAttached,
          ...signature(w, business.name),
        ].join('\n'),
        attachments: [{ filename: `${pdf.name}.pdf`, content: pdf.bytes, contentType: 'application/pdf' }],
      }
    },
    null,
  ).then((it) => ({ receipt_number: it.receipt_number, to: it.to }))
}
