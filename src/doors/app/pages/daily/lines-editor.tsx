// The Lines editor the Draft editor and the recurring invoice editor share: the form's Client and currency, its Lines
// (a Product or free text, quantity, unit, price, VAT rate, category and exemption code, notes) with their live totals
// (htmx asks /documents/totals as a person types; without script, Save shows them), bank accounts, notes and Save;
// the Lines as posted and as shown; the page that holds an editor, and its POST ("Add a line" and "Find" show it
// again as typed). Clients and Products are chosen with pickers (picker.tsx) that find any of them by name or code.
import { takesZeroRate, VAT_CATEGORIES, type LineInput, type WrittenLine } from '../../../../modules/documents'
import { listBankAccounts } from '../../../../modules/business'
import { findClient } from '../../../../modules/clients'
import { listProducts } from '../../../../modules/products'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { ID_RULE } from '../../../../platform/operation'
import type { PostedForm } from '../../http'
import { HTMX_PATH, Layout, type Section } from '../../layout'
import { esc, Field, PostForm, Refused } from '../../ui'
import { Area, EU_BUSINESS_HINT, grouped, VAT_CATEGORY_WORDS, vatBandWords } from './words'
import { ClientPicker, idIn, PICK_MAX, PickerSearch, ProductOptions } from './picker'

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

/** A stored Line as the editor shows it (a Draft's, or a recurring invoice template's): the request's words. */
type LineShown = WrittenLine

/** The Lines as a body posts them: as posted (`linesOf`), each without the fields left blank. */
export function linesBodyOf(data: URLSearchParams): Array<Record<string, unknown>> | undefined {
  return linesOf(data)?.map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)))
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
export const NO_TOTALS_YET = <p class="muted flush">Totals appear as you fill in the Lines.</p>

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
        // A text field of the Line: its words above the input, which keeps what was typed.
        const text = (cls: string, words: string, f: (typeof LINE_FIELDS)[number], more: Record<string, unknown>) => (
          <label class={cls}>
            <span>{words}</span>
            <input type="text" name={n(f)} value={esc(r[f])} {...more} />
          </label>
        )
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
            {text('l-desc', 'Description', 'description', { maxlength: 1000 })}
            {text('l-qty', 'Quantity', 'quantity', { inputmode: 'decimal' })}
            {text('l-unit', 'Unit', 'unit', { maxlength: 50, placeholder: 'pcs' })}
            {text('l-price', 'Unit price', 'unit_price', { inputmode: 'decimal', placeholder: 'from the Product' })}
            {text('l-rate', 'VAT %', 'vat_rate', { inputmode: 'decimal' })}
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
            {text('l-code', 'Exemption code', 'vat_exemption_code', { list: 'vatex', maxlength: 40 })}
            {text('l-notes', 'Line notes', 'notes', { maxlength: 500 })}
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
