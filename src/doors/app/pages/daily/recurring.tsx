// Recurring invoices in the application (extensions §13): the list with each schedule's next date and last run (its
// error shown), an editor like the Draft editor (the same Lines and live totals), the next dates, pause, resume and
// delete. Every change runs the table's recurring_invoices_* operations.
import { findClient, findClients } from '../../../../modules/clients'
import type { RecurringView } from '../../../../modules/recurring'
import { idOf } from '../../../../platform/operation'
import { inAppWords } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit } from '../../kit'
import { HTMX_PATH, Layout } from '../../layout'
import { esc, Field, Notice, Refused, Select } from '../../ui'
import { editorAction, editorClientOf, EditorPage, LinesEditor, linesBodyOf } from './lines-editor'
import { RecordsTable } from '../../list'
import { ActionButton, changeBlocked, Pager } from './words'

const FREQUENCIES = [
  ['month', 'Month'],
  ['week', 'Week'],
  ['day', 'Day'],
  ['year', 'Year'],
] as const
const ACTIONS = [
  ['issue', 'Issue each Invoice'],
  ['send', 'Issue and email each Invoice to the Client'],
  ['draft', 'Make a Draft only'],
] as const
const STATUS_WORDS: Record<string, string> = { active: 'Active', paused: 'Paused', ended: 'Ended' }
const UNIT_WORDS: Record<string, [string, string]> = {
  day: ['day', 'days'],
  week: ['week', 'weeks'],
  month: ['month', 'months'],
  year: ['year', 'years'],
}

/** "Every month", "Every 2 weeks": how a schedule's step reads. */
export function everyWords(r: Pick<RecurringView, 'frequency' | 'interval'>): string {
  const [one, many] = UNIT_WORDS[r.frequency] ?? [r.frequency, r.frequency]
  return r.interval === 1 ? `Every ${one}` : `Every ${r.interval} ${many}`
}

/** Where a schedule ends, in words. */
function endWords(r: Pick<RecurringView, 'end_date' | 'count'>): string {
  if (r.end_date) return `until ${r.end_date}`
  if (r.count !== null) return `${r.count} Invoice${r.count === 1 ? '' : 's'} in all`
  return 'with no end'
}

async function recurringOf(kit: AppKit, c: InBusiness, id: string | undefined): Promise<RecurringView> {
  return kit.operation<RecurringView>(c, 'recurring_invoices_get', {
    path: { id: idOf(id, 'No such recurring invoice.') },
  })
}

function bodyOf(data: URLSearchParams, creating: boolean): { input: FormInput; body: Record<string, unknown> } {
  const f = new FormInput(data)
  const lines = linesBodyOf(data)
  const t = (n: string) => (creating ? f.text(n) : f.nullable(n))
  return {
    input: f,
    body: {
      client_id: creating ? (f.id('client_id') ?? 0) : f.id('client_id'),
      currency: f.text('currency')?.toUpperCase(),
      frequency: f.text('frequency') ?? (creating ? '' : undefined),
      interval: f.int('interval'),
      start_date: f.text('start_date') ?? (creating ? '' : undefined),
      end_date: t('end_date'),
      count: creating ? f.int('count') : f.nullableInt('count'),
      action: f.text('action'),
      payment_terms: creating ? f.int('payment_terms') : f.nullableInt('payment_terms'),
      buyer_reference: t('buyer_reference'),
      order_reference: t('order_reference'),
      notes: t('notes'),
      bank_account_ids: f.ids('bank_account_ids'),
      lines,
    },
  }
}

/** The last date made: its Invoice, or the refusal that stopped a step (kept until the next date). */
function LastRun({ c, r }: { c: InBusiness; r: RecurringView }): JSX.Element {
  const run = r.last_run
  if (!run) return <span class="muted">Not yet</span>
  return (
    <span class="last-run">
      {run.document_id ? (
        <a href={esc(`${c.base}/documents/${run.document_id}`)}>{esc(run.date)}</a>
      ) : (
        <span>{esc(run.date)}</span>
      )}
      {run.error ? (
        <span class="err" data-code={esc(run.error.code ?? '')}>
          {' '}
          {esc(inAppWords(run.error.code, run.error.message))}
        </span>
      ) : (
        ''
      )}
    </span>
  )
}

interface EditorProps {
  c: InBusiness
  state: FormState
  r: RecurringView | null
  extra?: number
}

