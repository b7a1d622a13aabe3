// Numbering (extensions §4): one algorithm for document numbers, Receipt numbers and Client account codes.
//
// The next number is one above the highest taken, stepping over a number already held (typed by hand, or taken under
// an earlier pattern); the counter's largest value is never taken (numbering_at_its_end). A requested number must fit
// the pattern, stay within the counter, be free and, for documents, not skip ahead of the next; an unused earlier
// number may be taken. `judge` says what taking would answer without writing (the `actions` prediction, the checks
// before a transaction); `take` answers the same inside the writing transaction and records the number taken.
import type { SqlTx } from '../../db/client'
import type { NumberingKind } from '../../db/schema'
import { FieldErrorBag, refusalInfo, type RefusalInfo } from '../../shared/errors'
import { findPattern, highestTaken, holderOf, recordTaken, savePattern, takeNextCounter } from './numbering.repo'
import { DEFAULT_PATTERNS, formatNumber, parsePattern, readNumber, type Pattern } from './pattern'

const TEST_PREFIX = 'TEST-'

interface KindRules {
  /** How the refusal's words name the numbering. */
  words: string
  /** A Test business's numbers carry TEST- (documents and Receipts; account codes do not). */
  testPrefix: boolean
  /** Whether a requested number above the next is refused (number_skips_ahead): documents only. */
  refusesSkipAhead: boolean
  /** Whether the caller can ask for an unused earlier number instead (named in numbering_at_its_end's words). */
  takesRequested: boolean
}

const DOCUMENT: KindRules = { words: 'invoice', testPrefix: true, refusesSkipAhead: true, takesRequested: true }
const KINDS: Record<NumberingKind, KindRules> = {
  invoice: DOCUMENT,
  proforma: { ...DOCUMENT, words: 'proforma' },
  credit_note: { ...DOCUMENT, words: 'credit note' },
  quote: { ...DOCUMENT, words: 'quote' },
  receipt: { words: 'receipt', testPrefix: true, refusesSkipAhead: false, takesRequested: false },
  client: { words: 'account code', testPrefix: false, refusesSkipAhead: false, takesRequested: false },
}

/** One Business's numbering of one kind, as it stands for one year. */
export interface Numbering {
  readonly businessId: number
  readonly kind: NumberingKind
  readonly pattern: string
  readonly parsed: Pattern
  readonly prefix: string
  /** The year {YYYY} writes; account codes have none (a {YYYY} in their pattern writes 0000). */
  readonly year: number | null
  /** The counter's period: the year when the pattern holds {YYYY} (the counter starts again each year), else ''. */
  readonly period: string
}

export type Judgement = { ok: true; number: string; counter: number } | { ok: false; refusal: RefusalInfo }

/** The Business's pattern of a kind: the one it set, or the default. */
export async function numberingPattern(q: SqlTx, businessId: number, kind: NumberingKind): Promise<string> {
  return (await findPattern(q, businessId, kind)) ?? DEFAULT_PATTERNS[kind]
}

export async function numberingFor(
  q: SqlTx,
  business: { id: number; isTest: boolean },
  kind: NumberingKind,
  year: number | null,
): Promise<Numbering> {
  const pattern = await numberingPattern(q, business.id, kind)
  // Patterns are checked when set (setNumbering), so a stored one always parses.
  const parsed = parsePattern(pattern)!
  const prefix = business.isTest && KINDS[kind].testPrefix ? TEST_PREFIX : ''
  return {
    businessId: business.id,
    kind,
    pattern,
    parsed,
    prefix,
    year,
    period: parsed.hasYear && year !== null ? String(year) : '',
  }
}

/** The number the counter value stands for. */
export function render(n: Numbering, counter: number): string {
  return formatNumber(n.parsed, counter, n.year ?? 0, n.prefix)
}

const refuse = (refusal: RefusalInfo): Judgement => ({ ok: false, refusal })
/** numbering_at_its_end, the same whether a request is refused or `actions` predicts it. */
const atItsEnd = (n: Numbering): Judgement =>
  refuse(
    refusalInfo('numbering_at_its_end', {
      words: KINDS[n.kind].words,
      pattern: n.pattern,
      takesRequested: KINDS[n.kind].takesRequested,
    }),
  )

