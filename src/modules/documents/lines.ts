// Lines of a document from the request: billed Products, free-standing Lines, VAT categories, limits.
import { blank, chars } from '../../shared/text'
import type { Queryable } from '../../db/client'
import { FieldErrorBag } from '../../shared/errors'
import { currencyScale } from '../../shared/currencies'
import { parseDecimal, asWritten, format, type Decimal } from '../../shared/money'
import { findProduct, productPrices } from '../products'
import { AMOUNT_CEILING, lineNet } from './totals'
import type { WrittenLine } from './documents.model'

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const
/** Categories that take rate 0 and need a VATEX exemption code. */
const EXEMPT = new Set(['E', 'AE', 'K', 'G', 'O'])
const VATEX_RE = /^VATEX-[A-Z0-9-]{2,30}$/

/** Whether a Line of this category (as sent: any case) takes a VAT rate of 0: Z and the exempt ones. */
export function takesZeroRate(category: string): boolean {
  const k = category.toUpperCase()
  return k === 'Z' || EXEMPT.has(k)
}

export interface LineInput {
  product_id?: number | null
  description?: string | null
  quantity: string
  unit?: string | null
  unit_price?: string | null
  vat_rate?: string | null
  vat_category?: string | null
  vat_exemption_code?: string | null
  notes?: string | null
}

export interface ResolvedLine {
  position: number
  productId: number | null
  description: string
  quantity: string
  unit: string
  unitPrice: string
  vatRate: string
  vatCategory: string
  vatExemptionCode: string | null
  notes: string | null
}

/** A resolved or stored Line back in the request's words. */
export function writtenLine(l: ResolvedLine): WrittenLine {
  return {
    product_id: l.productId,
    description: l.description,
    quantity: l.quantity,
    unit: l.unit,
    unit_price: l.unitPrice,
    vat_rate: l.vatRate,
    vat_category: l.vatCategory,
    vat_exemption_code: l.vatExemptionCode,
    notes: l.notes,
  }
}

/** A stored Line as a new document's (a duplicate, the Invoice of a Proforma): its Product, words and figures. */
export function copiedLine(l: ResolvedLine): ResolvedLine {
  return {
    position: l.position,
    productId: l.productId,
    description: l.description,
    quantity: l.quantity,
    unit: l.unit,
    unitPrice: l.unitPrice,
    vatRate: l.vatRate,
    vatCategory: l.vatCategory,
    vatExemptionCode: l.vatExemptionCode,
    notes: l.notes,
  }
}

/**
 * Turns request Lines into stored Lines, or collects errors that name each Line by its place (`lines.0.unit`).
 * Money rules: quantity above 0 with at most 4 decimals, unit_price at least 0 with at most 6, each Line net and
 * the Lines total below 10^15.
 */
