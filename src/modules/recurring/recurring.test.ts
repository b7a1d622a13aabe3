// Recurring invoices over HTTP and the background task, against a real temp-file database with a fixed clock
// (extensions §13): the fields and their 422s, Roles and Businesses, pause and resume, and what each date makes.
import { beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { expectRefusedUnder, harnessForFile, type Harness } from '../../../test/harness'
import { businesses, documents, numberCounters, recurringInvoices } from '../../db/schema'
import { deleteBusiness, setNumbering } from '../business'
import { runRecurringInvoices } from '.'
import { words } from '../words'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

let key: string
let clientId: number
beforeAll(async () => {
  const b = await h.business({ currency: 'EUR' })
  key = b.key
  clientId = await h.client(key)
})

const DAY = 86_400_000
const line = { description: 'Retainer {{month}} {{year}}', quantity: '1', unit_price: '1000.00', vat_rate: '19' }
const today = () => h.clock.now().toISOString().slice(0, 10)
/** The day `n` days after today (the fixed clock moves on from test to test). */
const plus = (n: number) => new Date(h.clock.now().getTime() + n * DAY).toISOString().slice(0, 10)

async function made(body: Record<string, unknown> = {}, k = key): Promise<any> {
  const r = await h.request('POST', '/v1/recurring-invoices', {
    key: k,
    body: { client_id: clientId, lines: [line], frequency: 'month', start_date: today(), ...body },
  })
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

const get = (id: number, k = key) => h.request('GET', `/v1/recurring-invoices/${id}`, { key: k })
const run = () => runRecurringInvoices(h.deps)

async function docsOf(recurringId: number) {
  return h.deps.db.read
    .select()
    .from(documents)
    .where(eq(documents.recurringInvoiceId, recurringId))
    .orderBy(documents.id)
    .all()
}

describe('creating a recurring invoice', () => {
  test('answers every field with the defaults: interval 1, action issue, next_date the start, nothing made yet', async () => {
    const r = await made()
    expect(r).toMatchObject({
      status: 'active',
      client_id: clientId,
      currency: 'EUR',
      frequency: 'month',
      interval: 1,
      start_date: today(),
      end_date: null,
      count: null,
      action: 'issue',
      next_date: today(),
      documents_made: 0,
      last_run: null,
      payment_terms: null,
    })
    expect(r.lines).toEqual([
      {
        product_id: null,
        description: 'Retainer {{month}} {{year}}',
        quantity: '1',
        unit: 'pcs',
        unit_price: '1000.00',
        vat_rate: '19.00',
        vat_category: 'S',
        vat_exemption_code: null,
        notes: null,
      },
    ])
  })

  test('each bad input is a 422 naming its field, and nothing is written', async () => {
    const before = (await h.deps.db.read.select().from(recurringInvoices).all()).length
    const post = (body: Record<string, unknown>) =>
      h.request('POST', '/v1/recurring-invoices', {
        key,
        body: { client_id: clientId, lines: [line], frequency: 'month', start_date: today(), ...body },
      })
    const yesterday = new Date(h.clock.now().getTime() - DAY).toISOString().slice(0, 10)
    expectRefusedUnder(await post({ start_date: yesterday }), 'start_date')
    expectRefusedUnder(await post({ start_date: '2026-02-30' }), 'start_date')
    expectRefusedUnder(await post({ end_date: yesterday }), 'end_date')
    expectRefusedUnder(await post({ end_date: '2027-01-01', count: 3 }), 'count')
    expectRefusedUnder(await post({ interval: 0 }), 'interval')
    expectRefusedUnder(await post({ interval: 367 }), 'interval')
    expectRefusedUnder(await post({ frequency: 'fortnight' }), 'frequency')
    expectRefusedUnder(await post({ action: 'mail' }), 'action')
    expectRefusedUnder(await post({ lines: [] }), 'lines')
    expectRefusedUnder(await post({ lines: [{ ...line, vat_rate: '0', vat_category: 'S' }] }), 'lines.0.vat_rate')
    expectRefusedUnder(await post({ client_id: undefined }), 'client_id')
    const other = await h.business()
    const foreign = await h.client(other.key)
    expectRefusedUnder(await post({ client_id: foreign }), 'client_id')
    expectRefusedUnder(await post({ from_document_id: 999999 }), 'from_document_id')
    expect((await h.deps.db.read.select().from(recurringInvoices).all()).length).toBe(before)
  })

  test('from_document_id copies the Client, currency, Lines, notes and references; fields sent beside it win', async () => {
    const d = await h.request('POST', '/v1/documents', {
      key,
      body: {
        type: 'invoice',
        client_id: clientId,
        currency: 'USD',
        notes: 'Thank you',
        order_reference: 'PO-7',
        lines: [{ description: 'Hosting', quantity: '2', unit_price: '15.50', vat_rate: '0' }],
      },
    })
    const r = await h.request('POST', '/v1/recurring-invoices', {
      key,
      body: { from_document_id: d.body.id, frequency: 'week', start_date: today(), notes: 'Weekly' },
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ client_id: clientId, currency: 'USD', notes: 'Weekly', order_reference: 'PO-7' })
    expect(r.body.lines[0]).toMatchObject({ description: 'Hosting', quantity: '2', unit_price: '15.50' })
  })
})

describe('who may see and change it', () => {
  test("a Viewer's key reads but every write is 403", async () => {
    const r = await made()
    const viewer = await h.key(
      (await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, r.id)).get())!.businessId,
      'viewer',
    )
    expect((await get(r.id, viewer)).status).toBe(200)
    const writes = [
      h.request('POST', '/v1/recurring-invoices', {
        key: viewer,
        body: { client_id: clientId, lines: [line], frequency: 'month', start_date: today() },
      }),
      h.request('PATCH', `/v1/recurring-invoices/${r.id}`, { key: viewer, body: { notes: 'x' } }),
      h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key: viewer }),
      h.request('DELETE', `/v1/recurring-invoices/${r.id}`, { key: viewer }),
    ]
    for (const w of await Promise.all(writes)) expect(w.status).toBe(403)
  })

  test("another Business's recurring invoice is 404 on every path", async () => {
    const r = await made()
    const other = await h.business()
    for (const [m, p] of [
      ['GET', `/v1/recurring-invoices/${r.id}`],
      ['PATCH', `/v1/recurring-invoices/${r.id}`],
      ['DELETE', `/v1/recurring-invoices/${r.id}`],
      ['POST', `/v1/recurring-invoices/${r.id}/pause`],
      ['POST', `/v1/recurring-invoices/${r.id}/resume`],
      ['GET', `/v1/recurring-invoices/${r.id}/dates`],
    ] as const) {
      const a = await h.request(m, p, { key: other.key, body: m === 'PATCH' ? { notes: 'x' } : undefined })
      expect(a.status).toBe(404)
    }
    const list = await h.request('GET', '/v1/recurring-invoices?limit=100', { key: other.key })
    expect(list.body.data.map((x: any) => x.id)).not.toContain(r.id)
    expect((await get(r.id)).body.notes).toBeNull()
  })
})

