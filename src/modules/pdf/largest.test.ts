// The largest document the contract lets anyone make (500 Lines, 1,000-character descriptions, 500-character Line
// notes, 5,000 characters of notes, a Client address of 1,000): its PDF holds every word, is built within a
// second, and while four are built at once `/health` still answers within 50 ms. Any Viewer may ask for a PDF, so
// a slow build is a way to stop the service.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { makeHarness, type Harness } from '../../../test/harness'

let h: Harness
let key: string
let docId: number
/** Every marked word the PDF must show, by how many times it was written. */
const expected = new Map<string, number>()

/** `n` characters of words that each name where they were written (`L12w3`), so pdftotext can be checked word by word. */
function words(tag: string, n: number): string {
  let s = ''
  for (let k = 0; ; k++) {
    const word = `${tag}w${k}`
    if (s.length + word.length + 1 > n) break
    s += (s ? ' ' : '') + word
    expected.set(word, (expected.get(word) ?? 0) + 1)
  }
  return s.padEnd(n, '.')
}

beforeAll(async () => {
  h = await makeHarness()
  const b = await h.business({ currency: 'EUR', legalName: 'Seller Ltd' })
  key = b.key
  const client = await h.client(key, { legal_name: words('N', 255), address: words('A', 1000) })
  const lines = Array.from({ length: 500 }, (_, i) => ({
    description: words(`L${i}d`, 1000),
    quantity: '1',
    unit_price: '10.00',
    vat_rate: '19.00',
    notes: words(`L${i}n`, 500),
  }))
  const r = await h.request('POST', '/v1/documents', {
    key,
    body: { type: 'invoice', client_id: client, lines, notes: words('D', 5000) },
  })
  if (r.status !== 201) throw new Error(`${r.status} ${r.text}`)
  docId = r.body.id
  // The first PDF of a process loads pdf-lib and the fonts; the figures below are for the ones after.
  await fetchPdf()
}, 120_000)
afterAll(() => h.close())

async function fetchPdf(): Promise<Uint8Array> {
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/documents/${docId}/pdf`, { headers: { authorization: `Bearer ${key}` } }),
  )
  expect(res.status).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}

describe('the largest legal document', () => {
  test('its PDF shows every word of every description, note and the address, wrapped, none cut', async () => {
    const file = join(h.dir, 'largest.pdf')
    await Bun.write(file, await fetchPdf())
    const p = Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', file, '-'])
    expect(p.exitCode).toBe(0)
    const found = new Map<string, number>()
    for (const m of p.stdout.toString().matchAll(/\b[NADL][0-9dn]*w[0-9]+\b/g))
      found.set(m[0], (found.get(m[0]) ?? 0) + 1)
    const missing = [...expected].filter(([word, n]) => (found.get(word) ?? 0) < n).map(([word]) => word)
    expect(missing).toEqual([])
    expect(p.stdout.toString()).not.toContain('…')
  }, 30_000)

  test("its PDF is built in under a second of the process's time", async () => {
    // CPU time, not wall time: other processes on a shared machine must not make this test fail or pass.
    const before = process.cpuUsage()
    const t = performance.now()
    await fetchPdf()
    const cpu = process.cpuUsage(before)
    const ms = (cpu.user + cpu.system) / 1000
    console.log(`largest document PDF: ${Math.round(performance.now() - t)} ms wall, ${Math.round(ms)} ms CPU`)
    expect(ms).toBeLessThan(1000)
  }, 30_000)

  test('/health answers within 50 ms while four such PDFs are being built: no turn of a build holds the thread longer', async () => {
    const server = Bun.serve({ port: 0, fetch: (req) => h.app.fetch(req) })
    // The longest the event loop went without running a 1 ms timer, in the JavaScript thread's own CPU time: what
    // our code held the thread for. Wall time also counts the time other processes on a loaded machine took the
    // CPU from us, and the whole process's CPU counts the collector's helper threads, which block nothing.
    const threadCpu = () => {
      const u = process.threadCpuUsage()
      return (u.user + u.system) / 1000
    }
    let longestCpu = 0
    let longestWall = 0
    let lastCpu = threadCpu()
    let lastWall = performance.now()
    const monitor = setInterval(() => {
      const cpu = threadCpu()
      longestCpu = Math.max(longestCpu, cpu - lastCpu)
      longestWall = Math.max(longestWall, performance.now() - lastWall)
      lastCpu = cpu
      lastWall = performance.now()
    }, 1)
    try {
      const base = `http://127.0.0.1:${server.port}`
      let building = true
      const builds = Promise.all(
        Array.from({ length: 4 }, () =>
          fetch(`${base}/v1/documents/${docId}/pdf`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      ).finally(() => (building = false))
      const waits: number[] = []
      while (building) {
        const t = performance.now()
        const r = await fetch(`${base}/health`)
        expect(r.status).toBe(200)
        await r.text()
        if (building) waits.push(performance.now() - t)
      }
      for (const pdf of await builds) expect(pdf.byteLength).toBeGreaterThan(100_000)
      waits.sort((a, b) => a - b)
      const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(waits.length * q))]!.toFixed(1)
      console.log(
        `/health during four builds: ${waits.length} answers, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; longest turn ${longestCpu.toFixed(1)} ms CPU, ${longestWall.toFixed(1)} ms wall`,
      )
      expect(waits.length).toBeGreaterThan(10)
      expect(Number(at(0.5))).toBeLessThan(50)
      // Measured unloaded: the longest turn about 20-40 ms of the thread's CPU (a collector pause or the font subset
      // at save). Bounded here with room for a machine shared with other work, where a turn's CPU time grows too;
      // what must never come back is a build that holds the thread for its whole length (seconds).
      expect(longestCpu).toBeLessThan(100)
    } finally {
      clearInterval(monitor)
      server.stop(true)
    }
  }, 60_000)
})
