// The Draft editor: Client, type, currency, dates, requested number, Lines (a Product or free text, quantity, unit,
// price, VAT rate, category and exemption code, notes), notes and bank accounts, with live totals computed on the
// server by the same money math as saving (htmx asks /documents/totals as a person types; without script, Save shows
// them). Clients and Products are chosen with pickers (picker.tsx) that find any of them by name, email or code.
// Create and save call the documents service with the API's body schema.
import {
  previewTotals,
  takesZeroRate,
  VAT_CATEGORIES,
  viewDocument,
  type DocumentView,
  type LineInput,
} from '../../../../modules/documents'
import { listBankAccounts } from '../../../../modules/business'
import { findClient } from '../../../../modules/clients'
import { listProducts } from '../../../../modules/products'
import type { FormState, InBusiness } from '../../context'
import { FormInput } from '../../form-input'
import type { AppKit } from '../../kit'
import { ID_RULE, idOf } from '../../../../platform/operation'
import type { PostedForm } from '../../http'
import { HTMX_PATH, Layout, type Section } from '../../layout'
import { esc, Field, PostForm, Refused, Select } from '../../ui'
import { Area, EU_BUSINESS_HINT, grouped, showsDueDate, TYPE_WORDS, VAT_CATEGORY_WORDS, vatBandWords } from './words'
import { ClientPicker, idIn, InvoiceOptions, PICK_MAX, PickerSearch, ProductOptions } from './picker'

/** Blank rows offered below the Lines: room to add without script. */
const SPARE_ROWS = 2
const LINE_FIELDS = [
  'product_id',
  'description',
  'quantity',
  'unit',
  'unit_price',
  'vat_rate',
  'vat_category',
  'vat_exemption_code',
  'notes',
] as const
/**
 * A new Line's VAT rate as the editor suggested it (documents_usual_vat_rate), posted beside the rate: a rate still as
 * suggested gives way to the chosen Product's rate, or to 0 when the chosen category takes 0.
 */
const SUGGESTED = 'vat_rate_suggested'

/** The Lines as posted: `lines.N.field`, rows left wholly blank dropped (they are spare rows). */
export function linesOf(data: URLSearchParams): LineInput[] | undefined {
  if (!data.has('lines__present')) return undefined
  const rows: LineInput[] = []
  for (let i = 0; i < 500; i++) {
    if (!LINE_FIELDS.some((f) => data.has(`lines.${i}.${f}`))) break
    const get = (f: string) => data.get(`lines.${i}.${f}`)?.trim() || undefined
    if (!get('product_id') && !get('description') && !get('unit_price')) continue
    const product = get('product_id')
    const category = get('vat_category')
    const asSuggested = get('vat_rate') !== undefined && get('vat_rate') === get(SUGGESTED)
    rows.push({
      product_id:
        product === undefined ? undefined : ID_RULE.test(product) ? Number(product) : (product as unknown as number),
      description: get('description'),
      quantity: get('quantity') ?? '1',
      unit: get('unit'),
      unit_price: get('unit_price'),
      vat_rate: asSuggested && (product || (category && takesZeroRate(category))) ? undefined : get('vat_rate'),
      vat_category: get('vat_category'),
      vat_exemption_code: get('vat_exemption_code'),
      notes: get('notes'),
    })
  }
  return rows
}

/** A Line of the editor's form as its inputs hold it (strings). */
export type LineRow = Record<string, string>

/**
 * The editor's Line rows: as typed after a refusal, else the stored Lines; then spare blank rows (and `extra` more
 * asked for with "Add a line"), their VAT rate the suggested `rate` when there is one. The Draft editor and the
 * recurring invoice editor share them.
 */
export function lineRowsOf(
  typed: URLSearchParams | null | undefined,
  lines: readonly LineShown[] | null,
  extra = 0,
  rate: string | null = null,
): LineRow[] {
  const rows: LineRow[] = []
  if (typed && typed.has('lines__present')) {
    for (let i = 0; i < 500 && LINE_FIELDS.some((f) => typed.has(`lines.${i}.${f}`)); i++) {
      rows.push(
        Object.fromEntries(
          [...LINE_FIELDS, 'product_q', SUGGESTED].map((f) => [f, typed.get(`lines.${i}.${f}`) ?? '']),
        ),
      )
    }
  } else if (lines) {
    for (const l of lines) {
      rows.push({
        product_id: l.product_id === null ? '' : String(l.product_id),
        description: l.description,
        quantity: l.quantity,
        unit: l.unit,
        unit_price: l.unit_price,
        vat_rate: l.vat_rate,
        vat_category: l.vat_category,
        vat_exemption_code: l.vat_exemption_code ?? '',
        notes: l.notes ?? '',
      })
    }
  }
  const blanks =
    Math.max(SPARE_ROWS - rows.filter((r) => !r.description && !r.unit_price && !r.product_id).length, 0) + extra
  for (let i = 0; i < blanks; i++) {
    const row: LineRow = Object.fromEntries(LINE_FIELDS.map((f) => [f, f === 'quantity' ? '1' : '']))
    if (rate) row.vat_rate = row[SUGGESTED] = rate
    rows.push(row)
  }
  return rows
}

