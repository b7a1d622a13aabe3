// `invoicing journal verify` over a chain of 1,000,000 entries (extensions §17): entries per second, against the
// same walk reading the entries alone (no hash, no record) in the same run as the baseline.
//
//   bun bench/journal-verify.ts [--no-build] [--entries 1000000] [--payments-per-document 9] [--keep]
//
// The chain is one Business's: issued Invoices (one Line, one VAT band each), each followed by its Payments with
// their Receipts, seeded in SQL from one Invoice and one Payment made through the service, every entry hashed by
// the service's own functions from the rows as written, so verify finds every record as its entry says.
// Target (issue 30): >= 50,000 entries/s on this machine.
import Database from 'libsql'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argNumber } from './args'
import { mustRun } from './processes'
import { loadConfig } from '../src/config'
import { createDeps } from '../src/deps'
import { buildApp } from '../src/app'
import { createApiKey, createBusiness } from '../src/modules/business'
import { canonical, entryHash, entryText, GENESIS } from '../src/modules/journal'
import { documentData, paymentDataText } from '../src/modules/journal/records'

const ROOT = resolve(import.meta.dir, '..')
const BIN = join(ROOT, 'dist/invoicing')
const TARGET = 50_000
const opts = {
  build: !process.argv.includes('--no-build'),
  entries: argNumber('entries', 1_000_000),
  perDoc: argNumber('payments-per-document', 9),
  keep: process.argv.includes('--keep'),
}

async function main(): Promise<void> {
  if (opts.build) await mustRun([process.execPath, 'scripts/build.ts'], { cwd: ROOT, timeoutMs: 300_000 })
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run bun scripts/build.ts (or drop --no-build)`)
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-journal-bench-'))
  try {
    const file = join(dir, 'journal.db')
    const t0 = performance.now()
    const { businessId, publicId } = await templates(file)
    const docs = Math.ceil(opts.entries / (1 + opts.perDoc))
    seed(file, businessId, docs, opts.perDoc)
    const db = new Database(file)
    const n = (
      db.prepare('SELECT count(*) FROM journal_entries WHERE business_id = ?').raw(true).get(businessId) as number[]
    )[0]!
    db.close()
    console.log(
      `seeded ${n.toLocaleString('en-US')} entries (${docs.toLocaleString('en-US')} Invoices, ${opts.perDoc} Payments each) in ${((performance.now() - t0) / 1000).toFixed(1)} s; file ${(statSync(file).size / 1e6).toFixed(0)} MB`,
    )

    // Baseline: the same walk in seq order, entries read and nothing else, by the same driver in one process.
    const b0 = performance.now()
    const c0 = process.cpuUsage()
    const base = new Database(file, { readonly: true } as never)
    const page = base.prepare(
      'SELECT seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash FROM journal_entries WHERE business_id = ? AND seq > ? ORDER BY seq LIMIT 2000',
    )
    let after = 0
    let read = 0
    for (;;) {
      const rows = page.all(businessId, after) as { seq: number }[]
      if (rows.length === 0) break
      read += rows.length
      after = rows[rows.length - 1]!.seq
    }
    base.close()
    const baseS = (performance.now() - b0) / 1000
    const baseCpu = process.cpuUsage(c0)
    const baseCpuS = (baseCpu.user + baseCpu.system) / 1e6

    // The command itself, its CPU time read from the kernel when it exits (the machine is shared: wall time is not
    // all ours).
    const v0 = performance.now()
    const proc = Bun.spawn([BIN, 'journal', 'verify', publicId, '--db', file, '--json'], {
      cwd: dir,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const out = await new Response(proc.stdout).text()
    await proc.exited
    const verifyS = (performance.now() - v0) / 1000
    const usage = proc.resourceUsage()
    const verifyCpuS = usage ? Number(usage.cpuTime.total) / 1e6 : NaN
    const verdict = JSON.parse(out)[0]
    if (proc.exitCode !== 0 || !verdict.ok || verdict.entries !== n)
      throw new Error(`verify did not hold: ${out.slice(0, 300)}`)
    const rate = n / verifyS
    const f = (x: number) => Math.round(x).toLocaleString('en-US')
    console.log('\n| what | entries | wall s | entries/s (wall) | CPU s | entries per CPU second |')
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
    console.log(
      `| baseline: entries read alone, in-process | ${f(read)} | ${baseS.toFixed(2)} | ${f(read / baseS)} | ${baseCpuS.toFixed(2)} | ${f(read / baseCpuS)} |`,
    )
    console.log(
      `| \`invoicing journal verify\` (process start included) | ${f(n)} | ${verifyS.toFixed(2)} | ${f(rate)} | ${verifyCpuS.toFixed(2)} | ${f(n / verifyCpuS)} |`,
    )
    console.log(
      `\n${rate >= TARGET ? 'PASS' : 'FAIL'} verify ${f(rate)} entries/s wall, ${f(n / verifyCpuS)} per CPU second (target >= ${f(TARGET)}); load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`,
    )
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true })
    else console.log(`kept ${dir}`)
  }
}

