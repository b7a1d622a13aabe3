// The emails a Client reads, in the document's language (extensions §18), as a real SMTP server receives them (the
// test server parses each with mailparser): a Send's subject and text, a reminder's, a Receipt's, and the PDFs they
// carry, in each of the eight languages; a subject or message the Business wrote itself is sent as written.
import { describe, expect, test } from 'bun:test'
import type { Harness } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import { pdfText, spaced } from '../../../test/pdf-text'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'
import { LANGUAGES, words, type Language } from '../words'
import { emailReceipt } from '.'

let smtp: TestSmtpServer
let h: Harness
mailHarnessForFile((made, server) => ((h = made), (smtp = server)), {
  config: { rateLimit: 1_000_000 },
  freshMinute: true,
})

// Written by hand: the words each language's emails must carry, and 119.00 EUR as the language writes it.
const EXPECTED: Record<Language, { invoice: string; reminder: string; receipt: string; total: string; hello: string }> =
  {
    en: { invoice: 'Invoice', reminder: 'Reminder', receipt: 'Receipt', total: '119.00 EUR', hello: 'Hello,' },
    de: {
      invoice: 'Rechnung',
      reminder: 'Zahlungserinnerung',
      receipt: 'Quittung',
      total: '119,00 €',
      hello: 'Guten Tag,',
    },
    fr: { invoice: 'Facture', reminder: 'Relance', receipt: 'Reçu', total: '119,00 €', hello: 'Bonjour,' },
    es: { invoice: 'Factura', reminder: 'Recordatorio', receipt: 'Recibo', total: '119,00 €', hello: 'Hola:' },
    it: { invoice: 'Fattura', reminder: 'Sollecito', receipt: 'Ricevuta', total: '119,00 €', hello: 'Buongiorno,' },
    nl: { invoice: 'Factuur', reminder: 'Herinnering', receipt: 'Kwitantie', total: '€ 119,00', hello: 'Goedendag,' },
    pl: {
      invoice: 'Faktura',
      reminder: 'Przypomnienie',
      receipt: 'Pokwitowanie',
      total: '119,00 €',
      hello: 'Dzień dobry,',
    },
    pt: { invoice: 'Fatura', reminder: 'Lembrete', receipt: 'Recibo', total: '119,00 €', hello: 'Olá,' },
  }

const CLIENT_EMAIL = 'billing@acme.example'

/** A Business (in English) whose Client reads `lang`, and an issued Invoice of 119.00 EUR due 2026-02-26. */
async function invoiceFor(lang: Language) {
  const b = await h.business({ email: 'office@shop.example', name: 'Shop Ltd' })
  const client = await h.client(b.key, { name: 'Acme', email: CLIENT_EMAIL, language: lang })
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: {
      type: 'invoice',
      client_id: client,
      issue_date: '2026-01-27',
      due_date: '2026-02-26',
      lines: [{ description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }],
    },
  })
  expect(d.status, d.text).toBe(201)
  return { b, docId: d.body.id as number }
}

function only() {
  expect(smtp.received).toHaveLength(1)
  const got = smtp.received[0]!
  smtp.received.length = 0
  return { subject: got.mail.subject ?? '', text: spaced(got.mail.text ?? ''), pdf: got.mail.attachments[0]! }
}

describe.each([...LANGUAGES])('%s', (lang) => {
  const t = words(lang)
  const e = EXPECTED[lang]

  test('the Send, a reminder and a Receipt email say their words, dates and amounts in the language, with PDFs in it', async () => {
    const { b, docId } = await invoiceFor(lang)
    const sent = await h.request('POST', `/v1/documents/${docId}/send`, { key: b.key })
    expect(sent.status, sent.text).toBe(200)
    const number = sent.body.document_number as string
    const send = only()
    expect(send.subject).toBe(t.sendSubject(e.invoice, number, 'Shop Ltd'))
    expect(send.subject).toStartWith(`${e.invoice} ${number} `)
    for (const s of [
      e.hello,
      spaced(t.sendText(e.invoice, number, t.date('2026-01-27'), e.total, t.date('2026-02-26'))),
      e.total,
      t.kindRegards,
      'Shop Ltd',
    ])
      expect(send.text).toContain(s)
    expect(spaced(pdfText(send.pdf.content, h.dir))).toContain(e.invoice)

    const reminded = await h.request('POST', `/v1/documents/${docId}/remind`, { key: b.key })
    expect(reminded.status, reminded.text).toBe(200)
    const remind = only()
    expect(remind.subject).toStartWith(e.reminder)
    expect(remind.subject).toContain(`${e.invoice} ${number}`)
    expect(remind.subject).toEndWith('Shop Ltd')
    for (const s of [e.hello, e.total, t.date('2026-02-26'), spaced(t.reminderAttached), t.kindRegards])
      expect(remind.text).toContain(s)
    // The clock is past the due date: the reminder says it was due.
    expect(remind.text).toContain(
      spaced(t.reminderText(e.invoice, number, t.date('2026-01-27'), e.total, t.date('2026-02-26'), true, e.total)),
    )
    expect(spaced(pdfText(remind.pdf.content, h.dir))).toContain(e.invoice)

    const pay = await h.request('POST', `/v1/documents/${docId}/payments`, {
      key: b.key,
      body: { amount: '119.00', payment_date: '2026-02-03', payment_method: 'cash' },
    })
    expect(pay.status, pay.text).toBe(201)
    await emailReceipt(h.deps, { businessId: b.id, role: 'admin' }, pay.body.id)
    const receipt = only()
    expect(receipt.subject).toStartWith(e.receipt)
    expect(receipt.subject).toContain(pay.body.receipt.receipt_number)
    for (const s of [
      e.hello,
      spaced(t.receiptThanks(e.total, t.date('2026-02-03'), e.invoice, number)),
      spaced(t.receiptAttached),
      t.kindRegards,
    ])
      expect(receipt.text).toContain(s)
    const receiptPdf = spaced(pdfText(receipt.pdf.content, h.dir))
    expect(receiptPdf).toContain(e.receipt)
    expect(receiptPdf).toContain(e.total)
    if (lang !== 'en')
      for (const english of ['Hello,', 'Kind regards', 'please find attached'])
        expect([send.text, remind.text, receipt.text].join('\n')).not.toContain(english)
  }, 30_000) // three emails over SMTP and three PDFs (the first starts the PDF engine): seconds on a loaded machine
})

test('a subject and message the Business wrote go out as written, whatever the language', async () => {
  const { b, docId } = await invoiceFor('de')
  const r = await h.request('POST', `/v1/documents/${docId}/send`, {
    key: b.key,
    body: { subject: 'Your invoice', message: 'Hi there, see attached.' },
  })
  expect(r.status, r.text).toBe(200)
  const got = only()
  expect(got.subject).toBe('Your invoice')
  expect(got.text.trim()).toBe('Hi there, see attached.')
  // The PDF stays in the document's language.
  expect(spaced(pdfText(got.pdf.content, h.dir))).toContain('Rechnung')
})
