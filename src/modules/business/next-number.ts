// Taking the next free number of a numbering inside a writing transaction: one rule for Receipts and account codes.
import type { Tx } from '../../db/client'
import type { NumberingKind } from '../../db/schema'
import { parsePattern, type Pattern } from '../../shared/numbering'
import { takeNextCounter } from './counters.repo'

const KIND_WORDS: Record<NumberingKind, string> = {
  invoice: 'invoice',
  proforma: 'proforma',
  credit_note: 'credit note',
  quote: 'quote',
  receipt: 'receipt',
  client: 'account code',
}

/** The words of numbering_at_its_end, the same whether a request is refused or `actions` predicts it. */
export function atItsEndMessage(kind: NumberingKind, pattern: string): string {
  return `The ${KIND_WORDS[kind]} numbering ${pattern} reached its largest number, which is never taken; change its pattern${kind === 'receipt' || kind === 'client' ? '' : ' or request an unused earlier number'}.`
}

/**
 * One above the highest taken, recorded as taken in one upsert; a number already held (typed by hand, or under an
 * earlier pattern) is stepped over. The largest value the counter holds is never taken: then `null`, and the caller
 * refuses numbering_at_its_end, which rolls the counter back with the rest of its transaction.
 */
export async function takeNextFree(
  tx: Tx,
  businessId: number,
  kind: NumberingKind,
  pattern: string,
  period: string,
  render: (p: Pattern, n: number) => string,
  held: (number: string) => Promise<boolean>,
): Promise<string | null> {
  const p = parsePattern(pattern)!
  for (;;) {
    const n = await takeNextCounter(tx, businessId, kind, pattern, period)
    if (n >= p.max) return null
    const number = render(p, n)
    if (!(await held(number))) return number
  }
}