describe('pause, resume, dates, change and delete', () => {
  test('pausing a paused one, resuming an active one, and either on an ended one are refusals by their codes', async () => {
    const r = await made({ count: 1 })
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/resume`, { key })).body.error.code).toBe(
      'recurring_active',
    )
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key })).body.status).toBe('paused')
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key })).body.error.code).toBe(
      'recurring_paused',
    )
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/resume`, { key })).body.status).toBe('active')
    await run()
    const ended = (await get(r.id)).body
    expect(ended).toMatchObject({ status: 'ended', next_date: null, documents_made: 1 })
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key })).body.error.code).toBe(
      'recurring_ended',
    )
    expect((await h.request('POST', `/v1/recurring-invoices/${r.id}/resume`, { key })).body.error.code).toBe(
      'recurring_ended',
    )
  })

  test('resuming never makes the dates that passed while paused', async () => {
    const r = await made({ frequency: 'week' })
    await run()
    await h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key })
    h.clock.advance(22 * DAY)
    await run()
    expect((await docsOf(r.id)).length).toBe(1)
    const resumed = (await h.request('POST', `/v1/recurring-invoices/${r.id}/resume`, { key })).body
    // Three weekly dates passed while paused; the next is the first on or after today.
    expect(resumed.next_date >= today()).toBe(true)
    await run()
    const docs = await docsOf(r.id)
    expect(docs.map((d) => d.deliveryDate)).toEqual([r.start_date, resumed.next_date].filter((d) => d <= today()))
  })

  test('GET dates answers the next N (1 to 24, default 12), and fewer once the schedule ends', async () => {
    const r = await made({ start_date: '2030-01-31', count: 3 })
    const d = await h.request('GET', `/v1/recurring-invoices/${r.id}/dates?count=2`, { key })
    expect(d.body.dates).toEqual(['2030-01-31', '2030-02-28'])
    expect((await h.request('GET', `/v1/recurring-invoices/${r.id}/dates`, { key })).body.dates).toEqual([
      '2030-01-31',
      '2030-02-28',
      '2030-03-31',
    ])
    expectRefusedUnder(await h.request('GET', `/v1/recurring-invoices/${r.id}/dates?count=25`, { key }), 'count')
    expectRefusedUnder(await h.request('GET', `/v1/recurring-invoices/${r.id}/dates?count=0`, { key }), 'count')
  })

  test('a change applies from the next date on; end_date and count together are refused on update too', async () => {
    const r = await made({ frequency: 'day' })
    await run()
    const p = await h.request('PATCH', `/v1/recurring-invoices/${r.id}`, {
      key,
      body: { lines: [{ ...line, unit_price: '1200.00' }], count: 5 },
    })
    expect(p.status).toBe(200)
    expectRefusedUnder(
      await h.request('PATCH', `/v1/recurring-invoices/${r.id}`, { key, body: { end_date: '2027-01-01' } }),
      'end_date',
    )
    h.clock.advance(DAY)
    await run()
    const docs = await docsOf(r.id)
    expect(docs.map((d) => d.total)).toEqual(['1190.00', '1428.00'])
  })

  test('DELETE leaves the Invoices already made, and the schedule makes no more', async () => {
    const r = await made({ frequency: 'day' })
    await run()
    expect((await h.request('DELETE', `/v1/recurring-invoices/${r.id}`, { key })).status).toBe(204)
    expect((await get(r.id)).status).toBe(404)
    h.clock.advance(3 * DAY)
    await run()
    const docs = await docsOf(r.id)
    expect(docs.length).toBe(1)
    expect(docs[0]!.status).toBe('issued')
  })

  test('list filters by client_id and status, and a bad filter is a 422 naming it', async () => {
    const r = await made()
    await h.request('POST', `/v1/recurring-invoices/${r.id}/pause`, { key })
    const paused = await h.request('GET', `/v1/recurring-invoices?status=paused&client_id=${clientId}&limit=100`, {
      key,
    })
    expect(paused.body.data.map((x: any) => x.id)).toContain(r.id)
    expect(paused.body.data.every((x: any) => x.status === 'paused')).toBe(true)
    expectRefusedUnder(await h.request('GET', '/v1/recurring-invoices?status=late', { key }), 'status')
    expectRefusedUnder(await h.request('GET', '/v1/recurring-invoices?client_id=x', { key }), 'client_id')
  })
})

