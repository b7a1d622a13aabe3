// The request log on stderr (INVOICING_LOG=requests) of a real server: it never carries a bearer link's token.
import { afterAll, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cli, seed, startServer } from '../../test/processes'

setDefaultTimeout(30_000)

const dir = mkdtempSync(join(tmpdir(), 'invoicing-access-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a one-time sign-in link and a public page are logged without their tokens, opened and posted', async () => {
  const db = join(dir, 'log.db')
  seed(db)
  const link = JSON.parse(
    cli(['person', 'add', '--email', 'logged@example.com', '--name', 'Logged', '--db', db, '--json']).out,
  ).sign_in_link as string
  const token = link.slice(link.lastIndexOf('/') + 1)
  const server = await startServer(db, { INVOICING_LOG: 'requests' })
  try {
    const path = new URL(link).pathname
    expect((await fetch(server.url + path)).status).toBe(200)
    await (
      await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=x',
      })
    ).text()
    await (await fetch(`${server.url}/p/a-public-page-token`)).text()
    await Bun.sleep(200)
    const lines = server
      .log()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
    expect(lines.filter((l) => l.includes('"path":"/app/sign-in/link/…"')).length).toBe(2)
    expect(lines.some((l) => l.includes('"path":"/p/…"'))).toBe(true)
    expect(server.log()).not.toContain(token)
    expect(server.log()).not.toContain('a-public-page-token')
  } finally {
    await server.stop()
  }
})
