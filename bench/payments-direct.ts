// The floor bench/payments.ts compares the API with: recordPayment's transaction written by hand in raw SQL, in a loop.
//
//   bun bench/payments-direct.ts --db FILE --business ID --documents 3,4,5 [--duration 10] [--warmup 2]
//                                [--synchronous FULL|NORMAL|OFF]
//
// Opens FILE as src/db/client.ts opens its writer (@libsql/client, concurrency 1, intMode number, journal_mode=WAL,
// synchronous=FULL, foreign_keys=ON, busy_timeout=5000) and, for `duration` seconds after `warmup` unrecorded ones,
// records one Payment of 0.01 per transaction on the documents in turn, as the API does for a Payment that does not
// settle the document:
//   BEGIN IMMEDIATE; read the document; judge it (takes Payments, amount due); INSERT payments; take the Receipt
//   number (number_counters upsert RETURNING highest); INSERT receipts; INSERT outbox (payment.recorded);
//   SUM the document's completed Payments; UPDATE documents (amount_paid, paid_minor, status); COMMIT.
// No framework, no drizzle, no HTTP, no reads outside the transaction. Prints one JSON line with the figures.
// --synchronous OFF (or NORMAL) separates the CPU of the transaction from the fsync of its commit.
import { randomBytes } from 'node:crypto'
import { createClient, type Client, type Transaction } from '@libsql/client'

const DEFAULT_RECEIPT_PATTERN = 'RCT-{YYYY}-{NNNNN}'
const ACTOR = JSON.stringify({ type: 'api_key', name: 'bench' })
const AMOUNT = '0.01'
const AMOUNT_MINOR = 1n

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** As src/modules/webhooks/outbox.ts: `msg_` + 10 characters of time + 16 random, Crockford base32. */
function messageId(at: Date): string {
  let time = at.getTime()
  let head = ''
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head
    time = Math.floor(time / 32)
  }
  const bytes = randomBytes(16)
  let tail = ''
  for (let i = 0; i < 16; i++) tail += CROCKFORD[bytes[i]! % 32]
  return `msg_${head}${tail}`
}

/** Minor units (scale 2) as decimal text: 1234 → "12.34". */
function fromMinor(minor: bigint): string {
  const s = minor.toString().padStart(3, '0')
  return `${s.slice(0, -2)}.${s.slice(-2)}`
}

const SELECT_DOCUMENT = `SELECT id, type, status, currency, total, CAST(total_minor AS TEXT) AS total_minor, CAST(paid_minor AS TEXT) AS paid_minor,
  proforma_id, converted_into_id FROM documents WHERE business_id = ? AND id = ?`
const INSERT_PAYMENT = `INSERT INTO payments (business_id, document_id, status, amount, amount_minor, currency, payment_date, payment_method,
  bank_account_id, reference, notes, recorded_by, created_at, updated_at)
  VALUES (?, ?, 'completed', ?, ?, ?, '2026-01-15', 'cash', NULL, NULL, NULL, ?, ?, ?) RETURNING id`
const TAKE_RECEIPT_NUMBER = `INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (?, 'receipt', ?, ?, 1)
  ON CONFLICT (business_id, kind, pattern, period) DO UPDATE SET highest = highest + 1 RETURNING highest`
const INSERT_RECEIPT = `INSERT INTO receipts (business_id, payment_id, document_id, receipt_number, issue_date, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?)`
const INSERT_OUTBOX = `INSERT INTO outbox (business_id, type, subject_type, subject_id, message_id, occurred_at)
  VALUES (?, 'payment.recorded', 'payment', ?, ?, ?)`
const SUM_PAID = `SELECT CAST(sum(amount_minor) AS TEXT) FROM payments WHERE document_id = ? AND status = 'completed'`
const UPDATE_DOCUMENT = `UPDATE documents SET amount_paid = ?, paid_minor = ?, status = ?, updated_at = ? WHERE business_id = ? AND id = ?`

export interface DirectContext {
  businessId: number
  /** The Business's Receipt pattern, its counter width and whether it counts per year. */
  pattern: string
  width: number
  hasYear: boolean
}

/** Reads what the loop needs once: the Business's Receipt pattern (or the default). */
export async function directContext(client: Client, businessId: number): Promise<DirectContext> {
  const pattern = String(
    (
      await client.execute({
        sql: "SELECT pattern FROM numberings WHERE business_id = ? AND kind = 'receipt'",
        args: [businessId],
      })
    ).rows[0]?.[0] ?? DEFAULT_RECEIPT_PATTERN,
  )
  return { businessId, pattern, width: /\{(N+)\}/.exec(pattern)?.[1]?.length ?? 5, hasYear: pattern.includes('{YYYY}') }
}

