// The real SMTP mailer against a local SMTP server: what arrives, and how each kind of failure is told apart.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { closedPort, startTestSmtpServer, type TestSmtpServer } from './smtp-test-server'
import {
  FakeMailer,
  MailerError,
  parseSmtpUrl,
  redactSmtpUrl,
  smtpMailer,
  transportOptions,
  type MailMessage,
} from './smtp'

let server: TestSmtpServer
const fast = { connectionMs: 2000, greetingMs: 300, socketMs: 2000 }
const mailer = smtpMailer(fast)

beforeAll(async () => {
  server = await startTestSmtpServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.received.length = 0
  server.refuse.clear()
  server.behaviour = 'accept'
  server.credentials = null
})

function message(over: Partial<MailMessage> = {}): MailMessage {
  return {
    from: { name: 'Shop Ltd', address: 'office@shop.example' },
    to: ['anna@client.example'],
    cc: [],
    bcc: [],
    subject: 'Invoice INV-2026-0001',
    text: 'Please find the invoice attached.',
    attachments: [
      {
        filename: 'INV-2026-0001.pdf',
        content: new Uint8Array([0x25, 0x50, 0x44, 0x46]),
        contentType: 'application/pdf',
      },
    ],
    ...over,
  }
}

async function failure(p: Promise<unknown>): Promise<MailerError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(MailerError)
    return e as MailerError
  }
  throw new Error('the send did not fail')
}

describe('sending', () => {
  test('the email arrives with its From, To, Cc, subject, text and attachment; Bcc is in the envelope only', async () => {
    const r = await mailer.send(server.url, message({ cc: ['ben@client.example'], bcc: ['books@shop.example'] }))
    expect(r.accepted).toEqual(['anna@client.example', 'ben@client.example', 'books@shop.example'])
    expect(server.received).toHaveLength(1)
    const got = server.received[0]!
    expect(got.envelope.from).toBe('office@shop.example')
    expect(got.envelope.to).toEqual(['anna@client.example', 'ben@client.example', 'books@shop.example'])
    expect(got.mail.from?.value[0]).toEqual({ name: 'Shop Ltd', address: 'office@shop.example' })
    expect(got.mail.subject).toBe('Invoice INV-2026-0001')
    expect(got.mail.text?.trim()).toBe('Please find the invoice attached.')
    expect(got.mail.headers.has('bcc')).toBe(false)
    expect(got.raw.toString('latin1')).not.toContain('books@shop.example')
    expect(got.mail.attachments).toHaveLength(1)
    expect(got.mail.attachments[0]!.filename).toBe('INV-2026-0001.pdf')
    expect(got.mail.attachments[0]!.contentType).toBe('application/pdf')
    expect([...got.mail.attachments[0]!.content]).toEqual([0x25, 0x50, 0x44, 0x46])
    expect(r.messageId).toMatch(/^<.+>$/)
    expect(got.mail.messageId).toBe(r.messageId)
  })

  test('the login in the URL is used, percent-decoded', async () => {
    server.credentials = { user: 'office@shop.example', pass: 'p@ss:w/rd' }
    await mailer.send(`smtp://office%40shop.example:p%40ss%3Aw%2Frd@127.0.0.1:${server.port}`, message())
    expect(server.received[0]!.login).toEqual({ user: 'office@shop.example', pass: 'p@ss:w/rd' })
  })
})

describe('failures', () => {
  test('a refused recipient is refused: nothing was sent', async () => {
    server.refuse.add('anna@client.example')
    const e = await failure(mailer.send(server.url, message()))
    expect(e.reason).toBe('refused')
    expect(e.maybeSent).toBe(false)
    expect(e.smtpCode).toBe(550)
    expect(server.received).toHaveLength(0)
  })

  test('some recipients refused and others taken: refused, but the email went to those taken', async () => {
    server.refuse.add('ben@client.example')
    const e = await failure(mailer.send(server.url, message({ cc: ['ben@client.example'] })))
    expect(e.reason).toBe('refused')
    expect(e.accepted).toEqual(['anna@client.example'])
    expect(e.maybeSent).toBe(true)
    expect(server.received).toHaveLength(1)
  })

  test('a wrong login is refused and its password is in no message', async () => {
    server.credentials = { user: 'office', pass: 'right' }
    const e = await failure(mailer.send(`smtp://office:wrong-secret@127.0.0.1:${server.port}`, message()))
    expect(e.reason).toBe('refused')
    expect(e.message).not.toContain('wrong-secret')
  })

  test('nothing listening: unreachable, nothing sent', async () => {
    const e = await failure(mailer.send(`smtp://127.0.0.1:${await closedPort()}`, message()))
    expect(e.reason).toBe('unreachable')
    expect(e.maybeSent).toBe(false)
  })

  test('a server that never greets: unreachable after the greeting timeout', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const started = Date.now()
      const e = await failure(mailer.send(`smtp://127.0.0.1:${silent.port}`, message()))
      expect(e.reason).toBe('unreachable')
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      silent.stop(true)
    }
  })

  test('the connection cut once the message is in: interrupted, it may have gone out', async () => {
    server.behaviour = 'cut_after_data'
    const e = await failure(mailer.send(server.url, message()))
    expect(e.reason).toBe('interrupted')
    expect(e.maybeSent).toBe(true)
  })
})

