// ISO 11649 creditor references: check digits as the standard's published examples have them, made and read back.
import { describe, expect, test } from 'bun:test'
import {
  compactReference,
  creditorReference,
  isCreditorReference,
  printedReference,
  referenceBodyOf,
  referencesIn,
} from './creditor-reference'

describe('ISO 11649 check digits', () => {
  test('the published examples check: RF18 5390 0754 7034, RF18 0000 0000 0539 0075 4703 4, RF71 2348 231, RF45 G72U UR', () => {
    for (const ref of ['RF18 5390 0754 7034', 'RF18 0000 0000 0539 0075 4703 4', 'RF712348231', 'RF45G72UUR'])
      expect(isCreditorReference(ref)).toBe(true)
  })

  test('the check digits made for a published body are the published ones', () => {
    expect(creditorReference('539007547034')).toBe('RF18539007547034')
    expect(creditorReference('000000000539007547034')).toBe('RF18000000000539007547034')
    expect(creditorReference('2348231')).toBe('RF712348231')
    expect(creditorReference('G72UUR')).toBe('RF45G72UUR')
  })

  test('a reference with one digit or letter changed, or two swapped, no longer checks', () => {
    expect(isCreditorReference('RF19539007547034')).toBe(false)
    expect(isCreditorReference('RF18539007547035')).toBe(false)
    expect(isCreditorReference('RF18539007574034')).toBe(false)
    expect(isCreditorReference('RF45G72UUS')).toBe(false)
  })

  test('a body of more than 21 characters, or other than letters and digits, is not a reference', () => {
    expect(isCreditorReference(`RF00${'1'.repeat(22)}`)).toBe(false)
    expect(() => creditorReference('1'.repeat(22))).toThrow()
    expect(() => creditorReference('INV-1')).toThrow()
  })
})

describe('references of document numbers', () => {
  test("a number's letters and digits make the body, upper case; the last 21 of a longer one", () => {
    expect(referenceBodyOf('inv-2026/0001')).toBe('INV20260001')
    expect(referenceBodyOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ-123')).toBe('IJKLMNOPQRSTUVWXYZ123')
    expect(isCreditorReference(creditorReference(referenceBodyOf('INV-2026-0001')))).toBe(true)
  })

  test('printed in groups of four for people, compared without spaces', () => {
    expect(printedReference('RF18539007547034')).toBe('RF18 5390 0754 7034')
    expect(compactReference('rf18 5390 0754 7034')).toBe('RF18539007547034')
  })

  test('found in free text however it is spaced, and only when its check digits hold', () => {
    expect(referencesIn('Invoice rf18 5390 0754 7034 thanks')).toEqual(['RF18539007547034'])
    expect(referencesIn('ref:RF16INV20260001/ March')).toEqual(['RF16INV20260001'])
    expect(referencesIn('RF19539007547034')).toEqual([])
    expect(referencesIn('no reference here')).toEqual([])
  })
})
