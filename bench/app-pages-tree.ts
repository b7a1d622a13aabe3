// One tree's side of bench/app-pages.ts: fills a database file with THAT tree's own seeder, migrations and people
// module (loaded from the tree named on the command line, so a baseline checkout seeds with its own code and schema),
// and prints, as its last line, the ids the pages are asked with.
//
//   bun bench/app-pages-tree.ts TREE DB_FILE DOCUMENTS PAYMENTS YEAR
//
// The data is the same in every tree: bench/reports-seed.ts draws from one seeded generator (1000 Clients, documents
// and Payments over YEAR-2 .. YEAR), then 500 Products and a Receipt for each completed Payment are written in plain
// SQL over tables that have not changed since issue 34 was filed.
// bun:sqlite for the few plain statements here, so that this process loads no second copy of the database driver.
import { Database } from 'bun:sqlite'

const [tree, file, documents, payments, year] = process.argv.slice(2)
if (!tree || !file || !documents || !payments || !year) {
  console.error('usage: bun bench/app-pages-tree.ts TREE DB_FILE DOCUMENTS PAYMENTS YEAR')
  process.exit(2)
}

const { seedReports } = await import(`${tree}/bench/reports-seed.ts`)
const seeded = await seedReports({
  file,
  documents: Number(documents),
  payments: Number(payments),
  clients: 1000,
  firstYear: Number(year) - 2,
  lastYear: Number(year),
  seed: 1,
})
const businessId: number = seeded.businessId

const raw = new Database(file)
const now = `${year}-01-02T09:00:00.000Z`
raw.transaction(() => {
  raw
    .query(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 500)
INSERT INTO products (business_id, name, code, description, type, price, currency, vat_rate, unit, search_text,
  created_at, updated_at)
SELECT ?, printf('Bench Product %03d', n), printf('P%04d', n), 'A product of the bench', 'service',
  printf('%d.%02d', 10 + n, n % 100), 'EUR', '19.00', 'pcs', lower(printf('Bench Product %03d', n) || char(10) ||
  printf('P%04d', n)), ?, ?
FROM seq`)
    .run(businessId, now, now)
  raw
    .query(`INSERT INTO receipts (business_id, payment_id, document_id, receipt_number, issue_date, created_at, updated_at)
SELECT business_id, id, document_id, printf('RCT-%07d', id), payment_date, created_at, created_at
FROM payments WHERE business_id = ? AND status = 'completed' ORDER BY id`)
    .run(businessId)
})()
const one = (sql: string, ...args: (string | number)[]) =>
  raw.query(sql).get(...args) as Record<string, string | number>
const business = one('SELECT public_id FROM businesses WHERE id = ?', businessId)
// The heaviest kind of document page: a paid Invoice with two or more Payments and several Lines.
const paid = one(
  `SELECT d.id, d.client_id FROM documents d WHERE d.business_id = ? AND d.status = 'paid'
   AND (SELECT count(*) FROM payments p WHERE p.document_id = d.id) >= 2
   AND (SELECT count(*) FROM document_lines l WHERE l.document_id = d.id) >= 2 ORDER BY d.id DESC LIMIT 1`,
  businessId,
)
const draft = one(
  `SELECT id FROM documents WHERE business_id = ? AND status = 'draft' AND type = 'invoice' ORDER BY id DESC LIMIT 1`,
  businessId,
)
const payment = one(
  `SELECT id FROM payments WHERE document_id = ? AND status = 'completed' ORDER BY id LIMIT 1`,
  Number(paid.id),
)
const product = one('SELECT id FROM products WHERE business_id = ? ORDER BY id LIMIT 1 OFFSET 41', businessId)
raw.exec('PRAGMA wal_checkpoint(TRUNCATE)')
raw.close()

// The person who signs in, through the tree's own people module.
const { loadConfig } = await import(`${tree}/src/config.ts`)
const { createDeps } = await import(`${tree}/src/deps.ts`)
const { silentLogger } = await import(`${tree}/src/shared/logger.ts`)
const { addPerson, choosePassword, addMember } = await import(`${tree}/src/modules/people/index.ts`)
const deps = await createDeps(loadConfig({}, { dbPath: file }), { logger: silentLogger })
const { token } = await addPerson(deps, { email: 'owner@bench.example', name: 'Bench Owner' })
await choosePassword(deps, token, 'a long bench password')
await addMember(deps, businessId, { email: 'owner@bench.example', role: 'owner' })
deps.db.close()

console.log(
  JSON.stringify({
    business: business.public_id,
    document: paid.id,
    client: paid.client_id,
    draft: draft.id,
    payment: payment.id,
    product: product.id,
    seconds: Math.round(seeded.ms / 100) / 10,
  }),
)
