// Documents in the Client's language (extensions §18), read back as a person reads them: every word of the catalog
// that the Invoice, Credit Note and Receipt PDFs and the public page show, in each of the eight languages, with dates,
// amounts, country names and the VAT wording each country's law expects; the language fixed at issue; `language`
// refused naming the field.
import { describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { harnessForFile, type Harness } from '../../../test/harness'
import { FRENCH_BUYER, SELLER_GMBH } from '../../../test/documents-kit'
import { pdfText, spaced, squashed } from '../../../test/pdf-text'
import { updateBusiness } from '../business'
import { LANGUAGES, words, type Language } from '.'

let h: Harness

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

const SELLER = { ...SELLER_GMBH, companyId: 'HRB 4711' }

// What each language must read, written by hand (not by the code under test): the Invoice's title, its issue and due
// dates, its total as an amount, the Client's country, and the reverse charge wording of the country's law.
const EXPECTED: Record<
  Language,
  {
    invoice: string
    issued: string
    due: string
    total: string
    france: string
    reverse: string
    /** The public page's own words: its statuses, the bank box's heading, the PDF link, the QR code, a wrong link. */
    page: {
      open: string
      partly: string
      paid: string
      cancelled: string
      transfer: string
      pdf: string
      qr: string
      notFoundTitle: string
      notFound: string
    }
  }
> = {
  en: {
    invoice: 'Invoice',
    issued: '2026-01-27',
    due: '2026-02-26',
    total: '2979.13 EUR',
    france: 'France',
    reverse: 'Reverse charge',
    page: {
      open: 'Open',
      partly: 'Partly paid',
      paid: 'Paid',
      cancelled: 'Cancelled',
      transfer: 'Pay by bank transfer',
      pdf: 'Download PDF',
      qr: 'EPC QR code to pay by SEPA transfer',
      notFoundTitle: 'Not found',
      notFound: 'No such document.',
    },
  },
  de: {
    invoice: 'Rechnung',
    issued: '27.01.2026',
    due: '26.02.2026',
    total: '2.979,13 €',
    france: 'Frankreich',
    reverse: 'Steuerschuldnerschaft des Leistungsempfängers',
    page: {
      open: 'Offen',
      partly: 'Teilweise bezahlt',
      paid: 'Bezahlt',
      cancelled: 'Storniert',
      transfer: 'Per Banküberweisung bezahlen',
      pdf: 'PDF herunterladen',
      qr: 'EPC-QR-Code für die Zahlung per SEPA-Überweisung',
      notFoundTitle: 'Nicht gefunden',
      notFound: 'Dieses Dokument gibt es nicht.',
    },
  },
  fr: {
    invoice: 'Facture',
    issued: '27/01/2026',
    due: '26/02/2026',
    total: '2 979,13 €',
    france: 'France',
    reverse: 'Autoliquidation',
    page: {
      open: 'En cours',
      partly: 'Partiellement payé',
      paid: 'Payé',
      cancelled: 'Annulé',
      transfer: 'Payer par virement bancaire',
      pdf: 'Télécharger le PDF',
      qr: 'Code QR EPC pour payer par virement SEPA',
      notFoundTitle: 'Introuvable',
      notFound: "Ce document n'existe pas.",
    },
  },
  es: {
    invoice: 'Factura',
    issued: '27/01/2026',
    due: '26/02/2026',
    total: '2979,13 €',
    france: 'Francia',
    reverse: 'Inversión del sujeto pasivo',
    page: {
      open: 'Pendiente',
      partly: 'Pagada parcialmente',
      paid: 'Pagada',
      cancelled: 'Anulada',
      transfer: 'Pagar por transferencia bancaria',
      pdf: 'Descargar PDF',
      qr: 'Código QR EPC para pagar por transferencia SEPA',
      notFoundTitle: 'No encontrado',
      notFound: 'Este documento no existe.',
    },
  },
  it: {
    invoice: 'Fattura',
    issued: '27/01/2026',
    due: '26/02/2026',
    total: '2979,13 €',
    france: 'Francia',
    reverse: 'Inversione contabile',
    page: {
      open: 'Aperta',
      partly: 'Parzialmente pagata',
      paid: 'Pagata',
      cancelled: 'Annullata',
      transfer: 'Pagamento con bonifico bancario',
      pdf: 'Scarica il PDF',
      qr: 'Codice QR EPC per pagare con bonifico SEPA',
      notFoundTitle: 'Non trovato',
      notFound: 'Questo documento non esiste.',
    },
  },
  nl: {
    invoice: 'Factuur',
    issued: '27-01-2026',
    due: '26-02-2026',
    total: '€ 2.979,13',
    france: 'Frankrijk',
    reverse: 'Btw verlegd',
    page: {
      open: 'Openstaand',
      partly: 'Gedeeltelijk betaald',
      paid: 'Betaald',
      cancelled: 'Geannuleerd',
      transfer: 'Betalen per bankoverschrijving',
      pdf: 'PDF downloaden',
      qr: 'EPC-QR-code om per SEPA-overboeking te betalen',
      notFoundTitle: 'Niet gevonden',
      notFound: 'Dit document bestaat niet.',
    },
  },
  pl: {
    invoice: 'Faktura',
    issued: '27.01.2026',
    due: '26.02.2026',
    total: '2979,13 €',
    france: 'Francja',
    reverse: 'Odwrotne obciążenie',
    page: {
      open: 'Otwarta',
      partly: 'Częściowo opłacona',
      paid: 'Opłacona',
      cancelled: 'Anulowana',
      transfer: 'Zapłać przelewem bankowym',
      pdf: 'Pobierz PDF',
      qr: 'Kod QR EPC do zapłaty przelewem SEPA',
      notFoundTitle: 'Nie znaleziono',
      notFound: 'Taki dokument nie istnieje.',
    },
  },
  pt: {
    invoice: 'Fatura',
    issued: '27/01/2026',
    due: '26/02/2026',
    total: '2979,13 €',
    france: 'França',
    reverse: 'Autoliquidação',
    page: {
      open: 'Em aberto',
      partly: 'Parcialmente paga',
      paid: 'Paga',
      cancelled: 'Anulada',
      transfer: 'Pagar por transferência bancária',
      pdf: 'Descarregar PDF',
      qr: 'Código QR EPC para pagar por transferência SEPA',
      notFoundTitle: 'Não encontrado',
      notFound: 'Este documento não existe.',
    },
  },
}

/** One Line of each VAT category: 1,234.56 at 19 %, and the six categories that take rate 0. */
const LINES = [
  { description: 'Consulting', quantity: '1.5', unit: 'h', unit_price: '823.04', vat_rate: '19.00' },
  { description: 'Books', quantity: '1', unit_price: '10.00', vat_rate: '0' },
  {
    description: 'Care',
    quantity: '1',
    unit_price: '100.00',
    vat_rate: '0',
    vat_category: 'E',
    vat_exemption_code: 'VATEX-EU-132',
  },
  {
    description: 'Install',
    quantity: '1',
    unit_price: '200.00',
    vat_rate: '0',
    vat_category: 'AE',
    vat_exemption_code: 'VATEX-EU-AE',
  },
  {
    description: 'Goods',
    quantity: '1',
    unit_price: '300.00',
    vat_rate: '0',
    vat_category: 'K',
    vat_exemption_code: 'VATEX-EU-IC',
  },
  {
    description: 'Export',
    quantity: '1',
    unit_price: '400.00',
    vat_rate: '0',
    vat_category: 'G',
    vat_exemption_code: 'VATEX-EU-G',
  },
  {
    description: 'Outside',
    quantity: '1',
    unit_price: '500.00',
    vat_rate: '0',
    vat_category: 'O',
    vat_exemption_code: 'VATEX-EU-O',
  },
]

async function bytesOf(key: string, path: string): Promise<Uint8Array> {
  const res = await h.app.fetch(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

async function ok(method: string, path: string, key: string, body?: unknown, status = 200): Promise<any> {
  const r = await h.request(method, path, body === undefined ? { key } : { key, body })
  if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}

/** A Business (in English) with a Client in `lang`, an issued Invoice of every VAT category, and its bank account. */
async function invoiceIn(lang: Language, lines: ReadonlyArray<(typeof LINES)[number]> = LINES) {
  const b = await h.business(SELLER)
  const accountId = await h.bankAccount(b.id)
  const clientId = await h.client(b.key, { ...FRENCH_BUYER, language: lang })
  const draft = await ok(
    'POST',
    '/v1/documents',
    b.key,
    {
      type: 'invoice',
      client_id: clientId,
      issue_date: '2026-01-27',
      due_date: '2026-02-26',
      lines,
    },
    201,
  )
  expect(draft.language).toBe(lang)
  const inv = await ok('POST', `/v1/documents/${draft.id}/issue`, b.key)
  expect(inv.language).toBe(lang)
  return { b, clientId, inv, accountId }
}

describe.each([...LANGUAGES])('%s', (lang) => {
  const t = words(lang)
  const e = EXPECTED[lang]

  test('the Invoice PDF says every fixed word, date, amount, country and VAT wording in the language', async () => {
    const { b, inv } = await invoiceIn(lang)
    expect(inv.total).toBe('2979.13')
    const text = pdfText(await bytesOf(b.key, `/v1/documents/${inv.id}/pdf`), h.dir)
    const read = spaced(text)
    const flat = squashed(text)
    // The hand-written forms: title, dates, amount, country and the law's reverse charge wording.
    for (const s of [e.invoice, e.issued, e.due, e.total, e.france, e.reverse]) expect(read).toContain(s)
    // Every catalog word the Invoice shows, with its figures as the language writes them.
    for (const s of [
      t.titles.invoice,
      `${t.no} ${inv.document_number}`,
      `${t.issueDate} ${e.issued}`,
      `${t.dueDate} ${e.due}`,
      `${t.deliveryDate} ${e.issued}`,
      t.billTo,
      `${t.vatId} DE123456789`,
      `${t.vatId} FR12345678901`,
      `${t.companyId} HRB 4711`,
      t.country('DE'),
      t.description,
      t.quantity,
      t.unitPrice,
      `${t.net} (EUR)`,
      `${t.number('1.5')} h`,
      t.number('823.04'),
      t.number('1234.56'),
      t.band(t.vatRate(t.percent('19.00')), t.number('1234.56')),
      t.band(t.zeroRated(t.percent('0')), t.number('10.00')),
      t.band(`${t.exempt} (VATEX-EU-132)`, t.number('100.00')),
      t.band(t.reverseCharge, t.number('200.00')),
      t.band(t.intraEu, t.number('300.00')),
      t.band(t.export, t.number('400.00')),
      t.band(t.notSubject, t.number('500.00')),
      t.short.exempt,
      t.short.reverseCharge,
      t.short.intraEu,
      t.short.export,
      t.short.notSubject,
      t.netTotal,
      t.number('2744.56'),
      t.vatTotal,
      t.number('234.57'),
      `${t.total} EUR`,
      t.number('2979.13'),
      t.reverseChargeNote,
      t.pleasePay(e.total, e.due),
    ])
      expect(flat).toContain(squashed(s))
    // Nothing is cut short, and no English is left in another language's document.
    expect(text).not.toContain('…')
    if (lang !== 'en') for (const s of ['Bill to', 'Please pay', 'Due date', 'Net total']) expect(read).not.toContain(s)
  }, 30_000) // the first PDF of a file starts the PDF engine; pdftotext runs: seconds on a loaded machine

  test('the Credit Note PDF names the Invoice it credits in the language, with no due date', async () => {
    const { b, clientId, inv } = await invoiceIn(lang)
    const cn = await ok(
      'POST',
      '/v1/documents',
      b.key,
      {
        type: 'credit_note',
        client_id: clientId,
        credited_document_id: inv.id,
        issue_date: '2026-01-28',
        lines: [{ description: 'Refund', quantity: '1', unit_price: '1000.00', vat_rate: '19.00' }],
      },
      201,
    )
    const issued = await ok('POST', `/v1/documents/${cn.id}/issue`, b.key)
    expect(issued.language).toBe(lang)
    const text = pdfText(await bytesOf(b.key, `/v1/documents/${cn.id}/pdf`), h.dir)
    const flat = squashed(text)
    for (const s of [
      t.titles.credit_note,
      t.creditTo,
      t.credits(inv.document_number, e.issued),
      t.band(t.vatRate(t.percent('19.00')), t.number('1000.00')),
      t.number('1190.00'),
      e.france,
    ])
      expect(flat).toContain(squashed(s))
    expect(flat).not.toContain(squashed(t.dueDate))
    expect(flat).not.toContain(squashed(t.pleasePay('', '').slice(0, 8)))
  }, 30_000)

  test('the Receipt PDF, and the voided Receipt, are written in the paid document’s language', async () => {
    const { b, inv, accountId } = await invoiceIn(lang)
    const pay = await ok(
      'POST',
      `/v1/documents/${inv.id}/payments`,
      b.key,
      {
        amount: '2979.13',
        payment_date: '2026-02-03',
        payment_method: 'bank_transfer',
        bank_account_id: accountId,
        reference: 'REF-77',
      },
      201,
    )
    const receipt = pay.receipt
    const text = pdfText(await bytesOf(b.key, `/v1/receipts/${receipt.id}/pdf`), h.dir)
    const flat = squashed(text)
    const payDate = words(lang).date('2026-02-03')
    expect(payDate).toBe(e.issued.replace('27', '03').replace('01', '02'))
    for (const s of [
      t.receipt,
      `${t.receiptNumber} ${receipt.receipt_number}`,
      t.issued,
      `${t.receivedFrom} Acheteur SARL`,
      `${t.paymentDate} ${payDate}`,
      `${t.amount} ${e.total}`,
      `${t.method} ${t.methods.bank_transfer}`,
      `${t.reference} REF-77`,
      `${t.for} ${t.receiptFor(t.titles.invoice, inv.document_number, e.total)}`,
      t.paidInFull,
      `${t.vatId} DE123456789`,
      t.country('DE'),
    ])
      expect(flat).toContain(squashed(s))

    const reversed = await h.request('POST', `/v1/payments/${pay.id}/reverse`, { key: b.key, body: {} })
    expect(reversed.status, reversed.text).toBe(200)
    const voided = squashed(pdfText(await bytesOf(b.key, `/v1/receipts/${receipt.id}/pdf`), h.dir, 'raw'))
    expect(voided).toContain(squashed(t.void))
    expect(voided).toContain(squashed(t.receiptVoid(t.date(h.clock.now().toISOString()))))
    expect(voided).not.toContain(squashed(t.paidInFull))
  }, 30_000)

  test('a Draft’s PDF says DRAFT, and the public page its words, in the language', async () => {
    const { b, clientId, inv } = await invoiceIn(lang)
    const draft = await ok('POST', '/v1/documents', b.key, { type: 'invoice', client_id: clientId, lines: LINES }, 201)
    const raw = squashed(pdfText(await bytesOf(b.key, `/v1/documents/${draft.id}/pdf`), h.dir, 'raw'))
    expect(raw).toContain(squashed(`${t.no} ${t.draft}`))
    const page = await publicPage(inv.public_url)
    expect(page.status).toBe(200)
    expect(page.language).toBe(lang)
    const html = page.html
    expect(html).toContain(`<html lang="${lang}">`)
    for (const s of [
      `<title>${e.invoice} ${inv.document_number}</title>`,
      `<h1>${e.invoice} ${inv.document_number}</h1>`,
      `id=status>${e.page.open}</span>`,
      `${t.from} <strong>Seller GmbH</strong> ${t.to} <strong>Acheteur SARL</strong>`,
      `${t.issuedOn(e.issued)}, ${t.dueOn(e.due)}`,
      `${t.amountDue} <strong>${e.total}</strong>`,
      `id=pdf href="${new URL(inv.public_url).pathname}/pdf">${e.page.pdf}</a>`,
      `<strong>${t.total} ${e.total}</strong>`,
      `<th>${t.description}</th>`,
      t.short.reverseCharge,
      `<h2>${e.page.transfer}</h2>`,
      `aria-label="${e.page.qr}"`,
      t.scanToPayAmount(e.total, 'DE89370400440532013000'),
    ])
      expect(html).toContain(spaced(s.replace(/'/g, '&#39;')))
  }, 30_000)

  test('the public page says each status, and a link to nothing says so, in the language; no English is left on it', async () => {
    // Lines named in no language, so that any English word on the page is the page's own.
    const neutral = LINES.map((l, i) => ({ ...l, description: `Pos. ${i + 1}` }))
    const { b, clientId, inv, accountId } = await invoiceIn(lang, neutral)
    const pages = [await publicPage(inv.public_url)]
    const pay = (amount: string) =>
      ok(
        'POST',
        `/v1/documents/${inv.id}/payments`,
        b.key,
        { amount, payment_date: '2026-02-03', payment_method: 'bank_transfer', bank_account_id: accountId },
        201,
      )
    await pay('1000.00')
    const partly = await publicPage(inv.public_url)
    expect(partly.html).toContain(`id=status>${e.page.partly}</span>`)
    expect(partly.html).toContain(`<h2>${e.page.transfer}</h2>`)
    await pay('1979.13')
    const paid = await publicPage(inv.public_url)
    expect(paid.html).toContain(`id=status>${e.page.paid}</span>`)
    expect(paid.html).not.toContain(e.page.transfer)

    const other = await ok(
      'POST',
      '/v1/documents',
      b.key,
      { type: 'invoice', client_id: clientId, lines: neutral },
      201,
    )
    const issued = await ok('POST', `/v1/documents/${other.id}/issue`, b.key)
    await ok('POST', `/v1/documents/${issued.id}/cancel`, b.key)
    const cancelled = await publicPage(issued.public_url)
    expect(cancelled.html).toContain(`id=status>${e.page.cancelled}</span>`)

    // A link that opens no document has no document's language: the browser's, by its weights; else English.
    const asked = lang === 'en' ? 'xx-YY, en;q=0.8' : `en;q=0.5, ${lang}-XX;q=0.9, xx`
    const nowhere = await publicPage(`/p/${'A'.repeat(32)}`, asked)
    const nowherePdf = await publicPage(`/p/${'A'.repeat(32)}/pdf`, asked)
    for (const p of [nowhere, nowherePdf]) {
      expect(p.status).toBe(404)
      expect(p.language).toBe(lang)
      expect(p.html).toContain(`<html lang="${lang}"><title>${e.page.notFoundTitle}</title>`)
      expect(p.html).toContain(spaced(`<p>${e.page.notFound}</p>`.replace(/'/g, '&#39;')))
    }
    expect((await publicPage(`/p/${'A'.repeat(32)}`)).html).toContain('<title>Not found</title>')

    pages.push(partly, paid, cancelled, nowhere)
    if (lang === 'en') return
    for (const page of pages) expect(englishOn(page.html, lang)).toEqual([])
  }, 30_000)
})

/** The public page (or its 404) as a browser asking for `acceptLanguage` reads it, its text's spaces made plain. */
async function publicPage(url: string, acceptLanguage?: string) {
  const headers: Record<string, string> = acceptLanguage ? { 'accept-language': acceptLanguage } : {}
  const res = await h.app.fetch(new Request(new URL(url, 'http://localhost'), { headers }))
  return { status: res.status, language: res.headers.get('content-language'), html: spaced(await res.text()) }
}

/**
 * Words a language writes as English does: the file's name; "Total" in French, Spanish and Portuguese; "Export" in
 * French and Italian; and Polish calls its tax VAT.
 */
const ALIKE: Record<Language, string[]> = {
  en: [],
  de: ['PDF'],
  fr: ['PDF', 'Total', 'Export'],
  es: ['PDF', 'Total'],
  it: ['PDF', 'Export'],
  nl: ['PDF'],
  pl: ['PDF', 'VAT'],
  pt: ['PDF', 'Total'],
}

/**
 * The English fixed words a page in `lang` still shows: each word the page once wrote in English (written here by
 * hand) and each English catalog word of the page (the parts around a sentence's figures), found as whole words in
 * the text a reader sees or hears (tags' text, `title`, `aria-label`); ALIKE names the few a language shares.
 */
function englishOn(html: string, lang: Language): string[] {
  const en = words('en')
  const mark = '\u0000'
  const fixed = (x: string | ((...a: string[]) => string)) =>
    (typeof x === 'string' ? x : x(mark, mark, mark)).split(mark).map((p) => p.trim())
  const english = [
    ...['Open', 'Partly paid', 'Paid', 'Cancelled', 'Pay by bank transfer', 'PDF', 'Not found', 'No such document.'],
    'EPC QR code to pay by SEPA transfer',
    ...(
      [
        'sample',
        'sampleNote',
        'from',
        'to',
        'issuedOn',
        'dueOn',
        'cancelled',
        'amountDue',
        'description',
        'quantity',
        'unitPrice',
        'vat',
        'net',
        'netTotal',
        'vatTotal',
        'total',
        'paymentReference',
        'scanToPayAmount',
        'payByTransfer',
        'downloadPdf',
        'qrLabel',
        'notFoundTitle',
        'notFound',
      ] as const
    ).flatMap((k) => fixed(en[k])),
    ...Object.values(en.statuses),
    ...Object.values(en.short),
    en.titles.invoice,
  ]
  const seen = [
    html.replace(/<style>[\s\S]*?<\/style>/g, ' ').replace(/<[^>]*>/g, ' '),
    ...[...html.matchAll(/(?:aria-label|title)="([^"]*)"/g)].map((m) => m[1]),
  ]
    .join(' ')
    .replace(/&#39;/g, "'")
  const left = new Set<string>()
  for (const word of english) {
    if (!/[a-z]/i.test(word) || ALIKE[lang].includes(word)) continue
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    if (new RegExp(`(^|[^\\p{L}])${escaped}($|[^\\p{L}])`, 'u').test(seen)) left.add(word)
  }
  return [...left]
}

describe('the language of a document', () => {
  test('an issued document keeps its language when the Client’s or the Business’s changes; a Draft follows the Client, else the Business', async () => {
    const b = await h.business(SELLER)
    const clientId = await h.client(b.key, { language: 'de' })
    const body = { type: 'invoice', client_id: clientId, lines: [LINES[0]] }
    const first = await ok('POST', '/v1/documents', b.key, body, 201)
    const issued = await ok('POST', `/v1/documents/${first.id}/issue`, b.key)
    expect(issued.language).toBe('de')
    const draft = await ok('POST', '/v1/documents', b.key, body, 201)
    expect(draft.language).toBe('de')

    expect((await ok('PATCH', `/v1/clients/${clientId}`, b.key, { language: 'fr' })).language).toBe('fr')
    expect((await ok('GET', `/v1/documents/${issued.id}`, b.key)).language).toBe('de')
    expect((await ok('GET', `/v1/documents/${draft.id}`, b.key)).language).toBe('fr')
    const pdf = spaced(pdfText(await bytesOf(b.key, `/v1/documents/${issued.id}/pdf`), h.dir))
    expect(pdf).toContain('Rechnung')
    expect(pdf).not.toContain('Facture')

    // A Client with no language of its own follows the Business's; issued documents still keep theirs.
    expect((await ok('PATCH', `/v1/clients/${clientId}`, b.key, { language: null })).language).toBeNull()
    expect((await ok('GET', `/v1/documents/${draft.id}`, b.key)).language).toBe('en')
    await updateBusiness(h.deps.db, h.clock, b.id, { language: 'it' })
    expect((await ok('GET', '/v1/business', b.key)).language).toBe('it')
    expect((await ok('GET', `/v1/documents/${draft.id}`, b.key)).language).toBe('it')
    expect((await ok('GET', `/v1/documents/${issued.id}`, b.key)).language).toBe('de')
    const later = await ok('POST', `/v1/documents/${draft.id}/issue`, b.key)
    expect(later.language).toBe('it')
    await updateBusiness(h.deps.db, h.clock, b.id, { language: 'en' })
    expect((await ok('GET', `/v1/documents/${later.id}`, b.key)).language).toBe('it')
  }, 30_000)

  test('a language not among the eight is 422 invalid_request naming language, and changes nothing', async () => {
    const b = await h.business(SELLER)
    for (const language of ['xx', 'deu', 'EN-GB', '']) {
      if (language === '') continue
      const r = await h.request('POST', '/v1/clients', {
        key: b.key,
        body: { name: 'X', email: 'x@example.com', country: 'DE', language },
      })
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toEqual(['language'])
    }
    const number = await h.request('POST', '/v1/clients', {
      key: b.key,
      body: { name: 'X', email: 'x@example.com', country: 'DE', language: 7 },
    })
    expect(number.status).toBe(422)
    expect(Object.keys(number.body.error.errors)).toEqual(['language'])
    expect((await ok('GET', '/v1/clients', b.key)).data).toHaveLength(0)

    const clientId = await h.client(b.key, { language: 'pl' })
    const bad = await h.request('PATCH', `/v1/clients/${clientId}`, {
      key: b.key,
      body: { language: 'klingon', city: 'Kraków' },
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toEqual(['language'])
    const kept = await ok('GET', `/v1/clients/${clientId}`, b.key)
    expect(kept).toMatchObject({ language: 'pl', city: null })
    // Written in capitals, a language is still one of the eight.
    expect((await ok('PATCH', `/v1/clients/${clientId}`, b.key, { language: 'PT' })).language).toBe('pt')

    await expect(updateBusiness(h.deps.db, h.clock, b.id, { language: 'xx' })).rejects.toMatchObject({
      errors: { language: [expect.stringContaining('en, de, fr')] },
    })
    expect((await ok('GET', '/v1/business', b.key)).language).toBe('en')
  })

  test('over MCP the same: a Client created and changed with a language, documents and the Business answer theirs, a wrong one is isError naming language', async () => {
    const b = await h.business(SELLER)
    const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req, srv) => h.app.fetch(req, srv) })
    const mcp = new Client({ name: 'test-assistant', version: '1.0.0' })
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${b.key}` } },
      }),
    )
    try {
      const call = async (name: string, args: Record<string, unknown>) =>
        (await mcp.callTool({ name, arguments: args })) as any
      const created = await call('clients_create', {
        name: 'Cliente Roma',
        email: 'conti@roma.example',
        country: 'IT',
        language: 'it',
      })
      expect(created.isError ?? false).toBe(false)
      expect(created.structuredContent.language).toBe('it')
      const id = created.structuredContent.id
      const wrong = await call('clients_update', { id, language: 'la' })
      expect(wrong.isError).toBe(true)
      expect(JSON.stringify(wrong.content)).toContain('invalid_request')
      expect(JSON.stringify(wrong.content)).toContain('language')
      expect((await ok('GET', `/v1/clients/${id}`, b.key)).language).toBe('it')
      expect((await call('business_get', {})).structuredContent.language).toBe('en')
      const draft = await ok('POST', '/v1/documents', b.key, { type: 'invoice', client_id: id, lines: [LINES[0]] }, 201)
      expect((await call('documents_get', { id: draft.id })).structuredContent.language).toBe('it')
    } finally {
      await mcp.close()
      server.stop(true)
    }
  }, 30_000)
})
