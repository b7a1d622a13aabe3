// The compiled binary, copied alone into an empty folder: it migrates, its CLI makes a key, and it serves.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

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
  for (let d = dir; d !== '/'; d = resolve(d, '..')) if (existsSync(join(d, 'node_modules'))) throw new Error(`node_modules above ${dir}`)
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
    server = Bun.spawn([bin, 'serve', '--port', '0'], { cwd: dir, env: { PATH: '/usr/bin:/bin', TMPDIR: dir, HOME: dir }, stderr: 'pipe', stdout: 'ignore' })
    const port = await waitForPort(server)
    // The key is made while the server runs on the same file.
    const k = run(['key', 'create', String(business.id), '--role', 'admin', '--name', 'ci', '--json'])
    expect(k.code).toBe(0)
    const { key } = JSON.parse(k.out)
    const res = await fetch(`http://127.0.0.1:${port}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ business_id: business.business_id, name: 'Binary GmbH', plan: 'pro' })
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
