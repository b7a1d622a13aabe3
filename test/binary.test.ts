// The compiled binary, copied alone into an empty folder: it migrates, its CLI makes a key, and it serves.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..')
let dir: string
let bin: string
let server: ReturnType<typeof Bun.spawn> | null = null

function run(args: string[]): { code: number; out: string; err: string } {
  const p = Bun.spawnSync([bin, ...args], { cwd: dir, env: { PATH: '/usr/bin:/bin', TMPDIR: dir, HOME: dir } })
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() }
}

beforeAll(() => {
  const build = Bun.spawnSync([process.execPath, 'scripts/build.ts'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (build.exitCode !== 0) throw new Error('build failed: ' + build.stderr.toString())
  // An empty folder with no node_modules above it, so the binary cannot lean on the repository's packages.
  dir = mkdtempSync(join(tmpdir(), 'invoicing-bin-'))
  for (let d = dir; d !== '/'; d = resolve(d, '..'))
    if (existsSync(join(d, 'node_modules'))) throw new Error(`node_modules above ${dir}`)
  bin = join(dir, 'invoicing')
  copyFileSync(join(ROOT, 'dist/invoicing'), bin)
  Bun.spawnSync(['chmod', '+x', bin])
}, 120_000)

afterAll(() => {
  server?.kill()
  rmSync(dir, { recursive: true, force: true })
})

async function waitForPort(proc: ReturnType<typeof Bun.spawn>): Promise<number> {
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader()
  let text = ''
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
    const m = /"msg":"listening","port":(\d+)/.exec(text)
    if (m) {
      reader.releaseLock()
      return Number(m[1])
    }
  }
  throw new Error('server did not start: ' + text)
}

describe('the compiled binary alone in an empty folder', () => {
  test('migrate creates the default database file ./invoicing.db', () => {
    const r = run(['migrate', '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ migrated: true })
    expect(existsSync(join(dir, 'invoicing.db'))).toBe(true)
  })

  test('a refused CLI command exits non-zero with one line on stderr', () => {
    const r = run(['business', 'create', '--name', 'X', '--country', 'ZZ', '--currency', 'EUR'])
    expect(r.code).not.toBe(0)
    expect(r.err.trim().split('\n')).toHaveLength(1)
    expect(r.err).toContain('country')
  })

  test('serves GET /v1/business for a key made with its own CLI, also while it runs', async () => {
    const b = run(['business', 'create', '--name', 'Binary GmbH', '--country', 'DE', '--currency', 'EUR', '--json'])
    expect(b.code).toBe(0)
    const business = JSON.parse(b.out)
    server = Bun.spawn([bin, 'serve', '--port', '0'], {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', TMPDIR: dir, HOME: dir },
      stderr: 'pipe',
      stdout: 'ignore',
    })
    const port = await waitForPort(server)
    // The key is made while the server runs on the same file.
    const k = run(['key', 'create', String(business.id), '--role', 'admin', '--name', 'ci', '--json'])
    expect(k.code).toBe(0)
    const { key } = JSON.parse(k.out)
    const res = await fetch(`http://127.0.0.1:${port}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ business_id: business.business_id, name: 'Binary GmbH', plan: 'pro' })
    // A PDF: the PDF engine and its fonts come out of the binary gzipped (scripts/build.ts); the fonts are embedded as
    // TrueType subsets, the East Asian ones read (synchronously) when a name needs them.
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const client = await (
      await fetch(`http://127.0.0.1:${port}/v1/clients`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Ærø Öl ΑΒΓ Жук 北京 東京 서울', email: 'c@binary.example', country: 'DE' }),
      })
    ).json()
    const line = { description: 'Beratung', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }
    const draft = await (
      await fetch(`http://127.0.0.1:${port}/v1/documents`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'invoice', client_id: client.id, lines: [line] }),
      })
    ).json()
    const pdf = await fetch(`http://127.0.0.1:${port}/v1/documents/${draft.id}/pdf`, { headers })
    expect(pdf.status).toBe(200)
    const bytes = Buffer.from(await pdf.arrayBuffer())
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const file = join(dir, 'draft.pdf')
    writeFileSync(file, bytes)
    const fonts = Bun.spawnSync(['pdffonts', file]).stdout.toString()
    for (const name of ['DejaVuSans', 'NotoSansSC-Regular', 'NotoSansKR-Regular']) expect(fonts).toContain(name)
    expect(Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', file, '-']).stdout.toString()).toContain(
      'Ærø Öl ΑΒΓ Жук 北京 東京 서울',
    )
    // Revoking through the CLI acts on the next request.
    const keys = JSON.parse(run(['key', 'list', String(business.id), '--json']).out)
    expect(keys[0]).not.toHaveProperty('key')
    expect(run(['key', 'revoke', String(keys[0].id)]).code).toBe(0)
    const after = await fetch(`http://127.0.0.1:${port}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
    expect(after.status).toBe(401)
    const docs = await fetch(`http://127.0.0.1:${port}/docs/assets/scalar.js`)
    expect(docs.status).toBe(200)
  }, 30_000)
})

