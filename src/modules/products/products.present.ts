// A Product as the API answers it, with its prices before and after VAT at the currency's scale.
import { currencyScale, isCurrency } from '../../shared/currencies'
import { Dec, format, stored } from '../../shared/money'
import type { ProductRow } from './products.repo'

/** The scale a Product's price is held to; a currency withdrawn since the Product was stored is read at two decimals. */
export function priceScaleOf(currency: string): number {
  return isCurrency(currency) ? currencyScale(currency) : 2
}

/** Prices before and after VAT; VAT is divided out of a price that includes it. */
export function productPrices(p: Pick<ProductRow, 'price' | 'vatRate' | 'vatIncluded' | 'currency'>): {
  withoutVat: string
  withVat: string
} {
  const scale = priceScaleOf(p.currency)
  const price = stored(p.price)
  const factor = new Dec('1').plus(stored(p.vatRate).div('100'))
  return p.vatIncluded
    ? { withoutVat: format(price.div(factor), scale), withVat: format(price, scale) }
    : { withoutVat: format(price, scale), withVat: format(price.times(factor), scale) }
}

export function presentProduct(p: ProductRow) {
  const prices = productPrices(p)
  return {
    id: p.id,
    name: p.name,
    code: p.code,
    description: p.description,
    type: p.type,
    price: p.price,
    currency: p.currency,
    vat_rate: p.vatRate,
    vat_included: p.vatIncluded,
    price_without_vat: prices.withoutVat,
    price_with_vat: prices.withVat,
    unit: p.unit,
    track_inventory: p.trackInventory,
    stock_quantity: p.stockQuantity,
    minimum_stock: p.minimumStock,
    category: p.category,
    sku: p.sku,
    barcode: p.barcode,
    is_active: p.isActive,
    is_archived: p.isArchived,
    notes: p.notes,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  }
}
