// The rule table and the model, without HTTP: every per-category family fails where the standard says it must,
// including states the API cannot reach today (allowances, a Client without a country, a hand-made wrong figure).
import { describe, expect, test } from 'bun:test'
import type { BankAccountRow, BusinessRow } from '../business'
import { accountsShown, sellerSnapshotOf, type DocumentView } from '../documents'
import { Dec, format, round, type Decimal } from '../../shared/money'
import { unitCodeOf, vatexText } from './codes'
import { exportabilityOf, type ExportSource } from './einvoice.service'
import { buildModel, vatIdOf, type EInvoiceModel } from './model'
import { checkModel, RULES, wellFormedVatId } from './rules'
import { writeUbl } from './ubl'

// ---------------------------------------------------------------------------------------------------------------
// Factories: a document as the API answers it, its Business, its accounts

interface LineSpec {
  category?: string
  rate?: string
  code?: string | null
  quantity?: string
  price?: string
  unit?: string
}

function business(over: Partial<BusinessRow> = {}): BusinessRow {
  return {
    id: 1,
    publicId: '0b6f3c52-8a3e-4d7e-9a43-7c4b1e2f9d10',
    name: 'Seller GmbH',
    legalName: null,
    country: 'DE',
    currency: 'EUR',
    vatNumber: 'DE123456789',
    companyId: null,
    isVatPayer: true,
    isTest: false,
    plan: 'pro',
    email: 'billing@seller.example',
    address: 'Hauptstrasse 1',
    city: 'Berlin',
    postalCode: '10115',
    issuingLimit: 100,
    electronicAddressScheme: null,
    electronicAddress: null,
    contactName: null,
    contactPhone: null,
    contactEmail: null,
    taxRegistrationId: null,
    einvoiceFormat: 'ubl',
    deletedAt: null,
    brandColor: null,
    logoType: null,
    language: 'en',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }
}

function account(over: Partial<BankAccountRow> = {}): BankAccountRow {
  return {
    id: 1,
    businessId: 1,
    name: 'Main',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    currency: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }
}

const SCALES: Record<string, number> = { EUR: 2, JPY: 0, BHD: 3, USD: 2 }

/** An issued document with the given Lines; bands and totals computed as the documents module does (per band, half away from zero). */
function view(specs: LineSpec[] = [{}], over: Partial<DocumentView> = {}): DocumentView {
  const currency = over.currency ?? 'EUR'
  const scale = SCALES[currency] ?? 2
  const lines = specs.map((s, i) => {
    const category = s.category ?? 'S'
    const rate = s.rate ?? (category === 'S' ? '19.00' : '0.00')
    const quantity = s.quantity ?? '1'
    const price = s.price ?? '100.00'
    return {
      id: i + 1,
      position: i + 1,
      product_id: null,
      description: `Line ${i + 1}`,
      quantity,
      unit: s.unit ?? 'pcs',
      unit_price: price,
      vat_rate: rate,
      vat_category: category,
      vat_exemption_code:
        s.code === undefined
          ? ((
              { E: 'VATEX-EU-132', AE: 'VATEX-EU-AE', K: 'VATEX-EU-IC', G: 'VATEX-EU-G', O: 'VATEX-EU-O' } as Record<
                string,
                string
              >
            )[category] ?? null)
          : s.code,
      notes: null,
      net_amount: format(round(new Dec(quantity).times(new Dec(price)), scale), scale),
    }
  })
  const bands = new Map<string, { category: string; rate: string; net: Decimal }>()
  for (const l of lines) {
    const key = `${l.vat_category}|${l.vat_rate}`
    const b = bands.get(key) ?? { category: l.vat_category, rate: l.vat_rate, net: new Dec('0') }
    b.net = b.net.plus(new Dec(l.net_amount))
    bands.set(key, b)
  }
  const breakdown = [...bands.values()].map((b) => ({
    category: b.category,
    rate: b.rate,
    net: format(b.net, scale),
    vat: format(round(b.net.times(new Dec(b.rate)).div('100'), scale), scale),
  }))
  const net = breakdown.reduce((s, b) => s.plus(new Dec(b.net)), new Dec('0'))
  const vat = breakdown.reduce((s, b) => s.plus(new Dec(b.vat)), new Dec('0'))
  const closed = { open: false as const, code: 'already_issued' }
  // Cast: the view grows fields other modules add; the model reads only those written here.
  const base = {
    id: 7,
    type: 'invoice',
    status: 'issued',
    document_number: 'INV-2026-0007',
    requested_document_number: null,
    client_id: 3,
    client: {
      name: 'Buyer AG',
      legal_name: null,
      email: 'ap@buyer.example',
      address: 'Marktplatz 2',
      city: 'Hamburg',
      postal_code: '20095',
      country: 'DE',
      vat_number: 'DE987654321',
    },
    currency,
    issue_date: '2026-03-10',
    due_date: '2026-04-09',
    delivery_date: '2026-03-10',
    payment_terms: 30,
    lines,
    vat_breakdown: breakdown,
    net_total: format(net, scale),
    vat_total: format(vat, scale),
    total: format(net.plus(vat), scale),
    amount_paid: format(new Dec('0'), scale),
    amount_due: format(net.plus(vat), scale),
    still_takes_payment: true,
    actions: {
      issue: closed,
      send: { open: true },
      cancel: { open: true },
      convert: closed,
      record_payment: { open: true },
      delete: closed,
    },
    last_sent: null,
    is_overdue: false,
    days_overdue: null,
    proforma_id: null,
    converted_into_id: null,
    credited_document_id: null,
    is_test: false,
    bank_account_ids: [],
    notes: null,
    created_at: '2026-03-10T09:00:00.000Z',
    updated_at: '2026-03-10T09:00:00.000Z',
  }
  return { ...base, ...over } as DocumentView
}

