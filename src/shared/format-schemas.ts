// TypeBox schemas of two values the contract writes one way everywhere: a calendar date and a currency code.
import { Type as t } from '@sinclair/typebox'

/** A calendar date as the contract writes it. */
export const DateString = t.String({ format: 'date', description: 'YYYY-MM-DD' })
/** A currency code as an answer shows it: ISO 4217, upper case. */
export const CurrencyCode = t.String({ pattern: '^[A-Z]{3}$' })
