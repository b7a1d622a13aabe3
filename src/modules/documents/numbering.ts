// Document and Receipt numbers (extensions §4): requested numbers judged, the next number found, the number taken.
import type { Queryable, Tx } from '../../db/client'
import type { NumberingKind } from '../../db/schema'
import { formatNumber, parsePattern, readNumber } from '../../shared/numbering'
import { atItsEndMessage, highestTaken, numberingPattern, recordTaken, takeNextFree } from '../business'
import type { RefusalCode, RefusalInfo } from '../../shared/errors'
import { numberHolder, receiptHolder } from './documents.repo'

export const TEST_PREFIX = 'TEST-'

export interface NumberPlan {
  number: string
  counter: number
  pattern: string
  period: string
  kind: NumberingKind
}

export type NumberJudgement = { ok: true; plan: NumberPlan } | { ok: false; refusal: RefusalInfo }

/**
 * Judges the number an issue would take: the requested one (must fit, stay within the counter, be free and not
 * skip ahead) or the next one (one above the highest taken; the counter's largest value is never taken).
 */
export async function judgeNumber(
  q: Queryable,
  business: { id: number; isTest: boolean },
  kind: NumberingKind,
  year: number,
  requested: string | null,
  /** Who holds a number already: documents by default, Receipts for the receipt numbering. */
  holder: (q: Queryable, businessId: number, number: string) => Promise<number | undefined> = numberHolder,
): Promise<NumberJudgement> {
  const pattern = await numberingPattern(q, business.id, kind)
  const p = parsePattern(pattern)!
  const prefix = business.isTest ? TEST_PREFIX : ''
  const period = p.hasYear ? String(year) : ''
  const highest = await highestTaken(q, business.id, kind, pattern, period)
  const refuse = (code: RefusalCode, message: string): NumberJudgement => ({ ok: false, refusal: { code, message } })

  if (requested !== null) {
    const read = readNumber(p, requested, prefix)
    const example = formatNumber(p, Math.min(highest + 1, p.max - 1), year, prefix)
    if (!read || read.counter < 1 || (p.hasYear && !read.beyond && read.year !== year)) {
      return refuse('number_malformed', `${requested} is not a valid number here; numbers look like ${example}.`)
    }
    if (read.beyond || read.counter >= p.max) {
      return refuse('number_beyond_the_counter', `${requested} exceeds what the numbering ${pattern} can count (largest usable: ${formatNumber(p, p.max - 1, year, prefix)}).`)
    }
    if (await holder(q, business.id, requested)) return refuse('number_taken', `${requested} is held by another document.`)
    if (read.counter > highest + 1) {
      return refuse('number_skips_ahead', `${requested} skips ahead of the numbering; the next number is ${formatNumber(p, highest + 1, year, prefix)}.`)
    }
    return { ok: true, plan: { number: requested, counter: read.counter, pattern, period, kind } }
  }

  for (let n = highest + 1; ; n++) {
    if (n >= p.max) {
      return refuse('numbering_at_its_end', atItsEndMessage(kind, pattern))
    }
    const number = formatNumber(p, n, year, prefix)
    // A number typed by hand under an earlier pattern may hold this one already.
    if (!(await holder(q, business.id, number))) return { ok: true, plan: { number, counter: n, pattern, period, kind } }
  }
}

/** Takes the planned number inside the issuing transaction: the counter only moves up. */
export async function takeNumber(tx: Tx, businessId: number, plan: NumberPlan): Promise<void> {
  await recordTaken(tx, businessId, plan.kind, plan.pattern, plan.period, plan.counter)
}

/** What recording a Payment today would answer for its Receipt's number (null when a number is free). */
export async function receiptNumbering(q: Queryable, business: { id: number; isTest: boolean }, today: string): Promise<NumberJudgement> {
  return judgeNumber(q, business, 'receipt', Number(today.slice(0, 4)), null, receiptHolder)
}

/**
 * Takes the next Receipt number inside the recording transaction: the counter moves in one upsert, and a refusal
 * (numbering_at_its_end) rolls it back with everything else. The same rule and words as judgeNumber's prediction.
 */
export async function takeReceiptNumber(tx: Tx, business: { id: number; isTest: boolean }, today: string): Promise<{ ok: true; number: string } | { ok: false; refusal: RefusalInfo }> {
  const pattern = await numberingPattern(tx, business.id, 'receipt')
  const year = Number(today.slice(0, 4))
  const period = parsePattern(pattern)!.hasYear ? String(year) : ''
  const prefix = business.isTest ? TEST_PREFIX : ''
  const number = await takeNextFree(tx, business.id, 'receipt', pattern, period, (p, n) => formatNumber(p, n, year, prefix), async (x) => (await receiptHolder(tx, business.id, x)) !== undefined)
  return number === null ? { ok: false, refusal: { code: 'numbering_at_its_end', message: atItsEndMessage('receipt', pattern) } } : { ok: true, number }
}
