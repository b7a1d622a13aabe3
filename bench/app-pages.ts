// The application's pages at scale, this tree against a baseline commit in the same run: a Business with 100,000
// documents and 100,000 Payments (bench/reports-seed.ts), 1000 Clients, 500 Products and a Receipt per completed
// Payment, served by each tree's own `bun src/main.ts serve` from source, a person signed in to each. Every page a
// person uses is asked of both servers in turn (A B, then B A, ...), so the machine's load falls on both alike; the
// pages only this tree has are timed alone.
//
//   bun bench/app-pages.ts [--baseline-ref fd0d0c8] [--documents 100000] [--payments 100000] [--runs 21]
//                          [--keep-baseline] [--no-baseline] [--pages REGEX] [--cpu]
//
// The baseline is the commit's tree unpacked under $TMPDIR (git archive: nothing is written into the repository or its
// worktrees); its node_modules is this tree's when both package-lock.json files are the same, else its own (`npm ci`
// in that folder, which writes nothing else; both servers run under the bun that runs this script). --keep-baseline
// keeps the folder for the next run. Each tree seeds its own database with its own seeder, migrations and people module
// (bench/app-pages-tree.ts). Prints per page the median and p90 time to first byte of each server, the ratio of the
// medians, and the page's own noise: how far the medians of the odd and even rounds of the same server stand apart
// (the larger of the two servers). A page is called slower only when its ratio exceeds 1 by more than that noise and
// than the run's typical noise (the median over pages). --cpu measures instead the CPU time each request costs the
// server, both trees' apps side by side in one process (bench/app-pages-cpu.ts): far steadier on a loaded machine.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argNumber, argValue } from './args'
import { signInCookie } from './app-sign-in'

/** The last commit on main before issue 34's work began (its branches all fork here, 2026-11-25). */
const ISSUE_34_BASELINE = 'fd0d0c8'
const ROOT = resolve(import.meta.dir, '..')
const documents = argNumber('documents', 100_000)
const payments = argNumber('payments', 100_000)
const runs = argNumber('runs', 21)
const keepBaseline = process.argv.includes('--keep-baseline')
const cpuMode = process.argv.includes('--cpu')
const withBaseline = !process.argv.includes('--no-baseline')
const baselineRef = argValue('baseline-ref') ?? ISSUE_34_BASELINE
// Only the pages whose name matches (e.g. --pages 'dashboard|Client page'), to look again at a few with more runs.
const only = new RegExp(argValue('pages') ?? '', 'i')
const WARM_UP = 3
const TTFB_DASHBOARD_MS = 150
const TTFB_DOCUMENT_MS = 20
const WEIGHT_KB = 100
// Seeded dates run over this year and the two before it: the servers run on the real clock, so the dashboard's year
// and twelve months hold documents.
const YEAR = new Date().getUTCFullYear()

function run(cmd: string[], cwd: string): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: 'pipe', stderr: 'pipe', env: process.env })
  if (p.exitCode !== 0) throw new Error(`${cmd.join(' ')} (in ${cwd}) exited ${p.exitCode}: ${p.stderr.toString()}`)
  return p.stdout.toString()
}

/** The baseline commit's tree, ready to run from source: unpacked once, its dependencies installed. */
function baselineTree(ref: string): { dir: string; sha: string; modules: string } {
  const sha = run(['git', 'rev-parse', '--verify', `${ref}^{commit}`], ROOT).trim()
  const dir = join(tmpdir(), `invoicing-baseline-${sha.slice(0, 12)}`)
  const ready = join(dir, '.bench-ready')
  if (existsSync(ready)) return { dir, sha, modules: readFileSync(ready, 'utf8') }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const tar = join(dir, '.tree.tar')
  run(['git', 'archive', '--format=tar', '-o', tar, sha], ROOT)
  run(['tar', '-xf', tar, '-C', dir], ROOT)
  rmSync(tar)
  let modules: string
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'))
    modules = "this tree's node_modules (same package-lock.json)"
  } else {
    // The dev dependencies too: the source serves /docs from @scalar/api-reference's files.
    console.log(`${sha.slice(0, 12)}'s package-lock.json differs from this tree's: npm ci in ${dir}`)
    run(['npm', 'ci', '--no-audit', '--no-fund'], dir)
    modules = 'its own node_modules (npm ci: its package-lock.json differs)'
  }
  writeFileSync(ready, modules)
  return { dir, sha, modules }
}