async function Editor({ c, state, r, extra = 0 }: EditorProps): Promise<string> {
  const today = c.deps.clock.now().toISOString().slice(0, 10)
  return (
    <LinesEditor
      c={c}
      state={state}
      action={r ? `${c.base}/recurring/${r.id}` : `${c.base}/recurring`}
      cancel={`${c.base}/recurring`}
      save={{ id: 'save-recurring', label: r ? 'Save the recurring invoice' : 'Create the recurring invoice' }}
      fields={[
        'frequency',
        'interval',
        'start_date',
        'end_date',
        'count',
        'action',
        'payment_terms',
        'buyer_reference',
        'order_reference',
      ]}
      client={await editorClientOf(c, state.values, r)}
      lines={r?.lines ?? null}
      extra={extra}
      accounts={{ legend: 'Bank accounts shown on each Invoice', chosen: r?.bank_account_ids ?? [] }}
      notes={r?.notes}
      intro={
        <p class="hint flush">
          In descriptions and notes, {'{{month}}'}, {'{{year}}'}, {'{{date}}'} and {'{{period}}'} are filled in for each
          date: “Retainer {'{{month}}'} {'{{year}}'}” reads “Retainer March 2026”.
        </p>
      }
    >
      <Select name="action" label="On each date" state={state} value={r?.action ?? 'issue'} options={ACTIONS} />
      <Select
        name="frequency"
        label="Repeat every"
        state={state}
        value={r?.frequency ?? 'month'}
        options={FREQUENCIES}
      />
      <Field
        name="interval"
        label="Interval"
        state={state}
        value={r ? String(r.interval) : '1'}
        hint="1: every month (or week…); 3: every third."
      />
      <Field
        name="start_date"
        type="date"
        label="First date"
        state={state}
        value={r?.start_date ?? today}
        placeholder="YYYY-MM-DD"
        hint="A month's 31st falls on the last day of shorter months."
      />
      <Field
        name="end_date"
        type="date"
        label="Last date"
        state={state}
        value={r?.end_date}
        placeholder="YYYY-MM-DD"
        hint="Blank: no end date."
      />
      <Field
        name="count"
        label="Number of Invoices"
        state={state}
        value={r?.count === null || r === null ? '' : String(r.count)}
        hint="Blank: no limit. A last date or a number, not both."
      />
      <Field
        name="payment_terms"
        label="Payment terms (days)"
        state={state}
        value={r?.payment_terms === null || r === null ? '' : String(r.payment_terms)}
        hint="Blank: the Client's."
      />
      <Field name="buyer_reference" label="Buyer reference" state={state} value={r?.buyer_reference} />
      <Field name="order_reference" label="Order reference" state={state} value={r?.order_reference} />
    </LinesEditor>
  )
}

/** A schedule's status as a tag: Active stands out. */
function StatusTag({ r, id }: { r: RecurringView; id?: string }): JSX.Element {
  return (
    <span class={r.status === 'active' ? 'tag ok' : 'tag'} id={id}>
      {esc(STATUS_WORDS[r.status] ?? r.status)}
    </span>
  )
}

/** Pause for an active schedule, Resume for a paused one; an ended one has neither. */
function PauseOrResume(p: {
  c: InBusiness
  r: RecurringView
  quiet?: boolean
  id: (step: 'pause' | 'resume') => string
}): JSX.Element {
  if (p.r.status !== 'active' && p.r.status !== 'paused') return ''
  const [step, label] = p.r.status === 'active' ? (['pause', 'Pause'] as const) : (['resume', 'Resume'] as const)
  return <ActionButton c={p.c} path={`/recurring/${p.r.id}/${step}`} label={label} quiet={p.quiet} id={p.id(step)} />
}

/** The schedule at a glance: status, next dates, last run, and pause, resume or delete. */
async function Schedule({ kit, c, r }: { kit: AppKit; c: InBusiness; r: RecurringView }): Promise<string> {
  const { dates } = await kit.operation<{ dates: string[] }>(c, 'recurring_invoices_dates', {
    path: { id: r.id },
    query: { count: '6' },
  })
  return (
    <div class="card" id="schedule">
      <div class="row spread">
        <h2 class="flush">
          {esc(everyWords(r))}, {esc(endWords(r))}
        </h2>
        <StatusTag r={r} id="recurring-status" />
      </div>
      <dl class="facts">
        <dt>Next dates</dt>
        <dd id="next-dates">{dates.length ? esc(dates.join(', ')) : <span class="muted">None: it has ended</span>}</dd>
        <dt>Invoices made</dt>
        <dd>{r.documents_made}</dd>
        <dt>Last run</dt>
        <dd id="last-run">
          <LastRun c={c} r={r} />
        </dd>
      </dl>
      <div class="row">
        <PauseOrResume c={c} r={r} id={(step) => `recurring-${step}`} />
        <ActionButton c={c} path={`/recurring/${r.id}/delete`} label="Delete" danger id="recurring-delete" />
      </div>
    </div>
  )
}

