// Times the four reports on a large Business: 1,000,000 documents and 1,000,000 Payments over 1,000 Clients and
// three years (bench/reports-seed.ts), each report for one year, a statement for one Client; checks the answers.
// A tenth of the documents are in USD or GBP with an exchange rate fixed at issue, so the income and VAT reports
// answer their `converted` block (extensions §16), checked against the seeder's own sums too.
//
//   bun bench/reports.ts                      seeds a fresh temp database (about a minute), then times
//   bun bench/reports.ts --db FILE --keep     seeds FILE (kept afterwards); with --reuse, times an existing FILE
//   options: --documents N --payments N --clients N --runs N (timed runs after one cold run, default 7)
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../src/db/client'
import { applyMigrations } from '../src/db/migrate'
import { getBusiness } from '../src/modules/business'
import { clientStatement, incomeReport, overdueReport, vatReport } from '../src/modules/reports'
import { seedReports, type Expected } from './reports-seed'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const flag = (name: string) => process.argv.includes(`--${name}`)

const documents = Number(option('documents') ?? 1_000_000)
const payments = Number(option('payments') ?? 1_000_000)
const clients = Number(option('clients') ?? 1000)
const runs = Number(option('runs') ?? 7)
const REPORT_TARGET_MS = 100
const STATEMENT_TARGET_MS = 50

const dir = option('db') ? null : mkdtempSync(join(tmpdir(), 'reports-bench-'))
const file = option('db') ?? join(dir!, 'reports.db')
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const sizeOf = (f: string) =>
  ['', '-wal', '-shm'].reduce((s, x) => s + (existsSync(f + x) ? statSync(f + x).size : 0), 0)

