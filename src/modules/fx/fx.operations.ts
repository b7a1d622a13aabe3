// Operations of the reference rates: the ECB euro rates of a day (any Role).
import { json, type Operation } from '../../platform/operation'
import { utcDay, isDate } from '../../shared/dates'
import { FieldErrorBag } from '../../shared/errors'
import { ExchangeRatesQuery, ExchangeRatesSchema } from './fx.model'
import { exchangeRatesOn } from './fx.service'

export const fxOperations: Operation[] = [
  {
    name: 'exchange_rates_get',
    tag: 'Exchange rates',
    summary: 'The ECB euro reference rates of a day (or the latest day before it) that documents are converted at',
    description:
      'Units of each currency for one euro as the service holds them (extensions §16); `date` defaults to today (UTC). 404 when no rate is held for that day or before.',
    http: { method: 'GET', path: '/v1/exchange-rates', status: 200 },
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    query: ExchangeRatesQuery,
    output: ExchangeRatesSchema,
    notFound: true,
    async run(_actor, { query }, { deps }) {
      const date = query.date ?? utcDay(deps.clock.now())
      if (!isDate(date)) {
        const bag = new FieldErrorBag()
        bag.add('date', 'must be a real date written YYYY-MM-DD')
        bag.throwIfAny()
      }
      return json(await exchangeRatesOn(deps.db.read, date))
    },
  },
]
