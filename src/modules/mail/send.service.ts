// Send a document by email (POST /v1/documents/{id}/send): judge the Send, issue a Draft, send, record it.
import type { Actor } from '../../platform/actor'
import { MailerError, type Mailer } from '../../adapters/smtp'
import { FieldErrorBag, NotDelivered, NotFound, Refusal } from '../../shared/errors'
import type { Logger } from '../../shared/logger'
import { utcDay } from '../../shared/dates'
import type { Queryable } from '../../db/client'
import { getBusiness, type BusinessRow } from '../business'
import { findClient } from '../clients'
import {
  findDocument,
  gatherFacts,
  issueInTx,
  recordSentInTx,
  refusalFor,
  sendFactsOf,
  throwRefusal,
  viewDocument,
  type DocumentDeps,
  type DocumentView,
} from '../documents'
import { documentPdf } from '../pdf'
import { facturxAttachmentFor, xmlAttachmentFor, type XmlFile } from '../einvoice'
import { isXmlFormat } from '../../shared/einvoice-formats'
import { countRecipients, mailStateOf, MAX_RECIPIENTS_PER_SEND, type Provider } from '../mailbox'
import type { SendInput } from './mail.model'
import { composeMessage } from './message'

export interface MailDeps extends DocumentDeps {
  mailer: Mailer
  logger: Logger
  config: DocumentDeps['config'] & { publicUrl: string | null }
}

/** What the judging transaction settled: who sends, to whom, what it issued and counted. */
interface Plan {
  provider: Extract<Provider, { connected: true }>
  to: string[]
  /** The number the Draft took, when this Send issued it. */
  issuedNumber: string | null
  /** Recipients counted against the service's daily limit (0 through a mailbox). */
  counted: number
  day: string
}

function checkTotal(to: string[] | null, cc: string[], bcc: string[]): void {
  const total = (to?.length ?? 1) + cc.length + bcc.length
  if (total <= MAX_RECIPIENTS_PER_SEND) return
  const bag = new FieldErrorBag()
  bag.add(
    bcc.length ? 'bcc' : cc.length ? 'cc' : 'to',
    `To, Cc and Bcc together take at most ${MAX_RECIPIENTS_PER_SEND} addresses; this Send has ${total}`,
  )
  bag.throwIfAny()
}

/**
 * A send that threw: recipients that surely got nothing are given back to the day's count (a maybe-sent email keeps
 * them), anything but the mail server's failure is thrown on, and that failure is logged (`log`, with `about`) and
 * answered.
 */
export async function mailFailure(
  deps: MailDeps,
  businessId: number,
  plan: { provider: { kind: string }; counted: number; day: string },
  e: unknown,
  log: string,
  about: Record<string, unknown> = {},
): Promise<MailerError> {
  const surelyUnsent = !(e instanceof MailerError) || !e.maybeSent
  if (plan.counted > 0 && surelyUnsent)
    await deps.db.write((tx) => countRecipients(tx, businessId, plan.day, -plan.counted))
  if (!(e instanceof MailerError)) throw e
  deps.logger.info(log, {
    business_id: businessId,
    ...about,
    via: plan.provider.kind,
    reason: e.reason,
    smtp_code: e.smtpCode,
  })
  return e
}

/** The 502 message: what happened, and whether the email may have gone out. */
function notDeliveredMessage(e: MailerError, issuedNumber: string | null): string {
  const tail =
    e.reason === 'interrupted'
      ? 'The email may have gone out: check with the recipients before sending again.'
      : e.maybeSent
        ? 'Send again to those refused only, once corrected.'
        : e.reason === 'unreachable'
          ? 'Nothing was sent; it may succeed later.'
          : 'Nothing was sent; correct the recipients or the mailbox and send again.'
  const issued = issuedNumber ? ` The Draft took the number ${issuedNumber} and stays issued.` : ''
  return `Not delivered: ${e.message}. ${tail}${issued}`
}

