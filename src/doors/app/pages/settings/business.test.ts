// Business setup in the application, over HTTP against a real database: the brand colour, the logo (upload, shown,
// removed) and the e-invoice fields of the seller, held to the same service rules as the CLI: GET /v1/business answers
// what was saved; a bad field is 422 with its error under the field and nothing saved; no token, 403 and nothing saved.
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { harnessForFile, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person } from '../../../../../test/app-client'
import { bombPng, jpegHeader, solidPng } from '../../../../../test/png'

setDefaultTimeout(30_000)

let h: Harness
harnessForFile((made) => (h = made))

let n = 0
async function owner(role: 'owner' | 'admin' | 'member' | 'viewer' = 'owner') {
  n++
  const b = await h.business({ name: `Setup ${n}`, email: `office${n}@setup.example`, country: 'DE', currency: 'EUR' })
  const p = await person(h, { email: `${role}${n}@setup.example`, businessId: b.id, role })
  const browser = new AppClient(h)
  await browser.signIn(p.email, p.password)
  const api = async () => (await h.request('GET', '/v1/business', { key: b.key })).body
  const base = `/app/b/${b.publicId}`
  /** Posts the setup form as the page filled it from `before`, with `change` on top. */
  const submitSetup = (before: Record<string, any>, change: Record<string, string>) =>
    browser.submit(`${base}/settings/business`, setupForm(before, change))
  return { ...b, browser, base, api, submitSetup }
}