/** The view's seller is the Business and accounts given, as issue would have kept them. */
function source(
  v: DocumentView = view(),
  b: BusinessRow = business(),
  accounts: BankAccountRow[] = [],
  credited: ExportSource['credited'] = null,
): ExportSource {
  return {
    view: { ...v, seller: sellerSnapshotOf(b, accountsShown(v.bank_account_ids, v.currency, accounts)) },
    business: b,
    credited,
  }
}

const model = (v: DocumentView = view(), b: BusinessRow = business(), accounts: BankAccountRow[] = []) =>
  buildModel(source(v, b, accounts))
const failing = (m: EInvoiceModel) => checkModel(m).map((f) => f.id)

/** Client fields of a view, changed. */
const withClient = (v: DocumentView, c: Partial<DocumentView['client']>): DocumentView => ({
  ...v,
  client: { ...v.client, ...c },
})

// ---------------------------------------------------------------------------------------------------------------

describe('the rule table', () => {
  test('holds every per-category family whole: -01 to -10 for S, Z, E, AE, IC, G, O, with IC-11/12 and O-11..14', () => {
    const ids = new Set(RULES.map((r) => r.id))
    for (const prefix of ['BR-S', 'BR-Z', 'BR-E', 'BR-AE', 'BR-IC', 'BR-G', 'BR-O']) {
      for (let n = 1; n <= 10; n++) expect(ids.has(`${prefix}-${String(n).padStart(2, '0')}`)).toBe(true)
    }
    for (const id of ['BR-IC-11', 'BR-IC-12', 'BR-O-11', 'BR-O-12', 'BR-O-13', 'BR-O-14'])
      expect(ids.has(id)).toBe(true)
    for (const id of [
      'BR-01',
      'BR-06',
      'BR-11',
      'BR-16',
      'BR-CO-09',
      'BR-CO-10',
      'BR-CO-14',
      'BR-CO-15',
      'BR-CO-16',
      'BR-CO-17',
      'BR-CO-26',
      'BR-DEC-23',
      'BR-CL-14',
      'BR-CL-22',
      'BR-CL-23',
    ]) {
      expect(ids.has(id)).toBe(true)
    }
    // Ids are unique and each rule says what to change.
    expect(ids.size).toBe(RULES.length)
    for (const r of RULES) expect(r.message.length).toBeGreaterThan(20)
  })

  test('a plain document of each category passes every rule', () => {
    const intra = withClient(view([{ category: 'K' }]), { country: 'FR', vat_number: 'FR12345678901' })
    for (const v of [
      view(),
      view([{ category: 'Z' }]),
      view([{ category: 'E' }]),
      view([{ category: 'AE' }]),
      intra,
      view([{ category: 'G' }]),
      view([{ category: 'O' }]),
    ]) {
      expect(failing(model(v))).toEqual([])
    }
  })

  test('a predicate that cannot read the model counts as broken, never as passed', () => {
    const m = model()
    m.totals.lineNet = 'not a number'
    expect(failing(m)).toContain('BR-CO-10')
  })
})