export async function sendDocument(
  deps: MailDeps,
  c: Actor,
  id: number,
  input: SendInput | undefined,
): Promise<DocumentView> {
  const business = await getBusiness(deps.db.read, c.businessId)
  const before = await findDocument(deps.db.read, c.businessId, id)
  if (!before) throw new NotFound('No such document.')
  const to = input?.to ?? null
  const cc = input?.cc ?? []
  const bcc = input?.bcc ?? []
  checkTotal(to, cc, bcc)

  // One transaction judges the Send as the document stands, issues a Draft (its number taken) and counts the
  // recipients against the daily limit; it commits before the email leaves, as no network I/O runs inside it.
  const plan: Plan = await deps.db.write(async (tx) => {
    const doc = await findDocument(tx, business.id, id)
    if (!doc) throw Refusal.say('draft_deleted')
    const day = utcDay(deps.clock.now())
    const mail = await mailStateOf(tx, business, deps.config.mailRelay, day, 'client')
    const clientEmail = (await findClient(tx, business.id, doc.clientId))?.email ?? null
    const recipients = (to ?? (clientEmail ? [clientEmail] : [])).length + cc.length + bcc.length
    const facts = await gatherFacts(tx, business, doc, {
      today: day,
      mailVia: mail.via,
      send: { ...sendFactsOf(mail), recipients, toGiven: to !== null },
    })
    const refusal = refusalFor('send', facts)
    if (refusal) throwRefusal(refusal)
    const issued = doc.status === 'draft' ? await issueInTx(deps, tx, business, id) : null
    const counted = mail.dailyLimit !== null ? recipients : 0
    if (counted > 0) await countRecipients(tx, business.id, day, counted)
    // The judge opened the Send, so there is a connected provider and an address to send to.
    const provider = mail.provider
    if (!provider?.connected) throw new Error('a Send was opened without a connected mail provider')
    return { provider, to: to ?? [clientEmail!], issuedNumber: issued?.documentNumber ?? null, counted, day }
  })

  try {
    const view = await viewDocument(deps, deps.db.read, c, id)
    const message = composeMessage({
      business,
      provider: plan.provider,
      doc: view,
      to: plan.to,
      cc,
      bcc,
      subject: input?.subject,
      text: input?.message,
      // The e-invoice the Business chose goes along where the document exports in it (not a Draft, Proforma, Quote
      // or Test business's, nor one its rules refuse): Factur-X in place of the PDF, any other format beside it.
      ...(await attachmentsOf(deps.db.read, business, view)),
      pageUrl: view.public_url,
    })
    await deps.mailer.send(plan.provider.transportUrl, message)
  } catch (e) {
    const failure = await mailFailure(deps, business.id, plan, e, 'send not delivered', { document_id: id })
    throw new NotDelivered(
      notDeliveredMessage(failure, plan.issuedNumber),
      plan.issuedNumber ? { document_number: plan.issuedNumber } : {},
    )
  }

  const recipients = [...plan.to, ...cc, ...bcc]
  await deps.db.write((tx) =>
    recordSentInTx(deps, tx, business.id, id, {
      at: deps.clock.now().toISOString(),
      recipients,
      via: plan.provider.kind,
    }),
  )
  return viewDocument(deps, deps.db.read, c, id)
}

/** The PDF and XML a Send attaches, by the Business's einvoice_format. */
async function attachmentsOf(
  q: Queryable,
  business: BusinessRow,
  view: DocumentView,
): Promise<{ pdf: Uint8Array; xml: XmlFile | null }> {
  const format = business.einvoiceFormat
  if (format === 'facturx')
    return { pdf: (await facturxAttachmentFor(q, business, view)) ?? (await documentPdf(q, business, view)), xml: null }
  return {
    pdf: await documentPdf(q, business, view),
    xml: await xmlAttachmentFor(q, business, view, isXmlFormat(format) ? format : 'ubl'),
  }
}
