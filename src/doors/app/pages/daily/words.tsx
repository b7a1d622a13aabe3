// Small pieces the daily-work pages share: amounts as people read them (exact strings, digits grouped), document
// types and statuses in words, action buttons that are open or closed with their reason.
import { words } from '../../../../modules/words'
import type { InBusiness } from '../../context'
import { appRefusal } from '../../policy'
import { Csrf, esc, LabelledField, type ControlProps } from '../../ui'

export { owesAmount, showsDueDate } from '../../../../modules/documents'

export const TYPE_WORDS: Record<string, string> = {
  invoice: 'Invoice',
  proforma: 'Proforma Invoice',
  credit_note: 'Credit Note',
  quote: 'Quote',
}
export const STATUS_WORDS: Record<string, string> = {
  draft: 'Draft',
  issued: 'Issued',
  partially_paid: 'Partly paid',
  paid: 'Paid',
  cancelled: 'Cancelled',
}
const EN = words('en')
/**
 * Each VAT category the editor offers, in words: the catalog's (what a Client reads on the PDF) where it has them, so
 * a category is named alike on the page and on the document.
 */
export const VAT_CATEGORY_WORDS: Record<string, string> = {
  S: 'Standard rate',
  Z: 'Zero rated',
  E: EN.exempt,
  AE: EN.reverseCharge,
  K: EN.intraEu,
  G: EN.export,
  O: EN.notSubject,
}
/** What a VAT band is, in the words the PDF prints for it ("VAT 19%", "Reverse charge"). */
export function vatBandWords(category: string, rate: string): string {
  return EN.vatWords(category, rate)
}
/** A Line's VAT in the words the PDF's Lines table prints ("19%", "Rev. charge"), not its category's code. */
export function lineVatWords(category: string, rate: string): string {
  return EN.lineVat(category, rate)
}
/** The hint beside a Line's category while the chosen Client is a business in another EU country with a VAT number. */
export const EU_BUSINESS_HINT = `The Client is a business in another EU country with a VAT number: K (${EN.intraEu}) for goods, AE (${EN.reverseCharge}) for services.`
export const METHOD_WORDS: Record<string, string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Check',
  credit_card: 'Credit card',
  debit_card: 'Debit card',
  other: 'Other',
}

/** "1234567.5" → "1,234,567.5": the exact decimal string, its integer digits grouped for reading; never a float. */
export function grouped(amount: string): string {
  const neg = amount.startsWith('-')
  const [int, frac] = amount.replace(/^-/, '').split('.')
  const g = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${neg ? '−' : ''}${g}${frac !== undefined ? `.${frac}` : ''}`
}

export function Money({ amount, currency }: { amount: string | null | undefined; currency: string }): JSX.Element {
  if (amount === null || amount === undefined) return <span class="muted">—</span>
  return (
    <span class="num" data-amount={esc(amount)}>
      {esc(grouped(amount))} <span class="cur">{esc(currency)}</span>
    </span>
  )
}

export function StatusTag({ status, overdue }: { status: string; overdue?: boolean }): JSX.Element {
  const kind =
    status === 'paid' ? 'ok' : status === 'cancelled' ? '' : overdue ? 'bad' : status === 'draft' ? 'draft' : ''
  return (
    <span class={`tag ${kind}`} data-status={esc(status)}>
      {esc(STATUS_WORDS[status] ?? status)}
      {overdue ? ' · overdue' : ''}
    </span>
  )
}

/** Why the person cannot change anything on this Business's pages (Viewer, Free plan non-Owner), or null. */
export function changeBlocked(c: InBusiness): string | null {
  return appRefusal(c.role, c.business.plan, 'change')?.message ?? null
}

/**
 * A page's heading with the links of what one may do from it (New client, New invoice), left out for a person who may
 * change nothing here. `tag` follows the title (a Client's "Inactive").
 */
export function PageHead(p: {
  c: InBusiness
  title: string
  tag?: JSX.Element
  children?: JSX.Element | JSX.Element[]
}): JSX.Element {
  return (
    <div class="row spread">
      <h1 class="flush">
        {esc(p.title)}
        {p.tag ? <> {p.tag}</> : ''}
      </h1>
      {changeBlocked(p.c) ? '' : <div class="row">{p.children}</div>}
    </div>
  )
}

/**
 * A button posting one action, or, when closed, the same button disabled with the reason beside it (the refusal's
 * words, or why this person may not change anything here).
 */
export function ActionButton(p: {
  c: InBusiness
  path: string
  label: string
  closed?: string | null
  danger?: boolean
  quiet?: boolean
  confirm?: string
  id?: string
}): JSX.Element {
  const blocked = changeBlocked(p.c) ?? p.closed ?? null
  const cls = p.danger ? 'danger' : p.quiet ? 'quiet' : ''
  if (blocked) {
    const rid = `why-${p.id ?? p.path.replace(/[^a-z0-9]/gi, '-')}`
    return (
      <div class="action closed">
        <button type="button" class={cls} disabled aria-describedby={rid}>
          {esc(p.label)}
        </button>
        <span class="why" id={rid}>
          {esc(blocked)}
        </span>
      </div>
    )
  }
  return (
    <form method="post" action={esc(p.c.base + p.path)} class="action">
      <Csrf token={p.c.csrf} />
      <button type="submit" class={cls} id={p.id}>
        {esc(p.label)}
      </button>
    </form>
  )
}

/** A text area that keeps what was typed after a refusal. */
export function Area(p: ControlProps & { rows?: number }): JSX.Element {
  return (
    <LabelledField
      {...p}
      control={(id, invalid, value) => (
        <textarea id={id} name={p.name} rows={String(p.rows ?? 3)} aria-invalid={invalid}>
          {esc(value)}
        </textarea>
      )}
    />
  )
}

/** The download of what the page shows as a CSV file (a report, a statement). */
export function CsvLink({ href, id }: { href: string; id?: string }): JSX.Element {
  return (
    <a href={esc(href)} download="" id={id}>
      Download CSV
    </a>
  )
}

/** The links of a paged list: the next page by the list operation's `next_cursor` (the platform's signed cursor). */
export function Pager({ next, url }: { next: string | null; url: URL }): JSX.Element {
  const first = new URL(url)
  first.searchParams.delete('cursor')
  const nextUrl = new URL(url)
  if (next !== null) nextUrl.searchParams.set('cursor', next)
  return (
    <nav class="row pager" aria-label="Pages">
      {url.searchParams.has('cursor') ? <a href={esc(first.pathname + first.search)}>First page</a> : ''}
      {next !== null ? (
        <a href={esc(nextUrl.pathname + nextUrl.search)} rel="next">
          Next page
        </a>
      ) : (
        ''
      )}
    </nav>
  )
}
