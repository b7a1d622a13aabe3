// Operations of Connected apps on the API (Admin keys): list a Business's Connected apps, disconnect one. Not MCP tools.
import { Type as t } from '@sinclair/typebox'
import { Int, ListQuery, NoBody, Paged, Timestamp, Nullable } from '../../shared/schemas'
import { idOf, listOperation, type Operation } from '../../platform/operation'
import { connectedAppsOf, disconnectConnectedApp } from './connections.service'

const base = { tag: 'Connected apps', access: 'admin', mcp: false } as const

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

export const connectedAppsOperations: Operation[] = [
  listOperation({
    ...base,
    name: 'connected_apps_list',
    summary: 'List Connected apps',
    description:
      'The OAuth apps people connected to this Business: the app, the Role granted, who connected it, when, and its last use.',
    http: { method: 'GET', path: '/v1/connected-apps', status: 200 },
    query: t.Object(ListQuery),
    output: Paged(ConnectedAppSchema, 'ConnectedAppList'),
    list: 'connected-apps',
    rows: ({ deps }, actor, after, n) => connectedAppsOf(deps.db, actor.businessId, after, n),
    present: (r) => r,
  }),
  {
    ...base,
    idempotent: false,
    refusals: [],
    name: 'connected_apps_delete',
    summary: 'Disconnect a Connected app: its tokens answer 401 from the next request',
    description: 'Ends the Connected app at once: its access and refresh tokens stop acting.',
    http: { method: 'DELETE', path: '/v1/connected-apps/:id', status: 204 },
    path: t.Object({ id: t.String() }),
    body: NoBody,
    output: null,
    async run(actor, { path }, { deps }) {
      const id = idOf(path.id)
      await disconnectConnectedApp(deps.db, deps.clock, actor.businessId, id)
      return { kind: 'deleted', id }
    },
  },
]
