// HTTP routes of the four reports (all GET, any Role): income, reported VAT, overdue, client statement.
import { Elysia } from 'elysia'
import type { Database } from '../../db/client'
import { actorOf } from '../../http/context'
import type { HttpServices } from '../../http/route-helpers'
import { errorAnswers } from '../../http/schemas'
import type { Clock } from '../../shared/clock'
import { utcDay } from '../../shared/dates'
import { getBusiness } from '../business'
import { incomeReport } from './income'
import { overdueReport } from './overdue'
import { parsePeriod } from './period'
import { IncomeReportSchema, OverdueReportSchema, PeriodQuery, StatementQuery, StatementSchema, VatReportSchema } from './reports.model'
import { clientStatement } from './statement'
import { vatReport } from './vat'

const tags = ['Reports']

export function reportsRoutes(deps: { db: Database; clock: Clock }, _http: HttpServices) {
  const read = deps.db.read
  const businessOf = (request: Request) => getBusiness(read, actorOf(request).businessId)
  return new Elysia({ name: 'reports' })
    .get('/v1/reports/income', async ({ request, query }) => incomeReport(read, await businessOf(request), parsePeriod(query)), {
      query: PeriodQuery,
      response: { 200: IncomeReportSchema, ...errorAnswers(422) },
      detail: { tags, summary: 'Income: net of the Reportable documents issued in the period, VAT beside it' },
    })
    .get('/v1/reports/vat', async ({ request, query }) => vatReport(read, await businessOf(request), parsePeriod(query)), {
      query: PeriodQuery,
      response: { 200: VatReportSchema, ...errorAnswers(422) },
      detail: { tags, summary: 'Reported VAT of the Invoices and Credit Notes issued in the period, by band' },
    })
    .get('/v1/reports/overdue', async ({ request }) => overdueReport(read, await businessOf(request), utcDay(deps.clock.now())), {
      response: { 200: OverdueReportSchema, ...errorAnswers() },
      detail: { tags, summary: 'Overdue documents as of today (UTC), by Client' },
    })
    .get(
      '/v1/reports/statement',
      async ({ request, query }) => {
        const period = parsePeriod(query)
        return clientStatement(read, actorOf(request).businessId, Number(query.client_id), period)
      },
      {
        query: StatementQuery,
        response: { 200: StatementSchema, ...errorAnswers(404, 422) },
        detail: { tags, summary: 'Statement of one Client: per currency, opening balance, entries by date, closing balance' },
      },
    )
}
