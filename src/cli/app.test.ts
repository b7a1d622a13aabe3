// `invoicing app webhook set` through the real CLI entry point, on the harness's database file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { createApp } from '../modules/oauth'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const bun = './node_modules/.bin/bun'
function cli(args: string[]) {
  const p = Bun.spawnSync([bun, 'src/main.ts', ...args, '--db', h.deps.config.dbPath, '--json'], {
    cwd: `${import.meta.dir}/../..`,
    env: { ...process.env, INVOICING_DB: '', INVOICING_WEBHOOK_ALLOW_PRIVATE: '1' },
  })
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString().trim() }
}

describe('invoicing app webhook set', () => {
  test("prints the app's webhook with its secret, shown only here; events are checked; an unknown app is refused", async () => {
    const app = await createApp(h.deps.db, h.clock, { ownerPersonId: 1, name: 'Hooked', redirectUris: ['https://hooked.example/cb'], public: true })
    const set = cli(['app', 'webhook', 'set', app.client_id, '--url', 'http://127.0.0.1:9/hook', '--events', 'document.issued,payment.recorded'])
    expect(set.code, set.err).toBe(0)
    const out = JSON.parse(set.out)
    expect(out).toMatchObject({ client_id: app.client_id, url: 'http://127.0.0.1:9/hook', events: ['document.issued', 'payment.recorded'] })
    expect(out.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/)
    const bad = cli(['app', 'webhook', 'set', app.client_id, '--url', 'http://127.0.0.1:9/hook', '--events', 'document.eaten'])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('events.0')
    const unknown = cli(['app', 'webhook', 'set', 'app_nobody', '--url', 'http://127.0.0.1:9/hook'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.err).toContain('app_nobody')
  })
})