/** GET of an application path with the session's cookies, straight to the app (the answer's bytes as they are). */
function fetchSignedIn(t: { browser: AppClient }, path: string): Promise<Response> {
  return h.app.fetch(
    new Request(`http://localhost${path}`, {
      headers: { cookie: [...t.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    }),
  )
}

/** The setup form as the page fills it, with `change` on top (what a person would post after editing). */
function setupForm(b: Record<string, any>, change: Record<string, string>): Record<string, string> {
  return {
    name: b.name,
    country: b.country,
    currency: b.currency,
    email: b.email ?? '',
    is_vat_payer: b.is_vat_payer ? 'on' : '',
    ...change,
  }
}

/** The error shown under a field, or null. */
function errorUnder(html: string, field: string): string | null {
  const m = new RegExp(`<p class="err" id="f-${field.replace('.', '\\.')}-err">([^<]*)</p>`).exec(html)
  return m ? m[1]! : null
}

describe('Business setup: brand colour and e-invoice fields', () => {
  test('an Owner saves the brand colour, electronic address, contact, tax registration id and e-invoice format; GET /v1/business answers them', async () => {
    const t = await owner()
    const before = await t.api()
    const saved = await t.submitSetup(before, {
      brand_color: '#1F6FEB',
      electronic_address_scheme: '0088',
      electronic_address: '4000001123452',
      'contact.name': 'Petra Buchhalter',
      'contact.phone': '+49 30 1234567',
      'contact.email': 'rechnung@setup.example',
      tax_registration_id: '12/345/67890',
      einvoice_format: 'xrechnung-cii',
      company_id: 'HRB 12345',
    })
    expect(saved.status).toBe(303)
    expect(saved.location).toBe(`${t.base}/settings/business?done=saved`)
    expect(await t.api()).toMatchObject({
      brand_color: '#1F6FEB',
      electronic_address: { scheme: '0088', value: '4000001123452' },
      contact: { name: 'Petra Buchhalter', phone: '+49 30 1234567', email: 'rechnung@setup.example' },
      tax_registration_id: '12/345/67890',
      einvoice_format: 'xrechnung-cii',
      company_id: 'HRB 12345',
    })
    const page = (await t.browser.get(`${t.base}/settings/business`)).text
    expect(page).toContain('value="#1F6FEB"')
    expect(page).toContain('<option value="0088" selected>')
    expect(page).toContain('<option value="xrechnung-cii" selected>')

    // Blank fields clear: the electronic address goes back to EM with the Business email, the colour to none.
    const cleared = await t.submitSetup(before, {
      brand_color: '',
      electronic_address_scheme: '',
      electronic_address: '',
      'contact.name': '',
      'contact.phone': '',
      'contact.email': '',
      tax_registration_id: '',
      einvoice_format: 'ubl',
    })
    expect(cleared.status).toBe(303)
    expect(await t.api()).toMatchObject({
      brand_color: null,
      electronic_address: { scheme: 'EM', value: before.email },
      contact: { name: null, phone: null, email: before.email },
      tax_registration_id: null,
      einvoice_format: 'ubl',
    })
  })

  test("each bad field is 422 with the service's error under that field, what was typed kept, and nothing saved", async () => {
    const t = await owner()
    const before = await t.api()
    const refused = await t.submitSetup(before, {
      name: 'Renamed',
      brand_color: 'blue',
      electronic_address_scheme: '',
      electronic_address: '4000001123452',
      'contact.email': 'not an email',
      'contact.phone': '1'.repeat(51),
      einvoice_format: 'pdf',
    })
    expect(refused.status).toBe(422)
    expect(errorUnder(refused.text, 'brand_color')).toContain('#RRGGBB')
    expect(errorUnder(refused.text, 'electronic_address')).toContain('CEF EAS')
    expect(errorUnder(refused.text, 'contact.email')).toBe('must be an email address')
    expect(errorUnder(refused.text, 'contact.phone')).toBe('must be at most 50 characters')
    expect(refused.text).toContain('must be one of ubl, cii')
    expect(refused.text).toContain('value="blue"')
    expect(refused.text).toContain('value="Renamed"')
    expect(await t.api()).toEqual(before)
  })

  test('a change without the form token is 403 and nothing is saved', async () => {
    const t = await owner()
    const before = await t.api()
    const forged = await t.browser.request(
      'POST',
      `${t.base}/settings/business`,
      setupForm(before, { brand_color: '#000000' }),
    )
    expect(forged.status).toBe(403)
    expect(await t.api()).toEqual(before)
  })
})

describe('Business setup: the logo', () => {
  test('an Owner uploads a PNG (GET /v1/business has_logo, the page shows it from the service), replaces it, then removes it', async () => {
    const t = await owner()
    const page = await t.browser.get(`${t.base}/settings/business`)
    expect(page.text).toContain('enctype="multipart/form-data"')
    expect(page.text).not.toContain('id="logo-preview"')
    const png = solidPng(120, 40)
    const up = await t.browser.upload(
      `${t.base}/settings/business/logo`,
      { _csrf: csrfOf(page.text) },
      { logo: { bytes: png, name: 'logo.png', type: 'image/png' } },
    )
    expect(up.status).toBe(303)
    expect(up.location).toBe(`${t.base}/settings/business?done=logo_saved`)
    expect((await t.api()).has_logo).toBe(true)

    const shown = await t.browser.get(`${t.base}/settings/business?done=logo_saved`)
    expect(shown.text).toContain('The logo is saved')
    const src = /<img src="([^"]+)"[^>]*id="logo-preview"/.exec(shown.text)![1]!.replaceAll('&amp;', '&')
    const img = await fetchSignedIn(t, src)
    expect(img.status).toBe(200)
    expect(img.headers.get('content-type')).toBe('image/png')
    expect(img.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await img.arrayBuffer()).equals(Buffer.from(png))).toBe(true)

    const jpegLike = solidPng(10, 10, [200, 0, 0])
    expect(
      (
        await t.browser.upload(
          `${t.base}/settings/business/logo`,
          { _csrf: csrfOf(shown.text) },
          { logo: { bytes: jpegLike, name: 'red.png', type: 'image/png' } },
        )
      ).status,
    ).toBe(303)
    const replaced = await fetchSignedIn(t, `${t.base}/settings/business/logo`)
    expect(Buffer.from(await replaced.arrayBuffer()).equals(Buffer.from(jpegLike))).toBe(true)

    const removed = await t.browser.submit(`${t.base}/settings/business`, {}, `${t.base}/settings/business/logo/remove`)
    expect(removed.status).toBe(303)
    expect(removed.location).toBe(`${t.base}/settings/business?done=logo_removed`)
    expect((await t.api()).has_logo).toBe(false)
    expect((await t.browser.get(`${t.base}/settings/business`)).text).toContain('id="no-logo"')
    expect((await t.browser.get(`${t.base}/settings/business/logo`)).status).toBe(404)
  })

  test('a file that is not a PNG or JPEG, one that cannot be read, one over 1 MB and no file at all are 422 under the logo field; the logo is unchanged', async () => {
    const t = await owner()
    const token = csrfOf((await t.browser.get(`${t.base}/settings/business`)).text)
    const bad: Array<[Uint8Array, string]> = [
      [new TextEncoder().encode('GIF89a not a logo at all'), 'must be a PNG or JPEG image'],
      [
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]),
        'cannot be read as a PNG image',
      ],
      [new Uint8Array(1024 * 1024 + 10).fill(0xff), 'a logo is at most 1 MB'],
    ]
    for (const [bytes, words] of bad) {
      const r = await t.browser.upload(
        `${t.base}/settings/business/logo`,
        { _csrf: token },
        { logo: { bytes, name: 'x.png', type: 'image/png' } },
      )
      expect(r.status).toBe(422)
      expect(errorUnder(r.text, 'logo')).toContain(words)
    }
    // Image bombs: small files declaring huge images, refused from their header before anything decodes them.
    for (const [bytes, words] of [
      [bombPng(6000, 6000), 'is 6000 × 6000 pixels; a logo is at most 2000 × 2000 pixels'],
      [jpegHeader(60000, 60000), 'is 60000 × 60000 pixels'],
    ] as Array<[Uint8Array, string]>) {
      const started = performance.now()
      const r = await t.browser.upload(
        `${t.base}/settings/business/logo`,
        { _csrf: token },
        { logo: { bytes, name: 'x.png', type: 'image/png' } },
      )
      expect(r.status).toBe(422)
      expect(errorUnder(r.text, 'logo')).toContain(words)
      // Decoding the bomb took about a second here before the rule.
      expect(performance.now() - started).toBeLessThan(1000)
    }
    const none = await t.browser.upload(`${t.base}/settings/business/logo`, { _csrf: token }, {})
    expect(none.status).toBe(422)
    expect(errorUnder(none.text, 'logo')).toContain('choose a PNG or JPEG')
    expect((await t.api()).has_logo).toBe(false)
  })

  test('an upload without the form token, or larger than any form, is refused and changes nothing', async () => {
    const t = await owner()
    const png = solidPng(20, 20)
    expect(
      (
        await t.browser.upload(
          `${t.base}/settings/business/logo`,
          {},
          { logo: { bytes: png, name: 'logo.png', type: 'image/png' } },
        )
      ).status,
    ).toBe(403)
    const token = csrfOf((await t.browser.get(`${t.base}/settings/business`)).text)
    const huge = new Uint8Array(3 * 1024 * 1024).fill(0x41)
    expect(
      (
        await t.browser.upload(
          `${t.base}/settings/business/logo`,
          { _csrf: token },
          { logo: { bytes: huge, name: 'huge.png', type: 'image/png' } },
        )
      ).status,
    ).toBe(413)
    // Other changing forms still take no multipart body.
    expect(
      (
        await t.browser.upload(
          `${t.base}/settings/business`,
          { _csrf: token, name: 'Multipart', country: 'DE', currency: 'EUR' },
          {},
        )
      ).status,
    ).toBe(403)
    expect(await t.api()).toMatchObject({ has_logo: false, name: `Setup ${n}` })
  })

  test('a Member and a Viewer neither open Business setup nor upload a logo (403)', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const t = await owner(role)
      expect((await t.browser.get(`${t.base}/settings/business`)).status).toBe(403)
      const token = csrfOf((await t.browser.get(t.base)).text)
      const r = await t.browser.upload(
        `${t.base}/settings/business/logo`,
        { _csrf: token },
        { logo: { bytes: solidPng(10, 10), name: 'logo.png', type: 'image/png' } },
      )
      expect(r.status).toBe(403)
      expect((await t.api()).has_logo).toBe(false)
      expect((await t.browser.get(`${t.base}/settings/business/logo`)).status).toBe(403)
    }
  })
})