describe('core and calculation rules', () => {
  test('BR-CO-10/14/15/16: totals that do not add up are refused', () => {
    const m = model()
    m.totals.lineNet = '99.00'
    m.taxTotal = '18.00'
    m.totals.taxInclusive = '120.00'
    m.totals.payable = '100.00'
    expect(failing(m)).toEqual(expect.arrayContaining(['BR-CO-10', 'BR-CO-14', 'BR-CO-15', 'BR-CO-16']))
  })

  test('BR-CO-17 and BR-S-09: a tax amount a whole unit off is refused; VAT rounded to whole yen passes the tolerance', () => {
    const m = model()
    m.breakdown[0]!.tax = '20.00'
    m.taxTotal = '20.00'
    m.totals.taxInclusive = m.totals.payable = '120.00'
    expect(failing(m)).toEqual(expect.arrayContaining(['BR-CO-17', 'BR-S-09']))
    // 1001 JPY at 10% is 100.1, which a currency without minor units writes as 100.
    expect(failing(model(view([{ price: '1001', rate: '10.00' }], { currency: 'JPY' })))).toEqual([])
  })

  test('BR-DEC: a third decimal in any amount is refused; a three-decimal currency with two-decimal amounts passes', () => {
    expect(failing(model(view([{ price: '10.125', rate: '0.00', category: 'Z' }], { currency: 'BHD' })))).toEqual(
      expect.arrayContaining(['BR-DEC-09', 'BR-DEC-12', 'BR-DEC-14', 'BR-DEC-18', 'BR-DEC-19', 'BR-DEC-23']),
    )
    const ok = model(view([{ price: '10.100', rate: '10.00' }], { currency: 'BHD' }))
    expect(failing(ok)).toEqual([])
    expect(ok.totals.lineNet).toBe('10.10')
  })

  test('BR-11 and BR-CL-14: the Buyer needs a country, and a real one', () => {
    expect(failing(model(withClient(view(), { country: '' })))).toContain('BR-11')
    expect(failing(model(withClient(view(), { country: 'XX', vat_number: null })))).toContain('BR-CL-14')
  })

  test('BR-CO-26: every document names its Seller, by business_id when it has no registration number', () => {
    const m = model(view([{ category: 'O' }]))
    expect(m.seller.vatId).toBeNull()
    expect(m.seller.identifier).toBe(business().publicId)
    m.seller.identifier = null
    expect(failing(m)).toContain('BR-CO-26')
  })

  test('BR-50: a credit transfer without an account is refused; BR-55: a preceding Invoice needs its number', () => {
    const m = model()
    m.payment.code = '58'
    expect(failing(m)).toContain('BR-50')
    const cn = buildModel(
      source(view([{}], { type: 'credit_note', credited_document_id: 1 }), business(), [], {
        number: null,
        issueDate: '2026-01-01',
      }),
    )
    expect(failing(cn)).toContain('BR-55')
  })

  test('document level allowances and charges are held to BR-31..38 and to their category family', () => {
    const m = model(view([{ category: 'O' }]))
    m.allowances.push({ amount: '1.00', category: 'S', rate: '19', reason: null, reasonCode: null })
    m.charges.push({ amount: '1.005', category: 'S', rate: null, reason: 'Freight', reasonCode: null })
    const ids = failing(m)
    expect(ids).toEqual(
      expect.arrayContaining(['BR-33', 'BR-CO-21', 'BR-S-03', 'BR-S-04', 'BR-S-07', 'BR-O-13', 'BR-O-14', 'BR-DEC-05']),
    )
  })
})