/** A stored Line as the editor shows it: a Draft's, or a recurring invoice template's. */
interface LineShown {
  product_id: number | null
  description: string
  quantity: string
  unit: string
  unit_price: string
  vat_rate: string
  vat_category: string
  vat_exemption_code: string | null
  notes: string | null
}

/** The Lines as a body posts them: as posted (`linesOf`), each without the fields left blank. */
export function linesBodyOf(data: URLSearchParams): Array<Record<string, unknown>> | undefined {
  return linesOf(data)?.map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)))
}

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

/** The Client an editor opens with (as typed, as stored, or as its link names it) and the currency it starts at. */
export async function editorClientOf(
  c: InBusiness,
  typed: URLSearchParams | null,
  stored: { client_id: number; currency: string } | null,
): Promise<EditorClient> {
  const id =
    typed?.get('client_id') ?? (stored ? String(stored.client_id) : (c.url.searchParams.get('client_id') ?? ''))
  const row = ID_RULE.test(id) ? await findClient(c.deps.db.read, c.business.id, Number(id)) : undefined
  return { id, row, currency: typed?.get('currency') ?? stored?.currency ?? row?.currency ?? c.business.currency }
}

interface EditorClient {
  /** As typed or stored: an id, or whatever was typed. */
  id: string
  row: Awaited<ReturnType<typeof findClient>>
  currency: string
}

/** What an editor says while it has no totals to show. */
const NO_TOTALS_YET = <p class="muted flush">Totals appear as you fill in the Lines.</p>

/**
 * The form the Draft editor and the recurring invoice editor share: the Client and currency with the editor's own
 * fields, the Lines and their live totals, the bank accounts, notes, and Save. `fields` names the editor's own fields,
 * whose errors show beside them (the shared ones' and the Lines' too); any other error is listed at the top.
 */
export async function LinesEditor(p: {
  c: InBusiness
  state: FormState
  action: string
  cancel: string
  save: { id: string; label: string }
  fields: string[]
  client: EditorClient
  lines: readonly LineShown[] | null
  /** Extra blank Line rows asked for with "Add a line". */
  extra: number
  /** The stored totals, written into the page; without them the form asks its totals as it opens. */
  totals?: JSX.Element
  accounts: { legend: string; chosen: readonly number[] }
  notes: string | null | undefined
  /** A field before the Client (the Draft's type). */
  before?: JSX.Element
  /** A word above the Lines. */
  intro?: JSX.Element
  /** The editor's own fields, after the Client and currency. */
  children: JSX.Element | JSX.Element[]
}): Promise<string> {
  const { c, state } = p
  const q = c.deps.db.read
  const typed = state.values
  // The first Products, read once for every Line that has no search of its own.
  const [products, accounts, { rate }] = await Promise.all([
    listProducts(q, c.business.id, 0, PICK_MAX + 1),
    listBankAccounts(q, c.business.id, 0, 100),
    c.operation<{ rate: string | null }>('documents_usual_vat_rate'),
  ])
  const rows = lineRowsOf(typed, p.lines, p.extra, rate)
  const chosenAccounts = new Set(typed ? typed.getAll('bank_account_ids').map(Number) : p.accounts.chosen)
  const err = (k: string) => state.errors[k]?.join('; ')
  const lineErrors = Object.keys(state.errors).filter((k) => k.startsWith('lines.'))
  return (
    <PostForm action={p.action} token={c.csrf} class="stack editor" id="editor">
      <Refused state={state} shown={[...p.fields, 'client_id', 'currency', 'notes', ...lineErrors]} />
      {/* Enter in any field does the form's first submit button: make that the save, not a picker's "Find" below. */}
      <button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">
        {esc(p.save.label)}
      </button>
      <input type="hidden" name="lines__present" value="1" />
      <input type="hidden" name="bank_account_ids__present" value="1" />
      <div class="grid3">
        {p.before ?? ''}
        <ClientPicker
          c={c}
          q={q}
          search={typed?.get('client_q') ?? undefined}
          chosenId={idIn(p.client.id)}
          error={err('client_id')}
        />
        <Field
          name="currency"
          label="Currency"
          state={state}
          value={p.client.currency}
          maxlength={3}
          hint="Blank: the Client's."
        />
        {p.children}
      </div>

      {p.intro ?? ''}
      <LinesFieldset c={c} rows={rows} products={products} err={err} />

      <div
        id="totals"
        class="totals"
        aria-live="polite"
        hx-post={esc(`${c.base}/documents/totals`)}
        // A new document may open with Lines already (a Credit Note from its Invoice, a form sent back): their totals
        // are asked at once. A saved Draft's are written into the page.
        hx-trigger={`${p.totals ? '' : 'load, '}input changed delay:400ms from:#editor, change from:#editor`}
      >
        {p.totals ?? NO_TOTALS_YET}
      </div>

      <BankAccountChecks accounts={accounts} chosen={chosenAccounts} legend={p.accounts.legend} />
      <Area name="notes" label="Notes" state={state} value={p.notes} />
      <div class="row">
        <button type="submit" id={p.save.id}>
          {esc(p.save.label)}
        </button>
        <a href={esc(p.cancel)}>Cancel</a>
      </div>
    </PostForm>
  )
}

