// `invoicing sandbox`: a throwaway Test business with sample data and an Admin key printed once, then serving.
import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Subprocess } from 'bun'

const bun = './node_modules/.bin/bun'
const cwd = `${import.meta.dir}/../..`
const env = { ...process.env, INVOICING_DB: '' }
const running: Subprocess[] = []
afterAll(() => {
  for (const p of running) p.kill()
})

/** The first line the sandbox prints on stdout (its --json summary), or throws after 20 s. */
async function firstLine(p: Subprocess<'ignore', 'pipe', 'pipe'>): Promise<string> {
  const reader = p.stdout.getReader()
  let text = ''
  const deadline = Date.now() + 20_000
  while (!text.includes('\n')) {
    if (Date.now() > deadline) throw new Error('sandbox printed nothing within 20 s')
    const { value, done } = await reader.read()
    if (done) throw new Error(`sandbox ended: ${await new Response(p.stderr).text()}`)
    text += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return text.split('\n')[0]!
}

describe('invoicing sandbox', () => {
  test('serves a Test business with sample Clients and documents to the Admin key it printed, at the address it printed', async () => {
    const p = Bun.spawn([bun, 'src/main.ts', 'sandbox', '--port', '0', '--json'], {
      cwd,
      env,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    running.push(p)
    const info = JSON.parse(await firstLine(p)) as {
      url: string
      api_key: string
      database: string
      business_id: string
      owner: string
      sign_in_link: string
    }
    try {
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*\/v1$/)
      const auth = { authorization: `Bearer ${info.api_key}` }
      const business = await (await fetch(`${info.url}/business`, { headers: auth })).json()
      expect(business).toMatchObject({ business_id: info.business_id, is_test: true })
      expect(['pro', 'pro_plus']).toContain(business.plan)
      const clients = await (await fetch(`${info.url}/clients`, { headers: auth })).json()
      expect(clients.data.length).toBeGreaterThanOrEqual(3)
      const documents = await (await fetch(`${info.url}/documents?limit=100`, { headers: auth })).json()
      expect(documents.data.length).toBeGreaterThan(0)
      for (const d of documents.data.filter((x: { document_number: string | null }) => x.document_number))
        expect(d.document_number).toStartWith('TEST-')
      // The Owner's one-time link opens the page to choose a password, on the same server.
      expect(info.owner).toBe('owner@sandbox.example')
      expect(info.sign_in_link).toStartWith(info.url.replace(/\/v1$/, '/app/sign-in/link/'))
      const link = await fetch(info.sign_in_link)
      expect(link.status).toBe(200)
      expect(await link.text()).toContain('Choose a password')
    } finally {
      p.kill()
      await p.exited
      rmSync(dirname(info.database), { recursive: true, force: true })
    }
  }, 30_000)

  test('a --port that is not a port number is refused with one line and exit 2, before any key is made', () => {
    for (const port of ['abc', '70000', '-1', '']) {
      const p = Bun.spawnSync([bun, 'src/main.ts', 'sandbox', '--port', port], { cwd, env })
      expect(p.exitCode).toBe(2)
      expect(p.stdout.toString()).toBe('')
      expect(p.stderr.toString().trim().split('\n')).toHaveLength(1)
      expect(p.stderr.toString()).toContain('--port')
    }
    // Four processes started one after another: on a loaded 2-core machine that is more than the default 5 seconds.
  }, 30_000)
})
