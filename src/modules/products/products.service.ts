// Product use cases: create, update, get, list, delete (hidden at once, erased 30 days later).
import { blank } from '../../shared/text'
import type { Database, SqlTx, Tx } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag, NotFound } from '../../shared/errors'
import { currencyScale, isCurrency } from '../../shared/currencies'
import { asWritten, format, parseDecimal } from '../../shared/money'
import type { ProductCreateInput, ProductUpdateInput } from './products.model'
import { priceScaleOf } from './products.present'
import {
  codeHolder,
  eraseDeletedBefore,
  findProduct,
  insertProduct,
  insertProductId,
  listProducts,
  markDeleted,
  nextProductId,
  searchTextOf,
  updateProductRow,
  type ProductInsert,
  type ProductRow,
} from './products.repo'

export interface ProductDeps {
  db: Database
  clock: Clock
}

const PRODUCT_ERASE_AFTER_MS = 30 * 24 * 60 * 60 * 1000

function currencyOf(raw: string, bag: FieldErrorBag): string | null {
  const c = raw.trim().toUpperCase()
  if (!isCurrency(c)) {
    bag.add('currency', 'must be an ISO 4217 currency code such as EUR')
    return null
  }
  return c
}

function priceOf(raw: unknown, currency: string, bag: FieldErrorBag): string | null {
  const scale = priceScaleOf(currency)
  const r = parseDecimal(raw, { maxDecimals: scale, min: 'zero' })
  if (!r.ok) {
    bag.add('price', r.message + (r.message.includes('decimals') ? ` for ${currency}` : ''))
    return null
  }
  return asWritten(r, scale)
}

function vatRateOf(raw: unknown, bag: FieldErrorBag): string | null {
  const r = parseDecimal(raw, { maxDecimals: 2, min: 'zero', maxIntegerDigits: 3 })
  if (!r.ok || r.value.gt('100')) {
    bag.add('vat_rate', r.ok ? 'must be from 0 to 100' : r.message)
    return null
  }
  return format(r.value, 2)
}

async function checkCode(
  db: Database,
  businessId: number,
  code: string | null | undefined,
  exceptId: number | undefined,
  bag: FieldErrorBag,
): Promise<void> {
  if (code && (await codeHolder(db.read, businessId, code, exceptId)))
    bag.add('code', 'is held by another Product of the Business')
}

/** A create request judged by every rule of the contract's Product, ready to be written: its row but for the code. */
export interface ProductPlan {
  row: Omit<ProductInsert, 'code' | 'searchText'>
  /** The code the request named (judged again when written), or null for one made from the Product's id. */
  code: string | null
}

/**
 * Judges a create request: its field errors go into `bag` (keyed as the create endpoint keys them) and the answer is
 * null; otherwise the plan is ready for writeProduct. One judge for the create endpoint and the import (extensions §19).
 */
export async function planProduct(
  deps: ProductDeps,
  businessId: number,
  input: ProductCreateInput,
  bag: FieldErrorBag,
): Promise<ProductPlan | null> {
  const name = blank(input.name)
  if (!name) bag.add('name', 'is required')
  const currency = currencyOf(input.currency, bag)
  const price = currency ? priceOf(input.price, currency, bag) : null
  const vatRate = input.vat_rate === undefined || input.vat_rate === null ? '0.00' : vatRateOf(input.vat_rate, bag)
  const code = blank(input.code) ?? null
  await checkCode(deps.db, businessId, code, undefined, bag)
  if (!bag.empty) return null
  const now = deps.clock.now().toISOString()
  return {
    code,
    row: {
      businessId,
      name: name!,
      description: blank(input.description) ?? null,
      type: input.type,
      price: price!,
      currency: currency!,
      vatRate: vatRate!,
      vatIncluded: input.vat_included ?? false,
      unit: blank(input.unit) ?? 'pcs',
      trackInventory: input.track_inventory ?? false,
      stockQuantity: input.stock_quantity ?? null,
      minimumStock: input.minimum_stock ?? null,
      category: blank(input.category) ?? null,
      sku: blank(input.sku) ?? null,
      barcode: blank(input.barcode) ?? null,
      isActive: input.is_active ?? true,
      isArchived: false,
      notes: blank(input.notes) ?? null,
      createdAt: now,
      updatedAt: now,
    },
  }
}

/**
 * The row of a judged Product inside the caller's transaction: a named code is judged again there (a concurrent
 * create, or an earlier row of the same import, may hold it: 422 under `code`); no code takes one made from its id.
 */
async function rowOf(tx: SqlTx, plan: ProductPlan): Promise<ProductInsert> {
  const { businessId } = plan.row
  const code = plan.code
  if (code && (await codeHolder(tx, businessId, code))) {
    const again = new FieldErrorBag()
    again.add('code', 'is held by another Product of the Business')
    again.throwIfAny()
  }
  // A Product sent without a code gets one from the id it is about to receive.
  let assigned = code
  if (!assigned) {
    const id = await nextProductId(tx)
    assigned = `P${String(id).padStart(5, '0')}`
    // A code typed by hand may already hold that shape; step aside rather than collide.
    for (let n = 2; await codeHolder(tx, businessId, assigned); n++) assigned = `P${String(id).padStart(5, '0')}-${n}`
  }
  const row: ProductInsert = { ...plan.row, code: assigned }
  row.searchText = searchTextOf({
    name: row.name,
    code: assigned,
    sku: row.sku ?? null,
    description: row.description ?? null,
  })
  return row
}

