// HTTP routes of Products: list, create, get, update, delete.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { cachedListPage, idempotentCreate, json, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, idempotencyHeader, NoBody } from '../../http/schemas'
import { ProductCreateBody, ProductList, ProductListQuery, ProductSchema, ProductUpdateBody } from './products.model'
import { presentProduct } from './products.present'
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct, type ProductDeps } from './products.service'

const tags = ['Products']
const ProductParams = t.Object({ product: t.String({ description: 'Product id' }) })

export function productsRoutes(deps: ProductDeps, http: HttpServices) {
  return new Elysia({ name: 'products' })
    .get(
      '/v1/products',
      ({ request, query }) =>
        cachedListPage(http, request, query, 'products', (c, after, n) => listProducts(deps.db.read, c.businessId, after, n, query.search?.trim() || undefined), presentProduct),
      { query: ProductListQuery, response: { 200: ProductList, ...errorAnswers(422) }, detail: { tags, summary: 'List Products (inactive and archived included)' } },
    )
    .post(
      '/v1/products',
      ({ request, body }) =>
        idempotentCreate(http, request, async () => json(201, presentProduct(await createProduct(deps, actorOf(request).businessId, body)))),
      {
        body: ProductCreateBody,
        response: { 201: ProductSchema, ...errorAnswers(400, 409, 413, 415, 422) },
        detail: { tags, summary: 'Create a Product', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/products/:product',
      async ({ request, params }) => presentProduct(await getProduct(deps, actorOf(request).businessId, pathId(params.product))),
      { params: ProductParams, response: { 200: ProductSchema, ...errorAnswers(404) }, detail: { tags, summary: 'Get a Product' } },
    )
    .patch(
      '/v1/products/:product',
      async ({ request, params, body }) => presentProduct(await updateProduct(deps, actorOf(request).businessId, pathId(params.product), body)),
      {
        params: ProductParams,
        body: ProductUpdateBody,
        response: { 200: ProductSchema, ...errorAnswers(400, 404, 413, 415, 422) },
        detail: { tags, summary: 'Update a Product' },
      },
    )
    .delete(
      '/v1/products/:product',
      async ({ request, params, set }) => {
        await deleteProduct(deps, actorOf(request).businessId, pathId(params.product))
        set.status = 204
        return new Response(null, { status: 204 })
      },
      {
        params: ProductParams,
        body: NoBody,
        response: { 204: t.Void({ description: 'deleted: gone from the Business at once, erased for good 30 days later' }), ...errorAnswers(400, 404, 413, 415, 422) },
        detail: { tags, summary: 'Delete a Product' },
      },
    )
}
