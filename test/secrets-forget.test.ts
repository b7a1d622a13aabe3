// A lost secret key with real processes (extensions §12): a database restored without FILE.key refuses to start in one
// line naming `invoicing secrets forget`; that command makes a new key and drops every sealed value (webhooks paused
// with "signing secret lost: roll it", the mailbox cleared, the OAuth app's webhook paused), and every record stays.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { keyFileOf } from '../src/db/secrets'
import { cli, seed, startServer, type Server, call, startReceiver } from './processes'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-forget-'))
const running: Server[] = []
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

const ENV = { INVOICING_WEBHOOK_ALLOW_PRIVATE: '1' }
const LOST = 'signing secret lost: roll it'

function ok(r: { code: number; out: string; err: string }): any {
  expect(r.code, r.err).toBe(0)
  return JSON.parse(r.out)
}

describe('invoicing secrets forget', () => {
  test('a backup restored without its key: refused at start naming the command; forget keeps every record, pauses the webhooks, clears the mailbox; rolling signs again', async () => {
    const { receiver, received } = startReceiver()
    try {
      const db = join(dir, 'restored.db')
      const { businessId, key } = seed(db, ENV)
      const hookUrl = `http://127.0.0.1:${receiver.port}/hook`
      ok(cli(['business', 'update', String(businessId), '--email', 'office@shop.example', '--db', db], { env: ENV }))
      ok(
        cli(
          [
            'mail',
            'set',
            String(businessId),
            '--smtp',
            'smtp://office@mail.example:587',
            '--from',
            'office@shop.example',
            '--password-stdin',
            '--db',
            db,
          ],
          { env: ENV, stdin: 'Pw-lost-with-the-key\n' },
        ),
      )
      const hook = ok(
        cli(
          ['webhook', 'add', String(businessId), '--url', hookUrl, '--events', 'document.issued', '--db', db, '--json'],
          { env: ENV },
        ),
      )
      ok(cli(['person', 'add', '--email', 'dev@apps.example', '--name', 'Dev', '--db', db, '--json'], { env: ENV }))
      const app = ok(
        cli(
          [
            'app',
            'create',
            '--owner',
            'dev@apps.example',
            '--name',
            'Books',
            '--redirect-uri',
            'https://books.example/cb',
            '--db',
            db,
            '--json',
          ],
          { env: ENV },
        ),
      )
      ok(cli(['app', 'webhook', 'set', app.client_id, '--url', hookUrl, '--db', db, '--json'], { env: ENV }))

      let server = await startServer(db, ENV)
      running.push(server)
      const client = await call(server, key, 'POST', '/v1/clients', {
        name: 'Acme',
        email: 'a@acme.example',
        country: 'DE',
      })
      expect(client.status).toBe(201)
      const doc = await call(server, key, 'POST', '/v1/documents', {
        type: 'invoice',
        client_id: client.body.id,
        lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '0' }],
      })
      expect((await call(server, key, 'POST', `/v1/documents/${doc.body.id}/issue`)).status).toBe(200)
      const draft = await call(server, key, 'POST', '/v1/documents', {
        type: 'invoice',
        client_id: client.body.id,
        lines: [{ description: 'More', quantity: '2', unit_price: '50.00', vat_rate: '0' }],
      })
      expect(draft.status).toBe(201)
      const before = (await call(server, key, 'GET', '/v1/documents')).body.data
      expect(before).toHaveLength(2)
      expect(await server.stop()).toBe(0)

      // Restored without the key file.
      rmSync(keyFileOf(db))
      const refused = await startServer(db, ENV).then(
        () => null,
        (e: Error) => e.message,
      )
      expect(refused).toContain(`invoicing secrets forget --db ${db}`)
      const line = cli(['key', 'list', String(businessId), '--db', db], { env: ENV })
      expect(line.code).toBe(1)
      expect(line.err.trim().split('\n')).toHaveLength(1)
      expect(line.err).toContain('is missing')
      expect(line.err).toContain(`"invoicing secrets forget --db ${db}"`)

      const forgot = ok(cli(['secrets', 'forget', '--db', db, '--json'], { env: ENV }))
      expect(forgot.new_key).toBe(keyFileOf(db))
      expect(existsSync(keyFileOf(db))).toBe(true)
      expect(forgot.dropped.webhooks).toEqual([{ id: hook.id, business_id: expect.any(String), url: hookUrl }])
      expect(forgot.dropped.app_webhooks).toEqual([{ client_id: app.client_id, url: hookUrl }])
      expect(forgot.dropped.mailboxes).toEqual([{ business_id: expect.any(String), from: 'office@shop.example' }])
      expect(forgot.summary).toContain('1 webhook signing secret(s) dropped')
      // Once the key opens the database, there is nothing to forget: refused, the new key kept.
      const again = cli(['secrets', 'forget', '--db', db], { env: ENV })
      expect(again.code).toBe(1)
      expect(again.err).toContain('nothing is lost')
      const keyText = readFileSync(keyFileOf(db), 'utf8')

      // A relay the Business could use is set: a cleared mailbox still does not hand its Sends to it unasked.
      server = await startServer(db, { ...ENV, INVOICING_MAIL_RELAY: 'smtp://127.0.0.1:9' })
      running.push(server)
      expect(readFileSync(keyFileOf(db), 'utf8')).toBe(keyText)
      const after = (await call(server, key, 'GET', '/v1/documents')).body.data
      expect(after.map((d: any) => [d.id, d.status, d.total])).toEqual(
        before.map((d: any) => [d.id, d.status, d.total]),
      )
      expect((await call(server, key, 'GET', `/v1/clients/${client.body.id}`)).body).toMatchObject({ name: 'Acme' })
      const paused = await call(server, key, 'GET', `/v1/webhooks/${hook.id}`)
      expect(paused.body).toMatchObject({
        url: hookUrl,
        events: ['document.issued'],
        paused: true,
        paused_reason: LOST,
      })
      const send = await call(server, key, 'POST', `/v1/documents/${draft.body.id}/send`)
      expect(send.status).toBe(422)
      expect(send.body.error.code).toBe('no_mail_provider')
      expect((await call(server, key, 'GET', '/v1/business')).body.mail_provider).toBeNull()

      // Turned on without a new secret it would sign with one no one has: refused, naming the way.
      const resume = await call(server, key, 'PATCH', `/v1/webhooks/${hook.id}`, { paused: false })
      expect(resume.status).toBe(422)
      expect(resume.body.error.errors.paused[0]).toContain('roll the secret')
      // Rolling the secret resumes the webhook; its deliveries verify with the new secret.
      const rolled = await call(server, key, 'POST', `/v1/webhooks/${hook.id}/roll-secret`)
      expect(rolled.status).toBe(200)
      expect(rolled.body).toMatchObject({ paused: false, paused_reason: null })
      received.length = 0
      expect((await call(server, key, 'POST', `/v1/documents/${draft.body.id}/issue`)).status).toBe(200)
      const deadline = Date.now() + 15_000
      while (
        !received.some(
          (r) => r.body.includes('document.issued') && new Webhook(rolled.body.secret).verify(r.body, r.headers),
        ) &&
        Date.now() < deadline
      )
        await Bun.sleep(50)
      const signed = received.filter((r) => r.headers['webhook-signature'] && r.body.includes(String(draft.body.id)))
      expect(signed.length).toBeGreaterThan(0)
      // One signature: no lost secret signs beside the new one.
      expect(signed[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(1)
      expect(new Webhook(rolled.body.secret).verify(signed[0]!.body, signed[0]!.headers)).toBeTruthy()
      expect(await server.stop()).toBe(0)

      // The app's webhook was paused likewise; setting it again gives it a secret and turns it on.
      const reset = ok(
        cli(['app', 'webhook', 'set', app.client_id, '--url', hookUrl, '--db', db, '--json'], { env: ENV }),
      )
      expect(reset).toMatchObject({ paused: false, secret: expect.stringMatching(/^whsec_/) })
    } finally {
      receiver.stop(true)
    }
  }, 120_000)

  test('invoicing secrets forget --help says what it does, and the CLI help lists it', () => {
    const help = cli(['secrets', 'forget', '--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('invoicing secrets forget [--db FILE_OR_URL]')
    expect(help.out).toContain('signing secret lost: roll it')
    expect(help.out).toContain('no_mail_provider')
    const all = cli(['--help'])
    expect(all.out).toMatch(/secrets\s+when the secret key is lost/)
    const wrong = cli(['secrets', 'remember'])
    expect(wrong.code).not.toBe(0)
    expect(wrong.err).toContain('usage: invoicing secrets forget')
  })

  test('a wrong key, in the key file or INVOICING_SECRET_KEY, is refused in one line naming the command; with INVOICING_SECRET_KEY set, forget seals under that key', async () => {
    const db = join(dir, 'wrong.db')
    const { businessId, key } = seed(db, ENV)
    const hook = ok(
      cli(['webhook', 'add', String(businessId), '--url', 'http://127.0.0.1:9/hook', '--db', db, '--json'], {
        env: ENV,
      }),
    )
    const other = Buffer.alloc(32, 7).toString('base64')
    writeFileSync(keyFileOf(db), other + '\n')
    for (const env of [ENV, { ...ENV, INVOICING_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') }]) {
      const r = cli(['key', 'list', String(businessId), '--db', db], { env })
      expect(r.code).toBe(1)
      expect(r.err.trim().split('\n')).toHaveLength(1)
      expect(r.err).toContain('is not the key')
      expect(r.err).toContain(`"invoicing secrets forget --db ${db}"`)
    }
    const env = { ...ENV, INVOICING_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') }
    const forgot = ok(cli(['secrets', 'forget', '--db', db, '--json'], { env }))
    expect(forgot).toMatchObject({ new_key: 'INVOICING_SECRET_KEY', old_key_file: null })
    expect(forgot.dropped.webhooks.map((w: any) => w.id)).toEqual([hook.id])
    const server = await startServer(db, env)
    running.push(server)
    expect((await call(server, key, 'GET', `/v1/webhooks/${hook.id}`)).body).toMatchObject({
      paused: true,
      paused_reason: LOST,
    })
    expect(await server.stop()).toBe(0)
  }, 60_000)
})
