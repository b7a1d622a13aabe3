// `invoicing business create|update` through the real CLI entry point, on the harness's database file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const bun = './node_modules/.bin/bun'
function cli(args: string[]) {
  const p = Bun.spawnSync([bun, 'src/main.ts', ...args, '--db', h.deps.config.dbPath, '--json'], {
    cwd: `${import.meta.dir}/../..`,
    env: { ...process.env, INVOICING_DB: '' },
  })
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString().trim() }
}

describe('invoicing business update', () => {
  test('an optional field given blank is cleared to null, not stored as an empty string', async () => {
    const created = cli(['business', 'create', '--name', 'Blank Ltd', '--country', 'DE', '--currency', 'EUR', '--email', 'office@blank.example', '--city', 'Berlin', '--legal-name', 'Blank Ltd GmbH'])
    expect(created.code, created.err).toBe(0)
    const id = JSON.parse(created.out).id as number
    const updated = cli(['business', 'update', String(id), '--email', '', '--city', '  ', '--legal-name', ''])
    expect(updated.code, updated.err).toBe(0)
    expect(JSON.parse(updated.out)).toMatchObject({ email: null, city: null, legal_name: null, name: 'Blank Ltd' })

    const key = await h.key(id, 'admin')
    const answer = await h.request('GET', '/v1/business', { key })
    expect(answer.body).toMatchObject({ email: null, city: null, legal_name: null })
  })

  test('an option not given keeps its value', async () => {
    const created = cli(['business', 'create', '--name', 'Keep Ltd', '--country', 'DE', '--currency', 'EUR', '--email', 'office@keep.example'])
    const id = JSON.parse(created.out).id as number
    const updated = cli(['business', 'update', String(id), '--city', 'Hamburg'])
    expect(updated.code, updated.err).toBe(0)
    expect(JSON.parse(updated.out)).toMatchObject({ email: 'office@keep.example', city: 'Hamburg' })
  })

  test('a blank name is refused with one line naming it, and nothing changes', async () => {
    const created = cli(['business', 'create', '--name', 'Named Ltd', '--country', 'DE', '--currency', 'EUR'])
    const id = JSON.parse(created.out).id as number
    const updated = cli(['business', 'update', String(id), '--name', ''])
    expect(updated.code).not.toBe(0)
    expect(updated.err.split('\n')).toHaveLength(1)
    expect(updated.err).toContain('name')
    const key = await h.key(id, 'admin')
    expect((await h.request('GET', '/v1/business', { key })).body.name).toBe('Named Ltd')
  })
})