describe('per-category families', () => {
  test('BR-S: a Seller without a VAT number, a rate of 0 and an exemption reason are refused', () => {
    expect(failing(model(view(), business({ isVatPayer: false })))).toContain('BR-S-02')
    expect(failing(model(view(), business({ vatNumber: null })))).toContain('BR-S-02')
    const m = model()
    m.lines[0]!.rate = '0'
    m.breakdown[0]!.exemptionText = 'Because'
    expect(failing(m)).toEqual(expect.arrayContaining(['BR-S-05', 'BR-S-10']))
  })

  test('BR-Z: a rate above 0, a tax amount and a missing Seller VAT number are refused', () => {
    const m = model(view([{ category: 'Z' }]))
    m.lines[0]!.rate = '5'
    m.breakdown[0]!.tax = '5.00'
    expect(failing(m)).toEqual(expect.arrayContaining(['BR-Z-05', 'BR-Z-09']))
    expect(failing(model(view([{ category: 'Z' }]), business({ isVatPayer: false })))).toContain('BR-Z-02')
  })

  test('BR-E: no exemption reason, two different reasons, or no Seller VAT number are refused', () => {
    expect(failing(model(view([{ category: 'E', code: null }])))).toContain('BR-E-10')
    expect(
      failing(
        model(
          view([
            { category: 'E', code: 'VATEX-EU-132' },
            { category: 'E', code: 'VATEX-EU-143' },
          ]),
        ),
      ),
    ).toContain('BR-E-01')
    expect(failing(model(view([{ category: 'E' }]), business({ isVatPayer: false })))).toContain('BR-E-02')
  })

  test('BR-AE: no Client VAT number, a reason that is not reverse charge, or a rate are refused', () => {
    expect(failing(model(withClient(view([{ category: 'AE' }]), { vat_number: null })))).toContain('BR-AE-02')
    expect(failing(model(view([{ category: 'AE', code: 'VATEX-EU-O' }])))).toContain('BR-AE-10')
    const m = model(view([{ category: 'AE' }]))
    m.lines[0]!.rate = '7'
    expect(failing(m)).toContain('BR-AE-05')
  })

  test('BR-IC: no Client VAT number, no Client country, no delivery date are refused', () => {
    const k = view([{ category: 'K' }])
    expect(failing(model(withClient(k, { vat_number: null })))).toContain('BR-IC-02')
    expect(failing(model(withClient(k, { country: '' })))).toEqual(expect.arrayContaining(['BR-IC-12', 'BR-11']))
    expect(failing(model({ ...k, delivery_date: null }))).toContain('BR-IC-11')
    // The deliver-to country is the Client's.
    expect(model(withClient(k, { country: 'FR', vat_number: 'FR12345678901' })).delivery.address?.country).toBe('FR')
  })

  test('BR-G: no Seller VAT number or a reason that is not export is refused', () => {
    expect(failing(model(view([{ category: 'G' }]), business({ isVatPayer: false })))).toContain('BR-G-02')
    expect(failing(model(view([{ category: 'G', code: 'VATEX-EU-IC' }])))).toContain('BR-G-10')
  })

  test('BR-O: O beside other categories, a written rate and a tax amount are refused', () => {
    expect(failing(model(view([{ category: 'O' }, {}])))).toEqual(
      expect.arrayContaining(['BR-O-02', 'BR-O-11', 'BR-O-12']),
    )
    const m = model(view([{ category: 'O' }]))
    m.lines[0]!.rate = '0'
    m.breakdown[0]!.tax = '1.00'
    m.taxTotal = '1.00'
    expect(failing(m)).toEqual(expect.arrayContaining(['BR-O-05', 'BR-O-09']))
  })

  test('an O-only document writes no VAT numbers and no Percent', async () => {
    const xml = await writeUbl(model(view([{ category: 'O' }, { category: 'O', price: '5.00' }])))
    expect(xml).not.toContain('PartyTaxScheme')
    expect(xml).not.toContain('Percent')
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>')
  })
})

describe('VAT identifiers', () => {
  test('a number without a country code takes the country first in capitals; a stored prefix is kept as stored', () => {
    expect(vatIdOf('123456789', 'DE')).toBe('DE123456789')
    expect(vatIdOf('u12345678', 'at')).toBe('ATU12345678')
    expect(vatIdOf('NL 8200.98.395.B.01', 'NL')).toBe('NL820098395B01')
    expect(vatIdOf('de123456789', 'DE')).toBe('de123456789')
    expect(vatIdOf('123456789', '')).toBe('123456789')
  })

  test('BR-CO-09: a prefix of the official list (ISO 3166-1, EL for Greece), and nothing else judged, as the official rules do', () => {
    for (const ok of [
      'DE123456789',
      'EL123456789',
      'GR123456789',
      'ATU12345678',
      'CHE123456789',
      'DE1',
      'DE12345678901234567',
      'DE12?',
    ])
      expect(wellFormedVatId(ok)).toBe(true)
    for (const bad of ['de123456789', 'XX123456789', '123456789']) expect(wellFormedVatId(bad)).toBe(false)
    // The two syntaxes' lists differ: SS is UBL's only, AN CII's only.
    expect([
      wellFormedVatId('SS1', 'ubl'),
      wellFormedVatId('SS1', 'cii'),
      wellFormedVatId('AN1', 'ubl'),
      wellFormedVatId('AN1', 'cii'),
    ]).toEqual([true, false, false, true])
    // A Client with no country and a number with no prefix stays refused.
    expect(failing(model(withClient(view(), { country: '', vat_number: '123456789' })))).toContain('BR-CO-09')
  })
})

