// A list's filters read from its query string (documents, recurring invoices, Payments, Receipts, Refunds): every
// parameter that cannot be read is gathered, so one 422 names them all; and the Clients' and Products' `search`.
import { isDate } from '../shared/dates'
import { FieldErrorBag } from '../shared/errors'
import { ID_RULE, type OperationInput } from './operation'

/** A list's `search`, trimmed; undefined when empty (the Clients' and Products' lists). */
export const searchOf = (query: OperationInput['query']): string | undefined => query.search?.trim() || undefined

export class ListFilters {
  private readonly faults = new FieldErrorBag()

  constructor(private readonly query: OperationInput['query']) {}

  /** A parameter that must be one of `allowed`. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.query[name]
    if (raw === undefined) return undefined
    if ((allowed as readonly string[]).includes(raw)) return raw as T
    this.faults.add(name, `must be one of ${allowed.join(', ')}`)
  }

  /** A parameter naming a record by its id (ID_RULE); `words` say what it must be. */
  id(name: string, words: string): number | undefined {
    const raw = this.query[name]
    if (raw === undefined) return undefined
    if (ID_RULE.test(raw)) return Number(raw)
    this.faults.add(name, words)
  }

  /** A date written YYYY-MM-DD. */
  date(name: string): string | undefined {
    const raw = this.query[name]
    if (raw === undefined) return undefined
    if (isDate(raw)) return raw
    this.faults.add(name, 'must be a date written YYYY-MM-DD')
  }

  /** The filter read, or the 422 naming every parameter that could not be read. */
  done<F>(filter: F): F {
    this.faults.throwIfAny()
    return filter
  }
}
