// Test kit of the tests that hold the reports' running sums (sums.test.ts, converted.test.ts) against a recomputation
// from the documents: the VAT day sums as stored, and the walk of a Proforma's paid share through every change.
import { sql } from 'drizzle-orm'
import type { Harness } from '../../../test/harness'
import type { Api } from './fixtures'

/** A VAT day-sums table's rows of a Business, each sum as one exact integer (hi · 10^9 + lo), empty rows dropped. */
export function storedVatDays(h: Harness, table: 'report_vat_days' | 'report_fx_vat_days', businessId: number) {
  return h.deps.db.read.all<any>(
    sql.raw(`SELECT day, currency, type, category, rate, bands,
      CAST(net_hi * 1000000000 + net_lo AS TEXT) AS net, CAST(vat_hi * 1000000000 + vat_lo AS TEXT) AS vat
    FROM ${table} WHERE business_id = ${businessId} AND bands <> 0 ORDER BY day, currency, type, category, rate`),
  )
}

/**
 * Moves an issued Proforma's paid share every way it moves, calling `check` after each step: 100.00 paid, that
 * Payment reversed and 30.00 paid instead, then the Proforma converted on 2026-02-20 (it leaves for its Invoice).
 */
export async function walkProformaShare(api: Api, proformaId: number, check: () => Promise<void>): Promise<void> {
  const pp = await api.pay(proformaId, '100.00', '2026-02-06')
  await check()
  await api.reverse(pp.id)
  await api.pay(proformaId, '30.00', '2026-02-06')
  await check()
  await api.convert(proformaId, '2026-02-20')
  await check()
}