/** A fresh empty folder under the binary's own (no node_modules above either), for tests that check no file appears. */
function emptyFolder(): string {
  return mkdtempSync(join(dir, 'empty-'))
}

function runIn(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): { code: number; out: string; err: string } {
  const p = Bun.spawnSync([bin, ...args], { cwd, env: { PATH: '/usr/bin:/bin', TMPDIR: dir, HOME: dir, ...env } })
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() }
}

/** Reads a stream until `pattern` matches the text so far (or throws after 15 s), giving the match and the text. */
async function readUntil(
  stream: ReadableStream<Uint8Array>,
  pattern: RegExp,
): Promise<{ match: RegExpExecArray; text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = stream.getReader()
  let text = ''
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    const m = pattern.exec(text)
    if (m) return { match: m, text, reader }
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  throw new Error(`never printed ${pattern}: ${text}`)
}

async function restOf(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return text
    text += new TextDecoder().decode(value)
  }
}

describe('the command line as people expect it (compiled binary, empty folder)', () => {
  test('--version prints the version and creates no file', () => {
    const cwd = emptyFolder()
    for (const flag of ['--version', '-V']) {
      const r = runIn(cwd, [flag])
      expect(r.code).toBe(0)
      expect(r.out).toMatch(/^invoicing \d+\.\d+\.\d+\n$/)
    }
    expect(readdirSync(cwd)).toEqual([])
  })

  test('-h and --help list every command; COMMAND --help prints that command; no file is created', () => {
    const cwd = emptyFolder()
    for (const flag of ['-h', '--help']) {
      const r = runIn(cwd, [flag])
      expect(r.code).toBe(0)
      for (const c of [
        'serve',
        'sandbox',
        'migrate',
        'business',
        'key',
        'bank-account',
        'mail',
        'webhook',
        'numbering',
      ])
        expect(r.out).toContain(`invoicing ${c}`)
    }
    const key = runIn(cwd, ['key', '--help'])
    expect(key.code).toBe(0)
    expect(key.out).toContain('invoicing key create BUSINESS_ID --role admin|member|viewer --name NAME')
    expect(key.out).not.toContain('invoicing webhook')
    const bank = runIn(cwd, ['bank-account', '-h'])
    expect(bank.out).toContain('invoicing bank-account add BUSINESS_ID')
    expect(readdirSync(cwd)).toEqual([])
  })

  test('an unknown command prints one line, exits 2 and creates no file', () => {
    const cwd = emptyFolder()
    const r = runIn(cwd, ['frobnicate', '--db', 'x.db'])
    expect(r.code).toBe(2)
    expect(r.out).toBe('')
    expect(r.err.trim().split('\n')).toEqual(['invoicing: unknown command "frobnicate"; run invoicing --help'])
    expect(readdirSync(cwd)).toEqual([])
  })

  test('every command but serve, migrate, sandbox and business create refuses a --db that does not exist, creating nothing', () => {
    const cwd = emptyFolder()
    const commands = [
      ['key', 'list', '1'],
      ['key', 'create', '1', '--role', 'admin', '--name', 'k'],
      ['key', 'revoke', '1'],
      ['business', 'update', '1', '--name', 'N'],
      ['bank-account', 'add', '1', '--name', 'A', '--iban', 'DE89370400440532013000'],
      ['mail', 'clear', '1'],
      ['webhook', 'list', '1'],
      ['numbering', 'set', '1', '--kind', 'invoice', '--pattern', 'I-{NNNN}'],
    ]
    for (const args of commands) {
      const named = runIn(cwd, [...args, '--db', 'typo.db'])
      expect(named.code).toBe(1)
      expect(named.err.trim().split('\n')).toHaveLength(1)
      expect(named.err).toContain('no database at typo.db')
      // The default database (./invoicing.db) is no different.
      const byDefault = runIn(cwd, args)
      expect(byDefault.err).toContain('no database at ./invoicing.db')
    }
    expect(readdirSync(cwd)).toEqual([])
    // business create and migrate make one.
    expect(
      runIn(cwd, ['business', 'create', '--name', 'B', '--country', 'DE', '--currency', 'EUR', '--db', 'new.db']).code,
    ).toBe(0)
    expect(runIn(cwd, ['migrate', '--db', 'other.db']).code).toBe(0)
    expect(
      readdirSync(cwd)
        .filter((f) => f.endsWith('.db'))
        .sort(),
    ).toEqual(['new.db', 'other.db'])
    // Dozens of processes started one after another: on a loaded 2-core machine more than the default 5 seconds.
  }, 60_000)

  test('with $TMPDIR missing, it prints one readable line and exits non-zero', () => {
    const cwd = emptyFolder()
    const r = runIn(cwd, ['migrate'], { TMPDIR: join(cwd, 'no-such-folder') })
    expect(r.code).not.toBe(0)
    expect(r.err.trim().split('\n')).toHaveLength(1)
    expect(r.err).toContain('no-such-folder')
    expect(r.err).toContain('TMPDIR')
    expect(r.err.length).toBeLessThan(300)
  })

  test('serve with no arguments says where it listens (127.0.0.1) and how to stop; INVOICING_LOG=requests logs one JSON line per request, and a line at shutdown', async () => {
    const cwd = emptyFolder()
    const business = JSON.parse(
      runIn(cwd, ['business', 'create', '--name', 'Logged', '--country', 'DE', '--currency', 'EUR', '--json']).out,
    )
    const { key } = JSON.parse(
      runIn(cwd, ['key', 'create', String(business.id), '--role', 'viewer', '--name', 'night job', '--json']).out,
    )
    // PORT=0 stands in for the default 8080, which another process on the machine may hold.
    const p = Bun.spawn([bin], {
      cwd,
      env: { PATH: '/usr/bin:/bin', TMPDIR: dir, HOME: dir, PORT: '0', INVOICING_LOG: 'requests' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    try {
      const { match, text } = await readUntil(p.stdout, /listening on http:\/\/127\.0\.0\.1:(\d+)[^\n]*\n[^\n]*\n/)
      expect(text).toContain('Ctrl+C')
      expect(text).toContain('invoicing.db')
      const port = Number(match[1])
      const noKey = await fetch(`http://127.0.0.1:${port}/v1/clients?search=secret-query`)
      expect(noKey.status).toBe(401)
      expect(noKey.headers.get('www-authenticate')).toStartWith('Bearer')
      const requestId = noKey.headers.get('x-request-id')
      const keyed = await fetch(`http://127.0.0.1:${port}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
      expect(keyed.status).toBe(200)
      p.kill('SIGTERM')
      expect(await p.exited).toBe(0)
      const lines = (await new Response(p.stderr).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      const req = lines.find((l) => l.msg === 'request')
      expect(req).toMatchObject({
        method: 'GET',
        path: '/v1/clients',
        status: 401,
        request_id: requestId,
        credential: null,
      })
      expect(typeof req.duration_ms).toBe('number')
      expect(lines.find((l) => l.msg === 'request' && l.path === '/v1/business')).toMatchObject({
        status: 200,
        credential: 'night job',
      })
      expect(JSON.stringify(lines)).not.toContain(key)
      expect(JSON.stringify(lines)).not.toContain('secret-query')
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped', signal: 'SIGTERM' })
    } finally {
      p.kill()
    }
  }, 30_000)

  test('sandbox removes its temporary folder when it stops', async () => {
    const cwd = emptyFolder()
    const tmp = mkdtempSync(join(dir, 'tmp-'))
    const p = Bun.spawn([bin, 'sandbox', '--port', '0', '--json'], {
      cwd,
      env: { PATH: '/usr/bin:/bin', TMPDIR: tmp, HOME: dir },
      stdout: 'pipe',
      stderr: 'ignore',
    })
    try {
      const { match } = await readUntil(p.stdout, /^(\{.*\})\n/)
      const info = JSON.parse(match[1]!) as { database: string }
      expect(existsSync(info.database)).toBe(true)
      expect(info.database.startsWith(tmp)).toBe(true)
      p.kill('SIGINT')
      expect(await p.exited).toBe(0)
      expect(existsSync(dirname(info.database))).toBe(false)
      expect(readdirSync(cwd)).toEqual([])
    } finally {
      p.kill()
    }
  }, 30_000)
})
