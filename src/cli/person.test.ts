// `invoicing person|member` and `business create --owner|delete` (extensions §8) through the real CLI entry point.
import { describe, expect, test } from 'bun:test'
import { harnessForFile, type Harness } from '../../test/harness'
import { cliOnHarness, createGermanBusiness } from '../../test/cli-on-harness'
import { AppClient } from '../../test/app-client'

let h: Harness
harnessForFile((made) => (h = made))

const cli = (args: string[], env: Record<string, string> = {}) => cliOnHarness(h, args, { env })

describe('invoicing person and member', () => {
  test('person add prints a one-time link under INVOICING_PUBLIC_URL; business create --owner makes them Owner; the link signs them in', async () => {
    const added = cli(['person', 'add', '--email', 'Olga@Example.com', '--name', 'Olga'], {
      INVOICING_PUBLIC_URL: 'https://invoices.example.com/',
    })
    expect(added.code, added.err).toBe(0)
    const person = added.json()
    expect(person).toMatchObject({ email: 'Olga@Example.com', name: 'Olga' })
    expect(person.sign_in_link).toMatch(/^https:\/\/invoices\.example\.com\/app\/sign-in\/link\/[A-Za-z0-9_-]{43}$/)
    const again = cli(['person', 'add', '--email', 'olga@example.com', '--name', 'Olga 2'])
    expect(again.code).not.toBe(0)
    expect(again.err.split('\n')).toHaveLength(1)

    const created = cli(createGermanBusiness('Olga GmbH', '--owner', 'OLGA@example.com'))
    expect(created.code, created.err).toBe(0)
    const b = created.json()
    expect(cli(['member', 'list', b.business_id]).json()).toEqual([
      expect.objectContaining({ email: 'Olga@Example.com', role: 'owner' }),
    ])

    const browser = new AppClient(h)
    const link = cli(['person', 'link', '--email', 'olga@example.com']).json().sign_in_link as string
    expect(link).toStartWith('http://127.0.0.1:8080/app/sign-in/link/')
    expect((await browser.choosePassword(link, 'olga chose this')).status).toBe(303)
    expect((await browser.get('/app')).location).toBe(`/app/b/${b.business_id}`)
  }, 30_000)

  test('business create --owner with an unknown person creates nothing', async () => {
    const r = cli(createGermanBusiness('Ghost Ltd', '--owner', 'ghost@example.com'))
    expect(r.code).not.toBe(0)
    expect(r.err).toContain('ghost@example.com')
    const rows = await h.deps.db.read.all<{ n: number }>(
      (await import('drizzle-orm')).sql`SELECT count(*) AS n FROM businesses WHERE name = 'Ghost Ltd'`,
    )
    expect(rows[0]!.n).toBe(0)
  }, 30_000)

  test('member add changes a Role; removing or demoting the last Owner is refused; removing another works', async () => {
    const b = cli(createGermanBusiness('Team Ltd')).json()
    cli(['person', 'add', '--email', 'boss@example.com', '--name', 'Boss'])
    cli(['person', 'add', '--email', 'clerk@example.com', '--name', 'Clerk'])
    expect(cli(['member', 'add', b.business_id, '--email', 'boss@example.com', '--role', 'owner']).code).toBe(0)
    expect(
      cli(['member', 'add', b.business_id, '--email', 'clerk@example.com', '--role', 'member']).json(),
    ).toMatchObject({ role: 'member' })
    const bad = cli(['member', 'add', b.business_id, '--email', 'clerk@example.com', '--role', 'boss'])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('role')
    const demote = cli(['member', 'add', b.business_id, '--email', 'boss@example.com', '--role', 'admin'])
    expect(demote.code).not.toBe(0)
    expect(demote.err).toContain('at least one Owner')
    const last = cli(['member', 'remove', b.business_id, '--email', 'boss@example.com'])
    expect(last.code).not.toBe(0)
    expect(last.err).toContain('at least one Owner')
    expect(cli(['member', 'remove', b.business_id, '--email', 'clerk@example.com']).code).toBe(0)
    expect(
      cli(['member', 'list', b.business_id])
        .json()
        .map((m: { email: string; role: string }) => [m.email, m.role]),
    ).toEqual([['boss@example.com', 'owner']])
  }, 30_000)

  test('business delete stops its keys at once and the CLI no longer finds it', async () => {
    const b = await h.business({ name: 'Doomed Ltd' })
    expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(200)
    const r = cli(['business', 'delete', b.publicId])
    expect(r.code, r.err).toBe(0)
    expect(r.json().deleted_at).toBeString()
    expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(401)
    expect(cli(['member', 'list', b.publicId]).code).not.toBe(0)
  }, 30_000)
  test('person delete: refused (one line, non-zero) while the last Owner; otherwise the person and their apps are gone', async () => {
    const owner = cli(['person', 'add', '--email', 'solo@example.com', '--name', 'Solo'])
    expect(owner.code, owner.err).toBe(0)
    const b = cli(createGermanBusiness('Solo GmbH', '--owner', 'solo@example.com')).json()
    const refused = cli(['person', 'delete', '--email', 'solo@example.com'])
    expect(refused.code).not.toBe(0)
    expect(refused.err.split('\n')).toHaveLength(1)
    expect(cli(['person', 'add', '--email', 'helper@example.com', '--name', 'Helper']).code).toBe(0)
    expect(cli(['member', 'add', b.business_id, '--email', 'helper@example.com', '--role', 'member']).code).toBe(0)
    const app = cli([
      'app',
      'create',
      '--owner',
      'helper@example.com',
      '--name',
      'Helper Sync',
      '--redirect-uri',
      'https://helper.example/cb',
    ])
    expect(app.code, app.err).toBe(0)
    const gone = cli(['person', 'delete', '--email', 'helper@example.com'])
    expect(gone.code, gone.err).toBe(0)
    expect(gone.json()).toMatchObject({ email: 'helper@example.com', apps_deleted: 1, deleted: true })
    expect(
      cli(['member', 'list', b.business_id])
        .json()
        .map((m: any) => m.email),
    ).toEqual(['solo@example.com'])
  }, 60_000)
})
