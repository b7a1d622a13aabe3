// The application's daily-work pages at scale: a Business with 100,000 documents and 100,000 Payments
// (bench/reports-seed.ts), served over HTTP by the service's own app (Bun.serve, in process), a person signed in.
// Times to first byte of the dashboard and of a document's page (median of runs after a warm-up), and page weights
// (HTML + the stylesheet + scripts the page loads).
//
//   bun bench/app-pages.ts [--documents 100000] [--payments 100000] [--runs 21]
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createDeps } from '../src/deps'
import { silentLogger } from '../src/shared/logger'
import { seedReports } from './reports-seed'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const documents = Number(option('documents') ?? 100_000)
const payments = Number(option('payments') ?? 100_000)
const runs = Number(option('runs') ?? 21)
const TTFB_DASHBOARD_MS = 150
const TTFB_DOCUMENT_MS = 20
const WEIGHT_KB = 100

const dir = mkdtempSync(join(tmpdir(), 'app-pages-bench-'))
const file = join(dir, 'app.db')
try {
  console.log(`seeding ${documents.toLocaleString('en')} documents and ${payments.toLocaleString('en')} Payments`)
  // The seeder spreads documents over three years; the clock below stands on the day after the last, as the
  // reports bench does, so the dashboard's year and twelve months hold documents.
  const seeded = await seedReports({
    file,
    documents,
    payments,
    clients: 1000,
    firstYear: 2023,
    lastYear: 2025,
    seed: 1,
  })
  console.log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s`)

  const clock = { now: () => new Date('2025-12-31T12:00:00.000Z') }
  const config = loadConfig({}, { dbPath: file, rateLimit: 1_000_000_000 })
  const deps = await createDeps(config, { clock: clock as never, logger: silentLogger })
  const { addPerson, choosePassword, addMember } = await import('../src/modules/people')
  const { person, token } = await addPerson(deps, { email: 'owner@bench.example', name: 'Bench Owner' })
  await choosePassword(deps, token, 'a long bench password')
  await addMember(deps, seeded.businessId, { email: 'owner@bench.example', role: 'owner' })
  void person
  const app = await buildApp(deps)
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => app.fetch(req) })
  const origin = `http://127.0.0.1:${server.port}`

  // Sign in through the form, as a browser does.
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const signInPage = await fetch(`${origin}/app/sign-in`)
  keep(signInPage)
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())?.[1] ?? ''
  const signed = await fetch(`${origin}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin },
    body: new URLSearchParams({
      _csrf: csrf,
      email: 'owner@bench.example',
      password: 'a long bench password',
    }).toString(),
  })
  keep(signed)
  if (signed.status !== 303) throw new Error(`sign-in answered ${signed.status}`)

  const biz = (
    await deps.db.read.all<{ public_id: string }>(sql`SELECT public_id FROM businesses WHERE id = ${seeded.businessId}`)
  )[0]!.public_id
  // A document with Payments and several Lines: the heaviest kind of document page.
  const doc = (
    await deps.db.read.all<{ id: number }>(
      sql`SELECT d.id FROM documents d WHERE d.business_id = ${seeded.businessId} AND d.status = 'paid' AND (SELECT count(*) FROM payments p WHERE p.document_id = d.id) >= 2 ORDER BY d.id DESC LIMIT 1`,
    )
  )[0]!.id

  async function measure(path: string) {
    const ttfb: number[] = []
    let html = ''
    for (let i = 0; i < runs + 3; i++) {
      const t = performance.now()
      const res = await fetch(origin + path, { headers: { cookie: cookie() } })
      // Bun's fetch resolves once the status line and headers are in: the time to first byte.
      const first = performance.now() - t
      const body = await res.text()
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 300)}`)
      if (i >= 3) ttfb.push(first)
      html = body
    }
    ttfb.sort((a, b) => a - b)
    // Page weight: the HTML and every stylesheet and script it loads from the service.
    const assets = [...html.matchAll(/(?:href|src)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    let weight = Buffer.byteLength(html)
    for (const a of new Set(assets)) weight += (await (await fetch(origin + a)).arrayBuffer()).byteLength
    return { median: ttfb[Math.floor(ttfb.length / 2)]!, min: ttfb[0]!, html: Buffer.byteLength(html), weight }
  }

  const dash = await measure(`/app/b/${biz}/`)
  const page = await measure(`/app/b/${biz}/documents/${doc}`)
  const list = await measure(`/app/b/${biz}/documents`)
  const editor = await measure(`/app/b/${biz}/documents/new?type=invoice`)
  server.stop(true)
  deps.db.close()

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log('')
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${runs} timed requests after 3 warm-up`,
  )
  console.log(
    'page'.padEnd(28) +
      'TTFB median'.padStart(13) +
      'min'.padStart(9) +
      'HTML'.padStart(11) +
      'weight'.padStart(11) +
      '  targets',
  )
  const row = (name: string, r: Awaited<ReturnType<typeof measure>>, target: number | null) =>
    console.log(
      name.padEnd(28) +
        `${r.median.toFixed(1)} ms`.padStart(13) +
        `${r.min.toFixed(1)}`.padStart(9) +
        kb(r.html).padStart(11) +
        kb(r.weight).padStart(11) +
        `  ${target === null ? '' : `TTFB < ${target} ms ${r.median < target ? 'PASS' : 'FAIL'}, `}weight < ${WEIGHT_KB} KB ${r.weight < WEIGHT_KB * 1024 ? 'PASS' : 'FAIL'}`,
    )
  row('dashboard', dash, TTFB_DASHBOARD_MS)
  row(`document ${doc}`, page, TTFB_DOCUMENT_MS)
  row('documents list (25)', list, null)
  row('editor (new invoice)', editor, null)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
