// An OAuth app's webhook after `invoicing secrets forget` (extensions §12), as its owner manages it in the
// application: paused with "signing secret lost: roll it"; turning it on without a new secret is refused; saving it
// again gives a new secret, shown once, and turns it on.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { forgetSecrets, SECRET_LOST_REASON } from '../../db/secrets'
import { parseKey, secretBox } from '../../shared/secret-box'
import { addPerson } from '../people'
import { createApp, ownedApp, pauseOwnedAppWebhook, setOwnedAppWebhook } from '.'

let h: Harness
beforeAll(async () => {
  h = await makeHarness({ config: { webhookAllowPrivate: true } })
})
afterAll(() => h.close())

describe("an OAuth app's webhook whose secret was forgotten", () => {
  test('is paused with the reason; turning it on is refused; saving it again gives a new secret and turns it on', async () => {
    const { person } = await addPerson(h.deps, { email: 'dev@lost.example', name: 'Dev' })
    const app = await createApp(h.deps.db, h.clock, {
      ownerPersonId: person.id,
      name: 'Books',
      redirectUris: ['https://books.example/cb'],
      public: true,
    })
    const deps = { db: h.deps.db, clock: h.clock, resolve: h.deps.resolve, allowPrivate: true }
    const first = await setOwnedAppWebhook(deps, person.id, app.client_id, {
      url: 'http://127.0.0.1:9/hook',
      events: [],
    })
    expect(first.secret).toStartWith('whsec_')
    // Saved again while its secret is known: the secret is kept (none shown).
    expect(
      (await setOwnedAppWebhook(deps, person.id, app.client_id, { url: 'http://127.0.0.1:9/hook', events: [] })).secret,
    ).toBeNull()

    // The key lost: forgotten under a new one (INVOICING_SECRET_KEY), which the process then runs with.
    const newKey = Buffer.alloc(32, 3).toString('base64')
    const forgot = await forgetSecrets(h.deps.db, newKey, h.clock.now().toISOString())
    expect(forgot.app_webhooks).toEqual([{ client_id: app.client_id, url: 'http://127.0.0.1:9/hook' }])
    h.deps.db.secrets = secretBox(parseKey(newKey)!)
    expect((await ownedApp(h.deps.db, person.id, app.client_id)).webhook).toMatchObject({
      paused: true,
      paused_reason: SECRET_LOST_REASON,
    })

    await expect(
      pauseOwnedAppWebhook(h.deps.db, person.id, app.client_id, false, h.clock.now().toISOString()),
    ).rejects.toMatchObject({
      errors: { paused: [expect.stringContaining('save the webhook again')] },
    })
    const again = await setOwnedAppWebhook(deps, person.id, app.client_id, {
      url: 'http://127.0.0.1:9/hook',
      events: [],
    })
    expect(again.secret).toStartWith('whsec_')
    expect(again.secret).not.toBe(first.secret)
    expect((await ownedApp(h.deps.db, person.id, app.client_id)).webhook).toMatchObject({
      paused: false,
      paused_reason: null,
    })
  })
})
