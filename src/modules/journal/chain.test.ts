// The chain's arithmetic against docs/journal.md: canonical JSON, the entry text verify builds by hand equal to the
// canonical JSON of the entry, and the hash an outsider computes (journal.testkit.ts) equal to the service's.
import { describe, expect, test } from 'bun:test'
import { canonical, entryAt, entryHash, entryText, GENESIS } from './chain'
import { canon } from './journal.testkit'
import { paymentDataText } from './records'

const awkward = {
  z: 'ünïcödé “quotes” \\ back\nslash \u2028',
  a: [3, { y: null, b: 'x' }, []],
  m: { '': 1, B: 2, a: 3 },
  money: '12345678901234.567',
}

describe('canonical JSON', () => {
  test('keys sorted at every depth, no white space, strings as JSON writes them; the outsider’s reading agrees', () => {
    expect(canonical(awkward)).toBe(canon(awkward))
    expect(canonical({ b: 1, a: { d: 2, c: 3 } })).toBe('{"a":{"c":3,"d":2},"b":1}')
    expect(canonical(awkward)).not.toContain(' ,')
  })

  test('a member whose value is undefined is left out, null is kept', () => {
    expect(canonical({ a: undefined, b: null })).toBe('{"b":null}')
  })
})

describe('an entry', () => {
  test("verify's hand-built text is the canonical JSON of the entry without its hash, so outsiders hash the same", () => {
    const record = { type: 'payment' as const, id: 7, number: 'RCT-2026-00001' }
    const data = { amount: '10.00', note: awkward }
    const text = entryText(3, '2026-03-10T09:00:00.000000Z', 'payment.recorded', record, canonical(data), GENESIS)
    const entry = {
      seq: 3,
      at: '2026-03-10T09:00:00.000000Z',
      kind: 'payment.recorded',
      record,
      data,
      prev_hash: GENESIS,
    }
    expect(text).toBe(canon(entry))
    expect(entryHash(GENESIS, text)).toBe(
      new Bun.CryptoHasher('sha256').update(`${GENESIS}\n${canon(entry)}`).digest('hex'),
    )
    const nullNumber = entryText(1, 'x', 'business.changed', { type: 'business', id: 1, number: null }, '{}', GENESIS)
    expect(JSON.parse(nullNumber).record).toEqual({ id: 1, number: null, type: 'business' })
  })

  test('at is UTC with six decimals of the second', () => {
    expect(entryAt(new Date('2026-03-10T09:00:01.234Z'))).toBe('2026-03-10T09:00:01.234000Z')
  })
})

describe("a Payment's data", () => {
  test('is written as canonical JSON whatever its values hold (quotes, unicode, nulls)', () => {
    const text = paymentDataText({
      id: 1,
      amount: '1234567890.123',
      currency: 'KWD',
      payment_date: '2026-03-10',
      payment_method: 'bank "transfer" ✓',
      status: 'completed',
      document_id: 9,
      document_number: null,
      receipt_number: 'R\\n-ü-\u2028',
    })
    expect(canon(JSON.parse(text))).toBe(text)
    expect(JSON.parse(text).document).toEqual({ id: 9, number: null })
  })
})