let expected: Expected | null = null
let businessId = 1
try {
  if (flag('reuse') && existsSync(file)) {
    console.log(`reusing ${file}`)
  } else {
    for (const x of ['', '-wal', '-shm']) rmSync(file + x, { force: true })
    console.log(
      `seeding ${documents.toLocaleString('en')} documents, ${payments.toLocaleString('en')} Payments, ${clients} Clients into ${file}`,
    )
    const seeded = await seedReports({
      file,
      documents,
      payments,
      clients,
      firstYear: 2023,
      lastYear: 2025,
      seed: 1,
      log: (l) => process.stderr.write(`  ${l}\r`),
    })
    process.stderr.write('\n')
    expected = seeded.expected
    businessId = seeded.businessId
    const c = seeded.counts
    console.log(
      `seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${c.documents} documents, ${c.lines} Lines, ${c.bands} VAT bands, ${c.payments} Payments`,
    )
  }

  // The service's own database client (reader: intMode number, query_only), migrations applied as `serve` would.
  const db = await openDatabase(file)
  await applyMigrations(db)
  console.log(`database size: ${mb(sizeOf(file))}`)
  const business = await getBusiness(db.read, businessId)
  const year = { from: '2025-01-01', to: '2025-12-31' }

  // The Client with the most documents in the year: the heaviest statement.
  const top = await db.read.all<{ client_id: number }>(
    sql`SELECT client_id FROM documents WHERE business_id = ${businessId} AND issue_date BETWEEN ${year.from} AND ${year.to} GROUP BY client_id ORDER BY count(*) DESC LIMIT 1`,
  )
  const clientId = top[0]!.client_id

  async function time<T>(
    name: string,
    target: number,
    fn: () => Promise<T>,
  ): Promise<{ name: string; result: T; cold: number; median: number; min: number; pass: boolean }> {
    let t = performance.now()
    const result = await fn()
    const cold = performance.now() - t
    const samples: number[] = []
    for (let i = 0; i < runs; i++) {
      t = performance.now()
      await fn()
      samples.push(performance.now() - t)
    }
    samples.sort((a, b) => a - b)
    const median = samples[Math.floor(samples.length / 2)]!
    return { name, result, cold, median, min: samples[0]!, pass: median < target }
  }

  const rows = [
    await time(`income ${year.from}..${year.to}`, REPORT_TARGET_MS, () => incomeReport(db.read, business, year)),
    await time(`vat ${year.from}..${year.to}`, REPORT_TARGET_MS, () => vatReport(db.read, business, year)),
    await time('overdue as of 2026-01-01', REPORT_TARGET_MS, () => overdueReport(db.read, business, '2026-01-01')),
    await time(`statement client ${clientId}, ${year.from}..${year.to}`, STATEMENT_TARGET_MS, () =>
      clientStatement(db.read, businessId, clientId, year),
    ),
  ]

  console.log('')
  // Figures are wall time of the report function (SQL and the JS around it) through the service's own reader.
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${runs} timed runs after one cold run`,
  )
  console.log(
    'report'.padEnd(46) + 'cold ms'.padStart(9) + 'median ms'.padStart(11) + 'min ms'.padStart(9) + '  target',
  )
  for (const r of rows) {
    const target = r.name.startsWith('statement') ? STATEMENT_TARGET_MS : REPORT_TARGET_MS
    console.log(
      r.name.padEnd(46) +
        r.cold.toFixed(1).padStart(9) +
        r.median.toFixed(1).padStart(11) +
        r.min.toFixed(1).padStart(9) +
        `  < ${target} ${r.pass ? 'PASS' : 'FAIL'}`,
    )
  }

  const [income, vat, overdue, statement] = rows.map((r) => r.result) as [any, any, any, any]
  console.log('')
  console.log(
    `income: ${income.income} ${income.currency}, VAT ${income.vat}, other currencies ${income.other_currency_documents}`,
  )
  console.log(
    `income converted (other currencies at their rates, extensions §16): net ${income.converted.net} ${income.converted.currency}, VAT ${income.converted.vat}, ${income.converted.documents} documents`,
  )
  console.log(
    `vat converted: net ${vat.converted.net}, VAT ${vat.converted.vat}, ${vat.converted.documents} documents, bands ${vat.converted.bands.map((b: any) => `${b.category} ${b.rate}: ${b.vat}`).join('; ')}`,
  )
  console.log(
    `vat: net ${vat.net}, VAT ${vat.vat}, bands ${vat.bands.map((b: any) => `${b.category} ${b.rate}: ${b.vat}`).join('; ')}, other ${vat.other_currency_documents}`,
  )
  console.log(
    `overdue: ${overdue.count} documents, ${overdue.amount_due} due, ${overdue.clients.length} Clients, other currencies ${overdue.other_currency_documents}`,
  )
  console.log(
    `statement: ${statement.currencies.map((c: any) => `${c.currency} ${c.opening_balance} → ${c.closing_balance} (${c.lines.length} lines)`).join('; ')}`,
  )

  // The seeder summed what it wrote; a fast wrong answer is no answer.
  if (expected) {
    const cents = (m: number) =>
      `${m < 0 ? '-' : ''}${Math.trunc(Math.abs(m) / 100)}.${String(Math.abs(m) % 100).padStart(2, '0')}`
    const y = expected.years['2025']!
    const checks: [string, unknown, unknown][] = [
      ['income', income.income, cents(y.income)],
      ['income vat', income.vat, cents(y.vat)],
      ['income other currencies', income.other_currency_documents, y.other],
      ['vat', vat.vat, cents(y.vat)],
      ['vat other currencies', vat.other_currency_documents, y.vatOther],
      ['income converted net', income.converted.net, cents(y.conv.net)],
      ['income converted vat', income.converted.vat, cents(y.conv.vat)],
      ['income converted documents', income.converted.documents, y.conv.documents],
      ['vat converted vat', vat.converted.vat, cents(y.conv.bandVat)],
      ['vat converted documents', vat.converted.documents, y.conv.vatDocuments],
      ['overdue count', overdue.count, expected.overdue.count],
      ['overdue amount', overdue.amount_due, cents(expected.overdue.due)],
      ['overdue other currencies', overdue.other_currency_documents, expected.overdue.other],
      [
        'statement closing (EUR)',
        statement.currencies.find((c: any) => c.currency === 'EUR')?.closing_balance,
        cents(expected.balances.get(clientId) ?? 0),
      ],
    ]
    const wrong = checks.filter(([, got, want]) => got !== want)
    for (const [name, got, want] of wrong) console.log(`WRONG ${name}: ${got}, expected ${want}`)
    console.log(
      wrong.length === 0
        ? `answers: all ${checks.length} checks match the seeder's own sums`
        : `answers: ${wrong.length} of ${checks.length} checks WRONG`,
    )
    if (wrong.length) process.exitCode = 1
  }
  db.close()
} finally {
  if (dir && !flag('keep')) rmSync(dir, { recursive: true, force: true })
}
