// Bank statement import benchmark (extensions §15, issue 28): one CAMT.053 file of 10,000 entries, 9,000 of them
// naming an issued Invoice by its payment reference, POSTed to a server started from source on a temp-file database,
// while one connection reads `GET /v1/clients/{id}` back to back. Prints entries per second of the import, the
// server's peak RSS (VmHWM, and its RSS before the import), and the read's p50/p99 during the import against the same
// read measured alone just before (the baseline of this run); and, as a second baseline, Payments per second recorded
// one `POST /v1/documents/{id}/payments` at a time. Targets: ≥ 1,000 entries/s, peak RSS < 200 MB, read p99 < 50 ms.
//
//   bun bench/camt.ts [--entries 10000] [--matching 9000] [--documents 900] [--baseline-payments 300] [--json FILE]
//
// The 9,000 matching entries pay 900 Invoices of 100.00 in ten parts of 10.00 each (each a Payment with its Receipt);
// the other 1,000 are 500 credits naming nothing (unmatched) and 500 debits (ignored).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { argNumber, argValue } from './args'
import { makeHarness } from '../test/harness'
import { addBankAccount } from '../src/modules/business'
import { camtFile, type TestEntry } from '../src/modules/banking/camt.testkit'

const entriesN = argNumber('entries', 10_000)
const matchingN = argNumber('matching', 9_000)
const documentsN = argNumber('documents', 900)
const baselinePayments = argNumber('baseline-payments', 300)
const jsonOut = argValue('json')
const IBAN = 'DE89370400440532013000'
const PART = 100 / Math.ceil(matchingN / documentsN)

const dir = mkdtempSync(join(tmpdir(), 'bench-camt-'))
const dbPath = join(dir, 'bench.db')
let server: ReturnType<typeof Bun.spawn> | null = null
const stop = () => {
  server?.kill()
  rmSync(dir, { recursive: true, force: true })
}
process.on('SIGINT', () => {
  stop()
  process.exit(130)
})

