// The Payment path's transaction type (SqlTx): what the prepared connection offers at run time is exactly what the
// type lets a function use, so code on that path cannot reach for the query builder and fail only in production.
// The `@ts-expect-error` lines below are part of the test: `tsc --noEmit` (CI, before every landing) fails if SqlTx
// ever offers the query builder again, since an expected error that does not occur is itself an error.
import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../test/harness'
import type { SqlTx } from './client'

let h: Harness
harnessForFile((made) => (h = made))

/** Compiled, never run: each line would use what a SqlTx does not offer. */
export function queryBuilderRefused(tx: SqlTx): void {
  // @ts-expect-error the query builder is not part of a SqlTx
  void tx.select
  // @ts-expect-error nor its inserts
  void tx.insert
  // @ts-expect-error nor nested transactions
  void tx.transaction
}

describe("the Payment path's transaction (SqlTx)", () => {
  test('the prepared connection hands the Payment path exactly all() and run(), the two methods SqlTx declares', async () => {
    const offered = await h.deps.db.writePrepared(async (tx) => Object.keys(tx).sort())
    // A local file uses the prepared-statement connection; a libSQL server falls back to a drizzle transaction.
    if (h.deps.db.nativeFile !== null) expect(offered).toEqual(['all', 'run'])
  })

  test('run() answers the inserted row id on either connection (the Payment and its Receipt are read back by it)', async () => {
    const id = await h.deps.db.writePrepared(async (tx) => {
      const r = await tx.run(sql`INSERT INTO meta (key, value) VALUES (${'sql-tx-id'}, ${'x'})`)
      expect(r.rowsAffected).toBe(1)
      return Number(r.lastInsertRowid)
    })
    expect(id).toBeGreaterThan(0)
    const viaWriter = await h.deps.db.write(async (tx) =>
      Number((await tx.run(sql`INSERT INTO meta (key, value) VALUES (${'sql-tx-id-2'}, ${'x'})`)).lastInsertRowid),
    )
    expect(viaWriter).toBeGreaterThan(0)
  })
})
