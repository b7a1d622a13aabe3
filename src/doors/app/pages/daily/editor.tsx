// The Draft editor: type, dates, requested number, exchange rate and the credited Invoice around the Lines editor it
// shares with recurring invoices (lines-editor.tsx: Client, currency, Lines, notes and bank accounts), and the live
// totals both ask as a person types, computed on the server by the same money math as saving. Create and save call
// the documents service with the API's body schema.
import { previewTotals, viewDocument, type DocumentView } from '../../../../modules/documents'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit } from '../../kit'
import { idOf } from '../../../../platform/operation'
import { Layout } from '../../layout'
import { esc, Field, Select } from '../../ui'
import { showsDueDate, TYPE_WORDS } from './words'
import { idIn, InvoiceOptions, PickerSearch } from './picker'
import {
  editorAction,
  editorClientOf,
  EditorPage,
  LinesEditor,
  linesBodyOf,
  linesOf,
  NO_TOTALS_YET,
  TotalsBox,
} from './lines-editor'

function bodyOf(data: URLSearchParams, creating: boolean): { input: FormInput; body: Record<string, unknown> } {
  const f = new FormInput(data)
  const lines = linesBodyOf(data)
  return {
    input: f,
    body: {
      ...(creating
        ? { type: f.text('type') ?? 'invoice', client_id: f.id('client_id') ?? 0 }
        : { client_id: f.id('client_id') }),
      currency: f.text('currency')?.toUpperCase(),
      issue_date: creating ? f.text('issue_date') : f.nullable('issue_date'),
      due_date: creating ? f.text('due_date') : f.nullable('due_date'),
      delivery_date: creating ? f.text('delivery_date') : f.nullable('delivery_date'),
      payment_terms: f.int('payment_terms'),
      document_number: creating ? f.text('document_number') : f.nullable('document_number'),
      notes: creating ? f.text('notes') : f.nullable('notes'),
      bank_account_ids: f.ids('bank_account_ids'),
      credited_document_id: f.id('credited_document_id'),
      exchange_rate: creating ? f.text('exchange_rate') : f.nullable('exchange_rate'),
      lines,
    },
  }
}

interface EditorProps {
  c: InBusiness
  state: FormState
  doc: DocumentView | null
  /** Extra blank Line rows asked for with "Add a line". */
  extra?: number
}

async function Editor({ c, state, doc, extra = 0 }: EditorProps): Promise<string> {
  const typed = state.values
  const type = typed?.get('type') ?? doc?.type ?? c.url.searchParams.get('type') ?? 'invoice'
  const client = await editorClientOf(c, typed, doc)
  // A new Credit Note made from an Invoice starts with that Invoice's Lines (extensions §20), as the API's does.
  const credited = !doc && type === 'credit_note' ? idIn(c.url.searchParams.get('credited_document_id')) : null
  const from =
    doc ??
    (credited !== null
      ? await c.operation<DocumentView>('documents_get', { path: { id: credited } }).catch(() => null)
      : null)
  const err = (k: string) => state.errors[k]?.join('; ')
  const home = doc ? `${c.base}/documents/${doc.id}` : `${c.base}/documents`

  return (
    <LinesEditor
      c={c}
      state={state}
      action={home}
      cancel={home}
      save={{ id: 'save-draft', label: doc ? 'Save the Draft' : 'Create the Draft' }}
      fields={['type', 'issue_date', 'due_date', 'delivery_date', 'payment_terms', 'document_number', 'exchange_rate']}
      client={client}
      lines={from?.lines ?? null}
      extra={extra}
      totals={
        doc ? (
          <TotalsBox
            net={doc.net_total}
            vat={doc.vat_total}
            total={doc.total}
            currency={doc.currency}
            bands={doc.vat_breakdown}
          />
        ) : undefined
      }
      accounts={{ legend: 'Bank accounts shown on the document', chosen: doc?.bank_account_ids ?? [] }}
      notes={doc?.notes}
      before={
        doc ? (
          <div class="field">
            <span class="legend">Type</span>
            <span>{esc(TYPE_WORDS[doc.type])}</span>
          </div>
        ) : (
          <Select
            name="type"
            label="Type"
            state={state}
            value={type}
            options={Object.entries(TYPE_WORDS) as [string, string][]}
          />
        )
      }
    >
      <Field
        name="issue_date"
        type="date"
        label="Issue date"
        state={state}
        value={doc?.issue_date}
        placeholder="YYYY-MM-DD"
        hint="Blank: the day it is issued."
      />
      {/* A Credit Note has no due date (nothing is paid on it), so it is not asked for one. */}
      {showsDueDate(type) ? (
        <>
          <Field
            name="due_date"
            type="date"
            label="Due date"
            state={state}
            value={doc?.due_date}
            placeholder="YYYY-MM-DD"
            hint="Blank: from the payment terms."
          />
          <Field
            name="payment_terms"
            label="Payment terms (days)"
            state={state}
            value={doc ? String(doc.payment_terms) : client.row ? String(client.row.paymentTerms) : ''}
          />
        </>
      ) : (
        ''
      )}
      <Field
        name="delivery_date"
        type="date"
        label="Delivery date"
        state={state}
        value={doc?.delivery_date === doc?.issue_date ? '' : doc?.delivery_date}
        placeholder="YYYY-MM-DD"
      />
      <Field
        name="document_number"
        label="Requested number"
        state={state}
        value={doc?.requested_document_number}
        hint="Blank: the next number."
      />
      {/* Extensions §16: a document in another currency states its VAT in the Business's too, at this rate. */}
      <Field
        name="exchange_rate"
        label={`Exchange rate (${c.business.currency} for 1 ${client.currency || '…'})`}
        state={state}
        value={doc?.exchange_rate}
        placeholder="e.g. 0.9123"
        hint={`Only for a currency other than ${c.business.currency}. Blank: the ECB rate of the issue date, fixed at issue.`}
      />
      {type === 'credit_note' ? (
        <div class={err('credited_document_id') ? 'field picker bad' : 'field picker'}>
          <label for="f-credited_document_id">Credited Invoice</label>
          <PickerSearch
            c={c}
            kind="invoices"
            name="credited_q"
            target="f-credited_document_id"
            include="#f-client_id"
            value={typed?.get('credited_q') ?? undefined}
            label="Find the credited Invoice"
            id="f-credited_q"
          />
          <select
            id="f-credited_document_id"
            name="credited_document_id"
            aria-invalid={err('credited_document_id') ? 'true' : undefined}
            aria-describedby={err('credited_document_id') ? 'f-credited_document_id-err' : undefined}
          >
            <InvoiceOptions
              deps={c.deps}
              businessId={c.business.id}
              search={typed?.get('credited_q')?.trim() || undefined}
              clientId={idIn(client.id)}
              chosenId={idIn(
                typed
                  ? (typed.get('credited_document_id') ?? '')
                  : doc?.credited_document_id
                    ? String(doc.credited_document_id)
                    : (c.url.searchParams.get('credited_document_id') ?? ''),
              )}
            />
          </select>
          <span class="hint">The chosen Client’s issued Invoices.</span>
          {err('credited_document_id') ? (
            <p class="err" id="f-credited_document_id-err">
              {esc(err('credited_document_id'))}
            </p>
          ) : (
            ''
          )}
        </div>
      ) : (
        ''
      )}
    </LinesEditor>
  )
}

