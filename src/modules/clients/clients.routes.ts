// HTTP routes of Clients: list, create, get, update (no delete).
import { Elysia, t } from 'elysia'
import { credentialOf } from '../../http/context'
import { idempotentCreate, json, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, idempotencyHeader } from '../../http/schemas'
import { parseLimit, toPage } from '../../http/pagination'
import { NotFound } from '../../shared/errors'
import type { ClientDeps } from './clients.service'
import { createClient, listClients, updateClient } from './clients.service'
import { presentClient } from './clients.present'
import { clientByIdStatement, listClientsHot } from './clients.repo'
import { ClientCreateBody, ClientList, ClientListQuery, ClientSchema, ClientUpdateBody } from './clients.model'

const tags = ['Clients']
const ClientParams = t.Object({ client: t.String({ description: 'Client id' }) })

export function clientsRoutes(deps: ClientDeps, http: HttpServices) {
  const clientById = clientByIdStatement(deps.db.read, deps.db.hot)
  return new Elysia({ name: 'clients' })
    .get(
      '/v1/clients',
      async ({ request, query }) => {
        const c = credentialOf(request)
        const limit = parseLimit(query.limit)
        const after = http.cursors.decode(query.cursor, 'clients', c.businessId)
        const search = query.search?.trim() || undefined
        const rows = deps.db.hot ? listClientsHot(deps.db.hot, c.businessId, after, limit + 1, search) : await listClients(deps.db.read, c.businessId, after, limit + 1, search)
        return toPage(rows, limit, presentClient, (id) => http.cursors.encode('clients', c.businessId, id))
      },
      { query: ClientListQuery, response: { 200: ClientList, ...errorAnswers(422) }, detail: { tags, summary: 'List Clients' } },
    )
    .post(
      '/v1/clients',
      ({ request, body }) =>
        idempotentCreate(http, request, async () => json(201, presentClient(await createClient(deps, { id: credentialOf(request).businessId, currency: credentialOf(request).currency }, body)))),
      {
        body: ClientCreateBody,
        response: { 201: ClientSchema, ...errorAnswers(400, 409, 413, 415, 422) },
        detail: { tags, summary: 'Create a Client', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/clients/:client',
      async ({ request, params }) => {
        const row = await clientById(credentialOf(request).businessId, pathId(params.client))
        if (!row) throw new NotFound('No such Client.')
        return presentClient(row)
      },
      { params: ClientParams, response: { 200: ClientSchema, ...errorAnswers(404) }, detail: { tags, summary: 'Get a Client' } },
    )
    .patch(
      '/v1/clients/:client',
      async ({ request, params, body }) => presentClient(await updateClient(deps, credentialOf(request).businessId, pathId(params.client), body)),
      {
        params: ClientParams,
        body: ClientUpdateBody,
        response: { 200: ClientSchema, ...errorAnswers(400, 404, 413, 415, 422) },
        detail: { tags, summary: 'Update a Client' },
      },
    )
}