/** Writes a judged Product inside the caller's transaction and answers it as stored. */
export async function writeProduct(tx: Tx, plan: ProductPlan): Promise<ProductRow> {
  return insertProduct(tx, await rowOf(tx, plan))
}

/** Writes a judged Product and answers its id only, on any SqlTx (an import's rows, through the prepared writer). */
export async function writeProductId(tx: SqlTx, plan: ProductPlan): Promise<number> {
  return insertProductId(tx, await rowOf(tx, plan))
}

export async function createProduct(
  deps: ProductDeps,
  businessId: number,
  input: ProductCreateInput,
): Promise<ProductRow> {
  const bag = new FieldErrorBag()
  const plan = await planProduct(deps, businessId, input, bag)
  bag.throwIfAny()
  return deps.db.write((tx) => writeProduct(tx, plan!))
}

export async function updateProduct(
  deps: ProductDeps,
  businessId: number,
  id: number,
  input: ProductUpdateInput,
): Promise<ProductRow> {
  const current = await findProduct(deps.db.read, businessId, id)
  if (!current) throw new NotFound('No such Product.')
  const bag = new FieldErrorBag()
  const set: Partial<ProductInsert> = {}

  if (input.name !== undefined) {
    const name = blank(input.name)
    if (!name) bag.add('name', 'must not be blank')
    else set.name = name
  }
  if (input.type !== undefined) set.type = input.type
  const currency = input.currency !== undefined ? currencyOf(input.currency, bag) : current.currency
  if (currency && input.currency !== undefined) set.currency = currency
  if (input.price !== undefined) {
    // A price has no more decimals than the currency sent with it, else the Product's own.
    if (currency) {
      const price = priceOf(input.price, currency, bag)
      if (price) set.price = price
    }
  } else if (currency && input.currency !== undefined) {
    // The price is read as stored, to its last written decimal: "119.00" has two, which JPY does not take. The stored
    // price is never rewritten to fit the new currency; a price sent with it does that.
    const written = current.price.split('.')[1]?.length ?? 0
    if (written > currencyScale(currency)) {
      bag.add(
        'currency',
        `cannot be ${currency} while the price ${current.price} has more decimals than ${currency} takes; send a price with it`,
      )
    }
  }
  // vat_rate and unit sent null keep the Product's value.
  if (input.vat_rate !== undefined && input.vat_rate !== null) {
    const rate = vatRateOf(input.vat_rate, bag)
    if (rate) set.vatRate = rate
  }
  if (input.unit !== undefined && input.unit !== null) set.unit = blank(input.unit) ?? current.unit
  if (input.code !== undefined) {
    const code = blank(input.code)
    if (code) {
      await checkCode(deps.db, businessId, code, id, bag)
      set.code = code
    }
  }
  if (input.vat_included !== undefined) set.vatIncluded = input.vat_included
  if (input.track_inventory !== undefined) set.trackInventory = input.track_inventory
  if (input.stock_quantity !== undefined) set.stockQuantity = input.stock_quantity
  if (input.minimum_stock !== undefined) set.minimumStock = input.minimum_stock
  if (input.is_active !== undefined) set.isActive = input.is_active
  if (input.is_archived !== undefined) set.isArchived = input.is_archived
  for (const f of ['description', 'category', 'sku', 'barcode', 'notes'] as const) {
    if (input[f] !== undefined) set[f] = blank(input[f]) ?? null
  }
  bag.throwIfAny()

  set.updatedAt = deps.clock.now().toISOString()
  set.searchText = searchTextOf({ ...current, ...set } as ProductRow)
  return deps.db.write(async (tx) => {
    if (set.code && (await codeHolder(tx, businessId, set.code, id))) {
      const again = new FieldErrorBag()
      again.add('code', 'is held by another Product of the Business')
      again.throwIfAny()
    }
    const row = await updateProductRow(tx, businessId, id, set)
    if (!row) throw new NotFound('No such Product.')
    return row
  })
}

export async function getProduct(deps: { db: Database }, businessId: number, id: number): Promise<ProductRow> {
  const row = await findProduct(deps.db.read, businessId, id)
  if (!row) throw new NotFound('No such Product.')
  return row
}

export async function deleteProduct(deps: ProductDeps, businessId: number, id: number): Promise<void> {
  const now = deps.clock.now().toISOString()
  const hidden = await deps.db.write((tx) => markDeleted(tx, businessId, id, now))
  if (!hidden) throw new NotFound('No such Product.')
}

/** The erasure job: Products deleted more than 30 days ago are removed for good. */
export function eraseDeletedProducts(deps: ProductDeps): Promise<number> {
  return eraseDeletedBefore(deps.db, new Date(deps.clock.now().getTime() - PRODUCT_ERASE_AFTER_MS).toISOString())
}

export { listProducts }
