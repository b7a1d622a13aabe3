// The catalogs and their formats: every language has every word and keeps every figure a sentence is given; dates,
// numbers, amounts and rates are written exactly as the platform's Intl (CLDR) writes them, every digit kept up to
// the contract's limits; English keeps the service's international forms.
import { describe, expect, test } from 'bun:test'
import { catalogs, LANGUAGES, readerLanguage, words, type Catalog } from '.'

const nbsp = (s: string) => s.replace(/\u202f/g, '\u00a0')

/** Decimal strings from 1 to 15 integer digits and 0 to 3 decimals, with the edges that grouping turns on. */
function decimals(): string[] {
  const out = ['0', '0.00', '1', '999', '1000', '1234.5', '9999.99', '10000', '12345.678', '999999999999999.999']
  let seed = 7
  const next = () => (seed = (seed * 48271) % 2147483647)
  for (let i = 0; i < 300; i++) {
    const digits = 1 + (next() % 15)
    let int = String(1 + (next() % 9))
    for (let d = 1; d < digits; d++) int += String(next() % 10)
    const scale = next() % 4
    let frac = ''
    for (let d = 0; d < scale; d++) frac += String(next() % 10)
    out.push(scale ? `${int}.${frac}` : int)
  }
  return out
}

describe('the catalogs', () => {
  test('every language has every word of the English catalog, none blank', () => {
    const keys = (c: Catalog) => Object.keys(c).sort()
    for (const lang of LANGUAGES) {
      const c = catalogs()[lang]
      expect(keys(c)).toEqual(keys(catalogs().en))
      for (const [k, v] of Object.entries(c)) {
        if (k === 'locale') continue
        if (typeof v === 'string') expect({ lang, k, blank: v.trim() === '' }).toEqual({ lang, k, blank: false })
        if (typeof v === 'object')
          for (const [kk, vv] of Object.entries(v as Record<string, string>))
            expect({ lang, k: `${k}.${kk}`, blank: vv.trim() === '' }).toEqual({ lang, k: `${k}.${kk}`, blank: false })
      }
    }
  })

  test('every sentence of every language keeps each figure it is given', () => {
    for (const lang of LANGUAGES) {
      const c = catalogs()[lang]
      const says = (name: string, text: string, ...figures: string[]) => {
        for (const f of figures)
          expect({ lang, name, has: f, in: text.includes(f) }).toEqual({ lang, name, has: f, in: true })
      }
      says('credits', c.credits('N-1', 'D-1'), 'N-1', 'D-1')
      says('band', c.band('W-1', 'A-1'), 'W-1', 'A-1')
      says('vatRate', c.vatRate('P-1'), 'P-1')
      says('zeroRated', c.zeroRated('P-1'), 'P-1')
      says('pleasePay', c.pleasePay('A-1', 'D-1'), 'A-1', 'D-1')
      says('vatInAccounting', c.vatInAccounting('C-1', 'A-1', 'F-1', 'R-1'), 'C-1', 'A-1', 'F-1', 'R-1')
      says('receiptFor', c.receiptFor('T-1', 'N-1', 'A-1'), 'T-1', 'N-1', 'A-1')
      says('receiptVoid', c.receiptVoid('D-1'), 'D-1')
      says('issuedOn', c.issuedOn('D-1'), 'D-1')
      says('dueOn', c.dueOn('D-1'), 'D-1')
      says('viewOnline', c.viewOnline('U-1'), 'U-1')
      says('sendSubject', c.sendSubject('T-1', 'N-1', 'B-1'), 'T-1', 'N-1', 'B-1')
      says('sendText', c.sendText('T-1', 'N-1', 'D-1', 'A-1', 'D-2'), 'T-1', 'N-1', 'D-1', 'A-1', 'D-2')
      says('reminderSubject', c.reminderSubject('T-1', 'N-1', 'B-1'), 'T-1', 'N-1', 'B-1')
      for (const overdue of [true, false])
        says(
          'reminderText',
          c.reminderText('T-1', 'N-1', 'D-1', 'A-1', 'D-2', overdue, 'A-2'),
          'T-1',
          'N-1',
          'D-1',
          'A-1',
          'D-2',
          'A-2',
        )
      says('receiptSubject', c.receiptSubject('N-1', 'B-1'), 'N-1', 'B-1')
      says('receiptThanks', c.receiptThanks('A-1', 'D-1', 'T-1', 'N-1'), 'A-1', 'D-1', 'T-1', 'N-1')
    }
  })

  test('anything not one of the eight languages reads as English', () => {
    for (const v of [null, undefined, '', 'xx', 'DE']) expect(words(v).titles.invoice).toBe('Invoice')
    expect(words('de').titles.invoice).toBe('Rechnung')
  })

  test("a browser's Accept-Language names the reader's language by its weights; none of the eight (or q=0) is English", () => {
    expect(readerLanguage('de-AT,de;q=0.9,en;q=0.5')).toBe('de')
    expect(readerLanguage('en;q=0.5, fr-CA;q=0.8, ja')).toBe('fr')
    expect(readerLanguage('PT-br')).toBe('pt')
    expect(readerLanguage('ja, zh;q=0.9')).toBe('en')
    expect(readerLanguage('pl;q=0, nl;q=0.1')).toBe('nl')
    expect(readerLanguage('it;q=abc')).toBe('it')
    for (const none of [null, undefined, '', ',,;', 'de;q=0']) expect(readerLanguage(none)).toBe('en')
  })
})

