// words(lang): a language's catalog with its formats of dates, numbers, money, rates and country names.
//
// Dates and numbers are written as the platform's Intl (CLDR) writes them in the catalog's locale: its signs, grouping,
// currency and percent patterns and date order are read from Intl once, and each figure is then written from its
// decimal string, so no amount passes through a float (a negative one goes to Intl itself, which formats a numeric
// string exactly). Country names are i18n-iso-countries', with only these eight languages registered: every other
// language file stays out of the binary.
import countries from 'i18n-iso-countries/index'
import deNames from 'i18n-iso-countries/langs/de.json'
import esNames from 'i18n-iso-countries/langs/es.json'
import frNames from 'i18n-iso-countries/langs/fr.json'
import itNames from 'i18n-iso-countries/langs/it.json'
import nlNames from 'i18n-iso-countries/langs/nl.json'
import plNames from 'i18n-iso-countries/langs/pl.json'
import ptNames from 'i18n-iso-countries/langs/pt.json'
import { countryName, isCountry } from '../../shared/countries'
import { isLanguage, type Catalog, type Language } from './catalog'
import { de } from './de'
import { en } from './en'
import { es } from './es'
import { fr } from './fr'
import { it } from './it'
import { nl } from './nl'
import { pl } from './pl'
import { pt } from './pt'

for (const names of [deNames, esNames, frNames, itNames, nlNames, plNames, ptNames]) countries.registerLocale(names)

const CATALOGS: Record<Language, Catalog> = { en, de, fr, es, it, nl, pl, pt }

/** What a catalog's words are written with: its figures formatted as the language writes them. */
export interface Formats {
  language: Language
  /** `YYYY-MM-DD` (or an ISO timestamp, its UTC day) as the language writes a date: 27.11.2026 in `de`. */
  date(iso: string): string
  /** A month's name, as in "November" (`{{month}}` of a recurring invoice): of a date, or a month 1 to 12. */
  month(isoOrMonth: string | number): string
  /** A decimal string with its own decimals kept, grouped: 1.234,56 in `de`; 1234.56 in `en`. */
  number(decimal: string): string
  /** How `number` writes a plain figure, for a writer that draws figures straight from their digits (shapeFigure). */
  figureShape: FigureShape | null
  /** An amount with its currency: 1.234,56 € in `de`, 1 234,56 € in `fr`; 1234.56 EUR in `en`. */
  money(decimal: string, currency: string): string
  /** A VAT rate ("19.00") as a percentage: 19 % in `de`, 19% in `en`. */
  percent(rate: string): string
  /** A country's name by its ISO code, in the language ("Frankreich"); the code itself when unknown. */
  country(code: string): string
  /** What a VAT category and rate mean on a document ("Reverse charge"), with the exemption codes its Lines name. */
  vatWords(category: string, rate: string, exemptionCodes?: (string | null)[]): string
  /** The short form of a Line's VAT column. */
  lineVat(category: string, rate: string): string
}

export type Words = Catalog & Formats

// CLDR puts a narrow no-break space (U+202F) between groups in French and Polish; a plain no-break space reads the
// same, is in every font and mail client, and keeps the PDF writer's fast path (it shapes nothing it does not know).
const nbsp = (s: string) => s.replace(/\u202f/g, '\u00a0')

/** Decimals written in a decimal string: "12.50" has 2. */
function decimalsOf(decimal: string): number {
  const dot = decimal.indexOf('.')
  return dot < 0 ? 0 : decimal.length - dot - 1
}

/** A rate as people write it: "19.00" is "19", "7.50" is "7.5" (string work only: no float, no big.js). */
function rateWords(rate: string): string {
  return rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate
}

/**
 * How a locale writes numbers, read once from Intl: its group and decimal signs, the fewest integer digits it groups
 * (Spanish, Italian, Polish and Portuguese leave 1234 ungrouped), and what stands around a number as a percentage
 * and as an amount of each currency. Formatting with these is string work on the decimal as written; calling Intl
 * for every figure cost a 100-Line German PDF about 2 ms more than the English one (words.test.ts holds the two equal).
 */
interface Shape {
  figure: FigureShape
  percent: { before: string; after: string }
  currencies: Map<string, { before: string; after: string }>
  date: Array<'day' | 'month' | 'year' | string>
}

/** What Intl writes before and after the number of `parts` (the sign of a negative number aside). */
function around(parts: Intl.NumberFormatPart[]): { before: string; after: string } {
  const isNumber = (p: Intl.NumberFormatPart) => ['integer', 'group', 'decimal', 'fraction'].includes(p.type)
  const first = parts.findIndex(isNumber)
  let last = parts.length - 1
  while (last > first && !isNumber(parts[last]!)) last--
  const text = (ps: Intl.NumberFormatPart[]) => nbsp(ps.map((p) => p.value).join(''))
  return { before: text(parts.slice(0, first)), after: text(parts.slice(last + 1)) }
}