describe('making the Invoices', () => {
  test('a date makes one issued Invoice: the template, delivery_date the date, placeholders filled, recurring_invoice_id', async () => {
    const r = await made({ notes: 'For {{period}}', order_reference: 'PO-1' })
    const [, second] = (await h.request('GET', `/v1/recurring-invoices/${r.id}/dates?count=2`, { key })).body.dates
    const dayBefore = new Date(Date.parse(second) - DAY).toISOString().slice(0, 10)
    expect((await run()).made).toBeGreaterThanOrEqual(1)
    const [doc] = await docsOf(r.id)
    const view = (await h.request('GET', `/v1/documents/${doc!.id}`, { key })).body
    expect(view).toMatchObject({
      type: 'invoice',
      status: 'issued',
      recurring_invoice_id: r.id,
      delivery_date: today(),
      issue_date: today(),
      notes: `For ${today()} – ${dayBefore}`,
      order_reference: 'PO-1',
      total: '1190.00',
    })
    expect(view.lines[0].description).toBe(`Retainer ${words('en').month(today())} ${today().slice(0, 4)}`)
    expect((await get(r.id)).body).toMatchObject({
      documents_made: 1,
      next_date: second,
      last_run: { date: today(), document_id: doc!.id, error: null },
    })
  })

  test("{{month}} is written in the Client's language (extensions §18)", async () => {
    const c = await h.client(key, { name: 'Kunde GmbH', language: 'de' })
    const r = await made({ client_id: c, action: 'draft' })
    await run()
    const [doc] = await docsOf(r.id)
    const view = (await h.request('GET', `/v1/documents/${doc!.id}`, { key })).body
    expect(view.lines[0].description).toBe(`Retainer ${words('de').month(today())} ${today().slice(0, 4)}`)
  })

  test('action draft makes a Draft only; the issued event is raised only when a date issues', async () => {
    const r = await made({ action: 'draft' })
    await run()
    const docs = await docsOf(r.id)
    expect(docs.map((d) => d.status)).toEqual(['draft'])
  })

  test('catching up: every date that passed is made once, oldest first, each with its own delivery_date', async () => {
    const r = await made({ frequency: 'week' })
    const expected = [0, 7, 14, 21, 28].map(plus)
    h.clock.advance(30 * DAY)
    await run()
    const docs = await docsOf(r.id)
    expect(docs.map((d) => d.deliveryDate)).toEqual(expected)
    // Issued in date order: the numbers rise with the dates.
    const numbers = docs.map((d) => d.documentNumber!)
    expect([...numbers].sort()).toEqual(numbers)
    await run()
    expect((await docsOf(r.id)).length).toBe(5)
  })

  test('two runs at once make each date once', async () => {
    const r = await made({ frequency: 'day' })
    h.clock.advance(4 * DAY)
    await Promise.all([run(), run(), run()])
    expect((await docsOf(r.id)).map((d) => d.deliveryDate).length).toBe(5)
  })

  test('numbering at its end: the Draft is kept, last_run.error names the code, the next date is made', async () => {
    const b = await h.business()
    const c = await h.client(b.key)
    const r = await made({ client_id: c, frequency: 'day' }, b.key)
    const tomorrow = plus(1)
    // A one-digit numbering whose counter stands at 8: the next number, 9, is its largest, which is never taken.
    await setNumbering(h.deps.db, b.id, 'invoice', 'R{N}')
    await h.deps.db.write((tx) =>
      tx.insert(numberCounters).values({ businessId: b.id, kind: 'invoice', pattern: 'R{N}', period: '', highest: 8 }),
    )
    await run()
    const after = (await get(r.id, b.key)).body
    expect(after.status).toBe('active')
    expect(after.last_run.error).toMatchObject({ type: 'refusal', code: 'numbering_at_its_end' })
    const docs = await docsOf(r.id)
    expect(docs.map((d) => d.status)).toEqual(['draft'])
    expect(after.next_date).toBe(tomorrow)
  })

  test('action send with no way to send mail: the Invoice stays issued and last_run.error is no_mail_provider', async () => {
    // This harness has no relay and the Business no mailbox: the Send is refused after the issue.
    const r = await made({ action: 'send' })
    await run()
    const after = (await get(r.id)).body
    expect(after.last_run.error).toMatchObject({ type: 'refusal', code: 'no_mail_provider' })
    expect((await docsOf(r.id)).map((d) => d.status)).toEqual(['issued'])
    expect(after.status).toBe('active')
    const row = await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, r.id)).get()
    expect(row!.pendingDocumentId).toBeNull()
  })

  test('a deleted Business makes nothing more, and its schedules hold up no other Business', async () => {
    const b = await h.business()
    const r = await made({ client_id: await h.client(b.key), frequency: 'day' }, b.key)
    const mine = await made({ frequency: 'day' })
    await deleteBusiness(h.deps.db, h.clock, b.id)
    await run()
    expect(await docsOf(r.id)).toEqual([])
    expect((await docsOf(mine.id)).length).toBe(1)
  })

  test('a step left by a process that died is finished from its Draft, never a second Draft', async () => {
    const r = await made({ frequency: 'day' })
    await run()
    const [doc] = await docsOf(r.id)
    // As a kill -9 between the Draft's commit and its issue leaves it: the Draft, and the step claimed by a dead process.
    await h.deps.db.write((tx) =>
      tx
        .update(documents)
        .set({ status: 'draft', documentNumber: null, publicToken: null })
        .where(eq(documents.id, doc!.id))
        .then(() =>
          tx
            .update(recurringInvoices)
            .set({
              pendingDocumentId: doc!.id,
              pendingStep: 'issue',
              pendingClaim: JSON.stringify({ token: 'x', at: 0, holder: { machine: 'gone', pid: 1, start: '' } }),
            })
            .where(eq(recurringInvoices.id, r.id)),
        ),
    )
    const report = await run()
    expect(report.resumed).toBe(1)
    const docs = await docsOf(r.id)
    expect(docs.length).toBe(1)
    expect(docs[0]!.status).toBe('issued')
    const row = await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, r.id)).get()
    expect(row!.pendingDocumentId).toBeNull()
  })
})