/** The bank accounts a document (or each Invoice of a schedule) shows, as checkboxes; nothing when the Business has none. */
export function BankAccountChecks(p: {
  accounts: readonly { id: number; name: string; iban: string }[]
  chosen: ReadonlySet<number>
  legend: string
}): JSX.Element | string {
  if (!p.accounts.length) return ''
  return (
    <fieldset class="checks">
      <legend class="legend">{esc(p.legend)}</legend>
      {p.accounts.map((a) => (
        <label>
          <input type="checkbox" name="bank_account_ids" value={String(a.id)} checked={p.chosen.has(a.id)} />{' '}
          {esc(a.name)} ({esc(a.iban)})
        </label>
      ))}
    </fieldset>
  )
}

/** The Lines of an editor: a Product or free text, quantity, unit, price, VAT rate, category, exemption code, notes. */
export function LinesFieldset({
  c,
  rows,
  products,
  err,
}: {
  c: InBusiness
  rows: LineRow[]
  products: Awaited<ReturnType<typeof listProducts>>
  err: (k: string) => string | undefined
}): JSX.Element {
  const q = c.deps.db.read
  return (
    <fieldset class="lines">
      <legend class="legend">Lines</legend>
      <datalist id="vatex">
        <option value="VATEX-EU-AE" />
        <option value="VATEX-EU-IC" />
        <option value="VATEX-EU-G" />
        <option value="VATEX-EU-O" />
        <option value="VATEX-EU-132" />
      </datalist>
      {rows.map((r, i) => {
        const n = (f: string) => `lines.${i}.${f}`
        const lineErr = LINE_FIELDS.map((f) => err(n(f)))
          .filter(Boolean)
          .join('; ')
        return (
          <div class={lineErr ? 'line bad' : 'line'} data-line={String(i)}>
            <span class="line-no" aria-hidden="true">
              {i + 1}
            </span>
            <div class="l-product">
              <label for={`f-line-${i}-product`}>Product</label>
              <PickerSearch
                c={c}
                kind="products"
                name={n('product_q')}
                target={`f-line-${i}-product`}
                value={r.product_q || undefined}
                label={`Find a Product for line ${i + 1}`}
                id={`f-line-${i}-product-q`}
              />
              <select id={`f-line-${i}-product`} name={n('product_id')}>
                <ProductOptions
                  q={q}
                  businessId={c.business.id}
                  search={r.product_q?.trim() || undefined}
                  chosenId={idIn(r.product_id)}
                  rows={products}
                />
              </select>
            </div>
            <label class="l-desc">
              <span>Description</span>
              <input type="text" name={n('description')} value={esc(r.description)} maxlength={1000} />
            </label>
            <label class="l-qty">
              <span>Quantity</span>
              <input type="text" name={n('quantity')} value={esc(r.quantity)} inputmode="decimal" />
            </label>
            <label class="l-unit">
              <span>Unit</span>
              <input type="text" name={n('unit')} value={esc(r.unit)} maxlength={50} placeholder="pcs" />
            </label>
            <label class="l-price">
              <span>Unit price</span>
              <input
                type="text"
                name={n('unit_price')}
                value={esc(r.unit_price)}
                inputmode="decimal"
                placeholder="from the Product"
              />
            </label>
            <label class="l-rate">
              <span>VAT %</span>
              <input type="text" name={n('vat_rate')} value={esc(r.vat_rate)} inputmode="decimal" />
            </label>
            {r.vat_rate_suggested ? <input type="hidden" name={n(SUGGESTED)} value={esc(r.vat_rate_suggested)} /> : ''}
            <div class="l-cat">
              <label for={`f-line-${i}-category`}>Category</label>
              <select id={`f-line-${i}-category`} name={n('vat_category')}>
                <option value="">Auto: S above 0%, Z at 0%</option>
                {VAT_CATEGORIES.map((k) => (
                  <option value={k} selected={r.vat_category === k}>
                    {esc(`${k} — ${VAT_CATEGORY_WORDS[k]}`)}
                  </option>
                ))}
              </select>
            </div>
            <label class="l-code">
              <span>Exemption code</span>
              <input
                type="text"
                name={n('vat_exemption_code')}
                value={esc(r.vat_exemption_code)}
                list="vatex"
                maxlength={40}
              />
            </label>
            <label class="l-notes">
              <span>Line notes</span>
              <input type="text" name={n('notes')} value={esc(r.notes)} maxlength={500} />
            </label>
            {/* Shown by the stylesheet while the chosen Client is marked an EU business (picker.tsx), on a Line whose
                category is not K or AE yet: a hint, never a change to what the person chose. */}
            <p class="hint eu-hint" id={`f-line-${i}-eu`}>
              {esc(EU_BUSINESS_HINT)}
            </p>
            {lineErr ? <p class="err l-err">{esc(`Line ${i + 1}: ${lineErr}`)}</p> : ''}
          </div>
        )
      })}
      <button type="submit" name="add_line" value="1" class="quiet" formnovalidate>
        Add a line
      </button>
    </fieldset>
  )
}

