// Document numbers (extensions §4) over HTTP: consecutive under concurrency, no gaps, a refused issue takes none,
// one counter per kind and year, patterns, the Test business prefix, numbers held under an earlier pattern.
import { describe, expect, test } from 'bun:test'
import { type Harness, type TestResponse, harnessForFile, type ClientSetup as Setup } from '../../../test/harness'
import { acmeSetup } from '../../../test/documents-kit'
import { setNumbering } from '../business'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

const line = { description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }
const pad = (n: number) => String(n).padStart(4, '0')

function setup(input: Parameters<Harness['business']>[0] = {}): Promise<Setup> {
  return acmeSetup(h, input)
}

async function draft(s: Setup, body: Record<string, unknown> = {}): Promise<any> {
  const r = await h.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: s.clientId, lines: [line], ...body },
  })
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

const issue = (s: Setup, id: number): Promise<TestResponse> =>
  h.request('POST', `/v1/documents/${id}/issue`, { key: s.key })

async function issuedNumber(s: Setup, body: Record<string, unknown> = {}): Promise<string> {
  const d = await draft(s, body)
  const r = await issue(s, d.id)
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body.document_number
}

function expectRefusal(r: TestResponse, code: string) {
  expect(r.status).toBe(422)
  expect(r.body.error).toMatchObject({ type: 'refusal', code })
}

