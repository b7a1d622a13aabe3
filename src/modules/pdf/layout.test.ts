// Text layout: lines never wider than asked, nothing dropped but the spaces lines break at, and time linear in
// the text's length (it was quadratic: a 4,000-character address held the only JavaScript thread for 51 s).
import { describe, expect, test } from 'bun:test'
import { PageWriter } from './layout'

const w = await PageWriter.create('layout test', null)

describe('wrap', () => {
  test('every line fits the width, and joined at the breaks the lines give back the text', () => {
    const text = 'Überprüfung der Buchhaltung für das Geschäftsjahr, Ελληνικά κείμενα και работа по договору. '
      .repeat(40)
      .trim()
    for (const width of [80, 230, 400]) {
      const lines = w.wrap(text, 9, width)
      expect(lines.length).toBeGreaterThan(1)
      for (const l of lines) expect(w.measure(l, 9)).toBeLessThanOrEqual(width)
      expect(lines.join(' ')).toBe(text)
    }
    // Narrower than its longest word: the word is cut, and still no character is lost.
    const narrow = w.wrap(text, 9, 40)
    for (const l of narrow) expect(w.measure(l, 9)).toBeLessThanOrEqual(40)
    expect(narrow.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''))
  })

  test('a word wider than the line is cut where it stops fitting, not dropped', () => {
    const word = 'x'.repeat(500)
    const lines = w.wrap(`a ${word} b`, 9, 100)
    for (const l of lines) expect(w.measure(l, 9)).toBeLessThanOrEqual(100)
    expect(lines.join('').replace(/ /g, '')).toBe(`a${word}b`)
  })

  test('line breaks in the text are kept as line breaks; tabs are spaces', () => {
    expect(w.wrap('one\ntwo\r\nthree\tfour', 10, 500)).toEqual(['one', 'two', 'three four'])
  })

  test('a megabyte of text is laid out in well under a second (linear, not quadratic)', () => {
    const text = 'consulting services delivered Überprüfung '.repeat(25_000)
    const t = performance.now()
    const lines = w.wrap(text, 9, 230)
    expect(performance.now() - t).toBeLessThan(1000)
    expect(lines.length).toBeGreaterThan(3000)
  })
})

describe('fit', () => {
  test('a line too wide is cut to the width and ends with an ellipsis; one that fits is kept whole', () => {
    const long = 'Hauptstraße '.repeat(400)
    const cut = w.fit(long, 10, 200)
    expect(cut.endsWith('…')).toBe(true)
    expect(w.measure(cut, 10)).toBeLessThanOrEqual(200)
    expect(long.startsWith(cut.slice(0, -1))).toBe(true)
    expect(w.fit('Short', 10, 200)).toBe('Short')
  })
})

describe('characters outside the Basic Multilingual Plane', () => {
  test('are never split between lines or by a cut', () => {
    const text = '😀'.repeat(300)
    for (const l of w.wrap(text, 9, 100)) expect(l).toBe('😀'.repeat(l.length / 2))
    const cut = w.fit(text, 9, 100)
    expect(cut.slice(0, -1)).toBe('😀'.repeat((cut.length - 1) / 2))
  })
})
