// Products: the list with search, create, edit, deactivate or activate, archive. Changes go through the products
// service with the API's body schema.
import { findProduct, presentProduct, productPrices, type ProductRow } from '../../../../modules/products'
import { CatalogList, PRODUCTS } from './catalog'
import { NotFound } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit, NOTICES } from '../../kit'
import { ID_RULE } from '../../../../platform/operation'
import { FormPage, Layout } from '../../layout'
import { esc, Field, PostForm, Refused, Select } from '../../ui'
import { ActionButton, Area, changeBlocked, Money } from './words'
import type { Column } from '../../list'

async function productOf(c: InBusiness, id: string | undefined): Promise<ProductRow> {
  const row = id && ID_RULE.test(id) ? await findProduct(c.deps.db.read, c.business.id, Number(id)) : undefined
  if (!row) throw new NotFound('No such Product.')
  return row
}

function productBody(data: URLSearchParams, update: boolean): { input: FormInput; body: Record<string, unknown> } {
  const f = new FormInput(data)
  const t = (n: string) => (update ? f.nullable(n) : f.text(n))
  const stock = (n: string) => (update ? f.nullableInt(n) : f.int(n))
  return {
    input: f,
    body: {
      name: f.text('name') ?? (update ? undefined : ''),
      type: f.text('type'),
      price: f.text('price') ?? (update ? undefined : ''),
      currency: f.text('currency')?.toUpperCase() ?? (update ? undefined : ''),
      vat_rate: f.text('vat_rate'),
      vat_included: f.checked('vat_included'),
      code: f.text('code'),
      unit: f.text('unit'),
      description: t('description'),
      category: t('category'),
      sku: t('sku'),
      barcode: t('barcode'),
      notes: t('notes'),
      track_inventory: f.checked('track_inventory'),
      stock_quantity: stock('stock_quantity'),
      minimum_stock: stock('minimum_stock'),
    },
  }
}

function ProductForm({
  c,
  state,
  product,
  rate,
}: {
  c: InBusiness
  state: FormState
  product: ProductRow | null
  /** A new Product's VAT rate: the Business's usual one (documents_usual_vat_rate), or null for 0. */
  rate?: string | null
}): JSX.Element {
  const v = product ? presentProduct(product) : null
  const checked = (name: string, stored: boolean | undefined) =>
    state.values ? state.values.has(name) : (stored ?? false)
  return (
    <PostForm action={product ? `${c.base}/products/${product.id}` : `${c.base}/products`} token={c.csrf}>
      <Refused
        state={state}
        shown={[
          'name',
          'type',
          'price',
          'currency',
          'vat_rate',
          'code',
          'unit',
          'description',
          'category',
          'sku',
          'barcode',
          'notes',
          'stock_quantity',
          'minimum_stock',
        ]}
      />
      <div class="grid2">
        <Field name="name" label="Name" state={state} value={v?.name} required maxlength={255} />
        <Select
          name="type"
          label="Type"
          state={state}
          value={v?.type ?? 'service'}
          options={[
            ['service', 'Service'],
            ['product', 'Product'],
          ]}
        />
        <Field
          name="price"
          label="Price"
          state={state}
          value={v?.price}
          required
          hint="A decimal such as 120.00, with no more decimals than its currency."
        />
        <Field
          name="currency"
          label="Currency"
          state={state}
          value={v?.currency ?? c.business.currency}
          required
          maxlength={3}
        />
        <Field name="vat_rate" label="VAT rate (%)" state={state} value={v?.vat_rate ?? rate ?? '0'} />
        <Field name="unit" label="Unit" state={state} value={v?.unit ?? 'pcs'} maxlength={50} />
        <Field
          name="code"
          label="Code"
          state={state}
          value={v?.code}
          maxlength={100}
          hint="Blank: the service assigns one."
        />
        <Field name="category" label="Category" state={state} value={v?.category} />
        <Field name="sku" label="SKU" state={state} value={v?.sku} />
        <Field name="barcode" label="Barcode" state={state} value={v?.barcode} />
        <Field
          name="stock_quantity"
          label="Stock quantity"
          type="number"
          state={state}
          value={v?.stock_quantity === null || v === null ? '' : String(v.stock_quantity)}
        />
        <Field
          name="minimum_stock"
          label="Minimum stock"
          type="number"
          state={state}
          value={v?.minimum_stock === null || v === null ? '' : String(v.minimum_stock)}
        />
      </div>
      <div class="checks">
        <label>
          <input type="checkbox" name="vat_included" checked={checked('vat_included', v?.vat_included)} /> The price
          includes VAT
        </label>
        <label>
          <input type="checkbox" name="track_inventory" checked={checked('track_inventory', v?.track_inventory)} />{' '}
          Track inventory
        </label>
      </div>
      <Area name="description" label="Description" state={state} value={v?.description} />
      <Area name="notes" label="Notes" state={state} value={v?.notes} />
      <div class="row">
        <button type="submit">{product ? 'Save the Product' : 'Create the Product'}</button>
        <a href={esc(`${c.base}/products`)}>Cancel</a>
      </div>
    </PostForm>
  )
}

