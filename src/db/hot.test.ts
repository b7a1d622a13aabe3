// The hot reader closes its connection when an idle server hands memory back, and opens it again with the next read.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { openHotReader } from './hot'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-hot-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(): string {
  const path = join(dir, `${crypto.randomUUID()}.db`)
  const w = new Database(path)
  w.exec(
    'PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, ?)'.replace(
      '?',
      "'a'",
    ),
  )
  w.close()
  return path
}

describe('the hot reader after an idle hand-back', () => {
  test('reads again after shrink, seeing what was committed meanwhile', () => {
    const path = file()
    const hot = openHotReader(`file:${path}`)!
    expect(hot.get<{ v: string }>('SELECT v FROM t WHERE id = ?', 1)?.v).toBe('a')
    hot.shrink()
    const w = new Database(path)
    w.exec("UPDATE t SET v = 'b' WHERE id = 1")
    w.close()
    expect(hot.get<{ v: string }>('SELECT v FROM t WHERE id = ?', 1)?.v).toBe('b')
    hot.close()
  })

  test('a data version read after the connection reopened differs from every one read before, so no kept page passes for current', () => {
    const path = file()
    const hot = openHotReader(`file:${path}`)!
    const before = new Set<number>()
    for (let i = 0; i < 3; i++) {
      before.add(hot.dataVersion())
      const w = new Database(path)
      w.exec(`INSERT INTO t (v) VALUES ('x${i}')`)
      w.close()
    }
    before.add(hot.dataVersion())
    hot.shrink()
    // A fresh connection counts from its own start: without the reopening told apart, its first value could equal one above.
    expect(before.has(hot.dataVersion())).toBe(false)
    hot.close()
  })
})
