// What a list of other things (Receipts, Payments) shows of their documents: type, number and Client name, read for
// a whole page of rows in one query rather than one per row.
import { and, eq, inArray } from 'drizzle-orm'
import type { Queryable } from '../../db/client'
import { clients, documents } from '../../db/schema'

export interface DocumentLabel {
  id: number
  type: string
  document_number: string | null
  client_name: string
}

/** The labels of `ids` (documents of this Business only), by id. */
export async function documentLabels(
  q: Queryable,
  businessId: number,
  ids: readonly number[],
): Promise<Map<number, DocumentLabel>> {
  const out = new Map<number, DocumentLabel>()
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return out
  const rows = await q
    .select({
      id: documents.id,
      type: documents.type,
      documentNumber: documents.documentNumber,
      clientSnapshot: documents.clientSnapshot,
      clientName: clients.name,
    })
    .from(documents)
    .leftJoin(clients, eq(clients.id, documents.clientId))
    .where(and(eq(documents.businessId, businessId), inArray(documents.id, wanted)))
  for (const r of rows) {
    // An issued document names the Client as it was issued to (its snapshot); a Draft the Client as it now stands.
    const snapshot = r.clientSnapshot ? ((JSON.parse(r.clientSnapshot) as { name?: string }).name ?? null) : null
    out.set(r.id, {
      id: r.id,
      type: r.type,
      document_number: r.documentNumber,
      client_name: snapshot ?? r.clientName ?? '',
    })
  }
  return out
}
