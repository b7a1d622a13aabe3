// Paying by bank transfer (extensions §15), through the API on a real temp-file database: each issued Invoice and
// Proforma answers its ISO 11649 reference; its PDF prints it and carries the EPC QR code for the amount due, read
// back with pdftoppm + zbarimg and compared field by field with EPC069-12; none where §15 puts none; the public page
// carries the same code; the e-invoices write the reference as BT-83 and pass the official rule sets.
import { describe, expect, test } from 'bun:test'
import { type Harness, harnessForFile, type ClientSetup, draftFor, issuedFor } from '../../../test/harness'
import { sql } from 'drizzle-orm'
import {
  creditorReference,
  isCreditorReference,
  printedReference,
  referenceBodyOf,
} from '../../shared/creditor-reference'
import { epcPayload, qrMatrix, qrSvg } from '../../shared/epc-qr'
import { XML_FORMATS } from '../../shared/einvoice-formats'
import { addBankAccount } from '../business'
import { germanSeller, localPath, xmllint } from '../einvoice/einvoice.testkit'
import { fatalsOf, validateFiles } from '../einvoice/validator.testkit'
import { qrCodesOfPdf, textOfPdf } from './qr.testkit'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

const IBAN = 'DE89370400440532013000'
const BIC = 'COBADEFFXXX'
const LINE = { description: 'Consulting', quantity: '1', unit_price: '1000.00', vat_rate: '19.00' }

/** A German seller with one EUR account (IBAN and BIC) unless told otherwise, and a Client. */
async function seller(opts: { account?: boolean; name?: string } = {}): Promise<ClientSetup> {
  const b = await germanSeller(h, {
    name: opts.name ?? 'Seller GmbH',
    legalName: 'Seller Software GmbH',
    // XRechnung's own rules ask for a contact and an electronic address.
    contactName: 'Erika Mustermann',
    contactPhone: '+49 30 1234567',
    electronicAddressScheme: '9930',
    electronicAddress: 'DE123456789',
  })
  if (opts.account !== false)
    await addBankAccount(h.deps.db, h.clock, b.id, { name: 'Main', iban: IBAN, bic: BIC, currency: 'EUR' })
  const clientId = await h.client(b.key, {
    name: 'Käufer AG',
    city: 'Berlin',
    postal_code: '10115',
    address: 'Weg 2',
    // Peppol addresses are participant ids, not email.
    electronic_address: { scheme: '0088', value: '4006381333931' },
  })
  return { bizId: b.id, key: b.key, clientId }
}

