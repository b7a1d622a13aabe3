// An import's rows read into create bodies (extensions §19): each header names a field of the create body (a nested
// one as `electronic_address.scheme`), each cell is typed by that field's schema, and each body is held to the same
// schema and body rules as the create endpoint, its faults keyed `rows.N.field`.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler'
import type { TObject, TSchema } from '@sinclair/typebox'
import { bodyFault } from '../../shared/body-fault'
import { InvalidRequest, type FieldErrors } from '../../shared/errors'
import { fromValidation, withRulesOf } from '../../shared/schema-faults'
import type { CsvFile } from './csv'

/** The key of a row's fault: rows counted from 1 after the header, then the field as the create endpoint names it. */
export const rowKey = (row: number, field: string): string => `rows.${row}.${field}`

/** Faults of one row, keyed as the create endpoint keys them, moved under `rows.N.` into `into`. */
export function addRowFaults(into: Record<string, string[]>, row: number, faults: FieldErrors): void {
  for (const [field, words] of Object.entries(faults)) (into[rowKey(row, field)] ??= []).push(...words)
}

/** The members of a field's schema that a cell may be read as (a nullable field's null left out). */
function kinds(s: TSchema): TSchema[] {
  const anyOf = (s as { anyOf?: TSchema[] }).anyOf
  return anyOf ? anyOf.flatMap(kinds) : (s as { type?: string }).type === 'null' ? [] : [s]
}

const typeOf = (s: TSchema): string | undefined => (s as { type?: string }).type

/**
 * A cell as the JSON value the field takes: a whole number, true or false, a list of whole numbers (separated by
 * spaces, commas or semicolons) where the field takes those, else the text as written. A cell that does not read as
 * its field's type stays text, so the schema's own words say what the field takes.
 */
function cellValue(field: TSchema, cell: string): unknown {
  const v = cell.trim()
  for (const k of kinds(field)) {
    switch (typeOf(k)) {
      case 'integer':
        if (/^[+-]?\d{1,15}$/.test(v)) return Number(v)
        break
      case 'boolean':
        if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true'
        break
      case 'array':
        return v.split(/[\s,;]+/).map((item) => (/^\d{1,15}$/.test(item) ? Number(item) : item))
    }
  }
  return cell
}

/** The schema of a column's field: a top-level field, or one field of an object field (`electronic_address.scheme`). */
function fieldOf(schema: TObject, column: string): TSchema | undefined {
  const [top, sub, ...more] = column.split('.')
  const field = Object.hasOwn(schema.properties, top!) ? schema.properties[top!] : undefined
  if (!field || sub === undefined) return field && !kinds(field).some((k) => typeOf(k) === 'object') ? field : undefined
  if (more.length > 0) return undefined
  const object = kinds(field).find((k) => typeOf(k) === 'object') as TObject | undefined
  return object && Object.hasOwn(object.properties, sub) ? object.properties[sub] : undefined
}

const checks = new WeakMap<TObject, TypeCheck<TObject>>()

function checkOf(schema: TObject): TypeCheck<TObject> {
  let check = checks.get(schema)
  if (!check) checks.set(schema, (check = TypeCompiler.Compile(schema)))
  return check
}

/** A row's body and its number, or the row's faults. */
export type RowBody<T> = { row: number; body: T }

/**
 * Each row as the create body its header names, held to the create endpoint's schema and body rules. A header naming
 * no field (or one twice) is 422 naming it under `header.<column>`; the rows' faults come back keyed `rows.N.field` in
 * `faults`, beside the bodies of the rows that passed (the caller judges those too, so one answer names every fault).
 */
export function rowBodies<T>(schema: TObject, file: CsvFile, faults: Record<string, string[]>): Array<RowBody<T>> {
  const columns = file.header.map((name) => ({ name, field: fieldOf(schema, name) }))
  const headerFaults: Record<string, string[]> = {}
  columns.forEach(({ name, field }, i) => {
    if (!field) headerFaults[`header.${name}`] = [`is not a field of the create body: "${name}"`]
    else if (file.header.indexOf(name) !== i) headerFaults[`header.${name}`] = ['is named by two columns']
  })
  if (Object.keys(headerFaults).length > 0) throw new InvalidRequest(headerFaults)

  const check = checkOf(schema)
  const title = (schema as { title?: string }).title
  const out: Array<RowBody<T>> = []
  file.rows.forEach((cells, i) => {
    const row = i + 1
    const body: Record<string, unknown> = {}
    columns.forEach(({ name, field }, c) => {
      const cell = cells[c]!
      // An empty cell is a field left out, as a create body that does not send it.
      if (cell.trim() === '') return
      const [top, sub] = name.split('.')
      if (sub === undefined) body[top!] = cellValue(field!, cell)
      else ((body[top!] ??= {}) as Record<string, unknown>)[sub] = cellValue(field!, cell)
    })
    const fault = bodyFault(body)
    if (fault) return addRowFaults(faults, row, { [fault.at]: [fault.message] })
    if (!check.Check(body)) {
      const invalid = withRulesOf(title, body, fromValidation('body', [...check.Errors(body)]))
      return addRowFaults(faults, row, invalid.errors)
    }
    out.push({ row, body: body as T })
  })
  return out
}
