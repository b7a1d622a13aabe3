// Payment reminders (extensions §14): what the background task costs a server with many owing documents when nothing
// is due (write transactions per run: the target is 0), and how fast it sends steps that are due, each against a
// baseline measured in the same run.
//
//   bun bench/reminders.ts [--documents 10000] [--runs 20] [--sends 100]
//
// In process, on a temp-file database, with an injected clock and a real SMTP server on loopback (smtp-server):
// 1. Idle: `--documents` issued Invoices of one Business with reminders enabled (steps 7, 14 and 30), copied in SQL
//    from one issued through the API. (a) the day before the first step: remindDue `--runs` times; (b) every
//    document's step 7 already sent (rows written in SQL) on a day after it: remindDue again. Each: ms per run and
//    write transactions per run. Baseline: one plain read of the same owing documents (id, due date) on the reader.
// 2. Sending: `--sends` Invoices whose step 7 has come, sent by one remindDue (PDF attached, one SMTP conversation
//    each) against the same number reminded by hand, `POST /v1/documents/{id}/remind` through the app, one by one;
//    one reminder by hand before either, unrecorded, starts the PDF engine.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { startTestSmtpServer } from '../src/adapters/smtp-test-server'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createDeps, type Deps } from '../src/deps'
import { FakeVies } from '../src/adapters/vies'
import { createApiKey, createBusiness } from '../src/modules/business'
import { remindDue } from '../src/modules/reminders'
import { FixedClock } from '../src/shared/clock'
import { silentLogger } from '../src/shared/logger'
import { argNumber } from './args'
import { apiOf } from './in-process'

const DOCUMENTS = argNumber('documents', 10_000)
const RUNS = argNumber('runs', 20)
const SENDS = argNumber('sends', 100)

const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-reminders-'))
const smtp = await startTestSmtpServer()
const clock = new FixedClock('2026-03-10T09:00:00.000Z')
const config = loadConfig(
  {},
  { dbPath: join(dir, 'bench.db'), mailRelay: smtp.url, rateLimit: 1_000_000_000, publicUrl: 'https://inv.example' },
)
const deps = await createDeps(config, { clock, vies: new FakeVies(new Set()), logger: silentLogger })
const app = await buildApp(deps)

const api = apiOf(app)

