// `invoicing app webhook set` through the real CLI entry point, on the harness's database file.
import { describe, expect, test } from 'bun:test'
import { harnessForFile, type Harness } from '../../test/harness'
import { cliOnHarness } from '../../test/cli-on-harness'
import { createApp } from '../modules/oauth'
import { addPerson } from '../modules/people'

let h: Harness
harnessForFile((made) => (h = made))

const cli = (args: string[]) => cliOnHarness(h, args, { env: { INVOICING_WEBHOOK_ALLOW_PRIVATE: '1' } })

/** `invoicing app create` by the owner, under the name, with each redirect URI (and any further flags). */
const appCreate = (owner: string, name: string, redirectUris: string[], ...flags: string[]) =>
  cli([
    'app',
    'create',
    '--owner',
    owner,
    '--name',
    name,
    ...redirectUris.flatMap((u) => ['--redirect-uri', u]),
    ...flags,
  ])

/** `invoicing app webhook set` for the app, to the URL (and any further flags). */
const webhookSet = (clientId: string, url: string, ...flags: string[]) =>
  cli(['app', 'webhook', 'set', clientId, '--url', url, ...flags])

describe('invoicing app create', () => {
  test('prints the client_id and a secret shown once; --public has none; several redirect URIs; the owner must exist', async () => {
    await addPerson(h.deps, { email: 'dev@apps.example', name: 'Dev' })
    const made = appCreate('dev@apps.example', 'Books', ['https://books.example/cb', 'http://127.0.0.1/cb'])
    expect(made.code, made.err).toBe(0)
    const out = JSON.parse(made.out)
    expect(out.client_id).toStartWith('app_')
    expect(out.client_secret).toStartWith('inv_cs_')
    expect(out.redirect_uris).toEqual(['https://books.example/cb', 'http://127.0.0.1/cb'])
    const pub = JSON.parse(appCreate('dev@apps.example', 'Native', ['http://127.0.0.1/cb'], '--public').out)
    expect(pub.client_secret).toBeNull()
    const badUri = appCreate('dev@apps.example', 'Bad', ['http://books.example/cb'])
    expect(badUri.code).not.toBe(0)
    expect(badUri.err).toContain('redirect_uris.0')
    const nobody = appCreate('nobody@apps.example', 'X', ['https://x.example/cb'])
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
    const set = webhookSet(app.client_id, 'http://127.0.0.1:9/hook', '--events', 'document.issued,payment.recorded')
    expect(set.code, set.err).toBe(0)
    const out = JSON.parse(set.out)
    expect(out).toMatchObject({
      client_id: app.client_id,
      url: 'http://127.0.0.1:9/hook',
      events: ['document.issued', 'payment.recorded'],
    })
    expect(out.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/)
    const bad = webhookSet(app.client_id, 'http://127.0.0.1:9/hook', '--events', 'document.eaten')
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('events.0')
    const unknown = webhookSet('app_nobody', 'http://127.0.0.1:9/hook')
    expect(unknown.code).not.toBe(0)
    expect(unknown.err).toContain('app_nobody')
  })
})