export function recurringRoutes(kit: AppKit): void {
  const list = async (c: InBusiness, state: FormState) => {
    const status = c.url.searchParams.get('status') || undefined
    const page = await kit.list<RecurringView>(c, 'recurring_invoices_list', { status })
    const clients = await findClients(
      c.deps.db.read,
      c.business.id,
      page.data.map((r) => r.client_id),
    )
    return (
      <Layout c={c} title="Recurring invoices" section="recurring">
        <Notice text={c.notice} />
        <Refused state={state} />
        <div class="row spread">
          <h1 class="flush">Recurring invoices</h1>
          {changeBlocked(c) ? (
            ''
          ) : (
            <a class="button" href={esc(`${c.base}/recurring/new`)}>
              New recurring invoice
            </a>
          )}
        </div>
        <RecordsTable
          rows={page.data}
          empty="No recurring invoices yet: one makes an Invoice on each date of its schedule."
          rowAttributes={(r) => ({ id: `recurring-${r.id}` })}
          columns={[
            {
              head: 'Client',
              key: true,
              cell: (r) => (
                <>
                  <a href={esc(`${c.base}/recurring/${r.id}`)}>
                    {esc(clients.get(r.client_id)?.name ?? `Client ${r.client_id}`)}
                  </a>
                  <span class="muted"> {esc(r.lines[0]?.description ?? '')}</span>
                </>
              ),
            },
            { head: 'Schedule', cell: (r) => `${esc(everyWords(r))}, ${esc(endWords(r))}` },
            { head: 'Next date', cell: (r) => (r.next_date ? esc(r.next_date) : <span class="muted">—</span>) },
            { head: 'Made', cell: (r) => String(r.documents_made) },
            { head: 'Last run', cell: (r) => <LastRun c={c} r={r} /> },
            { head: 'Status', cell: (r) => <StatusTag r={r} /> },
            {
              head: 'Actions',
              actions: true,
              cell: (r) => <PauseOrResume c={c} r={r} quiet id={(step) => `${step}-${r.id}`} />,
            },
          ]}
        />
        <Pager next={page.next_cursor} url={c.url} />
      </Layout>
    )
  }
  kit.page('/recurring', 'read', list)

  const newPage = (c: InBusiness, state: FormState, extra = 0) => (
    <EditorPage c={c} title="New recurring invoice" section="recurring">
      <Editor c={c} state={state} r={null} extra={extra} />
    </EditorPage>
  )
  kit.page('/recurring/new', 'change', (c, state) => newPage(c, state))
  editorAction(kit, '/recurring', newPage, async (c, data) => {
    const { input, body } = bodyOf(data, true)
    const r = await kit.operation<RecurringView>(c, 'recurring_invoices_create', { body, form: input })
    return kit.done(c, `/recurring/${r.id}`, 'recurring_created')
  })

  const viewPage = async (c: InBusiness, state: FormState, extra = 0) => {
    const parts = c.url.pathname.split('/').filter(Boolean)
    const r = await recurringOf(kit, c, parts[4])
    const client = await findClient(c.deps.db.read, c.business.id, r.client_id)
    return (
      <Layout c={c} title={`Recurring invoice for ${client?.name ?? ''}`} section="recurring" scripts={[HTMX_PATH]}>
        <Notice text={c.notice} />
        <h1>Recurring invoice for {esc(client?.name ?? `Client ${r.client_id}`)}</h1>
        <Schedule kit={kit} c={c} r={r} />
        {changeBlocked(c) ? (
          ''
        ) : (
          <div class="card">
            <h2>Template and schedule</h2>
            <p class="hint">
              A change applies from the next date on; Invoices already made keep what they were made with.
            </p>
            <Editor c={c} state={state} r={r} extra={extra} />
          </div>
        )}
      </Layout>
    )
  }
  kit.page('/recurring/:id', 'read', (c, state) => viewPage(c, state))
  editorAction(kit, '/recurring/:id', viewPage, async (c, data) => {
    const id = idOf(c.params.id, 'No such recurring invoice.')
    const { input, body } = bodyOf(data, false)
    await kit.operation(c, 'recurring_invoices_update', { path: { id }, body, form: input })
    return kit.done(c, `/recurring/${id}`, 'saved')
  })
  for (const [step, op, notice] of [
    ['pause', 'recurring_invoices_pause', 'recurring_paused'],
    ['resume', 'recurring_invoices_resume', 'recurring_resumed'],
  ] as const) {
    kit.action(
      `/recurring/:id/${step}`,
      'change',
      async (c) => {
        const id = idOf(c.params.id, 'No such recurring invoice.')
        await kit.operation(c, op, { path: { id } })
        return kit.done(c, `/recurring/${id}`, notice)
      },
      list,
    )
  }
  kit.action(
    '/recurring/:id/delete',
    'change',
    async (c) => {
      const id = idOf(c.params.id, 'No such recurring invoice.')
      await kit.operation(c, 'recurring_invoices_delete', { path: { id } })
      return kit.done(c, '/recurring', 'recurring_deleted')
    },
    list,
  )
}
