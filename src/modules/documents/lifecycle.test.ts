// Every Refusal code of the document lifecycle, each provoked by a real request, and for each the document's
// `actions` (read just before) predicting it: the one judge (lifecycle.ts) refuses and predicts alike.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makeHarness, type Harness, type TestResponse, harnessForFile } from '../../../test/harness'
import { acmeClient, acmeSetup, consultingLine as line } from '../../../test/documents-kit'
import { documents } from '../../db/schema'
import { setNumbering, updateBusiness } from '../business'
import { recordTaken } from '../numbering'
import { ACTIONS, actionsOf, refusalFor, type Facts } from './lifecycle'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

interface Setup {
  bizId: number
  key: string
  clientId: number
  hh: Harness
}

type Action = (typeof ACTIONS)[number]

const YEAR = '2026'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A fresh Business with one Client: its numbering starts at 0001. */
async function setup(input: Parameters<Harness['business']>[0] = {}, hh: Harness = h): Promise<Setup> {
  return { ...(await acmeSetup(hh, input)), hh }
}

function create(s: Setup, body: Record<string, unknown>): Promise<TestResponse> {
  return s.hh.request('POST', '/v1/documents', {
    key: s.key,
    body: { type: 'invoice', client_id: s.clientId, lines: [line()], ...body },
  })
}