const setPlan = (id: number, plan: 'free' | 'pro' | 'paused') =>
  h.deps.db.write((tx) => tx.update(businesses).set({ plan }).where(eq(businesses.id, id)))
const rowOf = async (id: number) =>
  (await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, id)).get())!

/** Counts the write transactions the task opens over `n` runs a minute apart (the scheduler's beat). */
async function writesOver(n: number): Promise<number> {
  let writes = 0
  const write = h.deps.db.write
  h.deps.db = Object.assign(Object.create(Object.getPrototypeOf(h.deps.db)), h.deps.db, {
    write: (fn: any) => (writes++, write(fn)),
  })
  try {
    for (let i = 0; i < n; i++) {
      h.clock.advance(60_000)
      await run()
    }
  } finally {
    ;(h.deps.db as any).write = write
  }
  return writes
}

describe('a Paused Business: nobody acts for it (extensions §9)', () => {
  test('its dates make no Invoice, last_run says business_paused once, and back on a paid plan the dates passed while Paused are never made', async () => {
    const b = await h.business()
    const r = await made({ client_id: await h.client(b.key), frequency: 'day' }, b.key)
    const first = today()
    await setPlan(b.id, 'paused')
    await run()
    expect(await docsOf(r.id)).toEqual([])
    let row = await rowOf(r.id)
    expect({ status: row.status, next: row.nextDate, made: row.documentsMade, last: JSON.parse(row.lastRun!) }).toEqual(
      {
        status: 'active',
        next: plus(1),
        made: 0,
        last: {
          date: first,
          document_id: null,
          error: { type: 'permission', code: 'business_paused', message: expect.stringContaining('paused') },
        },
      },
    )
    // Three more dates come while it is Paused: each passed as it comes, the first refusal kept as it was said.
    h.clock.advance(3 * DAY)
    await run()
    row = await rowOf(r.id)
    expect({ next: row.nextDate, date: JSON.parse(row.lastRun!).date }).toEqual({ next: plus(1), date: first })
    // Back on a paid plan: nothing of the passed dates is made, then or later; the next date is.
    await setPlan(b.id, 'pro')
    await run()
    expect(await docsOf(r.id)).toEqual([])
    h.clock.advance(DAY)
    await run()
    expect((await docsOf(r.id)).map((d) => [d.deliveryDate, d.status])).toEqual([[today(), 'issued']])
    expect((await get(r.id, b.key)).body).toMatchObject({
      status: 'active',
      documents_made: 1,
      last_run: { date: today(), error: null },
    })
  })

  test('a count is of Invoices made: dates passed while Paused do not use it up, and an end date passed while Paused ends it', async () => {
    const b = await h.business()
    const c = await h.client(b.key)
    const counted = await made({ client_id: c, frequency: 'day', count: 2 }, b.key)
    const ending = await made({ client_id: c, frequency: 'day', end_date: plus(2) }, b.key)
    await setPlan(b.id, 'paused')
    await run()
    h.clock.advance(3 * DAY)
    await run()
    expect((await rowOf(ending.id)).status).toBe('ended')
    expect(await rowOf(counted.id)).toMatchObject({ status: 'active', documentsMade: 0, nextDate: plus(1) })
    await setPlan(b.id, 'pro')
    h.clock.advance(DAY)
    await run()
    h.clock.advance(DAY)
    await run()
    expect((await docsOf(counted.id)).length).toBe(2)
    expect((await rowOf(counted.id)).status).toBe('ended')
    expect(await docsOf(ending.id)).toEqual([])
  })

  test('a step left when it was Paused is kept, not issued or sent, and says business_paused; its schedules cost no write transaction a minute', async () => {
    const b = await h.business()
    const c = await h.client(b.key)
    const r = await made({ client_id: c, frequency: 'day', action: 'send' }, b.key)
    await made({ client_id: c, frequency: 'week', start_date: plus(1) }, b.key)
    await run()
    const [doc] = await docsOf(r.id)
    // As a process stopped between the Draft's commit and its issue leaves it: the Draft, the step claimed by the dead.
    await h.deps.db.write(async (tx) => {
      await tx
        .update(documents)
        .set({ status: 'draft', documentNumber: null, publicToken: null })
        .where(eq(documents.id, doc!.id))
      await tx
        .update(recurringInvoices)
        .set({
          pendingDocumentId: doc!.id,
          pendingStep: 'issue',
          pendingClaim: JSON.stringify({ token: 'x', at: 0, holder: { machine: 'gone', pid: 1, start: '' } }),
        })
        .where(eq(recurringInvoices.id, r.id))
    })
    await setPlan(b.id, 'paused')
    await run()
    expect((await docsOf(r.id)).map((d) => [d.status, d.lastSent])).toEqual([['draft', null]])
    const row = await rowOf(r.id)
    expect({ pending: row.pendingDocumentId, last: JSON.parse(row.lastRun!) }).toMatchObject({
      pending: null,
      last: { document_id: doc!.id, error: { code: 'business_paused' } },
    })
    // The next UTC day: each date of its schedules passed once, at the day's first run; the minutes after write nothing.
    h.clock.set(`${plus(1)}T00:00:30.000Z`)
    await run()
    expect(await writesOver(60)).toBe(0)
    expect((await docsOf(r.id)).length).toBe(1)
    expect((await rowOf(r.id)).nextDate).toBe(plus(1))
  })
})