/** A Business with one issued Invoice and one Payment, made through the service (the rows the seed copies). */
async function templates(file: string): Promise<{ businessId: number; publicId: string }> {
  const deps = await createDeps(loadConfig({}, { dbPath: file, rateLimit: 1_000_000_000 }))
  const app = await buildApp(deps)
  try {
    const b = await createBusiness(deps.db, deps.clock, { name: 'Bench', country: 'DE', currency: 'EUR', plan: 'pro' })
    const { key } = await createApiKey(deps.db, deps.clock, b.id, { name: 'bench', role: 'admin' })
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return (await res.json()) as any
    }
    const c = await call('POST', '/v1/clients', { name: 'Acme GmbH', email: 'a@acme.example', country: 'DE' })
    const d = await call('POST', '/v1/documents', {
      type: 'invoice',
      client_id: c.id,
      lines: [{ description: 'Work', quantity: '1', unit_price: '1000000.00', vat_rate: '19.00' }],
    })
    await call('POST', `/v1/documents/${d.id}/issue`)
    await call('POST', `/v1/documents/${d.id}/payments`, {
      amount: '1.00',
      payment_date: '2026-01-15',
      payment_method: 'cash',
    })
    return { businessId: b.id, publicId: b.publicId }
  } finally {
    await app.requestLog.flush()
    app.rateLimiter.close()
    await deps.db.checkpoint()
    deps.db.close()
  }
}

