// Operations of Products: list, create, get, update, delete.
import { Type as t } from '@sinclair/typebox'
import { NoBody } from '../../shared/schemas'
import { idOf, json, listOperation, listRun, type ApplicationOperation, type Operation } from '../../platform/operation'
import { searchOf } from '../../platform/list-filters'
import { ProductCreateBody, ProductList, ProductListQuery, ProductSchema, ProductUpdateBody } from './products.model'
import { presentProduct } from './products.present'
import type { ProductRow } from './products.repo'
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service'

const tag = 'Products'
const path = t.Object({ product: t.String({ description: 'Product id' }) })
const args = { product: 'id' }

export const productsOperations: Operation[] = [
  listOperation({
    name: 'products_list',
    tag,
    summary: 'List Products (inactive and archived included)',
    description: 'Products oldest first, paged; `search` finds a Product by name, code, SKU or description.',
    http: { method: 'GET', path: '/v1/products', status: 200 },
    query: ProductListQuery,
    output: ProductList,
    access: 'read',
    mcp: true,
    list: 'products',
    kept: true,
    filter: searchOf,
    rows: ({ deps }, actor, after, n, search) => listProducts(deps.db.read, actor.businessId, after, n, search),
    present: presentProduct,
  }),
  {
    name: 'products_create',
    tag,
    summary: 'Create a Product',
    description:
      "A Product's price is a decimal string in its currency, with or without VAT (`vat_included`); its `code` is unique within the Business.",
    http: { method: 'POST', path: '/v1/products', status: 201 },
    body: ProductCreateBody,
    output: ProductSchema,
    access: 'write',
    idempotent: true,
    committed: (row) => presentProduct(row as ProductRow),
    refusals: [],
    mcp: true,
    async run(actor, { body }, { deps }) {
      return json(presentProduct(await createProduct(deps, actor.businessId, body)), 201)
    },
  },
  {
    name: 'products_get',
    tag,
    summary: 'Get a Product',
    description: 'One Product of the Business by its id (a deleted Product is not found).',
    http: { method: 'GET', path: '/v1/products/:product', status: 200 },
    path,
    args,
    output: ProductSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      return json(presentProduct(await getProduct(deps, actor.businessId, idOf(path.product))))
    },
  },
  {
    name: 'products_update',
    tag,
    summary: 'Update a Product',
    description: 'Changes the fields sent; documents already written keep the values they were written with.',
    http: { method: 'PATCH', path: '/v1/products/:product', status: 200 },
    path,
    args,
    body: ProductUpdateBody,
    output: ProductSchema,
    access: 'write',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path, body }, { deps }) {
      return json(presentProduct(await updateProduct(deps, actor.businessId, idOf(path.product), body)))
    },
  },
  {
    name: 'products_delete',
    tag,
    summary: 'Delete a Product',
    description:
      'The Product is gone from the Business at once and erased for good 30 days later; documents keep their Lines.',
    http: { method: 'DELETE', path: '/v1/products/:product', status: 204 },
    path,
    args,
    body: NoBody,
    output: null,
    access: 'write',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      const id = idOf(path.product)
      await deleteProduct(deps, actor.businessId, id)
      return { kind: 'deleted', id }
    },
  },
]

/** The application's list of Products: their rows, paged by cursor. */
export const productsAppOperations: ApplicationOperation[] = [
  {
    name: 'products_rows',
    description:
      "A page of the Business's Products as stored (archived ones left out), oldest first, narrowed by `search`.",
    access: 'read',
    refusals: [],
    run: listRun({
      list: 'app_products',
      filter: searchOf,
      rows: ({ deps }, actor, after, n, search) => listProducts(deps.db.read, actor.businessId, after, n, search),
      present: (r) => r,
    }),
  },
]