async function draftOf(c: InBusiness, id: string | undefined): Promise<DocumentView> {
  return viewDocument(c.deps, c.deps.db.read, c.actor, idOf(id, 'No such document.'))
}

export function editorRoutes(kit: AppKit): void {
  // (Before /documents/:id, which would take "totals" for an id.) Live totals for the editor, computed by the same Line rules and money math as saving; changes nothing. A POST, so
  // the form (its CSRF token included) travels in the body, never in a URL.
  kit.action(
    '/documents/totals',
    'change',
    async (c, q) => {
      const lines = linesOf(q) ?? []
      const bad = lines.some(
        (l) => l.product_id !== undefined && l.product_id !== null && typeof l.product_id !== 'number',
      )
      const r = bad
        ? { errors: { lines: ['a Product id is a whole number'] }, currency: '' }
        : await kit.operation<Awaited<ReturnType<typeof previewTotals>> & { currency: string }>(
            c,
            'documents_preview_totals',
            {
              body: {
                lines,
                currency: q.get('currency')?.trim().toUpperCase() ?? '',
                client_id: q.get('client_id') ?? '',
              },
            },
          )
      if (lines.length === 0) return NO_TOTALS_YET
      const currency = r.currency
      if ('errors' in r && r.errors) {
        return (
          <div class="notice warn flush" role="status">
            {Object.values(r.errors)
              .flat()
              .map((m) => (
                <p class="flush">{esc(m)}</p>
              ))}
          </div>
        )
      }
      const t = r.totals!
      return <TotalsBox net={t.net} vat={t.vat} total={t.total} currency={currency} bands={t.bands} />
    },
    () => NO_TOTALS_YET,
  )

  const newPage = (c: InBusiness, state: FormState, extra = 0) => (
    <EditorPage
      c={c}
      title="New document"
      heading={`New ${esc(TYPE_WORDS[state.values?.get('type') ?? c.url.searchParams.get('type') ?? 'invoice'] ?? 'document')}`}
      section="documents"
    >
      <Editor c={c} state={state} doc={null} extra={extra} />
    </EditorPage>
  )
  kit.page('/documents/new', 'change', (c, state) => newPage(c, state))
  editorAction(kit, '/documents', newPage, async (c, data) => {
    const { input, body } = bodyOf(data, true)
    const doc = await kit.operation<DocumentView>(c, 'documents_create', { body, form: input })
    return kit.done(c, `/documents/${doc.id}`, 'draft_created')
  })

  const editPage = async (c: InBusiness, state: FormState, extra = 0) => {
    const parts = c.url.pathname.split('/').filter(Boolean)
    const doc = await draftOf(c, parts[4])
    if (doc.status !== 'draft') {
      return (
        <Layout c={c} title="Not a Draft" section="documents">
          <div class="card">
            <h1>Only a Draft is edited</h1>
            <p class="notice bad">Only a Draft is changed; correct an issued document with a Credit Note.</p>
            <a href={esc(`${c.base}/documents/${doc.id}`)}>Back to the document</a>
          </div>
        </Layout>
      )
    }
    return (
      <EditorPage c={c} title={`Edit Draft ${TYPE_WORDS[doc.type]}`} section="documents">
        <Editor c={c} state={state} doc={doc} extra={extra} />
      </EditorPage>
    )
  }
  kit.page('/documents/:id/edit', 'change', (c, state) => editPage(c, state))
  editorAction(kit, '/documents/:id', editPage, async (c, data) => {
    const doc = await draftOf(c, c.params.id)
    const { input, body } = bodyOf(data, false)
    await kit.operation(c, 'documents_update', { path: { id: doc.id }, body, form: input })
    return kit.done(c, `/documents/${doc.id}`, 'saved')
  })
}
