// The report triggers of migrations/0010_report_sums.sql follow what counts as paid (documents/paid.ts): they hold the
// very SQL paid.ts writes, and over many documents their sums equal what paid.ts's own functions give.
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../../test/harness'
import { Dec } from '../../shared/money'
import { prng } from '../../../test/seeded'
import { Api } from '../reports/fixtures'
import {
  dueMinorSql,
  OWING_STATUSES,
  paidShareMinor,
  paidShareOutOfSql,
  paidShareSql,
  paidState,
  SQL_SHARE_LIMIT,
} from './paid'

// Three hundred writes and reads: seconds on a loaded machine.
setDefaultTimeout(60_000)

let h: Harness
harnessForFile((made) => (h = made), { config: { rateLimit: 1_000_000 } })

describe('the report triggers and what counts as paid', () => {
  test('every report trigger writes the paid share, the amount due and the owing statuses with the SQL paid.ts makes, and no other', async () => {
    const triggers = await h.deps.db.read.all<{ name: string; sql: string }>(
      sql.raw(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'report_documents_%'`),
    )
    expect(triggers.length).toBeGreaterThanOrEqual(3)
    const all = triggers.map((t) => t.sql).join('\n')
    const count = (text: string, part: string) => text.split(part).length - 1
    for (const row of ['NEW', 'OLD']) {
      // Each paid share the triggers take is paid.ts's expression, character for character.
      const shares = count(all, `CASE WHEN ${row}.paid_minor`)
      expect(shares).toBeGreaterThan(0)
      expect(count(all, paidShareSql(row))).toBe(shares)
      // The share SQL cannot take exactly is counted apart by paid.ts's condition.
      expect(all).toContain(paidShareOutOfSql(row).slice(1, -1))
      // What is open is paid.ts's owing statuses, its amount due the total less what was paid.
      expect(all).toContain(
        `${row}.status IN (${OWING_STATUSES.map((s) => `'${s}'`).join(', ')}) AND ${row}.due_date IS NOT NULL`,
      )
      expect(all).toContain(dueMinorSql(row))
    }
  })

  test("over many documents the triggers' income and open sums equal paidShareMinor and paidState's rule (seeded, 300 cases)", async () => {
    const b = await h.business({ currency: 'EUR' })
    const api = new Api(h, b.key)
    const client = await api.client('Paid rule')
    const pf = await api.proforma(client, '2026-03-02', [{ unit_price: '10.00' }], { due_date: '2026-03-30' })
    const db = h.deps.db
    const { next: random, int: between } = prng(34)
    const int = (hi: number) => between(0, hi)

    for (let i = 0; i < 300; i++) {
      // Totals on both sides of what SQL takes exactly; paid nothing, in part, in full, or beyond an amended Total.
      const total = random() < 0.15 ? SQL_SHARE_LIMIT + 1 + int(5_000_000_000) : int(random() < 0.5 ? 1000 : 50_000_000)
      const net = int(total)
      const paid = [0, int(total), total, total + int(1000)][int(3)]!
      const settled = paidState({ status: 'issued', total: String(total) }, new Dec(String(paid)))
      // Mostly the status the Payments give it; now and then a Draft or cancelled one, which counts nowhere.
      const status = random() < 0.1 ? (random() < 0.5 ? 'draft' : 'cancelled') : settled.status
      await db.write((tx) =>
        tx.run(
          sql.raw(
            `UPDATE documents SET net_minor = ${net}, total_minor = ${total}, paid_minor = ${paid}, status = '${status}' WHERE id = ${pf.id}`,
          ),
        ),
      )
      const [day] = await db.read.all<{ income: string; large: number; documents: number }>(
        sql.raw(
          `SELECT CAST(income_hi * 1000000000 + income_lo AS TEXT) AS income, large, documents FROM report_days WHERE business_id = ${b.id} AND day = '2026-03-02' AND currency = 'EUR'`,
        ),
      )
      const [open] = await db.read.all<{ due: string; documents: number }>(
        sql.raw(
          `SELECT CAST(due_hi * 1000000000 + due_lo AS TEXT) AS due, documents FROM report_open_clients WHERE business_id = ${b.id} AND client_id = ${client} AND currency = 'EUR'`,
        ),
      )
      const what = `case ${i}: net ${net}, total ${total}, paid ${paid}, ${status}`
      const standing = status !== 'draft' && status !== 'cancelled'
      const share = paidShareMinor(new Dec(String(net)), new Dec(String(paid)), new Dec(String(total)))
      const apart = paid > 0 && paid < total && total > SQL_SHARE_LIMIT
      expect({ what, documents: day?.documents ?? 0, large: day?.large ?? 0, income: day?.income ?? '0' }).toEqual({
        what,
        documents: standing ? 1 : 0,
        large: standing && apart ? 1 : 0,
        // A share SQL cannot take exactly is left to the report, which takes it with paidShareMinor.
        income: standing && !apart ? share.toFixed(0) : '0',
      })
      // Open (Overdue-able) exactly while the Payments leave something short of the Total, with the Total less paid.
      const owing = standing && !settled.inFull
      expect({ what, owing: (OWING_STATUSES as readonly string[]).includes(status) }).toEqual({ what, owing })
      expect({ what, owing: (open?.documents ?? 0) === 1, due: open?.documents ? open.due : null }).toEqual({
        what,
        owing,
        due: owing ? String(total - paid) : null,
      })
    }
  })
})
