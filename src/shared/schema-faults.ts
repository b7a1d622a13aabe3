// A body's faults against its TypeBox schema in the contract's words: 422 invalid_request with errors keyed by field
// (`lines.0.unit`), never echoing the refused value. Every door's validation answer and the imports' rows (§19) say it here.
import { Kind } from '@sinclair/typebox'
import type { ValueError } from '@sinclair/typebox/errors'
import { bodyRuleOf } from './body-rules'
import { InvalidRequest, type FieldErrors } from './errors'
import { lengthFault, TEXT_KIND, textFault } from './text-schema'

/** `/lines/0/unit` → `lines.0.unit`; the body itself is `body`. */
function fieldKey(path: string, on: string): string {
  const key = path.replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~')
  return key === '' ? (on === 'body' ? 'body' : on) : key
}

function typeWords(schema: any): string {
  if (!schema) return 'a value'
  if (schema.anyOf) return [...new Set(members(schema).map(typeWords))].join(' or ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  switch (schema.type) {
    case 'string':
      return schema['x-decimal'] ? 'a decimal string' : 'a string'
    case 'integer':
      return 'a whole number'
    case 'number':
      return 'a number'
    case 'boolean':
      return 'true or false'
    case 'null':
      return 'null'
    case 'array':
      return 'a list'
    case 'object':
      return 'a JSON object'
    default:
      return 'a value of the documented type'
  }
}

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

/** Members of a union, nested unions (a Nullable of a union) flattened. */
function members(s: any): any[] {
  return s.anyOf ? s.anyOf.flatMap(members) : [s]
}

/** Plain words for why `value` does not fit `schema`; never echoes the refused value back. */
function explain(s: any, value: unknown): string {
  if (!s) return 'is not valid'
  if (s.anyOf) {
    s = { ...s, anyOf: members(s) }
    if (s['x-decimal'] || s.anyOf.some((o: any) => o['x-decimal'])) {
      if (typeof value === 'number') return 'must be a decimal string such as "12.50", not a JSON number'
    }
    if (s.anyOf.every((o: any) => o.const !== undefined))
      return `must be one of ${s.anyOf.map((o: any) => o.const).join(', ')}`
    const t = jsonType(value)
    const member = s.anyOf.find((o: any) => o.type === t || (t === 'integer' && o.type === 'number'))
    return member ? explain(member, value) : `must be ${typeWords(s)}`
  }
  if (s['x-decimal'] && typeof value === 'number') return 'must be a decimal string such as "12.50", not a JSON number'
  if (s.const !== undefined) return `must be ${JSON.stringify(s.const)}`
  if (s.type === 'string' && typeof value === 'string') {
    const length = s[Kind] === TEXT_KIND ? textFault(s, value) : lengthFault(s, value.length)
    if (length) return length
    if (s[Kind] === TEXT_KIND) return 'is not valid'
    if (s.format === 'email') return 'must be an email address'
    if (s.format === 'date') return 'must be a date written YYYY-MM-DD'
    if (s.format === 'date-time') return 'must be a UTC timestamp such as 2026-01-31T12:00:00Z'
    if (s.pattern) return s['x-pattern-words'] ?? 'is not in the expected format'
    if (s.enum) return `must be one of ${s.enum.join(', ')}`
  }
  if ((s.type === 'integer' || s.type === 'number') && typeof value === 'number') {
    if (s.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number'
    if (s.minimum !== undefined && value < s.minimum) return `must be at least ${s.minimum}`
    if (s.maximum !== undefined && value > s.maximum) return `must be at most ${s.maximum}`
  }
  if (s.type === 'array' && Array.isArray(value)) {
    if (s.maxItems !== undefined && value.length > s.maxItems) return `must hold at most ${s.maxItems} items`
    if (s.minItems !== undefined && value.length < s.minItems)
      return `must hold at least ${s.minItems} item${s.minItems > 1 ? 's' : ''}`
    if (s.uniqueItems) return 'must not repeat an item'
  }
  return `must be ${typeWords(s)}`
}

function messageFor(e: ValueError): string {
  if (/Unexpected property/.test(e.message)) return 'is not a field this endpoint takes'
  // TypeBox reports a missing required property as a type error on an undefined value.
  if (e.value === undefined) return 'is required'
  return explain(e.schema, e.value)
}

/**
 * A union reports only itself; when the value has the JSON type of one member (a list for a nullable list),
 * that member's own errors name the exact place (`preferred_bank_account_ids.1`) and say what is wrong there.
 */
function throughUnion(e: ValueError): ValueError[] {
  const anyOf: any[] | undefined = (e.schema as any)?.anyOf
  if (!anyOf || !Array.isArray(e.errors) || e.value === undefined) return [e]
  // A choice of fixed values reads best as the whole list of them.
  if (anyOf.every((o) => o.const !== undefined)) return [e]
  const t = jsonType(e.value)
  const i = anyOf.findIndex((o) => o.type === t || (t === 'integer' && o.type === 'number'))
  if (i < 0 || !e.errors[i]) return [e]
  const inner = [...e.errors[i]!]
  return inner.length > 0 ? inner.flatMap(throughUnion) : [e]
}

/** Errors about a Line name it by its place counted from 1, as lines.ts words its own: "Line 1: ...". */
function withLinePlace(key: string, message: string): string {
  const m = /^lines\.(\d+)(\.|$)/.exec(key)
  if (!m) return message
  const place = `Line ${Number(m[1]) + 1}: `
  return message.startsWith(place) ? message : place + message
}

/** Turns Elysia's validation error into 422 invalid_request with errors keyed by field. */
export function fromValidation(on: string, all: ValueError[]): InvalidRequest {
  // A Map, not an object: a body key such as "__proto__" must be a key like any other, not the object's prototype.
  const errors = new Map<string, string[]>()
  for (const e of all.flatMap(throughUnion)) {
    // A union reports each failed member too (paths under the union's own); the first word per field is enough.
    const key = fieldKey(e.path, on)
    if (errors.has(key)) continue
    errors.set(key, [withLinePlace(key, messageFor(e))])
  }
  if (errors.size === 0) errors.set(on, ['is not valid'])
  // fromEntries defines each key as an own property, "__proto__" included, so it is answered by name.
  return new InvalidRequest(Object.fromEntries(errors) as FieldErrors)
}

// Rules of a body its schema cannot state (shared/body-rules.ts) are asked too when the schema already failed, so that
// one answer names every missing field: an empty Client create body is told about email, country and name at once,
// not about name only after the first two are fixed.

/** The schema's faults and the body rules of the schema titled `title` together; a field already named keeps its words. */
export function withRulesOf(title: string | undefined, body: unknown, invalid: InvalidRequest): InvalidRequest {
  const rule = bodyRuleOf(title)
  if (!rule || !body || typeof body !== 'object' || Array.isArray(body)) return invalid
  const extra = Object.entries(rule(body as Record<string, unknown>)).filter(
    ([field]) => !Object.hasOwn(invalid.errors, field),
  )
  if (extra.length === 0) return invalid
  return new InvalidRequest(Object.fromEntries([...Object.entries(invalid.errors), ...extra]) as FieldErrors)
}
