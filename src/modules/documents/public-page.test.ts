// The document's public page (/p/{token}) against a real temp-file database: what the Client sees, the first open
// heard once as document.viewed, later opens writing nothing, and no page for a Draft or an unknown link.
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { type Harness, harnessForFile, type ClientSetup as Setup, draftFor, issuedFor } from '../../../test/harness'
import { documents, outbox } from '../../db/schema'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

async function setup(
  business: Parameters<Harness['business']>[0] = {},
  client: Record<string, unknown> = {},
): Promise<Setup> {
  const b = await h.business({ legalName: 'Seller Ltd', ...business })
  return { bizId: b.id, key: b.key, clientId: await h.client(b.key, client) }
}

const LINE = { description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }
const draft = (s: Setup, body: Record<string, unknown> = {}) => draftFor(h, s, { lines: [LINE], ...body })
const issued = (s: Setup, body: Record<string, unknown> = {}) => issuedFor(h, s, { lines: [LINE], ...body })

/** Opens the page as the Client does: no credential. */
/** Opens a page by its path or by the absolute `public_url` the API answers. */
async function open(path: string): Promise<{ status: number; headers: Headers; html: string }> {
  const res = await h.app.fetch(new Request(new URL(path, 'http://localhost')))
  return { status: res.status, headers: res.headers, html: await res.text() }
}

async function viewedEvents(bizId: number, docId: number): Promise<number> {
  const rows = await h.deps.db.read
    .select()
    .from(outbox)
    .where(and(eq(outbox.businessId, bizId), eq(outbox.type, 'document.viewed')))
  return rows.filter((r) => r.subjectId === docId).length
}

/** When the document's page was first opened, as stored (null before). */
async function viewedAt(docId: number): Promise<string | null | undefined> {
  const row = await h.deps.db.read
    .select({ at: documents.viewedAt })
    .from(documents)
    .where(eq(documents.id, docId))
    .get()
  return row!.at
}

/** Counts write transactions while `fn` runs, by watching the one writer every write goes through. */
async function writesDuring(fn: () => Promise<unknown>): Promise<number> {
  const db = h.deps.db as { write: typeof h.deps.db.write }
  const original = db.write
  let n = 0
  db.write = ((work) => {
    n++
    return original.call(h.deps.db, work)
  }) as typeof original
  try {
    await fn()
  } finally {
    db.write = original
  }
  return n
}

describe('the public page', () => {
  test('an issued document has a page naming its number, parties, Lines and total', async () => {
    const s = await setup({}, { name: 'Acme GmbH' })
    const doc = await issued(s)
    expect(doc.public_url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/p\/[A-Za-z0-9_-]{20,64}$/)
    const page = await open(doc.public_url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('cache-control')).toBe('no-store')
    for (const s of [doc.document_number, 'Seller Ltd', 'Acme GmbH', 'Consulting', '119.00 EUR'])
      expect(page.html).toContain(s)
    expect(page.html).not.toContain('SAMPLE')
  })

  test('the first open raises document.viewed once; later opens raise nothing and take no write transaction', async () => {
    const s = await setup()
    const doc = await issued(s)
    expect(await writesDuring(() => open(doc.public_url))).toBe(1)
    expect(await viewedEvents(s.bizId, doc.id)).toBe(1)
    const first = await viewedAt(doc.id)
    expect(first).toBe(h.clock.now().toISOString())

    h.clock.advance(3_600_000)
    expect(
      await writesDuring(async () => {
        for (let i = 0; i < 3; i++) expect((await open(doc.public_url)).status).toBe(200)
      }),
    ).toBe(0)
    expect(await viewedEvents(s.bizId, doc.id)).toBe(1)
    expect(await viewedAt(doc.id)).toBe(first)
  })

  test('two first opens at once raise document.viewed once', async () => {
    const s = await setup()
    const doc = await issued(s)
    const pages = await Promise.all([open(doc.public_url), open(doc.public_url), open(doc.public_url)])
    for (const p of pages) expect(p.status).toBe(200)
    expect(await viewedEvents(s.bizId, doc.id)).toBe(1)
  })

  test('a Draft has no page; an unknown or malformed link is 404 and raises nothing', async () => {
    const s = await setup()
    const d = await draft(s)
    expect(d.public_url).toBeNull()
    expect((await open('/p/' + 'A'.repeat(32))).status).toBe(404)
    expect((await open('/p/short')).status).toBe(404)
    expect((await open('/p/' + 'x'.repeat(65))).status).toBe(404)
    expect(await viewedEvents(s.bizId, d.id)).toBe(0)
  })

  test("a Test business's page says SAMPLE", async () => {
    const s = await setup({ isTest: true })
    const doc = await issued(s)
    const page = await open(doc.public_url)
    expect(page.status).toBe(200)
    expect(page.html).toContain('SAMPLE')
    expect(page.html).toContain('TEST-INV-2026-')
  })

  test('a cancelled document still has its page, saying it is cancelled', async () => {
    const s = await setup()
    const doc = await issued(s)
    expect((await h.request('POST', `/v1/documents/${doc.id}/cancel`, { key: s.key })).status).toBe(200)
    const page = await open(doc.public_url)
    expect(page.status).toBe(200)
    expect(page.html).toContain('cancelled')
  })

  test('user text is escaped, never markup', async () => {
    const s = await setup({}, { name: '<script>alert(1)</script> & Co' })
    const doc = await issued(s, {
      lines: [{ description: '<img src=x onerror=alert(2)>', quantity: '1', unit_price: '1.00', vat_rate: '19.00' }],
    })
    const page = await open(doc.public_url)
    expect(page.html).not.toContain('<script>alert(1)')
    expect(page.html).not.toContain('<img src=x')
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co')
    expect(page.html).toContain('&lt;img src=x onerror=alert(2)&gt;')
  })

  test("a Non-VAT Payer's VAT number appears nowhere on the page", async () => {
    const s = await setup({ vatNumber: 'DE999888777', isVatPayer: false })
    const doc = await issued(s)
    const page = await open(doc.public_url)
    expect(page.status).toBe(200)
    expect(page.html).not.toContain('999888777')
  })
})

describe('the page as a bearer link', () => {
  test('is never cached, framed, sniffed or indexed; the 404 alike', async () => {
    const b = await h.business()
    const s = { bizId: b.id, key: b.key, clientId: await h.client(b.key) }
    const doc = await issuedFor(h, s, {
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
    })
    for (const path of [doc.public_url as string, '/p/not-a-token']) {
      const res = await h.app.fetch(new Request(new URL(path, 'http://localhost')))
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-robots-tag')).toContain('noindex')
    }
  })
})
