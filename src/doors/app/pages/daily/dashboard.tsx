// The dashboard (a Business's home page): Income this month and this year as the income report computes it, reported
// VAT, the overdue total with the oldest overdue documents, and income by month as a chart drawn on the server.
import { dashboard } from '../../../../modules/reports/dashboard'
import { utcDay } from '../../../../shared/dates'
import { barChartSvg } from '../../chart'
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import { esc, Notice } from '../../ui'
import { changeBlocked, grouped, Money, PageHead, TYPE_WORDS } from './words'
import { RecordsTable, type Column } from '../../list'
import type { InBusiness } from '../../context'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

function Other({ n }: { n: number }): JSX.Element {
  if (n === 0) return ''
  return (
    <p class="hint flush">
      {n} document{n === 1 ? '' : 's'} in other currencies not included
    </p>
  )
}

type OverdueDocument = Awaited<ReturnType<typeof dashboard>>['oldestOverdue'][number]

/** The oldest overdue documents' columns: each document (opening it), its Client, due date, days past it, what it owes. */
function overdueColumns(c: InBusiness): Column<OverdueDocument>[] {
  return [
    {
      head: 'Document',
      key: true,
      cell: (o) => (
        <a href={esc(`${c.base}/documents/${o.id}`)}>
          {esc(TYPE_WORDS[o.type] ?? o.type)} {esc(o.document_number)}
        </a>
      ),
    },
    { head: 'Client', cell: (o) => esc(o.client_name) },
    { head: 'Due', nowrap: true, cell: (o) => esc(o.due_date) },
    { head: 'Days overdue', num: true, cell: (o) => String(o.days_overdue) },
    { head: 'Amount due', num: true, cell: (o) => <Money amount={o.amount_due} currency={o.currency} /> },
  ]
}

export function dashboardRoutes(kit: AppKit): void {
  kit.page('/', 'read', async (c) => {
    const today = utcDay(c.deps.clock.now())
    const d = await dashboard(c.deps.db.read, c.business, today)
    const cur = d.currency
    const monthName = MONTH_NAMES[Number(today.slice(5, 7)) - 1]
    const bars = d.months.map((m) => ({
      label: MONTHS[Number(m.month.slice(5, 7)) - 1]!,
      title: `${MONTH_NAMES[Number(m.month.slice(5, 7)) - 1]} ${m.month.slice(0, 4)}: ${grouped(m.income)} ${cur}${m.other_currency_documents ? ` (${m.other_currency_documents} in other currencies not included)` : ''}`,
      value: m.income,
      current: m.month === today.slice(0, 7),
    }))
    const words = {
      title: `Income by month, ${cur}`,
      description: `Income of each of the last twelve months in ${cur}, net of VAT, as the income report computes it.`,
    }
    // Two drawings of one chart: a phone gets the narrow one, whose words stay readable when scaled down.
    const chart =
      barChartSvg(bars, { ...words, id: 'chart-wide', className: 'chart-wide' }) +
      barChartSvg(
        bars.map((b) => ({ ...b, label: b.label.slice(0, 1) })),
        { ...words, id: 'chart-narrow', className: 'chart-narrow', width: 360, height: 240, fontSize: 14 },
      )
    const otherMonths = d.months.reduce((n, m) => n + m.other_currency_documents, 0)
    const blocked = changeBlocked(c)
    return (
      <Layout c={c} title="Dashboard" section="home">
        <Notice text={c.notice} />
        <PageHead c={c} title={c.business.name}>
          <a class="button" href={esc(`${c.base}/documents/new?type=invoice`)}>
            New invoice
          </a>
          <a class="button quiet" href={esc(`${c.base}/clients/new`)}>
            New client
          </a>
        </PageHead>
        <p class="lead">
          {c.business.isTest ? 'Test business · ' : ''}Figures in {esc(cur)}, net of VAT, as of {esc(today)} (UTC)
        </p>
        {blocked ? <p class="notice warn">{esc(blocked)}</p> : ''}
        <div class="figures">
          <section class="card figure" aria-labelledby="fig-month">
            <h2 id="fig-month">Income in {esc(monthName)}</h2>
            <p class="big" id="month-income">
              <Money amount={d.month.income} currency={cur} />
            </p>
            <p class="flush">
              VAT <Money amount={d.month.vat} currency={cur} />
            </p>
            <Other n={d.month.other_currency_documents} />
          </section>
          <section class="card figure" aria-labelledby="fig-year">
            <h2 id="fig-year">Income in {esc(today.slice(0, 4))}</h2>
            <p class="big" id="year-income">
              <Money amount={d.year.income} currency={cur} />
            </p>
            <p class="flush">
              VAT <Money amount={d.year.vat} currency={cur} />
            </p>
            <Other n={d.year.other_currency_documents} />
          </section>
          <section class="card figure" aria-labelledby="fig-overdue">
            <h2 id="fig-overdue">Overdue</h2>
            <p class={d.overdue.count ? 'big bad' : 'big'} id="overdue-total">
              <Money amount={d.overdue.amount_due} currency={cur} />
            </p>
            <p class="flush">
              {d.overdue.count} document{d.overdue.count === 1 ? '' : 's'} past due ·{' '}
              <a href={esc(`${c.base}/reports?report=overdue`)}>by Client</a>
            </p>
            <Other n={d.overdue.other_currency_documents} />
          </section>
        </div>
        <section class="card" aria-labelledby="chart-h">
          <h2 id="chart-h" class="flush-top">
            Income by month ({esc(cur)})
          </h2>
          {chart}
          <Other n={otherMonths} />
        </section>
        <section class="card" aria-labelledby="oldest-h">
          <h2 id="oldest-h" class="flush-top">
            Oldest overdue documents
          </h2>
          {d.oldestOverdue.length === 0 ? (
            <p class="flush muted">Nothing is overdue.</p>
          ) : (
            <RecordsTable columns={overdueColumns(c)} rows={d.oldestOverdue} />
          )}
        </section>
      </Layout>
    )
  })
}
