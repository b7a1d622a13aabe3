// The refusal catalog is the one home of each refusal's words: every refusal code says its message there, and no source
// file writes a refusal's message of its own beside it.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { CODES, inAppWords, Refusal, refusalInfo, says, type RefusalCode } from './errors'

const SRC = join(import.meta.dir, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

const refusalCodes = Object.entries(CODES)
  .filter(([, c]) => c.type === 'refusal')
  .map(([code]) => code as RefusalCode)

describe('the refusal catalog', () => {
  test('every refusal code has its message in the catalog', () => {
    expect(refusalCodes.length).toBeGreaterThan(50)
    const without = refusalCodes.filter((code) => !('says' in CODES[code]))
    expect(without).toEqual([])
  })

  test("a refusal is answered with the catalog's words, figures filled in", () => {
    expect(Refusal.say('payment_reversed').message).toBe(says('payment_reversed'))
    expect(Refusal.say('payment_reversed').extra.code).toBe('payment_reversed')
    expect(refusalInfo('number_taken', { requested: 'INV-7' })).toEqual({
      code: 'number_taken',
      message: 'INV-7 is held by another document.',
    })
    expect(says('webhook_limit_reached', { max: 10 })).toContain('at most 10 webhooks')
  })

  test('no source file writes a refusal message beside the catalog (a code literal followed by words of its own)', () => {
    const codes = refusalCodes.join('|')
    // new Refusal('code', '...'), r('code', '...'), { code: 'code', message: '...' }: a message written at the call.
    const own = new RegExp(
      `(?:Refusal\\(|\\br\\(|refuse\\()\\s*'(?:${codes})'\\s*,\\s*['\`"]|code:\\s*'(?:${codes})'\\s*,\\s*message:\\s*['\`"]`,
    )
    const bad = sourceFiles(SRC)
      .filter((f) => !f.endsWith('shared/errors.ts'))
      .filter((f) => own.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
    expect(bad).toEqual([])
  })
})

describe("the application's own words", () => {
  // What only the API speaks: a route, a JSON member in code type, a field's wire name, a JSON value.
  const apiSpeak = /\/v1\/|`|\b[a-z]+_[a-z_]+\b|: (?:true|false)\b/

  test('a refusal whose words speak the API has words of its own for the application, and they speak none of it', () => {
    const missing = refusalCodes.filter((code) => {
      const entry = CODES[code] as { says: unknown; inApp?: string }
      return typeof entry.says === 'string' && apiSpeak.test(entry.says) && !entry.inApp
    })
    expect(missing).toEqual([])
    const speaking = refusalCodes.filter((code) => apiSpeak.test((CODES[code] as { inApp?: string }).inApp ?? ''))
    expect(speaking).toEqual([])
  })

  test("the application shows its own words where the catalog has them, and the refusal's message elsewhere", () => {
    expect(says('draft_not_cancelled')).toContain('DELETE /v1/documents/{id}')
    expect(inAppWords('draft_not_cancelled', says('draft_not_cancelled'))).toBe(
      'A Draft is not cancelled: delete it instead.',
    )
    expect(inAppWords('payment_reversed', 'as answered')).toBe('as answered')
    expect(inAppWords(null, 'as answered')).toBe('as answered')
  })
})
