// The four reports for a chosen period (income, reported VAT, overdue as of today, a Client's statement on the
// Client's page), each with a CSV download written from the very object the API answers.
import { getBusiness } from '../../../../modules/business'
import { findClient } from '../../../../modules/clients'
import {
  clientStatement,
  csvFileName,
  incomeCsv,
  incomeReport,
  overdueCsv,
  overdueReport,
  parsePeriod,
  statementCsv,
  vatCsv,
  vatReport,
  type Period,
} from '../../../../modules/reports'
import { ApiError, NotFound } from '../../../../shared/errors'
import { utcDay } from '../../../../shared/dates'
import type { InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { CardSection, Layout } from '../../layout'
import { esc } from '../../ui'
import { CsvLink, Money, vatBandWords } from './words'
import { PeriodFilter, RecordsTable, type Column } from '../../list'
import { monthPeriod } from './period'
import { ID_RULE } from '../../../../platform/operation'

/** The period asked for, or this month; a wrong one is said on the page and this month shown. */
function periodOf(c: InBusiness): { period: Period; error: string | null } {
  const q = c.url.searchParams
  if (!q.has('from') && !q.has('to')) return { period: monthPeriod(c), error: null }
  try {
    return { period: parsePeriod({ from: q.get('from') ?? '', to: q.get('to') ?? '' }), error: null }
  } catch (e) {
    const errors = e instanceof ApiError ? ((e.extra as { errors?: Record<string, string[]> }).errors ?? {}) : {}
    return {
      period: monthPeriod(c),
      error:
        Object.entries(errors)
          .map(([k, v]) => `${k} ${v.join('; ')}`)
          .join('. ') || 'The period is not valid.',
    }
  }
}

function csvResponse(name: string, body: string): Response {
  // A byte-order mark lets spreadsheet programs read the file as UTF-8.
  return new Response('\uFEFF' + body, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
  })
}

function Other({ n, what, one }: { n: number; what: string; one: string }): JSX.Element {
  return n ? (
    <p class="hint">
      {n} {n === 1 ? one : what} in other currencies not included.
    </p>
  ) : (
    ''
  )
}

/** The period's documents in other currencies at their own exchange rates, fixed at issue (extensions §16). */
function Converted({ c, id }: { c: { net: string; vat: string; documents: number; currency: string }; id: string }) {
  return c.documents ? (
    <p class="hint" id={id}>
      At their own exchange rates, fixed at issue, they come to a net of <Money amount={c.net} currency={c.currency} />{' '}
      and VAT of <Money amount={c.vat} currency={c.currency} />: stated apart, and their VAT is declared too.
    </p>
  ) : (
    ''
  )
}

type VatBand = Awaited<ReturnType<typeof vatReport>>['bands'][number]
type OverdueClient = Awaited<ReturnType<typeof overdueReport>>['clients'][number]

/** The reported VAT's columns: each category and rate, its net and its VAT. */
function vatColumns(cur: string): Column<VatBand>[] {
  return [
    { head: 'VAT band', key: true, cell: (b) => esc(vatBandWords(b.category, b.rate)) },
    { head: 'Net', num: true, cell: (b) => <Money amount={b.net} currency={cur} /> },
    { head: 'VAT', num: true, cell: (b) => <Money amount={b.vat} currency={cur} /> },
  ]
}

/** The overdue report's columns: each Client (opening its page), how many documents are overdue, what they owe. */
function overdueColumns(c: InBusiness, cur: string): Column<OverdueClient>[] {
  return [
    {
      head: 'Client',
      key: true,
      cell: (x) => <a href={esc(`${c.base}/clients/${x.client_id}`)}>{esc(x.name)}</a>,
    },
    { head: 'Documents', num: true, cell: (x) => String(x.documents) },
    { head: 'Amount due', num: true, cell: (x) => <Money amount={x.amount_due} currency={cur} /> },
  ]
}