/** The Products list's columns: a name opens the Product's form (for a person who may change it), and its buttons. */
function productColumns(c: InBusiness): Column<ProductRow>[] {
  return [
    {
      head: 'Name',
      key: true,
      cell: (p) =>
        changeBlocked(c) ? esc(p.name) : <a href={esc(`${c.base}/products/${p.id}/edit`)}>{esc(p.name)}</a>,
    },
    { head: 'Code', cell: (p) => esc(p.code) },
    {
      head: 'Price (before VAT)',
      num: true,
      cell: (p) => <Money amount={productPrices(p).withoutVat} currency={p.currency} />,
    },
    { head: 'VAT', cell: (p) => `${esc(p.vatRate)}%` },
    {
      head: 'Status',
      cell: (p) =>
        p.isArchived ? (
          <span class="tag">Archived</span>
        ) : p.isActive ? (
          <span class="tag ok">Active</span>
        ) : (
          <span class="tag">Inactive</span>
        ),
    },
    {
      head: 'Actions',
      actions: true,
      cell: (p) => (
        <div class="row">
          <ActionButton
            c={c}
            path={`/products/${p.id}/active`}
            label={p.isActive ? 'Deactivate' : 'Activate'}
            quiet
            id={`product-active-${p.id}`}
          />
          {p.isArchived ? (
            ''
          ) : (
            <ActionButton
              c={c}
              path={`/products/${p.id}/archive`}
              label="Archive"
              quiet
              id={`product-archive-${p.id}`}
            />
          )}
        </div>
      ),
    },
  ]
}

export function productsRoutes(kit: AppKit): void {
  const list = (c: InBusiness, state: FormState) => (
    <CatalogList kit={kit} c={c} of={PRODUCTS} columns={productColumns(c)} state={state} />
  )
  kit.page('/products', 'read', list)

  const newPage = async (c: InBusiness, state: FormState) => {
    const { rate } = await c.operation<{ rate: string | null }>('documents_usual_vat_rate')
    return (
      <FormPage c={c} title="New product" section="products">
        <ProductForm c={c} state={state} product={null} rate={rate} />
      </FormPage>
    )
  }
  kit.page('/products/new', 'change', newPage)
  kit.action(
    '/products',
    'change',
    async (c, data) => {
      const { input, body } = productBody(data, false)
      await kit.operation(c, 'products_create', { body, form: input })
      return kit.done(c, '/products', 'product_created')
    },
    newPage,
  )

  const editPage = async (c: InBusiness, state: FormState) => {
    const parts = c.url.pathname.split('/').filter(Boolean)
    const product = await productOf(c, parts[4])
    return (
      <FormPage c={c} title={`Edit ${product.name}`} section="products">
        <ProductForm c={c} state={state} product={product} />
      </FormPage>
    )
  }
  kit.page('/products/:id/edit', 'change', editPage)
  kit.action(
    '/products/:id',
    'change',
    async (c, data) => {
      const product = await productOf(c, c.params.id)
      const { input, body } = productBody(data, true)
      await kit.operation(c, 'products_update', { path: { product: product.id }, body, form: input })
      return kit.done(c, '/products', 'saved')
    },
    editPage,
  )
  // A button of a Product's row: one change to it, then back to the list (which shows a refusal).
  const rowChange = (action: string, body: (p: ProductRow) => Record<string, unknown>, notice: keyof typeof NOTICES) =>
    kit.action(
      `/products/:id/${action}`,
      'change',
      async (c) => {
        const product = await productOf(c, c.params.id)
        await kit.operation(c, 'products_update', { path: { product: product.id }, body: body(product) })
        return kit.done(c, '/products', notice)
      },
      list,
    )
  rowChange('active', (p) => ({ is_active: !p.isActive }), 'saved')
  rowChange('archive', () => ({ is_archived: true }), 'product_archived')
}
