// TypeBox models of the Product: request bodies, the answer, the list query.
import { Type as t } from '@sinclair/typebox'
import { Text } from '../../shared/text-schema'
import { Bool, DecimalInput, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode } from '../../shared/format-schemas'

const MAX_STOCK = 2147483647

export const ProductSchema = t.Object(
  {
    id: Int(),
    name: t.String(),
    code: Nullable(t.String()),
    description: Nullable(t.String()),
    type: t.String({ description: 'product or service; other values may be added within v1: keep an unknown one' }),
    price: t.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'as entered, read to its last decimal as stored' }),
    currency: CurrencyCode,
    vat_rate: t.String({ pattern: '^[0-9]+\\.[0-9]{2}$' }),
    vat_included: Bool(),
    price_without_vat: t.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' }),
    price_with_vat: t.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' }),
    unit: t.String(),
    track_inventory: Bool(),
    stock_quantity: Nullable(Int()),
    minimum_stock: Nullable(Int()),
    category: Nullable(t.String()),
    sku: Nullable(t.String()),
    barcode: Nullable(t.String()),
    is_active: Bool(),
    is_archived: Bool(),
    notes: Nullable(t.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Product' },
)

const Type = t.Union([t.Literal('product'), t.Literal('service')])
const Stock = Int({ minimum: 0, maximum: MAX_STOCK })
// Limits count characters of the value as stored (trimmed by blank()), not UTF-16 units: see Text.
const text = (maxLength = 255) => Nullable(Text({ maxLength }))

const optional = {
  vat_included: t.Optional(Bool()),
  code: t.Optional(text(100)),
  unit: t.Optional(text(50)),
  track_inventory: t.Optional(Bool()),
  stock_quantity: t.Optional(Nullable(Stock)),
  minimum_stock: t.Optional(Nullable(Stock)),
  description: t.Optional(text(5000)),
  category: t.Optional(text()),
  sku: t.Optional(text()),
  barcode: t.Optional(text()),
  notes: t.Optional(text(5000)),
  is_active: t.Optional(Bool()),
  vat_rate: t.Optional(Nullable(DecimalInput)),
}

export const ProductCreateBody = t.Object(
  {
    name: Text({ minLength: 1, maxLength: 255 }),
    type: Type,
    price: DecimalInput,
    currency: t.String({ maxLength: 3 }),
    ...optional,
  },
  { additionalProperties: false, title: 'ProductCreate' },
)

export const ProductUpdateBody = t.Object(
  {
    name: t.Optional(Text({ minLength: 1, maxLength: 255 })),
    type: t.Optional(Type),
    price: t.Optional(DecimalInput),
    currency: t.Optional(t.String({ maxLength: 3 })),
    is_archived: t.Optional(Bool()),
    ...optional,
  },
  { additionalProperties: false, title: 'ProductUpdate' },
)

export const ProductListQuery = t.Object({
  ...ListQuery,
  search: t.Optional(t.String({ maxLength: 200, description: 'matches name, code, SKU or description, in any case' })),
})

export const ProductList = Paged(ProductSchema, 'ProductList')

export type ProductCreateInput = typeof ProductCreateBody.static
export type ProductUpdateInput = typeof ProductUpdateBody.static
