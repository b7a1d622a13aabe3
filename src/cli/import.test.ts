// `invoicing import clients|products BUSINESS_ID FILE` through the real CLI entry point, on the harness's database file.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { allPages, harnessForFile, type Harness } from '../../test/harness'
import { cli } from '../../test/processes'

let h: Harness
harnessForFile((made) => (h = made))

function importFile(what: string, business: string, csv: string) {
  const file = join(h.dir, `import-${Math.random().toString(36).slice(2)}.csv`)
  writeFileSync(file, csv)
  return cli(['import', what, business, file, '--db', h.deps.config.dbPath, '--json'])
}

describe('invoicing import', () => {
  test('a CSV file of Clients is imported whole and printed as {created, ids}', async () => {
    const b = await h.business()
    const r = importFile(
      'clients',
      String(b.id),
      'name;email;country\n"Acme; GmbH";a@acme.example;DE\nBeta;b@beta.example;FR\n',
    )
    expect(r.code, r.err).toBe(0)
    const printed = JSON.parse(r.out)
    expect(printed.created).toBe(2)
    const made = await allPages(h, '/v1/clients', b.key, {})
    expect(made.map((c: { id: number; name: string }) => [c.id, c.name])).toEqual([
      [printed.ids[0], 'Acme; GmbH'],
      [printed.ids[1], 'Beta'],
    ])
  })

  test('a refused row exits 1 naming rows.N.field, and nothing is created', async () => {
    const b = await h.business()
    const r = importFile(
      'products',
      b.publicId,
      'name,type,price,currency\nGood,service,1.00,EUR\nBad,service,1.001,EUR\n',
    )
    expect(r.code).toBe(1)
    expect(r.err).toContain('rows.2.price')
    expect(await allPages(h, '/v1/products', b.key, {})).toHaveLength(0)
  })

  test("a refused import prints one fault a line (row, field, message), every row's, in the file's order", async () => {
    const b = await h.business()
    const r = importFile(
      'clients',
      String(b.id),
      [
        'name,email,country,account_code',
        'A,a@a.example,DE,C00042',
        'B,not-an-email,XX,',
        'C,c@c.example,DE,C00042',
      ].join('\n'),
    )
    expect(r.code).toBe(1)
    expect(r.err.trimEnd().split('\n')).toEqual([
      'invoicing: the import was refused and nothing was created (3 faults):',
      '  row 2, email: must be an email address (rows.2.email)',
      '  row 2, country: must be an ISO 3166-1 alpha-2 country code such as DE (rows.2.country)',
      '  row 3, account_code: is held by another Client: row 1 of this file names it too (rows.3.account_code)',
    ])
    const header = importFile('products', String(b.id), 'name,colour\nA,red\n')
    expect(header.code).toBe(1)
    expect(header.err.trimEnd().split('\n')).toEqual([
      'invoicing: the import was refused and nothing was created (1 fault):',
      '  header, colour: is not a field of the create body: "colour" (header.colour)',
    ])
    expect(await allPages(h, '/v1/clients', b.key, {})).toHaveLength(0)
  })

  test('a wrong kind or a missing file is a usage error or a refusal, not a stack trace', async () => {
    const b = await h.business()
    const wrong = cli(['import', 'documents', String(b.id), 'x.csv', '--db', h.deps.config.dbPath])
    expect(wrong.code).toBe(2)
    expect(wrong.err).toContain('import clients|products')
    const missing = cli(['import', 'clients', String(b.id), join(h.dir, 'none.csv'), '--db', h.deps.config.dbPath])
    expect(missing.code).toBe(1)
    expect(missing.err.trim()).toBe(`invoicing: cannot read ${join(h.dir, 'none.csv')}`)
  })
})
