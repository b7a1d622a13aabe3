// Log lines carry facts about a failure, never the values a query was bound with.
import { describe, expect, test } from 'bun:test'
import { errorFacts } from './logger'

describe('errorFacts', () => {
  test("a drizzle query error is logged without its bound values (params: …), with the driver's code", () => {
    const e = Object.assign(
      new Error('Failed query: INSERT INTO clients (name, email) VALUES (?, ?)\nparams: Jane Doe,jane@example.com'),
      {
        name: 'DrizzleQueryError',
        cause: { code: 'SQLITE_BUSY' },
      },
    )
    const facts = errorFacts(e)
    expect(facts).toEqual({
      name: 'DrizzleQueryError',
      code: 'SQLITE_BUSY',
      message: 'Failed query: INSERT INTO clients (name, email) VALUES (?, ?)',
    })
    expect(JSON.stringify(facts)).not.toContain('jane@example.com')
  })

  test('any other error keeps its name and at most 300 characters of its message', () => {
    expect(errorFacts(new TypeError('x'.repeat(1000))).message).toHaveLength(300)
    expect(errorFacts('a string')).toEqual({ name: 'unknown', message: 'a string' })
  })
})
