// `invoicing fx import FILE` through the real CLI entry point, on the harness's database file (extensions §16).
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { harnessForFile, type Harness } from '../../test/harness'
import { cliOnHarness } from '../../test/cli-on-harness'
import { ECB_DAILY, ECB_HISTORY } from '../../test/fx-rates'

let h: Harness
harnessForFile((made) => (h = made), { referenceRates: false })

const cli = (args: string[]) => cliOnHarness(h, args, { json: false })

function file(name: string, text: string): string {
  const path = join(h.dir, name)
  writeFileSync(path, text)
  return path
}

const held = async () => (await h.deps.db.read.all<{ n: number }>(sql`SELECT count(*) AS n FROM fx_rates`))[0]!.n

describe('invoicing fx import', () => {
  test('loads an ECB history file and then a daily file; the rates answer through the API', async () => {
    const history = cli(['fx', 'import', file('hist.xml', ECB_HISTORY), '--json'])
    expect(history.code, history.err).toBe(0)
    expect(JSON.parse(history.out)).toEqual({ imported: { days: 3, first: '2026-03-05', last: '2026-03-09' } })
    expect(cli(['fx', 'import', file('daily.xml', ECB_DAILY), '--json']).code).toBe(0)
    const b = await h.business()
    const r = await h.request('GET', '/v1/exchange-rates?date=2026-03-07', { key: b.key })
    expect(r.body).toMatchObject({ date: '2026-03-06', rates: { USD: '1.0823' } })
  })

  test('a malformed file changes nothing and says why in one line, exit status 1', async () => {
    const before = await held()
    const bad = cli(['fx', 'import', file('bad.xml', ECB_HISTORY.replace("time='2026-03-05'", "time='2026-03-32'"))])
    expect(bad.code).toBe(1)
    expect(bad.err.split('\n')).toHaveLength(1)
    expect(bad.err).toContain('nothing changed')
    expect(bad.err).toContain('YYYY-MM-DD')
    expect(await held()).toBe(before)
    const missing = cli(['fx', 'import', join(h.dir, 'nowhere.xml')])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('cannot read the file')
    expect(cli(['fx', 'import']).code).toBe(2)
  })
})
