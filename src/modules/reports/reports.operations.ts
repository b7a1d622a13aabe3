// Operations of the four reports (all reads, any Role): income, reported VAT, overdue, client statement.
import { json, type Operation } from '../../platform/operation'
import { utcDay } from '../../shared/dates'
import { getBusiness } from '../business'
import { incomeReport } from './income'
import { overdueReport } from './overdue'
import { parsePeriod } from './period'
import {
  IncomeReportSchema,
  OverdueReportSchema,
  PeriodQuery,
  StatementQuery,
  StatementSchema,
  VatReportSchema,
} from './reports.model'
import { clientStatement } from './statement'
import { vatReport } from './vat'

const tag = 'Reports'
const base = { tag, access: 'read', idempotent: false, refusals: [], mcp: true } as const

export const reportsOperations: Operation[] = [
  {
    ...base,
    name: 'reports_income',
    summary: 'Income: net of the Reportable documents issued in the period, VAT beside it',
    description:
      "In the Business's reporting currency; `from` and `to` are dates (YYYY-MM-DD), the period defaulting to this year.",
    http: { method: 'GET', path: '/v1/reports/income', status: 200 },
    query: PeriodQuery,
    output: IncomeReportSchema,
    async run(actor, { query }, { deps }) {
      return json(
        await incomeReport(deps.db.read, await getBusiness(deps.db.read, actor.businessId), parsePeriod(query)),
      )
    },
  },
  {
    ...base,
    name: 'reports_vat',
    summary: 'Reported VAT of the Invoices and Credit Notes issued in the period, by band',
    description: 'VAT by rate and category over the period (`from`, `to` as dates).',
    http: { method: 'GET', path: '/v1/reports/vat', status: 200 },
    query: PeriodQuery,
    output: VatReportSchema,
    async run(actor, { query }, { deps }) {
      return json(await vatReport(deps.db.read, await getBusiness(deps.db.read, actor.businessId), parsePeriod(query)))
    },
  },
  {
    ...base,
    name: 'reports_overdue',
    summary: 'Overdue documents as of today (UTC), by Client',
    description: 'Every issued document past its due date with something due, summed by Client.',
    http: { method: 'GET', path: '/v1/reports/overdue', status: 200 },
    output: OverdueReportSchema,
    async run(actor, _input, { deps }) {
      return json(
        await overdueReport(deps.db.read, await getBusiness(deps.db.read, actor.businessId), utcDay(deps.clock.now())),
      )
    },
  },
  {
    ...base,
    name: 'reports_statement',
    summary: 'Statement of one Client: per currency, opening balance, entries by date, closing balance',
    description: "The Client named by `client_id` (404 when it is not the Business's), over the period `from`–`to`.",
    http: { method: 'GET', path: '/v1/reports/statement', status: 200 },
    query: StatementQuery,
    output: StatementSchema,
    notFound: true,
    async run(actor, { query }, { deps }) {
      const period = parsePeriod(query)
      return json(await clientStatement(deps.db.read, actor.businessId, Number(query.client_id), period))
    },
  },
]
