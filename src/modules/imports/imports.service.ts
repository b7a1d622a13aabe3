// Imports of Clients and Products from a CSV file (extensions §19): every row judged by the create endpoint's own
// judge (planClient, planProduct), then all of them written in one transaction, or none when any row is refused.
import type { TObject } from '@sinclair/typebox'
import type { SqlTx } from '../../db/client'
import { FieldErrorBag, InvalidRequest } from '../../shared/errors'
import { blank } from '../../shared/text'
import {
  ClientCreateBody,
  clientNumbering,
  planClient,
  writeClientId,
  type ClientDeps,
  type ClientPlan,
} from '../clients'
import { ProductCreateBody, planProduct, writeProductId, type ProductDeps, type ProductPlan } from '../products'
import { readCsv } from './csv'
import { addRowFaults, rowBodies } from './rows'

/** The answer of an import: how many records it created and their ids, in the file's order. */
export interface Imported {
  created: number
  ids: number[]
}

/** Rows judged at once: their checks read the database and may ask VIES, each on its own. */
const JUDGED_AT_ONCE = 16

interface Importer<B, P> {
  schema: TObject
  /** The create endpoint's judge: faults into the bag, or the plan. */
  plan(body: B, bag: FieldErrorBag): Promise<P | null>
  /** The writer of the plans inside the one transaction (what it reads once for every row, read once): the new id. */
  writer(tx: SqlTx): Promise<(plan: P) => Promise<number>>
  /** The field of the code a row may name (no two records of a Business share one), and what holds a code. */
  code: { field: string; holder: string }
}

async function importRows<B, P>(db: ClientDeps['db'], text: string, importer: Importer<B, P>): Promise<Imported> {
  const faults: Record<string, string[]> = {}
  const bodies = rowBodies<B>(importer.schema, readCsv(text), faults)
  const plans: Array<{ row: number; plan: P }> = []
  for (let i = 0; i < bodies.length; i += JUDGED_AT_ONCE) {
    await Promise.all(
      bodies.slice(i, i + JUDGED_AT_ONCE).map(async ({ row, body }) => {
        const bag = new FieldErrorBag()
        const plan = await importer.plan(body, bag)
        if (plan) plans.push({ row, plan })
        else addRowFaults(faults, row, bag.errors)
      }),
    )
  }
  addRepeatedCodes(bodies, importer.code, faults)
  if (Object.keys(faults).length > 0) throw new InvalidRequest(sortedByRow(faults))
  plans.sort((a, b) => a.row - b.row)
  // The prepared writer: each statement of the 10,000 rows' transaction is prepared once, not once per row.
  return db.writePrepared(async (tx) => {
    const write = await importer.writer(tx)
    const ids: number[] = []
    for (const { row, plan } of plans) {
      try {
        ids.push(await write(plan))
      } catch (e) {
        // A fault only the transaction sees (a code a concurrent create took, or one an earlier row without a code
        // was given from the pattern) names its row; all rolls back.
        if (!(e instanceof InvalidRequest)) throw e
        const moved: Record<string, string[]> = {}
        addRowFaults(moved, row, e.errors)
        throw new InvalidRequest(moved)
      }
    }
    return { created: ids.length, ids }
  })
}

/**
 * A code two rows of the file name: the later row's fault under the code's field, found before anything is written
 * and answered with every other row's faults (the transaction would find it only once all the rest had passed).
 * Codes are compared as the create endpoint takes them: trimmed, letter case kept.
 */
function addRepeatedCodes<B>(
  bodies: Array<{ row: number; body: B }>,
  code: Importer<B, unknown>['code'],
  faults: Record<string, string[]>,
): void {
  const firstRow = new Map<string, number>()
  for (const { row, body } of bodies) {
    const cell = (body as Record<string, unknown>)[code.field]
    const named = typeof cell === 'string' ? blank(cell) : null
    if (!named) continue
    const first = firstRow.get(named)
    if (first === undefined) firstRow.set(named, row)
    else
      addRowFaults(faults, row, {
        [code.field]: [`is held by another ${code.holder}: row ${first} of this file names it too`],
      })
  }
}

/** Faults in the file's order (rows were judged several at once), so an answer reads from the first refused row. */
function sortedByRow(faults: Record<string, string[]>): Record<string, string[]> {
  const rowOf = (k: string) => Number(/^rows\.(\d+)/.exec(k)?.[1] ?? 0)
  return Object.fromEntries(Object.entries(faults).sort(([a], [b]) => rowOf(a) - rowOf(b)))
}

export function importClients(
  deps: ClientDeps,
  business: { id: number; currency: string },
  text: string,
): Promise<Imported> {
  return importRows<typeof ClientCreateBody.static, ClientPlan>(deps.db, text, {
    schema: ClientCreateBody,
    plan: (body, bag) => planClient(deps, business, body, bag),
    async writer(tx) {
      const numbering = await clientNumbering(tx, business.id)
      return (plan) => writeClientId(tx, plan, numbering)
    },
    code: { field: 'account_code', holder: 'Client' },
  })
}

export function importProducts(deps: ProductDeps, businessId: number, text: string): Promise<Imported> {
  return importRows<typeof ProductCreateBody.static, ProductPlan>(deps.db, text, {
    schema: ProductCreateBody,
    plan: (body, bag) => planProduct(deps, businessId, body, bag),
    writer: async (tx) => (plan) => writeProductId(tx, plan),
    code: { field: 'code', holder: 'Product' },
  })
}
