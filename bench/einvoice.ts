// E-invoice export benchmark: the time to answer one document's export in each format (median and p95 over N runs,
// a 100-Line Invoice, through the app in-process against a temp-file database: read, rule check, write), and the
// Factur-X PDF's size and time. Targets (issue 15): under 20 ms median for XML, under 100 ms for Factur-X.
//
//   bun bench/einvoice.ts [--runs 200] [--warmup 20] [--json FILE]
import { writeFileSync } from 'node:fs'
import { argNumber, argValue } from './args'
import { makeHarness } from '../test/harness'
import { XML_FORMATS } from '../src/shared/einvoice-formats'

const runs = argNumber('runs', 200)
const warmup = argNumber('warmup', 20)
const json = argValue('json')

const h = await makeHarness({ config: { rateLimit: 1_000_000_000 } })
const s = await h.business({
  name: 'Seller GmbH',
  vatNumber: 'DE123456789',
  address: 'Hauptstrasse 1',
  city: 'Berlin',
  postalCode: '10115',
  email: 'billing@seller.example',
  contactName: 'Erika Mustermann',
  contactPhone: '+49 30 1234567',
  electronicAddressScheme: '9930',
  electronicAddress: 'DE123456789',
})
await h.bankAccount(s.id)
const clientId = await h.client(s.key, {
  name: 'Buyer AG',
  address: 'Marktplatz 2',
  city: 'Hamburg',
  postal_code: '20095',
  buyer_reference: '04011000-12345-34',
  electronic_address: { scheme: '0088', value: '4006381333931' },
})
const lines = Array.from({ length: 100 }, (_, i) => ({
  description: `Line ${i + 1}: consulting, design and delivery`,
  quantity: String((i % 7) + 1),
  unit_price: `${(i * 13) % 500}.${String(i % 100).padStart(2, '0')}`,
  vat_rate: i % 3 === 0 ? '7.00' : '19.00',
}))
const created = await h.request('POST', '/v1/documents', {
  key: s.key,
  body: { type: 'invoice', client_id: clientId, lines },
})
const issued = await h.request('POST', `/v1/documents/${created.body.id}/issue`, { key: s.key })
if (issued.status !== 200) throw new Error(`issue: ${issued.status} ${issued.text}`)
const id = issued.body.id as number

/** Wall time, and the process's CPU time (user + system), which a loaded machine inflates far less. */
async function get(path: string): Promise<{ ms: number; cpu: number; bytes: number }> {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  const res = await h.app.fetch(
    new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${s.key}` } }),
  )
  const body = new Uint8Array(await res.arrayBuffer())
  const ms = performance.now() - t0
  const c = process.cpuUsage(c0)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${new TextDecoder().decode(body)}`)
  return { ms, cpu: (c.user + c.system) / 1000, bytes: body.length }
}

function stats(xs: number[]) {
  const sorted = [...xs].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2), min: +sorted[0]!.toFixed(2) }
}

const results: Record<string, { median: number; p95: number; min: number; cpuMedian: number; bytes: number }> = {}
const paths: [string, string][] = [
  ...XML_FORMATS.map((f) => [f, `/v1/documents/${id}/xml?format=${f}`] as [string, string]),
  ['pdf (plain)', `/v1/documents/${id}/pdf`],
  ['facturx', `/v1/documents/${id}/pdf?format=facturx`],
]
for (const [name, path] of paths) {
  for (let i = 0; i < warmup; i++) await get(path)
  const times: number[] = []
  const cpus: number[] = []
  let bytes = 0
  // The PDFs take longer; a quarter of the runs is enough for a stable median.
  const n = name.includes('pdf') || name === 'facturx' ? Math.max(20, Math.floor(runs / 4)) : runs
  for (let i = 0; i < n; i++) {
    const r = await get(path)
    times.push(r.ms)
    cpus.push(r.cpu)
    bytes = r.bytes
  }
  results[name] = { ...stats(times), cpuMedian: stats(cpus).median, bytes }
  const r = results[name]!
  console.log(
    `${name.padEnd(14)} wall median ${String(r.median).padStart(7)} ms  p95 ${String(r.p95).padStart(7)} ms  cpu median ${String(r.cpuMedian).padStart(7)} ms  ${bytes} bytes  (${n} runs)`,
  )
}
if (json) writeFileSync(json, JSON.stringify({ lines: 100, runs, results }, null, 2))
await h.close()
