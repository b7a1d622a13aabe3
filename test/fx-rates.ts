// Reference rates for tests (extensions §16): the standing rates every harness database holds, and ECB files in the
// ECB's own format (a daily file and a 90-day history with a weekend gap) for the tests of the fx module.
import { sql } from 'drizzle-orm'
import type { Database } from '../src/db/client'
import { CURRENCY_SCALES } from '../src/shared/currencies'

/** The day of the standing rates: before every issue date the tests use, so each finds it as "the latest day before". */
export const STANDING_DAY = '1999-01-04'
/**
 * Units per euro of every other currency on STANDING_DAY: 2, so a document in any currency converts into a EUR
 * Business's at 0.5 and between two other currencies at 1. Tests that issue documents in another currency (and
 * predate the exchange rate) issue as before; the fx tests start without them (`referenceRates: false`).
 */
export const STANDING_RATE = '2'

export async function seedStandingRates(db: Database): Promise<void> {
  const codes = Object.keys(CURRENCY_SCALES).filter((c) => c !== 'EUR')
  await db.write(async (tx) => {
    for (const c of codes)
      await tx.run(sql`INSERT INTO fx_rates (day, currency, rate) VALUES (${STANDING_DAY}, ${c}, ${STANDING_RATE})`)
  })
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>`
const TAIL = `	</Cube>
</gesmes:Envelope>`

/** An ECB file of the given days, written as the ECB writes it (single-quoted attributes, tabs). */
export function ecbXml(days: { day: string; rates: Record<string, string> }[]): string {
  const body = days
    .map(
      (d) =>
        `\t\t<Cube time='${d.day}'>\n` +
        Object.entries(d.rates)
          .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${r}'/>`)
          .join('\n') +
        `\n\t\t</Cube>`,
    )
    .join('\n')
  return `${HEAD}\n${body}\n${TAIL}\n`
}

/** A day's rates as the ECB published them (a selection of its 30 currencies; JPY, GBP, USD among them). */
export const DAY_2026_03_06 = {
  day: '2026-03-06',
  rates: { USD: '1.0823', JPY: '161.87', GBP: '0.84130', CHF: '0.9528', SEK: '11.2030', PLN: '4.2610' },
}
export const DAY_2026_03_05 = {
  day: '2026-03-05',
  rates: { USD: '1.0791', JPY: '161.02', GBP: '0.84020', CHF: '0.9517', SEK: '11.1985', PLN: '4.2588' },
}
export const DAY_2026_03_09 = {
  day: '2026-03-09',
  rates: { USD: '1.0850', JPY: '162.40', GBP: '0.84300', CHF: '0.9540', SEK: '11.2110', PLN: '4.2655' },
}

/** The daily file: one day, the Monday after the weekend gap. */
export const ECB_DAILY = ecbXml([DAY_2026_03_09])
/** The history file, newest day first as the ECB writes it: Monday, then Friday and Thursday (no Saturday or Sunday). */
export const ECB_HISTORY = ecbXml([DAY_2026_03_09, DAY_2026_03_06, DAY_2026_03_05])