export async function resolveLines(
  q: Queryable,
  businessId: number,
  currency: string,
  scale: number,
  input: LineInput[],
  bag: FieldErrorBag,
): Promise<ResolvedLine[]> {
  const out: ResolvedLine[] = []
  let total: Decimal | null = null
  for (let i = 0; i < input.length; i++) {
    const l = input[i]!
    const at = (f: string) => `lines.${i}.${f}`
    const here = `Line ${i + 1}`
    let description = blank(l.description)
    let unit = blank(l.unit)
    let unitPrice: string | null = null
    let vatRate: string | null = null
    let productId: number | null = null

    if (l.product_id !== undefined && l.product_id !== null) {
      const product = await findProduct(q, businessId, l.product_id)
      if (!product) {
        bag.add(at('product_id'), `${here}: no such Product in this Business`)
      } else {
        productId = product.id
        description ??= product.name
        unit ??= product.unit
        vatRate = product.vatRate
        // A Product's price applies only on a document in its own currency.
        if (product.currency === currency) unitPrice = productPrices(product).withoutVat
        else if (l.unit_price === undefined || l.unit_price === null) {
          bag.add(
            at('unit_price'),
            `${here}: the Product is priced in ${product.currency}, so send this Line's own unit_price in ${currency}`,
          )
        }
      }
    }
    // Limits count characters (an emoji is one) of the trimmed value, as the request schema does; a Product's name
    // or unit filled in here is held to them too.
    if (!description) bag.add(at('description'), `${here}: a description is required`)
    else if (chars(description) > 1000)
      bag.add(at('description'), `${here}: the description must be at most 1000 characters`)
    if (unit && chars(unit) > 50) bag.add(at('unit'), `${here}: the unit must be at most 50 characters`)

    const qty = parseDecimal(l.quantity, { maxDecimals: 4, min: 'positive' })
    if (!qty.ok) bag.add(at('quantity'), `${here}: the quantity ${qty.message}`)

    if (l.unit_price !== undefined && l.unit_price !== null) {
      const p = parseDecimal(l.unit_price, { maxDecimals: 6, min: 'zero' })
      if (!p.ok) bag.add(at('unit_price'), `${here}: the unit price ${p.message}`)
      else unitPrice = asWritten(p, 6)
    } else if (productId === null && !bag.errors[at('product_id')]) {
      bag.add(at('unit_price'), `${here}: a unit price is required`)
    }

    if (l.vat_rate !== undefined && l.vat_rate !== null) {
      const r = parseDecimal(l.vat_rate, { maxDecimals: 2, min: 'zero', maxIntegerDigits: 3 })
      if (!r.ok || r.value.gt('100'))
        bag.add(at('vat_rate'), `${here}: the VAT rate ${r.ok ? 'must be from 0 to 100' : r.message}`)
      else vatRate = format(r.value, 2)
    }
    vatRate ??= '0.00'

    const category = blank(l.vat_category)?.toUpperCase() ?? (Number(vatRate) === 0 ? 'Z' : 'S')
    const exemption = blank(l.vat_exemption_code)?.toUpperCase() ?? null
    if (!(VAT_CATEGORIES as readonly string[]).includes(category)) {
      bag.add(at('vat_category'), `${here}: the VAT category must be one of ${VAT_CATEGORIES.join(', ')}`)
    } else if (EXEMPT.has(category)) {
      if (Number(vatRate) !== 0) bag.add(at('vat_rate'), `${here}: category ${category} takes a VAT rate of 0`)
      if (!exemption)
        bag.add(at('vat_exemption_code'), `${here}: category ${category} needs an exemption code such as VATEX-EU-AE`)
    } else {
      if (category === 'Z' && Number(vatRate) !== 0)
        bag.add(at('vat_rate'), `${here}: category Z takes a VAT rate of 0`)
      if (category === 'S' && Number(vatRate) === 0)
        bag.add(at('vat_rate'), `${here}: category S needs a VAT rate above 0`)
      if (exemption)
        bag.add(at('vat_exemption_code'), `${here}: only categories ${[...EXEMPT].join(', ')} take an exemption code`)
    }
    if (exemption && !VATEX_RE.test(exemption))
      bag.add(at('vat_exemption_code'), `${here}: the exemption code must be a VATEX code such as VATEX-EU-AE`)

    const notes = blank(l.notes) ?? null
    if (notes && chars(notes) > 500) bag.add(at('notes'), `${here}: notes must be at most 500 characters`)

    if (qty.ok && unitPrice !== null) {
      const net = lineNet({ quantity: qty.value.toFixed(), unitPrice }, scale)
      if (net.gte(AMOUNT_CEILING))
        bag.add(
          at('unit_price'),
          `${here}: the Line net amount (quantity × unit price) must be below 1,000,000,000,000,000 ${currency}`,
        )
      else total = (total ?? net.minus(net)).plus(net)
    }
    out.push({
      position: i + 1,
      productId,
      description: description ?? '',
      quantity: qty.ok ? asWritten(qty, 4) : '0',
      unit: unit ?? 'pcs',
      unitPrice: unitPrice ?? '0',
      vatRate,
      vatCategory: category,
      vatExemptionCode: EXEMPT.has(category) ? exemption : null,
      notes,
    })
  }
  if (total && total.gte(AMOUNT_CEILING))
    bag.add('lines', `the Lines total must be below 1,000,000,000,000,000 ${currency}`)
  return out
}

/**
 * Lines written whole (a recurring template's, a copied document's) resolved again as a Draft's, in `currency`
 * (whose scale they must fit): judged with the Product left out, so a Product deleted or repriced since changes
 * nothing, and its id put back, as a Draft keeps it.
 */
export async function resolveAgain(
  q: Queryable,
  businessId: number,
  currency: string,
  written: LineInput[],
): Promise<ResolvedLine[]> {
  const bag = new FieldErrorBag()
  const free = written.map((l) => ({ ...l, product_id: null }))
  const lines = await resolveLines(q, businessId, currency, currencyScale(currency), free, bag)
  bag.throwIfAny()
  lines.forEach((l, i) => (l.productId = written[i]!.product_id ?? null))
  return lines
}