/** A requested number judged against the rules; reads only. */
async function judgeRequested(q: SqlTx, n: Numbering, requested: string, exceptHolder?: number): Promise<Judgement> {
  const p = n.parsed
  const highest = () => highestTaken(q, n.businessId, n.kind, n.pattern, n.period)
  const read = readNumber(p, requested, n.prefix)
  if (!read || read.counter < 1 || (p.hasYear && n.year !== null && !read.beyond && read.year !== n.year)) {
    const example = render(n, Math.min((await highest()) + 1, p.max - 1))
    return refuse(refusalInfo('number_malformed', { requested, example }))
  }
  if (read.beyond || read.counter >= p.max) {
    return refuse(
      refusalInfo('number_beyond_the_counter', { requested, pattern: n.pattern, largest: render(n, p.max - 1) }),
    )
  }
  if (await holderOf(q, n.businessId, n.kind, requested, exceptHolder))
    return refuse(refusalInfo('number_taken', { requested }))
  if (KINDS[n.kind].refusesSkipAhead) {
    const h = await highest()
    if (read.counter > h + 1) return refuse(refusalInfo('number_skips_ahead', { requested, next: render(n, h + 1) }))
  }
  return { ok: true, number: requested, counter: read.counter }
}

/**
 * What taking would answer now, without writing: the requested number judged, or the next one found (one above the
 * highest taken, stepping over numbers held; never the counter's largest value).
 */
export async function judge(
  q: SqlTx,
  n: Numbering,
  requested: string | null,
  exceptHolder?: number,
): Promise<Judgement> {
  if (requested !== null) return judgeRequested(q, n, requested, exceptHolder)
  for (let counter = (await highestTaken(q, n.businessId, n.kind, n.pattern, n.period)) + 1; ; counter++) {
    if (counter >= n.parsed.max) return atItsEnd(n)
    const number = render(n, counter)
    if (!(await holderOf(q, n.businessId, n.kind, number))) return { ok: true, number, counter }
  }
}

/**
 * Takes a number inside the writing transaction: the requested one when the rules let it (the counter moves up to it,
 * never down), or the next one, the counter moved in one upsert per step. The rule is judge's. A refusal may leave
 * the counter moved: the caller throws it, and the transaction rolls the counter back with everything else.
 */
export async function take(
  tx: SqlTx,
  n: Numbering,
  requested: string | null,
  exceptHolder?: number,
): Promise<Judgement> {
  if (requested !== null) {
    const j = await judgeRequested(tx, n, requested, exceptHolder)
    if (j.ok) await recordTaken(tx, n.businessId, n.kind, n.pattern, n.period, j.counter)
    return j
  }
  for (;;) {
    const counter = await takeNextCounter(tx, n.businessId, n.kind, n.pattern, n.period)
    if (counter >= n.parsed.max) return atItsEnd(n)
    const number = render(n, counter)
    if (!(await holderOf(tx, n.businessId, n.kind, number))) return { ok: true, number, counter }
  }
}

/** A kind and pattern as the rules know them: 422 naming `kind` or `pattern` when either is not. */
export function checkPattern(kind: string, pattern: string): NumberingKind {
  const bag = new FieldErrorBag()
  if (!(kind in DEFAULT_PATTERNS)) bag.add('kind', `must be one of ${Object.keys(DEFAULT_PATTERNS).join(', ')}`)
  if (!parsePattern(pattern))
    bag.add('pattern', 'must hold one counter {N…} and at most one {YYYY}, e.g. INV-{YYYY}-{NNNN}')
  bag.throwIfAny()
  return kind as NumberingKind
}

/** Stores a checked pattern inside the caller's transaction (Business setup owns the use case, setNumbering). */
export async function storePattern(tx: SqlTx, businessId: number, kind: NumberingKind, pattern: string): Promise<void> {
  await savePattern(tx, businessId, kind, pattern)
}

// ---- The uses, named for their callers

/** The Receipts' numbering of the year of `today` (a Receipt is numbered in the year it is recorded). */
function receiptNumberingIn(q: SqlTx, business: { id: number; isTest: boolean }, today: string): Promise<Numbering> {
  return numberingFor(q, business, 'receipt', Number(today.slice(0, 4)))
}

/** What recording a Payment today would answer for its Receipt's number. */
export async function receiptNumbering(
  q: SqlTx,
  business: { id: number; isTest: boolean },
  today: string,
): Promise<Judgement> {
  return judge(q, await receiptNumberingIn(q, business, today), null)
}

/** Takes the next Receipt number inside the recording transaction (numbering_at_its_end has no way out for it). */
export async function takeReceiptNumber(
  tx: SqlTx,
  business: { id: number; isTest: boolean },
  today: string,
): Promise<Judgement> {
  return take(tx, await receiptNumberingIn(tx, business, today), null)
}

/** Account codes have no year and no TEST- prefix. */
export async function accountCodeNumbering(q: SqlTx, businessId: number): Promise<Numbering> {
  return numberingFor(q, { id: businessId, isTest: false }, 'client', null)
}