describe('server URLs', () => {
  test('smtp:// must upgrade with STARTTLS (TLS 1.2 at least) except on loopback; smtps:// is TLS from the start', () => {
    expect(parseSmtpUrl('smtp://mail.example')).toEqual({
      secure: false,
      host: 'mail.example',
      port: 587,
      user: null,
      pass: null,
    })
    expect(parseSmtpUrl('smtps://u:p@mail.example')).toEqual({
      secure: true,
      host: 'mail.example',
      port: 465,
      user: 'u',
      pass: 'p',
    })
    expect(transportOptions('smtp://127.0.0.1:2525').options).toMatchObject({
      secure: false,
      ignoreTLS: true,
      requireTLS: false,
      port: 2525,
    })
    // A server (or someone in between) that offers no STARTTLS is refused: the login never crosses in clear.
    expect(transportOptions('smtp://mail.example:25').options).toMatchObject({
      secure: false,
      ignoreTLS: false,
      requireTLS: true,
      tls: { minVersion: 'TLSv1.2' },
    })
    expect(transportOptions('smtps://mail.example').options).toMatchObject({ secure: true })
    expect(transportOptions('smtp://mail.example').options).toMatchObject({
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    })
  })

  test("a tenant's server: reached at the address checked, its name kept for TLS; STARTTLS required even on loopback unless plain logins are allowed", () => {
    const at = transportOptions('smtp://u:p@mail.example.com:587', undefined, {
      address: '93.184.215.14',
      plainLogin: false,
    }).options
    expect(at).toMatchObject({
      host: '93.184.215.14',
      servername: 'mail.example.com',
      requireTLS: true,
      ignoreTLS: false,
    })
    expect(
      transportOptions('smtp://127.0.0.1:2525', undefined, { address: '127.0.0.1', plainLogin: false }).options,
    ).toMatchObject({ requireTLS: true, ignoreTLS: false })
    expect(
      transportOptions('smtp://127.0.0.1:2525', undefined, { address: '127.0.0.1', plainLogin: true }).options,
    ).toMatchObject({ requireTLS: false, ignoreTLS: false })
    expect(
      transportOptions('smtp://127.0.0.1:2525', undefined, { address: '127.0.0.1', plainLogin: false }).options
        .servername,
    ).toBeUndefined()
    expect(
      transportOptions('smtps://mail.example.com', undefined, { address: '93.184.215.14', plainLogin: false }).options,
    ).toMatchObject({ secure: true, servername: 'mail.example.com' })
  })

  test('other schemes, a path, a query (nodemailer options) or no host are refused', () => {
    for (const bad of [
      'http://mail.example',
      'smtp://mail.example/x',
      'smtp://mail.example?secure=false',
      'smtp://mail.example#a',
      'smtp://',
      'not a url',
    ]) {
      expect(() => parseSmtpUrl(bad)).toThrow()
    }
  })

  test('a redacted URL keeps the user and hides the password', () => {
    expect(redactSmtpUrl('smtp://me:secret@mail.example:587')).toBe('smtp://me:***@mail.example:587')
  })
})

describe('the fake', () => {
  test('keeps what it sends and fails when told to', async () => {
    const fake = new FakeMailer()
    fake.failNext('unreachable')
    expect((await failure(fake.send('smtp://x', message()))).reason).toBe('unreachable')
    await fake.send('smtp://x', message())
    expect(fake.sent).toHaveLength(1)
  })
})