try {
  // Set-up through the API in-process (the same code the server runs), on the file the server then opens.
  const h = await makeHarness({ config: { dbPath, rateLimit: 1_000_000_000 } })
  const b = await h.business({ name: 'Bench Bank GmbH' })
  await addBankAccount(h.deps.db, h.clock, b.id, { name: 'Giro', iban: IBAN })
  const clientId = await h.client(b.key)
  const refs: string[] = []
  const ids: number[] = []
  const t0 = performance.now()
  for (let i = 0; i < documentsN + 1; i++) {
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: clientId,
        lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '0', vat_category: 'Z' }],
      },
    })
    const issued = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
    if (issued.status !== 200) throw new Error(`issue: ${issued.status} ${issued.text}`)
    refs.push(issued.body.payment_reference)
    ids.push(issued.body.id)
  }
  console.error(`set-up: ${documentsN + 1} Invoices issued in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  // The application's own timers stop with the harness; the file stays for the server.
  await h.app.requestLog.flush()
  h.app.rateLimiter.close()
  h.deps.db.close()

  const entries: TestEntry[] = []
  for (let i = 0; i < matchingN; i++)
    entries.push({ amount: PART.toFixed(2), structured: refs[i % documentsN]!, debtor: `Payer ${i}` })
  for (let i = matchingN; i < entriesN; i++)
    entries.push(
      i % 2 === 0
        ? { amount: '3.00', text: [`transfer ${i} without a reference`], debtor: `Payer ${i}` }
        : { amount: '3.00', credit: false, text: [`fee ${i}`] },
    )
  const xml = camtFile({ version: 8, iban: IBAN, entries })
  writeFileSync(join(dir, 'statement.xml'), xml)
  console.error(`file: ${entriesN} entries, ${(Buffer.byteLength(xml) / 1024 / 1024).toFixed(1)} MB`)

  const port = 20_000 + Math.floor(Math.random() * 20_000)
  server = Bun.spawn(['bun', 'src/main.ts', 'serve', '--db', dbPath, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: join(import.meta.dir, '..'),
    env: { ...process.env, INVOICING_RATE_LIMIT: '1000000000', INVOICING_DB: '' },
    stdout: 'ignore',
    stderr: 'inherit',
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (i > 300) throw new Error('the server did not start')
    try {
      if ((await fetch(`${base}/health`)).ok) break
    } catch {}
    await Bun.sleep(100)
  }
  const auth = { authorization: `Bearer ${b.key}` }
  const rss = (field: 'VmRSS' | 'VmHWM') =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${server!.pid}/status`, 'utf8'))![1]) / 1024

  /** `GET /v1/clients/{id}` back to back on one connection until `until` resolves: each latency in ms. */
  async function reads(until: Promise<unknown>): Promise<number[]> {
    let done = false
    until.finally(() => (done = true))
    const out: number[] = []
    while (!done) {
      const t = performance.now()
      const r = await fetch(`${base}/v1/clients/${clientId}`, { headers: auth })
      await r.arrayBuffer()
      if (r.status !== 200) throw new Error(`read: ${r.status}`)
      out.push(performance.now() - t)
    }
    return out
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b)
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
  }

  // Baseline 1: the read alone, for 5 s.
  const alone = await reads(Bun.sleep(5000))
  // Baseline 2: Payments one request each, on the spare Invoice.
  const spare = ids[documentsN]!
  const tp = performance.now()
  for (let i = 0; i < baselinePayments; i++) {
    const r = await fetch(`${base}/v1/documents/${spare}/payments`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '0.01', payment_date: '2026-03-09', payment_method: 'cash' }),
    })
    if (r.status !== 201) throw new Error(`payment: ${r.status} ${await r.text()}`)
  }
  const paymentsPerSecond = baselinePayments / ((performance.now() - tp) / 1000)
  const rssBefore = rss('VmRSS')

  // The import, with the reads beside it.
  const ti = performance.now()
  const imported = fetch(`${base}/v1/bank-statements`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/xml' },
    body: xml,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any, ms: performance.now() - ti }))
  let peakSampled = rssBefore
  const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, rss('VmRSS'))), 20)
  const during = await reads(imported)
  clearInterval(sampler)
  const result = await imported
  if (result.status !== 201) throw new Error(`import: ${result.status} ${JSON.stringify(result.body)}`)
  const figures = {
    entries: entriesN,
    matched: result.body.matched,
    unmatched: result.body.unmatched,
    ignored: result.body.ignored,
    import_s: +(result.ms / 1000).toFixed(2),
    entries_per_s: Math.round(entriesN / (result.ms / 1000)),
    baseline_payments_per_s_one_request_each: Math.round(paymentsPerSecond),
    rss_before_mb: Math.round(rssBefore),
    rss_peak_sampled_mb: Math.round(peakSampled),
    rss_peak_vmhwm_mb: Math.round(rss('VmHWM')),
    read_alone_p50_ms: +pct(alone, 50).toFixed(2),
    read_alone_p99_ms: +pct(alone, 99).toFixed(2),
    read_during_p50_ms: +pct(during, 50).toFixed(2),
    read_during_p99_ms: +pct(during, 99).toFixed(2),
    read_during_max_ms: +pct(during, 100).toFixed(2),
    reads_during: during.length,
  }
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  console.log(JSON.stringify(figures, null, 2))
  console.log(
    `entries/s ${figures.entries_per_s} (target ≥ 1000) ${verdict(figures.entries_per_s >= 1000)}; ` +
      `peak RSS ${figures.rss_peak_vmhwm_mb} MB (target < 200) ${verdict(figures.rss_peak_vmhwm_mb < 200)}; ` +
      `read p99 during ${figures.read_during_p99_ms} ms vs ${figures.read_alone_p99_ms} ms alone (target < 50) ${verdict(figures.read_during_p99_ms < 50)}`,
  )
  if (figures.matched !== matchingN) throw new Error(`matched ${figures.matched}, expected ${matchingN}`)
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2))
} finally {
  stop()
}