function shapeOf(locale: string): Shape {
  const parts = new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).formatToParts(1234567.5)
  const grouped = new Intl.NumberFormat(locale).formatToParts(1234).some((p) => p.type === 'group')
  const date = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })
    .formatToParts(Date.UTC(2026, 10, 27))
    .map((p) => (p.type === 'day' || p.type === 'month' || p.type === 'year' ? p.type : p.value))
  const group = nbsp(parts.find((p) => p.type === 'group')?.value ?? '')
  const decimal = parts.find((p) => p.type === 'decimal')!.value
  // One UTF-16 unit each in every locale the catalogs name (words.test.ts); a figure is drawn unit for unit.
  if (group.length > 1 || decimal.length !== 1) throw new Error(`${locale}: a group or decimal sign of several units`)
  return {
    figure: { decimal: decimal.charCodeAt(0), group: group ? group.charCodeAt(0) : 0, minGroupDigits: grouped ? 4 : 5 },
    percent: around(new Intl.NumberFormat(locale, { style: 'percent' }).formatToParts(0.19)),
    currencies: new Map(),
    date,
  }
}

/**
 * How a language writes a plain figure (digits, and decimals after a point): its decimal sign, its group sign (0 for
 * none) and the fewest integer digits it groups, each sign one UTF-16 unit. English writes figures as they come (null).
 */
export interface FigureShape {
  readonly decimal: number
  readonly group: number
  readonly minGroupDigits: number
}

/**
 * A plain figure ("1234.56": digits, and decimals after a point) in `shape` (null: as it comes), its UTF-16 units
 * written into `out` from `at`: how many, or -1 for anything else (a sign, an exponent) or when `out` has no room.
 * Every digit is kept. The one place a figure's shape is applied: `number` makes its strings with it, and the PDF
 * writer draws figures from it with no string made (figures are most of a document's characters).
 */
export function shapeFigure(decimal: string, shape: FigureShape | null, out: Uint16Array, at = 0): number {
  const n = decimal.length
  if (n === 0) return -1
  let dot = -1
  for (let i = 0; i < n; i++) {
    const c = decimal.charCodeAt(i)
    if (c === 46 && dot < 0 && i > 0 && i < n - 1) dot = i
    else if (c < 48 || c > 57) return -1
  }
  const int = dot < 0 ? n : dot
  const group = shape !== null && shape.group !== 0 && int >= shape.minGroupDigits ? shape.group : 0
  if (at + n + (group ? Math.floor((int - 1) / 3) : 0) > out.length) return -1
  let k = at
  for (let i = 0; i < n; i++) {
    if (group && i > 0 && i < int && (int - i) % 3 === 0) out[k++] = group
    out[k++] = i === dot && shape ? shape.decimal : decimal.charCodeAt(i)
  }
  return k - at
}

const SCRATCH = new Uint16Array(64)
/** A plain figure as `shape` writes it; null for anything else (see shapeFigure). */
function shaped(decimal: string, shape: FigureShape): string | null {
  const out = decimal.length * 2 <= SCRATCH.length ? SCRATCH : new Uint16Array(decimal.length * 2)
  const n = shapeFigure(decimal, shape, out)
  return n < 0 ? null : String.fromCharCode(...out.subarray(0, n))
}

/**
 * Formatted figures a language keeps per format (most a server writes come again: the same document's PDF, page and
 * emails, prices, rates, totals): a few hundred kB at most over the eight languages.
 */
const REMEMBERED = 1024

/**
 * A formatter that writes each input once and then answers it from memory (forgetting all at REMEMBERED, so memory
 * stays bounded). English writes its figures as they come; the other languages shape each one, and that cost a German
 * PDF of 100 Lines 0.05 to 0.1 ms more than the English one on its 300-odd figures (bench/language-pdf.ts).
 */
function remembered(write: (s: string) => string): (s: string) => string {
  const seen = new Map<string, string>()
  return (s) => {
    let out = seen.get(s)
    if (out === undefined) {
      if (seen.size >= REMEMBERED) seen.clear()
      seen.set(s, (out = write(s)))
    }
    return out
  }
}

