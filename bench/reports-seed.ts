// Bench fixture for the reports: one Business with many Clients, documents (Lines, VAT bands) and Payments over
// three years, written straight into a migrated database file, with the figures the reports must answer.
import { createClient, type Client } from '@libsql/client'
import { openDatabase } from '../src/db/client'
import { applyMigrations } from '../src/db/migrate'
import { createBusiness, setNumbering } from '../src/modules/business'
import { systemClock } from '../src/shared/clock'
import { seedClients } from './seed'

export interface SeedReportsOptions {
  file: string
  documents: number
  payments: number
  clients: number
  /** First and last year of issue dates (inclusive); documents are spread evenly over the days between. */
  firstYear: number
  lastYear: number
  seed: number
  /** Progress on stderr. */
  log?: (line: string) => void
}

/** What the seeder knows the reports must answer, summed as it wrote (EUR, the Business's currency). */
export interface Expected {
  /** Per year: income and VAT in minor units and other-currency Reportable documents. */
  years: Record<
    string,
    {
      income: number
      vat: number
      other: number
      vatOther: number
      /**
       * The `converted` blocks (extensions §16), in EUR minor units: income's net and VAT (each document's VAT total
       * converted), the VAT report's VAT (each band's VAT converted), and the documents counted in each.
       */
      conv: { net: number; vat: number; bandVat: number; documents: number; vatDocuments: number }
    }
  >
  /** Overdue as of `asOf` (EUR): count and amount due in minor units; other-currency overdue documents. */
  overdue: { asOf: string; count: number; due: number; other: number }
  /** Per Client, the EUR balance over all time (debits less credits), in minor units. */
  balances: Map<number, number>
}

export interface SeedReportsResult {
  businessId: number
  clientIds: number[]
  counts: { documents: number; lines: number; bands: number; payments: number }
  expected: Expected
  ms: number
}

/** mulberry32, seeded: the same options write the same data. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const DAY_MS = 86_400_000
/** The exchange rates the other-currency documents carry, fixed at issue (extensions §16): exact as num / den. */
const FX: Record<string, { text: string; num: bigint; den: bigint }> = {
  USD: { text: '0.9123', num: 9123n, den: 10000n },
  GBP: { text: '1.1712', num: 11712n, den: 10000n },
}
/** minor × rate, half away from zero (non-negative amounts), exactly. */
const convert = (minor: number, currency: string) => {
  const r = FX[currency]!
  return Number((2n * BigInt(minor) * r.num + r.den) / (2n * r.den))
}

