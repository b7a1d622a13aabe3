// `invoicing mail set|clear` through the real CLI on a temp database: the mailbox is stored, shown as {kind, address}
// only, refused when malformed, and cleared back to the service's own mail server; its password is never printed.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '../../..')
const dir = mkdtempSync(join(tmpdir(), 'invoicing-mail-cli-'))
const db = join(dir, 'cli.db')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function cli(
  args: string[],
  env: Record<string, string> = {},
  stdin?: string,
): { code: number; out: string; err: string } {
  const p = Bun.spawnSync([process.execPath, 'src/main.ts', ...args, '--db', db], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TMPDIR: dir, ...env },
    stdin: stdin === undefined ? 'ignore' : new TextEncoder().encode(stdin),
  })
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() }
}

let businessId = ''

describe('invoicing mail', () => {
  test('set stores an SMTP mailbox and prints its kind and From address, never the URL or password', () => {
    const b = cli([
      'business',
      'create',
      '--name',
      'Shop',
      '--country',
      'DE',
      '--currency',
      'EUR',
      '--email',
      'office@shop.example',
      '--json',
    ])
    expect(b.code).toBe(0)
    businessId = JSON.parse(b.out).business_id
    const r = cli(
      [
        'mail',
        'set',
        businessId,
        '--smtp',
        'smtp://office@mail.shop.example:587',
        '--from',
        'invoices@shop.example',
        '--password-stdin',
        '--json',
      ],
      {},
      'hunter2-secret\n',
    )
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toEqual({
      business_id: businessId,
      mail_provider: { kind: 'smtp', address: 'invoices@shop.example' },
    })
    expect(r.out).not.toContain('hunter2')
    // Set again, the password from a file: the mailbox is replaced, not doubled.
    writeFileSync(join(dir, 'pw'), 'other\n', { mode: 0o600 })
    const again = cli([
      'mail',
      'set',
      businessId,
      '--smtp',
      'smtps://office@mail.shop.example',
      '--from',
      'billing@shop.example',
      '--password-file',
      join(dir, 'pw'),
      '--json',
    ])
    expect(JSON.parse(again.out).mail_provider).toEqual({ kind: 'smtp', address: 'billing@shop.example' })
  })

  test('a password written into --smtp is refused (it would show in the process list), in one line that does not repeat it', () => {
    const r = cli([
      'mail',
      'set',
      businessId,
      '--smtp',
      'smtp://office:hunter2-secret@mail.shop.example:587',
      '--from',
      'invoices@shop.example',
    ])
    expect(r.code).toBe(2)
    expect(r.err.trim().split('\n')).toHaveLength(1)
    expect(r.err).toContain('--password-file')
    expect(r.err).not.toContain('hunter2')
  })

  test('a malformed URL or From address is refused in one line that does not repeat the password', () => {
    for (const [url, from] of [
      ['http://office@mail.shop.example', 'invoices@shop.example'],
      ['smtp://office@mail.shop.example?pool=true', 'invoices@shop.example'],
      ['smtp://office@mail.shop.example', 'not-an-address'],
    ]) {
      const r = cli(
        ['mail', 'set', businessId, '--smtp', url!, '--from', from!, '--password-stdin'],
        {},
        'hunter2-secret',
      )
      expect(r.code).not.toBe(0)
      expect(r.err.trim().split('\n')).toHaveLength(1)
      expect(r.err).toMatch(/smtp|from/)
      expect(r.err).not.toContain('hunter2')
    }
  })

  test('missing options are a usage error; an unknown Business is refused', () => {
    expect(cli(['mail', 'set', businessId, '--smtp', 'smtp://mail.shop.example']).code).toBe(2)
    expect(
      cli(['mail', 'set', businessId, '--from', 'a@shop.example', '--smtp', 'smtp://mail.shop.example', '--bogus', 'x'])
        .code,
    ).toBe(2)
    expect(cli(['mail', 'clear']).code).toBe(2)
    expect(cli(['mail', 'clear', '00000000-0000-4000-8000-000000000000']).code).toBe(1)
  })

  test("clear removes the mailbox: the service's own mail server sends again when there is one", () => {
    const withRelay = cli(['mail', 'clear', businessId, '--json'], { INVOICING_MAIL_RELAY: 'smtp://relay.example:25' })
    expect(withRelay.code).toBe(0)
    expect(JSON.parse(withRelay.out).mail_provider).toEqual({ kind: 'service', address: 'office@shop.example' })
    const none = cli(['mail', 'clear', businessId, '--json'])
    expect(JSON.parse(none.out).mail_provider).toBeNull()
  })

  test('help names both commands', () => {
    const r = cli(['help'])
    expect(r.out).toContain('invoicing mail set BUSINESS_ID --smtp')
    expect(r.out).toContain('invoicing mail clear BUSINESS_ID')
  })
})
