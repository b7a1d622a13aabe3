// The document's public page as a use case: a Client opens it through an unguessable link; the first open raises
// document.viewed. The page itself (HTML, headers, route) is the public door's (src/doors/public/document-page.ts).
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { getBusiness, type BusinessRow } from '../business'
import { raiseEvent } from '../webhooks'
import { findByPublicToken, linesOf, markViewed, type DocumentRow, type LineRow } from './documents.repo'
import type { ClientSnapshot, SellerSnapshot } from './documents.present'

export interface PublicDocument {
  doc: DocumentRow
  business: BusinessRow
  lines: LineRow[]
  client: ClientSnapshot | null
  /** The seller as the document was issued by (a page is never a Draft's, so the snapshot is there). */
  seller: SellerSnapshot | null
}

/** The issued document behind a page link, its first open recorded; null for no such link (or a Draft's). */
export async function openPublicDocument(
  deps: { db: Database; clock: Clock },
  token: string,
): Promise<PublicDocument | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null
  const doc = await findByPublicToken(deps.db.read, token)
  if (!doc || doc.status === 'draft') return null
  // The first open is recorded and heard once; the conditional update settles two first opens at once. A page
  // already viewed takes no write transaction: anyone holding the link may open it as often as they like.
  if (doc.viewedAt === null) {
    await deps.db.write(async (tx) => {
      const now = deps.clock.now().toISOString()
      const first = await markViewed(tx, doc.id, now)
      if (first) await raiseEvent(tx, deps.clock, doc.businessId, 'document.viewed', doc.id)
    })
  }
  const business = await getBusiness(deps.db.read, doc.businessId)
  const lines = (await linesOf(deps.db.read, [doc.id])).get(doc.id) ?? []
  const client = doc.clientSnapshot ? (JSON.parse(doc.clientSnapshot) as ClientSnapshot) : null
  const seller = doc.sellerSnapshot ? (JSON.parse(doc.sellerSnapshot) as SellerSnapshot) : null
  return { doc, business, lines, client, seller }
}
