// `invoicing app webhook set` through the real CLI entry point, on the harness's database file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { createApp } from '../modules/oauth'
import { addPerson } from '../modules/people'

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

describe('invoicing app create', () => {
  test('prints the client_id and a secret shown once; --public has none; several redirect URIs; the owner must exist', async () => {
    await addPerson(h.deps, { email: 'dev@apps.example', name: 'Dev' })
    const made = cli([
      'app',
      'create',
      '--owner',
      'dev@apps.example',
      '--name',
      'Books',
      '--redirect-uri',
      'https://books.example/cb',
      '--redirect-uri',
      'http://127.0.0.1/cb',
    ])
    expect(made.code, made.err).toBe(0)
    const out = JSON.parse(made.out)
    expect(out.client_id).toStartWith('app_')
    expect(out.client_secret).toStartWith('inv_cs_')
    expect(out.redirect_uris).toEqual(['https://books.example/cb', 'http://127.0.0.1/cb'])
    const pub = JSON.parse(
      cli([
        'app',
        'create',
        '--owner',
        'dev@apps.example',
        '--name',
        'Native',
        '--redirect-uri',
        'http://127.0.0.1/cb',
        '--public',
      ]).out,
    )
    expect(pub.client_secret).toBeNull()
    const badUri = cli([
      'app',
      'create',
      '--owner',
      'dev@apps.example',
      '--name',
      'Bad',
      '--redirect-uri',
      'http://books.example/cb',
    ])
    expect(badUri.code).not.toBe(0)
    expect(badUri.err).toContain('redirect_uris.0')
    const nobody = cli([
      'app',
      'create',
      '--owner',
      'nobody@apps.example',
      '--name',
      'X',
      '--redirect-uri',
      'https://x.example/cb',
    ])
    expect(nobody.code).not.toBe(0)
    expect(nobody.err).toContain('nobody@apps.example')
  })
})

describe('invoicing app webhook set', () => {
  test("prints the app's webhook with its secret, shown only here; events are checked; an unknown app is refused", async () => {
    const app = await createApp(h.deps.db, h.clock, {
      ownerPersonId: 1,
      name: 'Hooked',
      redirectUris: ['https://hooked.example/cb'],
      public: true,
    })
    const set = cli([
      'app',
      'webhook',
      'set',
      app.client_id,
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'document.issued,payment.recorded',
    ])
    expect(set.code, set.err).toBe(0)
    const out = JSON.parse(set.out)
    expect(out).toMatchObject({
      client_id: app.client_id,
      url: 'http://127.0.0.1:9/hook',
      events: ['document.issued', 'payment.recorded'],
    })
    expect(out.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/)
    const bad = cli([
      'app',
      'webhook',
      'set',
      app.client_id,
      '--url',
      'http://127.0.0.1:9/hook',
      '--events',
      'document.eaten',
    ])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('events.0')
    const unknown = cli(['app', 'webhook', 'set', 'app_nobody', '--url', 'http://127.0.0.1:9/hook'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.err).toContain('app_nobody')
  })
})
