// A Test business's outbox (issue 32): what keeping an email costs against sending it, each against a baseline
// measured in the same run.
//
//   bun bench/outbox.ts [--sends 50] [--keeps 500]
//
// In process, on a temp-file database, with a real SMTP server on loopback (smtp-server) as the service's relay:
// 1. Sends: `--sends` Invoices of a Test business sent through the API (issued, PDF built, kept in its outbox) against
//    the same number of a live Business sent through the relay (baseline: one SMTP conversation each). One Send of
//    each before, unrecorded, starts the PDF engine and nodemailer.
// 2. Keeping: `--keeps` emails with a 30 KB attachment handed to the mailer for the outbox (composed, kept, the oldest
//    beyond the newest 100 dropped in the same transaction) against composing the same MIME alone (baseline).
// 3. Reading: the message as its page reads it back (mailparser over the kept bytes) against one list page of 25.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestSmtpServer } from '../src/adapters/smtp-test-server'
import { composeMime } from '../src/adapters/smtp'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { createDeps } from '../src/deps'
import { FakeVies } from '../src/adapters/vies'
import { createApiKey, createBusiness } from '../src/modules/business'
import { outboxTransport } from '../src/modules/mailbox'
import { FixedClock } from '../src/shared/clock'
import { silentLogger } from '../src/shared/logger'
import { listOutbox, readOutboxMessage } from '../src/modules/outbox/outbox.service'
import { argNumber } from './args'
import { apiOf } from './in-process'

const SENDS = argNumber('sends', 50)
const KEEPS = argNumber('keeps', 500)

const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-outbox-'))
const smtp = await startTestSmtpServer()
const clock = new FixedClock('2026-03-10T09:00:00.000Z')
const config = loadConfig({}, { dbPath: join(dir, 'bench.db'), mailRelay: smtp.url, rateLimit: 1_000_000_000 })
const deps = await createDeps(config, { clock, vies: new FakeVies(new Set()), logger: silentLogger })
const app = await buildApp(deps)

const api = apiOf(app)

/** A Business (pro_plus: 200 recipients a day, a Test business 20: the count is reset between Sends) and Drafts. */
async function business(name: string, isTest: boolean, n: number) {
  const b = await createBusiness(deps.db, clock, {
    name,
    country: 'DE',
    currency: 'EUR',
    plan: 'pro_plus',
    isTest,
    email: `office@${name.toLowerCase()}.example`,
  })
  const key = (await createApiKey(deps.db, clock, b.id, { name: 'bench', role: 'admin' })).key
  const client = await api(key, 'POST', '/v1/clients', { name: 'Buyer', email: 'ap@buyer.example', country: 'DE' })
  const ids: number[] = []
  for (let i = 0; i < n; i++)
    ids.push(
      (
        await api(key, 'POST', '/v1/documents', {
          type: 'invoice',
          client_id: client.id,
          lines: [{ description: `Month ${i + 1}`, quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
        })
      ).id,
    )
  return { id: b.id, key, ids }
}

/** ms per Send of each Draft; the clock moves a day on after each, so no daily limit is met. */
async function sends(b: { key: string; ids: number[] }): Promise<number> {
  const t = performance.now()
  for (const id of b.ids) {
    await api(b.key, 'POST', `/v1/documents/${id}/send`)
    clock.advance(86_400_000)
  }
  return (performance.now() - t) / b.ids.length
}

const test = await business('Sandbox', true, SENDS + 1)
const live = await business('Live', false, SENDS + 1)
await sends({ key: test.key, ids: test.ids.splice(0, 1) })
await sends({ key: live.key, ids: live.ids.splice(0, 1) })
const liveMs = await sends(live)
const testMs = await sends(test)
if (smtp.received.length !== SENDS + 1) throw new Error(`the relay got ${smtp.received.length} emails`)

const attachment = new Uint8Array(30 * 1024).map((_, i) => (i * 7919) % 256)
const message = (i: number) => ({
  from: { name: 'Sandbox', address: 'office@sandbox.example' },
  to: [`n${i}@buyer.example`],
  cc: [],
  bcc: [],
  subject: `Message ${i}`,
  text: 'Hello,\n\nplease find attached the file.\n',
  attachments: [{ filename: `file-${i}.pdf`, content: attachment, contentType: 'application/pdf' }],
})
let t = performance.now()
for (let i = 0; i < KEEPS; i++) await composeMime(message(i), clock.now())
const composeMs = (performance.now() - t) / KEEPS
t = performance.now()
for (let i = 0; i < KEEPS; i++) await deps.mailer.send(outboxTransport(test.id), message(i))
const keepMs = (performance.now() - t) / KEEPS

const [newest] = await listOutbox(deps.db, test.id, 0, 1)
const READS = 100
t = performance.now()
for (let i = 0; i < READS; i++) await listOutbox(deps.db, test.id, 0, 26)
const listMs = (performance.now() - t) / READS
await readOutboxMessage(deps.db, test.id, newest!.id)
t = performance.now()
for (let i = 0; i < READS; i++) await readOutboxMessage(deps.db, test.id, newest!.id)
const readMs = (performance.now() - t) / READS

const f = (n: number) => n.toFixed(2)
console.log(
  `sends (${SENDS}):  kept in the outbox ${f(testMs)} ms each; baseline through the relay ${f(liveMs)} ms each`,
)
console.log(
  `keeping (${KEEPS}, 30 KB attachment, bound 100): ${f(keepMs)} ms each; baseline compose alone ${f(composeMs)} ms`,
)
console.log(`reading (${READS}): a message read back ${f(readMs)} ms; baseline a list page of 25 ${f(listMs)} ms`)

deps.db.close()
await smtp.close()
rmSync(dir, { recursive: true, force: true })