/** A Business with reminders on (7, 14, 30), one Client (payment terms 14) and `n` issued Invoices due 2026-03-24. */
async function business(name: string, n: number): Promise<{ id: number; key: string; ids: number[] }> {
  clock.set('2026-03-10T09:00:00.000Z')
  const b = await createBusiness(deps.db, clock, {
    name,
    country: 'DE',
    currency: 'EUR',
    plan: 'pro_plus',
    email: `office@${name.toLowerCase()}.example`,
  })
  const key = (await createApiKey(deps.db, clock, b.id, { name: 'bench', role: 'admin' })).key
  const client = await api(key, 'POST', '/v1/clients', {
    name: 'Late Payer',
    email: 'ap@late.example',
    country: 'DE',
    payment_terms: 14,
  })
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    const d = await api(key, 'POST', '/v1/documents', {
      type: 'invoice',
      client_id: client.id,
      lines: [{ description: `Month ${i + 1}`, quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
    })
    await api(key, 'POST', `/v1/documents/${d.id}/issue`)
    ids.push(d.id)
  }
  await api(key, 'PUT', '/v1/reminder-settings', {
    enabled: true,
    steps: [{ days: 7 }, { days: 14 }, { days: 30 }],
  })
  return { id: b.id, key, ids }
}

/**
 * Copies an issued document `n` times in SQL (numbers B-1…, fresh public tokens), as many owing Invoices. The copies take
 * no payment reference: it is unique within a Business (§15), and reminders do not need one.
 */
async function copies(template: number, n: number): Promise<void> {
  const cols = (await deps.db.read.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('documents')`))
    .map((c) => c.name)
    .filter((c) => c !== 'id')
  const exprs = cols.map((c) =>
    c === 'document_number'
      ? `'B-' || s.n`
      : c === 'public_token'
        ? 'lower(hex(randomblob(16)))'
        : c === 'payment_reference'
          ? 'NULL'
          : `d.${c}`,
  )
  await deps.db.write((tx) =>
    tx.run(
      sql.raw(
        `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${n})
         INSERT INTO documents (${cols.join(', ')}) SELECT ${exprs.join(', ')} FROM documents d, s WHERE d.id = ${template}`,
      ),
    ),
  )
}

/** remindDue `runs` times: ms per run and write transactions per run. */
async function timedRuns(runs: number): Promise<{ msPerRun: number; writesPerRun: number; sent: number }> {
  let writes = 0
  const counted: Deps = { ...deps, db: { ...deps.db, write: (fn: any) => (writes++, deps.db.write(fn)) } as Deps['db'] }
  let sent = 0
  const t0 = performance.now()
  for (let i = 0; i < runs; i++) sent += (await remindDue(counted)).sent
  return { msPerRun: (performance.now() - t0) / runs, writesPerRun: writes / runs, sent }
}

async function baselineRead(businessId: number, runs: number): Promise<number> {
  const t0 = performance.now()
  for (let i = 0; i < runs; i++)
    await deps.db.read.all(
      sql`SELECT id, due_date FROM documents WHERE business_id = ${businessId} AND status IN ('issued', 'partially_paid')`,
    )
  return (performance.now() - t0) / runs
}

const fixed = (n: number, d = 1) => n.toFixed(d)

try {
  // 1. Idle.
  const many = await business('Many', 1)
  await copies(many.ids[0]!, DOCUMENTS - 1)
  clock.set('2026-03-30T12:00:00.000Z')
  await remindDue(deps) // warm-up
  const notDue = await timedRuns(RUNS)
  const readNotDue = await baselineRead(many.id, RUNS)
  // Every document's step 7 handled; a day after it, before step 14.
  await deps.db.write((tx) =>
    tx.run(
      sql`INSERT INTO reminder_steps (document_id, step_days, business_id, state, attempts, created_at, updated_at)
          SELECT id, 7, business_id, 'sent', 1, '2026-03-31T00:00:00.000Z', '2026-03-31T00:00:00.000Z'
          FROM documents WHERE business_id = ${many.id}`,
    ),
  )
  clock.set('2026-04-01T12:00:00.000Z')
  await remindDue(deps)
  const handled = await timedRuns(RUNS)
  const readHandled = await baselineRead(many.id, RUNS)

  // 2. Sending.
  await deps.db.write((tx) => tx.run(sql`UPDATE reminder_settings SET enabled = 0`))
  const scheduled = await business('Scheduled', SENDS)
  const byHand = await business('ByHand', SENDS + 1)
  // Reminded by hand only: the task must not send these.
  await api(byHand.key, 'PUT', '/v1/reminder-settings', { enabled: false, steps: [] })
  clock.set('2026-03-31T08:00:00.000Z')
  // Warm-up, unrecorded: the first PDF starts the PDF engine's realm, which neither side should pay for.
  await api(byHand.key, 'POST', `/v1/documents/${byHand.ids.pop()}/remind`)
  smtp.received.length = 0
  let t0 = performance.now()
  const run = await remindDue(deps)
  const taskMs = performance.now() - t0
  const taskMails = smtp.received.length
  smtp.received.length = 0
  t0 = performance.now()
  for (const id of byHand.ids) await api(byHand.key, 'POST', `/v1/documents/${id}/remind`)
  const handMs = performance.now() - t0
  const handMails = smtp.received.length
  if (run.sent !== SENDS || taskMails !== SENDS || handMails !== SENDS || scheduled.ids.length !== SENDS)
    throw new Error(
      `sent ${run.sent} by the task (${taskMails} received), ${handMails} by hand; expected ${SENDS} each`,
    )

  const taskRate = SENDS / (taskMs / 1000)
  const handRate = SENDS / (handMs / 1000)
  const idleOk = notDue.writesPerRun === 0 && handled.writesPerRun === 0 && notDue.sent === 0 && handled.sent === 0
  console.log(`payment reminders, ${DOCUMENTS} owing Invoices, ${RUNS} runs each (machine shared, figures noisy)`)
  console.log(
    `  idle, before the first step:  ${fixed(notDue.msPerRun)} ms/run, ${notDue.writesPerRun} writes/run   (baseline read of the owing documents: ${fixed(readNotDue)} ms)`,
  )
  console.log(
    `  idle, step 7 sent for all:    ${fixed(handled.msPerRun)} ms/run, ${handled.writesPerRun} writes/run   (baseline read: ${fixed(readHandled)} ms)`,
  )
  console.log(`  ${idleOk ? 'PASS' : 'FAIL'} an idle run writes nothing (target 0 write transactions)`)
  console.log(
    `  sending ${SENDS} due steps: task ${fixed(taskRate)} reminders/s   vs   POST /v1/documents/{id}/remind ${fixed(handRate)}/s   (ratio ${fixed(taskRate / handRate, 2)})`,
  )
} finally {
  await app.requestLog.flush()
  await app.connectionUsage.flush()
  app.rateLimiter.close()
  deps.db.close()
  await smtp.close()
  rmSync(dir, { recursive: true, force: true })
}
