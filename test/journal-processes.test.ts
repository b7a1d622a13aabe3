// The journal across real processes and the file itself (extensions §17): tampering with the stopped server's file
// through sqlite3 found at the right seq with its reason by the API and the CLI; two servers issuing at once (one
// killed with SIGKILL half way) leaving one whole chain; an export checked by an outsider's code; a restored backup.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, cli, ROOT, seed, startServer, type Server } from './processes'
import { checkChain } from '../src/modules/journal/journal.testkit'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-journal-'))
const base = join(dir, 'base.db')
let key = ''
let businessPublicId = ''
/** Record ids of the base file: invoices A, B, C and Payments P1 (on A), P2 (on B); entries 1..5 in that order. */
const ids = { a: 0, b: 0, c: 0, p1: 0, p2: 0 }

function sqlite(file: string, script: string): void {
  const r = Bun.spawnSync(['/usr/bin/sqlite3', file, script], { stderr: 'pipe', stdout: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`sqlite3: ${r.stderr.toString()}`)
}

/** A copy of the base file (and its key file) to spoil. */
let copies = 0
function copyOfBase(): string {
  const file = join(dir, `copy-${++copies}.db`)
  copyFileSync(base, file)
  if (existsSync(`${base}.key`)) copyFileSync(`${base}.key`, `${file}.key`)
  return file
}

async function invoice(s: Server, clientId: number, lines: unknown[]): Promise<number> {
  const d = await call(s, key, 'POST', '/v1/documents', { type: 'invoice', client_id: clientId, lines })
  expect(d.status).toBe(201)
  const r = await call(s, key, 'POST', `/v1/documents/${d.body.id}/issue`)
  expect(r.status).toBe(200)
  return d.body.id
}

async function pay(s: Server, docId: number, amount: string): Promise<number> {
  const r = await call(s, key, 'POST', `/v1/documents/${docId}/payments`, {
    amount,
    payment_date: '2026-03-10',
    payment_method: 'cash',
  })
  expect(r.status).toBe(201)
  return r.body.id
}

beforeAll(async () => {
  const seeded = seed(base)
  key = seeded.key
  const s = await startServer(base)
  try {
    const c = await call(s, key, 'POST', '/v1/clients', { name: 'Acme GmbH', email: 'acme@example.com', country: 'DE' })
    expect(c.status).toBe(201)
    const line = (p: string) => ({ description: 'Work', quantity: '1', unit_price: p, vat_rate: '19.00' })
    ids.a = await invoice(s, c.body.id, [line('100.00'), line('20.00')])
    ids.b = await invoice(s, c.body.id, [line('100.00')])
    ids.p1 = await pay(s, ids.a, '10.00')
    ids.p2 = await pay(s, ids.b, '20.00')
    ids.c = await invoice(s, c.body.id, [line('5.00')])
    const biz = await call(s, key, 'GET', '/v1/business')
    businessPublicId = biz.body.business_id
  } finally {
    await s.stop()
  }
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the API and the CLI say of a file: both must name the same first bad seq and reason. */
async function verdicts(file: string) {
  const s = await startServer(file)
  let api: any
  try {
    api = (await call(s, key, 'GET', '/v1/journal/verify')).body
  } finally {
    await s.stop()
  }
  const run = cli(['journal', 'verify', '--db', file, '--json'])
  return { api, run }
}

describe('tampering with the stopped server’s file', () => {
  test('the untouched file verifies through the API and the CLI (exit 0), five entries', async () => {
    const { api, run } = await verdicts(copyOfBase())
    expect(api).toMatchObject({ ok: true, entries: 5, first_bad_seq: null, reason: null })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.out)).toEqual([
      expect.objectContaining({ business_id: businessPublicId, ok: true, entries: 5, head: api.head }),
    ])
  }, 60_000)

  const cases: [string, (f: string) => void, number, string][] = [
    [
      'a total changed',
      (f) => sqlite(f, `UPDATE documents SET total = '1.00' WHERE id = ${ids.b}`),
      2,
      'record_changed',
    ],
    [
      'a Line changed',
      (f) => sqlite(f, `UPDATE document_lines SET unit_price = '1.00' WHERE document_id = ${ids.a} AND position = 2`),
      1,
      'record_changed',
    ],
    ['a Payment row deleted', (f) => sqlite(f, `DELETE FROM payments WHERE id = ${ids.p2}`), 4, 'record_changed'],
    [
      'a Receipt changed',
      (f) => sqlite(f, `UPDATE receipts SET receipt_number = 'RCT-FAKE' WHERE payment_id = ${ids.p1}`),
      3,
      'record_changed',
    ],
    [
      'a journal row edited (its trigger dropped first)',
      (f) =>
        sqlite(
          f,
          `DROP TRIGGER journal_entries_no_update; UPDATE journal_entries SET data = replace(data, '"119.00"', '"1.00"') WHERE seq = 2`,
        ),
      2,
      'entry_changed',
    ],
    [
      'a journal row deleted (its trigger dropped first)',
      (f) => sqlite(f, 'DROP TRIGGER journal_entries_no_delete; DELETE FROM journal_entries WHERE seq = 3'),
      3,
      'entry_removed',
    ],
    [
      'a journal row inserted after the head',
      (f) =>
        sqlite(
          f,
          `INSERT INTO journal_entries SELECT business_id, 6, at, kind, record_type, record_id, record_number, data, hash, '${'ab'.repeat(32)}' FROM journal_entries WHERE seq = 5`,
        ),
      6,
      'entry_changed',
    ],
  ]
  for (const [what, spoil, seq, reason] of cases) {
    test(`${what}: found at seq ${seq} as ${reason} by the API and the CLI (exit 1, one line)`, async () => {
      const file = copyOfBase()
      spoil(file)
      const { api, run } = await verdicts(file)
      expect(api).toMatchObject({ ok: false, first_bad_seq: seq, reason })
      expect(run.code).toBe(1)
      expect(JSON.parse(run.out)[0]).toMatchObject({ ok: false, first_bad_seq: seq, reason })
      expect(run.err.trim()).toBe(`invoicing: journal of Business ${businessPublicId} broken at seq ${seq}: ${reason}`)
    }, 60_000)
  }
})

test('export writes one entry a line that an outsider’s code (and docs/journal.md’s Python, as written) checks whole; the file is never overwritten', async () => {
  const file = copyOfBase()
  const out = join(dir, 'export.jsonl')
  const r = cli(['journal', 'export', businessPublicId, out, '--db', file, '--json'])
  expect(r.code).toBe(0)
  expect(JSON.parse(r.out)).toEqual({ business_id: businessPublicId, file: out, entries: 5 })
  const entries = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
  checkChain(entries)
  expect(entries.map((e) => e.kind)).toEqual([
    'document.issued',
    'document.issued',
    'payment.recorded',
    'payment.recorded',
    'document.issued',
  ])
  // The check docs/journal.md prints, run as written (Python), holds on this export too.
  const python = /```python\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/journal.md'), 'utf8'))![1]!
  const checked = Bun.spawnSync(['python3', '-c', python.replace('"journal.jsonl"', JSON.stringify(out))])
  expect(checked.stdout.toString().trim()).toBe(`ok, head 5 ${entries[4].hash}`)
  const again = cli(['journal', 'export', businessPublicId, out, '--db', file])
  expect(again.code).toBe(1)
  expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(5)
}, 60_000)

test('a backup prints the heads; the restored copy verifies with that head', async () => {
  const file = copyOfBase()
  const s = await startServer(file)
  const out = join(dir, 'backup.db')
  let printed: any
  try {
    const b = cli(['backup', out, '--db', file, '--json'])
    expect(b.code).toBe(0)
    printed = JSON.parse(b.out)
    expect(printed.journal_heads).toEqual([
      { business_id: businessPublicId, seq: 5, hash: expect.stringMatching(/^[0-9a-f]{64}$/), at: expect.any(String) },
    ])
  } finally {
    await s.stop()
  }
  const restored = join(dir, 'restored.db')
  copyFileSync(out, restored)
  copyFileSync(`${file}.key`, `${restored}.key`)
  const v = cli(['journal', 'verify', businessPublicId, '--db', restored, '--json'])
  expect(v.code).toBe(0)
  expect(JSON.parse(v.out)[0]).toMatchObject({
    ok: true,
    head: { seq: 5, hash: printed.journal_heads[0].hash },
  })
}, 60_000)

test('two servers issuing at once on one file, one killed with SIGKILL half way: one chain, no gap, no fork', async () => {
  const file = copyOfBase()
  const one = await startServer(file)
  const two = await startServer(file)
  const c = await call(one, key, 'POST', '/v1/clients', { name: 'Both', email: 'both@example.com', country: 'DE' })
  const line = { description: 'Work', quantity: '1', unit_price: '1.00', vat_rate: '0' }
  const issueMany = async (s: Server, n: number) => {
    let done = 0
    for (let i = 0; i < n; i++) {
      try {
        await invoice(s, c.body.id, [line])
        done++
      } catch {
        return done // the killed server answers no more
      }
    }
    return done
  }
  const first = issueMany(one, 25)
  const second = issueMany(two, 25)
  await Bun.sleep(300)
  two.proc.kill('SIGKILL')
  const [a] = await Promise.all([first, second.catch(() => 0)])
  await two.proc.exited
  expect(a).toBe(25)
  const all = (await call(one, key, 'GET', '/v1/journal/verify')).body
  expect(all).toMatchObject({ ok: true, first_bad_seq: null })
  const issued = (await call(one, key, 'GET', '/v1/documents?limit=100')).body.data.filter(
    (d: any) => d.status !== 'draft',
  ).length
  // Five entries from the base file; one per issued document since (the Payments are the base file's two).
  expect(all.entries).toBe(issued + 2)
  await one.stop()
  expect(cli(['journal', 'verify', '--db', file]).code).toBe(0)
}, 120_000)
