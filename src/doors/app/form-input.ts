// A posted form read into the body an API route would take, then held to the very TypeBox schema of that route: a
// page's change meets the API's field rules and words (422 invalid_request with errors per field) before the
// service's own, so nothing a browser posts reaches a service in a shape the API would have refused.
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { fromValidation } from '../api/errors'
import { FieldErrorBag } from '../../shared/errors'
import { ID_RULE } from '../../platform/operation'

/** A record id in a field, held to the API's one id rule (0 or a leading zero names no record). */
const NOT_AN_ID = 'must be a whole number of at least 1'

export class FormInput {
  private readonly bag = new FieldErrorBag()

  constructor(readonly data: URLSearchParams) {}

  /** Trimmed text; undefined when blank or absent (a field not sent keeps its value). */
  text(name: string): string | undefined {
    const v = this.data.get(name)?.trim()
    return v ? v : undefined
  }

  /** Trimmed text; null when present and blank (clears), undefined when absent. */
  nullable(name: string): string | null | undefined {
    if (!this.data.has(name)) return undefined
    return this.text(name) ?? null
  }

  /** A whole number written in the field; a field error when it is not one. */
  int(name: string): number | undefined {
    const v = this.text(name)
    if (v === undefined) return undefined
    if (!/^\d{1,15}$/.test(v)) {
      this.bag.add(name, 'must be a whole number')
      return undefined
    }
    return Number(v)
  }

  /** A record id written in the field, by the one id rule of every door; a field error when it is not one. */
  id(name: string): number | undefined {
    const v = this.text(name)
    if (v === undefined) return undefined
    if (!ID_RULE.test(v)) {
      this.bag.add(name, NOT_AN_ID)
      return undefined
    }
    return Number(v)
  }

  /** Like int, null when present and blank. */
  nullableInt(name: string): number | null | undefined {
    if (!this.data.has(name)) return undefined
    return this.text(name) === undefined ? null : this.int(name)
  }

  /** Every checked id of a group of checkboxes (`name` repeated); [] when the group was on the form but none checked. */
  ids(name: string, onForm = `${name}__present`): number[] | undefined {
    if (!this.data.has(onForm) && !this.data.has(name)) return undefined
    const out: number[] = []
    for (const v of this.data.getAll(name)) {
      if (ID_RULE.test(v.trim())) out.push(Number(v.trim()))
      else this.bag.add(name, 'must name bank accounts of this Business')
    }
    return out
  }

  /** A checkbox: true when checked. */
  checked(name: string): boolean {
    const v = this.data.get(name)
    return v === 'on' || v === 'true' || v === '1'
  }

  /** The body, once it holds to the route's schema (fields of undefined value are dropped first). */
  body<T>(schema: TSchema, body: Record<string, unknown>): T {
    const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))
    const errors = [...Value.Errors(schema, clean)]
    const read = { ...this.bag.errors }
    if (errors.length > 0) {
      const invalid = fromValidation('body', errors)
      // A field the form could not read (a bad id, a number that is none) is named once, by its reading's words.
      for (const [k, v] of Object.entries(invalid.errors)) if (!read[k]) for (const m of v) this.bag.add(k, m)
    }
    this.bag.throwIfAny()
    return clean as T
  }
}