export function TotalsBox(p: {
  net: string
  vat: string
  total: string
  currency: string
  bands: { category: string; rate: string; net: string; vat: string }[]
}): JSX.Element {
  return (
    <dl class="facts totals-box" id="totals-box">
      {p.bands.map((b) => (
        <>
          <dt>
            {esc(vatBandWords(b.category, b.rate))} on {esc(grouped(b.net))}
          </dt>
          <dd class="num">{esc(grouped(b.vat))}</dd>
        </>
      ))}
      <dt>Net</dt>
      <dd class="num" id="total-net">
        {esc(grouped(p.net))} {esc(p.currency)}
      </dd>
      <dt>VAT</dt>
      <dd class="num" id="total-vat">
        {esc(grouped(p.vat))} {esc(p.currency)}
      </dd>
      <dt>
        <strong>Total</strong>
      </dt>
      <dd class="num" id="total-total">
        <strong>
          {esc(grouped(p.total))} {esc(p.currency)}
        </strong>
      </dd>
    </dl>
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

/** A page that holds an editor in a card, with htmx for its live totals and pickers. */
export function EditorPage(p: {
  c: InBusiness
  title: string
  /** The page's heading, escaped; the title when not given. */
  heading?: string
  section: Section
  children: JSX.Element
}): JSX.Element {
  return (
    <Layout c={p.c} title={p.title} section={p.section} scripts={[HTMX_PATH]}>
      <h1>{p.heading ?? esc(p.title)}</h1>
      <div class="card">{p.children}</div>
    </Layout>
  )
}

/**
 * The POST of an editor's form. "Add a line" and "Find" (a picker without script) show the editor again as typed
 * (with one more blank Line for "Add a line"); nothing is saved. Anything else is saved by `save`; a refusal shows
 * the editor again with what was typed.
 */
export function editorAction(
  kit: AppKit,
  path: string,
  page: (c: InBusiness, state: FormState, extra?: number) => JSX.Element,
  save: (c: InBusiness, data: PostedForm) => Promise<Response>,
): void {
  kit.action(
    path,
    'change',
    async (c, data) => {
      if (data.has('add_line') || data.has('find'))
        return page(c, { values: data, errors: {}, message: null, code: null }, data.has('add_line') ? 1 : 0)
      return save(c, data)
    },
    (c, state) => page(c, state),
  )
}
