// What counts as paid (paid.ts) at the limits of money: 0- and 3-decimal currencies, 15 integer digits, nothing paid,
// overpaid, a zero Total, statuses that payments never change, and which documents' Payments count.
import { describe, expect, test } from 'bun:test'
import { Dec } from '../../shared/money'
import { amountDue, countedDocumentIds, paidState } from './paid'

const issued = (total: string) => ({ status: 'issued' as const, total })

describe('paidState: the status and amount due Payments give a document', () => {
  test('nothing paid is issued with the whole Total due; something short of the Total is partially paid; the Total reached is paid', () => {
    expect(paidState(issued('100.00'), new Dec('0'))).toMatchObject({ status: 'issued', inFull: false })
    expect(paidState(issued('100.00'), new Dec('0')).due.toFixed()).toBe('100')
    expect(paidState(issued('100.00'), new Dec('99.99'))).toMatchObject({ status: 'partially_paid', inFull: false })
    expect(paidState(issued('100.00'), new Dec('100'))).toMatchObject({ status: 'paid', inFull: true })
  })

  test('a 3-decimal currency (KWD) at 15 integer digits: one fils short is partially paid and 0.001 is due, exactly', () => {
    const total = '999999999999999.999'
    const short = paidState(issued(total), new Dec('999999999999999.998'))
    expect(short.status).toBe('partially_paid')
    expect(short.due.toFixed()).toBe('0.001')
    const full = paidState(issued(total), new Dec('999999999999999.999'))
    expect(full).toMatchObject({ status: 'paid', inFull: true })
    expect(full.due.toFixed()).toBe('0')
  })

  test('a 0-decimal currency (JPY) at 15 digits: one yen short is partially paid; beyond 2^53 nothing is lost to floating point', () => {
    const total = '999999999999999'
    expect(paidState(issued(total), new Dec('999999999999998'))).toMatchObject({ status: 'partially_paid' })
    expect(paidState(issued(total), new Dec('999999999999998')).due.toFixed()).toBe('1')
    // 2^53 + 1 is not a JS number; as a decimal it still differs from 2^53.
    expect(paidState(issued('9007199254740993'), new Dec('9007199254740992')).status).toBe('partially_paid')
  })

  test('more paid than the Total (an Invoice counting a Proforma paid above it) is paid, with a negative amount due, never rounded away', () => {
    const over = paidState(issued('10.000'), new Dec('10.001'))
    expect(over.status).toBe('paid')
    expect(over.due.toFixed()).toBe('-0.001')
  })

  test('a zero Total with nothing paid stays issued (nothing was paid), with nothing due', () => {
    const zero = paidState(issued('0.00'), new Dec('0'))
    expect(zero).toMatchObject({ status: 'issued', inFull: false })
    expect(zero.due.toFixed()).toBe('0')
  })

  test('a Draft and a cancelled document keep their status whatever is paid', () => {
    expect(paidState({ status: 'draft', total: '5' }, new Dec('5')).status).toBe('draft')
    expect(paidState({ status: 'cancelled', total: '5' }, new Dec('2')).status).toBe('cancelled')
  })

  test("the stored amount due is Total less amount paid, at the currency's own digits", () => {
    expect(amountDue({ total: '999999999999999.999', amountPaid: '0.001' }).toFixed()).toBe('999999999999999.998')
    expect(amountDue({ total: '1000', amountPaid: '1000' }).toFixed()).toBe('0')
  })
})

describe('countedDocumentIds: whose Payments count', () => {
  test("an Invoice converted from a Proforma counts the Proforma's Payments too; anything else counts its own", () => {
    expect(countedDocumentIds({ id: 7, type: 'invoice', proformaId: 3 })).toEqual([7, 3])
    expect(countedDocumentIds({ id: 7, type: 'invoice', proformaId: null })).toEqual([7])
    expect(countedDocumentIds({ id: 3, type: 'proforma', proformaId: null })).toEqual([3])
    // A Credit Note is no Payment: it counts nothing on the Invoice it credits, and the Invoice counts nothing of it.
    expect(countedDocumentIds({ id: 9, type: 'credit_note', proformaId: null })).toEqual([9])
  })
})