async function draft(s: Setup, body: Record<string, unknown> = {}): Promise<any> {
  const r = await create(s, body)
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

const issue = (s: Setup, id: number) => s.hh.request('POST', `/v1/documents/${id}/issue`, { key: s.key })
const cancel = (s: Setup, id: number) => s.hh.request('POST', `/v1/documents/${id}/cancel`, { key: s.key })
const convert = (s: Setup, id: number) => s.hh.request('POST', `/v1/documents/${id}/convert`, { key: s.key })
const del = (s: Setup, id: number) => s.hh.request('DELETE', `/v1/documents/${id}`, { key: s.key })
const patch = (s: Setup, id: number, body: Record<string, unknown>) =>
  s.hh.request('PATCH', `/v1/documents/${id}`, { key: s.key, body })
const get = (s: Setup, id: number, key = s.key) => s.hh.request('GET', `/v1/documents/${id}`, { key })

async function ok(r: Promise<TestResponse>, status = 200): Promise<any> {
  const res = await r
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text}`)
  return res.body
}

async function issued(s: Setup, body: Record<string, unknown> = {}): Promise<any> {
  return ok(issue(s, (await draft(s, body)).id))
}

async function documentCount(s: Setup): Promise<number> {
  return (await ok(s.hh.request('GET', '/v1/documents?limit=100', { key: s.key }))).data.length
}

/** Sets amount paid and status in the database: Payments are simulated (the Record endpoint is not exercised here). */
async function simulatePaid(s: Setup, id: number, amountPaid: string, status: 'partially_paid' | 'paid' | 'issued') {
  const minor = amountPaid.replace('.', '').replace(/^0+(?=\d)/, '')
  await s.hh.deps.db.write((tx) =>
    tx.update(documents).set({ amountPaid, paidMinor: minor, status }).where(eq(documents.id, id)),
  )
}

/** The action entry the document shows (read just before) names the code. */
async function expectPredicted(s: Setup, id: number, action: Action, code: string): Promise<any> {
  const before = await get(s, id)
  expect(before.status).toBe(200)
  expect(before.body.actions[action]).toMatchObject({ open: false, code })
  return before.body
}

/** Expects a 422 refusal with this code. */
function expectRefusal(r: TestResponse, code: string): void {
  expect(r.status).toBe(422)
  expect(r.body.error).toMatchObject({ type: 'refusal', code })
}

/**
 * The document's `actions[action]` predicts `code`; the request is then refused with exactly that code (422
 * refusal), and nothing is written: the document reads the same and no document was added.
 */
async function refusedAsPredicted(
  s: Setup,
  id: number,
  action: Action | null,
  request: () => Promise<TestResponse>,
  code: string,
): Promise<any> {
  const before = action ? await expectPredicted(s, id, action, code) : (await get(s, id)).body
  const count = await documentCount(s)
  const r = await request()
  expectRefusal(r, code)
  expect(r.body.error.message).toBeString()
  expect(r.body.error.message.length).toBeGreaterThan(0)
  if (action) {
    // The prediction carries the same remedy as the refusal.
    expect(before.actions[action].remedy).toBe(r.body.error.remedy)
  }
  const after = await get(s, id)
  expect(after.body).toEqual(before)
  expect(await documentCount(s)).toBe(count)
  return r.body.error
}

// ---------------------------------------------------------------------------------------------------------------

describe('open actions', () => {
  test('a Draft Invoice is open to issue and delete; an issued one to cancel and record_payment', async () => {
    const s = await setup()
    const d = await draft(s)
    expect(d.actions).toMatchObject({
      issue: { open: true },
      delete: { open: true },
      cancel: { open: false, code: 'draft_not_cancelled' },
    })
    const i = await ok(issue(s, d.id))
    expect(i.actions).toMatchObject({
      issue: { open: false, code: 'already_issued' },
      cancel: { open: true },
      record_payment: { open: true },
      delete: { open: false, code: 'issued_not_deleted' },
      convert: { open: false, code: 'not_a_proforma' },
    })
    expect(i.still_takes_payment).toBe(true)
    // An open entry carries nothing else.
    expect(i.actions.cancel).toEqual({ open: true })
  })
})

describe('Issue refusals', () => {
  test('already_issued: an issued document is not issued again and keeps its number', async () => {
    const s = await setup()
    const i = await issued(s)
    await refusedAsPredicted(s, i.id, 'issue', () => issue(s, i.id), 'already_issued')
    expect((await get(s, i.id)).body.document_number).toBe(`INV-${YEAR}-0001`)
  })

  test('number_taken: a requested number held by another document is refused; cleared, the Draft takes the next number', async () => {
    const s = await setup()
    const first = await issued(s)
    const d = await draft(s, { document_number: first.document_number })
    await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_taken')
    await ok(patch(s, d.id, { document_number: null }))
    expect((await ok(issue(s, d.id))).document_number).toBe(`INV-${YEAR}-0002`)
  })

  test('number_skips_ahead: a requested number above the next is refused and the message names the next number', async () => {
    const s = await setup()
    const d = await draft(s, { document_number: `INV-${YEAR}-0003` })
    const e = await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_skips_ahead')
    expect(e.message).toContain(`INV-${YEAR}-0001`)
    await issued(s)
    const e2 = await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_skips_ahead')
    expect(e2.message).toContain(`INV-${YEAR}-0002`)
    await issued(s)
    // Now 0003 is the next: the requested number is taken as asked.
    expect((await ok(issue(s, d.id))).document_number).toBe(`INV-${YEAR}-0003`)
  })

  test('number_beyond_the_counter: a number wider than the counter, or its largest value (never taken), is refused', async () => {
    const s = await setup()
    for (const n of [`INV-${YEAR}-10000`, `INV-${YEAR}-9999`]) {
      const d = await draft(s, { document_number: n })
      await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_beyond_the_counter')
    }
  })

  test('number_malformed: a number not fitting the pattern (letters, another year, too few digits) is refused and takes no number', async () => {
    const s = await setup()
    for (const n of [`INV-${YEAR}-ABCD`, `INV-2025-0001`, `INV-${YEAR}-001`, 'FOO-1', `inv-${YEAR}-0001`]) {
      const d = await draft(s, { document_number: n })
      await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_malformed')
    }
    expect((await issued(s)).document_number).toBe(`INV-${YEAR}-0001`)
  })

  test('numbering_at_its_end: a {N} pattern issues 1 to 8; the ninth issue is refused (9 is never taken) and nothing is written', async () => {
    const s = await setup()
    await setNumbering(s.hh.deps.db, s.bizId, 'invoice', '{N}')
    const numbers: string[] = []
    for (let i = 0; i < 8; i++) numbers.push((await issued(s)).document_number)
    expect(numbers).toEqual(['1', '2', '3', '4', '5', '6', '7', '8'])
    const d = await draft(s)
    const e = await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'numbering_at_its_end')
    expect(e.message).toContain('{N}')
    // Refused again: the counter did not move.
    await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'numbering_at_its_end')
    // The largest value and the taken ones stay out of reach.
    await ok(patch(s, d.id, { document_number: '9' }))
    await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_beyond_the_counter')
    await ok(patch(s, d.id, { document_number: '8' }))
    await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'number_taken')
  })

  test('numbering_at_its_end leaves a way out: an unused earlier number can still be requested (counter moved to 7 directly in the DB, as after an import)', async () => {
    const s = await setup()
    await setNumbering(s.hh.deps.db, s.bizId, 'invoice', 'N{N}')
    await s.hh.deps.db.write((tx) => recordTaken(tx, s.bizId, 'invoice', 'N{N}', '', 7))
    expect((await issued(s)).document_number).toBe('N8')
    const d = await draft(s)
    await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'numbering_at_its_end')
    await ok(patch(s, d.id, { document_number: 'N3' }))
    expect((await get(s, d.id)).body.actions.issue).toEqual({ open: true })
    expect((await ok(issue(s, d.id))).document_number).toBe('N3')
    // The end still holds for the next Draft.
    const next = await draft(s)
    await refusedAsPredicted(s, next.id, 'issue', () => issue(s, next.id), 'numbering_at_its_end')
  })

  test('issuing_limit_reached: a Test business past its yearly Invoices is refused, the message naming 2027-01-01, no remedy; Proformas still issue', async () => {
    const s = await setup({ isTest: true, issuingLimit: 2 })
    expect((await issued(s)).document_number).toBe(`TEST-INV-${YEAR}-0001`)
    expect((await issued(s)).document_number).toBe(`TEST-INV-${YEAR}-0002`)
    const d = await draft(s)
    const before = await expectPredicted(s, d.id, 'issue', 'issuing_limit_reached')
    expect(before.actions.issue.remedy).toBeUndefined()
    expect(before.actions.issue.remedy_url).toBeUndefined()
    const e = await refusedAsPredicted(s, d.id, 'issue', () => issue(s, d.id), 'issuing_limit_reached')
    expect(e.message).toContain('2027-01-01')
    expect(e.remedy).toBeUndefined()
    const pro = await issued(s, { type: 'proforma' })
    expect(pro.document_number).toBe(`TEST-PRO-${YEAR}-0001`)
    expect(pro.is_test).toBe(true)
    // Converting is issuing an Invoice too.
    const conv = await convert(s, pro.id)
    expect(conv.status).toBe(422)
    expect(conv.body.error.code).toBe('issuing_limit_reached')
    expect((await get(s, pro.id)).body.converted_into_id).toBeNull()
  })

  test('draft_not_converted and already_converted also refuse issuing an Invoice Draft linked to such a Proforma', async () => {
    const s = await setup()
    const proDraft = await draft(s, { type: 'proforma' })
    const inv = await draft(s, { proforma_id: proDraft.id })
    await refusedAsPredicted(s, inv.id, 'issue', () => issue(s, inv.id), 'draft_not_converted')
    const pro = await issued(s, { type: 'proforma' })
    const a = await draft(s, { proforma_id: pro.id })
    const b = await draft(s, { proforma_id: pro.id })
    await ok(issue(s, a.id))
    await refusedAsPredicted(s, b.id, 'issue', () => issue(s, b.id), 'already_converted')
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('concurrent delete and issue (draft_deleted)', () => {
  /** Holds the writer so the requests line up behind it in a known order (the write mutex is FIFO). */
  async function lineUp(first: () => Promise<TestResponse>, second: () => Promise<TestResponse>) {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const blocker = h.deps.db.write(() => gate)
    const a = first()
    await sleep(50)
    const b = second()
    await sleep(50)
    release()
    await blocker
    return Promise.all([a, b])
  }

  test('an issue that read the Draft before a DELETE committed answers 422 draft_deleted and takes no number', async () => {
    const s = await setup()
    const d = await draft(s)
    const [deleted, iss] = await lineUp(
      () => del(s, d.id),
      () => issue(s, d.id),
    )
    expect(deleted.status).toBe(204)
    expectRefusal(iss, 'draft_deleted')
    expect((await get(s, d.id)).status).toBe(404)
    expect((await issued(s)).document_number).toBe(`INV-${YEAR}-0001`)
  })

  test('an update that read the Draft before a DELETE committed answers 422 draft_deleted and writes nothing', async () => {
    const s = await setup()
    const d = await draft(s)
    const [deleted, upd] = await lineUp(
      () => del(s, d.id),
      () => patch(s, d.id, { notes: 'late' }),
    )
    expect(deleted.status).toBe(204)
    expectRefusal(upd, 'draft_deleted')
    expect((await get(s, d.id)).status).toBe(404)
  })

  test('a DELETE meeting an issue that committed first answers 422 issued_not_deleted', async () => {
    const s = await setup()
    const d = await draft(s)
    const [iss, deleted] = await lineUp(
      () => issue(s, d.id),
      () => del(s, d.id),
    )
    expect(iss.status).toBe(200)
    expectRefusal(deleted, 'issued_not_deleted')
    expect((await get(s, d.id)).body).toMatchObject({ status: 'issued', document_number: `INV-${YEAR}-0001` })
  })

  test('a truly concurrent DELETE and issue: exactly one wins, and the loser takes no number', async () => {
    for (let round = 0; round < 4; round++) {
      const s = await setup()
      const d = await draft(s)
      const [iss, deleted] =
        round % 2
          ? await Promise.all([issue(s, d.id), del(s, d.id)])
          : await Promise.all([del(s, d.id), issue(s, d.id)]).then(([x, y]) => [y, x] as const)
      if (iss.status === 200) {
        expect(deleted.status).toBe(422)
        expect(deleted.body.error.code).toBe('issued_not_deleted')
        expect(iss.body.document_number).toBe(`INV-${YEAR}-0001`)
        expect((await issued(s)).document_number).toBe(`INV-${YEAR}-0002`)
      } else {
        expect(deleted.status).toBe(204)
        // The issue lost: refused draft_deleted, or 404 when the delete had finished before it looked.
        if (iss.status === 422) expect(iss.body.error).toMatchObject({ type: 'refusal', code: 'draft_deleted' })
        else expect(iss.status).toBe(404)
        expect((await issued(s)).document_number).toBe(`INV-${YEAR}-0001`)
      }
    }
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('Cancel refusals', () => {
  test('an issued document with nothing paid cancels and keeps its number', async () => {
    const s = await setup()
    const i = await issued(s)
    const c = await ok(cancel(s, i.id))
    expect(c).toMatchObject({ status: 'cancelled', document_number: i.document_number })
  })

  test('draft_not_cancelled: a Draft is deleted, not cancelled', async () => {
    const s = await setup()
    const d = await draft(s)
    await refusedAsPredicted(s, d.id, 'cancel', () => cancel(s, d.id), 'draft_not_cancelled')
  })

  test('already_cancelled: a cancelled document is not cancelled again', async () => {
    const s = await setup()
    const i = await issued(s)
    await ok(cancel(s, i.id))
    await refusedAsPredicted(s, i.id, 'cancel', () => cancel(s, i.id), 'already_cancelled')
  })

  test('holds_money: a partially paid document is not cancelled (Payment simulated by setting amount_paid in the DB)', async () => {
    const s = await setup()
    const i = await issued(s)
    await simulatePaid(s, i.id, '10.00', 'partially_paid')
    const before = await expectPredicted(s, i.id, 'cancel', 'holds_money')
    expect(before).toMatchObject({ amount_paid: '10.00', amount_due: '109.00' })
    await refusedAsPredicted(s, i.id, 'cancel', () => cancel(s, i.id), 'holds_money')
  })

  test('holds_money: an Invoice converted from a Proforma holding Payments holds them too (Proforma Payment simulated in the DB)', async () => {
    const s = await setup()
    const pro = await issued(s, { type: 'proforma' })
    await simulatePaid(s, pro.id, '50.00', 'partially_paid')
    const inv = await ok(convert(s, pro.id), 201)
    expect(inv).toMatchObject({ status: 'partially_paid', amount_paid: '50.00', amount_due: '69.00' })
    await refusedAsPredicted(s, inv.id, 'cancel', () => cancel(s, inv.id), 'holds_money')
    await refusedAsPredicted(s, pro.id, 'cancel', () => cancel(s, pro.id), 'holds_money')
  })

  test('paid_not_cancelled: a paid document is corrected with a Credit Note (paid status simulated in the DB)', async () => {
    const s = await setup()
    const i = await issued(s)
    await simulatePaid(s, i.id, '119.00', 'paid')
    await refusedAsPredicted(s, i.id, 'cancel', () => cancel(s, i.id), 'paid_not_cancelled')
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('Convert refusals', () => {
  test('not_a_proforma: an Invoice does not convert', async () => {
    const s = await setup()
    const i = await issued(s)
    await refusedAsPredicted(s, i.id, 'convert', () => convert(s, i.id), 'not_a_proforma')
  })

  test('draft_not_converted: a Draft Proforma is issued first', async () => {
    const s = await setup()
    const d = await draft(s, { type: 'proforma' })
    await refusedAsPredicted(s, d.id, 'convert', () => convert(s, d.id), 'draft_not_converted')
  })

  test('cancelled_not_converted: a cancelled Proforma converts into nothing', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    expect(p.actions.convert).toEqual({ open: true })
    await ok(cancel(s, p.id))
    await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'cancelled_not_converted')
  })

  test('already_converted: a Proforma converts only once', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    await ok(convert(s, p.id), 201)
    await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'already_converted')
  })
  test('issuing_limit_reached: a Proforma of a Test business at its yearly Invoice limit predicts it on convert, Convert answers it (no remedy) and writes nothing; with the limit raised both open and the Invoice is issued', async () => {
    const s = await setup({ isTest: true, issuingLimit: 1 })
    await issued(s)
    const p = await issued(s, { type: 'proforma' })
    const e = await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'issuing_limit_reached')
    expect(e.message).toContain('2027-01-01')
    expect(e.remedy).toBeUndefined()
    const before = (await get(s, p.id)).body
    expect(before.actions.convert).toEqual({ open: false, code: 'issuing_limit_reached' })
    expect(before.converted_into_id).toBeNull()
    // The Proforma's own refusals come first: a cancelled one at the limit still says cancelled_not_converted.
    const gone = await issued(s, { type: 'proforma' })
    await ok(cancel(s, gone.id))
    await refusedAsPredicted(s, gone.id, 'convert', () => convert(s, gone.id), 'cancelled_not_converted')
    // The cause removed: the prediction opens and Convert issues the Invoice.
    await updateBusiness(s.hh.deps.db, s.hh.clock, s.bizId, { issuingLimit: 2 })
    expect((await get(s, p.id)).body.actions.convert).toEqual({ open: true })
    const inv = await ok(convert(s, p.id), 201)
    expect(inv).toMatchObject({
      type: 'invoice',
      status: 'issued',
      document_number: `TEST-INV-${YEAR}-0002`,
      proforma_id: p.id,
    })
    // At the limit again, a converted Proforma still answers already_converted first.
    await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'already_converted')
  })

  test('numbering_at_its_end: with the invoice numbering I{N} at its end, an issued Proforma predicts it on convert and Convert answers it, no number taken; with the pattern changed both open and the Invoice is issued', async () => {
    const s = await setup()
    await setNumbering(s.hh.deps.db, s.bizId, 'invoice', 'I{N}')
    // 1 to 8 taken (as after an import); 9 is never taken.
    await s.hh.deps.db.write((tx) => recordTaken(tx, s.bizId, 'invoice', 'I{N}', '', 8))
    const p = await issued(s, { type: 'proforma' })
    expect(p.document_number).toBe(`PRO-${YEAR}-0001`)
    const e = await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'numbering_at_its_end')
    expect(e.message).toContain('I{N}')
    // Refused again: nothing moved.
    await refusedAsPredicted(s, p.id, 'convert', () => convert(s, p.id), 'numbering_at_its_end')
    // A Draft Proforma is still told to issue first; an Invoice is still not a Proforma.
    const pd = await draft(s, { type: 'proforma' })
    expect(pd.actions.convert).toEqual({ open: false, code: 'draft_not_converted' })
    await setNumbering(s.hh.deps.db, s.bizId, 'invoice', 'I{NN}')
    expect((await get(s, p.id)).body.actions.convert).toEqual({ open: true })
    const inv = await ok(convert(s, p.id), 201)
    expect(inv).toMatchObject({ type: 'invoice', status: 'issued', document_number: 'I01', proforma_id: p.id })
    expect((await get(s, p.id)).body.converted_into_id).toBe(inv.id)
  })
})

describe("convert predictions of the new Invoice's issue (the judge alone, for what the API cannot reach)", () => {
  /** Facts of an issued, unconverted Proforma whose conversion would meet `convertIssue`. */
  function proformaFacts(business: Facts['business'], convertIssue: Facts['convertIssue']): Facts {
    return {
      doc: {
        type: 'proforma',
        status: 'issued',
        convertedIntoId: null,
        proformaId: null,
        total: '119.00',
        amountPaid: '0.00',
        issueDate: `${YEAR}-03-10`,
        clientId: 1,
        currency: 'EUR',
      },
      business,
      clientEmail: null,
      mailVia: null,
      send: { mailboxLost: false, sentToday: 0, dailyLimit: null, resumesOn: '', recipients: 1, toGiven: false },
      proforma: null,
      invoice: null,
      invoicesIssuedInYear: 0,
      year: 2026,
      numbering: null,
      receiptNumbering: null,
      convertIssue,
    }
  }

  test('issuing_limit_reached on convert: the Free plan gets remedy choose_plan with its remedy_url, as Issue does; a paid plan is open', () => {
    const atLimit = { invoicesIssuedInYear: 5, year: 2026, numbering: null }
    const free = proformaFacts({ isTest: false, plan: 'free', issuingLimit: 5 }, atLimit)
    expect(refusalFor('convert', free)).toMatchObject({ code: 'issuing_limit_reached', remedy: 'choose_plan' })
    expect(refusalFor('convert', free)!.message).toContain('2027-01-01')
    const entry = actionsOf(free, 'admin').convert
    expect(entry).toMatchObject({ open: false, code: 'issuing_limit_reached', remedy: 'choose_plan' })
    expect(entry.open === false && entry.remedy_url).toBeString()
    // The same remedy as the Issue of a Free plan's Invoice Draft at its limit.
    const draftFacts: Facts = {
      ...free,
      doc: { ...free.doc, type: 'invoice', status: 'draft', issueDate: null },
      invoicesIssuedInYear: 5,
      convertIssue: null,
    }
    expect(actionsOf(draftFacts, 'admin').issue).toEqual(entry)
    // A Test business on the Free plan: no remedy.
    expect(actionsOf(proformaFacts({ isTest: true, plan: 'free', issuingLimit: 5 }, atLimit), 'admin').convert).toEqual(
      { open: false, code: 'issuing_limit_reached' },
    )
    // The plan changed to a paid one: the limit no longer binds.
    expect(actionsOf(proformaFacts({ isTest: false, plan: 'pro', issuingLimit: 5 }, atLimit), 'admin').convert).toEqual(
      { open: true },
    )
  })

  test("the issuing limit is judged before the new Invoice's numbering; the numbering refusal follows when under the limit", () => {
    const end = { code: 'numbering_at_its_end' as const, message: 'at its end' }
    const both = proformaFacts(
      { isTest: true, plan: 'pro', issuingLimit: 1 },
      { invoicesIssuedInYear: 1, year: 2026, numbering: end },
    )
    expect(refusalFor('convert', both)?.code).toBe('issuing_limit_reached')
    const under = proformaFacts(
      { isTest: true, plan: 'pro', issuingLimit: 2 },
      { invoicesIssuedInYear: 1, year: 2026, numbering: end },
    )
    expect(refusalFor('convert', under)).toEqual(end)
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('Delete and Update refusals', () => {
  test('issued_not_deleted: only a Draft is deleted', async () => {
    const s = await setup()
    const i = await issued(s)
    await refusedAsPredicted(s, i.id, 'delete', () => del(s, i.id), 'issued_not_deleted')
  })

  test('issued_not_changed: an issued document is not updated (there is no update action to predict it)', async () => {
    const s = await setup()
    const i = await issued(s)
    await refusedAsPredicted(s, i.id, null, () => patch(s, i.id, { notes: 'changed' }), 'issued_not_changed')
    const c = await issued(s)
    await ok(cancel(s, c.id))
    await refusedAsPredicted(s, c.id, null, () => patch(s, c.id, { lines: [line()] }), 'issued_not_changed')
  })

  test('proforma_deleted: an Invoice Draft linked to a Draft Proforma that is then deleted is not saved (and not issued)', async () => {
    const s = await setup()
    const p = await draft(s, { type: 'proforma' })
    const inv = await draft(s, { proforma_id: p.id })
    expect((await del(s, p.id)).status).toBe(204)
    await refusedAsPredicted(s, inv.id, 'issue', () => patch(s, inv.id, { notes: 'still linked' }), 'proforma_deleted')
    await refusedAsPredicted(s, inv.id, 'issue', () => issue(s, inv.id), 'proforma_deleted')
    // Cleared, the link no longer binds.
    const cleared = await ok(patch(s, inv.id, { proforma_id: null }))
    expect(cleared.proforma_id).toBeNull()
    expect(cleared.actions.issue).toEqual({ open: true })
  })

  test('only_into_an_invoice: a Credit Note Draft given a proforma_id is refused, on update and on create', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    const cn = await draft(s, { type: 'credit_note' })
    // The link does not exist before the request, so no action can predict this one.
    await refusedAsPredicted(s, cn.id, null, () => patch(s, cn.id, { proforma_id: p.id }), 'only_into_an_invoice')
    for (const type of ['credit_note', 'quote', 'proforma']) {
      const r = await create(s, { type, proforma_id: p.id })
      expectRefusal(r, 'only_into_an_invoice')
    }
  })

  test('proforma_other_currency: an Invoice Draft in another currency than its Proforma is not saved', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    const inv = await draft(s, { proforma_id: p.id })
    await refusedAsPredicted(s, inv.id, null, () => patch(s, inv.id, { currency: 'USD' }), 'proforma_other_currency')
    const r = await create(s, { proforma_id: p.id, currency: 'USD' })
    expect(r.body.error).toMatchObject({ type: 'refusal', code: 'proforma_other_currency' })
    // A linked Draft Proforma changed to another currency: the Invoice Draft shows it and is refused.
    const pd = await draft(s, { type: 'proforma' })
    const inv2 = await draft(s, { proforma_id: pd.id })
    await ok(patch(s, pd.id, { currency: 'USD' }))
    await refusedAsPredicted(s, inv2.id, 'issue', () => patch(s, inv2.id, { notes: 'x' }), 'proforma_other_currency')
    await refusedAsPredicted(s, inv2.id, 'issue', () => issue(s, inv2.id), 'proforma_other_currency')
  })

  test('proforma_other_client: an Invoice Draft for another Client than its Proforma is not saved', async () => {
    const s = await setup()
    const other = await acmeClient(h, s.key, { name: 'Other Client' })
    const p = await issued(s, { type: 'proforma' })
    const inv = await draft(s, { proforma_id: p.id })
    await refusedAsPredicted(s, inv.id, null, () => patch(s, inv.id, { client_id: other.id }), 'proforma_other_client')
    const r = await create(s, { proforma_id: p.id, client_id: other.id })
    expect(r.body.error).toMatchObject({ type: 'refusal', code: 'proforma_other_client' })
    const pd = await draft(s, { type: 'proforma' })
    const inv2 = await draft(s, { proforma_id: pd.id })
    await ok(patch(s, pd.id, { client_id: other.id }))
    await refusedAsPredicted(s, inv2.id, 'issue', () => patch(s, inv2.id, { notes: 'x' }), 'proforma_other_client')
  })

  test('cancelled_not_converted: an Invoice Draft still linked to a Proforma cancelled meanwhile is not saved (and not issued)', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    const inv = await draft(s, { proforma_id: p.id })
    await ok(cancel(s, p.id))
    await refusedAsPredicted(s, inv.id, 'issue', () => patch(s, inv.id, { notes: 'x' }), 'cancelled_not_converted')
    await refusedAsPredicted(s, inv.id, 'issue', () => issue(s, inv.id), 'cancelled_not_converted')
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('record_payment predictions (the Record endpoint is not exercised here)', () => {
  async function expectRecord(s: Setup, id: number, code: string) {
    const d = (await get(s, id)).body
    expect(d.actions.record_payment).toMatchObject({ open: false, code })
    expect(d.still_takes_payment).toBe(false)
    return d.actions.record_payment
  }

  test('type_takes_no_payments: a Credit Note or a Quote, Draft or issued', async () => {
    const s = await setup()
    const inv = await issued(s)
    for (const body of [{ type: 'credit_note', credited_document_id: inv.id }, { type: 'quote' }]) {
      const d = await draft(s, body)
      await expectRecord(s, d.id, 'type_takes_no_payments')
      await ok(issue(s, d.id))
      await expectRecord(s, d.id, 'type_takes_no_payments')
    }
  })

  test('draft_takes_no_payments: a Draft Invoice or Proforma', async () => {
    const s = await setup()
    await expectRecord(s, (await draft(s)).id, 'draft_takes_no_payments')
    await expectRecord(s, (await draft(s, { type: 'proforma' })).id, 'draft_takes_no_payments')
  })

  test('cancelled_takes_no_payments: a cancelled Invoice', async () => {
    const s = await setup()
    const i = await issued(s)
    await ok(cancel(s, i.id))
    await expectRecord(s, i.id, 'cancelled_takes_no_payments')
  })

  test('payment_goes_to_its_invoice: a converted Proforma, with remedy record_on_its_invoice', async () => {
    const s = await setup()
    const p = await issued(s, { type: 'proforma' })
    expect(p.actions.record_payment).toEqual({ open: true })
    await ok(convert(s, p.id), 201)
    const entry = await expectRecord(s, p.id, 'payment_goes_to_its_invoice')
    expect(entry.remedy).toBe('record_on_its_invoice')
    expect(entry.remedy_url).toBeUndefined()
  })

  test('nothing_due: an issued Invoice whose total is zero, or one fully paid (paid simulated in the DB)', async () => {
    const s = await setup()
    const zero = await issued(s, { lines: [line({ unit_price: '0' })] })
    expect(zero.amount_due).toBe('0.00')
    await expectRecord(s, zero.id, 'nothing_due')
    const i = await issued(s)
    expect((await get(s, i.id)).body.still_takes_payment).toBe(true)
    await simulatePaid(s, i.id, '119.00', 'paid')
    await expectRecord(s, i.id, 'nothing_due')
    expect((await get(s, i.id)).body).toMatchObject({ status: 'paid', amount_paid: '119.00', amount_due: '0.00' })
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('send predictions', () => {
  test('no_mail_provider: a Business with no way to send shows remedy connect_mail_provider with a remedy_url', async () => {
    const s = await setup()
    for (const d of [await draft(s), await issued(s)]) {
      const entry = (await get(s, d.id)).body.actions.send
      expect(entry).toMatchObject({ open: false, code: 'no_mail_provider', remedy: 'connect_mail_provider' })
      expect(entry.remedy_url).toBeString()
      expect(entry.remedy_url.length).toBeGreaterThan(0)
    }
  })

  test('cancelled_not_sent: a cancelled document is not sent', async () => {
    const s = await setup()
    const i = await issued(s)
    await ok(cancel(s, i.id))
    expect((await get(s, i.id)).body.actions.send).toEqual({ open: false, code: 'cancelled_not_sent' })
  })

  describe("with the service's own mail server configured", () => {
    let mh: Harness
    beforeAll(async () => {
      mh = await makeHarness({ config: { mailRelay: 'smtp://relay.invalid:25' } })
    })
    afterAll(() => mh.close())

    test('a Business with an email address of its own can send; one without is no_mail_provider', async () => {
      const withEmail = await setup({ email: 'office@seller.example' }, mh)
      const i = await issued(withEmail)
      expect(i.actions.send).toEqual({ open: true })
      const without = await setup({}, mh)
      const j = await issued(without)
      expect(j.actions.send).toMatchObject({ open: false, code: 'no_mail_provider', remedy: 'connect_mail_provider' })
    })

    test('a Send of a Draft issues it first, so it predicts the issue refusal (number_malformed, issuing_limit_reached)', async () => {
      const s = await setup({ email: 'office@seller.example' }, mh)
      const bad = await draft(s, { document_number: 'nope' })
      expect(bad.actions.send).toEqual({ open: false, code: 'number_malformed' })
      const t = await setup({ email: 'office@test.example', isTest: true, issuingLimit: 0 }, mh)
      const limited = await draft(t)
      expect(limited.actions.send).toMatchObject({ open: false, code: 'issuing_limit_reached' })
      expect(limited.actions.issue).toMatchObject({ open: false, code: 'issuing_limit_reached' })
    })
  })
})

// ---------------------------------------------------------------------------------------------------------------

describe('roles', () => {
  test("a Viewer's key sees every action as role_forbidden, whatever the document", async () => {
    const s = await setup()
    const viewer = await h.key(s.bizId, 'viewer')
    for (const d of [await draft(s), await issued(s), await issued(s, { type: 'proforma' })]) {
      const r = await get(s, d.id, viewer)
      expect(r.status).toBe(200)
      expect(Object.keys(r.body.actions).sort()).toEqual([...ACTIONS].sort())
      for (const a of ACTIONS) expect(r.body.actions[a]).toEqual({ open: false, code: 'role_forbidden' })
    }
  })

  test("a Viewer's issue, cancel, convert, delete and update are 403 permission, never a refusal, and change nothing", async () => {
    const s = await setup()
    const viewer = await h.key(s.bizId, 'viewer')
    const d = await draft(s)
    const i = await issued(s)
    const p = await issued(s, { type: 'proforma' })
    const before = await Promise.all([d, i, p].map(async (x) => (await get(s, x.id)).body))
    const calls: Array<[string, string, unknown?]> = [
      ['POST', `/v1/documents/${d.id}/issue`],
      ['POST', `/v1/documents/${i.id}/issue`], // would be already_issued for an Admin
      ['POST', `/v1/documents/${i.id}/cancel`],
      ['POST', `/v1/documents/${d.id}/cancel`],
      ['POST', `/v1/documents/${p.id}/convert`],
      ['DELETE', `/v1/documents/${d.id}`],
      ['PATCH', `/v1/documents/${d.id}`, { notes: 'viewer' }],
      ['POST', '/v1/documents', { type: 'invoice', client_id: s.clientId, lines: [line()] }],
    ]
    for (const [method, path, body] of calls) {
      const r = await h.request(method, path, { key: viewer, body })
      expect(`${method} ${path} ${r.status} ${r.body?.error?.type}`).toBe(`${method} ${path} 403 permission`)
    }
    const after = await Promise.all([d, i, p].map(async (x) => (await get(s, x.id)).body))
    expect(after).toEqual(before)
    expect(await documentCount(s)).toBe(3)
  })
})
