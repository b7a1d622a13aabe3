// Documents: the list with the API's filters and search (paged), and a document's page with every action. Buttons
// follow the document's `actions` (and the application-only actions' judge): a closed one says why. Each action
// calls the same service as the API; a refusal is shown on the page in the contract's words (422) and changes nothing.
import {
  documentFilterOf,
  documentStatuses,
  documentTypes,
  paymentCounts,
  viewDocument,
  type AppDocument,
  type DocumentSummary,
  type DocumentView,
} from '../../../../modules/documents'
import { listBankAccounts } from '../../../../modules/business'
import { idOf } from '../../../../platform/operation'
import type { PaymentRow, ReceiptRow, RefundView } from '../../../../modules/payments'
import { format, stored } from '../../../../shared/money'
import { utcDay } from '../../../../shared/dates'
import { says } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import { fileResponse, type AppKit } from '../../kit'
import { Layout } from '../../layout'
import { COPY_SCRIPT_PATH } from '../../copy-script'
import { esc, Field, Notice, PostForm, Refused, Select, When } from '../../ui'
import { RecordsTable } from '../../list'
import { OutboxNote } from './outbox'
import {
  ActionButton,
  Area,
  changeBlocked,
  METHOD_WORDS,
  Money,
  owesAmount,
  PageHead,
  Pager,
  showsDueDate,
  STATUS_WORDS,
  StatusTag,
  TYPE_WORDS,
  grouped,
  lineVatWords,
  vatBandWords,
} from './words'

export function docId(c: InBusiness, raw?: string): number {
  const id = raw ?? c.url.pathname.split('/').filter(Boolean)[4] ?? ''
  return idOf(id, 'No such document.')
}

function title(d: { type: string; document_number: string | null }): string {
  return `${TYPE_WORDS[d.type] ?? d.type} ${d.document_number ?? '(Draft)'}`
}

