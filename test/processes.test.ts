// Several real servers on one database file (extensions §12): the rate count is one count across processes and
// restarts, and two servers started at once on a new file both come up.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seed, startServer, type Server } from './processes'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-procs-'))
const running: Server[] = []
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

async function start(db: string): Promise<Server> {
  const s = await startServer(db)
  running.push(s)
  return s
}

async function get(s: Server, key: string): Promise<number> {
  const r = await fetch(`${s.url}/v1/business`, { headers: { authorization: `Bearer ${key}` } })
  await r.arrayBuffer()
  return r.status
}

/** Sends `n` requests of the key, `spread` at a time, alternating over the servers; the statuses in order sent. */
async function burst(servers: Server[], key: string, n: number, spread = 10): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < n; i += spread) {
    const batch = Array.from({ length: Math.min(spread, n - i) }, (_, j) =>
      get(servers[(i + j) % servers.length]!, key),
    )
    statuses.push(...(await Promise.all(batch)))
  }
  return statuses
}

describe('the rate count across processes', () => {
  test('300 requests of one key split across two servers on one file within a minute: 120 accepted, the rest 429', async () => {
    const db = join(dir, 'rate.db')
    const { key } = seed(db)
    const servers = [await start(db), await start(db)]
    const statuses = await burst(servers, key, 300)
    expect(statuses.filter((s) => s === 200)).toHaveLength(120)
    expect(statuses.filter((s) => s === 429)).toHaveLength(180)
    for (const s of servers) expect(await s.stop()).toBe(0)
  }, 60_000)

  test('a server restarted inside the window keeps the count: a key that spent 100 gets 20 more, not a fresh 120', async () => {
    const db = join(dir, 'restart.db')
    const { key } = seed(db)
    const first = await start(db)
    expect((await burst([first], key, 100)).every((s) => s === 200)).toBe(true)
    expect(await first.stop()).toBe(0)
    const again = await start(db)
    const statuses = await burst([again], key, 50)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true)
    expect(await again.stop()).toBe(0)
  }, 60_000)
})

describe('starting together', () => {
  test('two servers started at once on a new file both come up and serve, ten times over', async () => {
    for (let round = 0; round < 10; round++) {
      const db = join(dir, `fresh-${round}.db`)
      const pair = await Promise.all([start(db), start(db)])
      for (const s of pair) {
        const r = await fetch(`${s.url}/health`)
        expect(r.status).toBe(200)
        // The schema is whole in both: an unknown key is looked up in the keys table (401, not a 500).
        expect(
          (
            await fetch(`${s.url}/v1/clients`, {
              headers: { authorization: 'Bearer inv_0000000000000000000000000000' },
            })
          ).status,
        ).toBe(401)
      }
      for (const s of pair) expect(await s.stop()).toBe(0)
    }
  }, 120_000)
})