describe('code lists and payment means', () => {
  test('a Line unit becomes its Rec 20 code; an unknown word counts as one (C62)', () => {
    expect(unitCodeOf('pcs')).toBe('C62')
    expect(unitCodeOf('Hours')).toBe('HUR')
    expect(unitCodeOf('Std.')).toBe('HUR')
    expect(unitCodeOf('kg')).toBe('KGM')
    expect(unitCodeOf('KGM')).toBe('KGM')
    expect(unitCodeOf('m²')).toBe('MTK')
    expect(unitCodeOf('licence')).toBe('C62')
  })

  test('every VATEX code has its reason text; a code outside the list has none', () => {
    expect(vatexText('VATEX-EU-132-1I')).toBe(
      'Exempt based on article 132, section 1, point (i) of Council Directive 2006/112/EC',
    )
    expect(vatexText('VATEX-EU-148-A')).toBe('Exempt based on article 148, point (a) of Council Directive 2006/112/EC')
    expect(vatexText('VATEX-EU-AE')).toBe('Reverse charge')
    expect(vatexText('VATEX-EU-999')).toBeNull()
  })

  test('payment means: none → 1; EUR to SEPA IBANs → 58; another currency or a non-SEPA IBAN → 30', () => {
    expect(model().payment).toEqual({ code: '1', paymentId: 'INV-2026-0007', accounts: [] })
    const eur = model(view([{}], { bank_account_ids: [1] }), business(), [account()])
    expect(eur.payment.code).toBe('58')
    expect(eur.payment.accounts).toEqual([{ iban: 'DE89370400440532013000', name: 'Main', bic: 'COBADEFFXXX' }])
    expect(model(view([{}], { currency: 'USD', bank_account_ids: [1] }), business(), [account()]).payment.code).toBe(
      '30',
    )
    expect(
      model(view([{}], { bank_account_ids: [1] }), business(), [account({ iban: 'TR330006100519786457841326' })])
        .payment.code,
    ).toBe('30')
    // A document naming no account is paid into the Business's accounts in its currency.
    const fallback = model(view(), business(), [
      account({ id: 1, currency: 'USD' }),
      account({ id: 2, name: 'Euro', currency: 'EUR' }),
    ])
    expect(fallback.payment.accounts.map((a) => a.name)).toEqual(['Euro'])
  })
})

describe('exportability', () => {
  test('a Test business, a Draft, a Proforma Invoice and a Quote do not export; the refusal carries no rules', () => {
    const code = (s: ExportSource) => {
      const r = exportabilityOf(s)
      return r.ok ? 'ok' : r.refusal.code
    }
    expect(code(source(view(), business({ isTest: true })))).toBe('exports_not_in_a_test_business')
    expect(code(source(view([{}], { status: 'draft', document_number: null })))).toBe('not_exportable')
    expect(code(source(view([{}], { type: 'proforma' })))).toBe('not_exportable')
    expect(code(source(view([{}], { type: 'quote' })))).toBe('not_exportable')
    expect(code(source(view([{}], { status: 'paid' })))).toBe('ok')
  })

  test('a document failing the check is refused with every failing rule, named in the message', () => {
    const r = exportabilityOf(source(withClient(view([{ category: 'AE' }, { category: 'O' }]), { vat_number: 'xx1' })))
    expect(r.ok).toBe(false)
    if (r.ok) return
    const rules = r.refusal.extra!.rules as { id: string; message: string }[]
    expect(rules.map((x) => x.id)).toEqual(expect.arrayContaining(['BR-CO-09', 'BR-O-11', 'BR-O-12']))
    for (const x of rules) expect(r.refusal.message).toContain(x.id)
  })
})
