// `invoicing reminders show|set|run` through the real CLI entry point, on the harness's database file.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../test/harness'
import { cli } from '../../test/processes'

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const run = (...args: string[]) => cli([...args, '--db', h.deps.config.dbPath, '--json'])

describe('invoicing reminders', () => {
  test('set --enabled and --days changes what the API answers; a kept step keeps its words', async () => {
    const b = await h.business()
    const put = await h.request('PUT', '/v1/reminder-settings', {
      key: b.key,
      body: { enabled: false, steps: [{ days: 14, subject: 'Still open: {{number}}' }] },
    })
    expect(put.status).toBe(200)
    const r = run('reminders', 'set', String(b.id), '--enabled', 'true', '--days', '30,14,-5')
    expect(r.code, r.err).toBe(0)
    const want = {
      enabled: true,
      steps: [
        { days: -5, subject: null, message: null },
        { days: 14, subject: 'Still open: {{number}}', message: null },
        { days: 30, subject: null, message: null },
      ],
    }
    expect(JSON.parse(r.out)).toMatchObject(want)
    expect((await h.request('GET', '/v1/reminder-settings', { key: b.key })).body).toEqual(want)
    const off = run('reminders', 'set', String(b.id), '--enabled', 'false')
    expect(off.code, off.err).toBe(0)
    expect(JSON.parse(run('reminders', 'show', String(b.id)).out)).toMatchObject({ ...want, enabled: false })
  }, 30_000)

  test('a day out of range, a repeated day, six steps or a bad --enabled is refused and nothing changes', async () => {
    const b = await h.business()
    for (const args of [
      ['--days', '400'],
      ['--days', '7,7'],
      ['--days', '1,2,3,4,5,6'],
      ['--days', '7,x'],
      ['--enabled', 'yes'],
      [],
    ]) {
      const r = run('reminders', 'set', String(b.id), ...args)
      expect(r.code).not.toBe(0)
      // Each refusal names the option (or the step) at fault.
      expect(r.err).toMatch(args[0] === '--enabled' ? /--enabled/ : args.length ? /days/ : /give --enabled/)
    }
    expect((await h.request('GET', '/v1/reminder-settings', { key: b.key })).body.enabled).toBe(false)
    expect(
      (await h.request('GET', '/v1/reminder-settings', { key: b.key })).body.steps.map((s: any) => s.days),
    ).toEqual([7, 14, 30])
  }, 60_000)

  test('run sends nothing when nothing is due and says so', () => {
    const r = run('reminders', 'run')
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)).toEqual({ sent: 0, refused: 0, waiting: 0 })
  }, 30_000)
})
