// Document search is case-blind in any script: number, notes and the Client name are matched on text lower-cased
// by JS (search_text), kept up to date by every write that changes them; old rows are backfilled by the migration.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { type Harness, harnessForFile } from '../../../test/harness'
import { documents } from '../../db/schema'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

interface Setup {
  key: string
  clientId: number
}

async function newClient(key: string, name: string): Promise<number> {
  const r = await h.request('POST', '/v1/clients', {
    key,
    body: { name, email: 'billing@client.example', country: 'DE' },
  })
  if (r.status !== 201) throw new Error(r.text)
  return r.body.id
}

async function setup(clientName = 'Plain Client'): Promise<Setup> {
  const b = await h.business({ currency: 'EUR' })
  return { key: b.key, clientId: await newClient(b.key, clientName) }
}

async function made(s: Setup, body: Record<string, unknown> = {}): Promise<any> {
  const r = await h.request('POST', '/v1/documents', {
    key: s.key,
    body: {
      type: 'invoice',
      client_id: s.clientId,
      lines: [{ description: 'Work', quantity: '1', unit_price: '10.00', vat_rate: '0' }],
      ...body,
    },
  })
  if (r.status !== 201) throw new Error(`create refused: ${r.status} ${r.text}`)
  return r.body
}

async function issue(s: Setup, id: number): Promise<any> {
  const r = await h.request('POST', `/v1/documents/${id}/issue`, { key: s.key })
  if (r.status !== 200) throw new Error(`issue refused: ${r.status} ${r.text}`)
  return r.body
}

async function search(s: Setup, term: string): Promise<number[]> {
  const r = await h.request('GET', `/v1/documents?limit=100&search=${encodeURIComponent(term)}`, { key: s.key })
  expect(r.status).toBe(200)
  return r.body.data.map((d: any) => d.id)
}

describe('search in any case and any script', () => {
  test('notes "ÜBER Straße" are found by ÜBER, über, Straße, STRAßE and stra, and not by STRASSE (toLowerCase keeps ß)', async () => {
    const s = await setup()
    const d = await made(s, { notes: 'ÜBER Straße' })
    await made(s, { notes: 'something else' })
    for (const term of ['ÜBER', 'über', 'Über', 'Straße', 'STRAßE', 'stra', 'über straße'])
      expect(await search(s, term)).toEqual([d.id])
    expect(await search(s, 'STRASSE')).toEqual([])
  })

  test('Greek and Cyrillic notes are found in the other case', async () => {
    const s = await setup()
    const greek = await made(s, { notes: 'Ακμή υπηρεσίες' })
    const cyrillic = await made(s, { notes: 'Услуги ПО ДОГОВОРУ' })
    expect(await search(s, 'ΥΠΗΡΕΣΊΕΣ')).toEqual([greek.id])
    expect(await search(s, 'по договору')).toEqual([cyrillic.id])
  })

  test('a number search still works in either case, and a number is searchable from the moment it is issued', async () => {
    const s = await setup()
    const d = await made(s)
    const other = await issue(s, (await made(s)).id)
    const doc = await issue(s, d.id)
    expect(await search(s, doc.document_number)).toEqual([doc.id])
    expect(await search(s, doc.document_number.toLowerCase())).toEqual([doc.id])
    expect(await search(s, other.document_number)).toEqual([other.id])
  })

  test('notes changed on a Draft are searched as they now stand; cleared notes are found no more', async () => {
    const s = await setup()
    const d = await made(s, { notes: 'Erste Änderung' })
    expect(await search(s, 'ÄNDERUNG')).toEqual([d.id])
    expect(
      (await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { notes: 'Zweite ÖFFNUNG' } })).status,
    ).toBe(200)
    expect(await search(s, 'änderung')).toEqual([])
    expect(await search(s, 'öffnung')).toEqual([d.id])
    // A change of other fields keeps the notes searchable.
    expect((await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { payment_terms: 7 } })).status).toBe(
      200,
    )
    expect(await search(s, 'öffnung')).toEqual([d.id])
    expect((await h.request('PATCH', `/v1/documents/${d.id}`, { key: s.key, body: { notes: null } })).status).toBe(200)
    expect(await search(s, 'öffnung')).toEqual([])
  })

  test('the Client name matches in any case: as issued (after a rename) and, on a Draft, as the Client now stands', async () => {
    const s = await setup('Çelik Ürün')
    const doc = await issue(s, (await made(s)).id)
    const draft = await made(s)
    expect(await search(s, 'ÇELIK')).toEqual([doc.id, draft.id])
    expect(
      (await h.request('PATCH', `/v1/clients/${s.clientId}`, { key: s.key, body: { name: 'Özgür Ltd' } })).status,
    ).toBe(200)
    // The issued document keeps the name it was issued to; both documents belong to the Client now named Özgür.
    expect(await search(s, 'ürün')).toEqual([doc.id])
    expect(await search(s, 'ÖZGÜR')).toEqual([doc.id, draft.id])
  })

  test('a converted Invoice is found by the Proforma notes it carries and by its own number', async () => {
    const s = await setup()
    const pro = await issue(s, (await made(s, { type: 'proforma', notes: 'Anzahlung GRÖßE' })).id)
    const r = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: s.key })
    expect(r.status).toBe(201)
    expect(await search(s, 'größe')).toEqual([pro.id, r.body.id])
    expect(await search(s, r.body.document_number.toLowerCase())).toEqual([r.body.id])
  })
})

describe('the migration of rows written before search_text', () => {
  /** The statements of migrations/0008 after its ALTER TABLE, run again on rows made to look as they stood before. */
  async function rerunBackfill(): Promise<void> {
    const text = await Bun.file(join(import.meta.dir, '../../../migrations/0008_document_search_text.sql')).text()
    const statements = text.split('--> statement-breakpoint').slice(1)
    expect(statements.length).toBeGreaterThan(0)
    for (const stmt of statements) await h.deps.db.write((tx) => tx.run(sql.raw(stmt)))
  }

  test('old rows are backfilled with lower() (ASCII folded), so number, notes and issued Client name are found again', async () => {
    const s = await setup('Old Client')
    const doc = await issue(s, (await made(s, { notes: 'Legacy Retainer' })).id)
    await h.deps.db.write((tx) => tx.update(documents).set({ searchText: '' }).where(eq(documents.id, doc.id)))
    await h.request('PATCH', `/v1/clients/${s.clientId}`, { key: s.key, body: { name: 'Renamed Client' } })
    expect(await search(s, 'retainer')).toEqual([])
    await rerunBackfill()
    expect(await search(s, 'RETAINER')).toEqual([doc.id])
    expect(await search(s, doc.document_number.toLowerCase())).toEqual([doc.id])
    expect(await search(s, 'old client')).toEqual([doc.id])
  })

  test('a due date once saved past 9999 (+010000-...) is repaired to 9999-12-31, so the document and the list answer 200 again', async () => {
    const s = await setup()
    const doc = await issue(s, (await made(s, { issue_date: '9999-12-31', due_date: '9999-12-31' })).id)
    await h.deps.db.write((tx) =>
      tx.update(documents).set({ dueDate: '+010000-01-01' }).where(eq(documents.id, doc.id)),
    )
    await rerunBackfill()
    const r = await h.request('GET', `/v1/documents/${doc.id}`, { key: s.key })
    expect(r.status).toBe(200)
    expect(r.body.due_date).toBe('9999-12-31')
    expect((await h.request('GET', '/v1/documents', { key: s.key })).status).toBe(200)
  })
})
