// The application's pages (issue 14): median time to first byte of the sign-in page and every settings page, their
// weight (HTML + CSS + scripts), and the binary's idle RSS after a browser session.
//   bun bench/settings-pages.ts [--binary dist/invoicing] [--rounds 200]
// Runs on 127.0.0.1 in a temp folder; prints one line per page and PASS/FAIL against the targets (5 ms, 60 KB, 100 MB).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'

const argv = process.argv.slice(2)
const opt = (name: string, d: string) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1]! : d
}
const binary = resolve(opt('binary', 'dist/invoicing'))
const rounds = Number(opt('rounds', '200'))
const dir = mkdtempSync(join(tmpdir(), 'invoicing-app-bench-'))
const db = join(dir, 'bench.db')
const port = 20000 + Math.floor(Math.random() * 20000)
const origin = `http://127.0.0.1:${port}`
const env = { ...process.env, INVOICING_DB: db, INVOICING_PUBLIC_URL: origin, PORT: String(port), HOST: '127.0.0.1' }

function cli(args: string[]): any {
  const p = Bun.spawnSync([binary, ...args, '--json'], { cwd: dir, env })
  if (p.exitCode !== 0) throw new Error(`${args.join(' ')}: ${p.stderr}`)
  return JSON.parse(p.stdout.toString())
}

const cookies = new Map<string, string>()
async function req(method: string, path: string, form?: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
  let body: string | undefined
  if (form) {
    body = new URLSearchParams(form).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  }
  const res = await fetch(origin + path, { method, headers, body, redirect: 'manual' })
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';')
    const eq = pair!.indexOf('=')
    cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1))
  }
  return res
}
const csrf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!

const person = cli(['person', 'add', '--email', 'bench@example.com', '--name', 'Bench Owner'])
const business = cli([
  'business',
  'create',
  '--name',
  'Bench GmbH',
  '--country',
  'DE',
  '--currency',
  'EUR',
  '--owner',
  'bench@example.com',
])
const server = Bun.spawn([binary, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
  cwd: dir,
  env,
  stdout: 'ignore',
  stderr: 'ignore',
})
try {
  for (let i = 0; ; i++) {
    if (i > 500) throw new Error('server did not start')
    if (
      await fetch(`${origin}/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break
    await Bun.sleep(20)
  }
  const linkPath = new URL(person.sign_in_link).pathname
  const form = await (await req('GET', linkPath)).text()
  const chosen = await req('POST', linkPath, { _csrf: csrf(form), password: 'bench password long' })
  if (chosen.status !== 303) throw new Error(`choose password: ${chosen.status}`)

  const base = `/app/b/${business.business_id}`
  const pages = [
    '/app/sign-in',
    ...[
      'business',
      'members',
      'keys',
      'webhooks',
      'connected-apps',
      'mailbox',
      'bank-accounts',
      'numbering',
      'billing',
    ].map((p) => `${base}/settings/${p}`),
  ]
  const css = (await (await fetch(`${origin}/app/assets/app.css`)).arrayBuffer()).byteLength
  let ok = true
  console.log(`page                                   median TTFB   p95 TTFB   weight (HTML + CSS)`)
  for (const path of pages) {
    const times: number[] = []
    let bytes = 0
    for (let i = 0; i < rounds + 20; i++) {
      const headers = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      const t0 = performance.now()
      const res = await fetch(origin + path, { headers, redirect: 'manual' })
      const t1 = performance.now()
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
      if (i >= 20) times.push(t1 - t0)
      bytes = Buffer.byteLength(text)
    }
    times.sort((a, b) => a - b)
    const median = times[Math.floor(times.length / 2)]!
    const p95 = times[Math.floor(times.length * 0.95)]!
    const weight = bytes + css
    const pass = median < 5 && weight < 60 * 1024
    ok &&= pass
    const name = path.replace(base, '').padEnd(38)
    console.log(
      `${name} ${median.toFixed(2).padStart(8)} ms ${p95.toFixed(2).padStart(8)} ms   ${(weight / 1024).toFixed(1)} KB  ${pass ? 'PASS' : 'FAIL'}`,
    )
  }

  // A browser session through every page, then the server left idle.
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  const page = await browser.newPage()
  await page.goto(`${origin}/app/sign-in`)
  await page.getByLabel('Email').fill('bench@example.com')
  await page.getByLabel('Password').fill('bench password long')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${origin}${base}`)
  for (let round = 0; round < 5; round++) for (const path of pages.slice(1)) await page.goto(origin + path)
  await browser.close()
  await Bun.sleep(5000)
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)![1])
  const rssPass = rssKb < 100 * 1024
  ok &&= rssPass
  console.log(`idle RSS after a browser session: ${(rssKb / 1024).toFixed(1)} MB  ${rssPass ? 'PASS' : 'FAIL'}`)
  console.log(ok ? 'all PASS' : 'some FAIL')
} finally {
  server.kill()
  await server.exited
  rmSync(dir, { recursive: true, force: true })
}