export function reportsRoutes(kit: AppKit): void {
  kit.page('/reports', 'read', async (c) => {
    const { period, error } = periodOf(c)
    const business = await getBusiness(c.deps.db.read, c.business.id)
    const today = utcDay(c.deps.clock.now())
    const [income, vat, overdue] = await Promise.all([
      incomeReport(c.deps.db.read, business, period),
      vatReport(c.deps.db.read, business, period),
      overdueReport(c.deps.db.read, business, today),
    ])
    const qs = `from=${period.from}&to=${period.to}`
    const cur = business.currency
    return (
      <Layout c={c} title="Reports" section="reports">
        <h1>Reports</h1>
        <PeriodFilter action={`${c.base}/reports`} period={period} standalone />
        {error ? (
          <p class="notice bad" role="alert">
            {esc(error)}
          </p>
        ) : (
          ''
        )}
        <CardSection
          id="r-income"
          title={`Income ${period.from} to ${period.to}`}
          beside={<CsvLink href={`${c.base}/reports/income.csv?${qs}`} id="csv-income" />}
        >
          <dl class="facts">
            <dt>Income (net of VAT)</dt>
            <dd id="report-income">
              <Money amount={income.income} currency={cur} />
            </dd>
            <dt>VAT</dt>
            <dd>
              <Money amount={income.vat} currency={cur} />
            </dd>
          </dl>
          <Other n={income.other_currency_documents} what="documents" one="document" />
          <Converted c={income.converted} id="report-income-converted" />
        </CardSection>
        <CardSection
          id="r-vat"
          title="Reported VAT"
          beside={<CsvLink href={`${c.base}/reports/vat.csv?${qs}`} id="csv-vat" />}
        >
          <RecordsTable
            columns={vatColumns(cur)}
            rows={vat.bands}
            after={
              <tr class="total">
                <th scope="row" class="key">
                  Total
                </th>
                <td class="num" data-label="Net">
                  <Money amount={vat.net} currency={cur} />
                </td>
                <td class="num" data-label="VAT">
                  <Money amount={vat.vat} currency={cur} />
                </td>
              </tr>
            }
          />
          <Other n={vat.other_currency_documents} what="Invoices and Credit Notes" one="Invoice or Credit Note" />
          <Converted c={vat.converted} id="report-vat-converted" />
        </CardSection>
        <CardSection
          id="r-overdue"
          title={`Overdue as of ${today}`}
          beside={<CsvLink href={`${c.base}/reports/overdue.csv`} id="csv-overdue" />}
        >
          <p>
            {overdue.count} document{overdue.count === 1 ? '' : 's'},{' '}
            <Money amount={overdue.amount_due} currency={cur} /> due.
          </p>
          {overdue.clients.length ? <RecordsTable columns={overdueColumns(c, cur)} rows={overdue.clients} /> : ''}
          <Other n={overdue.other_currency_documents} what="overdue documents" one="overdue document" />
        </CardSection>
        <p class="muted">A Client's statement is on the Client's page, with its own period and CSV.</p>
      </Layout>
    )
  })

  // CSV: the API's objects written out; a wrong period is the page's 422 in words.
  const periodOrRefuse = (c: InBusiness) =>
    parsePeriod({ from: c.url.searchParams.get('from') ?? '', to: c.url.searchParams.get('to') ?? '' })
  kit.download('/reports/income.csv', 'read', async (c) => {
    const p = periodOrRefuse(c)
    return csvResponse(
      csvFileName('income', p.from, p.to),
      incomeCsv(await incomeReport(c.deps.db.read, await getBusiness(c.deps.db.read, c.business.id), p)),
    )
  })
  kit.download('/reports/vat.csv', 'read', async (c) => {
    const p = periodOrRefuse(c)
    return csvResponse(
      csvFileName('vat', p.from, p.to),
      vatCsv(await vatReport(c.deps.db.read, await getBusiness(c.deps.db.read, c.business.id), p)),
    )
  })
  kit.download('/reports/overdue.csv', 'read', async (c) => {
    const today = utcDay(c.deps.clock.now())
    return csvResponse(
      csvFileName('overdue', today, null),
      overdueCsv(await overdueReport(c.deps.db.read, await getBusiness(c.deps.db.read, c.business.id), today)),
    )
  })
  kit.download('/reports/statement.csv', 'read', async (c) => {
    const p = periodOrRefuse(c)
    const raw = c.url.searchParams.get('client_id') ?? ''
    const client = ID_RULE.test(raw) ? await findClient(c.deps.db.read, c.business.id, Number(raw)) : undefined
    if (!client) throw new NotFound('No such Client.')
    return csvResponse(
      csvFileName(`statement-${client.id}`, p.from, p.to),
      statementCsv(await clientStatement(c.deps.db.read, c.business.id, client.id, p)),
    )
  })
}