async function ListPage({ c, kit }: { c: InBusiness; kit: AppKit }): Promise<string> {
  const query = Object.fromEntries(c.url.searchParams)
  const filter = documentFilterOf(query)
  const page = await kit.list<DocumentSummary>(c, 'documents_summaries', {
    ...query,
    cursor: undefined,
    limit: undefined,
  })
  const shown = page.data
  const opt = (v: string, words: string, chosen: string | undefined) => (
    <option value={v} selected={v === (chosen ?? '')}>
      {words}
    </option>
  )
  return (
    <Layout c={c} title="Documents" section="documents">
      <Notice text={c.notice} />
      <PageHead c={c} title="Documents">
        <a class="button" href={esc(`${c.base}/documents/new?type=invoice`)}>
          New invoice
        </a>
        <a class="button quiet" href={esc(`${c.base}/documents/new?type=proforma`)}>
          New proforma
        </a>
        <a class="button quiet" href={esc(`${c.base}/documents/new?type=quote`)}>
          New quote
        </a>
      </PageHead>
      <form method="get" action={esc(`${c.base}/documents`)} class="filters grid-filters" role="search">
        <label>
          Search{' '}
          <input type="search" name="search" value={esc(filter.search ?? '')} placeholder="Number, Client or notes" />
        </label>
        <label>
          Type
          <select name="type">
            {opt('', 'Any', filter.type)}
            {documentTypes.map((t) => opt(t, TYPE_WORDS[t]!, filter.type))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            {opt('', 'Any', filter.status)}
            {documentStatuses.map((s) => opt(s, STATUS_WORDS[s] ?? s, filter.status))}
          </select>
        </label>
        <label>
          Issued from <input type="date" name="issue_date_from" value={esc(filter.issueDateFrom ?? '')} />
        </label>
        <label>
          to <input type="date" name="issue_date_to" value={esc(filter.issueDateTo ?? '')} />
        </label>
        {filter.clientId ? <input type="hidden" name="client_id" value={String(filter.clientId)} /> : ''}
        <button type="submit" class="quiet">
          Filter
        </button>
      </form>
      <RecordsTable
        rows={shown}
        empty="No documents match."
        columns={[
          {
            head: 'Document',
            key: true,
            nowrap: true,
            cell: (d) => <a href={esc(`${c.base}/documents/${d.id}`)}>{esc(title(d))}</a>,
          },
          { head: 'Client', cell: (d) => esc(d.client_name) },
          { head: 'Issued', nowrap: true, cell: (d) => esc(d.issue_date ?? '—') },
          { head: 'Due', nowrap: true, cell: (d) => esc((showsDueDate(d.type) && d.due_date) || '—') },
          { head: 'Total', num: true, cell: (d) => <Money amount={d.total} currency={d.currency} /> },
          {
            head: 'Due now',
            num: true,
            cell: (d) => <Money amount={owesAmount(d) ? d.amount_due : null} currency={d.currency} />,
          },
          { head: 'Status', cell: (d) => <StatusTag status={d.status} overdue={d.is_overdue} /> },
        ]}
      />
      <Pager next={page.next_cursor} url={c.url} />
    </Layout>
  )
}

/** A card of the document's page with its heading, which names it (`id` is the heading's). */
function Card(p: { id: string; title: string; hidden?: boolean; children: JSX.Element | JSX.Element[] }): JSX.Element {
  // The title is the code's own words, written as they stand (like any text in a page's markup).
  return (
    <section class="card" aria-labelledby={p.id} hidden={p.hidden}>
      <h2 id={p.id} class="flush-top">
        {p.title}
      </h2>
      {p.children}
    </section>
  )
}

/** A term of a facts list and what it says; `num` sets an amount to the right. */
function Fact(p: {
  label: JSX.Element
  id?: string
  num?: boolean
  children: JSX.Element | JSX.Element[]
}): JSX.Element {
  return (
    <>
      <dt>{p.label}</dt>
      <dd class={p.num ? 'num' : undefined} id={p.id}>
        {p.children}
      </dd>
    </>
  )
}

/** The document's page; `state` carries a refused action's words (and a refused Payment form's fields). */
export async function DocumentPage({ c, state, id }: { c: InBusiness; state: FormState; id: number }): Promise<string> {
  const [v, payments, accounts] = await Promise.all([
    c.operation<AppDocument>('documents_get_for_app', { path: { id } }),
    c.operation<Array<{ payment: PaymentRow; receipt: ReceiptRow | null }>>('payments_rows_of_document', {
      path: { id },
    }),
    listBankAccounts(c.deps.db.read, c.business.id, 0, 100),
  ])
  const d = v.document
  const refunds =
    d.type === 'credit_note' && d.status !== 'draft'
      ? (
          await c.operation<{ data: RefundView[] }>('refunds_list', {
            query: { document_id: String(d.id), limit: '100' },
          })
        ).data
      : null
  const a = d.actions
  const why = (k: string, entry: { open: boolean; code?: string }) =>
    entry.open
      ? null
      : (v.reasons[k] ?? (entry.code === 'role_forbidden' ? 'A Viewer only reads.' : (entry.code ?? 'Closed')))
  const base = `/documents/${d.id}`
  // An action's button: it posts to the path named after the action, closed with the reason its judge gives.
  const button = (k: string, label: string, entry: { open: boolean; code?: string }, look?: 'quiet' | 'danger') => (
    <ActionButton
      c={c}
      path={`${base}/${k.replace('_', '-')}`}
      label={label}
      quiet={look === 'quiet'}
      danger={look === 'danger'}
      closed={why(k, entry)}
      id={`act-${k.replace('_', '-')}`}
    />
  )
  const today = utcDay(c.deps.clock.now())
  /** An amount in the document's currency. */
  const money = (amount: string | null) => <Money amount={amount} currency={d.currency} />
  /** A named amount of the totals box, in the document's currency. */
  const amountFact = (label: string, id: string, amount: string) => (
    <Fact label={label} id={id} num>
      {money(amount)}
    </Fact>
  )
  return (
    <Layout c={c} title={title(d)} section="documents" scripts={d.public_url ? [COPY_SCRIPT_PATH] : []}>
      <Notice text={c.notice} />
      <Refused
        state={state}
        shown={['amount', 'payment_date', 'payment_method', 'bank_account_id', 'reference', 'notes']}
      />
      <div class="row spread">
        <h1 class="flush" id="doc-title">
          {esc(title(d))} <StatusTag status={d.status} overdue={d.is_overdue} />
        </h1>
        <div class="row">
          <a class="button quiet" href={esc(`${c.base}${base}/pdf`)} id="download-pdf">
            PDF
          </a>
          {d.status !== 'draft' && (d.type === 'invoice' || d.type === 'credit_note') ? (
            <a class="button quiet" href={esc(`${c.base}${base}/xml`)} id="download-xml">
              XML
            </a>
          ) : (
            ''
          )}
          {d.type === 'invoice' && d.status !== 'draft' && !changeBlocked(c) ? (
            <a
              class="button quiet"
              href={esc(
                `${c.base}/documents/new?type=credit_note&client_id=${d.client_id}&credited_document_id=${d.id}`,
              )}
              id="new-credit-note"
            >
              Credit Note…
            </a>
          ) : (
            ''
          )}
          {d.status === 'draft' && !changeBlocked(c) ? (
            <a class="button" href={esc(`${c.base}${base}/edit`)} id="edit-draft">
              Edit
            </a>
          ) : (
            ''
          )}
        </div>
      </div>

      <div class="doc-grid">
        <Card id="h-client" title="Client">
          <p class="flush">
            <a href={esc(`${c.base}/clients/${d.client_id}`)}>{esc(d.client.name)}</a>
            {d.client.legal_name && d.client.legal_name !== d.client.name ? <br /> : ''}
            {d.client.legal_name && d.client.legal_name !== d.client.name ? esc(d.client.legal_name) : ''}
            <br />
            {esc([d.client.address, d.client.postal_code, d.client.city, d.client.country].filter(Boolean).join(', '))}
            {d.client.email ? <br /> : ''}
            {esc(d.client.email ?? '')}
          </p>
        </Card>
        <Card id="h-facts" title="Details">
          <dl class="facts">
            <dt>Issued</dt>
            <dd>{esc(d.issue_date ?? 'not yet')}</dd>
            {showsDueDate(d.type) ? (
              <Fact label="Due" id="due-date">
                {esc(d.due_date ?? `${d.payment_terms} days after issue`)}
                {d.is_overdue ? <span class="tag bad"> {d.days_overdue} days overdue</span> : ''}
              </Fact>
            ) : (
              ''
            )}
            <dt>Sent</dt>
            <dd id="last-sent">
              {d.last_sent ? (
                <>
                  <When at={d.last_sent.at} />{' '}
                  {d.last_sent.via === 'marked'
                    ? '(marked sent by hand)'
                    : `to ${esc(d.last_sent.recipients.join(', '))}`}
                </>
              ) : (
                <span class="muted">not sent</span>
              )}
            </dd>
            <dt>Reminded</dt>
            <dd id="last-reminded">
              <When at={v.last_reminded_at} />
              {d.last_reminded
                ? ` (${d.last_reminded.step_days === null ? 'by hand' : `on schedule, step of ${d.last_reminded.step_days} days`}; ${d.reminders_sent} in all)`
                : ''}
            </dd>
            {d.proforma_id ? (
              <Fact label="Converted from">
                <a href={esc(`${c.base}/documents/${d.proforma_id}`)}>its Proforma Invoice</a>
              </Fact>
            ) : (
              ''
            )}
            {d.converted_into_id ? (
              <Fact label="Converted into">
                <a href={esc(`${c.base}/documents/${d.converted_into_id}`)}>its Invoice</a>
              </Fact>
            ) : (
              ''
            )}
            {d.credited_document_id ? (
              <Fact label="Credits" id="credits-invoice">
                <a href={esc(`${c.base}/documents/${d.credited_document_id}`)}>
                  {esc(v.credited_number ? `Invoice ${v.credited_number}` : 'its Invoice')}
                </a>
              </Fact>
            ) : (
              ''
            )}
            {d.credit_note_ids.length > 0 ? (
              <Fact label="Credit Notes" id="credit-notes">
                {d.credit_note_ids.map((cn, i) => (
                  <>
                    {i > 0 ? ', ' : ''}
                    <a href={esc(`${c.base}/documents/${cn}`)}>
                      {esc(v.credit_note_numbers[String(cn)] ?? `Credit Note (Draft)`)}
                    </a>
                  </>
                ))}
              </Fact>
            ) : (
              ''
            )}
          </dl>
        </Card>
      </div>

      {d.public_url ? (
        <Card id="h-link" title="The Client's link">
          <p class="hint flush">
            Copy it and give it to the Client: it opens this document's page (status, amount due, the PDF, your bank
            details) with no sign-in. Anyone holding it can open the page.
          </p>
          <div class="row">
            <input
              type="text"
              readonly
              id="client-link"
              class="grow"
              aria-labelledby="h-link"
              value={esc(d.public_url)}
            />
            <button
              type="button"
              class="quiet"
              id="copy-client-link"
              data-copy="client-link"
              data-copied="Copied"
              hidden
            >
              Copy
            </button>
            <a
              class="button quiet"
              href={esc(new URL(d.public_url).pathname)}
              target="_blank"
              rel="noopener"
              id="open-client-link"
            >
              Open
            </a>
          </div>
        </Card>
      ) : (
        ''
      )}

      <Card id="h-lines" title="Lines">
        <div class="table-wrap">
          <table class="lines-table stacked">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Description</th>
                <th scope="col" class="num">
                  Quantity
                </th>
                <th scope="col" class="num">
                  Unit price
                </th>
                <th scope="col">VAT</th>
                <th scope="col" class="num">
                  Net
                </th>
              </tr>
            </thead>
            <tbody>
              {d.lines.map((l) => (
                <tr>
                  <td>{l.position}</td>
                  <td class="key">
                    {esc(l.description)}
                    {l.notes ? <div class="hint">{esc(l.notes)}</div> : ''}
                  </td>
                  <td class="num" data-label="Quantity">
                    {esc(grouped(l.quantity))} {esc(l.unit)}
                  </td>
                  <td class="num" data-label="Unit price">
                    {esc(grouped(l.unit_price))}
                  </td>
                  <td data-label="VAT">
                    {esc(lineVatWords(l.vat_category, l.vat_rate))}
                    {l.vat_exemption_code ? ` (${esc(l.vat_exemption_code)})` : ''}
                  </td>
                  <td class="num" data-label="Net">
                    <Money amount={l.net_amount} currency={d.currency} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl class="facts totals-box">
          {d.vat_breakdown.map((b) => (
            <Fact
              label={
                <>
                  {esc(vatBandWords(b.category, b.rate))} on {money(b.net)}
                </>
              }
              num
            >
              {money(b.vat)}
            </Fact>
          ))}
          {amountFact('Net', 'doc-net', d.net_total)}
          {amountFact('VAT', 'doc-vat', d.vat_total)}
          <Fact label={<strong>Total</strong>} id="doc-total" num>
            <strong>{money(d.total)}</strong>
          </Fact>
          {d.accounting_currency ? (
            <>
              <Fact label="Exchange rate" id="doc-rate" num>
                {d.exchange_rate
                  ? esc(`1 ${d.currency} = ${d.exchange_rate} ${d.accounting_currency}`)
                  : esc(`the ECB rate of the issue date, fixed at issue`)}
              </Fact>
              <Fact label={`VAT in ${esc(d.accounting_currency)}`} id="doc-vat-accounting" num>
                <Money amount={d.vat_total_accounting} currency={d.accounting_currency} />
              </Fact>
            </>
          ) : (
            ''
          )}
          {owesAmount(d) ? (
            <>
              {amountFact('Paid', 'doc-paid', d.amount_paid)}
              {amountFact('Due', 'doc-due', d.amount_due)}
            </>
          ) : (
            ''
          )}
          {d.type === 'credit_note' && d.status !== 'draft' && d.status !== 'cancelled' ? (
            <>
              {amountFact('Refunded', 'doc-refunded', d.amount_refunded)}
              {amountFact('Owed to the Client', 'doc-owed', leftToRefund(d))}
            </>
          ) : (
            ''
          )}
        </dl>
        {d.notes ? <p class="muted">{esc(d.notes)}</p> : ''}
      </Card>

      <Card id="h-actions" title="Actions">
        <div class="actions-grid">
          {button('issue', 'Issue', a.issue)}
          {a.send.open && !changeBlocked(c) ? (
            <div class="action">
              <a class="button" href={esc(`${c.base}${base}/send`)} id="act-send">
                Send by email…
              </a>
            </div>
          ) : (
            button('send', 'Send by email…', a.send)
          )}
          {button('mark_sent', 'Mark sent', v.app_actions.mark_sent, 'quiet')}
          {button('unmark_sent', 'Take the mark back', v.app_actions.unmark_sent, 'quiet')}
          {button('remind', 'Remind', v.app_actions.remind, 'quiet')}
          {button('remind_again', 'Remind again', v.app_actions.remind_again, 'quiet')}
          {button('convert', 'Convert into an Invoice', a.convert, 'quiet')}
          {button('duplicate', 'Duplicate', v.app_actions.duplicate, 'quiet')}
          {button('cancel', 'Cancel', a.cancel, 'danger')}
          {button('delete', 'Delete the Draft', a.delete, 'danger')}
        </div>
        <OutboxNote c={c} what="a Send or a reminder" />
      </Card>

      {refunds ? <RefundsSection c={c} state={state} d={d} refunds={refunds} accounts={accounts} /> : ''}

      <Card id="h-payments" title="Payments" hidden={d.type === 'credit_note' || d.type === 'quote'}>
        <MoneyMovedTable
          id="payments"
          empty="No Payments."
          receipts
          note={<OutboxNote c={c} what="a Receipt emailed" />}
          rows={payments.map(({ payment: p, receipt: r }) => ({
            mark: { 'data-payment': String(p.id) },
            amount: p.amount,
            currency: p.currency,
            date: p.paymentDate,
            method: p.paymentMethod,
            reference: p.reference,
            completed: paymentCounts(p),
            receipt: r ? (
              <a href={esc(`${c.base}/receipts/${r.id}/pdf`)}>{esc(r.receiptNumber)}</a>
            ) : (
              <span class="muted">none</span>
            ),
            actions: (
              <div class="row">
                {paymentCounts(p) && !changeBlocked(c) ? <a href={esc(`${c.base}/payments/${p.id}`)}>Amend</a> : ''}
                <ActionButton
                  c={c}
                  path={`/payments/${p.id}/reverse`}
                  label="Reverse"
                  danger
                  closed={paymentCounts(p) ? null : says('payment_reversed')}
                  id={`reverse-${p.id}`}
                />
                <ActionButton
                  c={c}
                  path={`/payments/${p.id}/email-receipt`}
                  label="Email the Receipt"
                  quiet
                  closed={
                    !r
                      ? 'This Payment has no Receipt.'
                      : r.voidedAt
                        ? 'The Receipt is void: its Payment was reversed.'
                        : v.receipt_mail_closed
                  }
                  id={`email-receipt-${p.id}`}
                />
              </div>
            ),
          }))}
        />
        <RecordMoneyForm
          c={c}
          state={state}
          action={`${c.base}${base}/payments`}
          heading="Record a Payment"
          currency={d.currency}
          amount={d.amount_due}
          date={{ name: 'payment_date', label: 'Date received', value: today, placeholder: 'YYYY-MM-DD' }}
          method="payment_method"
          accounts={accounts}
          submit={{ id: 'record-payment', label: 'Record the Payment' }}
          closed={changeBlocked(c) ?? why('record_payment', a.record_payment)}
          closedId="record-closed"
        />
      </Card>
    </Layout>
  )
}

// Money moved on a document's page: its Payments (an Invoice's) or refunds (a Credit Note's) and the form that
// records one. The two differ only in their words, their fields' names and a Payment's Receipt column.

/** A Payment or a refund as its row shows it. */
interface MoneyMovedRow {
  /** The row's mark that tests and the page's links find it by, e.g. `data-payment="3"`. */
  mark: Record<string, string>
  amount: string
  currency: string
  date: string
  method: string
  reference: string | null
  /** Completed (it counts), else reversed. */
  completed: boolean
  /** A Payment's Receipt cell; refunds have no Receipt column. */
  receipt?: JSX.Element
  actions: JSX.Element
}

/** The table of money moved, or `empty` in words when there is none. */
function MoneyMovedTable(p: {
  id: string
  empty: string
  /** Whether the table has the Receipt column (Payments). */
  receipts?: boolean
  /** A note below the table (the Payments' word on emailed Receipts). */
  note?: JSX.Element
  rows: MoneyMovedRow[]
}): JSX.Element {
  if (p.rows.length === 0) return <p class="muted">{esc(p.empty)}</p>
  return (
    <div class="table-wrap">
      <table id={p.id} class="stacked">
        <thead>
          <tr>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Date</th>
            <th scope="col">Method</th>
            {p.receipts ? <th scope="col">Receipt</th> : ''}
            <th scope="col">Status</th>
            <th scope="col">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr {...r.mark}>
              <td class="key">
                <Money amount={r.amount} currency={r.currency} />
              </td>
              <td data-label="Date" class="nowrap">
                {esc(r.date)}
              </td>
              <td data-label="Method">
                {esc(METHOD_WORDS[r.method] ?? r.method)}
                {r.reference ? <div class="hint">{esc(r.reference)}</div> : ''}
              </td>
              {p.receipts ? (
                <td data-label="Receipt" class="nowrap">
                  {r.receipt}
                </td>
              ) : (
                ''
              )}
              <td data-label="Status">
                {r.completed ? <span class="tag ok">Completed</span> : <span class="tag">Reversed</span>}
              </td>
              <td>{r.actions}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.note ?? ''}
    </div>
  )
}

/**
 * The form that records a Payment or a refund: amount, date, and how the money moved (method, bank account,
 * reference, notes); when `closed` says why it cannot, that reason in its place.
 */
function RecordMoneyForm(p: {
  c: InBusiness
  state: FormState
  action: string
  heading: string
  /** Shown above the fields when the form shows its own refusal (a refund's); a Payment's is at the page's top. */
  refused?: string[]
  currency: string
  amount: string
  date: { name: string; label: string; value: string; placeholder?: string }
  /** The method's field name: the Payment body's `payment_method`, the refund body's `method`. */
  method: string
  accounts: Array<{ id: number; name: string; iban: string }>
  submit: { id: string; label: string }
  closed: string | null
  closedId: string
}): JSX.Element {
  if (p.closed !== null) {
    return (
      <p class="muted" id={p.closedId}>
        {esc(p.closed)}
      </p>
    )
  }
  const { state, accounts } = p
  return (
    <PostForm action={p.action} token={p.c.csrf} class="stack payment-form">
      <h3 class="flush">{esc(p.heading)}</h3>
      {p.refused ? <Refused state={state} shown={p.refused} /> : ''}
      <div class="grid3">
        <Field name="amount" label={`Amount (${p.currency})`} state={state} value={p.amount} required />
        <Field
          name={p.date.name}
          type="date"
          label={p.date.label}
          state={state}
          value={p.date.value}
          required
          placeholder={p.date.placeholder}
        />
        <Select
          name={p.method}
          label="Method"
          state={state}
          value="bank_transfer"
          options={Object.entries(METHOD_WORDS) as [string, string][]}
        />
        <Select
          name="bank_account_id"
          label="Bank account (bank transfer)"
          state={state}
          value={accounts[0] ? String(accounts[0].id) : ''}
          options={[['', 'None'] as const, ...accounts.map((x) => [String(x.id), `${x.name} (${x.iban})`] as const)]}
        />
        <Field name="reference" label="Reference" state={state} maxlength={255} />
        <Field name="notes" label="Notes" state={state} />
      </div>
      <div class="row">
        <button type="submit" id={p.submit.id}>
          {esc(p.submit.label)}
        </button>
      </div>
    </PostForm>
  )
}

/** What a Credit Note still owes its Client: its total less its completed refunds (exact decimals). */
function leftToRefund(d: Pick<DocumentView, 'total' | 'amount_refunded'>): string {
  return format(stored(d.total).minus(stored(d.amount_refunded)), d.total.split('.')[1]?.length ?? 0)
}

/** A Credit Note's refunds (extensions §20): each with its reverse button, and the form that records one. */
function RefundsSection(p: {
  c: InBusiness
  state: FormState
  d: DocumentView
  refunds: RefundView[]
  accounts: Array<{ id: number; name: string; iban: string }>
}): JSX.Element {
  const { c, state, d, refunds, accounts } = p
  const left = leftToRefund(d)
  const open = d.status !== 'cancelled' && stored(left).gt(stored('0'))
  return (
    <Card id="h-refunds" title="Refunds">
      <p class="hint">A Credit Note says the Business owes its Client money; a refund records that it went back.</p>
      <MoneyMovedTable
        id="refunds"
        empty="No refunds."
        rows={refunds.map((r) => ({
          mark: { 'data-refund': String(r.id) },
          amount: r.amount,
          currency: r.currency,
          date: r.refund_date,
          method: r.method,
          reference: r.reference,
          completed: r.status === 'completed',
          actions: (
            <ActionButton
              c={c}
              path={`/refunds/${r.id}/reverse`}
              label="Reverse"
              danger
              closed={r.status === 'completed' ? null : says('refund_reversed')}
              id={`reverse-refund-${r.id}`}
            />
          ),
        }))}
      />
      <RecordMoneyForm
        c={c}
        state={state}
        action={`${c.base}/documents/${d.id}/refunds`}
        heading="Record a refund"
        refused={['amount', 'refund_date', 'method', 'bank_account_id', 'reference', 'notes']}
        currency={d.currency}
        amount={left}
        date={{ name: 'refund_date', label: 'Date paid back', value: utcDay(c.deps.clock.now()) }}
        method="method"
        accounts={accounts}
        submit={{ id: 'record-refund', label: 'Record the refund' }}
        closed={
          changeBlocked(c) ??
          (open ? null : d.status === 'cancelled' ? says('cancelled_takes_no_payments') : 'Nothing is left to refund.')
        }
        closedId="refund-closed"
      />
    </Card>
  )
}

function SendPage({ c, state, doc }: { c: InBusiness; state: FormState; doc: DocumentView }): JSX.Element {
  return (
    <Layout c={c} title={`Send ${title(doc)}`} section="documents">
      <h1>Send {esc(title(doc))}</h1>
      <div class="card">
        <PostForm action={`${c.base}/documents/${doc.id}/send`} token={c.csrf}>
          <Refused state={state} shown={['to', 'cc', 'bcc', 'subject', 'message']} />
          {doc.status === 'draft' ? (
            <p class="notice warn">Sending issues the Draft first: it takes its number.</p>
          ) : (
            ''
          )}
          <OutboxNote c={c} what="this email" />
          <Field
            name="to"
            label="To"
            state={state}
            value={doc.client.email}
            hint="Addresses separated by commas; blank: the Client's email."
          />
          <Field name="cc" label="Cc" state={state} />
          <Field name="bcc" label="Bcc" state={state} />
          <Field
            name="subject"
            label="Subject"
            state={state}
            maxlength={255}
            hint="Blank: the document type, its number and your Business's name."
          />
          <Area
            name="message"
            label="Message"
            state={state}
            rows={6}
            hint="Blank: a short note naming the document, its total and due date."
          />
          <div class="row">
            <button type="submit" id="send-now">
              Send
            </button>
            <a href={esc(`${c.base}/documents/${doc.id}`)}>Cancel</a>
          </div>
        </PostForm>
      </div>
    </Layout>
  )
}

function addresses(f: FormInput, name: string): string[] | undefined {
  const v = f.text(name)
  return v === undefined ? undefined : v.split(/[,;\s]+/).filter(Boolean)
}

export function documentsRoutes(kit: AppKit): void {
  kit.page('/documents', 'read', (c) => <ListPage c={c} kit={kit} />)

  const page = (c: InBusiness, state: FormState) => <DocumentPage c={c} state={state} id={docId(c)} />
  kit.page('/documents/:id', 'read', page)

  // Files: the same bytes as the API's downloads.
  kit.download('/documents/:id/pdf', 'read', async (c, params) =>
    fileResponse(await c.operation('documents_pdf', { path: { id: docId(c, params.id) } })),
  )
  kit.download('/documents/:id/xml', 'read', async (c, params) =>
    fileResponse(await c.operation('documents_xml', { path: { id: docId(c, params.id) } })),
  )

  // One POST per action: CSRF, membership and policy first (the kit), then the same service as the API.
  // Each button runs its operation of the table for the document the path names.
  const act = (path: string, operation: string, notice: string, after?: (id: number, out: DocumentView) => string) =>
    kit.action(
      `/documents/:id/${path}`,
      'change',
      async (c) => {
        const id = docId(c, c.params.id)
        const out = await kit.operation<DocumentView>(c, operation, { path: { id } })
        return kit.done(c, after ? after(id, out) : `/documents/${id}`, notice)
      },
      page,
    )
  act('issue', 'documents_issue', 'document_issued')
  act('cancel', 'documents_cancel', 'document_cancelled')
  act('convert', 'documents_convert', 'document_converted', (_id, out) => `/documents/${out.id}`)
  act('duplicate', 'documents_duplicate', 'document_duplicated', (_id, out) => `/documents/${out.id}`)
  act('mark-sent', 'documents_mark_sent', 'marked_sent')
  act('unmark-sent', 'documents_unmark_sent', 'mark_taken_back')
  act('remind', 'documents_remind', 'reminded')
  act('remind-again', 'documents_remind_again', 'reminded')
  act('delete', 'documents_delete', 'draft_deleted', () => '/documents')

  kit.page('/documents/:id/send', 'change', async (c, state) => (
    <SendPage c={c} state={state} doc={await viewDocument(c.deps, c.deps.db.read, c.actor, docId(c))} />
  ))
  kit.action(
    '/documents/:id/send',
    'change',
    async (c, data) => {
      const id = docId(c, c.params.id)
      const f = new FormInput(data)
      const body = {
        to: addresses(f, 'to'),
        cc: addresses(f, 'cc'),
        bcc: addresses(f, 'bcc'),
        subject: f.text('subject'),
        message: f.text('message'),
      }
      await kit.operation(c, 'documents_send', { path: { id }, body, form: f })
      return kit.done(c, `/documents/${id}`, 'document_sent')
    },
    async (c, state) => (
      <SendPage c={c} state={state} doc={await viewDocument(c.deps, c.deps.db.read, c.actor, docId(c))} />
    ),
  )
}