/** One Payment of 0.01 on `documentId` with its Receipt and outbox row, inside the open write transaction `tx`. */
export async function recordOne(tx: Transaction, ctx: DirectContext, documentId: number): Promise<void> {
  const { businessId } = ctx
  const now = new Date()
  const iso = now.toISOString()
  const today = iso.slice(0, 10)
  const doc = (await tx.execute({ sql: SELECT_DOCUMENT, args: [businessId, documentId] })).rows[0]
  if (!doc) throw new Error(`document ${documentId} not found`)
  const takes =
    (doc.type === 'invoice' || doc.type === 'proforma') &&
    (doc.status === 'issued' || doc.status === 'partially_paid') &&
    doc.converted_into_id === null
  if (!takes) throw new Error(`document ${documentId} takes no Payment (${doc.type} ${doc.status})`)
  if (AMOUNT_MINOR > BigInt(doc.total_minor as string) - BigInt(doc.paid_minor as string))
    throw new Error(`document ${documentId}: payment exceeds the amount due`)
  const paymentId = (
    await tx.execute({
      sql: INSERT_PAYMENT,
      args: [businessId, documentId, AMOUNT, String(AMOUNT_MINOR), doc.currency, ACTOR, iso, iso],
    })
  ).rows[0]![0] as number
  const year = today.slice(0, 4)
  const counter = (
    await tx.execute({ sql: TAKE_RECEIPT_NUMBER, args: [businessId, ctx.pattern, ctx.hasYear ? year : ''] })
  ).rows[0]![0] as number
  const receiptNumber = ctx.pattern.replace('{YYYY}', year).replace(/\{N+\}/, String(counter).padStart(ctx.width, '0'))
  await tx.execute({ sql: INSERT_RECEIPT, args: [businessId, paymentId, documentId, receiptNumber, today, iso, iso] })
  await tx.execute({
    sql: INSERT_OUTBOX,
    args: [businessId, paymentId, messageId(now), iso.replace(/\.(\d{3})Z$/, '.$1000Z')],
  })
  const paid = BigInt(((await tx.execute({ sql: SUM_PAID, args: [documentId] })).rows[0]![0] as string | null) ?? '0')
  const status =
    paid > 0n && paid >= BigInt(doc.total_minor as string) ? 'paid' : paid > 0n ? 'partially_paid' : 'issued'
  if (status === 'paid') throw new Error(`document ${documentId} is paid in full: seed larger totals`)
  await tx.execute({
    sql: UPDATE_DOCUMENT,
    args: [fromMinor(paid), paid.toString(), status, iso, businessId, documentId],
  })
}

/** One whole transaction: BEGIN IMMEDIATE, recordOne, COMMIT. */
export async function directTransaction(client: Client, ctx: DirectContext, documentId: number): Promise<void> {
  const tx = await client.transaction('write')
  try {
    await recordOne(tx, ctx, documentId)
    await tx.commit()
  } finally {
    tx.close()
  }
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

async function main(): Promise<void> {
  const dbFile = option('db')
  const businessId = Number(option('business'))
  const documentIds = (option('documents') ?? '').split(',').filter(Boolean).map(Number)
  const duration = Number(option('duration') ?? 10)
  const warmup = Number(option('warmup') ?? 2)
  const synchronous = (option('synchronous') ?? 'FULL').toUpperCase()
  if (
    !dbFile ||
    !Number.isSafeInteger(businessId) ||
    documentIds.length === 0 ||
    !documentIds.every(Number.isSafeInteger)
  ) {
    console.error(
      'usage: bun bench/payments-direct.ts --db FILE --business ID --documents ID,ID,... [--duration 10] [--warmup 2] [--synchronous FULL]',
    )
    process.exit(2)
  }
  if (!['FULL', 'NORMAL', 'OFF'].includes(synchronous)) throw new Error('--synchronous must be FULL, NORMAL or OFF')

  // As src/db/client.ts opens the writer.
  const client = createClient({ url: `file:${dbFile}`, concurrency: 1, intMode: 'number' })
  await client.execute('PRAGMA journal_mode = WAL')
  for (const p of [`PRAGMA synchronous = ${synchronous}`, 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000'])
    await client.execute(p)
  const ctx = await directContext(client, businessId)

  /** Runs transactions back to back for `seconds`; returns how many committed and each one's duration (ms). */
  async function loop(seconds: number, startAt: number): Promise<{ count: number; ms: number; samples: number[] }> {
    const samples: number[] = []
    const t0 = performance.now()
    const end = t0 + seconds * 1000
    let i = startAt
    for (;;) {
      const t = performance.now()
      if (t >= end) break
      await directTransaction(client, ctx, documentIds[i++ % documentIds.length]!)
      samples.push(performance.now() - t)
    }
    return { count: samples.length, ms: performance.now() - t0, samples }
  }

  const pct = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN
  const countPayments = async () =>
    Number(
      (await client.execute({ sql: 'SELECT count(*) FROM payments WHERE business_id = ?', args: [businessId] }))
        .rows[0]![0],
    )

  const before = await countPayments()
  const warm = warmup > 0 ? await loop(warmup, 0) : { count: 0 }
  const run = await loop(duration, warm.count)
  const after = await countPayments()
  const sorted = run.samples.sort((a, b) => a - b)
  console.log(
    JSON.stringify({
      synchronous,
      warmupTransactions: warm.count,
      transactions: run.count,
      seconds: run.ms / 1000,
      tps: run.count / (run.ms / 1000),
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
      paymentsAdded: after - before,
    }),
  )
  client.close()
}

if (import.meta.main) await main()