/** Copies the template Invoice and Payment into `docs` Invoices with `perDoc` Payments each, and writes their chain. */
function seed(file: string, businessId: number, docs: number, perDoc: number): void {
  const db = new Database(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = OFF')
  // The template's own two entries are rewritten with the rest: the chain is made whole here, in one order.
  db.exec('DROP TRIGGER journal_entries_no_delete')
  db.exec('BEGIN')
  db.prepare('DELETE FROM journal_entries WHERE business_id = ?').run(businessId)
  const [t] = db
    .prepare('SELECT id FROM documents WHERE business_id = ? ORDER BY id LIMIT 1')
    .raw(true)
    .all(businessId) as number[][]
  const template = t![0]!
  const cols = (table: string, skip: string[]) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => !skip.includes(c))
  // A copy takes no payment reference (each is unique in its Business, extensions §15); the journal does not hash it.
  const docCols = cols('documents', ['id', 'document_number', 'public_token', 'payment_reference'])
  db.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 2 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
     INSERT INTO documents (${docCols.join(', ')}, document_number, public_token)
     SELECT ${docCols.map((c) => `t.${c}`).join(', ')}, printf('B-%08d', n), printf('bench-token-%08d', n)
     FROM seq, documents t WHERE t.id = ?`,
  ).run(docs, template)
  const lineCols = cols('document_lines', ['id', 'document_id'])
  db.prepare(
    `INSERT INTO document_lines (document_id, ${lineCols.join(', ')})
     SELECT d.id, ${lineCols.map((c) => `l.${c}`).join(', ')} FROM documents d, document_lines l
     WHERE d.business_id = ? AND d.id <> ? AND l.document_id = ?`,
  ).run(businessId, template, template)
  const bandCols = cols('document_vat_bands', ['document_id'])
  db.prepare(
    `INSERT INTO document_vat_bands (document_id, ${bandCols.join(', ')})
     SELECT d.id, ${bandCols.map((c) => `b.${c}`).join(', ')} FROM documents d, document_vat_bands b
     WHERE d.business_id = ? AND d.id <> ? AND b.document_id = ?`,
  ).run(businessId, template, template)
  const [p] = db.prepare('SELECT id FROM payments WHERE business_id = ?').raw(true).all(businessId) as number[][]
  const payCols = cols('payments', ['id', 'document_id'])
  db.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
     INSERT INTO payments (document_id, ${payCols.join(', ')})
     SELECT d.id, ${payCols.map((c) => `p.${c}`).join(', ')} FROM documents d, k, payments p
     WHERE d.business_id = ? AND p.id = ? AND NOT (d.id = ? AND k.i = 1) ORDER BY d.id, k.i`,
  ).run(perDoc, businessId, p![0], template)
  const recCols = cols('receipts', ['id', 'payment_id', 'document_id', 'receipt_number'])
  db.prepare(
    `INSERT INTO receipts (payment_id, document_id, receipt_number, ${recCols.join(', ')})
     SELECT p.id, p.document_id, printf('R-%09d', p.id), ${recCols.map((c) => `r.${c}`).join(', ')}
     FROM payments p, receipts r WHERE p.business_id = ? AND p.id <> ? AND r.payment_id = ?`,
  ).run(businessId, p![0], p![0])

  // The chain: each Invoice's document.issued, then its Payments' payment.recorded, hashed from the rows.
  const insert = db.prepare(
    `INSERT INTO journal_entries (business_id, seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const docPage = db.prepare(
    `SELECT id, type, document_number, issue_date, due_date, delivery_date, currency, client_snapshot, seller_snapshot,
       buyer_reference, order_reference, notes, proforma_id, credited_document_id, net_total, vat_total, total
     FROM documents WHERE business_id = ? AND id > ? ORDER BY id LIMIT 1000`,
  )
  const linesOf = db.prepare(
    `SELECT id, position, description, quantity, unit, unit_price, vat_rate, vat_category, vat_exemption_code, notes,
       net_amount FROM document_lines WHERE document_id = ?`,
  )
  const bandsOf = db.prepare('SELECT category, rate, net, vat FROM document_vat_bands WHERE document_id = ?')
  const paysOf = db.prepare(
    `SELECT p.id, p.amount, p.currency, p.payment_date, p.payment_method, p.status, p.document_id, d.document_number,
       r.receipt_number FROM payments p JOIN documents d ON d.id = p.document_id LEFT JOIN receipts r ON r.payment_id = p.id
     WHERE p.document_id = ? ORDER BY p.id`,
  )
  let seq = 0
  let prev = GENESIS
  const at = '2026-01-15T10:00:00.000000Z'
  const append = (
    kind: string,
    record: { type: 'document' | 'payment'; id: number; number: string | null },
    text: string,
  ) => {
    seq++
    const hash = entryHash(prev, entryText(seq, at, kind, record, text, prev))
    insert.run(businessId, seq, at, kind, record.type, record.id, record.number, text, prev, hash)
    prev = hash
  }
  let after = 0
  for (;;) {
    const rows = docPage.all(businessId, after) as any[]
    if (rows.length === 0) break
    for (const d of rows) {
      const data = documentData(d, linesOf.all(d.id) as any[], bandsOf.all(d.id) as any[])
      append('document.issued', { type: 'document', id: d.id, number: d.document_number }, canonical(data))
      for (const pay of paysOf.all(d.id) as any[])
        append('payment.recorded', { type: 'payment', id: pay.id, number: pay.receipt_number }, paymentDataText(pay))
    }
    after = rows[rows.length - 1].id
  }
  db.exec('COMMIT')
  db.exec(`CREATE TRIGGER journal_entries_no_delete BEFORE DELETE ON journal_entries
           BEGIN SELECT RAISE(ABORT, 'journal entries are never deleted'); END`)
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
}

await main()
