// TypeBox models of the reference rates' answer and query (extensions §16).
import { Type as t } from '@sinclair/typebox'

export const ExchangeRatesQuery = t.Object({
  date: t.Optional(
    t.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      'x-pattern-words': 'must be a date written YYYY-MM-DD',
      description: 'the day asked for, YYYY-MM-DD; default today (UTC)',
    }),
  ),
})

export const ExchangeRatesSchema = t.Object(
  {
    date: t.String({
      format: 'date',
      description: 'the ECB publication day used: the day asked for or the latest before it',
    }),
    base: t.Literal('EUR'),
    rates: t.Record(t.String({ pattern: '^[A-Z]{3}$' }), t.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' }), {
      description: 'units of each currency for one euro, as the ECB publishes them',
    }),
  },
  { title: 'ExchangeRates' },
)
