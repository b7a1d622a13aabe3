// The email of a Send: From, recipients, subject and text (defaults in the document's language), the PDF and XML attached.
import type { MailAttachment, MailMessage } from '../../adapters/smtp'
import type { DocumentView } from '../documents'
import { words, type Words } from '../words'
import type { XmlFile } from '../einvoice'
import type { Provider } from '../mailbox'

export interface ComposeInput {
  business: { name: string }
  provider: Provider
  doc: DocumentView
  to: string[]
  cc: string[]
  bcc: string[]
  subject?: string | null
  text?: string | null
  pdf: Uint8Array
  xml: XmlFile | null
  /** The document's page as the Client opens it (its absolute public_url), or null on a Draft. */
  pageUrl: string | null
}

/** A file name safe in any mail client: the document number with anything unusual replaced. */
export function fileBase(doc: Pick<DocumentView, 'document_number' | 'id'>): string {
  return (doc.document_number ?? `draft-${doc.id}`).replace(/[^A-Za-z0-9._-]/g, '_')
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\t]+/g, ' ').trim()
}

/** The document's type as its title in the language ("Rechnung"). */
export function titleOf(w: Words, type: string): string {
  return w.titles[type as keyof Words['titles']] ?? type
}

/** The closing lines of every email to a Client: the greeting and the Business's name. */
export function signature(w: Words, businessName: string): string[] {
  return ['', w.kindRegards, businessName, '']
}

function defaultSubject(doc: DocumentView, businessName: string): string {
  const w = words(doc.language)
  return w.sendSubject(titleOf(w, doc.type), doc.document_number ?? '', businessName).replace(/\s+/g, ' ')
}

function defaultText(doc: DocumentView, businessName: string, pageUrl: string | null = null): string {
  const w = words(doc.language)
  const due = (doc.type === 'invoice' || doc.type === 'proforma') && doc.due_date ? w.date(doc.due_date) : null
  return [
    w.hello,
    '',
    w
      .sendText(
        titleOf(w, doc.type),
        doc.document_number ?? '',
        doc.issue_date ? w.date(doc.issue_date) : '',
        w.money(doc.total, doc.currency),
        due,
      )
      .replace(/ +/g, ' '),
    ...(pageUrl ? ['', w.viewOnline(pageUrl)] : []),
    ...signature(w, businessName),
  ].join('\n')
}

export function composeMessage(i: ComposeInput): MailMessage {
  // The From is the Business's own address (service) or its mailbox's: replies reach the Business either way.
  const name = i.business.name
  const attachments: MailAttachment[] = [
    { filename: `${fileBase(i.doc)}.pdf`, content: i.pdf, contentType: 'application/pdf' },
  ]
  if (i.xml) attachments.push({ filename: i.xml.filename, content: i.xml.xml, contentType: 'application/xml' })
  const subject = i.subject?.trim() ? oneLine(i.subject) : defaultSubject(i.doc, name)
  return {
    from: { name, address: i.provider.from },
    to: i.to,
    cc: i.cc,
    bcc: i.bcc,
    subject,
    // A message of the Business's own words is sent as written; the page link goes into the default text.
    text: i.text?.trim() ? i.text : defaultText(i.doc, name, i.pageUrl),
    attachments,
  }
}
