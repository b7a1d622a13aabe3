// Operations of Clients: list, create, get, update (the contract deletes no Client).
import { Type as t } from '@sinclair/typebox'
import { NotFound } from '../../shared/errors'
import { idOf, json, listOperation, listRun, type ApplicationOperation, type Operation } from '../../platform/operation'
import { searchOf } from '../../platform/list-filters'
import { ClientCreateBody, ClientList, ClientListQuery, ClientSchema, ClientUpdateBody } from './clients.model'
import { presentClient } from './clients.present'
import { listClientsHot, loadClient, type ClientRow } from './clients.repo'
import { createClient, listClients, updateClient } from './clients.service'

const tag = 'Clients'
const path = t.Object({ client: t.String({ description: 'Client id' }) })
const args = { client: 'id' }

export const clientsOperations: Operation[] = [
  listOperation({
    name: 'clients_list',
    tag,
    summary: 'List Clients',
    description:
      'Clients oldest first, paged; `search` finds a Client by name, legal name, email, VAT number or account code.',
    http: { method: 'GET', path: '/v1/clients', status: 200 },
    query: ClientListQuery,
    output: ClientList,
    access: 'read',
    mcp: true,
    list: 'clients',
    kept: true,
    filter: searchOf,
    rows: ({ deps: { db } }, actor, after, n, search) =>
      db.hot
        ? listClientsHot(db.hot, actor.businessId, after, n, search)
        : listClients(db.read, actor.businessId, after, n, search),
    present: presentClient,
  }),
  {
    name: 'clients_create',
    tag,
    summary: 'Create a Client',
    description:
      "The currency defaults to the Business's; an EU VAT number is checked with VIES (`vat_verified`); `account_code` takes the next code of the Business's pattern unless one is named.",
    http: { method: 'POST', path: '/v1/clients', status: 201 },
    body: ClientCreateBody,
    output: ClientSchema,
    access: 'write',
    idempotent: true,
    committed: (row) => presentClient(row as ClientRow),
    refusals: ['numbering_at_its_end'],
    mcp: true,
    async run(actor, { body }, { deps }) {
      return json(
        presentClient(await createClient(deps, { id: actor.businessId, currency: actor.currency }, body)),
        201,
      )
    },
  },
  {
    name: 'clients_get',
    tag,
    summary: 'Get a Client',
    description: 'One Client of the Business by its id.',
    http: { method: 'GET', path: '/v1/clients/:client', status: 200 },
    path,
    args,
    output: ClientSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path }, { deps }) {
      const row = await loadClient(deps.db, actor.businessId, idOf(path.client))
      if (!row) throw new NotFound('No such Client.')
      return json(presentClient(row))
    },
  },
  {
    name: 'clients_update',
    tag,
    summary: 'Update a Client',
    description: 'Changes the fields sent; a field sent as null or empty is cleared where the contract allows it.',
    http: { method: 'PATCH', path: '/v1/clients/:client', status: 200 },
    path,
    args,
    body: ClientUpdateBody,
    output: ClientSchema,
    access: 'write',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path, body }, { deps }) {
      return json(presentClient(await updateClient(deps, actor.businessId, idOf(path.client), body)))
    },
  },
]

/** The application's list of Clients: their rows (the page shows what the API's answer leaves out), paged by cursor. */
export const clientsAppOperations: ApplicationOperation[] = [
  {
    name: 'clients_rows',
    description: "A page of the Business's Clients as stored, oldest first, narrowed by `search`.",
    access: 'read',
    refusals: [],
    run: listRun({
      list: 'app_clients',
      filter: searchOf,
      rows: ({ deps }, actor, after, n, search) => listClients(deps.db.read, actor.businessId, after, n, search),
      present: (r) => r,
    }),
  },
]
