// HTTP routes of Clients: list, create, get, update (no delete).
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { cachedListPage, idempotentCreate, json, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, idempotencyHeader } from '../../http/schemas'
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
      ({ request, query }) => {
        const search = query.search?.trim() || undefined
        return cachedListPage(
          http,
          request,
          query,
          'clients',
          (c, after, n) => (deps.db.hot ? listClientsHot(deps.db.hot, c.businessId, after, n, search) : listClients(deps.db.read, c.businessId, after, n, search)),
          presentClient,
        )
      },
      { query: ClientListQuery, response: { 200: ClientList, ...errorAnswers(422) }, detail: { tags, summary: 'List Clients' } },
    )
    .post(
      '/v1/clients',
      ({ request, body }) =>
        idempotentCreate(http, request, async () => json(201, presentClient(await createClient(deps, { id: actorOf(request).businessId, currency: actorOf(request).currency }, body)))),
      {
        body: ClientCreateBody,
        response: { 201: ClientSchema, ...errorAnswers(400, 409, 413, 415, 422) },
        detail: { tags, summary: 'Create a Client', parameters: [idempotencyHeader] },
      },
    )
    .get(
      '/v1/clients/:client',
      async ({ request, params }) => {
        const row = await clientById(actorOf(request).businessId, pathId(params.client))
        if (!row) throw new NotFound('No such Client.')
        return presentClient(row)
      },
      { params: ClientParams, response: { 200: ClientSchema, ...errorAnswers(404) }, detail: { tags, summary: 'Get a Client' } },
    )
    .patch(
      '/v1/clients/:client',
      async ({ request, params, body }) => presentClient(await updateClient(deps, actorOf(request).businessId, pathId(params.client), body)),
      {
        params: ClientParams,
        body: ClientUpdateBody,
        response: { 200: ClientSchema, ...errorAnswers(400, 404, 413, 415, 422) },
        detail: { tags, summary: 'Update a Client' },
      },
    )
}

