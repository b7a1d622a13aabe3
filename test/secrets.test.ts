// Secrets at rest with real processes: webhook signing secrets and mailbox passwords never stand in clear in the
// database file; a wrong key refuses to start in one line; deliveries still verify with `standardwebhooks`; rows
// stored in plaintext before are sealed at the next start.
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { Webhook } from 'standardwebhooks'
import { keyFileOf } from '../src/db/secrets'
import { parseKey, secretBox } from '../src/shared/secret-box'
import { cli, seed, startServer, type Server, call, startReceiver } from './processes'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-secrets-'))
const running: Server[] = []
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

const ENV = { INVOICING_WEBHOOK_ALLOW_PRIVATE: '1' }
const PASSWORD = 'Pw-that-must-never-show-7f3a9c'

/** Every byte of the database: the main file and whatever WAL is beside it. */
function databaseBytes(db: string): Buffer {
  return Buffer.concat([db, `${db}-wal`].filter(existsSync).map((f) => readFileSync(f)))
}

describe('secrets at rest', () => {
  test('the database file holds no webhook secret or SMTP password in clear, and a delivery still verifies with standardwebhooks', async () => {
    const { receiver, received } = startReceiver()
    try {
      const db = join(dir, 'sealed.db')
      const { businessId, key } = seed(db, ENV)
      expect(
        cli(
          ['bank-account', 'add', String(businessId), '--name', 'Main', '--iban', 'DE89370400440532013000', '--db', db],
          { env: ENV },
        ).code,
      ).toBe(0)
      const mail = cli(
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
        {
          env: ENV,
          stdin: PASSWORD + '\n',
        },
      )
      expect(mail.err).toBe('')
      expect(statSync(keyFileOf(db)).mode & 0o777).toBe(0o600)

      const server = await startServer(db, ENV)
      running.push(server)
      const hook = await call(server, key, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${receiver.port}/hook` })
      expect(hook.status).toBe(201)
      const rolled = await call(server, key, 'POST', `/v1/webhooks/${hook.body.id}/roll-secret`)
      expect(rolled.status).toBe(200)
      const client = await call(server, key, 'POST', '/v1/clients', {
        name: 'Acme',
        email: 'a@acme.example',
        country: 'DE',
      })
      const doc = await call(server, key, 'POST', '/v1/documents', {
        type: 'invoice',
        client_id: client.body.id,
        lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '0' }],
      })
      expect((await call(server, key, 'POST', `/v1/documents/${doc.body.id}/issue`)).status).toBe(200)
      const deadline = Date.now() + 10_000
      while (received.length === 0 && Date.now() < deadline) await Bun.sleep(20)
      expect(received.length).toBeGreaterThan(0)
      // Signed by both secrets during the roll's overlap: each verifies on its own.
      for (const secret of [rolled.body.secret, hook.body.secret])
        expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toBeTruthy()
      expect(await server.stop()).toBe(0)

      const bytes = databaseBytes(db)
      expect(bytes.length).toBeGreaterThan(0)
      for (const secret of [hook.body.secret as string, rolled.body.secret as string]) {
        // The secret as shown, and its key part alone (base64 after whsec_).
        expect(bytes.includes(secret)).toBe(false)
        expect(bytes.includes(secret.slice('whsec_'.length))).toBe(false)
      }
      expect(bytes.includes(PASSWORD)).toBe(false)
      expect(bytes.includes(encodeURIComponent(PASSWORD))).toBe(false)
    } finally {
      receiver.stop(true)
    }
  }, 60_000)

  test('a wrong key refuses to start in one clear line, serving nothing', async () => {
    const db = join(dir, 'wrong.db')
    seed(db)
    const other = Buffer.alloc(32, 7).toString('base64')
    const envs: Record<string, string>[] = [{ INVOICING_SECRET_KEY: other }, {}]
    for (const env of envs) {
      if (!('INVOICING_SECRET_KEY' in env)) writeFileSync(keyFileOf(db), other + '\n')
      await expect(startServer(db, env)).rejects.toThrow(/exited 1/)
      const r = cli(['key', 'list', '1', '--db', db], { env })
      expect(r.code).toBe(1)
      const lines = r.err.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/is not the key this database's secrets were sealed with/)
    }
    // A malformed key is told as such.
    const bad = cli(['key', 'list', '1', '--db', db], { env: { INVOICING_SECRET_KEY: 'short' } })
    expect(bad.err.trim()).toMatch(/INVOICING_SECRET_KEY must be 32 bytes/)
  }, 30_000)

  test('webhook secrets and SMTP URLs stored in plaintext before are sealed at the next start and open to what they were', async () => {
    const db = join(dir, 'legacy.db')
    const { businessId } = seed(db, ENV)
    const add = cli(['webhook', 'add', String(businessId), '--url', 'http://127.0.0.1:9/hook', '--db', db, '--json'], {
      env: ENV,
    })
    expect(add.code).toBe(0)
    const hook = JSON.parse(add.out)
    // As an earlier version stored them: in clear.
    const raw = new Database(db)
    raw
      .prepare('UPDATE webhooks SET secret = ?, previous_secret = ? WHERE id = ?')
      .run(hook.secret, hook.secret, hook.id)
    raw
      .prepare(
        `INSERT INTO mailboxes (business_id, kind, from_address, smtp_url, created_at, updated_at) VALUES (?, 'smtp', 'o@shop.example', ?, 'x', 'x')`,
      )
      .run(businessId, `smtp://office:${PASSWORD}@mail.example:587`)
    raw.close()
    expect(databaseBytes(db).includes(PASSWORD)).toBe(true)

    // Any start seals them: a CLI command is enough.
    expect(cli(['key', 'list', String(businessId), '--db', db], { env: ENV }).code).toBe(0)
    const check = new Database(db, { readonly: true } as never)
    const row = check.prepare('SELECT secret, previous_secret FROM webhooks WHERE id = ?').get(hook.id) as {
      secret: string
      previous_secret: string
    }
    const mailbox = check.prepare('SELECT smtp_url FROM mailboxes WHERE business_id = ?').get(businessId) as {
      smtp_url: string
    }
    check.close()
    expect(row.secret).toStartWith('enc:v1:')
    expect(row.previous_secret).toStartWith('enc:v1:')
    expect(mailbox.smtp_url).toStartWith('enc:v1:')
    const box = secretBox(parseKey(readFileSync(keyFileOf(db), 'utf8'))!)
    expect(box.open(row.secret, 'webhook-secret')).toBe(hook.secret)
    expect(box.open(row.previous_secret, 'webhook-secret')).toBe(hook.secret)
    expect(box.open(mailbox.smtp_url, 'smtp-url')).toBe(`smtp://office:${PASSWORD}@mail.example:587`)
    // A clean stop of a server moves the WAL into the file: the plaintext is gone from every page.
    const server = await startServer(db, ENV)
    running.push(server)
    expect(await server.stop()).toBe(0)
    const bytes = databaseBytes(db)
    expect(bytes.includes(PASSWORD)).toBe(false)
    expect(bytes.includes(hook.secret.slice('whsec_'.length))).toBe(false)
  }, 30_000)
})
