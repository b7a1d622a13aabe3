// A Test business's outbox (issue 32): the mailer that keeps, in place of sending, every email addressed to an outbox
// (src/modules/mailbox names it for a Test business's emails to its Clients), and the reads the application shows.
// What is kept is the MIME message the SMTP path builds (src/adapters/smtp.ts composeMime), and what is shown is read
// back from those bytes, so the page shows what would have gone out.
import { composeMime, messageIdOf, type Mailer, type MailMessage } from '../../adapters/smtp'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { NotFound } from '../../shared/errors'
import { getBusiness } from '../business'
import { outboxBusinessOf } from '../mailbox'
import { findKept, insertKept, listKept, type KeptHead } from './outbox.repo'

/**
 * The newest messages kept per Business; older ones are dropped as new ones come. A Send with its PDF is some 30 to
 * 100 KB, so an outbox holds a few MB at most.
 */
export const OUTBOX_KEEP = 100

// mailparser is loaded when a message is first opened: a server that never shows one does not pay for it.
const parser = () => import('mailparser').then((m) => m.simpleParser)

/** The mailer of the service: an outbox's email is composed and kept; any other goes on to `inner`. */
export function keepingOutbox(inner: Mailer, db: Database, clock: Clock): Mailer {
  return {
    async send(transportUrl, message, tenant) {
      const businessId = outboxBusinessOf(transportUrl)
      if (businessId === null) return inner.send(transportUrl, message, tenant)
      const at = clock.now()
      const raw = await composeMime(message, at)
      await db.write((tx) =>
        insertKept(
          tx,
          {
            businessId,
            keptAt: at.toISOString(),
            fromName: message.from.name,
            fromAddress: message.from.address,
            toAddresses: JSON.stringify(message.to),
            ccAddresses: JSON.stringify(message.cc),
            bccAddresses: JSON.stringify(message.bcc),
            subject: message.subject,
            attachments: JSON.stringify(attachmentsOf(message)),
            size: raw.length,
            raw,
          },
          OUTBOX_KEEP,
        ),
      )
      return { messageId: messageIdOf(raw), accepted: [...message.to, ...message.cc, ...message.bcc] }
    },
  }
}

function attachmentsOf(m: MailMessage): AttachmentInfo[] {
  return m.attachments.map((a) => ({
    filename: a.filename,
    content_type: a.contentType,
    size: typeof a.content === 'string' ? Buffer.byteLength(a.content) : a.content.byteLength,
  }))
}

export interface AttachmentInfo {
  filename: string
  content_type: string
  size: number
}

/** A kept message as the list shows it. */
export interface KeptSummary {
  id: number
  kept_at: string
  from: { name: string; address: string }
  to: string[]
  cc: string[]
  /** The envelope's blind copies: never in the message's headers. */
  bcc: string[]
  subject: string
  attachments: AttachmentInfo[]
  size: number
}

export function presentKept(r: KeptHead): KeptSummary {
  return {
    id: r.id,
    kept_at: r.keptAt,
    from: { name: r.fromName, address: r.fromAddress },
    to: JSON.parse(r.toAddresses) as string[],
    cc: JSON.parse(r.ccAddresses) as string[],
    bcc: JSON.parse(r.bccAddresses) as string[],
    subject: r.subject,
    attachments: JSON.parse(r.attachments) as AttachmentInfo[],
    size: r.size,
  }
}

/** A kept message as its page shows it: read back from the MIME bytes, headers, bodies and attachments. */
export interface KeptMessage extends KeptSummary {
  headers: {
    from: string
    to: string
    cc: string | null
    subject: string
    date: string | null
    message_id: string | null
  }
  text: string | null
  html: string | null
}

/** Only a Test business has an outbox: another one's reads are 404, as for a page it does not have. */
async function ensureTest(db: Database, businessId: number): Promise<void> {
  const b = await getBusiness(db.read, businessId)
  if (!b.isTest) throw new NotFound('Only a Test business has an outbox.')
}

/** A message id that names none of the Business's kept messages (another Business's, or one dropped). */
export const NO_MESSAGE = 'No such message in the outbox (the oldest are dropped as new ones come).'

/** A page of the outbox, newest first, from `beforeId` (0: the newest). */
export async function listOutbox(
  db: Database,
  businessId: number,
  beforeId: number,
  limit: number,
): Promise<KeptHead[]> {
  await ensureTest(db, businessId)
  return listKept(db.read, businessId, beforeId, limit)
}

/** One kept message of the Business, or 404. */
async function keptRow(db: Database, businessId: number, id: number) {
  await ensureTest(db, businessId)
  const row = await findKept(db.read, businessId, id)
  if (!row) throw new NotFound(NO_MESSAGE)
  return row
}

async function parsed(db: Database, businessId: number, id: number) {
  const row = await keptRow(db, businessId, id)
  return { row, mail: await (await parser())(row.raw, { skipImageLinks: true, skipTextToHtml: true }) }
}

function addressesText(a: { text: string } | Array<{ text: string }> | undefined): string | null {
  if (!a) return null
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ')
}

export async function readOutboxMessage(db: Database, businessId: number, id: number): Promise<KeptMessage> {
  const { row, mail } = await parsed(db, businessId, id)
  return {
    ...presentKept(row),
    headers: {
      from: addressesText(mail.from) ?? '',
      to: addressesText(mail.to) ?? '',
      cc: addressesText(mail.cc),
      subject: mail.subject ?? '',
      date: mail.date ? mail.date.toISOString() : null,
      message_id: mail.messageId ?? null,
    },
    text: mail.text ?? null,
    html: mail.html || null,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? 'attachment',
      content_type: a.contentType,
      size: a.size,
    })),
  }
}

/** Types a browser may open from our origin as they are; anything else downloads as bytes. */
const SAFE_TYPES = new Set(['application/pdf', 'application/xml', 'text/xml', 'text/csv'])

/** A file name safe in a Content-Disposition header. */
function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'attachment'
}

/** The `index`th attachment (from 0) of a kept message, its bytes as the message carries them. */
export async function outboxAttachment(
  db: Database,
  businessId: number,
  id: number,
  index: number,
): Promise<{ bytes: Uint8Array; mimeType: string; filename: string }> {
  const { mail } = await parsed(db, businessId, id)
  const a = mail.attachments[index]
  if (!a) throw new NotFound('No such attachment.')
  return {
    bytes: new Uint8Array(a.content),
    mimeType: SAFE_TYPES.has(a.contentType) ? a.contentType : 'application/octet-stream',
    filename: safeName(a.filename ?? `attachment-${index + 1}`),
  }
}

/** The whole message as it would have gone out (an .eml file any mail program opens). */
export async function outboxRaw(
  db: Database,
  businessId: number,
  id: number,
): Promise<{ bytes: Uint8Array; mimeType: string; filename: string }> {
  const row = await keptRow(db, businessId, id)
  return { bytes: new Uint8Array(row.raw), mimeType: 'message/rfc822', filename: `outbox-${row.id}.eml` }
}
