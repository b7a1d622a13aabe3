// Operations of recurring invoices (extensions §13): list, create, get, update, delete, pause, resume, next dates.
import { Type as t } from '@sinclair/typebox'
import { recurringStatuses } from '../../db/schema'
import {
  answersFromCommit,
  idOf,
  json,
  listOperation,
  type ApplicationOperation,
  type Operation,
  onRecord,
  deletesRecord,
  makesRecord,
} from '../../platform/operation'
import { InvalidRequest } from '../../shared/errors'
import { ListFilters } from '../../platform/list-filters'
import { NoBody } from '../../shared/schemas'
import {
  DatesAnswer,
  DatesQuery,
  RecurringCreateBody,
  RecurringList,
  RecurringListQuery,
  RecurringSchema,
  RecurringUpdateBody,
} from './recurring.model'
import { presentRecurring } from './recurring.present'
import type { RecurringFilter } from './recurring.repo'
import {
  createRecurring,
  deleteRecurring,
  getRecurring,
  listRecurringRows,
  nextDates,
  pauseRecurring,
  resumeRecurring,
  updateRecurring,
} from './recurring.service'

const tag = 'Recurring invoices'
const path = t.Object({ id: t.String({ description: 'recurring invoice id' }) })

function filterOf(query: Record<string, string | undefined>): RecurringFilter {
  const read = new ListFilters(query)
  return read.done({
    status: read.oneOf('status', recurringStatuses),
    clientId: read.id('client_id', 'must be a Client id'),
  })
}

/** `?count=N` of the dates: 1 to 24, default 12. */
function countOf(raw: string | undefined): number {
  if (raw === undefined) return 12
  if (!/^[0-9]{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 24)
    throw new InvalidRequest({ count: ['must be a whole number from 1 to 24'] })
  return Number(raw)
}

export const recurringOperations: Operation[] = [
  listOperation({
    name: 'recurring_invoices_list',
    tag,
    summary: 'List recurring invoices',
    description: 'Recurring invoices oldest first, paged; filters: client_id, status (active, paused, ended).',
    http: { method: 'GET', path: '/v1/recurring-invoices', status: 200 },
    query: RecurringListQuery,
    output: RecurringList,
    access: 'read',
    mcp: true,
    list: 'recurring_invoices',
    filter: filterOf,
    rows: ({ deps }, actor, after, n, filter) => listRecurringRows(deps, actor, after, n, filter),
    present: presentRecurring,
  }),
  {
    name: 'recurring_invoices_create',
    tag,
    summary: 'Create a recurring invoice',
    description:
      'A template (Client, currency, Lines as a Draft takes them, notes, references) and a schedule (`frequency`, `interval`, `start_date`, and `end_date` or `count`): on each date one Invoice is made and, by `action`, issued (default) or issued and sent. `from_document_id` copies a document; fields sent beside it win. `{{date}}`, `{{month}}`, `{{year}}` and `{{period}}` in Line descriptions and notes are filled in for each date.',
    http: { method: 'POST', path: '/v1/recurring-invoices', status: 201 },
    body: RecurringCreateBody,
    output: RecurringSchema,
    access: 'write',
    idempotent: true,
    committed: answersFromCommit,
    refusals: [],
    mcp: true,
    run: makesRecord(createRecurring),
  },
  {
    name: 'recurring_invoices_get',
    tag,
    summary: 'Get a recurring invoice',
    description:
      'One recurring invoice with its `next_date`, `documents_made` and `last_run` (its error, if the last date was refused).',
    http: { method: 'GET', path: '/v1/recurring-invoices/:id', status: 200 },
    path,
    output: RecurringSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    run: onRecord(getRecurring),
  },
  {
    name: 'recurring_invoices_update',
    tag,
    summary: 'Update a recurring invoice',
    description:
      'Changes the fields sent; a change applies from the next date on (Invoices made keep what they were made with). `lines`, when sent, replace every Line.',
    http: { method: 'PATCH', path: '/v1/recurring-invoices/:id', status: 200 },
    path,
    body: RecurringUpdateBody,
    output: RecurringSchema,
    access: 'write',
    idempotent: false,
    refusals: [],
    mcp: true,
    run: onRecord(updateRecurring),
  },
  {
    name: 'recurring_invoices_delete',
    tag,
    summary: 'Delete a recurring invoice',
    description: 'The schedule makes no more Invoices; those already made stay as they are.',
    http: { method: 'DELETE', path: '/v1/recurring-invoices/:id', status: 204 },
    path,
    body: NoBody,
    output: null,
    access: 'write',
    idempotent: false,
    refusals: [],
    mcp: true,
    run: deletesRecord(deleteRecurring),
  },
  {
    name: 'recurring_invoices_pause',
    tag,
    summary: 'Pause a recurring invoice',
    description: 'No date is made while paused.',
    http: { method: 'POST', path: '/v1/recurring-invoices/:id/pause', status: 200 },
    path,
    body: NoBody,
    output: RecurringSchema,
    access: 'write',
    idempotent: false,
    refusals: ['recurring_paused', 'recurring_ended'],
    mcp: true,
    run: onRecord(pauseRecurring),
  },
  {
    name: 'recurring_invoices_resume',
    tag,
    summary: 'Resume a paused recurring invoice',
    description: 'The next date is the first on or after today: the dates that passed while paused are never made.',
    http: { method: 'POST', path: '/v1/recurring-invoices/:id/resume', status: 200 },
    path,
    body: NoBody,
    output: RecurringSchema,
    access: 'write',
    idempotent: false,
    refusals: ['recurring_active', 'recurring_ended'],
    mcp: true,
    run: onRecord(resumeRecurring),
  },
  {
    name: 'recurring_invoices_dates',
    tag,
    summary: 'The next dates of a recurring invoice',
    description:
      'The next `count` dates (1 to 24, default 12) the schedule will make, fewer when it ends first; a paused one shows them as if resumed today, an ended one none.',
    http: { method: 'GET', path: '/v1/recurring-invoices/:id/dates', status: 200 },
    path,
    query: DatesQuery,
    output: DatesAnswer,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { path, query }, { deps }) {
      const id = idOf(path.id)
      return json({ dates: await nextDates(deps, actor, id, countOf(query.count)) })
    },
  },
]

/** The application's list of recurring invoices: the rows, paged by cursor, with their next dates. */
export const recurringAppOperations: ApplicationOperation[] = []
