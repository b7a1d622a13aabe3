// The sign-in lockout (extensions §9) under parallel attempts on two real servers sharing one file (§12): the five
// failures are counted before any password is checked, so a burst cannot have more than five checked.
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppClient } from './app-client'
import { cli, seed, startServer, type Server } from './processes'
import { SIGN_IN_LOCKED, SIGN_IN_REFUSED } from '../src/doors/app/pages/sign-in'

// Twenty argon2id checks at most, on a loaded machine.
setDefaultTimeout(60_000)

const dir = mkdtempSync(join(tmpdir(), 'invoicing-signin-race-'))
const running: Server[] = []
afterAll(async () => {
  for (const s of running) if (s.proc.exitCode === null) await s.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** A browser-like client of a real server over the network. */
function browser(s: Server): AppClient {
  return new AppClient({ app: { fetch: (req: Request) => fetch(req, { redirect: 'manual' }) } } as never, s.url)
}

test('20 parallel sign-ins on two servers, 19 wrong then 1 right: at most 5 are checked and the right one is refused while locked', async () => {
  const db = join(dir, 'race.db')
  seed(db)
  const added = cli(['person', 'add', '--email', 'raced@example.com', '--name', 'Raced', '--db', db, '--json'])
  expect(added.code).toBe(0)
  const servers = [await startServer(db), await startServer(db)]
  running.push(...servers)
  const password = 'the right password'
  expect((await browser(servers[0]!).choosePassword(JSON.parse(added.out).sign_in_link, password)).status).toBe(303)

  // Every client opens the form first, so the twenty posts leave together.
  const attempts = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const c = browser(servers[i % 2]!)
      const form = await c.get('/app/sign-in')
      return { c, csrf: /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!, right: i === 19 }
    }),
  )
  const answers = await Promise.all(
    attempts.map((a) =>
      a.c.request('POST', '/app/sign-in', {
        _csrf: a.csrf,
        email: 'raced@example.com',
        password: a.right ? password : `wrong ${Math.random()}`,
      }),
    ),
  )
  const checked = answers.filter((a) => a.status === 422 || a.status === 303)
  expect(answers.filter((a) => a.status === 422).every((a) => a.text.includes(SIGN_IN_REFUSED))).toBe(true)
  expect(checked.length).toBeLessThanOrEqual(5)
  expect(answers.filter((a) => a.status === 429).length).toBe(20 - checked.length)
  const right = answers[19]!
  expect(right.status).toBe(429)
  expect(right.text).toContain(SIGN_IN_LOCKED)
  // And afterwards, on either server, the right password still waits out the lock.
  for (const s of servers) expect((await browser(s).signIn('raced@example.com', password)).status).toBe(429)
})