describe('the formats', () => {
  test('a figure is written the same after the formats have remembered, and forgotten, thousands of others', () => {
    const de = words('de')
    const first = ['1234.56', '0.5', '19.00'].map((x) => [de.number(x), de.money(x, 'EUR'), de.percent(x)])
    for (let i = 0; i < 5000; i++) {
      const x = `${i * 7}.${String(i % 100).padStart(2, '0')}`
      expect(de.number(x)).toBe(nbsp(new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2 }).format(Number(x))))
      de.money(x, 'EUR')
      de.percent(x)
    }
    expect(['1234.56', '0.5', '19.00'].map((x) => [de.number(x), de.money(x, 'EUR'), de.percent(x)])).toEqual(first)
    expect(first[0]).toEqual(['1.234,56', '1.234,56\u00a0€', '1.234,56\u00a0%'])
  })

  test('numbers and amounts are exactly what Intl writes for the decimal string, every digit kept, in every language but English', () => {
    for (const lang of LANGUAGES) {
      const w = words(lang)
      const locale = catalogs()[lang].locale
      for (const d of decimals()) {
        if (!locale) {
          expect(w.number(d)).toBe(d)
          expect(w.money(d, 'EUR')).toBe(`${d} EUR`)
          continue
        }
        const scale = d.includes('.') ? d.length - d.indexOf('.') - 1 : 0
        const opts = { minimumFractionDigits: scale, maximumFractionDigits: scale }
        expect(w.number(d)).toBe(nbsp(new Intl.NumberFormat(locale, opts).format(d as never)))
        for (const currency of ['EUR', 'USD', 'JPY', 'CHF', 'GBP', 'PLN', 'KWD'])
          expect(w.money(d, currency)).toBe(
            nbsp(new Intl.NumberFormat(locale, { ...opts, style: 'currency', currency }).format(d as never)),
          )
        // Every digit is kept: the digits read back are the decimal's own.
        expect(w.number(d).replace(/\D/g, '')).toBe(d.replace(/\D/g, ''))
      }
      // A negative amount (none is shown today) still reads as Intl writes it.
      if (locale)
        expect(w.money('-1234.50', 'EUR')).toBe(
          nbsp(
            new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 }).format(
              '-1234.50' as never,
            ),
          ),
        )
    }
  }, 30_000) // 2,500 figures against Intl each in eight languages: seconds on a loaded machine

  test('rates are percentages as Intl writes them ("19 %" in German, "7,5 %"), and "19%" in English', () => {
    for (const lang of LANGUAGES) {
      const locale = catalogs()[lang].locale
      for (const [rate, fraction] of [
        ['19.00', '0.19'],
        ['7.50', '0.075'],
        ['0', '0'],
        ['5.5', '0.055'],
        ['100.00', '1'],
        ['12.25', '0.1225'],
      ] as const) {
        const expected = locale
          ? nbsp(
              new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }).format(fraction as never),
            )
          : `${rate.replace(/\.?0+$/, '') || '0'}%`
        expect({ lang, rate, got: words(lang).percent(rate) }).toEqual({ lang, rate, got: expected })
      }
    }
    expect(words('de').percent('19.00')).toBe('19\u00a0%')
    expect(words('en').percent('7.50')).toBe('7.5%')
  })

  test('dates are what Intl writes (27.11.2026 in German), ISO in English; month names in the language', () => {
    for (const lang of LANGUAGES) {
      const locale = catalogs()[lang].locale
      for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000 * 17) {
        const iso = new Date(day).toISOString().slice(0, 10)
        const expected = locale
          ? new Intl.DateTimeFormat(locale, {
              day: '2-digit',
              month: '2-digit',
              year: 'numeric',
              timeZone: 'UTC',
            }).format(day)
          : iso
        expect(words(lang).date(iso)).toBe(expected)
        expect(words(lang).date(`${iso}T10:11:12.000Z`)).toBe(expected)
      }
    }
    expect(words('de').date('2026-11-27')).toBe('27.11.2026')
    expect(words('nl').date('2026-11-27')).toBe('27-11-2026')
    expect(words('de').month('2026-11-27')).toBe('November')
    expect(words('pl').month(11)).toBe('listopad')
    expect(words('fr').month('2026-02-01')).toBe('février')
    expect(words('en').month(2)).toBe('February')
  })

  test('country names are in the language, the short form an address writes', () => {
    expect(['de', 'fr', 'es', 'it', 'nl', 'pl', 'pt'].map((l) => words(l).country('DE'))).toEqual([
      'Deutschland',
      'Allemagne',
      'Alemania',
      'Germania',
      'Duitsland',
      'Niemcy',
      'Alemanha',
    ])
    expect(words('en').country('DE')).toBe('Germany')
    expect(words('nl').country('FR')).toBe('Frankrijk')
    expect(words('de').country('ZZ')).toBe('ZZ')
  })
})
