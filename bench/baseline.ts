// The floor the API is compared with: Bun.serve + @libsql/client set up as src/db/client.ts does, no framework, no checks.
//
//   bun bench/baseline.ts --db FILE --port P
//
// GET  /health          {"ok":true}
// GET  /clients/:id     one row of `clients` by id, from the reader connection
// POST /clients         one row inserted into `clients` in one write transaction (BEGIN IMMEDIATE) on the writer,
//                       writes serialised behind a mutex, answered 201 with the row
//
// Same client settings as the service: a writer with concurrency 1, journal_mode=WAL, synchronous=FULL,
// foreign_keys=ON, busy_timeout=5000; a separate reader with concurrency 1, busy_timeout and query_only; intMode number.
import { createClient, type ResultSet } from '@libsql/client'

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const dbFile = option('db')
const port = Number(option('port') ?? 0)
if (!dbFile) {
  console.error('usage: bun bench/baseline.ts --db FILE --port P')
  process.exit(2)
}

const url = `file:${dbFile}`
const writer = createClient({ url, concurrency: 1, intMode: 'number' })
await writer.execute('PRAGMA journal_mode = WAL')
for (const p of ['PRAGMA synchronous = FULL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000'])
  await writer.execute(p)
const reader = createClient({ url, concurrency: 1, intMode: 'number' })
for (const p of ['PRAGMA busy_timeout = 5000', 'PRAGMA query_only = ON']) await reader.execute(p)

/** The same FIFO mutex idea as src/db/mutex.ts: write transactions never overlap. */
let tail: Promise<unknown> = Promise.resolve()
function serialised<T>(fn: () => Promise<T>): Promise<T> {
  const result = tail.then(fn, fn)
  tail = result.catch(() => undefined)
  return result
}

function firstRow(rs: ResultSet): Record<string, unknown> | null {
  const row = rs.rows[0]
  if (!row) return null
  const out: Record<string, unknown> = {}
  rs.columns.forEach((c, i) => (out[c] = row[i]))
  return out
}

const businessId = Number((await reader.execute('SELECT id FROM businesses ORDER BY id LIMIT 1')).rows[0]?.[0] ?? 1)
let inserted = 0

const INSERT = `INSERT INTO clients (business_id, name, email, country, currency, account_code, search_text, created_at, updated_at)
VALUES (?, ?, ?, ?, 'EUR', ?, ?, ?, ?) RETURNING *`

const json = (status: number, value: unknown) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json;charset=utf-8' } })

const server = Bun.serve({
  hostname: '127.0.0.1',
  port,
  async fetch(req) {
    const path = new URL(req.url).pathname
    if (path === '/health') return json(200, { ok: true })
    if (req.method === 'GET' && path.startsWith('/clients/')) {
      const id = Number(path.slice('/clients/'.length))
      if (!Number.isSafeInteger(id)) return json(404, { error: 'not found' })
      const row = firstRow(await reader.execute({ sql: 'SELECT * FROM clients WHERE id = ?', args: [id] }))
      return row ? json(200, row) : json(404, { error: 'not found' })
    }
    if (req.method === 'POST' && path === '/clients') {
      const body = (await req.json()) as { name?: string; email?: string; country?: string }
      const now = new Date().toISOString()
      const row = await serialised(async () => {
        const code = `B${process.pid}-${++inserted}`
        const tx = await writer.transaction('write')
        try {
          const rs = await tx.execute({
            sql: INSERT,
            args: [
              businessId,
              body.name ?? 'x',
              body.email ?? 'x@example.com',
              body.country ?? 'DE',
              code,
              `${body.name}\n${body.email}\n${code}`.toLowerCase(),
              now,
              now,
            ],
          })
          await tx.commit()
          return firstRow(rs)
        } finally {
          tx.close()
        }
      })
      return json(201, row)
    }
    return json(404, { error: 'not found' })
  },
})

console.log(JSON.stringify({ listening: server.port, db: dbFile }))
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void server.stop().then(() => {
      reader.close()
      writer.close()
      process.exit(0)
    })
  })
}
