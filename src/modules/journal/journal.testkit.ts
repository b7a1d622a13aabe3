// An outsider's check of a journal (docs/journal.md), written apart from the service's code, for the tests to hold
// the API's answers and the CLI's exports to what the document promises.
import { expect } from 'bun:test'
import { createHash } from 'node:crypto'

export function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(v)
}

/** Checks a whole chain: seq from 1, each prev_hash the last hash, each hash recomputed from the entry. */
export function checkChain(entries: any[]): void {
  let prev = '0'.repeat(64)
  entries.forEach((e, i) => {
    expect(e.seq).toBe(i + 1)
    expect(e.prev_hash).toBe(prev)
    const { hash, ...rest } = e
    expect(
      createHash('sha256')
        .update(`${e.prev_hash}\n${canon(rest)}`)
        .digest('hex'),
    ).toBe(hash)
    prev = hash
  })
}