interface Ids {
  business: string
  document: number
  client: number
  draft: number
  payment: number
  product: number
  seconds: number
}

interface Server {
  name: string
  origin: string
  ids: Ids
  cookie: string
  proc: ReturnType<typeof Bun.spawn>
  stop(): Promise<void>
}

/** Seeds the tree's database with its own code (bench/app-pages-tree.ts): the file and the ids its pages ask for. */
function seedTree(name: string, tree: string, dir: string): { file: string; ids: Ids } {
  const file = join(dir, `${name}.db`)
  const t0 = performance.now()
  const out = run(
    [
      process.execPath,
      join(ROOT, 'bench/app-pages-tree.ts'),
      tree,
      file,
      String(documents),
      String(payments),
      String(YEAR),
    ],
    tree,
  )
  const ids = JSON.parse(out.trim().split('\n').at(-1)!) as Ids
  console.log(`${name}: seeded by its own code in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return { file, ids }
}

async function serveTree(name: string, tree: string, dir: string): Promise<Server> {
  const { file, ids } = seedTree(name, tree, dir)
  const proc = Bun.spawn([process.execPath, join(tree, 'src/main.ts'), 'serve', '--port', '0', '--db', file], {
    cwd: tree,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      TMPDIR: process.env.TMPDIR ?? '/tmp',
      INVOICING_RATE_LIMIT: '1000000000',
      // The hourly exchange-rate check (this tree only) must not reach out of the machine during the run.
      INVOICING_FX_URL: 'http://127.0.0.1:9/eurofxref-daily.xml',
      INVOICING_FX_ALLOW_PRIVATE: '1',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  let text = ''
  void (async () => {
    const decoder = new TextDecoder()
    const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      text += decoder.decode(value)
    }
  })()
  const deadline = Date.now() + 60_000
  let port = 0
  while (!port) {
    port = Number(/"msg":"listening","port":(\d+)/.exec(text)?.[1] ?? 0)
    if (proc.exitCode !== null) throw new Error(`${name}'s server exited ${proc.exitCode}: ${text}`)
    if (Date.now() > deadline) throw new Error(`${name}'s server did not start: ${text}`)
    await Bun.sleep(20)
  }
  const origin = `http://127.0.0.1:${port}`
  const server: Server = {
    name,
    origin,
    ids,
    cookie: '',
    proc,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
  server.cookie = await signInCookie((req) => fetch(req), origin, name)
  return server
}

/** One timed request: time to first byte (Bun's fetch resolves once the status line and headers are in), the HTML. */
async function ask(s: Server, path: string): Promise<{ ms: number; html: string }> {
  const t = performance.now()
  const res = await fetch(s.origin + path, { headers: { cookie: s.cookie }, redirect: 'manual' })
  const ms = performance.now() - t
  const html = await res.text()
  if (res.status !== 200) throw new Error(`${s.name} ${path} answered ${res.status}: ${html.slice(0, 300)}`)
  return { ms, html }
}

/** The page's weight: its HTML and every stylesheet and script it loads from the service. */
async function weightOf(s: Server, html: string): Promise<number> {
  let weight = Buffer.byteLength(html)
  const assets = new Set([...html.matchAll(/(?:href|src)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!))
  for (const a of assets) weight += (await (await fetch(s.origin + a)).arrayBuffer()).byteLength
  return weight
}

/** A page, by the ids of the server it is asked of; `next` follows the "next page" link of the path's page. */
interface Page {
  name: string
  path: (ids: Ids) => string
  next?: true
  onlyCurrent?: true
}
const b = (ids: Ids) => `/app/b/${ids.business}`
const PAGES: Page[] = [
  { name: 'dashboard', path: (i) => `${b(i)}/` },
  { name: 'documents list', path: (i) => `${b(i)}/documents` },
  { name: 'documents list, page 2', path: (i) => `${b(i)}/documents`, next: true },
  { name: 'documents: paid invoices', path: (i) => `${b(i)}/documents?type=invoice&status=paid` },
  {
    name: 'documents: one quarter',
    path: (i) => `${b(i)}/documents?issue_date_from=${YEAR - 1}-04-01&issue_date_to=${YEAR - 1}-06-30`,
  },
  { name: 'documents: search', path: (i) => `${b(i)}/documents?search=consulting` },
  { name: "documents: a Client's", path: (i) => `${b(i)}/documents?client_id=${i.client}` },
  { name: 'document page (paid)', path: (i) => `${b(i)}/documents/${i.document}` },
  { name: 'document: send form', path: (i) => `${b(i)}/documents/${i.document}/send` },
  { name: 'new Draft editor', path: (i) => `${b(i)}/documents/new?type=invoice` },
  { name: 'Draft editor (edit)', path: (i) => `${b(i)}/documents/${i.draft}/edit` },
  { name: 'editor: Client picker', path: (i) => `${b(i)}/pick/clients?client_q=bench+client+0004` },
  { name: 'Clients list', path: (i) => `${b(i)}/clients` },
  { name: 'Clients: search', path: (i) => `${b(i)}/clients?search=client+0004` },
  { name: 'Client page', path: (i) => `${b(i)}/clients/${i.client}` },
  { name: 'Client edit', path: (i) => `${b(i)}/clients/${i.client}/edit` },
  { name: 'new Client', path: (i) => `${b(i)}/clients/new` },
  { name: 'Products list', path: (i) => `${b(i)}/products` },
  { name: 'Products: search', path: (i) => `${b(i)}/products?search=product+04` },
  { name: 'Product edit', path: (i) => `${b(i)}/products/${i.product}/edit` },
  { name: 'Payments (Receipts) list', path: (i) => `${b(i)}/receipts` },
  { name: 'Payment page', path: (i) => `${b(i)}/payments/${i.payment}` },
  { name: 'reports (this month)', path: (i) => `${b(i)}/reports` },
  { name: 'reports (last year)', path: (i) => `${b(i)}/reports?from=${YEAR - 1}-01-01&to=${YEAR - 1}-12-31` },
  {
    name: "reports: a Client's statement",
    path: (i) => `${b(i)}/reports?from=${YEAR - 1}-01-01&to=${YEAR - 1}-12-31&client_id=${i.client}`,
  },
  { name: 'settings', path: (i) => `${b(i)}/settings` },
  { name: 'settings: Business', path: (i) => `${b(i)}/settings/business` },
  { name: 'settings: numbering', path: (i) => `${b(i)}/settings/numbering` },
  { name: 'settings: bank accounts', path: (i) => `${b(i)}/settings/bank-accounts` },
  { name: 'settings: mailbox', path: (i) => `${b(i)}/settings/mailbox` },
  { name: 'settings: members', path: (i) => `${b(i)}/settings/members` },
  { name: 'settings: API keys', path: (i) => `${b(i)}/settings/keys` },
  { name: 'settings: webhooks', path: (i) => `${b(i)}/settings/webhooks` },
  { name: 'settings: connected apps', path: (i) => `${b(i)}/settings/connected-apps` },
  { name: 'settings: billing', path: (i) => `${b(i)}/settings/billing` },
  { name: 'profile', path: () => '/app/profile' },
  { name: 'recurring invoices', path: (i) => `${b(i)}/recurring`, onlyCurrent: true },
  { name: 'new recurring invoice', path: (i) => `${b(i)}/recurring/new`, onlyCurrent: true },
  { name: 'settings: reminders', path: (i) => `${b(i)}/settings/reminders`, onlyCurrent: true },
  { name: 'bank statements', path: (i) => `${b(i)}/bank`, onlyCurrent: true },
  { name: 'import Clients', path: (i) => `${b(i)}/clients/import`, onlyCurrent: true },
  { name: 'import Products', path: (i) => `${b(i)}/products/import`, onlyCurrent: true },
  { name: 'settings: journal', path: (i) => `${b(i)}/settings/journal`, onlyCurrent: true },
]

/** The page's "next page" link, as each tree writes it (?after= before issue 34, ?cursor= since). */
async function nextOf(s: Server, path: string): Promise<string> {
  const { html } = await ask(s, path)
  const href = /<a[^>]*href="([^"]*(?:after|cursor)=[^"]*)"[^>]*>\s*Next/i.exec(html)?.[1]
  if (!href) throw new Error(`${s.name} ${path}: no next page link`)
  return href.replaceAll('&amp;', '&')
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!
}
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
/** How far the same server's odd and even rounds stand apart: the spread of a median of half the runs. */
const selfNoise = (xs: number[]) => {
  const odd = median(xs.filter((_, i) => i % 2 === 1))
  const even = median(xs.filter((_, i) => i % 2 === 0))
  return Math.max(odd, even) / Math.min(odd, even) - 1
}

interface Row {
  page: Page
  cur: { ms: number[]; html: number }
  base?: { ms: number[]; html: number }
  weight: number
}

const dir = mkdtempSync(join(tmpdir(), 'app-pages-bench-'))
const servers: Server[] = []
let baseline: ReturnType<typeof baselineTree> | null = null
try {
  const head = run(['git', 'rev-parse', '--short=12', 'HEAD'], ROOT).trim()
  const dirty = run(['git', 'status', '--porcelain', '--untracked-files=no'], ROOT).trim()
    ? ' + uncommitted changes'
    : ''
  if (withBaseline) {
    baseline = baselineTree(baselineRef)
    console.log(`baseline ${baseline.sha.slice(0, 12)} (${baselineRef}) in ${baseline.dir}, with ${baseline.modules}`)
  }
  console.log(
    `seeding each tree: ${documents.toLocaleString('en')} documents, ${payments.toLocaleString('en')} Payments, ${YEAR - 2}-${YEAR}`,
  )
  if (cpuMode) {
    // The CPU each page costs, both trees' apps in one child process (bench/app-pages-cpu.ts), no servers.
    const trees = [{ name: 'current', tree: ROOT }, ...(baseline ? [{ name: 'baseline', tree: baseline.dir }] : [])]
    const job = {
      runs,
      trees: trees.map(({ name, tree }) => {
        const { file, ids } = seedTree(name, tree, dir)
        const pages = PAGES.filter((p) => only.test(p.name) && (name === 'current' || !p.onlyCurrent))
        return { name, tree, db: file, pages: pages.map((p) => [p.name, p.path(ids), p.next === true]) }
      }),
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
    const child = Bun.spawn([process.execPath, join(ROOT, 'bench/app-pages-cpu.ts'), JSON.stringify(job)], {
      cwd: ROOT,
      stdout: 'inherit',
      stderr: 'inherit',
    })
    if ((await child.exited) !== 0) throw new Error('bench/app-pages-cpu.ts failed')
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  } else {
    const cur = await serveTree('current', ROOT, dir)
    servers.push(cur)
    const base = baseline ? await serveTree('baseline', baseline.dir, dir) : null
    if (base) servers.push(base)

    const load0 = loadavg()
    const rows: Row[] = []
    for (const page of PAGES.filter((p) => only.test(p.name))) {
      const both = base && !page.onlyCurrent ? [cur, base] : [cur]
      const paths = new Map<Server, string>()
      for (const s of both) paths.set(s, page.next ? await nextOf(s, page.path(s.ids)) : page.path(s.ids))
      const ms = new Map<Server, number[]>(both.map((s) => [s, []]))
      const html = new Map<Server, string>()
      for (let i = 0; i < WARM_UP + runs; i++) {
        // A B, then B A: neither server always goes first after the other's request.
        for (const s of i % 2 ? [...both].reverse() : both) {
          const r = await ask(s, paths.get(s)!)
          if (i >= WARM_UP) ms.get(s)!.push(r.ms)
          html.set(s, r.html)
        }
      }
      rows.push({
        page,
        cur: { ms: ms.get(cur)!, html: Buffer.byteLength(html.get(cur)!) },
        base: both.length > 1 ? { ms: ms.get(base!)!, html: Buffer.byteLength(html.get(base!)!) } : undefined,
        weight: await weightOf(cur, html.get(cur)!),
      })
    }
    const load1 = loadavg()

    const compared = rows.filter((r) => r.base)
    const noises = compared.map((r) => Math.max(selfNoise(r.cur.ms), selfNoise(r.base!.ms)))
    const typical = noises.length ? median(noises) : 0
    const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ')
    console.log('')
    console.log(
      `machine: ${cpus().length} cores; load average ${la(load0)} before the timed requests, ${la(load1)} after; ` +
        `${runs} timed requests per page and server after ${WARM_UP} warm-up, interleaved`,
    )
    console.log(
      `current: ${head}${dirty}` +
        (baseline ? `; baseline: ${baseline.sha.slice(0, 12)}; typical noise ${(typical * 100).toFixed(1)}%` : ''),
    )
    const f = (n: number) => n.toFixed(1)
    console.log(
      'page'.padEnd(32) +
        'current med'.padStart(12) +
        'p90'.padStart(8) +
        'baseline med'.padStart(13) +
        'p90'.padStart(8) +
        'ratio'.padStart(7) +
        'noise'.padStart(7) +
        'HTML KB cur/base'.padStart(18) +
        '  verdict',
    )
    let slower = 0
    for (const r of rows) {
      const cm = median(r.cur.ms)
      const kb = (n: number) => (n / 1024).toFixed(1)
      let line = r.page.name.padEnd(32) + `${f(cm)} ms`.padStart(12) + f(quantile(r.cur.ms, 0.9)).padStart(8)
      if (r.base) {
        const bm = median(r.base.ms)
        const ratio = cm / bm
        const noise = Math.max(selfNoise(r.cur.ms), selfNoise(r.base.ms))
        const slow = ratio - 1 > Math.max(noise, typical)
        if (slow) slower++
        line +=
          `${f(bm)} ms`.padStart(13) +
          f(quantile(r.base.ms, 0.9)).padStart(8) +
          ratio.toFixed(2).padStart(7) +
          `${(noise * 100).toFixed(0)}%`.padStart(7) +
          `${kb(r.cur.html)}/${kb(r.base.html)}`.padStart(18) +
          `  ${slow ? 'SLOWER' : ratio < 1 - Math.max(noise, typical) ? 'faster' : 'same'}`
      } else
        line +=
          (r.page.onlyCurrent ? 'new page' : '-').padStart(13) + ''.padStart(22) + `${kb(r.cur.html)}`.padStart(18)
      console.log(line)
    }
    const targets = [
      ['dashboard', TTFB_DASHBOARD_MS],
      ['document page (paid)', TTFB_DOCUMENT_MS],
    ] as const
    for (const [name, target] of targets) {
      const row = rows.find((r) => r.page.name === name)
      if (!row) continue
      const m = median(row.cur.ms)
      console.log(`target: ${name} TTFB < ${target} ms: ${f(m)} ms ${m < target ? 'PASS' : 'FAIL'}`)
    }
    const heaviest = rows.reduce((x, y) => (y.weight > x.weight ? y : x))
    console.log(
      `target: page weight < ${WEIGHT_KB} KB (HTML + stylesheet + scripts): heaviest ${heaviest.page.name} ` +
        `${(heaviest.weight / 1024).toFixed(1)} KB ${heaviest.weight < WEIGHT_KB * 1024 ? 'PASS' : 'FAIL'}`,
    )
    if (base) console.log(`pages slower than the baseline beyond the noise: ${slower} of ${compared.length}`)
  }
} finally {
  for (const s of servers) await s.stop()
  rmSync(dir, { recursive: true, force: true })
  if (baseline && !keepBaseline) rmSync(baseline.dir, { recursive: true, force: true })
}
