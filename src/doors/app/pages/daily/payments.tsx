// Payments and Receipts: record on the document page, amend, reverse, email a Receipt to the Client, the Receipt list
// and a Receipt's PDF. A Payment recorded here has `recorded_by: null` (the person's Actor; extensions §9).
import { getRefund, paymentWithReceipt, type PaymentRow, type ReceiptRow } from '../../../../modules/payments'
import { listBankAccounts } from '../../../../modules/business'
import { documentLabels, findDocument } from '../../../../modules/documents'
import { idOf } from '../../../../platform/operation'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import { fileResponse, type AppKit } from '../../kit'
import { Layout } from '../../layout'
import { esc, Field, Notice, PostForm, Refused, Select } from '../../ui'
import { DocumentPage, docId } from './documents'
import { ActionButton, METHOD_WORDS, Money, Pager, TYPE_WORDS } from './words'
import { OutboxNote } from './outbox'
import { RecordsTable, type Column } from '../../list'

function paymentBody(data: URLSearchParams, amend: boolean): { input: FormInput; body: Record<string, unknown> } {
  const f = new FormInput(data)
  const method = f.text('payment_method')
  return {
    input: f,
    body: {
      amount: f.text('amount') ?? (amend ? undefined : ''),
      payment_date: f.text('payment_date') ?? (amend ? undefined : ''),
      payment_method: method ?? (amend ? undefined : ''),
      // The account matters only for a bank transfer; another method drops it (as the service does).
      bank_account_id: method === 'bank_transfer' ? f.id('bank_account_id') : amend && method ? null : undefined,
      reference: amend ? f.nullable('reference') : f.text('reference'),
      notes: amend ? f.nullable('notes') : f.text('notes'),
    },
  }
}

function paymentIdOf(c: InBusiness, raw?: string): number {
  const id = raw ?? c.url.pathname.split('/').filter(Boolean)[4] ?? ''
  return idOf(id, 'No such Payment.')
}

async function AmendPage({ c, state }: { c: InBusiness; state: FormState }): Promise<string> {
  const { payment: p } = await paymentWithReceipt(c.deps.db.read, c.business.id, paymentIdOf(c))
  const doc = (await findDocument(c.deps.db.read, c.business.id, p.documentId))!
  const accounts = await listBankAccounts(c.deps.db.read, c.business.id, 0, 100)
  return (
    <Layout c={c} title="Amend a Payment" section="documents">
      <h1>Amend the Payment of {esc(p.paymentDate)}</h1>
      <p class="lead">
        On{' '}
        <a href={esc(`${c.base}/documents/${doc.id}`)}>{esc(`${TYPE_WORDS[doc.type]} ${doc.documentNumber ?? ''}`)}</a>.
        Its Receipt keeps its number and takes the new values.
      </p>
      <div class="card">
        <PostForm action={`${c.base}/payments/${p.id}`} token={c.csrf}>
          <Refused
            state={state}
            shown={['amount', 'payment_date', 'payment_method', 'bank_account_id', 'reference', 'notes']}
          />
          <div class="grid3">
            <Field name="amount" label={`Amount (${p.currency})`} state={state} value={p.amount} required />
            <Field name="payment_date" type="date" label="Date received" state={state} value={p.paymentDate} required />
            <Select
              name="payment_method"
              label="Method"
              state={state}
              value={p.paymentMethod}
              options={Object.entries(METHOD_WORDS) as [string, string][]}
            />
            <Select
              name="bank_account_id"
              label="Bank account (bank transfer)"
              state={state}
              value={p.bankAccountId ? String(p.bankAccountId) : ''}
              options={[
                ['', 'None'] as const,
                ...accounts.map((x) => [String(x.id), `${x.name} (${x.iban})`] as const),
              ]}
            />
            <Field name="reference" label="Reference" state={state} value={p.reference} maxlength={255} />
            <Field name="notes" label="Notes" state={state} value={p.notes} />
          </div>
          <div class="row">
            <button type="submit">Save the Payment</button>
            <a href={esc(`${c.base}/documents/${doc.id}`)}>Cancel</a>
          </div>
        </PostForm>
      </div>
    </Layout>
  )
}

/**
 * The Receipts list's columns: each Receipt's PDF, its Payment, the document it names by number and Client, and the
 * button that emails it (closed with `mailClosed` when nothing can send a Receipt now).
 */
function receiptColumns(
  c: InBusiness,
  docs: Awaited<ReturnType<typeof documentLabels>>,
  mailClosed: string | null,
): Column<{ receipt: ReceiptRow; payment: PaymentRow }>[] {
  return [
    {
      head: 'Receipt',
      key: true,
      nowrap: true,
      cell: ({ receipt: r }) => <a href={esc(`${c.base}/receipts/${r.id}/pdf`)}>{esc(r.receiptNumber)}</a>,
    },
    { head: 'Amount', num: true, cell: ({ payment: p }) => <Money amount={p.amount} currency={p.currency} /> },
    {
      head: 'Document',
      cell: ({ receipt: r }) => {
        const doc = docs.get(r.documentId)
        return (
          <a href={esc(`${c.base}/documents/${r.documentId}`)}>
            {esc(doc ? `${TYPE_WORDS[doc.type] ?? doc.type} ${doc.document_number ?? '(Draft)'}` : 'its document')}
          </a>
        )
      },
    },
    { head: 'Client', cell: ({ receipt: r }) => esc(docs.get(r.documentId)?.client_name ?? '') },
    { head: 'Paid on', nowrap: true, cell: ({ payment: p }) => esc(p.paymentDate) },
    { head: 'Issued', nowrap: true, cell: ({ receipt: r }) => esc(r.issueDate) },
    {
      head: 'Status',
      cell: ({ receipt: r }) => (r.voidedAt ? <span class="tag">Void</span> : <span class="tag ok">Valid</span>),
    },
    {
      head: 'Actions',
      actions: true,
      cell: ({ receipt: r, payment: p }) => (
        <ActionButton
          c={c}
          path={`/payments/${p.id}/email-receipt`}
          label="Email"
          quiet
          closed={r.voidedAt ? 'The Receipt is void: its Payment was reversed.' : mailClosed}
          id={`email-receipt-${p.id}`}
        />
      ),
    },
  ]
}