describe('concurrent issues', () => {
  test('50 Drafts issued at once take 50 distinct consecutive numbers INV-2026-0001..0050, with no gap and no error', async () => {
    const s = await setup()
    const drafts: any[] = []
    for (let i = 0; i < 50; i++) drafts.push(await draft(s))
    h.clock.advance(61_000)
    const answers = await Promise.all(drafts.map((d) => issue(s, d.id)))
    for (const a of answers) {
      expect(a.status).toBe(200)
      expect(a.body.status).toBe('issued')
    }
    const numbers = answers.map((a) => a.body.document_number as string).sort()
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-2026-${pad(i + 1)}`))
    h.clock.advance(61_000)
    // Each document holds the number its answer named.
    const listed = await h.request('GET', '/v1/documents?limit=100&status=issued', { key: s.key })
    const byId = new Map(listed.body.data.map((d: any) => [d.id, d.document_number]))
    expect(byId.size).toBe(50)
    for (const a of answers) expect(byId.get(a.body.id)).toBe(a.body.document_number)
    // And the next one continues the sequence.
    expect(await issuedNumber(s)).toBe('INV-2026-0051')
    // 50 issues in one process, each with its journal entry: over 5 s on a loaded machine (the base commit too).
  }, 30_000)

  test('refused issues among concurrent ones take no number: the others stay consecutive', async () => {
    const s = await setup()
    const drafts: any[] = []
    for (let i = 0; i < 30; i++) drafts.push(await draft(s, i % 3 === 1 ? { document_number: `INV-2026-X${i}` } : {}))
    h.clock.advance(61_000)
    const answers = await Promise.all(drafts.map((d) => issue(s, d.id)))
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(10)
    for (const r of refused) expectRefusal(r, 'number_malformed')
    const numbers = answers
      .filter((a) => a.status === 200)
      .map((a) => a.body.document_number)
      .sort()
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `INV-2026-${pad(i + 1)}`))
  })
})

describe('a refused issue takes no number', () => {
  test('a Draft with a malformed or skipping number is refused, and the next normal issue takes the next consecutive number', async () => {
    const s = await setup()
    const bad = await draft(s, { document_number: 'INV-2026-12AB' })
    expectRefusal(await issue(s, bad.id), 'number_malformed')
    expect(await issuedNumber(s)).toBe('INV-2026-0001')
    const ahead = await draft(s, { document_number: 'INV-2026-0005' })
    expectRefusal(await issue(s, ahead.id), 'number_skips_ahead')
    expect(await issuedNumber(s)).toBe('INV-2026-0002')
    // The refused Drafts stay Drafts with their requested numbers, holding none.
    const again = await h.request('GET', `/v1/documents/${bad.id}`, { key: s.key })
    expect(again.body).toMatchObject({
      status: 'draft',
      document_number: null,
      requested_document_number: 'INV-2026-12AB',
    })
  })

  test('an issue refused for the issuing limit takes no number either', async () => {
    const s = await setup({ isTest: true, issuingLimit: 1 })
    expect(await issuedNumber(s)).toBe('TEST-INV-2026-0001')
    const d = await draft(s)
    expectRefusal(await issue(s, d.id), 'issuing_limit_reached')
    // A Credit Note has no issuing limit and its own counter.
    expect(await issuedNumber(s, { type: 'credit_note' })).toBe('TEST-CN-2026-0001')
  })
})

describe('counters and patterns', () => {
  test('each kind counts on its own: Invoice, Proforma, Credit Note and Quote each start at 0001 with their default prefix', async () => {
    const s = await setup()
    expect(await issuedNumber(s)).toBe('INV-2026-0001')
    expect(await issuedNumber(s, { type: 'proforma' })).toBe('PRO-2026-0001')
    expect(await issuedNumber(s, { type: 'credit_note' })).toBe('CN-2026-0001')
    expect(await issuedNumber(s, { type: 'quote' })).toBe('QUO-2026-0001')
    expect(await issuedNumber(s)).toBe('INV-2026-0002')
  })

  test('{YYYY} is the issue year and the counter starts again each year', async () => {
    const s = await setup()
    expect(await issuedNumber(s, { issue_date: '2025-12-31' })).toBe('INV-2025-0001')
    expect(await issuedNumber(s)).toBe('INV-2026-0001')
    expect(await issuedNumber(s, { issue_date: '2025-11-02' })).toBe('INV-2025-0002')
    expect(await issuedNumber(s, { issue_date: '2026-01-01' })).toBe('INV-2026-0002')
  })

  test('a requested number equal to the next is taken, and the numbering continues after it', async () => {
    const s = await setup()
    expect(await issuedNumber(s, { document_number: 'INV-2026-0001' })).toBe('INV-2026-0001')
    expect(await issuedNumber(s)).toBe('INV-2026-0002')
    expect(await issuedNumber(s, { document_number: 'INV-2026-0003' })).toBe('INV-2026-0003')
    expect(await issuedNumber(s)).toBe('INV-2026-0004')
  })

  test("a requested number for a past year fits that year's Draft (issue_date in that year)", async () => {
    const s = await setup()
    expect(await issuedNumber(s, { issue_date: '2025-06-01', document_number: 'INV-2025-0001' })).toBe('INV-2025-0001')
    const d = await draft(s, { issue_date: '2025-06-02', document_number: 'INV-2026-0001' })
    expectRefusal(await issue(s, d.id), 'number_malformed')
  })

  test('a custom pattern set for the Business is followed, with or without {YYYY}', async () => {
    const s = await setup()
    await setNumbering(h.deps.db, s.bizId, 'invoice', 'F{YYYY}/{NNN}')
    await setNumbering(h.deps.db, s.bizId, 'quote', 'Q-{NNNNN}')
    expect(await issuedNumber(s)).toBe('F2026/001')
    expect(await issuedNumber(s)).toBe('F2026/002')
    expect(await issuedNumber(s, { type: 'quote' })).toBe('Q-00001')
    const d = await draft(s, { document_number: 'INV-2026-0003' })
    expectRefusal(await issue(s, d.id), 'number_malformed')
  })

  test('a number already held (issued under an earlier pattern) is skipped, never given twice', async () => {
    const s = await setup()
    expect(await issuedNumber(s)).toBe('INV-2026-0001')
    expect(await issuedNumber(s)).toBe('INV-2026-0002')
    // A new pattern writing the year as literal text produces the same numbers from a fresh counter.
    await setNumbering(h.deps.db, s.bizId, 'invoice', 'INV-2026-{NNNN}')
    expect(await issuedNumber(s)).toBe('INV-2026-0003')
    const d = await draft(s, { document_number: 'INV-2026-0002' })
    expectRefusal(await issue(s, d.id), 'number_taken')
  })

  test("a Test business's numbers start with TEST-, and a requested number must carry the prefix", async () => {
    const s = await setup({ isTest: true })
    expect(await issuedNumber(s)).toBe('TEST-INV-2026-0001')
    expect(await issuedNumber(s, { type: 'proforma' })).toBe('TEST-PRO-2026-0001')
    const d = await draft(s, { document_number: 'INV-2026-0002' })
    expectRefusal(await issue(s, d.id), 'number_malformed')
    expect(await issuedNumber(s, { document_number: 'TEST-INV-2026-0002' })).toBe('TEST-INV-2026-0002')
    const ahead = await draft(s, { document_number: 'TEST-INV-2026-0009' })
    const r = await issue(s, ahead.id)
    expectRefusal(r, 'number_skips_ahead')
    expect(r.body.error.message).toContain('TEST-INV-2026-0003')
  })

  test('a Proforma converted into an Invoice gives the Invoice the next Invoice number', async () => {
    const s = await setup()
    expect(await issuedNumber(s)).toBe('INV-2026-0001')
    const pro = await draft(s, { type: 'proforma' })
    expect((await issue(s, pro.id)).body.document_number).toBe('PRO-2026-0001')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key })
    expect(conv.status).toBe(201)
    expect(conv.body.document_number).toBe('INV-2026-0002')
  })
})
