// The reporting period of a query: two real calendar days, `to` not before `from` (422 naming the field otherwise).
import { FieldErrorBag } from '../../shared/errors'
import { isDate } from '../../shared/dates'

export interface Period {
  from: string
  to: string
}

/** Judges `from` and `to` together, so one answer names every field that is wrong. */
export function parsePeriod(query: { from?: string; to?: string }, bag = new FieldErrorBag()): Period {
  let valid = true
  for (const f of ['from', 'to'] as const) {
    const v = query[f]
    if (v === undefined || v === '') bag.add(f, 'is required')
    else if (!isDate(v)) bag.add(f, 'must be a real date written YYYY-MM-DD')
    else continue
    valid = false
  }
  // Dates written YYYY-MM-DD order as text.
  if (valid && query.to! < query.from!) bag.add('to', 'must not be before from')
  bag.throwIfAny()
  return { from: query.from!, to: query.to! }
}
