// Text rules by table: blank values, and lengths counted in characters as stored.
import { describe, expect, test } from 'bun:test'
import { blank, chars, storedChars } from './text'

describe('blank', () => {
  test('a value sent empty or only spaces is blank (null); one not sent stays not sent; others are trimmed', () => {
    expect(blank(undefined)).toBeUndefined()
    expect(blank(null)).toBeNull()
    expect(blank('')).toBeNull()
    expect(blank('  \t\n')).toBeNull()
    expect(blank('  Acme  ')).toBe('Acme')
  })
})

describe('lengths in characters', () => {
  test('an emoji outside the BMP is one character, not two UTF-16 units', () => {
    expect('😀'.length).toBe(2)
    expect(chars('😀')).toBe(1)
    expect(chars('😀'.repeat(200))).toBe(200)
    expect(chars('Köln')).toBe(4)
    expect(chars('')).toBe(0)
  })

  test('a length as stored does not count the spaces blank() trims away', () => {
    expect(storedChars(' ' + 'a'.repeat(255))).toBe(255)
    expect(storedChars('  😀😀 \n')).toBe(2)
    expect(storedChars('a b')).toBe(3)
  })
})