export function paymentsRoutes(kit: AppKit): void {
  kit.action(
    '/documents/:id/payments',
    'change',
    async (c, data) => {
      const id = docId(c, c.params.id)
      const { input, body } = paymentBody(data, false)
      await kit.operation(c, 'payments_record', { path: { id }, body, form: input })
      return kit.done(c, `/documents/${id}`, 'payment_recorded')
    },
    (c, state) => <DocumentPage c={c} state={state} id={docId(c)} />,
  )

  // Refunds of a Credit Note (extensions §20), recorded and reversed on its page.
  kit.action(
    '/documents/:id/refunds',
    'change',
    async (c, data) => {
      const id = docId(c, c.params.id)
      const f = new FormInput(data)
      const method = f.text('method') ?? ''
      const body = {
        amount: f.text('amount') ?? '',
        refund_date: f.text('refund_date') ?? '',
        method,
        bank_account_id: method === 'bank_transfer' ? f.id('bank_account_id') : undefined,
        reference: f.text('reference'),
        notes: f.text('notes'),
      }
      await kit.operation(c, 'refunds_record', { path: { id }, body, form: f })
      return kit.done(c, `/documents/${id}`, 'refund_recorded')
    },
    (c, state) => <DocumentPage c={c} state={state} id={docId(c)} />,
  )
  const refundIdOf = (c: InBusiness, raw?: string) =>
    idOf(raw ?? c.url.pathname.split('/').filter(Boolean)[4] ?? '', 'No such Refund.')
  kit.action(
    '/refunds/:id/reverse',
    'change',
    async (c) => {
      const r = await kit.operation(c, 'refunds_reverse', { path: { id: refundIdOf(c, c.params.id) } })
      return kit.done(c, `/documents/${r.document_id}`, 'refund_reversed')
    },
    async (c, state) => {
      const r = await getRefund(c.deps, c.actor, refundIdOf(c))
      return <DocumentPage c={c} state={state} id={r.document_id} />
    },
  )

  kit.page('/payments/:id', 'change', (c, state) => <AmendPage c={c} state={state} />)
  kit.action(
    '/payments/:id',
    'change',
    async (c, data) => {
      const id = paymentIdOf(c, c.params.id)
      const { input, body } = paymentBody(data, true)
      const p = await kit.operation(c, 'payments_update', { path: { id }, body, form: input })
      return kit.done(c, `/documents/${p.document_id}`, 'payment_amended')
    },
    (c, state) => <AmendPage c={c} state={state} />,
  )

  /** A refused Payment action is shown on its document's page. */
  const onDocument = async (c: InBusiness, state: FormState) => {
    const { payment } = await paymentWithReceipt(c.deps.db.read, c.business.id, paymentIdOf(c))
    return <DocumentPage c={c} state={state} id={payment.documentId} />
  }
  kit.action(
    '/payments/:id/reverse',
    'change',
    async (c) => {
      const p = await kit.operation(c, 'payments_reverse', { path: { id: paymentIdOf(c, c.params.id) } })
      return kit.done(c, `/documents/${p.document_id}`, 'payment_reversed')
    },
    onDocument,
  )
  kit.action(
    '/payments/:id/email-receipt',
    'change',
    async (c) => {
      const id = paymentIdOf(c, c.params.id)
      const payment = await kit.operation(c, 'payments_get', { path: { id } })
      await kit.operation(c, 'payments_email_receipt', { path: { id } })
      return kit.done(c, `/documents/${payment.document_id}`, 'receipt_emailed')
    },
    onDocument,
  )

  kit.page('/receipts', 'read', async (c) => {
    const page = await kit.list<{ receipt: ReceiptRow; payment: PaymentRow }>(c, 'receipts_rows')
    const shown = page.data
    // Closed with its reason when nothing can send a Receipt now, rather than failing after the click.
    const { closed: mailClosed } = await kit.operation<{ closed: string | null }>(c, 'receipts_mail_closed')
    // Each Receipt names its document by number and Client, read for the whole page at once.
    const docs = await documentLabels(
      c.deps.db.read,
      c.business.id,
      shown.map((x) => x.receipt.documentId),
    )
    return (
      <Layout c={c} title="Receipts" section="receipts">
        <Notice text={c.notice} />
        <h1>Receipts</h1>
        <OutboxNote c={c} what="a Receipt emailed" />
        <RecordsTable
          id="receipts"
          columns={receiptColumns(c, docs, mailClosed)}
          rows={shown}
          empty="No Receipts yet: each Payment recorded gets one."
          rowAttributes={({ receipt }) => ({ 'data-receipt': String(receipt.id) })}
        />
        <Pager next={page.next_cursor} url={c.url} />
      </Layout>
    )
  })

  kit.download('/receipts/:id/pdf', 'read', async (c, params) => {
    return fileResponse(await c.operation('receipts_pdf', { path: { id: idOf(params.id, 'No such Receipt.') } }))
  })
}