const money = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`
const DESCRIPTIONS = [
  'Consulting hours',
  'Software licence',
  'Support plan',
  'Hardware',
  'Training day',
  'Travel costs',
  'Hosting',
  'Design work',
]
const METHODS = ['bank_transfer', 'cash', 'credit_card', 'debit_card', 'check', 'other']

interface Line {
  description: string
  quantity: number
  unitPrice: number
  rate: number
  category: string
}

interface Doc {
  id: number
  type: 'invoice' | 'proforma' | 'credit_note' | 'quote'
  status: string
  number: string | null
  clientId: number
  currency: string
  day: number
  lines: Line[]
  proformaId: number | null
  convertedIntoId: number | null
  creditedId: number | null
  paid: number
}

interface Payment {
  id: number
  documentId: number
  status: string
  amount: number
  currency: string
  day: number
  method: string
  reference: string | null
}

function totalsOf(lines: Line[]) {
  const bands = new Map<string, { category: string; rate: number; net: number; vat: number }>()
  let net = 0
  for (const l of lines) {
    const n = l.quantity * l.unitPrice
    net += n
    const key = `${l.category}|${l.rate}`
    const b = bands.get(key) ?? { category: l.category, rate: l.rate, net: 0, vat: 0 }
    b.net += n
    bands.set(key, b)
  }
  let vat = 0
  // Half away from zero on non-negative amounts, as the documents module rounds each band.
  for (const b of bands.values()) vat += b.vat = Math.floor((b.net * b.rate + 50) / 100)
  return { net, vat, total: net + vat, bands: [...bands.values()] }
}

/** Inserts rows given as arrays through one JSON parameter: SQLite reads it in C, one statement per batch. */
function jsonInsert(table: string, columns: string[], rows: unknown[][]) {
  const picks = columns.map((_, i) => `value->>${i}`).join(', ')
  return {
    sql: `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${picks} FROM json_each(?)`,
    args: [JSON.stringify(rows)],
  }
}

const DOC_COLUMNS = [
  'id',
  'business_id',
  'type',
  'status',
  'document_number',
  'client_id',
  'client_snapshot',
  'currency',
  'issue_date',
  'due_date',
  'delivery_date',
  'payment_terms',
  'bank_account_ids',
  'proforma_id',
  'converted_into_id',
  'credited_document_id',
  'is_test',
  'net_total',
  'vat_total',
  'total',
  'net_minor',
  'vat_minor',
  'total_minor',
  'amount_paid',
  'paid_minor',
  'created_at',
  'updated_at',
  'exchange_rate',
  'accounting_currency',
  'vat_total_accounting',
  'net_accounting_minor',
  'vat_accounting_minor',
]
const LINE_COLUMNS = [
  'document_id',
  'position',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'vat_rate',
  'vat_category',
  'vat_exemption_code',
  'net_amount',
]
const BAND_COLUMNS = [
  'document_id',
  'category',
  'rate',
  'net',
  'vat',
  'net_minor',
  'vat_minor',
  'vat_accounting',
  'net_accounting_minor',
  'vat_accounting_minor',
]
const PAYMENT_COLUMNS = [
  'id',
  'business_id',
  'document_id',
  'status',
  'amount',
  'amount_minor',
  'currency',
  'payment_date',
  'payment_method',
  'reference',
  'recorded_by',
  'created_at',
  'updated_at',
]

export async function seedReports(o: SeedReportsOptions): Promise<SeedReportsResult> {
  const t0 = performance.now()
  const log = o.log ?? (() => undefined)
  const rnd = prng(o.seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!

  // The Business and its numberings through the service's own functions, on a migrated file.
  const db = await openDatabase(o.file)
  await applyMigrations(db)
  const business = await createBusiness(db, systemClock, {
    name: 'Reports Bench GmbH',
    country: 'DE',
    currency: 'EUR',
    plan: 'pro',
  })
  const patterns = {
    invoice: 'INV-{YYYY}-{NNNNNN}',
    proforma: 'PRO-{YYYY}-{NNNNNN}',
    credit_note: 'CN-{YYYY}-{NNNNNN}',
    quote: 'QUO-{YYYY}-{NNNNNN}',
  } as const
  for (const [kind, pattern] of Object.entries(patterns)) await setNumbering(db, business.id, kind, pattern)
  db.close()
  const clients = await seedClients(o.file, {
    businessId: business.id,
    count: o.clients,
    codePrefix: 'C',
    codeWidth: 5,
    pattern: 'C{NNNNN}',
  })
  const clientIds = Array.from({ length: clients.lastId - clients.firstId + 1 }, (_, i) => clients.firstId + i)
  log(`clients: ${clientIds.length} in ${Math.round(clients.ms)} ms`)

  const raw: Client = createClient({ url: `file:${o.file}`, intMode: 'number' })
  // Seeding only: a crash leaves a file to throw away, so no fsync and no foreign-key checks per row.
  await raw.execute('PRAGMA synchronous = OFF')
  await raw.execute('PRAGMA foreign_keys = OFF')
  await raw.execute('PRAGMA cache_size = -262144')
  const snapshots = new Map<number, string>()
  for (const r of (
    await raw.execute({
      sql: 'SELECT id, name, legal_name, email, address, city, postal_code, country FROM clients WHERE business_id = ?',
      args: [business.id],
    })
  ).rows) {
    snapshots.set(
      Number(r.id),
      JSON.stringify({
        name: r.name,
        legal_name: r.legal_name,
        email: r.email,
        address: r.address,
        city: r.city,
        postal_code: r.postal_code,
        country: r.country,
        vat_number: null,
      }),
    )
  }

  const start = Date.UTC(o.firstYear, 0, 1)
  const days = Math.round((Date.UTC(o.lastYear + 1, 0, 1) - start) / DAY_MS)
  const dateOf = (day: number) => new Date(start + day * DAY_MS).toISOString().slice(0, 10)
  const asOf = dateOf(days) // the day after the last: "today" for the overdue report
  const counters = new Map<string, number>()
  const numberFor = (type: Doc['type'], day: number) => {
    const year = dateOf(day).slice(0, 4)
    const key = `${type}|${year}`
    const n = (counters.get(key) ?? 0) + 1
    counters.set(key, n)
    return patterns[type].replace('{YYYY}', year).replace('{NNNNNN}', String(n).padStart(6, '0'))
  }

  const expected: Expected = { years: {}, overdue: { asOf, count: 0, due: 0, other: 0 }, balances: new Map() }
  const yearOf = (day: number) =>
    (expected.years[dateOf(day).slice(0, 4)] ??= {
      income: 0,
      vat: 0,
      other: 0,
      vatOther: 0,
      conv: { net: 0, vat: 0, bandVat: 0, documents: 0, vatDocuments: 0 },
    })
  const counts = { documents: 0, lines: 0, bands: 0, payments: 0 }
  let docs: Doc[] = []
  let pays: Payment[] = []
  let nextPaymentId = 1
  const recentInvoices: number[] = []
  const payable: { id: number; currency: string; day: number }[] = []

  const flush = async () => {
    const docRows: unknown[][] = []
    const lineRows: unknown[][] = []
    const bandRows: unknown[][] = []
    for (const d of docs) {
      const t = totalsOf(d.lines)
      const draft = d.status === 'draft'
      const issue = draft ? null : dateOf(d.day)
      const at = `${dateOf(d.day)}T09:00:00.000Z`
      const fx = !draft && d.currency !== 'EUR'
      docRows.push([
        d.id,
        business.id,
        d.type,
        d.status,
        d.number,
        d.clientId,
        draft ? null : snapshots.get(d.clientId),
        d.currency,
        issue,
        draft ? null : dateOf(d.day + 30),
        issue,
        30,
        '[]',
        d.proformaId,
        d.convertedIntoId,
        d.creditedId,
        0,
        money(t.net),
        money(t.vat),
        money(t.total),
        t.net,
        t.vat,
        t.total,
        money(d.paid),
        d.paid,
        at,
        at,
        // Another currency than EUR: its rate and VAT in EUR, fixed at issue.
        ...(fx
          ? [
              FX[d.currency]!.text,
              'EUR',
              money(convert(t.vat, d.currency)),
              convert(t.net, d.currency),
              convert(t.vat, d.currency),
            ]
          : [null, null, null, null, null]),
      ])
      d.lines.forEach((l, i) =>
        lineRows.push([
          d.id,
          i + 1,
          l.description,
          String(l.quantity),
          'pcs',
          money(l.unitPrice),
          `${l.rate}.00`,
          l.category,
          l.category === 'E' ? 'VATEX-EU-132' : null,
          money(l.quantity * l.unitPrice),
        ]),
      )
      for (const b of t.bands)
        bandRows.push([
          d.id,
          b.category,
          `${b.rate}.00`,
          money(b.net),
          money(b.vat),
          b.net,
          b.vat,
          ...(fx
            ? [money(convert(b.vat, d.currency)), convert(b.net, d.currency), convert(b.vat, d.currency)]
            : [null, null, null]),
        ])
    }
    const payRows = pays.map((p) => {
      const at = `${dateOf(p.day)}T12:00:00.000Z`
      return [
        p.id,
        business.id,
        p.documentId,
        p.status,
        money(p.amount),
        p.amount,
        p.currency,
        dateOf(p.day),
        p.method,
        p.reference,
        '{"type":"api_key","name":"bench"}',
        at,
        at,
      ]
    })
    await raw.batch(
      [
        jsonInsert('documents', DOC_COLUMNS, docRows),
        jsonInsert('document_lines', LINE_COLUMNS, lineRows),
        jsonInsert('document_vat_bands', BAND_COLUMNS, bandRows),
        ...(payRows.length ? [jsonInsert('payments', PAYMENT_COLUMNS, payRows)] : []),
      ],
      'write',
    )
    counts.documents += docRows.length
    counts.lines += lineRows.length
    counts.bands += bandRows.length
    counts.payments += payRows.length
    docs = []
    pays = []
  }

  const newLines = (): Line[] => {
    const n = rnd() < 0.6 ? 1 : rnd() < 0.75 ? 2 : 3
    return Array.from({ length: n }, () => {
      const r = rnd()
      const rate = r < 0.7 ? 19 : r < 0.9 ? 7 : 0
      return {
        description: pick(DESCRIPTIONS),
        quantity: 1 + Math.floor(rnd() * 5),
        unitPrice: 1000 + Math.floor(rnd() * 199_000),
        rate,
        category: rate > 0 ? 'S' : rnd() < 0.8 ? 'Z' : 'E',
      }
    })
  }

  /** Payments on a document as a Client would make them; returns the completed amount. */
  const payOn = (d: Doc, total: number, full: boolean): number => {
    if (counts.payments + pays.length >= o.payments) return 0
    const first = Math.min(days - 1, d.day + Math.floor(rnd() * 45))
    const add = (amount: number, day: number, status = 'completed') => {
      pays.push({
        id: nextPaymentId++,
        documentId: d.id,
        status,
        amount,
        currency: d.currency,
        day,
        method: pick(METHODS),
        reference: rnd() < 0.4 ? `REF-${nextPaymentId}` : null,
      })
      return status === 'completed' ? amount : 0
    }
    if (rnd() < 0.03) add(Math.max(1, Math.floor(total / 2)), first, 'voided')
    if (total === 0) return 0
    if (rnd() < 0.7) return full ? add(total, first) : add(Math.max(1, Math.floor(total * rnd())), first)
    const part = Math.max(1, Math.min(total - 1, Math.floor(total * (0.1 + 0.8 * rnd()))))
    let paid = add(part, first)
    if (full || rnd() < 0.5) paid += add(total - part, Math.min(days - 1, first + Math.floor(rnd() * 30)))
    return paid
  }

  const account = (d: Doc) => {
    if (d.status === 'draft' || d.status === 'cancelled' || d.type === 'quote') return
    const t = totalsOf(d.lines)
    const standalone = d.type === 'proforma' && d.convertedIntoId === null
    if (d.type === 'proforma' && !standalone) return
    const y = yearOf(d.day)
    const home = d.currency === 'EUR'
    if (!home) {
      y.other++
      if (d.type !== 'proforma') y.vatOther++
      // The converted block: each at its own rate, by the income report's rules.
      const netAcc = convert(t.net, d.currency)
      const sign = d.type === 'credit_note' ? -1 : 1
      y.conv.documents++
      if (d.type === 'proforma')
        y.conv.net +=
          d.paid <= 0 ? 0 : d.paid >= t.total ? netAcc : Math.floor((2 * netAcc * d.paid + t.total) / (2 * t.total))
      else {
        y.conv.vatDocuments++
        y.conv.net += sign * netAcc
        y.conv.vat += sign * convert(t.vat, d.currency)
        for (const b of t.bands) y.conv.bandVat += sign * convert(b.vat, d.currency)
      }
    } else if (d.type === 'invoice') {
      y.income += t.net
      y.vat += t.vat
    } else if (d.type === 'credit_note') {
      y.income -= t.net
      y.vat -= t.vat
    } else {
      y.income +=
        d.paid <= 0 ? 0 : d.paid >= t.total ? t.net : Math.floor((2 * t.net * d.paid + t.total) / (2 * t.total))
    }
    // All time: what the statement's closing balance on the last day holds (a converted Invoice's paid amount
    // includes the Payments made on its Proforma).
    if (home)
      expected.balances.set(
        d.clientId,
        (expected.balances.get(d.clientId) ?? 0) + (d.type === 'credit_note' ? -t.total : t.total - d.paid),
      )
    if (
      (d.status === 'issued' || d.status === 'partially_paid') &&
      d.type !== 'credit_note' &&
      dateOf(d.day + 30) < asOf
    ) {
      if (home) {
        expected.overdue.count++
        expected.overdue.due += t.total - d.paid
      } else expected.overdue.other++
    }
  }

  const statusOf = (paid: number, total: number) =>
    paid > 0 && paid >= total ? 'paid' : paid > 0 ? 'partially_paid' : 'issued'
  let id = 1
  for (let made = 0; made < o.documents; ) {
    const day = Math.min(days - 1, Math.floor((made * days) / o.documents))
    const roll = rnd()
    const type: Doc['type'] = roll < 0.68 ? 'invoice' : roll < 0.73 ? 'credit_note' : roll < 0.93 ? 'proforma' : 'quote'
    const c = rnd()
    const currency = c < 0.9 ? 'EUR' : c < 0.97 ? 'USD' : 'GBP'
    const clientId = pick(clientIds)
    const s = rnd()
    const status = s < 0.01 ? 'draft' : s < 0.03 ? 'cancelled' : 'issued'
    const lines = newLines()
    const total = totalsOf(lines).total
    const d: Doc = {
      id: id++,
      type,
      status,
      number: status === 'draft' ? null : numberFor(type, day),
      clientId,
      currency,
      day,
      lines,
      proformaId: null,
      convertedIntoId: null,
      creditedId: null,
      paid: 0,
    }
    // Recent documents are often still open; older ones mostly settled.
    const settles = rnd() >= (days - day < 60 ? 0.5 : 0.04)
    const converts = type === 'proforma' && status === 'issued' && made + 1 < o.documents && rnd() < 0.5
    if (type === 'credit_note' && recentInvoices.length) d.creditedId = pick(recentInvoices)
    if (status === 'issued' && (type === 'invoice' || (type === 'proforma' && !converts))) {
      d.paid = settles ? payOn(d, total, rnd() < 0.9) : 0
      d.status = statusOf(d.paid, total)
      payable.push({ id: d.id, currency, day })
    }
    if (type === 'invoice' && d.status !== 'draft') {
      recentInvoices.push(d.id)
      if (recentInvoices.length > 1000) recentInvoices.shift()
    }
    docs.push(d)
    made++
    if (converts) {
      // Converted: the Invoice is issued up to ten days later with the same Lines; a prepayment on the Proforma
      // counts on the Invoice, and any further Payments go to the Invoice.
      const invDay = Math.min(days - 1, day + Math.floor(rnd() * 10))
      const inv: Doc = {
        id: id++,
        type: 'invoice',
        status: 'issued',
        number: numberFor('invoice', invDay),
        clientId,
        currency,
        day: invDay,
        lines,
        proformaId: d.id,
        convertedIntoId: null,
        creditedId: null,
        paid: 0,
      }
      d.convertedIntoId = inv.id
      if (settles && rnd() < 0.6) d.paid = payOn(d, total, true)
      d.status = statusOf(d.paid, total)
      inv.paid = d.paid + (settles && d.paid < total ? payOn(inv, total - d.paid, rnd() < 0.9) : 0)
      inv.status = statusOf(inv.paid, total)
      payable.push({ id: inv.id, currency, day: invDay })
      docs.push(inv)
      made++
      account(inv)
    }
    account(d)
    if (docs.length >= 20_000) {
      await flush()
      log(`documents: ${counts.documents} / ${o.documents}, payments: ${counts.payments}`)
    }
  }
  await flush()
  // Up to the Payments asked for: reversed ones, which count nowhere, so every figure above stands.
  while (counts.payments < o.payments) {
    const n = Math.min(50_000, o.payments - counts.payments)
    for (let i = 0; i < n; i++) {
      const d = pick(payable)
      pays.push({
        id: nextPaymentId++,
        documentId: d.id,
        status: 'voided',
        amount: 1 + Math.floor(rnd() * 100_000),
        currency: d.currency,
        day: Math.min(days - 1, d.day + Math.floor(rnd() * 45)),
        method: pick(METHODS),
        reference: null,
      })
    }
    await flush()
  }
  // Move the numbering counters past the numbers written, so issuing through the API takes the next one.
  await raw.batch(
    [...counters].map(([key, highest]) => {
      const [kind, year] = key.split('|') as [keyof typeof patterns, string]
      return {
        sql: 'INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (?, ?, ?, ?, ?)',
        args: [business.id, kind, patterns[kind], year, highest],
      }
    }),
    'write',
  )
  await raw.execute('PRAGMA wal_checkpoint(TRUNCATE)')
  raw.close()
  for (const y of Object.values(expected.years))
    if (!Number.isSafeInteger(y.income) || !Number.isSafeInteger(y.vat))
      throw new Error('expected sums left the safe integer range')
  return { businessId: business.id, clientIds, counts, expected, ms: performance.now() - t0 }
}

// Standalone: bun bench/reports-seed.ts DB_FILE [DOCUMENTS] [PAYMENTS]
if (import.meta.main) {
  const [file, documents, payments] = process.argv.slice(2)
  if (!file) {
    console.error('usage: bun bench/reports-seed.ts DB_FILE [DOCUMENTS=1000000] [PAYMENTS=1000000]')
    process.exit(2)
  }
  const r = await seedReports({
    file,
    documents: Number(documents ?? 1_000_000),
    payments: Number(payments ?? 1_000_000),
    clients: 1000,
    firstYear: 2023,
    lastYear: 2025,
    seed: 1,
    log: (l) => console.error(l),
  })
  console.log(
    JSON.stringify({
      businessId: r.businessId,
      counts: r.counts,
      ms: Math.round(r.ms),
      years: r.expected.years,
      overdue: r.expected.overdue,
    }),
  )
}
