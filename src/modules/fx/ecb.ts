// Reads the ECB's euro reference rates XML (the daily file and the 90- day or full history): day, currency, rate.
import { XMLParser } from 'fast-xml-parser'
import { isCurrency } from '../../shared/currencies'
import { isDate } from '../../shared/dates'

/** One publication day: units of each currency for one euro, as decimal strings written as the ECB writes them. */
export interface EcbDay {
  day: string
  rates: Record<string, string>
}

/** A file that is not the ECB's rates XML; its message is one line saying why, for `invoicing fx import` and the log. */
export class EcbFileError extends Error {}

// A rate as the ECB writes it: digits, a point, digits; nothing signed, no exponent.
const RATE_RE = /^[0-9]{1,10}(\.[0-9]{1,10})?$/
/** The largest file read: the full history since 1999 is about 7 MB; the daily file about 2 KB. */
export const ECB_MAX_BYTES = 16 * 1024 * 1024

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  // Entities are not expanded: an ECB file has none, and a file that declares them gains nothing by it.
  processEntities: false,
  isArray: (name) => name === 'Cube',
})

type Cube = { time?: unknown; currency?: unknown; rate?: unknown; Cube?: Cube[] }

/**
 * Parses an ECB reference rates file. Every day and every rate must read right, or nothing is taken: a file cut
 * short or changed in form changes no rate held (the caller stores all days in one transaction).
 */
export function parseEcbXml(text: string): EcbDay[] {
  if (text.length > ECB_MAX_BYTES) throw new EcbFileError(`the file is larger than ${ECB_MAX_BYTES} bytes`)
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new EcbFileError('the file declares a DOCTYPE or entities, which ECB files never do')
  let doc: Record<string, unknown>
  try {
    doc = parser.parse(text, true) as Record<string, unknown>
  } catch (e) {
    throw new EcbFileError(`the file is not well-formed XML (${firstLine(e)})`)
  }
  const envelope = doc.Envelope as { Cube?: (Cube | string)[] } | undefined
  if (!envelope || !Array.isArray(envelope.Cube))
    throw new EcbFileError('the file is not an ECB reference rates file (no gesmes:Envelope with a Cube)')
  // An empty Cube reads as text.
  const first = envelope.Cube[0]
  const outer: Cube = typeof first === 'object' ? first : {}
  const days: EcbDay[] = []
  const seen = new Set<string>()
  for (const cube of outer.Cube ?? []) {
    const day = typeof cube.time === 'string' ? cube.time : ''
    if (!isDate(day))
      throw new EcbFileError(`a day's Cube has no time written YYYY-MM-DD (found "${String(cube.time ?? '')}")`)
    if (seen.has(day)) throw new EcbFileError(`the day ${day} appears twice`)
    seen.add(day)
    const rates: Record<string, string> = {}
    for (const r of cube.Cube ?? []) {
      const currency = typeof r.currency === 'string' ? r.currency : ''
      const rate = typeof r.rate === 'string' ? r.rate.trim() : ''
      if (!isCurrency(currency)) throw new EcbFileError(`on ${day}, "${currency}" is not an ISO 4217 currency code`)
      if (!RATE_RE.test(rate) || /^0+(\.0+)?$/.test(rate))
        throw new EcbFileError(`on ${day}, the rate of ${currency} is not a decimal above zero (found "${rate}")`)
      rates[currency] = rate
    }
    if (Object.keys(rates).length === 0) throw new EcbFileError(`the day ${day} holds no rates`)
    days.push({ day, rates })
  }
  if (days.length === 0) throw new EcbFileError('the file holds no day of rates')
  return days.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
}

function firstLine(e: unknown): string {
  return String((e as { message?: unknown })?.message ?? e)
    .split('\n')[0]!
    .slice(0, 200)
}
