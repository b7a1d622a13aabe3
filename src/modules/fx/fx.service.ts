// The reference rates the service keeps (extensions §16): importing an ECB file, fetching it daily, and the rate a
// document takes at issue (the ECB's of its issue date or the latest day before, crossed through the euro).
import type { DocumentFetcher } from '../../adapters/document-fetch'
import type { Database, Queryable } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { NotFound } from '../../shared/errors'
import { errorFacts, type Logger } from '../../shared/logger'
import { utcDay } from '../../shared/dates'
import { checkAddress, type Resolver } from '../webhooks'
import { crossRate } from './convert'
import { EcbFileError, ECB_MAX_BYTES, parseEcbXml, type EcbDay } from './ecb'
import { dayOnOrBefore, daysHeld, ratesOfDay, ratesOnOrBefore, storeDays } from './fx.repo'

/** The ECB's daily euro reference rates, the default of INVOICING_FX_URL. */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml'
const DAILY_FILE = 'eurofxref-daily.xml'
const HISTORY_FILE = 'eurofxref-hist-90d.xml'
/** A fetch that has not answered in this time has failed; the rates held stay. */
export const FX_FETCH_TIMEOUT_MS = 15_000

export interface ImportResult {
  days: number
  first: string
  last: string
}

/** Loads an ECB file's days, all in one transaction: a malformed file (EcbFileError) changes nothing. */
export async function importRates(db: Database, xml: string): Promise<ImportResult> {
  const days = parseEcbXml(xml)
  await db.write((tx) => storeDays(tx, days))
  return summary(days)
}

function summary(days: EcbDay[]): ImportResult {
  return { days: days.length, first: days[0]!.day, last: days[days.length - 1]!.day }
}

/**
 * The reference rate for one unit of `from` in `to` on `date`: the ECB rates of that day or the latest day before it
 * with both, crossed through the euro. Null when none is held.
 */
export async function referenceRate(
  q: Queryable,
  date: string,
  from: string,
  to: string,
): Promise<{ rate: string; day: string } | null> {
  const held = await ratesOnOrBefore(q, [from, to], date)
  if (!held) return null
  const rate = crossRate(held.rates, from, to)
  return rate ? { rate, day: held.day } : null
}

/** GET /v1/exchange-rates: the ECB rates of `date` (default today, UTC) or the latest day before it. */
export async function exchangeRatesOn(q: Queryable, date: string) {
  const day = await dayOnOrBefore(q, date)
  if (!day) throw new NotFound(`No reference rates are held for ${date} or any day before it.`)
  const rates = await ratesOfDay(q, day)
  const sorted = Object.fromEntries(Object.entries(rates).sort(([a], [b]) => (a < b ? -1 : 1)))
  return { date: day, base: 'EUR' as const, rates: sorted }
}

export interface FxFetchDeps {
  db: Database
  clock: Clock
  logger: Logger
  fetcher: DocumentFetcher
  resolve: Resolver
  /** INVOICING_FX_URL and whether it may name a loopback or private host (INVOICING_FX_ALLOW_PRIVATE=1). */
  url: string
  allowPrivate: boolean
}

/** The ECB's 90-day history beside a daily file's address; any other address is fetched as it is. */
export function historyUrlOf(url: string): string {
  return url.endsWith(DAILY_FILE) ? url.slice(0, -DAILY_FILE.length) + HISTORY_FILE : url
}

/**
 * Whether the hourly check fetches now: while no rate is held at all (a new service), and each afternoon from 16:00
 * UTC (the ECB publishes around 16:00 CET) until the day's rates are in. On a day the ECB publishes none (weekends,
 * its holidays) that is one small fetch an hour until midnight.
 */
export async function fetchDue(q: Queryable, now: Date): Promise<boolean> {
  const latest = await dayOnOrBefore(q, '9999-12-31')
  if (latest === null) return true
  return now.getUTCHours() >= 16 && latest < utcDay(now)
}

export type FetchOutcome = { ok: true; url: string; result: ImportResult } | { ok: false; url: string; error: string }

/**
 * The daily task: fetches INVOICING_FX_URL (its 90-day history while no rate is held yet) under the outbound rules
 * (the address checked and pinned, no redirect followed, a time and size limit) and stores its days. A failure of any
 * kind keeps the rates held and is logged.
 */
export async function fetchReferenceRates(d: FxFetchDeps): Promise<FetchOutcome> {
  const url = (await daysHeld(d.db.read)) === 0 ? historyUrlOf(d.url) : d.url
  const fail = (error: string): FetchOutcome => {
    d.logger.error('exchange rates not fetched', { url, error })
    return { ok: false, url, error }
  }
  let target: { url: URL; address: string }
  try {
    target = await checkAddress(url, { allowPrivate: d.allowPrivate, resolve: d.resolve })
  } catch (e) {
    return fail(`address refused: ${errorFacts(e).message}`)
  }
  const res = await d.fetcher.get({
    url: target.url,
    address: target.address,
    timeoutMs: FX_FETCH_TIMEOUT_MS,
    maxBytes: ECB_MAX_BYTES,
    accept: 'application/xml, text/xml',
  })
  if (res.kind === 'error') return fail(res.error)
  if (res.status !== 200) return fail(`answered HTTP ${res.status}`)
  try {
    const result = await importRates(d.db, res.body)
    d.logger.info('exchange rates fetched', { url, days: result.days, last: result.last })
    return { ok: true, url, result }
  } catch (e) {
    if (e instanceof EcbFileError) return fail(`not an ECB rates file: ${e.message}`)
    return fail(errorFacts(e).message)
  }
}
