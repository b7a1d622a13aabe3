// HTTP routes of Connected apps on the API (Admin keys): list a Business's Connected apps, disconnect one.
import { Elysia, t } from 'elysia'
import type { Database } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { actorOf } from '../../http/context'
import { listPage, pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers, Int, ListQuery, NoBody, Paged, Timestamp, Nullable } from '../../http/schemas'
import { connectedAppsOf, disconnectConnectedApp } from './connections.service'

const tags = ['Connected apps']

const ConnectedAppSchema = t.Object(
  {
    id: Int(),
    app: t.Object({ client_id: t.String(), name: t.String() }),
    role: t.String({ description: 'admin, member or viewer: the Role granted at consent' }),
    connected_by: t.Object({ name: t.String() }),
    connected_at: Timestamp,
    last_used_at: Nullable(Timestamp),
  },
  { title: 'ConnectedApp' },
)

export interface ConnectedAppsRouteDeps {
  db: Database
  clock: Clock
}

export function connectedAppsRoutes(deps: ConnectedAppsRouteDeps, http: HttpServices) {
  return new Elysia({ name: 'connected-apps' })
    .get(
      '/v1/connected-apps',
      ({ request, query }) =>
        listPage(
          http,
          request,
          query,
          'connected-apps',
          (c, after, n) => connectedAppsOf(deps.db, c.businessId, after, n),
          (r) => r,
        ),
      { query: t.Object(ListQuery), response: { 200: Paged(ConnectedAppSchema, 'ConnectedAppList'), ...errorAnswers(422) }, detail: { tags, summary: 'List Connected apps' } },
    )
    .delete(
      '/v1/connected-apps/:id',
      async ({ request, params }) => {
        await disconnectConnectedApp(deps.db, deps.clock, actorOf(request).businessId, pathId(params.id))
        return new Response(null, { status: 204 })
      },
      {
        params: t.Object({ id: t.String() }),
        body: NoBody,
        response: { 204: t.Void(), ...errorAnswers(400, 404, 413, 415, 422) },
        detail: { tags, summary: 'Disconnect a Connected app: its tokens answer 401 from the next request' },
      },
    )
}
