// Bench fixture written straight into a migrated database file: many Clients in one statement.
import { createClient } from '@libsql/client'

export interface SeedClientsOptions {
  /** Internal (integer) id of the Business, as `invoicing business create --json` prints it in `id`. */
  businessId: number
  count: number
  /** Account codes are written as this prefix + the row number padded to `codeWidth` digits, e.g. C0000001. */
  codePrefix: string
  codeWidth: number
  /** The Business's client numbering pattern (must produce the same codes), so its counter can be moved past them. */
  pattern: string
}

/**
 * Inserts `count` Clients with one INSERT … SELECT over a recursive sequence inside one transaction:
 * a few hundred ms for 100,000 rows. Every NOT NULL column gets a value; search_text is built the way
 * searchTextOf() builds it (name, legal name, email, VAT number, account code; "\n"-joined, lower-cased);
 * account codes are unique per Business and the numbering counter is moved past them so that later
 * creates through the API take the next free code at once.
 */
export async function seedClients(
  dbFile: string,
  o: SeedClientsOptions,
): Promise<{ firstId: number; lastId: number; ms: number }> {
  const t0 = performance.now()
  const db = createClient({ url: `file:${dbFile}`, intMode: 'number' })
  try {
    const now = new Date().toISOString()
    const tx = await db.transaction('write')
    try {
      const before = await tx.execute('SELECT coalesce(max(id), 0) AS m FROM clients')
      const firstId = Number(before.rows[0]!.m) + 1
      await tx.execute({
        sql: `
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
INSERT INTO clients (business_id, name, legal_name, contact_person, email, phone, address, city, postal_code, country,
  vat_number, vat_verified, account_code, currency, payment_terms, is_active, credit_limit, notes,
  preferred_bank_account_ids, search_text, created_at, updated_at)
SELECT ?, nm, lg, 'Pat Example', em, '+49 30 1234567', printf('Example Street %d', n), 'Berlin', printf('%05d', 10000 + n % 90000),
  substr('DEFRATNLITESBEPL', 1 + 2 * (n % 8), 2), NULL, 0, cd, 'EUR', 30, 1, NULL, NULL, '[]',
  lower(nm || char(10) || lg || char(10) || em || char(10) || cd), ?, ?
FROM (SELECT n, printf('Bench Client %06d', n) AS nm, printf('Bench Client %06d GmbH', n) AS lg,
        printf('client%06d@example.com', n) AS em, ? || printf('%0' || ? || 'd', n) AS cd FROM seq)`,
        args: [o.count, o.businessId, now, now, o.codePrefix, o.codeWidth],
      })
      await tx.execute({
        sql: `INSERT INTO number_counters (business_id, kind, pattern, period, highest) VALUES (?, 'client', ?, '', ?)
              ON CONFLICT (business_id, kind, pattern, period) DO UPDATE SET highest = max(highest, excluded.highest)`,
        args: [o.businessId, o.pattern, o.count],
      })
      const after = await tx.execute('SELECT max(id) AS m FROM clients')
      await tx.commit()
      return { firstId, lastId: Number(after.rows[0]!.m), ms: performance.now() - t0 }
    } finally {
      tx.close()
    }
  } finally {
    await db.execute('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined)
    db.close()
  }
}

// Standalone: bun bench/seed.ts DB_FILE BUSINESS_INTERNAL_ID [COUNT]  (the Business's client pattern must be C{NNNNNNN})
if (import.meta.main) {
  const [file, business, count] = process.argv.slice(2)
  if (!file || !business) {
    console.error('usage: bun bench/seed.ts DB_FILE BUSINESS_INTERNAL_ID [COUNT=100000]')
    process.exit(2)
  }
  const r = await seedClients(file, {
    businessId: Number(business),
    count: Number(count ?? 100_000),
    codePrefix: 'C',
    codeWidth: 7,
    pattern: 'C{NNNNNNN}',
  })
  console.log(JSON.stringify(r))
}
