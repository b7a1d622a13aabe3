// The period a report page shows when none is chosen: this year so far, in UTC days.
import { utcDay } from '../../../../shared/dates'
import type { InBusiness } from '../../context'

export function yearPeriod(c: InBusiness): { from: string; to: string } {
  const today = utcDay(c.deps.clock.now())
  return { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` }
}

export function monthPeriod(c: InBusiness): { from: string; to: string } {
  const today = utcDay(c.deps.clock.now())
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
  return { from: `${today.slice(0, 7)}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) }
}
