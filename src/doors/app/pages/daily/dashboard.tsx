// The dashboard (a Business's home page): Income this month and this year as the income report computes it, reported
// VAT, the overdue total with the oldest overdue documents, and income by month as a chart drawn on the server.
import { dashboard } from '../../../../modules/reports/dashboard'
import type { IncomeReport } from '../../../../modules/reports'
import { utcDay } from '../../../../shared/dates'
import { barChartSvg } from '../../chart'
import type { AppKit } from '../../kit'
import { CardSection, Layout } from '../../layout'
import { esc, Notice } from '../../ui'
import { changeBlocked, grouped, Money, PageHead, TYPE_WORDS } from './words'
import { RecordsTable, type Column } from '../../list'
import type { InBusiness } from '../../context'
import type { Children } from '@kitajs/html'

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

/**
 * One figure of the dashboard: its amount big (red while anything is overdue), what it holds beside (`children`), and
 * the documents in other currencies left out of it.
 */
function Figure(p: {
  id: string
  title: string
  figureId: string
  amount: string
  cur: string
  bad?: boolean
  other: number
  children: Children
}): JSX.Element {
  return (
    <section class="card figure" aria-labelledby={p.id}>
      <h2 id={p.id}>{esc(p.title)}</h2>
      <p class={p.bad ? 'big bad' : 'big'} id={p.figureId}>
        <Money amount={p.amount} currency={p.cur} />
      </p>
      <p class="flush">{p.children}</p>
      <Other n={p.other} />
    </section>
  )
}

/** A period's income, with its VAT beside. */
function IncomeFigure(p: { id: string; title: string; figureId: string; of: IncomeReport; cur: string }): JSX.Element {
  return (
    <Figure
      id={p.id}
      title={p.title}
      figureId={p.figureId}
      amount={p.of.income}
      cur={p.cur}
      other={p.of.other_currency_documents}
    >
      VAT <Money amount={p.of.vat} currency={p.cur} />
    </Figure>
  )
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
          <IncomeFigure
            id="fig-month"
            title={`Income in ${monthName}`}
            figureId="month-income"
            of={d.month}
            cur={cur}
          />
          <IncomeFigure
            id="fig-year"
            title={`Income in ${today.slice(0, 4)}`}
            figureId="year-income"
            of={d.year}
            cur={cur}
          />
          <Figure
            id="fig-overdue"
            title="Overdue"
            figureId="overdue-total"
            amount={d.overdue.amount_due}
            cur={cur}
            other={d.overdue.other_currency_documents}
            bad={d.overdue.count > 0}
          >
            {d.overdue.count} document{d.overdue.count === 1 ? '' : 's'} past due ·{' '}
            <a href={esc(`${c.base}/reports?report=overdue`)}>by Client</a>
          </Figure>
        </div>
        <CardSection id="chart-h" title={`Income by month (${cur})`}>
          {chart}
          <Other n={otherMonths} />
        </CardSection>
        <CardSection id="oldest-h" title="Oldest overdue documents">
          {d.oldestOverdue.length === 0 ? (
            <p class="flush muted">Nothing is overdue.</p>
          ) : (
            <RecordsTable columns={overdueColumns(c)} rows={d.oldestOverdue} />
          )}
        </CardSection>
      </Layout>
    )
  })
}
