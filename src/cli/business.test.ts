// `invoicing business create|update` through the real CLI entry point, on the harness's database file.
import { describe, expect, test } from 'bun:test'
import { harnessForFile, type Harness } from '../../test/harness'
import { cliOnHarness, createGermanBusiness } from '../../test/cli-on-harness'
import { bombPng, jpegHeader } from '../../test/png'

let h: Harness
harnessForFile((made) => (h = made))

const cli = (args: string[]) => cliOnHarness(h, args)

describe('invoicing business update', () => {
  test('an optional field given blank is cleared to null, not stored as an empty string', async () => {
    const created = cli(
      createGermanBusiness(
        'Blank Ltd',
        '--email',
        'office@blank.example',
        '--city',
        'Berlin',
        '--legal-name',
        'Blank Ltd GmbH',
      ),
    )
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
    const created = cli(createGermanBusiness('Keep Ltd', '--email', 'office@keep.example'))
    const id = JSON.parse(created.out).id as number
    const updated = cli(['business', 'update', String(id), '--city', 'Hamburg'])
    expect(updated.code, updated.err).toBe(0)
    expect(JSON.parse(updated.out)).toMatchObject({ email: 'office@keep.example', city: 'Hamburg' })
  })

  test('a blank name is refused with one line naming it, and nothing changes', async () => {
    const created = cli(createGermanBusiness('Named Ltd'))
    const id = JSON.parse(created.out).id as number
    const updated = cli(['business', 'update', String(id), '--name', ''])
    expect(updated.code).not.toBe(0)
    expect(updated.err.split('\n')).toHaveLength(1)
    expect(updated.err).toContain('name')
    const key = await h.key(id, 'admin')
    expect((await h.request('GET', '/v1/business', { key })).body.name).toBe('Named Ltd')
  })
})

describe('invoicing bank-account add', () => {
  test('an IBAN with a wrong checksum, an IBAN of no country and a malformed BIC are refused in one line naming the field; nothing is added', async () => {
    const b = JSON.parse(cli(createGermanBusiness('Bank Ltd')).out)
    const cases: Array<[string[], string]> = [
      [['--iban', 'DE89370400440532013001'], 'iban: has check digits that do not match'],
      [['--iban', 'XX89370400440532013000'], 'iban: starts with XX'],
      [['--iban', 'DE8937040044053201300'], 'iban: is not laid out as a DE IBAN'],
      [['--iban', 'DE89370400440532013000', '--bic', 'DEUT1'], 'bic: must be a BIC'],
    ]
    for (const [opts, said] of cases) {
      const r = cli(['bank-account', 'add', String(b.id), '--name', 'Main', ...opts])
      expect(r.code).toBe(1)
      expect(r.err.split('\n')).toHaveLength(1)
      expect(r.err).toContain(said)
    }
    const key = await h.key(b.id, 'admin')
    expect((await h.request('GET', '/v1/bank-accounts', { key })).body.data).toEqual([])
    // A sound IBAN written with spaces and a lower-case BIC are kept compact and upper-case.
    const ok = cli([
      'bank-account',
      'add',
      String(b.id),
      '--name',
      'Main',
      '--iban',
      'de89 3704 0044 0532 0130 00',
      '--bic',
      'cobadeffxxx',
    ])
    expect(ok.code, ok.err).toBe(0)
    expect(JSON.parse(ok.out)).toMatchObject({ iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' })
    // Each case starts the CLI afresh: generous on a loaded machine.
  }, 60_000)
})

describe('invoicing business update --logo --brand-color', () => {
  test('sets the logo and colour GET /v1/business answers; a file that is not an image, or a missing one, is refused in one line', async () => {
    const b = JSON.parse(cli(createGermanBusiness('Brand Ltd')).out)
    const dir = h.dir
    // A 1x1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
      'base64',
    )
    await Bun.write(`${dir}/logo.png`, png)
    await Bun.write(`${dir}/logo.gif`, 'GIF89a')
    const set = cli(['business', 'update', String(b.id), '--logo', `${dir}/logo.png`, '--brand-color', '#1F6FEB'])
    expect(set.code, set.err).toBe(0)
    expect(JSON.parse(set.out)).toMatchObject({ has_logo: true, brand_color: '#1F6FEB' })
    const key = await h.key(b.id, 'admin')
    expect((await h.request('GET', '/v1/business', { key })).body).toMatchObject({
      has_logo: true,
      brand_color: '#1F6FEB',
    })

    for (const [opts, said] of [
      [['--logo', `${dir}/logo.gif`], 'logo: must be a PNG or JPEG'],
      [['--logo', `${dir}/none.png`], 'logo: names no file'],
      [['--brand-color', 'blue'], 'brand_color: must be a colour written #RRGGBB'],
    ] as Array<[string[], string]>) {
      const r = cli(['business', 'update', String(b.id), ...opts])
      expect(r.code).toBe(1)
      expect(r.err.split('\n')).toHaveLength(1)
      expect(r.err).toContain(said)
    }
    const removed = cli(['business', 'update', String(b.id), '--logo', '', '--brand-color', ''])
    expect(JSON.parse(removed.out)).toMatchObject({ has_logo: false, brand_color: null })
  }, 60_000)

  test('an image bomb (a 35 KB PNG declaring 6000 × 6000) and a JPEG declaring 60000 × 60000 are refused in one line naming the logo, nothing changed', async () => {
    const b = JSON.parse(cli(createGermanBusiness('Bomb Ltd')).out)
    await Bun.write(`${h.dir}/bomb.png`, bombPng(6000, 6000))
    await Bun.write(`${h.dir}/bomb.jpg`, jpegHeader(60000, 60000))
    for (const [file, said] of [
      ['bomb.png', 'logo: is 6000 × 6000 pixels; a logo is at most 2000 × 2000 pixels'],
      ['bomb.jpg', 'logo: is 60000 × 60000 pixels'],
    ]) {
      const r = cli(['business', 'update', String(b.id), '--logo', `${h.dir}/${file}`, '--city', 'Bombay'])
      expect(r.code).toBe(1)
      expect(r.err.split('\n')).toHaveLength(1)
      expect(r.err).toContain(said)
    }
    const key = await h.key(b.id, 'admin')
    expect((await h.request('GET', '/v1/business', { key })).body).toMatchObject({ has_logo: false, city: null })
  }, 60_000)
})

describe('invoicing business --language (extensions §18)', () => {
  test('create and update take a language, GET /v1/business answers it; one not among the eight fails naming language and changes nothing', async () => {
    const created = cli(createGermanBusiness('Sprache GmbH', '--language', 'de'))
    expect(created.code, created.err).toBe(0)
    const id = JSON.parse(created.out).id as number
    const key = await h.key(id, 'admin')
    expect((await h.request('GET', '/v1/business', { key })).body.language).toBe('de')
    expect(cli(['business', 'update', String(id), '--language', 'FR']).code).toBe(0)
    expect((await h.request('GET', '/v1/business', { key })).body.language).toBe('fr')
    const bad = cli(['business', 'update', String(id), '--language', 'xx'])
    expect(bad.code).not.toBe(0)
    expect(bad.err).toContain('language')
    expect((await h.request('GET', '/v1/business', { key })).body.language).toBe('fr')
  }, 30_000) // three CLI processes: seconds on a loaded machine
})