describe('the Free plan (the issuing limit binds it)', () => {
  test('a date past the issuing limit keeps its Draft, says issuing_limit_reached in last_run.error, and the schedule goes on', async () => {
    const b = await h.business({ issuingLimit: 1 })
    const r = await made({ client_id: await h.client(b.key), frequency: 'day' }, b.key)
    await setPlan(b.id, 'free')
    await run()
    h.clock.advance(DAY)
    await run()
    expect((await docsOf(r.id)).map((d) => d.status)).toEqual(['issued', 'draft'])
    const row = await rowOf(r.id)
    expect({ status: row.status, next: row.nextDate, made: row.documentsMade }).toEqual({
      status: 'active',
      next: plus(1),
      made: 2,
    })
    expect(JSON.parse(row.lastRun!)).toMatchObject({
      date: today(),
      error: { type: 'refusal', code: 'issuing_limit_reached' },
    })
    expect(row.pendingDocumentId).toBeNull()
    h.clock.advance(DAY)
    await run()
    expect((await docsOf(r.id)).map((d) => d.status)).toEqual(['issued', 'draft', 'draft'])
  })
})

describe('an idle server stays idle', () => {
  test('schedules not due cost no write transaction, run after run', async () => {
    await run()
    let writes = 0
    const write = h.deps.db.write
    h.deps.db = Object.assign(Object.create(Object.getPrototypeOf(h.deps.db)), h.deps.db, {
      write: (fn: any) => (writes++, write(fn)),
    })
    try {
      for (let i = 0; i < 60; i++) {
        h.clock.advance(1000)
        await run()
      }
    } finally {
      ;(h.deps.db as any).write = write
    }
    expect(writes).toBe(0)
  })

  test("the task's read when nothing is due is answered from the partial indexes, not a scan of the table", async () => {
    const plan = await h.deps.db.read.all<{ detail: string }>(
      (await import('drizzle-orm'))
        .sql`EXPLAIN QUERY PLAN SELECT 1 FROM recurring_invoices WHERE status = 'active' AND next_date <= '2026-01-01' LIMIT 1`,
    )
    expect(plan.map((p) => p.detail).join(' ')).toContain('recurring_invoices_due')
  })
})