function formatsOf(language: Language, c: Catalog): Formats {
  const locale = c.locale
  const shape = locale ? shapeOf(locale) : null
  // Made on first use (a recurring invoice's {{month}}): English documents otherwise never touch ICU's date data,
  // which a server would keep in memory for good (about 5 MB).
  let monthFormat: Intl.DateTimeFormat | undefined
  /** Intl itself, for what the shape does not cover (a negative amount): exact on a decimal string too. */
  const intl = (decimal: string, options: Intl.NumberFormatOptions) => {
    const d = decimalsOf(decimal)
    const f = new Intl.NumberFormat(locale!, { ...options, minimumFractionDigits: d, maximumFractionDigits: d })
    return nbsp(f.format(decimal as unknown as number))
  }
  const currencyOf = (s: Shape, currency: string) => {
    let a = s.currencies.get(currency)
    if (!a) {
      const f = new Intl.NumberFormat(locale!, { style: 'currency', currency, minimumFractionDigits: 1 })
      s.currencies.set(currency, (a = around(f.formatToParts(1234.5))))
    }
    return a
  }
  const number = shape
    ? remembered((decimal) => shaped(decimal, shape.figure) ?? intl(decimal, {}))
    : (decimal: string) => decimal
  /** Amounts per currency, each remembered as figures are. */
  const amounts = new Map<string, (decimal: string) => string>()
  const amountsIn = (s: Shape, currency: string) => {
    let write = amounts.get(currency)
    if (!write) {
      const a = currencyOf(s, currency)
      write = remembered((decimal) => {
        const figure = shaped(decimal, s.figure)
        return figure === null ? intl(decimal, { style: 'currency', currency }) : a.before + figure + a.after
      })
      amounts.set(currency, write)
    }
    return write
  }
  const percent = remembered((rate) => {
    const r = rateWords(rate)
    if (!shape) return `${r}%`
    return shape.percent.before + (shaped(r, shape.figure) ?? r) + shape.percent.after
  })
  // The shortest of a country's names is the one an address writes ("Frankrijk", not "Franse Republiek").
  const country = remembered((code) => {
    if (language === 'en' || !isCountry(code)) return countryName(code)
    const names = countries.getName(code, language, { select: 'all' }) as string[] | undefined
    return names?.length ? names.reduce((a, b) => (b.length < a.length ? b : a)) : countryName(code)
  })
  const f: Formats = {
    language,
    date(iso) {
      const day = iso.slice(0, 10)
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
      if (!shape || !m) return day
      return shape.date.map((p) => (p === 'day' ? m[3] : p === 'month' ? m[2] : p === 'year' ? m[1] : p)).join('')
    },
    month(isoOrMonth) {
      const m = typeof isoOrMonth === 'number' ? isoOrMonth : Number(isoOrMonth.slice(5, 7))
      monthFormat ??= new Intl.DateTimeFormat(locale ?? 'en-GB', { month: 'long', timeZone: 'UTC' })
      return monthFormat.format(Date.UTC(2000, m - 1, 1))
    },
    number,
    figureShape: shape?.figure ?? null,
    money(decimal, currency) {
      if (!shape) return `${decimal} ${currency}`
      return amountsIn(shape, currency)(decimal)
    },
    percent,
    country,
    vatWords(category, rate, exemptionCodes = []) {
      const codes = [...new Set(exemptionCodes.filter((x): x is string => !!x))]
      switch (category) {
        case 'S':
          return c.vatRate(f.percent(rate))
        case 'Z':
          return c.zeroRated(f.percent('0'))
        case 'E':
          return codes.length ? `${c.exempt} (${codes.join(', ')})` : c.exempt
        case 'AE':
          return c.reverseCharge
        case 'K':
          return c.intraEu
        case 'G':
          return c.export
        case 'O':
          return c.notSubject
        default:
          return `${c.vatRate(f.percent(rate))} (${category})`
      }
    },
    lineVat(category, rate) {
      switch (category) {
        case 'E':
          return c.short.exempt
        case 'AE':
          return c.short.reverseCharge
        case 'K':
          return c.short.intraEu
        case 'G':
          return c.short.export
        case 'O':
          return c.short.notSubject
        default:
          return f.percent(rate)
      }
    },
  }
  return f
}

const WORDS = new Map<Language, Words>()

/**
 * The words and formats of a language: `words('de').titles.invoice` is "Rechnung", `words('de').date('2026-11-27')`
 * is "27.11.2026". Anything not one of the eight languages (a null, an old row) reads as English.
 */
export function words(language: string | null | undefined): Words {
  const lang: Language = isLanguage(language) ? language : 'en'
  let w = WORDS.get(lang)
  if (!w) {
    const catalog = CATALOGS[lang]
    WORDS.set(lang, (w = { ...catalog, ...formatsOf(lang, catalog) }))
  }
  return w
}

/** Every catalog, for the tests that hold each word to the PDFs. */
export function catalogs(): Readonly<Record<Language, Catalog>> {
  return CATALOGS
}
