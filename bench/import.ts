// Import benchmark (extensions §19, issue 31): 10,000 Clients from one CSV file through POST /v1/imports/clients, in
// process against a temp-file database, as rows per second and the process's peak RSS; beside it, in the same run,
// the floor: the same rows inserted by hand in one transaction of raw SQL (no parsing, no judging, no drizzle).
// Targets: at least 2,000 rows/s, peak RSS below 200 MB.
//
//   bun bench/import.ts [--rows 10000] [--runs 3]
import { argNumber } from './args'
import { makeHarness } from '../test/harness'
import { readCsv } from '../src/modules/imports/csv'

const rows = argNumber('rows', 10_000)
const runs = argNumber('runs', 3)

const h = await makeHarness({ config: { rateLimit: 1_000_000_000 } })

/** A spreadsheet's worth of Clients: quoted names with commas, addresses with line breaks, every third with terms. */
function csvOf(n: number, tag: string): string {
  const out = ['name,email,country,address,city,postal_code,payment_terms,notes']
  for (let i = 0; i < n; i++)
    out.push(
      `"Client ${tag}-${i}, GmbH",c${i}@${tag}.example,DE,"Hauptstraße ${i}\nHinterhaus",Berlin,10115,${i % 3 === 0 ? 14 : ''},"a ""quoted"" note"`,
    )
  return `${out.join('\n')}\n`
}

let peakRss = process.memoryUsage.rss()
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20)

/** The floor: the rows' columns inserted in one BEGIN IMMEDIATE transaction on the service's own writer. */
async function floor(businessId: number, n: number): Promise<number> {
  const started = performance.now()
  const now = new Date().toISOString()
  const tx = await h.deps.db.writerClient.transaction('write')
  for (let i = 0; i < n; i++)
    await tx.execute({
      sql: `INSERT INTO clients (business_id, name, email, country, address, city, postal_code, currency, payment_terms,
            account_code, is_active, vat_verified, preferred_bank_account_ids, created_at, updated_at)
            VALUES (?, ?, ?, 'DE', ?, 'Berlin', '10115', 'EUR', 30, ?, 1, 0, '[]', ?, ?)`,
      args: [businessId, `Floor ${i}`, `f${i}@floor.example`, `Hauptstraße ${i}`, `F${i}`, now, now],
    })
  await tx.commit()
  return performance.now() - started
}

const results: Array<Record<string, number>> = []
for (let run = 0; run < runs; run++) {
  const biz = await h.business()
  const csv = csvOf(rows, `r${run}`)
  const parseStarted = performance.now()
  readCsv(csv)
  const parseMs = performance.now() - parseStarted
  const started = performance.now()
  const r = await h.request('POST', '/v1/imports/clients', {
    key: biz.key,
    raw: csv,
    headers: { 'content-type': 'text/csv' },
  })
  const ms = performance.now() - started
  if (r.status !== 201 || r.body.created !== rows) throw new Error(`import: ${r.status} ${r.text.slice(0, 300)}`)
  const floorMs = await floor((await h.business()).id, rows)
  results.push({
    run: run + 1,
    rows,
    bytes: Buffer.byteLength(csv),
    import_ms: Math.round(ms),
    rows_per_s: Math.round((rows / ms) * 1000),
    csv_parse_ms: Math.round(parseMs),
    floor_ms: Math.round(floorMs),
    floor_rows_per_s: Math.round((rows / floorMs) * 1000),
  })
  console.log(JSON.stringify(results.at(-1)))
}
clearInterval(sampler)
const best = Math.max(...results.map((r) => r.rows_per_s!))
console.log(
  JSON.stringify({
    best_rows_per_s: best,
    target_rows_per_s: 2000,
    peak_rss_mb: Math.round(peakRss / 1024 / 1024),
    target_peak_rss_mb: 200,
  }),
)
await h.close()
