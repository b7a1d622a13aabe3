// The editor's Client, Product and credited Invoice pickers: a search box beside a select, for a Business with any
// number of them. The select holds the chosen one and the first matches (PICK_MAX); typing asks the service for the
// matches (htmx GET /pick/clients, /pick/products or /pick/invoices, from the binary's htmx, no inline script) and
// replaces the select's options, the chosen one kept selected. Without script, the "Find" button posts the editor
// back with the search applied.
import { findClient, listClients, type ClientRow } from '../../../../modules/clients'
import { findProduct, listProducts, presentProduct, type ProductRow } from '../../../../modules/products'
import {
  crossBorderEuBusiness,
  documentSummaries,
  findDocument,
  type DocumentDeps,
  type DocumentSummary,
} from '../../../../modules/documents'
import type { BusinessRow } from '../../../../modules/business'
import { ID_RULE } from '../../../../platform/operation'
import type { Queryable } from '../../../../db/client'
import type { InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { esc } from '../../ui'
import { grouped, STATUS_WORDS, TYPE_WORDS } from './words'

/** How many matches a select offers at once; a longer list says to type more. */
export const PICK_MAX = 50
/** A search is at most this long (the field's maxlength; a longer one is cut). */
const SEARCH_MAX = 100

/** What each picker says: its blank choice, what it finds (in "No Products match"), and its search box's hint. */
const PICKERS = {
  clients: { blank: 'Choose a Client', what: 'Clients', placeholder: 'Find by name, email or code' },
  products: { blank: 'Free line', what: 'Products', placeholder: 'Find: name or code' },
  invoices: { blank: 'Choose the Invoice', what: 'Invoices', placeholder: 'Find by number or Client' },
} as const

const idOf = (v: string | null | undefined): number | null => (v && ID_RULE.test(v.trim()) ? Number(v.trim()) : null)
const searchOf = (v: string | null | undefined): string | undefined => v?.trim().slice(0, SEARCH_MAX) || undefined

function clientWords(x: ClientRow): string {
  return [x.name, x.email, x.accountCode].filter(Boolean).join(' · ') + (x.isActive ? '' : ' (inactive)')
}

function productWords(p: ProductRow): string {
  const v = presentProduct(p)
  return `${[v.name, v.code].filter(Boolean).join(' · ')} (${grouped(v.price_without_vat)} ${v.currency})`
}

/** The options of a picker: the blank choice, the chosen one (even when it does not match), the matches, what is left. */
function Options<T extends { id: number }>(p: {
  kind: keyof typeof PICKERS
  rows: T[]
  chosen: T | undefined
  chosenId: number | null
  search: string | undefined
  words: (x: T) => string
  /** A mark the page's stylesheet reads off the chosen option (`data-vat`), e.g. to show the Lines' K or AE hint. */
  vat?: (x: T) => string | undefined
}): JSX.Element {
  const shown = p.rows.slice(0, PICK_MAX)
  const { blank, what } = PICKERS[p.kind]
  const chosenOutside = p.chosen && !shown.some((x) => x.id === p.chosen!.id)
  return (
    <>
      <option value="">{esc(blank)}</option>
      {chosenOutside ? (
        <option value={String(p.chosen!.id)} selected data-vat={p.vat?.(p.chosen!)}>
          {esc(p.words(p.chosen!))}
        </option>
      ) : (
        ''
      )}
      {shown.map((x) => (
        <option value={String(x.id)} selected={x.id === p.chosenId} data-vat={p.vat?.(x)}>
          {esc(p.words(x))}
        </option>
      ))}
      {p.rows.length > PICK_MAX ? (
        <option disabled>{esc(`More ${what} match: type more of the name, email or code`)}</option>
      ) : (
        ''
      )}
      {p.search && p.rows.length === 0 ? <option disabled>{esc(`No ${what} matches “${p.search}”`)}</option> : ''}
    </>
  )
}

/**
 * The Clients to choose from; a business Client in another EU country with a VAT number is marked `data-vat=
 * "eu-business"`, so the Lines show their K or AE hint while it is chosen (the stylesheet reads the mark; no script).
 */
export async function ClientOptions({
  q,
  seller,
  search,
  chosenId,
}: {
  q: Queryable
  seller: BusinessRow
  search?: string
  chosenId: number | null
}): Promise<string> {
  const [rows, chosen] = await Promise.all([
    listClients(q, seller.id, 0, PICK_MAX + 1, search),
    chosenId === null ? undefined : findClient(q, seller.id, chosenId),
  ])
  return (
    <Options
      kind="clients"
      rows={rows}
      chosen={chosen}
      chosenId={chosenId}
      search={search}
      words={clientWords}
      vat={(x) => (crossBorderEuBusiness(seller, x) ? 'eu-business' : undefined)}
    />
  )
}

export async function ProductOptions(p: {
  q: Queryable
  businessId: number
  search?: string
  chosenId: number | null
  rows?: ProductRow[]
}): Promise<string> {
  const [rows, chosen] = await Promise.all([
    p.rows && !p.search ? p.rows : listProducts(p.q, p.businessId, 0, PICK_MAX + 1, p.search),
    p.chosenId === null ? undefined : findProduct(p.q, p.businessId, p.chosenId),
  ])
  return (
    <Options kind="products" rows={rows} chosen={chosen} chosenId={p.chosenId} search={p.search} words={productWords} />
  )
}

function invoiceWords(d: DocumentSummary): string {
  return `${d.document_number ?? `${TYPE_WORDS[d.type]} (Draft)`} · ${d.client_name} · ${grouped(d.total)} ${d.currency} (${STATUS_WORDS[d.status] ?? d.status})`
}

/**
 * Invoices a Credit Note may credit: issued ones (a Draft has no number to credit), of the chosen Client when one is
 * chosen, found by number, Client name or notes; the service judges the choice when the Draft is saved.
 */
export async function InvoiceOptions(p: {
  deps: DocumentDeps
  businessId: number
  search?: string
  clientId: number | null
  chosenId: number | null
}): Promise<string> {
  const filter = { type: 'invoice' as const, clientId: p.clientId ?? undefined, search: p.search?.toLowerCase() }
  const [rows, chosenRow] = await Promise.all([
    documentSummaries(p.deps, p.businessId, 0, PICK_MAX + 1, filter),
    p.chosenId === null ? undefined : findDocument(p.deps.db.read, p.businessId, p.chosenId),
  ])
  // The chosen Invoice as a list row: the one summary whose id follows chosenId - 1.
  const chosen =
    chosenRow && chosenRow.type === 'invoice'
      ? (await documentSummaries(p.deps, p.businessId, chosenRow.id - 1, 1, { type: 'invoice' }))[0]
      : undefined
  const issued = rows.filter((d) => d.status !== 'draft')
  return (
    <Options
      kind="invoices"
      rows={issued}
      chosen={chosen}
      chosenId={p.chosenId}
      search={p.search}
      words={invoiceWords}
    />
  )
}

/** The search box of a picker: asks for the matches as a person types and swaps them into `target`'s options. */
export function PickerSearch(p: {
  c: InBusiness
  kind: keyof typeof PICKERS
  name: string
  target: string
  value: string | undefined
  label: string
  id: string
  include?: string
}): JSX.Element {
  return (
    <input
      type="search"
      id={p.id}
      name={p.name}
      value={esc(p.value ?? '')}
      maxlength={SEARCH_MAX}
      autocomplete="off"
      placeholder={PICKERS[p.kind].placeholder}
      aria-label={esc(p.label)}
      aria-controls={esc(p.target)}
      hx-get={esc(`${p.c.base}/pick/${p.kind}`)}
      hx-trigger="input changed delay:300ms, search"
      hx-include={esc([`#${p.target}`, ...(p.include ? [p.include] : [])].join(', '))}
      hx-target={esc(`#${p.target}`)}
      hx-swap="innerHTML"
    />
  )
}

/** An id typed in a form or a link: a number when it is one as the API takes it, else null. */
export function idIn(v: string | undefined | null): number | null {
  return v && ID_RULE.test(v) ? Number(v) : null
}

/**
 * The Client field of the Draft and recurring editors: the search (as you type with script; without, Find posts the
 * editor back with the search applied, nothing saved), the choice, and its error.
 */
export function ClientPicker(p: {
  c: InBusiness
  q: Queryable
  search: string | undefined
  chosenId: number | null
  error: string | undefined
}): JSX.Element {
  return (
    <div class={p.error ? 'field picker bad' : 'field picker'}>
      <label for="f-client_id">Client</label>
      <div class="pick-find">
        <PickerSearch
          c={p.c}
          kind="clients"
          name="client_q"
          target="f-client_id"
          value={p.search}
          label="Find a Client"
          id="f-client_q"
        />
        <button type="submit" name="find" value="1" class="quiet" formnovalidate>
          Find
        </button>
      </div>
      <select
        id="f-client_id"
        name="client_id"
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={p.error ? 'f-client_id-err' : undefined}
      >
        <ClientOptions q={p.q} seller={p.c.business} search={p.search?.trim() || undefined} chosenId={p.chosenId} />
      </select>
      {p.error ? (
        <p class="err" id="f-client_id-err">
          {esc(p.error)}
        </p>
      ) : (
        ''
      )}
    </div>
  )
}

export function pickerRoutes(kit: AppKit): void {
  // Matches for a picker, as <option>s: reads only, so any Role that opens the editor may ask.
  kit.page('/pick/clients', 'read', (c) => {
    const s = c.url.searchParams
    return (
      <ClientOptions
        q={c.deps.db.read}
        seller={c.business}
        search={searchOf(s.get('client_q'))}
        chosenId={idOf(s.get('client_id'))}
      />
    )
  })
  kit.page('/pick/products', 'read', (c) => {
    // A Line's box is named lines.N.product_q and its select lines.N.product_id: whichever Line asked.
    let search: string | undefined
    let chosenId: number | null = null
    for (const [k, v] of c.url.searchParams) {
      if (/^lines\.\d{1,3}\.product_q$/.test(k)) search = searchOf(v)
      if (/^lines\.\d{1,3}\.product_id$/.test(k)) chosenId = idOf(v)
    }
    return <ProductOptions q={c.deps.db.read} businessId={c.business.id} search={search} chosenId={chosenId} />
  })
  kit.page('/pick/invoices', 'read', (c) => {
    const s = c.url.searchParams
    return (
      <InvoiceOptions
        deps={c.deps}
        businessId={c.business.id}
        search={searchOf(s.get('credited_q'))}
        clientId={idOf(s.get('client_id'))}
        chosenId={idOf(s.get('credited_document_id'))}
      />
    )
  })
}
