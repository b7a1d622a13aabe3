// The chain's arithmetic (extensions §17), written out in docs/journal.md: canonical JSON, an entry's hash, its time.
import { createHash } from 'node:crypto'

/** The `prev_hash` of a chain's first entry. */
export const GENESIS = '0'.repeat(64)

export const ENTRY_KINDS = [
  'document.issued',
  'document.cancelled',
  'payment.recorded',
  'payment.amended',
  'payment.reversed',
  'business.changed',
] as const
export type EntryKind = (typeof ENTRY_KINDS)[number]
export type RecordType = 'document' | 'payment' | 'business'

export interface EntryRecord {
  type: RecordType
  id: number
  number: string | null
}

/** An entry as the API answers it and an export writes it. */
export interface Entry {
  seq: number
  at: string
  kind: EntryKind
  record: EntryRecord
  data: Record<string, unknown>
  prev_hash: string
  hash: string
}

/**
 * Canonical JSON: object keys sorted (code point order; every key here is ASCII), no white space, strings and numbers
 * as JSON.stringify writes them, members whose value is undefined left out. Money is already decimal text.
 */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  const o = v as Record<string, unknown>
  const parts: string[] = []
  for (const k of Object.keys(o).sort()) {
    if (o[k] === undefined) continue
    parts.push(`${JSON.stringify(k)}:${canonical(o[k])}`)
  }
  return `{${parts.join(',')}}`
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The canonical JSON of an entry without its `hash`, from its parts with `data` already canonical: the same text
 * canonical() gives for the whole object (its keys in sorted order: at, data, kind, prev_hash, record, seq), built
 * without parsing `data` again, which verify does for every entry.
 */
export function entryText(
  seq: number,
  at: string,
  kind: string,
  record: EntryRecord,
  dataText: string,
  prevHash: string,
): string {
  return (
    `{"at":${JSON.stringify(at)},"data":${dataText},"kind":${JSON.stringify(kind)},"prev_hash":${JSON.stringify(prevHash)},` +
    `"record":{"id":${record.id},"number":${JSON.stringify(record.number)},"type":${JSON.stringify(record.type)}},"seq":${seq}}`
  )
}

/** hash = SHA-256 hex of prev_hash, a newline, and the entry's canonical JSON without `hash`. */
export function entryHash(prevHash: string, text: string): string {
  return sha256Hex(`${prevHash}\n${text}`)
}

/** An entry's `at`: the clock's instant in UTC with microseconds (the clock gives milliseconds: three zeros follow). */
export function entryAt(d: Date): string {
  return `${d.toISOString().slice(0, 23)}000Z`
}
