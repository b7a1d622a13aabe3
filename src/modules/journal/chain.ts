// The chain's arithmetic (extensions §17), written out in docs/journal.md: canonical JSON, an entry's hash, its time.
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
  let keys = Object.keys(o)
  // The journal's own objects are built with their keys in order: sorting is then skipped (verify runs this a lot).
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1]! > keys[i]!) {
      keys = keys.sort()
      break
    }
  let out = '{'
  for (const k of keys) {
    const value = o[k]
    if (value === undefined) continue
    if (out.length > 1) out += ','
    out += `${JSON.stringify(k)}:${canonical(value)}`
  }
  return `${out}}`
}

/** SHA-256 of the text's UTF-8 bytes, in lower-case hex (Bun's one-shot hash: a third of node:crypto's cost a call). */
export function sha256Hex(text: string): string {
  return Bun.SHA256.hash(text, 'hex') as string
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