async function pdfOf(s: ClientSetup, id: number): Promise<Uint8Array> {
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/documents/${id}/pdf`, { headers: { authorization: `Bearer ${s.key}` } }),
  )
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

/** EPC069-12's elements by name, from a code's text. */
function epcFields(payload: string): Record<string, string | undefined> {
  const [service, version, charset, identification, bic, name, iban, amount, purpose, reference, text]: Array<
    string | undefined
  > = payload.split('\n')
  return { service, version, charset, identification, bic, name, iban, amount, purpose, reference, text }
}

describe('payment_reference', () => {
  test('an issued Invoice and Proforma answer an RF reference made from the number; a Draft, Quote and Credit Note answer null', async () => {
    const s = await seller()
    const draft = await draftFor(h, s, { lines: [LINE] })
    expect(draft.payment_reference).toBeNull()
    const inv = await issuedFor(h, s, { lines: [LINE] })
    expect(inv.payment_reference).toMatch(/^RF[0-9]{2}[A-Z0-9]{1,21}$/)
    expect(isCreditorReference(inv.payment_reference)).toBe(true)
    expect(inv.payment_reference.slice(4)).toBe(inv.document_number.replace(/[^A-Za-z0-9]/g, '').toUpperCase())
    const pro = await issuedFor(h, s, { type: 'proforma', lines: [LINE] })
    expect(isCreditorReference(pro.payment_reference)).toBe(true)
    const quote = await issuedFor(h, s, { type: 'quote', lines: [LINE] })
    expect(quote.payment_reference).toBeNull()
    const cn = await issuedFor(h, s, { type: 'credit_note', credited_document_id: inv.id, lines: [LINE] })
    expect(cn.document_number).not.toBeNull()
    expect(cn.payment_reference).toBeNull()
    // Read back as the GET answers it, and unique within the Business.
    const got = await h.request('GET', `/v1/documents/${inv.id}`, { key: s.key })
    expect(got.body.payment_reference).toBe(inv.payment_reference)
    expect(pro.payment_reference).not.toBe(inv.payment_reference)
  })

  test('a reference another document holds already (INV-7 and INV7 give the same) is not given again', async () => {
    const s = await seller()
    const a = await issuedFor(h, s, { lines: [LINE] })
    const next = a.document_number.replace(/[0-9]+$/, (n: string) => String(Number(n) + 1).padStart(n.length, '0'))
    const wouldBe = creditorReference(referenceBodyOf(next))
    // As if A's number had given the reference the next number gives (two patterns that differ only in dashes).
    await h.deps.db.writer.run(sql`UPDATE documents SET payment_reference = ${wouldBe} WHERE id = ${a.id}`)
    const b = await issuedFor(h, s, { lines: [LINE] })
    expect(b.document_number).toBe(next)
    expect(isCreditorReference(b.payment_reference)).toBe(true)
    expect(b.payment_reference).not.toBe(wouldBe)
  })
})

describe('the PDF', () => {
  test('prints the reference and carries an EPC QR code whose every field is EPC069-12 for the amount due', async () => {
    const s = await seller({ name: 'Seller – Ωmega GmbH' })
    const inv = await issuedFor(h, s, { lines: [LINE] })
    const bytes = await pdfOf(s, inv.id)
    expect(await textOfPdf(h.dir, bytes)).toContain(`Payment reference ${printedReference(inv.payment_reference)}`)
    const codes = await qrCodesOfPdf(h.dir, bytes)
    expect(codes).toHaveLength(1)
    expect(epcFields(codes[0]!)).toEqual({
      service: 'BCD',
      version: '002',
      charset: '1',
      identification: 'SCT',
      bic: BIC,
      name: 'Seller – Ωmega GmbH',
      iban: IBAN,
      amount: 'EUR1190.00',
      purpose: '',
      reference: inv.payment_reference,
      text: undefined,
    })
  })

  test("after a partial Payment the code asks for what is still due; a paid document's PDF has no code", async () => {
    const s = await seller()
    const inv = await issuedFor(h, s, { lines: [LINE] })
    const pay = (amount: string) =>
      h.request('POST', `/v1/documents/${inv.id}/payments`, {
        key: s.key,
        body: { amount, payment_date: '2026-03-10', payment_method: 'cash' },
      })
    expect((await pay('190.00')).status).toBe(201)
    const [partial] = await qrCodesOfPdf(h.dir, await pdfOf(s, inv.id))
    expect(epcFields(partial!).amount).toBe('EUR1000.00')
    expect((await pay('1000.00')).status).toBe(201)
    const paid = await pdfOf(s, inv.id)
    expect(await qrCodesOfPdf(h.dir, paid)).toEqual([])
    // The reference is still printed: it names the document.
    expect(await textOfPdf(h.dir, paid)).toContain('Payment reference RF')
  })

  test("the reference and the code's words are in the document's language (a German Client's PDF and page)", async () => {
    const s = await seller()
    const patched = await h.request('PATCH', `/v1/clients/${s.clientId}`, { key: s.key, body: { language: 'de' } })
    expect(patched.status).toBe(200)
    const inv = await issuedFor(h, s, { lines: [LINE] })
    expect(inv.language).toBe('de')
    const text = (await textOfPdf(h.dir, await pdfOf(s, inv.id))).replace(/\s+/g, ' ')
    expect(text).toContain(`Verwendungszweck ${printedReference(inv.payment_reference)}`)
    expect(text).toContain('Scannen Sie den Code mit Ihrer Banking-App, um per SEPA-Überweisung zu zahlen.')
    expect(text).not.toContain('Payment reference')
    // Intl writes a no-break space between an amount and its currency sign.
    const page = (await (await h.app.fetch(new Request(new URL(inv.public_url, 'http://127.0.0.1')))).text()).replace(
      /\u00a0/g,
      ' ',
    )
    expect(page).toContain('Verwendungszweck')
    expect(page).toContain(`um 1.190,00 € an ${IBAN} zu zahlen.`)
  }, 30_000)

  test('no code on another currency, without an account, on a cancelled document or a Quote', async () => {
    const s = await seller()
    const usd = await issuedFor(h, s, { lines: [LINE], currency: 'USD' })
    expect(await qrCodesOfPdf(h.dir, await pdfOf(s, usd.id))).toEqual([])
    const cancelled = await issuedFor(h, s, { lines: [LINE] })
    expect((await h.request('POST', `/v1/documents/${cancelled.id}/cancel`, { key: s.key })).status).toBe(200)
    expect(await qrCodesOfPdf(h.dir, await pdfOf(s, cancelled.id))).toEqual([])
    const quote = await issuedFor(h, s, { type: 'quote', lines: [LINE] })
    expect(await qrCodesOfPdf(h.dir, await pdfOf(s, quote.id))).toEqual([])
    const bare = await seller({ account: false })
    const noIban = await issuedFor(h, bare, { lines: [LINE] })
    const text = await textOfPdf(h.dir, await pdfOf(bare, noIban.id))
    expect(text).toContain('Payment reference')
    expect(await qrCodesOfPdf(h.dir, await pdfOf(bare, noIban.id))).toEqual([])
  }, 30_000)
})

describe('the public page', () => {
  test('shows the reference and the code for the amount due as the page is opened', async () => {
    const s = await seller()
    const inv = await issuedFor(h, s, { lines: [LINE] })
    const page = async () => (await h.app.fetch(new Request(new URL(inv.public_url, 'http://localhost')))).text()
    const expected = (amount: string) =>
      qrSvg(
        qrMatrix(epcPayload({ bic: BIC, name: 'Seller GmbH', iban: IBAN, amount, reference: inv.payment_reference })),
        180,
        'EPC QR code to pay by SEPA transfer',
      )
    const first = await page()
    expect(first).toContain(printedReference(inv.payment_reference))
    expect(first).toContain(expected('1190.00'))
    await h.request('POST', `/v1/documents/${inv.id}/payments`, {
      key: s.key,
      body: { amount: '90.00', payment_date: '2026-03-10', payment_method: 'cash' },
    })
    const after = await page()
    expect(after).toContain(expected('1100.00'))
    expect(after).not.toContain(expected('1190.00'))
  })

  test('a USD document shows its reference and no code', async () => {
    const s = await seller()
    const usd = await issuedFor(h, s, { lines: [LINE], currency: 'USD' })
    const html = await (await h.app.fetch(new Request(new URL(usd.public_url, 'http://localhost')))).text()
    expect(html).toContain(printedReference(usd.payment_reference))
    expect(html).not.toContain('<svg')
  })
})

describe('the e-invoices', () => {
  test('every XML format writes the reference as BT-83 and passes the official rule sets with 0 fatal', async () => {
    const s = await seller()
    const inv = await issuedFor(h, s, { lines: [LINE], buyer_reference: '04011000-12345-34' })
    const x = xmllint(() => h.dir, 'bt83')
    const files: string[] = []
    for (const format of XML_FORMATS) {
      const r = await h.request('GET', `/v1/documents/${inv.id}/xml?format=${format}`, { key: s.key })
      expect(r.status, r.text).toBe(200)
      const file = x.fileOf(r.text)
      files.push(file)
      const bt83 = format.endsWith('cii')
        ? x.xpathIn(file, `string(${localPath('//ApplicableHeaderTradeSettlement/PaymentReference')})`)
        : x.xpathIn(file, `string(${localPath('//PaymentMeans/PaymentID')})`)
      expect(bt83).toBe(inv.payment_reference)
    }
    const v = validateFiles(files)
    for (const f of files) expect(fatalsOf(v, f)).toEqual([])
  }, 120_000)
})
